/* draw.c - the layout of a picture: boards, pockets, bars, as cells of items. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"

const unsigned char draw_rgb[DC_NCOLOURS][3] = {
	[DC_BG] = { 0x3a, 0x3f, 0x44 },
	[DC_LIGHT] = { 0xe9, 0xdd, 0xc4 },
	[DC_DARK] = { 0xa7, 0x82, 0x63 },
	[DC_LASTL] = { 0xd8, 0xe2, 0x7a },	/* the last move's squares */
	[DC_LASTD] = { 0xa9, 0xb0, 0x4c },
	[DC_DROPL] = { 0x9c, 0xd1, 0xe8 },	/* a drop's square */
	[DC_DROPD] = { 0x5f, 0x9f, 0xbf },
	[DC_CHECK] = { 0xe0, 0x3c, 0x31 },
	[DC_POCKET] = { 0xc9, 0xc3, 0xb6 },
	[DC_BAR] = { 0x2b, 0x2f, 0x33 },
	[DC_TEXT] = { 0xf2, 0xf2, 0xf2 },
	[DC_WHITE] = { 0xff, 0xff, 0xff },
	[DC_BLACK] = { 0x00, 0x00, 0x00 },
	[DC_BADGE] = { 0x9e, 0x1b, 0x1b },
	[DC_PROMO] = { 0x2f, 0x6f, 0xd6 },
	[DC_TURN] = { 0x5c, 0xc0, 0x4e },
};

/* ======================== buffers ======================== */

unsigned char *
draw_buf_reserve(struct draw_buf *b, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 16384;
		unsigned char *p;

		while (cap < b->len + n)
			cap *= 2;
		if ((p = realloc(b->p, cap)) == NULL) {
			b->fail = true;
			return NULL;
		}
		b->p = p;
		b->cap = cap;
	}
	return b->p + b->len;
}

void
draw_buf_put(struct draw_buf *b, const void *s, size_t n)
{
	unsigned char *p;

	if (n == 0)
		return;
	if ((p = draw_buf_reserve(b, n)) != NULL) {
		memcpy(p, s, n);
		b->len += n;
	}
}

void
draw_buf_free(struct draw_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof *b);
}

/* ======================== the scene ======================== */

static void *
grow(void *p, size_t *cap, size_t need, size_t size, bool *fail)
{
	size_t n = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return p;
	while (n < need)
		n *= 2;
	if ((q = realloc(p, n * size)) == NULL) {
		*fail = true;
		return NULL;
	}
	*cap = n;
	return q;
}

static void
cell(struct draw_scene *sc, int x, int y, int w, int h)
{
	struct draw_cell *c;

	c = grow(sc->cells, &sc->capcells, sc->ncells + 1, sizeof *c, &sc->fail);
	if (c == NULL)
		return;
	sc->cells = c;
	c += sc->ncells++;
	c->x = x, c->y = y, c->w = w, c->h = h;
	c->first = sc->nitems;
	c->n = 0;
}

static struct draw_item *
item(struct draw_scene *sc, int kind, int colour, int x, int y, int w, int h)
{
	struct draw_item *it;

	it = grow(sc->items, &sc->capitems, sc->nitems + 1, sizeof *it,
	    &sc->fail);
	if (it == NULL || sc->ncells == 0)
		return NULL;
	sc->items = it;
	it += sc->nitems++;
	sc->cells[sc->ncells - 1].n++;
	memset(it, 0, sizeof *it);
	it->kind = (unsigned char)kind;
	it->colour = (unsigned char)colour;
	it->x = x, it->y = y, it->w = w, it->h = h;
	return it;
}

static void
rect(struct draw_scene *sc, int colour, int x, int y, int w, int h)
{
	item(sc, DK_RECT, colour, x, y, w, h);
}

static void
circle(struct draw_scene *sc, int colour, int x, int y, int r)
{
	item(sc, DK_CIRCLE, colour, x, y, r, 0);
}

static void
piece(struct draw_scene *sc, int pc, int x, int y, int size)
{
	struct draw_item *it = item(sc, DK_PIECE, 0, x, y, size, size);

	if (it != NULL)
		it->piece = (unsigned char)(pc & (ZH_TYPEMASK | ZH_BLACKBIT));
}

/* The width of s at size px, in pixels. */
static int
text_width(const char *s, size_t n, int size)
{
	long w = 0;
	size_t i;

	for (i = 0; i < n; i++)	/* a byte text() shows as '?' */
		w += draw_text_glyph[s[i] >= ' ' && s[i] <= '~' ?
		    (unsigned char)s[i] - 32 : '?' - 32].adv;
	return (int)((w * size + 500) / 1000);
}

/* Text s (bytes outside ' '..'~' become '?') at its left x (anchor 0),
 * centre (1) or right (2), base line y. */
static void
text(struct draw_scene *sc, int colour, const char *s, int x, int y,
    int size, int anchor)
{
	size_t n = strlen(s), i;
	struct draw_item *it;
	char *t;

	if (n > 200)
		n = 200;
	t = grow(sc->text, &sc->captext, sc->ntext + n, 1, &sc->fail);
	if (t == NULL)
		return;
	sc->text = t;
	for (i = 0; i < n; i++)
		t[sc->ntext + i] = s[i] >= ' ' && s[i] <= '~' ? s[i] : '?';
	if (anchor > 0)
		x -= text_width(t + sc->ntext, n, size) / (anchor == 1 ? 2 : 1);
	if ((it = item(sc, DK_TEXT, colour, x, y, size, size)) != NULL) {
		it->off = (unsigned)sc->ntext;
		it->len = (unsigned)n;
		sc->ntext += n;
	}
}

void
draw_scene_free(struct draw_scene *sc)
{
	free(sc->items);
	free(sc->cells);
	free(sc->text);
	memset(sc, 0, sizeof *sc);
}

/* ======================== pieces made of two ======================== */

/* Glyph rows of K Q R B N P by type. */
static const signed char type_glyph[ZH_NTYPES] = {
	[ZH_PAWN] = 5, [ZH_KNIGHT] = 4, [ZH_BISHOP] = 3, [ZH_ROOK] = 2,
	[ZH_QUEEN] = 1, [ZH_KING] = 0, [ZH_ARCHBISHOP] = -1,
	[ZH_CHANCELLOR] = -1
};

/*
 * An archbishop is a bishop behind a knight, a chancellor a rook
 * behind a knight (the fonts have neither).  Returns the number of
 * parts (1 or 2), the one behind first.
 */
int
draw_parts(int type, struct draw_part part[2])
{
	if (type <= ZH_EMPTY || type >= ZH_NTYPES)
		return 0;
	if (type_glyph[type] >= 0) {
		part[0] = (struct draw_part){ type_glyph[type], 0, 0, 1000 };
		return 1;
	}
	part[0] = (struct draw_part){ type_glyph[type == ZH_ARCHBISHOP ?
	    ZH_BISHOP : ZH_ROOK], 300, 20, 720 };
	part[1] = (struct draw_part){ type_glyph[ZH_KNIGHT], -40, 170, 820 };
	return 2;
}

/* ======================== one board ======================== */

struct geo {
	int S, bar, pocket, margin;
	int lab, labsize;		/* the coordinates' strips: width, height;
					   their text's size */
	int x, y;			/* the board column's top left */
	int files, ranks;
	unsigned flags;
};

/*
 * The coordinates, outside the board where no piece can hide them: the
 * ranks' numbers in a strip at the board's left (g->x - g->lab), the
 * files' letters in a strip under it, each in a cell of its own, as the
 * board is turned.  y: the board's top.
 */
static void
coords(struct draw_scene *sc, const struct geo *g, bool black_bottom, int y)
{
	int S = g->S, L = g->lab, size = g->labsize, i;
	int base = size * 36 / 100;	/* half a digit's height */
	char s[12];

	for (i = 0; i < g->ranks; i++) {
		int r = black_bottom ? i : g->ranks - 1 - i;

		cell(sc, g->x - L, y + i * S, L, S);
		rect(sc, DC_BG, g->x - L, y + i * S, L, S);
		snprintf(s, sizeof s, "%d", r + 1);
		text(sc, DC_TEXT, s, g->x - L / 2, y + i * S + S / 2 + base,
		    size, 1);
	}
	y += g->ranks * S;
	for (i = 0; i < g->files; i++) {
		int f = black_bottom ? g->files - 1 - i : i;

		cell(sc, g->x + i * S, y, S, L);
		rect(sc, DC_BG, g->x + i * S, y, S, L);
		s[0] = (char)('a' + f), s[1] = '\0';
		text(sc, DC_TEXT, s, g->x + i * S + S / 2, y + L / 2 + base,
		    size, 1);
	}
}

/* The colour of square (f, r): the last move's or a drop's tint. */
static int
square_colour(const struct draw_board *b, int s, bool light)
{
	const struct zh_move *m = &b->last;

	if (!b->has_last || (m->flags & ZH_MNULL))
		return light ? DC_LIGHT : DC_DARK;
	if ((m->flags & ZH_MDROP) && s == m->to)
		return light ? DC_DROPL : DC_DROPD;
	if (s == m->to || (!(m->flags & ZH_MDROP) && s == m->from))
		return light ? DC_LASTL : DC_LASTD;
	return light ? DC_LIGHT : DC_DARK;
}

static void
square(struct draw_scene *sc, const struct geo *g, const struct draw_board *b,
    int f, int r, int checked)
{
	int col = b->black_bottom ? g->files - 1 - f : f;
	int row = b->black_bottom ? r : g->ranks - 1 - r;
	int x = g->x + col * g->S, y = g->y + g->bar + g->pocket + row * g->S;
	int s = ZH_SQ(f, r), pc = b->pos->sq[s], S = g->S;
	bool light = (f + r) % 2 == 1;

	cell(sc, x, y, S, S);
	rect(sc, square_colour(b, s, light), x, y, S, S);
	if (s == checked)
		circle(sc, DC_CHECK, x + S / 2, y + S / 2, S * 45 / 100);
	if (pc != ZH_EMPTY && pc != ZH_OFF) {
		piece(sc, pc, x, y, S);
		if (pc & ZH_PROMOTED)
			circle(sc, DC_PROMO, x + S - S * 14 / 100,
			    y + S * 14 / 100, S * 9 / 100);
	}
}

/* The types a side may hold, in the pocket's order. */
static const unsigned char pocket_order[] = {
	ZH_PAWN, ZH_KNIGHT, ZH_BISHOP, ZH_ROOK, ZH_QUEEN, ZH_ARCHBISHOP,
	ZH_CHANCELLOR
};

/* The pocket of colour c in the row at y: a slot per type in play. */
static void
pocket(struct draw_scene *sc, const struct geo *g, const struct zh_pos *p,
    int c, int y)
{
	int S = g->S, x = g->x, n, ts, end = g->x + g->files * S;
	size_t i;
	char num[8];

	for (i = 0; i < sizeof pocket_order; i++) {
		int t = pocket_order[i];

		if (!(p->v->types & ZH_TYPEBIT(t)) || x + S > end)
			continue;
		cell(sc, x, y, S, S);
		rect(sc, DC_POCKET, x, y, S, S);
		if ((n = p->pocket[c][t]) > 0) {
			/* the piece at the left, the count's badge at the
			 * bottom right beside it, on none of its strokes */
			piece(sc, ZH_PIECE(c, t), x, y + S * 15 / 100,
			    S * 70 / 100);
			snprintf(num, sizeof num, "%d", n);
			circle(sc, DC_BADGE, x + S * 83 / 100, y + S * 80 / 100,
			    S * 16 / 100);
			ts = n >= 10 ? S * 19 / 100 : S * 26 / 100;
			text(sc, DC_WHITE, num, x + S * 83 / 100,
			    y + S * 80 / 100 + ts * 35 / 100, ts, 1);
		}
		x += S;
	}
	if (x < end) {
		cell(sc, x, y, end - x, S);
		rect(sc, DC_POCKET, x, y, end - x, S);
	}
}

/* "1:02:03", "2:05" or "-0:01", from seconds (down to the second). */
static void
clock_text(double sec, char *buf, size_t size)
{
	long t = (long)floor(fabs(sec));
	const char *sign = sec <= -1 ? "-" : "";

	if (t >= 3600)
		snprintf(buf, size, "%s%ld:%02ld:%02ld", sign, t / 3600,
		    t / 60 % 60, t % 60);
	else
		snprintf(buf, size, "%s%ld:%02ld", sign, t / 60, t % 60);
}

/* s cut to fit w pixels at size px: whole letters, then "..." when cut
 * (into buf, of size n); s itself when it fits. */
static const char *
fit_text(const char *s, int w, int size, char *buf, size_t n)
{
	size_t len = strlen(s), k;
	int dots = text_width("...", 3, size);

	if (len > 200)
		len = 200;
	if (text_width(s, len, size) <= w && len == strlen(s))
		return s;
	for (k = len < n - 4 ? len : n - 4; k > 0; k--)
		if (text_width(s, k, size) + dots <= w)
			break;
	memcpy(buf, s, k);
	memcpy(buf + k, "...", 4);
	return k > 0 || dots <= w ? buf : "";
}

/* The bar of colour c at y: whose turn, the name, the clock. */
static void
bar(struct draw_scene *sc, const struct geo *g, const struct draw_board *b,
    int c, int y)
{
	int B = g->bar, w = g->files * g->S, size = B * 55 / 100;
	char clk[32], cut[208];
	const char *name;

	/* the clock a cell of its own: a GIF's frame redraws it alone */
	int cw = b->has_clock[c] ? (4 * B < w / 2 ? 4 * B : w / 2) : 0;

	cell(sc, g->x, y, w - cw, B);
	rect(sc, DC_BAR, g->x, y, w - cw, B);
	if (b->pos->side == c && !(g->flags & DRAW_NO_TURN))
		circle(sc, DC_TURN, g->x + B / 2, y + B / 2, B / 4);
	/* the name in its cell, whole letters, clear of the clock */
	name = b->name[c] != NULL ? b->name[c] : c == ZH_WHITE ? "White" :
	    "Black";
	name = fit_text(name, w - cw - B - B / 3, size, cut, sizeof cut);
	text(sc, DC_TEXT, name, g->x + B, y + B / 2 + size * 36 / 100, size, 0);
	if (b->has_clock[c]) {
		cell(sc, g->x + w - cw, y, cw, B);
		rect(sc, DC_BAR, g->x + w - cw, y, cw, B);
		clock_text(b->clock[c], clk, sizeof clk);
		text(sc, DC_TEXT, clk, g->x + w - B / 3,
		    y + B / 2 + size * 36 / 100, size, 2);
	}
}

static void
board(struct draw_scene *sc, struct geo *g, const struct draw_board *b)
{
	const struct zh_pos *p = b->pos;
	int top = b->black_bottom ? ZH_WHITE : ZH_BLACK, f, r;
	int checked = zh_in_check(p) ? p->king[p->side] : -1;
	int y = g->y;

	g->files = p->v->files;
	g->ranks = p->v->ranks;
	bar(sc, g, b, top, y);
	y += g->bar;
	if (g->pocket > 0)
		pocket(sc, g, p, top, y);
	for (r = g->ranks - 1; r >= 0; r--)
		for (f = 0; f < g->files; f++)
			square(sc, g, b, f, r, checked);
	coords(sc, g, b->black_bottom, y + g->pocket);
	y += g->pocket + g->ranks * g->S + g->lab;
	if (g->pocket > 0)
		pocket(sc, g, p, !top, y);
	bar(sc, g, b, !top, y + g->pocket);
}

int
draw_layout(struct draw_scene *sc, const struct draw_board *b, int nboards,
    int square_px, unsigned flags)
{
	struct geo g = { .flags = flags };
	int i, files = b[0].pos->v->files, ranks = b[0].pos->v->ranks;

	sc->nitems = sc->ncells = sc->ntext = 0;
	sc->fail = false;
	g.S = square_px;
	g.bar = g.S / 2;
	g.pocket = b[0].pos->v->drops ? g.S : 0;
	g.margin = g.S / 8;
	/* "10" fits; 8 px at least, to be read at --size 20 */
	g.labsize = g.S * 24 / 100 > 8 ? g.S * 24 / 100 : 8;
	g.lab = g.S * 2 / 5 > g.labsize * 3 / 2 + 2 ? g.S * 2 / 5 :
	    g.labsize * 3 / 2 + 2;
	sc->w = 2 * g.margin + nboards * (g.lab + files * g.S) +
	    (nboards - 1) * g.S / 2;
	sc->h = 2 * g.margin + 2 * g.bar + 2 * g.pocket + ranks * g.S + g.lab;
	cell(sc, 0, 0, sc->w, sc->h);
	rect(sc, DC_BG, 0, 0, sc->w, sc->h);
	for (i = 0; i < nboards; i++) {
		g.x = g.margin + g.lab + i * (g.lab + files * g.S + g.S / 2);
		g.y = g.margin;
		board(sc, &g, &b[i]);
	}
	return sc->fail ? -1 : 0;
}
