/*
 * report.h - zhcheck's findings in the formats CI systems read
 * (--report FORMAT): GitHub Actions workflow commands, JUnit XML and
 * SARIF 2.1.0.  A case (a game, or a position of --fen) and its
 * problems are written by report_case() on any thread, into the game's
 * output; what joins the cases (SARIF's commas, JUnit's suites) is
 * written on the main thread, in input order: the same bytes for any -j.
 */
#ifndef REPORT_H
#define REPORT_H
#include <stdbool.h>
#include <stdio.h>

#include "zh.h"

enum { REPORT_NONE, REPORT_GITHUB, REPORT_JUNIT, REPORT_SARIF };

#define REPORT_HELP \
    "      --report F     the findings for CI on stdout (or -o FILE): github\n" \
    "                     (workflow commands), junit (XML), sarif (2.1.0)\n"

/* The format called name, or -1 after a message. */
int report_find(const char *name);

/*
 * "game N (White - Black), ply P on board B: TEXT [-WNAME]" (g NULL, a
 * position: "TEXT"), as zhcheck says a problem on stderr, into b (not
 * terminated); its whole length (what does not fit is not written).
 */
size_t report_message(char *b, size_t size, const struct zh_game *g,
    const struct zh_problem *p);
/* The same whole, however long the players' names: in local (lsize
 * bytes) if it fits, else in memory from malloc (for the caller to
 * free when it is not local); *n its length. */
char *report_text(char *local, size_t lsize, const struct zh_game *g,
    const struct zh_problem *p, size_t *n);

/* One case: a game (g set) or a position (g NULL, its line 'line'). */
struct report_case {
	const char *file;
	const struct zh_game *g;
	long line;
	const struct zh_problem *probs;
	size_t n;
};

/* The case's report to out, any thread (SARIF: its results, joined by
 * commas, nothing if it has none). */
void report_case(FILE *out, int fmt, const struct report_case *c);

/*
 * The main thread's part.  report_begin() before the first case;
 * report_sep() before each case that has results (SARIF: the comma
 * between cases; *any says one was written); for JUnit the cases of an
 * input are held in 'cases' and report_suite() writes them, with the
 * input's counts, to 'suites'; report_end() writes the end (JUnit: the
 * root and the suites held).  -1 if a held file could not be written.
 */
void report_begin(FILE *out, int fmt);
void report_sep(FILE *out, int fmt, bool *any);
int report_suite(FILE *suites, FILE *cases, const char *file, long tests,
    long failures);
int report_end(FILE *out, int fmt, FILE *suites, long tests,
    long failures);

#endif
