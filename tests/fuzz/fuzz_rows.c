/*
 * fuzz_rows.c - the rows of a dataset as JSON Lines read as PGN text
 * (cli/flatrows.c, with parquet_read.c's tag pairs and move text) over
 * arbitrary bytes: the PGN reader then reads exactly one game a
 * non-empty line, whatever a line holds (a row that is no JSON object,
 * tag names and values with quotes and brackets, move text with line
 * breaks, results and '[' in it): no row becomes two games or is
 * swallowed by its neighbour.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flatrows.h"
#include "zh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct zh_pgn_reader *r;
	struct zh_game g;
	FILE *raw, *f;
	long lines = 0, games = 0;
	size_t i, start = 0;
	int rc;

	if (size > (1u << 16))
		return 0;
	for (i = 0; i <= size; i++)
		if (i == size || data[i] == '\n') {
			lines += i > start;
			start = i + 1;
		}
	if ((raw = tmpfile()) == NULL)
		return 0;
	fwrite(data, 1, size, raw);
	rewind(raw);
	if ((f = flatrows_ropen(raw)) == NULL) {
		fclose(raw);
		return 0;
	}
	r = zh_pgn_open(f, NULL);
	while ((rc = zh_pgn_next(r, &g)) == 1)
		games++;
	if (rc == 0 && games != lines) {
		fprintf(stderr, "%ld lines read as %ld games\n", lines, games);
		abort();
	}
	zh_pgn_close(r);
	fclose(f);
	return 0;
}
