/*
 * gif.c - a game as an animated GIF: a frame per position, each the
 * rectangle of the cells that changed since the frame before, the
 * pixels that did not change transparent (so they deflate to nothing
 * in LZW), on a fixed palette (the picture's colours and two blends of
 * each pair that antialiasing mixes).  A cell is rasterised only when
 * its items differ from the frame before's.
 */
#include <stdlib.h>
#include <string.h>

#include "draw.h"

#define TRANSPARENT	255
#define RGBCACHE	65536		/* colours seen -> palette index */

struct draw_gif {
	int delay, last;
	int w, h;			/* 0 until the first frame */
	unsigned char pal[256][3];
	int npal;
	unsigned char *prev, *cur;	/* palette indices, w * h */
	uint64_t *keys;			/* each cell's items' hash, last frame */
	size_t nkeys;
	struct draw_canvas cv;
	uint32_t rgbkey[RGBCACHE];	/* rgb + 1, 0: empty */
	unsigned char rgbidx[RGBCACHE];
	struct draw_buf out;
	size_t delay_at;		/* the last frame's delay field in out */
	bool fail;
	/* LZW: the code of string p + c is next[p][c] if stamp[p] is gen */
	uint16_t next[4096][256];
	uint32_t stamp[4096];
	uint32_t gen;
	uint16_t run[4097];		/* the code of k transparent pixels */
	int nrun;			/* the longest such string known */
	uint32_t bits;
	int nbits;
	unsigned char block[256];
	int nblock;
};

/* ======================== the palette ======================== */

static void
palette(struct draw_gif *g)
{
	static const unsigned char fg[] = { DC_BLACK, DC_WHITE, DC_TEXT,
	    DC_BADGE, DC_CHECK, DC_PROMO, DC_TURN, DC_LIGHT, DC_DARK };
	static const unsigned char bg[] = { DC_LIGHT, DC_DARK, DC_LASTL,
	    DC_LASTD, DC_DROPL, DC_DROPD, DC_POCKET, DC_BAR, DC_CHECK, DC_BADGE,
	    DC_WHITE, DC_BLACK };
	size_t i, j;
	int c, k;

	for (c = 0; c < DC_NCOLOURS; c++)
		memcpy(g->pal[g->npal++], draw_rgb[c], 3);
	for (i = 0; i < sizeof fg; i++)
		for (j = 0; j < sizeof bg; j++) {
			if (fg[i] == bg[j])
				continue;
			for (k = 1; k <= 2; k++) {
				unsigned char *p = g->pal[g->npal++];

				for (c = 0; c < 3; c++)
					p[c] = (unsigned char)((draw_rgb[fg[i]][c] * k +
					    draw_rgb[bg[j]][c] * (3 - k) + 1) / 3);
			}
		}
}

static int
nearest(const struct draw_gif *g, const unsigned char *px)
{
	long best = 1L << 30, d;
	int i, b = 0;

	for (i = 0; i < g->npal; i++) {
		long dr = px[0] - g->pal[i][0], dg = px[1] - g->pal[i][1];
		long db = px[2] - g->pal[i][2];

		d = 3 * dr * dr + 4 * dg * dg + 2 * db * db;
		if (d < best)
			best = d, b = i;
	}
	return b;
}

static inline int
index_of(struct draw_gif *g, const unsigned char *px)
{
	uint32_t rgb = (uint32_t)px[0] << 16 | (uint32_t)px[1] << 8 | px[2];
	uint32_t h = (rgb * 2654435761u) >> 16;

	for (;; h = (h + 1) & (RGBCACHE - 1)) {
		if (g->rgbkey[h] == rgb + 1)
			return g->rgbidx[h];
		if (g->rgbkey[h] == 0) {
			g->rgbkey[h] = rgb + 1;
			return g->rgbidx[h] = (unsigned char)nearest(g, px);
		}
	}
}

/* ======================== LZW ======================== */

static void
put_byte(struct draw_gif *g, int b)
{
	g->block[g->nblock++] = (unsigned char)b;
	if (g->nblock == 255) {
		unsigned char n = 255;

		draw_buf_put(&g->out, &n, 1);
		draw_buf_put(&g->out, g->block, 255);
		g->nblock = 0;
	}
}

static void
put_code(struct draw_gif *g, int code, int size)
{
	g->bits |= (uint32_t)code << g->nbits;
	g->nbits += size;
	while (g->nbits >= 8) {
		put_byte(g, (int)(g->bits & 0xff));
		g->bits >>= 8;
		g->nbits -= 8;
	}
}

/*
 * A string that starts with a transparent pixel at row[*x]: the longest
 * run of them the dictionary knows (it knows every shorter one), so a
 * run of n is a few codes and a few steps, not n lookups.
 */
static int
run_start(const struct draw_gif *g, const unsigned char *row, int *x, int w)
{
	int r = 1, m, lim = w - *x < g->nrun ? w - *x : g->nrun;
	uint64_t word;

	while (r + 8 <= lim) {		/* eight at a time */
		memcpy(&word, row + *x + r, 8);
		if (word != ~(uint64_t)0)
			break;
		r += 8;
	}
	while (r < lim && row[*x + r] == TRANSPARENT)
		r++;
	m = r < g->nrun ? r : g->nrun;
	*x += m - 1;
	return g->run[m];
}

static void
lzw_reset(struct draw_gif *g)
{
	g->gen++;
	g->nrun = 1;
	g->run[1] = TRANSPARENT;
}

/* Add code 'next' for prefix + c. */
static inline void
lzw_add(struct draw_gif *g, int prefix, int c, int next)
{
	if (g->stamp[prefix] != g->gen) {
		memset(g->next[prefix], 0, sizeof g->next[prefix]);
		g->stamp[prefix] = g->gen;
	}
	g->next[prefix][c] = (uint16_t)next;
	if (c == TRANSPARENT && prefix == g->run[g->nrun])
		g->run[++g->nrun] = (uint16_t)next;
}

/* The w x h pixels at px (stride apart) as LZW data sub-blocks. */
static void
lzw(struct draw_gif *g, const unsigned char *px, int w, int h, int stride)
{
	int size = 9, next = 258, prefix = -1, x, y;

	lzw_reset(g);
	g->bits = 0, g->nbits = 0, g->nblock = 0;
	draw_buf_put(&g->out, "\x08", 1);	/* minimum code size */
	put_code(g, 256, size);
	for (y = 0; y < h; y++) {
		const unsigned char *row = px + (size_t)y * (size_t)stride;

		for (x = 0; x < w; x++) {
			int c = row[x], code;

			if (prefix >= 0 && g->stamp[prefix] == g->gen &&
			    (code = g->next[prefix][c]) != 0) {
				prefix = code;
				continue;
			}
			if (prefix >= 0) {
				put_code(g, prefix, size);
				if (next < 4096) {
					lzw_add(g, prefix, c, next++);
					if (next > (1 << size) && size < 12)
						size++;
				} else {
					put_code(g, 256, size);
					lzw_reset(g);
					size = 9, next = 258;
				}
			}
			prefix = c == TRANSPARENT ? run_start(g, row, &x, w) : c;
		}
	}
	if (prefix >= 0)
		put_code(g, prefix, size);
	put_code(g, 257, size);
	if (g->nbits > 0)
		put_byte(g, (int)(g->bits & 0xff));
	if (g->nblock > 0) {
		unsigned char n = (unsigned char)g->nblock;

		draw_buf_put(&g->out, &n, 1);
		draw_buf_put(&g->out, g->block, (size_t)g->nblock);
	}
	draw_buf_put(&g->out, "", 1);		/* the block terminator */
}

/* ======================== frames ======================== */

struct draw_gif *
draw_gif_new(int delay, int last)
{
	struct draw_gif *g = calloc(1, sizeof *g);

	if (g == NULL)
		return NULL;
	g->delay = delay;
	g->last = last;
	palette(g);
	return g;
}

static void
le16(unsigned char *p, int v)
{
	p[0] = (unsigned char)(v & 0xff);
	p[1] = (unsigned char)(v >> 8 & 0xff);
}

static void
header(struct draw_gif *g)
{
	unsigned char h[13] = "GIF89a";
	static const unsigned char loop[19] = { 0x21, 0xff, 0x0b, 'N', 'E',
	    'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0', 3, 1, 0, 0, 0 };

	le16(h + 6, g->w);
	le16(h + 8, g->h);
	h[10] = 0xf7;		/* a global table of 256 colours */
	h[11] = 0;
	h[12] = 0;
	draw_buf_put(&g->out, h, 13);
	draw_buf_put(&g->out, g->pal, sizeof g->pal);
	draw_buf_put(&g->out, loop, sizeof loop);
}

/* A hash of a cell's items, relative to the cell. */
static uint64_t
cell_key(const struct draw_scene *sc, const struct draw_cell *c)
{
	uint64_t h = 1469598103934665603u;
	size_t i, j;

	for (i = c->first; i < c->first + c->n; i++) {
		const struct draw_item *it = &sc->items[i];
		int v[7] = { it->kind, it->colour, it->piece, it->x - c->x,
		    it->y - c->y, it->w, it->h };

		for (j = 0; j < 7; j++)
			h = (h ^ (uint64_t)(unsigned)v[j]) * 1099511628211u;
		for (j = 0; it->kind == DK_TEXT && j < it->len; j++)
			h = (h ^ (unsigned char)sc->text[it->off + j]) *
			    1099511628211u;
	}
	return h ^ (uint64_t)c->w << 40 ^ (uint64_t)c->h << 52;
}

/* Rasterise cell c into g->cur. */
static void
render_cell(struct draw_gif *g, const struct draw_scene *sc,
    const struct draw_cell *c)
{
	struct draw_canvas *cv = &g->cv;
	size_t need = 3 * (size_t)c->w * (size_t)c->h;
	int x, y;

	if (need > (size_t)cv->w * (size_t)cv->h * 3 || cv->rgb == NULL) {
		unsigned char *p = realloc(cv->rgb, need);

		if (p == NULL) {
			g->fail = true;
			return;
		}
		cv->rgb = p;
	}
	cv->w = c->w, cv->h = c->h, cv->ox = c->x, cv->oy = c->y;
	draw_paint(sc, c->first, c->n, cv);
	for (y = 0; y < c->h; y++) {
		const unsigned char *px = cv->rgb + 3 * (size_t)y * (size_t)c->w;
		unsigned char *d = g->cur + (size_t)(c->y + y) * (size_t)g->w +
		    (size_t)c->x;

		for (x = 0; x < c->w; x++, px += 3)
			d[x] = (unsigned char)index_of(g, px);
	}
}

static int
first_frame(struct draw_gif *g, const struct draw_scene *sc)
{
	size_t n = (size_t)sc->w * (size_t)sc->h;

	g->w = sc->w, g->h = sc->h;
	free(g->prev);
	free(g->cur);
	free(g->keys);
	g->prev = malloc(n);
	g->cur = malloc(n);
	g->keys = calloc(sc->ncells, sizeof *g->keys);
	g->nkeys = sc->ncells;
	if (g->prev == NULL || g->cur == NULL || g->keys == NULL)
		return -1;
	g->out.len = 0;
	header(g);
	return 0;
}

/* The frame's image: the rectangle x0..x1, y0..y1 of cur, its pixels
 * equal to prev's transparent. */
static void
image(struct draw_gif *g, int x0, int y0, int x1, int y1, bool whole)
{
	unsigned char gce[8] = { 0x21, 0xf9, 4, 0, 0, 0, TRANSPARENT, 0 };
	unsigned char d[10] = { 0x2c };
	int w = x1 - x0, h = y1 - y0, x, y;
	unsigned char *tmp = g->prev;	/* turned into the frame's pixels */

	gce[3] = (1 << 2) | (whole ? 0 : 1);	/* keep; transparency */
	le16(gce + 4, g->delay);
	g->delay_at = g->out.len + 4;
	draw_buf_put(&g->out, gce, 8);
	le16(d + 1, x0), le16(d + 3, y0), le16(d + 5, w), le16(d + 7, h);
	d[9] = 0;
	draw_buf_put(&g->out, d, 10);
	for (y = y0; y < y1; y++) {
		unsigned char *p = tmp + (size_t)y * (size_t)g->w;
		const unsigned char *c = g->cur + (size_t)y * (size_t)g->w;

		if (whole)
			memcpy(p + x0, c + x0, (size_t)w);
		else if (memcmp(p + x0, c + x0, (size_t)w) == 0)
			memset(p + x0, TRANSPARENT, (size_t)w);
		else
			for (x = x0; x < x1; x++)
				p[x] = p[x] != c[x] ? c[x] : TRANSPARENT;
	}
	lzw(g, tmp + (size_t)y0 * (size_t)g->w + (size_t)x0, w, h, g->w);
	for (y = y0; y < y1; y++)	/* prev is this frame again */
		memcpy(g->prev + (size_t)y * (size_t)g->w + (size_t)x0,
		    g->cur + (size_t)y * (size_t)g->w + (size_t)x0, (size_t)w);
}

int
draw_gif_frame(struct draw_gif *g, const struct draw_scene *sc)
{
	bool whole = g->w == 0;
	int x0 = sc->w, y0 = sc->h, x1 = 0, y1 = 0;
	size_t i;

	if (!whole && (sc->w != g->w || sc->h != g->h || sc->ncells != g->nkeys))
		return -1;		/* one game, one size */
	if (whole && first_frame(g, sc) != 0)
		return -1;
	for (i = 0; i < sc->ncells; i++) {
		const struct draw_cell *c = &sc->cells[i];
		uint64_t k = cell_key(sc, c);

		if (!whole && k == g->keys[i])
			continue;
		g->keys[i] = k;
		render_cell(g, sc, c);
		x0 = c->x < x0 ? c->x : x0, y0 = c->y < y0 ? c->y : y0;
		x1 = c->x + c->w > x1 ? c->x + c->w : x1;
		y1 = c->y + c->h > y1 ? c->y + c->h : y1;
	}
	if (x1 <= x0)		/* nothing changed: one transparent pixel */
		x0 = y0 = 0, x1 = y1 = 1;
	image(g, x0, y0, x1, y1, whole);
	return g->fail || g->out.fail ? -1 : 0;
}

void
draw_gif_end(struct draw_gif *g, struct draw_buf *out)
{
	if (g->w == 0)
		return;
	le16(g->out.p + g->delay_at, g->last);
	draw_buf_put(&g->out, "\x3b", 1);	/* the trailer */
	draw_buf_put(out, g->out.p, g->out.len);
	if (g->out.fail)
		out->fail = true;
	g->out.len = 0;
	g->w = g->h = 0;
}

void
draw_gif_free(struct draw_gif *g)
{
	if (g == NULL)
		return;
	free(g->prev);
	free(g->cur);
	free(g->keys);
	draw_canvas_free(&g->cv);
	draw_buf_free(&g->out);
	free(g);
}
