/*
 * planes.c - CrazyAra's training tensors for zhkit.Board (libzh's
 * lib/planes.c, zhkit-planes(5)): a position's input planes, a move's
 * policy index (flat or map) and the legal-move mask, as NumPy arrays.
 * board.c keeps what they need beyond the position (the last moves,
 * the repetitions, python-chess's no-progress count) and calls these.
 */
#include "zhkit_py.h"
#include <stdlib.h>
#include <string.h>

#include "zh.h"

static const char *const dtype_names[] = { "uint8", "int8", "float16",
	"float32", NULL };
static const char *const dtype_descr[] = { "|u1", "|i1", "<f2", "<f4" };
static const int dtype_size[] = { 1, 1, 2, 4 };

/* The len bytes at data (malloc'd, given away) as a NumPy array of
   dtype descr and shape (a, b, c) (b, c 0: one dimension). */
static PyObject *
array_of(void *data, size_t len, const char *descr, Py_ssize_t a,
    Py_ssize_t b, Py_ssize_t c)
{
	PyObject *np, *buf, *flat = NULL, *r = NULL;

	if ((buf = zk_buffer_new(data, len)) == NULL)
		return NULL;
	if ((np = PyImport_ImportModule("numpy")) != NULL)
		flat = PyObject_CallMethod(np, "frombuffer", "Os", buf, descr);
	if (flat != NULL)
		r = b == 0 ? Py_NewRef(flat) : PyObject_CallMethod(flat,
		    "reshape", "nnn", a, b, c);
	Py_XDECREF(flat);
	Py_XDECREF(np);
	Py_DECREF(buf);
	return r;
}

/* Does p's variant have CrazyAra's layout (8x8, chess pieces, one
   board)?  Else a ValueError, and false. */
static bool
has_layout(const struct zh_pos *p)
{
	/* any move of a queen's step has a label where there is a layout */
	if (zh_policy_index(p, (struct zh_move){ .from = ZH_SQ(0, 1),
	    .to = ZH_SQ(0, 2) }) >= 0)
		return true;
	PyErr_Format(PyExc_ValueError, "%s: no CrazyAra planes or policy for "
	    "this variant (crazyhouse, loop, chessgi and chess have them)",
	    p->v->name);
	return false;
}

/* planes(version=3, dtype=None, normalize=False) of p, its last moves
   (latest first) and occ, the times it occurred before. */
PyObject *
zk_planes(const struct zh_pos *p, const struct zh_move *last, int nlast,
    int occ, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "version", "dtype", "normalize", NULL };
	const char *ds = NULL;
	int version = 3, normalize = 0, t, n;
	size_t len;
	void *out;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "|izp", kwlist, &version,
	    &ds, &normalize))
		return NULL;
	if ((n = zh_planes_count(version)) == 0) {
		PyErr_Format(PyExc_ValueError, "version %d: CrazyAra's planes "
		    "are versions 1, 2 and 3", version);
		return NULL;
	}
	if (ds == NULL)		/* zhreplay -F planes's default */
		t = normalize ? ZH_PLANES_FLOAT32 : version == 3 ?
		    ZH_PLANES_INT8 : ZH_PLANES_UINT8;
	else
		for (t = 0; dtype_names[t] != NULL &&
		    strcmp(dtype_names[t], ds) != 0; t++)
			;
	if (t > ZH_PLANES_FLOAT32 || dtype_names[t] == NULL) {
		PyErr_Format(PyExc_ValueError, "dtype '%s' is not uint8, int8, "
		    "float16 or float32", ds);
		return NULL;
	}
	if (normalize && t < ZH_PLANES_FLOAT16) {
		PyErr_SetString(PyExc_ValueError, "normalize: only with dtype "
		    "float16 or float32");
		return NULL;
	}
	if (version == 3 && t == ZH_PLANES_UINT8) {
		PyErr_SetString(PyExc_ValueError, "dtype uint8: version 3's "
		    "material differences are negative (use int8, its "
		    "default)");
		return NULL;
	}
	if (!has_layout(p))
		return NULL;
	len = (size_t)n * 64 * (size_t)dtype_size[t];
	if ((out = malloc(len)) == NULL)
		return PyErr_NoMemory();
	zh_planes(p, last, nlast, occ, version, t |
	    (normalize ? ZH_PLANES_NORMALIZE : 0), out);
	return array_of(out, len, dtype_descr[t], n, 8, 8);
}

/* policy_index(move) (map: policy_map_index) of p: an int, or None for
   a move without a label (chessgi's pawn dropped on its first rank). */
PyObject *
zk_policy_index(const struct zh_pos *p, PyObject *args, bool map)
{
	const char *s;
	Py_ssize_t len;
	struct zh_error e = { 0 };
	struct zh_move m;
	int k;

	if (!PyArg_ParseTuple(args, map ? "s#:policy_map_index" :
	    "s#:policy_index", &s, &len) || !has_layout(p))
		return NULL;
	if (zh_san_read(p, s, (size_t)len, &m, &e) != 0) {
		zk_raise("<move>", 1, e.col > 0 ? e.col : 1, e.text);
		return NULL;
	}
	if (m.flags & ZH_MNULL) {
		PyErr_SetString(PyExc_ValueError, "a null move has no policy "
		    "index");
		return NULL;
	}
	k = map ? zh_policy_map_index(p, m) : zh_policy_index(p, m);
	if (k < 0)
		Py_RETURN_NONE;
	return PyLong_FromLong(k);
}

/* policy_mask(map=False) of p: uint8, 1 at each legal move's index. */
PyObject *
zk_policy_mask(const struct zh_pos *p, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "map", NULL };
	int map = 0;
	size_t len;
	unsigned char *mask;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "|p", kwlist, &map) ||
	    !has_layout(p))
		return NULL;
	len = map ? ZH_POLICY_MAP : ZH_POLICY_LABELS;
	if ((mask = malloc(len)) == NULL)
		return PyErr_NoMemory();
	zh_policy_mask(p, mask, map);
	return array_of(mask, len, "|u1", (Py_ssize_t)len, 0, 0);
}
