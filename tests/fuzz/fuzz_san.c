/* fuzz_san.c - libFuzzer target: SAN and UCI readers on a few positions;
 * every move read is written back and must read to the same move, and
 * what the one-step path of 8x8 boards (zh__play_fast) plays, the
 * general reader reads, and zh_make makes, the same. */
#include <stdlib.h>
#include <string.h>

#include "zh_int.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static const char *const fens[][2] = {
	{ "crazyhouse", "r1b3nr/pppp1kpp/2n5/2b1p3/4P3/2N5/PPPP1PPP/R1B1K1NR/QPbq w KQ - 0 7" },
	{ "crazyhouse", "4k3/1Q~6/8/8/4b3/8/Kpp5/8/ b - - 0 1" },
	{ "chessgi", "5Rp1/2p1Nb2/2B4k/6p1/8/P3PP2/1PPqR3/3R1BKn[QBNPPPPrrrnpp] b - - 1 48" },
	{ "grandhouse", "r8r/1nbqkcabn1/ppppppp1pp/10/9P/10/10/PPPPPPPPp1/1NBQKC2N1/R5RAB1[p] b - - 0 5" },
	{ "chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" },
	{ "crazyhouse", "r2q1r1k/2p1ppb1/p2p2pp/3P1p2/B6B/2N2NPp/1PP2P1K/3Q3q~/NNBRpr w - - 0 26" },
	{ "loop", "qr2kbn1/1q1p2pp/B2p2N1/PpR5/b1pB~N1P1/5Pp1/2rB1p1P/1b~b~2KNR[P] w - - 0 57" },
	{ "crazyhouse", "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R/ w KQkq - 0 5" },
};

static void
fast(const struct zh_pos *p, const char *s, size_t n)
{
	struct zh_pos c = *p, d = *p;
	struct zh_move m, g;
	char san[ZH_MOVEMAX], uci[ZH_MOVEMAX], want[ZH_MOVEMAX];

	if (!zh__play_fast(&c, s, n, &m, san, uci)) {
		if (memcmp(c.sq, p->sq, sizeof c.sq) != 0 ||
		    memcmp(c.bb_side, p->bb_side, sizeof c.bb_side) != 0 ||
		    c.side != p->side)
			abort();	/* refused, but p changed */
		return;
	}
	if (zh_san_read(p, s, n, &g, NULL) != 0 || !zh_move_eq(m, g) ||
	    m.flags != g.flags)
		abort();
	zh_make(&d, g);
	if (memcmp(c.sq, d.sq, sizeof c.sq) != 0 ||
	    memcmp(c.pocket, d.pocket, sizeof c.pocket) != 0 ||
	    memcmp(c.bb_side, d.bb_side, sizeof c.bb_side) != 0 ||
	    memcmp(c.bb_type, d.bb_type, sizeof c.bb_type) != 0 ||
	    c.check != d.check || c.ep != d.ep || c.castle != d.castle ||
	    c.halfmove != d.halfmove || c.fullmove != d.fullmove)
		abort();
	zh__san_body(p, g, ZH_LICHESS, want);
	if (strcmp(san, want) != 0)
		abort();
	zh_uci_write(p, g, want);
	if (strcmp(uci, want) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct zh_pos p;
	struct zh_move m, m2;
	char san[ZH_MOVEMAX];
	size_t i = size > 0 ? data[0] % (sizeof fens / sizeof fens[0]) : 0;

	if (zh_fen_read(&p, fens[i][1], zh_variant_find(fens[i][0]), ZH_AUTO,
	    0, NULL) != 0)
		abort();
	if (size == 0)
		return 0;
	if (zh_san_read(&p, (const char *)data + 1, size - 1, &m, NULL) == 0) {
		zh_san_write(&p, m, ZH_LICHESS, san);
		if (zh_san_read(&p, san, strlen(san), &m2, NULL) != 0 ||
		    !zh_move_eq(m, m2))
			abort();
	}
	(void)zh_uci_read(&p, (const char *)data + 1, size - 1, &m, NULL);
	fast(&p, (const char *)data + 1, size - 1);
	return 0;
}
