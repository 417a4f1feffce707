/*
 * fuzz_select.c - libFuzzer target: the selection tests' parser, and the
 * reader's filter.  The input is a kind (its first byte), a test's text
 * (to the first line end) and PGN (the rest).  The test is parsed and,
 * if it parses, decided on every game of the PGN; the PGN is read with
 * no filter and with one that drops every other game, and the two
 * readers must find the same game boundaries (abort if not).
 */
#include <stdlib.h>
#include <string.h>

#include "zh.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static int
drop_odd(void *arg, const struct zh_game *g)
{
	(void)arg;
	return (int)(g->number & 1);
}

static void
same(const struct zh_game *a, const struct zh_game *b)
{
	if (a->number != b->number || a->line != b->line ||
	    a->rawlen != b->rawlen || memcmp(a->raw, b->raw, a->rawlen) != 0 ||
	    a->skipped.lines != b->skipped.lines ||
	    a->skipped.bytes != b->skipped.bytes)
		abort();
	if (!b->dropped && (a->ntoks != b->ntoks || a->err.code != b->err.code))
		abort();
	if (b->dropped && (b->ntoks != 0 || b->err.code != ZH_OK))
		abort();
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	const unsigned char *nl;
	size_t tlen, plen;
	char *text, *pgn;
	struct zh_select *s;
	struct zh_error err = { 0 };
	struct zh_pgn_reader *a, *b;
	struct zh_game ga, gb;
	struct zh_replay r;
	struct zh_select_scratch sc = { 0 };
	int kind, ra, rb;

	if (size < 1)
		return 0;
	kind = data[0] % 8;		/* 0: not a kind */
	nl = memchr(data + 1, '\n', size - 1);
	tlen = nl ? (size_t)(nl - data - 1) : size - 1;
	plen = nl ? size - 1 - tlen - 1 : 0;
	if ((text = malloc(tlen + 1)) == NULL ||
	    (pgn = calloc(plen + ZH_PGN_PAD, 1)) == NULL) {
		free(text);
		return 0;
	}
	memcpy(text, data + 1, tlen);
	text[tlen] = '\0';
	if (plen > 0)
		memcpy(pgn, nl + 1, plen);
	s = zh_select_new();
	if (s != NULL && zh_select_add(s, kind, text, &err) != 0 &&
	    (err.code == ZH_OK || err.col < 0 || err.col > (long)tlen + 1))
		abort();	/* an error has a reason and a column in text */
	a = zh_pgn_mem(NULL, pgn, plen, NULL, 0, 0);
	b = zh_pgn_mem(NULL, pgn, plen, NULL, 0, 0);
	memset(&r, 0, sizeof r);
	r.fast = data[0] & 8;
	if (a != NULL && b != NULL) {
		zh_pgn_set_filter(b, drop_odd, NULL);
		for (;;) {
			ra = zh_pgn_next(a, &ga);
			rb = zh_pgn_next(b, &gb);
			if (ra != rb)
				abort();
			if (ra <= 0)
				break;
			same(&ga, &gb);
			if (s != NULL && zh_select_tags(s, &ga) >= 0) {
				int rc = zh_replay(&ga, NULL, &r);

				(void)zh_select_game(s, &ga, &r, rc, &sc);
				(void)zh_game_key(&ga, &r);
			}
		}
	}
	zh_pgn_close(a);
	zh_pgn_close(b);
	zh_replay_free(&r);
	zh_select_scratch_free(&sc);
	zh_select_free(s);
	free(text);
	free(pgn);
	return 0;
}
