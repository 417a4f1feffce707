/*
 * warn.c - warning classes and -w, -W: which classes are said, and
 * which count as errors (warn.h).
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdatomic.h>
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
			    opt, (int)n, p, "tag, missing-round, result, "
			    "plycount, setup, variation, null-move, "
			    "text-between-games, no-termination, no-game");
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
	char msg[1024];
	va_list ap;
	bool e = warn_is_error(cls);

	if (!warn_on(cls))
		return -1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	cli_fdiag(f, e ? "error" : "warning", file, line, col, "%s [-W%s%s]",
	    msg, e ? "error=" : "", names[cls]);
	if (e)
		atomic_fetch_add(&nerr, 1);
	return e ? 1 : 0;
}

bool warn_null_moves;

int
warn_getopt(int c, const char *arg)
{
	if (c == WARN_NULL) {
		warn_null_moves = true;
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
