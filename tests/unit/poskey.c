/*
 * poskey.c - zh_pos_key: positions that differ only in a pocket, a
 * promoted flag, the side to move, castling rights, a legal en-passant
 * square or the variant get different keys; the same position in any
 * dialect's FEN, with other counters or an en-passant square no pawn
 * can take, gets the same key; and a key played to equals the key read.
 */
#include <string.h>

#include "zh.h"
#include "check.h"

static struct zh_key
key(const char *fen, const char *variant)
{
	struct zh_pos p;
	struct zh_error e = { 0 };
	const struct zh_variant *v = zh_variant_find(variant);

	if (zh_fen_read(&p, fen, v, ZH_AUTO, 0, &e) != 0) {
		fprintf(stderr, "bad FEN %s: %s\n", fen, e.text);
		check_failed++;
		return (struct zh_key){ 0, 0 };
	}
	return zh_pos_key(&p);
}

static int
same(struct zh_key a, struct zh_key b)
{
	return a.hi == b.hi && a.lo == b.lo;
}

#define ZH_START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"

int
main(void)
{
	struct zh_key k0 = key(ZH_START "[] w KQkq - 0 1", "crazyhouse");
	struct zh_pos p;
	struct zh_move mv[ZH_MAXMOVES];
	int n, i, d;

	/* dialects and counters */
	CHECK(same(k0, key(ZH_START "/ w KQkq - 0 1", "crazyhouse")));
	CHECK(same(k0, key(ZH_START "[-] w KQkq - 5 9", "crazyhouse")));
	CHECK(same(k0, key(ZH_START " w KQkq - 0 1 -", "crazyhouse")));
	/* a pocket */
	CHECK(!same(k0, key(ZH_START "[P] w KQkq - 0 1", "crazyhouse")));
	CHECK(!same(key(ZH_START "[P] w KQkq - 0 1", "crazyhouse"),
	    key(ZH_START "[p] w KQkq - 0 1", "crazyhouse")));
	CHECK(!same(key(ZH_START "[PP] w KQkq - 0 1", "crazyhouse"),
	    key(ZH_START "[P] w KQkq - 0 1", "crazyhouse")));
	/* the side to move, castling */
	CHECK(!same(k0, key(ZH_START "[] b KQkq - 0 1", "crazyhouse")));
	CHECK(!same(k0, key(ZH_START "[] w Kkq - 0 1", "crazyhouse")));
	CHECK(!same(k0, key(ZH_START "[] w KQk - 0 1", "crazyhouse")));
	/* a promoted flag */
	CHECK(!same(key("4k3/8/8/8/8/8/8/Q3K3[] w - - 0 1", "crazyhouse"),
	    key("4k3/8/8/8/8/8/8/Q~3K3[] w - - 0 1", "crazyhouse")));
	/* ... but not where the rules never read it */
	CHECK(same(key("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", "chess"),
	    key("4k3/8/8/8/8/8/8/Q~3K3 w - - 0 1", "chess")));
	CHECK(same(key("4k3/8/8/8/8/8/8/Q3K3[] w - - 0 1", "loop"),
	    key("4k3/8/8/8/8/8/8/Q~3K3[] w - - 0 1", "loop")));
	/* en passant: legal, or not a capture anyone can make */
	CHECK(!same(key("4k3/8/8/3Pp3/8/8/8/4K3[] w - e6 0 2", "crazyhouse"),
	    key("4k3/8/8/3Pp3/8/8/8/4K3[] w - - 0 2", "crazyhouse")));
	CHECK(same(key("4k3/8/8/4p3/8/8/8/4K3[] w - e6 0 2", "crazyhouse"),
	    key("4k3/8/8/4p3/8/8/8/4K3[] w - - 0 2", "crazyhouse")));
	/* the variant */
	CHECK(!same(k0, key(ZH_START "[] w KQkq - 0 1", "loop")));
	CHECK(!same(key(ZH_START " w KQkq - 0 1", "chess"), k0));
	/* ten ranks */
	CHECK(!same(key("r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/"
	    "1NBQKCABN1/R8R[] w - - 0 1", "grandhouse"),
	    key("r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/"
	    "1NBQKCABN1/R8R[P] w - - 0 1", "grandhouse")));
	/* every move of a busy position: its key is the key of its FEN */
	if (zh_fen_read(&p, "r1bqk2r/ppp2ppp/2n5/3pP3/1b1Pn3/2N2N2/PP3PPP/"
	    "R1BQKB1R[Pp] w KQkq d6 0 8", zh_variant_default(), ZH_AUTO, 0,
	    &(struct zh_error){ 0 }) == 0) {
		n = zh_legal_moves(&p, mv);
		CHECK(n > 30);
		for (i = 0; i < n; i++) {
			struct zh_pos q = p;
			char fen[ZH_FENMAX];

			zh_make(&q, mv[i]);
			for (d = ZH_LICHESS; d < ZH_NDIALECTS; d++) {
				zh_fen_write(&q, d, fen, sizeof fen);
				CHECK(same(zh_pos_key(&q), key(fen, "crazyhouse")));
			}
			CHECK(!same(zh_pos_key(&q), zh_pos_key(&p)));
			CHECK(same(zh_pos_key_next(zh_pos_key(&p), &p, &q),
			    zh_pos_key(&q)));
		}
	} else
		CHECK(0);
	/* random games of every variant of one board: the key played
	   forward (from the position before, or with the move too) equals
	   the key of the position at every ply */
	{
		unsigned long seed = 12345;
		int v, g, ply, bad = 0;

		for (v = 0; v < zh_nvariants; v++) {
			if (zh_variants[v].boards > 1)
				continue;
			for (g = 0; g < 20; g++) {
				struct zh_key k, km;
				struct zh_move m;

				zh_pos_start(&p, &zh_variants[v]);
				k = km = zh_pos_key(&p);
				for (ply = 0; ply < 200; ply++) {
					struct zh_pos q = p;

					if ((n = zh_legal_moves(&p, mv)) == 0)
						break;
					seed = seed * 6364136223846793005UL +
					    1442695040888963407UL;
					m = mv[(seed >> 33) % (unsigned)n];
					zh_make(&q, m);
					k = zh_pos_key_next(k, &p, &q);
					km = zh_pos_key_move(km, &p, m, &q);
					bad += !same(k, zh_pos_key(&q));
					bad += !same(km, zh_pos_key(&q));
					p = q;
				}
			}
		}
		CHECK(bad == 0);
	}
	return check_report("poskey");
}
