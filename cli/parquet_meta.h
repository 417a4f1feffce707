/*
 * parquet_meta.h - Parquet's file metadata and page headers, read from
 * and written to the Thrift compact protocol (thrift.h).  The numbers
 * are parquet-format's (src/main/thrift/parquet.thrift); only the fields
 * a flat table needs are kept, the others are skipped.
 */
#ifndef PARQUET_META_H
#define PARQUET_META_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "thrift.h"

/* Type */
enum { PQ_BOOLEAN, PQ_INT32, PQ_INT64, PQ_INT96, PQ_FLOAT, PQ_DOUBLE,
	PQ_BYTE_ARRAY, PQ_FIXED };
/* CompressionCodec */
enum { PQ_UNCOMPRESSED, PQ_SNAPPY, PQ_GZIP, PQ_LZO, PQ_BROTLI, PQ_LZ4,
	PQ_ZSTD, PQ_LZ4_RAW };
/* Encoding */
enum { PQ_PLAIN = 0, PQ_PLAIN_DICTIONARY = 2, PQ_RLE = 3, PQ_BIT_PACKED = 4,
	PQ_DELTA_BINARY_PACKED = 5, PQ_DELTA_LENGTH_BYTE_ARRAY = 6,
	PQ_DELTA_BYTE_ARRAY = 7, PQ_RLE_DICTIONARY = 8 };
/* PageType */
enum { PQ_DATA_PAGE, PQ_INDEX_PAGE, PQ_DICTIONARY_PAGE, PQ_DATA_PAGE_V2 };
/* ConvertedType (the ones written) */
enum { PQ_CT_UTF8 = 0, PQ_CT_DATE = 6, PQ_CT_UINT_8 = 11, PQ_CT_INT_8 = 15 };

#define PQ_NONE	(-1)	/* an optional field absent */

struct pq_schema {			/* a SchemaElement */
	const char *name;		/* in the metadata: not NUL-ended */
	size_t namelen;
	int type, type_length, repetition, num_children, converted;
	int logical;			/* LogicalType's field id, or PQ_NONE */
	int int_bits;			/* IntType's, or 0 */
	bool int_signed;
	int time_unit;			/* TIME/TIMESTAMP: 1 ms, 2 us, 3 ns */
};

struct pq_chunk {			/* a ColumnChunk and its metadata */
	int type, codec;
	int64_t num_values, data_page_offset, dict_page_offset,
	    total_compressed_size, total_uncompressed_size;
	bool has_meta, encrypted;
};

struct pq_rowgroup {
	int64_t num_rows;
	struct pq_chunk *col;
	int ncol;
};

struct pq_meta {
	struct pq_schema *schema;
	int nschema;
	int64_t num_rows;
	struct pq_rowgroup *rg;
	int nrg;
	bool encrypted;			/* encryption_algorithm given */
};

struct pq_page {			/* a PageHeader */
	int type;
	int32_t usize, csize;		/* uncompressed, compressed bytes */
	int32_t num_values, num_nulls, num_rows;
	int encoding, def_encoding, rep_encoding;
	int32_t def_len, rep_len;	/* v2: the levels' bytes */
	bool compressed;		/* v2: is_compressed */
};

/* FileMetaData from n bytes at p (kept: the names point into them): 0,
   or -1 with the reason in r's error. */
int pq_meta_read(struct thrift_r *r, const void *p, size_t n,
    struct pq_meta *m);
void pq_meta_free(struct pq_meta *m);
/* A PageHeader at r's position: 0, or -1 (r's error). */
int pq_page_read(struct thrift_r *r, struct pq_page *pg);

#endif
