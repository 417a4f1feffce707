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
 * Positions are searched in the replay itself (zh_select_watch: the
 * replay calls back after each mainline move), else by walking the
 * replayed mainline again; each position is first tested in a few words
 * (the side to move, and on 8x8 boards where each colour's pieces stand),
 * and only then compared whole.
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
};

/* A position test's few words, tested first (may_be): the side to move,
 * and on an 8x8 board (bb) the squares of each colour's pieces. */
struct probe {
	uint64_t b0, b1;
	int i;			/* the test's index in t[] */
	unsigned char side;
	bool bb;
};

struct zh_select {
	struct test *t;
	int n, cap;
	bool replay;		/* a test that needs the replay */
	int npos;		/* position tests: how many, and which */
	struct probe *probe;	/* one per position test */
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


/* A FEN of any dialect: crazyhouse's board, else a 10-rank variant's. */
static int
parse_position(struct zh_select *s, struct test *t, const char *text,
    struct zh_error *err)
{
	const char *p = skipbl(text);
	struct zh_error e1 = { 0 }, e2 = { 0 };

	if (zh_fen_read(&t->pos, p, NULL, ZH_AUTO, 0, &e1) != 0 &&
	    zh_fen_read(&t->pos, p, zh_variant_guess(10, true), ZH_AUTO, 0,
	    &e2) != 0) {
		zh_error_set(err, e1.code, e1.col + (long)(p - text),
		    "%s", e1.text);
		return -1;
	}
	(void)s;
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
		struct probe *pr = realloc(s->probe, (size_t)(s->npos + 1) *
		    sizeof *pr);

		if (pr == NULL) {
			test_free(t);
			return bad(err, 0, "out of memory");
		}
		s->probe = pr;
		pr += s->npos++;
		pr->i = s->n;
		pr->side = t->pos.side;
		pr->bb = t->pos.v->files == 8 && t->pos.v->ranks == 8;
		pr->b0 = t->pos.bb_side[0];
		pr->b1 = t->pos.bb_side[1];
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
	free(s->probe);
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

/* ==================== positions ==================== */

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

/*
 * Could p be the position of the test of probe pr?  The side to move,
 * and for a test of an 8x8 board where each colour's pieces stand: a few
 * words, where most positions differ.  The bitboards of p are those of
 * its 8x8 board, kept with its squares; on another board they mean
 * nothing, but such a board is never the test's (its squares off the
 * board differ), whatever they say.
 */
static inline bool
may_be(const struct probe *pr, const struct zh_pos *p)
{
	return pr->side == p->side && (!pr->bb ||
	    (pr->b0 == p->bb_side[0] && pr->b1 == p->bb_side[1]));
}

/* Which position tests does p meet?  Marks them in hit[]; returns how
 * many are left unmet. */
static int
pos_hits(const struct zh_select *s, const struct zh_pos *p, unsigned mask,
    bool *hit, int left)
{
	int j, i;

	for (j = 0; j < s->npos; j++) {
		const struct probe *pr = &s->probe[j];

		if (!may_be(pr, p) || hit[i = pr->i] ||
		    !same_pos(p, &s->t[i].pos, mask))
			continue;
		hit[i] = true;
		left--;
	}
	return left;
}

/* Variants without drops have no promoted marks in their FEN: there the
 * marks are not compared. */
static unsigned
pos_mask(const struct zh_variant *v)
{
	return v->drops ? 0x3f : 0x3f & ~ZH_PROMOTED;
}

/*
 * Walk the mainline of g (replayed into r) from its start, marking in
 * hit[] the position tests it meets: for a replay that was not watched.
 */
static void
search(const struct zh_select *s, const struct zh_game *g,
    const struct zh_replay *r, bool *hit)
{
	struct zh_pos p = r->start;
	unsigned mask = pos_mask(r->v);
	int left = s->npos;
	size_t j;

	if ((left = pos_hits(s, &p, mask, hit, left)) == 0)
		return;
	for (j = 0; j < g->ntoks && j < r->cap; j++) {
		const struct zh_rmove *rm = &r->moves[j];

		if (g->toks[j].kind != ZH_T_MOVE || rm->depth != 0)
			continue;
		if (!rm->ok)
			break;		/* the mainline stops at its error */
		zh__make_quiet(&p, rm->move);
		if ((left = pos_hits(s, &p, mask, hit, left)) == 0)
			return;
	}
}

/*
 * The search in the replay (zh_select_watch): at the head of the
 * scratch, then hit[], one per test.  'r' and 'armed' tell
 * zh_select_game that the replay it is given is the one watched.
 */
struct watch {
	const struct zh_select *s;
	const struct zh_replay *r;
	bool armed;
	int left;
};

#define WATCH_HEAD	((sizeof(struct watch) + 15) / 16 * 16)

static bool *
watch_hits(struct zh_select_scratch *sc)
{
	return (bool *)((char *)sc->p + WATCH_HEAD);
}

/* The replay's call after each mainline move; non-zero: all found.
 * Most positions are none of the tests': passed over on their probes. */
static int
watch_move(void *arg, const struct zh_pos *p)
{
	struct watch *w = arg;
	const struct zh_select *s = w->s;
	bool *hit = (bool *)((char *)w + WATCH_HEAD);
	int j;

	for (j = 0; j < s->npos && !may_be(&s->probe[j], p); j++)
		;
	if (j == s->npos)
		return 0;
	w->left = pos_hits(s, p, pos_mask(p->v), hit, w->left);
	return w->left == 0;
}

/* The scratch holds a watch and n hits, zeroed; -1 out of memory. */
static int
scratch_hits(struct zh_select_scratch *sc, int n)
{
	size_t need = WATCH_HEAD + (size_t)n * sizeof(bool);

	if (sc->cap < need) {
		void *p = realloc(sc->p, need);

		if (p == NULL)
			return -1;
		sc->p = p;
		sc->cap = need;
	}
	memset(sc->p, 0, need);
	return 0;
}

int
zh_select_watch(const struct zh_select *s, struct zh_replay *r,
    struct zh_select_scratch *scratch)
{
	struct watch *w;

	r->watch = NULL;
	r->watch_arg = NULL;
	if (s->npos == 0)
		return 0;
	if (scratch_hits(scratch, s->n) != 0)
		return -1;
	w = scratch->p;
	w->s = s;
	w->r = r;
	w->armed = true;
	w->left = s->npos;
	r->watch = watch_move;
	r->watch_arg = w;
	return 0;
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
		x->left = pos_hits(x->s, pl->pos[i], 0x3f, x->hit, x->left);
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
		struct watch *w = scratch->p;
		/* the replay searched as it went (zh_select_watch): its
		   moves' positions are marked, its start is not */
		bool watched = w != NULL && w->armed && w->s == s &&
		    w->r == r && r->watch_arg == w;

		if (!watched && scratch_hits(scratch, s->n) != 0)
			return -1;
		w = scratch->p;
		w->armed = false;
		hit = watch_hits(scratch);
		if (r->bug != NULL)
			bug_search(s, r->bug, hit);
		else if (started(g, r) && watched)
			pos_hits(s, &r->start, pos_mask(r->v), hit, s->npos);
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
