/*
 * warn.c - warning classes and -w, -W: which classes are said, and
 * which count as errors (warn.h).
 */
#define _GNU_SOURCE		/* fopencookie() */
#include <getopt.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "warn.h"

/* Stable names: scripts and JSON consumers match them (zhkit(7)). */
static const char *const names[W_N] = {
	[W_TAG] = "tag",
	[W_MISSING_ROUND] = "missing-round",
	[W_RESULT] = "result",
	[W_PLYCOUNT] = "plycount",
	[W_SETUP] = "setup",
	[W_VARIATION] = "variation",
	[W_NULL_MOVE] = "null-move",
	[W_TEXT_BETWEEN] = "text-between-games",
	[W_NO_TERMINATION] = "no-termination",
	[W_NO_GAME] = "no-game",
	[W_CHECK_SUFFIX] = "check-suffix",
	[W_CLOCK] = "clock",
};

/* " [-WNAME]" and " [-Werror=NAME]": zhcheck's report() appends them to
 * a warning per game, often. */
#define SUFFIX(n) { " [-W" n "]", " [-Werror=" n "]" }
static const char *const suffix[W_N][2] = {
	[W_TAG] = SUFFIX("tag"),
	[W_MISSING_ROUND] = SUFFIX("missing-round"),
	[W_RESULT] = SUFFIX("result"),
	[W_PLYCOUNT] = SUFFIX("plycount"),
	[W_SETUP] = SUFFIX("setup"),
	[W_VARIATION] = SUFFIX("variation"),
	[W_NULL_MOVE] = SUFFIX("null-move"),
	[W_TEXT_BETWEEN] = SUFFIX("text-between-games"),
	[W_NO_TERMINATION] = SUFFIX("no-termination"),
	[W_NO_GAME] = SUFFIX("no-game"),
	[W_CHECK_SUFFIX] = SUFFIX("check-suffix"),
	[W_CLOCK] = SUFFIX("clock"),
};

static unsigned off;		/* bit per class: not said */
static unsigned err;		/* bit per class: said as an error */
static atomic_long nerr;

int
warn_find(const char *name, size_t len)
{
	int i;

	for (i = 0; i < W_N; i++)
		if (len > 0 && names[i][0] == name[0] &&
		    strlen(names[i]) == len && memcmp(names[i], name, len) == 0)
			return i;
	return -1;
}

const char *
warn_name(int cls)
{
	return names[cls];
}

bool
warn_on(int cls)
{
	return !(off >> cls & 1);
}

bool
warn_is_error(int cls)
{
	return err >> cls & 1;
}

bool
warn_changed(void)
{
	return off != 0 || err != 0;
}

/* "tag, missing-round, ...": every class, for messages. */
static const char *
warn_list(void)
{
	static char b[256];
	size_t n = 0;
	int i;

	if (b[0] != '\0')
		return b;
	for (i = 0; i < W_N; i++)
		n += (size_t)snprintf(b + n, sizeof b - n, "%s%s",
		    i ? ", " : "", names[i]);
	return b;
}

/* Each name of a comma-separated list into *set (or out of it). */
static int
apply(const char *opt, const char *list, unsigned *set, bool on)
{
	const char *p = list;

	do {
		size_t n = strcspn(p, ",");
		int k = warn_find(p, n);

		if (k < 0) {
			cli_fail("%s: unknown warning class '%.*s' (try %s)",
			    opt, (int)n, p, warn_list());
			return -1;
		}
		if (on)
			*set |= 1u << k;
		else
			*set &= ~(1u << k);
		p += n;
	} while (*p++ == ',');
	return 0;
}

int
warn_option(const char *arg)
{
	const unsigned all = (1u << W_N) - 1;

	if (arg == NULL || strcmp(arg, "no-all") == 0)
		off = all;
	else if (strcmp(arg, "all") == 0)
		off = 0;
	else if (strcmp(arg, "error") == 0)
		err = all;
	else if (strcmp(arg, "no-error") == 0)
		err = 0;
	else if (strncmp(arg, "error=", 6) == 0) {
		/* gcc: -Werror=NAME also turns NAME on */
		if (apply("-Werror", arg + 6, &err, true) != 0)
			return -1;
		return apply("-Werror", arg + 6, &off, false);
	} else if (strncmp(arg, "no-error=", 9) == 0)
		return apply("-Wno-error", arg + 9, &err, false);
	else if (strncmp(arg, "no-", 3) == 0)
		return apply("-Wno-", arg + 3, &off, true);
	else
		return apply("-W", arg, &off, false);
	return 0;
}

void
warn_strict(void)
{
	(void)apply("--strict", WARN_STRICT_CLASSES, &err, true);
}

long
warn_errors(void)
{
	return atomic_load(&nerr);
}

int
warn_fdiag(FILE *f, int cls, const char *file, long line, long col,
    const char *fmt, ...)
{
	char local[1024], *msg = local;	/* the text whole: the input's */
	va_list ap;
	bool e = warn_is_error(cls);
	int n;

	if (!warn_on(cls))
		return -1;
	va_start(ap, fmt);
	n = vsnprintf(local, sizeof local, fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof local && (msg = malloc((size_t)n + 1)) != NULL) {
		va_start(ap, fmt);
		vsnprintf(msg, (size_t)n + 1, fmt, ap);
		va_end(ap);
	} else if (msg == NULL)
		msg = local;
	cli_fdiag(f, e ? "error" : "warning", file, line, col, "%s [-W%s%s]",
	    msg, e ? "error=" : "", names[cls]);
	if (msg != local)
		free(msg);
	if (e)
		atomic_fetch_add(&nerr, 1);
	return e ? 1 : 0;
}

bool warn_null_moves;
bool warn_all;

int
warn_getopt(int c, const char *arg)
{
	if (c == WARN_NULL) {
		warn_null_moves = true;
		return 0;
	}
	if (c == WARN_ALL) {
		warn_all = true;
		return 0;
	}
	return warn_option(c == 'w' ? NULL : arg);
}

/* The mainline's null moves: their token index from *i on, or -1. */
static long
next_null(const struct zh_game *g, const struct zh_replay *r, size_t *i)
{
	for (; *i < g->ntoks; (*i)++) {
		const struct zh_rmove *rm = &r->moves[*i];

		if (g->toks[*i].kind == ZH_T_MOVE && rm->ok && rm->depth == 0 &&
		    (rm->move.flags & ZH_MNULL))
			return (long)(*i)++;
	}
	return -1;
}

bool
warn_nulls(FILE *f, const char *file, const struct zh_game *g,
    const struct zh_replay *r)
{
	bool e = false;
	size_t i = 0;
	long k;

	if (!warn_null_moves || r->moves == NULL)
		return false;
	while ((k = next_null(g, r, &i)) >= 0)
		e |= warn_fdiag(f, W_NULL_MOVE, file, g->toks[k].line,
		    g->toks[k].col, "game %ld, ply %ld: null move '%.*s' in the "
		    "mainline", g->number, r->moves[k].ply, (int)g->toks[k].len,
		    g->toks[k].text) > 0;
	return e;
}

void
warn_check_nulls(struct zh_check *c, const struct zh_game *g)
{
	size_t i = 0, j;
	long k;

	if (!warn_null_moves || c->r.moves == NULL)
		return;
	while ((k = next_null(g, &c->r, &i)) >= 0 &&
	    c->nprobs < ZH_MAXPROBLEMS) {
		const struct zh_token *t = &g->toks[k];
		struct zh_problem x = { ZH_WARNING, "null-move", t->line,
		    t->col, c->r.moves[k].ply, -1, "" };

		snprintf(x.text, sizeof x.text, "null move '%.*s' in the "
		    "mainline", (int)t->len, t->text);
		/* in its place: after every problem before it or at it */
		for (j = c->nprobs; j > 0 && (c->probs[j - 1].line > x.line ||
		    (c->probs[j - 1].line == x.line &&
		    c->probs[j - 1].col > x.col)); j--)
			c->probs[j] = c->probs[j - 1];
		c->probs[j] = x;
		c->nprobs++;
		c->nwarnings++;
	}
}

const char *
warn_suffix(int cls, bool error)
{
	return suffix[cls][error];
}

int
warn_code(const char *code)
{
	/* the codes are libzh's static strings: the last one is kept */
	static _Thread_local const char *last;
	static _Thread_local int k;

	if (code != last) {
		k = warn_find(code, strlen(code));
		last = code;
	}
	return k;
}

void
warn_check(struct zh_check *c)
{
	size_t i, n = 0;

	c->nerrors = 0;
	for (i = 0; i < c->nprobs; i++) {
		struct zh_problem *p = &c->probs[i];
		int k = warn_code(p->code);

		if (k >= 0 && !warn_on(k))
			continue;
		if (k >= 0 && warn_is_error(k))
			p->severity = ZH_ERROR;
		c->probs[n++] = *p;
		if (p->severity == ZH_ERROR) {
			c->nerrors = 1;
			break;
		}
	}
	c->nprobs = n;
	c->nwarnings = n - c->nerrors;
}

/* ======================== the diagnostics' sink ======================== */

/*
 * Every diagnostic a tool writes to the stream warn_sink() made (the
 * games' ones in input order, whatever -j) is read here a line at a
 * time: a line that ends with a class's " [-WNAME]" or
 * " [-Werror=NAME]" is counted for that class, and a warning beyond the
 * first WARN_SHOWN of its class is held back (counted, not written),
 * unless --all-warnings.  Only the main thread writes to it.
 */
static struct sink {
	FILE *to;
	char *line;			/* a line in pieces, whole (a message
					   names the players, whole) */
	size_t len, cap;
	bool longline;			/* no memory for it: written as is */
	long said[W_N][2];		/* [class][as an error] */
	long held[W_N];			/* warnings not written */
} sk;

/* The line ends with class cls's suffix (error: " [-Werror=NAME]"). */
static bool
ends_with(const char *s, size_t n, int cls, bool error)
{
	size_t k = strlen(suffix[cls][error]);

	return n >= k && memcmp(s + n - k, suffix[cls][error], k) == 0;
}

/* The class and kind (error) of a line's " [-W...]" suffix, or -1. */
static int
line_class(const char *s, size_t n, bool *error)
{
	static int last = -1;	/* a run's warnings are mostly of one class */
	const char *p;
	size_t k;
	int cls;

	if (n < 6 || s[n - 1] != ']')
		return -1;
	if (last >= 0 && ends_with(s, n, last, false)) {
		*error = false;
		return last;
	}
	for (p = s + n - 2; p > s && *p != '['; p--)
		;
	if (p == s || p[-1] != ' ' || p[1] != '-' || p[2] != 'W')
		return -1;
	p += 3;
	k = (size_t)(s + n - 1 - p);
	*error = k > 6 && memcmp(p, "error=", 6) == 0;
	if (*error) {
		p += 6;
		k -= 6;
	}
	if ((cls = warn_find(p, k)) >= 0)
		last = cls;
	return cls;
}

/* One whole line (with its newline) from the sink. */
static void
sink_line(const char *s, size_t n)
{
	bool e = false;
	int cls = line_class(s, n - 1, &e);

	if (cls >= 0) {
		sk.said[cls][e]++;
		if (!e && !warn_all && sk.said[cls][0] > WARN_SHOWN) {
			sk.held[cls]++;
			return;
		}
	}
	cli_progress_clear(sk.to);
	fwrite(s, 1, n, sk.to);
}

/* Room for n bytes of a line in sk.line; false if there is no memory. */
static bool
sink_room(size_t n)
{
	size_t cap = sk.cap ? sk.cap : 4096;
	char *b;

	while (cap < n)
		cap *= 2;
	if ((b = realloc(sk.line, cap)) == NULL)
		return false;
	sk.line = b;
	sk.cap = cap;
	return true;
}

static ssize_t
sink_write(void *cookie, const char *data, size_t n)
{
	size_t i = 0;

	(void)cookie;
	while (i < n) {
		const char *nl = memchr(data + i, '\n', n - i);
		size_t k = nl ? (size_t)(nl - (data + i)) + 1 : n - i;

		if (sk.len == 0 && nl != NULL && !sk.longline)
			sink_line(data + i, k);		/* the common case */
		else if (sk.longline || (k > sk.cap - sk.len &&
		    !sink_room(sk.len + k))) {
			/* no memory to hold it whole: passed on */
			fwrite(sk.line, 1, sk.len, sk.to);
			fwrite(data + i, 1, k, sk.to);
			sk.len = 0;
			sk.longline = nl == NULL;
		} else {
			memcpy(sk.line + sk.len, data + i, k);
			sk.len += k;
			if (nl != NULL) {
				sink_line(sk.line, sk.len);
				sk.len = 0;
			}
		}
		i += k;
	}
	return (ssize_t)n;
}

FILE *
warn_sink(FILE *to)
{
	static const cookie_io_functions_t io = { .write = sink_write };
	static FILE *f;

	if (f != NULL)
		return f;
	sk.to = to;
	if ((f = fopencookie(NULL, "w", io)) == NULL)
		return to;
	setvbuf(f, NULL, _IONBF, 0);	/* a line a call: no copy */
	return f;
}

void
warn_sink_end(void)
{
	char b[24];
	int i;

	if (sk.to == NULL)
		return;
	if (sk.len > 0)
		fwrite(sk.line, 1, sk.len, sk.to);
	sk.len = 0;
	for (i = 0; i < W_N; i++)
		if (sk.held[i] > 0) {
			b[cli_putlong(b, sk.held[i])] = '\0';
			cli_progress_clear(sk.to);
			fprintf(sk.to, "%s: and %s more [-W%s] (the first %d "
			    "shown; --all-warnings shows every one)\n",
			    cli_prog, b, names[i], WARN_SHOWN);
			sk.held[i] = 0;
		}
}

long
warn_said(int cls, bool error)
{
	return sk.said[cls][error];
}

long
warn_said_total(bool error)
{
	long n = 0;
	int i;

	for (i = 0; i < W_N; i++)
		n += sk.said[i][error];
	return n;
}

size_t
warn_said_classes(char *b, size_t size)
{
	size_t n = 0;
	int i;

	if (size > 0)
		b[0] = '\0';
	for (i = 0; i < W_N; i++)
		if (sk.said[i][0] > 0 && n < size)
			n += (size_t)snprintf(b + n, size - n, "%s%ld %s",
			    n ? ", " : "", sk.said[i][0], names[i]);
	return n < size ? n : size - 1;
}

const char *
warn_said_note(char *b, size_t size, bool always)
{
	/* zhcheck (always) counts its errors as invalid games */
	long w = warn_said_total(false), e = always ? 0 : warn_said_total(true);
	bool first = true;
	size_t n = 0;
	int i;

	b[0] = '\0';
	if (w == 0 && e == 0 && !always)
		return b;
	n += (size_t)snprintf(b, size, " (%ld warning%s%s", w,
	    w == 1 ? "" : "s", w ? ": " : "");
	n += warn_said_classes(b + n, size - n);
	for (i = 0; i < W_N && n < size && e > 0; i++)
		if (sk.said[i][1] > 0) {
			n += (size_t)snprintf(b + n, size - n, "%s%ld %s",
			    first ? "; -Werror: " : ", ", sk.said[i][1],
			    names[i]);
			first = false;
		}
	if (n < size)
		snprintf(b + n, size - n, ")");
	return b;
}

size_t
warn_said_json(char *b, size_t size)
{
	size_t n = (size_t)snprintf(b, size, "\"warnings\":{");
	bool first = true;
	int i, e;

	for (i = 0; i < W_N && n < size; i++)
		for (e = 0; e < 2 && n < size; e++)
			if (sk.said[i][e] > 0) {
				n += (size_t)snprintf(b + n, size - n,
				    "%s\"%s%s\":%ld", first ? "" : ",",
				    e ? "error=" : "", names[i], sk.said[i][e]);
				first = false;
			}
	if (n < size)
		n += (size_t)snprintf(b + n, size - n, "}");
	return n < size ? n : size - 1;
}
