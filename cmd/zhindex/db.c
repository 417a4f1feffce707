/*
 * db.c - the index written (zhkit-index(5)): a SQLite file made under a
 * temporary name beside its name (cli/tmpout.c) and renamed over it at
 * the end, so that an interrupted or failed build, add or merge leaves
 * the old index whole, and a reader sees the old file or the new one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sqlite3.h>

#include "cli.h"
#include "tmpout.h"
#include "zhi.h"

struct zhi_db {
	sqlite3 *db;
	char *path, *tmp;
	sqlite3_stmt *game, *input, *pos, *tail;
	int64_t bucket;			/* the row being filled: its first
					   key's id (zhi_row_id) */
	int64_t last;			/* the last key's id */
	unsigned char *bbuf;		/* its positions */
	size_t blen, bcap;
	int64_t trow, tlast;		/* the tails row being filled */
	uint64_t *tent;			/* its entries: game << 8 | fp */
	size_t ntent, tcap;
	unsigned char *tbuf;		/* its blob */
	size_t tbcap;
	unsigned char *stored;		/* by game id: its moves stored */
	size_t scap;
	long tails;			/* positions in the tails */
	int plies;
	long games, positions, moves, entries;
	uint32_t next;		/* the next game's id */
	long inputs;
	long base;		/* the inputs of the first index imported */
	bool imported;
};

static const char schema[] =
    "CREATE TABLE meta(name TEXT PRIMARY KEY, value) WITHOUT ROWID;"
    "CREATE TABLE inputs(id INTEGER PRIMARY KEY, name TEXT NOT NULL,"
    " games INTEGER NOT NULL DEFAULT 0);"
    "CREATE TABLE games(id INTEGER PRIMARY KEY, input INTEGER NOT NULL,"
    " number INTEGER, line INTEGER, variant TEXT, white TEXT, black TEXT,"
    " white_elo INTEGER, black_elo INTEGER, white_b TEXT, black_b TEXT,"
    " white_b_elo INTEGER, black_b_elo INTEGER, result TEXT, date TEXT,"
    " month TEXT, speed TEXT, time_control TEXT, event TEXT, site TEXT,"
    " plies INTEGER, rating_a INTEGER, rating_b INTEGER, moves BLOB);"
    "CREATE TABLE positions(id INTEGER PRIMARY KEY, data BLOB NOT NULL);"
    "CREATE TABLE tails(id INTEGER PRIMARY KEY, data BLOB NOT NULL);";

static void
say(struct zhi_db *d, const char *what)
{
	cli_fail("%s: %s: %s", d->path, what, d->db ? sqlite3_errmsg(d->db) :
	    "out of memory");
}

static int
exec(struct zhi_db *d, const char *sql)
{
	if (sqlite3_exec(d->db, sql, NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	say(d, "write error");
	return -1;
}

static int
prepare(struct zhi_db *d, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(d->db, sql, -1, st, NULL) == SQLITE_OK)
		return 0;
	say(d, "cannot prepare");
	return -1;
}

static int
setup(struct zhi_db *d, size_t memory)
{
	char sql[512];
	long kb = (long)(memory / 4 / 1024);

	if (kb < 2048)
		kb = 2048;
	snprintf(sql, sizeof sql, "PRAGMA journal_mode=OFF;"
	    "PRAGMA synchronous=OFF; PRAGMA locking_mode=EXCLUSIVE;"
	    "PRAGMA cache_size=-%ld; PRAGMA temp_store=FILE;"
	    "PRAGMA application_id=%d; PRAGMA user_version=%d;", kb,
	    ZHI_APP_ID, ZHI_VERSION);
	if (exec(d, sql) != 0 || exec(d, schema) != 0 || exec(d, "BEGIN") != 0)
		return -1;
	return prepare(d, "INSERT INTO games VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,"
	    "?,?,?,?,?,?,?,?,?,?,?)", &d->game) != 0 ||
	    prepare(d, "INSERT INTO tails VALUES(?,?)", &d->tail) != 0 ||
	    prepare(d, "INSERT INTO inputs(id, name) VALUES(?,?)",
	    &d->input) != 0 ||
	    prepare(d, "INSERT INTO positions VALUES(?,?)", &d->pos) != 0 ? -1 : 0;
}

struct zhi_db *
zhi_db_create(const char *path, int plies, size_t memory)
{
	struct zhi_db *d = calloc(1, sizeof *d);
	int fd;

	if (d == NULL || (d->path = strdup(path)) == NULL) {
		free(d);
		cli_fail("out of memory");
		return NULL;
	}
	d->plies = plies;
	d->next = 1;
	if ((fd = tmpout_create(path, -1, d->path, &d->tmp)) < 0) {
		cli_fail("%s: cannot write: %s", path, strerror(errno));
		free(d->path);
		free(d);
		return NULL;
	}
	close(fd);
	/* one thread at a time writes (the sink): no mutexes, no memory
	   statistics (each a lock per allocation) */
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	if (sqlite3_open_v2(d->tmp, &d->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK || setup(d, memory) != 0) {
		if (d->db != NULL && sqlite3_errcode(d->db) != SQLITE_OK)
			say(d, "cannot write");
		zhi_db_abort(d);
		return NULL;
	}
	return d;
}

static int
step(struct zhi_db *d, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc == SQLITE_DONE)
		return 0;
	say(d, "write error");
	return -1;
}

int
zhi_db_input(struct zhi_db *d, const char *name, long *id)
{
	*id = ++d->inputs;
	sqlite3_bind_int64(d->input, 1, *id);
	sqlite3_bind_text(d->input, 2, name, -1, SQLITE_TRANSIENT);
	return step(d, d->input);
}

static void
text(sqlite3_stmt *st, int i, const char *s)
{
	/* its length given: SQLite's own count goes a byte at a time */
	if (s != NULL)
		sqlite3_bind_text(st, i, s, (int)strlen(s), SQLITE_STATIC);
}

static void
num(sqlite3_stmt *st, int i, long v)
{
	if (v > 0)
		sqlite3_bind_int64(st, i, v);
}

static uint16_t
mean(int a, int b)
{
	return (uint16_t)(a > 0 && b > 0 ? (a + b) / 2 : a > 0 ? a : b);
}

/* Whether game id's moves are stored (its positions of one game in the
   tails). */
static int
set_stored(struct zhi_db *d, uint32_t id, bool on)
{
	if (id >= d->scap) {
		size_t c = d->scap ? 2 * d->scap : 4096;
		unsigned char *b;

		while (c <= id)
			c *= 2;
		if ((b = realloc(d->stored, c)) == NULL) {
			cli_fail("out of memory");
			return -1;
		}
		memset(b + d->scap, 0, c - d->scap);
		d->stored = b;
		d->scap = c;
	}
	d->stored[id] = on;
	return 0;
}

static bool
stored(const struct zhi_db *d, uint32_t id)
{
	return id < d->scap && d->stored[id];
}

int
zhi_db_game(struct zhi_db *d, long input, const struct zhi_game *gm,
    uint32_t *id)
{
	static const char *const res[] = { "1-0", "1/2-1/2", "0-1" };
	sqlite3_stmt *st = d->game;
	char month[16];

	*id = d->next++;
	d->games++;
	sqlite3_bind_int64(st, 1, *id);
	sqlite3_bind_int64(st, 2, input);
	num(st, 3, gm->number);
	num(st, 4, gm->line);
	text(st, 5, gm->variant);
	text(st, 6, gm->white);
	text(st, 7, gm->black);
	num(st, 8, gm->elo[0]);
	num(st, 9, gm->elo[1]);
	text(st, 10, gm->white_b);
	text(st, 11, gm->black_b);
	num(st, 12, gm->elo[2]);
	num(st, 13, gm->elo[3]);
	text(st, 14, res[gm->result]);
	text(st, 15, gm->date);
	if (gm->month > 0) {	/* "%04d-%02d", snprintf's a tenth */
		int y = gm->month / 12, m = gm->month % 12 + 1;

		if (y > 9999)
			snprintf(month, sizeof month, "%04d-%02d", y, m);
		else {
			month[0] = (char)('0' + y / 1000);
			month[1] = (char)('0' + y / 100 % 10);
			month[2] = (char)('0' + y / 10 % 10);
			month[3] = (char)('0' + y % 10);
			month[4] = '-';
			month[5] = (char)('0' + m / 10);
			month[6] = (char)('0' + m % 10);
			month[7] = '\0';
		}
		sqlite3_bind_text(st, 16, month, (int)strlen(month),
		    SQLITE_TRANSIENT);
	}
	text(st, 17, zhi_speeds[gm->speed]);
	text(st, 18, gm->tc);
	text(st, 19, gm->event);
	text(st, 20, gm->site);
	sqlite3_bind_int64(st, 21, gm->plies);
	num(st, 22, mean(gm->elo[0], gm->elo[1]));
	if (gm->boards > 1)
		num(st, 23, mean(gm->elo[2], gm->elo[3]));
	if (gm->moves != NULL)
		sqlite3_bind_blob(st, 24, gm->nmoves ? (const void *)gm->moves :
		    "", (int)gm->nmoves, SQLITE_STATIC);
	if (set_stored(d, *id, gm->moves != NULL) != 0)
		return -1;
	return step(d, st);
}

long
zhi_db_games(const struct zhi_db *d)
{
	return d->games;
}

/* ---------------- the positions ---------------- */

/* Better for the top list: higher rating, then the earlier game; for
   the recent: the later month, then the later game. */
static bool
better(const struct zhi_rec *a, const struct zhi_rec *b, bool top)
{
	if (top)
		return a->rating != b->rating ? a->rating > b->rating :
		    a->game < b->game;
	return a->month != b->month ? a->month > b->month : a->game > b->game;
}

static size_t
list(const struct zhi_grp *x, unsigned char *b, bool top)
{
	const struct zhi_rec *best[ZHI_TOP];
	size_t i, k, nb = 0, n;

	for (i = 0; i < x->ng; i++) {
		const struct zhi_rec *r = &x->g[i];

		if (i > 0 && x->g[i - 1].game == r->game)
			continue;	/* a game once */
		for (k = nb; k > 0 && better(r, best[k - 1], top); k--)
			if (k < ZHI_TOP)
				best[k] = best[k - 1];
		if (k < ZHI_TOP) {
			best[k] = r;
			if (nb < ZHI_TOP)
				nb++;
		}
	}
	n = zhi_put(b, nb);
	for (k = 0; k < nb; k++) {
		n += zhi_put(b + n, best[k]->game);
		n += zhi_put(b + n, zhi_grp_move_index(x, best[k]->move) * 2 +
		    best[k]->board);
	}
	return n;
}

/* A key's id for the rows: its high 63 bits. */
int64_t
zhi_row_id(uint64_t hi)
{
	return (int64_t)(hi >> 1);
}

/* The bucket filled written as its row. */
static int
bucket_flush(struct zhi_db *d)
{
	if (d->blen == 0)
		return 0;
	sqlite3_bind_int64(d->pos, 1, (int64_t)d->bucket);
	sqlite3_bind_blob(d->pos, 2, d->bbuf, (int)d->blen, SQLITE_STATIC);
	d->blen = 0;
	return step(d, d->pos);
}

/* A position into its bucket: key, then each blob after its length. */
static int
bucket_add(struct zhi_db *d, const struct zhi_rec *k, const unsigned char *b,
    size_t nmv, size_t ngm, size_t ntop)
{
	int64_t id = zhi_row_id(k->hi);
	size_t n = ZHI_KEYLEN + 30 + nmv + ngm + ntop, i;
	unsigned char *q;

	if (d->blen >= ZHI_ROW && id != d->last && bucket_flush(d) != 0)
		return -1;
	if (d->blen == 0)
		d->bucket = id;
	d->last = id;
	if (d->blen + n > d->bcap) {
		size_t c = d->bcap ? d->bcap : 65536;

		while (c < d->blen + n)
			c *= 2;
		if ((q = realloc(d->bbuf, c)) == NULL) {
			cli_fail("out of memory");
			return -1;
		}
		d->bbuf = q;
		d->bcap = c;
	}
	q = d->bbuf + d->blen;
	for (i = 0; i < 8; i++)
		*q++ = (unsigned char)(k->hi >> (56 - 8 * i));
	for (i = 0; i < 4; i++)
		*q++ = (unsigned char)(k->lo >> (56 - 8 * i));
	q += zhi_put(q, nmv);
	memcpy(q, b, nmv);
	q += nmv;
	q += zhi_put(q, ngm);
	memcpy(q, b + nmv, ngm);
	q += ngm;
	q += zhi_put(q, ntop);
	memcpy(q, b + nmv + ngm, ntop);
	q += ntop;
	d->blen = (size_t)(q - d->bbuf);
	return 0;
}

/* Sort v[0..n) ascending (a quicksort inlined: qsort's calls cost more
   than the rows' few hundred entries). */
static void
sort_u64(uint64_t *v, size_t n)
{
	while (n > 16) {
		size_t i = 0, j = n - 1;
		uint64_t pv = v[n / 2], t;

		for (;;) {
			while (v[i] < pv)
				i++;
			while (pv < v[j])
				j--;
			if (i >= j)
				break;
			t = v[i];
			v[i++] = v[j];
			v[j--] = t;
		}
		if (j + 1 < n - j - 1) {
			sort_u64(v, j + 1);
			v += j + 1;
			n -= j + 1;
		} else {
			sort_u64(v + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	for (size_t i = 1; i < n; i++) {
		uint64_t t = v[i];
		size_t k = i;

		for (; k > 0 && t < v[k - 1]; k--)
			v[k] = v[k - 1];
		v[k] = t;
	}
}

/* The tails row filled written: its entries by game, each the game id
   minus the previous (a varint) and the fingerprint (a byte). */
static int
tail_flush(struct zhi_db *d)
{
	size_t i, n = 0;
	uint64_t prev = 0;

	if (d->ntent == 0)
		return 0;
	sort_u64(d->tent, d->ntent);
	if (11 * d->ntent > d->tbcap) {
		unsigned char *b = realloc(d->tbuf, 11 * d->tcap);

		if (b == NULL) {
			cli_fail("out of memory");
			return -1;
		}
		d->tbuf = b;
		d->tbcap = 11 * d->tcap;
	}
	for (i = 0; i < d->ntent; i++) {
		n += zhi_put(d->tbuf + n, (d->tent[i] >> 8) - prev);
		prev = d->tent[i] >> 8;
		d->tbuf[n++] = (unsigned char)(d->tent[i] & 0xff);
	}
	d->ntent = 0;
	sqlite3_bind_int64(d->tail, 1, (int64_t)d->trow);
	sqlite3_bind_blob(d->tail, 2, d->tbuf, (int)n, SQLITE_STATIC);
	return step(d, d->tail);
}

/* A game of a position of the tails: its entry. */
static int
tail_add(struct zhi_db *d, const struct zhi_rec *k, uint32_t game)
{
	int64_t id = zhi_row_id(k->hi);

	if (d->ntent >= ZHI_TAILROW && id != d->tlast && tail_flush(d) != 0)
		return -1;
	if (d->ntent == 0)
		d->trow = id;
	d->tlast = id;
	if (d->ntent == d->tcap) {
		size_t c = d->tcap ? 2 * d->tcap : 1024;
		uint64_t *t = realloc(d->tent, c * sizeof *t);

		if (t == NULL) {
			cli_fail("out of memory");
			return -1;
		}
		d->tent = t;
		d->tcap = c;
	}
	d->tent[d->ntent++] = (uint64_t)game << 8 | zhi_tail_fp(k->lo);
	return 0;
}

/* A position of at most ZHI_TAILMAX records, all of games whose moves
   are stored, on board A: to the tails, an entry a game (1), else 0. */
static int
tail_position(struct zhi_db *d, const struct zhi_grp *x,
    const struct zhi_rec *k)
{
	size_t i;

	if (x->ng > ZHI_TAILMAX)
		return 0;
	for (i = 0; i < x->ng; i++)
		if (x->g[i].board != 0 || !stored(d, x->g[i].game))
			return 0;
	for (i = 0; i < x->ng; i++)
		if ((i == 0 || x->g[i - 1].game != x->g[i].game) &&
		    tail_add(d, k, x->g[i].game) != 0)
			return -1;
	d->tails++;
	return 1;
}

static int
grp_write(struct zhi_db *d, struct zhi_grp *x, const struct zhi_rec *k)
{
	unsigned char *b;
	size_t nmv, ngm, ntop, i;
	int games = 0, rc;

	d->positions++;
	d->entries += (long)x->ng;
	if ((rc = tail_position(d, x, k)) != 0) {
		/* its distinct moves counted: a few records, no blobs */
		for (i = 0; i < x->ng; i++) {
			size_t j;

			for (j = 0; j < i && x->g[j].move != x->g[i].move; j++)
				;
			d->moves += j == i && x->g[i].move != 0;
		}
		return rc < 0 ? -1 : 0;
	}
	if (zhi_grp_moves(x) != 0 || (b = zhi_grp_room(x, 40 * (x->nm + 1) +
	    24 * (x->ng + 2) + 64)) == NULL) {
		cli_fail("out of memory");
		return -1;
	}
	for (i = 0; i < x->nm; i++)
		d->moves += x->m[i].code != 0;
	for (i = 0; i < x->ng; i++)
		games += i == 0 || x->g[i - 1].game != x->g[i].game;
	nmv = zhi_grp_moves_blob(x, b);
	ngm = x->ng == 1 && x->g[0].board == 0 ? 0 : zhi_grp_games_blob(x, b + nmv);
	ntop = 0;
	if (games > ZHI_LISTED) {
		ntop = list(x, b + nmv + ngm, true);
		ntop += list(x, b + nmv + ngm + ntop, false);
	}
	return bucket_add(d, k, b, nmv, ngm, ntop);
}

int
zhi_db_positions(struct zhi_db *d, struct zhi_sort *s)
{
	struct zhi_grp x = { 0 };
	struct zhi_rec r, k = { 0 };
	int rc;

	while ((rc = zhi_sort_next(s, &r)) > 0) {
		if (x.ng > 0 && (r.hi != k.hi || r.lo != k.lo)) {
			if (grp_write(d, &x, &k) != 0)
				goto fail;
			x.ng = 0;
		}
		if (x.ng > 0 && r.game == x.g[x.ng - 1].game &&
		    r.move == x.g[x.ng - 1].move && r.board == x.g[x.ng - 1].board)
			continue;	/* the same game given twice (merge) */
		k = r;
		if (zhi_grp_add(&x, &r) != 0) {
			cli_fail("out of memory");
			goto fail;
		}
	}
	if (rc < 0) {
		cli_fail("%s: a temporary run could not be read: %s", d->path,
		    strerror(errno));
		goto fail;
	}
	if ((x.ng > 0 && grp_write(d, &x, &k) != 0) || bucket_flush(d) != 0 ||
	    tail_flush(d) != 0)
		goto fail;
	free(x.m);
	free(x.g);
	free(x.b);
	return 0;
fail:
	free(x.m);
	free(x.g);
	free(x.b);
	return -1;
}

static int
meta(struct zhi_db *d, const char *name, long v, const char *s)
{
	char sql[256];

	if (s != NULL)
		snprintf(sql, sizeof sql, "INSERT INTO meta VALUES('%s','%s')",
		    name, s);
	else
		snprintf(sql, sizeof sql, "INSERT INTO meta VALUES('%s',%ld)",
		    name, v);
	return exec(d, sql);
}

/* A warning for each input in the index more than once under the same
   name with the same number of games (an index merged with itself, a
   month added twice), once: when one of them is new here. */
static void
repeated_inputs(struct zhi_db *d)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(d->db, "SELECT name, count(*), games FROM "
	    "inputs WHERE name <> '<stdin>' GROUP BY name, games HAVING "
	    "count(*) > 1 AND max(id) > ? ORDER BY min(id)", -1, &st, NULL) !=
	    SQLITE_OK)
		return;
	sqlite3_bind_int64(st, 1, d->base);
	while (sqlite3_step(st) == SQLITE_ROW)
		cli_fail("%s: warning: %s is in the index %d times, its %lld "
		    "game%s counted each time", d->path,
		    (const char *)sqlite3_column_text(st, 0),
		    sqlite3_column_int(st, 1), sqlite3_column_int64(st, 2),
		    sqlite3_column_int64(st, 2) == 1 ? "" : "s");
	sqlite3_finalize(st);
}

int
zhi_db_commit(struct zhi_db *d)
{
	int rc;

	rc = meta(d, "format", 0, "zhkit-index") || meta(d, "version",
	    ZHI_VERSION, NULL) || meta(d, "key_bits", ZHI_KEYLEN * 8, NULL) ||
	    meta(d, "tails", d->tails, NULL) ||
	    meta(d, "plies", d->plies, NULL) || meta(d, "games", d->games,
	    NULL) || meta(d, "positions", d->positions, NULL) ||
	    meta(d, "moves", d->moves, NULL) || meta(d, "entries",
	    d->entries, NULL) || meta(d, "writer", 0, "zhindex " ZH_VERSION) ||
	    exec(d, "UPDATE inputs SET games = (SELECT count(*) FROM games "
	    "WHERE games.input = inputs.id)");
	if (rc == 0)
		repeated_inputs(d);
	rc = rc || exec(d, "COMMIT");
	sqlite3_finalize(d->game);
	sqlite3_finalize(d->input);
	sqlite3_finalize(d->pos);
	sqlite3_finalize(d->tail);
	d->game = d->input = d->pos = d->tail = NULL;
	if (rc == 0 && sqlite3_close(d->db) != SQLITE_OK) {
		say(d, "write error");
		rc = -1;
	} else if (rc == 0)
		d->db = NULL;
	if (rc == 0 && tmpout_commit(d->tmp, d->path) != 0) {
		cli_fail("%s: cannot rename: %s", d->path, strerror(errno));
		rc = -1;
	}
	if (rc != 0) {
		zhi_db_abort(d);
		return -1;
	}
	free(d->bbuf);
	free(d->tent);
	free(d->tbuf);
	free(d->stored);
	free(d->tmp);
	free(d->path);
	free(d);
	return 0;
}

void
zhi_db_abort(struct zhi_db *d)
{
	if (d == NULL)
		return;
	sqlite3_finalize(d->game);
	sqlite3_finalize(d->input);
	sqlite3_finalize(d->pos);
	sqlite3_finalize(d->tail);
	if (d->db != NULL)
		sqlite3_close(d->db);
	if (d->tmp != NULL)
		tmpout_drop(d->tmp, "the old file, if any, is kept");
	free(d->bbuf);
	free(d->tent);
	free(d->tbuf);
	free(d->stored);
	free(d->tmp);
	free(d->path);
	free(d);
}

/* ---------------- an old index read back ---------------- */

struct old {
	uint16_t rating[2], month;
	uint8_t result;
	bool stored;		/* its records from its moves, not its rows */
};

/* The old games' rows copied with their ids moved past d's; their
   facts into *g (by old id). */
static int
import_games(struct zhi_db *d, struct old **g, long *ngames)
{
	sqlite3_stmt *st;
	long inbase = d->inputs, n = 0;
	uint32_t base = d->next - 1;
	char sql[1024];
	int rc = 0;

	snprintf(sql, sizeof sql, "INSERT INTO inputs(id, name) SELECT id + "
	    "%ld, name FROM old.inputs ORDER BY id; INSERT INTO games SELECT "
	    "id + %lu, input + %ld, number, line, variant, white, black, "
	    "white_elo, black_elo, white_b, black_b, white_b_elo, black_b_elo,"
	    " result, date, month, speed, time_control, event, site, plies, "
	    "rating_a, rating_b, moves FROM old.games ORDER BY id", inbase,
	    (unsigned long)base, inbase);
	if (exec(d, sql) != 0 || sqlite3_prepare_v2(d->db, "SELECT id, result, "
	    "month, rating_a, rating_b, moves IS NOT NULL FROM old.games "
	    "ORDER BY id", -1, &st, NULL) != SQLITE_OK)
		return -1;
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
		long id = (long)sqlite3_column_int64(st, 0);
		const unsigned char *res = sqlite3_column_text(st, 1);
		struct old *o;

		if (id != n + 1 || (o = realloc(*g, (size_t)(n + 1) *
		    sizeof *o)) == NULL) {
			rc = -1;
			break;
		}
		*g = o;
		o += n++;
		o->result = res == NULL ? ZHI_DRAW : strcmp((const char *)res,
		    "1-0") == 0 ? ZHI_WHITE : strcmp((const char *)res, "0-1") ==
		    0 ? ZHI_BLACK : ZHI_DRAW;
		o->month = (uint16_t)zhi_month((const char *)
		    sqlite3_column_text(st, 2));
		o->rating[0] = (uint16_t)sqlite3_column_int(st, 3);
		o->rating[1] = (uint16_t)sqlite3_column_int(st, 4);
		o->stored = sqlite3_column_int(st, 5) != 0;
		if (set_stored(d, (uint32_t)(base + n), o->stored) != 0) {
			rc = -1;
			break;
		}
	}
	sqlite3_finalize(st);
	if (rc != 0) {
		cli_fail("%s: an imported index's games are not numbered 1 to N",
		    d->path);
		return -1;
	}
	*ngames = n;
	d->games += n;
	d->next += (uint32_t)n;
	sqlite3_prepare_v2(d->db, "SELECT count(*) FROM old.inputs", -1, &st,
	    NULL);
	if (sqlite3_step(st) == SQLITE_ROW)
		d->inputs += (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (!d->imported)	/* its own repeats were said when it was made */
		d->base = d->inputs;
	d->imported = true;
	return 0;
}

/* One position's rows back into records. */
static int
import_row(struct zhi_sort *s, const unsigned char *key,
    const unsigned char *mb, size_t mn, const unsigned char *gb, size_t gn,
    const struct old *g, long ngames, uint32_t base)
{
	static struct zhi_move m[4096];
	struct zhi_gref one, *refs;
	struct zhi_rec r = { 0 };
	long nm, ng, i;

	if ((nm = zhi_moves_decode(mb, mn, m, 4096)) < 0)
		return -1;
	if (gb == NULL) {
		one.game = (uint32_t)m[0].first;
		one.move = 0;
		one.board = 0;
		refs = &one;
		ng = 1;
	} else {
		if ((refs = malloc(gn * sizeof *refs)) == NULL)
			return -1;
		ng = zhi_games_decode(gb, gn, refs, gn);
	}
	for (i = 0; i < 8; i++)
		r.hi = r.hi << 8 | key[i];
	for (i = 0; i < 4; i++)
		r.lo = r.lo << 8 | key[8 + i];
	r.lo <<= 32;
	for (i = 0; i < ng; i++) {
		const struct old *o;

		if (refs[i].game < 1 || refs[i].game > ngames ||
		    refs[i].move >= (uint32_t)nm)
			break;
		o = &g[refs[i].game - 1];
		if (o->stored)
			continue;	/* its records from its moves */
		r.game = refs[i].game + base;
		r.move = m[refs[i].move].code;
		r.board = refs[i].board;
		r.rating = o->rating[r.board];
		r.month = o->month;
		r.result = (uint8_t)(r.board ? 2 - o->result : o->result);
		if (zhi_sort_add(s, &r) != 0)
			break;
	}
	if (refs != &one)
		free(refs);
	return ng < 0 || i < ng ? -1 : 0;
}

/* A bucket's positions back into records. */
static int
import_bucket(struct zhi_sort *s, const unsigned char *b, size_t n,
    const struct old *g, long ngames, uint32_t base)
{
	const unsigned char *p = b, *end = b + n;
	struct zhi_entry e;
	int rc;

	if (b == NULL)
		return -1;
	while ((rc = zhi_bucket_next(&p, end, &e)) > 0)
		if (import_row(s, e.key, e.moves, e.nmoves, e.ngames ?
		    e.games : NULL, e.ngames, g, ngames, base) != 0)
			return -1;
	return rc;
}

struct replay {
	struct zhi_sort *s;
	struct zhi_rec r;
};

static int
replayed(void *arg, struct zh_key k, uint32_t code)
{
	struct replay *p = arg;

	p->r.hi = k.hi;
	p->r.lo = k.lo;
	p->r.move = code;
	return zhi_sort_add(p->s, &p->r) != 0 ? -1 : 0;
}

/* The records of the old games whose moves are stored, from their moves
   played back. */
static int
import_moves(struct zhi_db *d, struct zhi_sort *s, const struct old *g,
    long ngames, uint32_t base)
{
	struct replay p = { .s = s };
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(d->db, "SELECT id, variant, moves FROM old.games"
	    " WHERE moves IS NOT NULL ORDER BY id", -1, &st, NULL) != SQLITE_OK)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long id = (long)sqlite3_column_int64(st, 0);
		const char *vn = (const char *)sqlite3_column_text(st, 1);
		const struct zh_variant *v = vn ? zh_variant_find(vn) : NULL;
		const struct old *o;

		if (id < 1 || id > ngames || v == NULL)
			break;
		o = &g[id - 1];
		memset(&p.r, 0, sizeof p.r);
		p.r.game = (uint32_t)(id + base);
		p.r.rating = o->rating[0];
		p.r.month = o->month;
		p.r.result = o->result;
		if (zhi_moves_walk(v, sqlite3_column_blob(st, 2),
		    (size_t)sqlite3_column_bytes(st, 2), NULL, replayed, &p) != 0)
			break;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int
zhi_db_import(struct zhi_db *d, struct zhi_sort *s, const char *path,
    int plies)
{
	struct zhi_reader *x = zhi_open(path);
	struct old *g = NULL;
	sqlite3_stmt *st = NULL;
	long ngames = 0;
	uint32_t base = d->next - 1;
	char *sql;
	int rc = -1;

	if (x == NULL)
		return -1;
	if (zhi_plies(x) != plies) {
		cli_fail("%s: indexed to %d plies, not %d: cannot be merged",
		    path, zhi_plies(x), plies);
		zhi_close(x);
		return -1;
	}
	zhi_close(x);
	if ((sql = sqlite3_mprintf("COMMIT; ATTACH %Q AS old; BEGIN", path)) == NULL ||
	    exec(d, sql) != 0 || import_games(d, &g, &ngames) != 0)
		goto out;
	if (sqlite3_prepare_v2(d->db, "SELECT data FROM old.positions", -1, &st,
	    NULL) != SQLITE_OK)
		goto out;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW &&
	    import_bucket(s, sqlite3_column_blob(st, 0),
	    (size_t)sqlite3_column_bytes(st, 0), g, ngames, base) == 0)
		;
	rc = rc == SQLITE_DONE ? 0 : -1;
	if (rc == 0)
		rc = import_moves(d, s, g, ngames, base);
	if (rc != 0)
		cli_fail("%s: a damaged position row (or out of memory)", path);
out:
	sqlite3_finalize(st);
	sqlite3_free(sql);
	free(g);
	if (rc == 0 && exec(d, "COMMIT; DETACH old; BEGIN") != 0)
		rc = -1;
	return rc;
}
