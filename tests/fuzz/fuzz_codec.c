/*
 * fuzz_codec.c - the decompressing read (cli/codec.c) over arbitrary
 * bytes: whatever the input, the stream gives text and ends, or fails
 * with a reason that names the codec and an offset within the input.
 * The first byte picks the codec's magic number put in front of the
 * rest, so the fuzzer reaches every decoder; the bytes are read from a
 * file and from a pipe (the peeked bytes given back).
 */
#define _GNU_SOURCE
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codec.h"

static const char *const magic[] = {
	"\x28\xb5\x2f\xfd", "\x50\x2a\x4d\x18", "\x1f\x8b\x08", "BZh9",
	"\xfd" "7zXZ", "",
};

/* Read f (from codec_ropen) to its end; the bytes given. */
static size_t
drain(FILE *f, size_t limit)
{
	char buf[4096];
	size_t n, total = 0;

	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		if ((total += n) > limit)
			break;
	if (ferror(f)) {
		const char *why = codec_error(f);

		assert(why == NULL || strstr(why, " (at byte ") != NULL);
	}
	return total;
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	const char *m;
	FILE *raw, *f;
	int fd[2];

	if (size < 1)
		return 0;
	m = magic[data[0] % (sizeof magic / sizeof magic[0])];
	/* as a file */
	if ((raw = tmpfile()) == NULL)
		return 0;
	fwrite(m, 1, strlen(m), raw);
	fwrite(data + 1, 1, size - 1, raw);
	fflush(raw);
	rewind(raw);
	if ((f = codec_ropen(raw)) != NULL) {
		drain(f, 64u << 20);	/* a bomb stops being read here */
		fclose(f);
	}
	/* as a pipe, small enough not to block the writer */
	if (size - 1 + strlen(m) < 4096 && pipe(fd) == 0) {
		if (write(fd[1], m, strlen(m)) < 0 ||
		    write(fd[1], data + 1, size - 1) < 0)
			abort();
		close(fd[1]);
		if ((raw = fdopen(fd[0], "r")) == NULL)
			abort();
		if ((f = codec_ropen(raw)) != NULL) {
			drain(f, 64u << 20);
			fclose(f);
		}
	}
	return 0;
}
