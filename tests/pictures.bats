#!/usr/bin/env bats
# Pictures (issue 35): zhfen -F svg|png, zhreplay -F svg|png|gif.  The
# SVGs of testdata/pictures/cases.tsv byte for byte against the checked-in
# files, and each read back on its own (tests/helpers/pictures-check.py: every
# piece on its square, the pockets and their counts, the promoted marks);
# PNG and GIF decoded and compared with librsvg's rendering of the SVG;
# an SVG seen in headless Chromium.
bats_require_minimum_version 1.5.0
load common

PICS="$TESTDATA/pictures"
PY=/usr/bin/python3

# name variant options fen, one case a line
cases() { grep -v '^#' "$PICS/cases.tsv"; }

need_pil() { "$PY" -c 'import PIL' 2>/dev/null || skip "python3-pil not installed"; }
need_rsvg() { command -v rsvg-convert >/dev/null || skip "rsvg-convert (librsvg2-bin) not installed"; }

# picture_diff A B: the mean and the share of pixels more than 48 apart
# (0..255, any channel) of two images of one size; fails if the sizes differ
picture_diff() {
	"$PY" - "$1" "$2" <<'PYEOF'
import sys
from PIL import Image, ImageChops
a = Image.open(sys.argv[1]).convert("RGB")
b = Image.open(sys.argv[2]).convert("RGB")
if a.size != b.size:
    print("size", a.size, b.size); sys.exit(1)
d = ImageChops.difference(a, b)
px = list(d.getdata())
mean = sum(sum(p) for p in px) / (3.0 * len(px))
far = sum(1 for p in px if max(p) > 48) / float(len(px))
print("%.3f %.4f" % (mean, far))
PYEOF
}

@test "pictures: zhfen -F svg is byte for byte the checked-in SVG of every case" {
	while IFS='	' read -r name v opt fen; do
		[ "$opt" = - ] && opt=
		# shellcheck disable=SC2086
		run -0 zhfen -v "$v" $opt -F svg "$fen"
		[ "$output" = "$(cat "$PICS/$name.svg")" ] || {
			echo "$name differs"; return 1; }
	done < <(cases)
}

@test "pictures: each SVG read back: pieces on their squares, pockets, counts, promoted marks" {
	while IFS='	' read -r name v opt fen; do
		[ "$name" = bughouse ] && continue
		[ "$opt" = - ] && opt= || opt=flip
		run -0 "$PY" "$ZH_TOP/tests/helpers/pictures-check.py" "$PICS/$name.svg" "$fen" $opt
	done < <(cases)
}

@test "pictures: the checker sees a wrong piece, count and orientation" {
	fen='4k3/8/8/8/8/8/4Q~3/4K3[PPPPPPNNBBRRQQppppnnbbrrqq] b - - 0 1'
	run -1 "$PY" "$ZH_TOP/tests/helpers/pictures-check.py" "$PICS/zh-full-check.svg" "${fen/4Q~3/4R~3}"
	run -1 "$PY" "$ZH_TOP/tests/helpers/pictures-check.py" "$PICS/zh-full-check.svg" "${fen/PPPPPP/PPPPP}"
	run -1 "$PY" "$ZH_TOP/tests/helpers/pictures-check.py" "$PICS/zh-full-check.svg" "$fen" flip
}

@test "pictures: an SVG is one line, one document, in a stream of them" {
	run -0 zhfen -F svg 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1' \
	    '4k3/8/8/8/8/8/4Q~3/4K3[Qq] b - - 0 1'
	[ "${#lines[@]}" -eq 2 ]
	[[ ${lines[0]} == '<svg '*'</svg>' ]]
	[[ ${lines[1]} == '<svg '*'</svg>' ]]
}

@test "pictures: the check, the last move and a drop are marked where they are" {
	# the king in check on e8 (column e, top row; the board from x 33,
	# after the margin and the ranks' strip): a red circle at its centre
	grep -q '<circle cx="321" cy="136" r="28" fill="#e03c31"/>' "$PICS/zh-full-check.svg"
	# the drop P@b4 (drop.pgn's last move): b4 tinted as a drop, nothing as a move
	grep -q '<rect x="97" y="360" width="64" height="64" fill="#5f9fbf"/>' "$PICS/drop.svg"
	! grep -q 'fill="#d8e27a"\|fill="#a9b04c"' "$PICS/drop.svg"
	# the players and their last clocks: Bob 2:50 at the top, Alice 2:51
	run -0 zhreplay -F svg --final-only "$PICS/drop.pgn"
	[ "$output" = "$(cat "$PICS/drop.svg")" ]
}

@test "pictures: the bughouse pair: board B turned, partners side by side" {
	svg=$PICS/bughouse.svg
	# two boards: 2 x (the ranks' strip + 8 squares) + a gap of half a
	# square + margins; the files' strip under the squares
	grep -q '^<svg [^>]*width="1122" height="745"' "$svg"
	# A's a1 (dark) bottom left of A, B's a1 top right of B (turned): the
	# rook of White on each
	grep -q '<use xlink:href="#gwr" transform="translate(33 552) scale(0.064)"/>' "$svg"
	grep -q '<use xlink:href="#gwr" transform="translate(1050 104) scale(0.064)"/>' "$svg"
}

@test "pictures: a bad FEN gets its error and no file; an unwritable -o is exit 2" {
	cd "$BATS_TEST_TMPDIR"
	run -1 zhfen -F svg -o bad.svg 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w - - 0 1'
	[[ $output == *"error: board"* ]]
	[ ! -e bad.svg ]
	run -2 zhfen -F svg -o /nonexistent/dir/x.svg 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1'
	[[ $output == *"/nonexistent/dir/x.svg"* ]]
	run -2 zhfen -F png 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1'
	[[ $output == *"needs -o"* ]]
	run -2 zhfen -F svg -o 'x%s.svg' '8/8/8/8/8/8/8/K6k w - - 0 1'
}

@test "pictures: -o patterns: the number, the game and the ply" {
	cd "$BATS_TEST_TMPDIR"
	run -0 zhfen -F svg -o 'p%02d.svg' '8/8/8/8/8/8/8/K6k w - - 0 1' '8/8/8/8/8/8/8/K5k1 w - - 0 1'
	[ -s p01.svg ] && [ -s p02.svg ]
	run -2 zhfen -F svg -o 'one.svg' '8/8/8/8/8/8/8/K6k w - - 0 1' '8/8/8/8/8/8/8/K5k1 w - - 0 1'
	[[ $output == *"names one picture"* ]]
	run -0 zhreplay -F svg -o 'g%d-%03d.svg' "$PICS/drop.pgn"
	[ "$(ls g1-*.svg | wc -l)" -eq 8 ]
	cmp g1-007.svg "$PICS/drop.svg"
	run -0 zhreplay -F svg --plies 3 -o 'only%d.svg' "$PICS/drop.pgn"
	[ -s only1.svg ]
	run -2 zhreplay -F svg -o 'only%d.svg' "$PICS/drop.pgn"
	[[ $output == *"more than one picture"* ]]
	run -2 zhreplay -F svg --split 2 -o 'x%d.svg' "$PICS/drop.pgn"
}

@test "pictures: zhreplay on a game with an illegal move: the position where it stopped" {
	cd "$BATS_TEST_TMPDIR"
	printf '[Variant "Crazyhouse"]\n\n1. e4 d5 2. Ke3 *\n' > bad.pgn
	run -1 zhreplay -F svg --final-only -o 'bad.svg' bad.pgn
	[[ $output == *"ply 3"* ]]
	# the position after 1... d5, which zhcheck reports the move against
	zhfen -F svg 'rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq d6 0 2' > fen.svg
	# the same board and pockets (the replay marks the last move: d7-d5)
	run -0 "$PY" "$ZH_TOP/tests/helpers/pictures-check.py" bad.svg \
	    'rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq d6 0 2'
}

@test "pictures: zhfen -F png decodes to librsvg's rendering of the SVG (every case)" {
	need_pil
	need_rsvg
	cd "$BATS_TEST_TMPDIR"
	while IFS='	' read -r name v opt fen; do
		[ "$opt" = - ] && opt=
		# shellcheck disable=SC2086
		run -0 zhfen -v "$v" $opt -F png -o "$name.png" "$fen"
		[ "$(head -c 8 "$name.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
		rsvg-convert "$PICS/$name.svg" -o "$name.rsvg.png"
		read -r mean far < <(picture_diff "$name.png" "$name.rsvg.png")
		# antialiasing apart, the same picture: a mean difference under 1
		# (of 255) and under 0.2% of pixels far apart
		"$PY" -c "import sys; sys.exit(not ($mean < 1.0 and $far < 0.002))" || {
			echo "$name: mean $mean, far $far"; return 1; }
	done < <(cases)
}

@test "pictures: a PNG is not like another position's (the comparison can fail)" {
	need_pil
	need_rsvg
	cd "$BATS_TEST_TMPDIR"
	zhfen -F png -o a.png 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1'
	rsvg-convert "$PICS/zh-flip.svg" -o b.png
	read -r mean far < <(picture_diff a.png b.png)
	"$PY" -c "import sys; sys.exit(not ($mean > 1.0 and $far > 0.002))"
}

@test "pictures: zhreplay -F gif: a frame per position, the last one the final SVG's" {
	need_pil
	need_rsvg
	cd "$BATS_TEST_TMPDIR"
	run -0 zhreplay -F gif --delay 40 --last-delay 250 -o 'g%d.gif' "$PICS/drop.pgn"
	[ "$(head -c 6 g1.gif)" = GIF89a ]
	"$PY" - g1.gif <<'PYEOF'
import sys
from PIL import Image
im = Image.open(sys.argv[1])
assert im.n_frames == 8, im.n_frames          # the start and 7 plies
delays = []
for i in range(im.n_frames):
    im.seek(i)
    delays.append(im.info.get("duration"))
assert delays[:-1] == [400] * 7 and delays[-1] == 2500, delays
im.convert("RGB").save("last.png")
im.seek(0)
im.convert("RGB").save("first.png")
PYEOF
	# the last frame: the final position, the dot at the side to move
	# too, as librsvg draws the SVG of it
	zhreplay -F svg --final-only "$PICS/drop.pgn" > final.svg
	grep -q 'fill="#5cc04e"' final.svg
	rsvg-convert final.svg -o final.png
	read -r mean far < <(picture_diff last.png final.png)
	"$PY" -c "import sys; sys.exit(not ($mean < 1.5 and $far < 0.003))" || {
		echo "mean $mean far $far"; return 1; }
	# and the first frame the start position, not the last
	read -r mean far < <(picture_diff first.png final.png)
	"$PY" -c "import sys; sys.exit(not ($mean > 1.0))"
}

@test "pictures: a bughouse game as a GIF: both boards in every frame" {
	need_pil
	cd "$BATS_TEST_TMPDIR"
	run -0 zhreplay -F gif -o 'b.gif' "$TESTDATA/bughouse/real/1934301.bpgn"
	n=$(zhreplay -F fen "$TESTDATA/bughouse/real/1934301.bpgn" | grep -c .)
	"$PY" -c "
from PIL import Image
im = Image.open('b.gif')
assert im.size == (1122, 745), im.size
assert im.n_frames == $n, (im.n_frames, $n)"
}

@test "pictures: an SVG in headless Chromium looks as librsvg draws it" {
	need_pil
	need_rsvg
	command -v chromium >/dev/null || skip "chromium not installed"
	cd "$BATS_TEST_TMPDIR"
	for name in zh-full-check bughouse; do
		cp "$PICS/$name.svg" p.svg
		read -r w h < <(sed -n 's/^<svg [^>]* width="\([0-9]*\)" height="\([0-9]*\)".*/\1 \2/p' p.svg)
		printf '<!DOCTYPE html><html><head><style>html,body{margin:0;padding:0;overflow:hidden}img{display:block}</style></head><body><img src="p.svg" width="%s" height="%s"></body></html>\n' "$w" "$h" > p.html
		rm -f shot.png
		timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic \
		    --no-first-run --disable-background-networking --disable-component-update \
		    --disable-sync --hide-scrollbars --user-data-dir="$(mktemp -d)" \
		    --screenshot="$PWD/shot.png" --window-size="$w,$h" p.html >/dev/null 2>&1 || true
		[ -s shot.png ] || { echo "chromium made no screenshot"; return 1; }
		rsvg-convert p.svg -o rsvg.png
		read -r mean far < <(picture_diff shot.png rsvg.png)
		"$PY" -c "import sys; sys.exit(not ($mean < 1.0 and $far < 0.002))" || {
			echo "$name: mean $mean far $far"; return 1; }
	done
}

@test "pictures: --size sets the square: the picture's size follows" {
	run -0 zhfen --size 40 -F svg '8/8/8/8/8/8/8/K6k[] w - - 0 1'
	# 8 squares of 40, margins of 5, bars of 20, pockets of 40, the
	# coordinates' strips of 16
	[[ $output == '<svg '*' width="346" height="466" '* ]]
	run -2 zhfen --size 8 -F svg '8/8/8/8/8/8/8/K6k[] w - - 0 1'
}

@test "pictures: -o naming the input is refused, the input intact; one -o for many pictures said once" {
	cd "$BATS_TEST_TMPDIR"
	cp "$TESTDATA/pictures/drop.pgn" in.pgn
	cp in.pgn orig.pgn
	run -2 --separate-stderr zhreplay -F svg --final-only -o in.pgn in.pgn
	[[ $stderr == *"in.pgn: cannot write: it is the input in.pgn"* ]]
	cmp in.pgn orig.pgn
	run -2 --separate-stderr zhreplay -F svg -o one.svg in.pgn
	[ "$(grep -c 'names one picture' <<<"$stderr")" -eq 1 ]
	[ -z "$(find . -name '.*.??????')" ]
}

@test "pictures: every GIF frame shows the dot at the side to move, in the mover's bar" {
	need_pil
	cd "$BATS_TEST_TMPDIR"
	run -0 zhreplay -F gif -o g.gif "$PICS/drop.pgn"
	# White moves first: the dot in the bottom bar (White at the
	# bottom), then Black's at the top, by turns
	"$PY" - g.gif <<'PYEOF'
import sys
from PIL import Image
im = Image.open(sys.argv[1])
w, h = im.size
def green(img, y0, y1):
    return sum(1 for y in range(y0, y1) for x in range(0, w // 4)
               if img.getpixel((x, y)) == (0x5c, 0xc0, 0x4e))
for i in range(im.n_frames):
    im.seek(i)
    rgb = im.convert("RGB")
    top, bottom = green(rgb, 0, h // 10), green(rgb, h - h // 10, h)
    white_to_move = i % 2 == 0
    assert (bottom if white_to_move else top) > 20, (i, top, bottom)
    assert (top if white_to_move else bottom) == 0, (i, top, bottom)
PYEOF
}
