/*
 * zh.h - libzh, the rules library of zhkit.
 *
 * One header, one prefix.  libzh knows the rules of crazyhouse and its
 * relatives (loop, chessgi, grandhouse, upside-down chess) and of plain
 * chess, and reads and writes their FEN, SAN, UCI and PGN dialects.
 *
 * Conventions, stated once:
 *  - The library never prints, exits or aborts on bad input.  Every call
 *    that can fail takes a caller-owned struct zh_error (NULL allowed),
 *    returns 0 on success and -1 on failure; the first error recorded wins.
 *  - Positions are plain values: copy them with '=' (copy-make).
 *  - Strings returned in caller buffers are always NUL-terminated; a
 *    writer into a buffer of a given size follows snprintf's rules
 *    (returns the length it needs, cuts and terminates at the size).
 *  - JSON has one shape: text appended to a growable struct zh_text of
 *    the caller's (the JSON output section); no JSON library's type
 *    appears here.
 *  - What allocates is released by its own call, each NULL-safe: the PGN
 *    reader (zh_pgn_close), a replay (zh_replay_free), the JSON text
 *    (zh_text_free), a check (zh_check_free), the line walker
 *    (zh_lines_free), a selection (zh_select_free, with its scratch
 *    zh_select_scratch_free); a game kept with zh_game_dup() is one
 *    block for free().
 *
 * The sections come in the order a reader learns them, each before what
 * uses it: errors; the board (geometry and pieces, variants, positions,
 * moves); positions as text (dialects, FEN, UCI and SAN, JSON output,
 * positions as data and as records); games (the PGN reader, replay,
 * positions of a replayed game, bughouse's two boards, writing games,
 * merging board files, checks, selection); and last, marked, what only
 * zhkit's own tools call.
 */
#ifndef ZH_H
#define ZH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* zhkit's version, from the file VERSION: the build defines it
 * (-DZH_VERSION), and the zh.h that make install writes has it here. */
#ifndef ZH_VERSION
#define ZH_VERSION "unknown"
#endif

/* What this header declares is libzh's interface: the library is built
 * with -fvisibility=hidden, so nothing else leaves libzh.so. */
#if defined(__GNUC__) && __GNUC__ >= 4
#pragma GCC visibility push(default)
#endif

/* ======================== errors ======================== */

enum zh_errcode {
	ZH_OK = 0,
	ZH_ESYNTAX,	/* malformed text (FEN, SAN, PGN) */
	ZH_EILLEGAL,	/* well-formed move that is not legal here */
	ZH_EAMBIG,	/* SAN that fits more than one legal move */
	ZH_EPOSITION,	/* FEN that parses but is not a valid position */
	ZH_EVARIANT,	/* unknown or unsupported variant */
	ZH_ELIMIT,	/* input exceeds a configured limit */
	ZH_EIO,		/* read error */
	ZH_ENOMEM,
	ZH_ECOMPRESSED	/* the input is compressed (zh_pgn_magic) */
};

struct zh_error {
	int code;		/* enum zh_errcode; ZH_OK if none recorded */
	long line;		/* 1-based, 0 if unknown */
	long col;		/* 1-based column in characters, 0 if unknown */
	long ply;		/* 1-based ply of a game, 0 if none */
	char text[200];		/* message, no trailing newline */
};

/* Record an error unless one is already recorded.  'col' is 1-based. */
void zh_error_set(struct zh_error *err, int code, long col,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void zh_error_clear(struct zh_error *err);

/* ======================== geometry and pieces ======================== */

/*
 * The board is a padded mailbox 16 squares wide (file a in column 1) with
 * two guard ranks below and above, so every knight jump from a real square
 * lands inside the array; squares off the variant's board hold ZH_OFF.
 */
#define ZH_MAXFILES	10
#define ZH_MAXRANKS	10
#define ZH_STRIDE	16
#define ZH_NSQ		(ZH_STRIDE * (ZH_MAXRANKS + 4))
#define ZH_SQ(f, r)	((unsigned char)(((r) + 2) * ZH_STRIDE + (f) + 1))
#define ZH_FILE(s)	(((s) & 15) - 1)
#define ZH_RANK(s)	(((s) >> 4) - 2)
#define ZH_NOSQ		0	/* a guard square: never a real square */

enum zh_color { ZH_WHITE = 0, ZH_BLACK = 1 };

enum zh_type {
	ZH_EMPTY = 0, ZH_PAWN, ZH_KNIGHT, ZH_BISHOP, ZH_ROOK, ZH_QUEEN,
	ZH_KING, ZH_ARCHBISHOP, ZH_CHANCELLOR, ZH_NTYPES
};
#define ZH_TYPEBIT(t)	(1u << (t))

/* A square's content: type in the low 4 bits, colour and promoted flags. */
#define ZH_TYPEMASK	0x0f
#define ZH_BLACKBIT	0x10
#define ZH_PROMOTED	0x20
#define ZH_OFF		0xff
#define ZH_TYPE(p)	((p) & ZH_TYPEMASK)
#define ZH_COLOR(p)	(((p) & ZH_BLACKBIT) ? ZH_BLACK : ZH_WHITE)
#define ZH_PIECE(c, t)	((unsigned char)((t) | ((c) ? ZH_BLACKBIT : 0)))

/* Name of square s ("e4", "j10") into buf[4]; returns the length. */
size_t zh_square_write(int s, char *buf);

/* Upper-case letter of a type ('P', 'N', ..., 'A', 'C'), or 0. */
char zh_type_letter(int type);
/* Type of a letter of either case, or ZH_EMPTY. */
int zh_letter_type(int c);

/* ======================== variants ======================== */

/*
 * Every rule difference between the games zhkit plays is a field of this
 * table; move generation, FEN, SAN and PGN read the fields and never a
 * variant's name.  Ranks named "relative" count from the side's own first
 * rank, 0-based: for White rank 1 is 0, for Black rank 8 (or 10) is 0.
 */
struct zh_variant {
	const char *name;		/* --variant name */
	const char *tag;		/* PGN Variant tag value we write */
	const char *aliases[8];		/* other names read (case-insensitive) */
	unsigned char files, ranks;	/* board size */
	const char *start;		/* start position, FEN */
	unsigned types;			/* ZH_TYPEBIT mask of the pieces in play */
	bool drops;			/* captures go to hand, hand pieces drop */
	bool demote;			/* a captured promoted piece goes to hand as a pawn */
	bool fairy_tilde;		/* Fairy-Stockfish writes '~' for this game */
	signed char pawn_drop_lo;	/* relative ranks where pawns may be dropped */
	signed char pawn_drop_hi;
	signed char double_step;	/* relative rank a pawn may double-step from */
	signed char promo_lo;		/* first relative rank where a pawn may promote;
					   the last rank is compulsory */
	unsigned promo_types;		/* what a pawn may promote to */
	bool promo_limited;		/* only to a type the side has fewer of on the
					   board than in the start position (Grand
					   chess; in a game without drops this is
					   also upside-down chess's optional "only to
					   a piece the opponent has taken") */
	bool castling;			/* standard castling from the e-file */
	bool chess_tags;		/* a PGN without a Variant tag is this game */
	unsigned char boards;		/* 2: one board of a two-board game
					   (bughouse): a capture goes to the
					   holdings of the capturer's partner
					   on the other board (struct zh_bug
					   moves it), not to the capturer's */
	bool drop_waits;		/* a side without a legal move may wait
					   for a piece from its partner: only
					   a check that no drop could block is
					   mate (a knight's or pawn's, a
					   contact or double check), and no
					   position is a stalemate */
};

extern const struct zh_variant zh_variants[];
extern const int zh_nvariants;

/* Find by name or alias, case-insensitively; NULL if unknown. */
const struct zh_variant *zh_variant_find(const char *name);
const struct zh_variant *zh_variant_default(void);	/* crazyhouse */
/* The first variant of the table with this many ranks, with or without
 * drops (a FEN's shape when no variant is given). */
const struct zh_variant *zh_variant_guess(int ranks, bool drops);
const struct zh_variant *zh_variant_chess(void);

/* ======================== positions ======================== */

enum {
	ZH_CASTLE_WK = 1, ZH_CASTLE_WQ = 2, ZH_CASTLE_BK = 4, ZH_CASTLE_BQ = 8
};

struct zh_pos {
	const struct zh_variant *v;
	unsigned char sq[ZH_NSQ];		/* pieces; ZH_OFF off the board */
	unsigned char pocket[2][ZH_NTYPES];	/* pieces in hand, per colour */
	unsigned char count[2][ZH_NTYPES];	/* pieces on the board */
	unsigned char king[2];			/* king squares, ZH_NOSQ if none */
	unsigned char side;			/* ZH_WHITE or ZH_BLACK to move */
	unsigned char castle;			/* ZH_CASTLE_* rights */
	unsigned char ep;			/* square passed by the last double
						   step (any), ZH_NOSQ if none */
	unsigned halfmove, fullmove;
	unsigned char check;			/* side to move in check: 2 yes,
						   1 no, 0 not known */
	unsigned char taken;			/* what the last move took, as
						   it stood (ZH_PROMOTED kept),
						   0 if nothing: a bughouse
						   capture goes to the partner */
	/* 8x8 boards: the squares (bit 8 * rank + file) of each colour's
	   pieces and of each type, kept with sq by zh_make and the FEN
	   reader (zh_pos_update after editing sq by hand) */
	uint64_t bb_side[2];
	uint64_t bb_type[ZH_NTYPES];
};

/* Empty board of variant v (no pieces, white to move). */
void zh_pos_clear(struct zh_pos *p, const struct zh_variant *v);
/* Start position of v. */
void zh_pos_start(struct zh_pos *p, const struct zh_variant *v);

static inline bool
zh_on_board(const struct zh_pos *p, int s)
{
	return s >= 0 && s < ZH_NSQ && p->sq[s] != ZH_OFF;
}

/* Is square s attacked by a piece of colour 'by'? */
bool zh_attacked(const struct zh_pos *p, int s, int by);
bool zh_in_check(const struct zh_pos *p);
/* After changing a position's squares by hand: recompute what zh_make
 * keeps up to date (the check flag, the bitboards). */
void zh_pos_update(struct zh_pos *p);

/* ======================== moves ======================== */

/*
 * A move is a value that means something only in the position it was
 * found for: zh_make plays a legal move of that position (one that
 * zh_legal_moves, zh_san_read or zh_uci_read gave, or that zh_is_legal
 * accepts) and keeps what the position derives from its squares up to
 * date, as zh_pos_update does after squares are edited by hand.
 */
enum {
	ZH_MDROP = 1,		/* 'piece' is the dropped type; from is ZH_NOSQ */
	ZH_MPROMO = 2,		/* 'piece' is the promotion type */
	ZH_MEP = 4,		/* en passant capture */
	ZH_MCASTLE = 8,		/* king move of two files; the rook follows */
	ZH_MDOUBLE = 16,	/* pawn double step */
	ZH_MNULL = 32		/* the null move: the turn passes (from and
				   to ZH_NOSQ); never while in check */
};

struct zh_move {
	unsigned char from, to;
	unsigned char piece;	/* dropped or promotion type, else 0 */
	unsigned char flags;
};

#define ZH_MAXMOVES	2048

static inline bool
zh_move_eq(struct zh_move a, struct zh_move b)
{
	return a.from == b.from && a.to == b.to && a.piece == b.piece &&
	    (a.flags & ZH_MDROP) == (b.flags & ZH_MDROP);
}

/* Legal moves into out[ZH_MAXMOVES]; returns their number. */
int zh_legal_moves(const struct zh_pos *p, struct zh_move *out);
/* Number of legal moves, faster than listing them (drops are counted). */
uint64_t zh_count_legal(const struct zh_pos *p);
/* The legal moves to square 'to' (board moves by the moving piece's type,
   pawn first, then drops by type) into out[ZH_MAXMOVES]; their number. */
int zh_legal_to(const struct zh_pos *p, int to, struct zh_move *out);
/* m's rank among zh_legal_to(p, m.to, ...), the moves after it not
   listed; -1 if m is not legal in p. */
int zh_legal_rank(const struct zh_pos *p, struct zh_move m);
/* The move of rank i among zh_legal_to(p, to, ...) into *m, the moves
   after it not listed: 0, -1 if there is none. */
int zh_legal_nth(const struct zh_pos *p, int to, int i, struct zh_move *m);
bool zh_is_legal(const struct zh_pos *p, struct zh_move m);
/* Has the side to move a legal move?  (Faster than counting.) */
bool zh_has_legal(const struct zh_pos *p);
/* Play a legal move. */
void zh_make(struct zh_pos *p, struct zh_move m);
/* Leaf count of the legal move tree to 'depth' plies. */
uint64_t zh_perft(const struct zh_pos *p, int depth);

enum zh_status { ZH_ONGOING, ZH_CHECKMATE, ZH_STALEMATE };
int zh_status(const struct zh_pos *p);

/* Would a capture on the ep square be legal now (Lichess's condition)? */
bool zh_ep_legal(const struct zh_pos *p);
/* Does an enemy pawn attack the ep square (Fairy-Stockfish's condition)? */
bool zh_ep_attacked(const struct zh_pos *p);

/* ======================== dialects ======================== */

/*
 * A dialect is how one program writes FEN, SAN and clocks (its row of
 * lib/dialect.c's table).  A reader given ZH_AUTO takes any dialect; a
 * writer writes the dialect it is given, and for ZH_AUTO its default
 * (said at each writer).
 */
enum zh_dialect {
	ZH_AUTO = 0, ZH_LICHESS, ZH_XBOARD, ZH_CHESSCOM, ZH_FAIRY, ZH_NDIALECTS
};
/* "lichess", "xboard", "chesscom", "fairy", "auto" -> enum; -1 if unknown. */
int zh_dialect_find(const char *name);
const char *zh_dialect_name(int d);

/* ======================== FEN ======================== */

/*
 * The longest FEN or EPD any writer makes, its NUL included: 100 squares
 * with '~', the slashes and brackets, two pockets of at most 7 * 255
 * letters (a count is a byte; a FEN read holds at most 200 of a piece),
 * chess.com's promoted squares, the fields.  A buffer of ZH_FENMAX
 * bytes always holds a whole FEN (lib/fenout.c asserts it).
 */
#define ZH_FENMAX 4352

/*
 * Read a FEN or EPD of variant v (NULL: crazyhouse) in dialect d
 * (ZH_AUTO: any).  Every pocket form is read ([..], [-], [], a 9th '/'
 * rank, chess.com's trailing fields).  Columns in err are 1-based
 * offsets into s.  On success the position is also checked by
 * zh_pos_check() with 'flags'.  On failure *p is left unspecified.
 */
enum { ZH_FEN_STRICT = 1 };	/* material a game can reach (zhfen(1) -s) */
int zh_fen_read(struct zh_pos *p, const char *s, const struct zh_variant *v,
    int d, unsigned flags, struct zh_error *err);
/* Position checks (kings, pawns, check, castling, ep, material). */
int zh_pos_check(const struct zh_pos *p, unsigned flags, struct zh_error *err);
/*
 * Which dialect's writer could have written FEN s (of variant v, NULL:
 * guess from the rank count): a 7th field after the clocks is chesscom,
 * a 9th '/' rank lichess, "[-]" or a white-then-black PNBRQ-ordered
 * "[..]" xboard, any other "[..]" fairy; ZH_AUTO when nothing tells.
 */
int zh_fen_dialect(const char *s, const struct zh_variant *v);
/* Write p as FEN of dialect d (ZH_AUTO means fairy); returns the length. */
size_t zh_fen_write(const struct zh_pos *p, int d, char *buf, size_t size);
/* Same without clocks (EPD: four fields, pocket as the dialect puts it). */
size_t zh_epd_write(const struct zh_pos *p, int d, char *buf, size_t size);

/* ======================== UCI and SAN ======================== */

/*
 * Writers take a legal move of p and write into buf[ZH_MOVEMAX]; readers
 * find the legal move of p the text names, or fail with ZH_ESYNTAX,
 * ZH_EILLEGAL or ZH_EAMBIG and say why.
 */
#define ZH_MOVEMAX 16

/* "e2e4", "P@e4", "e7e8q", ranks 1..10, into buf[ZH_MOVEMAX]; returns the
 * length. */
size_t zh_uci_write(const struct zh_pos *p, struct zh_move m, char *buf);
/* Parse and check a UCI move (also "e1h1"-style castling is not read). */
int zh_uci_read(const struct zh_pos *p, const char *s, size_t n,
    struct zh_move *m, struct zh_error *err);

/* SAN of a legal move in dialect d, with '+'/'#'; returns the length. */
size_t zh_san_write(const struct zh_pos *p, struct zh_move m, int d, char *buf);
/*
 * Parse SAN (any dialect: "P@e4", "@e4", "p@e4", "e8=Q", "e8Q", "O-O",
 * "0-0", suffixes "+#!?") or a UCI/LAN move, and find the legal move it
 * names.  Errors say why: no such piece in hand, ambiguous, illegal.
 */
int zh_san_read(const struct zh_pos *p, const char *s, size_t n,
    struct zh_move *m, struct zh_error *err);

/* ======================== JSON output ======================== */

/*
 * Every JSON writer of libzh (zh_pos_json, zh_fen_json, zh_bfen_json,
 * zh_ply_json, zh_bply_json, zh_check_json, zh_check_fen_json,
 * zh_game_json) has one shape: it appends one compact JSON object, with
 * no newline, to the caller's growable text 'out', as getline(3) grows
 * its line: out->s is NULL or malloc'd, and realloc'd when the text
 * needs room.  Zero a struct zh_text before the first use, reuse it
 * (set len to 0 to start again: no allocation once it is large enough),
 * and zh_text_free() it at the end.  Each returns 0, or -1 when out of
 * memory: out then holds what it held before the call.  After a call
 * that succeeded out->s[out->len] is a NUL.
 */
struct zh_text {
	char *s;		/* the text, NULL before any */
	size_t len;		/* its bytes, the NUL not counted */
	size_t cap;		/* bytes allocated at s */
};
/* Free out->s and zero *out (NULL allowed). */
void zh_text_free(struct zh_text *out);

/*
 * s (n bytes, any bytes) as a JSON string with its quotes, appended to
 * out as the writers above append: the one encoder of every JSON the
 * library and the tools write (zhkit-json(5) TEXT): valid UTF-8 as it
 * is, any other byte read as ISO 8859-1, '"', '\\' and the control
 * bytes escaped.  0, or -1 when out of memory.
 */
int zh_json_string(struct zh_text *out, const char *s, size_t n);

/* ======================== positions as data ======================== */

/*
 * The legal moves of p in UCI, sorted in byte order, separated by one
 * space, into buf (snprintf rules); returns the length needed.
 */
size_t zh_moves_write(const struct zh_pos *p, char *buf, size_t size);
/*
 * p as a JSON object appended to out (the JSON output section): variant,
 * fen (dialect d), board (ranks from the top, arrays of letters or
 * null), pockets, promoted, side, castling, ep, halfmove, fullmove,
 * in_check, legal_moves, status, and with 'moves' the sorted UCI list.
 */
int zh_pos_json(struct zh_text *out, const struct zh_pos *p, int d,
    bool moves);
/*
 * The object of one line of zhfen --json (zhkit-json(5)) appended to
 * out: "file" first when file is not NULL (the input's name), line
 * number 'line', the
 * input 'in' (n bytes, echoed as text), and either the position p read
 * from it (its dialect 'from', ZH_AUTO when it reads the same in every
 * one; written in dialect d, with 'moves' its legal moves) or, p NULL,
 * the error err.
 */
int zh_fen_json(struct zh_text *out, const char *file, const char *in,
    size_t n, long line, const struct zh_pos *p, int from, int d, bool moves,
    const struct zh_error *err);

/* ======================== positions as records ======================== */

/*
 * A position as the fixed-size fields of zhkit-arrays(5) (zhreplay -F
 * npy).  Squares are on one 10x10 grid for every board size, index
 * 10 * rank + file from a1 (0) (an 8x8 board uses files and ranks 0-7,
 * the rest stays empty); ZH_REC_NOSQ is no square.  A piece is its type
 * (ZH_PAWN ... ZH_CHANCELLOR, 1-8) for White, the type + 8 for Black, 0
 * for an empty square.
 */
#define ZH_REC_SQUARES	100
#define ZH_REC_PROMOTED	13	/* bytes of the promoted squares' bits */
#define ZH_REC_NOSQ	255
#define ZH_REC_BLACK	8

struct zh_posrec {
	unsigned char board[ZH_REC_SQUARES];	/* piece codes */
	unsigned char promoted[16];		/* bit i & 7 of byte i >> 3:
						   a promoted piece on square
						   i (ZH_REC_PROMOTED bytes
						   used, the rest 0) */
	unsigned char pocket[2][8];		/* [colour][type - 1] in hand */
	unsigned char side;			/* ZH_WHITE or ZH_BLACK */
	unsigned char castle;			/* ZH_CASTLE_* rights */
	unsigned char ep;			/* the en-passant square when
						   a capture there is legal
						   (zh_ep_legal), else
						   ZH_REC_NOSQ */
	unsigned char check;			/* 1: the side to move is in
						   check */
	unsigned halfmove, fullmove;
	uint64_t key;				/* hash of what a repetition
						   compares */
};

/* r from p; 'check' 1 or 0 when the caller knows it (a SAN's suffix),
 * -1 to have it tested. */
void zh_posrec_fill(struct zh_posrec *r, const struct zh_pos *p, int check);
/* p's board, promoted squares and pockets straight into a record's
 * fields, as zh_posrec_fill() sets them: board (ZH_REC_SQUARES bytes),
 * promoted (ZH_REC_PROMOTED) and pockets (16, White's first); returns a
 * hash of them, the side to move, castling rights and 'ep' (the
 * record's en-passant square): equal positions have equal hashes. */
uint64_t zh_posrec_put(const struct zh_pos *p, unsigned char *board,
    unsigned char *promoted, unsigned char *pockets, int ep);
/* The record's index of square s (ZH_SQ), ZH_REC_NOSQ for none. */
int zh_posrec_square(int s);
/* Do a and b repeat each other: the same board, promoted pieces,
 * pockets, side to move, castling rights and en-passant square? */
bool zh_posrec_same(const struct zh_posrec *a, const struct zh_posrec *b);

/* ======================== PGN reader ======================== */

/*
 * A streaming PGN reader that knows PGN syntax but no chess rules: it
 * splits a byte stream into games and each game into tag pairs and
 * movetext tokens.  Memory is bounded by the largest single game (and by
 * the limits below), never by the size of the input.
 *
 * Games: a game starts at a '[' (a tag line, or a damaged one: a syntax
 * error) or at movetext without tags.  It ends after its result token
 * (1-0, 0-1, 1/2-1/2, *) and any comment on the same line, at the next
 * tag pair once movetext has begun, at a blank line once movetext has
 * begun (no result), at a second Event tag, or at the end of input; there
 * without a result it is an error ("game truncated").  Text between
 * games that cannot start one (a line such as "Downloaded from ...") is
 * skipped and told in zh_game.skipped (zh_pgn_tail() after the last
 * game); comments with no tag or move after them are skipped.  A comment
 * before a game's tags belongs to that game.  A UTF-8 BOM, CRLF and lone
 * CR line ends, '%' escape lines and an empty line inside the tag section
 * are accepted.
 *
 * Size: a game's size is the bytes from its first byte to its last, those
 * of zh_game.raw.  One over max_game is an error at its byte max_game + 1
 * whatever the buffering, and it keeps only its first max_game bytes (and
 * the tokens and tags before that byte).
 *
 * Errors: the first syntax error of a game is recorded in game->err with
 * its line and column (1-based, column in characters).  The reader then
 * skips to the next line starting with "[Event " or to a tag line after a
 * blank line, and returns the bad game with the tokens read before the
 * error and its raw bytes (the first max_game of them), so no game is
 * ever dropped silently.
 *
 * JSON Lines: a stream whose first non-blank byte opens a JSON object is
 * read as zhkit-json(5) game objects, one a line (decided once, at its
 * start): each line a game as the PGN it was written from would read,
 * its line its raw bytes (g->texts_apart), a line that is not a game
 * object a game in error.  zhkit-json(5) "Read back" says how.
 */

struct zh_pgn_limits {		/* 0 in a field means the default */
	size_t max_game;	/* bytes of one game (16 MiB) */
	size_t max_tag;		/* bytes of one tag value (64 KiB) */
	size_t max_comment;	/* bytes of one comment (1 MiB) */
	long max_tags;		/* tag pairs in one game (1000) */
	long max_plies;		/* moves in the main line (10000) */
	long max_tokens;	/* movetext tokens in one game (1000000) */
	int max_depth;		/* nesting of variations (64) */
};

enum zh_tok {
	ZH_T_MOVE,	/* a move as written, '+'/'#' kept, '!'/'?' split off:
			   "e4", "N@f3", "@e4", "O-O", "e7e6", "--", ... */
	ZH_T_MOVENUM,	/* "12.", "1...", "12" (digits and dots as written) */
	ZH_T_COMMENT,	/* {...} without the braces, or ;... to end of line */
	ZH_T_NAG,	/* "$14"; a glyph is converted: ! $1, ? $2, !! $3,
			   ?? $4, !? $5, ?! $6; one after a move number
			   ("e5 2! Nf3") comes before the number, with the
			   move it annotates */
	ZH_T_VSTART,	/* "(" */
	ZH_T_VEND,	/* ")" */
	ZH_T_RESULT	/* "1-0", "0-1", "1/2-1/2", "*" */
};

struct zh_token {
	int kind;		/* enum zh_tok */
	const char *text;	/* not NUL-terminated: use len */
	size_t len;
	long line, col;		/* 1-based position of the token's first byte */
};

struct zh_tag {
	const char *name;	/* NUL-terminated */
	const char *value;	/* NUL-terminated, \" and \\ unescaped */
	long line, col;		/* position of the '[' */
};

/*
 * Text between games that is neither a game nor blanks, '%' escape lines
 * or comments: lines that cannot start a game ("Downloaded from ...",
 * an HTML page), skipped.  From its first byte to the next game (or the
 * end of the input).
 */
struct zh_skip {
	long line, col;		/* its first byte */
	long lines;		/* lines with skipped text */
	size_t bytes;		/* bytes skipped, line ends not counted;
				   0: nothing was skipped */
	char text[48];		/* the start of its first line, NUL-ended,
				   bytes that are not printable ASCII as '?' */
};

/*
 * One game.  Everything it points to belongs to the reader and stays
 * valid until the next zh_pgn_next() or zh_pgn_close() on that reader.
 */
struct zh_game {
	long number;		/* 1-based number of the game in the stream */
	long line;		/* line of the game's first byte */
	struct zh_tag *tags;	/* in input order; names may repeat */
	size_t ntags;
	struct zh_token *toks;	/* movetext in order, variations bracketed by
				   VSTART/VEND, the result last (comments on
				   its line or the lines below it, up to an
				   empty line, may follow it) */
	size_t ntoks;
	const char *result;	/* result token (static string), NULL if none */
	const char *raw;	/* the game's bytes verbatim, without trailing
				   white space (not NUL-terminated); the
				   token texts (but glyph NAGs) lie inside */
	size_t rawlen;
	bool raw_truncated;	/* raw holds only the first max_game bytes
				   of a game longer than that */
	struct zh_error err;	/* first syntax error, code ZH_OK if none */
	struct zh_skip skipped;	/* text skipped between the game before
				   and this one */
	int dropped;		/* the reader's filter dropped it (its value;
				   zh_pgn_set_filter): tokens not read */
	bool texts_apart;	/* read from JSON Lines: raw is its line, the
				   token texts lie elsewhere (zh_game_dup
				   copies each) */
	/* Set by the caller, not the reader, for the JSON writers: the
	   input's name and the game's 1-based place in the whole run
	   (across inputs).  NULL, 0: not written. */
	const char *file;
	long index;
};

struct zh_pgn_reader;

/*
 * Start reading f (which stays the caller's: zh_pgn_close does not close
 * it).  lim may be NULL for the defaults.  Returns NULL if out of memory.
 */
struct zh_pgn_reader *zh_pgn_open(FILE *f, const struct zh_pgn_limits *lim);
/*
 * Start reading through a function of the caller's (a decompressor, a
 * socket, a buffer of its own): read(ctx, buf, n) stores at most n bytes
 * (n > 0) at buf and returns how many.  Fewer than n is fine (the reader
 * asks again); 0 is the end of input, and read is not called again; a
 * read error is ZH_PGN_READ_ERROR, with errno set to say which (0: EIO),
 * and zh_pgn_next then returns -1 with ZH_EIO and "read error: ..." as
 * it does for a FILE whose ferror() is set.  zh_pgn_open(f) is this
 * reader with fread on f.  Returns NULL if out of memory.
 */
#define ZH_PGN_READ_ERROR	((size_t)-1)
struct zh_pgn_reader *zh_pgn_open_read(size_t (*read)(void *ctx, char *buf,
    size_t n), void *ctx, const struct zh_pgn_limits *lim);
/*
 * Read the next game into *g.  Returns 1 when a game was read (check
 * g->err: the game may be bad), 0 at the end of input, -1 on a read error
 * or when out of memory (g->err says which; the reader is then unusable).
 */
int zh_pgn_next(struct zh_pgn_reader *r, struct zh_game *g);
/*
 * After zh_pgn_next() returned 0: the text skipped after the last game
 * (bytes 0 if none).  Valid until the reader is closed or given bytes.
 */
const struct zh_skip *zh_pgn_tail(const struct zh_pgn_reader *r);
/*
 * The compression whose magic number starts buf ("gzip", "zstd",
 * "bzip2", "xz"), or NULL.  A reader fails with ZH_ECOMPRESSED and that
 * name as the text if its input starts so, rather than read it as text.
 */
const char *zh_pgn_magic(const void *buf, size_t len);
/* The compression whose magic number a whole input of 'len' bytes ends
 * inside (a compressed file cut short: at least 2 of its bytes, not
 * text), or NULL. */
const char *zh_pgn_magic_cut(const void *buf, size_t len);
/* Value of the first tag called 'name' (case-sensitive), NULL if absent. */
const char *zh_game_tag(const struct zh_game *g, const char *name);
/* Free the reader and its storage; NULL is allowed. */
void zh_pgn_close(struct zh_pgn_reader *r);

/* ======================== games: PGN with the rules ======================== */

/*
 * The variant of a game: 'force' if given (--variant), else the Variant
 * tag (any known spelling; an unknown value is an error), else a variant
 * named as a word of the Event tag (FICS: "rated crazyhouse game"), else
 * the FEN tag's shape (a pocket: crazyhouse; ten ranks: grandhouse), else
 * chess.
 */
int zh_game_variant(const struct zh_game *g, const struct zh_variant *force,
    const struct zh_variant **out, struct zh_error *err);

/* One move token resolved against the rules. */
struct zh_rmove {
	bool ok;		/* a legal move (false after an error in its line) */
	struct zh_move move;
	char san[ZH_MOVEMAX];	/* SAN in the Lichess dialect ("P@e4", "+", "#") */
	char uci[ZH_MOVEMAX];
	unsigned char check;	/* the position after it in check, as
				   zh_pos.check: 2 yes (its SAN's '+' or
				   '#'; set without the SAN too), 1 no, 0
				   not known */
	long ply;		/* 1-based ply from the game's start position */
	int depth;		/* 0: mainline; n: inside n variations */
};

/*
 * A replayed game.  Zero it before the first use; reuse it for every
 * game (its move array grows to the largest game); zh_replay_free() at
 * the end.
 */
struct zh_replay {
	const struct zh_variant *v;
	struct zh_pos start;		/* from the FEN tag or the variant */
	struct zh_pos final;		/* after the last legal mainline move */
	bool fast;			/* set by the caller: legality only, no
					   san/uci text (validation) */
	bool no_uci;			/* set by the caller: san text, no uci */
	bool fast_one;			/* set by the caller: fast for a game
					   of one board only (one of two
					   keeps its text: the checks and
					   mates of its records) */
	bool null_moves;		/* set by the caller: a null move in
					   the mainline is played (one in a
					   variation always is), not an error */
	bool setup;			/* the start came from a FEN tag */
	bool complete;			/* every mainline move was legal */
	long start_ply;			/* plies before the start position */
	long nplies;			/* legal mainline moves played */
	struct zh_error err;		/* first mainline error (line, col, ply) */
	int err_board;			/* the board of err's ply in a game of
					   two boards (ZH_BOARD_A or B), else
					   -1: "ply 12 on board B" */
	bool started;			/* the start was set up (variant and
					   FEN tag read): its positions, up to
					   err, can be walked */
	struct zh_error varerr[8];	/* errors inside variations */
	size_t nvarerr, nvarerr_more;
	struct zh_rmove *moves;		/* one per token of the game */
	size_t cap;
	const struct zh_bug *bug;	/* a game of two boards (its
					   variant's row has boards = 2):
					   its replay, both boards (then
					   r->err is its first error);
					   NULL for a game of one board.
					   The replay's own: never set by
					   the caller */
	struct zh_bug *bug_own;		/* private: what bug points to,
					   kept from game to game and
					   freed by zh_replay_free */
	/* Set by the caller (NULL: none): called with the position after
	   each legal mainline move of a game of one board, in order, as the
	   replay makes it; a non-zero return ends the calls for this game.
	   zh_select_watch sets it to search positions in the replay itself. */
	int (*watch)(void *arg, const struct zh_pos *p);
	void *watch_arg;
};

/* Replay g, of one board or two; 0 if every mainline move was legal,
 * else -1 (see r->err).  The variant is found once (force, else the
 * game's tags); a game of two boards is replayed into r->bug. */
int zh_replay(const struct zh_game *g, const struct zh_variant *force,
    struct zh_replay *r);
void zh_replay_free(struct zh_replay *r);

/* A self-contained copy of a game (one malloc'd block: free() it), to
 * keep after the reader moves on; NULL if out of memory. */
struct zh_game *zh_game_dup(const struct zh_game *g);
/* The same into memory of the caller's: zh_game_dup_size(g) bytes,
 * aligned for any type (as malloc's); returns mem as a game. */
size_t zh_game_dup_size(const struct zh_game *g);
struct zh_game *zh_game_dup_to(const struct zh_game *g, void *mem);

/* The game's result: its result token, else a Result tag of one of the
 * four forms, else "*". */
const char *zh_game_result(const struct zh_game *g);
/* The result for White, board A's White in a game of two boards (its
 * team: White on A and Black on B), of g replayed into r by
 * zh_replay(): zh_game_result's, read by the convention the ending
 * tells when a BPGN scores the board where the game ended (zhcheck
 * --json's result_convention "board": 1-0 on board B is 0-1 here);
 * one board's as zh_game_result. */
const char *zh_replay_result(const struct zh_game *g,
    const struct zh_replay *r);

/* "[%clk 0:01:02.5]" (cmd "clk"; also "emt") in a comment, in seconds;
 * false for none, or for more than ZH_CLOCK_MAX seconds. */
#define ZH_CLOCK_MAX	1e9
bool zh_comment_clock(const char *s, size_t n, const char *cmd, double *sec);
/* "[%eval 0.34]" or "[%eval #-3]": pawns, or mate in n (n != 0); false
 * for none, or for a number beyond ZH_EVAL_MAX either way. */
#define ZH_EVAL_MAX	1000000
bool zh_comment_eval(const char *s, size_t n, double *pawns, int *mate);

/* ======================== positions of a replayed game ======================== */

/*
 * Every position of a replayed game, line by line, for tools that print
 * them (zhreplay).  A line of play is the mainline or one variation.  A
 * variation is walked as a game of its own from the game's start: first
 * the positions of its parent line up to the branch point ('prefix'),
 * then its own.  Lines come mainline first, then variations in the order
 * they open in the movetext.  A line stops before its first illegal move;
 * a variation without a legal move of its own is skipped.
 */
struct zh_ply {
	long game;		/* the game's number in its stream */
	long ply;		/* plies from the game's start position (0) */
	int line;		/* 0: the mainline; n: the n-th variation */
	const char *path;	/* NULL on the mainline; else the variation's
				   number among its parent's, per level:
				   "2", "2.1" */
	bool prefix;		/* a position of the parent line, before the
				   branch point (never on the mainline) */
	bool last;		/* the last position of its line */
	long start_ply;		/* plies before the start (from its FEN) */
	const struct zh_pos *pos;
	const struct zh_rmove *move;	/* the move that led here; NULL at ply 0 */
	bool has_clock, has_eval;	/* [%clk] / [%eval] after that move */
	double clock;		/* seconds */
	double eval;		/* pawns, White's view, when mate == 0 */
	int mate;		/* mate in n (negative: Black mates), or 0 */
	const char *result;	/* the termination marker, else the Result
				   tag, else NULL (JSON's null) */
	const char *file;	/* the game's file and index (its zh_game's) */
	long index;
	const char *site;	/* its Site tag, NULL if none */
};

/* Scratch space of zh_lines_walk: zero it, reuse it, zh_lines_free(). */
struct zh_lines {
	size_t *seq, seqcap;	/* move tokens of the line being walked */
	size_t *own, owncap;	/* move tokens of every line, grouped by line */
	struct zh_line_info {
		int parent;
		size_t branch;	/* moves of the parent line before the branch */
		size_t off, n;	/* own moves in 'own' */
		size_t first;	/* first token of the line */
		int children;
		size_t path;	/* its path's offset in 'paths' */
	} *info;
	size_t ninfo, infocap;
	char *paths;		/* the lines' paths ("2.1"), whole */
	size_t pathlen, pathcap;
	int *tokline;		/* line of each token */
	size_t toklinecap;
};

enum {
	ZH_WALK_VARIATIONS = 1,	/* variations too, not only the mainline */
	ZH_WALK_COMMENTS = 2	/* fill has_clock/has_eval from comments */
};

/*
 * Call fn(arg, ply) for every position of every line of a game replayed
 * by zh_replay() into r (not with r->fast).  Returns 0, the first
 * non-zero value fn returned, or -1 when out of memory.
 */
int zh_lines_walk(struct zh_lines *w, const struct zh_game *g,
    const struct zh_replay *r, unsigned flags,
    int (*fn)(void *arg, const struct zh_ply *pl), void *arg);
void zh_lines_free(struct zh_lines *w);

/*
 * A position as one compact JSON object appended to out (no allocation
 * once out has room): keys [file,] game, [index, site,] ply,
 * [variation,] fen, move ({uci, san} or null), side (to move), pockets
 * ({"white": {"P":2}, "black": {}}: the pieces held), promoted (squares,
 * in FEN order), in_check, [clock,] [cp or mate,] result (null when
 * unknown).  The schema is in zhkit-json(5).
 */
enum { ZH_PLY_VARIATION = 1 };	/* flags: write the "variation" key */
int zh_ply_json(struct zh_text *out, const struct zh_ply *pl, int d,
    unsigned flags);

/* ======================== bughouse: two boards, one game ======================== */

/*
 * A bughouse game is two boards of the variant whose row has boards = 2
 * (zh_game_variant finds it from the WhiteA/BlackA/WhiteB/BlackB tags,
 * a Variant or Event tag, or a move label "1A."): White on A and Black
 * on B are one team.  Its BPGN movetext gives every half-move a label
 * <n><A|a|B|b>, the board's full-move number, upper case for White; the
 * text's order is the order in time, and it decides which pieces were
 * in hand at each drop.  The reader leaves a label as a ZH_T_MOVE token
 * ("12b", without the dot).  A Bughouse game without labels is one
 * board of a bughouse game (chess.com exports each board apart): its
 * drops cannot be checked (the partner's captures are not there), and
 * zh_replay plays it as board A, taking each dropped piece as sent.
 */
enum { ZH_BOARD_A = 0, ZH_BOARD_B = 1 };

/* One half-move of a bughouse game, in the text's (time) order. */
struct zh_bmove {
	struct zh_rmove rm;	/* on its board: ply counts that board's
				   half-moves from its start (1: White's
				   first); san/uci unless fast */
	size_t tok;		/* its move token in g->toks */
	long label_tok;		/* its label token, -1 if none */
	unsigned char board;	/* ZH_BOARD_A or ZH_BOARD_B */
	unsigned char side;	/* the colour that moved */
	unsigned char captured;	/* the type sent to the partner, 0 if none */
	bool has_clock;
	double clock;		/* the mover's time left, seconds (may be
				   negative: FICS lag) */
};

/* A warning found while replaying a bughouse game (check.c reports it). */
struct zh_bwarn {
	const char *code;	/* "check-suffix", "clock", "move-label" */
	long line, col, ply;
	int board;		/* ZH_BOARD_A or B, -1: none */
	char text[160];
};

#define ZH_BUG_MAXWARN 16

/*
 * A replayed bughouse game: a replay's r->bug, owned by the replay
 * (zh_replay fills it, zh_replay_free frees it); read only.
 */
struct zh_bug {
	const struct zh_variant *v;	/* its board variant (boards = 2) */
	bool fast;			/* set by the caller: no san/uci text */
	bool setup;			/* started from a two-board FEN tag */
	bool labels;			/* the movetext has board labels (BPGN);
					   false: one board of a game */
	bool complete;			/* every half-move was legal */
	struct zh_pos start[2], final[2];
	struct zh_bmove *moves;		/* legal half-moves, in order */
	size_t nmoves, cap;
	long nplies[2];			/* legal half-moves of each board */
	struct zh_error err;		/* first error: line, col, and ply on
					   err_board */
	int err_board;			/* -1 if the error is on no board */
	const char *err_code;		/* its zhcheck code ("illegal-move",
					   "illegal-drop", "move-label",
					   "syntax", "variant", "fen", ...) */
	struct zh_bwarn warn[ZH_BUG_MAXWARN];
	size_t nwarn, nwarn_more;
	/* How the game ended, as the movetext and positions tell it. */
	int end_board;			/* board of the ending, -1 if none told */
	int loser;			/* colour that lost there, -1: a draw
					   or nothing told */
	const char *end_how;		/* "checkmate", "resignation", "time",
					   "disconnection", "draw", "abort",
					   NULL */
	long end_line, end_col;		/* the comment or tag that told it */
	int mated_board;		/* a board whose side to move is mated
					   at the end, -1 if none */
};

/* Board letter 'A' or 'B'. */
static inline char
zh_board_letter(int board)
{
	return board == ZH_BOARD_B ? 'B' : 'A';
}

/*
 * A two-board FEN: two FENs of the board variant v (NULL: bughouse)
 * joined by '|' (spaces around it allowed), each in any dialect's form.
 * err's column counts from the start of s.
 */
int zh_bfen_read(struct zh_pos p[2], const char *s,
    const struct zh_variant *v, int d, struct zh_error *err);
/* "fenA | fenB" in dialect d; returns the length (snprintf rules). */
size_t zh_bfen_write(const struct zh_pos p[2], int d, char *buf, size_t size);

/* Every position of a replayed bughouse game: the start (move NULL),
 * then after each half-move, both boards. */
struct zh_bply {
	long index;			/* half-moves played, 0 at the start */
	const struct zh_bmove *move;	/* NULL at the start */
	const struct zh_pos *pos[2];	/* boards A and B */
	bool last;
};
/* Every position of r, a replayed game of two boards (r->bug), to fn in
 * order; fn's nonzero value stops the walk and is returned; -1 for a
 * game of one board (zh_lines_walk walks it). */
int zh_bply_walk(const struct zh_replay *r,
    int (*fn)(void *arg, const struct zh_bply *pl), void *arg);
/*
 * Every position of a game replayed by zh_replay() into r (r->started),
 * one board or two, in one call: a game of one board as zh_lines_walk
 * (fn, flags), a game of two as zh_bply_walk (bfn: its mainline, both
 * boards, flags unused).  The two kinds of position are two types, so
 * two functions; the caller never asks which the game is.
 */
int zh_replay_walk(struct zh_lines *w, const struct zh_game *g,
    const struct zh_replay *r, unsigned flags,
    int (*fn)(void *arg, const struct zh_ply *pl),
    int (*bfn)(void *arg, const struct zh_bply *pl), void *arg);

/*
 * The position as one compact JSON object of game g (zhkit-json(5)):
 * [file,] game, [index, site,] ply (half-moves played), fen ("fenA |
 * fenB"), move ({board, side, label, uci, san} or null), boards (A and
 * B: {board, fen, side, pockets, promoted, check}), [clock (the
 * mover's),] result, appended to out.
 */
int zh_bply_json(struct zh_text *out, const struct zh_bply *pl,
    const struct zh_game *g, int d);
/*
 * The object of zhfen --json for a two-board FEN appended to out: as
 * zh_fen_json, but a valid one has [file,] line, input, valid, from,
 * variant, fen ("fenA | fenB") and boards (two zh_pos_json objects: A,
 * B).
 */
int zh_bfen_json(struct zh_text *out, const char *file, const char *in,
    size_t n, long line, const struct zh_pos p[2], int from, int d,
    bool moves, const struct zh_error *err);

/* ======================== writing games: PGN and JSON ======================== */

/*
 * Write game g, replayed into r by zh_replay(), as PGN of dialect d
 * (ZH_AUTO: Lichess), ending with an empty line.  Tags: the Seven Tag
 * Roster first (a missing one as "?"), then the others in input order;
 * Variant, FEN and SetUp as dialect d writes them (no Variant tag for
 * chess; XBoard's before FEN); for chess.com a CurrentPosition tag with
 * the final position.  Movetext: SAN of dialect d with move numbers
 * made from the plies, comments as written, NAGs (Lichess: !, ?, ...
 * glued to the move), variations, the result; a move zh_replay could
 * not resolve is written as it was, and so is the rest of its line.
 * Lines are wrapped at 80 columns.  The game is written with one
 * fwrite.  Fails (-1) if r has no start position (unknown variant, bad
 * FEN tag), when out of memory or on a write error.
 */
int zh_pgn_write(FILE *f, const struct zh_game *g, const struct zh_replay *r,
    int d, struct zh_error *err);
/*
 * A game of two boards (r->bug) goes to the two-board writer: BPGN in
 * dialect d (ZH_AUTO: Lichess), zhkit-json(5) "Bughouse games" from
 * zh_game_json.  zh_pgn_write_boards writes each board of a two-board
 * game alone, as chess.com exports it (board A, then B when the game
 * has labels; each move's [%ts] time stamp, the order zh_merge_boards
 * gives back); a game of one board as zh_pgn_write.
 */
int zh_pgn_write_boards(FILE *f, const struct zh_game *g,
    const struct zh_replay *r, int d, struct zh_error *err);

/*
 * g and its replay r as one compact JSON object (zhkit-json(5))
 * appended to out: tags, variant, start, moves (san, uci, comment,
 * nags, clock, emt, eval or mate, fen, variations), comment, result,
 * valid, errors.  Positions are in dialect d.  Every game yields an
 * object, valid or not.  -1 only when out of memory (err says so).
 */
enum { ZH_JSON_FENS = 1 };	/* a "fen" after every move */
int zh_game_json(struct zh_text *out, const struct zh_game *g,
    const struct zh_replay *r, int d, unsigned flags, struct zh_error *err);

/*
 * Cleaning on write: the same writers with parts of the game left out.
 * Each ZH_STRIP_ flag takes out one thing and nothing else; what is
 * left is written byte for byte as zh_pgn_write and zh_game_json write
 * it (move numbers and line breaks follow from what is left: a black
 * move after a stripped comment loses its "N...").  A command is
 * "[%NAME ...]" in a comment, up to its first ']': clocks are [%clk],
 * evals [%eval], commands every other name ([%emt], [%csl], [%cal]);
 * a stripped command goes with the white space after it, and a comment
 * left with white space only goes whole.  A variation left empty goes
 * with its parentheses.  ZH_STRIP_TAGS keeps the tags named in
 * keep_tags (case-sensitive) and those the writer always has: the
 * Seven Tag Roster and Variant, FEN, SetUp and CurrentPosition (as
 * pgn-extract's -7 keeps FEN and SetUp: without them the moves would
 * be another game's).  o NULL or o->strip 0: zh_pgn_write itself.
 */
enum {
	ZH_STRIP_COMMENTS = 1,		/* every comment */
	ZH_STRIP_CLOCKS = 2,		/* [%clk ...] */
	ZH_STRIP_EVALS = 4,		/* [%eval ...] */
	ZH_STRIP_COMMANDS = 8,		/* any other [%...] */
	ZH_STRIP_NAGS = 16,		/* NAGs, glyphs (!, ?, ...) too */
	ZH_STRIP_VARIATIONS = 32,
	ZH_STRIP_TAGS = 64		/* all tags but keep_tags' */
};

struct zh_pgn_opts {
	unsigned strip;			/* ZH_STRIP_* */
	const char *const *keep_tags;	/* with ZH_STRIP_TAGS */
	size_t nkeep;
	bool boards;			/* a game of two boards as each
					   board's PGN (zh_pgn_write_boards) */
};

/* The one door of every game, of one board or two: a game of two boards
 * is written whole, as zh_pgn_write, zh_pgn_write_boards (o->boards)
 * and zh_game_json write it (cleaning is for games of one board). */
int zh_pgn_write_opts(FILE *f, const struct zh_game *g,
    const struct zh_replay *r, int d, const struct zh_pgn_opts *o,
    struct zh_error *err);
int zh_game_json_opts(struct zh_text *out, const struct zh_game *g,
    const struct zh_replay *r, int d, unsigned flags,
    const struct zh_pgn_opts *o, struct zh_error *err);

/* ======================== bughouse: two board files merged ======================== */

/*
 * chess.com exports each board of a bughouse game as a game of its own
 * (Variant "Bughouse", White and Black of that board, a [%clk] after
 * every move, a tag naming the partner game).  Two such board games
 * are merged back into one BPGN game whose text order is the order in
 * time, each half-move's time from the start being the time both
 * players of its board have used by then (TimeControl's base, less the
 * clock, plus the increments; without TimeControl, the largest first
 * clock is the base).  Where the clocks do not decide (equal times, or
 * times one clock resolution apart), legality does: a drop needs its
 * piece in hand, which depends on the captures of the other board, and
 * a mate ends both boards.
 */

/* Do two consecutive games of a stream make one bughouse game?  From
 * their tags: Board "A"/"B", and a partner tag (PartnerGame or
 * PartnerGameId) naming the other game (its GameId, or the last part
 * of its Link or Site; a game with neither GameId nor Link cannot be
 * told apart, and is taken as named).  Only boards of one game pair:
 * partner tags on both, one naming the other, or a Board tag on both;
 * a tagged game next to an untagged one is ZH_PAIR_NO. */
enum {
	ZH_PAIR_NO = 0,		/* tags say they are not partners */
	ZH_PAIR_AB,		/* partners, the first is board A */
	ZH_PAIR_BA,		/* partners, the second is board A */
	ZH_PAIR_UNTAGGED	/* no tag tells: the caller decides */
};
int zh_boards_pair(const struct zh_game *a, const struct zh_game *b);

/* Two half-moves of the two boards whose clocks did not decide their
 * order, next to each other in the merged game. */
struct zh_merge_tie {
	size_t index;		/* the first's place in the merged game, 0-based */
	int first;		/* board of the one written first */
	long line[2], col[2];	/* the moves' tokens on boards A and B */
	long ply[2];		/* their plies on their boards */
	char label[2][12];	/* "12A", "7b" */
	char san[2][ZH_MOVEMAX];
	double time[2];		/* seconds from the start of the game */
	bool mattered;		/* the other order is not legal */
	bool against;		/* written against the clocks' order */
};

#define ZH_BUG_MAXTIES	32

struct zh_merge_report {
	size_t nmoves[2];	/* half-moves of boards A and B */
	size_t ties;		/* adjacent pairs of the two boards that the
				   clocks did not order */
	size_t mattered;	/* of them, pairs whose other order is illegal */
	size_t against;		/* pairs written against the clocks' order */
	long states;		/* orders' prefixes searched */
	double base, inc;	/* the time control used, seconds */
	const char *result;	/* the team result written */
	bool result_conflict;	/* the boards' Result tags disagree */
	int err_board;		/* board of the error, -1 if none */
	struct zh_merge_tie tie[ZH_BUG_MAXTIES];	/* the first ties, those that
				   mattered or went against the clocks first */
	size_t ntie;
	bool stamped;		/* ordered by the moves' time stamps ([%ts]) */
	bool stamps_illegal;	/* they were there, but gave no legal order:
				   ordered by the clocks */
};

/* How many prefixes of orders zh_merge_boards searches before it gives up
 * (an error): a bound on its time whatever the input. */
#define ZH_BUG_MERGE_MAXSTATES	2000000

/*
 * Merge board game a (board A) and board game b (board B) into one
 * BPGN game written to out in dialect d (labels 1A. 1a. 1B. 1b., each
 * move's clock as "{secs}" or as the dialect's row says, the team
 * result: a's Result, else b's read for the other team).  The game is
 * read back and replayed before it is written.  When every half-move
 * of both boards has a time stamp after it ("[%ts 12.345]", as
 * zh_pgn_write_boards writes them, or bughouse.pro's "[ts=12.345]"),
 * the stamps order the moves instead of the clocks (equal ones by
 * legality); a stamp order that is illegal falls back to the clocks'
 * (rep->stamps_illegal).  The read back takes no reader limit below
 * what the written text holds (boards read under raised limits merge).
 * 0, or -1 with err
 * (line and column of the move at fault; rep->err_board its board);
 * nothing is written then.  rep may be NULL.  An error in writing is
 * ZH_EIO.
 */
int zh_merge_boards(const struct zh_game *a, const struct zh_game *b, FILE *out,
    int d, struct zh_merge_report *rep, struct zh_error *err);

/* ======================== checks: a game validated for CI ======================== */

/*
 * zh_check_game() replays a game with full legality (zh_replay, fast)
 * and checks its tags, and lists each problem once, in input order:
 *  - errors: a PGN syntax error (g->err), an unknown variant, a bad FEN
 *    tag, an illegal, ambiguous or unreadable mainline move;
 *  - warnings (errors with ZH_CHECK_STRICT): a move error inside a
 *    variation, a missing tag of the Seven Tag Roster, a Result tag that
 *    differs from the termination token or is missing one, a final
 *    checkmate or stalemate that contradicts the result, a wrong
 *    PlyCount, a FEN tag without SetUp "1" or the other way round.
 * The list ends at the first error: a game is invalid from there on.
 */
enum zh_severity { ZH_WARNING = 1, ZH_ERROR = 2 };
enum { ZH_CHECK_STRICT = 1 };

struct zh_problem {
	int severity;		/* ZH_WARNING or ZH_ERROR */
	const char *code;	/* short stable name (static): "syntax",
				   "variant", "fen", "illegal-move",
				   "illegal-drop", "ambiguous", "variation",
				   "tag", "missing-round" (Round apart from
				   the other roster tags), "result",
				   "plycount", "setup" */
	long line, col;		/* 1-based */
	long ply;		/* 1-based ply of a move, 0 if none */
	int board;		/* bughouse: the ply's board, ZH_BOARD_A or
				   ZH_BOARD_B; -1 for none (every other
				   game) */
	char text[200];		/* message, no trailing newline */
};

#define ZH_MAXPROBLEMS 24

struct zh_check {
	struct zh_replay r;	/* the replay; reused from game to game
				   (a bughouse game's: r.bug, with r.v
				   and r.nplies, all half-moves) */
	bool is_bug;		/* the last game checked was bughouse */
	const char *convention;	/* bughouse: the Result read as "board"
				   (of the board where it ended), "team"
				   (1-0: White A and Black B won), "either"
				   (the two agree), or NULL (not told) */
	struct zh_problem probs[ZH_MAXPROBLEMS];
	size_t nprobs;
	size_t nerrors, nwarnings;	/* nerrors is 0 or 1 */
};

/*
 * Check g ('force': the variant for every game, or NULL).  Zero *c
 * before the first use and reuse it; zh_check_free() at the end.
 * Returns 0 if the game is valid (no error), -1 if not.
 */
int zh_check_game(const struct zh_game *g, const struct zh_variant *force,
    unsigned flags, struct zh_check *c);
void zh_check_free(struct zh_check *c);
/* The checked game reported as one JSON object appended to out.  'file'
 * may be NULL. */
int zh_check_json(struct zh_text *out, const struct zh_check *c,
    const struct zh_game *g, const char *file);
/*
 * Check one FEN or EPD (any dialect; ZH_CHECK_STRICT adds material
 * conservation) of variant v (NULL: crazyhouse) read from line 'line':
 * at most one error, code "syntax", "position" or "variant".
 */
int zh_check_fen(const char *fen, const struct zh_variant *v, unsigned flags,
    long line, struct zh_check *c);
int zh_check_fen_json(struct zh_text *out, const struct zh_check *c,
    const char *fen, long line, const char *file);

/* ======================== selecting games ======================== */

/*
 * A selection: tests on a game's tags (decided before its moves are
 * read, see zh_pgn_set_filter) and tests that need the rules (decided
 * after zh_replay).  Tests form groups and a game is selected if every
 * group holds.  A positive test ('=' or '~' on a tag or on the players,
 * and every game test) joins the group of an earlier positive test on
 * the same tag (or of the same kind), and a group holds if any of its
 * tests does ("Site = A" and "Site = B": either; two positions: either
 * reached).  Every other test ('!=', '!~', < <= > >=) is a group of its
 * own: "WhiteElo >= 2000" and "WhiteElo < 2400" is a range.  A missing
 * tag passes only '!=' and '!~' (it is not equal to anything and matches
 * nothing).  Dates: a test holds only if it holds for every day an
 * unknown part ("2021.??.??") may stand for; a test's date may be
 * "2021" or "2021.06" (the year, the month).  libzh(3) has the details.
 * Duplicates and counting are the caller's; the game key (zh_game_key)
 * is what two duplicates share.
 */
enum zh_sel_kind {
	ZH_SEL_TAG = 1,		/* "NAME OP VALUE": OP = != < <= > >= ~ (POSIX
				   ERE), '!~'; numbers as numbers, Date-like
				   tags as PGN dates ("2021.??.??"), TimeControl
				   as base+increment (seconds; "TimeControl >=
				   180" compares the estimate base + 40 * inc,
				   TimeControl.base and .inc the parts) */
	ZH_SEL_PLAYER,		/* "OP VALUE" or "VALUE": White or Black ('!='
				   and '!~': neither) */
	ZH_SEL_VARIANT,		/* a variant name, as detected (zh_game_variant) */
	ZH_SEL_PLIES,		/* "A-B", "A-", "-B", "A": mainline plies */
	ZH_SEL_ENDING,		/* "checkmate", "stalemate", "none" (on the board) */
	ZH_SEL_VALID,		/* "valid" or "invalid" */
	ZH_SEL_POSITION		/* a FEN (any dialect) that the mainline reaches:
				   board, pockets, promoted marks, side to move */
};

struct zh_select;

/* A new empty selection (passes every game); NULL if out of memory. */
struct zh_select *zh_select_new(void);
/*
 * Add a test of kind 'kind' given as text (an option's argument).  0, or
 * -1 with err->col the 1-based column in text where it is wrong and
 * err->text the reason ("unknown operator '>=='").
 */
int zh_select_add(struct zh_select *s, int kind, const char *text,
    struct zh_error *err);
/* True if some test needs the moves replayed / a position search. */
bool zh_select_needs_replay(const struct zh_select *s);
/*
 * The tag tests on g's tags: 0 if g passes them all, else the number
 * (1-based) of the first test that drops it, or minus the number of a
 * regex test whose match reached its bounds (ZH_SEL_RE_STEPS
 * backtracking steps, ZH_SEL_RE_MIB MiB of backtracking memory): g is
 * then neither passed nor dropped.  Tag values are compared as the text
 * their JSON shows (zhkit-json(5): valid UTF-8, any other byte read as
 * Latin-1), and so are the tests' values.  Thread-safe (s is only read).
 */
#define ZH_SEL_RE_STEPS	1000000
#define ZH_SEL_RE_MIB	64
int zh_select_tags(const struct zh_select *s, const struct zh_game *g);
/*
 * The other tests, on g replayed into r (zh_replay's return value in
 * 'rc'):
 * 0 if g passes them all, else the number of the first that drops it.
 * 'scratch' is per thread (zero it; zh_select_scratch_free at the end).
 */
struct zh_select_scratch { void *p; size_t cap; };
int zh_select_game(const struct zh_select *s, const struct zh_game *g,
    const struct zh_replay *r, int rc, struct zh_select_scratch *scratch);
/*
 * Before replaying a game into r: the position tests of s searched by
 * the replay itself (r->watch, into scratch), so that zh_select_game on
 * that replay uses what it found instead of walking the game again.
 * Without position tests r->watch is set to NULL.  0, or -1 when out of
 * memory (r->watch NULL: zh_select_game then walks the game itself).
 */
int zh_select_watch(const struct zh_select *s, struct zh_replay *r,
    struct zh_select_scratch *scratch);
void zh_select_scratch_free(struct zh_select_scratch *scratch);
void zh_select_free(struct zh_select *s);

/*
 * A game's identity for duplicate removal: a 128-bit hash of its
 * variant, its start position and its mainline moves (the legal ones,
 * as moves, not as text): equal for the same game in any dialect, with
 * any tags, comments, clocks or move numbers.  From game g replayed
 * into r (fast or not).  A game zh_replay could not start (unknown
 * variant) has the key {0, 0}: not a game to call a duplicate.
 */
struct zh_key { uint64_t hi, lo; };
struct zh_key zh_game_key(const struct zh_game *g, const struct zh_replay *r);

/*
 * Tag-only selection at reading speed: with a filter set, the reader
 * calls fn(arg, g) once a game's tags are read (g has tags, number,
 * line; no tokens yet).  A non-zero return drops the game: its movetext
 * is skipped without being read, and zh_pgn_next returns it with
 * g->dropped set to that value, its raw bytes and no tokens.  The game
 * boundaries are those the full reader finds.  fn must be thread-safe if
 * the reader's game go to threads; NULL removes the filter.
 */
void zh_pgn_set_filter(struct zh_pgn_reader *r,
    int (*fn)(void *arg, const struct zh_game *g), void *arg);

/* ======================== position keys ======================== */

/*
 * A position's 128-bit key (zhindex): equal for positions a repetition
 * calls the same (the variant; every square's piece, and its promoted
 * flag where a capture sends it to hand as a pawn; the pieces in hand;
 * the side to move; the castling rights; the en-passant square only
 * when a capture there is legal), different, but for a chance of about
 * 2^-128, for any two others.  Not the counters.  Zobrist's scheme:
 * stable across runs, builds and machines (zhkit-index(5) stores it).
 */
struct zh_key zh_pos_key(const struct zh_pos *p);
/* The key of b from a's key k, a being any position of b's variant (the
 * one before a move, as a rule): what differs rehashed, not the rest. */
struct zh_key zh_pos_key_next(struct zh_key k, const struct zh_pos *a,
    const struct zh_pos *b);
/* The same, b being a after move m (its squares and pockets only
 * compared where m may have changed them). */
struct zh_key zh_pos_key_move(struct zh_key k, const struct zh_pos *a,
    struct zh_move m, const struct zh_pos *b);

/* ======================== training tensors: CrazyAra's planes ======================== */

/*
 * A position of an 8x8 game without two boards (crazyhouse, loop,
 * chessgi, chess) as CrazyAra's input planes and a move as its policy
 * index (zhkit-planes(5)).  Every plane is 8x8 (row = rank seen from
 * the side to move: Black's board turned over; column = file).
 * version 1: the 34 planes of CrazyAra's 2019 paper; 2: its 51 planes
 * (1 with is960 and the last 8 moves); 3: its current 64 planes.
 * 'last' holds the moves before p, the latest first (nlast <= 8; a move
 * whose 'to' is ZH_NOSQ stands for none); 'occ' is how many times p
 * occurred before in its game.  Each returns -1 for a variant or a
 * version it has no layout for; nothing is allocated; thread-safe.
 */
#define ZH_PLANES_MAX		64	/* planes of the largest version */
#define ZH_POLICY_LABELS	2272	/* CrazyAra's LABELS */
#define ZH_POLICY_MAP		(81 * 64)	/* its policy map, flattened */
/* Planes of a version: 34, 51, 64; 0 if unknown. */
int zh_planes_count(int version);
/* The types of the planes' values, and a flag for the float types: the
 * values divided as CrazyAra's normalize=True divides them. */
enum { ZH_PLANES_UINT8, ZH_PLANES_INT8, ZH_PLANES_FLOAT16,
	ZH_PLANES_FLOAT32, ZH_PLANES_NORMALIZE = 0x100 };
/* The planes of p into out (zh_planes_count(version) * 64 values of
 * type dtype, C order: plane, row, column; float16 as IEEE halves,
 * little-endian).  Values are CrazyAra's unnormalized ones (counts as
 * counts) unless ZH_PLANES_NORMALIZE; uint8 clamps them to 0..255, int8
 * to -128..127 (version 3's material differences are negative).  The
 * no-progress plane is p->halfmove (python-chess, and so CrazyAra,
 * does not reset it on a drop: zhreplay counts as it does).  Returns
 * the number of planes. */
int zh_planes(const struct zh_pos *p, const struct zh_move *last,
    int nlast, int occ, int version, int dtype, void *out);
/* Move m of p (a legal move of p) as CrazyAra's flat policy index
 * (0..ZH_POLICY_LABELS-1, Black's moves mirrored), or as its policy
 * map's (plane * 64 + row * 8 + column, 0..ZH_POLICY_MAP-1); -1 if none. */
int zh_policy_index(const struct zh_pos *p, struct zh_move m);
int zh_policy_map_index(const struct zh_pos *p, struct zh_move m);
/* The legal moves of p as a mask: mask[ZH_POLICY_LABELS] (or
 * [ZH_POLICY_MAP] when map) set to 1 at each legal move's index, 0
 * elsewhere; returns the number of legal moves. */
int zh_policy_mask(const struct zh_pos *p, unsigned char *mask, bool map);

/* ======================== for zhkit's tools ======================== */

/*
 * What only zhkit's own tools call: the pieces of their -j (a stream cut
 * between games and read in parallel), zhreplay's choice of plies and
 * its text forms of a position, zhpgn's --strip list, the counts of
 * --stats.  They are libzh's like the rest (same conventions, exported,
 * in libzh(3)), but they follow the tools' options and may change with
 * them; a program of its own needs none of them.
 */

/* ---- -j: a stream read in pieces ---- */

/*
 * For callers that cut a stream into pieces between games and read the
 * pieces in parallel (zhkit's -j does).  zh_pgn_mem() makes a reader of
 * the len bytes at buf, or turns reader r (from an earlier call; its
 * storage is kept) to them.  The bytes are read in place, never written,
 * and must stay until the reader is closed or given other bytes;
 * buf[len] and the ZH_PGN_PAD - 1 bytes after it must be 0.  Lines are
 * numbered from line + 1 and games from games + 1, as if that many lines
 * and games came before.  Returns NULL if out of memory or if len is not
 * less than the max_game limit (r is then unchanged).
 *
 * zh_pgn_mem_clean(), once zh_pgn_next() returned 0: true if no game was
 * cut by the end of the bytes, that is, if a reader going on past them
 * (to bytes that start a game: a line "[Event ...") would have returned
 * the same games; *line is the number of the last line end read.
 *
 * zh_pgn_set_base(): number a reader's lines from line + 1 and its games
 * from games + 1 (before its first game).
 */
#define ZH_PGN_PAD 8
/*
 * Where to cut and how to number: zh_pgn_cut() gives the offset of the
 * last line "[Event " in buf[0..len) after its first byte (0 if none);
 * zh_pgn_count() counts the line ends of buf[0..len) as the reader counts
 * them (LF, CR, CR LF) and its lines "[Event " ('start': buf begins the
 * stream, where a BOM may come first).  Counts are a guess for the games
 * of a piece; zh_pgn_mem_clean() and the games read tell if it held.
 */
size_t zh_pgn_cut(const char *buf, size_t len);
void zh_pgn_count(const char *buf, size_t len, bool start, long *lines,
    long *events);
struct zh_pgn_reader *zh_pgn_mem(struct zh_pgn_reader *r, const char *buf,
    size_t len, const struct zh_pgn_limits *lim, long line, long games);
bool zh_pgn_mem_clean(const struct zh_pgn_reader *r, long *line);
void zh_pgn_set_base(struct zh_pgn_reader *r, long line, long games);

/* ---- zhreplay: which positions, and how they read ---- */

/* Which positions of a line to print (zhreplay --plies/--every/...). */
struct zh_plysel {
	long from, to;		/* plies, inclusive; to < 0: to the end */
	long every;		/* every n-th ply from 'from' (1: all) */
	bool start_only, final_only;
};
/* Parse "A-B", "A-", "-B" or "A" into s->from/s->to; -1 if malformed. */
int zh_plysel_range(struct zh_plysel *s, const char *range);
bool zh_plysel_match(const struct zh_plysel *s, const struct zh_ply *pl);

/*
 * A position of zh_bply_walk as zhreplay writes it (bugpos.c).  The
 * half-moves are the game's "plies": a selection (zh_plysel) counts
 * them over both boards, 0 being the start.
 */
bool zh_bply_match(const struct zh_plysel *s, const struct zh_bply *pl);
/* "fenA | fenB" in dialect d, or each board's EPD; snprintf rules. */
size_t zh_bply_fen(const struct zh_bply *pl, int d, bool epd, char *buf,
    size_t size);
/* The label of the half-move that led here, as BPGN writes it without
 * its dot ("12A", "12a": board letter, lower case for Black) into
 * buf[ZH_BLABELMAX]; "" at the start.  Returns the length. */
#define ZH_BLABELMAX 16
size_t zh_bply_label(const struct zh_bply *pl, char *buf);
/* The half-move as "12A.e2e4" (san false) or "12A.e4" (SAN of dialect
 * d): the label, a dot, the move; "" at the start.  snprintf rules. */
size_t zh_bply_move(const struct zh_bply *pl, bool san, int d, char *buf,
    size_t size);

/* SAN in dialect d from the Lichess-dialect SAN 'san' (chess.com writes
 * pawn drops "@e4"); returns the length.  buf holds ZH_MOVEMAX. */
size_t zh_san_dialect(const char *san, int d, char *buf);

/*
 * A board diagram for a terminal: ranks top down with numbers, files
 * below, Black's pocket beside the top rank and White's beside the
 * bottom one, '>' at the side to move.  ASCII: '.' for an empty square,
 * [x] around the last move's squares, !K! around a king in check, '~'
 * after a promoted piece.  ZH_DIAG_UNICODE: chess symbols; ZH_DIAG_COLOUR:
 * ANSI backgrounds for the squares instead of the brackets.
 * ZH_DIAG_TURNED: the board turned (rotated 180 degrees), Black's side
 * at the bottom with its pocket, as bughouse's board B is seen by the
 * partners beside board A.  Returns the length (snprintf rules: cut
 * and NUL-terminated at size).
 */
enum { ZH_DIAG_UNICODE = 1, ZH_DIAG_COLOUR = 2, ZH_DIAG_TURNED = 4 };
/* The longest diagram, its NUL included (two pockets of 7 * 255 glyphs:
 * lib/positions.c asserts the bound). */
#define ZH_DIAGMAX 20480
size_t zh_diagram_write(const struct zh_pos *p, const struct zh_move *last,
    unsigned flags, char *buf, size_t size);

/* Both boards' zh_diagram_write side by side, A on the left, the last
 * move marked on its board; returns the length (snprintf rules). */
#define ZH_BDIAGMAX (2 * ZH_DIAGMAX + 1024)
size_t zh_bdiagram_write(const struct zh_bply *pl, unsigned flags, char *buf,
    size_t size);

/* ---- zhpgn --strip, and the tests' counts of --stats ---- */

/*
 * A comma list of "comments", "clocks", "evals", "commands", "nags",
 * "variations" (zhpgn --strip) added to *strip as ZH_STRIP_ flags: 0,
 * or -1 with err->col the 1-based column of the bad item.
 */
int zh_strip_parse(const char *list, unsigned *strip, struct zh_error *err);

/* How many tests were added; test i (1-based) as given, for counts. */
int zh_select_count(const struct zh_select *s);
const char *zh_select_text(const struct zh_select *s, int i);
int zh_select_kind(const struct zh_select *s, int i);

#if defined(__GNUC__) && __GNUC__ >= 4
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif /* ZH_H */
