/* zhpgn - read PGN of any dialect, write PGN of another, or JSON. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "clean.h"
#include "cli.h"
#include "opts.h"
#include "jobs.h"
#include "gamespq.h"
#include "merge.h"
#include "parquet_write.h"
#include "selopts.h"
#include "warn.h"

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: zhpgn [-Jq] [--fens] [-f DIALECT] [-t DIALECT] [-v VARIANT] [-r FILE]\n"
	    "             [-j N] [-o FILE] [--limit NAME=N] [--progress]\n"
	    "             [--game-offset N] [--strip LIST] [--keep-tags LIST]\n"
	    "             [--split N | --split-by TAG] [--boards] [--merge-boards]\n"
	    "             [FILE ...]\n"
	    "Convert PGN games between dialects, or to JSON Lines.\n"
	    "  -f, --from D       input dialect: auto (default), lichess, xboard,\n"
	    "                     chesscom, fairy\n"
	    "  -t, --to D         output dialect: lichess (default), xboard,\n"
	    "                     chesscom, fairy\n"
	    "  -J, --json         one JSON object per game per line (zhkit-json(5))\n"
	    "  -F, --format F     pgn (default), json (as -J), or parquet: one row\n"
	    "                     a game in the Hugging Face Lichess datasets' columns\n"
	    "                     and zhkit's, into -o FILE; --compression zstd\n"
	    "                     (default), snappy, gzip, none\n"
	    "      --fens         with --json, the position after every move\n"
	    "      --boards       a bughouse game as its two boards' PGNs (A, then B)\n"
	    "  -v, --variant V    play every game as V (default: from its tags)\n"
	    CLI_DEFVAR_HELP
	    CLI_COLUMN_HELP
	    "  -r, --rejects FILE write games that fail there, as they were\n"
	    "  -j, --jobs N       work on N threads (0: all cores; default 1)\n"
	    CLI_LIMIT_HELP
	    "      --progress     games, MB, games/s and ETA on a terminal's stderr\n"
	    "      --game-offset N  number games from N+1 in messages (a chunk's\n"
	    "                     place in a split input)\n"
	    CLEAN_HELP
	    "  -o, --output FILE  write to FILE (with a split: its name pattern)\n"
	    MERGE_HELP
	    WARN_HELP
	    "  -q, --quiet        no summary line\n"
	    "  -h, --help         this help;  -V, --version  the version\n"
	    SEL_HELP);
}

enum { WRITTEN, REJECTED, UNWRITTEN, DROPPED, FATAL = -1 };

struct opts {
	int to;
	bool json;
	unsigned flags;
	const struct zh_variant *variant;
	const struct zh_variant *defvar;	/* --default-variant */
	const char *name;		/* input being read */
	FILE *rejects;
	struct jobs *jobs;
	struct sel sel;
	long games, written, rejected;
	bool fatal;
	struct clean clean;		/* --strip, --keep-tags, --split */
	bool merge;			/* --merge-boards */
	const char *parquet;		/* -F parquet: its codec, else NULL */
	struct gamespq *pq;		/* and its writer (gamespq.h) */
};

struct state {
	FILE *out;		/* the game's output (-F parquet) */
	struct zh_replay r;
	struct zh_select_scratch sc;
	struct zh_text json;	/* a game's JSON text */
};

static void *
make_state(void *ctx)
{
	(void)ctx;
	return calloc(1, sizeof(struct state));
}

static void
free_state(void *p)
{
	struct state *st = p;

	if (st != NULL) {
		zh_replay_free(&st->r);
		zh_select_scratch_free(&st->sc);
		zh_text_free(&st->json);
		free(st);
	}
}

/*
 * A game written with a termination marker it did not have: say so; or,
 * with -Werror=no-termination, that it is rejected (true).
 */
static bool
no_marker(const struct opts *o, const struct zh_game *g, FILE *err)
{
	const struct zh_token *t = g->ntoks > 0 ? &g->toks[g->ntoks - 1] : NULL;
	bool e = warn_is_error(W_NO_TERMINATION);

	return warn_fdiag(err, W_NO_TERMINATION, o->name, t ? t->line :
	    g->line, t ? t->col : 1, "game %ld: no termination marker; %s%s%s",
	    g->number, e ? "game rejected" : "", e ? "" : zh_game_result(g),
	    e ? "" : " written (from the Result tag, or * if it has none)") > 0;
}

/*
 * What became of a game its writer returned rc for (e its error; 'bad':
 * a game rejected, not written): work()'s value.  A write error is the
 * output layer's to say (it stops); a game written with no termination
 * marker gets its warning.
 */
static int
written(const struct opts *o, const struct zh_game *g, FILE *err, int rc,
    const struct zh_error *e, bool bad)
{
	if (rc != 0 && e->code == ZH_EIO)
		return UNWRITTEN;
	if (rc != 0) {
		cli_fdiag(err, "error", o->name, g->line, 1, "game %ld: %s",
		    g->number, e->text);
		return FATAL;
	}
	if (!bad && !o->json && g->result == NULL)
		(void)no_marker(o, g, err);
	return bad ? REJECTED : WRITTEN;
}

/* The game's JSON text t (rc: its writer's) as one line to out with one
 * fwrite, t emptied; a write error is ZH_EIO in e, as the PGN writers
 * say theirs. */
static int
json_line(FILE *out, struct zh_text *t, int rc, struct zh_error *e)
{
	if (rc == 0) {
		t->s[t->len] = '\n';	/* over the NUL: the text is out's */
		if (fwrite(t->s, 1, t->len + 1, out) != t->len + 1) {
			zh_error_set(e, ZH_EIO, 0, "write error");
			rc = -1;
		}
	}
	t->len = 0;
	return rc;
}

/* The variations' errors: warnings, or (-Werror=variation) the reason
 * the game is rejected (true). */
static bool
var_errors(const struct opts *o, const struct zh_game *g,
    const struct zh_replay *r, FILE *err)
{
	const char *then = warn_is_error(W_VARIATION) ? "game rejected" :
	    "the variation is kept as written";
	bool reject = false;
	size_t k;

	for (k = 0; k < r->nvarerr && g->err.code == ZH_OK &&
	    !(o->clean.po.strip & ZH_STRIP_VARIATIONS); k++)
		reject |= warn_fdiag(err, W_VARIATION, o->name,
		    r->varerr[k].line, r->varerr[k].col, "game %ld, ply %ld, "
		    "in a variation: %s; %s", g->number, r->varerr[k].ply,
		    r->varerr[k].text, then) > 0;
	return reject;
}

/* -F parquet: the game's row (gamespq.h): its movetext as the PGN
 * writer writes it (a valid game's), else as read. */
static int
parquet_row(const struct opts *o, struct state *s, const struct zh_game *g,
    const struct zh_replay *r, const struct zh_error *bad,
    struct zh_error *e)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = NULL;
	int rc = 0;

	if (bad == NULL && (m = open_memstream(&text, &len)) != NULL) {
		rc = zh_pgn_write_opts(m, g, r, o->to, &o->clean.po, e);
		if (fclose(m) != 0 && rc == 0)
			rc = -1;
	}
	if (rc == 0 && gamespq_row(s->out, g, r, r->v, bad == NULL ? text :
	    NULL, len, bad != NULL ? bad->text : NULL) != 0) {
		zh_error_set(e, ZH_EIO, 0, "write error");
		rc = -1;
	}
	free(text);
	return rc;
}

/* One game: replay, report, write.  Runs on a worker thread. */
static int
work(const struct zh_game *g, FILE *out, FILE *err, void *ctx, void *st,
    struct jobs_res *res)
{
	struct opts *o = ctx;
	struct state *s = st;
	struct zh_replay *r;
	struct zh_error e = { 0 };
	const struct zh_error *bad = NULL;
	char on[16] = "";
	int rc, tagdrop;
	bool cut;

	if (sel_early(&o->sel, g, res, &tagdrop))
		return DROPPED;		/* by its tags: nothing more to do */
	if (s == NULL)
		return FATAL;
	r = &s->r;
	r->fast = false;
	r->no_uci = !o->json;	/* the PGN writers need SAN only */
	s->out = out;
	r->null_moves = warn_null_moves;
	sel_watch(&o->sel, r, tagdrop, &s->sc);
	rc = zh_replay(g, cli_game_variant(g, o->variant, o->defvar), r);
	if (o->clean.by != NULL)
		clean_route(&o->clean, g, r, res->route, sizeof res->route);
	if (g->err.code != ZH_OK)
		bad = &g->err;
	else if (rc != 0)
		bad = &r->err;
	if (o->sel.on && sel_game(&o->sel, g, r, bad ? -1 : 0, tagdrop,
	    &s->sc, res) != 0)
		return DROPPED;
	/* of a game over the game limit, the rejects get the first bytes */
	cut = bad != NULL && g->raw_truncated && o->rejects != NULL;
	/* an error of a game of two boards names its board */
	if (bad == &r->err && r->err_board >= 0)
		snprintf(on, sizeof on, " on board %c",
		    zh_board_letter(r->err_board));
	if (bad != NULL)
		cli_fdiag(err, "error", o->name, bad->line, bad->col,
		    "game %ld%s%.0ld%s: %s; game rejected%s%.0zu%s", g->number,
		    bad->ply ? ", ply " : "", bad->ply, bad->ply ? on : "",
		    bad->text, cut ? " (only its first " : "",
		    cut ? g->rawlen : 0, cut ? " bytes go to the rejects file)" :
		    "");
	/* a warning said as an error rejects the game as an error does */
	if (warn_nulls(err, o->name, g, r) && bad == NULL)
		bad = &r->err;
	if (var_errors(o, g, r, err) && bad == NULL)
		bad = &r->err;
	if (bad == NULL && !o->json && g->result == NULL &&
	    warn_is_error(W_NO_TERMINATION) && no_marker(o, g, err))
		bad = &r->err;
	/* the writers of any game: cleaned (one board) or --boards */
	if (o->parquet != NULL)
		rc = parquet_row(o, s, g, r, bad, &e);
	else if (o->json)
		rc = json_line(out, &s->json, zh_game_json_opts(&s->json, g, r,
		    o->to, o->flags, &o->clean.po, &e), &e);
	else
		rc = bad ? 0 : zh_pgn_write_opts(out, g, r, o->to, &o->clean.po,
		    &e);
	return written(o, g, err, rc, &e, bad != NULL);
}

/* The split file of a game with output (PGN: written; JSON: any). */
static FILE *
split_file(struct opts *o, int result, const struct jobs_res *jr)
{
	FILE *f;

	if (result != WRITTEN && !o->json)
		return NULL;
	if ((f = clean_file(&o->clean, jr->route)) == NULL) {
		/* not written: not counted, as after a write error */
		o->games--;
		o->written -= result == WRITTEN;
		o->rejected -= result != WRITTEN;
		o->fatal = true;
		o->jobs->stop = 1;
	}
	return f;
}

/* Count, in input order, and keep the rejects. */
static FILE *
done(void *ctx, const struct zh_game *g, const struct jobs_res *jr)
{
	struct opts *o = ctx;
	int result = jr->result;

	if (result == UNWRITTEN)
		return o->jobs->out;
	if (!sel_done(&o->sel, o->jobs, g, jr))
		return NULL;
	o->games++;
	if (result == FATAL) {
		o->fatal = true;
		o->jobs->stop = 1;
		return o->jobs->out;
	}
	if (result == WRITTEN)
		o->written++;
	else
		o->rejected++;
	if (result == REJECTED && o->rejects != NULL) {
		fwrite(g->raw, 1, g->rawlen, o->rejects);
		fputs("\n\n", o->rejects);
	}
	return clean_splits(&o->clean) ? split_file(o, result, jr) :
	    o->jobs->out;
}

enum { O_FENS = 256, O_DEFVAR, O_MERGE, O_BOARDS, O_FORMAT, O_COMPRESSION };

/* zhpgn's formats, a row each (as zhreplay's, cmd/zhreplay/formats.c):
   the name, whether it is taken after a bare -F (the old --fens, when
   no name follows), and what it writes: JSON's game objects, as Parquet
   rows (gamespq.c), or else PGN. */
static const struct format {
	const char *name;
	bool bare, json, parquet;
} formats[] = {
	{ "pgn", true, false, false }, { "json", true, true, false },
	{ "jsonl", false, true, false }, { "parquet", true, true, true }
};

/* The row of -F's name; NULL if zhpgn has none of that name. */
static const struct format *
format_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof formats / sizeof formats[0]; i++)
		if (strcmp(formats[i].name, name) == 0)
			return &formats[i];
	return NULL;
}

/* Option c (its argument optarg) into o and j; -1 to go on, else the
 * exit status. */
static int
option(int c, struct opts *o, struct jobs *j, const char **outpath,
    const char **rejpath)
{
	const struct format *f;
	int k;

	if (cli_common_option(c, optarg, &k))
		return k;
	switch (c) {
	case 'F':	/* -F is --format in zhreplay */
		cli_deprecated("-F for --fens", "--fens");
		/* FALLTHROUGH */
	case O_FENS:
		o->flags |= ZH_JSON_FENS;
		break;
	case 'f':
		if (cli_from(optarg) != 0)
			return cli_usage();
		break;	/* every reader already accepts every form */
	case 'h':
		usage(stdout);
		return cli_exit(EXIT_VALID);
	case 'J':
		o->json = true;
		break;
	case O_FORMAT:		/* -F F: taken in options() */
		if ((f = format_find(optarg)) == NULL) {
			cli_fail("unknown format '%s' (try pgn, json, parquet)",
			    optarg);
			return cli_usage();
		}
		if (f->parquet)
			o->parquet = o->parquet ? o->parquet : "zstd";
		o->json |= f->json || o->parquet != NULL;	/* every game a row */
		break;
	case O_COMPRESSION:
		if (!pqw_codec_known(optarg)) {
			cli_fail("--compression: unknown codec '%s' (try zstd, "
			    "snappy, gzip, none)", optarg);
			return cli_usage();
		}
		o->parquet = optarg;
		break;
	case 'o':
		*outpath = optarg;
		break;
	case 'r':
		*rejpath = optarg;
		break;
	case 't':
		if ((o->to = cli_dialect(optarg, "--to", false)) < 0)
			return cli_usage();
		break;
	case O_MERGE:
		o->merge = true;
		break;
	case O_BOARDS:
		o->clean.po.boards = true;
		break;
	case O_DEFVAR:
		if ((o->defvar = cli_variant(optarg)) == NULL)
			return cli_usage();
		break;
	case 'v':
		if ((o->variant = cli_variant(optarg)) == NULL)
			return cli_usage();
		break;
	default:
		if ((k = sel_option(&o->sel, c, optarg)) == 0)
			k = jobs_option(j, c, optarg);
		if (k == 0)
			k = clean_option(&o->clean, c, optarg);
		if (k > 0)
			break;
		return cli_usage();
	}
	return -1;
}

/* The options together, once all are read: what cannot go with what,
 * and the outputs set up; -1 to go on, else the exit status. */
static int
options_check(struct opts *o, const char *outpath, const char *rejpath)
{
	if ((o->flags & ZH_JSON_FENS) && !o->json) {
		cli_fail("--fens needs --json");
		return cli_usage();
	}
	if (o->parquet != NULL && (clean_splits(&o->clean) || o->merge ||
	    o->clean.po.boards || (o->flags & ZH_JSON_FENS))) {
		cli_fail("-F parquet writes one table: not with --split, "
		    "--split-by, --merge-boards, --boards or --fens");
		return cli_usage();
	}
	if (o->merge && (o->json || clean_splits(&o->clean) ||
	    o->clean.po.strip != 0 || o->sel.on || rejpath != NULL ||
	    o->clean.po.boards)) {
		cli_fail("--merge-boards writes BPGN: not with --json, --boards, "
		    "cleaning, splitting, selecting or --rejects");
		return cli_usage();
	}
	if (o->clean.po.boards && o->json) {
		cli_fail("--boards writes PGN, not --json");
		return cli_usage();
	}
	if (clean_setup(&o->clean, outpath) != 0)
		return cli_usage();
	return -1;
}

/* The options into o and j; -1 to go on, else the exit status. */
static int
options(int argc, char **argv, struct opts *o, struct jobs *j,
    const char **outpath, const char **rejpath)
{
	static const struct option longopts[] = {
		JOBS_OPT_OFFSET,
		JOBS_OPT_LIMIT,
		JOBS_OPT_PROGRESS,
		SEL_OPTS,
		CLEAN_OPTS,
		{ "boards", no_argument, NULL, O_BOARDS },
		{ "compression", required_argument, NULL, O_COMPRESSION },
		{ "format", required_argument, NULL, O_FORMAT },
		CLI_COLUMN_OPT,
		{ "default-variant", required_argument, NULL, O_DEFVAR },
		{ "fens", no_argument, NULL, O_FENS },
		{ "from", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		JOBS_OPT_JOBS,
		{ "json", no_argument, NULL, 'J' },
		{ "merge-boards", no_argument, NULL, O_MERGE },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "rejects", required_argument, NULL, 'r' },
		{ "to", required_argument, NULL, 't' },
		{ "variant", required_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		WARN_OPTS,
		{ NULL, 0, NULL, 0 }
	};
	int c, rc;

	while ((c = getopt_long(argc, argv, "Ff:hJj:o:qr:t:Vv:" WARN_SHORT, longopts,
	    NULL)) != -1) {
		/* -F FORMAT; a bare -F is the old --fens */
		if (c == 'F' && optind < argc && format_find(argv[optind]) !=
		    NULL && format_find(argv[optind])->bare) {
			c = O_FORMAT;
			optarg = argv[optind++];
		}
		if ((rc = option(c, o, j, outpath, rejpath)) >= 0)
			return rc;
	}
	if (o->parquet != NULL)
		o->json = true;
	return options_check(o, *outpath, *rejpath);
}

/* --merge-boards on one input (merge.c); the exit status so far. */
static int
merge_file(struct opts *o, struct jobs *j, FILE *in, int rc)
{
	struct merge_run m = { .to = o->to, .limits = j->limits,
	    .offset = j->offset };

	if (merge_boards(&m, in, o->name, j->out) != 0) {
		o->fatal = true;
		rc = EXIT_USAGE;
	}
	o->games += m.games;
	o->written += m.merged;
	o->rejected += m.failed;
	o->sel.read += m.games;
	return rc;
}

int
main(int argc, char **argv)
{
	struct opts o = { .to = ZH_LICHESS };
	struct jobs j = { .njobs = 1, .ctx = &o, .work = work, .done = done,
	    .make_state = make_state, .free_state = free_state };
	const char *outpath = NULL, *rejpath = NULL;
	char extra[1024], note[512];
	long n;
	int i, rc;

	cli_prog = "zhpgn";
	cli_args(argc, argv);
	o.jobs = &j;
	if ((rc = options(argc, argv, &o, &j, &outpath, &rejpath)) >= 0) {
		sel_free(&o.sel);
		clean_finish(&o.clean);
		return rc;
	}
	argc -= optind;
	argv += optind;
	if (!(j.route = clean_splits(&o.clean)))
		cli_output(outpath, &j.out);
	else if ((j.out = clean_sink(&o.clean)) == NULL) {
		sel_free(&o.sel);
		clean_finish(&o.clean);
		return EXIT_USAGE;
	}
	if (rejpath != NULL)
		cli_output(rejpath, &o.rejects);
	cli_inputs(argc, argv);
	if (sel_setup(&o.sel, &j, argc, argv) != 0 || cli_outputs_open() != 0 ||
	    (o.parquet != NULL && (o.pq = gamespq_open(j.out, outpath != NULL &&
	    strcmp(outpath, "-") != 0 ? outpath : "<stdout>", o.parquet)) ==
	    NULL)) {
		sel_free(&o.sel);
		clean_finish(&o.clean);
		return EXIT_USAGE;
	}
	if (o.pq != NULL)
		j.out = gamespq_sink(o.pq);
	j.err = warn_sink(stderr);
	rc = EXIT_VALID;
	for (i = 0; i < (argc ? argc : 1) && !o.fatal && !j.stop; i++) {
		FILE *in = cli_open(argc ? argv[i] : NULL, &o.name);

		if (in == NULL) {
			rc = EXIT_USAGE;
			continue;
		}
		n = o.sel.read;
		if (o.merge)
			rc = merge_file(&o, &j, in, rc);
		else if (jobs_run(&j, in, o.name) != 0)
			rc = EXIT_USAGE;
		else if (o.sel.read == n && !j.stop && warn_on(W_NO_GAME)) {
			/* through the sink: counted as the others */
			fprintf(j.err, "%s: %s: %s: no game in it [-W%sno-game]\n",
			    cli_prog, o.name, warn_is_error(W_NO_GAME) ?
			    "error" : "warning", warn_is_error(W_NO_GAME) ?
			    "error=" : "");
		}
		if (in != stdin)
			fclose(in);
	}
	snprintf(extra, sizeof extra, "\"written\":%ld,\"rejected\":%ld",
	    o.written, o.rejected);
	n = (long)strlen(extra);
	extra[n++] = ',';
	warn_said_json(extra + n, sizeof extra - (size_t)n);
	sel_stats(&o.sel, extra);
	if (o.pq != NULL && gamespq_close(o.pq) != 0)
		o.fatal = true;
	if (clean_finish(&o.clean) != 0 || cli_outputs_close() != 0) {
		sel_free(&o.sel);
		return cli_exit(EXIT_USAGE);
	}
	warn_sink_end();
	if (!cli_quiet)
		fprintf(stderr, "%s: %ld game%s: %ld written, %ld rejected%s\n",
		    cli_prog, o.games, o.games == 1 ? "" : "s", o.written,
		    o.rejected, warn_said_note(note, sizeof note, false));
	sel_summary(&o.sel);
	sel_free(&o.sel);
	if (!cli_quiet && clean_splits(&o.clean))
		fprintf(stderr, "%s: %ld file%s written (-o '%s')\n", cli_prog,
		    o.clean.files, o.clean.files == 1 ? "" : "s", outpath);
	if (o.fatal)
		return cli_exit(EXIT_USAGE);
	/* a class said as an error (-Werror) fails the run, even one that
	   rejects no game (text between games, an input with none) */
	return cli_exit(rc != EXIT_VALID ? rc : o.rejected ||
	    warn_said_total(true) > 0 ? EXIT_INVALID : EXIT_VALID);
}
