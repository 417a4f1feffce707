/* fuzz_bfen.c - libFuzzer target: the two-board FEN reader ("fenA |
 * fenB") and its writers, zhfen's JSON and move lists of both boards. */
#include <stdlib.h>
#include <string.h>

#include "zh.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *s = malloc(size + 1), out[2 * ZH_FENMAX + 8];
	static char moves[ZH_MAXMOVES * ZH_MOVEMAX];
	struct zh_pos p[2], q[2];
	struct zh_error err = { 0 };
	struct zh_text js = { 0 };
	int d, b;

	if (s == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (zh_bfen_read(p, s, NULL, ZH_AUTO, &err) == 0) {
		for (d = ZH_LICHESS; d < ZH_NDIALECTS; d++) {
			size_t n = zh_bfen_write(p, d, out, sizeof out);

			/* What we write, we read back, the same. */
			if (n >= sizeof out ||
			    zh_bfen_read(q, out, NULL, d, NULL) != 0)
				abort();
		}
		for (b = 0; b < 2; b++)
			zh_moves_write(&p[b], moves, sizeof moves);
		if (zh_bfen_json(&js, NULL, s, size, 1, p, ZH_AUTO, ZH_FAIRY,
		    true, NULL) != 0 || strlen(js.s) != js.len)
			abort();
	} else {
		/* the column is inside the line, or just past it */
		if (err.col < 1 || err.col > (long)strlen(s) + 1)
			abort();
		if (zh_bfen_json(&js, NULL, s, size, 1, NULL, ZH_AUTO, ZH_AUTO,
		    false, &err) != 0)
			abort();
	}
	zh_text_free(&js);
	free(s);
	return 0;
}
