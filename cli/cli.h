/* cli.h - what every zhkit tool shares: diagnostics and small helpers. */
#ifndef CLI_H
#define CLI_H
#include <stdio.h>
#include "zh.h"

extern const char *cli_prog;		/* tool name for messages (prog.c) */
extern int cli_quiet;

enum { EXIT_VALID = 0, EXIT_INVALID = 1, EXIT_USAGE = 2 };

/* "TOOL: FILE:LINE:COL: error: MESSAGE" (or "warning:"); colour on a tty. */
void cli_diag(const char *kind, const char *file, long line, long col,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The same, to any stream (a worker's buffer); colour as for stderr. */
void cli_fdiag(FILE *f, const char *kind, const char *file, long line,
    long col, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* The same with the message ready made (len bytes, no newline). */
void cli_fdiag_msg(FILE *f, const char *kind, const char *file, long line,
    long col, const char *msg, size_t len);
/* The decimal digits of x (and its sign) at b, not terminated: at most
 * 20 bytes; returns their number. */
size_t cli_putlong(char *b, long x);
/* "TOOL: MESSAGE" for usage and I/O problems, to stderr or, if set,
 * cli_fail_to (per thread: the Python module's, whose messages become
 * exceptions). */
extern _Thread_local FILE *cli_fail_to;
void cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The run failed (an error said that stopped it): cli_exit's status is
 * then EXIT_USAGE. */
void cli_run_failed(void);
/* The variant to play g as: 'force' (--variant) if given, else 'dflt'
 * (--default-variant) when nothing in its tags names one, else NULL
 * (the tags decide). */
const struct zh_variant *cli_game_variant(const struct zh_game *g,
    const struct zh_variant *force, const struct zh_variant *dflt);
/* --column TAG=COLUMN: a Parquet or dataset-row input's column read as
   that tag (parquet_read.h); cli_common_option() takes it. */
enum { CLI_COLUMN = 0x700 };	/* 0x200 jobs, 0x300 selopts, 0x400 clean,
				   0x500 warn, 0x600 pic */
#define CLI_COLUMN_OPT	{ "column", required_argument, NULL, CLI_COLUMN }
#define CLI_COLUMN_HELP \
    "      --column T=C   a Parquet or dataset-row input: column C is tag T\n" \
    "                     (T movetext: the moves)\n"
#define CLI_DEFVAR_HELP \
    "      --default-variant V  the variant of games whose tags name none\n" \
    "                     (no Variant tag, none in Event or FEN: else chess)\n"
/* After a usage error said (getopt's or cli_fail's one line): "Try 'TOOL
 * --help' for more information.", GNU style; returns EXIT_USAGE. */
int cli_usage(void);
/* An old option spelling that still works for one release:
 * "TOOL: warning: OLD is deprecated; use NEW" (the exit status is not
 * changed). */
void cli_deprecated(const char *old, const char *use);
/* Parse a non-negative integer option in [lo, hi]; -1 on error. */
long cli_number(const char *s, long lo, long hi, const char *what);
/* Open FILE for reading ("-" or NULL: stdin); NULL after a message.  A
 * compressed one (zstd, gzip, bzip2, xz: known by its magic number) is
 * decompressed as it is read. */
FILE *cli_open(const char *path, const char **name);
/* c, what codec_ropen made of f, as the tools read it: a stream (not a
   plain file, which cli_open looked at) whose first line is a dataset
   row read as rows (flatrows_sniff), Parquet on a pipe an error.  NULL
   (c closed, but stdin) if out of memory. */
FILE *cli_stream(FILE *f, FILE *c);
/* "TOOL: NAME: read error", or the codec's reason a compressed input
 * failed: "TOOL: NAME: error: zstd: REASON (at byte N ...)". */
void cli_read_error(FILE *in, const char *name);
void cli_version(void);
/* The variant called 'name' (any alias); NULL after a message naming them. */
const struct zh_variant *cli_variant(const char *name);
/* The dialect called 'name' for option opt (--from, --to): ZH_LICHESS
   ..., or ZH_AUTO where auto_ok; -1 after a message naming them. */
int cli_dialect(const char *name, const char *opt, bool auto_ok);
/* -f/--from D of the PGN tools: 0 if D names a dialect (or auto; every
   reader reads every dialect, so it is checked, not needed), else -1
   after a message. */
int cli_from(const char *name);
/*
 * Outputs: standard output, -o and --rejects, all written through one
 * layer.  Register each (path NULL: standard output, "<stdout>" in
 * messages) and each input (NULL or "-": standard input), then open
 * them together: none is truncated unless all could be opened and none
 * is the same file as an input.  A failed write is said once, as
 * "TOOL: NAME: write error: REASON", and the run stops (exit 2).
 */
void cli_output(const char *path, FILE **fp);
void cli_inputs(int n, char *const *paths);
/* The input that path names (an existing file), or NULL. */
const char *cli_input_named(const char *path);
int cli_outputs_open(void);		/* 0, or -1 after a message */
bool cli_outputs_failed(void);		/* after each record: stop if true */
int cli_outputs_close(void);		/* flush and close; 0 or -1 */
bool cli_output_isatty(FILE *f);
/* The i-th output registered, early then late ("-": standard output);
   NULL past the last.  For --stats. */
const char *cli_output_name(int i);
/* The command line, kept by each tool's main() for --stats: cli_arg(i)
   is the i-th argument after the tool's name, NULL past the last. */
void cli_args(int argc, char *const *argv);
const char *cli_arg(int i);
/*
 * Late outputs, opened once the run has begun (zhpgn's split files):
 * 'path' is opened as -o is (made, or emptied if it exists), refused if
 * it is an input or any other output, early or late, and written
 * through the same layer.  cli_output_late() returns its stream and
 * its number in *id; cli_output_park() flushes and closes the stream
 * (the file is still compared with later ones), cli_output_resume()
 * opens it again to append.  NULL or -1 after a message (exit 2).
 * cli_outputs_close() closes them all.
 */
FILE *cli_output_late(const char *path, int *id);
int cli_output_park(int id);
FILE *cli_output_resume(int id);
/* A late output finished for good (a --split shard full): parked, and
   renamed to its name now, so that a signal or a failure later leaves it
   (tmpout_commit_kept()).  0, or -1 after a message. */
int cli_output_done(int id);
/* Close the outputs, flush stdout and stderr: rc, or EXIT_USAGE if
 * anything could not be written. */
int cli_exit(int rc);
/* --progress: a line is showing on stderr (set with stderr locked);
 * cli_progress_clear(f) wipes it before more is written to f. */
void cli_progress_shown(bool shown);
void cli_progress_clear(FILE *f);
/*
 * --limit NAME=VALUE for the PGN reader: game, tag, comment (bytes; K, M
 * and G suffixes), tags, plies, tokens, depth.  0 after a message.
 */
int cli_limit(struct zh_pgn_limits *lim, const char *arg);
#define CLI_LIMIT_HELP \
    "      --limit NAME=N reader limits: game=16M tag=64K comment=1M tags=1000\n" \
    "                     plies=10000 tokens=1000000 depth=64 (0 = default)\n"

#endif
