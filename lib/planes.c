/*
 * planes.c - training tensors: a crazyhouse position as CrazyAra's input
 * planes (its representations 1, 2 and 3), a move as its policy index
 * (the flat LABELS list and the 81-plane policy map), the legal moves as
 * a mask over either.
 *
 * The layouts are facts read from CrazyAra (QueensGambit/CrazyAra,
 * DeepCrazyhouse/src/domain/variants: input_representation.py and the
 * crazyhouse/ and classical_chess/ versions, constants.py's LABELS,
 * plane_policy_representation.py); the code is ours, and the tests
 * compare it with CrazyAra's own functions (tests/planes.bats).
 * Every plane is 8x8, row = rank from the side to move's view (Black's
 * board turned over), column = file; the side to move is "me".
 */
#include <pthread.h>
#include <string.h>

#include "zh.h"

/* ---------------- the policy labels ---------------- */

#define NB_MOVES	1792	/* queen-like and knight moves */
#define NB_PROMOS	176	/* 8 files, 4 pieces, 2 colours */

static unsigned short label_move[64][64];	/* 0xffff: none */
static unsigned short label_promo[64][64][4];	/* by promo - ZH_KNIGHT */
static unsigned short label_drop[64][6];	/* by type; 0xffff: none */
static pthread_once_t labels_once = PTHREAD_ONCE_INIT;

static void
label_dest(int from, int f2, int r2, int *n)
{
	int to = r2 * 8 + f2;

	if (f2 < 0 || f2 > 7 || r2 < 0 || r2 > 7 || to == from ||
	    label_move[from][to] != 0xffff)
		return;
	label_move[from][to] = (unsigned short)(*n)++;
}

/* LABELS' order: each from-square (file by file, rank by rank), its
   destinations along the rank, the file, the two diagonals, then the
   knight's jumps in CrazyAra's order; then the promotions file by file,
   queen, rook, bishop, knight, straight then left then right, Black's
   before White's; then the drops square by square, P N B R Q. */
static void
labels_build(void)
{
	static const signed char kn[8][2] = { { -2, -1 }, { -1, -2 },
	    { -2, 1 }, { 1, -2 }, { 2, -1 }, { -1, 2 }, { 2, 1 }, { 1, 2 } };
	static const int promo_order[4] = { ZH_QUEEN, ZH_ROOK, ZH_BISHOP,
	    ZH_KNIGHT };
	int n = 0, f, r, t, k;

	memset(label_move, 0xff, sizeof label_move);
	memset(label_promo, 0xff, sizeof label_promo);
	memset(label_drop, 0xff, sizeof label_drop);
	for (f = 0; f < 8; f++)
		for (r = 0; r < 8; r++) {
			int from = r * 8 + f;

			for (t = 0; t < 8; t++)
				label_dest(from, t, r, &n);
			for (t = 0; t < 8; t++)
				label_dest(from, f, t, &n);
			for (t = -7; t <= 7; t++)
				label_dest(from, f + t, r + t, &n);
			for (t = -7; t <= 7; t++)
				label_dest(from, f + t, r - t, &n);
			for (k = 0; k < 8; k++)
				label_dest(from, f + kn[k][0], r + kn[k][1], &n);
		}
	for (f = 0; f < 8; f++)
		for (k = 0; k < 4; k++) {
			int side[3] = { f, f - 1, f + 1 };

			for (t = 0; t < 3; t++) {
				int p = promo_order[k] - ZH_KNIGHT;

				if (side[t] < 0 || side[t] > 7)
					continue;
				label_promo[8 + f][side[t]][p] =
				    (unsigned short)n++;
				label_promo[48 + f][56 + side[t]][p] =
				    (unsigned short)n++;
			}
		}
	for (f = 0; f < 8; f++)
		for (r = 0; r < 8; r++)
			for (t = ZH_PAWN; t <= ZH_QUEEN; t++)
				if (t != ZH_PAWN || (r > 0 && r < 7))
					label_drop[r * 8 + f][t] =
					    (unsigned short)n++;
}

/* ---------------- squares ---------------- */

static bool
board8(const struct zh_pos *p)
{
	return p->v->files == 8 && p->v->ranks == 8 &&
	    !(p->v->types & ~(unsigned)(ZH_TYPEBIT(ZH_PAWN) |
	    ZH_TYPEBIT(ZH_KNIGHT) | ZH_TYPEBIT(ZH_BISHOP) |
	    ZH_TYPEBIT(ZH_ROOK) | ZH_TYPEBIT(ZH_QUEEN) | ZH_TYPEBIT(ZH_KING)))
	    && p->v->boards <= 1;
}

/* Square s as 8 * rank + file, the rank turned over when 'flip'. */
static int
sq64(int s, bool flip)
{
	int r = ZH_RANK(s);

	return (flip ? 7 - r : r) * 8 + ZH_FILE(s);
}

/* ---------------- policy ---------------- */

int
zh_policy_index(const struct zh_pos *p, struct zh_move m)
{
	bool flip;
	int from, to, i;

	if (!board8(p))
		return -1;
	pthread_once(&labels_once, labels_build);
	flip = p->side == ZH_BLACK;
	to = sq64(m.to, flip);
	if (m.flags & ZH_MDROP)
		i = m.piece >= ZH_PAWN && m.piece <= ZH_QUEEN ?
		    label_drop[to][m.piece] : 0xffff;
	else {
		from = sq64(m.from, flip);
		if (m.flags & ZH_MPROMO)
			i = m.piece >= ZH_KNIGHT && m.piece <= ZH_QUEEN ?
			    label_promo[from][to][m.piece - ZH_KNIGHT] :
			    0xffff;
		else
			i = label_move[from][to];
	}
	return i == 0xffff ? -1 : i;
}

/* CrazyAra's policy map: 56 queen-move planes (direction N, NE, E, SE,
   S, SW, W, NW, then distance 1-7), 8 knight planes, 12 promotion planes
   (knight, bishop, rook, queen; left, straight, right), 5 drop planes
   (P N B R Q); the square is the move's origin, a drop's destination. */
static int
map_plane(struct zh_move m, int from, int to)
{
	static const signed char kn[8][2] = { { 2, 1 }, { 1, 2 }, { -1, 2 },
	    { -2, 1 }, { -2, -1 }, { -1, -2 }, { 1, -2 }, { 2, -1 } };
	int dy = to / 8 - from / 8, dx = to % 8 - from % 8, k, dir, len;

	if (m.flags & ZH_MDROP)
		return 76 + m.piece - ZH_PAWN;
	if (m.flags & ZH_MPROMO)
		return 64 + (m.piece - ZH_KNIGHT) * 3 + dx + 1;
	for (k = 0; k < 8; k++)
		if (kn[k][0] == dy && kn[k][1] == dx)
			return 56 + k;
	len = (dx < 0 ? -dx : dx) > (dy < 0 ? -dy : dy) ?
	    (dx < 0 ? -dx : dx) : (dy < 0 ? -dy : dy);
	if (dx == 0)
		dir = dy > 0 ? 0 : 4;
	else if (dy == 0)
		dir = dx > 0 ? 2 : 6;
	else if (dx > 0)
		dir = dy > 0 ? 1 : 3;
	else
		dir = dy > 0 ? 7 : 5;
	return dir * 7 + len - 1;
}

int
zh_policy_map_index(const struct zh_pos *p, struct zh_move m)
{
	bool flip;
	int from, to;

	if (zh_policy_index(p, m) < 0)
		return -1;
	flip = p->side == ZH_BLACK;
	to = sq64(m.to, flip);
	from = m.flags & ZH_MDROP ? to : sq64(m.from, flip);
	return map_plane(m, from, to) * 64 + from;
}

int
zh_policy_mask(const struct zh_pos *p, unsigned char *mask, bool map)
{
	struct zh_move mv[ZH_MAXMOVES];
	int n, i, k;

	if (!board8(p))
		return -1;
	memset(mask, 0, map ? ZH_POLICY_MAP : ZH_POLICY_LABELS);
	n = zh_legal_moves(p, mv);
	for (i = 0; i < n; i++) {
		k = map ? zh_policy_map_index(p, mv[i]) :
		    zh_policy_index(p, mv[i]);
		if (k >= 0)
			mask[k] = 1;
	}
	return n;
}

/* ---------------- input planes ---------------- */

int
zh_planes_count(int version)
{
	return version == 1 ? 34 : version == 2 ? 51 : version == 3 ? 64 : 0;
}

/* Where the planes go: the caller's buffer, its type, normalized. */
struct pw {
	unsigned char *b;
	int type;		/* ZH_PLANES_UINT8 ... FLOAT32 */
	bool norm;
};

static const int type_size[] = { 1, 1, 2, 4 };

/* IEEE half of f (f a finite value of ours: 0 or at least 2^-14). */
static uint16_t
half_of(float f)
{
	uint32_t x, sign, e, m;

	memcpy(&x, &f, 4);
	sign = (x >> 16) & 0x8000;
	e = (x >> 23) & 0xff;
	m = x & 0x7fffff;
	if ((int)e - 127 > 15)
		return (uint16_t)(sign | 0x7c00);	/* beyond: infinity */
	if ((int)e - 127 < -14)
		return (uint16_t)sign;
	m += 0xfff + ((m >> 13) & 1);	/* to nearest, ties to even */
	if (m & 0x800000) {
		m = 0;
		e++;
	}
	return (uint16_t)(sign | ((e - 112) << 10) | (m >> 13));
}

/* Square i (0-63) of plane k set to 1. */
static inline void
one(const struct pw *w, int k, int i)
{
	static const float f1 = 1;
	size_t at = (size_t)k * 64 + (size_t)i;

	if (w->type <= ZH_PLANES_INT8) {
		w->b[at] = 1;
		return;
	}
	switch (w->type) {
	case ZH_PLANES_FLOAT32:
		memcpy(w->b + 4 * at, &f1, 4);
		break;
	case ZH_PLANES_FLOAT16:
		w->b[2 * at] = 0x00;
		w->b[2 * at + 1] = 0x3c;
		break;
	default:
		w->b[at] = 1;
	}
}

/* Plane k, every square v (divided by 'div' when normalized). */
static void
whole(const struct pw *w, int k, long v, int div)
{
	unsigned char *q = w->b + (size_t)k * 64 * type_size[w->type];
	float f = w->norm ? (float)v / (float)div : (float)v;
	uint16_t h;
	int i;

	if (v == 0)
		return;
	switch (w->type) {
	case ZH_PLANES_FLOAT32:
		for (i = 0; i < 64; i++)
			memcpy(q + 4 * i, &f, 4);
		break;
	case ZH_PLANES_FLOAT16:
		h = half_of(f);
		for (i = 0; i < 64; i++) {
			q[2 * i] = (unsigned char)h;
			q[2 * i + 1] = (unsigned char)(h >> 8);
		}
		break;
	case ZH_PLANES_INT8:
		memset(q, (unsigned char)(signed char)(v < -128 ? -128 :
		    v > 127 ? 127 : v), 64);
		break;
	default:
		memset(q, v < 0 ? 0 : v > 255 ? 255 : (int)v, 64);
	}
}

/* Pieces of me then you, P N B R Q K, from plane k; the promoted ones
   into plane 'promo' (mine) and the next (yours) if promo > 0. */
static void
put_pieces(const struct pw *w, const struct zh_pos *p, int k, int promo,
    bool flip)
{
	uint64_t occ = p->bb_side[0] | p->bb_side[1];

	while (occ) {
		int b = __builtin_ctzll(occ), s = ZH_SQ(b & 7, b >> 3);
		int x = p->sq[s], t = ZH_TYPE(x);
		int who = ZH_COLOR(x) != p->side, i = sq64(s, flip);

		occ &= occ - 1;
		if (t < ZH_PAWN || t > ZH_KING)
			continue;
		one(w, k + who * 6 + t - 1, i);
		if (promo > 0 && (x & ZH_PROMOTED))
			one(w, promo + who, i);
	}
}

/* My pocket P N B R Q from plane k, then yours. */
static void
put_pockets(const struct pw *w, const struct zh_pos *p, int k, int div)
{
	for (int who = 0; who < 2; who++)
		for (int t = ZH_PAWN; t <= ZH_QUEEN; t++)
			whole(w, k + who * 5 + t - 1,
			    p->pocket[who ? !p->side : p->side][t], div);
}

/* Castling rights of me (king's side, queen's side), then you. */
static void
put_castling(const struct pw *w, const struct zh_pos *p, int k)
{
	static const unsigned char bit[2][2] = {
	    { ZH_CASTLE_WK, ZH_CASTLE_WQ }, { ZH_CASTLE_BK, ZH_CASTLE_BQ } };

	for (int who = 0; who < 2; who++)
		for (int c = 0; c < 2; c++)
			if (p->castle & bit[who ? !p->side : p->side][c])
				whole(w, k + who * 2 + c, 1, 1);
}

static void
put_moves(const struct pw *w, const struct zh_move *last, int nlast, int k,
    bool flip)
{
	for (int i = 0; i < nlast && i < 8; i++) {
		if (last[i].to == ZH_NOSQ)
			continue;
		if (!(last[i].flags & ZH_MDROP))
			one(w, k + 2 * i, sq64(last[i].from, flip));
		one(w, k + 2 * i + 1, sq64(last[i].to, flip));
	}
}

/* The pieces of the side not to move that attack the mover's king. */
static void
put_checkers(const struct pw *w, const struct zh_pos *p, int k, bool flip)
{
	static const int rook[4] = { 16, -16, 1, -1 }, bish[4] = { 15, 17,
	    -15, -17 }, jump[8] = { 14, 18, 31, 33, -14, -18, -31, -33 };
	int ks = p->king[p->side], them = !p->side, d, s, x;

	if (ks == ZH_NOSQ || p->check == 1)
		return;
	for (d = 0; d < 8; d++) {
		const int step = d < 4 ? rook[d] : bish[d - 4];

		for (s = ks + step; p->sq[s] == ZH_EMPTY; s += step)
			;
		x = p->sq[s];
		if (x == ZH_OFF || ZH_COLOR(x) != them)
			continue;
		if (ZH_TYPE(x) == ZH_QUEEN || ZH_TYPE(x) ==
		    (d < 4 ? ZH_ROOK : ZH_BISHOP) || (s == ks + step &&
		    (ZH_TYPE(x) == ZH_KING || (ZH_TYPE(x) == ZH_PAWN &&
		    d >= 4 && (them == ZH_WHITE ? step < 0 : step > 0)))))
			one(w, k, sq64(s, flip));
	}
	for (d = 0; d < 8; d++) {
		x = p->sq[ks + jump[d]];
		if (x != ZH_OFF && x != ZH_EMPTY && ZH_COLOR(x) == them &&
		    ZH_TYPE(x) == ZH_KNIGHT)
			one(w, k, sq64(ks + jump[d], flip));
	}
}

/* Do the two sides have one bishop each, on squares of two colours? */
static bool
opposite_bishops(const struct zh_pos *p)
{
	uint64_t b = p->bb_type[ZH_BISHOP], dark = 0xaa55aa55aa55aa55ULL;

	if (p->count[ZH_WHITE][ZH_BISHOP] != 1 ||
	    p->count[ZH_BLACK][ZH_BISHOP] != 1)
		return false;
	return __builtin_popcountll(b & dark) == 1 &&
	    __builtin_popcountll(b & ~dark) == 1;
}

/* classical_chess v3's features after the pieces, from plane k (37):
   masks of each side, the checkerboard, material, opposite bishops,
   checkers, material count. */
static void
put_features(const struct pw *w, const struct zh_pos *p, int k, bool flip)
{
	int me = p->side, you = !me, t, r, f;
	uint64_t occ = p->bb_side[0] | p->bb_side[1];

	while (occ) {
		int b = __builtin_ctzll(occ), s = ZH_SQ(b & 7, b >> 3);

		occ &= occ - 1;
		one(w, k + (ZH_COLOR(p->sq[s]) != me), sq64(s, flip));
	}
	if (w->type <= ZH_PLANES_INT8) {
		static const unsigned char board[64] = {
		    0, 1, 0, 1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 0, 1, 0,
		    0, 1, 0, 1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 0, 1, 0,
		    0, 1, 0, 1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 0, 1, 0,
		    0, 1, 0, 1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 0, 1, 0 };

		memcpy(w->b + (k + 2) * 64, board, 64);
	} else
		for (r = 0; r < 8; r++)
			for (f = 0; f < 8; f++)
				if ((r + f) & 1)
					one(w, k + 2, r * 8 + f);
	for (t = ZH_PAWN; t <= ZH_QUEEN; t++) {
		whole(w, k + 2 + t, (long)p->count[me][t] -
		    (long)p->count[you][t], 8);
		whole(w, k + 9 + t, p->count[me][t], 8);
	}
	if (opposite_bishops(p))
		whole(w, k + 8, 1, 1);
	put_checkers(w, p, k + 9, flip);
}

/* Versions 1 and 2 (CrazyAra's default representation): 27 planes of
   the position, 7 constant ones, then (2) is960 and the last moves. */
static void
planes_v12(const struct pw *w, const struct zh_pos *p,
    const struct zh_move *last, int nlast, int occ, int version)
{
	bool flip = p->side == ZH_BLACK;

	put_pieces(w, p, 0, 24, flip);
	whole(w, 12, occ >= 1, 1);
	whole(w, 13, occ >= 2, 1);
	put_pockets(w, p, 14, 32);
	if (p->ep != ZH_NOSQ)
		one(w, 26, sq64(p->ep, flip));
	whole(w, 27, p->side == ZH_WHITE, 1);
	whole(w, 28, (long)p->fullmove, 500);
	put_castling(w, p, 29);
	whole(w, 33, (long)p->halfmove, 40);
	if (version == 2)
		put_moves(w, last, nlast, 35, flip);
}

/* Version 3: classical_chess v3's 52 planes, then the pockets and the
   promoted pieces. */
static void
planes_v3(const struct pw *w, const struct zh_pos *p,
    const struct zh_move *last, int nlast, int occ)
{
	bool flip = p->side == ZH_BLACK;

	put_pieces(w, p, 0, 62, flip);
	whole(w, 12, occ >= 1, 1);
	whole(w, 13, occ >= 2, 1);
	if (p->ep != ZH_NOSQ && zh_ep_legal(p))
		one(w, 14, sq64(p->ep, flip));
	put_castling(w, p, 15);
	whole(w, 19, (long)p->halfmove, 40);
	put_moves(w, last, nlast, 20, flip);
	put_features(w, p, 37, flip);
	put_pockets(w, p, 52, 32);
}

int
zh_planes(const struct zh_pos *p, const struct zh_move *last, int nlast,
    int occ, int version, int dtype, void *out)
{
	struct pw w = { out, dtype & 3, (dtype & ZH_PLANES_NORMALIZE) &&
	    (dtype & 3) >= ZH_PLANES_FLOAT16 };
	int n = zh_planes_count(version);

	if (n == 0 || !board8(p) || (dtype & ~(3 | ZH_PLANES_NORMALIZE)))
		return -1;
	memset(out, 0, (size_t)n * 64 * (size_t)type_size[w.type]);
	if (version == 3)
		planes_v3(&w, p, last, nlast, occ);
	else
		planes_v12(&w, p, last, nlast, occ, version);
	return n;
}
