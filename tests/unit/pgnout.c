/*
 * pgnout.c - unit tests of the game writers (lib/pgnout.c): every JSON
 * line zh_game_json() writes is parsed back with Jansson, whatever bytes
 * the comments and tags held; the PGN writer's output reads back as the
 * same game.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "zh.h"

/* Read the first game of text s and replay it into r. */
static void
first_game(const char *s, struct zh_pgn_reader **rd, FILE **f,
    struct zh_game *g, struct zh_replay *r)
{
	*f = fmemopen((void *)s, strlen(s), "r");
	*rd = zh_pgn_open(*f, NULL);
	CHECK(zh_pgn_next(*rd, g) == 1);
	zh_replay(g, NULL, r);
}

/* JSON of the first game of s, parsed back; NULL if it did not parse. */
static json_t *
json_of(const char *s, unsigned flags, char **text)
{
	struct zh_pgn_reader *rd;
	struct zh_replay r = { 0 };
	struct zh_game g;
	struct zh_error e = { 0 };
	json_error_t je;
	json_t *j;
	struct zh_text t = { 0 };
	FILE *f;

	first_game(s, &rd, &f, &g, &r);
	CHECK(zh_game_json(&t, &g, &r, ZH_LICHESS, flags, &e) == 0);
	*text = t.s;
	CHECK(t.len > 0 && strlen(t.s) == t.len);
	CHECK(memchr(*text, '\n', t.len) == NULL);	/* one line */
	j = json_loads(*text, 0, &je);
	if (j == NULL)
		fprintf(stderr, "not JSON (%s): %s", je.text, *text);
	zh_replay_free(&r);
	zh_pgn_close(rd);
	fclose(f);
	return j;
}

static void
test_strings(void)
{
	/* quotes, backslashes, control bytes, U+2192, and bytes that are
	   not UTF-8 (a lone 0xff, a cut 0xc3), read as Latin-1 */
	static const char pgn[] =
	    "[Event \"a \\\"quoted\\\" \\\\ name \xff\"]\n"
	    "[Variant \"Crazyhouse\"]\n\n"
	    "{ before \x01 } 1. e4 { tab\there \"q\" \\ \xe2\x86\x92 \xc3 } "
	    "e5 $14 (1... d5 { [%eval #-3] }) 2. Nf3 { [%clk 1:02:03.4] "
	    "[%emt 0:00:02.063] [%eval -0.345] } *\n";
	char *text;
	json_t *j = json_of(pgn, 0, &text), *m;

	CHECK(j != NULL);
	if (j == NULL) {
		free(text);
		return;
	}
	CHECK(strcmp(json_string_value(json_object_get(json_object_get(j,
	    "tags"), "Event")), "a \"quoted\" \\ name \xc3\xbf") == 0);
	CHECK(strcmp(json_string_value(json_object_get(j, "comment")),
	    "before \x01") == 0);
	m = json_object_get(j, "moves");
	CHECK(json_array_size(m) == 3);
	CHECK(strcmp(json_string_value(json_object_get(json_array_get(m, 0),
	    "comment")), "tab\there \"q\" \\ \xe2\x86\x92 \xc3\x83") == 0);
	CHECK(json_integer_value(json_array_get(json_object_get(
	    json_array_get(m, 1), "nags"), 0)) == 14);
	CHECK(json_integer_value(json_object_get(json_array_get(json_array_get(
	    json_object_get(json_array_get(m, 1), "variations"), 0), 0),
	    "mate")) == -3);
	CHECK(json_real_value(json_object_get(json_array_get(m, 2), "clock"))
	    == 3723.4);
	CHECK(json_real_value(json_object_get(json_array_get(m, 2), "emt"))
	    == 2.063);
	CHECK(json_integer_value(json_object_get(json_array_get(m, 2), "cp"))
	    == -35 && json_object_get(json_array_get(m, 2), "eval") == NULL);
	CHECK(json_is_true(json_object_get(j, "valid")));
	json_decref(j);
	free(text);
}

static void
test_invalid(void)
{
	char *text;
	json_t *j = json_of("[Variant \"Nosuch\"]\n\n1. e4 *\n", ZH_JSON_FENS,
	    &text), *e;

	CHECK(j != NULL);
	CHECK(json_is_false(json_object_get(j, "valid")));
	CHECK(json_is_null(json_object_get(j, "variant")));
	CHECK(json_is_null(json_object_get(j, "start")));
	e = json_array_get(json_object_get(j, "errors"), 0);
	CHECK(json_integer_value(json_object_get(e, "line")) == 1);
	json_decref(j);
	free(text);
	j = json_of("[Variant \"Crazyhouse\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n",
	    ZH_JSON_FENS, &text);
	CHECK(j != NULL);
	CHECK(json_array_size(json_object_get(j, "moves")) == 4);
	CHECK(json_is_null(json_object_get(json_array_get(json_object_get(j,
	    "moves"), 2), "uci")));
	CHECK(strcmp(json_string_value(json_object_get(json_array_get(
	    json_object_get(j, "moves"), 1), "fen")),
	    "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR/ w KQkq - 0 2") == 0);
	json_decref(j);
	free(text);
}

/* PGN written in each dialect reads back as the same moves. */
static void
test_pgn_roundtrip(void)
{
	static const char pgn[] =
	    "[Variant \"Crazyhouse\"]\n"
	    "[FEN \"r4b1N~/1ppk1P2/p1b5/6p1/8/1PBPPq2/P1PR1P2/1K4N1/PNBRPPPrqnn"
	    " b - - 71 36\"]\n\n36... N@a3+ {x} (36... R@b2+) 37. Kb2 R@b1# 0-1\n";
	int d;

	for (d = ZH_LICHESS; d < ZH_NDIALECTS; d++) {
		struct zh_pgn_reader *rd, *rd2;
		struct zh_replay r = { 0 }, r2 = { 0 };
		struct zh_game g, g2;
		struct zh_error e = { 0 };
		char *text = NULL;
		size_t n = 0, k;
		FILE *f, *out, *f2;

		first_game(pgn, &rd, &f, &g, &r);
		out = open_memstream(&text, &n);
		CHECK(zh_pgn_write(out, &g, &r, d, &e) == 0);
		fclose(out);
		first_game(text, &rd2, &f2, &g2, &r2);
		CHECK(r2.complete && r2.nplies == 3);
		CHECK(zh_pos_check(&r2.final, 0, NULL) == 0);
		for (k = 0; k < g2.ntoks; k++)
			if (g2.toks[k].kind == ZH_T_MOVE)
				CHECK(r2.moves[k].ok);
		CHECK(memcmp(r.final.sq, r2.final.sq, sizeof r.final.sq) == 0);
		CHECK(memcmp(r.final.pocket, r2.final.pocket,
		    sizeof r.final.pocket) == 0);
		CHECK((strstr(text, "[CurrentPosition ") != NULL) ==
		    (d == ZH_CHESSCOM));
		zh_replay_free(&r);
		zh_replay_free(&r2);
		zh_pgn_close(rd);
		zh_pgn_close(rd2);
		fclose(f);
		fclose(f2);
		free(text);
	}
}

/* zh_comment_clock: each form of [%clk] and [%emt], and what it refuses. */
static void
test_clocks(void)
{
	static const struct {
		const char *comment;
		bool ok;
		double sec;
	} cases[] = {
		{ "[%clk 0:05:00]", true, 300 },
		{ " [%clk 0:05:00] ", true, 300 },
		{ "[%clk 1:02:03]", true, 3723 },
		{ "[%clk 1:02:03.4]", true, 3723.4 },
		{ "[%clk 0:00:09.25]", true, 9.25 },
		{ "[%clk 12:00:01]", true, 43201 },
		{ "[%clk 0:5:00]", true, 300 },
		{ "[%clk 5:00]", true, 300 },
		{ "[%clk 45]", true, 45 },
		{ "[%clk 0:05:00 ] x", true, 300 },
		{ "[%clk\t0:05:00]", true, 300 },
		{ "[%clk 0:05:00", false, 0 },
		{ "[%clk 0:05:0x]", false, 0 },
		{ "[%clk 0:05:00x]", false, 0 },
		{ "[%clk a:05:00]", false, 0 },
		{ "[%clk ]", false, 0 },
		{ "[%clock 0:05:00]", false, 0 },
		{ "[%eval 0.3] [%clk 0:01:02]", true, 62 },
		{ "[x] [[%clk 0:00:01]", true, 1 },
		{ "a [%clk", false, 0 },
		{ "a [%clk 7", false, 0 },
		{ "[%clk 7 ", true, 7 },
		{ "[%clkx 0:05:00]", false, 0 },
	};
	size_t i;
	double sec;

	for (i = 0; i < sizeof cases / sizeof *cases; i++) {
		bool ok;

		sec = -1;
		ok = zh_comment_clock(cases[i].comment, strlen(cases[i].comment),
		    "clk", &sec);
		CHECK(ok == cases[i].ok);
		if (ok != cases[i].ok || (ok && sec != cases[i].sec))
			fprintf(stderr, "clock case %zu: '%s' gave %d %.17g\n", i,
			    cases[i].comment, ok, sec);
		if (ok)
			CHECK(sec == cases[i].sec ||
			    (sec > cases[i].sec - 1e-9 && sec < cases[i].sec + 1e-9));
	}
	CHECK(zh_comment_clock("[%emt 0:00:07]", 14, "emt", &sec) && sec == 7);
}

int
main(void)
{
	test_clocks();
	test_strings();
	test_invalid();
	test_pgn_roundtrip();
	return check_report("pgnout");
}
