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

#endif
