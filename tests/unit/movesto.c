/* movesto.c - the targeted move lookup that SAN reading and writing use
 * (zh__moves_to, zh__drop_ok) must agree with full legal move generation,
 * in every position of real games: testdata/pgn/pychess-zh.pgn (83 FICS
 * crazyhouse games) and the grand game; and SAN written reads back;
 * and zh_has_legal agrees with counting, also after every checking move;
 * also in the 1,938 random mid-game positions of fs-random.perft (every
 * variant, captures, drops and promotions preferred), and one move after
 * every fourth of them.  zh__play_run, in each of its four texts, plays
 * the games as zh_replay does. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "zh_int.h"

static long positions, checks;

/* The bitboards and the check flag that zh_make and the FEN reader keep,
 * against those recomputed from the squares. */
static void
same_bitboards(const struct zh_pos *p)
{
	struct zh_pos c = *p;

	zh_pos_update(&c);	/* the check flag too, the slow way */
	CHECK(p->check == 0 || c.check == p->check);
	CHECK(memcmp(c.bb_side, p->bb_side, sizeof c.bb_side) == 0);
	CHECK(memcmp(c.bb_type, p->bb_type, sizeof c.bb_type) == 0);
}

/* Is s attacked by a piece of 'by'?  Piece by piece, the slow way (s not
 * holding a piece of 'by'). */
static bool
ref_attacked(const struct zh_pos *p, int s, int by)
{
	int r, f;

	for (r = 0; r < p->v->ranks; r++)
		for (f = 0; f < p->v->files; f++) {
			int x = ZH_SQ(f, r), fwd = by == ZH_WHITE ? 16 : -16;
			unsigned char pc = p->sq[x];

			if (pc == 0 || ZH_COLOR(pc) != by)
				continue;
			if (ZH_TYPE(pc) == ZH_PAWN) {
				if (s == x + fwd - 1 || s == x + fwd + 1)
					return true;
			} else if (zh__reaches(p, x, s))
				return true;
		}
	return false;
}

static long fast_played;

/* Are two positions the same, field by field? */
static bool
same_pos(const struct zh_pos *a, const struct zh_pos *b)
{
	return a->v == b->v && memcmp(a->sq, b->sq, sizeof a->sq) == 0 &&
	    memcmp(a->pocket, b->pocket, sizeof a->pocket) == 0 &&
	    memcmp(a->count, b->count, sizeof a->count) == 0 &&
	    memcmp(a->king, b->king, sizeof a->king) == 0 &&
	    a->side == b->side && a->castle == b->castle && a->ep == b->ep &&
	    a->halfmove == b->halfmove && a->fullmove == b->fullmove &&
	    a->check == b->check &&
	    memcmp(a->bb_side, b->bb_side, sizeof a->bb_side) == 0 &&
	    memcmp(a->bb_type, b->bb_type, sizeof a->bb_type) == 0;
}

/*
 * zh__play_fast against the general reader and zh_make, for every text
 * of its forms on every square ("e4", "exd5", "Nf3", "Nxf3", "N@f3",
 * "@e4", "p@e4", with '+' after some, "e8=Q", "exd8=N", "O-O", "O-O-O",
 * and "Nbd2", "N1d2", "Nb1xd2" for each legal piece move): what it plays, the reader reads
 * the same, zh_make gives the same position, and its SAN and UCI are
 * zh__san_body's and zh_uci_write's; what it refuses leaves p as it was.
 */
/* One text through zh__play_fast, checked as fast_play() says. */
static void
fast_one(const struct zh_pos *p, const char *s, size_t n)
{
	char san[ZH_MOVEMAX], uci[ZH_MOVEMAX], want[ZH_MOVEMAX];
	struct zh_pos c = *p, d = *p;
	struct zh_move m, g;

	if (!zh__play_fast(&c, s, n, &m, san, uci)) {
		CHECK(same_pos(&c, p));
		return;
	}
	fast_played++;
	CHECK(zh_san_read(p, s, n, &g, NULL) == 0 && zh_move_eq(m, g) &&
	    m.flags == g.flags);
	zh_make(&d, m);
	CHECK(same_pos(&c, &d));
	zh__san_body(p, m, ZH_LICHESS, want);
	CHECK(strcmp(san, want) == 0);
	zh_uci_write(p, m, want);
	CHECK(strcmp(uci, want) == 0);
}

/* Each legal piece move with its origin's file, rank or square written
 * (with and without 'x'), and with a file and a rank it is not on. */
static void
fast_disambiguated(const struct zh_pos *p)
{
	struct zh_move all[ZH_MAXMOVES];
	int i, k, n = zh_legal_moves(p, all);

	for (i = 0; i < n; i++) {
		const struct zh_move *m = &all[i];
		int t, ff, fr, tf, tr;
		char s[16];

		if (m->flags & (ZH_MDROP | ZH_MCASTLE))
			continue;
		t = ZH_TYPE(p->sq[m->from]);
		if (t == ZH_PAWN)
			continue;
		ff = 'a' + ZH_FILE(m->from);
		fr = '1' + ZH_RANK(m->from);
		tf = 'a' + ZH_FILE(m->to);
		tr = '1' + ZH_RANK(m->to);
		for (k = 0; k < 2; k++) {
			const char *x = k ? "x" : "";
			char l = zh_type_letter(t);

			fast_one(p, s, (size_t)snprintf(s, sizeof s, "%c%c%s%c%c",
			    l, ff, x, tf, tr));
			fast_one(p, s, (size_t)snprintf(s, sizeof s, "%c%c%s%c%c+",
			    l, fr, x, tf, tr));
			fast_one(p, s, (size_t)snprintf(s, sizeof s, "%c%c%c%s%c%c",
			    l, ff, fr, x, tf, tr));
			fast_one(p, s, (size_t)snprintf(s, sizeof s, "%c%c%s%c%c",
			    l, ff == 'h' ? 'a' : ff + 1, x, tf, tr));
			fast_one(p, s, (size_t)snprintf(s, sizeof s, "%c%c%s%c%c",
			    l, fr == '8' ? '1' : fr + 1, x, tf, tr));
		}
	}
}

static void
fast_play(const struct zh_pos *p)
{
	static const char *const pre[] = {
		"", "N", "B", "R", "Q", "K", "Nx", "Bx", "Rx", "Qx", "Kx",
		"@", "P@", "N@", "B@", "R@", "Q@", "p@", "K@", "Px", "P",
		"ax", "bx", "cx", "dx", "ex", "fx", "gx", "hx", "x"
	};
	size_t i;
	int f, r;

	if (p->v->files != 8 || p->v->ranks != 8)
		return;
	for (r = 0; r < 8; r++)
		for (f = 0; f < 8; f++)
			for (i = 0; i < sizeof pre / sizeof pre[0]; i++) {
				char s[16];
				int n = snprintf(s, sizeof s, "%s%c%c%s", pre[i],
				    'a' + f, '1' + r, (f + r) % 3 == 0 ? "+" : "");

				fast_one(p, s, (size_t)n);
			}
	/* promotions on the first two and last two ranks, and castling */
	for (r = 0; r < 8; r = r == 1 ? 6 : r + 1)
		for (f = 0; f < 8; f++)
			for (i = 0; i < 9; i++) {
				static const char *const promo[] = {
					"=Q", "=N", "=R", "=B", "=K", "=P", "=q",
					"Q", "=Q+"
				};
				size_t k;

				for (k = 0; k < sizeof promo / sizeof promo[0];
				    k++) {
					char s[16];
					int n = snprintf(s, sizeof s, "%s%c%c%s",
					    pre[i == 0 ? 0 : 20 + i], 'a' + f,
					    '1' + r, promo[k]);

					fast_one(p, s, (size_t)n);
				}
			}
	{
		static const char *const castle[] = {
			"O-O", "O-O-O", "O-O+", "O-O-O#", "0-0", "O-O-O-O", "O-"
		};

		for (i = 0; i < sizeof castle / sizeof castle[0]; i++)
			fast_one(p, castle[i], strlen(castle[i]));
	}
	fast_disambiguated(p);
}

/* zh_legal_to over every square lists each legal move once, and
 * zh_legal_rank and zh_legal_nth are its ranks both ways (zhindex's
 * stored moves). */
static void
legal_to(const struct zh_pos *p, const struct zh_move *all, int n)
{
	struct zh_move some[ZH_MAXMOVES], m;
	int r, f, i, k, total = 0;

	for (r = 0; r < p->v->ranks; r++)
		for (f = 0; f < p->v->files; f++) {
			int to = ZH_SQ(f, r), got = zh_legal_to(p, to, some);

			total += got;
			for (k = 0; k < got; k++) {
				for (i = 0; i < n && !(zh_move_eq(all[i],
				    some[k]) && all[i].flags == some[k].flags); i++)
					;
				CHECK(i < n && some[k].to == to);
				CHECK(zh_legal_rank(p, some[k]) == k);
				CHECK(zh_legal_nth(p, to, k, &m) == 0 &&
				    zh_move_eq(m, some[k]) &&
				    m.flags == some[k].flags);
			}
			CHECK(zh_legal_nth(p, to, got, &m) == -1);
		}
	CHECK(total == n);
}

static void
compare(const struct zh_pos *p)
{
	struct zh_move all[ZH_MAXMOVES], some[ZH_MAXMOVES];
	int n = zh_legal_moves(p, all), r, f, t, i, k;

	positions++;
	same_bitboards(p);
	for (r = 0; r < p->v->ranks; r++)
		for (f = 0; f < p->v->files; f++) {
			int to = ZH_SQ(f, r), by;

			for (by = 0; by < 2; by++)
				if (p->sq[to] == 0 || ZH_COLOR(p->sq[to]) != by)
					CHECK(zh_attacked(p, to, by) ==
					    ref_attacked(p, to, by));

			for (t = ZH_PAWN; t < ZH_NTYPES; t++) {
				int want = 0, got = zh__moves_to(p, t, to, some);
				bool drop = false;

				for (i = 0; i < n; i++) {
					if (all[i].to != to)
						continue;
					if (all[i].flags & ZH_MDROP)
						drop |= all[i].piece == t;
					else if (ZH_TYPE(p->sq[all[i].from]) == t)
						want++;
				}
				CHECK(got == want);
				CHECK(zh__drop_ok(p, t, to) == drop);
				for (k = 0; k < got; k++)
					CHECK(zh_is_legal(p, some[k]));
			}
		}
	legal_to(p, all, n);
	/* zh_has_legal's shortcuts (king steps, drops, moves to the
	   checker's line) against counting, here and after every check */
	CHECK(zh_has_legal(p) == (n > 0));
	for (i = 0; i < n; i++) {
		struct zh_pos c = *p;

		zh_make(&c, all[i]);
		same_bitboards(&c);
		if (zh_in_check(&c)) {
			checks++;
			CHECK(zh_has_legal(&c) == (zh_count_legal(&c) > 0));
		}
	}
	for (i = 0; i < n; i++) {
		char san[ZH_MOVEMAX];
		struct zh_move m;

		zh_san_write(p, all[i], ZH_LICHESS, san);
		CHECK(zh_san_read(p, san, strlen(san), &m, NULL) == 0 &&
		    zh_move_eq(m, all[i]));
	}
}

static long run_played;

/* A watch (zh_run's, r->watch's) that counts its calls and keeps the
 * last position it was shown; after 'stop' calls it asks for no more. */
struct seen {
	long calls, stop;
	struct zh_pos last;
};

static int
seen_move(void *arg, const struct zh_pos *p)
{
	struct seen *w = arg;

	w->calls++;
	w->last = *p;
	return w->calls == w->stop;
}

/*
 * zh__play_run from the start of game g, asked for each of its four
 * texts (SAN and UCI, SAN, UCI, neither), and two with a watch (told of
 * every move played, until it says stop), as zh_replay's walk calls it:
 * what it plays is zh_replay's move, ply and texts ('#' is the caller's:
 * '+' here) and no text it was not asked for; the mainline moves it
 * leaves are made here, variations passed over.  The position at the
 * end is zh_replay's.
 */
static void
play_runs(const struct zh_game *g, const struct zh_replay *rp)
{
	struct zh_rmove *mv = calloc(g->ntoks + 1, sizeof *mv);
	int texts;

	CHECK(mv != NULL);
	if (mv == NULL)
		return;
	for (texts = 0; texts < 6; texts++) {
		bool san = texts & 1, uci = texts & 2, stopped = false;
		/* 4: neither text (zhcheck's), watched to the end; 5: SAN
		   (zhpgn's), the watch asking to stop after 3 calls */
		struct seen w = { 0, texts == 5 ? 3 : -1, { 0 } };
		struct zh_pos p = rp->start;
		long ply = 0;
		size_t i = 0, j, k;

		memset(mv, 0, g->ntoks * sizeof *mv);
		while (i < g->ntoks) {
			struct zh_run run = { san, uci, 0, ply, 99, 99,
			    texts >= 4 && w.calls != w.stop ? seen_move : NULL,
			    &w };
			const struct zh_token *t;
			long calls = w.calls;
			bool watched = run.watch != NULL;

			k = zh__play_run(&p, g->toks, i, g->ntoks, mv, &run);
			/* told of each move played, up to its stop */
			if (watched) {
				CHECK(w.calls - calls == (w.stop < 0 ||
				    calls + (long)run.played < w.stop ?
				    (long)run.played :
				    w.stop - calls));
				CHECK((run.watch == NULL) == (w.calls == w.stop));
				if (w.stop < 0 && run.played > 0)
					CHECK(same_pos(&w.last, &p));
			} else
				CHECK(run.watch == NULL && w.calls == calls);
			CHECK(k >= i && k <= g->ntoks);
			if (p.v->files != 8 || p.v->ranks != 8)
				CHECK(k == i && run.played == 0);
			for (j = i; j < k; j++) {
				const struct zh_rmove *m = &mv[j], *want;
				char wsan[ZH_MOVEMAX];
				size_t n;

				if (g->toks[j].kind != ZH_T_MOVE)
					continue;
				want = &rp->moves[j];
				run_played++;
				CHECK(m->ok && want->ok && zh_move_eq(m->move,
				    want->move) && m->move.flags == want->move.flags);
				CHECK(m->ply == want->ply && m->depth == 0);
				memcpy(wsan, want->san, sizeof wsan);
				n = strlen(wsan);
				if (n > 0 && wsan[n - 1] == '#')
					wsan[n - 1] = '+';
				CHECK(strcmp(m->san, san ? wsan : "") == 0);
				CHECK(strcmp(m->uci, uci ? want->uci : "") == 0);
				CHECK(run.played > 0 && run.last >= j);
			}
			CHECK(run.played == 0 || run.last < k);
			ply = run.ply;
			if (k >= g->ntoks)
				break;
			t = &g->toks[k];
			if (t->kind == ZH_T_VSTART) {	/* to its VEND */
				int depth = 0;

				for (i = k; i < g->ntoks; i++)
					if (g->toks[i].kind == ZH_T_VSTART)
						depth++;
					else if (g->toks[i].kind == ZH_T_VEND &&
					    --depth == 0)
						break;
				i++;
				continue;
			}
			if (t->kind == ZH_T_MOVE) {
				if (!rp->moves[k].ok) {
					stopped = true;
					break;
				}
				zh_make(&p, rp->moves[k].move);
				ply++;
			}
			i = k + 1;
		}
		if (!stopped && rp->complete) {
			struct zh_pos want = rp->final;

			p.check = want.check = 0;
			CHECK(same_pos(&p, &want));
			CHECK(ply == rp->nplies);
		}
	}
	free(mv);
}

static void
file(const char *path)
{
	FILE *f = fopen(path, "r");
	struct zh_pgn_reader *r;
	struct zh_replay rp;
	struct zh_game g;
	size_t i;

	CHECK(f != NULL);
	if (f == NULL)
		return;
	memset(&rp, 0, sizeof rp);
	r = zh_pgn_open(f, NULL);
	while (zh_pgn_next(r, &g) == 1) {
		struct zh_pos p;

		if (zh_replay(&g, NULL, &rp) != 0)
			continue;
		play_runs(&g, &rp);
		p = rp.start;
		compare(&p);
		fast_play(&p);
		for (i = 0; i < g.ntoks; i++)
			if (g.toks[i].kind == ZH_T_MOVE && rp.moves[i].ok &&
			    rp.moves[i].depth == 0) {
				zh_make(&p, rp.moves[i].move);
				compare(&p);
				fast_play(&p);
			}
	}
	zh_replay_free(&rp);
	zh_pgn_close(r);
	fclose(f);
}

/* The mid-game positions of a perft file ("variant" and "epd" lines),
 * and every position one legal move after each. */
static void
perft_positions(const char *path)
{
	FILE *f = fopen(path, "r");
	const struct zh_variant *v = NULL;
	char line[1024];
	long before = positions, k = 0;

	CHECK(f != NULL);
	if (f == NULL)
		return;
	while (fgets(line, sizeof line, f) != NULL) {
		struct zh_move all[ZH_MAXMOVES];
		struct zh_pos p;
		int i, n;

		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "variant ", 8) == 0) {
			v = zh_variant_find(line + 8);
			CHECK(v != NULL);
			continue;
		}
		if (strncmp(line, "epd ", 4) != 0 || v == NULL)
			continue;
		CHECK(zh_fen_read(&p, line + 4, v, ZH_AUTO, 0, NULL) == 0);
		compare(&p);
		fast_play(&p);
		if (k++ % 4 != 0)	/* the moves of every fourth */
			continue;
		n = zh_legal_moves(&p, all);
		for (i = 0; i < n; i++) {
			struct zh_pos c = p;

			zh_make(&c, all[i]);
			compare(&c);
		}
	}
	fclose(f);
	CHECK(positions - before > 20000);
}

int
main(void)
{
	perft_positions("testdata/perft/fs-random.perft");
	file("testdata/pgn/pychess-zh.pgn");
	file("testdata/pgn/pychess-variants-grand.pgn");
	file("testdata/pgn/crazyara-engine_tournament.pgn");
	fprintf(stderr, "movesto: %ld positions, %ld checks, %ld moves played "
	    "by zh__play_fast\n", positions, checks, fast_played);
	fprintf(stderr, "movesto: %ld moves played by zh__play_run, in its "
	    "four texts and two watched\n", run_played);
	CHECK(fast_played > 100000);
	CHECK(run_played > 10000);
	CHECK(positions > 10000);
	CHECK(checks > 10000);
	return check_report("movesto");
}
