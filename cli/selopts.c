/*
 * selopts.c - the selection options of the PGN tools (selopts.h): parsing,
 * a game's verdict, duplicates, --max, counts, the summary and --stats.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


#include "cli.h"
#include "selopts.h"

static const char *test_option(const struct sel *s, int i);
static int want_tags(struct sel *s);

/* The option that adds tests of libzh's kind k, for messages and counts. */
static const char *
kind_option(int k)
{
	switch (k) {
	case ZH_SEL_TAG:	return "--tag";
	case ZH_SEL_PLAYER:	return "--player";
	case ZH_SEL_VARIANT:	return "--game-variant";
	case ZH_SEL_PLIES:	return "--ply-count";
	case ZH_SEL_ENDING:	return "--ending";
	case ZH_SEL_VALID:	return "--only-valid";
	case ZH_SEL_POSITION:	return "--position";
	}
	return "--?";
}

/* Keep an option as given, for --stats; -1 out of memory (said). */
static int
keep_given(struct sel *s, const char *opt, const char *arg)
{
	struct sel_given *ng;

	ng = realloc(s->given, (size_t)(s->ngiven + 1) * sizeof *ng);
	if (ng == NULL) {
		cli_fail("out of memory");
		return -1;
	}
	s->given = ng;
	s->given[s->ngiven].opt = opt;
	s->given[s->ngiven++].arg = arg;
	return 0;
}

/* A test of kind k: "TOOL: OPT 'TEXT': COL: REASON" if it is wrong. */
static int
add_test(struct sel *s, int k, const char *opt, const char *text,
    const char *shown)
{
	struct zh_error e;

	if (s->s == NULL && (s->s = zh_select_new()) == NULL) {
		cli_fail("out of memory");
		return -1;
	}
	memset(&e, 0, sizeof e);
	if (zh_select_add(s->s, k, text, &e) != 0) {
		if (shown != NULL)
			cli_fail("%s: %s", opt, e.text);
		else
			cli_fail("%s '%s': %ld: %s", opt, text,
			    e.col > 0 ? (long)e.col : 1L, e.text);
		return -1;
	}
	return 0;
}

int
sel_option(struct sel *s, int c, const char *arg)
{
	static const int kinds[] = {
		[SEL_TAG - SEL_TAG] = ZH_SEL_TAG,
		[SEL_PLAYER - SEL_TAG] = ZH_SEL_PLAYER,
		[SEL_GVARIANT - SEL_TAG] = ZH_SEL_VARIANT,
		[SEL_PLIES - SEL_TAG] = ZH_SEL_PLIES,
		[SEL_ENDING - SEL_TAG] = ZH_SEL_ENDING,
		[SEL_POSITION - SEL_TAG] = ZH_SEL_POSITION,
	};
	const char *opt;
	int rc = 0;

	switch (c) {
	case SEL_TAG: case SEL_PLAYER: case SEL_GVARIANT: case SEL_PLIES:
	case SEL_ENDING: case SEL_POSITION:
		opt = kind_option(kinds[c - SEL_TAG]);
		rc = add_test(s, kinds[c - SEL_TAG], opt, arg, NULL);
		break;
	case SEL_VALID:
	case SEL_INVALID:
		opt = c == SEL_VALID ? "--only-valid" : "--only-invalid";
		rc = add_test(s, ZH_SEL_VALID, opt,
		    c == SEL_VALID ? "valid" : "invalid", opt);
		arg = NULL;
		break;
	case SEL_DEDUPE:
		opt = "--dedupe";
		s->dedupe = true;
		break;
	case SEL_DUPLICATES:
		opt = "--duplicates";
		s->dupes_path = arg;
		s->dedupe = true;	/* the file is of the duplicates dropped */
		break;
	case SEL_MAX:
		opt = "--max";
		if ((s->max = cli_number(arg, 1, 1L << 50, "--max")) < 0)
			return -1;
		break;
	case SEL_INVERT:
		opt = "--invert";
		s->invert = true;
		break;
	case SEL_STATS:
		opt = "--stats";
		s->stats_path = arg;
		break;
	default:
		return 0;
	}
	if (rc != 0 || keep_given(s, opt, arg) != 0)
		return -1;
	s->on = true;
	return 1;
}

/*
 * The tag tests' verdict as a drop: 0, the test that drops g, or past
 * --invert's cause (ntests + 1) the test that could not decide (a regex
 * match that reached its bounds: undecided()).
 */
static int
tags_verdict(const struct sel *s, const struct zh_game *g)
{
	int rc = zh_select_tags(s->s, g);

	return rc >= 0 ? rc : s->ntests + 1 - rc;
}

static bool
undecided(const struct sel *s, int drop)
{
	return drop > s->ntests + 1;
}

/* The reader's filter: the tag tests, before the moves are read. */
static int
tag_filter(void *arg, const struct zh_game *g)
{
	return tags_verdict(arg, g);
}

int
sel_tags_now(const struct sel *s, const struct zh_game *g)
{
	return tags_verdict(s, g);
}

int
sel_setup(struct sel *s, struct jobs *j, int ninputs, char *const *inputs)
{
	int i;

	s->ninputs = ninputs;
	s->inputs = inputs;
	if (!s->on)
		return 0;
	if (s->dupes_path != NULL)
		cli_output(s->dupes_path, &s->dupes);
	if (s->stats_path != NULL)
		cli_output(s->stats_path, &s->stats);
	s->ntests = s->s ? zh_select_count(s->s) : 0;
	for (i = 1; i <= s->ntests; i++)
		if (zh_select_kind(s->s, i) == ZH_SEL_TAG ||
		    zh_select_kind(s->s, i) == ZH_SEL_PLAYER)
			s->tags = true;
	s->game = s->s != NULL && zh_select_needs_replay(s->s);
	/* Under --invert a game that fails a tag test is selected: its
	   moves are needed, so the tags are tested on the whole game. */
	s->filter = s->tags && !s->invert;
	if (s->filter) {
		j->filter = tag_filter;
		j->filter_arg = s;
	}
	if (s->dedupe)
		j->route = true;	/* a duplicate's output is dropped */
	if ((s->dropped = calloc((size_t)s->ntests + 2,
	    sizeof *s->dropped)) == NULL) {
		cli_fail("out of memory");
		return -1;
	}
	return want_tags(s);
}

int
sel_game(const struct sel *s, const struct zh_game *g,
    const struct zh_replay *r, int rc, int tagdrop,
    struct zh_select_scratch *sc, struct jobs_res *res)
{
	int drop = tagdrop;

	if (!s->on)
		return 0;
	if (drop == 0 && s->game)
		drop = zh_select_game(s->s, g, r, rc, sc);
	if (s->invert && !undecided(s, drop))
		drop = drop ? 0 : s->ntests + 1;
	res->drop = drop;
	/* Only a valid game has a key: an invalid one is never a duplicate
	   (its moves after the error are text, not moves). */
	if (drop == 0 && s->dedupe && rc == 0 && g->err.code == ZH_OK) {
		res->key = zh_game_key(g, r);
		res->has_key = true;
	}
	return drop;
}

/* ======================== duplicates ======================== */

/*
 * The keys seen, in a table of 16-byte slots doubled when 3/4 full:
 * 21 to 43 bytes a distinct game.  {0, 0} marks an empty slot, so a key
 * that is {0, 0} is kept as {0, 1} (one key in 2^128 shares it).
 */
static int
set_grow(struct sel *s)
{
	size_t ncap = s->setcap ? 2 * s->setcap : 1024, i, k;
	struct zh_key *nt = calloc(ncap, sizeof *nt);

	if (nt == NULL)
		return -1;
	for (i = 0; i < s->setcap; i++) {
		if ((s->set[i].hi | s->set[i].lo) == 0)
			continue;
		for (k = s->set[i].lo & (ncap - 1);
		    (nt[k].hi | nt[k].lo) != 0; k = (k + 1) & (ncap - 1))
			;
		nt[k] = s->set[i];
	}
	free(s->set);
	s->set = nt;
	s->setcap = ncap;
	return 0;
}

/* 1 if key was seen before, else 0 (kept); -1 out of memory. */
static int
seen(struct sel *s, struct zh_key key)
{
	size_t k;

	if (key.hi == 0 && key.lo == 0)
		key.lo = 1;
	if (4 * (s->setn + 1) > 3 * s->setcap && set_grow(s) != 0)
		return -1;
	for (k = key.lo & (s->setcap - 1); (s->set[k].hi | s->set[k].lo) != 0;
	    k = (k + 1) & (s->setcap - 1))
		if (s->set[k].hi == key.hi && s->set[k].lo == key.lo)
			return 1;
	s->set[k] = key;
	s->setn++;
	return 0;
}

/* ======================== tags never seen ======================== */

#define NAMESMAX	4096	/* tag names kept for the nearest */

/*
 * The tags that --tag tests name and that no game read has had yet, and
 * while there are any, the names the games had (to name the nearest).
 * Noted by the workers as each game's tags are read (under -j the main
 * thread never sees them), under one lock taken only while some tag is
 * unseen: once each has been seen, no game takes it.
 */
struct sel_seen {
	pthread_mutex_t lock;
	atomic_int left;		/* nunseen, read without the lock */
	char **unseen;
	int *test;			/* the test (1-based) of each */
	int nunseen;
	char **names;			/* open addressing, NAMESMAX at most */
	size_t capnames, nnames;
};

static size_t
name_hash(const char *s)
{
	size_t h = 5381;

	for (; *s != '\0'; s++)
		h = h * 33 ^ (unsigned char)*s;
	return h;
}

/* Room for one more name; false if full or out of memory. */
static bool
names_grow(struct sel_seen *w)
{
	size_t ncap, i, k;
	char **nt;

	if (w->nnames >= NAMESMAX)
		return false;
	if (2 * (w->nnames + 1) <= w->capnames)
		return true;
	ncap = w->capnames ? 2 * w->capnames : 64;
	if ((nt = calloc(ncap, sizeof *nt)) == NULL)
		return false;
	for (k = 0; k < w->capnames; k++) {
		if (w->names[k] == NULL)
			continue;
		for (i = name_hash(w->names[k]) & (ncap - 1); nt[i] != NULL;
		    i = (i + 1) & (ncap - 1))
			;
		nt[i] = w->names[k];
	}
	free(w->names);
	w->names = nt;
	w->capnames = ncap;
	return true;
}

/* Keep the tag name 'name' (once); quietly not when full or out of
 * memory: the nearest name is a hint. */
static void
name_add(struct sel_seen *w, const char *name)
{
	size_t i;

	if (!names_grow(w))
		return;
	for (i = name_hash(name) & (w->capnames - 1); w->names[i] != NULL;
	    i = (i + 1) & (w->capnames - 1))
		if (strcmp(w->names[i], name) == 0)
			return;
	if ((w->names[i] = strdup(name)) != NULL)
		w->nnames++;
}

void
sel_note_tags(const struct sel *s, const struct zh_game *g)
{
	struct sel_seen *w = s->seen;
	size_t t;
	int k;

	if (atomic_load_explicit(&w->left, memory_order_relaxed) == 0)
		return;
	pthread_mutex_lock(&w->lock);
	for (k = 0; k < w->nunseen; k++)
		if (zh_game_tag(g, w->unseen[k]) != NULL) {
			free(w->unseen[k]);
			w->unseen[k] = w->unseen[--w->nunseen];
			w->test[k] = w->test[w->nunseen];
			k--;
		}
	for (t = 0; w->nunseen > 0 && t < g->ntags; t++)
		name_add(w, g->tags[t].name);
	atomic_store(&w->left, w->nunseen);
	pthread_mutex_unlock(&w->lock);
}

/* One more tag to see: the name of test i (before any '.'). */
static int
want_tag(struct sel_seen *w, const char *t, int i)
{
	size_t n;
	char **un;
	int *ut;

	t += strspn(t, " \t");
	n = strspn(t, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
	if ((un = realloc(w->unseen, (size_t)(w->nunseen + 1) *
	    sizeof *un)) != NULL)
		w->unseen = un;
	if ((ut = realloc(w->test, (size_t)(w->nunseen + 1) *
	    sizeof *ut)) != NULL)
		w->test = ut;
	if (un == NULL || ut == NULL ||
	    (w->unseen[w->nunseen] = strndup(t, n)) == NULL)
		return -1;
	w->test[w->nunseen++] = i;
	return 0;
}

/* The tag names --tag tests name, to see; -1 out of memory (said). */
static int
want_tags(struct sel *s)
{
	struct sel_seen *w;
	int i;

	for (i = 1; i <= s->ntests; i++)
		if (zh_select_kind(s->s, i) == ZH_SEL_TAG)
			break;
	if (i > s->ntests)
		return 0;
	if ((w = s->seen = calloc(1, sizeof *w)) == NULL) {
		cli_fail("out of memory");
		return -1;
	}
	pthread_mutex_init(&w->lock, NULL);
	for (; i <= s->ntests; i++)
		if (zh_select_kind(s->s, i) == ZH_SEL_TAG &&
		    want_tag(w, zh_select_text(s->s, i), i) != 0) {
			cli_fail("out of memory");
			return -1;
		}
	atomic_store(&w->left, w->nunseen);
	return 0;
}

static void
seen_free(struct sel_seen *w)
{
	size_t k;
	int i;

	if (w == NULL)
		return;
	for (i = 0; i < w->nunseen; i++)
		free(w->unseen[i]);
	free(w->unseen);
	free(w->test);
	for (k = 0; k < w->capnames; k++)
		free(w->names[k]);
	free(w->names);
	pthread_mutex_destroy(&w->lock);
	free(w);
}

/* Levenshtein's distance between a and b, letters of either case equal
 * (names of at most 63 bytes; longer ones are far). */
static size_t
distance(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b), i, k, row[64], diag, up;

	if (na > 63 || nb > 63)
		return SIZE_MAX;
	for (k = 0; k <= nb; k++)
		row[k] = k;
	for (i = 1; i <= na; i++) {
		diag = row[0];
		row[0] = i;
		for (k = 1; k <= nb; k++) {
			up = row[k];
			row[k] = diag + (tolower((unsigned char)a[i - 1]) !=
			    tolower((unsigned char)b[k - 1]));
			if (up + 1 < row[k])
				row[k] = up + 1;
			if (row[k - 1] + 1 < row[k])
				row[k] = row[k - 1] + 1;
			diag = up;
		}
	}
	return row[nb];
}

/* The name seen nearest to 'name' (the first of equals), or NULL. */
static const char *
nearest(const struct sel_seen *w, const char *name)
{
	const char *best = NULL;
	size_t k, d, bd = SIZE_MAX;

	for (k = 0; k < w->capnames; k++)
		if (w->names[k] != NULL &&
		    ((d = distance(name, w->names[k])) < bd ||
		    (d == bd && best != NULL && strcmp(w->names[k], best) < 0))) {
			bd = d;
			best = w->names[k];
		}
	return best;
}

/* "TOOL: warning: --tag 'T': no game read has a T tag (the nearest
 * seen: N)", for each such test, in the order given. */
static void
tell_unseen(const struct sel *s)
{
	const struct sel_seen *w = s->seen;
	const char *best;
	int i, k;

	if (w == NULL || s->read == 0)
		return;
	for (i = 1; i <= s->ntests; i++)
		for (k = 0; k < w->nunseen; k++) {
			if (w->test[k] != i)
				continue;
			best = nearest(w, w->unseen[k]);
			fprintf(stderr, "%s: warning: --tag '%s': no game read "
			    "has a %s tag%s%s%s\n", cli_prog,
			    zh_select_text(s->s, i), w->unseen[k],
			    best ? " (the nearest seen: " : "",
			    best ? best : "", best ? ")" : "");
		}
}

/* A regex match of test i that reached its bounds on g: said, with the
 * game, and the run stops (exit status 2). */
static void
tell_undecided(const struct sel *s, struct jobs *j, const struct zh_game *g,
    int i)
{
	cli_diag("error", j->name, g->line, 1, "game %ld: %s '%s': the regular "
	    "expression reached its bounds (%d steps or %d MiB of "
	    "backtracking), so the game is not decided; the run stops "
	    "(zhkit(7), \"Selecting games\")", g->number, test_option(s, i),
	    zh_select_text(s->s, i), ZH_SEL_RE_STEPS, ZH_SEL_RE_MIB);
	cli_run_failed();
	j->stop = 1;
}

bool
sel_done(struct sel *s, struct jobs *j, const struct zh_game *g,
    const struct jobs_res *res)
{
	int k;

	s->read++;
	if (!s->on)
		return true;
	if (undecided(s, res->drop)) {
		tell_undecided(s, j, g, res->drop - s->ntests - 1);
		return false;
	}
	if (res->drop) {
		s->dropped[res->drop]++;
		return false;
	}
	if (res->has_key) {
		if ((k = seen(s, res->key)) < 0) {
			cli_fail("out of memory for --dedupe");
			j->stop = 1;
			return false;
		}
		if (k > 0) {
			s->dups++;
			if (s->dupes != NULL) {
				fwrite(g->raw, 1, g->rawlen, s->dupes);
				fputs("\n\n", s->dupes);
			}
			return false;
		}
	}
	s->selected++;
	if (s->max && s->selected >= s->max)
		j->stop = 1;
	return true;
}

/* ======================== counts ======================== */

/* The option that test i (1-based) came from, as given. */
static const char *
test_option(const struct sel *s, int i)
{
	const char *t = zh_select_text(s->s, i);

	if (zh_select_kind(s->s, i) == ZH_SEL_VALID)
		return strcmp(t, "invalid") == 0 ? "--only-invalid" :
		    "--only-valid";
	return kind_option(zh_select_kind(s->s, i));
}

void
sel_summary(const struct sel *s)
{
	int i;

	if (!s->on)
		return;
	tell_unseen(s);
	if (cli_quiet)
		return;
	fprintf(stderr, "%s: selection: %ld read, %ld selected", cli_prog,
	    s->read, s->selected);
	for (i = 1; i <= s->ntests; i++)
		if (s->dropped[i] > 0) {
			fprintf(stderr, ", %ld dropped by %s", s->dropped[i],
			    test_option(s, i));
			if (zh_select_kind(s->s, i) != ZH_SEL_VALID)
				fprintf(stderr, " '%s'", zh_select_text(s->s, i));
		}
	if (s->dropped[s->ntests + 1] > 0)
		fprintf(stderr, ", %ld dropped by --invert",
		    s->dropped[s->ntests + 1]);
	if (s->dedupe)
		fprintf(stderr, ", %ld duplicate%s", s->dups,
		    s->dups == 1 ? "" : "s");
	if (s->max && s->selected >= s->max)
		fprintf(stderr, " (stopped at --max %ld)", s->max);
	fputc('\n', stderr);
}

/* t as a JSON string (the library's encoder, zh_json_string). */
static void
jstr(FILE *f, const char *t)
{
	struct zh_text j = { 0 };

	if (zh_json_string(&j, t, strlen(t)) == 0)
		fwrite(j.s, 1, j.len, f);
	else
		fputs("null", f);	/* out of memory */
	zh_text_free(&j);
}

/* Bytes of input i (a regular file, standard input if one), or -1. */
static long long
input_bytes(const struct sel *s, int i)
{
	const char *p = s->ninputs ? s->inputs[i] : "-";
	struct stat st;

	if (strcmp(p, "-") == 0 ? fstat(STDIN_FILENO, &st) : stat(p, &st))
		return -1;
	return S_ISREG(st.st_mode) ? (long long)st.st_size : -1;
}

/* What reproduces the run: the arguments as given, the inputs' sizes,
   the outputs. */
static void
write_run(const struct sel *s, FILE *f)
{
	const char *a;
	long long n;
	int i;

	fputs(",\"input_bytes\":[", f);
	for (i = 0; i < (s->ninputs ? s->ninputs : 1); i++) {
		fputs(i ? "," : "", f);
		if ((n = input_bytes(s, i)) >= 0)
			fprintf(f, "%lld", n);
		else
			fputs("null", f);
	}
	fputs("],\"arguments\":[", f);
	for (i = 0; (a = cli_arg(i)) != NULL; i++) {
		fputs(i ? "," : "", f);
		jstr(f, a);
	}
	fputs("],\"outputs\":[", f);
	for (i = 0; (a = cli_output_name(i)) != NULL; i++) {
		fputs(i ? "," : "", f);
		jstr(f, a);
	}
	fputc(']', f);
}

static void
write_stats(const struct sel *s, FILE *f, const char *extra)
{
	int i;

	fputs("{\"tool\":", f);
	jstr(f, cli_prog);
	fputs(",\"version\":", f);
	jstr(f, ZH_VERSION);
	fputs(",\"options\":[", f);
	for (i = 0; i < s->ngiven; i++) {
		fputs(i ? ",[" : "[", f);
		jstr(f, s->given[i].opt);
		if (s->given[i].arg != NULL) {
			fputc(',', f);
			jstr(f, s->given[i].arg);
		}
		fputc(']', f);
	}
	fputs("],\"inputs\":[", f);
	for (i = 0; i < (s->ninputs ? s->ninputs : 1); i++) {
		fputs(i ? "," : "", f);
		jstr(f, s->ninputs ? s->inputs[i] : "-");
	}
	fputc(']', f);
	write_run(s, f);
	fprintf(f, ",\"read\":%ld,\"selected\":%ld,\"dropped\":[", s->read,
	    s->selected);
	for (i = 1; i <= s->ntests; i++) {
		fputs(i > 1 ? ",{\"option\":" : "{\"option\":", f);
		jstr(f, test_option(s, i));
		fputs(",\"test\":", f);
		jstr(f, zh_select_text(s->s, i));
		fprintf(f, ",\"games\":%ld}", s->dropped[i]);
	}
	fprintf(f, "],\"inverted\":%ld,\"duplicates\":%ld,\"max\":%ld%s%s}\n",
	    s->dropped[s->ntests + 1], s->dups, s->max, *extra ? "," : "",
	    extra);
}

void
sel_stats(const struct sel *s, const char *extra)
{
	if (s->stats != NULL)
		write_stats(s, s->stats, extra);
}

void
sel_free(struct sel *s)
{
	seen_free(s->seen);
	zh_select_free(s->s);
	free(s->set);
	free(s->dropped);
	free(s->given);
	memset(s, 0, sizeof *s);
}
