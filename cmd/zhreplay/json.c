/*
 * json.c - -F jsonl: a position a line as one JSON object
 * (zhkit-json(5)), libzh's writers appending to the game's text.
 */
#include "format.h"

/* Added to the positions of an invalid game. */
#define BADMEMBER	",\"valid\":false"
#define BADLEN		(sizeof BADMEMBER - 1)

/* A position's JSON line of n bytes at p (reserved with room for
 * BADMEMBER and the newline) taken into the game's output; a position
 * of a game with an error says so. */
static inline void
json_line(struct state *st, char *p, size_t n)
{
	if (st->bad && n > 0 && p[n - 1] == '}') {
		memcpy(p + n - 1, BADMEMBER "}", BADLEN + 1);
		n += BADLEN;
	}
	p[n] = '\n';
	st->len += n + 1;
}

/*
 * The JSON text a writer appended to t, the game's output lent as a
 * struct zh_text ({ st->buf, st->len, st->cap }), taken back as a line
 * (rc: the writer's return value).
 */
static inline int
json_took(struct state *st, struct zh_text *t, int rc)
{
	size_t n = t->len - st->len;
	char *p;

	st->buf = t->s;
	st->cap = t->cap;
	if (rc != 0) {
		st->fail = true;
		return -1;
	}
	p = st->buf + st->len;
	if (st->cap - t->len < BADLEN + 1 &&
	    (p = reserve(st, n + 1 + BADLEN)) == NULL)
		return -1;
	json_line(st, p, n);
	return 0;
}

int
jsonl_ply(void *arg, const struct zh_ply *pl)
{
	struct state *st = arg;
	unsigned fl = st->o->variations ? ZH_PLY_VARIATION : 0;
	struct zh_text t = { st->buf, st->len, st->cap };

	if (!zh_plysel_match(&st->o->sel, pl) || pl->prefix)
		return 0;
	if (json_took(st, &t, zh_ply_json(&t, pl, st->o->dialect, fl)) != 0)
		return -1;
	return st->fail ? -1 : 0;
}

int
jsonl_bply(void *arg, const struct zh_bply *pl)
{
	struct state *st = arg;
	struct zh_text t = { st->buf, st->len, st->cap };

	if (zh_bply_match(&st->o->sel, pl) && json_took(st, &t,
	    zh_bply_json(&t, pl, st->g, st->o->dialect)) != 0)
		return -1;
	return st->fail ? -1 : 0;
}
