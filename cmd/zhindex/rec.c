/*
 * rec.c - a game's records (zhkit-index(5)): one per distinct (position,
 * move) of its first N plies, each board of a bughouse game apart, with
 * the game's header, as one frame of the worker's output; the move
 * codes, speeds and months; the varints of the blobs.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "zhi.h"

const char *const zhi_speeds[ZHI_NSPEEDS] = { "ultraBullet", "bullet",
    "blitz", "rapid", "classical", "correspondence", "unknown" };

void
zhi_key_setup(void)
{
	const char *e = getenv("ZHINDEX_TEST_HIGH_BITS");
	int n = e != NULL ? atoi(e) : 64;

	if (n > 0 && n < 64)
		zhi_high_mask = ~(uint64_t)0 << (64 - n);
}

struct zh_key
zhi_key(const struct zh_pos *p)
{
	struct zh_key k = zh_pos_key(p);

	k.hi &= zhi_high_mask;
	return k;
}

/* Lichess's speeds, by the estimated duration base + 40 * increment
   (scalachess's Speed): under 30 s, 180, 480, 1500, 21600, else
   classical; "-" correspondence. */
int
zhi_speed(const char *tc)
{
	char *end;
	double base, inc = 0, est;

	if (tc == NULL || *tc == '\0' || strcmp(tc, "?") == 0)
		return 6;
	if (strcmp(tc, "-") == 0)
		return 5;
	base = strtod(tc, &end);
	if (end == tc || base < 0)
		return 6;
	if (*end == '+') {
		inc = strtod(end + 1, &end);
		if (inc < 0)
			return 6;
	}
	if (*end != '\0')
		return 6;
	est = base + 40 * inc;
	return est < 30 ? 0 : est < 180 ? 1 : est < 480 ? 2 : est < 1500 ? 3 :
	    est < 21600 ? 4 : 5;
}

#define DIGIT(c)	((unsigned)((c) - '0') < 10)

int
zhi_month(const char *date)
{
	int y, m;

	if (date == NULL || strlen(date) < 7)
		return 0;
	/* "2019.10.28" as a rule, read at once; else sscanf's reading */
	if (DIGIT(date[0]) && DIGIT(date[1]) && DIGIT(date[2]) &&
	    DIGIT(date[3]) && (date[4] == '.' || date[4] == '-' ||
	    date[4] == '/') && DIGIT(date[5]) && DIGIT(date[6])) {
		y = ((date[0] - '0') * 10 + date[1] - '0') * 100 +
		    (date[2] - '0') * 10 + date[3] - '0';
		m = (date[5] - '0') * 10 + date[6] - '0';
	} else if (sscanf(date, "%4d%*[-./]%2d", &y, &m) != 2)
		return 0;
	if (y < 1 || y > 5000 || m < 1 || m > 12)
		return 0;
	return y * 12 + m - 1;
}

/* ---------------- a game's frame ---------------- */

struct hdr {
	uint32_t len, nrec, recoff;
	int32_t nmoves;			/* stored moves' bytes, -1: none */
	int64_t number, line;
	int32_t elo[4], result, speed, month, boards, plies;
};
#define NSTR 9

static int
grow(struct zhi_out *o, size_t more)
{
	size_t cap = o->cap ? o->cap : 4096;
	unsigned char *b;

	if (o->len + more <= o->cap)
		return 0;
	while (cap < o->len + more)
		cap *= 2;
	if ((b = realloc(o->buf, cap)) == NULL) {
		o->fail = true;
		return -1;
	}
	o->buf = b;
	o->cap = cap;
	return 0;
}

static int
put_str(struct zhi_out *o, const char *s)
{
	size_t n = s == NULL ? 0 : strlen(s);

	if (n > 255)
		n = 255;	/* a name: enough */
	if (grow(o, n + 1) != 0)
		return -1;
	if (n > 0)
		memcpy(o->buf + o->len, s, n);
	o->buf[o->len + n] = '\0';
	o->len += n + 1;
	return 0;
}

static int
elo(const struct zh_game *g, const char *tag)
{
	const char *s = zh_game_tag(g, tag);
	long v;
	char *end;

	if (s == NULL)
		return 0;
	v = strtol(s, &end, 10);
	return end != s && *end == '\0' && v > 0 && v < 10000 ? (int)v : 0;
}

static int
result_of(const char *res)
{
	if (res == NULL)
		return -1;
	if (strcmp(res, "1-0") == 0)
		return ZHI_WHITE;
	if (strcmp(res, "0-1") == 0)
		return ZHI_BLACK;
	if (strcmp(res, "1/2-1/2") == 0)
		return ZHI_DRAW;
	return -1;
}

/* The header and strings of g: 0, 1 for a game without a result (not
   indexed), -1 out of memory. */
static int
header(struct zhi_out *o, const struct zh_game *g, const struct zh_replay *r)
{
	struct hdr h = { 0 };
	bool two = r->v->boards > 1;
	const char *date = zh_game_tag(g, "UTCDate");
	const char *s[NSTR];
	int i;

	if ((h.result = result_of(zh_game_result(g))) < 0)
		return 1;
	if (date == NULL || zhi_month(date) == 0)
		date = zh_game_tag(g, "Date");
	h.number = g->number;
	h.line = g->line;
	h.elo[0] = elo(g, two ? "WhiteAElo" : "WhiteElo");
	h.elo[1] = elo(g, two ? "BlackAElo" : "BlackElo");
	h.elo[2] = two ? elo(g, "WhiteBElo") : 0;
	h.elo[3] = two ? elo(g, "BlackBElo") : 0;
	h.speed = zhi_speed(zh_game_tag(g, "TimeControl"));
	h.month = zhi_month(date);
	h.boards = two ? 2 : 1;
	h.plies = (int32_t)(two ? r->bug->nmoves : (size_t)r->nplies);
	s[0] = r->v->name;
	s[1] = zh_game_tag(g, two ? "WhiteA" : "White");
	s[2] = zh_game_tag(g, two ? "BlackA" : "Black");
	s[3] = two ? zh_game_tag(g, "WhiteB") : NULL;
	s[4] = two ? zh_game_tag(g, "BlackB") : NULL;
	s[5] = date;
	s[6] = zh_game_tag(g, "TimeControl");
	s[7] = zh_game_tag(g, "Event");
	s[8] = zh_game_tag(g, "Site");
	o->len = 0;
	o->nrec = 0;
	if (grow(o, sizeof h) != 0)
		return -1;
	memcpy(o->buf, &h, sizeof h);
	o->len = sizeof h;
	for (i = 0; i < NSTR; i++)
		if (put_str(o, s[i]) != 0)
			return -1;
	if (grow(o, 8) != 0)
		return -1;
	while (o->len % 8 != 0)
		o->buf[o->len++] = 0;
	return 0;
}

/* ---------------- the walk ---------------- */

#define NSEEN 1024

/* A game's walk: its records and stored moves.  A worker keeps one
   (zhi_out.walk), so that a game of one board can be keyed as zh_replay
   plays it (zhi_game_watch). */
struct zhi_walk {
	struct zhi_out *o;		/* where the records go */
	int plies;
	struct zhi_rec base[2];		/* rating, month, result per board */
	struct zh_key pend[2];
	bool have[2];
	struct zh_pos last[2];		/* the board's last position keyed */
	struct zh_key lastkey[2];
	const struct zh_pos *prev;	/* one board: the position before */
	struct zh_move move;		/* one board: the move from it */
	bool keyed[2];
	long n[2];			/* plies played on the board */
	size_t first;			/* the game's first record */
	bool store;			/* still stored */
	/* watched (zhi_game_watch): the game, the replay's position
	   before the next move, the mainline's next token */
	const struct zh_game *g;
	const struct zh_replay *r;
	bool watched, started, broken;
	size_t tok;
	int depth;
	struct zh_pos before;
	uint16_t seen[NSEEN];		/* the records by hash, index + 1 (a
					   linear scan past NSEEN / 2) */
	/* kept from game to game */
	struct zhi_out own;		/* watched: the records, before the
					   frame's header is known */
	unsigned char *mv;		/* the stored moves (one board, from
					   the variant's start) */
	size_t nmv, mvcap;
};

/* o's walk made new for a game whose records go to out (from its
   length on): NULL out of memory. */
static struct zhi_walk *
walk_new(struct zhi_out *o, struct zhi_out *out, int plies)
{
	struct zhi_walk *w = o->walk;
	struct zhi_out own;
	unsigned char *mv;
	size_t mvcap;

	if (w == NULL && (w = o->walk = calloc(1, sizeof *w)) == NULL)
		return NULL;
	if (w->o == NULL) {		/* new: nothing to keep */
		memset(&w->own, 0, sizeof w->own);
		w->mv = NULL;
		w->mvcap = 0;
	}
	own = w->own;
	mv = w->mv;
	mvcap = w->mvcap;
	memset(w, 0, offsetof(struct zhi_walk, own));
	w->own = own;
	w->mv = mv;
	w->mvcap = mvcap;
	w->nmv = 0;
	w->own.len = w->own.nrec = 0;
	w->own.fail = false;
	if (out == NULL)
		out = &w->own;
	w->o = out;
	w->first = out->len;
	w->plies = plies;
	return w;
}

void
zhi_out_free(struct zhi_out *o)
{
	if (o->walk != NULL) {
		free(o->walk->own.buf);
		free(o->walk->mv);
		free(o->walk);
	}
	free(o->buf);
	memset(o, 0, sizeof *o);
}

static int
emit(struct zhi_walk *w, int b, struct zh_key k, uint32_t move)
{
	struct zhi_rec rc = w->base[b];
	struct zhi_out *o = w->o;
	const struct zhi_rec *q;
	size_t i, h;

	rc.hi = k.hi;
	rc.lo = k.lo & ~(uint64_t)0xffffffff;
	rc.move = move;
	q = (const struct zhi_rec *)(o->buf + w->first);
	/* one per distinct (position, move) */
	if (o->nrec < NSEEN / 2) {
		h = (size_t)((rc.hi ^ rc.lo >> 32 ^ move * 0x9e3779b1u) +
		    rc.board) & (NSEEN - 1);
		for (; w->seen[h] != 0; h = (h + 1) & (NSEEN - 1)) {
			i = w->seen[h] - 1u;
			if (q[i].hi == rc.hi && q[i].lo == rc.lo &&
			    q[i].move == move && q[i].board == rc.board)
				return 0;
		}
		w->seen[h] = (uint16_t)(o->nrec + 1);
	} else
		for (i = 0; i < o->nrec; i++)
			if (q[i].hi == rc.hi && q[i].lo == rc.lo &&
			    q[i].move == move && q[i].board == rc.board)
				return 0;
	if (grow(o, sizeof rc) != 0)
		return -1;
	memcpy(o->buf + o->len, &rc, sizeof rc);
	o->len += sizeof rc;
	o->nrec++;
	return 0;
}

/* The key of board b's position p, from the last one keyed (kept in
   w->last[b], or, walking one board, at *w->prev: no copy). */
static struct zh_key
key_of(struct zhi_walk *w, int b, const struct zh_pos *p)
{
	const struct zh_pos *a = w->prev != NULL ? w->prev : &w->last[b];
	struct zh_key k = !w->keyed[b] ? zh_pos_key(p) : w->prev != NULL ?
	    zh_pos_key_move(w->lastkey[b], a, w->move, p) :
	    zh_pos_key_next(w->lastkey[b], a, p);

	if (w->prev == NULL)
		w->last[b] = *p;
	w->keyed[b] = true;
	w->lastkey[b] = k;
	k.hi &= zhi_high_mask;
	return k;
}

/* A position of board b reached (after 'move', 0 at the start). */
static int
reached(struct zhi_walk *w, int b, const struct zh_pos *p, uint32_t move)
{
	if (move != 0 && w->have[b]) {
		if (emit(w, b, w->pend[b], move) != 0)
			return -1;
		w->n[b]++;
	}
	w->have[b] = false;
	if (w->n[b] < w->plies) {
		w->pend[b] = key_of(w, b, p);
		w->have[b] = true;
	} else if (w->n[b] == w->plies) {
		w->n[b]++;	/* the last position indexed: no move */
		return emit(w, b, key_of(w, b, p), 0);
	}
	return 0;
}

/* Move m played from p, the board's last position keyed, stored. */
static void
store(struct zhi_walk *w, const struct zh_pos *p, struct zh_move m)
{
	size_t k;

	if (w->nmv + 16 > w->mvcap) {
		size_t c = w->mvcap ? 2 * w->mvcap : 128;
		unsigned char *b = realloc(w->mv, c);

		if (b == NULL) {
			w->store = false;
			return;
		}
		w->mv = b;
		w->mvcap = c;
	}
	k = zhi_move_put(p, m, w->mv + w->nmv);
	if (k == 0)
		w->store = false;	/* not found: the game's keys kept */
	w->nmv += k;
}

/* The game's moves stored: one board from the variant's start (no FEN
   tag). */
static bool
stores(const struct zh_replay *r)
{
	return r->v->boards < 2 && !r->setup;
}

/* A game of one board watched: its start position (r->start). */
static int
one_start(struct zhi_walk *w, const struct zh_replay *r)
{
	w->store = stores(r);
	w->started = true;
	return reached(w, 0, &r->start, 0);
}

/* A game of one board: move m played from 'before' to p. */
static int
one_move(struct zhi_walk *w, const struct zh_pos *before, struct zh_move m,
    const struct zh_pos *p)
{
	if (w->store && w->have[0])
		store(w, before, m);
	w->prev = before;
	w->move = m;
	return reached(w, 0, p, zhi_move_code(m));
}

/* The mainline's next move token from w->tok (the legal moves outside
   variations, as zh_lines_walk's line 0): its index, g->ntoks if none. */
static size_t
next_move(struct zhi_walk *w, const struct zh_game *g)
{
	for (; w->tok < g->ntoks; w->tok++) {
		int kind = g->toks[w->tok].kind;

		if (kind == ZH_T_MOVE) {	/* the common case first */
			if (w->depth == 0)
				return w->tok++;
		} else if (kind == ZH_T_VSTART)
			w->depth++;
		else if (kind == ZH_T_VEND && w->depth > 0)
			w->depth--;
	}
	return g->ntoks;
}

/* A game of one board not watched (zh_lines_walk's line 0, its
   positions made in one place): each kept for the next. */
static int
on_ply(void *arg, const struct zh_ply *pl)
{
	struct zhi_walk *w = arg;

	if (pl->line != 0)
		return 0;
	if (pl->move == NULL) {
		if (reached(w, 0, pl->pos, 0) != 0)
			return -1;
	} else if (one_move(w, &w->before, pl->move->move, pl->pos) != 0)
		return -1;
	w->before = *pl->pos;
	return w->n[0] > w->plies ? 1 : 0;
}

/* zh_replay's watch: position p after its next mainline move, the
   position before kept from the last call (the replay's check flag
   with it, which the move's rank reads); 1 when no more is wanted. */
static int
on_watch(void *arg, const struct zh_pos *p)
{
	struct zhi_walk *w = arg;
	const struct zh_replay *r = w->r;
	size_t i;

	if (w->broken || (!w->started && one_start(w, r) != 0))
		goto broken;
	if ((i = next_move(w, w->g)) >= w->g->ntoks || !r->moves[i].ok ||
	    one_move(w, w->prev == NULL ? &r->start : &w->before,
	    r->moves[i].move, p) != 0)
		goto broken;
	if (w->n[0] > w->plies)
		return 1;
	w->before = *p;
	return 0;
broken:
	w->broken = true;	/* walked again after the replay */
	return 1;
}

int
zhi_game_watch(struct zhi_out *o, const struct zh_game *g,
    struct zh_replay *r, int plies)
{
	struct zhi_walk *w = walk_new(o, NULL, plies);

	if (w == NULL)
		return -1;
	w->g = g;
	w->r = r;
	w->watched = true;
	r->watch = on_watch;
	r->watch_arg = w;
	return 0;
}

static int
on_bply(void *arg, const struct zh_bply *pl)
{
	struct zhi_walk *w = arg;
	int b, o;

	if (pl->move == NULL) {
		for (b = 0; b < 2; b++)
			if (reached(w, b, pl->pos[b], 0) != 0)
				return -1;
		return 0;
	}
	b = pl->move->board;
	o = 1 - b;
	if (reached(w, b, pl->pos[b], zhi_move_code(pl->move->rm.move)) != 0)
		return -1;
	if (w->have[o])		/* its pocket may have changed */
		w->pend[o] = key_of(w, o, pl->pos[o]);
	return w->n[0] > w->plies && w->n[1] > w->plies ? 1 : 0;
}

static uint16_t
mean(int a, int b)
{
	return (uint16_t)(a > 0 && b > 0 ? (a + b) / 2 : a > 0 ? a : b);
}

/* The game's records into o after its header h: those its replay's
   watch made (a game of one board with a move; the header's fields put
   in), else walked now.  The walk, or NULL out of memory. */
static struct zhi_walk *
records(struct zhi_out *o, const struct zh_game *g, const struct zh_replay *r,
    struct zh_lines *lw, const struct hdr *h, int plies)
{
	struct zhi_walk *w = o->walk;
	size_t i;
	int b;
	bool watched = w != NULL && w->watched && w->g == g && w->r == r &&
	    r->watch_arg == w && w->started && !w->broken;

	if (!watched && (w = walk_new(o, o, plies)) == NULL)
		return NULL;
	for (b = 0; b < 2; b++) {
		w->base[b].month = (uint16_t)h->month;
		w->base[b].board = (uint8_t)b;
		w->base[b].rating = mean(h->elo[2 * b], h->elo[2 * b + 1]);
		/* board B's White is on board A's Black's team */
		w->base[b].result = (uint8_t)(b == 0 ? h->result :
		    2 - h->result);
	}
	if (!watched) {
		w->store = stores(r);
		if (zh_replay_walk(lw, g, r, 0, on_ply, on_bply, w) < 0)
			return NULL;
	}
	/* the last position, if short of the plies (have[1]: two boards) */
	if ((w->have[0] && emit(w, 0, w->pend[0], 0) != 0) ||
	    (w->have[1] && emit(w, 1, w->pend[1], 0) != 0))
		return NULL;
	if (watched) {		/* board A's: its fields now known */
		struct zhi_rec *q = (struct zhi_rec *)w->own.buf;

		for (i = 0; i < w->own.nrec; i++) {
			q[i].rating = w->base[0].rating;
			q[i].month = w->base[0].month;
			q[i].result = w->base[0].result;
		}
		if (grow(o, w->own.len) != 0)
			return NULL;
		memcpy(o->buf + o->len, w->own.buf, w->own.len);
		o->len += w->own.len;
		o->nrec = w->own.nrec;
	}
	return w;
}

int
zhi_game_records(struct zhi_out *o, const struct zh_game *g,
    const struct zh_replay *r, struct zh_lines *lw, int plies)
{
	struct zhi_walk *w;
	struct hdr h;
	size_t first;
	int rc;

	o->fail = false;
	if ((rc = header(o, g, r)) != 0) {
		o->len = 0;
		return rc < 0 ? -1 : 0;
	}
	memcpy(&h, o->buf, sizeof h);
	first = o->len;
	if ((w = records(o, g, r, lw, &h, plies)) == NULL)
		return -1;
	h.recoff = (uint32_t)first;
	h.nrec = (uint32_t)o->nrec;
	h.nmoves = -1;
	if (w->store) {
		if (grow(o, w->nmv + 8) != 0)
			return -1;
		if (w->nmv > 0)
			memcpy(o->buf + o->len, w->mv, w->nmv);
		o->len += w->nmv;
		h.nmoves = (int32_t)w->nmv;
		while (o->len % 8 != 0)
			o->buf[o->len++] = 0;
	}
	h.len = (uint32_t)o->len;
	memcpy(o->buf, &h, sizeof h);
	w->watched = false;
	return 0;
}

size_t
zhi_frame(const unsigned char *buf, size_t len, struct zhi_game *gm,
    const struct zhi_rec **recs, size_t *nrec)
{
	struct hdr h;
	const char *s[NSTR], *p;
	int i;

	if (len < sizeof h)
		return 0;
	memcpy(&h, buf, sizeof h);
	if (len < h.len)
		return 0;
	p = (const char *)buf + sizeof h;
	for (i = 0; i < NSTR; i++) {
		s[i] = *p != '\0' ? p : NULL;
		p += strlen(p) + 1;
	}
	gm->number = (long)h.number;
	gm->line = (long)h.line;
	memcpy(gm->elo, h.elo, sizeof gm->elo);
	gm->result = h.result;
	gm->speed = h.speed;
	gm->month = h.month;
	gm->boards = h.boards;
	gm->plies = h.plies;
	gm->variant = s[0];
	gm->white = s[1];
	gm->black = s[2];
	gm->white_b = s[3];
	gm->black_b = s[4];
	gm->date = s[5];
	gm->tc = s[6];
	gm->event = s[7];
	gm->site = s[8];
	*nrec = h.nrec;
	*recs = (const struct zhi_rec *)(buf + h.recoff);
	gm->moves = h.nmoves < 0 ? NULL : buf + h.recoff + h.nrec * sizeof **recs;
	gm->nmoves = h.nmoves < 0 ? 0 : (size_t)h.nmoves;
	return h.len;
}
