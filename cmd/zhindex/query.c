/*
 * query.c - zhindex query: a position (a FEN in any dialect, or moves
 * from the start) looked up by its key; every move played from it with
 * its games, W/D/L, mean rating and performance, as a table or as JSON
 * shaped like Lichess's explorer API; the games that reach it; filters
 * by speed, rating and month, from the games' rows.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "zhi.h"
#include "zhiq.h"

struct q {
	const struct zh_variant *force;
	const char *moves;
	bool json, games, filter;
	unsigned speeds;		/* bit per speed; 0: all */
	int rmin, rmax, since, until;	/* 0: no bound */
	unsigned groups;		/* --ratings: bit per group; 0: all */
	int dialect;
	struct zhi_reader *x;
	struct zhi_move m[ZH_MAXMOVES + 1];
	long nm;
	struct zhi_gref *refs;
	long nref;
	struct zh_move legal[ZH_MAXMOVES];	/* the position's, once */
	uint32_t codes[ZH_MAXMOVES];
	int nlegal;
	const struct zh_pos *labelled;
	long order[ZH_MAXMOVES + 1];	/* o->m's shown, most played first */
	long lineno;			/* the question's line on stdin; 0:
					   the argument */
};

/* The position of text s (a FEN, or --moves from the start) of variant
   v: 0, or -1 (err said by the caller). */
static int
position(const struct q *o, const char *s, const struct zh_variant *v,
    struct zh_pos *p, struct zh_error *e)
{
	const char *t;
	struct zh_move mv;

	if (o->moves == NULL)
		return zh_fen_read(p, s, v, ZH_AUTO, 0, e);
	zh_pos_start(p, v);
	for (t = o->moves; *t != '\0';) {
		size_t n;

		while (*t == ' ' || *t == '\t')
			t++;
		if (*t == '\0')
			break;
		n = strcspn(t, " \t");
		if (zh_san_read(p, t, n, &mv, e) != 0) {
			e->col += (long)(t - o->moves);	/* in the option */
			return -1;
		}
		zh_make(p, mv);
		t += n;
	}
	return 0;
}

/* The position found in the index: the variant given, else the first of
   the table whose reading of s is in the index (else the first that
   reads it).  1 found, 0 not, -1 not a position (said). */
static int
find(struct q *o, const char *s, struct zh_pos *p)
{
	struct zh_error e = { 0 }, first = { 0 };
	struct zh_pos q;
	int i, rc, ok = 0;

	for (i = 0; i < zh_nvariants; i++) {
		const struct zh_variant *v = o->force ? o->force : &zh_variants[i];

		e.code = ZH_OK;
		if (position(o, s, v, &q, &e) == 0) {
			if (!ok)
				*p = q;
			ok = 1;
			if ((rc = zhi_lookup(o->x, &q)) != 0) {
				*p = q;
				return rc;
			}
		} else if (i == 0)
			first = e;
		if (o->force)
			break;
	}
	if (ok)
		return 0;
	cli_diag("error", o->lineno ? "<stdin>" : "<arg>", o->lineno ?
	    o->lineno : 1, first.col > 0 ? first.col : 1, "%s%s",
	    o->moves ? "--moves: " : "", first.text[0] ? first.text :
	    "not a position");
	return -1;
}

/* Lichess's rating groups (lila-openingexplorer): a group is its lower
   bound, up to the next one; under 1000 is group 0. */
static const int groups[] = { 0, 1000, 1200, 1400, 1600, 1800, 2000, 2200,
    2500 };
#define NGROUPS ((int)(sizeof groups / sizeof groups[0]))

static int
group_of(int r)
{
	int i;

	for (i = NGROUPS - 1; i > 0 && r < groups[i]; i--)
		;
	return i;
}

static bool
passes(const struct q *o, const struct zhi_grow *g, int board)
{
	int r = g->rating[board];

	if (o->groups && (r == 0 || !(o->groups & (1u << group_of(r)))))
		return false;
	if (o->speeds && !(o->speeds & (1u << g->speed)))
		return false;
	if ((o->rmin && r < o->rmin) || (o->rmax && (r == 0 || r > o->rmax)))
		return false;
	if ((o->since && g->month < o->since) ||
	    (o->until && (g->month == 0 || g->month > o->until)))
		return false;
	return true;
}

/* The rows of the position into o: moves, and the games' list. */
static int
load(struct q *o)
{
	const unsigned char *b;
	size_t n;
	long i;

	b = zhi_row_moves(o->x, &n);
	if ((o->nm = zhi_moves_decode(b, n, o->m, ZH_MAXMOVES + 1)) < 0)
		goto bad;
	o->nref = 0;
	if (!o->filter && !o->games && zhi_row_top(o->x, &n) != NULL)
		return 0;	/* the stored lists and counts say it all */
	b = zhi_row_games(o->x, &n);
	free(o->refs);
	o->refs = NULL;
	if ((o->refs = malloc((b ? n : 1) * sizeof *o->refs)) == NULL)
		return -1;
	if (b == NULL) {
		o->refs[0] = (struct zhi_gref){ (uint32_t)o->m[0].first, 0, 0 };
		o->nref = 1;
	} else if ((o->nref = zhi_games_decode(b, n, o->refs, n)) < 0)
		goto bad;
	for (i = 0; i < o->nref; i++)
		if (o->refs[i].move >= o->nm)
			goto bad;
	return 0;
bad:
	cli_fail("damaged index: a position's row does not decode");
	return -1;
}

/* Filters: the moves' counts again from the games that pass. */
static int
refilter(struct q *o)
{
	struct zhi_grow g;
	long i;

	for (i = 0; i < o->nm; i++) {
		memset(o->m[i].n, 0, sizeof o->m[i].n);
		o->m[i].rsum = o->m[i].rated = 0;
		o->m[i].first = o->m[i].last = 0;
	}
	for (i = 0; i < o->nref; i++) {
		struct zhi_move *m = &o->m[o->refs[i].move];
		int b = o->refs[i].board, res;

		if (zhi_game_row(o->x, o->refs[i].game, &g) != 0)
			return -1;
		if (!passes(o, &g, b))
			continue;
		res = b ? 2 - g.result : g.result;
		m->n[res]++;
		if (g.rating[b] > 0) {
			m->rated++;
			m->rsum += (uint64_t)g.rating[b];
		}
		if (m->first == 0)
			m->first = o->refs[i].game;
		m->last = o->refs[i].game;
	}
	return 0;
}

static uint64_t
total(const struct zhi_move *m)
{
	return m->n[0] + m->n[1] + m->n[2];
}

/* The move of code c in p: its UCI and SAN (dialect d); false if none.
   The legal moves and their codes found once a position. */
static struct q *cur;

static bool
label(const struct zh_pos *p, uint32_t c, int d, char *uci, char *san)
{
	struct q *o = cur;
	int i;

	if (o->labelled != p) {
		o->nlegal = zh_legal_moves(p, o->legal);
		for (i = 0; i < o->nlegal; i++)
			o->codes[i] = zhi_move_code(o->legal[i]);
		o->labelled = p;
	}
	for (i = 0; i < o->nlegal; i++)
		if (o->codes[i] == c) {
			zh_uci_write(p, o->legal[i], uci);
			zh_san_write(p, o->legal[i], d, san);
			return true;
		}
	strcpy(uci, "?");
	strcpy(san, "?");
	return false;
}

/* The moves to show (played, counted after the filters) into o->order,
   most games first as Lichess's explorer lists them, ties by the move's
   code (the same order every run): their number.  An insertion sort: a
   position has at most a few hundred moves, most a handful. */
static long
ordered(struct q *o)
{
	long i, j, n = 0;

	for (i = 0; i < o->nm; i++) {
		uint64_t t = total(&o->m[i]);

		if (o->m[i].code == 0 || t == 0)
			continue;
		for (j = n; j > 0 && total(&o->m[o->order[j - 1]]) < t; j--)
			o->order[j] = o->order[j - 1];
		o->order[j] = i;
		n++;
	}
	return n;
}

/* Performance as Lichess shows it: the mean rating, plus 400 times the
   mover's (wins - losses) / games. */
static long
perf(const struct zhi_move *m, int side)
{
	double n = (double)total(m), w = (double)m->n[side ? 2 : 0],
	    l = (double)m->n[side ? 0 : 2];

	if (m->rated == 0 || n == 0)
		return 0;
	return (long)((double)m->rsum / (double)m->rated + 400 * (w - l) / n);
}

/* s as a JSON string. */
static void
jstr(FILE *f, const char *s)
{
	struct zh_text t = { 0 };

	if (zh_json_string(&t, s, strlen(s)) == 0)
		fputs(t.s, f);
	zh_text_free(&t);
}

static void
game_json(struct q *o, FILE *f, const struct zhi_gref *r, const char *uci)
{
	static const char *const win[] = { "\"white\"", "null", "\"black\"" };
	struct zhi_grow g;
	int b = r->board, res;

	if (zhi_game_row(o->x, r->game, &g) != 0) {
		fputs("null", f);
		return;
	}
	res = b ? 2 - g.result : g.result;
	fprintf(f, "{\"id\":%ld,\"uci\":\"%s\",\"winner\":%s,", g.id, uci,
	    win[res]);
	fputs("\"white\":{\"name\":", f);
	jstr(f, b ? g.white_b : g.white);
	fprintf(f, ",\"rating\":%d},\"black\":{\"name\":", g.elo[2 * b]);
	jstr(f, b ? g.black_b : g.black);
	fprintf(f, ",\"rating\":%d},", g.elo[2 * b + 1]);
	if (g.month > 0)
		fprintf(f, "\"year\":%d,\"month\":\"%04d-%02d\",", g.month / 12,
		    g.month / 12, g.month % 12 + 1);
	fputs("\"file\":", f);
	jstr(f, g.file);
	fprintf(f, ",\"number\":%ld,\"line\":%ld,\"board\":\"%c\"}",
	    g.number, g.line, b ? 'B' : 'A');
}

/* The top (by rating) or recent (by month) games: from the stored list
   when there is one and no filter, else from the games' rows. */
static long
pick(struct q *o, bool top, struct zhi_gref *out)
{
	const unsigned char *b, *p, *end;
	struct zhi_grow g;
	long key[ZHI_TOP], i, k, n = 0;
	size_t len;
	uint64_t v, c, w;

	b = zhi_row_top(o->x, &len);
	if (b != NULL && !o->filter) {
		p = b;
		end = b + len;
		if (!top && (zhi_get(&p, end, &c) != 0 || c > ZHI_TOP ||
		    (p += 0, false)))
			return 0;
		for (k = 0; !top && k < (long)c; k++)
			if (zhi_get(&p, end, &v) || zhi_get(&p, end, &w))
				return 0;
		if (zhi_get(&p, end, &c) != 0 || c > ZHI_TOP)
			return 0;
		for (k = 0; k < (long)c; k++) {
			if (zhi_get(&p, end, &v) || zhi_get(&p, end, &w) ||
			    v > UINT32_MAX || w / 2 >= (uint64_t)o->nm)
				return k;
			out[k] = (struct zhi_gref){ (uint32_t)v,
			    (uint32_t)(w / 2), (uint8_t)(w & 1) };
		}
		return (long)c;
	}
	for (i = 0; i < o->nref; i++) {
		long s;

		if ((i > 0 && o->refs[i - 1].game == o->refs[i].game) ||
		    zhi_game_row(o->x, o->refs[i].game, &g) != 0 ||
		    !passes(o, &g, o->refs[i].board))
			continue;
		s = top ? g.rating[o->refs[i].board] : g.month;
		for (k = n; k > 0 && s > key[k - 1]; k--)
			if (k < ZHI_TOP) {
				key[k] = key[k - 1];
				out[k] = out[k - 1];
			}
		if (k < ZHI_TOP) {
			key[k] = s;
			out[k] = o->refs[i];
			if (n < ZHI_TOP)
				n++;
		}
	}
	return n;
}

static void
lists_json(struct q *o, FILE *f, const struct zh_pos *p)
{
	struct zhi_gref r[ZHI_TOP];
	char uci[ZH_MOVEMAX], san[ZH_MOVEMAX];
	long n, k;
	int t;

	for (t = 0; t < 2; t++) {
		fputs(t ? ",\"recentGames\":[" : ",\"topGames\":[", f);
		n = pick(o, t == 0, r);
		for (k = 0; k < n; k++) {
			if (o->m[r[k].move].code == 0)
				strcpy(uci, "");
			else
				label(p, o->m[r[k].move].code, o->dialect, uci, san);
			if (k > 0)
				putc(',', f);
			game_json(o, f, &r[k], uci);
		}
		putc(']', f);
	}
}

static void
answer_json(struct q *o, FILE *f, const struct zh_pos *p, const char *fen)
{
	struct zhi_move all = { 0 };
	char uci[ZH_MOVEMAX], san[ZH_MOVEMAX];
	long i, nshow;
	bool first = true;

	for (i = 0; i < o->nm; i++) {
		all.n[0] += o->m[i].n[0];
		all.n[1] += o->m[i].n[1];
		all.n[2] += o->m[i].n[2];
	}
	fputs("{\"fen\":", f);
	jstr(f, fen);
	fprintf(f, ",\"variant\":\"%s\",\"white\":%llu,\"draws\":%llu,"
	    "\"black\":%llu,\"moves\":[", p->v->name,
	    (unsigned long long)all.n[0], (unsigned long long)all.n[1],
	    (unsigned long long)all.n[2]);
	nshow = ordered(o);
	for (i = 0; i < nshow; i++) {
		const struct zhi_move *m = &o->m[o->order[i]];

		label(p, m->code, o->dialect, uci, san);
		fprintf(f, "%s{\"uci\":\"%s\",\"san\":\"%s\",\"white\":%llu,"
		    "\"draws\":%llu,\"black\":%llu,\"averageRating\":%llu,"
		    "\"performance\":%ld}", first ? "" : ",", uci, san,
		    (unsigned long long)m->n[0], (unsigned long long)m->n[1],
		    (unsigned long long)m->n[2], (unsigned long long)(m->rated ?
		    m->rsum / m->rated : 0), perf(m, p->side));
		first = false;
	}
	putc(']', f);
	lists_json(o, f, p);
	fputs("}\n", f);
}

static void
answer_table(struct q *o, FILE *f, const struct zh_pos *p, const char *fen)
{
	char uci[ZH_MOVEMAX], san[ZH_MOVEMAX];
	uint64_t n, all = 0, stop = 0;
	long i, nshow;

	for (i = 0; i < o->nm; i++)
		all += total(&o->m[i]);
	for (i = 0; i < o->nm; i++)
		if (o->m[i].code == 0)
			stop = total(&o->m[i]);
	fprintf(f, "%s (%s): %llu game%s", fen, p->v->name,
	    (unsigned long long)all, all == 1 ? "" : "s");
	if (stop > 0)
		fprintf(f, ", %llu ending here or at the plies indexed",
		    (unsigned long long)stop);
	fprintf(f, "\n%-9s %-7s %7s %6s %6s %6s %6s %6s\n", "move", "uci",
	    "games", "white", "draws", "black", "rating", "perf");
	nshow = ordered(o);
	for (i = 0; i < nshow; i++) {
		const struct zhi_move *m = &o->m[o->order[i]];

		n = total(m);
		label(p, m->code, o->dialect, uci, san);
		fprintf(f, "%-9s %-7s %7llu %5.1f%% %5.1f%% %5.1f%% ",
		    san, uci, (unsigned long long)n, 100.0 * (double)m->n[0] /
		    (double)n, 100.0 * (double)m->n[1] / (double)n, 100.0 *
		    (double)m->n[2] / (double)n);
		if (m->rated == 0)	/* no game with ratings: none to show */
			fprintf(f, "%6s %6s\n", "-", "-");
		else
			fprintf(f, "%6llu %6ld\n", (unsigned long long)(m->rsum /
			    m->rated), perf(m, p->side));
	}
}

/* --games: every game reaching the position, one line each (TSV, or
   JSON objects with -J). */
static void
answer_games(struct q *o, FILE *f)
{
	struct zhi_grow g;
	long i;

	for (i = 0; i < o->nref; i++) {
		if ((i > 0 && o->refs[i - 1].game == o->refs[i].game) ||
		    zhi_game_row(o->x, o->refs[i].game, &g) != 0 ||
		    !passes(o, &g, o->refs[i].board))
			continue;
		if (o->json) {
			game_json(o, f, &o->refs[i], "");
			putc('\n', f);
		} else
			fprintf(f, "%s\t%ld\t%ld\t%s\t%s\t%s\t%s\t%s\n", g.file,
			    g.number, g.line, g.white, g.black, (const char *[])
			    { "1-0", "1/2-1/2", "0-1" }[g.result], g.date, g.site);
	}
}

/* One position asked: 0 found or not, -1 not a position. */
static int
ask(struct q *o, const char *s, FILE *f)
{
	struct zh_pos p;
	char fen[ZH_FENMAX];
	int rc = find(o, s, &p);

	if (rc < 0)
		return -1;
	zh_fen_write(&p, o->dialect, fen, sizeof fen);
	o->nm = o->nref = 0;
	cur = o;
	o->labelled = NULL;
	if (rc > 0 && (load(o) != 0 || (o->filter && refilter(o) != 0)))
		return -1;
	if (o->games)
		answer_games(o, f);
	else if (o->json)
		answer_json(o, f, &p, fen);
	else
		answer_table(o, f, &p, fen);
	return 0;
}

enum { Q_MOVES = 0x700, Q_SPEED, Q_RATING, Q_SINCE, Q_UNTIL, Q_GAMES,
	Q_RATINGS };

static int
ratings_arg(struct q *o, const char *s)
{
	char buf[256], *t, *save = NULL, *end;
	int i;

	snprintf(buf, sizeof buf, "%s", s);
	for (t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		long v = strtol(t, &end, 10);

		for (i = 0; i < NGROUPS && (*end != '\0' || v != groups[i]); i++)
			;
		if (i == NGROUPS) {
			cli_fail("--ratings: '%s' is not one of 0, 1000, 1200, "
			    "1400, 1600, 1800, 2000, 2200, 2500", t);
			return -1;
		}
		o->groups |= 1u << i;
	}
	return 0;
}

static int
month_arg(const char *s, int *m, const char *opt)
{
	if ((*m = zhi_month(s)) == 0) {
		cli_fail("%s: '%s' is not a month YYYY-MM", opt, s);
		return -1;
	}
	return 0;
}

/* --rating A-B, A- or A (from A up): whole numbers, B not under A. */
static int
rating_arg(struct q *o, const char *s)
{
	char *end;
	long a, b = 0;

	errno = 0;
	a = strtol(s, &end, 10);
	if (end != s && *end == '-' && end[1] != '\0') {
		const char *t = end + 1;

		b = strtol(t, &end, 10);
		if (end == t || b < a)
			b = -1;
	} else if (end != s && *end == '-')
		end++;
	if (end == s || *end != '\0' || !isdigit((unsigned char)*s) ||
	    errno != 0 || a > 9999 || b < 0 || b > 9999) {
		cli_fail("--rating: '%s' is not A-B (B not under A), A- or A, "
		    "whole numbers", s);
		return -1;
	}
	o->rmin = (int)a;
	o->rmax = (int)b;
	return 0;
}

static int
speed_arg(struct q *o, const char *s)
{
	char buf[256], *t, *save = NULL;
	int i;

	snprintf(buf, sizeof buf, "%s", s);
	for (t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < ZHI_NSPEEDS && strcmp(t, zhi_speeds[i]) != 0; i++)
			;
		if (i == ZHI_NSPEEDS) {
			cli_fail("--speed: '%s' is not one of ultraBullet, bullet, "
			    "blitz, rapid, classical, correspondence, unknown", t);
			return -1;
		}
		o->speeds |= 1u << i;
	}
	return 0;
}

static int
query_option(struct q *o, int c, const char *arg)
{
	switch (c) {
	case 'J': o->json = true; return 0;
	case Q_GAMES: o->games = true; return 0;
	case Q_MOVES: o->moves = arg; return 0;
	case 'v': return (o->force = cli_variant(arg)) ? 0 : -1;
	case 't':
		return (o->dialect = cli_dialect(arg, "--to", false)) < 0 ? -1 : 0;
	case Q_SPEED: o->filter = true; return speed_arg(o, arg);
	case Q_RATING:
		o->filter = true;
		return rating_arg(o, arg);
	case Q_RATINGS: o->filter = true; return ratings_arg(o, arg);
	case Q_SINCE:
		o->filter = true;
		return month_arg(arg, &o->since, "--since");
	case Q_UNTIL:
		o->filter = true;
		return month_arg(arg, &o->until, "--until");
	default: return -1;
	}
}

int
zhiq_query(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "games", no_argument, NULL, Q_GAMES },
		{ "moves", required_argument, NULL, Q_MOVES },
		{ "variant", required_argument, NULL, 'v' },
		{ "to", required_argument, NULL, 't' },
		{ "speed", required_argument, NULL, Q_SPEED },
		{ "rating", required_argument, NULL, Q_RATING },
		{ "ratings", required_argument, NULL, Q_RATINGS },
		{ "since", required_argument, NULL, Q_SINCE },
		{ "until", required_argument, NULL, Q_UNTIL },
		{ NULL, 0, NULL, 0 }
	};
	static struct q o;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int c, rc = EXIT_VALID;

	o.dialect = ZH_LICHESS;
	while ((c = getopt_long(argc, argv, "Jv:t:", lopts, NULL)) != -1)
		if (c == '?' || query_option(&o, c, optarg) != 0)
			return cli_usage();
	argc -= optind;
	argv += optind;
	if (argc < 1 || argc > 2 || (o.moves == NULL) != (argc == 2)) {
		cli_fail("query FILE.zhi POSITION (a FEN, '-' for one a line, or "
		    "--moves 'e4 e5')");
		return cli_usage();
	}
	if ((o.x = zhi_open(argv[0])) == NULL)
		return cli_exit(EXIT_USAGE);
	if (o.moves != NULL || strcmp(argv[1], "-") != 0)
		rc = ask(&o, o.moves ? "" : argv[1], stdout) != 0 ? EXIT_INVALID : 0;
	else
		while ((n = getline(&line, &cap, stdin)) > 0) {
			line[strcspn(line, "\r\n")] = '\0';
			o.lineno++;
			if (ask(&o, line, stdout) != 0)
				rc = EXIT_INVALID;
			fflush(stdout);	/* an answer a question: a pipe's
					   reader waits for it */
		}
	free(line);
	free(o.refs);
	zhi_close(o.x);
	return cli_exit(rc);
}
