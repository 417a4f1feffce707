#!/usr/bin/env bats
# Issue 32, items 5, 18 and 20: -Werror fails the run and every warning
# said is counted, by class; a class that repeats is shown a few times,
# then counted (--all-warnings: every one), the same for any -j; a file
# of the wrong kind gets one line saying what it looks like.

bats_require_minimum_version 1.5.0
load common

setup() {
	T=$BATS_TEST_TMPDIR
	P=$TESTDATA/pgn
	Z=$TESTDATA/zhcheck
}

# A bughouse game whose White A clock goes up from 58 s to 59.5 s.
clock_game() {
	printf '[Event "x"]\n[Site "x"]\n[Date "2024.01.01"]\n[WhiteA "wa"]\n'
	printf '[BlackA "ba"]\n[WhiteB "wb"]\n[BlackB "bb"]\n[TimeControl "60"]\n'
	printf '[Result "*"]\n\n1A. e4{59.1} 1a. e5{59.0} 2A. Nf3{58.0} '
	printf '2a. Nc6{57.0} 3A. Bc4{59.5} *\n'
}

@test "warn-classes 5: -Werror=text-between-games fails zhcheck, zhpgn and zhreplay (before a game and after the last)" {
	{ echo junk; cat "$TESTDATA/zhpgn/setup.pgn"; } >"$T/t.pgn"
	{ cat "$TESTDATA/zhpgn/setup.pgn"; echo; echo junk; } >"$T/tail.pgn"
	for t in zhcheck zhpgn zhreplay; do
		for f in t tail; do
			run -0 --separate-stderr "$t" "$T/$f.pgn"
			[[ $stderr == *"[-Wtext-between-games]"* ]] || fail "$t $f: $stderr"
			# the one warning said is counted, by class
			[[ ${stderr_lines[-1]} == *"(1 warning: 1 text-between-games)" ]] ||
			    fail "$t $f: ${stderr_lines[-1]}"
			run -1 --separate-stderr "$t" -Werror "$T/$f.pgn"
			[[ $stderr == *"[-Werror=text-between-games]"* ]] || fail "$t $f -Werror: $stderr"
			run -1 --separate-stderr "$t" -Werror=text-between-games -j 2 "$T/$f.pgn"
		done
	done
	# zhcheck: the text before a game is a problem of that game, in its
	# JSON report too, and -Werror makes the game invalid
	run -0 zhcheck -q --json "$T/t.pgn"
	[ "$(jq -r '.errors[0].code' <<<"$output")" = text-between-games ]
	[ "$(jq -r '.errors[0].severity' <<<"$output")" = warning ]
	run -1 --separate-stderr zhcheck --json -Werror "$T/t.pgn"
	[ "$(jq -r '.valid' <<<"$output")" = false ]
	[ "$(jq -r '.errors[0].severity' <<<"$output")" = error ]
	assert_equal "${stderr_lines[-1]}" "zhcheck: checked 1 game: 0 valid, 1 invalid (0 warnings)"
}

@test "warn-classes 5: every class of every tool, said as a warning, is counted; as an error (-Werror=NAME), exit 1" {
	local a=crazyara-zh-50_startpos.pgn
	printf '[Event "a"]\n\n1. e4 e5\n\n[Event "b"]\n\n1. d4 d5 *\n' >"$T/nm.pgn"
	sed -n '12,21p' "$TESTDATA/warn/null-moves.pgn" >"$T/null.pgn"
	clock_game >"$T/clock.bpgn"
	: >"$T/empty.pgn"
	# tool, class, input, options
	local cases=(
		"zhcheck tag $Z/missing-roster-tags.pgn"
		"zhcheck missing-round $Z/missing-roster-tags.pgn"
		"zhcheck result $Z/result-tag-mismatch.pgn"
		"zhcheck plycount $Z/plycount-wrong.pgn"
		"zhcheck setup $Z/setup-without-fen.pgn"
		"zhcheck variation $P/$a"
		"zhcheck null-move $T/null.pgn --null-moves"
		"zhcheck check-suffix $TESTDATA/bughouse/broken/false-mate.bpgn"
		"zhcheck clock $T/clock.bpgn"
		"zhpgn variation $P/$a"
		"zhpgn null-move $T/null.pgn --null-moves"
		"zhpgn no-termination $T/nm.pgn"
		"zhpgn no-game $T/empty.pgn"
		"zhreplay null-move $T/null.pgn --null-moves"
	)
	local c t cls f opt
	for c in "${cases[@]}"; do
		read -r t cls f opt <<<"$c"
		# shellcheck disable=SC2086
		run -0 --separate-stderr "$t" -o /dev/null $opt "$f"
		[[ $stderr == *"[-W$cls]"* ]] || fail "$c: not said: $stderr"
		[[ ${stderr_lines[-1]} =~ \(.*[:,]\ [0-9]+\ $cls[,\)] ]] ||
		    fail "$c: not counted: ${stderr_lines[-1]}"
		# shellcheck disable=SC2086
		run -1 --separate-stderr "$t" -o /dev/null -Werror="$cls" $opt "$f"
		[[ $stderr == *"[-Werror=$cls]"* ]] || fail "$c -Werror: $stderr"
	done
}

# N games without a Round tag: a warning of class missing-round each.
many() {
	local i
	for ((i = 1; i <= $1; i++)); do
		printf '[Event "e"]\n[Site "s"]\n[Date "2024.01.01"]\n[White "w%d"]\n' "$i"
		printf '[Black "b"]\n[Result "*"]\n\n1. e4 e5 *\n\n'
	done
}

@test "warn-classes 18: a class that repeats is shown 5 times, then counted; --all-warnings shows every one" {
	many 300 >"$T/m.pgn"
	{ echo junk; cat "$T/m.pgn"; } >"$T/j.pgn"
	run -0 --separate-stderr zhcheck "$T/j.pgn"
	[ "$(grep -c '\[-Wmissing-round\]$' <<<"$stderr")" = 5 ]
	assert_equal "${stderr_lines[-2]}" "zhcheck: and 295 more [-Wmissing-round] (the first 5 shown; --all-warnings shows every one)"
	# by class, in the order of zhkit(7)'s table
	assert_equal "${stderr_lines[-1]}" "zhcheck: checked 300 games: 300 valid, 0 invalid (301 warnings: 300 missing-round, 1 text-between-games)"
	# byte-identical for any -j
	local one
	one=$(zhcheck -j 1 "$T/j.pgn" 2>&1)
	for j in 2 3; do
		assert_equal "$(zhcheck -j "$j" "$T/j.pgn" 2>&1)" "$one"
	done
	run -0 --separate-stderr zhcheck --all-warnings -j 2 "$T/j.pgn"
	[ "$(grep -c '\[-Wmissing-round\]$' <<<"$stderr")" = 300 ]
	[[ $stderr != *"more [-W"* ]]
	# the JSON report keeps every one
	run -0 --separate-stderr zhcheck -q --json -j 2 "$T/j.pgn"
	[ "$(jq -s '[.[].errors[] | select(.code == "missing-round")] | length' <<<"$output")" = 300 ]
	# and --stats records them by class
	run -0 --separate-stderr zhcheck -q --stats "$T/st.json" -j 2 "$T/j.pgn"
	[ "$(jq -c .warnings "$T/st.json")" = '{"missing-round":300,"text-between-games":1}' ]
	# errors are never held back
	run -1 --separate-stderr zhcheck -Werror=missing-round "$T/m.pgn"
	[ "$(grep -c '\[-Werror=missing-round\]$' <<<"$stderr")" = 300 ]
	# zhpgn and zhreplay too
	for t in zhpgn zhreplay; do
		for ((i = 0; i < 8; i++)); do printf 'junk %d\n\n' "$i"; cat "$TESTDATA/zhpgn/setup.pgn"; done >"$T/s.pgn"
		run -0 --separate-stderr "$t" -o /dev/null "$T/s.pgn"
		[ "$(grep -c '\[-Wtext-between-games\]$' <<<"$stderr")" = 5 ] || fail "$t: $stderr"
		[[ $stderr == *"and 3 more [-Wtext-between-games]"* ]] || fail "$t: $stderr"
		[[ ${stderr_lines[-1]} == *"(8 warnings: 8 text-between-games)" ]] || fail "$t: $stderr"
		assert_equal "$("$t" -j 2 -o /dev/null "$T/s.pgn" 2>&1)" "$("$t" -o /dev/null "$T/s.pgn" 2>&1)"
	done
}

@test "warn-classes 20: zhfen on a PGN: one line saying what it is and what to run, its errors counted, not each said" {
	local f=$TESTDATA/zhpgn/setup.pgn
	run -1 --separate-stderr zhfen "$f"
	assert_equal "${#stderr_lines[@]}" 3
	assert_equal "${stderr_lines[0]}" "zhfen: $f: note: it looks like PGN (a tag pair or moves), not FEN positions one a line: try zhcheck $f to check its games, zhpgn --json --fens $f for the position after every move"
	local n
	n=$(grep -cv '^[[:space:]]*$' "$f")
	assert_equal "${stderr_lines[1]}" "zhfen: $f: $n errors not shown (not FEN)"
	assert_equal "${stderr_lines[2]}" "zhfen: checked $n positions: 0 valid, $n invalid"
	# JSON Lines of games, and a FEN file is still read as ever
	run -1 --separate-stderr zhfen <(zhpgn --json "$f" 2>/dev/null)
	[[ ${stderr_lines[0]} == *": note: it looks like JSON Lines (zhpgn --json), not FEN positions: try zhpgn --json --fens "* ]] || fail "$stderr"
	printf 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nnot a fen\n' >"$T/p.fen"
	run -1 --separate-stderr zhfen "$T/p.fen"
	[[ $stderr != *note:* ]] || fail "$stderr"
	[[ ${stderr_lines[0]} == "zhfen: $T/p.fen:2:"*": error: "* ]] || fail "$stderr"
}

@test "warn-classes 20: FEN lines given to zhcheck, zhpgn, zhreplay: a hint to --fen or zhfen, for any -j" {
	printf 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1\n8/8/8/8/8/8/8/K6k w - - 0 1\n' >"$T/p.fen"
	for j in 1 2; do
		run -1 --separate-stderr zhcheck -j "$j" "$T/p.fen"
		[[ $stderr == *"zhcheck: $T/p.fen: note: it looks like FEN positions, one a line, not PGN: try zhcheck --fen $T/p.fen"* ]] || fail "$stderr"
		for t in zhpgn zhreplay; do
			run --separate-stderr "$t" -j "$j" "$T/p.fen"
			[[ $stderr == *"$t: $T/p.fen: note: it looks like FEN positions, one a line, not PGN: try zhfen $T/p.fen"* ]] || fail "$t: $stderr"
		done
	done
	# and what it says works
	run -0 --separate-stderr zhcheck --fen "$T/p.fen"
	# a PGN with text before its games is no FEN file: no hint
	{ echo 'Downloaded from example.org'; cat "$TESTDATA/zhpgn/setup.pgn"; } >"$T/t.pgn"
	run -0 --separate-stderr zhpgn "$T/t.pgn"
	[[ $stderr != *note:* ]] || fail "$stderr"
}

@test "warn-classes 20: JSON printed by jq without -c: a hint to jq -c, in every tool that reads JSON Lines" {
	zhpgn --json "$TESTDATA/zhpgn/setup.pgn" 2>/dev/null | jq . >"$T/pretty.json"
	for t in zhcheck zhpgn zhreplay; do
		for j in 1 2; do
			run -1 --separate-stderr "$t" -j "$j" "$T/pretty.json"
			[[ ${stderr_lines[0]} == "$t: $T/pretty.json: note: it looks like JSON printed over many lines (jq without -c), not JSON Lines (one object a line): try jq -c . $T/pretty.json | $t" ]] ||
			    fail "$t -j $j: $stderr"
		done
		# what it says works
		run -0 --separate-stderr bash -c "jq -c . '$T/pretty.json' | $t >/dev/null"
	done
}
