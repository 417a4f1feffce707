/*
 * text.c - positions as text, a line each: -F fen, epd (a game's block
 * of lines, a variation's after a blank line, each block ended by one)
 * and -F board (a diagram a position); and the game's text buffer they
 * and the other text formats write into.
 */
#include <stdarg.h>

#include "format.h"

char *
text_grow(struct state *st, size_t n)
{
	size_t cap = st->cap ? st->cap : 65536;
	char *b;

	while (cap < st->len + n)
		cap *= 2;
	if ((b = realloc(st->buf, cap)) == NULL) {
		st->fail = true;
		return NULL;
	}
	st->buf = b;
	st->cap = cap;
	return st->buf + st->len;
}

/* printf into the output, whatever its length (a variation's path or a
 * label is the input's). */
static void __attribute__((format(printf, 2, 3)))
emitf(struct state *st, const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || (p = reserve(st, (size_t)n + 1)) == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	st->len += (size_t)n;
}

/* A diagram (of one board, or of two: 'two') at the output's end, room
 * made for all of it. */
static int
emit_diagram(struct state *st, const void *pl, bool two, unsigned flags)
{
	size_t room = two ? ZH_BDIAGMAX : ZH_DIAGMAX, n;
	char *p;

	for (;;) {
		const struct zh_ply *one = pl;

		if ((p = reserve(st, room)) == NULL)
			return -1;
		n = two ? zh_bdiagram_write(pl, flags, p, room) :
		    zh_diagram_write(one->pos, one->move ? &one->move->move :
		    NULL, flags, p, room);
		if (n < room)
			break;
		room = n + 1;
	}
	st->len += n;
	return 0;
}

/* ======================== fen, epd ======================== */

static inline int
fen_line(struct state *st, const struct zh_ply *pl, bool epd)
{
	char *p;
	size_t n;

	if (!text_take(st, pl))
		return 0;
	if ((p = reserve(st, ZH_FENMAX + 1)) == NULL)
		return -1;
	n = epd ? zh_epd_write(pl->pos, st->o->dialect, p, ZH_FENMAX) :
	    zh_fen_write(pl->pos, st->o->dialect, p, ZH_FENMAX);
	if (n >= ZH_FENMAX)	/* cut short: what was written */
		n = ZH_FENMAX - 1;
	p[n] = '\n';
	st->len += n + 1;
	return st->fail ? -1 : 0;
}

static inline int
bfen_line(struct state *st, const struct zh_bply *pl, bool epd)
{
	size_t n, room = 2 * ZH_FENMAX + 8;
	char *p;

	if (!zh_bply_match(&st->o->sel, pl))
		return st->fail ? -1 : 0;
	if ((p = reserve(st, room)) == NULL)
		return -1;
	n = zh_bply_fen(pl, st->o->dialect, epd, p, room);
	if (n >= room)
		n = room - 1;
	p[n] = '\n';
	st->len += n + 1;
	return st->fail ? -1 : 0;
}

int
fen_ply(void *st, const struct zh_ply *pl)
{
	return fen_line(st, pl, false);
}

int
epd_ply(void *st, const struct zh_ply *pl)
{
	return fen_line(st, pl, true);
}

int
fen_bply(void *st, const struct zh_bply *pl)
{
	return bfen_line(st, pl, false);
}

int
epd_bply(void *st, const struct zh_bply *pl)
{
	return bfen_line(st, pl, true);
}

/* Each game's block ends with a blank line (a failed game without
   one: none). */
int
fen_end(struct state *st, bool walked, FILE *out)
{
	(void)walked;
	(void)out;
	if (st->len > 0 || !st->bad)
		emit(st, "\n", 1);
	return 0;
}

/* ======================== board ======================== */

static void
move_label(char *b, size_t size, const struct zh_ply *pl, int d)
{
	long abs = pl->start_ply + pl->ply - 1;	/* plies before the move */
	char san[ZH_MOVEMAX];

	zh_san_dialect(pl->move->san, d, san);
	snprintf(b, size, "%ld%s %s", abs / 2 + 1, abs % 2 ? "..." : ".", san);
}

int
board_ply(void *arg, const struct zh_ply *pl)
{
	struct state *st = arg;
	const struct opts *o = st->o;
	char lbl[48] = "start";	/* "123456789... P@e4": it fits */
	char fen[ZH_FENMAX];
	size_t n;

	if (!text_take(st, pl))
		return 0;
	if (pl->move != NULL)
		move_label(lbl, sizeof lbl, pl, o->dialect);
	emitf(st, "game %ld%s%s, ply %ld: %s\n", pl->game,
	    pl->path != NULL ? ", variation " : "",
	    pl->path != NULL ? pl->path : "", pl->ply, lbl);
	if (emit_diagram(st, pl, false, o->diag) != 0)
		return -1;
	n = zh_fen_write(pl->pos, o->dialect, fen, sizeof fen);
	emit(st, fen, n);
	emit(st, "\n\n", 2);
	return st->fail ? -1 : 0;
}

int
board_bply(void *arg, const struct zh_bply *pl)
{
	struct state *st = arg;
	const struct opts *o = st->o;
	char lbl[ZH_BLABELMAX + ZH_MOVEMAX + 2] = "start";
	char fen[2 * ZH_FENMAX + 8];
	size_t n;

	if (!zh_bply_match(&o->sel, pl))
		return st->fail ? -1 : 0;
	if (pl->move != NULL) {	/* "23B. B@g7#", as in the BPGN */
		char lab[ZH_BLABELMAX], mv[ZH_MOVEMAX];

		zh_bply_label(pl, lab);
		zh_san_dialect(pl->move->rm.san, o->dialect, mv);
		snprintf(lbl, sizeof lbl, "%s. %s", lab, mv);
	}
	emitf(st, "game %ld, half-move %ld: %s%s%c\n", st->g->number,
	    pl->index, lbl, pl->move ? ", board " : "",
	    pl->move ? zh_board_letter(pl->move->board) : ' ');
	if (emit_diagram(st, pl, true, o->diag) != 0)
		return -1;
	n = zh_bply_fen(pl, o->dialect, false, fen, sizeof fen);
	emit(st, fen, n < sizeof fen ? n : sizeof fen - 1);
	emit(st, "\n\n", 2);
	return st->fail ? -1 : 0;
}
