/* kind.c - an input of the wrong kind, and what to run instead (kind.h). */
#include <string.h>

#include "cli.h"
#include "kind.h"

/* A FEN's board: its first field has 7 '/' or more (two boards: more),
 * and only pieces, digits, '~' and a pocket's brackets. */
static bool
fen_board(const char *s, size_t n)
{
	size_t i, slashes = 0;

	for (i = 0; i < n && s[i] != ' '; i++)
		if (s[i] == '/')
			slashes++;
		else if (!strchr("pnbrqkPNBRQK12345678~[]-", s[i]) ||
		    s[i] == '\0')
			return false;
	return slashes >= 7;
}

int
kind_of(const char *s, size_t n)
{
	size_t i = 0;

	while (n > 0 && (s[n - 1] == '\r' || s[n - 1] == '\n' ||
	    s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	s += i;
	n -= i;
	if (n == 0)
		return KIND_OTHER;
	if (n == 1 && (s[0] == '{' || s[0] == '['))
		return KIND_JSON_PRETTY;
	if (s[0] == '{' && s[n - 1] == '}')
		return KIND_JSONL;
	if (s[0] == '[' && n > 3 && memchr(s, '"', n) != NULL &&
	    s[n - 1] == ']')
		return KIND_PGN;		/* a tag pair */
	if (n > 2 && s[0] == '1' && s[1] == '.')
		return KIND_PGN;		/* movetext */
	if (fen_board(s, n))
		return KIND_FEN;
	return KIND_OTHER;
}

int
kind_hint(FILE *f, const char *file, int kind, int reads, const char *fen)
{
	bool fen_tool = reads == KIND_FEN;
	const char *what = NULL, *try = NULL;
	char jq[64];

	if (kind == KIND_PGN && fen_tool) {
		what = "PGN (a tag pair or moves), not FEN positions one a line";
		try = "zhcheck FILE to check its games, zhpgn --json --fens "
		    "FILE for the position after every move";
	} else if (kind == KIND_JSONL && fen_tool) {
		what = "JSON Lines (zhpgn --json), not FEN positions";
		try = "zhpgn --json --fens FILE for the position after every "
		    "move";
	} else if (kind == KIND_FEN && !fen_tool) {
		what = "FEN positions, one a line, not PGN";
		try = fen != NULL ? fen :
		    "zhfen FILE (zhcheck --fen FILE to check them)";
	} else if (kind == KIND_JSON_PRETTY) {
		what = "JSON printed over many lines (jq without -c), not "
		    "JSON Lines (one object a line)";
		snprintf(jq, sizeof jq, "jq -c . FILE | %s", fen_tool ?
		    "zhpgn --json --fens" : cli_prog);
		try = jq;
	}
	if (what == NULL)
		return 0;
	cli_progress_clear(f);
	fprintf(f, "%s: %s: note: it looks like %s: try ", cli_prog, file,
	    what);
	for (; *try != '\0'; try++)	/* FILE: the input's name */
		if (strncmp(try, "FILE", 4) == 0) {
			fputs(strcmp(file, "<stdin>") == 0 ? "-" : file, f);
			try += 3;
		} else
			putc(*try, f);
	putc('\n', f);
	return 1;
}
