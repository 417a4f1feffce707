/*
 * tail.c - a game's stored moves (zhkit-index(5), games.moves): each
 * move of its first N plies as its index among the legal moves of the
 * position before it (libzh's zh_legal_moves order: one byte, two when
 * the position has more than 256 legal moves); played back into the
 * game's records or its positions' keys.  The positions of one game
 * (most past the opening) are found from the tails table's short
 * entries and checked by playing the game's moves back: no key of
 * theirs is stored.  No SQLite here.
 */
#include <stdlib.h>
#include <string.h>

#include "zhi.h"

/* The index of m among p's legal moves into b: its length (1 or 2),
   0 if m is not one of them. */
size_t
zhi_move_put(const struct zh_pos *p, struct zh_move m, unsigned char *b)
{
	struct zh_move mv[ZH_MAXMOVES];
	int n = zh_legal_moves(p, mv), i;

	for (i = 0; i < n; i++)
		if (zh_move_eq(mv[i], m))
			break;
	if (i == n)
		return 0;
	b[0] = (unsigned char)(i & 0xff);
	if (n <= 256)
		return 1;
	b[1] = (unsigned char)(i >> 8);
	return 2;
}

/* The keys of the game whose stored moves are b[0..n), played from the
   start position of v: cb(arg, key, code) for each of its first
   positions with the move's code, the last one (after the last stored
   move) with code 0, as zhi_game_records gives them.  0; the callback's
   non-zero return; -1 if b is not a list of legal moves. */
int
zhi_moves_walk(const struct zh_variant *v, const unsigned char *b, size_t n,
    int (*cb)(void *arg, struct zh_key k, uint32_t code), void *arg)
{
	struct zh_move mv[ZH_MAXMOVES];
	struct zh_pos p[2];
	struct zh_key k;
	size_t at = 0;
	int cur = 0, rc;

	zh_pos_start(&p[0], v);
	k = zh_pos_key(&p[0]);
	for (;;) {
		struct zh_key mk = k;
		int nm, i;

		mk.hi &= zhi_high_mask;
		mk.lo &= ~(uint64_t)0xffffffff;
		if (at == n)
			return cb(arg, mk, 0);
		nm = zh_legal_moves(&p[cur], mv);
		i = b[at++];
		if (nm > 256) {
			if (at == n)
				return -1;
			i |= b[at++] << 8;
		}
		if (i >= nm)
			return -1;
		if ((rc = cb(arg, mk, zhi_move_code(mv[i]))) != 0)
			return rc;
		p[1 - cur] = p[cur];
		zh_make(&p[1 - cur], mv[i]);
		k = zh_pos_key_next(k, &p[cur], &p[1 - cur]);
		cur = 1 - cur;
	}
}

/* ---------------- a tails row ---------------- */

/* A tails entry's fingerprint: the key's bits 64 to 71 (the top byte
   of its low half; the row's id is from its high half). */
unsigned
zhi_tail_fp(uint64_t lo)
{
	return (unsigned)(lo >> 56);
}

/* The games of a tails row whose entries have fingerprint fp, at most
   max, into g (ascending, each once): their number, -1 if the row is
   bad. */
long
zhi_tail_games(const unsigned char *b, size_t n, unsigned fp, uint32_t *g,
    size_t max)
{
	const unsigned char *p = b, *end = b + n;
	uint64_t game = 0, gap;
	long k = 0;

	while (p < end) {
		if (zhi_get(&p, end, &gap) != 0 || p == end ||
		    gap > UINT32_MAX - game)
			return -1;
		game += gap;
		if (*p++ != fp || (k > 0 && g[k - 1] == game))
			continue;
		if ((size_t)k == max)
			return -1;
		g[k++] = (uint32_t)game;
	}
	return k;
}
