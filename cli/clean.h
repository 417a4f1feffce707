/*
 * clean.h - zhpgn's cleaning and splitting of what it writes: the
 * --strip, --keep-tags, --split and --split-by options, and the split
 * files, opened as games come (cli/cli.c's late outputs).
 *
 * A tool keeps a struct clean (zeroed), passes its options to
 * clean_option(), checks them with clean_setup() once -o is known
 * (before reading), names each game's route in work() with
 * clean_route() (a worker thread), and asks clean_file() in done() (in
 * input order) where the game's output goes.
 */
#ifndef CLEAN_H
#define CLEAN_H
#include <stdio.h>
#include "zh.h"

struct clean_file;

struct clean {
	struct zh_pgn_opts po;		/* what the writers leave out */
	const char **keep;		/* --keep-tags names (into argv) */
	size_t nkeep, capkeep;
	long split;			/* --split N: games a file (0: none) */
	const char *by;			/* --split-by TAG, or "variant" */
	bool by_variant;
	bool by_lead;			/* the value starts a file's name */
	const char *pattern;		/* -o's, with its one conversion */
	long games;			/* games written into split files */
	long files;			/* split files made */
	bool failed;			/* a split file could not be opened */
	struct clean_file **tab;	/* by route: open addressing */
	size_t ntab, captab;
	struct clean_file **open;	/* the files open now (LRU closed) */
	size_t nopen;
	struct clean_file *cur;		/* --split N: the file being filled */
	unsigned long clock;		/* uses, for the LRU */
	FILE *sink;			/* clean_sink() */
};

enum { CLEAN_STRIP = 0x400, CLEAN_KEEP_TAGS, CLEAN_SPLIT, CLEAN_SPLIT_BY };
#define CLEAN_SPLIT_OPTS \
	{ "split", required_argument, NULL, CLEAN_SPLIT }, \
	{ "split-by", required_argument, NULL, CLEAN_SPLIT_BY }
#define CLEAN_OPTS \
	{ "strip", required_argument, NULL, CLEAN_STRIP }, \
	{ "keep-tags", required_argument, NULL, CLEAN_KEEP_TAGS }, \
	CLEAN_SPLIT_OPTS
#define CLEAN_SPLIT_HELP \
    "      --split N      N games a file: -o with one %%d (part-%%03d.pgn)\n" \
    "      --split-by TAG a file per value of TAG, or per variant: -o\n" \
    "                     with one %%s\n"
#define CLEAN_HELP \
    "      --strip LIST   leave out comments,clocks,evals,commands,nags,\n" \
    "                     variations (a comma list)\n" \
    "      --keep-tags LIST  only these tags (and the Seven Tag Roster,\n" \
    "                     Variant, FEN, SetUp)\n" \
    CLEAN_SPLIT_HELP

/* Take option c (its argument arg): 1 if it is one of these, 0 if not,
 * -1 if its argument is bad (said). */
int clean_option(struct clean *c, int opt, const char *arg);
/* With the output path known, before reading: 0, or -1 after a message
 * (a split without -o, a pattern without its conversion, ...). */
int clean_setup(struct clean *c, const char *outpath);
/* Is the output split? (then -o is a pattern, not a file) */
bool clean_splits(const struct clean *c);
/* With a split, the stream that stands for the output in jobs.c (a
 * game done() sends nowhere is written to it): /dev/null, or NULL
 * after a message. */
FILE *clean_sink(struct clean *c);
/* In work(): the game's route (route[size]) for --split-by. */
void clean_route(const struct clean *c, const struct zh_game *g,
    const struct zh_replay *r, char *route, size_t size);
/* In done(), for a game written: the split file its output goes to,
 * or NULL after a message (c->failed; the run should stop). */
FILE *clean_file(struct clean *c, const char *route);
/* At the end: close the split files and free; 0, or -1 after a write
 * error said. */
int clean_finish(struct clean *c);
#endif
