/*
 * pgnout.c - games out: PGN in each dialect, and one JSON object per game.
 *
 * Both writers take a game as read (struct zh_game) and its replay
 * (struct zh_replay), walk the game's tokens once and render each one:
 * a resolved move as SAN of the target dialect with a move number made
 * from its ply, a move that could not be resolved as it was written,
 * comments as they were written, NAGs, variations and the result.
 * Each writer builds the whole game in memory and writes it with one
 * fwrite, so a game's output never depends on what surrounds it.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

/* The buffer's calls by their short names: the writers are made of
 * them.  A game's output starts in an array on the stack (most games
 * fit): no malloc and free a game. */
#define reserve		zh__buf_reserve
#define bput		zh__bput
#define bputc		zh__bputc
#define bputs		zh__bputs
#define bflush		zh__buf_flush
#define BUF_LOCAL	ZH_BUF_LOCAL
#define LOCALBUF	16384

/* ======================== shared helpers ======================== */

/* SAN of a resolved move in dialect d (r->moves[].san is Lichess's). */
static ZH_HOT_INLINE size_t
san_of(const struct zh_rmove *m, int d, const char **s)
{
	return zh__san_as(m->san, zh__movelen(m->san), d, s);
}

/* Is the game's start position known (variant and FEN tag both fine)? */
static bool
have_start(const struct zh_replay *r)
{
	return r->v != NULL && !(r->err.code != ZH_OK && r->err.ply == 0);
}

/* A NAG token's number ("$14" -> 14), or -1. */
static long
nag_number(const struct zh_token *t)
{
	long n = 0;
	size_t i;

	if (t->len < 2 || t->len > 4 || t->text[0] != '$')
		return -1;
	for (i = 1; i < t->len; i++) {
		if (!isdigit((unsigned char)t->text[i]))
			return -1;
		n = n * 10 + (t->text[i] - '0');
	}
	return n;
}

/* ======================== PGN: tags ======================== */

static const char *const str_names[7] = {
	"Event", "Site", "Date", "Round", "White", "Black", "Result"
};
static const char *const str_unknown[7] = {
	"?", "?", "????.??.??", "?", "?", "?", "*"
};

static void
put_tag(struct zh__buf *b, const char *name, const char *value)
{
	size_t nn = strlen(name), nv = strcspn(value, "\"\\"), esc = 0, k;
	char *q;

	if (value[nv] != '\0') {	/* quotes or backslashes to escape */
		for (k = nv; value[k] != '\0'; k++)
			esc += value[k] == '"' || value[k] == '\\';
		nv = k;
	}
	if (!reserve(b, nn + nv + esc + 5))
		return;
	q = b->s + b->len;
	*q++ = '[';
	memcpy(q, name, nn);
	q += nn;
	*q++ = ' ';
	*q++ = '"';
	if (esc == 0) {
		memcpy(q, value, nv);
		q += nv;
	} else
		for (k = 0; value[k] != '\0'; k++) {
			if (value[k] == '"' || value[k] == '\\')
				*q++ = '\\';
			*q++ = value[k];
		}
	memcpy(q, "\"]\n", 4);	/* with the NUL */
	b->len = (size_t)(q + 3 - b->s);
}

/* The tags write_tags() treats apart: the roster's seven (0 to 6, in
 * str_names' order), then these. */
enum { TC_VARIANT = 7, TC_FEN, TC_SETUP, TC_CURPOS, TC_N };

/* A tag name's TC_ class or roster index; -1 for any other name. */
static int
tag_class(const char *name)
{
	static const char *const more[] = {
		[TC_VARIANT - 7] = "Variant", [TC_FEN - 7] = "FEN",
		[TC_SETUP - 7] = "SetUp", [TC_CURPOS - 7] = "CurrentPosition"
	};
	int i;

	for (i = 0; i < 7; i++)
		if (name[0] == str_names[i][0] && strcmp(name, str_names[i]) == 0)
			return i;
	for (i = 0; i < TC_N - 7; i++)
		if (name[0] == more[i][0] && strcmp(name, more[i]) == 0)
			return 7 + i;
	return -1;
}

/* The Variant tag value dialect d writes for v; NULL for chess. */
static const char *
variant_value(const struct zh_variant *v, int d, char *buf, size_t size)
{
	size_t i;

	if (v->chess_tags)
		return NULL;
	if (!zh__dialect(d, ZH_SAN_AUTO)->variant_lower)
		return v->tag;
	for (i = 0; v->tag[i] && i + 1 < size; i++)
		buf[i] = (char)tolower((unsigned char)v->tag[i]);
	buf[i] = '\0';
	return buf;
}

/*
 * Seven Tag Roster first (a missing one as "?", PGN export format),
 * then the game's other tags in input order, with Variant, FEN, SetUp
 * and CurrentPosition written the way dialect d writes them.
 */
static void
write_tags(struct zh__buf *b, const struct zh_game *g,
    const struct zh_replay *r, int d)
{
	char vbuf[64], fen[ZH_FENMAX];
	const char *variant = variant_value(r->v, d, vbuf, sizeof vbuf);
	int first[TC_N], vpos, fpos, spos, cpos, group, vat, i;
	signed char cls[64];	/* the first tags' classes, kept */
	size_t k;

	/* one pass for where each tag of interest first stands */
	for (i = 0; i < TC_N; i++)
		first[i] = -1;
	for (k = 0; k < g->ntags; k++) {
		i = tag_class(g->tags[k].name);
		if (k < sizeof cls)
			cls[k] = (signed char)i;
		if (i >= 0 && first[i] < 0)
			first[i] = (int)k;
	}
	vpos = first[TC_VARIANT];
	fpos = first[TC_FEN];
	spos = first[TC_SETUP];
	cpos = first[TC_CURPOS];
	group = fpos < 0 ? spos : spos < 0 ? fpos : fpos < spos ? fpos : spos;
	for (i = 0; i < 7; i++) {
		int at = first[i];

		if (at >= 0)
			put_tag(b, str_names[i], g->tags[at].value);
		else
			put_tag(b, str_names[i], i == 6 && g->result != NULL ?
			    g->result : str_unknown[i]);
	}
	/* Where Variant goes: its own place; XBoard wants it before FEN. */
	if (vpos >= 0)
		vat = zh__dialect(d, ZH_SAN_AUTO)->variant_before_fen &&
		    group >= 0 && group < vpos ? group : vpos;
	else
		vat = group >= 0 ? group : (int)g->ntags;
	for (k = 0; k <= g->ntags; k++) {
		const struct zh_tag *t = k < g->ntags ? &g->tags[k] : NULL;
		int tc;

		if ((int)k == vat && variant != NULL)
			put_tag(b, "Variant", variant);
		if (t == NULL)
			break;
		tc = k < sizeof cls ? cls[k] : tag_class(t->name);
		if (tc >= 0 && tc < 7 && first[tc] == (int)k)
			continue;
		if (tc == TC_VARIANT)
			continue;
		if ((int)k == fpos && r->setup) {
			zh_fen_write(&r->start, d, fen, sizeof fen);
			put_tag(b, "FEN", fen);
			if (spos < 0)
				put_tag(b, "SetUp", "1");
		} else if ((int)k == spos && r->setup)
			put_tag(b, "SetUp", "1");
		else if (tc == TC_CURPOS) {
			if (zh__dialect(d, ZH_SAN_AUTO)->current_position &&
			    (int)k == cpos && r->complete) {
				zh_fen_write(&r->final, d, fen, sizeof fen);
				put_tag(b, "CurrentPosition", fen);
			}
		} else
			put_tag(b, t->name, t->value);
	}
	if (zh__dialect(d, ZH_SAN_AUTO)->current_position && cpos < 0 &&
	    r->complete) {
		zh_fen_write(&r->final, d, fen, sizeof fen);
		put_tag(b, "CurrentPosition", fen);
	}
}

/* ======================== PGN: movetext ======================== */

#define WRAP 80

struct pgnw {
	struct zh__buf *b;
	struct zh__buf tmp;		/* a comment being rewritten */
	size_t col;		/* characters on the current line */
	int opens;		/* '(' to glue to the next word */
};

/* A word, wrapping at WRAP; its '(' and glued ')' must fit too.  Inline
 * in tword, which calls it as its own copy did (no call more in the PGN
 * writer), and in zh__pgn_word. */
static inline void
pgn_word(struct zh__buf *b, size_t *col, const char *s, size_t n,
    size_t trail, int opens)
{
	const char *nl = memchr(s, '\n', n);
	size_t first = (nl ? (size_t)(nl - s) : n + trail) + (size_t)opens;

	if (*col > 0) {
		if (*col + 1 + first > WRAP) {
			bputc(b, '\n');
			*col = 0;
		} else {
			bputc(b, ' ');
			(*col)++;
		}
	}
	for (; opens > 0; opens--, (*col)++)
		bputc(b, '(');
	bput(b, s, n);
	if (nl != NULL) {
		const char *last = s + n;

		while (last[-1] != '\n')
			last--;
		*col = (size_t)(s + n - last);
	} else
		*col += n;
}

/* The same for bugout.c's writers (zh_int.h). */
void
zh__pgn_word(struct zh__buf *b, size_t *col, const char *s, size_t n,
    size_t trail, int opens)
{
	pgn_word(b, col, s, n, trail, opens);
}

/* A word of the movetext, with the '(' waiting for it. */
static void
tword(struct pgnw *w, const char *s, size_t n, size_t trail)
{
	pgn_word(w->b, &w->col, s, n, trail, w->opens);
	w->opens = 0;
}

/*
 * tword for a word that holds no newline, when it is short and no '('
 * waits: the blank or line end and the word in one reserve.  'copy'
 * bytes are copied from s (n, or more when s has them, to copy a fixed
 * size without a call).
 */
static inline void
tword_fast(struct pgnw *w, const char *s, size_t n, size_t trail, size_t copy)
{
	struct zh__buf *b = w->b;

	if (n <= 64 && n <= copy && w->opens == 0 && reserve(b, copy + 2)) {
		char *q = b->s + b->len;

		if (w->col > 0) {
			if (w->col + 1 + n + trail > WRAP) {
				*q++ = '\n';
				w->col = 0;
			} else {
				*q++ = ' ';
				w->col++;
			}
		}
		memcpy(q, s, copy);
		q += n;
		*q = '\0';
		b->len = (size_t)(q - b->s);
		w->col += n;
		return;
	}
	tword(w, s, n, trail);
}

/* tword for a word that holds no newline (a move, a NAG). */
static void
tword_plain(struct pgnw *w, const char *s, size_t n, size_t trail)
{
	tword_fast(w, s, n, trail, n);
}

/* The same for a word at the start of a char[64]: 32 bytes copied. */
static void
tword_mw(struct pgnw *w, const char *mw, size_t n, size_t trail)
{
	tword_fast(w, mw, n, trail, 32);
}

static void
word(struct pgnw *w, const char *s, size_t n)
{
	tword(w, s, n, 0);
}

/* How many ')' follow token i of toks[ntoks] directly. */
static size_t
closers(const struct zh_token *toks, size_t ntoks, size_t i)
{
	size_t n = 0;

	while (++i < ntoks && toks[i].kind == ZH_T_VEND)
		n++;
	return n;
}

static void
close_paren(struct pgnw *w)
{
	if (w->opens > 0) {
		w->opens--;
		word(w, "()", 2);
	} else if (w->col + 1 > WRAP) {
		bput(w->b, "\n)", 2);
		w->col = 1;
	} else {
		bputc(w->b, ')');
		w->col++;
	}
}

/*
 * A comment as written, in braces; line ends become '\n'.  A comment
 * holding '}' (it came from a ';' comment) is written as a ';' comment,
 * which ends its line.
 */
static void
comment(struct pgnw *w, const struct zh_token *t, size_t trail)
{
	bool semi = memchr(t->text, '}', t->len) != NULL;
	size_t i;

	w->tmp.len = 0;
	bputc(&w->tmp, semi ? ';' : '{');
	if (!semi && memchr(t->text, '\r', t->len) == NULL) {
		bput(&w->tmp, t->text, t->len);		/* as it is */
		i = t->len;
	} else
		i = 0;
	for (; i < t->len; i++) {
		char c = t->text[i];

		if (c == '\r') {
			if (i + 1 < t->len && t->text[i + 1] == '\n')
				continue;
			c = '\n';
		}
		if (semi && c == '\n')
			c = ' ';
		bputc(&w->tmp, c);
	}
	if (semi) {
		bputc(&w->tmp, '\n');
		word(w, w->tmp.s, w->tmp.len);
		w->col = 0;
		return;
	}
	bputc(&w->tmp, '}');
	tword(w, w->tmp.s, w->tmp.len, trail);
}

static const char *const glyphs[7] = { "", "!", "?", "!!", "??", "!?", "?!" };

/* The state of write_movetext's walk over the tokens. */
struct mtstate {
	struct pgnw w;
	bool force;			/* the next black move needs "N..." */
	bool *dead, deadl[64];		/* dead[n]: the line at depth n is past
					   a move that did not resolve */
	int depth;
	const struct zh_token *num;	/* move number not yet written */
};

/*
 * dead[] for the game's deepest variation.  Most games have no
 * variation, which one memchr of the text tells (as in zh_replay), and
 * most others are not deeper than deadl.  False if out of memory.
 */
static bool
dead_levels(struct mtstate *m, const struct zh_game *g)
{
	const struct zh_token *toks = g->toks;
	int depth = 0, maxdepth = 0;
	size_t i;

	if (g->raw == NULL || g->raw_truncated || g->texts_apart ||
	    memchr(g->raw, '(', g->rawlen) != NULL) {
		for (i = 0; i < g->ntoks; i++)
			if (toks[i].kind == ZH_T_VSTART && ++depth > maxdepth)
				maxdepth = depth;
			else if (toks[i].kind == ZH_T_VEND && depth > 0)
				depth--;
	}
	if ((size_t)maxdepth < sizeof m->deadl / sizeof m->deadl[0]) {
		m->dead = m->deadl;
		memset(m->dead, 0, ((size_t)maxdepth + 1) * sizeof *m->dead);
		return true;
	}
	return (m->dead = calloc((size_t)maxdepth + 1, sizeof *m->dead)) != NULL;
}

/*
 * The word of move token i into mw: a resolved move as SAN of dialect d
 * with its number where one is due; else as written, the line dead from
 * here (its number written first).  Returns its length (0: written
 * already, too long for mw).
 */
static ZH_HOT_INLINE size_t
move_word(struct mtstate *m, const struct zh_game *g,
    const struct zh_replay *r, int d, size_t i, char *mw, size_t size)
{
	const struct zh_token *t = &g->toks[i];
	const struct zh_rmove *rm = &r->moves[i];
	size_t n = 0;

	if (rm->ok && !m->dead[m->depth]) {
		long abs = r->start_ply + rm->ply - 1;
		const char *san;
		size_t sn = san_of(rm, d, &san);

		if (abs % 2 == 0 || m->force) {
			n = (size_t)(zh__putlong(mw, abs / 2 + 1) - mw);
			/* ". " or "... ": four bytes copied */
			memcpy(mw + n, abs % 2 ? "... " : ".   ", 4);
			n += abs % 2 ? 4 : 2;
		}
		/* whole arrays: fixed-size copies, no calls */
		if (san == rm->san)
			memcpy(mw + n, rm->san, sizeof rm->san);
		else
			memcpy(mw + n, san, sn);
		return n + sn;
	}
	/* Not resolved: as written, with its number, to the end of this
	   line. */
	if (m->num != NULL)
		word(&m->w, m->num->text, m->num->len);
	m->dead[m->depth] = true;
	if (t->len + 8 > size) {
		word(&m->w, t->text, t->len);
		return 0;
	}
	memcpy(mw, t->text, t->len);
	return t->len;
}

/* Move token *i written; a NAG after it glued to it where the dialect
 * does so (Lichess: !, ?, !!, ??, !?, ?!), *i then past the NAG. */
static ZH_HOT_INLINE void
write_move(struct mtstate *m, const struct zh_game *g,
    const struct zh_replay *r, int d, size_t *i)
{
	const struct zh_token *toks = g->toks;
	char mw[64];
	size_t n = move_word(m, g, r, d, *i, mw, sizeof mw);

	m->num = NULL;
	m->force = false;
	if (zh__dialect(d, ZH_SAN_AUTO)->nag_glyphs && n > 0 &&
	    *i + 1 < g->ntoks && toks[*i + 1].kind == ZH_T_NAG) {
		long k = nag_number(&toks[*i + 1]);

		if (k >= 1 && k <= 6) {
			size_t gl = strlen(glyphs[k]);

			memcpy(mw + n, glyphs[k], gl);
			n += gl;
			(*i)++;
		}
	}
	if (n > 0)
		tword_mw(&m->w, mw, n, closers(toks, g->ntoks, *i));
}

/* The game's result when its movetext has no termination marker: the
 * Result tag's if it is one, else "*". */
static void
write_result(struct pgnw *w, const struct zh_game *g)
{
	const char *res = g->result ? g->result : zh_game_tag(g, "Result");

	if (res == NULL || (strcmp(res, "1-0") != 0 &&
	    strcmp(res, "0-1") != 0 && strcmp(res, "1/2-1/2") != 0))
		res = "*";
	word(w, res, strlen(res));
}

static void
write_movetext(struct zh__buf *b, const struct zh_game *g,
    const struct zh_replay *r, int d)
{
	struct mtstate m = { .w = { b, { 0 }, 0, 0 }, .force = true };
	bool have_result = false;
	/* in locals: a store of text (char) could change them otherwise */
	const struct zh_token *toks = g->toks;
	const size_t ntoks = g->ntoks;
	size_t i;

	if (!dead_levels(&m, g)) {
		b->fail = true;
		return;
	}
	for (i = 0; i < ntoks; i++) {
		const struct zh_token *t = &toks[i];

		switch (t->kind) {
		case ZH_T_MOVENUM:
			if (m.dead[m.depth])
				word(&m.w, t->text, t->len);
			else
				m.num = t;
			break;
		case ZH_T_MOVE:
			write_move(&m, g, r, d, &i);
			break;
		case ZH_T_COMMENT:
			comment(&m.w, t, closers(toks, ntoks, i));
			m.force = true;
			break;
		case ZH_T_NAG:
			tword_plain(&m.w, t->text, t->len,
			    closers(toks, ntoks, i));
			break;
		case ZH_T_VSTART:
			m.w.opens++;
			m.depth++;
			m.dead[m.depth] = m.dead[m.depth - 1];
			m.num = NULL;
			m.force = true;
			break;
		case ZH_T_VEND:
			close_paren(&m.w);
			if (m.depth > 0)
				m.depth--;
			m.num = NULL;
			m.force = true;
			break;
		case ZH_T_RESULT:
			word(&m.w, t->text, t->len);
			have_result = true;
			break;
		}
	}
	while (m.depth-- > 0)
		close_paren(&m.w);	/* not reached: the reader balances */
	if (!have_result)
		write_result(&m.w, g);
	if (m.w.col > 0)
		bputc(b, '\n');
	free(m.w.tmp.s);
	if (m.dead != m.deadl)
		free(m.dead);
}

int
zh__pgn_write_board(FILE *f, const struct zh_game *g, const struct zh_replay *r,
    int d, struct zh_error *err)
{
	char local[LOCALBUF];
	struct zh__buf b = BUF_LOCAL(local);

	if (!have_start(r)) {
		zh_error_set(err, ZH_EPOSITION, 0, "no start position to write");
		return -1;
	}
	if (d == ZH_AUTO)
		d = ZH_SAN_AUTO;
	write_tags(&b, g, r, d);
	bputc(&b, '\n');
	write_movetext(&b, g, r, d);
	bputc(&b, '\n');
	return bflush(&b, f, err);
}

/* ======================== JSON ======================== */

/*
 * The game object is written straight into the buffer with json.c's
 * calls; the moves, which are most of the bytes, in the fewest stores:
 * SAN, UCI and FEN are our own ASCII, and only the strings that come
 * from the input go through the encoder (zh__json_str).  Building a
 * Jansson object per move cost as much as replaying the game.
 */

struct jctx {
	const struct zh_game *g;
	const struct zh_replay *r;
	int d;
	unsigned flags;
	size_t *match;		/* jmatch(), once a move has variations */
	struct zh__buf comment;	/* comments outside any move */
};

/* The move being built: its fields until the next move ends it. */
struct jmove {
	bool open;
	bool clock, emt, eval;
	double clk, el, pawns;
	int mate;
	struct zh__buf text;	/* its comments */
	struct zh__buf nags;	/* "1,14" */
	bool vopen;		/* its fields and '"variations":[' written */
	size_t done;		/* its comments and NAGs end before this token */
	size_t tok;		/* its token */
	bool odd;		/* the tokens after it may say more than its
				   keys (gamejson.c looks): a second comment
				   or one not " text ", a NAG, a variation, a
				   move that could not be played, ... */
};

/* The move's fields after its texts, but its variations; "after" when
 * they do not say the tokens after it (gamejson.c). */
static void
jmove_fields(struct zh__buf *b, const struct jmove *m,
    const struct zh_game *g, const struct zh_rmove *moves,
    const size_t *match)
{
	size_t end;
	bool plain;

	if (m->text.len > 0) {
		zh__json_key(b, "comment");
		zh__json_str(b, m->text.s, m->text.len);
	}
	if (m->nags.len > 0) {
		zh__json_key(b, "nags");
		bputc(b, '[');
		bput(b, m->nags.s, m->nags.len);
		bputc(b, ']');
	}
	if (m->clock) {
		zh__json_key(b, "clock");
		zh__json_seconds(b, m->clk);
	}
	if (m->emt) {
		zh__json_key(b, "emt");
		zh__json_seconds(b, m->el);
	}
	if (m->eval && m->mate != 0) {
		zh__json_key(b, "mate");
		zh__json_int(b, m->mate);
	} else if (m->eval) {
		/* "cp": the one name and unit of every tool */
		zh__json_key(b, "cp");
		zh__json_int(b, (long long)(m->pawns * 100 +
		    (m->pawns < 0 ? -0.5 : 0.5)));
	}
	if (!m->odd)
		return;
	end = zh__json_run(g, moves, match, m->tok + 1, true,
	    !moves[m->tok].ok, &plain);
	if (!plain)
		zh__json_run_list(b, "after", g, moves, match, m->tok + 1, end,
		    !moves[m->tok].ok);
}

static void
jmove_finish(struct zh__buf *b, struct jmove *m, const struct zh_game *g,
    const struct zh_rmove *moves)
{
	if (!m->open)
		return;
	if (m->vopen)
		bputc(b, ']');
	else	/* no variation after it: no match needed */
		jmove_fields(b, m, g, moves, NULL);
	bputc(b, '}');
	m->open = m->clock = m->emt = m->eval = m->vopen = m->odd = false;
	m->text.len = m->nags.len = 0;
	m->done = 0;
}

/* The first [%clk], [%emt] and [%eval] of the move's comments. */
static void
commands(struct jmove *m, const struct zh_token *t)
{
	const char *s = t->text, *e = t->text + t->len, *p;

	while ((p = memchr(s, '%', (size_t)(e - s))) != NULL) {
		size_t n = (size_t)(e - p) + 1;

		s = p + 1;
		if (p == t->text || p[-1] != '[' || n < 6)
			continue;
		if (!m->clock && memcmp(p + 1, "clk", 3) == 0)
			m->clock = zh_comment_clock(p - 1, n, "clk", &m->clk);
		else if (!m->emt && memcmp(p + 1, "emt", 3) == 0)
			m->emt = zh_comment_clock(p - 1, n, "emt", &m->el);
		else if (!m->eval && n > 6 && memcmp(p + 1, "eval", 4) == 0)
			m->eval = zh_comment_eval(p - 1, n, &m->pawns, &m->mate);
	}
}

/*
 * '"SAN","uci":"UCI"' of a resolved move in dialect d, after 'lead'
 * (nlead bytes, up to 16: what comes before, such as '},{"san":'), in
 * one reserve.
 */
static ZH_HOT_INLINE void
jmove_texts(struct zh__buf *b, const struct zh_rmove *rm, int d,
    const char *lead, size_t nlead)
{
	const char *san;
	size_t sn = san_of(rm, d, &san);
	size_t un = zh__movelen(rm->uci);

	/* lead, "SAN","uci":"UCI": all three under their bounds */
	if (reserve(b, 2 * ZH_MOVEMAX + 32)) {
		char *q = b->s + b->len;

		/* whole arrays copied, as much kept as due (the reserve has
		   room) */
		_Static_assert(sizeof rm->san == ZH_MOVEMAX &&
		    sizeof rm->uci == ZH_MOVEMAX, "move texts");
		memcpy(q, lead, nlead);
		q += nlead;
		*q++ = '"';
		if (san == rm->san)
			memcpy(q, rm->san, ZH_MOVEMAX);
		else
			memcpy(q, san, sn);
		q += sn;
		memcpy(q, "\",\"uci\":\"", 9);
		q += 9;
		memcpy(q, rm->uci, ZH_MOVEMAX);
		q += un;
		*q++ = '"';
		*q = '\0';
		b->len = (size_t)(q - b->s);
	}
}

/* A NAG of the move being built. */
static void
jnag(struct jmove *m, const struct zh_token *t)
{
	long k = nag_number(t);

	if (k < 0)
		return;
	zh__json_int(&m->nags, k);	/* "1,14": the writer's commas */
}

/*
 * For each '(' token, the token after its ')' (ntoks if none): a list
 * of the open ones threaded through the array while it is filled.
 */
static size_t *
jmatch(const struct zh_game *g)
{
	size_t *m, top = SIZE_MAX, i, j;

	if ((m = malloc(g->ntoks * sizeof *m)) == NULL)
		return NULL;
	for (i = 0; i < g->ntoks; i++)
		if (g->toks[i].kind == ZH_T_VSTART) {
			m[i] = top;
			top = i;
		} else if (g->toks[i].kind == ZH_T_VEND && top != SIZE_MAX) {
			j = top;
			top = m[j];
			m[j] = i + 1;
		}
	for (; top != SIZE_MAX; top = j) {
		j = m[top];
		m[top] = g->ntoks;
	}
	return m;
}

/*
 * The comments and NAGs of the open move from its first variation, at
 * token i, on, its variations skipped: the move's fields come before
 * them in its object.  Returns the token where the move's part ends.
 */
static size_t
jlook(const struct jctx *c, struct jmove *m, size_t i, bool nested)
{
	const struct zh_token *t;

	for (; i < c->g->ntoks; i++) {
		t = &c->g->toks[i];
		if (t->kind == ZH_T_MOVE || (t->kind == ZH_T_VEND && nested))
			break;
		if (t->kind == ZH_T_VSTART)
			i = c->match[i] - 1;
		else if (t->kind == ZH_T_COMMENT) {
			zh__json_comment_add(&m->text, t);
			commands(m, t);
		} else if (t->kind == ZH_T_NAG)
			jnag(m, t);
	}
	return i;
}

/* A line of play being written, put aside while a variation is. */
struct jlevel {
	struct jmove m;
	struct zh__buf pre;		/* comments before the first move */
	struct zh__buf *out;	/* where it goes (or a bin: no move to hang on) */
	struct zh_pos pos;	/* before the next move, if track */
	struct zh_pos before;	/* before the last move, if have_before */
	bool track, have_before, first;
	bool var;		/* a variation, from token 'from' on */
	size_t from;
	const size_t *match;	/* a variation's: jmatch() */
};

struct jlevels {
	struct jlevel *v, local[2];
	size_t n, max, cap;
};

/* A new line inside the current one (lv->n == 0: the mainline). */
static struct jlevel *
jlevel_push(struct jlevels *lv, struct zh__buf *out)
{
	struct jlevel *v, *l;
	size_t cap;

	if (lv->n == lv->cap) {
		cap = lv->cap * 2;
		if (lv->v == lv->local) {
			if ((v = malloc(cap * sizeof *v)) != NULL)
				memcpy(v, lv->local, sizeof lv->local);
		} else
			v = realloc(lv->v, cap * sizeof *v);
		if (v == NULL)
			return NULL;
		lv->v = v;
		lv->cap = cap;
	}
	l = &lv->v[lv->n++];
	if (lv->n > lv->max) {		/* its buffers kept for the next */
		lv->max = lv->n;
		memset(l, 0, sizeof *l);
	}
	l->m.open = l->m.clock = l->m.emt = l->m.eval = l->m.vopen = false;
	l->m.odd = l->var = false;
	l->m.text.len = l->m.nags.len = l->pre.len = 0;
	l->m.done = 0;
	l->out = out;
	l->track = l->have_before = false;
	l->first = true;
	bputc(out, '[');
	return l;
}

/* The current line's end; false if out of memory. */
static bool
jlevel_pop(struct jlevels *lv, const struct zh_game *g,
    const struct zh_rmove *moves)
{
	struct jlevel *l = &lv->v[--lv->n];

	jmove_finish(l->out, &l->m, g, moves);
	bputc(l->out, ']');
	return !(l->m.text.fail || l->m.nags.fail || l->pre.fail);
}

static void
jlevels_free(struct jlevels *lv)
{
	size_t k;

	for (k = 0; k < lv->max; k++) {
		free(lv->v[k].pre.s);
		free(lv->v[k].m.text.s);
		free(lv->v[k].m.nags.s);
	}
	if (lv->v != lv->local)
		free(lv->v);
}

/*
 * What a move has past its SAN and UCI when it has more: the FEN after
 * it (pos, if tracked, is played on), the text of a move that could not
 * be played, the comments before it, and the tokens before a
 * variation's first move if they say more.  Returns the position tracked
 * on (NULL after a move that could not be played).
 */
static struct zh_pos *
jmove_more(struct zh__buf *b, struct jlevel *L, const struct zh_game *g,
    const struct zh_rmove *moves, size_t i, bool first, int d,
    struct zh_pos *pos)
{
	const struct zh_token *t = &g->toks[i];
	const struct zh_rmove *rm = &moves[i];
	bool plain;
	size_t end;

	if (rm->ok) {
		if (pos != NULL) {
			char fen[ZH_FENMAX];

			L->before = *pos;
			L->have_before = true;
			zh__make_quiet(pos, rm->move);
			zh_fen_write(pos, d, fen, sizeof fen);
			zh__json_key(b, "fen");
			zh__json_ascii(b, fen);
		}
	} else {
		zh__json_str(b, t->text, t->len);
		bputs(b, ",\"uci\":null");
		pos = NULL;
	}
	if (L->pre.len > 0) {
		zh__json_key(b, "comment_before");
		zh__json_str(b, L->pre.s, L->pre.len);
		L->pre.len = 0;
	}
	if (first && L->var) {
		end = zh__json_run(g, moves, L->match, L->from, false, false,
		    &plain);
		if (!plain)
			zh__json_run_list(b, "before", g, moves, L->match,
			    L->from, end, false);
	}
	return pos;
}

/*
 * A variation opens at token i: the current move's fields and
 * '"variations":[' written if it is the move's first (its comments and
 * NAGs come before), the new line pushed; *b and *pos become the
 * line's.  A variation with no move to hang on goes to 'bin'.  NULL if
 * out of memory.
 */
static struct jlevel *
jvariation(struct jctx *c, struct jlevels *lv, size_t i, struct zh__buf **b,
    struct zh__buf *bin, struct zh_pos **pos)
{
	struct jlevel *L = &lv->v[lv->n - 1], *up;

	if (c->match == NULL && (c->match = jmatch(c->g)) == NULL)
		return NULL;
	L->m.odd = true;
	if (!L->m.open)
		*b = bin;	/* no move to hang it on */
	else if (L->m.vopen)
		bputc(*b, ',');
	else {
		L->m.done = jlook(c, &L->m, i, lv->n > 1);
		jmove_fields(*b, &L->m, c->g, c->r->moves, c->match);
		zh__json_key(*b, "variations");
		bputc(*b, '[');
		L->m.vopen = true;
	}
	L->track = *pos != NULL;
	if ((L = jlevel_push(lv, *b)) == NULL)
		return NULL;
	L->var = true;
	L->from = i + 1;
	L->match = c->match;
	up = L - 1;
	*pos = NULL;
	if (up->track && up->have_before) {
		L->pos = up->before;
		*pos = &L->pos;
	}
	return L;
}

/*
 * Move token i - 1 (resolved or not) written into line L, and then, when
 * positions are not tracked, the resolved moves that follow with only
 * move numbers between them; returns the index of the next token.
 */
static ZH_HOT_INLINE size_t
jmove(struct jlevel *L, struct zh__buf *b, const struct zh_game *g,
    const struct zh_rmove *moves, size_t i, int d, struct zh_pos **pos)
{
	const struct zh_token *toks = g->toks;
	const struct zh_rmove *rm = &moves[i - 1];
	size_t ntoks = g->ntoks, last;
	bool first = L->first;

	/* The common case, the move before had nothing but its SAN and
	   UCI: its '}' and this move's opening written with the move's
	   texts, in one reserve. */
	if (L->m.open && rm->ok &&
	    !(L->m.clock | L->m.emt | L->m.eval | L->m.vopen | L->m.odd) &&
	    (L->m.text.len | L->m.nags.len) == 0)
		jmove_texts(b, rm, d, "},{\"san\":", 9);
	else {
		L->m.odd |= !rm->ok;	/* its move numbers say more */
		jmove_finish(b, &L->m, g, moves);
		if (rm->ok)
			jmove_texts(b, rm, d, L->first ? "{\"san\":" :
			    ",{\"san\":", L->first ? 7 : 8);
		else
			bput(b, L->first ? "{\"san\":" : ",{\"san\":",
			    L->first ? 7 : 8);
	}
	L->first = false;
	L->m.open = true;
	L->m.odd = !rm->ok;
	L->m.tok = i - 1;
	if (!rm->ok || *pos != NULL || L->pre.len > 0 || (first && L->var))
		*pos = jmove_more(b, L, g, moves, i - 1, first, d, *pos);
	/* The moves that follow with nothing but move numbers between
	   them, without FENs: each closes the one before, as the common
	   case above. */
	if (*pos != NULL || !rm->ok)
		return i;
	for (last = i - 1; i < ntoks; i++) {
		if (toks[i].kind == ZH_T_MOVE && moves[i].ok) {
			jmove_texts(b, &moves[i], d, "},{\"san\":", 9);
			last = i;
		} else if (toks[i].kind != ZH_T_MOVENUM)
			break;
	}
	L->m.tok = last;
	return i;
}

/*
 * The game's line of play as a JSON array appended to b0, its variations
 * inside the moves they replace.  'pos0' is the start position, or NULL
 * when positions are not tracked.  The lines open around the one being
 * written are kept on the heap, as deep as the game nests.
 */
static void
jline(struct jctx *c, struct zh__buf *b0, struct zh_pos *pos0)
{
	const struct zh_game *g = c->g;
	struct jlevels lv;	/* not zeroed: jlevel_push sets what it uses */
	struct jlevel *L;
	struct zh__buf *b, bin = { 0 };
	struct zh_pos *pos = NULL;
	/* in locals: a store of text (char) could change them otherwise */
	const struct zh_token *toks = g->toks;
	const struct zh_rmove *moves = c->r->moves;
	size_t i = 0, ntoks = g->ntoks;
	const int d = c->d;
	bool ok = true;

	lv.v = lv.local;
	lv.n = lv.max = 0;
	lv.cap = sizeof lv.local / sizeof lv.local[0];
	L = jlevel_push(&lv, b0);
	b = b0;
	if (pos0 != NULL) {
		L->pos = *pos0;
		pos = &L->pos;
	}
	while (i < ntoks) {
		const struct zh_token *t = &toks[i];

		i++;

		switch (t->kind) {
		case ZH_T_MOVE:
			i = jmove(L, b, g, moves, i, d, &pos);
			break;
		case ZH_T_COMMENT:
			if (!L->m.open)
				zh__json_comment_add(lv.n == 1 ? &c->comment :
				    &L->pre, t);
			else if (i - 1 >= L->m.done) {
				L->m.odd |= L->m.text.len > 0;
				L->m.odd |= !zh__json_comment_add(&L->m.text,
				    t);
				commands(&L->m, t);
			}
			break;
		case ZH_T_NAG:
			if (L->m.open && i - 1 >= L->m.done) {
				L->m.odd = true;
				jnag(&L->m, t);
			}
			break;
		case ZH_T_RESULT:	/* then a comment: "after" says it */
			L->m.odd |= i < ntoks;
			break;
		case ZH_T_VSTART:
			if ((L = jvariation(c, &lv, i - 1, &b, &bin, &pos)) ==
			    NULL) {
				ok = false;
				goto out;
			}
			break;
		case ZH_T_VEND:
			if (lv.n == 1)
				break;
			ok &= jlevel_pop(&lv, g, moves);
			L = &lv.v[lv.n - 1];
			if (b == &bin && L->out != &bin) {
				ok &= !bin.fail;
				bin.len = 0;
			}
			b = L->out;
			pos = L->track ? &L->pos : NULL;
			break;
		default:
			break;
		}
	}
out:
	while (lv.n > 0)	/* the lines left open: the reader closes them */
		ok &= jlevel_pop(&lv, g, moves);
	if (!ok || bin.fail)
		b0->fail = true;
	free(bin.s);
	jlevels_free(&lv);
}

/* {"line":L,"col":C,"ply":P,"code":"...","message":"...",
 * "severity":S[,"variation":true]}, or "reader":true for the PGN
 * reader's error (read back: jsonread.c); an error in a variation is a
 * warning, as zhcheck says it (the game stays valid) */
static void
jerror(struct zh__buf *b, const struct zh_game *g, const struct zh_replay *r,
    const struct zh_error *e, bool variation, bool reader)
{
	zh__json_error_open(b, e, zh__error_code(g, r, e, variation),
	    variation);
	if (variation)
		bputs(b, ",\"variation\":true");
	else if (reader)
		bputs(b, ",\"reader\":true");
	bputc(b, '}');
}

void
zh__game_json_board(struct zh__buf *b, const struct zh_game *g,
    const struct zh_replay *r, int d, unsigned flags)
{
	struct jctx c = { g, r, d == ZH_AUTO ? ZH_SAN_AUTO : d, flags, NULL,
	    { 0 } };
	struct zh_pos pos;
	bool start = have_start(r);
	char fen[ZH_FENMAX];
	size_t k;
	bool plain;

	zh__json_open(b, '{');
	zh__json_game_head(b, g, r->v);
	zh__json_key(b, "start");
	if (start) {
		zh_fen_write(&r->start, c.d, fen, sizeof fen);
		zh__json_ascii(b, fen);
	} else
		zh__json_null(b);
	zh__json_key(b, "moves");
	pos = r->start;
	jline(&c, b, start && (flags & ZH_JSON_FENS) ? &pos : NULL);
	if (c.comment.len > 0) {
		zh__json_key(b, "comment");
		zh__json_str(b, c.comment.s, c.comment.len);
	}
	free(c.comment.s);
	k = zh__json_run(g, r->moves, c.match, 0, false, false, &plain);
	if (!plain)
		zh__json_run_list(b, "before", g, r->moves, c.match, 0, k,
		    false);
	free(c.match);
	zh__json_game_result(b, g, r->complete);
	zh__json_key(b, "errors");
	zh__json_open(b, '[');
	if (g->err.code != ZH_OK)
		jerror(b, g, r, &g->err, false, true);
	if (r->err.code != ZH_OK)
		jerror(b, g, r, &r->err, false, false);
	for (k = 0; k < r->nvarerr; k++)
		jerror(b, g, r, &r->varerr[k], true, false);
	zh__json_close(b, ']');
	zh__json_close(b, '}');
}
