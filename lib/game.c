/*
 * game.c - a PGN game with the rules applied: which variant it is, where
 * it starts, and every move token resolved to a legal move (mainline and
 * variations), or the first reason it could not be.
 *
 * The PGN reader (pgn.c) knows syntax only; this file is where syntax
 * meets the rules.  Tools walk the game's tokens and find each move's
 * resolution in replay->moves[token index].
 */
#include <ctype.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "json.h"
#include "zh_int.h"

/* ======================== variant detection ======================== */

/* Is word w (length n) a variant name or alias?  Whole words only. */
static const struct zh_variant *
word_variant(const char *w, size_t n)
{
	char buf[32];

	if (n == 0 || n >= sizeof buf)
		return NULL;
	memcpy(buf, w, n);
	buf[n] = '\0';
	return zh_variant_find(buf);
}

/*
 * The variant an Event tag names, in its first word (or words) that name
 * one: "FICS rated crazyhouse game", "rated wild/5 game", "Rated
 * Crazyhouse game"; *out NULL if none.  A game zhkit does not play ("FICS
 * rated atomic game", "Casual King of the Hill game") is an error that
 * quotes its name: it is not validated as chess.
 */
static int
event_variant(const char *ev, const struct zh_variant **out,
    struct zh_error *err)
{
	const char *s = ev, *w;
	const struct zh_variant *v;
	size_t n, len;
	uint32_t maybe;

	*out = NULL;
	while (*s) {
		while (*s && !isalnum((unsigned char)*s))
			s++;
		w = s;
		while (*s && (isalnum((unsigned char)*s) || *s == '/'))
			s++;
		len = (size_t)(s - w);
		/* most words start like no name: passed over at once */
		if (len == 0 || (maybe = zh__variant_firsts(*w)) == 0)
			continue;
		v = len < 32 && (maybe >> len & 1) != 0 ?
		    word_variant(w, len) : NULL;
		n = (maybe & 1) != 0 ? zh__variant_unplayed(w) : 0;
		if (n > len || (n > 0 && v == NULL)) {
			zh_error_set(err, ZH_EVARIANT, 1,
			    "unknown variant '%.*s' in the Event tag "
			    "(use --variant to read it as another)",
			    (int)(n < 60 ? n : 60), w);
			return -1;
		}
		/* "chess"/"standard" in an event name proves nothing */
		if (v != NULL && !v->chess_tags) {
			*out = v;
			return 0;
		}
	}
	return 0;
}


/* A BPGN move label, "1A" to "99b" (the board, then its side to move)? */
static bool
bpgn_label(const char *s, size_t n)
{
	size_t k = 0;

	while (k < n && isdigit((unsigned char)s[k]))
		k++;
	return k > 0 && k + 1 == n && strchr("AaBb", s[k]) != NULL;
}

/*
 * A two-board game (../shared/spec/bughouse.md): the players' tags of
 * BPGN (WhiteA, BlackA, WhiteB, BlackB) or a board label "1A." as its
 * first move: the table's first row with two boards; NULL otherwise.
 */
static const struct zh_variant *
two_boards(const struct zh_game *g)
{
	size_t k;

	/* one pass over the tags for WhiteA, BlackA, WhiteB, BlackB: a
	   test per tag, as every game goes through it */
	for (k = 0; k < g->ntags; k++) {
		const char *n = g->tags[k].name;

		if ((n[0] == 'W' || n[0] == 'B') && n[1] != '\0' &&
		    n[2] != '\0' && n[3] != '\0' && n[4] != '\0' &&
		    (n[5] == 'A' || n[5] == 'B') && n[6] == '\0' &&
		    (memcmp(n, "White", 5) == 0 || memcmp(n, "Black", 5) == 0))
			break;
	}
	if (k == g->ntags) {
		for (k = 0; k < g->ntoks; k++)
			if (g->toks[k].kind == ZH_T_MOVE)
				break;
		if (k == g->ntoks ||
		    !bpgn_label(g->toks[k].text, g->toks[k].len))
			return NULL;
	}
	return zh__variant_two_boards();
}

/* Shape of a FEN tag: a pocket means drops, ten ranks mean Grand. */
static const struct zh_variant *
fen_variant(const char *fen)
{
	const char *s;
	int slashes = 0;
	bool pocket = false;

	for (s = fen; *s && *s != ' '; s++) {
		if (*s == '/')
			slashes++;
		if (*s == '[')
			pocket = true;
	}
	if (slashes >= 9)
		return zh_variant_guess(10, pocket || slashes == 10);
	if (pocket || slashes == 8)
		return zh_variant_default();
	return NULL;
}

/* An unknown variant, at the place of its tag (the first Variant tag). */
static void
variant_error(const struct zh_game *g, struct zh_error *err, const char *tag)
{
	size_t k;

	for (k = 0; k < g->ntags; k++)
		if (g->tags[k].value == tag)
			break;
	if (err != NULL && err->code == ZH_OK && k < g->ntags)
		err->line = g->tags[k].line;
	zh_error_set(err, ZH_EVARIANT, k < g->ntags ? g->tags[k].col : 1,
	    "unknown variant '%.60s' in the Variant tag", tag);
}

int
zh_game_variant(const struct zh_game *g, const struct zh_variant *force,
    const struct zh_variant **out, struct zh_error *err)
{
	const char *tag, *ev, *fen;
	const struct zh_variant *v = NULL;

	if (force != NULL) {
		*out = force;
		return 0;
	}
	if ((v = two_boards(g)) != NULL) {
		*out = v;
		return 0;
	}
	if ((tag = zh_game_tag(g, "Variant")) != NULL && *tag != '\0') {
		v = zh_variant_find(tag);
		if (v == NULL) {
			variant_error(g, err, tag);
			return -1;
		}
		*out = v;
		return 0;
	}
	if ((ev = zh_game_tag(g, "Event")) != NULL) {
		if (event_variant(ev, &v, err) != 0)
			return -1;
		if (v != NULL) {
			*out = v;
			return 0;
		}
	}
	if ((fen = zh_game_tag(g, "FEN")) != NULL && (v = fen_variant(fen)) != NULL) {
		*out = v;
		return 0;
	}
	*out = zh_variant_chess();
	return 0;
}

/* ======================== comments ======================== */

/* PGN's white space, which a [%...] command may hold wherever it holds
 * a blank: chess.com wraps "{[%clk" and "0:01:41.6]}" on two lines. */
static inline bool
blank(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Find "[%cmd " in a comment; returns a pointer after it or NULL. */
static const char *
find_cmd(const char *s, size_t n, const char *cmd)
{
	const char *p = s, *e = s + n;
	size_t k = 0, j;

	while (cmd[k] != '\0')		/* a short name: no calls for it */
		k++;
	if (n >= k + 3 && s[0] == '[' && s[1] == '%') {	/* at the start */
		for (j = 0; j < k && s[2 + j] == cmd[j]; j++)
			;
		if (j == k && blank(s[2 + k]))
			return s + 2 + k;
	}
	while (e - p >= (ptrdiff_t)(k + 3) &&
	    (p = memchr(p, '[', (size_t)(e - p) - k - 2)) != NULL) {
		if (p[1] == '%') {
			for (j = 0; j < k && p[2 + j] == cmd[j]; j++)
				;
			if (j == k && blank(p[2 + k]))
				return p + 2 + k;
		}
		p++;
	}
	return NULL;
}

/* an ASCII digit, without isdigit()'s table call */
#define DIGIT(c)	((unsigned)((c) - '0') < 10)

bool
zh_comment_clock(const char *s, size_t n, const char *cmd, double *sec)
{
	const char *p = find_cmd(s, n, cmd), *e = s + n;
	double parts[3] = { 0, 0, 0 };
	int np = 0;

	if (p == NULL)
		return false;
	while (p < e && blank(*p))
		p++;
	/* "H:MM:SS" then ']' or ' ', as Lichess writes it: the sum below,
	   exact in whole seconds */
	if (e - p >= 8 && p[1] == ':' && p[4] == ':' &&
	    (p[7] == ']' || blank(p[7])) &&
	    DIGIT(p[0]) && DIGIT(p[2]) && DIGIT(p[3]) && DIGIT(p[5]) &&
	    DIGIT(p[6])) {
		*sec = (p[0] - '0') * 3600.0 + ((p[2] - '0') * 10 + p[3] - '0') *
		    60.0 + ((p[5] - '0') * 10 + p[6] - '0');
		return true;
	}
	while (p < e && np < 3) {
		double x = 0, scale = 0.1;

		if (!isdigit((unsigned char)*p))
			return false;
		while (p < e && isdigit((unsigned char)*p))
			x = x * 10 + (*p++ - '0');
		if (p < e && *p == '.') {
			p++;
			while (p < e && isdigit((unsigned char)*p)) {
				x += (*p++ - '0') * scale;
				scale /= 10;
			}
		}
		parts[np++] = x;
		if (p < e && *p == ':')
			p++;
		else
			break;
	}
	if (p >= e || (*p != ']' && !blank(*p)))
		return false;
	*sec = np == 3 ? parts[0] * 3600 + parts[1] * 60 + parts[2] :
	    np == 2 ? parts[0] * 60 + parts[1] : parts[0];
	return *sec <= ZH_CLOCK_MAX;	/* a wall of digits is no clock */
}

bool
zh_comment_eval(const char *s, size_t n, double *pawns, int *mate)
{
	const char *p = find_cmd(s, n, "eval"), *e = s + n;
	char buf[32];
	size_t k = 0;

	if (p == NULL)
		return false;
	while (p < e && blank(*p))
		p++;
	while (p < e && *p != ']' && *p != ',' && !blank(*p) &&
	    k < sizeof buf - 1)
		buf[k++] = *p++;
	buf[k] = '\0';
	if (k == 0 || (p < e && *p != ']' && *p != ',' && !blank(*p)))
		return false;	/* none, or longer than any number read */
	if (buf[0] == '#') {
		char *end;
		long m = strtol(buf + 1, &end, 10);

		if (*end != '\0' || end == buf + 1 || m < -ZH_EVAL_MAX ||
		    m > ZH_EVAL_MAX)
			return false;
		*mate = (int)m;
		*pawns = 0;
		return true;
	} else {
		char *end;
		double x;

		/* digits, a point and a sign: not strtod's "inf", "nan",
		   hexadecimal or exponents */
		if (buf[strspn(buf, "+-.0123456789")] != '\0')
			return false;
		x = strtod(buf, &end);
		if (*end != '\0' || end == buf || x < -ZH_EVAL_MAX ||
		    x > ZH_EVAL_MAX)
			return false;
		*pawns = x;
		*mate = 0;
		return true;
	}
}

/* ======================== replay ======================== */

struct walker {
	const struct zh_game *g;
	struct zh_replay *r;
	bool vars;		/* the game has variations */
	bool fast;		/* no SAN or UCI written (r->fast) */
	bool no_uci;		/* no UCI written */
	/* r->watch, NULL once it asked for no more calls */
	int (*watch)(void *arg, const struct zh_pos *p);
};

/* A mainline move was made: the caller's watch, if any, told. */
static inline void
watch(struct walker *w, const struct zh_pos *pos, int depth)
{
	if (w->watch != NULL && depth == 0 &&
	    w->watch(w->r->watch_arg, pos) != 0)
		w->watch = NULL;
}

static void
note_error(struct walker *w, const struct zh_token *t, long ply,
    const struct zh_error *e, int depth)
{
	struct zh_replay *r = w->r;
	struct zh_error *dst;

	if (depth == 0) {
		if (r->err.code != ZH_OK)
			return;
		dst = &r->err;
	} else {
		if (r->nvarerr >= sizeof r->varerr / sizeof r->varerr[0]) {
			r->nvarerr_more++;
			return;
		}
		dst = &r->varerr[r->nvarerr++];
	}
	*dst = *e;
	dst->line = t->line;
	dst->col = t->col;
	dst->ply = ply;
}

static bool
has_drop_letter(const struct zh_token *t)
{
	return memchr(t->text, '@', t->len) != NULL;
}

/* A checking move ends its line (or the next move was illegal): mate? */
static void
mate_check(struct zh_rmove *pending, const struct zh_pos *pos)
{
	size_t n;

	if (pending == NULL || !zh__mate_in_check(pos))
		return;
	n = strlen(pending->san);
	if (n > 0 && pending->san[n - 1] == '+')
		pending->san[n - 1] = '#';
}

/* Where the walk is in the line of play it walks. */
struct line {
	struct zh_pos before;	/* before the line's last move, if any */
	struct zh_rmove *pending;	/* gave check; mate not tested */
	long ply;
	bool have_before;	/* a move was made: 'before' is its position */
	bool dead;		/* a move failed: the rest is not played */
};

/* A line of play left for a variation: taken up again at its ')'. */
struct level {
	struct zh_pos pos;
	struct line line;
};

/*
 * The lines open around the one being walked, on the heap past the
 * first few: as deep as the reader's depth limit lets a game nest, and
 * no deeper than the game does.
 */
struct levels {
	struct level *v, local[4];
	size_t n, cap;
};

static struct level *
level_push(struct levels *s)
{
	struct level *v;
	size_t cap;

	if (s->n == s->cap) {
		cap = s->cap * 2;
		if (s->v == s->local) {
			if ((v = malloc(cap * sizeof *v)) != NULL)
				memcpy(v, s->local, sizeof s->local);
		} else
			v = realloc(s->v, cap * sizeof *v);
		if (v == NULL)
			return NULL;
		s->v = v;
		s->cap = cap;
	}
	return &s->v[s->n++];
}

/*
 * The move zh__play_fast() read and made from ply: its record (its SAN
 * and UCI unless fast or no_uci).  Returns it if it gives check (a '+'
 * for now: a '#' if no legal move follows), else NULL.
 */
static struct zh_rmove *
fast_made(struct zh_rmove *rm, const struct zh_move *m, long ply, int depth,
    bool fast, bool no_uci, const struct zh_pos *pos)
{
	rm->ok = true;
	rm->move = *m;
	rm->ply = ply + 1;
	rm->depth = depth;
	rm->check = pos->check;
	if (fast)
		rm->san[0] = '\0';
	if (no_uci)
		rm->uci[0] = '\0';
	if (!fast && pos->check == 2) {
		size_t n = zh__movelen(rm->san);

		rm->san[n++] = '+';	/* '#' in mate_check() */
		rm->san[n] = '\0';
		return rm;
	}
	return NULL;
}

/* The record of a move not played (yet): empty, at ply + 1. */
static void
rm_clear(struct zh_rmove *rm, long ply, int depth)
{
	rm->ok = false;
	rm->check = 0;
	rm->san[0] = rm->uci[0] = '\0';
	memset(&rm->move, 0, sizeof rm->move);
	rm->ply = ply + 1;
	rm->depth = depth;
}

/* The move t at ply + 1 could not be read: e, with a better word if any. */
static void
move_failed(struct walker *w, const struct zh_pos *pos,
    const struct zh_token *t, long ply, int depth, struct zh_error *e)
{
	if (bpgn_label(t->text, t->len)) {
		zh_error_clear(e);
		zh_error_set(e, ZH_EVARIANT, 1, "'%.*s.' is a move label of "
		    "bughouse PGN (BPGN); use --variant bughouse",
		    (int)t->len, t->text);
	} else if (!pos->v->drops && has_drop_letter(t) &&
	    zh_game_tag(w->g, "Variant") == NULL) {
		zh_error_clear(e);
		zh_error_set(e, ZH_EVARIANT, 1,
		    "'%.*s' is a drop: this game has drops but no [Variant] "
		    "tag; use --variant crazyhouse", (int)t->len, t->text);
	}
	note_error(w, t, ply + 1, e, depth);
}

/* A null move in the mainline, not asked for: e says so (true). */
static bool
null_refused(const struct zh_token *t, struct zh_error *e)
{
	zh_error_set(e, ZH_EILLEGAL, 1, "null move '%.*s' in the mainline "
	    "(analysis writes it in variations; --null-moves reads it here)",
	    (int)t->len, t->text);
	return true;
}

/*
 * Make m, read by zh__san_read_n() (ncand candidates) and recorded in
 * rm: its SAN and UCI first unless fast.  Returns rm if it gives check,
 * else NULL, as fast_made().
 */
static struct zh_rmove *
slow_made(struct zh_pos *pos, struct zh_move m, int ncand,
    struct zh_rmove *rm, bool fast, bool no_uci)
{
	size_t n;

	rm->ok = true;
	rm->move = m;
	if (fast) {
		zh_make(pos, m);
		rm->check = zh_in_check(pos) ? 2 : 1;
		return NULL;
	}
	n = zh__san_body_n(pos, m, ZH_SAN_AUTO, rm->san, ncand);
	if (!no_uci)
		zh_uci_write(pos, m, rm->uci);
	zh_make(pos, m);
	rm->check = zh_in_check(pos) ? 2 : 1;
	if (rm->check == 1)
		return NULL;
	rm->san[n++] = '+';
	rm->san[n] = '\0';
	return rm;
}

/*
 * A run of common moves from toks[i], read and made in one call
 * (zh__play_run) in a game without variations; returns where it stopped.
 */
static size_t
run_moves(struct walker *w, struct zh_pos *pos, size_t i, struct line *ln,
    int depth)
{
	struct zh_run run = { !w->fast, !w->no_uci, depth, ln->ply, 0, 0,
	    depth == 0 ? w->watch : NULL, w->r->watch_arg };

	i = zh__play_run(pos, w->g->toks, i, w->g->ntoks, w->r->moves, &run);
	if (depth == 0)
		w->watch = run.watch;
	if (run.played > 0) {
		ln->ply = run.ply;
		ln->have_before = true;
		ln->pending = !w->fast && pos->check == 2 ?
		    &w->r->moves[run.last] : NULL;
	}
	return i;
}

/*
 * Move t (its record rm) of a game with variations, read and made at
 * once by zh__play_fast() if it is a common one; returns whether it was.
 */
static bool
move_fast(struct walker *w, struct zh_pos *pos, const struct zh_token *t,
    struct zh_rmove *rm, struct line *ln, int depth)
{
	struct zh_pos prev = *pos;	/* a variation may start before it */
	struct zh_move m;

	if (!zh__play_fast(pos, t->text, t->len, &m, w->fast ? NULL : rm->san,
	    w->no_uci ? NULL : rm->uci))
		return false;
	ln->before = prev;
	ln->pending = fast_made(rm, &m, ln->ply, depth, w->fast, w->no_uci,
	    pos);
	ln->have_before = true;
	ln->ply++;
	watch(w, pos, depth);
	return true;
}

/*
 * Move t (its record rm) that the one-step path did not take: read by
 * the general SAN reader and made, or its error noted and the rest of
 * the line dead.
 */
static void
move_slow(struct walker *w, struct zh_pos *pos, const struct zh_token *t,
    struct zh_rmove *rm, struct line *ln, int depth)
{
	struct zh_error e;	/* set in full only on an error */
	struct zh_move m;
	int ncand;

	rm_clear(rm, ln->ply, depth);
	if (ln->dead)
		return;
	e.code = ZH_OK;
	e.line = e.col = e.ply = 0;
	e.text[0] = '\0';
	if (zh__san_read_n(pos, t->text, t->len, &m, &e, &ncand) != 0 ||
	    ((m.flags & ZH_MNULL) && depth == 0 && !w->r->null_moves &&
	    null_refused(t, &e))) {
		move_failed(w, pos, t, ln->ply, depth, &e);
		ln->dead = true;
		return;
	}
	if (w->vars)	/* only a variation starts from it */
		ln->before = *pos;
	ln->have_before = true;
	/* the last check, if any, was not mate */
	ln->pending = slow_made(pos, m, ncand, rm, w->fast, w->no_uci);
	ln->ply++;
	watch(w, pos, depth);
}

/*
 * A '(' at t in a line at depth: the line put aside on a new level and
 * the variation walked from the position before the line's last move
 * (none: a stray variation, dead).  Returns false when out of memory.
 */
static bool
var_start(struct walker *w, struct levels *up, struct zh_pos *pos,
    struct line *ln, const struct zh_token *t, int depth)
{
	struct level *l;
	struct zh_error e = { 0 };

	if (!ln->have_before && !ln->dead) {
		zh_error_set(&e, ZH_ESYNTAX, 1, "a variation must follow a move");
		note_error(w, t, ln->ply, &e, depth + 1);
	}
	if ((l = level_push(up)) == NULL) {
		zh_error_set(&e, ZH_ENOMEM, 0, "out of memory");
		note_error(w, t, ln->ply, &e, 0);
		return false;
	}
	l->pos = *pos;
	l->line = *ln;
	*pos = ln->before;
	if (ln->have_before)
		ln->ply--;
	ln->dead = ln->dead || !ln->have_before;
	ln->have_before = false;
	ln->pending = NULL;
	return true;
}

/* A variation's ')': its last check tested for mate, the line it left
 * taken up again. */
static void
var_end(struct levels *up, struct zh_pos *pos, struct line *ln)
{
	struct level *l = &up->v[--up->n];

	mate_check(ln->pending, pos);
	*pos = l->pos;
	*ln = l->line;
}

/*
 * Walk the game's line of play from 'pos' (the position before the first
 * move), its variations on the way: at a '(' the line is put aside and
 * the variation walked from 'before', the position before the line's
 * previous move; at its ')' the line is taken up again.
 */
static void
walk(struct walker *w, struct zh_pos *pos)
{
	struct zh_replay *r = w->r;
	struct line ln = { *pos, NULL, 0, false, false };
	struct levels up;	/* not zeroed: a game without variations
				   does not touch it */
	int depth = 0;
	/* Kept in locals: the stores into the moves' text (char) could
	   otherwise change any of them, as far as the compiler knows. */
	const struct zh_token *toks = w->g->toks;
	struct zh_rmove *moves = r->moves;
	size_t i = 0, ntoks = w->g->ntoks;
	const bool vars = w->vars;

	up.v = up.local;
	up.n = 0;
	up.cap = sizeof up.local / sizeof up.local[0];
	while (i < ntoks) {
		const struct zh_token *t;
		struct zh_rmove *rm;

		if (!vars && !ln.dead &&
		    (i = run_moves(w, pos, i, &ln, depth)) >= ntoks)
			break;
		t = &toks[i];
		rm = &moves[i];
		i++;
		if (t->kind == ZH_T_MOVE) {
			/* Without variations zh__play_run has just refused it. */
			if (!vars || ln.dead ||
			    !move_fast(w, pos, t, rm, &ln, depth))
				move_slow(w, pos, t, rm, &ln, depth);
		} else if (t->kind == ZH_T_VSTART) {
			if (!var_start(w, &up, pos, &ln, t, depth)) {
				memset(&moves[i], 0, (ntoks - i) * sizeof *moves);
				break;
			}
			depth++;
		} else if (t->kind == ZH_T_VEND && depth > 0) {
			var_end(&up, pos, &ln);
			depth--;
		}
	}
	while (up.n > 0)	/* lines left open (out of memory) */
		var_end(&up, pos, &ln);
	if (up.v != up.local)
		free(up.v);
	mate_check(ln.pending, pos);
	r->final = *pos;
	r->nplies = ln.ply;
}

/*
 * Replay a game of one board (zh_replay's part below the two-board
 * layer): 0 or -1 as zh_replay; ZH__TWO_BOARDS, r->v set, for a game of
 * two boards, which replay.c then replays.
 */
int
zh__replay_board(const struct zh_game *g, const struct zh_variant *force,
    struct zh_replay *r)
{
	struct walker w = { g, r, false, r->fast, r->fast || r->no_uci,
	    r->watch };
	const char *fen;
	struct zh_pos pos;
	size_t cap, k;

	r->v = NULL;
	r->bug = NULL;
	r->complete = false;
	r->nplies = 0;
	r->nvarerr = 0;
	r->nvarerr_more = 0;
	r->setup = false;
	zh_error_clear(&r->err);
	if (g->ntoks > r->cap) {
		struct zh_rmove *m;

		cap = g->ntoks < 64 ? 64 : g->ntoks + g->ntoks / 2;
		m = realloc(r->moves, cap * sizeof *m);
		if (m == NULL) {
			zh_error_set(&r->err, ZH_ENOMEM, 0, "out of memory");
			return -1;
		}
		/* zeroed once: zh__movelen reads whole san and uci arrays */
		memset(m + r->cap, 0, (cap - r->cap) * sizeof *m);
		r->moves = m;
		r->cap = cap;
	}
	/* walk() sets every move token's entry; the early exits clear all. */
	if (zh_game_variant(g, force, &r->v, &r->err) == 0 &&
	    r->v->boards >= 2)
		return ZH__TWO_BOARDS;
	if (r->err.code != ZH_OK) {
		if (r->err.line == 0)
			r->err.line = g->line;
		if (g->ntoks > 0)
			memset(r->moves, 0, g->ntoks * sizeof *r->moves);
		return -1;
	}
	if ((fen = zh_game_tag(g, "FEN")) != NULL && *fen != '\0') {
		const struct zh_tag *t = NULL;

		for (k = 0; k < g->ntags; k++)
			if (strcmp(g->tags[k].name, "FEN") == 0) {
				t = &g->tags[k];
				break;
			}
		if (zh_fen_read(&r->start, fen, r->v, ZH_AUTO, 0, &r->err) != 0) {
			char msg[sizeof r->err.text];

			snprintf(msg, sizeof msg, "FEN tag: %.180s", r->err.text);
			snprintf(r->err.text, sizeof r->err.text, "%s", msg);
			r->err.line = t ? t->line : g->line;
			/* column inside the tag: after '[FEN "' */
			r->err.col = t ? t->col + 6 + r->err.col - 1 : 0;
			if (g->ntoks > 0)
				memset(r->moves, 0, g->ntoks * sizeof *r->moves);
			zh_pos_start(&r->start, r->v);	/* something sane */
			r->final = r->start;
			return -1;
		}
		r->setup = true;
	} else
		zh_pos_start(&r->start, r->v);
	r->start_ply = (long)(r->start.fullmove - 1) * 2 + r->start.side;
	r->final = r->start;
	pos = r->start;
	/* A variation starts at a '(' of the game's text: most games have
	   none, which one memchr tells. */
	if (g->raw == NULL || g->raw_truncated || g->texts_apart ||
	    memchr(g->raw, '(', g->rawlen) != NULL)
		for (k = 0; k < g->ntoks && !w.vars; k++)
			w.vars = g->toks[k].kind == ZH_T_VSTART;
	walk(&w, &pos);
	r->complete = r->err.code == ZH_OK;
	return r->complete ? 0 : -1;
}

/* ======================== copies ======================== */

size_t
zh_game_dup_size(const struct zh_game *g)
{
	size_t size = sizeof *g, i;

	size += g->ntags * sizeof *g->tags + g->ntoks * sizeof *g->toks;
	for (i = 0; i < g->ntags; i++)
		size += strlen(g->tags[i].name) + strlen(g->tags[i].value) + 2;
	if (g->raw_truncated || g->texts_apart)	/* texts outside raw */
		for (i = 0; i < g->ntoks; i++)
			size += g->toks[i].len + 1;
	return size + g->rawlen + 1;
}

struct zh_game *
zh_game_dup_to(const struct zh_game *g, void *mem)
{
	struct zh_game *d = mem;
	size_t i;
	char *s;

	*d = *g;
	d->tags = (struct zh_tag *)(d + 1);
	d->toks = (struct zh_token *)(d->tags + g->ntags);
	s = (char *)(d->toks + g->ntoks);
	for (i = 0; i < g->ntags; i++) {
		size_t n = strlen(g->tags[i].name) + 1, m;

		d->tags[i] = g->tags[i];
		memcpy(s, g->tags[i].name, n);
		d->tags[i].name = s;
		s += n;
		m = strlen(g->tags[i].value) + 1;
		memcpy(s, g->tags[i].value, m);
		d->tags[i].value = s;
		s += m;
	}
	if (g->raw_truncated || g->texts_apart) {
		for (i = 0; i < g->ntoks; i++) {
			d->toks[i] = g->toks[i];
			memcpy(s, g->toks[i].text, g->toks[i].len);
			s[g->toks[i].len] = '\0';
			d->toks[i].text = s;
			s += g->toks[i].len + 1;
		}
	} else {
		/* The texts lie in the raw bytes (but static ones, such
		   as glyph NAGs): one copy, and the pointers moved. */
		uintptr_t lo = (uintptr_t)g->raw, hi = lo + g->rawlen;

		if (g->ntoks > 0)	/* toks may be NULL then */
			memcpy(d->toks, g->toks, g->ntoks * sizeof *g->toks);
		for (i = 0; i < g->ntoks; i++) {
			uintptr_t t = (uintptr_t)g->toks[i].text;

			if (t >= lo && t <= hi)
				d->toks[i].text = s + (t - lo);
		}
	}
	if (g->rawlen > 0)
		memcpy(s, g->raw, g->rawlen);
	s[g->rawlen] = '\0';
	d->raw = s;
	return d;
}

struct zh_game *
zh_game_dup(const struct zh_game *g)
{
	void *mem = malloc(zh_game_dup_size(g));

	return mem == NULL ? NULL : zh_game_dup_to(g, mem);
}

/* The "result" of every tool's JSON (json.h): the termination marker,
 * else the Result tag, else NULL. */
const char *
zh__json_result(const struct zh_game *g)
{
	return g->result != NULL ? g->result : zh_game_tag(g, "Result");
}
