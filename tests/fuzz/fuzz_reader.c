/*
 * fuzz_reader.c - libFuzzer target for the callback reader,
 * zh_pgn_open_read(): the input is handed over in pieces whose sizes the
 * first bytes pick (1 byte to 64 KB, short reads as a pipe or a
 * decompressor gives them), maybe a read error at a chosen byte; the
 * games must be those of one zh_pgn_open() reader over the whole input
 * (numbers, lines, tags, tokens, raw bytes, errors), and after an error
 * the reader says ZH_EIO with the errno given, never a game made of
 * bytes it did not get.  Built by `make fuzz` (build/fuzz/fuzz_reader)
 * and, over the checked-in corpus, by make check (tests/fuzz.bats).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXG 256		/* games compared */

/* A game as one flat record, for comparison. */
struct rec {
	char *p;
	size_t n, cap;
};

static void
put(struct rec *r, const void *p, size_t n)
{
	if (r->cap - r->n < n) {
		size_t c = r->cap ? r->cap : 1024;

		while (c - r->n < n)
			c *= 2;
		if ((r->p = realloc(r->p, c)) == NULL)
			abort();
		r->cap = c;
	}
	memcpy(r->p + r->n, p, n);
	r->n += n;
}

static void
putl(struct rec *r, long v)
{
	put(r, &v, sizeof v);
}

static void
putz(struct rec *r, const char *s)
{
	put(r, s, strlen(s) + 1);
}

static void
record(struct rec *r, const struct zh_game *g)
{
	size_t k;

	r->n = 0;
	putl(r, g->number);
	putl(r, g->line);
	putl(r, (long)g->ntags);
	for (k = 0; k < g->ntags; k++) {
		putz(r, g->tags[k].name);
		putz(r, g->tags[k].value);
		putl(r, g->tags[k].line);
		putl(r, g->tags[k].col);
	}
	putl(r, (long)g->ntoks);
	for (k = 0; k < g->ntoks; k++) {
		putl(r, g->toks[k].kind);
		putl(r, g->toks[k].line);
		putl(r, g->toks[k].col);
		putl(r, (long)g->toks[k].len);
		put(r, g->toks[k].text, g->toks[k].len);
	}
	putz(r, g->result ? g->result : "-");
	putl(r, (long)g->rawlen);
	put(r, g->raw, g->rawlen);
	putl(r, g->raw_truncated);
	putl(r, g->err.code);
	putl(r, g->err.line);
	putl(r, g->err.col);
	putz(r, g->err.text);
}

/* The input handed over in pieces. */
struct feed {
	const char *p;
	size_t n, at;
	uint32_t seed;		/* the pieces' sizes */
	size_t fail_at;		/* a read error there (SIZE_MAX: none) */
	bool failed, ended;
	long calls;
};

static size_t
feed_read(void *ctx, char *buf, size_t n)
{
	struct feed *fd = ctx;
	size_t k;

	if (fd->ended || fd->failed)
		abort();	/* called again after the end or an error */
	fd->calls++;
	if (fd->at >= fd->fail_at) {
		fd->failed = true;
		errno = EPIPE;
		return ZH_PGN_READ_ERROR;
	}
	if (fd->at == fd->n) {
		fd->ended = true;
		return 0;
	}
	fd->seed = fd->seed * 1103515245u + 12345u;
	/* mostly short pieces, now and then a whole buffer's worth */
	k = (fd->seed >> 16) % 8 == 0 ? n : 1 + (fd->seed >> 8) % 97;
	if (k > n)
		k = n;
	if (k > fd->n - fd->at)
		k = fd->n - fd->at;
	if (fd->fail_at != SIZE_MAX && k > fd->fail_at - fd->at)
		k = fd->fail_at - fd->at;
	memcpy(buf, fd->p + fd->at, k);
	fd->at += k;
	return k;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct zh_pgn_limits small = { .max_game = 3000, .max_tag = 40,
	    .max_comment = 100, .max_tags = 8, .max_plies = 30,
	    .max_tokens = 60, .max_depth = 4 };
	const struct zh_pgn_limits *lim;
	static struct rec whole[MAXG], one;
	struct zh_pgn_reader *r;
	struct feed fd;
	struct zh_game g;
	long ng = 0, k = 0;
	int rc0 = 0, rc;
	FILE *f;

	if (size < 4)
		return 0;
	lim = data[0] & 1 ? &small : NULL;
	memset(&fd, 0, sizeof fd);
	fd.p = (const char *)data + 4;
	fd.n = size - 4;
	fd.seed = (uint32_t)data[1] << 8 | data[2];
	/* a read error in one run of four, at a byte data[3] picks */
	fd.fail_at = data[0] & 6 ? SIZE_MAX : fd.n * data[3] / 255;
	if ((f = fmemopen((void *)(uintptr_t)fd.p, fd.n ? fd.n : 1, "r")) ==
	    NULL)
		return 0;
	if (fd.n == 0)
		fgetc(f);	/* fmemopen of 0 bytes: at its end */
	r = zh_pgn_open(f, lim);
	while (ng < MAXG && (rc0 = zh_pgn_next(r, &g)) == 1)
		record(&whole[ng++], &g);
	zh_pgn_close(r);
	fclose(f);
	if (ng == MAXG)
		return 0;

	if ((r = zh_pgn_open_read(feed_read, &fd, lim)) == NULL)
		abort();
	while ((rc = zh_pgn_next(r, &g)) == 1) {
		if (k >= ng)
			abort();	/* a game the whole reader has not */
		record(&one, &g);
		/* a game read to its end before the error is the same */
		if (!fd.failed && (one.n != whole[k].n ||
		    memcmp(one.p, whole[k].p, one.n) != 0))
			abort();
		k++;
	}
	if (fd.failed) {
		/* the error said as such, with its errno */
		if (rc != -1 || g.err.code != ZH_EIO ||
		    strstr(g.err.text, "read error") == NULL)
			abort();
	} else if (rc != rc0 || k != ng)
		abort();
	zh_pgn_close(r);
	return 0;
}
