/*
 * positions.c - the positions of a replayed game, line by line, and the
 * ways zhreplay writes them: one JSON object per position, a board
 * diagram, and the choice of plies.
 *
 * The JSON writer is on the hot path of dataset builds (hundreds of
 * thousands of positions a second), so it writes in place at the end of
 * the caller's text, without allocating once that has room, with
 * json.c's numbers; its strings are our own ASCII (FEN, moves, squares),
 * with nothing to encode, but for the file, the site and the result
 * (json.c's encoder).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

/* ======================== lines of play ======================== */

static int
grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t n;
	void *q;

	if (need <= *cap)
		return 0;
	n = *cap ? *cap : 64;
	while (n < need) {
		if (n > SIZE_MAX / 2 / elem)
			return -1;
		n *= 2;
	}
	if ((q = realloc(*p, n * elem)) == NULL)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

void
zh_lines_free(struct zh_lines *w)
{
	if (w == NULL)
		return;
	free(w->seq);
	free(w->own);
	free(w->info);
	free(w->tokline);
	free(w->paths);
	memset(w, 0, sizeof *w);
}

const char *
zh_game_result(const struct zh_game *g)
{
	static const char *const forms[] = { "1-0", "0-1", "1/2-1/2", "*" };
	const char *t;
	size_t i;

	if (g->result != NULL)
		return g->result;
	if ((t = zh_game_tag(g, "Result")) != NULL)
		for (i = 0; i < sizeof forms / sizeof forms[0]; i++)
			if (strcmp(t, forms[i]) == 0)
				return forms[i];
	return "*";
}

/* A game's result for board A's White (zh.h): a bughouse game's by
 * bughouse.c's one rule. */
const char *
zh_replay_result(const struct zh_game *g, const struct zh_replay *r)
{
	const char *res = zh_game_result(g);

	return r != NULL && r->bug != NULL ? zh__bug_result(r->bug, res, NULL) :
	    res;
}

/* A new line branching from 'parent'; returns its index or -1. */
static int
new_line(struct zh_lines *w, int parent, size_t branch, size_t first)
{
	struct zh_line_info *li;

	if (grow((void **)&w->info, &w->infocap, w->ninfo + 1, sizeof *w->info))
		return -1;
	li = &w->info[w->ninfo];
	memset(li, 0, sizeof *li);
	li->parent = parent;
	li->branch = branch;
	li->first = first;
	if (parent >= 0) {
		struct zh_line_info *p = &w->info[parent];
		/* the parent's path and ".N", however deep */
		size_t plen = p->parent < 0 ? 0 : strlen(w->paths + p->path);
		char *q;

		p->children++;
		if (grow((void **)&w->paths, &w->pathcap, w->pathlen + plen +
		    24, 1))
			return -1;
		q = w->paths + w->pathlen;
		if (p->parent >= 0) {
			memcpy(q, w->paths + p->path, plen);
			q[plen++] = '.';
		}
		li->path = w->pathlen;
		w->pathlen += plen + (size_t)snprintf(q + plen, 24, "%d",
		    p->children) + 1;
	}
	return (int)w->ninfo++;
}

/* Assign every legal move token to its line; count each line's moves. */
static int
split_lines(struct zh_lines *w, const struct zh_game *g,
    const struct zh_replay *r, bool variations)
{
	int depth = 0, cur;	/* a variation's end: back to its parent */
	size_t i;

	w->ninfo = 0;
	w->pathlen = 0;
	if (grow((void **)&w->tokline, &w->toklinecap, g->ntoks + 1,
	    sizeof *w->tokline) || (cur = new_line(w, -1, 0, 0)) < 0)
		return -1;
	for (i = 0; i < g->ntoks; i++) {
		const struct zh_token *t = &g->toks[i];

		w->tokline[i] = -1;
		if (t->kind == ZH_T_MOVE) {
			if (r->moves[i].ok && (variations || depth == 0)) {
				w->tokline[i] = cur;
				w->info[cur].n++;
			}
		} else if (t->kind == ZH_T_VSTART) {
			struct zh_line_info *li = &w->info[cur];
			/* moves before the branch; none in a dead line */
			size_t full = li->parent >= 0 && li->branch == (size_t)-1 ?
			    0 : li->branch + li->n;
			int v;

			depth++;
			if (!variations)
				continue;
			/* a variation replaces its parent's last move */
			v = new_line(w, cur, full > 0 ? full - 1 : 0, i);
			if (v < 0)
				return -1;
			if (full == 0)
				w->info[v].branch = (size_t)-1;	/* dead */
			cur = v;
		} else if (t->kind == ZH_T_VEND && depth > 0) {
			depth--;
			if (variations)
				cur = w->info[cur].parent;
		}
	}
	return 0;
}

/* Group the tokens by line (a counting sort) into w->own. */
static int
group_lines(struct zh_lines *w, const struct zh_game *g)
{
	size_t i, off = 0;

	for (i = 0; i < w->ninfo; i++) {
		w->info[i].off = off;
		off += w->info[i].n;
		w->info[i].n = 0;
	}
	if (grow((void **)&w->own, &w->owncap, off + 1, sizeof *w->own))
		return -1;
	for (i = 0; i < g->ntoks; i++)
		if (w->tokline[i] >= 0) {
			struct zh_line_info *li = &w->info[w->tokline[i]];

			w->own[li->off + li->n++] = i;
		}
	return 0;
}

/* Append the first k moves of line l's full sequence to w->seq. */
static size_t
build(struct zh_lines *w, int l, size_t k, size_t len)
{
	const struct zh_line_info *li = &w->info[l];
	size_t b = li->parent < 0 ? 0 : li->branch, j;

	if (li->parent >= 0)
		len = build(w, li->parent, k < b ? k : b, len);
	for (j = 0; k > b && j < k - b && j < li->n; j++)
		w->seq[len++] = w->own[li->off + j];
	return len;
}

#define DIGIT(c)	((unsigned)((c) - '0') < 10)

/* "[%clk H:MM:SS]" (or a space after the seconds) at p, as Lichess
   writes it: the seconds into *sec, what zh_comment_clock() says of it;
   false if p is something else. */
static bool
lichess_clock(const char *p, const char *e, double *sec)
{
	if (e - p < 14 || memcmp(p, "[%clk ", 6) != 0 || p[7] != ':' ||
	    p[10] != ':' || (p[13] != ']' && p[13] != ' ') ||
	    !DIGIT(p[6]) || !DIGIT(p[8]) || !DIGIT(p[9]) || !DIGIT(p[11]) ||
	    !DIGIT(p[12]))
		return false;
	*sec = (p[6] - '0') * 3600.0 + ((p[8] - '0') * 10 + p[9] - '0') *
	    60.0 + ((p[11] - '0') * 10 + p[12] - '0');
	return true;
}

/* A comment's [%clk] and [%eval], in one scan: each read from the
   first "[%" of its initial (zh_comment_clock() and zh_comment_eval()
   find the first of their name from there, as from the comment's
   start, since none is before). */
static void
comment_cmds(const struct zh_token *t, struct zh_ply *pl)
{
	const char *p = t->text, *e = t->text + t->len;
	bool clk = pl->has_clock, ev = pl->has_eval;

	while (!(clk && ev) && e - p >= 4) {
		if (*p == ' ' && p[1] == '[')	/* "{ [%clk ...] }" */
			p++;
		else if (*p != '[' && (p = memchr(p, '[', (size_t)(e - p) -
		    3)) == NULL)
			break;
		if (p[1] == '%' && p[2] == 'c' && !clk) {
			if (lichess_clock(p, e, &pl->clock)) {
				pl->has_clock = true;
				p += 13;	/* to its last byte: no "[" */
			} else
				pl->has_clock = zh_comment_clock(p,
				    (size_t)(e - p), "clk", &pl->clock);
			clk = true;
		} else if (p[1] == '%' && p[2] == 'e' && !ev) {
			pl->has_eval = zh_comment_eval(p, (size_t)(e - p),
			    &pl->eval, &pl->mate);
			ev = true;
		}
		p++;
	}
}

static void
comments(const struct zh_game *g, size_t i, struct zh_ply *pl)
{
	pl->has_clock = pl->has_eval = false;
	for (i++; i < g->ntoks; i++) {
		const struct zh_token *t = &g->toks[i];

		if (t->kind == ZH_T_NAG)
			continue;
		if (t->kind != ZH_T_COMMENT)
			break;
		comment_cmds(t, pl);
	}
}

/* A game of two boards to bughouse.c's walk, of one to the lines'. */
int
zh_replay_walk(struct zh_lines *w, const struct zh_game *g,
    const struct zh_replay *r, unsigned flags,
    int (*fn)(void *arg, const struct zh_ply *pl),
    int (*bfn)(void *arg, const struct zh_bply *pl), void *arg)
{
	if (r->bug != NULL)
		return zh_bug_walk(r->bug, bfn, arg);
	return zh_lines_walk(w, g, r, flags, fn, arg);
}

int
zh_lines_walk(struct zh_lines *w, const struct zh_game *g,
    const struct zh_replay *r, unsigned flags,
    int (*fn)(void *arg, const struct zh_ply *pl), void *arg)
{
	struct zh_ply pl;
	struct zh_pos pos;
	size_t l, k, len, depthmax = 0;
	int rc;

	if (split_lines(w, g, r, flags & ZH_WALK_VARIATIONS) ||
	    group_lines(w, g))
		return -1;
	for (l = 0; l < w->ninfo; l++)
		if (w->info[l].n + (w->info[l].parent < 0 ? 0 : w->info[l].branch) >
		    depthmax && w->info[l].branch != (size_t)-1)
			depthmax = w->info[l].n + (w->info[l].parent < 0 ? 0 :
			    w->info[l].branch);
	if (grow((void **)&w->seq, &w->seqcap, depthmax + 1, sizeof *w->seq))
		return -1;
	memset(&pl, 0, sizeof pl);
	pl.game = g->number;
	pl.file = g->file;
	pl.index = g->index;
	pl.site = zh_game_tag(g, "Site");
	pl.result = zh__json_result(g);
	pl.start_ply = r->start_ply;
	pl.pos = &pos;
	for (l = 0; l < w->ninfo; l++) {
		const struct zh_line_info *li = &w->info[l];
		size_t branch = li->parent < 0 ? 0 : li->branch;

		if (l > 0 && (li->n == 0 || li->branch == (size_t)-1))
			continue;
		len = build(w, (int)l, branch + li->n, 0);
		pl.line = (int)l;
		pl.path = l == 0 ? NULL : w->paths + li->path;
		pos = r->start;
		pl.ply = 0;
		pl.move = NULL;
		pl.has_clock = pl.has_eval = false;
		pl.prefix = l > 0;
		pl.last = len == 0;
		if ((rc = fn(arg, &pl)) != 0)
			return rc;
		for (k = 0; k < len; k++) {
			const struct zh_rmove *m = &r->moves[w->seq[k]];

			zh__make_quiet(&pos, m->move);
			pl.ply = (long)k + 1;
			pl.move = m;
			pl.prefix = l > 0 && k + 1 <= branch;
			pl.last = k + 1 == len;
			if (flags & ZH_WALK_COMMENTS)
				comments(g, w->seq[k], &pl);
			if ((rc = fn(arg, &pl)) != 0)
				return rc;
		}
	}
	return 0;
}

/* ======================== SAN per dialect ======================== */

size_t
zh_san_dialect(const char *san, int d, char *buf)
{
	size_t n = zh__san_as(san, strlen(san), d, &san);

	if (n >= ZH_MOVEMAX)
		n = ZH_MOVEMAX - 1;
	memcpy(buf, san, n);
	buf[n] = '\0';
	return n;
}

/* ======================== JSON ======================== */

struct out {
	char *buf;
	size_t size, len;
};

static inline void
put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void
putn_slow(struct out *o, const char *s, size_t n)
{
	if (o->len < o->size)
		memcpy(o->buf + o->len, s, o->size - 1 - o->len);
	o->len += n;
}

/* Inline, so that a literal's copy is a few moves. */
static inline void
putn(struct out *o, const char *s, size_t n)
{
	if (o->len + n < o->size) {
		memcpy(o->buf + o->len, s, n);
		o->len += n;
	} else
		putn_slow(o, s, n);
}

#define PUTS(o, lit) putn((o), (lit), sizeof(lit) - 1)

static void
puts_(struct out *o, const char *s)
{
	putn(o, s, strlen(s));
}

/*
 * The JSON writer's pieces: unchecked stores at q, each returning the
 * end; the caller has made room (see SEGMAX).
 */
#define QLIT(q, lit)	(memcpy((q), (lit), sizeof(lit) - 1), \
			    (q) + sizeof(lit) - 1)

static ZH_HOT_INLINE char *
qlong(char *q, long x)
{
	if (x >= 0 && x < 100) {	/* plies and pocket counts, mostly */
		*q = (char)('0' + x / 10);
		q += x >= 10;
		*q++ = (char)('0' + x % 10);
		return q;
	}
	return zh__putlong(q, x);
}

/* Strings we write are ASCII without '"' or '\\' (FEN, SAN, squares). */
static ZH_HOT_INLINE char *
qstr(char *q, const char *s, size_t n)
{
	*q++ = '"';
	memcpy(q, s, n);
	q += n;
	*q++ = '"';
	return q;
}

static ZH_HOT_INLINE void
putstr(struct out *o, const char *s, size_t n)
{
	put(o, '"');
	putn(o, s, n);
	put(o, '"');
}

/* s as a JSON string through the one encoder (a file name, a tag). */
static void
putjstr(struct out *o, const char *s)
{
	char local[512];
	struct zh__buf b = ZH_BUF_LOCAL(local);

	zh__json_strz(&b, s);
	putn(o, b.s, b.len);
	if (!b.local)
		free(b.s);
}

/* {"file":F,"game":G,"index":I[,"site":S],"ply": of the game being
 * written, made once for all its plies (a game's are in a row). */
static _Thread_local struct {
	const char *file;
	long game, index;
	size_t len;		/* 0: none made */
	char txt[1024];
} from;

/* The members that say where the game is from, when the caller said
 * (zh_game's file), then "ply":P. */
static void
put_from(struct out *o, const struct zh_ply *pl, char *seg)
{
	char *q;

	if (from.len == 0 || from.file != pl->file || from.game != pl->game ||
	    from.index != pl->index) {
		struct out h = { from.txt, sizeof from.txt, 0 };

		PUTS(&h, "{\"file\":");
		putjstr(&h, pl->file);
		q = QLIT(seg, ",\"game\":");
		q = qlong(q, pl->game);
		q = QLIT(q, ",\"index\":");
		q = qlong(q, pl->index);
		putn(&h, seg, (size_t)(q - seg));
		if (pl->site != NULL) {
			PUTS(&h, ",\"site\":");
			putjstr(&h, pl->site);
		}
		PUTS(&h, ",\"ply\":");
		if (h.len >= sizeof from.txt) {	/* too long to keep */
			from.len = 0;
			putn(o, "{\"file\":", 8);
			putjstr(o, pl->file);
			putn(o, seg, (size_t)(q - seg));
			if (pl->site != NULL) {
				PUTS(o, ",\"site\":");
				putjstr(o, pl->site);
			}
			PUTS(o, ",\"ply\":");
			goto ply;
		}
		from.len = h.len;
		from.file = pl->file;
		from.game = pl->game;
		from.index = pl->index;
	}
	putn(o, from.txt, from.len);
ply:
	q = qlong(seg, pl->ply);
	putn(o, seg, (size_t)(q - seg));
}

static const unsigned char pocket_order[] = {
	ZH_PAWN, ZH_KNIGHT, ZH_BISHOP, ZH_ROOK, ZH_QUEEN, ZH_ARCHBISHOP,
	ZH_CHANCELLOR
};

/* Is s one of the four termination markers? */
static inline bool
marker(const char *s)
{
	return strcmp(s, "1-0") == 0 || strcmp(s, "0-1") == 0 ||
	    strcmp(s, "1/2-1/2") == 0 || strcmp(s, "*") == 0;
}

/* Has an 8x8 board a promoted piece?  Eight squares at once. */
static inline bool
promoted8(const struct zh_pos *p)
{
	uint64_t w, all = 0;
	int r;

	for (r = 0; r < 8; r++) {
		memcpy(&w, &p->sq[ZH_SQ(0, r)], sizeof w);
		all |= w;
	}
	return (all & 0x2020202020202020u) != 0;
}

static bool
ply_check(const struct zh_ply *pl)
{
	if (pl->move != NULL && pl->move->san[0] != '\0') {
		size_t n = strlen(pl->move->san);

		return pl->move->san[n - 1] == '+' || pl->move->san[n - 1] == '#';
	}
	return zh_in_check(pl->pos);
}

/*
 * The text of each colour's pocket last written by this thread, by its
 * counts (a pocket changes every few plies); a zeroed entry is the
 * empty pocket's but for its text, so len 0 is not cached.
 */
#define PKTXT 64		/* "{", seven "\"P\":255," and "}" */
static _Thread_local struct {
	uint64_t w;		/* pocket[c][0..7] */
	unsigned char x;	/* pocket[c][8] */
	unsigned char len;
	char txt[PKTXT];
} pkcache[2];

/* "{\"P\":2,...}": one colour's pocket, in pocket_order (by type). */
static char *
qpocket(char *q, const struct zh_pos *p, int c)
{
	const uint64_t lo7 = 0x7f7f7f7f7f7f7f7fu;
	uint64_t w, nz;
	bool any = false;
	char *start = q;

	memcpy(&w, p->pocket[c], sizeof w);
	if (pkcache[c].len != 0 && pkcache[c].w == w &&
	    pkcache[c].x == p->pocket[c][8]) {
		memcpy(q, pkcache[c].txt, PKTXT);
		return q + pkcache[c].len;
	}

	_Static_assert(ZH_NTYPES == 9 && ZH_KING == 6 && ZH_CHANCELLOR == 8,
	    "pocket_order is the types in order but the king");
	*q++ = '{';
	/* a high bit for each type in hand: a jump from one to the next */
	nz = (((w & lo7) + lo7) | w) & ~lo7;
	while (nz != 0) {
		int t = __builtin_ctzll(nz) >> 3;

		nz &= nz - 1;
		if (any)
			*q++ = ',';
		any = true;
		*q++ = '"';
		*q++ = zh__type_letter(t);
		q = QLIT(q, "\":");
		q = qlong(q, p->pocket[c][t]);
	}
	if (p->pocket[c][ZH_CHANCELLOR] != 0) {
		if (any)
			*q++ = ',';
		q = QLIT(q, "\"C\":");
		q = qlong(q, p->pocket[c][ZH_CHANCELLOR]);
	}
	*q++ = '}';
	pkcache[c].w = w;
	pkcache[c].x = p->pocket[c][8];
	pkcache[c].len = (unsigned char)(q - start);
	memcpy(pkcache[c].txt, start, PKTXT);
	return q;
}

/*
 * The object is written in three parts: the game and ply, the variation
 * path (any length), and the rest but the result (any length) in
 * 'seg', whose size bounds it: a FEN, two moves, two pockets of seven
 * counts, 100 promoted squares, two reals and the names.
 */
/* The start of the object, which is the same for a game's plies. */
static _Thread_local struct {
	long game;
	unsigned char len;
	char txt[48];
} head;

#define SEGMAX (ZH_FENMAX + 2 * ZH_MOVEMAX + 2 * PKTXT + 100 * 6 + \
	3 * ZH_JSON_REALMAX + 256)

/* The promoted squares, in FEN order, quoted, separated by commas. */
static inline char *
qpromoted(char *q, const struct zh_pos *p)
{
	const int files = p->v->files, ranks = p->v->ranks;
	bool any = false;
	int f, r;

	if (files == 8 && ranks == 8 && !promoted8(p))
		return q;
	for (r = ranks - 1; r >= 0; r--)
		for (f = 0; f < files; f++) {
			unsigned char pc = p->sq[ZH_SQ(f, r)];

			if (pc == ZH_OFF || !(pc & ZH_PROMOTED))
				continue;
			if (any)
				*q++ = ',';
			any = true;
			*q++ = '"';
			q += zh__square_write(ZH_SQ(f, r), q);
			*q++ = '"';
		}
	return q;
}

static int ply_json_again(struct zh_text *out, const struct zh_ply *pl,
    int d, unsigned flags, size_t n);

/*
 * Written in place at the end of out, into the room it has: a position
 * fits in PLY_ROOM bytes unless its variation path or site is long, and
 * then it is written again (ply_json_again) with the room it told.
 */
#define PLY_ROOM	2048

int
zh_ply_json(struct zh_text *out, const struct zh_ply *pl, int d,
    unsigned flags)
{
	struct out o;
	const struct zh_pos *p = pl->pos;
	char seg[SEGMAX], *q = seg;
	size_t n;

	if (out->cap - out->len < PLY_ROOM && !zh__text_room(out, PLY_ROOM))
		return -1;
	o = (struct out){ out->s + out->len, out->cap - out->len, 0 };

	if (pl->file != NULL)
		put_from(&o, pl, seg);
	else {
		if (head.len == 0 || head.game != pl->game) {	/* a new game */
			q = QLIT(head.txt, "{\"game\":");
			q = qlong(q, pl->game);
			q = QLIT(q, ",\"ply\":");
			head.len = (unsigned char)(q - head.txt);
			head.game = pl->game;
		}
		memcpy(seg, head.txt, sizeof head.txt);
		q = qlong(seg + head.len, pl->ply);
		putn(&o, seg, (size_t)(q - seg));
	}
	if (flags & ZH_PLY_VARIATION) {
		PUTS(&o, ",\"variation\":");
		if (pl->path == NULL)
			PUTS(&o, "null");
		else
			putstr(&o, pl->path, strlen(pl->path));
	}
	q = QLIT(seg, ",\"fen\":\"");
	n = zh_fen_write(p, d, q, ZH_FENMAX);
	q += n < ZH_FENMAX ? n : ZH_FENMAX - 1;		/* as written */
	*q++ = '"';
	if (pl->move == NULL)
		q = QLIT(q, ",\"move\":null");
	else {
		q = QLIT(q, ",\"move\":{\"uci\":");
		q = qstr(q, pl->move->uci, strnlen(pl->move->uci, ZH_MOVEMAX));
		q = QLIT(q, ",\"san\":\"");
		q += zh_san_dialect(pl->move->san, d, q);
		q = QLIT(q, "\"}");
	}
	if (p->side == ZH_WHITE)
		q = QLIT(q, ",\"side\":\"white\",\"pockets\":{\"white\":");
	else
		q = QLIT(q, ",\"side\":\"black\",\"pockets\":{\"white\":");
	q = qpocket(q, p, ZH_WHITE);
	q = QLIT(q, ",\"black\":");
	q = qpocket(q, p, ZH_BLACK);
	q = QLIT(q, "},\"promoted\":[");
	q = qpromoted(q, p);
	if (ply_check(pl))
		q = QLIT(q, "],\"in_check\":true");
	else
		q = QLIT(q, "],\"in_check\":false");
	if (pl->has_clock) {	/* seconds, as zhpgn --json writes them */
		struct zh__buf cb;

		q = QLIT(q, ",\"clock\":");
		cb = (struct zh__buf){ q, 0, 32, false, true, 0 };
		zh__json_seconds(&cb, pl->clock);
		q += cb.len;
	}
	if (pl->has_eval && pl->mate != 0) {	/* "cp" or "mate": every tool's */
		q = QLIT(q, ",\"mate\":");
		q = qlong(q, pl->mate);
	} else if (pl->has_eval) {
		q = QLIT(q, ",\"cp\":");
		q = qlong(q, (long)(pl->eval * 100 + (pl->eval < 0 ? -0.5 : 0.5)));
	}
	q = QLIT(q, ",\"result\":");
	putn(&o, seg, (size_t)(q - seg));
	if (pl->result == NULL)
		PUTS(&o, "null");
	else if (marker(pl->result))	/* ASCII: nothing to encode */
		putstr(&o, pl->result, strlen(pl->result));
	else
		putjstr(&o, pl->result);
	put(&o, '}');
	if (o.len >= o.size)
		return ply_json_again(out, pl, d, flags, o.len);
	o.buf[o.len] = '\0';
	out->len += o.len;
	return 0;
}

/* A long position: room for its n bytes, and written again. */
static ZH_COLD int
ply_json_again(struct zh_text *out, const struct zh_ply *pl, int d,
    unsigned flags, size_t n)
{
	out->s[out->len] = '\0';	/* the cut try's bytes are not out's */
	if (!zh__text_room(out, n))
		return -1;
	return zh_ply_json(out, pl, d, flags);
}

/* ======================== board diagrams ======================== */

static const char *const glyph[2][ZH_NTYPES] = {
	{ NULL, "\u2659", "\u2658", "\u2657", "\u2656", "\u2655", "\u2654",
	  "A", "C" },
	{ NULL, "\u265f", "\u265e", "\u265d", "\u265c", "\u265b", "\u265a",
	  "a", "c" }
};

static void
put_piece(struct out *o, int colour, int type, unsigned flags)
{
	char l = zh__type_letter(type);

	if (flags & ZH_DIAG_UNICODE)
		puts_(o, glyph[colour][type]);
	else
		put(o, colour == ZH_WHITE ? l : (char)tolower((unsigned char)l));
}

static void
put_pocket(struct out *o, const struct zh_pos *p, int c, unsigned flags)
{
	int k, i;
	bool any = false;

	PUTS(o, "  ");
	put(o, p->side == c ? '>' : ' ');
	puts_(o, c == ZH_WHITE ? " white" : " black");
	if (!p->v->drops)
		return;
	PUTS(o, " in hand:");
	for (k = 0; k < (int)sizeof pocket_order; k++)
		for (i = 0; i < p->pocket[c][pocket_order[k]]; i++) {
			put(o, ' ');
			put_piece(o, c, pocket_order[k], flags);
			any = true;
		}
	if (!any)
		PUTS(o, " -");
}

/*
 * A diagram is at most DIAG_BOUND bytes: two rules and the file letters,
 * 10 ranks of 10 squares (a colour escape, a mark, a glyph of at most
 * 3 bytes, a mark and a reset: 20 bytes) with their number and bars,
 * and two pockets of 7 * 255 pieces (a blank and a glyph each) after
 * their label.
 */
#define DIAG_BOUND (3 * 64 + 10 * (16 + 10 * 20) + 2 * (32 + 7 * 255 * 4))
_Static_assert(DIAG_BOUND < ZH_DIAGMAX, "ZH_DIAGMAX holds any diagram");

size_t
zh_diagram_write(const struct zh_pos *p, const struct zh_move *last,
    unsigned flags, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };
	const struct zh_variant *v = p->v;
	bool colour = flags & ZH_DIAG_COLOUR;
	int checked = zh_in_check(p) ? p->king[p->side] : -1;
	bool turned = flags & ZH_DIAG_TURNED;
	int f, r, fi, ri;

	PUTS(&o, "   +");
	for (f = 0; f < v->files * 3; f++)
		put(&o, '-');
	PUTS(&o, "+\n");
	for (ri = 0; ri < v->ranks; ri++) {
		char num[12];

		r = turned ? ri : v->ranks - 1 - ri;

		snprintf(num, sizeof num, "%2d", r + 1);
		puts_(&o, num);
		PUTS(&o, " |");
		for (fi = 0; fi < v->files; fi++) {
			int s = ZH_SQ(f = turned ? v->files - 1 - fi : fi, r);
			unsigned char pc = p->sq[s];
			bool mark = last != NULL && (s == last->to ||
			    (!(last->flags & ZH_MDROP) && s == last->from));
			char lc = ' ', rc = ' ';

			if (s == checked) {
				lc = rc = '!';
			} else if (mark) {
				lc = '[';
				rc = ']';
			} else if (pc != 0 && (pc & ZH_PROMOTED))
				rc = '~';
			if (colour) {
				/* light and dark squares; last move; check */
				const char *bg = s == checked ? "41" :
				    mark ? ((f + r) % 2 ? "43" : "103") :
				    (f + r) % 2 ? "47" : "100";

				PUTS(&o, "\033[");
				puts_(&o, bg);
				puts_(&o, pc != 0 && ZH_COLOR(pc) == ZH_BLACK ?
				    ";30m" : ";97;1m");
				if (lc == '[' || lc == '!')
					lc = ' ';
				if (rc == ']' || rc == '!')
					rc = ' ';
			}
			put(&o, lc);
			if (pc == 0)
				puts_(&o, flags & ZH_DIAG_UNICODE ? "\u00b7" : ".");
			else
				put_piece(&o, ZH_COLOR(pc), ZH_TYPE(pc), flags);
			put(&o, rc);
			if (colour)
				PUTS(&o, "\033[0m");
		}
		put(&o, '|');
		if (ri == 0)	/* the far side's pocket at the top */
			put_pocket(&o, p, turned ? ZH_WHITE : ZH_BLACK, flags);
		else if (ri == v->ranks - 1)
			put_pocket(&o, p, turned ? ZH_BLACK : ZH_WHITE, flags);
		put(&o, '\n');
	}
	PUTS(&o, "   +");
	for (f = 0; f < v->files * 3; f++)
		put(&o, '-');
	PUTS(&o, "+\n    ");
	for (f = 0; f < v->files; f++) {
		put(&o, ' ');
		put(&o, (char)('a' + (turned ? v->files - 1 - f : f)));
		if (f + 1 < v->files)
			put(&o, ' ');
	}
	put(&o, '\n');
	if (o.size > 0)
		o.buf[o.len < o.size ? o.len : o.size - 1] = '\0';
	return o.len;
}

/* ======================== choosing plies ======================== */

static int
num(const char **s, long *x)
{
	char *e;

	if (!isdigit((unsigned char)**s))
		return -1;
	*x = strtol(*s, &e, 10);
	if (*x < 0 || *x > 100000000L)
		return -1;
	*s = e;
	return 0;
}

int
zh_plysel_range(struct zh_plysel *s, const char *range)
{
	const char *p = range;
	long a = 0, b = -1;

	if (*p != '-' && num(&p, &a) != 0)
		return -1;
	if (*p == '\0')
		b = a;
	else if (*p++ != '-')
		return -1;
	else if (*p != '\0' && num(&p, &b) != 0)
		return -1;
	if (*p != '\0' || (b >= 0 && b < a) || strcmp(range, "-") == 0)
		return -1;
	s->from = a;
	s->to = b;
	return 0;
}

bool
zh_plysel_match(const struct zh_plysel *s, const struct zh_ply *pl)
{
	if (s->start_only || s->final_only)
		return (s->start_only && pl->ply == 0) ||
		    (s->final_only && pl->last);
	if (pl->ply < s->from || (s->to >= 0 && pl->ply > s->to))
		return false;
	return s->every <= 1 || (pl->ply - s->from) % s->every == 0;
}
