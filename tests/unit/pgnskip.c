/*
 * pgnskip.c - the reader's filter: a game it drops is skipped without
 * being lexed, and every game boundary stays the full reader's.
 *
 * Every file of testdata/, tests/fuzz/corpus/ and (if present)
 * ../shared/bench/zh-tags.pgn is read three ways side by side: without
 * a filter, with one that drops every game, with one that drops none,
 * and with one that drops every other game; game by game the number,
 * first line, raw bytes and skipped text must be the same, and a kept
 * game must be the same game (tokens, error).  Files under the game
 * size limit are read again from memory, as -j's pieces are.  Run from
 * the top of the tree.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "zh.h"

static int files, games, asked;

static int
drop_all(void *arg, const struct zh_game *g)
{
	(void)arg;
	(void)g;
	asked++;
	return 7;
}

static int
drop_none(void *arg, const struct zh_game *g)
{
	(void)arg;
	(void)g;
	return 0;
}

static int
drop_odd(void *arg, const struct zh_game *g)
{
	(void)arg;
	return (int)(g->number & 1);
}

static int (*const filters[])(void *, const struct zh_game *) = {
	NULL, drop_all, drop_none, drop_odd
};
#define NF 4

static bool
same_bounds(const struct zh_game *a, const struct zh_game *b)
{
	return a->number == b->number && a->line == b->line &&
	    a->rawlen == b->rawlen && memcmp(a->raw, b->raw, a->rawlen) == 0 &&
	    a->raw_truncated == b->raw_truncated &&
	    a->skipped.lines == b->skipped.lines &&
	    a->skipped.bytes == b->skipped.bytes &&
	    a->skipped.line == b->skipped.line;
}

static bool
same_game(const struct zh_game *a, const struct zh_game *b)
{
	size_t k;

	if (a->ntoks != b->ntoks || a->ntags != b->ntags ||
	    a->err.code != b->err.code || a->err.line != b->err.line ||
	    a->err.col != b->err.col || a->result != b->result)
		return false;
	for (k = 0; k < a->ntoks; k++)
		if (a->toks[k].kind != b->toks[k].kind ||
		    a->toks[k].len != b->toks[k].len ||
		    a->toks[k].line != b->toks[k].line ||
		    a->toks[k].col != b->toks[k].col)
			return false;
	return true;
}

/* Read with the four readers in step; 'what' names the source. */
static void
compare(struct zh_pgn_reader **r, const char *what)
{
	struct zh_game g[NF];
	int rc[NF], k;
	bool bad = false;

	for (;;) {
		for (k = 0; k < NF; k++)
			rc[k] = zh_pgn_next(r[k], &g[k]);
		for (k = 1; k < NF; k++)
			if (rc[k] != rc[0])
				bad = true;
		if (bad || rc[0] <= 0)
			break;
		games++;
		for (k = 1; k < NF; k++) {
			bool dropped = g[k].dropped != 0;

			if (!same_bounds(&g[0], &g[k]) ||
			    (!dropped && !same_game(&g[0], &g[k])) ||
			    (dropped && (g[k].ntoks != 0 ||
			    g[k].err.code != ZH_OK)) ||
			    (k == 2 && dropped)) {
				fprintf(stderr, "%s: game %ld differs with "
				    "filter %d (line %ld/%ld, rawlen %zu/%zu)\n",
				    what, g[0].number, k, g[0].line, g[k].line,
				    g[0].rawlen, g[k].rawlen);
				bad = true;
			}
		}
		if (bad)
			break;
	}
	CHECK(!bad);
	for (k = 1; k < NF && !bad; k++) {
		const struct zh_skip *a = zh_pgn_tail(r[0]),
		    *b = zh_pgn_tail(r[k]);

		CHECK(a->lines == b->lines && a->bytes == b->bytes);
	}
}

static void
from_file(const char *path)
{
	struct zh_pgn_reader *r[NF];
	FILE *f[NF];
	int k;

	for (k = 0; k < NF; k++) {
		f[k] = fopen(path, "rb");
		CHECK(f[k] != NULL);
		if (f[k] == NULL)
			return;
		r[k] = zh_pgn_open(f[k], NULL);
		zh_pgn_set_filter(r[k], filters[k], NULL);
	}
	compare(r, path);
	for (k = 0; k < NF; k++) {
		zh_pgn_close(r[k]);
		fclose(f[k]);
	}
}

/* The file as one piece in memory (zh_pgn_mem), as -j reads it. */
static void
from_mem(const char *path)
{
	struct zh_pgn_reader *r[NF];
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;
	int k;

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
	    n >= (16L << 20)) {
		if (f != NULL)
			fclose(f);
		return;
	}
	rewind(f);
	buf = calloc((size_t)n + ZH_PGN_PAD, 1);
	CHECK(buf != NULL && fread(buf, 1, (size_t)n, f) == (size_t)n);
	fclose(f);
	for (k = 0; k < NF; k++) {
		r[k] = zh_pgn_mem(NULL, buf, (size_t)n, NULL, 0, 0);
		CHECK(r[k] != NULL);
		zh_pgn_set_filter(r[k], filters[k], NULL);
	}
	compare(r, path);
	for (k = 0; k < NF; k++)
		zh_pgn_close(r[k]);
	free(buf);
}

static void
walk(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat st;
	char path[4096];

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (stat(path, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			walk(path);
		} else if (S_ISREG(st.st_mode)) {
			files++;
			from_file(path);
			from_mem(path);
		}
	}
	closedir(d);
}

int
main(void)
{
	const char *bench = "../shared/bench/zh-tags.pgn";
	FILE *f;

	walk("testdata");
	walk("tests/fuzz/corpus");
	if ((f = fopen(bench, "rb")) != NULL) {
		fclose(f);
		files++;
		from_file(bench);
	}
	CHECK(files > 100);
	CHECK(asked > 10000);
	fprintf(stderr, "pgnskip: %d files, %d games read four ways\n", files,
	    games);
	return check_report("pgnskip");
}
