/* check.h - the whole unit-test harness: CHECK(cond) and check_report(). */
#ifndef CHECK_H
#define CHECK_H
#include <stdio.h>

static int check_failed, check_run;

#define CHECK(c) do { check_run++; if (!(c)) { check_failed++; \
	fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c); } } while (0)

static inline int
check_report(const char *name)
{
	fprintf(stderr, "%s: %d checks, %d failed\n", name, check_run, check_failed);
	return check_failed != 0;
}
#endif
