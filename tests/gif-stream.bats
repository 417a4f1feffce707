#!/usr/bin/env bats
# A GIF is written as its frames are made (issue 39 item 14): the memory
# of a long game's GIF stays that of one frame, not of the whole file
# (a 20,001-frame GIF held 500 MB).  Games from
# tests/helpers/gen-long-game.py (knights out and back).
bats_require_minimum_version 1.5.0
load common

PY=/usr/bin/python3

setup() {
	T=$BATS_TEST_TMPDIR
	cd "$T"
}

need_pil() { "$PY" -c 'import PIL' 2>/dev/null || skip "python3-pil not installed"; }

# RSS means nothing under memcheck or ASan (make asan sets ZH_SANFLAGS)
need_rss() {
	[ -x /usr/bin/time ] && [ -z "${VALGRIND-}" ] && [ -z "${ZH_SANFLAGS-}" ] ||
	    skip "peak RSS is not measured here"
}

# peak_kb ARGS...: zhreplay ARGS under GNU time; the peak RSS in KB
peak_kb() {
	/usr/bin/time -f %M -o rss zhreplay "$@"
	cat rss
}

@test "gif-stream: a long game's GIF: the peak RSS grows by far less than the GIF" {
	need_rss
	"$PY" "$ZH_TOP/tests/helpers/gen-long-game.py" 8000 >long.pgn
	base=$(peak_kb -F gif --final-only -o final.gif long.pgn)
	full=$(peak_kb -F gif -o all.gif long.pgn)
	size=$(( $(stat -c %s all.gif) / 1024 ))
	# 8,001 frames, about 23 MB: main held them all (+46 MB); one frame
	# at a time, the run grows by the cells' cache only
	[ "$size" -gt 16000 ] || fail "the GIF is $size KB"
	[ $((full - base)) -lt $((size / 4)) ] ||
	    fail "peak RSS $full KB, $base KB for one frame, the GIF $size KB"
}

@test "gif-stream: the frames decode (Pillow) as the positions' own pictures" {
	need_pil
	"$PY" "$ZH_TOP/tests/helpers/gen-long-game.py" 300 clock >g.pgn
	zhreplay -F gif --size 24 -o all.gif g.pgn
	zhreplay -F gif --size 24 --final-only -o final.gif g.pgn
	zhreplay -F gif --size 24 --plies 0 -o p0.gif g.pgn
	zhreplay -F gif --size 24 --plies 157 -o p157.gif g.pgn
	"$PY" - <<'PYEOF'
from PIL import Image, ImageChops
im = Image.open("all.gif")
assert im.n_frames == 301, im.n_frames
want = {0: "p0.gif", 157: "p157.gif", 300: "final.gif"}
for k in range(im.n_frames):
    im.seek(k)
    if k in want:
        a = im.convert("RGB")
        b = Image.open(want[k]).convert("RGB")
        assert a.size == b.size, (k, a.size, b.size)
        assert ImageChops.difference(a, b).getbbox() is None, k
PYEOF
	# on the standard output, the same bytes
	cmp all.gif <(zhreplay -F gif --size 24 -o - g.pgn)
}

@test "gif-stream: a GIF that cannot be written leaves no file and no temporary" {
	[ -w /dev/full ] || skip "no /dev/full"
	"$PY" "$ZH_TOP/tests/helpers/gen-long-game.py" 200 >g.pgn
	run -2 bash -c 'zhreplay -F gif -o - g.pgn >/dev/full'
	[[ $output == *"<stdout>: write error"* ]]
	run -2 zhreplay -F gif -o 'nodir/g%d.gif' g.pgn
	[[ $output == *"nodir/g1.gif: write error"* ]]
	[ ! -e nodir ]
	[ -z "$(find . -name '.*' ! -name .)" ] || fail "temporary files left: $(ls -aR)"
}

@test "gif-stream: 20,001 frames with clocks in bounded memory (ZH_SLOW)" {
	[ -n "${ZH_SLOW-}" ] || skip "ZH_SLOW=1: a 20,000-ply game"
	need_rss
	"$PY" "$ZH_TOP/tests/helpers/gen-long-game.py" 20000 clock >long.pgn
	full=$(peak_kb -F gif --limit plies=20001 -o all.gif long.pgn)
	size=$(( $(stat -c %s all.gif) / 1024 ))
	# about 60 MB of GIF; the cells' cache is at most 32 MB (gif.c)
	[ "$size" -gt 50000 ] || fail "the GIF is $size KB"
	[ "$full" -lt 65536 ] || fail "peak RSS $full KB, the GIF $size KB"
}
