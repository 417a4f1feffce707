/*
 * npy.h - zhreplay -F npy: positions as NumPy arrays (zhkit-arrays(5)).
 *
 * Two halves.  A worker builds one game's records into a struct
 * npy_rec (npy_game_begin, npy_ply or npy_bply for each position,
 * npy_game_end) and writes them as the game's output, like any format;
 * the jobs' ordered output goes to npy_sink()'s stream, which numbers
 * the games and records across inputs in input order and sends each
 * record to its table: DIR/positions.npy (one-board games),
 * DIR/bughouse.npy (two-board games), DIR/games.npy, DIR/strings.npy
 * (the games' text fields, each game's after its record), and at the end
 * DIR/files.npy (the inputs' names).  The same bytes for any -j.
 */
#ifndef NPY_H
#define NPY_H
#include <stdio.h>
#include "zh.h"

/* One worker's records of one game. */
struct npy_rec {
	unsigned char *buf;		/* the game's record, then its
					   positions' */
	size_t len, cap;
	struct zh_posrec *seen;		/* every position of the game
					   (two a half-move in bughouse),
					   for the repetitions */
	uint64_t *keys;			/* the positions' keys */
	size_t *locs;			/* a one-board game's positions:
					   where each one's record is (in
					   buf, or, not written, in aux) */
	size_t nseen, seencap, keycap;	/* nseen: boards in seen (two
					   boards), positions (one) */
	unsigned char *aux;		/* the records not written */
	size_t auxlen, auxcap;
	struct npy_slot {		/* the positions by key: open
					   addressing, a slot of another
					   game (gen) is empty */
		uint32_t gen, pos, count;
	} *slot;
	size_t nslot;			/* a power of two */
	uint32_t gen;			/* the game's */
	long last;			/* offset of the last record
					   written (its move is the next
					   position's), -1 if none */
	long records;
	long plies;			/* the last position's ply */
	int clock[2][2];		/* [board][colour], ms */
	bool two;			/* a bughouse game */
	signed char result;		/* White's (board A's) view */
	const char *rtext;		/* the last ply's result text */
	signed char rcode;		/* and its result_code() */
	bool fail;			/* out of memory */
};

/* A game begins: its record from g's tags, g replayed into r (its
   variant r->v; its result zh_replay_result's). */
void npy_game_begin(struct npy_rec *w, const struct zh_game *g,
    const struct zh_replay *r);
/* A position of a one-board game's mainline; a two-board game's.  Its
   record is written if sel takes it.  0, or -1 if out of memory. */
int npy_ply(struct npy_rec *w, const struct zh_ply *pl,
    const struct zh_plysel *sel);
int npy_bply(struct npy_rec *w, const struct zh_bply *pl,
    const struct zh_plysel *sel);
/* The game's end: then w->buf, w->len is its output. */
void npy_game_end(struct npy_rec *w);
void npy_rec_free(struct npy_rec *w);

struct npy;

/* The directory 'dir' (made if missing) and its tables opened: NULL if
   not (said). */
struct npy *npy_open(const char *dir);
/* The same, the tables written as Parquet files (zhreplay -F parquet,
   parquet_write.h) with that codec ("zstd", ...) if codec is not NULL. */
struct npy *npy_open_as(const char *dir, const char *codec);
/* The stream the games' output goes to (in input order). */
FILE *npy_sink(struct npy *n);
/* The next input's name: the games after it come from it. */
void npy_input(struct npy *n, const char *name);
/* The tables completed and closed: 0, or -1 if one could not be written
   (said).  Frees n. */
int npy_close(struct npy *n);

/*
 * The same tables kept in memory, for the Python module (python/): no
 * directory, no files, no writer thread; each table grows in a mapping
 * of its own (memtab.h: no byte copied, its pages faulted in ahead by
 * a helper thread).  The games' stream is npy_sink()'s as above,
 * npy_input() names the inputs, npy_mem_expect() says about how many
 * bytes of PGN come next (a guess, for the tables' first room; 0 if not
 * known).  npy_mem_take() hands table k's records over (a block the
 * caller frees with npy_mem_free(p, *size), NULL if none; their count
 * in *count) and empties it (the numbering goes on: a later game's
 * 'first' counts the records handed over before); after
 * npy_mem_failed() (out of memory) the tables are lost and none is
 * handed over.  npy_on_game() sets a function called
 * on the stream's thread before each game's record goes to its table
 * (where a chunk may be cut).  npy_header() is the .npy header of table
 * k with no record (its dict names the dtype).  NPY_STR is strings.npy's
 * bytes (a game's offsets count the bytes handed over before, as
 * 'first' does).
 * npy_close_mem() frees n: 0, or -1 if the stream was cut or memory ran
 * out.
 */
enum { NPY_POS, NPY_BUG, NPY_GAME, NPY_STR };
struct npy *npy_open_mem(void);
void npy_on_game(struct npy *n, void (*fn)(void *arg, struct npy *n),
    void *arg);
void npy_mem_expect(struct npy *n, uint64_t bytes);
uint64_t npy_mem_count(const struct npy *n, int k);
unsigned char *npy_mem_take(struct npy *n, int k, uint64_t *count,
    size_t *size);
void npy_mem_free(void *p, size_t size);
/* The memory of the tables freed, kept for the next (memtab.h's pool),
   given back to the system: its bytes. */
size_t npy_mem_trim(void);
bool npy_mem_failed(const struct npy *n);
size_t npy_header(int k, char *buf, size_t size);
size_t npy_recsize(int k);		/* a record's bytes */
size_t npy_mem_files(const struct npy *n, char *const **names);
int npy_close_mem(struct npy *n);

#endif
