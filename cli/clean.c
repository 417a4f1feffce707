/*
 * clean.c - zhpgn's --strip, --keep-tags, --split and --split-by.
 *
 * Stripping is libzh's (zh_pgn_write_opts); here are its options.
 * Splitting routes each written game, in input order (done()), to a
 * file named by -o's pattern: the N-th file of --split, or the file of
 * a route for --split-by (a tag value made safe for a file name, or a
 * variant's name).  Files are opened when their first game comes,
 * through cli/cli.c's late outputs (checked as -o is); at most MAXOPEN
 * stay open, the least recently used closed and opened again to append
 * when it has more.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "clean.h"

#define MAXOPEN		32	/* split files open at once */
#define ROUTEMAX	100	/* bytes of a route before its hash */

struct clean_file {
	char *route;
	char *path;
	FILE *f;		/* NULL while closed */
	int id;			/* cli.c's late output */
	unsigned long used;	/* c->clock at its last game */
};

/* ======================== options ======================== */

/* "OPT 'ARG': COL: MESSAGE", as the selection options say theirs. */
static int
bad_arg(const char *opt, const char *arg, long col, const char *msg)
{
	cli_fail("%s '%s': %ld: %s", opt, arg, col, msg);
	return -1;
}

/* A comma list of tag names (letters, digits, '_') added to c->keep. */
static int
keep_tags(struct clean *c, const char *arg)
{
	const char *s = arg, *e, *p;
	char msg[80];
	const char **nk;

	c->po.strip |= ZH_STRIP_TAGS;
	if (*arg == '\0')
		return 1;	/* none but the roster's */
	for (;; s = e + 1) {
		e = s + strcspn(s, ",");
		for (p = s; p < e && (isalnum((unsigned char)*p) || *p == '_');
		    p++)
			;
		if (p == s || p < e) {
			snprintf(msg, sizeof msg, p == e ? "empty tag name" :
			    "'%c' cannot be in a tag name", *p);
			return bad_arg("--keep-tags", arg, p - arg + 1, msg);
		}
		if (c->nkeep == c->capkeep) {
			c->capkeep = c->capkeep ? 2 * c->capkeep : 8;
			if ((nk = realloc(c->keep, c->capkeep * sizeof *nk)) ==
			    NULL) {
				cli_fail("out of memory");
				return -1;
			}
			c->keep = nk;
		}
		if ((c->keep[c->nkeep] = strndup(s, (size_t)(e - s))) == NULL) {
			cli_fail("out of memory");
			return -1;
		}
		c->nkeep++;
		if (*e == '\0')
			break;
	}
	c->po.keep_tags = c->keep;
	c->po.nkeep = c->nkeep;
	return 1;
}

int
clean_option(struct clean *c, int opt, const char *arg)
{
	struct zh_error e = { 0 };
	size_t n;

	switch (opt) {
	case CLEAN_STRIP:
		if (zh_strip_parse(arg, &c->po.strip, &e) != 0)
			return bad_arg("--strip", arg, e.col, e.text);
		return 1;
	case CLEAN_KEEP_TAGS:
		return keep_tags(c, arg);
	case CLEAN_SPLIT:
		if ((c->split = cli_number(arg, 1, LONG_MAX, "--split")) < 0)
			return -1;
		return 1;
	case CLEAN_SPLIT_BY:
		n = strspn(arg, "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		if (n == 0 || arg[n] != '\0')
			return bad_arg("--split-by", arg, (long)n + 1,
			    "not a tag name (or 'variant')");
		c->by = arg;
		c->by_variant = strcmp(arg, "variant") == 0;
		return 1;
	}
	return 0;
}

/* ======================== the pattern ======================== */

/*
 * The conversion at s (after its '%') that 'want' allows: for 'd' an
 * optional '0', a width of at most two digits, and d, i or u; for 's'
 * only "s".  Its length, or 0 if it is not one.
 */
static size_t
conversion(const char *s, int want)
{
	const char *p = s;

	if (want == 's')
		return *s == 's';
	if (*p == '0')
		p++;
	if (isdigit((unsigned char)*p) && *p != '0')
		p++;
	if (isdigit((unsigned char)*p))
		p++;
	return *p == 'd' || *p == 'i' || *p == 'u' ? (size_t)(p - s) + 1 : 0;
}

/* Check -o's pattern: one conversion of the kind the split wants, "%%"
 * for a '%'; -1 after a message with the column. */
static int
pattern_check(const char *pat, int want)
{
	const char *s, *conv = NULL;
	size_t n;
	char msg[96];

	for (s = pat; *s != '\0'; s++) {
		if (*s != '%')
			continue;
		if (s[1] == '%') {
			s++;
			continue;
		}
		if ((n = conversion(s + 1, want)) == 0) {
			/* the conversion as printf would read it */
			n = 1 + strspn(s + 1, "0123456789.-+ #'hlLjzt");
			n += s[n] != '\0';
			snprintf(msg, sizeof msg, "'%.*s' is not %s", (int)n, s,
			    want == 's' ? "%s (the only conversion --split-by "
			    "takes)" : "an integer conversion (%d, %05d, ...)");
			return bad_arg("-o", pat, s - pat + 1, msg);
		}
		if (conv != NULL)
			return bad_arg("-o", pat, s - pat + 1, want == 's' ?
			    "a second %s" : "a second number");
		conv = s;
		s += n;
	}
	if (conv == NULL)
		return bad_arg("-o", pat, (long)strlen(pat) + 1, want == 's' ?
		    "no %s for the value in the pattern" :
		    "no %d for the number in the pattern");
	return 0;
}

/* The file name of number k or route 'route' into buf; false if it is
 * too long. */
static bool
file_name(const char *pat, long k, const char *route, char *buf, size_t size)
{
	const char *s;
	size_t n = 0, w;
	char num[32];
	int len, width;
	bool zero;

	for (s = pat; *s != '\0'; s++) {
		const char *add = s;

		w = 1;
		if (*s == '%' && s[1] == '%')
			s++;
		else if (*s == '%' && route != NULL) {
			add = route;
			w = strlen(route);
			s++;
		} else if (*s == '%') {
			zero = *++s == '0';
			s += zero;
			for (width = 0; isdigit((unsigned char)*s); s++)
				width = width * 10 + (*s - '0');
			len = snprintf(num, sizeof num, zero ? "%0*ld" : "%*ld",
			    width, k);
			add = num;
			w = (size_t)len;
		}
		if (n + w >= size)
			return false;
		memcpy(buf + n, add, w);
		n += w;
	}
	buf[n] = '\0';
	return true;
}

int
clean_setup(struct clean *c, const char *outpath)
{
	const char *p;

	if (c->split > 0 && c->by != NULL) {
		cli_fail("--split and --split-by: one or the other");
		return -1;
	}
	if (c->split == 0 && c->by == NULL)
		return 0;
	if (outpath == NULL) {
		cli_fail("%s needs -o PATTERN (such as %s)", c->by ?
		    "--split-by" : "--split", c->by ? "-o 'games-%s.pgn'" :
		    "-o 'part-%03d.pgn'");
		return -1;
	}
	c->pattern = outpath;
	if (pattern_check(outpath, c->by ? 's' : 'd') != 0)
		return -1;
	/* does the value start a file's name (the pattern's "%s", or
	   ".../%s")? */
	for (p = outpath; c->by != NULL && *p != '\0'; p++)
		if (p[0] == '%' && p[1] == '%')
			p++;
		else if (p[0] == '%') {
			c->by_lead = p == outpath || p[-1] == '/';
			break;
		}
	return 0;
}

FILE *
clean_sink(struct clean *c)
{
	if ((c->sink = fopen("/dev/null", "w")) == NULL)
		cli_fail("/dev/null: %s", strerror(errno));
	return c->sink;
}

bool
clean_splits(const struct clean *c)
{
	return c->split > 0 || c->by != NULL;
}

/* ======================== routes ======================== */

/* FNV-1a, 64 bits: the tail of a long value, kept apart. */
static uint64_t
fnv(const char *s)
{
	uint64_t h = 14695981039346656037ULL;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/*
 * The bytes a file name keeps as they are: ASCII letters and digits and
 * the punctuation that every common file system takes and no shell
 * reads (POSIX's portable set "-_." and "+,=@": "180+2" stays
 * "180+2").  '%' (the escape), '~' (the hash's mark), '/', blanks,
 * quotes, control and non-ASCII bytes, and the shell's and Windows'
 * special characters are escaped.
 */
static bool
name_byte(unsigned char ch)
{
	return (ch < 128 && isalnum(ch)) || (ch != '\0' &&
	    strchr("-_.+,=@", ch) != NULL);
}

/*
 * A tag value made safe for a file name: name_byte()s kept (but a first
 * '.', and a first '-' where the value starts the file's name: no hidden
 * file, no name that reads as an option), any other byte as %XX, so two
 * values never make one name.  A value longer than ROUTEMAX bytes so
 * written is cut and ends in '~' and its 64-bit hash in hex.
 */
static void
safe_name(const char *v, bool lead, char *out, size_t size)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = 0;
	const char *s;

	for (s = v; *s != '\0'; s++) {
		unsigned char ch = (unsigned char)*s;

		if (n + 4 > ROUTEMAX || n + 4 > size)
			break;
		if (name_byte(ch) && (s != v || (ch != '.' &&
		    (ch != '-' || !lead))))	/* ASCII, whatever the locale */
			out[n++] = (char)ch;
		else {
			out[n++] = '%';
			out[n++] = hex[ch >> 4];
			out[n++] = hex[ch & 15];
		}
	}
	if (*s != '\0')
		n += (size_t)snprintf(out + n, size - n, "~%016llX",
		    (unsigned long long)fnv(v));
	out[n < size ? n : size - 1] = '\0';
}

void
clean_route(const struct clean *c, const struct zh_game *g,
    const struct zh_replay *r, char *route, size_t size)
{
	const char *v;

	route[0] = '\0';
	if (c->by == NULL)
		return;
	if (c->by_variant) {
		if (r->v != NULL)
			snprintf(route, size, "%s", r->v->name);
		return;
	}
	if ((v = zh_game_tag(g, c->by)) != NULL)
		safe_name(v, c->by_lead, route, size);
}

/* ======================== files ======================== */

static size_t
route_hash(const char *s)
{
	return (size_t)fnv(s);
}

/* The table slot of 'route' (empty if it has no file yet). */
static struct clean_file **
slot(struct clean *c, const char *route)
{
	size_t i = route_hash(route) & (c->captab - 1);

	while (c->tab[i] != NULL && strcmp(c->tab[i]->route, route) != 0)
		i = (i + 1) & (c->captab - 1);
	return &c->tab[i];
}

/* Room for one more file in the table; false if out of memory. */
static bool
tab_grow(struct clean *c)
{
	struct clean_file **old = c->tab;
	size_t oldcap = c->captab, k;

	if (c->captab > 0 && 2 * (c->ntab + 1) <= c->captab)
		return true;
	c->captab = c->captab ? 2 * c->captab : 64;
	if ((c->tab = calloc(c->captab, sizeof *c->tab)) == NULL) {
		c->tab = old;
		c->captab = oldcap;
		return false;
	}
	for (k = 0; k < oldcap; k++)
		if (old[k] != NULL)
			*slot(c, old[k]->route) = old[k];
	free(old);
	return true;
}

/* Close the least recently used open file, to open another. */
static int
close_lru(struct clean *c)
{
	size_t k, lru = 0;
	struct clean_file *f;

	for (k = 1; k < c->nopen; k++)
		if (c->open[k]->used < c->open[lru]->used)
			lru = k;
	f = c->open[lru];
	c->open[lru] = c->open[--c->nopen];
	f->f = NULL;
	return cli_output_park(f->id);
}

/* File f open, to write (a new one made, a closed one opened again). */
static FILE *
file_open(struct clean *c, struct clean_file *f, bool fresh)
{
	if (c->open == NULL &&
	    (c->open = calloc(MAXOPEN, sizeof *c->open)) == NULL) {
		cli_fail("out of memory");
		return NULL;
	}
	if (c->nopen == MAXOPEN && close_lru(c) != 0)
		return NULL;
	f->f = fresh ? cli_output_late(f->path, &f->id) :
	    cli_output_resume(f->id);
	if (f->f == NULL)
		return NULL;
	c->open[c->nopen++] = f;
	if (fresh)
		c->files++;
	return f->f;
}

/* A new file for route (number k for --split N); NULL after a message. */
static struct clean_file *
file_new(struct clean *c, const char *route, long k)
{
	char path[PATH_MAX];
	struct clean_file *f;

	if (!file_name(c->pattern, k, c->by ? route : NULL, path,
	    sizeof path)) {
		cli_fail("-o '%s': the name of file %s%s is too long",
		    c->pattern, c->by ? "for " : "", c->by ? route : "");
		return NULL;
	}
	if ((f = calloc(1, sizeof *f)) == NULL ||
	    (f->route = strdup(route)) == NULL ||
	    (f->path = strdup(path)) == NULL) {
		if (f != NULL)
			free(f->route);
		free(f);
		cli_fail("out of memory");
		return NULL;
	}
	f->id = -1;
	return f;
}

static void
file_free(struct clean_file *f)
{
	if (f == NULL)
		return;
	free(f->route);
	free(f->path);
	free(f);
}

/* --split N: the file of the next game. */
static FILE *
file_numbered(struct clean *c)
{
	struct clean_file *f;

	if (c->cur != NULL && c->games % c->split != 0)
		return c->cur->f;
	if (c->cur != NULL) {	/* full: renamed now, kept whatever comes */
		c->nopen = 0;
		if (cli_output_done(c->cur->id) != 0)
			return NULL;
		file_free(c->cur);
		c->cur = NULL;
	}
	if ((f = file_new(c, "", c->games / c->split + 1)) == NULL)
		return NULL;
	c->cur = f;
	return file_open(c, f, true);
}

/* --split-by: the file of route, made or opened again. */
static FILE *
file_routed(struct clean *c, const char *route)
{
	struct clean_file **sl, *f;

	if (!tab_grow(c)) {
		cli_fail("out of memory");
		return NULL;
	}
	sl = slot(c, route);
	if ((f = *sl) != NULL) {
		f->used = ++c->clock;
		return f->f != NULL ? f->f : file_open(c, f, false);
	}
	if ((f = file_new(c, route, 0)) == NULL)
		return NULL;
	*sl = f;
	c->ntab++;
	f->used = ++c->clock;
	return file_open(c, f, true);
}

FILE *
clean_file(struct clean *c, const char *route)
{
	FILE *f;

	if (c->failed)
		return NULL;
	f = c->by != NULL ? file_routed(c, route) : file_numbered(c);
	if (f == NULL)
		c->failed = true;
	else
		c->games++;
	return f;
}

int
clean_finish(struct clean *c)
{
	size_t k;
	int rc = 0;

	for (k = 0; k < c->nopen; k++)
		if (cli_output_park(c->open[k]->id) != 0)
			rc = -1;
	c->nopen = 0;
	for (k = 0; k < c->captab; k++)
		file_free(c->tab[k]);
	file_free(c->cur);
	free(c->tab);
	free(c->open);
	for (k = 0; k < c->nkeep; k++)
		free((void *)c->keep[k]);
	free(c->keep);
	if (c->sink != NULL)
		fclose(c->sink);
	c->sink = NULL;
	c->tab = NULL;
	c->open = NULL;
	c->cur = NULL;
	c->keep = NULL;
	c->captab = c->ntab = c->nkeep = 0;
	return rc;
}
