/*
 * gameout.c - the one door of the writers: a replayed game of one board
 * (pgnout.c) or two (bugout.c), the engine chosen here, never by the
 * caller.
 */
#include <stdio.h>

#include "json.h"

int
zh_pgn_write(FILE *f, const struct zh_game *g, const struct zh_replay *r,
    int d, struct zh_error *err)
{
	if (r->bug != NULL)
		return zh_bug_write(f, g, r->bug, d, err);
	return zh__pgn_write_board(f, g, r, d, err);
}

int
zh_game_json(struct zh_text *out, const struct zh_game *g,
    const struct zh_replay *r, int d, unsigned flags, struct zh_error *err)
{
	struct zh__buf b = ZH_BUF_TEXT(out);

	if (r->bug != NULL)
		zh_bug_json(&b, g, r->bug, d, flags);
	else
		zh__game_json_board(&b, g, r, d, flags);
	return zh__buf_text(&b, out, err);
}

/* Board A, then B when the game has labels (one board of a chess.com
 * pair has none: it is board A alone). */
int
zh_pgn_write_boards(FILE *f, const struct zh_game *g,
    const struct zh_replay *r, int d, struct zh_error *err)
{
	int rc;

	if (r->bug == NULL)
		return zh__pgn_write_board(f, g, r, d, err);
	rc = zh_bug_board_write(f, g, r->bug, ZH_BOARD_A, d, err);
	if (rc == 0 && r->bug->labels)
		rc = zh_bug_board_write(f, g, r->bug, ZH_BOARD_B, d, err);
	return rc;
}
