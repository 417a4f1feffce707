/*
 * source.c - an input of the module: a path (read as the tools read a
 * file: cli_open, compressed or not), bytes or a file object, fed to
 * the reader through a socket pair by a feeder thread (the codec peeks
 * at a socket as at a pipe, so compressed bytes are decompressed too).
 */
#define _GNU_SOURCE
#include "zhkit_py.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cli.h"
#include "codec.h"
#include "parquet_read.h"

/* ======================== inputs ======================== */

/* A file object's read(): bytes, or NULL at its end or an error (kept
   in s->exc). */
static PyObject *
file_read(struct src *s)
{
	PyObject *b = PyObject_CallMethod(s->file, "read", "n",
	    (Py_ssize_t)65536);

	if (b != NULL && !PyBytes_Check(b)) {
		Py_DECREF(b);
		PyErr_SetString(PyExc_TypeError, "zhkit.read: a file object "
		    "must be opened in binary mode ('rb')");
		b = NULL;
	}
	if (b == NULL) {
		PyObject *t, *v, *tb;

		PyErr_Fetch(&t, &v, &tb);
		PyErr_NormalizeException(&t, &v, &tb);
		s->exc = v;
		Py_XDECREF(t);
		Py_XDECREF(tb);
	}
	return b;
}

static bool
send_all(int fd, const char *p, size_t n)
{
	ssize_t k;

	while (n > 0) {
		if ((k = send(fd, p, n, MSG_NOSIGNAL)) < 0) {
			if (errno == EINTR)
				continue;
			return false;	/* the reader stopped */
		}
		p += k;
		n -= (size_t)k;
	}
	return true;
}

/* The feeder thread: bytes or a file object's into the socket. */
static void *
feeder(void *arg)
{
	struct src *s = arg;
	PyGILState_STATE gs;
	PyObject *b;
	bool more = true;

	if (s->has_view)
		send_all(s->wfd, s->view.buf, (size_t)s->view.len);
	while (s->file != NULL && more) {
		gs = PyGILState_Ensure();
		b = file_read(s);
		PyGILState_Release(gs);
		if (b == NULL)
			break;
		more = PyBytes_GET_SIZE(b) > 0 && send_all(s->wfd,
		    PyBytes_AS_STRING(b), (size_t)PyBytes_GET_SIZE(b));
		gs = PyGILState_Ensure();
		Py_DECREF(b);
		PyGILState_Release(gs);
	}
	close(s->wfd);
	return NULL;
}

/* Bytes of a Parquet file, which is read by seeking in it: a file in
   memory (memfd) holding them. */
static FILE *
parquet_bytes(struct src *s)
{
	const char *p = s->view.buf;
	size_t n = (size_t)s->view.len;
	ssize_t k;
	int fd = memfd_create("zhkit-parquet", MFD_CLOEXEC), e;
	FILE *f = NULL;

	while (fd >= 0 && n > 0)
		if ((k = write(fd, p, n)) >= 0) {
			p += k;
			n -= (size_t)k;
		} else if (errno != EINTR)
			break;
	if (fd >= 0 && n == 0 && lseek(fd, 0, SEEK_SET) == 0 &&
	    (f = fdopen(fd, "r")) != NULL)
		return pqr_ropen(f);
	e = errno;
	if (fd >= 0)
		close(fd);
	cli_fail("%s: %s", s->name, strerror(e));
	return NULL;
}

/* Input s opened (its feeder started): NULL after a message. */
FILE *
zk_src_open(struct src *s)
{
	const char *name;
	int sv[2];
	FILE *f;

	if (s->path != NULL)
		return cli_open(s->path, &name);
	if (s->has_view && s->view.len >= 4 && pqr_magic(s->view.buf, 4))
		return parquet_bytes(s);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		cli_fail("%s: %s", s->name, strerror(errno));
		return NULL;
	}
	s->wfd = sv[1];
	if (pthread_create(&s->feeder, NULL, feeder, s) != 0) {
		close(sv[0]);
		close(sv[1]);
		cli_fail("%s: cannot start a thread", s->name);
		return NULL;
	}
	s->feeding = true;
	if ((f = fdopen(sv[0], "r")) == NULL) {
		close(sv[0]);
		cli_fail("%s: out of memory", s->name);
		return NULL;
	}
	return cli_stream(f, codec_ropen(f));
}

/* Input s closed, its feeder ended. */
void
zk_src_close(struct src *s, FILE *f)
{
	if (f != NULL)
		fclose(f);	/* the feeder's sends fail now */
	if (s->feeding) {
		pthread_join(s->feeder, NULL);
		s->feeding = false;
	}
}

int
zk_src_init(struct src *s, PyObject *tuple)
{
	const char *kind, *name;
	PyObject *obj;

	memset(s, 0, sizeof *s);
	if (!PyArg_ParseTuple(tuple, "sOs", &kind, &obj, &name))
		return -1;
	if ((s->name = strdup(name)) == NULL)
		return PyErr_NoMemory(), -1;
	if (strcmp(kind, "path") == 0) {
		if ((s->path = strdup(name)) == NULL)
			return PyErr_NoMemory(), -1;
	} else if (strcmp(kind, "bytes") == 0) {
		if (PyObject_GetBuffer(obj, &s->view, PyBUF_SIMPLE) < 0)
			return -1;
		s->has_view = true;
	} else {
		Py_INCREF(obj);
		s->file = obj;
	}
	return 0;
}

void
zk_src_free(struct src *s)
{
	if (s->has_view)
		PyBuffer_Release(&s->view);
	s->has_view = false;
	Py_CLEAR(s->file);
	Py_CLEAR(s->exc);
	free(s->name);
	free(s->path);
	s->name = s->path = NULL;
}

int
zk_src_raise(struct src *s)
{
	PyObject *e = s->exc;

	if (e == NULL)
		return 0;
	s->exc = NULL;
	PyErr_SetObject((PyObject *)Py_TYPE(e), e);
	Py_DECREF(e);
	return 1;
}
