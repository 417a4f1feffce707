/*
 * pgn_lex.c - unit tests of the streaming PGN reader (lib/pgn.c, lib/pgnlex.c).
 *
 * Most cases render every game of a small input as one line and compare
 * it with the expected line:
 *
 *	#N@L [Name=value] ... tokens ... !line:col message
 *
 * where a move or move number is its text, a comment {text}, a NAG its
 * $-number, a variation ( ... ), the result =text, and !... the game's
 * error.  Run from the top of the tree (testdata/pgn is read from there,
 * or from $ZH_TESTDATA).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "zh.h"

/* ---- helpers ---- */

struct out {
	char *s;
	size_t len, cap;
};

static void
put(struct out *o, const char *s, size_t n)
{
	if (o->len + n + 1 > o->cap) {
		o->cap = (o->len + n + 1) * 2;
		o->s = realloc(o->s, o->cap);
		if (o->s == NULL)
			abort();
	}
	memcpy(o->s + o->len, s, n);
	o->len += n;
	o->s[o->len] = '\0';
}

static void
puts_(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

/* Render one game as a line. */
static void
render(struct out *o, const struct zh_game *g)
{
	char buf[300];
	size_t k;

	snprintf(buf, sizeof buf, "#%ld@%ld", g->number, g->line);
	puts_(o, buf);
	for (k = 0; k < g->ntags; k++) {
		puts_(o, " [");
		puts_(o, g->tags[k].name);
		puts_(o, "=");
		puts_(o, g->tags[k].value);
		puts_(o, "]");
	}
	for (k = 0; k < g->ntoks; k++) {
		const struct zh_token *t = &g->toks[k];

		puts_(o, " ");
		switch (t->kind) {
		case ZH_T_COMMENT:
			puts_(o, "{");
			put(o, t->text, t->len);
			puts_(o, "}");
			break;
		case ZH_T_RESULT:
			puts_(o, "=");
			put(o, t->text, t->len);
			break;
		default:
			put(o, t->text, t->len);
			break;
		}
	}
	if (g->err.code != ZH_OK) {
		snprintf(buf, sizeof buf, " !%ld:%ld %s", g->err.line,
		    g->err.col, g->err.text);
		puts_(o, buf);
	}
	puts_(o, "\n");
}

static FILE *
memfile(const char *s, size_t n)
{
	FILE *f = fmemopen((void *)(uintptr_t)s, n, "r");

	if (f == NULL) {
		perror("fmemopen");
		exit(2);
	}
	return f;
}

/* Render all games of n bytes at s; the caller frees the result. */
static char *
lexn(const char *s, size_t n, const struct zh_pgn_limits *lim)
{
	struct out o = { NULL, 0, 0 };
	struct zh_game g;
	struct zh_pgn_reader *r;
	FILE *f = memfile(s, n);
	int rc;

	r = zh_pgn_open(f, lim);
	put(&o, "", 0);
	while ((rc = zh_pgn_next(r, &g)) > 0)
		render(&o, &g);
	if (rc < 0)
		puts_(&o, "FAIL\n");
	zh_pgn_close(r);
	fclose(f);
	return o.s;
}

static char *
lex(const char *s, const struct zh_pgn_limits *lim)
{
	return lexn(s, strlen(s), lim);
}

static void
expect_at(int line, const char *in, const char *want,
    const struct zh_pgn_limits *lim)
{
	char *got = lex(in, lim);

	check_run++;
	if (strcmp(got, want) != 0) {
		check_failed++;
		fprintf(stderr, "pgn_lex.c:%d: mismatch\n  want: %s  got:  %s",
		    line, want, got);
	}
	free(got);
}

#define EXPECT(in, want)	expect_at(__LINE__, in, want, NULL)
#define EXPECTL(in, want, l)	expect_at(__LINE__, in, want, l)

/* Read the first game of s into *g (the reader stays open: close it). */
static struct zh_pgn_reader *
first(const char *s, FILE **f, struct zh_game *g)
{
	struct zh_pgn_reader *r;

	*f = memfile(s, strlen(s));
	r = zh_pgn_open(*f, NULL);
	if (zh_pgn_next(r, g) != 1)
		memset(g, 0, sizeof *g);
	return r;
}

/* ---- tag pairs ---- */

static void
test_tags(void)
{
	EXPECT("[Event \"a\"]\n[Site \"b c\"]\n\n1. e4 *\n",
	    "#1@1 [Event=a] [Site=b c] 1. e4 =*\n");
	/* escapes */
	EXPECT("[White \"say \\\"hi\\\" \\\\o/\"]\n\n*\n",
	    "#1@1 [White=say \"hi\" \\o/] =*\n");
	/* an unknown escape keeps its backslash */
	EXPECT("[A \"x\\ny\"] *\n", "#1@1 [A=x\\ny] =*\n");
	/* the chessops pathological headers, all on one line */
	EXPECT("[A \"b\\\"\"] [C \"A]]\"] [D \"A]][\"] [G \"\\\"]\"] *\n",
	    "#1@1 [A=b\"] [C=A]]] [D=A]][] [G=\"]] =*\n");
	/* blanks inside the brackets, an empty value, an empty line in the
	   tag section (ChessBase) */
	EXPECT("[ Event  \"a\" ]\n\n[Date \"\"]\n\n1. d4 1-0\n",
	    "#1@1 [Event=a] [Date=] 1. d4 =1-0\n");
	/* tags and movetext on the same line */
	EXPECT("[Variant \"Antichess\"] 1.e3 e6 { c } *\n",
	    "#1@1 [Variant=Antichess] 1. e3 e6 { c } =*\n");
	/* leading white space before a tag */
	EXPECT("    [Variant \"Standard\"]\n\n1. e4 *\n",
	    "#1@1 [Variant=Standard] 1. e4 =*\n");
	/* UTF-8 values pass through */
	EXPECT("[White \"J\xc3\xa9r\xc3\xb4me\"] *",
	    "#1@1 [White=J\xc3\xa9r\xc3\xb4me] =*\n");
}

static void
test_tag_lookup(void)
{
	struct zh_game g;
	FILE *f;
	struct zh_pgn_reader *r = first(
	    "[Event \"e\"]\n[Variant \"Crazyhouse\"]\n[Variant \"dup\"]\n\n*\n",
	    &f, &g);

	CHECK(g.ntags == 3);
	CHECK(zh_game_tag(&g, "Variant") != NULL &&
	    strcmp(zh_game_tag(&g, "Variant"), "Crazyhouse") == 0);
	CHECK(zh_game_tag(&g, "variant") == NULL);	/* case-sensitive */
	CHECK(zh_game_tag(&g, "FEN") == NULL);
	CHECK(g.tags[1].line == 2 && g.tags[1].col == 1);
	zh_pgn_close(r);
	fclose(f);
	zh_pgn_close(NULL);		/* allowed */
}

/* ---- movetext ---- */

static void
test_movetext(void)
{
	/* move numbers: "1.", "1...", "12.e4" (chess.com), bare digits */
	EXPECT("1. e4 1... e5 2.Nf3 2...Nc6 12.e4 13 O-O *",
	    "#1@1 1. e4 1... e5 2. Nf3 2... Nc6 12. e4 13 O-O =*\n");
	/* drops of every dialect, chess.com's "$146@g4", castling, coordinate
	   moves, null moves, promotions, check and mate signs */
	EXPECT("N@f3 @e4 P@e4 p@e4 $146@g4 O-O-O 0-0 0-0-0 e7e6 -- Z0 "
	    "exf8=Q+ Qh4# R@e8# *",
	    "#1@1 N@f3 @e4 P@e4 p@e4 $146 @g4 O-O-O 0-0 0-0-0 e7e6 -- Z0 "
	    "exf8=Q+ Qh4# R@e8# =*\n");
	/* NAGs and glyphs, attached or not; stray dots are ignored */
	EXPECT("1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5!? a6?! 4. Ba4 $14 ! ?? ... Nf6 $0 *",
	    "#1@1 1. e4 $1 e5 $2 2. Nf3 $3 Nc6 $4 3. Bb5 $5 a6 $6 4. Ba4 $14 "
	    "$1 $4 Nf6 $0 =*\n");
	EXPECT("Nf3+! Qxf7#?? e8=Q+!? *", "#1@1 Nf3+ $1 Qxf7# $4 e8=Q+ $5 =*\n");
	/* a NAG after a move number goes with the move before the number */
	EXPECT("1. e4 e5 2! $4 Nf3 {c} 3 ?? Nc6 *",
	    "#1@1 1. e4 e5 $1 $4 2 Nf3 {c} 3 $4 Nc6 =*\n");
	/* comments: brace (no braces kept, may span lines), rest of line */
	EXPECT("e4 {a {b} e5 {} ; to the end\nNf3 {x\ny} *",
	    "#1@1 e4 {a {b} e5 {} { to the end} Nf3 {x\ny} =*\n");
	/* nested variations, coordinate moves and drops inside */
	EXPECT("1. e4 (1. d4 d5 (1... Nf6 2. P@f5)) (e7e6 b1c3 B@f5 ) e5 1-0",
	    "#1@1 1. e4 ( 1. d4 d5 ( 1... Nf6 2. P@f5 ) ) ( e7e6 b1c3 B@f5 ) "
	    "e5 =1-0\n");
	/* every result */
	EXPECT("e4 1-0\ne4 0-1\ne4 1/2-1/2\ne4 *\n",
	    "#1@1 e4 =1-0\n#2@2 e4 =0-1\n#3@3 e4 =1/2-1/2\n#4@4 e4 =*\n");
	/* '%' escape lines in column 1 are skipped */
	EXPECT("%comment\n[Event \"a\"]\n%x [Event \"no\"]\n1. e4\n% x\n e5 *\n",
	    "#1@2 [Event=a] 1. e4 e5 =*\n");
	/* a comment on the result's line belongs to the game */
	/* a comment on the line below the result is its game's (the
	   movetext runs to its empty line, as python-chess reads it) */
	EXPECT("e4 1-0 {White wins} ; ok\n{next} d4 *\n",
	    "#1@1 e4 =1-0 {White wins} { ok} {next}\n#2@2 d4 =*\n");
}

static void
test_positions(void)
{
	struct zh_game g;
	FILE *f;
	struct zh_pgn_reader *r;

	/* lines and columns, columns in characters (UTF-8) */
	r = first("[Event \"\xc3\xa9\"] [Site \"x\"]\n\n"
	    "1. e4 {\xc3\xa9t\xc3\xa9} e5\n  (Nf3) $1 *\n", &f, &g);
	CHECK(g.line == 1 && g.ntags == 2);
	CHECK(g.tags[0].line == 1 && g.tags[0].col == 1);
	CHECK(g.tags[1].line == 1 && g.tags[1].col == 13);
	CHECK(g.ntoks == 9);
	CHECK(g.toks[0].kind == ZH_T_MOVENUM && g.toks[0].line == 3 &&
	    g.toks[0].col == 1);
	CHECK(g.toks[1].kind == ZH_T_MOVE && g.toks[1].col == 4);
	CHECK(g.toks[2].kind == ZH_T_COMMENT && g.toks[2].col == 7);
	CHECK(g.toks[3].kind == ZH_T_MOVE && g.toks[3].col == 13);
	CHECK(g.toks[4].kind == ZH_T_VSTART && g.toks[4].line == 4 &&
	    g.toks[4].col == 3);
	CHECK(g.toks[5].col == 4 && g.toks[6].kind == ZH_T_VEND);
	CHECK(g.toks[7].kind == ZH_T_NAG && g.toks[7].col == 9);
	CHECK(g.toks[8].kind == ZH_T_RESULT && g.toks[8].col == 12);
	CHECK(g.result != NULL && strcmp(g.result, "*") == 0);
	zh_pgn_close(r);
	fclose(f);

	/* a BOM, CRLF */
	r = first("\xef\xbb\xbf[Event \"A\"]\r\n\r\n1. e4 *\r\n", &f, &g);
	CHECK(g.tags[0].col == 1 && g.ntoks == 3);
	CHECK(g.toks[0].line == 3 && g.toks[0].col == 1);
	CHECK(g.rawlen == strlen("[Event \"A\"]\r\n\r\n1. e4 *"));
	zh_pgn_close(r);
	fclose(f);

	/* lone CR line ends */
	r = first("[Event \"A\"]\r\r1. e4\re5 *\r", &f, &g);
	CHECK(g.ntoks == 4 && g.toks[2].line == 4 && g.toks[2].col == 1);
	zh_pgn_close(r);
	fclose(f);

	/* a very long line: the column of its last token */
	{
		size_t n = 200000, k;
		char *s = malloc(n * 5 + 16);

		for (k = 0; k < n; k++)
			memcpy(s + 5 * k, "N@f3 ", 5);
		strcpy(s + 5 * n, "*");
		r = first(s, &f, &g);
		CHECK(g.err.code == ZH_ELIMIT);		/* over 10000 plies */
		zh_pgn_close(r);
		fclose(f);

		struct zh_pgn_limits lim = { .max_plies = 1000000 };
		FILE *f2 = memfile(s, strlen(s));

		r = zh_pgn_open(f2, &lim);
		CHECK(zh_pgn_next(r, &g) == 1);
		CHECK(g.err.code == ZH_OK && g.ntoks == n + 1);
		CHECK(g.toks[n].kind == ZH_T_RESULT &&
		    g.toks[n].col == (long)(5 * n + 1));
		zh_pgn_close(r);
		fclose(f2);
		free(s);
	}
}

/* ---- splitting a stream into games ---- */

/* The last game of an input that ends without its termination marker. */
#define TRUNC "game truncated: the input ends before its termination " \
    "marker (1-0, 0-1, 1/2-1/2 or *)"

static void
test_games(void)
{
	/* a missing result: the next tag line starts a new game */
	EXPECT("[Event \"a\"]\n1. e4\n[Event \"b\"]\n1. d4 *\n",
	    "#1@1 [Event=a] 1. e4\n#2@3 [Event=b] 1. d4 =*\n");
	/* even in the middle of a line */
	EXPECT("1. e4 [Event \"b\"] 1. d4",
	    "#1@1 1. e4\n#2@1 [Event=b] 1. d4 !1:24 " TRUNC "\n");
	/* games without movetext: a second Event tag starts a new game */
	EXPECT("[Event \"a\"]\n[Site \"s\"]\n[Event \"b\"]\n",
	    "#1@1 [Event=a] [Site=s]\n#2@3 [Event=b] !3:12 " TRUNC "\n");
	/* movetext without tags, after a blank line (python-chess rule) */
	EXPECT("[Event \"a\"]\n\n1. e4 e5\n\n\n    1. d4 d5\n",
	    "#1@1 [Event=a] 1. e4 e5\n#2@6 1. d4 d5 !6:13 " TRUNC "\n");
	/* garbage between games is skipped; comments alone are no game */
	EXPECT("Downloaded from somewhere\n=====\n[Event \"a\"]\n1. e4 1-0\n"
	    "Total: 2 games\n\n(c) me\n\x01\x02\n\n"
	    "[Event \"b\"]\n1. d4 0-1\nThe end.\n{just a note}\n; and another\n",
	    "#1@3 [Event=a] 1. e4 =1-0\n#2@10 [Event=b] 1. d4 =0-1\n");
	/* a comment before the tags stays with the game */
	EXPECT("{Game 1}\n[Event \"a\"]\n1. e4 *\n",
	    "#1@1 [Event=a] {Game 1} 1. e4 =*\n");
	/* empty input, blank input, BOM only */
	EXPECT("", "");
	EXPECT("\n\n  \r\n", "");
	EXPECT("\xef\xbb\xbf", "");
}

static void
test_raw(void)
{
	const char *in = "junk\n\n[Event \"a\"]\n\n1. e4 {c} 1-0\n\n\n"
	    "[Event \"b\"]\n1. d4 ) d5 *\n\n[Event \"c\"]\n*";
	struct zh_pgn_reader *r;
	struct zh_game g;
	FILE *f = memfile(in, strlen(in));
	const char *want[] = {
		"[Event \"a\"]\n\n1. e4 {c} 1-0",
		"[Event \"b\"]\n1. d4 ) d5 *",
		"[Event \"c\"]\n*",
	};
	int k;

	r = zh_pgn_open(f, NULL);
	for (k = 0; k < 3; k++) {
		CHECK(zh_pgn_next(r, &g) == 1);
		CHECK(g.number == k + 1);
		CHECK(g.rawlen == strlen(want[k]) &&
		    memcmp(g.raw, want[k], g.rawlen) == 0);
		CHECK(!g.raw_truncated);
		CHECK((g.err.code != ZH_OK) == (k == 1));
	}
	CHECK(zh_pgn_next(r, &g) == 0);
	CHECK(zh_pgn_next(r, &g) == 0);		/* stays at the end */
	zh_pgn_close(r);
	fclose(f);
}

/* ---- errors and resynchronisation ---- */

static void
test_errors(void)
{
	EXPECT("[Event \"a\"]\n\n1. e4 ) e5 *\n\n[Event \"b\"]\n\n1. d4 *\n",
	    "#1@1 [Event=a] 1. e4 !3:7 unbalanced ')'\n"
	    "#2@5 [Event=b] 1. d4 =*\n");
	EXPECT("1. e4 (e5 (d5) 1-0\n",
	    "#1@1 1. e4 ( e5 ( d5 ) !1:16 game result inside a variation\n");
	EXPECT("1. e4 (e5 (d5)\n\n[Event \"b\"] *",
	    "#1@1 1. e4 ( e5 ( d5 ) !1:7 missing ')' for the variation "
	    "started at line 1\n#2@3 [Event=b] =*\n");
	/* unterminated comment: at the end of input, and before the next
	   game's tags */
	EXPECT("1. e4 {oops\ne5 *\n",
	    "#1@1 1. e4 !1:7 unterminated comment started at line 1\n");
	EXPECT("[Event \"a\"]\n\n1. e4 { oops\n e5 1-0\n\n[Event \"b\"]\n\n1. d4 *\n",
	    "#1@1 [Event=a] 1. e4 !3:7 unterminated comment started at line 3\n"
	    "#2@6 [Event=b] 1. d4 =*\n");
	EXPECT("e4 {a\n[Event \"b\"]\n*",
	    "#1@1 e4 !1:4 unterminated comment started at line 1\n"
	    "#2@2 [Event=b] =*\n");
	/* a tag line inside a comment but not after a blank line: no */
	EXPECT("e4 {a\n[%clk 0:01:00]\n[Note \"x\"] } *",
	    "#1@1 e4 {a\n[%clk 0:01:00]\n[Note \"x\"] } =*\n");
	/* tags */
	EXPECT("[Event \"a\nb\"]\n1. e4 *\n\n[Event \"c\"] *",
	    "#1@1 !1:1 unterminated tag value\n#2@5 [Event=c] =*\n");
	EXPECT("[Event a]\n\n[Event \"c\"] *",
	    "#1@1 !1:8 tag value must be a quoted string\n#2@3 [Event=c] =*\n");
	EXPECT("[Event \"a\" x\n[Event \"c\"] *",
	    "#1@1 !1:12 missing ']' after tag value\n#2@2 [Event=c] =*\n");
	/* stray characters */
	EXPECT("e4 } *\n", "#1@1 e4 !1:4 unexpected '}'\n");
	EXPECT("e4 ] *\n", "#1@1 e4 !1:4 unexpected ']'\n");
	EXPECT("e4 \" *\n", "#1@1 e4 !1:4 unexpected '\"'\n");
	EXPECT("e4 [%clk 1] *\n", "#1@1 e4 !1:4 unexpected '['\n");
	EXPECT("e4 \\ *\n", "#1@1 e4 !1:4 unexpected '\\'\n");
	EXPECT("e4 \x1b *\n", "#1@1 e4 !1:4 unexpected control byte 0x1b\n");
	EXPECT("e4 % x\n", "#1@1 e4 !1:4 unexpected '%' (escape lines start "
	    "in column 1)\n");
	EXPECT("e4 $ e5\n", "#1@1 e4 !1:4 '$' without a number\n");
	EXPECT("e4 $256\n", "#1@1 e4 !1:4 NAG out of range (0-255)\n");
	/* NUL bytes, in movetext, a tag, a comment; then the next game */
	{
		static const char in[] = "[Event \"a\"]\n\n1. e4 \0 e5 1-0\n\n"
		    "[Event \"b\"]\n1. d4 *\n[Event \"\0\"]\n\n"
		    "[Event \"d\"]\ne4 {x\0} *\n\n[Event \"e\"] *";
		char *got = lexn(in, sizeof in - 1, NULL);
		const char *want =
		    "#1@1 [Event=a] 1. e4 !3:7 binary NUL byte in input\n"
		    "#2@5 [Event=b] 1. d4 =*\n"
		    "#3@7 !7:9 binary NUL byte in input\n"
		    "#4@9 [Event=d] e4 !10:6 binary NUL byte in input\n"
		    "#5@12 [Event=e] =*\n";

		CHECK(strcmp(got, want) == 0);
		if (strcmp(got, want) != 0)
			fprintf(stderr, "got:\n%s", got);
		free(got);
	}
	/* invalid UTF-8 is not the reader's business */
	EXPECT("[W \"\xff\xfe\"] \xc3 e4 *", "#1@1 [W=\xff\xfe] \xc3 e4 =*\n");
}

static void
test_limits(void)
{
	struct zh_pgn_limits lim = {
		.max_tag = 8, .max_comment = 8, .max_tags = 3, .max_depth = 2,
		.max_plies = 4, .max_tokens = 10,
	};

	EXPECTL("[Event \"123456789\"] *\n\n[Event \"b\"] *",
	    "#1@1 !1:1 tag value too long (limit 8 bytes)\n#2@3 [Event=b] =*\n",
	    &lim);
	EXPECTL("[Event \"12345678\"] *", "#1@1 [Event=12345678] =*\n", &lim);
	EXPECTL("e4 {123456789} *\n", "#1@1 e4 !1:4 comment too long (limit "
	    "8 bytes)\n", &lim);
	EXPECTL("e4 ;123456789\n", "#1@1 e4 !1:4 comment too long (limit "
	    "8 bytes)\n", &lim);
	EXPECTL("[A \"1\"] [B \"2\"] [C \"3\"] [D \"4\"] *\n",
	    "#1@1 [A=1] [B=2] [C=3] !1:25 too many tags (limit 3)\n", &lim);
	EXPECTL("e4 (e5 (d5 (c5))) *\n",
	    "#1@1 e4 ( e5 ( d5 !1:12 variations nested too deeply (limit 2)\n",
	    &lim);
	lim.max_tokens = 100;
	EXPECTL("1. e4 e5 2. d4 (d3 c3 b3) d5 3. c4 *\n",
	    "#1@1 1. e4 e5 2. d4 ( d3 c3 b3 ) d5 3. !1:33 too many moves "
	    "(limit 4)\n", &lim);
	lim.max_tokens = 10;
	EXPECTL("e4 $1 $2 $3 $4 $5 $6 $7 $8 $9 $10 *\n",
	    "#1@1 e4 $1 $2 $3 $4 $5 $6 $7 $8 $9 !1:31 too many movetext tokens "
	    "(limit 10)\n", &lim);
	/* 10,000 nested parentheses with the default limit */
	{
		size_t n = 10000, k;
		char *s = malloc(2 * n + 64), *p = s;

		p += sprintf(p, "[Event \"a\"]\n\n1. e4 ");
		for (k = 0; k < n; k++)
			*p++ = '(';
		p += sprintf(p, "e5");
		for (k = 0; k < n; k++)
			*p++ = ')';
		strcpy(p, " *\n\n[Event \"b\"] *\n");
		char *got = lex(s, NULL);

		CHECK(strstr(got, "!3:71 variations nested too deeply "
		    "(limit 64)\n#2@5 [Event=b] =*\n") != NULL);
		free(got);
		free(s);
	}
}

/* A game longer than max_game is returned truncated, and the next is read. */
static void
test_game_too_long(void)
{
	size_t n = 600000, k;
	char *s = malloc(n + 200), *p = s;
	struct zh_pgn_limits lim = { .max_game = 100000, .max_comment = n };
	struct zh_pgn_reader *r;
	struct zh_game g;
	FILE *f;

	p += sprintf(p, "[Event \"a\"]\n\n1. e4 {");
	for (k = 0; k < n; k++)
		*p++ = k % 100 == 99 ? '\n' : 'x';
	p += sprintf(p, "} 1-0\n\n[Event \"b\"]\n\n1. d4 *\n");
	f = memfile(s, (size_t)(p - s));
	r = zh_pgn_open(f, &lim);
	CHECK(zh_pgn_next(r, &g) == 1);
	CHECK(g.err.code == ZH_ELIMIT);
	CHECK(strcmp(g.err.text, "game too long (limit 100000 bytes)") == 0);
	CHECK(g.raw_truncated && g.rawlen >= 100000 && g.rawlen < 400000);
	CHECK(memcmp(g.raw, "[Event \"a\"]", 11) == 0);
	CHECK(zh_pgn_next(r, &g) == 1);
	CHECK(g.err.code == ZH_OK && g.number == 2);
	CHECK(g.line == (long)(n / 100 + 5));
	CHECK(g.ntoks == 3 && strcmp(g.result, "1-0") != 0);
	CHECK(zh_pgn_next(r, &g) == 0);
	zh_pgn_close(r);
	fclose(f);
	free(s);
}

/*
 * Tokens that straddle the reader's 128 KiB reads: put a game at every
 * offset around the boundary and expect the same rendering.
 */
static void
test_chunk_boundaries(void)
{
	const char *game = "[Event \"a\\\"b\"]\r\n[Site \"s\"]\r\n\r\n"
	    "1. e4 {[%clk 0:01:00]} 1... N@f3!? 2.O-O-O $14 (2. d4 ; c\r\n"
	    ") 2... e5 {multi\r\nline} 1/2-1/2\r\n";
	const char *want = "#2@3 [Event=a\"b] [Site=s] 1. e4 {[%clk 0:01:00]} "
	    "1... N@f3 $5 2. O-O-O $14 ( 2. d4 { c} ) 2... e5 {multi\r\nline} "
	    "=1/2-1/2\n";
	size_t base = 128 * 1024 - 200, glen = strlen(game), pad, bad = 0;
	char *s = malloc(base + 400 + glen);

	for (pad = 0; pad < 200; pad++) {
		size_t n = 0;
		char *got, *second;

		n += (size_t)sprintf(s, "[Event \"x\"]\n{");
		memset(s + n, 'y', base + pad);
		n += base + pad;
		n += (size_t)sprintf(s + n, "} *\n");
		memcpy(s + n, game, glen);
		n += glen;
		got = lexn(s, n, NULL);
		second = strchr(got, '\n');
		if (second == NULL || strcmp(second + 1, want) != 0) {
			if (bad++ == 0)
				fprintf(stderr, "pad %zu: got %s", pad,
				    second ? second + 1 : got);
		}
		free(got);
	}
	CHECK(bad == 0);
	free(s);
}

/* ---- real files ---- */

static void
test_corpus(void)
{
	static const struct {
		const char *file;
		long games;
		long cut;	/* the last game has no termination marker */
	} files[] = {
		{ "pychess-zh.pgn", 83, 0 },
		{ "fatics-zh.pgn", 6, 0 },
		{ "crazyara-engine_tournament.pgn", 102, 0 },
		{ "crazyara-zh-50_startpos.pgn", 50, 0 },
		{ "crazyara-1k_cz_lichess_startpos.pgn", 1000, 0 },
		{ "lichess-2018-JannLee-CrazyAra.pgn", 1, 0 },
		{ "python-chess-knightvuillaume-jannlee-zh.pgn", 1, 0 },
		{ "scalachess-chessComCrazyhouse.pgn", 1, 0 },
		{ "scalachess-crazyhouseFromProd.pgn", 1, 0 },
		{ "chessops-headers-and-moves-on-the-same-line.pgn", 3, 1 },
		{ "chessops-leading-whitespace.pgn", 4, 1 },
		{ "chessops-pathological-headers.pgn", 1, 1 },
		{ "python-chess-chessbase-empty-line.pgn", 1, 0 },
		{ "python-chess-utf8-bom.pgn", 2, 0 },
	};
	const char *dir = getenv("ZH_TESTDATA");
	char path[512];
	size_t k;

	if (dir == NULL)
		dir = "testdata";
	for (k = 0; k < sizeof files / sizeof files[0]; k++) {
		struct zh_pgn_reader *r;
		struct zh_game g;
		long n = 0, bad = 0;
		FILE *f;

		snprintf(path, sizeof path, "%s/pgn/%s", dir, files[k].file);
		if ((f = fopen(path, "rb")) == NULL) {
			check_run++;
			check_failed++;
			fprintf(stderr, "cannot open %s\n", path);
			continue;
		}
		r = zh_pgn_open(f, NULL);
		while (zh_pgn_next(r, &g) == 1) {
			n++;
			bad += g.err.code != ZH_OK;
		}
		zh_pgn_close(r);
		fclose(f);
		check_run++;
		if (n != files[k].games || bad != files[k].cut) {
			check_failed++;
			fprintf(stderr, "%s: %ld games (%ld bad), want %ld (%ld)\n",
			    path, n, bad, files[k].games, files[k].cut);
		}
	}
}

/* Spot checks of what the real files hold. */
static void
test_corpus_details(void)
{
	const char *dir = getenv("ZH_TESTDATA");
	char path[512];
	struct zh_pgn_reader *r;
	struct zh_game g;
	FILE *f;
	int k;

	if (dir == NULL)
		dir = "testdata";
	/* chess.com: "1.e4" and the pawn drop "@g2#" */
	snprintf(path, sizeof path, "%s/pgn/scalachess-chessComCrazyhouse.pgn",
	    dir);
	if ((f = fopen(path, "rb")) == NULL) {
		CHECK(!"cannot open scalachess-chessComCrazyhouse.pgn");
		return;
	}
	r = zh_pgn_open(f, NULL);
	CHECK(zh_pgn_next(r, &g) == 1);
	CHECK(g.ntoks >= 3);
	CHECK(g.toks[0].kind == ZH_T_MOVENUM && g.toks[0].len == 2 &&
	    memcmp(g.toks[0].text, "1.", 2) == 0);
	CHECK(g.toks[1].kind == ZH_T_MOVE && g.toks[1].len == 2 &&
	    memcmp(g.toks[1].text, "e4", 2) == 0);
	CHECK(g.toks[g.ntoks - 2].len == 4 &&
	    memcmp(g.toks[g.ntoks - 2].text, "@g2#", 4) == 0);
	CHECK(g.result && strcmp(g.result, "0-1") == 0);
	CHECK(strcmp(zh_game_tag(&g, "Variant"), "Crazyhouse") == 0);
	zh_pgn_close(r);
	fclose(f);

	/* WinBoard PVs in coordinate notation, CRLF: round 47 */
	snprintf(path, sizeof path, "%s/pgn/crazyara-zh-50_startpos.pgn", dir);
	if ((f = fopen(path, "rb")) == NULL) {
		CHECK(!"cannot open crazyara-zh-50_startpos.pgn");
		return;
	}
	r = zh_pgn_open(f, NULL);
	for (k = 0; k < 47; k++)
		CHECK(zh_pgn_next(r, &g) == 1);
	CHECK(strcmp(zh_game_tag(&g, "Round"), "47") == 0);
	CHECK(strcmp(zh_game_tag(&g, "Annotator"), "2. +0.07   1... +0.05") == 0);
	CHECK(g.toks[4].kind == ZH_T_VSTART && g.toks[5].len == 4 &&
	    memcmp(g.toks[5].text, "e7e6", 4) == 0);
	CHECK(g.toks[4].line == g.line + 11 && g.toks[4].col == 1);
	zh_pgn_close(r);
	fclose(f);
}

int
main(void)
{
	test_tags();
	test_tag_lookup();
	test_movetext();
	test_positions();
	test_games();
	test_raw();
	test_errors();
	test_limits();
	test_game_too_long();
	test_chunk_boundaries();
	test_corpus();
	test_corpus_details();
	return check_report("pgn_lex");
}
