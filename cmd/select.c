/*
 * select.c - the selection options of the PGN tools (select.h): parsing,
 * a game's verdict, duplicates, --max, counts, the summary and --stats.
 */
#include <sys/stat.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


#include "cli.h"
#include "select.h"

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

/* The reader's filter: the tag tests, before the moves are read. */
static int
tag_filter(void *arg, const struct zh_game *g)
{
	const struct sel *s = arg;

	return zh_select_tags(s->s, g);
}

int
sel_tags_now(const struct sel *s, const struct zh_game *g)
{
	return zh_select_tags(s->s, g);
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
	return 0;
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
	if (s->invert)
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

bool
sel_done(struct sel *s, struct jobs *j, const struct zh_game *g,
    const struct jobs_res *res)
{
	int k;

	s->read++;
	if (!s->on)
		return true;
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

	if (!s->on || cli_quiet)
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

/* The length of the valid UTF-8 sequence at s (1 to 4), or 0. */
static size_t
utf8_len(const unsigned char *s)
{
	size_t n, i;
	unsigned long c;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		n = 2, c = s[0] & 0x1F;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		n = 3, c = s[0] & 0x0F;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		n = 4, c = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;	/* also a cut sequence: NUL ends it */
		c = c << 6 | (s[i] & 0x3F);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10FFFF)) ||
	    (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	return n;
}

/*
 * A JSON string by zhkit-json(5)'s TEXT rule: valid UTF-8 as it is, any
 * other byte read as Latin-1; '"', '\\' and the control bytes escaped.
 */
static void
jstr(FILE *f, const char *t)
{
	static const char ctl[] = "\b\f\n\r\t", name[] = "bfnrt";
	const unsigned char *s = (const unsigned char *)t;
	const char *k;
	size_t n;

	fputc('"', f);
	while (*s != '\0') {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if (*s < 0x20 && (k = strchr(ctl, *s)) != NULL)
			fprintf(f, "\\%c", name[k - ctl]);
		else if (*s < 0x20)
			fprintf(f, "\\u%04X", *s);
		else if ((n = utf8_len(s)) > 0) {
			fwrite(s, 1, n, f);
			s += n;
			continue;
		} else {	/* Latin-1: U+0080 to U+00FF */
			fputc(0xC0 | *s >> 6, f);
			fputc(0x80 | (*s & 0x3F), f);
		}
		s++;
	}
	fputc('"', f);
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
	zh_select_free(s->s);
	free(s->set);
	free(s->dropped);
	free(s->given);
	memset(s, 0, sizeof *s);
}
