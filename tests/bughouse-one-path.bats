#!/usr/bin/env bats
# One path for every game in the tools (zhpgn, zhreplay): what a game of
# one board gets, a game of two gets too, through zh_replay, the writers
# and zh_replay_walk; the two-board engine's facts (the error's board)
# come from the replay.

load common

HAND="$TESTDATA/bughouse/hand/lichess.bpgn"

@test "bughouse-one-path: a bughouse game over the game limit says what its rejects file keeps, as one board's" {
	local f=$BATS_TEST_TMPDIR
	printf '[Event "a"]\n[Variant "Crazyhouse"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n' >"$f/one.pgn"
	cat "$f/one.pgn" "$HAND" >"$f/both.pgn"
	run zhpgn --limit game=60 --rejects "$f/rej.pgn" "$f/both.pgn"
	assert_failure 1
	# every game rejected says its cut, the board count aside
	assert_line --regexp 'game 1: game too long .*; game rejected \(only its first [0-9]+ bytes go to the rejects file\)$'
	assert_line --regexp 'game 2: game too long .*; game rejected \(only its first [0-9]+ bytes go to the rejects file\)$'
	assert_line --regexp 'game 3: game too long .*; game rejected \(only its first [0-9]+ bytes go to the rejects file\)$'
	# and the rejects file holds those bytes of each, a blank line after
	n=$(printf '%s\n' "$output" | sed -n 's/.*game 2: .*only its first \([0-9]*\) bytes.*/\1/p')
	head -c "$n" "$HAND" >"$f/want"
	[ "$n" -gt 0 ] && [ "$n" -le 60 ]
	run python3 -c '
import sys
rej, want = (open(p, "rb").read() for p in sys.argv[1:])
print(rej.count(want + b"\n\n"))' "$f/rej.pgn" "$f/want"
	assert_output 1
}

@test "bughouse-one-path: an error of a bughouse game names its board in zhpgn and zhreplay alike" {
	run zhpgn "$TESTDATA/bughouse/broken/wrong-board.bpgn"
	assert_line --partial "game 1, ply 11 on board B: label '6b.' out of turn"
	run zhreplay -F fen "$TESTDATA/bughouse/broken/wrong-board.bpgn"
	assert_line --partial "game 1, ply 11 on board B: label '6b.' out of turn"
	# a game of one board: no board named
	printf '[Event "a"]\n\n1. e4 e5 2. Ke3 *\n' >"$BATS_TEST_TMPDIR/one.pgn"
	run zhreplay -F fen "$BATS_TEST_TMPDIR/one.pgn"
	assert_line --regexp 'game 1, ply 3: .*Ke3'
	refute_output --partial "on board"
}

@test "bughouse-one-path: null moves of a game before a bughouse game are not said again for it" {
	local f=$BATS_TEST_TMPDIR
	printf '[Event "a"]\n[Result "*"]\n\n1. e4 -- 2. d4 Z0 *\n\n' >"$f/n.pgn"
	cat "$f/n.pgn" "$HAND" >"$f/both.pgn"
	for fmt in fen epd san; do
		run zhreplay -F "$fmt" --null-moves "$f/both.pgn"
		assert_success
		[ "$(printf '%s\n' "$output" | grep -c 'null move')" -eq 2 ]
		refute_output --partial "game 2"
	done
	run zhpgn --null-moves "$f/both.pgn"
	[ "$(printf '%s\n' "$output" | grep -c 'null move')" -eq 2 ]
}

@test "bughouse-one-path: --boards and cleaning on any game: one board cleaned, two boards each whole" {
	local f=$BATS_TEST_TMPDIR
	printf '[Event "a"]\n[Variant "Crazyhouse"]\n[Result "*"]\n\n1. e4 {x} e5 *\n\n' >"$f/one.pgn"
	cat "$f/one.pgn" "$HAND" >"$f/both.pgn"
	run zhpgn --boards --strip comments "$f/both.pgn"
	assert_success
	# the crazyhouse game cleaned; the bughouse one as its two boards
	assert_line "1. e4 e5 *"
	[ "$(printf '%s\n' "$output" | grep -c '^\[Board "')" -eq 4 ]
	assert_output --partial "{Bob resigns}"
}
