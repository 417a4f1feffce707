/*
 * read.c - an index read (zhkit-index(5)), the file taken as hostile:
 * its application id and schema version checked before anything else,
 * every blob's varints bounded by the blob's length; and an old index
 * read back into a new one's stream (add, merge).
 */
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>

#include "cli.h"
#include "zhi.h"

struct zhi_reader {
	sqlite3 *db;
	const char *path;
	sqlite3_stmt *look, *game, *tail, *moves;
	unsigned char *mv, *gm, *top;
	size_t nmv, ngm, ntop;
	int plies;
};

static int
pragma(sqlite3 *db, const char *sql, long *v)
{
	sqlite3_stmt *st;
	int rc = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW) {
		*v = (long)sqlite3_column_int64(st, 0);
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

static int
check(struct zhi_reader *x)
{
	long id = 0, ver = 0;
	char buf[32];

	if (pragma(x->db, "PRAGMA application_id", &id) != 0 ||
	    pragma(x->db, "PRAGMA user_version", &ver) != 0) {
		cli_fail("%s: not a zhindex index (%s)", x->path,
		    sqlite3_errmsg(x->db));
		return -1;
	}
	if (id != ZHI_APP_ID) {
		cli_fail("%s: not a zhindex index (not made by zhindex build)",
		    x->path);
		return -1;
	}
	if (ver != ZHI_VERSION) {
		cli_fail("%s: index schema version %ld; this zhindex reads "
		    "version %d", x->path, ver, ZHI_VERSION);
		return -1;
	}
	if (sqlite3_prepare_v2(x->db, "SELECT data FROM positions WHERE id <= ?"
	    " ORDER BY id DESC LIMIT 1", -1, &x->look, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(x->db, "SELECT data FROM tails WHERE id <= ?"
	    " ORDER BY id DESC LIMIT 1", -1, &x->tail, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(x->db, "SELECT variant, moves, result, rating_a"
	    " FROM games WHERE id = ?", -1, &x->moves, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(x->db, "SELECT g.id, g.input, g.number, g.line,"
	    " g.result, g.speed, g.month, g.rating_a, g.rating_b, g.white_elo,"
	    " g.black_elo, g.white_b_elo, g.black_b_elo, g.white, g.black,"
	    " g.white_b, g.black_b, g.date, g.site, i.name, g.variant FROM "
	    "games g LEFT JOIN inputs i ON i.id = g.input WHERE g.id = ?", -1,
	    &x->game, NULL) != SQLITE_OK ||
	    zhi_meta(x, "plies", buf, sizeof buf) == NULL) {
		cli_fail("%s: not a zhindex index (damaged: %s)", x->path,
		    sqlite3_errmsg(x->db));
		return -1;
	}
	x->plies = atoi(buf);
	return 0;
}

struct zhi_reader *
zhi_open(const char *path)
{
	struct zhi_reader *x = calloc(1, sizeof *x);
	char *uri;
	size_t n = strlen(path) * 3 + 32, i, k;

	if (x == NULL || (uri = malloc(n)) == NULL) {
		free(x);
		cli_fail("out of memory");
		return NULL;
	}
	/* immutable: an index is never changed in place, only replaced */
	k = (size_t)snprintf(uri, n, "file:");
	for (i = 0; path[i] != '\0'; i++)
		k += (size_t)(strchr("?#%", path[i]) ? snprintf(uri + k, n - k,
		    "%%%02X", (unsigned char)path[i]) : snprintf(uri + k, n - k,
		    "%c", path[i]));
	snprintf(uri + k, n - k, "?immutable=1");
	x->path = path;
	if (sqlite3_open_v2(uri, &x->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
	    NULL) != SQLITE_OK) {
		cli_fail("%s: cannot open: %s", path, x->db ?
		    sqlite3_errmsg(x->db) : "out of memory");
		free(uri);
		zhi_close(x);
		return NULL;
	}
	free(uri);
	if (check(x) != 0) {
		zhi_close(x);
		return NULL;
	}
	return x;
}

void
zhi_close(struct zhi_reader *x)
{
	if (x == NULL)
		return;
	sqlite3_finalize(x->look);
	sqlite3_finalize(x->game);
	sqlite3_finalize(x->tail);
	sqlite3_finalize(x->moves);
	sqlite3_close(x->db);
	free(x->mv);
	free(x->gm);
	free(x->top);
	free(x);
}

int
zhi_plies(const struct zhi_reader *x)
{
	return x->plies;
}

const char *
zhi_meta(struct zhi_reader *x, const char *name, char *buf, size_t size)
{
	sqlite3_stmt *st;
	const char *r = NULL;

	if (sqlite3_prepare_v2(x->db, "SELECT value FROM meta WHERE name = ?",
	    -1, &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_type(st, 0) != SQLITE_NULL) {
		snprintf(buf, size, "%s", (const char *)sqlite3_column_text(st, 0));
		r = buf;
	}
	sqlite3_finalize(st);
	return r;
}

static int
copy(unsigned char **to, size_t *n, const unsigned char *b, size_t len)
{
	free(*to);
	*to = NULL;
	*n = 0;
	if (len == 0)
		return 0;
	if ((*to = malloc(len)) == NULL)
		return -1;
	memcpy(*to, b, len);
	*n = len;
	return 0;
}

struct find {
	struct zh_key k;
	const struct zh_pos *p;
	struct zhi_grp *x;
	struct zhi_rec r;	/* the game's: its id, result, rating */
	bool fail;
};

static int
found(void *arg, struct zh_key k, uint32_t code)
{
	struct find *f = arg;

	if (k.hi != f->k.hi || k.lo != f->k.lo)
		return 0;
	f->r.move = code;
	if (zhi_grp_add(f->x, &f->r) != 0) {
		f->fail = true;
		return 1;
	}
	return 0;
}

/* Game id's records at the position of key k into f->x (none if it does
   not reach it or its moves are not stored): 0, -1 if its row is
   damaged. */
static int
game_reaches(struct zhi_reader *x, uint32_t id, struct find *f)
{
	sqlite3_stmt *st = x->moves;
	const struct zh_variant *v;
	const char *vn, *res;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) != SQLITE_ROW ||
	    sqlite3_column_type(st, 1) == SQLITE_NULL)
		return 0;
	vn = (const char *)sqlite3_column_text(st, 0);
	if (vn == NULL || (v = zh_variant_find(vn)) == NULL)
		return -1;
	res = (const char *)sqlite3_column_text(st, 2);
	memset(&f->r, 0, sizeof f->r);
	f->r.game = id;
	f->r.result = (uint8_t)(res == NULL ? ZHI_DRAW : strcmp(res, "1-0") ==
	    0 ? ZHI_WHITE : strcmp(res, "0-1") == 0 ? ZHI_BLACK : ZHI_DRAW);
	f->r.rating = (uint16_t)sqlite3_column_int(st, 3);
	if (zhi_moves_walk(v, sqlite3_column_blob(st, 1),
	    (size_t)sqlite3_column_bytes(st, 1), f->p, found, f) < 0 || f->fail)
		return -1;
	return 0;
}

static int
by_game_move(const void *a, const void *b)
{
	const struct zhi_rec *x = a, *y = b;

	if (x->game != y->game)
		return x->game < y->game ? -1 : 1;
	return x->move < y->move ? -1 : x->move > y->move;
}

/* The blobs of the records found, as the positions table holds them. */
static int
tail_blobs(struct zhi_reader *x, struct zhi_grp *g)
{
	unsigned char *b;
	size_t i, k = 0, nmv, ngm;

	qsort(g->g, g->ng, sizeof *g->g, by_game_move);
	for (i = 0; i < g->ng; i++)	/* a (game, move) once */
		if (k == 0 || by_game_move(&g->g[k - 1], &g->g[i]) != 0)
			g->g[k++] = g->g[i];
	g->ng = k;
	if (zhi_grp_moves(g) != 0 || (b = zhi_grp_room(g, 40 * (g->nm + 1) +
	    24 * (g->ng + 2) + 64)) == NULL)
		return -1;
	nmv = zhi_grp_moves_blob(g, b);
	ngm = g->ng == 1 ? 0 : zhi_grp_games_blob(g, b + nmv);
	return copy(&x->mv, &x->nmv, b, nmv) != 0 ||
	    copy(&x->gm, &x->ngm, b + nmv, ngm) != 0 ||
	    copy(&x->top, &x->ntop, NULL, 0) != 0 ? -1 : 0;
}

/* A position of the tails (not in positions): the games of its tails
   row with its fingerprint played back, the records of those that reach
   it grouped into its blobs (zhkit-index(5)).  1, 0 not there, -1. */
static int
tail_lookup(struct zhi_reader *x, struct zh_key k, const struct zh_pos *p)
{
	struct zhi_grp g = { 0 };
	struct find f = { .x = &g, .p = p };
	const unsigned char *b;
	uint32_t *gs;
	size_t n;
	long ng, i;
	int rc = 0;

	k.lo &= ~(uint64_t)0xffffffff;	/* the 96 bits stored */
	f.k = k;
	sqlite3_reset(x->tail);
	sqlite3_bind_int64(x->tail, 1, zhi_row_id(k.hi));
	if (sqlite3_step(x->tail) != SQLITE_ROW)
		return 0;
	b = sqlite3_column_blob(x->tail, 0);
	n = (size_t)sqlite3_column_bytes(x->tail, 0);
	if ((gs = malloc((n / 2 + 1) * sizeof *gs)) == NULL) {
		cli_fail("out of memory");
		return -1;
	}
	ng = b == NULL ? -1 : zhi_tail_games(b, n, zhi_tail_fp(k.lo), gs,
	    n / 2 + 1);
	for (i = 0; i < ng && rc == 0; i++)
		rc = game_reaches(x, gs[i], &f);
	if (ng < 0 || rc < 0) {
		cli_fail("%s: damaged index: a tails row or a game's moves do "
		    "not decode", x->path);
		rc = -1;
	} else if (g.ng > 0 && tail_blobs(x, &g) != 0) {
		cli_fail("out of memory");
		rc = -1;
	} else
		rc = g.ng > 0;
	free(gs);
	free(g.m);
	free(g.g);
	free(g.b);
	return rc;
}

int
zhi_lookup(struct zhi_reader *x, const struct zh_pos *pos)
{
	struct zh_key k = zhi_key(pos);
	unsigned char key[ZHI_KEYLEN];
	const unsigned char *p, *end;
	struct zhi_entry e;
	int rc, i;

	for (i = 0; i < 8; i++)
		key[i] = (unsigned char)(k.hi >> (56 - 8 * i));
	for (i = 0; i < 4; i++)
		key[8 + i] = (unsigned char)(k.lo >> (56 - 8 * i));
	sqlite3_reset(x->look);
	sqlite3_bind_int64(x->look, 1, zhi_row_id(k.hi));
	rc = sqlite3_step(x->look);
	if (rc == SQLITE_DONE)
		return tail_lookup(x, k, pos);
	if (rc != SQLITE_ROW) {
		cli_fail("%s: read error: %s", x->path, sqlite3_errmsg(x->db));
		return -1;
	}
	p = sqlite3_column_blob(x->look, 0);
	end = p + sqlite3_column_bytes(x->look, 0);
	while (p != NULL && (rc = zhi_bucket_next(&p, end, &e)) > 0)
		if (memcmp(e.key, key, ZHI_KEYLEN) == 0) {
			if (copy(&x->mv, &x->nmv, e.moves, e.nmoves) != 0 ||
			    copy(&x->gm, &x->ngm, e.games, e.ngames) != 0 ||
			    copy(&x->top, &x->ntop, e.top, e.ntop) != 0) {
				cli_fail("out of memory");
				return -1;
			}
			return 1;
		}
	if (p == NULL || rc < 0) {
		cli_fail("%s: damaged index: a bucket does not decode", x->path);
		return -1;
	}
	return tail_lookup(x, k, pos);
}

const unsigned char *
zhi_row_moves(const struct zhi_reader *x, size_t *n)
{
	*n = x->nmv;
	return x->mv;
}

const unsigned char *
zhi_row_games(const struct zhi_reader *x, size_t *n)
{
	*n = x->ngm;
	return x->gm;
}

const unsigned char *
zhi_row_top(const struct zhi_reader *x, size_t *n)
{
	*n = x->ntop;
	return x->top;
}

static void
col_text(sqlite3_stmt *st, int c, char *buf, size_t size)
{
	const unsigned char *s = sqlite3_column_text(st, c);

	snprintf(buf, size, "%s", s ? (const char *)s : "");
}

static int
result_code(const char *s)
{
	return strcmp(s, "1-0") == 0 ? ZHI_WHITE : strcmp(s, "0-1") == 0 ?
	    ZHI_BLACK : ZHI_DRAW;
}

int
zhi_game_row(struct zhi_reader *x, long id, struct zhi_grow *gr)
{
	sqlite3_stmt *st = x->game;
	char buf[32];
	int i;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) != SQLITE_ROW)
		return -1;
	memset(gr, 0, sizeof *gr);
	gr->id = id;
	gr->input = (long)sqlite3_column_int64(st, 1);
	gr->number = (long)sqlite3_column_int64(st, 2);
	gr->line = (long)sqlite3_column_int64(st, 3);
	col_text(st, 4, buf, sizeof buf);
	gr->result = result_code(buf);
	col_text(st, 5, buf, sizeof buf);
	gr->speed = ZHI_NSPEEDS - 1;
	for (i = 0; i < ZHI_NSPEEDS; i++)
		if (strcmp(buf, zhi_speeds[i]) == 0)
			gr->speed = i;
	col_text(st, 6, buf, sizeof buf);
	gr->month = zhi_month(buf);
	gr->rating[0] = sqlite3_column_int(st, 7);
	gr->rating[1] = sqlite3_column_int(st, 8);
	for (i = 0; i < 4; i++)
		gr->elo[i] = sqlite3_column_int(st, 9 + i);
	col_text(st, 13, gr->white, sizeof gr->white);
	col_text(st, 14, gr->black, sizeof gr->black);
	col_text(st, 15, gr->white_b, sizeof gr->white_b);
	col_text(st, 16, gr->black_b, sizeof gr->black_b);
	col_text(st, 17, gr->date, sizeof gr->date);
	col_text(st, 18, gr->site, sizeof gr->site);
	col_text(st, 19, gr->file, sizeof gr->file);
	col_text(st, 20, gr->variant, sizeof gr->variant);
	return 0;
}
