/*
 * jobs.c - one reader thread (the caller), N workers, results written in
 * input order.  Games are copied out of the reader into their batch's
 * arena (zh_game_dup_to), worked on into memory streams, and flushed by
 * the main thread as soon as the oldest is finished.  Memory: at most
 * 'slots' batches in flight.
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
	pr->start = pr->last = now();
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
	fprintf(stderr, "\r%s: %ld games, %.1f MB, %.0f games/s", cli_prog,
	    pr->games, mb, rate);
	if (pr->total > 0 && pos > 0 && t > pr->start)
		fprintf(stderr, ", ETA %.0f s   ",
		    (pr->total - (double)pos) / ((double)pos / (t - pr->start)));
	if (final)
		fputc('\n', stderr);
}

/* ======================== serial ======================== */

static int
run_serial(struct jobs *j, struct zh_pgn_reader *r, struct progress *pr)
{
	struct zh_game g;
	void *st = j->make_state ? j->make_state(j->ctx) : NULL;
	int rc, res;
	long n = 0;

	while (!j->stop && (rc = zh_pgn_next(r, &g)) == 1) {
		res = j->work(&g, j->out, j->err, j->ctx, st);
		j->done(j->ctx, &g, res);
		progress_tick(pr, false);
		if (j->max_games && ++n >= j->max_games)
			break;
	}
	if (j->free_state)
		j->free_state(st);
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

struct pool {
	struct jobs *j;
	struct progress *pr;
	pthread_mutex_t mu;
	pthread_cond_t work_cv, done_cv;
	struct slot *slots;
	size_t nslots;
	size_t next_work;	/* next slot index a worker takes */
	size_t next_fill;	/* next slot the reader fills */
	size_t next_flush;	/* next slot the reader writes out */
	bool closing;
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
		s->result[i] = p->j->work(s->g[i], o, e, p->j->ctx, st);
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

	pthread_mutex_lock(&p->mu);
	for (;;) {
		struct slot *s;

		while (!p->closing && p->slots[p->next_work % p->nslots].state != READY)
			pthread_cond_wait(&p->work_cv, &p->mu);
		s = &p->slots[p->next_work % p->nslots];
		if (s->state != READY)
			break;		/* closing and nothing left */
		s->state = BUSY;
		p->next_work++;
		pthread_mutex_unlock(&p->mu);
		work_batch(p, s, st);
		pthread_mutex_lock(&p->mu);
		s->state = DONE;
		/* The reader only ever waits for the oldest slot. */
		if (s == &p->slots[p->next_flush % p->nslots])
			pthread_cond_signal(&p->done_cv);
	}
	pthread_mutex_unlock(&p->mu);
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
				fwrite(s->err.p + e, 1, s->eend[i] - e,
				    p->j->err);
				orun = o;
			}
			o = s->oend[i];
			p->j->done(p->j->ctx, s->g[i], s->result[i]);
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
		pthread_mutex_unlock(&p->mu);
		flush_slot(p, s);
		pthread_mutex_lock(&p->mu);
		s->state = EMPTY;
		p->next_flush++;
	}
}

static int
run_parallel(struct jobs *j, struct zh_pgn_reader *r, struct progress *pr)
{
	struct pool p;
	pthread_t *th;
	size_t i;
	int n = j->njobs, rc = 1, err = 0;
	long count = 0;
	struct zh_game g;
	struct slot *cur = NULL;

	memset(&p, 0, sizeof p);
	p.j = j;
	p.pr = pr;
	p.nslots = (size_t)n * 3;
	p.slots = calloc(p.nslots, sizeof *p.slots);
	th = calloc((size_t)n, sizeof *th);
	if (p.slots == NULL || th == NULL) {
		free(p.slots);
		free(th);
		cli_fail("out of memory");
		return -1;
	}
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.work_cv, NULL);
	pthread_cond_init(&p.done_cv, NULL);
	for (i = 0; i < (size_t)n; i++)
		pthread_create(&th[i], NULL, worker, &p);
	for (;;) {
		bool more = rc == 1 && !j->stop &&
		    !(j->max_games && count >= j->max_games);
		size_t need = 0;

		if (more && (rc = zh_pgn_next(r, &g)) != 1)
			more = false;
		if (more)
			need = ALIGN(zh_game_dup_size(&g));
		pthread_mutex_lock(&p.mu);
		flush_done(&p);
		if (more && cur == NULL) {
			/* Wait for the next slot to be free. */
			while (p.slots[p.next_fill % p.nslots].state != EMPTY) {
				pthread_cond_wait(&p.done_cv, &p.mu);
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
				pthread_cond_signal(&p.work_cv);
				cur = NULL;
			} else if (!more) {
				cur->state = EMPTY;
				cur = NULL;
			}
			if (more) {
				while (p.slots[p.next_fill % p.nslots].state != EMPTY) {
					pthread_cond_wait(&p.done_cv, &p.mu);
					flush_done(&p);
				}
				cur = &p.slots[p.next_fill % p.nslots];
				cur->state = FILLING;
			}
		}
		if (!more) {
			while (p.next_flush < p.next_fill) {
				pthread_cond_wait(&p.done_cv, &p.mu);
				flush_done(&p);
			}
			pthread_mutex_unlock(&p.mu);
			break;
		}
		pthread_mutex_unlock(&p.mu);
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
	pthread_mutex_lock(&p.mu);
	p.closing = true;
	pthread_cond_broadcast(&p.work_cv);
	pthread_mutex_unlock(&p.mu);
	for (i = 0; i < (size_t)n; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.work_cv);
	pthread_cond_destroy(&p.done_cv);
	for (i = 0; i < p.nslots; i++) {
		free(p.slots[i].out.p);
		free(p.slots[i].err.p);
		free(p.slots[i].arena);
	}
	free(p.slots);
	free(th);
	return rc < 0 || err ? -1 : 0;
}

int
jobs_run(struct jobs *j, FILE *in, const char *name)
{
	struct zh_pgn_reader *r = zh_pgn_open(in, j->limits);
	struct progress pr;
	int rc;

	if (r == NULL) {
		cli_fail("%s: out of memory", name);
		return -1;
	}
	if (j->njobs == 0)
		j->njobs = jobs_cores();
	progress_init(&pr, j, in);
	rc = j->njobs <= 1 ? run_serial(j, r, &pr) : run_parallel(j, r, &pr);
	if (pr.on) {
		pr.games--;
		progress_tick(&pr, true);
	}
	if (rc != 0)
		cli_fail("%s: read error", name);
	zh_pgn_close(r);
	return rc;
}
