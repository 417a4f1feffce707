/*
 * raster.c - a scene in pixels, and as a PNG file.
 *
 * Every shape is a path of lines and quadratic curves (the glyphs'), a
 * circle (a polygon fine enough to be one) or a rectangle on whole
 * pixels.  A path is filled by accumulating, for each pixel, the signed
 * area its edges cover (the non-zero rule of the fonts for paths whose
 * contours do not cross): exact coverage, the antialiasing of cairo or
 * librsvg, in some 150 lines with no library.  The PNG is zlib's
 * deflate of the rows (the tools link zlib already for their codecs).
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "draw.h"

struct seg {
	float x0, y0, x1, y1;
};

/* The segments of the shape being filled (one thread's: the caller's
 * canvas carries the accumulator, these are per call). */
struct segs {
	struct seg *s;
	size_t n, cap;
	float minx, miny, maxx, maxy;
	bool fail;
};

static void
add_seg(struct segs *sg, float x0, float y0, float x1, float y1)
{
	if (sg->n == sg->cap) {
		size_t cap = sg->cap ? 2 * sg->cap : 512;
		struct seg *s = realloc(sg->s, cap * sizeof *s);

		if (s == NULL) {
			sg->fail = true;
			return;
		}
		sg->s = s;
		sg->cap = cap;
	}
	sg->s[sg->n++] = (struct seg){ x0, y0, x1, y1 };
	if (x1 < sg->minx) sg->minx = x1;
	if (x1 > sg->maxx) sg->maxx = x1;
	if (y1 < sg->miny) sg->miny = y1;
	if (y1 > sg->maxy) sg->maxy = y1;
	if (x0 < sg->minx) sg->minx = x0;
	if (x0 > sg->maxx) sg->maxx = x0;
	if (y0 < sg->miny) sg->miny = y0;
	if (y0 > sg->maxy) sg->maxy = y0;
}

/*
 * The glyphs' paths parsed once (for all threads): per glyph, ops 'M',
 * 'L', 'Q', 'Z' each followed by its points as short integers.  Glyph
 * ids: 0..11 the pieces ([colour][row]), 12..17 white pieces' fills
 * (G_FILL), 18.. the text's characters (G_TEXT).
 */
#define G_FILL		12
#define G_TEXT		18
#define NGLYPHS		(G_TEXT + 95)
static short *parsed[NGLYPHS];
static pthread_once_t parse_once = PTHREAD_ONCE_INIT;

static const char *
glyph_d(int id)
{
	return id < G_FILL ? draw_piece_glyph[id / 6][id % 6].d :
	    id < G_TEXT ? draw_piece_fill[id - G_FILL].d :
	    draw_text_glyph[id - G_TEXT].d;
}

static void
parse_all(void)
{
	int id;

	for (id = 0; id < NGLYPHS; id++) {
		const char *d = glyph_d(id);
		size_t n = 0;
		short *p = malloc((strlen(d) + 1) * sizeof *p);
		char *end;

		if (p == NULL)
			continue;
		while (*d != '\0') {
			if (*d == 'M' || *d == 'L' || *d == 'Q' || *d == 'Z') {
				p[n++] = *d++;
				continue;
			}
			if (*d == ' ') {
				d++;
				continue;
			}
			p[n++] = (short)strtol(d, &end, 10);
			if (end == d)
				break;
			d = end;
		}
		p[n] = 0;
		parsed[id] = p;
	}
}

/* Glyph id at (tx, ty) scaled by k, as segments. */
static void
path_segs(struct segs *sg, int id, float tx, float ty, float k)
{
	float cx = 0, cy = 0, sx = 0, sy = 0, x, y, qx, qy;
	const short *d;
	int i, n;

	pthread_once(&parse_once, parse_all);
	if ((d = parsed[id]) == NULL)
		return;
	while (*d != 0) {
		short op = *d++;

		switch (op) {
		case 'M':
			x = tx + k * d[0];
			y = ty + k * d[1];
			d += 2;
			if (cx != sx || cy != sy)
				add_seg(sg, cx, cy, sx, sy);
			sx = cx = x, sy = cy = y;
			break;
		case 'L':
			x = tx + k * d[0];
			y = ty + k * d[1];
			d += 2;
			add_seg(sg, cx, cy, x, y);
			cx = x, cy = y;
			break;
		case 'Q': {
			float dd, lx = cx, ly = cy;

			qx = tx + k * d[0];
			qy = ty + k * d[1];
			x = tx + k * d[2];
			y = ty + k * d[3];
			d += 4;
			/* n chords stray at most dd / (8 n^2): a tenth of a pixel */
			dd = hypotf(cx - 2 * qx + x, cy - 2 * qy + y);
			n = 1 + (int)sqrtf(dd / 0.8f);
			for (i = 1; i <= n; i++) {
				float t = (float)i / (float)n, u = 1 - t;
				float px = u * u * cx + 2 * u * t * qx + t * t * x;
				float py = u * u * cy + 2 * u * t * qy + t * t * y;

				add_seg(sg, lx, ly, px, py);
				lx = px, ly = py;
			}
			cx = x, cy = y;
			break;
		}
		case 'Z':
			if (cx != sx || cy != sy)
				add_seg(sg, cx, cy, sx, sy);
			cx = sx, cy = sy;
			break;
		default:
			return;		/* not a path */
		}
	}
	if (cx != sx || cy != sy)
		add_seg(sg, cx, cy, sx, sy);
}

/* fminf, fmaxf of numbers (no NaN here), inline */
static inline float
minf(float a, float b)
{
	return a < b ? a : b;
}

static inline float
maxf(float a, float b)
{
	return a > b ? a : b;
}

/* One edge's signed area into the accumulator a (w wide, h high). */
static void
acc_line(float *a, int w, int h, float x0, float y0, float x1, float y1)
{
	float dir = 1, dxdy, x;
	int y, yend;

	if (y0 == y1)
		return;
	if (y0 > y1) {
		float t;

		dir = -1;
		t = x0, x0 = x1, x1 = t;
		t = y0, y0 = y1, y1 = t;
	}
	dxdy = (x1 - x0) / (y1 - y0);
	x = x0;
	if (y0 < 0) {
		x -= y0 * dxdy;
		y0 = 0;
	}
	yend = (int)ceilf(y1) < h ? (int)ceilf(y1) : h;
	for (y = (int)y0; y < yend; y++) {
		float *row = a + (size_t)y * (size_t)(w + 2);
		float dy = minf((float)(y + 1), y1) - maxf((float)y, y0);
		float xnext = x + dxdy * dy, d = dy * dir;
		float xa = minf(x, xnext), xb = maxf(x, xnext);
		float xaf = floorf(xa), xbc = ceilf(xb);
		int xi = (int)xaf, xj = (int)xbc, k;

		if (xj <= xi + 1) {
			float xm = 0.5f * (x + xnext) - xaf;

			row[xi] += d - d * xm;
			row[xi + 1] += d * xm;
		} else {
			float s = 1 / (xb - xa), f0 = xa - xaf, f1 = xb - xbc + 1;
			float a0 = 0.5f * s * (1 - f0) * (1 - f0);
			float am = 0.5f * s * f1 * f1, a1, a2;

			row[xi] += d * a0;
			if (xj == xi + 2)
				row[xi + 1] += d * (1 - a0 - am);
			else {
				a1 = s * (1.5f - f0);
				row[xi + 1] += d * (a1 - a0);
				for (k = xi + 2; k < xj - 1; k++)
					row[k] += d * s;
				a2 = a1 + (float)(xj - xi - 3) * s;
				row[xj - 1] += d * (1 - a2 - am);
			}
			row[xj] += d * am;
		}
		x = xnext;
	}
}

static float
clampf(float v, float lo, float hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* Fill the segments of sg (scene coordinates) in colour c. */
static void
fill(struct draw_canvas *cv, struct segs *sg, int c)
{
	int x0, y0, x1, y1, w, h, x, y;
	const unsigned char *rgb = draw_rgb[c];
	size_t i, need;

	if (sg->n == 0 || sg->fail)
		return;
	x0 = (int)floorf(sg->minx) - cv->ox;
	y0 = (int)floorf(sg->miny) - cv->oy;
	x1 = (int)ceilf(sg->maxx) - cv->ox + 1;
	y1 = (int)ceilf(sg->maxy) - cv->oy + 1;
	x0 = x0 < 0 ? 0 : x0, y0 = y0 < 0 ? 0 : y0;
	x1 = x1 > cv->w ? cv->w : x1, y1 = y1 > cv->h ? cv->h : y1;
	if ((w = x1 - x0) <= 0 || (h = y1 - y0) <= 0)
		return;
	need = (size_t)(w + 2) * (size_t)h;
	if (need > cv->capacc) {
		float *a = realloc(cv->acc, need * sizeof *a);

		if (a == NULL)
			return;
		cv->acc = a;
		cv->capacc = need;
	}
	memset(cv->acc, 0, need * sizeof *cv->acc);
	for (i = 0; i < sg->n; i++) {
		const struct seg *s = &sg->s[i];
		float ox = (float)(cv->ox + x0), oy = (float)(cv->oy + y0);
		float lim = (float)w - 0.001f;

		acc_line(cv->acc, w, h, clampf(s->x0 - ox, 0, lim),
		    clampf(s->y0 - oy, 0, (float)h), clampf(s->x1 - ox, 0, lim),
		    clampf(s->y1 - oy, 0, (float)h));
	}
	for (y = 0; y < h; y++) {
		const float *row = cv->acc + (size_t)y * (size_t)(w + 2);
		unsigned char *px = cv->rgb + 3 * ((size_t)(y0 + y) * (size_t)cv->w +
		    (size_t)x0);
		float sum = 0;

		for (x = 0; x < w; x++, px += 3) {
			float a;

			sum += row[x];
			if ((a = minf(fabsf(sum), 1)) < 1.0f / 512)
				continue;
			px[0] = (unsigned char)(px[0] + (rgb[0] - px[0]) * a + 0.5f);
			px[1] = (unsigned char)(px[1] + (rgb[1] - px[1]) * a + 0.5f);
			px[2] = (unsigned char)(px[2] + (rgb[2] - px[2]) * a + 0.5f);
		}
	}
}

static void
reset(struct segs *sg)
{
	sg->n = 0;
	sg->minx = sg->miny = 1e9f;
	sg->maxx = sg->maxy = -1e9f;
}

static void
fill_path(struct draw_canvas *cv, struct segs *sg, int id, float tx,
    float ty, float k, int c)
{
	reset(sg);
	path_segs(sg, id, tx, ty, k);
	fill(cv, sg, c);
}

static void
paint_rect(struct draw_canvas *cv, const struct draw_item *it)
{
	int x0 = it->x - cv->ox, y0 = it->y - cv->oy;
	int x1 = x0 + it->w, y1 = y0 + it->h, x, y;
	const unsigned char *rgb = draw_rgb[it->colour];
	unsigned char *row;

	x0 = x0 < 0 ? 0 : x0, y0 = y0 < 0 ? 0 : y0;
	x1 = x1 > cv->w ? cv->w : x1, y1 = y1 > cv->h ? cv->h : y1;
	if (x1 <= x0 || y1 <= y0)
		return;
	row = cv->rgb + 3 * ((size_t)y0 * (size_t)cv->w + (size_t)x0);
	for (x = x0; x < x1; x++)	/* one row, then copies of it */
		memcpy(row + 3 * (size_t)(x - x0), rgb, 3);
	for (y = y0 + 1; y < y1; y++)
		memcpy(cv->rgb + 3 * ((size_t)y * (size_t)cv->w + (size_t)x0),
		    row, 3 * (size_t)(x1 - x0));
}

static void
paint_circle(struct draw_canvas *cv, struct segs *sg, const struct draw_item *it)
{
	int n = 16 + 2 * it->w, i;
	float r = (float)it->w, cx = (float)it->x, cy = (float)it->y;
	float px = cx + r, py = cy;

	if (n > 256)
		n = 256;
	reset(sg);
	for (i = 1; i <= n; i++) {
		float t = 6.2831853f * (float)i / (float)n;
		float x = cx + r * cosf(t), y = cy + r * sinf(t);

		add_seg(sg, px, py, x, y);
		px = x, py = y;
	}
	fill(cv, sg, it->colour);
}

/*
 * A path stroked: its segments' outline grown by r on both sides, as
 * one shape of rectangles along the segments and discs at their ends,
 * all turning the same way, so that where they overlap the coverage
 * (clamped at 1) is their union: SVG's stroke with round joins.
 */
static void
stroke_path(struct draw_canvas *cv, struct segs *sg, int id, float tx,
    float ty, float k, float r, int c)
{
	struct seg *e;
	size_t n, i;
	int j;

	reset(sg);
	path_segs(sg, id, tx, ty, k);
	if (sg->fail || (n = sg->n) == 0 ||
	    (e = malloc(n * sizeof *e)) == NULL)
		return;
	memcpy(e, sg->s, n * sizeof *e);
	reset(sg);
	for (i = 0; i < n; i++) {
		float dx = e[i].x1 - e[i].x0, dy = e[i].y1 - e[i].y0;
		float len = sqrtf(dx * dx + dy * dy), px, py, nx, ny;

		if (len > 0) {	/* the right-hand normal: clockwise, as the discs */
			nx = dy / len * r, ny = -dx / len * r;
			add_seg(sg, e[i].x0 + nx, e[i].y0 + ny, e[i].x1 + nx, e[i].y1 + ny);
			add_seg(sg, e[i].x1 + nx, e[i].y1 + ny, e[i].x1 - nx, e[i].y1 - ny);
			add_seg(sg, e[i].x1 - nx, e[i].y1 - ny, e[i].x0 - nx, e[i].y0 - ny);
			add_seg(sg, e[i].x0 - nx, e[i].y0 - ny, e[i].x0 + nx, e[i].y0 + ny);
		}
		px = e[i].x0 + r, py = e[i].y0;
		for (j = 1; j <= 12; j++) {
			float t = 6.2831853f * (float)j / 12;
			float x = e[i].x0 + r * cosf(t), y = e[i].y0 + r * sinf(t);

			add_seg(sg, px, py, x, y);
			px = x, py = y;
		}
	}
	free(e);
	fill(cv, sg, c);
}

/*
 * A White piece is Black's glyph turned over: the silhouette (the
 * outline glyph's outer contour) in black, grown by a 32nd of the piece
 * (a rim), and Black's filled glyph in white on it, grown by an 80th,
 * so that its inner lines (the holes of the filled glyph) and the rim
 * stay dark and the body is white at every size.  The outline glyph
 * itself, a tenth of the piece in strokes, read as Black's at 20 to 40
 * pixels a square.  svg.c draws the same with SVG strokes (RIM, BOLD).
 */
static void
paint_white(struct draw_canvas *cv, struct segs *sg, int g, float tx,
    float ty, float k)
{
	fill_path(cv, sg, G_FILL + g, tx, ty, k, DC_BLACK);
	stroke_path(cv, sg, G_FILL + g, tx, ty, k, k * DRAW_RIM / 2, DC_BLACK);
	fill_path(cv, sg, 6 * ZH_BLACK + g, tx, ty, k, DC_WHITE);
	stroke_path(cv, sg, 6 * ZH_BLACK + g, tx, ty, k, k * DRAW_BOLD / 2, DC_WHITE);
}

static void
paint_piece(struct draw_canvas *cv, struct segs *sg, const struct draw_item *it)
{
	struct draw_part part[2];
	int c = ZH_COLOR(it->piece), n = draw_parts(ZH_TYPE(it->piece), part);
	int i;

	for (i = 0; i < n; i++) {
		float k = (float)it->w / 1000 * (float)part[i].k / 1000;
		float tx = (float)it->x + (float)it->w * (float)part[i].x / 1000;
		float ty = (float)it->y + (float)it->w * (float)part[i].y / 1000;
		int g = part[i].glyph;

		if (c == ZH_WHITE)
			paint_white(cv, sg, g, tx, ty, k);
		else
			fill_path(cv, sg, 6 * c + g, tx, ty, k, DC_BLACK);
	}
}

static void
paint_text(struct draw_canvas *cv, struct segs *sg, const struct draw_scene *sc,
    const struct draw_item *it)
{
	float k = (float)it->w / 1000, x = (float)it->x;
	size_t i;

	for (i = 0; i < it->len; i++) {
		int ch = (unsigned char)sc->text[it->off + i] - 32;
		const struct draw_glyph *g = &draw_text_glyph[ch];

		fill_path(cv, sg, G_TEXT + ch, x, (float)it->y, k, it->colour);
		x += k * (float)g->adv;
	}
}

void
draw_paint(const struct draw_scene *sc, size_t first, size_t n,
    struct draw_canvas *cv)
{
	struct segs sg = { 0 };
	size_t i;

	for (i = first; i < first + n; i++) {
		const struct draw_item *it = &sc->items[i];

		switch (it->kind) {
		case DK_RECT:
			paint_rect(cv, it);
			break;
		case DK_CIRCLE:
			paint_circle(cv, &sg, it);
			break;
		case DK_PIECE:
			paint_piece(cv, &sg, it);
			break;
		case DK_TEXT:
			paint_text(cv, &sg, sc, it);
			break;
		}
	}
	free(sg.s);
}

void
draw_canvas_free(struct draw_canvas *cv)
{
	free(cv->rgb);
	free(cv->acc);
	memset(cv, 0, sizeof *cv);
}

/* ======================== PNG ======================== */

static void
be32(unsigned char *p, unsigned long v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static void
chunk(struct draw_buf *out, const char *type, const unsigned char *data,
    size_t n)
{
	unsigned char h[8], crc[4];
	uLong c = crc32(0, (const Bytef *)type, 4);

	be32(h, (unsigned long)n);
	memcpy(h + 4, type, 4);
	draw_buf_put(out, h, 8);
	draw_buf_put(out, data, n);
	if (n > 0)
		c = crc32(c, data, (uInt)n);
	be32(crc, c);
	draw_buf_put(out, crc, 4);
}

/* The rows, each with PNG's "Sub" filter (flat colours deflate well). */
static unsigned char *
png_rows(const struct draw_canvas *cv, size_t *len)
{
	size_t stride = 3 * (size_t)cv->w + 1, y, x;
	unsigned char *raw = malloc(stride * (size_t)cv->h);

	if (raw == NULL)
		return NULL;
	for (y = 0; y < (size_t)cv->h; y++) {
		const unsigned char *px = cv->rgb + y * 3 * (size_t)cv->w;
		unsigned char *r = raw + y * stride;

		r[0] = 1;
		memcpy(r + 1, px, 3);
		for (x = 3; x < 3 * (size_t)cv->w; x++)
			r[1 + x] = (unsigned char)(px[x] - px[x - 3]);
	}
	*len = stride * (size_t)cv->h;
	return raw;
}

void
draw_png(const struct draw_scene *sc, struct draw_buf *out)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n',
	    0x1a, '\n' };
	struct draw_canvas cv = { .w = sc->w, .h = sc->h };
	unsigned char ihdr[13], *raw = NULL, *z = NULL;
	size_t rawlen = 0;
	uLongf zlen;

	if ((cv.rgb = malloc(3 * (size_t)cv.w * (size_t)cv.h)) == NULL)
		goto fail;
	draw_paint(sc, 0, sc->nitems, &cv);
	if ((raw = png_rows(&cv, &rawlen)) == NULL)
		goto fail;
	zlen = compressBound((uLong)rawlen);
	if ((z = malloc(zlen)) == NULL ||
	    compress2(z, &zlen, raw, (uLong)rawlen, 6) != Z_OK)
		goto fail;
	be32(ihdr, (unsigned long)cv.w);
	be32(ihdr + 4, (unsigned long)cv.h);
	ihdr[8] = 8;		/* bits per channel */
	ihdr[9] = 2;		/* RGB */
	ihdr[10] = ihdr[11] = ihdr[12] = 0;
	draw_buf_put(out, sig, sizeof sig);
	chunk(out, "IHDR", ihdr, sizeof ihdr);
	chunk(out, "IDAT", z, zlen);
	chunk(out, "IEND", NULL, 0);
	free(raw);
	free(z);
	draw_canvas_free(&cv);
	return;
fail:
	out->fail = true;
	free(raw);
	free(z);
	draw_canvas_free(&cv);
}
