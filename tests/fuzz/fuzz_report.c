/*
 * fuzz_report.c - libFuzzer target for zhcheck's report writers
 * (cli/report.c): hostile file names, players' names and messages in
 * every format.  The input: a byte of choices, a file name line, then a
 * PGN stream whose games (their tags: White, Black, GameId, Site) get
 * problems made from the bytes that follow each (codes of every kind,
 * lines, columns, plies, boards, message bytes).  Checked: the GitHub
 * output is whole workflow-command lines, at most the limit of each
 * level; the JUnit XML has no raw control byte or stray '<' and is
 * UTF-8; the SARIF log is JSON (Jansson) with a result per problem.
 * Built by `make fuzz` (build/fuzz/fuzz_report) and, over the
 * checked-in corpus, by make check (tests/fuzz.bats).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "zh.h"
#include "report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXGAMES 16

static const char *const codes[] = {
	"syntax", "illegal-move", "illegal-drop", "ambiguous", "limit",
	"tag", "missing-round", "result", "text-between-games", "clock",
	"check-suffix", "variation", "position", "error", "no-such-code",
};

/* Problems for one game from the bytes at *p (up to end). */
static size_t
make_probs(struct zh_problem *pr, const uint8_t **p, const uint8_t *end)
{
	size_t n = 0, k, len;

	while (n < 4 && end - *p >= 4) {
		const uint8_t *q = *p;

		pr[n].severity = q[0] & 1 ? ZH_ERROR : ZH_WARNING;
		pr[n].code = codes[q[0] % (sizeof codes / sizeof codes[0])];
		pr[n].line = (long)q[1] * 1000003L;
		pr[n].col = q[2] & 0x80 ? -(long)q[2] : q[2];
		pr[n].ply = q[3] % 7;
		pr[n].board = (int)(q[3] >> 6) - 2 > 0 ? 1 :
		    (int)(q[3] >> 6) - 2 == 0 ? 0 : -1;
		len = (size_t)(end - q - 4);
		if (len > (size_t)(q[1] % 64 + 150))
			len = (size_t)(q[1] % 64 + 150);	/* up to and past 199 */
		if (len > sizeof pr[n].text - 1)
			len = sizeof pr[n].text - 1;
		memcpy(pr[n].text, q + 4, len);
		pr[n].text[len] = '\0';
		for (k = 0; k < len; k++)	/* NUL ends it: hostile bytes */
			if (pr[n].text[k] == '\0')
				pr[n].text[k] = '\n';
		*p = q + 4 + len;
		n++;
	}
	return n;
}

/* The first k bytes of t in [p, end), or NULL (memmem is not POSIX). */
static const uint8_t *
find(const uint8_t *p, const uint8_t *end, const char *t, size_t k)
{
	for (; end - p >= (ptrdiff_t)k; p++)
		if (memcmp(p, t, k) == 0)
			return p;
	return NULL;
}

static bool
utf8_ok(const unsigned char *s, size_t n)
{
	size_t i = 0, k;

	while (i < n) {
		unsigned char c = s[i];

		k = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 &&
		    c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
		if (k == 0 || i + k > n)
			return false;
		while (--k > 0)
			if ((s[++i] & 0xc0) != 0x80)
				return false;
		i++;
	}
	return true;
}

static void
check_github(const char *s, size_t n, long limit)
{
	long lev[2] = { 0, 0 };
	const char *e, *end = s + n;

	for (; s < end; s = e + 1) {
		if ((e = memchr(s, '\n', (size_t)(end - s))) == NULL)
			abort();	/* a line not ended */
		if (memchr(s, '\r', (size_t)(e - s)) != NULL)
			abort();
		if (strncmp(s, "::error file=", 13) == 0)
			lev[1]++;
		else if (strncmp(s, "::warning file=", 15) == 0)
			lev[0]++;
		else if (strncmp(s, "::notice title=zhcheck::", 24) != 0)
			abort();
	}
	if (lev[0] > limit || lev[1] > limit)
		abort();
}

static void
check_junit(const char *s, size_t n)
{
	size_t i;

	if (!utf8_ok((const unsigned char *)s, n))
		abort();
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c < 0x20 && c != '\n') || c == 0x7f)
			abort();
		if (c == '<' && i + 1 < n && !(s[i + 1] == '/' ||
		    s[i + 1] == '?' || (s[i + 1] >= 'a' && s[i + 1] <= 'z')))
			abort();
	}
}

static void
check_sarif(const char *s, size_t n, size_t nprobs)
{
	json_error_t je;
	json_t *j = json_loadb(s, n, 0, &je), *res;

	if (j == NULL)
		abort();
	res = json_object_get(json_array_get(json_object_get(j, "runs"), 0),
	    "results");
	if (json_array_size(res) != nprobs)
		abort();
	json_decref(j);
}

/* The games' problems through format fmt. */
static void
one_format(int fmt, const char *file, struct zh_game *gs,
    struct zh_problem (*pr)[4], const size_t *np, size_t ng, long limit)
{
	char *buf = NULL, *hb = NULL;
	size_t len = 0, hlen = 0, total = 0, i;
	FILE *out = open_memstream(&buf, &len), *held = tmpfile(),
	    *suites = tmpfile();
	bool any = false;
	uint64_t fp[4];
	bool known[4] = { false, false, false, false };

	if (out == NULL || held == NULL || suites == NULL)
		abort();
	report_conf(limit, NULL);
	report_begin(out, fmt);
	for (i = 0; i < ng; i++) {
		struct report_case c = { file, &gs[i], gs[i].line, pr[i],
		    np[i], fp, known };
		size_t k;

		for (k = 0; k < np[i]; k++)
			fp[k] = report_fingerprint(report_line_seed(file,
			    strlen(file)), &pr[i][k]);
		total += np[i];
		if (np[i] > 0 && fmt == REPORT_SARIF)
			report_sep(out, fmt, &any);
		report_case(fmt == REPORT_SARIF ? out : held, fmt, &c);
	}
	if (fmt == REPORT_JUNIT && report_suite(suites, held, file,
	    (long)ng, 0) != 0)
		abort();
	if (report_end(out, fmt, fmt == REPORT_JUNIT ? suites : held,
	    (long)ng, 0) != 0)
		abort();
	fclose(out);
	if (fmt == REPORT_GITHUB)
		check_github(buf, len, limit);
	else if (fmt == REPORT_JUNIT)
		check_junit(buf, len);
	else
		check_sarif(buf, len, total);
	free(buf);
	free(hb);
	(void)hlen;
	fclose(held);
	fclose(suites);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct zh_problem pr[MAXGAMES][4];
	static size_t np[MAXGAMES];
	struct zh_game gs[MAXGAMES];
	struct zh_pgn_reader *r[MAXGAMES];
	const uint8_t *p, *end = data + size, *nl;
	char *file;
	size_t ng = 0, i, flen;
	FILE *f;

	if (size < 2)
		return 0;
	p = data + 1;
	nl = memchr(p, '\n', (size_t)(end - p));
	flen = nl ? (size_t)(nl - p) : (size_t)(end - p);
	if ((file = malloc(flen + 2)) == NULL)
		return 0;
	memcpy(file, p, flen);
	file[flen] = '\0';
	if (strlen(file) == 0)
		strcpy(file, "-");
	p += flen + (nl != NULL);
	/* each game a reader of its own (its zh_game stays valid): the
	   game's text up to a line "==", then its problems' bytes */
	while (ng < MAXGAMES && p < end) {
		const uint8_t *sep = find(p, end, "\n==", 3);
		size_t glen = sep ? (size_t)(sep - p) : (size_t)(end - p);

		if ((f = fmemopen((void *)(uintptr_t)p, glen ? glen : 1, "r")) ==
		    NULL)
			break;
		r[ng] = zh_pgn_open(f, NULL);
		if (zh_pgn_next(r[ng], &gs[ng]) != 1) {
			zh_pgn_close(r[ng]);
			fclose(f);
			break;
		}
		fclose(f);	/* the game is the reader's own copy */
		p += glen + (sep ? 3 : 0);
		{
			const uint8_t *q = p, *e2 = find(p, end,
			    "\n[", 2);

			if (e2 == NULL)
				e2 = end;
			np[ng] = make_probs(pr[ng], &q, e2);
			p = e2 + (e2 < end);
		}
		ng++;
	}
	one_format(REPORT_GITHUB, file, gs, pr, np, ng, data[0] % 4);
	one_format(REPORT_JUNIT, file, gs, pr, np, ng, 10);
	one_format(REPORT_SARIF, file, gs, pr, np, ng, 10);
	for (i = 0; i < ng; i++)
		zh_pgn_close(r[i]);
	free(file);
	return 0;
}
