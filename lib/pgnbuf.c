/*
 * pgnbuf.c - the PGN reader's buffer: input read into it (fill), bytes
 * past its end (more, peek), token and tag storage, syntax errors, and
 * the game size limit with the exact place of its error.  The bottom of
 * the reader: the lexer (pgnlex.c) and the game boundaries (pgn.c) call
 * it, it calls neither.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pgn_int.h"
#include "zh_int.h"

/* Glyphs converted to NAG text (! ? !! ?? !? ?!): static strings the
 * lexer hands out, which the buffer must not move. */
const char *const zh__pgn_nagtext[7] = {
	"$0", "$1", "$2", "$3", "$4", "$5", "$6"
};

/* ==================== errors ==================== */

/* Record the game's first error. */
void
zh__pgn_synerr(struct zh_pgn_reader *r, int code, long line, long col,
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
bool
zh__pgn_isstatic(const struct zh_token *t)
{
	size_t k;

	if (t->kind == ZH_T_NAG)
		for (k = 0; k < sizeof zh__pgn_nagtext /
		    sizeof zh__pgn_nagtext[0]; k++)
			if (t->text == zh__pgn_nagtext[k])
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
		r->toff[k] = zh__pgn_isstatic(&r->toks[k]) ? NOOFF :
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
int
zh__pgn_fill(struct zh_pgn_reader *r)
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
	errno = 0;
	n = r->read(r->ctx, (char *)r->buf + r->len, CHUNK);
	if (n == ZH_PGN_READ_ERROR) {
		r->errnum = errno != 0 ? errno : EIO;
		r->fail = ZH_EIO;
		memset(r->buf + r->len, 0, PAD);
		return -1;
	}
	if (n > CHUNK)		/* more than asked: a broken callback */
		n = CHUNK;
	r->len += n;
	memset(r->buf + r->len, 0, PAD);	/* the sentinel and padding */
	if (n > 0)
		return 1;
	r->eof = true;
	if (r->mode != M_BETWEEN)
		r->cut = true;
	return 0;
}

/*
 * All buffered bytes are scanned: get more.  Like fill(), and -2 while
 * reading a game that is in error (the lexer stops and skip() takes
 * over, bounding memory by itself) or that is found longer than max_game
 * (overlimit(); a comment or a blank run across the limit is read on).
 */
int
zh__pgn_more(struct zh_pgn_reader *r)
{
	if (r->mode == M_GAME) {
		if (r->err.code != ZH_OK)
			return -2;
		if (AVAIL(r) > r->lim.max_game &&
		    (zh__pgn_overlimit(r, r->pos) ||
		    AVAIL(r) - r->lim.max_game >= r->lim.max_comment + CHUNK)) {
			zh__pgn_toolong(r);
			return -2;
		}
	}
	return zh__pgn_fill(r);
}

/* Byte at relative offset i, reading on as needed; -1 if there is none. */
int
zh__pgn_peek_slow(struct zh_pgn_reader *r, size_t i)
{
	while (ATEND(r, i))
		if (zh__pgn_more(r) <= 0)
			return -1;
	return B(r)[i];
}


/* ==================== token and tag storage ==================== */

bool
zh__pgn_grow(void **p, size_t *cap, size_t need, size_t size)
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
int
zh__pgn_emit_slow(struct zh_pgn_reader *r, long line, long col)
{
	if ((long)r->ntoks >= r->lim.max_tokens) {
		zh__pgn_synerr(r, ZH_ELIMIT, line, col,
		    "too many movetext tokens (limit %ld)", r->lim.max_tokens);
		return -1;
	}
	if (!zh__pgn_grow((void **)&r->toks, &r->tokcap, r->ntoks + 1,
	    sizeof *r->toks) ||
	    !zh__pgn_grow((void **)&r->toff, &r->toffcap, r->ntoks + 1,
	    sizeof *r->toff)) {
		r->fail = ZH_ENOMEM;
		return -1;
	}
	r->tokroom = r->tokcap < r->toffcap ? r->tokcap : r->toffcap;
	if (r->tokroom > (size_t)r->lim.max_tokens)
		r->tokroom = (size_t)r->lim.max_tokens;
	return 0;
}

/* Reserve n bytes in the string arena; returns their offset or NOOFF. */
size_t
zh__pgn_salloc(struct zh_pgn_reader *r, size_t n)
{
	size_t off = r->slen;

	if (r->slen + n > r->scap &&
	    !zh__pgn_grow((void **)&r->strs, &r->scap, r->slen + n, 1)) {
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

/* Line and column of relative offset off, counted from the game's start. */
void
zh__pgn_place(struct zh_pgn_reader *r, size_t off, long *line, long *col)
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
bool
zh__pgn_overlimit(struct zh_pgn_reader *r, size_t e)
{
	const unsigned char *b = B(r);

	if (e <= r->lim.max_game)
		return false;
	if (e - r->lim.max_game >= r->lim.max_comment + CHUNK)
		return true;	/* a blank run that long: enough */
	while (e > r->lim.max_game && zh__pgn_white(r, b[e - 1]))
		e--;
	return e > r->lim.max_game;
}


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
void
zh__pgn_toolong(struct zh_pgn_reader *r)
{
	size_t keep = r->lim.max_game;
	long line, col;

	zh__pgn_place(r, keep, &line, &col);
	if (r->err.code == ZH_OK || !before(r->err.line, r->err.col, line,
	    col)) {
		r->err.code = ZH_OK;
		zh__pgn_synerr(r, ZH_ELIMIT, line, col,
		    "game too long (limit %zu bytes)", keep);
	}
	r->truncated = true;
	r->keep = keep;
	zh__pgn_trim(r);
}

/*
 * Forget the tokens and tags of a game over max_game from its byte
 * max_game + 1 on (and a token across it): how far the lexer got past
 * that byte depends on the buffer.
 */
void
zh__pgn_trim(struct zh_pgn_reader *r)
{
	size_t k, n, keep = r->keep;
	long line, col;

	zh__pgn_place(r, keep, &line, &col);
	for (k = 0; k < r->ntoks; k++) {
		const struct zh_token *t = &r->toks[k];

		if (!before(t->line, t->col, line, col) || (!zh__pgn_isstatic(t) &&
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
