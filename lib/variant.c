/*
 * variant.c - the variant table: every rule difference between the games
 * zhkit plays, as data.
 *
 * To add a game, add a row: its board, start position, pieces, and the
 * few rule switches below.  Nothing else in the library names a variant.
 * Ranks are relative (0 = the side's own first rank).
 */
#include <ctype.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "zh_int.h"

#define ORTHODOX (ZH_TYPEBIT(ZH_PAWN) | ZH_TYPEBIT(ZH_KNIGHT) | \
    ZH_TYPEBIT(ZH_BISHOP) | ZH_TYPEBIT(ZH_ROOK) | ZH_TYPEBIT(ZH_QUEEN) | \
    ZH_TYPEBIT(ZH_KING))
#define GRAND (ORTHODOX | ZH_TYPEBIT(ZH_ARCHBISHOP) | ZH_TYPEBIT(ZH_CHANCELLOR))
#define PROMO8 (ZH_TYPEBIT(ZH_KNIGHT) | ZH_TYPEBIT(ZH_BISHOP) | \
    ZH_TYPEBIT(ZH_ROOK) | ZH_TYPEBIT(ZH_QUEEN))
#define PROMO10 (PROMO8 | ZH_TYPEBIT(ZH_ARCHBISHOP) | ZH_TYPEBIT(ZH_CHANCELLOR))

#define START8 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
#define START10 "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R"

const struct zh_variant zh_variants[] = {
	{
		.name = "crazyhouse", .tag = "Crazyhouse",
		.aliases = { "crazy house", "house", "zh", "wild/23", NULL },
		.files = 8, .ranks = 8, .start = START8 "[] w KQkq - 0 1",
		.types = ORTHODOX, .drops = true, .demote = true,
		.fairy_tilde = true, .pawn_drop_lo = 1, .pawn_drop_hi = 6,
		.double_step = 1, .promo_lo = 7, .promo_types = PROMO8,
		.castling = true,
	}, {
		.name = "loop", .tag = "Loop",
		.aliases = { "loop chess", "loopchess", NULL },
		.files = 8, .ranks = 8, .start = START8 "[] w KQkq - 0 1",
		.types = ORTHODOX, .drops = true, .demote = false,
		.fairy_tilde = false, .pawn_drop_lo = 1, .pawn_drop_hi = 6,
		.double_step = 1, .promo_lo = 7, .promo_types = PROMO8,
		.castling = true,
	}, {
		.name = "chessgi", .tag = "Chessgi",
		.aliases = { "mad mate", "madmate", NULL },
		.files = 8, .ranks = 8, .start = START8 "[] w KQkq - 0 1",
		.types = ORTHODOX, .drops = true, .demote = false,
		.fairy_tilde = false, .pawn_drop_lo = 0, .pawn_drop_hi = 6,
		.double_step = 1, .promo_lo = 7, .promo_types = PROMO8,
		.castling = true,
	}, {
		.name = "grandhouse", .tag = "Grandhouse",
		.aliases = { "grand house", NULL },
		.files = 10, .ranks = 10, .start = START10 "[] w - - 0 1",
		.types = GRAND, .drops = true, .demote = true,
		.fairy_tilde = true, .pawn_drop_lo = 1, .pawn_drop_hi = 6,
		.double_step = 2, .promo_lo = 7, .promo_types = PROMO10,
		.promo_limited = true, .castling = false,
	}, {
		.name = "upsidedown", .tag = "Upside-down",
		.aliases = { "upside-down", "upside down", "upside-down chess", NULL },
		.files = 8, .ranks = 8,
		.start = "RNBQKBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbqkbnr w - - 0 1",
		.types = ORTHODOX, .pawn_drop_lo = -1, .pawn_drop_hi = -1,
		.double_step = 1, .promo_lo = 7, .promo_types = PROMO8,
		.castling = false,
	}, {
		.name = "wild5", .tag = "wild/5",
		.aliases = { "wild/5", "wild 5", "w5", NULL },
		.files = 8, .ranks = 8,
		.start = "RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr w - - 0 1",
		.types = ORTHODOX, .pawn_drop_lo = -1, .pawn_drop_hi = -1,
		.double_step = 1, .promo_lo = 7, .promo_types = PROMO8,
		.castling = false,
	}, {
		.name = "chess", .tag = "Standard",
		.aliases = { "standard", "normal", "chess", "from position",
		    NULL },
		.files = 8, .ranks = 8, .start = START8 " w KQkq - 0 1",
		.types = ORTHODOX, .pawn_drop_lo = -1, .pawn_drop_hi = -1,
		.double_step = 1, .promo_lo = 7, .promo_types = PROMO8,
		.castling = true, .chess_tags = true,
	}, {
		/* Grand chess without drops: for the published Grand perft. */
		.name = "grand", .tag = "Grand",
		.aliases = { "grand chess", NULL },
		.files = 10, .ranks = 10, .start = START10 " w - - 0 1",
		.types = GRAND, .pawn_drop_lo = -1, .pawn_drop_hi = -1,
		.double_step = 2, .promo_lo = 7, .promo_types = PROMO10,
		.promo_limited = true, .castling = false,
	}, {
		/* One board of bughouse: crazyhouse whose captures go to
		   the partner on the other board (struct zh_bug), and where
		   a side with no move waits for one (FICS "help bughouse",
		   chess.com: a check a drop could block is not mate). */
		.name = "bughouse", .tag = "Bughouse",
		.aliases = { "bug", "bughouse chess", "wild/24", NULL },
		.files = 8, .ranks = 8, .start = START8 "[] w KQkq - 0 1",
		.types = ORTHODOX, .drops = true, .demote = true,
		.fairy_tilde = true, .pawn_drop_lo = 1, .pawn_drop_hi = 6,
		.double_step = 1, .promo_lo = 7, .promo_types = PROMO8,
		.castling = true, .boards = 2, .drop_waits = true,
	},
};
const int zh_nvariants = sizeof zh_variants / sizeof zh_variants[0];

/*
 * Names read as orthodox chess beyond the table's eight aliases: the ICS
 * wild numbers that python-chess and chessops read as chess played from
 * the FEN tag (wild/5 has its own row, wild/23 is crazyhouse), and
 * chessops's "classical".
 */
static const char *const chess_names[] = {
	"classical", "wild/0", "wild/1", "wild/2", "wild/3", "wild/4",
	"wild/6", "wild/7", "wild/8", "wild/8a",
};

const struct zh_variant *
zh_variant_find(const char *name)
{
	size_t k;
	int i, j;

	if (name == NULL)
		return NULL;
	for (i = 0; i < zh_nvariants; i++) {
		const struct zh_variant *v = &zh_variants[i];

		if (strcasecmp(name, v->name) == 0 ||
		    strcasecmp(name, v->tag) == 0)
			return v;
		for (j = 0; j < 8 && v->aliases[j] != NULL; j++)
			if (strcasecmp(name, v->aliases[j]) == 0)
				return v;
	}
	for (k = 0; k < sizeof chess_names / sizeof chess_names[0]; k++)
		if (strcasecmp(name, chess_names[k]) == 0)
			return zh_variant_chess();
	return NULL;
}

const struct zh_variant *
zh_variant_guess(int ranks, bool drops)
{
	int i;

	for (i = 0; i < zh_nvariants; i++)	/* the first row that fits */
		if (zh_variants[i].ranks == ranks && zh_variants[i].drops == drops)
			return &zh_variants[i];
	return zh_variant_default();
}

const struct zh_variant *
zh_variant_default(void)
{
	return &zh_variants[0];
}

const struct zh_variant *
zh__variant_two_boards(void)
{
	int i;

	for (i = 0; i < zh_nvariants; i++)	/* the first such row */
		if (zh_variants[i].boards >= 2)
			return &zh_variants[i];
	return NULL;
}

/* The row a PGN without a Variant tag is (orthodox chess): the first
 * row that says so, without a name compared, as every such game asks. */
const struct zh_variant *
zh_variant_chess(void)
{
	int i;

	for (i = 0; i < zh_nvariants; i++)
		if (zh_variants[i].chess_tags)
			return &zh_variants[i];
	return NULL;
}

/*
 * Games zhkit does not play, as PGN Event tags name them when there is
 * no Variant tag: FICS and ICC ("FICS rated atomic game", "ICS rated
 * wild/22 match", "internet, rated loser's match"), Lichess ("Rated
 * Antichess game", "Casual Three-check game") and chess.com ("Live Chess -
 * 3 Check").  Each is written in lower case with its words run together:
 * the Event may put spaces, '-', '_' or '\'' between its letters; '*' at
 * the end takes the rest of the word.  A whole word that the table above
 * names ("wild/5", "wild/23") is not one of these.
 */
static const char *const unplayed[] = {
	"atomic", "suicide", "losers", "giveaway", "antichess",
	"horde", "kingofthehill", "koth", "racingkings", "threecheck",
	"3check", "chess960", "crazyhouse960", "fischerrandom",
	"fischerandom", "wild/*", "fogofwar", "duckchess", "4player*",
	"kriegspiel", "shatranj",
};

static bool
word_char(int c)
{
	return isalnum((unsigned char)c) || c == '/';
}

/* Length of the text at s that spells p up to a word's end, or 0. */
static size_t
spells(const char *s, const char *p)
{
	const char *q = s;

	for (; *p != '\0' && *p != '*'; p++, q++) {
		while (q > s && (*q == ' ' || *q == '-' || *q == '_' ||
		    *q == '\''))
			q++;
		if (tolower((unsigned char)*q) != *p)
			return 0;
	}
	if (*p == '*')
		while (word_char(*q))
			q++;
	return word_char(*q) ? 0 : (size_t)(q - s);
}

/*
 * The names above, indexed by their first byte (either case): bit n (1 to
 * 31) of firsts[c] says a row's name, tag or alias, or a name of
 * chess_names[], of n bytes starts with c; bit 0 that a name of
 * unplayed[] does, and bit k of unplayed_at[c] that unplayed[k] does.
 * Every word of every Event tag is looked up here first, so a word no
 * name starts like ("Rated", "Blitz", "game") costs one load, not a
 * strcasecmp() with each of some sixty names.  Made once, from the
 * tables, on the first call; atomic because the tools' worker threads may
 * make that call together (each makes the same values, and the flag is
 * set after them).  Bytes from 0x80 up are always "maybe": what a locale
 * folds them to is left to the exact comparisons.
 */
static _Atomic uint32_t firsts[256], unplayed_at[256];
static atomic_bool firsts_made;

static void
first_add(uint32_t m[256], unsigned c, uint32_t bit)
{
	if (c >= 'a' && c <= 'z')
		m[c - 'a' + 'A'] |= bit;
	if (c >= 'A' && c <= 'Z')
		m[c - 'A' + 'a'] |= bit;
	m[c] |= bit;
}

static void
name_add(uint32_t m[256], const char *name)
{
	size_t n = strlen(name);

	if (n > 0 && n < 32)
		first_add(m, (unsigned char)name[0], UINT32_C(1) << n);
}

static void
firsts_make(void)
{
	uint32_t m[256] = { 0 }, u[256] = { 0 };
	size_t k;
	int i, j;

	for (i = 0; i < zh_nvariants; i++) {
		name_add(m, zh_variants[i].name);
		name_add(m, zh_variants[i].tag);
		for (j = 0; j < 8 && zh_variants[i].aliases[j] != NULL; j++)
			name_add(m, zh_variants[i].aliases[j]);
	}
	for (k = 0; k < sizeof chess_names / sizeof chess_names[0]; k++)
		name_add(m, chess_names[k]);
	for (k = 0; k < sizeof unplayed / sizeof unplayed[0]; k++) {
		first_add(m, (unsigned char)unplayed[k][0], 1);
		first_add(u, (unsigned char)unplayed[k][0], UINT32_C(1) << k);
	}
	for (k = 0x80; k < 256; k++)
		m[k] = u[k] = UINT32_MAX;
	for (k = 0; k < 256; k++) {
		atomic_store_explicit(&firsts[k], m[k], memory_order_relaxed);
		atomic_store_explicit(&unplayed_at[k], u[k],
		    memory_order_relaxed);
	}
	atomic_store_explicit(&firsts_made, true, memory_order_release);
}

uint32_t
zh__variant_firsts(int c)
{
	if (!atomic_load_explicit(&firsts_made, memory_order_acquire))
		firsts_make();
	return atomic_load_explicit(&firsts[(unsigned char)c],
	    memory_order_relaxed);
}

size_t
zh__variant_unplayed(const char *s)
{
	uint32_t at;
	size_t n;
	int k;

	/* only the names that start with the word's byte (the index) */
	zh__variant_firsts(*s);
	at = atomic_load_explicit(&unplayed_at[(unsigned char)*s],
	    memory_order_relaxed);
	for (; at != 0; at &= at - 1) {
		k = __builtin_ctz(at);
		if ((n = spells(s, unplayed[k])) > 0)
			return n;
	}
	return 0;
}

/* every name of unplayed[] has its bit in unplayed_at[] */
_Static_assert(sizeof unplayed / sizeof unplayed[0] <= 32, "unplayed_at bits");

/* ======================== pieces ======================== */

#define D10(t)	#t "0" #t "1" #t "2" #t "3" #t "4" #t "5" #t "6" #t "7" #t "8" #t "9"
const char zh__digits2[200] = D10(0) D10(1) D10(2) D10(3) D10(4) D10(5)
    D10(6) D10(7) D10(8) D10(9);
#undef D10

const char zh__letters[ZH_NTYPES] = { 0, 'P', 'N', 'B', 'R', 'Q', 'K', 'A',
    'C' };
#define LT(u, l, t)	[u] = (t), [l] = (t)
const unsigned char zh__types[256] = {
	LT('P', 'p', ZH_PAWN), LT('N', 'n', ZH_KNIGHT), LT('B', 'b', ZH_BISHOP),
	LT('R', 'r', ZH_ROOK), LT('Q', 'q', ZH_QUEEN), LT('K', 'k', ZH_KING),
	LT('A', 'a', ZH_ARCHBISHOP), LT('C', 'c', ZH_CHANCELLOR),
};
#undef LT

char
zh_type_letter(int type)
{
	return zh__type_letter(type);
}

int
zh_letter_type(int c)
{
	return c < 0 || c > 255 ? ZH_EMPTY : zh__letter_type(c);
}

size_t
zh_square_write(int s, char *buf)
{
	return zh__square_write(s, buf);
}
