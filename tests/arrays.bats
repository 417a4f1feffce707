#!/usr/bin/env bats
# zhreplay -F npy (issue 34): positions as NumPy arrays, zhkit-arrays(5).
# Every record is checked against what zhreplay -F jsonl and zhpgn
# --json say of the same position and game (tests/helpers/arrays-check.py reads
# them with its own code), the crazyhouse and chess records against
# python-chess, and examples/crazyara_planes.py against CrazyAra's own
# board_to_planes.  numpy is Debian's (python3-numpy, /usr/bin/python3);
# python-chess and CrazyAra are the peers of ../shared/peers (GPL:
# imported at test time, never copied).

bats_require_minimum_version 1.5.0
load common

PY=/usr/bin/python3

setup() {
	T=$BATS_TEST_TMPDIR
	"$PY" -c 'import numpy' 2>/dev/null || skip "python3-numpy not installed"
	PEERS=
	for d in "${ZH_PEERS-}" "$ZH_TOP/../shared/peers" "$ZH_TOP/../../shared/peers"; do
		if [ -n "$d" ] && [ -d "$d/python-chess/chess" ]; then
			PEERS=$d
			break
		fi
	done
}

# The games of the sample: testdata's PGN (crazyhouse, chess, grand,
# grandhouse, chessgi), random games of the variants the corpus lacks
# (loop, upside-down, wild/5, and more of the others) and bughouse: the
# real games and the first 40 of each generated BPGN file.
sample() {
	local v
	for v in "loop Loop" "chessgi Chessgi" "upsidedown Upside-down" \
	    "wild5 wild/5" "grandhouse Grandhouse" "grand Grand" "chess Standard"; do
		# shellcheck disable=SC2086
		set -- $v
		"$PY" "$ZH_TOP/tests/helpers/arrays-gen.py" "$1" "$2" 5 36 7 >"$T/gen-$1.pgn"
	done
	for f in "$TESTDATA"/bughouse/gen/*.bpgn; do
		awk '/^\[Event /{n++} n <= 40' "$f" >"$T/bug-$(basename "$f")"
	done
	# text fields of every kind: not ASCII, longer than the old 16 and
	# 48 bytes, the id from GameId, Link or Site
	cat >"$T/texts.pgn" <<-'EOF'
	[Event "Rated Crazyhouse game"]
	[Site "https://lichess.org/AbCdEfGh"]
	[Date "2024.02.29"]
	[White "Jürgen_Müller-Lüdenscheidt"]
	[Black "Алексей Ёлкин 李小龍"]
	[Result "1-0"]
	[Variant "Crazyhouse"]
	[Termination "Jürgen_Müller-Lüdenscheidt won by checkmate after a long and winding game"]

	1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

	[Event "Live Chess"]
	[Site "Chess.com"]
	[Link "https://www.chess.com/game/live/123456789012?move=0&extra=a-very-long-query-string"]
	[White "Ça"]
	[Black "Éé"]
	[Result "0-1"]
	[Variant "Crazyhouse"]

	1. f3 e5 2. g4 Qh4# 0-1

	[Event "x"]
	[Site "FICS freechess.org"]
	[GameId "fics-12345"]
	[White "a"]
	[Black "b"]
	[Result "*"]
	[Variant "Crazyhouse"]

	1. e4 *
	EOF
	SAMPLE=("$TESTDATA"/pgn/*.pgn "$TESTDATA"/zhreplay/games.pgn "$T"/gen-*.pgn \
	    "$TESTDATA"/bughouse/real/*.bpgn "$T"/bug-*.bpgn "$T/texts.pgn")
}

@test "arrays: every record of the sample (seven variants and bughouse) is what zhreplay -F jsonl and zhpgn --json say" {
	sample
	zhreplay -q -F jsonl "${SAMPLE[@]}" >"$T/pos.jsonl" 2>/dev/null || true
	zhpgn -q -J "${SAMPLE[@]}" >"$T/games.jsonl" 2>/dev/null || true
	zhcheck -q --json "${SAMPLE[@]}" >"$T/check.jsonl" 2>/dev/null || true
	run zhreplay -q -F npy -o "$T/a" "${SAMPLE[@]}"
	[ "$status" -le 1 ]
	run "$PY" "$ZH_TOP/tests/helpers/arrays-check.py" jsonl "$T/a" "$T/pos.jsonl" "$T/games.jsonl" "$T/check.jsonl"
	assert_success
	# every text field whole (#39): some longer than games.npy's old
	# 16 bytes, some not ASCII
	assert_output --regexp '^jsonl: [0-9]+ games \([1-9][0-9]* with a text longer than 16 bytes, [1-9][0-9]* not ASCII\), [0-9]+ positions, [0-9]+ bughouse positions: 0 differences$'
	# every variant is there, and the sample has what the fields say
	run "$PY" - "$T/a" <<-'EOF'
	import sys, numpy as np
	d = sys.argv[1]
	p, b, g = (np.load(d + "/%s.npy" % k) for k in ("positions", "bughouse", "games"))
	print(sorted(set(g["variant"].tolist())))
	print(int((p["repetition"] > 0).sum() > 0), int(p["promoted"].any()),
	      int((p["ep"] != 255).any()), int((p["cp"] != -2**31).any()),
	      int((p["mate"] != 0).any()), int((p["move_drop"] > 0).any()),
	      int((b["clock"] != -2**31).any()), len(b) > 1000)
	EOF
	assert_output "[0, 1, 2, 3, 4, 5, 6, 7, 8]
1 1 1 1 1 1 1 True"
}

@test "arrays: the crazyhouse and chess records are what python-chess says after the same moves" {
	[ -n "$PEERS" ] || skip "../shared/peers not found"
	sample
	zhreplay -q -F npy -o "$T/a" "$TESTDATA"/pgn/*.pgn "$TESTDATA"/zhreplay/games.pgn "$T/gen-chess.pgn" 2>/dev/null || true
	PYTHONPATH=$PEERS/python-chess run "$PY" "$ZH_TOP/tests/helpers/arrays-check.py" chess "$T/a"
	assert_success
	assert_output --regexp '^python-chess: [0-9]+ games, [0-9]+ positions: 0 differences$'
	n=$(echo "$output" | awk '{ print $4 }')
	[ "$n" -ge 20000 ]
}

@test "arrays: examples/crazyara_planes.py's planes are CrazyAra's board_to_planes (v3, 64 planes) on 10,000+ positions" {
	[ -n "$PEERS" ] && [ -d "$PEERS/crazyara/DeepCrazyhouse" ] || skip "../shared/peers/crazyara not found"
	zhreplay -q -F npy -o "$T/a" "$TESTDATA"/pgn/*.pgn 2>/dev/null || true
	PYTHONPATH=$PEERS/python-chess:$PEERS/crazyara run "$PY" "$ZH_TOP/tests/helpers/arrays-crazyara.py" "$T/a" 10000
	assert_success
	assert_output --regexp '^crazyara: [0-9]+ positions, 64 planes, normalized and not: 0 differences$'
	# and the example's own command line
	run "$PY" "$ZH_TOP/examples/crazyara_planes.py" "$T/a" "$T/planes.npy"
	assert_success
	run "$PY" -c 'import numpy as np, sys; x = np.load(sys.argv[1]); print(x.shape[1:], x.dtype)' "$T/planes.npy"
	assert_output "(64, 8, 8) float32"
}

@test "arrays: the tables are .npy files numpy memory-maps, data at a multiple of 64, the count patched in" {
	zhreplay -q -F npy -o "$T/a" "$TESTDATA"/pgn/fatics-zh.pgn "$TESTDATA"/bughouse/real/*.bpgn
	run "$PY" "$ZH_TOP/tests/helpers/arrays-check.py" mmap "$T/a"
	assert_success
	assert_output "mmap: 4 tables memory-mapped"
	# a 1 GB table opens without being read: its header with the count
	# of 1 GB of records, the file sparse
	run "$PY" - "$T/a/positions.npy" "$T/big.npy" <<-'EOF'
	import os, resource, sys, numpy as np
	src, big = sys.argv[1:]
	a = np.load(src, mmap_mode="r")
	n = (1 << 30) // a.dtype.itemsize
	head = open(src, "rb").read(a.offset)
	text = head[10:].decode("latin-1")
	old = "(%20d,)" % len(a)
	assert old in text, text
	with open(big, "wb") as f:
	    f.write(head[:10] + text.replace(old, "(%20d,)" % n).encode("latin-1"))
	    f.truncate(a.offset + n * a.dtype.itemsize)
	m = np.load(big, mmap_mode="r")
	rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
	print(type(m).__name__, m.shape[0] == n, m.nbytes >= 1 << 29, rss < 200000)
	EOF
	assert_success
	assert_output "memmap True True True"
}

@test "arrays: the same bytes for -j 1, 2 and 3, with a selection and compressed input" {
	command -v zstd >/dev/null || skip "zstd not installed"
	cat "$TESTDATA"/pgn/*.pgn | zstd -q -c >"$T/in.pgn.zst"
	for j in 1 2 3; do
		zhreplay -q -j "$j" -F npy -o "$T/j$j" --tag 'WhiteElo >= 2000' \
		    "$T/in.pgn.zst" "$TESTDATA"/bughouse/real/*.bpgn 2>/dev/null || true
	done
	for f in positions bughouse games strings files; do
		cmp "$T/j1/$f.npy" "$T/j2/$f.npy"
		cmp "$T/j1/$f.npy" "$T/j3/$f.npy"
	done
	# the selection is the one of the text formats, and compressed input
	# is the plain one
	cat "$TESTDATA"/pgn/*.pgn >"$T/in.pgn"
	zhreplay -q -F npy -o "$T/plain" --tag 'WhiteElo >= 2000' "$T/in.pgn" 2>/dev/null || true
	cmp "$T/j1/positions.npy" "$T/plain/positions.npy"
	zhreplay -q -F fen --tag 'WhiteElo >= 2000' "$T/in.pgn" 2>/dev/null | grep -c . >"$T/nfen" || true
	run "$PY" -c 'import numpy as np, sys; print(len(np.load(sys.argv[1])))' "$T/plain/positions.npy"
	assert_output "$(cat "$T/nfen")"
}

@test "arrays: a game with an error is in no table; --rejects has it and --stats counts it" {
	printf '[Event "a"]\n[Variant "Crazyhouse"]\n\n1. e4 e5 2. Nf3 *\n\n[Event "b"]\n[Variant "Crazyhouse"]\n\n1. e4 e5 2. Ke3 *\n\n[Event "c"]\n[Variant "Crazyhouse"]\n\n1. d4 *\n' >"$T/g.pgn"
	run zhreplay -q -F npy -o "$T/a" --rejects "$T/rej.pgn" --stats "$T/st.json" "$T/g.pgn"
	assert_failure 1
	run "$PY" -c '
import numpy as np, sys
d = sys.argv[1]
p, g = np.load(d + "/positions.npy"), np.load(d + "/games.npy")
print(g["number"].tolist(), g["first"].tolist(), g["records"].tolist(), len(p))
print(p["uci"].tolist(), p["final"].tolist())' "$T/a"
	assert_output "[1, 3] [0, 4] [4, 2] 6
[b'e2e4', b'e7e5', b'g1f3', b'', b'd2d4', b''] [False, False, False, True, False, True]"
	run grep -c '^\[Event "b"\]' "$T/rej.pgn"
	assert_output 1
	run grep -c '^\[Event' "$T/rej.pgn"
	assert_output 1
	run jq -c '[.replayed, .with_errors]' "$T/st.json"
	assert_output '[3,1]'
}

@test "arrays: output that cannot be written is exit 2" {
	run zhreplay -F npy "$TESTDATA"/pgn/fatics-zh.pgn
	assert_failure 2
	assert_output --partial "-o DIR is needed"
	touch "$T/file"
	run zhreplay -F npy -o "$T/file/x" "$TESTDATA"/pgn/fatics-zh.pgn
	assert_failure 2
	[ -e /dev/full ] || skip "no /dev/full"
	# a table's name taken by a link to a device: refused before anything
	# is written (the tables are one set, zhkit-arrays(5))
	mkdir "$T/full"
	ln -s /dev/full "$T/full/positions.npy"
	run zhreplay -F npy -o "$T/full" "$TESTDATA"/pgn/fatics-zh.pgn
	assert_failure 2
	assert_output --partial "positions.npy: cannot write: a symbolic link is in its place"
	[ -z "$(ls -A "$T/full" | grep -v positions.npy)" ]
	run zhreplay -F npy -o "$T/v" --variations "$TESTDATA"/pgn/fatics-zh.pgn
	assert_failure 2
}

@test "arrays: the dtypes are the ones zhkit-arrays(5) lists" {
	zhreplay -q -F npy -o "$T/a" "$TESTDATA"/pgn/fatics-zh.pgn
	for t in positions bughouse games; do
		run "$PY" -c 'import numpy as np, sys; a = np.load(sys.argv[1], mmap_mode="r")
for n in a.dtype.names:
    f = a.dtype.fields[n][0]
    print(n, f.base.str, f.shape, sep="\t")' "$T/a/$t.npy"
		assert_success
		# each field has its row in the man page's table of that file:
		# ".It name Ta dtype Ta shape Ta meaning"
		while IFS=$'\t' read -r name type shape; do
			awk -v t="$t" -v n="$name" -v ty="$type" -v sh="$shape" '
			    /^\.Ss / { sec = $0; sub(/^\.Ss /, "", sec) }
			    sec == t ".npy" && $1 == ".It " n && $2 == ty && $3 == sh { ok = 1 }
			    END { exit !ok }' FS=' Ta ' "$ZH_TOP/man/zhkit-arrays.5" ||
			    fail "$t.npy: $name $type $shape is not in zhkit-arrays(5)"
		done <<<"$output"
	done
}
