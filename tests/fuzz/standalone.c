/* standalone.c - run a libFuzzer target over files without libFuzzer:
 * the regression corpus in tests/fuzz/corpus is replayed by make check
 * (built with gcc, and with the sanitizers under make asan). */
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* Set here, not under libFuzzer: a target that does one part of its
 * work a run (fuzz_game) does all of it on the regression corpus. */
int zh_fuzz_standalone = 1;

int
main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		unsigned char *buf;
		long n;

		if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0) {
			perror(argv[i]);
			return 2;
		}
		rewind(f);
		if ((buf = malloc((size_t)n + 1)) == NULL ||
		    fread(buf, 1, (size_t)n, f) != (size_t)n) {
			perror(argv[i]);
			return 2;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(buf, (size_t)n);
		free(buf);
	}
	printf("%d inputs\n", argc - 1);
	return 0;
}
