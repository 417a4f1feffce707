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

/* Any board: square by square, into a zeroed board and promoted. */
static void
fill_squares(unsigned char *board, unsigned char *promoted,
    const struct zh_pos *p)
{
	const struct zh_variant *v = p->v;
	int f, rk;

	for (rk = 0; rk < v->ranks; rk++)
		for (f = 0; f < v->files; f++) {
			unsigned char pc = p->sq[ZH_SQ(f, rk)];

			if (pc == ZH_OFF || ZH_TYPE(pc) == ZH_EMPTY)
				continue;
			board[rk * 10 + f] = (unsigned char)(ZH_TYPE(pc) +
			    (ZH_COLOR(pc) == ZH_BLACK ? ZH_REC_BLACK : 0));
			if (pc & ZH_PROMOTED)
				promoted[(rk * 10 + f) >> 3] |=
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
   bytes of p->sq), the piece codes byte by byte into board (the rest of
   its 10x10 grid zeroed) and the promoted flags gathered into the 128
   bits of m; the key from the ranks as they are. */
static ZH_HOT_INLINE uint64_t
fill_ranks8(unsigned char *board, uint64_t m[2], const struct zh_pos *p)
{
	uint64_t w, code, any = 0;
	uint64_t h = 0x9e3779b97f4a7c15ULL;
	int rk;

	m[0] = m[1] = 0;
#pragma GCC unroll 8
	for (rk = 0; rk < 8; rk++) {
		memcpy(&w, &p->sq[ZH_SQ(0, rk)], sizeof w);
		h = mix(h, w);
		any |= w;
		/* type + 8 for Black: no byte carries into the next */
		code = (w & BYTES(ZH_TYPEMASK)) + ((w >> 1) & BYTES(ZH_BLACKBIT >> 1));
		memcpy(board + rk * 10, &code, sizeof code);
		memset(board + rk * 10 + 8, 0, 2);	/* files 8 and 9 */
	}
	memset(board + 80, 0, ZH_REC_SQUARES - 80);
	if ((any & BYTES(ZH_PROMOTED)) == 0)
		return h;
	for (rk = 0; rk < 8; rk++) {	/* byte k's bit to bit k */
		memcpy(&w, &p->sq[ZH_SQ(0, rk)], sizeof w);
		w = (w >> 5) & BYTES(ZH_PROMOTED >> 5);
		if (w != 0)
			put_bits(m, (w * 0x0102040810204080ULL) >> 56, rk * 10);
	}
	return h;
}

/* The promoted bits m into the n bytes at q (any bits set). */
static void
put_promoted(unsigned char *q, const uint64_t m[2], int n)
{
	int k;

	for (k = 0; k < n; k++)
		q[k] = (unsigned char)(m[k >> 3] >> 8 * (k & 7));
}

/* What zh_posrec_same compares but the board, into the key h. */
static uint64_t
key_end(uint64_t h, const unsigned char *pockets, int side, int castle,
    int ep)
{
	uint64_t w[2];

	memcpy(w, pockets, sizeof w);
	h = mix(mix(mix(h, w[0]), w[1]), (uint64_t)side |
	    (uint64_t)castle << 8 | (uint64_t)ep << 16);
	h ^= h >> 29;
	return h ^ (h >> 32);
}

void
zh_posrec_fill(struct zh_posrec *r, const struct zh_pos *p, int check)
{
	uint64_t h = 0, m[2];
	bool b8 = p->v->files == 8 && p->v->ranks == 8;

	/* the board and promoted squares; every other field is set */
	memset(r, 0, offsetof(struct zh_posrec, pocket));
	if (b8) {
		h = fill_ranks8(r->board, m, p);
		if ((m[0] | m[1]) != 0)
			put_promoted(r->promoted, m, 16);
	} else
		fill_squares(r->board, r->promoted, p);
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
	r->key = b8 ? key_end(h, &r->pocket[0][0], r->side, r->castle, r->ep) :
	    bytes_key(r);
}

uint64_t
zh_posrec_put(const struct zh_pos *p, unsigned char *board,
    unsigned char *promoted, unsigned char *pockets, int ep)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL, m[2], w;
	int k;

	memcpy(pockets, &p->pocket[0][ZH_PAWN], 8);
	memcpy(pockets + 8, &p->pocket[1][ZH_PAWN], 8);
	if (p->v->files != 8 || p->v->ranks != 8) {
		memset(board, 0, ZH_REC_SQUARES);
		memset(promoted, 0, ZH_REC_PROMOTED);
		fill_squares(board, promoted, p);
		for (k = 0; k + 8 <= ZH_REC_SQUARES; k += 8) {
			memcpy(&w, board + k, 8);
			h = mix(h, w);
		}
		memcpy(&w, board + ZH_REC_SQUARES - 8, 8);
		h = mix(h, w);
		for (k = 0; k < ZH_REC_PROMOTED; k++)
			h = mix(h, promoted[k]);
		return key_end(h, pockets, p->side, p->castle, ep);
	}
	h = fill_ranks8(board, m, p);
	if ((m[0] | m[1]) != 0)
		put_promoted(promoted, m, ZH_REC_PROMOTED);
	else
		memset(promoted, 0, ZH_REC_PROMOTED);
	return key_end(h, pockets, p->side, p->castle, ep);
}

bool
zh_posrec_same(const struct zh_posrec *a, const struct zh_posrec *b)
{
	return a->key == b->key && memcmp(a, b, offsetof(struct zh_posrec,
	    check)) == 0;
}
