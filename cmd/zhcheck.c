/* zhcheck - validate PGN games (or FEN positions) for CI. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clean.h"
#include "cli.h"
#include "lines.h"
#include "jobs.h"
#include "report.h"
#include "selopts.h"
#include "warn.h"

struct run {
	const struct zh_variant *force;	/* --variant */
	const struct zh_variant *defvar;	/* --default-variant */
	unsigned flags;			/* ZH_CHECK_STRICT */
	bool json;
	long max_errors;
	const char *name;		/* current input */
	struct jobs *jobs;
	struct sel sel;
	long items, valid, invalid;
	long known;			/* invalid games whose every error
					   --baseline knows */
	long conv[3];			/* this input's bughouse Results read
					   as the board's, the team's, either */
	bool fail;			/* out of memory */
	bool fail_io;			/* --report's held file failed */
	bool stopped;			/* at --max-errors */
	bool nogame;			/* an input held no game */
	struct clean clean;		/* --split, --split-by (clean.h) */
	int report;			/* --report: REPORT_* */
	long max_annot;			/* --max-annotations */
	bool rep_any;			/* a case with results written */
	FILE *rep_cases, *rep_suites;	/* JUnit: this input's cases, the
					   suites so far */
};

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: zhcheck [-Jqs] [-f DIALECT] [-j N] [-o FILE] [-v VARIANT] [--fen]\n"
	    "               [--max-errors N] [--report github|junit|sarif]\n"
	    "               [--max-annotations N] [--baseline FILE]\n"
	    "               [--limit NAME=N] [--progress] [--game-offset N] [FILE ...]\n"
	    "Check that every game is legal and its tags consistent (CI).\n"
	    "  -s, --strict       tag, result and variation problems are errors\n"
	    "                     (-Werror=" WARN_STRICT_CLASSES ")\n"
	    WARN_HELP
	    "  -f, --from D       input dialect: auto (default), lichess, xboard,\n"
	    "                     chesscom, fairy (every one is read)\n"
	    "  -v, --variant V    play every game as V (crazyhouse, loop, chessgi,\n"
	    "                     grandhouse, upsidedown, wild5, chess, bughouse)\n"
	    CLI_DEFVAR_HELP
	    CLI_COLUMN_HELP
	    "      --max-errors N stop after N errors\n"
	    "  -j, --jobs N       check on N threads (0: all cores; default 1)\n"
	    CLI_LIMIT_HELP
	    "      --progress     games, MB, games/s and ETA on a terminal's stderr\n"
	    "      --game-offset N  number games from N+1 (a chunk's place in a\n"
	    "                     split input)\n"
	    "      --fen          inputs hold one FEN or EPD per line, not PGN\n"
	    "  -J, --json         one JSON report per game (or position) on stdout\n"
	    REPORT_HELP
	    "  -o, --output FILE  write the JSON report to FILE (with a split:\n"
	    "                     its name pattern)\n"
	    CLEAN_SPLIT_HELP
	    "  -q, --quiet        no summary line\n"
	    "  -h, --help         this help;  -V, --version  the version\n"
	    SEL_HELP);
}

/* "FILE:LINE:COL: error: game N (White - Black), ply P: MESSAGE" */
static void
report(FILE *err, const char *file, const struct zh_game *g,
    const struct zh_problem *p, bool known)
{
	const char *kind = p->severity == ZH_ERROR ? "error" : "warning";
	char local[512], *msg;
	size_t n;

	msg = report_text(local, sizeof local, g, p, &n);
	if (known)	/* said as such, and counted in no class */
		cli_fdiag(err, kind, file, p->line, p->col,
		    "%.*s (known: --baseline)", (int)n, msg);
	else
		cli_fdiag_msg(err, kind, file, p->line, p->col, msg, n);
	if (msg != local)
		free(msg);
}

/* Write the JSON text t as one line and empty t; -1 if the text could
 * not be made (rc, the writer's return value). */
static int
emit_json(FILE *out, struct zh_text *t, int rc)
{
	if (rc != 0)
		return -1;
	fwrite(t->s, 1, t->len, out);
	putc('\n', out);
	t->len = 0;
	return 0;
}

/* Per worker: the check (and its replay), the selection's scratch and
 * the JSON text. */
struct state {
	struct zh_check c;
	uint64_t fp[ZH_MAXPROBLEMS];	/* each problem's fingerprint */
	bool known[ZH_MAXPROBLEMS];	/* ... in --baseline */
	struct zh_select_scratch sc;
	struct zh_text json;
};

/* How a bughouse game's Result reads (1 + index in run.conv), 0: none. */
static int
convention(const struct zh_check *c)
{
	static const char *const names[3] = { "board", "team", "either" };
	int k;

	for (k = 0; c->is_bug && c->convention != NULL && k < 3; k++)
		if (strcmp(c->convention, names[k]) == 0)
			return k + 1;
	return 0;
}

/* One game, on any thread; returns invalid (bit 0) | the bughouse
 * Result's reading << 1 (2 bits) | REPORTED (problems in its --report),
 * or -1 when out of memory.  Its warnings are counted where they are
 * written (warn_sink). */
enum { REPORTED = 8, KNOWN = 16 };

/* The fingerprints of c's problems (from seed) and which --baseline
 * knows; whether every error is known (and there is one). */
static bool
fingerprints(const struct zh_check *c, uint64_t seed, uint64_t *fp,
    bool *known)
{
	bool all = c->nerrors > 0;
	size_t i;

	for (i = 0; i < c->nprobs; i++) {
		fp[i] = report_fingerprint(seed, &c->probs[i]);
		known[i] = report_known(fp[i]);
		if (c->probs[i].severity == ZH_ERROR && !known[i])
			all = false;
	}
	return all;
}

static int
work(const struct zh_game *g, FILE *out, FILE *err, void *ctx, void *state,
    struct jobs_res *res)
{
	struct run *o = ctx;
	struct state *st = state;
	struct zh_check *c;
	size_t i;
	int rc, tagdrop;
	bool all_known = false;

	if (sel_early(&o->sel, g, res, &tagdrop))
		return 0;		/* by its tags: not checked */
	if (st == NULL)
		return -1;
	c = &st->c;
	/* --strict is warn_strict(): the classes say what is an error */
	c->r.null_moves = warn_null_moves;
	sel_watch(&o->sel, &c->r, tagdrop, &st->sc);
	rc = zh_check_game(g, cli_game_variant(g, o->force, o->defvar),
	    o->flags & ~ZH_CHECK_STRICT, c);
	warn_check_nulls(c, g);
	if (warn_changed()) {
		warn_check(c);
		rc = c->nerrors ? -1 : 0;
	}
	if (o->clean.by != NULL)
		clean_route(&o->clean, g, &c->r, res->route, sizeof res->route);
	/* a game not selected is not reported (nor counted as checked) */
	if (o->sel.on && sel_game(&o->sel, g, &c->r, rc, tagdrop, &st->sc,
	    res) != 0)
		return 0;
	if (c->nprobs > 0 && (o->report != REPORT_NONE ||
	    report_baseline_on()))
		all_known = fingerprints(c, report_game_seed(g, &c->r), st->fp,
		    st->known);
	for (i = 0; i < c->nprobs; i++)
		report(err, o->name, g, &c->probs[i], report_baseline_on() &&
		    st->known[i]);
	if (o->json && emit_json(out, &st->json, zh_check_json(&st->json, c,
	    g, o->name)) != 0)
		return -1;
	if (o->report != REPORT_NONE) {
		struct report_case rcase = { o->name, g, g->line, c->probs,
		    c->nprobs, st->fp, st->known };

		report_case(out, o->report, &rcase);
	}
	return (c->nerrors ? 1 : 0) | convention(c) << 1 |
	    (c->nprobs > 0 ? REPORTED : 0) | (all_known ? KNOWN : 0);
}

/* On the main thread, in input order: a game's (or a FEN's) result. */
static void
count(struct run *o, int res)
{
	if (res < 0) {
		o->fail = true;
		o->jobs->stop = 1;
		return;
	}
	o->items++;
	if (res & 1)
		o->invalid++;
	else
		o->valid++;
	if (res & KNOWN)
		o->known++;
	if ((res >> 1 & 3) != 0)
		o->conv[(res >> 1 & 3) - 1]++;
	if (o->max_errors && o->invalid >= o->max_errors) {
		o->jobs->stop = 1;
		o->stopped = true;
	}
}

/* Where a case's --report goes (JUnit: held for its suite), after
 * what joins it to the one before (reported: it has results). */
static FILE *
report_to(struct run *o, FILE *f, bool reported)
{
	if (o->report == REPORT_JUNIT || o->report == REPORT_GITHUB)
		return o->rep_cases;	/* held: written at the end */
	if (reported)
		report_sep(f, o->report, &o->rep_any);
	return f;
}

static FILE *
done(void *ctx, const struct zh_game *g, const struct jobs_res *jr)
{
	struct run *o = ctx;

	FILE *f = o->jobs->out;

	if (jr->result >= 0 && !sel_done(&o->sel, o->jobs, g, jr))
		return NULL;
	if (jr->result >= 0 && clean_splits(&o->clean) &&
	    (f = clean_file(&o->clean, jr->route)) == NULL) {
		o->jobs->stop = 1;	/* said; the game is not counted */
		return NULL;
	}
	count(o, jr->result);
	return report_to(o, f, jr->result >= 0 && (jr->result & REPORTED));
}

static void *
make_state(void *ctx)
{
	(void)ctx;
	return calloc(1, sizeof(struct state));
}

static void
free_state(void *state)
{
	struct state *st = state;

	if (st != NULL) {
		zh_check_free(&st->c);
		zh_select_scratch_free(&st->sc);
		zh_text_free(&st->json);
		free(st);
	}
}

/* A line too long to be a FEN: an error of its own, at the line. */
static void
too_long(struct zh_check *c, long lineno)
{
	struct zh_problem *p = &c->probs[0];

	p->severity = ZH_ERROR;
	p->code = "syntax";
	p->line = lineno;
	p->col = LINES_MAX + 1;
	p->ply = 0;
	p->board = -1;
	snprintf(p->text, sizeof p->text,
	    "line longer than " LINES_MAX_TEXT " bytes (not a FEN)");
	c->nprobs = c->nerrors = 1;
	c->nwarnings = 0;
}

/* A position's --report, on the main thread. */
static void
fen_report(struct run *o, FILE *out, const struct zh_check *c, long lineno,
    const uint64_t *fp, const bool *known)
{
	struct report_case rc = { o->name, NULL, lineno, c->probs, c->nprobs,
	    fp, known };

	report_case(report_to(o, out, c->nprobs > 0), o->report, &rc);
}

/*
 * --fen: one position per line; blank lines are skipped.  A line longer
 * than LINES_MAX is an error, skipped without being stored (its first
 * 64 bytes echoed in JSON).
 */
static void
check_fens(FILE *in, FILE *out, struct run *o)
{
	static struct lines ls;
	struct zh_check c = { 0 };
	struct zh_text json = { 0 };
	uint64_t fp[ZH_MAXPROBLEMS];
	bool known[ZH_MAXPROBLEMS], all;
	char *line;
	size_t n;
	long lineno = 0;
	int r;

	lines_open(&ls, in);
	while (!o->jobs->stop && (r = lines_next(&ls, &line, &n)) != 0) {
		lineno++;
		if (r > 0 && strspn(line, " \t") == n)
			continue;
		if (r < 0) {
			line[64] = '\0';
			too_long(&c, lineno);
		} else
			zh_check_fen(line, o->force, o->flags, lineno, &c);
		all = fingerprints(&c, report_line_seed(line, strlen(line)), fp,
		    known);
		if (c.nerrors)
			cli_diag("error", o->name, c.probs[0].line, c.probs[0].col,
			    "%s%s", c.probs[0].text, known[0] ?
			    " (known: --baseline)" : "");
		if (o->report != REPORT_NONE)
			fen_report(o, out, &c, lineno, fp, known);
		count(o, o->json && emit_json(out, &json,
		    zh_check_fen_json(&json, &c, line, lineno, o->name)) != 0 ?
		    -1 : (c.nerrors ? 1 : 0) | (all ? KNOWN : 0));
		if (cli_outputs_failed())
			o->jobs->stop = 1;
	}
	zh_text_free(&json);
	if (ferror(in))
		cli_read_error(in, o->name);
}

/* "checked N games: V valid, I invalid (W warnings: W1 CLASS, ...)",
 * every warning written or held back counted, and why it stopped early. */
static void
summary(const struct run *o, bool fen)
{
	char note[512];

	fprintf(stderr, "%s: checked %ld %s: %ld valid, %ld invalid%s",
	    cli_prog, o->items, fen ?
	    (o->items == 1 ? "position" : "positions") :
	    (o->items == 1 ? "game" : "games"), o->valid, o->invalid,
	    warn_said_note(note, sizeof note, true));
	if (report_baseline_on())
		fprintf(stderr, " (%ld invalid known from --baseline)", o->known);
	if (o->stopped)
		fprintf(stderr, " (stopped after %ld error%s: --max-errors)",
		    o->invalid, o->invalid == 1 ? "" : "s");
	fputc('\n', stderr);
}

enum { OPT_FEN = 256, OPT_MAXERR, OPT_DEFVAR, OPT_REPORT, OPT_ANNOT,
	OPT_BASELINE };

/* Option c (its argument optarg) into o and j; -1 to go on, else the
 * exit status. */
static int
option(int c, struct run *o, struct jobs *j, const char **outpath, bool *fen)
{
	int k;

	if (cli_common_option(c, optarg, &k))
		return k;
	switch (c) {
	case OPT_FEN:
		*fen = true;
		break;
	case OPT_DEFVAR:
		if ((o->defvar = cli_variant(optarg)) == NULL)
			return cli_usage();
		break;
	case 'J':
		o->json = true;
		break;
	case 'f':	/* as zhpgn's: every reader reads every form */
		if (cli_from(optarg) != 0)
			return cli_usage();
		break;
	case OPT_REPORT:
		if ((o->report = report_find(optarg)) < 0)
			return cli_usage();
		break;
	case OPT_ANNOT:
		if ((o->max_annot = cli_number(optarg, 0, 1L << 40,
		    "--max-annotations")) < 0)
			return cli_usage();
		break;
	case OPT_BASELINE:
		if (report_baseline(optarg) != 0)
			return cli_exit(EXIT_USAGE);
		break;
	case 'h':
		usage(stdout);
		return cli_exit(EXIT_VALID);
	case 'm':	/* -m is --moves in zhfen */
		cli_deprecated("-m for --max-errors", "--max-errors");
		/* FALLTHROUGH */
	case OPT_MAXERR:
		if ((o->max_errors = cli_number(optarg, 1, 1L << 40,
		    "--max-errors")) < 0)
			return cli_usage();
		break;
	case 'o':
		*outpath = optarg;
		break;
	case 's':
		o->flags |= ZH_CHECK_STRICT;	/* --fen: material */
		warn_strict();
		break;
	case 'v':
		if ((o->force = cli_variant(optarg)) == NULL)
			return cli_usage();
		break;
	default:
		if ((k = sel_option(&o->sel, c, optarg)) == 0 &&
		    (k = jobs_option(j, c, optarg)) == 0)
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
options_check(struct run *o, struct jobs *j, const char *outpath, bool fen)
{
	if (fen && o->sel.on) {
		cli_fail("--fen: the selection options are for games, not "
		    "positions");
		return cli_usage();
	}
	if (o->report != REPORT_NONE && (o->json ||
	    clean_splits(&o->clean))) {
		cli_fail("--report: one report on one output, not with --json "
		    "or a split");
		return cli_usage();
	}
	if (clean_splits(&o->clean) && (fen || !o->json)) {
		cli_fail("%s: zhcheck splits its --json lines of games",
		    o->clean.by ? "--split-by" : "--split");
		return cli_usage();
	}
	if (clean_setup(&o->clean, outpath) != 0 ||
	    (clean_splits(&o->clean) && (j->out = clean_sink(&o->clean)) ==
	    NULL))
		return cli_usage();
	return -1;
}

/* The options into o and j; -1 to go on, else the exit status. */
static int
options(int argc, char **argv, struct run *o, struct jobs *j,
    const char **outpath, bool *fen)
{
	static const struct option opts[] = {
		JOBS_OPT_OFFSET,
		JOBS_OPT_LIMIT,
		JOBS_OPT_PROGRESS,
		SEL_OPTS,
		CLEAN_SPLIT_OPTS,
		CLI_COLUMN_OPT,
		{ "default-variant", required_argument, NULL, OPT_DEFVAR },
		{ "fen", no_argument, NULL, OPT_FEN },
		{ "from", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		JOBS_OPT_JOBS,
		{ "json", no_argument, NULL, 'J' },
		{ "max-errors", required_argument, NULL, OPT_MAXERR },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "report", required_argument, NULL, OPT_REPORT },
		{ "max-annotations", required_argument, NULL, OPT_ANNOT },
		{ "baseline", required_argument, NULL, OPT_BASELINE },
		{ "strict", no_argument, NULL, 's' },
		{ "variant", required_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		WARN_OPTS,
		{ NULL, 0, NULL, 0 }
	};
	int c, rc;

	while ((c = getopt_long(argc, argv, "f:hJj:m:o:qsv:V" WARN_SHORT, opts,
	    NULL)) != -1)
		if ((rc = option(c, o, j, outpath, fen)) >= 0)
			return rc;
	return options_check(o, j, *outpath, *fen);
}

/*
 * BPGN scores a game two ways (zhkit(7), Bughouse): say which one this
 * input's Results are, where a game ended on board B tells.
 */
static void
conventions(const struct run *o)
{
	const long *k = o->conv;

	if (k[0] > 0 && k[1] > 0)
		cli_fail("%s: note: bughouse Results mixed: %ld the result of "
		    "the board where the game ended, %ld the team's (1-0: "
		    "White A and Black B won), %ld either", o->name, k[0],
		    k[1], k[2]);
	else
		cli_fail("%s: note: %ld bughouse Result%s %s %s (%ld more "
		    "read the same both ways)", o->name, k[0] + k[1],
		    k[0] + k[1] == 1 ? "" : "s", k[0] + k[1] == 1 ? "is" :
		    "are", k[0] > 0 ?
		    "the result of the board where the game ended" :
		    "the team's, 1-0 when White A and Black B won", k[2]);
}

/* One input's games or positions; false on a read error. */
static bool
check_games(FILE *in, struct run *o, struct jobs *j, bool fen, long n,
    long nread)
{
	o->conv[0] = o->conv[1] = o->conv[2] = 0;
	if (fen)
		check_fens(in, j->out, o);
	else if (jobs_run(j, in, o->name) != 0)
		return false;
	else if (o->conv[0] + o->conv[1] > 0 && !cli_quiet)
		conventions(o);
	else if (o->items == n && o->sel.read == nread && !j->stop) {
		cli_fail("%s: error: no game in it", o->name);
		o->nogame = true;
	}
	return !ferror(in);	/* said by jobs_run or check_fens */
}

/* One input, PGN or FEN (and its JUnit suite); false on a read error. */
static bool
check_input(FILE *in, struct run *o, struct jobs *j, bool fen)
{
	long n = o->items, nread = o->sel.read, bad = o->invalid - o->known;
	bool ok = check_games(in, o, j, fen, n, nread);

	if (o->report == REPORT_JUNIT && report_suite(o->rep_suites,
	    o->rep_cases, o->name, o->items - n, o->invalid - o->known -
	    bad) != 0) {
		cli_fail("--report: the report held in a temporary file: %s",
		    strerror(errno));
		o->fail_io = true;
	}
	return ok;
}

/* --report's start (JUnit: the files its suites are held in; GitHub:
 * the file its annotations are held in, and the job summary). */
static int
report_open(struct run *o, FILE *out)
{
	report_conf(o->max_annot, o->report == REPORT_GITHUB ?
	    getenv("GITHUB_STEP_SUMMARY") : NULL);
	if ((o->report == REPORT_JUNIT || o->report == REPORT_GITHUB) &&
	    ((o->rep_cases = tmpfile()) == NULL || (o->report == REPORT_JUNIT &&
	    (o->rep_suites = tmpfile()) == NULL))) {
		cli_fail("--report: a temporary file: %s", strerror(errno));
		return -1;
	}
	report_begin(out, o->report);
	return 0;
}

/* --report's end; -1 if its held files failed (said). */
static int
report_close(struct run *o, FILE *out)
{
	int rc = o->fail_io ? -1 : 0;

	if (o->report != REPORT_NONE && !o->fail_io && (rc = report_end(out,
	    o->report, o->report == REPORT_GITHUB ? o->rep_cases :
	    o->rep_suites, o->items, o->invalid - o->known)) == -1)
		cli_fail("--report: the report held in a temporary file: %s",
		    strerror(errno));
	if (o->rep_cases != NULL)
		fclose(o->rep_cases);
	if (o->rep_suites != NULL)
		fclose(o->rep_suites);
	return rc;
}

int
main(int argc, char **argv)
{
	struct run o = { .max_annot = REPORT_ANNOTATIONS };
	struct jobs j = { .njobs = 1, .ctx = &o, .work = work, .done = done,
	    .make_state = make_state, .free_state = free_state };
	const char *outpath = NULL;
	char extra[1024];
	size_t n;
	bool fen = false;
	int i, rc;

	cli_prog = "zhcheck";
	cli_args(argc, argv);
	/* Diagnostics are zhcheck's output: a line at a time on a terminal,
	   in large writes to a file or pipe (a warning per game is common). */
	setvbuf(stderr, NULL, isatty(STDERR_FILENO) ? _IOLBF : _IOFBF,
	    1 << 16);
	o.jobs = &j;
	j.err = warn_sink(stderr);
	j.work_skips = true;	/* zh_check_game: a problem of the game */
	if ((rc = options(argc, argv, &o, &j, &outpath, &fen)) >= 0) {
		sel_free(&o.sel);
		clean_finish(&o.clean);
		return rc;
	}
	argc -= optind;
	argv += optind;
	if (!(j.route = clean_splits(&o.clean)))
		cli_output(outpath, &j.out);
	/* --report: done() joins the cases (or holds them) before each */
	j.route = j.route || o.report != REPORT_NONE;
	cli_inputs(argc, argv);
	if (sel_setup(&o.sel, &j, argc, argv) != 0 ||
	    cli_outputs_open() != 0 || report_open(&o, j.out) != 0) {
		sel_free(&o.sel);
		clean_finish(&o.clean);
		return EXIT_USAGE;
	}
	rc = EXIT_VALID;
	for (i = 0; i < (argc ? argc : 1) && !j.stop; i++) {
		FILE *in = cli_open(argc ? argv[i] : NULL, &o.name);

		if (in == NULL || !check_input(in, &o, &j, fen))
			rc = EXIT_USAGE;
		if (in != NULL && in != stdin)
			fclose(in);
	}
	if (o.fail) {
		cli_fail("out of memory");
		rc = EXIT_USAGE;
	}
	snprintf(extra, sizeof extra, "\"valid\":%ld,\"invalid\":%ld",
	    o.valid, o.invalid);
	n = strlen(extra);
	extra[n++] = ',';
	warn_said_json(extra + n, sizeof extra - n);
	sel_stats(&o.sel, extra);
	if (report_close(&o, j.out) != 0 || clean_finish(&o.clean) != 0 ||
	    cli_outputs_close() != 0 || o.clean.failed) {
		sel_free(&o.sel);
		return cli_exit(EXIT_USAGE);
	}
	warn_sink_end();
	if (!cli_quiet)
		summary(&o, fen);
	sel_summary(&o.sel);
	sel_free(&o.sel);
	if (!cli_quiet && clean_splits(&o.clean))
		fprintf(stderr, "zhcheck: %ld file%s written (-o '%s')\n",
		    o.clean.files, o.clean.files == 1 ? "" : "s", outpath);
	/* an error of a class (-Werror) fails the run, even one of no game
	   (text after the last one) */
	if (rc == EXIT_VALID && (o.invalid - o.known > 0 || o.nogame ||
	    warn_said_total(true) > 0))
		rc = EXIT_INVALID;
	return cli_exit(rc);
}
