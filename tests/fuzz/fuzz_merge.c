/*
 * fuzz_merge.c - libFuzzer target for zh_merge_boards: the input's first
 * two games are merged as board A and board B (then the other way
 * round), in each output dialect picked by the first byte.  Built by
 * make fuzz; make check replays its corpus (tests/fuzz.bats).
 *
 * The invariants: no crash, no leak; an error has a message and no
 * output; a merge writes something, its report counts at most as many
 * decided ties as ties, and its search stayed within its bound.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
merge(const struct zh_game *a, const struct zh_game *b, int d)
{
	struct zh_merge_report rep;
	struct zh_error err;
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);
	int rc;

	if (f == NULL)
		abort();
	rc = zh_merge_boards(a, b, f, d, &rep, &err);
	if (fclose(f) != 0)
		abort();
	if (rc != 0 && (err.text[0] == '\0' || n != 0))
		abort();	/* an error says why, and writes nothing */
	if (rc == 0 && (n == 0 || rep.mattered > rep.ties ||
	    rep.ntie > ZH_BUG_MAXTIES))
		abort();
	if (rep.states > ZH_BUG_MERGE_MAXSTATES + 1)
		abort();
	free(s);
	(void)zh_boards_pair(a, b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct zh_pgn_limits lim = { .max_plies = 400 };
	struct zh_pgn_reader *r;
	struct zh_game g, *a = NULL;
	char *buf;
	int d;

	if (size < 1)
		return 0;
	d = data[0] % ZH_NDIALECTS;
	if ((buf = calloc(1, size + ZH_PGN_PAD)) == NULL)
		return 0;
	memcpy(buf, data + 1, size - 1);
	if ((r = zh_pgn_mem(NULL, buf, size - 1, &lim, 0, 0)) != NULL) {
		while (zh_pgn_next(r, &g) == 1) {
			if (a == NULL) {
				a = zh_game_dup(&g);
				continue;
			}
			merge(a, &g, d);
			merge(&g, a, d);
			break;
		}
		zh_pgn_close(r);
	}
	free(a);
	free(buf);
	return 0;
}
