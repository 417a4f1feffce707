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

static void
fill(float *plane, float x)
{
	for (int i = 0; i < 64; i++)
		plane[i] = x;
}

/* Pieces of me then you, P N B R Q K, 12 planes from 'out'; the
   promoted ones into promo[0] (mine), promo[1] when promo is set. */
static void
put_pieces(const struct zh_pos *p, float *out, float *promo, bool flip)
{
	for (int r = 0; r < 8; r++)
		for (int f = 0; f < 8; f++) {
			int s = ZH_SQ(f, r), x = p->sq[s], t = ZH_TYPE(x);
			int who = ZH_COLOR(x) != p->side, i = sq64(s, flip);

			if (x == ZH_EMPTY || t > ZH_KING)
				continue;
			out[(who * 6 + t - 1) * 64 + i] = 1;
			if (promo && (x & ZH_PROMOTED))
				promo[who * 64 + i] = 1;
		}
}

static void
put_pockets(const struct zh_pos *p, float *out)
{
	for (int who = 0; who < 2; who++)
		for (int t = ZH_PAWN; t <= ZH_QUEEN; t++)
			fill(out + (who * 5 + t - 1) * 64,
			    p->pocket[who ? !p->side : p->side][t]);
}

/* Castling rights of me (king's side, queen's side), then you. */
static void
put_castling(const struct zh_pos *p, float *out)
{
	static const unsigned char bit[2][2] = {
	    { ZH_CASTLE_WK, ZH_CASTLE_WQ }, { ZH_CASTLE_BK, ZH_CASTLE_BQ } };

	for (int who = 0; who < 2; who++)
		for (int k = 0; k < 2; k++)
			if (p->castle & bit[who ? !p->side : p->side][k])
				fill(out + (who * 2 + k) * 64, 1);
}

static void
put_moves(const struct zh_move *last, int nlast, float *out, bool flip)
{
	for (int i = 0; i < nlast && i < 8; i++) {
		if (last[i].to == ZH_NOSQ)
			continue;
		if (!(last[i].flags & ZH_MDROP))
			out[2 * i * 64 + sq64(last[i].from, flip)] = 1;
		out[(2 * i + 1) * 64 + sq64(last[i].to, flip)] = 1;
	}
}

/* The pieces of the side not to move that attack the mover's king. */
static void
put_checkers(const struct zh_pos *p, float *out, bool flip)
{
	static const int rook[4] = { 16, -16, 1, -1 }, bish[4] = { 15, 17,
	    -15, -17 }, jump[8] = { 14, 18, 31, 33, -14, -18, -31, -33 };
	int k = p->king[p->side], them = !p->side, d, s, x;

	if (k == ZH_NOSQ)
		return;
	for (d = 0; d < 8; d++) {
		const int step = d < 4 ? rook[d] : bish[d - 4];

		for (s = k + step; p->sq[s] == ZH_EMPTY; s += step)
			;
		x = p->sq[s];
		if (x == ZH_OFF || ZH_COLOR(x) != them)
			continue;
		if (ZH_TYPE(x) == ZH_QUEEN || ZH_TYPE(x) ==
		    (d < 4 ? ZH_ROOK : ZH_BISHOP) || (s == k + step &&
		    (ZH_TYPE(x) == ZH_KING || (ZH_TYPE(x) == ZH_PAWN &&
		    d >= 4 && (them == ZH_WHITE ? step < 0 : step > 0)))))
			out[sq64(s, flip)] = 1;
	}
	for (d = 0; d < 8; d++) {
		x = p->sq[k + jump[d]];
		if (x != ZH_OFF && x != ZH_EMPTY && ZH_COLOR(x) == them &&
		    ZH_TYPE(x) == ZH_KNIGHT)
			out[sq64(k + jump[d], flip)] = 1;
	}
}

/* classical_chess v3's features after the pieces: masks of each side,
   the checkerboard, material, opposite bishops, checkers (planes 37-51
   of version 3). */
static void
put_features(const struct zh_pos *p, float *out, bool flip)
{
	int me = p->side, you = !me, t, s, b[2] = { -1, -1 };

	for (int r = 0; r < 8; r++)
		for (int f = 0; f < 8; f++) {
			int x = p->sq[ZH_SQ(f, r)];

			if (x != ZH_EMPTY && x != ZH_OFF)
				out[(ZH_COLOR(x) != me) * 64 +
				    sq64(ZH_SQ(f, r), flip)] = 1;
			out[128 + r * 8 + f] = (float)((r + f) & 1);
		}
	for (t = ZH_PAWN; t <= ZH_QUEEN; t++) {
		fill(out + (2 + t) * 64,
		    (float)p->count[me][t] - (float)p->count[you][t]);
		fill(out + (9 + t) * 64, p->count[me][t]);
	}
	if (p->count[ZH_WHITE][ZH_BISHOP] == 1 &&
	    p->count[ZH_BLACK][ZH_BISHOP] == 1) {
		for (s = 0; s < ZH_NSQ; s++)
			if (p->sq[s] != ZH_OFF &&
			    ZH_TYPE(p->sq[s]) == ZH_BISHOP)
				b[ZH_COLOR(p->sq[s])] = s;
		if (b[0] >= 0 && b[1] >= 0 && ((ZH_FILE(b[0]) + ZH_RANK(b[0]) +
		    ZH_FILE(b[1]) + ZH_RANK(b[1])) & 1))
			fill(out + 8 * 64, 1);
	}
	put_checkers(p, out + 9 * 64, flip);
}

/* Versions 1 and 2 (CrazyAra's default representation): 27 planes of
   the position, 7 constant ones, then (2) is960 and the last moves. */
static void
planes_v12(const struct zh_pos *p, const struct zh_move *last, int nlast,
    int occ, int version, float *out)
{
	bool flip = p->side == ZH_BLACK;

	put_pieces(p, out, out + 24 * 64, flip);
	if (occ >= 1)
		fill(out + 12 * 64, 1);
	if (occ >= 2)
		fill(out + 13 * 64, 1);
	put_pockets(p, out + 14 * 64);
	if (p->ep != ZH_NOSQ)
		out[26 * 64 + sq64(p->ep, flip)] = 1;
	if (p->side == ZH_WHITE)
		fill(out + 27 * 64, 1);
	fill(out + 28 * 64, (float)p->fullmove);
	put_castling(p, out + 29 * 64);
	fill(out + 33 * 64, (float)p->halfmove);
	if (version == 2)
		put_moves(last, nlast, out + 35 * 64, flip);
}

/* Version 3: classical_chess v3's 52 planes, then the pockets and the
   promoted pieces. */
static void
planes_v3(const struct zh_pos *p, const struct zh_move *last, int nlast,
    int occ, float *out)
{
	bool flip = p->side == ZH_BLACK;

	put_pieces(p, out, out + 62 * 64, flip);
	if (occ >= 1)
		fill(out + 12 * 64, 1);
	if (occ >= 2)
		fill(out + 13 * 64, 1);
	if (p->ep != ZH_NOSQ && zh_ep_legal(p))
		out[14 * 64 + sq64(p->ep, flip)] = 1;
	put_castling(p, out + 15 * 64);
	fill(out + 19 * 64, (float)p->halfmove);
	put_moves(last, nlast, out + 20 * 64, flip);
	put_features(p, out + 37 * 64, flip);
	put_pockets(p, out + 52 * 64);
}

int
zh_planes_fill(const struct zh_pos *p, const struct zh_move *last,
    int nlast, int occ, int version, float *out)
{
	int n = zh_planes_count(version);

	if (n == 0 || !board8(p))
		return -1;
	memset(out, 0, (size_t)n * 64 * sizeof *out);
	if (version == 3)
		planes_v3(p, last, nlast, occ, out);
	else
		planes_v12(p, last, nlast, occ, version, out);
	return n;
}

int
zh_planes_fill_i8(const struct zh_pos *p, const struct zh_move *last,
    int nlast, int occ, int version, signed char *out, bool is_unsigned)
{
	float f[64 * 64];
	int n = zh_planes_fill(p, last, nlast, occ, version, f), i;
	float lo = is_unsigned ? 0 : -128, hi = is_unsigned ? 255 : 127;

	for (i = 0; i < n * 64; i++) {
		float x = f[i] < lo ? lo : f[i] > hi ? hi : f[i];

		out[i] = is_unsigned ? (signed char)(unsigned char)x :
		    (signed char)x;
	}
	return n;
}
