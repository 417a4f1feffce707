/*
 * inflate.c - decompression alone, through the tools' own read path:
 * cli/codec.c's stream read with fread() in the PGN reader's 128 KB
 * asks, the text thrown away.  bench/run.sh times it beside `zstd -dc`.
 * Prints the text's size.
 */
#include <stdio.h>
#include <stdlib.h>

#include "codec.h"

int
main(int argc, char **argv)
{
	static char buf[128 * 1024];
	unsigned long long total = 0;
	FILE *f;
	size_t n;

	if (argc != 2 || (f = fopen(argv[1], "r")) == NULL ||
	    (f = codec_ropen(f)) == NULL) {
		fprintf(stderr, "usage: inflate FILE (readable)\n");
		return 2;
	}
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		total += n;
	if (ferror(f)) {
		fprintf(stderr, "inflate: %s\n", codec_error(f) ? codec_error(f) :
		    "read error");
		return 2;
	}
	printf("%llu\n", total);
	fclose(f);
	return 0;
}
