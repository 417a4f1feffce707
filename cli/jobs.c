/*
 * jobs.c - N workers, results written in input order by the main thread.
 * The main thread cuts the input into chunks of bytes between games
 * (pieces.c, which alone knows how); each worker reads the games of a
 * chunk itself and works on them into memory streams, and the main
 * thread writes each chunk out as soon as it and those before it are
 * finished (run_chunked).  Where a chunk's games cannot be read on their
 * own, one reader on the main thread takes over, and games are copied
 * out of it into batches (run_parallel).  This file keeps the threads.
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
#include "codec.h"
#include "flatrows.h"
#include "jobs.h"
#include "kind.h"
#include "pieces.h"
#include "warn.h"

int
jobs_cores(void)
{
	return codec_cores();
}

/*
 * -j 0: one worker per core this process may run on, less the one that
 * a compressed input's decoding thread keeps busy (zstd on two cores:
 * -j 2 took x1.28 the time of -j 1, the decoder and two workers sharing
 * two cores), and never fewer than one.  ZH_JOBS_DEBUG says the choice.
 */
static int
jobs_auto(FILE *in)
{
	int cores = jobs_cores(), n;
	bool decoder = codec_threaded(flatrows_under(in));

	n = cores - (decoder ? 1 : 0);
	if (n < 1)
		n = 1;
	if (getenv("ZH_JOBS_DEBUG"))
		fprintf(stderr, "%s: -j 0: %d core%s, %s: %d worker%s\n",
		    cli_prog, cores, cores == 1 ? "" : "s", decoder ?
		    "a decoding thread" : "no decoding thread", n,
		    n == 1 ? "" : "s");
	return n;
}

/* ======================== progress ======================== */

struct progress {
	bool on;
	FILE *in;
	const char *name;		/* the input's: it restarts for each */
	double start, last;		/* seconds */
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
	memset(pr, 0, sizeof *pr);
	pr->on = j->progress && isatty(STDERR_FILENO);
	pr->in = in;
	pr->name = j->name;
	pr->start = now();
	pr->last = pr->start - 1;	/* the first line at game 256 */
}

/*
 * "TOOL: FILE: 100000 games, 12.3/40.0 MB (31%), 33796 games/s, ETA 20 s":
 * the input (each has its own line, from 0), the bytes of the file read (compressed ones for a compressed file) of its
 * size, and the time left at the rate so far; a pipe has no size, and
 * no ETA.
 */
static void
progress_tick(struct progress *pr, bool final)
{
	double t, rate, span;
	long long pos, size;

	pr->games++;
	if (!pr->on || ((pr->games & 255) != 0 && !final))
		return;
	t = now();
	if (!final && t - pr->last < 0.25)
		return;
	pr->last = t;
	span = t - pr->start;
	pos = codec_progress(flatrows_under(pr->in), &size);
	rate = span > 0 ? pr->games / span : 0;
	flockfile(stderr);
	fprintf(stderr, "\r%s: %s: %ld games, %.1f", cli_prog, pr->name, pr->games,
	    pos > 0 ? (double)pos / 1e6 : 0);
	if (size > 0 && pos >= 0)
		fprintf(stderr, "/%.1f MB (%.0f%%)", (double)size / 1e6,
		    100.0 * (double)pos / (double)size);
	else
		fputs(" MB", stderr);
	fprintf(stderr, ", %.0f games/s", rate);
	if (size > 0 && pos > 0 && span > 0 && !final)
		fprintf(stderr, ", ETA %.0f s", (double)(size - pos) /
		    ((double)pos / span));
	fputs("\033[K", stderr);	/* the end of a longer line before */
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

/* An input that starts with FEN lines is no PGN: say what to run. */
static void
tell_skip_kind(const struct jobs *j, FILE *err, const struct zh_skip *s)
{
	if (s->line == 1 && (s->bytes > 0 || s->lines > 0))
		(void)kind_hint(err, j->name, kind_of(s->text, strlen(s->text)),
		    KIND_PGN, j->fen_hint);
}

/* "text between games ... skipped", if any was. */
static void
tell_skip(const struct jobs *j, FILE *err, const struct zh_skip *s)
{
	if (s->bytes == 0 && s->lines == 0)
		return;
	(void)warn_fdiag(err, W_TEXT_BETWEEN, j->name, s->line, s->col,
	    "text between games: \"%s\"%s skipped (%ld line%s, %zu byte%s)",
	    s->text, strlen(s->text) + 1 < sizeof s->text ? "" : "...",
	    s->lines, s->lines == 1 ? "" : "s", s->bytes,
	    s->bytes == 1 ? "" : "s");
	tell_skip_kind(j, err, s);
}

/* Game 1 that fails on its first line: a hint if the line says the input
 * is of another kind (JSON printed over many lines). */
static void
tell_kind(const struct jobs *j, FILE *err, const struct zh_game *g)
{
	const char *nl;

	if (g->line != 1 || g->err.code == ZH_OK || g->raw == NULL)
		return;
	nl = memchr(g->raw, '\n', g->rawlen);
	(void)kind_hint(err, j->name, kind_of(g->raw, nl ? (size_t)(nl -
	    g->raw) : g->rawlen), KIND_PGN, j->fen_hint);
}

/*
 * A game's work, after the text skipped before it; the one place where
 * --game-offset renumbers (done() sees the reader's number).
 */
static inline void
work_game(struct jobs *j, struct zh_game *g, FILE *out, FILE *err,
    void *st, struct jobs_res *res)
{
	struct zh_game renum;

	res->drop = 0;
	res->has_key = false;
	res->route[0] = '\0';
	if (g->skipped.lines > 0 && !j->work_skips)
		tell_skip(j, err, &g->skipped);
	else if (g->skipped.lines > 0)
		tell_skip_kind(j, err, &g->skipped);	/* work() says the text */
	tell_kind(j, err, g);
	/* the JSON objects' "file" and "index" (zhkit-json(5)): the
	   game is the reader's, which leaves them alone */
	g->file = j->name;
	g->index = j->before + j->offset + g->number;
	if (j->offset) {
		renum = *g;
		renum.number += j->offset;
		g = &renum;
	}
	res->result = j->work(g, out, err, j->ctx, st, res);
}

/* Every reader made here drops what the tool's filter drops. */
static void
set_filter(const struct jobs *j, struct zh_pgn_reader *r)
{
	if (j->filter != NULL)
		zh_pgn_set_filter(r, j->filter, j->filter_arg);
}

/* Bytes [from, to) of p to f, if any (p is NULL while none were). */
static inline void
put_run(FILE *f, const char *p, size_t from, size_t to)
{
	if (to > from && f != NULL)
		fwrite(p + from, 1, to - from, f);
}

/* zh_pgn_next() failed: keep why. */
static void
read_failed(struct jobs *j, const struct zh_game *g)
{
	if (j->rerr.code == ZH_OK)
		j->rerr = g->err;
}

/* ======================== output buffers ======================== */

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
	struct jobs_res res[BATCH];
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

/*
 * Buffers of runs that ended, kept for the next run (j->keep_buffers:
 * the Python module, whose reads follow one another in one process):
 * a run's buffers then come with their pages, not faulted in and
 * zeroed again (zh.pgn at -j 2: ~900 page faults and ~6 ms of system
 * time a read).  SPARE_N buffers of OBUF_KEEP bytes or less at most.
 */
#define SPARE_N 32
static struct obuf spare[SPARE_N];
static int nspare;
static pthread_mutex_t spare_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t spare_once = PTHREAD_ONCE_INIT;

/* A fork while another thread holds the lock: held across it. */
static void
spare_lock(void)
{
	pthread_mutex_lock(&spare_mu);
}

static void
spare_unlock(void)
{
	pthread_mutex_unlock(&spare_mu);
}

static void
spare_init(void)
{
	(void)pthread_atfork(spare_lock, spare_unlock, spare_unlock);
}

/* b's buffer freed, or kept as a spare if keep. */
static void
obuf_free(struct obuf *b, bool keep)
{
	if (b->p != NULL && keep && b->cap <= OBUF_KEEP) {
		pthread_once(&spare_once, spare_init);
		pthread_mutex_lock(&spare_mu);
		if (nspare < SPARE_N) {
			spare[nspare++] = *b;
			b->p = NULL;
		}
		pthread_mutex_unlock(&spare_mu);
	}
	free(b->p);
	b->p = NULL;
	b->cap = 0;
}

size_t
jobs_trim(void)
{
	size_t bytes = 0;

	pthread_once(&spare_once, spare_init);
	pthread_mutex_lock(&spare_mu);
	while (nspare > 0) {
		bytes += spare[--nspare].cap;
		free(spare[nspare].p);
	}
	pthread_mutex_unlock(&spare_mu);
	return bytes;
}

static FILE *
obuf_open(struct obuf *b)
{
	static const cookie_io_functions_t io = { .write = obuf_write };

	if (b->p == NULL) {
		pthread_once(&spare_once, spare_init);
		pthread_mutex_lock(&spare_mu);
		if (nspare > 0) {
			b->p = spare[--nspare].p;
			b->cap = spare[nspare].cap;
		}
		pthread_mutex_unlock(&spare_mu);
	}
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

/* ======================== serial ======================== */

/*
 * With j->route, a game's output is held in 'hold' (out writes there)
 * until done() has said where it goes; 0, or -1 out of memory (said).
 */
static int
put_held(struct jobs *j, FILE *out, struct obuf *hold, FILE *to)
{
	fflush(out);
	if (hold->failed) {
		cli_fail("out of memory");
		j->stop = 1;
		return -1;
	}
	if (to != NULL)
		put_run(to, hold->p, 0, hold->len);
	hold->len = 0;
	return 0;
}

static int
run_serial(struct jobs *j, struct zh_pgn_reader *r, struct progress *pr)
{
	struct zh_game g;
	struct jobs_res res;
	struct obuf hold = { 0 };
	FILE *out = j->out, *to;
	void *st;
	int rc = 0, err = 0;
	long n = 0;

	set_filter(j, r);
	if (j->route && (out = obuf_open(&hold)) == NULL) {
		cli_fail("out of memory");
		return -1;
	}
	st = j->make_state ? j->make_state(j->ctx) : NULL;
	while (!j->stop && (rc = zh_pgn_next(r, &g)) == 1) {
		work_game(j, &g, out, j->err, st, &res);
		to = j->done(j->ctx, &g, &res);
		j->seen = g.number;
		if (j->route && put_held(j, out, &hold, to) != 0)
			err = 1;
		check_outputs(j);
		progress_tick(pr, false);
		if (j->max_games && ++n >= j->max_games)
			break;
	}
	if (j->free_state)
		j->free_state(st);
	if (j->route) {
		fclose(out);
		free(hold.p);
	}
	if (rc == 0)
		tell_skip(j, j->err, zh_pgn_tail(r));
	else if (rc < 0)
		read_failed(j, &g);
	return rc < 0 || err ? -1 : 0;
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
			s->res[i].result = -1;
			s->oend[i] = s->eend[i] = 0;
			continue;
		}
		work_game(p->j, s->g[i], o, e, st, &s->res[i]);
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
			s->res[i].result = -1;
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
 * Game i's output, bytes [*o, oend) of out: done() says where it goes.
 * Output for j->out is written in runs (from *orun); output sent
 * elsewhere or dropped ends the run.
 */
static void
route_game(struct jobs *j, const struct zh_game *g, const struct jobs_res *res,
    const char *out, size_t *orun, size_t *o, size_t oend)
{
	FILE *to = j->done(j->ctx, g, res);

	j->seen = g->number;
	/* a game done() drops (NULL) ends the run even when j->out is
	   NULL too, so that nothing is ever written to NULL */
	if (to != j->out || to == NULL) {
		put_run(j->out, out, *orun, *o);
		if (to != NULL)
			put_run(to, out, *o, oend);
		*orun = oend;
	}
	*o = oend;
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
				put_run(p->j->out, s->out.p, orun, o);
				cli_progress_clear(p->j->err);
				fwrite(s->err.p + e, 1, s->eend[i] - e,
				    p->j->err);
				orun = o;
			}
			route_game(p->j, s->g[i], &s->res[i], s->out.p,
			    &orun, &o, s->oend[i]);
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
	put_run(p->j->out, s->out.p, orun, o);
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

/* With the lock held: the next slot to fill, once it is written out. */
static struct slot *
take_slot(struct pool *p)
{
	struct slot *s;

	while ((s = &p->slots[p->next_fill % p->nslots])->state != EMPTY) {
		pthread_cond_wait(&p->c.done_cv, &p->c.mu);
		flush_done(p);
	}
	s->state = FILLING;
	return s;
}

/*
 * With the lock held: hand batch cur over if it is full (the next game
 * needs 'need' bytes of its arena) or there is no next game ('more'
 * false); returns the batch to fill next (NULL if none).
 */
static struct slot *
batch_next(struct pool *p, struct slot *cur, bool more, size_t need)
{
	if (more && cur == NULL)
		return take_slot(p);
	if (cur == NULL || (more && cur->n < BATCH &&
	    cur->bytes < BATCH_BYTES &&
	    (cur->n == 0 || cur->aused + need <= cur->acap)))
		return cur;
	if (cur->n > 0) {
		cur->state = READY;
		p->next_fill++;
		pthread_cond_signal(&p->c.work_cv);
	} else if (!more)
		cur->state = EMPTY;
	return more ? take_slot(p) : NULL;
}

/* Copy game g into batch s (need bytes of its arena); -1 if out of
   memory (said). */
static int
batch_add(struct slot *s, const struct zh_game *g, size_t need)
{
	if (s->aused + need > s->acap) {	/* s->n == 0 here */
		size_t cap = need > ARENA_MIN ? need : ARENA_MIN;
		char *a = realloc(s->arena, cap);

		if (a == NULL) {
			cli_fail("out of memory");
			return -1;
		}
		s->arena = a;
		s->acap = cap;
	}
	s->g[s->n] = zh_game_dup_to(g, s->arena + s->aused);
	s->aused += need;
	s->bytes += g->rawlen + 64 * g->ntoks;
	s->n++;
	return 0;
}

static void
pool_free(struct pool *p)
{
	size_t i;

	for (i = 0; i < p->nslots; i++) {
		obuf_free(&p->slots[i].out, p->j->keep_buffers);
		obuf_free(&p->slots[i].err, p->j->keep_buffers);
		free(p->slots[i].arena);
	}
	free(p->slots);
}

/* Reader r on this thread, the games' work in batches on j->njobs. */
static int
run_parallel(struct jobs *j, struct zh_pgn_reader *r, struct progress *pr)
{
	struct pool p;
	int rc = 1, err = 0;
	long count = 0;
	struct zh_game g;
	struct slot *cur = NULL;

	memset(&p, 0, sizeof p);
	p.j = j;
	p.pr = pr;
	p.nslots = (size_t)j->njobs * 3;
	if ((p.slots = calloc(p.nslots, sizeof *p.slots)) == NULL) {
		cli_fail("out of memory");
		return -1;
	}
	if (crew_start(&p.c, j->njobs, worker, &p) != 0) {
		free(p.slots);
		return run_serial(j, r, pr);
	}
	set_filter(j, r);
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
		cur = batch_next(&p, cur, more, need);
		if (!more) {
			while (p.next_flush < p.next_fill) {
				pthread_cond_wait(&p.c.done_cv, &p.c.mu);
				flush_done(&p);
			}
			pthread_mutex_unlock(&p.c.mu);
			break;
		}
		pthread_mutex_unlock(&p.c.mu);
		if (batch_add(cur, &g, need) != 0) {
			err = 1;
			rc = 0;
			continue;
		}
		count++;
	}
	crew_stop(&p.c);
	if (rc == 0 && !j->stop)
		tell_skip(j, j->err, zh_pgn_tail(r));
	pool_free(&p);
	return rc < 0 || err ? -1 : 0;
}

/* ======================== chunks ======================== */

/*
 * With more than one worker the input is cut into chunks (pieces.h):
 * each worker reads the games of its chunk itself, so the main thread
 * only reads bytes, finds the cuts and writes out, and no game is copied
 * from thread to thread.  Where a chunk's guess at its games' numbers
 * did not hold, that chunk and all after it are read again by one
 * reader, as run_parallel() does, and nothing of the guess is written.
 * So -j N writes what -j 1 writes.
 */
struct cgame {			/* what is kept of a game for done() */
	const char *raw;
	size_t rawlen;
	long number, line;
	bool truncated;
	int dropped;
	struct jobs_res res;
	size_t oend, eend;	/* output offsets after the game */
};

struct cslot {
	int state;
	struct piece pc;	/* the chunk */
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

/* Work on game g of chunk s and keep what done() needs; -1 if out of
   memory. */
static int
keep_game(struct jobs *j, struct cslot *s, struct zh_game *g,
    FILE *o, FILE *e, void *st)
{
	struct cgame *c;

	if ((size_t)s->n == s->gcap) {
		size_t ncap = s->gcap ? 2 * s->gcap : 256;
		struct cgame *ng = realloc(s->gm, ncap * sizeof *ng);

		if (ng == NULL)
			return -1;
		s->gm = ng;
		s->gcap = ncap;
	}
	c = &s->gm[s->n++];
	work_game(j, g, o, e, st, &c->res);
	fflush(o);
	fflush(e);
	c->oend = s->out.len;
	c->eend = s->err.len;
	c->raw = g->raw;
	c->rawlen = g->rawlen;
	c->number = g->number;
	c->line = g->line;
	c->truncated = g->raw_truncated;
	c->dropped = g->dropped;
	return 0;
}

/* Read the games of chunk s and work on them (a worker, no lock). */
static void
work_chunk(struct cpool *p, struct cslot *s, void *st,
    struct zh_pgn_reader **rdp)
{
	struct jobs *j = p->j;
	FILE *o = obuf_open(&s->out), *e = obuf_open(&s->err);
	struct zh_pgn_reader *rd;
	struct zh_game g;
	int rc;

	s->n = 0;
	s->bad = true;
	if (o == NULL || e == NULL ||
	    (rd = piece_read(&s->pc, rdp, &j->limits)) == NULL)
		goto out;
	set_filter(j, rd);
	while ((rc = piece_next(&s->pc, rd, &g)) == 1)
		if (keep_game(j, s, &g, o, e, st) != 0) {
			rc = -1;
			break;
		}
	if (rc == 0 && piece_held(&s->pc, rd)) {
		s->bad = false;
		tell_skip(j, e, zh_pgn_tail(rd));	/* after its last game */
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
			put_run(j->out, s->out.p, orun, o);
			cli_progress_clear(j->err);
			fwrite(s->err.p + e, 1, c->eend - e, j->err);
			orun = o;
		}
		e = c->eend;
		/* done() gets the game's number, line and bytes; its tags
		   and tokens went with the worker's reader. */
		memset(&g, 0, sizeof g);
		g.number = c->number;
		g.line = c->line;
		g.raw = c->raw;
		g.rawlen = c->rawlen;
		g.raw_truncated = c->truncated;
		g.dropped = c->dropped;
		route_game(j, &g, &c->res, s->out.p, &orun, &o, c->oend);
		check_outputs(j);
		p->games++;
		progress_tick(p->pr, false);
	}
	put_run(j->out, s->out.p, orun, o);
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

/* Whether to go on handing out chunks (lock held or not: main thread). */
static bool
cpool_going(const struct cpool *p, const struct cslot *bad)
{
	return bad == NULL && !p->j->stop && !p->enough;
}

/*
 * Hand out chunks until the input ends (*k PIECES_END), one has no cut
 * (PIECES_NOCUT), a chunk's guess failed (returns it), the run stops or
 * memory runs out (ps->nomem).
 */
static struct cslot *
hand_out(struct cpool *p, struct pieces *ps, int *k)
{
	struct cslot *bad, *s;

	for (;;) {
		pthread_mutex_lock(&p->c.mu);
		bad = flush_chunks(p);
		pthread_mutex_unlock(&p->c.mu);
		if (!cpool_going(p, bad))
			return bad;
		if ((*k = pieces_cut(ps)) != PIECES_READY)
			return NULL;
		/* A free slot for it: the oldest, once written out. */
		pthread_mutex_lock(&p->c.mu);
		while (cpool_going(p, bad = flush_chunks(p)) &&
		    p->slots[p->next_fill % p->nslots].state != EMPTY)
			pthread_cond_wait(&p->c.done_cv, &p->c.mu);
		pthread_mutex_unlock(&p->c.mu);
		if (!cpool_going(p, bad))
			return bad;
		s = &p->slots[p->next_fill % p->nslots];
		if (pieces_take(ps, &s->pc) != 0)
			return NULL;
		pthread_mutex_lock(&p->c.mu);
		s->state = READY;
		p->next_fill++;
		pthread_cond_signal(&p->c.work_cv);
		pthread_mutex_unlock(&p->c.mu);
	}
}

/* Wait for every chunk handed out; write out the good ones up to the
   first bad one (bad, if given, is it already). */
static struct cslot *
drain(struct cpool *p, struct cslot *bad)
{
	pthread_mutex_lock(&p->c.mu);
	while (p->next_flush < p->next_fill && bad == NULL) {
		if ((bad = flush_chunks(p)) != NULL ||
		    p->next_flush == p->next_fill)
			break;
		pthread_cond_wait(&p->c.done_cv, &p->c.mu);
	}
	pthread_mutex_unlock(&p->c.mu);
	return bad;
}

/*
 * Read the rest as run_parallel() does, from the first byte of bad chunk
 * 'from' (or of the bytes in no chunk if NULL) on; every chunk before it
 * is written.  Called with no worker left.
 */
static int
fall_back(struct jobs *j, struct cpool *p, struct cslot *from,
    struct pieces *ps)
{
	struct zh_pgn_reader *r;
	long max = j->max_games;
	size_t k;
	int rc;

	for (k = p->next_flush; from != NULL && k < p->next_fill; k++)
		if (pieces_again(ps, &p->slots[k % p->nslots].pc) != 0)
			return -1;
	if ((r = pieces_rest(ps, &j->limits)) == NULL)
		return -1;
	if (max)
		j->max_games = max - p->games;
	rc = run_parallel(j, r, p->pr);
	j->max_games = max;
	return rc;
}

static void
cpool_free(struct cpool *p)
{
	size_t i;

	for (i = 0; i < p->nslots; i++) {
		free(p->slots[i].pc.buf);
		free(p->slots[i].gm);
		obuf_free(&p->slots[i].out, p->j->keep_buffers);
		obuf_free(&p->slots[i].err, p->j->keep_buffers);
	}
	free(p->slots);
}

/* One reader on the main thread, when no worker could start. */
static int
run_one(struct jobs *j, FILE *in, struct progress *pr)
{
	struct zh_pgn_reader *r;
	int rc;

	if ((r = zh_pgn_open(in, &j->limits)) == NULL) {
		cli_fail("out of memory");
		return -1;
	}
	rc = run_serial(j, r, pr);
	zh_pgn_close(r);
	return rc;
}

static int
run_chunked(struct jobs *j, FILE *in, struct progress *pr)
{
	struct cpool p;
	struct pieces ps;
	struct cslot *bad;
	int rc = 0, k = PIECES_END;

	memset(&p, 0, sizeof p);
	p.j = j;
	p.pr = pr;
	p.nslots = (size_t)j->njobs * 3;
	if ((p.slots = calloc(p.nslots, sizeof *p.slots)) == NULL) {
		cli_fail("out of memory");
		return -1;
	}
	if (crew_start(&p.c, j->njobs, chunk_worker, &p) != 0) {
		free(p.slots);
		return run_one(j, in, pr);
	}
	pieces_open(&ps, in);
	if (j->chunk_bytes > 0 && getenv("ZH_JOBS_CHUNK") == NULL)
		ps.target = j->chunk_bytes;
	bad = drain(&p, hand_out(&p, &ps, &k));
	crew_stop(&p.c);
	if (getenv("ZH_JOBS_DEBUG"))	/* tests: was the chunk path taken? */
		fprintf(stderr, "%s: -j: %zu chunks, %ld games from chunks, %s\n",
		    cli_prog, p.next_fill, p.games, bad != NULL ||
		    k == PIECES_NOCUT ? "then one reader" : "no fallback");
	if (!ps.nomem && !j->stop && !p.enough &&
	    (bad != NULL || k == PIECES_NOCUT) && fall_back(j, &p, bad, &ps) != 0)
		rc = -1;
	if (ps.nomem || ps.rerr)
		rc = -1;
	cpool_free(&p);
	pieces_close(&ps);
	return rc;
}

/* ======================== the run ======================== */

int
jobs_option(struct jobs *j, int c, const char *arg)
{
	long n;

	switch (c) {
	case 'j':
		if ((n = cli_number(arg, 0, 64, "--jobs")) < 0)
			return -1;
		j->njobs = (int)n;
		return 1;
	case JOBS_LIMIT:
		return cli_limit(&j->limits, arg) ? 1 : -1;
	case JOBS_PROGRESS:
		j->progress = 1;
		return 1;
	case JOBS_OFFSET:
		if ((j->offset = cli_number(arg, 0, 1L << 50,
		    "--game-offset")) < 0)
			return -1;
		return 1;
	}
	return 0;
}

/* Why the input could not be read. */
static void
read_error(const struct jobs *j, FILE *in, const char *name)
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
	cli_read_error(in, name);
}

int
jobs_run(struct jobs *j, FILE *in, const char *name)
{
	struct zh_pgn_reader *r = NULL;
	struct progress pr;
	int rc;

	if (j->njobs == 0 || j->auto_jobs) {	/* each input its own */
		j->auto_jobs = true;
		j->njobs = jobs_auto(in);
	}
	j->name = name;
	memset(&j->rerr, 0, sizeof j->rerr);
	if (j->njobs <= 1 && (r = zh_pgn_open(in, &j->limits)) == NULL) {
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
		read_error(j, in, name);
	zh_pgn_close(r);
	j->before += j->seen;	/* the next input's games number on */
	j->seen = 0;
	return rc;
}
