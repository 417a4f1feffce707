/* pic.c - pictures for the tools: options, file names, whole writes. */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "pic.h"
#include "tmpout.h"

static atomic_int failed;		/* a picture could not be written */
static atomic_long singles;		/* pictures into a -o without %d */

/* The names written in this run, a set (open addressing, a power of
 * two), so that no name is written twice. */
static struct {
	pthread_mutex_t mu;
	char **slot;
	size_t cap, n;
} written = { PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0 };

int
pic_format(const char *s)
{
	static const char *const names[] = { "svg", "png", "gif" };
	int i;

	for (i = 0; i < 3; i++)
		if (strcmp(s, names[i]) == 0)
			return PIC_SVG + i;
	return PIC_NONE;
}

int
pic_option(struct pic_opts *o, int c, const char *arg)
{
	long n;

	switch (c) {
	case PIC_O_SIZE:
		if ((n = cli_number(arg, DRAW_SQUARE_MIN, DRAW_SQUARE_MAX,
		    "--size")) < 0)
			return -1;
		o->square = (int)n;
		return 1;
	case PIC_O_FLIP:
		o->flip = true;
		return 1;
	case PIC_O_DELAY:
	case PIC_O_LAST:
		if ((n = cli_number(arg, 1, 65535, c == PIC_O_DELAY ?
		    "--delay" : "--last-delay")) < 0)
			return -1;
		*(c == PIC_O_DELAY ? &o->delay : &o->last_delay) = (int)n;
		return 1;
	}
	return 0;
}

/* The length of an integer conversion at s (after its '%'): "d",
 * "05d", "3d"; 0 if it is not one. */
static size_t
conversion(const char *s)
{
	size_t n = 0;

	while (s[n] >= '0' && s[n] <= '9' && n < 3)
		n++;
	return s[n] == 'd' ? n + 1 : 0;
}

/* Whether [from, to) of a pattern holds a character that is not a digit
 * ("%%" is a '%'): two numbers written with it between them can be told
 * apart. */
static bool
apart(const char *from, const char *to)
{
	for (; from < to; from++)
		if (*from < '0' || *from > '9')
			return true;
	return false;
}

int
pic_setup(struct pic_opts *o, const char *outpath, int maxconv)
{
	const char *s, *end = NULL;
	size_t n;

	if (o->square == 0)
		o->square = DRAW_SQUARE;
	if (o->delay == 0)
		o->delay = 80;
	if (o->last_delay == 0)
		o->last_delay = 300;
	o->nconv = 0;
	o->to_stdout = false;
	if (outpath != NULL && strcmp(outpath, "-") == 0) {
		if (o->fmt == PIC_SVG)
			outpath = NULL;	/* one a line, as without -o */
		else if (o->fmt == PIC_PNG && o->many) {
			cli_fail("-o -: -F png writes a picture a position: "
			    "select one (--final-only, --start-only, --plies N) "
			    "or give a file name with %%d");
			return -1;
		} else
			o->to_stdout = true;	/* one picture, zhkit(7) */
	}
	o->pattern = outpath;
	if (outpath == NULL) {
		if (o->fmt == PIC_SVG)
			return 0;
		cli_fail("-F %s needs -o FILE (a picture is not text)",
		    o->fmt == PIC_PNG ? "png" : "gif");
		return -1;
	}
	for (s = outpath; *s != '\0'; s++) {
		if (*s != '%')
			continue;
		if (s[1] == '%') {
			s++;
			continue;
		}
		if ((n = conversion(s + 1)) == 0 || ++o->nconv > maxconv) {
			cli_fail("-o '%s': %ld: %s", outpath, (long)(s - outpath) + 1,
			    n == 0 ? "not an integer conversion (%d, %03d, ...)" :
			    maxconv == 1 ? "one %d at most (the number)" :
			    "two %d at most (the game, the ply)");
			return -1;
		}
		if (o->nconv == 2 && !apart(end, s)) {
			cli_fail("-o '%s': %ld: the game's and the ply's numbers "
			    "need a character that is not a digit between them "
			    "(%%d-%%d), else game 1 ply 11 and game 11 ply 1 "
			    "have one name", outpath, (long)(s - outpath) + 1);
			return -1;
		}
		s += n;
		end = s + 1;
	}
	return 0;
}

/* -o's pattern with n1 and n2 into buf; false if too long. */
static bool
file_name(const char *pat, long n1, long n2, char *buf, size_t size)
{
	size_t len = 0, n;
	int k = 0, w;

	for (; *pat != '\0' && len + 1 < size; pat++) {
		if (*pat != '%') {
			buf[len++] = *pat;
			continue;
		}
		if (pat[1] == '%') {
			buf[len++] = '%';
			pat++;
			continue;
		}
		n = conversion(pat + 1);
		w = snprintf(buf + len, size - len, pat[1] == '0' ? "%0*ld" :
		    "%*ld", atoi(pat + 1), k++ == 0 ? n1 : n2);
		if (w < 0 || (size_t)w >= size - len)
			return false;
		len += (size_t)w;
		pat += n;
	}
	if (*pat != '\0')
		return false;
	buf[len] = '\0';
	return true;
}

int
pic_draw(struct pic *p, const struct draw_board *b, int nboards)
{
	p->buf.len = 0;
	p->buf.fail = false;
	/* GIF frames too show the dot at the side to move, as README.md and
	   the pages say: a frame is the picture of its ply (5 to 25% more
	   bytes, the changed part of a frame then spans both players' bars) */
	if (draw_layout(&p->sc, b, nboards, p->o->square, 0) != 0)
		return -1;
	switch (p->o->fmt) {
	case PIC_SVG:
		draw_svg(&p->sc, &p->buf);
		break;
	case PIC_PNG:
		draw_png(&p->sc, &p->buf);
		break;
	case PIC_GIF:
		if (p->gif == NULL && (p->gif = draw_gif_new(p->o->delay,
		    p->o->last_delay)) == NULL)
			return -1;
		return draw_gif_frame(p->gif, &p->sc);
	}
	return p->buf.fail ? -1 : 0;
}

/*
 * The one door of two-board positions: board A with White at the
 * bottom (Black with --flip), board B turned, so that White on A and
 * Black on B, partners, sit side by side.
 */
int
pic_draw_bply(struct pic *p, const struct zh_bply *pl,
    const char *name[2][2])
{
	struct draw_board b[2];
	int i, c;

	if (pl->move == NULL)
		memset(p->has_clock, 0, sizeof p->has_clock);
	else if (pl->move->has_clock) {
		p->has_clock[pl->move->board][pl->move->side] = true;
		p->clock[pl->move->board][pl->move->side] = pl->move->clock;
	}
	memset(b, 0, sizeof b);
	for (i = 0; i < 2; i++) {
		b[i].pos = pl->pos[i];
		b[i].black_bottom = (i == ZH_BOARD_B) != p->o->flip;
		for (c = 0; c < 2; c++) {
			b[i].name[c] = name != NULL ? name[i][c] : NULL;
			b[i].has_clock[c] = p->has_clock[i][c];
			b[i].clock[c] = p->clock[i][c];
		}
		if (pl->move != NULL && pl->move->board == i) {
			b[i].has_last = true;
			b[i].last = pl->move->rm.move;
		}
	}
	return pic_draw(p, b, 2);
}

static void
written_free(void)
{
	size_t i;

	for (i = 0; i < written.cap; i++)
		free(written.slot[i]);
	free(written.slot);
	written.slot = NULL;
	written.cap = written.n = 0;
}

static size_t
name_hash(const char *s)
{
	size_t h = 14695981039346656037u;

	while (*s != '\0')
		h = (h ^ (unsigned char)*s++) * 1099511628211u;
	return h;
}

/* path into the set of names written: 1 if it is new, 0 if it was
 * there, -1 out of memory. */
static int
name_claim_locked(const char *path)
{
	size_t i, k, cap;
	char **slot;

	if (written.n * 2 >= written.cap) {	/* grow: rehash every name */
		cap = written.cap == 0 ? 64 : written.cap * 2;
		if ((slot = calloc(cap, sizeof *slot)) == NULL)
			return -1;
		for (i = 0; i < written.cap; i++)
			if (written.slot[i] != NULL) {
				k = name_hash(written.slot[i]) & (cap - 1);
				while (slot[k] != NULL)
					k = (k + 1) & (cap - 1);
				slot[k] = written.slot[i];
			}
		if (written.slot == NULL)
			atexit(written_free);
		free(written.slot);
		written.slot = slot;
		written.cap = cap;
	}
	for (k = name_hash(path) & (written.cap - 1); written.slot[k] != NULL;
	    k = (k + 1) & (written.cap - 1))
		if (strcmp(written.slot[k], path) == 0)
			return 0;
	if ((written.slot[k] = strdup(path)) == NULL)
		return -1;
	written.n++;
	return 1;
}

static int
name_claim(const char *path)
{
	int rc;

	pthread_mutex_lock(&written.mu);
	rc = name_claim_locked(path);
	pthread_mutex_unlock(&written.mu);
	return rc;
}

/* A failure said: the run's exit status is 2; -1. */
#define FAIL(err, ...) \
	(fprintf(err, __VA_ARGS__), atomic_store(&failed, 1), -1)

/*
 * The file of the picture (n1, n2) open in p (p->fd; -2: the standard
 * output), under a temporary name renamed at the end (an interrupted run
 * leaves no cut picture, tmpout.h).  0, or -1 after a message.
 */
static int
target_open(struct pic *p, long n1, long n2, FILE *err)
{
	char path[4096];
	const char *in;
	long k;
	int e;

	if (p->o->nconv == 0 && (k = atomic_fetch_add(&singles, 1)) > 0) {
		atomic_store(&failed, 1);
		if (k > 1)	/* said once, not for every picture after */
			return -1;
		if (p->o->to_stdout)
			return FAIL(err, "%s: -o -: the standard output takes "
			    "one picture, and there are more: give -o a file "
			    "name with a %%d\n", cli_prog);
		return FAIL(err, "%s: -o '%s' names one picture, and there "
		    "are more: give it a %%d\n", cli_prog, p->o->pattern);
	}
	if (p->o->to_stdout) {
		p->fd = -2;
		p->open = true;
		return 0;
	}
	if (!file_name(p->o->pattern, n1, n2, path, sizeof path))
		return FAIL(err, "%s: -o '%s': the name is too long\n",
		    cli_prog, p->o->pattern);
	if ((e = name_claim(path)) <= 0)
		return FAIL(err, "%s: %s: %s\n", cli_prog, path, e < 0 ?
		    "out of memory" : "not written: this run wrote a picture "
		    "of that name already (-o's pattern gives it twice)");
	if ((in = cli_input_named(path)) != NULL)
		return FAIL(err, "%s: %s: cannot write: it is the input "
		    "%s\n", cli_prog, path, in);
	if ((p->path = strdup(path)) == NULL)
		return FAIL(err, "%s: %s: out of memory\n", cli_prog, path);
	if ((p->fd = tmpout_create(path, -1, p->path, &p->tmp)) < 0) {
		e = errno;
		free(p->path);
		p->path = NULL;
		return FAIL(err, "%s: %s: write error: %s\n", cli_prog, path,
		    strerror(e));
	}
	p->open = true;
	return 0;
}

/* p->buf onto the open file (or out, the standard output's stream;
 * stdout if NULL), emptied; 0, or errno. */
static int
target_put(struct pic *p, FILE *out)
{
	size_t off = 0;
	ssize_t n;
	int e = 0;

	if (p->open && p->fd == -2) {
		out = out != NULL ? out : stdout;
		errno = 0;
		if (fwrite(p->buf.p, 1, p->buf.len, out) != p->buf.len ||
		    fflush(out) != 0)
			e = errno != 0 ? errno : EIO;
	}
	while (p->open && p->fd >= 0 && off < p->buf.len && e == 0) {
		if ((n = write(p->fd, p->buf.p + off, p->buf.len - off)) < 0) {
			if (errno != EINTR)
				e = errno;
		} else
			off += (size_t)n;
	}
	p->buf.len = 0;
	return e;
}

/* The file closed: renamed to its name if ok, else removed.  0, or -1
 * after a message (e: the write's errno, 0 if it went well). */
static int
target_close(struct pic *p, int e, FILE *err)
{
	const char *name = p->fd == -2 ? "<stdout>" : p->path;
	bool file = p->open && p->fd >= 0;
	int rc = 0;

	if (file && close(p->fd) != 0 && e == 0)
		e = errno;
	if (file && e != 0)
		tmpout_drop(p->tmp, NULL);
	else if (file && tmpout_commit(p->tmp, p->path) != 0)
		e = errno;
	if (e != 0 && e != ENOMEM && p->fd == -2) {
		/* the standard output's stream is the tool's: its error is
		   said once, at the end, by cli.c (exit 2) */
		atomic_store(&failed, 1);
		rc = -1;
	} else if (e != 0)
		rc = FAIL(err, "%s: %s: write error: %s\n", cli_prog, name,
		    strerror(e));
	p->open = false;
	p->fd = -1;
	free(p->tmp);
	free(p->path);
	p->tmp = p->path = NULL;
	return rc;
}

int
pic_save(struct pic *p, long n1, long n2, FILE *out, FILE *err)
{
	if (p->o->pattern == NULL) {
		if (fwrite(p->buf.p, 1, p->buf.len, out) == p->buf.len)
			return 0;
		return FAIL(err, "%s: write error: %s\n", cli_prog,
		    strerror(errno));
	}
	if (target_open(p, n1, n2, err) != 0)
		return -1;
	return target_close(p, target_put(p, out), err);
}

int
pic_gif_frame(struct pic *p, long n1, FILE *err)
{
	int e;

	p->buf.len = 0;
	draw_gif_take(p->gif, &p->buf);
	if (p->buf.fail)
		return -1;
	if (p->stop || p->buf.len == 0) {	/* nowhere to go: dropped */
		p->buf.len = 0;
		return 0;
	}
	if (!p->open && target_open(p, n1, 0, err) != 0) {
		p->stop = true;
		p->buf.len = 0;
		return 0;
	}
	if ((e = target_put(p, NULL)) != 0) {
		target_close(p, e, err);
		p->stop = true;
	}
	return 0;
}

int
pic_gif_end(struct pic *p, long n1, FILE *err)
{
	bool stop = p->stop;
	int e;

	p->stop = false;
	if (p->gif == NULL)
		return 0;
	p->buf.len = 0;
	draw_gif_end(p->gif, &p->buf);
	if (p->buf.fail) {
		if (p->open)
			target_close(p, ENOMEM, err);
		return -1;
	}
	if (stop)		/* could not be written: said */
		return 1;
	if (p->buf.len == 0)
		return 0;
	if (!p->open && target_open(p, n1, 0, err) != 0)
		return 1;
	e = target_put(p, NULL);
	return target_close(p, e, err) != 0;
}

bool
pic_failed(void)
{
	return atomic_load(&failed) != 0;
}

void
pic_set_failed(void)
{
	atomic_store(&failed, 1);
}

void
pic_free(struct pic *p)
{
	if (p->open && p->fd >= 0) {	/* a GIF never ended: not written */
		close(p->fd);
		tmpout_drop(p->tmp, NULL);
	}
	free(p->tmp);
	free(p->path);
	p->tmp = p->path = NULL;
	p->open = false;
	draw_scene_free(&p->sc);
	draw_buf_free(&p->buf);
	draw_gif_free(p->gif);
	p->gif = NULL;
}
