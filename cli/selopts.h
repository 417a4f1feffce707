/*
 * selopts.h - the selection options zhpgn, zhreplay and zhcheck share
 * (--tag, --player, --game-variant, --ply-count, --ending, --only-valid,
 * --only-invalid, --position, --dedupe, --duplicates, --max, --invert,
 * --stats): their parsing, a game's verdict on a worker (sel_early,
 * sel_game), and on the main thread in input order (sel_done) the
 * duplicates, --max and the counts, then the summary and --stats.  The
 * tests themselves are libzh's (zh_select_*).
 *
 * A game is selected if it passes every test (libzh: tests on one tag or
 * of one kind hold if any does), is not a duplicate of a game selected
 * before it, and comes before --max is reached.  --invert selects the
 * games the tests drop instead (and drops those that pass them all);
 * duplicates are still dropped and --max still counts selected games.
 */
#ifndef SELOPTS_H
#define SELOPTS_H
#include <getopt.h>
#include <stdio.h>

#include "jobs.h"

enum {
	SEL_TAG = 0x300, SEL_PLAYER, SEL_GVARIANT, SEL_PLIES, SEL_ENDING,
	SEL_VALID, SEL_INVALID, SEL_POSITION, SEL_DEDUPE, SEL_DUPLICATES,
	SEL_MAX, SEL_INVERT, SEL_STATS
};

#define SEL_OPTS \
	{ "tag", required_argument, NULL, SEL_TAG }, \
	{ "player", required_argument, NULL, SEL_PLAYER }, \
	{ "game-variant", required_argument, NULL, SEL_GVARIANT }, \
	{ "ply-count", required_argument, NULL, SEL_PLIES }, \
	{ "ending", required_argument, NULL, SEL_ENDING }, \
	{ "only-valid", no_argument, NULL, SEL_VALID }, \
	{ "only-invalid", no_argument, NULL, SEL_INVALID }, \
	{ "position", required_argument, NULL, SEL_POSITION }, \
	{ "dedupe", no_argument, NULL, SEL_DEDUPE }, \
	{ "duplicates", required_argument, NULL, SEL_DUPLICATES }, \
	{ "max", required_argument, NULL, SEL_MAX }, \
	{ "invert", no_argument, NULL, SEL_INVERT }, \
	{ "stats", required_argument, NULL, SEL_STATS }

#define SEL_HELP \
    "Selecting games (zhkit(7)):\n" \
    "      --tag 'T OP V'  tag T compared: = != < <= > >= ~ (regex) !~\n" \
    "      --player 'V'   White or Black is V (or 'OP V')\n" \
    "      --game-variant V  the variant as detected\n" \
    "      --ply-count A-B  mainline plies in a range (A-, -B, A)\n" \
    "      --ending E     checkmate, stalemate or none (on the board)\n" \
    "      --only-valid, --only-invalid  legal games only, or the others\n" \
    "      --position FEN the mainline reaches FEN (any dialect)\n" \
    "      --dedupe       drop games seen before (same variant, start, moves)\n" \
    "      --duplicates FILE  write the dropped duplicates there\n" \
    "      --max N        stop after N selected games\n" \
    "      --invert       select the games the tests drop\n" \
    "      --stats FILE   the counts and options as one JSON object\n"

struct sel_given {		/* an option as given, for --stats */
	const char *opt, *arg;
};

struct sel {
	struct zh_select *s;		/* the tests (NULL: none) */
	int ntests;
	bool on;			/* any selection option given */
	bool filter;			/* tag tests decided by the reader */
	bool tags;			/* some tag test */
	bool game;			/* some test needs the rules */
	bool dedupe, invert;
	long max;			/* 0: no limit */
	const char *dupes_path, *stats_path;
	FILE *dupes, *stats;
	struct zh_key *set;		/* the keys seen: open addressing */
	size_t setcap, setn;
	long read, selected, dups;
	long *dropped;			/* [ntests + 2]: by test i, by --invert */
	struct sel_given *given;
	int ngiven;
	int ninputs;
	char *const *inputs;
	struct sel_seen *seen;		/* tags --tag names that no game had
					   yet (selopts.c); NULL: none */
};

/* Option c (SEL_*) with its argument into s: 1 if taken, 0 if not one of
   them, -1 if bad (said, with the column: exit 2 before any input). */
int sel_option(struct sel *s, int c, const char *arg);
/*
 * After the options: register --duplicates and --stats as outputs
 * (before cli_outputs_open), the inputs for --stats, and set j's filter
 * and route.  0, or -1 out of memory (said).
 */
int sel_setup(struct sel *s, struct jobs *j, int ninputs,
    char *const *inputs);

/*
 * On a worker, before the rules: true if g is dropped already (by the
 * reader's filter: res->drop says by which test).  Under --invert the
 * tag tests' verdict is kept in *tagdrop for sel_game.
 */
int sel_tags_now(const struct sel *s, const struct zh_game *g);
/* Note g's tags for the warning on tags that no game had (any thread). */
void sel_note_tags(const struct sel *s, const struct zh_game *g);
static inline bool
sel_early(const struct sel *s, const struct zh_game *g, struct jobs_res *res,
    int *tagdrop)
{
	*tagdrop = 0;
	if (s->seen != NULL)
		sel_note_tags(s, g);
	if (g->dropped) {
		res->drop = g->dropped;
		return true;
	}
	if (s->on && s->tags && !s->filter)
		*tagdrop = sel_tags_now(s, g);
	return false;
}
/*
 * On a worker, before replaying a game into r: the position tests, if
 * sel_game will ask them, searched by the replay as it goes
 * (zh_select_watch), not by a second walk of the game; else r->watch
 * NULL.  Out of memory, r->watch is NULL and sel_game says so.
 */
static inline void
sel_watch(const struct sel *s, struct zh_replay *r, int tagdrop,
    struct zh_select_scratch *sc)
{
	r->watch = NULL;
	if (s->on && s->game && tagdrop == 0)
		(void)zh_select_watch(s->s, r, sc);
}
/*
 * On a worker, after the rules (g replayed into r, 'rc' 0 if the game is
 * valid): the verdict into res (and the key with --dedupe); 0 if g is
 * selected so far, else the cause (res->drop): write nothing for it.
 */
int sel_game(const struct sel *s, const struct zh_game *g,
    const struct zh_replay *r, int rc, int tagdrop,
    struct zh_select_scratch *sc, struct jobs_res *res);
/*
 * On the main thread, in input order: count g; true if it is selected,
 * false if dropped (a duplicate goes to --duplicates).  Sets j->stop at
 * --max.
 */
bool sel_done(struct sel *s, struct jobs *j, const struct zh_game *g,
    const struct jobs_res *res);
/* "TOOL: selection: N read, S selected; dropped: ..." (if any option),
 * after a warning for each --tag test on a tag no game read had, with
 * the nearest tag name that was seen. */
void sel_summary(const struct sel *s);
/* Write --stats (the tool's own counts as JSON members in 'extra', "" if
   none), before the outputs are closed. */
void sel_stats(const struct sel *s, const char *extra);
void sel_free(struct sel *s);
#endif
