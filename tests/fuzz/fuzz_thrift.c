/*
 * fuzz_thrift.c - Parquet's file metadata and page headers read from the
 * Thrift compact protocol (cli/thrift.c, cli/parquet_meta.c) over
 * arbitrary bytes: whatever the input, the reader ends with the metadata
 * or with a reason that names a byte within the input, and everything it
 * returned lies within the input.  The first byte chooses what is read:
 * a FileMetaData, a run of PageHeaders, or any value skipped.  Each
 * FileMetaData read is written back (the writer's half) and read again
 * to the same counts.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "parquet_meta.h"

static void
check_meta(const unsigned char *data, size_t size, const struct pq_meta *m)
{
	int i;

	for (i = 0; i < m->nschema; i++) {
		const char *nm = m->schema[i].name;

		assert(m->schema[i].namelen == 0 ||
		    ((const unsigned char *)nm >= data &&
		    (const unsigned char *)nm + m->schema[i].namelen <=
		    data + size));
	}
	for (i = 0; i < m->nrg; i++)
		assert(m->rg[i].ncol >= 0 && (m->rg[i].ncol == 0 ||
		    m->rg[i].col != NULL));
}

/* m's schema names written as a FileMetaData and read back. */
static void
round_trip(const struct pq_meta *m)
{
	struct thrift_w w = { 0 };
	struct thrift_r r;
	struct pq_meta m2;
	int i;

	tw_begin(&w);
	tw_fi32(&w, 1, 2);
	tw_field(&w, 2, TT_LIST);
	tw_list(&w, TT_STRUCT, (size_t)m->nschema);
	for (i = 0; i < m->nschema; i++) {
		tw_begin(&w);
		if (m->schema[i].type >= 0)
			tw_fi32(&w, 1, m->schema[i].type);
		tw_fbin(&w, 4, m->schema[i].name, m->schema[i].namelen);
		tw_end(&w);
	}
	tw_fi64(&w, 3, m->num_rows);
	tw_end(&w);
	if (!w.fail) {
		assert(pq_meta_read(&r, w.buf, w.len, &m2) == 0);
		assert(m2.nschema == m->nschema && m2.num_rows == m->num_rows);
		for (i = 0; i < m->nschema; i++)
			assert(m2.schema[i].namelen == m->schema[i].namelen &&
			    memcmp(m2.schema[i].name, m->schema[i].name,
			    m->schema[i].namelen) == 0);
		pq_meta_free(&m2);
	}
	tw_free(&w);
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct thrift_r r;
	struct pq_meta m;
	struct pq_page pg;
	const char *e;

	if (size < 1)
		return 0;
	switch (data[0] % 3) {
	case 0:
		if (pq_meta_read(&r, data + 1, size - 1, &m) == 0) {
			check_meta(data + 1, size - 1, &m);
			if (m.nschema > 0)
				round_trip(&m);
		} else
			assert((e = thrift_error(&r)) != NULL &&
			    strstr(e, " at byte ") != NULL);
		pq_meta_free(&m);
		break;
	case 1:
		tr_init(&r, data + 1, size - 1);
		while (r.p < r.end && pq_page_read(&r, &pg) == 0)
			assert(pg.usize >= 0 && pg.csize >= 0);
		break;
	default:
		tr_init(&r, data + 1, size - 1);
		while (r.p < r.end && tr_skip(&r, TT_STRUCT))
			;
		assert(r.p <= r.end);
	}
	return 0;
}
