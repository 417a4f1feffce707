/*
 * module.c - the Python module zhkit's C half (_zhkit): the module, its
 * exception (zhkit.Error) and the buffer type that hands the C tables to
 * NumPy without a copy.  The areas are in their own files
 * (zhkit_py.h).
 */
#include "zhkit_py.h"
#include <stdlib.h>
#include <string.h>

#include "jobs.h"
#include "npy.h"
#include "zh.h"

PyObject *zk_error;

/* ======================== the buffer ======================== */

typedef struct {
	PyObject_HEAD
	void *data;
	Py_ssize_t len;
	void (*release)(void *data, size_t size);	/* NULL: free() */
	size_t size;
} zk_buffer;

static int
buffer_get(PyObject *self, Py_buffer *view, int flags)
{
	zk_buffer *b = (zk_buffer *)self;

	return PyBuffer_FillInfo(view, self, b->data, b->len, 0, flags);
}

static void
buffer_dealloc(PyObject *self)
{
	zk_buffer *b = (zk_buffer *)self;

	if (b->release != NULL)
		b->release(b->data, b->size);
	else
		free(b->data);
	Py_TYPE(self)->tp_free(self);
}

static Py_ssize_t
buffer_len(PyObject *self)
{
	return ((zk_buffer *)self)->len;
}

static PyBufferProcs buffer_procs = { .bf_getbuffer = buffer_get };
static PySequenceMethods buffer_seq = { .sq_length = buffer_len };

static PyTypeObject buffer_type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "zhkit._zhkit.Buffer",
	.tp_basicsize = sizeof(zk_buffer),
	.tp_dealloc = buffer_dealloc,
	.tp_as_buffer = &buffer_procs,
	.tp_as_sequence = &buffer_seq,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "A table's bytes made in C, shared with NumPy (no copy).",
};

PyObject *
zk_buffer_with(void *data, size_t len, void (*release)(void *, size_t),
    size_t size)
{
	zk_buffer *b = PyObject_New(zk_buffer, &buffer_type);

	if (b == NULL) {
		if (release != NULL)
			release(data, size);
		else
			free(data);
		return NULL;
	}
	b->data = data;
	b->len = (Py_ssize_t)len;
	b->release = release;
	b->size = size;
	return (PyObject *)b;
}

PyObject *
zk_buffer_new(void *data, size_t len)
{
	return zk_buffer_with(data, len, NULL, 0);
}

/* ======================== errors ======================== */

/* e.name = v (a new reference, given away); false if it failed */
static bool
set_attr(PyObject *e, const char *name, PyObject *v)
{
	int rc = v != NULL ? PyObject_SetAttrString(e, name, v) : -1;

	Py_XDECREF(v);
	return rc == 0;
}

void
zk_raise(const char *file, long line, long col, const char *msg)
{
	PyObject *e, *args = Py_BuildValue("(s)", msg);

	if (args == NULL)
		return;
	e = PyObject_Call(zk_error, args, NULL);
	Py_DECREF(args);
	if (e == NULL)
		return;
	if (file != NULL)
		set_attr(e, "file", PyUnicode_DecodeFSDefault(file));
	else
		set_attr(e, "file", Py_NewRef(Py_None));
	set_attr(e, "line", PyLong_FromLong(line));
	set_attr(e, "col", PyLong_FromLong(col));
	set_attr(e, "message", PyUnicode_DecodeUTF8(msg, (Py_ssize_t)strlen(msg),
	    "replace"));
	PyErr_Clear();
	PyErr_SetObject(zk_error, e);
	Py_DECREF(e);
}

/* ======================== the module ======================== */

static PyObject *
variants(PyObject *self, PyObject *noargs)
{
	PyObject *l = PyList_New(0), *s;
	int i;

	(void)self;
	(void)noargs;
	for (i = 0; l != NULL && i < zh_nvariants; i++) {
		if ((s = PyUnicode_FromString(zh_variants[i].name)) == NULL ||
		    PyList_Append(l, s) < 0) {
			Py_XDECREF(s);
			Py_DECREF(l);
			return NULL;
		}
		Py_DECREF(s);
	}
	return l;
}

static PyObject *
release_memory(PyObject *self, PyObject *noargs)
{
	size_t n = npy_mem_trim();	/* the tables' pool */

	(void)self;
	(void)noargs;
	return PyLong_FromSize_t(n + jobs_trim());	/* jobs=N's buffers */
}

static PyMethodDef methods[] = {
	{ "variants", variants, METH_NOARGS,
	  "The variants' names, in the order of the tables' variant codes." },
	{ "release_memory", release_memory, METH_NOARGS,
	  "The memory of tables freed, kept for the next read's, given back "
	  "to the system: its bytes." },
	{ NULL, NULL, 0, NULL }
};

static struct PyModuleDef moddef = {
	PyModuleDef_HEAD_INIT, "_zhkit",
	"zhkit's C half: libzh and the tools' code (see the zhkit package).",
	-1, methods, NULL, NULL, NULL, NULL
};

static int
add_methods(PyObject *m, PyMethodDef *d)
{
	PyObject *f;

	for (; d->ml_name != NULL; d++) {
		if ((f = PyCFunction_NewEx(d, NULL, NULL)) == NULL)
			return -1;
		if (PyModule_AddObject(m, d->ml_name, f) < 0) {
			Py_DECREF(f);
			return -1;
		}
	}
	return 0;
}

PyMODINIT_FUNC
PyInit__zhkit(void)
{
	PyObject *m;

	if (PyType_Ready(&buffer_type) < 0 ||
	    (m = PyModule_Create(&moddef)) == NULL)
		return NULL;
	zk_error = PyErr_NewExceptionWithDoc("zhkit.Error",
	    "A problem in the input, with its file, line, col and message.",
	    PyExc_ValueError, NULL);
	if (zk_error == NULL || PyModule_AddObject(m, "Error", zk_error) < 0 ||
	    PyModule_AddStringConstant(m, "version", ZH_VERSION) < 0 ||
	    add_methods(m, zk_read_methods) < 0 ||
	    add_methods(m, zk_games_methods) < 0 ||
	    zk_read_init(m) < 0 || zk_games_init(m) < 0 ||
	    zk_board_init(m) < 0) {
		Py_DECREF(m);
		return NULL;
	}
	Py_INCREF(zk_error);
	return m;
}
