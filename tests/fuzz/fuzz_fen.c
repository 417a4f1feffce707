/* fuzz_fen.c - libFuzzer target: the FEN reader and the four writers. */
#include <stdlib.h>
#include <string.h>

#include "zh.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *s = malloc(size + 1), out[ZH_FENMAX];
	struct zh_pos p, q;
	struct zh_error err = { 0 };
	int d, v = size > 0 ? data[0] % zh_nvariants : 0;

	if (s == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (zh_fen_read(&p, size > 0 ? s + 1 : s, &zh_variants[v], ZH_AUTO,
	    ZH_FEN_STRICT, &err) == 0) {
		for (d = ZH_LICHESS; d < ZH_NDIALECTS; d++) {
			zh_fen_write(&p, d, out, sizeof out);
			/* What we write, we read back. */
			if (zh_fen_read(&q, out, p.v, d, 0, NULL) != 0)
				abort();
		}
		(void)zh_perft(&p, 2);
	}
	free(s);
	return 0;
}
