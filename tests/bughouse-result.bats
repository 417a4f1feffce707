#!/usr/bin/env bats
# A bughouse game's result in zhreplay -F npy's tables (and zhkit.read's,
# the same records) is the team's, "the result for White, board A's
# White" (zhkit-arrays(5)), whichever convention its BPGN scores it by
# (issue 39 item 2): bughousedb and FICS files give the result of the
# board where the game ended.  The expected sign is reckoned by
# tests/helpers/bug-result.py from zhcheck --json's result_convention,
# ending and result, and for the generated games also from the
# generator's own answers (testdata/bughouse/PROVENANCE.md).

bats_require_minimum_version 1.5.0
load common

PY=/usr/bin/python3

setup() {
	T=$BATS_TEST_TMPDIR
	"$PY" -c 'import numpy' 2>/dev/null || skip "python3-numpy not installed"
}

@test "bughouse result: every BPGN dialect and both conventions give the team's result in games.npy and every position" {
	local f d c files=()
	for f in "$TESTDATA"/bughouse/*/*.bpgn "$TESTDATA"/bughouse/*.bpgn; do
		files+=("$f")
	done
	for d in "${ZH_CORPUS-}" "$ZH_TOP/../shared/corpus" "$ZH_TOP/../../shared/corpus"; do
		if [ -n "$d" ] && [ -d "$d/bpgn" ]; then
			files+=("$d"/bpgn/*.bpgn)
			break
		fi
	done
	zhcheck -q --json "${files[@]}" >"$T/check.jsonl" 2>/dev/null || true
	run zhreplay -q -F npy -o "$T/a" "${files[@]}"
	[ "$status" -le 1 ]
	run "$PY" "$ZH_TOP/tests/helpers/bug-result.py" "$T/a" "$T/check.jsonl" \
	    "$TESTDATA/bughouse/gen/answers.jsonl" "$TESTDATA"/bughouse/gen/*.bpgn
	assert_success
	# both conventions are there: the board's (bughousedb.bpgn's games
	# that ended on board B, the real FICS games) and the team's
	assert_output --regexp '^ok: [0-9]+ games \(1[5-9][0-9] by the board.s convention, 1200 with the generator.s answer\)'
}

@test "bughouse result: the real FICS games 1934301 and 1934660, scored by board B, are stored as their team's" {
	# 1934301: 1-0, Black mated on board B, so board A's White's team
	# lost; 1934660: 0-1, board B's White lost on time, so it won
	zhcheck -q --json "$TESTDATA"/bughouse/real/193*.bpgn >"$T/c.jsonl"
	run "$PY" -c '
import json, sys
for l in open(sys.argv[1]):
    o = json.loads(l)
    print(o["result"], o["result_convention"], o["ending"]["board"], o["ending"]["loser"])' "$T/c.jsonl"
	assert_output "$(printf '1-0 board B black\n0-1 board B white')"
	zhreplay -q -F npy -o "$T/a" "$TESTDATA"/bughouse/real/193*.bpgn
	run "$PY" -c '
import numpy as np, sys
g = np.load(sys.argv[1] + "/games.npy")
b = np.load(sys.argv[1] + "/bughouse.npy")
for r in g:
    s = b[r["first"]]
    print(r["result"], list(s["side"]), list(s["result"]))' "$T/a"
	# at the start White is to move on both boards: board B's White
	# plays for the other team
	assert_output "$(printf -- '-1 [0, 0] [-1, 1]\n1 [0, 0] [1, -1]')"
}

@test "bughouse result: zhkit.read's tables say the same as zhreplay -F npy's" {
	PYTHONPATH="$ZH_TOP/build/python" "$PY" -c 'import zhkit' 2>/dev/null ||
	    skip "the Python module is not built"
	zhreplay -q -F npy -o "$T/a" "$TESTDATA"/bughouse/gen/bughousedb.bpgn
	run env PYTHONPATH="$ZH_TOP/build/python" "$PY" -c '
import sys, numpy as np, zhkit
t = zhkit.read(sys.argv[2], jobs=1)
g = np.load(sys.argv[1] + "/games.npy")
b = np.load(sys.argv[1] + "/bughouse.npy")
assert (t.games["result"] == g["result"]).all()
assert (t.bughouse["result"] == b["result"]).all()
print(len(g), (g["result"] != 0).sum())' "$T/a" "$TESTDATA/bughouse/gen/bughousedb.bpgn"
	assert_success
	assert_output "300 300"
}
