/*
 * jsonread.c - the PGN reader's other input: zhkit-json(5) game objects,
 * one a line, as zhpgn --json writes them, read back as games.
 *
 * zh_pgn_next() reads a stream as JSON Lines when its first non-blank
 * byte opens a JSON object ('{' and then '"' or '}'), decided once at
 * the start of the stream: a PGN stream stays PGN whatever comes later.
 * Each line is parsed with Jansson and its game rebuilt as the PGN
 * reader would have read it, so that zh_replay() and the writers take
 * it as any other: the tags in order, and the movetext tokens from the
 * moves array (each move's SAN, then what follows it: its NAGs, its
 * comment, its variations, or its "after" list when the writer gave
 * one, which says those tokens exactly), the result last.
 *
 * A game's raw bytes are its line, as --rejects writes them.  Its token
 * texts are Jansson's strings (the parsed line is kept until the next
 * game) or the reader's string arena: not inside raw, which
 * g->texts_apart tells zh_game_dup().  A line that is not a game object
 * is a game in error at that line, with no tokens: the run goes on.
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgn_int.h"
#include "zh_int.h"

static const char *const results[4] = { "1-0", "0-1", "1/2-1/2", "*" };

/* ==================== lines ==================== */

static bool
blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

bool
zh__jsonread_sniff(struct zh_pgn_reader *r)
{
	size_t i = 0, bom = 0;
	int c;

	if (peek(r, 0) == 0xef && peek(r, 1) == 0xbb && peek(r, 2) == 0xbf)
		i = bom = 3;
	/* as far as between() would look for a compression's magic and
	   past it: blanks within the first chunk */
	while ((c = peek(r, i)) >= 0 && blank(c) && i < CHUNK)
		i++;
	if (c != '{')
		return false;
	while ((c = peek(r, ++i)) == ' ' || c == '\t')
		;
	if (c != '"' && c != '}')
		return false;
	r->json = true;
	r->fresh = false;
	r->gstart += bom;
	return true;
}

static bool
blankline(const char *s, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (!blank((unsigned char)s[k]))
			return false;
	return true;
}

/* A tag name's byte: a letter, a digit or '_', as the PGN lexer's. */
static bool
namebyte(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '_';
}

/*
 * The next line from offset 0: its length without the line end in *len,
 * the offset past its line end in *next.  A line longer than max_game
 * keeps its first max_game bytes in r->jlong (r->truncated) and the
 * rest is read past, so memory stays bounded.  Returns 1, 0 at the end
 * of input, -1 on failure.
 */
static int
readline(struct zh_pgn_reader *r, size_t *len, size_t *next)
{
	size_t i = 0, kept = 0;
	int rc;

	r->mode = M_GAME;
	for (;;) {
		const unsigned char *b = B(r), *nl, *cr;
		size_t n = AVAIL(r);

		nl = memchr(b + i, '\n', n - i);
		cr = memchr(b + i, '\r', (nl != NULL ? (size_t)(nl - b) : n) - i);
		if (cr != NULL)
			nl = cr;
		if (nl != NULL) {
			i = (size_t)(nl - b);
			*len = kept + i;
			*next = i + 1;
			/* (between games for peek: no game limit to check) */
			r->mode = M_BETWEEN;
			if (*nl == '\r' && peek(r, i + 1) == '\n')
				(*next)++;
			return 1;
		}
		i = n;
		if (kept + i > r->lim.max_game) {
			if (!r->truncated) {
				free(r->jlong);
				if ((r->jlong = malloc(r->lim.max_game)) == NULL) {
					r->fail = ZH_ENOMEM;
					return -1;
				}
				memcpy(r->jlong, b, r->lim.max_game);
				r->truncated = true;
			}
			r->gstart += i;		/* read past, not kept */
			kept += i;
			i = 0;
		}
		if ((rc = zh__pgn_fill(r)) < 0)
			return -1;
		if (rc == 0) {
			r->mode = M_BETWEEN;
			if (kept + i == 0)
				return 0;
			*len = kept + i;
			*next = i;
			return 1;
		}
	}
}

/* ==================== building the game ==================== */

/* An error at the game's line: not a game object; -1, to return. */
static int __attribute__((format(printf, 2, 3)))
jerr(struct zh_pgn_reader *r, const char *fmt, ...)
{
	char what[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	zh__pgn_synerr(r, ZH_ESYNTAX, r->gline, 1,
	    "not a zhkit game object: %s", what);
	return -1;
}

/* A token of text s (n bytes), or of the arena's bytes at off. */
static int
jtok(struct zh_pgn_reader *r, int kind, const char *s, size_t n, size_t off)
{
	struct zh_token *t;

	if (r->ntoks >= r->tokroom && zh__pgn_emit_slow(r, r->gline, 1) < 0)
		return -1;
	t = &r->toks[r->ntoks];
	r->toff[r->ntoks++] = off;
	t->kind = kind;
	t->text = s;
	t->len = n;
	t->line = r->gline;
	t->col = r->jcol;
	if (kind != ZH_T_COMMENT)
		r->has_moves = true;
	return 0;
}

/* A comment " text " made of a "comment" key's trimmed text. */
static int
jcomment(struct zh_pgn_reader *r, json_t *v, const char *key)
{
	const char *s = json_string_value(v);
	size_t n, off;

	if (v == NULL)
		return 0;
	if (s == NULL)
		return jerr(r, "\"%s\" is not a string", key);
	n = json_string_length(v);
	if (n + 2 > r->lim.max_comment) {
		zh__pgn_synerr(r, ZH_ELIMIT, r->gline, 1,
		    "comment too long (limit %zu bytes)", r->lim.max_comment);
		return -1;
	}
	if ((off = zh__pgn_salloc(r, n + 2)) == NOOFF)
		return -1;
	r->strs[off] = ' ';
	memcpy(r->strs + off + 1, s, n);
	r->strs[off + n + 1] = ' ';
	return jtok(r, ZH_T_COMMENT, NULL, n + 2, off);
}

/* A NAG "$N" of a "nags" number. */
static int
jnag(struct zh_pgn_reader *r, json_t *v)
{
	json_int_t k = json_integer_value(v);
	size_t off;
	int n;

	if (!json_is_integer(v) || k < 0 || k > 999)
		return jerr(r, "a NAG is not a number from 0 to 999");
	if ((off = zh__pgn_salloc(r, 5)) == NOOFF)
		return -1;
	n = snprintf(r->strs + off, 5, "$%d", (int)k);
	return jtok(r, ZH_T_NAG, NULL, (size_t)n, off);
}

static int jline(struct zh_pgn_reader *, json_t *, int);

/* Variation v: '(' its line ')'. */
static int
jvariation(struct zh_pgn_reader *r, json_t *v, int depth)
{
	if (!json_is_array(v))
		return jerr(r, "a variation is not an array");
	if (depth + 1 > r->lim.max_depth) {
		zh__pgn_synerr(r, ZH_ELIMIT, r->gline, 1,
		    "variations nested too deep (limit %d)", r->lim.max_depth);
		return -1;
	}
	if (jtok(r, ZH_T_VSTART, "(", 1, NOOFF) < 0 ||
	    jline(r, v, depth + 1) < 0)
		return -1;
	return jtok(r, ZH_T_VEND, ")", 1, NOOFF);
}

/* Are s[0..n) digits and dots, a digit first? */
static bool
movenum(const char *s, size_t n)
{
	size_t k;

	if (n == 0 || n > MAXWORD || s[0] < '0' || s[0] > '9')
		return false;
	for (k = 1; k < n; k++)
		if (s[k] != '.' && (s[k] < '0' || s[k] > '9'))
			return false;
	return true;
}

/* One item of a "before" or "after" list ('(' takes the next of vars,
 * *vk counts them). */
static int
jitem(struct zh_pgn_reader *r, json_t *item, json_t *vars, size_t *vk,
    int depth)
{
	const char *s = json_string_value(item);
	size_t n = json_string_length(item), k;

	if (s == NULL || n == 0)
		return jerr(r, "an item of \"before\" or \"after\" is not "
		    "a string");
	if (s[0] == '{') {
		if (n - 1 > r->lim.max_comment) {
			zh__pgn_synerr(r, ZH_ELIMIT, r->gline, 1,
			    "comment too long (limit %zu bytes)",
			    r->lim.max_comment);
			return -1;
		}
		return jtok(r, ZH_T_COMMENT, s + 1, n - 1, NOOFF);
	}
	if (s[0] == '$' && n >= 2 && n <= 4 && movenum(s + 1, n - 1) &&
	    strchr(s, '.') == NULL)
		return jtok(r, ZH_T_NAG, s, n, NOOFF);
	if (strcmp(s, "(") == 0) {
		if (*vk >= json_array_size(vars))
			return jerr(r, "\"(\" with no variation left");
		return jvariation(r, json_array_get(vars, (*vk)++), depth);
	}
	for (k = 0; k < 4; k++)
		if (strcmp(s, results[k]) == 0) {
			if (depth > 0 || r->result != NULL)
				return jerr(r, "result %s inside a variation "
				    "or after another", s);
			r->result = results[k];
			return jtok(r, ZH_T_RESULT, results[k], n, NOOFF);
		}
	if (movenum(s, n))
		return jtok(r, ZH_T_MOVENUM, s, n, NOOFF);
	return jerr(r, "\"%.40s\" is not a movetext token", s);
}

/* A "before" or "after" list. */
static int
jitems(struct zh_pgn_reader *r, json_t *list, json_t *vars, size_t *vk,
    int depth)
{
	size_t k;

	if (!json_is_array(list))
		return jerr(r, "\"before\" or \"after\" is not an array");
	for (k = 0; k < json_array_size(list); k++)
		if (jitem(r, json_array_get(list, k), vars, vk, depth) < 0)
			return -1;
	return 0;
}

/* What follows move m: its "after" list, or its NAGs, comment and
 * variations; variations the list left out last. */
static int
jafter(struct zh_pgn_reader *r, json_t *m, int depth)
{
	json_t *vars = json_object_get(m, "variations"), *nags, *after;
	size_t vk = 0, k;

	if (vars != NULL && !json_is_array(vars))
		return jerr(r, "\"variations\" is not an array");
	if ((after = json_object_get(m, "after")) != NULL) {
		if (jitems(r, after, vars, &vk, depth) < 0)
			return -1;
	} else {
		if ((nags = json_object_get(m, "nags")) != NULL) {
			if (!json_is_array(nags))
				return jerr(r, "\"nags\" is not an array");
			for (k = 0; k < json_array_size(nags); k++)
				if (jnag(r, json_array_get(nags, k)) < 0)
					return -1;
		}
		if (jcomment(r, json_object_get(m, "comment"), "comment") < 0)
			return -1;
	}
	for (; vk < json_array_size(vars); vk++)
		if (jvariation(r, json_array_get(vars, vk), depth) < 0)
			return -1;
	return 0;
}

/*
 * The column of move san (n bytes) in the line: of SAN in '"san":"SAN"' after
 * the move before, as zhpgn --json writes it; if it is not there (the
 * line was written otherwise), the column of the move before.  Its
 * comments and NAGs get its column too.
 */
static void
jcolumn(struct zh_pgn_reader *r, const char *san, size_t n)
{
	const char *s = r->jline + r->jpos, *end = r->jline + r->jlen, *p;

	for (p = s; (p = memchr(p, '"', (size_t)(end - p))) != NULL; p++)
		if ((size_t)(end - p) > n + 7 && memcmp(p, "\"san\":\"", 7) ==
		    0 && memcmp(p + 7, san, n) == 0 && p[7 + n] == '"')
			break;
	if (p == NULL)
		return;
	for (p += 7; s < p; s++)
		r->jcol += ((unsigned char)*s & 0xc0) != 0x80;
	r->jpos = (size_t)(p - r->jline);
}

/*
 * A bughouse half-move's label ("12b", zhkit-json(5) "Bughouse games"),
 * a token before its move as the BPGN reader leaves it; and its
 * "clock", the comment right after it in BPGN's seconds.
 */
static int
jlabel(struct zh_pgn_reader *r, json_t *m, size_t k)
{
	json_t *v = json_object_get(m, "label");
	const char *s = json_string_value(v);
	size_t n, i;

	if (v == NULL)
		return 0;
	n = s != NULL ? strlen(s) : 0;
	for (i = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		;
	if (i == 0 || i + 1 != n || n > 7 || strchr("AaBb", s[i]) == NULL)
		return jerr(r, "move %zu: \"label\" is not a board label", k + 1);
	return jtok(r, ZH_T_MOVE, s, n, NOOFF);
}

static int
jclock(struct zh_pgn_reader *r, json_t *m)
{
	json_t *v = json_object_get(m, "clock");
	double x = json_number_value(v);
	size_t off;
	int n;

	if (v == NULL || json_object_get(m, "label") == NULL)
		return 0;	/* one board's clock is in its comment */
	if (!json_is_number(v) || x > ZH_CLOCK_MAX || x < -ZH_CLOCK_MAX)
		return jerr(r, "\"clock\" is not a number of seconds");
	if ((off = zh__pgn_salloc(r, 32)) == NOOFF)
		return -1;
	n = snprintf(r->strs + off, 32, "%.3f", x);
	while (n > 1 && r->strs[off + n - 1] == '0')
		n--;
	if (r->strs[off + n - 1] == '.')
		n--;
	return jtok(r, ZH_T_COMMENT, NULL, (size_t)n, off);
}

/* A line of play: its moves, each with what follows it. */
static int
jline(struct zh_pgn_reader *r, json_t *moves, int depth)
{
	size_t k;

	for (k = 0; k < json_array_size(moves); k++) {
		json_t *m = json_array_get(moves, k), *v;
		const char *san;
		size_t n, i;

		if (!json_is_object(m))
			return jerr(r, "move %zu is not an object", k + 1);
		if ((san = json_string_value(json_object_get(m, "san"))) ==
		    NULL)
			return jerr(r, "move %zu has no \"san\" string", k + 1);
		n = strlen(san);
		for (i = 0; i < n && (unsigned char)san[i] > ' '; i++)
			;
		if (n == 0 || i < n || n > MAXWORD || strchr("{}();$", san[0]))
			return jerr(r, "move %zu: \"%.40s\" is not a move", k + 1, san);
		if (k == 0 && depth > 0) {
			size_t none = 0;

			if ((v = json_object_get(m, "before")) != NULL) {
				if (jitems(r, v, NULL, &none, depth) < 0)
					return -1;
			} else if (jcomment(r, json_object_get(m,
			    "comment_before"), "comment_before") < 0)
				return -1;
		}
		if (depth == 0 && ++r->plies > r->lim.max_plies) {
			zh__pgn_synerr(r, ZH_ELIMIT, r->gline, 1,
			    "too many moves (limit %ld)", r->lim.max_plies);
			return -1;
		}
		jcolumn(r, san, n);
		if ((depth == 0 && jlabel(r, m, k) < 0) ||
		    jtok(r, ZH_T_MOVE, san, n, NOOFF) < 0 ||
		    (depth == 0 && jclock(r, m) < 0) || jafter(r, m, depth) < 0)
			return -1;
	}
	return 0;
}

/* A tag pair of "tags" or "tag_list". */
static int
jtag(struct zh_pgn_reader *r, const char *name, json_t *v)
{
	struct zh_tag *t;
	const char *s = json_string_value(v);
	size_t k;

	for (k = 0; name[k] != '\0'; k++)
		if (!namebyte((unsigned char)name[k]))
			return jerr(r, "\"%.40s\" is not a tag name", name);
	if (k == 0 || k > r->lim.max_tag)
		return jerr(r, "\"%.40s\" is not a tag name", name);
	if (s == NULL)
		return jerr(r, "tag \"%.40s\" is not a string", name);
	if (strcspn(s, "\r\n") < json_string_length(v) ||
	    json_string_length(v) > r->lim.max_tag)
		return jerr(r, "tag \"%.40s\" holds a line end or "
		    "is too long", name);
	if ((long)r->ntags >= r->lim.max_tags) {
		zh__pgn_synerr(r, ZH_ELIMIT, r->gline, 1,
		    "too many tags (limit %ld)", r->lim.max_tags);
		return -1;
	}
	if (!zh__pgn_grow((void **)&r->tags, &r->tagcap, r->ntags + 1,
	    sizeof *r->tags)) {
		r->fail = ZH_ENOMEM;
		return -1;
	}
	t = &r->tags[r->ntags++];
	t->name = name;
	t->value = s;
	t->line = r->gline;
	t->col = 1;
	return 0;
}

/* The tags, in the object's order, or "tag_list"'s pairs (names that
 * repeat). */
static int
jtags(struct zh_pgn_reader *r, json_t *tags, json_t *list)
{
	const char *name;
	json_t *v;
	size_t k;

	if (list == NULL) {
		json_object_foreach(tags, name, v)
			if (jtag(r, name, v) < 0)
				return -1;
		return 0;
	}
	if (!json_is_array(list))
		return jerr(r, "\"tag_list\" is not an array");
	json_array_foreach(list, k, v)
		if (!json_is_array(v) || json_array_size(v) != 2 ||
		    (name = json_string_value(json_array_get(v, 0))) == NULL)
			return jerr(r, "\"tag_list\" holds no [name, value]");
		else if (jtag(r, name, json_array_get(v, 1)) < 0)
			return -1;
	return 0;
}

/* The column of the last '"errors":' in the line, 1 if none. */
static long
errors_column(const struct zh_pgn_reader *r)
{
	const char *s = r->jline, *p;
	size_t k;
	long col = 1;

	for (k = r->jlen; k-- > 0;)
		if (s[k] == '"' && r->jlen - k > 9 &&
		    memcmp(s + k, "\"errors\":", 9) == 0)
			break;
	if (k == (size_t)-1)
		return 1;
	for (p = s; p < s + k; p++)
		col += ((unsigned char)*p & 0xc0) != 0x80;
	return col;
}

/*
 * An invalid game comes back invalid: the PGN reader's error it had
 * (errors[] "reader": true) is its error again, at its line, in the
 * column of "errors": after the game's moves, as the reader's error came
 * after the tokens it read (zhcheck lists a game's problems in order).
 */
static void
jinvalid(struct zh_pgn_reader *r, json_t *o)
{
	json_t *errs = json_object_get(o, "errors"), *e;
	const char *msg;
	size_t k;

	if (!json_is_false(json_object_get(o, "valid")))
		return;
	json_array_foreach(errs, k, e)
		if (json_is_true(json_object_get(e, "reader")) &&
		    (msg = json_string_value(json_object_get(e,
		    "message"))) != NULL) {
			zh__pgn_synerr(r, ZH_ESYNTAX, r->gline,
			    errors_column(r), "%s", msg);
			return;
		}
}

/*
 * "latin1": true (gamejson.c): every string of v turned back from UTF-8
 * to the Latin-1 bytes it was written from (U+0080 to U+00FF; any other
 * character kept), in place of Jansson's value.
 */
static int
jlatin1(json_t *v, int depth)
{
	const char *s, *key;
	char *t;
	size_t n, i, k;
	json_t *e;
	int rc = 0;

	if (depth > 2048)	/* Jansson's own bound on nesting */
		return 0;
	if (json_is_object(v)) {
		json_object_foreach(v, key, e)
			rc |= jlatin1(e, depth + 1);
	} else if (json_is_array(v)) {
		json_array_foreach(v, k, e)
			rc |= jlatin1(e, depth + 1);
	} else if ((s = json_string_value(v)) != NULL) {
		n = json_string_length(v);
		for (i = 0; i < n && (unsigned char)s[i] < 0x80; i++)
			;
		if (i == n)
			return 0;
		if ((t = malloc(n)) == NULL)
			return -1;
		for (i = k = 0; i < n; i++)
			if (((unsigned char)s[i] == 0xc2 ||
			    (unsigned char)s[i] == 0xc3) && i + 1 < n &&
			    ((unsigned char)s[i + 1] & 0xc0) == 0x80) {
				t[k++] = (char)(((s[i] & 3) << 6) |
				    (s[i + 1] & 0x3f));
				i++;
			} else
				t[k++] = s[i];
		rc = json_string_setn_nocheck(v, t, k);
		free(t);
	}
	return rc;
}

/* The game of object o. */
static int
jgame(struct zh_pgn_reader *r, json_t *o)
{
	json_t *tags, *moves, *res, *before;
	const char *s;
	size_t k, none = 0;

	if (!json_is_object(o))
		return jerr(r, "not an object");
	if (json_is_true(json_object_get(o, "latin1")) && jlatin1(o, 0) != 0) {
		r->fail = ZH_ENOMEM;
		return -1;
	}
	tags = json_object_get(o, "tags");
	moves = json_object_get(o, "moves");
	if (!json_is_object(tags))
		return jerr(r, "no \"tags\" object");
	if (!json_is_array(moves))
		return jerr(r, "no \"moves\" array");
	res = json_object_get(o, "result");
	if (res != NULL && !json_is_null(res) && !json_is_string(res))
		return jerr(r, "\"result\" is not a string");
	if (jtags(r, tags, json_object_get(o, "tag_list")) < 0)
		return -1;
	if ((before = json_object_get(o, "before")) != NULL) {
		if (jitems(r, before, NULL, &none, 0) < 0)
			return -1;
	} else if (jcomment(r, json_object_get(o, "comment"), "comment") < 0)
		return -1;
	if (jline(r, moves, 0) < 0)
		return -1;
	if (r->result == NULL && (s = json_string_value(res)) != NULL &&
	    !json_is_false(json_object_get(o, "terminated")))
		for (k = 0; k < 4; k++)
			if (strcmp(s, results[k]) == 0) {
				r->result = results[k];
				if (jtok(r, ZH_T_RESULT, results[k],
				    strlen(results[k]), NOOFF) < 0)
					return -1;
			}
	jinvalid(r, o);
	return 0;
}

/* ==================== the interface ==================== */

/*
 * Values (',', '[', '{' outside strings) of line b[0..len).  Jansson
 * holds some 50 bytes a value: a line of "0,0,0,..." would take 25 times
 * its size.  zhpgn --json writes one a 9 bytes or more.
 */
static size_t
values(const char *b, size_t len)
{
	size_t k, n = 0;
	bool in = false;

	for (k = 0; k < len; k++)
		if (in) {
			if (b[k] == '\\')
				k++;
			else if (b[k] == '"')
				in = false;
		} else if (b[k] == '"')
			in = true;
		else
			n += b[k] == ',' || b[k] == '[' || b[k] == '{';
	return n;
}

/* The game of line b[0..len) (r->truncated: the kept start of it). */
static void
parse(struct zh_pgn_reader *r, const char *b, size_t len)
{
	json_error_t je;
	json_t *o;
	size_t k;
	long col = 1;

	if (r->truncated) {
		for (k = 0; k < r->lim.max_game; k++)
			col += ((unsigned char)b[k] & 0xc0) != 0x80;
		zh__pgn_synerr(r, ZH_ELIMIT, r->gline, col,
		    "game too long (limit %zu bytes)", r->lim.max_game);
		return;
	}
	if (values(b, len) > len / 6 + 64) {
		zh__pgn_synerr(r, ZH_ELIMIT, r->gline, 1, "not a zhkit game "
		    "object: more than one JSON value in 6 bytes (too much "
		    "memory to parse)");
		return;
	}
	if ((o = json_loadb(b, len, 0, &je)) == NULL) {
		zh__pgn_synerr(r, ZH_ESYNTAX, r->gline,
		    je.column > 0 ? je.column : 1, "not JSON: %s", je.text);
		return;
	}
	r->jroot = o;
	r->jline = b;
	r->jlen = len;
	r->jpos = 0;
	r->jcol = 1;
	if (jgame(r, o) < 0) {		/* no half games */
		r->ntoks = r->ntags = 0;
		r->result = NULL;
	}
	for (k = 0; k < r->ntoks; k++)
		if (r->toff[k] != NOOFF)
			r->toks[k].text = r->strs + r->toff[k];
}

void
zh__jsonread_free(struct zh_pgn_reader *r)
{
	json_decref(r->jroot);
	r->jroot = NULL;
	free(r->jlong);
	r->jlong = NULL;
}

int
zh__jsonread_next(struct zh_pgn_reader *r, struct zh_game *g)
{
	size_t len, next;
	int rc;

	zh__jsonread_free(r);
	memset(&r->err, 0, sizeof r->err);
	r->ntoks = r->ntags = r->slen = 0;
	r->truncated = r->has_moves = false;
	r->plies = 0;
	r->result = NULL;
	for (;;) {
		r->gstart += r->pos;	/* the line before */
		r->pos = 0;
		if (r->fail || (rc = readline(r, &len, &next)) < 0) {
			g->err.code = r->fail;
			g->err.line = r->line;
			if (r->fail == ZH_EIO)
				snprintf(g->err.text, sizeof g->err.text,
				    "read error: %s", strerror(r->errnum));
			else
				snprintf(g->err.text, sizeof g->err.text,
				    "out of memory");
			return -1;
		}
		if (rc == 0)
			return 0;
		r->pos = next;
		r->gline = r->line;
		if (next > 0 && (B(r)[next - 1] == '\n' ||
		    B(r)[next - 1] == '\r'))
			r->line++;
		if (r->truncated || !blankline((const char *)B(r), len))
			break;
	}
	parse(r, r->truncated ? r->jlong : (const char *)B(r), len);
	g->number = ++r->games;
	g->line = r->gline;
	g->tags = r->tags;
	g->ntags = r->ntags;
	g->toks = r->toks;
	g->ntoks = r->ntoks;
	g->result = r->result;
	g->raw = r->truncated ? r->jlong : (const char *)B(r);
	g->rawlen = r->truncated ? r->lim.max_game : len;
	g->raw_truncated = r->truncated;
	g->texts_apart = true;
	g->err = r->err;
	/* the reader's tag filter (pgnskip.c), as for a PGN game: a game
	   it drops keeps its tags and raw bytes, no tokens */
	r->fpend = false;
	r->dropped = 0;
	if (r->filter != NULL && g->err.code == ZH_OK &&
	    (r->dropped = r->filter(r->farg, g)) != 0) {
		g->dropped = r->dropped;
		g->ntoks = 0;
	}
	return 1;
}
