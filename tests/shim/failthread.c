/* LD_PRELOAD shim for tests/jobs.bats: pthread_create fails with EAGAIN
 * on its Nth call (N from ZH_FAIL_THREAD), as when a process is at its
 * thread limit; every other call goes to libc's. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

typedef int create_fn(pthread_t *, const pthread_attr_t *,
    void *(*)(void *), void *);

int
pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *),
    void *arg)
{
	static int calls;
	static create_fn *real;
	const char *s = getenv("ZH_FAIL_THREAD");

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "pthread_create");
	if (s != NULL && ++calls == atoi(s))
		return EAGAIN;
	return real(t, a, fn, arg);
}
