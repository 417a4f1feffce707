/*
 * arrays.c - -F npy: positions as NumPy arrays (zhkit-arrays(5)), into
 * the directory -o names; -F parquet: the same tables as Parquet files
 * (cli/parquet_write.c).  A worker makes a game's records (cli/npy.c's
 * npy_rec) as its output; the tables' writer (npy_open's) receives them
 * in input order.  A game with an error is not written.
 */
#include "format.h"

/* The directory -o names, its tables opened (as .npy files, or, with
   a codec, as Parquet files), their stream the jobs' output; 0, or -1 if
   not (said). */
static int
open_dir(struct opts *o, struct jobs *j, const char *outpath,
    const char *codec)
{
	if (outpath != NULL && strcmp(outpath, "-") == 0) {
		cli_fail("-o -: the %s are files of a directory, not one "
		    "stream", "tables");
		return -1;
	}
	if (outpath == NULL || o->variations || clean_splits(&o->clean)) {
		cli_fail("-F npy: %s", outpath == NULL ? "-o DIR is needed "
		    "(the arrays are files of a directory)" : o->variations ?
		    "--variations cannot be written (the mainline only)" :
		    "--split cannot be written (one directory)");
		return -1;
	}
	if ((o->npy = npy_open_as(outpath, codec)) == NULL)
		return -1;
	j->out = npy_sink(o->npy);
	return 0;
}

int
npy_open_dir(struct opts *o, struct jobs *j, const char *outpath)
{
	return open_dir(o, j, outpath, NULL);
}

int
parquet_open_dir(struct opts *o, struct jobs *j, const char *outpath)
{
	return open_dir(o, j, outpath, o->compression != NULL ?
	    o->compression : "zstd");
}

void
npy_next_input(struct opts *o, const char *name)
{
	if (o->npy != NULL)
		npy_input(o->npy, name);
}

int
npy_close_dir(struct opts *o)
{
	return o->npy != NULL && npy_close(o->npy) != 0 ? -1 : 0;
}

int
npy_begin(struct state *st, FILE *err)
{
	(void)err;
	st->npy.len = 0;
	if (st->bad)
		return FMT_SKIP;	/* never written */
	if (st->r.started)
		npy_game_begin(&st->npy, st->g, &st->r);
	return FMT_WALK;
}

int
npy_on_ply(void *arg, const struct zh_ply *pl)
{
	struct state *st = arg;

	return npy_ply(&st->npy, pl, &st->o->sel);
}

int
npy_on_bply(void *arg, const struct zh_bply *pl)
{
	struct state *st = arg;

	return npy_bply(&st->npy, pl, &st->o->sel);
}

/* The game's records written as its output. */
int
npy_end(struct state *st, bool walked, FILE *out)
{
	if (!walked)
		return 0;
	if (st->npy.fail) {
		st->npy.len = 0;
		return -1;
	}
	npy_game_end(&st->npy);
	if (st->npy.len > 0 && fwrite(st->npy.buf, 1, st->npy.len, out) !=
	    st->npy.len)
		return -2;
	return 0;
}
