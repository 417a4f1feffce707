/*
 * pgn_read.c - unit tests of the callback reader (zh_pgn_open_read):
 * every PGN, BPGN and JSON Lines file under testdata (or the files
 * named as arguments) read through a callback that hands out 1 to 7
 * bytes at a time yields exactly the games the FILE reader yields (tags,
 * tokens, raw bytes, errors, skipped text, the tail), and a callback's
 * error ends the reading as a FILE's read error does.  Run from the top
 * of the tree.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "zh.h"

/* ---- the callbacks ---- */

/* Bytes in memory handed out in odd small pieces, then an end or an
 * error. */
struct src {
	const char *s;
	size_t n, at;
	unsigned seed;		/* the pieces' sizes, 1 to 7 */
	size_t fail_at;		/* at this offset: an error (SIZE_MAX: none) */
	int fail_errno;
	long calls_after_end;	/* calls after 0 was returned */
	bool ended;
};

static size_t
tiny_read(void *ctx, char *buf, size_t n)
{
	struct src *s = ctx;
	size_t k;

	if (s->ended) {
		s->calls_after_end++;
		return 0;
	}
	if (s->at >= s->fail_at) {
		errno = s->fail_errno;
		return ZH_PGN_READ_ERROR;
	}
	s->seed = s->seed * 1103515245u + 12345u;
	k = 1 + (s->seed >> 16) % 7;
	if (k > n)
		k = n;
	if (k > s->n - s->at)
		k = s->n - s->at;
	if (s->fail_at != (size_t)-1 && k > s->fail_at - s->at)
		k = s->fail_at - s->at;
	memcpy(buf, s->s + s->at, k);
	s->at += k;
	if (k == 0)
		s->ended = true;
	return k;
}

/* ---- one game rendered, all the reader says of it ---- */

struct out {
	char *s;
	size_t len, cap;
};

static void
put(struct out *o, const char *s, size_t n)
{
	if (o->len + n + 1 > o->cap) {
		o->cap = (o->len + n + 1) * 2;
		if ((o->s = realloc(o->s, o->cap)) == NULL)
			abort();
	}
	memcpy(o->s + o->len, s, n);
	o->len += n;
	o->s[o->len] = '\0';
}

/* The number x and the character after it. */
static void
putn(struct out *o, long x, char after)
{
	char t[32];
	int n = snprintf(t, sizeof t, "%ld%c", x, after);

	put(o, t, (size_t)n);
}

static void
render_skip(struct out *o, const struct zh_skip *k)
{
	put(o, "skip ", 5);
	putn(o, k->line, ':');
	putn(o, k->col, ' ');
	putn(o, k->lines, ' ');
	putn(o, (long)k->bytes, ' ');
	put(o, k->text, strlen(k->text));
	put(o, "\n", 1);
}

static void
render(struct out *o, const struct zh_game *g)
{
	size_t i;

	put(o, "game ", 5);
	putn(o, g->number, ' ');
	putn(o, g->line, ' ');
	putn(o, (long)g->ntags, ' ');
	putn(o, (long)g->ntoks, ' ');
	putn(o, (long)g->rawlen, ' ');
	putn(o, g->raw_truncated, ' ');
	putn(o, g->dropped, ' ');
	putn(o, g->texts_apart, '\n');
	for (i = 0; i < g->ntags; i++) {
		put(o, "tag ", 4);
		putn(o, g->tags[i].line, ':');
		putn(o, g->tags[i].col, ' ');
		put(o, g->tags[i].name, strlen(g->tags[i].name));
		put(o, "=", 1);
		put(o, g->tags[i].value, strlen(g->tags[i].value));
		put(o, "\n", 1);
	}
	for (i = 0; i < g->ntoks; i++) {
		put(o, "tok ", 4);
		putn(o, g->toks[i].kind, ' ');
		putn(o, g->toks[i].line, ':');
		putn(o, g->toks[i].col, ' ');
		put(o, g->toks[i].text, g->toks[i].len);
		put(o, "\n", 1);
	}
	put(o, "result ", 7);
	if (g->result != NULL)
		put(o, g->result, strlen(g->result));
	put(o, "\nraw ", 5);
	put(o, g->raw, g->rawlen);
	put(o, "\nerr ", 5);
	putn(o, g->err.code, ' ');
	putn(o, g->err.line, ':');
	putn(o, g->err.col, ' ');
	put(o, g->err.text, strlen(g->err.text));
	put(o, "\n", 1);
	render_skip(o, &g->skipped);
}

/* Every game of reader r rendered into o, then the last return value
 * and the tail; the reader closed. */
static int
read_all(struct zh_pgn_reader *r, struct out *o)
{
	struct zh_game g;
	int rc;

	while ((rc = zh_pgn_next(r, &g)) == 1)
		render(o, &g);
	put(o, "end ", 4);
	putn(o, rc, '\n');
	if (rc == 0)
		render_skip(o, zh_pgn_tail(r));
	zh_pgn_close(r);
	return rc;
}

static char *
slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *s = NULL;
	size_t cap = 0;
	size_t k;

	*n = 0;
	if (f == NULL)
		return NULL;
	do {
		if (*n + 65536 > cap) {
			cap = (*n + 65536) * 2;
			if ((s = realloc(s, cap)) == NULL)
				abort();
		}
		k = fread(s + *n, 1, cap - *n, f);
		*n += k;
	} while (k > 0);
	fclose(f);
	return s;
}

/* The file's games through fread and through tiny pieces: the same. */
static void
same_games(const char *path, unsigned seed)
{
	struct out a = { 0 }, b = { 0 };
	struct src s = { 0 };
	FILE *f = fopen(path, "rb");
	char *text;
	int ra, rb;

	CHECK(f != NULL);
	if (f == NULL)
		return;
	ra = read_all(zh_pgn_open(f, NULL), &a);
	fclose(f);
	s.s = text = slurp(path, &s.n);
	s.seed = seed;
	s.fail_at = (size_t)-1;
	rb = read_all(zh_pgn_open_read(tiny_read, &s, NULL), &b);
	CHECK(ra == 0 && rb == 0);
	CHECK(a.len == b.len && memcmp(a.s, b.s, a.len) == 0);
	CHECK(s.calls_after_end == 0);
	if (a.len != b.len || memcmp(a.s, b.s, a.len) != 0)
		fprintf(stderr, "pgn_read: %s: the games differ\n", path);
	free(text);
	free(a.s);
	free(b.s);
}

static bool
wanted(const char *name)
{
	size_t n = strlen(name);

	return (n > 4 && strcmp(name + n - 4, ".pgn") == 0) ||
	    (n > 5 && strcmp(name + n - 5, ".bpgn") == 0) ||
	    (n > 6 && strcmp(name + n - 6, ".jsonl") == 0);
}

/* Every file of dir, its subfolders' too; returns how many. */
static long
walk(const char *dir, unsigned *seed)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	long files = 0;
	char path[4096];

	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (wanted(e->d_name)) {
			same_games(path, (*seed)++);
			files++;
		} else
			files += walk(path, seed);
	}
	closedir(d);
	return files;
}

/* ---- errors ---- */

static const char pgn2[] =
    "[Event \"a\"]\n[Site \"?\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n"
    "[Event \"b\"]\n[Site \"?\"]\n\n1. d4 d5 2. c4 c6 0-1\n";

/* A callback's error after 'at' bytes (errno e): the games before it,
 * then -1 with ZH_EIO and the errno's text. */
static void
error_at(size_t at, int e, long want_games)
{
	struct src s = { pgn2, sizeof pgn2 - 1, 0, 7, at, e, 0, false };
	struct zh_pgn_reader *r = zh_pgn_open_read(tiny_read, &s, NULL);
	struct zh_game g;
	char want[200];
	long games = 0;
	int rc;

	while ((rc = zh_pgn_next(r, &g)) == 1)
		games++;
	snprintf(want, sizeof want, "read error: %s", strerror(e ? e : EIO));
	CHECK(rc == -1 && games == want_games);
	CHECK(g.err.code == ZH_EIO && strcmp(g.err.text, want) == 0);
	if (strcmp(g.err.text, want) != 0)
		fprintf(stderr, "pgn_read: '%s', not '%s'\n", g.err.text, want);
	zh_pgn_close(r);
}

static void
test_errors(void)
{
	struct src s = { "\x1f\x8b\x08\x00", 4, 0, 3, (size_t)-1, 0, 0, false };
	struct zh_pgn_reader *r;
	struct zh_game g;

	error_at(0, EPIPE, 0);		/* at once */
	error_at(30, ECONNRESET, 0);	/* inside the first game */
	/* past the first game's result line: it is whole, and returned */
	error_at(sizeof pgn2 - 10, EIO, 1);
	error_at(5, 0, 0);		/* errno 0 is EIO */
	/* a compression's magic number, a byte or two at a time */
	CHECK((r = zh_pgn_open_read(tiny_read, &s, NULL)) != NULL);
	CHECK(zh_pgn_next(r, &g) == -1 && g.err.code == ZH_ECOMPRESSED &&
	    strcmp(g.err.text, "gzip") == 0);
	zh_pgn_close(r);
	CHECK(zh_pgn_open_read(NULL, NULL, NULL) == NULL);
}

int
main(int argc, char **argv)
{
	unsigned seed = 1;
	long files = 0;
	int i;

	test_errors();
	for (i = 1; i < argc; i++, files++)
		same_games(argv[i], seed++);
	if (argc == 1)
		files = walk("testdata", &seed);
	CHECK(files > 0);
	fprintf(stderr, "pgn_read: %ld files\n", files);
	return check_report("pgn_read");
}
