/*
 * board.c - zhkit.Board: a position of any variant, or the two boards
 * of a bughouse game, with libzh's rules: legal moves (UCI, SAN), moves
 * played and taken back (SAN of any dialect or UCI), FEN in a dialect,
 * check, outcome, pockets, repetitions.  A capture on one bughouse
 * board goes to the partner's holdings on the other, as lib/bughouse.c
 * sends it (a promoted piece as a pawn where the variant demotes).
 */
#include "zhkit_py.h"
#include <stdlib.h>
#include <string.h>

#include "zh.h"

/* A position of the stack: both boards (one used for one board), the
   move that led to it (st[0]'s: none) and, for CrazyAra's planes, the
   plies since a capture or pawn move as python-chess counts them (a
   drop is neither: zhreplay -F planes counts so too). */
struct frame {
	struct zh_pos pos[2];
	struct zh_move move;
	unsigned clock;
};

typedef struct {
	PyObject_HEAD
	const struct zh_variant *v;
	int nboards;		/* 1, or 2 (bughouse) */
	int dialect;		/* of fen() and SAN: the FEN's, or lichess;
				   DIALECT_LATER: found in fen_text when
				   first needed (a FEN's dialect costs as
				   much as the moves of most positions) */
	PyObject *fen_text;	/* the FEN given (a str), until then */
	struct frame *st;	/* st[0] the start ... st[n] now: first
				   'one', in the object (no malloc for a
				   board that is not pushed on) */
	size_t n, cap;
	struct frame one;
} board;

static struct zh_pos *
cur(board *o, int b)
{
	return &o->st[o->n].pos[b];
}

/* The board argument: None, 0/1 or "A"/"B"; -1 with an exception. */
static int
board_arg(board *o, PyObject *a)
{
	long k;

	if (a == NULL || a == Py_None)
		return 0;
	if (PyUnicode_Check(a)) {
		const char *s = PyUnicode_AsUTF8(a);

		if (s != NULL && (strcmp(s, "A") == 0 || strcmp(s, "a") == 0))
			k = 0;
		else if (s != NULL && (strcmp(s, "B") == 0 ||
		    strcmp(s, "b") == 0))
			k = 1;
		else {
			PyErr_SetString(PyExc_ValueError,
			    "board must be 'A' or 'B'");
			return -1;
		}
	} else if (PyLong_Check(a) && !PyBool_Check(a)) {
		k = PyLong_AsLong(a);
	} else {
		PyErr_SetString(PyExc_TypeError, "board must be 0, 1, 'A' or "
		    "'B'");
		return -1;
	}
	if (k < 0 || k >= o->nboards) {
		PyErr_SetString(PyExc_ValueError, o->nboards == 1 ? "one board:"
		    " board must be 0 or 'A'" : "board must be 0, 1, 'A' or "
		    "'B'");
		return -1;
	}
	return (int)k;
}

static int zh_fen_dialect_of(const char *s, const struct zh_variant *v);

#define DIALECT_LATER	(-100)

/* The board's own dialect: the FEN's (found now if not yet), or
   lichess. */
static int
own_dialect(board *o)
{
	int d;

	if (o->dialect == DIALECT_LATER) {
		const char *t = PyUnicode_AsUTF8(o->fen_text);

		d = t != NULL ? zh_fen_dialect_of(t, o->v) : ZH_AUTO;
		PyErr_Clear();
		o->dialect = d > ZH_AUTO ? d : ZH_LICHESS;
		Py_CLEAR(o->fen_text);
	}
	return o->dialect;
}

static int
dialect_arg(board *o, const char *s)
{
	int d;

	if (s == NULL)
		return own_dialect(o);
	if ((d = zh_dialect_find(s)) <= ZH_AUTO) {
		PyErr_Format(PyExc_ValueError, "unknown dialect '%s' (try "
		    "lichess, xboard, chesscom, fairy)", s);
		return -1;
	}
	return d;
}

/* The dialect FEN s (of one board, or the first of two) is written
   in, ZH_AUTO if nothing tells. */
static int
zh_fen_dialect_of(const char *s, const struct zh_variant *v)
{
	const char *bar = strchr(s, '|');
	char one[ZH_FENMAX];
	size_t n;

	if (bar == NULL)
		return zh_fen_dialect(s, v);
	n = (size_t)(bar - s) < sizeof one - 1 ? (size_t)(bar - s) :
	    sizeof one - 1;
	memcpy(one, s, n);
	while (n > 0 && one[n - 1] == ' ')
		n--;
	one[n] = '\0';
	return zh_fen_dialect(one, v);
}

static void
board_dealloc(PyObject *self)
{
	board *o = (board *)self;

	if (o->st != &o->one)
		free(o->st);
	Py_XDECREF(o->fen_text);
	Py_TYPE(self)->tp_free(self);
}

/* The FEN argument's text (NULL for None) in *fen: 0, or -1 with an
   exception (what PyArg's "z" does, kept here so that Board(fen), the
   common call, is not parsed by the general routine). */
static int
fen_arg(PyObject *a, const char **fen)
{
	Py_ssize_t n;

	*fen = NULL;
	if (a == NULL || a == Py_None)
		return 0;
	if (!PyUnicode_Check(a)) {
		PyErr_Format(PyExc_TypeError, "Board() argument 'fen' must be "
		    "str or None, not %.50s", Py_TYPE(a)->tp_name);
		return -1;
	}
	if ((*fen = PyUnicode_AsUTF8AndSize(a, &n)) == NULL)
		return -1;
	if (strlen(*fen) != (size_t)n) {
		PyErr_SetString(PyExc_ValueError, "embedded null character");
		return -1;
	}
	return 0;
}

static PyObject *board_made(PyTypeObject *, PyObject *, const char *,
    const struct zh_variant *, int);

/* Board(fen=None, variant=None, dialect=None) */
static PyObject *
board_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "fen", "variant", "dialect", NULL };
	const char *fen = NULL, *variant = NULL, *dialect = NULL;
	const struct zh_variant *v = NULL;
	PyObject *fa = NULL;
	int d = ZH_AUTO;

	if (kw == NULL && PyTuple_GET_SIZE(args) == 1)	/* Board(fen) */
		fa = PyTuple_GET_ITEM(args, 0);
	else if (!PyArg_ParseTupleAndKeywords(args, kw, "|Ozz", kwlist, &fa,
	    &variant, &dialect))
		return NULL;
	if (fen_arg(fa, &fen) != 0)
		return NULL;
	if (variant != NULL && (v = zh_variant_find(variant)) == NULL) {
		PyErr_Format(PyExc_ValueError, "unknown variant '%s'", variant);
		return NULL;
	}
	if (dialect != NULL && strcmp(dialect, "auto") != 0 &&
	    (d = zh_dialect_find(dialect)) <= ZH_AUTO) {
		PyErr_Format(PyExc_ValueError, "unknown dialect '%s' (try "
		    "auto, lichess, xboard, chesscom, fairy)", dialect);
		return NULL;
	}
	if (v == NULL)
		v = fen != NULL && strchr(fen, '|') != NULL ?
		    zh_variant_find("bughouse") : zh_variant_default();
	return board_made(type, fa, fen, v, d);
}

/* The board of FEN fen (the str fa; NULL: the start) in variant v,
   dialect d (ZH_AUTO: found when first needed). */
static PyObject *
board_made(PyTypeObject *type, PyObject *fa, const char *fen,
    const struct zh_variant *v, int d)
{
	struct zh_error e = { 0 };
	board *o;
	int rc;

	if ((o = (board *)type->tp_alloc(type, 0)) == NULL)
		return NULL;	/* all of it zeroed, o->one too */
	o->v = v;
	o->nboards = v->boards >= 2 ? 2 : 1;
	o->st = &o->one;	/* grown by push(); a frame is ~1 KB */
	o->cap = 1;
	if (fen == NULL) {
		zh_pos_start(&o->st[0].pos[0], v);
		zh_pos_start(&o->st[0].pos[1], v);
		rc = 0;
	} else if (o->nboards == 2)
		rc = zh_bfen_read(o->st[0].pos, fen, v, d, &e);
	else
		rc = zh_fen_read(&o->st[0].pos[0], fen, v, d, 0, &e);
	if (rc != 0) {
		zk_raise("<fen>", 1, e.col > 0 ? e.col : 1, e.text);
		Py_DECREF(o);
		return NULL;
	}
	o->st[0].move = (struct zh_move){ .from = ZH_NOSQ, .to = ZH_NOSQ };
	o->st[0].clock = o->st[0].pos[0].halfmove;
	if (d == ZH_AUTO && fen != NULL) {
		o->fen_text = Py_NewRef(fa);
		d = DIALECT_LATER;
	}
	o->dialect = d > ZH_AUTO || d == DIALECT_LATER ? d : ZH_LICHESS;
	return (PyObject *)o;
}

/* ======================== moves ======================== */

/* ---- the fast path: each UCI text's place in byte order, a bit each ----

   Every text a legal move can have (a drop "L@sq", a move "sqsq" with
   or without a promotion letter, files a..j, ranks 1..10) has a number
   in the texts' byte order: its rank.  A call sets the ranks' bits of
   a bitmap (two levels, so the empty words cost nothing) and reads
   them back in order: no sort.  The rank comes from the move's fields
   by tables (r_*); the text of a rank is made once and kept (r_tab),
   after checking that the text itself ranks there (rank_of_text), so a
   text that breaks the scheme is never put in the wrong place: that
   call takes the general path (text_list: the texts made and sorted). */

/* Byte order of a square's rank text: "1" < "10" < "2" ... < "9" at the
   end or before a promotion letter; "10" < "1" < "2" ... before a file
   letter (a move's from-square). */
#define R_NP		ZH_NTYPES	/* no promotion, or a letter of a type */
#define R_DROPS		(26 * 100)	/* 'A'..'Z', file, rank */
#define R_N		(R_DROPS + 100 * 10 * 10 * R_NP)
#define R_BAD		0x40000000u	/* three of them still fit 32 bits */
#define R_LEAF		((R_N + 63) / 64)
#define R_MID		((R_LEAF + 63) / 64)

static uint32_t r_from[256], r_to[256], r_topro[256], r_drop[256];
static uint32_t r_pro[256], r_dropl[256];
static unsigned char r_letter[256];	/* promotion letter: 1.. (0 none) */
static PyObject **r_tab;		/* rank: its text, once made */
static uint64_t r_leaf[R_LEAF], r_mid[R_MID];	/* zero between calls */

static uint32_t
ord_end(int r)			/* rank r (0: "1") at a text's end */
{
	return r == 0 ? 0 : r == 9 ? 1 : (uint32_t)(2 * R_NP + (r - 1) * R_NP);
}

static uint32_t
ord_promo(int r)		/* rank r before a promotion letter 1.. */
{
	return r == 0 ? R_NP : r == 9 ? 1 : (uint32_t)(2 * R_NP + (r - 1) *
	    R_NP);
}

static uint32_t
ord_from(int f, int r)		/* from-square: before a file letter */
{
	return R_DROPS + (uint32_t)(f * 10 + (r == 9 ? 0 : r == 0 ? 1 : r +
	    1)) * 10 * 10 * R_NP;
}

/* A square's text at t: its file and rank (0..9) and length, or 0. */
static int
square_text(const char *t, int *f, int *r)
{
	if (t[0] < 'a' || t[0] > 'j' || t[1] < '1' || t[1] > '9')
		return 0;
	*f = t[0] - 'a';
	if (t[1] == '1' && t[2] == '0') {
		*r = 9;
		return 3;
	}
	*r = t[1] - '1';
	return 2;
}

/* The rank of UCI text t, R_BAD for a text of no rank. */
static uint32_t
rank_of_text(const char *t)
{
	int f, r, f2, r2, k, p = 0;

	if (t[0] >= 'A' && t[0] <= 'Z' && t[1] == '@') {
		if ((k = square_text(t + 2, &f, &r)) == 0 || t[2 + k] != '\0')
			return R_BAD;
		return (uint32_t)(t[0] - 'A') * 100 + (uint32_t)f * 10 +
		    (r == 0 ? 0 : r == 9 ? 1 : (uint32_t)r + 1);
	}
	if ((k = square_text(t, &f, &r)) == 0)
		return R_BAD;
	t += k;
	if ((k = square_text(t, &f2, &r2)) == 0)
		return R_BAD;
	t += k;
	if (*t != '\0' && ((p = r_letter[(unsigned char)*t]) == 0 ||
	    t[1] != '\0'))
		return R_BAD;
	return ord_from(f, r) + (uint32_t)f2 * 10 * R_NP + (p ? ord_promo(r2) +
	    (uint32_t)p : ord_end(r2));
}

/* The tables made: 0, or -1 (no memory: the general path always). */
static int
r_setup(void)
{
	char low[ZH_NTYPES + 1] = "";
	int s, t, n = 0, i;

	if (r_tab != NULL)
		return 0;
	for (s = 0; s < 256; s++) {
		unsigned f = (unsigned)ZH_FILE(s), r = (unsigned)ZH_RANK(s);
		bool ok = s != ZH_NOSQ && s < ZH_NSQ && f < 10 && r < 10;

		r_from[s] = ok ? ord_from((int)f, (int)r) : R_BAD;
		r_to[s] = ok ? (uint32_t)f * 10 * R_NP + ord_end((int)r) : R_BAD;
		r_topro[s] = ok ? (uint32_t)f * 10 * R_NP + ord_promo((int)r) :
		    R_BAD;
		r_drop[s] = ok ? f * 10 + (r == 0 ? 0 : r == 9 ? 1 : r + 1) :
		    R_BAD;
		r_pro[s] = r_dropl[s] = R_BAD;
	}
	for (t = 1; t < ZH_NTYPES; t++) {	/* the letters, sorted */
		char c = zh_type_letter(t);

		if (c >= 'A' && c <= 'Z' && strchr(low, c + 32) == NULL) {
			low[n++] = (char)(c + 32);
			low[n] = '\0';
		}
	}
	for (i = 0; i < n; i++)
		for (t = 0; t < n; t++)
			r_letter[(unsigned char)low[i]] += low[t] <= low[i];
	for (t = 1; t < ZH_NTYPES; t++) {
		char c = zh_type_letter(t);

		if (c >= 'A' && c <= 'Z') {
			r_pro[t] = r_letter[(unsigned char)(c + 32)];
			r_dropl[t] = (uint32_t)(c - 'A') * 100;
		}
	}
	r_tab = calloc(R_N, sizeof *r_tab);
	return r_tab != NULL ? 0 : -1;
}

/* Move m's rank (from its fields), R_BAD or more for none. */
static inline uint32_t
move_rank(struct zh_move m)
{
	if (!(m.flags & (ZH_MDROP | ZH_MPROMO | ZH_MNULL)))
		return r_from[m.from] + r_to[m.to];
	if (m.flags & ZH_MNULL)
		return R_BAD;
	if (m.flags & ZH_MDROP)
		return r_dropl[m.piece] + r_drop[m.to];
	return r_from[m.from] + r_topro[m.to] + r_pro[m.piece];
}

/* The text of rank r, move m's, made and kept: 0; 1 if its text has
   another rank (then not kept); -1 with an exception. */
static int
rank_fill(const struct zh_pos *p, struct zh_move m, uint32_t r)
{
	char buf[ZH_MOVEMAX];

	zh_uci_write(p, m, buf);
	if (rank_of_text(buf) != r)
		return 1;
	return (r_tab[r] = PyUnicode_InternFromString(buf)) != NULL ? 0 : -1;
}

/* The bits set cleared (a call that takes the general path). */
static void
rank_clear(void)
{
	uint64_t mw;
	int mi;

	for (mi = 0; mi < R_MID; mi++)
		for (mw = r_mid[mi], r_mid[mi] = 0; mw != 0; mw &= mw - 1)
			r_leaf[mi * 64 + __builtin_ctzll(mw)] = 0;
}

/* The bits set read back in order and cleared, their texts put in
   list l from 0. */
static void
rank_drain(PyObject *l)
{
	PyObject **item = ((PyListObject *)l)->ob_item, *s;
	uint64_t mw, w;
	int mi, wi;

	for (mi = 0; mi < R_MID; mi++)
		for (mw = r_mid[mi], r_mid[mi] = 0; mw != 0; mw &= mw - 1) {
			wi = mi * 64 + __builtin_ctzll(mw);
			w = r_leaf[wi];
			r_leaf[wi] = 0;
			for (; w != 0; w &= w - 1) {
				s = r_tab[wi * 64 + __builtin_ctzll(w)];
				*item++ = Py_NewRef(s);
			}
		}
}

/* The n legal moves' UCI texts in byte order by their ranks: the list,
   Py_None when a move has no rank or two the same (the general path
   then), NULL with an exception. */
static PyObject *
rank_list(const struct zh_pos *p, const struct zh_move *mv, int n)
{
	PyObject *l;
	uint32_t r, w;
	uint64_t bit, word;
	int i, rc;

	for (i = 0; i < n; i++) {
		if ((r = move_rank(mv[i])) >= R_N)
			break;
		if (r_tab[r] == NULL && (rc = rank_fill(p, mv[i], r)) != 0) {
			if (rc < 0) {
				rank_clear();
				return NULL;
			}
			break;
		}
		w = r >> 6;
		bit = (uint64_t)1 << (r & 63);
		if ((word = r_leaf[w]) & bit)
			break;
		r_leaf[w] = word | bit;
		r_mid[w >> 6] |= (uint64_t)1 << (w & 63);
	}
	if (i < n) {
		rank_clear();
		return Py_None;
	}
	if ((l = PyList_New(n)) == NULL)
		rank_clear();
	else
		rank_drain(l);
	return l;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The legal moves' SAN texts in dialect d (UCI for d < 0), sorted, as a
   list: the general path (for UCI, rank_list is the quick one). */
static PyObject *
text_list(const struct zh_pos *p, const struct zh_move *mv, int n, int d)
{
	char (*text)[ZH_MOVEMAX] = malloc(ZH_MAXMOVES * sizeof *text);
	char **ptr = malloc(ZH_MAXMOVES * sizeof *ptr);
	PyObject *l = NULL, *s;
	int i;

	if (text == NULL || ptr == NULL) {
		free(text);
		free(ptr);
		return PyErr_NoMemory();
	}
	for (i = 0; i < n; i++) {
		if (d < 0)
			zh_uci_write(p, mv[i], text[i]);
		else
			zh_san_write(p, mv[i], d, text[i]);
		ptr[i] = text[i];
	}
	qsort(ptr, (size_t)n, sizeof *ptr, cmp_str);
	l = PyList_New(n);
	for (i = 0; l != NULL && i < n; i++) {
		if ((s = PyUnicode_FromString(ptr[i])) == NULL) {
			Py_CLEAR(l);
			break;
		}
		PyList_SET_ITEM(l, i, s);
	}
	free(text);
	free(ptr);
	return l;
}

/* legal_moves(board=0, san=False, dialect=None): sorted list of str */
static PyObject *
legal_moves(PyObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "board", "san", "dialect", NULL };
	board *o = (board *)self;
	PyObject *ba = NULL, *l;
	const char *ds = NULL;
	int san = 0, b, d = 0, n;
	struct zh_move mv[ZH_MAXMOVES];		/* 8 KB */

	if (kw == NULL && PyTuple_GET_SIZE(args) == 0) {	/* legal_moves() */
		n = zh_legal_moves(cur(o, 0), mv);
		if (r_setup() == 0 && (l = rank_list(cur(o, 0), mv, n)) !=
		    Py_None)
			return l;
		return text_list(cur(o, 0), mv, n, -1);
	}
	if (!PyArg_ParseTupleAndKeywords(args, kw, "|Opz", kwlist, &ba, &san,
	    &ds) || (b = board_arg(o, ba)) < 0 ||
	    (san && (d = dialect_arg(o, ds)) < 0))
		return NULL;
	n = zh_legal_moves(cur(o, b), mv);
	if (san)
		return text_list(cur(o, b), mv, n, d);
	if (r_setup() == 0 && (l = rank_list(cur(o, b), mv, n)) != Py_None)
		return l;
	return text_list(cur(o, b), mv, n, -1);
}

/* push(move, board=0): a move in SAN (any dialect's drop forms) or UCI
   played; returns its UCI text. */
static PyObject *
push(PyObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "move", "board", NULL };
	board *o = (board *)self;
	PyObject *ba = NULL;
	const char *s;
	Py_ssize_t len;
	struct zh_error e = { 0 };
	struct zh_move m;
	struct zh_pos *p;
	char uci[ZH_MOVEMAX];
	int b, ty, us;
	bool pawn;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "s#|O", kwlist, &s, &len,
	    &ba) || (b = board_arg(o, ba)) < 0)
		return NULL;
	if (zh_san_read(cur(o, b), s, (size_t)len, &m, &e) != 0) {
		zk_raise("<move>", 1, e.col > 0 ? e.col : 1, e.text);
		return NULL;
	}
	if (m.flags & ZH_MNULL && o->nboards == 2) {
		PyErr_SetString(PyExc_ValueError, "a null move in bughouse");
		return NULL;
	}
	if (o->n + 1 >= o->cap) {
		struct frame *f = o->st == &o->one ? malloc(4 * sizeof *f) :
		    realloc(o->st, 2 * o->cap * sizeof *f);

		if (f == NULL)
			return PyErr_NoMemory();
		if (o->st == &o->one)
			f[0] = o->one;
		o->st = f;
		o->cap = o->cap == 1 ? 4 : 2 * o->cap;
	}
	zh_uci_write(cur(o, b), m, uci);
	o->st[o->n + 1] = o->st[o->n];
	o->n++;
	p = cur(o, b);
	us = p->side;
	/* python-chess's no-progress count, before the move is made */
	pawn = !(m.flags & (ZH_MDROP | ZH_MNULL)) &&
	    ZH_TYPE(p->sq[m.from]) == ZH_PAWN;
	zh_make(p, m);
	o->st[o->n].move = m;
	o->st[o->n].clock = pawn || p->taken != 0 ? 0 :
	    o->st[o->n - 1].clock + 1;
	/* bughouse: the capture to the partner, as lib/bughouse.c */
	if (o->nboards == 2 && !(m.flags & ZH_MDROP) && p->taken != 0) {
		ty = (p->taken & ZH_PROMOTED) && o->v->demote ? ZH_PAWN :
		    ZH_TYPE(p->taken);
		cur(o, !b)->pocket[!us][ty]++;
	}
	return PyUnicode_FromString(uci);
}

static PyObject *
pop(PyObject *self, PyObject *noargs)
{
	board *o = (board *)self;

	(void)noargs;
	if (o->n == 0) {
		PyErr_SetString(PyExc_IndexError, "pop from the start position");
		return NULL;
	}
	o->n--;
	Py_RETURN_NONE;
}

/* san(move, board=0, dialect=None): the SAN of a legal move given in
   any form. */
static PyObject *
san(PyObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "move", "board", "dialect", NULL };
	board *o = (board *)self;
	PyObject *ba = NULL;
	const char *s, *ds = NULL;
	Py_ssize_t len;
	struct zh_error e = { 0 };
	struct zh_move m;
	char buf[ZH_MOVEMAX];
	int b, d;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "s#|Oz", kwlist, &s, &len,
	    &ba, &ds) || (b = board_arg(o, ba)) < 0 ||
	    (d = dialect_arg(o, ds)) < 0)
		return NULL;
	if (zh_san_read(cur(o, b), s, (size_t)len, &m, &e) != 0) {
		zk_raise("<move>", 1, e.col > 0 ? e.col : 1, e.text);
		return NULL;
	}
	zh_san_write(cur(o, b), m, d, buf);
	return PyUnicode_FromString(buf);
}

/* ======================== the position ======================== */

static PyObject *
fen(PyObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "dialect", "board", NULL };
	board *o = (board *)self;
	const char *ds = NULL;
	PyObject *ba = NULL;
	char buf[2 * ZH_FENMAX + 8];
	int d, b;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "|zO", kwlist, &ds, &ba) ||
	    (d = dialect_arg(o, ds)) < 0)
		return NULL;
	if (o->nboards == 2 && (ba == NULL || ba == Py_None)) {
		zh_bfen_write(o->st[o->n].pos, d, buf, sizeof buf);
		return PyUnicode_FromString(buf);
	}
	if ((b = board_arg(o, ba)) < 0)
		return NULL;
	zh_fen_write(cur(o, b), d, buf, sizeof buf);
	return PyUnicode_FromString(buf);
}

static PyObject *
is_check(PyObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "board", NULL };
	board *o = (board *)self;
	PyObject *ba = NULL;
	int b;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "|O", kwlist, &ba) ||
	    (b = board_arg(o, ba)) < 0)
		return NULL;
	return PyBool_FromLong(zh_in_check(cur(o, b)));
}

/* key(board=0): the position's key as zhindex stores it (12 bytes, the
   first 96 bits of zh_pos_key big-endian: zhkit-index(5)). */
static PyObject *
key(PyObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "board", NULL };
	board *o = (board *)self;
	PyObject *ba = NULL;
	unsigned char b12[12];
	struct zh_key k;
	int b, i;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "|O", kwlist, &ba) ||
	    (b = board_arg(o, ba)) < 0)
		return NULL;
	k = zh_pos_key(cur(o, b));
	for (i = 0; i < 8; i++)
		b12[i] = (unsigned char)(k.hi >> (56 - 8 * i));
	for (i = 0; i < 4; i++)
		b12[8 + i] = (unsigned char)(k.lo >> (56 - 8 * i));
	return PyBytes_FromStringAndSize((const char *)b12, 12);
}

/* outcome(board=0): "checkmate" (the side to move is mated),
   "stalemate", or None while the game goes on (in bughouse a side
   without a move may wait for a piece: no stalemate, and a mate only
   when no drop could block the check). */
static PyObject *
outcome(PyObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "board", NULL };
	board *o = (board *)self;
	PyObject *ba = NULL;
	int b, st;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "|O", kwlist, &ba) ||
	    (b = board_arg(o, ba)) < 0)
		return NULL;
	st = zh_status(cur(o, b));
	if (st == ZH_CHECKMATE)
		return PyUnicode_FromString("checkmate");
	if (st == ZH_STALEMATE)
		return PyUnicode_FromString("stalemate");
	Py_RETURN_NONE;
}

/* pockets(board=0): {"white": {"P": n, ...}, "black": {...}} (the
   pieces in hand, those held only) */
static PyObject *
pockets(PyObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "board", NULL };
	static const char *const side[2] = { "white", "black" };
	board *o = (board *)self;
	PyObject *ba = NULL, *d, *h, *n;
	int b, c, t;
	char k[2] = "";

	if (!PyArg_ParseTupleAndKeywords(args, kw, "|O", kwlist, &ba) ||
	    (b = board_arg(o, ba)) < 0 || (d = PyDict_New()) == NULL)
		return NULL;
	for (c = 0; c < 2; c++) {
		if ((h = PyDict_New()) == NULL ||
		    PyDict_SetItemString(d, side[c], h) < 0)
			goto fail;
		Py_DECREF(h);
		for (t = ZH_PAWN; t < ZH_NTYPES; t++) {
			if (cur(o, b)->pocket[c][t] == 0)
				continue;
			k[0] = zh_type_letter(t);
			if ((n = PyLong_FromLong(cur(o, b)->pocket[c][t])) ==
			    NULL || PyDict_SetItemString(h, k, n) < 0) {
				Py_XDECREF(n);
				goto fail;
			}
			Py_DECREF(n);
		}
	}
	return d;
fail:
	Py_DECREF(d);
	return NULL;
}

/* repetitions(): how many times the position now (both boards) stood
   before in the moves pushed (0: the first time); a repetition is the
   same board, promoted pieces, pockets, side, castling and en-passant
   square (zh_posrec_same, as zhreplay -F npy's repetition field). */
static long
count_repetitions(board *o)
{
	struct zh_posrec now[2], then;
	size_t i;
	long count = 0;
	int b, same;

	for (b = 0; b < o->nboards; b++)
		zh_posrec_fill(&now[b], cur(o, b), -1);
	for (i = 0; i < o->n; i++) {
		for (b = 0, same = 1; b < o->nboards && same; b++) {
			zh_posrec_fill(&then, &o->st[i].pos[b], -1);
			same = then.key == now[b].key &&
			    zh_posrec_same(&then, &now[b]);
		}
		count += same;
	}
	return count;
}

static PyObject *
repetitions(PyObject *self, PyObject *noargs)
{
	(void)noargs;
	return PyLong_FromLong(count_repetitions((board *)self));
}

/* ======================== CrazyAra's tensors ======================== */

/* The one board of o (none for bughouse: ValueError). */
static const struct zh_pos *
one_board(board *o)
{
	if (o->nboards == 1)
		return cur(o, 0);
	PyErr_Format(PyExc_ValueError, "%s: no CrazyAra planes or policy for "
	    "two boards", o->v->name);
	return NULL;
}

/* planes(version=3, dtype=None, normalize=False): the position now, its
   last 8 moves and repetitions as zhreplay -F planes writes it */
static PyObject *
planes(PyObject *self, PyObject *args, PyObject *kw)
{
	board *o = (board *)self;
	const struct zh_pos *now = one_board(o);
	struct zh_move last[8];
	struct zh_pos p;
	size_t i;
	int n = 0;

	if (now == NULL)
		return NULL;
	for (i = o->n; i > 0 && n < 8; i--)
		last[n++] = o->st[i].move;
	p = *now;
	p.halfmove = o->st[o->n].clock;
	return zk_planes(&p, last, n, (int)count_repetitions(o), args, kw);
}

static PyObject *
policy_index(PyObject *self, PyObject *args)
{
	const struct zh_pos *p = one_board((board *)self);

	return p == NULL ? NULL : zk_policy_index(p, args, false);
}

static PyObject *
policy_map_index(PyObject *self, PyObject *args)
{
	const struct zh_pos *p = one_board((board *)self);

	return p == NULL ? NULL : zk_policy_index(p, args, true);
}

static PyObject *
policy_mask(PyObject *self, PyObject *args, PyObject *kw)
{
	const struct zh_pos *p = one_board((board *)self);

	return p == NULL ? NULL : zk_policy_mask(p, args, kw);
}

static PyObject *
copy(PyObject *self, PyObject *noargs)
{
	board *o = (board *)self, *c;

	(void)noargs;
	if ((c = (board *)Py_TYPE(self)->tp_alloc(Py_TYPE(self), 0)) == NULL)
		return NULL;
	c->v = o->v;
	c->nboards = o->nboards;
	c->dialect = own_dialect(o);
	c->cap = o->cap;
	if (c->cap == 1)
		c->st = &c->one;
	else if ((c->st = malloc(c->cap * sizeof *c->st)) == NULL) {
		Py_DECREF(c);
		return PyErr_NoMemory();
	}
	memcpy(c->st, o->st, (o->n + 1) * sizeof *c->st);
	c->n = o->n;
	return (PyObject *)c;
}

static PyObject *
get_turn(PyObject *self, void *closure)
{
	(void)closure;
	return PyUnicode_FromString(cur((board *)self, 0)->side == ZH_WHITE ?
	    "white" : "black");
}

static PyObject *
get_variant(PyObject *self, void *closure)
{
	(void)closure;
	return PyUnicode_FromString(((board *)self)->v->name);
}

static PyObject *
get_boards(PyObject *self, void *closure)
{
	(void)closure;
	return PyLong_FromLong(((board *)self)->nboards);
}

static PyObject *
get_plies(PyObject *self, void *closure)
{
	(void)closure;
	return PyLong_FromSize_t(((board *)self)->n);
}

static PyObject *
board_str(PyObject *self)
{
	PyObject *a = PyTuple_New(0), *r;

	if (a == NULL)
		return NULL;
	r = fen(self, a, NULL);
	Py_DECREF(a);
	return r;
}

#define KW	(PyCFunction)(void (*)(void))
static PyMethodDef board_methods[] = {
	{ "legal_moves", KW legal_moves, METH_VARARGS | METH_KEYWORDS,
	  "legal_moves(board=0, san=False, dialect=None): the legal moves, "
	  "UCI (or SAN in the dialect), sorted." },
	{ "push", KW push, METH_VARARGS | METH_KEYWORDS,
	  "push(move, board=0): play a move given in SAN (any dialect's "
	  "drop form: P@e4, @e4, p@e4) or UCI; returns its UCI." },
	{ "pop", pop, METH_NOARGS, "Take the last move back." },
	{ "san", KW san, METH_VARARGS | METH_KEYWORDS,
	  "san(move, board=0, dialect=None): a legal move's SAN." },
	{ "fen", KW fen, METH_VARARGS | METH_KEYWORDS,
	  "fen(dialect=None, board=None): the FEN in a dialect (the input's "
	  "by default); both boards' 'A | B' for bughouse." },
	{ "is_check", KW is_check, METH_VARARGS | METH_KEYWORDS,
	  "is_check(board=0): is the side to move in check?" },
	{ "outcome", KW outcome, METH_VARARGS | METH_KEYWORDS,
	  "outcome(board=0): 'checkmate', 'stalemate' or None." },
	{ "pockets", KW pockets, METH_VARARGS | METH_KEYWORDS,
	  "pockets(board=0): the pieces in hand of each side." },
	{ "key", KW key, METH_VARARGS | METH_KEYWORDS,
	  "key(board=0): the position's 12-byte key as zhindex stores it "
	  "(zhkit-index(5)): pockets, promoted pieces, side to move, "
	  "castling and a legal en-passant square in it, the counters not." },
	{ "repetitions", repetitions, METH_NOARGS,
	  "How many times this position stood before (0: the first)." },
	{ "copy", copy, METH_NOARGS, "An independent copy." },
	{ "planes", KW planes, METH_VARARGS | METH_KEYWORDS,
	  "planes(version=3, dtype=None, normalize=False): CrazyAra's input "
	  "planes of the position now (its last 8 moves and repetitions "
	  "included) as a NumPy array (planes, 8, 8), as zhreplay -F planes "
	  "writes them (zhkit-planes(5)); dtype uint8, int8, float16 or "
	  "float32 (default int8 for version 3, else uint8; float32 when "
	  "normalize)." },
	{ "policy_index", policy_index, METH_VARARGS,
	  "policy_index(move): a legal move's (SAN or UCI) index in "
	  "CrazyAra's flat LABELS (Black's moves mirrored); None if it has "
	  "none." },
	{ "policy_map_index", policy_map_index, METH_VARARGS,
	  "policy_map_index(move): its index in CrazyAra's policy map "
	  "(plane * 64 + row * 8 + column)." },
	{ "policy_mask", KW policy_mask, METH_VARARGS | METH_KEYWORDS,
	  "policy_mask(map=False): uint8, 1 at each legal move's index "
	  "(2272 flat, or 5184 with map)." },
	{ NULL, NULL, 0, NULL }
};

static PyGetSetDef board_getset[] = {
	{ "turn", get_turn, NULL, "'white' or 'black' (board A's)", NULL },
	{ "variant", get_variant, NULL, "the variant's name", NULL },
	{ "boards", get_boards, NULL, "1, or 2 for bughouse", NULL },
	{ "plies", get_plies, NULL, "moves pushed", NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};

static PyTypeObject board_type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "zhkit.Board",
	.tp_basicsize = sizeof(board),
	.tp_dealloc = board_dealloc,
	.tp_str = board_str,
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.tp_doc = "Board(fen=None, variant=None, dialect=None): a position of "
	    "any variant (crazyhouse by default; bughouse: two boards, "
	    "'fenA | fenB') with libzh's rules.",
	.tp_methods = board_methods,
	.tp_getset = board_getset,
	.tp_new = board_new,
};

int
zk_board_init(PyObject *m)
{
	if (PyType_Ready(&board_type) < 0)
		return -1;
	Py_INCREF(&board_type);
	if (PyModule_AddObject(m, "Board", (PyObject *)&board_type) < 0) {
		Py_DECREF(&board_type);
		return -1;
	}
	return 0;
}
