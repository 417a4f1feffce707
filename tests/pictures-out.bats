#!/usr/bin/env bats
# Where pictures go (issue 39 items 4 and 11): -o - is the standard output
# for one picture, and a usage error for many pictures or for the tables;
# pictures are numbered by the game's place in the run (as -F jsonl's
# "index"), a pattern whose two numbers cannot be told apart is refused,
# and no name is written twice.
bats_require_minimum_version 1.5.0
load common

PICS="$TESTDATA/pictures"
PY=/usr/bin/python3
START='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1'

need_pil() { "$PY" -c 'import PIL' 2>/dev/null || skip "python3-pil not installed"; }

two_inputs() {
	printf '[Event "a"]\n\n1. e4 e5 2. Nf3 *\n\n[Event "b"]\n\n1. d4 d5 *\n' > a.pgn
	printf '[Event "c"]\n\n1. c4 *\n\n[Event "d"]\n\n1. g3 g6 2. Bg2 *\n' > b.pgn
}

@test "pictures -o -: one PNG or GIF on the standard output, the same bytes as the file" {
	need_pil
	cd "$BATS_TEST_TMPDIR"
	zhfen -F png -o one.png "$START"
	zhfen -F png -o - "$START" > out.png
	[ ! -e ./- ]
	cmp one.png out.png
	# a pipe too, and Pillow reads it
	zhfen -F png -o - "$START" | "$PY" -c 'import sys, io
from PIL import Image
im = Image.open(io.BytesIO(sys.stdin.buffer.read())); im.load()
assert im.format == "PNG" and im.size[0] > 0, im' 
	zhreplay -F gif -o one.gif "$PICS/drop.pgn"
	zhreplay -F gif -o - "$PICS/drop.pgn" > out.gif
	cmp one.gif out.gif
	zhreplay -F png --final-only -o - "$PICS/drop.pgn" > final.png
	zhreplay -F png --final-only -o final2.png "$PICS/drop.pgn"
	cmp final.png final2.png
	[ ! -e ./- ]
	# an SVG with -o - is as without -o: one document a line
	run -0 zhreplay -F svg --plies 3 -o - "$PICS/drop.pgn"
	[ "${#lines[@]}" -eq 1 ] && [[ ${lines[0]} == "<svg"* ]]
}

@test "pictures -o -: many pictures or the tables are refused before anything is read" {
	cd "$BATS_TEST_TMPDIR"
	run -2 zhfen -F png -o - "$START" "$START"
	[[ $output == *"-o -: the standard output takes one picture"* ]]
	run -2 zhreplay -F png -o - "$PICS/drop.pgn"
	[[ $output == *"-o -: -F png writes a picture a position"* ]]
	run -2 zhreplay -F npy -o - "$PICS/drop.pgn"
	[[ $output == *"-o -: the tables are files of a directory"* ]]
	run -2 zhreplay -F parquet -o - "$PICS/drop.pgn"
	[[ $output == *"-o -: the tables are files of a directory"* ]]
	run -2 zhreplay -F planes -o - "$PICS/drop.pgn"
	[[ $output == *"-o -: the tables are files of a directory"* ]]
	# refused before reading: a FIFO nobody writes to would hang otherwise
	mkfifo never
	run -2 timeout 20 zhreplay -F npy -o - never
	[ ! -e ./- ]
	# a second game's GIF: an error, after the first went out
	two_inputs
	run -2 --separate-stderr zhreplay -F gif -o - a.pgn
	[[ $stderr == *"the standard output takes one picture, and there are more"* ]]
	[ ! -e ./- ]
}

@test "pictures: games are numbered across the inputs, as -F jsonl's index" {
	cd "$BATS_TEST_TMPDIR"
	two_inputs
	run -0 zhreplay -F gif -o 'g%d.gif' a.pgn b.pgn
	[ "$(ls g*.gif | wc -l)" -eq 4 ]
	# the third game is b.pgn's first, the fourth its second
	zhreplay -F gif -o 'b%d.gif' b.pgn
	cmp g3.gif b1.gif
	cmp g4.gif b2.gif
	zhreplay -F gif -o 'a%d.gif' a.pgn
	cmp g1.gif a1.gif
	# the numbers are -F jsonl's "index", --game-offset included
	want=$(zhreplay -F jsonl --final-only --game-offset 10 a.pgn b.pgn |
	    "$PY" -c 'import sys, json
print(" ".join("o%d.svg" % json.loads(l)["index"] for l in sys.stdin))')
	run -0 zhreplay -F svg --final-only --game-offset 10 -o 'o%d.svg' a.pgn b.pgn
	[ "$(echo o*.svg | tr ' ' '\n' | sort | tr '\n' ' ')" = "$(echo $want | tr ' ' '\n' | sort | tr '\n' ' ')" ]
	[ "$want" = "o11.svg o12.svg o13.svg o14.svg" ]
}

@test "pictures: a pattern whose game and ply cannot be told apart is refused" {
	cd "$BATS_TEST_TMPDIR"
	two_inputs
	for p in 'p%d%d.svg' 'p%d0%d.svg' 'p%03d%02d.svg'; do
		run -2 zhreplay -F svg -o "$p" a.pgn
		[[ $output == *"need a character that is not a digit between them"* ]]
	done
	[ -z "$(ls p*.svg 2>/dev/null)" ]
	# a separator, even a '%', tells them apart: every name once
	run -0 zhreplay -F svg -o 'p%d%%%d.svg' a.pgn b.pgn
	[ "$(ls p*.svg | wc -l)" -eq 13 ]
	[ -s 'p4%3.svg' ]
	run -0 zhreplay -F svg -o 'q%dx%d.svg' a.pgn b.pgn
	[ "$(ls q*.svg | wc -l)" -eq 13 ]
}

@test "pictures -o - on a full standard output: one write error, exit 2 (PNG, GIF)" {
	[ -w /dev/full ] || skip "no /dev/full"
	local n
	run -2 bash -c "'$ZH_TOP/bin/zhfen' -F png -o - '4k3/8/8/8/8/8/8/4K3[] w - - 0 1' 2>&1 >/dev/full"
	n=$(grep -c 'write error' <<<"$output")
	[ "$n" -eq 1 ] || { echo "$output"; return 1; }
	run -2 bash -c "'$ZH_TOP/bin/zhreplay' -F gif -o - '$TESTDATA/pictures/drop.pgn' 2>&1 >/dev/full"
	n=$(grep -c 'write error' <<<"$output")
	[ "$n" -eq 1 ] || { echo "$output"; return 1; }
}
