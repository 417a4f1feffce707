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
 * Prints "N games, P plies" (plies only with replay).  Not installed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "zh.h"

int
main(int argc, char **argv)
{
	struct zh_pgn_reader *r;
	struct zh_replay rp;
	struct zh_game g;
	long games = 0, plies = 0;
	int replay, rc;
	FILE *f;

	if (argc != 3 || (strcmp(argv[1], "read") != 0 &&
	    strcmp(argv[1], "replay") != 0)) {
		fprintf(stderr, "usage: floor read|replay FILE\n");
		return 2;
	}
	replay = strcmp(argv[1], "replay") == 0;
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
	}
	zh_replay_free(&rp);
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
