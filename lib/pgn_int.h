/*
 * pgn_int.h - the PGN reader's state, shared by its two halves: pgn.c
 * (the input buffer, game boundaries, limits and the public interface)
 * and pgnlex.c (the lexer: tag pairs and movetext tokens of one game).
 * Not installed.  The helpers the lexer's hot loops call are inline here,
 * as they were beside them.
 */
#ifndef ZH_PGN_INT_H
#define ZH_PGN_INT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "zh.h"

#ifndef ZH_PGN_CHUNK	/* tests build with tiny reads to reach every refill */
#define ZH_PGN_CHUNK	(128u * 1024)
#endif
#define CHUNK		((size_t)ZH_PGN_CHUNK)	/* bytes asked of fread() at a time */
#define LOOK		256		/* lookahead to recognise a tag line */
#define MAXWORD		255		/* longest move or move number */
#define NOOFF		SIZE_MAX	/* token text is a static string */
#define PAD		ZH_PGN_PAD	/* zero bytes kept after the data */

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

/* Glyphs converted to NAG text: ! ? !! ?? !? ?! (pgnlex.c) */
extern const char *const zh__pgn_nagtext[7];

/* ==================== reader state ==================== */

struct zh_pgn_reader {
	size_t (*read)(void *ctx, char *buf, size_t n);	/* NULL: bytes in
				   memory (zh_pgn_mem) */
	void *ctx;
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

	/* JSON Lines input (jsonread.c) */
	bool json;		/* the stream is zhkit-json(5) game objects */
	void *jroot;		/* the line's parsed object (json_t), kept
				   for its strings until the next game */
	char *jlong;		/* the kept start of a line over max_game */
	const char *jline;	/* the line: where its moves stand ... */
	size_t jlen, jpos;	/* ... searched up to byte jpos, */
	long jcol;		/* in column jcol */
	/* the filter (zh_pgn_set_filter; pgnskip.c) */
	int (*filter)(void *, const struct zh_game *);
	void *farg;
	bool fpend;		/* not yet asked about the current game */
	int dropped;		/* its answer: the game is dropped */
	unsigned char stab[256];	/* the skip's byte classes */
};

enum { M_BETWEEN, M_GAME, M_SKIP };

#define B(r)		((r)->buf + (r)->gstart)
#define AVAIL(r)	((r)->len - (r)->gstart)
#define ATEND(r, i)	((r)->gstart + (i) >= (r)->len)

/* pgnbuf.c: errors, the input buffer, storage and the game size limit. */
void zh__pgn_synerr(struct zh_pgn_reader *, int, long, long, const char *, ...)
    __attribute__((format(printf, 5, 6)));
int zh__pgn_fill(struct zh_pgn_reader *);
int zh__pgn_more(struct zh_pgn_reader *);
int zh__pgn_peek_slow(struct zh_pgn_reader *, size_t);
int zh__pgn_emit_slow(struct zh_pgn_reader *, long, long);
bool zh__pgn_grow(void **, size_t *, size_t, size_t);
size_t zh__pgn_salloc(struct zh_pgn_reader *, size_t);
bool zh__pgn_overlimit(struct zh_pgn_reader *, size_t);
void zh__pgn_toolong(struct zh_pgn_reader *);
/* Line and column of offset off from the game's start. */
void zh__pgn_place(struct zh_pgn_reader *, size_t off, long *, long *);
/* Keep only an over-limit game's first max_game bytes (and its tokens
 * and tags before them). */
void zh__pgn_trim(struct zh_pgn_reader *);
/* Is the token's text a static string (a glyph's NAG)? */
bool zh__pgn_isstatic(const struct zh_token *);

/* jsonread.c: JSON Lines read back.  sniff: at the start of the stream,
 * is it JSON (r->json set)?  next: as zh_pgn_next(); free: its memory. */
bool zh__jsonread_sniff(struct zh_pgn_reader *);
int zh__jsonread_next(struct zh_pgn_reader *, struct zh_game *);
void zh__jsonread_free(struct zh_pgn_reader *);
/* pgnskip.c: the filter, and the movetext of a dropped game skipped.
 * zh__pgn_filter at the lexer's position: 0 to go on lexing, 1 if the
 * game was dropped and skipped to its end; zh__pgn_filter_tags asks
 * about a game that ends before its movetext. */
int zh__pgn_filter(struct zh_pgn_reader *);
void zh__pgn_filter_tags(struct zh_pgn_reader *, struct zh_game *);

/* pgnlex.c: the lexer. */
void zh__pgn_classes(unsigned char cls[256], unsigned char fl[256]);
int zh__pgn_skip_escape(struct zh_pgn_reader *);
int zh__pgn_lex_game(struct zh_pgn_reader *);

/* ==================== inline helpers ==================== */

/* A blank or a line end. */
static inline bool
zh__pgn_white(const struct zh_pgn_reader *r, int c)
{
	return r->cls[c] == C_SP || r->cls[c] == C_NL;
}

/* Byte at relative offset i, reading on as needed; -1 if there is none. */
static inline int
peek(struct zh_pgn_reader *r, size_t i)
{
	if (!ATEND(r, i))
		return B(r)[i];
	return zh__pgn_peek_slow(r, i);
}

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

/* Add a token; off is relative to gstart, or NOOFF with a static text. */
static inline int
emit(struct zh_pgn_reader *r, int kind, size_t off, size_t len,
    const char *stat, long line, long col)
{
	struct zh_token *t;

	if (r->ntoks >= r->tokroom && zh__pgn_emit_slow(r, line, col) < 0)
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

#endif /* ZH_PGN_INT_H */
