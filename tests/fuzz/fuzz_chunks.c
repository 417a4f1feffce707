/*
 * fuzz_chunks.c - libFuzzer target for reading a stream in pieces, as -j
 * does: the input is cut before lines "[Event " (at every one, or at
 * those the first byte picks), each piece is read in place with
 * zh_pgn_mem(), and where every piece but the last was clean
 * (zh_pgn_mem_clean) the games must be those of one zh_pgn_open()
 * reader over the whole input: numbers, lines, tags, tokens, raw bytes
 * and errors.  Built by `make fuzz` (build/fuzz/fuzz_chunks) and, over
 * the checked-in corpus, by make check (tests/fuzz.bats).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXG 512		/* games compared */

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

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct zh_pgn_limits small = { .max_game = 3000, .max_tag = 40,
	    .max_comment = 100, .max_tags = 8, .max_plies = 30,
	    .max_tokens = 60, .max_depth = 4 };
	const struct zh_pgn_limits *lim;
	struct rec whole[MAXG] = { { 0 } }, one = { 0 };
	struct zh_pgn_reader *r = NULL, *nr;
	struct zh_game g;
	const char *in;
	char *buf;
	size_t n, start, i;
	long ng = 0, k = 0, line = 0, games = 0;
	unsigned pick;
	int rc0 = 0;
	FILE *f;
	bool clean = true;

	if (size < 2)
		return 0;
	pick = data[0];		/* which cuts to make: a bit each */
	lim = pick & 1 ? &small : NULL;
	in = (const char *)data + 1;
	n = size - 1;
	if ((f = fmemopen((void *)(uintptr_t)in, n, "r")) == NULL)
		return 0;
	r = zh_pgn_open(f, lim);
	while (ng < MAXG && (rc0 = zh_pgn_next(r, &g)) == 1)
		record(&whole[ng++], &g);
	zh_pgn_close(r);
	fclose(f);
	/* a stream the reader refuses (compressed: its first bytes are a
	   codec's magic) has no games to compare the pieces' with */
	if (ng == MAXG || rc0 < 0)
		goto out;

	/* The pieces, each copied with its padding, read in turn. */
	r = NULL;
	start = 0;
	for (i = 1; i <= n && clean; i++) {
		unsigned cut = 0;
		int rc;

		if (i < n) {
			if (in[i - 1] != '\n' || n - i < 7 ||
			    memcmp(in + i, "[Event ", 7) != 0)
				continue;
			cut = (pick >> 1) == 0 || ((pick >> 1) >> (k++ % 7) & 1);
			if (!cut)
				continue;
		}
		if ((buf = calloc(1, i - start + ZH_PGN_PAD)) == NULL)
			abort();
		memcpy(buf, in + start, i - start);
		if ((nr = zh_pgn_mem(r, buf, i - start, lim, line,
		    games)) == NULL) {
			free(buf);	/* longer than max_game */
			break;
		}
		r = nr;
		while ((rc = zh_pgn_next(r, &g)) == 1) {
			if (games >= ng)
				abort();	/* more games than the stream */
			record(&one, &g);
			if (one.n != whole[games].n ||
			    memcmp(one.p, whole[games].p, one.n) != 0) {
				/* only a piece cut inside a game may differ */
				if (zh_pgn_next(r, &g) == 0 &&
				    !zh_pgn_mem_clean(r, &line) && i < n)
					clean = false;
				else
					abort();
				break;
			}
			games++;
		}
		if (clean && rc == 0) {
			if (!zh_pgn_mem_clean(r, &line) && i < n)
				clean = false;
			else if (i == n && games != ng)
				abort();	/* fewer games than the stream */
		}
		free(buf);
		start = i;
	}
	zh_pgn_close(r);
out:
	for (i = 0; i < MAXG; i++)
		free(whole[i].p);
	free(one.p);
	return 0;
}
