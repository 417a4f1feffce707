/*
 * draw.h - positions as pictures: a scene laid out once from one or two
 * boards, then written as SVG (text), PNG or the frames of an animated
 * GIF.  Beside the tools, not in libzh: libzh draws nothing.
 *
 * A scene is a list of items (rectangles, circles, pieces, text) in
 * pixels, grouped in cells (a square, a pocket slot, a player's bar,
 * the background) that do not overlap: each item lies inside its cell,
 * so a GIF frame redraws only the cells that changed.  The pieces and
 * letters are paths taken from the DejaVu fonts (draw/glyphs.c,
 * draw/GLYPHS.md): every back-end draws the same outlines, and an SVG
 * needs no font.
 */
#ifndef DRAW_H
#define DRAW_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "zh.h"

/* The colours of a picture (draw.c's table gives their RGB). */
enum draw_colour {
	DC_BG, DC_LIGHT, DC_DARK, DC_LASTL, DC_LASTD, DC_DROPL, DC_DROPD,
	DC_CHECK, DC_POCKET, DC_BAR, DC_TEXT, DC_WHITE, DC_BLACK, DC_BADGE,
	DC_PROMO, DC_TURN, DC_NCOLOURS
};
extern const unsigned char draw_rgb[DC_NCOLOURS][3];

/* A glyph: its advance (text) and its path ("M x y L x y Q x y x y Z",
 * integer coordinates, y down). */
struct draw_glyph {
	int adv;
	const char *d;
};
/* [0]: white, [1]: black; by type K Q R B N P (draw_glyph_index). */
extern const struct draw_glyph draw_piece_glyph[2][6];
/* The outline glyph's outer contour (no hole lets the square through);
 * K Q R B N P.  A White piece is this in black with a rim (a stroke
 * DRAW_RIM wide, in the glyph's 1/1000), under Black's glyph in white
 * grown by a stroke DRAW_BOLD wide: Black's glyph turned over. */
extern const struct draw_glyph draw_piece_fill[6];
#define DRAW_RIM	80
#define DRAW_BOLD	12
/* ' ' to '~', in 1/1000 em, the base line at y = 0. */
extern const struct draw_glyph draw_text_glyph[95];

enum draw_kind { DK_RECT, DK_CIRCLE, DK_PIECE, DK_TEXT };

/*
 * One item.  DK_RECT: x, y, w, h.  DK_CIRCLE: centre x, y, radius w.
 * DK_PIECE: box x, y, side w, piece as zh_pos's squares hold it (type,
 * ZH_BLACKBIT).  DK_TEXT: left x, base line y, size w (pixels an em),
 * the text at scene->text + off, len bytes (printable ASCII).
 */
struct draw_item {
	unsigned char kind, colour, piece;
	int x, y, w, h;
	unsigned off, len;
};

struct draw_cell {
	int x, y, w, h;
	size_t first, n;		/* its items */
};

struct draw_scene {
	int w, h;
	struct draw_item *items;
	size_t nitems, capitems;
	struct draw_cell *cells;
	size_t ncells, capcells;
	char *text;
	size_t ntext, captext;
	bool fail;			/* out of memory */
};

/* One board to draw. */
struct draw_board {
	const struct zh_pos *pos;
	bool has_last;			/* last: the move that led here */
	struct zh_move last;
	bool black_bottom;		/* Black's side at the bottom */
	const char *name[2];		/* White's, Black's; NULL: none */
	bool has_clock[2];
	double clock[2];		/* seconds */
};

/* The square side in pixels: the default, the range. */
#define DRAW_SQUARE	64
#define DRAW_SQUARE_MIN	16
#define DRAW_SQUARE_MAX	256

/* Lay out one board or two side by side (a bughouse pair: the caller
 * turns board B).  The scene is reused: its arrays grow.  0, or -1 if
 * out of memory.  DRAW_NO_TURN: no dot at the side to move (no tool asks
 * for it: every format, a GIF's frames too, shows who is to move). */
enum { DRAW_NO_TURN = 1 };
int draw_layout(struct draw_scene *sc, const struct draw_board *b,
    int nboards, int square, unsigned flags);
void draw_scene_free(struct draw_scene *sc);

/* A growable byte buffer. */
struct draw_buf {
	unsigned char *p;
	size_t len, cap;
	bool fail;
};
void draw_buf_put(struct draw_buf *b, const void *s, size_t n);
unsigned char *draw_buf_reserve(struct draw_buf *b, size_t n);
void draw_buf_free(struct draw_buf *b);

/* The scene as one SVG document, appended to out, ending in a newline
 * and holding no other. */
void draw_svg(const struct draw_scene *sc, struct draw_buf *out);

/* A piece's glyph row (K Q R B N P) or, for an archbishop or a
 * chancellor, -1: they are drawn as two pieces (draw_parts). */
struct draw_part {
	int glyph;			/* row of draw_piece_glyph */
	int x, y, k;			/* offset in the 1000 box, scale in 1/1000 */
};
int draw_parts(int type, struct draw_part part[2]);

/* ---- raster (raster.c): RGB pixels ---- */
struct draw_canvas {
	int w, h;			/* the pixels' size */
	int ox, oy;			/* scene coordinates of pixel 0, 0 */
	unsigned char *rgb;		/* w * h * 3 */
	float *acc;			/* the rasteriser's scratch */
	size_t capacc;
};
/* Paint the items [first, first + n) of sc into cv. */
void draw_paint(const struct draw_scene *sc, size_t first, size_t n,
    struct draw_canvas *cv);
void draw_canvas_free(struct draw_canvas *cv);
/* The scene as a PNG file (RGB, 8 bits) appended to out. */
void draw_png(const struct draw_scene *sc, struct draw_buf *out);

/* ---- animated GIF (gif.c) ---- */
struct draw_gif;
/* delay: hundredths of a second a frame; last: the last frame's. */
struct draw_gif *draw_gif_new(int delay, int last);
/* A frame (every frame of a GIF the same size); -1 if out of memory. */
int draw_gif_frame(struct draw_gif *g, const struct draw_scene *sc);
/* The GIF so far into out (the last frame's delay set), and the frames
 * forgotten for the next GIF. */
void draw_gif_end(struct draw_gif *g, struct draw_buf *out);
/* The bytes made so far but the last frame's (whose delay the end may
 * change) appended to out and dropped from g: a GIF written as its
 * frames are made holds one frame at a time. */
void draw_gif_take(struct draw_gif *g, struct draw_buf *out);
void draw_gif_free(struct draw_gif *g);
#endif
