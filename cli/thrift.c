/*
 * thrift.c - the Thrift compact protocol (thrift.h).
 *
 * The encoding, from the Thrift specification (thrift-compact-protocol):
 * integers are ZigZag varints (7 bits a byte, low first); a field header
 * is one byte, the id's delta from the struct's last id in the high
 * nibble (1 to 15) and the type in the low one, or a type byte and the
 * id as a ZigZag varint; a boolean field's value is its type (1 true,
 * 2 false); a binary is a varint length and the bytes; a list or set is
 * one byte (count < 15 in the high nibble, else 15 and a varint count)
 * with the element type; a map is a varint count and, if not empty, a
 * byte of key and value types; a struct ends at a 0 byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "thrift.h"

/* ======================== writing ======================== */

static void
put(struct thrift_w *w, const void *p, size_t n)
{
	size_t cap;
	unsigned char *b;

	if (w->fail || n == 0)
		return;
	if (w->len + n > w->cap) {
		cap = w->cap ? w->cap : 256;
		while (cap < w->len + n)
			cap *= 2;
		if ((b = realloc(w->buf, cap)) == NULL) {
			w->fail = true;
			return;
		}
		w->buf = b;
		w->cap = cap;
	}
	memcpy(w->buf + w->len, p, n);
	w->len += n;
}

static void
varint(struct thrift_w *w, uint64_t v)
{
	unsigned char b[10];
	size_t n = 0;

	while (v >= 0x80) {
		b[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	b[n++] = (unsigned char)v;
	put(w, b, n);
}

static uint64_t
zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

void
tw_field(struct thrift_w *w, int id, int type)
{
	int16_t *last = &w->last[w->depth];
	unsigned char b;

	if (id > *last && id - *last <= 15) {
		b = (unsigned char)((id - *last) << 4 | type);
		put(w, &b, 1);
	} else {
		b = (unsigned char)type;
		put(w, &b, 1);
		varint(w, zigzag(id));
	}
	*last = (int16_t)id;
}

void
tw_bool(struct thrift_w *w, int id, bool v)
{
	tw_field(w, id, v ? TT_TRUE : TT_FALSE);
}

void
tw_i32(struct thrift_w *w, int32_t v)
{
	varint(w, zigzag(v));
}

void
tw_i64(struct thrift_w *w, int64_t v)
{
	varint(w, zigzag(v));
}

void
tw_binary(struct thrift_w *w, const void *p, size_t n)
{
	varint(w, n);
	put(w, p, n);
}

void
tw_list(struct thrift_w *w, int elemtype, size_t n)
{
	unsigned char b;

	if (n < 15) {
		b = (unsigned char)(n << 4 | (size_t)elemtype);
		put(w, &b, 1);
	} else {
		b = (unsigned char)(0xf0 | elemtype);
		put(w, &b, 1);
		varint(w, n);
	}
}

void
tw_begin(struct thrift_w *w)
{
	if (w->depth + 1 >= THRIFT_MAXDEPTH) {
		w->fail = true;
		return;
	}
	w->last[++w->depth] = 0;
}

void
tw_end(struct thrift_w *w)
{
	unsigned char b = 0;

	put(w, &b, 1);
	if (w->depth > 0)
		w->depth--;
}

void
tw_fi32(struct thrift_w *w, int id, int32_t v)
{
	tw_field(w, id, TT_I32);
	tw_i32(w, v);
}

void
tw_fi64(struct thrift_w *w, int id, int64_t v)
{
	tw_field(w, id, TT_I64);
	tw_i64(w, v);
}

void
tw_fbin(struct thrift_w *w, int id, const void *p, size_t n)
{
	tw_field(w, id, TT_BINARY);
	tw_binary(w, p, n);
}

void
tw_fstr(struct thrift_w *w, int id, const char *s)
{
	tw_fbin(w, id, s, strlen(s));
}

void
tw_raw(struct thrift_w *w, const void *p, size_t n)
{
	put(w, p, n);
}

void
tw_free(struct thrift_w *w)
{
	free(w->buf);
	memset(w, 0, sizeof *w);
}

/* ======================== reading ======================== */

void
tr_init(struct thrift_r *r, const void *p, size_t n)
{
	memset(r, 0, sizeof *r);
	r->start = r->p = p;
	r->end = r->p + n;
}

bool
tr_fail(struct thrift_r *r, const char *why)
{
	if (r->err[0] == '\0')
		snprintf(r->err, sizeof r->err, "%s at byte %ld", why,
		    (long)(r->p - r->start));
	r->p = r->end;		/* nothing more is read */
	return false;
}

const char *
thrift_error(const struct thrift_r *r)
{
	return r->err[0] != '\0' ? r->err : NULL;
}

static uint64_t
rvarint(struct thrift_r *r)
{
	uint64_t v = 0;
	int shift;

	for (shift = 0; shift < 64; shift += 7) {
		if (r->p >= r->end) {
			tr_fail(r, "metadata cut short");
			return 0;
		}
		v |= (uint64_t)(*r->p & 0x7f) << shift;
		if ((*r->p++ & 0x80) == 0)
			return v;
	}
	tr_fail(r, "varint longer than 10 bytes");
	return 0;
}

static int64_t
unzig(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

int
tr_field(struct thrift_r *r, int *id, int *type)
{
	int16_t *last = &r->last[r->depth];
	unsigned char b;
	int64_t v;

	if (r->err[0] != '\0')
		return -1;
	if (r->p >= r->end)
		return tr_fail(r, "metadata cut short"), -1;
	b = *r->p++;
	if (b == 0)
		return 0;
	*type = b & 15;
	if (*type > TT_STRUCT)
		return tr_fail(r, "unknown thrift type"), -1;
	if (b >> 4)
		*id = *last + (b >> 4);
	else {
		v = unzig(rvarint(r));
		if (r->err[0] != '\0')
			return -1;
		if (v < INT16_MIN || v > INT16_MAX)
			return tr_fail(r, "field id out of range"), -1;
		*id = (int)v;
	}
	*last = (int16_t)*id;
	r->btype = *type;
	return 1;
}

int64_t
tr_i64(struct thrift_r *r, int type)
{
	if (type != TT_I64 && type != TT_I32 && type != TT_I16) {
		if (type == TT_BYTE) {
			if (r->p >= r->end)
				return tr_fail(r, "metadata cut short"), 0;
			return (signed char)*r->p++;
		}
		return tr_fail(r, "an integer was expected"), 0;
	}
	return unzig(rvarint(r));
}

int32_t
tr_i32(struct thrift_r *r, int type)
{
	int64_t v = tr_i64(r, type);

	if (v < INT32_MIN || v > INT32_MAX)
		return tr_fail(r, "integer out of range"), 0;
	return (int32_t)v;
}

bool
tr_bool(struct thrift_r *r, int type)
{
	if (type == TT_TRUE || type == TT_FALSE) {
		/* a field's value is its type; a list element is a byte */
		if (r->btype == -1) {
			if (r->p >= r->end)
				return tr_fail(r, "metadata cut short");
			return *r->p++ == 1;
		}
		return type == TT_TRUE;
	}
	return tr_fail(r, "a boolean was expected");
}

const unsigned char *
tr_binary(struct thrift_r *r, int type, size_t *n)
{
	const unsigned char *p;
	uint64_t len;

	if (type != TT_BINARY)
		return tr_fail(r, "a string was expected"), NULL;
	len = rvarint(r);
	if (r->err[0] != '\0')
		return NULL;
	if (len > (uint64_t)(r->end - r->p))
		return tr_fail(r, "string longer than the metadata"), NULL;
	p = r->p;
	r->p += len;
	*n = (size_t)len;
	return p;
}

long
tr_list(struct thrift_r *r, int type, int *elem)
{
	unsigned char b;
	uint64_t n;

	if (type != TT_LIST && type != TT_SET)
		return tr_fail(r, "a list was expected"), -1;
	if (r->p >= r->end)
		return tr_fail(r, "metadata cut short"), -1;
	b = *r->p++;
	n = b >> 4;
	*elem = b & 15;
	if (n == 15)
		n = rvarint(r);
	if (r->err[0] != '\0')
		return -1;
	if (*elem == TT_STOP || *elem > TT_STRUCT)
		return tr_fail(r, "unknown thrift type"), -1;
	/* every element takes a byte at least */
	if (n > (uint64_t)(r->end - r->p))
		return tr_fail(r, "list longer than the metadata"), -1;
	/* a list's booleans are bytes, not field types */
	r->btype = -1;
	return (long)n;
}

bool
tr_begin(struct thrift_r *r, int type)
{
	if (type != TT_STRUCT)
		return tr_fail(r, "a struct was expected");
	if (r->depth + 1 >= THRIFT_MAXDEPTH)
		return tr_fail(r, "metadata nested too deep");
	r->last[++r->depth] = 0;
	return true;
}

void
tr_end(struct thrift_r *r)
{
	if (r->depth > 0)
		r->depth--;
}

/* A map's header: its count, -1 on a fault. */
static long
tr_map(struct thrift_r *r, int *kt, int *vt)
{
	uint64_t n = rvarint(r);

	*kt = *vt = TT_STOP;
	if (r->err[0] != '\0')
		return -1;
	if (n == 0)
		return 0;
	if (r->p >= r->end)
		return tr_fail(r, "metadata cut short"), -1;
	*kt = *r->p >> 4;
	*vt = *r->p++ & 15;
	if (*kt == TT_STOP || *kt > TT_STRUCT || *vt == TT_STOP ||
	    *vt > TT_STRUCT)
		return tr_fail(r, "unknown thrift type"), -1;
	if (n > (uint64_t)(r->end - r->p) / 2)
		return tr_fail(r, "map longer than the metadata"), -1;
	return (long)n;
}

/* The elements of a container skipped: n of type t (two a pair, types t
   and t2, for a map). */
static bool
skip_elems(struct thrift_r *r, long n, int t, int t2)
{
	long i;

	if (r->depth + 1 >= THRIFT_MAXDEPTH)
		return tr_fail(r, "metadata nested too deep");
	r->depth++;
	r->last[r->depth] = 0;
	for (i = 0; i < n && r->err[0] == '\0'; i++) {
		r->btype = -1;
		if (!tr_skip(r, t))
			break;
		r->btype = -1;
		if (t2 != TT_STOP && !tr_skip(r, t2))
			break;
	}
	r->depth--;
	return r->err[0] == '\0';
}

bool
tr_skip(struct thrift_r *r, int type)
{
	size_t n;
	int id, t, t2;
	long k;

	switch (type) {
	case TT_TRUE: case TT_FALSE:
		tr_bool(r, type);
		break;
	case TT_BYTE: case TT_I16: case TT_I32: case TT_I64:
		tr_i64(r, type);
		break;
	case TT_DOUBLE:
		if (r->end - r->p < 8)
			return tr_fail(r, "metadata cut short");
		r->p += 8;
		break;
	case TT_BINARY:
		tr_binary(r, type, &n);
		break;
	case TT_LIST: case TT_SET:
		if ((k = tr_list(r, type, &t)) < 0)
			return false;
		return skip_elems(r, k, t, TT_STOP);
	case TT_MAP:
		if ((k = tr_map(r, &t, &t2)) < 0)
			return false;
		return skip_elems(r, k, t, t2);
	case TT_STRUCT:
		if (!tr_begin(r, type))
			return false;
		while ((k = tr_field(r, &id, &t)) == 1)
			if (!tr_skip(r, t))
				return false;
		tr_end(r);
		return k == 0;
	default:
		return tr_fail(r, "unknown thrift type");
	}
	return r->err[0] == '\0';
}
