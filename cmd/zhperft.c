/* zhperft - count the leaves of the legal move tree. */
#include <getopt.h>
#include <stdio.h>
#include <sys/types.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "warn.h"

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: zhperft [-dq] [-v VARIANT] [--fen FEN] [-o FILE] DEPTH\n"
	    "       zhperft --suite FILE [-q] [-v VARIANT] [--max-nodes N] [-o FILE]\n"
	    "Count the leaf nodes of the legal move tree (perft).\n"
	    "  -v, --variant V    crazyhouse (default), loop, chessgi, grandhouse,\n"
	    "                     upsidedown, wild5, chess, grand\n"
	    "      --fen FEN      start from FEN (any dialect) instead of the start\n"
	    "  -d, --divide       print each root move (UCI) with its count\n"
	    "      --suite FILE   check a suite of 'id/variant/epd/perft D N' entries\n"
	    "      --max-nodes N  in a suite, skip counts above N\n"
	    "  -o, --output FILE  write to FILE\n"
	    WARN_HELP
	    "  -q, --quiet        no summary line\n"
	    "  -h, --help         this help;  -V, --version  the version\n");
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
divide(FILE *out, const struct zh_pos *p, int depth)
{
	struct zh_move moves[ZH_MAXMOVES];
	static char lines[ZH_MAXMOVES][48];
	char *sorted[ZH_MAXMOVES];
	uint64_t total = 0;
	int i, n = zh_legal_moves(p, moves);

	for (i = 0; i < n; i++) {
		struct zh_pos c = *p;
		char uci[ZH_MOVEMAX];
		uint64_t k;

		zh_uci_write(p, moves[i], uci);
		zh_make(&c, moves[i]);
		k = zh_perft(&c, depth - 1);
		total += k;
		snprintf(lines[i], sizeof lines[i], "%s %llu", uci,
		    (unsigned long long)k);
		sorted[i] = lines[i];
	}
	qsort(sorted, (size_t)n, sizeof sorted[0], cmp_str);
	for (i = 0; i < n; i++)
		fprintf(out, "%s\n", sorted[i]);
	fprintf(out, "total %llu\n", (unsigned long long)total);
	return EXIT_VALID;
}

/*
 * Leaves of p's tree to 'depth', counted from *left down; UINT64_MAX as
 * soon as they are more than *left (the last two plies are counted at
 * once, so the work done past the bound is one such subtree's).
 */
static uint64_t
perft_bounded(const struct zh_pos *p, int depth, uint64_t *left)
{
	struct zh_move moves[ZH_MAXMOVES];
	uint64_t total = 0, k;
	int i, n;

	if (depth <= 2) {
		k = zh_perft(p, depth);
		if (k > *left)
			return UINT64_MAX;
		*left -= k;
		return k;
	}
	n = zh_legal_moves(p, moves);
	for (i = 0; i < n; i++) {
		struct zh_pos c = *p;

		zh_make(&c, moves[i]);
		if ((k = perft_bounded(&c, depth - 1, left)) == UINT64_MAX)
			return UINT64_MAX;
		total += k;
	}
	return total;
}

/* ======================== suites ======================== */

/* A suite being read: its entry's state and the counts. */
struct suite {
	FILE *out;
	const char *name;
	const struct zh_variant *deflt, *v;
	unsigned long long max_nodes;
	const char *id;		/* the entry's "id", whole: idbuf or "?" */
	char *idbuf;
	struct zh_pos pos;
	bool have_pos, skip;
	long lineno, pass, failed, skipped;
};

/* "variant V": the entry's variant; one not supported skips it. */
static void
suite_variant(struct suite *su, const char *s)
{
	if ((su->v = zh_variant_find(s)) != NULL)
		return;
	if (!cli_quiet)
		fprintf(stderr, "%s: %s:%ld: note: %s: variant '%s' is not "
		    "supported, skipped\n", cli_prog, su->name, su->lineno,
		    su->id, s);
	su->skip = true;
	su->skipped++;
	su->v = su->deflt;
}

/* "epd FEN": the entry's position. */
static void
suite_epd(struct suite *su, const char *s)
{
	struct zh_error err = { 0 };

	if (zh_fen_read(&su->pos, s, su->v, ZH_AUTO, 0, &err) != 0 &&
	    err.code == ZH_EVARIANT) {
		if (!cli_quiet)
			fprintf(stderr, "%s: %s:%ld: note: %s: %s, skipped\n",
			    cli_prog, su->name, su->lineno, su->id, err.text);
		su->skipped++;
		su->skip = true;
	} else if (err.code != ZH_OK) {
		cli_diag("error", su->name, su->lineno, err.col + 4, "%s: %s",
		    su->id, err.text);
		su->failed++;
		su->skip = true;
	} else
		su->have_pos = true;
}

/* "D N" of a "perft" line: count to depth D, compare with N. */
static void
suite_perft(struct suite *su, const char *s)
{
	char *e;
	long depth = strtol(s, &e, 10);
	unsigned long long want = strtoull(e, &e, 10), got;

	if (depth < 0 || depth > 64) {
		cli_diag("error", su->name, su->lineno, 1, "bad perft line");
		su->failed++;
		return;
	}
	if (su->max_nodes && want > su->max_nodes) {
		su->skipped++;
		return;
	}
	if (su->max_nodes) {	/* whatever the entry says */
		uint64_t left = su->max_nodes;

		got = perft_bounded(&su->pos, (int)depth, &left);
		if (got == UINT64_MAX) {
			if (!cli_quiet)
				fprintf(stderr, "%s: %s:%ld: note: %s: depth %ld "
				    "has more than %llu nodes (--max-nodes), "
				    "skipped\n", cli_prog, su->name, su->lineno,
				    su->id, depth, su->max_nodes);
			su->skipped++;
			return;
		}
	} else
		got = zh_perft(&su->pos, (int)depth);
	if (got == want) {
		su->pass++;
		fprintf(su->out, "ok %s depth %ld %llu\n", su->id, depth, got);
	} else {
		su->failed++;
		fprintf(su->out, "FAIL %s depth %ld expected %llu got %llu\n",
		    su->id, depth, want, got);
	}
}

/* One line of a suite, without its line end. */
static void
suite_line(struct suite *su, const char *s)
{
	if (strncmp(s, "id ", 3) == 0) {
		char *id = strdup(s + 3);

		free(su->idbuf);
		su->idbuf = id;
		su->id = id != NULL ? id : "?";
		su->v = su->deflt;
		su->have_pos = su->skip = false;
	} else if (strncmp(s, "variant ", 8) == 0)
		suite_variant(su, s + 8);
	else if (strncmp(s, "epd ", 4) == 0 && !su->skip)
		suite_epd(su, s + 4);
	else if ((strncmp(s, "perft ", 6) == 0 ||
	    strncmp(s, "perft-comment ", 14) == 0) && su->have_pos && !su->skip)
		suite_perft(su, s + (s[5] == ' ' ? 6 : 14));
}

/* Suite: "id X", "variant V", "epd FEN", "perft D N" ("perft-comment"). */
static int
suite(FILE *out, const char *path, const struct zh_variant *deflt,
    unsigned long long max_nodes)
{
	struct suite su = { .out = out, .deflt = deflt, .v = deflt,
	    .max_nodes = max_nodes, .id = "?" };
	FILE *f = cli_open(path, &su.name);
	char *line = NULL;	/* a line whole, however long (a FEN's pocket) */
	size_t cap = 0;
	ssize_t got;
	bool rd = false;

	if (f == NULL)
		return EXIT_USAGE;
	while (!cli_outputs_failed() && (got = getline(&line, &cap, f)) >= 0) {
		size_t n = (size_t)got;

		su.lineno++;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		suite_line(&su, line);
	}
	free(line);
	free(su.idbuf);
	if (ferror(f)) {
		cli_read_error(f, su.name);
		rd = true;
	}
	if (f != stdin)
		fclose(f);
	if (cli_outputs_close() != 0)
		return EXIT_USAGE;
	if (!cli_quiet)
		fprintf(stderr, "%s: %s: %ld passed, %ld failed, %ld skipped\n",
		    cli_prog, su.name, su.pass, su.failed, su.skipped);
	return rd ? EXIT_USAGE : su.failed ? EXIT_INVALID : EXIT_VALID;
}

/* ======================== main ======================== */

struct opts {
	const struct zh_variant *v;
	const char *fen, *suite, *outpath;
	unsigned long long max_nodes;
	bool div;
};

enum { O_FEN = 256, O_MAXNODES, O_SUITE };

/* The options into o; -1 to go on, else the exit status. */
static int
options(int argc, char **argv, struct opts *o)
{
	static const struct option opts[] = {
		{ "divide", no_argument, NULL, 'd' },
		{ "fen", required_argument, NULL, O_FEN },
		{ "help", no_argument, NULL, 'h' },
		{ "max-nodes", required_argument, NULL, O_MAXNODES },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "suite", required_argument, NULL, O_SUITE },
		{ "variant", required_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		WARN_OPTS,
		{ NULL, 0, NULL, 0 }
	};
	char *e;
	int c, rc;

	while ((c = getopt_long(argc, argv, "df:hm:o:qs:v:V" WARN_SHORT, opts, NULL)) != -1) {
		if (cli_common_option(c, optarg, &rc)) {
			if (rc >= 0)
				return rc;
			continue;
		}
		switch (c) {
		case 'd':
			o->div = true;
			break;
		case 'f':	/* -f is --from in zhfen and zhpgn */
			cli_deprecated("-f for --fen", "--fen");
			/* FALLTHROUGH */
		case O_FEN:
			o->fen = optarg;
			break;
		case 'h':
			usage(stdout);
			return cli_exit(EXIT_VALID);
		case 'm':	/* -m is --moves in zhfen */
			cli_deprecated("-m for --max-nodes", "--max-nodes");
			/* FALLTHROUGH */
		case O_MAXNODES:
			o->max_nodes = strtoull(optarg, &e, 10);
			if (*optarg == '\0' || *e != '\0' || *optarg == '-') {
				cli_fail("--max-nodes: '%s' is not a number", optarg);
				return cli_usage();
			}
			break;
		case 'o':
			o->outpath = optarg;
			break;
		case 's':	/* -s is --strict in zhfen and zhcheck */
			cli_deprecated("-s for --suite", "--suite");
			/* FALLTHROUGH */
		case O_SUITE:
			o->suite = optarg;
			break;
		case 'v':
			if ((o->v = cli_variant(optarg)) == NULL)
				return cli_usage();
			break;
		default:
			return cli_usage();
		}
	}
	return -1;
}

/* zhperft --suite FILE (no operand). */
static int
run_suite(const struct opts *o, int argc, const char *argv0)
{
	FILE *out = NULL;
	int rc;

	if (argc != 0) {
		cli_fail("--suite takes no DEPTH operand ('%s')", argv0);
		return cli_usage();
	}
	cli_output(o->outpath, &out);
	cli_inputs(1, (char *const *)&o->suite);
	if (cli_outputs_open() != 0)
		return EXIT_USAGE;
	rc = suite(out, o->suite, o->v, o->max_nodes);
	return cli_exit(cli_outputs_failed() ? EXIT_USAGE : rc);
}

int
main(int argc, char **argv)
{
	struct opts o = { .v = zh_variant_default() };
	FILE *out = NULL;
	struct zh_pos pos;
	long depth;
	int rc;

	cli_prog = "zhperft";
	if ((rc = options(argc, argv, &o)) >= 0)
		return rc;
	argc -= optind;
	argv += optind;
	if (o.suite != NULL)
		return run_suite(&o, argc, argv[0]);
	if (argc != 1) {
		cli_fail(argc == 0 ? "a DEPTH is needed" : "one DEPTH only "
		    "('%s' is one too many)", argv[argc > 1]);
		return cli_usage();
	}
	if ((depth = cli_number(argv[0], 0, 30, "DEPTH")) < 0)
		return cli_usage();
	if (o.fen != NULL) {
		struct zh_error err = { 0 };

		if (zh_fen_read(&pos, o.fen, o.v, ZH_AUTO, 0, &err) != 0) {
			cli_diag("error", "--fen", 1, err.col, "%s", err.text);
			return cli_usage();
		}
	} else
		zh_pos_start(&pos, o.v);
	cli_output(o.outpath, &out);
	if (cli_outputs_open() != 0)
		return EXIT_USAGE;
	if (o.div)
		rc = divide(out, &pos, (int)depth);
	else {
		fprintf(out, "%llu\n", (unsigned long long)zh_perft(&pos, (int)depth));
		rc = EXIT_VALID;
	}
	return cli_exit(cli_outputs_failed() ? EXIT_USAGE : rc);
}
