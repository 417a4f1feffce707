/*
 * attack.c - is a square attacked, is a king in check: on any board by
 * walking the mailbox, on an 8x8 board from the bitboards; the
 * bitboards rebuilt from the squares; where a piece could go by its
 * movement alone (zh__reaches).
 */
#include <stdint.h>
#include <string.h>

#include "bb8.h"

/*
 * What a square's content attacks with, for the side 'by': indexed by
 * the content's colour bit and type (the promoted bit masked off), and
 * 0 for an empty square, a guard square (0xff & 0x1f) or the other side.
 */
#define A_PAWN 16
#define PATTR(c) \
	[(c) | ZH_PAWN] = A_PAWN, [(c) | ZH_KNIGHT] = A_KNIGHT, \
	[(c) | ZH_BISHOP] = A_DIAG, [(c) | ZH_ROOK] = A_ORTH, \
	[(c) | ZH_QUEEN] = A_DIAG | A_ORTH, [(c) | ZH_KING] = A_KING, \
	[(c) | ZH_ARCHBISHOP] = A_DIAG | A_KNIGHT, \
	[(c) | ZH_CHANCELLOR] = A_ORTH | A_KNIGHT
static const unsigned char pattr[2][32] = {
	{ PATTR(0) }, { PATTR(ZH_BLACKBIT) }
};
#define PA(at, pc)	((at)[(pc) & (ZH_BLACKBIT | ZH_TYPEMASK)])

/* Is s attacked by 'by', treating square 'skip' as empty? */
bool
zh__attacked_b(const unsigned char *b, int s, int by, int skip)
{
	const unsigned char *at = pattr[by];
	int i, t, back = -FORWARD(by);
	unsigned acc;
	unsigned char pc;

	acc = (PA(at, b[s + back - 1]) | PA(at, b[s + back + 1])) & A_PAWN;
	for (i = 0; i < 8; i++)
		acc |= PA(at, b[s + jumps[i]]) & A_KNIGHT;
	if (acc)
		return true;
	for (i = 0; i < 8; i++) {
		unsigned want = i < 4 ? A_ORTH : A_DIAG;
		int d = rays[i];

		t = s + d;
		pc = b[t];
		if (PA(at, pc) & A_KING)
			return true;
		while (pc == 0 || t == skip)
			pc = b[t += d];
		if (PA(at, pc) & want)
			return true;
	}
	return false;
}

/* Recompute p's bitboards from its squares. */
static void
bb_rebuild(struct zh_pos *p)
{
	int i;

	memset(p->bb_side, 0, sizeof p->bb_side);
	memset(p->bb_type, 0, sizeof p->bb_type);
	if (!has_bb(p))
		return;
	for (i = 0; i < 64; i++) {
		unsigned char pc = p->sq[bbsq(i)];

		if (pc != 0 && pc != ZH_OFF) {
			p->bb_side[ZH_COLOR(pc)] |= (uint64_t)1 << i;
			p->bb_type[ZH_TYPE(pc)] |= (uint64_t)1 << i;
		}
	}
}

/*
 * zh__attacked_b for an 8x8 board with its bitboards, after a change that
 * the board does not show yet: squares e1 and e2 (-1: none) as empty,
 * and 'full' as taken by a piece of the other side (a move's or a
 * drop's destination).  The attackers are found from the masks; only a
 * slider's path is walked.
 */
bool
zh__attacked8(const struct zh_pos *p, int s, int by, int e1, int e2, int full)
{
	const uint64_t *bt = p->bb_type;
	uint64_t gone = bbit_or0(e1) | bbit_or0(e2), fb = bbit_or0(full);
	uint64_t them = p->bb_side[by] & ~(gone | fb), dq, rq;
	int i = bbix(s);

	if ((zh__pawn8[!by][i] & bt[ZH_PAWN] & them) ||
	    (zh__knight8[i] & (bt[ZH_KNIGHT] | bt[ZH_ARCHBISHOP] |
	    bt[ZH_CHANCELLOR]) & them) ||
	    (zh__king8[i] & bt[ZH_KING] & them))
		return true;
	dq = (bt[ZH_BISHOP] | bt[ZH_QUEEN] | bt[ZH_ARCHBISHOP]) & them;
	rq = (bt[ZH_ROOK] | bt[ZH_QUEEN] | bt[ZH_CHANCELLOR]) & them;
	if (((zh__diag8[i] & dq) | (zh__orth8[i] & rq)) == 0)
		return false;
	return slider_hits8(i, ((p->bb_side[0] | p->bb_side[1]) & ~gone) | fb,
	    dq, rq);
}

/* Does the piece on s attack square k (board b)? */
bool
zh__piece_attacks(const unsigned char *b, int s, int k)
{
	unsigned char pc = b[s];
	int t = ZH_TYPE(pc), i, d, ix;
	unsigned a;

	if (t == ZH_PAWN) {
		int f = ZH_COLOR(pc) == ZH_WHITE ? 16 : -16;

		return k == s + f - 1 || k == s + f + 1;
	}
	ix = pair(s, k);
	a = attr[t] & zh__kindtab[ix];
	if (a & (A_KNIGHT | A_KING))
		return true;
	if (a == 0)
		return false;
	d = zh__dirtab[ix];
	for (i = s + d; i != k; i += d)
		if (b[i] != 0)
			return false;
	return true;
}

bool
zh_attacked(const struct zh_pos *p, int s, int by)
{
	return attacked_x(p, s, by, -1);
}

bool
zh_in_check(const struct zh_pos *p)
{
	int k = p->king[p->side];

	if (p->check != 0)		/* known since the last move */
		return p->check == 2;
	return k != ZH_NOSQ && zh_attacked(p, k, !p->side);
}

void
zh_pos_update(struct zh_pos *p)
{
	int k = p->king[p->side];

	bb_rebuild(p);
	p->check = k != ZH_NOSQ && zh_attacked(p, k, !p->side) ? 2 : 1;
}

bool
zh__reaches(const struct zh_pos *p, int from, int to)
{
	const unsigned char *b = p->sq;
	unsigned char pc = b[from];
	int c, i, t;
	unsigned a;

	if (pc == 0 || pc == ZH_OFF || from == to)
		return false;
	c = ZH_COLOR(pc);
	if (is_color(b[to], c))
		return false;
	if (ZH_TYPE(pc) == ZH_PAWN) {
		int fwd = FORWARD(c);

		if (b[to] == 0 && to == from + fwd)
			return true;
		if (b[to] == 0 && to == from + 2 * fwd && b[from + fwd] == 0 &&
		    RELRANK(p, c, from) == p->v->double_step)
			return true;
		return (to == from + fwd - 1 || to == from + fwd + 1) &&
		    (b[to] != 0 || to == p->ep);
	}
	a = attr[ZH_TYPE(pc)];
	if (a & A_KING)
		for (i = 0; i < 8; i++)
			if (from + rays[i] == to)
				return true;
	if (a & A_KNIGHT)
		for (i = 0; i < 8; i++)
			if (from + jumps[i] == to)
				return true;
	for (i = 0; i < 8; i++) {
		if (!(a & (i < 4 ? A_ORTH : A_DIAG)))
			continue;
		for (t = from + rays[i]; b[t] != ZH_OFF; t += rays[i]) {
			if (t == to)
				return true;
			if (b[t] != 0)
				break;
		}
	}
	return false;
}
