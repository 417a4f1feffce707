/*
 * fen.c - FEN and EPD in the dialects of Lichess, XBoard, chess.com and
 * Fairy-Stockfish.
 *
 * The reader takes every form any of them writes: the pocket as [..],
 * [-], [], a 9th '/' rank (BFEN), a bare trailing '/', chess.com's
 * trailing pocket and promoted-square fields, or no pocket at all; '~'
 * after promoted pieces; multi-digit empty runs; missing trailing fields.
 * Errors carry the 1-based column where the problem starts.
 *
 * The writers, one form per dialect, are in fenout.c.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zh_int.h"

/* A field separator: blank, tab, CR, LF or '_' (Lichess URLs). */
#define SEP(c) ((c) == ' ' || (unsigned char)((c) - '\t') <= '\r' - '\t' || \
    (c) == '_')
/* SEP() or the end, by table: the field splitter's inner loop. */
static const unsigned char sep_or_end[256] = {
	['\0'] = 1, [' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\v'] = 1,
	['\f'] = 1, ['\r'] = 1, ['_'] = 1,
};
/* ASCII digit, without the locale table lookup of isdigit(). */
#define DIGIT(c) ((unsigned)((unsigned char)(c) - '0') < 10)

static const char *const side_name[2] = { "White", "Black" };

/* zh__letter_type() as a table: the reader's inner loop. */
static const unsigned char letter_type[256] = {
	['P'] = ZH_PAWN, ['N'] = ZH_KNIGHT, ['B'] = ZH_BISHOP, ['R'] = ZH_ROOK,
	['Q'] = ZH_QUEEN, ['K'] = ZH_KING, ['A'] = ZH_ARCHBISHOP,
	['C'] = ZH_CHANCELLOR,
	['p'] = ZH_PAWN, ['n'] = ZH_KNIGHT, ['b'] = ZH_BISHOP, ['r'] = ZH_ROOK,
	['q'] = ZH_QUEEN, ['k'] = ZH_KING, ['a'] = ZH_ARCHBISHOP,
	['c'] = ZH_CHANCELLOR,
};
#define LETTER_TYPE(c)	((int)letter_type[(unsigned char)(c)])

static int
col_of(const char *base, const char *p)
{
	return (int)(p - base) + 1;
}

/* "'x'" for a printable ASCII byte, "byte 0xNN" for anything else. */
static const char *
byte_desc(int c, char buf[16])
{
	c &= 0xff;
	if (c > 0x20 && c < 0x7f)
		snprintf(buf, 16, "'%c'", c);
	else
		snprintf(buf, 16, "byte 0x%02x", c);
	return buf;
}

void
zh_pos_clear(struct zh_pos *p, const struct zh_variant *v)
{
	/* An empty board per thread and variant, copied: cheaper than
	   building one for every FEN read. */
	static _Thread_local struct zh_pos empty[16];
	static _Thread_local bool have[16];
	int r, i;

	if (v == NULL)
		v = zh_variant_default();
	i = (int)(v - zh_variants);
	if (i >= 0 && i < 16 && have[i]) {
		*p = empty[i];
		return;
	}
	memset(p, 0, sizeof *p);
	p->v = v;
	memset(p->sq, ZH_OFF, sizeof p->sq);
	for (r = 0; r < v->ranks; r++)
		memset(&p->sq[ZH_SQ(0, r)], 0, v->files);
	p->fullmove = 1;
	if (i >= 0 && i < 16) {
		empty[i] = *p;
		have[i] = true;
	}
}

void
zh_pos_start(struct zh_pos *p, const struct zh_variant *v)
{
	/* Parsed once per thread and variant: every game replay starts here. */
	static _Thread_local struct zh_pos cache[16];
	static _Thread_local bool cached[16];
	int i;

	if (v == NULL)
		v = zh_variant_default();
	for (i = 0; i < zh_nvariants && i < 16 && &zh_variants[i] != v; i++)
		;
	if (i < zh_nvariants && i < 16 && cached[i]) {
		*p = cache[i];
		return;
	}
	if (zh_fen_read(p, v->start, v, ZH_FEN_AUTO, 0, NULL) != 0)
		zh_pos_clear(p, v);	/* cannot happen: the table is tested */
	if (i < zh_nvariants && i < 16) {
		cache[i] = *p;
		cached[i] = true;
	}
}

/* ======================== reading ======================== */

struct fenin {
	const char *base;		/* the whole input, for columns */
	struct zh_error *err;
	int dialect;
	const char *pocket;		/* where the pocket text starts, if any */
};

/* Where the fields of a FEN were, so position errors can point at them. */
struct where {
	const char *base;		/* the whole input */
	const char *board, *board_end;	/* board field, with any pocket */
	const char *side;		/* side-to-move field, or NULL */
	const char *castle, *castle_end;	/* castling field, or NULL */
	const char *ep;			/* en passant field, or NULL */
};

static int check(const struct zh_pos *p, unsigned flags, struct zh_error *err,
    const struct where *w);

/* Could a pawn of the side not to move have just double-stepped over ep? */
static bool
ep_ok(const struct zh_pos *p, int ep)
{
	int them = !p->side, fwd = them == ZH_WHITE ? 16 : -16;
	int rel = them == ZH_WHITE ? ZH_RANK(ep) : p->v->ranks - 1 - ZH_RANK(ep);

	return rel == p->v->double_step + 1 && p->sq[ep] == 0 &&
	    p->sq[ep - fwd] == 0 &&
	    (p->sq[ep + fwd] & ~ZH_PROMOTED) == ZH_PIECE(them, ZH_PAWN);
}

static int
fail(struct fenin *in, const char *at, int code, const char *msg, ...)
    __attribute__((format(printf, 4, 5)));

static int
fail(struct fenin *in, const char *at, int code, const char *msg, ...)
{
	char buf[200];
	va_list ap;

	va_start(ap, msg);
	vsnprintf(buf, sizeof buf, msg, ap);
	va_end(ap);
	zh_error_set(in->err, code, at ? col_of(in->base, at) : 0, "%s", buf);
	return -1;
}

/* Read pocket letters in [s, e); counts like Cute Chess's "3P" allowed. */
static int
read_pocket(struct fenin *in, struct zh_pos *p, const char *s, const char *e)
{
	const char *q;
	int n;

	if (e - s == 1 && *s == '-')
		return 0;
	for (q = s; q < e; q++) {
		int t, c;

		n = 1;
		if (DIGIT(*q)) {
			const char *d = q;

			n = 0;
			while (q < e && DIGIT(*q) && n < 1000)
				n = n * 10 + (*q++ - '0');
			if (q == e || n == 0 || n > 64)
				return fail(in, d, ZH_ESYNTAX,
				    "pocket: bad piece count");
		}
		t = LETTER_TYPE(*q);
		if (*q == '-' && e - s > 1)
			return fail(in, q, ZH_ESYNTAX,
			    "pocket: '-' means an empty pocket and must stand alone");
		if (t == ZH_KING)
			return fail(in, q, ZH_ESYNTAX,
			    "pocket: '%c' is not allowed in a pocket", *q);
		if (t == ZH_EMPTY || !(p->v->types & ZH_TYPEBIT(t))) {
			char b[16];

			return fail(in, q, ZH_ESYNTAX,
			    "pocket: %s is not a piece of %s",
			    byte_desc(*q, b), p->v->name);
		}
		c = (*q >= 'A' && *q <= 'Z') ? ZH_WHITE : ZH_BLACK;
		if (p->pocket[c][t] + n > 200)
			return fail(in, q, ZH_ESYNTAX, "pocket: too many pieces");
		p->pocket[c][t] += n;
	}
	return 0;
}

/* The error of a rank that ends with f of its files, at its start. */
static int
rank_short(struct fenin *in, const struct zh_pos *p, const char *rank_start,
    int r, int f)
{
	return fail(in, rank_start, ZH_ESYNTAX,
	    "board: rank %d has %d squares, expected %d", r + 1, f,
	    p->v->files);
}

/* After the '/' that ends the last rank, at q: Lichess's 9th part. */
static int
board_slash_pocket(struct fenin *in, struct zh_pos *p, const char *q,
    const char *e)
{
	const char *pe = q;

	while (pe < e && *pe != '/')
		pe++;
	if (pe < e)
		return fail(in, pe, ZH_ESYNTAX,
		    "board: too many ranks (expected %d)", p->v->ranks);
	in->pocket = q;
	return read_pocket(in, p, q, e);
}

/* A '[' at q, on rank r after f files: the pocket up to ']' at e - 1. */
static int
board_bracket_pocket(struct fenin *in, struct zh_pos *p, const char *q,
    const char *e, int r, int f, const char *rank_start)
{
	const char *close = memchr(q, ']', (size_t)(e - q));

	if (r != 0 || f != p->v->files) {
		if (r > 0)
			return fail(in, q, ZH_ESYNTAX,
			    "board: %d ranks, expected %d",
			    p->v->ranks - r, p->v->ranks);
		return rank_short(in, p, rank_start, r, f);
	}
	if (close == NULL)
		return fail(in, q, ZH_ESYNTAX, "pocket: '[' without ']'");
	if (close + 1 != e)
		return fail(in, close + 1, ZH_ESYNTAX,
		    "unexpected text after the pocket");
	in->pocket = q;
	return read_pocket(in, p, q + 1, close);
}

/*
 * The piece letter at q on file f of rank r (bb: the bitboards are
 * kept).  Returns its square, or -1.
 */
static ZH_HOT_INLINE int
board_piece(struct fenin *in, struct zh_pos *p, const char *q, int f, int r,
    const char *rank_start, bool bb)
{
	const struct zh_variant *v = p->v;
	int c = (unsigned char)*q;
	int t = LETTER_TYPE(c);
	int color = (c >= 'A' && c <= 'Z') ? ZH_WHITE : ZH_BLACK;
	int sq;

	if (t == ZH_EMPTY || !(v->types & ZH_TYPEBIT(t))) {
		char b[16];

		return fail(in, q, ZH_ESYNTAX, "board: %s is not a piece of %s",
		    byte_desc(c, b), v->name);
	}
	if (f >= v->files)
		return fail(in, rank_start, ZH_ESYNTAX,
		    "board: rank %d has more than %d squares", r + 1, v->files);
	sq = ZH_SQ(f, r);
	p->sq[sq] = ZH_PIECE(color, t);
	p->count[color][t]++;
	if (bb) {
		p->bb_side[color] |= (uint64_t)1 << (r * 8 + f);
		p->bb_type[t] |= (uint64_t)1 << (r * 8 + f);
	}
	if (t == ZH_KING) {
		if (p->king[color] == ZH_NOSQ)
			p->king[color] = (unsigned char)sq;
		else
			p->king[color] = 0xfe;	/* several */
	}
	return sq;
}

/*
 * Board field: ranks from the top, then an optional pocket.  'end' is
 * the end of the field.  Sets *had_pocket when a pocket form was seen.
 */
static int
read_board(struct fenin *in, struct zh_pos *p, const char *s, const char *e,
    bool *had_pocket)
{
	const struct zh_variant *v = p->v;
	int r = v->ranks - 1, f = 0, last = -1;
	const char *q = s, *rank_start = s;
	bool bb = v->files == 8 && v->ranks == 8;	/* bitboards kept */

	*had_pocket = false;
	while (q < e) {
		int c = (unsigned char)*q;

		if (c == '/') {
			if (f != v->files)
				return rank_short(in, p, rank_start, r, f);
			q++;
			if (r == 0) {
				*had_pocket = true;
				return board_slash_pocket(in, p, q, e);
			}
			r--;
			f = 0;
			last = -1;
			rank_start = q;
		} else if (c == '[') {
			*had_pocket = true;	/* (an error otherwise) */
			return board_bracket_pocket(in, p, q, e, r, f,
			    rank_start);
		} else if (DIGIT(c)) {
			int n = 0;

			while (q < e && DIGIT(*q) && n < 100)
				n = n * 10 + (*q++ - '0');
			if (n == 0 || f + n > v->files)
				return fail(in, rank_start, ZH_ESYNTAX,
				    "board: rank %d has more than %d squares",
				    r + 1, v->files);
			f += n;
			last = -1;
		} else if (c == '~') {
			if (last < 0)
				return fail(in, q, ZH_ESYNTAX,
				    "board: '~' must follow a piece");
			if (ZH_TYPE(p->sq[last]) != ZH_PAWN &&
			    ZH_TYPE(p->sq[last]) != ZH_KING)
				p->sq[last] |= ZH_PROMOTED;
			last = -1;
			q++;
		} else {
			if ((last = board_piece(in, p, q, f, r, rank_start,
			    bb)) < 0)
				return -1;
			f++;
			q++;
		}
	}
	if (r > 0)
		return fail(in, q, ZH_ESYNTAX, "board: %d ranks, expected %d",
		    v->ranks - r, v->ranks);
	if (f != v->files)
		return rank_short(in, p, rank_start, r, f);
	return 0;
}

/* Parse a square name like "e3" or "j10" in [s, e); -1 if not one. */
static int
read_square(const struct zh_pos *p, const char *s, const char *e, int zero_based)
{
	int f, r = 0;
	const char *q;

	if (e - s < 2 || e - s > 3 || *s < 'a' || *s >= 'a' + p->v->files)
		return -1;
	f = *s - 'a';
	for (q = s + 1; q < e; q++) {
		if (!DIGIT(*q))
			return -1;
		r = r * 10 + (*q - '0');
	}
	if (!zero_based)
		r--;
	if (r < 0 || r >= p->v->ranks || (s[1] == '0' && e - s == 3))
		return -1;
	return ZH_SQ(f, r);
}

static int
read_number(struct fenin *in, const char *s, const char *e, const char *what,
    unsigned max, unsigned *out)
{
	unsigned long n = 0;
	const char *q;

	for (q = s; q < e; q++) {
		if (!DIGIT(*q))
			return fail(in, s, ZH_ESYNTAX, "%s: '%.*s' is not a number",
			    what, (int)(e - s > 20 ? 20 : e - s), s);
		n = n * 10 + (unsigned long)(*q - '0');
		if (n > max)
			return fail(in, s, ZH_ESYNTAX,
			    "%s: %.*s is out of range (0-%u)", what,
			    (int)(e - s > 20 ? 20 : e - s), s, max);
	}
	*out = (unsigned)n;
	return 0;
}

/*
 * The clocks an EPD gives as operations from q to the end of the text:
 * "hmvc 3;" the halfmove clock, "fmvn 7;" the fullmove number (as
 * python-chess reads them); the others are skipped, a quoted operand
 * whole (it may hold a ';').
 */
static int
epd_clocks(struct fenin *in, struct zh_pos *p, const char *q)
{
	while (*q != '\0') {
		const char *op, *ope, *a, *e;
		bool quoted = false;
		unsigned n;

		while (*q == ' ' || *q == '\t' || *q == ';')
			q++;
		if (*q == '\0')
			break;
		op = q;
		while (*q != '\0' && *q != ' ' && *q != '\t' && *q != ';')
			q++;
		ope = q;
		while (*q == ' ' || *q == '\t')
			q++;
		a = q;
		for (; *q != '\0' && (quoted || *q != ';'); q++)
			if (*q == '"')
				quoted = !quoted;
			else if (*q == '\\' && quoted && q[1] != '\0')
				q++;
		for (e = q; e > a && (e[-1] == ' ' || e[-1] == '\t'); e--)
			;
		if (ope - op != 4 || (memcmp(op, "hmvc", 4) != 0 &&
		    memcmp(op, "fmvn", 4) != 0))
			continue;
		if (a == e)
			return fail(in, op, ZH_ESYNTAX, "EPD %.4s: no number",
			    op);
		if (op[0] == 'h') {
			if (read_number(in, a, e, "EPD hmvc (halfmove clock)",
			    100000, &p->halfmove) != 0)
				return -1;
		} else {
			if (read_number(in, a, e, "EPD fmvn (fullmove number)",
			    1000000, &n) != 0)
				return -1;
			p->fullmove = n == 0 ? 1 : n;
		}
	}
	return 0;
}

static bool
all_pocket_letters(const char *s, const char *e)
{
	if (e - s == 1 && *s == '-')
		return true;
	for (; s < e; s++)
		if (LETTER_TYPE(*s) == ZH_EMPTY || LETTER_TYPE(*s) == ZH_KING)
			return false;
	return true;
}

#define MAXFIELDS 16

/* The fields of a FEN: [s[i], e[i]) for i < n. */
struct fields {
	const char *s[MAXFIELDS], *e[MAXFIELDS];
	int n;
	bool ops_tail;			/* more fields: long EPD operations */
};

/* At most the first 10 bytes of field i, for messages. */
#define FIELD10(fl, i)	(int)((fl)->e[i] - (fl)->s[i] > 10 ? 10 : \
    (fl)->e[i] - (fl)->s[i]), (fl)->s[i]

/* Split s into fields on blanks and '_' (Lichess URLs). */
static int
split_fields(struct fenin *in, const char *s, struct fields *fl)
{
	const char *q;

	fl->n = 0;
	fl->ops_tail = false;
	for (q = s; *q != '\0'; ) {
		while (SEP(*q))
			q++;
		if (*q == '\0')
			break;
		if (fl->n == MAXFIELDS) {
			if (strchr(q, ';') == NULL)
				return fail(in, q, ZH_ESYNTAX,
				    "too many fields (at most %d)", MAXFIELDS);
			fl->ops_tail = true;	/* long EPD operations */
			break;
		}
		fl->s[fl->n] = q;
		while (!sep_or_end[(unsigned char)*q])
			q++;
		fl->e[fl->n++] = q;
	}
	if (fl->n == 0)
		return fail(in, s, ZH_ESYNTAX, "empty FEN");
	return 0;
}

/* No variant given: 10 ranks are the 10-rank drop game. */
static const struct zh_variant *
board_variant(const char *s, const char *e)
{
	int slashes = 0;

	for (; s < e && *s != '['; s++)
		slashes += *s == '/';
	return slashes >= 9 ? zh_variant_guess(10, true) :
	    zh_variant_default();
}

static int
read_side(struct fenin *in, struct zh_pos *p, const struct fields *fl)
{
	const char *s = fl->s[1];

	if (fl->e[1] - s != 1 || (*s != 'w' && *s != 'b' && *s != 'W' &&
	    *s != 'B'))
		return fail(in, s, ZH_ESYNTAX,
		    "side to move: '%.*s' is not w or b", FIELD10(fl, 1));
	p->side = (*s | 0x20) == 'w' ? ZH_WHITE : ZH_BLACK;
	return 0;
}

static int
read_castling(struct fenin *in, struct zh_pos *p, const char *s,
    const char *e)
{
	const char *q;

	for (q = s; q < e; q++) {
		unsigned bit;
		char b[16];

		switch (*q) {
		case 'K': case 'H': bit = ZH_CASTLE_WK; break;
		case 'Q': case 'A': bit = ZH_CASTLE_WQ; break;
		case 'k': case 'h': bit = ZH_CASTLE_BK; break;
		case 'q': case 'a': bit = ZH_CASTLE_BQ; break;
		default:
			if ((*q >= 'B' && *q <= 'G') || (*q >= 'b' && *q <= 'g'))
				return fail(in, q, ZH_EVARIANT,
				    "castling: '%c': Chess960 castling is not supported",
				    *q);
			return fail(in, q, ZH_ESYNTAX,
			    "castling: %s is not K, Q, k, q or -",
			    byte_desc(*q, b));
		}
		if (p->castle & bit)
			return fail(in, q, ZH_ESYNTAX,
			    "castling: '%c' given twice", *q);
		p->castle |= bit;
	}
	return 0;
}

/* The en passant field (field 3) of the FEN s in dialect d. */
static int
read_ep(struct fenin *in, struct zh_pos *p, const struct fields *fl,
    const char *s, int d)
{
	const struct zh_variant *v = p->v;
	/* XBoard numbers the ranks of 10-rank boards from 0. */
	int zero = v->ranks == 10 && zh__dialect(d == ZH_AUTO ?
	    zh_fen_dialect(s, v) : d, ZH_AUTO)->rank0_10;
	int sq = read_square(p, fl->s[3], fl->e[3], zero);

	if (v->ranks == 10 && d == ZH_AUTO && (sq < 0 || !ep_ok(p, sq))) {
		int alt = read_square(p, fl->s[3], fl->e[3], !zero);

		if (alt >= 0 && (sq < 0 || ep_ok(p, alt)))
			sq = alt;
	}
	if (sq < 0)
		return fail(in, fl->s[3], ZH_ESYNTAX,
		    "en passant: '%.*s' is not a square or -", FIELD10(fl, 3));
	p->ep = (unsigned char)sq;
	return 0;
}

/*
 * EPD operations ("bm e4; id \"x\";") after the fields are ignored but
 * for the clocks of an EPD (four fields): hmvc and fmvn.  Drops them
 * from fl; a three-check counter left is an error.
 */
static int
epd_ops(struct fenin *in, struct zh_pos *p, struct fields *fl)
{
	int i, j;

	for (i = 4; i < fl->n; i++) {
		if (!isalpha((unsigned char)*fl->s[i]))
			continue;
		for (j = i; j < fl->n && memchr(fl->s[j], ';',
		    (size_t)(fl->e[j] - fl->s[j])) == NULL; j++)
			;
		if (j < fl->n || fl->ops_tail) {
			if (i == 4 && epd_clocks(in, p, fl->s[i]) != 0)
				return -1;
			fl->n = i;
			break;
		}
	}
	for (i = 4; i < fl->n; i++)
		if (memchr(fl->s[i], '+', (size_t)(fl->e[i] - fl->s[i])) != NULL)
			return fail(in, fl->s[i], ZH_EVARIANT,
			    "'%.*s' is a three-check counter; three-check is "
			    "not a zhkit variant", FIELD10(fl, i));
	return 0;
}

/*
 * The clocks, fields 4 and 5, unless chess.com's EPD has its pocket
 * there.  Returns the field a chess.com pocket would be in (4 or 6), or
 * -1.
 */
static int
read_clocks(struct fenin *in, struct zh_pos *p, const struct fields *fl)
{
	const int nf = fl->n;
	int pf;

	/* chess.com's EPD: no clocks, its pocket right after the four fields */
	pf = nf > 4 && !DIGIT(*fl->s[4]) &&
	    all_pocket_letters(fl->s[4], fl->e[4]) &&
	    (nf == 5 || !DIGIT(*fl->s[5])) ? 4 : 6;
	if (pf > 4 && nf > 4 && read_number(in, fl->s[4], fl->e[4],
	    "halfmove clock", 100000, &p->halfmove) != 0)
		return -1;
	if (pf > 5 && nf > 5) {
		if (read_number(in, fl->s[5], fl->e[5], "fullmove number",
		    1000000, &p->fullmove) != 0)
			return -1;
		if (p->fullmove == 0)
			p->fullmove = 1;
	}
	return pf;
}

/* chess.com's promoted squares in [s, e), run together or with commas. */
static int
read_promoted(struct fenin *in, struct zh_pos *p, const char *s,
    const char *e)
{
	const char *q, *n;
	int sq;

	for (q = s; q < e; q = n) {
		n = q + 1;
		if (*q == ',')
			continue;
		while (n < e && DIGIT(*n))
			n++;
		sq = read_square(p, q, n, 0);
		if (sq < 0)
			return fail(in, q, ZH_ESYNTAX,
			    "promoted squares: '%.*s' is not a square",
			    (int)(n - q > 10 ? 10 : n - q), q);
		if (p->sq[sq] == 0 || ZH_TYPE(p->sq[sq]) == ZH_PAWN ||
		    ZH_TYPE(p->sq[sq]) == ZH_KING)
			return fail(in, q, ZH_EPOSITION,
			    "promoted squares: no promotable piece on %.*s",
			    (int)(n - q), q);
		p->sq[sq] |= ZH_PROMOTED;
	}
	return 0;
}

/* chess.com: the pocket in field pf, then the promoted squares. */
static int
read_chesscom(struct fenin *in, struct zh_pos *p, const struct fields *fl,
    int pf, bool had_pocket)
{
	const char *s = fl->s[pf], *e = fl->e[pf];
	int i;

	if (!all_pocket_letters(s, e))
		return fail(in, s, ZH_ESYNTAX,
		    "unexpected field '%.*s' (a chess.com pocket has "
		    "only piece letters)",
		    (int)(e - s > 20 ? 20 : e - s), s);
	if (had_pocket)
		return fail(in, s, ZH_ESYNTAX,
		    "a second pocket (one was given with the board)");
	if (read_pocket(in, p, s, e) != 0)
		return -1;
	in->pocket = s;
	for (i = pf + 1; i < fl->n; i++)
		if (read_promoted(in, p, fl->s[i], fl->e[i]) != 0)
			return -1;
	return 0;
}

/* A pocket given for a variant without drops must be empty. */
static int
no_pockets(struct fenin *in, const struct zh_pos *p, const char *board)
{
	int c, t;

	for (c = 0; c < 2; c++)
		for (t = 0; t < ZH_NTYPES; t++)
			if (p->pocket[c][t])
				return fail(in, in->pocket ? in->pocket : board,
				    ZH_EPOSITION, "pocket: %s has no pockets",
				    p->v->name);
	return 0;
}

int
zh_fen_read(struct zh_pos *p, const char *s, const struct zh_variant *v,
    int d, unsigned flags, struct zh_error *err)
{
	struct fenin in = { s, err, d, NULL };
	struct fields fl;
	struct where w = { s, NULL, NULL, NULL, NULL, NULL, NULL };
	int nf, pf;
	bool had_pocket;

	if (split_fields(&in, s, &fl) != 0)
		return -1;
	nf = fl.n;
	if (v == NULL)
		v = board_variant(fl.s[0], fl.e[0]);
	zh_pos_clear(p, v);
	p->king[0] = p->king[1] = ZH_NOSQ;
	if (read_board(&in, p, fl.s[0], fl.e[0], &had_pocket) != 0)
		return -1;
	p->side = ZH_WHITE;
	if (nf > 1 && read_side(&in, p, &fl) != 0)
		return -1;
	if (nf > 2 && !(fl.e[2] - fl.s[2] == 1 && *fl.s[2] == '-') &&
	    read_castling(&in, p, fl.s[2], fl.e[2]) != 0)
		return -1;
	p->ep = ZH_NOSQ;
	if (nf > 3 && !(fl.e[3] - fl.s[3] == 1 && *fl.s[3] == '-') &&
	    read_ep(&in, p, &fl, s, d) != 0)
		return -1;
	if (epd_ops(&in, p, &fl) != 0 || (pf = read_clocks(&in, p, &fl)) < 0)
		return -1;
	if (fl.n > pf) {
		if (read_chesscom(&in, p, &fl, pf, had_pocket) != 0)
			return -1;
		had_pocket = true;
	}
	if (had_pocket && !v->drops && no_pockets(&in, p, fl.s[0]) != 0)
		return -1;
	w.board = fl.s[0];
	w.board_end = fl.e[0];
	if (nf > 1)
		w.side = fl.s[1];
	if (nf > 2) {
		w.castle = fl.s[2];
		w.castle_end = fl.e[2];
	}
	if (nf > 3)
		w.ep = fl.s[3];
	if (check(p, flags, err, &w) != 0)
		return -1;
	return 0;		/* check flag 0: computed when asked */
}

/* ======================== checking ======================== */

/* Column of the board text that holds square sq (board field start if none). */
static long
square_col(const struct where *w, const struct zh_variant *v, int sq)
{
	const char *q;
	int r = v->ranks - 1, f = 0;

	if (w == NULL)
		return 1;
	for (q = w->board; q < w->board_end && *q != '[' && r >= 0; q++) {
		if (*q == '/') {
			r--;
			f = 0;
		} else if (DIGIT(*q)) {
			int n = 0;

			while (q < w->board_end && DIGIT(*q))
				n = n * 10 + (*q++ - '0');
			q--;
			f += n;
		} else if (*q != '~') {
			if (ZH_SQ(f, r) == sq)
				return col_of(w->base, q);
			f++;
		}
	}
	return col_of(w->base, w->board);
}

/* Column of the n-th (1-based) letter ch on the board, or the board's. */
static long
letter_col(const struct where *w, const struct zh_variant *v, int ch, int n)
{
	const char *q;
	int slashes = 0;

	if (w == NULL)
		return 1;
	for (q = w->board; q < w->board_end && *q != '['; q++) {
		if (*q == '/' && ++slashes == v->ranks)
			break;
		if (*q == ch && --n == 0)
			return col_of(w->base, q);
	}
	return col_of(w->base, w->board);
}

/* Column of the first castling letter in 'set', else of the field. */
static long
castle_col(const struct where *w, const char *set)
{
	const char *q;

	if (w == NULL || w->castle == NULL)
		return w == NULL ? 1 : col_of(w->base, w->board);
	for (q = w->castle; q < w->castle_end; q++)
		if (strchr(set, *q) != NULL)
			return col_of(w->base, q);
	return col_of(w->base, w->castle);
}

static const char *const type_names[ZH_NTYPES] = { "", "pawns", "knights",
    "bishops", "rooks", "queens", "kings", "archbishops", "chancellors" };

/*
 * The pieces of each type in p, and in the variant's start position, by
 * pool: a side's own (pool 0 white, 1 black), or one pool for both sides
 * when captured pieces change sides (drops), the pockets in it.  A piece
 * marked promoted counts as the pawn it was.
 */
static void
material_count(const struct zh_pos *p, unsigned have[2][ZH_NTYPES],
    unsigned start[2][ZH_NTYPES])
{
	const struct zh_variant *v = p->v;
	const char *s;
	int r, f, c, t;

	for (s = v->start; *s && *s != ' ' && *s != '['; s++)
		if ((t = LETTER_TYPE(*s)) != ZH_EMPTY)
			start[v->drops ? 0 : !isupper((unsigned char)*s)][t]++;
	for (r = 0; r < v->ranks; r++)
		for (f = 0; f < v->files; f++) {
			unsigned char pc = p->sq[ZH_SQ(f, r)];

			if (pc == 0)
				continue;
			have[v->drops ? 0 : ZH_COLOR(pc)]
			    [(pc & ZH_PROMOTED) ? ZH_PAWN : ZH_TYPE(pc)]++;
		}
	for (c = 0; c < 2 && v->drops; c++)
		for (t = 1; t < ZH_NTYPES; t++)
			have[0][t] += p->pocket[c][t];
}

/*
 * Material no game from the start position can reach (ZH_FEN_STRICT):
 * more pawns or kings than at the start; more pawns and promoted pieces
 * (those beyond the start's count of their type) than the start's pawns;
 * and where a captured promoted piece goes to hand as a pawn (crazyhouse),
 * an unmarked piece beyond the start's count at all.
 */
static int
material(const struct zh_pos *p, long col, struct zh_error *err)
{
	static const char *const who[2] = { "White has ", "Black has " };
	unsigned have[2][ZH_NTYPES] = { { 0 } }, start[2][ZH_NTYPES] = { { 0 } };
	unsigned extra;
	int k, t;
	const bool pooled = p->v->drops;

	material_count(p, have, start);
	for (k = 0; k < (pooled ? 1 : 2); k++) {
		extra = 0;
		for (t = 1; t < ZH_NTYPES; t++) {
			if (have[k][t] <= start[k][t])
				continue;
			if (t == ZH_PAWN || t == ZH_KING || p->v->demote) {
				zh_error_set(err, ZH_EPOSITION, col,
				    "material: %s%u %s%s, the start position "
				    "has %u%s", pooled ? "" : who[k],
				    have[k][t], type_names[t], pooled ?
				    " on the board and in the pockets" : "",
				    start[k][t], t == ZH_PAWN ? " (promoted "
				    "pieces count as pawns)" : "");
				return -1;
			}
			extra += have[k][t] - start[k][t];
		}
		if (have[k][ZH_PAWN] + extra > start[k][ZH_PAWN]) {
			zh_error_set(err, ZH_EPOSITION, col,
			    "material: %s%u pawns and %u promoted pieces (beyond "
			    "the start position's count of their type), more "
			    "than the %u pawns of the start position", pooled ?
			    "the board and the pockets hold " : who[k],
			    have[k][ZH_PAWN], extra, start[k][ZH_PAWN]);
			return -1;
		}
	}
	return 0;
}

int
zh_pos_check(const struct zh_pos *p, unsigned flags, struct zh_error *err)
{
	return check(p, flags, err, NULL);
}

/*
 * The position layer of validation.  With 'w' (the text it was read
 * from) each error points at the square, letter or field at fault;
 * without, at column 1.
 */
static int
check(const struct zh_pos *p, unsigned flags, struct zh_error *err,
    const struct where *w)
{
	const struct zh_variant *v = p->v;
	long board_col = w ? col_of(w->base, w->board) : 1;
	int c, f, r;
	char name[4];

	for (c = 0; c < 2; c++) {
		if (p->count[c][ZH_KING] == 0) {
			zh_error_set(err, ZH_EPOSITION, board_col,
			    "board: %s has no king", side_name[c]);
			return -1;
		}
		if (p->count[c][ZH_KING] > 1) {
			zh_error_set(err, ZH_EPOSITION,
			    letter_col(w, v, c ? 'k' : 'K', 2),
			    "board: %s has %d kings", side_name[c],
			    p->count[c][ZH_KING]);
			return -1;
		}
	}
	/* Only the first and last ranks can hold a misplaced pawn. */
	for (r = 0; r < v->ranks; r += v->ranks - 1)
		for (f = 0; f < v->files; f++) {
			unsigned char pc = p->sq[ZH_SQ(f, r)];
			int rel;

			if (ZH_TYPE(pc) != ZH_PAWN)
				continue;
			c = ZH_COLOR(pc);
			rel = c == ZH_WHITE ? r : v->ranks - 1 - r;
			if (rel == v->ranks - 1 ||
			    (rel == 0 && !(v->drops && v->pawn_drop_lo <= 0))) {
				zh__square_write(ZH_SQ(f, r), name);
				zh_error_set(err, ZH_EPOSITION,
				    square_col(w, v, ZH_SQ(f, r)),
				    "board: %s pawn on %s: pawns cannot stand on "
				    "rank %d in %s", side_name[c], name, r + 1,
				    v->name);
				return -1;
			}
		}
	if (zh_attacked(p, p->king[!p->side], p->side)) {
		zh_error_set(err, ZH_EPOSITION,
		    square_col(w, v, p->king[!p->side]),
		    "board: %s is in check, but it is %s's move",
		    side_name[!p->side], side_name[p->side]);
		return -1;
	}
	if (p->castle && !v->castling) {
		zh_error_set(err, ZH_EPOSITION, castle_col(w, "KQkqHAha"),
		    "castling: rights given, but %s has no castling", v->name);
		return -1;
	}
	/* ZH_EVARIANT: such rights would be Chess960's, which zhkit lacks. */
	for (c = 0; c < 2 && p->castle; c++) {
		int br = c == ZH_WHITE ? 0 : v->ranks - 1;
		unsigned ks = c == ZH_WHITE ? ZH_CASTLE_WK : ZH_CASTLE_BK;
		unsigned qs = c == ZH_WHITE ? ZH_CASTLE_WQ : ZH_CASTLE_BQ;
		int rook = ZH_PIECE(c, ZH_ROOK);

		if ((p->castle & (ks | qs)) && p->king[c] != ZH_SQ(4, br)) {
			zh_error_set(err, ZH_EVARIANT,
			    castle_col(w, c ? "kqha" : "KQHA"),
			    "castling: rights for %s, but its king is not on e%d",
			    side_name[c], br + 1);
			return -1;
		}
		if ((p->castle & ks) &&
		    (p->sq[ZH_SQ(v->files - 1, br)] & ~ZH_PROMOTED) != rook) {
			zh_error_set(err, ZH_EVARIANT, castle_col(w, c ? "kh" : "KH"),
			    "castling: right %c, but no %s rook on %c%d",
			    c ? 'k' : 'K', side_name[c], 'a' + v->files - 1, br + 1);
			return -1;
		}
		if ((p->castle & qs) &&
		    (p->sq[ZH_SQ(0, br)] & ~ZH_PROMOTED) != rook) {
			zh_error_set(err, ZH_EVARIANT, castle_col(w, c ? "qa" : "QA"),
			    "castling: right %c, but no %s rook on a%d",
			    c ? 'q' : 'Q', side_name[c], br + 1);
			return -1;
		}
	}
	if (p->ep != ZH_NOSQ) {
		int them = !p->side;

		zh__square_write(p->ep, name);
		if (!ep_ok(p, p->ep)) {
			zh_error_set(err, ZH_EPOSITION,
			    w && w->ep ? col_of(w->base, w->ep) : 1,
			    "en passant: %s, but no %s pawn can have just "
			    "double-stepped over it", name, side_name[them]);
			return -1;
		}
	}
	if ((flags & ZH_FEN_STRICT) && material(p, board_col, err) != 0)
		return -1;
	return 0;
}

/* ======================== dialect detection ======================== */

/* Rank of a pocket letter in the PNBRQAC order, -1 if not one. */
static int
pocket_rank(int c)
{
	static const char order[] = "PNBRQAC";
	const char *q = c ? strchr(order, toupper((unsigned char)c)) : NULL;

	return q ? (int)(q - order) : -1;
}

/* Do the letters of [s, e) run white then black, each ascending (dir 1)
   or descending (dir -1)? */
static bool
pocket_in_order(const char *s, const char *e, int dir)
{
	int last = -1, colour = ZH_WHITE;

	for (; s < e; s++) {
		int c = isupper((unsigned char)*s) ? ZH_WHITE : ZH_BLACK;
		int k = pocket_rank(*s);

		if (k < 0)
			return false;
		if (c != colour) {
			if (c == ZH_WHITE)
				return false;
			colour = c;
			last = -1;
		}
		k = dir > 0 ? k : 6 - k;
		if (k < last)
			return false;
		last = k;
	}
	return true;
}

int
zh_fen_dialect(const char *s, const struct zh_variant *v)
{
	const char *q, *b, *be, *open = NULL, *f5 = NULL, *f5e = NULL;
	int slashes = 0, nf = 0, ranks;
	bool ops = false;

	for (b = s; *b == ' ' || *b == '\t' || *b == '_'; b++)
		;
	for (be = b; *be && *be != ' ' && *be != '\t' && *be != '_' &&
	    *be != '\r' && *be != '\n'; be++) {
		if (*be == '[' && open == NULL)
			open = be;
		if (open == NULL)
			slashes += *be == '/';
	}
	ranks = v != NULL ? v->ranks : slashes >= 9 ? 10 : 8;
	for (q = b; *q; ) {
		while (*q == ' ' || *q == '\t' || *q == '_' || *q == '\r' ||
		    *q == '\n')
			q++;
		if (*q == '\0')
			break;
		if (++nf == 5)
			f5 = q;
		else if (nf == 6 && DIGIT(*q))
			f5 = NULL;	/* a clock: not an EPD */
		while (*q && *q != ' ' && *q != '\t' && *q != '_' &&
		    *q != '\r' && *q != '\n') {
			ops |= *q == ';' || *q == '+';
			q++;
		}
		if (nf == 5)
			f5e = q;
	}
	/* its FEN (seven or eight fields), or its EPD (five or six) */
	if (!ops && (nf >= 7 || (nf >= 5 && nf <= 6 && f5 != NULL &&
	    open == NULL && !DIGIT(*f5) && all_pocket_letters(f5, f5e))))
		return zh__dialect_by_form(ZH_POCKET_FIELD, -1, -1);
	if (open != NULL) {
		const char *close = memchr(open, ']', (size_t)(be - open));

		if (close == NULL)
			return ZH_AUTO;
		if (close - open == 2 && open[1] == '-')	/* "[-]" */
			return zh__dialect_by_form(ZH_POCKET_BRACKET, 1, -1);
		/* in PNBRQ order only: the writer that orders so */
		return zh__dialect_by_form(ZH_POCKET_BRACKET, -1,
		    !(pocket_in_order(open + 1, close, 1) &&
		    !pocket_in_order(open + 1, close, -1)));
	}
	if (slashes == ranks)
		return zh__dialect_by_form(ZH_POCKET_SLASH, -1, -1);
	return ZH_AUTO;
}
