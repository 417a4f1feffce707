/*
 * parquet_read.h - a Parquet file of games in the layout of the Lichess
 * datasets on Hugging Face (a column a PGN tag, the moves in
 * "movetext") read as PGN text, so that every tool reads it through its
 * PGN reader.
 *
 * The file is read a row group at a time (the memory is about one row
 * group's columns, whatever the file's size).  Accepted: flat schemas
 * (required or optional columns), PLAIN and dictionary encodings,
 * RLE/bit-packed levels, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY,
 * DELTA_BYTE_ARRAY, data pages v1 and v2, and the codecs none, snappy,
 * gzip, zstd, lz4_raw and brotli.  Anything else (nested columns,
 * encryption, another codec or encoding) is an error naming it.
 */
#ifndef PARQUET_READ_H
#define PARQUET_READ_H
#include <stdbool.h>
#include <stdio.h>

/* Does b (n bytes, a file's first) start with Parquet's magic? */
bool pqr_magic(const void *b, size_t n);
/* f, a Parquet file at its start, as a stream of PGN text (closing it
   closes f, unless f is stdin); NULL if out of memory.  A file that
   cannot be read fails the stream's first read (pqr_error says why). */
FILE *pqr_ropen(FILE *f);
/* "TAG=COLUMN": that column (a dataset row's key) is read as that tag,
   or as the moves if TAG is "movetext"; before any input is opened.  0,
   or -1 if spec is not of that form (or too many are given). */
int pqr_column_map(const char *spec);
/* The tag column 'name' (n bytes) is read as (its own name if none
   maps it; *n set), and whether it is the moves. */
const char *pqr_column_tag(const char *name, size_t *n, bool *moves);
/* A row's tag pair [NAME "VALUE"] and newline into out (room for
   nn + 2 * n + 6 bytes): the name's bytes that are no PGN name
   character as '_', the value's quotes and backslashes escaped and its
   line breaks as spaces, so a row's text cannot end its game; its
   length, 0 (nothing written) for an empty name. */
size_t pqr_tag_pair(char *out, const char *name, size_t nn, const char *v,
    size_t n);
/* A row's move text v (n bytes) into out (room for 2 * n + 1 bytes) as the
   moves of one game, whatever it holds: its line breaks as spaces; a
   '[' outside a comment that PGN would take for the next game's tags
   followed by a DEL byte (an "unexpected '['" error of this game); text
   after its result that starts with '[' preceded by one (skipped as
   text between games, not a game of its own).  Its length; *tail NULL
   if it has its result, else what goes before one ("\n" after a ';'
   comment, else " "). */
size_t pqr_movetext(char *out, const char *v, size_t n, const char **tail);
/* The result a row without one in its move text ends with: its Result
   tag's value v (n bytes) if a result, else "*". */
const char *pqr_result(const char *v, size_t n);
/* The tag a row with none is read with, so that its game starts with a
   tag pair as the reader resynchronises on one. */
#define NOTAG	"[Event \"?\"]\n"
/* The bit of 'tag' (n bytes) among the Seven Tag Roster's tags but
   Result, 0 if not one. */
unsigned pqr_roster_bit(const char *tag, size_t n);
/* The tag pairs of the roster's tags (but Result) not in 'have' (their
   bits), each with PGN's value for unknown ("?", Date "????.??.??"): a
   row is read with them when its file has no column for the tag, so it
   is the game in PGN's export form (its Date and Round checked, not
   missing).  Into b (size bytes; 160 hold them all); the length. */
size_t pqr_roster_fill(unsigned have, char *b, size_t size);
/* Why the stream f (from pqr_ropen) failed: "parquet: REASON", or NULL
   if f is not one or has not failed. */
const char *pqr_error(FILE *f);

#endif
