/*
 * format.h - zhreplay's output formats, each a row of one table
 * (formats.c): its name, the tools that offer it, what it needs from
 * the replay, and its functions for the run (check, open, input, close)
 * and for each game (begin, every position of one board or two, end).
 * zhreplay.c picks a row by the name -F gives and calls it; it never
 * asks which format it runs.  Adding a format is adding its row and its
 * file here, and its documentation (man/zhreplay.1, completion,
 * cmd/README.md): tests/formats.bats checks all four agree.
 */
#ifndef FORMAT_H
#define FORMAT_H
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "clean.h"
#include "cli.h"
#include "jobs.h"
#include "npy.h"
#include "parquet_write.h"
#include "pic.h"
#include "planes.h"
#include "selopts.h"

struct format;

/* The run's options and counters (zhreplay.c's, read by the rows). */
struct opts {
	const struct format *fmt;	/* -F's row */
	int dialect;
	const struct zh_variant *force;
	const struct zh_variant *defvar;	/* --default-variant */
	struct zh_plysel sel;
	bool variations;
	unsigned diag;			/* ZH_DIAG_* */
	long games, bad;		/* counted by done() */
	const char *name;		/* current input's name */
	FILE *out;			/* where a game's output goes */
	FILE *rejects;			/* --rejects: the games with errors */
	struct npy *npy;		/* -F npy, parquet: the arrays (npy.h) */
	const char *compression;	/* -F parquet's codec (--compression) */
	struct planes *planes;		/* -F planes: the tensors (planes.h) */
	struct planes_opts popt;
	struct jobs *jobs;
	struct sel gsel;		/* which games (selopts.h) */
	struct clean clean;		/* --split, --split-by (clean.h) */
	struct pic_opts pic;		/* -F svg, png, gif (pic.h) */
};

/* Per worker: the replay, the lines, and the game's output buffer. */
struct state {
	struct zh_replay r;
	const struct zh_game *g;	/* the game being written */
	struct zh_lines lines;
	struct zh_select_scratch sc;
	struct npy_rec npy;		/* -F npy: the game's records */
	struct planes_rec planes;	/* -F planes: the game's records */
	char *buf;
	size_t len, cap;
	const struct opts *o;
	bool fail;			/* out of memory */
	bool moves;			/* ucipos: " moves" written */
	bool bad;			/* the game has an error */
	struct pic pic;			/* -F svg, png, gif */
};

/* What a format needs from the replay (a row's 'needs'). */
enum {
	FMT_SAN = 1,		/* the moves' SAN text */
	FMT_UCI = 2,		/* the moves' UCI text (neither: the
				   positions alone, the fast replay) */
	FMT_RECORDS = 4,	/* records, made from the positions (a
				   game of two boards needs its moves'
				   text too: their checks and mates);
				   -o is their directory */
	FMT_PICTURES = 8,	/* pictures; -o is their names' pattern */
	FMT_COMMENTS = 16	/* the clocks and evals of the comments */
};

/* The tools that offer a format of that name (a row's 'tools'). */
enum { TOOL_ZHREPLAY = 1, TOOL_ZHFEN = 2, TOOL_ZHPGN = 4 };

/* A game's begin: walk its positions, write nothing, or refuse it. */
enum { FMT_WALK, FMT_SKIP, FMT_REFUSED };

struct format {
	const char *name;
	unsigned tools;			/* TOOL_*: who offers the name */
	unsigned needs;			/* FMT_* */
	/* The run.  check: the options and -o's meaning, before the
	   outputs are opened (-o is the text output unless the format
	   has FMT_RECORDS or FMT_PICTURES); open: after them.  input: the next input's name.  close:
	   at the end.  0, or -1 (said: exit 2).  NULL: nothing to do. */
	int (*check)(struct opts *o, const char *outpath);
	int (*open)(struct opts *o, struct jobs *j, const char *outpath);
	void (*input)(struct opts *o, const char *name);
	int (*close)(struct opts *o);
	/* A game, after its replay (st->r, st->bad): FMT_*; NULL: walk. */
	int (*begin)(struct state *st, FILE *err);
	/* Each position (zh_replay_walk's callbacks; arg is the state):
	   0, or -1 when out of memory. */
	int (*ply)(void *st, const struct zh_ply *pl);
	int (*bply)(void *st, const struct zh_bply *pl);
	/* The game's end, its positions walked or not, before its text
	   (st->buf) is written to out: 0, 1 if the game failed (a picture
	   not written), -1 when out of memory, -2 if a write to out
	   failed.  NULL: nothing. */
	int (*end)(struct state *st, bool walked, FILE *out);
};

/* The table, in the order its names are offered; NULL-named at its end. */
extern const struct format formats[];
/* The row of name; NULL if none. */
const struct format *format_find(const char *name);
/* "fen, epd, ...": the names, for a message. */
const char *format_names(void);

/* The rows' functions (each format's file). */
int fen_ply(void *st, const struct zh_ply *pl);
int fen_bply(void *st, const struct zh_bply *pl);
int epd_ply(void *st, const struct zh_ply *pl);
int epd_bply(void *st, const struct zh_bply *pl);
int fen_end(struct state *st, bool walked, FILE *out);
int uci_ply(void *st, const struct zh_ply *pl);
int san_ply(void *st, const struct zh_ply *pl);
int uci_bply(void *st, const struct zh_bply *pl);
int san_bply(void *st, const struct zh_bply *pl);
int ucipos_begin(struct state *st, FILE *err);
int ucipos_ply(void *st, const struct zh_ply *pl);
int ucipos_bply(void *st, const struct zh_bply *pl);
int jsonl_ply(void *st, const struct zh_ply *pl);
int jsonl_bply(void *st, const struct zh_bply *pl);
int board_ply(void *st, const struct zh_ply *pl);
int board_bply(void *st, const struct zh_bply *pl);
int npy_open_dir(struct opts *o, struct jobs *j, const char *outpath);
int parquet_open_dir(struct opts *o, struct jobs *j, const char *outpath);
void npy_next_input(struct opts *o, const char *name);
int npy_close_dir(struct opts *o);
int npy_begin(struct state *st, FILE *err);
int npy_on_ply(void *st, const struct zh_ply *pl);
int npy_on_bply(void *st, const struct zh_bply *pl);
int npy_end(struct state *st, bool walked, FILE *out);
int planes_open_dir(struct opts *o, struct jobs *j, const char *outpath);
void planes_next_input(struct opts *o, const char *name);
int planes_close_dir(struct opts *o);
int planes_begin(struct state *st, FILE *err);
int planes_on_ply(void *st, const struct zh_ply *pl);
int planes_on_bply(void *st, const struct zh_bply *pl);
int planes_end(struct state *st, bool walked, FILE *out);
int pic_check(struct opts *o, const char *outpath);
int pic_ply(void *st, const struct zh_ply *pl);
int pic_bply(void *st, const struct zh_bply *pl);
int pic_end(struct state *st, bool walked, FILE *out);
int gif_ply(void *st, const struct zh_ply *pl);
int gif_bply(void *st, const struct zh_bply *pl);
int gif_end(struct state *st, bool walked, FILE *out);

/* ======================== the game's text ======================== */

/* Room for n more bytes of the game's text grown (out.c); NULL if out
   of memory (st->fail set). */
char *text_grow(struct state *st, size_t n);

static inline char *
reserve(struct state *st, size_t n)
{
	if (st->len + n > st->cap)
		return text_grow(st, n);
	return st->buf + st->len;
}

static inline void
emit(struct state *st, const char *s, size_t n)
{
	char *p = reserve(st, n);

	if (p != NULL) {
		memcpy(p, s, n);
		st->len += n;
	}
}

/* A position of a line-per-position format (fen, epd, board): a
   variation's first position opens its block with a blank line; true if
   the selection takes pl. */
static inline bool
text_take(struct state *st, const struct zh_ply *pl)
{
	if (pl->ply == 0 && pl->line > 0)
		emit(st, "\n", 1);		/* a variation's block */
	return zh_plysel_match(&st->o->sel, pl);
}
#endif
