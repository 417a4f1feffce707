/*
 * pieces.h - a PGN input cut into pieces between games, for -j.
 *
 * The main thread reads bytes and cuts them into pieces, each just
 * before a line that starts "[Event " (pieces_cut, pieces_take); a
 * worker reads the games of a piece in place (piece_read, piece_next)
 * and then checks that the piece could be read alone (piece_held).
 * A piece's lines and games are numbered as in one stream, from counts
 * of the line ends and "[Event " lines of the pieces before it: a guess,
 * which piece_held() checks.  Where it did not hold, the pieces from
 * there on, the bytes not yet in a piece and the rest of the input are
 * read by one reader again (pieces_again, pieces_rest).
 *
 * This file and pieces.c alone use libzh's calls for it (zh_pgn_cut,
 * zh_pgn_count, zh_pgn_mem, zh_pgn_mem_clean, zh_pgn_set_base); the
 * threads are jobs.c's.
 */
#ifndef PIECES_H
#define PIECES_H
#include <stdio.h>
#include "zh.h"

struct piece {
	char *buf;		/* the bytes, ZH_PGN_PAD zero bytes after */
	size_t len, cap;
	long lbase, gbase;	/* lines and games before it (guessed) */
	long nlines, ngames;	/* its line ends and "[Event " lines */
	long nread;		/* games piece_next() gave */
	bool last;		/* it ends the input: no guess to check */
};

struct pieces {
	FILE *in;
	char *pend;		/* bytes read, not yet in a piece */
	size_t plen, pcap;
	size_t cut;		/* where the next piece ends in pend */
	size_t target;		/* bytes of a piece, about */
	long lines, games;	/* counted in the pieces given out */
	bool eof, first;
	bool rerr;		/* the input could not be read */
	bool nomem;		/* out of memory (said) */
	struct pieces_rest *rest;	/* the fallback reader's bytes */
};

enum { PIECES_END, PIECES_READY, PIECES_NOCUT };

/* Start cutting in (ZH_JOBS_CHUNK=N in the environment: pieces of N bytes,
   for tests). */
void pieces_open(struct pieces *ps, FILE *in);
/*
 * Read on to where the next piece ends: PIECES_READY (take it), or
 * PIECES_END at the end of the input, or PIECES_NOCUT if no line starts
 * a game in the largest piece allowed (one reader must go on from here).
 */
int pieces_cut(struct pieces *ps);
/* Move the piece found into p (p's old buffer holds the bytes after
   it); 0, or -1 out of memory (said). */
int pieces_take(struct pieces *ps, struct piece *p);

/* A worker: start reading the games of p with *r (made or reused);
   NULL if out of memory. */
struct zh_pgn_reader *piece_read(struct piece *p, struct zh_pgn_reader **r,
    const struct zh_pgn_limits *lim);
/* Its next game: as zh_pgn_next(), and -1 once it has more games than
   guessed. */
int piece_next(struct piece *p, struct zh_pgn_reader *r, struct zh_game *g);
/* After piece_next() returned 0: did the guess hold, so that its games
   are those one reader of the whole input would have read? */
bool piece_held(const struct piece *p, const struct zh_pgn_reader *r);

/*
 * The fallback: pieces_again() on each piece given out but not written
 * (in order, from the first whose guess failed), then pieces_rest()
 * makes one reader over them, the bytes not yet in a piece and the rest
 * of the input, numbered from the first piece's base (or on from the
 * last piece given out).  NULL if out of memory (said).  The reader and
 * all else are freed by pieces_close(), after which p's buffers are the
 * caller's to free.
 */
int pieces_again(struct pieces *ps, const struct piece *p);
struct zh_pgn_reader *pieces_rest(struct pieces *ps,
    const struct zh_pgn_limits *lim);
void pieces_close(struct pieces *ps);
#endif
