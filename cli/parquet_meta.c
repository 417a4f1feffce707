/*
 * parquet_meta.c - Parquet's FileMetaData and PageHeader read from the
 * Thrift compact protocol (parquet_meta.h).  Field ids are
 * parquet.thrift's; a field not kept is skipped whatever it holds; a
 * count is bounded by the bytes left (thrift.c), so nothing allocated
 * is larger than a small multiple of the metadata.
 */
#include <stdlib.h>
#include <string.h>

#include "parquet_meta.h"

/* The IntType or TimeUnit inside a LogicalType union (its field id). */
static void
logical_inner(struct thrift_r *r, int t, struct pq_schema *s)
{
	int id, ty, id2, ty2;

	if (!tr_begin(r, t))
		return;
	while (tr_field(r, &id, &ty) == 1) {
		if (s->logical == 10 && id == 1)
			s->int_bits = (int)tr_i32(r, ty);
		else if (s->logical == 10 && id == 2)
			s->int_signed = tr_bool(r, ty);
		else if ((s->logical == 7 || s->logical == 8) && id == 2 &&
		    tr_begin(r, ty)) {	/* unit: a union of empty structs */
			while (tr_field(r, &id2, &ty2) == 1) {
				s->time_unit = id2;
				tr_skip(r, ty2);
			}
			tr_end(r);
		} else
			tr_skip(r, ty);
	}
	tr_end(r);
}

static void
logical_type(struct thrift_r *r, int t, struct pq_schema *s)
{
	int id, ty;

	if (!tr_begin(r, t))
		return;
	while (tr_field(r, &id, &ty) == 1) {
		s->logical = id;
		if (ty == TT_STRUCT)
			logical_inner(r, ty, s);
		else
			tr_skip(r, ty);
	}
	tr_end(r);
}

static void
schema_element(struct thrift_r *r, int t, struct pq_schema *s)
{
	int id, ty;
	size_t n = 0;

	s->name = "";
	s->type = s->type_length = s->repetition = PQ_NONE;
	s->num_children = 0;
	s->converted = s->logical = PQ_NONE;
	if (!tr_begin(r, t))
		return;
	while (tr_field(r, &id, &ty) == 1) {
		switch (id) {
		case 1: s->type = (int)tr_i32(r, ty); break;
		case 2: s->type_length = (int)tr_i32(r, ty); break;
		case 3: s->repetition = (int)tr_i32(r, ty); break;
		case 4:
			s->name = (const char *)tr_binary(r, ty, &n);
			s->namelen = n;
			break;
		case 5: s->num_children = (int)tr_i32(r, ty); break;
		case 6: s->converted = (int)tr_i32(r, ty); break;
		case 10: logical_type(r, ty, s); break;
		default: tr_skip(r, ty);
		}
	}
	tr_end(r);
	if (s->name == NULL)
		s->name = "";
	if (s->num_children < 0)
		tr_fail(r, "negative num_children");
}

static void
column_meta(struct thrift_r *r, int t, struct pq_chunk *c)
{
	int id, ty;

	if (!tr_begin(r, t))
		return;
	c->has_meta = true;
	while (tr_field(r, &id, &ty) == 1) {
		switch (id) {
		case 1: c->type = (int)tr_i32(r, ty); break;
		case 4: c->codec = (int)tr_i32(r, ty); break;
		case 5: c->num_values = tr_i64(r, ty); break;
		case 6: c->total_uncompressed_size = tr_i64(r, ty); break;
		case 7: c->total_compressed_size = tr_i64(r, ty); break;
		case 9: c->data_page_offset = tr_i64(r, ty); break;
		case 11: c->dict_page_offset = tr_i64(r, ty); break;
		default: tr_skip(r, ty);
		}
	}
	tr_end(r);
}

static void
column_chunk(struct thrift_r *r, int t, struct pq_chunk *c)
{
	int id, ty;

	memset(c, 0, sizeof *c);
	c->dict_page_offset = PQ_NONE;
	c->data_page_offset = PQ_NONE;
	if (!tr_begin(r, t))
		return;
	while (tr_field(r, &id, &ty) == 1) {
		if (id == 3)
			column_meta(r, ty, c);
		else {
			if (id == 8 || id == 9)	/* crypto_metadata */
				c->encrypted = true;
			tr_skip(r, ty);
		}
	}
	tr_end(r);
}

/* A list of n structs of 'size' bytes each, allocated zeroed (n is
   bounded by the bytes left); NULL when empty or out of memory. */
static void *
list_of(struct thrift_r *r, int ty, size_t size, int *n)
{
	int elem;
	long k = tr_list(r, ty, &elem);
	void *p;

	*n = 0;
	if (k < 0)
		return NULL;
	if (elem != TT_STRUCT && k > 0) {
		tr_fail(r, "a list of structs was expected");
		return NULL;
	}
	if (k == 0)
		return NULL;
	if ((p = calloc((size_t)k, size)) == NULL) {
		tr_fail(r, "out of memory");
		return NULL;
	}
	*n = (int)k;
	return p;
}

static void
row_group(struct thrift_r *r, int t, struct pq_rowgroup *g)
{
	int id, ty, i;

	if (!tr_begin(r, t))
		return;
	while (tr_field(r, &id, &ty) == 1) {
		if (id == 1 && g->col == NULL) {
			g->col = list_of(r, ty, sizeof *g->col, &g->ncol);
			for (i = 0; i < g->ncol; i++)
				column_chunk(r, TT_STRUCT, &g->col[i]);
		} else if (id == 3)
			g->num_rows = tr_i64(r, ty);
		else
			tr_skip(r, ty);
	}
	tr_end(r);
}

int
pq_meta_read(struct thrift_r *r, const void *p, size_t n, struct pq_meta *m)
{
	int id, ty, i;

	memset(m, 0, sizeof *m);
	tr_init(r, p, n);
	if (!tr_begin(r, TT_STRUCT))
		return -1;
	while (tr_field(r, &id, &ty) == 1) {
		if (id == 2 && m->schema == NULL) {
			m->schema = list_of(r, ty, sizeof *m->schema,
			    &m->nschema);
			for (i = 0; i < m->nschema; i++)
				schema_element(r, TT_STRUCT, &m->schema[i]);
		} else if (id == 3)
			m->num_rows = tr_i64(r, ty);
		else if (id == 4 && m->rg == NULL) {
			m->rg = list_of(r, ty, sizeof *m->rg, &m->nrg);
			for (i = 0; i < m->nrg; i++)
				row_group(r, TT_STRUCT, &m->rg[i]);
		} else {
			if (id == 8)
				m->encrypted = true;
			tr_skip(r, ty);
		}
	}
	tr_end(r);
	if (thrift_error(r) == NULL && m->nschema == 0)
		tr_fail(r, "no schema");
	return thrift_error(r) != NULL ? -1 : 0;
}

void
pq_meta_free(struct pq_meta *m)
{
	int i;

	for (i = 0; i < m->nrg; i++)
		free(m->rg[i].col);
	free(m->rg);
	free(m->schema);
	memset(m, 0, sizeof *m);
}

/* DataPageHeader (v1), DictionaryPageHeader, DataPageHeaderV2: their
   fields by id into pg. */
static void
page_sub(struct thrift_r *r, int t, int which, struct pq_page *pg)
{
	int id, ty;

	if (!tr_begin(r, t))
		return;
	while (tr_field(r, &id, &ty) == 1) {
		if (id == 1 && which != 6)
			pg->num_values = tr_i32(r, ty);
		else if (which == 5 && id >= 2 && id <= 4) {
			int32_t v = tr_i32(r, ty);

			*(id == 2 ? &pg->encoding : id == 3 ? &pg->def_encoding :
			    &pg->rep_encoding) = (int)v;
		} else if (which == 7 && id == 2)
			pg->encoding = (int)tr_i32(r, ty);
		else if (which == 8 && id >= 2 && id <= 6) {
			int32_t v = tr_i32(r, ty);

			if (id == 2) pg->num_nulls = v;
			else if (id == 3) pg->num_rows = v;
			else if (id == 4) pg->encoding = (int)v;
			else if (id == 5) pg->def_len = v;
			else pg->rep_len = v;
		} else if (which == 8 && id == 7)
			pg->compressed = tr_bool(r, ty);
		else
			tr_skip(r, ty);
	}
	tr_end(r);
}

int
pq_page_read(struct thrift_r *r, struct pq_page *pg)
{
	int id, ty;

	memset(pg, 0, sizeof *pg);
	pg->type = pg->usize = pg->csize = PQ_NONE;
	pg->compressed = true;
	r->depth = 0;
	if (!tr_begin(r, TT_STRUCT))
		return -1;
	while (tr_field(r, &id, &ty) == 1) {
		if (id == 1)
			pg->type = (int)tr_i32(r, ty);
		else if (id == 2)
			pg->usize = tr_i32(r, ty);
		else if (id == 3)
			pg->csize = tr_i32(r, ty);
		else if (id == 5 || id == 7 || id == 8)
			page_sub(r, ty, id, pg);
		else
			tr_skip(r, ty);
	}
	tr_end(r);
	if (thrift_error(r) == NULL && (pg->type < 0 || pg->usize < 0 ||
	    pg->csize < 0 || pg->num_values < 0 || pg->def_len < 0 ||
	    pg->rep_len < 0))
		tr_fail(r, "page header without its sizes");
	return thrift_error(r) != NULL ? -1 : 0;
}
