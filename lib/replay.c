/*
 * replay.c - the one door of a replay: a game of one board or two.
 *
 * zh_replay finds the variant once (game.c); a game of one board is
 * replayed there, a game of two into the replay's own two-board state
 * (bughouse.c), which no caller sets.  zh_replay_free frees both.
 */
#include <stdlib.h>
#include <string.h>

#include "zh_int.h"

/*
 * A game of two boards: replayed by zh_bug_replay into the replay's own
 * two-board state (allocated at the first such game, kept for the next);
 * r->bug points to it, r->err is its first error.
 */
static int
replay_two(const struct zh_game *g, struct zh_replay *r)
{
	struct zh_bug *b = r->bug_own;
	size_t k;
	int rc;

	if (b == NULL && (b = r->bug_own = calloc(1, sizeof *b)) == NULL) {
		zh_error_set(&r->err, ZH_ENOMEM, 0, "out of memory");
		return -1;
	}
	b->fast = r->fast;
	rc = zh_bug_replay(g, r->v, b);	/* the variant found once */
	r->bug = b;
	r->err = b->err;
	r->err_board = b->err_board;
	/* a variant or FEN tag error leaves nothing to walk */
	r->started = b->v != NULL && (b->err_code == NULL ||
	    strcmp(b->err_code, "fen") != 0);
	for (k = 0; k < g->ntoks; k++)	/* no one-board move: cheaper than
					   clearing all */
		r->moves[k].ok = false;
	if (r->fast)	/* validation reads v, bug and err only */
		return rc;
	zh_pos_start(&r->start, r->v);
	r->final = r->start;
	return rc;
}

int
zh_replay(const struct zh_game *g, const struct zh_variant *force,
    struct zh_replay *r)
{
	int rc = zh__replay_board(g, force, r);

	if (rc == ZH__TWO_BOARDS)
		return replay_two(g, r);
	r->err_board = -1;
	/* a variant or FEN tag error (or no memory) has no ply */
	r->started = r->err.code == ZH_OK || r->err.ply > 0;
	return rc;
}

void
zh_replay_free(struct zh_replay *r)
{
	if (r != NULL) {
		free(r->moves);
		r->moves = NULL;
		r->cap = 0;
		if (r->bug_own != NULL) {
			zh_bug_free(r->bug_own);
			free(r->bug_own);
		}
		r->bug_own = NULL;
		r->bug = NULL;
	}
}

int
zh_bply_walk(const struct zh_replay *r,
    int (*fn)(void *arg, const struct zh_bply *pl), void *arg)
{
	return r->bug != NULL ? zh_bug_walk(r->bug, fn, arg) : -1;
}
