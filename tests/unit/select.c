/*
 * select.c - the selection stage of libzh (lib/select.c): the tests'
 * parsers and their columns, each comparison kind on games built here
 * (the expected answers follow from the rules libzh(3) states), game
 * tests on games whose plies, endings and positions are known, the
 * position search against every position of real games (found by
 * walking them with zh_lines_walk and written in another dialect), the
 * game key across dialects (games converted by bin/zhpgn), and the tag
 * filter against awk's count over the same file.  Run from the top of
 * the tree after `make all`.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "zh.h"

/* ==================== helpers ==================== */

/* Read the first game of text into *g (reader in *rp; close it). */
static struct zh_pgn_reader *
game_of(const char *text, struct zh_game *g, char **bufp)
{
	size_t n = strlen(text);
	char *buf = calloc(n + ZH_PGN_PAD, 1);
	struct zh_pgn_reader *r;

	memcpy(buf, text, n);
	r = zh_pgn_mem(NULL, buf, n, NULL, 0, 0);
	CHECK(r != NULL && zh_pgn_next(r, g) == 1);
	*bufp = buf;
	return r;
}

/* Does a selection of one test (kind, text) pass the game's tags? */
static int
tagtest(const char *pgn, int kind, const char *text)
{
	struct zh_select *s = zh_select_new();
	struct zh_error e = { 0 };
	struct zh_game g;
	char *buf;
	struct zh_pgn_reader *r = game_of(pgn, &g, &buf);
	int rc;

	if (zh_select_add(s, kind, text, &e) != 0) {
		fprintf(stderr, "'%s': %ld: %s\n", text, e.col, e.text);
		rc = -1;
	} else {
		rc = zh_select_tags(s, &g) == 0;
	}
	zh_select_free(s);
	zh_pgn_close(r);
	free(buf);
	return rc;
}

/* The column and text of the error of adding (kind, text). */
static bool
err_is(int kind, const char *text, long col, const char *msg)
{
	struct zh_select *s = zh_select_new();
	struct zh_error e = { 0 };
	bool ok;

	ok = zh_select_add(s, kind, text, &e) == -1 && e.col == col &&
	    strstr(e.text, msg) != NULL && zh_select_count(s) == 0;
	if (!ok)
		fprintf(stderr, "'%s': got %ld: %s; want %ld: %s\n", text,
		    e.col, e.text, col, msg);
	zh_select_free(s);
	return ok;
}

/* ==================== parsers ==================== */

static void
parsers(void)
{
	const char *fen = "  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1";

	/* the example: '>' is the 10th character */
	CHECK(err_is(ZH_SEL_TAG, "WhiteElo >== 2000", 10,
	    "unknown operator '>=='"));
	CHECK(err_is(ZH_SEL_TAG, "WhiteElo 2000", 10, "expected an operator"));
	CHECK(err_is(ZH_SEL_TAG, "WhiteElo =< 2000", 10,
	    "unknown operator '=<'"));
	CHECK(err_is(ZH_SEL_TAG, "  >= 5", 3, "expected a tag name"));
	CHECK(err_is(ZH_SEL_TAG, "Date >= 2021.13.01", 9, "not a date"));
	CHECK(err_is(ZH_SEL_TAG, "Date < 21", 8, "not a date"));
	CHECK(err_is(ZH_SEL_TAG, "White ~ (ab", 9, "regex: "));
	CHECK(err_is(ZH_SEL_TAG, "TimeControl.foo > 3", 12, "unknown tag part"));
	CHECK(err_is(ZH_SEL_TAG, "TimeControl >= abc", 16,
	    "not a time control"));
	CHECK(err_is(ZH_SEL_TAG, "TimeControl.inc >= 2+1", 20,
	    "not a number"));
	CHECK(err_is(ZH_SEL_TAG, "WhiteElo >=", 12, "missing value"));
	CHECK(err_is(ZH_SEL_PLAYER, "<>x", 1, "unknown operator '<>'"));
	CHECK(err_is(ZH_SEL_PLIES, "10-5", 1, "empty range"));
	CHECK(err_is(ZH_SEL_PLIES, "x", 1, "expected a number"));
	CHECK(err_is(ZH_SEL_PLIES, "10-20x", 6, "unexpected 'x'"));
	CHECK(err_is(ZH_SEL_PLIES, "-", 2, "expected a number"));
	CHECK(err_is(ZH_SEL_VARIANT, " foo", 2, "unknown variant 'foo'"));
	CHECK(err_is(ZH_SEL_ENDING, "mate", 1, "unknown ending"));
	CHECK(err_is(ZH_SEL_VALID, "yes", 1, "expected 'valid'"));
	/* a FEN error: zh_fen_read's column, moved by the blanks before */
	CHECK(err_is(ZH_SEL_POSITION, fen, (long)(strchr(fen, 'X') - fen) + 1,
	    ""));
	CHECK(err_is(ZH_SEL_POSITION, "8/8/8 w - - 0 1", 6, "3 ranks"));

	/* what was given, in order, and its kind */
	{
		struct zh_select *s = zh_select_new();

		CHECK(zh_select_add(s, ZH_SEL_TAG, "WhiteElo >= 2000", NULL) == 0);
		CHECK(zh_select_add(s, ZH_SEL_PLIES, "20-", NULL) == 0);
		CHECK(zh_select_count(s) == 2);
		CHECK(strcmp(zh_select_text(s, 1), "WhiteElo >= 2000") == 0);
		CHECK(zh_select_kind(s, 2) == ZH_SEL_PLIES);
		CHECK(zh_select_text(s, 3) == NULL);
		CHECK(zh_select_needs_replay(s));
		zh_select_free(s);
		s = zh_select_new();
		CHECK(zh_select_add(s, ZH_SEL_PLAYER, "Alice", NULL) == 0);
		CHECK(!zh_select_needs_replay(s));
		zh_select_free(s);
	}
}

/* ==================== tag tests ==================== */

static const char tagged[] =
    "[Event \"Rated Blitz game\"]\n[White \"Alice\"]\n[Black \"Bob\"]\n"
    "[WhiteElo \"2100\"]\n[BlackElo \"?\"]\n[Date \"2021.??.??\"]\n"
    "[UTCDate \"2020.06.15\"]\n[TimeControl \"180+2\"]\n"
    "[Result \"1-0\"]\n\n1. e4 e5 1-0\n";

static void
tags(void)
{
	const char *p = tagged;

	/* numbers as numbers; "?" is no number */
	CHECK(tagtest(p, ZH_SEL_TAG, "WhiteElo >= 2000") == 1);
	CHECK(tagtest(p, ZH_SEL_TAG, "WhiteElo >= 300") == 1);	/* not text */
	CHECK(tagtest(p, ZH_SEL_TAG, "WhiteElo > 2100") == 0);
	CHECK(tagtest(p, ZH_SEL_TAG, "WhiteElo = 2100.0") == 1);
	CHECK(tagtest(p, ZH_SEL_TAG, "WhiteElo == \"2100\"") == 1);
	CHECK(tagtest(p, ZH_SEL_TAG, "BlackElo >= 0") == 0);
	CHECK(tagtest(p, ZH_SEL_TAG, "BlackElo < 99999") == 0);
	CHECK(tagtest(p, ZH_SEL_TAG, "BlackElo != 2000") == 1);
	CHECK(tagtest(p, ZH_SEL_TAG, "BlackElo = ?") == 1);
	/* text in byte order */
	CHECK(tagtest(p, ZH_SEL_TAG, "White < Bob") == 1);
	CHECK(tagtest(p, ZH_SEL_TAG, "White >= alice") == 0);
	CHECK(tagtest(p, ZH_SEL_TAG, "White = alice") == 0);
	/* a missing tag passes only != and !~ */
	CHECK(tagtest(p, ZH_SEL_TAG, "Annotator = x") == 0);
	CHECK(tagtest(p, ZH_SEL_TAG, "Annotator < x") == 0);
	CHECK(tagtest(p, ZH_SEL_TAG, "Annotator ~ .") == 0);
	CHECK(tagtest(p, ZH_SEL_TAG, "Annotator = \"\"") == 0);
	CHECK(tagtest(p, ZH_SEL_TAG, "Annotator != x") == 1);
	CHECK(tagtest(p, ZH_SEL_TAG, "Annotator !~ x") == 1);
	/* regular expressions (POSIX ERE) */
	CHECK(tagtest(p, ZH_SEL_TAG, "Event ~ ^Rated (Blitz|Bullet) game$") == 1);
	CHECK(tagtest(p, ZH_SEL_TAG, "Event ~ bullet") == 0);
	CHECK(tagtest(p, ZH_SEL_TAG, "Event !~ Bullet") == 1);
	CHECK(tagtest(p, ZH_SEL_TAG, "Event !~ Bl[a-z]+z") == 0);
	/* dates: "2021.??.??" is any day of 2021; the test holds only if
	   it holds for each of them */
	CHECK(tagtest(p, ZH_SEL_TAG, "Date = 2021") == 1);
	CHECK(tagtest(p, ZH_SEL_TAG, "Date = 2021.06") == 0);
	CHECK(tagtest(p, ZH_SEL_TAG, "Date >= 2021.01.01") == 1);
	CHECK(tagtest(p, ZH_SEL_TAG, "Date <= 2021.12.31") == 1);
	CHECK(tagtest(p, ZH_SEL_TAG, "Date < 2021.06.01") == 0);
	CHECK(tagtest(p, ZH_SEL_TAG, "Date > 2021.06.01") == 0);
	CHECK(tagtest(p, ZH_SEL_TAG, "Date > 2020.12.31") == 1);
	CHECK(tagtest(p, ZH_SEL_TAG, "Date < 2022") == 1);
	CHECK(tagtest(p, ZH_SEL_TAG, "Date != 2021.06") == 0);
	CHECK(tagtest(p, ZH_SEL_TAG, "Date != 2020") == 1);
	CHECK(tagtest(p, ZH_SEL_TAG, "UTCDate = 2020-06-15") == 1);
	CHECK(tagtest(p, ZH_SEL_TAG, "UTCDate > 2020.06.14") == 1);
	CHECK(tagtest(p, ZH_SEL_TAG, "UTCDate > 2020.06.15") == 0);
	CHECK(tagtest(p, ZH_SEL_TAG, "UTCDate >= 2020.06") == 1);
	CHECK(tagtest(p, ZH_SEL_TAG, "UTCDate <= 2020.06") == 1);
	CHECK(tagtest(p, ZH_SEL_TAG, "UTCDate < 2020.06") == 0);
	/* TimeControl: 180+2 is 180 + 40 * 2 = 260 s estimated */
	CHECK(tagtest(p, ZH_SEL_TAG, "TimeControl >= 180") == 1);
	CHECK(tagtest(p, ZH_SEL_TAG, "TimeControl >= 260") == 1);
	CHECK(tagtest(p, ZH_SEL_TAG, "TimeControl > 260") == 0);
	CHECK(tagtest(p, ZH_SEL_TAG, "TimeControl < 300+0") == 1);
	CHECK(tagtest(p, ZH_SEL_TAG, "TimeControl = 180+2") == 1);
	CHECK(tagtest(p, ZH_SEL_TAG, "TimeControl = 260") == 1);
	CHECK(tagtest(p, ZH_SEL_TAG, "TimeControl != 180+0") == 1);
	CHECK(tagtest(p, ZH_SEL_TAG, "TimeControl = 100+4") == 0);
	CHECK(tagtest(p, ZH_SEL_TAG, "TimeControl.base = 180") == 1);
	CHECK(tagtest(p, ZH_SEL_TAG, "TimeControl.base < 180") == 0);
	CHECK(tagtest(p, ZH_SEL_TAG, "TimeControl.inc >= 2") == 1);
	CHECK(tagtest(p, ZH_SEL_TAG, "TimeControl.inc > 2") == 0);
	CHECK(tagtest(p, ZH_SEL_TAG, "TimeControl ~ ^180\\+") == 1);
	CHECK(tagtest("[TimeControl \"-\"]\n*\n", ZH_SEL_TAG,
	    "TimeControl >= 180") == 1);
	CHECK(tagtest("[TimeControl \"-\"]\n*\n", ZH_SEL_TAG,
	    "TimeControl = -") == 1);
	CHECK(tagtest("[TimeControl \"1/259200\"]\n*\n", ZH_SEL_TAG,
	    "TimeControl.base = 259200") == 1);
	CHECK(tagtest("[TimeControl \"1/259200\"]\n*\n", ZH_SEL_TAG,
	    "TimeControl < 86400") == 0);
	CHECK(tagtest("[TimeControl \"40/7200:3600\"]\n*\n", ZH_SEL_TAG,
	    "TimeControl.base = 7200") == 1);
	CHECK(tagtest("[TimeControl \"180\"]\n*\n", ZH_SEL_TAG,
	    "TimeControl = 180+0") == 1);
	CHECK(tagtest("[TimeControl \"?\"]\n*\n", ZH_SEL_TAG,
	    "TimeControl >= 0") == 0);
	CHECK(tagtest("[TimeControl \"?\"]\n*\n", ZH_SEL_TAG,
	    "TimeControl != 60+0") == 1);
	/* players: either for a positive test, neither for a negative */
	CHECK(tagtest(p, ZH_SEL_PLAYER, "Bob") == 1);
	CHECK(tagtest(p, ZH_SEL_PLAYER, "= Alice") == 1);
	CHECK(tagtest(p, ZH_SEL_PLAYER, "Carol") == 0);
	CHECK(tagtest(p, ZH_SEL_PLAYER, "!= Bob") == 0);
	CHECK(tagtest(p, ZH_SEL_PLAYER, "!= Carol") == 1);
	CHECK(tagtest(p, ZH_SEL_PLAYER, "~ ^A") == 1);
	CHECK(tagtest(p, ZH_SEL_PLAYER, "!~ o") == 0);
	CHECK(tagtest(p, ZH_SEL_PLAYER, "!~ ^C") == 1);
}

/* Groups: positive tests on one tag are alternatives; the rest all hold. */
static void
groups(void)
{
	struct zh_select *s = zh_select_new();
	struct zh_game g;
	char *buf;
	struct zh_pgn_reader *r = game_of(tagged, &g, &buf);

	CHECK(zh_select_add(s, ZH_SEL_TAG, "White = Carol", NULL) == 0);
	CHECK(zh_select_add(s, ZH_SEL_TAG, "WhiteElo >= 2000", NULL) == 0);
	CHECK(zh_select_tags(s, &g) == 1);	/* group 1 fails */
	CHECK(zh_select_add(s, ZH_SEL_TAG, "White ~ ^Al", NULL) == 0);
	CHECK(zh_select_tags(s, &g) == 0);	/* either holds */
	CHECK(zh_select_add(s, ZH_SEL_TAG, "WhiteElo < 2050", NULL) == 0);
	CHECK(zh_select_tags(s, &g) == 4);	/* a range: both must hold */
	zh_select_free(s);

	s = zh_select_new();
	CHECK(zh_select_add(s, ZH_SEL_PLAYER, "Carol", NULL) == 0);
	CHECK(zh_select_add(s, ZH_SEL_PLAYER, "Dave", NULL) == 0);
	CHECK(zh_select_tags(s, &g) == 1);
	CHECK(zh_select_add(s, ZH_SEL_PLAYER, "Bob", NULL) == 0);
	CHECK(zh_select_tags(s, &g) == 0);
	CHECK(zh_select_add(s, ZH_SEL_PLAYER, "!= Alice", NULL) == 0);
	CHECK(zh_select_tags(s, &g) == 4);
	zh_select_free(s);
	zh_pgn_close(r);
	free(buf);
}

/* ==================== game tests ==================== */

/* The first test number of sel (kind, texts...) that drops the game. */
static int
gametest(const char *pgn, int kind, const char *text, bool fast)
{
	struct zh_select *s = zh_select_new();
	struct zh_select_scratch sc = { 0 };
	struct zh_replay rp;
	struct zh_game g;
	char *buf;
	struct zh_pgn_reader *r = game_of(pgn, &g, &buf);
	struct zh_error e = { 0 };
	int rc, v;

	memset(&rp, 0, sizeof rp);
	rp.fast = fast;
	if (zh_select_add(s, kind, text, &e) != 0) {
		fprintf(stderr, "'%s': %ld: %s\n", text, e.col, e.text);
		v = -1;
	} else {
		rc = zh_replay(&g, NULL, &rp);
		v = zh_select_game(s, &g, &rp, rc, &sc) == 0;
	}
	zh_select_scratch_free(&sc);
	zh_replay_free(&rp);
	zh_select_free(s);
	zh_pgn_close(r);
	free(buf);
	return v;
}

static const char mate[] =
    "[Event \"x\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
/* Sam Loyd's ten-move stalemate */
static const char stalemate[] =
    "[Event \"x\"]\n\n1. e3 a5 2. Qh5 Ra6 3. Qxa5 h5 4. h4 Rah6 5. Qxc7 f6 "
    "6. Qxd7+ Kf7 7. Qxb7 Qd3 8. Qxb8 Qh7 9. Qxc8 Kg6 10. Qe6 1/2-1/2\n";
static const char illegal[] =
    "[Event \"x\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Ke3 *\n";
static const char fics[] =
    "[Event \"FICS rated crazyhouse game\"]\n[Site \"FICS\"]\n\n"
    "1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@d5 *\n";

static void
games(void)
{
	int f;

	for (f = 0; f < 2; f++) {
		bool fast = f == 1;

		CHECK(gametest(mate, ZH_SEL_PLIES, "7", fast) == 1);
		CHECK(gametest(mate, ZH_SEL_PLIES, "8-", fast) == 0);
		CHECK(gametest(mate, ZH_SEL_PLIES, "-6", fast) == 0);
		CHECK(gametest(mate, ZH_SEL_PLIES, "5-7", fast) == 1);
		CHECK(gametest(mate, ZH_SEL_ENDING, "checkmate", fast) == 1);
		CHECK(gametest(mate, ZH_SEL_ENDING, "none", fast) == 0);
		CHECK(gametest(stalemate, ZH_SEL_ENDING, "stalemate", fast) == 1);
		CHECK(gametest(stalemate, ZH_SEL_ENDING, "Checkmate", fast) == 0);
		CHECK(gametest(stalemate, ZH_SEL_PLIES, "19", fast) == 1);
		CHECK(gametest(fics, ZH_SEL_ENDING, "none", fast) == 1);
		CHECK(gametest(mate, ZH_SEL_VALID, "valid", fast) == 1);
		CHECK(gametest(illegal, ZH_SEL_VALID, "valid", fast) == 0);
		CHECK(gametest(illegal, ZH_SEL_VALID, "invalid", fast) == 1);
		CHECK(gametest(illegal, ZH_SEL_PLIES, "4", fast) == 1);
		/* the variant as detected: FICS's Event names it */
		CHECK(gametest(fics, ZH_SEL_VARIANT, "crazyhouse", fast) == 1);
		CHECK(gametest(fics, ZH_SEL_VARIANT, "chess", fast) == 0);
		CHECK(gametest(mate, ZH_SEL_VARIANT, "chess", fast) == 1);
		/* positions: board, pockets, side to move; clocks ignored */
		CHECK(gametest(mate, ZH_SEL_POSITION, "rnbqkbnr/pppppppp/8/8/8/8/"
		    "PPPPPPPP/RNBQKBNR w KQkq - 0 1", fast) == 1);
		CHECK(gametest(mate, ZH_SEL_POSITION, "r1bqkbnr/pppp1ppp/2n5/4p2Q/"
		    "4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 7 30", fast) == 1);
		CHECK(gametest(mate, ZH_SEL_POSITION, "r1bqkbnr/pppp1ppp/2n5/4p2Q/"
		    "4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 2 3", fast) == 0);
		CHECK(gametest(mate, ZH_SEL_POSITION, "r1bqkb1r/pppp1Qpp/2n2n2/"
		    "4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4", fast) == 1);
		/* pockets, in three dialects' forms */
		CHECK(gametest(fics, ZH_SEL_POSITION, "rnb1kbnr/ppp1pppp/8/3q4/8/8/"
		    "PPPP1PPP/RNBQKBNR/Pp w KQkq - 0 3", fast) == 1);
		CHECK(gametest(fics, ZH_SEL_POSITION, "rnb1kbnr/ppp1pppp/8/3q4/8/8/"
		    "PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3", fast) == 1);
		CHECK(gametest(fics, ZH_SEL_POSITION, "rnb1kbnr/ppp1pppp/8/3q4/8/8/"
		    "PPPP1PPP/RNBQKBNR[P] w KQkq - 0 3", fast) == 0);
		CHECK(gametest(fics, ZH_SEL_POSITION, "rnb1kbnr/ppp1pppp/8/8/8/8/"
		    "PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3", fast) == 0);
		CHECK(gametest(fics, ZH_SEL_POSITION, "rnb1kbnr/ppp1pppp/8/q2P4/8/"
		    "2N5/PPPP1PPP/R1BQKBNR/p b KQkq - 0 4", fast) == 1);
		/* the mainline stops at its illegal move */
		CHECK(gametest(illegal, ZH_SEL_POSITION, "rnb1kbnr/ppp1pppp/8/3q4/8/"
		    "8/PPPP1PPP/RNBQKBNR/Pp w KQkq - 0 3", fast) == 1);
	}
}

/* ==================== positions of real games ==================== */

struct want {
	char (*fen)[ZH_FENMAX];
	size_t n, cap;
	int d;
};

static int
collect(void *arg, const struct zh_ply *pl)
{
	struct want *w = arg;

	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 64;
		w->fen = realloc(w->fen, w->cap * sizeof *w->fen);
	}
	zh_fen_write(pl->pos, w->d, w->fen[w->n++], ZH_FENMAX);
	w->d = w->d % (ZH_NDIALECTS - 1) + 1;	/* every dialect in turn */
	return 0;
}

/*
 * Every position of the mainline of every game of path, walked by
 * zh_lines_walk and written as FEN in turn in each dialect, is found
 * by the position search in a fast replay of the game.
 */
static void
positions(const char *path)
{
	FILE *f = fopen(path, "rb");
	struct zh_pgn_reader *r = zh_pgn_open(f, NULL);
	struct zh_replay full, fast;
	struct zh_lines lw;
	struct zh_select_scratch sc = { 0 };
	struct want w = { NULL, 0, 0, ZH_LICHESS };
	struct zh_game g;
	long found = 0, tried = 0;
	size_t k;

	memset(&full, 0, sizeof full);
	memset(&fast, 0, sizeof fast);
	memset(&lw, 0, sizeof lw);
	fast.fast = true;
	while (zh_pgn_next(r, &g) > 0) {
		int rc;

		w.n = 0;
		if (zh_replay(&g, NULL, &full) != 0 && full.nplies == 0)
			continue;
		zh_lines_walk(&lw, &g, &full, 0, collect, &w);
		rc = zh_replay(&g, NULL, &fast);
		for (k = 0; k < w.n; k += 1 + w.n / 12) {
			struct zh_select *s = zh_select_new();
			struct zh_error e = { 0 };

			if (zh_select_add(s, ZH_SEL_POSITION, w.fen[k], &e) == 0) {
				tried++;
				found += zh_select_game(s, &g, &fast, rc, &sc) == 0;
			} else {
				fprintf(stderr, "%s: %s: %s\n", path, w.fen[k], e.text);
			}
			zh_select_free(s);
		}
	}
	CHECK(tried > 0 && found == tried);
	if (found != tried)
		fprintf(stderr, "%s: %ld of %ld positions found\n", path, found,
		    tried);
	free(w.fen);
	zh_lines_free(&lw);
	zh_replay_free(&full);
	zh_replay_free(&fast);
	zh_select_scratch_free(&sc);
	zh_pgn_close(r);
	fclose(f);
}

/* ==================== game keys ==================== */

/*
 * The games of path, and the same converted by bin/zhpgn to dialect d:
 * game by game the same key (one replayed fast, one not), and two games
 * share a key exactly when their variant, start and moves are equal.
 */
static void
keys(const char *path, const char *to)
{
	char cmd[512];
	FILE *f = fopen(path, "rb"), *p;
	struct zh_pgn_reader *a, *b;
	struct zh_replay ra, rb;
	struct zh_game ga, gb;
	struct zh_key *ks = NULL;
	char **uci = NULL;
	size_t n = 0, i, j, k;
	bool same = true, distinct = true;

	snprintf(cmd, sizeof cmd, "bin/zhpgn -q --to %s %s", to, path);
	p = popen(cmd, "r");
	CHECK(f != NULL && p != NULL);
	a = zh_pgn_open(f, NULL);
	b = zh_pgn_open(p, NULL);
	memset(&ra, 0, sizeof ra);
	memset(&rb, 0, sizeof rb);
	rb.fast = true;
	while (zh_pgn_next(a, &ga) > 0) {
		struct zh_key x, y;
		size_t len = 1;

		if (zh_replay(&ga, NULL, &ra) != 0)
			continue;	/* zhpgn writes valid games only */
		CHECK(zh_pgn_next(b, &gb) > 0);
		zh_replay(&gb, NULL, &rb);
		x = zh_game_key(&ga, &ra);
		y = zh_game_key(&gb, &rb);
		same &= x.hi == y.hi && x.lo == y.lo;
		ks = realloc(ks, (n + 1) * sizeof *ks);
		uci = realloc(uci, (n + 1) * sizeof *uci);
		ks[n] = x;
		/* the moves as text, for the comparison of games */
		for (k = 0; k < ga.ntoks; k++)
			len += strlen(ra.moves[k].uci) + 1;
		uci[n] = calloc(len + 32, 1);
		snprintf(uci[n], 32, "%s|", ra.v->name);
		for (k = 0; k < ga.ntoks; k++)
			if (ga.toks[k].kind == ZH_T_MOVE && ra.moves[k].depth == 0) {
				strcat(uci[n], ra.moves[k].uci);
				strcat(uci[n], " ");
			}
		if (zh_game_tag(&ga, "FEN") != NULL)
			strcat(uci[n], "setup");	/* not compared */
		n++;
	}
	CHECK(zh_pgn_next(b, &gb) == 0);
	CHECK(n > 0 && same);
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (strstr(uci[i], "setup") == NULL &&
			    strstr(uci[j], "setup") == NULL &&
			    (ks[i].hi == ks[j].hi && ks[i].lo == ks[j].lo) !=
			    (strcmp(uci[i], uci[j]) == 0))
				distinct = false;
	CHECK(distinct);
	for (i = 0; i < n; i++)
		free(uci[i]);
	free(uci);
	free(ks);
	zh_replay_free(&ra);
	zh_replay_free(&rb);
	zh_pgn_close(a);
	zh_pgn_close(b);
	fclose(f);
	pclose(p);
}

/* ==================== the tag filter ==================== */

static int
filt(void *arg, const struct zh_game *g)
{
	return zh_select_tags(arg, g);
}

/*
 * The CrazyAra cut (both players rated 2000 or more) through the
 * reader's filter: the games kept are those awk counts, and each game's
 * verdict is the one zh_select_tags gives the fully read game.
 */
static void
filter(const char *path)
{
	char cmd[512];
	FILE *f1 = fopen(path, "rb"), *f2 = fopen(path, "rb"), *p;
	struct zh_select *s;
	struct zh_pgn_reader *a, *b;
	struct zh_game ga, gb;
	long kept = 0, want = -1, agree = 0, n = 0;

	if (f1 == NULL || f2 == NULL) {	/* not here (the bench's file) */
		if (f1 != NULL)
			fclose(f1);
		if (f2 != NULL)
			fclose(f2);
		return;
	}
	s = zh_select_new();
	CHECK(zh_select_add(s, ZH_SEL_TAG, "WhiteElo >= 2000", NULL) == 0);
	CHECK(zh_select_add(s, ZH_SEL_TAG, "BlackElo >= 2000", NULL) == 0);
	a = zh_pgn_open(f1, NULL);
	b = zh_pgn_open(f2, NULL);
	zh_pgn_set_filter(a, filt, s);
	while (zh_pgn_next(a, &ga) > 0 && zh_pgn_next(b, &gb) > 0) {
		n++;
		kept += ga.dropped == 0;
		agree += ga.dropped == zh_select_tags(s, &gb);
	}
	snprintf(cmd, sizeof cmd, "awk '/^\\[Event /{if (w>=2000 && b>=2000) "
	    "k++; w=b=-1} /^\\[WhiteElo \"[0-9]+\"/{split($0,x,\"\\\"\"); "
	    "w=x[2]+0} /^\\[BlackElo \"[0-9]+\"/{split($0,x,\"\\\"\"); "
	    "b=x[2]+0} END{if (w>=2000 && b>=2000) k++; print k+0}' %s", path);
	if ((p = popen(cmd, "r")) != NULL) {
		CHECK(fscanf(p, "%ld", &want) == 1);
		pclose(p);
	}
	CHECK(kept == want);
	CHECK(agree == n && n > 0);
	if (kept != want)
		fprintf(stderr, "%s: kept %ld, awk %ld\n", path, kept, want);
	zh_select_free(s);
	zh_pgn_close(a);
	zh_pgn_close(b);
	fclose(f1);
	fclose(f2);
}

int
main(void)
{
	parsers();
	tags();
	groups();
	games();
	positions("testdata/pgn/fatics-zh.pgn");
	positions("testdata/pgn/pychess-zh.pgn");
	positions("testdata/pgn/pychess-variants-grand.pgn");
	positions("testdata/pgn/lichess-2018-JannLee-CrazyAra.pgn");
	keys("testdata/pgn/fatics-zh.pgn", "chesscom");
	keys("testdata/pgn/pychess-zh.pgn", "xboard");
	keys("testdata/pgn/crazyara-1k_cz_lichess_startpos.pgn", "chesscom");
	filter("../shared/bench/zh-tags.pgn");
	filter("testdata/pgn/pychess-zh.pgn");
	return check_report("select");
}
