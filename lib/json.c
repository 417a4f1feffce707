/*
 * json.c - the JSON writer of every tool: a growable buffer, one string
 * encoder, and numbers as zhkit-json(5) shows them.  See json.h.
 *
 * The rule for text that is not UTF-8: PGN's standard character set is
 * ISO 8859-1, and old archives are written in it, so each byte that is
 * not part of a valid UTF-8 sequence is read as Latin-1 and written as
 * the UTF-8 of U+0080..U+00FF.  "M\xfcller" stays Muller with its
 * umlaut where U+FFFD would lose the letter; valid UTF-8 is never
 * touched.  Overlong forms, surrogates and code points over U+10FFFF
 * are not valid UTF-8 (RFC 3629), so their bytes are read one by one.
 */
#include <stdlib.h>

#include "json.h"

/* ======================== the buffer ======================== */

/* zh__buf_reserve()'s growth, out of line. */
bool
zh__buf_grow(struct zh__buf *b, size_t n)
{
	size_t cap;
	char *s;

	if (b->fail)
		return false;
	cap = b->cap ? b->cap : 4096;
	while (cap < b->len + n + 1)
		cap *= 2;
	if ((s = realloc(b->local ? NULL : b->s, cap)) == NULL) {
		b->fail = true;
		return false;
	}
	if (b->local) {		/* leave the stack: what is written moves */
		memcpy(s, b->s, b->len);
		b->local = false;
	}
	b->s = s;
	b->cap = cap;
	return true;
}

void
zh__bputs(struct zh__buf *b, const char *s)
{
	zh__bput(b, s, strlen(s));
}

/* Flush b to f and free it; 0 or -1 with err set. */
int
zh__buf_flush(struct zh__buf *b, FILE *f, struct zh_error *err)
{
	int rc = 0;

	if (b->fail) {
		zh_error_set(err, ZH_ENOMEM, 0, "out of memory");
		rc = -1;
	} else if (b->len > 0 && fwrite(b->s, 1, b->len, f) != b->len) {
		zh_error_set(err, ZH_EIO, 0, "write error");
		rc = -1;
	}
	if (!b->local)
		free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
	b->local = false;
	return rc;
}

int
zh__buf_text(struct zh__buf *b, struct zh_text *t, struct zh_error *err)
{
	t->s = b->s;		/* a failed realloc left the block as it was */
	t->cap = b->cap;
	if (b->fail) {
		if (t->s != NULL)
			t->s[t->len] = '\0';
		zh_error_set(err, ZH_ENOMEM, 0, "out of memory");
		return -1;
	}
	t->len = b->len;
	return 0;
}

bool
zh__text_room(struct zh_text *t, size_t n)
{
	size_t cap = t->cap ? t->cap : 4096;
	char *s;

	if (t->len + n + 1 <= t->cap)
		return true;
	while (cap < t->len + n + 1)
		cap *= 2;
	if ((s = realloc(t->s, cap)) == NULL)
		return false;
	t->s = s;
	t->cap = cap;
	return true;
}

void
zh_text_free(struct zh_text *t)
{
	if (t == NULL)
		return;
	free(t->s);
	t->s = NULL;
	t->len = t->cap = 0;
}

/* ======================== strings ======================== */

/* Length of the valid UTF-8 sequence at s (n bytes left, s[0] >= 0x80),
 * 0 if none. */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	size_t k, i;
	unsigned c = s[0];

	if (c >= 0xc2 && c <= 0xdf)
		k = 2;
	else if (c >= 0xe0 && c <= 0xef)
		k = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		k = 4;
	else
		return 0;
	if (k > n)
		return 0;
	for (i = 1; i < k; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* overlong 3- and 4-byte forms, surrogates, over U+10FFFF */
	if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) ||
	    (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] > 0x8f))
		return 0;
	return k;
}

unsigned
zh__json_text_kind(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned kind = 0;
	size_t i, k;

	for (i = 0; i < n; i += k) {
		k = 1;
		if (u[i] < 0x80)
			continue;
		if ((k = utf8_len(u + i, n - i)) == 0) {
			k = 1;
			kind |= ZH__TEXT_LATIN1;
		} else
			kind |= ZH__TEXT_UTF8;
	}
	return kind;
}

/*
 * s (NUL-terminated) as the text its JSON string says, unescaped: valid
 * UTF-8 kept, any other byte read as ISO 8859-1.  s itself if it is
 * that text already (ASCII, or valid UTF-8), else the text in out (size
 * bytes) if it fits, or in memory of its own that *heap is set to (free
 * it); NULL if out of memory.  Selection tests compare this
 * text (select.c), so what they match is what the JSON shows.
 */
const char *
zh__json_text(const char *s, char *out, size_t size, char **heap)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n, i, k, bad = 0;
	char *q, *o;

	*heap = NULL;
	/* (utf8_len reads no further than a NUL: it is no continuation
	   byte) */
	for (i = 0; u[i] != '\0'; i += k) {
		k = 1;
		if (u[i] >= 0x80 && (k = utf8_len(u + i, 4)) == 0) {
			k = 1;
			bad++;
		}
	}
	if (bad == 0)
		return s;
	n = i + bad + 1;
	if (n <= size)
		o = out;
	else if ((o = *heap = malloc(n)) == NULL)
		return NULL;
	for (q = o, i = 0; u[i] != '\0'; i += k) {
		k = 1;
		if (u[i] < 0x80)
			*q++ = (char)u[i];
		else if ((k = utf8_len(u + i, 4)) == 0) {
			*q++ = (char)(0xc0 | u[i] >> 6);
			*q++ = (char)(0x80 | (u[i] & 0x3f));
			k = 1;
		} else {
			memcpy(q, s + i, k);
			q += k;
		}
	}
	*q = '\0';
	return o;
}

/* Has the word w a byte that a JSON string must escape (a control byte,
 * '"' or '\\') or that is not printable ASCII?  Exact as a whole. */
static inline bool
esc8(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
	uint64_t q = w ^ (ones * '"'), s = w ^ (ones * '\\');

	return (((w - ones * 0x20) & ~w) |		/* < 0x20 */
	    ((w + ones) | w) |				/* > 0x7e */
	    ((q - ones) & ~q) | ((s - ones) & ~s)) & highs;
}

/* Is s (n bytes) printable ASCII but '"' and '\\', to copy as it is?
 * Eight bytes at a time: most text from the input is. */
static inline bool
plain(const char *s, size_t n)
{
	size_t i = 0;
	uint64_t w;

	for (; i + 8 <= n; i += 8) {
		memcpy(&w, s + i, sizeof w);
		if (esc8(w))
			break;
	}
	if (i < n && n >= 8 && i + 8 > n) {
		/* the last bytes: the last word, overlapping the one before */
		memcpy(&w, s + n - 8, sizeof w);
		if (!esc8(w))
			i = n;
	} else if (n >= 4 && n < 8) {
		/* 4 to 7 bytes: the first four and the last four, as a word */
		uint32_t lo, hi;

		memcpy(&lo, s, sizeof lo);
		memcpy(&hi, s + n - 4, sizeof hi);
		if (!esc8(lo | (uint64_t)hi << 32))
			i = n;
	}
	for (; i < n; i++)
		if (s[i] < 0x20 || s[i] > 0x7e || s[i] == '"' || s[i] == '\\')
			return false;
	return true;
}

/*
 * The text of s[i..stop) at q, for a string that is not plain(), and the
 * index where it ended in *end (a UTF-8 sequence started before 'stop'
 * is taken whole, so up to three bytes past it; n bounds s).  At most six
 * bytes out per byte in (a control byte's "\u001F").  The escapes are
 * Jansson's, which wrote these strings before: the short forms of
 * RFC 8259, "\uXXXX" in upper case for the other control bytes, and DEL
 * and '/' as they are.
 */
static char *
qtext(char *q, const unsigned char *s, size_t n, size_t i, size_t stop,
    size_t *end)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t k;

	for (; i < stop; i += k) {
		unsigned c = s[i];

		k = 1;
		if (c >= 0x80) {
			if ((k = utf8_len(s + i, n - i)) == 0) {
				/* not UTF-8: the byte as Latin-1 */
				*q++ = (char)(0xc0 | c >> 6);
				*q++ = (char)(0x80 | (c & 0x3f));
				k = 1;
			} else {
				memcpy(q, s + i, k);
				q += k;
			}
		} else if (c == '"' || c == '\\') {
			*q++ = '\\';
			*q++ = (char)c;
		} else if (c >= 0x20)
			*q++ = (char)c;
		else {
			*q++ = '\\';
			switch (c) {
			case '\b': *q++ = 'b'; break;
			case '\f': *q++ = 'f'; break;
			case '\n': *q++ = 'n'; break;
			case '\r': *q++ = 'r'; break;
			case '\t': *q++ = 't'; break;
			default:
				*q++ = 'u';
				*q++ = '0';
				*q++ = '0';
				*q++ = hex[c >> 4];
				*q++ = hex[c & 15];
			}
		}
	}
	*end = i;
	return q;
}

/* Input bytes encoded per reserve: room for a piece's worst case, not
 * the whole string's (a 100 MB comment). */
#define PIECE	4096

void
zh__json_str(struct zh__buf *b, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i, stop;
	char *q;

	zh__json_sep(b);
	if (plain(s, n)) {
		if (!zh__buf_reserve(b, n + 2))
			return;
		q = b->s + b->len;
		*q++ = '"';
		memcpy(q, s, n);
		q += n;
		*q++ = '"';
		*q = '\0';
		b->len = (size_t)(q - b->s);
		return;
	}
	zh__bputc(b, '"');
	for (i = 0; i < n; i = stop) {
		if (!zh__buf_reserve(b, 6 * (PIECE + 3)))
			return;
		stop = n - i > PIECE ? i + PIECE : n;
		q = qtext(b->s + b->len, u, n, i, stop, &stop);
		b->len = (size_t)(q - b->s);
	}
	zh__bputc(b, '"');
}

int
zh_json_string(struct zh_text *out, const char *s, size_t n)
{
	struct zh__buf b = ZH_BUF_TEXT(out);

	zh__json_str(&b, s, n);
	return zh__buf_text(&b, out, NULL);
}

void
zh__json_strz(struct zh__buf *b, const char *s)
{
	if (s == NULL)
		zh__json_null(b);
	else
		zh__json_str(b, s, strlen(s));
}

void
zh__json_keyn(struct zh__buf *b, const char *s, size_t n)
{
	zh__json_str(b, s, n);
	zh__bputc(b, ':');
}

void
zh__json_ascii(struct zh__buf *b, const char *s)
{
	zh__json_sep(b);
	zh__bputc(b, '"');
	zh__bputs(b, s);
	zh__bputc(b, '"');
}

/* ======================== other values ======================== */

void
zh__json_int(struct zh__buf *b, long long x)
{
	char s[24];

	zh__json_sep(b);
	zh__bput(b, s, (size_t)(zh__putlong(s, x) - s));
}

void
zh__json_bool(struct zh__buf *b, bool x)
{
	zh__json_sep(b);
	if (x)
		zh__bput(b, "true", 4);
	else
		zh__bput(b, "false", 5);
}

void
zh__json_null(struct zh__buf *b)
{
	zh__json_sep(b);
	zh__bput(b, "null", 4);
}

void
zh__json_seconds(struct zh__buf *b, double sec)
{
	long long ms = (long long)(sec * 1000 + 0.5);
	char s[4];
	size_t n = 3;

	zh__json_int(b, ms / 1000);
	if (ms % 1000 == 0)
		return;
	s[0] = '.';
	s[1] = (char)('0' + ms % 1000 / 100);
	s[2] = (char)('0' + ms % 100 / 10);
	s[3] = (char)('0' + ms % 10);
	while (s[n] == '0')
		n--;
	zh__bput(b, s, n + 1);
}

char *
zh__json_qreal(char *q, double x)
{
	double a = x < 0 ? -x : x;
	char tmp[ZH_JSON_REALMAX];
	int n;

	/* Clocks and evals are mostly whole or to the hundredth.  When a is
	   the double nearest to t / 100 (the division rounds correctly),
	   "%.15g" writes t / 100's shortest decimal, as fifteen digits
	   survive the trip to a double and back: write it directly. */
	if (a >= 0.01 && a < 1e12) {
		long long t = (long long)(a * 100 + 0.5);
		int f = (int)(t % 100);

		if ((double)t / 100 == a) {
			if (x < 0)
				*q++ = '-';
			q = zh__putlong(q, t / 100);
			*q++ = '.';
			*q++ = (char)('0' + f / 10);
			if (f % 10 != 0)
				*q++ = (char)('0' + f % 10);
			return q;
		}
	}
	n = snprintf(tmp, sizeof tmp, "%.15g", x);

	if (n < 0 || n >= (int)sizeof tmp - 3)
		n = 0;
	if (strpbrk(tmp, ".eE") == NULL) {
		tmp[n++] = '.';
		tmp[n++] = '0';
	} else {
		char *e = strchr(tmp, 'e');

		/* Jansson drops '+' and leading zeros of an exponent */
		if (e != NULL) {
			char *s = e + 1, *d = e + 1;

			if (*s == '+')
				s++;
			else if (*s == '-')
				*d++ = *s++;
			while (*s == '0' && s[1] != '\0')
				s++;
			memmove(d, s, strlen(s) + 1);
			n = (int)strlen(tmp);
		}
	}
	memcpy(q, tmp, (size_t)n);
	return q + n;
}

void
zh__json_real(struct zh__buf *b, double x)
{
	zh__json_sep(b);
	if (zh__buf_reserve(b, ZH_JSON_REALMAX)) {
		b->len = (size_t)(zh__json_qreal(b->s + b->len, x) - b->s);
		b->s[b->len] = '\0';
	}
}

/* Every tool's error object (json.h). */
void
zh__json_problem(struct zh__buf *b, long line, long col, long ply,
    const char *code, const char *message, bool warning)
{
	zh__json_open(b, '{');
	zh__json_key(b, "line");
	zh__json_int(b, line);
	zh__json_key(b, "col");
	zh__json_int(b, col);
	zh__json_key(b, "ply");
	zh__json_int(b, ply);
	zh__json_key(b, "code");
	zh__json_ascii(b, code);
	zh__json_key(b, "message");
	zh__json_strz(b, message);
	zh__json_key(b, "severity");
	zh__json_ascii(b, warning ? "warning" : "error");
}
