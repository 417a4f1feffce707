/*
 * pgnclean.c - games cleaned on write: comments, [%clk], [%eval] and
 * other [%...] commands, NAGs, variations or tags left out.
 *
 * The writers of pgnout.c are not touched (their speed is zhpgn's): a
 * cleaned game is a view of the game, its tags and tokens with what is
 * stripped taken out and its comments rewritten, and of its replay, its
 * moves kept in step with the tokens.  The writers then write the view
 * as they write any game, so what is not stripped comes out as it does
 * without cleaning, byte for byte, and the move numbers, line breaks
 * and the rest follow from what is left.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

#define STRIP_MOVETEXT	(ZH_STRIP_COMMENTS | ZH_STRIP_CLOCKS | \
    ZH_STRIP_EVALS | ZH_STRIP_COMMANDS | ZH_STRIP_NAGS | ZH_STRIP_VARIATIONS)
#define STRIP_COMMANDS	(ZH_STRIP_CLOCKS | ZH_STRIP_EVALS | ZH_STRIP_COMMANDS)

/* ======================== the strip list ======================== */

static const struct {
	const char *name;
	unsigned flag;
} items[] = {
	{ "comments", ZH_STRIP_COMMENTS },
	{ "clocks", ZH_STRIP_CLOCKS },
	{ "evals", ZH_STRIP_EVALS },
	{ "commands", ZH_STRIP_COMMANDS },
	{ "nags", ZH_STRIP_NAGS },
	{ "variations", ZH_STRIP_VARIATIONS }
};

int
zh_strip_parse(const char *list, unsigned *strip, struct zh_error *err)
{
	const char *s = list, *e;
	size_t n, k;

	for (;; s = e + 1) {
		e = s + strcspn(s, ",");
		n = (size_t)(e - s);
		for (k = 0; k < sizeof items / sizeof items[0]; k++)
			if (strlen(items[k].name) == n &&
			    memcmp(items[k].name, s, n) == 0)
				break;
		if (n == 0) {
			zh_error_set(err, ZH_ESYNTAX, s - list + 1,
			    "empty item");
			return -1;
		}
		if (k == sizeof items / sizeof items[0]) {
			zh_error_set(err, ZH_ESYNTAX, s - list + 1,
			    "unknown item '%.*s'", (int)(n > 40 ? 40 : n), s);
			return -1;
		}
		*strip |= items[k].flag;
		if (*e == '\0')
			return 0;
	}
}

/* ======================== comments ======================== */

/*
 * The length of a command "[%NAME ...]" at s (before e), 0 if there is
 * none: "[%", a name of letters, digits and '_', then a blank or the
 * ']', and the first ']' after it ends the command.
 */
static size_t
command_at(const char *s, const char *e, size_t *nlen)
{
	const char *p = s + 2, *end;

	if (e - s < 4 || s[0] != '[' || s[1] != '%')
		return 0;
	while (p < e && (isalnum((unsigned char)*p) || *p == '_'))
		p++;
	*nlen = (size_t)(p - s - 2);
	if (*nlen == 0 || p == e || (*p != ']' && !isspace((unsigned char)*p)))
		return 0;
	if ((end = memchr(p, ']', (size_t)(e - p))) == NULL)
		return 0;
	return (size_t)(end + 1 - s);
}

/* Does 'strip' take out the command called name (n bytes)? */
static bool
command_stripped(const char *name, size_t n, unsigned strip)
{
	if (n == 3 && memcmp(name, "clk", 3) == 0)
		return strip & ZH_STRIP_CLOCKS;
	if (n == 4 && memcmp(name, "eval", 4) == 0)
		return strip & ZH_STRIP_EVALS;
	return strip & ZH_STRIP_COMMANDS;
}

/*
 * Comment t with its stripped commands taken out, each with the white
 * space after it, into out (room for t->len bytes); returns the new
 * length, or -1 when the comment is left with white space only and
 * goes.  A comment with nothing stripped is t's text as it is.
 */
static long
clean_comment(const struct zh_token *t, unsigned strip, char *out)
{
	const char *s = t->text, *e = t->text + t->len, *p;
	size_t n = 0, len, name;
	bool cut = false, blank = true;

	while ((p = memchr(s, '[', (size_t)(e - s))) != NULL) {
		len = command_at(p, e, &name);
		if (len == 0 || !command_stripped(p + 2, name, strip)) {
			p += len ? len : 1;
			memcpy(out + n, s, (size_t)(p - s));
			n += (size_t)(p - s);
			s = p;
			continue;
		}
		memcpy(out + n, s, (size_t)(p - s));
		n += (size_t)(p - s);
		for (s = p + len; s < e && isspace((unsigned char)*s); s++)
			;
		cut = true;
	}
	memcpy(out + n, s, (size_t)(e - s));
	n += (size_t)(e - s);
	for (len = 0; len < n && blank; len++)
		blank = isspace((unsigned char)out[len]);
	return cut && blank ? -1 : (long)n;
}

/* ======================== the view ======================== */

struct view {
	struct zh_game g;
	struct zh_replay r;
	void *mem;
};

/* Is tag 'name' kept by o's list?  The Seven Tag Roster and the tags
 * that say which game it is always are. */
static bool
tag_kept(const char *name, const struct zh_pgn_opts *o)
{
	static const char *const always[] = {
		"Event", "Site", "Date", "Round", "White", "Black", "Result",
		"Variant", "FEN", "SetUp", "CurrentPosition"
	};
	size_t k;

	for (k = 0; k < sizeof always / sizeof always[0]; k++)
		if (strcmp(name, always[k]) == 0)
			return true;
	for (k = 0; k < o->nkeep; k++)
		if (strcmp(name, o->keep_tags[k]) == 0)
			return true;
	return false;
}

/* The index of the token after the variation that opens at i. */
static size_t
skip_variation(const struct zh_game *g, size_t i)
{
	size_t depth = 0;

	for (; i < g->ntoks; i++)
		if (g->toks[i].kind == ZH_T_VSTART)
			depth++;
		else if (g->toks[i].kind == ZH_T_VEND && --depth == 0)
			return i + 1;
	return i;
}

/* Where the view's tokens are built: out, their moves, the rewritten
 * comments' text, and the open variations (their '(' in and out). */
struct tokfill {
	struct zh_token *toks;
	struct zh_rmove *moves;		/* NULL when the replay has none */
	char *text;
	size_t *open_in, *open_out;
	size_t n, depth;
};

/* Keep token i of g (its move too); 't' is what it becomes. */
static void
keep(struct tokfill *f, const struct zh_replay *r, size_t i,
    const struct zh_token *t)
{
	if (f->moves != NULL)
		f->moves[f->n] = r->moves[i];
	f->toks[f->n++] = *t;
}

/*
 * Token i of g into the view unless stripped; returns the next token's
 * index.  A variation that held tokens and is left empty goes, '(' and
 * ')' both.
 */
static size_t
filter_token(struct tokfill *f, const struct zh_game *g,
    const struct zh_replay *r, size_t i, unsigned strip)
{
	struct zh_token t = g->toks[i];
	long len;

	switch (t.kind) {
	case ZH_T_VSTART:
		if (strip & ZH_STRIP_VARIATIONS)
			return skip_variation(g, i);
		f->open_in[f->depth] = i;
		f->open_out[f->depth++] = f->n;
		break;
	case ZH_T_VEND:
		if (f->depth == 0)
			break;
		f->depth--;
		if (f->open_out[f->depth] == f->n - 1 &&
		    f->open_in[f->depth] + 1 < i) {
			f->n--;		/* emptied: both parentheses go */
			return i + 1;
		}
		break;
	case ZH_T_NAG:
		if (strip & ZH_STRIP_NAGS)
			return i + 1;
		break;
	case ZH_T_COMMENT:
		if (strip & ZH_STRIP_COMMENTS)
			return i + 1;
		if ((strip & STRIP_COMMANDS) && memchr(t.text, '%', t.len)) {
			if ((len = clean_comment(&t, strip, f->text)) < 0)
				return i + 1;
			t.text = f->text;
			t.len = (size_t)len;
			f->text += len;
		}
		break;
	}
	keep(f, r, i, &t);
	return i + 1;
}

/*
 * The view of g and r that o leaves: v->g and v->r point into g, r and
 * one block (v->mem, to free).  False if out of memory.
 */
static bool
view_make(struct view *v, const struct zh_game *g, const struct zh_replay *r,
    const struct zh_pgn_opts *o)
{
	struct tokfill f = { 0 };
	size_t k, text = 0, ntags = 0, size;
	char *m;

	v->g = *g;
	v->r = *r;
	v->mem = NULL;
	for (k = 0; k < g->ntoks; k++)
		if (g->toks[k].kind == ZH_T_COMMENT)
			text += g->toks[k].len;
	if ((o->strip & ZH_STRIP_TAGS) != 0)
		ntags = g->ntags;
	if ((o->strip & STRIP_MOVETEXT) == 0)
		text = 0;
	/* the block: tags, tokens, moves, open variations, text */
	size = ntags * sizeof(struct zh_tag);
	if ((o->strip & STRIP_MOVETEXT) != 0)
		size += g->ntoks * (sizeof(struct zh_token) +
		    sizeof(struct zh_rmove) + 2 * sizeof(size_t));
	if ((v->mem = m = malloc(size + text + 1)) == NULL)
		return false;
	if (ntags > 0) {
		v->g.tags = (struct zh_tag *)(void *)m;
		v->g.ntags = 0;
		for (k = 0; k < g->ntags; k++)
			if (tag_kept(g->tags[k].name, o))
				v->g.tags[v->g.ntags++] = g->tags[k];
		m += ntags * sizeof(struct zh_tag);
	}
	if ((o->strip & STRIP_MOVETEXT) == 0)
		return true;
	f.moves = (struct zh_rmove *)(void *)m;
	m += g->ntoks * sizeof(struct zh_rmove);
	f.toks = (struct zh_token *)(void *)m;
	m += g->ntoks * sizeof(struct zh_token);
	f.open_in = (size_t *)(void *)m;
	f.open_out = f.open_in + g->ntoks;
	f.text = m + 2 * g->ntoks * sizeof(size_t);
	if (r->moves == NULL)
		f.moves = NULL;
	for (k = 0; k < g->ntoks; )
		k = filter_token(&f, g, r, k, o->strip);
	v->g.toks = f.toks;
	v->g.ntoks = f.n;
	v->r.moves = f.moves;
	v->r.cap = f.moves != NULL ? f.n : 0;
	if (o->strip & ZH_STRIP_VARIATIONS)
		v->r.nvarerr = v->r.nvarerr_more = 0;
	return true;
}

/* ======================== the writers ======================== */

static bool
view_needed(const struct zh_pgn_opts *o)
{
	return o != NULL && (o->strip & (STRIP_MOVETEXT | ZH_STRIP_TAGS)) != 0;
}

int
zh__pgn_write_clean(FILE *f, const struct zh_game *g, const struct zh_replay *r,
    int d, const struct zh_pgn_opts *o, struct zh_error *err)
{
	struct view v;
	int rc;

	if (!view_needed(o))
		return zh__pgn_write_board(f, g, r, d, err);
	if (!view_make(&v, g, r, o)) {
		zh_error_set(err, ZH_ENOMEM, 0, "out of memory");
		return -1;
	}
	rc = zh__pgn_write_board(f, &v.g, &v.r, d, err);
	free(v.mem);
	return rc;
}

int
zh__game_json_clean(struct zh_text *out, const struct zh_game *g,
    const struct zh_replay *r, int d, unsigned flags,
    const struct zh_pgn_opts *o, struct zh_error *err)
{
	struct zh__buf b = ZH_BUF_TEXT(out);
	struct view v;

	if (!view_needed(o))
		zh__game_json_board(&b, g, r, d, flags);
	else if (!view_make(&v, g, r, o))
		b.fail = true;
	else {
		zh__game_json_board(&b, &v.g, &v.r, d, flags);
		free(v.mem);
	}
	return zh__buf_text(&b, out, err);
}
