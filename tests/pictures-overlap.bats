#!/usr/bin/env bats
# Pictures (issue 35): what the marks of a picture may not hide, seen in
# librsvg's rendering (tests/helpers/pictures-overlap.py): a pocket's count badge
# covers no pixel of its piece; a rank's number ("10" of a 10x10 board)
# is not drawn under the rook on its square.
bats_require_minimum_version 1.5.0
load common

PY=/usr/bin/python3
CHECK="$ZH_TOP/tests/helpers/pictures-overlap.py"

need() {
	"$PY" -c 'import PIL' 2>/dev/null || skip "python3-pil not installed"
	command -v rsvg-convert >/dev/null || skip "rsvg-convert (librsvg2-bin) not installed"
}

@test "pictures: a pocket's count badge hides no pixel of its piece (one digit and two)" {
	need
	cd "$BATS_TEST_TMPDIR"
	zhfen -v crazyhouse -F svg '4k3/8/8/8/8/8/8/4K3[PPPPPPPPPPPNBRQpnbrq] w - - 0 1' > p.svg
	run -0 "$PY" "$CHECK" badge p.svg
	zhfen -v grandhouse -F svg 'k9/10/10/10/10/10/10/10/10/9K[PPPPPPPPPPPPNBRQACpnbrqac] w - - 0 1' > g.svg
	run -0 "$PY" "$CHECK" badge g.svg
}

# Issue 39, item 7, measured in pixels (tests/helpers/pictures-layout.py)
# at every size it names, both orientations, 8x8 and 10x10.
LAYOUT="$ZH_TOP/tests/helpers/pictures-layout.py"

@test "pictures: the coordinates are outside the board, in cells no piece changes; \"10\" shows whole" {
	"$PY" -c 'import PIL' 2>/dev/null || skip "python3-pil not installed"
	cd "$BATS_TEST_TMPDIR"
	local s flip v full empty ranks
	for s in 20 32 64 128; do
		for flip in "" --flip; do
			for v in crazyhouse grandhouse; do
				if [ $v = crazyhouse ]; then
					full='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1'
					empty='4k3/8/8/8/8/8/8/4K3[] w - - 0 1' ranks=8
				else
					full='r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R[] w - - 0 1'
					empty='5k4/10/10/10/10/10/10/10/10/5K4[] w - - 0 1' ranks=10
				fi
				zhfen -v $v $flip --size $s -F svg "$full" > f.svg
				zhfen -v $v $flip --size $s -F png -o f.png "$full"
				zhfen -v $v $flip --size $s -F png -o e.png "$empty"
				run "$PY" "$LAYOUT" labels f.svg f.png e.png $ranks $ranks
				[ "$status" -eq 0 ] || { echo "$v $flip --size $s: $output"; return 1; }
				# and librsvg's rendering of the SVGs
				zhfen -v $v $flip --size $s -F svg "$empty" > e.svg
				if command -v rsvg-convert >/dev/null; then
					rsvg-convert f.svg -o f.png
					rsvg-convert e.svg -o e.png
					run "$PY" "$LAYOUT" labels f.svg f.png e.png $ranks $ranks
					[ "$status" -eq 0 ] || { echo "rsvg: $v $flip --size $s: $output"; return 1; }
				fi
			done
		done
	done
}

@test "pictures: no square shows through White's pieces (K Q R B P), on either colour, at every size" {
	"$PY" -c 'import PIL' 2>/dev/null || skip "python3-pil not installed"
	cd "$BATS_TEST_TMPDIR"
	local s m t lab x0 y0
	for s in 20 32 64 128; do
		# White's K Q R B P on a3 b3 c3 d3 e3 (dark, light, ...) and on
		# b3 c3 d3 e3 f3 (the other colours); rank 3 is the 6th row
		# the ranks' strip (draw.c): 2/5 of a square, room for "10"
		# at 8 px at least
		m=$((s / 8)) t=$((s * 24 / 100 > 8 ? s * 24 / 100 : 8))
		lab=$((s * 2 / 5 > t * 3 / 2 + 2 ? s * 2 / 5 : t * 3 / 2 + 2))
		x0=$((m + lab)) y0=$((m + s / 2 + s + 5 * s))
		zhfen --size $s -F png -o a.png 'k7/8/8/8/8/KQRBP3/8/8[] w - - 0 1'
		zhfen --size $s -F png -o b.png 'k7/8/8/8/8/1KQRBP2/8/8[] w - - 0 1'
		run "$PY" "$LAYOUT" holes a.png b.png $x0 $((x0 + s)) $y0 $s 5 0,0.55,0,0,0
		[ "$status" -eq 0 ] || { echo "--size $s: $output"; return 1; }
	done
	# (the knight is left out: the slit of its jaw is open to the
	# outside in DejaVu's outline, a notch, not a hole; the queen is
	# looked at below its crown: the gaps between the spikes are outside)
}

@test "pictures: a long name is cut at a whole letter with '...', clear of the clock" {
	cd "$BATS_TEST_TMPDIR"
	printf '[Event "x"]\n[White "%s"]\n[Black "Bob"]\n[Variant "Crazyhouse"]\n\n1. e4 { [%%clk 0:05:00] } e5 { [%%clk 1:05:00] } *\n' \
	    "Wolfeschlegelsteinhausenbergerdorff the Elder of Somewhere Far" > long.pgn
	local s
	for s in 20 64; do
		run -0 zhreplay -F svg --final-only --size $s long.pgn
		# the name's glyphs: W o l f ... then three dots (c46), and the
		# clock's text after it, in the bar at the bottom
		[[ $output == *'<use xlink:href="#c46" x="'*'<use xlink:href="#c46" x="'*'<use xlink:href="#c46" x="'* ]] ||
		    { echo "--size $s: no '...'"; return 1; }
	done
	# in pixels: the name's text ends left of the clock's cell
	"$PY" -c 'import PIL' 2>/dev/null || return 0
	zhreplay -F png --final-only --size 64 -o l.png long.pgn
	"$PY" - l.png <<'PYEOF'
import sys
from PIL import Image
im = Image.open(sys.argv[1]).convert("L")
w, h = im.size
y0, y1 = h - 8 - 32, h - 8            # the bottom bar
cols = [any(im.getpixel((x, y)) > 200 for y in range(y0, y1)) for x in range(w)]
runs, x = [], 0
while x < w:
    if cols[x]:
        a = x
        while x < w and cols[x]:
            x += 1
        runs.append((a, x))
    x += 1
# a gap of at least a third of the bar's height between the name and the clock
gaps = [b[0] - a[1] for a, b in zip(runs, runs[1:])]
assert max(gaps) >= 10, (runs, gaps)
PYEOF
}

@test "pictures: White's pieces read white and Black's black at every size (on a dark square, more light than dark pixels, and the other way)" {
	"$PY" -c 'import PIL' 2>/dev/null || skip "python3-pil not installed"
	cd "$BATS_TEST_TMPDIR"
	local s m t lab x0 top
	for s in 20 32 40 64 128; do
		# White's K Q R B N P on c3..h3 or c4..h4, Black's q r b n p
		# on a6..e6 or a7..e7: each piece is on a dark square in one of
		# the two; a board without them gives the pixels a piece changes
		m=$((s / 8)) t=$((s * 24 / 100 > 8 ? s * 24 / 100 : 8))
		lab=$((s * 2 / 5 > t * 3 / 2 + 2 ? s * 2 / 5 : t * 3 / 2 + 2))
		x0=$((m + lab)) top=$((m + s / 2 + s))
		zhfen --size $s -F png -o a.png '6k1/8/qrbnp3/8/8/2KQRBNP/8/8[] w - - 0 1'
		zhfen --size $s -F png -o b.png '6k1/qrbnp3/8/8/2KQRBNP/8/8/8[] w - - 0 1'
		zhfen --size $s -F png -o e.png '6k1/8/8/8/8/8/8/K7[] w - - 0 1'
		run "$PY" - a.png b.png e.png $x0 $top $s <<'PYEOF'
import sys
from PIL import Image
a, b, e = (Image.open(f).convert("L") for f in sys.argv[1:4])
x0, top, s = map(int, sys.argv[4:])
bad = []
def tone(file, rank, name, white):
    if (file + rank) % 2 == 0:      # a light square: the other picture
        p, rank = b, rank + 1
    else:
        p = a
    ox, oy = x0 + file * s, top + (8 - rank) * s
    light = dark = 0
    for y in range(oy, oy + s):
        for x in range(ox, ox + s):
            v, w = p.getpixel((x, y)), e.getpixel((x, y))
            if abs(v - w) > 24:
                light += v >= 200
                dark += v <= 80
    if (light > dark) != white:
        bad.append("%s: %d light, %d dark pixels" % (name, light, dark))
for f, n in enumerate("KQRBNP"):
    tone(2 + f, 3, n, True)
for f, n in enumerate("qrbnp"):
    tone(f, 6, n, False)
print("; ".join(bad))
sys.exit(1 if bad else 0)
PYEOF
		[ "$status" -eq 0 ] || { echo "--size $s: $output"; return 1; }
	done
}
