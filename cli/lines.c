/* lines.c - input of one record a line, in constant memory. */
#include <string.h>

#include "lines.h"

#define BUFSIZE	(sizeof ((struct lines *)0)->buf - 1)

void
lines_open(struct lines *ls, FILE *f)
{
	ls->f = f;
	ls->pos = ls->len = 0;
	ls->eof = ls->skipping = ls->started = false;
}

/* Read more after the unread part; at the first read, drop a BOM. */
static void
fill(struct lines *ls)
{
	size_t got;

	if (ls->skipping)
		ls->pos = ls->len;
	memmove(ls->buf, ls->buf + ls->pos, ls->len - ls->pos);
	ls->len -= ls->pos;
	ls->pos = 0;
	got = fread(ls->buf + ls->len, 1, BUFSIZE - ls->len, ls->f);
	ls->len += got;
	if (got == 0)
		ls->eof = true;
	if (!ls->started && (ls->len >= 3 || ls->eof)) {
		ls->started = true;
		if (ls->len >= 3 && memcmp(ls->buf, "\xef\xbb\xbf", 3) == 0)
			ls->pos = 3;
	}
}

int
lines_next(struct lines *ls, char **line, size_t *n)
{
	for (;;) {
		char *s = ls->buf + ls->pos;
		char *nl = ls->started ? memchr(s, '\n', ls->len - ls->pos) : NULL;

		if (nl != NULL || (ls->eof && ls->pos < ls->len)) {
			size_t k = nl ? (size_t)(nl - s) : ls->len - ls->pos;
			bool skipped = ls->skipping;

			ls->pos += k + (nl != NULL);
			ls->skipping = false;
			if (skipped)
				continue;
			if (k > LINES_MAX) {
				*line = s;
				*n = LINES_MAX;
				s[LINES_MAX] = '\0';
				return -1;
			}
			if (k > 0 && s[k - 1] == '\r')
				k--;
			s[k] = '\0';
			*line = s;
			*n = k;
			return 1;
		}
		if (ls->eof)
			return 0;
		if (ls->len - ls->pos >= LINES_MAX && !ls->skipping) {
			*line = ls->buf + ls->pos;
			*n = LINES_MAX;
			ls->pos = ls->len;	/* drop the buffered part */
			ls->skipping = true;
			return -1;
		}
		fill(ls);
	}
}
