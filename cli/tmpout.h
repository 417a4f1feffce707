/*
 * tmpout.h - named outputs written under a temporary name in their own
 * directory and renamed over their name at the end, as rsync writes: an
 * interrupted run never leaves a cut file under the name asked for.
 *
 * The temporary files are kept in one list.  SIGINT, SIGTERM, SIGHUP
 * and SIGPIPE (those not ignored when the first one is made) remove
 * them: the handler only writes the signal's number to a pipe (async-
 * signal-safe, on whatever thread it lands); a thread of this file reads
 * it, removes every temporary file, says so on stderr ("TOOL: NAME: not
 * written (interrupted by SIGINT)"), and ends the process by the signal,
 * as it would have ended.  A commit after that is refused.
 */
#ifndef TMPOUT_H
#define TMPOUT_H
#include <sys/types.h>

/*
 * A new temporary file ".BASE.XXXXXX" beside 'final' (a path whose
 * directory exists), open for writing, with mode 'mode' (-1: the usual
 * 0666 less the umask); its name in *tmp (malloc'd).  'name' is the
 * output's in messages (kept, not copied).  The fd, or -1 with errno.
 */
int tmpout_create(const char *final, int mode, const char *name, char **tmp);
/* Rename tmp over final and forget it: 0, or -1 with errno (tmp then
   removed). */
int tmpout_commit(const char *tmp, const char *final);
/* The same for a file that stays whatever comes after (a finished
   --split shard), 'name' its name in messages: a signal that ends the
   run says "TOOL: FIRST to LAST: kept (N complete files)" after the
   files it removed. */
int tmpout_commit_kept(const char *tmp, const char *final, const char *name);
/* That message now, if there are such files (a run that failed). */
void tmpout_say_kept(void);
/* Remove tmp and forget it; 'why' (if not NULL) said as "TOOL: NAME: not
   written (WHY)". */
void tmpout_drop(const char *tmp, const char *why);
/* The end of the run: the handlers as they were, the thread gone (once
   every temporary file is committed or dropped). */
void tmpout_end(void);
#endif
