/* zhreplay - replay games and print every position. */
#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clean.h"
#include "cli.h"
#include "warn.h"
#include "jobs.h"
#include "npy.h"
#include "parquet_write.h"
#include "selopts.h"
#include "pic.h"

enum fmt { F_FEN, F_EPD, F_UCI, F_SAN, F_JSONL, F_BOARD, F_UCIPOS, F_NPY,
	F_SVG, F_PNG, F_GIF };

static const char *const fmt_names[] = {
	"fen", "epd", "uci", "san", "jsonl", "board", "ucipos", "npy", "svg",
	"png", "gif", NULL
};
#define PICTURE(f)	((f) >= F_SVG)

struct opts {
	enum fmt fmt;
	int dialect;
	const struct zh_variant *force;
	const struct zh_variant *defvar;	/* --default-variant */
	struct zh_plysel sel;
	bool variations;
	unsigned diag;			/* ZH_DIAG_* */
	long games, bad;		/* counted by done() */
	const char *name;		/* current input's name */
	FILE *out;			/* where a game's output goes */
	FILE *rejects;			/* --rejects: the games with errors */
	struct npy *npy;		/* -F npy: the arrays (npy.h) */
	const char *parquet;		/* -F parquet: the arrays' codec
					   (--compression), else NULL */
	const char *compression;
	struct jobs *jobs;
	struct sel gsel;		/* which games (selopts.h) */
	struct clean clean;		/* --split, --split-by (clean.h) */
	struct pic_opts pic;		/* -F svg, png, gif (pic.h) */
};

/* Per worker: the replay, the lines, and the game's output buffer. */
struct state {
	struct zh_replay r;
	const struct zh_game *g;	/* the game being written */
	struct zh_lines lines;
	struct zh_select_scratch sc;
	struct npy_rec npy;		/* -F npy: the game's records */
	char *buf;
	size_t len, cap;
	const struct opts *o;
	bool fail;			/* out of memory */
	bool moves;			/* ucipos: " moves" written */
	bool bad;			/* the game has an error */
	struct pic pic;			/* -F svg, png, gif */
};

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: zhreplay [-J | -F FORMAT] [-f DIALECT] [-t DIALECT] [-v VARIANT]\n"
	    "                [-p A-B] [-e N]\n"
	    "                [--start-only | --final-only] [--mainline | --variations]\n"
	    "                [--color WHEN] [-j N] [-o FILE] [-q] [--limit NAME=N]\n"
	    "                [--progress] [--game-offset N] [FILE ...]\n"
	    "Replay games and write every position.\n"
	    "  -F, --format F     fen (default), epd, uci, ucipos, san, jsonl, board,\n"
	    "                     npy (NumPy arrays into the directory -o names),\n"
	    "                     parquet (the same tables as Parquet files;\n"
	    "                     --compression zstd (default), snappy, gzip, none);\n"
	    "                     pictures: svg, png (one a position), gif (one a\n"
	    "                     game); -o PATTERN: %%d the game, %%d the ply\n"
	    "  -J, --json         the same as -F jsonl (zhkit-json(5))\n"
	    "  -f, --from D       input dialect: auto (default), lichess, xboard,\n"
	    "                     chesscom, fairy (every one is read)\n"
	    "  -t, --to D         dialect of FEN and SAN: lichess (default), xboard,\n"
	    "                     chesscom, fairy\n"
	    "  -v, --variant V    play every game as V (default: from its tags)\n"
	    CLI_DEFVAR_HELP
	    CLI_COLUMN_HELP
	    "  -p, --plies A-B    only plies A to B (0 is the start; A-, -B, A)\n"
	    "  -e, --every N      only every N-th ply from A\n"
	    "      --start-only   only the start position\n"
	    "      --final-only   only the final position\n"
	    "      --mainline     only the mainline (default)\n"
	    "      --variations   also the variations, after the mainline\n"
	    "      --color WHEN   board colours: auto (default), always, never\n"
	    "  -j, --jobs N       N threads (0: all cores; default 1)\n"
	    CLI_LIMIT_HELP
	    "      --progress     games, MB, games/s and ETA on a terminal's stderr\n"
	    "      --game-offset N  number games from N+1 (a chunk's place in a\n"
	    "                     split input)\n"
	    "  -o, --output FILE  write to FILE (with a split: its name pattern)\n"
	    "  -r, --rejects FILE also write the games with errors there, as read\n"
	    CLEAN_SPLIT_HELP
	    PIC_HELP
	    PIC_GIF_HELP
	    WARN_HELP
	    "  -q, --quiet        no summary line\n"
	    "  -h, --help         this help;  -V, --version  the version\n"
	    SEL_HELP);
}

/* ======================== output buffer ======================== */

/* Make room for n more bytes. */
static char *
reserve(struct state *st, size_t n)
{
	if (st->len + n > st->cap) {
		size_t cap = st->cap ? st->cap : 65536;
		char *b;

		while (cap < st->len + n)
			cap *= 2;
		if ((b = realloc(st->buf, cap)) == NULL) {
			st->fail = true;
			return NULL;
		}
		st->buf = b;
		st->cap = cap;
	}
	return st->buf + st->len;
}

static void
emit(struct state *st, const char *s, size_t n)
{
	char *p = reserve(st, n);

	if (p != NULL) {
		memcpy(p, s, n);
		st->len += n;
	}
}

/* ======================== one position ======================== */

static void
move_label(char *b, size_t size, const struct zh_ply *pl, int d)
{
	long abs = pl->start_ply + pl->ply - 1;	/* plies before the move */
	char san[ZH_MOVEMAX];

	zh_san_dialect(pl->move->san, d, san);
	snprintf(b, size, "%ld%s %s", abs / 2 + 1, abs % 2 ? "..." : ".", san);
}

/*
 * -F ucipos: a line's "position startpos" or "position fen FEN" (in
 * Fairy-Stockfish's dialect, which an engine reads), then its moves up
 * to --plies' end, one UCI command a line (game or variation): the
 * plain uci format drops a FEN start, which the engine needs.
 */
static void
uci_position(struct state *st, const struct zh_ply *pl)
{
	const struct zh_plysel *sel = &st->o->sel;
	struct zh_pos start;
	char fen[ZH_FENMAX], sfen[ZH_FENMAX];
	size_t n, sn;

	if (pl->ply == 0) {
		zh_pos_start(&start, st->r.v);
		n = zh_fen_write(pl->pos, ZH_FAIRY, fen, sizeof fen);
		sn = zh_fen_write(&start, ZH_FAIRY, sfen, sizeof sfen);
		if (n == sn && memcmp(fen, sfen, n) == 0)
			emit(st, "position startpos", 17);
		else {
			emit(st, "position fen ", 13);
			emit(st, fen, n < sizeof fen ? n : sizeof fen - 1);
		}
		st->moves = false;
	} else if (!sel->start_only && (sel->to < 0 || pl->ply <= sel->to)) {
		if (!st->moves)
			emit(st, " moves", 6);
		st->moves = true;
		emit(st, " ", 1);
		emit(st, pl->move->uci, strlen(pl->move->uci));
	}
	if (pl->last)
		emit(st, "\n", 1);
}

/* Added to the positions of an invalid game in -F jsonl. */
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

/* ======================== pictures ======================== */

/* The picture just drawn (rc of pic_draw) written, or the GIF's frame
 * kept; -1 if out of memory.  A picture that cannot be written is said
 * (pic_failed(): exit 2), and the game's others are not drawn. */
static int
pic_out(struct state *st, int rc, long ply)
{
	struct pic *p = &st->pic;

	if (rc != 0)
		return -1;
	if (st->o->fmt == F_GIF || p->stop)
		return 0;
	if (++p->count > 1 && st->o->pic.pattern != NULL &&
	    st->o->pic.nconv == 1) {
		fprintf(stderr, "zhreplay: -o '%s': game %ld has more than one "
		    "picture: give a second %%d (the ply)\n", st->o->pic.pattern,
		    st->g->number);
		pic_set_failed();
		p->stop = true;
	} else if (st->o->pic.pattern == NULL)	/* SVG, one a line */
		emit(st, (const char *)p->buf.p, p->buf.len);
	else if (pic_save(p, st->g->number, ply, NULL, stderr) != 0)
		p->stop = true;
	return 0;
}

/* A position of one board as a picture (the mainline's only). */
static int
on_ply_picture(struct state *st, const struct zh_ply *pl)
{
	struct pic *p = &st->pic;
	struct draw_board b = { .pos = pl->pos, .black_bottom = st->o->pic.flip };
	int c = !pl->pos->side;		/* the side that moved */

	if (pl->line > 0 || pl->prefix)
		return 0;
	if (pl->ply == 0)
		memset(p->has_clock, 0, sizeof p->has_clock);
	else if (pl->has_clock) {
		p->has_clock[0][c] = true;
		p->clock[0][c] = pl->clock;
	}
	if (!zh_plysel_match(&st->o->sel, pl))
		return 0;
	b.name[0] = zh_game_tag(st->g, "White");
	b.name[1] = zh_game_tag(st->g, "Black");
	memcpy(b.has_clock, p->has_clock[0], sizeof b.has_clock);
	memcpy(b.clock, p->clock[0], sizeof b.clock);
	if (pl->move != NULL) {
		b.has_last = true;
		b.last = pl->move->move;
	}
	return pic_out(st, pic_draw(p, &b, 1), pl->ply);
}

/* A bughouse position as a picture of both boards. */
static int
on_bply_picture(struct state *st, const struct zh_bply *pl)
{
	static const char *const tags[2][2] = {
		{ "WhiteA", "BlackA" }, { "WhiteB", "BlackB" }
	};
	const char *name[2][2];
	int i, c;

	for (i = 0; i < 2; i++)
		for (c = 0; c < 2; c++)
			name[i][c] = zh_game_tag(st->g, tags[i][c]);
	if (!zh_bply_match(&st->o->sel, pl)) {
		if (pl->move != NULL && pl->move->has_clock) {
			st->pic.has_clock[pl->move->board][pl->move->side] = true;
			st->pic.clock[pl->move->board][pl->move->side] =
			    pl->move->clock;
		}
		return 0;
	}
	return pic_out(st, pic_draw_bply(&st->pic, pl, name), pl->index);
}

/* A game's GIF written (if it has frames); 1 if it could not be. */
static int
pic_game_end(struct state *st)
{
	struct pic *p = &st->pic;

	p->count = 0;
	p->stop = false;
	if (st->o->fmt != F_GIF || p->gif == NULL)
		return 0;
	p->buf.len = 0;
	draw_gif_end(p->gif, &p->buf);
	if (p->buf.len == 0)
		return 0;
	if (p->buf.fail)
		return -1;
	return pic_save(p, st->g->number, 0, NULL, stderr) != 0;
}

static int
on_ply(void *arg, const struct zh_ply *pl)
{
	struct state *st = arg;
	const struct opts *o = st->o;
	char *p;
	size_t n;

	if (PICTURE(o->fmt))
		return on_ply_picture(st, pl);
	if (o->fmt == F_NPY)
		return npy_ply(&st->npy, pl, &o->sel);
	if (pl->ply == 0 && pl->line > 0 && o->fmt != F_JSONL && o->fmt != F_UCI &&
	    o->fmt != F_SAN && o->fmt != F_UCIPOS)
		emit(st, "\n", 1);		/* a variation's block */
	if (!zh_plysel_match(&o->sel, pl) && !(o->fmt == F_UCI ||
	    o->fmt == F_SAN || o->fmt == F_UCIPOS))
		return 0;
	switch (o->fmt) {
	case F_FEN:
	case F_EPD:
		if ((p = reserve(st, ZH_FENMAX + 1)) == NULL)
			return -1;
		n = o->fmt == F_FEN ? zh_fen_write(pl->pos, o->dialect, p, ZH_FENMAX) :
		    zh_epd_write(pl->pos, o->dialect, p, ZH_FENMAX);
		if (n >= ZH_FENMAX)	/* cut short: what was written */
			n = ZH_FENMAX - 1;
		p[n] = '\n';
		st->len += n + 1;
		break;
	case F_UCI:
	case F_SAN:
		if (pl->ply > 0 && zh_plysel_match(&o->sel, pl)) {
			char san[ZH_MOVEMAX];
			const char *m = o->fmt == F_UCI ? pl->move->uci : san;

			if (o->fmt == F_SAN)
				zh_san_dialect(pl->move->san, o->dialect, san);
			if (st->len > 0 && st->buf[st->len - 1] != '\n')
				emit(st, " ", 1);
			emit(st, m, strlen(m));
		}
		if (pl->last)
			emit(st, "\n", 1);
		break;
	case F_UCIPOS:
		uci_position(st, pl);
		break;
	case F_NPY:
		break;		/* npy_ply(), above */
	default:
		break;
	case F_JSONL: {
		unsigned fl = o->variations ? ZH_PLY_VARIATION : 0;
		struct zh_text t = { st->buf, st->len, st->cap };

		if (pl->prefix)
			return 0;
		if (json_took(st, &t, zh_ply_json(&t, pl, o->dialect, fl)) != 0)
			return -1;
		break;
	}
	case F_BOARD: {
		char head[160], lbl[48] = "start", var[80] = "";
		char fen[ZH_FENMAX];

		if (pl->move != NULL)
			move_label(lbl, sizeof lbl, pl, o->dialect);
		if (pl->path != NULL)
			snprintf(var, sizeof var, ", variation %s", pl->path);
		n = (size_t)snprintf(head, sizeof head, "game %ld%s, ply %ld: %s%s\n",
		    pl->game, var, pl->ply, lbl,
		    pl->move ? "" : "");
		emit(st, head, n);
		if ((p = reserve(st, ZH_DIAGMAX)) == NULL)
			return -1;
		n = zh_diagram_write(pl->pos, pl->move ? &pl->move->move : NULL,
		    o->diag, p, ZH_DIAGMAX);
		st->len += n < ZH_DIAGMAX ? n : ZH_DIAGMAX - 1;
		n = zh_fen_write(pl->pos, o->dialect, fen, sizeof fen);
		emit(st, fen, n);
		emit(st, "\n\n", 2);
		break;
	}
	}
	return st->fail ? -1 : 0;
}

/*
 * A game's end, one board's or two: its output written (-F fen and epd:
 * the block's blank line first), then the reader's error and the
 * replay's 're', with its ply if 'at_ply' (and 'board', of a two-board
 * game, if >= 0).  Returns 1 if there was an error, -1 if the write
 * failed (the output layer's to say, not a bad game), else 0.
 */
static int
game_end(struct state *st, const struct zh_game *g, FILE *out, FILE *err,
    const struct zh_error *re, bool at_ply, int board)
{
	const struct opts *o = st->o;
	char on[16] = "";
	int bad = 0;

	if ((o->fmt == F_FEN || o->fmt == F_EPD) && (st->len > 0 || !st->bad))
		emit(st, "\n", 1);	/* each game's block ends here (a
					   failed game without one: none) */
	if (st->len > 0 && fwrite(st->buf, 1, st->len, out) != st->len)
		return -1;
	if (o->fmt == F_NPY && st->npy.len > 0 && fwrite(st->npy.buf, 1,
	    st->npy.len, out) != st->npy.len)
		return -1;
	if (g->err.code != ZH_OK) {
		cli_fdiag(err, "error", o->name, g->err.line, g->err.col,
		    "game %ld: %s", g->number, g->err.text);
		bad = 1;
	}
	if (re->code == ZH_OK)
		return bad;
	if (at_ply && board >= 0)
		snprintf(on, sizeof on, " on board %c", zh_board_letter(board));
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

/* ======================== a bughouse position ======================== */

/* A position of a two-board game: both boards (zh_bply_walk). */
static int
on_bply(void *arg, const struct zh_bply *pl)
{
	struct state *st = arg;
	const struct opts *o = st->o;
	bool take = zh_bply_match(&o->sel, pl);
	char *p;
	size_t n, room;

	if (PICTURE(o->fmt))
		return on_bply_picture(st, pl);
	switch (o->fmt) {
	case F_FEN:
	case F_EPD:
		if (!take)
			break;
		room = 2 * ZH_FENMAX + 8;
		if ((p = reserve(st, room)) == NULL)
			return -1;
		n = zh_bply_fen(pl, o->dialect, o->fmt == F_EPD, p, room);
		if (n >= room)
			n = room - 1;
		p[n] = '\n';
		st->len += n + 1;
		break;
	case F_UCI:
	case F_SAN:
		if (take && pl->move != NULL) {
			char m[ZH_BLABELMAX + ZH_MOVEMAX + 2];

			n = zh_bply_move(pl, o->fmt == F_SAN, o->dialect, m,
			    sizeof m);
			if (st->len > 0 && st->buf[st->len - 1] != '\n')
				emit(st, " ", 1);
			emit(st, m, n < sizeof m ? n : sizeof m - 1);
		}
		if (pl->last)
			emit(st, "\n", 1);
		break;
	case F_JSONL: {
		struct zh_text t = { st->buf, st->len, st->cap };

		if (take && json_took(st, &t, zh_bply_json(&t, pl, st->g,
		    o->dialect)) != 0)
			return -1;
		break;
	}
	case F_BOARD: {
		char head[160], lbl[ZH_BLABELMAX + ZH_MOVEMAX + 2] = "start";
		char fen[2 * ZH_FENMAX + 8];

		if (!take)
			break;
		if (pl->move != NULL) {	/* "23B. B@g7#", as in the BPGN */
			char lab[ZH_BLABELMAX], mv[ZH_MOVEMAX];

			zh_bply_label(pl, lab);
			zh_san_dialect(pl->move->rm.san, o->dialect, mv);
			snprintf(lbl, sizeof lbl, "%s. %s", lab, mv);
		}
		n = (size_t)snprintf(head, sizeof head,
		    "game %ld, half-move %ld: %s%s%c\n", st->g->number,
		    pl->index, lbl, pl->move ? ", board " : "",
		    pl->move ? zh_board_letter(pl->move->board) : ' ');
		emit(st, head, n < sizeof head ? n : sizeof head - 1);
		if ((p = reserve(st, ZH_BDIAGMAX)) == NULL)
			return -1;
		n = zh_bdiagram_write(pl, o->diag, p, ZH_BDIAGMAX);
		st->len += n < ZH_BDIAGMAX ? n : ZH_BDIAGMAX - 1;
		n = zh_bply_fen(pl, o->dialect, false, fen, sizeof fen);
		emit(st, fen, n < sizeof fen ? n : sizeof fen - 1);
		emit(st, "\n\n", 2);
		break;
	}
	case F_UCIPOS:
	default:
		break;		/* refused by work() */
	case F_NPY:
		return npy_bply(&st->npy, pl, &o->sel);
	}
	return st->fail ? -1 : 0;
}

/* ======================== one game ======================== */

static void *
make_state(void *ctx)
{
	struct state *st = calloc(1, sizeof *st);

	if (st != NULL) {
		st->o = ctx;
		st->pic.o = &st->o->pic;
	}
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
		pic_free(&st->pic);
		npy_rec_free(&st->npy);
		free(st->buf);
		free(st);
	}
}

/* Is g a game of one board (its variant as zh_replay finds it)? */
static bool
one_board(const struct zh_game *g, const struct zh_variant *force)
{
	const struct zh_variant *v;
	struct zh_error e = { 0 };

	return zh_game_variant(g, force, &v, &e) == 0 && v->boards < 2;
}

static int
work(const struct zh_game *g, FILE *out, FILE *err, void *ctx, void *state,
    struct jobs_res *res)
{
	const struct opts *o = ctx;
	struct state *st = state;
	struct zh_replay *r;
	bool bad = false, started;
	size_t i;
	int rc, tagdrop;

	if (sel_early(&o->gsel, g, res, &tagdrop))
		return 0;		/* by its tags: not replayed */
	if (st == NULL) {
		cli_fdiag(err, "error", o->name, g->line, 1, "out of memory");
		return 1;
	}
	r = &st->r;
	st->len = 0;
	st->npy.len = 0;
	st->fail = false;
	/* FEN and EPD need no move text: legality only; nor do the arrays
	   of one board (the UCI text from the move), but a two-board
	   replay's check and mate need it */
	r->fast = o->fmt == F_FEN || o->fmt == F_EPD ||
	    (o->fmt == F_NPY && one_board(g, cli_game_variant(g, o->force,
	    o->defvar)));
	r->no_uci = o->fmt == F_SAN || o->fmt == F_BOARD;	/* SAN only */
	st->g = g;
	r->null_moves = warn_null_moves;
	sel_watch(&o->gsel, r, tagdrop, &st->sc);
	rc = zh_replay(g, cli_game_variant(g, o->force, o->defvar), r);
	st->len = 0;
	if (o->clean.by != NULL)
		clean_route(&o->clean, g, r, res->route, sizeof res->route);
	if (o->gsel.on && sel_game(&o->gsel, g, r,
	    g->err.code != ZH_OK ? -1 : rc, tagdrop, &st->sc, res) != 0)
		return 0;
	started = r->started;	/* a variant or FEN tag error: nothing */
	st->bad = rc != 0 || g->err.code != ZH_OK;
	if (o->fmt == F_UCIPOS && r->v != NULL && r->v->boards > 1) {
		/* an engine given one board's moves could not play its
		   drops: their pieces come from the other board */
		cli_fdiag(err, "error", o->name, g->line, 1, "game %ld: -F "
		    "ucipos: a bughouse board cannot be replayed alone (its "
		    "drops come from the partner's captures); use -F fen",
		    g->number);
		return 1;
	}
	if (o->fmt == F_NPY && st->bad)
		started = false;	/* never written */
	else if (o->fmt == F_NPY && started)
		npy_game_begin(&st->npy, g, r->v);
	if (started) {
		unsigned fl = (o->variations ? ZH_WALK_VARIATIONS : 0) |
		    (o->fmt == F_JSONL || o->fmt == F_NPY || PICTURE(o->fmt) ?
		    ZH_WALK_COMMENTS : 0);

		if (zh_replay_walk(&st->lines, g, r, fl, on_ply, on_bply,
		    st) != 0 ||
		    st->fail || st->npy.fail) {
			cli_fdiag(err, "error", o->name, g->line, 1,
			    "game %ld: out of memory", g->number);
			st->len = st->npy.len = 0;
			return 1;
		}
		if (o->fmt == F_NPY)
			npy_game_end(&st->npy);
	}	/* a game that failed before its start: nothing written */
	/* a picture not written is an I/O error of the run (exit 2, said),
	   not an error of the game's */
	if (pic_game_end(st) != 0)
		pic_set_failed();
	if ((rc = game_end(st, g, out, err, &r->err, r->err.ply > 0,
	    r->err_board)) < 0)
		return 0;
	bad = rc > 0;
	if (started && warn_nulls(err, o->name, g, r))
		bad = true;
	if (o->variations && started) {
		for (i = 0; i < r->nvarerr; i++)
			cli_fdiag(err, "error", o->name, r->varerr[i].line,
			    r->varerr[i].col, "game %ld, ply %ld (variation): %s",
			    g->number, r->varerr[i].ply, r->varerr[i].text);
		if (r->nvarerr_more > 0)
			cli_fdiag(err, "error", o->name, g->line, 1,
			    "game %ld: %zu more errors in variations", g->number,
			    r->nvarerr_more);
		if (r->nvarerr > 0)
			bad = true;
	}
	return bad ? 1 : 0;
}

static FILE *
done(void *ctx, const struct zh_game *g, const struct jobs_res *jr)
{
	struct opts *o = ctx;

	FILE *f = o->out;

	if (!sel_done(&o->gsel, o->jobs, g, jr))
		return NULL;
	if (clean_splits(&o->clean) &&
	    (f = clean_file(&o->clean, jr->route)) == NULL) {
		o->jobs->stop = 1;	/* said; the game is not counted */
		return NULL;
	}
	o->games++;
	if (jr->result != 0)
		o->bad++;
	if (jr->result != 0 && o->rejects != NULL) {
		fwrite(g->raw, 1, g->rawlen, o->rejects);
		fputs("\n\n", o->rejects);
	}
	return f;
}

/* ======================== options ======================== */

static int
find_name(const char *const *names, const char *s)
{
	int i;

	for (i = 0; names[i] != NULL; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

enum { O_START = 256, O_FINAL, O_MAINLINE, O_VARIATIONS, O_COLOR, O_DEFVAR,
	O_COMPRESSION };

/* An option of zhreplay's own (not -j and such) into o; 1 if taken, 0
   if not one, -1 if bad (said). */
static int
option(struct opts *o, int c, const char *arg, int *color)
{
	static const char *const colors[] = { "auto", "always", "never", NULL };
	int i;

	switch (c) {
	case 'e':
		if ((o->sel.every = cli_number(arg, 1, 100000000L,
		    "--every")) < 0)
			return -1;
		break;
	case 'f':	/* --from, as in zhfen, zhpgn and zhcheck */
		if (find_name(fmt_names, arg) < 0)
			return cli_from(arg) == 0 ? 1 : -1;
		/* a format's name: -f was --format once */
		cli_deprecated("-f for --format", "-F");
		/* FALLTHROUGH */
	case 'F':
		if (strcmp(arg, "parquet") == 0) {	/* npy's tables */
			o->fmt = F_NPY;
			o->parquet = "zstd";
			o->pic.fmt = PIC_NONE;
			break;
		}
		o->parquet = NULL;
		if ((i = find_name(fmt_names, arg)) < 0) {
			cli_fail("unknown format '%s' (try fen, epd, uci, ucipos, "
			    "san, jsonl, board, npy, parquet, svg, png, gif)", arg);
			return -1;
		}
		o->fmt = (enum fmt)i;
		o->pic.fmt = PICTURE(o->fmt) ? pic_format(arg) : PIC_NONE;
		break;
	case O_COMPRESSION:	/* -F parquet's pages */
		if (!pqw_codec_known(arg)) {
			cli_fail("--compression: unknown codec '%s' (try zstd, "
			    "snappy, gzip, none)", arg);
			return -1;
		}
		o->compression = arg;
		break;
	case 'J':	/* --json, as in the other tools */
		o->fmt = F_JSONL;
		break;
	case 'p':
		if (zh_plysel_range(&o->sel, arg) != 0) {
			cli_fail("--plies: '%s' is not a range A-B, A-, -B or A",
			    arg);
			return -1;
		}
		break;
	case 't':
		if ((o->dialect = zh_dialect_find(arg)) <= ZH_AUTO) {
			cli_fail("unknown dialect '%s' (try lichess, xboard, "
			    "chesscom, fairy)", arg);
			return -1;
		}
		break;
	case 'v':
		if ((o->force = cli_variant(arg)) == NULL)
			return -1;
		break;
	case O_DEFVAR:
		if ((o->defvar = cli_variant(arg)) == NULL)
			return -1;
		break;
	case O_START:
		o->sel.start_only = true;
		break;
	case O_FINAL:
		o->sel.final_only = true;
		break;
	case O_MAINLINE:
	case O_VARIATIONS:
		o->variations = c == O_VARIATIONS;
		break;
	case O_COLOR:
		if ((*color = find_name(colors, arg)) < 0) {
			cli_fail("--color: '%s' is not auto, always or never",
			    arg);
			return -1;
		}
		break;
	default:
		return pic_option(&o->pic, c, arg);
	}
	return 1;
}

/* The options into o and j; -1 to go on, else the exit status. */
static int
options(int argc, char **argv, struct opts *o, struct jobs *j,
    const char **outpath, const char **rejpath, int *color)
{
	static const struct option lopts[] = {
		{ "color", required_argument, NULL, O_COLOR },
		{ "colour", required_argument, NULL, O_COLOR },
		{ "compression", required_argument, NULL, O_COMPRESSION },
		CLI_COLUMN_OPT,
		{ "default-variant", required_argument, NULL, O_DEFVAR },
		{ "every", required_argument, NULL, 'e' },
		{ "final-only", no_argument, NULL, O_FINAL },
		{ "format", required_argument, NULL, 'F' },
		{ "from", required_argument, NULL, 'f' },
		JOBS_OPT_OFFSET,
		{ "help", no_argument, NULL, 'h' },
		JOBS_OPT_JOBS,
		{ "json", no_argument, NULL, 'J' },
		JOBS_OPT_LIMIT,
		{ "mainline", no_argument, NULL, O_MAINLINE },
		{ "output", required_argument, NULL, 'o' },
		{ "plies", required_argument, NULL, 'p' },
		JOBS_OPT_PROGRESS,
		SEL_OPTS,
		CLEAN_SPLIT_OPTS,
		{ "quiet", no_argument, NULL, 'q' },
		{ "rejects", required_argument, NULL, 'r' },
		{ "start-only", no_argument, NULL, O_START },
		{ "to", required_argument, NULL, 't' },
		{ "variant", required_argument, NULL, 'v' },
		{ "variations", no_argument, NULL, O_VARIATIONS },
		{ "version", no_argument, NULL, 'V' },
		WARN_OPTS,
		PIC_OPTS,
		{ NULL, 0, NULL, 0 }
	};
	int c, k, rc;

	while ((c = getopt_long(argc, argv, "e:F:f:hJj:o:p:qr:t:v:V" WARN_SHORT, lopts,
	    NULL)) != -1) {
		if (cli_common_option(c, optarg, &rc)) {
			if (rc >= 0)
				return rc;
			continue;
		}
		switch (c) {
		case 'h':
			usage(stdout);
			return cli_exit(EXIT_VALID);
		case 'o':
			*outpath = optarg;
			break;
		case 'r':
			*rejpath = optarg;
			break;
		default:
			if ((k = option(o, c, optarg, color)) == 0 &&
			    (k = sel_option(&o->gsel, c, optarg)) == 0 &&
			    (k = jobs_option(j, c, optarg)) == 0)
				k = clean_option(&o->clean, c, optarg);
			if (k > 0)
				break;
			return cli_usage();
		}
	}
	return -1;
}

/* -F npy: the directory -o names, its tables opened, their stream the
   jobs' output; 0, or -1 if not (said). */
static int
npy_setup(struct opts *o, struct jobs *j, const char *outpath)
{
	if (outpath == NULL || o->variations || clean_splits(&o->clean)) {
		cli_fail("-F npy: %s", outpath == NULL ? "-o DIR is needed "
		    "(the arrays are files of a directory)" : o->variations ?
		    "--variations cannot be written (the mainline only)" :
		    "--split cannot be written (one directory)");
		return -1;
	}
	if ((o->npy = npy_open_as(outpath, o->parquet == NULL ? NULL :
	    o->compression != NULL ? o->compression : o->parquet)) == NULL)
		return -1;
	j->out = npy_sink(o->npy);
	return 0;
}

/* The board's glyphs follow the locale; colours need a terminal. */
static unsigned
diagram_flags(int color, FILE *out)
{
	const char *cs, *nc = getenv("NO_COLOR");
	unsigned fl = 0;

	if (setlocale(LC_CTYPE, "") != NULL &&
	    (cs = nl_langinfo(CODESET)) != NULL && strcmp(cs, "UTF-8") == 0)
		fl |= ZH_DIAG_UNICODE;
	if (color == 1 || (color == 0 && cli_output_isatty(out) &&
	    (nc == NULL || *nc == '\0')))
		fl |= ZH_DIAG_COLOUR;
	return fl;
}

int
main(int argc, char **argv)
{
	struct opts o = { .dialect = ZH_LICHESS, .sel.to = -1, .sel.every = 1 };
	struct jobs j = { .njobs = 1, .ctx = &o, .work = work, .done = done,
	    .make_state = make_state, .free_state = free_state };
	const char *outpath = NULL, *rejpath = NULL;
	char extra[1024], note[512];
	long n;
	int color = 0, rc, i = 0;
	bool wfail;

	cli_prog = "zhreplay";
	cli_args(argc, argv);
	if ((rc = options(argc, argv, &o, &j, &outpath, &rejpath, &color)) < 0 &&
	    PICTURE(o.fmt) && (pic_setup(&o.pic, outpath, 2) != 0 ||
	    (clean_splits(&o.clean) && (cli_fail("--split: not with -F %s",
	    fmt_names[o.fmt]), 1)))) {
		sel_free(&o.gsel);
		return cli_usage();
	}
	if (PICTURE(o.fmt) && outpath != NULL)
		outpath = NULL;		/* the pictures' files, written whole */
	if (rc >= 0 ||
	    clean_setup(&o.clean, outpath) != 0 || (clean_splits(&o.clean) &&
	    (j.out = clean_sink(&o.clean)) == NULL)) {
		sel_free(&o.gsel);
		clean_finish(&o.clean);
		return rc >= 0 ? rc : cli_usage();
	}
	argc -= optind;
	argv += optind;
	if (!(j.route = clean_splits(&o.clean)) && o.fmt != F_NPY)
		cli_output(outpath, &j.out);
	if (rejpath != NULL)
		cli_output(rejpath, &o.rejects);
	cli_inputs(argc, argv);
	o.jobs = &j;
	if (sel_setup(&o.gsel, &j, argc, argv) != 0 || cli_outputs_open() != 0 ||
	    (o.fmt == F_NPY && npy_setup(&o, &j, outpath) != 0)) {
		sel_free(&o.gsel);
		clean_finish(&o.clean);
		return EXIT_USAGE;
	}
	o.diag = diagram_flags(color, j.out);
	o.out = j.out;
	j.err = warn_sink(stderr);
	rc = EXIT_VALID;
	do {
		FILE *in = cli_open(argc > 0 ? argv[i] : NULL, &o.name);

		if (in == NULL) {
			rc = EXIT_USAGE;
			continue;
		}
		if (o.npy != NULL)
			npy_input(o.npy, o.name);
		n = o.gsel.read;
		if (jobs_run(&j, in, o.name) != 0)
			rc = EXIT_USAGE;
		else if (o.gsel.read == n && !j.stop)
			cli_fail("%s: warning: no game in it", o.name);
		if (in != stdin)
			fclose(in);
	} while (++i < argc && !j.stop);
	snprintf(extra, sizeof extra, "\"replayed\":%ld,\"with_errors\":%ld",
	    o.games, o.bad);
	n = strlen(extra);
	extra[n++] = ',';
	warn_said_json(extra + n, sizeof extra - n);
	sel_stats(&o.gsel, extra);
	wfail = o.npy != NULL && npy_close(o.npy) != 0;
	if (clean_finish(&o.clean) != 0 || cli_outputs_close() != 0 ||
	    o.clean.failed || wfail) {
		sel_free(&o.gsel);
		return cli_exit(EXIT_USAGE);
	}
	warn_sink_end();
	if ((o.bad > 0 || warn_said_total(false) > 0) && !cli_quiet)
		fprintf(stderr, "zhreplay: replayed %ld game%s: %ld with "
		    "errors%s\n", o.games, o.games == 1 ? "" : "s", o.bad,
		    warn_said_note(note, sizeof note, false));
	sel_summary(&o.gsel);
	sel_free(&o.gsel);
	if (!cli_quiet && clean_splits(&o.clean))
		fprintf(stderr, "zhreplay: %ld file%s written (-o '%s')\n",
		    o.clean.files, o.clean.files == 1 ? "" : "s", outpath);
	if (rc == EXIT_VALID && (o.bad > 0 || warn_said_total(true) > 0))
		rc = EXIT_INVALID;
	if (pic_failed())
		rc = EXIT_USAGE;
	return cli_exit(rc);
}
