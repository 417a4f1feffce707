/*
 * warn.h - warning classes and their control, the same in every tool:
 * -w (none), -W NAME, -Wno-NAME, -Werror, -Werror=NAME, -Wno-error=NAME
 * (gcc's spellings; NAME may be a comma-separated list, as shellcheck's
 * --exclude takes).  A class's name is shown at the end of its message,
 * " [-WNAME]", and is the "code" of its JSON object.  Set up before any
 * thread starts; read only after.
 */
#ifndef WARN_H
#define WARN_H
#include <stdbool.h>
#include <stdio.h>

#include "zh.h"

enum warn_class {
	W_TAG,			/* missing Seven Tag Roster tags (not Round) */
	W_MISSING_ROUND,	/* no Round tag (Lichess before 2021) */
	W_RESULT,		/* result tag against movetext or position */
	W_PLYCOUNT,		/* PlyCount against the moves */
	W_SETUP,		/* SetUp against FEN */
	W_VARIATION,		/* an illegal move inside a variation */
	W_NULL_MOVE,		/* a null move in the mainline (--null-moves) */
	W_TEXT_BETWEEN,		/* text between games, skipped */
	W_NO_TERMINATION,	/* zhpgn: a game without a result token */
	W_NO_GAME,		/* zhpgn: an input without a game */
	W_CHECK_SUFFIX,		/* bughouse: a '+' or '#' the position denies */
	W_CLOCK,		/* bughouse: a player's clock runs backwards */
	W_N
};

/* The classes zhcheck's --strict makes errors (its expansion). */
#define WARN_STRICT_CLASSES "tag,missing-round,result,plycount,setup,variation"

enum { WARN_NULL = 0x500, WARN_ALL };	/* --null-moves, --all-warnings */
#define WARN_SHORT "wW:"
#define WARN_OPTS \
	{ "no-warnings", no_argument, NULL, 'w' }, \
	{ "warning", required_argument, NULL, 'W' }, \
	{ "null-moves", no_argument, NULL, WARN_NULL }, \
	{ "all-warnings", no_argument, NULL, WARN_ALL }
#define WARN_HELP \
    "  -w, --no-warnings  no warnings;  -W NAME, -Wno-NAME: one class on or\n" \
    "                     off;  -Werror[=NAME]: as errors (zhkit(7) lists them)\n" \
    "      --all-warnings every warning of a class, not the first 5 and a count\n" \
    "      --null-moves   read null moves (--, Z0, @@@@) in the mainline too\n"

/* Warnings of one class written before the rest are only counted. */
#define WARN_SHOWN 5

/* --strict: the classes of WARN_STRICT_CLASSES as errors (not on). */
void warn_strict(void);
/* -w (arg NULL) or -W ARG: 0, or -1 after a message. */
int warn_option(const char *arg);
/* Option c of WARN_OPTS ('w', 'W', WARN_NULL): 0, or -1 after a message. */
int warn_getopt(int c, const char *arg);
/* --all-warnings: no warning is held back (warn_sink). */
extern bool warn_all;
/* --null-moves: a null move in the mainline is read (zh_replay's
 * null_moves), and said as a warning of class null-move. */
extern bool warn_null_moves;
/*
 * zhcheck: each mainline null move of c's replay of g, as a problem of
 * code "null-move" in its place among the others (before warn_check).
 */
void warn_check_nulls(struct zh_check *c, const struct zh_game *g);
/* zhpgn, zhreplay: each mainline null move of r said (warn_fdiag);
 * true if one was said as an error. */
bool warn_nulls(FILE *f, const char *file, const struct zh_game *g,
    const struct zh_replay *r);
/* The class named 'name' (len bytes), or -1. */
int warn_find(const char *name, size_t len);
const char *warn_name(int cls);
bool warn_on(int cls);
bool warn_is_error(int cls);
/* Any class turned off or made an error (the default is all on). */
bool warn_changed(void);
/*
 * A warning of class cls to f, as cli_fdiag() writes it with " [-WNAME]"
 * (or " [-Werror=NAME]" and kind "error") after it: 1 said as an error,
 * 0 as a warning, -1 not said (the class is off).  An error also marks
 * the run (warn_errors()).
 */
int warn_fdiag(FILE *f, int cls, const char *file, long line, long col,
    const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Warnings said as errors so far (any thread). */
long warn_errors(void);
/*
 * A zh_check's problems as the classes say: off ones dropped, error
 * ones promoted (and the list cut after the first error, as
 * zh_check_game() does); nerrors and nwarnings recounted.
 */
void warn_check(struct zh_check *c);
/* The class of a zh_problem code, or -1 (an error of its own). */
int warn_code(const char *code);
/* " [-WNAME]", or " [-Werror=NAME]" if error. */
const char *warn_suffix(int cls, bool error);

/*
 * The stream every diagnostic of a run goes to (the tool's j.err, and
 * whatever else says a warning), in front of 'to' (stderr): it counts
 * the lines that end with a class's suffix, by class and kind, and
 * writes only the first WARN_SHOWN warnings of each class (all of them
 * with --all-warnings); errors are all written.  The same stream on
 * every call.  Main thread only (the workers of -j write to buffers
 * that jobs.c copies to it in input order: the counts and the lines
 * held back are the same for any -j).
 */
FILE *warn_sink(FILE *to);
/* At the end of the run: "TOOL: and N more [-WNAME] ..." for each class
 * with warnings held back. */
void warn_sink_end(void);
/* Lines of class cls the sink saw as warnings (error false) or as
 * errors (-Werror); of every class. */
long warn_said(int cls, bool error);
long warn_said_total(bool error);
/* "N tag, M missing-round" of the warnings said, by class, into b (""
 * if none); its length. */
size_t warn_said_classes(char *b, size_t size);
/* "\"warnings\":{\"tag\":N,\"error=result\":M}": the counts by class (and
 * of those said as errors), for --stats; its length. */
size_t warn_said_json(char *b, size_t size);
/* " (W warnings: N tag, M missing-round; -Werror: K result)" into b, or
 * "" if none was said; with 'always' (zhcheck, whose errors are its
 * invalid games) the warnings only, even none; b. */
const char *warn_said_note(char *b, size_t size, bool always);

#endif
