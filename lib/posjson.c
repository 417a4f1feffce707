/*
 * posjson.c - a position as data: its sorted UCI move list and its JSON
 * object (the "position" object of zhkit-json(5), written by zhfen).
 *
 * Keys come in a fixed order (Jansson keeps insertion order), so the
 * output can be compared byte for byte.  To add a member, append it and
 * document it in man/zhfen.1.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "zh_int.h"

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Legal moves of p as UCI strings in byte order: fills 'text' (each move
   NUL-terminated) and 'list'; returns the count. */
static int
sorted_moves(const struct zh_pos *p, char text[][ZH_MOVEMAX], char **list)
{
	struct zh_move moves[ZH_MAXMOVES];
	int i, n = zh_legal_moves(p, moves);

	for (i = 0; i < n; i++) {
		zh_uci_write(p, moves[i], text[i]);
		list[i] = text[i];
	}
	qsort(list, (size_t)n, sizeof list[0], cmp_str);
	return n;
}

size_t
zh_moves_write(const struct zh_pos *p, char *buf, size_t size)
{
	static _Thread_local char text[ZH_MAXMOVES][ZH_MOVEMAX];
	char *list[ZH_MAXMOVES];
	size_t len = 0;
	int i, n = sorted_moves(p, text, list);

	for (i = 0; i < n; i++) {
		size_t k = strlen(list[i]);

		if (i > 0) {
			if (len + 1 < size)
				buf[len] = ' ';
			len++;
		}
		if (len + k < size)
			memcpy(buf + len, list[i], k);
		len += k;
	}
	if (size > 0)
		buf[len < size ? len : size - 1] = '\0';
	return len;
}

/* Set key to a new value; a NULL value (out of memory) fails. */
static int
set(json_t *o, const char *key, json_t *val)
{
	return val == NULL || json_object_set_new(o, key, val) != 0 ? -1 : 0;
}

static json_t *
board_json(const struct zh_pos *p)
{
	const struct zh_variant *v = p->v;
	json_t *ranks = json_array();
	int f, r;

	for (r = v->ranks - 1; ranks != NULL && r >= 0; r--) {
		json_t *row = json_array();

		for (f = 0; row != NULL && f < v->files; f++) {
			unsigned char pc = p->sq[ZH_SQ(f, r)];
			char l[2] = { 0, 0 };

			if (pc == 0) {
				json_array_append_new(row, json_null());
				continue;
			}
			l[0] = zh__type_letter(ZH_TYPE(pc));
			if (ZH_COLOR(pc) == ZH_BLACK)
				l[0] = (char)tolower((unsigned char)l[0]);
			json_array_append_new(row, json_string(l));
		}
		if (row == NULL || json_array_append_new(ranks, row) != 0) {
			json_decref(ranks);
			return NULL;
		}
	}
	return ranks;
}

static json_t *
pockets_json(const struct zh_pos *p)
{
	json_t *o;
	int c, t;

	if (!p->v->drops)
		return json_null();
	if ((o = json_object()) == NULL)
		return NULL;
	for (c = 0; c < 2; c++) {
		json_t *side = json_object();

		for (t = ZH_PAWN; side != NULL && t < ZH_NTYPES; t++) {
			char l[2] = { zh__type_letter(t), 0 };

			if (t == ZH_KING || !(p->v->types & ZH_TYPEBIT(t)))
				continue;
			json_object_set_new(side, l, json_integer(p->pocket[c][t]));
		}
		if (set(o, c == ZH_WHITE ? "white" : "black", side) != 0) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

static json_t *
promoted_json(const struct zh_pos *p)
{
	json_t *a = json_array();
	char sq[4];
	int f, r;

	for (r = p->v->ranks - 1; a != NULL && r >= 0; r--)
		for (f = 0; f < p->v->files; f++)
			if (p->sq[ZH_SQ(f, r)] & ZH_PROMOTED)
				json_array_append_new(a,
				    (zh__square_write(ZH_SQ(f, r), sq), json_string(sq)));
	return a;
}

json_t *
zh_pos_json(const struct zh_pos *p, int d, bool moves)
{
	static const char *const status[] = { "ongoing", "checkmate", "stalemate" };
	char fen[ZH_FENMAX], castle[5] = "-", *q = castle;
	json_t *o = json_object(), *ep;
	const char *e;
	int st;

	if (o == NULL)
		return NULL;
	zh_fen_write(p, d, fen, sizeof fen);
	if (p->castle & ZH_CASTLE_WK)
		*q++ = 'K';
	if (p->castle & ZH_CASTLE_WQ)
		*q++ = 'Q';
	if (p->castle & ZH_CASTLE_BK)
		*q++ = 'k';
	if (p->castle & ZH_CASTLE_BQ)
		*q++ = 'q';
	if (q != castle)
		*q = '\0';
	/* The en passant field as the FEN above writes it. */
	e = strchr(fen, ' ');
	e = e ? strchr(e + 1, ' ') : NULL;
	e = e ? strchr(e + 1, ' ') : NULL;
	ep = e && e[1] != '-' ? json_stringn(e + 1, strcspn(e + 1, " ")) :
	    json_null();
	st = zh_status(p);
	if (set(o, "variant", json_string(p->v->name)) ||
	    set(o, "fen", json_string(fen)) ||
	    set(o, "board", board_json(p)) ||
	    set(o, "pockets", pockets_json(p)) ||
	    set(o, "promoted", promoted_json(p)) ||
	    set(o, "side", json_string(p->side == ZH_WHITE ? "white" : "black")) ||
	    set(o, "castling", json_string(castle)) ||
	    set(o, "ep", ep) ||
	    set(o, "halfmove", json_integer(p->halfmove)) ||
	    set(o, "fullmove", json_integer(p->fullmove)) ||
	    set(o, "in_check", json_boolean(zh_in_check(p))) ||
	    set(o, "legal_moves", json_integer((json_int_t)zh_count_legal(p))) ||
	    set(o, "status", json_string(status[st])))
		goto fail;
	if (moves) {
		static _Thread_local char text[ZH_MAXMOVES][ZH_MOVEMAX];
		char *list[ZH_MAXMOVES];
		json_t *a = json_array();
		int i, n = sorted_moves(p, text, list);

		for (i = 0; a != NULL && i < n; i++)
			json_array_append_new(a, json_string(list[i]));
		if (set(o, "moves", a) != 0)
			goto fail;
	}
	return o;
fail:
	json_decref(o);
	return NULL;
}
