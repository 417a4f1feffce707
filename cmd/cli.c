/* cli.c - diagnostics and helpers shared by the zhkit tools. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

const char *cli_prog = "zhkit";
int cli_quiet;

static int colour;
static pthread_once_t colour_once = PTHREAD_ONCE_INIT;

static void
colour_init(void)
{
	const char *nc = getenv("NO_COLOR");

	colour = isatty(STDERR_FILENO) && (nc == NULL || *nc == '\0');
}

/* Asked from the workers of -j too: worked out once. */
static int
use_colour(void)
{
	pthread_once(&colour_once, colour_init);
	return colour;
}

static void
vdiag(FILE *f, const char *kind, const char *file, long line, long col,
    const char *fmt, va_list ap) __attribute__((format(printf, 6, 0)));

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

/* Append s (n bytes) at *q within end; false once it does not fit. */
static bool
cat(char **q, const char *end, const char *s, size_t n)
{
	if ((size_t)(end - *q) < n)
		return false;
	memcpy(*q, s, n);
	*q += n;
	return true;
}

size_t
cli_putlong(char *b, long x)
{
	char d[24];
	size_t n = sizeof d;
	unsigned long u = x < 0 ? 0 - (unsigned long)x : (unsigned long)x;

	do
		d[--n] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (x < 0)
		d[--n] = '-';
	memcpy(b, d + n, sizeof d - n);
	return sizeof d - n;
}

static bool
catnum(char **q, const char *end, long x)
{
	char b[24];

	return cat(q, end, b, cli_putlong(b, x));
}

void
cli_fdiag_msg(FILE *f, const char *kind, const char *file, long line,
    long col, const char *msg, size_t len)
{
	char buf[1024], *q = buf, *end = buf + sizeof buf;

	if (!use_colour() && cat(&q, end, cli_prog, strlen(cli_prog)) &&
	    cat(&q, end, ": ", 2) && cat(&q, end, file, strlen(file)) &&
	    cat(&q, end, ":", 1) && catnum(&q, end, line) &&
	    cat(&q, end, ":", 1) && catnum(&q, end, col) &&
	    cat(&q, end, ": ", 2) && cat(&q, end, kind, strlen(kind)) &&
	    cat(&q, end, ": ", 2) && cat(&q, end, msg, len) &&
	    cat(&q, end, "\n", 1)) {
		fwrite(buf, 1, (size_t)(q - buf), f);
		return;
	}
	cli_fdiag(f, kind, file, line, col, "%.*s", (int)len, msg);
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

int
cli_limit(struct zh_pgn_limits *lim, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char name[16], *end;
	unsigned long long n;
	size_t len;

	if (eq == NULL || (len = (size_t)(eq - arg)) == 0 || len >= sizeof name)
		goto bad;
	memcpy(name, arg, len);
	name[len] = '\0';
	errno = 0;
	n = strtoull(eq + 1, &end, 10);
	if (end == eq + 1 || errno == ERANGE || eq[1] == '-')
		goto bad;
	switch (*end) {
	case 'k': case 'K': n <<= 10; end++; break;
	case 'm': case 'M': n <<= 20; end++; break;
	case 'g': case 'G': n <<= 30; end++; break;
	}
	if (*end != '\0' || n > (1ULL << 40))
		goto bad;
	if (strcmp(name, "game") == 0)
		lim->max_game = (size_t)n;
	else if (strcmp(name, "tag") == 0)
		lim->max_tag = (size_t)n;
	else if (strcmp(name, "comment") == 0)
		lim->max_comment = (size_t)n;
	else if (strcmp(name, "tags") == 0 && n <= LONG_MAX)
		lim->max_tags = (long)n;
	else if (strcmp(name, "plies") == 0 && n <= LONG_MAX)
		lim->max_plies = (long)n;
	else if (strcmp(name, "tokens") == 0 && n <= LONG_MAX)
		lim->max_tokens = (long)n;
	else if (strcmp(name, "depth") == 0 && n <= 100000)
		lim->max_depth = (int)n;
	else
		goto bad;
	return 1;
bad:
	cli_fail("--limit: '%s' is not NAME=N with NAME one of game, tag, "
	    "comment, tags, plies, tokens, depth", arg);
	return 0;
}

const struct zh_variant *
cli_variant(const char *name)
{
	const struct zh_variant *v = zh_variant_find(name);
	char list[256];
	size_t n = 0;
	int i;

	if (v != NULL)
		return v;
	for (i = 0; i < zh_nvariants && n + 24 < sizeof list; i++)
		n += (size_t)snprintf(list + n, sizeof list - n, "%s%s",
		    i ? ", " : "", zh_variants[i].name);
	cli_fail("unknown variant '%s' (try %s)", name, list);
	return NULL;
}

FILE *
cli_create(const char *path)
{
	FILE *f = fopen(path, "w");

	if (f == NULL)
		cli_fail("%s: cannot write: %s", path, strerror(errno));
	return f;
}
