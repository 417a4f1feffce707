/*
 * bugout.c - bughouse games out: BPGN in a dialect, the JSON game object
 * with both boards, and one board alone as a one-board PGN (chess.com
 * exports each board of a bughouse game so).
 *
 * The writers take a game as read and its two-board replay (struct
 * zh_bug, bughouse.c) and walk the game's tokens once, as pgnout.c's
 * do for one board: a legal half-move as its label and SAN of the
 * target dialect, its clock in the dialect's form, other comments as
 * written, the result as given (never scored again: zhcheck says which
 * convention it follows).  Each game is built in memory and written
 * with one fwrite.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

#define bput		zh__bput
#define bputc		zh__bputc
#define bputs		zh__bputs
#define LOCALBUF	16384

static const char *const players[4] = { "WhiteA", "BlackA", "WhiteB",
    "BlackB" };
static const char *const elos[4] = { "WhiteAElo", "BlackAElo", "WhiteBElo",
    "BlackBElo" };

/* ======================== shared helpers ======================== */

/* Can the game be written: its variant and start position known? */
static bool
have_start(const struct zh_bug *b, struct zh_error *err)
{
	if (b->v != NULL && b->v->boards >= 2 && !(b->err.code != ZH_OK &&
	    b->err_code != NULL && (strcmp(b->err_code, "fen") == 0 ||
	    strcmp(b->err_code, "variant") == 0)))
		return true;
	zh_error_set(err, ZH_EPOSITION, 0, "no start position to write");
	return false;
}

/* For each token of g, 1 + the index of the legal half-move it is in
 * b->moves, or LABEL for the label of one; 0 for any other.  NULL if out
 * of memory. */
#define LABEL	((size_t)-1)

static size_t *
token_map(const struct zh_game *g, const struct zh_bug *b)
{
	size_t *map = calloc(g->ntoks + 1, sizeof *map), i;

	if (map == NULL)
		return NULL;
	for (i = 0; i < b->nmoves; i++) {
		map[b->moves[i].tok] = i + 1;
		if (b->moves[i].label_tok >= 0)
			map[b->moves[i].label_tok] = LABEL;
	}
	return map;
}

/* The comment token that holds half-move m's clock (bughouse.c reads it
 * right after the move, or after one NAG), SIZE_MAX if none. */
static size_t
clock_token(const struct zh_game *g, const struct zh_bmove *m)
{
	size_t k = m->tok + 1;

	if (!m->has_clock)
		return SIZE_MAX;
	if (k < g->ntoks && g->toks[k].kind == ZH_T_NAG)
		k++;
	return k < g->ntoks && g->toks[k].kind == ZH_T_COMMENT ? k : SIZE_MAX;
}

/* A comment that is a clock and nothing else ("118.585", "[%clk
 * 0:01:58.5]"): it is rewritten in the target's form; any other is kept
 * as written. */
static bool
pure_clock(const struct zh_token *t)
{
	const char *s = t->text, *e = s + t->len;

	while (s < e && isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	if (s < e && *s == '[')
		return e[-1] == ']' && memchr(s + 1, '[', (size_t)(e - s - 1)) ==
		    NULL;
	return true;	/* a clock read from a bare number (bughouse.c) */
}

/* Seconds to the nearest millisecond (libzh links no libm). */
static long long
millis(double sec)
{
	return (long long)(sec * 1000 + (sec < 0 ? -0.5 : 0.5));
}

/* Seconds as BPGN writes them: "118.585", "180", "-0.576". */
static size_t
seconds_text(char *buf, size_t size, double sec)
{
	long long ms = millis(sec);
	unsigned long long a = ms < 0 ? (unsigned long long)-ms :
	    (unsigned long long)ms;
	int n;

	n = snprintf(buf, size, "%s%llu", ms < 0 ? "-" : "", a / 1000);
	if (a % 1000 != 0 && n > 0 && (size_t)n < size) {
		char f[5];
		int k = 4;

		snprintf(f, sizeof f, ".%03llu", a % 1000);
		while (f[k - 1] == '0')
			k--;
		n += snprintf(buf + n, size - (size_t)n, "%.*s", k, f);
	}
	return n > 0 ? (size_t)n : 0;
}

/* The digits after the point that a game's clocks need: 1 (tenths,
 * the least, as chess.com), 2 or 3 (milliseconds); one precision for
 * the whole game, the source's. */
static int
clock_digits(const struct zh_bug *b)
{
	size_t k;
	int dg = 1;

	for (k = 0; k < b->nmoves && dg < 3; k++) {
		long long ms = b->moves[k].has_clock ?
		    millis(b->moves[k].clock) : 0;

		if (ms % 10 != 0)
			dg = 3;
		else if (ms % 100 != 0)
			dg = 2;
	}
	return dg;
}

/* "[%clk H:MM:SS.s]", with as many digits after the point as the
 * game's clocks need (clock_digits()); a negative clock (FICS lag) as
 * 0. */
static size_t
clk_text(char *buf, size_t size, double sec, int digits)
{
	static const int unit[4] = { 1000, 100, 10, 1 };
	long long ms = millis(sec);
	int n;

	if (ms < 0)
		ms = 0;
	if (digits < 1 || digits > 3)
		digits = 3;
	n = snprintf(buf, size, "[%%clk %lld:%02lld:%02lld.%0*lld]",
	    ms / 3600000, ms / 60000 % 60, ms / 1000 % 60, digits,
	    ms % 1000 / unit[digits]);
	return n > 0 ? (size_t)n : 0;
}

/* Half-move m's full-move number and side from its board's start:
 * the label "12b" into buf[24]. */
static size_t
label_text(const struct zh_bug *b, const struct zh_bmove *m, char *buf)
{
	const struct zh_pos *s = &b->start[m->board];
	long abs = ((long)s->fullmove - 1) * 2 + (s->side == ZH_BLACK) +
	    m->rm.ply - 1;
	int n = snprintf(buf, 24, "%ld%c", abs / 2 + 1,
	    (m->side == ZH_WHITE ? "AB" : "ab")[m->board]);

	return n > 0 ? (size_t)n : 0;
}

/* A label token as the reader leaves it ("12A"): digits, one letter. */
static bool
is_label(const struct zh_token *t)
{
	size_t k = 0;

	while (k < t->len && isdigit((unsigned char)t->text[k]))
		k++;
	return k > 0 && k + 1 == t->len && strchr("AaBb", t->text[k]) != NULL;
}

/* A tag's value and what follows it: ' "value"]'. */
static void
tag_rest(struct zh__buf *b, const char *value, bool nl)
{
	const char *s;

	bput(b, " \"", 2);
	for (s = value; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			bputc(b, '\\');
		bputc(b, *s);
	}
	bput(b, "\"]", 2);
	if (nl)
		bputc(b, '\n');
}

static void
put_tag(struct zh__buf *b, const char *name, const char *value, bool nl)
{
	bputc(b, '[');
	bputs(b, name);
	tag_rest(b, value, nl);
}

/* The result as given: the token, else a Result tag of the four forms,
 * else "*". */
static const char *
given_result(const struct zh_game *g)
{
	return g->result != NULL ? g->result : zh_game_result(g);
}

/* ======================== wrapped movetext ======================== */

struct wr {
	struct zh__buf *b;
	size_t col;
	int digits;	/* of the game's [%clk]s: clock_digits() */
};

/* A word (a comment may hold line ends), wrapped as pgnout.c wraps. */
static void
word(struct wr *w, const char *s, size_t n)
{
	zh__pgn_word(w->b, &w->col, s, n, 0, 0);
}

/* A comment as written, in braces (CR LF as LF); one holding '}' (it
 * came from a ';' comment) as a ';' comment, which ends its line. */
static void
comment(struct wr *w, const struct zh_token *t)
{
	struct zh__buf c = { 0 };
	bool semi = memchr(t->text, '}', t->len) != NULL;
	size_t i;

	bputc(&c, semi ? ';' : '{');
	for (i = 0; i < t->len; i++) {
		char ch = t->text[i];

		if (ch == '\r' && i + 1 < t->len && t->text[i + 1] == '\n')
			continue;
		if (ch == '\r' || (semi && ch == '\n'))
			ch = semi ? ' ' : '\n';
		bputc(&c, ch);
	}
	bputc(&c, semi ? '\n' : '}');
	if (c.fail)
		w->b->fail = true;
	else
		word(w, c.s, c.len);
	if (semi)
		w->col = 0;
	free(c.s);
}

/* A clock in the form dialect d puts it in movetext, braces and all. */
static void
clock_word(struct wr *w, double sec, int d)
{
	char s[64];
	size_t n = 1;

	s[0] = '{';
	if (zh__dialect(d, ZH_SAN_AUTO)->bpgn_clk)
		n += clk_text(s + n, sizeof s - 2, sec, w->digits);
	else
		n += seconds_text(s + n, sizeof s - 2, sec);
	s[n++] = '}';
	word(w, s, n);
}

/* ======================== BPGN ======================== */

/*
 * Event, Site, Date, the four players (each with its Elo on its line,
 * as bughousedb writes them), the other tags in input order, Result;
 * the FEN tag where it was, as a two-board FEN of dialect d.
 */
static void
bpgn_tags(struct zh__buf *out, const struct zh_game *g,
    const struct zh_bug *b, int d)
{
	static const char *const first[3] = { "Event", "Site", "Date" };
	static const char *const unknown[3] = { "?", "?", "????.??.??" };
	const char *v;
	char fen[2 * ZH_FENMAX + 4];
	size_t k;
	int i;

	for (i = 0; i < 3; i++)
		put_tag(out, first[i], (v = zh_game_tag(g, first[i])) ? v :
		    unknown[i], true);
	for (i = 0; i < 4; i++) {
		put_tag(out, players[i], (v = zh_game_tag(g, players[i])) ? v :
		    "?", false);
		if ((v = zh_game_tag(g, elos[i])) != NULL)
			put_tag(out, elos[i], v, false);
		bputc(out, '\n');
	}
	for (k = 0; k < g->ntags; k++) {
		const struct zh_tag *t = &g->tags[k];
		bool known = strcmp(t->name, "Result") == 0;

		for (i = 0; i < 3 && !known; i++)
			known = strcmp(t->name, first[i]) == 0;
		for (i = 0; i < 4 && !known; i++)
			known = strcmp(t->name, players[i]) == 0 ||
			    strcmp(t->name, elos[i]) == 0;
		if (known)
			continue;
		if (strcmp(t->name, "FEN") == 0) {
			if (!b->setup || zh_game_tag(g, "FEN") != t->value)
				continue;	/* a repeated one: the first is it */
			zh_bfen_write(b->start, d, fen, sizeof fen);
			put_tag(out, "FEN", fen, true);
		} else
			put_tag(out, t->name, t->value, true);
	}
	put_tag(out, "Result", (v = zh_game_tag(g, "Result")) ? v :
	    given_result(g), true);
}

/* The movetext: each half-move's label and SAN, its clock in dialect
 * d's form, the other tokens as written; the moves past an error as
 * written. */
static void
bpgn_movetext(struct zh__buf *out, const struct zh_game *g,
    const struct zh_bug *b, int d, const size_t *map)
{
	struct wr w = { out, 0, clock_digits(b) };
	size_t i, clk = SIZE_MAX;	/* the clock comment to rewrite */
	double sec = 0;
	bool have_result = false;

	for (i = 0; i < g->ntoks; i++) {
		const struct zh_token *t = &g->toks[i];
		const struct zh_bmove *m;
		char mw[64];
		const char *san;
		size_t n, sn;

		switch (t->kind) {
		case ZH_T_MOVE:
			if (map[i] == LABEL)
				break;	/* written with its move */
			if (map[i] == 0) {	/* not played: as written */
				word(&w, t->text, t->len);
				if (is_label(t)) {
					bputc(out, '.');
					w.col++;
				}
				break;
			}
			m = &b->moves[map[i] - 1];
			n = label_text(b, m, mw);
			mw[n++] = '.';
			mw[n++] = ' ';
			sn = zh__san_as(m->rm.san, zh__movelen(m->rm.san), d,
			    &san);
			memcpy(mw + n, san, sn);
			word(&w, mw, n + sn);
			clk = clock_token(g, m);
			if (clk != SIZE_MAX && !pure_clock(&g->toks[clk]))
				clk = SIZE_MAX;	/* more than a clock: kept */
			sec = m->clock;
			break;
		case ZH_T_COMMENT:
			if (i == clk)
				clock_word(&w, sec, d);
			else
				comment(&w, t);
			break;
		case ZH_T_MOVENUM:
			if (b->labels)
				break;	/* the labels number the moves */
			word(&w, t->text, t->len);
			break;
		case ZH_T_RESULT:
			have_result = true;
			/* FALLTHROUGH */
		case ZH_T_NAG:
			word(&w, t->text, t->len);
			break;
		case ZH_T_VSTART:
			word(&w, "(", 1);
			break;
		case ZH_T_VEND:
			word(&w, ")", 1);
			break;
		}
	}
	if (!have_result)
		word(&w, given_result(g), strlen(given_result(g)));
	if (w.col > 0)
		bputc(out, '\n');
}

int
zh_bug_write(FILE *f, const struct zh_game *g, const struct zh_bug *b, int d,
    struct zh_error *err)
{
	char local[LOCALBUF];
	struct zh__buf out = ZH_BUF_LOCAL(local);
	size_t *map;

	if (!have_start(b, err))
		return -1;
	if (!b->labels)		/* one board of a game: it stays one */
		return zh_bug_board_write(f, g, b, ZH_BOARD_A, d, err);
	if (d == ZH_AUTO)
		d = ZH_SAN_AUTO;
	if ((map = token_map(g, b)) == NULL) {
		zh_error_set(err, ZH_ENOMEM, 0, "out of memory");
		return -1;
	}
	bpgn_tags(&out, g, b, d);
	bputc(&out, '\n');
	bpgn_movetext(&out, g, b, d, map);
	bputc(&out, '\n');
	free(map);
	return zh__buf_flush(&out, f, err);
}

/* ======================== one board ======================== */

/* Seconds in a TimeControl "180" or "180+2"; false if not that form. */
bool
zh__time_control(const char *tc, double *base, double *inc)
{
	char *end;

	if (tc == NULL || !isdigit((unsigned char)*tc))
		return false;
	*base = strtod(tc, &end);
	*inc = 0;
	if (*end == '+') {
		if (!isdigit((unsigned char)end[1]))
			return false;
		*inc = strtod(end + 1, &end);
	}
	return *end == '\0' && *base <= ZH_CLOCK_MAX && *inc <= ZH_CLOCK_MAX;
}

void
zh__bug_stamps(const struct zh_game *g, const struct zh_bug *b, int64_t *ts)
{
	int64_t used[2][2] = { { 0, 0 }, { 0, 0 } }, last[2] = { 0, 0 };
	int64_t prev = -1, base, in;
	long made[2][2] = { { 0, 0 }, { 0, 0 } };
	double bs = 0, ic = 0;
	size_t i;
	int seen = 0;

	/* the base as bugmerge.c's clock_base() takes it: TimeControl, else the
	   largest first clock of the four players */
	if (!zh__time_control(zh_game_tag(g, "TimeControl"), &bs, &ic))
		for (ic = 0, i = 0; i < b->nmoves; i++) {
			const struct zh_bmove *m = &b->moves[i];
			int bit = 1 << (2 * m->board + m->side);

			if (!m->has_clock || (seen & bit))
				continue;
			seen |= bit;
			if (m->clock > bs)
				bs = m->clock;
		}
	base = millis(bs);
	in = millis(ic);
	for (i = 0; i < b->nmoves; i++) {
		const struct zh_bmove *m = &b->moves[i];
		int bd = m->board != 0, s = m->side;
		int64_t t;

		made[bd][s]++;
		if (m->has_clock)
			used[bd][s] = base - millis(m->clock) + in * made[bd][s];
		t = used[bd][0] + used[bd][1];
		if (t < last[bd])
			t = last[bd];	/* a board's times never go back */
		last[bd] = t;
		ts[i] = prev = t > prev ? t : prev + 1;
	}
}

/* The team result (1-0: White on A and Black on B won): the Result as
 * given, read by the convention the ending tells (zh__bug_result, the
 * arrays' and zhcheck's one rule), else from the ending the replay
 * found, else as given. */
static const char *
team_result(const struct zh_game *g, const struct zh_bug *b)
{
	const char *conv, *r = zh__bug_result(b, given_result(g), &conv);

	if (conv == NULL && zh_bug_team_result(b) != NULL)
		r = zh_bug_team_result(b);
	return r;
}

/* Board bd's own result: board A's is the team's, board B's its
 * mirror (White on B plays for the other team). */
static const char *
board_result(const char *team, int bd)
{
	if (bd == ZH_BOARD_A || strcmp(team, "1/2-1/2") == 0 ||
	    strcmp(team, "*") == 0)
		return team;
	return strcmp(team, "1-0") == 0 ? "0-1" : "1-0";
}

/* The Termination tag of board bd, as chess.com words it, into buf;
 * NULL when the replay found no ending. */
static const char *
termination(const struct zh_game *g, const struct zh_bug *b, int bd,
    const char *team, char *buf, size_t size)
{
	static const char *const how[][2] = {
		{ "checkmate", "by checkmate" }, { "resignation", "by resignation" },
		{ "time", "on time" }, { "disconnection", "by disconnection" },
	};
	const char *ended = b->mated_board >= 0 ? "checkmate" : b->end_how;
	const char *name, *words = NULL;
	int won, k, eb = b->mated_board >= 0 ? b->mated_board : b->end_board;

	if (ended == NULL)
		return NULL;
	if (strcmp(ended, "draw") == 0)
		return "Game drawn";
	if (strcmp(team, "1-0") != 0 && strcmp(team, "0-1") != 0)
		return strcmp(ended, "abort") == 0 ? "Game aborted" : NULL;
	/* the side of board bd in the team that won */
	won = (strcmp(team, "1-0") == 0) == (bd == ZH_BOARD_A) ? ZH_WHITE :
	    ZH_BLACK;
	name = zh_game_tag(g, players[2 * bd + won]);
	if (name == NULL || *name == '\0')
		name = won == ZH_WHITE ? "White" : "Black";
	for (k = 0; k < (int)(sizeof how / sizeof how[0]); k++)
		if (strcmp(ended, how[k][0]) == 0)
			words = how[k][1];
	if (words == NULL)
		return NULL;
	if (eb != bd)
		words = "with their bughouse partner";
	snprintf(buf, size, "%s won %s", name, words);
	return buf;
}

/* The partner board's game named: the BPGN's Site, Date and Time tags
 * (those it has), '#' and the game's number in its input, and the
 * board letter ("freechess.org 2021-10-05 16:45:40 #3 B"). */
static void
partner_name(const struct zh_game *g, int bd, char *buf, size_t size)
{
	static const char *const ids[3] = { "Site", "Date", "Time" };
	size_t n = 0;
	int i, k;
	const char *v;

	buf[0] = '\0';
	for (i = 0; i < 3; i++)
		if ((v = zh_game_tag(g, ids[i])) != NULL && *v != '\0' &&
		    n < size) {
			k = snprintf(buf + n, size - n, "%s ", v);
			n += k > 0 ? (size_t)k : 0;
		}
	if (n < size)
		snprintf(buf + n, size - n, "#%ld %c", g->number,
		    zh_board_letter(!bd));
}

/* A tag the one-board writer makes itself or leaves out (Lag: one
 * number per half-move of both boards). */
static bool
board_made_tag(const char *name)
{
	static const char *const made[] = {
		"Event", "Site", "Date", "Round", "White", "Black", "Result",
		"WhiteElo", "BlackElo", "Variant", "FEN", "SetUp", "Board",
		"PartnerGame", "Termination", "Lag", "CurrentPosition",
	};
	size_t k;

	for (k = 0; k < sizeof made / sizeof made[0]; k++)
		if (strcmp(name, made[k]) == 0)
			return true;
	for (k = 0; k < 4; k++)
		if (strcmp(name, players[k]) == 0 || strcmp(name, elos[k]) == 0)
			return true;
	return false;
}

/* A tag of board bd's player of colour c ("WhiteB", or for one board
 * of a game "White"), its Elo too. */
static const char *
board_player(const struct zh_game *g, const struct zh_bug *b, int bd, int c,
    bool elo)
{
	static const char *const one[2][2] = { { "White", "Black" },
	    { "WhiteElo", "BlackElo" } };
	const char *v = zh_game_tag(g, (elo ? elos : players)[2 * bd + c]);

	if (v == NULL && !b->labels)
		v = zh_game_tag(g, one[elo][c]);
	return v;
}

/* A tag that board A's file carries for the merge under its name
 * prefixed with "BPGN": one the board file makes itself or leaves
 * out, but for the roster and the four players' tags (those it
 * carries as they are). */
static bool
carried_tag(const char *name)
{
	static const char *const kept[] = { "Event", "Site", "Date",
	    "Round" };
	size_t k;

	for (k = 0; k < sizeof kept / sizeof kept[0]; k++)
		if (strcmp(name, kept[k]) == 0)
			return false;
	for (k = 0; k < 4; k++)
		if (strcmp(name, players[k]) == 0 || strcmp(name, elos[k]) == 0)
			return false;
	return board_made_tag(name);
}

/*
 * What board A's file carries for zhpgn --merge-boards to give the
 * BPGN back: BPGNTags, the names of the BPGN's tags in their order,
 * and each tag the board file does not carry as it is (its Result,
 * Lag, Termination, ...) as BPGN<name>.
 */
static void
bpgn_carried(struct zh__buf *out, const struct zh_game *g)
{
	const char *v;
	size_t k;

	bputs(out, "[BPGNTags \"");
	for (k = 0; k < g->ntags; k++) {
		if (k > 0)
			bputc(out, ' ');
		bputs(out, g->tags[k].name);
	}
	bputs(out, "\"]\n");
	if (g->result != NULL && ((v = zh_game_tag(g, "Result")) == NULL ||
	    strcmp(v, g->result) != 0))	/* the movetext's, another */
		put_tag(out, "BPGNResultToken", g->result, true);
	for (k = 0; k < g->ntags; k++)
		if (carried_tag(g->tags[k].name)) {
			bputs(out, "[BPGN");
			bputs(out, g->tags[k].name);
			tag_rest(out, g->tags[k].value, true);
		}
}

static void
board_tags(struct zh__buf *out, const struct zh_game *g,
    const struct zh_bug *b, int bd, int d, const char *result,
    const char *team)
{
	static const char *const roster[4] = { "Event", "Site", "Date",
	    "Round" };
	static const char *const unknown[4] = { "?", "?", "????.??.??", "?" };
	char fen[ZH_FENMAX], local[256], *buf = local, vbuf[32];
	const char *v, *term;
	size_t k, need = 64;	/* PartnerGame, Termination: of tag values */
	int i;

	for (k = 0; k < g->ntags; k++)
		need += strlen(g->tags[k].value) + 1;
	if (need > sizeof local && (buf = malloc(need)) == NULL) {
		out->fail = true;
		return;
	}
	for (i = 0; i < 4; i++)
		put_tag(out, roster[i], (v = zh_game_tag(g, roster[i])) ? v :
		    unknown[i], true);
	put_tag(out, "White", (v = board_player(g, b, bd, ZH_WHITE, false)) ?
	    v : "?", true);
	put_tag(out, "Black", (v = board_player(g, b, bd, ZH_BLACK, false)) ?
	    v : "?", true);
	put_tag(out, "Result", result, true);
	for (i = 0; i < 2; i++)
		if ((v = board_player(g, b, bd, i, true)) != NULL)
			put_tag(out, i == ZH_WHITE ? "WhiteElo" : "BlackElo", v,
			    true);
	v = b->v->tag;
	if (zh__dialect(d, ZH_SAN_AUTO)->variant_lower) {
		for (k = 0; v[k] != '\0' && k + 1 < sizeof vbuf; k++)
			vbuf[k] = (char)tolower((unsigned char)v[k]);
		vbuf[k] = '\0';
		v = vbuf;
	}
	put_tag(out, "Variant", v, true);
	if (b->setup) {
		zh_fen_write(&b->start[bd], d, fen, sizeof fen);
		put_tag(out, "FEN", fen, true);
		put_tag(out, "SetUp", "1", true);
	}
	if (!b->labels && (v = zh_game_tag(g, "Board")) != NULL)
		put_tag(out, "Board", v, true);
	else {
		buf[0] = zh_board_letter(bd);
		buf[1] = '\0';
		put_tag(out, "Board", buf, true);
	}
	if (b->labels) {
		partner_name(g, bd, buf, need);
		put_tag(out, "PartnerGame", buf, true);
	} else if ((v = zh_game_tag(g, "PartnerGame")) != NULL)
		put_tag(out, "PartnerGame", v, true);
	for (k = 0; k < g->ntags; k++)
		if (!board_made_tag(g->tags[k].name) &&
		    (b->labels || strncmp(g->tags[k].name, "BPGN", 4) != 0))
			put_tag(out, g->tags[k].name, g->tags[k].value, true);
	term = b->labels ? termination(g, b, bd, team, buf, need) :
	    zh_game_tag(g, "Termination");
	if (term != NULL)
		put_tag(out, "Termination", term, true);
	if (b->labels && bd == ZH_BOARD_A)
		bpgn_carried(out, g);
	for (k = 0; k < g->ntags && !b->labels; k++)	/* where they were */
		if (strncmp(g->tags[k].name, "BPGN", 4) == 0)
			put_tag(out, g->tags[k].name, g->tags[k].value, true);
	if (buf != local)
		free(buf);
}

/* "[%ts 12.345]" (sp: after a space) for time stamp ms (never
 * negative) into buf[32]. */
static size_t
ts_text(char *buf, int64_t ms, bool sp)
{
	int n = snprintf(buf, 32, "%s[%%ts %lld.%03lld]", sp ? " " : "",
	    (long long)(ms / 1000), (long long)(ms % 1000));

	return n > 0 ? (size_t)n : 0;
}

/* Board bd's half-moves with move numbers, a [%clk] after each (and
 * with ts, each one's time stamp from it: in the clock's comment, or
 * in one of its own), the comments after them and before the first
 * move. */
static void
board_movetext(struct zh__buf *out, const struct zh_game *g,
    const struct zh_bug *b, int bd, int d, const char *result,
    const int64_t *ts)
{
	const struct zh_pos *s = &b->start[bd];
	struct wr w = { out, 0, clock_digits(b) };
	size_t i, k, clk, nag;
	bool force = true, stamp;

	for (i = 0; i < g->ntoks && g->toks[i].kind != ZH_T_MOVE; i++)
		if (g->toks[i].kind == ZH_T_COMMENT)
			comment(&w, &g->toks[i]);
	for (k = 0; k < b->nmoves; k++) {
		const struct zh_bmove *m = &b->moves[k];
		long abs = ((long)s->fullmove - 1) * 2 +
		    (s->side == ZH_BLACK) + m->rm.ply - 1;
		const char *san;
		char mw[64];
		size_t n = 0, sn;

		if (m->board != bd)
			continue;
		if (abs % 2 == 0 || force)
			n = (size_t)snprintf(mw, 24, abs % 2 ? "%ld... " :
			    "%ld. ", abs / 2 + 1);
		sn = zh__san_as(m->rm.san, zh__movelen(m->rm.san), d, &san);
		memcpy(mw + n, san, sn);
		word(&w, mw, n + sn);
		force = false;
		stamp = ts != NULL;
		clk = clock_token(g, m);
		nag = SIZE_MAX;
		if (clk != SIZE_MAX && !pure_clock(&g->toks[clk]))
			clk = SIZE_MAX;	/* [%clk] and more: kept as written */
		else if (m->has_clock || stamp) {
			if (clk == m->tok + 2) {	/* a NAG before it */
				nag = m->tok + 1;
				word(&w, g->toks[nag].text, g->toks[nag].len);
			}
			/* a move without a clock gets its stamp so too: no
			   clock is read from it */
			n = 0;
			mw[n++] = '{';
			if (m->has_clock)
				n += clk_text(mw + n, 30, m->clock,
				    w.digits);
			if (stamp)
				n += ts_text(mw + n, ts[k], m->has_clock);
			mw[n++] = '}';
			word(&w, mw, n);
			stamp = false;
		}
		/* its other comments and NAGs: up to the next move or
		   label (a clock kept as written numbers no move, as one
		   rewritten) */
		for (i = m->tok + 1; i < g->ntoks &&
		    g->toks[i].kind != ZH_T_MOVE &&
		    g->toks[i].kind != ZH_T_VSTART &&
		    g->toks[i].kind != ZH_T_RESULT; i++)
			if (g->toks[i].kind == ZH_T_COMMENT && i != clk) {
				comment(&w, &g->toks[i]);
				force = force || i != clock_token(g, m);
			} else if (g->toks[i].kind == ZH_T_NAG && i != nag)
				word(&w, g->toks[i].text, g->toks[i].len);
		if (stamp) {	/* after a clock comment kept as written */
			mw[0] = '{';
			n = 1 + ts_text(mw + 1, ts[k], false);
			mw[n++] = '}';
			word(&w, mw, n);
		}
	}
	word(&w, result, strlen(result));
	for (i = 0; i < g->ntoks && g->toks[i].kind != ZH_T_RESULT; i++)
		;
	while (++i < g->ntoks)	/* the comments after the result */
		if (g->toks[i].kind == ZH_T_COMMENT)
			comment(&w, &g->toks[i]);
	bputc(out, '\n');
}

int
zh_bug_board_write(FILE *f, const struct zh_game *g, const struct zh_bug *b,
    int board, int d, struct zh_error *err)
{
	char local[LOCALBUF];
	struct zh__buf out = ZH_BUF_LOCAL(local);
	const char *result, *team = team_result(g, b);
	int64_t *ts = NULL;

	if (!have_start(b, err))
		return -1;
	if (board != ZH_BOARD_A && board != ZH_BOARD_B) {
		zh_error_set(err, ZH_EPOSITION, 0, "no board %d", board);
		return -1;
	}
	if (d == ZH_AUTO)
		d = ZH_SAN_AUTO;
	/* one board of a game: its result is its own, as given; the
	   stamps of a two-board game's moves (a board alone keeps its
	   comments, stamps and all) */
	result = b->labels ? board_result(team, board) : given_result(g);
	if (b->labels && (ts = malloc((b->nmoves + 1) * sizeof *ts)) == NULL) {
		zh_error_set(err, ZH_ENOMEM, 0, "out of memory");
		return -1;
	}
	if (ts != NULL)
		zh__bug_stamps(g, b, ts);
	board_tags(&out, g, b, board, d, result, team);
	bputc(&out, '\n');
	board_movetext(&out, g, b, board, d, result, ts);
	bputc(&out, '\n');
	free(ts);
	return zh__buf_flush(&out, f, err);
}

/* ======================== JSON ======================== */

struct bjson {
	struct zh__buf *b;
	const struct zh_game *g;
	const struct zh_bug *bug;
	int d;
	unsigned flags;
	struct zh__buf text;	/* a move's comments */
};

/*
 * "after" (or "before", key): the comments and NAGs after a half-move
 * (before the first) as written, from token i to the next move (its
 * clock's comment 'clk' and the result left out), when "comment" alone
 * would join them into one or space them otherwise: the reader reads
 * this list back instead (zhkit-json(5) "Read back").
 */
static void
bjson_list(struct zh__buf *b, const char *key, const struct zh_game *g,
    size_t i, size_t clk)
{
	struct zh__buf c = { 0 };

	zh__json_keyn(b, key, strlen(key));
	zh__json_open(b, '[');
	for (; i < g->ntoks && g->toks[i].kind != ZH_T_MOVE &&
	    g->toks[i].kind != ZH_T_VSTART; i++) {
		const struct zh_token *t = &g->toks[i];

		if (t->kind == ZH_T_NAG)
			zh__json_str(b, t->text, t->len);
		else if (t->kind == ZH_T_COMMENT && i != clk) {
			c.len = 0;	/* "{text": gamejson.c's form */
			bputc(&c, '{');
			bput(&c, t->text, t->len);
			zh__json_str(b, c.s, c.len);
		}
	}
	zh__json_close(b, ']');
	if (c.fail)
		b->fail = true;
	free(c.s);
}

/* One half-move's object, with both boards' holdings after it. */
static int
bjson_move(void *arg, const struct zh_bply *pl)
{
	struct bjson *j = arg;
	struct zh__buf *b = j->b;
	const struct zh_bmove *m = pl->move;
	const struct zh_game *g = j->g;
	char s[2 * ZH_FENMAX + 4];
	const char *san;
	size_t n, i, clk;

	if (m == NULL)
		return 0;	/* the start: the game's "start" */
	zh__json_open(b, '{');
	zh__json_key(b, "board");
	zh__json_ascii(b, m->board == ZH_BOARD_B ? "B" : "A");
	zh__json_key(b, "mover");
	zh__json_ascii(b, m->side == ZH_WHITE ? "white" : "black");
	if (j->bug->labels) {	/* one board's moves are numbered: no label
				   for the reader to read back */
		zh__json_key(b, "label");
		label_text(j->bug, m, s);
		zh__json_ascii(b, s);
	}
	zh__json_key(b, "ply");
	zh__json_int(b, m->rm.ply);
	zh__json_key(b, "san");
	n = zh__san_as(m->rm.san, zh__movelen(m->rm.san), j->d, &san);
	zh__json_str(b, san, n);
	zh__json_key(b, "uci");
	zh__json_ascii(b, m->rm.uci);
	if (m->has_clock) {
		zh__json_key(b, "clock");
		n = seconds_text(s, sizeof s, m->clock);
		zh__json_sep(b);
		bput(b, s, n);
	}
	/* its comments, up to the next move or label, but a clock's own */
	clk = clock_token(g, m);
	/* a board alone (chess.com's file) keeps its clock's comment, as
	   any game of one board does: "clock" is read back from a label's
	   move only */
	if (clk != SIZE_MAX && (!pure_clock(&g->toks[clk]) ||
	    !j->bug->labels))
		clk = SIZE_MAX;
	j->text.len = 0;
	for (i = m->tok + 1, n = 0; i < g->ntoks &&
	    g->toks[i].kind != ZH_T_MOVE && g->toks[i].kind != ZH_T_VSTART;
	    i++)
		if (g->toks[i].kind == ZH_T_COMMENT && i != clk) {
			zh__json_comment_add(&j->text, &g->toks[i]);
			/* spaced otherwise than "comment" reads back */
			n += zh__json_plain_comment(&g->toks[i]) ? 1 : 2;
		} else if (g->toks[i].kind == ZH_T_NAG)
			n += 2;
	if (j->text.len > 0) {
		zh__json_key(b, "comment");
		zh__json_str(b, j->text.s, j->text.len);
	}
	if (n > 1)	/* "comment" joins them: the tokens apart */
		bjson_list(b, "after", g, m->tok + 1, clk);
	zh__json_key(b, "pockets");
	zh__json_open(b, '{');
	zh__json_key(b, "A");
	zh__json_hands(b, pl->pos[ZH_BOARD_A]);
	zh__json_key(b, "B");
	zh__json_hands(b, pl->pos[ZH_BOARD_B]);
	zh__json_close(b, '}');
	if (j->flags & ZH_JSON_FENS) {
		zh_bfen_write(*pl->pos, j->d, s, sizeof s);
		zh__json_key(b, "fen");
		zh__json_ascii(b, s);
	}
	zh__json_close(b, '}');
	return 0;
}

/*
 * The movetext past the last legal half-move of a game in error (the
 * illegal one and what follows, up to the result) as move objects of
 * their own: "label" (when a label token comes first), "san" as
 * written, "uci" null, and the comments and NAGs after it as its
 * "after" list, so that the reader reads back the same tokens and the
 * replay finds the same error (zhkit-json(5) "Read back").
 */
static void
bjson_rest(struct bjson *j)
{
	const struct zh_game *g = j->g;
	const struct zh_bug *bug = j->bug;
	struct zh__buf *b = j->b;
	size_t i = 0, k;

	if (bug->nmoves > 0)
		i = bug->moves[bug->nmoves - 1].tok + 1;
	while (i < g->ntoks && g->toks[i].kind != ZH_T_MOVE)
		i++;
	while (i < g->ntoks) {
		const struct zh_token *t = &g->toks[i];

		if (t->kind != ZH_T_MOVE) {	/* a variation's, the result */
			i++;
			continue;
		}
		zh__json_open(b, '{');
		if (is_label(t) && i + 1 < g->ntoks &&
		    g->toks[i + 1].kind == ZH_T_MOVE) {
			zh__json_key(b, "label");
			zh__json_str(b, t->text, t->len);
			t = &g->toks[++i];
		}
		zh__json_key(b, "san");
		zh__json_str(b, t->text, t->len);
		zh__json_key(b, "uci");
		zh__json_null(b);
		for (k = i + 1; k < g->ntoks && (g->toks[k].kind ==
		    ZH_T_COMMENT || g->toks[k].kind == ZH_T_NAG); k++)
			;
		if (k > i + 1)
			bjson_list(b, "after", g, i + 1, SIZE_MAX);
		zh__json_close(b, '}');
		i = k;
	}
}

/* {"line","col","ply","code","message","severity"[,"board"][,"reader"]} */
static void
bjson_error(struct zh__buf *b, const struct zh_error *e, const char *code,
    int board, bool reader)
{
	zh__json_error_open(b, e, code, false);
	if (board >= 0) {
		zh__json_key(b, "board");
		zh__json_ascii(b, board == ZH_BOARD_B ? "B" : "A");
	}
	if (reader)
		bputs(b, ",\"reader\":true");
	zh__json_close(b, '}');
}

void
zh_bug_json(struct zh__buf *out, const struct zh_game *g,
    const struct zh_bug *b, int d, unsigned flags)
{
	char fen[2 * ZH_FENMAX + 4];
	struct zh__buf pre = { 0 };
	struct bjson j = { out, g, b, d == ZH_AUTO ? ZH_SAN_AUTO : d, flags,
	    { 0 } };
	bool start = have_start(b, NULL);
	size_t k, n;

	zh__json_open(out, '{');
	zh__json_game_head(out, g, b->v);
	zh__json_key(out, "board_count");
	zh__json_int(out, b->labels ? 2 : 1);
	zh__json_key(out, "start");
	if (start && b->labels) {
		zh_bfen_write(b->start, j.d, fen, sizeof fen);
		zh__json_ascii(out, fen);
	} else if (start) {
		zh_fen_write(&b->start[ZH_BOARD_A], j.d, fen, sizeof fen);
		zh__json_ascii(out, fen);
	} else
		zh__json_null(out);
	zh__json_key(out, "moves");
	zh__json_open(out, '[');
	if (start)
		zh_bug_walk(b, bjson_move, &j);
	if (start && !b->complete && g->err.code == ZH_OK)
		bjson_rest(&j);
	zh__json_close(out, ']');
	/* the comments before the first move */
	for (k = 0, n = 0; k < g->ntoks && g->toks[k].kind != ZH_T_MOVE; k++)
		if (g->toks[k].kind == ZH_T_COMMENT) {
			zh__json_comment_add(&pre, &g->toks[k]);
			n += zh__json_plain_comment(&g->toks[k]) ? 1 : 2;
		}
	if (pre.len > 0) {
		zh__json_key(out, "comment");
		zh__json_str(out, pre.s, pre.len);
	}
	if (n > 1)	/* "comment" joins or trims them: the tokens apart */
		bjson_list(out, "before", g, 0, SIZE_MAX);
	zh__json_game_result(out, g, b->complete);
	zh__json_key(out, "errors");
	zh__json_open(out, '[');
	if (g->err.code != ZH_OK)
		bjson_error(out, &g->err, "syntax", -1, true);
	if (b->err.code != ZH_OK)
		bjson_error(out, &b->err, b->err_code ? b->err_code :
		    "illegal-move", b->err_board, false);
	zh__json_close(out, ']');
	zh__json_close(out, '}');
	if (j.text.fail || pre.fail)
		out->fail = true;
	free(j.text.s);
	free(pre.s);
}
