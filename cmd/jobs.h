/*
 * jobs.h - run a tool's per-game work over a PGN stream, on one thread
 * or on N, with output in input order, byte-identical either way.
 *
 * A tool supplies 'work', which processes one game and writes whatever
 * it prints to the two FILEs it is given (never to stdout/stderr
 * directly), and 'done', called on the main thread in input order with
 * work's return value (for counting).  With more than one job, work may
 * run on games that are then read again (jobs.c: chunks), so it must
 * have no effect but its output; and done() sees only the game's number,
 * line and raw bytes (not its tags or tokens).  'state' is per worker
 * (e.g. a struct zh_replay to reuse); make_state/free_state may be NULL.
 */
#ifndef JOBS_H
#define JOBS_H
#include <stdio.h>
#include "zh.h"

struct jobs {
	int njobs;				/* 1: no threads; 0: all cores */
	struct zh_pgn_limits limits;		/* --limit */
	long offset;				/* --game-offset: added to
						   the number work() sees */
	void *ctx;				/* the tool's options and counters */
	int (*work)(const struct zh_game *g, FILE *out, FILE *err,
	    void *ctx, void *state);
	void (*done)(void *ctx, const struct zh_game *g, int result);
	void *(*make_state)(void *ctx);
	void (*free_state)(void *state);
	FILE *out, *err;			/* where results go, in order */
	long max_games;				/* stop after so many (0: all) */
	int progress;				/* --progress: a status line on
						   stderr, only if it is a tty */
	int stop;				/* set by done() to stop early */
	const char *name;			/* the input's, for messages */
	struct zh_error rerr;			/* why reading failed */
};

/*
 * The options of every tool that reads PGN: -j N, --limit NAME=N,
 * --progress and --game-offset N (long options with these values).
 * Take option c, its argument arg, into j: 1 if it is one of them, 0 if
 * not, -1 if its argument is bad (said).
 */
enum { JOBS_LIMIT = 0x200, JOBS_PROGRESS, JOBS_OFFSET };
#define JOBS_OPT_OFFSET	{ "game-offset", required_argument, NULL, JOBS_OFFSET }
#define JOBS_OPT_JOBS	{ "jobs", required_argument, NULL, 'j' }
#define JOBS_OPT_LIMIT	{ "limit", required_argument, NULL, JOBS_LIMIT }
#define JOBS_OPT_PROGRESS { "progress", no_argument, NULL, JOBS_PROGRESS }
int jobs_option(struct jobs *j, int c, const char *arg);

/* Run over one input; returns 0, or -1 on an I/O or memory error or a
 * compressed input (reported through cli_fail).  Text skipped between
 * games is a warning on err, in its place among the games' messages. */
int jobs_run(struct jobs *j, FILE *in, const char *name);
/* Number of online processors (for -j 0). */
int jobs_cores(void);
#endif
