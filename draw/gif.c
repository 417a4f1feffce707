/*
 * gif.c - a game as an animated GIF: a frame per position, each the
 * rectangle of the cells that changed since the frame before, the
 * pixels that did not change transparent, on a fixed palette (the
 * picture's colours and two blends of each pair that antialiasing
 * mixes).  A cell is drawn only when its items differ from the frame
 * before's, and then copied from a cache of cells drawn (by the items'
 * hash: a square with a white knight on a light tint is rasterised
 * once a game).  The LZW coder starts a string at every transparent
 * pixel, so a run of them is a few run codes, not a walk pixel by
 * pixel: 93 plies of 528x720 are some 155M instructions, not 615M.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"

#define TRANSPARENT	255
#define RGBCACHE	65536		/* colours seen -> palette index */
#ifndef NSPRITES			/* (a test build makes them small) */
#define NSPRITES	4096		/* cells kept drawn: 3/4 of it at most */
#define STOREMAX	(32u << 20)	/* and their bytes */
#endif

/* Four floats at a time (GCC's and Clang's vector extension: SSE,
 * NEON or plain code as the target has); whole numbers below 2^24, so
 * exact. */
typedef float v4sf __attribute__((vector_size(16)));
typedef int32_t v4si __attribute__((vector_size(16)));

/* A cell drawn once, kept by its key (cell_key) to be copied. */
struct sprite {
	uint64_t key;			/* 0: empty */
	size_t off;			/* in store */
};

struct draw_gif {
	int delay, last;
	int w, h;			/* 0 until the first frame */
	unsigned char pal[256][3];
	int npal;
	v4sf pr[64], pg[64], pb[64];	/* pal, the unused slots far off */
	unsigned char *prev, *cur;	/* palette indices, w * h */
	uint64_t *keys;			/* each cell's items' hash, last frame */
	size_t nkeys;
	struct draw_canvas cv;
	size_t caprgb;			/* cv.rgb's bytes */
	size_t *changed;		/* the cells redrawn this frame */
	size_t nchanged;
	unsigned char *frame;		/* the frame's rectangle, row after row */
	struct sprite *sprites;		/* cells drawn, by key (a cache) */
	unsigned char *store;		/* their palette indices */
	size_t nstore, capstore, nsprites;
	uint32_t rgbkey[RGBCACHE];	/* rgb + 1, 0: empty */
	unsigned char rgbidx[RGBCACHE];
	struct draw_buf out;
	size_t delay_at;		/* the last frame's delay field in out */
	bool fail;
	/* LZW: the code of string p + c is next[p][c] & 4095 if
	 * next[p][c] >> 12 is gen (a table never cleared but at gen's wrap) */
	uint32_t next[4096][256];
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
	for (k = 0; k < 256; k++) {
		bool far = k >= g->npal;

		g->pr[k / 4][k % 4] = far ? 1000 : g->pal[k][0];
		g->pg[k / 4][k % 4] = far ? 1000 : g->pal[k][1];
		g->pb[k / 4][k % 4] = far ? 1000 : g->pal[k][2];
	}
}

/* The palette entry nearest px (the first of equals): the distances of
 * all 256 slots (the unused ones far away) four at a time, each lane's
 * least and where, then the least of the lanes. */
static int
nearest(const struct draw_gif *g, const unsigned char *px)
{
	v4sf r = { 0 }, gr = { 0 }, b = { 0 }, best = { 1e9f, 1e9f, 1e9f, 1e9f };
	v4si at = { 0, 1, 2, 3 }, bi = { 0 };
	int i, j, k = 0;

	r += px[0], gr += px[1], b += px[2];
	for (i = 0; i < 64; i++, at += 4) {
		v4sf dr = r - g->pr[i], dg = gr - g->pg[i], db = b - g->pb[i];
		v4sf d = 3 * dr * dr + 4 * dg * dg + 2 * db * db;
		v4si less = d < best;	/* -1 where so */

		best = (v4sf)(((v4si)d & less) | ((v4si)best & ~less));
		bi = (at & less) | (bi & ~less);
	}
	for (j = 1; j < 4; j++)
		if (best[j] < best[k] || (best[j] == best[k] && bi[j] < bi[k]))
			k = j;
	return bi[k];
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
 * A string that starts with a transparent pixel at px[*i]: the longest
 * run of them the dictionary knows (it knows every shorter one), so a
 * run of n is a few codes and a few steps, not n lookups.
 */
static inline int
run_start(const struct draw_gif *g, const unsigned char *px, size_t *i,
    size_t n)
{
	size_t r = 1, lim = n - *i < (size_t)g->nrun ? n - *i : (size_t)g->nrun;
	uint64_t word;

	while (r + 32 <= lim) {		/* 32 at a time, then eight */
		uint64_t w4[4];

		memcpy(w4, px + *i + r, 32);
		if ((w4[0] & w4[1] & w4[2] & w4[3]) != ~(uint64_t)0)
			break;
		r += 32;
	}
	while (r + 8 <= lim) {
		memcpy(&word, px + *i + r, 8);
		if (word != ~(uint64_t)0)
			break;
		r += 8;
	}
	while (r < lim && px[*i + r] == TRANSPARENT)
		r++;
	*i += r - 1;
	return g->run[r];
}

static void
lzw_reset(struct draw_gif *g)
{
	if (++g->gen == 1u << 20) {
		memset(g->next, 0, sizeof g->next);
		g->gen = 1;
	}
	g->nrun = 1;
	g->run[1] = TRANSPARENT;
}

/* Code 'next' is prefix + c (the decoder's new entry); a string the
 * dictionary has already keeps its first code. */
static inline void
lzw_add(struct draw_gif *g, int prefix, int c, int next)
{
	if (g->next[prefix][c] >> 12 == g->gen)
		return;
	g->next[prefix][c] = g->gen << 12 | (uint32_t)next;
	if (c == TRANSPARENT && prefix == g->run[g->nrun])
		g->run[++g->nrun] = (uint16_t)next;
}

static void
lzw_flush(struct draw_gif *g)
{
	if (g->nbits > 0)
		put_byte(g, (int)(g->bits & 0xff));
	if (g->nblock > 0) {
		unsigned char n = (unsigned char)g->nblock;

		draw_buf_put(&g->out, &n, 1);
		draw_buf_put(&g->out, g->block, (size_t)g->nblock);
	}
	draw_buf_put(&g->out, "", 1);		/* the block terminator */
}

/*
 * The n pixels at px as LZW data sub-blocks.  A transparent pixel
 * always starts a string (the encoder may end a string before the
 * longest match: the decoder adds an entry per code all the same), so
 * a run of them is a few run codes, never a walk pixel by pixel.
 */
static void
lzw(struct draw_gif *g, const unsigned char *px, size_t n)
{
	int size = 9, next = 258, prefix;
	uint32_t e, gen;
	size_t i;

	lzw_reset(g);
	gen = g->gen;
	g->bits = 0, g->nbits = 0, g->nblock = 0;
	draw_buf_put(&g->out, "\x08", 1);	/* minimum code size */
	put_code(g, 256, size);
	prefix = px[0] == TRANSPARENT ? (i = 0, run_start(g, px, &i, n)) :
	    (i = 0, px[0]);
	for (i++; i < n; i++) {
		int c = px[i];

		if (c != TRANSPARENT && (e = g->next[prefix][c]) >> 12 == gen) {
			prefix = (int)(e & 4095);
			continue;
		}
		put_code(g, prefix, size);
		if (next < 4096) {
			lzw_add(g, prefix, c, next++);
			if (next > (1 << size) && size < 12)
				size++;
		} else {
			put_code(g, 256, size);
			lzw_reset(g);
			gen = g->gen;
			size = 9, next = 258;
		}
		prefix = c == TRANSPARENT ? run_start(g, px, &i, n) : c;
	}
	put_code(g, prefix, size);
	put_code(g, 257, size);
	lzw_flush(g);
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

/* Paint cell c and turn it into palette indices at d (c->w a row). */
static void
paint_cell(struct draw_gif *g, const struct draw_scene *sc,
    const struct draw_cell *c, unsigned char *d)
{
	struct draw_canvas *cv = &g->cv;
	size_t need = 3 * (size_t)c->w * (size_t)c->h + 1, i, n;
	static const unsigned char three[4] = { 255, 255, 255, 0 };
	uint32_t last = 0xffffffffu, mask;
	int idx = 0;

	if (need > g->caprgb) {
		unsigned char *p = realloc(cv->rgb, need);

		if (p == NULL) {
			g->fail = true;
			return;
		}
		cv->rgb = p;
		g->caprgb = need;
	}
	cv->w = c->w, cv->h = c->h, cv->ox = c->x, cv->oy = c->y;
	draw_paint(sc, c->first, c->n, cv);
	n = (size_t)c->w * (size_t)c->h;
	memcpy(&mask, three, 4);	/* a pixel's 3 bytes of a word, any endian */
	for (i = 0; i < n; i++) {	/* runs of a colour: one look-up */
		const unsigned char *px = cv->rgb + 3 * i;
		uint32_t rgb;

		memcpy(&rgb, px, 4);	/* the canvas has a byte to spare */
		if ((rgb & mask) != last)
			idx = index_of(g, px), last = rgb & mask;
		d[i] = (unsigned char)idx;
	}
}

/* Room for n more bytes in the sprites' store, up to STOREMAX (or n
 * alone, the store empty); -1 if not. */
static int
grow_store(struct draw_gif *g, size_t n)
{
	size_t cap = g->capstore ? 2 * g->capstore : 1u << 20;
	unsigned char *p;

	while (cap < g->nstore + n)
		cap *= 2;
	if (cap > STOREMAX && g->nstore > 0)
		return -1;
	if ((p = realloc(g->store, cap)) == NULL)
		return -1;
	g->store = p, g->capstore = cap;
	return 0;
}

/* The cell of key k drawn (its palette indices, c->w a row): from the
 * cache, else painted and kept there while it has room.  NULL: out of
 * memory. */
static const unsigned char *
sprite(struct draw_gif *g, const struct draw_scene *sc,
    const struct draw_cell *c, uint64_t k)
{
	size_t n = (size_t)c->w * (size_t)c->h, h = (size_t)(k >> 20) % NSPRITES;
	unsigned char *d;

	k |= 1;				/* never 0, the empty slot */
	for (; g->sprites[h].key != 0; h = (h + 1) % NSPRITES)
		if (g->sprites[h].key == k)
			return g->store + g->sprites[h].off;
	if (g->nsprites >= NSPRITES * 3 / 4 || (n > g->capstore - g->nstore &&
	    grow_store(g, n) != 0)) {
		/* full: the cache starts over */
		memset(g->sprites, 0, NSPRITES * sizeof *g->sprites);
		g->nsprites = g->nstore = 0;
		h = (size_t)(k >> 20) % NSPRITES;
		if (n > g->capstore && grow_store(g, n) != 0)
			return NULL;
	}
	d = g->store + g->nstore;
	paint_cell(g, sc, c, d);
	g->sprites[h].key = k;
	g->sprites[h].off = g->nstore;
	g->nsprites++;
	g->nstore += n;
	return d;
}

/* Cell c (key k) drawn into g->cur. */
static void
render_cell(struct draw_gif *g, const struct draw_scene *sc,
    const struct draw_cell *c, uint64_t k)
{
	const unsigned char *s = sprite(g, sc, c, k);
	int y;

	if (s == NULL) {
		g->fail = true;
		return;
	}
	for (y = 0; y < c->h; y++)
		memcpy(g->cur + (size_t)(c->y + y) * (size_t)g->w + (size_t)c->x,
		    s + (size_t)y * (size_t)c->w, (size_t)c->w);
}

static int
first_frame(struct draw_gif *g, const struct draw_scene *sc)
{
	size_t n = (size_t)sc->w * (size_t)sc->h;

	g->w = sc->w, g->h = sc->h;
	free(g->prev);
	free(g->cur);
	free(g->frame);
	free(g->keys);
	free(g->changed);
	g->prev = malloc(n);
	g->cur = malloc(n);
	g->frame = malloc(n);
	g->keys = calloc(sc->ncells, sizeof *g->keys);
	g->changed = calloc(sc->ncells, sizeof *g->changed);
	g->nkeys = sc->ncells;
	if (g->sprites == NULL)
		g->sprites = calloc(NSPRITES, sizeof *g->sprites);
	if (g->prev == NULL || g->cur == NULL || g->frame == NULL ||
	    g->keys == NULL || g->changed == NULL || g->sprites == NULL)
		return -1;
	g->out.len = 0;
	header(g);
	return 0;
}

/* The scene's cells are others (a clock appeared): every cell drawn
 * again, the frame still the difference from the one before. */
static int
new_cells(struct draw_gif *g, size_t n)
{
	uint64_t *k = calloc(n, sizeof *k);
	size_t *c = calloc(n, sizeof *c);

	if (k == NULL || c == NULL) {
		free(k);
		free(c);
		return -1;
	}
	free(g->keys);
	free(g->changed);
	g->keys = k, g->changed = c, g->nkeys = n;
	return 0;
}

/* Into g->frame (w a row, origin x0, y0): the changed cells' pixels
 * that differ from prev's, every other pixel transparent; and prev
 * made this frame. */
static void
frame_pixels(struct draw_gif *g, const struct draw_scene *sc, int x0,
    int y0, int w, int h)
{
	size_t i;
	int x, y;

	for (y = 0; y < h; y++)		/* row by row: short, vector stores */
		memset(g->frame + (size_t)y * (size_t)w, TRANSPARENT, (size_t)w);
	for (i = 0; i < g->nchanged; i++) {
		const struct draw_cell *c = &sc->cells[g->changed[i]];

		for (y = c->y; y < c->y + c->h; y++) {
			size_t at = (size_t)y * (size_t)g->w + (size_t)c->x;
			unsigned char *p = g->prev + at;
			const unsigned char *q = g->cur + at;
			unsigned char *f = g->frame + (size_t)(y - y0) *
			    (size_t)w + (size_t)(c->x - x0);

			if (memcmp(p, q, (size_t)c->w) == 0)
				continue;
			for (x = 0; x < c->w; x++)
				if (p[x] != q[x])
					f[x] = q[x];
			memcpy(p, q, (size_t)c->w);
		}
	}
}

/* The frame's image: the rectangle x0..x1, y0..y1 of cur, its pixels
 * equal to prev's transparent (all of cur's, the first frame). */
static void
image(struct draw_gif *g, const struct draw_scene *sc, int x0, int y0,
    int x1, int y1, bool whole)
{
	unsigned char gce[8] = { 0x21, 0xf9, 4, 0, 0, 0, TRANSPARENT, 0 };
	unsigned char d[10] = { 0x2c };
	int w = x1 - x0, h = y1 - y0;

	gce[3] = (1 << 2) | (whole ? 0 : 1);	/* keep; transparency */
	le16(gce + 4, g->delay);
	g->delay_at = g->out.len + 4;
	draw_buf_put(&g->out, gce, 8);
	le16(d + 1, x0), le16(d + 3, y0), le16(d + 5, w), le16(d + 7, h);
	d[9] = 0;
	draw_buf_put(&g->out, d, 10);
	if (whole) {			/* the first frame: the whole picture */
		memcpy(g->prev, g->cur, (size_t)w * (size_t)h);
		lzw(g, g->cur, (size_t)w * (size_t)h);
		return;
	}
	frame_pixels(g, sc, x0, y0, w, h);
	lzw(g, g->frame, (size_t)w * (size_t)h);
}

int
draw_gif_frame(struct draw_gif *g, const struct draw_scene *sc)
{
	bool whole = g->w == 0;
	int x0 = sc->w, y0 = sc->h, x1 = 0, y1 = 0;
	size_t i;

	if (!whole && (sc->w != g->w || sc->h != g->h))
		return -1;		/* one game, one size */
	if (whole && first_frame(g, sc) != 0)
		return -1;
	if (sc->ncells != g->nkeys && new_cells(g, sc->ncells) != 0)
		return -1;
	g->nchanged = 0;
	for (i = 0; i < sc->ncells; i++) {
		const struct draw_cell *c = &sc->cells[i];
		uint64_t k = cell_key(sc, c);

		if (!whole && k == g->keys[i])
			continue;
		g->keys[i] = k;
		g->changed[g->nchanged++] = i;
		render_cell(g, sc, c, k);
		x0 = c->x < x0 ? c->x : x0, y0 = c->y < y0 ? c->y : y0;
		x1 = c->x + c->w > x1 ? c->x + c->w : x1;
		y1 = c->y + c->h > y1 ? c->y + c->h : y1;
	}
	if (x1 <= x0)		/* nothing changed: one transparent pixel */
		x0 = y0 = 0, x1 = y1 = 1;
	image(g, sc, x0, y0, x1, y1, whole);
	return g->fail || g->out.fail ? -1 : 0;
}

void
draw_gif_take(struct draw_gif *g, struct draw_buf *out)
{
	size_t n;

	if (g->w == 0 || g->delay_at < 4)
		return;
	n = g->delay_at - 4;		/* the last frame's start */
	draw_buf_put(out, g->out.p, n);
	memmove(g->out.p, g->out.p + n, g->out.len - n);
	g->out.len -= n;
	g->delay_at -= n;
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
	free(g->frame);
	free(g->changed);
	free(g->sprites);
	free(g->store);
	draw_canvas_free(&g->cv);
	draw_buf_free(&g->out);
	free(g);
}
