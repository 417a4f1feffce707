/*
 * tmpout.c - temporary names for named outputs, removed on a signal
 * (tmpout.h).
 */
#define _GNU_SOURCE		/* mkostemp(), O_CLOEXEC */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "tmpout.h"

struct tmp {
	char *path;
	const char *name;
	bool dir;		/* a directory (tmpout_track): its files and
				   it removed after the files */
	bool inplace;		/* a device or a FIFO written in place:
				   nothing to remove or rename */
	char *real;		/* a symbolic link's file: renamed over it
				   (or NULL: the name given) */
	struct tmp *next;
};

static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
static const char *const signames[] = { "SIGINT", "SIGTERM", "SIGHUP",
    "SIGPIPE" };

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct tmp *tmps;		/* under mu, oldest first */
static struct tmp **tail = &tmps;	/* its last next (under mu) */
static bool stopped;			/* a signal came (under mu) */
static bool armed;			/* the handlers are set (under mu) */
static int pipefd[2] = { -1, -1 };
static pthread_t reaper_th;
static bool reaping;			/* reaper_th runs (under mu) */
static struct sigaction olds[4];	/* the dispositions before */
static struct {				/* tmpout_commit_kept(), under mu */
	long n;
	char *first, *last;
} kept;
static bool handled[4];

/* "TOOL: NAME: not written (WHY)" straight to stderr's descriptor (its
   FILE may be locked by a thread a signal stopped). */
static void
say(const char *name, const char *why)
{
	char msg[PATH_MAX + 128];
	int n = snprintf(msg, sizeof msg, "%s: %s: not written (%s)\n",
	    cli_prog, name, why);

	if (n > 0 && write(STDERR_FILENO, msg, (size_t)n < sizeof msg ?
	    (size_t)n : sizeof msg - 1) < 0)
		return;		/* nowhere left to say it */
}

/* The files of tmpout_commit_kept(), which a signal leaves: "TOOL:
   FIRST to LAST: kept (N complete files)". */
static void
say_kept(void)
{
	char msg[2 * PATH_MAX + 128];
	int n;

	if (kept.n == 0 || kept.first == NULL || kept.last == NULL)
		return;
	if (kept.n == 1)
		n = snprintf(msg, sizeof msg, "%s: %s: kept (complete)\n",
		    cli_prog, kept.first);
	else
		n = snprintf(msg, sizeof msg, "%s: %s to %s: kept (%ld "
		    "complete files)\n", cli_prog, kept.first, kept.last,
		    kept.n);
	if (n > 0 && write(STDERR_FILENO, msg, (size_t)n < sizeof msg ?
	    (size_t)n : sizeof msg - 1) < 0)
		return;		/* nowhere left to say it */
}

void
tmpout_say_kept(void)
{
	pthread_mutex_lock(&mu);
	say_kept();
	pthread_mutex_unlock(&mu);
}

/*
 * After SIGPIPE: 1 if standard output is a pipe (or socket) whose reader
 * is gone, else 2 if standard error is one, else 0 (another output, or a
 * SIGPIPE sent by kill).  A write end whose read end is closed polls as
 * POLLERR (a socket's as POLLHUP).  Async-signal-safe.
 */
static int
lost_reader(void)
{
	struct pollfd p[2] = { { STDOUT_FILENO, POLLOUT, 0 },
	    { STDERR_FILENO, POLLOUT, 0 } };

	if (poll(p, 2, 0) < 0)
		return 0;
	if (p[0].revents & (POLLERR | POLLHUP))
		return 1;
	return p[1].revents & (POLLERR | POLLHUP) ? 2 : 0;
}

/* SIGPIPE's handler before (and between) temporary files: standard
   error lost alone ends the run as a write error does (exit 2); else the
   signal ends it (SA_RESETHAND | SA_NODEFER: raised again, it kills). */
static void
on_pipe(int sig)
{
	if (lost_reader() == 2)
		_exit(EXIT_USAGE);
	raise(sig);
}

void
tmpout_watch(void)
{
	struct sigaction sa, old;

	if (sigaction(SIGPIPE, NULL, &old) != 0 || old.sa_handler != SIG_DFL)
		return;		/* ignored by the caller, or ours already */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_pipe;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	sigaction(SIGPIPE, &sa, NULL);
}

/* The signal handler: async-signal-safe, it only passes the signal on.
   SIGPIPE's thread would write on: it waits for the end here. */
static void
on_signal(int sig)
{
	unsigned char b = (unsigned char)sig;
	int e = errno;

	if (write(pipefd[1], &b, 1) < 0)
		_exit(128 + sig);
	errno = e;
	if (sig == SIGPIPE)
		for (;;)
			pause();
}

/* A tracked directory, its files and it (the reaper's: not in a signal
   handler). */
static void
remove_dir(const char *path)
{
	char sub[PATH_MAX];
	struct dirent *e;
	DIR *d;

	if ((d = opendir(path)) != NULL) {
		while ((e = readdir(d)) != NULL)
			if (strcmp(e->d_name, ".") != 0 &&
			    strcmp(e->d_name, "..") != 0 &&
			    snprintf(sub, sizeof sub, "%s/%s", path, e->d_name) <
			    (int)sizeof sub)
				unlink(sub);
		closedir(d);
	}
	rmdir(path);
}

/* The thread that removes the temporary files on a signal. */
static void *
reaper(void *arg)
{
	unsigned char b;
	struct tmp *t;
	const char *sname = "a signal";
	char why[64];
	sigset_t set;
	size_t i;
	ssize_t n;

	(void)arg;
	while ((n = read(pipefd[0], &b, 1)) < 0 && errno == EINTR)
		;
	if (n != 1)
		return NULL;	/* tmpout_end() */
	if (b == SIGPIPE && lost_reader() == 2) {
		/* standard error alone lost: a write error, said nowhere */
		pthread_mutex_lock(&mu);
		stopped = true;
		for (t = tmps; t != NULL; t = t->next)
			if (!t->dir && !t->inplace)
				unlink(t->path);
		for (t = tmps; t != NULL; t = t->next)
			if (t->dir)
				remove_dir(t->path);
		_exit(EXIT_USAGE);
	}
	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		if (sigs[i] == b)
			sname = signames[i];
	snprintf(why, sizeof why, "interrupted by %s", sname);
	pthread_mutex_lock(&mu);
	stopped = true;
	for (t = tmps; t != NULL; t = t->next)
		if (!t->dir && !t->inplace) {
			unlink(t->path);
			say(t->name, why);
		}
	for (t = tmps; t != NULL; t = t->next)
		if (t->dir)
			remove_dir(t->path);
	say_kept();
	/* End as the signal would have ended the process. */
	signal(b, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, b);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	kill(getpid(), b);
	for (;;)
		pause();
	return NULL;
}

/* Set the handlers, once, with the first temporary file (under mu). */
static void
arm(void)
{
	struct sigaction sa;
	sigset_t all, before;
	size_t i;
	int rc;

	armed = true;
	if (pipe2(pipefd, O_CLOEXEC) != 0)
		return;
	/* The reaper runs with every signal blocked: its messages to a
	   closed pipe on stderr then fail with EPIPE rather than stop it
	   in on_signal() (the run would hang with the signals caught and
	   nobody to read them). */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &before);
	rc = pthread_create(&reaper_th, NULL, reaper, NULL);
	pthread_sigmask(SIG_SETMASK, &before, NULL);
	if (rc != 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return;
	}
	reaping = true;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	sa.sa_flags = SA_RESTART;
	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		handled[i] = sigaction(sigs[i], NULL, &olds[i]) == 0 &&
		    olds[i].sa_handler != SIG_IGN &&
		    sigaction(sigs[i], &sa, NULL) == 0;
}

void
tmpout_end(void)
{
	bool join;
	size_t i;

	pthread_mutex_lock(&mu);
	if ((join = reaping)) {
		for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
			if (handled[i])
				sigaction(sigs[i], &olds[i], NULL);
		close(pipefd[1]);	/* the reaper reads its end */
	}
	reaping = armed = false;
	if (kept.last != kept.first)
		free(kept.last);
	free(kept.first);
	kept.first = kept.last = NULL;
	kept.n = 0;
	pthread_mutex_unlock(&mu);
	if (join) {
		pthread_join(reaper_th, NULL);
		close(pipefd[0]);
	}
}

/* The umask, which can only be read by setting it (no thread here
   creates files but under mu). */
static mode_t
cur_umask(void)
{
	mode_t m = umask(022);

	umask(m);
	return m;
}

/* A new entry for path (a copy) and name, not listed: NULL with errno
   ENOMEM if there is no memory. */
static struct tmp *
newtmp(const char *path, const char *name, bool dir)
{
	struct tmp *t = malloc(sizeof *t);

	if (t == NULL || (t->path = strdup(path)) == NULL) {
		free(t);
		errno = ENOMEM;
		return NULL;
	}
	t->name = name;
	t->dir = dir;
	t->inplace = false;
	t->real = NULL;
	t->next = NULL;
	return t;
}

int
tmpout_track_held(const char *path, const char *name, bool dir)
{
	struct tmp *t = newtmp(path, name, dir);

	if (t == NULL)
		return -1;
	if (!armed)
		arm();
	*tail = t;
	tail = &t->next;
	return 0;
}

int
tmpout_mkdtemp(char *tmpl, const char *name)
{
	struct tmp *t = malloc(sizeof *t);
	bool made = false;
	int e = 0;

	if (t == NULL) {
		errno = ENOMEM;
		return -1;
	}
	/* made and listed under mu: the reaper, which takes mu before it
	   removes, sees no directory or a listed one, whichever thread
	   the signal came to */
	pthread_mutex_lock(&mu);
	if (!armed)
		arm();
	if (mkdtemp(tmpl) == NULL)
		e = errno;
	else if ((made = true, chmod(tmpl, 0777 & ~cur_umask())) != 0)
		e = errno;
	else if ((t->path = strdup(tmpl)) == NULL)
		e = ENOMEM;
	if (e != 0) {
		if (made)
			rmdir(tmpl);
		pthread_mutex_unlock(&mu);
		free(t);
		errno = e;
		return -1;
	}
	t->name = name;
	t->dir = true;
	t->inplace = false;
	t->real = NULL;
	t->next = NULL;
	*tail = t;
	tail = &t->next;
	pthread_mutex_unlock(&mu);
	return 0;
}

mode_t
tmpout_umask(void)
{
	mode_t m;

	pthread_mutex_lock(&mu);
	m = cur_umask();
	pthread_mutex_unlock(&mu);
	return m;
}

/* Take tmp off the list (under mu); its node freed, the path not. */
static void
forget(const char *tmp)
{
	struct tmp **pp, *t;

	for (pp = &tmps; (t = *pp) != NULL; pp = &t->next)
		if (t->path == tmp || strcmp(t->path, tmp) == 0) {
			if ((*pp = t->next) == NULL)
				tail = pp;
			free(t->real);
			free(t);
			return;
		}
}

/* The temporary file beside 'at' (final's file), registered. */
static int
create_beside(const char *at, int mode, const char *name, char **tmp,
    char *real)
{
	const char *slash = strrchr(at, '/');
	size_t dlen = slash != NULL ? (size_t)(slash - at + 1) : 0;
	struct tmp *t;
	char *p;
	int fd, e;

	if ((t = malloc(sizeof *t)) == NULL ||
	    (p = malloc(strlen(at) + 16)) == NULL) {
		free(t);
		free(real);
		errno = ENOMEM;
		return -1;
	}
	sprintf(p, "%.*s.%s.XXXXXX", (int)dlen, at, at + dlen);
	pthread_mutex_lock(&mu);
	if (!armed)
		arm();
	if ((fd = mkostemp(p, O_CLOEXEC)) < 0 ||
	    fchmod(fd, mode >= 0 ? (mode_t)mode : 0666 & ~cur_umask()) != 0) {
		e = errno;
		if (fd >= 0) {
			close(fd);
			unlink(p);
		}
		pthread_mutex_unlock(&mu);
		free(p);
		free(t);
		free(real);
		errno = e;
		return -1;
	}
	t->path = p;
	t->name = name;
	t->dir = t->inplace = false;
	t->real = real;
	t->next = NULL;		/* last: they are committed in order */
	*tail = t;
	tail = &t->next;
	pthread_mutex_unlock(&mu);
	*tmp = p;
	return fd;
}

/* The name of a file kept, for say_kept() (under mu): the first and
   the last (one string while they are one). */
static void
keep(const char *name)
{
	char *d = strdup(name);

	kept.n++;
	if (d == NULL)
		return;		/* the count stays right, the name old */
	if (kept.first == NULL) {
		kept.first = kept.last = d;
		return;
	}
	if (kept.last != kept.first)
		free(kept.last);
	kept.last = d;
}

static int commit(const char *tmp, const char *final, const char *name);

/* t (its path, name and kind set) on the list of what the run removes
   if it ends before its commit, the signal handlers armed first. */
static void
enlist(struct tmp *t)
{
	t->real = NULL;
	t->next = NULL;
	pthread_mutex_lock(&mu);
	if (!armed)
		arm();
	*tail = t;
	tail = &t->next;
	pthread_mutex_unlock(&mu);
}

/* A device or a FIFO opened to be written in place (a FIFO waits for its
   reader), registered so that commit and drop know it. */
static int
open_in_place(const char *final, const char *name, char **tmp)
{
	struct tmp *t = malloc(sizeof *t);
	char *p = strdup(final);
	int fd = -1, e;

	if (t == NULL || p == NULL ||
	    (fd = open(final, O_WRONLY | O_CLOEXEC)) < 0) {
		e = t == NULL || p == NULL ? ENOMEM : errno;
		free(t);
		free(p);
		errno = e;
		return -1;
	}
	t->path = p;
	t->name = name;
	t->dir = false;
	t->inplace = true;
	enlist(t);
	*tmp = p;
	return fd;
}

/* The file the symbolic link 'path' names (a chain followed; one not
   made yet: the last link's target, from its directory), or NULL. */
static char *
link_file(const char *path)
{
	char buf[PATH_MAX], *cur, *t;
	const char *slash;
	ssize_t n;
	int depth;

	if ((t = realpath(path, NULL)) != NULL || errno != ENOENT)
		return t;
	if ((cur = strdup(path)) == NULL)
		return NULL;
	for (depth = 0; depth < 40; depth++) {
		if ((n = readlink(cur, buf, sizeof buf - 1)) < 0)
			return cur;	/* the name a dangling chain ends in */
		buf[n] = '\0';
		slash = strrchr(cur, '/');
		if (buf[0] == '/' || slash == NULL)
			t = strdup(buf);
		else if ((t = malloc((size_t)(slash - cur) + (size_t)n + 2)) !=
		    NULL)
			sprintf(t, "%.*s/%s", (int)(slash - cur), cur, buf);
		free(cur);
		if ((cur = t) == NULL)
			return NULL;
	}
	free(cur);
	errno = ELOOP;
	return NULL;
}

int
tmpout_create(const char *final, int mode, const char *name, char **tmp)
{
	struct stat st;
	char *real = NULL;

	/* zhkit(7)'s rules for a named output: a device or a FIFO is
	   written in place; a symbolic link stays, its file replaced */
	if (stat(final, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			return -1;
		}
		return open_in_place(final, name, tmp);
	}
	if (lstat(final, &st) == 0 && S_ISLNK(st.st_mode) &&
	    (real = link_file(final)) == NULL)
		return -1;
	return create_beside(real != NULL ? real : final, mode, name, tmp,
	    real);
}

int
tmpout_commit(const char *tmp, const char *final)
{
	return commit(tmp, final, NULL);
}

int
tmpout_commit_kept(const char *tmp, const char *final, const char *name)
{
	return commit(tmp, final, name);
}

static int
commit(const char *tmp, const char *final, const char *name)
{
	struct stat st;
	struct tmp *t;
	int rc, e = 0;

	pthread_mutex_lock(&mu);
	if (stopped) {		/* the reaper removes it and ends the run */
		pthread_mutex_unlock(&mu);
		for (;;)
			pause();
	}
	for (t = tmps; t != NULL; t = t->next)
		if (strcmp(t->path, tmp) == 0)
			break;
	if (t != NULL && t->inplace) {	/* written where it is */
		forget(tmp);
		pthread_mutex_unlock(&mu);
		return 0;
	}
	if (t != NULL && t->real != NULL)	/* a link's file */
		final = t->real;
	/* Only a regular file is replaced: a device or a pipe that took
	   its place meanwhile is not. */
	if ((rc = lstat(final, &st)) == 0 && !S_ISREG(st.st_mode)) {
		e = EEXIST;
		unlink(tmp);
		rc = -1;
	} else if ((rc = rename(tmp, final)) != 0) {
		e = errno;
		unlink(tmp);
	} else if (name != NULL)
		keep(name);
	forget(tmp);
	pthread_mutex_unlock(&mu);
	errno = e;
	return rc;
}

/* Is tmp written in place (under mu)? */
static bool
t_inplace(const char *tmp)
{
	struct tmp *t;

	for (t = tmps; t != NULL; t = t->next)
		if (strcmp(t->path, tmp) == 0)
			return t->inplace;
	return false;
}

void
tmpout_drop(const char *tmp, const char *why)
{
	struct tmp *t;
	const char *name = NULL;

	pthread_mutex_lock(&mu);
	for (t = tmps; t != NULL && name == NULL; t = t->next)
		if (strcmp(t->path, tmp) == 0)
			name = t->name;
	if (name != NULL && !stopped) {
		if (!t_inplace(tmp))
			unlink(tmp);
		forget(tmp);
	} else
		name = NULL;
	pthread_mutex_unlock(&mu);
	/* said after: a SIGPIPE on stderr stops this thread, never with
	   mu held (the reaper takes it) */
	if (name != NULL && why != NULL)
		say(name, why);
}

int
tmpout_track(const char *path, const char *name, bool dir)
{
	struct tmp *t = newtmp(path, name, dir);

	if (t == NULL)
		return -1;
	enlist(t);
	return 0;
}

static void untrack(const char *path);

int
tmpout_untrack_by(const char *path, int (*fn)(void *), void *arg)
{
	int rc, e;

	pthread_mutex_lock(&mu);
	if (stopped) {		/* the reaper removes it and ends the run */
		pthread_mutex_unlock(&mu);
		for (;;)
			pause();
	}
	rc = fn(arg);
	e = errno;
	if (rc == 0)
		untrack(path);
	pthread_mutex_unlock(&mu);
	errno = e;
	return rc;
}

void
tmpout_untrack(const char *path)
{
	pthread_mutex_lock(&mu);
	untrack(path);
	pthread_mutex_unlock(&mu);
}

/* (under mu) */
static void
untrack(const char *path)
{
	struct tmp **pp, *t;

	for (pp = &tmps; (t = *pp) != NULL; pp = &t->next)
		if (strcmp(t->path, path) == 0) {
			if ((*pp = t->next) == NULL)
				tail = pp;
			free(t->path);
			free(t);
			break;
		}
}

bool
tmpout_stopped(void)
{
	bool s;

	pthread_mutex_lock(&mu);
	s = stopped;
	pthread_mutex_unlock(&mu);
	return s;
}
