#!/usr/bin/env bats
# zhreplay -F npy into a directory that already has tables (the last
# run's): each table is written under a temporary name and renamed over
# the old one at the end, so the directory ends up with the same bytes a
# new directory gets, whatever was there before (longer tables, shorter
# ones, junk); an interrupted or failed run leaves the old tables whole
# and no temporary file; a reader that has an old table open keeps it.

bats_require_minimum_version 1.5.0
load common

setup() {
	T=$BATS_TEST_TMPDIR
	BIG=$TESTDATA/pgn/crazyara-1k_cz_lichess_startpos.pgn
	SMALL=$TESTDATA/pgn/fatics-zh.pgn
}

# Hidden entries of DIR but the set's link (.zhkit-npy) and the directory
# it names (tableset.h): temporaries, or a set not in use.
leftovers() {
	find "$1" -mindepth 1 -name '.*' ! -name .zhkit-npy \
	    ! -name "$(readlink "$1/.zhkit-npy" 2>/dev/null || echo .zhkit-npy)"
}

# same_tables DIR1 DIR2: every table of both, byte for byte
same_tables() {
	local t
	for t in positions bughouse games strings files; do
		cmp "$1/$t.npy" "$2/$t.npy" || return 1
	done
}

@test "arrays-rewrite: a longer run's tables are cut to a shorter run's" {
	zhreplay -q -F npy -o "$T/new" "$SMALL"
	zhreplay -q -F npy -o "$T/d" "$BIG"
	[ "$(wc -c <"$T/d/positions.npy")" -gt "$(wc -c <"$T/new/positions.npy")" ]
	run zhreplay -q -F npy -o "$T/d" "$SMALL"
	assert_success
	same_tables "$T/new" "$T/d"
}

@test "arrays-rewrite: a shorter run's tables, and junk, are written over whole" {
	zhreplay -q -F npy -o "$T/new" "$BIG"
	zhreplay -q -F npy -o "$T/d" "$SMALL"
	run zhreplay -q -F npy -o "$T/d" "$BIG"
	assert_success
	same_tables "$T/new" "$T/d"
	# tables that are no arrays at all, longer than the new ones
	for t in positions bughouse games strings files; do
		head -c 3000000 /dev/zero | tr '\0' '\377' >"$T/d/$t.npy"
	done
	run zhreplay -q -F npy -o "$T/d" "$BIG"
	assert_success
	same_tables "$T/new" "$T/d"
}

# An old table open (as numpy.load(mmap_mode='r') keeps it) while a new
# run writes the directory: the reader's bytes do not change under it.
@test "arrays-rewrite: a table open for reading keeps its bytes while a new run writes" {
	zhreplay -q -F npy -o "$T/d" "$SMALL"
	cp "$T/d/positions.npy" "$T/old.npy"
	exec 7<"$T/d/positions.npy"
	zhreplay -q -F npy -o "$T/d" "$BIG"
	run cmp - "$T/old.npy" <&7
	exec 7<&-
	assert_success
	zhreplay -q -F npy -o "$T/new" "$BIG"
	same_tables "$T/new" "$T/d"
}

@test "arrays-rewrite: SIGINT, SIGTERM while the tables are written: the old tables whole, no temporary file left, said" {
	local sig t
	zhreplay -q -F npy -o "$T/d" "$SMALL"
	cp -r "$T/d" "$T/old"
	for i in $(seq 30); do cat "$BIG"; done >"$T/big.pgn"
	for sig in INT TERM; do
		rm -f "$T/fifo" && mkfifo "$T/fifo"
		run bash -c '
			set -m
			T=$1 sig=$2
			{ cat "$T/big.pgn"; sleep 30; } >"$T/fifo" 2>/dev/null </dev/null &
			feeder=$!
			zhreplay -q -F npy -o "$T/d" "$T/fifo" 2>"$T/err" &
			pid=$!
			for i in $(seq 200); do
				f=$(find "$T/d" -name ".positions.npy.*" -size +100k | head -1)
				[ -n "$f" ] && break
				sleep 0.05
			done
			[ -n "$f" ] || { echo "no temporary file"; kill $pid; }
			kill "-$sig" "$pid"
			wait "$pid"
			rc=$?
			kill -- "-$feeder" 2>/dev/null
			exit $rc' _ "$T" "$sig"
		assert_equal "$status" $((128 + $(kill -l "$sig")))
		same_tables "$T/old" "$T/d"
		[ -z "$(leftovers "$T/d")" ] || fail "a temporary file was left: $(leftovers "$T/d")"
		grep -q "positions.npy: not written (interrupted by SIG$sig)" "$T/err" ||
		    fail "$(cat "$T/err")"
	done
}

# A disk that fills up while the tables are written (a 2 MB tmpfs; root
# only): exit 2, said, the tables of the run before whole, no temporary
# file left (the writer thread's error is the run's).
@test "arrays-rewrite: a full disk: exit 2, the old tables whole, no temporary file" {
	local m="$T/mnt"
	mkdir "$m"
	mount -t tmpfs -o size=2m tmpfs "$m" 2>/dev/null || skip "cannot mount a tmpfs here"
	zhreplay -q -F npy -o "$m/d" "$SMALL" && cp -r "$m/d" "$T/old" ||
	    { umount "$m"; fail "the small run did not fit"; }
	run --separate-stderr zhreplay -q -F npy -o "$m/d" "$BIG" "$BIG" "$BIG"
	local left
	left=$(leftovers "$m/d" | wc -l)
	same_tables "$T/old" "$m/d" || { umount "$m"; fail "the old tables changed"; }
	umount "$m"
	assert_equal "$status" 2
	[[ $stderr == *"write error: No space left on device"* ]] || fail "$stderr"
	assert_equal "$left" 0
}

# The tables are renamed over their names at the end: an input that is
# one of them is refused, never replaced (as -o naming the input is).
@test "arrays-rewrite: -o DIR whose table is an input: refused, exit 2, the input as it was" {
	mkdir "$T/d"
	cp "$SMALL" "$T/d/games.npy"
	run --separate-stderr zhreplay -q -F npy -o "$T/d" "$T/d/games.npy"
	assert_equal "$status" 2
	[[ $stderr == *"games.npy: cannot write: it is the input"* ]] || fail "$stderr"
	cmp "$SMALL" "$T/d/games.npy"
	[ -z "$(find "$T/d" -name '.*' -o -name 'positions.npy')" ] || fail "$(ls -a "$T/d")"
}
