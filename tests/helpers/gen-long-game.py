#!/usr/bin/env python3
"""gen-long-game.py PLIES [clock]: a legal crazyhouse game of PLIES
half-moves on stdout (the knights go out and back; with "clock", a [%clk]
after every move, one second less each time), for tests of long games
(tests/gif-stream.bats)."""
import sys

plies = int(sys.argv[1])
clock = sys.argv[2:] == ["clock"]
cycle = ["Nf3", "Nf6", "Ng1", "Ng8"]
left = [36000, 36000]
out = []
for p in range(plies):
    left[p % 2] -= 1
    s = left[p % 2]
    num = "%d. " % (p // 2 + 1) if p % 2 == 0 else ""
    clk = " {[%%clk %d:%02d:%02d]}" % (s // 3600, s // 60 % 60, s % 60)
    out.append(num + cycle[p % 4] + (clk if clock else ""))
sys.stdout.write('[Event "long"]\n[Variant "Crazyhouse"]\n[White "A"]\n'
                 '[Black "B"]\n[Result "*"]\n\n' + " ".join(out) + " *\n")
