/*
 * memtab.c - cli/memtab.c's tables (the Python module's, npy_open_mem):
 * the first mapping takes the hint and is aligned for huge pages; a
 * table grows in place or, when the addresses after it are taken, moves
 * with its bytes; the helper's requests and the writer's bytes agree;
 * a table handed over keeps its bytes and gives back its tail; a table
 * freed is kept in the pool for the next (its pages there, never one a
 * live table has), up to POOL_MAX bytes.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "check.h"
#include "../../cli/memtab.c"

#define MB ((size_t)1 << 20)

/* Bytes [from, to) of m written with their own offsets' low bytes. */
static void
fill(struct memtab *m, size_t from, size_t to)
{
	size_t i;

	for (i = from; i < to; i++)
		m->p[i] = (unsigned char)(i * 7 + (i >> 12));
}

static int
same(const unsigned char *p, size_t to)
{
	size_t i;

	for (i = 0; i < to; i++)
		if (p[i] != (unsigned char)(i * 7 + (i >> 12)))
			return 0;
	return 1;
}

/* The pool given back (each test starts without one). */
static void
drain(void)
{
	while (npool > 0)
		npool--, munmap(pool[npool].p, pool[npool].size);
	pooled = 0;
}

static void
grows(struct memtab_faulter *f)
{
	struct memtab m = { .hint = 3 * MB };	/* rounded to 4 MB */
	size_t lim, used = 0, size;
	unsigned char *p, *was, *block;

	drain();

	lim = memtab_room(&m, 0, 100, f);
	CHECK(m.p != NULL && m.size == 4 * MB);
	CHECK(((uintptr_t)m.p & (HUGE - 1)) == 0);
	CHECK(lim >= 100 && lim <= m.size);
	/* written up to each limit given, as npy.c's sink does */
	while (used < 3 * MB) {
		if (used + 4096 > lim)
			lim = memtab_room(&m, used, 4096, f);
		CHECK(lim >= used + 4096);
		fill(&m, used, used + 4096);
		used += 4096;
	}
	fill(&m, used, m.size);
	/* the addresses after it taken: it moves, its bytes with it */
	was = m.p;
	block = mmap(m.p + m.size, HUGE, PROT_NONE, MAP_PRIVATE |
	    MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	used = m.size;
	lim = memtab_room(&m, used, 100, f);
	CHECK(lim >= used + 100 && m.size >= 2 * used);
	CHECK(block == was + used);	/* Linux 4.17 on */
	CHECK(m.p != was);
	CHECK(((uintptr_t)m.p & (HUGE - 1)) == 0);
	CHECK(same(m.p, used));
	fill(&m, used, m.size);
	/* in place (nothing after it now) */
	if (block != MAP_FAILED)
		munmap(block, HUGE);
	used = m.size + 12345;
	CHECK(memtab_room(&m, m.size, 12345, f) >= used);
	fill(&m, m.size / 2, used);
	/* handed over: the bytes, the tail given back */
	p = memtab_take(&m, used, &size, f);
	CHECK(p != NULL && size >= used && size < used + HUGE);
	CHECK(same(p, used));
	CHECK(m.p == NULL && m.size == 0 && m.hint == 3 * MB);
	memtab_free(p, size);
	/* an empty one: nothing handed over */
	CHECK(memtab_room(&m, 0, 1, f) > 0);
	CHECK(memtab_take(&m, 0, &size, f) == NULL && size == 0);
	/* a small one: pages of 4 KB, cut to the page */
	m.hint = 0;
	CHECK(memtab_room(&m, 0, 5000, f) >= 5000);
	fill(&m, 0, 5000);
	p = memtab_take(&m, 5000, &size, f);
	CHECK(p != NULL && same(p, 5000) &&
	    size == round_up(5000, (size_t)sysconf(_SC_PAGESIZE)));
	memtab_free(p, size);
}

/* An anonymous mapping of size bytes freed into the pool, as a table
   handed over is. */
static unsigned char *
pool_one(size_t size)
{
	unsigned char *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	CHECK(p != MAP_FAILED);
	memtab_free(p, size);
	return p;
}

/* t handed over (used bytes) and freed into the pool. */
static void
give(struct memtab *t, size_t used, struct memtab_faulter *f)
{
	size_t size;
	unsigned char *p = memtab_take(t, used, &size, f);

	memtab_free(p, size);
}

static void
pooling(struct memtab_faulter *f)
{
	struct memtab a = { .hint = 6 * MB }, b = { .hint = 6 * MB };
	struct memtab c = { 0 };
	unsigned char *pa, *p;
	size_t sa, sb;

	drain();
	CHECK(memtab_room(&a, 0, 5 * MB, f) >= 5 * MB);
	fill(&a, 0, 5 * MB);
	pa = memtab_take(&a, 5 * MB, &sa, f);
	CHECK(pa != NULL && sa == 6 * MB);
	memtab_free(pa, sa);
	CHECK(npool == 1 && pooled == sa);
	/* the next table takes it, its stale bytes there until written */
	CHECK(memtab_room(&b, 0, 100, f) >= 100);
	CHECK(b.p == pa && b.size == sa && npool == 0 && pooled == 0);
	CHECK(same(b.p, 5 * MB));
	/* while b is live, another table gets other pages */
	CHECK(memtab_room(&c, 0, 100, f) >= 100 && c.p != b.p);
	give(&c, 100, f);		/* (less than HUGE: given back) */
	CHECK(npool == 0);
	p = memtab_take(&b, 4 * MB, &sb, f);
	CHECK(p == pa && sb == 4 * MB);
	memtab_free(p, sb);
	CHECK(npool == 1 && pooled == 4 * MB);
	/* a table needing 2 MB takes a mapping up to 4 times that, not
	   more (the rest would go back unused) */
	drain();
	p = pool_one(16 * MB);
	CHECK(memtab_room(&c, 0, 100, f) >= 100 && c.p != p &&
	    c.size == HUGE && npool == 1);
	give(&c, 100, f);
	drain();
	p = pool_one(8 * MB);
	CHECK(memtab_room(&c, 0, 100, f) >= 100 && c.p == p &&
	    c.size == 8 * MB && npool == 0);
	give(&c, HUGE + 1, f);
	CHECK(npool == 1 && pooled == 4 * MB);
	/* a table needing more than any: its own */
	CHECK(memtab_room(&c, 0, 5 * MB, f) >= 5 * MB && c.p != p);
	give(&c, 0, f);
	CHECK(npool == 1);
	/* no more than POOL_MAX kept, POOL_N mappings: the oldest go back
	   first */
	pool_one(POOL_MAX - 4 * MB);
	CHECK(pooled == POOL_MAX && npool == 2);
	p = pool_one(8 * MB);
	CHECK(pooled == 8 * MB && npool == 1 && pool[0].p == p);
	drain();
	for (sa = 0; sa < POOL_N + 3; sa++)
		p = pool_one(2 * MB);
	CHECK(npool == POOL_N && pool[POOL_N - 1].p == p);
	pool_one(POOL_MAX + 2 * MB);	/* too large: given back */
	CHECK(npool == POOL_N && pooled == POOL_N * 2 * MB);
	/* all given back at once */
	CHECK(memtab_trim() == POOL_N * 2 * MB && npool == 0 && pooled == 0);
	CHECK(memtab_trim() == 0);
	CHECK(memtab_room(&c, 0, 100, f) >= 100 && c.p != p);
	give(&c, 0, f);
	drain();
}

int
main(void)
{
	struct memtab_faulter *f = memtab_faulter_new();

	CHECK(f != NULL);
	grows(f);
	pooling(f);
	drain();
	memtab_faulter_free(f);
	grows(NULL);		/* no helper: the writer faults pages in */
	return check_report("memtab");
}
