/*
 * blob.c - the varints and blobs of an index (zhkit-index(5)), read as
 * hostile: every number bounded by the blob's end and by what it may
 * be, a count by the room the caller gives.  No SQLite here: the fuzz
 * target (tests/fuzz/fuzz_zhiblob.c) links this file alone.
 */
#include <stdlib.h>
#include <string.h>

#include "zhi.h"

size_t
zhi_put(unsigned char *b, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		b[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	b[n++] = (unsigned char)v;
	return n;
}

int
zhi_get(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	const unsigned char *q = *p;
	uint64_t x = 0;
	int sh = 0;

	for (;;) {
		if (q >= end || sh > 63)
			return -1;
		x |= (uint64_t)(*q & 0x7f) << sh;
		if (!(*q++ & 0x80))
			break;
		sh += 7;
	}
	*p = q;
	*v = x;
	return 0;
}


/* A position of one game and one move: code, result x 2 + rated,
   [rating,] game. */
static long
one(const unsigned char *p, const unsigned char *end, struct zhi_move *m)
{
	uint64_t code, rr, rating = 0, game;

	if (zhi_get(&p, end, &code) != 0 || zhi_get(&p, end, &rr) != 0 ||
	    rr > 5 || ((rr & 1) && zhi_get(&p, end, &rating) != 0) ||
	    zhi_get(&p, end, &game) != 0 || p != end ||
	    code > UINT32_MAX || game > UINT32_MAX)
		return -1;
	memset(m, 0, sizeof *m);
	m->code = (uint32_t)code;
	m->n[rr / 2] = 1;
	m->rated = rr & 1;
	m->rsum = rating;
	m->first = m->last = game;
	return 1;
}

long
zhi_moves_decode(const unsigned char *b, size_t n, struct zhi_move *m,
    size_t max)
{
	const unsigned char *p = b, *end = b + n;
	uint64_t cnt, v[8], code = 0;
	size_t i;
	int k;

	if (b == NULL || zhi_get(&p, end, &cnt) != 0 || cnt > max || max == 0)
		return -1;
	if (cnt == 0)
		return one(p, end, m);
	for (i = 0; i < cnt; i++) {
		for (k = 0; k < 8; k++)
			if (zhi_get(&p, end, &v[k]) != 0)
				return -1;
		/* each bounded before a sum: none may wrap */
		if (v[0] > UINT32_MAX || v[6] > UINT32_MAX || v[7] > UINT32_MAX ||
		    (i > 0 && v[0] == 0))
			return -1;
		code += v[0];
		if (code > UINT32_MAX || v[6] + v[7] > UINT32_MAX)
			return -1;
		m[i].code = (uint32_t)code;
		m[i].n[0] = v[1];
		m[i].n[1] = v[2];
		m[i].n[2] = v[3];
		m[i].rated = v[4];
		m[i].rsum = v[5];
		m[i].first = v[6];
		m[i].last = v[6] + v[7];
	}
	return p == end ? (long)cnt : -1;
}

long
zhi_games_decode(const unsigned char *b, size_t n, struct zhi_gref *g,
    size_t max)
{
	const unsigned char *p = b, *end = b + n;
	uint64_t d, mv, game = 0;
	size_t i = 0;

	while (p < end) {
		if (i >= max || zhi_get(&p, end, &d) != 0 ||
		    zhi_get(&p, end, &mv) != 0 || d > UINT32_MAX ||
		    game + d > UINT32_MAX || mv / 2 >= UINT32_MAX)
			return -1;
		game += d;
		g[i].game = (uint32_t)game;
		g[i].move = (uint32_t)(mv / 2);
		g[i].board = (uint8_t)(mv & 1);
		i++;
	}
	return (long)i;
}

/* A length at *p, the bytes it says after it: 0, or -1. */
static int
part(const unsigned char **p, const unsigned char *end,
    const unsigned char **at, size_t *n)
{
	uint64_t v;

	if (zhi_get(p, end, &v) != 0 || v > (uint64_t)(end - *p))
		return -1;
	*at = *p;
	*n = (size_t)v;
	*p += v;
	return 0;
}

int
zhi_bucket_next(const unsigned char **p, const unsigned char *end,
    struct zhi_entry *e)
{
	if (*p == end)
		return 0;
	if (end - *p < ZHI_KEYLEN)
		return -1;
	e->key = *p;
	*p += ZHI_KEYLEN;
	if (part(p, end, &e->moves, &e->nmoves) != 0 || e->nmoves == 0 ||
	    part(p, end, &e->games, &e->ngames) != 0 ||
	    part(p, end, &e->top, &e->ntop) != 0)
		return -1;
	return 1;
}

/* ---------------- a position's blobs from its records ---------------- */

int
zhi_grp_add(struct zhi_grp *x, const struct zhi_rec *r)
{

	if (x->ng == x->gcap) {
		size_t c = x->gcap ? 2 * x->gcap : 256;
		struct zhi_rec *g = realloc(x->g, c * sizeof *g);

		if (g == NULL)
			return -1;
		x->g = g;
		x->gcap = c;
	}
	x->g[x->ng++] = *r;
	return 0;
}

/* The moves of the records in x->g, by code. */
int
zhi_grp_moves(struct zhi_grp *x)
{
	size_t i, j;

	x->nm = 0;
	for (i = 0; i < x->ng; i++) {
		const struct zhi_rec *r = &x->g[i];
		struct zhi_move *m;

		for (j = 0; j < x->nm && x->m[j].code < r->move; j++)
			;
		if (j == x->nm || x->m[j].code != r->move) {
			if (x->nm == x->mcap) {
				size_t c = x->mcap ? 2 * x->mcap : 64;

				if ((m = realloc(x->m, c * sizeof *m)) == NULL)
					return -1;
				x->m = m;
				x->mcap = c;
			}
			memmove(x->m + j + 1, x->m + j, (x->nm - j) * sizeof *m);
			x->nm++;
			memset(&x->m[j], 0, sizeof x->m[j]);
			x->m[j].code = r->move;
			x->m[j].first = r->game;
		}
		m = &x->m[j];
		m->n[r->result]++;
		if (r->rating > 0) {
			m->rated++;
			m->rsum += r->rating;
		}
		m->last = r->game;
	}
	return 0;
}

unsigned char *
zhi_grp_room(struct zhi_grp *x, size_t n)
{
	if (n > x->bcap) {
		unsigned char *b = realloc(x->b, n);

		if (b == NULL)
			return NULL;
		x->b = b;
		x->bcap = n;
	}
	return x->b;
}

size_t
zhi_grp_moves_blob(struct zhi_grp *x, unsigned char *b)
{
	const struct zhi_move *m0 = &x->m[0];
	size_t i, n;
	uint32_t prev = 0;

	/* one game, one move (most positions past the opening): count 0,
	   then code, result x 2 + rated, rating, game */
	if (x->nm == 1 && m0->n[0] + m0->n[1] + m0->n[2] == 1) {
		n = zhi_put(b, 0);
		n += zhi_put(b + n, m0->code);
		n += zhi_put(b + n, (m0->n[1] ? 1u : m0->n[2] ? 2u : 0u) * 2 +
		    (m0->rated ? 1 : 0));
		if (m0->rated)
			n += zhi_put(b + n, m0->rsum);
		return n + zhi_put(b + n, m0->first);
	}
	n = zhi_put(b, x->nm);
	for (i = 0; i < x->nm; i++) {
		const struct zhi_move *m = &x->m[i];

		n += zhi_put(b + n, m->code - prev);
		prev = m->code;
		n += zhi_put(b + n, m->n[0]);
		n += zhi_put(b + n, m->n[1]);
		n += zhi_put(b + n, m->n[2]);
		n += zhi_put(b + n, m->rated);
		n += zhi_put(b + n, m->rsum);
		n += zhi_put(b + n, m->first);
		n += zhi_put(b + n, m->last - m->first);
	}
	return n;
}

size_t
zhi_grp_move_index(const struct zhi_grp *x, uint32_t code)
{
	size_t lo = 0, hi = x->nm;

	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (x->m[mid].code <= code)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

size_t
zhi_grp_games_blob(const struct zhi_grp *x, unsigned char *b)
{
	size_t i, n = 0;
	uint32_t prev = 0;

	for (i = 0; i < x->ng; i++) {
		const struct zhi_rec *r = &x->g[i];

		n += zhi_put(b + n, r->game - prev);
		prev = r->game;
		n += zhi_put(b + n, zhi_grp_move_index(x, r->move) * 2 + r->board);
	}
	return n;
}

/* ---------------- a tails row ---------------- */

/* A tails entry's fingerprint: the key's bits 64 to 71 (the top byte
   of its low half; the row's id is from its high half). */
unsigned
zhi_tail_fp(uint64_t lo)
{
	return (unsigned)(lo >> 56);
}

/* The games of a tails row whose entries have fingerprint fp, at most
   max, into g (ascending, each once): their number, -1 if the row is
   bad. */
long
zhi_tail_games(const unsigned char *b, size_t n, unsigned fp, uint32_t *g,
    size_t max)
{
	const unsigned char *p = b, *end = b + n;
	uint64_t game = 0, gap;
	long k = 0;

	while (p < end) {
		if (zhi_get(&p, end, &gap) != 0 || p == end ||
		    gap > UINT32_MAX - game)
			return -1;
		game += gap;
		if (*p++ != fp || (k > 0 && g[k - 1] == game))
			continue;
		if ((size_t)k == max)
			return -1;
		g[k++] = (uint32_t)game;
	}
	return k;
}
