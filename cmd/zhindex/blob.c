/*
 * blob.c - the varints and blobs of an index (zhkit-index(5)), read as
 * hostile: every number bounded by the blob's end and by what it may
 * be, a count by the room the caller gives.  No SQLite here: the fuzz
 * target (tests/fuzz/fuzz_zhiblob.c) links this file alone.
 */
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
