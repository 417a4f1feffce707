/*
 * planes.h - zhreplay -F planes: training tensors (zhkit-planes(5)).
 *
 * Two halves, as npy.h's.  A worker turns one game's mainline into
 * records (planes_game_begin, planes_ply for each position,
 * planes_game_end): for each position with a move after it, CrazyAra's
 * input planes, the move's policy index, the value from the side to
 * move and, if asked, the legal moves' mask (lib/planes.c).  The jobs'
 * ordered output goes to planes_sink()'s stream, which sends each game
 * to the training or the validation split (a seeded hash of the game's
 * number: the same for any -j) and its records to that split's current
 * shard, DIR/SPLIT-NNNNN-{planes,policy,value,mask}.npy, a shard of at
 * most N positions; DIR/manifest.json at the end.  Every file is
 * written under a temporary name and all are renamed together.
 */
#ifndef PLANES_H
#define PLANES_H
#include <stdio.h>
#include "zh.h"

struct planes_opts {
	int version;			/* 1, 2, 3 */
	int dtype;			/* ZH_PLANES_UINT8 ...; -1: the
					   version's 8-bit type */
	bool map;			/* policy as the policy map's index */
	bool mask;			/* the legal moves' mask */
	bool normalize;			/* CrazyAra's normalized values
					   (float types only) */
	double validation;		/* fraction of games, 0..1 */
	unsigned long long seed;
	long shard;			/* positions a shard at most */
};

/* An option of -F planes's (a getopt code of PLANES_OPTS) into o: 1 if
   taken, 0 if not one, -1 if bad (said). */
int planes_option(struct planes_opts *o, int c, const char *arg);
#define PLANES_O_BASE	600
#define PLANES_OPTS \
	{ "planes-version", required_argument, NULL, PLANES_O_BASE }, \
	{ "dtype", required_argument, NULL, PLANES_O_BASE + 1 }, \
	{ "policy", required_argument, NULL, PLANES_O_BASE + 2 }, \
	{ "mask", no_argument, NULL, PLANES_O_BASE + 3 }, \
	{ "validation", required_argument, NULL, PLANES_O_BASE + 4 }, \
	{ "seed", required_argument, NULL, PLANES_O_BASE + 5 }, \
	{ "shard", required_argument, NULL, PLANES_O_BASE + 6 }, \
	{ "normalize", no_argument, NULL, PLANES_O_BASE + 7 }

/* One worker's records of one game. */
struct planes_rec {
	const struct planes_opts *o;
	unsigned char *buf;		/* the game's header, then records */
	size_t len, cap;
	struct zh_pos prev;		/* the position waiting for its move */
	struct zh_move hist[8], phist[8];	/* moves before the
					   current and the previous
					   position, the latest first */
	int nhist, nphist, pocc;
	unsigned clock;			/* plies since a capture or a pawn
					   moved, as python-chess (and so
					   CrazyAra) counts them: a drop
					   is neither */
	bool have, ptake;
	struct zh_posrec *seen;		/* the game's positions so far */
	size_t nseen, seencap;
	signed char result;		/* White's view; 2: none */
	long n;				/* records */
	long nolabel;			/* positions left out: no label */
	bool fail;			/* out of memory */
};

void planes_game_begin(struct planes_rec *w, const struct planes_opts *o,
    const struct zh_variant *v);
/* A position of the mainline ('take': --plies and --every take it). */
int planes_ply(struct planes_rec *w, const struct zh_ply *pl, bool take);
/* The game's end: then w->buf, w->len is its output. */
void planes_game_end(struct planes_rec *w);
void planes_rec_free(struct planes_rec *w);

struct planes;

/* The directory (made if missing) opened for o's files: NULL if not. */
struct planes *planes_open(const char *dir, const struct planes_opts *o);
FILE *planes_sink(struct planes *t);
void planes_input(struct planes *t, const char *name);
/* Every shard completed, the manifest written, all renamed: 0, or -1
   (said).  Frees t. */
int planes_close(struct planes *t);

#endif
