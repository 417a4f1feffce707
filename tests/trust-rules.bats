#!/usr/bin/env bats
# Trust at the edges (issue #22), the rules side: deep variations walked
# without the C stack, variants zhkit does not play refused by name,
# impossible material caught by --strict, and the smaller edges of zhfen,
# zhcheck --fen, zhreplay's EPD, zhperft's suites, zh.h and the pages.

bats_require_minimum_version 1.5.0
load common

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

# deep N: a game whose first move has a variation, which has one, ... N
# deep, each the same move 1. e4 again; the innermost holds 'Ke2', which
# is illegal there (the e-pawn has not moved).
deep() {
	awk -v n="$1" 'BEGIN {
		printf "[Event \"deep\"]\n\n1. e4 "
		for (i = 0; i < n; i++) printf "( e4 "
		printf "Ke2 "
		for (i = 0; i < n; i++) printf ") "
		printf "e5 *\n"
	}' >deep.pgn
}

# The depth of the deep game: 100000, the top of --limit depth (a tenth
# of it in valgrind, which is slow, but still past the old crash at ~5300).
DEPTH=100000
[ -n "${VALGRIND-}" ] && DEPTH=10000

# repeat N S: S N times.
repeat() {
	awk -v n="$1" -v s="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", s }'
}

# The warning every PGN tool gives for the innermost move of deep.pgn.
deepmsg() {
	echo "deep.pgn:3:$((7 + 5 * DEPTH)): warning: game 1, ply 2$1 illegal move 'Ke2': no king of Black can move to e2"
}

@test "rules: 0: a variation $DEPTH deep: zhcheck walks it, -j 1 and -j 2, to the innermost illegal move" {
	deep "$DEPTH"
	for j in 1 2; do
		run --separate-stderr zhcheck -j "$j" --limit depth="$DEPTH" deep.pgn
		assert_success
		assert_equal "${stderr_lines[1]}" "zhcheck: $(deepmsg ': in a variation:')"
		assert_equal "${stderr_lines[2]}" "zhcheck: checked 1 game: 1 valid, 0 invalid (2 warnings)"
		run --separate-stderr zhcheck --json -j "$j" --limit depth="$DEPTH" deep.pgn
		assert_success
		assert_output --partial '"valid":true'
	done
}

@test "rules: 0: a variation $DEPTH deep: zhpgn writes it whole as PGN and as JSON, -j 1 and -j 2" {
	deep "$DEPTH"
	for j in 1 2; do
		zhpgn -j "$j" --limit depth="$DEPTH" deep.pgn >out.pgn 2>err
		grep -qF "zhpgn: $(deepmsg ", in a variation:"); the variation is kept as written" err
		assert_equal "$(grep -o '(1\. e4' out.pgn | wc -l)" "$DEPTH"
		assert_equal "$(grep -o ')' out.pgn | wc -l)" "$DEPTH"
		assert_equal "$(tr -d ' \n' <out.pgn | sed 's/.*Ke2//' | cksum)" \
		    "$({ repeat "$DEPTH" ')'; printf '1...e5*'; } | cksum)"
		for fens in "" --fens; do
			zhpgn --json $fens -j "$j" --limit depth="$DEPTH" deep.pgn >out.json
			assert_equal "$(grep -o '"variations":\[\[' out.json | wc -l)" "$DEPTH"
			assert_equal "$(grep -o '\[' out.json | wc -l)" "$(grep -o '\]' out.json | wc -l)"
			assert_equal "$(sed 's/.*"Ke2","uci":null}//; s/,"fen":"[^"]*"//g; s/,"result".*//' out.json | cksum)" \
			    "$({ repeat "$DEPTH" ']]}'; echo ',{"san":"e5","uci":"e7e5"}]'; } | cksum)"
		done
	done
}

@test "rules: 0: a variation $DEPTH deep: zhreplay replays it, -j 1 and -j 2" {
	deep "$DEPTH"
	for j in 1 2; do
		for f in fen jsonl; do
			run --separate-stderr zhreplay -f "$f" -j "$j" --limit depth="$DEPTH" deep.pgn
			assert_success
			assert_equal "${#lines[@]}" 3
		done
	done
}
