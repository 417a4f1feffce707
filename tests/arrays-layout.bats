#!/usr/bin/env bats
# The arrays' records are described once (cli/npyrec.h, issue 40): every
# field's name, type, shape and bytes, its offset the sum of the bytes
# before it.  tests/helpers/arrays-layout.py checks that table against
# itself, against NumPy's reading of the headers zhreplay -F npy writes
# (each field at the table's offset, with its type, shape and size), and
# against zhkit-arrays(5)'s lists; a table that disagrees fails.
bats_require_minimum_version 1.5.0
load common

setup() {
	DUMP=$BATS_TEST_TMPDIR/dump
	cc -std=c17 -I"$ZH_TOP/cli" -o "$BATS_TEST_TMPDIR/npyrec-dump" \
	    "$ZH_TOP/tests/helpers/npyrec-dump.c"
	"$BATS_TEST_TMPDIR/npyrec-dump" >"$DUMP"
	zhreplay -q -F npy -o "$BATS_TEST_TMPDIR/a" "$TESTDATA/pgn/crazyara-1k_cz_lichess_startpos.pgn" \
	    "$TESTDATA/bughouse/gen/chesscom.bpgn"
}

@test "arrays-layout: every field's offset and size: the table, NumPy's reading and zhkit-arrays(5) agree" {
	[ "$(grep -c . "$DUMP")" -ge 60 ]
	run /usr/bin/python3 "$ZH_TOP/tests/helpers/arrays-layout.py" "$DUMP" \
	    "$BATS_TEST_TMPDIR/a" "$ZH_TOP/man/zhkit-arrays.5"
	assert_success
	assert_output ""
}

@test "arrays-layout: a field moved, resized or undocumented fails the check" {
	local py=$ZH_TOP/tests/helpers/arrays-layout.py a=$BATS_TEST_TMPDIR/a m=$ZH_TOP/man/zhkit-arrays.5
	# an offset off by one
	sed 's/^POS cp <i4 () 40 4$/POS cp <i4 () 41 4/' "$DUMP" >"$BATS_TEST_TMPDIR/d1"
	! cmp -s "$DUMP" "$BATS_TEST_TMPDIR/d1"
	run /usr/bin/python3 "$py" "$BATS_TEST_TMPDIR/d1" "$a" "$m"
	assert_failure 1
	assert_output --partial "POS.cp: offset 41"
	# a size that is not its type's
	sed 's/^GAME date |S10 () 52 10$/GAME date |S10 () 52 9/' "$DUMP" >"$BATS_TEST_TMPDIR/d2"
	! cmp -s "$DUMP" "$BATS_TEST_TMPDIR/d2"
	run /usr/bin/python3 "$py" "$BATS_TEST_TMPDIR/d2" "$a" "$m"
	assert_failure 1
	assert_output --partial "GAME.date: 9 bytes"
	# a field the manual does not list
	grep -v '^\.It mate Ta' "$m" >"$BATS_TEST_TMPDIR/m.5"
	run /usr/bin/python3 "$py" "$DUMP" "$a" "$BATS_TEST_TMPDIR/m.5"
	assert_failure 1
	assert_output --partial "zhkit-arrays(5) says"
}
