/* rules.c - unit tests of libzh's rules core: the variant table, FEN
 * round trips, SAN in and out, against results from peers' test suites
 * (shared/corpus/fen/expected-results-from-tests.txt). */
#include <string.h>

#include "check.h"
#include "zh.h"

static struct zh_pos
fen(const char *s, const char *variant)
{
	struct zh_pos p;
	struct zh_error err = { 0 };

	if (zh_fen_read(&p, s, zh_variant_find(variant), ZH_AUTO, 0, &err) != 0) {
		fprintf(stderr, "FEN %s: %s\n", s, err.text);
		zh_pos_start(&p, NULL);
		check_failed++;
	}
	return p;
}

/* Play SAN moves separated by spaces; returns 0 if all were legal. */
static int
play(struct zh_pos *p, const char *moves)
{
	char buf[4096], *tok, *save;

	snprintf(buf, sizeof buf, "%s", moves);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		struct zh_move m;
		struct zh_error err = { 0 };

		if (zh_san_read(p, tok, strlen(tok), &m, &err) != 0) {
			fprintf(stderr, "move %s: %s\n", tok, err.text);
			return -1;
		}
		zh_make(p, m);
	}
	return 0;
}

static int
fen_is(const struct zh_pos *p, int d, const char *want)
{
	char got[ZH_FENMAX];

	zh_fen_write(p, d, got, sizeof got);
	if (strcmp(got, want) != 0) {
		fprintf(stderr, "got  %s\nwant %s\n", got, want);
		return 0;
	}
	return 1;
}

static void
test_table(void)
{
	int i;

	for (i = 0; i < zh_nvariants; i++) {
		const struct zh_variant *v = &zh_variants[i];
		struct zh_pos p;
		struct zh_error err = { 0 };
		char out[ZH_FENMAX];

		CHECK(zh_fen_read(&p, v->start, v, ZH_AUTO, 0, &err) == 0);
		CHECK(zh_variant_find(v->name) == v);
		CHECK(zh_variant_find(v->tag) == v);
		/* The table's start FEN is written back unchanged (fairy form). */
		zh_fen_write(&p, ZH_FAIRY, out, sizeof out);
		CHECK(strcmp(out, v->start) == 0);
	}
	CHECK(zh_variant_find("ZH") == zh_variant_find("crazyhouse"));
	CHECK(zh_variant_find("nosuch") == NULL);
}

static void
test_dialects(void)
{
	struct zh_pos p = fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1", "crazyhouse");

	CHECK(fen_is(&p, ZH_LICHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1"));
	CHECK(fen_is(&p, ZH_XBOARD, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-] w KQkq - 0 1"));
	CHECK(fen_is(&p, ZH_FAIRY, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"));
	CHECK(fen_is(&p, ZH_CHESSCOM, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -"));
	/* chess.com pocket and promoted square fields (Wikipedia example). */
	p = fen("r2q1r1k/2p1ppb1/p2p2pp/3P1p2/B6B/2N2NPp/1PP2P1K/3Q3q w - - 0 26 NNBRpr h1", "crazyhouse");
	CHECK(fen_is(&p, ZH_LICHESS, "r2q1r1k/2p1ppb1/p2p2pp/3P1p2/B6B/2N2NPp/1PP2P1K/3Q3q~/NNBRpr w - - 0 26"));
	CHECK(fen_is(&p, ZH_CHESSCOM, "r2q1r1k/2p1ppb1/p2p2pp/3P1p2/B6B/2N2NPp/1PP2P1K/3Q3q w - - 0 26 RBNNrp h1"));
	CHECK(fen_is(&p, ZH_FAIRY, "r2q1r1k/2p1ppb1/p2p2pp/3P1p2/B6B/2N2NPp/1PP2P1K/3Q3q~[RBNNrp] w - - 0 26"));
	/* loop: Fairy-Stockfish writes no '~'. */
	p = fen("1Q~2k3/8/8/8/8/8/8/4K3[] b - - 0 1", "loop");
	CHECK(fen_is(&p, ZH_FAIRY, "1Q2k3/8/8/8/8/8/8/4K3[] b - - 0 1"));
	CHECK(fen_is(&p, ZH_LICHESS, "1Q~2k3/8/8/8/8/8/8/4K3/ b - - 0 1"));
	/* ffish: slash pocket normalised to brackets. */
	p = fen("rnbqkb1r/pp3ppp/5p2/2pp4/8/5N2/PPPP1PPP/RNBQKB1R/Np w KQkq - 0 5", "crazyhouse");
	CHECK(fen_is(&p, ZH_FAIRY, "rnbqkb1r/pp3ppp/5p2/2pp4/8/5N2/PPPP1PPP/RNBQKB1R[Np] w KQkq - 0 5"));
	/* Cute Chess counts in a pocket; the '-' empty pocket. */
	p = fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[N3Pbp] w KQkq - 0 1", "crazyhouse");
	CHECK(p.pocket[ZH_WHITE][ZH_PAWN] == 3 && p.pocket[ZH_BLACK][ZH_BISHOP] == 1);
}

static void
test_san(void)
{
	struct zh_pos p;
	struct zh_move m;
	char san[ZH_MOVEMAX];
	struct zh_error err = { 0 };

	/* chessops: a game with pawn drops written "@f3". */
	zh_pos_start(&p, NULL);
	CHECK(play(&p, "d4 d5 Nc3 Bf5 e3 e6 Bd3 Bg6 Nf3 Bd6 O-O Ne7 g3 Nbc6 Re1 O-O Ne2 e5 dxe5 Nxe5 Nxe5 Bxe5 f4 N@f3+ Kg2 Nxe1+ Qxe1 Bd6 @f3 @e4 fxe4 dxe4 Bc4 @f3+ Kf2 fxe2 Qxe2 N@h3+ Kg2 R@f2+ Qxf2 Nxf2 Kxf2 Q@f3+ Ke1 Bxf4 gxf4 Qdd1#") == 0);
	CHECK(fen_is(&p, ZH_XBOARD, "r4rk1/ppp1nppp/6b1/8/2B1pP2/4Pq2/PPP4P/R1BqK3[PPNNNBRp] w - - 1 25"));
	CHECK(zh_status(&p) == ZH_CHECKMATE);
	/* python-chess: pawns to the pocket, then a pawn drop. */
	p = fen("r2q1rk1/ppp2pp1/1bnp3p/3Bp3/4P1b1/2PPPN2/PP4PP/R2Q1RK1/NBn w - - 22 12", "crazyhouse");
	CHECK(play(&p, "d4 exd4 cxd4") == 0);
	CHECK(fen_is(&p, ZH_FAIRY, "r2q1rk1/ppp2pp1/1bnp3p/3B4/3PP1b1/4PN2/PP4PP/R2Q1RK1[BNPnp] b - - 0 13"));
	CHECK(zh_san_read(&p, "@e6", 3, &m, &err) == 0);
	CHECK(zh_san_write(&p, m, ZH_CHESSCOM, san) == 3 && strcmp(san, "@e6") == 0);
	CHECK(zh_san_write(&p, m, ZH_LICHESS, san) == 4 && strcmp(san, "P@e6") == 0);
	zh_make(&p, m);
	/* The pawn drop resets the halfmove clock (python-chess says 1). */
	CHECK(fen_is(&p, ZH_FAIRY, "r2q1rk1/ppp2pp1/1bnpp2p/3B4/3PP1b1/4PN2/PP4PP/R2Q1RK1[BNPn] w - - 0 14"));
	/* Capture-promotion: '~' and the captured rook to the pocket. */
	p = fen("4k3/8/8/8/8/8/1p6/2R1K3 b - - 0 1", "crazyhouse");
	CHECK(play(&p, "bxc1=Q") == 0);
	CHECK(fen_is(&p, ZH_FAIRY, "4k3/8/8/8/8/8/8/2q~1K3[r] w - - 0 2"));
	/* ...and capturing it gives a pawn in crazyhouse, a queen in loop. */
	p = fen("4k3/8/8/8/8/8/3K4/2q~5[] w - - 0 2", "crazyhouse");
	CHECK(play(&p, "Kxc1") == 0 && p.pocket[ZH_WHITE][ZH_PAWN] == 1);
	p = fen("4k3/8/8/8/8/8/3K4/2q~5[] w - - 0 2", "loop");
	CHECK(play(&p, "Kxc1") == 0 && p.pocket[ZH_WHITE][ZH_QUEEN] == 1);
	/* En passant puts the pawn in the pocket. */
	p = fen("rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR[] w KQkq d6 0 3", "crazyhouse");
	CHECK(play(&p, "exd6") == 0);
	CHECK(fen_is(&p, ZH_FAIRY, "rnbqkb1r/ppp1pppp/3P1n2/8/8/8/PPPP1PPP/RNBQKBNR[P] b KQkq - 0 3"));
	/* chessops makeSanVariation: N@a3+ Kb2 R@b1#. */
	p = fen("r4b1N~/1ppk1P2/p1b5/6p1/8/1PBPPq2/P1PR1P2/1K4N1/PNBRPPPrqnn b - - 71 36", "crazyhouse");
	CHECK(zh_uci_read(&p, "N@a3", 4, &m, &err) == 0);
	zh_san_write(&p, m, ZH_LICHESS, san);
	CHECK(strcmp(san, "N@a3+") == 0);
	zh_make(&p, m);
	CHECK(zh_uci_read(&p, "b1b2", 4, &m, &err) == 0);
	zh_san_write(&p, m, ZH_LICHESS, san);
	CHECK(strcmp(san, "Kb2") == 0);
	zh_make(&p, m);
	CHECK(zh_uci_read(&p, "R@b1", 4, &m, &err) == 0);
	zh_san_write(&p, m, ZH_LICHESS, san);
	CHECK(strcmp(san, "R@b1#") == 0);
	/* Errors say why. */
	zh_pos_start(&p, NULL);
	zh_error_clear(&err);
	CHECK(zh_san_read(&p, "N@f3", 4, &m, &err) != 0 && strstr(err.text, "no knight in White's pocket") != NULL);
	p = fen("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", "crazyhouse");
	zh_error_clear(&err);
	CHECK(zh_san_read(&p, "P@d8", 4, &m, &err) != 0 && strstr(err.text, "8th rank") != NULL);
	p = fen("4k3/8/8/8/8/5N2/8/1N2K3[] w - - 0 1", "crazyhouse");
	zh_error_clear(&err);
	CHECK(zh_san_read(&p, "Nd2", 3, &m, &err) != 0 && err.code == ZH_EAMBIG &&
	    strstr(err.text, "b1 and f3") != NULL);
	/* Grand: two-digit ranks and the chancellor. */
	p = fen("r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1", "grand");
	CHECK(play(&p, "e5") == 0);
	CHECK(zh_uci_read(&p, "a8a7", 4, &m, &err) == 0);
}

int
main(void)
{
	test_table();
	test_dialects();
	test_san();
	return check_report("rules");
}
