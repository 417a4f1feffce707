/*
 * floor.c - the floors under zhcheck's time, for bench/run.sh.
 *
 *   floor read FILE     every game read by the libzh PGN reader (tags
 *                       and movetext tokens, line and column of each),
 *                       no rules: what any zhkit tool pays first
 *   floor replay FILE   the same, and every game replayed with full
 *                       legality for validation (zh_replay, fast), as
 *                       zhcheck does before its tag checks and report
 *
 *   floor planes FILE   the same, and every mainline position with a move
 *                       after it as CrazyAra's version 3 planes (int8)
 *                       and policy index, in memory (zh_planes,
 *                       zh_policy_index): -F planes without its files,
 *                       what a binding pays for a position
 *
 * Prints "N games, P plies" (plies only with replay).  Not installed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "zh.h"

struct acc {
	const struct zh_pos *prev;
	struct zh_pos keep;
	struct zh_move last[8];
	int nlast;
	long sum;
	signed char planes[64 * 64];
};

static int
on_ply(void *arg, const struct zh_ply *pl)
{
	struct acc *a = arg;

	if (pl->line != 0)
		return 0;
	if (pl->move != NULL && a->prev != NULL) {
		zh_planes(&a->keep, a->last, a->nlast, 0, 3, ZH_PLANES_INT8,
		    a->planes);
		a->sum += zh_policy_index(&a->keep, pl->move->move) +
		    a->planes[64 * 19];
		memmove(a->last + 1, a->last, 7 * sizeof *a->last);
		a->last[0] = pl->move->move;
		a->nlast += a->nlast < 8;
	}
	a->keep = *pl->pos;
	a->prev = &a->keep;
	return 0;
}

static int
on_bply(void *arg, const struct zh_bply *pl)
{
	(void)arg;
	(void)pl;
	return 0;
}

int
main(int argc, char **argv)
{
	static struct acc acc;
	struct zh_lines lines = { 0 };
	struct zh_pgn_reader *r;
	struct zh_replay rp;
	struct zh_game g;
	long games = 0, plies = 0;
	int replay, rc;
	FILE *f;

	if (argc != 3 || (strcmp(argv[1], "read") != 0 &&
	    strcmp(argv[1], "replay") != 0 && strcmp(argv[1], "planes") != 0)) {
		fprintf(stderr, "usage: floor read|replay|planes FILE\n");
		return 2;
	}
	replay = strcmp(argv[1], "read") != 0;
	if ((f = fopen(argv[2], "rb")) == NULL) {
		fprintf(stderr, "floor: %s: error: %s\n", argv[2],
		    strerror(errno));
		return 2;
	}
	if ((r = zh_pgn_open(f, NULL)) == NULL) {
		fprintf(stderr, "floor: %s: error: out of memory\n", argv[2]);
		fclose(f);
		return 2;
	}
	memset(&rp, 0, sizeof rp);
	while ((rc = zh_pgn_next(r, &g)) == 1) {
		games++;
		if (replay) {
			rp.fast = true;
			rp.v = NULL;
			zh_replay(&g, NULL, &rp);
			plies += rp.nplies;
		}
		if (argv[1][0] == 'p' && rp.started) {
			acc.prev = NULL;
			acc.nlast = 0;
			zh_replay_walk(&lines, &g, &rp, 0, on_ply, on_bply, &acc);
		}
	}
	zh_replay_free(&rp);
	zh_lines_free(&lines);
	zh_pgn_close(r);
	fclose(f);
	if (rc < 0) {
		fprintf(stderr, "floor: %s:%ld: error: %s\n", argv[2],
		    g.err.line, g.err.text);
		return 2;
	}
	printf("%ld games, %ld plies\n", games, plies);
	return 0;
}
