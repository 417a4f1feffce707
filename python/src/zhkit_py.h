/*
 * zhkit_py.h - what the C files of the Python module zhkit share
 * (python/README.md).  One file per area: module.c (the module, its
 * exception, the buffer type), read.c (zhkit.read, read_chunks),
 * games.c (zhkit.games), board.c (zhkit.Board), planes.c (its
 * CrazyAra tensors).  A new area is a new
 * file with its zk_*_init() called from module.c.
 */
#ifndef ZHKIT_PY_H
#define ZHKIT_PY_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdbool.h>

/* zhkit.Error: a ValueError with file, line, col and message. */
extern PyObject *zk_error;

/* A malloc'd block given to Python: it exports the buffer protocol
   (writable bytes) and frees the block when the last view goes. */
PyObject *zk_buffer_new(void *data, size_t len);
/* The same for a block that release(data, size) frees. */
PyObject *zk_buffer_with(void *data, size_t len,
    void (*release)(void *data, size_t size), size_t size);

/* Raise zhkit.Error(message) with its file, line and column. */
void zk_raise(const char *file, long line, long col, const char *msg);

/* Each area adds its functions and types to the module m: 0, or -1
   with an exception set. */
int zk_read_init(PyObject *m);
int zk_games_init(PyObject *m);
int zk_board_init(PyObject *m);

/* planes.c: Board.planes, policy_index/policy_map_index, policy_mask
   of position p (board.c gives its last moves, latest first, and the
   times it occurred before): a NumPy array or int, or NULL with an
   exception set. */
struct zh_pos;
struct zh_move;
PyObject *zk_planes(const struct zh_pos *p, const struct zh_move *last,
    int nlast, int occ, PyObject *args, PyObject *kw);
PyObject *zk_policy_index(const struct zh_pos *p, PyObject *args, bool map);
PyObject *zk_policy_mask(const struct zh_pos *p, PyObject *args,
    PyObject *kw);

extern PyMethodDef zk_read_methods[];
extern PyMethodDef zk_games_methods[];
/* An input (source.c): a file's path, or bytes or a file object fed
   to the reader through a socket by a feeder thread (so a compressed
   one is decompressed as a file is: cli/codec.c). */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
/* An input. */
struct src {
	char *name;		/* in messages and files */
	char *path;		/* a file's; NULL: fed (bytes or a file) */
	Py_buffer view;		/* bytes */
	bool has_view;
	PyObject *file;		/* a file object (its read method) */
	int wfd;		/* the feeder's end */
	pthread_t feeder;
	bool feeding;
	PyObject *exc;		/* what the file object's read raised */
};

/* s from a tuple ("path", None, name), ("bytes", obj, name) or
   ("file", obj, name): 0, or -1 with an exception set. */
int zk_src_init(struct src *s, PyObject *tuple);
void zk_src_free(struct src *s);
/* s opened (its feeder started), on any thread without the GIL: NULL
   after a message (cli_fail). */
FILE *zk_src_open(struct src *s);
/* s closed, its feeder ended (without the GIL). */
void zk_src_close(struct src *s, FILE *f);
/* What s's file object raised, set as the exception (with the GIL): 1
   if it raised, else 0. */
int zk_src_raise(struct src *s);
#endif
