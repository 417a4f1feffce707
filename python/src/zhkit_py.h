/*
 * zhkit_py.h - what the C files of the Python module zhkit share
 * (python/README.md).  One file per area: module.c (the module, its
 * exception, the buffer type), read.c (zhkit.read, read_chunks),
 * games.c (zhkit.games), board.c (zhkit.Board).  A new area is a new
 * file with its zk_*_init() called from module.c.
 */
#ifndef ZHKIT_PY_H
#define ZHKIT_PY_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* zhkit.Error: a ValueError with file, line, col and message. */
extern PyObject *zk_error;

/* A malloc'd block given to Python: it exports the buffer protocol
   (writable bytes) and frees the block when the last view goes. */
PyObject *zk_buffer_new(void *data, size_t len);

/* Raise zhkit.Error(message) with its file, line and column. */
void zk_raise(const char *file, long line, long col, const char *msg);

/* Each area adds its functions and types to the module m: 0, or -1
   with an exception set. */
int zk_read_init(PyObject *m);
int zk_games_init(PyObject *m);
int zk_board_init(PyObject *m);

extern PyMethodDef zk_read_methods[];
extern PyMethodDef zk_games_methods[];
#endif
