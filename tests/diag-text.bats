#!/usr/bin/env bats
# What the tools say on standard error (issue 39, item 8): an operand that
# is neither a file nor a FEN is said to be both; text from the input
# reaches the terminal as the JSON reads it (Latin-1 bytes as their UTF-8,
# control bytes escaped), never as raw bytes; --progress names each input.

bats_require_minimum_version 1.5.0
load common

@test "diag: zhfen, a missing path with seven slashes: no such file, and not a FEN" {
	run -1 --separate-stderr zhfen a/b/c/d/e/f/g/h.fen
	assert_equal "${stderr_lines[0]}" "zhfen: a/b/c/d/e/f/g/h.fen: No such file or directory, and not a FEN:"
	assert_equal "${stderr_lines[1]}" "zhfen: <arg>:1:1: error: board: 'a' is not a piece of crazyhouse"
	# a FEN that is one, or that has a blank, is not taken for a path
	run -0 --separate-stderr zhfen 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/'
	[ -z "$stderr" ]
	run -1 --separate-stderr zhfen 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w - - 0 1'
	refute_output --partial 'No such file'
	[[ $stderr != *'No such file'* ]]
	# an existing file is still read as a file
	printf '%s\n' '4k3/8/8/8/8/8/8/4K3[] w - - 0 1' > "$BATS_TEST_TMPDIR/x"
	run -0 zhfen "$BATS_TEST_TMPDIR/x"
}

# A game whose White is Latin-1 "Müller" with an escape sequence, and an
# illegal drop, so that a message names the players.
latin1_game() {
	printf '[Event "x"]\n[Site "?"]\n[Date "?"]\n[Round "1"]\n[White "M\xfcller\x1b[2J"]\n'
	printf '[Black "Bob \xc2\x9b"]\n[Result "*"]\n[Variant "Crazyhouse"]\n\n1. e4 e5 2. N@e4 *\n'
}

@test "diag: Latin-1 and control bytes of the input are never copied raw to standard error" {
	local f="$BATS_TEST_TMPDIR/l1.pgn" t j want
	latin1_game > "$f"
	for j in 1 2; do
		run -1 --separate-stderr zhcheck -j "$j" "$f"
		# what the JSON shows: the UTF-8 of U+00FC; ESC and the C1 CSI escaped
		[[ $stderr == *'(Müller\x1B[2J - Bob \xC2\x9B), ply 3: illegal drop'* ]] ||
		    { echo "-j $j: $stderr"; return 1; }
		run bash -c "zhcheck -j $j '$f' 2>&1 >/dev/null | LC_ALL=C grep -c \$'[\\x1b\\x80-\\x9f]\\|\\xfcl'"
		assert_output 0
	done
	want=$(zhpgn -q -J "$f" 2>/dev/null | jq -r .tags.White)
	[ "$want" = $'Müller\e[2J' ]
	# a file's name, in every tool
	for t in zhcheck zhpgn zhreplay zhfen; do
		run --separate-stderr "$t" "$BATS_TEST_TMPDIR/no-"$'\xfc\x1b'".pgn"
		[[ $stderr == *"/no-ü\\x1B.pgn: No such file or directory"* ]] || { echo "$t: $stderr"; return 1; }
	done
}

@test "diag: --progress names each input (on a pty)" {
	command -v script >/dev/null || skip "script (util-linux) not installed"
	local t out a="$TESTDATA/select/crazyhouse-tags-200.pgn" b="$TESTDATA/pgn/fatics-zh.pgn"
	for t in zhpgn zhcheck zhreplay; do
		out=$(NO_COLOR=1 script -qec "$t -q --progress '$a' '$b' >/dev/null" /dev/null </dev/null | tr '\r' '\n')
		[[ $out == *"$t: $a: 200 games, "* ]] || { echo "$t: $out"; return 1; }
		[[ $out == *"$t: $b: "*" games, "* ]] || { echo "$t: $out"; return 1; }
	done
}
