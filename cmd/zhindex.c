/*
 * zhindex - an archive's positions as an index: build it (a SQLite file,
 * zhkit-index(5)), then ask it what was played from a position, and how
 * it scored; add to it, merge indexes, draw an opening suite from it.
 * The index itself is cmd/zhindex/ (cmd/zhindex/README.md).
 */
#define _GNU_SOURCE		/* fopencookie(), as cli/cli.c */
#include <getopt.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "cli.h"
#include "opts.h"
#include "jobs.h"
#include "selopts.h"
#include "warn.h"
#include "zhi.h"
#include "zhiq.h"

struct opts {
	const struct zh_variant *force, *defvar;
	int plies;
	size_t memory;
	struct sel gsel;
	struct jobs *jobs;
	const char *name;
	long input;		/* the input's row */
	struct zhi_db *db;
	struct zhi_sort *sort;
	unsigned char *stage;	/* the sink's bytes not yet a frame */
	size_t have, cap;
	long games, bad, written, records;
	bool failed;
};

struct state {
	struct zh_replay r;
	struct zh_lines lines;
	struct zhi_out out;
	struct zh_select_scratch sc;
};

static void
usage(FILE *f)
{
	fputs("usage: zhindex build -o FILE.zhi [OPTION]... [FILE]...\n"
	    "       zhindex add FILE.zhi [OPTION]... [FILE]...\n"
	    "       zhindex merge -o FILE.zhi A.zhi B.zhi...\n"
	    "       zhindex query FILE.zhi [OPTION]... FEN|-\n"
	    "       zhindex query FILE.zhi [OPTION]... --moves 'e4 e5 Nf3'\n"
	    "       zhindex suite FILE.zhi --ply K --min-games N [OPTION]...\n"
	    "An archive's positions as an index (SQLite, zhkit-index(5)): what\n"
	    "was played from a position and how it scored.\n\n"
	    "Building (build, add, merge):\n"
	    "  -o, --output FILE  the index (written under a temporary name,\n"
	    "                     renamed at the end)\n"
	    "  -p, --plies N      the first N plies of each game (default 50)\n"
	    "      --memory SIZE  records held before a sorted run is spilled\n"
	    "                     to a temporary file (K, M, G; default 256M)\n"
	    "  -v, --variant V    play every game as V\n"
	    CLI_DEFVAR_HELP
	    "  -j, --jobs N       N threads (0: all cores)\n"
	    "      --progress     a status line on a terminal\n"
	    CLI_LIMIT_HELP
	    SEL_HELP
	    WARN_HELP
	    "Asking (query):\n"
	    "  -J, --json         JSON as Lichess's explorer API shapes it\n"
	    "      --moves 'SAN...'  the position after these moves from the start\n"
	    "      --games        the games reaching the position, one a line\n"
	    "      --speed LIST   ultraBullet,bullet,blitz,rapid,classical,\n"
	    "                     correspondence,unknown (from TimeControl)\n"
	    "      --rating A-B   the board's players' mean rating in A-B\n"
	    "      --ratings LIST Lichess's rating groups: 0,1000,1200,1400,1600,\n"
	    "                     1800,2000,2200,2500 (each up to the next)\n"
	    "      --since YYYY-MM, --until YYYY-MM  games of these months\n"
	    "  -t, --to DIALECT   FENs and SAN written in DIALECT (default lichess)\n"
	    "Opening suites (suite):\n"
	    "      --ply K        positions reached at ply K (default 8)\n"
	    "      --min-games N  by N games or more (default 10)\n"
	    "      --score-window W  White's score within 0.5 +- W (default 0.1)\n"
	    "  -q, --quiet        no summary\n"
	    "  -h, --help         this help;  -V, --version\n", f);
}

/* ======================== build ======================== */

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

	if (st == NULL)
		return;
	zh_replay_free(&st->r);
	zh_lines_free(&st->lines);
	zh_select_scratch_free(&st->sc);
	zhi_out_free(&st->out);
	free(st);
}

static int
work(const struct zh_game *g, FILE *out, FILE *err, void *ctx, void *state,
    struct jobs_res *res)
{
	const struct opts *o = ctx;
	struct state *st = state;
	int rc, tagdrop;

	if (sel_early(&o->gsel, g, res, &tagdrop))
		return 0;
	if (st == NULL) {
		cli_fdiag(err, "error", o->name, g->line, 1, "out of memory");
		return 1;
	}
	st->r.no_uci = true;
	st->r.fast_one = true;	/* no SAN: nothing here reads it */
	st->r.null_moves = warn_null_moves;
	/* a game of one board keyed as the replay plays it */
	if (zhi_game_watch(&st->out, g, &st->r, o->plies) != 0)
		st->r.watch = NULL;	/* walked after the replay */
	rc = zh_replay(g, cli_game_variant(g, o->force, o->defvar), &st->r);
	if (o->gsel.on && sel_game(&o->gsel, g, &st->r,
	    g->err.code != ZH_OK ? -1 : rc, tagdrop, &st->sc, res) != 0)
		return 0;
	if (rc != 0 || g->err.code != ZH_OK) {
		const struct zh_error *e = g->err.code != ZH_OK ? &g->err :
		    &st->r.err;

		cli_fdiag(err, "error", o->name, e->line, e->col, "game %ld: %s "
		    "(not indexed)", g->number, e->text);
		return 1;
	}
	if (zhi_game_records(&st->out, g, &st->r, &st->lines, o->plies) != 0) {
		cli_fdiag(err, "error", o->name, g->line, 1, "game %ld: out of "
		    "memory", g->number);
		return 1;
	}
	if (st->out.len > 0 && fwrite(st->out.buf, 1, st->out.len, out) !=
	    st->out.len)
		return 1;
	return 0;
}

static FILE *
done(void *ctx, const struct zh_game *g, const struct jobs_res *jr)
{
	struct opts *o = ctx;

	if (!sel_done(&o->gsel, o->jobs, g, jr))
		return NULL;
	o->games++;
	if (jr->result != 0)
		o->bad++;
	return o->jobs->out;
}

/* One whole frame: the game's row and its records. */
static int
take(struct opts *o, const unsigned char *b, size_t n)
{
	struct zhi_game gm;
	const struct zhi_rec *recs;
	struct zhi_rec r;
	size_t nrec, i;
	uint32_t id;

	if (zhi_frame(b, n, &gm, &recs, &nrec) != n)
		return -1;
	if (zhi_db_game(o->db, o->input, &gm, &id) != 0)
		return -1;
	for (i = 0; i < nrec; i++) {
		memcpy(&r, (const unsigned char *)(recs + i), sizeof r);
		r.game = id;
		if (zhi_sort_add(o->sort, &r) != 0) {
			cli_fail("out of memory, or a temporary run could not "
			    "be written");
			return -1;
		}
	}
	o->records += (long)nrec;
	o->written++;
	return 0;
}

static ssize_t
sink_write(void *cookie, const char *buf, size_t size)
{
	struct opts *o = cookie;
	struct zhi_game gm;
	const struct zhi_rec *recs;
	size_t nrec, n, at = 0;

	if (o->failed)
		return (ssize_t)size;
	if (o->have + size > o->cap) {
		size_t c = o->cap ? o->cap : 65536;
		unsigned char *b;

		while (c < o->have + size)
			c *= 2;
		if ((b = realloc(o->stage, c)) == NULL) {
			o->failed = true;
			return (ssize_t)size;
		}
		o->stage = b;
		o->cap = c;
	}
	memcpy(o->stage + o->have, buf, size);
	o->have += size;
	while ((n = zhi_frame(o->stage + at, o->have - at, &gm, &recs,
	    &nrec)) > 0) {
		if (take(o, o->stage + at, n) != 0) {
			o->failed = true;
			o->jobs->stop = 1;
			return (ssize_t)size;
		}
		at += n;
	}
	memmove(o->stage, o->stage + at, o->have - at);
	o->have -= at;
	return (ssize_t)size;
}

/* --memory SIZE: bytes, with K, M or G. */
static int
memory_arg(const char *s, size_t *out)
{
	char *end;
	double v = strtod(s, &end);
	double mul = 1;

	if (end == s || v <= 0)
		goto bad;
	if (*end == 'K' || *end == 'k')
		mul = 1024.0;
	else if (*end == 'M' || *end == 'm')
		mul = 1024.0 * 1024;
	else if (*end == 'G' || *end == 'g')
		mul = 1024.0 * 1024 * 1024;
	else if (*end != '\0')
		goto bad;
	if (*end != '\0' && end[1] != '\0' && strcmp(end + 1, "B") != 0 &&
	    strcmp(end + 1, "iB") != 0)
		goto bad;
	if (v * mul < 1024 * 1024 || v * mul > 1e15)
		goto bad;
	*out = (size_t)(v * mul);
	return 0;
bad:
	cli_fail("--memory: '%s' is not a size of 1M or more (K, M, G)", s);
	return -1;
}

enum { O_MEMORY = 0x600, O_DEFVAR };

static int
build_options(int argc, char **argv, struct opts *o, struct jobs *j,
    const char **outpath)
{
	static const struct option lopts[] = {
		{ "default-variant", required_argument, NULL, O_DEFVAR },
		{ "help", no_argument, NULL, 'h' },
		JOBS_OPT_JOBS, JOBS_OPT_LIMIT, JOBS_OPT_PROGRESS,
		{ "memory", required_argument, NULL, O_MEMORY },
		{ "output", required_argument, NULL, 'o' },
		{ "plies", required_argument, NULL, 'p' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "variant", required_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		SEL_OPTS, WARN_OPTS,
		{ NULL, 0, NULL, 0 }
	};
	int c, k, rc;

	while ((c = getopt_long(argc, argv, "hj:o:p:qv:V" WARN_SHORT, lopts,
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
		case 'p':
			if ((o->plies = (int)cli_number(optarg, 1, 100000,
			    "--plies")) < 0)
				return cli_usage();
			break;
		case 'v':
			if ((o->force = cli_variant(optarg)) == NULL)
				return cli_usage();
			break;
		case O_DEFVAR:
			if ((o->defvar = cli_variant(optarg)) == NULL)
				return cli_usage();
			break;
		case O_MEMORY:
			if (memory_arg(optarg, &o->memory) != 0)
				return cli_usage();
			break;
		default:
			if ((k = sel_option(&o->gsel, c, optarg)) == 0)
				k = jobs_option(j, c, optarg);
			if (k > 0)
				break;
			return cli_usage();
		}
	}
	return -1;
}

/* The directory of path, for the sorter's runs. */
static char *
dir_of(const char *path)
{
	const char *sl = strrchr(path, '/');
	char *d;

	if (sl == NULL)
		return strdup(".");
	if ((d = strndup(path, (size_t)(sl - path) + (sl == path))) == NULL)
		return NULL;
	return d;
}

/* The inputs into o's index. */
static int
build_inputs(struct opts *o, struct jobs *j, int argc, char **argv)
{
	int i = 0, rc = EXIT_VALID;
	long n;

	do {
		FILE *in = cli_open(argc > 0 ? argv[i] : NULL, &o->name);

		if (in == NULL) {	/* the old index stays as it was */
			rc = EXIT_USAGE;
			o->failed = true;
			break;
		}
		fflush(j->out);
		if (zhi_db_input(o->db, o->name, &o->input) != 0) {
			o->failed = true;
			break;
		}
		n = o->gsel.read;
		if (jobs_run(j, in, o->name) != 0)
			rc = EXIT_USAGE;
		else if (o->gsel.read == n && !j->stop)
			cli_fail("%s: warning: no game in it", o->name);
		if (in != stdin)
			fclose(in);
		fflush(j->out);
	} while (++i < argc && !j->stop && !o->failed);
	return rc;
}

static int
build_finish(struct opts *o, int rc)
{
	char extra[512];
	long n;

	fflush(o->jobs->out);
	/* -j N: the last records sorted by N - 1 threads while this one
	   writes the sorted ones (the workers are done by now) */
	zhi_sort_threads(o->sort, (o->jobs->njobs > 0 ? o->jobs->njobs :
	    (int)sysconf(_SC_NPROCESSORS_ONLN)) - 1);
	if (o->failed || o->have != 0 || zhi_sort_finish(o->sort) != 0 ||
	    zhi_db_positions(o->db, o->sort) != 0) {
		if (!o->failed && o->have != 0)
			cli_fail("a game's records were cut");
		zhi_db_abort(o->db);
		return cli_exit(EXIT_USAGE);
	}
	snprintf(extra, sizeof extra, "\"indexed\":%ld,\"with_errors\":%ld,"
	    "\"records\":%ld,\"runs\":%ld", zhi_db_games(o->db), o->bad,
	    o->records, zhi_sort_runs(o->sort));
	sel_stats(&o->gsel, extra);
	n = zhi_db_games(o->db);
	if (zhi_db_commit(o->db) != 0)
		return cli_exit(EXIT_USAGE);
	if (!cli_quiet)
		fprintf(stderr, "zhindex: %ld game%s in the index; %ld read "
		    "here: %ld with errors, %ld without a result (neither "
		    "indexed); %ld records\n", n, n == 1 ? "" : "s", o->games,
		    o->bad, o->games - o->bad - o->written, o->records);
	sel_summary(&o->gsel);
	if (rc == EXIT_VALID && (o->bad > 0 || warn_said_total(true) > 0))
		rc = EXIT_INVALID;
	return cli_exit(rc);
}

/* build -o FILE, add FILE (the old index read in first), merge -o FILE
   A.zhi B.zhi... (no PGN inputs). */
static int
cmd_build(int argc, char **argv, int kind)
{
	static const struct opts zero = { .plies = 50,
	    .memory = (size_t)256 << 20 };
	static const cookie_io_functions_t io = { .write = sink_write };
	struct opts o = zero;
	struct jobs j = { .njobs = 1, .ctx = &o, .work = work, .done = done,
	    .make_state = make_state, .free_state = free_state };
	const char *outpath = NULL;
	char *dir;
	int rc, i;

	o.jobs = &j;
	if ((rc = build_options(argc, argv, &o, &j, &outpath)) >= 0) {
		sel_free(&o.gsel);
		return rc;
	}
	argc -= optind;
	argv += optind;
	if (kind == 1 && argc > 0 && outpath == NULL) {	/* add FILE.zhi */
		outpath = argv[0];
		argc--;
		argv++;
	}
	if (outpath == NULL || strcmp(outpath, "-") == 0 ||
	    (kind == 2 && argc < 1)) {
		cli_fail(outpath == NULL || strcmp(outpath, "-") == 0 ?
		    "the index is a file: -o FILE.zhi (or add FILE.zhi)" :
		    "merge: no index to merge");
		sel_free(&o.gsel);
		return cli_usage();
	}
	cli_inputs(kind == 2 ? 0 : argc, argv);
	if (kind != 2 && cli_input_named(outpath) != NULL) {
		cli_fail("%s: cannot write: it is the input", outpath);
		sel_free(&o.gsel);
		return cli_exit(EXIT_USAGE);
	}
	if (sel_setup(&o.gsel, &j, kind == 2 ? 0 : argc, argv) != 0 ||
	    cli_outputs_open() != 0 || (dir = dir_of(outpath)) == NULL) {
		sel_free(&o.gsel);
		return cli_exit(EXIT_USAGE);
	}
	if (kind == 1 || kind == 2) {	/* the plies of the old index */
		struct zhi_reader *x = zhi_open(kind == 1 ? outpath : argv[0]);

		if (x == NULL) {
			free(dir);
			sel_free(&o.gsel);
			return cli_exit(EXIT_USAGE);
		}
		o.plies = zhi_plies(x);
		zhi_close(x);
	}
	o.sort = zhi_sort_new(o.memory / 2, dir);
	free(dir);
	if (o.sort == NULL || (o.db = zhi_db_create(outpath, o.plies,
	    o.memory)) == NULL || (j.out = fopencookie(&o, "w", io)) == NULL) {
		zhi_sort_free(o.sort);
		sel_free(&o.gsel);
		return cli_exit(EXIT_USAGE);
	}
	setvbuf(j.out, NULL, _IOFBF, 1 << 16);
	j.err = warn_sink(stderr);
	rc = EXIT_VALID;
	if (kind == 1 && zhi_db_import(o.db, o.sort, outpath, o.plies) != 0)
		o.failed = true;
	for (i = 0; kind == 2 && i < argc && !o.failed; i++)
		if (zhi_db_import(o.db, o.sort, argv[i], o.plies) != 0)
			o.failed = true;
	if (kind != 2 && !o.failed)
		rc = build_inputs(&o, &j, argc, argv);
	warn_sink_end();
	rc = build_finish(&o, rc);
	fclose(j.out);
	zhi_sort_free(o.sort);
	free(o.stage);
	sel_free(&o.gsel);
	return rc;
}

int
main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	cli_prog = "zhindex";
	cli_args(argc, argv);
	zhi_key_setup();
	if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0) {
		usage(stdout);
		return cli_exit(EXIT_VALID);
	}
	if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0) {
		cli_version();
		return cli_exit(EXIT_VALID);
	}
	if (strcmp(cmd, "build") == 0)
		return cmd_build(argc - 1, argv + 1, 0);
	if (strcmp(cmd, "add") == 0)
		return cmd_build(argc - 1, argv + 1, 1);
	if (strcmp(cmd, "merge") == 0)
		return cmd_build(argc - 1, argv + 1, 2);
	if (strcmp(cmd, "query") == 0 || strcmp(cmd, "suite") == 0) {
		int i;

		for (i = 2; i < argc && strcmp(argv[i], "--") != 0; i++)
			if (strcmp(argv[i], "-h") == 0 ||
			    strcmp(argv[i], "--help") == 0) {
				usage(stdout);
				return cli_exit(EXIT_VALID);
			}
	}
	if (strcmp(cmd, "query") == 0)
		return zhiq_query(argc - 1, argv + 1);
	if (strcmp(cmd, "suite") == 0)
		return zhiq_suite(argc - 1, argv + 1);
	cli_fail(*cmd ? "unknown command '%s' (build, add, merge, query, suite)"
	    : "a command is needed: build, add, merge, query or suite", cmd);
	return cli_usage();
}
