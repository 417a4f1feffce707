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
#include <stdbool.h>

/*
 * A new temporary file ".BASE.XXXXXX" beside 'final' (a path whose
 * directory exists), open for writing, with mode 'mode' (-1: the usual
 * 0666 less the umask); its name in *tmp (malloc'd).  'name' is the
 * output's in messages (kept, not copied).  The fd, or -1 with errno.
 * As zhkit(7) says for every named output: a 'final' that is a device or
 * a FIFO (/dev/null, /dev/stdout on a pipe) is opened and written in
 * place (*tmp then names it; commit and drop leave it be); one that is a
 * symbolic link stays, the temporary file made beside the file it names
 * and renamed over that one; a directory is EISDIR.
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
/* SIGPIPE watched from the start of the run (cli_outputs_open), before
   any temporary file: when it is standard error alone whose reader is
   gone, the run ends with exit status 2, its temporary files removed,
   as on any write error; a closed standard output (or another pipe)
   still ends it by the signal.  Nothing if SIGPIPE is ignored. */
void tmpout_watch(void);
/* A path made by the caller (a file, or a directory: its files and it
   removed after the temporary files) removed on a signal as those are,
   until tmpout_untrack(path); 'name' kept, not copied.  0, or -1. */
int tmpout_track(const char *path, const char *name, bool dir);
/* The umask, read as the temporary files' modes are made (it can only
   be read by setting it: under the same lock, so no file is made with
   it changed). */
mode_t tmpout_umask(void);
/* mkdtemp(tmpl) with the umask's mode, tracked as tmpout_track(tmpl,
   name, true) in the same step: a signal to any thread finds it listed
   or not made.  0, or -1 (errno). */
int tmpout_mkdtemp(char *tmpl, const char *name);
/* tmpout_track from inside a tmpout_untrack_by function (tmpout's lock
   held): what that step makes obsolete is removed by a signal from the
   same instant.  0, or -1. */
int tmpout_track_held(const char *path, const char *name, bool dir);
void tmpout_untrack(const char *path);
/* fn(arg) then, if it returned 0, path untracked, both before a signal's
   removal or neither (after one, this never returns: the run ends):
   a directory put in use by fn is never removed.  fn's value (errno). */
int tmpout_untrack_by(const char *path, int (*fn)(void *), void *arg);
/* A signal came: the run is ending (nothing more to switch into place). */
bool tmpout_stopped(void);
/* The end of the run: the handlers as they were, the thread gone (once
   every temporary file is committed or dropped). */
void tmpout_end(void);
#endif
