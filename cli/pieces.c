/*
 * pieces.c - a PGN input cut into pieces between games, each read on
 * its own, numbered by a guess that is checked (pieces.h).
 *
 * Pieces are small: a piece's output waits in memory until it is
 * written, and it can be 20 times the piece (zhreplay -f board); 64 KB
 * holds about 90 games, enough that handing pieces over costs little.
 * The guess fails where a game ran on past the piece's end (its tags went
 * on past an "[Event " line, a comment or a variation was left open,
 * ...) or the counts differ (a game without an Event tag, a lone CR).
 */
#define _GNU_SOURCE		/* fopencookie(): glibc, musl, the BSDs' funopen */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pieces.h"

#define PIECE_BYTES (64u << 10)	/* ZH_JOBS_CHUNK=N: N bytes (tests) */
#define PIECE_MAX (8u << 20)	/* no cut in so many bytes: one reader */

/* Make room for n more bytes (and the padding) in *b. */
static bool
reserve(char **b, size_t *cap, size_t len, size_t n)
{
	size_t need = len + n + ZH_PGN_PAD, ncap = *cap ? *cap : 64 * 1024;
	char *nb;

	if (need <= *cap)
		return true;
	while (ncap < need)
		ncap *= 2;
	if ((nb = realloc(*b, ncap)) == NULL)
		return false;
	*b = nb;
	*cap = ncap;
	return true;
}

/* ======================== cutting ======================== */

void
pieces_open(struct pieces *ps, FILE *in)
{
	const char *env = getenv("ZH_JOBS_CHUNK");

	memset(ps, 0, sizeof *ps);
	ps->in = in;
	ps->target = env && atol(env) > 0 ? (size_t)atol(env) : PIECE_BYTES;
	ps->first = true;
}

/* Read until want bytes are pending or the input ends. */
static void
fill(struct pieces *ps, size_t want)
{
	while (!ps->eof && ps->plen < want) {
		size_t got;

		if (!reserve(&ps->pend, &ps->pcap, ps->plen, want - ps->plen)) {
			cli_fail("out of memory");
			ps->nomem = true;
			ps->eof = true;	/* what was read is still cut */
			return;
		}
		got = fread(ps->pend + ps->plen, 1, want - ps->plen, ps->in);
		ps->plen += got;
		if (got == 0) {
			ps->eof = true;
			ps->rerr = ferror(ps->in) != 0;
		}
	}
}

int
pieces_cut(struct pieces *ps)
{
	size_t want = ps->target;

	for (;;) {
		fill(ps, want);
		if (ps->rerr)	/* one reader reads up to it, as -j 1 does */
			return PIECES_NOCUT;
		if (ps->plen == 0)
			return PIECES_END;
		/* Before the last "[Event " line, that may start a game
		   the bytes not yet read go on with. */
		ps->cut = ps->eof ? ps->plen : zh_pgn_cut(ps->pend, ps->plen);
		if (ps->cut > 0)
			return PIECES_READY;
		if (want >= PIECE_MAX)
			return PIECES_NOCUT;
		want *= 2;
	}
}

int
pieces_take(struct pieces *ps, struct piece *p)
{
	char *ob = p->buf;
	size_t ocap = p->cap, cut = ps->cut;

	/* The piece keeps the bytes read; its old buffer takes the rest. */
	if (!reserve(&ob, &ocap, 0, ps->plen - cut)) {
		p->buf = ob;
		p->cap = ocap;
		cli_fail("out of memory");
		ps->nomem = true;
		return -1;
	}
	p->buf = ps->pend;
	p->cap = ps->pcap;
	p->len = cut;
	ps->pend = ob;
	ps->pcap = ocap;
	memcpy(ps->pend, p->buf + cut, ps->plen - cut);
	ps->plen -= cut;
	memset(p->buf + cut, 0, ZH_PGN_PAD);
	zh_pgn_count(p->buf, p->len, ps->first, &p->nlines, &p->ngames);
	ps->first = false;
	p->lbase = ps->lines;
	p->gbase = ps->games;
	ps->lines += p->nlines;
	ps->games += p->ngames;
	p->last = ps->eof && ps->plen == 0;
	return 0;
}

/* ======================== reading a piece ======================== */

struct zh_pgn_reader *
piece_read(struct piece *p, struct zh_pgn_reader **r,
    const struct zh_pgn_limits *lim)
{
	struct zh_pgn_reader *rd;

	p->nread = 0;
	if ((rd = zh_pgn_mem(*r, p->buf, p->len, lim, p->lbase,
	    p->gbase)) != NULL)
		*r = rd;
	return rd;
}

int
piece_next(struct piece *p, struct zh_pgn_reader *r, struct zh_game *g)
{
	int rc = zh_pgn_next(r, g);

	if (rc == 1 && !p->last && p->nread == p->ngames)
		return -1;	/* more games than guessed */
	if (rc == 1)
		p->nread++;
	return rc;
}

bool
piece_held(const struct piece *p, const struct zh_pgn_reader *r)
{
	long line;

	return p->last || (zh_pgn_mem_clean(r, &line) &&
	    line == p->lbase + p->nlines && p->nread == p->ngames);
}

/* ======================== the fallback ======================== */

/* The bytes of the fallback reader: pieces, the pending bytes, then the
   input. */
struct pieces_rest {
	struct { const char *p; size_t n; long lbase, gbase; } *v;
	size_t nv, cap, k, off;
	FILE *in, *f;
	struct zh_pgn_reader *r;
};

static ssize_t
rest_read(void *cookie, char *buf, size_t size)
{
	struct pieces_rest *pr = cookie;

	while (pr->k < pr->nv) {
		size_t left = pr->v[pr->k].n - pr->off;

		if (left > 0) {
			if (size > left)
				size = left;
			memcpy(buf, pr->v[pr->k].p + pr->off, size);
			pr->off += size;
			return (ssize_t)size;
		}
		pr->k++;
		pr->off = 0;
	}
	size = fread(buf, 1, size, pr->in);
	return size == 0 && ferror(pr->in) ? -1 : (ssize_t)size;
}

/* Queue n bytes at b (numbered from lines and games) for the fallback. */
static int
rest_add(struct pieces *ps, const char *b, size_t n, long lines, long games)
{
	struct pieces_rest *pr = ps->rest;

	if (pr == NULL && (pr = ps->rest = calloc(1, sizeof *pr)) == NULL)
		goto nomem;
	if (pr->nv == pr->cap) {
		size_t ncap = pr->cap ? 2 * pr->cap : 16;
		void *nv = realloc(pr->v, ncap * sizeof *pr->v);

		if (nv == NULL)
			goto nomem;
		pr->v = nv;
		pr->cap = ncap;
	}
	pr->v[pr->nv].p = b;
	pr->v[pr->nv].n = n;
	pr->v[pr->nv].lbase = lines;
	pr->v[pr->nv++].gbase = games;
	return 0;
nomem:
	cli_fail("out of memory");
	return -1;
}

int
pieces_again(struct pieces *ps, const struct piece *p)
{
	return rest_add(ps, p->buf, p->len, p->lbase, p->gbase);
}

struct zh_pgn_reader *
pieces_rest(struct pieces *ps, const struct zh_pgn_limits *lim)
{
	static const cookie_io_functions_t io = { .read = rest_read };
	struct pieces_rest *pr;

	if (rest_add(ps, ps->pend, ps->plen, ps->lines, ps->games) != 0)
		return NULL;
	pr = ps->rest;
	pr->in = ps->in;
	if ((pr->f = fopencookie(pr, "r", io)) == NULL ||
	    (pr->r = zh_pgn_open(pr->f, lim)) == NULL) {
		cli_fail("out of memory");
		return NULL;
	}
	zh_pgn_set_base(pr->r, pr->v[0].lbase, pr->v[0].gbase);
	return pr->r;
}

void
pieces_close(struct pieces *ps)
{
	struct pieces_rest *pr = ps->rest;

	if (pr != NULL) {
		zh_pgn_close(pr->r);
		if (pr->f != NULL)
			fclose(pr->f);
		free(pr->v);
		free(pr);
	}
	free(ps->pend);
	memset(ps, 0, sizeof *ps);
}
