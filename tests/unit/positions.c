/* positions.c - unit tests of lib/positions.c: the fast JSON writer's
 * text is byte for byte what Jansson makes of it (parsed, dumped compact
 * in order), over every position of the test games, appended after
 * other text as well as alone; lines of play; ply selection. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "zh.h"

struct acc {
	long positions, own;
	unsigned flags;
};

/* A position whose site is longer than the writer's first try: written
 * again with room, after other text, and read back whole. */
static void
long_site(const struct zh_ply *pl)
{
	static char site[5000];
	struct zh_text t = { 0 };
	struct zh_ply q = *pl;
	json_t *o;

	memset(site, 'x', sizeof site - 1);
	q.file = "f.pgn";
	q.site = site;
	/* 8 bytes of the caller's with "[" in them: grown to the first
	   try's room, then to the length that try told */
	t.s = malloc(8);
	CHECK(t.s != NULL);
	if (t.s == NULL)
		return;
	t.cap = 8;
	t.s[t.len++] = '[';
	t.s[t.len] = '\0';
	CHECK(zh_ply_json(&t, &q, ZH_LICHESS, 0) == 0 && t.s[0] == '[' &&
	    strlen(t.s) == t.len && t.len > sizeof site);
	o = json_loadb(t.s + 1, t.len - 1, 0, NULL);
	CHECK(o != NULL && strcmp(json_string_value(json_object_get(o,
	    "site")), site) == 0);
	json_decref(o);
	zh_text_free(&t);
}

static int
each(void *arg, const struct zh_ply *pl)
{
	struct acc *a = arg;
	int d;

	if (a->positions++ == 0)
		long_site(pl);
	if (!pl->prefix)
		a->own++;
	for (d = ZH_LICHESS; d < ZH_NDIALECTS; d++) {
		struct zh_text t = { 0 }, u = { 0 };
		json_t *o;
		char *s;

		CHECK(zh_ply_json(&t, pl, d, a->flags) == 0);
		o = json_loadb(t.s, t.len, 0, NULL);
		s = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER |
		    JSON_REAL_PRECISION(15)) : NULL;
		CHECK(s != NULL && strlen(t.s) == t.len && strcmp(s, t.s) == 0);
		if (s == NULL || strcmp(s, t.s) != 0)
			fprintf(stderr, "fast: %s\njansson: %s\n", t.s, s);
		/* appended after a line of other text: the same bytes */
		CHECK(zh_ply_json(&u, pl, d, a->flags) == 0 && u.len == t.len);
		u.s[u.len++] = '\n';
		CHECK(zh_ply_json(&u, pl, d, a->flags) == 0 &&
		    u.len == 2 * t.len + 1 && strcmp(u.s + t.len + 1, t.s) == 0);
		free(s);
		json_decref(o);
		zh_text_free(&t);
		zh_text_free(&u);
	}
	return 0;
}

static void
file(const char *path, unsigned wflags, long want_games)
{
	FILE *f = fopen(path, "r");
	struct zh_pgn_reader *r;
	struct zh_replay rp;
	struct zh_lines w;
	struct zh_game g;
	struct acc a = { 0, 0, wflags & ZH_WALK_VARIATIONS ? ZH_PLY_VARIATION : 0 };
	long games = 0;

	memset(&rp, 0, sizeof rp);
	memset(&w, 0, sizeof w);
	CHECK(f != NULL);
	if (f == NULL)
		return;
	r = zh_pgn_open(f, NULL);
	while (zh_pgn_next(r, &g) == 1) {
		games++;
		zh_replay(&g, NULL, &rp);
		if (rp.err.code == ZH_OK || rp.err.ply > 0)
			CHECK(zh_lines_walk(&w, &g, &rp, wflags | ZH_WALK_COMMENTS,
			    each, &a) == 0);
	}
	CHECK(games == want_games);
	CHECK(a.positions > games);
	zh_pgn_close(r);
	zh_replay_free(&rp);
	zh_lines_free(&w);
	fclose(f);
}

static int
count(void *arg, const struct zh_ply *pl)
{
	long *n = arg;

	(void)pl;
	(*n)++;
	return 0;
}

int
main(void)
{
	struct zh_plysel s = { 0, -1, 1, false, false };
	struct zh_ply pl;
	struct zh_pos p;
	char buf[ZH_DIAGMAX];

	file("testdata/zhreplay/games.pgn", 0, 5);
	file("testdata/zhreplay/games.pgn", ZH_WALK_VARIATIONS, 5);
	file("testdata/pgn/lichess-2018-JannLee-CrazyAra.pgn", ZH_WALK_VARIATIONS, 1);
	file("testdata/pgn/python-chess-knightvuillaume-jannlee-zh.pgn",
	    ZH_WALK_VARIATIONS, 1);

	/* mainline of knightvuillaume: 48 plies, 49 positions; with its 18
	 * variations more */
	{
		FILE *f = fopen("testdata/pgn/python-chess-knightvuillaume-jannlee-zh.pgn", "r");
		struct zh_pgn_reader *r = zh_pgn_open(f, NULL);
		struct zh_replay rp;
		struct zh_lines w;
		struct zh_game g;
		long n = 0, nv = 0;

		memset(&rp, 0, sizeof rp);
		memset(&w, 0, sizeof w);
		CHECK(zh_pgn_next(r, &g) == 1);
		CHECK(zh_replay(&g, NULL, &rp) == 0);
		CHECK(zh_lines_walk(&w, &g, &rp, 0, count, &n) == 0);
		CHECK(n == 49);
		CHECK(zh_lines_walk(&w, &g, &rp, ZH_WALK_VARIATIONS, count, &nv) == 0);
		CHECK(nv > n);
		CHECK(w.ninfo == 19);
		CHECK(strcmp(zh_game_result(&g), "0-1") == 0);
		zh_pgn_close(r);
		zh_replay_free(&rp);
		zh_lines_free(&w);
		fclose(f);
	}

	/* ply ranges */
	CHECK(zh_plysel_range(&s, "3-7") == 0 && s.from == 3 && s.to == 7);
	CHECK(zh_plysel_range(&s, "3-") == 0 && s.from == 3 && s.to == -1);
	CHECK(zh_plysel_range(&s, "-7") == 0 && s.from == 0 && s.to == 7);
	CHECK(zh_plysel_range(&s, "5") == 0 && s.from == 5 && s.to == 5);
	CHECK(zh_plysel_range(&s, "7-3") == -1);
	CHECK(zh_plysel_range(&s, "-") == -1);
	CHECK(zh_plysel_range(&s, "a") == -1);
	CHECK(zh_plysel_range(&s, "1-2-3") == -1);
	memset(&pl, 0, sizeof pl);
	s.from = 2;
	s.to = -1;
	s.every = 3;
	pl.ply = 5;
	CHECK(zh_plysel_match(&s, &pl));
	pl.ply = 6;
	CHECK(!zh_plysel_match(&s, &pl));
	s.final_only = true;
	pl.last = true;
	CHECK(zh_plysel_match(&s, &pl));

	/* SAN per dialect */
	CHECK(zh_san_dialect("P@e4+", ZH_CHESSCOM, buf) == 4 && strcmp(buf, "@e4+") == 0);
	CHECK(zh_san_dialect("P@e4", ZH_LICHESS, buf) == 4 && strcmp(buf, "P@e4") == 0);
	CHECK(zh_san_dialect("Nxe4", ZH_CHESSCOM, buf) == 4);

	/* a 10x10 diagram has ten ranks and files a..j */
	zh_pos_start(&p, zh_variant_find("grandhouse"));
	zh_diagram_write(&p, NULL, 0, buf, sizeof buf);
	CHECK(strstr(buf, "10 | r ") != NULL);
	CHECK(strstr(buf, " a  b  c  d  e  f  g  h  i  j\n") != NULL);
	return check_report("positions");
}
