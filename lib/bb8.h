/*
 * bb8.h - libzh internal: the movement of each piece type, the board
 * geometry tables (bb8.c) and the 8x8 bitboard kernel that move
 * generation (movegen.c), making moves (make.c) and the one-step SAN
 * replay (play.c) share, inline: attacks along lines, the quick king
 * safety test, the quick move and drop makers.
 */
#ifndef ZH_BB8_H
#define ZH_BB8_H

#include <stdint.h>
#include <string.h>

#include "zh_int.h"

/* Movement of each piece type: steps and rays. */
enum { A_KNIGHT = 1, A_DIAG = 2, A_ORTH = 4, A_KING = 8 };
static const unsigned char attr[ZH_NTYPES] = {
	[ZH_KNIGHT] = A_KNIGHT, [ZH_BISHOP] = A_DIAG, [ZH_ROOK] = A_ORTH,
	[ZH_QUEEN] = A_DIAG | A_ORTH, [ZH_KING] = A_KING,
	[ZH_ARCHBISHOP] = A_DIAG | A_KNIGHT, [ZH_CHANCELLOR] = A_ORTH | A_KNIGHT,
};
/* First four orthogonal, last four diagonal. */
static const int rays[8] = { 16, -16, 1, -1, 15, 17, -15, -17 };
static const int jumps[8] = { 31, 33, 14, 18, -31, -33, -14, -18 };

#define FORWARD(c)	((c) == ZH_WHITE ? 16 : -16)
#define RELRANK(p, c, s) ((c) == ZH_WHITE ? ZH_RANK(s) : \
	(p)->v->ranks - 1 - ZH_RANK(s))

/* The tables of bb8.c, described there. */
extern const signed char zh__dirtab[19 * 19];	/* by pair(a, b) */
extern const unsigned char zh__kindtab[19 * 19];
extern const uint64_t zh__knight8[64], zh__king8[64], zh__pawn8[2][64];
extern const uint64_t zh__diag8[64], zh__orth8[64];
extern const uint64_t zh__linelo8[4][64], zh__linehi8[4][64];
extern const unsigned char zh__ix8[ZH_NSQ], zh__sqof8[64];
extern const uint64_t zh__bit8[ZH_NSQ];
extern const signed char zh__dir8[240];
extern const signed char zh__step_line[35];
extern const unsigned char zh__ckeep8[ZH_NSQ];

/* attack.c: is s attacked by 'by' on board b, square 'skip' as empty? */
bool zh__attacked_b(const unsigned char *b, int s, int by, int skip);
/* attack.c: the same on an 8x8 board from the bitboards, after a change
 * the board does not show yet: e1 and e2 (-1: none) as empty, 'full' as
 * taken by the other side. */
bool zh__attacked8(const struct zh_pos *p, int s, int by, int e1, int e2,
    int full);
/* attack.c: does the piece on s attack square k (board b)? */
bool zh__piece_attacks(const unsigned char *b, int s, int k);
/* movegen.c: safe8() when in check. */
ZH_COLD bool zh__safe8_check(const struct zh_pos *p, int from, int to);

static inline bool
is_color(unsigned char pc, int c)
{
	return pc != 0 && pc != ZH_OFF && ZH_COLOR(pc) == c;
}

/* Index of the pair (a, b) in the tables above. */
static inline int
pair(int a, int b)
{
	return ((b >> 4) - (a >> 4) + 9) * 19 + (b & 15) - (a & 15) + 9;
}

/* Unit step from a towards b along a rank, file or diagonal; 0 if none. */
static inline int
unit_dir(int a, int b)
{
	return zh__dirtab[pair(a, b)];
}

/* The squares a slider on bit i attacks along line l, blockers 'occ'. */
static ZH_HOT_INLINE uint64_t
line_attacks8(int l, int i, uint64_t occ)
{
	uint64_t lo = zh__linelo8[l][i], hi = zh__linehi8[l][i];
	uint64_t lower = lo & occ, upper = hi & occ;
	uint64_t ms1b = (uint64_t)1 << (63 ^ __builtin_clzll(lower | 1));

	return (lo | hi) & (upper ^ (upper - ms1b));
}

static ZH_HOT_INLINE uint64_t
diag_attacks8(int i, uint64_t occ)
{
	return line_attacks8(2, i, occ) | line_attacks8(3, i, occ);
}

static ZH_HOT_INLINE uint64_t
orth_attacks8(int i, uint64_t occ)
{
	return line_attacks8(0, i, occ) | line_attacks8(1, i, occ);
}

/* Does a diagonal slider of dq or an orthogonal one of rq attack bit i? */
static inline bool
slider_hits8(int i, uint64_t occ, uint64_t dq, uint64_t rq)
{
	return ((diag_attacks8(i, occ) & dq) | (orth_attacks8(i, occ) & rq)) != 0;
}

/* Are p's bitboards kept (an 8x8 board)? */
static inline bool
has_bb(const struct zh_pos *p)
{
	return p->v->files == 8 && p->v->ranks == 8;
}

static inline int
unit_dir8(int a, int b)
{
	return zh__dir8[b - a + 119];
}

/* unit_dir(), by the 8x8 table where the board is 8x8 (has_bb()). */
static inline int
udir(const struct zh_pos *p, int a, int b)
{
	return p->v->files == 8 && p->v->ranks == 8 ? unit_dir8(a, b) :
	    unit_dir(a, b);
}

static inline int
bbix(int s)
{
	return zh__ix8[s];
}

static inline int
bbsq(int i)
{
	return zh__sqof8[i];
}

#define BBIT(s)		(zh__bit8[s])

/* The movement (A_ORTH or A_DIAG) along line l. */
#define LINE_KIND(l)	((l) < 2 ? A_ORTH : A_DIAG)

/*
 * The first square of 'occ' from bit i along line l towards bit j (as a
 * bit; 0 if none): the nearest blocker on that half of the line.
 */
static ZH_HOT_INLINE uint64_t
first_toward8(int l, int i, int j, uint64_t occ)
{
	uint64_t b;

	if (j > i) {
		b = zh__linehi8[l][i] & occ;
		return b & (0 - b);
	}
	b = zh__linelo8[l][i] & occ;
	return b != 0 ? (uint64_t)1 << (63 ^ __builtin_clzll(b)) : 0;
}

/* The bit of square s (of an 8x8 board), 0 for none (s < 0). */
static inline uint64_t
bbit_or0(int s)
{
	return s >= 0 ? BBIT(s) : 0;
}

/* zh_in_check(), the flag read inline when the last move set it. */
static inline bool
in_check(const struct zh_pos *p)
{
	return p->check != 0 ? p->check == 2 : zh_in_check(p);
}

static inline bool
attacked_x(const struct zh_pos *p, int s, int by, int skip)
{
	return has_bb(p) ? zh__attacked8(p, s, by, skip, -1, -1) :
	    zh__attacked_b(p->sq, s, by, skip);
}

/*
 * gives_check (make.c) on an 8x8 board, the other king on k: the moved
 * piece's attack from the masks and, for a slider, the first piece on its
 * line towards the king; then the first piece from the king through the
 * square the move left, which may be a slider of ours uncovered.
 */
static ZH_HOT_INLINE bool
gives_check8(const struct zh_pos *p, struct zh_move m, int us, int k)
{
	uint64_t occ = p->bb_side[0] | p->bb_side[1], kb = BBIT(k), x;
	unsigned char pc = p->sq[m.to];
	int ik = bbix(k), it = bbix(m.to), t = ZH_TYPE(pc), d, l;
	unsigned a = attr[t];

	if (t == ZH_PAWN) {
		if (zh__pawn8[us][it] & kb)
			return true;
	} else if ((((a & A_KNIGHT) ? zh__knight8[it] : 0) |
	    ((a & A_KING) ? zh__king8[it] : 0)) & kb)
		return true;
	else if ((d = unit_dir8(m.to, k)) != 0 &&
	    (a & LINE_KIND(l = zh__step_line[d + 17])) &&
	    first_toward8(l, it, ik, occ) == kb)
		return true;
	if ((m.flags & ZH_MDROP) || (d = unit_dir8(k, m.from)) == 0)
		return false;
	l = zh__step_line[d + 17];
	x = first_toward8(l, ik, bbix(m.from), occ);
	return (x & p->bb_side[us] & (l < 2 ? p->bb_type[ZH_ROOK] |
	    p->bb_type[ZH_QUEEN] | p->bb_type[ZH_CHANCELLOR] :
	    p->bb_type[ZH_BISHOP] | p->bb_type[ZH_QUEEN] |
	    p->bb_type[ZH_ARCHBISHOP])) != 0;
}

/* The side to move takes piece cap on square s: the counts, the hand
 * (a promoted piece as a pawn where the variant says so), a king gone. */
static ZH_HOT_INLINE void
take(struct zh_pos *p, unsigned char cap, int s)
{
	int us = p->side, them = !us, t = ZH_TYPE(cap);

	p->count[them][t]--;
	if (p->v->drops && p->v->boards < 2)	/* bughouse: zh_bug's */
		p->pocket[us][(cap & ZH_PROMOTED) && p->v->demote ?
		    ZH_PAWN : t]++;
	if (t == ZH_KING && p->king[them] == s)
		p->king[them] = ZH_NOSQ;
}

/* After the side to move's piece pc made move m, taking cap (0: none):
 * the king's square, the halfmove clock, the en passant square. */
static ZH_HOT_INLINE void
moved(struct zh_pos *p, struct zh_move m, unsigned char pc, unsigned char cap)
{
	int us = p->side;

	if (p->king[us] == m.from)
		p->king[us] = m.to;
	p->taken = cap;
	p->halfmove = (ZH_TYPE(pc) == ZH_PAWN || cap != 0) ? 0 :
	    p->halfmove + 1;
	p->ep = (m.flags & ZH_MDOUBLE) ? (unsigned char)(m.from + FORWARD(us)) :
	    ZH_NOSQ;
}

/*
 * make_board for the common move of an 8x8 board: a piece or pawn going
 * to a square, maybe taking there; no drop, en passant, castling or
 * promotion (the caller checked m.flags).
 */
static ZH_HOT_INLINE void
make_plain8(struct zh_pos *p, struct zh_move m)
{
	int us = p->side, them = !us;
	unsigned char pc = p->sq[m.from], cap = p->sq[m.to];
	uint64_t fb = BBIT(m.from), tb = BBIT(m.to);

	if (cap != 0) {
		take(p, cap, m.to);
		p->bb_side[them] &= ~tb;
		p->bb_type[ZH_TYPE(cap)] &= ~tb;
	}
	if (p->castle) {	/* move_rights() of an 8x8 board */
		unsigned c = p->castle & zh__ckeep8[m.from] & zh__ckeep8[m.to];

		if (ZH_TYPE(pc) == ZH_KING && p->king[us] == m.from)
			c &= us == ZH_WHITE ? ~(ZH_CASTLE_WK | ZH_CASTLE_WQ) :
			    ~(ZH_CASTLE_BK | ZH_CASTLE_BQ);
		p->castle = (unsigned char)c;
	}
	p->bb_side[us] ^= fb | tb;
	p->bb_type[ZH_TYPE(pc)] ^= fb | tb;
	p->sq[m.from] = 0;
	p->sq[m.to] = pc;
	moved(p, m, pc, cap);
	p->side = (unsigned char)them;
	p->fullmove += us;
}

/* make_board for a drop on an 8x8 board. */
static ZH_HOT_INLINE void
make_drop8(struct zh_pos *p, struct zh_move m)
{
	int us = p->side;
	uint64_t tb = BBIT(m.to);

	p->sq[m.to] = ZH_PIECE(us, m.piece);
	p->bb_side[us] |= tb;
	p->bb_type[m.piece] |= tb;
	p->pocket[us][m.piece]--;
	p->count[us][m.piece]++;
	p->taken = 0;
	p->halfmove = m.piece == ZH_PAWN ? 0 : p->halfmove + 1;
	p->ep = ZH_NOSQ;
	p->side = (unsigned char)!us;
	p->fullmove += us;
}

/*
 * Would the side to move's king be safe after its piece (not the king)
 * on 'from' went to 'to' of an 8x8 board, taking what stands there?
 * Out of check ('check' false) only a slider's line through 'from' can
 * open; in check a knight, pawn or king may still attack, unless taken.
 */
static ZH_HOT_INLINE bool
safe8(const struct zh_pos *p, int from, int to, bool check)
{
	const uint64_t *bt = p->bb_type;
	int us = p->side, k = p->king[us], i, d, l;
	uint64_t occ, them, x;

	if (k == ZH_NOSQ)
		return true;
	if (check)
		return zh__safe8_check(p, from, to);
	/* only a pin: the line from the king */
	if ((d = unit_dir8(k, from)) == 0)
		return true;
	i = bbix(k);
	occ = ((p->bb_side[0] | p->bb_side[1]) & ~BBIT(from)) | BBIT(to);
	them = p->bb_side[!us] & ~BBIT(to);
	l = zh__step_line[d + 17];
	x = first_toward8(l, i, bbix(from), occ) & them;
	return (x & (l < 2 ? bt[ZH_ROOK] | bt[ZH_QUEEN] |
	    bt[ZH_CHANCELLOR] : bt[ZH_BISHOP] | bt[ZH_QUEEN] |
	    bt[ZH_ARCHBISHOP])) == 0;
}

/* The side to move's pieces of 'type' (not a pawn or king) that reach
 * 'to' of an 8x8 board by their movement alone. */
static ZH_HOT_INLINE uint64_t
reach8(const struct zh_pos *p, int type, int to)
{
	uint64_t mine = p->bb_type[type] & p->bb_side[p->side];
	uint64_t occ = p->bb_side[0] | p->bb_side[1], x = 0;
	unsigned a = attr[type];
	int i = bbix(to);

	if (a & A_KNIGHT)
		x |= zh__knight8[i];
	if (a & A_DIAG)
		x |= diag_attacks8(i, occ);
	if (a & A_ORTH)
		x |= orth_attacks8(i, occ);
	return x & mine;
}

/* May a pawn of side c stand (be dropped) on square s? */
static inline bool
pawn_drop_rank(const struct zh_pos *p, int c, int s)
{
	int rel = RELRANK(p, c, s);

	return rel >= p->v->pawn_drop_lo && rel <= p->v->pawn_drop_hi;
}

/* zh__drop_ok(), inline for the one-step path. */
static ZH_HOT_INLINE bool
drop_ok(const struct zh_pos *p, int type, int to)
{
	unsigned char b[ZH_NSQ];
	int k = p->king[p->side];

	if (!p->v->drops || type <= ZH_EMPTY || type >= ZH_NTYPES ||
	    type == ZH_KING || p->pocket[p->side][type] == 0 ||
	    !zh_on_board(p, to) || p->sq[to] != 0)
		return false;
	if (type == ZH_PAWN && !pawn_drop_rank(p, p->side, to))
		return false;
	if (k == ZH_NOSQ || !in_check(p))	/* a drop exposes nothing */
		return true;
	if (has_bb(p))
		return !zh__attacked8(p, k, !p->side, -1, -1, to);
	memcpy(b, p->sq, sizeof b);
	b[to] = ZH_PIECE(p->side, type);
	return !zh__attacked_b(b, k, !p->side, -1);
}

#endif
