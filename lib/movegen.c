/*
 * movegen.c - legal move generation: all moves, the moves of one piece
 * type to one square (the SAN reader's question), and perft.
 *
 * Legal moves are generated directly: the checkers and pinned pieces are
 * found first, so only king moves and en passant need a trial.  Drops are
 * legal on any empty square the variant allows, or, in single check, on a
 * square that blocks a slider's check.  Every rule switch comes from the
 * variant table (p->v).
 */
#include <stdint.h>
#include <string.h>

#include "bb8.h"

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
	int fwd = FORWARD(g->us), first = 0, last = 8;

	g->nchecks = 0;
	g->npins = 0;
	if (k == ZH_NOSQ)
		return;
	if (has_bb(p)) {	/* the lines with no slider of theirs: none */
		const uint64_t *bt = p->bb_type, them = p->bb_side[g->them];

		if (!(zh__orth8[bbix(k)] & them & (bt[ZH_ROOK] | bt[ZH_QUEEN] |
		    bt[ZH_CHANCELLOR])))
			first = 4;
		if (!(zh__diag8[bbix(k)] & them & (bt[ZH_BISHOP] |
		    bt[ZH_QUEEN] | bt[ZH_ARCHBISHOP])))
			last = 4;
	}
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
	for (i = first; i < last; i++) {
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
	return !attacked_x(&c, g->ksq, g->them, -1);
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
		    !attacked_x(p, ZH_SQ(5, r), g->them, -1) &&
		    !attacked_x(p, ZH_SQ(6, r), g->them, -1))
			add(g, k, ZH_SQ(6, r), 0, ZH_MCASTLE);
		if ((p->castle & qr) && (b[ZH_SQ(0, r)] & ~ZH_PROMOTED) == rk &&
		    b[ZH_SQ(1, r)] == 0 && b[ZH_SQ(2, r)] == 0 &&
		    b[ZH_SQ(3, r)] == 0 &&
		    !attacked_x(p, ZH_SQ(3, r), g->them, -1) &&
		    !attacked_x(p, ZH_SQ(2, r), g->them, -1))
			add(g, k, ZH_SQ(2, r), 0, ZH_MCASTLE);
	}
}

/* The drops of an 8x8 board listed (gen_drops' order): pawns (if
   'pawns') and the ntypes types[] on each empty square allowed. */
static void
drops_bb(struct gen *g, const unsigned char *types, int ntypes, bool pawns)
{
	const struct zh_pos *p = g->p;
	uint64_t empty = ~(p->bb_side[0] | p->bb_side[1]), pmask = 0;
	int r, i;

	for (r = 0; pawns && r < 8; r++)
		if (pawn_drop_rank(p, g->us, ZH_SQ(0, r)))
			pmask |= (uint64_t)0xff << (8 * r);
	for (; empty != 0; empty &= empty - 1) {
		int b = __builtin_ctzll(empty), s = bbsq(b);

		if (!target_ok(g, s))
			continue;
		if (pmask >> b & 1)
			add(g, ZH_NOSQ, s, ZH_PAWN, ZH_MDROP);
		for (i = 0; i < ntypes; i++)
			add(g, ZH_NOSQ, s, types[i], ZH_MDROP);
	}
}

/* Drops: listed into g->out, or only counted when 'count' is set. */
static uint64_t
gen_drops(struct gen *g, bool count)
{
	const struct zh_pos *p = g->p;
	const unsigned char *hand = p->pocket[g->us];
	unsigned char types[ZH_NTYPES];	/* held, but pawns: in order */
	int t, ntypes = 0, r, f, i;
	bool pawns = hand[ZH_PAWN] > 0, prank;
	uint64_t sq_all = 0, sq_pawn = 0;

	if (!p->v->drops || g->nchecks > 1)
		return 0;
	for (t = ZH_KNIGHT; t < ZH_NTYPES; t++)
		if (hand[t] > 0 && t != ZH_KING)
			types[ntypes++] = (unsigned char)t;
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
	if (!count && has_bb(p)) {	/* the same order, by bits */
		drops_bb(g, types, ntypes, pawns);
		return 0;
	}
	for (r = 0; r < p->v->ranks; r++) {
		prank = pawns && pawn_drop_rank(p, g->us, ZH_SQ(0, r));
		for (f = 0; f < p->v->files; f++) {
			int s = ZH_SQ(f, r);

			if (p->sq[s] != 0 || !target_ok(g, s))
				continue;
			if (count) {
				sq_all++;
				sq_pawn += prank;
				continue;
			}
			if (prank)
				add(g, ZH_NOSQ, s, ZH_PAWN, ZH_MDROP);
			for (i = 0; i < ntypes; i++)
				add(g, ZH_NOSQ, s, types[i], ZH_MDROP);
		}
	}
	return sq_all * (uint64_t)ntypes + sq_pawn;
}

static uint64_t
generate(const struct zh_pos *p, struct zh_move *out, bool count)
{
	struct gen gs, *g = &gs;
	const unsigned char *b = p->sq;
	int r, f;
	uint64_t drops, own;

	gen_start(g, p, out);
	scan_king(g);
	if (g->ksq != ZH_NOSQ)
		gen_king(g);
	if (g->nchecks < 2 && has_bb(p))	/* the same order, by bits */
		for (own = p->bb_side[g->us] & ~p->bb_type[ZH_KING]; own != 0;
		    own &= own - 1) {
			int s = bbsq(__builtin_ctzll(own));

			if (ZH_TYPE(b[s]) == ZH_PAWN)
				gen_pawn(g, s);
			else
				gen_piece(g, s, ZH_TYPE(b[s]));
		}
	else if (g->nchecks < 2)
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

/* The leaf count of the legal move tree to depth (perft). */
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
zh_is_legal(const struct zh_pos *p, struct zh_move m)
{
	struct zh_move buf[ZH_MAXMOVES];
	int i, n = zh_legal_moves(p, buf);

	for (i = 0; i < n; i++)
		if (zh_move_eq(buf[i], m))
			return true;
	return false;
}

/* A check that a piece dropped between the checker and the king would
 * block: one checker, a slider with an empty square before the king. */
static bool
drop_could_block(const struct zh_pos *p)
{
	struct gen gs;
	struct zh_move buf[1];

	gen_start(&gs, p, buf);
	scan_king(&gs);
	return gs.nchecks == 1 && gs.ntsq > 1;
}

bool
zh__mate_in_check(const struct zh_pos *p)
{
	if (p->v->drop_waits && drop_could_block(p))
		return false;	/* bughouse: the cheaper test first */
	return !zh_has_legal(p);
}

int
zh_status(const struct zh_pos *p)
{
	if (zh_has_legal(p))
		return ZH_ONGOING;
	if (!zh_in_check(p))	/* a bughouse side waits for a piece */
		return p->v->drop_waits ? ZH_ONGOING : ZH_STALEMATE;
	return !p->v->drop_waits || !drop_could_block(p) ? ZH_CHECKMATE :
	    ZH_ONGOING;
}

bool
zh_ep_legal(const struct zh_pos *p)
{
	struct zh_move buf[ZH_MAXMOVES];
	int i, n;

	if (!zh_ep_attacked(p))		/* no pawn to capture with */
		return false;
	n = zh__moves_to(p, ZH_PAWN, p->ep, buf);	/* the pawns' only */
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
		return !zh__attacked8(p, m->from == k ? m->to : k, !us, m->from,
		    m->flags & ZH_MEP ? m->to - FORWARD(us) : -1, m->to);
	memcpy(b, p->sq, sizeof b);
	if (m->flags & ZH_MEP)
		b[m->to - FORWARD(us)] = 0;
	b[m->to] = b[m->from];
	b[m->from] = 0;
	if (m->from == k)
		k = m->to;
	return !zh__attacked_b(b, k, !us, -1);
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
		x = mine & zh__knight8[i];
		if ((x & (x - 1)) != 0) {	/* two or more */
			for (k = 0; k < 8; k++)
				if (b[to - jumps[k]] != ZH_OFF &&
				    (x & BBIT(to - jumps[k])))
					from[n++] = (unsigned char)(to - jumps[k]);
		} else if (x != 0)
			from[n++] = (unsigned char)bbsq(__builtin_ctzll(x));
	}
	x = mine & ((a & A_DIAG ? zh__diag8[i] : 0) | (a & A_ORTH ? zh__orth8[i] : 0));
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

/* safe8() in check: is the king out of every attack after the move? */
bool
zh__safe8_check(const struct zh_pos *p, int from, int to)
{
	const uint64_t *bt = p->bb_type;
	int us = p->side, i = bbix(p->king[us]);
	uint64_t fb = BBIT(from), tb = BBIT(to), occ, them;

	occ = ((p->bb_side[0] | p->bb_side[1]) & ~fb) | tb;
	them = p->bb_side[!us] & ~tb;
	if (((zh__pawn8[us][i] & bt[ZH_PAWN]) |
	    (zh__knight8[i] & (bt[ZH_KNIGHT] | bt[ZH_ARCHBISHOP] |
	    bt[ZH_CHANCELLOR])) | (zh__king8[i] & bt[ZH_KING])) & them)
		return false;
	return !slider_hits8(i, occ, (bt[ZH_BISHOP] | bt[ZH_QUEEN] |
	    bt[ZH_ARCHBISHOP]) & them, (bt[ZH_ROOK] | bt[ZH_QUEEN] |
	    bt[ZH_CHANCELLOR]) & them);
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
		check = in_check(p);
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
	check = in_check(p);
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

bool
zh__drop_ok(const struct zh_pos *p, int type, int to)
{
	return drop_ok(p, type, to);
}

/* p with its check flag known, in c if it was not: the moves to a
   square ask it once a type. */
static const struct zh_pos *
check_known(const struct zh_pos *p, struct zh_pos *c)
{
	if (p->check != 0)
		return p;
	*c = *p;
	c->check = zh_in_check(p) ? 2 : 1;
	return c;
}

/* May the side's pieces of type t move to 'to' (none if it has none; a
   king only along its rank or a step away: castling keeps the rank)? */
static bool
type_may(const struct zh_pos *p, int t, int to)
{
	int k = p->king[p->side], dr;

	if (p->count[p->side][t] == 0)
		return false;
	if (t != ZH_KING || k == ZH_NOSQ)
		return true;
	dr = ZH_RANK(to) - ZH_RANK(k);
	return dr >= -1 && dr <= 1;
}

/*
 * The legal moves to square 'to': the board moves by the moving piece's
 * type (pawn first; each type's as zh__moves_to lists them), then the
 * drops by type.  A move's rank here is short to store (zhindex).
 */
int
zh_legal_to(const struct zh_pos *p, int to, struct zh_move *out)
{
	int t, n = 0;

	if (!zh_on_board(p, to))
		return 0;
	for (t = ZH_PAWN; t < ZH_NTYPES; t++)
		if (type_may(p, t, to))
			n += zh__moves_to(p, t, to, out + n);
	if (p->v->drops && p->sq[to] == 0)
		for (t = ZH_PAWN; t < ZH_NTYPES; t++)
			if (drop_ok(p, t, to)) {
				out[n].from = ZH_NOSQ;
				out[n].to = (unsigned char)to;
				out[n].piece = (unsigned char)t;
				out[n].flags = ZH_MDROP;
				n++;
			}
	return n;
}

/* The move of rank i in zh_legal_to(p, to), the moves after it not
   listed: 0, -1 if none. */
int
zh_legal_nth(const struct zh_pos *p, int to, int i, struct zh_move *m)
{
	struct zh_move out[ZH_MAXMOVES];
	struct zh_pos c;
	int t, k;

	if (!zh_on_board(p, to) || i < 0)
		return -1;
	p = check_known(p, &c);
	for (t = ZH_PAWN; t < ZH_NTYPES; t++) {
		if (!type_may(p, t, to))
			continue;
		k = zh__moves_to(p, t, to, out);
		if (i < k) {
			*m = out[i];
			return 0;
		}
		i -= k;
	}
	if (!p->v->drops || p->sq[to] != 0)
		return -1;
	for (t = ZH_PAWN; t < ZH_NTYPES; t++)
		if (drop_ok(p, t, to) && i-- == 0) {
			m->from = ZH_NOSQ;
			m->to = (unsigned char)to;
			m->piece = (unsigned char)t;
			m->flags = ZH_MDROP;
			return 0;
		}
	return -1;
}

/*
 * The side's pawns that move to 'to' of an 8x8 board, not promoting nor
 * taking en passant, as origins() lists them (a push; else the takes,
 * by file): into from[], their number.
 */
static ZH_HOT_INLINE int
pawns_to8(const struct zh_pos *p, int to, unsigned char *from)
{
	int us = p->side, fwd = FORWARD(us), n = 0;
	unsigned char pawn = ZH_PIECE(us, ZH_PAWN);
	uint64_t x;

	if (p->sq[to] == 0) {
		if ((p->sq[to - fwd] & ~ZH_PROMOTED) == pawn)
			from[n++] = (unsigned char)(to - fwd);
		else if (p->sq[to - fwd] == 0 &&
		    (p->sq[to - 2 * fwd] & ~ZH_PROMOTED) == pawn &&
		    RELRANK(p, us, to - 2 * fwd) == p->v->double_step)
			from[n++] = (unsigned char)(to - 2 * fwd);
		return n;
	}
	x = zh__pawn8[!us][bbix(to)] & p->bb_type[ZH_PAWN] & p->bb_side[us];
	for (; x != 0; x &= x - 1)	/* file order: bit order */
		from[n++] = (unsigned char)bbsq(__builtin_ctzll(x));
	return n;
}

/* m's rank among the moves to m.to of type 'type' (ZH_NTYPES: a drop)
   from 'from'[0..nf), those unsafe left out, after n others: -1 if
   none is m. */
static inline int
rank_among8(const struct zh_pos *p, struct zh_move m, const unsigned char
    *from, int nf, int n, bool check)
{
	int k;

	for (k = 0; k < nf; k++) {
		if (!safe8(p, from[k], m.to, check))
			continue;
		if (from[k] == m.from)
			return m.piece == 0 ? n : -1;
		n++;
	}
	return -1;
}

/*
 * zh_legal_rank on an 8x8 board: the moves to m.to before m (of type
 * 'type', ZH_NTYPES for a drop) counted from the square's attackers,
 * listed in zh__moves_to's order only where two of m's type reach it;
 * the pawns' promotions or en passant and the king's moves along its
 * rank (castling) by zh__moves_to (into out).  -2 where m is one of
 * those: the caller lists them all.
 */
static int
rank8(const struct zh_pos *p, struct zh_move m, int type, struct zh_move *out)
{
	const uint64_t *bt = p->bb_type;
	int us = p->side, to = m.to, i = bbix(to), n = 0, nf, k;
	uint64_t occ = p->bb_side[0] | p->bb_side[1], mine = p->bb_side[us];
	uint64_t x = 0, lower = 0, dg, og, kn;
	bool check = in_check(p);
	unsigned char from[24];

	if (is_color(p->sq[to], us) || type == ZH_EMPTY)
		return -1;
	if (p->count[us][ZH_PAWN] == 0) {
		if (type == ZH_PAWN)
			return -1;
	} else if (RELRANK(p, us, to) >= p->v->promo_lo ||
	    (p->sq[to] == 0 && to == p->ep)) {
		if (type == ZH_PAWN)	/* a choice of pieces, or its flag */
			return -2;
		n = zh__moves_to(p, ZH_PAWN, to, out);
	} else {
		nf = pawns_to8(p, to, from);
		if (type == ZH_PAWN)
			return rank_among8(p, m, from, nf, 0, check);
		for (k = 0; k < nf; k++)
			n += safe8(p, from[k], to, check);
	}
	if (type == ZH_KNIGHT)
		x = mine & bt[ZH_KNIGHT] & zh__knight8[i];
	else {
		kn = zh__knight8[i];
		dg = diag_attacks8(i, occ);
		og = orth_attacks8(i, occ);
		/* the types before m's, but the king */
		for (k = ZH_KNIGHT; k < type && k < ZH_NTYPES; k++)
			if (k != ZH_KING)
				lower |= bt[k];
		x = mine & ((kn & (bt[ZH_KNIGHT] | bt[ZH_ARCHBISHOP] |
		    bt[ZH_CHANCELLOR])) | (dg & (bt[ZH_BISHOP] | bt[ZH_QUEEN] |
		    bt[ZH_ARCHBISHOP])) | (og & (bt[ZH_ROOK] | bt[ZH_QUEEN] |
		    bt[ZH_CHANCELLOR])));
		for (lower &= x; lower != 0; lower &= lower - 1)
			n += safe8(p, bbsq(__builtin_ctzll(lower)), to, check);
		if (type > ZH_KING && type_may(p, ZH_KING, to)) {
			int kq = p->king[us], df = ZH_FILE(to) - ZH_FILE(kq);

			if (kq == ZH_NOSQ || ZH_RANK(to) == ZH_RANK(kq))
				/* castling, or no king */
				n += zh__moves_to(p, ZH_KING, to, out);
			else if (df >= -1 && df <= 1 &&
			    !zh__attacked8(p, to, !us, kq, -1, -1))
				n++;
		}
		x &= type < ZH_NTYPES ? bt[type] : 0;
	}
	if (type == ZH_NTYPES) {
		if (!p->v->drops || p->sq[to] != 0)
			return -1;
		for (k = ZH_PAWN; k < ZH_NTYPES; k++)
			if (drop_ok(p, k, to)) {
				if (k == m.piece)
					return n;
				n++;
			}
		return -1;
	}
	if (type == ZH_KING) {	/* a step; castling listed by the caller */
		int kq = p->king[us], df = ZH_FILE(to) - ZH_FILE(kq),
		    dr = ZH_RANK(to) - ZH_RANK(kq);

		if (kq == ZH_NOSQ || df < -1 || df > 1 || dr < -1 || dr > 1)
			return -2;
		return m.from == kq && m.piece == 0 &&
		    !zh__attacked8(p, to, !us, kq, -1, -1) ? n : -1;
	}
	if ((x & (x - 1)) == 0) {	/* one piece, or none */
		from[0] = (unsigned char)(x != 0 ? bbsq(__builtin_ctzll(x)) :
		    ZH_NOSQ);
		return x != 0 ? rank_among8(p, m, from, 1, n, check) : -1;
	}
	nf = origins8(p, type, to, from);	/* the list's order */
	return rank_among8(p, m, from, nf, n, check);
}

/* m's rank in zh_legal_to(p, m.to): the moves before it counted (8x8)
   or listed, not the rest. */
int
zh_legal_rank(const struct zh_pos *p, struct zh_move m)
{
	struct zh_move out[ZH_MAXMOVES];
	struct zh_pos c;
	int t, n = 0, k, i, type;

	if (!zh_on_board(p, m.to))
		return -1;
	p = check_known(p, &c);
	type = m.flags & ZH_MDROP ? ZH_NTYPES : zh_on_board(p, m.from) ?
	    ZH_TYPE(p->sq[m.from]) : ZH_EMPTY;
	if (has_bb(p) && (k = rank8(p, m, type, out)) != -2)
		return k;
	for (t = ZH_PAWN; t < ZH_NTYPES && t <= type; t++) {
		if (!type_may(p, t, m.to))
			continue;
		k = zh__moves_to(p, t, m.to, out);
		if (t == type) {
			for (i = 0; i < k; i++)
				if (zh_move_eq(out[i], m))
					return n + i;
			return -1;
		}
		n += k;
	}
	if (type != ZH_NTYPES || !p->v->drops || p->sq[m.to] != 0)
		return -1;
	for (t = ZH_PAWN; t < ZH_NTYPES; t++)
		if (drop_ok(p, t, m.to)) {
			if (t == m.piece)
				return n;
			n++;
		}
	return -1;
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
