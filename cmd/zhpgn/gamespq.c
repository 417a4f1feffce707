/*
 * gamespq.c - zhpgn -F parquet (gamespq.h).
 *
 * A row travels from the worker to the writer as a frame: its length
 * (4 bytes, little-endian), the record (a slot of 9 bytes a column: the
 * value, 8 bytes, then 1 if it is there, 0 for a null), then the
 * strings the record's string slots point into (offset and length, 4
 * bytes each).  The columns are the table below; the Hugging Face ones
 * keep the datasets' names and types (their README's dataset_info:
 * strings, int16 Elos and rating differences, a date32 UTCDate, a
 * time32[s] UTCTime, which pyarrow writes as Parquet TIME(MILLIS)).
 */
#define _GNU_SOURCE		/* fopencookie(), open_memstream() */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gamespq.h"
#include "parquet_write.h"

enum src { TAG, MOVETEXT, UCI, PLIES, VARIANT, VALID, ERROR };

static const struct gcol {
	const char *name;
	enum pqw_kind kind;
	enum src src;
} gcols[] = {
	{ "Event", PQW_STR, TAG }, { "Site", PQW_STR, TAG },
	{ "White", PQW_STR, TAG }, { "Black", PQW_STR, TAG },
	{ "Result", PQW_STR, TAG }, { "WhiteTitle", PQW_STR, TAG },
	{ "BlackTitle", PQW_STR, TAG }, { "WhiteElo", PQW_I16, TAG },
	{ "BlackElo", PQW_I16, TAG }, { "WhiteRatingDiff", PQW_I16, TAG },
	{ "BlackRatingDiff", PQW_I16, TAG }, { "UTCDate", PQW_DATE, TAG },
	{ "UTCTime", PQW_TIME, TAG }, { "ECO", PQW_STR, TAG },
	{ "Opening", PQW_STR, TAG }, { "Termination", PQW_STR, TAG },
	{ "TimeControl", PQW_STR, TAG }, { "movetext", PQW_STR, MOVETEXT },
	/* zhkit's */
	{ "uci", PQW_STR, UCI }, { "plies", PQW_I32, PLIES },
	{ "variant", PQW_STR, VARIANT }, { "valid", PQW_BOOL, VALID },
	{ "error", PQW_STR, ERROR },
};
#define NCOLS	(sizeof gcols / sizeof gcols[0])
#define SLOT	9
#define RECSIZE	(NCOLS * SLOT)

static void
le32(unsigned char *q, uint32_t v)
{
	q[0] = (unsigned char)v;
	q[1] = (unsigned char)(v >> 8);
	q[2] = (unsigned char)(v >> 16);
	q[3] = (unsigned char)(v >> 24);
}

/* ======================== a row ======================== */

struct rowbuf {
	unsigned char rec[RECSIZE];
	char *heap;
	size_t len, cap;
	bool fail;
};

/* A string into slot k. */
static void
put_str(struct rowbuf *b, size_t k, const char *s, size_t n)
{
	size_t cap;
	char *p;

	if (s == NULL || b->fail)
		return;
	if (b->len + n + 1 > b->cap) {
		for (cap = b->cap ? b->cap : 1024; cap < b->len + n + 1; cap *= 2)
			;
		if ((p = realloc(b->heap, cap)) == NULL) {
			b->fail = true;
			return;
		}
		b->heap = p;
		b->cap = cap;
	}
	memcpy(b->heap + b->len, s, n);
	le32(b->rec + k * SLOT, (uint32_t)b->len);
	le32(b->rec + k * SLOT + 4, (uint32_t)n);
	b->rec[k * SLOT + 8] = 1;
	b->len += n;
}

static void
put_int(struct rowbuf *b, size_t k, long v)
{
	le32(b->rec + k * SLOT, (uint32_t)v);
	b->rec[k * SLOT + 8] = 1;
}

/* Days from 1970-01-01 of y-m-d (the proleptic Gregorian calendar). */
static long
days(long y, long m, long d)
{
	long era, yoe, doy;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
}

/* A tag's value as column k's type into b (nothing: a null). */
static void
put_tag(struct rowbuf *b, size_t k, const char *s)
{
	int y, mo, d, h, mi, sec, n = 0;
	long v;
	char *end;

	if (s == NULL)
		return;
	switch (gcols[k].kind) {
	case PQW_I16:
		errno = 0;
		v = strtol(s, &end, 10);
		if (end != s && *end == '\0' && errno == 0 && v >= -32768 &&
		    v <= 32767)
			put_int(b, k, v);
		break;
	case PQW_DATE:		/* "2018.12.31"; "????.??.??": null */
		if (sscanf(s, "%4d.%2d.%2d%n", &y, &mo, &d, &n) == 3 &&
		    s[n] == '\0' && mo >= 1 && mo <= 12 && d >= 1 && d <= 31)
			put_int(b, k, days(y, mo, d));
		break;
	case PQW_TIME:		/* "23:59:59" */
		if (sscanf(s, "%2d:%2d:%2d%n", &h, &mi, &sec, &n) == 3 &&
		    s[n] == '\0' && h >= 0 && h < 24 && mi >= 0 && mi < 60 &&
		    sec >= 0 && sec < 61)
			put_int(b, k, ((h * 60L + mi) * 60 + sec) * 1000);
		break;
	default:
		put_str(b, k, s, strlen(s));
	}
}

/* The movetext of PGN text t[0..n): the lines after the tag pairs,
   joined by spaces, into slot k. */
static void
put_movetext(struct rowbuf *b, size_t k, const char *t, size_t n)
{
	size_t i = 0, j, start;
	char *s = malloc(n + 1);
	size_t len = 0;

	if (s == NULL) {
		b->fail = true;
		return;
	}
	while (i < n) {
		for (j = i; j < n && t[j] != '\n'; j++)
			;
		start = i;
		while (start < j && (t[start] == ' ' || t[start] == '\r'))
			start++;
		if (start < j && t[start] != '[' && t[start] != '%') {
			if (len > 0)
				s[len++] = ' ';
			while (j > start && (t[j - 1] == '\r' || t[j - 1] == ' '))
				j--;
			memcpy(s + len, t + start, j - start);
			len += j - start;
		}
		for (i = j; i < n && t[i] != '\n'; i++)
			;
		i++;
	}
	put_str(b, k, s, len);
	free(s);
}

/* The replay's mainline in UCI, a space between moves, into slot k. */
static void
put_uci(struct rowbuf *b, size_t k, const struct zh_game *g,
    const struct zh_replay *r)
{
	size_t i, len = 0, cap = 64, n;
	char *s = malloc(cap), *p;

	for (i = 0; s != NULL && r->moves != NULL && i < g->ntoks &&
	    i < r->cap; i++) {
		if (g->toks[i].kind != ZH_T_MOVE || r->moves[i].depth != 0 ||
		    !r->moves[i].ok)
			continue;
		n = strlen(r->moves[i].uci);
		if (len + n + 2 > cap) {
			if ((p = realloc(s, cap * 2 + n)) == NULL)
				break;
			s = p;
			cap = cap * 2 + n;
		}
		if (len > 0)
			s[len++] = ' ';
		memcpy(s + len, r->moves[i].uci, n);
		len += n;
	}
	if (s == NULL) {
		b->fail = true;
		return;
	}
	put_str(b, k, s, len);
	free(s);
}

int
gamespq_row(FILE *out, const struct zh_game *g, const struct zh_replay *r,
    const struct zh_variant *v, const char *text, size_t len,
    const char *error)
{
	struct rowbuf b = { .fail = false };
	unsigned char n[4];
	size_t k;
	int rc = 0;

	memset(b.rec, 0, sizeof b.rec);
	for (k = 0; k < NCOLS; k++)
		switch (gcols[k].src) {
		case TAG: put_tag(&b, k, zh_game_tag(g, gcols[k].name)); break;
		case MOVETEXT:
			if (text != NULL)
				put_movetext(&b, k, text, len);
			else if (g->raw != NULL)
				put_movetext(&b, k, g->raw, g->rawlen);
			break;
		case UCI: put_uci(&b, k, g, r); break;
		case PLIES: put_int(&b, k, r->nplies); break;
		case VARIANT:
			if (v != NULL)
				put_str(&b, k, v->name, strlen(v->name));
			break;
		case VALID: put_int(&b, k, error == NULL); break;
		case ERROR:
			if (error != NULL)
				put_str(&b, k, error, strlen(error));
			break;
		}
	le32(n, (uint32_t)(RECSIZE + b.len));
	if (b.fail || fwrite(n, 1, 4, out) != 4 ||
	    fwrite(b.rec, 1, RECSIZE, out) != RECSIZE ||
	    (b.len > 0 && fwrite(b.heap, 1, b.len, out) != b.len))
		rc = -1;
	free(b.heap);
	return rc;
}

/* ======================== the writer ======================== */

struct gamespq {
	struct pqw *w;
	FILE *sink;
	FILE *out;		/* the named output */
	const char *name;	/* its name, for messages */
	unsigned char *stage;	/* a frame being received */
	size_t have, cap;
	bool failed;
	int err;
};

/* A whole frame p[0..n) (after its length) to the writer. */
static void
got(struct gamespq *q, const unsigned char *p, size_t n)
{
	if (q->failed)
		return;
	if (n < RECSIZE || pqw_row(q->w, p, p + RECSIZE, n - RECSIZE) != 0) {
		q->failed = true;
		q->err = n < RECSIZE ? EINVAL : errno;
	}
}

static ssize_t
sink_write(void *cookie, const char *buf, size_t size)
{
	struct gamespq *q = cookie;
	const unsigned char *p = (const unsigned char *)buf;
	size_t left = size, need, take, cap;
	unsigned char *s;

	while (left > 0) {
		need = q->have < 4 ? 4 : 4 + ((size_t)q->stage[0] |
		    (size_t)q->stage[1] << 8 | (size_t)q->stage[2] << 16 |
		    (size_t)q->stage[3] << 24);
		if (need > q->cap) {
			for (cap = q->cap ? q->cap : 4096; cap < need; cap *= 2)
				;
			if ((s = realloc(q->stage, cap)) == NULL) {
				q->failed = true;
				q->err = ENOMEM;
				return (ssize_t)size;
			}
			q->stage = s;
			q->cap = cap;
		}
		take = need - q->have < left ? need - q->have : left;
		memcpy(q->stage + q->have, p, take);
		q->have += take;
		p += take;
		left -= take;
		if (q->have == need && need > 4) {
			got(q, q->stage + 4, need - 4);
			q->have = 0;
		}
	}
	return (ssize_t)size;
}

struct gamespq *
gamespq_open(FILE *out, const char *name, const char *codec)
{
	static const cookie_io_functions_t io = { .write = sink_write };
	struct gamespq *q = calloc(1, sizeof *q);
	size_t k;

	if (q == NULL || (q->w = pqw_new(RECSIZE, codec, 0)) == NULL)
		goto fail;
	for (k = 0; k < NCOLS; k++)
		if (pqw_column_opt(q->w, gcols[k].name, gcols[k].kind, k * SLOT,
		    0, gcols[k].src == VALID || gcols[k].src == PLIES ?
		    SIZE_MAX : k * SLOT + 8) != 0)
			goto fail;
	q->out = out;
	q->name = name;
	if (pqw_begin(q->w, out) != 0) {
		cli_fail("%s: write error: %s", name, strerror(errno));
		pqw_free(q->w);
		free(q);
		return NULL;
	}
	if ((q->sink = fopencookie(q, "w", io)) == NULL)
		goto fail;
	return q;
fail:
	cli_fail("out of memory");
	if (q != NULL)
		pqw_free(q->w);
	free(q);
	return NULL;
}

FILE *
gamespq_sink(struct gamespq *q)
{
	return q->sink;
}

int
gamespq_close(struct gamespq *q)
{
	int rc = 0;

	if (fclose(q->sink) != 0 || q->have != 0)
		rc = -1;
	if (!q->failed && pqw_end(q->w, "zhkit " ZH_VERSION) != 0) {
		q->failed = true;
		q->err = errno;
	}
	/* a write the output refused: said by its close, with its name */
	if ((rc != 0 || q->failed) && !ferror(q->out))
		cli_fail("%s: write error: %s", q->name, strerror(q->err ?
		    q->err : EIO));
	if (q->failed)
		rc = -1;
	pqw_free(q->w);
	free(q->stage);
	free(q);
	return rc;
}
