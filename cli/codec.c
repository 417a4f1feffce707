/*
 * codec.c - compressed inputs and outputs (codec.h).
 *
 * Each codec's own library, not libarchive: libarchive reads raw streams
 * too, but brings libxml2, nettle, ICU and more into the install, holds
 * back the last part of a cut stream, gives no offset with its errors,
 * and decompressed zh-tags.pgn.zst 15% slower in one test here.  The four
 * libraries are what the codecs' own tools use; their messages are the
 * tools' words.
 *
 * A reader keeps its own input buffer and reads the file descriptor, so
 * the offset where a stream fails is known.  A failure is kept: every
 * later read fails the same way, and nothing past it is guessed at.
 */
#define _GNU_SOURCE		/* fopencookie(): glibc, musl, the BSDs' funopen */
#include <sys/stat.h>

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "zh.h"
#include <bzlib.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include "codec.h"

#define INBUF	(128u << 10)	/* compressed bytes read at a time */
#define OUTBUF	(64u << 10)	/* compressed bytes written at a time */
#define PEEK	6		/* the longest magic number (xz) */
#define ZSTD_PREFIX	5	/* the bytes that tell a zstd frame header's size */

enum kind { PLAIN, ZSTD, GZIP, BZIP2, XZ };

static const char *const names[] = { "plain", "zstd", "gzip", "bzip2", "xz" };

union state {
	ZSTD_DStream *zd;
	ZSTD_CStream *zc;
	z_stream gz;
	bz_stream bz;
	lzma_stream xz;
};

struct reader {
	FILE *f, *raw;			/* our stream; the file read */
	int fd;
	enum kind kind;
	bool live;			/* the codec's state is set up */
	bool inframe;			/* inside a frame, member or stream */
	bool eof, failed;
	size_t hint;			/* zstd: the input its next step takes */
	size_t xzpad;			/* xz: zero bytes after a stream */
	bool xznew;			/* xz: the next stream needs a decoder */
	unsigned char head[PEEK];	/* bytes peeked from a pipe */
	size_t nhead, hpos;
	unsigned char *in;
	size_t ilen, ipos;
	unsigned long long base;	/* offset of in[0] in the input */
	unsigned long long mark;	/* where the frame or member read
					   began */
	unsigned long long at;		/* where the codec failed */
	unsigned long long nread;	/* bytes read of the input (atomic:
					   the decoding thread's) */
	long long size;			/* the input's size, -1 if unknown */
	bool gave;			/* that frame gave bytes */
	union state s;
	char why[200], msg[256];
	struct ahead *ahead;		/* the decoding thread, if any */
	struct reader *next;
};

/*
 * Decompression runs ahead of the reader on a thread of its own (when
 * there are two cores), as `zstdcat f | zhcheck` would run it beside the
 * reader: two buffers, one filled while the other is read.
 */
#define AHEAD	(512u << 10)

struct ahead {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	char *buf[2];
	size_t len[2];
	bool full[2];
	int rd, wr;			/* the buffer read, the one filled */
	size_t pos;			/* read so far of buf[rd] */
	bool done, quit;		/* the decoder stopped; the reader did */
	ssize_t end;			/* 0, or -1 with err: how it stopped */
	int err;
};

static struct reader *readers;	/* those open: for codec_error() */
/* the list's lock: the Python module runs several reads at once */
static pthread_mutex_t readers_mu = PTHREAD_MUTEX_INITIALIZER;

const char *
codec_magic(const void *buf, size_t n)
{
	return zh_pgn_magic(buf, n);	/* libzh's one table */
}

static enum kind
kind_of(const char *name)
{
	enum kind k;

	for (k = ZSTD; k <= XZ; k++)
		if (name != NULL && strcmp(name, names[k]) == 0)
			return k;
	return PLAIN;
}

/* ======================== reading ======================== */

/* The stream fails, at the byte where its codec stopped: said as "KIND:
   REASON (at byte N ...)" by codec_error(). */
static int
fail(struct reader *r, const char *reason)
{
	if (!r->failed) {
		snprintf(r->why, sizeof r->why, "%s", reason);
		r->at = r->base + r->ipos;
	}
	r->failed = true;
	errno = EIO;
	return -1;
}

/* More input, once all of in[] is used: 1, 0 at its end, -1 on error. */
static int
refill(struct reader *r)
{
	ssize_t n;

	r->base += r->ilen;
	r->ipos = r->ilen = 0;
	if (r->hpos < r->nhead) {
		r->ilen = r->nhead - r->hpos;
		memcpy(r->in, r->head + r->hpos, r->ilen);
		r->hpos = r->nhead;
		return 1;
	}
	do
		n = read(r->fd, r->in, INBUF);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	if (n == 0)
		r->eof = true;
	r->ilen = (size_t)n;
	__atomic_store_n(&r->nread, r->base + (size_t)n, __ATOMIC_RELAXED);
	return n > 0;
}

/*
 * zstd is given no more input than its last answer asked for (a header,
 * a block): a block it finds bad leaves in.pos where the call began, so
 * that is the offset of the bad block, not of a whole buffer.
 */
static int
step_zstd(struct reader *r, char *buf, size_t size, size_t *got)
{
	size_t end = r->hint > 0 && r->ilen - r->ipos > r->hint ?
	    r->ipos + r->hint : r->ilen;
	ZSTD_inBuffer in = { r->in, end, r->ipos };
	ZSTD_outBuffer out = { buf, size, 0 };
	size_t from = r->ipos;
	size_t rc = ZSTD_decompressStream(r->s.zd, &out, &in);

	r->ipos = in.pos;
	*got = out.pos;
	if (ZSTD_isError(rc))
		return fail(r, ZSTD_getErrorName(rc));
	/* 0: a frame is done and flushed; the next one starts afresh (a
	   call that did nothing says nothing of that) */
	if (in.pos > from || out.pos > 0)
		r->inframe = rc != 0;
	r->hint = rc != 0 ? rc : ZSTD_PREFIX;
	return 0;
}

static int
step_gzip(struct reader *r, char *buf, size_t size, size_t *got)
{
	z_stream *z = &r->s.gz;
	int rc;

	z->next_in = r->in + r->ipos;
	z->avail_in = (uInt)(r->ilen - r->ipos);
	z->next_out = (Bytef *)buf;
	z->avail_out = (uInt)size;
	rc = inflate(z, Z_NO_FLUSH);
	r->ipos = r->ilen - z->avail_in;
	*got = size - z->avail_out;
	switch (rc) {
	case Z_STREAM_END:	/* a member ends: another may follow */
		r->inframe = false;
		return inflateReset(z) == Z_OK ? 0 : fail(r, "inflateReset");
	case Z_OK:
		r->inframe = true;
		return 0;
	case Z_BUF_ERROR:	/* no progress: wants more input */
		return 0;
	case Z_MEM_ERROR:
		return fail(r, "out of memory");
	}
	return fail(r, z->msg != NULL ? z->msg : zError(rc));
}

static const char *
bz_error(int rc)
{
	switch (rc) {
	case BZ_DATA_ERROR:
		return "data integrity (CRC) error in data";
	case BZ_DATA_ERROR_MAGIC:
		return "bad magic number (file not created by bzip2)";
	case BZ_MEM_ERROR:
		return "out of memory";
	}
	return "internal error";
}

static int
step_bzip2(struct reader *r, char *buf, size_t size, size_t *got)
{
	bz_stream *bz = &r->s.bz;
	int rc;

	bz->next_in = (char *)r->in + r->ipos;
	bz->avail_in = (unsigned)(r->ilen - r->ipos);
	bz->next_out = buf;
	bz->avail_out = (unsigned)size;
	rc = BZ2_bzDecompress(bz);
	if (rc == BZ_OK && bz->avail_in < r->ilen - r->ipos)
		r->inframe = true;
	r->ipos = r->ilen - bz->avail_in;
	*got = size - bz->avail_out;
	if (rc == BZ_STREAM_END) {	/* a stream ends: another may follow */
		r->inframe = false;
		BZ2_bzDecompressEnd(bz);
		memset(bz, 0, sizeof *bz);
		if ((rc = BZ2_bzDecompressInit(bz, 0, 0)) == BZ_OK)
			return 0;
		r->live = false;
	}
	return rc == BZ_OK ? 0 : fail(r, bz_error(rc));
}

static const char *
xz_error(lzma_ret rc)
{
	switch (rc) {
	case LZMA_MEM_ERROR:
		return "out of memory";
	case LZMA_MEMLIMIT_ERROR:
		return "memory usage limit reached";
	case LZMA_FORMAT_ERROR:
		return "file format not recognized";
	case LZMA_OPTIONS_ERROR:
		return "unsupported options";
	case LZMA_DATA_ERROR:
		return "compressed data is corrupt";
	case LZMA_BUF_ERROR:
		return "unexpected end of input";
	default:
		return "internal error";
	}
}

/* xz's memory: what zstd allows for its window (its tool's default,
   1 << 27).  xz -9 needs 65 MiB; a header that asks more is refused. */
#define XZ_MEMLIMIT	(128u << 20)

static bool
xz_begin(lzma_stream *x)
{
	return lzma_stream_decoder(x, XZ_MEMLIMIT, 0) == LZMA_OK;
}

/* Why a stream needs more memory than XZ_MEMLIMIT. */
static int
xz_toomuch(struct reader *r)
{
	char msg[160];

	snprintf(msg, sizeof msg, "the stream needs %llu MiB of memory to "
	    "decode, more than the %u MiB allowed",
	    (unsigned long long)(lzma_memusage(&r->s.xz) + (1u << 20) - 1) >>
	    20, XZ_MEMLIMIT >> 20);
	return fail(r, msg);
}

/*
 * Between streams: their padding (zero bytes, four at a time), then a
 * new decoder for the next stream.  One stream at a time, so that a
 * stream that does not begin fails at its first byte.
 */
static int
xz_between(struct reader *r)
{
	while (r->ipos < r->ilen && r->in[r->ipos] == 0) {
		r->ipos++;
		r->xzpad++;
	}
	if (r->ipos == r->ilen)
		return 0;
	if (r->xzpad % 4 != 0)
		return fail(r, "compressed data is corrupt");
	r->xzpad = 0;
	if (r->xznew && !xz_begin(&r->s.xz))
		return fail(r, "out of memory");
	r->xznew = false;
	return 0;
}

/* Told LZMA_FINISH at the end of input, liblzma says whether a stream
   was whole. */
static int
step_xz(struct reader *r, char *buf, size_t size, size_t *got)
{
	lzma_stream *x = &r->s.xz;
	lzma_ret rc;
	int tries = 0;

	*got = 0;
	if (!r->inframe && (xz_between(r) != 0 || r->ipos == r->ilen))
		return r->failed ? -1 : 0;
	x->next_out = (uint8_t *)buf;
	x->avail_out = size;
	do {
		x->next_in = r->in + r->ipos;
		x->avail_in = r->ilen - r->ipos;
		rc = lzma_code(x, r->eof ? LZMA_FINISH : LZMA_RUN);
		r->ipos = r->ilen - x->avail_in;
	} while (rc == LZMA_OK && r->eof && x->avail_out == size &&
	    ++tries < 4);
	*got = size - x->avail_out;
	if (rc == LZMA_STREAM_END) {
		r->inframe = false;
		r->xznew = true;
		return 0;
	}
	r->inframe = true;
	if (rc == LZMA_OK || (rc == LZMA_BUF_ERROR && !r->eof))
		return 0;
	return rc == LZMA_MEMLIMIT_ERROR ? xz_toomuch(r) :
	    fail(r, xz_error(rc));
}

static int
step(struct reader *r, char *buf, size_t size, size_t *got)
{
	switch (r->kind) {
	case ZSTD:
		return step_zstd(r, buf, size, got);
	case GZIP:
		return step_gzip(r, buf, size, got);
	case BZIP2:
		return step_bzip2(r, buf, size, got);
	case XZ:
		return step_xz(r, buf, size, got);
	case PLAIN:
		break;
	}
	*got = r->ilen - r->ipos < size ? r->ilen - r->ipos : size;
	memcpy(buf, r->in + r->ipos, *got);
	r->ipos += *got;
	return 0;
}

/* The bytes of a pipe peeked at, then the pipe itself. */
static ssize_t
read_plain(struct reader *r, char *buf, size_t size)
{
	ssize_t n;

	if (r->hpos < r->nhead) {
		n = (ssize_t)(r->nhead - r->hpos < size ? r->nhead - r->hpos :
		    size);
		memcpy(buf, r->head + r->hpos, (size_t)n);
		r->hpos += (size_t)n;
		return n;
	}
	do
		n = read(r->fd, buf, size);
	while (n < 0 && errno == EINTR);
	if (n > 0)
		__atomic_add_fetch(&r->nread, (unsigned long long)n,
		    __ATOMIC_RELAXED);
	return n;
}

static ssize_t
decode(struct reader *r, char *buf, size_t size)
{
	size_t got = 0;
	int stalls = 0;

	if (r->failed) {
		errno = EIO;
		return -1;
	}
	if (r->kind == PLAIN)
		return read_plain(r, buf, size);
	if (size > (1u << 30))	/* zlib and libbz2 count in 32 bits */
		size = 1u << 30;
	for (;;) {
		size_t before = r->ipos;

		if (r->ipos == r->ilen && !r->eof && refill(r) < 0)
			return -1;	/* a read error: the caller's to say */
		if (!r->live)
			return fail(r, "out of memory");
		/* What the codec gave before it failed is read first; the
		   next call fails. */
		if (step(r, buf, size, &got) != 0) {
			/* A frame that failed before it gave a byte (its
			   header, its first block) fails where it began. */
			if (!r->gave && got == 0)
				r->at = r->mark;
			return got > 0 ? (ssize_t)got : -1;
		}
		r->gave |= got > 0;
		if (!r->inframe) {
			r->mark = r->base + r->ipos;
			r->gave = false;
		}
		if (got > 0)
			return (ssize_t)got;
		if (r->eof && r->ipos == r->ilen)
			return r->inframe ? fail(r, "unexpected end of input") :
			    r->xzpad % 4 != 0 ? fail(r, "compressed data is "
			    "corrupt") : 0;
		/* A decoder may change state without a byte in or out; not
		   for ever. */
		if (r->ipos > before)
			stalls = 0;
		else if (r->ipos < r->ilen && ++stalls > 16)
			return fail(r, "no progress");
	}
}

/* The decoding thread: fill a free buffer, hand it over, again. */
static void *
ahead_run(void *arg)
{
	struct reader *r = arg;
	struct ahead *a = r->ahead;
	ssize_t n = 0;

	for (;;) {
		size_t len = 0;
		bool quit;

		pthread_mutex_lock(&a->mu);
		while (a->full[a->wr] && !a->quit)
			pthread_cond_wait(&a->cv, &a->mu);
		quit = a->quit;
		pthread_mutex_unlock(&a->mu);
		if (quit)
			break;
		while (len < AHEAD && (n = decode(r, a->buf[a->wr] + len,
		    AHEAD - len)) > 0)
			len += (size_t)n;
		pthread_mutex_lock(&a->mu);
		a->len[a->wr] = len;
		a->full[a->wr] = len > 0;
		if (len > 0)
			a->wr ^= 1;
		if (n <= 0) {
			a->done = true;
			a->end = n < 0 ? -1 : 0;
			a->err = errno;
		}
		pthread_cond_broadcast(&a->cv);
		pthread_mutex_unlock(&a->mu);
		if (n <= 0)
			break;
	}
	return NULL;
}

static ssize_t
ahead_read(struct reader *r, char *buf, size_t size)
{
	struct ahead *a = r->ahead;
	size_t n;

	pthread_mutex_lock(&a->mu);
	while (!a->full[a->rd] && !a->done)
		pthread_cond_wait(&a->cv, &a->mu);
	if (!a->full[a->rd]) {
		pthread_mutex_unlock(&a->mu);
		errno = a->err;
		return a->end;
	}
	pthread_mutex_unlock(&a->mu);
	n = a->len[a->rd] - a->pos < size ? a->len[a->rd] - a->pos : size;
	memcpy(buf, a->buf[a->rd] + a->pos, n);
	if ((a->pos += n) == a->len[a->rd]) {
		pthread_mutex_lock(&a->mu);
		a->full[a->rd] = false;
		a->rd ^= 1;
		a->pos = 0;
		pthread_cond_broadcast(&a->cv);
		pthread_mutex_unlock(&a->mu);
	}
	return (ssize_t)n;
}

static ssize_t
rd_read(void *cookie, char *buf, size_t size)
{
	struct reader *r = cookie;

	return r->ahead != NULL ? ahead_read(r, buf, size) :
	    decode(r, buf, size);
}

int
codec_cores(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof set, &set) != 0 ||
	    (n = CPU_COUNT(&set)) < 1)
		n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

bool
codec_threaded(FILE *f)
{
	struct reader *r;

	for (r = readers; r != NULL; r = r->next)
		if (r->f == f)
			return r->ahead != NULL;
	return false;
}

/* Start the decoding thread; without it (one core, no memory, no
   thread) the reader decodes as it reads. */
static void
ahead_start(struct reader *r)
{
	struct ahead *a;

	if (codec_cores() < 2 ||
	    (a = calloc(1, sizeof *a)) == NULL)
		return;
	if ((a->buf[0] = malloc(2 * AHEAD)) != NULL) {
		a->buf[1] = a->buf[0] + AHEAD;
		pthread_mutex_init(&a->mu, NULL);
		pthread_cond_init(&a->cv, NULL);
		r->ahead = a;
		if (pthread_create(&a->th, NULL, ahead_run, r) == 0)
			return;
		r->ahead = NULL;
		pthread_mutex_destroy(&a->mu);
		pthread_cond_destroy(&a->cv);
	}
	free(a->buf[0]);
	free(a);
}

static void
ahead_stop(struct reader *r)
{
	struct ahead *a = r->ahead;

	if (a == NULL)
		return;
	pthread_mutex_lock(&a->mu);
	a->quit = true;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
	pthread_join(a->th, NULL);
	pthread_mutex_destroy(&a->mu);
	pthread_cond_destroy(&a->cv);
	free(a->buf[0]);
	free(a);
	r->ahead = NULL;
}

static void
codec_end(struct reader *r)
{
	if (!r->live)
		return;
	switch (r->kind) {
	case ZSTD:
		ZSTD_freeDStream(r->s.zd);
		break;
	case GZIP:
		inflateEnd(&r->s.gz);
		break;
	case BZIP2:
		BZ2_bzDecompressEnd(&r->s.bz);
		break;
	case XZ:
		lzma_end(&r->s.xz);
		break;
	case PLAIN:
		break;
	}
	r->live = false;
}

static int
rd_close(void *cookie)
{
	struct reader *r = cookie, **p;

	pthread_mutex_lock(&readers_mu);
	for (p = &readers; *p != NULL; p = &(*p)->next)
		if (*p == r) {
			*p = r->next;
			break;
		}
	pthread_mutex_unlock(&readers_mu);
	ahead_stop(r);
	codec_end(r);
	if (r->raw != stdin)
		fclose(r->raw);
	free(r->in);
	free(r);
	return 0;
}

static bool
codec_begin(struct reader *r)
{
	lzma_stream x = LZMA_STREAM_INIT;

	switch (r->kind) {
	case ZSTD:
		/* The window zstd's own tool allows (up to 128 MB): the file's
		   header says what it needs (8 MB for pzstd -19). */
		r->hint = ZSTD_PREFIX;
		return (r->s.zd = ZSTD_createDStream()) != NULL;
	case GZIP:
		return inflateInit2(&r->s.gz, 16 + MAX_WBITS) == Z_OK;
	case BZIP2:
		return BZ2_bzDecompressInit(&r->s.bz, 0, 0) == BZ_OK;
	case XZ:
		r->s.xz = x;
		return xz_begin(&r->s.xz);
	case PLAIN:
		break;
	}
	return true;
}

/* Read up to PEEK bytes of a pipe; the count, or -1 on a read error. */
static ssize_t
peek_pipe(int fd, unsigned char *b)
{
	size_t n = 0;
	ssize_t k;

	while (n < PEEK) {
		if ((k = read(fd, b + n, PEEK - n)) > 0)
			n += (size_t)k;
		else if (k == 0)
			break;
		else if (errno != EINTR)
			return n > 0 ? (ssize_t)n : -1;
	}
	return (ssize_t)n;
}

static FILE *
reader_new(FILE *f, enum kind kind, const unsigned char *head, size_t nhead)
{
	static const cookie_io_functions_t io = {
		.read = rd_read, .close = rd_close
	};
	struct reader *r;
	struct stat st;

	if ((r = calloc(1, sizeof *r)) == NULL)
		return NULL;
	r->raw = f;
	r->fd = fileno(f);
	r->size = fstat(r->fd, &st) == 0 && S_ISREG(st.st_mode) ?
	    (long long)st.st_size : -1;
	r->nread = kind == PLAIN ? nhead : 0;	/* a pipe's peeked bytes */
	r->kind = kind;
	memcpy(r->head, head, nhead);
	r->nhead = nhead;
	if ((kind != PLAIN && (r->in = malloc(INBUF)) == NULL) ||
	    (r->f = fopencookie(r, "r", io)) == NULL) {
		free(r->in);
		free(r);
		return NULL;
	}
	r->live = codec_begin(r);	/* if not, the first read says so */
	pthread_mutex_lock(&readers_mu);
	r->next = readers;
	readers = r;
	pthread_mutex_unlock(&readers_mu);
	if (kind != PLAIN)
		ahead_start(r);
	return r->f;
}

FILE *
codec_ropen(FILE *f)
{
	unsigned char head[PEEK];
	const char *kind;
	ssize_t n;
	off_t at;
	int fd = fileno(f);
	FILE *nf;

	if (fd < 0 || isatty(fd))
		return f;
	if ((at = lseek(fd, 0, SEEK_CUR)) >= 0) {
		/* A file: look without moving, and leave it alone if plain. */
		if ((n = pread(fd, head, PEEK, at)) <= 0 ||
		    ((kind = codec_magic(head, (size_t)n)) == NULL &&
		    (n == PEEK || (kind = zh_pgn_magic_cut(head,
		    (size_t)n)) == NULL)))
			return f;	/* a short file ending in a magic
					   number: its decoder says it is cut */
		nf = reader_new(f, kind_of(kind), head, 0);
	} else {
		if ((n = peek_pipe(fd, head)) < 0)
			return f;	/* its reads fail again, as before */
		if ((kind = codec_magic(head, (size_t)n)) == NULL && n < PEEK)
			kind = zh_pgn_magic_cut(head, (size_t)n);
		nf = reader_new(f, kind_of(kind), head, (size_t)n);
	}
	if (nf == NULL && f != stdin)
		fclose(f);
	return nf;
}

long long
codec_progress(FILE *f, long long *size)
{
	struct reader *r;
	struct stat st;
	off_t at;
	long long n;

	pthread_mutex_lock(&readers_mu);
	for (r = readers; r != NULL; r = r->next)
		if (r->f == f) {
			*size = r->size;
			n = (long long)__atomic_load_n(&r->nread,
			    __ATOMIC_RELAXED);
			pthread_mutex_unlock(&readers_mu);
			return n;
		}
	pthread_mutex_unlock(&readers_mu);
	*size = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) ?
	    (long long)st.st_size : -1;
	return (at = ftello(f)) >= 0 ? (long long)at : -1;
}

const char *
codec_error(FILE *f)
{
	struct reader *r;

	pthread_mutex_lock(&readers_mu);
	for (r = readers; r != NULL; r = r->next)
		if (r->f == f && r->failed) {
			snprintf(r->msg, sizeof r->msg, "%s: %s (at byte %llu "
			    "of the compressed input)", names[r->kind], r->why,
			    r->at);
			break;
		}
	pthread_mutex_unlock(&readers_mu);
	return r != NULL ? r->msg : NULL;
}

/* ======================== writing ======================== */

struct writer {
	enum kind kind;
	bool live, failed;
	union state s;
	unsigned char out[OUTBUF];
	ssize_t (*write)(void *, const char *, size_t);
	int (*close)(void *);
	void *arg;
};

const char *
codec_suffix(const char *path)
{
	static const char *const sfx[][2] = {
		{ ".zst", "zstd" }, { ".gz", "gzip" }, { ".bz2", "bzip2" },
		{ ".xz", "xz" },
	};
	size_t n = strlen(path), k, m;

	for (k = 0; k < sizeof sfx / sizeof sfx[0]; k++) {
		m = strlen(sfx[k][0]);
		if (n > m && strcmp(path + n - m, sfx[k][0]) == 0)
			return sfx[k][1];
	}
	return NULL;
}

int
codec_level(const char *kind, const char **why)
{
	static const int def[] = { 0, 3, 6, 9, 6 }, lo[] = { 0, 1, 1, 1, 0 };
	static char msg[128];
	const char *env = getenv("ZHKIT_COMPRESS_LEVEL");
	enum kind k = kind_of(kind);
	int hi = k == ZSTD ? ZSTD_maxCLevel() : 9;
	char *end;
	long n;

	if (env == NULL || *env == '\0')
		return def[k];
	errno = 0;
	n = strtol(env, &end, 10);
	if (*end == '\0' && errno == 0 && n >= lo[k] && n <= hi)
		return (int)n;
	snprintf(msg, sizeof msg, "ZHKIT_COMPRESS_LEVEL: '%.32s' is not a "
	    "%s level from %d to %d", env, names[k], lo[k], hi);
	*why = msg;
	return -1;
}

/* Hand the compressed bytes out[0..n) on; false once that failed. */
static bool
put(struct writer *w, size_t n)
{
	if (n > 0 && !w->failed && w->write(w->arg, (const char *)w->out, n) !=
	    (ssize_t)n)
		w->failed = true;
	return !w->failed;
}

/* Compress in[0..n) (all of it), or end the stream (end). */
static bool
squeeze_zstd(struct writer *w, const char *in, size_t n, bool end)
{
	ZSTD_inBuffer ib = { in, n, 0 };
	size_t rc;

	do {
		ZSTD_outBuffer ob = { w->out, sizeof w->out, 0 };

		rc = ZSTD_compressStream2(w->s.zc, &ob, &ib, end ? ZSTD_e_end :
		    ZSTD_e_continue);
		if (ZSTD_isError(rc) || !put(w, ob.pos))
			return false;
	} while (ib.pos < ib.size || (end && rc != 0));
	return true;
}

static bool
squeeze_gzip(struct writer *w, const char *in, size_t n, bool end)
{
	z_stream *z = &w->s.gz;
	int rc;

	z->next_in = (Bytef *)(uintptr_t)in;
	z->avail_in = (uInt)n;
	do {
		z->next_out = w->out;
		z->avail_out = sizeof w->out;
		rc = deflate(z, end ? Z_FINISH : Z_NO_FLUSH);
		if ((rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) ||
		    !put(w, sizeof w->out - z->avail_out))
			return false;
	} while (z->avail_in > 0 || (end && rc != Z_STREAM_END));
	return true;
}

static bool
squeeze_bzip2(struct writer *w, const char *in, size_t n, bool end)
{
	bz_stream *bz = &w->s.bz;
	int rc;

	bz->next_in = (char *)(uintptr_t)in;
	bz->avail_in = (unsigned)n;
	do {
		bz->next_out = (char *)w->out;
		bz->avail_out = sizeof w->out;
		rc = BZ2_bzCompress(bz, end ? BZ_FINISH : BZ_RUN);
		if ((rc != BZ_RUN_OK && rc != BZ_FINISH_OK &&
		    rc != BZ_STREAM_END) ||
		    !put(w, sizeof w->out - bz->avail_out))
			return false;
	} while (bz->avail_in > 0 || (end && rc != BZ_STREAM_END));
	return true;
}

static bool
squeeze_xz(struct writer *w, const char *in, size_t n, bool end)
{
	lzma_stream *x = &w->s.xz;
	lzma_ret rc;

	x->next_in = (const uint8_t *)in;
	x->avail_in = n;
	do {
		x->next_out = w->out;
		x->avail_out = sizeof w->out;
		rc = lzma_code(x, end ? LZMA_FINISH : LZMA_RUN);
		if ((rc != LZMA_OK && rc != LZMA_STREAM_END) ||
		    !put(w, sizeof w->out - x->avail_out))
			return false;
	} while (x->avail_in > 0 || (end && rc != LZMA_STREAM_END));
	return true;
}

static bool
squeeze(struct writer *w, const char *in, size_t n, bool end)
{
	bool ok = false;

	if (!w->live || w->failed)
		return false;
	switch (w->kind) {
	case ZSTD:
		ok = squeeze_zstd(w, in, n, end);
		break;
	case GZIP:
		ok = squeeze_gzip(w, in, n, end);
		break;
	case BZIP2:
		ok = squeeze_bzip2(w, in, n, end);
		break;
	case XZ:
		ok = squeeze_xz(w, in, n, end);
		break;
	case PLAIN:
		break;
	}
	if (!ok)
		w->failed = true;
	return ok;
}

/* Nothing taken: stdio marks the stream in error. */
static ssize_t
wr_write(void *cookie, const char *buf, size_t n)
{
	return squeeze(cookie, buf, n, false) ? (ssize_t)n : 0;
}

static void
writer_end(struct writer *w)
{
	if (w->live)
		switch (w->kind) {
		case ZSTD:
			ZSTD_freeCStream(w->s.zc);
			break;
		case GZIP:
			deflateEnd(&w->s.gz);
			break;
		case BZIP2:
			BZ2_bzCompressEnd(&w->s.bz);
			break;
		case XZ:
			lzma_end(&w->s.xz);
			break;
		case PLAIN:
			break;
		}
	w->live = false;
}

static int
wr_close(void *cookie)
{
	struct writer *w = cookie;
	bool ok = squeeze(w, "", 0, true);
	int rc;

	writer_end(w);
	rc = w->close(w->arg);
	free(w);
	return ok && rc == 0 ? 0 : -1;
}

static bool
writer_begin(struct writer *w, int level)
{
	lzma_stream x = LZMA_STREAM_INIT;

	switch (w->kind) {
	case ZSTD:
		/* With the checksum zstd's own tool writes. */
		return (w->s.zc = ZSTD_createCStream()) != NULL &&
		    !ZSTD_isError(ZSTD_CCtx_setParameter(w->s.zc,
		    ZSTD_c_compressionLevel, level)) &&
		    !ZSTD_isError(ZSTD_CCtx_setParameter(w->s.zc,
		    ZSTD_c_checksumFlag, 1));
	case GZIP:
		return deflateInit2(&w->s.gz, level, Z_DEFLATED, 16 + MAX_WBITS,
		    8, Z_DEFAULT_STRATEGY) == Z_OK;
	case BZIP2:
		return BZ2_bzCompressInit(&w->s.bz, level, 0, 0) == BZ_OK;
	case XZ:
		w->s.xz = x;
		return lzma_easy_encoder(&w->s.xz, (uint32_t)level,
		    LZMA_CHECK_CRC64) == LZMA_OK;
	case PLAIN:
		break;
	}
	return false;
}

FILE *
codec_wopen(const char *kind, int level,
    ssize_t (*write)(void *, const char *, size_t), int (*close)(void *),
    void *arg)
{
	static const cookie_io_functions_t io = {
		.write = wr_write, .close = wr_close
	};
	struct writer *w;
	FILE *f;

	if ((w = calloc(1, sizeof *w)) == NULL)
		return NULL;
	w->kind = kind_of(kind);
	w->write = write;
	w->close = close;
	w->arg = arg;
	w->live = true;		/* writer_end() frees what began */
	if (!writer_begin(w, level) || (f = fopencookie(w, "w", io)) == NULL) {
		writer_end(w);
		free(w);
		return NULL;
	}
	return f;
}
