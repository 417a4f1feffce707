/*
 * fuzz_bughouse.c - libFuzzer target for the bughouse writers: each game
 * is replayed on two boards (zh_bug_replay; the first byte's low bit
 * forces bughouse on every game) and written the three ways, as BPGN in
 * every dialect, as JSON with and without FENs, and board by board.
 * Built by make fuzz; make check replays its corpus (tests/fuzz.bats).
 *
 * The invariants: the JSON is JSON with one move object per half-move
 * played (then the unplayed movetext of a game in error, "uci": null); a game replayed to its end, written as BPGN in any dialect
 * and read back, replays to the end again with the same moves (UCI) in
 * the same order.
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"	/* the two-board engine and its JSON buffer, internal */

#include "zh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The move objects of half-moves played: those before the first
 * unplayed one ("uci": null, the movetext past an error). */
static size_t
played(json_t *moves)
{
	size_t k;

	for (k = 0; k < json_array_size(moves); k++)
		if (json_is_null(json_object_get(json_array_get(moves, k),
		    "uci")))
			break;
	return k;
}

static const int dialects[] = { ZH_LICHESS, ZH_XBOARD, ZH_CHESSCOM,
    ZH_FAIRY };

/* What a writer put in a memory stream (free() it). */
static char *
written(int (*fn)(FILE *, void *), void *arg, size_t *n)
{
	char *s = NULL;
	FILE *f = open_memstream(&s, n);

	if (f == NULL)
		abort();
	fn(f, arg);
	if (fclose(f) != 0)
		abort();
	return s;
}

struct job {
	const struct zh_game *g;
	const struct zh_bug *b;
	int d, board;
	unsigned flags;
};

static int
w_bpgn(FILE *f, void *arg)
{
	struct job *j = arg;
	struct zh_error e = { 0 };

	return zh_bug_write(f, j->g, j->b, j->d, &e);
}

static int
w_json(FILE *f, void *arg)
{
	struct job *j = arg;
	struct zh_text t = { 0 };
	struct zh__buf b = ZH_BUF_TEXT(&t);
	int rc;

	zh_bug_json(&b, j->g, j->b, j->d, j->flags);
	if ((rc = zh__buf_text(&b, &t, NULL)) == 0) {	/* a line, as before */
		fwrite(t.s, 1, t.len, f);
		putc('\n', f);
	}
	zh_text_free(&t);
	return rc;
}

static int
w_board(FILE *f, void *arg)
{
	struct job *j = arg;
	struct zh_error e = { 0 };

	return zh_bug_board_write(f, j->g, j->b, j->board, j->d, &e);
}

/* The BPGN s (n bytes) read back: one game, replayed to its end with
 * b's moves. */
static void
same_game(const char *s, size_t n, const struct zh_bug *b,
    const struct zh_variant *force)
{
	FILE *f = fmemopen((void *)(uintptr_t)s, n, "r");
	struct zh_pgn_reader *r;
	struct zh_bug b2;
	struct zh_game g;
	size_t k;

	if (f == NULL)
		abort();
	memset(&b2, 0, sizeof b2);
	r = zh_pgn_open(f, NULL);
	if (zh_pgn_next(r, &g) != 1 || g.err.code != ZH_OK) {
		fprintf(stderr, "fuzz_bughouse: not read back: %.*s\n",
		    (int)n, s);
		abort();
	}
	if (zh_bug_replay(&g, force, &b2) != 0 || b2.nmoves != b->nmoves) {
		fprintf(stderr, "fuzz_bughouse: %s\n%.*s\n", b2.err.text,
		    (int)n, s);
		abort();
	}
	for (k = 0; k < b->nmoves; k++)
		if (b2.moves[k].board != b->moves[k].board ||
		    strcmp(b2.moves[k].rm.uci, b->moves[k].rm.uci) != 0)
			abort();
	zh_bug_free(&b2);
	zh_pgn_close(r);
	fclose(f);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct zh_variant *force = NULL;
	struct zh_pgn_reader *r;
	struct zh_bug b;
	struct zh_game g;
	FILE *f;

	if (size == 0)
		return 0;
	if (data[0] & 1)
		force = zh_variant_find("bughouse");
	if ((f = fmemopen((void *)(uintptr_t)data, size, "r")) == NULL)
		return 0;
	memset(&b, 0, sizeof b);
	r = zh_pgn_open(f, NULL);
	while (zh_pgn_next(r, &g) == 1) {
		struct job j = { &g, &b, ZH_LICHESS, ZH_BOARD_A, 0 };
		size_t n, k;
		char *s;
		json_t *o;

		g.file = "fuzz";
		g.index = g.number;
		zh_bug_replay(&g, force, &b);
		for (k = 0; k < 2; k++) {
			j.flags = k ? ZH_JSON_FENS : 0;
			s = written(w_json, &j, &n);
			if ((o = json_loads(s, 0, NULL)) == NULL ||
			    played(json_object_get(o, "moves")) != b.nmoves) {
				fprintf(stderr, "fuzz_bughouse: bad JSON: %s\n",
				    s);
				abort();
			}
			json_decref(o);
			free(s);
		}
		for (k = 0; k < sizeof dialects / sizeof dialects[0]; k++) {
			j.d = dialects[k];
			s = written(w_bpgn, &j, &n);
			if (b.complete && b.labels && g.err.code == ZH_OK &&
			    n > 0)
				same_game(s, n, &b, force);
			free(s);
			for (j.board = 0; j.board < 2; j.board++)
				free(written(w_board, &j, &n));
		}
	}
	zh_bug_free(&b);
	zh_pgn_close(r);
	fclose(f);
	return 0;
}
