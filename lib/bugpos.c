/*
 * bugpos.c - the positions of a bughouse game as zhreplay writes them
 * (two-board FEN, a half-move with its label, the JSON object, the two
 * diagrams side by side) and a two-board FEN as zhfen writes it.
 *
 * A position is a struct zh_bply of zh_bug_walk (bughouse.c): both
 * boards after a half-move.  Each board is an ordinary position, so
 * each is written by the one-board writers (fenout.c, positions.c,
 * posjson.c); what is here is how the two are joined.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

/* ======================== text ======================== */

bool
zh_bply_match(const struct zh_plysel *s, const struct zh_bply *pl)
{
	struct zh_ply one;

	/* the selection counts half-moves of the game, both boards */
	memset(&one, 0, sizeof one);
	one.ply = pl->index;
	one.last = pl->last;
	return zh_plysel_match(s, &one);
}

size_t
zh_bply_fen(const struct zh_bply *pl, int d, bool epd, char *buf,
    size_t size)
{
	char a[ZH_FENMAX], b[ZH_FENMAX];

	if (epd) {
		zh_epd_write(pl->pos[0], d, a, sizeof a);
		zh_epd_write(pl->pos[1], d, b, sizeof b);
	} else {
		zh_fen_write(pl->pos[0], d, a, sizeof a);
		zh_fen_write(pl->pos[1], d, b, sizeof b);
	}
	return (size_t)snprintf(buf, size, "%s | %s", a, b);
}

size_t
zh_bply_label(const struct zh_bply *pl, char *buf)
{
	const struct zh_bmove *m = pl->move;
	unsigned n;

	if (m == NULL) {
		buf[0] = '\0';
		return 0;
	}
	/* the full-move number before the move: Black's move has already
	   advanced it on the board after */
	n = pl->pos[m->board]->fullmove;
	if (m->side == ZH_BLACK && n > 1)
		n--;
	return (size_t)snprintf(buf, ZH_BLABELMAX, "%u%c", n,
	    m->side == ZH_WHITE ? "AB"[m->board] : "ab"[m->board]);
}

size_t
zh_bply_move(const struct zh_bply *pl, bool san, int d, char *buf,
    size_t size)
{
	char lab[ZH_BLABELMAX], mv[ZH_MOVEMAX];

	if (pl->move == NULL) {
		if (size > 0)
			buf[0] = '\0';
		return 0;
	}
	zh_bply_label(pl, lab);
	if (san)
		zh_san_dialect(pl->move->rm.san, d, mv);
	else
		snprintf(mv, sizeof mv, "%s", pl->move->rm.uci);
	return (size_t)snprintf(buf, size, "%s.%s", lab, mv);
}

/* ======================== JSON ======================== */

/* One board: {"board": "A", "fen", "side", "pockets", "promoted",
 * "in_check"}. */
static void
board_object(struct zh__buf *b, const struct zh_pos *p, int bd, int d)
{
	char fen[ZH_FENMAX], sq[8];
	int f, r;

	zh__json_open(b, '{');
	zh__json_key(b, "board");
	zh__json_ascii(b, bd == ZH_BOARD_B ? "B" : "A");
	zh_fen_write(p, d, fen, sizeof fen);
	zh__json_key(b, "fen");
	zh__json_ascii(b, fen);
	zh__json_key(b, "side");
	zh__json_ascii(b, p->side == ZH_WHITE ? "white" : "black");
	zh__json_key(b, "pockets");	/* zh_ply_json's: those held */
	zh__json_hands(b, p);
	zh__json_key(b, "promoted");
	zh__json_open(b, '[');
	for (r = p->v->ranks - 1; r >= 0; r--)	/* FEN order */
		for (f = 0; f < p->v->files; f++) {
			unsigned char pc = p->sq[ZH_SQ(f, r)];

			if (pc == ZH_OFF || !(pc & ZH_PROMOTED))
				continue;
			zh__square_write(ZH_SQ(f, r), sq);
			zh__json_ascii(b, sq);
		}
	zh__json_close(b, ']');
	zh__json_key(b, "in_check");
	zh__json_bool(b, zh_in_check(p));
	zh__json_close(b, '}');
}

int
zh_bply_json(struct zh_text *out, const struct zh_bply *pl,
    const struct zh_game *g, int d)
{
	char tmp[ZH_FENMAX * 2 + 8];
	struct zh__buf b = ZH_BUF_TEXT(out);
	const struct zh_bmove *m = pl->move;
	const char *site = zh_game_tag(g, "Site");
	int bd;

	zh__json_open(&b, '{');
	if (g->file != NULL) {
		zh__json_key(&b, "file");
		zh__json_strz(&b, g->file);
	}
	zh__json_key(&b, "game");
	zh__json_int(&b, g->number);
	if (g->file != NULL) {
		zh__json_key(&b, "index");
		zh__json_int(&b, g->index);
		if (site != NULL) {
			zh__json_key(&b, "site");
			zh__json_strz(&b, site);
		}
	}
	zh__json_key(&b, "ply");
	zh__json_int(&b, pl->index);
	zh_bply_fen(pl, d, false, tmp, sizeof tmp);
	zh__json_key(&b, "fen");
	zh__json_ascii(&b, tmp);
	zh__json_key(&b, "move");
	if (m == NULL)
		zh__json_null(&b);
	else {
		zh__json_open(&b, '{');
		zh__json_key(&b, "board");
		zh__json_ascii(&b, m->board == ZH_BOARD_B ? "B" : "A");
		zh__json_key(&b, "mover");
		zh__json_ascii(&b, m->side == ZH_WHITE ? "white" : "black");
		zh_bply_label(pl, tmp);
		zh__json_key(&b, "label");
		zh__json_ascii(&b, tmp);
		zh__json_key(&b, "uci");
		zh__json_ascii(&b, m->rm.uci);
		zh_san_dialect(m->rm.san, d, tmp);
		zh__json_key(&b, "san");
		zh__json_ascii(&b, tmp);
		zh__json_close(&b, '}');
	}
	zh__json_key(&b, "boards");
	zh__json_open(&b, '[');
	for (bd = 0; bd < 2; bd++)
		board_object(&b, pl->pos[bd], bd, d);
	zh__json_close(&b, ']');
	if (m != NULL && m->has_clock) {	/* the mover's, as zhpgn's */
		zh__json_key(&b, "clock");
		zh__json_seconds(&b, m->clock);
	}
	zh__json_key(&b, "result");
	zh__json_strz(&b, zh__json_result(g));
	zh__json_close(&b, '}');
	return zh__buf_text(&b, out, NULL);
}

/* ======================== diagrams ======================== */

/* The columns a diagram's line takes on a terminal: a UTF-8 character
 * one, an ANSI colour sequence none. */
static size_t
columns(const char *s, size_t n)
{
	size_t i, w = 0;

	for (i = 0; i < n; i++) {
		if (s[i] == '\033') {
			while (i < n && s[i] != 'm')
				i++;
			continue;
		}
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			w++;
	}
	return w;
}

size_t
zh_bdiagram_write(const struct zh_bply *pl, unsigned flags, char *buf,
    size_t size)
{
	static _Thread_local char d[2][ZH_DIAGMAX];
	const struct zh_bmove *m = pl->move;
	const char *l[2], *e[2];
	size_t len = 0, width = 0, w;
	int bd;

	for (bd = 0; bd < 2; bd++) {
		/* board B turned: partners (White on A, Black on B) sit
		   side by side, as the players see the boards */
		zh_diagram_write(pl->pos[bd], m != NULL && m->board == bd ?
		    &m->rm.move : NULL, bd == ZH_BOARD_B ? flags |
		    ZH_DIAG_TURNED : flags, d[bd], ZH_DIAGMAX);
		l[bd] = d[bd];
	}
	/* board A's widest line, so that B's lines start in one column */
	for (l[0] = d[0]; *l[0] != '\0'; l[0] = *e[0] ? e[0] + 1 : e[0]) {
		e[0] = strchr(l[0], '\n');
		if (e[0] == NULL)
			e[0] = l[0] + strlen(l[0]);
		if ((w = columns(l[0], (size_t)(e[0] - l[0]))) > width)
			width = w;
	}
	l[0] = d[0];
	while (*l[0] != '\0' || *l[1] != '\0') {
		for (bd = 0; bd < 2; bd++)
			if ((e[bd] = strchr(l[bd], '\n')) == NULL)
				e[bd] = l[bd] + strlen(l[bd]);
		w = columns(l[0], (size_t)(e[0] - l[0]));
		len += (size_t)snprintf(len < size ? buf + len : NULL,
		    len < size ? size - len : 0, "%.*s%*s%.*s\n",
		    (int)(e[0] - l[0]), l[0], (int)(width - w + 4), "",
		    (int)(e[1] - l[1]), l[1]);
		for (bd = 0; bd < 2; bd++)
			l[bd] = *e[bd] ? e[bd] + 1 : e[bd];
	}
	if (size > 0 && len >= size)
		buf[size - 1] = '\0';
	return len;
}

/* ======================== zhfen ======================== */

int
zh_bfen_json(struct zh_text *out, const char *file, const char *in, size_t n,
    long line, const struct zh_pos p[2], int from, int d, bool moves,
    const struct zh_error *err)
{
	char fen[ZH_FENMAX * 2 + 8];
	struct zh__buf b = ZH_BUF_TEXT(out);
	int bd;

	if (p == NULL)		/* the error object is the one-board one */
		return zh_fen_json(out, file, in, n, line, NULL, from, d,
		    moves, err);
	zh__fen_json_head(&b, file, in, n, line, true, from);
	zh__json_key(&b, "variant");
	zh__json_ascii(&b, p[0].v->name);
	zh_bfen_write(p, d, fen, sizeof fen);
	zh__json_key(&b, "fen");
	zh__json_ascii(&b, fen);
	zh__json_key(&b, "boards");
	zh__json_open(&b, '[');
	for (bd = 0; bd < 2; bd++) {
		zh__json_open(&b, '{');
		zh__pos_members(&b, &p[bd], d, moves);
		zh__json_close(&b, '}');
	}
	zh__json_close(&b, ']');
	zh__json_close(&b, '}');
	return zh__buf_text(&b, out, NULL);
}
