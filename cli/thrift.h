/*
 * thrift.h - the Thrift compact protocol, as Parquet's file metadata and
 * page headers use it (the Thrift specification's
 * doc/specs/thrift-compact-protocol.md; parquet-format's parquet.thrift
 * names the fields).
 *
 * A writer into a growable buffer, and a reader of hostile bytes: every
 * length is checked against the bytes left, lists are bounded by them,
 * nesting by THRIFT_MAXDEPTH, and the first fault stops the reader with
 * a reason and the byte it was found at (thrift_error()).
 */
#ifndef THRIFT_H
#define THRIFT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The compact protocol's types (a field header's low nibble). */
enum {
	TT_STOP = 0, TT_TRUE = 1, TT_FALSE = 2, TT_BYTE = 3, TT_I16 = 4,
	TT_I32 = 5, TT_I64 = 6, TT_DOUBLE = 7, TT_BINARY = 8, TT_LIST = 9,
	TT_SET = 10, TT_MAP = 11, TT_STRUCT = 12
};

#define THRIFT_MAXDEPTH	32	/* structs and containers, one in another */

/* ------------------------------ writing ------------------------------ */

struct thrift_w {
	unsigned char *buf;
	size_t len, cap;
	int16_t last[THRIFT_MAXDEPTH];	/* the last field id of each struct */
	int depth;
	bool fail;			/* out of memory or too deep */
};

/* A field header of the current struct (ids in increasing order are
   the short form's). */
void tw_field(struct thrift_w *w, int id, int type);
/* A boolean field (its value is its header's type). */
void tw_bool(struct thrift_w *w, int id, bool v);
void tw_i32(struct thrift_w *w, int32_t v);	/* also i16, i8 as i32 */
void tw_i64(struct thrift_w *w, int64_t v);
void tw_binary(struct thrift_w *w, const void *p, size_t n);
void tw_list(struct thrift_w *w, int elemtype, size_t n);
/* A struct begins (after its field header or as a list element), ends
   (its stop byte). */
void tw_begin(struct thrift_w *w);
void tw_end(struct thrift_w *w);
/* Field shorthands: an i32 / i64 / binary / string field. */
void tw_fi32(struct thrift_w *w, int id, int32_t v);
void tw_fi64(struct thrift_w *w, int id, int64_t v);
void tw_fbin(struct thrift_w *w, int id, const void *p, size_t n);
void tw_fstr(struct thrift_w *w, int id, const char *s);
/* Bytes already encoded (a struct written by another writer). */
void tw_raw(struct thrift_w *w, const void *p, size_t n);
void tw_free(struct thrift_w *w);

/* ------------------------------ reading ------------------------------ */

struct thrift_r {
	const unsigned char *start, *p, *end;
	int16_t last[THRIFT_MAXDEPTH];
	int depth;
	int btype;		/* a boolean field's value (TT_TRUE/TT_FALSE) */
	char err[96];		/* the first fault, "" if none */
};

void tr_init(struct thrift_r *r, const void *p, size_t n);
/* The next field of the current struct: 1 (its id and type in *id,
   *type), 0 at its stop, -1 on a fault. */
int tr_field(struct thrift_r *r, int *id, int *type);
/* Values (the type given is the field's or the list's, checked). */
int32_t tr_i32(struct thrift_r *r, int type);
int64_t tr_i64(struct thrift_r *r, int type);
bool tr_bool(struct thrift_r *r, int type);
/* A binary's bytes (in the input) and length; NULL on a fault. */
const unsigned char *tr_binary(struct thrift_r *r, int type, size_t *n);
/* A list or set header: its element count (bounded by the bytes left),
   -1 on a fault; its element type in *elem. */
long tr_list(struct thrift_r *r, int type, int *elem);
/* A struct begins (after its field header or as a list element); ends
   (after tr_field returned 0). */
bool tr_begin(struct thrift_r *r, int type);
void tr_end(struct thrift_r *r);
/* A value of that type skipped, whatever it holds: false on a fault. */
bool tr_skip(struct thrift_r *r, int type);
/* The first fault: "REASON at byte N", or NULL. */
const char *thrift_error(const struct thrift_r *r);
/* A fault said (the first one kept); false returned. */
bool tr_fail(struct thrift_r *r, const char *why);

#endif
