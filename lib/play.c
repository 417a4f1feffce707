/*
 * play.c - the one-step replay: the common SAN of an 8x8 board read and
 * played at once, from the bitboards, for zh_replay's runs of moves;
 * anything else is left to the general SAN reader (san.c).
 */
#include <stdint.h>
#include <string.h>

#include "bb8.h"

/* The name of square s of an 8x8 board at q (2 bytes); returns q + 2. */
static inline char *
put_sq8(char *q, int s)
{
	q[0] = (char)('a' + ZH_FILE(s));
	q[1] = (char)('1' + ZH_RANK(s));
	return q + 2;
}

/* The squares of a file and of a rank of an 8x8 board, as bits. */
#define FILE8(f)	((uint64_t)0x0101010101010101u << (f))
#define RANK8(r)	((uint64_t)0xff << 8 * (r))

/*
 * Legal move m of a piece of 'type' made on p, its SAN body in the
 * Lichess dialect and its UCI written first (NULL: not wanted); 'others'
 * are the other pieces of the type that could go there (bits), which
 * the SAN tells apart by file, rank or square.
 */
static ZH_HOT_INLINE void
play8(struct zh_pos *p, struct zh_move m, int type, uint64_t others,
    char *san, char *uci)
{
	if (san != NULL) {
		char *q = san;

		if (m.flags & ZH_MDROP) {
			*q++ = zh__type_letter(m.piece);
			*q++ = '@';
		} else if (type != ZH_PAWN) {
			int i = bbix(m.from);

			*q++ = zh__type_letter(type);
			if (others == 0)
				;
			else if (!(others & FILE8(i & 7)))
				*q++ = (char)('a' + ZH_FILE(m.from));
			else if (!(others & RANK8(i >> 3)))
				*q++ = (char)('1' + ZH_RANK(m.from));
			else
				q = put_sq8(q, m.from);
			if (p->sq[m.to] != 0)
				*q++ = 'x';
		} else if (ZH_FILE(m.from) != ZH_FILE(m.to)) {
			*q++ = (char)('a' + ZH_FILE(m.from));
			*q++ = 'x';
		}
		q = put_sq8(q, m.to);
		*q = '\0';
	}
	if (uci != NULL) {
		char *q = uci;

		if (m.flags & ZH_MDROP) {
			*q++ = zh__type_letter(m.piece);
			*q++ = '@';
		} else
			q = put_sq8(q, m.from);
		q = put_sq8(q, m.to);
		*q = '\0';
	}
	if (m.flags & ZH_MDROP)
		make_drop8(p, m);
	else
		make_plain8(p, m);
	p->check = p->king[p->side] != ZH_NOSQ &&
	    gives_check8(p, m, !p->side, p->king[p->side]) ? 2 : 1;
}

/* Which of the pieces x (bits) of the side to move may go to 'to' of an
 * 8x8 board without leaving the king in check?  Out of line: the loop
 * is for the rarer moves that two pieces of a type can make. */
static uint64_t
legal8(const struct zh_pos *p, uint64_t x, int to, bool check)
{
	uint64_t legal = 0;

	for (; x != 0; x &= x - 1)
		if (safe8(p, bbsq(__builtin_ctzll(x)), to, check))
			legal |= x & (0 - x);
	return legal;
}

/* Is a pawn's move of the side to move to 'to' of an 8x8 board one the
 * one-step path plays: no promotion ('promo' ZH_EMPTY) before the
 * variant's promotion ranks, or one ('promo' its type) on the last
 * rank, where it is compulsory? */
static inline bool
promo_rank_ok(const struct zh_pos *p, int to, int promo)
{
	int rel = RELRANK(p, p->side, to);

	return promo == ZH_EMPTY ? rel < p->v->promo_lo :
	    rel == p->v->ranks - 1 && p->v->promo_lo <= rel;
}

/* A promotion or castling m of an 8x8 board, played as the general
 * path plays it: its SAN body and UCI written first (NULL: not wanted). */
static ZH_COLD void
play_rare8(struct zh_pos *p, struct zh_move m, char *san, char *uci)
{
	if (san != NULL)
		zh__san_body_n(p, m, ZH_SAN_AUTO, san, 1);
	if (uci != NULL)
		zh_uci_write(p, m, uci);
	zh_make(p, m);
}

/* "O-O" or "O-O-O" (n bytes at s), played if legal (zh__castle_move). */
static ZH_COLD int
castle8(struct zh_pos *p, const char *s, size_t n, struct zh_move *mv,
    char *san, char *uci)
{
	struct zh_move m;
	bool kside;

	if (n == 3 && memcmp(s, "O-O", 3) == 0)
		kside = true;
	else if (n == 5 && memcmp(s, "O-O-O", 5) == 0)
		kside = false;
	else
		return 0;
	if (!zh__castle_move(p, kside, &m))
		return 0;
	play_rare8(p, m, san, uci);
	*mv = m;
	return 1;
}

static int play_rare_text(struct zh_pos *p, const char *s, size_t n,
    struct zh_move *mv, char *san, char *uci);

/*
 * "e4" (to 'to', the promotion 'promo' or ZH_EMPTY): the square of the
 * pawn of the side to move that goes there, a step or two (m->flags
 * ZH_MDOUBLE) ahead, or -1.  Whether it may is the caller's.
 */
static ZH_HOT_INLINE int
push_from8(const struct zh_pos *p, int to, int promo, struct zh_move *m)
{
	int us = p->side, fwd = FORWARD(us);
	unsigned char pawn = ZH_PIECE(us, ZH_PAWN);

	if (p->sq[to] != 0 || to == p->ep || !promo_rank_ok(p, to, promo))
		return -1;
	if ((p->sq[to - fwd] & ~ZH_PROMOTED) == pawn)
		return to - fwd;
	if (p->sq[to - fwd] == 0 &&
	    (p->sq[to - 2 * fwd] & ~ZH_PROMOTED) == pawn &&
	    RELRANK(p, us, to - 2 * fwd) == p->v->double_step) {
		m->flags = ZH_MDOUBLE;
		return to - 2 * fwd;
	}
	return -1;
}

/*
 * "exd5": the square of the pawn of file 'ff' that takes on 'to' of
 * file f (the promotion 'promo' or ZH_EMPTY), or -1.  Whether it may is
 * the caller's.
 */
static ZH_HOT_INLINE int
capture_from8(const struct zh_pos *p, int ff, int f, int to, int promo)
{
	int us = p->side, df = ff - f, from;

	if ((df != 1 && df != -1) || !is_color(p->sq[to], !us) ||
	    !promo_rank_ok(p, to, promo))
		return -1;
	from = to - FORWARD(us) + df;
	if ((p->sq[from] & ~ZH_PROMOTED) != ZH_PIECE(us, ZH_PAWN))
		return -1;
	return from;
}

/*
 * "Nf3", "Nxf3", "Nbd2", "R1xe2", "Qh4e1" (n bytes at s) to 'to', by a
 * piece of 'type': the square of the one piece that the text names and
 * that may go there, or -1; 'others' (bits) are the others of the type
 * that may, which the SAN tells apart.  'check': the side to move is
 * in check.
 */
static ZH_HOT_INLINE int
piece_from8(const struct zh_pos *p, const char *s, size_t n, int type,
    int to, int promo, bool check, uint64_t *others)
{
	const char *q = s + 1, *e = s + n - 2;
	uint64_t x, legal, want = ~(uint64_t)0;
	int us = p->side;

	if (q < e && *q >= 'a' && *q <= 'h')
		want &= FILE8(*q++ - 'a');
	if (q < e && *q >= '1' && *q <= '8')
		want &= RANK8(*q++ - '1');
	if (q < e && *q == 'x')
		q++;
	if (q != e || type == ZH_EMPTY || type == ZH_PAWN ||
	    promo != ZH_EMPTY ||
	    !(p->v->types & ZH_TYPEBIT(type)) ||
	    is_color(p->sq[to], us))
		return -1;
	if (type == ZH_KING) {
		int k = p->king[us];

		if (k == ZH_NOSQ || !(zh__king8[bbix(k)] & BBIT(to)) ||
		    !(want & BBIT(k)) || zh__attacked8(p, to, !us, k, -1, -1))
			return -1;
		return k;
	}
	x = reach8(p, type, to);
	if ((x & (x - 1)) == 0) {	/* one piece reaches: most moves */
		if ((x & want) == 0 ||
		    !safe8(p, bbsq(__builtin_ctzll(x)), to, check))
			return -1;
		return bbsq(__builtin_ctzll(x));
	}
	legal = legal8(p, x, to, check);
	x = legal & want;		/* exactly one, or the reader */
	if (x == 0 || (x & (x - 1)) != 0)	/* says why */
		return -1;
	*others = legal & ~x;
	return bbsq(__builtin_ctzll(x));
}

/*
 * zh__play_fast after the check marks: n (2 to 6) bytes at s, and the
 * promotion type when "=Q" was cut off the end (ZH_EMPTY: none).  A
 * text that does not end in a square may be of the rarer forms.
 */
static ZH_HOT_INLINE int
play_text8(struct zh_pos *p, const char *s, size_t n, int promo,
    struct zh_move *mv, char *san, char *uci)
{
	int type, to, from, f, r;
	uint64_t others = 0;
	struct zh_move m;
	bool check;

	f = s[n - 2] - 'a';
	r = s[n - 1] - '1';
	if (f < 0 || f > 7 || r < 0 || r > 7)
		return promo == ZH_EMPTY ? play_rare_text(p, s, n, mv, san,
		    uci) : 0;
	to = ZH_SQ(f, r);
	m.to = (unsigned char)to;
	m.piece = 0;
	m.flags = 0;
	if ((n == 3 || n == 4) && s[n - 3] == '@') {	/* "@e4", "N@f3" */
		type = n == 4 ? zh__letter_type(s[0]) : ZH_PAWN;
		if (promo != ZH_EMPTY || !drop_ok(p, type, to))
			return 0;
		m.from = ZH_NOSQ;
		m.piece = (unsigned char)type;
		m.flags = ZH_MDROP;
		goto play;
	}
	check = in_check(p);
	type = ZH_PAWN;
	if (n == 2)
		from = push_from8(p, to, promo, &m);
	else if (n == 4 && s[0] >= 'a' && s[0] <= 'h' && s[1] == 'x')
		from = capture_from8(p, s[0] - 'a', f, to, promo);
	else if (s[0] >= 'A' && s[0] <= 'Z') {		/* a piece's move */
		type = zh__letter_type(s[0]);
		if ((from = piece_from8(p, s, n, type, to, promo, check,
		    &others)) < 0)
			return 0;
		m.from = (unsigned char)from;
		goto play;
	} else
		return 0;
	if (from < 0 || !safe8(p, from, to, check))
		return 0;
	m.from = (unsigned char)from;
	if (promo != ZH_EMPTY) {
		m.piece = (unsigned char)promo;
		m.flags = ZH_MPROMO;
		play_rare8(p, m, san, uci);
		*mv = m;
		return 1;
	}
play:
	play8(p, m, type, others, san, uci);
	*mv = m;
	return 1;
}

/* Castling and promotions ("O-O", "O-O-O", "e8=Q", "exd8=N"): the
 * forms that do not end in a square, out of the common path. */
static ZH_COLD int
play_rare_text(struct zh_pos *p, const char *s, size_t n, struct zh_move *mv,
    char *san, char *uci)
{
	int promo;

	if (s[0] == 'O')
		return castle8(p, s, n, mv, san, uci);
	if (n < 4 || s[n - 2] != '=' || s[n - 1] < 'A' || s[n - 1] > 'Z' ||
	    p->v->promo_limited ||
	    (promo = zh__letter_type(s[n - 1])) == ZH_EMPTY ||
	    !(p->v->promo_types & ZH_TYPEBIT(promo)))
		return 0;
	return play_text8(p, s, n - 2, promo, mv, san, uci);
}

/* zh__play_fast, inline for the loop below. */
static ZH_HOT_INLINE int
play_fast(struct zh_pos *p, const char *s, size_t n, struct zh_move *mv,
    char *san, char *uci)
{
	if (n >= 32)			/* the general reader's bound */
		return 0;
	while (n > 0 && (s[n - 1] == '+' || s[n - 1] == '#'))
		n--;
	if (n < 2 || n > 6)
		return 0;
	return play_text8(p, s, n, ZH_EMPTY, mv, san, uci);
}

int
zh__play_fast(struct zh_pos *p, const char *s, size_t n, struct zh_move *mv,
    char *san, char *uci)
{
	return has_bb(p) ? play_fast(p, s, n, mv, san, uci) : 0;
}

/*
 * zh__play_run's loop, made once for each case its callers have (SAN
 * and UCI for JSON, SAN alone for PGN, neither for zhcheck; each with
 * and without a watch, the position search of a selection): 'san',
 * 'uci' and 'watched' are constants, so that each copy has none of the
 * code and the tests of the texts it does not write.
 */
static ZH_HOT_INLINE size_t
play_run(struct zh_pos *p, const struct zh_token *toks, size_t i,
    size_t end, struct zh_rmove *moves, struct zh_run *run, const bool san,
    const bool uci, const bool watched)
{
	/* in locals: a store of text (char) could change *run otherwise */
	long ply = run->ply;
	const int depth = run->depth;
	size_t played = 0, last = run->last;
	int (*watch)(void *, const struct zh_pos *) = run->watch;
	void *warg = run->watch_arg;

	for (; i < end; i++) {
		const struct zh_token *t = &toks[i];
		struct zh_rmove *rm = &moves[i];
		struct zh_move m;

		if (t->kind == ZH_T_MOVENUM)
			continue;
		if (t->kind != ZH_T_MOVE || !play_fast(p, t->text, t->len, &m,
		    san ? rm->san : NULL, uci ? rm->uci : NULL))
			break;
		rm->ok = true;
		rm->move = m;
		rm->ply = ++ply;
		rm->depth = depth;
		rm->check = p->check;
		if (!san)
			rm->san[0] = '\0';
		else if (p->check == 2) {	/* '#' is the caller's */
			size_t n = zh__movelen(rm->san);

			rm->san[n++] = '+';
			rm->san[n] = '\0';
		}
		if (!uci)
			rm->uci[0] = '\0';
		last = i;
		played++;
		if (watched && watch != NULL && watch(warg, p) != 0)
			watch = NULL;
	}
	run->ply = ply;
	run->played += played;
	run->last = last;
	if (watched)
		run->watch = watch;
	return i;
}

/* play_run over comments and NAGs too (the caller passes them over),
 * so that a game with a clock after every move is one run. */
static ZH_HOT_INLINE size_t
play_runs(struct zh_pos *p, const struct zh_token *toks, size_t i,
    size_t end, struct zh_rmove *moves, struct zh_run *run, const bool san,
    const bool uci, const bool watched)
{
	for (;;) {
		i = play_run(p, toks, i, end, moves, run, san, uci, watched);
		if (i >= end || (toks[i].kind != ZH_T_COMMENT &&
		    toks[i].kind != ZH_T_NAG))
			return i;
		i++;
	}
}

/* UCI alone, which no caller asks for: both, the SAN dropped. */
static size_t
drop_san(struct zh_rmove *moves, const struct zh_token *toks, size_t i,
    size_t k)
{
	size_t j;

	for (j = i; j < k; j++)
		if (toks[j].kind == ZH_T_MOVE)
			moves[j].san[0] = '\0';
	return k;
}

/* zh__play_run with a watch: its own copies, out of the unwatched path. */
static size_t
play_watched(struct zh_pos *p, const struct zh_token *toks, size_t i,
    size_t end, struct zh_rmove *moves, struct zh_run *run)
{
	if (run->san)
		return run->uci ? play_runs(p, toks, i, end, moves, run, true,
		    true, true) : play_runs(p, toks, i, end, moves, run, true,
		    false, true);
	if (!run->uci)
		return play_runs(p, toks, i, end, moves, run, false, false,
		    true);
	return drop_san(moves, toks, i, play_runs(p, toks, i, end, moves, run,
	    true, true, true));
}

size_t
zh__play_run(struct zh_pos *p, const struct zh_token *toks, size_t i,
    size_t end, struct zh_rmove *moves, struct zh_run *run)
{
	run->played = 0;
	if (!has_bb(p))
		return i;
	if (run->watch != NULL)
		return play_watched(p, toks, i, end, moves, run);
	if (run->san)
		return run->uci ? play_runs(p, toks, i, end, moves, run, true,
		    true, false) : play_runs(p, toks, i, end, moves, run, true,
		    false, false);
	if (!run->uci)
		return play_runs(p, toks, i, end, moves, run, false, false,
		    false);
	return drop_san(moves, toks, i, play_runs(p, toks, i, end, moves, run,
	    true, true, false));
}
