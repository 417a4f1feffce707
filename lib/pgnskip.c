/*
 * pgnskip.c - the reader's filter (zh_pgn_set_filter): once a game's
 * tags are read it is asked about the game, and the movetext of a game
 * it drops is skipped without being lexed.
 *
 * The skip is a scan over the buffered bytes that tracks only what
 * decides where the lexer (pgnlex.c) would end the game: comments,
 * variations' depth, line ends and the result token.  It ends the game
 * where the lexer would: at the line end after the result (or at text
 * after it on that line).  Whenever it cannot be sure that the lexer
 * would read the movetext without an error and end the game there, it
 * changes nothing and the lexer reads the game as usual (its tokens are
 * then dropped): at the end of the buffered bytes, a blank line or a
 * tag line before the result, a line starting with a blank or '%', any
 * byte the lexer would call an error, a ';' comment after the result or
 * a brace comment on the line below it (the game's: pgnlex.c), a
 * game near a limit, a lone CR it would have to look past.  So the game
 * boundaries are always the full reader's.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pgn_int.h"

/* What the scan must look at in movetext: the rest are word, dot,
 * glyph and blank bytes, passed over 4 at a time. */
enum { S_QUIET, S_NL, S_RES, S_STAR, S_LBRACE, S_SEMI, S_DOLLAR, S_LPAR,
	S_RPAR, S_BAD };

/* The reader's scan classes (r->stab), made at its first skip. */
static void
stab_init(unsigned char *stab, const unsigned char *cls)
{
	int c;

	for (c = 0; c < 256; c++) {
		switch (cls[c]) {
		case C_SP: case C_WORD: case C_DOT: case C_GLYPH:
			stab[c] = c == '-' || c == '/' ? S_RES : S_QUIET;
			break;
		case C_NL: stab[c] = S_NL; break;
		case C_STAR: stab[c] = S_STAR; break;
		case C_LBRACE: stab[c] = S_LBRACE; break;
		case C_SEMI: stab[c] = S_SEMI; break;
		case C_DOLLAR: stab[c] = S_DOLLAR; break;
		case C_LPAR: stab[c] = S_LPAR; break;
		case C_RPAR: stab[c] = S_RPAR; break;
		default: stab[c] = S_BAD; break;	/* NUL included */
		}
	}
}

/* The scan's state, committed to the reader only if it succeeds. */
struct scan {
	const unsigned char *b;
	const unsigned char *stab;
	size_t n;		/* bytes buffered from the game's start */
	long line;
	ptrdiff_t lbeg;
	int depth;
	const char *result;
};

/*
 * A line end at b[i]: step over it (CR LF is one), then over the next
 * line's blanks.  Returns the offset of the next line's first other byte,
 * or NOOFF where the lexer could do something else: a blank line, a tag
 * or escape line, the end of the buffered bytes.
 */
static size_t
newline(struct zh_pgn_reader *r, struct scan *s, size_t i)
{
	const unsigned char *b = s->b;

	if (b[i] == '\r' && b[i + 1] == '\n')
		i++;
	if (++i >= s->n)
		return NOOFF;
	s->line++;
	s->lbeg = (ptrdiff_t)i;
	while (r->cls[b[i]] == C_SP)
		i++;
	if (r->cls[b[i]] == C_NL || b[i] == '[' || b[i] == '%' || b[i] == 0)
		return NOOFF;
	return i;
}

/*
 * The first '}' or byte up to CR (a line end, the NUL at the buffer's
 * end) from b[i] on, eight bytes a round as fast() in pgnlex.c scans
 * comments: the reads stay in the PAD zero bytes after the data.
 */
static inline size_t
brace_end(const unsigned char *b, size_t i)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t ones = 0x0101010101010101u;
	uint64_t w, x, m;

	for (;; i += 8) {
		memcpy(&w, b + i, sizeof w);
		x = w ^ (ones * '}');
		m = (((x - ones) & ~x) | ((w - ones * 0x0e) & ~w)) & ones * 0x80;
		if (m != 0)
			return i + (size_t)__builtin_ctzll(m) / 8;
	}
#else
	while (b[i] > '\r' && b[i] != '}')
		i++;
	return i;
#endif
}

/* A brace comment at b[i]: the offset after its '}', or NOOFF. */
static size_t
comment(struct zh_pgn_reader *r, struct scan *s, size_t i)
{
	const unsigned char *b = s->b;
	size_t start = i + 1;
	unsigned char c;

	for (i = start;; i++) {
		i = brace_end(b, i);
		c = b[i];
		if (i - start > r->lim.max_comment)
			return NOOFF;
		if (c == '}')
			return i + 1;
		if (c == '\n' || c == '\r') {
			if ((i = newline(r, s, i)) == NOOFF)
				return NOOFF;
			i--;
		} else if (c == 0) {
			return NOOFF;	/* the buffer's end, or a NUL */
		}
	}
}

static const char toolong[] = "";

/*
 * Is the word around b[i] (a '-' or '/') a result?  Its end in *end;
 * toolong for a word the lexer would call too long.
 */
static const char *
result_word(const struct zh_pgn_reader *r, const struct scan *s, size_t from,
    size_t i, size_t *end)
{
	static const char *const res[] = { "1-0", "0-1", "1/2-1/2" };
	const unsigned char *b = s->b;
	size_t w = i, e = i, k;

	while (w > from && r->cls[b[w - 1]] == C_WORD)
		w--;
	while (r->cls[b[e]] == C_WORD)
		e++;
	*end = e;
	if (e - w > MAXWORD)
		return toolong;
	if (b[w] < '0' || b[w] > '9')
		return NULL;
	for (k = 0; k < 3; k++)
		if (strlen(res[k]) == e - w && memcmp(b + w, res[k], e - w) == 0)
			return res[k];
	return NULL;
}

/*
 * A run of quiet bytes longer than a word may be: does it hold one?
 * Words start in it (a '-' word is result_word's), so a word from s on
 * is too long if the MAXWORD + 1 bytes from s are all word bytes; else
 * the next may start after the last byte of them that is not.
 */
static bool
longword(const struct zh_pgn_reader *r, const unsigned char *b, size_t s,
    size_t e)
{
	size_t k;

	while (s + MAXWORD < e) {
		for (k = s + MAXWORD; r->cls[b[k]] == C_WORD; k--)
			if (k == s)
				return true;
		s = k + 1;
	}
	return false;
}

/* The movetext from b[i] to its result; the result's end, or NOOFF. */
static size_t
to_result(struct zh_pgn_reader *r, struct scan *s, size_t i)
{
	const unsigned char *b = s->b, *stab = s->stab;
	size_t from = i, q, e;
	int v;

	for (;;) {
		q = i;
		while (stab[b[i]] == S_QUIET) {
			if (stab[b[i + 1]] != S_QUIET) {
				i += 1;
				break;
			}
			if (stab[b[i + 2]] != S_QUIET) {
				i += 2;
				break;
			}
			if (stab[b[i + 3]] != S_QUIET) {
				i += 3;
				break;
			}
			i += 4;
		}
		if (i - q > MAXWORD && longword(r, b, q, i))
			return NOOFF;
		switch (stab[b[i]]) {
		case S_NL:
			if ((i = newline(r, s, i)) == NOOFF)
				return NOOFF;
			from = i;
			break;
		case S_RES:
			s->result = result_word(r, s, from, i, &e);
			if (s->result != NULL)
				return s->depth > 0 || s->result == toolong ?
				    NOOFF : e;
			i = e;
			break;
		case S_STAR:
			if (s->depth > 0)
				return NOOFF;
			s->result = "*";
			return i + 1;
		case S_LBRACE:
			/* most comments end on their line: inline */
			e = brace_end(b, i + 1);
			if (b[e] == '}' && e - i - 1 <= r->lim.max_comment)
				i = e + 1;
			else if ((i = comment(r, s, i)) == NOOFF)
				return NOOFF;
			break;
		case S_SEMI:
			q = i;
			while (r->cls[b[++i]] != C_NL)
				if (b[i] == 0)
					return NOOFF;
			if (i - q > r->lim.max_comment)
				return NOOFF;
			break;
		case S_DOLLAR:
			for (v = 0, q = ++i; b[i] >= '0' && b[i] <= '9'; i++)
				if ((v = v * 10 + (b[i] - '0')) > 255)
					return NOOFF;
			if (i == q)
				return NOOFF;
			from = i;	/* "$1-0" is a NAG and a word "-0" */
			break;
		case S_LPAR:
			if (s->depth >= r->lim.max_depth)
				return NOOFF;
			s->depth++;
			i++;
			break;
		case S_RPAR:
			if (s->depth == 0)
				return NOOFF;
			s->depth--;
			i++;
			break;
		default:
			return NOOFF;
		}
	}
}

/*
 * After the result: blanks and brace comments to the end of its line
 * (the game's end), or to text that starts the next game.
 */
static size_t
after_result(struct zh_pgn_reader *r, struct scan *s, size_t i)
{
	const unsigned char *b = s->b;

	for (;;) {
		while (r->cls[b[i]] == C_SP)
			i++;
		if (b[i] == '{') {
			if ((i = comment(r, s, i)) == NOOFF)
				return NOOFF;
			continue;
		}
		if (b[i] == ';' || b[i] == 0)
			return NOOFF;	/* a comment's blanks, the end */
		if (b[i] == '\n' || b[i] == '\r') {
			size_t e = i + (b[i] == '\r' && b[i + 1] == '\n') + 1;

			while (r->cls[b[e]] == C_SP)
				e++;
			if (b[e] == '{' || b[e] == 0)
				return NOOFF;	/* the game's comment, the end */
		}
		return i;
	}
}

/* Skip the movetext from r->pos; true if done (r then at the game's end). */
static bool
skipmove(struct zh_pgn_reader *r)
{
	struct scan s;
	size_t start = r->pos, i;

	s.b = B(r);
	s.stab = r->stab;
	s.n = AVAIL(r);
	s.line = r->line;
	s.lbeg = r->lbeg;
	s.depth = r->depth;
	s.result = NULL;
	if (s.depth != 0 || r->plies != 0 || r->after_result)
		return false;
	if ((i = to_result(r, &s, start)) == NOOFF ||
	    (i = after_result(r, &s, i)) == NOOFF)
		return false;
	/* the lexer's limits: a move or token a byte at least (moves
	   two, with a separator), the game's size */
	if (i > r->lim.max_game || (long)((i - start) / 2 + 1) > r->lim.max_plies ||
	    (long)(r->ntoks + (i - start) + 1) > r->lim.max_tokens)
		return false;
	if (s.line != r->line) {
		r->line = s.line;
		r->lbeg = s.lbeg;
		r->ccpos = (size_t)s.lbeg;
		r->ccol = 1;
	}
	r->pos = i;
	r->result = s.result;
	r->after_result = true;
	r->has_moves = true;
	return true;
}

/* The game so far, as the filter sees it: tags, number and line. */
static int
ask(struct zh_pgn_reader *r)
{
	struct zh_game g;
	size_t k;

	memset(&g, 0, sizeof g);
	for (k = 0; k < r->ntags; k++) {
		r->tags[k].name = r->strs + r->tagoff[2 * k];
		r->tags[k].value = r->strs + r->tagoff[2 * k + 1];
	}
	g.number = r->games + 1;
	g.line = r->gline;
	g.tags = r->tags;
	g.ntags = r->ntags;
	g.raw = (const char *)B(r);
	return r->filter(r->farg, &g);
}

int
zh__pgn_filter(struct zh_pgn_reader *r)
{
	size_t i = r->pos;
	int c = B(r)[i];

	/* blanks, tag pairs, comments and escape lines before the first
	   move: the tags may not all be read yet */
	switch (r->cls[c]) {
	case C_SP: case C_NL: case C_LBRACK: case C_LBRACE: case C_SEMI:
		return 0;
	case C_PCT:
		if ((ptrdiff_t)i == r->lbeg)
			return 0;
		break;
	case C_END:
		if (ATEND(r, i))
			return 0;
		break;
	}
	r->fpend = false;
	if ((r->dropped = ask(r)) == 0)
		return 0;
	if (r->stab['{'] != S_LBRACE)
		stab_init(r->stab, r->cls);
	return skipmove(r);
}

void
zh__pgn_filter_tags(struct zh_pgn_reader *r, struct zh_game *g)
{
	r->fpend = false;
	if (g->err.code == ZH_OK)
		r->dropped = r->filter(r->farg, g);
}
