/*
 * jobs.c - N workers, results written in input order by the main thread.
 * The main thread cuts the input into chunks of bytes between games;
 * each worker reads the games of a chunk itself and works on them into
 * memory streams, and the main thread writes each chunk out as soon as
 * it and those before it are finished (run_chunked).  Where a chunk's
 * games cannot be read on their own, one reader on the main thread takes
 * over, and games are copied out of it into batches (run_parallel).
 * Memory: at most 'slots' chunks or batches in flight.
 */
#define _GNU_SOURCE		/* fopencookie(): glibc, musl, the BSDs' funopen */
#include <sys/stat.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "jobs.h"

int
jobs_cores(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

/* ======================== progress ======================== */

struct progress {
	bool on;
	FILE *in;
	double start, last, total;	/* seconds; total bytes if known */
	long games;
};

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
progress_init(struct progress *pr, const struct jobs *j, FILE *in)
{
	struct stat st;

	memset(pr, 0, sizeof *pr);
	pr->on = j->progress && isatty(STDERR_FILENO);
	pr->in = in;
	pr->start = now();
	pr->last = pr->start - 1;	/* the first line at game 256 */
	if (fstat(fileno(in), &st) == 0 && S_ISREG(st.st_mode))
		pr->total = (double)st.st_size;
}

static void
progress_tick(struct progress *pr, bool final)
{
	double t, mb, rate;
	off_t pos;

	pr->games++;
	if (!pr->on || ((pr->games & 255) != 0 && !final))
		return;
	t = now();
	if (!final && t - pr->last < 0.25)
		return;
	pr->last = t;
	pos = ftello(pr->in);
	mb = pos > 0 ? (double)pos / 1e6 : 0;
	rate = t > pr->start ? pr->games / (t - pr->start) : 0;
	flockfile(stderr);
	fprintf(stderr, "\r%s: %ld games, %.1f MB, %.0f games/s", cli_prog,
	    pr->games, mb, rate);
	if (pr->total > 0 && pos > 0 && t > pr->start)
		fprintf(stderr, ", ETA %.0f s   ",
		    (pr->total - (double)pos) / ((double)pos / (t - pr->start)));
	if (final)
		fputc('\n', stderr);
	cli_progress_shown(!final);
	funlockfile(stderr);
}

/* After each game: an output that failed stops the run (said once). */
static void
check_outputs(struct jobs *j)
{
	if (cli_outputs_failed())
		j->stop = 1;
}

/* ======================== text between games ======================== */

/* "text between games ... skipped", if any was. */
static void
tell_skip(const struct jobs *j, FILE *err, const struct zh_skip *s)
{
	if (s->bytes == 0 && s->lines == 0)
		return;
	cli_fdiag(err, "warning", j->name, s->line, s->col,
	    "text between games: \"%s\"%s skipped (%ld line%s, %zu byte%s)",
	    s->text, strlen(s->text) + 1 < sizeof s->text ? "" : "...",
	    s->lines, s->lines == 1 ? "" : "s", s->bytes,
	    s->bytes == 1 ? "" : "s");
}

/* A game's work, after the text skipped before it. */
static inline int
work_game(struct jobs *j, const struct zh_game *g, FILE *out, FILE *err,
    void *st)
{
	if (g->skipped.lines > 0)
		tell_skip(j, err, &g->skipped);
	return j->work(g, out, err, j->ctx, st);
}

/* zh_pgn_next() failed: keep why. */
static void
read_failed(struct jobs *j, const struct zh_game *g)
{
	if (j->rerr.code == ZH_OK)
		j->rerr = g->err;
}

/* ======================== serial ======================== */

static int
run_serial(struct jobs *j, struct zh_pgn_reader *r, struct progress *pr)
{
	struct zh_game g;
	void *st = j->make_state ? j->make_state(j->ctx) : NULL;
	int rc = 0, res;
	long n = 0;

	while (!j->stop && (rc = zh_pgn_next(r, &g)) == 1) {
		res = work_game(j, &g, j->out, j->err, st);
		j->done(j->ctx, &g, res);
		check_outputs(j);
		progress_tick(pr, false);
		if (j->max_games && ++n >= j->max_games)
			break;
	}
	if (j->free_state)
		j->free_state(st);
	if (rc == 0)
		tell_skip(j, j->err, zh_pgn_tail(r));
	else if (rc < 0)
		read_failed(j, &g);
	return rc < 0 ? -1 : 0;
}

/*
 * Games travel in batches (up to BATCH games or BATCH_BYTES of PGN) so
 * that a thread hand-over costs little next to the work; each game's
 * output is cut out of its batch's buffers again when written.
 */
enum { EMPTY, FILLING, READY, BUSY, DONE };
#define BATCH 64
#define BATCH_BYTES (512 * 1024)

/*
 * A batch's output: a buffer that a slot keeps from batch to batch, so
 * that after the first few batches no memory is allocated or touched
 * for the first time (freeing and mapping anew cost page faults).
 */
struct obuf {
	char *p;
	size_t len, cap;
	bool failed;
};
#define OBUF_KEEP (4u << 20)	/* a larger buffer is freed after use */

/*
 * Each slot copies its games into an arena it keeps from batch to batch:
 * no malloc and free per game across threads, and no memory given back
 * to the system and faulted in again.  A batch ends when its arena is
 * full; a game larger than an empty arena grows it, and an arena grown
 * past ARENA_KEEP is freed after its batch.
 */
#define ARENA_MIN (1u << 20)
#define ARENA_KEEP (8u << 20)
#define ALIGN(n) (((n) + 15) & ~(size_t)15)

struct slot {
	int state;
	int n;				/* games in the batch */
	size_t bytes;
	char *arena;
	size_t aused, acap;
	struct zh_game *g[BATCH];
	int result[BATCH];
	size_t oend[BATCH], eend[BATCH];	/* output offsets after game i */
	struct obuf out, err;
};

static ssize_t
obuf_write(void *cookie, const char *data, size_t n)
{
	struct obuf *b = cookie;

	if (b->cap - b->len < n) {
		size_t ncap = b->cap ? b->cap : 64 * 1024;
		char *np;

		while (ncap - b->len < n)
			ncap *= 2;
		if ((np = realloc(b->p, ncap)) == NULL) {
			b->failed = true;
			return -1;
		}
		b->p = np;
		b->cap = ncap;
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
	return (ssize_t)n;
}

static FILE *
obuf_open(struct obuf *b)
{
	static const cookie_io_functions_t io = { .write = obuf_write };

	b->len = 0;
	b->failed = false;
	return fopencookie(b, "w", io);
}

static void
obuf_reset(struct obuf *b)
{
	b->len = 0;
	if (b->cap > OBUF_KEEP) {
		free(b->p);
		b->p = NULL;
		b->cap = 0;
	}
}

/* The workers of a pool, with its lock and conditions. */
struct crew {
	pthread_mutex_t mu;
	pthread_cond_t work_cv, done_cv;
	bool closing;
	pthread_t *th;
	int n;
};

static void crew_stop(struct crew *c);

/*
 * Start n threads running fn(arg) (no slot ready yet); 0, or -1 with the
 * reason said and the threads that did start stopped again: the caller
 * then reads with one thread (run_serial), nothing read yet.
 */
static int
crew_start(struct crew *c, int n, void *(*fn)(void *), void *arg)
{
	int i, e;

	if ((c->th = calloc((size_t)n, sizeof *c->th)) == NULL) {
		cli_fail("-j: out of memory for %d threads; reading with one", n);
		return -1;
	}
	c->n = 0;
	c->closing = false;
	pthread_mutex_init(&c->mu, NULL);
	pthread_cond_init(&c->work_cv, NULL);
	pthread_cond_init(&c->done_cv, NULL);
	for (i = 0; i < n; i++) {
		if ((e = pthread_create(&c->th[i], NULL, fn, arg)) != 0) {
			cli_fail("-j: cannot start thread %d of %d (%s); "
			    "reading with one", i + 1, n, strerror(e));
			crew_stop(c);
			return -1;
		}
		c->n++;
	}
	return 0;
}

/* Tell the workers to end once no slot is ready, and wait for them. */
static void
crew_stop(struct crew *c)
{
	int i;

	pthread_mutex_lock(&c->mu);
	c->closing = true;
	pthread_cond_broadcast(&c->work_cv);
	pthread_mutex_unlock(&c->mu);
	for (i = 0; i < c->n; i++)
		pthread_join(c->th[i], NULL);
	pthread_mutex_destroy(&c->mu);
	pthread_cond_destroy(&c->work_cv);
	pthread_cond_destroy(&c->done_cv);
	free(c->th);
}

struct pool {
	struct jobs *j;
	struct progress *pr;
	struct crew c;
	struct slot *slots;
	size_t nslots;
	size_t next_work;	/* next slot index a worker takes */
	size_t next_fill;	/* next slot the reader fills */
	size_t next_flush;	/* next slot the reader writes out */
};

static void
work_batch(struct pool *p, struct slot *s, void *st)
{
	FILE *o = obuf_open(&s->out);
	FILE *e = obuf_open(&s->err);
	int i;

	for (i = 0; i < s->n; i++) {
		if (o == NULL || e == NULL) {
			s->result[i] = -1;
			s->oend[i] = s->eend[i] = 0;
			continue;
		}
		s->result[i] = work_game(p->j, s->g[i], o, e, st);
		fflush(o);
		fflush(e);
		s->oend[i] = s->out.len;
		s->eend[i] = s->err.len;
	}
	if (o)
		fclose(o);
	if (e)
		fclose(e);
	if (o == NULL || e == NULL || s->out.failed || s->err.failed) {
		cli_fail("out of memory");
		s->out.len = s->err.len = 0;	/* keep offsets within them */
		for (i = 0; i < s->n; i++) {
			s->result[i] = -1;
			s->oend[i] = s->eend[i] = 0;
		}
	}
}

static void *
worker(void *arg)
{
	struct pool *p = arg;
	void *st = p->j->make_state ? p->j->make_state(p->j->ctx) : NULL;

	pthread_mutex_lock(&p->c.mu);
	for (;;) {
		struct slot *s;

		while (!p->c.closing && p->slots[p->next_work % p->nslots].state != READY)
			pthread_cond_wait(&p->c.work_cv, &p->c.mu);
		s = &p->slots[p->next_work % p->nslots];
		if (s->state != READY)
			break;		/* closing and nothing left */
		s->state = BUSY;
		p->next_work++;
		pthread_mutex_unlock(&p->c.mu);
		work_batch(p, s, st);
		pthread_mutex_lock(&p->c.mu);
		s->state = DONE;
		/* The reader only ever waits for the oldest slot. */
		if (s == &p->slots[p->next_flush % p->nslots])
			pthread_cond_signal(&p->c.done_cv);
	}
	pthread_mutex_unlock(&p->c.mu);
	if (p->j->free_state)
		p->j->free_state(st);
	return NULL;
}

/*
 * Write out slot s (finished), game by game; called without the lock.
 * Standard output is written in runs: a game's messages, if it has any,
 * go out between the output of the games before and after it, as with
 * one thread.
 */
static void
flush_slot(struct pool *p, struct slot *s)
{
	size_t o = 0, e = 0, orun = 0;
	int i;

	for (i = 0; i < s->n; i++) {
		/* After done() asked to stop, the games after are dropped,
		   as run_serial would never have read them. */
		if (!p->j->stop) {
			if (s->eend[i] > e) {
				if (o > orun)
					fwrite(s->out.p + orun, 1, o - orun,
					    p->j->out);
				cli_progress_clear(p->j->err);
				fwrite(s->err.p + e, 1, s->eend[i] - e,
				    p->j->err);
				orun = o;
			}
			o = s->oend[i];
			p->j->done(p->j->ctx, s->g[i], s->result[i]);
			check_outputs(p->j);
			progress_tick(p->pr, false);
		}
		e = s->eend[i];
		s->g[i] = NULL;		/* in the arena */
	}
	s->aused = 0;
	if (s->acap > ARENA_KEEP) {
		free(s->arena);
		s->arena = NULL;
		s->acap = 0;
	}
	if (o > orun)		/* out.p is NULL while nothing was written */
		fwrite(s->out.p + orun, 1, o - orun, p->j->out);
	check_outputs(p->j);
	obuf_reset(&s->out);
	obuf_reset(&s->err);
	s->n = 0;
	s->bytes = 0;
}

/* With the lock held: write out every finished batch, oldest first. */
static void
flush_done(struct pool *p)
{
	for (;;) {
		struct slot *s = &p->slots[p->next_flush % p->nslots];

		if (p->next_flush == p->next_fill || s->state != DONE)
			return;
		pthread_mutex_unlock(&p->c.mu);
		flush_slot(p, s);
		pthread_mutex_lock(&p->c.mu);
		s->state = EMPTY;
		p->next_flush++;
	}
}

static int
run_parallel(struct jobs *j, struct zh_pgn_reader *r, struct progress *pr)
{
	struct pool p;
	size_t i;
	int n = j->njobs, rc = 1, err = 0;
	long count = 0;
	struct zh_game g;
	struct slot *cur = NULL;

	memset(&p, 0, sizeof p);
	p.j = j;
	p.pr = pr;
	p.nslots = (size_t)n * 3;
	if ((p.slots = calloc(p.nslots, sizeof *p.slots)) == NULL) {
		cli_fail("out of memory");
		return -1;
	}
	if (crew_start(&p.c, n, worker, &p) != 0) {
		free(p.slots);
		return run_serial(j, r, pr);
	}
	for (;;) {
		bool more = rc == 1 && !j->stop &&
		    !(j->max_games && count >= j->max_games);
		size_t need = 0;

		if (more && (rc = zh_pgn_next(r, &g)) != 1) {
			more = false;
			if (rc < 0)
				read_failed(j, &g);
		}
		if (more)
			need = ALIGN(zh_game_dup_size(&g));
		pthread_mutex_lock(&p.c.mu);
		flush_done(&p);
		if (more && cur == NULL) {
			/* Wait for the next slot to be free. */
			while (p.slots[p.next_fill % p.nslots].state != EMPTY) {
				pthread_cond_wait(&p.c.done_cv, &p.c.mu);
				flush_done(&p);
			}
			cur = &p.slots[p.next_fill % p.nslots];
			cur->state = FILLING;
		}
		if (cur != NULL && (!more || cur->n == BATCH ||
		    cur->bytes >= BATCH_BYTES ||
		    (cur->n > 0 && cur->aused + need > cur->acap))) {
			if (cur->n > 0) {
				cur->state = READY;
				p.next_fill++;
				pthread_cond_signal(&p.c.work_cv);
				cur = NULL;
			} else if (!more) {
				cur->state = EMPTY;
				cur = NULL;
			}
			if (more) {
				while (p.slots[p.next_fill % p.nslots].state != EMPTY) {
					pthread_cond_wait(&p.c.done_cv, &p.c.mu);
					flush_done(&p);
				}
				cur = &p.slots[p.next_fill % p.nslots];
				cur->state = FILLING;
			}
		}
		if (!more) {
			while (p.next_flush < p.next_fill) {
				pthread_cond_wait(&p.c.done_cv, &p.c.mu);
				flush_done(&p);
			}
			pthread_mutex_unlock(&p.c.mu);
			break;
		}
		pthread_mutex_unlock(&p.c.mu);
		if (cur->aused + need > cur->acap) {	/* cur->n == 0 here */
			size_t cap = need > ARENA_MIN ? need : ARENA_MIN;
			char *a = realloc(cur->arena, cap);

			if (a == NULL) {
				cli_fail("out of memory");
				err = 1;
				rc = 0;
				continue;
			}
			cur->arena = a;
			cur->acap = cap;
		}
		cur->g[cur->n] = zh_game_dup_to(&g, cur->arena + cur->aused);
		cur->aused += need;
		cur->bytes += g.rawlen + 64 * g.ntoks;
		cur->n++;
		count++;
	}
	crew_stop(&p.c);
	if (rc == 0 && !j->stop)
		tell_skip(j, j->err, zh_pgn_tail(r));
	for (i = 0; i < p.nslots; i++) {
		free(p.slots[i].out.p);
		free(p.slots[i].err.p);
		free(p.slots[i].arena);
	}
	free(p.slots);
	return rc < 0 || err ? -1 : 0;
}

/* ======================== chunks ======================== */

/*
 * With more than one worker the input is cut into chunks of about
 * CHUNK_BYTES, each just before a line that starts "[Event ", and each
 * worker reads the games of its chunk itself (zh_pgn_mem): the main
 * thread only reads bytes, finds the cuts and writes out, and no game is
 * copied from thread to thread.  A chunk's games and lines are numbered
 * as in one stream, from the counts of line ends and of "[Event " lines
 * in the chunks before it.  That guess is checked once the chunk has
 * been read: if a game ran on to the chunk's end (its tags went on past
 * an "[Event " line, a comment or a variation was left open, ...) or the
 * counts differ (a game without an Event tag, a lone CR), that chunk and
 * all after it are read again by one reader, as run_parallel() does, and
 * nothing of the guess is written.  So -j N writes what -j 1 writes.
 */
/* Small: a chunk's output waits in memory until it is written, and it
   can be 20 times the chunk (zhreplay -f board); 64 KB holds about 90
   games, enough that handing chunks over costs little. */
#define CHUNK_BYTES (64u << 10)	/* ZH_JOBS_CHUNK=N: N bytes (tests) */
#define CHUNK_MAX (8u << 20)	/* no cut in so many bytes: one reader */

struct cgame {			/* what is kept of a game for done() */
	const char *raw;
	size_t rawlen;
	long number, line;
	bool truncated;
	int result;
	size_t oend, eend;	/* output offsets after the game */
};

struct cslot {
	int state;
	char *buf;		/* the chunk, ZH_PGN_PAD zero bytes after */
	size_t len, cap;
	long lbase, gbase;	/* lines and games before it (guessed) */
	long nlines, ngames;	/* its line ends and "[Event " lines */
	bool last;		/* it ends at the end of the input */
	bool bad;		/* the guess did not hold: read it again */
	long n;			/* games read */
	struct cgame *gm;
	size_t gcap;
	struct obuf out, err;
	size_t tail;		/* err offset after the text after its games */
};

struct cpool {
	struct jobs *j;
	struct progress *pr;
	struct crew c;
	struct cslot *slots;
	size_t nslots;
	size_t next_work, next_fill, next_flush;
	bool enough;		/* max_games games handed to done() */
	long games;		/* games handed to done() */
};

/* Read the games of chunk s and work on them (a worker, no lock). */
static void
work_chunk(struct cpool *p, struct cslot *s, void *st,
    struct zh_pgn_reader **rdp)
{
	struct jobs *j = p->j;
	FILE *o = obuf_open(&s->out), *e = obuf_open(&s->err);
	struct zh_pgn_reader *rd;
	struct zh_game g;
	long line;
	int rc = -1;

	s->n = 0;
	s->bad = true;
	if (o == NULL || e == NULL || (rd = zh_pgn_mem(*rdp, s->buf, s->len,
	    j->limits, s->lbase, s->gbase)) == NULL)
		goto out;
	*rdp = rd;
	while ((rc = zh_pgn_next(rd, &g)) == 1) {
		struct cgame *c;

		if (!s->last && s->n == s->ngames) {
			rc = -1;	/* more games than guessed */
			break;
		}
		if ((size_t)s->n == s->gcap) {
			size_t ncap = s->gcap ? 2 * s->gcap : 256;
			struct cgame *ng = realloc(s->gm, ncap * sizeof *ng);

			if (ng == NULL) {
				rc = -1;
				break;
			}
			s->gm = ng;
			s->gcap = ncap;
		}
		c = &s->gm[s->n++];
		c->result = work_game(j, &g, o, e, st);
		fflush(o);
		fflush(e);
		c->oend = s->out.len;
		c->eend = s->err.len;
		c->raw = g.raw;
		c->rawlen = g.rawlen;
		c->number = g.number;
		c->line = g.line;
		c->truncated = g.raw_truncated;
	}
	if (rc == 0 && (s->last || (zh_pgn_mem_clean(rd, &line) &&
	    line == s->lbase + s->nlines && s->n == s->ngames)))
		s->bad = false;
	if (!s->bad) {		/* text after its last game */
		tell_skip(j, e, zh_pgn_tail(rd));
		fflush(e);
		s->tail = s->err.len;
	}
out:
	if (o)
		fclose(o);
	if (e)
		fclose(e);
	if (s->out.failed || s->err.failed)
		s->bad = true;
}

static void *
chunk_worker(void *arg)
{
	struct cpool *p = arg;
	void *st = p->j->make_state ? p->j->make_state(p->j->ctx) : NULL;
	struct zh_pgn_reader *rd = NULL;

	pthread_mutex_lock(&p->c.mu);
	for (;;) {
		struct cslot *s;

		while (!p->c.closing &&
		    p->slots[p->next_work % p->nslots].state != READY)
			pthread_cond_wait(&p->c.work_cv, &p->c.mu);
		s = &p->slots[p->next_work % p->nslots];
		if (s->state != READY)
			break;
		s->state = BUSY;
		p->next_work++;
		pthread_mutex_unlock(&p->c.mu);
		work_chunk(p, s, st, &rd);
		pthread_mutex_lock(&p->c.mu);
		s->state = DONE;
		if (s == &p->slots[p->next_flush % p->nslots])
			pthread_cond_signal(&p->c.done_cv);
	}
	pthread_mutex_unlock(&p->c.mu);
	zh_pgn_close(rd);
	if (p->j->free_state)
		p->j->free_state(st);
	return NULL;
}

/* Write out good chunk s, game by game, as flush_slot() does (no lock). */
static void
flush_chunk(struct cpool *p, struct cslot *s)
{
	struct jobs *j = p->j;
	size_t o = 0, e = 0, orun = 0;
	long i;

	for (i = 0; i < s->n && !j->stop; i++) {
		const struct cgame *c = &s->gm[i];
		struct zh_game g;

		if (j->max_games && p->games >= j->max_games) {
			p->enough = true;
			break;
		}
		if (c->eend > e) {
			if (o > orun)
				fwrite(s->out.p + orun, 1, o - orun, j->out);
			cli_progress_clear(j->err);
			fwrite(s->err.p + e, 1, c->eend - e, j->err);
			orun = o;
		}
		o = c->oend;
		e = c->eend;
		/* done() gets the game's number, line and bytes; its tags
		   and tokens went with the worker's reader. */
		memset(&g, 0, sizeof g);
		g.number = c->number;
		g.line = c->line;
		g.raw = c->raw;
		g.rawlen = c->rawlen;
		g.raw_truncated = c->truncated;
		j->done(j->ctx, &g, c->result);
		check_outputs(j);
		p->games++;
		progress_tick(p->pr, false);
	}
	if (o > orun)
		fwrite(s->out.p + orun, 1, o - orun, j->out);
	if (i == s->n && !j->stop && !p->enough && s->tail > e) {
		cli_progress_clear(j->err);
		fwrite(s->err.p + e, 1, s->tail - e, j->err);
	}
	check_outputs(j);
	obuf_reset(&s->out);
	obuf_reset(&s->err);
	s->n = 0;
}

/*
 * With the lock held: write out the finished chunks, oldest first, up to
 * the first bad one; returns it (still DONE), or NULL.
 */
static struct cslot *
flush_chunks(struct cpool *p)
{
	for (;;) {
		struct cslot *s = &p->slots[p->next_flush % p->nslots];

		if (p->next_flush == p->next_fill || s->state != DONE)
			return NULL;
		if (s->bad && !p->j->stop && !p->enough)
			return s;
		pthread_mutex_unlock(&p->c.mu);
		if (!s->bad && !p->j->stop && !p->enough)
			flush_chunk(p, s);
		pthread_mutex_lock(&p->c.mu);
		s->state = EMPTY;
		p->next_flush++;
	}
}

/* The bytes of a fallback reader: memory pieces, then the input. */
struct pieces {
	struct { const char *p; size_t n; } *v;
	size_t nv, k, off;
	FILE *in;
};

static ssize_t
pieces_read(void *cookie, char *buf, size_t size)
{
	struct pieces *pc = cookie;

	while (pc->k < pc->nv) {
		size_t left = pc->v[pc->k].n - pc->off;

		if (left > 0) {
			if (size > left)
				size = left;
			memcpy(buf, pc->v[pc->k].p + pc->off, size);
			pc->off += size;
			return (ssize_t)size;
		}
		pc->k++;
		pc->off = 0;
	}
	size = fread(buf, 1, size, pc->in);
	return size == 0 && ferror(pc->in) ? -1 : (ssize_t)size;
}

/* Make room for n more bytes (and the padding) in *b. */
static bool
reserve(char **b, size_t *cap, size_t len, size_t n)
{
	size_t need = len + n + ZH_PGN_PAD, ncap = *cap ? *cap : 64 * 1024;
	char *nb;

	if (need <= *cap)
		return true;
	while (ncap < need)
		ncap *= 2;
	if ((nb = realloc(*b, ncap)) == NULL)
		return false;
	*b = nb;
	*cap = ncap;
	return true;
}

/*
 * Read the rest as run_parallel() does, from the first byte of bad chunk
 * 'from' (or of the pending bytes if NULL) on; every chunk before it is
 * written.  Called with no worker left.
 */
static int
fall_back(struct jobs *j, struct cpool *p, struct cslot *from, char *pend,
    size_t plen, long lines, long games, FILE *in)
{
	static const cookie_io_functions_t io = { .read = pieces_read };
	struct pieces pc = { .in = in };
	struct zh_pgn_reader *r;
	long max = j->max_games;
	FILE *f;
	size_t k;
	int rc;

	if ((pc.v = calloc(p->nslots + 1, sizeof *pc.v)) == NULL) {
		cli_fail("out of memory");
		return -1;
	}
	if (from != NULL) {
		lines = from->lbase;
		games = from->gbase;
		for (k = p->next_flush; k < p->next_fill; k++) {
			struct cslot *s = &p->slots[k % p->nslots];

			pc.v[pc.nv].p = s->buf;
			pc.v[pc.nv++].n = s->len;
		}
	}
	pc.v[pc.nv].p = pend;
	pc.v[pc.nv++].n = plen;
	if ((f = fopencookie(&pc, "r", io)) == NULL ||
	    (r = zh_pgn_open(f, j->limits)) == NULL) {
		if (f)
			fclose(f);
		free(pc.v);
		cli_fail("out of memory");
		return -1;
	}
	zh_pgn_set_base(r, lines, games);
	if (max)
		j->max_games = max - p->games;
	rc = run_parallel(j, r, p->pr);
	j->max_games = max;
	zh_pgn_close(r);
	fclose(f);
	free(pc.v);
	return rc;
}

static int
run_chunked(struct jobs *j, FILE *in, struct progress *pr)
{
	struct cpool p;
	struct cslot *bad = NULL;
	const char *env = getenv("ZH_JOBS_CHUNK");	/* tests: small chunks */
	size_t target = env && atol(env) > 0 ? (size_t)atol(env) : CHUNK_BYTES;
	size_t want = target, plen = 0, pcap = 0, i;
	char *pend = NULL;		/* bytes read, not yet in a chunk */
	long lines = 0, games = 0;
	bool eof = false, rerr = false, fallback = false, first = true;
	int n = j->njobs, rc = 0;

	memset(&p, 0, sizeof p);
	p.j = j;
	p.pr = pr;
	p.nslots = (size_t)n * 3;
	if ((p.slots = calloc(p.nslots, sizeof *p.slots)) == NULL) {
		cli_fail("out of memory");
		return -1;
	}
	if (crew_start(&p.c, n, chunk_worker, &p) != 0) {
		struct zh_pgn_reader *r;

		free(p.slots);
		if ((r = zh_pgn_open(in, j->limits)) == NULL) {
			cli_fail("out of memory");
			return -1;
		}
		rc = run_serial(j, r, pr);
		zh_pgn_close(r);
		return rc;
	}
	for (;;) {
		struct cslot *s;
		size_t cut;

		pthread_mutex_lock(&p.c.mu);
		bad = flush_chunks(&p);
		pthread_mutex_unlock(&p.c.mu);
		if (bad != NULL || j->stop || p.enough || (eof && plen == 0))
			break;
		/* Read up to 'want' bytes, then cut before the last
		   "[Event " line. */
		while (!eof && plen < want) {
			size_t got;

			if (!reserve(&pend, &pcap, plen, want - plen)) {
				cli_fail("out of memory");
				rc = -1;
				eof = true;
				break;
			}
			got = fread(pend + plen, 1, want - plen, in);
			plen += got;
			if (got == 0) {
				eof = true;
				rerr = ferror(in) != 0;
			}
		}
		if (plen == 0)
			continue;
		cut = eof ? plen : zh_pgn_cut(pend, plen);
		if (cut == 0) {
			if (want < CHUNK_MAX) {
				want *= 2;
				continue;
			}
			fallback = true;	/* no cut: one reader from here */
			break;
		}
		want = target;
		/* A free slot for it: the oldest, once written out. */
		pthread_mutex_lock(&p.c.mu);
		while ((bad = flush_chunks(&p)) == NULL && !j->stop &&
		    !p.enough && p.slots[p.next_fill % p.nslots].state != EMPTY)
			pthread_cond_wait(&p.c.done_cv, &p.c.mu);
		pthread_mutex_unlock(&p.c.mu);
		if (bad != NULL || j->stop || p.enough)
			break;
		s = &p.slots[p.next_fill % p.nslots];
		/* The chunk keeps the bytes read; the slot's old buffer
		   takes the rest. */
		if (!reserve(&s->buf, &s->cap, 0, plen - cut)) {
			cli_fail("out of memory");
			rc = -1;
			break;
		}
		{
			char *ob = s->buf;
			size_t ocap = s->cap;

			s->buf = pend;
			s->cap = pcap;
			s->len = cut;
			pend = ob;
			pcap = ocap;
		}
		memcpy(pend, s->buf + cut, plen - cut);
		plen -= cut;
		memset(s->buf + cut, 0, ZH_PGN_PAD);
		zh_pgn_count(s->buf, s->len, first, &s->nlines, &s->ngames);
		first = false;
		s->lbase = lines;
		s->gbase = games;
		lines += s->nlines;
		games += s->ngames;
		s->last = eof && plen == 0;
		pthread_mutex_lock(&p.c.mu);
		s->state = READY;
		p.next_fill++;
		pthread_cond_signal(&p.c.work_cv);
		pthread_mutex_unlock(&p.c.mu);
	}
	/* Wait for every chunk handed out; write out the good ones. */
	pthread_mutex_lock(&p.c.mu);
	while (p.next_flush < p.next_fill && bad == NULL) {
		if ((bad = flush_chunks(&p)) != NULL || p.next_flush == p.next_fill)
			break;
		pthread_cond_wait(&p.c.done_cv, &p.c.mu);
	}
	pthread_mutex_unlock(&p.c.mu);
	crew_stop(&p.c);
	if (getenv("ZH_JOBS_DEBUG"))	/* tests: was the chunk path taken? */
		fprintf(stderr, "%s: -j: %zu chunks, %ld games from chunks, %s\n",
		    cli_prog, p.next_fill, p.games, bad != NULL || fallback ?
		    "then one reader" : "no fallback");
	if (rc == 0 && !j->stop && !p.enough && (bad != NULL || fallback) &&
	    fall_back(j, &p, bad, pend, plen, lines, games, in) != 0)
		rc = -1;
	for (i = 0; i < p.nslots; i++) {
		free(p.slots[i].buf);
		free(p.slots[i].gm);
		free(p.slots[i].out.p);
		free(p.slots[i].err.p);
	}
	free(p.slots);
	free(pend);
	return rc < 0 || rerr ? -1 : 0;
}

/* Why the input could not be read. */
static void
read_error(const struct jobs *j, const char *name)
{
	static const char *const cat[][2] = {
		{ "gzip", "zcat" }, { "zstd", "zstdcat" }, { "bzip2", "bzcat" },
		{ "xz", "xzcat" },
	};
	size_t k;

	if (j->rerr.code == ZH_ECOMPRESSED)
		for (k = 0; k < sizeof cat / sizeof cat[0]; k++)
			if (strcmp(j->rerr.text, cat[k][0]) == 0) {
				cli_fail("%s: error: %s is %s-compressed; try "
				    "%s %s | %s", name, name, cat[k][0],
				    cat[k][1], strcmp(name, "<stdin>") == 0 ?
				    "FILE" : name, cli_prog);
				return;
			}
	cli_fail("%s: read error", name);
}

int
jobs_run(struct jobs *j, FILE *in, const char *name)
{
	struct zh_pgn_reader *r = NULL;
	struct progress pr;
	int rc;

	if (j->njobs == 0)
		j->njobs = jobs_cores();
	j->name = name;
	memset(&j->rerr, 0, sizeof j->rerr);
	if (j->njobs <= 1 && (r = zh_pgn_open(in, j->limits)) == NULL) {
		cli_fail("%s: out of memory", name);
		return -1;
	}
	progress_init(&pr, j, in);
	rc = r != NULL ? run_serial(j, r, &pr) : run_chunked(j, in, &pr);
	if (pr.on) {
		pr.games--;
		progress_tick(&pr, true);
	}
	if (rc != 0)
		read_error(j, name);
	zh_pgn_close(r);
	return rc;
}
