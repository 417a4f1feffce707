#!/usr/bin/env bats
# Pictures (issue 35): a game to an animated GIF, right after the
# speed work.  testdata/pictures/g93.pgn is the first 93-ply game of the
# benchmark's zh-clk.pgn (Fairy-Stockfish self-play with synthetic
# clocks); the bench's pictures section times the same game (speed is
# the benchmark's, not a test's).
bats_require_minimum_version 1.5.0
load common

PY=/usr/bin/python3
GAME="$TESTDATA/pictures/g93.pgn"

@test "pictures: the 93-ply game's GIF: 94 frames, each the position of its ply" {
	"$PY" -c 'import PIL' 2>/dev/null || skip "python3-pil not installed"
	cd "$BATS_TEST_TMPDIR"
	run -0 zhreplay -F gif -o g.gif "$GAME"
	# each frame against the PNG of its ply, the dot at the side to
	# move included
	run -0 zhreplay -F png -o 'p%d-%d.png' "$GAME"
	"$PY" - <<'PYEOF'
import glob
from PIL import Image, ImageChops
im = Image.open("g.gif")
assert im.n_frames == 94, im.n_frames
for i in range(im.n_frames):
    im.seek(i)
    a = im.convert("RGB")
    b = Image.open("p1-%d.png" % i).convert("RGB")
    assert a.size == b.size, (a.size, b.size)
    d = ImageChops.difference(a, b)
    px = list(d.getdata())
    far = sum(1 for p in px if max(p) > 48) / float(len(px))
    mean = sum(sum(p) for p in px) / (3.0 * len(px))
    assert mean < 1.5 and far < 0.003, (i, mean, far)
PYEOF
}
