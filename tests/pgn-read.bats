#!/usr/bin/env bats
# The callback reader (zh_pgn_open_read): tests/unit/pgn_read.c reads
# every PGN, BPGN and JSON Lines file of testdata through a callback that
# hands out 1 to 7 bytes at a time, and through the FILE reader, and
# compares everything the reader says of each game; a callback's error
# must end the reading as a FILE's read error does.

load common

# tests/unit/pgn_read.c built against build/libzh.a (with ASan's flags
# when the library was built with them).
build_pgn_read() {
	local san=
	nm "$ZH_TOP/build/libzh.a" 2>/dev/null | grep -q __asan_ &&
	    san="-fsanitize=address,undefined -fno-omit-frame-pointer"
	# shellcheck disable=SC2086
	cc -std=c17 -O1 -g $san -D_POSIX_C_SOURCE=200809L -I"$ZH_TOP/lib" \
	    -I"$ZH_TOP/tests/unit" -o "$BATS_TEST_TMPDIR/pgn_read" \
	    "$ZH_TOP/tests/unit/pgn_read.c" "$ZH_TOP/build/libzh.a" \
	    -ljansson -lpcre2-8 -lpthread
}

@test "pgn-read: tiny odd-sized reads give every testdata file's games as the FILE reader does" {
	build_pgn_read
	cd "$ZH_TOP"
	run "$BATS_TEST_TMPDIR/pgn_read"
	assert_success
	assert_output --regexp 'pgn_read: [0-9]+ files'
	assert_output --partial ' checks, 0 failed'
	# every file of testdata the reader reads was compared
	local n
	n=$(find testdata -name '*.pgn' -o -name '*.bpgn' -o -name '*.jsonl' | wc -l)
	assert_output --partial "pgn_read: $n files"
}

@test "pgn-read: the bench archive through tiny reads, game for game" {
	local f="$ZH_TOP/../shared/bench/zh-clk.pgn"
	[ -f "$f" ] || skip "no $f"
	build_pgn_read
	head -c 3000000 "$f" >"$BATS_TEST_TMPDIR/part.pgn"
	cd "$ZH_TOP"
	run "$BATS_TEST_TMPDIR/pgn_read" "$BATS_TEST_TMPDIR/part.pgn"
	assert_success
	assert_output --partial ' checks, 0 failed'
}

# libzh(3)'s example of the callback reader (the literal block with
# zh_pgn_open_read), mdoc escapes undone, built against build/libzh.a:
# its JSON Lines are zhpgn --json's for valid games, byte for byte.
@test "pgn-read: libzh(3)'s read(2) example writes what zhpgn --json writes" {
	nm "$ZH_TOP/build/libzh.a" 2>/dev/null | grep -q __asan_ && skip "libzh.a built with ASan"
	local src="$BATS_TEST_TMPDIR/ex.c" f="$ZH_TOP/testdata/pgn/scalachess-crazyhouse1.pgn"
	awk '/^\.Bd -literal/ { blk = ""; on = 1; next } /^\.Ed/ { if (blk ~ /zh_pgn_open_read/) printf "%s", blk; on = 0 } on { blk = blk $0 "\n" }' \
	    "$ZH_TOP/man/libzh.3" | sed 's/\\e/\\/g' >"$src"
	grep -q 'zh_pgn_open_read(fd_read' "$src"
	run cc -std=c17 -D_POSIX_C_SOURCE=200809L -I"$ZH_TOP/lib" -o "$BATS_TEST_TMPDIR/ex" "$src" \
	    "$ZH_TOP/build/libzh.a" -ljansson -lpcre2-8 -lpthread
	assert_success
	# zhpgn names the file and numbers the game, the example does not
	"$ZH_TOP/bin/zhpgn" -q --json "$f" |
	    sed 's/^{"file":"[^"]*","game":[0-9]*,"index":[0-9]*,/{/' >"$BATS_TEST_TMPDIR/want"
	"$BATS_TEST_TMPDIR/ex" <"$f" >"$BATS_TEST_TMPDIR/got"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/got")" -ge 1 ]
	run cmp "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
	assert_success
	# a read error: a directory as standard input
	run "$BATS_TEST_TMPDIR/ex" <"$ZH_TOP/testdata"
	assert_failure 1
	assert_output 'read error: Is a directory'
}
