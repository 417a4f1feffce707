/*
 * flatrows.c - dataset rows as JSON Lines, read as PGN text
 * (flatrows.h).  Each line's keys become tag pairs in their order (a
 * string as it is, a "YYYY-MM-DD" date of a key ending in "Date" as
 * "YYYY.MM.DD", an integer in decimal, a rating difference with its
 * sign; a null or any other value, no tag), then the "movetext", then
 * its result if it does not end with one; a tag of the Seven Tag Roster
 * (but Result) with no key, with PGN's value for unknown, as
 * parquet_read.c reads a file with no column for it.  zhkit's own keys (uci,
 * plies, valid, error) are not tags; its "variant" is the Variant tag
 * when there is none.  A line that is not an object with a "movetext"
 * string becomes a game that the reader rejects, naming it.
 */
#define _GNU_SOURCE		/* fopencookie(), getline() */
#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "flatrows.h"
#include "parquet_read.h"

struct rows {
	FILE *f;
	char *line;		/* the line read */
	size_t linecap;
	char *out;		/* PGN text not yet read */
	size_t olen, opos, ocap;
	bool fail;
	bool pass;		/* not rows: out (the bytes looked at), then
				   f's bytes as they are */
	FILE *self;
	struct rows *next;	/* in 'streams' */
};

/* The streams made here, for flatrows_under(). */
static struct rows *streams;
static pthread_mutex_t streams_mu = PTHREAD_MUTEX_INITIALIZER;

/* Room for n more bytes of text in q->out: false if out of memory. */
static bool
reserve(struct rows *q, size_t n)
{
	size_t cap;
	char *x;

	if (q->olen + n <= q->ocap)
		return true;
	for (cap = q->ocap ? q->ocap : 4096; cap < q->olen + n; cap *= 2)
		;
	if ((x = realloc(q->out, cap)) == NULL) {
		q->fail = true;
		return false;
	}
	q->out = x;
	q->ocap = cap;
	return true;
}

static void
put(struct rows *q, const char *s, size_t n)
{
	if (n > 0 && reserve(q, n)) {
		memcpy(q->out + q->olen, s, n);
		q->olen += n;
	}
}

static void
puts_(struct rows *q, const char *s)
{
	put(q, s, strlen(s));
}

/* [name "value"] (pqr_tag_pair), of nn and n bytes. */
static void
tag(struct rows *q, const char *name, size_t nn, const char *v, size_t n)
{
	if (reserve(q, nn + 2 * n + 6))
		q->olen += pqr_tag_pair(q->out + q->olen, name, nn, v, n);
}

static bool
own(const char *k)
{
	return strcmp(k, "uci") == 0 || strcmp(k, "plies") == 0 ||
	    strcmp(k, "valid") == 0 || strcmp(k, "error") == 0 ||
	    strcmp(k, "movetext") == 0 || strcmp(k, "variant") == 0;
}

/* Does tag k (kl bytes) end with suffix? */
static bool
ends(const char *k, size_t kl, const char *suffix)
{
	size_t n = strlen(suffix);

	return kl >= n && memcmp(k + kl - n, suffix, n) == 0;
}

/* A value of tag k (kl bytes) as a tag's text, whole (*len bytes): the
   string, or in t (32 bytes) a number or a date; NULL: no tag. */
static const char *
text(const char *k, size_t kl, json_t *v, char *t, size_t *len)
{
	const char *s;

	if (json_is_integer(v)) {
		*len = (size_t)snprintf(t, 32, ends(k, kl, "RatingDiff") ?
		    "%+" JSON_INTEGER_FORMAT : "%" JSON_INTEGER_FORMAT,
		    json_integer_value(v));
		return t;
	}
	if ((s = json_string_value(v)) == NULL)
		return NULL;
	*len = json_string_length(v);
	if (ends(k, kl, "Date") && *len == 10 && s[4] == '-' && s[7] == '-') {
		memcpy(t, s, 11);
		t[4] = t[7] = '.';
		return t;
	}
	return s;
}

/* The moves of object o: the key --column maps to movetext, else
   "movetext" (parquet_read.h); NULL if none is a string. */
static json_t *
moves_of(json_t *o)
{
	const char *k;
	json_t *v;
	size_t n;
	bool mv;

	json_object_foreach(o, k, v) {
		n = strlen(k);
		pqr_column_tag(k, &n, &mv);
		if (mv)
			return json_is_string(v) ? v : NULL;
	}
	return NULL;
}

/* The roster's tags (but Result) the keys of o give, even as nulls
   (pqr_roster_bit). */
static unsigned
roster_keys(json_t *o)
{
	const char *k, *name;
	json_t *v;
	unsigned have = 0;
	size_t kl;
	bool ismv;

	json_object_foreach(o, k, v) {
		kl = strlen(k);
		name = pqr_column_tag(k, &kl, &ismv);
		have |= ismv ? 0 : pqr_roster_bit(name, kl);
	}
	return have;
}

/* Line b[0..n) as a game after q->out. */
static void
row(struct rows *q, const char *b, size_t n)
{
	json_t *o = json_loadb(b, n, 0, NULL), *v, *mv = NULL;
	const char *k, *res = NULL, *name, *tail = " ", *s;
	size_t start, sl;
	char t[160];
	size_t kl;
	bool ismv;

	if (!json_is_object(o) || (mv = moves_of(o)) == NULL) {
		/* a game the reader rejects, naming the line's fault */
		puts_(q, "[Event \"not a dataset row\"]\n\n{ not a JSON object "
		    "with a \"movetext\" string } 1. ?? *\n\n");
		json_decref(o);
		return;
	}
	/* a roster tag with no key, as a Parquet file with no column */
	start = q->olen;
	put(q, t, pqr_roster_fill(roster_keys(o), t, sizeof t));
	json_object_foreach(o, k, v) {
		kl = strlen(k);
		name = pqr_column_tag(k, &kl, &ismv);
		if (v != mv && (name != k || !own(k)) &&
		    (s = text(name, kl, v, t, &sl)) != NULL) {
			tag(q, name, kl, s, sl);
			if (kl == 6 && memcmp(name, "Result", 6) == 0)
				res = json_string_value(v);
		}
	}
	if (json_object_get(o, "Variant") == NULL &&
	    json_is_string(v = json_object_get(o, "variant")))
		tag(q, "Variant", 7, json_string_value(v), json_string_length(v));
	if (q->olen == start)
		puts_(q, NOTAG);
	puts_(q, "\n");
	n = json_string_length(mv);
	if (reserve(q, 2 * n + 1))
		q->olen += pqr_movetext(q->out + q->olen, json_string_value(mv), n,
		    &tail);
	if (tail != NULL) {
		puts_(q, tail);
		puts_(q, res != NULL ? pqr_result(res, strlen(res)) : "*");
	}
	puts_(q, "\n\n");
	json_decref(o);
}

static ssize_t
rd(void *cookie, char *buf, size_t size)
{
	struct rows *q = cookie;
	ssize_t n;
	size_t k;

	if (q->pass && q->opos == q->olen) {
		k = fread(buf, 1, size, q->f);
		return k == 0 && ferror(q->f) ? -1 : (ssize_t)k;
	}
	while (q->opos == q->olen && !q->fail) {
		q->olen = q->opos = 0;
		if ((n = getline(&q->line, &q->linecap, q->f)) < 0)
			return ferror(q->f) ? -1 : 0;
		if (n > 0 && q->line[n - 1] == '\n')
			n--;
		if (n > 0)
			row(q, q->line, (size_t)n);
	}
	if (q->fail)
		return -1;
	k = q->olen - q->opos < size ? q->olen - q->opos : size;
	memcpy(buf, q->out + q->opos, k);
	q->opos += k;
	return (ssize_t)k;
}

static int
cl(void *cookie)
{
	struct rows *q = cookie, **p;

	pthread_mutex_lock(&streams_mu);
	for (p = &streams; *p != NULL; p = &(*p)->next)
		if (*p == q) {
			*p = q->next;
			break;
		}
	pthread_mutex_unlock(&streams_mu);
	if (q->f != stdin)
		fclose(q->f);
	free(q->line);
	free(q->out);
	free(q);
	return 0;
}

bool
flatrows_input(FILE *f)
{
	char buf[65536];
	struct stat st;
	json_t *o;
	ssize_t n;
	char *nl;
	bool yes;

	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) ||
	    (n = pread(fileno(f), buf, sizeof buf, 0)) <= 0 || buf[0] != '{' ||
	    (nl = memchr(buf, '\n', (size_t)n)) == NULL)
		return false;
	o = json_loadb(buf, (size_t)(nl - buf), 0, NULL);
	yes = json_is_object(o) && json_object_get(o, "tags") == NULL &&
	    moves_of(o) != NULL;
	json_decref(o);
	return yes;
}

/* q as a stream, listed for flatrows_under(); NULL (q freed, not its
   f) if out of memory. */
static FILE *
stream(struct rows *q)
{
	static const cookie_io_functions_t io = { .read = rd, .close = cl };

	if ((q->self = fopencookie(q, "r", io)) == NULL) {
		free(q->line);
		free(q->out);
		free(q);
		return NULL;
	}
	pthread_mutex_lock(&streams_mu);
	q->next = streams;
	streams = q;
	pthread_mutex_unlock(&streams_mu);
	return q->self;
}

FILE *
flatrows_ropen(FILE *f)
{
	struct rows *q = calloc(1, sizeof *q);

	if (q == NULL)
		return NULL;
	q->f = f;
	return stream(q);
}

#define SNIFF_MAX	(1u << 20)	/* a first line looked at, at most */

/* The first line of s (up to SNIFF_MAX bytes, its newline included)
   into q->out. */
static void
first_line(struct rows *q, FILE *s)
{
	int c;

	while (q->olen < SNIFF_MAX && (c = getc(s)) != EOF) {
		put(q, (char[]){ (char)c }, 1);
		if (c == '\n' || q->fail)
			break;
	}
}

FILE *
flatrows_sniff(FILE *s)
{
	struct rows *q;
	json_t *o;
	size_t n;
	int c = getc(s);
	bool rows;

	if (c == EOF || ungetc(c, s) == EOF || (c != '{' && c != 'P'))
		return s;
	if ((q = calloc(1, sizeof *q)) == NULL)
		return NULL;
	q->f = s;
	q->pass = true;
	if (c == 'P') {		/* Parquet on a pipe: its reader says why
				   it cannot be read so */
		while (q->olen < 4 && (c = getc(s)) != EOF)
			put(q, (char[]){ (char)c }, 1);
		if (q->olen == 4 && pqr_magic(q->out, 4)) {
			free(q->out);
			free(q);
			return pqr_ropen(s);
		}
		return stream(q);
	}
	first_line(q, s);
	n = q->olen > 0 && q->out[q->olen - 1] == '\n' ? q->olen - 1 : q->olen;
	o = json_loadb(q->out, n, 0, NULL);
	rows = json_is_object(o) && json_object_get(o, "tags") == NULL &&
	    moves_of(o) != NULL;
	json_decref(o);
	if (rows && !q->fail) {		/* the line read as the first row */
		q->pass = false;
		q->olen = 0;
		if ((q->line = malloc(n + 1)) != NULL) {
			memcpy(q->line, q->out, n);
			q->linecap = n + 1;
			row(q, q->line, n);
		} else
			q->fail = true;
	}
	return stream(q);
}

FILE *
flatrows_under(FILE *s)
{
	struct rows *q;
	bool found = true;

	pthread_mutex_lock(&streams_mu);
	while (found)
		for (found = false, q = streams; q != NULL; q = q->next)
			if (q->self == s) {
				s = q->f;
				found = true;
				break;
			}
	pthread_mutex_unlock(&streams_mu);
	return s;
}
