/*
 * memtab.c - a table that grows in memory (memtab.h).
 */
#define _GNU_SOURCE		/* mremap(), MADV_HUGEPAGE, MAP_NORESERVE */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "memtab.h"

#define HUGE	((size_t)2 << 20)	/* a huge page; the mapping's unit */
#define STEP	((size_t)4 << 20)	/* faulted in by one request */
#define LEAD	((size_t)8 << 20)	/* kept faulted in ahead of the writes */
#define NJOB	16			/* requests waiting, at most */
#define KIND_MASK ((size_t)255)	/* a size's kind bits (memtab_take) */
#define BIG	((size_t)4 << 20)	/* a first mapping this large: huge
					   pages from its first byte */

/* ======================== the helper ======================== */

struct memtab_faulter {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;		/* a request, or the end */
	pthread_cond_t idle;		/* none left */
	struct job { void *p; size_t len; } job[NJOB];
	unsigned head, tail;		/* waiting: job[head..tail) mod NJOB */
	bool busy, stop;
	bool off;			/* refused: nothing asked any more */
};

static void *
faulter(void *arg)
{
	struct memtab_faulter *f = arg;
	struct job j;
	int rc = 0;

	pthread_mutex_lock(&f->mu);
	for (;;) {
		while (f->head == f->tail && !f->stop)
			pthread_cond_wait(&f->cv, &f->mu);
		if (f->head == f->tail)
			break;
		j = f->job[f->head++ % NJOB];
		f->busy = true;
		pthread_mutex_unlock(&f->mu);
#ifdef MADV_POPULATE_WRITE
		rc = madvise(j.p, j.len, MADV_POPULATE_WRITE);
#else
		rc = -1;
		errno = EINVAL;
#endif
		pthread_mutex_lock(&f->mu);
		if (rc != 0 && (errno == EINVAL || errno == ENOSYS))
			f->off = true;	/* an older kernel: Linux < 5.14 */
		f->busy = false;
		if (f->head == f->tail)
			pthread_cond_broadcast(&f->idle);
	}
	pthread_mutex_unlock(&f->mu);
	return NULL;
}

struct memtab_faulter *
memtab_faulter_new(void)
{
	struct memtab_faulter *f = calloc(1, sizeof *f);

	if (f == NULL)
		return NULL;
	pthread_mutex_init(&f->mu, NULL);
	pthread_cond_init(&f->cv, NULL);
	pthread_cond_init(&f->idle, NULL);
	if (pthread_create(&f->th, NULL, faulter, f) != 0) {
		pthread_mutex_destroy(&f->mu);
		pthread_cond_destroy(&f->cv);
		pthread_cond_destroy(&f->idle);
		free(f);
		return NULL;
	}
	return f;
}

void
memtab_faulter_free(struct memtab_faulter *f)
{
	if (f == NULL)
		return;
	pthread_mutex_lock(&f->mu);
	f->stop = true;
	pthread_cond_signal(&f->cv);
	pthread_mutex_unlock(&f->mu);
	pthread_join(f->th, NULL);
	pthread_mutex_destroy(&f->mu);
	pthread_cond_destroy(&f->cv);
	pthread_cond_destroy(&f->idle);
	free(f);
}

/* Ask f to fault in [p, p + len); false if it cannot (refused, or the
   requests are full: the writer faults the pages itself). */
static bool
ask(struct memtab_faulter *f, void *p, size_t len)
{
	bool ok;

	pthread_mutex_lock(&f->mu);
	ok = !f->off && f->tail - f->head < NJOB;
	if (ok) {
		f->job[f->tail++ % NJOB] = (struct job){ p, len };
		pthread_cond_signal(&f->cv);
	}
	pthread_mutex_unlock(&f->mu);
	return ok;
}

/* Until f has no request left: before pages it was asked for move or
   go (it would fault in the addresses left behind). */
static void
settle(struct memtab_faulter *f)
{
	if (f == NULL)
		return;
	pthread_mutex_lock(&f->mu);
	while (f->head != f->tail || f->busy)
		pthread_cond_wait(&f->idle, &f->mu);
	pthread_mutex_unlock(&f->mu);
}

/* ======================== the mapping ======================== */

static size_t
round_up(size_t n, size_t unit)
{
	return (n + unit - 1) / unit * unit;
}

/* Huge pages for m past its first 2 MB (a small table stays in pages of
   4 KB), or from its first byte if its first mapping was BIG. */
static void
advise(const struct memtab *m)
{
	size_t from = m->huge0 ? 0 : HUGE;

#ifdef MADV_HUGEPAGE
	if (m->size > from)
		(void)madvise(m->p + from, m->size - from, MADV_HUGEPAGE);
#else
	(void)from;
#endif
}

/* size bytes (a multiple of HUGE) of new addresses aligned to HUGE, so
   that huge pages can back them: NULL if none. */
static unsigned char *
map_aligned(size_t size)
{
	unsigned char *q, *a;
	size_t head;

	if (size > SIZE_MAX - HUGE)
		return NULL;
	q = mmap(NULL, size + HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (q == MAP_FAILED)
		return NULL;
	a = (unsigned char *)round_up((uintptr_t)q, HUGE);
	head = (size_t)(a - q);
	if (head > 0)
		munmap(q, head);
	munmap(a + size, HUGE - head);
	return a;
}

/* ======================== the pool ======================== */

/*
 * The mappings of tables freed, kept for the next tables (POOL_N at
 * most, POOL_MAX bytes at most, the oldest given back first): a read
 * after a read takes pages that are there, without the kernel's page
 * faults and zeroing (130 MB for zh.pgn's tables, ~20 ms).  Their
 * bytes are stale; the tables are written before they are read.
 */
#define POOL_N		8
#define POOL_MAX	((size_t)256 << 20)

static struct pooled {
	unsigned char *p;
	size_t size;
	unsigned kind;
} pool[POOL_N];
static int npool;
static size_t pooled;
static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t pool_once = PTHREAD_ONCE_INIT;

/* A fork while a thread holds the lock (a read in one Python thread,
   os.fork in another) leaves the child a lock nobody will unlock: held
   across the fork, as malloc's own. */
static void
pool_lock(void)
{
	pthread_mutex_lock(&pool_mu);
}

static void
pool_unlock(void)
{
	pthread_mutex_unlock(&pool_mu);
}

static void
pool_init(void)
{
	(void)pthread_atfork(pool_lock, pool_unlock, pool_unlock);
}

/* A mapping of the pool for a table of this kind that needs 'need'
   bytes and is guessed to need 'want' (>= need), its size in *size: of
   the same kind, the smallest with room for want, else the largest with
   room for need, if not more than 4 times want (its tail would go back
   unused); NULL if none. */
static unsigned char *
pool_take(unsigned kind, size_t need, size_t want, size_t *size)
{
	unsigned char *p = NULL;
	int i, best = -1;

	pthread_once(&pool_once, pool_init);
	pthread_mutex_lock(&pool_mu);
	for (i = 0; i < npool; i++) {
		size_t s = pool[i].size;

		if (pool[i].kind != kind || s < need || s / 4 > want)
			continue;
		if (best < 0 || (s >= want ? pool[best].size < want ||
		    s < pool[best].size : pool[best].size < s))
			best = i;
	}
	if (best >= 0) {
		p = pool[best].p;
		*size = pool[best].size;
		pooled -= pool[best].size;
		memmove(&pool[best], &pool[best + 1], (size_t)(npool - best -
		    1) * sizeof *pool);
		npool--;
	}
	pthread_mutex_unlock(&pool_mu);
	return p;
}

/* p (size bytes, a table of this kind) kept in the pool, or given
   back. */
static void
pool_put(unsigned char *p, size_t size, unsigned kind)
{
	unsigned char *out[POOL_N + 1];
	size_t outsize[POOL_N + 1];
	int nout = 0, i;

	pthread_once(&pool_once, pool_init);
	pthread_mutex_lock(&pool_mu);
	if (size > POOL_MAX || size < HUGE) {
		out[nout] = p, outsize[nout++] = size;
	} else {
		while (npool == POOL_N || pooled + size > POOL_MAX) {
			out[nout] = pool[0].p, outsize[nout++] = pool[0].size;
			pooled -= pool[0].size;
			memmove(&pool[0], &pool[1], (size_t)(npool - 1) *
			    sizeof *pool);
			npool--;
		}
		pool[npool++] = (struct pooled){ p, size, kind };
		pooled += size;
	}
	pthread_mutex_unlock(&pool_mu);
	for (i = 0; i < nout; i++)	/* (outside the lock) */
		munmap(out[i], outsize[i]);
}

size_t
memtab_trim(void)
{
	struct pooled out[POOL_N];
	size_t bytes;
	int n, i;

	pthread_once(&pool_once, pool_init);
	pthread_mutex_lock(&pool_mu);
	n = npool;
	memcpy(out, pool, (size_t)n * sizeof *pool);
	bytes = pooled;
	npool = 0;
	pooled = 0;
	pthread_mutex_unlock(&pool_mu);
	for (i = 0; i < n; i++)
		munmap(out[i].p, out[i].size);
	return bytes;
}

/* m grown to at least want bytes (a multiple of HUGE): in place, or its
   pages moved to new addresses (no byte copied); false if out of
   memory. */
static bool
grow(struct memtab *m, size_t want, struct memtab_faulter *f)
{
	size_t size = m->size * 2 > want ? m->size * 2 : want;
	size_t hint = m->hint < SIZE_MAX / 2 ? round_up(m->hint, HUGE) : 0;
	unsigned char *q;

	if (m->p == NULL) {
		if ((q = pool_take(m->kind, size, hint > size ? hint : size,
		    &m->size)) != NULL) {
			m->p = q;	/* its pages are there: not asked for */
			m->ahead = m->size;
			m->huge0 = true;
			return true;
		}
		if (hint > size && (q = map_aligned(hint)) != NULL)
			size = hint;	/* the guess, if it can be had */
		else if ((q = map_aligned(size)) == NULL)
			return false;
		m->p = q;
		m->size = size;
		m->huge0 = size >= BIG;
		advise(m);
		return true;
	}
	settle(f);
	q = mremap(m->p, m->size, size, 0);
	if (q == MAP_FAILED) {
		if ((q = map_aligned(size)) == NULL)
			return false;
		if (mremap(m->p, m->size, m->size, MREMAP_MAYMOVE |
		    MREMAP_FIXED, q) == MAP_FAILED) {
			munmap(q, size);
			return false;
		}
	}
	m->p = q;
	m->size = size;
	advise(m);
	return true;
}

size_t
memtab_room(struct memtab *m, size_t used, size_t need,
    struct memtab_faulter *f)
{
	size_t end, len;

	if (need > SIZE_MAX - HUGE - used)
		return 0;
	if (used + need > m->size && !grow(m, round_up(used + need, HUGE),
	    f))
		return 0;
	if (m->ahead < used)	/* the writes went past the helper */
		m->ahead = round_up(used, HUGE);
	end = used + need + LEAD < m->size ? used + need + LEAD : m->size;
	while (f != NULL && m->ahead < end) {
		len = m->size - m->ahead < STEP ? m->size - m->ahead : STEP;
		if (!ask(f, m->p + m->ahead, len))
			return m->size;		/* the writer's own */
		m->ahead += len;
	}
	if (f == NULL || m->ahead >= m->size)
		return m->size;
	/* back when half the lead is used */
	return m->ahead - LEAD / 2 > used + need ? m->ahead - LEAD / 2 :
	    used + need;
}

unsigned char *
memtab_take(struct memtab *m, size_t used, size_t *size,
    struct memtab_faulter *f)
{
	unsigned char *p = m->p;
	size_t keep;

	settle(f);
	*size = 0;
	if (p != NULL && used == 0) {
		munmap(p, m->size);
		p = NULL;
	} else if (p != NULL) {
		/* the pages past the records go back (those faulted in
		   ahead); a huge page is not cut */
		keep = round_up(used, used > HUGE ? HUGE :
		    (size_t)sysconf(_SC_PAGESIZE));
		if (keep < m->size)
			munmap(p + keep, m->size - keep);
		*size = (keep < m->size ? keep : m->size) | m->kind;
	}
	m->p = NULL;
	m->size = m->ahead = 0;
	return p;
}

void
memtab_free(void *p, size_t size)
{
	size_t kind = size & KIND_MASK;

	if (p != NULL)
		pool_put(p, size - kind, (unsigned)kind);
}
