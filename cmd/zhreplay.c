/* zhreplay - replay games and print every position. */
#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "opts.h"
#include "warn.h"
#include "format.h"		/* the formats' table: cmd/zhreplay/ */

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: zhreplay [-J | -F FORMAT] [-f DIALECT] [-t DIALECT] [-v VARIANT]\n"
	    "                [-p A-B] [-e N]\n"
	    "                [--start-only | --final-only] [--mainline | --variations]\n"
	    "                [--color WHEN] [-j N] [-o FILE] [-q] [--limit NAME=N]\n"
	    "                [--progress] [--game-offset N] [FILE ...]\n"
	    "Replay games and write every position.\n"
	    "  -F, --format F     fen (default), epd, uci, ucipos, san, jsonl, board,\n"
	    "                     npy (NumPy arrays into the directory -o names),\n"
	    "                     parquet (the same tables as Parquet files;\n"
	    "                     --compression zstd (default), snappy, gzip, none);\n"
	    "                     planes (training tensors into the directory -o\n"
	    "                     names: --planes-version 1|2|3, --dtype uint8|int8|\n"
	    "                     float16|float32, --normalize, --policy flat|map,\n"
	    "                     --mask, --validation F, --seed N, --shard N;\n"
	    "                     zhkit-planes(5));\n"
	    "                     pictures: svg, png (one a position), gif (one a\n"
	    "                     game); -o PATTERN: %%d the game, %%d the ply\n"
	    "  -J, --json         the same as -F jsonl (zhkit-json(5))\n"
	    "  -f, --from D       input dialect: auto (default), lichess, xboard,\n"
	    "                     chesscom, fairy (every one is read)\n"
	    "  -t, --to D         dialect of FEN and SAN: lichess (default), xboard,\n"
	    "                     chesscom, fairy\n"
	    "  -v, --variant V    play every game as V (default: from its tags)\n");
	fprintf(f,
	    CLI_DEFVAR_HELP
	    CLI_COLUMN_HELP
	    "  -p, --plies A-B    only plies A to B (0 is the start; A-, -B, A)\n"
	    "  -e, --every N      only every N-th ply from A\n"
	    "      --start-only   only the start position\n"
	    "      --final-only   only the final position\n"
	    "      --mainline     only the mainline (default)\n"
	    "      --variations   also the variations, after the mainline\n"
	    "      --color WHEN   board colours: auto (default), always, never\n"
	    "  -j, --jobs N       N threads (0: all cores; default 1)\n"
	    CLI_LIMIT_HELP
	    "      --progress     games, MB, games/s and ETA on a terminal's stderr\n"
	    "      --game-offset N  number games from N+1 (a chunk's place in a\n"
	    "                     split input)\n"
	    "  -o, --output FILE  write to FILE (with a split: its name pattern)\n"
	    "  -r, --rejects FILE also write the games with errors there, as read\n"
	    CLEAN_SPLIT_HELP
	    PIC_HELP
	    PIC_GIF_HELP
	    WARN_HELP
	    "  -q, --quiet        no summary line\n"
	    "  -h, --help         this help;  -V, --version  the version\n"
	    SEL_HELP);
}

/*
 * A game's end, one board's or two: its text written, then the reader's
 * error and the replay's 're', with its ply if 'at_ply' (and 'board', of
 * a two-board game, if >= 0).  Returns 1 if there was an error, -1 if
 * the write failed (the output layer's to say, not a bad game), else 0.
 */
static int
game_end(struct state *st, const struct zh_game *g, FILE *out, FILE *err,
    const struct zh_error *re, bool at_ply, int board)
{
	const struct opts *o = st->o;
	char on[16] = "";
	int bad = 0;

	if (st->len > 0 && fwrite(st->buf, 1, st->len, out) != st->len)
		return -1;
	if (g->err.code != ZH_OK) {
		cli_fdiag(err, "error", o->name, g->err.line, g->err.col,
		    "game %ld: %s", g->number, g->err.text);
		bad = 1;
	}
	if (re->code == ZH_OK)
		return bad;
	if (at_ply && board >= 0)
		snprintf(on, sizeof on, " on board %c", zh_board_letter(board));
	if (at_ply)
		cli_fdiag(err, "error", o->name, re->line, re->col,
		    "game %ld, ply %ld%s: %s", g->number, re->ply, on,
		    re->text);
	else
		cli_fdiag(err, "error", o->name, re->line,
		    re->col > 0 ? re->col : 1, "game %ld: %s", g->number,
		    re->text);
	return 1;
}

/* ======================== one game ======================== */

static void *
make_state(void *ctx)
{
	struct state *st = calloc(1, sizeof *st);

	if (st != NULL) {
		st->o = ctx;
		st->pic.o = &st->o->pic;
	}
	return st;
}

static void
free_state(void *p)
{
	struct state *st = p;

	if (st != NULL) {
		zh_replay_free(&st->r);
		zh_lines_free(&st->lines);
		zh_select_scratch_free(&st->sc);
		pic_free(&st->pic);
		npy_rec_free(&st->npy);
		planes_rec_free(&st->planes);
		free(st->buf);
		free(st);
	}
}

/* The replay as the format needs it: its moves' text or not (records:
   a game of one board without, a game of two with, zh_replay knowing
   which it is). */
static void
replay_needs(struct zh_replay *r, const struct opts *o)
{
	unsigned n = o->fmt->needs;
	bool text = n & (FMT_SAN | FMT_UCI);

	r->fast = !text && !(n & FMT_RECORDS);
	r->fast_one = !text && (n & FMT_RECORDS);
	r->no_uci = !(n & (FMT_UCI | FMT_RECORDS));
}

/* The errors of the game's variations, if they were walked; true if any. */
static bool
variation_errors(const struct opts *o, const struct zh_game *g,
    const struct zh_replay *r, FILE *err)
{
	size_t i;

	for (i = 0; i < r->nvarerr; i++)
		cli_fdiag(err, "error", o->name, r->varerr[i].line,
		    r->varerr[i].col, "game %ld, ply %ld (variation): %s",
		    g->number, r->varerr[i].ply, r->varerr[i].text);
	if (r->nvarerr_more > 0)
		cli_fdiag(err, "error", o->name, g->line, 1,
		    "game %ld: %zu more errors in variations", g->number,
		    r->nvarerr_more);
	return r->nvarerr > 0;
}

/* What walk() leaves: go on to the game's end (the game failed or
   not), or stop with work()'s value. */
enum { GO_ON, GO_ON_BAD, STOP_BAD, STOP };

/* The game's positions to its format's row; *walked: whether they
   were. */
static int
walk(struct state *st, const struct zh_game *g, FILE *out, FILE *err,
    bool *walked)
{
	const struct format *f = st->o->fmt;
	unsigned fl = (st->o->variations ? ZH_WALK_VARIATIONS : 0) |
	    (f->needs & FMT_COMMENTS ? ZH_WALK_COMMENTS : 0);
	int rc = 0;

	*walked = st->r.started;	/* a variant or FEN tag error:
					   nothing */
	if (f->begin != NULL && (rc = f->begin(st, err)) != FMT_WALK) {
		if (rc == FMT_REFUSED)
			return STOP_BAD;
		*walked = false;
	}
	if (*walked && (zh_replay_walk(&st->lines, g, &st->r, fl, f->ply,
	    f->bply, st) != 0 || st->fail))
		rc = -1;
	else
		rc = f->end != NULL ? f->end(st, *walked, out) : 0;
	if (rc == -1) {
		cli_fdiag(err, "error", st->o->name, g->line, 1,
		    "game %ld: out of memory", g->number);
		st->len = 0;
		return STOP_BAD;
	}
	return rc == -2 ? STOP : rc > 0 ? GO_ON_BAD : GO_ON;
}

static int
work(const struct zh_game *g, FILE *out, FILE *err, void *ctx, void *state,
    struct jobs_res *res)
{
	const struct opts *o = ctx;
	struct state *st = state;
	struct zh_replay *r;
	bool bad, walked;
	int rc, tagdrop;

	if (sel_early(&o->gsel, g, res, &tagdrop))
		return 0;		/* by its tags: not replayed */
	if (st == NULL) {
		cli_fdiag(err, "error", o->name, g->line, 1, "out of memory");
		return 1;
	}
	r = &st->r;
	st->fail = false;
	replay_needs(r, o);
	st->g = g;
	r->null_moves = warn_null_moves;
	sel_watch(&o->gsel, r, tagdrop, &st->sc);
	rc = zh_replay(g, cli_game_variant(g, o->force, o->defvar), r);
	st->len = 0;
	if (o->clean.by != NULL)
		clean_route(&o->clean, g, r, res->route, sizeof res->route);
	if (o->gsel.on && sel_game(&o->gsel, g, r,
	    g->err.code != ZH_OK ? -1 : rc, tagdrop, &st->sc, res) != 0)
		return 0;
	st->bad = rc != 0 || g->err.code != ZH_OK;
	if ((rc = walk(st, g, out, err, &walked)) >= STOP_BAD)
		return rc == STOP_BAD;
	bad = rc == GO_ON_BAD;
	if ((rc = game_end(st, g, out, err, &r->err, r->err.ply > 0,
	    r->err_board)) < 0)
		return 0;
	bad = rc > 0 || bad;
	if (walked && warn_nulls(err, o->name, g, r))
		bad = true;
	if (o->variations && walked && variation_errors(o, g, r, err))
		bad = true;
	return bad ? 1 : 0;
}

static FILE *
done(void *ctx, const struct zh_game *g, const struct jobs_res *jr)
{
	struct opts *o = ctx;

	FILE *f = o->out;

	if (!sel_done(&o->gsel, o->jobs, g, jr))
		return NULL;
	if (clean_splits(&o->clean) &&
	    (f = clean_file(&o->clean, jr->route)) == NULL) {
		o->jobs->stop = 1;	/* said; the game is not counted */
		return NULL;
	}
	o->games++;
	if (jr->result != 0)
		o->bad++;
	if (jr->result != 0 && o->rejects != NULL) {
		fwrite(g->raw, 1, g->rawlen, o->rejects);
		fputs("\n\n", o->rejects);
	}
	return f;
}

/* ======================== options ======================== */

static int
find_name(const char *const *names, const char *s)
{
	int i;

	for (i = 0; names[i] != NULL; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

enum { O_START = 256, O_FINAL, O_MAINLINE, O_VARIATIONS, O_COLOR, O_DEFVAR,
	O_COMPRESSION };

/* An option of zhreplay's own (not -j and such) into o; 1 if taken, 0
   if not one, -1 if bad (said). */
static int
option(struct opts *o, int c, const char *arg, int *color)
{
	static const char *const colors[] = { "auto", "always", "never", NULL };
	int i;

	switch (c) {
	case 'e':
		if ((o->sel.every = cli_number(arg, 1, 100000000L,
		    "--every")) < 0)
			return -1;
		break;
	case 'f':	/* --from, as in zhfen, zhpgn and zhcheck */
		if (format_find(arg) == NULL)
			return cli_from(arg) == 0 ? 1 : -1;
		/* a format's name: -f was --format once */
		cli_deprecated("-f for --format", "-F");
		/* FALLTHROUGH */
	case 'F':
		if ((o->fmt = format_find(arg)) == NULL) {
			cli_fail("unknown format '%s' (try %s)", arg,
			    format_names());
			return -1;
		}
		break;
	case O_COMPRESSION:	/* -F parquet's pages */
		if (!pqw_codec_known(arg)) {
			cli_fail("--compression: unknown codec '%s' (try zstd, "
			    "snappy, gzip, none)", arg);
			return -1;
		}
		o->compression = arg;
		break;
	case 'J':	/* --json, as in the other tools */
		o->fmt = format_find("jsonl");
		break;
	case 'p':
		if (zh_plysel_range(&o->sel, arg) != 0) {
			cli_fail("--plies: '%s' is not a range A-B, A-, -B or A",
			    arg);
			return -1;
		}
		break;
	case 't':
		if ((o->dialect = cli_dialect(arg, "--to", false)) < 0)
			return -1;
		break;
	case 'v':
		if ((o->force = cli_variant(arg)) == NULL)
			return -1;
		break;
	case O_DEFVAR:
		if ((o->defvar = cli_variant(arg)) == NULL)
			return -1;
		break;
	case O_START:
		o->sel.start_only = true;
		break;
	case O_FINAL:
		o->sel.final_only = true;
		break;
	case O_MAINLINE:
	case O_VARIATIONS:
		o->variations = c == O_VARIATIONS;
		break;
	case O_COLOR:
		if ((*color = find_name(colors, arg)) < 0) {
			cli_fail("--color: '%s' is not auto, always or never",
			    arg);
			return -1;
		}
		break;
	default:
		if ((i = planes_option(&o->popt, c, arg)) != 0)
			return i;
		return pic_option(&o->pic, c, arg);
	}
	return 1;
}

/* The options into o and j; -1 to go on, else the exit status. */
static int
options(int argc, char **argv, struct opts *o, struct jobs *j,
    const char **outpath, const char **rejpath, int *color)
{
	static const struct option lopts[] = {
		{ "color", required_argument, NULL, O_COLOR },
		{ "colour", required_argument, NULL, O_COLOR },
		{ "compression", required_argument, NULL, O_COMPRESSION },
		CLI_COLUMN_OPT,
		{ "default-variant", required_argument, NULL, O_DEFVAR },
		{ "every", required_argument, NULL, 'e' },
		{ "final-only", no_argument, NULL, O_FINAL },
		{ "format", required_argument, NULL, 'F' },
		{ "from", required_argument, NULL, 'f' },
		JOBS_OPT_OFFSET,
		{ "help", no_argument, NULL, 'h' },
		JOBS_OPT_JOBS,
		{ "json", no_argument, NULL, 'J' },
		JOBS_OPT_LIMIT,
		{ "mainline", no_argument, NULL, O_MAINLINE },
		{ "output", required_argument, NULL, 'o' },
		{ "plies", required_argument, NULL, 'p' },
		JOBS_OPT_PROGRESS,
		SEL_OPTS,
		CLEAN_SPLIT_OPTS,
		{ "quiet", no_argument, NULL, 'q' },
		{ "rejects", required_argument, NULL, 'r' },
		{ "start-only", no_argument, NULL, O_START },
		{ "to", required_argument, NULL, 't' },
		{ "variant", required_argument, NULL, 'v' },
		{ "variations", no_argument, NULL, O_VARIATIONS },
		{ "version", no_argument, NULL, 'V' },
		WARN_OPTS,
		PIC_OPTS,
		PLANES_OPTS,
		{ NULL, 0, NULL, 0 }
	};
	int c, k, rc;

	while ((c = getopt_long(argc, argv, "e:F:f:hJj:o:p:qr:t:v:V" WARN_SHORT, lopts,
	    NULL)) != -1) {
		if (cli_common_option(c, optarg, &rc)) {
			if (rc >= 0)
				return rc;
			continue;
		}
		switch (c) {
		case 'h':
			usage(stdout);
			return cli_exit(EXIT_VALID);
		case 'o':
			*outpath = optarg;
			break;
		case 'r':
			*rejpath = optarg;
			break;
		default:
			if ((k = option(o, c, optarg, color)) == 0 &&
			    (k = sel_option(&o->gsel, c, optarg)) == 0 &&
			    (k = jobs_option(j, c, optarg)) == 0)
				k = clean_option(&o->clean, c, optarg);
			if (k > 0)
				break;
			return cli_usage();
		}
	}
	return -1;
}

/* The board's glyphs follow the locale; colours need a terminal. */
static unsigned
diagram_flags(int color, FILE *out)
{
	const char *cs, *nc = getenv("NO_COLOR");
	unsigned fl = 0;

	if (setlocale(LC_CTYPE, "") != NULL &&
	    (cs = nl_langinfo(CODESET)) != NULL && strcmp(cs, "UTF-8") == 0)
		fl |= ZH_DIAG_UNICODE;
	if (color == 1 || (color == 0 && cli_output_isatty(out) &&
	    (nc == NULL || *nc == '\0')))
		fl |= ZH_DIAG_COLOUR;
	return fl;
}

int
main(int argc, char **argv)
{
	struct opts o = { .dialect = ZH_LICHESS, .sel.to = -1, .sel.every = 1,
	    .popt = { .version = 3, .dtype = -1, .shard = 100000 } };
	struct jobs j = { .njobs = 1, .ctx = &o, .work = work, .done = done,
	    .make_state = make_state, .free_state = free_state };
	const char *outpath = NULL, *rejpath = NULL;
	char extra[1024], note[512];
	long n;
	int color = 0, rc, i = 0;
	bool wfail;

	cli_prog = "zhreplay";
	cli_args(argc, argv);
	o.fmt = format_find("fen");		/* the default */
	if ((rc = options(argc, argv, &o, &j, &outpath, &rejpath, &color)) < 0 &&
	    o.fmt->check != NULL && o.fmt->check(&o, outpath) != 0) {
		sel_free(&o.gsel);
		return cli_usage();
	}
	if (rc < 0 && (o.fmt->needs & FMT_PICTURES))
		outpath = NULL;		/* the pictures' files, written whole */
	if (rc >= 0 ||
	    clean_setup(&o.clean, outpath) != 0 || (clean_splits(&o.clean) &&
	    (j.out = clean_sink(&o.clean)) == NULL)) {
		sel_free(&o.gsel);
		clean_finish(&o.clean);
		return rc >= 0 ? rc : cli_usage();
	}
	argc -= optind;
	argv += optind;
	if (!(j.route = clean_splits(&o.clean)) && !(o.fmt->needs & FMT_RECORDS))
		cli_output(outpath, &j.out);	/* the text's output */
	if (rejpath != NULL)
		cli_output(rejpath, &o.rejects);
	cli_inputs(argc, argv);
	o.jobs = &j;
	if (sel_setup(&o.gsel, &j, argc, argv) != 0 || cli_outputs_open() != 0 ||
	    (o.fmt->open != NULL && o.fmt->open(&o, &j, outpath) != 0)) {
		sel_free(&o.gsel);
		clean_finish(&o.clean);
		return EXIT_USAGE;
	}
	o.diag = diagram_flags(color, j.out);
	o.out = j.out;
	j.err = warn_sink(stderr);
	rc = EXIT_VALID;
	do {
		FILE *in = cli_open(argc > 0 ? argv[i] : NULL, &o.name);

		if (in == NULL) {
			rc = EXIT_USAGE;
			continue;
		}
		if (o.fmt->input != NULL)
			o.fmt->input(&o, o.name);
		n = o.gsel.read;
		if (jobs_run(&j, in, o.name) != 0)
			rc = EXIT_USAGE;
		else if (o.gsel.read == n && !j.stop)
			cli_fail("%s: warning: no game in it", o.name);
		if (in != stdin)
			fclose(in);
	} while (++i < argc && !j.stop);
	snprintf(extra, sizeof extra, "\"replayed\":%ld,\"with_errors\":%ld",
	    o.games, o.bad);
	n = strlen(extra);
	extra[n++] = ',';
	warn_said_json(extra + n, sizeof extra - n);
	sel_stats(&o.gsel, extra);
	wfail = o.fmt->close != NULL && o.fmt->close(&o) != 0;
	if (clean_finish(&o.clean) != 0 || cli_outputs_close() != 0 ||
	    o.clean.failed || wfail) {
		sel_free(&o.gsel);
		return cli_exit(EXIT_USAGE);
	}
	warn_sink_end();
	if ((o.bad > 0 || warn_said_total(false) > 0) && !cli_quiet)
		fprintf(stderr, "zhreplay: replayed %ld game%s: %ld with "
		    "errors%s\n", o.games, o.games == 1 ? "" : "s", o.bad,
		    warn_said_note(note, sizeof note, false));
	sel_summary(&o.gsel);
	sel_free(&o.gsel);
	if (!cli_quiet && clean_splits(&o.clean))
		fprintf(stderr, "zhreplay: %ld file%s written (-o '%s')\n",
		    o.clean.files, o.clean.files == 1 ? "" : "s", outpath);
	if (rc == EXIT_VALID && (o.bad > 0 || warn_said_total(true) > 0))
		rc = EXIT_INVALID;
	if (pic_failed())
		rc = EXIT_USAGE;
	return cli_exit(rc);
}
