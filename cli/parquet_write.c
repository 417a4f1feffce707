/*
 * parquet_write.c - records as a Parquet file (parquet_write.h).
 *
 * The file, as parquet-format's README and parquet.thrift describe it:
 * "PAR1", then each row group's column chunks (an optional dictionary
 * page, then data pages, each a Thrift PageHeader and its bytes), then
 * the FileMetaData (Thrift compact), its length (4 bytes, little-endian)
 * and "PAR1".  Every column is REQUIRED, so a data page (v1) is its
 * values alone, no levels.  PLAIN values: BOOLEAN bit-packed (low bit
 * first), INT32/INT64 little-endian, FIXED_LEN_BYTE_ARRAY the bytes,
 * BYTE_ARRAY a 4-byte length and the bytes.  RLE_DICTIONARY: a PLAIN
 * dictionary page, and data pages of one byte (the indices' bit width)
 * then the indices in the RLE / bit-packing hybrid (Encodings.md).
 */
#define _DEFAULT_SOURCE		/* MADV_HUGEPAGE */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <snappy-c.h>
#define ZLIB_CONST		/* deflate reads const bytes */
#include <zlib.h>
#include <zstd.h>

#include "codec.h"
#include "parquet_meta.h"
#include "parquet_write.h"

#define MAXCOLS		256
#define MAXTHREADS	4		/* encoders at most */
#define PAGE_BYTES	(1u << 20)	/* a data page's values, about */
#define DICT_MAX	32768		/* a dictionary's entries at most */
#define DICT_PROBE	4096		/* rows seen before giving it up */

struct col {
	char *name;
	enum pqw_kind kind;
	size_t off, width;
	int ptype;			/* Parquet's physical type */
	long nulloff;			/* the present byte, -1: required */
	size_t cbase;			/* its values' offset in w->cols */
};

#define INTKIND(k)	((k) < PQW_FIXED)	/* gather()'s */

/* Byte buffer */
struct buf {
	unsigned char *p;
	size_t len, cap;
};

struct pqw {
	size_t recsize;
	struct col col[MAXCOLS];
	int ncol;
	int codec;			/* PQ_ZSTD, ... */
	int level;
	FILE *f;
	uint64_t pos;			/* bytes written */
	unsigned char *rows;		/* the row group's records */
	bool cm;			/* by columns: no column may be null
					   or a PQW_STR (pqw_begin()) */
	unsigned char *cols;		/* then the row group's values, a
					   column after another (its width a
					   value, maxrows values), not rows */
	size_t nrows, maxrows;
	uint64_t total;			/* rows written */
	struct thrift_w groups;		/* the RowGroups written, serialized */
	long ngroups;
	struct buf heap;		/* the row group's PQW_STR bytes */
	size_t maxstr;			/* the longest PQW_STR there */
	bool fail;
	struct chunk *ck;		/* the row group's column chunks */
	struct enc *enc;		/* the encoders' (one a thread) */
	int nenc;
	/* w->cm: the row group being filled, while w->cols is encoded by
	   the threads (each takes the next column not taken: same bytes
	   whichever encodes it) */
	unsigned char *fill;
	size_t nfill;
	int order[MAXCOLS];		/* the columns taken widest first */
	pthread_t th[MAXTHREADS];
	int nth;			/* started */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool busy;			/* w->cols is being encoded */
	int next, ndone;		/* its columns taken, encoded */
	bool stop;			/* the threads end */
	bool efail;			/* an encoder failed (errno eerr) */
	int eerr;
};

/* An encoder's buffers: a column chunk encoded into its struct chunk. */
struct enc {
	struct pqw *w;
	struct buf vals, z, idx;	/* a page's values, compressed, the
					   rows' dictionary indices */
	const unsigned char *in;	/* or its values where they are */
	size_t inlen;
	struct buf dict;		/* the dictionary's values (PLAIN) */
	struct buf tmp;			/* a value's PLAIN bytes */
	size_t nvals;			/* the column's values not null */
	uint32_t *lev;			/* a page's definition levels */
	uint32_t *slot;			/* its hash table: index + 1 */
	size_t nslot;
	size_t *doff;			/* entry i at dict.p + doff[i] */
	size_t ndict;
	uint64_t *iv;			/* an integer column's values */
	uint64_t imin, imax;		/* and their min and max */
	uint32_t *map;			/* value - imin -> index + 1 */
	uint64_t *dv;			/* an integer dictionary's values */
	const unsigned char *bytes;	/* or NULL: a byte column's values,
					   their indices bmap[] of them (not
					   in idx) */
	uint32_t bmap[256];
	ZSTD_CCtx *zc;
};

/* A column chunk encoded: its pages' bytes, their sizes, its
   statistics. */
struct chunk {
	struct buf b;			/* dictionary page, data pages */
	size_t dlen;			/* the dictionary page's bytes */
	bool dict;
	int64_t usize, csize;		/* uncompressed, compressed */
	size_t nnull;
	unsigned char mn[4096 + 8], mx[4096 + 8];	/* PLAIN */
	size_t nmn, nmx;
};

/* ======================== bytes ======================== */

static bool
room(struct buf *b, size_t n)
{
	size_t cap;
	unsigned char *p;

	if (b->len + n <= b->cap)
		return true;
	cap = b->cap ? b->cap : 4096;
	while (cap < b->len + n)
		cap *= 2;
	if ((p = realloc(b->p, cap)) == NULL)
		return false;
	b->p = p;
	b->cap = cap;
	return true;
}

static inline void
put_le(unsigned char *q, uint64_t v, int n)
{
	int i;

	if (n == 4) {		/* (most often; one store) */
		q[0] = (unsigned char)v;
		q[1] = (unsigned char)(v >> 8);
		q[2] = (unsigned char)(v >> 16);
		q[3] = (unsigned char)(v >> 24);
		return;
	}
	for (i = 0; i < n; i++)
		q[i] = (unsigned char)(v >> (8 * i));
}

/* The length of the run of equal bytes at b[i] (i < n), 8 at a time. */
static inline size_t
run8(const unsigned char *b, size_t i, size_t n)
{
	uint64_t v = b[i] * 0x0101010101010101u, x;
	size_t j = i + 1;

	for (; j + 8 <= n; j += 8) {
		memcpy(&x, b + j, 8);
		if (x != v) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			/* the run ends at the first byte that differs */
			return j + (size_t)__builtin_ctzll(x ^ v) / 8 - i;
#else
			break;
#endif
		}
	}
	while (j < n && b[j] == b[i])
		j++;
	return j - i;
}

/* A record's integer field at q, as the kind says. */
static int64_t
get_int(const unsigned char *q, enum pqw_kind k)
{
	uint64_t v = 0;
	int n, i;

	switch (k) {
	case PQW_BOOL: return q[0] != 0;
	case PQW_U8: return q[0];
	case PQW_I8: return (signed char)q[0];
	default: break;
	}
	n = k == PQW_U16 || k == PQW_I16 ? 2 : k == PQW_U64 || k == PQW_I64 ?
	    8 : 4;
	for (i = n - 1; i >= 0; i--)
		v = v << 8 | q[i];
	if (k == PQW_I16)
		return (int16_t)v;
	if (k == PQW_I32 || k == PQW_DATE || k == PQW_TIME)
		return (int32_t)v;
	return (int64_t)v;
}

/* The value of row i of column c: in the record, or in its column. */
static inline const unsigned char *
val(const struct pqw *w, const struct col *c, size_t i)
{
	return w->cm ? w->cols + c->cbase + i * c->width : w->rows + i *
	    w->recsize + c->off;
}

/* The bytes from one value of column c to the next (val()'s). */
static inline size_t
stride(const struct pqw *w, const struct col *c)
{
	return w->cm ? c->width : w->recsize;
}

/* Value s's PLAIN bytes into q (room for width + 8, or a PQW_STR's
   length + 4): their count. */
static size_t
plain(const struct pqw *w, const struct col *c, const unsigned char *s,
    unsigned char *q)
{
	uint32_t o, len;
	size_t n;

	switch (c->ptype) {
	case PQ_INT32:
		put_le(q, (uint64_t)get_int(s, c->kind), 4);
		return 4;
	case PQ_INT64:
		put_le(q, (uint64_t)get_int(s, c->kind), 8);
		return 8;
	case PQ_FIXED:
		memcpy(q, s, c->width);
		return c->width;
	default:		/* BYTE_ARRAY */
		if (c->kind == PQW_STR) {
			o = (uint32_t)get_int(s, PQW_U32);
			len = (uint32_t)get_int(s + 4, PQW_U32);
			put_le(q, len, 4);
			if (len > 0)	/* (an empty heap has no bytes) */
				memcpy(q + 4, w->heap.p + o, len);
			return (size_t)len + 4;
		}
		n = strnlen((const char *)s, c->width);
		put_le(q, n, 4);
		memcpy(q + 4, s, n);
		return n + 4;
	}
}

/* Is row i's value of column c there (not null)? */
static inline bool
present(const struct pqw *w, const struct col *c, size_t i)
{
	/* (a column that may be null is never w->cm's) */
	return c->nulloff < 0 || w->rows[i * w->recsize + (size_t)c->nulloff];
}

/* The bytes a value of c takes as PLAIN, at most. */
static size_t
value_room(const struct pqw *w, const struct col *c)
{
	return (c->kind == PQW_STR ? w->maxstr : c->width) + 8;
}

/* Does PLAIN value a sort before b (the column's order: unsigned for
   UINTEGER and bytes, signed otherwise)? */
static bool
before(const struct col *c, const unsigned char *a, size_t na,
    const unsigned char *b, size_t nb)
{
	int64_t x, y;
	int r;

	if (c->ptype == PQ_INT32 || c->ptype == PQ_INT64) {
		int n = c->ptype == PQ_INT32 ? 4 : 8;
		uint64_t ux = 0, uy = 0;
		int i;

		for (i = n - 1; i >= 0; i--) {
			ux = ux << 8 | a[i];
			uy = uy << 8 | b[i];
		}
		if (c->kind == PQW_U32 || c->kind == PQW_U64)
			return ux < uy;
		x = n == 4 ? (int32_t)ux : (int64_t)ux;
		y = n == 4 ? (int32_t)uy : (int64_t)uy;
		return x < y;
	}
	if (c->ptype == PQ_BYTE_ARRAY) {	/* past the length */
		a += 4, na -= 4, b += 4, nb -= 4;
	}
	r = memcmp(a, b, na < nb ? na : nb);
	return r < 0 || (r == 0 && na < nb);
}

/* ======================== codecs ======================== */

static const char *const codec_names[] = { "none", "snappy", "gzip", NULL,
	NULL, NULL, "zstd" };

bool
pqw_codec_known(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof codec_names / sizeof *codec_names; i++)
		if (codec_names[i] != NULL && strcmp(codec_names[i], s) == 0)
			return true;
	return false;
}

/* The page's values (e->in if not NULL, else e->vals) compressed into
   e->z: false if not (out of memory). */
static bool
compress_page(struct enc *e)
{
	const struct pqw *w = e->w;
	const unsigned char *in = e->in != NULL ? e->in : e->vals.p;
	size_t n = e->in != NULL ? e->inlen : e->vals.len, bound;
	z_stream zs;

	e->z.len = 0;
	switch (w->codec) {
	case PQ_ZSTD:
		bound = ZSTD_compressBound(n);
		if (!room(&e->z, bound))
			return false;
		e->z.len = ZSTD_compressCCtx(e->zc, e->z.p, bound, in, n,
		    w->level ? w->level : 1);	/* smaller and faster than 3
						   on positions */
		return !ZSTD_isError(e->z.len);
	case PQ_SNAPPY:
		bound = snappy_max_compressed_length(n);
		if (!room(&e->z, bound))
			return false;
		e->z.len = bound;
		return snappy_compress((const char *)in, n,
		    (char *)e->z.p, &e->z.len) == SNAPPY_OK;
	case PQ_GZIP:
		memset(&zs, 0, sizeof zs);
		if (deflateInit2(&zs, w->level ? w->level : 6, Z_DEFLATED,
		    31, 8, Z_DEFAULT_STRATEGY) != Z_OK)
			return false;
		bound = deflateBound(&zs, n);
		if (!room(&e->z, bound)) {
			deflateEnd(&zs);
			return false;
		}
		zs.next_in = in;
		zs.avail_in = (uInt)n;
		zs.next_out = e->z.p;
		zs.avail_out = (uInt)bound;
		if (deflate(&zs, Z_FINISH) != Z_STREAM_END) {
			deflateEnd(&zs);
			return false;
		}
		e->z.len = zs.total_out;
		deflateEnd(&zs);
		return true;
	default:
		if (!room(&e->z, n))
			return false;
		memcpy(e->z.p, in, n);
		e->z.len = n;
		return true;
	}
}

/* ======================== the writer ======================== */

struct pqw *
pqw_new(size_t recsize, const char *codec, int level)
{
	struct pqw *w;
	int k;

	for (k = 0; k < (int)(sizeof codec_names / sizeof *codec_names); k++)
		if (codec_names[k] != NULL && strcmp(codec_names[k], codec) == 0)
			break;
	if (k == (int)(sizeof codec_names / sizeof *codec_names) ||
	    recsize == 0 || (w = calloc(1, sizeof *w)) == NULL)
		return NULL;
	w->recsize = recsize;
	w->codec = k;
	w->level = level;
	w->maxrows = PQW_GROUP_BYTES / recsize;
	if (w->maxrows > PQW_GROUP_ROWS)
		w->maxrows = PQW_GROUP_ROWS;
	if (w->maxrows == 0)
		w->maxrows = 1;
	return w;
}

int
pqw_group_rows(struct pqw *w, size_t n)
{
	if (n == 0 || w->ck != NULL)
		return -1;
	if (n > PQW_GROUP_BYTES / w->recsize)
		n = PQW_GROUP_BYTES / w->recsize ? PQW_GROUP_BYTES / w->recsize : 1;
	w->maxrows = n;
	return 0;
}

int
pqw_column_opt(struct pqw *w, const char *name, enum pqw_kind kind,
    size_t offset, size_t width, size_t nulloff)
{
	static const size_t size[] = { 1, 1, 1, 2, 2, 4, 4, 8, 8, 4, 4, 0, 0,
	    8 };
	struct col *c;

	if (kind < PQW_FIXED || kind == PQW_STR)
		width = size[kind];
	else if (width > 4096)
		return -1;
	if (w->ncol == MAXCOLS || width == 0 || offset + width > w->recsize ||
	    (nulloff != SIZE_MAX && nulloff >= w->recsize))
		return -1;
	c = &w->col[w->ncol];
	if ((c->name = strdup(name)) == NULL)
		return -1;
	c->kind = kind;
	c->off = offset;
	c->width = width;
	c->nulloff = nulloff == SIZE_MAX ? -1 : (long)nulloff;
	c->ptype = kind == PQW_BOOL ? PQ_BOOLEAN : kind == PQW_U64 ||
	    kind == PQW_I64 ? PQ_INT64 : INTKIND(kind) ? PQ_INT32 :
	    kind == PQW_FIXED ? PQ_FIXED : PQ_BYTE_ARRAY;
	w->ncol++;
	return 0;
}

int
pqw_column(struct pqw *w, const char *name, enum pqw_kind kind,
    size_t offset, size_t width)
{
	return pqw_column_opt(w, name, kind, offset, width, SIZE_MAX);
}

/* An encoder's buffers for w's row groups: false if out of memory. */
static bool
enc_init(struct enc *e, struct pqw *w)
{
	e->w = w;
	return (e->iv = malloc(w->maxrows * sizeof *e->iv)) != NULL &&
	    (e->map = malloc(65536 * sizeof *e->map)) != NULL &&
	    (e->dv = malloc(DICT_MAX * sizeof *e->dv)) != NULL &&
	    (e->doff = malloc(DICT_MAX * sizeof *e->doff)) != NULL &&
	    (e->lev = malloc(w->maxrows * sizeof *e->lev)) != NULL &&
	    (w->codec != PQ_ZSTD || (e->zc = ZSTD_createCCtx()) != NULL);
}

static void
enc_free(struct enc *e)
{
	free(e->iv);
	free(e->map);
	free(e->dv);
	free(e->vals.p);
	free(e->z.p);
	free(e->idx.p);
	free(e->dict.p);
	free(e->tmp.p);
	free(e->lev);
	free(e->slot);
	free(e->doff);
	ZSTD_freeCCtx(e->zc);
}

static void threads_end(struct pqw *);

void
pqw_free(struct pqw *w)
{
	int i;

	if (w == NULL)
		return;
	threads_end(w);
	for (i = 0; i < w->ncol; i++)
		free(w->col[i].name);
	for (i = 0; w->ck != NULL && i < w->ncol; i++)
		free(w->ck[i].b.p);
	for (i = 0; i < w->nenc; i++)
		enc_free(&w->enc[i]);
	free(w->ck);
	free(w->enc);
	free(w->rows);
	free(w->cols);
	free(w->fill);
	tw_free(&w->groups);
	free(w->heap.p);
	free(w);
}

static int
out(struct pqw *w, const void *p, size_t n)
{
	if (n > 0 && fwrite(p, 1, n, w->f) != n) {
		if (errno == 0)
			errno = EIO;
		return -1;
	}
	w->pos += n;
	return 0;
}

/* A row group's values: n bytes (at least 1) in transparent huge pages
   where the system offers them, so that filling it takes a page fault
   every 2 MB, not every 4 KB; free()d.  NULL if out of memory. */
static void *
big_alloc(size_t n)
{
	size_t huge = (size_t)2 << 20, size = (n + huge - 1) / huge * huge;
	void *p;

	if (size == 0)
		size = huge;
	if ((p = aligned_alloc(huge, size)) == NULL)
		return NULL;
#ifdef MADV_HUGEPAGE
	(void)madvise(p, size, MADV_HUGEPAGE);
#endif
	return p;
}

/* The row groups' buffers: by columns (w->cm, two of them: one filled
   while the other is encoded by threads) if no column may be null or
   is a PQW_STR and there are cores for it, else by records; an encoder
   a thread.  0, or -1 if out of memory. */
static int
buffers(struct pqw *w)
{
	size_t total = 0;
	int i, cores = codec_cores();

	w->cm = cores > 1 && w->ncol > 0;	/* (a thread takes a column) */
	for (i = 0; i < w->ncol; i++)
		if (w->col[i].nulloff >= 0 || w->col[i].kind == PQW_STR)
			w->cm = false;
	w->nenc = w->cm ? (cores < MAXTHREADS ? cores : MAXTHREADS) : 1;
	if ((w->ck = calloc((size_t)w->ncol + 1, sizeof *w->ck)) == NULL ||
	    (w->enc = calloc((size_t)w->nenc, sizeof *w->enc)) == NULL)
		return -1;
	for (i = 0; i < w->nenc; i++)
		if (!enc_init(&w->enc[i], w))
			return -1;
	if (!w->cm)
		return (w->rows = malloc(w->maxrows * w->recsize)) != NULL ?
		    0 : -1;
	for (i = 0; i < w->ncol; i++) {
		w->col[i].cbase = total;
		total += w->maxrows * w->col[i].width;
		w->order[i] = i;
	}
	for (i = 1; i < w->ncol; i++) {	/* widest first, stable */
		int k = w->order[i], j = i;

		for (; j > 0 && w->col[w->order[j - 1]].width < w->col[k].width;
		    j--)
			w->order[j] = w->order[j - 1];
		w->order[j] = k;
	}
	if ((w->cols = big_alloc(total)) == NULL ||
	    (w->fill = big_alloc(total)) == NULL)
		return -1;
	return 0;
}

int
pqw_begin(struct pqw *w, FILE *f)
{
	w->f = f;
	w->pos = 0;
	if (w->ck == NULL && buffers(w) != 0) {
		errno = ENOMEM;
		return -1;
	}
	return out(w, "PAR1", 4);
}

/* ======================== a dictionary ======================== */

/* A hash of n bytes at p, 8 at a time (multiply and fold; the slot
   only, never in the file). */
static uint32_t
hash(const unsigned char *p, size_t n)
{
	const uint64_t m = 0x9e3779b97f4a7c15u;
	uint64_t h = n * m, x;

	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&x, p, 8);
		h = (h ^ x) * m;
		h ^= h >> 31;
	}
	if (n > 0) {
		for (x = 0; n > 0; n--)
			x = x << 8 | p[n - 1];
		h = (h ^ x) * m;
	}
	h ^= h >> 29;
	return (uint32_t)(h * m >> 32);
}

static void
dict_reset(struct enc *e)
{
	e->ndict = 0;
	e->dict.len = 0;
	if (e->slot != NULL)
		memset(e->slot, 0, e->nslot * sizeof *e->slot);
}

/* The index of PLAIN value v (n bytes), added if new: -1 if the
   dictionary is full or out of memory. */
static long
dict_index(struct enc *e, const unsigned char *v, size_t n)
{
	size_t i, mask;
	uint32_t s;

	if (e->slot == NULL) {
		e->nslot = 2 * DICT_MAX;
		if ((e->slot = calloc(e->nslot, sizeof *e->slot)) == NULL)
			return -1;
	}
	mask = e->nslot - 1;
	for (i = hash(v, n) & mask; (s = e->slot[i]) != 0; i = (i + 1) & mask) {
		size_t o = e->doff[s - 1], len = (s < e->ndict ?
		    e->doff[s] : e->dict.len) - o;

		if (len == n && memcmp(e->dict.p + o, v, n) == 0)
			return (long)s - 1;
	}
	if (e->ndict == DICT_MAX || !room(&e->dict, n))
		return -1;
	e->doff[e->ndict] = e->dict.len;
	memcpy(e->dict.p + e->dict.len, v, n);
	e->dict.len += n;
	e->slot[i] = (uint32_t)++e->ndict;
	return (long)e->ndict - 1;
}

/* Value x at slot d of int_dict's map m: its dictionary index into
   ix[i], a new entry if the slot is empty; false when the dictionary is
   full, or does not pay after DICT_PROBE values. */
static inline bool
int_entry(struct enc *e, uint32_t *m, size_t d, uint64_t x, uint32_t *ix,
    size_t i)
{
	if (m[d] == 0) {
		if (e->ndict == DICT_MAX)
			return false;
		e->dv[e->ndict] = x;
		m[d] = (uint32_t)++e->ndict;
	}
	ix[i] = m[d] - 1;
	return !(i + 1 == DICT_PROBE && e->ndict > DICT_PROBE / 2);
}

/* Word x's slot in e->map's hash table of e->dv (an empty one if x is
   not there): Fibonacci hashing, linear probing. */
static inline size_t
int_slot(const struct enc *e, uint64_t x)
{
	const uint32_t *m = e->map;
	size_t d;

	for (d = (size_t)((x * 0x9e3779b97f4a7c15u) >> 48); m[d] != 0 &&
	    e->dv[m[d] - 1] != x; d = (d + 1) & 65535)
		;
	return d;
}

/* A short text's bytes (at most 8, NUL-padded to width) as one word,
   the bytes from its first NUL on 0; its length into *len. */
static inline uint64_t
text_word(const unsigned char *s, size_t width, size_t *len)
{
	uint64_t x = 0, z;
	size_t n;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (width == 8) {
		memcpy(&x, s, 8);
		/* the first NUL byte's high bit: the lowest set of z */
		z = (x - 0x0101010101010101u) & ~x & 0x8080808080808080u;
		if (z == 0) {
			*len = 8;
			return x;
		}
		n = (size_t)__builtin_ctzll(z) / 8;
		*len = n;
		return n == 0 ? 0 : x & (~(uint64_t)0 >> (64 - 8 * n));
	}
#endif
	for (n = 0; n < width && s[n] != '\0'; n++)
		x |= (uint64_t)s[n] << (8 * n);
	*len = n;
	(void)z;
	return x;
}

/* dict_build() of a text column of at most 8 bytes by columns (w->cm,
   the uci move): each value one word, found by hashing the words as
   int_dict() does; the dictionary's PLAIN values made from its words
   at the end.  The same dictionary as dict_index() would make. */
static bool
text8_dict(struct enc *e, const struct col *c, uint32_t *ix)
{
	const struct pqw *w = e->w;
	const unsigned char *p = val(w, c, 0);
	size_t i, n = w->nrows, d, len;
	uint32_t *m = e->map;
	uint64_t x;
	unsigned char *q;

	memset(m, 0, 65536 * sizeof *m);
	for (i = 0; i < n; i++, p += c->width) {
		x = text_word(p, c->width, &len);
		if (!int_entry(e, m, int_slot(e, x), x, ix, i))
			return false;
	}
	e->nvals = n;
	if (e->ndict > n / 2 + 1 || !room(&e->dict, e->ndict * 12))
		return false;
	for (q = e->dict.p, d = 0; d < e->ndict; d++) {	/* PLAIN */
		e->doff[d] = (size_t)(q - e->dict.p);
		x = e->dv[d];
		for (len = 0; len < 8 && (x >> (8 * len)) != 0; len++)
			q[4 + len] = (unsigned char)(x >> (8 * len));
		put_le(q, len, 4);
		q += 4 + len;
	}
	e->dict.len = (size_t)(q - e->dict.p);
	return true;
}

/* Column c of the row group (its values not null) in a dictionary: its
   indices in e->idx (4 bytes each), their count in e->nvals; false if
   it does not pay (too many values). */
static bool
dict_build(struct enc *e, const struct col *c)
{
	const struct pqw *w = e->w;
	uint32_t *ix;
	size_t i, k = 0;
	long d;

	dict_reset(e);
	e->idx.len = 0;
	e->nvals = 0;
	if (c->ptype == PQ_BOOLEAN || value_room(w, c) > 4096 + 8 ||
	    !room(&e->idx, w->nrows * sizeof *ix) ||
	    !room(&e->tmp, value_room(w, c)))
		return false;
	ix = (uint32_t *)(void *)e->idx.p;
	if (w->cm && c->kind == PQW_TEXT && c->width <= 8)
		return text8_dict(e, c, ix);
	for (i = 0; i < w->nrows; i++) {
		if (!present(w, c, i))
			continue;
		if (w->cm && c->ptype == PQ_FIXED) {	/* in place */
			const unsigned char *v = val(w, c, i);

			/* (a value as the row before's: its index) */
			if (k > 0 && memcmp(v, v - c->width, c->width) == 0)
				d = (long)ix[k - 1];
			else if ((d = dict_index(e, v, c->width)) < 0)
				return false;
		} else if ((d = dict_index(e, e->tmp.p, plain(w, c, val(w, c,
		    i), e->tmp.p))) < 0)
			return false;
		ix[k++] = (uint32_t)d;
		/* it pays when the values repeat: a few new ones a row */
		if (k == DICT_PROBE && e->ndict > DICT_PROBE / 2)
			return false;
	}
	e->nvals = k;
	return e->ndict <= k / 2 + 1;
}

/* ======================== integer columns ======================== */

/* The 4 bytes at p, little-endian (one load where the machine is). */
static inline uint32_t
le32(const unsigned char *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint32_t x;

	memcpy(&x, p, 4);
	return x;
#else
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
#endif
}

/* The values of gather_cm()'s loop: each into v[i], the min and max
   so far into lo, hi (as 'type'). */
#define GATHER(type, expr) \
	for (i = 0; i < n; i++) { \
		type x_ = (type)(expr); \
		v[i] = (uint64_t)x_; \
		lo.type##_ = x_ < lo.type##_ ? x_ : lo.type##_; \
		hi.type##_ = x_ > hi.type##_ ? x_ : hi.type##_; \
	}

/* gather()'s values of a column by columns (w->cm: no nulls, each
   value its width), their count, min and max: false if not one of
   these kinds. */
static bool
gather_cm(struct enc *e, const struct col *c, const unsigned char *p,
    size_t n)
{
	uint64_t *v = e->iv;
	union { uint64_t uint64_t_; int64_t int64_t_; } lo, hi;
	size_t i;
	bool sgn = c->kind == PQW_I16 || c->kind == PQW_I32;

	lo.uint64_t_ = UINT64_MAX, hi.uint64_t_ = 0;
	if (sgn)
		lo.int64_t_ = INT64_MAX, hi.int64_t_ = INT64_MIN;
	switch (c->kind) {	/* each value, and the min and max so far */
	case PQW_BOOL:
		GATHER(uint64_t, p[i] != 0);
		break;
	case PQW_U8:
		GATHER(uint64_t, p[i]);
		break;
	case PQW_U16:
		GATHER(uint64_t, (uint64_t)p[2 * i] | (uint64_t)p[2 * i + 1] << 8);
		break;
	case PQW_U32:
		GATHER(uint64_t, le32(p + 4 * i));
		break;
	case PQW_I16:
		GATHER(int64_t, (int16_t)(p[2 * i] | p[2 * i + 1] << 8));
		break;
	case PQW_I32:
		GATHER(int64_t, (int32_t)le32(p + 4 * i));
		break;
	default:
		return false;
	}
	e->imin = n == 0 ? 0 : lo.uint64_t_;
	e->imax = n == 0 ? 0 : hi.uint64_t_;
	e->nvals = n;
	return true;
}
#undef GATHER

/* Integer (or boolean) column c's values (not null) into e->iv (a
   signed one's sign-extended), their count into e->nvals, their min and
   max into e->imin, e->imax. */
static void
gather(struct enc *e, const struct col *c)
{
	const struct pqw *w = e->w;
	const unsigned char *p = val(w, c, 0);
	size_t i, n = w->nrows, rs = stride(w, c), k = 0;
	uint64_t *v = e->iv, a, b;
	int64_t sa, sb;

	if (w->cm && gather_cm(e, c, p, n))	/* and its min and max */
		return;
	switch (c->nulloff >= 0 ? PQW_STR : c->kind) {
	case PQW_BOOL:
		for (i = 0; i < n; i++)
			v[i] = p[i * rs] != 0;
		break;
	case PQW_U8:
		for (i = 0; i < n; i++)
			v[i] = p[i * rs];
		break;
	case PQW_U16:
		for (i = 0; i < n; i++)
			v[i] = (uint64_t)p[i * rs] | (uint64_t)p[i * rs + 1] << 8;
		break;
	case PQW_I16:
		for (i = 0; i < n; i++)
			v[i] = (uint64_t)(int64_t)(int16_t)(p[i * rs] |
			    p[i * rs + 1] << 8);
		break;
	case PQW_U32: case PQW_I32:
		for (i = 0; i < n; i++) {
			uint32_t x = (uint32_t)p[i * rs] |
			    (uint32_t)p[i * rs + 1] << 8 |
			    (uint32_t)p[i * rs + 2] << 16 |
			    (uint32_t)p[i * rs + 3] << 24;

			v[i] = c->kind == PQW_I32 ? (uint64_t)(int64_t)(int32_t)x :
			    x;
		}
		break;
	case PQW_STR:		/* a column that may be null */
		for (i = 0; i < n; i++)
			if (present(w, c, i))
				v[k++] = (uint64_t)get_int(p + i * rs, c->kind);
		n = k;
		break;
	default:
		for (i = 0; i < n; i++)
			v[i] = (uint64_t)get_int(p + i * rs, c->kind);
	}
	e->nvals = n;
	a = b = n > 0 ? v[0] : 0;
	if (c->kind == PQW_BOOL || c->kind == PQW_U8 || c->kind == PQW_U16 ||
	    c->kind == PQW_U32 || c->kind == PQW_U64)
		for (i = 1; i < n; i++) {
			a = v[i] < a ? v[i] : a;
			b = v[i] > b ? v[i] : b;
		}
	else {
		sa = sb = (int64_t)a;
		for (i = 1; i < n; i++) {
			sa = (int64_t)v[i] < sa ? (int64_t)v[i] : sa;
			sb = (int64_t)v[i] > sb ? (int64_t)v[i] : sb;
		}
		a = (uint64_t)sa;
		b = (uint64_t)sb;
	}
	e->imin = a;
	e->imax = b;
}

/* Values [a, b) of e->iv, all within 65536 of e->imin, in e->map's
   dictionary (their indices at ix[a..b)): false if it is full. */
static bool
near_dict(struct enc *e, uint32_t *ix, size_t a, size_t b)
{
	const uint64_t *v = e->iv, lo = e->imin;
	uint32_t *m = e->map, t;
	size_t i;

	for (i = a; i < b; i++) {
		if ((t = m[v[i] - lo]) == 0) {
			if (e->ndict == DICT_MAX)
				return false;
			e->dv[e->ndict] = v[i];
			t = m[v[i] - lo] = (uint32_t)++e->ndict;
		}
		ix[i] = t - 1;
	}
	return true;
}

/* e->iv in a dictionary (its values in e->dv, the rows' indices in
   e->idx): false if it does not pay.  Values within 65536 of the
   minimum are found by a table, others by hashing. */
static bool
int_dict(struct enc *e, const struct col *c)
{
	uint64_t range = e->imax - e->imin, *v = e->iv;
	size_t i, n = e->nvals;
	uint32_t *ix, *m = e->map;

	e->ndict = 0;
	e->idx.len = 0;
	if (c->kind == PQW_BOOL || !room(&e->idx, n * sizeof *ix))
		return false;
	ix = (uint32_t *)(void *)e->idx.p;
	memset(m, 0, (range < 65536 ? range + 1 : 65536) * sizeof *m);
	if (range < 65536)	/* by the table: the probe's rows, the rest */
		return near_dict(e, ix, 0, n < DICT_PROBE ? n : DICT_PROBE) &&
		    (n < DICT_PROBE || e->ndict <= DICT_PROBE / 2) &&
		    near_dict(e, ix, DICT_PROBE, n) && e->ndict <= n / 2 + 1;
	for (i = 0; i < n; i++)		/* by hashing */
		if (!int_entry(e, m, int_slot(e, v[i]), v[i], ix, i))
			return false;
	return e->ndict <= n / 2 + 1;
}

/* Byte b in byte_dict()'s dictionary m8[] if not there yet. */
static inline void
byte_new(struct enc *e, const struct col *c, uint32_t *m8, unsigned b)
{
	if (m8[b] != 0)
		return;
	e->dv[e->ndict] = c->kind == PQW_I8 ? (uint64_t)(int64_t)(signed char)b :
	    b;
	m8[b] = (uint32_t)++e->ndict;
}

/* A one-byte integer column in a dictionary, read from the records (a
   table of 256, no gather()): false if it does not pay (then gathered).
   Its min and max from the dictionary. */
static bool
byte_dict(struct enc *e, const struct col *c)
{
	const struct pqw *w = e->w;
	const unsigned char *p = val(w, c, 0), *q = p;
	size_t i, k, n = w->nrows, rs = stride(w, c);
	uint32_t m8[256], *ix;
	uint64_t x;
	int64_t v;
	unsigned b;

	e->ndict = 0;
	e->idx.len = 0;
	if (!room(&e->idx, n * sizeof *ix))
		return false;
	ix = (uint32_t *)(void *)e->idx.p;
	memset(m8, 0, sizeof m8);
	for (i = 0; rs == 1 && i < n; i += 8) {	/* by columns, 8 at a time */
		if (i + 8 <= n) {
			memcpy(&x, p + i, 8);
			if (x == p[i] * 0x0101010101010101u) {
				byte_new(e, c, m8, p[i]);
				continue;
			}
		}
		for (k = i; k < i + 8 && k < n; k++)
			byte_new(e, c, m8, p[k]);
	}
	for (i = 0; rs != 1 && i < n; i++, q += rs) {	/* by records */
		uint32_t t = m8[*q];

		if (t == 0) {
			b = *q;
			e->dv[e->ndict] = c->kind == PQW_I8 ?
			    (uint64_t)(int64_t)(signed char)b : b;
			t = m8[b] = (uint32_t)++e->ndict;
		}
		ix[i] = t - 1;
	}
	if (e->ndict > n / 2 + 1) {
		gather(e, c);
		return false;
	}
	if (rs == 1) {		/* the indices: e->bmap[] of the bytes */
		for (b = 0; b < 256; b++)
			e->bmap[b] = m8[b] - 1;
		e->bytes = p;
	}
	e->nvals = n;
	e->imin = e->imax = e->dv[0];
	for (i = 1; i < e->ndict; i++) {
		v = (int64_t)e->dv[i];
		if (c->kind == PQW_I8 ? v < (int64_t)e->imin : e->dv[i] < e->imin)
			e->imin = e->dv[i];
		if (c->kind == PQW_I8 ? v > (int64_t)e->imax : e->dv[i] > e->imax)
			e->imax = e->dv[i];
	}
	return true;
}

/* ======================== pages ======================== */

/* The length of the run of equal values at ix[i] (i < n), or of equal
   bytes at b8[i] if b8 is not NULL. */
static size_t
run(const uint32_t *ix, const unsigned char *b8, size_t i, size_t n)
{
	uint32_t v;
	size_t j = i + 1;

	if (b8 != NULL)
		return run8(b8, i, n);
	v = ix[i];
	while (j + 4 <= n && ((ix[j] ^ v) | (ix[j + 1] ^ v) | (ix[j + 2] ^ v) |
	    (ix[j + 3] ^ v)) == 0)
		j += 4;
	while (j < n && ix[j] == v)
		j++;
	return j - i;
}

/* Index k: ix[k], or the byte column's e->bmap[b8[k]]. */
static inline uint32_t
index_at(const struct enc *e, const uint32_t *ix, const unsigned char *b8,
    size_t k)
{
	return b8 != NULL ? e->bmap[b8[k]] : ix[k];
}

/* Whether the 8 values from i (i < n) are there and equal: a run of 8
   or more begins at i (run() >= 8), without measuring it. */
static inline bool
eq8(const uint32_t *ix, const unsigned char *b8, size_t i, size_t n)
{
	uint64_t x;
	uint32_t v;

	if (i + 8 > n)
		return false;
	if (b8 != NULL) {
		memcpy(&x, b8 + i, 8);
		return x == b8[i] * 0x0101010101010101u;
	}
	v = ix[i];
	return ((ix[i + 1] ^ v) | (ix[i + 2] ^ v) | (ix[i + 3] ^ v) |
	    (ix[i + 4] ^ v) | (ix[i + 5] ^ v) | (ix[i + 6] ^ v) |
	    (ix[i + 7] ^ v)) == 0;
}

/* v's 8 bytes, little-endian, at q (room for 8). */
static inline void
put8(unsigned char *q, uint64_t v)
{
	q[0] = (unsigned char)v;
	q[1] = (unsigned char)(v >> 8);
	q[2] = (unsigned char)(v >> 16);
	q[3] = (unsigned char)(v >> 24);
	q[4] = (unsigned char)(v >> 32);
	q[5] = (unsigned char)(v >> 40);
	q[6] = (unsigned char)(v >> 48);
	q[7] = (unsigned char)(v >> 56);
}

/* Values [k, k + 8) (those from n on 0) bit-packed at q, bw <= 8 bits
   each: bw bytes, after which up to 8 - bw more are written (room for
   8).  The next byte returned. */
static inline unsigned char *
pack8(const struct enc *e, const uint32_t *ix, const unsigned char *b8,
    size_t k, size_t n, int bw, unsigned char *q)
{
	uint64_t acc = 0;
	int h;

	if (k + 8 <= n && b8 != NULL)
		for (h = 0; h < 8; h++)
			acc |= (uint64_t)e->bmap[b8[k + (size_t)h]] << (h * bw);
	else if (k + 8 <= n)
		for (h = 0; h < 8; h++)
			acc |= (uint64_t)ix[k + (size_t)h] << (h * bw);
	else
		for (h = 0; h < 8; h++)
			acc |= (uint64_t)(k + (size_t)h < n ?
			    index_at(e, ix, b8, k + (size_t)h) : 0) << (h * bw);
	put8(q, acc);
	return q + bw;
}

/* pack8() for 8 < bw <= 16: two words of four values each, then bw
   bytes, after which up to 16 - bw more are written (room for 16). */
static inline unsigned char *
pack16(const struct enc *e, const uint32_t *ix, const unsigned char *b8,
    size_t k, size_t n, int bw, unsigned char *q)
{
	uint64_t a = 0, b = 0;
	int h, half = 4 * bw;

	if (k + 8 <= n)
		for (h = 0; h < 4; h++) {
			a |= (uint64_t)ix[k + (size_t)h] << (h * bw);
			b |= (uint64_t)ix[k + 4 + (size_t)h] << (h * bw);
		}
	else
		for (h = 0; h < 8; h++)
			*(h < 4 ? &a : &b) |= (uint64_t)(k + (size_t)h < n ?
			    index_at(e, ix, b8, k + (size_t)h) : 0) <<
			    (h % 4 * bw);
	put8(q, half < 64 ? a | b << half : a);
	put8(q + 8, half < 64 ? b >> (64 - half) : b);
	return q + bw;
}

/* The indices ix[0..n) (or index_at()'s) in the RLE / bit-packing
   hybrid, bw bits each,
   after e->vals: a run of 8 or more equal values an RLE run, the rest
   in bit-packed groups of 8 (the last one padded with zeros). */
static bool
rle_hybrid(struct enc *e, const uint32_t *ix, const unsigned char *b8,
    size_t n, int bw)
{
	size_t i = 0, r, start, groups, k, vb = ((size_t)bw + 7) / 8;
	unsigned char hdr[10], *q;
	uint64_t acc;
	int nb, h;

	while (i < n) {
		if (!room(&e->vals, 20 + 8 * (size_t)bw))
			return false;
		if (eq8(ix, b8, i, n)) {
			r = run(ix, b8, i, n);
			for (h = 0, k = r << 1; k >= 0x80; k >>= 7)
				hdr[h++] = (unsigned char)(k | 0x80);
			hdr[h++] = (unsigned char)k;
			memcpy(e->vals.p + e->vals.len, hdr, (size_t)h);
			put_le(e->vals.p + e->vals.len + h, index_at(e, ix, b8, i),
			    (int)vb);
			e->vals.len += (size_t)h + vb;
			i += r;
			continue;
		}
		/* groups of 8 until a run of 8 begins at a group's start */
		start = i;
		groups = 0;
		do {
			groups++;
			i += 8;
		} while (i < n && !eq8(ix, b8, i, n) && groups < 63);
		if (!room(&e->vals, 1 + groups * (size_t)bw + 16))
			return false;
		q = e->vals.p + e->vals.len;
		*q++ = (unsigned char)(groups << 1 | 1);
		acc = 0;
		nb = 0;
		for (k = start; bw <= 8 && k < start + groups * 8; k += 8)
			q = pack8(e, ix, b8, k, n, bw, q);
		for (k = start; bw > 8 && bw <= 16 && k < start + groups * 8;
		    k += 8)
			q = pack16(e, ix, b8, k, n, bw, q);
		for (k = start; bw > 16 && k < start + groups * 8; k++) {
			acc |= (uint64_t)(k < n ? index_at(e, ix, b8, k) : 0) <<
			    nb;
			for (nb += bw; nb >= 8; nb -= 8) {
				*q++ = (unsigned char)acc;
				acc >>= 8;
			}
		}
		e->vals.len = (size_t)(q - e->vals.p);
		if (i > n)
			i = n;
	}
	return true;
}

/* A page of e->vals (its type, values and encoding) compressed and
   put after its chunk's bytes with its header, its bytes (header and
   all) added to the chunk's sizes.  0, or -1. */
static int
write_page(struct enc *e, struct chunk *ck, int type, size_t nvals, int enc)
{
	struct thrift_w h = { 0 };
	size_t n = e->in != NULL ? e->inlen : e->vals.len;
	int rc = 0;

	if (!compress_page(e)) {
		e->in = NULL;
		errno = ENOMEM;
		return -1;
	}
	e->in = NULL;
	tw_begin(&h);
	tw_fi32(&h, 1, type);
	tw_fi32(&h, 2, (int32_t)n);
	tw_fi32(&h, 3, (int32_t)e->z.len);
	tw_field(&h, type == PQ_DICTIONARY_PAGE ? 7 : 5, TT_STRUCT);
	tw_begin(&h);
	tw_fi32(&h, 1, (int32_t)nvals);
	tw_fi32(&h, 2, enc);
	if (type == PQ_DATA_PAGE) {
		tw_fi32(&h, 3, PQ_RLE);
		tw_fi32(&h, 4, PQ_RLE);
	}
	tw_end(&h);
	tw_end(&h);
	if (h.fail) {
		tw_free(&h);
		errno = ENOMEM;
		return -1;
	}
	if (!room(&ck->b, h.len + e->z.len))
		rc = -1, errno = ENOMEM;
	else {
		memcpy(ck->b.p + ck->b.len, h.buf, h.len);
		memcpy(ck->b.p + ck->b.len + h.len, e->z.p, e->z.len);
		ck->b.len += h.len + e->z.len;
	}
	ck->usize += (int64_t)(h.len + n);
	ck->csize += (int64_t)(h.len + e->z.len);
	tw_free(&h);
	return rc;
}

/* Rows [a, b) of column c PLAIN into e->vals, their values from v0 of
   e->iv for an integer column; the values written returned. */
static size_t
plain_values(struct enc *e, const struct col *c, size_t a, size_t b,
    size_t v0)
{
	const struct pqw *w = e->w;
	size_t i, k = c->nulloff < 0 ? b - a : 0, m = c->ptype == PQ_INT32 ?
	    4 : 8;

	for (i = a; i < b && c->nulloff >= 0; i++)
		k += present(w, c, i);
	if (c->ptype == PQ_BOOLEAN) {
		if (!room(&e->vals, (k + 7) / 8))
			return SIZE_MAX;
		memset(e->vals.p + e->vals.len, 0, (k + 7) / 8);
		for (i = 0; i < k; i++)
			if (e->iv[v0 + i])
				e->vals.p[e->vals.len + i / 8] |= (unsigned char)
				    (1u << (i % 8));
		e->vals.len += (k + 7) / 8;
		return k;
	}
	if (INTKIND(c->kind)) {
		if (!room(&e->vals, k * m))
			return SIZE_MAX;
		for (i = 0; i < k; i++)
			put_le(e->vals.p + e->vals.len + i * m, e->iv[v0 + i],
			    (int)m);
		e->vals.len += k * m;
		return k;
	}
	if (w->cm && c->ptype == PQ_FIXED) {	/* the values where they are */
		e->in = val(w, c, a);
		e->inlen = k * c->width;
		return k;
	}
	if (c->kind == PQW_TEXT && c->nulloff < 0 && c->width <= 16) {
		/* short texts (UCI): their lengths and bytes in place */
		unsigned char *q;
		size_t n;

		if (!room(&e->vals, (b - a) * (c->width + 4)))
			return SIZE_MAX;
		for (q = e->vals.p + e->vals.len, i = a; i < b; i++) {
			const unsigned char *s = val(w, c, i);

			for (n = 0; n < c->width && s[n] != '\0'; n++)
				q[4 + n] = s[n];
			put_le(q, n, 4);
			q += 4 + n;
		}
		e->vals.len = (size_t)(q - e->vals.p);
		return k;
	}
	for (i = a; i < b; i++) {
		if (!present(w, c, i))
			continue;
		if (!room(&e->vals, value_room(w, c)))
			return SIZE_MAX;
		e->vals.len += plain(w, c, val(w, c, i), e->vals.p +
		    e->vals.len);
	}
	return k;
}

/* The column's min and max (PLAIN bytes) into mn, mx (room for 4104
   bytes): their lengths (0: none, when no value is there or a string is
   longer than 4096 bytes); from the dictionary if it has one. */
static void
min_max(struct enc *e, const struct col *c, bool dict, unsigned char *mn,
    size_t *nmn, unsigned char *mx, size_t *nmx)
{
	const struct pqw *w = e->w;
	const unsigned char *v;
	size_t i, n, k = c->ptype == PQ_INT32 ? 4 : 8;
	bool first = true;

	*nmn = *nmx = 0;
	if (e->nvals == 0 || value_room(w, c) > 4096 + 8 ||
	    !room(&e->tmp, value_room(w, c)))
		return;
	if (INTKIND(c->kind)) {		/* gather()'s */
		*nmn = *nmx = c->ptype == PQ_BOOLEAN ? 1 : k;
		put_le(mn, e->imin, (int)*nmn);
		put_le(mx, e->imax, (int)*nmx);
		return;
	}
	for (i = 0; i < (dict ? e->ndict : w->nrows); i++) {
		if (dict) {
			v = e->dict.p + e->doff[i];
			n = (i + 1 < e->ndict ? e->doff[i + 1] : e->dict.len) -
			    e->doff[i];
		} else if (!present(w, c, i))
			continue;
		else if (c->ptype == PQ_FIXED) {	/* in place */
			v = val(w, c, i);
			n = c->width;
		} else {
			n = plain(w, c, val(w, c, i), e->tmp.p);
			v = e->tmp.p;
		}
		if (first || before(c, v, n, mn, *nmn)) {
			memcpy(mn, v, n);
			*nmn = n;
		}
		if (first || before(c, mx, *nmx, v, n)) {
			memcpy(mx, v, n);
			*nmx = n;
		}
		first = false;
	}
}

/* ======================== column chunks ======================== */

/* The rows a data page of column c holds. */
static size_t
page_rows(const struct pqw *w, const struct col *c, bool dict)
{
	size_t per = dict ? 2 : c->ptype == PQ_BOOLEAN ? 1 :
	    c->kind == PQW_STR ? w->heap.len / (w->nrows ? w->nrows : 1) + 4 :
	    c->width + 4;
	size_t n = PAGE_BYTES / per;

	return n < 1024 ? 1024 : n > w->nrows ? (w->nrows ? w->nrows : 1) : n;
}

/* Column c's chunk metadata (ColumnChunk) after w->groups, its chunk
   ck written at start. */
static void
chunk_meta(struct pqw *w, const struct col *c, const struct chunk *ck,
    int64_t start)
{
	struct thrift_w *g = &w->groups;
	size_t skip = c->ptype == PQ_BYTE_ARRAY ? 4 : 0;
	bool dict = ck->dict;

	tw_begin(g);				/* ColumnChunk */
	tw_fi64(g, 2, start);
	tw_field(g, 3, TT_STRUCT);
	tw_begin(g);				/* ColumnMetaData */
	tw_fi32(g, 1, c->ptype);
	tw_field(g, 2, TT_LIST);
	tw_list(g, TT_I32, dict ? 3 : 2);
	tw_i32(g, PQ_PLAIN);
	tw_i32(g, PQ_RLE);
	if (dict)
		tw_i32(g, PQ_RLE_DICTIONARY);
	tw_field(g, 3, TT_LIST);
	tw_list(g, TT_BINARY, 1);
	tw_binary(g, c->name, strlen(c->name));
	tw_fi32(g, 4, w->codec);
	tw_fi64(g, 5, (int64_t)w->nrows);
	tw_fi64(g, 6, ck->usize);
	tw_fi64(g, 7, ck->csize);
	tw_fi64(g, 9, start + (int64_t)ck->dlen);
	if (dict)
		tw_fi64(g, 11, start);
	tw_field(g, 12, TT_STRUCT);
	tw_begin(g);				/* Statistics */
	tw_fi64(g, 3, (int64_t)ck->nnull);
	if (ck->nmn > 0) {
		tw_fbin(g, 5, ck->mx + skip, ck->nmx - skip);
		tw_fbin(g, 6, ck->mn + skip, ck->nmn - skip);
	}
	tw_end(g);
	tw_end(g);
	tw_end(g);
}

/* The definition levels of rows [a, b) of an optional column c (1 a
   value, 0 a null) after e->vals: their 4-byte length, then the RLE /
   bit-packing hybrid of width 1.  False if out of memory. */
static bool
levels(struct enc *e, const struct col *c, size_t a, size_t b)
{
	const struct pqw *w = e->w;
	size_t i, at = e->vals.len;

	if (!room(&e->vals, 4))
		return false;
	e->vals.len += 4;
	for (i = a; i < b; i++)
		e->lev[i - a] = present(w, c, i);
	if (!rle_hybrid(e, e->lev, NULL, b - a, 1))
		return false;
	put_le(e->vals.p + at, e->vals.len - at - 4, 4);
	return true;
}

/* The dictionary of column c (its values: integers in e->dv, others
   PLAIN in e->dict) as its page. */
static int
dict_page(struct enc *e, const struct col *c, struct chunk *ck)
{
	size_t a, k = c->ptype == PQ_INT32 ? 4 : 8;
	bool ints = INTKIND(c->kind);

	e->vals.len = 0;
	if (!room(&e->vals, ints ? e->ndict * k : e->dict.len))
		return errno = ENOMEM, -1;
	if (ints)
		for (a = 0; a < e->ndict; a++)
			put_le(e->vals.p + a * k, e->dv[a], (int)k);
	else
		memcpy(e->vals.p, e->dict.p, e->dict.len);
	e->vals.len = ints ? e->ndict * k : e->dict.len;
	return write_page(e, ck, PQ_DICTIONARY_PAGE, e->ndict, PQ_PLAIN);
}

/* Column c of the row group encoded into ck: 0, or -1. */
static int
write_chunk(struct enc *e, const struct col *c, struct chunk *ck)
{
	const struct pqw *w = e->w;
	size_t a, b, i, per, v0 = 0, k;
	bool dict;
	int bw = 0;

	e->bytes = NULL;
	if ((c->kind == PQW_U8 || c->kind == PQW_I8) && c->nulloff < 0)
		dict = byte_dict(e, c);
	else if (INTKIND(c->kind)) {
		gather(e, c);
		dict = int_dict(e, c);
	} else
		dict = dict_build(e, c);
	per = page_rows(w, c, dict);
	while (dict && bw < 32 && ((size_t)1 << bw) < e->ndict)
		bw++;
	ck->b.len = 0;
	ck->usize = ck->csize = 0;
	if (dict && dict_page(e, c, ck) != 0)
		return -1;
	ck->dlen = ck->b.len;
	ck->dict = dict;
	for (a = 0; a < w->nrows || a == 0; a = b) {
		b = a + per < w->nrows ? a + per : w->nrows;
		e->vals.len = 0;
		if (c->nulloff >= 0 && !levels(e, c, a, b))
			return errno = ENOMEM, -1;
		if (dict) {
			k = c->nulloff < 0 ? b - a : 0;
			for (i = a; i < b && c->nulloff >= 0; i++)
				k += present(w, c, i);
			if (!room(&e->vals, 1))
				return errno = ENOMEM, -1;
			e->vals.p[e->vals.len++] = (unsigned char)bw;
			if (!rle_hybrid(e, (const uint32_t *)(void *)e->idx.p + v0,
			    e->bytes != NULL ? e->bytes + v0 : NULL, k, bw))
				return errno = ENOMEM, -1;
		} else if ((k = plain_values(e, c, a, b, v0)) == SIZE_MAX)
			return errno = ENOMEM, -1;
		v0 += k;
		if (write_page(e, ck, PQ_DATA_PAGE, b - a, dict ?
		    PQ_RLE_DICTIONARY : PQ_PLAIN) != 0)
			return -1;
		if (b == 0)
			break;
	}
	ck->nnull = w->nrows - e->nvals;
	min_max(e, c, dict, ck->mn, &ck->nmn, ck->mx, &ck->nmx);
	return 0;
}

/* The row group's chunks (w->ck, encoded) written in the columns'
   order, its metadata kept: 0, or -1. */
static int
finish_group(struct pqw *w)
{
	int64_t start = (int64_t)w->pos, total = 0, ztotal = 0, at;
	struct thrift_w *g = &w->groups;
	int i;

	tw_begin(g);				/* RowGroup */
	tw_field(g, 1, TT_LIST);
	tw_list(g, TT_STRUCT, (size_t)w->ncol);
	for (i = 0; i < w->ncol; i++) {
		at = (int64_t)w->pos;
		if (out(w, w->ck[i].b.p, w->ck[i].b.len) != 0)
			return -1;
		chunk_meta(w, &w->col[i], &w->ck[i], at);
		total += w->ck[i].usize;
		ztotal += w->ck[i].csize;
	}
	tw_fi64(g, 2, total);
	tw_fi64(g, 3, (int64_t)w->nrows);
	tw_fi64(g, 5, start);
	tw_fi64(g, 6, ztotal);
	tw_field(g, 7, TT_I16);
	tw_i32(g, (int32_t)(w->ngroups & 0x7fff));
	tw_end(g);
	if (g->fail)
		return errno = ENOMEM, -1;
	w->ngroups++;
	w->total += w->nrows;
	w->nrows = 0;
	return 0;
}

/* The row group of w->rows (w->cols) encoded by this thread and
   written: 0, or -1. */
static int
write_group(struct pqw *w)
{
	int i;

	if (w->nrows == 0)
		return 0;
	for (i = 0; i < w->ncol; i++)
		if (write_chunk(&w->enc[0], &w->col[i], &w->ck[i]) != 0)
			return -1;
	if (finish_group(w) != 0)
		return -1;
	w->heap.len = 0;
	w->maxstr = 0;
	return 0;
}

/* ======================== the encoding threads ======================== */

/* An encoder thread: the next column of w->cols not taken encoded,
   until none is left; the thread that encodes a row group's last
   column writes the row group. */
static void *
encoder(void *arg)
{
	struct enc *e = arg;
	struct pqw *w = e->w;
	int i, rc, err;

	pthread_mutex_lock(&w->mu);
	for (;;) {
		if (!w->busy || w->next == w->ncol) {
			if (w->stop)
				break;
			pthread_cond_wait(&w->cv, &w->mu);
			continue;
		}
		i = w->order[w->next++];
		pthread_mutex_unlock(&w->mu);
		errno = 0;
		rc = write_chunk(e, &w->col[i], &w->ck[i]);
		err = errno;
		pthread_mutex_lock(&w->mu);
		if (rc != 0 && !w->efail) {
			w->efail = true;
			w->eerr = err ? err : EIO;
		}
		if (++w->ndone < w->ncol)
			continue;
		rc = w->efail ? 0 : 1;		/* the last column: written */
		pthread_mutex_unlock(&w->mu);
		errno = 0;
		rc = rc ? finish_group(w) : 0;
		err = errno;
		pthread_mutex_lock(&w->mu);
		if (rc != 0 && !w->efail) {
			w->efail = true;
			w->eerr = err ? err : EIO;
		}
		w->busy = false;
		pthread_cond_broadcast(&w->cv);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

/* The encoder threads started: 0, or -1 if none. */
static int
threads_start(struct pqw *w)
{
	if (pthread_mutex_init(&w->mu, NULL) != 0)
		return -1;
	if (pthread_cond_init(&w->cv, NULL) != 0) {
		pthread_mutex_destroy(&w->mu);
		return -1;
	}
	while (w->nth < w->nenc && pthread_create(&w->th[w->nth], NULL,
	    encoder, &w->enc[w->nth]) == 0)
		w->nth++;
	if (w->nth > 0)
		return 0;
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	w->nenc = 1;		/* (this thread encodes with enc[0]) */
	return -1;
}

/* The row group being encoded done: 0, or -1 (errno) if it failed. */
static int
drain(struct pqw *w)
{
	int rc;

	if (w->nth == 0)
		return 0;
	pthread_mutex_lock(&w->mu);
	while (w->busy)
		pthread_cond_wait(&w->cv, &w->mu);
	rc = w->efail ? -1 : 0;
	if (rc != 0)
		errno = w->eerr;
	pthread_mutex_unlock(&w->mu);
	return rc;
}

/* The encoders ended (the row group being encoded written first). */
static void
threads_end(struct pqw *w)
{
	int i;

	if (w->nth == 0)
		return;
	pthread_mutex_lock(&w->mu);
	w->stop = true;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	for (i = 0; i < w->nth; i++)
		pthread_join(w->th[i], NULL);
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	w->nth = 0;
}

/* w->cm: the row group filled (w->fill) handed to the encoders, once
   the one before is written (this thread encodes it if no thread can
   start): 0, or -1 (errno). */
static int
hand_off(struct pqw *w)
{
	unsigned char *p;

	if (w->nfill == 0)
		return 0;
	if (w->nth == 0 && (w->stop || threads_start(w) != 0)) {
		w->stop = true;		/* no threads: never tried again */
		p = w->cols, w->cols = w->fill, w->fill = p;
		w->nrows = w->nfill;
		w->nfill = 0;
		return write_group(w);
	}
	if (drain(w) != 0)
		return -1;
	pthread_mutex_lock(&w->mu);
	p = w->cols, w->cols = w->fill, w->fill = p;
	w->nrows = w->nfill;
	w->nfill = 0;
	w->next = w->ndone = 0;
	w->busy = true;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	return 0;
}

/* ======================== rows ======================== */

int
pqw_row(struct pqw *w, const unsigned char *rec, const void *heap,
    size_t heaplen)
{
	unsigned char *q;
	uint32_t o, len;
	int i;

	if (w->fail)
		return -1;
	if (w->cm)		/* no strings */
		return pqw_rows(w, rec, 1);
	if (w->heap.len + heaplen > UINT32_MAX || !room(&w->heap, heaplen)) {
		errno = ENOMEM;
		w->fail = true;
		return -1;
	}
	q = w->rows + w->nrows * w->recsize;
	memcpy(q, rec, w->recsize);
	for (i = 0; i < w->ncol; i++)	/* the strings into the heap */
		if (w->col[i].kind == PQW_STR) {
			o = (uint32_t)get_int(q + w->col[i].off, PQW_U32);
			len = (uint32_t)get_int(q + w->col[i].off + 4, PQW_U32);
			if ((size_t)o + len > heaplen) {
				errno = EINVAL;
				w->fail = true;
				return -1;
			}
			put_le(q + w->col[i].off, w->heap.len + o, 4);
			if (len > w->maxstr)
				w->maxstr = len;
		}
	if (heaplen > 0)
		memcpy(w->heap.p + w->heap.len, heap, heaplen);
	w->heap.len += heaplen;
	w->nrows++;
	if ((w->nrows == w->maxrows || w->heap.len >= PQW_GROUP_BYTES) &&
	    write_group(w) != 0)
		w->fail = true;
	return w->fail ? -1 : 0;
}

/* The one-byte columns from k on whose bytes follow each other in the
   record, up to 8 (their 8 bytes within the record): their count, 0 if
   fewer than 2 or not a little-endian machine. */
static int
byte_group(const struct pqw *w, int k)
{
	int g = 0;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (w->col[k].off + 8 > w->recsize)
		return 0;
	while (g < 8 && k + g < w->ncol && w->col[k + g].width == 1 &&
	    w->col[k + g].off == w->col[k].off + (size_t)g)
		g++;
#else
	(void)w, (void)k;
#endif
	return g < 2 ? 0 : g;
}

/* Words r and q of x: the bits of mask m of x[r] shifted down by sh
   exchanged with those of x[q] (a step of a transposition). */
static inline void
swap_bits(uint64_t *x, int r, int q, int sh, uint64_t m)
{
	uint64_t t = ((x[r] >> sh) ^ x[q]) & m;

	x[q] ^= t;
	x[r] ^= t << sh;
}

/* Records [a, b) of recs: the g one-byte columns from k (byte_group())
   into w->fill, 8 records at a time as an 8 x 8 transposition of their
   8 bytes (a word a record becomes a word a column). */
static void
transpose8(struct pqw *w, const unsigned char *recs, size_t a, size_t b,
    int k, int g)
{
	size_t rs = w->recsize, i;
	const unsigned char *s = recs + a * rs + w->col[k].off;
	static const int pair[12][2] = { { 0, 1 }, { 2, 3 }, { 4, 5 },
		{ 6, 7 }, { 0, 2 }, { 1, 3 }, { 4, 6 }, { 5, 7 }, { 0, 4 },
		{ 1, 5 }, { 2, 6 }, { 3, 7 } };
	static const uint64_t mask[3] = { 0x00ff00ff00ff00ffu,
		0x0000ffff0000ffffu, 0x00000000ffffffffu };
	unsigned char *d[8];
	uint64_t x[8];
	int j, r;

	for (j = 0; j < 8; j++)		/* (unused ones: the first) */
		d[j] = w->fill + w->col[k + (j < g ? j : 0)].cbase + w->nfill +
		    a;
	for (i = a; i + 8 <= b; i += 8, s += 8 * rs) {
#pragma GCC unroll 8
		for (r = 0; r < 8; r++)
			memcpy(&x[r], s + (size_t)r * rs, 8);
		/* bytes of rows 2r, 2r + 1; pairs of rows r, r + 2; fours */
#pragma GCC unroll 12
		for (r = 0; r < 12; r++)
			swap_bits(x, pair[r][0], pair[r][1], 8 << (r / 4),
			    mask[r / 4]);
		/* (the unused columns' first, then the first's own) */
		for (j = 7; j >= 0; j--)
			memcpy(d[j] + (i - a), &x[j < g ? j : 0], 8);
	}
	for (; i < b; i++, s += rs)
		for (j = 0; j < g; j++)
			d[j][i - a] = s[j];
}

/* n records (as many as w->fill has room for) after w->fill's values,
   a column at a time for a block of records that stays in the cache. */
static void
transpose(struct pqw *w, const unsigned char *recs, size_t n)
{
	size_t rs = w->recsize, i, a, b, wd;
	const unsigned char *s;
	unsigned char *d;
	int k, g;

	for (a = 0; a < n; a = b) {
		b = a + 2048 < n ? a + 2048 : n;
		for (k = 0; k < w->ncol; k++) {
			if ((g = byte_group(w, k)) > 0) {
				transpose8(w, recs, a, b, k, g);
				k += g - 1;
				continue;
			}
			wd = w->col[k].width;
			s = recs + a * rs + w->col[k].off;
			d = w->fill + w->col[k].cbase + (w->nfill + a) * wd;
			switch (wd) {
			case 1:
				for (i = 0; i < b - a; i++)
					d[i] = s[i * rs];
				break;
			case 2:
				for (i = 0; i < b - a; i++)
					memcpy(d + 2 * i, s + i * rs, 2);
				break;
			case 4:
				for (i = 0; i < b - a; i++)
					memcpy(d + 4 * i, s + i * rs, 4);
				break;
			case 8:
				for (i = 0; i < b - a; i++)
					memcpy(d + 8 * i, s + i * rs, 8);
				break;
			default:
				for (i = 0; i < b - a; i++)
					memcpy(d + wd * i, s + i * rs, wd);
			}
		}
	}
}

int
pqw_rows(struct pqw *w, const unsigned char *recs, size_t n)
{
	size_t k, *have = w->cm ? &w->nfill : &w->nrows;

	while (n > 0 && !w->fail) {
		k = w->maxrows - *have < n ? w->maxrows - *have : n;
		if (w->cm)
			transpose(w, recs, k);
		else
			memcpy(w->rows + w->nrows * w->recsize, recs, k *
			    w->recsize);
		*have += k;
		recs += k * w->recsize;
		n -= k;
		if (*have == w->maxrows && (w->cm ? hand_off(w) :
		    write_group(w)) != 0)
			w->fail = true;
	}
	return w->fail ? -1 : 0;
}

/* ======================== the footer ======================== */

/* A column's LogicalType: INTEGER, STRING, DATE or TIME(MILLIS). */
static void
logical_type(struct thrift_w *t, const struct col *c)
{
	static const int bits[] = { 0, 8, 8, 16, 16, 32, 32, 64, 64 };
	static const int id[] = { 0, 10, 10, 10, 10, 10, 10, 10, 10, 6, 7, 0,
	    1, 1 };

	if (id[c->kind] == 0)
		return;
	tw_field(t, 10, TT_STRUCT);
	tw_begin(t);
	tw_field(t, id[c->kind], TT_STRUCT);
	tw_begin(t);
	if (id[c->kind] == 10) {		/* IntType */
		tw_field(t, 1, TT_BYTE);
		tw_raw(t, &(unsigned char){ (unsigned char)bits[c->kind] }, 1);
		tw_bool(t, 2, c->kind == PQW_I8 || c->kind == PQW_I16 ||
		    c->kind == PQW_I32 || c->kind == PQW_I64);
	} else if (c->kind == PQW_TIME) {	/* TimeType */
		tw_bool(t, 1, true);
		tw_field(t, 2, TT_STRUCT);	/* TimeUnit: MILLIS */
		tw_begin(t);
		tw_field(t, 1, TT_STRUCT);
		tw_begin(t);
		tw_end(t);
		tw_end(t);
	}
	tw_end(t);
	tw_end(t);
}

/* A column's SchemaElement. */
static void
schema_element(struct thrift_w *t, const struct col *c)
{
	/* ConvertedType of each kind: UINT_8 ... INT_64, DATE, TIME_MILLIS,
	   UTF8 */
	static const int conv[] = { -1, 11, 15, 12, 16, 13, 17, 14, 18, 6, 7,
	    -1, 0, 0 };

	tw_begin(t);
	tw_fi32(t, 1, c->ptype);
	if (c->ptype == PQ_FIXED)
		tw_fi32(t, 2, (int32_t)c->width);
	tw_fi32(t, 3, c->nulloff >= 0);		/* REQUIRED, OPTIONAL */
	tw_fstr(t, 4, c->name);
	if (conv[c->kind] >= 0)
		tw_fi32(t, 6, conv[c->kind]);
	logical_type(t, c);
	tw_end(t);
}

int
pqw_end(struct pqw *w, const char *created_by)
{
	struct thrift_w t = { 0 };
	unsigned char len[4];
	int i, rc;

	if (w->fail || (w->cm ? hand_off(w) != 0 || drain(w) != 0 :
	    write_group(w) != 0)) {
		w->fail = true;
		return -1;
	}
	threads_end(w);
	tw_begin(&t);				/* FileMetaData */
	tw_fi32(&t, 1, 1);
	tw_field(&t, 2, TT_LIST);
	tw_list(&t, TT_STRUCT, (size_t)w->ncol + 1);
	tw_begin(&t);
	tw_fstr(&t, 4, "schema");
	tw_fi32(&t, 5, w->ncol);
	tw_end(&t);
	for (i = 0; i < w->ncol; i++)
		schema_element(&t, &w->col[i]);
	tw_fi64(&t, 3, (int64_t)w->total);
	tw_field(&t, 4, TT_LIST);
	tw_list(&t, TT_STRUCT, (size_t)w->ngroups);
	tw_raw(&t, w->groups.buf, w->groups.len);
	tw_fstr(&t, 6, created_by);
	tw_field(&t, 7, TT_LIST);		/* column_orders */
	tw_list(&t, TT_STRUCT, (size_t)w->ncol);
	for (i = 0; i < w->ncol; i++) {
		tw_begin(&t);
		tw_field(&t, 1, TT_STRUCT);	/* TYPE_ORDER */
		tw_begin(&t);
		tw_end(&t);
		tw_end(&t);
	}
	tw_end(&t);
	if (t.fail) {
		tw_free(&t);
		return errno = ENOMEM, -1;
	}
	put_le(len, t.len, 4);
	rc = out(w, t.buf, t.len) || out(w, len, 4) || out(w, "PAR1", 4) ?
	    -1 : 0;
	tw_free(&t);
	return rc;
}

/* ======================== NumPy fields ======================== */

static const char *const piece_names[8] = { "pawn", "knight", "bishop",
	"rook", "queen", "king", "archbishop", "chancellor" };

/* Element e of an axis of n (the first axis if first): its name. */
static const char *
axis_name(size_t n, size_t e, bool board)
{
	static const char *const ab[2] = { "a", "b" }, *const wb[2] = {
		"white", "black" };

	return board ? ab[e] : n == 2 ? wb[e] : piece_names[e];
}

/* The columns of a field of dims[0..nd) elements of kind k (each esize
   bytes) at off, named name_axis_axis... */
static size_t
expand(struct pqw *w, const char *name, enum pqw_kind k, size_t esize,
    const size_t *dims, int nd, size_t off, bool by_board, bool first)
{
	char sub[256];
	size_t e, inner = esize, total = 0;
	int i;
	bool board = by_board && first && dims[0] == 2;

	if (nd == 0)
		return pqw_column(w, name, k, off, esize) == 0 ? esize : 0;
	for (i = 1; i < nd; i++)
		inner *= dims[i];
	if (!board && dims[0] != 2 && dims[0] != 8) {	/* a blob */
		inner *= dims[0];
		return pqw_column(w, name, PQW_FIXED, off, inner) == 0 ?
		    inner : 0;
	}
	for (e = 0; e < dims[0]; e++) {
		snprintf(sub, sizeof sub, "%s_%s", name, axis_name(dims[0], e,
		    board));
		if (expand(w, sub, k, esize, dims + 1, nd - 1, off + e * inner,
		    by_board, false) != inner)
			return 0;
		total += inner;
	}
	return total;
}

size_t
pqw_npy_field(struct pqw *w, const char *name, const char *type,
    const char *shape, size_t offset, bool by_board)
{
	size_t dims[8], esize = (size_t)atoi(type + 2);
	enum pqw_kind k;
	char *end;
	int nd = 0;

	switch (type[1]) {
	case 'b': k = PQW_BOOL; break;
	case 'u': k = esize == 1 ? PQW_U8 : esize == 2 ? PQW_U16 :
	    esize == 4 ? PQW_U32 : PQW_U64; break;
	case 'i': k = esize == 1 ? PQW_I8 : esize == 2 ? PQW_I16 :
	    esize == 4 ? PQW_I32 : PQW_I64; break;
	case 'S': k = PQW_TEXT; break;
	default: return 0;
	}
	if ((type[1] == 'u' || type[1] == 'i') && esize != 1 && esize != 2 &&
	    esize != 4 && esize != 8)
		return 0;
	for (; shape != NULL && *shape != '\0' && nd < 8; shape++)
		if (*shape >= '0' && *shape <= '9') {
			dims[nd++] = (size_t)strtoul(shape, &end, 10);
			shape = end - 1;
		}
	if (k == PQW_TEXT && nd > 0)
		return 0;
	return expand(w, name, k, esize, dims, nd, offset, by_board, true);
}
