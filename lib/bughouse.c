/*
 * bughouse.c - two boards, one game: a BPGN game replayed half-move by
 * half-move in the order of its text, each capture sent to the
 * capturer's partner on the other board; the two-board FEN.
 *
 * The boards are ordinary positions of the variant whose row has
 * boards = 2 (variant.c): what differs from crazyhouse on one board
 * (where a capture goes, when a check is mate) is in that row; what
 * joins the boards (the partner's holdings, the labels, the clocks,
 * the ending) is here.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "zh_int.h"

/* ======================== two-board FEN ======================== */

int
zh_bfen_read(struct zh_pos p[2], const char *s, const struct zh_variant *v,
    int d, struct zh_error *err)
{
	const char *bar = strchr(s, '|'), *sb;
	char a[ZH_FENMAX], msg[sizeof err->text];
	size_t n;

	if (v == NULL)
		v = zh__variant_two_boards();
	if (bar == NULL) {
		zh_error_set(err, ZH_ESYNTAX, (long)strlen(s) + 1,
		    "a two-board FEN is two FENs joined by '|'");
		return -1;
	}
	if (strchr(bar + 1, '|') != NULL) {
		zh_error_set(err, ZH_ESYNTAX,
		    (long)(strchr(bar + 1, '|') - s) + 1,
		    "a two-board FEN has one '|'");
		return -1;
	}
	n = (size_t)(bar - s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	if (n >= sizeof a) {
		zh_error_set(err, ZH_ESYNTAX, 1, "board A's FEN is too long");
		return -1;
	}
	memcpy(a, s, n);
	a[n] = '\0';
	if (zh_fen_read(&p[0], a, v, d, 0, err) != 0) {
		if (err != NULL) {
			snprintf(msg, sizeof msg, "board A: %.180s", err->text);
			memcpy(err->text, msg, sizeof msg);
		}
		return -1;
	}
	for (sb = bar + 1; isspace((unsigned char)*sb); sb++)
		;
	if (zh_fen_read(&p[1], sb, v, d, 0, err) != 0) {
		if (err != NULL) {
			snprintf(msg, sizeof msg, "board B: %.180s", err->text);
			memcpy(err->text, msg, sizeof msg);
			if (err->col > 0)
				err->col += (long)(sb - s);
		}
		return -1;
	}
	return 0;
}

size_t
zh_bfen_write(const struct zh_pos p[2], int d, char *buf, size_t size)
{
	char a[ZH_FENMAX], b[ZH_FENMAX];

	zh_fen_write(&p[0], d, a, sizeof a);
	zh_fen_write(&p[1], d, b, sizeof b);
	return (size_t)snprintf(buf, size, "%s | %s", a, b);
}

/* ======================== the movetext ======================== */

/* A label "12A" (the reader keeps it without its dot): its number,
 * board and side; false if t is a move. */
static bool
label_of(const struct zh_token *t, long *num, int *board, int *side)
{
	size_t k, n = t->len;
	long x = 0;
	int c;

	if (t->kind != ZH_T_MOVE || n < 2 || n > 7 ||
	    (unsigned)(t->text[0] - '0') > 9)
		return false;
	c = t->text[n - 1];
	if ((c | 0x20) != 'a' && (c | 0x20) != 'b')
		return false;
	for (k = 0; k < n - 1; k++) {
		if ((unsigned)(t->text[k] - '0') > 9)
			return false;
		x = x * 10 + (t->text[k] - '0');
	}
	*num = x;
	*board = (c | 0x20) == 'a' ? ZH_BOARD_A : ZH_BOARD_B;
	*side = c < 'a' ? ZH_WHITE : ZH_BLACK;
	return true;
}

static bool clock_text(const struct zh_token *t, double *sec);

/*
 * A clock comment: "118.585", "180", "-0.576" (BPGN: the mover's time
 * left, seconds) or "[%clk 0:02:58.3]".
 */
static bool
clock_of(const struct zh_token *t, double *sec)
{
	const unsigned char *q = (const unsigned char *)t->text;
	const unsigned char *qe = q + t->len;
	uint64_t v = 0, sc = 1;
	unsigned d;

	/* the common "118.585": digits, a point, digits, in one pass */
	if (t->len > 0 && t->len < 16 && (unsigned)(*q - '0') <= 9) {
		while (q < qe && (d = *q - '0') <= 9) {
			v = v * 10 + d;
			q++;
		}
		if (q < qe && *q == '.')
			for (q++; q < qe && (d = *q - '0') <= 9; q++) {
				v = v * 10 + d;
				sc *= 10;
			}
		if (q == qe) {
			*sec = (double)(int64_t)v / (double)(int64_t)sc;
			return true;
		}
	}
	return clock_text(t, sec);
}

/* clock_of() for the rest: white space around (line ends too: comments
 * are wrapped), a sign, [%clk]. */
static bool
clock_text(const struct zh_token *t, double *sec)
{
	const char *s = t->text, *e = s + t->len;
	uint64_t x = 0, scale = 1;
	bool neg = false, digits = false;

	while (s < e && isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	if (s < e && *s == '[')
		return zh_comment_clock(t->text, t->len, "clk", sec);
	if (s < e && *s == '-') {
		neg = true;
		s++;
	}
	/* digits as one integer, the point's place kept in 'scale' */
	while (s < e && (unsigned)(*s - '0') <= 9 && x < UINT64_MAX / 100) {
		x = x * 10 + (uint64_t)(*s++ - '0');
		digits = true;
	}
	if (s < e && *s == '.')
		for (s++; s < e && (unsigned)(*s - '0') <= 9 &&
		    scale < 1000000000; s++) {
			x = x * 10 + (uint64_t)(*s - '0');
			scale *= 10;
			digits = true;
		}
	if (s != e || !digits || (double)x / (double)scale > ZH_CLOCK_MAX)
		return false;
	*sec = (double)x / (double)scale;
	if (neg)
		*sec = -*sec;
	return true;
}

/* ======================== replay ======================== */

static void
warn(struct zh_bug *b, const char *code, const struct zh_token *t, long ply,
    int board, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void
warn(struct zh_bug *b, const char *code, const struct zh_token *t, long ply,
    int board, const char *fmt, ...)
{
	struct zh_bwarn *w;
	va_list ap;

	if (b->nwarn >= ZH_BUG_MAXWARN) {
		b->nwarn_more++;
		return;
	}
	w = &b->warn[b->nwarn++];
	w->code = code;
	w->line = t->line;
	w->col = t->col;
	w->ply = ply;
	w->board = board;
	va_start(ap, fmt);
	vsnprintf(w->text, sizeof w->text, fmt, ap);
	va_end(ap);
}

/* The first error: at token t, ply on board (-1: none). */
static void
fail(struct zh_bug *b, const char *code, const struct zh_token *t, long ply,
    int board, const struct zh_error *e)
{
	if (b->err.code != ZH_OK)
		return;
	b->err = *e;
	b->err.line = t->line;
	b->err.col = t->col;
	b->err.ply = ply;
	b->err_board = board;
	b->err_code = code;
}

static const char *const side_name[2] = { "White", "Black" };

/* Who may play from here: the state of one board while replaying. */
struct board {
	struct zh_pos pos;
	double clock[2];	/* last clock of each side, NAN if none */
	long mated_ply;		/* mated after this ply, 0 if not */
	long pending;		/* in check after this ply, mate not tested
				   yet (0: none): a legal move on the board
				   answers it, a move on the other board or
				   the end asks it */
};

/* Increment in seconds of TimeControl "base+inc", 0 if none. */
static double
increment(const struct zh_game *g)
{
	const char *tc = zh_game_tag(g, "TimeControl"), *plus;

	if (tc == NULL || (plus = strchr(tc, '+')) == NULL)
		return 0;
	return strtod(plus + 1, NULL);
}

static bool
is_drop_text(const struct zh_token *t)
{
	return memchr(t->text, '@', t->len) != NULL;
}

static const char *
move_code(const struct zh_error *e, const struct zh_token *t)
{
	switch (e->code) {
	case ZH_EAMBIG:
		return "ambiguous";
	case ZH_ESYNTAX:
		return "syntax";
	case ZH_EILLEGAL:
		return is_drop_text(t) ? "illegal-drop" : "illegal-move";
	default:
		return "illegal-move";
	}
}

/* The record of a half-move, the array grown for it. */
static struct zh_bmove *
next_move(struct zh_bug *b)
{
	if (b->nmoves == b->cap) {
		size_t cap = b->cap < 64 ? 128 : b->cap * 2;
		struct zh_bmove *m = realloc(b->moves, cap * sizeof *m);

		if (m == NULL)
			return NULL;
		memset(m + b->cap, 0, (cap - b->cap) * sizeof *m);
		b->moves = m;
		b->cap = cap;
	}
	return &b->moves[b->nmoves];
}

/* The label expected next on board bd, into buf[16]. */
static const char *
label_text(const struct zh_pos *p, int bd, char *buf)
{
	snprintf(buf, 16, "%u%c.", p->fullmove,
	    p->side == ZH_WHITE ? "AB"[bd] : "ab"[bd]);
	return buf;
}

/*
 * Play move token t on board bd; returns false (b->err set) if it is
 * not a legal move there.  'sent': one board of a game, a drop's piece
 * taken as sent by the partner.
 */
static bool
play(struct zh_bug *b, struct board *bds, int bd, const struct zh_token *t,
    size_t tok, long label_tok, bool sent)
{
	struct board *B = &bds[bd];
	struct zh_pos *p = &B->pos;
	struct zh_bmove *bm = next_move(b);
	struct zh_error e;	/* set in full only on an error */
	struct zh_move m;
	int us = p->side, them = !us, ncand, ty;
	long ply = b->nplies[bd] + 1;
	size_t n;
	bool checks;

	if (bm == NULL) {
		zh_error_set(&e, ZH_ENOMEM, 0, "out of memory");
		fail(b, "memory", t, ply, bd, &e);
		return false;
	}
	e.code = ZH_OK;
	e.line = e.col = e.ply = 0;
	e.text[0] = '\0';
	bm->rm.san[0] = bm->rm.uci[0] = '\0';
	if (!zh__play_fast(p, t->text, t->len, &m, b->fast ? NULL : bm->rm.san,
	    b->fast ? NULL : bm->rm.uci)) {
		if (zh__san_read_n(p, t->text, t->len, &m, &e, &ncand) != 0) {
			if (!sent || !is_drop_text(t)) {
				fail(b, move_code(&e, t), t, ply, bd, &e);
				return false;
			}
			/* one board alone: its partner's pieces are not
			   known, so a dropped one is taken as sent */
			zh_error_clear(&e);
			for (ty = ZH_PAWN; ty < ZH_KING; ty++)
				if (p->pocket[us][ty] == 0)
					p->pocket[us][ty] = 1;
			if (zh__san_read_n(p, t->text, t->len, &m, &e,
			    &ncand) != 0) {
				fail(b, move_code(&e, t), t, ply, bd, &e);
				return false;
			}
			for (ty = ZH_PAWN; ty < ZH_KING; ty++)
				if (ty != m.piece)
					p->pocket[us][ty] = 0;
		}
		if (m.flags & ZH_MNULL) {	/* analysis: not a bughouse move */
			zh_error_set(&e, ZH_EILLEGAL, 1, "null move '%.*s' in a "
			    "bughouse game", (int)t->len, t->text);
			fail(b, "illegal-move", t, ply, bd, &e);
			return false;
		}
		if (!b->fast) {
			zh__san_body_n(p, m, ZH_SAN_AUTO, bm->rm.san, ncand);
			zh_uci_write(p, m, bm->rm.uci);
		}
		zh_make(p, m);
	}
	bm->rm.ok = true;
	bm->rm.move = m;
	bm->rm.ply = ply;
	bm->rm.depth = 0;
	bm->tok = tok;
	bm->label_tok = label_tok;
	bm->board = (unsigned char)bd;
	bm->side = (unsigned char)us;
	bm->captured = 0;
	bm->has_clock = false;
	/* the capture, to the partner, as it stood on the board: a
	   promoted piece (the FEN's '~' too) goes over as a pawn */
	if (!(m.flags & ZH_MDROP) && p->taken != 0) {
		ty = (p->taken & ZH_PROMOTED) && b->v->demote ? ZH_PAWN :
		    ZH_TYPE(p->taken);
		bm->captured = (unsigned char)ty;
		if (b->labels)
			bds[!bd].pos.pocket[them][ty]++;
	}
	b->nplies[bd] = ply;
	b->nmoves++;
	/* check and mate, against the move's suffix */
	checks = zh_in_check(p);
	bm->rm.check = checks ? 2 : 1;
	n = t->len;
	B->pending = 0;
	if (checks && (!b->fast || (n > 0 && t->text[n - 1] == '#'))) {
		if (zh__mate_in_check(p))
			B->mated_ply = ply;
	} else if (checks)
		B->pending = ply;
	if (!b->fast && checks) {
		size_t k = zh__movelen(bm->rm.san);

		bm->rm.san[k++] = B->mated_ply == ply ? '#' : '+';
		bm->rm.san[k] = '\0';
	}
	if (n > 0 && t->text[n - 1] == '#' && B->mated_ply != ply)
		warn(b, "check-suffix", t, ply, bd, "'%.*s' is marked '#' but "
		    "%s", (int)n, t->text, !checks ? "gives no check" :
		    "is not mate in bughouse: a drop could block the check");
	else if (n > 0 && t->text[n - 1] == '+' && !checks)
		warn(b, "check-suffix", t, ply, bd,
		    "'%.*s' is marked '+' but gives no check", (int)n, t->text);
	return true;
}

/* A check not yet tested for mate, tested. */
static void
mate_asked(struct board *B)
{
	if (B->pending != 0 && zh__mate_in_check(&B->pos))
		B->mated_ply = B->pending;
	B->pending = 0;
}

/* The clock comment after half-move bm (comment token t). */
static void
clock_after(struct zh_bug *b, struct board *bds, struct zh_bmove *bm,
    const struct zh_token *t, double inc)
{
	struct board *B = &bds[bm->board];
	double c, prev;

	if (bm->has_clock || !clock_of(t, &c))
		return;
	bm->has_clock = true;
	bm->clock = c;
	prev = B->clock[bm->side];
	/* a clock may gain the increment, and FICS prints milliseconds
	   that lag corrections move by a little */
	if (!isnan(prev) && c > prev + inc + 0.0005)
		warn(b, "clock", t, bm->rm.ply, bm->board, "%s's clock on "
		    "board %c runs backwards: %.3f s left after %.3f s",
		    side_name[bm->side], zh_board_letter(bm->board), c, prev);
	B->clock[bm->side] = c;
}

/* Which player a name is: 0-3 (WhiteA, BlackA, WhiteB, BlackB), -1. */
static int
player_of(const struct zh_game *g, const char *s, size_t n)
{
	static const char *const tags[4] = { "WhiteA", "BlackA", "WhiteB",
	    "BlackB" };
	int i;

	for (i = 0; i < 4; i++) {
		const char *v = zh_game_tag(g, tags[i]);

		if (v != NULL && *v != '\0' && strlen(v) == n &&
		    strncmp(v, s, n) == 0)
			return i;
	}
	return -1;
}

/* Do the bytes [s, e) start with 'words' (" forfeits on time"), any run
 * of white space (a line end: comments are wrapped) where it has one? */
static bool
words_are(const char *s, const char *e, const char *words)
{
	while (*words != '\0') {
		if (*words == ' ') {
			if (s == e || !isspace((unsigned char)*s))
				return false;
			while (s < e && isspace((unsigned char)*s))
				s++;
			words++;
		} else if (s < e && *s == *words) {
			s++;
			words++;
		} else
			return false;
	}
	return true;
}

/*
 * The ending a comment tells: "{X checkmated}", "{X resigns}", "{X
 * forfeits on time}", "{X forfeits by disconnection}", "{Game drawn
 * ...}", "{Game aborted ...}".
 */
static bool
ending_of(struct zh_bug *b, const struct zh_game *g, const struct zh_token *t)
{
	static const struct { const char *words; const char *how; } ends[] = {
		{ " checkmated", "checkmate" },
		{ " resigns", "resignation" },
		{ " resigned", "resignation" },
		{ " forfeits on time", "time" },
		{ " ran out of time", "time" },
		{ " forfeits by disconnection", "disconnection" },
		{ " lost connection", "disconnection" },
	};
	const char *s = t->text, *e = s + t->len, *w;
	size_t k;
	int who;

	while (s < e && isspace((unsigned char)*s))
		s++;
	if (e - s >= 10 && strncasecmp(s, "Game drawn", 10) == 0) {
		b->end_how = "draw";
		b->loser = -1;
		b->end_board = -1;
		goto told;
	}
	if (e - s >= 12 && strncasecmp(s, "Game aborted", 12) == 0) {
		b->end_how = "abort";
		b->loser = -1;
		b->end_board = -1;
		goto told;
	}
	for (w = s; w < e && !isspace((unsigned char)*w); w++)
		;
	if ((who = player_of(g, s, (size_t)(w - s))) < 0)
		return false;
	for (k = 0; k < sizeof ends / sizeof ends[0]; k++)
		if (words_are(w, e, ends[k].words))
			break;
	if (k == sizeof ends / sizeof ends[0])
		return false;
	b->end_how = ends[k].how;
	b->end_board = who / 2;
	b->loser = who % 2;
told:
	b->end_line = t->line;
	b->end_col = t->col;
	return true;
}

/* chess.com's Termination tag: "X won by checkmate", "X won on time",
 * "X won by resignation" (X the winner, on X's board). */
static void
termination_tag(struct zh_bug *b, const struct zh_game *g)
{
	const char *v = zh_game_tag(g, "Termination"), *w;
	size_t k;
	int who;

	if (v == NULL || (w = strstr(v, " won ")) == NULL)
		return;
	if ((who = player_of(g, v, (size_t)(w - v))) < 0)
		return;
	w += 5;
	b->end_how = strncmp(w, "by checkmate", 12) == 0 ? "checkmate" :
	    strncmp(w, "on time", 7) == 0 ? "time" :
	    strncmp(w, "by resignation", 14) == 0 ? "resignation" : NULL;
	if (b->end_how == NULL)
		return;
	b->end_board = who / 2;
	b->loser = !(who % 2);
	for (k = 0; k < g->ntags; k++)
		if (g->tags[k].value == v) {
			b->end_line = g->tags[k].line;
			b->end_col = g->tags[k].col;
		}
}

/* The start: a two-board FEN tag, one board's FEN (board A), or the
 * variant's start on both. */
static int
start_of(struct zh_bug *b, const struct zh_game *g)
{
	const char *fen = zh_game_tag(g, "FEN");
	struct zh_error e = { 0 };
	size_t k;

	zh_pos_start(&b->start[0], b->v);
	b->start[1] = b->start[0];
	if (fen == NULL || *fen == '\0')
		return 0;
	if ((strchr(fen, '|') != NULL ?
	    zh_bfen_read(b->start, fen, b->v, ZH_AUTO, &e) :
	    zh_fen_read(&b->start[0], fen, b->v, ZH_AUTO, 0, &e)) == 0) {
		b->setup = true;
		return 0;
	}
	for (k = 0; k < g->ntags; k++)
		if (g->tags[k].value == fen)
			break;
	b->err = e;
	snprintf(b->err.text, sizeof b->err.text, "FEN tag: %.180s", e.text);
	b->err.line = k < g->ntags ? g->tags[k].line : g->line;
	b->err.col = k < g->ntags ? g->tags[k].col + 6 + e.col - 1 : 1;
	b->err.ply = 0;
	b->err_code = "fen";
	zh_pos_start(&b->start[0], b->v);
	b->start[1] = b->start[0];
	return -1;
}

/*
 * A replay under way: the two boards and the label read but not yet
 * followed by its move (lab, NULL if none: its number, board, side and
 * token index).
 */
struct walk {
	const struct zh_game *g;
	struct zh_bug *b;
	struct board bds[2];
	const struct zh_token *lab;
	long lab_num, lab_tok;
	int lab_board, lab_side;
	double inc;		/* TimeControl's increment, in seconds */
};

/* b as before any game: no move, no ending, no error. */
static void
bug_reset(struct zh_bug *b)
{
	b->nmoves = 0;
	b->nplies[0] = b->nplies[1] = 0;
	b->setup = b->complete = b->labels = false;
	b->nwarn = b->nwarn_more = 0;
	b->end_board = b->loser = b->mated_board = -1;
	b->end_how = NULL;
	b->end_line = b->end_col = 0;
	b->err_board = -1;
	b->err_code = NULL;
	zh_error_clear(&b->err);
}

/*
 * The set-up: the variant (two boards), the start positions (the FEN
 * tag) and whether the moves carry board labels.  -1 (b->err said) if
 * there is nothing to replay.
 */
static int
walk_begin(struct walk *w, const struct zh_variant *force)
{
	struct zh_bug *b = w->b;
	const struct zh_game *g = w->g;
	size_t k;
	int i;

	bug_reset(b);
	if (zh_game_variant(g, force, &b->v, &b->err) != 0) {
		if (b->err.line == 0)
			b->err.line = g->line;
		b->err_code = "variant";
		b->v = NULL;
		return -1;
	}
	if (b->v->boards < 2) {
		zh_error_set(&b->err, ZH_EVARIANT, 1, "%s is not a two-board "
		    "game", b->v->name);
		b->err.line = g->line;
		b->err_code = "variant";
		return -1;
	}
	if (start_of(b, g) != 0) {
		b->final[0] = b->start[0];
		b->final[1] = b->start[1];
		return -1;
	}
	for (i = 0; i < 2; i++) {
		w->bds[i].pos = b->start[i];
		w->bds[i].clock[0] = w->bds[i].clock[1] = NAN;
		w->bds[i].mated_ply = 0;
		w->bds[i].pending = 0;
	}
	w->lab = NULL;
	w->lab_num = 0;
	w->lab_tok = -1;
	w->lab_board = w->lab_side = 0;
	w->inc = increment(g);
	for (k = 0; k < g->ntoks && !b->labels; k++) {
		long n;
		int bd, sd;

		b->labels = label_of(&g->toks[k], &n, &bd, &sd);
	}
	return 0;
}

/*
 * Token *k is a board label: kept for its move, *k moved on to that
 * move when it follows right away.  Returns the move's token, NULL if
 * none yet (*k unchanged: the loop's next token) or on an error (two
 * labels in a row: b->err said, *stop set).
 */
static const struct zh_token *
walk_label(struct walk *w, size_t *k, long n, int bd, int sd, bool *stop)
{
	const struct zh_game *g = w->g;
	const struct zh_token *t;

	if (w->lab != NULL) {
		struct zh_error e = { 0 };	/* here: a cost a move */

		zh_error_set(&e, ZH_ESYNTAX, 1, "label '%.*s.' without a move",
		    (int)w->lab->len, w->lab->text);
		fail(w->b, "syntax", w->lab, 0, w->lab_board, &e);
		*stop = true;
		return NULL;
	}
	w->lab = &g->toks[*k];
	w->lab_num = n;
	w->lab_board = bd;
	w->lab_side = sd;
	w->lab_tok = (long)*k;
	/* most labels: the move right after */
	if (*k + 1 >= g->ntoks || g->toks[*k + 1].kind != ZH_T_MOVE)
		return NULL;
	t = &g->toks[*k + 1];
	if (label_of(t, &n, &bd, &sd))
		return NULL;	/* a second label: said next time */
	++*k;
	return t;
}

/* The board of move t (its label's, checked against the board's turn;
 * board A in a game without labels), -1 on an error (b->err said). */
static int
walk_board(struct walk *w, const struct zh_token *t)
{
	const struct zh_pos *p;
	char want[16];
	int bd;

	if (!w->b->labels)
		return ZH_BOARD_A;
	if (w->lab == NULL) {
		struct zh_error e = { 0 };	/* here: a cost a move */

		zh_error_set(&e, ZH_ESYNTAX, 1, "move '%.*s' without a board "
		    "label (1A. 1a. 1B. 1b.)", (int)t->len, t->text);
		fail(w->b, "move-label", t, 0, -1, &e);
		return -1;
	}
	bd = w->lab_board;
	p = &w->bds[bd].pos;
	if (w->lab_side != p->side || w->lab_num != (long)p->fullmove) {
		struct zh_error e = { 0 };

		zh_error_set(&e, ZH_EILLEGAL, 1, "label '%.*s.' out of turn: "
		    "board %c is at %s (%s to move)", (int)w->lab->len,
		    w->lab->text, zh_board_letter(bd), label_text(p, bd, want),
		    side_name[p->side]);
		fail(w->b, "move-label", w->lab, w->b->nplies[bd] + 1, bd, &e);
		return -1;
	}
	return bd;
}

/* "The game is over": board m's side to move was mated; said of move t
 * on board bd. */
static void
walk_over(struct walk *w, int m, const struct zh_token *t, int bd)
{
	struct zh_error e = { 0 };

	zh_error_set(&e, ZH_EILLEGAL, 1, "the game is over: %s was "
	    "checkmated on board %c at ply %ld", side_name[w->bds[m].pos.side],
	    zh_board_letter(m), w->bds[m].mated_ply);
	fail(w->b, "illegal-move", t, w->b->nplies[bd] + 1, bd, &e);
}

/*
 * One half-move: move token *k (its label's, when the game has labels,
 * read first), played on its board, then the clock comment right after
 * it (*k moved past what was read).  false when the replay stops
 * (b->err said).
 */
static bool
walk_move(struct walk *w, size_t *k)
{
	struct zh_bug *b = w->b;
	const struct zh_game *g = w->g;
	const struct zh_token *t = &g->toks[*k];
	long n;
	int bd, sd;
	bool stop = false;

	if (b->labels && label_of(t, &n, &bd, &sd) &&
	    (t = walk_label(w, k, n, bd, sd, &stop)) == NULL)
		return !stop;
	if ((bd = walk_board(w, t)) < 0)
		return false;
	mate_asked(&w->bds[!bd]);
	if (w->bds[0].mated_ply != 0 || w->bds[1].mated_ply != 0) {
		walk_over(w, w->bds[0].mated_ply != 0 ? 0 : 1, t, bd);
		return false;
	}
	if (!play(b, w->bds, bd, t, *k, w->lab_tok, !b->labels)) {
		mate_asked(&w->bds[bd]);
		if (w->bds[bd].mated_ply != 0) {	/* the better word */
			zh_error_clear(&b->err);
			walk_over(w, bd, t, bd);
		}
		return false;
	}
	w->lab = NULL;
	w->lab_tok = -1;
	if (*k + 1 < g->ntoks && g->toks[*k + 1].kind == ZH_T_COMMENT) {
		++*k;	/* most moves: the clock, right after */
		clock_after(b, w->bds, &b->moves[b->nmoves - 1], &g->toks[*k],
		    w->inc);
	}
	return true;
}

/* A comment k not right after a move: the clock of the last move if
 * only a NAG stands between them. */
static void
walk_comment(struct walk *w, size_t k)
{
	struct zh_bug *b = w->b;
	const struct zh_game *g = w->g;
	size_t last;

	if (b->nmoves == 0)
		return;
	last = b->moves[b->nmoves - 1].tok;
	if (last + 1 == k || (last + 2 == k && g->toks[k - 1].kind == ZH_T_NAG))
		clock_after(b, w->bds, &b->moves[b->nmoves - 1], &g->toks[k],
		    w->inc);
}

/*
 * The ending: a label left without its move, the comment that says how
 * the game ended (after the last move, or before it for a game cut
 * short by an error), the final positions and a mate not yet asked,
 * else the Termination tag.
 */
static int
walk_end(struct walk *w)
{
	struct zh_bug *b = w->b;
	const struct zh_game *g = w->g;
	struct zh_error e = { 0 };
	size_t k;
	int i;

	if (b->err.code == ZH_OK && w->lab != NULL) {
		zh_error_set(&e, ZH_ESYNTAX, 1, "label '%.*s.' without a move",
		    (int)w->lab->len, w->lab->text);
		fail(b, "syntax", w->lab, 0, w->lab_board, &e);
	}
	for (k = g->ntoks; k > 0 && g->toks[k - 1].kind != ZH_T_MOVE; k--)
		if (g->toks[k - 1].kind == ZH_T_COMMENT &&
		    ending_of(b, g, &g->toks[k - 1]))
			break;
	for (i = 0; i < 2; i++) {
		mate_asked(&w->bds[i]);
		b->final[i] = w->bds[i].pos;
		if (w->bds[i].mated_ply != 0)
			b->mated_board = i;
	}
	if (b->end_how == NULL)
		termination_tag(b, g);
	b->complete = b->err.code == ZH_OK;
	return b->complete ? 0 : -1;
}

int
zh_bug_replay(const struct zh_game *g, const struct zh_variant *force,
    struct zh_bug *b)
{
	struct walk w;
	size_t k;
	int depth = 0;

	w.g = g;
	w.b = b;
	if (walk_begin(&w, force) != 0)
		return -1;
	for (k = 0; k < g->ntoks && b->err.code == ZH_OK; k++) {
		const struct zh_token *t = &g->toks[k];

		if (t->kind == ZH_T_VSTART)
			depth++;
		else if (t->kind == ZH_T_VEND && depth > 0)
			depth--;
		else if (depth > 0)
			continue;	/* variations: not walked */
		else if (t->kind == ZH_T_COMMENT)
			walk_comment(&w, k);
		else if (t->kind == ZH_T_MOVE && !walk_move(&w, &k))
			break;
	}
	return walk_end(&w);
}

void
zh_bug_free(struct zh_bug *b)
{
	if (b != NULL) {
		free(b->moves);
		b->moves = NULL;
		b->cap = b->nmoves = 0;
	}
}

/* ======================== results ======================== */

/* The board and colour that lost: the mate on the board first, else
 * what the text told.  false if neither tells. */
static bool
lost(const struct zh_bug *b, int *board, int *side)
{
	if (b->mated_board >= 0) {
		*board = b->mated_board;
		*side = b->final[b->mated_board].side;
		return true;
	}
	if (b->end_board >= 0 && b->loser >= 0) {
		*board = b->end_board;
		*side = b->loser;
		return true;
	}
	return false;
}

const char *
zh_bug_team_result(const struct zh_bug *b)
{
	int bd, sd;

	if (b->end_how != NULL && strcmp(b->end_how, "draw") == 0)
		return "1/2-1/2";
	if (!lost(b, &bd, &sd))
		return NULL;
	/* White A and Black B are the first team */
	return (bd == ZH_BOARD_A) == (sd == ZH_WHITE) ? "0-1" : "1-0";
}

const char *
zh_bug_board_result(const struct zh_bug *b)
{
	int bd, sd;

	if (b->end_how != NULL && strcmp(b->end_how, "draw") == 0)
		return "1/2-1/2";
	if (!lost(b, &bd, &sd))
		return NULL;
	return sd == ZH_WHITE ? "0-1" : "1-0";
}

const char *
zh__bug_result(const struct zh_bug *b, const char *r, const char **conv)
{
	const char *team, *board, *c = NULL;

	if (conv != NULL)
		*conv = NULL;
	if (b == NULL || !b->complete || r == NULL || strcmp(r, "*") == 0)
		return r;
	/* scored as a mate the boards do not show: nothing tells */
	if (b->mated_board < 0 && b->end_how != NULL && b->end_board >= 0 &&
	    strcmp(b->end_how, "checkmate") == 0)
		return r;
	if ((team = zh_bug_team_result(b)) == NULL)
		return r;
	board = zh_bug_board_result(b);
	if (strcmp(r, team) == 0)
		c = strcmp(team, board) == 0 ? "either" : "team";
	else if (strcmp(r, board) == 0)
		c = "board";
	if (conv != NULL)
		*conv = c;
	return c != NULL ? team : r;
}

/* ======================== positions ======================== */

int
zh_bug_walk(const struct zh_bug *b,
    int (*fn)(void *arg, const struct zh_bply *pl), void *arg)
{
	struct zh_pos p[2] = { b->start[0], b->start[1] };
	struct zh_bply pl;
	size_t i;
	int rc;

	pl.pos[0] = &p[0];
	pl.pos[1] = &p[1];
	pl.index = 0;
	pl.move = NULL;
	pl.last = b->nmoves == 0;
	if ((rc = fn(arg, &pl)) != 0)
		return rc;
	for (i = 0; i < b->nmoves; i++) {
		const struct zh_bmove *m = &b->moves[i];

		/* one board alone: a dropped piece was sent, as replayed */
		if (!b->labels && (m->rm.move.flags & ZH_MDROP) &&
		    p[m->board].pocket[m->side][m->rm.move.piece] == 0)
			p[m->board].pocket[m->side][m->rm.move.piece]++;
		zh_make(&p[m->board], m->rm.move);
		if (m->captured && b->labels)
			p[!m->board].pocket[!m->side][m->captured]++;
		pl.index = (long)i + 1;
		pl.move = m;
		pl.last = i + 1 == b->nmoves;
		if ((rc = fn(arg, &pl)) != 0)
			return rc;
	}
	return 0;
}
