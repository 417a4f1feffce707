/*
 * text.c - positions as text, a line each: -F fen, epd (a game's block
 * of lines, a variation's after a blank line, each block ended by one)
 * and -F board (a diagram a position); and the game's text buffer they
 * and the other text formats write into.
 */
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
	char head[160], lbl[48] = "start", var[80] = "";
	char fen[ZH_FENMAX];
	char *p;
	size_t n;

	if (!text_take(st, pl))
		return 0;
	if (pl->move != NULL)
		move_label(lbl, sizeof lbl, pl, o->dialect);
	if (pl->path != NULL)
		snprintf(var, sizeof var, ", variation %s", pl->path);
	n = (size_t)snprintf(head, sizeof head, "game %ld%s, ply %ld: %s\n",
	    pl->game, var, pl->ply, lbl);
	emit(st, head, n);
	if ((p = reserve(st, ZH_DIAGMAX)) == NULL)
		return -1;
	n = zh_diagram_write(pl->pos, pl->move ? &pl->move->move : NULL,
	    o->diag, p, ZH_DIAGMAX);
	st->len += n < ZH_DIAGMAX ? n : ZH_DIAGMAX - 1;
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
	char head[160], lbl[ZH_BLABELMAX + ZH_MOVEMAX + 2] = "start";
	char fen[2 * ZH_FENMAX + 8];
	char *p;
	size_t n;

	if (!zh_bply_match(&o->sel, pl))
		return st->fail ? -1 : 0;
	if (pl->move != NULL) {	/* "23B. B@g7#", as in the BPGN */
		char lab[ZH_BLABELMAX], mv[ZH_MOVEMAX];

		zh_bply_label(pl, lab);
		zh_san_dialect(pl->move->rm.san, o->dialect, mv);
		snprintf(lbl, sizeof lbl, "%s. %s", lab, mv);
	}
	n = (size_t)snprintf(head, sizeof head,
	    "game %ld, half-move %ld: %s%s%c\n", st->g->number,
	    pl->index, lbl, pl->move ? ", board " : "",
	    pl->move ? zh_board_letter(pl->move->board) : ' ');
	emit(st, head, n < sizeof head ? n : sizeof head - 1);
	if ((p = reserve(st, ZH_BDIAGMAX)) == NULL)
		return -1;
	n = zh_bdiagram_write(pl, o->diag, p, ZH_BDIAGMAX);
	st->len += n < ZH_BDIAGMAX ? n : ZH_BDIAGMAX - 1;
	n = zh_bply_fen(pl, o->dialect, false, fen, sizeof fen);
	emit(st, fen, n < sizeof fen ? n : sizeof fen - 1);
	emit(st, "\n\n", 2);
	return st->fail ? -1 : 0;
}
