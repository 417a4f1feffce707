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

/* Cleaning (pgnclean.c) for a game of one board; a game of two whole. */
int
zh_pgn_write_opts(FILE *f, const struct zh_game *g, const struct zh_replay *r,
    int d, const struct zh_pgn_opts *o, struct zh_error *err)
{
	if (r->bug == NULL)
		return zh__pgn_write_clean(f, g, r, d, o, err);
	if (o != NULL && o->boards)
		return zh_pgn_write_boards(f, g, r, d, err);
	return zh_bug_write(f, g, r->bug, d, err);
}

int
zh_game_json_opts(struct zh_text *out, const struct zh_game *g,
    const struct zh_replay *r, int d, unsigned flags,
    const struct zh_pgn_opts *o, struct zh_error *err)
{
	if (r->bug == NULL)
		return zh__game_json_clean(out, g, r, d, flags, o, err);
	return zh_game_json(out, g, r, d, flags, err);
}
