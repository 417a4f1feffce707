/* fuzz_san.c - libFuzzer target: SAN and UCI readers on a few positions;
 * every move read is written back and must read to the same move. */
#include <stdlib.h>
#include <string.h>

#include "zh.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static const char *const fens[][2] = {
	{ "crazyhouse", "r1b3nr/pppp1kpp/2n5/2b1p3/4P3/2N5/PPPP1PPP/R1B1K1NR/QPbq w KQ - 0 7" },
	{ "crazyhouse", "4k3/1Q~6/8/8/4b3/8/Kpp5/8/ b - - 0 1" },
	{ "chessgi", "5Rp1/2p1Nb2/2B4k/6p1/8/P3PP2/1PPqR3/3R1BKn[QBNPPPPrrrnpp] b - - 1 48" },
	{ "grandhouse", "r8r/1nbqkcabn1/ppppppp1pp/10/9P/10/10/PPPPPPPPp1/1NBQKC2N1/R5RAB1[p] b - - 0 5" },
	{ "chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" },
};

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
	return 0;
}
