/* lines.h - input of one record a line (FEN files), in constant memory. */
#ifndef LINES_H
#define LINES_H
#include <stdbool.h>
#include <stdio.h>

/* The longest line read as a record (zhfen, zhcheck --fen): a longer one
   is reported at its line and skipped to its newline, never stored. */
#define LINES_MAX	65536
#define LINES_MAX_TEXT	"65536"

struct lines {
	FILE *f;
	size_t pos, len;
	bool eof, skipping, started;
	char buf[4 * LINES_MAX + 1];
};

/* Start reading f (its UTF-8 byte order mark, if any, is skipped). */
void lines_open(struct lines *ls, FILE *f);
/*
 * Next line into *line (NUL-terminated, without "\n" or "\r\n"), its
 * length into *n; 1 for a line, 0 at the end, -1 for a line longer than
 * LINES_MAX (skipped up to its newline; *line holds its first LINES_MAX
 * bytes).
 */
int lines_next(struct lines *ls, char **line, size_t *n);
#endif
