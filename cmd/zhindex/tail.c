/*
 * tail.c - a game's stored moves (zhkit-index(5), games.moves): each
 * move of its first N plies as the square it goes to and its rank among
 * the legal moves to that square (libzh's zh_legal_to: one byte on an
 * 8x8 board as a rule, no list of all moves to make); played back into the
 * game's records or its positions' keys.  The positions of one game
 * (most past the opening) are found from the tails table's short
 * entries and checked by playing the game's moves back: no key of
 * theirs is stored.  No SQLite here.
 */
#include <stdlib.h>
#include <string.h>

#include "zhi.h"

uint64_t zhi_high_mask = ~(uint64_t)0;

/* zh_posrec_square(s), inline: a code a position of a game. */
static inline int
rec_square(int s)
{
	int f = ZH_FILE(s), r = ZH_RANK(s);

	return s != ZH_NOSQ && f >= 0 && f < ZH_MAXFILES && r >= 0 &&
	    r < ZH_MAXRANKS ? r * 10 + f : ZH_REC_NOSQ;
}

/* rec_square of every square (a move's is an unsigned char): a move's
   code is made at every ply indexed. */
#define RS(s)	((s) != ZH_NOSQ && ZH_FILE(s) >= 0 && \
	    ZH_FILE(s) < ZH_MAXFILES && ZH_RANK(s) >= 0 && \
	    ZH_RANK(s) < ZH_MAXRANKS ? ZH_RANK(s) * 10 + ZH_FILE(s) : ZH_REC_NOSQ)
#define RS4(s)	RS(s), RS((s) + 1), RS((s) + 2), RS((s) + 3)
#define RS16(s)	RS4(s), RS4((s) + 4), RS4((s) + 8), RS4((s) + 12)
#define RS64(s)	RS16(s), RS16((s) + 16), RS16((s) + 32), RS16((s) + 48)
static const unsigned char rec_squares[256] = {
	RS64(0), RS64(64), RS64(128), RS64(192)
};

uint32_t
zhi_move_code(struct zh_move m)
{
	int from = m.flags & ZH_MDROP ? 100 : rec_squares[m.from];
	int to = rec_squares[m.to];

	return (uint32_t)((from * 100 + to) * 16 + (m.piece & 15)) + 1;
}

/* A square as a number: rank x files + file. */
static int
sq_num(const struct zh_pos *p, int s)
{
	return ZH_RANK(s) * p->v->files + ZH_FILE(s);
}

/* m into b[8]: the square it goes to and its rank among the legal moves
   to that square (zh_legal_to); on a board of 64 squares or fewer one
   byte, square x 4 + rank, a rank over 2 as 3 and rank - 3 after it
   (a varint); on a larger one the square (a byte), then the rank.  Its
   length; 0 if m is not legal in p. */
size_t
zhi_move_put(const struct zh_pos *p, struct zh_move m, unsigned char *b)
{
	int i = zh_legal_rank(p, m), sq = sq_num(p, m.to);

	if (i < 0)
		return 0;
	if (p->v->files * p->v->ranks > 64) {
		b[0] = (unsigned char)sq;
		return 1 + zhi_put(b + 1, (uint64_t)i);
	}
	b[0] = (unsigned char)(sq * 4 + (i < 3 ? i : 3));
	return i < 3 ? 1 : 1 + zhi_put(b + 1, (uint64_t)i - 3);
}

/* The move at *at of b[0..n) (zhi_move_put's): 0, -1 if none. */
static int
move_get(const struct zh_pos *p, const unsigned char *b, size_t n,
    size_t *at, struct zh_move *m)
{
	const unsigned char *q = b + *at;
	uint64_t i;
	int sq, files = p->v->files;

	if (files * p->v->ranks > 64) {
		sq = *q++;
		if (zhi_get(&q, b + n, &i) != 0 || i > ZH_MAXMOVES)
			return -1;
	} else {
		sq = *q >> 2;
		i = *q++ & 3;
		if (i == 3) {
			if (zhi_get(&q, b + n, &i) != 0 || i > ZH_MAXMOVES)
				return -1;
			i += 3;
		}
	}
	*at = (size_t)(q - b);
	if (sq >= files * p->v->ranks)
		return -1;
	return zh_legal_nth(p, ZH_SQ(sq % files, sq / files), (int)i, m);
}

/* Could p be t (the key decides)?  Side, pieces, pockets where pieces
   are dropped; promoted flags and a chess game's hands left to the key. */
static bool
may_be(const struct zh_pos *p, const struct zh_pos *t)
{
	size_t i;

	if (p->side != t->side || p->bb_side[0] != t->bb_side[0] ||
	    p->bb_side[1] != t->bb_side[1] || memcmp(p->bb_type, t->bb_type,
	    sizeof p->bb_type) != 0 || (p->v->drops &&
	    memcmp(p->pocket, t->pocket, sizeof p->pocket) != 0))
		return false;
	if ((p->bb_side[0] | p->bb_side[1]) != 0)	/* 8x8: the masks */
		return true;
	for (i = 0; i < sizeof p->sq; i++)
		if ((p->sq[i] & ~ZH_PROMOTED) != (t->sq[i] & ~ZH_PROMOTED))
			return false;
	return true;
}

/* The keys of the game whose stored moves are b[0..n), played from the
   start position of v: cb(arg, key, code) for each of its first
   positions with the move's code, the last one (after the last stored
   move) with code 0, as zhi_game_records gives them; with a target t,
   only for the positions that may be t (the others' keys not made).
   0; the callback's non-zero return; -1 if b is not legal moves. */
int
zhi_moves_walk(const struct zh_variant *v, const unsigned char *b, size_t n,
    const struct zh_pos *t,
    int (*cb)(void *arg, struct zh_key k, uint32_t code), void *arg)
{
	struct zh_pos p[2];
	struct zh_key k = { 0, 0 };
	size_t at = 0;
	int cur = 0, rc;

	zh_pos_start(&p[0], v);
	if (t == NULL)
		k = zh_pos_key(&p[0]);
	for (;;) {
		struct zh_key mk = k;
		struct zh_move m;
		bool want = t == NULL || may_be(&p[cur], t);

		/* a castling right lost is never regained: t is behind */
		if (t != NULL && (t->castle & ~p[cur].castle) != 0)
			return 0;

		if (t != NULL && want)
			mk = zh_pos_key(&p[cur]);
		mk.hi &= zhi_high_mask;
		mk.lo &= ~(uint64_t)0xffffffff;
		if (at == n)
			return want ? cb(arg, mk, 0) : 0;
		if (move_get(&p[cur], b, n, &at, &m) != 0)
			return -1;
		if (want && (rc = cb(arg, mk, zhi_move_code(m))) != 0)
			return rc;
		p[1 - cur] = p[cur];
		zh_make(&p[1 - cur], m);
		if (t == NULL)
			k = zh_pos_key_next(k, &p[cur], &p[1 - cur]);
		cur = 1 - cur;
	}
}
