/*
 * tableset.c - a set of tables replaced as one (tableset.h).
 */
#define _GNU_SOURCE		/* mkdtemp(), linkat()'s AT_SYMLINK_FOLLOW */
#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "tableset.h"
#include "tmpout.h"

#define MAXT	8

struct tset {
	char *dir;			/* DIR */
	char *link;			/* DIR/.zhkit-KIND */
	char *prefix;			/* ".zhkit-KIND." */
	char *gen;			/* DIR/.zhkit-KIND.PID.XXXXXX (new) */
	char *prev;			/* DIR/the set it replaces, or NULL */
	const char *names[MAXT];
	int n;
};

/* a malloc'd "A/B" (B's length at most nb) */
static char *
join(const char *a, const char *b)
{
	size_t k = strlen(a) + strlen(b) + 2;
	char *p = malloc(k);

	if (p != NULL)
		snprintf(p, k, "%s/%s", a, b);
	return p;
}

/* What a file of mode m is, for a message. */
static const char *
what(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" :
	    S_ISSOCK(m) ? "a socket" : S_ISLNK(m) ? "a symbolic link" :
	    "a device";
}

/* Is DIR/name a link of ours ("PREFIX-less .zhkit-KIND/name")? */
static bool
our_link(const struct tset *s, const char *path, const char *name)
{
	char buf[256], want[256];
	ssize_t k = readlink(path, buf, sizeof buf - 1);

	if (k < 0)
		return false;
	buf[k] = '\0';
	snprintf(want, sizeof want, "%.*s/%s", (int)strlen(s->prefix) - 1,
	    s->prefix, name);
	return strcmp(buf, want) == 0;
}

/* Refuse a name a table cannot replace (said); 0 if every one can. */
static int
check(const struct tset *s)
{
	struct stat st;
	char *p;
	int i, rc = 0;

	for (i = 0; i <= s->n && rc == 0; i++) {
		const char *name = i < s->n ? s->names[i] : NULL;

		if ((p = name != NULL ? join(s->dir, name) : strdup(s->link)) ==
		    NULL) {
			cli_fail("out of memory");
			return -1;
		}
		if (lstat(p, &st) != 0) {
			if (errno != ENOENT) {
				cli_fail("%s: cannot write: %s", p,
				    strerror(errno));
				rc = -1;
			}
		} else if (name != NULL ? !S_ISREG(st.st_mode) &&
		    !(S_ISLNK(st.st_mode) && our_link(s, p, name)) :
		    !S_ISLNK(st.st_mode)) {
			cli_fail("%s: cannot write: %s is in its place (a table "
			    "replaces only a file or its own link; move it "
			    "away or give another -o)", p, what(st.st_mode));
			rc = -1;
		}
		free(p);
	}
	return rc;
}

/* DIR/entry (a set's directory, or a link being made) removed. */
static void
remove_entry(const char *dir, const char *entry)
{
	char *p = join(dir, entry), *q;
	struct dirent *e;
	struct stat st;
	DIR *d;

	if (p == NULL || lstat(p, &st) != 0 || !S_ISDIR(st.st_mode)) {
		if (p != NULL)
			unlink(p);
		free(p);
		return;
	}
	if ((d = opendir(p)) != NULL) {
		while ((e = readdir(d)) != NULL)
			if (strcmp(e->d_name, ".") != 0 &&
			    strcmp(e->d_name, "..") != 0 &&
			    (q = join(p, e->d_name)) != NULL) {
				unlink(q);	/* tables: files only */
				free(q);
			}
		closedir(d);
	}
	rmdir(p);
	free(p);
}

/* The entry the link names now ("" if none). */
static void
current(const struct tset *s, char *buf, size_t size)
{
	ssize_t k = readlink(s->link, buf, size - 1);

	buf[k > 0 ? k : 0] = '\0';
}

/* Directories and links ".zhkit-KIND.PID.*" of runs whose PID is no
   longer a process (SIGKILL), but the one in use, removed. */
static void
clear_dead(const struct tset *s)
{
	size_t plen = strlen(s->prefix);
	char cur[256], *end;
	struct dirent *e;
	long pid;
	DIR *d;

	current(s, cur, sizeof cur);
	if ((d = opendir(s->dir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, s->prefix, plen) != 0 ||
		    strcmp(e->d_name, cur) == 0)
			continue;
		pid = strtol(e->d_name + plen, &end, 10);
		if (end == e->d_name + plen || *end != '.' || pid <= 0 ||
		    pid == (long)getpid())
			continue;
		if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
			remove_entry(s->dir, e->d_name);
	}
	closedir(d);
}

static void
tset_free(struct tset *s)
{
	free(s->dir);
	free(s->link);
	free(s->prev);
	free(s->prefix);
	free(s->gen);
	free(s);
}

/* The new set's directory made, and removed by a signal from then on
   (tmpout_mkdtemp: made and listed in one step under tmpout's lock, so
   a signal to any thread finds it listed or not made).  0, or -1 after
   a message. */
static int
make_gen(struct tset *s)
{
	if (tmpout_mkdtemp(s->gen, s->dir) != 0) {
		cli_fail("%s: cannot write: %s", s->dir, strerror(errno));
		return -1;
	}
	return 0;
}

struct tset *
tset_open(const char *dir, const char *kind, const char *const *names, int n)
{
	struct tset *s = calloc(1, sizeof *s);
	char base[64];
	int i;

	snprintf(base, sizeof base, ".zhkit-%s", kind);
	if (s == NULL || n > MAXT || (s->dir = strdup(dir)) == NULL ||
	    (s->link = join(dir, base)) == NULL ||
	    (s->prefix = malloc(strlen(base) + 2)) == NULL) {
		cli_fail("out of memory");
		goto fail;
	}
	sprintf(s->prefix, "%s.", base);
	for (i = 0; i < n; i++)
		s->names[i] = names[i];
	s->n = n;
	if (check(s) != 0)
		goto fail;
	clear_dead(s);
	snprintf(base, sizeof base, "%s%ld.XXXXXX", s->prefix, (long)getpid());
	if ((s->gen = join(dir, base)) == NULL) {
		cli_fail("out of memory");
		goto fail;
	}
	if (make_gen(s) != 0)
		goto fail;
	return s;
fail:
	if (s != NULL)
		tset_free(s);
	return NULL;
}

const char *
tset_dir(const struct tset *s)
{
	return s->gen;
}

/* path replaced by a symbolic link to 'to' in one rename (the new link
   made under DIR/PREFIX.PID.link first, removed by a signal if 'track'
   (not under tmpout's lock)). 0, or -1 with errno. */
static int
point(const struct tset *s, const char *path, const char *to, bool track)
{
	char base[64], *tmp;
	int rc = -1, e;

	snprintf(base, sizeof base, "%s%ld.link", s->prefix, (long)getpid());
	if ((tmp = join(s->dir, base)) == NULL) {
		errno = ENOMEM;
		return -1;
	}
	unlink(tmp);
	if (!track || tmpout_track(tmp, s->dir, false) == 0) {
		if (symlink(to, tmp) == 0 && rename(tmp, path) == 0)
			rc = 0;
		e = errno;
		if (rc != 0)
			unlink(tmp);
		if (track)
			tmpout_untrack(tmp);
		errno = e;
	}
	free(tmp);
	return rc;
}

/* Tables of an older layout (regular files in DIR) made a set of their
   own, hard links in a new directory, and their names made links into
   it: what a reader sees does not change.  0, or -1 with errno. */
static int
migrate(struct tset *s)
{
	char base[64], *old, *p, *q, to[256];
	struct stat st;
	bool any = false;
	int i, rc = 0;

	for (i = 0; i < s->n; i++)
		if ((p = join(s->dir, s->names[i])) != NULL) {
			any |= lstat(p, &st) == 0 && S_ISREG(st.st_mode);
			free(p);
		}
	if (!any)
		return 0;
	snprintf(base, sizeof base, "%s%ld.XXXXXX", s->prefix, (long)getpid());
	if ((old = join(s->dir, base)) == NULL || mkdtemp(old) == NULL ||
	    chmod(old, 0777 & ~tmpout_umask()) != 0) {
		free(old);
		return -1;
	}
	for (i = 0; i < s->n && rc == 0; i++) {
		if ((p = join(s->dir, s->names[i])) == NULL ||
		    (q = join(old, s->names[i])) == NULL) {
			free(p);
			errno = ENOMEM;
			return -1;
		}
		/* the file a name shows now, a table or our link's */
		if (linkat(AT_FDCWD, p, AT_FDCWD, q, AT_SYMLINK_FOLLOW) != 0 &&
		    errno != ENOENT)
			rc = -1;
		free(p);
		free(q);
	}
	if (rc == 0)
		rc = point(s, s->link, strrchr(old, '/') + 1, true);
	for (i = 0; i < s->n && rc == 0; i++)
		if ((p = join(s->dir, s->names[i])) != NULL) {
			snprintf(to, sizeof to, "%.*s/%s",
			    (int)strlen(s->prefix) - 1, s->prefix, s->names[i]);
			if (lstat(p, &st) == 0 && S_ISREG(st.st_mode))
				rc = point(s, p, to, true);
			free(p);
		}
	if (rc != 0)
		remove_entry(s->dir, strrchr(old, '/') + 1);
	free(old);
	return rc;
}

/* The link made to name the new set (tmpout_untrack_by). */
static int
switch_to_gen(void *arg)
{
	struct tset *s = arg;
	int rc = point(s, s->link, strrchr(s->gen, '/') + 1, false);

	/* the old set, from the switch on, removed by a signal as by us */
	if (rc == 0 && s->prev != NULL &&
	    tmpout_track_held(s->prev, s->dir, true) != 0) {
		free(s->prev);
		s->prev = NULL;
	}
	return rc;
}

int
tset_commit(struct tset *s)
{
	char prev[256], to[256], *p;
	struct stat st;
	int i, rc = 0;

	if (tmpout_stopped())
		for (;;)
			pause();	/* the reaper ends the run */
	if (migrate(s) != 0)
		rc = -1;
	/* names new to DIR: a link (into the old set, which lacks them
	   too, until the switch) */
	for (i = 0; i < s->n && rc == 0; i++)
		if ((p = join(s->dir, s->names[i])) != NULL) {
			snprintf(to, sizeof to, "%.*s/%s",
			    (int)strlen(s->prefix) - 1, s->prefix, s->names[i]);
			if (lstat(p, &st) != 0 && errno == ENOENT)
				rc = point(s, p, to, true);
			free(p);
		}
	current(s, prev, sizeof prev);
	if (strncmp(prev, s->prefix, strlen(s->prefix)) == 0 &&
	    strchr(prev, '/') == NULL)
		s->prev = join(s->dir, prev);
	/* the switch: before a signal's removal of the new set, or never */
	if (rc == 0)
		rc = tmpout_untrack_by(s->gen, switch_to_gen, s);
	tmpout_untrack(s->gen);
	if (rc != 0) {
		i = errno;
		remove_entry(s->dir, strrchr(s->gen, '/') + 1);
		errno = i;
	} else if (strncmp(prev, s->prefix, strlen(s->prefix)) == 0 &&
	    strchr(prev, '/') == NULL) {
		remove_entry(s->dir, prev);	/* open files stay readable */
		if (s->prev != NULL)
			tmpout_untrack(s->prev);
	}
	tset_free(s);
	return rc;
}

void
tset_abort(struct tset *s)
{
	tmpout_untrack(s->gen);
	remove_entry(s->dir, strrchr(s->gen, '/') + 1);
	tset_free(s);
}
