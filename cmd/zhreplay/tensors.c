/*
 * tensors.c - -F planes: CrazyAra's training tensors (zhkit-planes(5))
 * into the directory -o names: a worker makes a game's records
 * (planes.c's planes_rec, over libzh's planes), the shards' writer
 * (planes_open's) receives them in input order.  A game with an error
 * is not written; a game of two boards has no planes (none written).
 */
#include "format.h"

int
planes_open_dir(struct opts *o, struct jobs *j, const char *outpath)
{
	if (outpath != NULL && strcmp(outpath, "-") == 0) {
		cli_fail("-o -: the %s are files of a directory, not one "
		    "stream", "tables");
		return -1;
	}
	if (outpath == NULL || o->variations || clean_splits(&o->clean)) {
		cli_fail("-F planes: %s", outpath == NULL ? "-o DIR is needed "
		    "(the tensors are files of a directory)" : o->variations ?
		    "--variations cannot be written (the mainline only)" :
		    "--split cannot be written (one directory)");
		return -1;
	}
	if ((o->planes = planes_open(outpath, &o->popt)) == NULL)
		return -1;
	j->out = planes_sink(o->planes);
	return 0;
}

void
planes_next_input(struct opts *o, const char *name)
{
	if (o->planes != NULL)
		planes_input(o->planes, name);
}

int
planes_close_dir(struct opts *o)
{
	return o->planes != NULL && planes_close(o->planes) != 0 ? -1 : 0;
}

int
planes_begin(struct state *st, FILE *err)
{
	(void)err;
	st->planes.len = 0;
	if (st->bad)
		return FMT_SKIP;	/* never written */
	if (st->r.started)
		planes_game_begin(&st->planes, &st->o->popt, st->r.v);
	return FMT_WALK;
}

int
planes_on_ply(void *arg, const struct zh_ply *pl)
{
	struct state *st = arg;

	return planes_ply(&st->planes, pl, zh_plysel_match(&st->o->sel, pl));
}

/* A position of two boards: no planes. */
int
planes_on_bply(void *arg, const struct zh_bply *pl)
{
	(void)pl;
	return ((struct state *)arg)->fail ? -1 : 0;
}

/* The game's records written as its output. */
int
planes_end(struct state *st, bool walked, FILE *out)
{
	if (!walked)
		return 0;
	if (st->planes.fail) {
		st->planes.len = 0;
		return -1;
	}
	planes_game_end(&st->planes);
	if (st->planes.len > 0 && fwrite(st->planes.buf, 1, st->planes.len,
	    out) != st->planes.len)
		return -2;
	return 0;
}
