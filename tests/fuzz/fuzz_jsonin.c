/*
 * fuzz_jsonin.c - libFuzzer target for the reader of JSON Lines
 * (lib/jsonread.c): zhkit-json(5) game objects read back as games.
 * Built by make fuzz; make check replays its corpus (tests/fuzz.bats).
 *
 * The input is read as a stream of JSON lines (after a game object put
 * first, so that the stream is taken as JSON); odd sizes get small limits, so that every limit is reached.
 * The invariants: games are numbered in order, raw is the game's line
 * and no longer than the input, every token is on the game's line, tag
 * names are not empty; a game kept with zh_game_dup has the same tags
 * and token texts; every game replays and is written as PGN and as JSON
 * without a crash, and the JSON written of a game without a syntax error
 * reads back (as the first line of a new stream) to a game with the same
 * tags that is written as the same PGN.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char first[] = "{\"tags\":{\"Event\":\"x\"},\"moves\":[]}\n";

/* Do a and b have the same tags, and (if 'toks') the same tokens? */
static bool
same_game(const struct zh_game *a, const struct zh_game *b, bool toks)
{
	size_t k;

	if (a->ntags != b->ntags || (toks && a->ntoks != b->ntoks))
		return false;
	for (k = 0; k < a->ntags; k++)
		if (strcmp(a->tags[k].name, b->tags[k].name) != 0 ||
		    strcmp(a->tags[k].value, b->tags[k].value) != 0)
			return false;
	for (k = 0; toks && k < a->ntoks; k++)
		if (a->toks[k].kind != b->toks[k].kind ||
		    a->toks[k].len != b->toks[k].len ||
		    memcmp(a->toks[k].text, b->toks[k].text, a->toks[k].len) != 0)
			return false;
	return true;
}

/* Game g (replayed into rp) as PGN of dialect d, malloc'd; NULL if it
 * has no start position. */
static char *
pgn(const struct zh_game *g, const struct zh_replay *rp, int d, size_t *n)
{
	struct zh_error err;
	char *s = NULL;
	FILE *f;

	if (rp->v == NULL || (f = open_memstream(&s, n)) == NULL)
		return NULL;
	zh_pgn_write(f, g, rp, d, &err);
	if (fclose(f) != 0)
		abort();
	return s;
}

/*
 * g's JSON read back (as the first line of a new stream): a game with
 * g's tags that is written as the same PGN (move numbers the PGN writer
 * makes anew, and the SAN of a legal move, may differ in its tokens).
 */
static void
again(const struct zh_game *g, const struct zh_replay *rp)
{
	struct zh_error err;
	struct zh_pgn_reader *r;
	struct zh_replay hp;
	struct zh_game h;
	struct zh_text t = { 0 };
	char *s, *p1, *p2;
	size_t n, n1 = 0, n2 = 0;
	FILE *f;

	if (zh_game_json(&t, g, rp, ZH_LICHESS, 0, &err) != 0)
		abort();
	t.s[t.len++] = '\n';	/* a line of JSON Lines */
	s = t.s;
	n = t.len;
	if ((f = fmemopen(s, n, "r")) == NULL)
		abort();
	r = zh_pgn_open(f, NULL);
	memset(&hp, 0, sizeof hp);
	if (zh_pgn_next(r, &h) != 1 || h.err.code != ZH_OK ||
	    !same_game(g, &h, false)) {
		fprintf(stderr, "fuzz_jsonin: not read back: %s\n", s);
		abort();
	}
	zh_replay(&h, NULL, &hp);
	p1 = pgn(g, rp, ZH_CHESSCOM, &n1);
	p2 = pgn(&h, &hp, ZH_CHESSCOM, &n2);
	if ((p1 == NULL) != (p2 == NULL) || n1 != n2 ||
	    (p1 != NULL && memcmp(p1, p2, n1) != 0)) {
		fprintf(stderr, "fuzz_jsonin: other PGN: %s\n", s);
		abort();
	}
	free(p1);
	free(p2);
	zh_replay_free(&hp);
	zh_pgn_close(r);
	fclose(f);
	free(s);
}

/* Work on game g: the invariants, a copy, a replay and the writers. */
static void
game(const struct zh_game *g, size_t size, struct zh_replay *rp)
{
	struct zh_game *d;
	struct zh_error err;
	FILE *f;
	size_t k;

	if (g->rawlen > size || !g->texts_apart)
		abort();
	for (k = 0; k < g->ntoks; k++)
		if (g->toks[k].line != g->line || g->toks[k].col < 1)
			abort();
	for (k = 0; k < g->ntags; k++)
		if (g->tags[k].name[0] == '\0')
			abort();
	if ((d = zh_game_dup(g)) == NULL)
		abort();
	if (!same_game(g, d, true) || d->rawlen != g->rawlen ||
	    memcmp(d->raw, g->raw, g->rawlen) != 0)
		abort();
	free(d);
	zh_replay(g, NULL, rp);
	if ((f = fopen("/dev/null", "w")) == NULL)
		abort();
	if (rp->v != NULL)
		zh_pgn_write(f, g, rp, ZH_CHESSCOM, &err);
	fclose(f);
	{
		struct zh_text t = { 0 };

		if (zh_game_json(&t, g, rp, ZH_XBOARD, ZH_JSON_FENS, &err) != 0)
			abort();
		zh_text_free(&t);
	}
	if (g->err.code == ZH_OK)
		again(g, rp);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct zh_pgn_limits lim = { .max_game = 3000, .max_tag = 40,
	    .max_comment = 100, .max_tags = 8, .max_plies = 30,
	    .max_tokens = 60, .max_depth = 4 };
	struct zh_replay rp;
	struct zh_pgn_reader *r;
	struct zh_game g;
	char *buf;
	size_t n = size;
	long games = 0;
	FILE *f;

	if ((buf = malloc(size + sizeof first)) == NULL)
		return 0;
	memcpy(buf, first, sizeof first - 1);
	n += sizeof first - 1;
	if (size > 0)
		memcpy(buf + sizeof first - 1, data, size);
	if ((f = fmemopen(buf, n, "r")) == NULL) {
		free(buf);
		return 0;
	}
	memset(&rp, 0, sizeof rp);
	r = zh_pgn_open(f, size & 1 ? &lim : NULL);
	while (zh_pgn_next(r, &g) == 1) {
		if (g.number != ++games)
			abort();
		game(&g, n, &rp);
	}
	zh_replay_free(&rp);
	zh_pgn_close(r);
	fclose(f);
	free(buf);
	return 0;
}
