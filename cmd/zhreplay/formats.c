/*
 * formats.c - zhreplay's formats, one row each (format.h): where a new
 * format goes.  A row names its functions, in the format's own file of
 * this folder; its documentation is man/zhreplay.1 (-F's list),
 * completion/zhkit.bash and cmd/README.md (tests/formats.bats).
 */
#include "format.h"

const struct format formats[] = {
	/* positions as text (text.c): the fast replay, no move text */
	{ .name = "fen", .tools = TOOL_ZHREPLAY | TOOL_ZHFEN, .needs = 0,
	  .ply = fen_ply, .bply = fen_bply, .end = fen_end },
	{ .name = "epd", .tools = TOOL_ZHREPLAY, .needs = 0,
	  .ply = epd_ply, .bply = epd_bply, .end = fen_end },
	/* the moves (moves.c) */
	{ .name = "uci", .tools = TOOL_ZHREPLAY, .needs = FMT_UCI,
	  .ply = uci_ply, .bply = uci_bply },
	{ .name = "ucipos", .tools = TOOL_ZHREPLAY, .needs = FMT_UCI,
	  .begin = ucipos_begin, .ply = ucipos_ply, .bply = ucipos_bply },
	{ .name = "san", .tools = TOOL_ZHREPLAY, .needs = FMT_SAN,
	  .ply = san_ply, .bply = san_bply },
	/* JSON Lines (json.c), zhkit-json(5): a position a line (zhpgn's
	   jsonl: a game a line) */
	{ .name = "jsonl", .tools = TOOL_ZHREPLAY | TOOL_ZHPGN,
	  .needs = FMT_SAN | FMT_UCI | FMT_COMMENTS,
	  .ply = jsonl_ply, .bply = jsonl_bply },
	/* a diagram a position (text.c) */
	{ .name = "board", .tools = TOOL_ZHREPLAY, .needs = FMT_SAN,
	  .ply = board_ply, .bply = board_bply },
	/* NumPy arrays (arrays.c over cli/npy.c), zhkit-arrays(5) */
	{ .name = "npy", .tools = TOOL_ZHREPLAY,
	  .needs = FMT_RECORDS | FMT_COMMENTS,
	  .open = npy_open_dir, .input = npy_next_input,
	  .close = npy_close_dir, .begin = npy_begin, .ply = npy_on_ply,
	  .bply = npy_on_bply, .end = npy_end },
	/* the same tables as Parquet files (arrays.c) */
	{ .name = "parquet", .tools = TOOL_ZHREPLAY | TOOL_ZHPGN,
	  .needs = FMT_RECORDS | FMT_COMMENTS,
	  .open = parquet_open_dir, .input = npy_next_input,
	  .close = npy_close_dir, .begin = npy_begin, .ply = npy_on_ply,
	  .bply = npy_on_bply, .end = npy_end },
	/* CrazyAra's training tensors (tensors.c over planes.c and
	   libzh's planes), zhkit-planes(5): the positions of one board */
	{ .name = "planes", .tools = TOOL_ZHREPLAY, .needs = FMT_RECORDS,
	  .open = planes_open_dir, .input = planes_next_input,
	  .close = planes_close_dir, .begin = planes_begin,
	  .ply = planes_on_ply, .bply = planes_on_bply, .end = planes_end },
	/* pictures (pictures.c over draw/): the walk of a replay with
	   its moves' text, as the pictures were first drawn from */
	{ .name = "svg", .tools = TOOL_ZHREPLAY | TOOL_ZHFEN,
	  .needs = FMT_PICTURES | FMT_SAN | FMT_UCI | FMT_COMMENTS,
	  .check = pic_check, .ply = pic_ply, .bply = pic_bply,
	  .end = pic_end },
	{ .name = "png", .tools = TOOL_ZHREPLAY | TOOL_ZHFEN,
	  .needs = FMT_PICTURES | FMT_SAN | FMT_UCI | FMT_COMMENTS,
	  .check = pic_check, .ply = pic_ply, .bply = pic_bply,
	  .end = pic_end },
	{ .name = "gif", .tools = TOOL_ZHREPLAY,
	  .needs = FMT_PICTURES | FMT_SAN | FMT_UCI | FMT_COMMENTS,
	  .check = pic_check, .ply = gif_ply, .bply = gif_bply,
	  .end = gif_end },
	{ .name = NULL }
};

const struct format *
format_find(const char *name)
{
	const struct format *f;

	for (f = formats; f->name != NULL; f++)
		if (strcmp(f->name, name) == 0)
			return f;
	return NULL;
}

const char *
format_names(void)
{
	static char list[256];
	const struct format *f;
	size_t n = 0;

	if (list[0] == '\0')
		for (f = formats; f->name != NULL && n < sizeof list; f++)
			n += (size_t)snprintf(list + n, sizeof list - n, "%s%s",
			    f == formats ? "" : ", ", f->name);
	return list;
}
