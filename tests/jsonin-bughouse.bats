#!/usr/bin/env bats
# Bughouse games read back from zhpgn --json (issue 39 item 13): the PGN
# written from the JSON Lines is the PGN written from the game, byte for
# byte, in every dialect; a game with an illegal move or drop stays
# invalid with the same error; chess.com's board files keep their
# [%clk] comments, so --merge-boards from JSON Lines merges them with
# their clocks, as from the PGN.

bats_require_minimum_version 1.5.0
load common

setup() {
	T=$BATS_TEST_TMPDIR
	FILES=("$TESTDATA"/bughouse/*/*.bpgn "$TESTDATA"/bughouse/*.bpgn
	    "$TESTDATA"/bughouse/merge/*.pgn)
	for d in "${ZH_CORPUS-}" "$ZH_TOP/../shared/corpus" "$ZH_TOP/../../shared/corpus"; do
		if [ -n "$d" ] && [ -d "$d/bpgn" ]; then
			FILES+=("$d"/bpgn/*.bpgn)
			break
		fi
	done
}

@test "bughouse read-back: PGN -> JSON -> PGN is the direct conversion, byte for byte, in every dialect" {
	local f d n=0
	for f in "${FILES[@]}"; do
		zhpgn -q --json "$f" >"$T/j" 2>/dev/null || true
		for d in auto lichess xboard chesscom fairy; do
			zhpgn -q --to "$d" "$f" >"$T/direct" 2>/dev/null || true
			zhpgn -q --to "$d" "$T/j" >"$T/back" 2>/dev/null || true
			if ! cmp -s "$T/direct" "$T/back"; then
				echo "differs: $f --to $d"
				diff "$T/direct" "$T/back" | head -6
				return 1
			fi
			n=$((n + 1))
		done
		# comment spacing: the first comment as written ("{C: ...}")
		if zhpgn -q "$f" 2>/dev/null | grep -q '^{C:'; then
			zhpgn -q "$T/j" | grep -q '^{C:'
		fi
	done
	[ "$n" -ge 100 ]
}

@test "bughouse read-back: a game with an illegal move or drop stays invalid with the same error" {
	local f
	for f in "$TESTDATA"/bughouse/broken/{drop-not-held,out-of-turn,wrong-board}.bpgn; do
		run zhpgn "$f" -o /dev/null
		[ "$status" -eq 1 ]
		# the messages without their place (the JSON line's is another)
		sed -n 's/^zhpgn: [^ ]* error: //p' <<<"$output" >"$T/direct"
		[ "$(wc -l <"$T/direct")" -eq 15 ]
		zhpgn -q --json "$f" >"$T/j" 2>/dev/null || true
		run zhpgn "$T/j" -o /dev/null
		[ "$status" -eq 1 ]
		assert_line "zhpgn: 15 games: 0 written, 15 rejected"
		sed -n 's/^zhpgn: [^ ]* error: //p' <<<"$output" >"$T/back"
		diff "$T/direct" "$T/back"
		# and the JSON of the read-back game says the same error
		zhpgn -q --json "$T/j" 2>/dev/null | jq -c '[.valid, .errors[0].code,
		    .errors[0].message, .errors[0].board, .errors[0].ply]' >"$T/jj" || true
		jq -c '[.valid, .errors[0].code, .errors[0].message,
		    .errors[0].board, .errors[0].ply]' "$T/j" | diff - "$T/jj"
	done
}

@test "bughouse read-back: chess.com board files keep [%clk], and --merge-boards from JSON Lines merges them with their clocks" {
	local f
	for f in "$TESTDATA"/bughouse/merge/*.pgn; do
		zhpgn -q --json "$f" >"$T/j" 2>/dev/null || true
		# every clock comment is there after the read-back
		[ "$(zhpgn -q "$f" 2>/dev/null | grep -o '%clk' | wc -l)" -eq \
		    "$(zhpgn -q "$T/j" 2>/dev/null | grep -o '%clk' | wc -l)" ]
		zhpgn -q --merge-boards "$f" >"$T/direct" 2>/dev/null || true
		zhpgn -q --merge-boards "$T/j" >"$T/back" 2>/dev/null || true
		diff "$T/direct" "$T/back"
	done
	# paired-ba.pgn: two boards, seven moves, each with its clock
	zhpgn -q --json "$TESTDATA/bughouse/merge/paired-ba.pgn" >"$T/j"
	[ "$(zhpgn -q "$T/j" | grep -o '%clk' | wc -l)" -eq 7 ]
	# the merged game has its clocks: the BPGN's seconds after each move
	zhpgn -q --merge-boards "$T/j" >"$T/m"
	grep -q '^1A\. Nf3 {179} 1B\. e4 {179} 1b\. d5 {178}' "$T/m"
}

@test "bughouse read-back: Latin-1 text and comment spacing come back as written (one board and two)" {
	# an old FICS archive's Latin-1 names and comments, comments with
	# blanks of their own, a NAG
	printf '[Event "FICS rated bughouse match"]\n[Site "freechess.org"]\n[Date "2002.01.11"]\n[WhiteA "Andr\xe9"][BlackA "M\xfcller"][WhiteB "c"][BlackB "d"]\n[Result "*"]\n\n{C:  caf\xe9  } 1A. e4 {179} {  na\xefve} 1a. e5 {178} $1 {x} 1B. d4 {177} *\n' >"$T/l.bpgn"
	printf '[Event "x"]\n[White "Andr\xe9"]\n[Variant "Crazyhouse"]\n[Result "*"]\n\n{ caf\xe9} 1. e4 {na\xefve  } *\n' >"$T/l.pgn"
	for f in "$T/l.bpgn" "$T/l.pgn"; do
		zhpgn -q "$f" >"$T/direct"
		grep -q "$(printf 'Andr\xe9')" "$T/direct"
		zhpgn -q --json "$f" >"$T/j"
		# the JSON is UTF-8 and says the game was Latin-1
		jq -e '.latin1 == true and ((.tags.White // .tags.WhiteA) == "André")' "$T/j"
		zhpgn -q "$T/j" | cmp - "$T/direct"
		# and JSON -> JSON is the same line
		zhpgn -q --json "$T/j" | jq -c 'del(.file)' >"$T/jj"
		jq -c 'del(.file)' "$T/j" | cmp - "$T/jj"
	done
	# a game of UTF-8 text has no "latin1"
	iconv -f latin1 -t utf-8 "$T/l.bpgn" >"$T/u.bpgn"
	run bash -c "zhpgn -q --json '$T/u.bpgn' | jq -c '.latin1'"
	assert_output null
	zhpgn -q --json "$T/u.bpgn" | zhpgn -q | cmp - <(zhpgn -q "$T/u.bpgn")
}
