/*
 * parquet_write.h - a table of fixed-size records written as an Apache
 * Parquet file (parquet-format's specification), one column for each
 * field of the record, all REQUIRED (flat, no nulls).
 *
 * The writer knows nothing of chess: it is told each column's name,
 * kind (the record's bytes and the Parquet type they become), offset
 * and width in the record.  Records are given in any number of calls;
 * every PQW_GROUP_BYTES of them (PQW_GROUP_ROWS at most) make a row
 * group, written at once: the memory is one row group's records and
 * their encoded pages, whatever the table's size.  A table with no
 * column that may be null and no PQW_STR, on more than one core, is
 * kept by columns instead, and a full row group's column chunks are
 * encoded by threads (one a core, up to four) while the next one fills
 * (the memory: two row groups).  Each column chunk has its min/max
 * statistics; a column whose values repeat is written with a dictionary
 * (RLE_DICTIONARY), others PLAIN; pages are compressed with zstd
 * (default), snappy, gzip or none.  The same records give the same
 * bytes, whatever the threads.
 */
#ifndef PARQUET_WRITE_H
#define PARQUET_WRITE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A column's kind: the record's bytes (little-endian) and what they are
   written as. */
enum pqw_kind {
	PQW_BOOL,	/* 1 byte, 0 or not: BOOLEAN */
	PQW_U8, PQW_I8, PQW_U16, PQW_I16, PQW_U32, PQW_I32,
			/* INT32 with the INTEGER(bits, signed) type */
	PQW_U64, PQW_I64,	/* INT64 (UINTEGER(64) for U64) */
	PQW_DATE,	/* 4 bytes, days since 1970-01-01: INT32 DATE */
	PQW_TIME,	/* 4 bytes, milliseconds since midnight: INT32
			   TIME(MILLIS), UTC-adjusted (as pyarrow writes
			   a time32) */
	PQW_FIXED,	/* width bytes: FIXED_LEN_BYTE_ARRAY(width) */
	PQW_TEXT,	/* width bytes, NUL-padded: a BYTE_ARRAY STRING of
			   the bytes before the first NUL */
	PQW_STR		/* 8 bytes, a string of any length: its offset and
			   length (4 bytes each) in the bytes given with
			   the record (pqw_row()): a BYTE_ARRAY STRING */
};

#define PQW_GROUP_ROWS	122880		/* a row group's rows at most */
#define PQW_GROUP_BYTES	(16u << 20)	/* and its records' bytes */

struct pqw;

/* A writer for records of recsize bytes, its pages compressed by
   'codec' ("zstd", "snappy", "gzip", "none") at 'level' (zstd, gzip;
   0: the codec's default).  NULL if the codec is unknown or out of
   memory. */
struct pqw *pqw_new(size_t recsize, const char *codec, int level);
/* At most n rows a row group (n > 0; fewer if they make more than
   PQW_GROUP_BYTES), before pqw_begin(): 0, or -1 if out of memory (or
   after pqw_begin()). */
int pqw_group_rows(struct pqw *w, size_t n);
/* A column of the records: 0, or -1 if it lies outside the record. */
int pqw_column(struct pqw *w, const char *name, enum pqw_kind kind,
    size_t offset, size_t width);
/* A column that may be null: its value is present when the byte at
   nulloff in the record is not 0.  0, or -1. */
int pqw_column_opt(struct pqw *w, const char *name, enum pqw_kind kind,
    size_t offset, size_t width, size_t nulloff);
/* A NumPy field of the record (npy.c's table: name, dtype "<u4", "|S8",
   shape "(2, 8)" or NULL) at offset, as its columns: each element of
   an axis of two or eight a column of its own (a board's "a"/"b" when
   by_board and the axis is the first, then a colour's "white"/"black",
   a piece's "pawn" ... "chancellor"), any other shape one
   FIXED_LEN_BYTE_ARRAY of its bytes.  The field's bytes returned, 0 if
   not understood. */
size_t pqw_npy_field(struct pqw *w, const char *name, const char *type,
    const char *shape, size_t offset, bool by_board);
/* The file begins on f (at its start: "PAR1"): 0, or -1 (errno). */
int pqw_begin(struct pqw *w, FILE *f);
/* n records: 0, or -1 if a write failed (errno). */
int pqw_rows(struct pqw *w, const unsigned char *recs, size_t n);
/* One record whose PQW_STR columns point into heap[0..heaplen): 0, or
   -1 if a write failed (errno).  A row group also ends when its strings
   make PQW_GROUP_BYTES. */
int pqw_row(struct pqw *w, const unsigned char *rec, const void *heap,
    size_t heaplen);
/* The last row group and the footer: 0, or -1 (errno).  f is not
   closed. */
int pqw_end(struct pqw *w, const char *created_by);
void pqw_free(struct pqw *w);
/* A codec's name is one the writer knows. */
bool pqw_codec_known(const char *codec);

#endif
