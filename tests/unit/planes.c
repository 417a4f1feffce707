/* planes.c - libzh's training tensors (lib/planes.c) on their own, beside
 * tests/planes.bats's comparison with CrazyAra: the policy indices of
 * every move of many positions are one-to-one onto 0..2271 and the map's
 * onto its planes, a move and its mirror image (the same position with
 * the colours swapped) share an index, the dtypes hold the same values,
 * and what has no layout says so. */
#include <string.h>

#include "check.h"
#include "zh.h"

static const char *const fens[] = {
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
	"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Pp] w KQkq - 2 3",
	"4k3/1P6/8/8/8/8/6p1/4K3[QRBNPqrbnp] w - - 0 40",
	"4k3/1P6/8/8/8/8/6p1/4K3[QRBNPqrbnp] b - - 0 40",
	"r3k2r/8/8/3pP3/8/8/8/R3K2R[] w KQkq d6 0 9",
};

/* Every label (drops included) is some move's index, each once. */
static void
labels_onto(void)
{
	static unsigned char hit[ZH_POLICY_LABELS], mhit[ZH_POLICY_MAP];
	struct zh_pos p;
	struct zh_move m;
	int f, r, f2, r2, k, n = 0, t;

	zh_fen_read(&p, "8/8/8/8/8/8/8/8[] w - - 0 1", zh_variant_default(),
	    ZH_AUTO, 0, NULL);
	for (f = 0; f < 8; f++)
		for (r = 0; r < 8; r++)
			for (f2 = 0; f2 < 8; f2++)
				for (r2 = 0; r2 < 8; r2++)
					for (t = 0; t <= ZH_QUEEN; t++) {
						m = (struct zh_move){ ZH_SQ(f, r),
						    ZH_SQ(f2, r2), (unsigned char)t,
						    t >= ZH_KNIGHT ? ZH_MPROMO : 0 };
						if (t == ZH_PAWN)
							continue;
						if ((k = zh_policy_index(&p, m)) >= 0) {
							CHECK(!hit[k]);
							hit[k] = 1;
							n++;
						}
						if ((k = zh_policy_map_index(&p, m)) >= 0) {
							CHECK(!mhit[k]);
							mhit[k] = 1;
						}
					}
	for (r = 0; r < 8; r++)
		for (f = 0; f < 8; f++)
			for (t = ZH_PAWN; t <= ZH_KING; t++) {
				m = (struct zh_move){ ZH_NOSQ, ZH_SQ(f, r),
				    (unsigned char)t, ZH_MDROP };
				k = zh_policy_index(&p, m);
				CHECK((k >= 0) == (t != ZH_KING &&
				    (t != ZH_PAWN || (r > 0 && r < 7))));
				if (k >= 0) {
					CHECK(!hit[k]);
					hit[k] = 1;
					n++;
				}
			}
	CHECK(n == ZH_POLICY_LABELS);
}

/* The legal moves of fen: distinct indices, a mask of as many ones, the
   four dtypes the same values, and the mirror image's indices equal. */
static void
position(const char *fen)
{
	static float f32[ZH_PLANES_MAX * 64];
	static signed char i8[ZH_PLANES_MAX * 64];
	static unsigned char mask[ZH_POLICY_MAP], u8[ZH_PLANES_MAX * 64];
	static uint16_t f16[ZH_PLANES_MAX * 64];
	struct zh_move mv[ZH_MAXMOVES];
	struct zh_pos p;
	int n, i, k, ones, v;

	CHECK(zh_fen_read(&p, fen, zh_variant_default(), ZH_AUTO, 0, NULL) == 0);
	n = zh_legal_moves(&p, mv);
	CHECK(zh_policy_mask(&p, mask, false) == n);
	for (ones = 0, k = 0; k < ZH_POLICY_LABELS; k++)
		ones += mask[k];
	CHECK(ones == n);
	CHECK(zh_policy_mask(&p, mask, true) == n);
	for (ones = 0, k = 0; k < ZH_POLICY_MAP; k++)
		ones += mask[k];
	CHECK(ones == n);
	for (i = 0; i < n; i++)
		CHECK(zh_policy_index(&p, mv[i]) >= 0);
	for (v = 1; v <= 3; v++) {
		int np = zh_planes(&p, mv, n < 8 ? n : 8, 1, v, ZH_PLANES_FLOAT32,
		    f32);

		CHECK(np == zh_planes_count(v));
		CHECK(zh_planes(&p, mv, 2, 1, v, ZH_PLANES_INT8, i8) == np);
		CHECK(zh_planes(&p, mv, 2, 1, v, ZH_PLANES_FLOAT16, f16) == np);
		if (v < 3)
			CHECK(zh_planes(&p, mv, 2, 1, v, ZH_PLANES_UINT8, u8) == np);
		zh_planes(&p, mv, 2, 1, v, ZH_PLANES_FLOAT32, f32);
		for (i = 0; i < np * 64; i++) {
			CHECK(f32[i] == i8[i]);
			CHECK(v == 3 || f32[i] == u8[i]);
			CHECK(f16[i] == 0 ? f32[i] == 0 : f16[i] == 0x3c00 ?
			    f32[i] == 1 : f32[i] != 0 && f32[i] != 1);
		}
	}
	CHECK(zh_planes(&p, NULL, 0, 0, 4, ZH_PLANES_FLOAT32, f32) == -1);
}

int
main(void)
{
	struct zh_pos p;
	unsigned char m[ZH_POLICY_MAP];
	float f[ZH_PLANES_MAX * 64];
	size_t i;

	labels_onto();
	for (i = 0; i < sizeof fens / sizeof *fens; i++)
		position(fens[i]);
	/* the same position, colours swapped and board turned: one index */
	{
		struct zh_pos a, b;
		struct zh_move ma[ZH_MAXMOVES], mb[ZH_MAXMOVES];
		int na, nb, j;

		zh_fen_read(&a, fens[2], zh_variant_default(), ZH_AUTO, 0, NULL);
		zh_fen_read(&b, "4k3/6P1/8/8/8/8/1p6/4K3[QRBNPqrbnp] b - - 0 40",
		    zh_variant_default(), ZH_AUTO, 0, NULL);
		na = zh_legal_moves(&a, ma);
		nb = zh_legal_moves(&b, mb);
		CHECK(na == nb);
		for (i = 0; i < (size_t)na; i++) {
			struct zh_move t = ma[i];

			t.from = t.from == ZH_NOSQ ? ZH_NOSQ :
			    ZH_SQ(ZH_FILE(t.from), 7 - ZH_RANK(t.from));
			t.to = ZH_SQ(ZH_FILE(t.to), 7 - ZH_RANK(t.to));
			for (j = 0; j < nb; j++)
				if (zh_move_eq(t, mb[j]))
					break;
			CHECK(j < nb && zh_policy_index(&a, ma[i]) ==
			    zh_policy_index(&b, mb[j]));
		}
	}
	zh_fen_read(&p, "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R[] w - - 0 1",
	    zh_variant_find("grandhouse"), ZH_AUTO, 0, NULL);
	CHECK(zh_planes(&p, NULL, 0, 0, 3, ZH_PLANES_FLOAT32, f) == -1);
	CHECK(zh_policy_mask(&p, m, false) == -1);
	return check_report("planes");
}
