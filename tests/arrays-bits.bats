#!/usr/bin/env bats
# zhreplay -F npy's compact record (zhkit-arrays(5)): the promoted
# squares as 13 bytes of bits (bit i % 8 of byte i // 8 is square
# i = 10 * rank + file), 175 bytes a position and 316 a bughouse one;
# and the clocks and evals read from comments in one scan (the Lichess
# form and the others), as -F jsonl and -F npy say them.

bats_require_minimum_version 1.5.0
load common

PY=/usr/bin/python3

setup() {
	T=$BATS_TEST_TMPDIR
	"$PY" -c 'import numpy' 2>/dev/null || skip "python3-numpy not installed"
}

@test "arrays-bits: a promoted queen on e8 and knight on b1 are bits 74 and 1, 175-byte records" {
	# the FEN's Q~ on e8 (rank 7, file 4: square 74, byte 9 bit 2) and
	# n~ on b1 (square 1, byte 0 bit 1); after 1. Qe7 the queen's bit is 64
	cat >"$T/p.pgn" <<-'EOF2'
	[Variant "Crazyhouse"]
	[SetUp "1"]
	[FEN "4Q~3/8/7k/8/8/8/8/1n~1K4[] w - - 0 1"]

	1. Qe7 *
	EOF2
	run zhreplay -F npy -o "$T/a" "$T/p.pgn"
	assert_success
	run "$PY" - "$T/a" <<-'EOF2'
	import sys, numpy as np
	p = np.load(sys.argv[1] + "/positions.npy")
	b = np.load(sys.argv[1] + "/bughouse.npy")
	print(p.dtype.itemsize, b.dtype.itemsize, p["promoted"].shape[1:])
	for r in p:
	    print(" ".join(str(i) for i in np.flatnonzero(np.unpackbits(
	        r["promoted"], bitorder="little"))), list(r["promoted"][[0, 8, 9]]))
	EOF2
	assert_success
	assert_output "175 316 (13,)
1 74 [2, 0, 4]
1 64 [2, 1, 0]"
}

@test "arrays-bits: [%clk] and [%eval] in any order and form, as the comments say" {
	cat >"$T/c.pgn" <<-'EOF2'
	[Variant "Crazyhouse"]

	1. e4 { [%eval 0.31] [%clk 0:01:02] } 1... e5 {[%clk 0:00:05.5]} 2. Nf3 { [%clk  1:00:00] [%eval #-3] } 2... Nc6 { note [%cal Ge2e4] [%clk 0:00:07] } *
	EOF2
	run zhreplay -F jsonl "$T/c.pgn"
	assert_success
	run "$PY" -c 'import json, sys
for l in sys.stdin:
    o = json.loads(l)
    print(o["ply"], o.get("clock"), o.get("cp"), o.get("mate"))' <<<"$output"
	assert_output "0 None None None
1 62 31 None
2 5.5 None None
3 3600 None -3
4 7 None None"
	run zhreplay -F npy -o "$T/a" "$T/c.pgn"
	assert_success
	run "$PY" -c 'import numpy as np, sys
p = np.load(sys.argv[1] + "/positions.npy")
print(p["clock"].tolist(), p["cp"].tolist(), p["mate"].tolist())' "$T/a"
	assert_output "[[-2147483648, -2147483648], [62000, -2147483648], [62000, 5500], [3600000, 5500], [3600000, 7000]] [-2147483648, 31, -2147483648, -2147483648, -2147483648] [0, 0, 0, -3, 0]"
}
