/*
 * fuzz_draw.c - libFuzzer target for pictures (draw/): hostile positions
 * and games laid out and written as SVG, PNG and GIF frames.  The first
 * byte picks the square's size, the orientation, the formats and
 * clocks; then lines: a FEN (or two-board "A | B"), White's name,
 * Black's name, and the rest a PGN game whose positions become the
 * frames of a GIF.  Checked: every item inside its cell and the cells
 * inside the picture, texts printable ASCII, the SVG one document with
 * no raw '<' but its tags, the PNG and the GIF framed as their formats
 * say.  Built by `make fuzz` (build/fuzz/fuzz_draw) and, over the
 * checked-in corpus, by make check (tests/fuzz.bats).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zh.h"
#include "draw.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXFRAMES 12

static const int squares[4] = { 16, 20, 32, 48 };

/* The scene's invariants (draw.h). */
static void
check_scene(const struct draw_scene *sc)
{
	size_t c, i, k;

	if (sc->fail)
		return;
	for (c = 0; c < sc->ncells; c++) {
		const struct draw_cell *cl = &sc->cells[c];

		if (cl->x < 0 || cl->y < 0 || cl->x + cl->w > sc->w ||
		    cl->y + cl->h > sc->h || cl->first + cl->n > sc->nitems)
			abort();
		for (i = cl->first; i < cl->first + cl->n; i++) {
			const struct draw_item *it = &sc->items[i];

			if (it->kind == DK_TEXT) {
				if (it->off + it->len > sc->ntext)
					abort();
				for (k = 0; k < it->len; k++)
					if (sc->text[it->off + k] < 0x20 ||
					    sc->text[it->off + k] > 0x7e)
						abort();
			} else if (it->kind == DK_RECT || it->kind == DK_PIECE) {
				int w = it->w, h = it->kind == DK_RECT ?
				    it->h : it->w;

				if (it->x < cl->x || it->y < cl->y ||
				    it->x + w > cl->x + cl->w ||
				    it->y + h > cl->y + cl->h)
					abort();
			}
		}
	}
}

/* The SVG: one document, every '<' a tag's. */
static void
check_svg(const struct draw_buf *b)
{
	size_t i;

	if (b->fail)
		return;
	if (b->len < 12 || memcmp(b->p, "<svg", 4) != 0 ||
	    memcmp(b->p + b->len - 7, "</svg>\n", 7) != 0)
		abort();
	for (i = 0; i + 1 < b->len; i++)
		if (b->p[i] == '<' && !(b->p[i + 1] == '/' ||
		    (b->p[i + 1] >= 'a' && b->p[i + 1] <= 'z')))
			abort();
}

static void
draw_all(struct draw_scene *sc, const struct draw_board *b, int n,
    int square, unsigned pick)
{
	struct draw_buf out = { 0 };

	if (draw_layout(sc, b, n, square, 0) != 0)
		return;
	check_scene(sc);
	draw_svg(sc, &out);
	check_svg(&out);
	if (pick & 8) {
		out.len = 0;
		draw_png(sc, &out);
		if (!out.fail && (out.len < 8 || memcmp(out.p, "\x89PNG", 4)))
			abort();
	}
	draw_buf_free(&out);
}

/* One line of s (up to '\n' or the end) as a string; s moves past it. */
static char *
take_line(const char **s, const char *end)
{
	const char *nl = memchr(*s, '\n', (size_t)(end - *s));
	size_t n = (size_t)((nl ? nl : end) - *s);
	char *t = malloc(n + 1);

	if (t == NULL)
		abort();
	memcpy(t, *s, n);
	t[n] = '\0';
	*s = nl ? nl + 1 : end;
	return t;
}

struct frames {
	struct draw_scene *sc;
	struct draw_gif *gif;
	const char **name;
	int square, n;
	bool flip;
};

static int
frame(void *arg, const struct zh_ply *pl)
{
	struct frames *fr = arg;
	struct draw_board b = { .pos = pl->pos, .black_bottom = fr->flip };

	b.name[0] = fr->name[0];
	b.name[1] = fr->name[1];
	if (pl->move != NULL) {
		b.has_last = true;
		b.last = pl->move->move;
	}
	b.has_clock[pl->ply & 1] = pl->has_clock;
	b.clock[pl->ply & 1] = pl->clock;
	if (draw_layout(fr->sc, &b, 1, fr->square, DRAW_NO_TURN) != 0)
		return 1;
	check_scene(fr->sc);
	if (draw_gif_frame(fr->gif, fr->sc) != 0)
		return 1;
	return ++fr->n >= MAXFRAMES;
}

static int
bframe(void *arg, const struct zh_bply *pl)
{
	struct frames *fr = arg;
	struct draw_board b[2];
	int i;

	memset(b, 0, sizeof b);
	for (i = 0; i < 2; i++) {
		b[i].pos = pl->pos[i];
		b[i].black_bottom = (i == ZH_BOARD_B) != fr->flip;
		b[i].name[0] = fr->name[0];
		b[i].name[1] = fr->name[1];
	}
	if (draw_layout(fr->sc, b, 2, fr->square, DRAW_NO_TURN) != 0)
		return 1;
	check_scene(fr->sc);
	if (draw_gif_frame(fr->gif, fr->sc) != 0)
		return 1;
	return ++fr->n >= MAXFRAMES;
}

/* The rest as a game, its positions the frames of a GIF. */
static void
game_gif(const char *s, size_t n, struct frames *fr)
{
	struct zh_pgn_limits lim = { .max_game = 4000, .max_plies = 40,
	    .max_tokens = 200, .max_depth = 3 };
	struct zh_pgn_reader *r;
	struct zh_replay rp;
	struct zh_lines lw;
	struct zh_game g;
	struct draw_buf out = { 0 };
	FILE *f;

	if (n == 0 || (f = fmemopen((void *)(uintptr_t)s, n, "r")) == NULL)
		return;
	memset(&rp, 0, sizeof rp);
	memset(&lw, 0, sizeof lw);
	r = zh_pgn_open(f, &lim);
	if (zh_pgn_next(r, &g) == 1) {
		zh_replay(&g, NULL, &rp);
		if (rp.started && (fr->gif = draw_gif_new(5, 10)) != NULL) {
			zh_replay_walk(&lw, &g, &rp, ZH_WALK_COMMENTS, frame,
			    bframe, fr);
			draw_gif_end(fr->gif, &out);
			if (!out.fail && out.len > 0 && (out.len < 14 ||
			    memcmp(out.p, "GIF89a", 6) != 0 ||
			    out.p[out.len - 1] != 0x3b))
				abort();
			draw_gif_free(fr->gif);
		}
	}
	draw_buf_free(&out);
	zh_lines_free(&lw);
	zh_replay_free(&rp);
	zh_pgn_close(r);
	fclose(f);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct draw_scene sc;
	const char *s, *end, *name[2];
	char *fen, *w, *k;
	struct zh_pos pos[2];
	struct zh_error err = { 0 };
	struct draw_board b[2];
	struct frames fr;
	unsigned pick;
	int square, i;

	if (size < 1)
		return 0;
	pick = data[0];
	square = squares[pick & 3];
	s = (const char *)data + 1;
	end = (const char *)data + size;
	fen = take_line(&s, end);
	w = take_line(&s, end);
	k = take_line(&s, end);
	name[0] = pick & 16 ? w : NULL;
	name[1] = pick & 32 ? k : NULL;
	memset(b, 0, sizeof b);
	if (strchr(fen, '|') != NULL) {
		if (zh_bfen_read(pos, fen, NULL, ZH_AUTO, &err) == 0) {
			for (i = 0; i < 2; i++) {
				b[i].pos = &pos[i];
				b[i].black_bottom = (i == 1) != ((pick & 4) != 0);
				b[i].name[0] = name[0];
				b[i].name[1] = name[1];
				b[i].has_clock[i] = pick & 64;
				b[i].clock[i] = (double)(pick * 977 % 100000) / 7;
			}
			draw_all(&sc, b, 2, square, pick);
		}
	} else if (zh_fen_read(&pos[0], fen, NULL, ZH_AUTO, 0, &err) == 0) {
		struct zh_move mv[ZH_MAXMOVES];
		int nm = zh_legal_moves(&pos[0], mv);

		b[0].pos = &pos[0];
		b[0].black_bottom = pick & 4;
		b[0].name[0] = name[0];
		b[0].name[1] = name[1];
		b[0].has_clock[0] = b[0].has_clock[1] = pick & 64;
		b[0].clock[0] = -1.5;	/* a clock gone below zero */
		b[0].clock[1] = 1e12;
		if (nm > 0 && (pick & 128)) {
			b[0].has_last = true;
			b[0].last = mv[(size_t)pick % (size_t)nm];
		}
		draw_all(&sc, b, 1, square, pick);
	}
	fr = (struct frames){ &sc, NULL, name, square, 0, (pick & 4) != 0 };
	game_gif(s, (size_t)(end - s), &fr);
	free(fen);
	free(w);
	free(k);
	return 0;
}
