/*
 * gamejson.c - what a JSON game object must say so that the PGN reader
 * can read it back into the same game (jsonread.c): its tags (all of them
 * in "tag_list" when a name repeats), and the movetext tokens around a
 * move that its other keys do not say exactly.
 *
 * A move object says the tokens after it, up to the next move of its
 * line, by "nags", "comment" and "variations", read back as the NAGs,
 * then one comment " text " (as Lichess writes them), then the
 * variations.  Most games' moves are so.  Where they are not (two
 * comments, a comment written "{text}", a NAG after a comment, a move
 * number the PGN writer writes because the line is past a move that
 * could not be played, a comment after the result), the object gets an
 * "after" list of those tokens as written: "{text" a comment, "$14" a
 * NAG, "12." a move number, "(" the next of its variations, "1-0" the
 * result.  The same for the tokens before a line's first move: a
 * "before" list beside "comment_before" (a variation) or "comment" (the
 * game).
 */
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "zh_int.h"

/* The token after the variation whose '(' is token i (ntoks if none). */
static size_t
skip_variation(const struct zh_game *g, size_t i)
{
	int depth = 1;

	while (depth > 0 && ++i < g->ntoks)
		if (g->toks[i].kind == ZH_T_VSTART)
			depth++;
		else if (g->toks[i].kind == ZH_T_VEND)
			depth--;
	return i < g->ntoks ? i + 1 : g->ntoks;
}

/* A NAG read back the same from its number: "$" and digits, no leading
 * zero (the JSON keeps the number). */
static bool
plain_nag(const struct zh_token *t)
{
	size_t k;

	if (t->len < 2 || t->len > 4 || t->text[0] != '$' ||
	    (t->text[1] == '0' && t->len > 2))
		return false;
	for (k = 1; k < t->len; k++)
		if (t->text[k] < '0' || t->text[k] > '9')
			return false;
	return true;
}

size_t
zh__json_run(const struct zh_game *g, const struct zh_rmove *moves,
    const size_t *match, size_t i, bool after, bool dead, bool *plain)
{
	/* in locals: *plain could alias them otherwise */
	const struct zh_token *t = g->toks;
	const size_t n = g->ntoks;
	int state = 0;		/* 0 NAGs, 1 the comment, 2 variations */
	bool nums = false, ok = true;

	while (i < n && t[i].kind != ZH_T_MOVE && t[i].kind != ZH_T_VEND) {
		switch (t[i].kind) {
		case ZH_T_NAG:
			ok &= after && state == 0 && plain_nag(&t[i]);
			break;
		case ZH_T_COMMENT:
			ok &= state == 0 && zh__json_plain_comment(&t[i]);
			state = 1;
			break;
		case ZH_T_VSTART:
			ok &= after;
			state = 2;
			i = match != NULL ? match[i] : skip_variation(g, i);
			continue;
		case ZH_T_MOVENUM:
			nums = true;
			break;
		default:	/* the result: read back last */
			ok &= i + 1 == n;
			break;
		}
		i++;
	}
	/* move numbers as written where the line is dead (pgnout.c) */
	if (nums && (dead || (i < n && t[i].kind == ZH_T_MOVE && !moves[i].ok)))
		ok = false;
	*plain = ok;
	return i;
}

void
zh__json_run_list(struct zh__buf *b, const char *key, const struct zh_game *g,
    const struct zh_rmove *moves, const size_t *match, size_t i, size_t end,
    bool dead)
{
	char local[256];
	struct zh__buf tmp = ZH_BUF_LOCAL(local);
	const struct zh_token *t;
	/* move numbers only where the PGN writer writes them as written */
	bool nums = dead || (end < g->ntoks && g->toks[end].kind == ZH_T_MOVE &&
	    !moves[end].ok);

	zh__json_keyn(b, key, strlen(key));
	zh__json_open(b, '[');
	while (i < end) {
		t = &g->toks[i];
		if (t->kind == ZH_T_VSTART) {
			zh__json_ascii(b, "(");
			i = match != NULL ? match[i] : skip_variation(g, i);
			continue;
		}
		if (t->kind == ZH_T_MOVENUM && !nums)
			;
		else if (t->kind == ZH_T_COMMENT) {
			tmp.len = 0;
			zh__bputc(&tmp, '{');
			zh__bput(&tmp, t->text, t->len);
			if (tmp.fail)
				b->fail = true;
			else
				zh__json_str(b, tmp.s, tmp.len);
		} else
			zh__json_str(b, t->text, t->len);
		i++;
	}
	zh__json_close(b, ']');
	if (!tmp.local)
		free(tmp.s);
}

/* ==================== tags ==================== */

struct tagref {
	const char *name;
	size_t k;		/* its place */
};

/* By name, then by place. */
static int
cmp_tagref(const void *a, const void *b)
{
	const struct tagref *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c != 0 ? c : x->k < y->k ? -1 : x->k > y->k;
}

/*
 * Which tags repeat a name before them ('dup'), for a game with many:
 * the indices sorted by name, each run of one name but its first marked.
 * A sort keeps a hostile game with thousands of tags from a quadratic
 * search.  False if out of memory.
 */
static bool
tag_repeats(const struct zh_game *g, bool *dup)
{
	struct tagref *ix;
	size_t k;

	if ((ix = malloc(g->ntags * sizeof *ix)) == NULL)
		return false;
	for (k = 0; k < g->ntags; k++) {
		ix[k].name = g->tags[k].name;
		ix[k].k = k;
	}
	qsort(ix, g->ntags, sizeof *ix, cmp_tagref);
	dup[ix[0].k] = false;
	for (k = 1; k < g->ntags; k++)
		dup[ix[k].k] = strcmp(ix[k - 1].name, ix[k].name) == 0;
	free(ix);
	return true;
}

/*
 * The tags as one JSON object; a repeated name keeps its first value.
 * A few tags are checked for repeats one against another, more through
 * tag_repeats().  Returns true if a name repeats: then "tag_list" says
 * them all (zh__json_tag_list).
 */
#define TAGS_DIRECT 64

bool
zh__json_tags(struct zh__buf *b, const struct zh_game *g)
{
	bool *dup = NULL, any = false;
	size_t k, j;

	if (g->ntags > TAGS_DIRECT &&
	    ((dup = malloc(g->ntags * sizeof *dup)) == NULL ||
	    !tag_repeats(g, dup))) {
		free(dup);
		b->fail = true;
		return false;
	}
	zh__json_open(b, '{');
	for (k = 0; k < g->ntags; k++) {
		const char *name = g->tags[k].name;

		if (dup != NULL) {
			if (dup[k]) {
				any = true;
				continue;
			}
		} else {
			for (j = 0; j < k; j++)
				if (g->tags[j].name[0] == name[0] &&
				    strcmp(g->tags[j].name, name) == 0)
					break;
			if (j < k) {
				any = true;
				continue;
			}
		}
		zh__json_keyn(b, name, strlen(name));
		zh__json_str(b, g->tags[k].value, strlen(g->tags[k].value));
	}
	zh__json_close(b, '}');
	free(dup);
	return any;
}

void
zh__json_tag_list(struct zh__buf *b, const struct zh_game *g)
{
	size_t k;

	zh__json_key(b, "tag_list");
	zh__json_open(b, '[');
	for (k = 0; k < g->ntags; k++) {
		zh__json_open(b, '[');
		zh__json_strz(b, g->tags[k].name);
		zh__json_strz(b, g->tags[k].value);
		zh__json_close(b, ']');
	}
	zh__json_close(b, ']');
}

/*
 * "latin1": true when the game's text is Latin-1 (bytes that are not
 * UTF-8, and no UTF-8 sequence): the JSON's strings are UTF-8, and the
 * reader turns their U+0080 to U+00FF back into those bytes, so the
 * game read back is the game as written (zhkit-json(5) "Read back").
 */
static void
latin1(struct zh__buf *b, const struct zh_game *g)
{
	unsigned kind = 0;
	size_t k;

	for (k = 0; k < g->ntags && kind != ZH__TEXT_UTF8; k++)
		kind |= zh__json_text_kind(g->tags[k].value,
		    strlen(g->tags[k].value));
	for (k = 0; k < g->ntoks && kind != ZH__TEXT_UTF8; k++)
		if (g->toks[k].text != NULL)
			kind |= zh__json_text_kind(g->toks[k].text,
			    g->toks[k].len);
	if (kind == ZH__TEXT_LATIN1)
		zh__bputs(b, ",\"latin1\":true");
}

void
zh__json_game_head(struct zh__buf *b, const struct zh_game *g,
    const struct zh_variant *v)
{
	if (g->file != NULL) {	/* where it came from (the caller's) */
		zh__json_key(b, "file");
		zh__json_strz(b, g->file);
		zh__json_key(b, "game");
		zh__json_int(b, g->number);
		zh__json_key(b, "index");
		zh__json_int(b, g->index);
	}
	zh__json_key(b, "tags");
	if (zh__json_tags(b, g))
		zh__json_tag_list(b, g);
	latin1(b, g);
	zh__json_key(b, "variant");
	if (v != NULL)
		zh__json_ascii(b, v->name);
	else
		zh__json_null(b);
}

void
zh__json_game_result(struct zh__buf *b, const struct zh_game *g,
    bool complete)
{
	zh__json_key(b, "result");
	zh__json_strz(b, zh__json_result(g));
	if (g->result == NULL && g->err.code == ZH_OK)
		zh__bputs(b, ",\"terminated\":false");
	zh__json_key(b, "valid");
	zh__json_bool(b, g->err.code == ZH_OK && complete);
}

void
zh__json_error_open(struct zh__buf *b, const struct zh_error *e,
    const char *code, bool warning)
{
	zh__json_problem(b, e->line, e->col, e->ply, code, e->text, warning);
}
