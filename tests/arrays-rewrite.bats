#!/usr/bin/env bats
# zhreplay -F npy into a directory that already has tables (the last
# run's): each table is written over and cut to its new length, so the
# directory ends up with the same bytes a new directory gets, whatever
# was there before (longer tables, shorter ones, junk).

bats_require_minimum_version 1.5.0
load common

setup() {
	T=$BATS_TEST_TMPDIR
	BIG=$TESTDATA/pgn/crazyara-1k_cz_lichess_startpos.pgn
	SMALL=$TESTDATA/pgn/fatics-zh.pgn
}

# same_tables DIR1 DIR2: every table of both, byte for byte
same_tables() {
	local t
	for t in positions bughouse games files; do
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
	for t in positions bughouse games files; do
		head -c 3000000 /dev/zero | tr '\0' '\377' >"$T/d/$t.npy"
	done
	run zhreplay -q -F npy -o "$T/d" "$BIG"
	assert_success
	same_tables "$T/new" "$T/d"
}
