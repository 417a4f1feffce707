/*
 * san.c - moves as text: UCI ("e2e4", "P@e4", "e7e8q") and SAN in every
 * dialect ("Nbd2", "exd6", "e8=Q+", "P@e4" or "@e4", "O-O").
 *
 * The SAN reader is tolerant (any dialect, "0-0", "e8Q", "p@e4", LAN such
 * as "Ng1-f3" and plain UCI), and when a move is not legal it says why.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "zh_int.h"

static const char *const side_name[2] = { "White", "Black" };
static const char *const type_name[ZH_NTYPES] = { "", "pawn", "knight",
    "bishop", "rook", "queen", "king", "archbishop", "chancellor" };

/*
 * Square names by square, for the per-move writers: the name's bytes
 * ("e4" with a NUL, "j10") and its length, 0 off the board.  Built from
 * constant expressions.
 */
struct sqname {
	char c[3];
	unsigned char n;
};
#define SN_F(s)		(((s) & 15) - 1)
#define SN_R(s)		(((s) >> 4) - 2)
#define SN_OK(s)	(SN_F(s) >= 0 && SN_F(s) < ZH_MAXFILES && \
	SN_R(s) >= 0 && SN_R(s) < ZH_MAXRANKS)
#define SN(s)		{ { SN_OK(s) ? 'a' + SN_F(s) : 0, \
	SN_OK(s) ? '1' + SN_R(s) % 9 : 0, SN_OK(s) && SN_R(s) == 9 ? '0' : 0 }, \
	SN_OK(s) ? 2 + (SN_R(s) == 9) : 0 }
#define SN4(s)		SN(s), SN((s) + 1), SN((s) + 2), SN((s) + 3)
#define SN16(s)		SN4(s), SN4((s) + 4), SN4((s) + 8), SN4((s) + 12)
static const struct sqname sqnames[ZH_NSQ] = {
	SN16(0), SN16(16), SN16(32), SN16(48), SN16(64), SN16(80), SN16(96),
	SN16(112), SN16(128), SN16(144), SN16(160), SN16(176), SN16(192),
	SN16(208)
};
_Static_assert(ZH_NSQ == 14 * 16 && ZH_MAXRANKS == 10, "sqnames");

/* Square s's name at q, with up to 4 bytes stored (q must have room);
 * returns its length. */
static inline size_t
put_square(char *q, int s)
{
	memcpy(q, &sqnames[s], 4);
	return sqnames[s].n;
}

size_t
zh_uci_write(const struct zh_pos *p, struct zh_move m, char *buf)
{
	size_t n = 0;

	(void)p;
	if (m.flags & ZH_MNULL) {	/* UCI's null move */
		memcpy(buf, "0000", 5);
		return 4;
	}
	if (m.flags & ZH_MDROP) {	/* 'P' '@' square: 2 + 4 bytes */
		buf[n++] = zh__type_letter(m.piece);
		buf[n++] = '@';
		n += put_square(buf + n, m.to);
		buf[n] = '\0';
		return n;
	}
	n += put_square(buf, m.from);		/* at most 3 + 4 bytes */
	n += put_square(buf + n, m.to);
	if (m.flags & ZH_MPROMO)
		buf[n++] = (char)tolower((unsigned char)zh__type_letter(m.piece));
	buf[n] = '\0';
	return n;
}

size_t
zh_san_write(const struct zh_pos *p, struct zh_move m, int d, char *buf)
{
	struct zh_pos next = *p;
	size_t n = zh__san_body(p, m, d, buf);

	zh_make(&next, m);
	if (zh_in_check(&next))
		buf[n++] = zh__mate_in_check(&next) ? '#' : '+';
	buf[n] = '\0';
	return n;
}

size_t
zh__san_body(const struct zh_pos *p, struct zh_move m, int d, char *buf)
{
	return zh__san_body_n(p, m, d, buf, -1);
}

size_t
zh__san_body_n(const struct zh_pos *p, struct zh_move m, int d, char *buf,
    int ncand)
{
	struct zh_move list[ZH_MAXMOVES];
	size_t n = 0;
	int type;

	if (m.flags & ZH_MNULL) {
		const char *z = zh__null_san(d);

		n = strlen(z);
		memcpy(buf, z, n + 1);
		return n;
	}
	if (m.flags & ZH_MDROP) {
		if (m.piece != ZH_PAWN || zh__dialect(d, ZH_SAN_AUTO)->pawn_letter)
			buf[n++] = zh__type_letter(m.piece);
		buf[n++] = '@';
		n += put_square(buf + n, m.to);
	} else if (m.flags & ZH_MCASTLE) {
		strcpy(buf, ZH_FILE(m.to) > ZH_FILE(m.from) ? "O-O" : "O-O-O");
		n = strlen(buf);
	} else if ((type = ZH_TYPE(p->sq[m.from])) == ZH_PAWN) {
		if (ZH_FILE(m.from) != ZH_FILE(m.to)) {
			buf[n++] = (char)('a' + ZH_FILE(m.from));
			buf[n++] = 'x';
		}
		n += put_square(buf + n, m.to);
		if (m.flags & ZH_MPROMO) {
			buf[n++] = '=';
			buf[n++] = zh__type_letter(m.piece);
		}
	} else {
		int i, cnt, same_file = 0, same_rank = 0, others = 0;

		buf[n++] = zh__type_letter(type);
		/* Only a second piece of the type can make it ambiguous. */
		cnt = p->count[p->side][type] > 1 && ncand != 1 ?
		    zh__moves_to(p, type, m.to, list) : 0;
		for (i = 0; i < cnt; i++) {
			const struct zh_move *o = &list[i];

			if (o->from == m.from)
				continue;
			others++;
			same_file += ZH_FILE(o->from) == ZH_FILE(m.from);
			same_rank += ZH_RANK(o->from) == ZH_RANK(m.from);
		}
		if (others > 0) {
			if (same_file == 0)
				buf[n++] = (char)('a' + ZH_FILE(m.from));
			else if (same_rank == 0)
				n += (size_t)sprintf(buf + n, "%d",
				    ZH_RANK(m.from) + 1);
			else
				n += put_square(buf + n, m.from);
		}
		if (p->sq[m.to] != 0)
			buf[n++] = 'x';
		n += put_square(buf + n, m.to);
	}
	buf[n] = '\0';
	return n;
}

/* ======================== reading ======================== */

/* A square at s[0..] of length 2 or 3 within the board; -1 if not. */
static int
parse_square(const struct zh_pos *p, const char *s, size_t n)
{
	int f, r;

	if (n < 2 || n > 3 || s[0] < 'a' || s[0] >= 'a' + p->v->files ||
	    !isdigit((unsigned char)s[1]) || s[1] == '0')
		return -1;
	r = s[1] - '0';
	if (n == 3) {
		if (!isdigit((unsigned char)s[2]))
			return -1;
		r = r * 10 + (s[2] - '0');
	}
	if (r < 1 || r > p->v->ranks)
		return -1;
	f = s[0] - 'a';
	return ZH_SQ(f, r - 1);
}

static void
pocket_string(const struct zh_pos *p, int c, char *buf)
{
	static const unsigned char order[] = { ZH_QUEEN, ZH_CHANCELLOR,
	    ZH_ARCHBISHOP, ZH_ROOK, ZH_BISHOP, ZH_KNIGHT, ZH_PAWN };
	size_t i, n = 0;
	int k;

	for (i = 0; i < sizeof order; i++)
		for (k = 0; k < p->pocket[c][order[i]] && n < 40; k++)
			buf[n++] = zh__type_letter(order[i]);
	if (n == 0)
		buf[n++] = '-';
	buf[n] = '\0';
}

/* "1st" .. "16th" (ranks): constant strings, safe on every thread. */
static const char *
ordinal(int n)
{
	static const char *const ord[] = { "0th", "1st", "2nd", "3rd",
	    "4th", "5th", "6th", "7th", "8th", "9th", "10th", "11th", "12th",
	    "13th", "14th", "15th", "16th" };

	return n >= 0 && n < (int)(sizeof ord / sizeof ord[0]) ? ord[n] :
	    "last";
}

static int
read_drop(const struct zh_pos *p, int type, int to, const char *tok,
    struct zh_move *m, struct zh_error *err)
{
	struct zh_move cand = { ZH_NOSQ, (unsigned char)to, (unsigned char)type,
	    ZH_MDROP };
	int us = p->side;
	char pocket[48];

	if (!p->v->drops) {
		zh_error_set(err, ZH_EILLEGAL, 1,
		    "'%s' is a drop, and %s has no drops", tok, p->v->name);
		return -1;
	}
	if (type == ZH_KING || !(p->v->types & ZH_TYPEBIT(type))) {
		zh_error_set(err, ZH_EILLEGAL, 1,
		    "illegal drop '%s': a %s cannot be dropped", tok,
		    type_name[type]);
		return -1;
	}
	if (p->pocket[us][type] == 0) {
		/* bughouse's word: the pieces come from the partner */
		const char *hand = p->v->boards >= 2 ? "holdings" : "pocket";

		pocket_string(p, us, pocket);
		zh_error_set(err, ZH_EILLEGAL, 1,
		    "illegal drop '%s': no %s in %s's %s (%s: %s)", tok,
		    type_name[type], side_name[us], hand, hand, pocket);
		return -1;
	}
	if (p->sq[to] != 0) {
		char sq[4];

		zh__square_write(to, sq);
		zh_error_set(err, ZH_EILLEGAL, 1,
		    "illegal drop '%s': %s is occupied by a %s %s", tok, sq,
		    ZH_COLOR(p->sq[to]) == ZH_WHITE ? "white" : "black",
		    type_name[ZH_TYPE(p->sq[to])]);
		return -1;
	}
	if (type == ZH_PAWN) {
		int rel = us == ZH_WHITE ? ZH_RANK(to) :
		    p->v->ranks - 1 - ZH_RANK(to);

		if (rel < p->v->pawn_drop_lo || rel > p->v->pawn_drop_hi) {
			zh_error_set(err, ZH_EILLEGAL, 1,
			    "illegal drop '%s': pawn drop on the %s rank is "
			    "not allowed in %s", tok, ordinal(ZH_RANK(to) + 1),
			    p->v->name);
			return -1;
		}
	}
	if (!zh__drop_ok(p, type, to)) {
		zh_error_set(err, ZH_EILLEGAL, 1,
		    "illegal drop '%s': %s is in check and the drop does not "
		    "block it", tok, side_name[us]);
		return -1;
	}
	*m = cand;
	return 0;
}

int
zh_uci_read(const struct zh_pos *p, const char *s, size_t n,
    struct zh_move *m, struct zh_error *err)
{
	struct zh_move list[ZH_MAXMOVES];
	char tok[32];
	int from, to, promo = 0, i, cnt;
	size_t k;

	if (n == 0 || n >= sizeof tok) {
		zh_error_set(err, ZH_ESYNTAX, 1, "not a UCI move");
		return -1;
	}
	memcpy(tok, s, n);
	tok[n] = '\0';
	if (n >= 4 && tok[1] == '@') {
		int t = zh__letter_type(tok[0]);

		to = parse_square(p, tok + 2, n - 2);
		if (t == ZH_EMPTY || to < 0) {
			zh_error_set(err, ZH_ESYNTAX, 1,
			    "'%s' is not a UCI move", tok);
			return -1;
		}
		return read_drop(p, t, to, tok, m, err);
	}
	for (k = 2; k < n && isdigit((unsigned char)tok[k]); k++)
		;
	from = parse_square(p, tok, k);
	i = (int)k;
	for (k = (size_t)i + 1; k < n && isdigit((unsigned char)tok[k]); k++)
		;
	to = parse_square(p, tok + i, k - (size_t)i);
	if (k + 1 == n)
		promo = zh__letter_type(tok[k]);
	if (from < 0 || to < 0 || (k != n && promo == ZH_EMPTY) || k + 1 < n) {
		zh_error_set(err, ZH_ESYNTAX, 1, "'%s' is not a UCI move", tok);
		return -1;
	}
	cnt = p->sq[from] == 0 ? 0 : zh__moves_to(p, ZH_TYPE(p->sq[from]), to, list);
	for (i = 0; i < cnt; i++)
		if (!(list[i].flags & ZH_MDROP) && list[i].from == from &&
		    list[i].to == to && list[i].piece == promo) {
			*m = list[i];
			return 0;
		}
	zh_error_set(err, ZH_EILLEGAL, 1, "illegal move '%s'", tok);
	return -1;
}

static int
castle_token(const char *t)
{
	char b[16];
	size_t i, n = 0;

	for (i = 0; t[i] && n < sizeof b - 1; i++)
		b[n++] = t[i] == '0' || t[i] == 'o' ? 'O' : t[i];
	b[n] = '\0';
	if (strcmp(b, "O-O") == 0)
		return 1;
	if (strcmp(b, "O-O-O") == 0)
		return 2;
	return 0;
}

/* Why the side to move cannot castle (king side if 'kside'). */
static void
castle_why(const struct zh_pos *p, bool kside, char *buf, size_t size)
{
	int us = p->side, r = us == ZH_WHITE ? 0 : p->v->ranks - 1, f;
	unsigned right = us == ZH_WHITE ? (kside ? ZH_CASTLE_WK : ZH_CASTLE_WQ) :
	    (kside ? ZH_CASTLE_BK : ZH_CASTLE_BQ);
	int rook = ZH_SQ(kside ? 7 : 0, r);
	char sq[4];

	if (!p->v->castling) {
		snprintf(buf, size, "there is no castling in %s", p->v->name);
		return;
	}
	if (!(p->castle & right) || p->king[us] != ZH_SQ(4, r) ||
	    (p->sq[rook] & ~ZH_PROMOTED) != ZH_PIECE(us, ZH_ROOK)) {
		zh__square_write(rook, sq);
		snprintf(buf, size, "%s has lost the right to castle %s: its "
		    "king or the %s rook has moved or been captured (a rook "
		    "dropped there does not restore it)", side_name[us],
		    kside ? "kingside" : "queenside", sq);
		return;
	}
	if (zh_in_check(p)) {
		snprintf(buf, size, "%s's king is in check", side_name[us]);
		return;
	}
	for (f = kside ? 5 : 1; f <= (kside ? 6 : 3); f++)
		if (p->sq[ZH_SQ(f, r)] != 0) {
			zh__square_write(ZH_SQ(f, r), sq);
			snprintf(buf, size, "%s is occupied", sq);
			return;
		}
	for (f = kside ? 5 : 3; kside ? f <= 6 : f >= 2; f += kside ? 1 : -1)
		if (zh_attacked(p, ZH_SQ(f, r), !us)) {
			zh__square_write(ZH_SQ(f, r), sq);
			snprintf(buf, size, "the king %s %s, which %s attacks",
			    f == (kside ? 6 : 2) ? "would land on" :
			    "passes through", sq, side_name[!us]);
			return;
		}
	snprintf(buf, size, "castling is not possible here");
}

/*
 * The common shapes, read without copying: "Nf3", "Nxf3", "e4", "exd5",
 * "N@f3", "@e4", "P@e4" (one-digit ranks, optional '+'/'#').  Returns 1
 * with *m set when the SAN names exactly one legal move that needs no
 * promotion choice, else 0: the general reader then decides, and gives
 * the reasons.
 */
static ZH_HOT_INLINE int
fast_read(const struct zh_pos *p, const char *s, size_t n, struct zh_move *m,
    int *ncand)
{
	struct zh_move list[64];
	int type = ZH_PAWN, to, dfile = -1, cnt, i, found = -1;
	size_t k = 0;

	while (n > 0 && (s[n - 1] == '+' || s[n - 1] == '#'))
		n--;
	if (n < 2 || n > 5)
		return 0;
	/* target square: the last two characters */
	if (s[n - 2] < 'a' || s[n - 2] >= 'a' + p->v->files ||
	    s[n - 1] < '1' || s[n - 1] > '9' || s[n - 1] - '0' > p->v->ranks)
		return 0;
	to = ZH_SQ(s[n - 2] - 'a', s[n - 1] - '1');
	if (n >= 3 && s[n - 3] == '@') {	/* a drop */
		if (n == 4) {
			type = zh__letter_type(s[0]);
			if (type == ZH_EMPTY || type == ZH_KING)
				return 0;
		} else if (n != 3)
			return 0;
		if (!zh__drop_ok(p, type, to))
			return 0;
		m->from = ZH_NOSQ;
		m->to = (unsigned char)to;
		m->piece = (unsigned char)type;
		m->flags = ZH_MDROP;
		*ncand = 0;
		return 1;
	}
	if (s[0] >= 'A' && s[0] <= 'Z') {
		type = zh__letter_type(s[0]);
		if (type == ZH_EMPTY || type == ZH_PAWN ||
		    !(p->v->types & ZH_TYPEBIT(type)))
			return 0;
		k = 1;
	} else if (n >= 4 && s[0] >= 'a' && s[0] < 'a' + p->v->files &&
	    s[1] == 'x') {
		dfile = s[0] - 'a';	/* "exd5" */
		k = 1;
	}
	if (k < n - 2 && s[k] == 'x')
		k++;
	if (k != n - 2)
		return 0;	/* disambiguation, promotion, LAN: general reader */
	cnt = zh__moves_to(p, type, to, list);
	for (i = 0; i < cnt; i++) {
		if (list[i].piece != 0 ||
		    (dfile >= 0 && ZH_FILE(list[i].from) != dfile))
			continue;
		if (found >= 0)
			return 0;	/* ambiguous: let the general reader say so */
		found = i;
	}
	if (found < 0)
		return 0;
	*m = list[found];
	*ncand = cnt;
	return 1;
}

int
zh__san_read_n(const struct zh_pos *p, const char *s, size_t n,
    struct zh_move *m, struct zh_error *err, int *ncand)
{
	*ncand = -1;
	if (fast_read(p, s, n, m, ncand))
		return 0;
	return zh_san_read(p, s, n, m, err);
}

/* A SAN token taken apart by zh_san_read's steps. */
struct sanread {
	char tok[32];		/* the token as given */
	char core[32];		/* without check marks, glyphs, "e.p." */
	size_t e;		/* strlen(core) */
	int type, to, promo, dfile, drank;
	bool letter;		/* a piece letter was written */
};

/* The token and its core; 0, or -1 with err set (not a move, null). */
static int
san_core(struct sanread *t, const char *s, size_t n, struct zh_error *err)
{
	size_t e;

	if (n == 0 || n >= sizeof t->tok) {
		zh_error_set(err, ZH_ESYNTAX, 1, "'%.*s' is not a move",
		    (int)(n > 20 ? 20 : n), s);
		return -1;
	}
	memcpy(t->tok, s, n);
	t->tok[n] = '\0';
	/* Strip check marks, annotation glyphs and "e.p.". */
	e = n;
	if (e > 4 && strcmp(t->tok + e - 4, "e.p.") == 0)
		e -= 4;
	while (e > 0 && strchr("+#!?", t->tok[e - 1]) != NULL)
		e--;
	memcpy(t->core, t->tok, e);
	t->core[e] = '\0';
	t->e = e;
	if (e == 0) {
		zh_error_set(err, ZH_ESYNTAX, 1, "'%s' is not a move", t->tok);
		return -1;
	}
	return 0;
}

/*
 * The null move in any of its spellings: "--" (PGN as python-chess and
 * ChessBase write it), "Z0" (ChessBase), "@@@@" (XBoard's engine
 * protocol), "0000" (UCI).  Not while in check: the king would be taken.
 */
static int
san_null(const struct zh_pos *p, const struct sanread *t, struct zh_move *m,
    struct zh_error *err)
{
	static const struct zh_move null = { ZH_NOSQ, ZH_NOSQ, 0, ZH_MNULL };

	if (zh_in_check(p)) {
		zh_error_set(err, ZH_EILLEGAL, 1, "illegal null move '%s': "
		    "%s is in check", t->tok, p->side == ZH_WHITE ? "White" :
		    "Black");
		return -1;
	}
	*m = null;
	return 0;
}

static inline bool
is_null(const char *s)
{
	switch (s[0]) {	/* no other move starts with '-' or 'Z' */
	case '-':
		return strcmp(s, "--") == 0;
	case 'Z':
		return strcmp(s, "Z0") == 0;
	case '@':
		return strcmp(s, "@@@@") == 0;
	case '0':
		return strcmp(s, "0000") == 0;
	default:
		return false;
	}
}

/* Castling, "O-O" or "O-O-O" in any spelling: 0 or -1 with the reason. */
static int
san_castle(const struct zh_pos *p, const struct sanread *t, int c,
    struct zh_move *m, struct zh_error *err)
{
	char why[160];

	if (zh__castle_move(p, c == 1, m))
		return 0;
	castle_why(p, c == 1, why, sizeof why);
	zh_error_set(err, ZH_EILLEGAL, 1, "illegal castling '%s': %s", t->tok,
	    why);
	return -1;
}

/* A drop, "N@f3", "@e4", "P@e4", "p@e4" ('at' in t->core). */
static int
san_drop(const struct zh_pos *p, const struct sanread *t, const char *at,
    struct zh_move *m, struct zh_error *err)
{
	int type = ZH_PAWN, to;

	if (at - t->core == 1)
		type = zh__letter_type(t->core[0]);
	else if (at != t->core)
		type = ZH_EMPTY;
	to = parse_square(p, at + 1, strlen(at + 1));
	if (type == ZH_EMPTY || to < 0) {
		zh_error_set(err, ZH_ESYNTAX, 1, "'%s' is not a drop", t->tok);
		return -1;
	}
	return read_drop(p, type, to, t->tok, m, err);
}

/* The promotion at the end ("=Q", "Q", "q" as UCI writes it, "(Q)"):
 * t->promo set and the core cut before it. */
static void
san_promo(struct sanread *t)
{
	char *core = t->core;
	size_t k = t->e;

	if (k >= 4 && core[k - 1] == ')' && core[k - 3] == '(')
		k -= 1;
	if (k >= 3 && isalpha((unsigned char)core[k - 1]) &&
	    !(core[k - 1] >= 'a' && core[k - 1] <= 'j' &&
	    !isdigit((unsigned char)core[k - 2]))) {
		int type = zh__letter_type(core[k - 1]);

		if (type != ZH_EMPTY && type != ZH_PAWN &&
		    isdigit((unsigned char)core[k - 2])) {
			t->promo = type;
			k--;
		} else if (type != ZH_EMPTY && type != ZH_PAWN &&
		    (core[k - 2] == '=' || core[k - 2] == '(')) {
			t->promo = type;
			k -= 2;
		}
	}
	core[k] = '\0';
	t->e = k;
}

/*
 * The target square (the last letter and digits), then the piece letter
 * and what stands before the square: a file, a rank or both (a LAN or
 * UCI origin), 'x', '-', ':'.  0, or -1 with err set.
 */
static int
san_squares(const struct zh_pos *p, struct sanread *t, struct zh_error *err)
{
	const char *core = t->core;
	size_t k = t->e, st;

	for (st = k; st > 0 && isdigit((unsigned char)core[st - 1]); st--)
		;
	if (st == 0 || st == k) {
		zh_error_set(err, ZH_ESYNTAX, 1, "'%s' is not a move", t->tok);
		return -1;
	}
	st--;
	t->to = parse_square(p, core + st, k - st);
	if (t->to < 0) {
		zh_error_set(err, ZH_ESYNTAX, 1,
		    "'%s' is not a move: no square '%.*s' on this board", t->tok,
		    (int)(k - st), core + st);
		return -1;
	}
	k = 0;
	if (isupper((unsigned char)core[0]) &&
	    zh__letter_type(core[0]) != ZH_EMPTY) {
		t->type = zh__letter_type(core[0]);
		k = 1;
	}
	t->letter = k == 1;
	for (; k < st; k++) {
		char ch = core[k];

		if (ch == 'x' || ch == '-' || ch == ':')
			continue;
		if (ch >= 'a' && ch < 'a' + p->v->files && t->dfile < 0) {
			t->dfile = ch - 'a';
			continue;
		}
		if (isdigit((unsigned char)ch) && t->drank < 0) {
			t->drank = ch - '0';
			if (k + 1 < st && isdigit((unsigned char)core[k + 1]))
				t->drank = t->drank * 10 + (core[++k] - '0');
			t->drank--;
			if (t->drank < 0 || t->drank >= p->v->ranks)
				break;
			continue;
		}
		break;
	}
	if (k < st) {
		zh_error_set(err, ZH_ESYNTAX, 1, "'%s' is not a move", t->tok);
		return -1;
	}
	if (!t->letter && t->dfile >= 0 && t->drank >= 0) {	/* UCI, LAN */
		unsigned char pc = p->sq[ZH_SQ(t->dfile, t->drank)];

		if (pc != 0 && pc != ZH_OFF && ZH_COLOR(pc) == p->side)
			t->type = ZH_TYPE(pc);
	}
	if (!(p->v->types & ZH_TYPEBIT(t->type))) {
		zh_error_set(err, ZH_ESYNTAX, 1, "'%s': there is no %s in %s",
		    t->tok, type_name[t->type], p->v->name);
		return -1;
	}
	return 0;
}

/* Does legal move o fit what t says (piece, origin, promotion)? */
static bool
san_fits(const struct zh_pos *p, const struct sanread *t,
    const struct zh_move *o)
{
	return !(o->flags & ZH_MDROP) && o->to == t->to &&
	    ZH_TYPE(p->sq[o->from]) == t->type &&
	    (t->dfile < 0 || ZH_FILE(o->from) == t->dfile) &&
	    (t->drank < 0 || ZH_RANK(o->from) == t->drank) &&
	    o->piece == t->promo;
}

/* Several legal moves fit: say which pieces (of those that can go). */
static void
san_ambiguous(const struct zh_pos *p, const struct sanread *t,
    const struct zh_move *list, int cnt, struct zh_error *err)
{
	char where[64] = "";
	size_t w = 0;
	int i;

	for (i = 0; i < cnt && w + 8 < sizeof where; i++) {
		const struct zh_move *o = &list[i];

		if ((o->flags & ZH_MDROP) || o->to != t->to ||
		    ZH_TYPE(p->sq[o->from]) != t->type || o->piece != t->promo)
			continue;
		if (w > 0)
			w += (size_t)sprintf(where + w, " and ");
		w += zh__square_write(o->from, where + w);
	}
	zh_error_set(err, ZH_EAMBIG, 1,
	    "'%s' is ambiguous: %ss on %s can move there", t->tok,
	    type_name[t->type], where);
}

/*
 * The side to move's pieces that t could name and that reach t->to by
 * their movement alone; *promo_issue set when one of them has a legal
 * move there (so only the promotion part is wrong).
 */
static int
san_reach(const struct zh_pos *p, const struct sanread *t,
    const struct zh_move *list, int cnt, bool *promo_issue)
{
	int r, f, c, reach = 0;

	for (r = 0; r < p->v->ranks; r++)
		for (f = 0; f < p->v->files; f++) {
			int s2 = ZH_SQ(f, r);
			unsigned char pc = p->sq[s2];

			if (pc == 0 || ZH_COLOR(pc) != p->side ||
			    ZH_TYPE(pc) != t->type ||
			    (t->dfile >= 0 && f != t->dfile) ||
			    (t->drank >= 0 && r != t->drank) ||
			    !zh__reaches(p, s2, t->to))
				continue;
			reach++;
			for (c = 0; c < cnt; c++)
				if (list[c].from == s2 && list[c].to == t->to &&
				    !(list[c].flags & ZH_MDROP))
					*promo_issue = true;
		}
	return reach;
}

/* A LAN or UCI origin that holds no piece of the side to move: 1 with
 * the reason set, else 0. */
static int
san_origin_why(const struct zh_pos *p, const struct sanread *t,
    struct zh_error *err)
{
	unsigned char pc;
	char from[4];

	if (t->letter || t->dfile < 0 || t->drank < 0)
		return 0;
	pc = p->sq[ZH_SQ(t->dfile, t->drank)];
	zh__square_write(ZH_SQ(t->dfile, t->drank), from);
	if (pc == 0) {
		zh_error_set(err, ZH_EILLEGAL, 1,
		    "illegal move '%s': there is no piece on %s", t->tok, from);
		return 1;
	}
	if (ZH_COLOR(pc) != p->side) {
		zh_error_set(err, ZH_EILLEGAL, 1,
		    "illegal move '%s': the %s on %s is %s's, and it is %s's "
		    "move", t->tok, type_name[ZH_TYPE(pc)], from,
		    side_name[!p->side], side_name[p->side]);
		return 1;
	}
	return 0;
}

/* What is wrong with a promotion that the pawn's move there needs. */
static void
san_promo_why(const struct zh_pos *p, const struct sanread *t, int rel,
    struct zh_error *err)
{
	const char *tok = t->tok;
	int promo = t->promo;

	if (promo == 0)
		zh_error_set(err, ZH_EILLEGAL, 1,
		    "illegal move '%s': a pawn that reaches the %s rank "
		    "must promote: add the piece, as in '%s=Q'", tok,
		    ordinal(ZH_RANK(t->to) + 1), tok);
	else if (rel < p->v->promo_lo)
		zh_error_set(err, ZH_EILLEGAL, 1,
		    "illegal move '%s': a pawn cannot promote on the %s "
		    "rank", tok, ordinal(ZH_RANK(t->to) + 1));
	else if (!(p->v->promo_types & ZH_TYPEBIT(promo)))
		zh_error_set(err, ZH_EILLEGAL, 1,
		    "illegal move '%s': a pawn cannot promote to a %s in "
		    "%s", tok, type_name[promo], p->v->name);
	else if (p->v->promo_limited)
		zh_error_set(err, ZH_EILLEGAL, 1,
		    "illegal move '%s': %s has lost no %s; in %s a pawn "
		    "promotes only to a piece type its side has fewer of "
		    "than at the start", tok, side_name[p->side],
		    type_name[promo], p->v->name);
	else
		zh_error_set(err, ZH_EILLEGAL, 1,
		    "illegal move '%s': the pawn cannot promote to that "
		    "piece here", tok);
}

/* No legal move fits t: say why, from a piece that could get there by
 * its movement (list: the legal moves of t's type to t->to). */
static void
san_why(const struct zh_pos *p, const struct sanread *t,
    const struct zh_move *list, int cnt, struct zh_error *err)
{
	const char *tok = t->tok;
	bool promo_issue = false;
	int reach = san_reach(p, t, list, cnt, &promo_issue), rel;
	char sq[4];

	zh__square_write(t->to, sq);
	rel = p->side == ZH_WHITE ? ZH_RANK(t->to) :
	    p->v->ranks - 1 - ZH_RANK(t->to);
	if (san_origin_why(p, t, err))
		return;
	if (promo_issue)
		san_promo_why(p, t, rel, err);
	else if (reach > 0 && t->type == ZH_PAWN && t->promo == 0 &&
	    rel == p->v->ranks - 1 && p->v->promo_limited)
		zh_error_set(err, ZH_EILLEGAL, 1,
		    "illegal move '%s': %s has lost no piece to promote "
		    "to, so the pawn cannot go to the last rank", tok,
		    side_name[p->side]);
	else if (reach > 0 && zh_in_check(p))
		zh_error_set(err, ZH_EILLEGAL, 1,
		    "illegal move '%s': %s's king is in check, and the "
		    "move does not get it out of check", tok,
		    side_name[p->side]);
	else if (reach > 0)
		zh_error_set(err, ZH_EILLEGAL, 1,
		    "illegal move '%s': it would leave %s's king in check",
		    tok, side_name[p->side]);
	else if (t->type == ZH_PAWN && ZH_FILE(t->to) != t->dfile &&
	    t->dfile >= 0 && p->sq[t->to] == 0)
		zh_error_set(err, ZH_EILLEGAL, 1,
		    "illegal move '%s': there is nothing to capture on %s%s",
		    tok, sq, p->ep == t->to ? "" : ", and no en passant: "
		    "the last move was not a pawn's double step over it");
	else
		zh_error_set(err, ZH_EILLEGAL, 1,
		    "illegal move '%s': no %s of %s can move to %s", tok,
		    type_name[t->type], side_name[p->side], sq);
}

int
zh_san_read(const struct zh_pos *p, const char *s, size_t n,
    struct zh_move *m, struct zh_error *err)
{
	struct zh_move list[ZH_MAXMOVES], found = { 0, 0, 0, 0 };
	struct sanread t = { .type = ZH_PAWN, .dfile = -1, .drank = -1 };
	int i, cnt, nmatch = 0, c;
	char *at;

	if (fast_read(p, s, n, m, &c))
		return 0;
	if (san_core(&t, s, n, err) != 0)
		return -1;
	if (is_null(t.core))
		return san_null(p, &t, m, err);
	if ((c = castle_token(t.core)) != 0)
		return san_castle(p, &t, c, m, err);
	if ((at = strchr(t.core, '@')) != NULL)
		return san_drop(p, &t, at, m, err);
	san_promo(&t);
	if (san_squares(p, &t, err) != 0)
		return -1;
	/* UCI castling written as the king's move ("e1g1") is found here. */
	cnt = zh__moves_to(p, t.type, t.to, list);
	for (i = 0; i < cnt; i++)
		if (san_fits(p, &t, &list[i]) && nmatch++ == 0)
			found = list[i];
	if (nmatch == 1) {
		*m = found;
		return 0;
	}
	if (nmatch > 1)
		san_ambiguous(p, &t, list, cnt, err);
	else
		san_why(p, &t, list, cnt, err);
	return -1;
}
