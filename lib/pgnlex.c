/*
 * pgnlex.c - the PGN lexer: the tag pairs and movetext tokens of one game.
 *
 * It scans the reader's buffer (pgn_int.h) from r->pos, byte classes in
 * tables, and asks pgn.c for more input (zh__pgn_more) when it reaches
 * the NUL sentinel.  The two hot paths, fast() for the common movetext
 * and lex_tags() for plain tag pairs, keep their state in locals; the
 * general code behind them handles everything else, errors included.
 * pgn.c finds where games start and end and owns the limits.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pgn_int.h"

/* Results the reader hands out: static strings. */
static const char *const results[] = { "1-0", "0-1", "1/2-1/2", "*" };

/* ==================== lexer pieces ==================== */

/*
 * Each piece scans from r->pos and leaves r->pos after what it read.
 * They return 0 to go on, 1 when the game ends at r->pos, -1 on a fatal
 * failure (r->fail).  A syntax error is recorded in r->err; the caller
 * then skips to the next game.
 */

static bool
isname(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '_';
}

/* Is there a tag pair ('[', blanks, a name character) at offset i? */
static bool
tagahead(struct zh_pgn_reader *r, size_t i)
{
	size_t k;
	int c;

	for (k = i + 1; k < i + LOOK; k++) {
		c = peek(r, k);
		if (c != ' ' && c != '\t')
			return isname(c);
	}
	return false;
}

/*
 * Is the line at offset i (its first byte) a place to resume after an
 * error: "[Event" and a blank, or after a blank line a full tag start
 * '[' Name '"'?  Leading blanks are allowed.
 */
static bool
resync_line(struct zh_pgn_reader *r, size_t i, bool blank_before)
{
	size_t k = i, n;
	int c;

	while ((c = peek(r, k)) == ' ' || c == '\t')
		if (++k > i + LOOK)
			return false;
	if (c != '[')
		return false;
	k++;
	if (peek(r, k + 5) >= 0 && memcmp(B(r) + k, "Event", 5) == 0 &&
	    (B(r)[k + 5] == ' ' || B(r)[k + 5] == '\t'))
		return true;
	if (!blank_before)
		return false;
	while ((c = peek(r, k)) == ' ' || c == '\t')
		k++;
	for (n = 0; isname(c = peek(r, k)); n++)
		if (++k > i + LOOK)
			return false;
	if (n == 0)
		return false;
	while ((c = peek(r, k)) == ' ' || c == '\t')
		k++;
	return c == '"';
}

/* If the line at offset i is blank, the offset of its line end, else NOOFF. */
static size_t
blankline(struct zh_pgn_reader *r, size_t i)
{
	int c;

	while ((c = peek(r, i)) == ' ' || c == '\t')
		i++;
	return c == '\n' || c == '\r' ? i : NOOFF;
}

/*
 * After an error: skip to a resync line (see resync_line) or the end of
 * input.  Bytes past max_game are scanned but not kept.
 */
static int
skip(struct zh_pgn_reader *r)
{
	size_t i = r->pos;
	bool linestart = (ptrdiff_t)i == r->lbeg, blank = false;
	const unsigned char *b;
	int c;

	r->mode = M_SKIP;
	for (;;) {
		if (linestart) {
			size_t k = i;

			while ((c = peek(r, k)) == ' ' || c == '\t' ||
			    c == '\f' || c == '\v')
				k++;
			if (c == '\n' || c == '\r' || c < 0) {
				blank = true;
			} else if (resync_line(r, i, blank)) {
				r->pos = i;
				return 1;
			} else {
				blank = false;
			}
			if (r->fail)
				return -1;
			linestart = false;
		}
		b = B(r);
		while (r->cls[b[i]] != C_NL && !(b[i] == 0 && ATEND(r, i)))
			i++;
		if (b[i] == 0) {
			if (!r->truncated && i > r->lim.max_game &&
			    zh__pgn_overlimit(r, i))
				zh__pgn_toolong(r);
			if (r->truncated && i > r->keep) {
				/* Nothing after keep is wanted but the line's
				   tail, which is empty here. */
				r->len = r->gstart + r->keep;
				memset(r->buf + r->len, 0, PAD);
				r->lbeg -= (ptrdiff_t)(i - r->keep);
				i = r->keep;
			}
			c = zh__pgn_fill(r);
			if (c < 0)
				return -1;
			if (c == 0) {
				r->pos = i;
				return 1;
			}
			continue;
		}
		i = eol(r, i);
		linestart = true;
	}
}

/* A brace comment at r->pos. */
static int
lex_comment(struct zh_pgn_reader *r)
{
	size_t i = r->pos, start;
	long line = r->line, col = colat(r, i);
	const unsigned char *b;
	unsigned char c;

	start = ++i;
	for (;;) {
		b = B(r);
		while ((c = b[i]) > '\r' && c != '}')
			i++;
		if (i - start > r->lim.max_comment) {
			zh__pgn_synerr(r, ZH_ELIMIT, line, col,
			    "comment too long (limit %zu bytes)",
			    r->lim.max_comment);
			r->pos = i;
			return 0;
		}
		if (c == '}')
			break;
		if (c == '\n' || c == '\r') {
			/* A line that resumes after an error (the next
			   game's tags) ends an unterminated comment. */
			bool blank = false;
			size_t e;

			i = eol(r, i);
			while ((e = blankline(r, i)) != NOOFF) {
				i = eol(r, e);
				blank = true;
			}
			if (resync_line(r, i, blank)) {
				zh__pgn_synerr(r, ZH_ESYNTAX, line, col,
				    "unterminated comment started at line %ld",
				    line);
				r->pos = i;
				return 1;
			}
			if (r->fail || r->err.code != ZH_OK) {
				r->pos = i;
				return r->fail ? -1 : 0;
			}
			continue;
		}
		if (c == 0) {
			if (ATEND(r, i)) {
				int rc = zh__pgn_more(r);

				if (rc < 0) {
					r->pos = i;
					return r->fail ? -1 : 0;
				}
				if (rc == 0) {
					zh__pgn_synerr(r, ZH_ESYNTAX, line, col,
					    "unterminated comment started at line %ld",
					    line);
					r->pos = i;
					return 1;
				}
				continue;
			}
			zh__pgn_synerr(r, ZH_ESYNTAX, r->line, colat(r, i),
			    "binary NUL byte in input");
			r->pos = i;
			return 0;
		}
		i++;		/* tab, VT, FF or another control byte */
	}
	r->pos = i + 1;
	return emit(r, ZH_T_COMMENT, start, i - start, NULL, line, col) < 0 &&
	    r->fail ? -1 : 0;
}

/* A ';' comment at r->pos, to the end of the line. */
static int
lex_linecomment(struct zh_pgn_reader *r)
{
	size_t i = r->pos, start;
	long line = r->line, col = colat(r, i);
	const unsigned char *b;

	start = ++i;
	for (;;) {
		b = B(r);
		while (r->cls[b[i]] != C_NL && b[i] != 0)
			i++;
		if (i - start > r->lim.max_comment) {
			zh__pgn_synerr(r, ZH_ELIMIT, line, col,
			    "comment too long (limit %zu bytes)",
			    r->lim.max_comment);
			r->pos = i;
			return 0;
		}
		if (b[i] != 0)
			break;
		if (!ATEND(r, i)) {
			zh__pgn_synerr(r, ZH_ESYNTAX, r->line, colat(r, i),
			    "binary NUL byte in input");
			r->pos = i;
			return 0;
		}
		if (zh__pgn_more(r) <= 0) {
			if (r->fail)
				return -1;
			if (r->err.code != ZH_OK) {
				r->pos = i;
				return 0;
			}
			break;
		}
	}
	r->pos = i;
	return emit(r, ZH_T_COMMENT, start, i - start, NULL, line, col) < 0 &&
	    r->fail ? -1 : 0;
}

/* Skip a '%' escape line (the '%' is at r->pos, in column 1). */
int
zh__pgn_skip_escape(struct zh_pgn_reader *r)
{
	size_t i = r->pos;
	const unsigned char *b;

	for (;;) {
		b = B(r);
		while (r->cls[b[i]] != C_NL && !(b[i] == 0 && ATEND(r, i)))
			i++;
		if (b[i] != 0)
			break;
		if (zh__pgn_more(r) <= 0)
			break;
	}
	r->pos = i;
	return r->fail ? -1 : 0;
}

/*
 * Store a tag pair read at line, col: the name at offset name, the value
 * between vstart and vend, vlen bytes once unescaped.  Returns 0 or -1.
 */
static int
addtag(struct zh_pgn_reader *r, long line, long col, size_t name,
    size_t namelen, size_t vstart, size_t vend, size_t vlen)
{
	const unsigned char *b;
	size_t off;
	char *d;

	if ((r->ntags >= r->tagcap && !zh__pgn_grow((void **)&r->tags,
	    &r->tagcap, r->ntags + 1, sizeof *r->tags)) ||
	    (2 * r->ntags + 2 > r->tagoffcap &&
	    !zh__pgn_grow((void **)&r->tagoff, &r->tagoffcap,
	    2 * (r->ntags + 1), sizeof *r->tagoff))) {
		r->fail = ZH_ENOMEM;
		return -1;
	}
	if ((off = zh__pgn_salloc(r, namelen + 1 + vlen + 1)) == NOOFF)
		return -1;
	b = B(r);
	d = r->strs + off;
	memcpy(d, b + name, namelen);
	d[namelen] = '\0';
	d += namelen + 1;
	if (vlen == vend - vstart) {
		memcpy(d, b + vstart, vlen);	/* no escapes */
		d += vlen;
	} else {
		for (size_t k = vstart; vlen > 0; vlen--) {
			if (b[k] == '\\' && (b[k + 1] == '"' || b[k + 1] == '\\'))
				k++;
			*d++ = (char)b[k++];
		}
	}
	*d = '\0';
	r->tags[r->ntags].line = line;
	r->tags[r->ntags].col = col;
	r->tagoff[2 * r->ntags] = off;
	r->tagoff[2 * r->ntags + 1] = off + namelen + 1;
	r->ntags++;
	if (namelen == 5 && memcmp(b + name, "Event", 5) == 0)
		r->has_event = true;
	return 0;
}

/*
 * A tag pair at r->pos ('[' seen, tagahead() true).  Returns 1 without
 * reading it if it is a second Event tag: a new game starts there.
 */
static int
lex_tag(struct zh_pgn_reader *r)
{
	size_t i = r->pos, name, namelen, vstart, vend, vlen;
	long line = r->line, col = colat(r, i);
	const unsigned char *b;
	int c;

	i++;
	while ((c = peek(r, i)) == ' ' || c == '\t')
		i++;
	name = i;
	while (isname(c = peek(r, i))) {
		if (i - name > r->lim.max_tag) {
			zh__pgn_synerr(r, ZH_ELIMIT, line, col,
			    "tag name too long (limit %zu bytes)",
			    r->lim.max_tag);
			goto out;
		}
		i++;
	}
	namelen = i - name;
	if (namelen == 5 && memcmp(B(r) + name, "Event", 5) == 0 &&
	    r->has_event)
		return 1;
	while ((c = peek(r, i)) == ' ' || c == '\t')
		i++;
	if (c != '"') {
		zh__pgn_synerr(r, ZH_ESYNTAX, r->line, colat(r, i),
		    "tag value must be a quoted string");
		goto out;
	}
	vstart = ++i;
	vlen = 0;		/* unescaped length */
	for (;;) {
		b = B(r);
		while ((c = b[i]) != '"' && c != '\\' && c > '\r' &&
		    vlen < r->lim.max_tag) {
			i++;
			vlen++;
		}
		c = peek(r, i);
		if (c == '"')
			break;
		if (c == '\\') {
			int e = peek(r, i + 1);

			if (e == '"' || e == '\\')
				i++;
		} else if (c < 0 || c == '\n' || c == '\r') {
			zh__pgn_synerr(r, ZH_ESYNTAX, line, col,
			    "unterminated tag value");
			goto out;
		} else if (c == 0) {
			zh__pgn_synerr(r, ZH_ESYNTAX, r->line, colat(r, i),
			    "binary NUL byte in input");
			goto out;
		}
		i++;
		if (++vlen > r->lim.max_tag) {
			zh__pgn_synerr(r, ZH_ELIMIT, line, col,
			    "tag value too long (limit %zu bytes)",
			    r->lim.max_tag);
			goto out;
		}
	}
	vend = i++;		/* closing quote */
	while ((c = peek(r, i)) == ' ' || c == '\t')
		i++;
	if (c != ']') {
		zh__pgn_synerr(r, ZH_ESYNTAX, r->line, colat(r, i),
		    "missing ']' after tag value");
		goto out;
	}
	i++;
	if ((long)r->ntags >= r->lim.max_tags) {
		zh__pgn_synerr(r, ZH_ELIMIT, line, col,
		    "too many tags (limit %ld)", r->lim.max_tags);
		goto out;
	}
	if (addtag(r, line, col, name, namelen, vstart, vend, vlen) < 0)
		return -1;
out:
	r->pos = i;
	return 0;
}

/*
 * The first byte from offset i on that is not F_VAL: '"', '\\' or one
 * up to CR, as the sentinel.  Eight bytes a round: the reads end at most
 * 7 bytes past that byte, in the PAD zero bytes after the data.
 */
static inline size_t
valend(const unsigned char *fl, const unsigned char *b, size_t i)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t one = 0x0101010101010101u, hi = 0x8080808080808080u;
	uint64_t w, q, z, m;

	(void)fl;
	for (;; i += 8) {
		memcpy(&w, b + i, 8);
		q = w ^ (one * '"');
		z = w ^ (one * '\\');
		/* zero bytes of q and z, bytes of w below 0x0e: the lowest
		   flag is exact, borrows only reach the bytes above it */
		m = ((q - one) & ~q) | ((z - one) & ~z) |
		    ((w - one * 0x0e) & ~w);
		if ((m &= hi) != 0)
			return i + (size_t)__builtin_ctzll(m) / 8;
	}
#else
	while (fl[b[i]] & F_VAL)
		i++;
	return i;
#endif
}

/*
 * Tag pairs from r->pos ('[' seen, tagahead() true), one a line, while
 * they are plain and buffered: '[', a name, a space, a value in quotes
 * without escapes or control bytes, ']'.  Anything else is lex_tag()'s.
 * Returns like lex_tag().  Not inlined: alone it keeps its state in
 * registers.
 */
static int __attribute__((noinline))
lex_tags(struct zh_pgn_reader *r)
{
	const unsigned char *fl = r->fl, *b = B(r);
	size_t i = r->pos, name, namelen, vstart, vlen, off, e;
	bool event;
	char *d;

	for (;;) {
		/* b[i] is the '[' and r->pos is i */
		name = i + 1;
		for (e = name; fl[b[e]] & F_NAME; e += 2)
			if (!(fl[b[e + 1]] & F_NAME)) {
				e++;
				break;
			}
		namelen = e - name;
		if (b[e] != ' ' || b[e + 1] != '"' || namelen == 0 ||
		    namelen > r->lim.max_tag)
			break;
		event = namelen == 5 && memcmp(b + name, "Event", 5) == 0;
		if (event && r->has_event)
			break;
		vstart = e + 2;
		e = valend(fl, b, vstart);
		vlen = e - vstart;
		if (b[e] != '"' || b[e + 1] != ']' || vlen > r->lim.max_tag ||
		    (long)r->ntags >= r->lim.max_tags)
			break;
		if (r->ntags < r->tagcap && 2 * r->ntags + 2 <= r->tagoffcap &&
		    r->slen + namelen + vlen + 3 <= r->scap) {
			/* name, blank, quote and value in one copy */
			off = r->slen;
			d = r->strs + off;
			memcpy(d, b + name, namelen + 2 + vlen);
			d[namelen] = '\0';
			d[namelen + 2 + vlen] = '\0';
			r->slen += namelen + 3 + vlen;
			r->tags[r->ntags].line = r->line;
			r->tags[r->ntags].col = colat(r, i);
			r->tagoff[2 * r->ntags] = off;
			r->tagoff[2 * r->ntags + 1] = off + namelen + 2;
			r->ntags++;
			if (event)
				r->has_event = true;
		} else if (addtag(r, r->line, colat(r, i), name, namelen,
		    vstart, e, vlen) < 0) {
			return -1;
		}
		i = e + 2;
		r->pos = i;
		/* a line end and a tag pair: skip what lex_space() would */
		if (b[i] != '\n' && b[i] != '\r')
			return 0;
		e = i + 1;
		if (b[i] == '\r' && b[e] == '\n')
			e++;
		if (b[e] != '[' || !(fl[b[e + 1]] & F_NAME))
			return 0;
		r->line++;
		r->lbeg = (ptrdiff_t)e;
		r->ccpos = e;
		r->ccol = 1;
		i = e;
		r->pos = i;
	}
	return lex_tag(r);
}

/* A move, move number or result at r->pos. */
static int
lex_word(struct zh_pgn_reader *r)
{
	size_t i = r->pos, n, k;
	long col = colat(r, i);
	const unsigned char *b;
	int kind;

	for (;;) {
		b = B(r);
		while (r->cls[b[i]] == C_WORD)
			i++;
		if (b[i] != 0 || !ATEND(r, i) || i - r->pos > MAXWORD)
			break;
		if (zh__pgn_more(r) <= 0) {
			if (r->fail)
				return -1;
			break;
		}
	}
	n = i - r->pos;
	b = B(r) + r->pos;
	if (n > MAXWORD) {
		zh__pgn_synerr(r, ZH_ESYNTAX, r->line, col,
		    "move too long (over %d bytes)", MAXWORD);
		r->pos = i;
		return 0;
	}
	kind = ZH_T_MOVE;
	if (b[0] >= '0' && b[0] <= '9') {
		for (k = 0; k < n && b[k] >= '0' && b[k] <= '9'; k++)
			;
		if (k == n) {
			int c;

			while ((c = peek(r, i)) == '.')
				i++;
			kind = ZH_T_MOVENUM;
			n = i - r->pos;
		} else {
			for (k = 0; k < 3; k++)
				if (strlen(results[k]) == n &&
				    memcmp(b, results[k], n) == 0)
					break;
			if (k < 3) {
				if (r->depth > 0) {
					zh__pgn_synerr(r, ZH_ESYNTAX, r->line,
					    col,
					    "game result inside a variation");
					r->pos = i;
					return 0;
				}
				r->result = results[k];
				r->after_result = true;
				kind = ZH_T_RESULT;
			}
		}
	}
	if (kind == ZH_T_MOVE && r->depth == 0 &&
	    ++r->plies > r->lim.max_plies) {
		zh__pgn_synerr(r, ZH_ELIMIT, r->line, col,
		    "too many moves (limit %ld)", r->lim.max_plies);
		r->pos = i;
		return 0;
	}
	if (emit(r, kind, r->pos, n, NULL, r->line, col) < 0 && r->fail)
		return -1;
	r->pos = i;
	return 0;
}

/*
 * The NAG just read after a move number ("e5 2! Nf3") annotates the move
 * before the number: it goes before the number, as if written "e5! 2.",
 * so a writer puts it with its move and a rewrite reads the same.
 */
static void
nag_back(struct zh_pgn_reader *r)
{
	struct zh_token *t = &r->toks[r->ntoks - 1], x;

	if (r->ntoks >= 3 && t[-1].kind == ZH_T_MOVENUM &&
	    (t[-2].kind == ZH_T_MOVE || t[-2].kind == ZH_T_NAG)) {
		x = t[0];
		t[0] = t[-1];
		t[-1] = x;
	}
}

/* A NAG token emitted (text at off, or the static text st), moved
 * before a move number it follows (nag_back); r->pos set to end. */
static int
emit_nag(struct zh_pgn_reader *r, size_t off, size_t len, const char *st,
    long col, size_t end)
{
	if (emit(r, ZH_T_NAG, off, len, st, r->line, col) < 0) {
		if (r->fail)
			return -1;
	} else
		nag_back(r);
	r->pos = end;
	return 0;
}

/* A NAG "$14" at r->pos. */
static int
lex_nag(struct zh_pgn_reader *r)
{
	size_t i = r->pos + 1;
	long col = colat(r, r->pos), v = 0;
	int c;

	while ((c = peek(r, i)) >= '0' && c <= '9') {
		v = v * 10 + (c - '0');
		i++;
		if (v > 255)
			break;
	}
	if (i == r->pos + 1) {
		zh__pgn_synerr(r, ZH_ESYNTAX, r->line, col,
		    "'$' without a number");
	} else if (v > 255) {
		zh__pgn_synerr(r, ZH_ESYNTAX, r->line, col,
		    "NAG out of range (0-255)");
	} else
		return emit_nag(r, r->pos, i - r->pos, NULL, col, i);
	r->pos = i;
	return 0;
}

/* Glyphs ! ? !! ?? !? ?! at r->pos, as NAG tokens $1..$6. */
static int
lex_glyph(struct zh_pgn_reader *r)
{
	size_t i = r->pos;
	int c = peek(r, i), d = peek(r, i + 1), nag;
	long col = colat(r, i);

	if (c == '!')
		nag = d == '!' ? 3 : d == '?' ? 5 : 1;
	else
		nag = d == '?' ? 4 : d == '!' ? 6 : 2;
	i += nag >= 3 ? 2 : 1;
	return emit_nag(r, NOOFF, 2, zh__pgn_nagtext[nag], col, i);
}

/*
 * After the result, b[i] a line end: does the next line go on with a
 * brace comment (after blanks)?  It is the game's, as the lines of a
 * movetext are up to the empty line that ends it (python-chess reads
 * so); zhkit's writer wraps "1-0 {...}" so.  May read more input.
 */
static bool
comment_below(struct zh_pgn_reader *r, size_t i)
{
	int c;

	if (B(r)[i] == '\r' && peek(r, i + 1) == '\n')
		i++;
	do
		c = peek(r, ++i);
	while (c >= 0 && r->cls[c] == C_SP);
	return c == '{';
}

/* White space at r->pos; notes blank lines. */
static int
lex_space(struct zh_pgn_reader *r)
{
	size_t i = r->pos;
	const unsigned char *b = B(r);
	int nl = 0;
	unsigned char c;

	for (;;) {
		c = b[i];
		if (r->cls[c] == C_SP) {
			i++;
		} else if (c == '\n' || c == '\r') {
			if (r->after_result && !comment_below(r, i))
				break;		/* the game ends on this line */
			i = eol(r, i);
			b = B(r);
			nl++;
		} else if (c == 0 && ATEND(r, i)) {
			int rc = zh__pgn_more(r);

			if (rc < 0 && r->fail)
				return -1;
			if (rc <= 0)
				break;
			b = B(r);
		} else {
			break;
		}
	}
	r->pos = i;
	if (r->after_result && (c == '\n' || c == '\r'))
		return 1;
	if (nl >= 2 && r->has_moves)
		return 1;		/* a blank line after movetext */
	return 0;
}

/*
 * The byte classes (C_*) and fast-path flags (F_*) of a new reader: a
 * table each, so that the hot loops test a byte with one load.
 */
void
zh__pgn_classes(unsigned char cls[256], unsigned char fl[256])
{
	int c;

	for (c = 0; c < 256; c++) {
		int k;

		if (c == 0)
			k = C_END;
		else if (c == ' ' || c == '\t' || c == '\v' || c == '\f' ||
		    c == 0x1a)
			k = C_SP;
		else if (c == '\n' || c == '\r')
			k = C_NL;
		else if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		    (c >= '0' && c <= '9') || c >= 0x80 ||
		    strchr("@=+#-/~_:,'^&|`", c))
			k = C_WORD;
		else
			switch (c) {
			case '.': k = C_DOT; break;
			case '{': k = C_LBRACE; break;
			case '}': k = C_RBRACE; break;
			case '(': k = C_LPAR; break;
			case ')': k = C_RPAR; break;
			case '[': k = C_LBRACK; break;
			case ']': k = C_RBRACK; break;
			case ';': k = C_SEMI; break;
			case '$': k = C_DOLLAR; break;
			case '!': case '?': k = C_GLYPH; break;
			case '*': k = C_STAR; break;
			case '%': k = C_PCT; break;
			case '"': k = C_QUOTE; break;
			default: k = C_BAD; break;
			}
		cls[c] = (unsigned char)k;
		fl[c] = (unsigned char)((k == C_WORD && c < 0x80 ? F_WORD : 0) |
		    (k == C_WORD && c < 0x80 && !(c >= '0' && c <= '9') ?
		    F_MOVE : 0) |
		    (c == 0 || c >= 0x80 ? F_ODD : 0) |
		    (c >= '0' && c <= '9' ? F_DIGIT : 0) |
		    (isname(c) ? F_NAME : 0) |
		    (c > '\r' && c != '"' && c != '\\' ? F_VAL : 0) |
		    ((k == C_WORD && c < 0x80) || c == ' ' || c == '{' ?
		    F_FAST : 0));
	}
}

/* ==================== games ==================== */

static inline void
put_tok(struct zh_token *t, int k, const unsigned char *b, size_t s,
    size_t i, long line, long cbase)
{
	t->kind = k;
	t->text = (const char *)b + s;
	t->len = i - s;
	t->line = line;
	t->col = (long)s + cbase;
}

/*
 * The common cases, with the state in locals: spaces, moves, move
 * numbers, a result at the top level, one-line brace comments and
 * single line ends inside movetext.  Columns are not counted byte by
 * byte: the bytes passed here are ASCII but in comments, so a column is
 * the offset plus cbase.  Anything else, including a token that reaches
 * the end of the buffered input or does not fit in the token array, is
 * left at r->pos for the general code.  Returns 1 when the game ends at
 * r->pos (a line end after the result), else 0.  Not inlined: alone it
 * keeps its state in registers.
 */
static int __attribute__((noinline))
fast(struct zh_pgn_reader *r)
{
	const unsigned char *b = B(r), *fl = r->fl;
	struct zh_token *t, *t0, *tend;
	size_t i = r->pos, s, e, off;
	long line = r->line, col, cbase, left, ncom = 0;
	int kind, k, rc = 0;
	unsigned char c;
	const uint64_t ones8 = 0x0101010101010101u;
	uint64_t hi = 0;		/* a comment's bytes ORed */

	if (r->ntoks >= r->tokroom)
		return 0;	/* maybe no array yet: no arithmetic on NULL */
	t = t0 = r->toks + r->ntoks;
	tend = r->toks + r->tokroom;
	cbase = colat(r, i) - (long)i;
	/* moves in a variation are not counted: no limit there */
	left = r->depth == 0 ? r->lim.max_plies - r->plies : LONG_MAX;
	for (;;) {
		c = b[i];
		while (c == ' ')
			c = b[++i];
		s = i;
		if (t >= tend)
			break;		/* emit() makes room or sees the limit */
		if (fl[c] & F_MOVE) {
			/* two bytes a round: most moves are short */
			for (;;) {
				if (!(fl[b[i + 1]] & F_WORD)) {
					i += 1;
					break;
				}
				if (!(fl[b[i + 2]] & F_WORD)) {
					i += 2;
					break;
				}
				i += 2;
			}
			if (fl[b[i]] & F_ODD || i - s > MAXWORD || left <= 0)
				break;
			left--;
			put_tok(t++, ZH_T_MOVE, b, s, i, line, cbase);
			continue;
		}
		if (fl[c] & F_DIGIT) {
			while (fl[c = b[++i]] & F_DIGIT)
				;
			if (i - s > MAXWORD)
				break;
			if (c == '.') {
				while ((c = b[++i]) == '.')
					;
				if (c == 0)
					break;
				put_tok(t++, ZH_T_MOVENUM, b, s, i, line,
				    cbase);
				continue;
			}
			if ((fl[c] & F_WORD) && ((c | 0x20) == 'a' ||
			    (c | 0x20) == 'b') && b[i + 1] == '.' &&
			    r->depth == 0) {
				/* a BPGN label "12A.": a move token "12A",
				   as the general code reads it, its dots
				   passed */
				if (left <= 0)
					break;
				left--;
				put_tok(t++, ZH_T_MOVE, b, s, i + 1, line, cbase);
				i += 2;
				while (b[i] == '.')
					i++;
				continue;
			}
			if (fl[c] & F_WORD) {
				/* a result; castling with zeros is left alone */
				while (fl[b[i]] & F_WORD)
					i++;
				if (fl[b[i]] & F_ODD || r->depth > 0)
					break;
				for (k = 0; k < 3; k++)
					if (strlen(results[k]) == i - s &&
					    memcmp(b + s, results[k], i - s) == 0)
						break;
				if (k == 3)
					break;
				r->result = results[k];
				r->after_result = true;
				kind = ZH_T_RESULT;
			} else if (fl[c] & F_ODD) {
				break;
			} else {
				kind = ZH_T_MOVENUM;
			}
			off = s;
		} else if (c == '\n' || c == '\r') {
			/* One line end and blanks before more movetext: what
			   lex_space() would do.  A blank line, an escape line
			   or the end of the buffer is its business. */
			e = i + 1;
			if (c == '\r' && b[e] == '\n')
				e++;
			i = e;
			while (b[i] == ' ' || b[i] == '\t')
				i++;
			if (r->cls[b[i]] <= C_NL) {
				i = s;
				break;
			}
			line++;
			r->lbeg = (ptrdiff_t)e;
			cbase = 1 - (long)e;
			continue;
		} else if (c == '{') {
			/* Eight bytes a round up to the word with the '}' or
			   a control byte (a line end, the NUL sentinel: the
			   reads stay in the PAD bytes), noting any byte of
			   UTF-8 (a high bit) on the way. */
			const uint64_t ones = 0x0101010101010101u;
			uint64_t w, x;

			hi = 0;
			for (;;) {
				memcpy(&w, b + i + 1, sizeof w);
				x = w ^ (ones * '}');
				if ((((x - ones) & ~x) | ((w - ones * 0x0e) & ~w)) &
				    ones * 0x80)
					break;
				hi |= w;
				i += 8;
			}
			while ((c = b[++i]) > '\r' && c != '}')
				hi |= c;
			if (c != '}' || i - s - 1 > r->lim.max_comment)
				break;
			kind = ZH_T_COMMENT;
			off = s + 1;
		} else if (c == '\t') {
			i++;		/* a blank like the others */
			continue;
		} else {
			break;
		}
		col = (long)s + cbase;
		t->kind = kind;
		t->text = (const char *)b + off;
		t->len = i - off;
		t->line = line;
		t->col = col;
		t++;
		if (kind == ZH_T_MOVENUM)
			continue;
		if (kind == ZH_T_COMMENT) {
			/* the comment may hold UTF-8: count its characters */
			ncom++;
			i++;
			if (hi & ones8 * 0x80) {
				r->ccpos = s;
				r->ccol = col;
				cbase = colat(r, i) - (long)i;
			} else {	/* one column a byte: cbase stays */
				r->ccpos = i;
				r->ccol = (long)i + cbase;
			}
			continue;
		}
		/* the result: the game ends if its line does */
		s = i;
		while (b[s] == ' ')
			s++;
		rc = b[s] == '\n' || b[s] == '\r';
		if (rc) {	/* a comment on the next line is the game's */
			e = s + (b[s] == '\r' && b[s + 1] == '\n') + 1;
			while (r->cls[b[e]] == C_SP)
				e++;
			if (b[e] == '{' || b[e] == 0)
				rc = 0;	/* the general code's business */
		}
		break;
	}
	if (t - t0 > ncom)
		r->has_moves = true;
	r->ntoks = (size_t)(t - r->toks);
	r->pos = s;
	if (r->depth == 0)
		r->plies = r->lim.max_plies - left;
	r->line = line;
	r->ccpos = s;
	r->ccol = (long)s + cbase;
	return rc;
}

/* Read one game from r->pos (its first byte).  Returns 0 or -1. */
int
zh__pgn_lex_game(struct zh_pgn_reader *r)
{
	int rc, c;
	size_t i;

	for (;;) {
		if (r->err.code != ZH_OK) {
			rc = skip(r);
			break;
		}
		if (r->fpend && zh__pgn_filter(r) > 0) {
			rc = 1;		/* dropped, and skipped to its end */
			break;
		}
		if (!r->after_result && r->fl[B(r)[r->pos]] & F_FAST &&
		    fast(r) > 0) {
			rc = 1;		/* a line end after the result */
			break;
		}
		if (r->fail)
			return -1;
		if (r->err.code != ZH_OK)
			continue;
		i = r->pos;
		c = B(r)[i];
		if (r->after_result && r->cls[c] != C_SP && c != '{' &&
		    c != ';' && !(c == 0 && ATEND(r, i)) &&
		    !((c == '\n' || c == '\r') && comment_below(r, i))) {
			rc = 1;		/* text after the result: next game */
			break;
		}
		switch (r->cls[c]) {
		case C_SP:
		case C_NL:
			rc = lex_space(r);
			break;
		case C_WORD:
			rc = lex_word(r);
			break;
		case C_LBRACE:
			rc = lex_comment(r);
			break;
		case C_SEMI:
			rc = lex_linecomment(r);
			break;
		case C_DOLLAR:
			rc = lex_nag(r);
			break;
		case C_GLYPH:
			rc = lex_glyph(r);
			break;
		case C_DOT:
			while (peek(r, i) == '.')
				i++;
			r->pos = i;
			rc = 0;
			break;
		case C_STAR:
			if (r->depth > 0) {
				zh__pgn_synerr(r, ZH_ESYNTAX, r->line,
				    colat(r, i),
				    "game result inside a variation");
				rc = 0;
				break;
			}
			r->result = results[3];
			r->after_result = true;
			rc = emit(r, ZH_T_RESULT, i, 1, NULL, r->line,
			    colat(r, i)) < 0 && r->fail ? -1 : 0;
			r->pos = i + 1;
			break;
		case C_LPAR:
			if (r->depth >= r->lim.max_depth) {
				zh__pgn_synerr(r, ZH_ELIMIT, r->line,
				    colat(r, i),
				    "variations nested too deeply (limit %d)",
				    r->lim.max_depth);
				rc = 0;
				break;
			}
			if (r->vstack == NULL && (r->vstack = malloc(2 *
			    (size_t)r->lim.max_depth * sizeof *r->vstack)) == NULL) {
				r->fail = ZH_ENOMEM;
				rc = -1;
				break;
			}
			r->vstack[2 * r->depth] = r->line;
			r->vstack[2 * r->depth + 1] = colat(r, i);
			r->depth++;
			rc = emit(r, ZH_T_VSTART, i, 1, NULL, r->line,
			    colat(r, i)) < 0 && r->fail ? -1 : 0;
			r->pos = i + 1;
			break;
		case C_RPAR:
			if (r->depth == 0) {
				zh__pgn_synerr(r, ZH_ESYNTAX, r->line,
				    colat(r, i), "unbalanced ')'");
				rc = 0;
				break;
			}
			r->depth--;
			rc = emit(r, ZH_T_VEND, i, 1, NULL, r->line,
			    colat(r, i)) < 0 && r->fail ? -1 : 0;
			r->pos = i + 1;
			break;
		case C_LBRACK:
			if (!tagahead(r, i)) {
				zh__pgn_synerr(r, ZH_ESYNTAX, r->line,
				    colat(r, i),
				    r->has_moves ? "unexpected '['" :
				    "damaged tag pair: no tag name after '['");
				rc = 0;
			} else if (r->has_moves) {
				rc = 1;		/* the next game's tags */
			} else {
				rc = lex_tags(r);
			}
			break;
		case C_PCT:
			if ((ptrdiff_t)i == r->lbeg) {
				rc = zh__pgn_skip_escape(r);
			} else {
				zh__pgn_synerr(r, ZH_ESYNTAX, r->line,
				    colat(r, i),
				    "unexpected '%%' (escape lines start in column 1)");
				rc = 0;
			}
			break;
		case C_END:
			if (ATEND(r, i)) {
				rc = zh__pgn_more(r);
				if (rc < 0)
					rc = r->fail ? -1 : 0;
				else
					rc = rc == 0;	/* end of input */
				break;
			}
			zh__pgn_synerr(r, ZH_ESYNTAX, r->line, colat(r, i),
			    "binary NUL byte in input");
			rc = 0;
			break;
		case C_RBRACE:
		case C_RBRACK:
		case C_QUOTE:
			zh__pgn_synerr(r, ZH_ESYNTAX, r->line, colat(r, i),
			    "unexpected '%c'", c);
			rc = 0;
			break;
		default:
			if (c >= ' ' && c < 0x7f)
				zh__pgn_synerr(r, ZH_ESYNTAX, r->line,
				    colat(r, i), "unexpected '%c'", c);
			else
				zh__pgn_synerr(r, ZH_ESYNTAX, r->line,
				    colat(r, i),
				    "unexpected control byte 0x%02x", c);
			rc = 0;
			break;
		}
		if (rc != 0)
			break;
	}
	if (rc < 0 || r->fail)
		return -1;
	if (r->depth > 0)
		zh__pgn_synerr(r, ZH_ESYNTAX, r->vstack[2 * r->depth - 2],
		    r->vstack[2 * r->depth - 1],
		    "missing ')' for the variation started at line %ld",
		    r->vstack[2 * r->depth - 2]);
	return 0;
}
