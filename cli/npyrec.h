/*
 * npyrec.h - the arrays' records (zhkit-arrays(5)), each described once:
 * a table of fields (name, NumPy type, shape, bytes), in record order.
 * From it come the .npy header's dtype (npy.c's field tables), the
 * Parquet columns (parquet_write.c's pqw_npy_field, from the same
 * tables), each field's offset (NPY_POS_board ...: the sum of the bytes
 * before it) and the record's size.  npy.c writes every field at its
 * name's offset; tests/arrays-layout.bats checks the table against
 * NumPy's reading of the headers and against zhkit-arrays(5).
 *
 * A field is X(record, name, type, shape, bytes): shape a string of the
 * header's Python tuple, or NULL for a scalar; bytes its whole size.
 */
#ifndef NPYREC_H
#define NPYREC_H

/* positions.npy: a one-board game's position */
#define NPY_POS_FIELDS(X) \
	X(POS, game, "<u4", NULL, 4) X(POS, ply, "<u4", NULL, 4) \
	X(POS, variant, "|u1", NULL, 1) X(POS, final, "|b1", NULL, 1) \
	X(POS, move_from, "|u1", NULL, 1) X(POS, move_to, "|u1", NULL, 1) \
	X(POS, move_drop, "|u1", NULL, 1) X(POS, move_promo, "|u1", NULL, 1) \
	X(POS, uci, "|S8", NULL, 8) \
	X(POS, side, "|u1", NULL, 1) X(POS, castling, "|u1", NULL, 1) \
	X(POS, ep, "|u1", NULL, 1) X(POS, check, "|b1", NULL, 1) \
	X(POS, repetition, "|u1", NULL, 1) X(POS, result, "|i1", NULL, 1) \
	X(POS, halfmove, "<u2", NULL, 2) X(POS, fullmove, "<u2", NULL, 2) \
	X(POS, clock, "<i4", "(2,)", 8) X(POS, cp, "<i4", NULL, 4) \
	X(POS, mate, "<i2", NULL, 2) \
	X(POS, pockets, "|u1", "(2, 8)", 16) \
	X(POS, promoted, "|u1", "(13,)", 13) \
	X(POS, board, "|u1", "(10, 10)", 100)

/* bughouse.npy: a two-board game's position, the boards' fields with a
   first axis of two (board A, board B) */
#define NPY_BUG_FIELDS(X) \
	X(BUG, game, "<u4", NULL, 4) X(BUG, ply, "<u4", NULL, 4) \
	X(BUG, variant, "|u1", NULL, 1) X(BUG, final, "|b1", NULL, 1) \
	X(BUG, move_board, "|u1", NULL, 1) \
	X(BUG, move_from, "|u1", NULL, 1) X(BUG, move_to, "|u1", NULL, 1) \
	X(BUG, move_drop, "|u1", NULL, 1) X(BUG, move_promo, "|u1", NULL, 1) \
	X(BUG, uci, "|S8", NULL, 8) X(BUG, repetition, "|u1", NULL, 1) \
	X(BUG, side, "|u1", "(2,)", 2) X(BUG, castling, "|u1", "(2,)", 2) \
	X(BUG, ep, "|u1", "(2,)", 2) X(BUG, check, "|b1", "(2,)", 2) \
	X(BUG, result, "|i1", "(2,)", 2) \
	X(BUG, halfmove, "<u2", "(2,)", 4) X(BUG, fullmove, "<u2", "(2,)", 4) \
	X(BUG, clock, "<i4", "(2, 2)", 16) \
	X(BUG, pockets, "|u1", "(2, 2, 8)", 32) \
	X(BUG, promoted, "|u1", "(2, 13)", 26) \
	X(BUG, board, "|u1", "(2, 10, 10)", 200)

/* games.npy: a game; a text field X is X_off, X_len: its bytes in
   strings.npy */
#define NPY_TEXT(rec, name, X) \
	X(rec, name##_off, "<i8", NULL, 8) X(rec, name##_len, "<i4", NULL, 4)
#define NPY_GAME_FIELDS(X) \
	X(GAME, game, "<u4", NULL, 4) X(GAME, number, "<u4", NULL, 4) \
	X(GAME, file, "<u2", NULL, 2) X(GAME, variant, "|u1", NULL, 1) \
	X(GAME, result, "|i1", NULL, 1) X(GAME, line, "<u8", NULL, 8) \
	X(GAME, plies, "<u4", NULL, 4) X(GAME, first, "<u8", NULL, 8) \
	X(GAME, records, "<u4", NULL, 4) X(GAME, elo, "<i2", "(2, 2)", 8) \
	X(GAME, tc_base, "<i4", NULL, 4) X(GAME, tc_inc, "<i4", NULL, 4) \
	X(GAME, date, "|S10", NULL, 10) \
	NPY_TEXT(GAME, white, X) NPY_TEXT(GAME, black, X) \
	NPY_TEXT(GAME, white_b, X) NPY_TEXT(GAME, black_b, X) \
	NPY_TEXT(GAME, id, X) NPY_TEXT(GAME, site, X) \
	NPY_TEXT(GAME, termination, X)

/* Each field's offset, NPY_<REC>_<name>: an enumerator, then one that
   takes the field's other bytes, so that the next one starts after it;
   NPY_<REC>_SIZE is the record's bytes. */
#define NPY_OFFSET(rec, name, type, shape, bytes) \
	NPY_##rec##_##name, NPY_##rec##_##name##_end_ = NPY_##rec##_##name + \
	(bytes) - 1,
enum { NPY_POS_FIELDS(NPY_OFFSET) NPY_POS_SIZE };
enum { NPY_BUG_FIELDS(NPY_OFFSET) NPY_BUG_SIZE };
enum { NPY_GAME_FIELDS(NPY_OFFSET) NPY_GAME_SIZE };

/* A field as npy.c's tables hold it. */
struct npy_field {
	const char *name, *type, *shape;	/* shape NULL: a scalar */
	unsigned offset, bytes;
};
#define NPY_FIELD(rec, name, type, shape, bytes) \
	{ #name, type, shape, NPY_##rec##_##name, bytes },
#endif
