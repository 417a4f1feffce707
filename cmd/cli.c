/* cli.c - diagnostics and helpers shared by the zhkit tools. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

const char *cli_prog = "zhkit";
int cli_quiet;

static int
use_colour(void)
{
	static int c = -1;
	const char *nc;

	if (c < 0) {
		nc = getenv("NO_COLOR");
		c = isatty(STDERR_FILENO) && (nc == NULL || *nc == '\0');
	}
	return c;
}

static void
vdiag(FILE *f, const char *kind, const char *file, long line, long col,
    const char *fmt, va_list ap)
{
	int warn = strcmp(kind, "warning") == 0;

	flockfile(f);
	if (use_colour())
		fprintf(f, "%s: \033[1m%s:%ld:%ld:\033[0m \033[1;%dm%s:\033[0m ",
		    cli_prog, file, line, col, warn ? 35 : 31, kind);
	else
		fprintf(f, "%s: %s:%ld:%ld: %s: ", cli_prog, file, line, col, kind);
	vfprintf(f, fmt, ap);
	fputc('\n', f);
	funlockfile(f);
}

void
cli_diag(const char *kind, const char *file, long line, long col,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag(stderr, kind, file, line, col, fmt, ap);
	va_end(ap);
}

void
cli_fdiag(FILE *f, const char *kind, const char *file, long line, long col,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag(f, kind, file, line, col, fmt, ap);
	va_end(ap);
}

void
cli_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", cli_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

long
cli_number(const char *s, long lo, long hi, const char *what)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno == ERANGE || n < lo || n > hi) {
		cli_fail("%s: '%s' is not a number from %ld to %ld", what, s, lo, hi);
		return -1;
	}
	return n;
}

FILE *
cli_open(const char *path, const char **name)
{
	FILE *f;

	if (path == NULL || strcmp(path, "-") == 0) {
		*name = "<stdin>";
		return stdin;
	}
	*name = path;
	if ((f = fopen(path, "r")) == NULL)
		cli_fail("%s: %s", path, strerror(errno));
	return f;
}

void
cli_version(void)
{
	printf("%s (zhkit) %s\n", cli_prog, ZH_VERSION);
}
