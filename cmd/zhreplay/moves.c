/*
 * moves.c - the moves as text, a line of play a line: -F uci, -F san,
 * and -F ucipos (a UCI "position" command a line, for an engine).
 */
#include "format.h"

/* The move into pl's line, after a space unless it starts the line. */
static inline void
move_word(struct state *st, const char *m, size_t n)
{
	if (st->len > 0 && st->buf[st->len - 1] != '\n')
		emit(st, " ", 1);
	emit(st, m, n);
}

static inline int
san_or_uci(struct state *st, const struct zh_ply *pl, bool san)
{
	if (pl->ply > 0 && zh_plysel_match(&st->o->sel, pl)) {
		char m[ZH_MOVEMAX];

		if (san)
			zh_san_dialect(pl->move->san, st->o->dialect, m);
		move_word(st, san ? m : pl->move->uci,
		    strlen(san ? m : pl->move->uci));
	}
	if (pl->last)
		emit(st, "\n", 1);
	return st->fail ? -1 : 0;
}

static inline int
bsan_or_uci(struct state *st, const struct zh_bply *pl, bool san)
{
	if (pl->move != NULL && zh_bply_match(&st->o->sel, pl)) {
		char m[ZH_BLABELMAX + ZH_MOVEMAX + 2];
		size_t n = zh_bply_move(pl, san, st->o->dialect, m, sizeof m);

		move_word(st, m, n < sizeof m ? n : sizeof m - 1);
	}
	if (pl->last)
		emit(st, "\n", 1);
	return st->fail ? -1 : 0;
}

int
uci_ply(void *st, const struct zh_ply *pl)
{
	return san_or_uci(st, pl, false);
}

int
san_ply(void *st, const struct zh_ply *pl)
{
	return san_or_uci(st, pl, true);
}

int
uci_bply(void *st, const struct zh_bply *pl)
{
	return bsan_or_uci(st, pl, false);
}

int
san_bply(void *st, const struct zh_bply *pl)
{
	return bsan_or_uci(st, pl, true);
}

/* ======================== ucipos ======================== */

/* An engine given one board's moves could not play its drops: their
   pieces come from the other board. */
int
ucipos_begin(struct state *st, FILE *err)
{
	const struct zh_replay *r = &st->r;

	if (r->v == NULL || r->v->boards < 2)
		return FMT_WALK;
	cli_fdiag(err, "error", st->o->name, st->g->line, 1, "game %ld: -F "
	    "ucipos: a bughouse board cannot be replayed alone (its "
	    "drops come from the partner's captures); use -F fen",
	    st->g->number);
	return FMT_REFUSED;
}

/*
 * A line's "position startpos" or "position fen FEN" (in
 * Fairy-Stockfish's dialect, which an engine reads), then its moves up
 * to --plies' end, one UCI command a line (game or variation): the
 * plain uci format drops a FEN start, which the engine needs.
 */
int
ucipos_ply(void *arg, const struct zh_ply *pl)
{
	struct state *st = arg;
	const struct zh_plysel *sel = &st->o->sel;
	struct zh_pos start;
	char fen[ZH_FENMAX], sfen[ZH_FENMAX];
	size_t n, sn;

	if (pl->ply == 0) {
		zh_pos_start(&start, st->r.v);
		n = zh_fen_write(pl->pos, ZH_FAIRY, fen, sizeof fen);
		sn = zh_fen_write(&start, ZH_FAIRY, sfen, sizeof sfen);
		if (n == sn && memcmp(fen, sfen, n) == 0)
			emit(st, "position startpos", 17);
		else {
			emit(st, "position fen ", 13);
			emit(st, fen, n < sizeof fen ? n : sizeof fen - 1);
		}
		st->moves = false;
	} else if (!sel->start_only && (sel->to < 0 || pl->ply <= sel->to)) {
		if (!st->moves)
			emit(st, " moves", 6);
		st->moves = true;
		emit(st, " ", 1);
		emit(st, pl->move->uci, strlen(pl->move->uci));
	}
	if (pl->last)
		emit(st, "\n", 1);
	return st->fail ? -1 : 0;
}

/* Never called: ucipos_begin refuses a game of two boards. */
int
ucipos_bply(void *st, const struct zh_bply *pl)
{
	(void)pl;
	return ((struct state *)st)->fail ? -1 : 0;
}
