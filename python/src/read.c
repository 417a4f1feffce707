/*
 * read.c - zhkit.read and zhkit.read_chunks (the Reader type).  The
 * games are read, selected and replayed by the tools' own code
 * (cli/jobs.c with -j, cli/selopts.c, libzh), and their positions made
 * into zhreplay -F npy's records by cli/npy.c, whose tables are kept in
 * memory (npy_open_mem) and handed to Python without a copy
 * (zk_buffer_new), a chunk at a time: read() is one chunk.
 *
 * The run is on a thread of its own, so a chunk waits for Python at a
 * game's boundary (npy_on_game) and memory stays bounded; the calling
 * thread waits with the GIL released.  Inputs that are not files (bytes,
 * file objects) are fed to the reader through a socket pair by a feeder
 * thread, so a compressed one is found by its magic number and
 * decompressed as a file is (cli/codec.c).
 */
#define _GNU_SOURCE
#include "zhkit_py.h"
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "codec.h"
#include "jobs.h"
#include "npy.h"
#include "selopts.h"
#include "warn.h"

#define NT	4	/* the tables: NPY_POS, NPY_BUG, NPY_GAME, NPY_STR */

/* Per worker. */
struct state {
	struct zh_replay r;
	struct zh_lines lines;
	struct zh_select_scratch sc;
	struct npy_rec npy;
	const void *o;
};

typedef struct {
	PyObject_HEAD
	/* the options */
	struct sel gsel;
	const struct zh_variant *force, *defvar;
	struct zh_plysel sel;
	struct jobs j;
	struct src *src;
	int nsrc;
	uint64_t chunk;		/* positions a chunk; 0: one chunk */
	/* the run, on its thread */
	pthread_t th;
	bool started, joined;
	struct npy *npy;
	const char *name;	/* the input being read */
	long games, bad;
	FILE *err;		/* the games' diagnostics, in order */
	char *errbuf;
	size_t errlen, errat;	/* errat: handed over up to there */
	FILE *fail;		/* cli_fail's messages */
	char *failbuf;
	size_t faillen;
	bool io_failed;		/* an input could not be read */
	/* the hand-over, under mu */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool ready, done, cancel;
	unsigned char *data[NT];
	size_t size[NT];	/* data's, for npy_mem_free */
	uint64_t count[NT];
	bool nomem;		/* the tables were lost */
	char *errs;		/* the chunk's diagnostics */
	size_t nfiles;
} reader;

/* the options' own codes, beside the selection's and -j's */
enum { O_START = 256, O_FINAL, O_DEFVAR };

static pthread_mutex_t getopt_mu = PTHREAD_MUTEX_INITIALIZER;

/* ======================== one game ======================== */

static int
on_ply(void *arg, const struct zh_ply *pl)
{
	struct state *st = arg;
	const reader *o = (const reader *)st->o;

	return npy_ply(&st->npy, pl, &o->sel);
}

static int
on_bply(void *arg, const struct zh_bply *pl)
{
	struct state *st = arg;
	const reader *o = (const reader *)st->o;

	return npy_bply(&st->npy, pl, &o->sel);
}

static void *
make_state(void *ctx)
{
	struct state *st = calloc(1, sizeof *st);

	if (st != NULL)
		st->o = ctx;
	return st;
}

static void
free_state(void *p)
{
	struct state *st = p;

	if (st != NULL) {
		zh_replay_free(&st->r);
		zh_lines_free(&st->lines);
		zh_select_scratch_free(&st->sc);
		npy_rec_free(&st->npy);
		free(st);
	}
}

/* The game's errors said on err, as zhreplay says them: 1 if any. */
static int
game_errors(const reader *o, const struct zh_game *g, FILE *err,
    const struct zh_replay *r)
{
	const struct zh_error *re = &r->err;
	bool at_ply = re->ply > 0;
	char on[16] = "";
	int bad = 0;

	if (g->err.code != ZH_OK) {
		cli_fdiag(err, "error", o->name, g->err.line, g->err.col,
		    "game %ld: %s", g->number, g->err.text);
		bad = 1;
	}
	if (re->code == ZH_OK)
		return bad;
	if (at_ply && r->err_board >= 0)
		snprintf(on, sizeof on, " on board %c",
		    zh_board_letter(r->err_board));
	if (at_ply)
		cli_fdiag(err, "error", o->name, re->line, re->col,
		    "game %ld, ply %ld%s: %s", g->number, re->ply, on,
		    re->text);
	else
		cli_fdiag(err, "error", o->name, re->line,
		    re->col > 0 ? re->col : 1, "game %ld: %s", g->number,
		    re->text);
	return 1;
}

/* zhreplay -F npy's work on one game (cmd/zhreplay.c): its records, in
   the same order, by the same calls. */
static int
work(const struct zh_game *g, FILE *out, FILE *err, void *ctx, void *state,
    struct jobs_res *res)
{
	const reader *o = ctx;
	struct state *st = state;
	const struct zh_variant *fv;
	struct zh_replay *r;
	int rc, tagdrop, bad;

	if (sel_early(&o->gsel, g, res, &tagdrop))
		return 0;
	if (st == NULL) {
		cli_fdiag(err, "error", o->name, g->line, 1, "out of memory");
		return 1;
	}
	r = &st->r;
	st->npy.len = 0;
	fv = cli_game_variant(g, o->force, o->defvar);
	r->fast = false;
	r->fast_one = true;	/* a game of two boards keeps its text */
	r->no_uci = false;
	r->null_moves = warn_null_moves;
	rc = zh_replay(g, fv, r);
	if (o->gsel.on && sel_game(&o->gsel, g, r,
	    g->err.code != ZH_OK ? -1 : rc, tagdrop, &st->sc, res) != 0)
		return 0;
	if (rc == 0 && g->err.code == ZH_OK && r->started) {
		npy_game_begin(&st->npy, g, r);
		if (zh_replay_walk(&st->lines, g, r, ZH_WALK_COMMENTS, on_ply,
		    on_bply, st) != 0 || st->npy.fail) {
			cli_fdiag(err, "error", o->name, g->line, 1,
			    "game %ld: out of memory", g->number);
			return 1;
		}
		npy_game_end(&st->npy);
		if (st->npy.len > 0 && fwrite(st->npy.buf, 1, st->npy.len,
		    out) != st->npy.len)
			return 1;
	}
	bad = game_errors(o, g, err, r);
	if (r->started && warn_nulls(err, o->name, g, r))
		bad = 1;
	return bad;
}

static FILE *
done(void *ctx, const struct zh_game *g, const struct jobs_res *jr)
{
	reader *o = ctx;

	if (!sel_done(&o->gsel, &o->j, g, jr))
		return NULL;
	o->games++;
	if (jr->result != 0)
		o->bad++;
	return o->j.out;
}

/* ======================== the hand-over ======================== */

/* The tables so far handed to Python (on the run's thread); waits until
   Python took them.  The last one says the run is over. */
static void
hand_over(reader *o, bool last)
{
	size_t k;

	fflush(o->err);
	pthread_mutex_lock(&o->mu);
	for (k = 0; k < NT; k++) {
		/* a chunk not taken (cancelled) */
		npy_mem_free(o->data[k], o->size[k]);
		o->data[k] = npy_mem_take(o->npy, (int)k, &o->count[k],
		    &o->size[k]);
	}
	o->nomem = npy_mem_failed(o->npy);
	free(o->errs);
	o->errs = strndup(o->errbuf + o->errat, o->errlen - o->errat);
	o->errat = o->errlen;
	o->ready = true;
	o->done = last;
	pthread_cond_broadcast(&o->cv);
	while (o->ready && !o->cancel && !last)
		pthread_cond_wait(&o->cv, &o->mu);
	if (o->cancel)
		o->j.stop = 1;
	pthread_mutex_unlock(&o->mu);
}

/* npy_on_game: a chunk is cut before the game when it is full. */
static void
on_game(void *arg, struct npy *n)
{
	reader *o = arg;

	if (o->chunk > 0 && npy_mem_count(n, NPY_POS) + npy_mem_count(n,
	    NPY_BUG) >= o->chunk && !o->cancel)
		hand_over(o, false);
}

/* ======================== the run ======================== */

/* The bytes of PGN input s (opened as in) is likely to give, for the
   tables' first room: a plain file's size, bytes' length (compressed:
   more, the tables grow), 0 if not known (a file object). */
static uint64_t
src_bytes(const reader *o, const struct src *s, FILE *in)
{
	struct stat st;
	uint64_t n = s->has_view ? (uint64_t)s->view.len : 0;
	int fd = fileno(in);

	if (s->path != NULL && fd >= 0 && fstat(fd, &st) == 0 &&
	    S_ISREG(st.st_mode))
		n = (uint64_t)st.st_size;
	/* read_chunks: a chunk's worth (npy_mem_expect: 8 bytes a
	   position; twice the chunk, for the game that ends it) */
	if (o->chunk > 0 && n / 16 > o->chunk)
		n = o->chunk * 16;
	return n;
}

static void *
run(void *arg)
{
	reader *o = arg;
	FILE *in;
	int i;

	cli_fail_to = o->fail;
	o->j.out = npy_sink(o->npy);
	o->j.err = o->err;
	for (i = 0; i < o->nsrc && !o->j.stop; i++) {
		if ((in = zk_src_open(&o->src[i])) == NULL) {
			o->io_failed = true;
			zk_src_close(&o->src[i], NULL);
			continue;
		}
		o->name = o->src[i].name;
		npy_input(o->npy, o->name);
		npy_mem_expect(o->npy, src_bytes(o, &o->src[i], in));
		if (jobs_run(&o->j, in, o->name) != 0)
			o->io_failed = true;
		zk_src_close(&o->src[i], in);
	}
	fflush(npy_sink(o->npy));
	hand_over(o, true);
	fflush(o->fail);
	return NULL;
}

/* ======================== options ======================== */

/* Option c of the module's (the selection's, zhreplay's -p, -e,
   --start-only, --final-only, -v, --default-variant, --limit,
   --game-offset): 1, or -1 after a message. */
static int
option(reader *o, int c, const char *arg)
{
	int k;

	switch (c) {
	case 'v':
		return (o->force = cli_variant(arg)) == NULL ? -1 : 1;
	case O_DEFVAR:
		return (o->defvar = cli_variant(arg)) == NULL ? -1 : 1;
	case 'p':
		if (zh_plysel_range(&o->sel, arg) != 0) {
			cli_fail("plies: '%s' is not a range A-B, A-, -B or A",
			    arg);
			return -1;
		}
		return 1;
	case 'e':
		return (o->sel.every = cli_number(arg, 1, 100000000L,
		    "every")) < 0 ? -1 : 1;
	case O_START:
		o->sel.start_only = true;
		return 1;
	case O_FINAL:
		o->sel.final_only = true;
		return 1;
	}
	if ((k = sel_option(&o->gsel, c, arg)) == 0)
		k = jobs_option(&o->j, c, arg);
	if (k == 0)
		cli_fail("unknown option");
	return k > 0 ? 1 : -1;
}

/* argv (a list of str: "--name", maybe its value) into o: 0, or -1
   with an exception set. */
static int
options(reader *o, PyObject *args)
{
	static const struct option lopts[] = {
		{ "variant", required_argument, NULL, 'v' },
		{ "default-variant", required_argument, NULL, O_DEFVAR },
		{ "plies", required_argument, NULL, 'p' },
		{ "every", required_argument, NULL, 'e' },
		{ "start-only", no_argument, NULL, O_START },
		{ "final-only", no_argument, NULL, O_FINAL },
		JOBS_OPT_JOBS, JOBS_OPT_LIMIT, JOBS_OPT_OFFSET,
		SEL_OPTS,
		{ NULL, 0, NULL, 0 }
	};
	Py_ssize_t n = PyList_Size(args), i;
	char **argv = calloc((size_t)n + 2, sizeof *argv);
	char *msg = NULL;
	size_t mlen = 0;
	FILE *m = open_memstream(&msg, &mlen);
	int c, rc = 0;

	if (argv == NULL || m == NULL) {
		free(argv);
		if (m != NULL)
			fclose(m);
		free(msg);
		PyErr_NoMemory();
		return -1;
	}
	argv[0] = (char *)"zhkit";
	for (i = 0; i < n; i++)
		if ((argv[i + 1] = (char *)PyUnicode_AsUTF8(PyList_GET_ITEM(args,
		    i))) == NULL) {
			free(argv);
			fclose(m);
			free(msg);
			return -1;
		}
	pthread_mutex_lock(&getopt_mu);
	cli_fail_to = m;
	optind = 0;
	opterr = 0;
	while (rc == 0 && (c = getopt_long((int)n + 1, argv, "", lopts,
	    NULL)) != -1)
		if (c == '?' || c == ':' || option(o, c, optarg) < 0) {
			if (c == '?' || c == ':')
				cli_fail("bad option '%s'", argv[optind - 1]);
			rc = -1;
		}
	if (rc == 0 && optind <= n) {
		cli_fail("stray argument '%s'", argv[optind]);
		rc = -1;
	}
	cli_fail_to = NULL;
	pthread_mutex_unlock(&getopt_mu);
	fclose(m);
	free(argv);
	if (rc != 0) {
		/* "zhkit: MESSAGE\n": the first message */
		char *p = msg, *e;

		if (strncmp(p, "zhkit: ", 7) == 0)
			p += 7;
		if ((e = strchr(p, '\n')) != NULL)
			*e = '\0';
		PyErr_SetString(PyExc_ValueError, p);
	}
	free(msg);
	return rc;
}

/* The sources (a list of tuples: ("path", str) ("bytes", obj, name)
   ("file", obj, name)) into o: 0, or -1 with an exception set. */
static int
sources(reader *o, PyObject *list)
{
	Py_ssize_t n = PyList_Size(list), i;

	if ((o->src = calloc((size_t)n + 1, sizeof *o->src)) == NULL) {
		PyErr_NoMemory();
		return -1;
	}
	for (i = 0; i < n; i++) {
		o->nsrc = (int)i + 1;
		if (zk_src_init(&o->src[i], PyList_GET_ITEM(list, i)) < 0)
			return -1;
	}
	return 0;
}

/* ======================== the Reader type ======================== */

static void
reader_stop(reader *o)
{
	if (o->started && !o->joined) {
		pthread_mutex_lock(&o->mu);
		o->cancel = true;
		pthread_cond_broadcast(&o->cv);
		pthread_mutex_unlock(&o->mu);
		Py_BEGIN_ALLOW_THREADS
		pthread_join(o->th, NULL);
		Py_END_ALLOW_THREADS
		o->joined = true;
	}
}

static void
reader_dealloc(PyObject *self)
{
	reader *o = (reader *)self;
	size_t k;
	int i;

	reader_stop(o);
	for (k = 0; k < NT; k++)
		npy_mem_free(o->data[k], o->size[k]);
	free(o->errs);
	if (o->npy != NULL)
		npy_close_mem(o->npy);
	if (o->err != NULL)
		fclose(o->err);
	free(o->errbuf);
	if (o->fail != NULL)
		fclose(o->fail);
	free(o->failbuf);
	sel_free(&o->gsel);
	for (i = 0; i < o->nsrc; i++)
		zk_src_free(&o->src[i]);
	free(o->src);
	if (o->started) {
		pthread_mutex_destroy(&o->mu);
		pthread_cond_destroy(&o->cv);
	}
	Py_TYPE(self)->tp_free(self);
}

/* Reader(sources, options, chunk) */
static PyObject *
reader_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "sources", "options", "chunk", NULL };
	PyObject *srcs, *opts;
	unsigned long long chunk = 0;
	reader *o;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "O!O!|K", kwlist,
	    &PyList_Type, &srcs, &PyList_Type, &opts, &chunk))
		return NULL;
	if ((o = (reader *)type->tp_alloc(type, 0)) == NULL)
		return NULL;
	/* chunk_bytes: jobs=N stages each chunk's records (~17 bytes of
	   them a byte of PGN) before they are copied into the tables in
	   order; chunks of 32 KB keep that staging near 0.5 MB a slot, in
	   a core's cache and with half the fresh pages of 64 KB's (zh.pgn:
	   ~1,900 page faults a read at jobs=2, was ~2,900; jobs=1 ~1,030);
	   keep_buffers: the next read takes those buffers with their
	   pages (~900 faults fewer a read at jobs=2) */
	o->j = (struct jobs){ .njobs = 1, .ctx = o, .work = work,
	    .done = done, .make_state = make_state,
	    .free_state = free_state, .chunk_bytes = 32 << 10,
	    .keep_buffers = true };
	o->sel = (struct zh_plysel){ .to = -1, .every = 1 };
	o->chunk = chunk;
	if (sources(o, srcs) < 0 || options(o, opts) < 0)
		goto fail;
	if ((o->err = open_memstream(&o->errbuf, &o->errlen)) == NULL ||
	    (o->fail = open_memstream(&o->failbuf, &o->faillen)) == NULL ||
	    (o->npy = npy_open_mem()) == NULL) {
		PyErr_NoMemory();
		goto fail;
	}
	if (sel_setup(&o->gsel, &o->j, o->nsrc, NULL) != 0) {
		PyErr_NoMemory();
		goto fail;
	}
	npy_on_game(o->npy, on_game, o);
	pthread_mutex_init(&o->mu, NULL);
	pthread_cond_init(&o->cv, NULL);
	if (pthread_create(&o->th, NULL, run, o) != 0) {
		pthread_mutex_destroy(&o->mu);
		pthread_cond_destroy(&o->cv);
		PyErr_SetString(PyExc_OSError, "zhkit: cannot start a thread");
		goto fail;
	}
	o->started = true;
	return (PyObject *)o;
fail:
	Py_DECREF(o);
	return NULL;
}

/* The chunk's tables as a dict: "positions", "bughouse", "games",
   "strings" (a Buffer each, or None), "files", the counts ("read",
   "written", "rejected", "duplicates"), the games' diagnostics
   ("errors": text),
   cli_fail's messages ("failures": text), "last". */
static PyObject *
chunk_dict(reader *o, bool last)
{
	static const char *const names[NT] = { "positions", "bughouse",
	    "games", "strings" };
	char *const *files;
	size_t nf = npy_mem_files(o->npy, &files), i, k;
	PyObject *d = PyDict_New(), *v, *l;
	int bad = 0;

	if (d == NULL)
		return NULL;
	if (o->nomem) {		/* out of memory while reading */
		Py_DECREF(d);
		return PyErr_NoMemory();
	}
	for (k = 0; k < NT; k++) {
		if (o->data[k] != NULL)
			v = zk_buffer_with(o->data[k], o->count[k] *
			    npy_recsize((int)k), npy_mem_free, o->size[k]);
		else {
			v = Py_None;
			Py_INCREF(v);
		}
		o->data[k] = NULL;
		if (v == NULL || PyDict_SetItemString(d, names[k], v) < 0)
			bad = 1;
		Py_XDECREF(v);
	}
	if ((l = PyList_New(0)) == NULL)
		bad = 1;
	for (i = 0; l != NULL && i < nf; i++) {
		v = PyUnicode_DecodeFSDefault(files[i]);
		if (v == NULL || PyList_Append(l, v) < 0)
			bad = 1;
		Py_XDECREF(v);
	}
#define SET(name, obj) do { PyObject *x_ = (obj); \
	if (x_ == NULL || PyDict_SetItemString(d, name, x_) < 0) bad = 1; \
	Py_XDECREF(x_); } while (0)
	SET("files", l);
	SET("read", PyLong_FromLong(o->gsel.read));
	SET("rejected", PyLong_FromLong(o->bad));
	SET("duplicates", PyLong_FromLong(o->gsel.dups));
	SET("errors", PyUnicode_DecodeUTF8(o->errs ? o->errs : "",
	    o->errs ? (Py_ssize_t)strlen(o->errs) : 0, "replace"));
	SET("failures", last ? PyUnicode_DecodeUTF8(o->failbuf ? o->failbuf :
	    "", o->failbuf ? (Py_ssize_t)o->faillen : 0, "replace") :
	    PyUnicode_FromString(""));
	SET("io_failed", PyBool_FromLong(last && o->io_failed));
	SET("last", PyBool_FromLong(last));
#undef SET
	free(o->errs);
	o->errs = NULL;
	if (bad) {
		Py_DECREF(d);
		return NULL;
	}
	return d;
}

/* The next chunk (a dict), or NULL at the end (StopIteration), or NULL
   with an exception: a file object's read raised it. */
static PyObject *
reader_next(PyObject *self)
{
	reader *o = (reader *)self;
	PyObject *d;
	bool last;
	int i;

	if (!o->started || o->joined)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	pthread_mutex_lock(&o->mu);
	while (!o->ready)
		pthread_cond_wait(&o->cv, &o->mu);
	pthread_mutex_unlock(&o->mu);
	Py_END_ALLOW_THREADS
	last = o->done;
	if (last) {
		Py_BEGIN_ALLOW_THREADS
		pthread_join(o->th, NULL);
		Py_END_ALLOW_THREADS
		o->joined = true;
		for (i = 0; i < o->nsrc; i++)
			if (zk_src_raise(&o->src[i]))
				return NULL;
	}
	d = chunk_dict(o, last);
	pthread_mutex_lock(&o->mu);
	o->ready = false;
	pthread_cond_broadcast(&o->cv);
	pthread_mutex_unlock(&o->mu);
	return d;
}

static PyObject *
reader_close(PyObject *self, PyObject *noargs)
{
	(void)noargs;
	reader_stop((reader *)self);
	Py_RETURN_NONE;
}

static PyObject *
header(PyObject *self, PyObject *arg)
{
	char h[8192];
	long k = PyLong_AsLong(arg);
	size_t n;

	(void)self;
	if (k == -1 && PyErr_Occurred())
		return NULL;
	if ((n = npy_header((int)k, h, sizeof h)) == 0) {
		PyErr_SetString(PyExc_ValueError, "no such table");
		return NULL;
	}
	return PyBytes_FromStringAndSize(h, (Py_ssize_t)n);
}

static PyMethodDef reader_methods[] = {
	{ "close", reader_close, METH_NOARGS, "Stop the run (at a game)." },
	{ NULL, NULL, 0, NULL }
};

static PyTypeObject reader_type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "zhkit._zhkit.Reader",
	.tp_basicsize = sizeof(reader),
	.tp_dealloc = reader_dealloc,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "Reader(sources, options, chunk=0): the tables' chunks "
	    "(dicts); zhkit.read and zhkit.read_chunks are its face.",
	.tp_iter = PyObject_SelfIter,
	.tp_iternext = reader_next,
	.tp_methods = reader_methods,
	.tp_new = reader_new,
};

PyMethodDef zk_read_methods[] = {
	{ "header", header, METH_O,
	  "header(k): the .npy header of table k (0 positions, 1 bughouse, "
	  "2 games, 3 strings) with no record: its dict names the dtype." },
	{ NULL, NULL, 0, NULL }
};

int
zk_read_init(PyObject *m)
{
	if (PyType_Ready(&reader_type) < 0)
		return -1;
	Py_INCREF(&reader_type);
	if (PyModule_AddObject(m, "Reader", (PyObject *)&reader_type) < 0) {
		Py_DECREF(&reader_type);
		return -1;
	}
	return 0;
}
