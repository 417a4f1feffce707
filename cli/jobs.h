/*
 * jobs.h - run a tool's per-game work over a PGN stream, on one thread
 * or on N, with output in input order, byte-identical either way.
 *
 * A tool supplies 'work', which processes one game and writes whatever
 * it prints to the two FILEs it is given (never to stdout/stderr
 * directly) and fills a result record (struct jobs_res, zeroed before;
 * its 'result' is work's return value), and 'done', called on the main
 * thread in input order with that record (for counting, duplicates,
 * --max) BEFORE the game's output is written: done() returns where it
 * goes (j->out, another FILE such as a split file, or NULL to drop it);
 * the game's diagnostics on err are always written.  With more than one
 * job, work may run on games that are then read again (jobs.c: chunks),
 * so it must have no effect but its output; and done() sees only the
 * game's number, line, raw bytes and 'dropped' (not its tags or tokens):
 * what else it needs travels in the record.  'state' is per worker
 * (e.g. a struct zh_replay to reuse); make_state/free_state may be NULL.
 *
 * With one job, output goes straight to j->out and done()'s answer is
 * not asked for where it goes, unless 'route' is set: then each game's
 * output is held until done() has said (selection, duplicates, splits).
 */
#ifndef JOBS_H
#define JOBS_H
#include <stdio.h>
#include "zh.h"

/* What work() says of a game, for done() on the main thread. */
struct jobs_res {
	int result;				/* work()'s return value */
	int drop;				/* the selection's cause of
						   dropping it (selopts.h), 0
						   if selected */
	bool has_key;				/* key is set */
	struct zh_key key;			/* zh_game_key, for duplicates */
	char route[128];			/* for split outputs: a tag
						   value or the variant name
						   (set by work, "" if none) */
};

struct jobs {
	int njobs;				/* 1: no threads; 0: all cores */
	bool auto_jobs;				/* -j 0: njobs chosen for
						   each input (jobs_run) */
	struct zh_pgn_limits limits;		/* --limit */
	long offset;				/* --game-offset: added to
						   the number work() sees */
	void *ctx;				/* the tool's options and counters */
	int (*work)(const struct zh_game *g, FILE *out, FILE *err,
	    void *ctx, void *state, struct jobs_res *res);
	FILE *(*done)(void *ctx, const struct zh_game *g,
	    const struct jobs_res *res);
	void *(*make_state)(void *ctx);
	void (*free_state)(void *state);
	FILE *out, *err;			/* where results go, in order */
	long max_games;				/* stop after so many (0: all) */
	bool work_skips;			/* work() says the text
						   skipped before a game
						   (g->skipped) itself; the
						   text after the last game
						   is still said here */
	bool route;				/* done() may send a game's
						   output elsewhere or drop it:
						   hold it until done() says */
	/* The tag filter every reader made here gets (zh_pgn_set_filter);
	   fn runs on worker threads too.  NULL: none. */
	int (*filter)(void *arg, const struct zh_game *g);
	void *filter_arg;
	int progress;				/* --progress: a status line on
						   stderr, only if it is a tty */
	int stop;				/* set by done() to stop early:
						   the game's output is still
						   written, none after it */
	const char *name;			/* the input's, for messages */
	const char *fen_hint;			/* FEN lines given: what to
						   run (kind.h; NULL: zhfen) */
	bool keep_buffers;			/* the workers' output buffers
						   kept for the next run of
						   this process (jobs_trim) */
	size_t chunk_bytes;			/* input bytes a worker's
						   chunk (0: pieces.c's; the
						   environment's
						   ZH_JOBS_CHUNK wins) */
	long before, seen;			/* games of the inputs before
						   this one; of this one */
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
/* The output buffers runs with keep_buffers left, given back: their
 * bytes. */
size_t jobs_trim(void);
/* The cores this process may run on (codec_cores); -j 0 takes one
 * fewer for an input decompressed on a thread of its own. */
int jobs_cores(void);
#endif
