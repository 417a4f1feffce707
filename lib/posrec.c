/*
 * posrec.c - a position as the fixed-size record of zhkit-arrays(5):
 * one 10x10 grid of piece codes for every board size, the promoted
 * pieces, the pockets and the state, and the key a repetition is
 * looked up by.  The writer of the arrays is zhreplay's (cmd/npy.c).
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

/* The squares, the pockets and the state, 8 bytes at a time: the key. */
static uint64_t
rec_key(const struct zh_posrec *r)
{
	const unsigned char *b = r->board;
	uint64_t h = 0x9e3779b97f4a7c15ULL, w;
	size_t i, n = offsetof(struct zh_posrec, halfmove);

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, b + i, 8);
		h = (h ^ w) * 0x100000001b3ULL;
		h ^= h >> 29;
	}
	for (; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h ^ (h >> 32);
}

void
zh_posrec_fill(struct zh_posrec *r, const struct zh_pos *p)
{
	const struct zh_variant *v = p->v;
	int f, rk, c, t;

	memset(r, 0, sizeof *r);
	for (rk = 0; rk < v->ranks; rk++)
		for (f = 0; f < v->files; f++) {
			unsigned char pc = p->sq[ZH_SQ(f, rk)];

			if (pc == ZH_OFF || ZH_TYPE(pc) == ZH_EMPTY)
				continue;
			r->board[rk * 10 + f] = (unsigned char)(ZH_TYPE(pc) +
			    (ZH_COLOR(pc) == ZH_BLACK ? ZH_REC_BLACK : 0));
			r->promoted[rk * 10 + f] = (pc & ZH_PROMOTED) != 0;
		}
	for (c = 0; c < 2; c++)
		for (t = ZH_PAWN; t < ZH_NTYPES; t++)
			r->pocket[c][t - 1] = p->pocket[c][t];
	r->side = p->side;
	r->castle = p->castle;
	r->ep = (unsigned char)(p->ep != ZH_NOSQ && zh_ep_legal(p) ?
	    zh_posrec_square(p->ep) : ZH_REC_NOSQ);
	r->check = p->check ? p->check == 2 : zh_in_check(p);
	r->halfmove = p->halfmove;
	r->fullmove = p->fullmove;
	r->key = rec_key(r);
}

bool
zh_posrec_same(const struct zh_posrec *a, const struct zh_posrec *b)
{
	return a->key == b->key && memcmp(a, b, offsetof(struct zh_posrec,
	    check)) == 0;
}
