/*
 * pictures.c - -F svg, png (a picture a position: SVG on standard
 * output, one a line, or files named by -o's pattern) and gif (a game's
 * animation a file), drawn by draw/ (pic.h).
 */
#include "format.h"

/* -o is the pictures' name pattern; --split has no meaning here. */
int
pic_check(struct opts *o, const char *outpath)
{
	const struct zh_plysel *s = &o->sel;

	o->pic.fmt = pic_format(o->fmt->name);
	/* a game has more than one position selected (-o - takes one) */
	o->pic.many = !s->start_only && !s->final_only &&
	    (s->to < 0 || s->to - s->from >= s->every);
	if (pic_setup(&o->pic, outpath, 2) != 0)
		return -1;
	if (clean_splits(&o->clean)) {
		cli_fail("--split: not with -F %s", o->fmt->name);
		return -1;
	}
	return 0;
}

/* The picture just drawn (rc of pic_draw) written, or, a GIF's frame
 * ('frame'), kept; -1 if out of memory.  A picture that cannot be
 * written is said (pic_failed(): exit 2), and the game's others are not
 * drawn. */
static int
pic_out(struct state *st, int rc, long ply, bool frame)
{
	struct pic *p = &st->pic;

	if (rc != 0)
		return -1;
	if (frame)	/* a GIF is written as it is made */
		return pic_gif_frame(p, st->g->index, stderr);
	if (p->stop)
		return 0;
	if (++p->count > 1 && st->o->pic.pattern != NULL &&
	    st->o->pic.nconv == 1) {
		fprintf(stderr, "zhreplay: -o '%s': game %ld has more than one "
		    "picture: give a second %%d (the ply)\n", st->o->pic.pattern,
		    st->g->number);
		pic_set_failed();
		p->stop = true;
	} else if (st->o->pic.pattern == NULL)	/* SVG, one a line */
		emit(st, (const char *)p->buf.p, p->buf.len);
	else if (pic_save(p, st->g->index, ply, NULL, stderr) != 0)
		p->stop = true;	/* the game's number in the run, as -F jsonl */
	return 0;
}

/* A position of one board as a picture (the mainline's only). */
static inline int
one(void *arg, const struct zh_ply *pl, bool frame)
{
	struct state *st = arg;
	struct pic *p = &st->pic;
	struct draw_board b = { .pos = pl->pos, .black_bottom = st->o->pic.flip };
	int c = !pl->pos->side;		/* the side that moved */

	if (pl->line > 0 || pl->prefix)
		return 0;
	if (pl->ply == 0)
		memset(p->has_clock, 0, sizeof p->has_clock);
	else if (pl->has_clock) {
		p->has_clock[0][c] = true;
		p->clock[0][c] = pl->clock;
	}
	if (!zh_plysel_match(&st->o->sel, pl))
		return 0;
	b.name[0] = zh_game_tag(st->g, "White");
	b.name[1] = zh_game_tag(st->g, "Black");
	memcpy(b.has_clock, p->has_clock[0], sizeof b.has_clock);
	memcpy(b.clock, p->clock[0], sizeof b.clock);
	if (pl->move != NULL) {
		b.has_last = true;
		b.last = pl->move->move;
	}
	return pic_out(st, pic_draw(p, &b, 1), pl->ply, frame);
}

/* A bughouse position as a picture of both boards. */
static inline int
two(void *arg, const struct zh_bply *pl, bool frame)
{
	static const char *const tags[2][2] = {
		{ "WhiteA", "BlackA" }, { "WhiteB", "BlackB" }
	};
	struct state *st = arg;
	const char *name[2][2];
	int i, c;

	for (i = 0; i < 2; i++)
		for (c = 0; c < 2; c++)
			name[i][c] = zh_game_tag(st->g, tags[i][c]);
	if (!zh_bply_match(&st->o->sel, pl)) {
		if (pl->move != NULL && pl->move->has_clock) {
			st->pic.has_clock[pl->move->board][pl->move->side] = true;
			st->pic.clock[pl->move->board][pl->move->side] =
			    pl->move->clock;
		}
		return 0;
	}
	return pic_out(st, pic_draw_bply(&st->pic, pl, name), pl->index,
	    frame);
}

int
pic_ply(void *st, const struct zh_ply *pl)
{
	return one(st, pl, false);
}

int
pic_bply(void *st, const struct zh_bply *pl)
{
	return two(st, pl, false);
}

int
gif_ply(void *st, const struct zh_ply *pl)
{
	return one(st, pl, true);
}

int
gif_bply(void *st, const struct zh_bply *pl)
{
	return two(st, pl, true);
}

/* A game's pictures end: the next game's are counted anew. */
int
pic_end(struct state *st, bool walked, FILE *out)
{
	(void)walked;
	(void)out;
	st->pic.count = 0;
	st->pic.stop = false;
	return 0;
}

/* A game's GIF ended: what is left of it written and the file renamed
   (pic_gif_end); 1 if it could not be. */
int
gif_end(struct state *st, bool walked, FILE *out)
{
	(void)walked;
	(void)out;
	st->pic.count = 0;
	/* a picture not written is an I/O error of the run (exit 2, said),
	   not an error of the game's */
	if (pic_gif_end(&st->pic, st->g->index, stderr) != 0)
		pic_set_failed();
	return 0;
}
