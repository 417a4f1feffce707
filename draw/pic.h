/*
 * pic.h - the tools' side of pictures (zhfen -F svg|png, zhreplay -F
 * svg|png|gif): the options, the names of the files (-o's pattern), a
 * picture written whole or not at all.
 *
 * -o's pattern holds up to two integer conversions (%d, %03d; %% for a
 * '%'): the first takes the picture's number (zhfen: the FEN's; zhreplay:
 * the game's), the second the ply.  Without one, -o names one file and
 * a second picture is an error.  Without -o (or with -o -) an SVG goes
 * to the standard output, one document a line; a PNG or a GIF needs -o,
 * and -o - sends one to the standard output (a second is an error).
 * Two conversions need a character that is not a digit between them
 * (else game 1 ply 11 and game 11 ply 1 would share a name), and no
 * name is written twice in a run.
 */
#ifndef PIC_H
#define PIC_H
#include <stdio.h>
#include "draw.h"

enum pic_fmt { PIC_NONE, PIC_SVG, PIC_PNG, PIC_GIF };

struct pic_opts {
	int fmt;			/* enum pic_fmt */
	int square;			/* --size, pixels */
	bool flip;			/* --flip: Black at the bottom */
	int delay, last_delay;		/* GIF: hundredths of a second */
	const char *pattern;		/* -o, NULL: standard output */
	int nconv;			/* its conversions */
	bool to_stdout;			/* -o - for a PNG or a GIF: one
					   picture, on the standard output */
	bool many;			/* set by the caller: a game may have
					   more than one picture a position
					   makes (-o - is then refused for
					   PNG, whose pictures are a
					   position's) */
};

/* Per thread: the scene, the bytes, the GIF being made. */
struct pic {
	const struct pic_opts *o;
	struct draw_scene sc;
	struct draw_buf buf;
	struct draw_gif *gif;
	long count;			/* pictures of the game so far */
	bool stop;			/* no more of this game's (an error) */
	bool open;			/* a file being written: fd (-2: the
					   standard output), tmp, path */
	int fd;
	char *tmp, *path;
	bool has_clock[2][2];		/* the clocks by board and colour, */
	double clock[2][2];		/* kept by the caller as it walks */
};

#define PIC_HELP \
    "      --size N       pictures: the side of a square, pixels (64)\n" \
    "      --flip         pictures: Black at the bottom\n"
#define PIC_GIF_HELP \
    "      --delay CS     GIF: hundredths of a second a frame (80)\n" \
    "      --last-delay CS  GIF: the last frame's (300)\n"
enum { PIC_O_SIZE = 0x600, PIC_O_FLIP, PIC_O_DELAY, PIC_O_LAST };
#define PIC_OPTS \
	{ "size", required_argument, NULL, PIC_O_SIZE }, \
	{ "flip", no_argument, NULL, PIC_O_FLIP }, \
	{ "delay", required_argument, NULL, PIC_O_DELAY }, \
	{ "last-delay", required_argument, NULL, PIC_O_LAST }

/* The format named s: PIC_SVG ..., or PIC_NONE. */
int pic_format(const char *s);
/* An option of pictures: 1 taken, 0 not one, -1 bad (said). */
int pic_option(struct pic_opts *o, int c, const char *arg);
/* With -o known: 0, or -1 after a message (a pattern with more than
 * maxconv conversions, two not apart, a PNG or GIF without -o, ...). */
int pic_setup(struct pic_opts *o, const char *outpath, int maxconv);

/* The picture of one board or a pair into p->buf (emptied first); -1 if
 * out of memory. */
int pic_draw(struct pic *p, const struct draw_board *b, int nboards);
/* A bughouse position of zh_bply_walk as a pair: board A as the options
 * say, B turned, the partners side by side; the four players' names
 * ([board][colour], NULL: none) and clocks (p's, which it keeps: a
 * half-move's clock is its mover's). */
int pic_draw_bply(struct pic *p, const struct zh_bply *pl,
    const char *name[2][2]);
/*
 * p->buf to the file the pattern names for (n1, n2), written whole (a
 * write that fails leaves no file), or to out if there is no -o.  0, or
 * -1 after a message to err (the run's exit status is then 2:
 * pic_failed()).
 */
int pic_save(struct pic *p, long n1, long n2, FILE *out, FILE *err);
/*
 * A GIF written as it is made, so that it holds one frame at a time:
 * after each frame drawn, pic_gif_frame() writes what is final to the
 * file of game n1 (opened at the first), and pic_gif_end() the rest at
 * the game's end (renamed into place then).  0; -1 out of memory; 1
 * (pic_gif_end) if the GIF could not be written (said, pic_failed()).
 */
int pic_gif_frame(struct pic *p, long n1, FILE *err);
int pic_gif_end(struct pic *p, long n1, FILE *err);
bool pic_failed(void);
void pic_set_failed(void);
void pic_free(struct pic *p);
#endif
