/*
 * dialect.c - the FEN and PGN dialects as data: one row per dialect,
 * read by the FEN writer and reader (fen.c), the SAN writer (san.c) and
 * the PGN writers (pgnout.c, positions.c).  A new dialect is a new row
 * here, its enum value in zh.h, and its tests.
 *
 * The rows say what each writer emits; the readers accept every form
 * (zhkit(7), DESIGN.md's writer table).
 */
#include <strings.h>

#include "zh_int.h"

const struct zh__dialect zh__dialects[ZH_NDIALECTS] = {
	/* ZH_AUTO: not a dialect; the writers pick FAIRY (FEN) or LICHESS
	   (PGN, SAN), see zh__fen_dialect() and zh__pgn_dialect(). */
	[ZH_AUTO] = { .name = "auto" },
	[ZH_LICHESS] = {
		.name = "lichess", .pocket = ZH_POCKET_SLASH,
		.promoted = ZH_PROMO_TILDE, .ep = ZH_EP_LEGAL,
		.pawn_letter = true, .nag_glyphs = true,
	},
	[ZH_XBOARD] = {
		.name = "xboard", .aliases = { "winboard", "cutechess" },
		.pocket = ZH_POCKET_BRACKET, .empty_dash = true,
		.promoted = ZH_PROMO_TILDE, .ep = ZH_EP_ALWAYS,
		.rank0_10 = true, .pawn_letter = true, .variant_lower = true,
		.variant_before_fen = true,
		.null_move = "@@@@",	/* CECP (engine-intf.html) */
	},
	[ZH_CHESSCOM] = {
		.name = "chesscom", .aliases = { "chess.com" },
		.pocket = ZH_POCKET_FIELD, .qrbnp = true, .empty_dash = true,
		.promoted = ZH_PROMO_SQUARES, .ep = ZH_EP_LEGAL,
		.current_position = true, .bpgn_clk = true,
	},
	[ZH_FAIRY] = {
		.name = "fairy", .aliases = { "fairy-stockfish", "pychess" },
		.pocket = ZH_POCKET_BRACKET, .qrbnp = true,
		.promoted = ZH_PROMO_TILDE_VARIANT, .ep = ZH_EP_ATTACKED,
		.pawn_letter = true,
	},
};

int
zh_dialect_find(const char *name)
{
	int d, k;

	if (name == NULL)
		return -1;
	for (d = 0; d < ZH_NDIALECTS; d++) {
		if (strcasecmp(name, zh__dialects[d].name) == 0)
			return d;
		for (k = 0; k < 2 && zh__dialects[d].aliases[k] != NULL; k++)
			if (strcasecmp(name, zh__dialects[d].aliases[k]) == 0)
				return d;
	}
	return -1;
}

const char *
zh_dialect_name(int d)
{
	return d >= 0 && d < ZH_NDIALECTS ? zh__dialects[d].name : "?";
}

/*
 * The dialect whose writer puts the pocket in form 'pocket' (a
 * ZH_POCKET_ value), the empty one as '-' if 'dash', in QRBNP order if
 * 'qrbnp'; the first row with that form when the other two do not tell
 * (-1: any).  ZH_AUTO if none.
 */
int
zh__dialect_by_form(int pocket, int dash, int qrbnp)
{
	int d, first = ZH_AUTO;

	for (d = ZH_AUTO + 1; d < ZH_NDIALECTS; d++) {
		const struct zh__dialect *x = &zh__dialects[d];

		if (x->pocket != pocket)
			continue;
		if (first == ZH_AUTO)
			first = d;
		if ((dash < 0 || x->empty_dash == dash) &&
		    (qrbnp < 0 || x->qrbnp == qrbnp))
			return d;
	}
	return first;
}
