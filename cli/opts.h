/* opts.h - the options every tool takes alike (opts.c). */
#ifndef OPTS_H
#define OPTS_H
#include <stdbool.h>

/*
 * The options every tool takes alike: -q, the warning options
 * (WARN_OPTS: -w, -W, --null-moves, --all-warnings) and -V.  True if c
 * is one of them, *status then -1 to go on, or the exit status (after
 * -V's line, or a bad -w/-W said).
 */
bool cli_common_option(int c, const char *arg, int *status);
#endif
