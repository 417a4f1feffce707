/*
 * json.h - libzh's JSON writer (json.c), not installed: one growable
 * buffer, and the calls that append JSON text to it.
 *
 * Every JSON line the tools write is built here: zhpgn's game objects
 * (pgnout.c), zhcheck's reports (check.c), zhfen's positions
 * (posjson.c), and the numbers of zhreplay's plies (positions.c).  Text
 * from the input goes through one encoder, zh__json_str: valid UTF-8 is
 * kept, '"', '\\' and control bytes are escaped, and a byte that is not
 * part of valid UTF-8 is read as ISO 8859-1, PGN's own character set
 * (zhkit-json(5)).
 *
 * Commas are the writer's: a key or value written after another value
 * gets one, by the last byte written (a value ends in '"', ']', '}', a
 * digit or a letter; '{', '[' and ':' take no comma after them).
 */
#ifndef ZH_JSON_H
#define ZH_JSON_H
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "zh_int.h"

/* ======================== the buffer ======================== */

struct zh__buf {
	char *s;		/* NUL-terminated once written to */
	size_t len, cap;
	bool fail;		/* out of memory: what follows is dropped */
	bool local;		/* s is the caller's array, not malloc'd */
	size_t base;		/* where this JSON text starts: the bytes
				   before it are the caller's (a struct
				   zh_text appended to), not a value */
};

/* A buffer that starts in the array a (on the stack: most outputs fit,
 * so no malloc and free a line); it leaves a only to grow. */
#define ZH_BUF_LOCAL(a)	{ (a), 0, sizeof (a), false, true, 0 }

/* b appending to the caller's text t (zh.h), and t updated from b once
 * written: 0, or -1 out of memory, t then as it was before (err set). */
#define ZH_BUF_TEXT(t)	{ (t)->s, (t)->len, (t)->cap, false, false, (t)->len }
int zh__buf_text(struct zh__buf *b, struct zh_text *t, struct zh_error *err);
/* Room for n more bytes and a NUL at the end of t: false if out of
 * memory (t unchanged).  For writers with their own bounded stores. */
bool zh__text_room(struct zh_text *t, size_t n);

bool zh__buf_grow(struct zh__buf *b, size_t n);
void zh__bputs(struct zh__buf *b, const char *s);
int zh__buf_flush(struct zh__buf *b, FILE *f, struct zh_error *err);

/* Room for n more bytes and a NUL in b? */
static inline bool
zh__buf_reserve(struct zh__buf *b, size_t n)
{
	return b->len + n + 1 <= b->cap || zh__buf_grow(b, n);
}

static inline void
zh__bput(struct zh__buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap && !zh__buf_reserve(b, n))
		return;
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static inline void
zh__bputc(struct zh__buf *b, char c)
{
	if (b->len + 2 > b->cap && !zh__buf_reserve(b, 1))
		return;
	b->s[b->len++] = c;
	b->s[b->len] = '\0';
}

/* ======================== JSON text ======================== */

/* A ',' if the last thing written was a value. */
static inline void
zh__json_sep(struct zh__buf *b)
{
	char c;

	if (b->len > b->base && (c = b->s[b->len - 1]) != '{' && c != '[' &&
	    c != ':')
		zh__bputc(b, ',');
}

/* '{' or '[' (a value: a comma before it if due), and '}' or ']'. */
static inline void
zh__json_open(struct zh__buf *b, char c)
{
	zh__json_sep(b);
	zh__bputc(b, c);
}

#define zh__json_close(b, c)	zh__bputc((b), (c))

/* '"key":' for a string literal key (ours: nothing to escape). */
#define zh__json_key(b, key) \
	zh__json_key_((b), "\"" key "\":", sizeof(key) + 2)

static inline void
zh__json_key_(struct zh__buf *b, const char *qkey, size_t n)
{
	zh__json_sep(b);
	zh__bput(b, qkey, n);
}

/* A key from the input (encoded as zh__json_str), and its ':'. */
void zh__json_keyn(struct zh__buf *b, const char *s, size_t n);

/* s (n bytes, any bytes) as a JSON string: the one encoder. */
void zh__json_str(struct zh__buf *b, const char *s, size_t n);
/* s as the text its JSON string says, unescaped (json.c): s itself, out
 * (size bytes), or *heap; NULL out of memory. */
const char *zh__json_text(const char *s, char *out, size_t size,
    char **heap);
/* s (NUL-terminated), or null for NULL. */
void zh__json_strz(struct zh__buf *b, const char *s);
/* s, our own ASCII with nothing to escape (FEN, SAN, names), quoted. */
void zh__json_ascii(struct zh__buf *b, const char *s);

void zh__json_int(struct zh__buf *b, long long x);
void zh__json_bool(struct zh__buf *b, bool x);
void zh__json_null(struct zh__buf *b);
/* Seconds as zhpgn writes them: an integer when whole, else to the
 * millisecond ("311", "45.6"). */
void zh__json_seconds(struct zh__buf *b, double sec);
/* A real as Jansson writes it with JSON_REAL_PRECISION(15) ("300.0",
 * "1.52", "1e-7"). */
void zh__json_real(struct zh__buf *b, double x);

/* The same real stored at q, unchecked (at most ZH_JSON_REALMAX bytes):
 * returns the end.  For writers with their own bounded buffer. */
#define ZH_JSON_REALMAX	64
char *zh__json_qreal(char *q, double x);

/* The members of position p's object (zh_pos_json: posjson.c), without
 * its braces: also each board's of a two-board FEN (bugpos.c). */
void zh__pos_members(struct zh__buf *b, const struct zh_pos *p, int d,
    bool moves);
/* A position's pieces in hand as an object, {"white":{"P":2,...},
 * "black":{...}}, in PNBRQ(AC) order, the types held only: every tool's
 * "pockets" (zhfen's, posjson.c; zhreplay's bughouse boards, bugpos.c;
 * zhpgn's bughouse moves, bugout.c; zhreplay's one board is
 * positions.c's qpocket, the same text). */
void zh__json_hands(struct zh__buf *b, const struct zh_pos *p);
/* The start of zhfen's object for input line 'line' (in, n bytes):
 * '{"line":L,"input":"...","valid":V' and, if valid, "from" (the
 * dialect read, null for auto): zh_fen_json's (posjson.c), also
 * zh_bfen_json's of a two-board FEN (bugpos.c). */
void zh__fen_json_head(struct zh__buf *b, const char *file, const char *in,
    size_t n, long line, bool valid, int from);

/* What s[0..n) holds beyond ASCII: ZH__TEXT_LATIN1, a byte that is not
 * UTF-8 (the JSON writes it as its Latin-1 character), ZH__TEXT_UTF8, a
 * valid UTF-8 sequence; 0 for ASCII. */
#define ZH__TEXT_LATIN1	1u
#define ZH__TEXT_UTF8	2u
unsigned zh__json_text_kind(const char *s, size_t n);

/* A comment the JSON reads back the same from its trimmed text, as
 * Lichess writes them: " text " (isspace() of the C locale, inline: this
 * runs for every move with a comment). */
static inline bool
zh__json_plain_comment(const struct zh_token *t)
{
	const unsigned char *s = (const unsigned char *)t->text;

	return t->len >= 3 && s[0] == ' ' && s[t->len - 1] == ' ' &&
	    s[1] != ' ' && (s[1] < '\t' || s[1] > '\r') &&
	    s[t->len - 2] != ' ' && (s[t->len - 2] < '\t' || s[t->len - 2] > '\r');
}

/*
 * A comment's text trimmed (isspace()) and appended to b, after a space
 * if b has text: the "comment" of a move or a game, every comment of it
 * joined (pgnout.c, bugout.c).  True if the comment was " text ", which
 * the reader makes of the trimmed text.  Inline: the JSON writer calls
 * it for every move with a comment.
 */
static inline bool
zh__json_comment_add(struct zh__buf *b, const struct zh_token *t)
{
	const char *s = t->text, *e = t->text + t->len;

	while (s < e && isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	if (s == e)
		return false;
	if (b->len > 0)
		zh__bputc(b, ' ');
	zh__bput(b, s, (size_t)(e - s));
	return s == t->text + 1 && e == t->text + t->len - 1 &&
	    t->text[0] == ' ' && *e == ' ';
}

/*
 * gamejson.c: the tokens of a game's movetext from token i to the end
 * of a run (the next move of its line, the line's end): returns where it
 * ends, and *plain, whether the game object's keys say them exactly
 * ('after': the run after a move, whose NAGs, comment and variations the
 * move's keys say; else the run before a line's first move; 'dead': the
 * line is past a move that could not be played).  run_list writes them
 * as the list 'key' (zhkit-json(5) "before" and "after").  'match',
 * if not NULL, is for each '(' token the token after its ')' (a walk
 * over a variation is then one step: linear in the game's nesting).
 */
size_t zh__json_run(const struct zh_game *g, const struct zh_rmove *moves,
    const size_t *match, size_t i, bool after, bool dead, bool *plain);
void zh__json_run_list(struct zh__buf *b, const char *key,
    const struct zh_game *g, const struct zh_rmove *moves,
    const size_t *match, size_t i, size_t end, bool dead);
/* The tags as one object, a repeated name's first value; true if a name
 * repeats: then tag_list writes "tag_list", every pair in order. */
bool zh__json_tags(struct zh__buf *b, const struct zh_game *g);
void zh__json_tag_list(struct zh__buf *b, const struct zh_game *g);
/* The keys every game object starts with: file, game and index (when
 * the caller set g->file), tags (and tag_list), variant (v's name). */
void zh__json_game_head(struct zh__buf *b, const struct zh_game *g,
    const struct zh_variant *v);
/* The keys after a game object's moves and comments: "result" (the
 * token's, else the tag's), "terminated":false when the reader found no
 * result token, "valid" (no reader error and 'complete'). */
void zh__json_game_result(struct zh__buf *b, const struct zh_game *g,
    bool complete);
/* The "result" of every tool's JSON: the game's termination marker,
 * else its Result tag, else NULL (written null). */
const char *zh__json_result(const struct zh_game *g);
/* An error object of "errors" opened, its common members written:
 * '{"line":L,"col":C,"ply":P,"code":"code","message":"...",
 * "severity":"error"' (or "warning" when 'warning'); the caller adds its
 * own and the '}'.  zh__json_problem writes the same from the parts. */
void zh__json_error_open(struct zh__buf *b, const struct zh_error *e,
    const char *code, bool warning);
void zh__json_problem(struct zh__buf *b, long line, long col, long ply,
    const char *code, const char *message, bool warning);

#endif
