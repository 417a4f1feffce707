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
#include <stdint.h>
#include <stdio.h>

#include "zh.h"

enum { REPORT_NONE, REPORT_GITHUB, REPORT_JUNIT, REPORT_SARIF };

#define REPORT_HELP \
    "      --report F     the findings for CI on stdout (or -o FILE): github\n" \
    "                     (workflow commands), junit (XML), sarif (2.1.0)\n" \
    "      --max-annotations N  github: N annotations of each level, then\n" \
    "                     a notice with the count (default 10)\n" \
    "      --baseline FILE  findings already known (a SARIF log of zhcheck,\n" \
    "                     or fingerprints): said as such, not failing\n"

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

/* One case: a game (g set) or a position (g NULL, its line 'line');
 * each problem's fingerprint and whether --baseline knows it (NULL:
 * none, not known). */
struct report_case {
	const char *file;
	const struct zh_game *g;
	long line;
	const struct zh_problem *probs;
	size_t n;
	const uint64_t *fp;
	const bool *known;
};

/* --report github: annotations of each level at most (GitHub shows 10
 * of a kind in a step; --max-annotations). */
#define REPORT_ANNOTATIONS 10
/* The key of a SARIF result's partialFingerprints that --baseline reads. */
#define REPORT_FP_KEY "zhcheckFinding/v1"

/* The annotations' limit, and the job summary's file (NULL: none). */
void report_conf(long max_annotations, const char *summary);
/*
 * --baseline FILE: the findings already known, read from a SARIF log of
 * zhcheck (its results' partialFingerprints) or from lines of one
 * fingerprint each; -1 after a message.
 */
int report_baseline(const char *path);
bool report_baseline_on(void);
/* A game's identity (its GameId, or a Link or Site that is a URL; else
 * zh_game_key's hash of its moves), a position's (its line), and a
 * finding's fingerprint from one and the problem (code, ply, board). */
uint64_t report_game_seed(const struct zh_game *g, const struct zh_replay *r);
uint64_t report_line_seed(const char *line, size_t n);
uint64_t report_fingerprint(uint64_t seed, const struct zh_problem *p);
bool report_known(uint64_t fp);

/* The case's report to out, any thread (SARIF: its results, joined by
 * commas, nothing if it has none). */
void report_case(FILE *out, int fmt, const struct report_case *c);

/*
 * The main thread's part.  report_begin() before the first case;
 * report_sep() before each case that has results (SARIF: the comma
 * between cases; *any says one was written); for JUnit the cases of an
 * input are held in 'cases' and report_suite() writes them, with the
 * input's counts, to 'suites'; report_end() writes the end (JUnit: the
 * root and the suites held; GitHub: the annotations held in 'held', up to
 * the limit, and the job summary).  -1 if a held file could not be
 * written, -2 if the job summary could not (said).
 */
void report_begin(FILE *out, int fmt);
void report_sep(FILE *out, int fmt, bool *any);
int report_suite(FILE *suites, FILE *cases, const char *file, long tests,
    long failures);
int report_end(FILE *out, int fmt, FILE *held, long tests,
    long failures);

#endif
