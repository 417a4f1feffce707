/*
 * fuzz_pgn.c - libFuzzer target for the PGN reader.  Not part of make check:
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -D_POSIX_C_SOURCE=200809L \
 *       -Ilib tests/fuzz/fuzz_pgn.c lib/pgn.c lib/pgnlex.c -o build/fuzz_pgn
 *   ./build/fuzz_pgn -max_len=4096 testdata/pgn
 * Small limits make every limit reachable; the checks are invariants.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "zh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct zh_pgn_limits lim = { .max_game = 3000, .max_tag = 40,
	    .max_comment = 100, .max_tags = 8, .max_plies = 30,
	    .max_tokens = 60, .max_depth = 4 };
	struct zh_pgn_reader *r;
	struct zh_game g;
	FILE *f;
	long games = 0;

	if (size == 0 || (f = fmemopen((void *)(uintptr_t)data, size, "r")) == NULL)
		return 0;
	r = zh_pgn_open(f, size & 1 ? &lim : NULL);
	while (zh_pgn_next(r, &g) == 1) {
		if (g.number != ++games || g.rawlen > size || g.ntags > 1000)
			abort();
		for (size_t k = 0; k < g.ntoks; k++) {
			const struct zh_token *t = &g.toks[k];
			if (t->line < g.line || t->col < 1 || (t->kind != ZH_T_NAG && !g.texts_apart &&
			    (t->text < g.raw || t->text + t->len > g.raw + g.rawlen)))
				abort();
		}
		for (size_t k = 0; k < g.ntags; k++)
			if (strlen(g.tags[k].name) == 0 || zh_game_tag(&g, g.tags[k].name) == NULL)
				abort();
	}
	zh_pgn_close(r);
	fclose(f);
	return 0;
}
