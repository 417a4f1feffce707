/*
 * pgn.c - streaming PGN reader: games, tag pairs and movetext tokens.
 *
 * The reader knows PGN syntax and no chess rules.  Input is read with
 * fread() in large chunks straight into one buffer that also holds the
 * current game, so the game's raw bytes and its token texts need no copy.
 * The buffer always ends with a NUL sentinel at buf[len]: hot loops scan
 * with pointers and stop at it, then ask for more input.  A real NUL byte
 * in the input is an error.
 *
 * Offsets used while lexing are relative to gstart, the first byte of the
 * current game, so they stay valid when fill() slides the game to the
 * front of the buffer or realloc() moves it.  Tag texts are kept as
 * offsets and turned into pointers once the game is complete; token
 * texts point into the buffer at once, and fill() moves them with it.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "zh.h"

/* ==================== constants ==================== */

#ifndef ZH_PGN_CHUNK	/* tests build with tiny reads to reach every refill */
#define ZH_PGN_CHUNK	(128u * 1024)
#endif
#define CHUNK		((size_t)ZH_PGN_CHUNK)	/* bytes asked of fread() at a time */
#define LOOK		256		/* lookahead to recognise a tag line */
#define MAXWORD		255		/* longest move or move number */
#define NOOFF		SIZE_MAX	/* token text is a static string */
#define PAD		ZH_PGN_PAD	/* zero bytes kept after the data */

static const struct zh_pgn_limits defaults = {
	.max_game = 16u << 20,
	.max_tag = 64u << 10,
	.max_comment = 1u << 20,
	.max_tags = 1000,
	.max_plies = 10000,
	.max_tokens = 1000000,
	.max_depth = 64,
};

/* Character classes of the movetext lexer. */
enum {
	C_END,		/* NUL: the sentinel, or a NUL byte in the input */
	C_SP,		/* blank: space, tab, VT, FF, ^Z */
	C_NL,		/* line end: LF or CR */
	C_WORD,		/* letters, digits, @=+#-/~_:,'^&|` and bytes >= 0x80 */
	C_DOT, C_LBRACE, C_RBRACE, C_LPAR, C_RPAR, C_LBRACK, C_RBRACK,
	C_SEMI, C_DOLLAR, C_GLYPH, C_STAR, C_PCT, C_QUOTE,
	C_BAD		/* other control bytes, \ < > */
};

/* Byte flags of the fast paths, fast() and lex_tags(). */
enum {
	F_WORD = 1,	/* an ASCII word byte (C_WORD below 0x80) */
	F_ODD = 2,	/* NUL or a byte >= 0x80: the general code decides */
	F_DIGIT = 4,
	F_NAME = 8,	/* tag name: letters, digits, '_' */
	F_VAL = 16,	/* tag value byte that needs no care: not " \ or <= CR */
	F_MOVE = 32,	/* F_WORD but a digit: starts a move */
	F_FAST = 64	/* fast() may take it: a space, F_WORD or '{' */
};

/* Results the reader hands out: static strings. */
static const char *const results[] = { "1-0", "0-1", "1/2-1/2", "*" };
/* Glyphs converted to NAG text: ! ? !! ?? !? ?! */
static const char *const nagtext[] = { "$0", "$1", "$2", "$3", "$4", "$5", "$6" };

/* ==================== reader state ==================== */

struct zh_pgn_reader {
	FILE *f;
	struct zh_pgn_limits lim;
	unsigned char cls[256];
	unsigned char fl[256];	/* F_* flags */

	unsigned char *buf;	/* input; buf[len] == 0 */
	size_t cap, len;
	size_t gstart;		/* first byte of the current game */
	size_t pos;		/* scan position, relative to gstart */
	ptrdiff_t lbeg;		/* first byte of the current line (relative) */
	size_t ccpos;		/* column cache: byte ccpos (relative) ... */
	long ccol;		/* ... is in column ccol */
	long line;		/* current line */
	bool eof;
	int fail;		/* ZH_EIO or ZH_ENOMEM once the reader is broken */
	int errnum;		/* errno of a read error */
	long games;		/* games returned */
	bool borrowed;		/* buf is the caller's (zh_pgn_mem) */
	bool cut;		/* a game read on to the end of the input */
	bool fresh;		/* at the start of the stream: its magic? */
	int mode;		/* M_BETWEEN, M_GAME or M_SKIP */
	struct zh_skip skip;	/* text skipped since the last game */

	/* the current game */
	struct zh_error err;	/* first error */
	bool has_moves;		/* a movetext token other than a comment */
	bool has_event;		/* an Event tag */
	bool after_result;	/* result read: only comments may follow */
	bool truncated;		/* skipping past max_game: bytes discarded */
	size_t keep;		/* raw bytes kept when truncated */
	int depth;		/* open variations */
	long plies;		/* main-line moves */
	long gline, gcol;	/* line and column of the game's first byte */
	const char *result;

	struct zh_token *toks;
	size_t *toff;		/* text offsets while fill() moves the buffer */
	size_t ntoks, tokcap, toffcap;
	size_t tokroom;		/* tokens that fit without emit_slow() */
	struct zh_tag *tags;
	size_t *tagoff;		/* name and value offsets into strs */
	size_t ntags, tagcap, tagoffcap;
	char *strs;		/* tag names and values, NUL-terminated */
	size_t slen, scap;
	long *vstack;		/* line and column of each open '(' */
};

enum { M_BETWEEN, M_GAME, M_SKIP };

#define B(r)		((r)->buf + (r)->gstart)
#define AVAIL(r)	((r)->len - (r)->gstart)
#define ATEND(r, i)	((r)->gstart + (i) >= (r)->len)

/* ==================== errors ==================== */

static void synerr(struct zh_pgn_reader *, int, long, long, const char *, ...)
    __attribute__((format(printf, 5, 6)));

/* Record the game's first error. */
static void
synerr(struct zh_pgn_reader *r, int code, long line, long col,
    const char *fmt, ...)
{
	va_list ap;

	if (r->err.code != ZH_OK)
		return;
	r->err.code = code;
	r->err.line = line;
	r->err.col = col;
	r->err.ply = 0;
	va_start(ap, fmt);
	vsnprintf(r->err.text, sizeof r->err.text, fmt, ap);
	va_end(ap);
}

/* ==================== input buffer ==================== */

/* Is the token's text a static string (a glyph's NAG)? */
static bool
isstatic(const struct zh_token *t)
{
	size_t k;

	if (t->kind == ZH_T_NAG)
		for (k = 0; k < sizeof nagtext / sizeof nagtext[0]; k++)
			if (t->text == nagtext[k])
				return true;
	return false;
}

/* Before the buffer moves: token texts to offsets in toff. */
static void
textoff(struct zh_pgn_reader *r)
{
	const char *b = (const char *)B(r);
	size_t k;

	for (k = 0; k < r->ntoks; k++)
		r->toff[k] = isstatic(&r->toks[k]) ? NOOFF :
		    (size_t)(r->toks[k].text - b);
}

/* After it moved: back to pointers. */
static void
textptr(struct zh_pgn_reader *r)
{
	const char *b = (const char *)B(r);
	size_t k;

	for (k = 0; k < r->ntoks; k++)
		if (r->toff[k] != NOOFF)
			r->toks[k].text = b + r->toff[k];
}

/*
 * Append up to CHUNK bytes of input.  Returns 1 if some were added, 0 at
 * the end of input, -1 on a read error or no memory (r->fail is set).
 * May slide the current game to the front of the buffer or move the
 * buffer: callers reload their pointers from B(r).
 */
static int
fill(struct zh_pgn_reader *r)
{
	size_t n;
	bool move;

	if (r->fail)
		return -1;
	if (r->eof) {
		/* Past the end inside a game: more bytes might have
		   changed it (zh_pgn_mem_clean). */
		if (r->mode != M_BETWEEN)
			r->cut = true;
		return 0;
	}
	if ((move = r->cap - r->len < CHUNK + PAD))
		textoff(r);
	if (r->gstart > 0 && r->cap - r->len < CHUNK + PAD) {
		memmove(r->buf, r->buf + r->gstart, r->len - r->gstart);
		r->len -= r->gstart;
		r->gstart = 0;
	}
	if (r->cap - r->len < CHUNK + PAD) {
		size_t ncap = r->cap * 2;
		unsigned char *nb;

		if (ncap < r->len + CHUNK + PAD)
			ncap = r->len + CHUNK + PAD;
		if ((nb = realloc(r->buf, ncap)) == NULL) {
			textptr(r);
			r->fail = ZH_ENOMEM;
			return -1;
		}
		r->buf = nb;
		r->cap = ncap;
	}
	if (move)
		textptr(r);
	n = fread(r->buf + r->len, 1, CHUNK, r->f);
	r->len += n;
	memset(r->buf + r->len, 0, PAD);	/* the sentinel and padding */
	if (n > 0)
		return 1;
	if (ferror(r->f)) {
		r->errnum = errno;
		r->fail = ZH_EIO;
		return -1;
	}
	r->eof = true;
	if (r->mode != M_BETWEEN)
		r->cut = true;
	return 0;
}

static bool overlimit(struct zh_pgn_reader *, size_t);
static void toolong(struct zh_pgn_reader *);

/*
 * All buffered bytes are scanned: get more.  Like fill(), and -2 while
 * reading a game that is in error (the lexer stops and skip() takes
 * over, bounding memory by itself) or that is found longer than max_game
 * (overlimit(); a comment or a blank run across the limit is read on).
 */
static int
more(struct zh_pgn_reader *r)
{
	if (r->mode == M_GAME) {
		if (r->err.code != ZH_OK)
			return -2;
		if (AVAIL(r) > r->lim.max_game && (overlimit(r, r->pos) ||
		    AVAIL(r) - r->lim.max_game >= r->lim.max_comment + CHUNK)) {
			toolong(r);
			return -2;
		}
	}
	return fill(r);
}

/* Byte at relative offset i, reading on as needed; -1 if there is none. */
static int
peek_slow(struct zh_pgn_reader *r, size_t i)
{
	while (ATEND(r, i))
		if (more(r) <= 0)
			return -1;
	return B(r)[i];
}

static inline int
peek(struct zh_pgn_reader *r, size_t i)
{
	if (!ATEND(r, i))
		return B(r)[i];
	return peek_slow(r, i);
}

/* ==================== lines and columns ==================== */

/*
 * Column of relative offset i (i >= every offset asked before on the
 * line): one more than the characters before it, that is the bytes that
 * are not UTF-8 continuation bytes (10xxxxxx), counted 8 at a time.  The
 * last word may read up to 7 bytes past the data: fill() keeps PAD zero
 * bytes there, and the mask drops them.
 */
static inline long
colat(struct zh_pgn_reader *r, size_t i)
{
	const unsigned char *b = B(r);
	size_t k = r->ccpos;
	long c = r->ccol + (long)(i - k);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t hi = 0x8080808080808080u;
	uint64_t w;

	for (; k < i; k += 8) {
		memcpy(&w, b + k, 8);
		if (i - k < 8)
			w &= ~(~(uint64_t)0 << 8 * (i - k));
		if (w & hi)
			c -= __builtin_popcountll(w & ~(w << 1) & hi);
	}
#else
	for (; k < i; k++)
		c -= (b[k] & 0xc0) == 0x80;
#endif
	r->ccpos = i;
	r->ccol = c;
	return c;
}

/* b[i] is CR or LF: step over the line end; returns the offset after it. */
static inline size_t
eol(struct zh_pgn_reader *r, size_t i)
{
	if (B(r)[i] == '\r' && peek(r, i + 1) == '\n')
		i++;
	i++;
	r->line++;
	r->lbeg = (ptrdiff_t)i;
	r->ccpos = i;
	r->ccol = 1;
	return i;
}

/* Forget the bytes before relative offset i (i >= ccpos): they are not part of a game. */
static void
discard(struct zh_pgn_reader *r, size_t i)
{
	colat(r, i);
	r->gstart += i;
	r->lbeg -= (ptrdiff_t)i;
	r->ccpos = 0;
}

/* ==================== token and tag storage ==================== */

static bool
grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 64;
	void *q;

	while (n < need)
		n *= 2;
	if (n == *cap)
		return true;
	if ((q = realloc(*p, n * size)) == NULL)
		return false;
	*p = q;
	*cap = n;
	return true;
}

/* Make room for one more token; -1 if over the limit or out of memory. */
static int
emit_slow(struct zh_pgn_reader *r, long line, long col)
{
	if ((long)r->ntoks >= r->lim.max_tokens) {
		synerr(r, ZH_ELIMIT, line, col,
		    "too many movetext tokens (limit %ld)", r->lim.max_tokens);
		return -1;
	}
	if (!grow((void **)&r->toks, &r->tokcap, r->ntoks + 1,
	    sizeof *r->toks) ||
	    !grow((void **)&r->toff, &r->toffcap, r->ntoks + 1,
	    sizeof *r->toff)) {
		r->fail = ZH_ENOMEM;
		return -1;
	}
	r->tokroom = r->tokcap < r->toffcap ? r->tokcap : r->toffcap;
	if (r->tokroom > (size_t)r->lim.max_tokens)
		r->tokroom = (size_t)r->lim.max_tokens;
	return 0;
}

/* Add a token; off is relative to gstart, or NOOFF with a static text. */
static inline int
emit(struct zh_pgn_reader *r, int kind, size_t off, size_t len,
    const char *stat, long line, long col)
{
	struct zh_token *t;

	if (r->ntoks >= r->tokroom && emit_slow(r, line, col) < 0)
		return -1;
	t = &r->toks[r->ntoks];
	t->kind = kind;
	t->text = stat != NULL ? stat : (const char *)B(r) + off;
	t->len = len;
	t->line = line;
	t->col = col;
	r->ntoks++;
	if (kind != ZH_T_COMMENT)
		r->has_moves = true;
	return 0;
}

/* Reserve n bytes in the string arena; returns their offset or NOOFF. */
static size_t
salloc(struct zh_pgn_reader *r, size_t n)
{
	size_t off = r->slen;

	if (r->slen + n > r->scap &&
	    !grow((void **)&r->strs, &r->scap, r->slen + n, 1)) {
		r->fail = ZH_ENOMEM;
		return NOOFF;
	}
	r->slen += n;
	return off;
}

/* ==================== game size ==================== */

/*
 * A game's size is the bytes from its first byte (of its first tag line,
 * or of its movetext if it has no tags) to its last (the end of its
 * termination marker, or of a comment on the marker's line): the bytes
 * g->raw holds and --rejects writes.  One over max_game is an error at
 * its byte max_game + 1, whatever the buffer, and only its first
 * max_game bytes are kept (raw_truncated).
 */

/* A blank or a line end. */
static bool
white(const struct zh_pgn_reader *r, int c)
{
	return r->cls[c] == C_SP || r->cls[c] == C_NL;
}

/* Line and column of relative offset off, counted from the game's start. */
static void
place(struct zh_pgn_reader *r, size_t off, long *line, long *col)
{
	const unsigned char *b = B(r);
	long l = r->gline, c = r->gcol;
	size_t k;

	for (k = 0; k < off; k++)
		if (b[k] == '\n' || (b[k] == '\r' && b[k + 1] != '\n')) {
			l++;
			c = 1;
		} else if (b[k] != '\r' && (b[k] & 0xc0) != 0x80) {
			c++;
		}
	*line = l;
	*col = c;
}

/*
 * Is the game longer than max_game (e > max_game)?  All bytes before
 * offset e are the game's: if one past the limit is not blank, it is.
 * So is one whose blanks run on that far past it: memory stays bounded.
 */
static bool
overlimit(struct zh_pgn_reader *r, size_t e)
{
	const unsigned char *b = B(r);

	if (e <= r->lim.max_game)
		return false;
	if (e - r->lim.max_game >= r->lim.max_comment + CHUNK)
		return true;	/* a blank run that long: enough */
	while (e > r->lim.max_game && white(r, b[e - 1]))
		e--;
	return e > r->lim.max_game;
}

static void trim(struct zh_pgn_reader *);

/* Is (l1, c1) before (l2, c2)? */
static bool
before(long l1, long c1, long l2, long c2)
{
	return l1 < l2 || (l1 == l2 && c1 < c2);
}

/*
 * The game is over max_game: the error at its byte max_game + 1 (unless
 * one comes before), and only what lies before that byte is kept, so the
 * game reads the same however the input was buffered.
 */
static void
toolong(struct zh_pgn_reader *r)
{
	size_t keep = r->lim.max_game;
	long line, col;

	place(r, keep, &line, &col);
	if (r->err.code == ZH_OK || !before(r->err.line, r->err.col, line,
	    col)) {
		r->err.code = ZH_OK;
		synerr(r, ZH_ELIMIT, line, col,
		    "game too long (limit %zu bytes)", keep);
	}
	r->truncated = true;
	r->keep = keep;
	trim(r);
}

/*
 * Forget the tokens and tags of a game over max_game from its byte
 * max_game + 1 on (and a token across it): how far the lexer got past
 * that byte depends on the buffer.
 */
static void
trim(struct zh_pgn_reader *r)
{
	size_t k, n, keep = r->keep;
	long line, col;

	place(r, keep, &line, &col);
	for (k = 0; k < r->ntoks; k++) {
		const struct zh_token *t = &r->toks[k];

		if (!before(t->line, t->col, line, col) || (!isstatic(t) &&
		    (size_t)(t->text - (const char *)B(r)) + t->len > keep))
			break;
	}
	for (n = k; n < r->ntoks; n++)
		if (r->toks[n].kind == ZH_T_RESULT)
			r->result = NULL;
	r->ntoks = k;
	for (k = 0; k < r->ntags; k++)
		if (!before(r->tags[k].line, r->tags[k].col, line, col))
			break;
	r->ntags = k;
}

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
			    overlimit(r, i))
				toolong(r);
			if (r->truncated && i > r->keep) {
				/* Nothing after keep is wanted but the line's
				   tail, which is empty here. */
				r->len = r->gstart + r->keep;
				memset(r->buf + r->len, 0, PAD);
				r->lbeg -= (ptrdiff_t)(i - r->keep);
				i = r->keep;
			}
			c = fill(r);
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
			synerr(r, ZH_ELIMIT, line, col,
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
				synerr(r, ZH_ESYNTAX, line, col,
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
				int rc = more(r);

				if (rc < 0) {
					r->pos = i;
					return r->fail ? -1 : 0;
				}
				if (rc == 0) {
					synerr(r, ZH_ESYNTAX, line, col,
					    "unterminated comment started at line %ld",
					    line);
					r->pos = i;
					return 1;
				}
				continue;
			}
			synerr(r, ZH_ESYNTAX, r->line, colat(r, i),
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
			synerr(r, ZH_ELIMIT, line, col,
			    "comment too long (limit %zu bytes)",
			    r->lim.max_comment);
			r->pos = i;
			return 0;
		}
		if (b[i] != 0)
			break;
		if (!ATEND(r, i)) {
			synerr(r, ZH_ESYNTAX, r->line, colat(r, i),
			    "binary NUL byte in input");
			r->pos = i;
			return 0;
		}
		if (more(r) <= 0) {
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
static int
skip_escape(struct zh_pgn_reader *r)
{
	size_t i = r->pos;
	const unsigned char *b;

	for (;;) {
		b = B(r);
		while (r->cls[b[i]] != C_NL && !(b[i] == 0 && ATEND(r, i)))
			i++;
		if (b[i] != 0)
			break;
		if (more(r) <= 0)
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

	if ((r->ntags >= r->tagcap && !grow((void **)&r->tags, &r->tagcap,
	    r->ntags + 1, sizeof *r->tags)) ||
	    (2 * r->ntags + 2 > r->tagoffcap && !grow((void **)&r->tagoff,
	    &r->tagoffcap, 2 * (r->ntags + 1), sizeof *r->tagoff))) {
		r->fail = ZH_ENOMEM;
		return -1;
	}
	if ((off = salloc(r, namelen + 1 + vlen + 1)) == NOOFF)
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
			synerr(r, ZH_ELIMIT, line, col,
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
		synerr(r, ZH_ESYNTAX, r->line, colat(r, i),
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
			synerr(r, ZH_ESYNTAX, line, col,
			    "unterminated tag value");
			goto out;
		} else if (c == 0) {
			synerr(r, ZH_ESYNTAX, r->line, colat(r, i),
			    "binary NUL byte in input");
			goto out;
		}
		i++;
		if (++vlen > r->lim.max_tag) {
			synerr(r, ZH_ELIMIT, line, col,
			    "tag value too long (limit %zu bytes)",
			    r->lim.max_tag);
			goto out;
		}
	}
	vend = i++;		/* closing quote */
	while ((c = peek(r, i)) == ' ' || c == '\t')
		i++;
	if (c != ']') {
		synerr(r, ZH_ESYNTAX, r->line, colat(r, i),
		    "missing ']' after tag value");
		goto out;
	}
	i++;
	if ((long)r->ntags >= r->lim.max_tags) {
		synerr(r, ZH_ELIMIT, line, col, "too many tags (limit %ld)",
		    r->lim.max_tags);
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
		if (more(r) <= 0) {
			if (r->fail)
				return -1;
			break;
		}
	}
	n = i - r->pos;
	b = B(r) + r->pos;
	if (n > MAXWORD) {
		synerr(r, ZH_ESYNTAX, r->line, col,
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
					synerr(r, ZH_ESYNTAX, r->line, col,
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
		synerr(r, ZH_ELIMIT, r->line, col,
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
		synerr(r, ZH_ESYNTAX, r->line, col, "'$' without a number");
	} else if (v > 255) {
		synerr(r, ZH_ESYNTAX, r->line, col,
		    "NAG out of range (0-255)");
	} else if (emit(r, ZH_T_NAG, r->pos, i - r->pos, NULL, r->line,
	    col) < 0) {
		if (r->fail)
			return -1;
	} else {
		nag_back(r);
	}
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
	if (emit(r, ZH_T_NAG, NOOFF, 2, nagtext[nag], r->line, col) < 0) {
		if (r->fail)
			return -1;
	} else {
		nag_back(r);
	}
	r->pos = i;
	return 0;
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
			if (r->after_result)
				break;		/* the game ends on this line */
			i = eol(r, i);
			b = B(r);
			nl++;
		} else if (c == 0 && ATEND(r, i)) {
			int rc = more(r);

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

/* ==================== games ==================== */

/* Reset the per-game state. */
static void
newgame(struct zh_pgn_reader *r)
{
	memset(&r->err, 0, sizeof r->err);
	r->has_moves = r->has_event = r->after_result = false;
	r->truncated = false;
	r->keep = 0;
	r->depth = 0;
	r->plies = 0;
	r->result = NULL;
	r->ntoks = r->ntags = r->slen = 0;
}

/*
 * Could text starting at offset i, outside a game, begin movetext?
 * Lines that cannot are skipped as garbage between games.
 */
static bool
gamestart(struct zh_pgn_reader *r, size_t i)
{
	int c = peek(r, i), d = peek(r, i + 1);

	if ((c >= '0' && c <= '9') || c == '*' || c == '{' || c == ';' ||
	    c == '@')
		return true;
	if (c >= 'a' && c <= 'j')
		return (d >= '0' && d <= '9') || d == 'x';
	if (c && strchr("KQRBNPAC", c))
		return (d >= 'a' && d <= 'j') || (d >= '1' && d <= '9') ||
		    d == 'x' || d == '@';
	if (c && strchr("pnbrqac", c))
		return d == '@';
	return (c == 'O' && d == '-') || (c == '-' && d == '-');
}

/* The stream starts with a compression's magic number: fail. */
static int
magic(struct zh_pgn_reader *r)
{
	const char *name;

	r->fresh = false;
	(void)peek(r, 5);	/* 6 bytes buffered, if there are */
	if ((name = zh_pgn_magic(B(r), AVAIL(r))) == NULL)
		return 0;
	if (r->fail == 0)
		r->fail = ZH_ECOMPRESSED;
	snprintf(r->err.text, sizeof r->err.text, "%s", name);
	return -1;
}

/* A line of garbage starts at offset i: note it in r->skip. */
static void
skipped(struct zh_pgn_reader *r, size_t i)
{
	struct zh_skip *s = &r->skip;
	const unsigned char *b = B(r);
	size_t k;

	if (s->bytes == 0 && s->lines == 0) {
		s->line = r->line;
		s->col = colat(r, i);
		for (k = 0; k + 1 < sizeof s->text &&
		    r->cls[b[i + k]] != C_NL && !(b[i + k] == 0 &&
		    ATEND(r, i + k)); k++)
			s->text[k] = b[i + k] >= ' ' && b[i + k] < 0x7f ?
			    (char)b[i + k] : '?';
		s->text[k] = '\0';
	}
	s->lines++;
}

/*
 * Between games: skip blanks, escape lines, a BOM and garbage lines up to
 * the first byte of a game.  Returns 1 at a game, 0 at the end of input,
 * -1 on failure.
 */
static int
between(struct zh_pgn_reader *r)
{
	size_t i = r->pos;
	int c;

	r->mode = M_BETWEEN;
	if (r->fresh && magic(r) < 0)
		return -1;
	for (;;) {
		if (ATEND(r, i) && i > 0) {
			discard(r, i);		/* keep memory bounded */
			i = 0;
		}
		c = peek(r, i);
		if (c < 0) {
			r->pos = i;
			return r->fail ? -1 : 0;
		}
		if (r->cls[c] == C_SP) {
			i++;
			continue;
		}
		if (c == '\n' || c == '\r') {
			i = eol(r, i);
			discard(r, i);
			i = 0;
			continue;
		}
		if ((ptrdiff_t)i == r->lbeg) {
			if (c == '%') {
				r->pos = i;
				if (skip_escape(r) < 0)
					return -1;
				i = r->pos;
				continue;
			}
			if (c == 0xef && peek(r, i + 1) == 0xbb &&
			    peek(r, i + 2) == 0xbf) {
				i += 3;
				r->lbeg = (ptrdiff_t)i;
				r->ccpos = i;
				r->ccol = 1;
				continue;
			}
		}
		if (c == '[' || gamestart(r, i))
			break;
		/* garbage: skip the rest of the line, and tell */
		skipped(r, i);
		for (;;) {
			const unsigned char *b = B(r);
			size_t k = i;

			while (r->cls[b[i]] != C_NL &&
			    !(b[i] == 0 && ATEND(r, i)))
				i++;
			r->skip.bytes += i - k;
			if (b[i] != 0)
				break;
			discard(r, i);
			i = 0;
			if ((c = fill(r)) <= 0) {
				if (c < 0)
					return -1;
				break;
			}
		}
	}
	discard(r, i);
	r->pos = 0;
	r->mode = M_GAME;
	return r->fail ? -1 : 1;
}

/* Token b[s..i) of kind k on line 'line' (column s + cbase), for fast(). */
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
static int
lex_game(struct zh_pgn_reader *r)
{
	int rc, c;
	size_t i;

	for (;;) {
		if (r->err.code != ZH_OK) {
			rc = skip(r);
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
		    c != ';' && !(c == 0 && ATEND(r, i))) {
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
				synerr(r, ZH_ESYNTAX, r->line, colat(r, i),
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
				synerr(r, ZH_ELIMIT, r->line, colat(r, i),
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
				synerr(r, ZH_ESYNTAX, r->line, colat(r, i),
				    "unbalanced ')'");
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
				synerr(r, ZH_ESYNTAX, r->line, colat(r, i),
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
				rc = skip_escape(r);
			} else {
				synerr(r, ZH_ESYNTAX, r->line, colat(r, i),
				    "unexpected '%%' (escape lines start in column 1)");
				rc = 0;
			}
			break;
		case C_END:
			if (ATEND(r, i)) {
				rc = more(r);
				if (rc < 0)
					rc = r->fail ? -1 : 0;
				else
					rc = rc == 0;	/* end of input */
				break;
			}
			synerr(r, ZH_ESYNTAX, r->line, colat(r, i),
			    "binary NUL byte in input");
			rc = 0;
			break;
		case C_RBRACE:
		case C_RBRACK:
		case C_QUOTE:
			synerr(r, ZH_ESYNTAX, r->line, colat(r, i),
			    "unexpected '%c'", c);
			rc = 0;
			break;
		default:
			if (c >= ' ' && c < 0x7f)
				synerr(r, ZH_ESYNTAX, r->line, colat(r, i),
				    "unexpected '%c'", c);
			else
				synerr(r, ZH_ESYNTAX, r->line, colat(r, i),
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
		synerr(r, ZH_ESYNTAX, r->vstack[2 * r->depth - 2],
		    r->vstack[2 * r->depth - 1],
		    "missing ')' for the variation started at line %ld",
		    r->vstack[2 * r->depth - 2]);
	return 0;
}

/* The end of the game's raw bytes: its size. */
static inline size_t
rawend(struct zh_pgn_reader *r)
{
	const unsigned char *b = B(r);
	size_t end = r->truncated ? r->keep : r->pos, k;

	while (end > 0 && white(r, b[end - 1]))
		end--;
	/* every token text lies inside raw (a ';' comment keeps its blanks) */
	for (k = r->ntoks; k-- > 0;)
		if (!isstatic(&r->toks[k])) {
			size_t e = (size_t)(r->toks[k].text - (const char *)b) +
			    r->toks[k].len;

			if (end < e)
				end = e;
			break;
		}
	return end;
}

/*
 * Is there nothing but white space from r->pos to the end of the input?
 * (Not more than a chunk of it is looked at.)  A reader of bytes in
 * memory cannot know what follows them: it says the game was cut.
 */
static bool
at_end(struct zh_pgn_reader *r)
{
	size_t i = r->pos;
	int c;

	r->mode = M_BETWEEN;	/* more() as between games: no checks */
	while ((c = peek(r, i)) >= 0 && white(r, c))
		if (++i - r->pos > CHUNK)
			return false;
	if (c >= 0 || r->fail)
		return false;
	if (r->borrowed)
		r->cut = true;
	return true;
}

/*
 * A game read to its end: it is too long, or the input ends where its
 * termination marker should be (the file was cut).
 */
static void
game_end(struct zh_pgn_reader *r)
{
	if (r->truncated)
		trim(r);	/* the lexer may have gone on */
	else if (r->pos > r->lim.max_game && rawend(r) > r->lim.max_game)
		toolong(r);	/* (the game ends before r->pos) */
	if (r->err.code == ZH_OK && r->result == NULL && at_end(r)) {
		long line, col;

		place(r, rawend(r), &line, &col);
		synerr(r, ZH_ESYNTAX, line, col, "game truncated: the input "
		    "ends before its termination marker (1-0, 0-1, 1/2-1/2 "
		    "or *)");
	}
}

/* Hand the finished game to the caller. */
static void
finish(struct zh_pgn_reader *r, struct zh_game *g)
{
	const unsigned char *b = B(r);
	size_t end = rawend(r), k;

	for (k = 0; k < r->ntags; k++) {
		r->tags[k].name = r->strs + r->tagoff[2 * k];
		r->tags[k].value = r->strs + r->tagoff[2 * k + 1];
	}
	g->number = ++r->games;
	g->line = r->gline;
	g->tags = r->tags;
	g->ntags = r->ntags;
	g->toks = r->toks;
	g->ntoks = r->ntoks;
	g->result = r->result;
	g->raw = (const char *)b;
	g->rawlen = end;
	g->raw_truncated = r->truncated;
	g->err = r->err;
}

/* ==================== cutting a stream into pieces ==================== */

/* Is there a line "[Event " at b (n bytes)? */
static bool
event_at(const char *b, size_t n)
{
	return n >= 7 && memcmp(b, "[Event ", 7) == 0;
}

size_t
zh_pgn_cut(const char *b, size_t n)
{
	size_t k;

	for (k = n; k-- > 1;)
		if (b[k - 1] == '\n' && b[k] == '[' && event_at(b + k, n - k))
			return k;
	return 0;
}

void
zh_pgn_count(const char *b, size_t n, bool start, long *lines, long *events)
{
	const char *q = b, *end = b + n, *nl;
	long nls = 0, ev = 0;

	if (start && n >= 3 && memcmp(b, "\xef\xbb\xbf", 3) == 0)
		q += 3;
	if (event_at(q, (size_t)(end - q)))
		ev++;
	while ((nl = memchr(q, '\n', (size_t)(end - q))) != NULL) {
		nls++;
		q = nl + 1;
		if (q < end && *q == '[' && event_at(q, (size_t)(end - q)))
			ev++;
	}
	/* eol(): a CR alone ends a line too, CR LF is one line end */
	if (memchr(b, '\r', n) != NULL)
		for (q = b; q < end; q++)
			if (*q == '\r' && (q + 1 == end || q[1] != '\n'))
				nls++;
	*lines = nls;
	*events = ev;
}

/* ==================== public interface ==================== */

/* The limits (lim may be NULL) and the byte classes of a new reader. */
static void
setup(struct zh_pgn_reader *r, const struct zh_pgn_limits *lim)
{
	int c;

	r->lim = defaults;
	if (lim != NULL) {
		if (lim->max_game)
			r->lim.max_game = lim->max_game;
		if (lim->max_tag)
			r->lim.max_tag = lim->max_tag;
		if (lim->max_comment)
			r->lim.max_comment = lim->max_comment;
		if (lim->max_tags > 0)
			r->lim.max_tags = lim->max_tags;
		if (lim->max_plies > 0)
			r->lim.max_plies = lim->max_plies;
		if (lim->max_tokens > 0)
			r->lim.max_tokens = lim->max_tokens;
		if (lim->max_depth > 0)
			r->lim.max_depth = lim->max_depth;
	}
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
		r->cls[c] = (unsigned char)k;
		r->fl[c] = (unsigned char)((k == C_WORD && c < 0x80 ? F_WORD : 0) |
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

struct zh_pgn_reader *
zh_pgn_open(FILE *f, const struct zh_pgn_limits *lim)
{
	struct zh_pgn_reader *r;

	if (f == NULL || (r = calloc(1, sizeof *r)) == NULL)
		return NULL;
	r->f = f;
	setup(r, lim);
	r->cap = 4 * CHUNK + PAD;
	if ((r->buf = malloc(r->cap)) == NULL) {
		free(r);
		return NULL;
	}
	memset(r->buf, 0, PAD);
	r->line = 1;
	r->ccol = 1;
	r->fresh = true;
	return r;
}

struct zh_pgn_reader *
zh_pgn_mem(struct zh_pgn_reader *r, const char *buf, size_t len,
    const struct zh_pgn_limits *lim, long line, long games)
{
	size_t max_game = lim != NULL && lim->max_game ? lim->max_game :
	    defaults.max_game;

	/* The bytes are read in place and never written: only a game
	   longer than max_game is cut short in the buffer (skip()). */
	if (len >= max_game || buf == NULL)
		return NULL;
	if (r == NULL && (r = calloc(1, sizeof *r)) == NULL)
		return NULL;
	setup(r, lim);
	if (!r->borrowed)
		free(r->buf);
	r->borrowed = true;
	r->f = NULL;
	r->buf = (unsigned char *)(uintptr_t)buf;
	r->cap = r->len = len;
	r->gstart = r->pos = r->ccpos = 0;
	r->lbeg = 0;
	r->ccol = 1;
	r->line = line + 1;
	r->games = games;
	r->eof = true;
	r->fail = r->errnum = 0;
	r->mode = M_BETWEEN;
	r->cut = false;
	r->fresh = line == 0 && games == 0;
	memset(&r->skip, 0, sizeof r->skip);
	newgame(r);
	return r;
}

bool
zh_pgn_mem_clean(const struct zh_pgn_reader *r, long *line)
{
	*line = r->line - 1;
	return !r->cut && r->fail == 0;
}

void
zh_pgn_set_base(struct zh_pgn_reader *r, long line, long games)
{
	r->line = line + 1;
	r->games = games;
	r->fresh = line == 0 && games == 0;
}

int
zh_pgn_next(struct zh_pgn_reader *r, struct zh_game *g)
{
	int rc;

	memset(g, 0, sizeof *g);
	for (;;) {
		newgame(r);
		if (r->fail == 0) {
			rc = between(r);
			if (rc == 0)
				return 0;
			if (rc > 0) {
				r->gline = r->line;
				r->gcol = r->ccol;
				if (lex_game(r) == 0 && (r->ntags > 0 ||
				    r->has_moves))
					game_end(r);
			}
		}
		if (r->fail) {
			g->err.code = r->fail;
			g->err.line = r->line;
			if (r->fail == ZH_ECOMPRESSED)
				memcpy(g->err.text, r->err.text,
				    sizeof g->err.text);
			else if (r->fail == ZH_EIO)
				snprintf(g->err.text, sizeof g->err.text,
				    "read error: %s", strerror(r->errnum));
			else
				snprintf(g->err.text, sizeof g->err.text,
				    "out of memory");
			return -1;
		}
		/* Comments alone, outside any game, are not a game. */
		if (r->ntags > 0 || r->has_moves || r->err.code != ZH_OK)
			break;
	}
	finish(r, g);
	if (r->skip.lines > 0) {	/* g->skipped is zero */
		g->skipped = r->skip;
		memset(&r->skip, 0, sizeof r->skip);
	}
	return 1;
}

const struct zh_skip *
zh_pgn_tail(const struct zh_pgn_reader *r)
{
	return &r->skip;
}

const char *
zh_pgn_magic(const void *buf, size_t len)
{
	static const struct {
		const char *name, *magic;
		size_t len;
	} m[] = {
		{ "gzip", "\x1f\x8b", 2 },
		{ "zstd", "\x28\xb5\x2f\xfd", 4 },
		{ "zstd", "\x50\x2a\x4d\x18", 4 },	/* a skippable frame */
		{ "bzip2", "BZh", 3 },
		{ "xz", "\xfd" "7zXZ\0", 6 },
	};
	const unsigned char *b = buf;
	size_t k;

	for (k = 0; k < sizeof m / sizeof m[0]; k++)
		if (len >= m[k].len && memcmp(b, m[k].magic, m[k].len) == 0 &&
		    (k != 3 || (len > 3 && b[3] >= '1' && b[3] <= '9')))
			return m[k].name;
	return NULL;
}

const char *
zh_game_tag(const struct zh_game *g, const char *name)
{
	size_t k;

	for (k = 0; k < g->ntags; k++)
		if (g->tags[k].name[0] == name[0] &&
		    strcmp(g->tags[k].name, name) == 0)
			return g->tags[k].value;
	return NULL;
}

void
zh_pgn_close(struct zh_pgn_reader *r)
{
	if (r == NULL)
		return;
	if (!r->borrowed)
		free(r->buf);
	free(r->toks);
	free(r->toff);
	free(r->tags);
	free(r->tagoff);
	free(r->strs);
	free(r->vstack);
	free(r);
}
