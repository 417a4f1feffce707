/*
 * bb8.c - the constant tables of the board geometry: the unit step and
 * the kind of movement between two squares of the mailbox, and the 8x8
 * bitboards (attacks of a knight, king and pawn, the lines through a
 * square, square <-> bit).  All built from constant expressions.
 */
#include <stdint.h>

#include "bb8.h"

/*
 * Tables by the file and rank distance from one square to another
 * (df, dr in -9..9, squares of up to 10x10): the unit step along a
 * rank, file or diagonal (0 if none), and which movements connect them
 * (A_KNIGHT for a knight's jump, A_KING for a king's step, A_ORTH or
 * A_DIAG for a line).  Built from constant expressions.
 */
#define SGN(x)		((x) > 0 ? 1 : (x) < 0 ? -1 : 0)
#define ABS(x)		((x) < 0 ? -(x) : (x))
#define ORTHO(dr, df)	(((dr) == 0) != ((df) == 0))
#define DIAGO(dr, df)	((dr) != 0 && ((dr) == (df) || (dr) == -(df)))
#define DIRV(dr, df)	(ORTHO(dr, df) || DIAGO(dr, df) ? \
	16 * SGN(dr) + SGN(df) : 0)
#define KINDV(dr, df) \
	((ABS(dr) * ABS(df) == 2 ? A_KNIGHT : 0) | \
	(ABS(dr) <= 1 && ABS(df) <= 1 && ((dr) | (df)) != 0 ? A_KING : 0) | \
	(ORTHO(dr, df) ? A_ORTH : 0) | (DIAGO(dr, df) ? A_DIAG : 0))
#define ROW(M, dr) M(dr, -9), M(dr, -8), M(dr, -7), M(dr, -6), M(dr, -5), \
	M(dr, -4), M(dr, -3), M(dr, -2), M(dr, -1), M(dr, 0), M(dr, 1), \
	M(dr, 2), M(dr, 3), M(dr, 4), M(dr, 5), M(dr, 6), M(dr, 7), M(dr, 8), \
	M(dr, 9)
#define TABLE(M) ROW(M, -9), ROW(M, -8), ROW(M, -7), ROW(M, -6), \
	ROW(M, -5), ROW(M, -4), ROW(M, -3), ROW(M, -2), ROW(M, -1), \
	ROW(M, 0), ROW(M, 1), ROW(M, 2), ROW(M, 3), ROW(M, 4), ROW(M, 5), \
	ROW(M, 6), ROW(M, 7), ROW(M, 8), ROW(M, 9)
const signed char zh__dirtab[19 * 19] = { TABLE(DIRV) };
const unsigned char zh__kindtab[19 * 19] = { TABLE(KINDV) };

/*
 * Bitboards of 8x8 boards (bit 8 * rank + file): what a knight, a king
 * and each colour's pawn on a square attack, and the squares on its
 * diagonals and on its rank and file.  Built from constant expressions.
 */
#define B8(f, r)	((f) >= 0 && (f) < 8 && (r) >= 0 && (r) < 8 ? \
	(uint64_t)1 << (((r) * 8 + (f)) & 63) : 0)
#define F8(i)		((i) & 7)
#define R8(i)		((i) >> 3)
#define STEP8(i, df, dr) B8(F8(i) + (df), R8(i) + (dr))
#define KNIGHT8(i)	(STEP8(i, 1, 2) | STEP8(i, 2, 1) | STEP8(i, 2, -1) | \
	STEP8(i, 1, -2) | STEP8(i, -1, -2) | STEP8(i, -2, -1) | \
	STEP8(i, -2, 1) | STEP8(i, -1, 2))
#define KING8(i)	(STEP8(i, 1, 0) | STEP8(i, 1, 1) | STEP8(i, 0, 1) | \
	STEP8(i, -1, 1) | STEP8(i, -1, 0) | STEP8(i, -1, -1) | \
	STEP8(i, 0, -1) | STEP8(i, 1, -1))
#define WPAWN8(i)	(STEP8(i, -1, 1) | STEP8(i, 1, 1))
#define BPAWN8(i)	(STEP8(i, -1, -1) | STEP8(i, 1, -1))
#define RAY8(i, df, dr)	(STEP8(i, df, dr) | STEP8(i, 2 * (df), 2 * (dr)) | \
	STEP8(i, 3 * (df), 3 * (dr)) | STEP8(i, 4 * (df), 4 * (dr)) | \
	STEP8(i, 5 * (df), 5 * (dr)) | STEP8(i, 6 * (df), 6 * (dr)) | \
	STEP8(i, 7 * (df), 7 * (dr)))
#define DIAG8(i)	(RAY8(i, 1, 1) | RAY8(i, 1, -1) | RAY8(i, -1, 1) | \
	RAY8(i, -1, -1))
#define ORTH8(i)	(RAY8(i, 1, 0) | RAY8(i, -1, 0) | RAY8(i, 0, 1) | \
	RAY8(i, 0, -1))
#define SQ8(M, i)	M(i), M(i + 1), M(i + 2), M(i + 3), M(i + 4), M(i + 5), \
	M(i + 6), M(i + 7)
#define ALL8(M)		SQ8(M, 0), SQ8(M, 8), SQ8(M, 16), SQ8(M, 24), \
	SQ8(M, 32), SQ8(M, 40), SQ8(M, 48), SQ8(M, 56)
const uint64_t zh__knight8[64] = { ALL8(KNIGHT8) };
const uint64_t zh__king8[64] = { ALL8(KING8) };
const uint64_t zh__pawn8[2][64] = { { ALL8(WPAWN8) }, { ALL8(BPAWN8) } };
const uint64_t zh__diag8[64] = { ALL8(DIAG8) };
const uint64_t zh__orth8[64] = { ALL8(ORTH8) };

/*
 * The four lines through a square (file, rank, diagonal, anti-diagonal),
 * each cut in two: the squares of lower index and of higher index.  A
 * slider's attacks along a line are found without a walk, by the
 * "obstruction difference": the nearest blocker below is the highest set
 * bit of the lower half's occupied squares, the nearest above the lowest
 * of the upper half's.
 */
#define LINE8(M)	{ ALL8(M) }
#define FILELO(i)	RAY8(i, 0, -1)
#define FILEHI(i)	RAY8(i, 0, 1)
#define RANKLO(i)	RAY8(i, -1, 0)
#define RANKHI(i)	RAY8(i, 1, 0)
#define DIAGLO(i)	RAY8(i, -1, -1)
#define DIAGHI(i)	RAY8(i, 1, 1)
#define ANTILO(i)	RAY8(i, 1, -1)
#define ANTIHI(i)	RAY8(i, -1, 1)
const uint64_t zh__linelo8[4][64] = {
	LINE8(FILELO), LINE8(RANKLO), LINE8(DIAGLO), LINE8(ANTILO)
};
const uint64_t zh__linehi8[4][64] = {
	LINE8(FILEHI), LINE8(RANKHI), LINE8(DIAGHI), LINE8(ANTIHI)
};

/* Bit index of square s of an 8x8 board, its bit, and back: tables by
 * square (0 off the 8x8 board) and by index. */
#define IX8(s)		(((s) >> 4) - 2 >= 0 && ((s) >> 4) - 2 < 8 && \
	((s) & 15) - 1 >= 0 && ((s) & 15) - 1 < 8 ? \
	(((s) >> 4) - 2) * 8 + ((s) & 15) - 1 : 0)
#define BIT8(s)		(((s) >> 4) - 2 >= 0 && ((s) >> 4) - 2 < 8 && \
	((s) & 15) - 1 >= 0 && ((s) & 15) - 1 < 8 ? (uint64_t)1 << IX8(s) : 0)
#define ROW16(M, r)	SQ8(M, (r) * 16), SQ8(M, (r) * 16 + 8)
#define ALLSQ(M)	ROW16(M, 0), ROW16(M, 1), ROW16(M, 2), ROW16(M, 3), \
	ROW16(M, 4), ROW16(M, 5), ROW16(M, 6), ROW16(M, 7), ROW16(M, 8), \
	ROW16(M, 9), ROW16(M, 10), ROW16(M, 11), ROW16(M, 12), ROW16(M, 13)
#define SQOF8(i)	ZH_SQ((i) & 7, (i) >> 3)
const unsigned char zh__ix8[ZH_NSQ] = { ALLSQ(IX8) };
const uint64_t zh__bit8[ZH_NSQ] = { ALLSQ(BIT8) };
const unsigned char zh__sqof8[64] = { ALL8(SQOF8) };
_Static_assert(ZH_NSQ == 14 * 16, "ALLSQ lists 14 rows of 16 squares");

/*
 * unit_dir on boards of at most 8 files, where a square difference
 * 16 * dr + df (|df| <= 7) is one (dr, df) alone: by difference + 119.
 */
#define DF8(x)		((((x) + 7) & 15) - 7)
#define DR8(x)		(((x) - DF8(x)) / 16)
#define UDIR8(k)	DIRV(DR8((k) - 119), DF8((k) - 119))
#define D16(M, k)	SQ8(M, k), SQ8(M, (k) + 8)
const signed char zh__dir8[240] = {
	D16(UDIR8, 0), D16(UDIR8, 16), D16(UDIR8, 32), D16(UDIR8, 48),
	D16(UDIR8, 64), D16(UDIR8, 80), D16(UDIR8, 96), D16(UDIR8, 112),
	D16(UDIR8, 128), D16(UDIR8, 144), D16(UDIR8, 160), D16(UDIR8, 176),
	D16(UDIR8, 192), D16(UDIR8, 208), D16(UDIR8, 224)
};

/* The line (0 file, 1 rank, 2 diagonal, 3 anti-diagonal) of a unit step
 * of the mailbox, by step + 17. */
const signed char zh__step_line[35] = {
	[-16 + 17] = 0, [16 + 17] = 0, [-1 + 17] = 1, [1 + 17] = 1,
	[-17 + 17] = 2, [17 + 17] = 2, [-15 + 17] = 3, [15 + 17] = 3,
};

/* The castling rights a move from or to square s of an 8x8 board
 * leaves: all but a corner's rook's (clear_rights() as a table). */
#define CKEEP8(s)	(0xf & ~((s) == ZH_SQ(0, 0) ? ZH_CASTLE_WQ : \
	(s) == ZH_SQ(7, 0) ? ZH_CASTLE_WK : (s) == ZH_SQ(0, 7) ? ZH_CASTLE_BQ : \
	(s) == ZH_SQ(7, 7) ? ZH_CASTLE_BK : 0))
const unsigned char zh__ckeep8[ZH_NSQ] = { ALLSQ(CKEEP8) };
