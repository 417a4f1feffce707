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
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "report.h"
#include "warn.h"

enum esc { E_GH, E_GHPROP, E_XML, E_JSON };

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
	size_t k = strnlen(s, max);

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

/* ======================== GitHub ======================== */

static void
github_case(FILE *f, const struct report_case *c)
{
	char local[512], *msg;
	size_t i, n;

	for (i = 0; i < c->n; i++) {
		const struct zh_problem *p = &c->probs[i];

		msg = report_text(local, sizeof local, c->g, p, &n);
		fprintf(f, "::%s file=", level(p));
		put_str(f, c->file, E_GHPROP);
		fprintf(f, ",line=%ld,col=%ld,title=", p->line, p->col);
		put_str(f, "zhcheck ", E_GHPROP);
		put_str(f, p->code, E_GHPROP);
		fputs("::", f);
		put_text(f, msg, n, E_GH);
		putc('\n', f);
		if (msg != local)
			free(msg);
	}
}

/* ======================== JUnit ======================== */

/* "FILE:LINE:COL: KIND: MESSAGE" lines of the problems of one kind. */
static void
junit_lines(FILE *f, const struct report_case *c, int sev)
{
	char local[512], *msg;
	size_t i, n;

	for (i = 0; i < c->n; i++)
		if (c->probs[i].severity == sev) {
			msg = report_text(local, sizeof local, c->g,
			    &c->probs[i], &n);
			put_str(f, c->file, E_XML);
			fprintf(f, ":%ld:%ld: %s: ", c->probs[i].line,
			    c->probs[i].col, level(&c->probs[i]));
			put_text(f, msg, n, E_XML);
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
		if (c->probs[i].severity == ZH_ERROR && e == NULL)
			e = &c->probs[i];
		else if (c->probs[i].severity != ZH_ERROR)
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
		junit_lines(f, c, ZH_ERROR);
		fputs("</failure>\n", f);
	}
	if (warned) {
		fputs("      <system-out>", f);
		junit_lines(f, c, ZH_WARNING);
		fputs("</system-out>\n", f);
	}
	fputs("    </testcase>\n", f);
}

/* ======================== SARIF ======================== */

/* The codes a problem may have (zhcheck(1)) and the warning classes. */
static const char *const error_codes[] = {
	"syntax", "variant", "fen", "position", "illegal-move",
	"illegal-drop", "ambiguous", "move-label", "limit", "memory", "error"
};
#define NERRCODES (sizeof error_codes / sizeof error_codes[0])

/* The rule's index in the driver's rules, or -1. */
static int
rule_index(const char *code)
{
	size_t i;
	int k = warn_code(code);

	if (k >= 0)
		return (int)NERRCODES + k;
	for (i = 0; i < NERRCODES; i++)
		if (strcmp(code, error_codes[i]) == 0)
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
		    "\"startColumn\":%ld}}}]}", p->line > 0 ? p->line : 1,
		    p->col > 0 ? p->col : 1);
	}
}

static void
sarif_rule(FILE *f, const char *id, const char *lvl, bool first)
{
	fprintf(f, "%s\n{\"id\":\"%s\",\"shortDescription\":{\"text\":\"%s\"},"
	    "\"defaultConfiguration\":{\"level\":\"%s\"}}", first ? "" : ",",
	    id, id, lvl);
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
		sarif_rule(f, error_codes[i], "error", i == 0);
	for (k = 0; k < W_N; k++)
		sarif_rule(f, warn_name(k), "warning", false);
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
report_end(FILE *out, int fmt, FILE *suites, long tests, long failures)
{
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
