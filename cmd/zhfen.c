/* zhfen - validate and convert FEN/EPD positions; list their legal moves. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "opts.h"
#include "kind.h"
#include "warn.h"
#include "lines.h"
#include "pic.h"


enum mode { OUT_FEN, OUT_CHECK, OUT_MOVES, OUT_JSON, OUT_PICTURE };

struct opts {
	const struct zh_variant *variant;	/* NULL: by rank count */
	int from, to;				/* ZH_AUTO: detect / as input */
	unsigned flags;				/* ZH_FEN_STRICT */
	enum mode mode;
	bool moves;				/* --moves with --json */
	FILE *out;
	struct pic_opts pic;			/* -F svg|png */
};

static struct pic pic;

struct tally {
	long valid, invalid;
	bool ioerr;
	bool hush;		/* this input is of another kind (said once):
				   its errors are counted, not each said */
	long hushed;
};

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: zhfen [-chJmqsV] [-f DIALECT] [-t DIALECT] [-v VARIANT] [-o FILE]\n"
	    "             [FEN | FILE ...]\n"
	    "Validate and convert FEN/EPD positions, one per argument or input line.\n"
	    "  -f, --from D      input dialect: auto (default), lichess, xboard,\n"
	    "                    chesscom, fairy\n"
	    "  -t, --to D        output dialect (default: the input's dialect,\n"
	    "                    fairy when nothing tells)\n"
	    "  -v, --variant V   crazyhouse (default; grandhouse for 10 ranks), loop,\n"
	    "                    chessgi, grandhouse, upsidedown, wild5, chess, grand,\n"
	    "                    bughouse (a line \"fenA | fenB\" is two boards)\n"
	    "  -c, --check       validate only: no output, exit status and diagnostics\n"
	    "  -s, --strict      also check material against the start position\n"
	    "  -m, --moves       print the legal moves (UCI, sorted) instead of the FEN\n"
	    "                    (two boards: A's moves | B's moves)\n"
	    "  -J, --json        one JSON object per position\n"
	    "  -F, --format F    fen (default), or a picture: svg (one a line),\n"
	    "                    png; -o FILE or a pattern with %%d (the number)\n"
	    PIC_HELP
	    "  -o, --output FILE write to FILE;  -q, --quiet  no summary line\n"
	    WARN_HELP
	    "  -h, --help        this help;      -V, --version  the version\n");
}

/* The JSON text of a line (zhfen is one thread): zh_fen_json's. */
static struct zh_text jtext;

/* Print the JSON text as one line (rc: the writer's, -1 out of memory). */
static void
put_json(FILE *out, int rc)
{
	if (rc == 0)
		fwrite(jtext.s, 1, jtext.len, out);
	else
		fputs("{\"valid\":false,\"error\":{\"message\":\"out of "
		    "memory\"}}", out);
	putc('\n', out);
	jtext.len = 0;
}

/* The picture just drawn (rc of pic_draw) to its file or the output. */
static void
draw_out(int rc, struct tally *t, const char *file, long lineno, FILE *out)
{
	if (rc != 0) {
		cli_diag("error", file, lineno, 1, "out of memory");
		t->ioerr = true;
		return;
	}
	if (pic.o->pattern == NULL)	/* SVG, one a line, to the output:
					   a failed write said once, by cli */
		fwrite(pic.buf.p, 1, pic.buf.len, out);
	else if (pic_save(&pic, t->valid + t->invalid, 0, out, stderr) != 0)
		t->ioerr = true;
}

/*
 * A two-board FEN (a bughouse position, "fenA | fenB"): read by
 * zh_bfen_read, written as two FENs, two move lists or one object with
 * both boards.  Errors count columns from the start of the line.
 */
static void
brecord(const struct opts *o, struct tally *t, const char *file, long lineno,
    const char *line, size_t n)
{
	const struct zh_variant *v = o->variant;
	struct zh_error err = { 0 };
	struct zh_pos pos[2];
	char a[ZH_FENMAX];
	size_t k = strcspn(line, "|");
	int d, from;

	if (v != NULL && v->boards < 2)
		zh_error_set(&err, ZH_EVARIANT, (long)k + 1, "a two-board FEN "
		    "is of a two-board variant, not %s", v->name);
	else
		zh_bfen_read(pos, line, v, o->from, &err);
	if (err.code != ZH_OK) {
		t->invalid++;
		if (t->hush)
			t->hushed++;
		else
			cli_diag("error", file, lineno, err.col, "%s", err.text);
		if (o->mode == OUT_JSON)
			put_json(o->out, zh_bfen_json(&jtext, file, line, n,
			    lineno, NULL, ZH_AUTO, ZH_AUTO, false, &err));
		return;
	}
	t->valid++;
	/* the dialect board A's FEN is written in tells the output's */
	snprintf(a, sizeof a, "%.*s", (int)(k < sizeof a ? k : sizeof a - 1),
	    line);
	from = o->from != ZH_AUTO ? o->from : zh_fen_dialect(a, pos[0].v);
	d = o->to != ZH_AUTO ? o->to : from != ZH_AUTO ? from : ZH_FAIRY;
	switch (o->mode) {
	case OUT_CHECK:
		break;
	case OUT_MOVES: {
		static char buf[ZH_MAXMOVES * ZH_MOVEMAX];

		/* board A's moves, " | ", board B's: the FEN's shape */
		zh_moves_write(&pos[0], buf, sizeof buf);
		fputs(buf, o->out);
		fputs(" | ", o->out);
		zh_moves_write(&pos[1], buf, sizeof buf);
		fputs(buf, o->out);
		putc('\n', o->out);
		break;
	}
	case OUT_JSON:
		put_json(o->out, zh_bfen_json(&jtext, file, line, n, lineno, pos,
		    from, d, o->moves, NULL));
		break;
	case OUT_PICTURE: {
		struct zh_bply pl = { .pos = { &pos[0], &pos[1] }, .last = true };

		draw_out(pic_draw_bply(&pic, &pl, NULL), t, file, lineno, o->out);
		break;
	}
	default: {
		char buf[2 * ZH_FENMAX + 8];

		k = zh_bfen_write(pos, d, buf, sizeof buf);
		fwrite(buf, 1, k < sizeof buf ? k : sizeof buf - 1, o->out);
		putc('\n', o->out);
	}
	}
}

/* Whether an operand read as a FEN for its 7 '/' alone (no blank, no
   '[') could have been meant as a path: one that names nothing. */
static bool
missing_path(const char *s)
{
	struct stat st;

	return *s != '\0' && strpbrk(s, " \t[") == NULL && stat(s, &st) != 0 &&
	    (errno == ENOENT || errno == ENOTDIR);
}

/*
 * Handle one record; 'line' is NUL-terminated, n its length.  Blank and
 * '#' lines of files are skipped; arguments (is_arg) are always records.
 * 'toolong' is the message for a line that did not fit.
 */
static void
record(const struct opts *o, struct tally *t, const char *file, long lineno,
    const char *line, size_t n, bool is_arg, const char *toolong)
{
	struct zh_error err = { 0 };
	struct zh_pos pos;
	const char *q, *nul = memchr(line, '\0', n);
	int d;

	for (q = line; *q == ' ' || *q == '\t'; q++)
		;
	if (!is_arg && toolong == NULL && nul == NULL && (*q == '\0' || *q == '#'))
		return;		/* blank or comment: not a record */
	if (toolong != NULL)
		zh_error_set(&err, ZH_ELIMIT, LINES_MAX + 1, "%s", toolong);
	else if (nul != NULL)
		zh_error_set(&err, ZH_ESYNTAX, nul - line + 1,
		    "NUL byte in the input");
	else if (strchr(line, '|') != NULL) {
		brecord(o, t, file, lineno, line, n);
		return;
	} else
		zh_fen_read(&pos, line, o->variant, o->from, o->flags, &err);
	if (err.code != ZH_OK) {
		t->invalid++;
		if (is_arg && missing_path(line))	/* a mistyped path? say both */
			cli_fail("%s: %s, and not a FEN:", line, strerror(errno));
		if (t->hush)
			t->hushed++;
		else
			cli_diag("error", file, lineno, err.col, "%s", err.text);
		if (o->mode == OUT_JSON)
			put_json(o->out, zh_fen_json(&jtext, file, line,
			    toolong != NULL && n > 64 ? 64 : n, lineno, NULL,
			    ZH_AUTO, ZH_AUTO, false, &err));
		return;
	}
	t->valid++;
	d = o->to != ZH_AUTO ? o->to : o->from != ZH_AUTO ? o->from :
	    zh_fen_dialect(line, o->variant);
	if (d == ZH_AUTO)
		d = ZH_FAIRY;
	switch (o->mode) {
	case OUT_CHECK:
		break;
	case OUT_MOVES: {
		static char buf[ZH_MAXMOVES * ZH_MOVEMAX];

		zh_moves_write(&pos, buf, sizeof buf);
		fputs(buf, o->out);
		putc('\n', o->out);
		break;
	}
	case OUT_PICTURE: {
		struct draw_board b = { .pos = &pos, .black_bottom = o->pic.flip };

		draw_out(pic_draw(&pic, &b, 1), t, file, lineno, o->out);
		break;
	}
	case OUT_JSON: {
		int from = o->from != ZH_AUTO ? o->from :
		    zh_fen_dialect(line, o->variant);

		put_json(o->out, zh_fen_json(&jtext, file, line, n, lineno, &pos,
		    from, d, o->moves, NULL));
		break;
	}
	default: {
		char buf[ZH_FENMAX];
		size_t k = zh_fen_write(&pos, d, buf, sizeof buf);

		buf[k] = '\n';
		fwrite(buf, 1, k + 1, o->out);
	}
	}
}

static void
file(const struct opts *o, struct tally *t, const char *path)
{
	static struct lines ls;
	const char *name;
	char *line;
	size_t n;
	long lineno = 0;
	bool first = true;
	int r;

	if ((ls.f = cli_open(path, &name)) == NULL) {
		t->ioerr = true;
		return;
	}
	lines_open(&ls, ls.f);
	t->hush = false;
	t->hushed = 0;
	while (!cli_outputs_failed() && (r = lines_next(&ls, &line, &n)) != 0) {
		/* the first line that is not blank tells the input's kind */
		if (first && r > 0 && strspn(line, " \t\r") < n) {
			first = false;
			t->hush = !cli_quiet &&
			    kind_hint(stderr, name, kind_of(line, n),
			    KIND_FEN, NULL) > 0;
		}
		record(o, t, name, ++lineno, line, n, false, r < 0 ?
		    "line longer than " LINES_MAX_TEXT " bytes (not a FEN)" :
		    NULL);
	}
	if (t->hushed > 0)
		cli_fail("%s: %ld error%s not shown (not FEN)", name,
		    t->hushed, t->hushed == 1 ? "" : "s");
	t->hush = false;
	if (ferror(ls.f)) {
		cli_read_error(ls.f, name);
		t->ioerr = true;
	}
	if (ls.f != stdin)
		fclose(ls.f);
}

/* An operand that names an existing file (not a directory) is that
   file; else it is a FEN when it is empty or has a blank, a '[' or a
   board's 7 '/', and names a file otherwise. */
static bool
is_fen(const char *s)
{
	struct stat st;
	int slashes = 0;

	if (*s == '\0')
		return true;
	if (strcmp(s, "-") == 0 || (stat(s, &st) == 0 && !S_ISDIR(st.st_mode)))
		return false;
	if (strpbrk(s, " \t[") != NULL)
		return true;
	for (; *s; s++)
		slashes += *s == '/';
	return slashes >= 7;
}

/* zhfen's formats, a row each (as zhreplay's, cmd/zhreplay/formats.c):
   the name -F gives, the output it makes and the picture it draws. */
static const struct format {
	const char *name;
	enum mode mode;
	int pic;
} formats[] = {
	{ "fen", OUT_FEN, PIC_NONE }, { "svg", OUT_PICTURE, PIC_SVG },
	{ "png", OUT_PICTURE, PIC_PNG }
};

/* The row of -F's name; NULL if zhfen has none of that name. */
static const struct format *
format_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof formats / sizeof formats[0]; i++)
		if (strcmp(formats[i].name, name) == 0)
			return &formats[i];
	return NULL;
}

/* The options into o (and the mode); -1 to go on, else the exit status. */
static int
options(int argc, char **argv, struct opts *o, const char **outpath)
{
	static const struct option longopts[] = {
		{ "check", no_argument, NULL, 'c' },
		{ "format", required_argument, NULL, 'F' },
		PIC_OPTS,
		{ "from", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "json", no_argument, NULL, 'J' },
		{ "moves", no_argument, NULL, 'm' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "strict", no_argument, NULL, 's' },
		{ "to", required_argument, NULL, 't' },
		{ "variant", required_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		WARN_OPTS,
		{ NULL, 0, NULL, 0 }
	};
	const struct format *fmt = &formats[0];	/* fen */
	bool check = false, json = false, moves = false;
	int c, rc;

	while ((c = getopt_long(argc, argv, "cF:f:hJjmo:qst:v:V" WARN_SHORT, longopts,
	    NULL)) != -1) {
		if (cli_common_option(c, optarg, &rc)) {
			if (rc >= 0)
				return rc;
			continue;
		}
		switch (c) {
		case 'c':
			check = true;
			break;
		case 'f':
			if ((o->from = cli_dialect(optarg, "--from", true)) < 0)
				return cli_usage();
			break;
		case 'F':
			if ((fmt = format_find(optarg)) == NULL) {
				cli_fail("unknown format '%s' (try fen, svg, png)",
				    optarg);
				return cli_usage();
			}
			o->pic.fmt = fmt->pic;
			break;
		case 'h':
			usage(stdout);
			return cli_exit(EXIT_VALID);
		case 'j':	/* -j is --jobs in the other tools */
			cli_deprecated("-j for --json", "-J");
			/* FALLTHROUGH */
		case 'J':
			json = true;
			break;
		case 'm':
			moves = true;
			break;
		case 'o':
			*outpath = optarg;
			break;
		case 's':
			o->flags |= ZH_FEN_STRICT;
			break;
		case 't':
			if ((o->to = cli_dialect(optarg, "--to", false)) < 0)
				return cli_usage();
			break;
		case 'v':
			if ((o->variant = cli_variant(optarg)) == NULL)
				return cli_usage();
			break;
		default:
			if ((c = pic_option(&o->pic, c, optarg)) > 0)
				break;
			return cli_usage();
		}
	}
	o->mode = check ? OUT_CHECK : json ? OUT_JSON : moves ? OUT_MOVES :
	    fmt->mode;
	o->moves = moves;
	return -1;
}

int
main(int argc, char **argv)
{
	struct opts o = { NULL, ZH_AUTO, ZH_AUTO, 0, OUT_FEN, false, NULL,
	    { 0 } };
	struct tally t = { 0 };
	const char *outpath = NULL;
	long nfen = 0;
	int i, rc, nfiles = 0;

	cli_prog = "zhfen";
	if ((rc = options(argc, argv, &o, &outpath)) >= 0)
		return rc;
	if (o.mode == OUT_PICTURE) {
		/* the pictures' files are written whole, one by one */
		if (pic_setup(&o.pic, outpath, 1) != 0)
			return cli_usage();
		if (o.pic.to_stdout && argc - optind > 1) {
			cli_fail("-o -: the standard output takes one picture, "
			    "and %d operands give more: give -o a file name "
			    "with %%d", argc - optind);
			return cli_usage();
		}
		pic.o = &o.pic;
		outpath = NULL;
	}
	cli_output(outpath, &o.out);
	for (i = optind; i < argc; i++)
		if (!is_fen(argv[i]))
			cli_inputs(1, &argv[i]);
	if (optind == argc)
		cli_inputs(0, NULL);	/* no operand: stdin */
	if (cli_outputs_open() != 0)
		return EXIT_USAGE;
	setvbuf(o.out, NULL, _IOFBF, 1 << 20);

	for (i = optind; i < argc && !cli_outputs_failed(); i++)
		if (is_fen(argv[i]))
			record(&o, &t, "<arg>", ++nfen, argv[i], strlen(argv[i]),
			    true, NULL);
		else {
			file(&o, &t, argv[i]);
			nfiles++;
		}
	if (nfen == 0 && nfiles == 0)
		file(&o, &t, "-");
	pic_free(&pic);
	zh_text_free(&jtext);
	if (cli_outputs_close() != 0)
		return cli_exit(EXIT_USAGE);

	if (!cli_quiet && (o.mode == OUT_CHECK || t.invalid > 0))
		fprintf(stderr, "zhfen: checked %ld position%s: %ld valid, %ld invalid\n",
		    t.valid + t.invalid, t.valid + t.invalid == 1 ? "" : "s",
		    t.valid, t.invalid);
	return cli_exit(t.ioerr ? EXIT_USAGE : t.invalid ? EXIT_INVALID :
	    EXIT_VALID);
}
