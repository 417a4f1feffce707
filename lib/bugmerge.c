/*
 * bugmerge.c - two board files of one bughouse game (chess.com exports
 * each board apart) merged back into one BPGN game, in the order of
 * time that the moves' time stamps ([%ts], from zhpgn --boards) or the
 * clocks give and, where they do not, that legality does.
 *
 * Each board is first replayed alone (zh_bug_replay plays a game
 * without labels as one board, its drops taken as sent): that settles
 * every move but the drops, whose pieces come from the other board.
 * What is in a hand after board A's first i half-moves and board B's
 * first j is then a sum of prefix counts (the captures of the other
 * board, less the drops of this one), whatever the interleaving: so
 * whether the next move of a board is legal depends on (i, j) alone,
 * and the search for a legal order is a walk on that grid, each point
 * visited once, bounded by ZH_BUG_MERGE_MAXSTATES.
 *
 * The merged game is read back, replayed and written by bugout.c's BPGN
 * writer; board files that zhpgn --boards wrote give their BPGN back
 * byte for byte: board A's carries the BPGN's tags (BPGNTags, BPGN<name>,
 * BPGNResultToken), each board the NAGs and comments after its moves.
 */
#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "zh_int.h"

static const char *const side_name[2] = { "White", "Black" };

/* One board's half-moves as the merge needs them. */
struct side_moves {
	const struct zh_game *g;
	struct zh_bug bug;		/* its replay as one board */
	size_t n;
	int64_t *t;			/* time from the start, ms, per move */
	int *sent;			/* (n + 1) x 2 x ZH_NTYPES: captures of
					   the first j moves, by the colour
					   of the piece sent */
	int *dropped;			/* (n + 1) x 2 x ZH_NTYPES: drops of the
					   first i moves, by the dropper */
	bool mates;			/* its last move mates: both boards end */
	struct zh_pos start;
};

#define PX(a, i, s, ty)	((a)[((size_t)(i) * 2 + (size_t)(s)) * ZH_NTYPES + (size_t)(ty)])

/* ======================== pairing ======================== */

/* The last '/'-separated part of s (a URL's game number). */
static const char *
last_part(const char *s)
{
	const char *p = strrchr(s, '/');

	return p != NULL ? p + 1 : s;
}

static const char *
partner_tag(const struct zh_game *g)
{
	const char *v = zh_game_tag(g, "PartnerGame");

	if (v == NULL)
		v = zh_game_tag(g, "PartnerGameId");
	return v != NULL && *v != '\0' ? v : NULL;
}

/* Does the partner tag value v name game g?  1 yes, 0 no, -1 g has no
 * GameId or Link tag to tell (a Site tag only ever says yes: many
 * games share one). */
static int
names(const char *v, const struct zh_game *g)
{
	static const char *const ids[] = { "GameId", "Link", "Site" };
	const char *lv = last_part(v);
	size_t k;
	int told = -1;

	for (k = 0; k < sizeof ids / sizeof ids[0]; k++) {
		const char *id = zh_game_tag(g, ids[k]);

		if (id == NULL || *id == '\0')
			continue;
		if (strcmp(id, v) == 0 ||
		    (*lv != '\0' && strcmp(last_part(id), lv) == 0))
			return 1;
		if (k < 2)
			told = 0;
	}
	return told;
}

/* 'A', 'B' or 0: the Board tag. */
static int
board_tag(const struct zh_game *g)
{
	const char *v = zh_game_tag(g, "Board");

	if (v == NULL || v[0] == '\0' || v[1] != '\0')
		return 0;
	return toupper((unsigned char)v[0]) == 'A' ? 'A' :
	    toupper((unsigned char)v[0]) == 'B' ? 'B' : 0;
}

int
zh_boards_pair(const struct zh_game *a, const struct zh_game *b)
{
	const char *pa = partner_tag(a), *pb = partner_tag(b);
	int ba = board_tag(a), bb = board_tag(b);

	if (pa == NULL && pb == NULL && ba == 0 && bb == 0)
		return ZH_PAIR_UNTAGGED;
	if ((pa != NULL && names(pa, b) == 0) ||
	    (pb != NULL && names(pb, a) == 0))
		return ZH_PAIR_NO;
	if (ba != 0 && ba == bb)
		return ZH_PAIR_NO;
	/* boards of one game: partner tags that name each other (or
	   cannot be told apart), one naming the other, or both boards
	   tagged; a game tagged next to an untagged one is a stranger */
	if (!(pa != NULL && pb != NULL) && !(ba != 0 && bb != 0) &&
	    !(pa != NULL && names(pa, b) == 1) &&
	    !(pb != NULL && names(pb, a) == 1))
		return ZH_PAIR_NO;
	return ba == 'B' || bb == 'A' ? ZH_PAIR_BA : ZH_PAIR_AB;
}

/* ======================== the boards alone ======================== */

static int64_t
ms_of(double sec)
{
	/* no libm: clocks are at most ZH_CLOCK_MAX either way */
	return (int64_t)(sec * 1000 + (sec < 0 ? -0.5 : 0.5));
}

/* Replay g as one board; its error as board bd's. */
static int
board_replay(struct side_moves *sm, const struct zh_game *g, int bd,
    const struct zh_variant *v, struct zh_error *err)
{
	const char *fen = zh_game_tag(g, "FEN");

	sm->g = g;
	sm->bug.fast = false;
	if (g->err.code != ZH_OK) {
		*err = g->err;
		snprintf(err->text, sizeof err->text, "board %c: %.180s",
		    zh_board_letter(bd), g->err.text);
		return -1;
	}
	if (zh_bug_replay(g, v, &sm->bug) != 0) {
		*err = sm->bug.err;
		if (err->ply == 0)	/* else the caller names the board */
			snprintf(err->text, sizeof err->text, "board %c: "
			    "%.180s", zh_board_letter(bd), sm->bug.err.text);
		return -1;
	}
	if (sm->bug.labels) {
		zh_error_set(err, ZH_EVARIANT, 1, "board %c: game %ld is a "
		    "two-board game (BPGN labels), not one board's",
		    zh_board_letter(bd), g->number);
		err->line = g->line;
		return -1;
	}
	sm->n = sm->bug.nmoves;
	sm->mates = sm->bug.mated_board >= 0 && sm->n > 0;
	/* a two-board FEN in a board file: this board's half of it */
	sm->start = sm->bug.start[fen != NULL && strchr(fen, '|') != NULL ?
	    bd : 0];
	return 0;
}

/* The prefix counts of what each board sends and drops. */
static int
counts(struct side_moves *sm)
{
	size_t i, row = 2 * ZH_NTYPES;

	sm->sent = calloc((sm->n + 1) * row, sizeof *sm->sent);
	sm->dropped = calloc((sm->n + 1) * row, sizeof *sm->dropped);
	sm->t = calloc(sm->n + 1, sizeof *sm->t);
	if (sm->sent == NULL || sm->dropped == NULL || sm->t == NULL)
		return -1;
	for (i = 0; i < sm->n; i++) {
		const struct zh_bmove *m = &sm->bug.moves[i];

		memcpy(&sm->sent[(i + 1) * row], &sm->sent[i * row],
		    row * sizeof *sm->sent);
		memcpy(&sm->dropped[(i + 1) * row], &sm->dropped[i * row],
		    row * sizeof *sm->dropped);
		if (m->captured)	/* the piece keeps its colour */
			PX(sm->sent, i + 1, !m->side, m->captured)++;
		if (m->rm.move.flags & ZH_MDROP)
			PX(sm->dropped, i + 1, m->side, m->rm.move.piece)++;
	}
	return 0;
}

/*
 * Each move's time from the start in ms: what both players of its
 * board have used by then.  A move without a clock keeps the time
 * before it; the times of a board never go back.
 */
static void
times(struct side_moves *sm, double base, double inc)
{
	int64_t used[2] = { 0, 0 }, last = 0, b = ms_of(base), in = ms_of(inc);
	long made[2] = { 0, 0 };
	size_t i;

	for (i = 0; i < sm->n; i++) {
		const struct zh_bmove *m = &sm->bug.moves[i];
		int64_t t;

		made[m->side]++;
		if (m->has_clock)
			used[m->side] = b - ms_of(m->clock) + in * made[m->side];
		t = used[0] + used[1];
		sm->t[i] = t > last ? t : last;
		last = sm->t[i];
	}
}

/* A time stamp in comment t: "[%ts 12.345]" (zhpgn --boards) or
 * bughouse.pro's "[ts=12.345]"; false if none. */
static bool
stamp_of(const struct zh_token *t, int64_t *ms)
{
	const char *p = t->text, *e = t->text + t->len;
	double sec = 0, scale = 0.1;

	if (zh_comment_clock(t->text, t->len, "ts", &sec)) {
		*ms = ms_of(sec);
		return true;
	}
	for (; e - p >= 5; p++)
		if (memcmp(p, "[ts=", 4) == 0 && isdigit((unsigned char)p[4]))
			break;
	if (e - p < 5)
		return false;
	for (p += 4; p < e && isdigit((unsigned char)*p) && sec < ZH_CLOCK_MAX;
	    p++)
		sec = sec * 10 + (*p - '0');
	if (p < e && *p == '.')
		for (p++; p < e && isdigit((unsigned char)*p); p++) {
			sec += (*p - '0') * scale;
			scale /= 10;
		}
	if (p >= e || *p != ']' || sec >= ZH_CLOCK_MAX)
		return false;
	*ms = ms_of(sec);
	return true;
}

/* Each move's time stamp, from the comments after it, into sm->t;
 * false unless every move has one. */
static bool
stamps(struct side_moves *sm)
{
	const struct zh_game *g = sm->g;
	size_t i, k;

	for (i = 0; i < sm->n; i++) {
		for (k = sm->bug.moves[i].tok + 1; k < g->ntoks &&
		    g->toks[k].kind != ZH_T_MOVE &&
		    g->toks[k].kind != ZH_T_VSTART; k++)
			if (g->toks[k].kind == ZH_T_COMMENT &&
			    stamp_of(&g->toks[k], &sm->t[i]))
				break;
		if (k >= g->ntoks || g->toks[k].kind != ZH_T_COMMENT)
			return false;
	}
	return true;
}

/* The clocks' resolution in ms: 1000, 100, 10 or 1. */
static int64_t
resolution(const struct side_moves sm[2])
{
	int64_t res = 1000;
	size_t i;
	int k;

	for (k = 0; k < 2; k++)
		for (i = 0; i < sm[k].n; i++) {
			const struct zh_bmove *m = &sm[k].bug.moves[i];
			int64_t c = ms_of(m->clock);

			while (m->has_clock && res > 1 && c % res != 0)
				res /= 10;
		}
	return res;
}

/* The base: TimeControl's (a's, else b's), else the largest first clock. */
static void
clock_base(const struct side_moves sm[2], double *base, double *inc)
{
	double hi = 0;
	size_t i;
	int k, seen;

	for (k = 0; k < 2; k++)
		if (zh__time_control(zh_game_tag(sm[k].g, "TimeControl"), base,
		    inc))
			return;
	*inc = 0;
	for (k = 0; k < 2; k++)
		for (seen = 0, i = 0; i < sm[k].n && seen != 3; i++) {
			const struct zh_bmove *m = &sm[k].bug.moves[i];

			if (!m->has_clock || (seen & (1 << m->side)))
				continue;
			seen |= 1 << m->side;
			if (m->clock > hi)
				hi = m->clock;
		}
	*base = hi;
}

/* ======================== the order ======================== */

struct merge {
	struct side_moves sm[2];
	int64_t window;			/* ms: times this close are undecided */
	unsigned char *order;		/* board of each merged half-move */
	size_t total;
	/* visited points (i, j) of the grid: an open hash set */
	uint64_t *seen;
	size_t seen_cap, seen_n;
	long states;
	/* the deepest point reached, for the error */
	size_t deep, deep_i[2];
};

/* Mark (i, j) visited; false if it was (or memory ran out: *oom). */
static bool
visit(struct merge *mg, size_t i, size_t j, bool *oom)
{
	uint64_t key = ((uint64_t)i << 32 | (uint64_t)j) + 1, h;
	size_t k;

	if (mg->seen_n * 2 >= mg->seen_cap) {
		size_t cap = mg->seen_cap ? mg->seen_cap * 2 : 1024;
		uint64_t *s = calloc(cap, sizeof *s);

		if (s == NULL) {
			*oom = true;
			return false;
		}
		for (k = 0; k < mg->seen_cap; k++)
			if (mg->seen[k] != 0) {
				h = mg->seen[k] * 0x9E3779B97F4A7C15u;
				for (h &= cap - 1; s[h] != 0; h = (h + 1) & (cap - 1))
					;
				s[h] = mg->seen[k];
			}
		free(mg->seen);
		mg->seen = s;
		mg->seen_cap = cap;
	}
	h = (key * 0x9E3779B97F4A7C15u) & (mg->seen_cap - 1);
	for (; mg->seen[h] != 0; h = (h + 1) & (mg->seen_cap - 1))
		if (mg->seen[h] == key)
			return false;
	mg->seen[h] = key;
	mg->seen_n++;
	return true;
}

/* May board k's next move come now, as the clocks say?  Not if the
 * other board's next move is earlier by more than the window. */
static bool
allowed(const struct merge *mg, const size_t at[2], int k)
{
	const struct side_moves *me = &mg->sm[k], *o = &mg->sm[!k];

	if (at[k] >= me->n)
		return false;
	return at[!k] >= o->n || o->t[at[!k]] >= me->t[at[k]] - mg->window;
}

/* Pieces of type ty in the hand of side s on board k at point at. */
static int
in_hand(const struct merge *mg, const size_t at[2], int k, int s, int ty)
{
	const struct side_moves *me = &mg->sm[k], *o = &mg->sm[!k];

	return me->start.pocket[s][ty] + PX(o->sent, at[!k], s, ty) -
	    PX(me->dropped, at[k], s, ty);
}

enum { OK, NO_PIECE, NOT_LAST };

/* Is board k's next move legal at point at? */
static int
legal(const struct merge *mg, const size_t at[2], int k)
{
	const struct side_moves *me = &mg->sm[k];
	const struct zh_bmove *m = &me->bug.moves[at[k]];

	if ((m->rm.move.flags & ZH_MDROP) &&
	    in_hand(mg, at, k, m->side, m->rm.move.piece) <= 0)
		return NO_PIECE;
	if (me->mates && at[k] + 1 == me->n && at[!k] < mg->sm[!k].n)
		return NOT_LAST;
	return OK;
}

/* The board whose move the clocks put first at point at (board A on
 * equal times). */
static int
earlier(const struct merge *mg, const size_t at[2])
{
	if (at[0] >= mg->sm[0].n)
		return 1;
	if (at[1] >= mg->sm[1].n)
		return 0;
	return mg->sm[1].t[at[1]] < mg->sm[0].t[at[0]] ? 1 : 0;
}

/*
 * Find a legal order, the clocks' own if it is legal, else the one
 * closest to it (a depth-first walk that tries the earlier move
 * first).  0, or -1 with err.
 */
static int
search(struct merge *mg, struct zh_error *err)
{
	size_t at[2] = { 0, 0 }, depth = 0;
	unsigned char *tried = calloc(mg->total + 1, 1);
	bool oom = false;

	if (tried == NULL || mg->order == NULL) {
		free(tried);
		zh_error_set(err, ZH_ENOMEM, 0, "out of memory");
		return -1;
	}
	visit(mg, 0, 0, &oom);
	mg->states = 1;
	while (depth < mg->total) {
		int first = earlier(mg, at), c, k = -1;

		for (c = 0; c < 2 && k < 0; c++) {
			int cand = c == 0 ? first : !first;
			size_t nx[2] = { at[0], at[1] };

			if (tried[depth] & (1 << cand))
				continue;
			tried[depth] |= (unsigned char)(1 << cand);
			if (!allowed(mg, at, cand) || legal(mg, at, cand) != OK)
				continue;
			nx[cand]++;
			if (!visit(mg, nx[0], nx[1], &oom))
				continue;
			k = cand;
		}
		if (oom || ++mg->states > ZH_BUG_MERGE_MAXSTATES) {
			free(tried);
			zh_error_set(err, oom ? ZH_ENOMEM : ZH_ELIMIT, 0, oom ?
			    "out of memory" : "no legal order found in %d "
			    "steps of the search", ZH_BUG_MERGE_MAXSTATES);
			return -1;
		}
		if (k >= 0) {
			mg->order[depth++] = (unsigned char)k;
			at[k]++;
			tried[depth] = 0;
			if (depth > mg->deep) {
				mg->deep = depth;
				mg->deep_i[0] = at[0];
				mg->deep_i[1] = at[1];
			}
			continue;
		}
		if (depth == 0)
			break;		/* every order tried */
		at[mg->order[--depth]]--;
	}
	free(tried);
	return depth == mg->total ? 0 : -1;
}

/* Label "12A" of board k's move i, into buf[12]. */
static void
label(const struct side_moves *sm, int k, size_t i, char *buf)
{
	const struct zh_bmove *m = &sm->bug.moves[i];
	long ply = m->rm.ply - 1 + (sm->start.side == ZH_BLACK);

	snprintf(buf, 12, "%u%c", (unsigned)(sm->start.fullmove + ply / 2),
	    m->side == ZH_WHITE ? "AB"[k] : "ab"[k]);
}

static const struct zh_token *
tok_of(const struct side_moves *sm, size_t i)
{
	return &sm->g->toks[sm->bug.moves[i].tok];
}

/* Why no order works: at the deepest point the walk reached, the
 * move that could not come (a drop without its piece, a mate with moves
 * of the other board after it). */
static void
blame(const struct merge *mg, struct zh_merge_report *rep,
    struct zh_error *err)
{
	const size_t *at = mg->deep_i;
	int k, why = OK, bk = -1;
	char lab[12], lab2[12], piece;

	for (k = 0; k < 2 && why != NO_PIECE; k++)
		if (at[k] < mg->sm[k].n) {
			int w = legal(mg, at, k);

			if (w != OK && (bk < 0 || w == NO_PIECE)) {
				bk = k;
				why = w;
			}
		}
	if (bk < 0)	/* cannot be: the clocks' order always goes on */
		bk = at[0] < mg->sm[0].n ? 0 : 1;
	{
		const struct side_moves *sm = &mg->sm[bk];
		const struct zh_bmove *m = &sm->bug.moves[at[bk]];
		const struct zh_token *t = tok_of(sm, at[bk]);

		label(sm, bk, at[bk], lab);
		piece = zh_type_letter(m->rm.move.piece);
		if (why == NOT_LAST)
			zh_error_set(err, ZH_EILLEGAL, t->col, "%s. %s mates on "
			    "board %c at %.3f s, but board %c has %zu half-"
			    "move(s) after it in every order the clocks allow",
			    lab, m->rm.san, zh_board_letter(bk),
			    (double)sm->t[at[bk]] / 1000, zh_board_letter(!bk),
			    mg->sm[!bk].n - at[!bk]);
		else {
			const struct side_moves *o = &mg->sm[!bk];
			size_t j = at[!bk];
			char from[96] = "none is sent later";

			/* the partner's capture that sends one, if any */
			while (j < o->n && PX(o->sent, j + 1, m->side,
			    m->rm.move.piece) == PX(o->sent, j, m->side,
			    m->rm.move.piece))
				j++;
			if (j < o->n) {
				label(o, !bk, j, lab2);
				snprintf(from, sizeof from, "the next comes with "
				    "%s. %s at %.3f s", lab2,
				    o->bug.moves[j].rm.san,
				    (double)o->t[j] / 1e3);
			}
			zh_error_set(err, ZH_EILLEGAL, t->col, "%s. %s at %.3f s:"
			    " %s on board %c holds no %c in any order the "
			    "clocks allow (%s)", lab, m->rm.san,
			    (double)sm->t[at[bk]] / 1000, side_name[m->side],
			    zh_board_letter(bk), piece, from);
		}
		err->line = t->line;
		err->col = t->col;
		err->ply = m->rm.ply;
		if (rep != NULL)
			rep->err_board = bk;
	}
}

/* The pairs of adjacent moves of the two boards that the clocks did not
 * order, into rep: those that mattered (or went against the clocks)
 * first. */
static void
ties(const struct merge *mg, struct zh_merge_report *rep)
{
	size_t at[2] = { 0, 0 }, p;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		at[0] = at[1] = 0;
		for (p = 0; p + 1 < mg->total; p++) {
			int x = mg->order[p], y = mg->order[p + 1];
			int64_t tx, ty;
			size_t sw[2];
			bool mattered, against;

			if (x == y) {
				at[x]++;
				continue;
			}
			tx = mg->sm[x].t[at[x]];
			ty = mg->sm[y].t[at[y]];
			if (ty - tx >= (mg->window > 0 ? mg->window : 1)) {
				at[x]++;
				continue;
			}
			/* the other order: y first, then x */
			sw[0] = at[0];
			sw[1] = at[1];
			mattered = legal(mg, sw, y) != OK;
			sw[y]++;
			mattered = mattered || legal(mg, sw, x) != OK;
			against = ty < tx;
			if (pass == 0) {
				rep->ties++;
				rep->mattered += mattered;
				rep->against += against;
			}
			if ((pass == 0) == (mattered || against) &&
			    rep->ntie < ZH_BUG_MAXTIES) {
				struct zh_merge_tie *e = &rep->tie[rep->ntie++];
				int k;

				e->index = p;
				e->first = x;
				e->mattered = mattered;
				e->against = against;
				for (k = 0; k < 2; k++) {
					const struct zh_token *t =
					    tok_of(&mg->sm[k], at[k]);
					const struct zh_bmove *m =
					    &mg->sm[k].bug.moves[at[k]];

					e->line[k] = t->line;
					e->col[k] = t->col;
					e->ply[k] = m->rm.ply;
					label(&mg->sm[k], k, at[k], e->label[k]);
					memcpy(e->san[k], m->rm.san,
					    sizeof e->san[k]);
					e->time[k] = (double)mg->sm[k].t[at[k]] /
					    1000;
				}
			}
			at[x]++;
		}
	}
}

/* ======================== writing ======================== */

static void
put_tag(FILE *f, const char *name, const char *v, bool nl)
{
	fprintf(f, "[%s \"", name);
	for (; *v != '\0'; v++) {
		if (*v == '"' || *v == '\\')
			fputc('\\', f);
		fputc(*v, f);
	}
	fputs(nl ? "\"]\n" : "\"]", f);
}

/* The result of board game g as the team result ('flip': board B's,
 * where White is on the other team); NULL if not decisive or drawn. */
static const char *
team_result(const struct zh_game *g, bool flip)
{
	const char *r = zh_game_tag(g, "Result");

	if (r == NULL || strcmp(r, "*") == 0)
		r = g->result;
	if (r == NULL)
		return NULL;
	if (strcmp(r, "1/2-1/2") == 0)
		return "1/2-1/2";
	if (strcmp(r, "1-0") == 0)
		return flip ? "0-1" : "1-0";
	if (strcmp(r, "0-1") == 0)
		return flip ? "1-0" : "0-1";
	return NULL;
}

/* A clock of ms milliseconds as "{secs}" or "{[%clk H:MM:SS.s]}". */
static int
clock_text(int64_t ms, int d, char *buf, size_t size)
{
	int64_t a = ms < 0 ? -ms : ms;
	char frac[8] = "";
	int n;

	if (a % 1000 != 0) {
		snprintf(frac, sizeof frac, ".%03d", (int)(a % 1000));
		for (n = (int)strlen(frac); frac[n - 1] == '0'; n--)
			frac[n - 1] = '\0';
	}
	if (!zh__dialect(d, ZH_SAN_AUTO)->bpgn_clk)
		return snprintf(buf, size, "{%s%lld%s}", ms < 0 ? "-" : "",
		    (long long)(a / 1000), frac);
	if (ms < 0)	/* a [%clk] cannot be negative */
		return snprintf(buf, size, "{[%%clk 0:00:00]}");
	return snprintf(buf, size, "{[%%clk %lld:%02d:%02d%s]}",
	    (long long)(a / 3600000), (int)(a / 60000 % 60),
	    (int)(a / 1000 % 60), frac);
}

/* Text of at most 79 columns a line. */
struct lines {
	FILE *f;
	int col;
};

static void
word(struct lines *l, const char *s, size_t n)
{
	if (l->col > 0 && l->col + 1 + (int)n > 79) {
		fputc('\n', l->f);
		l->col = 0;
	} else if (l->col > 0) {
		fputc(' ', l->f);
		l->col++;
	}
	fwrite(s, 1, n, l->f);
	l->col += (int)n;
}

/* The players' tags of a BPGN ("WhiteA", "BlackBElo"): board bd's
 * White or Black tag (with its Elo) of that name, into *from; false for
 * another tag. */
static bool
seat_of(const char *name, int *bd, const char **from)
{
	static const char *const one[2][2] = { { "White", "Black" },
	    { "WhiteElo", "BlackElo" } };
	int s, e;

	for (s = 0; s < 2; s++) {
		size_t n = strlen(side_name[s]);

		if (strncmp(name, side_name[s], n) != 0 ||
		    (name[n] != 'A' && name[n] != 'B'))
			continue;
		e = strcmp(name + n + 1, "Elo") == 0;
		if (name[n + 1] != '\0' && !e)
			continue;
		*bd = name[n] == 'B';
		*from = one[e][s];
		return true;
	}
	return false;
}

/* The value of the n-th tag (from 0) of g named name; NULL if none. */
static const char *
nth_tag(const struct zh_game *g, const char *name, int n)
{
	size_t k;

	for (k = 0; k < g->ntags; k++)
		if (strcmp(g->tags[k].name, name) == 0 && n-- == 0)
			return g->tags[k].value;
	return NULL;
}

/* How many times the name at list + at (n bytes) comes before it. */
static int
times_before(const char *list, size_t at, size_t n)
{
	size_t k = 0;
	int c = 0;

	while (k < at) {
		size_t m = strcspn(list + k, " ");

		c += m == n && memcmp(list + k, list + at, n) == 0;
		k += m + (list[k + m] == ' ');
	}
	return c;
}

/* The tags as board A's file carries them from the BPGN it was split
 * from (BPGNTags: the names in order; BPGN<name>: a value the board
 * file does not carry as it is; bugout.c). */
static void
carried_tags(const struct merge *mg, FILE *f, int d, const char *list,
    const char *result)
{
	const struct zh_game *a = mg->sm[0].g, *g;
	size_t n, at = 0, len = strlen(list);
	/* a name of the list whole, however long: the tag's, and "BPGN" + it */
	char *name = malloc(2 * len + 6), *pname = name + len + 1;
	const char *v, *from;
	int bd, nth;

	if (name == NULL)
		return;		/* the tags the list names are left out */
	while (list[at] != '\0') {
		n = strcspn(list + at, " ");
		memcpy(name, list + at, n);
		name[n] = '\0';
		nth = times_before(list, at, n);
		at += n + (list[at + n] == ' ');
		memcpy(pname, "BPGN", 4);
		memcpy(pname + 4, name, n + 1);
		if (strcmp(name, "Result") == 0)
			v = result;
		else if (strcmp(name, "FEN") == 0) {
			struct zh_pos two[2] = { mg->sm[0].start,
			    mg->sm[1].start };
			char fen[2 * ZH_FENMAX + 4];

			zh_bfen_write(two, d, fen, sizeof fen);
			put_tag(f, name, fen, true);
			continue;
		} else if (seat_of(name, &bd, &from)) {
			g = bd ? mg->sm[1].g : a;
			v = zh_game_tag(g, from);
		} else if ((v = nth_tag(a, pname, nth)) == NULL)
			v = nth_tag(a, name, nth);
		if (v != NULL)
			put_tag(f, name, v, true);
	}
	free(name);
}

static void
board_tags(const struct merge *mg, FILE *f, int d, const char *result)
{
	static const char *const copied[] = { "Event", "Site", "Date" };
	static const char *const seats[2][2] = { { "White", "Black" },
	    { "WhiteB", "BlackB" } };
	const struct zh_game *a = mg->sm[0].g, *b = mg->sm[1].g;
	const char *v;
	char buf[64], name[16];
	size_t k;
	int bd, s;

	for (k = 0; k < sizeof copied / sizeof copied[0]; k++)
		if ((v = zh_game_tag(a, copied[k])) != NULL ||
		    (v = zh_game_tag(b, copied[k])) != NULL)
			put_tag(f, copied[k], v, true);
	for (bd = 0; bd < 2; bd++)
		for (s = 0; s < 2; s++) {
			const struct zh_game *g = bd ? b : a;

			snprintf(name, sizeof name, "%s%c", side_name[s],
			    zh_board_letter(bd));
			v = zh_game_tag(g, seats[0][s]);
			put_tag(f, name, v != NULL ? v : "?", false);
			snprintf(buf, sizeof buf, "%sElo", seats[0][s]);
			if ((v = zh_game_tag(g, buf)) != NULL) {
				snprintf(name, sizeof name, "%s%cElo",
				    side_name[s], zh_board_letter(bd));
				put_tag(f, name, v, false);
			}
			fputc('\n', f);
		}
	if ((v = zh_game_tag(a, "TimeControl")) != NULL ||
	    (v = zh_game_tag(b, "TimeControl")) != NULL)
		put_tag(f, "TimeControl", v, true);
	if ((v = zh_game_tag(a, "Termination")) != NULL ||
	    (v = zh_game_tag(b, "Termination")) != NULL)
		put_tag(f, "Termination", v, true);
	if (mg->sm[0].bug.setup || mg->sm[1].bug.setup) {
		struct zh_pos two[2] = { mg->sm[0].start, mg->sm[1].start };
		char fen[2 * ZH_FENMAX + 4];

		zh_bfen_write(two, d, fen, sizeof fen);
		put_tag(f, "SetUp", "1", true);
		put_tag(f, "FEN", fen, true);
	}
	put_tag(f, "Result", result, true);
}

/* A comment's text without white space at its ends, and without a
 * last "[%ts ...]" (the time stamp zhpgn --boards adds). */
static void
unstamped(const struct zh_token *t, const char **s, const char **e)
{
	const char *p;

	*s = t->text;
	*e = t->text + t->len;
	while (*s < *e && isspace((unsigned char)**s))
		(*s)++;
	while (*e > *s && isspace((unsigned char)(*e)[-1]))
		(*e)--;
	for (p = *e; p > *s && p[-1] != '['; p--)
		;
	if (p > *s && *e > p && (*e)[-1] == ']' && *e - p > 4 &&
	    memcmp(p, "%ts ", 4) == 0) {
		*e = p - 1;
		while (*e > *s && isspace((unsigned char)(*e)[-1]))
			(*e)--;
	}
}

/* A board file's comment that is a clock (and its stamp) and nothing
 * else, or a stamp alone: the merge writes the clock itself. */
static bool
clock_only(const struct zh_token *t)
{
	const char *s, *e;

	unstamped(t, &s, &e);
	if (s == e)
		return true;
	if (*s == '[')
		return e[-1] == ']' && memchr(s + 1, '[', (size_t)(e - s - 1)) ==
		    NULL;
	return true;	/* a bare number (bughouse.c reads it so) */
}

/* A comment as the board file has it: in braces, or (holding '}') as
 * a ';' comment to the end of its line. */
static void
put_comment(struct lines *l, const struct zh_token *t)
{
	bool semi = memchr(t->text, '}', t->len) != NULL;
	size_t i;

	if (l->col > 0)
		fputc(' ', l->f);
	fputc(semi ? ';' : '{', l->f);
	for (i = 0; i < t->len; i++)
		fputc(semi && (t->text[i] == '\n' || t->text[i] == '\r') ?
		    ' ' : t->text[i], l->f);
	fputc(semi ? '\n' : '}', l->f);
	l->col = semi ? 0 : 79;		/* the next word on a new line */
}

/* A comment that is a time stamp alone. */
static bool
stamp_only(const struct zh_token *t)
{
	const char *s, *e;

	unstamped(t, &s, &e);
	return s == e;
}

/* The comment token that holds board move m's clock: right after it,
 * or after one NAG (bughouse.c); SIZE_MAX if none. */
static size_t
clock_tok(const struct zh_game *g, const struct zh_bmove *m)
{
	size_t k = m->tok + 1;

	if (!m->has_clock)
		return SIZE_MAX;
	if (k < g->ntoks && g->toks[k].kind == ZH_T_NAG)
		k++;
	return k < g->ntoks && g->toks[k].kind == ZH_T_COMMENT &&
	    clock_only(&g->toks[k]) ? k : SIZE_MAX;
}

/* What follows board move m in its game g up to its next move, in its
 * order: its clock (clk) in dialect d's form, its NAGs and its other
 * comments but the time stamps. */
static void
after_move(struct lines *l, const struct zh_game *g,
    const struct zh_bmove *m, size_t clk, int d)
{
	char buf[64];
	size_t i, n;

	for (i = m->tok + 1; i < g->ntoks && g->toks[i].kind != ZH_T_MOVE &&
	    g->toks[i].kind != ZH_T_VSTART &&
	    g->toks[i].kind != ZH_T_RESULT; i++) {
		const struct zh_token *t = &g->toks[i];

		if (i == clk) {
			n = (size_t)clock_text(ms_of(m->clock), d, buf,
			    sizeof buf);
			word(l, buf, n);
		} else if (t->kind == ZH_T_NAG)
			word(l, t->text, t->len);
		else if (t->kind == ZH_T_COMMENT && !stamp_only(t))
			put_comment(l, t);
	}
}

/* The merged game: its tags (Result: result) and movetext (ending with
 * the result end). */
static void
write_game(const struct merge *mg, FILE *f, int d, const char *result,
    const char *end)
{
	const struct zh_game *a = mg->sm[0].g;
	const char *list = zh_game_tag(a, "BPGNTags");
	struct lines l = { f, 0 };
	size_t at[2] = { 0, 0 }, p, i, clk;
	char name[16];

	if (list != NULL)
		carried_tags(mg, f, d, list, result);
	else
		board_tags(mg, f, d, result);
	fputc('\n', f);
	for (i = 0; i < a->ntoks && a->toks[i].kind != ZH_T_MOVE; i++)
		if (a->toks[i].kind == ZH_T_COMMENT)
			put_comment(&l, &a->toks[i]);
	for (p = 0; p < mg->total; p++) {
		int kb = mg->order[p];
		const struct side_moves *sm = &mg->sm[kb];
		const struct zh_bmove *m = &sm->bug.moves[at[kb]];
		const char *san;
		size_t n;

		label(sm, kb, at[kb], name);
		n = strlen(name);
		name[n++] = '.';
		word(&l, name, n);
		n = zh__san_as(m->rm.san, strlen(m->rm.san), d, &san);
		word(&l, san, n);
		clk = clock_tok(sm->g, m);
		after_move(&l, sm->g, m, clk, d);
		at[kb]++;
	}
	word(&l, end, strlen(end));
	for (i = 0; i < a->ntoks && a->toks[i].kind != ZH_T_RESULT; i++)
		;
	while (++i < a->ntoks)	/* board A's comments after its result */
		if (a->toks[i].kind == ZH_T_COMMENT)
			put_comment(&l, &a->toks[i]);
	fputs("\n\n", f);
}

/* Read the written game back and replay it: the same half-moves in
 * the same order, every one legal. */
static int
check_back(const struct merge *mg, const char *buf, size_t len,
    const struct zh_variant *v, FILE *out, int d, struct zh_error *err)
{
	FILE *f = fmemopen((void *)(uintptr_t)buf, len, "r");
	/* our own text, as long as the games it was made of: no limit
	   below what it holds (a game read under --limit reads back) */
	long n = len < LONG_MAX / 2 ? (long)len + 64 : LONG_MAX / 2;
	struct zh_pgn_limits lim = { (size_t)n, (size_t)n, (size_t)n, n, n,
	    n, 0 };
	struct zh_pgn_reader *r = f != NULL ? zh_pgn_open(f, &lim) : NULL;
	struct zh_game g;
	struct zh_bug bug;
	size_t at[2] = { 0, 0 }, p;
	int rc = -1;

	memset(&bug, 0, sizeof bug);
	memset(&g, 0, sizeof g);
	bug.fast = false;
	if (r == NULL)
		zh_error_set(err, ZH_ENOMEM, 0, "out of memory");
	else if (zh_pgn_next(r, &g) != 1 || g.err.code != ZH_OK)
		zh_error_set(err, ZH_ESYNTAX, 0, "the merged game does not "
		    "read back: %.150s", g.err.text);
	else if (zh_bug_replay(&g, v, &bug) != 0 || !bug.labels ||
	    bug.nmoves != mg->total)
		zh_error_set(err, ZH_EILLEGAL, 0, "the merged game does not "
		    "replay: %.150s", bug.err.text);
	else {
		for (p = 0; p < mg->total; p++) {
			int k = mg->order[p];
			const struct zh_bmove *m = &bug.moves[p];

			if (m->board != k || !zh_move_eq(m->rm.move,
			    mg->sm[k].bug.moves[at[k]++].rm.move))
				break;
		}
		if (p == mg->total)	/* written as zhpgn writes a BPGN */
			rc = zh_bug_write(out, &g, &bug, d, err);
		else
			zh_error_set(err, ZH_EILLEGAL, 0, "the merged game "
			    "replays to other moves at half-move %zu", p + 1);
	}
	zh_bug_free(&bug);
	zh_pgn_close(r);
	if (f != NULL)
		fclose(f);
	return rc;
}

/* ======================== the merge ======================== */

static void
merge_free(struct merge *mg)
{
	int k;

	for (k = 0; k < 2; k++) {
		zh_bug_free(&mg->sm[k].bug);
		free(mg->sm[k].t);
		free(mg->sm[k].sent);
		free(mg->sm[k].dropped);
	}
	free(mg->order);
	free(mg->seen);
	free(mg);
}

/* The boards' variant: the two-board row, unless a Variant tag names
 * a one-board game. */
static const struct zh_variant *
variant_of(const struct zh_game *g, int bd, struct zh_error *err)
{
	const struct zh_variant *v = zh__variant_two_boards(), *tv = NULL;

	if (zh_game_tag(g, "Variant") != NULL &&
	    (zh_game_variant(g, NULL, &tv, NULL) != 0 || tv->boards < 2)) {
		zh_error_set(err, ZH_EVARIANT, 1, "board %c: game %ld is not "
		    "a bughouse board (Variant \"%.60s\")", zh_board_letter(bd),
		    g->number, zh_game_tag(g, "Variant"));
		err->line = g->line;
		return NULL;
	}
	return v;
}

/* The BPGN's own Result tag and movetext result, as board A's file
 * carries them (its convention kept: a board's result is the team's)
 * into rep->result; the movetext's returned. */
static const char *
carried_result(const struct zh_game *a, struct zh_merge_report *rep)
{
	const char *v;

	if (zh_game_tag(a, "BPGNTags") == NULL)
		return rep->result;
	if ((v = zh_game_tag(a, "BPGNResult")) != NULL)
		rep->result = v;
	v = zh_game_tag(a, "BPGNResultToken");
	return v != NULL ? v : rep->result;
}

int
zh_merge_boards(const struct zh_game *a, const struct zh_game *b, FILE *out,
    int d, struct zh_merge_report *rep, struct zh_error *err)
{
	struct zh_merge_report dummy;
	struct merge *mg = calloc(1, sizeof *mg);
	const struct zh_variant *v;
	const char *ra, *rb, *end;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int k, rc = -1;

	if (rep == NULL)
		rep = &dummy;
	memset(rep, 0, sizeof *rep);
	rep->err_board = -1;
	zh_error_clear(err);
	if (mg == NULL) {
		zh_error_set(err, ZH_ENOMEM, 0, "out of memory");
		return -1;
	}
	for (k = 0; k < 2; k++) {
		const struct zh_game *g = k ? b : a;

		if ((v = variant_of(g, k, err)) == NULL ||
		    board_replay(&mg->sm[k], g, k, v, err) != 0) {
			rep->err_board = k;
			goto done;
		}
		if (counts(&mg->sm[k]) != 0) {
			zh_error_set(err, ZH_ENOMEM, 0, "out of memory");
			goto done;
		}
		rep->nmoves[k] = mg->sm[k].n;
	}
	clock_base(mg->sm, &rep->base, &rep->inc);
	mg->total = mg->sm[0].n + mg->sm[1].n;
	mg->order = malloc(mg->total + 1);
	/* the boards' time stamps, when every move has one: the order
	   the BPGN they were split from had, exact (window 0: only equal
	   stamps are open); if that order is illegal, the clocks' */
	if (stamps(&mg->sm[0]) && stamps(&mg->sm[1])) {
		rep->stamped = true;
		if (search(mg, err) == 0)
			goto found;
		if (err->code != ZH_OK)
			goto failed;
		rep->stamped = false;
		rep->stamps_illegal = true;
		free(mg->seen);
		mg->seen = NULL;
		mg->seen_cap = mg->seen_n = 0;
		mg->deep = 0;
	}
	for (k = 0; k < 2; k++)
		times(&mg->sm[k], rep->base, rep->inc);
	mg->window = resolution(mg->sm);
	if (search(mg, err) != 0) {
failed:
		if (err->code == ZH_OK)
			blame(mg, rep, err);
		rep->states = mg->states;
		goto done;
	}
found:
	rep->states = mg->states;
	ties(mg, rep);
	ra = team_result(a, false);
	rb = team_result(b, true);
	rep->result_conflict = ra != NULL && rb != NULL && strcmp(ra, rb) != 0;
	rep->result = ra != NULL ? ra : rb != NULL ? rb : "*";
	end = carried_result(a, rep);
	if ((mem = open_memstream(&buf, &len)) == NULL) {
		zh_error_set(err, ZH_ENOMEM, 0, "out of memory");
		goto done;
	}
	write_game(mg, mem, d, rep->result, end);
	if (fclose(mem) != 0 || buf == NULL) {
		zh_error_set(err, ZH_ENOMEM, 0, "out of memory");
		goto done;
	}
	if (check_back(mg, buf, len, v, out, d, err) != 0) {
		if (err->code != ZH_EIO)
			err->line = a->line;
		goto done;
	}
	rc = 0;
done:
	free(buf);
	merge_free(mg);
	return rc;
}
