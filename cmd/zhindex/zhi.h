/*
 * zhi.h - zhindex's index (zhkit-index(5)): the records a game gives,
 * their sort in bounded memory, the SQLite file written and read.
 *
 * A build: each selected game (a worker) gives one record per distinct
 * (position, move) of its first N plies, each board of a bughouse game
 * apart (zhi_game_records); the main thread numbers the games in input
 * order, writes their rows and adds their records to the sorter
 * (zhi_sort: runs spilled to temporary files past --memory, merged at
 * the end); the merged stream, grouped by position, is the positions
 * table, written in key order.  add and merge read old indexes back
 * into the same stream, so their result is the build's, row for row.
 */
#ifndef ZHI_H
#define ZHI_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "zh.h"

#define ZHI_APP_ID	0x7a68696e	/* "zhin": PRAGMA application_id */
#define ZHI_VERSION	2		/* PRAGMA user_version */
#define ZHI_KEYLEN	12		/* bytes of the key stored: 96 bits */
#define ZHI_TOP		4		/* top and recent games kept */
#define ZHI_LISTED	64		/* more games than this: the top and
					   recent lists stored, not found
					   at query time */

enum { ZHI_WHITE = 0, ZHI_DRAW = 1, ZHI_BLACK = 2 };	/* results */
enum { ZHI_NSPEEDS = 7 };	/* ultraBullet ... correspondence, unknown */
extern const char *const zhi_speeds[ZHI_NSPEEDS];

/* One (position, move) of one game: 32 bytes, sorted by key, game,
   move, board. */
struct zhi_rec {
	uint64_t hi, lo;	/* the key (lo's low 32 bits zero) */
	uint32_t game;		/* the game's id (the sink sets it) */
	uint32_t move;		/* zhi_move_code, 0: no move (the last
				   position indexed) */
	uint16_t rating;	/* the board's players' mean rating, 0
				   if unknown */
	uint16_t month;		/* year * 12 + month - 1, 0 if unknown */
	uint8_t result;		/* ZHI_WHITE ..., for the board's White */
	uint8_t board;		/* 0, or 1: board B of a bughouse game */
	uint8_t pad[2];
};

/* A game's row (the worker's header; strings point into its frame). */
struct zhi_game {
	long number, line;
	int elo[4];		/* White, Black (board A), White, Black (B) */
	int result;		/* ZHI_WHITE ... (board A's White) */
	int speed, month, boards, plies;
	const char *variant, *white, *black, *white_b, *black_b, *date,
	    *tc, *event, *site;
	const unsigned char *moves;	/* its stored moves (tail.c), NULL
					   if none: two boards, a set-up
					   start */
	size_t nmoves;
};

/* A position's key: libzh's zh_pos_key; under the environment's
   ZHINDEX_TEST_HIGH_BITS=n (tests only) the high half keeps n bits, so
   that keys share their high half and the rare path is taken. */
struct zh_key zhi_key(const struct zh_pos *p);
extern uint64_t zhi_high_mask;
void zhi_key_setup(void);

/* The move's code: ((from * 100 + to) * 16 + piece) + 1, squares by the
   10x10 grid of zhkit-arrays(5), a drop from square 100. */
uint32_t zhi_move_code(struct zh_move m);
/* The speed (index of zhi_speeds) of a TimeControl tag's value. */
int zhi_speed(const char *tc);
/* "2019.10.28" to year * 12 + month - 1; 0 if none. */
int zhi_month(const char *date);

/* A worker's output of one game: its frame (header, strings, records),
   and the walk that makes them (rec.c's). */
struct zhi_out {
	unsigned char *buf;
	size_t len, cap;
	size_t nrec;
	bool fail;
	struct zhi_walk *walk;
};
void zhi_out_free(struct zhi_out *o);
/* Before zh_replay(g, ..., r): r->watch set so that the positions of a
   game of one board are keyed as the replay makes them (its moves not
   made again); 0, or -1 out of memory (nothing set). */
int zhi_game_watch(struct zhi_out *o, const struct zh_game *g,
    struct zh_replay *r, int plies);
/* The frame of g replayed into r (r->started), its first 'plies' plies
   (from the replay's watch if it was zhi_game_watch's, else walked
   here); 0, or -1 out of memory. */
int zhi_game_records(struct zhi_out *o, const struct zh_game *g,
    const struct zh_replay *r, struct zh_lines *w, int plies);
/* A frame read back: its header into *gm, its records at *recs;
   the frame's length, 0 if buf holds no whole frame yet. */
size_t zhi_frame(const unsigned char *buf, size_t len, struct zhi_game *gm,
    const struct zhi_rec **recs, size_t *nrec);

/* ---------------- a game's stored moves, the tails (tail.c) ---------------- */
/* m's index among p's legal moves into b[2]: its length, 0 if m is not
   legal there. */
size_t zhi_move_put(const struct zh_pos *p, struct zh_move m, unsigned char *b);
/* The game of stored moves b[0..n) from v's start played back:
   cb(arg, key, code) for each position of its first plies with the
   move's code, then the last one with 0 (zhi_game_records' records).
   With t, only the positions that may be t (side, pieces and pockets
   alike) are keyed and given.  0, the callback's non-zero return, or
   -1 if b is not legal moves. */
int zhi_moves_walk(const struct zh_variant *v, const unsigned char *b,
    size_t n, const struct zh_pos *t,
    int (*cb)(void *arg, struct zh_key k, uint32_t code), void *arg);
/* A tails entry's fingerprint: the top byte of the key's low half. */
unsigned zhi_tail_fp(uint64_t lo);
/* The games of a tails row's entries of fingerprint fp, ascending,
   each once, at most max, into g: their number, -1 if the row is bad. */
long zhi_tail_games(const unsigned char *b, size_t n, unsigned fp,
    uint32_t *g, size_t max);

/* ---------------- the sorter ---------------- */
struct zhi_sort;
/* 'memory' bytes for the records held (runs spilled past it) in
   directory 'dir'; NULL out of memory. */
struct zhi_sort *zhi_sort_new(size_t memory, const char *dir);
int zhi_sort_add(struct zhi_sort *s, const struct zhi_rec *r);	/* 0 or -1 */
/* n threads to sort the last records held at zhi_sort_finish while
   zhi_sort_next takes them (0: the caller sorts them first). */
void zhi_sort_threads(struct zhi_sort *s, int n);
/* The records added, merged: 0, or -1 on an I/O error (errno). */
int zhi_sort_finish(struct zhi_sort *s);
/* The next merged record: 1, 0 at the end, -1 on a read error. */
int zhi_sort_next(struct zhi_sort *s, struct zhi_rec *r);
long zhi_sort_runs(const struct zhi_sort *s);
long zhi_sort_count(const struct zhi_sort *s);	/* records added */
void zhi_sort_free(struct zhi_sort *s);

/* ---------------- the SQLite file ---------------- */
/* A key's id for the rows of positions and tails: its high 63 bits; a
   row's id is its first key's, and holds the keys up to the next row's
   (about ZHI_ROW bytes of positions, ZHI_TAILROW tails entries). */
#define ZHI_ROW		400
#define ZHI_TAILROW	256
#define ZHI_TAILMAX	8	/* a position of this many records or
				   fewer, all of games whose moves are
				   stored: in the tails */
int64_t zhi_row_id(uint64_t hi);
struct zhi_db;
/* A new index at a temporary name beside 'path'; NULL after a message. */
struct zhi_db *zhi_db_create(const char *path, int plies, size_t memory);
/* An input's row; its id. */
int zhi_db_input(struct zhi_db *d, const char *name, long *id);
/* The next game's row (input 'input'): its id in *id. */
int zhi_db_game(struct zhi_db *d, long input, const struct zhi_game *gm,
    uint32_t *id);
/* The positions from the sorted records: 0 or -1 (said). */
int zhi_db_positions(struct zhi_db *d, struct zhi_sort *s);
/* The counts, then the file renamed over its name: 0, or -1 (said; the
   temporary file removed, the old file whole). */
int zhi_db_commit(struct zhi_db *d);
void zhi_db_abort(struct zhi_db *d);
long zhi_db_games(const struct zhi_db *d);
/* An old index's inputs, games and records into d and s (its ids after
   d's games): add and merge.  0, or -1 (said). */
int zhi_db_import(struct zhi_db *d, struct zhi_sort *s, const char *path,
    int plies);

/* ---------------- reading ---------------- */
struct zhi_reader;
/* Open an index to read: NULL after one message ("not a zhindex index",
   "schema version N", ...). */
struct zhi_reader *zhi_open(const char *path);
void zhi_close(struct zhi_reader *x);
int zhi_plies(const struct zhi_reader *x);
/* Position p's row (its key's; of the tails, the games that may reach p
   played back): 1 found (blobs copied into x), 0 not, -1 error. */
int zhi_lookup(struct zhi_reader *x, const struct zh_pos *p);
const unsigned char *zhi_row_moves(const struct zhi_reader *x, size_t *n);
const unsigned char *zhi_row_games(const struct zhi_reader *x, size_t *n);
const unsigned char *zhi_row_top(const struct zhi_reader *x, size_t *n);
/* A game's row for the lists and filters: 0, or -1. */
struct zhi_grow {
	long id, input, number, line;
	int result, speed, month, rating[2], elo[4];
	char white[128], black[128], white_b[128], black_b[128], date[32],
	    site[256], file[512], variant[32];
};
int zhi_game_row(struct zhi_reader *x, long id, struct zhi_grow *gr);
const char *zhi_meta(struct zhi_reader *x, const char *name, char *buf,
    size_t size);

/* ---------------- the blobs ---------------- */
/* A varint (7 bits a byte, low first) into b: its length. */
size_t zhi_put(unsigned char *b, uint64_t v);
/* Read one at *p (before end): 0, or -1 if cut or over 64 bits. */
int zhi_get(const unsigned char **p, const unsigned char *end, uint64_t *v);

/* One move of a position's moves blob. */
struct zhi_move {
	uint32_t code;
	uint64_t n[3];		/* white wins, draws, black wins */
	uint64_t rsum, rated;	/* the rating sum over 'rated' games */
	uint64_t first, last;	/* game ids */
};
/* The moves blob: count, then per move code, W, D, B, rated, rating
   sum, first, last - first. Decoded into m (up to max): their number,
   or -1 if the blob is bad. */
long zhi_moves_decode(const unsigned char *b, size_t n, struct zhi_move *m,
    size_t max);
/* A position's records (sorted by game, move, board) and the blobs
   made from them (blob.c): the writer's, and a reader's for positions
   of the tails. */
struct zhi_grp {
	struct zhi_move *m;	/* by code */
	size_t nm, mcap;
	struct zhi_rec *g;	/* the records, in order */
	size_t ng, gcap;
	unsigned char *b;	/* blob scratch */
	size_t bcap;
};
int zhi_grp_add(struct zhi_grp *x, const struct zhi_rec *r);	/* 0, -1 */
int zhi_grp_moves(struct zhi_grp *x);	/* x->m from x->g: 0, -1 */
unsigned char *zhi_grp_room(struct zhi_grp *x, size_t n);
/* The moves blob of x into b: its length. */
size_t zhi_grp_moves_blob(struct zhi_grp *x, unsigned char *b);
size_t zhi_grp_move_index(const struct zhi_grp *x, uint32_t code);
/* The games blob of x into b: its length. */
size_t zhi_grp_games_blob(const struct zhi_grp *x, unsigned char *b);

/* One entry of a games blob: game id, the move's index in the moves
   blob (0-based), board. */
struct zhi_gref {
	uint32_t game;
	uint32_t move;
	uint8_t board;
};
/* One position of a bucket's blob: its key (ZHI_KEYLEN bytes), then
   each blob after its length (games and top of length 0: none). */
struct zhi_entry {
	const unsigned char *key, *moves, *games, *top;
	size_t nmoves, ngames, ntop;
};
/* The entry at *p (before end), *p moved past it: 1, 0 at the end, -1
   if cut or its lengths run past the end. */
int zhi_bucket_next(const unsigned char **p, const unsigned char *end,
    struct zhi_entry *e);
long zhi_games_decode(const unsigned char *b, size_t n, struct zhi_gref *g,
    size_t max);
#endif
