/* merge.h - zhpgn --merge-boards: two board games of a stream, one BPGN. */
#ifndef MERGE_H
#define MERGE_H
#include <stdio.h>
#include "zh.h"

struct merge_run {
	int to;				/* output dialect */
	struct zh_pgn_limits limits;	/* --limit */
	long offset;			/* --game-offset */
	long games;			/* board games read */
	long merged;			/* BPGN games written */
	long failed;			/* board games not merged */
};

/*
 * Read the board games of 'in' two at a time (board A then board B, or
 * as their Board and PartnerGame tags pair them) and write one BPGN game
 * per pair to out; errors and notes on stderr ("zhpgn: NAME:LINE:COL:
 * note: ...").  0, or -1 if the input could not be read or the output
 * not written.
 */
int merge_boards(struct merge_run *m, FILE *in, const char *name, FILE *out);

#define MERGE_HELP \
    "      --merge-boards merge each two board games (board A, board B, as\n" \
    "                     chess.com exports them) into one BPGN game\n"

#endif
