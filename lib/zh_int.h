/* zh_int.h - declarations shared inside libzh, not installed. */
#ifndef ZH_INT_H
#define ZH_INT_H
#include <stdint.h>
#include <string.h>

#include "zh.h"

/* For the few hot helpers with more than one caller. */
#if defined(__GNUC__)
#define ZH_HOT_INLINE	inline __attribute__((always_inline))
#define ZH_COLD		__attribute__((noinline, cold))
#else
#define ZH_HOT_INLINE	inline
#define ZH_COLD
#endif

/*
 * A dialect's writer forms (dialect.c): one row per enum zh_dialect.
 */
enum { ZH_POCKET_NONE, ZH_POCKET_SLASH, ZH_POCKET_BRACKET, ZH_POCKET_FIELD };
enum { ZH_PROMO_TILDE = 1, ZH_PROMO_TILDE_VARIANT, ZH_PROMO_SQUARES };
enum { ZH_EP_LEGAL = 1, ZH_EP_ALWAYS, ZH_EP_ATTACKED };
struct zh__dialect {
	const char *name;
	const char *aliases[2];		/* also read by zh_dialect_find */
	unsigned char pocket;		/* ZH_POCKET_: a 9th '/' rank, "[..]",
					   a field after the clocks */
	bool qrbnp;			/* pocket order QRBNP (else PNBRQ) */
	bool empty_dash;		/* an empty pocket is "-" ("[-]") */
	unsigned char promoted;		/* ZH_PROMO_: '~' after the letter;
					   '~' where the variant's
					   fairy_tilde says; the squares in
					   a field after the pocket */
	unsigned char ep;		/* ZH_EP_: the ep square written when
					   a capture is legal; after every
					   double step; when a pawn attacks */
	bool rank0_10;			/* ranks of 10-rank boards from 0 */
	bool pawn_letter;		/* pawn drops "P@e4" (else "@e4") */
	bool variant_lower;		/* Variant tag in lower case */
	bool variant_before_fen;	/* Variant tag before FEN and SetUp */
	bool nag_glyphs;		/* $1-$6 as "!", "?", ... on the move */
	bool current_position;		/* a CurrentPosition tag, the final
					   position */
	const char *null_move;		/* the null move's SAN; NULL: "--" */
	bool bpgn_clk;			/* BPGN clocks as {[%clk H:MM:SS.s]}
					   (else BPGN's {seconds}) */
};
extern const struct zh__dialect zh__dialects[ZH_NDIALECTS];
/* What ZH_AUTO writes (zh.h): FEN as fairy, SAN and PGN as Lichess; the
 * SAN zh_replay keeps, and the variant table's start FENs, are in these
 * forms too. */
#define ZH_FEN_AUTO	ZH_FAIRY
#define ZH_SAN_AUTO	ZH_LICHESS
int zh__dialect_by_form(int pocket, int dash, int qrbnp);

/* The row of dialect d; ZH_AUTO writes as 'deflt'. */
static inline const struct zh__dialect *
zh__dialect(int d, int deflt)
{
	return &zh__dialects[d > ZH_AUTO && d < ZH_NDIALECTS ? d : deflt];
}

/* The null move's SAN in dialect d: "--" unless its row says. */
static inline const char *
zh__null_san(int d)
{
	const char *z = zh__dialect(d, ZH_SAN_AUTO)->null_move;

	return z != NULL ? z : "--";
}

/*
 * SAN in the Lichess form (what zh_replay keeps) as dialect d writes it:
 * the one place of the pawn-drop rule ("P@e4" or "@e4").  Sets *s to
 * the text and returns its length (n: the Lichess text's).
 */
static inline size_t
zh__san_as(const char *san, size_t n, int d, const char **s)
{
	*s = san;
	if (san[0] == '-' && san[1] == '-') {	/* the null move */
		*s = zh__null_san(d);
		return strlen(*s);
	}
	if (san[0] == 'P' && san[1] == '@' &&
	    !zh__dialect(d, ZH_SAN_AUTO)->pawn_letter) {
		(*s)++;
		return n - 1;
	}
	return n;
}

/* Inline forms of zh_type_letter, zh_letter_type and zh_square_write,
 * for the per-move paths. */
/* Length of the name of a game zhkit does not play at s, the start of a
 * word of an Event tag ("atomic", "King of the Hill"), or 0. */
size_t zh__variant_unplayed(const char *s);
/* Which names could start with byte c: bit n (1 to 31) a name of the
 * variant table (zh_variant_find's) of n bytes, bit 0 a name that
 * zh__variant_unplayed knows; 0 when no name starts with c. */
uint32_t zh__variant_firsts(int c);
/* The table's first row with two boards (bughouse), or NULL. */
const struct zh_variant *zh__variant_two_boards(void);

extern const char zh__letters[ZH_NTYPES];
extern const unsigned char zh__types[256];

static inline char
zh__type_letter(int type)
{
	return type > 0 && type < ZH_NTYPES ? zh__letters[type] : 0;
}

static inline int
zh__letter_type(int c)
{
	return zh__types[(unsigned char)c];
}

static inline size_t
zh__square_write(int s, char *buf)
{
	int r = ZH_RANK(s) + 1;
	size_t n = 0;

	buf[n++] = (char)('a' + ZH_FILE(s));
	if (r >= 10)
		buf[n++] = (char)('0' + r / 10);
	buf[n++] = (char)('0' + r % 10);
	buf[n] = '\0';
	return n;
}

/* "00" to "99": the two digits of each number below 100. */
extern const char zh__digits2[200];

/* The decimal digits of x (and its sign) at q, not terminated; returns
 * the end.  At most 20 bytes. */
static inline char *
zh__putlong(char *q, long long x)
{
	char b[24];
	size_t n = sizeof b;
	unsigned long long u = x < 0 ? 0 - (unsigned long long)x :
	    (unsigned long long)x;

	if (x >= 0 && x < 1000) {	/* move numbers, plies: no copy call */
		if (x < 10) {
			*q = (char)('0' + x);
			return q + 1;
		}
		if (x >= 100) {
			*q++ = (char)('0' + x / 100);
			x %= 100;
		}
		memcpy(q, &zh__digits2[2 * x], 2);
		return q + 2;
	}
	do
		b[--n] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (x < 0)
		b[--n] = '-';
	memcpy(q, b + n, sizeof b - n);
	return q + (sizeof b - n);
}

/* Could the piece on 'from' reach 'to' by its movement alone (ignoring
 * checks and pins)?  Pawns: pushes, double steps and captures. */
bool zh__reaches(const struct zh_pos *p, int from, int to);
/* Legal non-drop moves of the side to move's pieces of 'type' to 'to'
 * (all promotion choices); returns their number. */
int zh__moves_to(const struct zh_pos *p, int type, int to, struct zh_move *out);
/* zh_make without the check test: the check flag is left "not known"
 * (zh_in_check works it out when asked). */
void zh__make_quiet(struct zh_pos *p, struct zh_move m);
/* The side to move's castling move on the king's or queen's side, if
 * legal: 1 with *m set, else 0. */
int zh__castle_move(const struct zh_pos *p, bool king_side, struct zh_move *m);
/* The side to move, in check, is mated: no legal move, and (where the
 * variant lets a side wait for a piece) no drop could block the check. */
bool zh__mate_in_check(const struct zh_pos *p);
/* Is dropping 'type' on 'to' legal? */
bool zh__drop_ok(const struct zh_pos *p, int type, int to);
/* SAN of a legal move without the check/mate suffix; returns the length. */
size_t zh__san_body(const struct zh_pos *p, struct zh_move m, int d, char *buf);
/* The same, told how many legal moves of the piece's type reach the
 * square (-1: not known; 1: no disambiguation needed). */
size_t zh__san_body_n(const struct zh_pos *p, struct zh_move m, int d,
    char *buf, int ncand);
/*
 * The common SAN of an 8x8 board ("e4", "exd5", "Nf3", "Kxe2", "Nbd2",
 * "R1xe2", "N@f3", "@e4", with '+' or '#' after) read and played in one
 * step: 1 with the move made on p, *m set, and its SAN body in the
 * Lichess dialect and its UCI written (each buffer of ZH_MOVEMAX, NULL:
 * not wanted); 0 if the text is of another form or names no single
 * legal move, p unchanged: zh__san_read_n then decides and says why.
 */
int zh__play_fast(struct zh_pos *p, const char *s, size_t n,
    struct zh_move *m, char *san, char *uci);
/* What zh__play_run is told and tells. */
struct zh_run {
	bool san, uci;		/* in: write the moves' SAN (with '+') and UCI */
	int depth;		/* in: the moves' depth */
	long ply;		/* in: plies before the first; out: after the last */
	size_t played;		/* out: moves played */
	size_t last;		/* out: the last one's token index (played > 0) */
	/* in: r->watch and its argument (NULL: none), called after each
	   move; out: NULL once a call returned non-zero */
	int (*watch)(void *arg, const struct zh_pos *p);
	void *watch_arg;
};
/*
 * zh__play_fast over the tokens toks[i] to toks[end - 1]: move numbers,
 * comments and NAGs passed over, each move played and its moves[] entry set as zh_replay
 * sets it, up to the first token of another kind or the first move the
 * one-step path leaves to the general reader; returns that token's
 * index (end if none).  One call for a run of moves, not one a move.
 */
size_t zh__play_run(struct zh_pos *p, const struct zh_token *toks, size_t i,
    size_t end, struct zh_rmove *moves, struct zh_run *run);
/* zh_san_read, also telling that number when the fast path knew it. */
int zh__san_read_n(const struct zh_pos *p, const char *s, size_t n,
    struct zh_move *m, struct zh_error *err, int *ncand);

/* strlen() of a move text in a char[ZH_MOVEMAX] (a zh_rmove's san or
 * uci), without a call: the first zero byte of the first or second word
 * (the lowest byte that (w - 1s) & ~w & 80s marks is exact). */
static inline size_t
zh__movelen(const char *s)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && \
    ZH_MOVEMAX == 16
	const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
	uint64_t w, z;

	memcpy(&w, s, 8);
	if ((z = (w - ones) & ~w & highs) != 0)
		return (size_t)__builtin_ctzll(z) >> 3;
	memcpy(&w, s + 8, 8);
	if ((z = (w - ones) & ~w & highs) != 0)
		return 8 + ((size_t)__builtin_ctzll(z) >> 3);
#endif
	return strlen(s);
}
/*
 * The stable code of an error of game g (check.c): 'e' is g->err (a
 * reading error: "syntax"), the replay's mainline error, or (variation)
 * one of its variations' ("variation").  zhcheck's "code" and the JSON
 * game object's (zhkit-json(5)) are the same names.
 */
/* The code of a FEN's error (zhcheck --fen, zhfen --json). */
const char *zh__fen_error_code(const struct zh_error *e);
const char *zh__error_code(const struct zh_game *g, const struct zh_replay *r,
    const struct zh_error *e, bool variation);

/*
 * The time stamp of each half-move of bughouse game b (read as g), in
 * ms from the start, into ts[b->nmoves] (bugout.c): the time both
 * players of its board have used, made strictly increasing in the
 * game's text order; 0, 1, 2... ms without clocks.  The board writer's
 * [%ts], that a merge orders the boards by.
 */
void zh__bug_stamps(const struct zh_game *g, const struct zh_bug *b,
    int64_t *ts);

/* Seconds in a TimeControl "180" or "180+2"; false if not that form
 * (bugout.c). */
bool zh__time_control(const char *tc, double *base, double *inc);

/*
 * A word of PGN movetext (a comment's may hold line ends) appended to b
 * at column *col, wrapped at 80 columns: after a blank, or after a line
 * end if it would not fit with 'trail' bytes glued after it and 'opens'
 * '(' written before it (pgnout.c; bugout.c's BPGN and board writers).
 */
struct zh__buf;
void zh__pgn_word(struct zh__buf *b, size_t *col, const char *s, size_t n,
    size_t trail, int opens);

/*
 * zh_replay's part of one board (game.c): 0 or -1 as zh_replay, or
 * ZH__TWO_BOARDS with r->v the game's variant, whose row has boards = 2:
 * the game is zh_bug_replay's (replay.c).
 */
#define ZH__TWO_BOARDS	1
int zh__replay_board(const struct zh_game *g, const struct zh_variant *force,
    struct zh_replay *r);

/*
 * The two-board engine (bughouse.c, bugout.c): internal since the one
 * door (replay.c: zh_replay owns the struct zh_bug; gameout.c: the
 * public writers choose the engine).  The tools never call these.
 */
int zh_bug_replay(const struct zh_game *g, const struct zh_variant *force,
    struct zh_bug *b);
void zh_bug_free(struct zh_bug *b);

int zh_bug_walk(const struct zh_bug *b,
    int (*fn)(void *arg, const struct zh_bply *pl), void *arg);

/*
 * A bughouse game out (bugout.c), from g replayed by zh_bug_replay()
 * into b (not fast).  Each builds the game in memory and writes it with
 * one fwrite; -1 (err set) when b has no start position (unknown
 * variant, bad FEN tag), when out of memory or on a write error.
 *
 * zh_bug_write: BPGN in dialect d (ZH_AUTO: Lichess).  Tags Event,
 * Site, Date, WhiteA, BlackA, WhiteB, BlackB (each with its Elo tag on
 * its line, "[WhiteA "x"][WhiteAElo "n"]"), the others in input
 * order, Result as given; a FEN tag as a two-board FEN of d.  Each
 * half-move as its label and SAN ("12b. N@f3", pawn drops as d writes
 * them), its clock as d's row says ({118.585} or {[%clk 0:01:58.585]}),
 * other comments as written, the result as given (never scored again);
 * the moves past an error as written; lines of at most 80 columns.  A
 * game without labels (one board of a game) is written as one board,
 * as zh_bug_board_write(board A) writes it.
 *
 * zh_bug_json: one JSON object, appended to out (json.h) with no newline
 * (zhkit-json(5) "Bughouse games"): the
 * game object's keys, "boards", and one object per half-move in text
 * order (board, side, label, ply, san, uci, clock, comment, the
 * holdings of both boards after it, with ZH_JSON_FENS the two-board
 * FEN).
 *
 * zh_bug_board_write: board 'board' (ZH_BOARD_A or B) alone, as
 * chess.com exports it: a one-board PGN of that board's players with
 * Variant "Bughouse", Board and PartnerGame tags, the board's own
 * result (A's is the team's, B's its mirror), a Termination tag, a
 * [%clk] after every move and ordinary move numbers.  Each half-move of
 * a two-board game also gets its time stamp, "{[%clk 0:02:58.3] [%ts
 * 1.700]}" (seconds from the start of the game, strictly increasing in
 * the BPGN's order: zh_merge_boards gives that order back by them).
 */
int zh_bug_write(FILE *f, const struct zh_game *g, const struct zh_bug *b,
    int d, struct zh_error *err);
struct zh__buf;
void zh_bug_json(struct zh__buf *out, const struct zh_game *g,
    const struct zh_bug *b, int d, unsigned flags);
int zh_bug_board_write(FILE *f, const struct zh_game *g,
    const struct zh_bug *b, int board, int d, struct zh_error *err);

/* "1-0", "0-1", "1/2-1/2" or NULL: the team result (1-0: White on A and
 * Black on B won) and the result of the board where it ended, from the
 * ending zh_bug_replay found. */
const char *zh_bug_team_result(const struct zh_bug *b);
const char *zh_bug_board_result(const struct zh_bug *b);
/* The one rule of a bughouse game's team result, given its Result r
 * (zh_game_result's form): BPGN files score a game as the result of the
 * board where it ended, or as the team's; the ending tells which (zhcheck
 * --json's result_convention, into *conv when not NULL: "board", "team",
 * "either", or NULL when nothing tells, the ending and r disagreeing
 * either way).  Returns the team result when the convention is told,
 * else r as it is (read as the team's). */
const char *zh__bug_result(const struct zh_bug *b, const char *r,
    const char **conv);


/* The one-board writers (pgnout.c) behind zh_pgn_write and zh_game_json
 * (gameout.c), which send a game of two boards to bugout.c. */
int zh__pgn_write_board(FILE *f, const struct zh_game *g,
    const struct zh_replay *r, int d, struct zh_error *err);
void zh__game_json_board(struct zh__buf *b, const struct zh_game *g,
    const struct zh_replay *r, int d, unsigned flags);
/* The same cleaned on write (pgnclean.c), behind zh_pgn_write_opts and
 * zh_game_json_opts (gameout.c). */
int zh__pgn_write_clean(FILE *f, const struct zh_game *g,
    const struct zh_replay *r, int d, const struct zh_pgn_opts *o,
    struct zh_error *err);
int zh__game_json_clean(struct zh_text *out, const struct zh_game *g,
    const struct zh_replay *r, int d, unsigned flags,
    const struct zh_pgn_opts *o, struct zh_error *err);

#endif
