/*
 * check.c - a game validated as a CI pipeline wants it: the rules
 * (through zh_replay), the tags, and the result against the final
 * position; every problem once, in input order, up to the first error.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

static struct zh_problem *
add(struct zh_check *c, int sev, const char *code, long line, long col,
    long ply, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

static struct zh_problem *
add(struct zh_check *c, int sev, const char *code, long line, long col,
    long ply, const char *fmt, ...)
{
	struct zh_problem *p;
	va_list ap;

	if (c->nprobs >= ZH_MAXPROBLEMS)
		return NULL;
	p = &c->probs[c->nprobs++];
	p->severity = sev;
	p->code = code;
	p->line = line;
	p->col = col;
	p->ply = ply;
	p->board = -1;
	va_start(ap, fmt);
	vsnprintf(p->text, sizeof p->text, fmt, ap);
	va_end(ap);
	return p;
}

/* add() of a message made of two strings, without printf: the one
 * problem most archives have in every game (a missing roster tag). */
static void
add2(struct zh_check *c, int sev, const char *code, long line, long col,
    const char *a, const char *b)
{
	struct zh_problem *p;
	size_t na = strlen(a), nb = strlen(b);

	if (na + nb >= sizeof p->text) {
		add(c, sev, code, line, col, 0, "%s%s", a, b);
		return;
	}
	if (c->nprobs >= ZH_MAXPROBLEMS)
		return;
	p = &c->probs[c->nprobs++];
	p->severity = sev;
	p->code = code;
	p->line = line;
	p->col = col;
	p->ply = 0;
	p->board = -1;
	memcpy(p->text, a, na);
	memcpy(p->text + na, b, nb + 1);
}

static const struct zh_tag *
find_tag(const struct zh_game *g, const char *name)
{
	size_t i;

	for (i = 0; i < g->ntags; i++)
		if (g->tags[i].name[0] == name[0] &&
		    strcmp(g->tags[i].name, name) == 0)
			return &g->tags[i];
	return NULL;
}

/* The first tag of each name the checks read, found in one pass. */
enum { K_ROUND = 3, K_RESULT = 6, K_PLYCOUNT = 7, K_SETUP, K_FEN, K_N };	/* roster: 0-6 */
static const char *const known_names[K_N] = {
	"Event", "Site", "Date", "Round", "White", "Black", "Result",
	"PlyCount", "SetUp", "FEN"
};

static void
known_tags(const struct zh_game *g, const struct zh_tag **k)
{
	size_t i;
	int j;

	for (j = 0; j < K_N; j++)
		k[j] = NULL;
	for (i = 0; i < g->ntags; i++) {
		const char *n = g->tags[i].name;

		switch (n[0]) {	/* the one or two names of each letter */
		case 'E': j = 0; break;
		case 'S': j = n[1] == 'i' ? 1 : K_SETUP; break;
		case 'D': j = 2; break;
		case 'R': j = n[1] == 'o' ? 3 : K_RESULT; break;
		case 'W': j = 4; break;
		case 'B': j = 5; break;
		case 'P': j = K_PLYCOUNT; break;
		case 'F': j = K_FEN; break;
		default: continue;
		}
		if (k[j] == NULL && strcmp(n, known_names[j]) == 0)
			k[j] = &g->tags[i];
	}
}

/* The token that starts at line:col, or NULL. */
static const struct zh_token *
token_at(const struct zh_game *g, long line, long col)
{
	size_t i;

	for (i = 0; i < g->ntoks; i++)
		if (g->toks[i].line == line && g->toks[i].col == col)
			return &g->toks[i];
	return NULL;
}

/* Code of a move error recorded by zh_replay. */
static const char *
move_code(const struct zh_game *g, const struct zh_error *e)
{
	const struct zh_token *t;

	switch (e->code) {
	case ZH_EAMBIG:
		return "ambiguous";
	case ZH_EVARIANT:
		return "variant";
	case ZH_ESYNTAX:
		return "syntax";
	case ZH_EILLEGAL:
		if (strncmp(e->text, "null move", 9) == 0)
			return "null-move";
		t = token_at(g, e->line, e->col);
		return t && memchr(t->text, '@', t->len) ? "illegal-drop" :
		    "illegal-move";
	case ZH_ELIMIT:
		return "limit";
	case ZH_ENOMEM:
		return "memory";
	default:
		return "error";
	}
}

const char *
zh__fen_error_code(const struct zh_error *e)
{
	return e->code == ZH_ESYNTAX ? "syntax" : e->code == ZH_EPOSITION ?
	    "position" : e->code == ZH_EVARIANT ? "variant" : "error";
}

const char *
zh__error_code(const struct zh_game *g, const struct zh_replay *r,
    const struct zh_error *e, bool variation)
{
	if (variation)
		return "variation";
	if (e == &g->err || r == NULL)
		return "syntax";
	if (e->ply == 0 && e->code == ZH_EVARIANT)
		return "variant";
	if (e->ply == 0 && strncmp(e->text, "FEN tag", 7) == 0)
		return "fen";
	return move_code(g, e);
}

/* The mainline error, or the start position's (variant, FEN tag). */
static void
replay_problems(struct zh_check *c, const struct zh_game *g, int soft)
{
	const struct zh_replay *r = &c->r;
	const struct zh_error *e = &r->err;
	size_t i;

	if (e->code != ZH_OK) {
		const char *code = zh__error_code(g, r, e, false);

		if (e->ply == 0 && e->code == ZH_EVARIANT) {
			const struct zh_tag *t = find_tag(g, "Variant");

			add(c, ZH_ERROR, code, t ? t->line : g->line,
			    t ? t->col : 1, 0, "%s", e->text);
		} else
			add(c, ZH_ERROR, code, e->line, e->col,
			    strcmp(code, "fen") == 0 ? 0 : e->ply, "%s", e->text);
	}
	for (i = 0; i < r->nvarerr; i++) {
		const struct zh_error *v = &r->varerr[i];

		add(c, soft, "variation", v->line, v->col, v->ply,
		    "in a variation: %s", v->text);
	}
	if (r->nvarerr_more > 0 && r->nvarerr > 0) {
		const struct zh_error *v = &r->varerr[r->nvarerr - 1];

		add(c, soft, "variation", v->line, v->col, v->ply,
		    "and %zu more errors in variations", r->nvarerr_more);
	}
}

static bool
is_result(const char *s)
{
	return strcmp(s, "1-0") == 0 || strcmp(s, "0-1") == 0 ||
	    strcmp(s, "1/2-1/2") == 0 || strcmp(s, "*") == 0;
}

static const struct zh_token *
result_token(const struct zh_game *g)
{
	size_t i = g->ntoks;

	while (i > 0)
		if (g->toks[--i].kind == ZH_T_RESULT)
			return &g->toks[i];
	return NULL;
}

/* Tag name 'name' added to the list of n bytes at buf ("Site, Date");
 * returns the new length.  The caller's buffer holds every name of its
 * roster and the separators. */
static inline size_t
name_add(char *buf, size_t n, const char *name)
{
	size_t k = strlen(name);

	if (n > 0) {
		memcpy(buf + n, ", ", 2);
		n += 2;
	}
	memcpy(buf + n, name, k + 1);
	return n + k;
}

/* The Result tag against the result token, and a movetext without one. */
static void
result_tag(struct zh_check *c, const struct zh_game *g, int soft,
    const struct zh_tag *res)
{
	const struct zh_token *term = result_token(g);

	if (res != NULL && !is_result(res->value))
		add(c, soft, "result", res->line, res->col, 0,
		    "Result tag '%.40s' is not 1-0, 0-1, 1/2-1/2 or *",
		    res->value);
	else if (res != NULL && g->result != NULL &&
	    strcmp(res->value, g->result) != 0)
		add(c, soft, "result", term ? term->line : res->line,
		    term ? term->col : res->col, 0,
		    "the game ends with %s but its Result tag says %s",
		    g->result, res->value);
	if (g->result == NULL) {
		const struct zh_token *last = g->ntoks ? &g->toks[g->ntoks - 1] : NULL;

		add(c, soft, "result", last ? last->line : g->line,
		    last ? last->col : 1, 0,
		    "the movetext does not end with a result "
		    "(1-0, 0-1, 1/2-1/2 or *) after its last token");
	}
}

/* Seven Tag Roster, Result, PlyCount, SetUp/FEN; kt from known_tags. */
static void
tag_problems(struct zh_check *c, const struct zh_game *g, int soft,
    const struct zh_tag *const *kt)
{
	const struct zh_tag *res = kt[K_RESULT], *t;
	char missing[80] = "";
	size_t i, n = 0;

	/* the seven names and their separators fit in 'missing' */
	/* Round apart: its own class, as Lichess exports before 2021 lack
	   it in every game (a user turns that one off, not the others) */
	for (i = 0; i <= K_RESULT; i++)
		if (kt[i] == NULL && i != K_ROUND)
			n = name_add(missing, n, known_names[i]);
	if (n > 0)
		add2(c, soft, "tag", g->line, 1, strchr(missing, ',') ?
		    "missing tags of the Seven Tag Roster: " :
		    "missing tag of the Seven Tag Roster: ", missing);
	if (kt[K_ROUND] == NULL)
		add2(c, soft, "missing-round", g->line, 1,
		    "missing tag of the Seven Tag Roster: ", "Round");
	result_tag(c, g, soft, res);
	if ((t = kt[K_PLYCOUNT]) != NULL && c->r.complete) {
		char *e;
		long k = strtol(t->value, &e, 10);

		if (*t->value == '\0' || *e != '\0' || k < 0)
			add(c, soft, "plycount", t->line, t->col, 0,
			    "PlyCount '%.40s' is not a number", t->value);
		else if (k != c->r.nplies)
			add(c, soft, "plycount", t->line, t->col, 0,
			    "PlyCount is %ld but the game has %ld plies", k,
			    c->r.nplies);
	}
	t = kt[K_SETUP];
	if (t != NULL && strcmp(t->value, "0") != 0 && strcmp(t->value, "1") != 0)
		add(c, soft, "setup", t->line, t->col, 0,
		    "SetUp '%.40s' is not 0 or 1", t->value);
	else if (t != NULL && strcmp(t->value, "1") == 0 &&
	    kt[K_FEN] == NULL)
		add(c, soft, "setup", t->line, t->col, 0,
		    "SetUp \"1\" without a FEN tag");
	else if ((t == NULL || strcmp(t->value, "0") == 0) &&
	    kt[K_FEN] != NULL) {
		const struct zh_tag *f = kt[K_FEN];

		add(c, soft, "setup", f->line, f->col, 0,
		    "FEN tag without SetUp \"1\"");
	}
}

/* A checkmate is a win for the mating side, a stalemate a draw. */
static void
final_problems(struct zh_check *c, const struct zh_game *g, int soft,
    const struct zh_tag *const *kt)
{
	static const char *const side[2] = { "White", "Black" };
	const struct zh_tag *res = kt[K_RESULT];
	const struct zh_token *term = result_token(g);
	const char *result = g->result ? g->result : res ? res->value : NULL;
	const struct zh_pos *p = &c->r.final;
	long line = term ? term->line : res ? res->line : g->line;
	long col = term ? term->col : res ? res->col : 1;
	int st;

	if (!c->r.complete || result == NULL || !is_result(result))
		return;
	/* A side in check that lost needs no search: mated or not, the
	   result agrees. */
	if (zh_in_check(p) &&
	    strcmp(result, p->side == ZH_WHITE ? "0-1" : "1-0") == 0)
		return;
	st = zh_status(p);
	if (st == ZH_CHECKMATE) {
		const char *want = p->side == ZH_WHITE ? "0-1" : "1-0";

		if (strcmp(result, want) != 0)
			add(c, soft, "result", line, col, c->r.nplies,
			    "%s is checkmated but the result is %s; the game "
			    "is a win for %s (%s)", side[p->side], result,
			    side[!p->side], want);
	} else if (st == ZH_STALEMATE && strcmp(result, "1/2-1/2") != 0)
		add(c, soft, "result", line, col, c->r.nplies,
		    "%s is stalemated but the result is %s; a stalemate is a "
		    "draw (1/2-1/2)", side[p->side], result);
}

/* ======================== bughouse ======================== */

static const char *const bug_side[2] = { "White", "Black" };

/* The BPGN roster: Event, Site, Date, the four players, Result. */
static void
bug_tags(struct zh_check *c, const struct zh_game *g, int soft)
{
	static const char *const roster[] = { "Event", "Site", "Date",
	    "WhiteA", "BlackA", "WhiteB", "BlackB", "Result" };
	/* one board alone (chess.com's export): its own two players */
	static const char *const one[] = { "Event", "Site", "Date",
	    "White", "Black", "Result" };
	const char *const *names = c->r.bug->labels ? roster : one;
	size_t nnames = c->r.bug->labels ? sizeof roster / sizeof roster[0] :
	    sizeof one / sizeof one[0];
	const struct zh_tag *res = find_tag(g, "Result");
	char missing[80] = "";
	size_t i, n = 0;

	for (i = 0; i < nnames; i++)
		if (find_tag(g, names[i]) == NULL)
			n = name_add(missing, n, names[i]);
	if (n > 0)
		add2(c, soft, "tag", g->line, 1, strchr(missing, ',') ?
		    "missing tags of a bughouse game: " :
		    "missing tag of a bughouse game: ", missing);
	result_tag(c, g, soft, res);
}

/*
 * The result against the ending: the mate on a board, or the comment
 * or Termination tag that tells who lost.  BPGN files score a game two
 * ways: the result of the board where it ended, or the team's (1-0:
 * White A and Black B won); both are read, and c->convention says which.
 */
static void
bug_result(struct zh_check *c, const struct zh_game *g, int soft)
{
	const struct zh_bug *b = c->r.bug;
	const struct zh_tag *res = find_tag(g, "Result");
	const struct zh_token *term = result_token(g);
	const char *r = g->result ? g->result : res ? res->value : NULL;
	const char *team, *board;
	long line = term ? term->line : res ? res->line : g->line;
	long col = term ? term->col : res ? res->col : 1;
	int bd, sd;

	if (!b->complete || r == NULL || !is_result(r))
		return;
	if (b->mated_board >= 0 && b->end_how != NULL && b->end_board >= 0 &&
	    (b->end_board != b->mated_board ||
	    b->loser != b->final[b->mated_board].side))
		add(c, soft, "result", b->end_line, b->end_col, 0,
		    "the text says %s on board %c lost, but %s is "
		    "checkmated on board %c", bug_side[b->loser & 1],
		    zh_board_letter(b->end_board),
		    bug_side[b->final[b->mated_board].side],
		    zh_board_letter(b->mated_board));
	if (b->mated_board < 0 && b->end_how != NULL && b->end_board >= 0 &&
	    strcmp(b->end_how, "checkmate") == 0) {
		const struct zh_pos *p = &b->final[b->end_board];

		struct zh_problem *q;

		q = add(c, soft, "result", line, col, 0, "the game is scored "
		    "as a checkmate of %s on board %c, but %s",
		    bug_side[b->loser], zh_board_letter(b->end_board),
		    p->side == b->loser && zh_in_check(p) ? "a drop could "
		    "block the check: not mate in bughouse" :
		    "that side is not mated there");
		if (q != NULL)
			q->board = b->end_board;
		return;
	}
	team = zh_bug_team_result(b);
	board = zh_bug_board_result(b);
	if (team == NULL)
		return;
	if (strcmp(r, "*") == 0) {
		if (b->end_how == NULL || strcmp(b->end_how, "abort") != 0)
			add(c, soft, "result", line, col, 0, "the game ended "
			    "(%s) but the result is *", b->end_how ?
			    b->end_how : "checkmate");
		return;
	}
	/* the convention: libzh's one rule (zh__bug_result), the arrays'
	   too */
	(void)zh__bug_result(b, r, &c->convention);
	if (c->convention != NULL)
		return;
	if (strcmp(team, board) == 0) {
		add(c, soft, "result", line, col, 0, "the result is "
		    "%s but the game is %s", r, team);
	} else {
		struct zh_problem *q;

		bd = b->mated_board >= 0 ? b->mated_board : b->end_board;
		sd = b->mated_board >= 0 ? b->final[bd].side : b->loser;
		q = add(c, soft, "result", line, col, 0, "the result is %s "
		    "but %s on board %c lost: %s for the team, %s for the "
		    "board", r, bug_side[sd], zh_board_letter(bd), team, board);
		if (q != NULL)
			q->board = bd;
	}
}

/* A bughouse game: the two boards replayed, its tags and result. */
static void
bug_check(struct zh_check *c, const struct zh_game *g, int soft)
{
	const struct zh_bug *b = c->r.bug;	/* zh_replay's */
	struct zh_problem *p;
	size_t i;

	c->is_bug = true;
	c->r.v = b->v;
	c->r.nplies = (long)b->nmoves;
	c->r.complete = b->complete;
	if (g->err.code != ZH_OK)
		add(c, ZH_ERROR, "syntax", g->err.line, g->err.col, 0, "%s",
		    g->err.text);
	if (b->err.code != ZH_OK &&
	    (p = add(c, ZH_ERROR, b->err_code ? b->err_code : "error",
	    b->err.line, b->err.col, b->err.ply, "%s", b->err.text)) != NULL)
		p->board = b->err_board;
	for (i = 0; i < b->nwarn; i++) {
		const struct zh_bwarn *w = &b->warn[i];

		if ((p = add(c, soft, w->code, w->line, w->col, w->ply, "%s",
		    w->text)) != NULL)
			p->board = w->board;
	}
	if (g->err.code == ZH_OK && b->v != NULL) {
		bug_tags(c, g, soft);
		bug_result(c, g, soft);
	}
}

static int
cmp_problem(const void *a, const void *b)
{
	const struct zh_problem *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	/* same place: errors first, then in the order found (via code) */
	return y->severity - x->severity;
}

/* Text skipped before the game (a warning of its own class, first). */
static void
skipped_problem(struct zh_check *c, const struct zh_skip *s)
{
	if (s->bytes == 0 && s->lines == 0)
		return;
	add(c, ZH_WARNING, "text-between-games", s->line, s->col, 0,
	    "text between games: \"%s\"%s skipped (%ld line%s, %zu byte%s)",
	    s->text, strlen(s->text) + 1 < sizeof s->text ? "" : "...",
	    s->lines, s->lines == 1 ? "" : "s", s->bytes,
	    s->bytes == 1 ? "" : "s");
}

int
zh_check_game(const struct zh_game *g, const struct zh_variant *force,
    unsigned flags, struct zh_check *c)
{
	int soft = (flags & ZH_CHECK_STRICT) ? ZH_ERROR : ZH_WARNING;
	size_t i;

	c->nprobs = c->nerrors = c->nwarnings = 0;
	c->r.fast = true;
	c->r.v = NULL;
	c->is_bug = false;
	c->convention = NULL;
	skipped_problem(c, &g->skipped);
	zh_replay(g, force, &c->r);
	if (c->r.bug != NULL)
		bug_check(c, g, soft);
	else {
		if (g->err.code != ZH_OK)
			add(c, ZH_ERROR, "syntax", g->err.line, g->err.col, 0,
			    "%s", g->err.text);
		replay_problems(c, g, soft);
	}
	/* A game cut short by a syntax error has no result to check. */
	if (!c->is_bug && g->err.code == ZH_OK && c->r.v != NULL) {
		const struct zh_tag *kt[K_N];

		known_tags(g, kt);
		tag_problems(c, g, soft, kt);
		final_problems(c, g, soft, kt);
	}
	/* insertion sort: stable, and the list is short */
	for (i = 1; i < c->nprobs; i++) {
		struct zh_problem x = c->probs[i];
		size_t k = i;

		while (k > 0 && cmp_problem(&c->probs[k - 1], &x) > 0) {
			c->probs[k] = c->probs[k - 1];
			k--;
		}
		c->probs[k] = x;
	}
	for (i = 0; i < c->nprobs; i++)
		if (c->probs[i].severity == ZH_ERROR) {
			c->nprobs = i + 1;
			c->nerrors = 1;
			break;
		}
	c->nwarnings = c->nprobs - c->nerrors;
	return c->nerrors ? -1 : 0;
}

void
zh_check_free(struct zh_check *c)
{
	if (c != NULL) {
		zh_replay_free(&c->r);
	}
}

int
zh_check_fen(const char *fen, const struct zh_variant *v, unsigned flags,
    long line, struct zh_check *c)
{
	struct zh_error e = { 0 };
	struct zh_pos p;
	const char *code;

	c->nprobs = c->nerrors = c->nwarnings = 0;
	if (zh_fen_read(&p, fen, v, ZH_AUTO,
	    (flags & ZH_CHECK_STRICT) ? ZH_FEN_STRICT : 0, &e) == 0)
		return 0;
	code = zh__fen_error_code(&e);
	add(c, ZH_ERROR, code, line, e.col > 0 ? e.col : 1, 0, "%s", e.text);
	c->nerrors = 1;
	return -1;
}

/* ======================== JSON ======================== */

/* "errors":[...], every problem found. */
static void
problems_json(struct zh__buf *b, const struct zh_check *c)
{
	size_t i;

	zh__json_key(b, "errors");
	zh__json_open(b, '[');
	for (i = 0; i < c->nprobs; i++) {
		const struct zh_problem *p = &c->probs[i];

		zh__json_problem(b, p->line, p->col, p->ply, p->code, p->text,
		    p->severity != ZH_ERROR);
		if (p->board >= 0) {
			zh__json_key(b, "board");
			zh__json_ascii(b, p->board == ZH_BOARD_B ? "B" : "A");
		}
		zh__json_close(b, '}');
	}
	zh__json_close(b, ']');
}

/* A bughouse game's own keys: the four players, each board's plies,
 * the ending found and how the Result reads it. */
static void
bug_json(struct zh__buf *b, const struct zh_check *c, const struct zh_game *g)
{
	static const char *const tags[4] = { "WhiteA", "BlackA", "WhiteB",
	    "BlackB" };
	static const char *const keys[4] = { "\"white_a\":", "\"black_a\":",
	    "\"white_b\":", "\"black_b\":" };
	const struct zh_bug *u = c->r.bug;
	int i;

	zh__json_key(b, "players");
	zh__json_open(b, '{');
	for (i = 0; i < 4; i++) {
		zh__json_key_(b, keys[i], strlen(keys[i]));
		zh__json_strz(b, zh_game_tag(g, tags[i]));
	}
	zh__json_close(b, '}');
	zh__json_key(b, "board_plies");
	zh__json_open(b, '[');
	zh__json_int(b, u->nplies[0]);
	zh__json_int(b, u->nplies[1]);
	zh__json_close(b, ']');
	zh__json_key(b, "ending");
	if (u->mated_board >= 0 || u->end_how != NULL) {
		int bd = u->mated_board >= 0 ? u->mated_board : u->end_board;
		int sd = u->mated_board >= 0 ? u->final[bd].side : u->loser;

		zh__json_open(b, '{');
		zh__json_key(b, "how");
		zh__json_ascii(b, u->mated_board >= 0 ? "checkmate" : u->end_how);
		zh__json_key(b, "board");
		if (bd >= 0)
			zh__json_ascii(b, bd == ZH_BOARD_B ? "B" : "A");
		else
			zh__json_null(b);
		zh__json_key(b, "loser");
		if (bd >= 0 && sd >= 0)
			zh__json_ascii(b, sd == ZH_WHITE ? "white" : "black");
		else
			zh__json_null(b);
		zh__json_close(b, '}');
	} else
		zh__json_null(b);
	zh__json_key(b, "result_convention");
	if (c->convention != NULL)
		zh__json_ascii(b, c->convention);
	else
		zh__json_null(b);
}

int
zh_check_json(struct zh_text *out, const struct zh_check *c,
    const struct zh_game *g, const char *file)
{
	struct zh__buf b = ZH_BUF_TEXT(out);

	zh__json_open(&b, '{');
	zh__json_key(&b, "file");
	zh__json_strz(&b, file);
	zh__json_key(&b, "game");
	zh__json_int(&b, g->number);
	if (g->index > 0) {
		zh__json_key(&b, "index");
		zh__json_int(&b, g->index);
	}
	zh__json_key(&b, "line");
	zh__json_int(&b, g->line);
	zh__json_key(&b, "white");
	zh__json_strz(&b, zh_game_tag(g, "White"));
	zh__json_key(&b, "black");
	zh__json_strz(&b, zh_game_tag(g, "Black"));
	zh__json_key(&b, "variant");
	if (c->r.v != NULL)
		zh__json_ascii(&b, c->r.v->name);
	else
		zh__json_null(&b);
	zh__json_key(&b, "plies");
	zh__json_int(&b, c->r.nplies);
	zh__json_key(&b, "result");
	zh__json_strz(&b, zh__json_result(g));
	zh__json_key(&b, "valid");
	zh__json_bool(&b, c->nerrors == 0);
	if (c->is_bug)
		bug_json(&b, c, g);
	problems_json(&b, c);
	zh__json_close(&b, '}');
	return zh__buf_text(&b, out, NULL);
}

int
zh_check_fen_json(struct zh_text *out, const struct zh_check *c,
    const char *fen, long line, const char *file)
{
	struct zh__buf b = ZH_BUF_TEXT(out);

	zh__json_open(&b, '{');
	zh__json_key(&b, "file");
	zh__json_strz(&b, file);
	zh__json_key(&b, "line");
	zh__json_int(&b, line);
	zh__json_key(&b, "fen");
	zh__json_strz(&b, fen);
	zh__json_key(&b, "valid");
	zh__json_bool(&b, c->nerrors == 0);
	problems_json(&b, c);
	zh__json_close(&b, '}');
	return zh__buf_text(&b, out, NULL);
}
