/* cli.c - diagnostics and helpers shared by the zhkit tools. */
#define _GNU_SOURCE		/* fopencookie(): glibc, musl, the BSDs' funopen */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "codec.h"
#include "flatrows.h"
#include "parquet_read.h"
#include "tmpout.h"

int cli_quiet;
_Thread_local FILE *cli_fail_to;

static int colour;
static pthread_once_t colour_once = PTHREAD_ONCE_INIT;
static bool progress_on;	/* a --progress line is showing (stderr's lock) */

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

/* Length of the valid UTF-8 sequence at s (n bytes left, s[0] >= 0x80),
   0 if there is none (RFC 3629: no overlong form, surrogate or value
   above U+10FFFF). */
static size_t
utf8_seq(const unsigned char *s, size_t n)
{
	unsigned char lo = 0x80, hi = 0xBF;
	size_t len, i;

	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		len = 2;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		len = 3;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		len = 4;
	else
		return 0;
	if (len > n)
		return 0;
	if (s[0] == 0xE0)
		lo = 0xA0;
	else if (s[0] == 0xED)
		hi = 0x9F;
	else if (s[0] == 0xF0)
		lo = 0x90;
	else if (s[0] == 0xF4)
		hi = 0x8F;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	return len;
}

/*
 * Write n bytes of s to f as a terminal may show them: text from the
 * input reads as the JSON reads it (zhkit-json(5)): valid UTF-8 as it is,
 * any other byte as Latin-1, written as its UTF-8 (an old archive's
 * "M\xFCller" shows as Muller with its umlaut, never a raw byte); a
 * control byte (C0 but the tab, DEL, C1) is escaped as \xNN.
 */
static void
put_text(FILE *f, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i, k;

	for (i = 0; i < n; i += k) {
		k = 1;
		if ((u[i] >= 0x20 && u[i] < 0x7F) || u[i] == '\t')
			putc(u[i], f);
		else if (u[i] < 0x80 || (u[i] < 0xA0 && utf8_seq(u + i, n - i) == 0))
			fprintf(f, "\\x%02X", u[i]);
		else if ((k = utf8_seq(u + i, n - i)) == 2 && u[i] == 0xC2 &&
		    u[i + 1] < 0xA0)
			fprintf(f, "\\x%02X\\x%02X", u[i], u[i + 1]);	/* C1 */
		else if (k > 0)
			fwrite(u + i, 1, k, f);
		else {
			k = 1;
			putc(0xC0 | u[i] >> 6, f);
			putc(0x80 | (u[i] & 0x3F), f);
		}
	}
}

/* Whether n bytes of s are printable ASCII: nothing for put_text to do. */
static bool
plain(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] < 0x20 && s[i] != '\t') ||
		    (unsigned char)s[i] >= 0x7F)
			return false;
	return true;
}

static void
vdiag(FILE *f, const char *kind, const char *file, long line, long col,
    const char *fmt, va_list ap)
{
	int warn = strcmp(kind, "warning") == 0;
	char buf[1024], *m = buf;
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	if (n >= (int)sizeof buf && (m = malloc((size_t)n + 1)) != NULL)
		vsnprintf(m, (size_t)n + 1, fmt, aq);
	else if (m == NULL)
		m = buf, n = sizeof buf - 1;	/* out of memory: cut */
	va_end(aq);
	flockfile(f);
	cli_progress_clear(f);
	fprintf(f, "%s: ", cli_prog);
	if (use_colour())
		fputs("\033[1m", f);
	put_text(f, file, strlen(file));
	if (use_colour())
		fprintf(f, ":%ld:%ld:\033[0m \033[1;%dm%s:\033[0m ", line, col,
		    warn ? 35 : 31, kind);
	else
		fprintf(f, ":%ld:%ld: %s: ", line, col, kind);
	put_text(f, m, n < 0 ? 0 : (size_t)n);
	fputc('\n', f);
	funlockfile(f);
	if (m != buf)
		free(m);
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

	if (!use_colour() && plain(file, strlen(file)) && plain(msg, len) &&
	    cat(&q, end, cli_prog, strlen(cli_prog)) &&
	    cat(&q, end, ": ", 2) && cat(&q, end, file, strlen(file)) &&
	    cat(&q, end, ":", 1) && catnum(&q, end, line) &&
	    cat(&q, end, ":", 1) && catnum(&q, end, col) &&
	    cat(&q, end, ": ", 2) && cat(&q, end, kind, strlen(kind)) &&
	    cat(&q, end, ": ", 2) && cat(&q, end, msg, len) &&
	    cat(&q, end, "\n", 1)) {
		flockfile(f);
		cli_progress_clear(f);
		fwrite(buf, 1, (size_t)(q - buf), f);
		funlockfile(f);
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
	FILE *f = cli_fail_to != NULL ? cli_fail_to : stderr;
	char buf[1024], *m = buf;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof buf && (m = malloc((size_t)n + 1)) != NULL) {
		va_start(ap, fmt);
		vsnprintf(m, (size_t)n + 1, fmt, ap);
		va_end(ap);
	} else if (m == NULL)
		m = buf, n = sizeof buf - 1;
	flockfile(f);
	cli_progress_clear(f);
	fprintf(f, "%s: ", cli_prog);
	put_text(f, m, n < 0 ? 0 : (size_t)n);
	fputc('\n', f);
	funlockfile(f);
	if (m != buf)
		free(m);
}

const struct zh_variant *
cli_game_variant(const struct zh_game *g, const struct zh_variant *force,
    const struct zh_variant *dflt)
{
	const struct zh_variant *v;
	struct zh_error err = { 0 };
	const char *tag;

	if (force != NULL || dflt == NULL)
		return force;
	/* Event and FEN never say chess: chess is the fallback */
	tag = zh_game_tag(g, "Variant");
	if ((tag == NULL || *tag == '\0') &&
	    zh_game_variant(g, NULL, &v, &err) == 0 && v == zh_variant_chess())
		return dflt;
	return NULL;
}

int
cli_usage(void)
{
	fprintf(stderr, "Try '%s --help' for more information.\n", cli_prog);
	return EXIT_USAGE;
}

void
cli_deprecated(const char *old, const char *use)
{
	cli_fail("warning: %s is deprecated; use %s", old, use);
}

void
cli_progress_shown(bool shown)
{
	progress_on = shown;
}

/* Called with f locked (flockfile is recursive). */
void
cli_progress_clear(FILE *f)
{
	if (f != stderr)
		return;
	flockfile(f);
	if (progress_on) {
		fputs("\r\033[K", f);
		progress_on = false;
	}
	funlockfile(f);
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

/* Is f a file (not a pipe) that starts with Parquet's magic? */
static bool
parquet_input(FILE *f)
{
	unsigned char head[4];
	struct stat st;

	return fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) &&
	    pread(fileno(f), head, 4, 0) == 4 && pqr_magic(head, 4);
}

static FILE *open_input(const char *path, const char **name);

/* Inputs opened, and inputs that could not be (cli_open): a run that
   opened none of its inputs and wrote nothing leaves no new empty file
   (out_finish). */
static _Atomic long opened, unopened;

/* A directory opens, but every read fails: said here, once. */
FILE *
cli_open(const char *path, const char **name)
{
	FILE *f = open_input(path, name);

	if (f != NULL)
		opened++;
	else
		unopened++;
	return f;
}

static FILE *
open_input(const char *path, const char **name)
{
	struct stat st;
	FILE *f;

	if (path == NULL || strcmp(path, "-") == 0) {
		*name = "<stdin>";
		f = stdin;
	} else {
		*name = path;
		if ((f = fopen(path, "r")) == NULL) {
			cli_fail("%s: %s", path, strerror(errno));
			return NULL;
		}
	}
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		cli_fail("%s: read error: %s", *name, strerror(EISDIR));
		if (f != stdin)
			fclose(f);
		return NULL;
	}
	/* A Parquet file is read as PGN text (parquet_read.c); a
	   compressed input through its codec (codec.c). */
	if (parquet_input(f))
		f = pqr_ropen(f);
	else if (flatrows_input(f))	/* the same rows as JSON Lines */
		f = flatrows_ropen(f);
	else
		f = cli_stream(f, codec_ropen(f));
	if (f == NULL)
		cli_fail("%s: out of memory", *name);
	return f;
}

FILE *
cli_stream(FILE *f, FILE *c)
{
	struct stat st;
	FILE *s;

	/* a plain file was looked at by parquet_input, flatrows_input */
	if (c == NULL || (c == f && fstat(fileno(f), &st) == 0 &&
	    S_ISREG(st.st_mode)))
		return c;
	if ((s = flatrows_sniff(c)) == NULL && c != stdin)
		fclose(c);
	return s;
}

void
cli_read_error(FILE *in, const char *name)
{
	const char *why = codec_error(flatrows_under(in));

	if (why == NULL)
		why = pqr_error(in);

	if (why != NULL)
		cli_fail("%s: error: %s", name, why);
	else
		cli_fail("%s: read error", name);
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


/* ======================== outputs ======================== */

#define MAXOUT 4

struct output {
	const char *path;		/* NULL: standard output */
	const char *name;		/* in messages */
	FILE **fp;			/* where the tool keeps its stream */
	FILE *f;
	int fd;
	int err;			/* errno of the first failed write */
	bool created, tty;
	dev_t dev;
	ino_t ino;
	bool reg;			/* a regular file: dev and ino set */
	const char *codec;		/* compressed so (by its name), or NULL */
	int level;
	char *final;			/* a regular file: the path its
					   temporary file is renamed to */
	char *tmp;			/* that temporary file, or NULL */
	int lpos;			/* late and open: its place in lopen[] */
	bool wrote;			/* a byte was written to it */
};

struct input {
	const char *name;
	dev_t dev;
	ino_t ino;
};

static struct output outs[MAXOUT];
static int nouts;
static struct input *ins;
static int nins;
static bool out_failed;		/* said once; the run stops */

void
cli_output(const char *path, FILE **fp)
{
	struct output *o = &outs[nouts++];

	if (path != NULL && strcmp(path, "-") == 0)
		path = NULL;	/* "-" is standard output */
	o->path = path;
	o->name = path != NULL ? path : "<stdout>";
	o->fp = fp;
	o->fd = -1;
}

/* Keep the identity of a regular file (or stdin) read, to compare. */
static void
add_input(const char *path)
{
	struct input *ni;
	struct stat st;
	int rc;

	if (path == NULL || strcmp(path, "-") == 0)
		rc = fstat(STDIN_FILENO, &st);
	else
		rc = stat(path, &st);
	if (rc != 0 || !S_ISREG(st.st_mode))
		return;
	if ((ni = realloc(ins, (size_t)(nins + 1) * sizeof *ins)) == NULL)
		return;
	ins = ni;
	ins[nins].name = path == NULL || strcmp(path, "-") == 0 ? "<stdin>" :
	    path;
	ins[nins].dev = st.st_dev;
	ins[nins].ino = st.st_ino;
	nins++;
}

void
cli_inputs(int n, char *const *paths)
{
	int i;

	if (n == 0)
		add_input(NULL);
	for (i = 0; i < n; i++)
		add_input(paths[i]);
}

static ssize_t
out_write(void *cookie, const char *buf, size_t n)
{
	struct output *o = cookie;
	size_t done = 0;
	ssize_t k;

	while (done < n) {
		if ((k = write(o->fd, buf + done, n - done)) > 0) {
			done += (size_t)k;
			o->wrote = true;
		}
		else if (k < 0 && errno == EINTR)
			continue;
		else {
			if (o->err == 0)
				o->err = k < 0 ? errno : EIO;
			break;
		}
	}
	return (ssize_t)done;
}

static int
out_close(void *cookie)
{
	struct output *o = cookie;

	if (o->fd == STDOUT_FILENO || close(o->fd) == 0)
		return 0;
	if (o->err == 0)
		o->err = errno;
	return -1;
}

/* What the symbolic link 'path' names, as a path from here; NULL if it
   is none. */
static char *
link_target(const char *path)
{
	const char *slash = strrchr(path, '/');
	char buf[PATH_MAX], *t;
	ssize_t n;

	if ((n = readlink(path, buf, sizeof buf - 1)) < 0)
		return NULL;
	buf[n] = '\0';
	if (buf[0] == '/' || slash == NULL)
		return strdup(buf);
	if ((t = malloc((size_t)(slash - path) + (size_t)n + 2)) != NULL)
		sprintf(t, "%.*s/%s", (int)(slash - path), path, buf);
	return t;
}

/*
 * The path a temporary file for 'path' is renamed to: the file a
 * symbolic link names (the link stays), its directory made absolute.
 * NULL with errno (no such directory).
 */
static char *
final_path(const char *path, int depth)
{
	const char *slash, *base;
	char *dir, *real, *f;

	if ((real = realpath(path, NULL)) != NULL || errno != ENOENT)
		return real;
	/* a link to a file not yet made (a chain: as realpath() allows) */
	if (depth < 40 && (f = link_target(path)) != NULL) {
		real = final_path(f, depth + 1);
		free(f);
		return real;
	}
	slash = strrchr(path, '/');
	base = slash != NULL ? slash + 1 : path;
	if ((dir = slash == NULL ? strdup(".") : slash == path ? strdup("/") :
	    strndup(path, (size_t)(slash - path))) == NULL)
		return NULL;
	real = realpath(dir, NULL);
	free(dir);
	if (real == NULL)
		return NULL;
	if ((f = malloc(strlen(real) + strlen(base) + 2)) != NULL)
		sprintf(f, "%s%s%s", real, strcmp(real, "/") ? "/" : "", base);
	free(real);
	return f;
}

/*
 * A regular file (or a new one) is written under a temporary name
 * beside it (tmpout.h), renamed at the end; dev and ino are the file's
 * that will be replaced, if there is one.  0, or -1 with errno.
 */
static int
out_tmp(struct output *o, const struct stat *st)
{
	if ((o->final = final_path(o->path, 0)) == NULL ||
	    (o->fd = tmpout_create(o->final, st != NULL ?
	    (int)(st->st_mode & 07777) : -1, o->name, &o->tmp)) < 0)
		return -1;
	return 0;
}

/* Open o without truncating anything; 0, or -1 after a message.  A
   device, a pipe or a socket is written in place. */
static int
out_open(struct output *o)
{
	struct stat st;
	bool exists = false;

	if (o->path == NULL)
		o->fd = STDOUT_FILENO;
	else if (!(exists = stat(o->path, &st) == 0) && errno != ENOENT)
		goto fail;	/* never a temporary file for what is unknown */
	else if (exists && !S_ISREG(st.st_mode)) {
		if ((o->fd = open(o->path, O_WRONLY | O_CLOEXEC)) < 0)
			goto fail;
	} else if (out_tmp(o, exists ? &st : NULL) != 0)
		goto fail;
	if (!exists && fstat(o->fd, &st) != 0)
		goto fail;
	if (o->path == NULL && fstat(o->fd, &st) != 0)
		goto fail;
	o->reg = S_ISREG(st.st_mode);
	o->dev = st.st_dev;
	o->ino = st.st_ino;
	o->tty = isatty(o->fd);
	return 0;
fail:
	cli_fail("%s: cannot write: %s", o->name, strerror(errno));
	return -1;
}

/* Are o and p one file (the same one, or the same new name)? */
static bool
out_is(const struct output *o, const struct output *p)
{
	return (p->reg && o->reg && p->dev == o->dev && p->ino == o->ino) ||
	    (p->final != NULL && o->final != NULL &&
	    strcmp(p->final, o->final) == 0);
}

/* Its names freed (the temporary file is gone or renamed). */
static void
out_forget(struct output *o)
{
	free(o->final);
	free(o->tmp);
	o->final = o->tmp = NULL;
}

/*
 * A closed output's temporary file: renamed over its name if every
 * output was written, else removed, said.
 */
static void
out_finish(struct output *o)
{
	if (o->tmp == NULL)
		return;
	if (out_failed)
		tmpout_drop(o->tmp, "the run failed");
	else if (opened == 0 && unopened > 0 && !o->wrote)
		tmpout_drop(o->tmp, "no input could be read");
	else if (tmpout_commit(o->tmp, o->final) != 0) {
		cli_fail("%s: cannot write: %s", o->name, strerror(errno));
		out_failed = true;
	}
	out_forget(o);
}

/* Refuse an output that is one of the inputs (said). */
static int
is_input(const struct output *o)
{
	int i;

	for (i = 0; i < nins; i++)
		if (ins[i].dev == o->dev && ins[i].ino == o->ino) {
			cli_fail("%s: cannot write: it is the input %s",
			    o->name, ins[i].name);
			return -1;
		}
	return 0;
}

/* The input that path names (an existing file), or NULL: for outputs
 * made by name on a worker (pictures), after cli_inputs(). */
const char *
cli_input_named(const char *path)
{
	struct stat st;
	int i;

	if (stat(path, &st) != 0)
		return NULL;
	for (i = 0; i < nins; i++)
		if (ins[i].dev == st.st_dev && ins[i].ino == st.st_ino)
			return ins[i].name;
	return NULL;
}

/* Refuse an output that is an input or another output. */
static int
out_same(const struct output *o)
{
	const struct output *p;

	if (!o->reg)
		return 0;
	if (is_input(o) != 0)
		return -1;
	for (p = outs; p < o; p++)
		if (out_is(o, p)) {
			cli_fail("%s: cannot write: it is the output %s",
			    o->name, p->name);
			return -1;
		}
	return 0;
}

/* Truncate o (a regular file it owns) and make its stream. */
static int
out_stream(struct output *o)
{
	static const cookie_io_functions_t io = {
		.write = out_write, .close = out_close
	};
	if (o->path != NULL && o->tmp == NULL && o->reg && !o->created &&
	    ftruncate(o->fd, 0) != 0) {
		cli_fail("%s: cannot write: %s", o->name, strerror(errno));
		return -1;
	}
	/* name.zst, .gz, .bz2, .xz: compressed on the way to out_write() */
	if ((o->f = o->codec != NULL ? codec_wopen(o->codec, o->level,
	    out_write, out_close, o) : fopencookie(o, "w", io)) == NULL) {
		cli_fail("%s: cannot write: %s", o->name, strerror(errno));
		return -1;
	}
	if (o->tty)		/* a line at a time, as stdio does */
		setvbuf(o->f, NULL, _IOLBF, BUFSIZ);
	*o->fp = o->f;
	return 0;
}

/* A name ending .zst, .gz, .bz2 or .xz: its codec and level (codec.c). */
static int
out_codec(struct output *o)
{
	const char *why = NULL;

	if (o->path == NULL || (o->codec = codec_suffix(o->path)) == NULL)
		return 0;
	if ((o->level = codec_level(o->codec, &why)) >= 0)
		return 0;
	cli_fail("%s", why);
	return -1;
}

int
cli_outputs_open(void)
{
	int i, rc = 0;

	tmpout_watch();		/* stderr's closed pipe: exit 2 (tmpout.h) */
	for (i = 0; i < nouts && rc == 0; i++)
		if (out_codec(&outs[i]) != 0)
			rc = -1;
	for (i = 0; i < nouts && rc == 0; i++)
		if (out_open(&outs[i]) != 0 || out_same(&outs[i]) != 0)
			rc = -1;
	for (i = 0; i < nouts && rc == 0; i++)
		if (out_stream(&outs[i]) != 0)
			rc = -1;
	if (rc == 0)
		return 0;	/* the inputs kept for late outputs */
	free(ins);
	ins = NULL;
	nins = 0;
	for (i = 0; i < nouts; i++) {
		if (outs[i].f != NULL)
			fclose(outs[i].f);
		else if (outs[i].fd > STDOUT_FILENO)
			close(outs[i].fd);
		if (outs[i].tmp != NULL)
			tmpout_drop(outs[i].tmp, NULL);
		out_forget(&outs[i]);
		*outs[i].fp = NULL;
	}
	tmpout_end();
	nouts = 0;
	return -1;
}

static void
out_fail(const struct output *o)
{
	if (!out_failed)
		cli_fail("%s: write error: %s", o->name,
		    strerror(o->err ? o->err : EIO));
	out_failed = true;
}

/* ======================== late outputs ======================== */

/*
 * Outputs opened while the run goes on (zhpgn's split files): each one
 * is an output as -o's is, on the heap with its name (its stream's
 * cookie must stay put), kept to the end so that a file closed and opened again, and
 * every later one, are still compared with it.
 */
static struct output **late;
static int nlate, caplate;

/*
 * The late outputs' identities (regular files), for late_same: open
 * addressing on the final name (or dev, ino), doubled when half full, so that a run of
 * --split-by with 100,000 files compares each new one in constant time.
 * And the late outputs open now (split files: clean.c keeps a bounded
 * number open), the only ones late_failed looks at.
 */
static struct output **ids;
static size_t capids, nids;
static struct output **lopen;
static int nlopen, caplopen;

static int late_park(struct output *o);

/* A late output's identity: the name its temporary file is renamed to,
 * or else its (dev, ino). */
static size_t
id_hash(const struct output *o)
{
	uint64_t x;
	const unsigned char *c;

	if (o->final != NULL) {
		x = 0xcbf29ce484222325u;	/* FNV-1a */
		for (c = (const unsigned char *)o->final; *c != '\0'; c++)
			x = (x ^ *c) * 0x100000001b3u;
	} else
		x = (uint64_t)o->dev * 0x9e3779b97f4a7c15u ^ (uint64_t)o->ino;
	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9u;
	return (size_t)(x ^ x >> 29);
}

static bool
id_same(const struct output *o, const struct output *p)
{
	if (o->final != NULL || p->final != NULL)
		return o->final != NULL && p->final != NULL &&
		    strcmp(o->final, p->final) == 0;
	return o->dev == p->dev && o->ino == p->ino;
}

/* The slot of o's identity in ids[] (NULL there: not seen). */
static struct output **
id_slot(const struct output *o)
{
	size_t i = id_hash(o) & (capids - 1);

	while (ids[i] != NULL && !id_same(ids[i], o))
		i = (i + 1) & (capids - 1);
	return &ids[i];
}

/* Room for one more identity; -1 out of memory. */
static int
ids_grow(void)
{
	struct output **old = ids;
	size_t oldcap = capids, k;

	if (capids > 0 && 2 * (nids + 1) <= capids)
		return 0;
	capids = capids ? 2 * capids : 64;
	if ((ids = calloc(capids, sizeof *ids)) == NULL) {
		ids = old;
		capids = oldcap;
		return -1;
	}
	for (k = 0; k < oldcap; k++)
		if (old[k] != NULL)
			*id_slot(old[k]) = old[k];
	free(old);
	return 0;
}

/* Is o (late, open now) one of the inputs or another output? */
static int
late_same(const struct output *o)
{
	struct output **sl;
	const char *other;
	int i;

	if (!o->reg)
		return 0;
	if (is_input(o) != 0)
		return -1;
	for (i = 0; i < nouts; i++)
		if (out_is(o, &outs[i])) {
			other = outs[i].name;
			goto same;
		}
	if (capids > 0 && *(sl = id_slot(o)) != NULL) {
		other = (*sl)->name;
		goto same;
	}
	return 0;
same:
	cli_fail("%s: cannot write: it is the output %s", o->name, other);
	return -1;
}

/* Keep the identity of late output o (written now) for the later ones;
 * -1 out of memory (said). */
static int
ids_add(struct output *o)
{
	if (!o->reg)
		return 0;
	if (ids_grow() != 0) {
		cli_fail("out of memory");
		return -1;
	}
	*id_slot(o) = o;
	nids++;
	return 0;
}

/* Late output o's stream is open: one of lopen[]; -1 out of memory. */
static int
lopen_add(struct output *o)
{
	struct output **nl;

	if (nlopen == caplopen) {
		caplopen = caplopen ? 2 * caplopen : 16;
		if ((nl = realloc(lopen, (size_t)caplopen * sizeof *nl)) ==
		    NULL) {
			cli_fail("out of memory");
			return -1;
		}
		lopen = nl;
	}
	o->lpos = nlopen;
	lopen[nlopen++] = o;
	return 0;
}

static void
lopen_remove(struct output *o)
{
	if (o->lpos < 0)
		return;
	lopen[o->lpos] = lopen[--nlopen];
	lopen[o->lpos]->lpos = o->lpos;
	o->lpos = -1;
}

FILE *
cli_output_late(const char *path, int *id)
{
	struct output *o, **nl;

	if (nlate == caplate) {
		caplate = caplate ? 2 * caplate : 16;
		if ((nl = realloc(late, (size_t)caplate * sizeof *nl)) == NULL) {
			cli_fail("out of memory");
			return NULL;
		}
		late = nl;
	}
	if ((o = calloc(1, sizeof *o)) == NULL ||
	    (o->path = o->name = strdup(path)) == NULL) {
		free(o);
		cli_fail("out of memory");
		return NULL;
	}
	late[nlate] = o;
	o->fp = &o->f;
	o->lpos = -1;
	if (out_codec(o) != 0 || out_open(o) != 0) {
		free((void *)o->path);
		free(o);
		return NULL;
	}
	*id = nlate++;
	if (late_same(o) != 0 || out_stream(o) != 0) {
		close(o->fd);
		if (o->tmp != NULL)
			tmpout_drop(o->tmp, NULL);
		out_forget(o);
		o->reg = false;		/* compares with none */
		return NULL;
	}
	if (ids_add(o) != 0 || lopen_add(o) != 0) {
		late_park(o);
		return NULL;
	}
	return o->f;
}

/* Flush and close late output o's stream; 0, or -1 after a message. */
static int
late_park(struct output *o)
{
	int rc = 0;

	if (o->f == NULL)
		return 0;
	lopen_remove(o);
	if (fflush(o->f) != 0 || ferror(o->f) || o->err != 0)
		rc = -1;
	if (fclose(o->f) != 0)
		rc = -1;
	o->f = NULL;
	if (rc != 0)
		out_fail(o);
	return rc;
}

int
cli_output_park(int id)
{
	return late_park(late[id]);
}

int
cli_output_done(int id)
{
	struct output *o = late[id];
	int rc;

	if (late_park(o) != 0)
		return -1;
	if (o->tmp == NULL || out_failed)
		return out_failed ? -1 : 0;
	rc = tmpout_commit_kept(o->tmp, o->final, o->name);
	if (rc != 0) {
		cli_fail("%s: cannot write: %s", o->name, strerror(errno));
		out_failed = true;
	}
	/* the final name stays: the later outputs are compared with it */
	free(o->tmp);
	o->tmp = NULL;
	return rc;
}

FILE *
cli_output_resume(int id)
{
	static const cookie_io_functions_t io = {
		.write = out_write, .close = out_close
	};
	struct output *o = late[id];
	struct stat st;

	if ((o->fd = open(o->tmp != NULL ? o->tmp : o->path, O_WRONLY |
	    O_APPEND | O_CLOEXEC)) < 0 || fstat(o->fd, &st) != 0 ||
	    (o->reg && o->tmp == NULL && (st.st_dev != o->dev ||
	    st.st_ino != o->ino))) {
		cli_fail("%s: cannot write: %s", o->name, o->fd < 0 ?
		    strerror(errno) : "it changed while it was written");
		if (o->fd >= 0)
			close(o->fd);
		return NULL;
	}
	/* a compressed file gets a new frame, member or stream: its
	   readers read them one after another */
	if ((o->f = o->codec != NULL ? codec_wopen(o->codec, o->level,
	    out_write, out_close, o) : fopencookie(o, "a", io)) == NULL) {
		cli_fail("%s: cannot write: %s", o->name, strerror(errno));
		close(o->fd);
		return NULL;
	}
	if (lopen_add(o) != 0) {
		late_park(o);
		return NULL;
	}
	return o->f;
}

/* A late output's write failed: said, once.  Only the open ones can. */
static bool
late_failed(void)
{
	int i;

	for (i = 0; i < nlopen; i++)
		if (lopen[i]->err != 0 || ferror(lopen[i]->f)) {
			out_fail(lopen[i]);
			return true;
		}
	return false;
}

/* Close the late outputs still open. */
static void
late_close(void)
{
	int i;

	for (i = 0; i < nlate; i++)
		late_park(late[i]);
}

/* Forget them all. */
static void
late_free(void)
{
	int i;

	for (i = 0; i < nlate; i++) {
		out_forget(late[i]);
		free((void *)late[i]->path);
		free(late[i]);
	}
	free(late);
	late = NULL;
	nlate = caplate = 0;
	free(ids);
	ids = NULL;
	capids = nids = 0;
	free(lopen);
	lopen = NULL;
	nlopen = caplopen = 0;
}

/* Cheap: a flag per output, and stdio's error flags. */
bool
cli_outputs_failed(void)
{
	int i;

	if (out_failed)
		return true;
	for (i = 0; i < nouts; i++)
		if (outs[i].f != NULL && (outs[i].err != 0 || ferror(outs[i].f))) {
			out_fail(&outs[i]);
			return true;
		}
	if (nlate > 0 && late_failed())
		return true;
	if (ferror(stderr))
		out_failed = true;	/* nowhere left to say it */
	return out_failed;
}

int
cli_outputs_close(void)
{
	int i;

	for (i = 0; i < nouts; i++) {
		struct output *o = &outs[i];

		if (o->f == NULL)
			continue;
		if (fflush(o->f) != 0 || ferror(o->f) || o->err != 0)
			out_fail(o);
		if (fclose(o->f) != 0)
			out_fail(o);
		o->f = NULL;
		*o->fp = NULL;
	}
	late_close();
	for (i = 0; i < nouts; i++)
		out_finish(&outs[i]);
	for (i = 0; i < nlate; i++)
		out_finish(late[i]);
	if (out_failed)
		tmpout_say_kept();	/* the --split shards finished before */
	late_free();
	tmpout_end();
	free(ins);
	ins = NULL;
	nins = 0;
	return out_failed ? -1 : 0;
}

const char *
cli_output_name(int i)
{
	if (i < nouts)
		return outs[i].path != NULL ? outs[i].path : "-";
	return i - nouts < nlate ? late[i - nouts]->path : NULL;
}

static int nargs;
static char *const *args;

void
cli_args(int argc, char *const *argv)
{
	nargs = argc;
	args = argv;
}

const char *
cli_arg(int i)
{
	return i >= 0 && i + 1 < nargs ? args[i + 1] : NULL;
}

bool
cli_output_isatty(FILE *f)
{
	int i;

	for (i = 0; i < nouts; i++)
		if (outs[i].f == f)
			return outs[i].tty;
	return false;
}

static bool run_failed;		/* cli_run_failed() */

void
cli_run_failed(void)
{
	run_failed = true;
}

int
cli_exit(int rc)
{
	struct output o = { .name = "<stdout>" };

	if (cli_outputs_close() != 0 || run_failed)
		rc = EXIT_USAGE;
	/* --help and --version write to stdout itself */
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno == 0) {	/* an earlier write failed, its errno
					   gone: one byte more tells it */
			clearerr(stdout);
			fputc('\n', stdout);
			fflush(stdout);
		}
		o.err = errno;
		out_fail(&o);
		rc = EXIT_USAGE;
	}
	if (fflush(stderr) != 0 || ferror(stderr))
		rc = EXIT_USAGE;
	return rc;
}

int
cli_dialect(const char *name, const char *opt, bool auto_ok)
{
	int d = zh_dialect_find(name);

	if (d > ZH_AUTO || (d == ZH_AUTO && auto_ok))
		return d;
	cli_fail("%s: unknown dialect '%s' (try %slichess, xboard, chesscom, "
	    "fairy)", opt, name, auto_ok ? "auto, " : "");
	return -1;
}

int
cli_from(const char *name)
{
	return cli_dialect(name, "--from", true) < 0 ? -1 : 0;
}
