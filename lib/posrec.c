/*
 * posrec.c - a position as the fixed-size record of zhkit-arrays(5):
 * one 10x10 grid of piece codes for every board size, the promoted
 * pieces as one bit a square, the pockets and the state, and the key a repetition is
 * looked up by.  The writer of the arrays is zhreplay's (cli/npy.c).
 */
#include <string.h>

#include "zh.h"
#include "zh_int.h"

int
zh_posrec_square(int s)
{
	if (s == ZH_NOSQ || ZH_FILE(s) < 0 || ZH_FILE(s) >= ZH_MAXFILES ||
	    ZH_RANK(s) < 0 || ZH_RANK(s) >= ZH_MAXRANKS)
		return ZH_REC_NOSQ;
	return ZH_RANK(s) * 10 + ZH_FILE(s);
}

static uint64_t
mix(uint64_t h, uint64_t w)
{
	return (h ^ w) * 0x100000001b3ULL;	/* the key folds it at the end */
}

/* A board of any size: its squares, the pockets and the state, 8 bytes
   at a time. */
static uint64_t
bytes_key(const struct zh_posrec *r)
{
	const unsigned char *b = r->board;
	uint64_t h = 0x9e3779b97f4a7c15ULL, w;
	size_t i, n = offsetof(struct zh_posrec, halfmove);

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, b + i, 8);
		h = mix(h, w);
	}
	for (; i < n; i++)
		h = mix(h, b[i]);
	h ^= h >> 29;
	return h ^ (h >> 32);
}

/* Any board: square by square. */
static void
fill_squares(struct zh_posrec *r, const struct zh_pos *p)
{
	const struct zh_variant *v = p->v;
	int f, rk;

	for (rk = 0; rk < v->ranks; rk++)
		for (f = 0; f < v->files; f++) {
			unsigned char pc = p->sq[ZH_SQ(f, rk)];

			if (pc == ZH_OFF || ZH_TYPE(pc) == ZH_EMPTY)
				continue;
			r->board[rk * 10 + f] = (unsigned char)(ZH_TYPE(pc) +
			    (ZH_COLOR(pc) == ZH_BLACK ? ZH_REC_BLACK : 0));
			if (pc & ZH_PROMOTED)
				r->promoted[(rk * 10 + f) >> 3] |=
				    (unsigned char)(1u << ((rk * 10 + f) & 7));
		}
}

#define BYTES(x)	((x) * 0x0101010101010101ULL)

/* bits (one a file, file a the lowest) at bit 'at' of the 128 in m */
static void
put_bits(uint64_t m[2], uint64_t bits, int at)
{
	if (at < 64)
		m[0] |= bits << at;
	if (at > 56)
		m[1] |= at < 64 ? bits >> (64 - at) : bits << (at - 64);
}

/* An 8x8 board: each rank's eight squares at once (a rank is eight
   bytes of p->sq), the piece codes byte by byte and the promoted flags
   gathered into eight bits; the key from the ranks as they are. */
static uint64_t
fill_ranks8(struct zh_posrec *r, const struct zh_pos *p)
{
	uint64_t w, code, promo, m[2] = { 0, 0 };
	uint64_t h = 0x9e3779b97f4a7c15ULL;
	int rk, k;

#pragma GCC unroll 8
	for (rk = 0; rk < 8; rk++) {
		memcpy(&w, &p->sq[ZH_SQ(0, rk)], sizeof w);
		h = mix(h, w);
		/* type + 8 for Black: no byte carries into the next */
		code = (w & BYTES(ZH_TYPEMASK)) + ((w >> 1) & BYTES(ZH_BLACKBIT >> 1));
		memcpy(r->board + rk * 10, &code, sizeof code);
		promo = (w >> 5) & BYTES(ZH_PROMOTED >> 5);
		if (promo != 0)	/* byte k's bit to bit k */
			put_bits(m, (promo * 0x0102040810204080ULL) >> 56,
			    rk * 10);
	}
	for (k = 0; k < 8 && (m[0] | m[1]) != 0; k++) {
		r->promoted[k] = (unsigned char)(m[0] >> 8 * k);
		r->promoted[8 + k] = (unsigned char)(m[1] >> 8 * k);
	}
	return h;
}

void
zh_posrec_fill(struct zh_posrec *r, const struct zh_pos *p, int check)
{
	uint64_t h = 0, w[2];
	bool b8 = p->v->files == 8 && p->v->ranks == 8;

	/* the board and promoted squares; every other field is set */
	memset(r, 0, offsetof(struct zh_posrec, pocket));
	if (b8)
		h = fill_ranks8(r, p);
	else
		fill_squares(r, p);
	memcpy(r->pocket[0], &p->pocket[0][ZH_PAWN], 8);
	memcpy(r->pocket[1], &p->pocket[1][ZH_PAWN], 8);
	r->side = p->side;
	r->castle = p->castle;
	r->ep = (unsigned char)(p->ep != ZH_NOSQ && zh_ep_legal(p) ?
	    zh_posrec_square(p->ep) : ZH_REC_NOSQ);
	r->check = check >= 0 ? check != 0 : p->check ? p->check == 2 :
	    zh_in_check(p);
	r->halfmove = p->halfmove;
	r->fullmove = p->fullmove;
	if (!b8) {
		r->key = bytes_key(r);
		return;
	}
	/* what zh_posrec_same compares, as words */
	memcpy(w, r->pocket, sizeof w);
	h = mix(mix(mix(h, w[0]), w[1]), (uint64_t)r->side |
	    (uint64_t)r->castle << 8 | (uint64_t)r->ep << 16);
	h ^= h >> 29;
	r->key = h ^ (h >> 32);
}

bool
zh_posrec_same(const struct zh_posrec *a, const struct zh_posrec *b)
{
	return a->key == b->key && memcmp(a, b, offsetof(struct zh_posrec,
	    check)) == 0;
}
