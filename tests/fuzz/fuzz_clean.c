/*
 * fuzz_clean.c - libFuzzer target for cleaning on write (pgnclean.c):
 * the first line of the input is given to zh_strip_parse as a --strip
 * list, and every game of the rest is written with each of a few strip
 * sets, as PGN in two dialects and as JSON.  Built by make fuzz; make
 * check replays its corpus (tests/fuzz.bats).
 *
 * The invariants: a list is read, or fails at a column inside it (or
 * just past it); nothing to strip writes zh_pgn_write's bytes; the JSON
 * of a cleaned game is JSON; a cleaned game is never longer than the
 * game with nothing stripped: what is left is written as it was, and
 * nothing is added.
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const unsigned strips[] = {
	0, ZH_STRIP_COMMENTS, ZH_STRIP_CLOCKS, ZH_STRIP_EVALS,
	ZH_STRIP_COMMANDS, ZH_STRIP_NAGS, ZH_STRIP_VARIATIONS, ZH_STRIP_TAGS,
	ZH_STRIP_CLOCKS | ZH_STRIP_EVALS | ZH_STRIP_COMMANDS,
	ZH_STRIP_COMMENTS | ZH_STRIP_NAGS | ZH_STRIP_VARIATIONS | ZH_STRIP_TAGS
};

/* The game written with o, as PGN (dialect d) or JSON (d < 0). */
static char *
written(const struct zh_game *g, const struct zh_replay *rp, int d,
    const struct zh_pgn_opts *o, size_t *n)
{
	struct zh_error err = { 0 };
	char *s = NULL;
	FILE *f = open_memstream(&s, n);

	if (f == NULL)
		abort();
	if (d < 0) {
		struct zh_text t = { 0 };

		if (zh_game_json_opts(&t, g, rp, ZH_LICHESS, 0, o, &err) != 0)
			abort();
		fwrite(t.s, 1, t.len, f);
		putc('\n', f);
		zh_text_free(&t);
	} else if (o == NULL)
		zh_pgn_write(f, g, rp, d, &err);
	else
		zh_pgn_write_opts(f, g, rp, d, o, &err);
	if (fclose(f) != 0)
		abort();
	return s;
}

static void
list(const uint8_t *data, size_t size)
{
	const uint8_t *nl = memchr(data, '\n', size);
	size_t n = nl ? (size_t)(nl - data) : size;
	struct zh_error err = { 0 };
	unsigned strip = 0;
	char *s;

	if ((s = malloc(n + 1)) == NULL)
		return;
	memcpy(s, data, n);
	s[n] = '\0';
	if (zh_strip_parse(s, &strip, &err) != 0 &&
	    (err.col < 1 || (size_t)err.col > strlen(s) + 1))
		abort();
	free(s);
}

static void
game(const struct zh_game *g, const struct zh_replay *rp)
{
	static const char *const keep[] = { "WhiteElo", "ECO" };
	struct zh_pgn_opts o = { .keep_tags = keep, .nkeep = 2 };
	size_t k, n0, n, nj;
	char *plain, *s, *j;
	json_t *v;
	int d;

	for (d = ZH_LICHESS; d <= ZH_XBOARD; d++) {
		plain = written(g, rp, d, NULL, &n0);
		for (k = 0; k < sizeof strips / sizeof strips[0]; k++) {
			o.strip = strips[k];
			s = written(g, rp, d, &o, &n);
			if (o.strip == 0 && (n != n0 || memcmp(s, plain, n) != 0))
				abort();
			if (n > n0)
				abort();
			free(s);
			if (d != ZH_LICHESS)
				continue;
			j = written(g, rp, -1, &o, &nj);
			if ((v = json_loads(j, 0, NULL)) == NULL)
				abort();	/* not JSON */
			json_decref(v);
			free(j);
		}
		free(plain);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct zh_pgn_limits lim = { .max_game = 3000, .max_tag = 40,
	    .max_comment = 100, .max_tags = 8, .max_plies = 30,
	    .max_tokens = 60, .max_depth = 4 };
	struct zh_pgn_reader *r;
	struct zh_replay rp;
	struct zh_game g;
	FILE *f;

	if (size == 0)
		return 0;
	list(data, size);
	if ((f = fmemopen((void *)(uintptr_t)data, size, "r")) == NULL)
		return 0;
	memset(&rp, 0, sizeof rp);
	r = zh_pgn_open(f, size & 1 ? &lim : NULL);
	while (zh_pgn_next(r, &g) == 1) {
		rp.fast = false;
		rp.no_uci = false;
		zh_replay(&g, NULL, &rp);
		game(&g, &rp);
	}
	zh_replay_free(&rp);
	zh_pgn_close(r);
	fclose(f);
	return 0;
}
