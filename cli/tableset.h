/*
 * tableset.h - a set of tables in DIR (zhreplay -F npy/parquet: positions,
 * bughouse, games, files) replaced as one: a reader sees the old set or
 * the new one, never a mix, whenever the run stops.
 *
 * Each table's name in DIR is a symbolic link into DIR/.zhkit-KIND
 * (positions.npy -> .zhkit-npy/positions.npy), and DIR/.zhkit-KIND is a
 * symbolic link to the set's directory, DIR/.zhkit-KIND.PID.XXXXXX.  A run
 * writes its tables into a new such directory and switches with one
 * rename(2) of the link over DIR/.zhkit-KIND; the old directory is then
 * removed.  Tables of an older zhkit (regular files) are first hard-linked
 * into a set of their own, so the change of layout is a switch too.  A
 * name taken by a directory, a FIFO, a device, a socket or a symbolic link
 * of anyone else is refused before anything is written.  Directories left
 * by a run that died (SIGKILL: its PID is no longer a process) are removed
 * by the next run in that DIR.
 */
#ifndef TABLESET_H
#define TABLESET_H

struct tset;

/* The set of the 'n' tables 'names' of kind 'kind' ("npy", "parquet") in
   dir (which exists): checked, dead runs' directories cleared, the new
   set's directory made.  NULL after a message. */
struct tset *tset_open(const char *dir, const char *kind,
    const char *const *names, int n);
/* The directory the new tables are written in. */
const char *tset_dir(const struct tset *s);
/* The new set put in place (every table in tset_dir() whole); freed.
   0, or -1 with errno (the old set then stays). */
int tset_commit(struct tset *s);
/* The new set's directory removed (its tables already removed); freed. */
void tset_abort(struct tset *s);
#endif
