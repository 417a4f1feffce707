/*
 * memtab.c - cli/memtab.c's tables (the Python module's, npy_open_mem):
 * the first mapping takes the hint and is aligned for huge pages; a
 * table grows in place or, when the addresses after it are taken, moves
 * with its bytes; the helper's requests and the writer's bytes agree;
 * a table handed over keeps its bytes and gives back its tail.
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

static void
grows(struct memtab_faulter *f)
{
	struct memtab m = { .hint = 3 * MB };	/* rounded to 4 MB */
	size_t lim, used = 0, size;
	unsigned char *p, *was, *block;

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

int
main(void)
{
	struct memtab_faulter *f = memtab_faulter_new();

	CHECK(f != NULL);
	grows(f);
	memtab_faulter_free(f);
	grows(NULL);		/* no helper: the writer faults pages in */
	return check_report("memtab");
}
