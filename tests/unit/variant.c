/* variant.c - unit tests of the variant a game's tags name: the Event's
 * words looked up through the first-byte index of the variant table
 * (lib/variant.c) decide as the table's exact lookup, zh_variant_find(),
 * does for every name of every row, in every case; the games zhkit does
 * not play are refused whatever their first byte. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "zh_int.h"

/* The variant zh_game_variant finds for a game with this Event tag (and
 * no other), or NULL with *refused set when it is an error. */
static const struct zh_variant *
event(const char *ev, bool *refused)
{
	char text[512];
	FILE *f;
	struct zh_pgn_reader *r;
	struct zh_game g;
	struct zh_error err = { 0 };
	const struct zh_variant *v = NULL;

	snprintf(text, sizeof text, "[Event \"%s\"]\n\n1. e4 *\n", ev);
	f = fmemopen(text, strlen(text), "r");
	if (f == NULL || (r = zh_pgn_open(f, NULL)) == NULL) {
		perror("fmemopen");
		exit(2);
	}
	*refused = false;
	if (zh_pgn_next(r, &g) != 1) {
		fprintf(stderr, "no game: %s\n", ev);
		check_failed++;
	} else if (zh_game_variant(&g, NULL, &v, &err) != 0) {
		*refused = true;
		v = NULL;
	}
	zh_pgn_close(r);
	fclose(f);
	return v;
}

/* A name the Event's words can hold: letters, digits and '/' only. */
static bool
one_word(const char *s)
{
	for (; *s != '\0'; s++)
		if (!isalnum((unsigned char)*s) && *s != '/')
			return false;
	return true;
}

/* Every single-word name of every row, as written, upper and lower case,
 * decides as zh_variant_find(name) says (a chess row's name says nothing:
 * chess as without the tag). */
static void
test_every_name(void)
{
	int i, j, k;

	for (i = 0; i < zh_nvariants; i++) {
		const struct zh_variant *row = &zh_variants[i];
		const char *names[10] = { row->name, row->tag };
		int n = 2;

		for (j = 0; j < 8 && row->aliases[j] != NULL; j++)
			names[n++] = row->aliases[j];
		for (j = 0; j < n; j++) {
			const struct zh_variant *want = zh_variant_find(names[j]);
			char word[64], ev[128];

			if (!one_word(names[j]))
				continue;
			if (want->chess_tags)
				want = zh_variant_chess();
			for (k = 0; k < 3; k++) {
				const struct zh_variant *got;
				bool refused;
				size_t c;

				snprintf(word, sizeof word, "%s", names[j]);
				for (c = 0; word[c] != '\0'; c++)
					if (k > 0)
						word[c] = (char)(k == 1 ?
						    toupper((unsigned char)word[c]) :
						    tolower((unsigned char)word[c]));
				snprintf(ev, sizeof ev, "Rated %s game", word);
				got = event(ev, &refused);
				CHECK(!refused && got == want);
				if (refused || got != want)
					fprintf(stderr, "  Event \"%s\": %s\n", ev,
					    got != NULL ? got->name : "refused");
			}
		}
	}
}

/* The index: for every byte and length that a name of the table starts
 * with (either case), the bit is set; the words no name starts like are
 * the ones passed over. */
static void
test_index(void)
{
	int i, j, c;

	for (i = 0; i < zh_nvariants; i++) {
		const char *names[10] = { zh_variants[i].name, zh_variants[i].tag };
		int n = 2;

		for (j = 0; j < 8 && zh_variants[i].aliases[j] != NULL; j++)
			names[n++] = zh_variants[i].aliases[j];
		for (j = 0; j < n; j++) {
			size_t len = strlen(names[j]);

			c = (unsigned char)names[j][0];
			CHECK((zh__variant_firsts(tolower(c)) >> len & 1) != 0);
			CHECK((zh__variant_firsts(toupper(c)) >> len & 1) != 0);
		}
	}
	for (c = 0x80; c < 256; c++)	/* left to the exact comparisons */
		CHECK(zh__variant_firsts(c) == ~(uint32_t)0);
	CHECK(zh__variant_firsts('R') == zh__variant_firsts('r'));
}

/* Events as the servers write them: the variant, chess, or refused. */
static void
test_events(void)
{
	static const struct {
		const char *ev, *want;	/* want NULL: refused */
	} cases[] = {
		{ "Rated Blitz game", "chess" },
		{ "Rated Correspondence game", "chess" },
		{ "Rated Crazyhouse game", "crazyhouse" },
		{ "FICS rated crazyhouse game", "crazyhouse" },
		{ "FICS unrated bughouse game", "bughouse" },
		{ "ICS rated wild/5 match", "wild5" },
		{ "ICS rated wild/23 match", "crazyhouse" },
		{ "Live Chess", "chess" },
		{ "Standard chess", "chess" },
		{ "Rated \xc3\xa9" "chec game", "chess" },
		{ "Rated \xe9" "chec game", "chess" },
		{ "", "chess" },
		{ "FICS rated atomic game", NULL },
		{ "FICS rated ATOMIC game", NULL },
		{ "Casual King of the Hill game", NULL },
		{ "Casual KOTH game", NULL },
		{ "Live Chess - 3 Check", NULL },
		{ "Rated Three-check game", NULL },
		{ "Rated Racing Kings game", NULL },
		{ "ICS rated wild/22 match", NULL },
		{ "internet, rated loser's match", NULL },
		{ "4PlayerTeams", NULL },
		{ "Rated Chess960 game", NULL },
		{ "Racing club open", "chess" },
		{ "Atomics open", "chess" },
		{ "Wildcat cup", "chess" },
	};
	size_t k;

	for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		bool refused;
		const struct zh_variant *got = event(cases[k].ev, &refused);

		if (cases[k].want == NULL) {
			CHECK(refused);
		} else {
			CHECK(!refused && got == zh_variant_find(cases[k].want));
		}
		if (cases[k].want == NULL ? !refused :
		    refused || got != zh_variant_find(cases[k].want))
			fprintf(stderr, "  Event \"%s\": %s\n", cases[k].ev,
			    got != NULL ? got->name : "refused");
	}
}

int
main(void)
{
	test_index();
	test_every_name();
	test_events();
	return check_report("variant");
}
