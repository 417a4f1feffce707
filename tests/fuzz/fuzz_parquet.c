/*
 * fuzz_parquet.c - a Parquet file of games read as PGN text
 * (cli/parquet_read.c) over arbitrary bytes: whatever the file, the
 * stream gives text and ends, or fails with a reason (pqr_error) that
 * starts "parquet: ".  The input is the file's bytes after "PAR1" (the
 * magic is put in front, so every run reaches the footer and pages).
 */
#define _GNU_SOURCE
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parquet_read.h"

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char buf[4096];
	size_t total = 0, n;
	FILE *raw, *f;
	const char *why;

	if ((raw = tmpfile()) == NULL)
		return 0;
	fwrite("PAR1", 1, 4, raw);
	fwrite(data, 1, size, raw);
	fflush(raw);
	rewind(raw);
	if ((f = pqr_ropen(raw)) == NULL)
		return 0;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		if ((total += n) > (64u << 20))
			break;
	if (ferror(f)) {
		why = pqr_error(f);
		assert(why != NULL && strncmp(why, "parquet: ", 9) == 0);
	}
	fclose(f);
	return 0;
}
