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

@test "pictures: the rank number \"10\" shows whole on a rook's square (both orientations)" {
	need
	cd "$BATS_TEST_TMPDIR"
	# a10 at the top left: its square at x 8, y 8 + 32 (bar) + 64 (pocket)
	zhfen -v grandhouse -F svg 'r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R[] w - - 0 1' > with.svg
	zhfen -v grandhouse -F svg '9r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R[] w - - 0 1' > without.svg
	run -0 "$PY" "$CHECK" label with.svg without.svg 8 104 64
	# flipped: j10 at the bottom left, 9 squares lower
	zhfen -v grandhouse --flip -F svg 'r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R[] w - - 0 1' > with.svg
	zhfen -v grandhouse --flip -F svg 'r9/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R[] w - - 0 1' > without.svg
	run -0 "$PY" "$CHECK" label with.svg without.svg 8 680 64
}
