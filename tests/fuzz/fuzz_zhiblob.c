/* fuzz_zhiblob.c - libFuzzer target: an index's blobs (zhkit-index(5))
 * read as hostile: a bucket's positions, the moves blob and the games
 * blob decoded, never past their end; what decodes is written again
 * and reads back the same; a tails row's games and a game's stored
 * moves played back (zhkit-index(5)), never past their end. */
#include <stdlib.h>
#include <string.h>

#include "zhi.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static struct zhi_move m[ZH_MAXMOVES + 1], m2[ZH_MAXMOVES + 1];

static int
count(void *arg, struct zh_key k, uint32_t code)
{
	(void)k;
	(void)code;
	return ++*(long *)arg > 100000;
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct zhi_gref *g = malloc((size + 1) * sizeof *g);
	unsigned char *b;
	long n, k, i;
	size_t len = 0;

	const unsigned char *p = data, *end = data + size;
	struct zhi_entry e;

	if (g == NULL)
		return 0;
	while (zhi_bucket_next(&p, end, &e) > 0) {
		if (e.moves + e.nmoves > end || e.games + e.ngames > end ||
		    e.top + e.ntop > end || p > end)
			abort();
		zhi_moves_decode(e.moves, e.nmoves, m, ZH_MAXMOVES + 1);
		zhi_games_decode(e.games, e.ngames, g, size);
	}
	n = zhi_moves_decode(data, size, m, ZH_MAXMOVES + 1);
	k = zhi_games_decode(data, size, g, size);
	if (k > (long)size)
		abort();
	if (n > 0 && (b = malloc((size_t)n * 80 + 16)) != NULL) {
		uint32_t prev = 0;

		len = zhi_put(b, (uint64_t)n);
		for (i = 0; i < n; i++) {
			/* the one-game form is read back as the long one */
			len += zhi_put(b + len, m[i].code - prev);
			prev = m[i].code;
			len += zhi_put(b + len, m[i].n[0]);
			len += zhi_put(b + len, m[i].n[1]);
			len += zhi_put(b + len, m[i].n[2]);
			len += zhi_put(b + len, m[i].rated);
			len += zhi_put(b + len, m[i].rsum);
			len += zhi_put(b + len, m[i].first);
			len += zhi_put(b + len, m[i].last - m[i].first);
		}
		if (zhi_moves_decode(b, len, m2, ZH_MAXMOVES + 1) != n ||
		    memcmp(m, m2, (size_t)n * sizeof *m) != 0)
			abort();
		free(b);
	}
	if (size > 0) {
		uint32_t *tg = malloc((size / 2 + 1) * sizeof *tg);
		long nk = 0, nt;

		if (tg != NULL) {
			nt = zhi_tail_games(data, size, data[0], tg, size / 2 + 1);
			for (i = 1; i < nt; i++)
				if (tg[i] <= tg[i - 1])
					abort();
			free(tg);
		}
		/* a game's stored moves played back: crazyhouse and chess */
		zhi_moves_walk(zh_variant_default(), data + 1, size - 1, NULL,
		    count, &nk);
		zhi_moves_walk(zh_variant_chess(), data + 1, size - 1, NULL,
		    count, &nk);
	}
	free(g);
	return 0;
}
