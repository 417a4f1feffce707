/*
 * movegen.c - attacks, legal move generation, making moves, perft.
 *
 * Legal moves are generated directly: the checkers and pinned pieces are
 * found first, so only king moves and en passant need a trial.  Drops are
 * legal on any empty square the variant allows, or, in single check, on a
 * square that blocks a slider's check.  Every rule switch comes from the
 * variant table (p->v).
 */
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
#define RELRANK(p, c, s) ((c) == ZH_WHITE ? ZH_RANK(s) : (p)->v->ranks - 1 - ZH_RANK(s))

static inline bool
is_color(unsigned char pc, int c)
{
	return pc != 0 && pc != ZH_OFF && ZH_COLOR(pc) == c;
}

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
static bool
attacked_b(const unsigned char *b, int s, int by, int skip)
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

/*
 * Tables by the file and rank distance from one square to another
 * (df, dr in -9..9, squares of up to 10x10): the unit step along a
 * rank, file or diagonal (0 if none), and which movements connect them
 * (A_KNIGHT for a knight's jump, A_KING for a king's step, A_ORTH or
 * A_DIAG for a line).  Built from constant expressions.
 */
#define SGN(x)		((x) > 0 ? 1 : (x) < 0 ? -1 : 0)
#define ABS(x)		((x) < 0 ? -(x) : (x))
#define ORTHO(dr, df)	(((dr) == 0) != ((df) == 0))
#define DIAGO(dr, df)	((dr) != 0 && ((dr) == (df) || (dr) == -(df)))
#define DIRV(dr, df)	(ORTHO(dr, df) || DIAGO(dr, df) ? \
	16 * SGN(dr) + SGN(df) : 0)
#define KINDV(dr, df) \
	((ABS(dr) * ABS(df) == 2 ? A_KNIGHT : 0) | \
	(ABS(dr) <= 1 && ABS(df) <= 1 && ((dr) | (df)) != 0 ? A_KING : 0) | \
	(ORTHO(dr, df) ? A_ORTH : 0) | (DIAGO(dr, df) ? A_DIAG : 0))
#define ROW(M, dr) M(dr, -9), M(dr, -8), M(dr, -7), M(dr, -6), M(dr, -5), \
	M(dr, -4), M(dr, -3), M(dr, -2), M(dr, -1), M(dr, 0), M(dr, 1), \
	M(dr, 2), M(dr, 3), M(dr, 4), M(dr, 5), M(dr, 6), M(dr, 7), M(dr, 8), \
	M(dr, 9)
#define TABLE(M) ROW(M, -9), ROW(M, -8), ROW(M, -7), ROW(M, -6), \
	ROW(M, -5), ROW(M, -4), ROW(M, -3), ROW(M, -2), ROW(M, -1), \
	ROW(M, 0), ROW(M, 1), ROW(M, 2), ROW(M, 3), ROW(M, 4), ROW(M, 5), \
	ROW(M, 6), ROW(M, 7), ROW(M, 8), ROW(M, 9)
static const signed char dirtab[19 * 19] = { TABLE(DIRV) };
static const unsigned char kindtab[19 * 19] = { TABLE(KINDV) };

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
	return dirtab[pair(a, b)];
}

/*
 * Bitboards of 8x8 boards (bit 8 * rank + file): what a knight, a king
 * and each colour's pawn on a square attack, and the squares on its
 * diagonals and on its rank and file.  Built from constant expressions.
 */
#define B8(f, r)	((f) >= 0 && (f) < 8 && (r) >= 0 && (r) < 8 ? \
	(uint64_t)1 << (((r) * 8 + (f)) & 63) : 0)
#define F8(i)		((i) & 7)
#define R8(i)		((i) >> 3)
#define STEP8(i, df, dr) B8(F8(i) + (df), R8(i) + (dr))
#define KNIGHT8(i)	(STEP8(i, 1, 2) | STEP8(i, 2, 1) | STEP8(i, 2, -1) | \
	STEP8(i, 1, -2) | STEP8(i, -1, -2) | STEP8(i, -2, -1) | \
	STEP8(i, -2, 1) | STEP8(i, -1, 2))
#define KING8(i)	(STEP8(i, 1, 0) | STEP8(i, 1, 1) | STEP8(i, 0, 1) | \
	STEP8(i, -1, 1) | STEP8(i, -1, 0) | STEP8(i, -1, -1) | \
	STEP8(i, 0, -1) | STEP8(i, 1, -1))
#define WPAWN8(i)	(STEP8(i, -1, 1) | STEP8(i, 1, 1))
#define BPAWN8(i)	(STEP8(i, -1, -1) | STEP8(i, 1, -1))
#define RAY8(i, df, dr)	(STEP8(i, df, dr) | STEP8(i, 2 * (df), 2 * (dr)) | \
	STEP8(i, 3 * (df), 3 * (dr)) | STEP8(i, 4 * (df), 4 * (dr)) | \
	STEP8(i, 5 * (df), 5 * (dr)) | STEP8(i, 6 * (df), 6 * (dr)) | \
	STEP8(i, 7 * (df), 7 * (dr)))
#define DIAG8(i)	(RAY8(i, 1, 1) | RAY8(i, 1, -1) | RAY8(i, -1, 1) | \
	RAY8(i, -1, -1))
#define ORTH8(i)	(RAY8(i, 1, 0) | RAY8(i, -1, 0) | RAY8(i, 0, 1) | \
	RAY8(i, 0, -1))
#define SQ8(M, i)	M(i), M(i + 1), M(i + 2), M(i + 3), M(i + 4), M(i + 5), \
	M(i + 6), M(i + 7)
#define ALL8(M)		SQ8(M, 0), SQ8(M, 8), SQ8(M, 16), SQ8(M, 24), \
	SQ8(M, 32), SQ8(M, 40), SQ8(M, 48), SQ8(M, 56)
static const uint64_t knight8[64] = { ALL8(KNIGHT8) };
static const uint64_t king8[64] = { ALL8(KING8) };
static const uint64_t pawn8[2][64] = { { ALL8(WPAWN8) }, { ALL8(BPAWN8) } };
static const uint64_t diag8[64] = { ALL8(DIAG8) };
static const uint64_t orth8[64] = { ALL8(ORTH8) };

/*
 * The four lines through a square (file, rank, diagonal, anti-diagonal),
 * each cut in two: the squares of lower index and of higher index.  A
 * slider's attacks along a line are found without a walk, by the
 * "obstruction difference": the nearest blocker below is the highest set
 * bit of the lower half's occupied squares, the nearest above the lowest
 * of the upper half's.
 */
#define LINE8(M)	{ ALL8(M) }
#define FILELO(i)	RAY8(i, 0, -1)
#define FILEHI(i)	RAY8(i, 0, 1)
#define RANKLO(i)	RAY8(i, -1, 0)
#define RANKHI(i)	RAY8(i, 1, 0)
#define DIAGLO(i)	RAY8(i, -1, -1)
#define DIAGHI(i)	RAY8(i, 1, 1)
#define ANTILO(i)	RAY8(i, 1, -1)
#define ANTIHI(i)	RAY8(i, -1, 1)
static const uint64_t linelo8[4][64] = {
	LINE8(FILELO), LINE8(RANKLO), LINE8(DIAGLO), LINE8(ANTILO)
};
static const uint64_t linehi8[4][64] = {
	LINE8(FILEHI), LINE8(RANKHI), LINE8(DIAGHI), LINE8(ANTIHI)
};

/* The squares a slider on bit i attacks along line l, blockers 'occ'. */
static ZH_HOT_INLINE uint64_t
line_attacks8(int l, int i, uint64_t occ)
{
	uint64_t lo = linelo8[l][i], hi = linehi8[l][i];
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

/* Bit index of square s of an 8x8 board, its bit, and back: tables by
 * square (0 off the 8x8 board) and by index. */
#define IX8(s)		(((s) >> 4) - 2 >= 0 && ((s) >> 4) - 2 < 8 && \
	((s) & 15) - 1 >= 0 && ((s) & 15) - 1 < 8 ? \
	(((s) >> 4) - 2) * 8 + ((s) & 15) - 1 : 0)
#define BIT8(s)		(((s) >> 4) - 2 >= 0 && ((s) >> 4) - 2 < 8 && \
	((s) & 15) - 1 >= 0 && ((s) & 15) - 1 < 8 ? (uint64_t)1 << IX8(s) : 0)
#define ROW16(M, r)	SQ8(M, (r) * 16), SQ8(M, (r) * 16 + 8)
#define ALLSQ(M)	ROW16(M, 0), ROW16(M, 1), ROW16(M, 2), ROW16(M, 3), \
	ROW16(M, 4), ROW16(M, 5), ROW16(M, 6), ROW16(M, 7), ROW16(M, 8), \
	ROW16(M, 9), ROW16(M, 10), ROW16(M, 11), ROW16(M, 12), ROW16(M, 13)
#define SQOF8(i)	ZH_SQ((i) & 7, (i) >> 3)
static const unsigned char ix8[ZH_NSQ] = { ALLSQ(IX8) };
static const uint64_t bit8[ZH_NSQ] = { ALLSQ(BIT8) };
static const unsigned char sqof8[64] = { ALL8(SQOF8) };
_Static_assert(ZH_NSQ == 14 * 16, "ALLSQ lists 14 rows of 16 squares");

/*
 * unit_dir on boards of at most 8 files, where a square difference
 * 16 * dr + df (|df| <= 7) is one (dr, df) alone: by difference + 119.
 */
#define DF8(x)		((((x) + 7) & 15) - 7)
#define DR8(x)		(((x) - DF8(x)) / 16)
#define UDIR8(k)	DIRV(DR8((k) - 119), DF8((k) - 119))
#define D16(M, k)	SQ8(M, k), SQ8(M, (k) + 8)
static const signed char dir8[240] = {
	D16(UDIR8, 0), D16(UDIR8, 16), D16(UDIR8, 32), D16(UDIR8, 48),
	D16(UDIR8, 64), D16(UDIR8, 80), D16(UDIR8, 96), D16(UDIR8, 112),
	D16(UDIR8, 128), D16(UDIR8, 144), D16(UDIR8, 160), D16(UDIR8, 176),
	D16(UDIR8, 192), D16(UDIR8, 208), D16(UDIR8, 224)
};

static inline int
unit_dir8(int a, int b)
{
	return dir8[b - a + 119];
}

/* has_bb() is defined below: the test is the same */
static inline int
udir(const struct zh_pos *p, int a, int b)
{
	return p->v->files == 8 && p->v->ranks == 8 ? unit_dir8(a, b) :
	    unit_dir(a, b);
}

static inline int
bbix(int s)
{
	return ix8[s];
}

static inline int
bbsq(int i)
{
	return sqof8[i];
}

#define BBIT(s)		(bit8[s])

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

/* The line (0 file, 1 rank, 2 diagonal, 3 anti-diagonal) of a unit step
 * of the mailbox, by step + 17. */
static const signed char step_line[35] = {
	[-16 + 17] = 0, [16 + 17] = 0, [-1 + 17] = 1, [1 + 17] = 1,
	[-17 + 17] = 2, [17 + 17] = 2, [-15 + 17] = 3, [15 + 17] = 3,
};

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
		b = linehi8[l][i] & occ;
		return b & (0 - b);
	}
	b = linelo8[l][i] & occ;
	return b != 0 ? (uint64_t)1 << (63 ^ __builtin_clzll(b)) : 0;
}

/* The bit of square s (of an 8x8 board), 0 for none (s < 0). */
static inline uint64_t
bbit_or0(int s)
{
	return s >= 0 ? BBIT(s) : 0;
}

/*
 * attacked_b for an 8x8 board with its bitboards, after a change that
 * the board does not show yet: squares e1 and e2 (-1: none) as empty,
 * and 'full' as taken by a piece of the other side (a move's or a
 * drop's destination).  The attackers are found from the masks; only a
 * slider's path is walked.
 */
static bool
attacked8(const struct zh_pos *p, int s, int by, int e1, int e2, int full)
{
	const uint64_t *bt = p->bb_type;
	uint64_t gone = bbit_or0(e1) | bbit_or0(e2), fb = bbit_or0(full);
	uint64_t them = p->bb_side[by] & ~(gone | fb), dq, rq;
	int i = bbix(s);

	if ((pawn8[!by][i] & bt[ZH_PAWN] & them) ||
	    (knight8[i] & (bt[ZH_KNIGHT] | bt[ZH_ARCHBISHOP] |
	    bt[ZH_CHANCELLOR]) & them) ||
	    (king8[i] & bt[ZH_KING] & them))
		return true;
	dq = (bt[ZH_BISHOP] | bt[ZH_QUEEN] | bt[ZH_ARCHBISHOP]) & them;
	rq = (bt[ZH_ROOK] | bt[ZH_QUEEN] | bt[ZH_CHANCELLOR]) & them;
	if (((diag8[i] & dq) | (orth8[i] & rq)) == 0)
		return false;
	return slider_hits8(i, ((p->bb_side[0] | p->bb_side[1]) & ~gone) | fb,
	    dq, rq);
}

/* Does the piece on s attack square k (board b)? */
static bool
piece_attacks(const unsigned char *b, int s, int k)
{
	unsigned char pc = b[s];
	int t = ZH_TYPE(pc), i, d, ix;
	unsigned a;

	if (t == ZH_PAWN) {
		int f = ZH_COLOR(pc) == ZH_WHITE ? 16 : -16;

		return k == s + f - 1 || k == s + f + 1;
	}
	ix = pair(s, k);
	a = attr[t] & kindtab[ix];
	if (a & (A_KNIGHT | A_KING))
		return true;
	if (a == 0)
		return false;
	d = dirtab[ix];
	for (i = s + d; i != k; i += d)
		if (b[i] != 0)
			return false;
	return true;
}

static inline bool
attacked_x(const struct zh_pos *p, int s, int by, int skip)
{
	return has_bb(p) ? attacked8(p, s, by, skip, -1, -1) :
	    attacked_b(p->sq, s, by, skip);
}

/*
 * gives_check on an 8x8 board, the other king on k: the moved piece's
 * attack from the masks and, for a slider, the first piece on its line
 * towards the king; then the first piece from the king through the
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
		if (pawn8[us][it] & kb)
			return true;
	} else if ((((a & A_KNIGHT) ? knight8[it] : 0) |
	    ((a & A_KING) ? king8[it] : 0)) & kb)
		return true;
	else if ((d = unit_dir8(m.to, k)) != 0 &&
	    (a & LINE_KIND(l = step_line[d + 17])) &&
	    first_toward8(l, it, ik, occ) == kb)
		return true;
	if ((m.flags & ZH_MDROP) || (d = unit_dir8(k, m.from)) == 0)
		return false;
	l = step_line[d + 17];
	x = first_toward8(l, ik, bbix(m.from), occ);
	return (x & p->bb_side[us] & (l < 2 ? p->bb_type[ZH_ROOK] |
	    p->bb_type[ZH_QUEEN] | p->bb_type[ZH_CHANCELLOR] :
	    p->bb_type[ZH_BISHOP] | p->bb_type[ZH_QUEEN] |
	    p->bb_type[ZH_ARCHBISHOP])) != 0;
}

/*
 * After move m by 'us' (already on the board), is the other king in
 * check?  The moved piece may give check, or uncover a slider's line
 * through the square it left; castling and en passant are tested whole.
 */
static bool
gives_check(const struct zh_pos *p, struct zh_move m, int us)
{
	const unsigned char *b = p->sq;
	int k = p->king[!us], d, t;
	unsigned char pc;

	if (k == ZH_NOSQ)
		return false;
	if (m.flags & (ZH_MEP | ZH_MCASTLE))
		return attacked_x(p, k, us, -1);
	if (has_bb(p))
		return gives_check8(p, m, us, k);
	if (piece_attacks(b, m.to, k))
		return true;
	if ((m.flags & ZH_MDROP) || (d = udir(p, k, m.from)) == 0)
		return false;
	for (t = k + d; (pc = b[t]) == 0; t += d)
		;
	return is_color(pc, us) &&
	    (attr[ZH_TYPE(pc)] & ((d == 16 || d == -16 || d == 1 || d == -1) ?
	    A_ORTH : A_DIAG));
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

/* ======================== generation ======================== */

struct gen {
	const struct zh_pos *p;
	struct zh_move *out;
	int n;
	int us, them, ksq;
	int nchecks;
	bool target_ok[ZH_NSQ];		/* valid only when nchecks == 1 */
	unsigned char tsq[16];		/* the same squares, as a list */
	int ntsq;
	int npins;
	unsigned char pin_sq[8];
	signed char pin_dir[8];
	signed char pin_len[8];		/* king to pinner, in steps */
};

/* A generator for p's side to move, with no checks or pins known. */
static inline void
gen_start(struct gen *g, const struct zh_pos *p, struct zh_move *out)
{
	g->p = p;
	g->out = out;
	g->n = 0;
	g->us = p->side;
	g->them = !p->side;
	g->ksq = p->king[g->us];
	g->nchecks = 0;
	g->npins = 0;
}

static inline void
add(struct gen *g, int from, int to, int piece, int flags)
{
	struct zh_move *m = &g->out[g->n++];

	m->from = (unsigned char)from;
	m->to = (unsigned char)to;
	m->piece = (unsigned char)piece;
	m->flags = (unsigned char)flags;
}

/* Checkers, block squares and pins of the side to move. */
static void
scan_king(struct gen *g)
{
	const struct zh_pos *p = g->p;
	const unsigned char *b = p->sq;
	int k = g->ksq, i, t, pawn = ZH_PIECE(g->them, ZH_PAWN);
	int fwd = FORWARD(g->us);

	g->nchecks = 0;
	g->npins = 0;
	if (k == ZH_NOSQ)
		return;
	for (i = -1; i <= 1; i += 2)
		if ((b[k + fwd + i] & ~ZH_PROMOTED) == pawn) {
			if (g->nchecks++ == 0) {
				memset(g->target_ok, 0, sizeof g->target_ok);
				g->tsq[0] = (unsigned char)(k + fwd + i);
				g->ntsq = 1;
			}
			g->target_ok[k + fwd + i] = true;
		}
	for (i = 0; i < 8; i++) {
		unsigned char pc = b[k + jumps[i]];

		if (is_color(pc, g->them) && (attr[ZH_TYPE(pc)] & A_KNIGHT)) {
			if (g->nchecks++ == 0) {
				memset(g->target_ok, 0, sizeof g->target_ok);
				g->tsq[0] = (unsigned char)(k + jumps[i]);
				g->ntsq = 1;
			}
			g->target_ok[k + jumps[i]] = true;
		}
	}
	for (i = 0; i < 8; i++) {
		unsigned char want = i < 4 ? A_ORTH : A_DIAG;
		int d = rays[i], own = -1, steps = 0;

		for (t = k + d; ; t += d) {
			unsigned char pc = b[t];

			steps++;
			if (pc == 0)
				continue;
			if (pc == ZH_OFF)
				break;
			if (ZH_COLOR(pc) == g->us) {
				if (own >= 0)
					break;
				own = t;
				continue;
			}
			if (!(attr[ZH_TYPE(pc)] & want))
				break;
			if (own >= 0) {
				g->pin_sq[g->npins] = (unsigned char)own;
				g->pin_dir[g->npins] = (signed char)d;
				g->pin_len[g->npins] = (signed char)steps;
				g->npins++;
			} else {
				int u;

				if (g->nchecks++ == 0) {
					memset(g->target_ok, 0, sizeof g->target_ok);
					g->ntsq = 0;
					for (u = k + d; u != t; u += d)
						g->tsq[g->ntsq++] = (unsigned char)u;
					g->tsq[g->ntsq++] = (unsigned char)t;
				}
				for (u = k + d; u != t; u += d)
					g->target_ok[u] = true;
				g->target_ok[t] = true;
			}
			break;
		}
	}
}

/* May the piece on 'from' move to 'to' without exposing its king? */
static inline bool
pin_ok(const struct gen *g, int from, int to)
{
	int i;

	for (i = 0; i < g->npins; i++) {
		int d, diff, k;

		if (g->pin_sq[i] != from)
			continue;
		d = g->pin_dir[i];
		diff = to - g->ksq;
		if (diff % d != 0)
			return false;
		k = diff / d;
		return k >= 1 && k <= g->pin_len[i];
	}
	return true;
}

static inline bool
target_ok(const struct gen *g, int to)
{
	return g->nchecks == 0 || g->target_ok[to];
}

/*
 * Start-position count of each type for one colour, into n[ZH_NTYPES].
 * Counted at each call (only limited promotions ask): no cache shared
 * between threads.
 */
static void
start_counts(const struct zh_variant *v, unsigned char *n)
{
	const char *s;

	memset(n, 0, ZH_NTYPES);
	for (s = v->start; *s && *s != ' ' && *s != '['; s++)
		if (*s >= 'A' && *s <= 'Z')
			n[zh__letter_type(*s)]++;
}

static const unsigned char promo_order[] = {
	ZH_QUEEN, ZH_CHANCELLOR, ZH_ARCHBISHOP, ZH_ROOK, ZH_BISHOP, ZH_KNIGHT
};

/* Pawn move to 'to', with promotions as the variant allows. */
static void
add_pawn(struct gen *g, int from, int to, int flags)
{
	const struct zh_pos *p = g->p;
	const struct zh_variant *v = p->v;
	int rel = RELRANK(p, g->us, to), t, i;
	unsigned char sc[ZH_NTYPES];
	bool limited = v->promo_limited;

	if (rel < v->promo_lo) {
		add(g, from, to, 0, flags);
		return;
	}
	if (rel < v->ranks - 1)
		add(g, from, to, 0, flags);	/* promotion optional here */
	if (limited)
		start_counts(v, sc);
	for (i = 0; i < (int)sizeof promo_order; i++) {
		t = promo_order[i];
		if (!(v->promo_types & ZH_TYPEBIT(t)))
			continue;
		if (limited && p->count[g->us][t] >= sc[t])
			continue;
		add(g, from, to, t, flags | ZH_MPROMO);
	}
}

static bool
ep_safe(const struct gen *g, int from, int to)
{
	struct zh_pos c = *g->p;
	struct zh_move m = { (unsigned char)from, (unsigned char)to, 0, ZH_MEP };

	zh_make(&c, m);
	return !zh_attacked(&c, g->ksq, g->them);
}

static void
gen_pawn(struct gen *g, int s)
{
	const struct zh_pos *p = g->p;
	const unsigned char *b = p->sq;
	int fwd = FORWARD(g->us), to = s + fwd, i;

	if (b[to] == 0) {
		if (target_ok(g, to) && pin_ok(g, s, to))
			add_pawn(g, s, to, 0);
		if (RELRANK(p, g->us, s) == p->v->double_step &&
		    b[to + fwd] == 0 && target_ok(g, to + fwd) &&
		    pin_ok(g, s, to + fwd))
			add(g, s, to + fwd, 0, ZH_MDOUBLE);
	}
	for (i = -1; i <= 1; i += 2) {
		int c = to + i;

		if (is_color(b[c], g->them)) {
			if (target_ok(g, c) && pin_ok(g, s, c))
				add_pawn(g, s, c, 0);
		} else if (c == p->ep && p->ep != ZH_NOSQ && b[c] == 0 &&
		    (b[c - fwd] & ~ZH_PROMOTED) == ZH_PIECE(g->them, ZH_PAWN)) {
			if (g->ksq == ZH_NOSQ || ep_safe(g, s, c))
				add(g, s, c, 0, ZH_MEP);
		}
	}
}

static void
gen_piece(struct gen *g, int s, int type)
{
	const unsigned char *b = g->p->sq;
	unsigned a = attr[type];
	int i, t;

	if (a & A_KNIGHT)
		for (i = 0; i < 8; i++) {
			t = s + jumps[i];
			if (b[t] == ZH_OFF || is_color(b[t], g->us))
				continue;
			if (target_ok(g, t) && pin_ok(g, s, t))
				add(g, s, t, 0, 0);
		}
	for (i = (a & A_ORTH) ? 0 : 4; i < ((a & A_DIAG) ? 8 : 4); i++) {
		int d = rays[i];

		if (!(a & (A_ORTH | A_DIAG)))
			break;
		for (t = s + d; b[t] != ZH_OFF; t += d) {
			if (is_color(b[t], g->us))
				break;
			if (target_ok(g, t) && pin_ok(g, s, t))
				add(g, s, t, 0, 0);
			if (b[t] != 0)
				break;
		}
	}
}

static void gen_castle(struct gen *);

static void
gen_king(struct gen *g)
{
	const struct zh_pos *p = g->p;
	const unsigned char *b = p->sq;
	int k = g->ksq, i, t;

	for (i = 0; i < 8; i++) {
		t = k + rays[i];
		if (b[t] == ZH_OFF || is_color(b[t], g->us))
			continue;
		if (!attacked_x(p, t, g->them, k))
			add(g, k, t, 0, 0);
	}
	gen_castle(g);
}

/* Castling moves (g->nchecks: is the king in check). */
static void
gen_castle(struct gen *g)
{
	const struct zh_pos *p = g->p;
	const unsigned char *b = p->sq;
	int k = g->ksq;

	if (!p->v->castling || g->nchecks > 0 || p->castle == 0 ||
	    k == ZH_NOSQ)
		return;
	{
		int r = g->us == ZH_WHITE ? 0 : p->v->ranks - 1;
		int rk = ZH_PIECE(g->us, ZH_ROOK);
		unsigned kr = g->us == ZH_WHITE ? ZH_CASTLE_WK : ZH_CASTLE_BK;
		unsigned qr = g->us == ZH_WHITE ? ZH_CASTLE_WQ : ZH_CASTLE_BQ;

		if (k != ZH_SQ(4, r))
			return;
		if ((p->castle & kr) && (b[ZH_SQ(7, r)] & ~ZH_PROMOTED) == rk &&
		    b[ZH_SQ(5, r)] == 0 && b[ZH_SQ(6, r)] == 0 &&
		    !zh_attacked(p, ZH_SQ(5, r), g->them) &&
		    !zh_attacked(p, ZH_SQ(6, r), g->them))
			add(g, k, ZH_SQ(6, r), 0, ZH_MCASTLE);
		if ((p->castle & qr) && (b[ZH_SQ(0, r)] & ~ZH_PROMOTED) == rk &&
		    b[ZH_SQ(1, r)] == 0 && b[ZH_SQ(2, r)] == 0 &&
		    b[ZH_SQ(3, r)] == 0 &&
		    !zh_attacked(p, ZH_SQ(3, r), g->them) &&
		    !zh_attacked(p, ZH_SQ(2, r), g->them))
			add(g, k, ZH_SQ(2, r), 0, ZH_MCASTLE);
	}
}

/* May a pawn of side c stand (be dropped) on square s? */
static inline bool
pawn_drop_rank(const struct zh_pos *p, int c, int s)
{
	int rel = RELRANK(p, c, s);

	return rel >= p->v->pawn_drop_lo && rel <= p->v->pawn_drop_hi;
}

/* Drops: listed into g->out, or only counted when 'count' is set. */
static uint64_t
gen_drops(struct gen *g, bool count)
{
	const struct zh_pos *p = g->p;
	const unsigned char *hand = p->pocket[g->us];
	int t, ntypes = 0, r, f;
	bool pawns = hand[ZH_PAWN] > 0;
	uint64_t sq_all = 0, sq_pawn = 0;

	if (!p->v->drops || g->nchecks > 1)
		return 0;
	for (t = ZH_KNIGHT; t < ZH_NTYPES; t++)
		if (hand[t] > 0 && t != ZH_KING)
			ntypes++;
	if (ntypes == 0 && !pawns)
		return 0;
	if (count && g->nchecks == 1) {	/* only where the check is blocked */
		for (r = 0; r < g->ntsq; r++)
			if (p->sq[g->tsq[r]] == 0) {
				sq_all++;
				sq_pawn += pawns && pawn_drop_rank(p, g->us,
				    g->tsq[r]);
			}
		return sq_all * (uint64_t)ntypes + sq_pawn;
	}
	for (r = 0; r < p->v->ranks; r++)
		for (f = 0; f < p->v->files; f++) {
			int s = ZH_SQ(f, r);

			if (p->sq[s] != 0 || !target_ok(g, s))
				continue;
			if (count) {
				sq_all++;
				sq_pawn += pawns && pawn_drop_rank(p, g->us, s);
				continue;
			}
			if (pawns && pawn_drop_rank(p, g->us, s))
				add(g, ZH_NOSQ, s, ZH_PAWN, ZH_MDROP);
			for (t = ZH_KNIGHT; t < ZH_NTYPES; t++)
				if (hand[t] > 0 && t != ZH_KING)
					add(g, ZH_NOSQ, s, t, ZH_MDROP);
		}
	return sq_all * (uint64_t)ntypes + sq_pawn;
}

static uint64_t
generate(const struct zh_pos *p, struct zh_move *out, bool count)
{
	struct gen gs, *g = &gs;
	const unsigned char *b = p->sq;
	int r, f;
	uint64_t drops;

	gen_start(g, p, out);
	scan_king(g);
	if (g->ksq != ZH_NOSQ)
		gen_king(g);
	if (g->nchecks < 2)
		for (r = 0; r < p->v->ranks; r++)
			for (f = 0; f < p->v->files; f++) {
				int s = ZH_SQ(f, r);
				unsigned char pc = b[s];

				if (!is_color(pc, g->us))
					continue;
				switch (ZH_TYPE(pc)) {
				case ZH_PAWN:
					gen_pawn(g, s);
					break;
				case ZH_KING:	/* done above */
					break;
				default:
					gen_piece(g, s, ZH_TYPE(pc));
				}
			}
	drops = gen_drops(g, count);
	return count ? g->n + drops : (uint64_t)g->n;
}

int
zh_legal_moves(const struct zh_pos *p, struct zh_move *out)
{
	return (int)generate(p, out, false);
}

uint64_t
zh_count_legal(const struct zh_pos *p)
{
	struct zh_move buf[ZH_MAXMOVES];

	return generate(p, buf, true);
}

bool
zh_is_legal(const struct zh_pos *p, struct zh_move m)
{
	struct zh_move buf[ZH_MAXMOVES];
	int i, n = zh_legal_moves(p, buf);

	for (i = 0; i < n; i++)
		if (zh_move_eq(buf[i], m))
			return true;
	return false;
}

int
zh_status(const struct zh_pos *p)
{
	if (zh_has_legal(p))
		return ZH_ONGOING;
	return zh_in_check(p) ? ZH_CHECKMATE : ZH_STALEMATE;
}

bool
zh_ep_legal(const struct zh_pos *p)
{
	struct zh_move buf[ZH_MAXMOVES];
	int i, n;

	if (!zh_ep_attacked(p))		/* no pawn to capture with */
		return false;
	n = zh_legal_moves(p, buf);
	for (i = 0; i < n; i++)
		if (buf[i].flags & ZH_MEP)
			return true;
	return false;
}

bool
zh_ep_attacked(const struct zh_pos *p)
{
	int back, pawn = ZH_PIECE(p->side, ZH_PAWN);

	if (p->ep == ZH_NOSQ)
		return false;
	back = -FORWARD(p->side);
	return (p->sq[p->ep + back - 1] & ~ZH_PROMOTED) == pawn ||
	    (p->sq[p->ep + back + 1] & ~ZH_PROMOTED) == pawn;
}

/* ======================== making moves ======================== */

static inline void
clear_rights(struct zh_pos *p, int s)
{
	int top = p->v->ranks - 1, right = p->v->files - 1;

	if (ZH_FILE(s) != 0 && ZH_FILE(s) != right)
		return;		/* most squares: not a corner */
	if (s == ZH_SQ(0, 0))
		p->castle &= ~ZH_CASTLE_WQ;
	else if (s == ZH_SQ(right, 0))
		p->castle &= ~ZH_CASTLE_WK;
	else if (s == ZH_SQ(0, top))
		p->castle &= ~ZH_CASTLE_BQ;
	else if (s == ZH_SQ(right, top))
		p->castle &= ~ZH_CASTLE_BK;
}

/* The side to move takes piece cap on square s: the counts, the hand
 * (a promoted piece as a pawn where the variant says so), a king gone. */
static ZH_HOT_INLINE void
take(struct zh_pos *p, unsigned char cap, int s)
{
	int us = p->side, them = !us, t = ZH_TYPE(cap);

	p->count[them][t]--;
	if (p->v->drops)
		p->pocket[us][(cap & ZH_PROMOTED) && p->v->demote ?
		    ZH_PAWN : t]++;
	if (t == ZH_KING && p->king[them] == s)
		p->king[them] = ZH_NOSQ;
}

/* Castling rights after the side to move's piece pc made move m. */
static ZH_HOT_INLINE void
move_rights(struct zh_pos *p, struct zh_move m, unsigned char pc)
{
	int us = p->side;

	clear_rights(p, m.from);
	clear_rights(p, m.to);
	if (ZH_TYPE(pc) == ZH_KING && p->king[us] == m.from)
		p->castle &= us == ZH_WHITE ? ~(ZH_CASTLE_WK | ZH_CASTLE_WQ) :
		    ~(ZH_CASTLE_BK | ZH_CASTLE_BQ);
}

/* After the side to move's piece pc made move m, taking cap (0: none):
 * the king's square, the halfmove clock, the en passant square. */
static ZH_HOT_INLINE void
moved(struct zh_pos *p, struct zh_move m, unsigned char pc, unsigned char cap)
{
	int us = p->side;

	if (p->king[us] == m.from)
		p->king[us] = m.to;
	p->halfmove = (ZH_TYPE(pc) == ZH_PAWN || cap != 0) ? 0 :
	    p->halfmove + 1;
	p->ep = (m.flags & ZH_MDOUBLE) ? (unsigned char)(m.from + FORWARD(us)) :
	    ZH_NOSQ;
}

/* Put pc (0: nothing) on square s, the bitboards (if kept) too. */
static ZH_HOT_INLINE void
put_sq(struct zh_pos *p, int s, unsigned char pc, bool bb)
{
	if (bb) {
		unsigned char old = p->sq[s];
		uint64_t bit = BBIT(s);

		if (old != 0) {
			p->bb_side[ZH_COLOR(old)] &= ~bit;
			p->bb_type[ZH_TYPE(old)] &= ~bit;
		}
		if (pc != 0) {
			p->bb_side[ZH_COLOR(pc)] |= bit;
			p->bb_type[ZH_TYPE(pc)] |= bit;
		}
	}
	p->sq[s] = pc;
}

/* Everything zh_make does but the check flag. */
static ZH_HOT_INLINE void
make_board(struct zh_pos *p, struct zh_move m)
{
	int us = p->side, them = !us;
	unsigned char pc, cap;
	bool bb = has_bb(p);

	if (m.flags & ZH_MDROP) {
		put_sq(p, m.to, ZH_PIECE(us, m.piece), bb);
		p->pocket[us][m.piece]--;
		p->count[us][m.piece]++;
		p->halfmove = m.piece == ZH_PAWN ? 0 : p->halfmove + 1;
		p->ep = ZH_NOSQ;
		goto done;
	}
	pc = p->sq[m.from];
	cap = p->sq[m.to];
	if (m.flags & ZH_MEP) {
		int cs = m.to - FORWARD(us);

		cap = p->sq[cs];
		put_sq(p, cs, 0, bb);
	}
	if (cap != 0)
		take(p, cap, m.to);
	if (p->castle)
		move_rights(p, m, pc);
	if (bb && pc != 0) {	/* put_sq's work for the two squares */
		uint64_t fb = BBIT(m.from), tb = BBIT(m.to);
		unsigned char old = p->sq[m.to];	/* not the ep pawn */

		if (old != 0) {
			p->bb_side[ZH_COLOR(old)] &= ~tb;
			p->bb_type[ZH_TYPE(old)] &= ~tb;
		}
		p->bb_side[ZH_COLOR(pc)] = (p->bb_side[ZH_COLOR(pc)] & ~fb) | tb;
		p->bb_type[ZH_TYPE(pc)] &= ~fb;
		p->bb_type[m.flags & ZH_MPROMO ? m.piece : ZH_TYPE(pc)] |= tb;
	}
	p->sq[m.from] = 0;
	if (m.flags & ZH_MPROMO) {
		p->sq[m.to] = ZH_PIECE(us, m.piece) | ZH_PROMOTED;
		p->count[us][ZH_PAWN]--;
		p->count[us][m.piece]++;
	} else
		p->sq[m.to] = pc;
	if (m.flags & ZH_MCASTLE) {
		int r = ZH_RANK(m.to);
		int rf = ZH_FILE(m.to) > 4 ? p->v->files - 1 : 0;
		int rt = ZH_FILE(m.to) > 4 ? 5 : 3;

		put_sq(p, ZH_SQ(rt, r), p->sq[ZH_SQ(rf, r)], bb);
		put_sq(p, ZH_SQ(rf, r), 0, bb);
	}
	moved(p, m, pc, cap);
done:
	p->side = (unsigned char)them;
	if (us == ZH_BLACK)
		p->fullmove++;
}

/* The castling rights a move from or to square s of an 8x8 board
 * leaves: all but a corner's rook's (clear_rights() as a table). */
#define CKEEP8(s)	(0xf & ~((s) == ZH_SQ(0, 0) ? ZH_CASTLE_WQ : \
	(s) == ZH_SQ(7, 0) ? ZH_CASTLE_WK : (s) == ZH_SQ(0, 7) ? ZH_CASTLE_BQ : \
	(s) == ZH_SQ(7, 7) ? ZH_CASTLE_BK : 0))
static const unsigned char ckeep8[ZH_NSQ] = { ALLSQ(CKEEP8) };

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
		unsigned c = p->castle & ckeep8[m.from] & ckeep8[m.to];

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
	p->halfmove = m.piece == ZH_PAWN ? 0 : p->halfmove + 1;
	p->ep = ZH_NOSQ;
	p->side = (unsigned char)!us;
	p->fullmove += us;
}

void
zh_make(struct zh_pos *p, struct zh_move m)
{
	if ((m.flags & ~ZH_MDOUBLE) == 0 && has_bb(p) && p->sq[m.from] != 0)
		make_plain8(p, m);
	else
		make_board(p, m);
	p->check = gives_check(p, m, !p->side) ? 2 : 1;
}

void
zh__make_quiet(struct zh_pos *p, struct zh_move m)
{
	if ((m.flags & ~ZH_MDOUBLE) == 0 && has_bb(p) && p->sq[m.from] != 0)
		make_plain8(p, m);
	else
		make_board(p, m);
	p->check = 0;
}


uint64_t
zh_perft(const struct zh_pos *p, int depth)
{
	struct zh_move moves[ZH_MAXMOVES];
	uint64_t sum = 0;
	int i, n;

	if (depth <= 0)
		return 1;
	if (depth == 1)
		return zh_count_legal(p);
	n = zh_legal_moves(p, moves);
	for (i = 0; i < n; i++) {
		struct zh_pos c = *p;

		zh_make(&c, moves[i]);
		sum += zh_perft(&c, depth - 1);
	}
	return sum;
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

/* ======================== targeted generation ======================== */

static void
gen_init(struct gen *g, const struct zh_pos *p, struct zh_move *out)
{
	gen_start(g, p, out);
	scan_king(g);
}

/* Would a (pseudo-legal, non-castling) move leave the mover's king safe? */
static bool
safe_after(const struct zh_pos *p, const struct zh_move *m)
{
	unsigned char b[ZH_NSQ];
	int us = p->side, k = p->king[us];

	if (k == ZH_NOSQ)
		return true;
	if (has_bb(p))
		return !attacked8(p, m->from == k ? m->to : k, !us, m->from,
		    m->flags & ZH_MEP ? m->to - FORWARD(us) : -1, m->to);
	memcpy(b, p->sq, sizeof b);
	if (m->flags & ZH_MEP)
		b[m->to - FORWARD(us)] = 0;
	b[m->to] = b[m->from];
	b[m->from] = 0;
	if (m->from == k)
		k = m->to;
	return !attacked_b(b, k, !us, -1);
}

/*
 * The piece on 'from' stands on the line from the king k in direction d
 * (and the king is not in check): does moving it to 'to' open that line
 * to an enemy slider?  Not if 'to' stays on the line.
 */
static bool
pinned_off(const struct zh_pos *p, int k, int d, int from, int to)
{
	const unsigned char *b = p->sq;
	int t, us = p->side;
	unsigned char pc;

	if (udir(p, k, to) == d)
		return false;
	for (t = k + d; (pc = b[t]) == 0 || t == from; t += d)
		;
	return is_color(pc, !us) &&
	    (attr[ZH_TYPE(pc)] & ((d == 16 || d == -16 || d == 1 || d == -1) ?
	    A_ORTH : A_DIAG));
}

/*
 * origins() on an 8x8 board, from the bitboards: the knights in jumps[]
 * order and the sliders in rays[] order, as the walks from 'to' would
 * list them.  Only a slider's path is walked.
 */
static int
origins8(const struct zh_pos *p, int type, int to, unsigned char *from)
{
	/* the index in rays[] (1-8) of each step from 'to', by step + 17 */
	static const signed char ray_index[35] = {
		[16 + 17] = 1, [-16 + 17] = 2, [1 + 17] = 3, [-1 + 17] = 4,
		[15 + 17] = 5, [17 + 17] = 6, [-15 + 17] = 7, [-17 + 17] = 8,
	};
	const unsigned char *b = p->sq;
	uint64_t mine = p->bb_type[type] & p->bb_side[p->side], x;
	unsigned a = attr[type];
	int i = bbix(to), n = 0, ns = 0, k, j, key[8];
	unsigned char sq[8];

	if (a & A_KNIGHT) {
		x = mine & knight8[i];
		if ((x & (x - 1)) != 0) {	/* two or more */
			for (k = 0; k < 8; k++)
				if (b[to - jumps[k]] != ZH_OFF &&
				    (x & BBIT(to - jumps[k])))
					from[n++] = (unsigned char)(to - jumps[k]);
		} else if (x != 0)
			from[n++] = (unsigned char)bbsq(__builtin_ctzll(x));
	}
	x = mine & ((a & A_DIAG ? diag8[i] : 0) | (a & A_ORTH ? orth8[i] : 0));
	while (x != 0) {
		int s = bbsq(__builtin_ctzll(x)), d = unit_dir8(s, to), t;

		x &= x - 1;
		for (t = s + d; t != to && b[t] == 0; t += d)
			;
		if (t != to)
			continue;
		k = ray_index[17 - d];
		for (j = ns; j > 0 && key[j - 1] > k; j--) {
			key[j] = key[j - 1];
			sq[j] = sq[j - 1];
		}
		key[j] = k;
		sq[j] = (unsigned char)s;
		ns++;
	}
	memcpy(from + n, sq, (size_t)ns);
	return n + ns;
}

/* Own pieces of 'type' that could move to 'to' by their movement alone. */
static int
origins(const struct zh_pos *p, int type, int to, unsigned char *from)
{
	const unsigned char *b = p->sq;
	int us = p->side, n = 0, i, t;
	unsigned char want = ZH_PIECE(us, type);
	unsigned a = attr[type];

	if (type == ZH_PAWN) {
		int fwd = FORWARD(us);

		if (b[to] == 0) {
			if ((b[to - fwd] & ~ZH_PROMOTED) == want)
				from[n++] = (unsigned char)(to - fwd);
			else if (b[to - fwd] == 0 &&
			    (b[to - 2 * fwd] & ~ZH_PROMOTED) == want &&
			    RELRANK(p, us, to - 2 * fwd) == p->v->double_step)
				from[n++] = (unsigned char)(to - 2 * fwd);
		}
		if (is_color(b[to], !us) || (to == p->ep && p->ep != ZH_NOSQ)) {
			if ((b[to - fwd - 1] & ~ZH_PROMOTED) == want)
				from[n++] = (unsigned char)(to - fwd - 1);
			if ((b[to - fwd + 1] & ~ZH_PROMOTED) == want)
				from[n++] = (unsigned char)(to - fwd + 1);
		}
		return n;
	}
	if (is_color(b[to], us))
		return 0;
	if (has_bb(p))
		return origins8(p, type, to, from);
	if (a & A_KNIGHT)
		for (i = 0; i < 8; i++)
			if ((b[to - jumps[i]] & ~ZH_PROMOTED) == want)
				from[n++] = (unsigned char)(to - jumps[i]);
	/* rays[0..3] are orthogonal, rays[4..7] diagonal */
	for (i = a & A_ORTH ? 0 : 4; i < (a & A_DIAG ? 8 : 4); i++) {
		for (t = to + rays[i]; b[t] == 0; t += rays[i])
			;
		if ((b[t] & ~ZH_PROMOTED) == want)
			from[n++] = (unsigned char)t;
	}
	return n;
}

/*
 * Would the side to move's king be safe after its piece (not the king)
 * on 'from' went to 'to' of an 8x8 board, taking what stands there?
 * Out of check ('check' false) only a slider's line through 'from' can
 * open; in check a knight, pawn or king may still attack, unless taken.
 */
static ZH_COLD bool safe8_check(const struct zh_pos *p, int from, int to);

static ZH_HOT_INLINE bool
safe8(const struct zh_pos *p, int from, int to, bool check)
{
	const uint64_t *bt = p->bb_type;
	int us = p->side, k = p->king[us], i, d, l;
	uint64_t occ, them, x;

	if (k == ZH_NOSQ)
		return true;
	if (check)
		return safe8_check(p, from, to);
	/* only a pin: the line from the king */
	if ((d = unit_dir8(k, from)) == 0)
		return true;
	i = bbix(k);
	occ = ((p->bb_side[0] | p->bb_side[1]) & ~BBIT(from)) | BBIT(to);
	them = p->bb_side[!us] & ~BBIT(to);
	l = step_line[d + 17];
	x = first_toward8(l, i, bbix(from), occ) & them;
	return (x & (l < 2 ? bt[ZH_ROOK] | bt[ZH_QUEEN] |
	    bt[ZH_CHANCELLOR] : bt[ZH_BISHOP] | bt[ZH_QUEEN] |
	    bt[ZH_ARCHBISHOP])) == 0;
}

/* safe8() in check: is the king out of every attack after the move? */
static bool
safe8_check(const struct zh_pos *p, int from, int to)
{
	const uint64_t *bt = p->bb_type;
	int us = p->side, i = bbix(p->king[us]);
	uint64_t fb = BBIT(from), tb = BBIT(to), occ, them;

	occ = ((p->bb_side[0] | p->bb_side[1]) & ~fb) | tb;
	them = p->bb_side[!us] & ~tb;
	if (((pawn8[us][i] & bt[ZH_PAWN]) |
	    (knight8[i] & (bt[ZH_KNIGHT] | bt[ZH_ARCHBISHOP] |
	    bt[ZH_CHANCELLOR])) | (king8[i] & bt[ZH_KING])) & them)
		return false;
	return !slider_hits8(i, occ, (bt[ZH_BISHOP] | bt[ZH_QUEEN] |
	    bt[ZH_ARCHBISHOP]) & them, (bt[ZH_ROOK] | bt[ZH_QUEEN] |
	    bt[ZH_CHANCELLOR]) & them);
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
		x |= knight8[i];
	if (a & A_DIAG)
		x |= diag_attacks8(i, occ);
	if (a & A_ORTH)
		x |= orth_attacks8(i, occ);
	return x & mine;
}

int
zh__moves_to(const struct zh_pos *p, int type, int to, struct zh_move *out)
{
	struct gen gs, *g = &gs;
	unsigned char from[24];
	int i, k, n = 0, nf;
	bool check, special;

	/* 8x8 boards: the origins from the masks, and each move's safety
	   from the slider lines through the king, unless the move is a
	   king's, a promotion (a choice) or en passant (its own flag). */
	if (type != ZH_KING && has_bb(p) && !(type == ZH_PAWN &&
	    (RELRANK(p, p->side, to) >= p->v->promo_lo ||
	    (p->sq[to] == 0 && to == p->ep)))) {
		if (type == ZH_PAWN)
			nf = origins(p, type, to, from);
		else {
			uint64_t x;

			if (is_color(p->sq[to], p->side) ||
			    (x = reach8(p, type, to)) == 0)
				return 0;
			if ((x & (x - 1)) != 0)	/* listed in the walks' order */
				nf = origins8(p, type, to, from);
			else {
				from[0] = (unsigned char)bbsq(__builtin_ctzll(x));
				nf = 1;
			}
		}
		check = p->check != 0 ? p->check == 2 : zh_in_check(p);
		for (k = 0; k < nf; k++) {
			if (!safe8(p, from[k], to, check))
				continue;
			out[n].from = from[k];
			out[n].to = (unsigned char)to;
			out[n].piece = 0;
			out[n].flags = type == ZH_PAWN && (to - from[k] == 32 ||
			    to - from[k] == -32) ? ZH_MDOUBLE : 0;
			n++;
		}
		return n;
	}
	gen_start(g, p, out);	/* legality is checked below, move by move */
	if (type == ZH_KING) {
		int df, dr;

		if (g->ksq == ZH_NOSQ || is_color(p->sq[to], g->us) ||
		    p->sq[to] == ZH_OFF)
			return 0;
		df = ZH_FILE(to) - ZH_FILE(g->ksq);
		dr = ZH_RANK(to) - ZH_RANK(g->ksq);
		if (df >= -1 && df <= 1 && dr >= -1 && dr <= 1) {
			if (attacked_x(p, to, g->them, g->ksq))
				return 0;
			add(g, g->ksq, to, 0, 0);
			return 1;
		}
		g->nchecks = zh_in_check(p);	/* no castling out of check */
		gen_king(g);
		for (i = 0; i < g->n; i++)
			if (out[i].to == to)
				out[n++] = out[i];
		return n;
	}
	nf = origins(p, type, to, from);
	if (nf == 0)
		return 0;
	check = p->check != 0 ? p->check == 2 : zh_in_check(p);
	/* A pawn's move here is one move unless it promotes (a choice of
	   pieces) or takes en passant (its own flag): those are generated. */
	special = type == ZH_PAWN && (RELRANK(p, g->us, to) >= p->v->promo_lo ||
	    (p->sq[to] == 0 && to == p->ep));
	for (k = 0; k < nf; k++) {
		int start = g->n;
		/* Out of check, a piece off the king's lines exposes nothing,
		   and one on a line can only open that line: a pin. */
		int d = g->ksq == ZH_NOSQ ? 0 : udir(p, g->ksq, from[k]);
		bool free = !check && (d == 0 || !pinned_off(p, g->ksq, d,
		    from[k], to));

		if (special)
			gen_pawn(g, from[k]);
		else		/* origins() checked the path */
			add(g, from[k], to, 0, type == ZH_PAWN &&
			    (to - from[k] == 32 || to - from[k] == -32) ?
			    ZH_MDOUBLE : 0);
		for (i = start; i < g->n; i++)
			if (out[i].to == to && (free || (out[i].flags & ZH_MEP) ||
			    safe_after(p, &out[i])))
				out[n++] = out[i];
		g->n = n;
	}
	return n;
}

int
zh__castle_move(const struct zh_pos *p, bool king_side, struct zh_move *m)
{
	struct gen gs, *g = &gs;
	struct zh_move out[2];
	int i;

	gen_start(g, p, out);
	g->nchecks = zh_in_check(p);
	gen_castle(g);
	for (i = 0; i < g->n; i++)
		if ((ZH_FILE(out[i].to) > 4) == king_side) {
			*m = out[i];
			return 1;
		}
	return 0;
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
	if (k == ZH_NOSQ || !zh_in_check(p))	/* a drop exposes nothing */
		return true;
	if (has_bb(p))
		return !attacked8(p, k, !p->side, -1, -1, to);
	memcpy(b, p->sq, sizeof b);
	b[to] = ZH_PIECE(p->side, type);
	return !attacked_b(b, k, !p->side, -1);
}

bool
zh__drop_ok(const struct zh_pos *p, int type, int to)
{
	return drop_ok(p, type, to);
}

/*
 * Has the side to move any legal move?  Cheaper than counting: a king
 * step or a drop that blocks usually answers at once.
 */
bool
zh_has_legal(const struct zh_pos *p)
{
	struct gen gs, *g = &gs;
	struct zh_move buf[ZH_MAXMOVES];

	gen_init(g, p, buf);
	if (g->ksq != ZH_NOSQ) {
		gen_king(g);
		if (g->n > 0)
			return true;
		if (g->nchecks >= 2)	/* only the king could move */
			return false;
	}
	if (g->nchecks < 2 && gen_drops(g, true) > 0)
		return true;
	if (g->nchecks == 1) {
		/* Take the checker or step in between: moves to a few
		   squares, found from the squares. */
		int i, t;

		for (i = 0; i < g->ntsq; i++)
			for (t = ZH_PAWN; t < ZH_NTYPES; t++)
				if (t != ZH_KING && p->count[g->us][t] > 0 &&
				    zh__moves_to(p, t, g->tsq[i], buf) > 0)
					return true;
		/* en passant takes a checking pawn from another square */
		return p->ep != ZH_NOSQ && p->count[g->us][ZH_PAWN] > 0 &&
		    zh__moves_to(p, ZH_PAWN, p->ep, buf) > 0;
	}
	return zh_count_legal(p) > 0;
}

/* ======================== the common SAN, played ======================== */

/* The name of square s of an 8x8 board at q (2 bytes); returns q + 2. */
static inline char *
put_sq8(char *q, int s)
{
	q[0] = (char)('a' + ZH_FILE(s));
	q[1] = (char)('1' + ZH_RANK(s));
	return q + 2;
}

/* The squares of a file and of a rank of an 8x8 board, as bits. */
#define FILE8(f)	((uint64_t)0x0101010101010101u << (f))
#define RANK8(r)	((uint64_t)0xff << 8 * (r))

/*
 * Legal move m of a piece of 'type' made on p, its SAN body in the
 * Lichess dialect and its UCI written first (NULL: not wanted); 'others'
 * are the other pieces of the type that could go there (bits), which
 * the SAN tells apart by file, rank or square.
 */
static ZH_HOT_INLINE void
play8(struct zh_pos *p, struct zh_move m, int type, uint64_t others,
    char *san, char *uci)
{
	if (san != NULL) {
		char *q = san;

		if (m.flags & ZH_MDROP) {
			*q++ = zh__type_letter(m.piece);
			*q++ = '@';
		} else if (type != ZH_PAWN) {
			int i = bbix(m.from);

			*q++ = zh__type_letter(type);
			if (others == 0)
				;
			else if (!(others & FILE8(i & 7)))
				*q++ = (char)('a' + ZH_FILE(m.from));
			else if (!(others & RANK8(i >> 3)))
				*q++ = (char)('1' + ZH_RANK(m.from));
			else
				q = put_sq8(q, m.from);
			if (p->sq[m.to] != 0)
				*q++ = 'x';
		} else if (ZH_FILE(m.from) != ZH_FILE(m.to)) {
			*q++ = (char)('a' + ZH_FILE(m.from));
			*q++ = 'x';
		}
		q = put_sq8(q, m.to);
		*q = '\0';
	}
	if (uci != NULL) {
		char *q = uci;

		if (m.flags & ZH_MDROP) {
			*q++ = zh__type_letter(m.piece);
			*q++ = '@';
		} else
			q = put_sq8(q, m.from);
		q = put_sq8(q, m.to);
		*q = '\0';
	}
	if (m.flags & ZH_MDROP)
		make_drop8(p, m);
	else
		make_plain8(p, m);
	p->check = p->king[p->side] != ZH_NOSQ &&
	    gives_check8(p, m, !p->side, p->king[p->side]) ? 2 : 1;
}

/* Which of the pieces x (bits) of the side to move may go to 'to' of an
 * 8x8 board without leaving the king in check?  Out of line: the loop
 * is for the rarer moves that two pieces of a type can make. */
static uint64_t
legal8(const struct zh_pos *p, uint64_t x, int to, bool check)
{
	uint64_t legal = 0;

	for (; x != 0; x &= x - 1)
		if (safe8(p, bbsq(__builtin_ctzll(x)), to, check))
			legal |= x & (0 - x);
	return legal;
}

/* Is a pawn's move of the side to move to 'to' of an 8x8 board one the
 * one-step path plays: no promotion ('promo' ZH_EMPTY) before the
 * variant's promotion ranks, or one ('promo' its type) on the last
 * rank, where it is compulsory? */
static inline bool
promo_rank_ok(const struct zh_pos *p, int to, int promo)
{
	int rel = RELRANK(p, p->side, to);

	return promo == ZH_EMPTY ? rel < p->v->promo_lo :
	    rel == p->v->ranks - 1 && p->v->promo_lo <= rel;
}

/* A promotion or castling m of an 8x8 board, played as the general
 * path plays it: its SAN body and UCI written first (NULL: not wanted). */
static ZH_COLD void
play_rare8(struct zh_pos *p, struct zh_move m, char *san, char *uci)
{
	if (san != NULL)
		zh__san_body_n(p, m, ZH_LICHESS, san, 1);
	if (uci != NULL)
		zh_uci_write(p, m, uci);
	zh_make(p, m);
}

/* "O-O" or "O-O-O" (n bytes at s), played if legal (zh__castle_move). */
static ZH_COLD int
castle8(struct zh_pos *p, const char *s, size_t n, struct zh_move *mv,
    char *san, char *uci)
{
	struct zh_move m;
	bool kside;

	if (n == 3 && memcmp(s, "O-O", 3) == 0)
		kside = true;
	else if (n == 5 && memcmp(s, "O-O-O", 5) == 0)
		kside = false;
	else
		return 0;
	if (!zh__castle_move(p, kside, &m))
		return 0;
	play_rare8(p, m, san, uci);
	*mv = m;
	return 1;
}

static int play_rare_text(struct zh_pos *p, const char *s, size_t n,
    struct zh_move *mv, char *san, char *uci);

/*
 * zh__play_fast after the check marks: n (2 to 6) bytes at s, and the
 * promotion type when "=Q" was cut off the end (ZH_EMPTY: none).  A
 * text that does not end in a square may be of the rarer forms.
 */
static ZH_HOT_INLINE int
play_text8(struct zh_pos *p, const char *s, size_t n, int promo,
    struct zh_move *mv, char *san, char *uci)
{
	int us = p->side, fwd = FORWARD(us), type, to, from = 0, f, r;
	unsigned char pawn = ZH_PIECE(us, ZH_PAWN);
	uint64_t others = 0;
	struct zh_move m;
	bool check;

	f = s[n - 2] - 'a';
	r = s[n - 1] - '1';
	if (f < 0 || f > 7 || r < 0 || r > 7)
		return promo == ZH_EMPTY ? play_rare_text(p, s, n, mv, san,
		    uci) : 0;
	to = ZH_SQ(f, r);
	m.to = (unsigned char)to;
	m.piece = 0;
	m.flags = 0;
	if ((n == 3 || n == 4) && s[n - 3] == '@') {	/* "@e4", "N@f3" */
		type = n == 4 ? zh__letter_type(s[0]) : ZH_PAWN;
		if (promo != ZH_EMPTY || !drop_ok(p, type, to))
			return 0;
		m.from = ZH_NOSQ;
		m.piece = (unsigned char)type;
		m.flags = ZH_MDROP;
		goto play;
	}
	check = p->check != 0 ? p->check == 2 : zh_in_check(p);
	if (n == 2) {					/* "e4" */
		if (p->sq[to] != 0 || to == p->ep || !promo_rank_ok(p, to, promo))
			return 0;
		type = ZH_PAWN;
		if ((p->sq[to - fwd] & ~ZH_PROMOTED) == pawn)
			from = to - fwd;
		else if (p->sq[to - fwd] == 0 &&
		    (p->sq[to - 2 * fwd] & ~ZH_PROMOTED) == pawn &&
		    RELRANK(p, us, to - 2 * fwd) == p->v->double_step) {
			from = to - 2 * fwd;
			m.flags = ZH_MDOUBLE;
		} else
			return 0;
	} else if (n == 4 && s[0] >= 'a' && s[0] <= 'h' && s[1] == 'x') {
		int df = s[0] - 'a' - f;		/* "exd5" */

		if ((df != 1 && df != -1) || !is_color(p->sq[to], !us) ||
		    !promo_rank_ok(p, to, promo))
			return 0;
		type = ZH_PAWN;
		from = to - fwd + df;
		if ((p->sq[from] & ~ZH_PROMOTED) != pawn)
			return 0;
	} else if (s[0] >= 'A' && s[0] <= 'Z') {
		/* "Nf3", "Nxf3", "Nbd2", "R1xe2", "Qh4e1" */
		const char *q = s + 1, *e = s + n - 2;
		uint64_t x, legal = 0, want = ~(uint64_t)0;

		if (q < e && *q >= 'a' && *q <= 'h')
			want &= FILE8(*q++ - 'a');
		if (q < e && *q >= '1' && *q <= '8')
			want &= RANK8(*q++ - '1');
		if (q < e && *q == 'x')
			q++;
		type = zh__letter_type(s[0]);
		if (q != e || type == ZH_EMPTY || type == ZH_PAWN ||
		    promo != ZH_EMPTY ||
		    !(p->v->types & ZH_TYPEBIT(type)) ||
		    is_color(p->sq[to], us))
			return 0;
		if (type == ZH_KING) {
			int k = p->king[us];

			if (k == ZH_NOSQ || !(king8[bbix(k)] & BBIT(to)) ||
			    !(want & BBIT(k)) || attacked8(p, to, !us, k, -1, -1))
				return 0;
			m.from = (unsigned char)k;
			goto play;
		}
		x = reach8(p, type, to);
		if ((x & (x - 1)) == 0) {	/* one piece reaches: most moves */
			if ((x & want) == 0 ||
			    !safe8(p, bbsq(__builtin_ctzll(x)), to, check))
				return 0;
			m.from = (unsigned char)bbsq(__builtin_ctzll(x));
			goto play;
		}
		legal = legal8(p, x, to, check);
		x = legal & want;		/* exactly one, or the reader */
		if (x == 0 || (x & (x - 1)) != 0)	/* says why */
			return 0;
		others = legal & ~x;
		m.from = (unsigned char)bbsq(__builtin_ctzll(x));
		goto play;
	} else
		return 0;
	if (!safe8(p, from, to, check))		/* the pawn's move */
		return 0;
	m.from = (unsigned char)from;
	if (promo != ZH_EMPTY) {
		m.piece = (unsigned char)promo;
		m.flags = ZH_MPROMO;
		play_rare8(p, m, san, uci);
		*mv = m;
		return 1;
	}
play:
	play8(p, m, type, others, san, uci);
	*mv = m;
	return 1;
}

/* Castling and promotions ("O-O", "O-O-O", "e8=Q", "exd8=N"): the
 * forms that do not end in a square, out of the common path. */
static ZH_COLD int
play_rare_text(struct zh_pos *p, const char *s, size_t n, struct zh_move *mv,
    char *san, char *uci)
{
	int promo;

	if (s[0] == 'O')
		return castle8(p, s, n, mv, san, uci);
	if (n < 4 || s[n - 2] != '=' || s[n - 1] < 'A' || s[n - 1] > 'Z' ||
	    p->v->promo_limited ||
	    (promo = zh__letter_type(s[n - 1])) == ZH_EMPTY ||
	    !(p->v->promo_types & ZH_TYPEBIT(promo)))
		return 0;
	return play_text8(p, s, n - 2, promo, mv, san, uci);
}

/* zh__play_fast, inline for the loop below. */
static ZH_HOT_INLINE int
play_fast(struct zh_pos *p, const char *s, size_t n, struct zh_move *mv,
    char *san, char *uci)
{
	if (n >= 32)			/* the general reader's bound */
		return 0;
	while (n > 0 && (s[n - 1] == '+' || s[n - 1] == '#'))
		n--;
	if (n < 2 || n > 6)
		return 0;
	return play_text8(p, s, n, ZH_EMPTY, mv, san, uci);
}

int
zh__play_fast(struct zh_pos *p, const char *s, size_t n, struct zh_move *mv,
    char *san, char *uci)
{
	return has_bb(p) ? play_fast(p, s, n, mv, san, uci) : 0;
}

/*
 * zh__play_run's loop, made once for each case its callers have (SAN
 * and UCI for JSON, SAN alone for PGN, neither for zhcheck): 'san' and
 * 'uci' are constants, so that each copy has none of the code and the
 * tests of the texts it does not write.
 */
static ZH_HOT_INLINE size_t
play_run(struct zh_pos *p, const struct zh_token *toks, size_t i,
    size_t end, struct zh_rmove *moves, struct zh_run *run, const bool san,
    const bool uci)
{
	/* in locals: a store of text (char) could change *run otherwise */
	long ply = run->ply;
	const int depth = run->depth;
	size_t played = 0, last = run->last;

	for (; i < end; i++) {
		const struct zh_token *t = &toks[i];
		struct zh_rmove *rm = &moves[i];
		struct zh_move m;

		if (t->kind == ZH_T_MOVENUM)
			continue;
		if (t->kind != ZH_T_MOVE || !play_fast(p, t->text, t->len, &m,
		    san ? rm->san : NULL, uci ? rm->uci : NULL))
			break;
		rm->ok = true;
		rm->move = m;
		rm->ply = ++ply;
		rm->depth = depth;
		if (!san)
			rm->san[0] = '\0';
		else if (p->check == 2) {	/* '#' is the caller's */
			size_t n = zh__movelen(rm->san);

			rm->san[n++] = '+';
			rm->san[n] = '\0';
		}
		if (!uci)
			rm->uci[0] = '\0';
		last = i;
		played++;
	}
	run->ply = ply;
	run->played += played;
	run->last = last;
	return i;
}

/* play_run over comments and NAGs too (the caller passes them over),
 * so that a game with a clock after every move is one run. */
static ZH_HOT_INLINE size_t
play_runs(struct zh_pos *p, const struct zh_token *toks, size_t i,
    size_t end, struct zh_rmove *moves, struct zh_run *run, const bool san,
    const bool uci)
{
	for (;;) {
		i = play_run(p, toks, i, end, moves, run, san, uci);
		if (i >= end || (toks[i].kind != ZH_T_COMMENT &&
		    toks[i].kind != ZH_T_NAG))
			return i;
		i++;
	}
}

size_t
zh__play_run(struct zh_pos *p, const struct zh_token *toks, size_t i,
    size_t end, struct zh_rmove *moves, struct zh_run *run)
{
	size_t j, k;

	run->played = 0;
	if (!has_bb(p))
		return i;
	if (run->san)
		return run->uci ? play_runs(p, toks, i, end, moves, run, true,
		    true) : play_runs(p, toks, i, end, moves, run, true, false);
	if (!run->uci)
		return play_runs(p, toks, i, end, moves, run, false, false);
	/* UCI alone, which no caller asks for: both, the SAN dropped */
	k = play_runs(p, toks, i, end, moves, run, true, true);
	for (j = i; j < k; j++)
		if (toks[j].kind == ZH_T_MOVE)
			moves[j].san[0] = '\0';
	return k;
}
