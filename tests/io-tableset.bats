#!/usr/bin/env bats
# Issue #39 items 10 and 14: zhreplay -F npy/parquet's four tables are one
# set (cli/tableset.h): a reader sees the old set or the new one, never a
# mix, wherever a signal stops the run; a name a table cannot replace (a
# directory, someone's symbolic link, a FIFO) is refused before anything
# is written; a set's directory left by a run killed with SIGKILL is
# removed by the next run.  On main the tables were renamed one at a time
# (a signal between two renames left new positions with old games) and a
# taken name ended the run after the tables were written ("write error:
# File exists"), other tables already replaced.

bats_require_minimum_version 1.5.0
load common

setup() {
	T=$BATS_TEST_TMPDIR
	BIG=$TESTDATA/pgn/crazyara-1k_cz_lichess_startpos.pgn
	SMALL=$TESTDATA/pgn/fatics-zh.pgn
}

# set_is DIR REF...: DIR's four tables are, byte for byte, those of one REF
set_is() {
	local d=$1 r t ok
	shift
	for r in "$@"; do
		ok=1
		for t in positions.npy bughouse.npy games.npy files.npy; do
			cmp -s "$d/$t" "$r/$t" || ok=
		done
		[ -n "$ok" ] && return 0
	done
	return 1
}

# The games table's plies and records agree with the positions table
# (numpy): each game's records are the positions of that game.
consistent() {
	/usr/bin/python3 - "$1" <<'EOF'
import sys, numpy as np
d = sys.argv[1]
p = np.load(d + "/positions.npy"); b = np.load(d + "/bughouse.npy")
g = np.load(d + "/games.npy")
n = np.bincount(p["game"], minlength=len(g)) + np.bincount(b["game"], minlength=len(g))
assert len(n) == len(g), (len(n), len(g))
assert (n == g["records"]).all(), "records differ"
EOF
}

# Hidden entries but the set's link and the directory it names.
leftovers() {
	find "$1" -mindepth 1 -name '.*' ! -name ".zhkit-$2" \
	    ! -name "$(readlink "$1/.zhkit-$2" 2>/dev/null || echo ".zhkit-$2")"
}

@test "io-tableset: SIGTERM at many points of a run: the old set or the new one, never a mix" {
	local i t0 t1 step d
	for i in 1 2 3; do cat "$BIG"; done >"$T/big.pgn"
	zhreplay -q -F npy -o "$T/A" "$SMALL"
	# the new set, and how long a run takes (only to spread the signals)
	t0=${EPOCHREALTIME/./}
	zhreplay -q -F npy -o "$T/B" "$T/big.pgn"
	t1=${EPOCHREALTIME/./}
	step=$(( (t1 - t0) * 3 / 2 / 40 ))
	consistent "$T/A"
	consistent "$T/B"
	d=$T/d
	zhreplay -q -F npy -o "$d" "$SMALL"
	for i in $(seq 0 41); do
		zhreplay -q -F npy -o "$d" "$T/big.pgn" 2>/dev/null &
		sleep "$(printf '0.%06d' $((i * step)))"
		kill -TERM $! 2>/dev/null || true
		wait $! || true
		set_is "$d" "$T/A" "$T/B" || fail "try $i: a mix: $(ls -laR "$d")"
		[ -z "$(leftovers "$d" npy)" ] || fail "try $i: left: $(leftovers "$d" npy)"
		# back to the old set when the new one got in
		set_is "$d" "$T/A" || zhreplay -q -F npy -o "$d" "$SMALL"
	done
	consistent "$d"
}

@test "io-tableset: an older layout's tables (regular files) become a set: replaced whole, no mix" {
	mkdir "$T/d"
	zhreplay -q -F npy -o "$T/A" "$SMALL"
	zhreplay -q -F npy -o "$T/B" "$BIG"
	cp -L "$T"/A/*.npy "$T/d/"
	[ -f "$T/d/games.npy" ] && [ ! -L "$T/d/games.npy" ]
	run zhreplay -q -F npy -o "$T/d" "$BIG"
	assert_success
	set_is "$T/d" "$T/B"
	[ -L "$T/d/games.npy" ]
	[ -z "$(leftovers "$T/d" npy)" ] || fail "$(leftovers "$T/d" npy)"
	# and again: the set before is removed
	run zhreplay -q -F npy -o "$T/d" "$SMALL"
	assert_success
	set_is "$T/d" "$T/A"
	[ -z "$(leftovers "$T/d" npy)" ] || fail "$(leftovers "$T/d" npy)"
	consistent "$T/d"
}

# taken DIR NAME HOW: NAME in DIR made a directory, a FIFO or a symbolic
# link of the user's
taken() {
	rm -f "$1/$2"
	case $3 in
	dir) mkdir "$1/$2" ;;
	fifo) mkfifo "$1/$2" ;;
	link) ln -s elsewhere "$1/$2" ;;
	esac
}

@test "io-tableset: a table's name taken by a directory, a FIFO, a symbolic link: refused before anything is written" {
	local how name fmt ext want
	for fmt in npy parquet; do
		for how in dir fifo link; do
			for name in positions games files; do
				rm -rf "$T/d"
				zhreplay -q -F $fmt -o "$T/d" "$SMALL"
				cp -rP "$T/d" "$T/before"
				taken "$T/d" "$name.$fmt" $how
				run --separate-stderr zhreplay -q -F $fmt -o "$T/d" "$BIG"
				assert_equal "$status" 2
				case $how in
				dir) want="a directory" ;;
				fifo) want="a FIFO" ;;
				link) want="a symbolic link" ;;
				esac
				[[ $stderr == *"$T/d/$name.$fmt: cannot write: $want is in its place"* ]] ||
				    fail "$fmt $how $name: $stderr"
				[[ $stderr != *"File exists"* ]] || fail "$stderr"
				# nothing written: the rest of the set as it was
				diff <(cd "$T/before" && find . ! -name "$name.$fmt" | sort) \
				    <(cd "$T/d" && find . ! -name "$name.$fmt" | sort)
				[ "$(readlink "$T/d/.zhkit-$fmt")" = "$(readlink "$T/before/.zhkit-$fmt")" ]
				rm -rf "$T/before"
			done
		done
	done
}

@test "io-tableset: a run killed by SIGKILL: the next run removes its set's directory" {
	local i f
	for i in $(seq 10); do cat "$BIG"; done >"$T/big.pgn"
	zhreplay -q -F npy -o "$T/d" "$SMALL"
	rm -f "$T/fifo" && mkfifo "$T/fifo"
	# the input held open: the run waits, its tables begun
	{ cat "$T/big.pgn"; sleep 30; } >"$T/fifo" 2>/dev/null </dev/null &
	local feeder=$!
	zhreplay -q -F npy -o "$T/d" "$T/fifo" 2>/dev/null &
	local pid=$!
	for i in $(seq 200); do
		f=$(find "$T/d" -name ".positions.npy.*" | head -1)
		[ -n "$f" ] && break
		sleep 0.05
	done
	[ -n "$f" ] || fail "no temporary file"
	kill -KILL $pid
	wait $pid || true
	kill $feeder 2>/dev/null || true
	[ -n "$(leftovers "$T/d" npy)" ] || fail "nothing left by SIGKILL?"
	run zhreplay -q -F npy -o "$T/d" "$SMALL"
	assert_success
	[ -z "$(leftovers "$T/d" npy)" ] || fail "left: $(leftovers "$T/d" npy)"
	consistent "$T/d"
}
