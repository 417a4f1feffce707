/*
 * memtab.h - a table that grows in memory (npy.c's tables kept for the
 * Python module, npy_open_mem): an anonymous mapping of its own, so that
 *
 * - it grows without a byte copied: mremap moves its pages (in place
 *   when the addresses after it are free), never malloc's realloc,
 *   which copies while a block is below glibc's mmap threshold (up to
 *   32 MB once a large block was freed);
 * - its first mapping can be as large as the input suggests (a guess:
 *   the addresses cost nothing until written, MAP_NORESERVE);
 * - past its first 2 MB (from its first byte if the guess was 4 MB or
 *   more) it asks for transparent huge pages (madvise MADV_HUGEPAGE,
 *   where the system offers them: a fault makes 512 pages of 4 KB at
 *   once);
 * - the pages ahead of the writes are faulted in on a helper thread
 *   (MADV_POPULATE_WRITE, a hint: nothing if the kernel refuses), a few
 *   MB at a time, so the kernel's zeroing of new pages is off the
 *   writer's path while a core is free;
 * - it is handed over as it is (memtab_take), its unused tail given
 *   back, and freed with memtab_free into a pool that the next table
 *   of its kind takes its pages from: a read after a read (the Python
 *   module's) skips the kernel's page faults and zeroing.
 */
#ifndef MEMTAB_H
#define MEMTAB_H
#include <stdbool.h>
#include <stddef.h>

struct memtab {
	unsigned char *p;	/* NULL: not mapped yet */
	size_t size;		/* bytes mapped */
	size_t ahead;		/* bytes from p faulted in or asked to be */
	size_t hint;		/* the first mapping's size, at least */
	bool huge0;		/* huge pages from its first byte */
	unsigned kind;		/* 0..255: what table (a freed table's
				   pages go to the next of its kind) */
};

/* The helper thread that faults pages in, one for a set of tables;
   NULL (none: the writer faults them in) is a valid helper. */
struct memtab_faulter;
struct memtab_faulter *memtab_faulter_new(void);
void memtab_faulter_free(struct memtab_faulter *f);

/*
 * Room in m for used + need bytes (mapped first, or grown, the bytes
 * kept), and the pages up to a few MB past them asked of f: the bytes
 * m may be filled to before the next call (more than used + need), or
 * 0 if out of memory (m as it was).
 */
size_t memtab_room(struct memtab *m, size_t used, size_t need,
    struct memtab_faulter *f);
/* The first 'used' bytes of m handed over (NULL if none; what to pass
   to memtab_free in *size: the bytes mapped, a multiple of the page
   size, plus m's kind); m is empty again, its hint and kind kept. */
unsigned char *memtab_take(struct memtab *m, size_t used, size_t *size,
    struct memtab_faulter *f);
/* A table handed over freed: its pages kept for the next table of its
   kind (the pool: 8 mappings of 2 MB and more, 256 MB at most), or
   given back. */
void memtab_free(void *p, size_t size);
/* The pool given back to the system: its bytes. */
size_t memtab_trim(void);
#endif
