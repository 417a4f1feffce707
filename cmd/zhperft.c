/* zhperft - count the leaves of the legal move tree. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: zhperft [-d] [-v VARIANT] [-f FEN] [-o FILE] DEPTH\n"
	    "       zhperft -s FILE [-v VARIANT] [-m NODES] [-o FILE]\n"
	    "Count the leaf nodes of the legal move tree (perft).\n"
	    "  -v, --variant V    crazyhouse (default), loop, chessgi, grandhouse,\n"
	    "                     upsidedown, wild5, chess, grand\n"
	    "  -f, --fen FEN      start from FEN (any dialect) instead of the start\n"
	    "  -d, --divide       print each root move (UCI) with its count\n"
	    "  -s, --suite FILE   check a suite of 'id/variant/epd/perft D N' entries\n"
	    "  -m, --max-nodes N  in a suite, skip counts above N\n"
	    "  -o, --output FILE  write to FILE\n"
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

/* Suite: "id X", "variant V", "epd FEN", "perft D N" ("perft-comment"). */
static int
suite(FILE *out, const char *path, const struct zh_variant *deflt,
    unsigned long long max_nodes)
{
	const char *name;
	FILE *f = cli_open(path, &name);
	char line[4096], id[256] = "?";
	const struct zh_variant *v = deflt;
	struct zh_pos pos;
	bool have_pos = false, skip = false, rd = false;
	long lineno = 0, pass = 0, failed = 0, skipped = 0;

	if (f == NULL)
		return EXIT_USAGE;
	while (!cli_outputs_failed() && fgets(line, sizeof line, f) != NULL) {
		char *s = line, *e;
		size_t n = strlen(s);

		lineno++;
		while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
			s[--n] = '\0';
		if (strncmp(s, "id ", 3) == 0) {
			snprintf(id, sizeof id, "%.200s", s + 3);
			v = deflt;
			have_pos = skip = false;
		} else if (strncmp(s, "variant ", 8) == 0) {
			v = zh_variant_find(s + 8);
			if (v == NULL) {
				if (!cli_quiet)
					fprintf(stderr, "%s: %s:%ld: note: %s: "
					    "variant '%s' is not supported, skipped\n",
					    cli_prog, name, lineno, id, s + 8);
				skip = true;
				skipped++;
				v = deflt;
			}
		} else if (strncmp(s, "epd ", 4) == 0 && !skip) {
			struct zh_error err = { 0 };

			if (zh_fen_read(&pos, s + 4, v, ZH_AUTO, 0, &err) != 0 &&
			    err.code == ZH_EVARIANT) {
				if (!cli_quiet)
					fprintf(stderr, "%s: %s:%ld: note: %s: %s, "
					    "skipped\n", cli_prog, name, lineno, id,
					    err.text);
				skipped++;
				skip = true;
			} else if (err.code != ZH_OK) {
				cli_diag("error", name, lineno, err.col + 4,
				    "%s: %s", id, err.text);
				failed++;
				skip = true;
			} else
				have_pos = true;
		} else if ((strncmp(s, "perft ", 6) == 0 ||
		    strncmp(s, "perft-comment ", 14) == 0) && have_pos && !skip) {
			long depth;
			unsigned long long want, got;

			s += s[5] == ' ' ? 6 : 14;
			depth = strtol(s, &e, 10);
			want = strtoull(e, &e, 10);
			if (depth < 0 || depth > 64) {
				cli_diag("error", name, lineno, 1, "bad perft line");
				failed++;
				continue;
			}
			if (max_nodes && want > max_nodes) {
				skipped++;
				continue;
			}
			if (max_nodes) {	/* whatever the entry says */
				uint64_t left = max_nodes;

				got = perft_bounded(&pos, (int)depth, &left);
				if (got == UINT64_MAX) {
					if (!cli_quiet)
						fprintf(stderr, "%s: %s:%ld: note: "
						    "%s: depth %ld has more than "
						    "%llu nodes (--max-nodes), "
						    "skipped\n", cli_prog, name,
						    lineno, id, depth, max_nodes);
					skipped++;
					continue;
				}
			} else
				got = zh_perft(&pos, (int)depth);
			if (got == want) {
				pass++;
				fprintf(out, "ok %s depth %ld %llu\n", id, depth, got);
			} else {
				failed++;
				fprintf(out, "FAIL %s depth %ld expected %llu got %llu\n",
				    id, depth, want, got);
			}
		}
	}
	if (ferror(f)) {
		cli_fail("%s: read error", name);
		rd = true;
	}
	if (f != stdin)
		fclose(f);
	if (cli_outputs_close() != 0)
		return EXIT_USAGE;
	if (!cli_quiet)
		fprintf(stderr, "%s: %s: %ld passed, %ld failed, %ld skipped\n",
		    cli_prog, name, pass, failed, skipped);
	return rd ? EXIT_USAGE : failed ? EXIT_INVALID : EXIT_VALID;
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "divide", no_argument, NULL, 'd' },
		{ "fen", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "max-nodes", required_argument, NULL, 'm' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "suite", required_argument, NULL, 's' },
		{ "variant", required_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const struct zh_variant *v = zh_variant_default();
	const char *fen = NULL, *suite_path = NULL, *outpath = NULL;
	unsigned long long max_nodes = 0;
	bool div = false;
	FILE *out = NULL;
	struct zh_pos pos;
	long depth;
	int c, rc;

	cli_prog = "zhperft";
	while ((c = getopt_long(argc, argv, "df:hm:o:qs:v:V", opts, NULL)) != -1)
		switch (c) {
		case 'd':
			div = true;
			break;
		case 'f':
			fen = optarg;
			break;
		case 'h':
			usage(stdout);
			return cli_exit(EXIT_VALID);
		case 'm': {
			char *e;

			max_nodes = strtoull(optarg, &e, 10);
			if (*optarg == '\0' || *e != '\0' || *optarg == '-') {
				cli_fail("--max-nodes: '%s' is not a number", optarg);
				return EXIT_USAGE;
			}
			break;
		}
		case 'o':
			outpath = optarg;
			break;
		case 'q':
			cli_quiet = 1;
			break;
		case 's':
			suite_path = optarg;
			break;
		case 'v':
			if ((v = cli_variant(optarg)) == NULL)
				return EXIT_USAGE;
			break;
		case 'V':
			cli_version();
			return cli_exit(EXIT_VALID);
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	argc -= optind;
	argv += optind;
	if (suite_path != NULL) {
		if (argc != 0) {
			usage(stderr);
			return EXIT_USAGE;
		}
		cli_output(outpath, &out);
		cli_inputs(1, (char *const *)&suite_path);
		if (cli_outputs_open() != 0)
			return EXIT_USAGE;
		rc = suite(out, suite_path, v, max_nodes);
		goto done;
	}
	if (argc != 1) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if ((depth = cli_number(argv[0], 0, 30, "DEPTH")) < 0)
		return EXIT_USAGE;
	if (fen != NULL) {
		struct zh_error err = { 0 };

		if (zh_fen_read(&pos, fen, v, ZH_AUTO, 0, &err) != 0) {
			cli_diag("error", "--fen", 1, err.col, "%s", err.text);
			return EXIT_USAGE;
		}
	} else
		zh_pos_start(&pos, v);
	cli_output(outpath, &out);
	if (cli_outputs_open() != 0)
		return EXIT_USAGE;
	if (div)
		rc = divide(out, &pos, (int)depth);
	else {
		fprintf(out, "%llu\n", (unsigned long long)zh_perft(&pos, (int)depth));
		rc = EXIT_VALID;
	}
done:
	return cli_exit(cli_outputs_failed() ? EXIT_USAGE : rc);
}
