/*
 * sort.c - the records in bounded memory: held in one buffer of the
 * size --memory gives; when it is full, sorted and written as a run to
 * a temporary file (made in the output's directory and unlinked at
 * once: nothing is left behind however the run ends); at the end the
 * runs and the last buffer merged by a heap, one record at a time.
 * With threads (zhi_sort_threads), the last buffer is split by its keys'
 * top byte and the 256 parts sorted by them while the caller already
 * takes the sorted ones from the front.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "zhi.h"

struct run {
	FILE *f;
	struct zhi_rec cur;
};

struct zhi_sort {
	struct zhi_rec *buf;
	size_t n, cap, pos;
	char *dir;
	struct run *runs;
	size_t nruns;
	int *heap;		/* run numbers; -1: the buffer */
	size_t nheap;
	struct zhi_rec bcur;
	long count;
	/* the last buffer sorted by threads: */
	int threads;		/* how many to use (0: none) */
	pthread_t *tid;
	int nt;			/* running */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	size_t bstart[257];	/* its parts by the top byte */
	int nextb;		/* the next part to sort */
	unsigned char done[256];
	int nready;		/* parts sorted from the first */
	size_t ready;		/* buf[0..ready) in order (under mu) */
	size_t seen;		/* ready as the caller last read it */
};

static inline int
cmp(const struct zhi_rec *a, const struct zhi_rec *b)
{
	if (a->hi != b->hi)
		return a->hi < b->hi ? -1 : 1;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	if (a->game != b->game)
		return a->game < b->game ? -1 : 1;
	if (a->move != b->move)
		return a->move < b->move ? -1 : 1;
	return (a->board > b->board) - (a->board < b->board);
}

static inline void
swap(struct zhi_rec *a, struct zhi_rec *b)
{
	struct zhi_rec t = *a;

	*a = *b;
	*b = t;
}

/* The records sorted in place: quicksort, the median of three as the
   pivot, the smaller side first by recursion (depth at most log n), runs
   under 16 by insertion; the comparison inlined (qsort's callback was a
   tenth of a build). */
static void
quick_recs(struct zhi_rec *v, size_t n)
{
	while (n > 16) {
		size_t i = 0, j = n - 1, m = n / 2;
		struct zhi_rec pv;

		if (cmp(&v[m], &v[0]) < 0)
			swap(&v[m], &v[0]);
		if (cmp(&v[j], &v[0]) < 0)
			swap(&v[j], &v[0]);
		if (cmp(&v[j], &v[m]) < 0)
			swap(&v[j], &v[m]);
		pv = v[m];
		for (;;) {
			while (cmp(&v[i], &pv) < 0)
				i++;
			while (cmp(&pv, &v[j]) < 0)
				j--;
			if (i >= j)
				break;
			swap(&v[i++], &v[j--]);
		}
		/* v[0..j] <= pv <= v[j+1..n-1] */
		if (j + 1 < n - j - 1) {
			quick_recs(v, j + 1);
			v += j + 1;
			n -= j + 1;
		} else {
			quick_recs(v + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	for (size_t i = 1; i < n; i++) {
		struct zhi_rec t = v[i];
		size_t k = i;

		for (; k > 0 && cmp(&t, &v[k - 1]) < 0; k--)
			v[k] = v[k - 1];
		v[k] = t;
	}
}

/* v[0..n) into 256 buckets by the byte of the key's high half at
   shift (an American flag sort's pass: counted, then each record
   swapped into its byte's bucket), their sizes into count. */
static void
split(struct zhi_rec *v, size_t n, int shift, size_t count[256])
{
	size_t next[256], end[256], i, at = 0;
	int b;

	memset(count, 0, 256 * sizeof *count);
	for (i = 0; i < n; i++)
		count[(v[i].hi >> shift) & 0xff]++;
	for (b = 0; b < 256; b++) {
		next[b] = at;
		at += count[b];
		end[b] = at;
	}
	for (b = 0; b < 256; b++)
		while (next[b] < end[b]) {
			int d = (int)((v[next[b]].hi >> shift) & 0xff);

			if (d == b)
				next[b]++;
			else
				swap(&v[next[b]], &v[next[d]++]);
		}
}

/*
 * The records sorted in place by their key's high half a byte at a time
 * from the top, each bucket by the next byte, the small ones (and the
 * rest of a key) by quick_recs: the keys are hashes, so two bytes leave
 * a few records a bucket, which a quicksort of the whole would compare
 * some twenty times each.
 */
static void
sort_recs(struct zhi_rec *v, size_t n, int shift)
{
	size_t count[256], at;
	int b;

	if (n < 64 || shift < 0) {
		quick_recs(v, n);
		return;
	}
	split(v, n, shift, count);
	for (b = 0, at = 0; b < 256; at += count[b++])
		if (count[b] > 1)
			sort_recs(v + at, count[b], shift - 8);
}

/* A sorting thread: parts of the last buffer, the next not taken each
   time; the sorted prefix published to the caller. */
static void *
sorter(void *arg)
{
	struct zhi_sort *s = arg;
	int b;

	for (;;) {
		pthread_mutex_lock(&s->mu);
		b = s->nextb < 256 ? s->nextb++ : -1;
		pthread_mutex_unlock(&s->mu);
		if (b < 0)
			return NULL;
		sort_recs(s->buf + s->bstart[b], s->bstart[b + 1] -
		    s->bstart[b], 48);
		pthread_mutex_lock(&s->mu);
		s->done[b] = 1;
		while (s->nready < 256 && s->done[s->nready])
			s->nready++;
		s->ready = s->bstart[s->nready];
		pthread_cond_broadcast(&s->cv);
		pthread_mutex_unlock(&s->mu);
	}
}

/* The last buffer split by the top byte, its parts given to threads:
   0, or -1 if none could start (then sorted here). */
static int
sort_threaded(struct zhi_sort *s)
{
	size_t count[256];
	int b;

	if (s->threads < 1 || s->n < 4096)
		return -1;
	if ((s->tid = malloc((size_t)s->threads * sizeof *s->tid)) == NULL)
		return -1;
	split(s->buf, s->n, 56, count);
	for (b = 0; b < 256; b++)
		s->bstart[b + 1] = s->bstart[b] + count[b];
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	for (s->nt = 0; s->nt < s->threads; s->nt++)
		if (pthread_create(&s->tid[s->nt], NULL, sorter, s) != 0)
			break;
	if (s->nt > 0)
		return 0;
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->cv);
	free(s->tid);
	s->tid = NULL;
	for (b = 0; b < 256; b++)
		sort_recs(s->buf + s->bstart[b], count[b], 48);
	return 0;
}

/* The threads done (every part sorted). */
static void
sort_join(struct zhi_sort *s)
{
	for (; s->nt > 0; s->nt--)
		pthread_join(s->tid[s->nt - 1], NULL);
	if (s->tid != NULL) {
		pthread_mutex_destroy(&s->mu);
		pthread_cond_destroy(&s->cv);
		free(s->tid);
		s->tid = NULL;
	}
}

/* The buffer's records up to at least pos+1 in their order (waiting for
   the threads sorting it, if any). */
static void
sort_wait(struct zhi_sort *s)
{
	if (s->nt == 0 || s->pos < s->seen)
		return;
	pthread_mutex_lock(&s->mu);
	while (s->ready <= s->pos)
		pthread_cond_wait(&s->cv, &s->mu);
	s->seen = s->ready;
	pthread_mutex_unlock(&s->mu);
	if (s->seen == s->n)
		sort_join(s);
}

struct zhi_sort *
zhi_sort_new(size_t memory, const char *dir)
{
	struct zhi_sort *s = calloc(1, sizeof *s);

	if (s == NULL)
		return NULL;
	s->cap = memory / sizeof *s->buf;
	if (s->cap < 1024)
		s->cap = 1024;
	if ((s->dir = strdup(dir)) == NULL) {
		free(s);
		return NULL;
	}
	return s;
}

/* The buffer sorted and written as a run. */
static int
spill(struct zhi_sort *s)
{
	size_t len = strlen(s->dir) + 32;
	char *name = malloc(len);
	struct run *r;
	FILE *f;
	int fd;

	if (name == NULL)
		return -1;
	snprintf(name, len, "%s/.zhindex-run.XXXXXX", s->dir);
	if ((fd = mkstemp(name)) < 0) {
		free(name);
		return -1;
	}
	unlink(name);
	free(name);
	if ((f = fdopen(fd, "w+")) == NULL) {
		close(fd);
		return -1;
	}
	if ((r = realloc(s->runs, (s->nruns + 1) * sizeof *r)) == NULL) {
		fclose(f);
		return -1;
	}
	s->runs = r;
	s->runs[s->nruns++].f = f;
	sort_recs(s->buf, s->n, 56);
	if (fwrite(s->buf, sizeof *s->buf, s->n, f) != s->n || fflush(f) != 0)
		return -1;
	s->n = 0;
	return 0;
}

int
zhi_sort_add(struct zhi_sort *s, const struct zhi_rec *r)
{
	if (s->buf == NULL) {
		size_t first = s->cap < 65536 ? s->cap : 65536;

		if ((s->buf = malloc(first * sizeof *s->buf)) == NULL)
			return -1;
		s->pos = first;		/* the buffer's size so far */
	}
	if (s->n == s->pos && s->pos < s->cap) {
		size_t c = s->pos * 2 < s->cap ? s->pos * 2 : s->cap;
		struct zhi_rec *b = realloc(s->buf, c * sizeof *b);

		if (b == NULL)
			return -1;
		s->buf = b;
		s->pos = c;
	}
	if (s->n == s->cap && spill(s) != 0)
		return -1;
	s->buf[s->n++] = *r;
	s->count++;
	return 0;
}

static const struct zhi_rec *
head(const struct zhi_sort *s, int i)
{
	return i < 0 ? &s->bcur : &s->runs[i].cur;
}

static void
sift(struct zhi_sort *s, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		int t;

		if (l < s->nheap && cmp(head(s, s->heap[l]), head(s, s->heap[m])) < 0)
			m = l;
		if (l + 1 < s->nheap &&
		    cmp(head(s, s->heap[l + 1]), head(s, s->heap[m])) < 0)
			m = l + 1;
		if (m == i)
			return;
		t = s->heap[i];
		s->heap[i] = s->heap[m];
		s->heap[m] = t;
		i = m;
	}
}

/* The next record of source i into its head: 1, 0 at its end, -1. */
static int
advance(struct zhi_sort *s, int i)
{
	if (i < 0) {
		if (s->pos >= s->n)
			return 0;
		sort_wait(s);
		s->bcur = s->buf[s->pos++];
		return 1;
	}
	if (fread(&s->runs[i].cur, sizeof s->runs[i].cur, 1, s->runs[i].f) == 1)
		return 1;
	return ferror(s->runs[i].f) ? -1 : 0;
}

int
zhi_sort_finish(struct zhi_sort *s)
{
	size_t i;
	int rc;

	if (s->n > 0 && sort_threaded(s) != 0)
		sort_recs(s->buf, s->n, 56);
	s->pos = 0;
	if ((s->heap = malloc((s->nruns + 1) * sizeof *s->heap)) == NULL)
		return -1;
	for (i = 0; i < s->nruns; i++) {
		if (fseek(s->runs[i].f, 0, SEEK_SET) != 0)
			return -1;
		setvbuf(s->runs[i].f, NULL, _IOFBF, 1 << 16);
		if ((rc = advance(s, (int)i)) < 0)
			return -1;
		if (rc > 0)
			s->heap[s->nheap++] = (int)i;
	}
	if (advance(s, -1) > 0)
		s->heap[s->nheap++] = -1;
	for (i = s->nheap; i-- > 0;)
		sift(s, i);
	return 0;
}

int
zhi_sort_next(struct zhi_sort *s, struct zhi_rec *r)
{
	int i, rc;

	if (s->nheap == 0)
		return 0;
	i = s->heap[0];
	*r = *head(s, i);
	if ((rc = advance(s, i)) < 0)
		return -1;
	if (rc == 0)
		s->heap[0] = s->heap[--s->nheap];
	sift(s, 0);
	return 1;
}

void
zhi_sort_threads(struct zhi_sort *s, int n)
{
	s->threads = n > 8 ? 8 : n;
}

long
zhi_sort_count(const struct zhi_sort *s)
{
	return s->count;
}

long
zhi_sort_runs(const struct zhi_sort *s)
{
	return (long)s->nruns;
}

void
zhi_sort_free(struct zhi_sort *s)
{
	size_t i;

	if (s == NULL)
		return;
	sort_join(s);
	for (i = 0; i < s->nruns; i++)
		fclose(s->runs[i].f);
	free(s->runs);
	free(s->heap);
	free(s->buf);
	free(s->dir);
	free(s);
}
