/*
 * flatrows.h - the rows of the Lichess datasets on Hugging Face as JSON
 * Lines (as DuckDB exports them: one object a game, its tags as keys,
 * its moves in "movetext"), read as PGN text, as parquet_read.h reads
 * the same rows from Parquet.
 */
#ifndef FLATROWS_H
#define FLATROWS_H
#include <stdbool.h>
#include <stdio.h>

/* Is f a file (not a pipe) whose first line is such a row: a JSON
   object with a string "movetext" and no "tags"? */
bool flatrows_input(FILE *f);
/* f as a stream of PGN text (closing it closes f); NULL if out of
   memory.  A line that is not such a row is a game of its own that
   fails ("not a dataset row") where the PGN reader reads it. */
FILE *flatrows_ropen(FILE *f);
/* s, a stream (a pipe, a decompressed input), as the tools should read
   it: its first line looked at, and if a dataset row, the stream of
   its rows as PGN text; if it starts with Parquet's magic, a stream
   that fails saying a Parquet input must be a file; else s as it was
   (itself, or what it looked at given back first).  Closing the new
   stream closes s.  NULL (s still open) if out of memory. */
FILE *flatrows_sniff(FILE *s);
/* The stream under s if s is one of the streams made here (all the way
   down), else s: for what codec.c says of its own streams. */
FILE *flatrows_under(FILE *s);

#endif
