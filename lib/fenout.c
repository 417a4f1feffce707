/*
 * fenout.c - the FEN and EPD writers, one form per dialect (DESIGN.md,
 * "What each dialect's writer emits"); the dialect table (dialect.c)
 * says which.  The readers are in fen.c.
 *
 * zhreplay -f fen writes a FEN a ply: the writer caches the text of each
 * 8-file rank and of each pocket, and stores without bounds checks into
 * a buffer big enough for any FEN.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "zh_int.h"

static const char piece_char[2][ZH_NTYPES + 7] = {
	{ '?', 'P', 'N', 'B', 'R', 'Q', 'K', 'A', 'C', '?', '?', '?', '?', '?', '?', '?' },
	{ '?', 'p', 'n', 'b', 'r', 'q', 'k', 'a', 'c', '?', '?', '?', '?', '?', '?', '?' },
};

/*
 * The writer fills a local buffer with unchecked stores (a FEN is at
 * most WMAX bytes: 100 squares with '~', 10 slashes, two pockets of at
 * most 7 * 255 letters, promoted squares, fields) and copies it out.
 */
#define WMAX (2 * 100 + 10 + 2 * 7 * 255 + 100 * 3 + 64)
_Static_assert(WMAX <= ZH_FENMAX, "ZH_FENMAX holds any FEN written");

static ZH_HOT_INLINE char *
putnum(char *q, unsigned long n)
{
	if (n < 10) {
		*q++ = (char)('0' + n);
		return q;
	}
	if (n < 100) {		/* move numbers, mostly */
		*q++ = (char)('0' + n / 10);
		*q++ = (char)('0' + n % 10);
		return q;
	}
	return zh__putlong(q, (long long)n);
}

/* A run of 1 to 10 empty squares. */
static inline char *
putempty(char *q, int n)
{
	if (n == 10) {
		*q++ = '1';
		*q++ = '0';
	} else {
		*q++ = (char)('0' + n);
	}
	return q;
}

static char *
putsq(char *q, int s, int zero_based)
{
	*q++ = (char)('a' + ZH_FILE(s));
	return putnum(q, (unsigned long)(ZH_RANK(s) + (zero_based ? 0 : 1)));
}

/*
 * The text of each 8-file rank last written by this thread, by the
 * rank's eight square bytes: successive positions of a game differ in
 * two or three ranks, and the others are copied.  The key is the bytes
 * complemented, so that a zeroed entry (all 0xff: off the board) is
 * never a real rank's.  A rank's text is at most 8 letters and 8 '~'.  The same for each
 * colour's pocket (in each order), by its counts; a zeroed entry is
 * the empty pocket's.
 */
#define PTXT 24
static _Thread_local struct rankcache {
	uint64_t key[ZH_MAXRANKS];
	char txt[ZH_MAXRANKS][16];
	unsigned char len[ZH_MAXRANKS];
	unsigned tmask;
	struct {
		uint64_t w;		/* pocket[c][0..7] */
		unsigned char x;	/* pocket[c][8] */
		unsigned char len;
		char txt[PTXT];
	} pk[2][2];			/* by colour, descending */
} rankcache;

/* Pocket letters of one colour, in ascending or descending order. */
static ZH_HOT_INLINE char *
put_pocket(char *q, const struct zh_pos *p, int c, bool descending)
{
	static const unsigned char asc[] = { ZH_PAWN, ZH_KNIGHT, ZH_BISHOP,
	    ZH_ROOK, ZH_QUEEN, ZH_ARCHBISHOP, ZH_CHANCELLOR };
	int i, k, n = (int)sizeof asc;
	char *start = q;
	uint64_t w;
	unsigned char x = p->pocket[c][8];
	struct rankcache *rc = &rankcache;

	_Static_assert(ZH_NTYPES == 9, "a pocket is 8 + 1 counts");
	memcpy(&w, p->pocket[c], sizeof w);
	if (rc->pk[c][descending].w == w && rc->pk[c][descending].x == x) {
		/* PTXT bytes stored, len kept: WMAX has room to spare */
		memcpy(q, rc->pk[c][descending].txt, PTXT);
		return q + rc->pk[c][descending].len;
	}
	for (i = 0; i < n; i++) {
		int t = asc[descending ? n - 1 - i : i];
		char l = piece_char[c][t];
		uint64_t l8 = (unsigned char)l * 0x0101010101010101u;

		/* Eight letters stored, as many kept as are due (the
		   buffer has room to spare: see WMAX). */
		k = p->pocket[c][t];
		memcpy(q, &l8, sizeof l8);
		if (k <= 8) {
			q += k;
			continue;
		}
		for (; k > 0; k--)
			*q++ = l;
	}
	if (q - start <= PTXT) {
		rc->pk[c][descending].w = w;
		rc->pk[c][descending].x = x;
		rc->pk[c][descending].len = (unsigned char)(q - start);
		memcpy(rc->pk[c][descending].txt, start, PTXT);
	}
	return q;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* Rank r of an 8-file board ('row' its squares) and a '/'. */
static ZH_HOT_INLINE char *
put_rank8(char *q, struct rankcache *rc, const unsigned char *row, int r,
    unsigned tmask)
{
	/* Eight squares at once: a high bit for each occupied one, then a
	   jump from piece to piece. */
	const uint64_t lo7 = 0x7f7f7f7f7f7f7f7fu;
	const char *pcc = &piece_char[0][0];	/* by colour bit and type */
	uint64_t w, nz;
	char *start = q;
	int next = 0;		/* first file not written yet */

	memcpy(&w, row, sizeof w);
	if (rc->key[r] == ~w) {
		memcpy(q, rc->txt[r], sizeof rc->txt[r]);
		q += rc->len[r];
		*q++ = '/';
		return q;
	}
	nz = (((w & lo7) + lo7) | w) & ~lo7;
	while (nz != 0) {
		int fl = __builtin_ctzll(nz) >> 3;
		unsigned pc = (unsigned)(w >> 8 * fl) & 0xff;

		/* Without branches: a digit or a '~' is always stored, and
		   kept only if due. */
		nz &= nz - 1;
		*q = (char)('0' + fl - next);
		q += fl > next;
		*q++ = pcc[pc & (ZH_BLACKBIT | ZH_TYPEMASK)];
		*q = '~';
		q += (pc & tmask) != 0;
		next = fl + 1;
	}
	if (next < 8)
		*q++ = (char)('0' + 8 - next);
	memcpy(rc->txt[r], start, sizeof rc->txt[r]);
	rc->len[r] = (unsigned char)(q - start);
	rc->key[r] = ~w;
	*q++ = '/';
	return q;
}
#endif

static bool
pocket_empty(const struct zh_pos *p)
{
	int t;

	for (t = 0; t < ZH_NTYPES; t++)
		if (p->pocket[0][t] || p->pocket[1][t])
			return false;
	return true;
}

/* Both pockets, white's first, in the dialect's order and empty form. */
static ZH_HOT_INLINE char *
put_pockets(char *q, const struct zh_pos *p, const struct zh__dialect *dl)
{
	if (dl->empty_dash && pocket_empty(p))
		*q++ = '-';
	if (dl->qrbnp) {	/* each order inlined with its constant */
		q = put_pocket(q, p, ZH_WHITE, true);
		return put_pocket(q, p, ZH_BLACK, true);
	}
	q = put_pocket(q, p, ZH_WHITE, false);
	return put_pocket(q, p, ZH_BLACK, false);
}

/* Ranks of any width, from the top, '/' between them. */
static char *
put_ranks(char *q, const struct zh_pos *p, bool tilde)
{
	const char *pcc = &piece_char[0][0];	/* by colour bit and type */
	const int files = p->v->files;
	int f, r;

	for (r = p->v->ranks - 1; r >= 0; r--) {
		const unsigned char *row = &p->sq[ZH_SQ(0, r)];
		int next = 0;		/* first file not written yet */
		unsigned char sqs[ZH_STRIDE];	/* a local copy: the stores
						   through q cannot alias it */

		memcpy(sqs, row, sizeof sqs);
		for (f = 0; f < files; f++) {
			unsigned pc = sqs[f];

			if (pc == 0)
				continue;
			if (f > next)
				q = putempty(q, f - next);
			*q++ = pcc[pc & (ZH_BLACKBIT | ZH_TYPEMASK)];
			if (tilde && (pc & ZH_PROMOTED))
				*q++ = '~';
			next = f + 1;
		}
		if (files > next)
			q = putempty(q, files - next);
		if (r > 0)
			*q++ = '/';
	}
	return q;
}

/* The castling field: KQkq, or '-'. */
static ZH_HOT_INLINE char *
put_castling(char *q, const struct zh_pos *p)
{
	if (p->castle == 0)
		*q++ = '-';
	if (p->castle & ZH_CASTLE_WK)
		*q++ = 'K';
	if (p->castle & ZH_CASTLE_WQ)
		*q++ = 'Q';
	if (p->castle & ZH_CASTLE_BK)
		*q++ = 'k';
	if (p->castle & ZH_CASTLE_BQ)
		*q++ = 'q';
	return q;
}

/* chess.com's field of promoted squares, after a blank: if there are. */
static char *
put_promoted(char *q, const struct zh_pos *p)
{
	bool any = false;
	int f, r;

	for (r = p->v->ranks - 1; r >= 0; r--)
		for (f = 0; f < p->v->files; f++)
			if (p->sq[ZH_SQ(f, r)] & ZH_PROMOTED) {
				if (!any)
					*q++ = ' ';
				any = true;
				q = putsq(q, ZH_SQ(f, r), 0);
			}
	return q;
}

/* The FEN (clocks) or EPD (no clocks) of p in dialect d, at q. */
static char *
write_fields(const struct zh_pos *p, int d, char *q, bool clocks)
{
	const struct zh_variant *v = p->v;
	const struct zh__dialect *dl;
	bool tilde, drops = v->drops;
	const int files = v->files, ranks = v->ranks;
	unsigned tmask;				/* ZH_PROMOTED if '~' is written */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	struct rankcache *rc;
	int r;
#endif
	bool ranks_done = false;

	dl = zh__dialect(d, ZH_FEN_AUTO);
	tilde = drops && (dl->promoted == ZH_PROMO_TILDE ||
	    (dl->promoted == ZH_PROMO_TILDE_VARIANT && v->fairy_tilde));
	tmask = tilde ? ZH_PROMOTED : 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* the board, 8 files a rank with the cache */
	rc = &rankcache;
	if (rc->tmask != tmask) {
		memset(rc->key, 0, sizeof rc->key);
		rc->tmask = tmask;
	}
	if (files == 8 && ranks == 8) {		/* unrolled */
		const unsigned char *b = p->sq;

		q = put_rank8(q, rc, &b[ZH_SQ(0, 7)], 7, tmask);
		q = put_rank8(q, rc, &b[ZH_SQ(0, 6)], 6, tmask);
		q = put_rank8(q, rc, &b[ZH_SQ(0, 5)], 5, tmask);
		q = put_rank8(q, rc, &b[ZH_SQ(0, 4)], 4, tmask);
		q = put_rank8(q, rc, &b[ZH_SQ(0, 3)], 3, tmask);
		q = put_rank8(q, rc, &b[ZH_SQ(0, 2)], 2, tmask);
		q = put_rank8(q, rc, &b[ZH_SQ(0, 1)], 1, tmask);
		q = put_rank8(q, rc, &b[ZH_SQ(0, 0)], 0, tmask) - 1;
		ranks_done = true;
	} else if (files == 8) {
		for (r = ranks - 1; r >= 0; r--)
			q = put_rank8(q, rc, &p->sq[ZH_SQ(0, r)], r, tmask);
		q--;			/* the last '/' */
		ranks_done = true;
	}
#endif
	if (!ranks_done)
		q = put_ranks(q, p, tilde);
	if (drops && dl->pocket == ZH_POCKET_SLASH) {
		*q++ = '/';
		q = put_pockets(q, p, dl);
	} else if (drops && dl->pocket == ZH_POCKET_BRACKET) {
		*q++ = '[';
		q = put_pockets(q, p, dl);
		*q++ = ']';
	}
	*q++ = ' ';
	*q++ = p->side == ZH_WHITE ? 'w' : 'b';
	*q++ = ' ';
	q = put_castling(q, p);
	*q++ = ' ';
	if (dl->ep == ZH_EP_ALWAYS ? p->ep != ZH_NOSQ :
	    dl->ep == ZH_EP_ATTACKED ? zh_ep_attacked(p) : zh_ep_legal(p))
		q = putsq(q, p->ep, dl->rank0_10 && v->ranks == 10);
	else
		*q++ = '-';
	if (clocks) {
		*q++ = ' ';
		q = putnum(q, p->halfmove);
		*q++ = ' ';
		q = putnum(q, p->fullmove);
	}
	if (drops && dl->pocket == ZH_POCKET_FIELD) {
		*q++ = ' ';
		q = put_pockets(q, p, dl);
	}
	if (drops && dl->promoted == ZH_PROMO_SQUARES)
		q = put_promoted(q, p);
	return q;
}

static size_t
write_out(const struct zh_pos *p, int d, char *buf, size_t size, bool clocks)
{
	char tmp[WMAX];
	size_t n;

	if (size >= WMAX) {	/* room for anything: write in place */
		n = (size_t)(write_fields(p, d, buf, clocks) - buf);
		buf[n] = '\0';
		return n;
	}
	n = (size_t)(write_fields(p, d, tmp, clocks) - tmp);
	if (size > 0) {
		size_t k = n < size ? n : size - 1;

		memcpy(buf, tmp, k);
		buf[k] = '\0';
	}
	return n;
}

size_t
zh_fen_write(const struct zh_pos *p, int d, char *buf, size_t size)
{
	return write_out(p, d, buf, size, true);
}

size_t
zh_epd_write(const struct zh_pos *p, int d, char *buf, size_t size)
{
	return write_out(p, d, buf, size, false);
}
