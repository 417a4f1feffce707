/*
 * merge.c - zhpgn --merge-boards: the board games of a stream taken two
 * at a time and merged into one BPGN game each (zh_merge_boards), with the
 * clock ties that legality decided told as notes.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "merge.h"

/* The ties the clocks left open and the moves' legality decided. */
static void
notes(const struct merge_run *m, const char *name, long na, long nb,
    const struct zh_merge_report *rep, const struct zh_game *a)
{
	size_t k;

	if (rep->stamps_illegal)
		cli_fdiag(stderr, "note", name, a->line, 1, "games %ld and %ld: "
		    "the moves' time stamps ([%%ts]) give no legal order; "
		    "merged by the clocks", na, nb);
	for (k = 0; k < rep->ntie; k++) {
		const struct zh_merge_tie *t = &rep->tie[k];
		int x = t->first, y = !x;

		if (!t->mattered && !t->against)
			continue;
		cli_fdiag(stderr, "note", name, t->line[y], t->col[y],
		    "games %ld and %ld: %s. %s (board %c, %.3f s) and %s. %s "
		    "(board %c, %.3f s) %s; %s. %s written first, %s", na, nb,
		    t->label[0], t->san[0], 'A', t->time[0], t->label[1],
		    t->san[1], 'B', t->time[1], t->time[0] == t->time[1] ?
		    "have the same time" : "are within the clocks' resolution",
		    t->label[x], t->san[x], t->mattered ?
		    "the only legal order" : "as legality needs");
	}
	if (rep->ties > 0)
		cli_fdiag(stderr, "note", name, a->line, 1, "games %ld and %ld: "
		    "%zu pair%s of moves the clocks did not order, %zu decided "
		    "by legality, %zu either way", na, nb, rep->ties,
		    rep->ties == 1 ? "" : "s", rep->mattered,
		    rep->ties - rep->mattered);
	if (rep->result_conflict)
		cli_fdiag(stderr, "note", name, a->line, 1, "games %ld and %ld: "
		    "the boards' Result tags disagree; board A's (%s) written",
		    na, nb, rep->result);
	(void)m;
}

/* Merge the pair; false if the output could not be written. */
static bool
merge_pair(struct merge_run *m, const char *name, const struct zh_game *a,
    const struct zh_game *b, FILE *out)
{
	struct zh_merge_report rep;
	struct zh_error e;
	long na = a->number + m->offset, nb = b->number + m->offset;
	char where[40] = "";

	if (zh_merge_boards(a, b, out, m->to, &rep, &e) != 0) {
		if (e.code == ZH_EIO)
			return false;
		if (e.ply > 0 && rep.err_board >= 0)
			snprintf(where, sizeof where, ", ply %ld on board %c",
			    e.ply, zh_board_letter(rep.err_board));
		cli_fdiag(stderr, "error", name, e.line ? e.line : a->line,
		    e.col ? e.col : 1, "games %ld and %ld%s: %s; not merged",
		    na, nb, where, e.text);
		m->failed += 2;
		return true;
	}
	m->merged++;
	notes(m, name, na, nb, &rep, a);
	return !cli_outputs_failed();
}

/* A game that found no partner. */
static void
alone(struct merge_run *m, const char *name, const struct zh_game *g,
    const char *why)
{
	cli_fdiag(stderr, "error", name, g->line, 1, "game %ld: %s; not merged",
	    g->number + m->offset, why);
	m->failed++;
}

int
merge_boards(struct merge_run *m, FILE *in, const char *name, FILE *out)
{
	struct zh_pgn_reader *r = zh_pgn_open(in, &m->limits);
	struct zh_game g, *first = NULL;
	int rc = 0;
	bool ok = true;

	if (r == NULL) {
		cli_fail("out of memory");
		return -1;
	}
	while (ok && (rc = zh_pgn_next(r, &g)) == 1) {
		int pair;

		m->games++;
		if (first == NULL) {
			if ((first = zh_game_dup(&g)) == NULL) {
				cli_fail("out of memory");
				ok = false;
			}
			continue;
		}
		pair = zh_boards_pair(first, &g);
		if (pair == ZH_PAIR_NO) {
			alone(m, name, first, "the game after it is not its "
			    "partner board (Board and PartnerGame tags)");
			free(first);
			if ((first = zh_game_dup(&g)) == NULL) {
				cli_fail("out of memory");
				ok = false;
			}
			continue;
		}
		ok = pair == ZH_PAIR_BA ? merge_pair(m, name, &g, first, out) :
		    merge_pair(m, name, first, &g, out);
		free(first);
		first = NULL;
	}
	if (ok && rc < 0) {
		cli_read_error(in, name);
		ok = false;
	}
	if (ok && first != NULL)
		alone(m, name, first, "no partner board after it");
	free(first);
	zh_pgn_close(r);
	return ok ? 0 : -1;
}
