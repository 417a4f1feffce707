/*
 * posjson.c - a position as data: its sorted UCI move list and its JSON
 * object (the "position" object of zhkit-json(5), written by zhfen).
 *
 * Written with json.c's calls, keys in a fixed order, so that the
 * output can be compared byte for byte.  To add a member, append it to
 * zh__pos_members() and document it in zhkit-json(5).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

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

/* "board": the ranks from the top, a letter or null per square. */
static void
board_json(struct zh__buf *b, const struct zh_pos *p)
{
	const struct zh_variant *v = p->v;
	int f, r;

	zh__json_key(b, "board");
	zh__json_open(b, '[');
	for (r = v->ranks - 1; r >= 0; r--) {
		zh__json_open(b, '[');
		for (f = 0; f < v->files; f++) {
			unsigned char pc = p->sq[ZH_SQ(f, r)];
			char l[2] = { 0, 0 };

			if (pc == 0) {
				zh__json_null(b);
				continue;
			}
			l[0] = zh__type_letter(ZH_TYPE(pc));
			if (ZH_COLOR(pc) == ZH_BLACK)
				l[0] = (char)tolower((unsigned char)l[0]);
			zh__json_ascii(b, l);
		}
		zh__json_close(b, ']');
	}
	zh__json_close(b, ']');
}

void
zh__json_hands(struct zh__buf *b, const struct zh_pos *p)
{
	int c, t;

	zh__json_open(b, '{');
	for (c = 0; c < 2; c++) {
		if (c == ZH_WHITE)
			zh__json_key(b, "white");
		else
			zh__json_key(b, "black");
		zh__json_open(b, '{');
		for (t = ZH_PAWN; t < ZH_NTYPES; t++) {	/* PNBRQ, A, C */
			char l[2] = { zh__type_letter(t), 0 };

			if (t == ZH_KING || p->pocket[c][t] == 0)
				continue;
			zh__json_keyn(b, l, 1);
			zh__json_int(b, p->pocket[c][t]);
		}
		zh__json_close(b, '}');
	}
	zh__json_close(b, '}');
}

/* "pockets": the pieces held, as every tool writes them (none: {}). */
static void
pockets_json(struct zh__buf *b, const struct zh_pos *p)
{
	zh__json_key(b, "pockets");
	zh__json_hands(b, p);
}

static void
promoted_json(struct zh__buf *b, const struct zh_pos *p)
{
	char sq[4];
	int f, r;

	zh__json_key(b, "promoted");
	zh__json_open(b, '[');
	for (r = p->v->ranks - 1; r >= 0; r--)
		for (f = 0; f < p->v->files; f++)
			if (p->sq[ZH_SQ(f, r)] & ZH_PROMOTED) {
				zh__square_write(ZH_SQ(f, r), sq);
				zh__json_ascii(b, sq);
			}
	zh__json_close(b, ']');
}

/* "castling" and "ep" (as the FEN 'fen' writes it). */
static void
rights_json(struct zh__buf *b, const struct zh_pos *p, const char *fen)
{
	char castle[5] = "-", *q = castle;
	const char *e;

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
	zh__json_key(b, "castling");
	zh__json_ascii(b, castle);
	e = strchr(fen, ' ');
	e = e ? strchr(e + 1, ' ') : NULL;
	e = e ? strchr(e + 1, ' ') : NULL;
	zh__json_key(b, "ep");
	if (e && e[1] != '-')
		zh__json_str(b, e + 1, strcspn(e + 1, " "));
	else
		zh__json_null(b);
}

/*
 * The members of p's object (zh_pos_json), appended to b (also per
 * board of a two-board FEN, bugpos.c): variant, fen,
 * board, pockets, promoted, side, castling, ep, halfmove, fullmove,
 * in_check, legal_moves, status and with 'moves' the moves.
 */
void
zh__pos_members(struct zh__buf *b, const struct zh_pos *p, int d, bool moves)
{
	static const char *const status[] = { "ongoing", "checkmate", "stalemate" };
	char fen[ZH_FENMAX];

	zh_fen_write(p, d, fen, sizeof fen);
	zh__json_key(b, "variant");
	zh__json_ascii(b, p->v->name);
	zh__json_key(b, "fen");
	zh__json_ascii(b, fen);
	board_json(b, p);
	pockets_json(b, p);
	promoted_json(b, p);
	zh__json_key(b, "side");
	zh__json_ascii(b, p->side == ZH_WHITE ? "white" : "black");
	rights_json(b, p, fen);
	zh__json_key(b, "halfmove");
	zh__json_int(b, p->halfmove);
	zh__json_key(b, "fullmove");
	zh__json_int(b, p->fullmove);
	zh__json_key(b, "in_check");
	zh__json_bool(b, zh_in_check(p));
	zh__json_key(b, "legal_moves");
	zh__json_int(b, zh_count_legal(p));
	zh__json_key(b, "status");
	zh__json_ascii(b, status[zh_status(p)]);
	if (moves) {
		static _Thread_local char text[ZH_MAXMOVES][ZH_MOVEMAX];
		char *list[ZH_MAXMOVES];
		int i, n = sorted_moves(p, text, list);

		zh__json_key(b, "moves");
		zh__json_open(b, '[');
		for (i = 0; i < n; i++)
			zh__json_ascii(b, list[i]);
		zh__json_close(b, ']');
	}
}

int
zh_pos_json(struct zh_text *out, const struct zh_pos *p, int d, bool moves)
{
	struct zh__buf b = ZH_BUF_TEXT(out);

	zh__json_open(&b, '{');
	zh__pos_members(&b, p, d, moves);
	zh__json_close(&b, '}');
	return zh__buf_text(&b, out, NULL);
}

void
zh__fen_json_head(struct zh__buf *b, const char *file, const char *in,
    size_t n, long line, bool valid, int from)
{
	zh__json_open(b, '{');
	if (file != NULL) {	/* where it came from, as every tool says it */
		zh__json_key(b, "file");
		zh__json_strz(b, file);
	}
	zh__json_key(b, "line");
	zh__json_int(b, line);
	zh__json_key(b, "input");
	zh__json_str(b, in, n);
	zh__json_key(b, "valid");
	zh__json_bool(b, valid);
	if (!valid)
		return;
	zh__json_key(b, "from");
	if (from == ZH_AUTO)
		zh__json_null(b);
	else
		zh__json_ascii(b, zh_dialect_name(from));
}

int
zh_fen_json(struct zh_text *out, const char *file, const char *in, size_t n,
    long line, const struct zh_pos *p, int from, int d, bool moves,
    const struct zh_error *err)
{
	struct zh__buf b = ZH_BUF_TEXT(out);

	zh__fen_json_head(&b, file, in, n, line, p != NULL, from);
	if (p == NULL) {	/* the error object of every tool */
		zh__json_key(&b, "error");
		zh__json_problem(&b, line, err->col, 0, zh__fen_error_code(err),
		    err->text, false);
		zh__json_close(&b, '}');
	} else
		zh__pos_members(&b, p, d, moves);
	zh__json_close(&b, '}');
	return zh__buf_text(&b, out, NULL);
}
