/*
 * select.c - the selection stage: tests on a game's tags (decided before
 * its moves are read, by the reader's filter) and tests that need the
 * rules (decided on the replayed game), each parsed from an option's
 * text; and the game key that duplicates share.
 *
 * Groups: a positive test (=, ~, and every game test) on a tag or kind
 * already tested by a positive test joins that test's group, and a group
 * holds if any of its tests does ("White = A" and "White = B": either
 * player; two positions: either is reached).  Every other test (!=, !~,
 * < <= > >=) is a group of its own, so that bounds and exclusions all
 * hold ("WhiteElo >= 2000" and "WhiteElo < 2400" is a range).  A game is
 * selected if every group holds.
 *
 * Positions are found by incremental hashing: a 64-bit key per position,
 * the XOR of one value per occupied square (square and piece, the
 * promoted mark included), one per non-empty pocket count and one for
 * Black to move, updated from each move's delta; a key match is then
 * confirmed by comparing the positions.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "json.h"
#include "zh.h"
#include "zh_int.h"

/*
 * The bounds of one regular expression match (PCRE2's match context):
 * backtracking steps, and the memory of the backtracking.  A match that
 * reaches either is undecided, never a silent non-match (zh_select_tags
 * says which test).  At the step limit a match takes about 10 ms.
 */
#define RE_MATCH_LIMIT	ZH_SEL_RE_STEPS
#define RE_HEAP_KIB	(ZH_SEL_RE_MIB * 1024)

enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_RE, OP_NRE };

/* How a tag test reads values. */
enum { V_TEXT, V_NUM, V_DATE, V_TC };
/* Which figure of a TimeControl: base + 40 * increment, base, increment. */
enum { TC_EST, TC_BASE, TC_INC };

/* A PGN date as the days it may be: yyyymmdd numbers, inclusive. */
struct date { long lo, hi; };
/* A time control: seconds; est = base + 40 * inc (Lichess's estimate). */
struct tc { double base, inc, est; bool pair; };

struct test {
	int kind;		/* enum zh_sel_kind */
	char *text;		/* as given */
	int group;		/* index of the group's first test */
	int next;		/* next test of the group, -1 if none */
	/* tag and player tests */
	char *tag;		/* tag name (TimeControl's suffix cut off) */
	int op, vtype, tcf;
	char *val;		/* the value, quotes removed */
	bool isnum;
	double num;
	struct date date;
	struct tc tc;
	pcre2_code *re;		/* ~ and !~: the compiled expression */
	pcre2_match_context *mctx;	/* its bounds (the selection's) */
	/* game tests */
	const struct zh_variant *v;
	long lo, hi;		/* plies; hi < 0: no upper bound */
	int ending;		/* enum zh_status */
	bool valid;
	struct zh_pos pos;	/* position to reach */
	uint64_t key, key_np;	/* its key, and without promoted marks */
};

struct zh_select {
	struct test *t;
	int n, cap;
	bool replay;		/* a test that needs the replay */
	int npos;		/* position tests: how many, and which */
	int *pidx;
	uint64_t *z;		/* the key's values (ZTAB of them) */
	uint64_t *skey;		/* each variant's start position's key,
				   with and without promoted marks */
	pcre2_match_context *mctx;	/* the regexes' bounds, made once */
};

static const char *const opnames[] = {
	"=", "!=", "<", "<=", ">", ">=", "~", "!~"
};

/* ==================== small parsers ==================== */

static bool
blank(int c)
{
	return c == ' ' || c == '\t';
}

static const char *
skipbl(const char *p)
{
	while (blank(*p))
		p++;
	return p;
}

/* Does s hold one finite number and nothing else?  Into *x. */
static bool
number(const char *s, double *x)
{
	char *end;

	const char *p = s + (*s == '-');
	long long v = 0;

	if (*s == '\0' || blank(*s))
		return false;
	/* the common case, a rating: digits (strtod is slow) */
	for (; *p >= '0' && *p <= '9' && v < 100000000000000; p++)
		v = v * 10 + (*p - '0');
	if (*p == '\0' && p > s + (*s == '-')) {
		*x = *s == '-' ? -(double)v : (double)v;
		return true;
	}
	errno = 0;
	*x = strtod(s, &end);
	return *end == '\0' && errno == 0 && isfinite(*x);
}

/* n digits or n '?' at s into *v (-1 for '?'); false if neither. */
static bool
dpart(const char *s, int n, long *v)
{
	int k;

	if (s[0] == '?') {
		for (k = 0; k < n; k++)
			if (s[k] != '?')
				return false;
		*v = -1;
		return true;
	}
	for (*v = 0, k = 0; k < n; k++) {
		if (s[k] < '0' || s[k] > '9')
			return false;
		*v = *v * 10 + (s[k] - '0');
	}
	return true;
}

/*
 * A PGN date "YYYY.MM.DD" with '?' for unknown parts, or (a test's
 * value) "YYYY" or "YYYY.MM"; '-' and '/' may stand for '.'.  As the
 * days it may be.
 */
static bool
parse_date(const char *s, struct date *d)
{
	long y, m = -1, dd = -1;
	size_t n = strlen(s);

	if (n != 4 && n != 7 && n != 10)
		return false;
	if (!dpart(s, 4, &y))
		return false;
	if (n >= 7 && (!strchr(".-/", s[4]) || !dpart(s + 5, 2, &m) ||
	    (m >= 0 && (m < 1 || m > 12))))
		return false;
	if (n == 10 && (s[7] != s[4] || !dpart(s + 8, 2, &dd) ||
	    (dd >= 0 && (dd < 1 || dd > 31)) || (m < 0 && dd >= 0)))
		return false;
	d->lo = (y < 0 ? 0 : y * 10000) + (m < 0 ? 100 : m * 100) +
	    (dd < 0 ? 1 : dd);
	d->hi = (y < 0 ? 9999 * 10000 : y * 10000) + (m < 0 ? 1200 : m * 100) +
	    (dd < 0 ? 31 : dd);
	if (y < 0 && m >= 0)	/* "????.06.??": any year: all days */
		d->lo = 101, d->hi = 99991231;
	return true;
}

/*
 * A TimeControl value: "180+2", "180" (no increment), "-" (no limit:
 * correspondence, every figure infinite), "1/259200" or "40/7200:..."
 * (moves in seconds, chess.com's daily and PGN's period forms: the
 * first period's seconds as the base), "*180" (sandclock).
 */
static bool
parse_tc(const char *s, struct tc *t)
{
	char *end;
	const char *p = s;

	t->inc = 0;
	t->pair = false;
	if (strcmp(s, "-") == 0) {
		t->base = t->inc = t->est = HUGE_VAL;
		return true;
	}
	if (*p == '*')
		p++;
	if (*p < '0' || *p > '9')
		return false;
	t->base = strtod(p, &end);
	if (*end == '/') {		/* moves/seconds */
		p = end + 1;
		if (*p < '0' || *p > '9')
			return false;
		t->base = strtod(p, &end);
		if (*end != '\0' && *end != ':')
			return false;
	} else if (*end == '+') {
		p = end + 1;
		if (*p < '0' || *p > '9')
			return false;
		t->inc = strtod(p, &end);
		t->pair = true;
		if (*end != '\0')
			return false;
	} else if (*end != '\0') {
		return false;
	}
	if (!isfinite(t->base) || !isfinite(t->inc))
		return false;
	t->est = t->base + 40 * t->inc;
	return true;
}

/* ==================== parsing the tests ==================== */

/* Record a parse error at column col (1-based) of the test's text. */
static int
bad(struct zh_error *err, long col, const char *fmt, ...)
{
	va_list ap;
	char msg[sizeof err->text];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	zh_error_set(err, ZH_ESYNTAX, col, "%s", msg);
	return -1;
}

#define COL(p, text)	((long)((p) - (text)) + 1)

/* The operator at *pp (moved past it); -1 with the error if unknown. */
static int
parse_op(const char **pp, const char *text, struct zh_error *err)
{
	const char *p = *pp, *q = p;
	size_t n;
	int k;

	while (*q && strchr("=!<>~", *q))
		q++;
	n = (size_t)(q - p);
	if (n == 0)
		return bad(err, COL(p, text),
		    "expected an operator (= != < <= > >= ~ !~)");
	*pp = q;
	if (n == 2 && p[0] == '=' && p[1] == '=')
		return OP_EQ;
	for (k = 0; k < 8; k++)
		if (strlen(opnames[k]) == n && memcmp(opnames[k], p, n) == 0)
			return k;
	return bad(err, COL(p, text), "unknown operator '%.*s'", (int)n, p);
}

/*
 * v (malloc'd) as the text a game's JSON shows (zhkit-json(5): valid
 * UTF-8 kept, any other byte read as Latin-1): tag values are compared
 * as that text, so a test is written as the JSON reads.  v itself, or a
 * new string (v freed); NULL out of memory.
 */
static char *
as_text(char *v)
{
	char *heap = NULL;
	const char *t = zh__json_text(v, NULL, 0, &heap);

	if (t == v)
		return v;
	free(v);
	return heap;
}

/* The value from p (blanks around it and one pair of quotes removed),
 * as text (as_text). */
static char *
parse_value(const char *p)
{
	size_t n;
	char *v;

	p = skipbl(p);
	n = strlen(p);
	while (n > 0 && blank(p[n - 1]))
		n--;
	if (n >= 2 && p[0] == '"' && p[n - 1] == '"') {
		p++;
		n -= 2;
	}
	if ((v = malloc(n + 1)) == NULL)
		return NULL;
	memcpy(v, p, n);
	v[n] = '\0';
	return as_text(v);
}

/* ==================== regular expressions ==================== */

/*
 * The GNU forms of POSIX extended expressions that Perl's syntax reads
 * otherwise, outside brackets: \< and \> (a word's start and end), \`
 * and \' (the text's start and end), {,n} (at most n).  The rest of an
 * ERE means the same in PCRE2.  Into out (5 bytes a byte of re, and 1);
 * true if something changed.
 */
static bool
ere_forms(const char *re, char *out)
{
	const char *p = re;
	char *q = out;
	bool inbr = false;

	while (*p != '\0') {
		if (!inbr && p[0] == '\\' && p[1] != '\0' &&
		    strchr("<>`'", p[1]) != NULL) {
			q = stpcpy(q, p[1] == '<' ? "\\b(?=\\w)" : p[1] == '>' ?
			    "\\b(?<=\\w)" : p[1] == '`' ? "\\A" : "\\z");
			p += 2;
			continue;
		}
		if (!inbr && p[0] == '{' && p[1] == ',' && p[2] >= '0' &&
		    p[2] <= '9' && p[1 + strspn(p + 1, ",0123456789")] == '}') {
			q = stpcpy(q, "{0");
			p++;
			continue;
		}
		if (p[0] == '\\' && p[1] != '\0') {
			*q++ = *p++;
		} else if (!inbr && p[0] == '[') {
			inbr = true;
			*q++ = *p++;
			if (*p == '^')
				*q++ = *p++;
			if (*p == ']')		/* a first ']' is one */
				*q++ = *p++;
			continue;
		} else if (inbr && p[0] == '[' && p[1] != '\0' &&
		    strchr(":.=", p[1]) != NULL) {	/* [:alpha:] */
			const char *e = strstr(p + 2, p[1] == ':' ? ":]" :
			    p[1] == '.' ? ".]" : "=]");

			if (e != NULL) {
				memcpy(q, p, (size_t)(e + 2 - p));
				q += e + 2 - p;
				p = e + 2;
				continue;
			}
		} else if (inbr && p[0] == ']') {
			inbr = false;
		}
		*q++ = *p++;
	}
	*q = '\0';
	return strcmp(re, out) != 0;
}

/* The match context of the selection's bounds, made once. */
static pcre2_match_context *
re_bounds(struct zh_select *s)
{
	if (s->mctx == NULL && (s->mctx = pcre2_match_context_create(NULL)) !=
	    NULL) {
		pcre2_set_match_limit(s->mctx, RE_MATCH_LIMIT);
		pcre2_set_depth_limit(s->mctx, RE_MATCH_LIMIT);
		pcre2_set_heap_limit(s->mctx, RE_HEAP_KIB);
	}
	return s->mctx;
}

/*
 * Compile t's value as a regular expression: PCRE2's syntax (Perl's),
 * the GNU forms of POSIX EREs read as glibc did (ere_forms), UTF-8 text
 * (the value and the tags are: as_text); JIT-compiled where PCRE2 can.
 */
static int
re_compile(struct zh_select *s, struct test *t, long vcol,
    struct zh_error *err)
{
	char *pat = malloc(5 * strlen(t->val) + 1);
	PCRE2_UCHAR msg[120];
	PCRE2_SIZE off = 0;
	bool moved;
	int rc;

	if (pat == NULL || (t->mctx = re_bounds(s)) == NULL) {
		free(pat);
		return bad(err, 0, "out of memory");
	}
	moved = ere_forms(t->val, pat);
	t->re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED,
	    PCRE2_UTF | PCRE2_NEVER_BACKSLASH_C, &rc, &off, NULL);
	free(pat);
	if (t->re == NULL) {
		pcre2_get_error_message(rc, msg, sizeof msg);
		if (moved)
			return bad(err, vcol, "regex: %s", (const char *)msg);
		return bad(err, vcol, "regex: %s (at its byte %lu)",
		    (const char *)msg, (unsigned long)off + 1);
	}
	(void)pcre2_jit_compile(t->re, PCRE2_JIT_COMPLETE);
	return 0;
}

/*
 * Does t's expression match text?  1 yes, 0 no, -1 undecided: the match
 * reached its bounds (or memory ran out).  A JIT match whose stack runs
 * out is tried again by the interpreter, whose memory is bounded.
 */
static int
re_match(const struct test *t, const char *text)
{
	pcre2_match_data *md = pcre2_match_data_create(1, NULL);
	PCRE2_SIZE n = strlen(text);
	int rc;

	if (md == NULL)
		return -1;
	rc = pcre2_match(t->re, (PCRE2_SPTR)text, n, 0, PCRE2_NO_UTF_CHECK,
	    md, t->mctx);
	if (rc == PCRE2_ERROR_JIT_STACKLIMIT)
		rc = pcre2_match(t->re, (PCRE2_SPTR)text, n, 0,
		    PCRE2_NO_UTF_CHECK | PCRE2_NO_JIT, md, t->mctx);
	pcre2_match_data_free(md);
	return rc >= 0 ? 1 : rc == PCRE2_ERROR_NOMATCH ? 0 : -1;
}

/* ==================== the values ==================== */

/*
 * Tags whose values are numbers (ratings, counts, ids): a test that
 * compares one with a value that is not a number is an error, not a
 * comparison of text.  '=' and '!=' may still name PGN's unknown value
 * ("?", "-", or nothing).  A name matches a row exactly, or ends with a
 * row that starts with '*'.
 */
static const char *const numeric_tags[] = {
	"*Elo", "*RatingDiff", "*FideId", "*USCF", "*Rating", "PlyCount",
	"TotalPlyCount", NULL
};

static bool
numeric_tag(const char *tag)
{
	size_t n = strlen(tag), k;
	int i;

	for (i = 0; numeric_tags[i] != NULL; i++) {
		const char *row = numeric_tags[i];

		if (row[0] != '*') {
			if (strcmp(tag, row) == 0)
				return true;
		} else if ((k = strlen(row + 1)) < n &&
		    strcmp(tag + n - k, row + 1) == 0)
			return true;
	}
	return false;
}

/* The value's type and its parsed forms; vcol is its column. */
static int
type_value(struct zh_select *s, struct test *t, long vcol,
    struct zh_error *err)
{
	size_t n = strlen(t->tag != NULL ? t->tag : "");

	if (t->op == OP_RE || t->op == OP_NRE)
		return re_compile(s, t, vcol, err);
	if (t->val[0] == '\0' && t->op != OP_EQ && t->op != OP_NE)
		return bad(err, vcol, "missing value after '%s'",
		    opnames[t->op]);
	if (t->tag != NULL && strcmp(t->tag, "TimeControl") == 0) {
		t->vtype = V_TC;
		if (t->tcf != TC_EST && !number(t->val, &t->num))
			return bad(err, vcol, "not a number of seconds");
		if (t->tcf == TC_EST && !parse_tc(t->val, &t->tc))
			return bad(err, vcol, "not a time control (180, "
			    "180+2, -, 1/259200)");
		if (t->tcf == TC_EST)
			t->num = t->tc.est;
	} else if (n >= 4 && strcmp(t->tag + n - 4, "Date") == 0) {
		t->vtype = V_DATE;
		if (!parse_date(t->val, &t->date))
			return bad(err, vcol, "not a date (YYYY.MM.DD, YYYY.MM, "
			    "YYYY; '?' for unknown parts)");
	} else if (number(t->val, &t->num)) {
		t->vtype = V_NUM;
		t->isnum = true;
	} else if (t->tag != NULL && numeric_tag(t->tag) &&
	    ((t->op != OP_EQ && t->op != OP_NE) || (t->val[0] != '\0' &&
	    strcmp(t->val, "?") != 0 && strcmp(t->val, "-") != 0))) {
		return bad(err, vcol, "'%s' is not a number, and %s is "
		    "compared as one%s", t->val, t->tag,
		    t->op == OP_EQ || t->op == OP_NE ? " (or '?', '-' for "
		    "none)" : "");
	} else {
		t->vtype = V_TEXT;
	}
	return 0;
}

/* "NAME OP VALUE"; TimeControl.base and TimeControl.inc for its parts. */
static int
parse_tag(struct zh_select *s, struct test *t, const char *text,
    struct zh_error *err)
{
	const char *p = skipbl(text), *name = p, *dot;
	size_t n;

	while ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
	    (*p >= '0' && *p <= '9') || *p == '_' || *p == '.')
		p++;
	n = (size_t)(p - name);
	if (n == 0)
		return bad(err, COL(p, text), "expected a tag name");
	if ((dot = memchr(name, '.', n)) != NULL) {
		size_t k = (size_t)(dot - name);

		if (k != 11 || memcmp(name, "TimeControl", 11) != 0 ||
		    ((n - k != 5 || memcmp(dot, ".base", 5) != 0) &&
		    (n - k != 4 || memcmp(dot, ".inc", 4) != 0)))
			return bad(err, COL(dot, text), "unknown tag part "
			    "'%.*s' (TimeControl.base or TimeControl.inc)",
			    (int)(n - k), dot);
		t->tcf = dot[1] == 'b' ? TC_BASE : TC_INC;
		n = k;
	}
	if ((t->tag = malloc(n + 1)) == NULL)
		return bad(err, 0, "out of memory");
	memcpy(t->tag, name, n);
	t->tag[n] = '\0';
	p = skipbl(p);
	if ((t->op = parse_op(&p, text, err)) < 0)
		return -1;
	if ((t->val = parse_value(p)) == NULL)
		return bad(err, 0, "out of memory");
	return type_value(s, t, COL(skipbl(p), text), err);
}

/* "OP VALUE" or "VALUE" (=): compared with White and Black as text. */
static int
parse_player(struct zh_select *s, struct test *t, const char *text,
    struct zh_error *err)
{
	const char *p = skipbl(text);

	t->op = OP_EQ;
	if (*p && strchr("=!<>~", *p) && (t->op = parse_op(&p, text, err)) < 0)
		return -1;
	if ((t->val = parse_value(p)) == NULL)
		return bad(err, 0, "out of memory");
	if (type_value(s, t, COL(skipbl(p), text), err) < 0)
		return -1;
	if (t->vtype == V_NUM)
		t->vtype = V_TEXT;	/* names are text */
	return 0;
}

/* A word of text, blanks around it allowed: its start and length. */
static size_t
word(const char *text, const char **w)
{
	size_t n;

	*w = skipbl(text);
	n = strlen(*w);
	while (n > 0 && blank((*w)[n - 1]))
		n--;
	return n;
}

static long
digits(const char **pp)
{
	const char *p = *pp;
	long v = 0;

	if (*p < '0' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9') {
		if (v > 100000000)
			return -2;
		v = v * 10 + (*p++ - '0');
	}
	*pp = p;
	return v;
}

/* "A-B", "A-", "-B" or "A": plies of the mainline. */
static int
parse_plies(struct test *t, const char *text, struct zh_error *err)
{
	const char *p = skipbl(text), *s = p;

	t->lo = 0;
	t->hi = -1;
	if (*p != '-') {
		if ((t->lo = digits(&p)) < 0)
			return bad(err, COL(p, text), t->lo == -1 ?
			    "expected a number of plies (A-B, A-, -B, A)" :
			    "number too large");
		t->hi = t->lo;
	}
	if (*p == '-') {
		p++;
		t->hi = -1;
		if (*p >= '0' && *p <= '9' && (t->hi = digits(&p)) < 0)
			return bad(err, COL(p, text), "number too large");
		if (p == s + 1 && t->hi < 0)
			return bad(err, COL(p, text), "expected a number");
	}
	p = skipbl(p);
	if (*p != '\0')
		return bad(err, COL(p, text), "unexpected '%c' in a ply range",
		    *p);
	if (t->hi >= 0 && t->hi < t->lo)
		return bad(err, COL(s, text), "empty range: %ld > %ld", t->lo,
		    t->hi);
	return 0;
}

static uint64_t poskey(const uint64_t *z, const struct zh_pos *p, unsigned mask);
static int keys_init(struct zh_select *s);

/* A FEN of any dialect: crazyhouse's board, else a 10-rank variant's. */
static int
parse_position(struct zh_select *s, struct test *t, const char *text,
    struct zh_error *err)
{
	const uint64_t *z;
	const char *p = skipbl(text);
	struct zh_error e1 = { 0 }, e2 = { 0 };

	if (zh_fen_read(&t->pos, p, NULL, ZH_AUTO, 0, &e1) != 0 &&
	    zh_fen_read(&t->pos, p, zh_variant_guess(10, true), ZH_AUTO, 0,
	    &e2) != 0) {
		zh_error_set(err, e1.code, e1.col + (long)(p - text),
		    "%s", e1.text);
		return -1;
	}
	if (keys_init(s) != 0)
		return bad(err, 0, "out of memory");
	z = s->z;
	t->key = poskey(z, &t->pos, 0x3f);
	t->key_np = poskey(z, &t->pos, 0x3f & ~ZH_PROMOTED);
	return 0;
}

/* The game tests that are one word. */
static int
parse_word(struct test *t, const char *text, struct zh_error *err)
{
	const char *w;
	size_t n = word(text, &w);
	char buf[64];

	if (n == 0 || n >= sizeof buf)
		return bad(err, COL(w, text), n ? "unknown %s '%.20s...'" :
		    "expected a %s", t->kind == ZH_SEL_VARIANT ? "variant" :
		    t->kind == ZH_SEL_ENDING ? "ending" : "validity", w);
	memcpy(buf, w, n);
	buf[n] = '\0';
	if (t->kind == ZH_SEL_VARIANT) {
		if ((t->v = zh_variant_find(buf)) == NULL)
			return bad(err, COL(w, text), "unknown variant '%s'",
			    buf);
	} else if (t->kind == ZH_SEL_ENDING) {
		if (strcasecmp(buf, "checkmate") == 0)
			t->ending = ZH_CHECKMATE;
		else if (strcasecmp(buf, "stalemate") == 0)
			t->ending = ZH_STALEMATE;
		else if (strcasecmp(buf, "none") == 0)
			t->ending = ZH_ONGOING;
		else
			return bad(err, COL(w, text), "unknown ending '%s' "
			    "(checkmate, stalemate or none)", buf);
	} else {
		if (strcasecmp(buf, "valid") == 0)
			t->valid = true;
		else if (strcasecmp(buf, "invalid") == 0)
			t->valid = false;
		else
			return bad(err, COL(w, text), "expected 'valid' or "
			    "'invalid', not '%s'", buf);
	}
	return 0;
}

/* ==================== the selection ==================== */

struct zh_select *
zh_select_new(void)
{
	return calloc(1, sizeof(struct zh_select));
}

static void
test_free(struct test *t)
{
	free(t->text);
	free(t->tag);
	free(t->val);
	pcre2_code_free(t->re);
}

/* A positive test: one of several that may hold instead of each other. */
static bool
positive(const struct test *t)
{
	if (t->kind != ZH_SEL_TAG && t->kind != ZH_SEL_PLAYER)
		return true;
	return t->op == OP_EQ || t->op == OP_RE;
}

/* Put test i in the group of an earlier positive test on the same thing. */
static void
group(struct zh_select *s, int i)
{
	struct test *t = &s->t[i], *u;
	int k;

	t->group = i;
	t->next = -1;
	if (!positive(t))
		return;
	for (k = 0; k < i; k++) {
		u = &s->t[k];
		if (u->group != k || !positive(u) || u->kind != t->kind ||
		    (t->kind == ZH_SEL_TAG && (strcmp(u->tag, t->tag) != 0 ||
		    u->tcf != t->tcf)))
			continue;
		t->group = k;
		while (u->next >= 0)
			u = &s->t[u->next];
		u->next = i;
		return;
	}
}

int
zh_select_add(struct zh_select *s, int kind, const char *text,
    struct zh_error *err)
{
	struct test *t;
	int rc;

	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 8;
		struct test *nt = realloc(s->t, (size_t)cap * sizeof *nt);

		if (nt == NULL)
			return bad(err, 0, "out of memory");
		s->t = nt;
		s->cap = cap;
	}
	t = &s->t[s->n];
	memset(t, 0, sizeof *t);
	t->kind = kind;
	switch (kind) {
	case ZH_SEL_TAG:
		rc = parse_tag(s, t, text, err);
		break;
	case ZH_SEL_PLAYER:
		rc = parse_player(s, t, text, err);
		break;
	case ZH_SEL_VARIANT:
	case ZH_SEL_ENDING:
	case ZH_SEL_VALID:
		rc = parse_word(t, text, err);
		break;
	case ZH_SEL_PLIES:
		rc = parse_plies(t, text, err);
		break;
	case ZH_SEL_POSITION:
		rc = parse_position(s, t, text, err);
		break;
	default:
		rc = bad(err, 0, "unknown kind of test %d", kind);
		break;
	}
	if (rc == 0 && (t->text = strdup(text)) == NULL)
		rc = bad(err, 0, "out of memory");
	if (rc != 0) {
		test_free(t);
		return -1;
	}
	if (kind == ZH_SEL_POSITION) {
		int *pi = realloc(s->pidx, (size_t)(s->npos + 1) * sizeof *pi);

		if (pi == NULL) {
			test_free(t);
			return bad(err, 0, "out of memory");
		}
		s->pidx = pi;
		s->pidx[s->npos++] = s->n;
	}
	group(s, s->n);
	s->n++;
	if (kind != ZH_SEL_TAG && kind != ZH_SEL_PLAYER)
		s->replay = true;
	return 0;
}

int
zh_select_count(const struct zh_select *s)
{
	return s->n;
}

const char *
zh_select_text(const struct zh_select *s, int i)
{
	return i >= 1 && i <= s->n ? s->t[i - 1].text : NULL;
}

int
zh_select_kind(const struct zh_select *s, int i)
{
	return i >= 1 && i <= s->n ? s->t[i - 1].kind : 0;
}

bool
zh_select_needs_replay(const struct zh_select *s)
{
	return s->replay;
}

void
zh_select_free(struct zh_select *s)
{
	int k;

	if (s == NULL)
		return;
	for (k = 0; k < s->n; k++)
		test_free(&s->t[k]);
	free(s->t);
	free(s->pidx);
	free(s->z);
	free(s->skey);
	pcre2_match_context_free(s->mctx);
	free(s);
}

/* ==================== tag tests ==================== */

static bool
cmp_holds(int op, int c)
{
	switch (op) {
	case OP_EQ: return c == 0;
	case OP_NE: return c != 0;
	case OP_LT: return c < 0;
	case OP_LE: return c <= 0;
	case OP_GT: return c > 0;
	default: return c >= 0;
	}
}

static int
dcmp(double a, double b)
{
	return a < b ? -1 : a > b;
}

/*
 * Dates: the test holds only if it holds for every day the game's date
 * may be, against every day the test's may be ("2021" is the year).
 */
static bool
date_holds(int op, const struct date *g, const struct date *t)
{
	switch (op) {
	case OP_EQ: return g->lo >= t->lo && g->hi <= t->hi;
	case OP_NE: return g->hi < t->lo || g->lo > t->hi;
	case OP_LT: return g->hi < t->lo;
	case OP_LE: return g->hi <= t->hi;
	case OP_GT: return g->lo > t->hi;
	default: return g->lo >= t->lo;
	}
}

static bool
tc_holds(const struct test *t, const char *value)
{
	struct tc g;
	double x;

	if (!parse_tc(value, &g))
		return t->op == OP_NE;
	if (t->tcf == TC_EST && t->tc.pair && (t->op == OP_EQ ||
	    t->op == OP_NE))
		return (g.base == t->tc.base && g.inc == t->tc.inc) ==
		    (t->op == OP_EQ);
	x = t->tcf == TC_BASE ? g.base : t->tcf == TC_INC ? g.inc : g.est;
	return cmp_holds(t->op, dcmp(x, t->num));
}

/* Does a tag's text (as_text) pass test t?  -1: undecided (re_match). */
static int
text_holds(const struct test *t, const char *value)
{
	int m;

	switch (t->op) {
	case OP_RE:
	case OP_NRE:
		if ((m = re_match(t, value)) < 0)
			return -1;
		return m == (t->op == OP_RE);
	}
	return cmp_holds(t->op, strcmp(value, t->val));
}

/* Does one tag value (NULL: the tag is missing) pass test t?  1 or 0,
 * -1 if undecided (a regex match reached its bounds). */
static int
value_holds(const struct test *t, const char *value)
{
	double x;
	struct date d;
	char buf[256], *heap;
	const char *text;
	int rc;

	if (value == NULL)	/* absent: not equal, not matching */
		return t->op == OP_NE || t->op == OP_NRE;
	if (t->op == OP_RE || t->op == OP_NRE || t->vtype == V_TEXT) {
		/* compared as the text the JSON shows: Latin-1 read so */
		if ((text = zh__json_text(value, buf, sizeof buf, &heap)) ==
		    NULL)
			return -1;
		rc = text_holds(t, text);
		if (text != value && text != buf)
			free(heap);
		return rc;
	}
	switch (t->vtype) {
	case V_TC:
		return tc_holds(t, value);
	case V_DATE:
		if (!parse_date(value, &d) || strlen(value) != 10)
			return t->op == OP_NE;
		return date_holds(t->op, &d, &t->date);
	case V_NUM:
		if (number(value, &x))
			return cmp_holds(t->op, dcmp(x, t->num));
		if (t->op != OP_EQ && t->op != OP_NE)
			return false;	/* "?" is no rating */
		break;
	}
	return cmp_holds(t->op, strcmp(value, t->val));
}

/* Does g pass tag test t?  -1: undecided. */
static int
test_tags(const struct test *t, const struct zh_game *g)
{
	int w, b;

	if (t->kind == ZH_SEL_TAG)
		return value_holds(t, zh_game_tag(g, t->tag));
	if ((w = value_holds(t, zh_game_tag(g, "White"))) < 0 ||
	    (b = value_holds(t, zh_game_tag(g, "Black"))) < 0)
		return -1;
	/* "is X": either player; "is not X": neither */
	return t->op == OP_NE || t->op == OP_NRE ? w && b : w || b;
}

int
zh_select_tags(const struct zh_select *s, const struct zh_game *g)
{
	int i, k, rc;

	for (i = 0; i < s->n; i++) {
		const struct test *t = &s->t[i];

		if (t->group != i ||
		    (t->kind != ZH_SEL_TAG && t->kind != ZH_SEL_PLAYER))
			continue;
		for (k = i; k >= 0; k = s->t[k].next)
			if ((rc = test_tags(&s->t[k], g)) != 0)
				break;
		if (k >= 0 && rc < 0)
			return -(k + 1);	/* undecided */
		if (k < 0)
			return i + 1;
	}
	return 0;
}

/* ==================== position keys ==================== */

/* SplitMix64's finaliser: a good 64-bit mix (Steele, Lea, Flood 2014). */
static inline uint64_t
mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9u;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebu;
	x ^= x >> 31;
	return x;
}

/*
 * The key's values, in one table made with the selection: a piece on a
 * square (ZSQ; 0 for an empty one), n pieces of a type in a colour's
 * hand (ZPK; 0 for none), each a mix64 of its own number.
 */
#define ZNSQ		(ZH_NSQ * 64)
#define ZTAB		(ZNSQ + 2 * ZH_NTYPES * 256)
#define ZSQ(z, s, pc)	((z)[(s) * 64 + (pc)])
#define ZPK(z, c, t, n)	((z)[ZNSQ + ((c) * ZH_NTYPES + (t)) * 256 + (n)])

static void
ztab_fill(uint64_t *z)
{
	size_t i;

	for (i = 0; i < ZTAB; i++)
		z[i] = i % 64 == 0 && i < ZNSQ ? 0 :
		    i >= ZNSQ && (i - ZNSQ) % 256 == 0 ? 0 :
		    mix64(i + 0x9e3779b97f4a7c15u);
}

#define ZSIDE 0xa54ff53a5f1d36f1u

static uint64_t
poskey(const uint64_t *z, const struct zh_pos *p, unsigned mask)
{
	uint64_t k = p->side == ZH_BLACK ? ZSIDE : 0;
	int s, c, t;

	for (s = 0; s < ZH_NSQ; s++)
		if (p->sq[s] != ZH_OFF)
			k ^= ZSQ(z, s, p->sq[s] & mask);
	for (c = 0; c < 2; c++)
		for (t = 1; t < ZH_NTYPES; t++)
			k ^= ZPK(z, c, t, p->pocket[c][t]);
	return k;
}

/* The key's table and the start positions' keys, made once. */
static int
keys_init(struct zh_select *s)
{
	struct zh_pos p;
	int v;

	if (s->z != NULL)
		return 0;
	if ((s->z = malloc(ZTAB * sizeof *s->z)) == NULL ||
	    (s->skey = malloc(2 * (size_t)zh_nvariants * sizeof *s->skey)) == NULL) {
		free(s->z);
		s->z = NULL;
		return -1;
	}
	ztab_fill(s->z);
	for (v = 0; v < zh_nvariants; v++) {
		zh_pos_start(&p, &zh_variants[v]);
		s->skey[2 * v] = poskey(s->z, &p, 0x3f);
		s->skey[2 * v + 1] = poskey(s->z, &p, 0x3f & ~ZH_PROMOTED);
	}
	return 0;
}

/* Same board, pockets and side to move (squares under mask)? */
static bool
same_pos(const struct zh_pos *a, const struct zh_pos *b, unsigned mask)
{
	int s;

	if (a->side != b->side || memcmp(a->pocket, b->pocket,
	    sizeof a->pocket) != 0)
		return false;
	if (mask == 0x3f)
		return memcmp(a->sq, b->sq, sizeof a->sq) == 0;
	for (s = 0; s < ZH_NSQ; s++)
		if (a->sq[s] != b->sq[s] &&
		    (a->sq[s] == ZH_OFF || b->sq[s] == ZH_OFF ||
		    ((a->sq[s] ^ b->sq[s]) & mask) != 0))
			return false;
	return true;
}

/* The 16 squares of the mailbox row holding square s. */
static inline void
row_get(const struct zh_pos *p, int s, uint64_t w[2])
{
	memcpy(w, p->sq + (s & ~15), 16);
}

/* Rehash the squares of the row at 'base' whose bytes changed. */
static inline uint64_t
row_diff(const uint64_t *z, const struct zh_pos *p, int base, const uint64_t old[2], uint64_t k,
    unsigned mask)
{
	uint64_t now[2], x;
	int h, b, s;

	row_get(p, base, now);
	for (h = 0; h < 2; h++)
		for (x = old[h] ^ now[h]; x != 0;) {
			b = __builtin_ctzll(x) / 8;
			x &= ~((uint64_t)0xff << 8 * b);
			s = base + 8 * h + b;
			k ^= ZSQ(z, s, (unsigned)(old[h] >> 8 * b & 0xff) & mask) ^
			    ZSQ(z, s, p->sq[s] & mask);
		}
	return k;
}

/* Rehash the counts of colour c's hand (types 1 to 8) that changed. */
static inline uint64_t
hand_diff(const uint64_t *z, int c, uint64_t old, uint64_t now, uint64_t k)
{
	uint64_t x;
	int b;

	for (x = old ^ now; x != 0;) {
		b = __builtin_ctzll(x) / 8;
		x &= ~((uint64_t)0xff << 8 * b);
		k ^= ZPK(z, c, b + 1, (unsigned)(old >> 8 * b & 0xff)) ^
		    ZPK(z, c, b + 1, (unsigned)(now >> 8 * b & 0xff));
	}
	return k;
}

/*
 * Play move m on p, keeping its key k up to date from the move's delta:
 * the squares it leaves and reaches, and the count of the mover's hand
 * that changed (a drop's type; a capture's type, or a pawn if the
 * piece was promoted).  Castling and en passant, which change a third
 * and fourth square, rehash the rows of their from and to squares: every
 * square such a move changes lies there.
 */
static uint64_t
make_keyed(const uint64_t *z, struct zh_pos *p, struct zh_move m, uint64_t k, unsigned mask)
{
	uint64_t rt[2], rf[2], h0, h1, n0, n1;
	int us = p->side, t;
	unsigned char pc, cap, np, nc;

	if (m.flags & (ZH_MDROP | ZH_MNULL)) {
		if (m.flags & ZH_MNULL) {	/* the turn passes, no more */
			zh__make_quiet(p, m);
			return k ^ ZSIDE;
		}
		np = p->pocket[us][m.piece];
		zh__make_quiet(p, m);
		return k ^ ZSIDE ^ ZSQ(z, m.to, p->sq[m.to] & mask) ^
		    ZPK(z, us, m.piece, np) ^ ZPK(z, us, m.piece, np - 1);
	}
	if (!(m.flags & (ZH_MEP | ZH_MCASTLE))) {
		pc = p->sq[m.from];
		cap = p->sq[m.to];
		t = ZH_TYPE(cap);
		np = p->pocket[us][ZH_PAWN];
		nc = p->pocket[us][t];
		zh__make_quiet(p, m);
		k ^= ZSIDE ^ ZSQ(z, m.from, pc & mask) ^ ZSQ(z, m.to, cap & mask) ^
		    ZSQ(z, m.to, p->sq[m.to] & mask);
		if (cap == 0)
			return k;
		if (p->pocket[us][t] != nc)
			k ^= ZPK(z, us, t, nc) ^ ZPK(z, us, t, p->pocket[us][t]);
		else if (p->pocket[us][ZH_PAWN] != np)
			k ^= ZPK(z, us, ZH_PAWN, np) ^
			    ZPK(z, us, ZH_PAWN, p->pocket[us][ZH_PAWN]);
		return k;
	}
	row_get(p, m.to, rt);
	row_get(p, m.from, rf);
	memcpy(&h0, &p->pocket[0][1], 8);
	memcpy(&h1, &p->pocket[1][1], 8);
	zh__make_quiet(p, m);
	k = row_diff(z, p, m.to & ~15, rt, k, mask) ^ ZSIDE;
	if ((m.from & ~15) != (m.to & ~15))
		k = row_diff(z, p, m.from & ~15, rf, k, mask);
	memcpy(&n0, &p->pocket[0][1], 8);
	memcpy(&n1, &p->pocket[1][1], 8);
	return hand_diff(z, 1, h1, n1, hand_diff(z, 0, h0, n0, k));
}

/* Which position tests does p (key k) meet?  Marks them in hit[]. */
static int
pos_hits(const struct zh_select *s, const struct zh_pos *p, uint64_t k,
    unsigned mask, bool *hit, int left)
{
	int j, i;

	for (j = 0; j < s->npos; j++) {
		const struct test *t = &s->t[i = s->pidx[j]];

		if ((mask == 0x3f ? t->key : t->key_np) != k || hit[i] ||
		    !same_pos(p, &t->pos, mask))
			continue;
		hit[i] = true;
		left--;
	}
	return left;
}

/*
 * Walk the mainline of g (replayed into r) from its start, marking in
 * hit[] the position tests it meets.  Variants without drops have no
 * promoted marks in their FEN: there the marks are not compared.
 */
static void
search(const struct zh_select *s, const struct zh_game *g,
    const struct zh_replay *r, bool *hit)
{
	struct zh_pos p = r->start;
	unsigned mask = r->v->drops ? 0x3f : 0x3f & ~ZH_PROMOTED;
	uint64_t k = r->setup ? poskey(s->z, &p, mask) :
	    s->skey[2 * (r->v - zh_variants) + (mask != 0x3f)];
	int left = s->npos;
	const struct test *t0 = &s->t[s->pidx[0]];
	uint64_t first = mask == 0x3f ? t0->key : t0->key_np;
	size_t j;

	if ((left = pos_hits(s, &p, k, mask, hit, left)) == 0)
		return;
	for (j = 0; j < g->ntoks && j < r->cap; j++) {
		const struct zh_rmove *rm = &r->moves[j];

		if (g->toks[j].kind != ZH_T_MOVE || rm->depth != 0)
			continue;
		if (!rm->ok)
			break;		/* the mainline stops at its error */
		k = make_keyed(s->z, &p, rm->move, k, mask);
		if ((k == first || s->npos > 1) &&
		    (left = pos_hits(s, &p, k, mask, hit, left)) == 0)
			return;
	}
}

/* ==================== game tests ==================== */

/* Did the replay find the game's start (its variant, its FEN tag)? */
/* The position search on a bughouse game: either board, at the start
 * and after every half-move (a capture changes the other board's
 * holdings too), each key made whole. */
struct bug_search {
	const struct zh_select *s;
	bool *hit;
	int left;
};

static int
bug_hits(void *arg, const struct zh_bply *pl)
{
	struct bug_search *x = arg;
	int i;

	for (i = 0; i < 2 && x->left > 0; i++)
		x->left = pos_hits(x->s, pl->pos[i], poskey(x->s->z, pl->pos[i],
		    0x3f), 0x3f, x->hit, x->left);
	return x->left == 0;
}

static void
bug_search(const struct zh_select *s, const struct zh_bug *b, bool *hit)
{
	struct bug_search x = { s, hit, s->npos };

	if (b->v != NULL)
		zh_bug_walk(b, bug_hits, &x);
}

static bool
started(const struct zh_game *g, const struct zh_replay *r)
{
	const char *fen = zh_game_tag(g, "FEN");

	return r->v != NULL && (fen == NULL || *fen == '\0' || r->setup);
}

/* A bughouse game's ending on the board: a mate, or none (a side with
 * no move waits: there is no stalemate). */
static int
bug_status(const struct zh_bug *b)
{
	return b->mated_board >= 0 ? ZH_CHECKMATE : ZH_ONGOING;
}

static bool
test_game(const struct test *t, const struct zh_game *g,
    const struct zh_replay *r, int rc, const bool *hit, int i)
{
	long n = r->bug != NULL ? (long)r->bug->nmoves : r->nplies;

	switch (t->kind) {
	case ZH_SEL_VARIANT:
		return r->v == t->v;
	case ZH_SEL_PLIES:		/* half-moves of both boards */
		return n >= t->lo && (t->hi < 0 || n <= t->hi);
	case ZH_SEL_ENDING:
		if (r->bug != NULL)
			return r->bug->v != NULL &&
			    bug_status(r->bug) == t->ending;
		return started(g, r) && zh_status(&r->final) == t->ending;
	case ZH_SEL_VALID:
		return (rc == 0 && g->err.code == ZH_OK) == t->valid;
	case ZH_SEL_POSITION:
		return hit[i];
	}
	return true;
}

int
zh_select_game(const struct zh_select *s, const struct zh_game *g,
    const struct zh_replay *r, int rc, struct zh_select_scratch *scratch)
{
	bool *hit = NULL;
	int i, k;

	if (s->npos > 0) {
		size_t need = (size_t)s->n * sizeof *hit;

		if (scratch->cap < need) {
			void *p = realloc(scratch->p, need);

			if (p == NULL)
				return -1;
			scratch->p = p;
			scratch->cap = need;
		}
		hit = scratch->p;
		memset(hit, 0, need);
		if (r->bug != NULL)
			bug_search(s, r->bug, hit);
		else if (started(g, r))
			search(s, g, r, hit);
	}
	for (i = 0; i < s->n; i++) {
		const struct test *t = &s->t[i];

		if (t->group != i ||
		    t->kind == ZH_SEL_TAG || t->kind == ZH_SEL_PLAYER)
			continue;
		for (k = i; k >= 0; k = s->t[k].next)
			if (test_game(&s->t[k], g, r, rc, hit, k))
				break;
		if (k < 0)
			return i + 1;
	}
	return 0;
}

void
zh_select_scratch_free(struct zh_select_scratch *scratch)
{
	if (scratch != NULL) {
		free(scratch->p);
		scratch->p = NULL;
		scratch->cap = 0;
	}
}

/* ==================== the game key ==================== */

/*
 * Two independent 64-bit lanes, each a multiply-xorshift absorbing one
 * word at a time with its own constants and seed, finished by mix64:
 * together a 128-bit key.  For n distinct games the chance that two
 * share a key is about n^2 / 2^129: 1.5e-27 for a million games, 1.5e-21
 * for a billion.
 */
struct lanes { uint64_t a, b; };

static inline void
absorb(struct lanes *h, uint64_t w)
{
	h->a = (h->a ^ w) * 0x9fb21c651e98df25u;
	h->a ^= h->a >> 28;
	h->b = (h->b ^ (w + 0x632be59bd9b4e019u)) * 0xd6e8feb86659fd93u;
	h->b ^= h->b >> 32;
}

/* A bughouse game's key: its variant, both starts (board, holdings,
 * side, castling), its half-moves in order with their boards. */
static struct zh_key
bug_key(const struct zh_bug *b)
{
	struct lanes h = { 0x243f6a8885a308d3u, 0x13198a2e03707344u };
	struct zh_key key;
	uint64_t w;
	size_t j, s;
	int i;

	if (b->v == NULL) {
		key.hi = key.lo = 0;
		return key;
	}
	absorb(&h, (uint64_t)(b->v - zh_variants) + 1);
	for (i = 0; i < 2; i++) {
		const struct zh_pos *p = &b->start[i];

		for (s = 0; s < ZH_NSQ; s += 8) {
			memcpy(&w, p->sq + s, 8);
			absorb(&h, w);
		}
		for (s = 0; s < sizeof p->pocket; s += 8) {
			size_t n = sizeof p->pocket - s;

			w = 0;
			memcpy(&w, (const unsigned char *)p->pocket + s,
			    n < 8 ? n : 8);
			absorb(&h, w);
		}
		absorb(&h, (uint64_t)p->side << 8 | p->castle);
	}
	for (j = 0; j < b->nmoves; j++) {
		const struct zh_bmove *m = &b->moves[j];

		absorb(&h, (uint64_t)m->rm.move.from |
		    (uint64_t)m->rm.move.to << 8 |
		    (uint64_t)m->rm.move.piece << 16 |
		    (uint64_t)(m->rm.move.flags & ZH_MDROP) << 24 |
		    (uint64_t)m->board << 32);
	}
	absorb(&h, (uint64_t)b->nmoves << 1 | b->complete);
	key.hi = mix64(h.a);
	key.lo = mix64(h.b ^ (h.a >> 17));
	return key;
}

struct zh_key
zh_game_key(const struct zh_game *g, const struct zh_replay *r)
{
	struct lanes h = { 0x243f6a8885a308d3u, 0x13198a2e03707344u };
	struct zh_key key;
	uint64_t w;
	size_t j, s;

	if (r->v == NULL) {		/* not replayed: no game to name */
		key.hi = key.lo = 0;
		return key;
	}
	if (r->bug != NULL)
		return bug_key(r->bug);
	absorb(&h, (uint64_t)(r->v - zh_variants) + 1);
	/* the start: board, pockets, side, castling rights (the
	   clocks and the en-passant square, written differently by
	   each dialect, are not part of a game's identity) */
	for (s = 0; s < ZH_NSQ; s += 8) {
		memcpy(&w, r->start.sq + s, 8);
		absorb(&h, w);
	}
	for (s = 0; s < sizeof r->start.pocket; s += 8) {
		size_t n = sizeof r->start.pocket - s;

		w = 0;
		memcpy(&w, (const unsigned char *)r->start.pocket + s,
		    n < 8 ? n : 8);
		absorb(&h, w);
	}
	absorb(&h, (uint64_t)r->start.side << 8 | r->start.castle);
	/* the mainline's legal moves: it stops at its first error */
	for (j = 0; j < g->ntoks && j < r->cap; j++) {
		const struct zh_rmove *rm = &r->moves[j];

		if (g->toks[j].kind != ZH_T_MOVE || rm->depth != 0)
			continue;
		if (!rm->ok)
			break;
		absorb(&h, (uint64_t)rm->move.from |
		    (uint64_t)rm->move.to << 8 |
		    (uint64_t)rm->move.piece << 16 |
		    (uint64_t)(rm->move.flags & ZH_MDROP) << 24);
	}
	absorb(&h, (uint64_t)r->nplies << 1 | r->complete);
	key.hi = mix64(h.a);
	key.lo = mix64(h.b ^ (h.a >> 17));
	return key;
}
