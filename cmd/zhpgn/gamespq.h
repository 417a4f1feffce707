/*
 * gamespq.h - zhpgn -F parquet: one row a game, in the layout of the
 * Lichess datasets on Hugging Face (Lichess/standard-chess-games,
 * Lichess/crazyhouse-chess-games: a column a PGN tag, the moves in
 * "movetext"), plus zhkit's columns (uci, plies, variant, valid, error);
 * the columns are in zhpgn(1).
 *
 * A worker makes a game's row (gamespq_row) and writes it as the game's
 * output, like any format; the jobs' ordered output goes to
 * gamespq_sink()'s stream, which hands the rows, in input order, to the
 * Parquet writer (parquet_write.h) over the named output.
 */
#ifndef GAMESPQ_H
#define GAMESPQ_H
#include <stdbool.h>
#include <stdio.h>
#include "zh.h"

struct gamespq;

/* A game's row to out: its tags, its movetext (text[0..len), as the PGN
   writer wrote it, or NULL: from its raw text), its replay's UCI moves,
   its variant, and 'error' (NULL if valid).  0, or -1 (write error). */
int gamespq_row(FILE *out, const struct zh_game *g, const struct zh_replay *r,
    const struct zh_variant *v, const char *text, size_t len,
    const char *error);
/* The writer over out (the output named name, left open), its pages
   compressed by codec: NULL if out of memory or not writable (said). */
struct gamespq *gamespq_open(FILE *out, const char *name,
    const char *codec);
FILE *gamespq_sink(struct gamespq *q);
/* The rows' end: the footer written; 0, or -1 (said, or left to the
   output's close if the output refused a write).  Frees q. */
int gamespq_close(struct gamespq *q);

#endif
