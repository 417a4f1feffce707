#!/usr/bin/env bats
# zhindex: an index's counts against an independent grouping of zhreplay's
# positions (tests/helpers/index-oracle.py), the games it lists against
# zhpgn --position, bughouse per board, the keys, add and merge against one
# build, bounded memory, faults, the opening suite.
load common
bats_require_minimum_version 1.5.0

ZH150="$TESTDATA/index/lichess-zh-150.pgn"
BUG="$TESTDATA/bughouse/gen/pychess.bpgn"
PYZH="$TESTDATA/pgn/pychess-zh.pgn"
PY=/usr/bin/python3

setup() {
	T=$BATS_TEST_TMPDIR
}

# Every table of an index as text, the writer's version left out.
dump() {
	sqlite3 "$1" "SELECT * FROM inputs; SELECT * FROM games;
	    SELECT id, hex(data) FROM positions; SELECT id, hex(data) FROM tails;
	    SELECT * FROM meta WHERE name <> 'writer'"
}

# W/D/L of every (position, move) of the first N plies of FILE, index
# against the oracle; and no two positions under one key, nor one
# position under two (the index's count of positions is the oracle's).
exact() {
	local n=$1 f=$2
	zhindex build -q --plies "$n" -o "$T/x.zhi" "$f"
	zhreplay -q -F jsonl "$f" >"$T/x.jsonl"
	$PY "$ZH_TOP/tests/helpers/index-oracle.py" "$n" fens <"$T/x.jsonl" >"$T/fens"
	$PY "$ZH_TOP/tests/helpers/index-oracle.py" "$n" answer <"$T/x.jsonl" >"$T/want"
	zhindex query -J "$T/x.zhi" - <"$T/fens" >"$T/got"
	run $PY "$ZH_TOP/tests/helpers/index-compare.py" "$T/got" "$T/want"
	assert_success
	assert_output --regexp " 0 differ$"
	assert_equal "$(sqlite3 "$T/x.zhi" "SELECT value FROM meta WHERE name='positions'")" \
	    "$(wc -l <"$T/fens")"
}

@test "zhindex: W/D/L of every position of the first 50 plies equal an independent grouping" {
	exact 50 "$ZH150"
}

@test "zhindex: --plies 12, and chess games through the same path" {
	exact 12 "$ZH150"
	exact 50 "$TESTDATA/index/chess-tags-80.pgn"
}

@test "zhindex: bughouse: each board its own positions, results from its White's side" {
	exact 50 "$BUG"
}

# The benchmark archives (../shared/bench, beside the repository, or
# ZH_BENCH_DATA): every position of their first 50 plies; and the games of
# 1,000 sampled positions (all plies indexed) against zhpgn --position.
# (from a worktree under wt/, two levels up)
BENCH=${ZH_BENCH_DATA:-$ZH_TOP/../shared/bench}
[ -f "$BENCH/zh-tags.pgn" ] || [ -n "${ZH_BENCH_DATA-}" ] || BENCH=$ZH_TOP/../../shared/bench

@test "zhindex: the whole benchmark archives, zh-tags.pgn and chess-tags.pgn (ZH_SLOW)" {
	[ -n "${ZH_SLOW-}" ] || skip "ZH_SLOW=1"
	[ -r "$BENCH/zh-tags.pgn" ] || skip "no $BENCH/zh-tags.pgn"
	exact 50 "$BENCH/zh-tags.pgn"
	exact 50 "$BENCH/chess-tags.pgn"
}

@test "zhindex: 1,000 sampled positions of zh-tags.pgn: the games zhpgn --position lists (ZH_SLOW)" {
	[ -n "${ZH_SLOW-}" ] || skip "ZH_SLOW=1"
	[ -r "$BENCH/zh-tags.pgn" ] || skip "no $BENCH/zh-tags.pgn"
	local f=$BENCH/zh-tags.pgn fen n=0
	zhindex build -q --plies 100000 -o "$T/all.zhi" "$f"
	zhreplay -q -F fen "$f" | awk 'NR % 547 == 1' | head -1000 >"$T/sample"
	while IFS= read -r fen; do
		zhindex query --games "$T/all.zhi" "$fen" | cut -f2 | sort -n >"$T/a"
		zhpgn -q --position "$fen" --json "$f" |
		    $PY -c 'import sys, json; [print(json.loads(l)["index"]) for l in sys.stdin]' |
		    sort -n >"$T/b"
		diff "$T/a" "$T/b" || fail "games reaching $fen differ"
		n=$((n + 1))
	done <"$T/sample"
	[ "$n" -ge 1000 ]
}

@test "zhindex: --games lists the games zhpgn --position selects (all plies indexed)" {
	zhindex build -q --plies 100000 -o "$T/all.zhi" "$ZH150"
	zhreplay -q -F fen "$ZH150" | awk 'NR % 97 == 1' | head -60 >"$T/sample"
	local fen n=0
	while IFS= read -r fen; do
		zhindex query --games "$T/all.zhi" "$fen" | cut -f2 | sort -n >"$T/a"
		zhpgn -q --position "$fen" --json "$ZH150" |
		    $PY -c 'import sys, json; [print(json.loads(l)["index"]) for l in sys.stdin]' |
		    sort -n >"$T/b"
		diff "$T/a" "$T/b" || fail "games reaching $fen differ"
		n=$((n + 1))
	done <"$T/sample"
	[ "$n" -ge 50 ]
}

# A position's row is the bucket of its key's high bits, where its key is
# looked for among the others.  Keys whose high 64 bits keep only 3
# (ZHINDEX_TEST_HIGH_BITS=3, for tests) crowd into eight buckets, thousands of
# keys sharing their high half: the same answers, merge still one build.
@test "zhindex: keys crowded into few buckets: the same answers" {
	export ZHINDEX_TEST_HIGH_BITS=3
	exact 50 "$ZH150"
	[ "$(sqlite3 "$T/x.zhi" "SELECT count(*) FROM positions")" -le 8 ]
	zhindex build -q -o "$T/one.zhi" "$ZH150" "$BUG"
	zhindex build -q -o "$T/a.zhi" "$ZH150"
	zhindex build -q -o "$T/b.zhi" "$BUG"
	zhindex merge -q -o "$T/m.zhi" "$T/a.zhi" "$T/b.zhi"
	dump "$T/m.zhi" | diff <(dump "$T/one.zhi") -
}

@test "zhindex: keys: a pocket, a promoted flag, side, castling, legal en passant" {
	"$ZH_TOP/build/unit/poskey"
}

@test "zhindex: add and merge give the build over all inputs, row for row" {
	zhindex build -q -o "$T/one.zhi" "$ZH150" "$PYZH" "$BUG"
	zhindex build -q -o "$T/a.zhi" "$ZH150"
	zhindex build -q -o "$T/b.zhi" "$PYZH"
	zhindex build -q -o "$T/c.zhi" "$BUG"
	zhindex merge -q -o "$T/m.zhi" "$T/a.zhi" "$T/b.zhi" "$T/c.zhi"
	cp "$T/a.zhi" "$T/ad.zhi"
	zhindex add -q "$T/ad.zhi" "$PYZH" "$BUG"
	dump "$T/one.zhi" >"$T/one"
	[ "$(grep -c . "$T/one")" -gt 500 ]
	dump "$T/m.zhi" | diff "$T/one" -
	dump "$T/ad.zhi" | diff "$T/one" -
}

@test "zhindex: --memory 1M spills sorted runs and gives the same index" {
	zhindex build -q -o "$T/one.zhi" "$ZH150" "$ZH150" "$BUG"
	zhindex build -q --memory 1M --stats "$T/st" -o "$T/sp.zhi" "$ZH150" "$ZH150" "$BUG"
	[ "$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"])' "$T/st")" -ge 2 ]
	dump "$T/sp.zhi" | diff <(dump "$T/one.zhi") -
	[ -z "$(find "$T" -name '.zhindex-run*' -o -name '.*.zhi.*')" ]
}

@test "zhindex: -j 2 writes the index -j 1 writes" {
	zhindex build -q -j 1 -o "$T/j1.zhi" "$ZH150" "$BUG"
	zhindex build -q -j 2 -o "$T/j2.zhi" "$ZH150" "$BUG"
	dump "$T/j2.zhi" | diff <(dump "$T/j1.zhi") -
	# -j 3: the last records sorted by two threads as they are written
	zhindex build -q -j 3 -o "$T/j3.zhi" "$ZH150" "$BUG"
	dump "$T/j3.zhi" | diff <(dump "$T/j1.zhi") -
}

# A query process keeps reading the file it opened while a build
# renames a new index over its name: the old answers, never a mix; a
# process started after it reads the new one.
@test "zhindex: a query running while a build replaces the index reads the old file" {
	local fen='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1' a b c
	zhindex build -q -o "$T/x.zhi" "$ZH150"
	coproc Q { zhindex query -J "$T/x.zhi" -; }
	echo "$fen" >&"${Q[1]}"
	read -r a <&"${Q[0]}"
	zhindex build -q -o "$T/x.zhi" "$PYZH"
	echo "$fen" >&"${Q[1]}"
	read -r b <&"${Q[0]}"
	exec {Q[1]}>&-
	wait
	c=$(zhindex query -J "$T/x.zhi" "$fen")
	assert_equal "$b" "$a"
	[ "$c" != "$a" ]
	[[ $a == *'"white":'* ]]
}

@test "zhindex: query by moves, JSON shaped like Lichess's explorer, filters" {
	zhindex build -q -o "$T/x.zhi" "$ZH150"
	run zhindex query -J "$T/x.zhi" --moves 'e4'
	assert_success
	$PY - "$output" <<'PY'
import json, sys
o = json.loads(sys.argv[1])
for k in ("white", "draws", "black", "moves", "topGames", "recentGames"):
    assert k in o, k
m = o["moves"][0]
for k in ("uci", "san", "white", "draws", "black", "averageRating", "performance"):
    assert k in m, k
assert sum(m["white"] + m["draws"] + m["black"] for m in o["moves"]) <= o["white"] + o["draws"] + o["black"]
# most played first, as Lichess lists them
n = [m["white"] + m["draws"] + m["black"] for m in o["moves"]]
assert n == sorted(n, reverse=True) and n[0] > n[-1], n
PY
	# the table lists the moves in the same order
	diff <(zhindex query "$T/x.zhi" --moves e4 | awk 'NR > 2 {print $2}') \
	    <(zhindex query -J "$T/x.zhi" --moves e4 | $PY -c 'import json,sys; print("\n".join(m["uci"] for m in json.load(sys.stdin)["moves"]))')
	# the filters: a speed's games and the rest add up to all
	zhindex query -J "$T/x.zhi" --moves '' 2>/dev/null >"$T/all" || zhindex query -J "$T/x.zhi" 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1' >"$T/all"
	zhindex query -J --speed bullet "$T/x.zhi" 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1' >"$T/b"
	zhindex query -J --speed ultraBullet,blitz,rapid,classical,correspondence,unknown "$T/x.zhi" 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1' >"$T/r"
	$PY - "$T/all" "$T/b" "$T/r" <<'PY'
import json, sys
a, b, r = (json.load(open(f)) for f in sys.argv[1:])
t = lambda o: o["white"] + o["draws"] + o["black"]
assert t(a) == 150 and 0 < t(b) < 150 and t(b) + t(r) == t(a), (t(a), t(b), t(r))
PY
	# the rating groups: 1600 and 1800 are the range 1600-1999
	zhindex query -J --ratings 1600,1800 "$T/x.zhi" --moves e4 >"$T/g"
	zhindex query -J --rating 1600-1999 "$T/x.zhi" --moves e4 >"$T/r"
	cmp "$T/g" "$T/r"
	grep -q '"white":[1-9]' "$T/g"
	run zhindex query --ratings 1700 "$T/x.zhi" --moves e4
	assert_equal "$status" 2
	# a rating range: the games listed all have it
	zhindex query --games --rating 1800-2000 "$T/x.zhi" 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1' | cut -f2 >"$T/ids"
	[ -s "$T/ids" ]
	[ "$(wc -l <"$T/ids")" -lt 150 ]
}

@test "zhindex: faults: not an index, another SQLite file, a cut file, a foreign version: exit 2, one line" {
	zhindex build -q -o "$T/x.zhi" "$ZH150"
	local fen='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1'
	run --separate-stderr zhindex query "$ZH150" "$fen"
	assert_equal "$status" 2
	[[ $stderr == *"not a zhindex index"* ]] || fail "$stderr"
	sqlite3 "$T/other.db" "CREATE TABLE t(a); INSERT INTO t VALUES(1)"
	run --separate-stderr zhindex query "$T/other.db" "$fen"
	assert_equal "$status" 2
	[[ $stderr == *"not a zhindex index"* ]] || fail "$stderr"
	head -c 40000 "$T/x.zhi" >"$T/cut.zhi"
	run --separate-stderr zhindex query "$T/cut.zhi" "$fen"
	assert_equal "$status" 2
	assert_equal "$(printf '%s\n' "$stderr" | wc -l)" 1
	cp "$T/x.zhi" "$T/v9.zhi"
	sqlite3 "$T/v9.zhi" "PRAGMA user_version=9"
	run --separate-stderr zhindex query "$T/v9.zhi" "$fen"
	assert_equal "$status" 2
	[[ $stderr == *"schema version 9"* ]] || fail "$stderr"
	run --separate-stderr zhindex query "$T/missing.zhi" "$fen"
	assert_equal "$status" 2
	# an input that cannot be read: nothing replaced
	cp "$T/x.zhi" "$T/keep.zhi"
	run --separate-stderr zhindex build -q -o "$T/x.zhi" "$T/missing.pgn" "$BUG"
	assert_equal "$status" 2
	cmp "$T/keep.zhi" "$T/x.zhi"
}

# Positions of few games, all with stored moves, are tails entries, found
# by playing those games back: most of them (the exactness tests above
# query every one); a version-1 index (a key a position) is refused.
@test "zhindex: the tails: most positions, their games' moves stored; version 1 refused" {
	zhindex build -q -o "$T/x.zhi" "$ZH150"
	local all tails moves games
	all=$(sqlite3 "$T/x.zhi" "SELECT value FROM meta WHERE name = 'positions'")
	tails=$(sqlite3 "$T/x.zhi" "SELECT value FROM meta WHERE name = 'tails'")
	[ "$tails" -gt $((all * 9 / 10)) ] || fail "$tails of $all in the tails"
	# a stored move a byte as a rule: at most the plies indexed, plus a
	# few escapes (a rank over 2 among the moves to a square)
	moves=$(sqlite3 "$T/x.zhi" "SELECT sum(length(moves)) FROM games")
	games=$(sqlite3 "$T/x.zhi" "SELECT sum(min(plies, 50)) FROM games")
	[ "$moves" -ge "$games" ] && [ "$moves" -lt $((games * 13 / 10)) ] ||
	    fail "$moves bytes of moves for $games plies"
	cp "$T/x.zhi" "$T/v1.zhi"
	sqlite3 "$T/v1.zhi" "PRAGMA user_version=1"
	run --separate-stderr zhindex query "$T/v1.zhi" --moves e4
	assert_equal "$status" 2
	[[ $stderr == *"schema version 1"* ]] || fail "$stderr"
	# a game's stored moves damaged: said when a query plays them back
	sqlite3 "$T/x.zhi" "UPDATE games SET moves = x'ff' || moves"
	run --separate-stderr zhindex query "$T/x.zhi" --moves 'e4 e5 Nf3 Nc6 Bb5 a6 Ba4'
	[ "$status" -ne 0 ] && [ "$status" -le 2 ] || fail "exit $status"
	[[ $stderr == *"damaged"* ]] || fail "$stderr"
}

@test "zhindex: a damaged blob: said, never a crash" {
	zhindex build -q -o "$T/x.zhi" "$ZH150"
	sqlite3 "$T/x.zhi" "UPDATE positions SET data = substr(data, 1, 20) || x'ffffffffffffffffff01'"
	run --separate-stderr zhindex query "$T/x.zhi" 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1'
	assert_equal "$status" 1
	[[ $stderr == *"damaged"* ]] || fail "$stderr"
	run zhindex merge -q -o "$T/m.zhi" "$T/x.zhi"
	assert_equal "$status" 2
	[ ! -e "$T/m.zhi" ]
}

# A build stopped by a signal half-way (its input a FIFO that is kept
# open, so that it is surely mid-build): the old index whole, no
# temporary file (its own or a sorted run's) left, "not written" said.
@test "zhindex: a build interrupted by SIGINT or SIGTERM leaves the old index whole" {
	local sig
	zhindex build -q -o "$T/x.zhi" "$PYZH"
	cp "$T/x.zhi" "$T/old"
	cat "$ZH150" "$ZH150" >"$T/two.pgn"
	for sig in INT TERM; do
		rm -f "$T/fifo" && mkfifo "$T/fifo"
		# job control on (set -m): a background job keeps SIGINT
		run bash -c '
			set -m
			T=$1 sig=$2
			{ cat "$T/two.pgn"; sleep 30; } >"$T/fifo" 2>/dev/null </dev/null &
			feeder=$!
			zhindex build -q --memory 1M -o "$T/x.zhi" "$T/fifo" 2>"$T/err" &
			pid=$!
			for i in $(seq 200); do
				f=$(find "$T" -name ".x.zhi.*" -size +20k | head -1)
				[ -n "$f" ] && break
				sleep 0.05
			done
			[ -n "$f" ] || echo "no temporary file"
			kill "-$sig" "$pid"
			wait "$pid"
			rc=$?
			kill -- "-$feeder" 2>/dev/null
			exit $rc' _ "$T" "$sig"
		assert_equal "$status" $((128 + $(kill -l "$sig")))
		cmp "$T/old" "$T/x.zhi"
		[ -z "$(find "$T" -name '.*')" ] || fail "left: $(ls -a "$T")"
		grep -q "not written (interrupted by SIG$sig)" "$T/err" || fail "$(cat "$T/err")"
	done
}

# A disk that fills up while the index is written (a 1 MB tmpfs; root
# only): exit 2, said, the old index whole, no temporary file left.
@test "zhindex: a full disk: exit 2, the old index whole, no temporary file" {
	local m="$T/mnt"
	mkdir "$m"
	mount -t tmpfs -o size=1m tmpfs "$m" 2>/dev/null || skip "cannot mount a tmpfs here"
	zhindex build -q -o "$m/x.zhi" "$TESTDATA/pgn/pychess-zh.pgn" && cp "$m/x.zhi" "$T/old" ||
	    { umount "$m"; fail "the small index did not fit"; }
	local more=("$ZH150" "$BUG" "$TESTDATA/bughouse/gen/bughousedb.bpgn"
	    "$TESTDATA/bughouse/gen/chesscom.bpgn" "$TESTDATA/index/chess-tags-80.pgn")
	run --separate-stderr zhindex build -q -o "$m/x.zhi" "${more[@]}"
	local left
	left=$(find "$m" -name '.*' | wc -l)
	cmp "$T/old" "$m/x.zhi" || { umount "$m"; fail "the old index changed"; }
	run2=$(zhindex add -q "$m/x.zhi" "${more[@]}" 2>&1; echo "rc=$?")
	cmp "$T/old" "$m/x.zhi" || { umount "$m"; fail "add changed the old index"; }
	umount "$m"
	assert_equal "$status" 2
	[[ $stderr == *"full"* ]] || fail "$stderr"
	[[ $run2 == *"rc=2" ]] || fail "$run2"
	assert_equal "$left" 0
}

@test "zhindex: suite: legal EPD, each reached at ply K by N games or more" {
	zhindex build -q -o "$T/x.zhi" "$ZH150" "$ZH150"
	zhindex suite -q --ply 2 --min-games 4 --score-window 0.5 "$T/x.zhi" >"$T/suite.epd"
	[ "$(wc -l <"$T/suite.epd")" -ge 3 ]
	cut -d' ' -f1-4 "$T/suite.epd" | zhfen --check
	# each line: its games at ply 2 counted from the games themselves
	zhreplay -q -F epd --plies 2 "$ZH150" "$ZH150" | sort | uniq -c >"$T/counts"
	while read -r a b c d rest; do
		n=$(awk -v e="$a $b $c $d" '{c=$1; $1=""; sub(/^ /, "")} $0 == e {print c}' "$T/counts")
		[ "${n:-0}" -ge 4 ] || fail "$a $b $c $d: reached by ${n:-0} games"
	done <"$T/suite.epd"
}

@test "zhindex: usage errors: exit 2" {
	run zhindex
	assert_equal "$status" 2
	run zhindex build "$ZH150"
	assert_equal "$status" 2
	run zhindex build -o "$T/x.zhi" --memory 12 "$ZH150"
	assert_equal "$status" 2
	run zhindex query "$T/x.zhi"
	assert_equal "$status" 2
	run zhindex frobnicate
	assert_equal "$status" 2
	# the index named as one of the inputs: refused, the input as it was
	cp "$PYZH" "$T/in.pgn"
	run zhindex build -o "$T/in.pgn" "$T/in.pgn"
	assert_equal "$status" 2
	cmp "$PYZH" "$T/in.pgn"
}

@test "zhindex: an input in the index twice under one name (merged with itself, added again) is said once" {
	zhindex build -q -o "$T/a.zhi" "$ZH150"
	run --separate-stderr zhindex merge -q -o "$T/m.zhi" "$T/a.zhi" "$T/a.zhi"
	assert_success
	assert_equal "$stderr" "zhindex: $T/m.zhi: warning: $ZH150 is in the index 2 times, its 150 games counted each time"
	run --separate-stderr zhindex add -q "$T/a.zhi" "$ZH150"
	assert_success
	assert_equal "$stderr" "zhindex: $T/a.zhi: warning: $ZH150 is in the index 2 times, its 150 games counted each time"
	# said when it came in, not at every add after
	run --separate-stderr zhindex add -q "$T/a.zhi" "$PYZH"
	assert_success
	assert_equal "$stderr" ""
	# distinct inputs, and standard input each time: nothing said
	run --separate-stderr zhindex build -q -o "$T/b.zhi" "$ZH150" "$PYZH"
	assert_equal "$stderr" ""
	zhindex add -q "$T/b.zhi" - <"$PYZH"
	run --separate-stderr zhindex add -q "$T/b.zhi" - <"$PYZH"
	assert_equal "$stderr" ""
}

@test "zhindex: a move of games without ratings shows - for rating and perf, not 0 (0 in -J)" {
	printf '[Event "x"]\n\n1. e4 e5 2. Qh5 Ke7 3. Qxe5# 1-0\n' >"$T/g.pgn"
	zhindex build -q -o "$T/u.zhi" "$T/g.pgn"
	run zhindex query "$T/u.zhi" --moves 'e4 e5 Qh5'
	assert_success
	assert_line --index 2 "Ke7       e8e7          1 100.0%   0.0%   0.0%      -      -"
	run zhindex query -J "$T/u.zhi" --moves 'e4 e5 Qh5'
	assert_equal "$(jq -c '.moves[0] | [.averageRating, .performance]' <<<"$output")" '[0,0]'
}

@test "zhindex: a bad option value is named with what it takes, exit 2" {
	zhindex build -q -o "$T/x.zhi" "$ZH150"
	run --separate-stderr zhindex suite --score-window 1 "$T/x.zhi"
	assert_equal "$status" 2
	assert_equal "${stderr_lines[0]}" "zhindex: --score-window: '1' is not a number from 0 to 0.5"
	run --separate-stderr zhindex suite --score-window 0.2x "$T/x.zhi"
	assert_equal "$status" 2
	assert_equal "${stderr_lines[0]}" "zhindex: --score-window: '0.2x' is not a number from 0 to 0.5"
	run --separate-stderr zhindex suite --to auto "$T/x.zhi"
	assert_equal "$status" 2
	assert_equal "${stderr_lines[0]}" "zhindex: --to: unknown dialect 'auto' (try lichess, xboard, chesscom, fairy)"
	run --separate-stderr zhindex query --to nosuch "$T/x.zhi" --moves e4
	assert_equal "$status" 2
	assert_equal "${stderr_lines[0]}" "zhindex: --to: unknown dialect 'nosuch' (try lichess, xboard, chesscom, fairy)"
	# the window's edge is in
	run zhindex suite -q --score-window 0.5 --ply 1 --min-games 1 "$T/x.zhi"
	assert_success
	local r
	for r in 1600x 2000-1000 abc -5 1600-2000x; do
		run --separate-stderr zhindex query --rating="$r" "$T/x.zhi" --moves e4
		assert_equal "$status" 2
		assert_equal "${stderr_lines[0]}" "zhindex: --rating: '$r' is not A-B (B not under A), A- or A, whole numbers"
	done
	run --separate-stderr zhindex query --until 2020-13 "$T/x.zhi" --moves e4
	assert_equal "$status" 2
	assert_equal "${stderr_lines[0]}" "zhindex: --until: '2020-13' is not a month YYYY-MM"
	# A, A- and A-A are ranges
	run zhindex query -J --rating 1600 "$T/x.zhi" --moves e4
	assert_success
	run zhindex query -J --rating 1600-1600 "$T/x.zhi" --moves e4
	assert_success
}

@test "zhindex: a question that is no position: FILE:LINE:COL as every tool says it, exit 1, the next answered" {
	zhindex build -q -o "$T/x.zhi" "$ZH150"
	run --separate-stderr zhindex query "$T/x.zhi" 'bad fen'
	assert_equal "$status" 1
	assert_equal "$stderr" "zhindex: <arg>:1:2: error: board: 'a' is not a piece of crazyhouse"
	run --separate-stderr zhindex query "$T/x.zhi" --moves 'e4 Ke7'
	assert_equal "$status" 1
	[[ $stderr == "zhindex: <arg>:1:4: error: --moves: illegal move 'Ke7'"* ]] || fail "$stderr"
	run --separate-stderr zhindex query -J "$T/x.zhi" - <<'IN'
x
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1
IN
	assert_equal "$status" 1
	assert_equal "$stderr" "zhindex: <stdin>:1:1: error: board: 'x' is not a piece of crazyhouse"
	[[ $output == '{"fen":'* ]] || fail "$output"
}
