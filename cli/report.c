/*
 * report.c - zhcheck's findings for CI systems (report.h).  The formats:
 * GitHub's workflow commands ("Workflow commands for GitHub Actions":
 * ::error file=F,line=L,col=C,title=T::MESSAGE, with %, CR and LF as
 * %25, %0D and %0A, and in a property also : and , as %3A and %2C);
 * JUnit XML as Jenkins and GitLab read it (testsuites, testsuite,
 * testcase, failure; name, classname, tests, failures, errors, skipped,
 * time); SARIF 2.1.0 (OASIS): one run, its tool's driver with a rule
 * per problem code, a result per problem.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "report.h"
#include "warn.h"

enum esc { E_GH, E_GHPROP, E_XML, E_JSON, E_MD };

int
report_find(const char *name)
{
	static const char *const names[] = { "github", "junit", "sarif" };
	int i;

	for (i = 0; i < 3; i++)
		if (strcmp(name, names[i]) == 0)
			return REPORT_GITHUB + i;
	cli_fail("--report: unknown format '%s' (try github, junit, sarif)",
	    name);
	return -1;
}

/* Bytes of the UTF-8 character at s (n bytes left) that XML and JSON
 * take, or 0 if it is not one (a byte of Latin-1, then). */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t k, i;
	unsigned lo = 0x80, hi = 0xbf;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		k = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		k = 3;
		lo = c == 0xe0 ? 0xa0 : 0x80;
		hi = c == 0xed ? 0x9f : 0xbf;
	} else if (c >= 0xf0 && c <= 0xf4) {
		k = 4;
		lo = c == 0xf0 ? 0x90 : 0x80;
		hi = c == 0xf4 ? 0x8f : 0xbf;
	} else
		return 0;
	if (n < k || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < k; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* U+FFFE and U+FFFF are no XML characters */
	if (k == 3 && c == 0xef && s[1] == 0xbf && s[2] >= 0xbe)
		return 0;
	return k;
}

/* One ASCII byte c as format e writes it. */
static void
put_ascii(FILE *f, unsigned char c, enum esc e)
{
	if (e == E_GH || e == E_GHPROP) {
		if (c == '%' || c == '\r' || c == '\n' ||
		    (e == E_GHPROP && (c == ':' || c == ',')))
			fprintf(f, "%%%02X", c);
		else
			putc(c, f);
	} else if (e == E_XML) {
		if (c == '&')
			fputs("&amp;", f);
		else if (c == '<')
			fputs("&lt;", f);
		else if (c == '>')
			fputs("&gt;", f);
		else if (c == '"')
			fputs("&quot;", f);
		else if (c == '\n' || c == '\t')
			fprintf(f, "&#%u;", c);	/* kept in attributes */
		else
			putc(c < 0x20 || c == 0x7f ? '?' : c, f);
	} else if (e == E_MD) {	/* a cell of a Markdown table */
		if (c == '&')
			fputs("&amp;", f);
		else if (c == '<')
			fputs("&lt;", f);
		else if (c == '>')
			fputs("&gt;", f);
		else if (c < 0x20 || c == 0x7f)
			putc(' ', f);
		else {
			if (strchr("\\`*_[]|#~!", c) != NULL)
				putc('\\', f);
			putc(c, f);
		}
	} else
		putc(c, f);
}

/* n bytes of s as the inside of a JSON string, by libzh's one encoder
 * (zh_json_string: a byte that is not UTF-8 read as Latin-1). */
static void
put_json(FILE *f, const char *s, size_t n)
{
	struct zh_text j = { 0 };

	if (zh_json_string(&j, s, n) == 0)
		fwrite(j.s + 1, 1, j.len - 2, f);	/* not its quotes */
	zh_text_free(&j);
}

/* n bytes of s, escaped for e; a byte that is not UTF-8 is read as
 * Latin-1 (zhkit-json(5)). */
static void
put_text(FILE *f, const char *s, size_t n, enum esc e)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, k;

	if (e == E_JSON) {
		put_json(f, s, n);
		return;
	}
	while (i < n) {
		if (p[i] < 0x80) {
			put_ascii(f, p[i++], e);
			continue;
		}
		if ((k = utf8_len(p + i, n - i)) > 0)
			fwrite(p + i, 1, k, f);
		else {
			k = 1;
			putc(0xc0 | p[i] >> 6, f);
			putc(0x80 | (p[i] & 0x3f), f);
		}
		i += k;
	}
}

static void
put_str(FILE *f, const char *s, enum esc e)
{
	put_text(f, s, strlen(s), e);
}

/* Append at most max bytes of s to b (of size bsize) at *n: *n counts
 * them all, what fits is copied (snprintf's rule, without the NUL). */
static void
put(char *b, size_t bsize, size_t *n, const char *s, size_t max)
{
	size_t k = max == (size_t)-1 ? strlen(s) : strnlen(s, max);

	if (*n < bsize)
		memcpy(b + *n, s, k < bsize - *n ? k : bsize - *n);
	*n += k;
}

static void
putnum(char *b, size_t bsize, size_t *n, long x)
{
	char d[24];

	put(b, bsize, n, d, cli_putlong(d, x));
}

/* "game N (White - Black)" */
static size_t
game_name(char *b, size_t size, const struct zh_game *g)
{
	const char *w = zh_game_tag(g, "White"), *k = zh_game_tag(g, "Black");
	size_t n = 0;

	put(b, size, &n, "game ", 5);
	putnum(b, size, &n, g->number);
	if (w != NULL || k != NULL) {
		put(b, size, &n, " (", 2);
		put(b, size, &n, w ? w : "?", SIZE_MAX);
		put(b, size, &n, " - ", 3);
		put(b, size, &n, k ? k : "?", SIZE_MAX);
		put(b, size, &n, ")", 1);
	}
	return n;
}

size_t
report_message(char *b, size_t size, const struct zh_game *g,
    const struct zh_problem *p)
{
	size_t n = 0;
	int k = warn_code(p->code);

	/* text between games is the input's, said as every tool says it */
	if (g != NULL && k != W_TEXT_BETWEEN) {
		n = game_name(b, size, g);
		if (p->ply > 0) {
			put(b, size, &n, ", ply ", 6);
			putnum(b, size, &n, p->ply);
		}
		if (p->board >= 0) {
			put(b, size, &n, p->ply > 0 ? " on board " :
			    ", board ", p->ply > 0 ? 10 : 8);
			put(b, size, &n, p->board == ZH_BOARD_B ? "B" : "A", 1);
		}
		put(b, size, &n, ": ", 2);
	}
	put(b, size, &n, p->text, sizeof p->text);
	if (k >= 0)
		put(b, size, &n, warn_suffix(k, p->severity == ZH_ERROR), 48);
	return n;
}

char *
report_text(char *local, size_t lsize, const struct zh_game *g,
    const struct zh_problem *p, size_t *n)
{
	char *b;

	if ((*n = report_message(local, lsize, g, p)) < lsize)
		return local;
	if ((b = malloc(*n + 1)) == NULL) {
		*n = lsize;	/* no memory: what fitted */
		return local;
	}
	report_message(b, *n + 1, g, p);
	return b;
}

static const char *
level(const struct zh_problem *p)
{
	return p->severity == ZH_ERROR ? "error" : "warning";
}

/* ======================== the rules ======================== */

/*
 * Every code a problem may have: the errors (zhcheck(1)) and the warning
 * classes (warn.c), with the words zhkit(7) gives each in its lists of
 * error codes and warning classes (tests/ci-users.bats holds the two
 * to the same words).  SARIF's driver lists them as its rules.
 */
struct rule {
	const char *id, *brief, *text;
};

static const struct rule error_rules[] = {
	{ "syntax", "Not PGN, or not a FEN",
	  "Text that cannot be read: a damaged tag pair or movetext, a move "
	  "token that is no move, or a line that is no FEN or EPD (--fen)." },
	{ "variant", "A variant zhkit does not play",
	  "A Variant tag (or Event word) of a game zhkit does not play, or a "
	  "FEN that is not of the game's variant." },
	{ "fen", "The FEN tag is not a legal start",
	  "The game's FEN tag is not a legal position of its variant." },
	{ "position", "Not a legal position",
	  "A FEN or EPD (--fen) that is not a legal position: kings, pawns "
	  "on a last rank, the side not to move in check, castling rights or "
	  "an en passant square that cannot be." },
	{ "illegal-move", "An illegal move",
	  "A main-line move that is not legal in its position: the game is "
	  "invalid from there." },
	{ "illegal-drop", "An illegal drop",
	  "A main-line drop that is not legal: no such piece in hand, an "
	  "occupied square, a pawn on a rank it may not be dropped on, or a "
	  "drop that leaves the king in check." },
	{ "ambiguous", "An ambiguous move",
	  "A move in SAN that more than one legal move fits." },
	{ "move-label", "A bughouse move label out of order",
	  "A bughouse half-move whose label (12A, 7b) does not follow the "
	  "half-moves before it on its board." },
	{ "limit", "Over a limit of the reader",
	  "A game over one of the reader's limits (--limit): its size, a "
	  "tag, a comment, its number of tags, tokens or plies, or its "
	  "depth of variations." },
	{ "memory", "Out of memory",
	  "The game could not be checked for want of memory." },
	{ "error", "Another error",
	  "A problem of no other code." },
};
#define NERRCODES (sizeof error_rules / sizeof error_rules[0])

/* The warning classes in warn.h's order (W_*). */
static const struct rule warning_rules[W_N] = {
	[W_TAG] = { "tag", "Seven Tag Roster tags missing",
	  "Tags of the Seven Tag Roster missing, but Round (zhcheck)." },
	[W_MISSING_ROUND] = { "missing-round", "No Round tag",
	  "No Round tag: a class of its own, as the Lichess exports before "
	  "2021 have none in any game (zhcheck)." },
	[W_RESULT] = { "result", "The result does not hold",
	  "The Result tag is not a result, differs from the termination "
	  "marker, or contradicts a final checkmate or stalemate; or the "
	  "movetext has no marker (zhcheck)." },
	[W_PLYCOUNT] = { "plycount", "PlyCount is not the plies",
	  "A PlyCount tag that is not the number of plies (zhcheck)." },
	[W_SETUP] = { "setup", "FEN and SetUp disagree",
	  "A FEN tag without SetUp \"1\", or the other way round (zhcheck)." },
	[W_VARIATION] = { "variation", "A bad move in a variation",
	  "An illegal or unreadable move inside a variation: the variation "
	  "is kept as written (zhcheck, zhpgn)." },
	[W_NULL_MOVE] = { "null-move", "A null move",
	  "A null move in the main line, read with --null-moves (zhcheck, "
	  "zhpgn, zhreplay)." },
	[W_TEXT_BETWEEN] = { "text-between-games", "Text between games",
	  "Text that is no game between games, skipped (every PGN tool)." },
	[W_NO_TERMINATION] = { "no-termination", "No termination marker",
	  "A game without a termination marker, written with one (zhpgn)." },
	[W_NO_GAME] = { "no-game", "An input without a game",
	  "An input without a game (zhpgn; an error in zhcheck)." },
	[W_CHECK_SUFFIX] = { "check-suffix", "A wrong check mark",
	  "A bughouse move marked '+' that gives no check, or '#' that is "
	  "not mate under bughouse's rule (producers disagree on '#'; "
	  "zhcheck)." },
	[W_CLOCK] = { "clock", "A clock that went up",
	  "A bughouse player's clock comment shows more time left than the "
	  "player's previous one, beyond the increment (zhcheck)." },
};

/* ======================== the baseline ======================== */

/* The findings of --baseline, sorted; the run's options. */
static struct {
	uint64_t *fp;
	size_t n, cap;
	bool on;
	long max_annotations;
	const char *summary;		/* $GITHUB_STEP_SUMMARY, or NULL */
} conf = { .max_annotations = REPORT_ANNOTATIONS };

void
report_conf(long max_annotations, const char *summary)
{
	conf.max_annotations = max_annotations;
	conf.summary = summary != NULL && *summary != '\0' ? summary : NULL;
}

/* 64-bit FNV-1a of n bytes of s, from h. */
static uint64_t
fnv(uint64_t h, const void *s, size_t n)
{
	const unsigned char *p = s;

	while (n-- > 0)
		h = (h ^ *p++) * 0x100000001b3u;
	return h;
}

#define FNV0 0xcbf29ce484222325u

uint64_t
report_game_seed(const struct zh_game *g, const struct zh_replay *r)
{
	static const char *const ids[] = { "GameId", "Link", "Site" };
	const char *v;
	struct zh_key k;
	size_t i;

	/* a game's id when it has one (a URL names one game), else a hash
	   of its variant, start and legal main-line moves */
	for (i = 0; i < sizeof ids / sizeof ids[0]; i++)
		if ((v = zh_game_tag(g, ids[i])) != NULL && (i == 0 ?
		    *v != '\0' : strstr(v, "://") != NULL))
			return fnv(fnv(FNV0, "id", 3), v, strlen(v));
	k = zh_game_key(g, r);
	return fnv(fnv(FNV0, "key", 4), &k, sizeof k);
}

uint64_t
report_line_seed(const char *line, size_t n)
{
	return fnv(fnv(FNV0, "fen", 4), line, n);
}

uint64_t
report_fingerprint(uint64_t seed, const struct zh_problem *p)
{
	long at[2] = { p->ply, p->board };

	seed = fnv(seed, p->code, strlen(p->code) + 1);
	return fnv(seed, at, sizeof at);
}

static int
cmp_fp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* One fingerprint of 16 hex digits at s into the baseline; -1 if
 * there is no memory. */
static int
baseline_add(const char *s)
{
	uint64_t *b;

	if (conf.n == conf.cap) {
		size_t cap = conf.cap ? 2 * conf.cap : 256;

		if ((b = realloc(conf.fp, cap * sizeof *b)) == NULL)
			return -1;
		conf.fp = b;
		conf.cap = cap;
	}
	conf.fp[conf.n++] = strtoull(s, NULL, 16);
	return 0;
}

static bool
hex16(const char *s, size_t n)
{
	return n == 16 && strspn(s, "0123456789abcdefABCDEF") >= 16;
}

int
report_baseline(const char *path)
{
	static const char key[] = "\"" REPORT_FP_KEY "\":\"";
	FILE *f = fopen(path, "r");
	char *line = NULL, *q;
	size_t cap = 0;
	ssize_t n;
	int rc = 0;

	if (f == NULL) {
		cli_fail("--baseline: %s: %s", path, strerror(errno));
		return -1;
	}
	/* a SARIF log (zhcheck's: each result's partialFingerprints), or
	   lines of one fingerprint each ('#' a comment) */
	while (rc == 0 && (n = getline(&line, &cap, f)) >= 0) {
		size_t k = strcspn(line, " \t\r\n#");

		if (hex16(line, k))
			rc = baseline_add(line);
		for (q = line; rc == 0 && (q = strstr(q, key)) != NULL; q++)
			if (hex16(q + sizeof key - 1, strcspn(q + sizeof key - 1,
			    "\"")))
				rc = baseline_add(q + sizeof key - 1);
	}
	if (rc != 0)
		cli_fail("--baseline: %s: out of memory", path);
	else if (ferror(f)) {
		cli_fail("--baseline: %s: %s", path, strerror(errno));
		rc = -1;
	}
	free(line);
	fclose(f);
	qsort(conf.fp, conf.n, sizeof *conf.fp, cmp_fp);
	conf.on = rc == 0;
	return rc;
}

bool
report_baseline_on(void)
{
	return conf.on;
}

bool
report_known(uint64_t fp)
{
	return conf.on && conf.n > 0 &&
	    bsearch(&fp, conf.fp, conf.n, sizeof fp, cmp_fp) != NULL;
}

/* ======================== GitHub ======================== */

/* A field of a held record: tab, CR, LF and backslash escaped. */
static void
put_field(FILE *f, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '\\')
			fprintf(f, "\\%c", s[i] == '\t' ? 't' : s[i] == '\n' ?
			    'n' : s[i] == '\r' ? 'r' : '\\');
		else
			putc(s[i], f);
}

/*
 * The case's findings as records, held until the end (report_end: the
 * annotations up to the limit, the job summary): "LEVEL KNOWN LINE COL
 * CODE FILE MESSAGE", tab-separated.
 */
static void
github_case(FILE *f, const struct report_case *c)
{
	char local[512], *msg;
	size_t i, n;

	for (i = 0; i < c->n; i++) {
		const struct zh_problem *p = &c->probs[i];

		msg = report_text(local, sizeof local, c->g, p, &n);
		fprintf(f, "%c\t%d\t%ld\t%ld\t%s\t", level(p)[0],
		    c->known != NULL && c->known[i], p->line, p->col, p->code);
		put_field(f, c->file, strlen(c->file));
		putc('\t', f);
		put_field(f, msg, n);
		putc('\n', f);
		if (msg != local)
			free(msg);
	}
}

/* A held record read back, its fields in place in the line. */
struct rec {
	bool error, known;
	long line, col;
	char *code, *file, *msg;
	size_t nfile, nmsg;
};

/* The escaped field at s, up to a tab or the end, unescaped in place
 * and NUL-terminated; its length; *next after it. */
static size_t
unfield(char *s, char **next)
{
	char *q = s, *p = s;

	for (; *p != '\0' && *p != '\t' && *p != '\n'; p++)
		if (*p == '\\' && p[1] != '\0') {
			p++;
			*q++ = *p == 't' ? '\t' : *p == 'n' ? '\n' :
			    *p == 'r' ? '\r' : *p;
		} else
			*q++ = *p;
	*next = *p == '\t' ? p + 1 : p;
	*q = '\0';
	return (size_t)(q - s);
}

static bool
parse_rec(char *s, struct rec *r)
{
	char *e;

	if ((s[0] != 'e' && s[0] != 'w') || s[1] != '\t')
		return false;
	r->error = s[0] == 'e';
	r->known = s[2] == '1';
	r->line = strtol(s + 4, &e, 10);
	r->col = strtol(e + 1, &e, 10);
	if (*e != '\t')
		return false;
	r->code = e + 1;
	if ((e = strchr(r->code, '\t')) == NULL)
		return false;
	*e = '\0';
	r->file = e + 1;
	r->nfile = unfield(r->file, &e);
	r->msg = e;
	r->nmsg = unfield(r->msg, &e);
	return true;
}

static void
gh_annotation(FILE *out, const struct rec *r)
{
	fprintf(out, "::%s file=", r->error ? "error" : "warning");
	put_text(out, r->file, r->nfile, E_GHPROP);
	fprintf(out, ",line=%ld,col=%ld,title=", r->line, r->col);
	put_str(out, "zhcheck ", E_GHPROP);
	put_str(out, r->code, E_GHPROP);
	fputs("::", out);
	put_text(out, r->msg, r->nmsg, E_GH);
	putc('\n', out);
}

/* The job summary's bytes of rows at most (GitHub takes 1 MiB a step). */
#define SUMMARY_MAX (900 * 1024)

static void
summary_row(FILE *f, const struct rec *r)
{
	fputs("| ", f);
	put_text(f, r->file, r->nfile, E_MD);
	fprintf(f, " | %ld | %ld | %s | %s | ", r->line, r->col, r->error ?
	    "error" : "warning", r->code);
	put_text(f, r->msg, r->nmsg, E_MD);
	fputs(conf.on ? (r->known ? " | known |\n" : " | new |\n") : " |\n", f);
}

/* What the held records counted. */
struct tally {
	long shown[2], more[2], known, rows, unlisted;
};

/* The notice after the annotations, if some were not written. */
static void
gh_notice(FILE *out, const struct tally *t)
{
	if (t->more[0] + t->more[1] + t->known == 0)
		return;
	fprintf(out, "::notice title=zhcheck::%ld more error%s and %ld more "
	    "warning%s than annotated (at most %ld of each)", t->more[1],
	    t->more[1] == 1 ? "" : "s", t->more[0], t->more[0] == 1 ? "" : "s",
	    conf.max_annotations);
	if (t->known > 0)
		fprintf(out, "; %ld known finding%s of the baseline not "
		    "annotated", t->known, t->known == 1 ? "" : "s");
	fputs(conf.summary != NULL ? "; the job summary lists every one\n" :
	    "; --report sarif or --json has every one\n", out);
}

static void
summary_head(FILE *f, long tests, long failures)
{
	fprintf(f, "## zhcheck: %ld of %ld %s invalid%s\n\n", failures, tests,
	    tests == 1 ? "game or position" : "games or positions", conf.on ?
	    " by a finding not in the baseline" : "");
	fprintf(f, "| File | Line | Column | Level | Class | Message |%s\n"
	    "|---|---:|---:|---|---|---|%s\n", conf.on ? " Baseline |" : "",
	    conf.on ? "---|" : "");
}

/*
 * --report github's end: the held records as annotations, at most
 * conf.max_annotations of each level (GitHub shows 10 of a kind in a
 * step), then a notice with the count of the others; every record a row
 * of the job summary's table when $GITHUB_STEP_SUMMARY is set.  -1 if
 * the held file failed, -2 if the summary could not be written (said).
 */
static int
github_end(FILE *out, FILE *held, long tests, long failures)
{
	struct tally t = { { 0, 0 }, { 0, 0 }, 0, 0, 0 };
	FILE *sum = NULL;
	char *line = NULL;
	size_t cap = 0;
	struct rec r;
	int rc = 0;

	if (fflush(held) != 0 || ferror(held) || fseek(held, 0, SEEK_SET) != 0)
		return -1;
	if (conf.summary != NULL) {
		if ((sum = fopen(conf.summary, "a")) == NULL) {
			cli_fail("the job summary (GITHUB_STEP_SUMMARY) %s: %s",
			    conf.summary, strerror(errno));
			return -2;
		}
		summary_head(sum, tests, failures);
	}
	while (getline(&line, &cap, held) >= 0) {
		if (!parse_rec(line, &r))
			continue;
		if (r.known)
			t.known++;
		else if (t.shown[r.error] < conf.max_annotations) {
			t.shown[r.error]++;
			gh_annotation(out, &r);
		} else
			t.more[r.error]++;
		if (sum != NULL && ftell(sum) < SUMMARY_MAX) {
			summary_row(sum, &r);
			t.rows++;
		} else
			t.unlisted++;
	}
	free(line);
	rc = ferror(held) ? -1 : 0;
	gh_notice(out, &t);
	if (sum != NULL) {
		if (t.unlisted > 0)
			fprintf(sum, "\n%ld more finding%s not listed: a job "
			    "summary holds 1 MiB (--report sarif has every "
			    "one).\n", t.unlisted, t.unlisted == 1 ? "" : "s");
		if (t.rows + t.unlisted == 0)
			fputs(conf.on ? "| | | | | | no findings | |\n" :
			    "| | | | | | no findings |\n", sum);
		if (ferror(sum) | (fclose(sum) != 0)) {
			cli_fail("the job summary (GITHUB_STEP_SUMMARY) %s: "
			    "write error", conf.summary);
			rc = -2;
		}
	}
	return rc;
}

/* ======================== JUnit ======================== */

/* Is problem i of c an error not known from --baseline (a failure)? */
static bool
failure(const struct report_case *c, size_t i)
{
	return c->probs[i].severity == ZH_ERROR &&
	    (c->known == NULL || !c->known[i]);
}

/* "FILE:LINE:COL: KIND: MESSAGE" lines of the failures, or of the
 * other problems (a known one says so). */
static void
junit_lines(FILE *f, const struct report_case *c, bool failures)
{
	char local[512], *msg;
	size_t i, n;

	for (i = 0; i < c->n; i++)
		if (failure(c, i) == failures) {
			msg = report_text(local, sizeof local, c->g,
			    &c->probs[i], &n);
			put_str(f, c->file, E_XML);
			fprintf(f, ":%ld:%ld: %s: ", c->probs[i].line,
			    c->probs[i].col, level(&c->probs[i]));
			put_text(f, msg, n, E_XML);
			if (c->known != NULL && c->known[i])
				fputs(" (known: --baseline)", f);
			putc('\n', f);
			if (msg != local)
				free(msg);
		}
}

static void
junit_case(FILE *f, const struct report_case *c)
{
	const struct zh_problem *e = NULL;
	char local[200], *name = local;
	size_t i, n;
	bool warned = false;

	for (i = 0; i < c->n; i++)
		if (failure(c, i) && e == NULL)
			e = &c->probs[i];
		else if (!failure(c, i))
			warned = true;
	if (c->g == NULL)
		n = (size_t)snprintf(name, sizeof local, "line %ld", c->line);
	else if ((n = game_name(local, sizeof local, c->g)) >= sizeof local) {
		if ((name = malloc(n)) != NULL)
			game_name(name, n, c->g);	/* the names whole */
		else {
			name = local;
			n = sizeof local;
		}
	}
	fputs("    <testcase name=\"", f);
	put_text(f, name, n, E_XML);
	if (name != local)
		free(name);
	fputs("\" classname=\"", f);
	put_str(f, c->file, E_XML);
	fputs("\" time=\"0\"", f);
	if (e == NULL && !warned) {
		fputs("/>\n", f);
		return;
	}
	fputs(">\n", f);
	if (e != NULL) {
		fputs("      <failure message=\"", f);
		put_str(f, e->text, E_XML);
		fputs("\" type=\"", f);
		put_str(f, e->code, E_XML);
		fputs("\">", f);
		junit_lines(f, c, true);
		fputs("</failure>\n", f);
	}
	if (warned) {
		fputs("      <system-out>", f);
		junit_lines(f, c, false);
		fputs("</system-out>\n", f);
	}
	fputs("    </testcase>\n", f);
}

/* ======================== SARIF ======================== */

/* The rule's index in the driver's rules (the errors', then the
 * warning classes'), or -1. */
static int
rule_index(const char *code)
{
	size_t i;
	int k = warn_code(code);

	if (k >= 0)
		return (int)NERRCODES + k;
	for (i = 0; i < NERRCODES; i++)
		if (strcmp(code, error_rules[i].id) == 0)
			return (int)i;
	return -1;
}

/* A relative or absolute URI reference of a file name: every byte but
 * RFC 3986's unreserved ones and '/' percent-encoded. */
static void
put_uri(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p != '\0'; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~/", *p) != NULL)
			putc(*p, f);
		else
			fprintf(f, "%%%02X", *p);
}

static void
sarif_case(FILE *f, const struct report_case *c)
{
	char local[512], *msg;
	size_t i, n;

	for (i = 0; i < c->n; i++) {
		const struct zh_problem *p = &c->probs[i];
		int r = rule_index(p->code);

		msg = report_text(local, sizeof local, c->g, p, &n);
		fputs(i ? ",\n{\"ruleId\":\"" : "{\"ruleId\":\"", f);
		put_str(f, p->code, E_JSON);
		if (r >= 0)
			fprintf(f, "\",\"ruleIndex\":%d", r);
		else
			fputs("\"", f);
		fprintf(f, ",\"level\":\"%s\",\"message\":{\"text\":\"",
		    level(p));
		put_text(f, msg, n, E_JSON);
		if (msg != local)
			free(msg);
		fputs("\"},\"locations\":[{\"physicalLocation\":"
		    "{\"artifactLocation\":{\"uri\":\"", f);
		put_uri(f, c->file);
		fprintf(f, "\"},\"region\":{\"startLine\":%ld,"
		    "\"startColumn\":%ld}}}]", p->line > 0 ? p->line : 1,
		    p->col > 0 ? p->col : 1);
		if (c->fp != NULL)
			fprintf(f, ",\"partialFingerprints\":{\"" REPORT_FP_KEY
			    "\":\"%016llx\"}", (unsigned long long)c->fp[i]);
		if (conf.on)
			fprintf(f, ",\"baselineState\":\"%s\"", c->known != NULL &&
			    c->known[i] ? "unchanged" : "new");
		putc('}', f);
	}
}

/* A rule of the driver: its id, name, descriptions, help and level. */
static void
sarif_rule(FILE *f, const struct rule *r, bool error, bool first)
{
	fprintf(f, "%s\n{\"id\":\"%s\",\"shortDescription\":{\"text\":\"",
	    first ? "" : ",", r->id);
	put_str(f, r->brief, E_JSON);
	fputs("\"},\"fullDescription\":{\"text\":\"", f);
	put_str(f, r->text, E_JSON);
	fputs("\"},\"help\":{\"text\":\"", f);
	put_str(f, r->text, E_JSON);
	if (error)
		fputs(" An error makes the game invalid: correct the game, or "
		    "list the finding in a --baseline file while it stays "
		    "(zhcheck(1)).\",\"markdown\":\"", f);
	else
		fprintf(f, " A warning: -Wno-%s turns it off, -Werror=%s makes "
		    "it an error (zhkit(7), Warnings).\",\"markdown\":\"",
		    r->id, r->id);
	put_str(f, r->text, E_JSON);
	if (error)
		fputs(" An error makes the game invalid: correct the game, or "
		    "list the finding in a `--baseline` file while it stays "
		    "(zhcheck(1)).", f);
	else
		fprintf(f, " A warning: `-Wno-%s` turns it off, `-Werror=%s` "
		    "makes it an error (zhkit(7), Warnings).", r->id, r->id);
	fprintf(f, "\"},\"defaultConfiguration\":{\"level\":\"%s\"},"
	    "\"properties\":{\"tags\":[\"%s\"]}}", error ? "error" :
	    "warning", error ? "error" : "warning-class");
}

static void
sarif_begin(FILE *f)
{
	size_t i;
	int k;

	fputs("{\"version\":\"2.1.0\",\"$schema\":"
	    "\"https://json.schemastore.org/sarif-2.1.0.json\",\"runs\":[{"
	    "\"tool\":{\"driver\":{\"name\":\"zhcheck\",\"version\":\""
	    ZH_VERSION "\",\"informationUri\":\"https://zhkit.invalid/zhcheck\","
	    "\"rules\":[", f);
	for (i = 0; i < NERRCODES; i++)
		sarif_rule(f, &error_rules[i], true, i == 0);
	for (k = 0; k < W_N; k++)
		sarif_rule(f, &warning_rules[k], false, false);
	fputs("]}},\n\"results\":[\n", f);
}

/* ======================== the run ======================== */

void
report_case(FILE *out, int fmt, const struct report_case *c)
{
	if (fmt == REPORT_GITHUB)
		github_case(out, c);
	else if (fmt == REPORT_JUNIT)
		junit_case(out, c);
	else if (fmt == REPORT_SARIF)
		sarif_case(out, c);
}

void
report_begin(FILE *out, int fmt)
{
	if (fmt == REPORT_SARIF)
		sarif_begin(out);
}

void
report_sep(FILE *out, int fmt, bool *any)
{
	if (fmt == REPORT_SARIF && *any)
		fputs(",\n", out);
	*any = true;
}

/* The bytes of f from its start to out; -1 if f failed. */
static int
copy_held(FILE *out, FILE *f)
{
	char b[1 << 15];
	size_t n;

	if (fflush(f) != 0 || ferror(f) || fseek(f, 0, SEEK_SET) != 0)
		return -1;
	while ((n = fread(b, 1, sizeof b, f)) > 0)
		fwrite(b, 1, n, out);
	return ferror(f) ? -1 : 0;
}

int
report_suite(FILE *suites, FILE *cases, const char *file, long tests,
    long failures)
{
	int rc;

	fputs("  <testsuite name=\"", suites);
	put_str(suites, file, E_XML);
	fprintf(suites, "\" tests=\"%ld\" failures=\"%ld\" errors=\"0\" "
	    "skipped=\"0\" time=\"0\">\n", tests, failures);
	rc = copy_held(suites, cases);
	fputs("  </testsuite>\n", suites);
	/* the next input's cases from the start */
	if (fseek(cases, 0, SEEK_SET) != 0 || ftruncate(fileno(cases), 0) != 0)
		rc = -1;
	return rc;
}

int
report_end(FILE *out, int fmt, FILE *held, long tests, long failures)
{
	FILE *suites = held;

	if (fmt == REPORT_GITHUB)
		return github_end(out, held, tests, failures);
	if (fmt == REPORT_SARIF)
		fputs("\n]}]}\n", out);
	if (fmt != REPORT_JUNIT)
		return 0;
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<testsuites name=\"zhcheck\" tests=\"%ld\" failures=\"%ld\" "
	    "errors=\"0\" time=\"0\">\n", tests, failures);
	if (copy_held(out, suites) != 0)
		return -1;
	fputs("</testsuites>\n", out);
	return 0;
}
