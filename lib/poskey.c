/*
 * poskey.c - a position's 128-bit key (zh_pos_key): what makes two
 * positions the same for an opening explorer (zhindex), as a repetition
 * compares them: the variant, every square's piece with its promoted
 * flag, the pieces in hand, the side to move, the castling rights and
 * the en-passant square when a capture there is legal.  The promoted
 * flag counts only where the rules read it: in a game whose captures go
 * to hand as pawns when promoted (crazyhouse, bughouse, grandhouse); in
 * chess, loop or chessgi a promoted queen is a queen.
 *
 * Zobrist's scheme without a stored table: every element's value is two
 * SplitMix64 mixes of its own number (a piece on a square; n pieces of a
 * type in a colour's hand), xored together, so the key needs no seed and
 * is the same in every build.  The squares of the first 8 files and
 * ranks have their values made once into a table (sqval), the same
 * numbers: a move's key rehashes a few of them.  Two independent 64-bit
 * halves: a collision between two given positions is about 2^-128.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

#include "zh.h"
#include "zh_int.h"

/* SplitMix64's finaliser (Steele, Lea, Flood 2014). */
static inline uint64_t
mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9u;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebu;
	x ^= x >> 31;
	return x;
}

/* The element numbered n into the key. */
static inline void
put(struct zh_key *k, uint64_t n)
{
	k->hi ^= mix64(n * 0x9e3779b97f4a7c15u + 0x632be59bd9b4e019u);
	k->lo ^= mix64(n * 0xd1b54a32d192ed03u + 0x8cb92ba72f3d8dd7u);
}

enum {
	E_SQUARE = 1 << 16,	/* + square * 64 + piece code (6 bits) */
	E_HAND = 2 << 16,	/* + (colour * 16 + type) * 256 + count */
	E_STATE = 3 << 16	/* + side, castling << 1, variant << 5 */
	/* E_EP = 4 << 16: + the en-passant square */
};

/* The values of the square elements of the first 8 files and ranks
   (put's, made once): a move's key rehashes two to four of them. */
static struct zh_key sqval[64][64];
/* and those of 0 to 31 pieces of a type in a colour's hand */
#define NHAND	32
static struct zh_key handval[2 * ZH_NTYPES][NHAND];
static pthread_once_t sqval_once = PTHREAD_ONCE_INIT;
static atomic_bool sqval_made;

static void
sqval_make(void)
{
	int i, c;

	for (i = 0; i < 64; i++)
		for (c = 0; c < 64; c++)
			put(&sqval[i][c], E_SQUARE +
			    (uint64_t)ZH_SQ(i & 7, i >> 3) * 64 + (unsigned)c);
	for (i = 0; i < 2 * ZH_NTYPES; i++)
		for (c = 0; c < NHAND; c++)
			put(&handval[i][c], E_HAND + (uint64_t)(i / ZH_NTYPES *
			    16 + i % ZH_NTYPES) * 256 + (unsigned)c);
	atomic_store_explicit(&sqval_made, true, memory_order_release);
}

/* sqval made, once (its flag read first: pthread_once is a call). */
static inline void
sqval_need(void)
{
	if (!atomic_load_explicit(&sqval_made, memory_order_acquire))
		pthread_once(&sqval_once, sqval_make);
}

/* put(k, E_SQUARE + s * 64 + code), from the table where s has one
   (sqval_once run). */
static inline void
put_sq(struct zh_key *k, int s, unsigned code)
{
	int f = ZH_FILE(s), r = ZH_RANK(s);

	if ((unsigned)f < 8 && (unsigned)r < 8) {
		k->hi ^= sqval[r * 8 + f][code].hi;
		k->lo ^= sqval[r * 8 + f][code].lo;
	} else
		put(k, E_SQUARE + (uint64_t)s * 64 + code);
}

struct zh_key
zh_pos_key(const struct zh_pos *p)
{
	struct zh_key k = { 0, 0 };
	uint64_t occ;
	unsigned mask = p->v->drops && p->v->demote ? 0x3f : 0x3f & ~ZH_PROMOTED;
	int s, c, t, f, r;

	if (p->v->files == 8 && p->v->ranks == 8) {
		sqval_need();
		occ = p->bb_side[0] | p->bb_side[1];
		while (occ != 0) {
			int b = __builtin_ctzll(occ);

			occ &= occ - 1;
			s = ZH_SQ(b & 7, b >> 3);
			k.hi ^= sqval[b][p->sq[s] & mask].hi;
			k.lo ^= sqval[b][p->sq[s] & mask].lo;
		}
	} else
		for (r = 0; r < p->v->ranks; r++)
			for (f = 0; f < p->v->files; f++) {
				s = ZH_SQ(f, r);
				if (ZH_TYPE(p->sq[s]) != ZH_EMPTY)
					put(&k, E_SQUARE + (uint64_t)s * 64 +
					    (p->sq[s] & mask));
			}
	for (c = 0; c < 2; c++)
		for (t = 1; t < ZH_NTYPES; t++)
			if (p->pocket[c][t] != 0)
				put(&k, E_HAND + (uint64_t)(c * 16 + t) * 256 +
				    p->pocket[c][t]);
	put(&k, E_STATE + (uint64_t)p->side + ((uint64_t)p->castle << 1) +
	    ((uint64_t)(p->v - zh_variants) << 5));
	if (p->ep != ZH_NOSQ && zh_ep_legal(p))
		put(&k, (4u << 16) + (uint64_t)p->ep);
	return k;
}

/* The state elements ea and eb (side, castling, variant) into k: a move
   flips the side and rarely the castling, so the same two come back
   move after move; their values are kept (the last pair a thread
   made). */
static inline void
state_next(struct zh_key *k, uint64_t ea, uint64_t eb)
{
	static _Thread_local struct {
		uint64_t a, b;		/* 0: none (no element is 0) */
		struct zh_key x;
	} last;

	if (!((last.a == ea && last.b == eb) || (last.a == eb && last.b == ea))) {
		last.x.hi = last.x.lo = 0;
		put(&last.x, ea);
		put(&last.x, eb);
		last.a = ea;
		last.b = eb;
	}
	k->hi ^= last.x.hi;
	k->lo ^= last.x.lo;
}

/* The squares of rank r that differ between a and b, rehashed into k:
   a rank is 16 bytes of sq, compared 8 at a time, the bytes that differ
   found by their bits. */
static inline void
rank_next(struct zh_key *k, const struct zh_pos *a, const struct zh_pos *b,
    int r, unsigned mask)
{
	int base = ZH_SQ(0, r) - 1, h;
	uint64_t wa[2], wb[2], x;

	memcpy(wa, a->sq + base, 16);
	memcpy(wb, b->sq + base, 16);
	for (h = 0; h < 2; h++)
		for (x = wa[h] ^ wb[h]; x != 0;) {
			int i = __builtin_ctzll(x) / 8, s = base + 8 * h + i;
			unsigned pa = a->sq[s], pb = b->sq[s];

			x &= ~((uint64_t)0xff << 8 * i);
			if ((pa & mask) == (pb & mask))
				continue;
			if (ZH_TYPE(pa) != ZH_EMPTY)
				put(k, E_SQUARE + (uint64_t)s * 64 + (pa & mask));
			if (ZH_TYPE(pb) != ZH_EMPTY)
				put(k, E_SQUARE + (uint64_t)s * 64 + (pb & mask));
		}
}

/* put(k, E_HAND + (colour * 16 + type) * 256 + n) of pocket entry i
   (colour i / ZH_NTYPES, type i % ZH_NTYPES), from the table for a few
   (sqval_made). */
static inline void
hand_put(struct zh_key *k, int i, unsigned n)
{
	if (n < NHAND) {
		k->hi ^= handval[i][n].hi;
		k->lo ^= handval[i][n].lo;
	} else
		put(k, E_HAND + (uint64_t)(i / ZH_NTYPES * 16 + i % ZH_NTYPES) *
		    256 + n);
}

/* Pocket entry i of a and b differs: both counts rehashed into k. */
static inline void
pocket_put(struct zh_key *k, int i, unsigned x, unsigned y)
{
	if (i % ZH_NTYPES == 0)
		return;
	if (x != 0)
		hand_put(k, i, x);
	if (y != 0)
		hand_put(k, i, y);
}

/* The pockets' entries that differ between a and b, rehashed into k:
   both colours' counts compared 8 at a time, the rest one by one. */
static inline void
pockets_next(struct zh_key *k, const struct zh_pos *a, const struct zh_pos *b)
{
	enum { N = sizeof a->pocket };
	const unsigned char *pa = &a->pocket[0][0], *pb = &b->pocket[0][0];
	uint64_t wa, wb, x;
	int at, i;

	for (at = 0; at + 8 <= N; at += 8) {
		memcpy(&wa, pa + at, 8);
		memcpy(&wb, pb + at, 8);
		for (x = wa ^ wb; x != 0;) {
			i = __builtin_ctzll(x) / 8;
			x &= ~((uint64_t)0xff << 8 * i);
			pocket_put(k, at + i, pa[at + i], pb[at + i]);
		}
	}
	for (; at < N; at++)
		if (pa[at] != pb[at])
			pocket_put(k, at, pa[at], pb[at]);
}

/* The squares of rank r of a board of 8 files or fewer that differ
   between a and b (x: its word of sq in a xor b's, the squares past the
   last file off the board in both), rehashed into k. */
static inline void
rank_next8(struct zh_key *k, const struct zh_pos *a, const struct zh_pos *b,
    int r, uint64_t x, unsigned mask)
{
	int base = ZH_SQ(0, r);

	while (x != 0) {
		int i = __builtin_ctzll(x) / 8, s = base + i;
		unsigned pa = a->sq[s], pb = b->sq[s];

		x &= ~((uint64_t)0xff << 8 * i);
		if ((pa & mask) == (pb & mask))
			continue;
		if (ZH_TYPE(pa) != ZH_EMPTY)
			put_sq(k, s, pa & mask);
		if (ZH_TYPE(pb) != ZH_EMPTY)
			put_sq(k, s, pb & mask);
	}
}

/* rank_next8 over the ranks of a board of 8 files or fewer: a rank is
   one word of sq. */
static inline void
board_next8(struct zh_key *k, const struct zh_pos *a, const struct zh_pos *b,
    int ranks, unsigned mask)
{
	uint64_t wa, wb;
	int r;

	for (r = 0; r < ranks; r++) {
		memcpy(&wa, a->sq + ZH_SQ(0, r), 8);
		memcpy(&wb, b->sq + ZH_SQ(0, r), 8);
		if (wa != wb)
			rank_next8(k, a, b, r, wa ^ wb, mask);
	}
}

/* The side, castling and en passant of a and b that differ, rehashed
   into k. */
static inline void
state_ep_next(struct zh_key *k, const struct zh_pos *a, const struct zh_pos *b)
{
	uint64_t sa, sb;

	sa = (uint64_t)a->side + ((uint64_t)a->castle << 1);
	sb = (uint64_t)b->side + ((uint64_t)b->castle << 1);
	if (sa != sb) {
		uint64_t vv = (uint64_t)(b->v - zh_variants) << 5;

		state_next(k, E_STATE + sa + vv, E_STATE + sb + vv);
	}
	if (a->ep != ZH_NOSQ && zh_ep_legal(a))
		put(k, (4u << 16) + (uint64_t)a->ep);
	if (b->ep != ZH_NOSQ && zh_ep_legal(b))
		put(k, (4u << 16) + (uint64_t)b->ep);
}

struct zh_key
zh_pos_key_next(struct zh_key k, const struct zh_pos *a, const struct zh_pos *b)
{
	unsigned mask = b->v->drops && b->v->demote ? 0x3f : 0x3f & ~ZH_PROMOTED;
	int r;

	if (a->v != b->v)
		return zh_pos_key(b);
	sqval_need();
	if (b->v->files <= 8 && b->v->ranks == 8)
		board_next8(&k, a, b, 8, mask);	/* the loop unrolled */
	else if (b->v->files <= 8)
		board_next8(&k, a, b, b->v->ranks, mask);
	else
		for (r = 0; r < b->v->ranks; r++)
			rank_next(&k, a, b, r, mask);
	pockets_next(&k, a, b);
	state_ep_next(&k, a, b);
	return k;
}

/* A move changes its origin and target, and the pockets only when it
   takes or drops; castling and en passant (a third or fourth square)
   compared as zh_pos_key_next does. */
struct zh_key
zh_pos_key_move(struct zh_key k, const struct zh_pos *a, struct zh_move m,
    const struct zh_pos *b)
{
	unsigned mask = b->v->drops && b->v->demote ? 0x3f : 0x3f & ~ZH_PROMOTED;
	bool drop = m.flags & ZH_MDROP;
	unsigned taken;

	if (a->v != b->v || (m.flags & (ZH_MEP | ZH_MCASTLE | ZH_MNULL)) ||
	    !zh_on_board(b, m.to) || (!drop && (!zh_on_board(b, m.from) ||
	    b->sq[m.from] != 0)))
		return zh_pos_key_next(k, a, b);
	sqval_need();
	taken = a->sq[m.to];
	if (!drop)
		put_sq(&k, m.from, a->sq[m.from] & mask);
	if (ZH_TYPE(taken) != ZH_EMPTY)
		put_sq(&k, m.to, taken & mask);
	put_sq(&k, m.to, b->sq[m.to] & mask);
	if (drop || ZH_TYPE(taken) != ZH_EMPTY)
		pockets_next(&k, a, b);
	state_ep_next(&k, a, b);
	return k;
}
