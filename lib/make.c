/*
 * make.c - making moves: the board, the hands, castling rights, the
 * clocks and the check flag after a move or drop.
 */
#include <stdint.h>
#include <string.h>

#include "bb8.h"

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
		p->taken = 0;
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
	if (zh__piece_attacks(b, m.to, k))
		return true;
	if ((m.flags & ZH_MDROP) || (d = udir(p, k, m.from)) == 0)
		return false;
	for (t = k + d; (pc = b[t]) == 0; t += d)
		;
	return is_color(pc, us) &&
	    (attr[ZH_TYPE(pc)] & ((d == 16 || d == -16 || d == 1 || d == -1) ?
	    A_ORTH : A_DIAG));
}

/*
 * The null move: the turn passes, nothing else moves.  As python-chess's
 * Board.push(Move.null()): no en passant square, the halfmove clock one
 * more, the move number one more after Black's.  The side that passed
 * was not in check, and the other had just moved: neither is.
 */
static void
make_null(struct zh_pos *p)
{
	p->ep = ZH_NOSQ;
	p->taken = 0;
	p->halfmove++;
	if (p->side == ZH_BLACK)
		p->fullmove++;
	p->side = (unsigned char)!p->side;
	p->check = 1;
}

void
zh_make(struct zh_pos *p, struct zh_move m)
{
	if ((m.flags & ~ZH_MDOUBLE) == 0 && has_bb(p) && p->sq[m.from] != 0)
		make_plain8(p, m);
	else if (m.flags & ZH_MNULL) {
		make_null(p);
		return;
	} else
		make_board(p, m);
	p->check = gives_check(p, m, !p->side) ? 2 : 1;
}

void
zh__make_quiet(struct zh_pos *p, struct zh_move m)
{
	if ((m.flags & ~ZH_MDOUBLE) == 0 && has_bb(p) && p->sq[m.from] != 0)
		make_plain8(p, m);
	else if (m.flags & ZH_MNULL)
		make_null(p);
	else
		make_board(p, m);
	p->check = 0;
}
