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
 *
 * This file holds where games start and end, the limits and the public
 * interface; pgnlex.c the lexer of one game's tag pairs and movetext;
 * pgnbuf.c the buffer, the storage and the game size limit under both;
 * pgn_int.h their shared state.  Functions named zh__pgn_* are shared
 * between them (fill() is zh__pgn_fill(), and so on).
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

/* ==================== limits ==================== */

static const struct zh_pgn_limits defaults = {
	.max_game = 16u << 20,
	.max_tag = 64u << 10,
	.max_comment = 1u << 20,
	.max_tags = 1000,
	.max_plies = 10000,
	.max_tokens = 1000000,
	.max_depth = 64,
};

static ZH_HOT_INLINE void
discard(struct zh_pgn_reader *r, size_t i)
{
	colat(r, i);
	r->gstart += i;
	r->lbeg -= (ptrdiff_t)i;
	r->ccpos = 0;
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
	r->fpend = r->filter != NULL;
	r->dropped = 0;
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
				if (zh__pgn_skip_escape(r) < 0)
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
			if ((c = zh__pgn_fill(r)) <= 0) {
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
static inline size_t
rawend(struct zh_pgn_reader *r)
{
	const unsigned char *b = B(r);
	size_t end = r->truncated ? r->keep : r->pos, k;

	while (end > 0 && zh__pgn_white(r, b[end - 1]))
		end--;
	/* every token text lies inside raw (a ';' comment keeps its blanks) */
	for (k = r->ntoks; k-- > 0;)
		if (!zh__pgn_isstatic(&r->toks[k])) {
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
	while ((c = peek(r, i)) >= 0 && zh__pgn_white(r, c))
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
		zh__pgn_trim(r);	/* the lexer may have gone on */
	else if (r->pos > r->lim.max_game && rawend(r) > r->lim.max_game)
		zh__pgn_toolong(r);	/* (the game ends before r->pos) */
	if (r->err.code == ZH_OK && r->result == NULL && at_end(r)) {
		long line, col;

		zh__pgn_place(r, rawend(r), &line, &col);
		zh__pgn_synerr(r, ZH_ESYNTAX, line, col,
		    "game truncated: the input ends before its termination "
		    "marker (1-0, 0-1, 1/2-1/2 or *)");
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
	if (r->fpend)
		zh__pgn_filter_tags(r, g);	/* a game without movetext */
	if (r->dropped) {	/* its movetext is neither kept nor checked */
		g->dropped = r->dropped;
		g->ntoks = 0;
		memset(&g->err, 0, sizeof g->err);
	}
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
	zh__pgn_classes(r->cls, r->fl);
}

/* The FILE reader's read function: fread, and ferror told as the
 * callback reader's error (errno is fread's). */
static size_t
file_read(void *ctx, char *buf, size_t n)
{
	FILE *f = ctx;
	size_t k = fread(buf, 1, n, f);

	return k == 0 && ferror(f) ? ZH_PGN_READ_ERROR : k;
}

struct zh_pgn_reader *
zh_pgn_open(FILE *f, const struct zh_pgn_limits *lim)
{
	return f == NULL ? NULL : zh_pgn_open_read(file_read, f, lim);
}

struct zh_pgn_reader *
zh_pgn_open_read(size_t (*read)(void *ctx, char *buf, size_t n), void *ctx,
    const struct zh_pgn_limits *lim)
{
	struct zh_pgn_reader *r;

	if (read == NULL || (r = calloc(1, sizeof *r)) == NULL)
		return NULL;
	r->read = read;
	r->ctx = ctx;
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
	r->read = NULL;
	r->ctx = NULL;
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
	r->json = false;
	zh__jsonread_free(r);
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
	if (r->json || (r->fresh && zh__jsonread_sniff(r)))
		return zh__jsonread_next(r, g);
	for (;;) {
		newgame(r);
		if (r->fail == 0) {
			rc = between(r);
			if (rc == 0)
				return 0;
			if (rc > 0) {
				r->gline = r->line;
				r->gcol = r->ccol;
				if (zh__pgn_lex_game(r) == 0 && (r->ntags > 0 ||
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

void
zh_pgn_set_filter(struct zh_pgn_reader *r,
    int (*fn)(void *arg, const struct zh_game *g), void *arg)
{
	r->filter = fn;
	r->farg = arg;
}

const struct zh_skip *
zh_pgn_tail(const struct zh_pgn_reader *r)
{
	return &r->skip;
}

/* The one table of the compressions' magic numbers (cli/codec.c reads
 * it too); a byte of 0 in mask[] takes any value. */
/* the table's name for buf[len]; with 'cut', for an input of len bytes
   that ends inside a magic number (at least 2 bytes of it, one of them
   not printable text, or bzip2's "BZh" whole: never a short text file) */
static const char *
magic_of(const void *buf, size_t len, bool cut)
{
	static const struct {
		const char *name, *magic, *mask;
		size_t len;
	} m[] = {
		{ "gzip", "\x1f\x8b", "\xff\xff", 2 },
		{ "zstd", "\x28\xb5\x2f\xfd", "\xff\xff\xff\xff", 4 },
		/* a skippable frame: 0x184D2A50 to 0x184D2A5F, little-endian */
		{ "zstd", "\x50\x2a\x4d\x18", "\xf0\xff\xff\xff", 4 },
		/* "BZh" and the block size, '1' to '9' (checked below) */
		{ "bzip2", "BZh", "\xff\xff\xff", 3 },
		{ "xz", "\xfd" "7zXZ\0", "\xff\xff\xff\xff\xff\xff", 6 },
	};
	const unsigned char *b = buf;
	size_t k, i;

	for (k = 0; k < sizeof m / sizeof m[0]; k++) {
		bool binary = false;

		if (cut ? len < 2 || len >= m[k].len + (k == 3) :
		    len < m[k].len)
			continue;
		for (i = 0; i < m[k].len && i < len; i++) {
			if ((b[i] & (unsigned char)m[k].mask[i]) !=
			    (unsigned char)m[k].magic[i])
				break;
			binary |= b[i] < 0x20 || b[i] >= 0x7f;
		}
		if (cut) {
			if (i == len && (binary || (k == 3 && len == 3)))
				return m[k].name;
		} else if (i == m[k].len && (k != 3 ||
		    (len > 3 && b[3] >= '1' && b[3] <= '9')))
			return m[k].name;
	}
	return NULL;
}

const char *
zh_pgn_magic(const void *buf, size_t len)
{
	return magic_of(buf, len, false);
}

const char *
zh_pgn_magic_cut(const void *buf, size_t len)
{
	return magic_of(buf, len, true);
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
	zh__jsonread_free(r);
	free(r);
}
