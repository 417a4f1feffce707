/*
 * games.c - zhkit.games: the games of one input, one at a time, each as
 * the JSON object `zhpgn --json` writes (zhkit-json(5)), made by the
 * same calls (zh_replay, zh_game_json_opts); the Python half decodes
 * it.  The reading and the replay run without the GIL.
 */
#include "zhkit_py.h"
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "zh.h"

typedef struct {
	PyObject_HEAD
	struct src src;
	bool has_src;
	FILE *in;
	struct zh_pgn_reader *rd;
	struct zh_game g;
	struct zh_replay r;
	struct zh_text json;
	const struct zh_variant *force;
	int dialect;
	unsigned flags;
	bool opened, ended;
	FILE *fail;		/* cli_fail's messages */
	char *failbuf;
	size_t faillen;
} games;

static void
games_end(games *o)
{
	if (o->rd != NULL)
		zh_pgn_close(o->rd);
	o->rd = NULL;
	if (o->opened) {
		Py_BEGIN_ALLOW_THREADS
		zk_src_close(&o->src, o->in);
		Py_END_ALLOW_THREADS
	}
	o->in = NULL;
	o->opened = false;
	o->ended = true;
}

static void
games_dealloc(PyObject *self)
{
	games *o = (games *)self;

	games_end(o);
	zh_replay_free(&o->r);
	zh_text_free(&o->json);
	if (o->has_src)
		zk_src_free(&o->src);
	if (o->fail != NULL)
		fclose(o->fail);
	free(o->failbuf);
	Py_TYPE(self)->tp_free(self);
}

/* Games(source, variant=None, dialect="lichess", fens=False) */
static PyObject *
games_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "source", "variant", "dialect", "fens",
	    NULL };
	PyObject *src;
	const char *variant = NULL, *dialect = "lichess";
	int fens = 0, d;
	games *o;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "O!|zsp", kwlist,
	    &PyTuple_Type, &src, &variant, &dialect, &fens))
		return NULL;
	if ((d = zh_dialect_find(dialect)) <= ZH_AUTO) {
		PyErr_Format(PyExc_ValueError, "unknown dialect '%s' (try "
		    "lichess, xboard, chesscom, fairy)", dialect);
		return NULL;
	}
	if ((o = (games *)type->tp_alloc(type, 0)) == NULL)
		return NULL;
	o->dialect = d;
	o->flags = fens ? ZH_JSON_FENS : 0;
	if (variant != NULL && (o->force = zh_variant_find(variant)) == NULL) {
		PyErr_Format(PyExc_ValueError, "unknown variant '%s'", variant);
		goto fail;
	}
	if (zk_src_init(&o->src, src) < 0)
		goto fail;
	o->has_src = true;
	if ((o->fail = open_memstream(&o->failbuf, &o->faillen)) == NULL) {
		PyErr_NoMemory();
		goto fail;
	}
	return (PyObject *)o;
fail:
	Py_DECREF(o);
	return NULL;
}

/* The first of cli_fail's messages as zhkit.Error. */
static void
raise_failure(games *o, const char *dflt)
{
	char *p, *e;

	fflush(o->fail);
	p = o->failbuf != NULL && o->faillen > 0 ? o->failbuf : (char *)dflt;
	if (strncmp(p, "zhkit: ", 7) == 0)
		p += 7;
	if ((e = strchr(p, '\n')) != NULL)
		*e = '\0';
	zk_raise(o->src.name, 0, 0, p);
}

/* The next game's JSON text (str), or NULL at the end or on an error. */
static PyObject *
games_next(PyObject *self)
{
	games *o = (games *)self;
	struct zh_error e = { 0 };
	int rc = 0, jrc = 0;
	bool opened_now = false;

	if (o->ended)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	cli_fail_to = o->fail;
	if (!o->opened) {
		opened_now = true;
		if ((o->in = zk_src_open(&o->src)) != NULL) {
			o->opened = true;
			o->rd = zh_pgn_open(o->in, NULL);
		}
	}
	if (o->rd != NULL && (rc = zh_pgn_next(o->rd, &o->g)) == 1) {
		o->g.file = o->src.name;	/* as cli/jobs.c sets them */
		o->g.index = o->g.number;
		o->r.fast = false;
		o->r.no_uci = false;
		rc = 1;
		zh_replay(&o->g, o->force != NULL ? o->force : NULL, &o->r);
		o->json.len = 0;
		jrc = zh_game_json_opts(&o->json, &o->g, &o->r, o->dialect,
		    o->flags, NULL, &e);
	} else if (rc < 0)
		cli_read_error(o->in, o->src.name);
	cli_fail_to = NULL;
	Py_END_ALLOW_THREADS
	if (opened_now && o->rd == NULL) {
		if (o->in != NULL || o->opened)
			PyErr_NoMemory();
		else
			raise_failure(o, "cannot open the input");
		games_end(o);
		return NULL;
	}
	if (rc == 1 && jrc == 0)
		return PyUnicode_DecodeUTF8(o->json.s, (Py_ssize_t)o->json.len,
		    "replace");
	if (rc == 1) {
		PyErr_NoMemory();
		return NULL;
	}
	/* the end, or a read error (the feeder's exception first) */
	{
		struct zh_error ge = o->g.err;

		games_end(o);
		if (zk_src_raise(&o->src))
			return NULL;
		(void)ge;
		if (rc < 0)
			raise_failure(o, "read error");
	}
	return NULL;
}

static PyTypeObject games_type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "zhkit._zhkit.Games",
	.tp_basicsize = sizeof(games),
	.tp_dealloc = games_dealloc,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "Games(source, variant=None, dialect='lichess', fens=False):"
	    " each game's zhpgn --json text (zhkit.games is its face).",
	.tp_iter = PyObject_SelfIter,
	.tp_iternext = games_next,
	.tp_new = games_new,
};

PyMethodDef zk_games_methods[] = { { NULL, NULL, 0, NULL } };

int
zk_games_init(PyObject *m)
{
	if (PyType_Ready(&games_type) < 0)
		return -1;
	Py_INCREF(&games_type);
	if (PyModule_AddObject(m, "Games", (PyObject *)&games_type) < 0) {
		Py_DECREF(&games_type);
		return -1;
	}
	return 0;
}
