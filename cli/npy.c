/*
 * npy.c - zhreplay -F npy: positions as NumPy arrays (npy.h), in NumPy's
 * .npy format 1.0: the magic "\x93NUMPY", the version, the header's
 * length (2 bytes, little-endian), a Python dict literal ('descr': a
 * list of (name, dtype[, shape]) fields, 'fortran_order': False,
 * 'shape': (N,)) padded with spaces to a multiple of 64 bytes and ended
 * by a newline, then the N records, packed, little-endian.  N is
 * written last: the header keeps a fixed width for it.  Every field is
 * in zhkit-arrays(5).
 */
#define _GNU_SOURCE		/* fopencookie() */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "codec.h"
#include "memtab.h"
#include "npy.h"
#include "npyrec.h"
#include "parquet_write.h"
#include "tableset.h"
#include "tmpout.h"

/* ======================== the layouts ======================== */

/* The records' tables (npyrec.h), each ended by a NULL name.  A text
   field X of games.npy is "X_off" ("<i8"), then "X_len" ("<i4"): its
   bytes in strings.npy (-F parquet: a string column X, made by
   text_column()); fields_size() checks their place, GTEXT on. */
#define field npy_field
static const struct field pos_fields[] = {
	NPY_POS_FIELDS(NPY_FIELD) { NULL, NULL, NULL, 0, 0 }
};
static const struct field bug_fields[] = {
	NPY_BUG_FIELDS(NPY_FIELD) { NULL, NULL, NULL, 0, 0 }
};
static const struct field game_fields[] = {
	NPY_GAME_FIELDS(NPY_FIELD) { NULL, NULL, NULL, 0, 0 }
};
#define PREC	NPY_POS_SIZE
#define BREC	NPY_BUG_SIZE
#define GREC	NPY_GAME_SIZE
#define GTEXT	NPY_GAME_white_off	/* the first text field's offset */
#define NTEXT	7	/* text fields, 12 bytes each */

/* put_move() writes a move's fields from move_from on, in this order;
   a position's game is the first field of both tables; the text fields
   end the game's record, 12 bytes each */
_Static_assert(NPY_POS_uci - NPY_POS_move_from == 4 &&
    NPY_BUG_uci - NPY_BUG_move_from == 4 &&
    (int)NPY_POS_game == (int)NPY_BUG_game &&
    NPY_GAME_SIZE == NPY_GAME_white_off + 12 * NTEXT &&
    NPY_GAME_black_off == NPY_GAME_white_off + 12, "the layouts");

#define UNKNOWN32	INT32_MIN	/* a clock or eval not in the PGN */
#define NORESULT	(-128)		/* "*" */

/* strings.npy: a flat array of bytes ('|u1'), the games' text fields
   one after another (UTF-8 as in the PGN, no NUL) */
enum { T_POS, T_BUG, T_GAME, T_STR, NTABLES };
static const size_t recsize[NTABLES] = { PREC, BREC, GREC, 1 };

/* ======================== bytes ======================== */

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LE	1	/* a store of the integer is its little-endian bytes */
#else
#define LE	0
#endif

static void
le16(unsigned char *q, unsigned v)
{
	uint16_t x = (uint16_t)v;

	if (LE)
		memcpy(q, &x, 2);
	else {
		q[0] = (unsigned char)v;
		q[1] = (unsigned char)(v >> 8);
	}
}

static void
le32(unsigned char *q, uint32_t v)
{
	if (LE)
		memcpy(q, &v, 4);
	else {
		le16(q, v & 0xffff);
		le16(q + 2, v >> 16);
	}
}

static void
le64(unsigned char *q, uint64_t v)
{
	le32(q, (uint32_t)v);
	le32(q + 4, (uint32_t)(v >> 32));
}

static uint32_t
get32(const unsigned char *q)
{
	return (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 |
	    (uint32_t)q[3] << 24;
}

static uint64_t
get64(const unsigned char *q)
{
	return get32(q) | (uint64_t)get32(q + 4) << 32;
}

static unsigned
clamp16(unsigned v)
{
	return v > 65535 ? 65535 : v;
}

/* Text into a fixed field of n bytes: cut, NUL-padded (NumPy's S). */
static void
fixed(unsigned char *q, size_t n, const char *s)
{
	size_t k = s != NULL ? strnlen(s, n) : 0;

	memcpy(q, s != NULL ? s : "", k);
	memset(q + k, 0, n - k);
}

/* The game's date: its Date tag, else (none, or PGN's unknown
   ????.??.??, as a Lichess dataset's row is read) its UTCDate; NULL. */
static const char *
game_date(const struct zh_game *g)
{
	const char *d = zh_game_tag(g, "Date"), *u;

	if ((d == NULL || d[0] == '?') && (u = zh_game_tag(g, "UTCDate")) !=
	    NULL)
		return u;
	return d;
}

/* Room for n more bytes in w->buf: false if out of memory. */
static bool __attribute__((noinline))
grow(struct npy_rec *w, size_t n)
{
	size_t cap = w->cap ? w->cap * 2 : 16384;
	unsigned char *p;

	while (cap < w->len + n)
		cap *= 2;
	if ((p = realloc(w->buf, cap)) == NULL) {
		w->fail = true;
		return false;
	}
	w->buf = p;
	w->cap = cap;
	return true;
}

/* Room for a record of table t: its first byte returned (a game's
   zeroed; a position's fields are all set by its writer), or NULL when
   out of memory. */
static inline unsigned char *
add_record(struct npy_rec *w, int t)
{
	size_t n = recsize[t];
	unsigned char *p;

	if (w->len + n > w->cap && !grow(w, n))
		return NULL;
	p = w->buf + w->len;
	if (t == T_GAME)
		memset(p, 0, n);
	w->len += n;
	return p;
}

/* ======================== a game's record ======================== */

static int
elo(const struct zh_game *g, const char *tag, const char *alt)
{
	const char *s = zh_game_tag(g, tag);
	char *end;
	long v;

	if (s == NULL && alt != NULL)
		s = zh_game_tag(g, alt);
	if (s == NULL)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	return end == s || *end != '\0' || errno != 0 || v < 0 ||
	    v > 32767 ? -1 : (int)v;
}

/* TimeControl "base+inc" or "base" (seconds); else both unknown. */
static void
time_control(const struct zh_game *g, unsigned char *q)
{
	const char *s = zh_game_tag(g, "TimeControl");
	long base = -1, inc = -1;
	char *end;

	if (s != NULL && *s >= '0' && *s <= '9') {
		base = strtol(s, &end, 10);
		inc = 0;
		if (*end == '+' && end[1] >= '0' && end[1] <= '9')
			inc = strtol(end + 1, &end, 10);
		if (*end != '\0' || base > INT32_MAX || inc > INT32_MAX)
			base = inc = -1;
	}
	le32(q, (uint32_t)(int32_t)base);
	le32(q + (NPY_GAME_tc_inc - NPY_GAME_tc_base), (uint32_t)(int32_t)inc);
}

/* The game's id: its GameId, else a Link or Site that is a URL (one
   game's page: chess.com's Link, lichess's Site), else none. */
static const char *
game_id(const struct zh_game *g)
{
	const char *v = zh_game_tag(g, "GameId");

	if (v != NULL && *v != '\0')
		return v;
	if ((v = zh_game_tag(g, "Link")) != NULL && strstr(v, "://") != NULL)
		return v;
	if ((v = zh_game_tag(g, "Site")) != NULL && strstr(v, "://") != NULL)
		return v;
	return NULL;
}

/* The game's text fields (game_fields' order) after its record, whole:
   each one's offset among them and its length in the record (the sink
   adds where the game's strings begin in strings.npy). */
static void
put_texts(struct npy_rec *w, const struct zh_game *g)
{
	const char *s[NTEXT];
	size_t k, len, at = 0;
	unsigned char *q;

	s[0] = zh_game_tag(g, w->two ? "WhiteA" : "White");
	s[1] = zh_game_tag(g, w->two ? "BlackA" : "Black");
	if (w->two && s[0] == NULL)
		s[0] = zh_game_tag(g, "White");
	if (w->two && s[1] == NULL)
		s[1] = zh_game_tag(g, "Black");
	s[2] = w->two ? zh_game_tag(g, "WhiteB") : NULL;
	s[3] = w->two ? zh_game_tag(g, "BlackB") : NULL;
	s[4] = game_id(g);
	s[5] = zh_game_tag(g, "Site");
	s[6] = zh_game_tag(g, "Termination");
	for (k = 0; k < NTEXT; k++) {
		len = s[k] != NULL ? strlen(s[k]) : 0;
		if (len > INT32_MAX)	/* not a tag zh_game_tag() gives */
			w->fail = true;
		if (w->fail || (w->len + len > w->cap && !grow(w, len)))
			return;		/* w->fail: said by the caller */
		q = w->buf + GTEXT + 12 * k;	/* buf may have moved */
		le64(q, (uint64_t)at);
		le32(q + 8, (uint32_t)len);
		memcpy(w->buf + w->len, s[k] != NULL ? s[k] : "", len);
		w->len += len;
		at += len;
	}
}

/* 1: White won, -1: Black, 0: a draw, NORESULT: unknown. */
static signed char
result_code(const char *r)
{
	if (r == NULL)
		return NORESULT;
	if (strcmp(r, "1-0") == 0)
		return 1;
	if (strcmp(r, "0-1") == 0)
		return -1;
	if (strcmp(r, "1/2-1/2") == 0)
		return 0;
	return NORESULT;
}

void
npy_game_begin(struct npy_rec *w, const struct zh_game *g,
    const struct zh_replay *r)
{
	const struct zh_variant *v = r->v;
	unsigned char *q;
	int b;

	w->len = 0;
	w->nseen = 0;
	w->auxlen = 0;
	if (++w->gen == 0) {	/* the stamps are old again */
		if (w->slot != NULL)
			memset(w->slot, 0, w->nslot * sizeof *w->slot);
		w->gen = 1;
	}
	w->last = -1;
	w->records = 0;
	w->plies = 0;
	w->fail = false;
	w->two = v->boards >= 2;
	w->result = result_code(zh_replay_result(g, r));	/* a team's */
	w->rtext = NULL;
	w->rcode = NORESULT;
	for (b = 0; b < 4; b++)
		w->clock[b / 2][b % 2] = UNKNOWN32;
	if ((q = add_record(w, T_GAME)) == NULL)
		return;
	/* 0: game, 8: file and 24: first are the sink's */
	le32(q + NPY_GAME_number, (uint32_t)g->number);
	q[NPY_GAME_variant] = (unsigned char)(v - zh_variants);
	q[NPY_GAME_result] = (unsigned char)w->result;
	le64(q + NPY_GAME_line, (uint64_t)g->line);
	le16(q + NPY_GAME_elo, (unsigned)elo(g, w->two ? "WhiteAElo" :
	    "WhiteElo", "WhiteElo"));
	le16(q + NPY_GAME_elo + 2, (unsigned)elo(g, w->two ? "BlackAElo" :
	    "BlackElo", "BlackElo"));
	le16(q + NPY_GAME_elo + 4, (unsigned)(w->two ? elo(g, "WhiteBElo",
	    NULL) : -1));
	le16(q + NPY_GAME_elo + 6, (unsigned)(w->two ? elo(g, "BlackBElo",
	    NULL) : -1));
	time_control(g, q + NPY_GAME_tc_base);
	fixed(q + NPY_GAME_date, 10, game_date(g));
	put_texts(w, g);
}

void
npy_game_end(struct npy_rec *w)
{
	unsigned char *q = w->buf;

	if (w->fail || w->len == 0)
		return;
	le32(q + NPY_GAME_plies, (uint32_t)w->plies);
	le32(q + NPY_GAME_records, (uint32_t)w->records);
}

void
npy_rec_free(struct npy_rec *w)
{
	free(w->buf);
	free(w->seen);
	free(w->keys);
	free(w->locs);
	free(w->aux);
	free(w->slot);
	memset(w, 0, sizeof *w);
}

/* ======================== a position's record ======================== */

/* Room for position 'at', its n boards kept in seen (n 0: a one-board
   game's, whose record is kept where locs says): false if out of
   memory. */
static bool
seen_room(struct npy_rec *w, size_t at, size_t n)
{
	size_t cap;
	void *p;

	if (n > 0 && w->nseen + n > w->seencap) {
		cap = w->seencap ? w->seencap * 2 : 256;
		if ((p = realloc(w->seen, cap * sizeof *w->seen)) == NULL)
			goto fail;
		w->seen = p;
		w->seencap = cap;
	}
	if (at >= w->keycap) {
		cap = w->keycap ? w->keycap * 2 : 256;
		if ((p = realloc(w->keys, cap * sizeof *w->keys)) == NULL)
			goto fail;
		w->keys = p;
		if ((p = realloc(w->locs, cap * sizeof *w->locs)) == NULL)
			goto fail;
		w->locs = p;
		w->keycap = cap;
	}
	return true;
fail:
	w->fail = true;
	return false;
}

#define IN_AUX	(SIZE_MAX / 2 + 1)	/* a loc's flag: in aux */

/* One-board position i's record */
static const unsigned char *
rec_at(const struct npy_rec *w, size_t i)
{
	size_t l = w->locs[i];

	return (l & IN_AUX) ? w->aux + (l & ~IN_AUX) : w->buf + l;
}

/* Do two one-board records repeat each other: the same side, castling,
   en-passant square, pockets, promoted squares and board? */
static bool
same_rec(const unsigned char *a, const unsigned char *b)
{
	return memcmp(a + NPY_POS_side, b + NPY_POS_side, 3) == 0 &&
	    memcmp(a + NPY_POS_pockets, b + NPY_POS_pockets,
	    PREC - NPY_POS_pockets) == 0;
}

/* The slot of the position equal to r (n boards) with key 'key', or of
   the empty slot it would take. */
static struct npy_slot *
find_slot(const struct npy_rec *w, uint64_t key, const struct zh_posrec *r,
    size_t n)
{
	size_t i = (size_t)key & (w->nslot - 1), k;
	struct npy_slot *s;

	for (;; i = (i + 1) & (w->nslot - 1)) {
		s = &w->slot[i];
		if (s->gen != w->gen)
			return s;
		if (w->keys[s->pos] != key)
			continue;
		for (k = 0; k < n && zh_posrec_same(&w->seen[s->pos * n + k],
		    &r[k]); k++)
			;
		if (k == n)
			return s;
	}
}

/* Room for 'at' + 1 positions in the table, which is kept at most half
   full: false if out of memory. */
static bool
slot_room(struct npy_rec *w, size_t at)
{
	struct npy_slot *old = w->slot;
	size_t i, j, nold = w->nslot, cap = nold ? nold : 512;

	while (2 * (at + 1) > cap)
		cap *= 2;
	if (cap == nold)
		return true;
	if ((w->slot = calloc(cap, sizeof *w->slot)) == NULL) {
		w->slot = old;
		w->fail = true;
		return false;
	}
	w->nslot = cap;
	for (i = 0; i < nold; i++)	/* the game's positions again */
		if (old[i].gen == w->gen) {	/* all different */
			j = (size_t)w->keys[old[i].pos] & (cap - 1);
			while (w->slot[j].gen == w->gen)
				j = (j + 1) & (cap - 1);
			w->slot[j] = old[i];
		}
	free(old);
	return true;
}

/* The position of n boards r kept, its key 'key'; how many times it
   was seen before in the game. */
static int
repeats(struct npy_rec *w, const struct zh_posrec *r, size_t n,
    uint64_t key)
{
	size_t at = w->nseen / n;
	struct npy_slot *s;
	uint32_t count;

	if (!seen_room(w, at, n) || !slot_room(w, at))
		return 0;
	memcpy(w->seen + w->nseen, r, n * sizeof *r);
	w->nseen += n;
	w->keys[at] = key;
	s = find_slot(w, key, r, n);
	if (s->gen != w->gen)
		*s = (struct npy_slot){ w->gen, (uint32_t)at, 0 };
	count = s->count++;
	return count > 255 ? 255 : (int)count;
}

/* repeats() of a one-board position, its key 'key', its record rec at
   offset 'off' of buf (found again by locs). */
static inline int
repeats1(struct npy_rec *w, uint64_t key, const unsigned char *rec,
    size_t off)
{
	size_t at = w->nseen, i;
	struct npy_slot *s;
	uint32_t count;

	if ((at >= w->keycap && !seen_room(w, at, 0)) ||
	    (2 * (at + 1) > w->nslot && !slot_room(w, at)))
		return 0;
	w->nseen++;
	w->keys[at] = key;
	w->locs[at] = off;
	for (i = (size_t)key & (w->nslot - 1);; i = (i + 1) & (w->nslot - 1)) {
		s = &w->slot[i];
		if (s->gen != w->gen) {		/* the first time */
			*s = (struct npy_slot){ w->gen, (uint32_t)at, 1 };
			return 0;
		}
		if (w->keys[s->pos] == key && same_rec(rec_at(w, s->pos), rec))
			break;
	}
	count = s->count++;
	return count > 255 ? 255 : (int)count;
}

/* The one-board record at q (offset 'off' of buf), the last position,
   not written: kept in aux for the repetitions; false if out of
   memory. */
static bool
keep_aside(struct npy_rec *w, const unsigned char *q, size_t off)
{
	size_t at = w->nseen - 1, cap;
	unsigned char *p;

	if (w->auxlen + PREC > w->auxcap) {
		cap = w->auxcap ? w->auxcap * 2 : 16 * PREC;
		if ((p = realloc(w->aux, cap)) == NULL) {
			w->fail = true;
			return false;
		}
		w->aux = p;
		w->auxcap = cap;
	}
	memcpy(w->aux + w->auxlen, q, PREC);
	if (w->locs[at] == off)		/* it is the last */
		w->locs[at] = w->auxlen | IN_AUX;
	w->auxlen += PREC;
	return true;
}

/* zh_posrec_square(), inline: the record's index of square s */
static inline unsigned char
rec_square(int s)
{
	int f = ZH_FILE(s), r = ZH_RANK(s);

	return (unsigned char)(s == ZH_NOSQ || (unsigned)f >= ZH_MAXFILES ||
	    (unsigned)r >= ZH_MAXRANKS ? ZH_REC_NOSQ : r * 10 + f);
}

/* Square s's name at q ("e4", "a10"): past it returned. */
static unsigned char *
uci_square(unsigned char *q, int s)
{
	int r = ZH_RANK(s);

	*q++ = (unsigned char)('a' + ZH_FILE(s));
	if (r == 9) {
		*q++ = '1';
		*q++ = '0';
	} else
		*q++ = (unsigned char)('1' + r);
	return q;
}

/* The move m's UCI text, as zh_uci_write() writes it, at q (8 bytes,
   zeroed). */
static void
put_uci(unsigned char *q, const struct zh_move *m)
{
	if (m->flags & ZH_MNULL) {
		memcpy(q, "0000", 4);
		return;
	}
	if (m->flags & ZH_MDROP) {
		*q++ = (unsigned char)zh_type_letter(m->piece);
		*q++ = '@';
		uci_square(q, m->to);
		return;
	}
	q = uci_square(uci_square(q, m->from), m->to);
	if (m->flags & ZH_MPROMO)
		*q = (unsigned char)(zh_type_letter(m->piece) - 'A' + 'a');
}

/* put_move() of any move */
static void __attribute__((noinline))
put_any_move(unsigned char *q, const struct zh_move *m, const char *uci)
{
	int k;

	q[0] = (unsigned char)((m->flags & (ZH_MDROP | ZH_MNULL)) ?
	    ZH_REC_NOSQ : rec_square(m->from));
	q[1] = (unsigned char)((m->flags & ZH_MNULL) ? ZH_REC_NOSQ :
	    rec_square(m->to));
	q[2] = (m->flags & ZH_MDROP) ? m->piece : 0;
	q[3] = (m->flags & ZH_MPROMO) ? m->piece : 0;
	if (uci == NULL)
		put_uci(q + 4, m);
	for (k = 0; uci != NULL && k < 8 && uci[k] != '\0'; k++)
		q[4 + k] = (unsigned char)uci[k];
}

/* The move m (its UCI text uci; NULL: from m) into the fields at q
   (the text's zeroed): from, to, drop, promotion, the UCI text. */
static inline void
put_move(unsigned char *q, const struct zh_move *m, const char *uci)
{
	unsigned ff = (unsigned)ZH_FILE(m->from), fr = (unsigned)ZH_RANK(m->from),
	    tf = (unsigned)ZH_FILE(m->to), tr = (unsigned)ZH_RANK(m->to);

	/* a plain move between squares of one-digit ranks: most */
	if (uci != NULL || (m->flags & (ZH_MDROP | ZH_MNULL | ZH_MPROMO)) ||
	    ff >= ZH_MAXFILES || tf >= ZH_MAXFILES || fr >= 9 || tr >= 9) {
		put_any_move(q, m, uci);
		return;
	}
	q[0] = (unsigned char)(fr * 10 + ff);
	q[1] = (unsigned char)(tr * 10 + tf);
	q[2] = q[3] = 0;
	q[4] = (unsigned char)('a' + ff);
	q[5] = (unsigned char)('1' + fr);
	q[6] = (unsigned char)('a' + tf);
	q[7] = (unsigned char)('1' + tr);
}

/* A side's result from White's: the other side's is its negation. */
static signed char
view(signed char white, int side)
{
	return white == NORESULT || side == ZH_WHITE ? white :
	    (signed char)-white;
}

static void
put_board(unsigned char *board, unsigned char *promoted,
    unsigned char *pockets, const struct zh_posrec *r)
{
	memcpy(board, r->board, ZH_REC_SQUARES);
	memcpy(promoted, r->promoted, ZH_REC_PROMOTED);
	memcpy(pockets, r->pocket, 16);
}

static int32_t
msec(double s)
{
	double ms = s * 1000;

	/* whole milliseconds (a clock of whole seconds): as they are */
	if (ms > -1e9 && ms < 1e9 && (double)(int32_t)ms == ms)
		return (int32_t)ms;
	ms = floor(ms + 0.5);

	return ms >= INT32_MAX || ms <= INT32_MIN ? UNKNOWN32 : (int32_t)ms;
}

/* A one-board position's fields a repetition compares and whether it
   is in check (m: the move that led to it, NULL at the start), into
   the record at q (offset 'off' of buf); how many times it was seen
   before. */
static int
put_position(struct npy_rec *w, unsigned char *q, size_t off,
    const struct zh_pos *p, const struct zh_rmove *m)
{
	uint64_t key;

	q[NPY_POS_side] = p->side;
	q[NPY_POS_castling] = p->castle;
	q[NPY_POS_ep] = p->ep != ZH_NOSQ && zh_ep_legal(p) ?
	    rec_square(p->ep) : ZH_REC_NOSQ;
	q[NPY_POS_check] = m != NULL && m->check != 0 ? m->check == 2 :
	    zh_in_check(p);
	key = zh_posrec_put(p, q + NPY_POS_board, q + NPY_POS_promoted,
	    q + NPY_POS_pockets, q[NPY_POS_ep]);
	return repeats1(w, key, q, off);
}

int
npy_ply(struct npy_rec *w, const struct zh_ply *pl,
    const struct zh_plysel *sel)
{
	const struct zh_pos *p = pl->pos;
	unsigned char *q;
	size_t off;
	int rep;

	if (pl->line != 0 || pl->prefix || w->fail)
		return w->fail ? -1 : 0;
	/* made in place: taken back below if sel does not take it */
	if ((q = add_record(w, T_POS)) == NULL)
		return -1;
	off = (size_t)(q - w->buf);
	rep = put_position(w, q, off, p, pl->move);
	if (w->fail)
		return -1;
	w->plies = pl->ply;
	if (pl->move != NULL && w->last >= 0)	/* the move from there */
		put_move(w->buf + w->last + NPY_POS_move_from, &pl->move->move,
		    NULL);
	if (pl->has_clock)	/* the mover's */
		w->clock[0][p->side ^ 1] = msec(pl->clock);
	w->last = -1;
	if (!zh_plysel_match(sel, pl)) {
		w->len -= PREC;
		return keep_aside(w, q, off) ? 0 : -1;
	}
	w->last = (long)off;
	/* game (the sink's), the move's (the next's) */
	memset(q, 0, NPY_POS_side);
	le32(q + NPY_POS_ply, (uint32_t)pl->ply);
	q[NPY_POS_variant] = (unsigned char)(p->v - zh_variants);
	q[NPY_POS_final] = pl->last;
	q[NPY_POS_move_from] = q[NPY_POS_move_to] = ZH_REC_NOSQ;
	q[NPY_POS_repetition] = (unsigned char)rep;
	if (pl->result != w->rtext) {	/* the same text all the game */
		w->rtext = pl->result;
		w->rcode = result_code(pl->result);
	}
	q[NPY_POS_result] = (unsigned char)view(w->rcode, p->side);
	le16(q + NPY_POS_halfmove, clamp16(p->halfmove));
	le16(q + NPY_POS_fullmove, clamp16(p->fullmove));
	le32(q + NPY_POS_clock, (uint32_t)w->clock[0][0]);
	le32(q + NPY_POS_clock + 4, (uint32_t)w->clock[0][1]);
	le32(q + NPY_POS_cp, (uint32_t)(pl->has_eval && pl->mate == 0 ?
	    (int32_t)floor(pl->eval * 100 + 0.5) : UNKNOWN32));
	le16(q + NPY_POS_mate, (unsigned)(pl->has_eval ? pl->mate : 0));
	w->records++;
	return 0;
}

/* A two-board position: all its two-board fields at q. */
static void
put_bboards(unsigned char *q, const struct zh_posrec *r, signed char white,
    const int clock[2][2])
{
	int b;

	for (b = 0; b < 2; b++) {
		q[NPY_BUG_side + b] = r[b].side;
		q[NPY_BUG_castling + b] = r[b].castle;
		q[NPY_BUG_ep + b] = r[b].ep;
		q[NPY_BUG_check + b] = r[b].check;
		/* board B's White is the partner of board A's Black */
		q[NPY_BUG_result + b] = (unsigned char)view(b == 0 ? white :
		    view(white, ZH_BLACK), r[b].side);
		le16(q + NPY_BUG_halfmove + 2 * b, clamp16(r[b].halfmove));
		le16(q + NPY_BUG_fullmove + 2 * b, clamp16(r[b].fullmove));
		le32(q + NPY_BUG_clock + 8 * b, (uint32_t)clock[b][0]);
		le32(q + NPY_BUG_clock + 4 + 8 * b, (uint32_t)clock[b][1]);
		put_board(q + NPY_BUG_board + ZH_REC_SQUARES * b,
		    q + NPY_BUG_promoted + ZH_REC_PROMOTED * b,
		    q + NPY_BUG_pockets + 16 * b, &r[b]);
	}
}

int
npy_bply(struct npy_rec *w, const struct zh_bply *pl,
    const struct zh_plysel *sel)
{
	struct zh_posrec r[2];
	const struct zh_bmove *m = pl->move;
	unsigned char *q;
	int rep;

	if (w->fail)
		return -1;
	zh_posrec_fill(&r[0], pl->pos[0], -1);
	zh_posrec_fill(&r[1], pl->pos[1], -1);
	rep = repeats(w, r, 2, r[0].key);
	w->plies = pl->index;
	if (m != NULL && w->last >= 0) {
		w->buf[w->last + NPY_BUG_move_board] = m->board;
		put_move(w->buf + w->last + NPY_BUG_move_from, &m->rm.move,
		    m->rm.uci);
	}
	if (m != NULL && m->has_clock)
		w->clock[m->board & 1][m->side & 1] = msec(m->clock);
	w->last = -1;
	if (!zh_bply_match(sel, pl))
		return 0;
	w->last = (long)w->len;
	if ((q = add_record(w, T_BUG)) == NULL)
		return -1;
	/* game (the sink's), the move's (the next's) */
	memset(q, 0, NPY_BUG_repetition);
	le32(q + NPY_BUG_ply, (uint32_t)pl->index);
	q[NPY_BUG_variant] = (unsigned char)(pl->pos[0]->v - zh_variants);
	q[NPY_BUG_final] = pl->last;
	q[NPY_BUG_move_board] = q[NPY_BUG_move_from] = q[NPY_BUG_move_to] =
	    ZH_REC_NOSQ;
	q[NPY_BUG_repetition] = (unsigned char)rep;
	put_bboards(q, r, w->result, (const int (*)[2])w->clock);
	w->records++;
	return 0;
}

/* ======================== the tables ======================== */

#define SHAPEW	20	/* digits kept for N in a header */

#define TBUF	(1 << 20)	/* records kept before a write */

/* A record's bytes at most (the in-memory tables' scrap). */
#define SCRAP	1024
_Static_assert(PREC <= SCRAP && BREC <= SCRAP && GREC <= SCRAP, "scrap");

struct table {
	FILE *f;		/* written by the writer thread once begun */
	char *path, *tmp;	/* DIR/name, its temporary (tmpout.h) */
	unsigned char *buf;	/* TBUF bytes, being filled (in memory:
				   cap bytes, the whole table: mt's) */
	size_t len, cap;
	size_t lim;		/* filled to here: flush_table() (in
				   memory: mt's room, maybe its pages
				   faulted in ahead; else cap) */
	struct memtab mt;	/* in memory: the table */
	unsigned char *spare;	/* TBUF bytes, free (NULL: being written) */
	unsigned char *pend;	/* a full buffer for the writer, or NULL */
	size_t plen;
	uint64_t n;		/* records written */
	const struct field *fields;
	const char *name;
	size_t hlen;		/* the header's bytes */
	struct pqw *pq;		/* -F parquet: the table's writer */
	size_t rsize;		/* a record's bytes */
};

struct npy {
	char *dir;
	const char *codec;		/* -F parquet's, or NULL: npy */
	int level;			/* its level (0: the writer's default) */
	struct table t[NTABLES];
	FILE *sink;
	unsigned char stage[BREC];	/* the record being received */
	size_t have;			/* its bytes */
	int k;				/* the table of the game's records */
	uint64_t left;			/* records of the game to come */
	uint64_t sleft;			/* bytes of its strings to come
					   (before its records) */
	uint64_t game;			/* games received */
	char **files;			/* the inputs' names */
	size_t nfiles;
	bool failed;			/* a write failed (said at close) */
	int err;
	/* the writer thread: each table's full buffer written while the
	   next one is filled (write-behind, as codec.c reads ahead) */
	pthread_t wth;
	bool wrun;			/* started */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool stop;			/* no more buffers: end */
	int werr;			/* the writer's first error (errno) */
	bool mem;			/* npy_open_mem(): no files */
	struct tset *set;		/* the tables replaced as one */
	char *shown[NTABLES + 1];	/* DIR/name, for messages */
	int nshown;
	void (*on_game)(void *, struct npy *);	/* npy_on_game() */
	void *on_game_arg;
	struct memtab_faulter *fa;	/* in memory: the tables' pages
					   faulted in ahead (memtab.h) */
	bool fa_tried;			/* made, or could not be */
	unsigned char scrap[SCRAP];	/* in memory, out of memory: the
					   records go here, lost */
};

/* The header of n records of 'fields' (or of one field's dtype 'type'
   if fields is NULL) into buf[size]: its length, 0 if it does not fit. */
static size_t
header(char *buf, size_t size, const struct field *fields, const char *type,
    uint64_t n)
{
	size_t len = 10, total;
	int k;

	if (fields == NULL)
		len += (size_t)snprintf(buf + 10, size - 10, "{'descr': '%s', ",
		    type);
	else {
		len += (size_t)snprintf(buf + 10, size - 10, "{'descr': [");
		for (k = 0; fields[k].name != NULL && len < size; k++)
			len += (size_t)snprintf(buf + len, size - len,
			    "%s('%s', '%s'%s%s)", k ? ", " : "", fields[k].name,
			    fields[k].type, fields[k].shape ? ", " : "",
			    fields[k].shape ? fields[k].shape : "");
		if (len < size)
			len += (size_t)snprintf(buf + len, size - len, "], ");
	}
	if (len < size)
		len += (size_t)snprintf(buf + len, size - len,
		    "'fortran_order': False, 'shape': (%*llu,), }", SHAPEW,
		    (unsigned long long)n);
	total = (len + 1 + 63) / 64 * 64;
	if (total > size || total - 10 > 65535)
		return 0;
	memset(buf + len, ' ', total - len - 1);
	buf[total - 1] = '\n';
	memcpy(buf, "\x93NUMPY\x01\x00", 8);
	le16((unsigned char *)buf + 8, (unsigned)(total - 10));
	return total;
}

/* The bytes of a record of 'fields': the layout's own check (0 if a
   text field is not where npy_game_begin() and the sink put it). */
static size_t
fields_size(const struct field *f)
{
	size_t total = 0, n, texts = 0, len;
	const char *s;
	int k;

	if (f == NULL)		/* strings.npy: bytes */
		return 1;
	for (k = 0; f[k].name != NULL; k++) {
		len = strlen(f[k].name);
		if (len > 4 && strcmp(f[k].name + len - 4, "_off") == 0 &&
		    total != GTEXT + 12 * texts++)
			return 0;
		n = (size_t)atoi(f[k].type + 2);
		for (s = f[k].shape; s != NULL && *s != '\0'; s++)
			if (*s >= '0' && *s <= '9') {
				n *= (size_t)strtoul(s, (char **)&s, 10);
				s--;
			}
		total += n;
	}
	return texts == 0 || texts == NTEXT ? total : 0;
}

static int
put_header(struct table *t)
{
	char h[4096];

	if (t->pq != NULL)	/* Parquet's is a footer */
		return 0;
	t->hlen = header(h, sizeof h, t->fields, t->fields ? NULL : "|u1",
	    t->n);
	return t->hlen > 0 && fwrite(h, 1, t->hlen, t->f) == t->hlen ? 0 : -1;
}

/* D/name */
static char *
path_of(const char *d, const char *name)
{
	size_t k = strlen(d) + strlen(name) + 2;
	char *p = malloc(k);

	if (p != NULL)
		snprintf(p, k, "%s/%s", d, name);
	return p;
}

/* DIR/name begun under a temporary name in the new set's directory
   (tableset.h; tmpout.h: renamed by done(), removed by an interrupt),
   unbuffered if 'whole' (a table: its writes are large); its path and
   temporary in *path and *tmp.  The older set is left as it is until
   the switch, whole, for a reader that has it open or mapped. */
static FILE *
create(struct npy *n, const char *name, bool whole, char **path,
    char **tmp)
{
	char *p = path_of(n->dir, name);	/* said: DIR/name */
	char *real = p != NULL ? path_of(tset_dir(n->set), name) : NULL;
	const char *in = p != NULL ? cli_input_named(p) : NULL;
	FILE *f;
	int fd, e;

	*tmp = NULL;
	if (in != NULL) {	/* replaced at the end: never an input */
		cli_fail("%s: cannot write: it is the input %s", p, in);
		free(p);
		free(real);
		return NULL;
	}
	if (p != NULL && real != NULL)	/* kept for tmpout's messages */
		n->shown[n->nshown++] = p;
	fd = real != NULL ? tmpout_create(real, -1, p, tmp) : -1;
	e = real != NULL ? errno : ENOMEM;
	f = fd >= 0 ? fdopen(fd, "wb") : NULL;
	if (f == NULL && fd >= 0) {
		close(fd);
		tmpout_drop(*tmp, NULL);
		free(*tmp);
		*tmp = NULL;
		e = ENOMEM;
	}
	if (f == NULL) {
		cli_fail("%s: %s", p != NULL ? p : name, strerror(e));
		if (real == NULL)
			free(p);
		free(real);
		return NULL;
	}
	if (whole)	/* the tables' own buffers, written whole */
		setvbuf(f, NULL, _IONBF, 0);
	*path = real;
	return f;
}

/* A file begun by create() renamed over its name (ok) or removed; its
   names freed.  0, or -1 with errno. */
static int
done(char **path, char **tmp, bool ok)
{
	int rc = 0;

	if (*tmp != NULL) {
		if (!ok)
			tmpout_drop(*tmp, NULL);
		else if (tmpout_commit(*tmp, *path) != 0)
			rc = -1;
	}
	free(*tmp);
	free(*path);
	*tmp = *path = NULL;
	return rc;
}

/* len bytes of a table's records written: 0, or -1 (errno). */
static int
table_write(struct table *t, const unsigned char *b, size_t len)
{
	if (t->pq != NULL)
		return pqw_rows(t->pq, b, len / t->rsize);
	return fwrite(b, 1, len, t->f) == len ? 0 : -1;
}

/* -F parquet: the games' records buffered in t as rows, each text field
   a string of the strings table's buffer (the games' strings, the
   table's bytes from s->n - s->len on; a game's one after another from
   its first field's), which is emptied: 0, or -1 (errno).  Written by
   the stream's thread, not the writer's: the games' table is small. */
static int
games_pq(struct npy *n, struct table *t)
{
	struct table *s = &n->t[T_STR];
	uint64_t base = s->n - s->len, at, off;
	unsigned char rec[GREC], *f;
	size_t i, k, total;
	uint32_t len;

	for (i = 0; i + GREC <= t->len; i += GREC) {
		memcpy(rec, t->buf + i, GREC);
		at = get64(rec + GTEXT) - base;	/* the game's strings */
		for (k = 0, total = 0; k < NTEXT; k++) {
			f = rec + GTEXT + 12 * k;
			off = get64(f) - base - at;
			len = get32(f + 8);
			if (at > s->len || off != total || len > s->len - at -
			    total) {
				errno = EOVERFLOW;	/* not as put() made */
				return -1;
			}
			le32(f, (uint32_t)off);		/* PQW_STR's */
			le32(f + 4, len);
			total += len;
		}
		if (pqw_row(t->pq, rec, s->buf + at, total) != 0)
			return -1;
	}
	s->len = 0;
	return 0;
}

/* In memory: the tables' pages are faulted in ahead by a helper thread
   once one of them is past this many bytes, or is guessed to be. */
#define FAULT_FROM	((size_t)1 << 20)

/* In memory: room for need more bytes in t, which grows without a copy,
   its pages faulted in ahead of the writes (memtab.h); the table is
   lost (said at the end) if memory runs out. */
static void
mem_room(struct npy *n, struct table *t, size_t need)
{
	size_t lim;

	if (!n->fa_tried && (t->len + need > FAULT_FROM || t->mt.hint >
	    FAULT_FROM)) {
		n->fa = memtab_faulter_new();	/* NULL: the pages are
						   faulted in by the writes */
		n->fa_tried = true;
	}
	if (n->failed || (lim = memtab_room(&t->mt, t->len, need,
	    n->fa)) == 0) {
		if (!n->failed) {
			n->failed = true;
			n->err = ENOMEM;
		}
		t->len = 0;	/* the tables are lost (npy_mem_failed) */
		t->buf = n->scrap;
		t->cap = t->lim = sizeof n->scrap;
		return;
	}
	t->buf = t->mt.p;
	t->cap = t->mt.size;
	/* the helper made once a table is past FAULT_FROM */
	t->lim = !n->fa_tried && lim > FAULT_FROM ? (t->len + need >
	    FAULT_FROM ? t->len + need : FAULT_FROM) : lim;
}

/* A table's buffered records handed to the writer thread (written at
   once if it is not running), the spare buffer taken for the next. */
static void
flush_table(struct npy *n, struct table *t)
{
	if (n->mem) {		/* the table grows: nothing written */
		mem_room(n, t, t->rsize);
		return;
	}
	if (n->codec != NULL && t == &n->t[T_STR])
		return;		/* the games' heap, emptied by games_pq() */
	if (n->codec != NULL && t == &n->t[T_GAME]) {	/* by this thread */
		if (games_pq(n, t) != 0 && !n->failed) {
			n->failed = true;
			n->err = errno ? errno : EIO;
		}
		t->len = 0;
		return;
	}
	if (t->len == 0)
		return;
	if (!n->wrun) {
		if (table_write(t, t->buf, t->len) != 0 && !n->failed) {
			n->failed = true;
			n->err = errno;
		}
		t->len = 0;
		return;
	}
	pthread_mutex_lock(&n->mu);
	while (t->pend != NULL)
		pthread_cond_wait(&n->cv, &n->mu);
	t->pend = t->buf;
	t->plen = t->len;
	t->buf = t->spare;
	t->spare = NULL;
	pthread_cond_broadcast(&n->cv);
	pthread_mutex_unlock(&n->mu);
	t->len = 0;
}

/* The writer thread: every full buffer written to its table in the
   order given (one at a time a table), until told to stop. */
static void *
writer(void *arg)
{
	struct npy *n = arg;
	struct table *t;
	unsigned char *b;
	size_t len;
	int k;

	pthread_mutex_lock(&n->mu);
	for (;;) {
		for (k = 0; k < NTABLES && n->t[k].pend == NULL; k++)
			;
		if (k == NTABLES) {
			if (n->stop)
				break;
			pthread_cond_wait(&n->cv, &n->mu);
			continue;
		}
		t = &n->t[k];
		b = t->pend;
		len = t->plen;
		pthread_mutex_unlock(&n->mu);
		if (table_write(t, b, len) != 0 && n->werr == 0)
			n->werr = errno ? errno : EIO;
		pthread_mutex_lock(&n->mu);
		t->spare = b;
		t->pend = NULL;
		pthread_cond_broadcast(&n->cv);
	}
	pthread_mutex_unlock(&n->mu);
	return NULL;
}

/* The writer thread ended, every buffer it had written; its error the
   run's. */
static void
writer_end(struct npy *n)
{
	if (!n->wrun)
		return;
	pthread_mutex_lock(&n->mu);
	n->stop = true;
	pthread_cond_broadcast(&n->cv);
	pthread_mutex_unlock(&n->mu);
	pthread_join(n->wth, NULL);
	pthread_mutex_destroy(&n->mu);
	pthread_cond_destroy(&n->cv);
	n->wrun = false;
	if (n->werr != 0 && !n->failed) {
		n->failed = true;
		n->err = n->werr;
	}
}

/* The table of a game's records: the one for its variant's boards. */
static int
records_table(const unsigned char *game)
{
	return game[NPY_GAME_variant] < zh_nvariants &&
	    zh_variants[game[NPY_GAME_variant]].boards >= 2 ?
	    T_BUG : T_POS;
}

/* The record at src of table k: into its table's buffer, numbered there
   (a game gets the next game's row, its input and its first record; a
   position its game's row). */
static void
put(struct npy *n, int k, const unsigned char *src)
{
	struct table *t = &n->t[k];
	unsigned char *q, *f;
	size_t i;

	/* -F parquet: the games written before their strings (the heap
	   games_pq() takes) pass a buffer's worth */
	if (t->len + recsize[k] > t->lim || (k == T_GAME && n->codec != NULL &&
	    n->t[T_STR].len >= TBUF))
		flush_table(n, t);
	q = t->buf + t->len;
	memcpy(q, src, recsize[k]);
	t->len += recsize[k];
	t->n++;
	if (k == T_GAME) {
		le32(q, (uint32_t)n->game++);
		le16(q + NPY_GAME_file, n->nfiles > 0 ?
		    (unsigned)(n->nfiles - 1) : 0);
		le64(q + NPY_GAME_first, n->t[records_table(q)].n);
		for (i = 0; i < NTEXT; i++) {	/* where they will be */
			f = q + GTEXT + 12 * i;
			le64(f, get64(f) + n->t[T_STR].n);
		}
	} else
		le32(q, (uint32_t)(n->game - 1));
}

/* Whole record 'rec' of the table the stream is at: sent. */
static void
got(struct npy *n, const unsigned char *rec)
{
	size_t i;

	if (n->left == 0) {		/* a game: its records follow */
		if (n->on_game != NULL)
			n->on_game(n->on_game_arg, n);
		put(n, T_GAME, rec);
		n->k = records_table(rec);
		for (i = 0; i < NTEXT; i++)
			n->sleft += get32(rec + GTEXT + 12 * i + 8);
		n->left = get32(rec + NPY_GAME_records);
		return;
	}
	put(n, n->k, rec);
	n->left--;
}

/* Up to c whole records at p of the game's table into its buffer at
   once, numbered; how many were taken (at least one). */
static size_t
put_records(struct npy *n, const unsigned char *p, size_t c)
{
	struct table *t = &n->t[n->k];
	size_t size = recsize[n->k], i, room;
	unsigned char *q;

	if (t->len + size > t->lim)
		flush_table(n, t);
	room = (t->cap - t->len) / size;
	if (c > room)
		c = room;
	q = t->buf + t->len;
	for (i = 0; i < c; i++) {	/* one by one: no "rep movsb" */
		memcpy(q + i * size, p + i * size, size);
		le32(q + i * size, (uint32_t)(n->game - 1));
	}
	t->len += c * size;
	t->n += c;
	n->left -= c;
	return c;
}

/* c bytes of a game's strings at p: into the strings table (-F parquet:
   kept until the games' rows are written, the buffer grown). */
static void
put_strings(struct npy *n, const unsigned char *p, size_t c)
{
	struct table *t = &n->t[T_STR];
	size_t room, cap;
	unsigned char *b;

	t->n += c;
	while (c > 0) {
		if (t->len >= t->lim && n->codec == NULL)
			flush_table(n, t);
		else if (t->len == t->cap) {
			cap = t->cap * 2 > t->len + c ? t->cap * 2 : t->len + c;
			if ((b = realloc(t->buf, cap)) == NULL) {
				if (!n->failed) {
					n->failed = true;
					n->err = ENOMEM;
				}
				t->len = 0;	/* lost, said at the end */
			} else {
				t->buf = b;
				t->cap = t->lim = cap;
			}
		}
		room = t->cap - t->len < c ? t->cap - t->len : c;
		memcpy(t->buf + t->len, p, room);
		t->len += room;
		p += room;
		c -= room;
	}
}

/* The games' output, in input order: each game's record, then its
   records (as many as it says, of the table its variant says); a
   record cut between two writes is kept in 'stage'. */
static ssize_t
sink_write(void *cookie, const char *buf, size_t size)
{
	struct npy *n = cookie;
	const unsigned char *p = (const unsigned char *)buf;
	size_t left = size, take, need, c;

	while (left > 0) {
		if (n->sleft > 0) {	/* the game's strings */
			c = left < n->sleft ? left : (size_t)n->sleft;
			put_strings(n, p, c);
			p += c;
			left -= c;
			n->sleft -= c;
			continue;
		}
		need = recsize[n->left > 0 ? n->k : T_GAME];
		if (n->have == 0 && left >= need) {	/* whole: no copy */
			if (n->left == 0) {
				got(n, p);
				c = 1;
			} else
				c = put_records(n, p, left / need <
				    n->left ? left / need : (size_t)n->left);
			p += c * need;
			left -= c * need;
			continue;
		}
		take = need - n->have < left ? need - n->have : left;
		memcpy(n->stage + n->have, p, take);
		n->have += take;
		p += take;
		left -= take;
		if (n->have == need) {
			got(n, n->stage);
			n->have = 0;
		}
	}
	return (ssize_t)size;
}

static const cookie_io_functions_t sink_io = { .write = sink_write };
static const char *const names[NTABLES] = { "positions.npy",
    "bughouse.npy", "games.npy", "strings.npy" };
static const struct field *const fields[NTABLES] = { pos_fields,
    bug_fields, game_fields, NULL };

struct npy *
npy_open(const char *dir)
{
	return npy_open_as(dir, NULL);
}

/* If fl[i] is a text field's offset (TEXT()), the text's string column
   (PQW_STR: games_pq() makes its 8 bytes the offset and the length in
   the games' heap): the offset's and length's bytes; else 0. */
static size_t
text_column(struct pqw *pq, const struct field *fl, int i, size_t off)
{
	const char *name = fl[i].name;
	size_t k = strlen(name);
	char col[64];

	if (k < 4 || k - 4 >= sizeof col || strcmp(name + k - 4, "_off") != 0 ||
	    strcmp(fl[i].type, "<i8") != 0 || fl[i + 1].name == NULL ||
	    strcmp(fl[i + 1].type, "<i4") != 0 ||
	    strncmp(fl[i + 1].name, name, k - 4) != 0 ||
	    strcmp(fl[i + 1].name + k - 4, "_len") != 0)
		return 0;
	memcpy(col, name, k - 4);
	col[k - 4] = '\0';
	return pqw_column(pq, col, PQW_STR, off, 8) == 0 ? 12 : 0;
}

/* Table k's Parquet writer (pq.c's columns from the npy layout): 0, or
   -1 (said). */
static int
pq_table(struct npy *n, int k, const struct field *fl)
{
	struct table *t = &n->t[k];
	size_t off = 0, sz;
	int i;

	const char *rows = getenv("ZHKIT_PARQUET_ROW_GROUP");

	if ((t->pq = pqw_new(recsize[k], n->codec, n->level)) == NULL ||
	    (rows != NULL && atol(rows) > 0 &&
	    pqw_group_rows(t->pq, (size_t)atol(rows)) != 0)) {
		cli_fail("out of memory");
		return -1;
	}
	for (i = 0; fl[i].name != NULL; i++, off += sz)
		if ((sz = text_column(t->pq, fl, i, off)) > 0)
			i++;	/* the text's length: in its column */
		else if ((sz = pqw_npy_field(t->pq, fl[i].name, fl[i].type,
		    fl[i].shape, off, k != T_POS)) == 0) {
			cli_fail("internal error: %s: field %s", t->name,
			    fl[i].name);
			return -1;
		}
	if (pqw_begin(t->pq, t->f) != 0) {
		cli_fail("%s/%s: write error: %s", n->dir, t->name,
		    strerror(errno));
		return -1;
	}
	return 0;
}

/* The four tables of DIR as one set (tableset.h): checked, the new
   set's directory made.  NULL after a message. */
static struct tset *
open_set(const char *dir, bool pq, const char *const *tnames)
{
	const char *all[NTABLES + 1];
	int k, n = 0;

	for (k = 0; k < NTABLES; k++)
		if (tnames[k] != NULL)	/* Parquet's strings have no file */
			all[n++] = tnames[k];
	all[n++] = pq ? "files.parquet" : "files.npy";
	return tset_open(dir, pq ? "parquet" : "npy", all, n);
}

static void
free_shown(struct npy *n)
{
	while (n->nshown > 0)
		free(n->shown[--n->nshown]);
}

struct npy *
npy_open_as(const char *dir, const char *codec)
{
	static const char *const pq_names[NTABLES] = { "positions.parquet",
	    "bughouse.parquet", "games.parquet", NULL };
	const char *const *tnames = codec != NULL ? pq_names : names;
	struct npy *n = calloc(1, sizeof *n);
	struct stat st;
	int k;

	if (n == NULL || (n->dir = strdup(dir)) == NULL) {
		cli_fail("out of memory");
		free(n);
		return NULL;
	}
	n->codec = codec;
	if (codec != NULL && getenv("ZHKIT_COMPRESS_LEVEL") != NULL &&
	    (strcmp(codec, "zstd") == 0 || strcmp(codec, "gzip") == 0)) {
		const char *why = NULL;

		if ((n->level = codec_level(codec, &why)) < 0) {
			cli_fail("%s", why);
			free(n->dir);
			free(n);
			return NULL;
		}
	}
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		cli_fail("%s: %s", dir, strerror(errno));
		goto fail;
	}
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		/* /dev/null, a FIFO, a file: four tables need a directory */
		cli_fail("%s: cannot write: not a directory (-F %s writes its "
		    "four tables in a directory)", dir, codec != NULL ?
		    "parquet" : "npy");
		goto fail;
	}
	if ((n->set = open_set(dir, codec != NULL, tnames)) == NULL)
		goto fail;
	for (k = 0; k < NTABLES; k++) {
		if (fields_size(fields[k]) != recsize[k]) {
			cli_fail("internal error: %s: layout of %zu bytes, not "
			    "%zu", tnames[k], fields_size(fields[k]), recsize[k]);
			goto fail;
		}
		n->t[k].name = tnames[k];
		n->t[k].fields = fields[k];
		n->t[k].cap = n->t[k].lim = TBUF;
		n->t[k].rsize = recsize[k];
		if ((n->t[k].buf = malloc(TBUF)) == NULL ||
		    (n->t[k].spare = malloc(TBUF)) == NULL) {
			cli_fail("out of memory");
			goto fail;
		}
		if (tnames[k] == NULL)	/* Parquet's strings: in games */
			continue;
		if ((n->t[k].f = create(n, tnames[k], true, &n->t[k].path,
		    &n->t[k].tmp)) == NULL)
			goto fail;
		if (codec != NULL && pq_table(n, k, fields[k]) != 0)
			goto fail;
		if (put_header(&n->t[k]) != 0) {
			cli_fail("%s/%s: write error: %s", dir, tnames[k],
			    strerror(errno));
			goto fail;
		}
	}
	if ((n->sink = fopencookie(n, "w", sink_io)) == NULL) {
		cli_fail("out of memory");
		goto fail;
	}
	/* each game's records (a run of games with -j) straight to
	   sink_write(), not copied into a buffer first */
	setvbuf(n->sink, NULL, _IONBF, 0);
	/* without the thread (none can be made) the tables are written
	   by this one */
	if (pthread_mutex_init(&n->mu, NULL) == 0) {
		if (pthread_cond_init(&n->cv, NULL) != 0)
			pthread_mutex_destroy(&n->mu);
		else if (pthread_create(&n->wth, NULL, writer, n) != 0) {
			pthread_cond_destroy(&n->cv);
			pthread_mutex_destroy(&n->mu);
		} else
			n->wrun = true;
	}
	return n;
fail:
	for (k = 0; k < NTABLES; k++) {
		pqw_free(n->t[k].pq);
		if (n->t[k].f != NULL)
			fclose(n->t[k].f);
		done(&n->t[k].path, &n->t[k].tmp, false);
		free(n->t[k].buf);
		free(n->t[k].spare);
	}
	if (n->set != NULL)
		tset_abort(n->set);
	free_shown(n);
	free(n->dir);
	free(n);
	return NULL;
}

FILE *
npy_sink(struct npy *n)
{
	return n->sink;
}

void
npy_input(struct npy *n, const char *name)
{
	char **f;

	fflush(n->sink);	/* the games before are the last input's */
	if ((f = realloc(n->files, (n->nfiles + 1) * sizeof *f)) == NULL ||
	    (f[n->nfiles] = strdup(name)) == NULL) {
		if (f != NULL)
			n->files = f;
		n->failed = true;
		n->err = ENOMEM;
		return;
	}
	n->files = f;
	n->nfiles++;
}

/* DIR/files.parquet, begun (as write_files()): a row an input, its
   index ("file", a game's) and its name (w bytes at most). */
static int
write_files_pq(struct npy *n, size_t w, char **path, char **tmp)
{
	size_t i, k, rs = 2 + w;
	unsigned char *rec = calloc(1, rs);
	struct pqw *pq = pqw_new(rs, n->codec, 0);
	FILE *f = NULL;
	int rc = -1;

	if (rec == NULL || pq == NULL || pqw_column(pq, "file", PQW_U16, 0,
	    2) != 0 || pqw_column(pq, "name", PQW_TEXT, 2, w) != 0) {
		errno = ENOMEM;
		goto out;
	}
	if ((f = create(n, "files.parquet", false, path, tmp)) == NULL ||
	    pqw_begin(pq, f) != 0)
		goto out;
	for (i = 0; i < n->nfiles; i++) {
		k = strlen(n->files[i]);
		le16(rec, (unsigned)i);
		memset(rec + 2, 0, w);
		memcpy(rec + 2, n->files[i], k);
		if (pqw_rows(pq, rec, 1) != 0)
			goto out;
	}
	rc = pqw_end(pq, "zhkit " ZH_VERSION);
out:
	if (f != NULL && fclose(f) != 0)
		rc = -1;
	pqw_free(pq);
	free(rec);
	return rc;
}

/* DIR/files.npy, begun (*path, *tmp: done() ends it): the inputs'
   names, one fixed width (the longest). */
static int
write_files(struct npy *n, char **path, char **tmp)
{
	size_t w = 1, i, k, hl;
	char h[256], type[32];
	FILE *f;
	int rc = 0;

	for (i = 0; i < n->nfiles; i++)
		if (strlen(n->files[i]) > w)
			w = strlen(n->files[i]);
	if (n->codec != NULL)
		return write_files_pq(n, w, path, tmp);
	snprintf(type, sizeof type, "|S%zu", w);
	hl = header(h, sizeof h, NULL, type, n->nfiles);
	if ((f = create(n, "files.npy", false, path, tmp)) == NULL)
		return -1;
	if (fwrite(h, 1, hl, f) != hl)
		rc = -1;
	for (i = 0; i < n->nfiles && rc == 0; i++) {
		k = strlen(n->files[i]);
		if (fwrite(n->files[i], 1, k, f) != k)
			rc = -1;
		for (; k < w && rc == 0; k++)
			if (putc('\0', f) == EOF)
				rc = -1;
	}
	if (fclose(f) != 0)
		rc = -1;
	return rc;
}

/* A table's count into its header; closed. */
static int
finish(struct table *t)
{
	int rc = 0;

	if (t->f == NULL)	/* -F parquet's strings: in games.parquet */
		return 0;
	if (t->pq != NULL) {
		rc = pqw_end(t->pq, "zhkit " ZH_VERSION);
		pqw_free(t->pq);
		t->pq = NULL;
	} else if (fflush(t->f) != 0 || fseek(t->f, 0, SEEK_SET) != 0 ||
	    put_header(t) != 0)
		rc = -1;
	if (fclose(t->f) != 0)
		rc = -1;
	return rc;
}

/* Every table finished, files.npy written, all four renamed into the
   new set's directory, and the set switched into place (tableset.h);
   after a failure none is (the old set stays whole). */
int
npy_close(struct npy *n)
{
	char *fpath = NULL, *ftmp = NULL;
	size_t i;
	int k, rc = 0;

	if (fclose(n->sink) != 0 || n->have != 0 || n->left != 0 ||
	    n->sleft != 0)
		rc = -1;
	for (k = 0; k < NTABLES; k++)
		flush_table(n, &n->t[k]);
	writer_end(n);
	for (k = 0; k < NTABLES; k++) {
		if (finish(&n->t[k]) != 0 && rc == 0) {
			rc = -1;
			n->err = errno;
		}
		free(n->t[k].buf);
		free(n->t[k].spare);
	}
	if (rc == 0 && !n->failed && write_files(n, &fpath, &ftmp) != 0) {
		rc = -1;
		n->err = errno;
	}
	for (k = 0; k < NTABLES; k++)
		if (done(&n->t[k].path, &n->t[k].tmp, rc == 0 && !n->failed) &&
		    rc == 0) {
			rc = -1;
			n->err = errno;
		}
	if (done(&fpath, &ftmp, rc == 0 && !n->failed) != 0 && rc == 0) {
		rc = -1;
		n->err = errno;
	}
	/* the switch: the new set in place at once, or the old one kept */
	if (rc != 0 || n->failed)
		tset_abort(n->set);
	else if (tset_commit(n->set) != 0) {
		rc = -1;
		n->err = errno;
	}
	n->set = NULL;
	free_shown(n);
	if (rc != 0 || n->failed)
		cli_fail("%s: write error: %s", n->dir, strerror(n->err ?
		    n->err : EIO));
	for (i = 0; i < n->nfiles; i++)
		free(n->files[i]);
	free(n->files);
	free(n->dir);
	rc = rc != 0 || n->failed ? -1 : 0;
	free(n);
	return rc;
}

/* ======================== in memory ======================== */

/* The in-memory tables start unmapped (cap 0): the first record maps
   them (mem_room). */
struct npy *
npy_open_mem(void)
{
	struct npy *n = calloc(1, sizeof *n);
	int k;

	if (n == NULL)
		return NULL;
	n->mem = true;
	for (k = 0; k < NTABLES; k++) {
		if (fields_size(fields[k]) != recsize[k])
			goto fail;	/* the layout's own check */
		n->t[k].name = names[k];
		n->t[k].fields = fields[k];
		n->t[k].rsize = recsize[k];
		n->t[k].mt.kind = (unsigned)k + 1;	/* (memtab's pool) */
	}
	if ((n->sink = fopencookie(n, "w", sink_io)) == NULL)
		goto fail;
	setvbuf(n->sink, NULL, _IONBF, 0);
	return n;
fail:
	free(n);
	return NULL;
}

/* The tables' guesses from the PGN's bytes (more than most inputs give:
   only addresses until written; a short guess grows): a position a 8
   bytes (zh.pgn: 10.1, with clocks more), a game a 256, the strings
   a quarter. */
void
npy_mem_expect(struct npy *n, uint64_t bytes)
{
	uint64_t est[NTABLES] = { bytes / 8, bytes / 8, bytes / 256,
	    bytes / 4 };
	int k;

	for (k = 0; k < NTABLES; k++)
		n->t[k].mt.hint = est[k] > SIZE_MAX / 2 / recsize[k] ?
		    SIZE_MAX / 2 : (size_t)est[k] * recsize[k];
}

void
npy_on_game(struct npy *n, void (*fn)(void *arg, struct npy *n), void *arg)
{
	n->on_game = fn;
	n->on_game_arg = arg;
}

uint64_t
npy_mem_count(const struct npy *n, int k)
{
	return n->t[k].len / recsize[k];
}

unsigned char *
npy_mem_take(struct npy *n, int k, uint64_t *count, size_t *size)
{
	struct table *t = &n->t[k];
	size_t used = n->failed ? 0 : t->len;
	unsigned char *p = memtab_take(&t->mt, used, size, n->fa);

	*count = used / recsize[k];
	t->buf = NULL;
	t->len = t->cap = t->lim = 0;
	return p;
}

void
npy_mem_free(void *p, size_t size)
{
	memtab_free(p, size);
}

size_t
npy_mem_trim(void)
{
	return memtab_trim();
}

bool
npy_mem_failed(const struct npy *n)
{
	return n->failed;
}

size_t
npy_recsize(int k)
{
	return recsize[k];
}

size_t
npy_header(int k, char *buf, size_t size)
{
	return k >= 0 && k < NTABLES ? header(buf, size, fields[k], fields[k] ?
	    NULL : "|u1", 0) : 0;
}

size_t
npy_mem_files(const struct npy *n, char *const **names_out)
{
	*names_out = n->files;
	return n->nfiles;
}

int
npy_close_mem(struct npy *n)
{
	size_t i;
	int k, rc = 0;

	if (fclose(n->sink) != 0 || n->have != 0 || n->left != 0 ||
	    n->sleft != 0 || n->failed)
		rc = -1;
	memtab_faulter_free(n->fa);
	for (k = 0; k < NTABLES; k++)
		memtab_free(n->t[k].mt.p, n->t[k].mt.size |
		    n->t[k].mt.kind);
	for (i = 0; i < n->nfiles; i++)
		free(n->files[i]);
	free(n->files);
	free(n);
	return rc;
}
