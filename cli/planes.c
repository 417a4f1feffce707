/*
 * planes.c - zhreplay -F planes: training tensors as NumPy files
 * (planes.h, zhkit-planes(5)); the tensors themselves are libzh's
 * (lib/planes.c).
 */
#define _GNU_SOURCE		/* fopencookie() */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "planes.h"
#include "tmpout.h"

#define GAME_HEAD	8	/* u32 records, u8 status, u8 positions left
				   out (no label), 2 bytes 0 */
enum { G_OK, G_NORESULT, G_VARIANT };

static const char *const dtype_names[] = { "uint8", "int8", "float16",
	"float32", NULL };
static const int dtype_size[] = { 1, 1, 2, 4 };

/* ======================== options ======================== */

static int
name_of(const char *const *names, const char *s)
{
	for (int i = 0; names[i] != NULL; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

int
planes_option(struct planes_opts *o, int c, const char *arg)
{
	static const char *const pol[] = { "flat", "map", NULL };
	char *end;
	double x;

	switch (c - PLANES_O_BASE) {
	case 0:
		if ((o->version = (int)cli_number(arg, 1, 3,
		    "--planes-version")) < 0)
			return -1;
		return 1;
	case 1:
		if ((o->dtype = name_of(dtype_names, arg)) < 0) {
			cli_fail("--dtype: '%s' is not uint8, int8, float16 or "
			    "float32", arg);
			return -1;
		}
		return 1;
	case 2:
		if ((c = name_of(pol, arg)) < 0) {
			cli_fail("--policy: '%s' is not flat or map", arg);
			return -1;
		}
		o->map = c == 1;
		return 1;
	case 3:
		o->mask = true;
		return 1;
	case 4:
		errno = 0;
		x = strtod(arg, &end);
		if (end == arg || *end != '\0' || errno != 0 || !(x >= 0) ||
		    x > 1) {
			cli_fail("--validation: '%s' is not a fraction 0-1",
			    arg);
			return -1;
		}
		o->validation = x;
		return 1;
	case 5:
		errno = 0;
		o->seed = strtoull(arg, &end, 10);
		if (end == arg || *end != '\0' || errno != 0 || *arg == '-') {
			cli_fail("--seed: '%s' is not a number", arg);
			return -1;
		}
		return 1;
	case 6:
		if ((o->shard = cli_number(arg, 1, 1000000000L,
		    "--shard")) < 0)
			return -1;
		return 1;
	case 7:
		o->normalize = true;
		return 1;
	default:
		return 0;
	}
}

/* The type the planes are written as. */
static int
dtype_of(const struct planes_opts *o)
{
	return o->dtype >= 0 ? o->dtype : o->version == 3 ? ZH_PLANES_INT8 :
	    ZH_PLANES_UINT8;
}

static size_t
planes_bytes(const struct planes_opts *o)
{
	return (size_t)zh_planes_count(o->version) * 64 *
	    (size_t)dtype_size[dtype_of(o)];
}

static size_t
mask_bytes(const struct planes_opts *o)
{
	return !o->mask ? 0 : o->map ? ZH_POLICY_MAP : ZH_POLICY_LABELS;
}

/* One position's record in the stream: planes, policy (int16), value
   (int8), mask. */
static size_t
rec_size(const struct planes_opts *o)
{
	return planes_bytes(o) + 3 + mask_bytes(o);
}

/* ======================== a worker's records ======================== */

static bool
room(struct planes_rec *w, size_t n)
{
	unsigned char *b;
	size_t cap;

	if (w->len + n <= w->cap)
		return true;
	cap = w->cap ? w->cap : 1 << 16;
	while (cap < w->len + n)
		cap *= 2;
	if ((b = realloc(w->buf, cap)) == NULL) {
		w->fail = true;
		return false;
	}
	w->buf = b;
	w->cap = cap;
	return true;
}

void
planes_game_begin(struct planes_rec *w, const struct planes_opts *o,
    const struct zh_variant *v)
{
	struct zh_pos p;

	w->o = o;
	w->len = 0;
	w->n = 0;
	w->nolabel = 0;
	w->have = false;
	w->nhist = 0;
	w->nseen = 0;
	w->result = 2;
	if (!room(w, GAME_HEAD))
		return;
	memset(w->buf, 0, GAME_HEAD);
	zh_pos_clear(&p, v);
	w->buf[4] = zh_policy_index(&p, (struct zh_move){ .from = ZH_SQ(0, 1),
	    .to = ZH_SQ(0, 2) }) < 0 ? G_VARIANT : G_OK;
	w->len = GAME_HEAD;
}

/* How many positions of the game so far repeat p (then p kept). */
static int
occurrences(struct planes_rec *w, const struct zh_pos *p)
{
	struct zh_posrec r, *s;
	size_t i;
	int n = 0;

	zh_posrec_fill(&r, p, -1);
	for (i = 0; i < w->nseen; i++)
		if (w->seen[i].key == r.key && zh_posrec_same(&w->seen[i], &r))
			n++;
	if (w->nseen == w->seencap) {
		size_t cap = w->seencap ? 2 * w->seencap : 256;

		if ((s = realloc(w->seen, cap * sizeof *s)) == NULL) {
			w->fail = true;
			return n;
		}
		w->seen = s;
		w->seencap = cap;
	}
	w->seen[w->nseen++] = r;
	return n;
}

static void
put_planes(struct planes_rec *w, unsigned char *q)
{
	const struct planes_opts *o = w->o;

	zh_planes(&w->prev, w->phist, w->nphist, w->pocc, o->version,
	    dtype_of(o) | (o->normalize ? ZH_PLANES_NORMALIZE : 0), q);
}

/* The waiting position's record, its move m. */
static void
put_record(struct planes_rec *w, struct zh_move m)
{
	const struct planes_opts *o = w->o;
	size_t pb = planes_bytes(o);
	unsigned char *q;
	int k, v;

	if (!room(w, rec_size(o)))
		return;
	q = w->buf + w->len;
	k = o->map ? zh_policy_map_index(&w->prev, m) :
	    zh_policy_index(&w->prev, m);
	if (k < 0) {		/* no label: chessgi's pawn dropped on
				   its first rank (counted) */
		w->nolabel++;
		return;
	}
	put_planes(w, q);
	q[pb] = (unsigned char)k;
	q[pb + 1] = (unsigned char)(k >> 8);
	v = w->prev.side == ZH_WHITE ? w->result : -w->result;
	q[pb + 2] = (unsigned char)(signed char)v;
	if (o->mask)
		zh_policy_mask(&w->prev, q + pb + 3, o->map);
	w->len += rec_size(o);
	w->n++;
}

static signed char
result_of(const char *r)
{
	if (r == NULL)
		return 2;
	if (strcmp(r, "1-0") == 0)
		return 1;
	if (strcmp(r, "0-1") == 0)
		return -1;
	if (strcmp(r, "1/2-1/2") == 0)
		return 0;
	return 2;
}

int
planes_ply(struct planes_rec *w, const struct zh_ply *pl, bool take)
{
	if (w->fail || w->len < GAME_HEAD || w->buf[4] == G_VARIANT ||
	    pl->line != 0)
		return 0;
	if (pl->ply == 0 || w->result == 2)
		w->result = result_of(pl->result);
	if (w->result == 2) {
		w->buf[4] = G_NORESULT;
		return 0;
	}
	if (w->have && pl->move != NULL && w->ptake)
		put_record(w, pl->move->move);
	if (pl->move == NULL)
		w->clock = pl->pos->halfmove;
	else if (pl->pos->taken != 0 || (!(pl->move->move.flags & ZH_MDROP) &&
	    ZH_TYPE(w->prev.sq[pl->move->move.from]) == ZH_PAWN))
		w->clock = 0;
	else
		w->clock++;
	if (pl->move != NULL) {
		memmove(w->hist + 1, w->hist, 7 * sizeof *w->hist);
		w->hist[0] = pl->move->move;
		if (w->nhist < 8)
			w->nhist++;
	}
	w->prev = *pl->pos;
	w->prev.halfmove = w->clock;
	memcpy(w->phist, w->hist, sizeof w->hist);
	w->nphist = w->nhist;
	w->pocc = occurrences(w, pl->pos);
	w->ptake = take;
	w->have = true;
	return w->fail ? -1 : 0;
}

void
planes_game_end(struct planes_rec *w)
{
	uint32_t n = (uint32_t)w->n;

	if (w->len < GAME_HEAD)
		return;
	if (w->buf[4] != G_OK)
		w->len = GAME_HEAD;
	else {
		memcpy(w->buf, &n, 4);
		w->buf[5] = (unsigned char)(w->nolabel > 255 ? 255 : w->nolabel);
	}
}

void
planes_rec_free(struct planes_rec *w)
{
	free(w->buf);
	free(w->seen);
	memset(w, 0, sizeof *w);
}

/* ======================== the files ======================== */

#define NFILES	4	/* planes, policy, value, mask */
#define HEAD	128	/* every .npy header's bytes (room for any count) */

struct file {
	char *path, *tmp;
};

struct split {
	FILE *f[NFILES];		/* the open shard's, NULL if none */
	char *vbuf[NFILES];		/* their stdio buffers */
	long n;				/* its positions */
	long shards, total, games;
};

struct planes {
	struct planes_opts o;
	char *dir;
	FILE *sink;
	size_t rsize;
	unsigned char *stage;		/* a header or record cut between
					   two writes */
	size_t have;
	long left;			/* records of the game still to come */
	int cur;			/* the game's split: 0 train, 1 val */
	unsigned long long game;	/* games seen */
	long noresult, variant;		/* games without records: why */
	long nolabel;			/* positions whose move has no
					   policy label */
	struct file *files;		/* every file begun, for the end */
	size_t nfiles;
	char **inputs;
	size_t ninputs;
	struct split s[2];
	bool failed;
	int err;
};

static const char *const split_names[2] = { "train", "validation" };
static const char *const file_names[NFILES] = { "planes", "policy",
	"value", "mask" };

/* The .npy header of file k of a shard of n positions into b[HEAD]. */
static void
npy_head(const struct planes_opts *o, int k, long n, unsigned char *b)
{
	static const char *const descr[] = { "|u1", "|i1", "<f2", "<f4" };
	char d[HEAD];
	int len;

	if (k == 0)
		len = snprintf(d, sizeof d, "{'descr': '%s', 'fortran_order': "
		    "False, 'shape': (%ld, %d, 8, 8), }", descr[dtype_of(o)],
		    n, zh_planes_count(o->version));
	else if (k == 3)
		len = snprintf(d, sizeof d, "{'descr': '|u1', 'fortran_order':"
		    " False, 'shape': (%ld, %zu), }", n, mask_bytes(o));
	else
		len = snprintf(d, sizeof d, "{'descr': '%s', 'fortran_order':"
		    " False, 'shape': (%ld,), }", k == 1 ? "<i2" : "|i1", n);
	memcpy(b, "\x93NUMPY\x01\x00", 8);
	b[8] = HEAD - 10;
	b[9] = 0;
	memset(b + 10, ' ', HEAD - 10);
	memcpy(b + 10, d, (size_t)len);
	b[HEAD - 1] = '\n';
}

static void
fail(struct planes *t, int e)
{
	if (!t->failed) {
		t->failed = true;
		t->err = e ? e : EIO;
	}
}

/* DIR/SPLIT-NNNNN-NAME.npy begun under a temporary name. */
static FILE *
begin_file(struct planes *t, int split, long shard, int k)
{
	size_t n = strlen(t->dir) + 64;
	struct file *fs;
	char *p = malloc(n), *tmp = NULL;
	unsigned char h[HEAD];
	FILE *f = NULL;
	int fd;

	fs = realloc(t->files, (t->nfiles + 1) * sizeof *fs);
	if (p == NULL || fs == NULL) {
		free(p);
		fail(t, ENOMEM);
		return NULL;
	}
	t->files = fs;
	snprintf(p, n, "%s/%s-%05ld-%s.npy", t->dir, split_names[split],
	    shard, file_names[k]);
	if ((fd = tmpout_create(p, -1, p, &tmp)) < 0 ||
	    (f = fdopen(fd, "wb")) == NULL) {
		fail(t, errno);
		cli_fail("%s: %s", p, strerror(errno));
		if (fd >= 0) {
			close(fd);
			tmpout_drop(tmp, NULL);
		}
		free(tmp);
		free(p);
		return NULL;
	}
	t->files[t->nfiles++] = (struct file){ p, tmp };
	/* large writes: a position's planes are kilobytes (glibc takes
	   no size without a buffer) */
	n = k == 0 || k == 3 ? 1 << 20 : 1 << 16;
	if ((t->s[split].vbuf[k] = malloc(n)) != NULL)
		setvbuf(f, t->s[split].vbuf[k], _IOFBF, n);
	npy_head(&t->o, k, 0, h);
	if (fwrite(h, 1, HEAD, f) != HEAD)
		fail(t, errno);
	return f;
}

/* The split's open shard completed: its count into its headers. */
static void
end_shard(struct planes *t, int split)
{
	struct split *s = &t->s[split];
	unsigned char h[HEAD];

	for (int k = 0; k < NFILES; k++) {
		if (s->f[k] == NULL)
			continue;
		npy_head(&t->o, k, s->n, h);
		if (fflush(s->f[k]) != 0 || fseek(s->f[k], 0, SEEK_SET) != 0 ||
		    fwrite(h, 1, HEAD, s->f[k]) != HEAD)
			fail(t, errno);
		if (fclose(s->f[k]) != 0)
			fail(t, errno);
		s->f[k] = NULL;
		free(s->vbuf[k]);
		s->vbuf[k] = NULL;
	}
	s->n = 0;
}

/* One record to the game's split, a shard begun when none is open. */
static void
put(struct planes *t, const unsigned char *rec)
{
	struct split *s = &t->s[t->cur];
	size_t pb = planes_bytes(&t->o), size[NFILES], off[NFILES];
	int k;

	size[0] = pb, size[1] = 2, size[2] = 1, size[3] = mask_bytes(&t->o);
	off[0] = 0, off[1] = pb, off[2] = pb + 2, off[3] = pb + 3;
	if (s->f[0] == NULL && !t->failed) {
		for (k = 0; k < NFILES; k++)
			if (size[k] > 0 && (s->f[k] = begin_file(t, t->cur,
			    s->shards, k)) == NULL)
				break;
		s->shards++;
	}
	if (t->failed)
		return;
	for (k = 0; k < NFILES; k++)
		if (size[k] > 0 && fwrite(rec + off[k], 1, size[k], s->f[k]) !=
		    size[k])
			fail(t, errno);
	s->total++;
	if (++s->n == t->o.shard)
		end_shard(t, t->cur);
}

/* A game's split: a hash of the seed and its number (splitmix64). */
static int
split_of(const struct planes *t)
{
	unsigned long long z = t->o.seed + t->game * 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return (double)(z >> 11) / 9007199254740992.0 < t->o.validation;
}

static void
got(struct planes *t, const unsigned char *p)
{
	uint32_t n;

	if (t->left > 0) {
		put(t, p);
		t->left--;
		return;
	}
	memcpy(&n, p, 4);
	t->game++;
	t->noresult += p[4] == G_NORESULT;
	t->variant += p[4] == G_VARIANT;
	t->nolabel += p[5];
	t->left = n;
	t->cur = split_of(t);
	if (n > 0)
		t->s[t->cur].games++;
}

static ssize_t
sink_write(void *cookie, const char *buf, size_t size)
{
	struct planes *t = cookie;
	const unsigned char *p = (const unsigned char *)buf;
	size_t left = size, need, take;

	while (left > 0) {
		need = t->left > 0 ? t->rsize : GAME_HEAD;
		if (t->have == 0 && left >= need) {
			got(t, p);
			p += need;
			left -= need;
			continue;
		}
		take = need - t->have < left ? need - t->have : left;
		memcpy(t->stage + t->have, p, take);
		t->have += take;
		p += take;
		left -= take;
		if (t->have == need) {
			got(t, t->stage);
			t->have = 0;
		}
	}
	return (ssize_t)size;
}

struct planes *
planes_open(const char *dir, const struct planes_opts *o)
{
	static const cookie_io_functions_t io = { .write = sink_write };
	struct planes *t = calloc(1, sizeof *t);

	if (t == NULL || (t->dir = strdup(dir)) == NULL ||
	    (t->stage = malloc(rec_size(o) + GAME_HEAD)) == NULL) {
		cli_fail("out of memory");
		goto fail;
	}
	t->o = *o;
	t->rsize = rec_size(o);
	if (o->dtype >= 0 && o->dtype <= ZH_PLANES_INT8 && o->normalize) {
		cli_fail("--normalize: only with --dtype float16 or float32");
		goto fail;
	}
	if (o->version == 3 && dtype_of(o) == ZH_PLANES_UINT8) {
		cli_fail("--dtype uint8: version 3's material differences are "
		    "negative (use int8, its default)");
		goto fail;
	}
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		cli_fail("%s: %s", dir, strerror(errno));
		goto fail;
	}
	if ((t->sink = fopencookie(t, "w", io)) == NULL) {
		cli_fail("out of memory");
		goto fail;
	}
	setvbuf(t->sink, NULL, _IONBF, 0);
	return t;
fail:
	if (t != NULL) {
		free(t->dir);
		free(t->stage);
	}
	free(t);
	return NULL;
}

FILE *
planes_sink(struct planes *t)
{
	return t->sink;
}

void
planes_input(struct planes *t, const char *name)
{
	char **f;

	fflush(t->sink);
	if ((f = realloc(t->inputs, (t->ninputs + 1) * sizeof *f)) == NULL ||
	    (f[t->ninputs] = strdup(name)) == NULL) {
		if (f != NULL)
			t->inputs = f;
		fail(t, ENOMEM);
		return;
	}
	t->inputs = f;
	t->ninputs++;
}

static int
text_append(struct zh_text *j, const char *s, size_t n)
{
	char *b;
	size_t cap;

	if (j->len + n + 1 > j->cap) {
		cap = j->cap ? j->cap : 1024;
		while (cap < j->len + n + 1)
			cap *= 2;
		if ((b = realloc(j->s, cap)) == NULL)
			return -1;
		j->s = b;
		j->cap = cap;
	}
	memcpy(j->s + j->len, s, n);
	j->len += n;
	j->s[j->len] = '\0';
	return 0;
}

/* DIR/manifest.json: the inputs, the options, the counts and shards. */
static int
manifest(struct planes *t, struct zh_text *j)
{
	const struct planes_opts *o = &t->o;
	char b[512];
	size_t i;
	int k;

	snprintf(b, sizeof b, "{\"format\":\"zhkit-planes\",\"version\":1,"
	    "\"planes_version\":%d,\"planes\":%d,\"dtype\":\"%s\","
	    "\"normalized\":%s,\"policy\":\"%s\",\"policy_size\":%d,"
	    "\"mask\":%s,\"validation_fraction\":%.17g,\"seed\":%llu,\"shard\":%ld,"
	    "\"inputs\":[", o->version, zh_planes_count(o->version),
	    dtype_names[dtype_of(o)], o->normalize ? "true" : "false",
	    o->map ? "map" : "flat", o->map ? ZH_POLICY_MAP :
	    ZH_POLICY_LABELS, o->mask ? "true" : "false", o->validation,
	    o->seed, o->shard);
	if (text_append(j, b, strlen(b)) != 0)
		return -1;
	for (i = 0; i < t->ninputs; i++)
		if ((i > 0 && text_append(j, ",", 1) != 0) ||
		    zh_json_string(j, t->inputs[i], strlen(t->inputs[i])) != 0)
			return -1;
	snprintf(b, sizeof b, "],\"games\":%llu,\"games_without_result\":%ld,"
	    "\"games_other_variant\":%ld,\"positions_without_label\":%ld", t->game,
	    t->noresult, t->variant, t->nolabel);
	if (text_append(j, b, strlen(b)) != 0)
		return -1;
	for (k = 0; k < 2; k++) {
		snprintf(b, sizeof b, ",\"%s\":{\"games\":%ld,\"positions\":%ld,"
		    "\"shards\":%ld}", split_names[k], t->s[k].games,
		    t->s[k].total, t->s[k].shards);
		if (text_append(j, b, strlen(b)) != 0)
			return -1;
	}
	return text_append(j, "}\n", 2);
}

static void
write_manifest(struct planes *t)
{
	struct zh_text j = { 0 };
	size_t n = strlen(t->dir) + 32;
	char *p = malloc(n), *tmp = NULL;
	struct file *fs;
	int fd = -1;

	if (p == NULL || manifest(t, &j) != 0 ||
	    (fs = realloc(t->files, (t->nfiles + 1) * sizeof *fs)) == NULL) {
		fail(t, ENOMEM);
		goto out;
	}
	t->files = fs;
	snprintf(p, n, "%s/manifest.json", t->dir);
	if ((fd = tmpout_create(p, -1, p, &tmp)) < 0) {
		fail(t, errno);
		goto out;
	}
	t->files[t->nfiles++] = (struct file){ p, tmp };
	p = NULL;
	if (write(fd, j.s, j.len) != (ssize_t)j.len)
		fail(t, errno);
	if (close(fd) != 0)
		fail(t, errno);
out:
	free(p);
	zh_text_free(&j);
}

int
planes_close(struct planes *t)
{
	size_t i;
	int rc = 0;

	if (fclose(t->sink) != 0 || t->have != 0 || t->left != 0)
		fail(t, EIO);
	end_shard(t, 0);
	end_shard(t, 1);
	if (!t->failed)
		write_manifest(t);
	for (i = 0; i < t->nfiles; i++) {
		if (t->failed)
			tmpout_drop(t->files[i].tmp, NULL);
		else if (tmpout_commit(t->files[i].tmp, t->files[i].path) != 0)
			fail(t, errno);
		free(t->files[i].tmp);
		free(t->files[i].path);
	}
	if (t->failed) {
		cli_fail("%s: write error: %s", t->dir, strerror(t->err));
		rc = -1;
	}
	for (i = 0; i < t->ninputs; i++)
		free(t->inputs[i]);
	free(t->inputs);
	free(t->files);
	free(t->stage);
	free(t->dir);
	free(t);
	return rc;
}
