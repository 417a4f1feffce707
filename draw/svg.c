/*
 * svg.c - a scene as SVG: the glyphs it uses once in <defs>, each piece
 * and letter a <use> of them.  Written into a buffer with no printf: a
 * diagram is a few microseconds.  One line: the document ends in its
 * only newline, so a stream of them is one picture a line.
 */
#include <pthread.h>
#include <string.h>

#include "draw.h"

#define STR_(x)	#x
#define STR(x)	STR_(x)

/*
 * The document is written through a bare pointer into room reserved
 * once (svg_bound() bytes at most): no check per piece of text.
 */
struct w {
	char *p;
};

static inline void
put(struct w *b, const void *s, size_t n)
{
	memcpy(b->p, s, n);
	b->p += n;
}

#define LIT(b, s)	put((b), (s), sizeof(s) - 1)

/* The glyphs' path lengths, measured once. */
static size_t piece_len[2][6], fill_len[6], text_len[95];
static pthread_once_t len_once = PTHREAD_ONCE_INIT;

static void
measure(void)
{
	int c, t;

	for (c = 0; c < 2; c++)
		for (t = 0; t < 6; t++)
			piece_len[c][t] = strlen(draw_piece_glyph[c][t].d);
	for (t = 0; t < 6; t++)
		fill_len[t] = strlen(draw_piece_fill[t].d);
	for (c = 0; c < 95; c++)
		text_len[c] = strlen(draw_text_glyph[c].d);
}

static void
num(struct w *b, long v)
{
	char t[24], *p = t + sizeof t;
	unsigned long u;

	if (v >= 0 && v < 10) {
		*b->p++ = (char)('0' + v);
		return;
	}
	if (v >= 10 && v < 100) {
		b->p[0] = (char)('0' + v / 10);
		b->p[1] = (char)('0' + v % 10);
		b->p += 2;
		return;
	}
	if (v >= 100 && v < 1000) {
		b->p[0] = (char)('0' + v / 100);
		b->p[1] = (char)('0' + v / 10 % 10);
		b->p[2] = (char)('0' + v % 10);
		b->p += 3;
		return;
	}
	u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*--p = '-';
	put(b, p, (size_t)(t + sizeof t - p));
}

/* v / 1000 as a decimal: "0.064", "1", "0.5". */
static void
milli(struct w *b, long v)
{
	char t[8];
	int n = 0;
	long frac = v % 1000;

	num(b, v / 1000);
	if (frac == 0)
		return;
	t[n++] = '.';
	t[n++] = (char)('0' + frac / 100);
	t[n++] = (char)('0' + frac / 10 % 10);
	t[n++] = (char)('0' + frac % 10);
	while (t[n - 1] == '0')
		n--;
	put(b, t, (size_t)n);
}

/* ' fill="#rrggbb"' */
static void
fill(struct w *b, int colour)
{
	static const char hex[] = "0123456789abcdef";
	char t[17] = " fill=\"#";
	int i;

	for (i = 0; i < 3; i++) {
		t[8 + 2 * i] = hex[draw_rgb[colour][i] >> 4];
		t[9 + 2 * i] = hex[draw_rgb[colour][i] & 15];
	}
	t[14] = '"';
	put(b, t, 15);
}

/* The glyphs the scene uses: pieces by colour and type, characters. */
struct used {
	bool piece[2][ZH_NTYPES];
	bool glyph[2][6];
	bool ch[95];
};

static void
find_used(const struct draw_scene *sc, struct used *u)
{
	struct draw_part part[2];
	size_t i, j;
	int n, k;

	memset(u, 0, sizeof *u);
	for (i = 0; i < sc->nitems; i++) {
		const struct draw_item *it = &sc->items[i];
		int c = ZH_COLOR(it->piece);

		if (it->kind == DK_TEXT)
			for (j = 0; j < it->len; j++)
				u->ch[(unsigned char)sc->text[it->off + j] - 32] = true;
		if (it->kind != DK_PIECE || u->piece[c][ZH_TYPE(it->piece)])
			continue;
		u->piece[c][ZH_TYPE(it->piece)] = true;
		n = draw_parts(ZH_TYPE(it->piece), part);
		for (k = 0; k < n; k++)
			u->glyph[c][part[k].glyph] = true;
	}
}

static const char glyph_id[] = "kqrbnp";

static void
defs(struct w *b, const struct used *up)
{
	static const char kind[] = "PNBRQKAC";
	struct draw_part part[2];
	const struct used u = *up;
	int c, t, k, n;

	LIT(b, "<defs>");
	for (c = 0; c < 2; c++)
		for (t = 0; t < 6; t++) {
			if (!u.glyph[c][t])
				continue;
			LIT(b, "<g id=\"g");
			put(b, c ? "b" : "w", 1);
			put(b, &glyph_id[t], 1);
			LIT(b, "\">");
			if (c == ZH_WHITE) {
				/* Black's glyph turned over (draw.h) */
				LIT(b, "<path stroke=\"#000\" stroke-width=\"" STR(DRAW_RIM)
				    "\" stroke-linejoin=\"round\" d=\"");
				put(b, draw_piece_fill[t].d, fill_len[t]);
				LIT(b, "\"/><path fill=\"#fff\" stroke=\"#fff\" stroke-width=\""
				    STR(DRAW_BOLD) "\" stroke-linejoin=\"round\" d=\"");
				put(b, draw_piece_glyph[ZH_BLACK][t].d, piece_len[ZH_BLACK][t]);
				LIT(b, "\"/></g>");
				continue;
			}
			LIT(b, "<path d=\"");
			put(b, draw_piece_glyph[c][t].d, piece_len[c][t]);
			LIT(b, "\"/></g>");
		}
	for (c = 0; c < 2; c++)
		for (t = ZH_PAWN; t < ZH_NTYPES; t++) {
			if (!u.piece[c][t] || (n = draw_parts(t, part)) != 2)
				continue;
			LIT(b, "<g id=\"");
			put(b, c ? "b" : "w", 1);
			put(b, &kind[t - 1], 1);
			LIT(b, "\">");
			for (k = 0; k < n; k++) {
				LIT(b, "<use xlink:href=\"#g");
				put(b, c ? "b" : "w", 1);
				put(b, &glyph_id[part[k].glyph], 1);
				LIT(b, "\" transform=\"translate(");
				num(b, part[k].x);
				LIT(b, " ");
				num(b, part[k].y);
				LIT(b, ") scale(");
				milli(b, part[k].k);
				LIT(b, ")\"/>");
			}
			LIT(b, "</g>");
		}
	for (c = 0; c < 95; c++) {
		if (!u.ch[c] || draw_text_glyph[c].d[0] == '\0')
			continue;
		LIT(b, "<path id=\"c");
		num(b, c + 32);
		LIT(b, "\" d=\"");
		put(b, draw_text_glyph[c].d, text_len[c]);
		LIT(b, "\"/>");
	}
	LIT(b, "</defs>");
}

/* ' transform="translate(x y) scale(k/1000)"' */
static void
place(struct w *b, int x, int y, long k)
{
	LIT(b, " transform=\"translate(");
	num(b, x);
	LIT(b, " ");
	num(b, y);
	LIT(b, ") scale(");
	milli(b, k);
	LIT(b, ")\"");
}

static void
piece_use(struct w *b, const struct draw_item *it)
{
	static const char kind[] = "PNBRQKAC";
	int t = ZH_TYPE(it->piece);
	struct draw_part part[2];

	LIT(b, "<use xlink:href=\"#");
	if (draw_parts(t, part) == 1)
		put(b, "g", 1);
	put(b, ZH_COLOR(it->piece) ? "b" : "w", 1);
	put(b, draw_parts(t, part) == 1 ? &glyph_id[part[0].glyph] :
	    &kind[t - 1], 1);
	put(b, "\"", 1);
	place(b, it->x, it->y, it->w);
	LIT(b, "/>");
}

static void
text_uses(struct w *b, const struct draw_scene *sc,
    const struct draw_item *it)
{
	long x = 0;
	size_t i;

	LIT(b, "<g");
	fill(b, it->colour);
	place(b, it->x, it->y, it->w);
	LIT(b, ">");
	for (i = 0; i < it->len; i++) {
		int c = (unsigned char)sc->text[it->off + i];

		if (draw_text_glyph[c - 32].d[0] != '\0') {
			LIT(b, "<use xlink:href=\"#c");
			num(b, c);
			if (x != 0) {
				LIT(b, "\" x=\"");
				num(b, x);
			}
			LIT(b, "\"/>");
		}
		x += draw_text_glyph[c - 32].adv;
	}
	LIT(b, "</g>");
}

static void
one(struct w *b, const struct draw_scene *sc, const struct draw_item *it)
{
	switch (it->kind) {
	case DK_RECT:
		LIT(b, "<rect x=\"");
		num(b, it->x);
		LIT(b, "\" y=\"");
		num(b, it->y);
		LIT(b, "\" width=\"");
		num(b, it->w);
		LIT(b, "\" height=\"");
		num(b, it->h);
		put(b, "\"", 1);
		fill(b, it->colour);
		LIT(b, "/>");
		break;
	case DK_CIRCLE:
		LIT(b, "<circle cx=\"");
		num(b, it->x);
		LIT(b, "\" cy=\"");
		num(b, it->y);
		LIT(b, "\" r=\"");
		num(b, it->w);
		put(b, "\"", 1);
		fill(b, it->colour);
		LIT(b, "/>");
		break;
	case DK_PIECE:
		piece_use(b, it);
		break;
	case DK_TEXT:
		text_uses(b, sc, it);
		break;
	}
}

/* Room enough for the document: the glyphs it defines, and a bound per
 * item (a <use> a character). */
static size_t
svg_bound(const struct draw_scene *sc, const struct used *u)
{
	size_t n = 1024 + 160 * sc->nitems + 48 * sc->ntext;
	int c, t;

	for (c = 0; c < 2; c++)
		for (t = 0; t < 6; t++)
			if (u->glyph[c][t])
				n += 256 + piece_len[c][t] + fill_len[t];
	n += 2 * 256 * ZH_NTYPES;	/* the pieces made of two */
	for (c = 0; c < 95; c++)
		if (u->ch[c])
			n += 64 + text_len[c];
	return n;
}

void
draw_svg(const struct draw_scene *sc, struct draw_buf *out)
{
	struct used u;
	struct w w, *b = &w;
	size_t i;

	pthread_once(&len_once, measure);
	find_used(sc, &u);
	if ((w.p = (char *)draw_buf_reserve(out, svg_bound(sc, &u))) == NULL)
		return;
	LIT(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"");
	num(b, sc->w);
	LIT(b, "\" height=\"");
	num(b, sc->h);
	LIT(b, "\" viewBox=\"0 0 ");
	num(b, sc->w);
	LIT(b, " ");
	num(b, sc->h);
	LIT(b, "\">");
	defs(b, &u);
	for (i = 0; i < sc->nitems; i++)
		one(b, sc, &sc->items[i]);
	LIT(b, "</svg>\n");
	out->len = (size_t)((unsigned char *)w.p - out->p);
}
