/*
 * parquet_read.c - a Parquet file of games read as PGN text
 * (parquet_read.h).
 *
 * The file (parquet-format's README): "PAR1", the column chunks, the
 * FileMetaData (Thrift compact, parquet_meta.c), its length and "PAR1".
 * Each row group's columns are decoded whole into text values (a column
 * chunk: an optional dictionary page, then data pages; Encodings.md for
 * the RLE / bit-packing hybrid and the DELTA encodings), then each row
 * becomes a game: the tags of the Seven Tag Roster (but Result) the
 * file has no column for, with PGN's value for unknown ("?",
 * "????.??.??"), then a tag pair a column (its name the tag's; a null,
 * no tag), then the "movetext" column, then its result if the move text
 * does not end with one.  Integers are written in decimal (a rating
 * difference with its sign, as Lichess writes it), a DATE as
 * YYYY.MM.DD, a TIME as HH:MM:SS.
 */
#define _GNU_SOURCE		/* fopencookie() */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <brotli/decode.h>
#include <lz4.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include "parquet_meta.h"
#include "parquet_read.h"

#define META_MAX	(64u << 20)	/* a footer's bytes at most */
#define CHUNK_MAX	(1u << 30)	/* a column chunk's, a page's */

/* A column's values in a row group: text, or null. */
struct vals {
	char *heap;
	size_t hlen, hcap;
	size_t *off;		/* value i: heap + off[i], len[i] bytes */
	uint32_t *len;
	unsigned char *null;
	size_t n, cap;
};

struct rcol {			/* a column read: a tag, or the moves */
	int leaf;		/* its index among the schema's leaves */
	const struct pq_schema *s;
	const char *tag;	/* its tag's name (s->name's, but for
				   zhkit's "variant": "Variant") */
	size_t taglen;
	bool moves;
	struct vals v;
	struct vals dict;	/* its dictionary page's values */
};

struct pqr {
	FILE *f;
	int fd;
	uint64_t size;
	unsigned char *meta;
	struct pq_meta m;
	struct rcol *col;
	int ncol;
	int rg;			/* the next row group */
	int64_t row, nrows;	/* in the row group decoded */
	int64_t grows;		/* the rows of the row group being read */
	char *out;		/* PGN text not yet read */
	size_t olen, opos, ocap;
	unsigned char *raw, *page;	/* a chunk's bytes, a page's */
	size_t rawcap, pagecap;
	char *err;		/* why it failed, NULL if not */
	int64_t at;		/* the page (or chunk) being read: its byte */
	char roster[160];	/* the roster's tags it has no column for */
	size_t nroster;
	struct pqr *next;
	FILE *self;
};

static struct pqr *open_readers;	/* for pqr_error() */
static char oom[] = "out of memory";
static pthread_mutex_t readers_mu = PTHREAD_MUTEX_INITIALIZER;

/* --column's mappings: set before any input, read only after. */
static struct { char *tag, *col; } colmap[32];
static int ncolmap;

int
pqr_column_map(const char *spec)
{
	const char *eq = strchr(spec, '=');

	if (eq == NULL || eq == spec || eq[1] == '\0' || ncolmap == 32)
		return -1;
	if ((colmap[ncolmap].tag = strndup(spec, (size_t)(eq - spec))) ==
	    NULL || (colmap[ncolmap].col = strdup(eq + 1)) == NULL)
		return -1;
	ncolmap++;
	return 0;
}

const char *
pqr_column_tag(const char *name, size_t *n, bool *moves)
{
	const char *tag = name;
	bool mapped_moves = false;
	int k;

	for (k = 0; k < ncolmap; k++) {
		if (strlen(colmap[k].col) == *n &&
		    memcmp(colmap[k].col, name, *n) == 0)
			tag = colmap[k].tag;
		mapped_moves |= strcmp(colmap[k].tag, "movetext") == 0;
	}
	if (tag != name)
		*n = strlen(tag);
	/* the moves: the column mapped to movetext, else "movetext" */
	*moves = *n == 8 && memcmp(tag, "movetext", 8) == 0 &&
	    (tag != name || !mapped_moves);
	return tag;
}

bool
pqr_magic(const void *b, size_t n)
{
	return n >= 4 && memcmp(b, "PAR1", 4) == 0;
}

/* A fault: said once, every read after fails. */
static int __attribute__((format(printf, 2, 3)))
fail(struct pqr *q, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	if (q->err == NULL) {
		va_start(ap, fmt);
		vsnprintf(buf, sizeof buf, fmt, ap);
		va_end(ap);
		if ((q->err = strdup(buf)) == NULL)
			q->err = (char *)oom;
	}
	return -1;
}

/* The fault said (q->err) put where it is: the row group, the column
   and the byte of the page being read, for a file that cannot say a
   line and column. */
static int
locate(struct pqr *q, int rg, const struct rcol *c)
{
	char buf[256], *x;
	int n;

	if (q->err == NULL || q->err == oom)
		return -1;
	n = snprintf(buf, sizeof buf, "row group %d of %d, column '%.*s', byte "
	    "%lld: %s", rg + 1, q->m.nrg, (int)(c->s->namelen < 64 ?
	    c->s->namelen : 64), c->s->name, (long long)q->at, q->err);
	if (n > 0 && (x = strdup(buf)) != NULL) {
		free(q->err);
		q->err = x;
	}
	return -1;
}

/* ======================== values ======================== */

static int
push(struct pqr *q, struct vals *v, const void *p, size_t n, bool null)
{
	size_t cap;
	void *x;

	if (v->n == v->cap) {
		cap = v->cap ? v->cap * 2 : 1024;
		if ((x = realloc(v->off, cap * sizeof *v->off)) == NULL)
			return fail(q, "%s", "out of memory");
		v->off = x;
		if ((x = realloc(v->len, cap * sizeof *v->len)) == NULL)
			return fail(q, "%s", "out of memory");
		v->len = x;
		if ((x = realloc(v->null, cap)) == NULL)
			return fail(q, "%s", "out of memory");
		v->null = x;
		v->cap = cap;
	}
	if (n > UINT32_MAX)
		return fail(q, "%s", "a value of 4 GB or more");
	if (v->hlen + n > v->hcap) {
		for (cap = v->hcap ? v->hcap : 4096; cap < v->hlen + n; cap *= 2)
			;
		if ((x = realloc(v->heap, cap)) == NULL)
			return fail(q, "%s", "out of memory");
		v->heap = x;
		v->hcap = cap;
	}
	if (n > 0)
		memcpy(v->heap + v->hlen, p, n);
	v->off[v->n] = v->hlen;
	v->len[v->n] = (uint32_t)n;
	v->null[v->n++] = null;
	v->hlen += n;
	return 0;
}

static void
vals_clear(struct vals *v)
{
	v->n = v->hlen = 0;
}

static void
vals_free(struct vals *v)
{
	free(v->heap);
	free(v->off);
	free(v->len);
	free(v->null);
	memset(v, 0, sizeof *v);
}

/* Days since 1970-01-01 as y, m, d. */
static void
civil(int64_t z, int64_t *y, int *m, int *d)
{
	int64_t era, doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

/* An integer value of column c as text. */
static int
push_int(struct pqr *q, const struct rcol *c, struct vals *v, int64_t x)
{
	const struct pq_schema *s = c->s;
	char t[64];
	int64_t y, sec;
	int m, d, n;

	if (s->logical == 6 || s->converted == PQ_CT_DATE) {
		civil(x, &y, &m, &d);
		n = snprintf(t, sizeof t, "%04" PRId64 ".%02d.%02d", y, m, d);
	} else if (s->logical == 7 || s->converted == 7 || s->converted == 8) {
		sec = s->time_unit == 3 ? x / 1000000000 : s->time_unit == 2 ||
		    s->converted == 8 ? x / 1000000 : x / 1000;
		n = snprintf(t, sizeof t, "%02d:%02d:%02d", (int)(sec / 3600 % 24),
		    (int)(sec / 60 % 60), (int)(sec % 60));
	} else if ((s->logical == 10 && !s->int_signed && s->int_bits == 64) ||
	    s->converted == 14)
		n = snprintf(t, sizeof t, "%" PRIu64, (uint64_t)x);
	else if (s->namelen > 10 && memcmp(s->name + s->namelen - 10,
	    "RatingDiff", 10) == 0)
		n = snprintf(t, sizeof t, "%+" PRId64, x);
	else
		n = snprintf(t, sizeof t, "%" PRId64, x);
	return push(q, v, t, (size_t)n, false);
}

/* A PLAIN value of c's type at *p (end e): pushed; false at the end of
   the page or on a fault. */
static int
push_plain(struct pqr *q, const struct rcol *c, struct vals *v,
    const unsigned char **p, const unsigned char *e, int bit)
{
	uint64_t x = 0;
	uint32_t n;
	int k;

	switch (c->s->type) {
	case PQ_BOOLEAN:
		if (*p >= e)
			return fail(q, "%s", "a page's values cut short");
		k = (**p >> bit) & 1;
		if (bit == 7)
			(*p)++;
		return push(q, v, k ? "true" : "false", k ? 4 : 5, false);
	case PQ_INT32: case PQ_INT64:
		n = c->s->type == PQ_INT32 ? 4 : 8;
		if ((size_t)(e - *p) < n)
			return fail(q, "%s", "a page's values cut short");
		for (k = (int)n - 1; k >= 0; k--)
			x = x << 8 | (*p)[k];
		*p += n;
		return push_int(q, c, v, n == 4 ? (int32_t)x : (int64_t)x);
	case PQ_BYTE_ARRAY:
		if (e - *p < 4)
			return fail(q, "%s", "a page's values cut short");
		n = (uint32_t)(*p)[0] | (uint32_t)(*p)[1] << 8 |
		    (uint32_t)(*p)[2] << 16 | (uint32_t)(*p)[3] << 24;
		if ((size_t)(e - *p) - 4 < n)
			return fail(q, "%s", "a page's values cut short");
		*p += 4 + n;
		return push(q, v, *p - n, n, false);
	case PQ_FIXED:
		n = (uint32_t)c->s->type_length;
		if (c->s->type_length < 0 || (size_t)(e - *p) < n)
			return fail(q, "%s", "a page's values cut short");
		*p += n;
		return push(q, v, *p - n, n, false);
	default:
		return fail(q, "%s", "a column of type INT96, FLOAT or DOUBLE "
		    "is not read");
	}
}

/* ======================== levels, dictionary indices ======================== */

static uint64_t
uvarint(const unsigned char **p, const unsigned char *e, bool *bad)
{
	uint64_t v = 0;
	int s;

	for (s = 0; s < 64 && *p < e; s += 7) {
		v |= (uint64_t)(**p & 0x7f) << s;
		if ((*(*p)++ & 0x80) == 0)
			return v;
	}
	*bad = true;
	return 0;
}

/* n values of the RLE / bit-packing hybrid, bit width bw, from p..e into
   out: 0, or -1 (cut short). */
static int
rle_read(struct pqr *q, const unsigned char *p, const unsigned char *e,
    int bw, uint32_t *out, size_t n)
{
	size_t i = 0, k, run, bytes = ((size_t)bw + 7) / 8;
	uint64_t h, acc;
	uint32_t val;
	int nb, j;
	bool bad = false;

	if (bw > 32)
		return fail(q, "%s", "a bit width over 32");
	while (i < n) {
		h = uvarint(&p, e, &bad);
		if (bad || p > e)
			return fail(q, "%s", "levels or indices cut short");
		if (h & 1) {			/* bit-packed groups */
			h >>= 1;
			if (bw > 0 && h > (uint64_t)(e - p) / (uint64_t)bw)
				return fail(q, "%s", "levels or indices cut short");
			/* no more values than are wanted (a width of 0
			   takes no bytes: any count) */
			run = h > n - i ? (n - i) * 8 : (size_t)h * 8;
			for (k = 0, acc = 0, nb = 0; k < run && i < n; k++) {
				while (nb < bw) {
					acc |= (uint64_t)*p++ << nb;
					nb += 8;
				}
				val = (uint32_t)(acc & (((uint64_t)1 << bw) - 1));
				acc >>= bw;
				nb -= bw;
				if (i < n)
					out[i++] = val;
			}
		} else {
			run = (size_t)(h >> 1);
			if ((size_t)(e - p) < bytes || run == 0)
				return fail(q, "%s", "levels or indices cut short");
			for (val = 0, j = (int)bytes - 1; j >= 0; j--)
				val = val << 8 | p[j];
			p += bytes;
			for (k = 0; k < run && i < n; k++)
				out[i++] = val;
		}
	}
	return 0;
}

/* DELTA_BINARY_PACKED at *p: up to max values into out (int64), their
   count in *n; *p past them.  0, or -1. */
static int
delta_read(struct pqr *q, const unsigned char **p, const unsigned char *e,
    int64_t *out, size_t max, size_t *n)
{
	uint64_t bsize, nmini, total, per, k, m, acc;
	int64_t v, mind;
	const unsigned char *w;
	size_t i = 0;
	bool bad = false;
	int nb;

	bsize = uvarint(p, e, &bad);
	nmini = uvarint(p, e, &bad);
	total = uvarint(p, e, &bad);
	acc = uvarint(p, e, &bad);		/* the first value, ZigZag */
	v = (int64_t)(acc >> 1) ^ -(int64_t)(acc & 1);
	if (bad || nmini == 0 || bsize == 0 || bsize % nmini != 0 ||
	    (per = bsize / nmini) % 32 != 0 || total > max || bsize > 1u << 20)
		return fail(q, "%s", "a DELTA_BINARY_PACKED header is wrong");
	if (total > 0)
		out[i++] = v;
	while (i < total) {
		uint64_t z = uvarint(p, e, &bad);

		mind = (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
		if (bad || (uint64_t)(e - *p) < nmini)
			return fail(q, "%s", "DELTA_BINARY_PACKED cut short");
		w = *p;
		*p += nmini;
		for (m = 0; m < nmini && i < total; m++) {
			if (w[m] > 64 || (uint64_t)(e - *p) < per * w[m] / 8)
				return fail(q, "%s", "DELTA_BINARY_PACKED cut short");
			for (k = 0, acc = 0, nb = 0; k < per; k++) {
				uint64_t d = 0;
				int got = 0;

				while (got < w[m]) {
					if (nb == 0) {
						acc = *(*p)++;
						nb = 8;
					}
					int take = w[m] - got < nb ? w[m] - got : nb;

					d |= (acc & ((1u << take) - 1)) << got;
					acc >>= take;
					nb -= take;
					got += take;
				}
				if (i < total) {
					v = (int64_t)((uint64_t)v + (uint64_t)mind + d);
					out[i++] = v;
				}
			}
			nb = 0;
		}
	}
	*n = (size_t)total;
	return 0;
}

#define PAGE_VALUES	(1u << 22)	/* a page's values at most */

/* A dictionary-encoded page's n indices into c's dictionary's values. */
static int
dict_values(struct pqr *q, struct rcol *c, struct vals *out,
    const unsigned char *p, const unsigned char *e, size_t n)
{
	uint32_t *ix;
	size_t i;
	int rc = 0;

	if (p >= e && n > 0)
		return fail(q, "%s", "a page's indices cut short");
	if ((ix = malloc((n ? n : 1) * sizeof *ix)) == NULL)
		return fail(q, "%s", "out of memory");
	if (n > 0 && rle_read(q, p + 1, e, *p, ix, n) != 0)
		rc = -1;
	for (i = 0; i < n && rc == 0; i++)
		rc = ix[i] >= c->dict.n ? fail(q, "%s", "a dictionary index "
		    "past the dictionary") : push(q, out, c->dict.heap +
		    c->dict.off[ix[i]], c->dict.len[ix[i]], false);
	free(ix);
	return rc;
}

/* DELTA_LENGTH_BYTE_ARRAY (prefix NULL) or DELTA_BYTE_ARRAY's n values. */
static int
delta_strings(struct pqr *q, struct vals *out, const unsigned char *p,
    const unsigned char *e, size_t n, bool prefixed)
{
	int64_t *pre = NULL, *len = NULL;
	size_t i, k, m, prevlen = 0;
	char *prev = NULL, *x;
	int rc = -1;

	if ((len = malloc((n ? n : 1) * sizeof *len)) == NULL ||
	    (pre = calloc(n ? n : 1, sizeof *pre)) == NULL) {
		fail(q, "%s", "out of memory");
		goto out;
	}
	if ((prefixed && (delta_read(q, &p, e, pre, n, &k) != 0 || k != n)) ||
	    delta_read(q, &p, e, len, n, &m) != 0 || m != n) {
		fail(q, "%s", "a DELTA string page's lengths are wrong");
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (len[i] < 0 || pre[i] < 0 || (size_t)pre[i] > prevlen ||
		    (uint64_t)len[i] > (uint64_t)(e - p)) {
			fail(q, "%s", "a DELTA string page's lengths are wrong");
			goto out;
		}
		if ((x = realloc(prev, (size_t)pre[i] + (size_t)len[i] + 1)) ==
		    NULL) {
			fail(q, "%s", "out of memory");
			goto out;
		}
		prev = x;
		memcpy(prev + pre[i], p, (size_t)len[i]);
		p += len[i];
		prevlen = (size_t)pre[i] + (size_t)len[i];
		if (push(q, out, prev, prevlen, false) != 0)
			goto out;
	}
	rc = 0;
out:
	free(pre);
	free(len);
	free(prev);
	return rc;
}

/* n values (not null) of column c, encoded 'enc', from p..e into out. */
static int
decode(struct pqr *q, struct rcol *c, int enc, const unsigned char *p,
    const unsigned char *e, size_t n, struct vals *out)
{
	int64_t *iv;
	uint32_t *bits;
	size_t i, k;
	int rc = 0;

	switch (enc) {
	case PQ_PLAIN:
		for (i = 0; i < n && rc == 0; i++)
			rc = push_plain(q, c, out, &p, e, (int)(i % 8));
		return rc;
	case PQ_PLAIN_DICTIONARY: case PQ_RLE_DICTIONARY:
		return dict_values(q, c, out, p, e, n);
	case PQ_RLE:		/* booleans: a 4-byte length, then bw 1 */
		if (c->s->type != PQ_BOOLEAN || e - p < 4)
			return fail(q, "%s", "an RLE page of values not boolean");
		if ((bits = malloc((n ? n : 1) * sizeof *bits)) == NULL)
			return fail(q, "%s", "out of memory");
		rc = rle_read(q, p + 4, e, 1, bits, n);
		for (i = 0; i < n && rc == 0; i++)
			rc = push(q, out, bits[i] ? "true" : "false", bits[i] ? 4 :
			    5, false);
		free(bits);
		return rc;
	case PQ_DELTA_BINARY_PACKED:
		if (c->s->type != PQ_INT32 && c->s->type != PQ_INT64)
			return fail(q, "%s", "DELTA_BINARY_PACKED not of integers");
		if ((iv = malloc((n ? n : 1) * sizeof *iv)) == NULL)
			return fail(q, "%s", "out of memory");
		rc = delta_read(q, &p, e, iv, n, &k);
		if (rc == 0 && k != n)
			rc = fail(q, "%s", "DELTA_BINARY_PACKED: a page's count");
		for (i = 0; i < n && rc == 0; i++)
			rc = push_int(q, c, out, c->s->type == PQ_INT32 ?
			    (int32_t)iv[i] : iv[i]);
		free(iv);
		return rc;
	case PQ_DELTA_LENGTH_BYTE_ARRAY: case PQ_DELTA_BYTE_ARRAY:
		return delta_strings(q, out, p, e, n, enc == PQ_DELTA_BYTE_ARRAY);
	default:
		return fail(q, "%s", "an encoding not read (BYTE_STREAM_SPLIT or "
		    "another)");
	}
}

/* ======================== pages and chunks ======================== */

/* src[0..sn) decompressed by codec into q->page (dn bytes): 0, or -1. */
static int
inflate_page(struct pqr *q, int codec, const unsigned char *src, size_t sn,
    size_t dn)
{
	size_t got = dn;
	z_stream zs;
	void *x;
	int zr;

	if (dn + 1 > q->pagecap) {
		if ((x = realloc(q->page, dn + 1)) == NULL)
			return fail(q, "%s", "out of memory");
		q->page = x;
		q->pagecap = dn + 1;
	}
	switch (codec) {
	case PQ_UNCOMPRESSED:
		if (sn != dn)
			return fail(q, "%s", "an uncompressed page's sizes differ");
		memcpy(q->page, src, dn);
		return 0;
	case PQ_SNAPPY:
		if (snappy_uncompressed_length((const char *)src, sn, &got) !=
		    SNAPPY_OK || got != dn || snappy_uncompress((const char *)src,
		    sn, (char *)q->page, &got) != SNAPPY_OK || got != dn)
			return fail(q, "%s", "snappy: a page does not decompress");
		return 0;
	case PQ_GZIP:
		memset(&zs, 0, sizeof zs);
		if (inflateInit2(&zs, 15 + 32) != Z_OK)
			return fail(q, "%s", "out of memory");
		zs.next_in = (unsigned char *)(uintptr_t)src;
		zs.avail_in = (uInt)sn;
		zs.next_out = q->page;
		zs.avail_out = (uInt)dn;
		zr = inflate(&zs, Z_FINISH);
		got = zs.total_out;
		inflateEnd(&zs);
		if (zr != Z_STREAM_END || got != dn)
			return fail(q, "%s", "gzip: a page does not decompress");
		return 0;
	case PQ_ZSTD:
		got = ZSTD_decompress(q->page, dn, src, sn);
		if (ZSTD_isError(got) || got != dn)
			return fail(q, "%s", "zstd: a page does not decompress");
		return 0;
	case PQ_LZ4_RAW:
		if (sn > INT32_MAX || LZ4_decompress_safe((const char *)src,
		    (char *)q->page, (int)sn, (int)dn) != (int)dn)
			return fail(q, "%s", "lz4_raw: a page does not decompress");
		return 0;
	case PQ_BROTLI:
		if (BrotliDecoderDecompress(sn, src, &got, q->page) !=
		    BROTLI_DECODER_RESULT_SUCCESS || got != dn)
			return fail(q, "%s", "brotli: a page does not decompress");
		return 0;
	default:
		return fail(q, "%s", codec == PQ_LZ4 ? "the LZ4 codec (Hadoop's "
		    "framing) is not read: lz4_raw is" : "a codec not read (LZO "
		    "or unknown)");
	}
}

/* A data page (header pg, its bytes p[0..pg->csize)) of column c into
   c->v: its levels, then its values. */
static int
data_page(struct pqr *q, struct rcol *c, int codec, const struct pq_page *pg,
    const unsigned char *p)
{
	bool opt = c->s->repetition == 1, v2 = pg->type == PQ_DATA_PAGE_V2;
	size_t n = (size_t)pg->num_values, lv = 0, i, k = 0, nn = 0;
	const unsigned char *vp, *ve;
	uint32_t *lev = NULL;
	struct vals dec = { 0 };
	int rc = -1;

	if (pg->num_values < 0 || n > PAGE_VALUES)
		return fail(q, "%s", "a page of more than 4M values");
	if ((int64_t)(c->v.n + n) > q->grows)
		return fail(q, "%s", "a column has more values than its row "
		    "group has rows");
	if (v2) {
		lv = (size_t)pg->rep_len + (size_t)pg->def_len;
		if (pg->rep_len != 0 || lv > (size_t)pg->csize ||
		    lv > (size_t)pg->usize)
			return fail(q, "%s", "a v2 page's levels are wrong");
		if (pg->compressed ? inflate_page(q, codec, p + lv,
		    (size_t)pg->csize - lv, (size_t)pg->usize - lv) != 0 :
		    inflate_page(q, PQ_UNCOMPRESSED, p + lv, (size_t)pg->csize -
		    lv, (size_t)pg->usize - lv) != 0)
			return -1;
		vp = q->page;
		ve = q->page + (size_t)pg->usize - lv;
	} else {
		if (inflate_page(q, codec, p, (size_t)pg->csize,
		    (size_t)pg->usize) != 0)
			return -1;
		vp = q->page;
		ve = q->page + pg->usize;
	}
	if ((lev = malloc((n ? n : 1) * sizeof *lev)) == NULL)
		return fail(q, "%s", "out of memory");
	for (i = 0; i < n; i++)
		lev[i] = 1;
	if (opt && v2 && rle_read(q, p, p + pg->def_len, 1, lev, n) != 0)
		goto out;
	if (opt && !v2) {
		if (ve - vp < 4)
			goto cut;
		k = (size_t)vp[0] | (size_t)vp[1] << 8 | (size_t)vp[2] << 16 |
		    (size_t)vp[3] << 24;
		if (k > (size_t)(ve - vp) - 4)
			goto cut;
		if (rle_read(q, vp + 4, vp + 4 + k, 1, lev, n) != 0)
			goto out;
		vp += 4 + k;
	}
	for (i = 0; i < n; i++)
		nn += lev[i] == 1;
	if (decode(q, c, pg->encoding, vp, ve, nn, &dec) != 0)
		goto out;
	for (i = 0, k = 0, rc = 0; i < n && rc == 0; i++, k += lev[i - 1] == 1)
		rc = lev[i] == 1 ? push(q, &c->v, dec.heap + dec.off[k],
		    dec.len[k], false) : push(q, &c->v, "", 0, true);
	goto out;
cut:
	fail(q, "%s", "a page's levels cut short");
out:
	free(lev);
	vals_free(&dec);
	return rc;
}

/* Column chunk ch of column c, its pages read and decoded into c->v. */
static int
read_chunk(struct pqr *q, struct rcol *c, const struct pq_chunk *ch)
{
	int64_t start = ch->dict_page_offset >= 4 && ch->dict_page_offset <
	    ch->data_page_offset ? ch->dict_page_offset : ch->data_page_offset;
	size_t len = (size_t)ch->total_compressed_size, at = 0;
	struct thrift_r r;
	struct pq_page pg;
	void *x;

	q->at = start;
	if (!ch->has_meta || ch->encrypted)
		return fail(q, "%s", ch->encrypted ? "an encrypted column is "
		    "not read" : "a column chunk without its metadata");
	if (start < 4 || ch->total_compressed_size <= 0 ||
	    ch->total_compressed_size > CHUNK_MAX || (uint64_t)start + len >
	    q->size)
		return fail(q, "%s", "a column chunk lies outside the file");
	if (len > q->rawcap) {
		if ((x = realloc(q->raw, len)) == NULL)
			return fail(q, "%s", "out of memory");
		q->raw = x;
		q->rawcap = len;
	}
	if (pread(q->fd, q->raw, len, (off_t)start) != (ssize_t)len)
		return fail(q, "%s", "read error");
	vals_clear(&c->dict);
	while (at < len) {
		q->at = start + (int64_t)at;
		tr_init(&r, q->raw + at, len - at);
		if (pq_page_read(&r, &pg) != 0)
			return fail(q, "page header: %s", thrift_error(&r));
		at += (size_t)(r.p - r.start);
		if ((size_t)pg.csize > len - at || pg.usize > (int32_t)CHUNK_MAX)
			return fail(q, "%s", "a page longer than its column chunk");
		if (pg.type == PQ_DICTIONARY_PAGE) {
			const unsigned char *p;
			size_t i;

			if (inflate_page(q, ch->codec, q->raw + at, (size_t)pg.csize,
			    (size_t)pg.usize) != 0 || pg.num_values < 0 ||
			    (size_t)pg.num_values > PAGE_VALUES)
				return fail(q, "%s", "a dictionary page is wrong");
			for (i = 0, p = q->page; i < (size_t)pg.num_values; i++)
				if (push_plain(q, c, &c->dict, &p, q->page + pg.usize,
				    (int)(i % 8)) != 0)
					return -1;
		} else if ((pg.type == PQ_DATA_PAGE || pg.type ==
		    PQ_DATA_PAGE_V2) && data_page(q, c, ch->codec, &pg,
		    q->raw + at) != 0)
			return -1;
		at += (size_t)pg.csize;
	}
	return 0;
}

/* ======================== rows as PGN ======================== */

/* The next row group decoded: 1, 0 at the end, -1 on a fault. */
static int
next_group(struct pqr *q)
{
	const struct pq_rowgroup *g;
	int i;

	if (q->rg >= q->m.nrg)
		return 0;
	g = &q->m.rg[q->rg++];
	if (g->ncol != q->m.nschema - 1 || g->num_rows < 0)
		return fail(q, "%s", "a row group's columns are not the schema's");
	q->grows = g->num_rows;
	for (i = 0; i < q->ncol; i++) {
		vals_clear(&q->col[i].v);
		if (read_chunk(q, &q->col[i], &g->col[q->col[i].leaf]) != 0)
			return locate(q, q->rg - 1, &q->col[i]);
		if ((int64_t)q->col[i].v.n != g->num_rows) {
			fail(q, "%s", "a column has more or fewer values "
			    "than its row group has rows");
			return locate(q, q->rg - 1, &q->col[i]);
		}
	}
	q->row = 0;
	q->nrows = g->num_rows;
	return 1;
}

/* Room for n more bytes of text: 0, or -1. */
static int
reserve(struct pqr *q, size_t n)
{
	size_t cap;
	char *x;

	if (q->olen + n <= q->ocap)
		return 0;
	for (cap = q->ocap ? q->ocap : 65536; cap < q->olen + n; cap *= 2)
		;
	if ((x = realloc(q->out, cap)) == NULL)
		return fail(q, "%s", "out of memory");
	q->out = x;
	q->ocap = cap;
	return 0;
}

static int
emit(struct pqr *q, const char *s, size_t n)
{
	if (n == 0)
		return 0;
	if (reserve(q, n) != 0)
		return -1;
	memcpy(q->out + q->olen, s, n);
	q->olen += n;
	return 0;
}

static bool
isname(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '_';
}

size_t
pqr_tag_pair(char *out, const char *name, size_t nn, const char *v, size_t n)
{
	size_t i, k = 0;

	if (nn == 0)
		return 0;
	out[k++] = '[';
	for (i = 0; i < nn; i++)
		out[k++] = isname(name[i]) ? name[i] : '_';
	out[k++] = ' ';
	out[k++] = '"';
	for (i = 0; i < n; i++) {
		if (v[i] == '"' || v[i] == '\\')
			out[k++] = '\\';
		out[k++] = v[i] == '\n' || v[i] == '\r' ? ' ' : v[i];
	}
	memcpy(out + k, "\"]\n", 3);
	return k + 3;
}

/* A byte of a word of PGN's move text (pgnlex.c: a move, a number). */
static bool
isword(char c)
{
	return isname(c) || (unsigned char)c >= 0x80 ||
	    (c != '\0' && strchr("@=+#-/~:,'^&|`", c) != NULL);
}

/* Where the result token PGN's reader takes (a '*', or a word 1-0,
   0-1 or 1/2-1/2) that holds v[i], a '*' or '-', ends; 0 if none. */
static size_t
result_end(const char *v, size_t i, size_t n)
{
	static const char *const r[] = { "1/2-1/2", "1-0", "0-1" };
	static const size_t dash[] = { 3, 1, 1 };	/* where its '-' is */
	size_t k, b, m;

	if (v[i] == '*')
		return i + 1;
	for (k = 0; k < 3; k++) {
		if (i < dash[k])
			continue;
		b = i - dash[k];
		m = strlen(r[k]);
		if (b + m <= n && memcmp(v + b, r[k], m) == 0 && (b == 0 ||
		    !isword(v[b - 1])) && (b + m == n || !isword(v[b + m])))
			return b + m;
	}
	return 0;
}

const char *
pqr_result(const char *v, size_t n)
{
	static const char *const r[] = { "1-0", "0-1", "1/2-1/2", "*" };
	size_t k;

	for (k = 0; k < 4; k++)
		if (strlen(r[k]) == n && memcmp(v, r[k], n) == 0)
			return r[k];
	return "*";
}

/* Bytes of move text by what pqr_movetext does with them. */
enum { MT_NL = 1, MT_CLOSE = 2, MT_GAME = 4 };
static const unsigned char mtclass[256] = {
	['\n'] = MT_NL, ['\r'] = MT_NL, ['}'] = MT_CLOSE,
	['{'] = MT_GAME, [';'] = MT_GAME, ['('] = MT_GAME, [')'] = MT_GAME,
	['['] = MT_GAME, ['*'] = MT_GAME, ['-'] = MT_GAME
};

size_t
pqr_movetext(char *out, const char *v, size_t n, const char **tail)
{
	enum { GAME, AFTER, JUNK } st = GAME;	/* before its result, after
						   it, text after that */
	size_t i, j, m, k = 0;
	char c, in = 0;		/* in a comment: the byte that ends it */
	int depth = 0;		/* in variations */
	bool nl = n > 0 && (memchr(v, '\n', n) != NULL ||
	    memchr(v, '\r', n) != NULL);

	if (n > 0 && v[0] == '%')	/* not an escape line, which PGN's
					   reader would skip whole */
		out[k++] = ' ';
	for (i = 0; i < n; i++) {
		/* the run of bytes nothing is done with, at once */
		unsigned stop = st == JUNK || in == '\n' ? MT_NL : in == '}' ?
		    MT_NL | MT_CLOSE : MT_NL | MT_GAME;
		const char *e;

		if (!nl && stop == MT_NL)		/* to the end */
			j = n;
		else if (!nl && in == '}')		/* to the comment's end */
			j = (e = memchr(v + i, '}', n - i)) ? (size_t)(e - v) : n;
		else
			for (j = i; j < n && st != AFTER &&
			    !(mtclass[(unsigned char)v[j]] & stop); j++)
				;
		memcpy(out + k, v + i, j - i);
		k += j - i;
		if ((i = j) == n)
			break;
		c = v[i] == '\n' || v[i] == '\r' ? ' ' : v[i];
		if (st == JUNK || in != 0) {
			in = in != 0 && c == in ? 0 : in;
			out[k++] = c;
			continue;
		}
		if (c == '{' && !nl && (e = memchr(v + i, '}', n - i)) != NULL) {
			j = (size_t)(e - v);	/* the whole comment at once */
			memcpy(out + k, v + i, j - i);
			k += j - i;
			i = j;
			c = '}';
		} else if (c == '{' || c == ';') {
			in = c == '{' ? '}' : '\n';	/* ';': to the end, no
							   line break is left */
		} else if (st == AFTER) {
			/* more than comments after the result: PGN's reader
			   would start a game there; after a DEL byte it skips
			   the rest of the line as text between games */
			if (c != ' ' && c != '\t') {
				out[k++] = '\x7f';
				st = JUNK;
			}
		} else if (c == '(' || c == ')') {
			depth += c == '(' ? 1 : depth > 0 ? -1 : 0;
		} else if (c == '[') {
			for (j = i + 1; j < n && strchr(" \t\r\n", v[j]) != NULL &&
			    v[j] != '\0'; j++)
				;
			if (j < n && isname(v[j])) {	/* not the next game's
							   tags: an error here */
				out[k++] = c;
				c = '\x7f';
			}
		} else if (depth == 0 && (c == '*' || c == '-') &&
		    (m = result_end(v, i, n)) > 0) {
			memcpy(out + k, v + i, m - i - 1);
			k += m - i - 1;
			i = m - 1;
			c = v[i];
			st = AFTER;
		}
		out[k++] = c;
	}
	/* what goes before the result its row gives it */
	*tail = st != GAME ? NULL : in == '\n' ? "\n" : " ";
	return k;
}

/* A tag pair of column c. */
static int
emit_tag(struct pqr *q, const struct rcol *c, const char *v, size_t n)
{
	if (reserve(q, c->taglen + 2 * n + 6) != 0)
		return -1;
	q->olen += pqr_tag_pair(q->out + q->olen, c->tag, c->taglen, v, n);
	return 0;
}

/* Row q->row as a game, after q->out. */
static int
emit_row(struct pqr *q)
{
	const struct rcol *c, *mv = NULL, *res = NULL;
	const char *tail = " ", *t;
	size_t i = (size_t)q->row, start = q->olen;
	int k, rc;

	rc = emit(q, q->roster, q->nroster);
	for (k = 0; k < q->ncol && rc == 0; k++) {
		c = &q->col[k];
		if (c->moves) {
			mv = c;
			continue;
		}
		if (c->s->namelen == 6 && memcmp(c->s->name, "Result", 6) == 0)
			res = c;
		if (!c->v.null[i])
			rc = emit_tag(q, c, c->v.heap + c->v.off[i], c->v.len[i]);
	}
	if (q->olen == start)	/* a row without a tag still starts its
				   game where PGN looks for one */
		rc |= emit(q, NOTAG, sizeof NOTAG - 1);
	rc |= emit(q, "\n", 1);
	if (mv != NULL && !mv->v.null[i] && (rc |= reserve(q, 2 *
	    (size_t)mv->v.len[i] + 1)) == 0)
		q->olen += pqr_movetext(q->out + q->olen, mv->v.heap +
		    mv->v.off[i], mv->v.len[i], &tail);
	if (tail != NULL) {
		rc |= emit(q, tail, 1);
		t = res == NULL || res->v.null[i] ? "*" : pqr_result(res->v.heap +
		    res->v.off[i], res->v.len[i]);
		rc |= emit(q, t, strlen(t));
	}
	q->row++;
	return rc | emit(q, "\n\n", 2);
}

static ssize_t
cookie_read(void *cookie, char *buf, size_t size)
{
	struct pqr *q = cookie;
	size_t n;
	int k;

	while (q->opos == q->olen && q->err == NULL) {
		q->olen = q->opos = 0;
		if (q->row >= q->nrows && (k = next_group(q)) <= 0) {
			if (k == 0)
				return 0;
			break;
		}
		while (q->row < q->nrows && q->olen < 65536 && q->err == NULL)
			emit_row(q);
	}
	if (q->err != NULL) {
		errno = EIO;
		return -1;
	}
	n = q->olen - q->opos < size ? q->olen - q->opos : size;
	memcpy(buf, q->out + q->opos, n);
	q->opos += n;
	return (ssize_t)n;
}

static int
cookie_close(void *cookie)
{
	struct pqr *q = cookie, **p;
	int i;

	pthread_mutex_lock(&readers_mu);
	for (p = &open_readers; *p != NULL; p = &(*p)->next)
		if (*p == q) {
			*p = q->next;
			break;
		}
	pthread_mutex_unlock(&readers_mu);
	for (i = 0; i < q->ncol; i++) {
		vals_free(&q->col[i].v);
		vals_free(&q->col[i].dict);
	}
	free(q->col);
	pq_meta_free(&q->m);
	free(q->meta);
	free(q->out);
	free(q->raw);
	free(q->page);
	if (q->err != oom)
		free(q->err);
	if (q->f != stdin)
		fclose(q->f);
	free(q);
	return 0;
}

/* ======================== the file ======================== */

/* The Seven Tag Roster but Result (which the move text ends with), and
   the PGN Standard's value for unknown of each (8.1.1). */
static const struct {
	const char *tag, *unknown;
} roster[] = {
	{ "Event", "?" }, { "Site", "?" }, { "Date", "????.??.??" },
	{ "Round", "?" }, { "White", "?" }, { "Black", "?" }
};

unsigned
pqr_roster_bit(const char *tag, size_t n)
{
	size_t k;

	for (k = 0; k < sizeof roster / sizeof *roster; k++)
		if (strlen(roster[k].tag) == n && memcmp(roster[k].tag, tag, n) ==
		    0)
			return 1u << k;
	return 0;
}

size_t
pqr_roster_fill(unsigned have, char *b, size_t size)
{
	size_t k, n = 0;
	int w;

	for (k = 0; k < sizeof roster / sizeof *roster; k++)
		if (!(have & 1u << k) && (w = snprintf(b + n, size - n,
		    "[%s \"%s\"]\n", roster[k].tag, roster[k].unknown)) > 0 &&
		    (size_t)w < size - n)
			n += (size_t)w;
	return n;
}

/* The names zhkit's own games tables add (zhpgn -F parquet): not tags. */
static bool
own_column(const struct pq_schema *s)
{
	static const char *const own[] = { "uci", "plies", "valid", "error" };
	size_t k;

	for (k = 0; k < 4; k++)
		if (s->namelen == strlen(own[k]) && memcmp(s->name, own[k],
		    s->namelen) == 0)
			return true;
	return false;
}

/* The schema checked (flat) and its columns chosen: 0, or -1. */
static int
columns(struct pqr *q)
{
	const struct pq_schema *s = q->m.schema;
	int i, n = q->m.nschema - 1, own_variant = -1;
	bool variant = false;
	unsigned have = 0;

	if (s[0].num_children != n)
		return fail(q, "%s", "nested columns (a group in the schema) are "
		    "not read");
	if ((q->col = calloc((size_t)(n ? n : 1), sizeof *q->col)) == NULL)
		return fail(q, "%s", "out of memory");
	for (i = 1; i <= n; i++) {
		if (s[i].num_children != 0 || s[i].repetition == 2 ||
		    s[i].type < 0)
			return fail(q, "%s", "nested columns (a group or a repeated "
			    "field) are not read");
		if (own_column(&s[i]))
			continue;
		if (s[i].namelen == 7 && memcmp(s[i].name, "variant", 7) == 0) {
			own_variant = i;	/* zhkit's: the Variant tag if
						   there is none */
			continue;
		}
		variant |= s[i].namelen == 7 && memcmp(s[i].name, "Variant", 7) ==
		    0;
		q->col[q->ncol].leaf = i - 1;
		q->col[q->ncol].s = &s[i];
		q->col[q->ncol].taglen = s[i].namelen;
		q->col[q->ncol].tag = pqr_column_tag(s[i].name,
		    &q->col[q->ncol].taglen, &q->col[q->ncol].moves);
		q->ncol++;
	}
	if (own_variant > 0 && !variant) {
		q->col[q->ncol].leaf = own_variant - 1;
		q->col[q->ncol].s = &s[own_variant];
		q->col[q->ncol].tag = "Variant";
		q->col[q->ncol].taglen = 7;
		q->ncol++;
	}
	for (i = 0; i < q->ncol; i++)
		have |= q->col[i].moves ? 0 : pqr_roster_bit(q->col[i].tag,
		    q->col[i].taglen);
	q->nroster = pqr_roster_fill(have, q->roster, sizeof q->roster);
	return 0;
}

/* The footer read and parsed: 0, or -1. */
static int
footer(struct pqr *q)
{
	unsigned char tail[8];
	struct thrift_r r;
	uint32_t n;
	struct stat st;

	if (fstat(q->fd, &st) != 0 || !S_ISREG(st.st_mode))
		return fail(q, "%s", "a Parquet input must be a file (named by its path), not a pipe "
		    "or a stream");
	q->size = (uint64_t)st.st_size;
	if (q->size < 12 || pread(q->fd, tail, 8, (off_t)q->size - 8) != 8)
		return fail(q, "%s", "damaged footer: the file is too short");
	if (memcmp(tail + 4, "PARE", 4) == 0)
		return fail(q, "%s", "encrypted Parquet files are not read");
	if (memcmp(tail + 4, "PAR1", 4) != 0)
		return fail(q, "%s", "damaged footer: no PAR1 at the end");
	n = (uint32_t)tail[0] | (uint32_t)tail[1] << 8 | (uint32_t)tail[2] <<
	    16 | (uint32_t)tail[3] << 24;
	if (n > q->size - 12 || n > META_MAX)
		return fail(q, "%s", "damaged footer: its length is wrong");
	if ((q->meta = malloc(n ? n : 1)) == NULL)
		return fail(q, "%s", "out of memory");
	if (pread(q->fd, q->meta, n, (off_t)(q->size - 8 - n)) != (ssize_t)n)
		return fail(q, "%s", "read error");
	if (pq_meta_read(&r, q->meta, n, &q->m) != 0)
		return fail(q, "damaged footer: %s", thrift_error(&r));
	if (q->m.encrypted)
		return fail(q, "%s", "encrypted Parquet files are not read");
	return columns(q);
}

FILE *
pqr_ropen(FILE *f)
{
	static const cookie_io_functions_t io = { .read = cookie_read,
	    .close = cookie_close };
	struct pqr *q = calloc(1, sizeof *q);

	if (q == NULL)
		return NULL;
	q->f = f;
	q->fd = fileno(f);
	footer(q);		/* a fault fails the first read */
	if ((q->self = fopencookie(q, "r", io)) == NULL) {
		q->f = stdin;	/* not closed by the cleanup */
		cookie_close(q);
		return NULL;
	}
	pthread_mutex_lock(&readers_mu);
	q->next = open_readers;
	open_readers = q;
	pthread_mutex_unlock(&readers_mu);
	return q->self;
}

const char *
pqr_error(FILE *f)
{
	static __thread char msg[300];
	struct pqr *q;
	const char *r = NULL;

	pthread_mutex_lock(&readers_mu);
	for (q = open_readers; q != NULL; q = q->next)
		if (q->self == f && q->err != NULL) {
			snprintf(msg, sizeof msg, "parquet: %s", q->err);
			r = msg;
		}
	pthread_mutex_unlock(&readers_mu);
	return r;
}
