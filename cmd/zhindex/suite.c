/*
 * suite.c - zhindex suite: an EPD opening suite from an index, the
 * positions reached at ply K by at least N games whose score (White's
 * wins + half the draws, over the games) lies within the window around
 * one half.  The positions reached at ply K are found by walking the
 * index from the start position: each move's child looked up by its key.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "zhi.h"
#include "zhiq.h"

struct s {
	struct zhi_reader *x;
	int ply, dialect;
	long min;
	double window;
	long written;
	struct zhi_move m[ZH_MAXMOVES + 1];
	struct zh_key *seen;
	size_t nseen, capseen;
};

static bool
seen(struct s *o, struct zh_key k)
{
	size_t i;

	for (i = 0; i < o->nseen; i++)
		if (o->seen[i].hi == k.hi && o->seen[i].lo >> 32 == k.lo >> 32)
			return true;
	if (o->nseen == o->capseen) {
		size_t c = o->capseen ? 2 * o->capseen : 1024;
		struct zh_key *n = realloc(o->seen, c * sizeof *n);

		if (n == NULL)
			return true;
		o->seen = n;
		o->capseen = c;
	}
	o->seen[o->nseen++] = k;
	return false;
}

/* The position p at depth d: its games' total and score, and below. */
static int
walk(struct s *o, const struct zh_pos *p, int d)
{
	struct zhi_move m[256];
	struct zh_move mv[ZH_MAXMOVES];
	const unsigned char *b;
	size_t n;
	long nm, i;
	int k, nl;
	uint64_t all[3] = { 0, 0, 0 }, t;

	if (zhi_lookup(o->x, p) <= 0)
		return 0;
	b = zhi_row_moves(o->x, &n);
	if ((nm = zhi_moves_decode(b, n, m, 256)) < 0)
		return -1;
	for (i = 0; i < nm; i++)
		for (k = 0; k < 3; k++)
			all[k] += m[i].n[k];
	t = all[0] + all[1] + all[2];
	if (t < (uint64_t)o->min)
		return 0;
	if (d == o->ply) {
		double sc = ((double)all[0] + 0.5 * (double)all[1]) / (double)t;
		char epd[ZH_FENMAX];

		if (sc < 0.5 - o->window || sc > 0.5 + o->window ||
		    seen(o, zhi_key(p)))
			return 0;
		zh_epd_write(p, o->dialect, epd, sizeof epd);
		printf("%s c0 \"games %llu, score %.3f\";\n", epd,
		    (unsigned long long)t, sc);
		o->written++;
		return 0;
	}
	nl = zh_legal_moves(p, mv);
	for (i = 0; i < nm; i++) {
		if (m[i].code == 0 || m[i].n[0] + m[i].n[1] + m[i].n[2] <
		    (uint64_t)o->min)
			continue;
		for (k = 0; k < nl; k++)
			if (zhi_move_code(mv[k]) == m[i].code) {
				struct zh_pos q = *p;

				zh_make(&q, mv[k]);
				if (walk(o, &q, d + 1) != 0)
					return -1;
				break;
			}
	}
	return 0;
}

/* --score-window W: 0 and *w = W if W is a number from 0 to 0.5. */
static int
window(const char *s, double *w)
{
	char *end;

	errno = 0;
	*w = strtod(s, &end);
	if (*s != '\0' && *end == '\0' && errno == 0 && *w >= 0 && *w <= 0.5)
		return 0;
	cli_fail("--score-window: '%s' is not a number from 0 to 0.5", s);
	return -1;
}

int
zhiq_suite(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "ply", required_argument, NULL, 'k' },
		{ "min-games", required_argument, NULL, 'n' },
		{ "score-window", required_argument, NULL, 'w' },
		{ "variant", required_argument, NULL, 'v' },
		{ "to", required_argument, NULL, 't' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 }
	};
	struct s o = { .ply = 8, .min = 10, .window = 0.1,
	    .dialect = ZH_LICHESS };
	const struct zh_variant *v = zh_variant_default();
	struct zh_pos p;
	int c;

	while ((c = getopt_long(argc, argv, "k:n:w:v:t:q", lopts, NULL)) != -1) {
		if (c == 'q') {
			cli_quiet = 1;
			continue;
		}
		if (c == 'k' && (o.ply = (int)cli_number(optarg, 0, 1000,
		    "--ply")) >= 0)
			continue;
		if (c == 'n' && (o.min = cli_number(optarg, 1, 1000000000L,
		    "--min-games")) >= 0)
			continue;
		if (c == 'w' && window(optarg, &o.window) == 0)
			continue;
		if (c == 'v' && (v = cli_variant(optarg)) != NULL)
			continue;
		if (c == 't' && (o.dialect = cli_dialect(optarg, "--to",
		    false)) >= 0)
			continue;
		return cli_usage();
	}
	if (optind + 1 != argc) {
		cli_fail("suite FILE.zhi --ply K --min-games N");
		return cli_usage();
	}
	if ((o.x = zhi_open(argv[optind])) == NULL)
		return cli_exit(EXIT_USAGE);
	zh_pos_start(&p, v);
	c = walk(&o, &p, 0);
	if (!cli_quiet)
		fprintf(stderr, "zhindex: suite: %ld position%s at ply %d, each "
		    "reached by %ld games or more\n", o.written, o.written == 1 ?
		    "" : "s", o.ply, o.min);
	zhi_close(o.x);
	free(o.seen);
	return cli_exit(c != 0 ? EXIT_USAGE : EXIT_VALID);
}
