/*
 * fuzz_game.c - libFuzzer target for everything after the PGN reader:
 * each game is replayed, checked (--strict), written as PGN in the three
 * dialects and as JSON, and walked position by position (variations,
 * clocks and evals included) through the JSON and diagram writers.
 * Built by make fuzz; make check replays its corpus (tests/fuzz.bats).
 *
 * The invariants: the fast per-position JSON writer gives the same bytes
 * as json_dumps of the Jansson object built from the same position, a
 * short buffer gets the same length back and a terminated prefix, and
 * the diagram writer's length is what it wrote; the game's JSON with and
 * without FENs is JSON, with the same SAN and UCI of each mainline move;
 * a replay for SAN alone writes the same PGN as one for SAN and UCI.
 * The first byte picks
 * the variant forced on every game (none, or one of the table), so
 * that 10x10 boards and every rule set are reached from any movetext.
 *
 * A run is kept cheap, so that the fuzzer gets past its seeds: the
 * input's size picks one of three parts (check and PGN, the game's
 * JSON, the walk), and the walk writes each position in one dialect
 * and one diagram style, turn about (the regression corpus, standalone.c,
 * gets all of it).  All of it at once touched so
 * much code that libFuzzer's bookkeeping of the features a run hits
 * (entropic) took two thirds of the time: 2,205 runs in 76 s.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* standalone.c's (not linked under libFuzzer): every part each run */
extern int zh_fuzz_standalone __attribute__((weak));

/* What write() puts in a memory stream, parsed as JSON if 'json'. */
struct out {
	char *s;
	size_t n;
	json_t *j;
};

static void
out_json(struct out *o, const struct zh_game *g, const struct zh_replay *rp,
    unsigned flags)
{
	struct zh_error err;
	struct zh_text t = { 0 };

	if (zh_game_json(&t, g, rp, ZH_LICHESS, flags, &err) != 0)
		abort();
	o->s = t.s;
	o->n = t.len;
	if ((o->j = json_loads(o->s, 0, NULL)) == NULL) {
		fprintf(stderr, "fuzz_game: not JSON: %s\n", o->s);
		abort();	/* not JSON */
	}
}

static void
out_pgn(struct out *o, const struct zh_game *g, const struct zh_replay *rp)
{
	struct zh_error err;
	FILE *f = open_memstream(&o->s, &o->n);
	int d;

	if (f == NULL)
		abort();
	for (d = ZH_LICHESS; d <= ZH_CHESSCOM; d++)
		zh_pgn_write(f, g, rp, d, &err);
	if (fclose(f) != 0)
		abort();
	o->j = NULL;
}

static void
out_free(struct out *o)
{
	json_decref(o->j);
	free(o->s);
}

/* The same "san" and "uci" of each move in two JSON games' "moves". */
static void
same_moves(json_t *a, json_t *b)
{
	json_t *ma = json_object_get(a, "moves"), *mb = json_object_get(b,
	    "moves");
	size_t i;

	if (json_array_size(ma) != json_array_size(mb))
		abort();
	for (i = 0; i < json_array_size(ma); i++) {
		json_t *x = json_array_get(ma, i), *y = json_array_get(mb, i);

		if (!json_equal(json_object_get(x, "san"),
		    json_object_get(y, "san")) ||
		    !json_equal(json_object_get(x, "uci"),
		    json_object_get(y, "uci")))
			abort();
	}
}

static const char *const forced[] = {
	"crazyhouse", "chess", "loop", "chessgi", "grandhouse", "upsidedown",
	"wild5", "grand"
};

/* What the walk does at each position. */
struct walk {
	unsigned flags;		/* zh_ply_json's */
	bool all;		/* every dialect and diagram style */
};

/* Position pl in one dialect and one diagram style, by its ply and
 * line (across a game's positions, every one of each), or in all. */
static int
each(void *arg, const struct zh_ply *pl)
{
	const struct walk *w = arg;
	unsigned flags = w->flags;
	char buf[4096];
	long turn = pl->ply + pl->line;
	int d = (int)(turn % ZH_NDIALECTS), dend = w->all ? ZH_NDIALECTS : d + 1;
	unsigned k = (unsigned)(turn % 4), kend = w->all ? 4 : k + 1;

	if (w->all)
		d = k = 0;
	for (; d < dend; d++) {	/* JSON that Jansson writes the same */
		struct zh_text t = { 0 };
		json_t *o;
		char *s;

		if (zh_ply_json(&t, pl, d, flags) != 0 || strlen(t.s) != t.len)
			abort();
		o = json_loadb(t.s, t.len, 0, NULL);
		s = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER |
		    JSON_REAL_PRECISION(15)) : NULL;
		if (s == NULL || strcmp(s, t.s) != 0)
			abort();
		free(s);
		json_decref(o);
		zh_text_free(&t);
	}
	for (; k < kend; k++) {	/* ASCII, Unicode, colour, both */
		size_t n = zh_diagram_write(pl->pos,
		    pl->move ? &pl->move->move : NULL, k, buf, sizeof buf);

		if (n < sizeof buf && strlen(buf) != n)
			abort();
	}
	return 0;
}

/* Checked (--strict), its report JSON; written as PGN in the three
 * dialects from a replay for SAN alone and one for SAN and UCI. */
static void
part_check_pgn(const struct zh_game *g, const struct zh_variant *force,
    struct zh_replay *rp, struct zh_check *ck)
{
	struct out pgn, pgn_san;
	struct zh_text js = { 0 };

	zh_check_game(g, force, ZH_CHECK_STRICT, ck);
	if (zh_check_json(&js, ck, g, "fuzz") == 0) {
		json_t *o = json_loads(js.s, 0, NULL);

		if (o == NULL)
			abort();	/* not JSON */
		json_decref(o);
		zh_text_free(&js);
	}
	rp->fast = false;
	rp->no_uci = true;	/* SAN alone, as zhpgn's PGN writers */
	zh_replay(g, force, rp);
	out_pgn(&pgn_san, g, rp);
	rp->no_uci = false;
	zh_replay(g, force, rp);
	out_pgn(&pgn, g, rp);
	if (pgn.n != pgn_san.n || memcmp(pgn.s, pgn_san.s, pgn.n) != 0)
		abort();
	out_free(&pgn);
	out_free(&pgn_san);
}

/* The game's JSON with and without FENs. */
static void
part_json(const struct zh_game *g, const struct zh_variant *force,
    struct zh_replay *rp)
{
	struct out fens, plain;

	rp->fast = false;
	rp->no_uci = false;
	zh_replay(g, force, rp);
	out_json(&fens, g, rp, ZH_JSON_FENS);
	out_json(&plain, g, rp, 0);
	same_moves(fens.j, plain.j);
	out_free(&fens);
	out_free(&plain);
}

/* Every position, variations, clocks and evals included. */
static void
part_walk(const struct zh_game *g, const struct zh_variant *force,
    struct zh_replay *rp, struct zh_lines *lw, bool all)
{
	unsigned wflags = ZH_WALK_VARIATIONS | ZH_WALK_COMMENTS;
	struct walk w = { ZH_PLY_VARIATION, all };

	rp->fast = false;
	rp->no_uci = false;
	zh_replay(g, force, rp);
	if (rp->err.code == ZH_OK || rp->err.ply > 0)
		zh_lines_walk(lw, g, rp, wflags, each, &w);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct zh_pgn_limits lim = { .max_game = 3000, .max_tag = 40,
	    .max_comment = 100, .max_tags = 8, .max_plies = 30,
	    .max_tokens = 60, .max_depth = 4 };
	const struct zh_variant *force = NULL;
	struct zh_pgn_reader *r;
	struct zh_replay rp;
	struct zh_check ck;
	struct zh_lines lw;
	struct zh_game g;
	size_t part;
	bool all;
	FILE *f;

	if (size == 0)
		return 0;
	if (data[0] < sizeof forced / sizeof forced[0])
		force = zh_variant_find(forced[data[0]]);
	if ((f = fmemopen((void *)(uintptr_t)data, size, "r")) == NULL)
		return 0;
	memset(&rp, 0, sizeof rp);
	memset(&ck, 0, sizeof ck);
	memset(&lw, 0, sizeof lw);
	r = zh_pgn_open(f, size & 1 ? &lim : NULL);
	all = &zh_fuzz_standalone != NULL;
	part = (size >> 1) % 3;		/* the limits took bit 0 */
	while (zh_pgn_next(r, &g) == 1) {
		if (all || part == 0)
			part_check_pgn(&g, force, &rp, &ck);
		if (all || part == 1)
			part_json(&g, force, &rp);
		if (all || part == 2)
			part_walk(&g, force, &rp, &lw, all);
	}
	zh_lines_free(&lw);
	zh_replay_free(&rp);
	zh_check_free(&ck);
	zh_pgn_close(r);
	fclose(f);
	return 0;
}
