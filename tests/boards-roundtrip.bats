#!/usr/bin/env bats
# Bughouse boards and back (issue 32 item 7): zhpgn --boards then
# zhpgn --merge-boards gives back what zhpgn writes of the BPGN itself,
# byte for byte: tags in order, comments, NAGs, clocks in their form,
# the result convention.

bats_require_minimum_version 1.5.0
load common

setup() {
	B=$TESTDATA/bughouse
	cd "$BATS_TEST_TMPDIR" || exit 1
}

# The BPGN through its boards and back, with dialect options "$@".
round_trip() {
	local f=$1
	shift
	zhpgn -q "$@" --boards "$f" | zhpgn -q "$@" --merge-boards
}

@test "boards and back: every testdata BPGN, in every dialect, the same bytes as zhpgn writes it" {
	local f d n=0 games=0
	for f in $(find "$B" -name '*.bpgn' | sort); do
		for d in "" lichess xboard chesscom fairy; do
			zhpgn -q ${d:+-t $d} "$f" >want.bpgn || true
			round_trip "$f" ${d:+-t $d} >got.bpgn || true
			if ! cmp -s want.bpgn got.bpgn; then
				echo "# $f ${d:-(auto)}:"
				diff want.bpgn got.bpgn | head -20
				return 1
			fi
			# what zhcheck says of the two: the same
			zhcheck -q --json - <want.bpgn >want.json || true
			zhcheck -q --json - <got.bpgn >got.json || true
			cmp want.json got.json
			[ -s want.bpgn ] && n=$((n + 1))
			games=$((games + $(grep -c '^\[Event ' got.bpgn || true)))
		done
	done
	# not a comparison of empty outputs: 16 of the 20 files have games
	# (broken/ is rejected but for two), 300 in gen/ alone
	[ "$n" -ge 80 ]
	[ "$games" -ge 5000 ]
}

@test "boards and back: FICS game 1934660 keeps Time, Lag, its 0-1, its forfeit comment and its ending" {
	local f=$B/real/1934660.bpgn
	round_trip "$f" >m.bpgn
	# the tags of the source file, each as written there
	for t in Time Lag Result; do
		grep -o "\[$t \"[^\"]*\"\]" "$f" >want
		grep -o "^\[$t \"[^\"]*\"\]" m.bpgn >got
		diff want got
	done
	grep -q '^\[Result "0-1"\]' m.bpgn
	run grep -c Termination m.bpgn
	assert_output 0
	# the forfeit comment right before the result, as in the source
	[ "$(tr '\n' ' ' <m.bpgn | grep -o '{muggg forfeits on time} 0-1')" ]
	# the header comment too
	grep -q '{C: This is game number 1934660 at http://www.bughousedb.com}' m.bpgn
	# zhcheck: the same ending and convention (muggg, White on B, flagged:
	# the game says 0-1 from board B's point of view, FICS's)
	run -0 --separate-stderr zhcheck --json m.bpgn
	[ "$(jq -c '[.ending, .result, .result_convention]' <<<"$output")" = \
	    '[{"how":"time","board":"B","loser":"white"},"0-1","board"]' ]
}

@test "boards and back: board A's file carries the BPGN's tag order and the tags a board cannot say" {
	zhpgn -q --boards "$B/real/1934660.bpgn" >b.pgn
	# the source's tag names, in its order
	want=$(grep -o '\[[A-Za-z]* ' "$B/real/1934660.bpgn" | tr -d '[' |
	    tr '\n' ' ' | sed 's/ *$//; s/  */ /g')
	[ "$(grep -c '^\[BPGNTags ' b.pgn)" = 1 ]
	grep -qF "[BPGNTags \"$want\"]" b.pgn
	grep -q '^\[BPGNResult "0-1"\]' b.pgn
	grep -qF "[BPGNLag \"$(grep -o '\[Lag "[^"]*' "$B/real/1934660.bpgn" | cut -d'"' -f2)\"]" b.pgn
	# a board file read back as one board is written as it was
	zhpgn -q b.pgn >again.pgn
	cmp b.pgn again.pgn
}

@test "boards and back: NAGs, a result other than the Result tag's, comments after the result, repeated tags" {
	cat >g.bpgn <<'EOF'
[Event "e"]
[Annotator "x"]
[Annotator "y"]
[Termination "normal"]
[Round "3"]
[Result "1-0"]

{hi} 1A. e4 $2 {60} ; semi } colon
1B. d4 {59.5} {a note} 1a. e5 {[%clk 0:00:58] [%emt 2]} $1 1b. d5 {57} {end} * {after}
EOF
	zhpgn -q g.bpgn >want.bpgn
	# what zhpgn writes keeps all of it (else the test tells nothing)
	grep -qF 'e4 $2 {60} ; semi } colon' want.bpgn
	grep -qF 'e5 {[%clk 0:00:58] [%emt 2]} $1' want.bpgn
	tr '\n' ' ' <want.bpgn | grep -qF '{end} * {after}'
	grep -q '^\[Result "1-0"\]' want.bpgn
	[ "$(grep -c '^\[Annotator' want.bpgn)" = 2 ]
	for d in "" chesscom fairy; do
		round_trip g.bpgn ${d:+-t $d} >got.bpgn
		zhpgn -q ${d:+-t $d} g.bpgn | diff - got.bpgn
	done
}
