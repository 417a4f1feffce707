#!/usr/bin/env bats
# Bughouse, issue 32: a promoted piece of a FEN tag demoted on capture,
# [%...] commands broken over lines, boards and back byte for byte,
# one-board games through JSON, --merge-boards pairing only one game's
# boards, one clock precision on --to chesscom, zhreplay's seats.
# The rules are those of ../shared/spec/bughouse.md (FICS, chess.com:
# a captured promoted piece goes over as a pawn).

bats_require_minimum_version 1.5.0
load common

setup() {
	B=$TESTDATA/bughouse
	cd "$BATS_TEST_TMPDIR" || return 1
}

# A two-board game from a FEN tag whose board A has a promoted queen
# (3Q~4 on the sixth rank), then the moves given.
prom_game() {
	cat <<EOG
[Event "promoted from a FEN tag"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[WhiteA "wa"]
[BlackA "ba"]
[WhiteB "wb"]
[BlackB "bb"]
[Result "*"]
[Variant "Bughouse"]
[SetUp "1"]
[FEN "rnbqkbnr/pppppppp/3Q~4/8/8/8/PPPPPPPP/RNB1KBNR[] b KQkq - 0 1 | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"]

$1 *
EOG
}

@test "bughouse: a promoted queen of the FEN tag, taken, goes to the partner as a pawn" {
	prom_game '1a. exd6 1B. P@e3' > p.bpgn
	run -0 --separate-stderr zhcheck p.bpgn
	prom_game '1a. exd6 1B. Q@d3' > q.bpgn
	run -1 --separate-stderr zhcheck q.bpgn
	[[ $stderr == *"no queen in White's holdings (holdings: P)"* ]]
	# the same with the lichess '/' holdings and on board B's FEN
	sed 's/\[\] b KQkq/\/ b KQkq/; s/\[\] w KQkq/\/ w KQkq/' p.bpgn > p2.bpgn
	run -0 --separate-stderr zhcheck p2.bpgn
}

@test "bughouse: a promoted piece of board B's FEN, taken, goes to board A as a pawn" {
	cat > b.bpgn <<'EOG'
[Event "promoted on B"]
[WhiteA "wa"]
[BlackA "ba"]
[WhiteB "wb"]
[BlackB "bb"]
[Result "*"]
[Variant "Bughouse"]
[SetUp "1"]
[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1 | rnbqkbnr/pppp1ppp/8/8/8/4n~3/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"]

1B. dxe3 1A. e4 1a. P@e5 *
EOG
	run -0 --separate-stderr zhcheck b.bpgn
	sed 's/P@e5/N@e5/' b.bpgn > n.bpgn
	run -1 --separate-stderr zhcheck n.bpgn
	[[ $stderr == *"no knight in Black's holdings (holdings: P)"* ]]
}

@test "crazyhouse: a promoted queen of the FEN tag, taken, is still held as a pawn" {
	cat > z.pgn <<'EOG'
[Event "promoted from a FEN tag"]
[Variant "Crazyhouse"]
[SetUp "1"]
[FEN "rnbqkbnr/pppppppp/3Q~4/8/8/8/PPPPPPPP/RNB1KBNR[] b KQkq - 0 1"]
[Result "*"]

1... exd6 2. Nf3 P@e3 *
EOG
	run -0 --separate-stderr zhcheck z.pgn
	sed 's/P@e3/Q@e3/' z.pgn > zq.pgn
	run -1 --separate-stderr zhcheck zq.pgn
}

@test "bughouse: a [%clk] broken over a line is a clock (chess.com wraps them)" {
	f=$B/gen/chesscom.bpgn
	# the file has wrapped clocks, one [%clk] a half-move
	[ "$(grep -c '{\[%clk$' "$f")" -gt 100 ]
	want=$(grep -o '%clk' "$f" | wc -l)
	run -0 --separate-stderr zhpgn --json "$f"
	[ "$(jq -s '[.[].moves[]|select(.clock != null)]|length' <<<"$output")" = "$want" ]
	# game 1's "11B. Ng6 {[%clk" / "0:04:48.1]}" is 288.1 s
	[ "$(jq -s '.[0].moves[]|select(.label == "11B")|.clock' <<<"$output")" = 288.1 ]
	run -0 --separate-stderr zhcheck "$f"
	[ "${stderr_lines[-1]}" = "zhcheck: checked 300 games: 300 valid, 0 invalid (0 warnings)" ]
}

@test "one board: a [%...] command may hold line breaks and runs of blanks" {
	printf '[Event "a"]\n[Result "*"]\n\n1. e4 {[%%clk\n0:01:41.6]} e5 {[%%clk   0:01:40.1\r\n]} 2. Nf3 {\n[%%clk\t0:01:39]} {[%%eval\n  0.25  ]} *\n' > c.pgn
	run -0 --separate-stderr zhpgn --json c.pgn
	[ "$(jq -c '[.moves[]|[.clock,.cp]]' <<<"$output")" = '[[101.6,null],[100.1,null],[99,25]]' ]
	run -0 --separate-stderr zhreplay -F jsonl c.pgn
	[ "$(jq -sc 'map([.clock,.cp])' <<<"$output")" = '[[null,null],[101.6,null],[100.1,null],[99,25]]' ]
	# and a bughouse game's bare board: the clocks go with the moves
	printf '[Event "b"]\n[WhiteA "a"]\n[BlackA "b"]\n[WhiteB "c"]\n[BlackB "d"]\n[Result "*"]\n[Variant "Bughouse"]\n\n1A. e4 {[%%clk\n0:01:41.6]} 1a. e5 {\n[%%clk 0:01:40]\n} *\n' > b.bpgn
	run -0 --separate-stderr zhpgn --json b.bpgn
	[ "$(jq -c '[.moves[]|.clock]' <<<"$output")" = '[101.6,100]' ]
}

@test "bughouse-merge: a game without a Board tag is not merged with the [Board \"A\"] game after it" {
	zhpgn -q --boards "$B/real/1934301.bpgn" > ab.pgn
	{ printf '[Event "a stranger"]\n[White "x"]\n[Black "y"]\n[Variant "Bughouse"]\n[Result "*"]\n\n1. e4 e5 *\n\n'; cat ab.pgn; } > s.pgn
	run --separate-stderr zhpgn --merge-boards s.pgn
	[ "$status" -eq 1 ]
	[[ $stderr == *"s.pgn:1:1: error: game 1: the game after it is not its partner board"* ]]
	# the real boards A and B still merge, to the game they came from
	[ "$(grep -c '^\[WhiteA ' <<<"$output")" -eq 1 ]
	grep -q '^\[WhiteA "BobBughouse"\]\|^\[WhiteA "' <<<"$output"
	run -0 --separate-stderr zhpgn --merge-boards ab.pgn
	want=$output
	run --separate-stderr zhpgn --merge-boards s.pgn
	[ "$output" = "$want" ]
}

@test "bughouse-merge: the merged game is read back under --limit (10^5 half-moves)" {
	python3 - <<'EOP'
out = []
for i in range(25000):
    w, b = ("Nf3", "Nf6") if i % 2 == 0 else ("Ng1", "Ng8")
    out.append(f"{i+1}A. {w} {i+1}a. {b} {i+1}B. {w} {i+1}b. {b}")
head = ('[Event "long"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n'
        '[WhiteA "a"]\n[BlackA "b"]\n[WhiteB "c"]\n[BlackB "d"]\n'
        '[Result "*"]\n[Variant "Bughouse"]\n\n')
open("long.bpgn", "w").write(head + " ".join(out) + " *\n")
EOP
	run -0 --separate-stderr zhpgn --boards --limit plies=200000 -o long.pgn long.bpgn
	run -0 --separate-stderr zhpgn --merge-boards --limit plies=200000 -o m.bpgn long.pgn
	[[ $stderr == *"1 written, 0 rejected"* ]]
	# the same 100,000 half-moves in the same order
	moves() { tr '\n' ' ' < "$1" | grep -o '[0-9]*[AaBb]\. N[a-h][0-9]'; }
	[ "$(moves m.bpgn | wc -l)" -eq 100000 ]
	moves long.bpgn | diff -q - <(moves m.bpgn)
}

@test "bughouse: one-board games from --boards survive JSON (PGN -> --json -> PGN)" {
	for f in "$B"/real/*.bpgn; do
		zhpgn -q --boards "$f" > b.pgn
		run -0 --separate-stderr zhpgn --json b.pgn
		printf '%s\n' "$output" > b.json
		# a board's moves are numbered: no BPGN label to read back;
		# no holding below zero
		[ "$(jq -s '[.[].moves[]|select(has("label"))]|length' b.json)" = 0 ]
		[ "$(jq -s '[.. | numbers | select(. > 64)] | length' <(jq -c '[.moves[].pockets]' b.json))" = 0 ]
		run -0 --separate-stderr zhpgn b.json
		[[ $stderr == *"2 written, 0 rejected"* ]]
		printf '%s\n' "$output" > back.pgn
		run -0 --separate-stderr zhpgn --json back.pgn
		[ "$(jq -sc 'map([.moves[]|[.san,.uci,.clock]])' <<<"$output")" = \
		    "$(jq -sc 'map([.moves[]|[.san,.uci,.clock]])' b.json)" ]
	done
}

@test "bughouse: --to chesscom writes a game's clocks in one precision, the source's" {
	# digits after the point of each game's [%clk]s: one count a game
	digits() { awk '/^\[Event /{g++} {while (match($0, /\[%clk [0-9:]*(\.[0-9]*)?\]/)) {s=substr($0, RSTART, RLENGTH); f=index(s, "."); d=f ? length(s)-f-1 : 0; print g, d; $0=substr($0, RSTART+RLENGTH)}}' "$1" | sort -u; }
	zhpgn -q -t chesscom "$B/real/1934660.bpgn" > c.bpgn
	# FICS clocks in milliseconds ({59.9} among {58.639}): all .sss
	[ "$(digits c.bpgn)" = "1 3" ]
	grep -q '1a. Nf6 {\[%clk 0:00:59.900\]}' c.bpgn
	for f in "$B"/real/*.bpgn "$B"/hand/*.bpgn "$B"/gen/bughousedb.bpgn; do
		zhpgn -q -t chesscom "$f" > c.bpgn
		[ "$(digits c.bpgn | awk '{print $1}' | uniq -d)" = "" ]
	done
	# chess.com's own tenths stay tenths
	zhpgn -q -t chesscom "$B/gen/chesscom.bpgn" > c.bpgn
	[ "$(digits c.bpgn | awk '{print $2}' | sort -u)" = 1 ]
}

@test "zhreplay -F board: board B turned (partners side by side), and '23B. B@g7#' with its space" {
	run -0 --separate-stderr zhreplay -F board --color never "$B/real/1934301.bpgn"
	last=$(tail -n 13 <<<"$output")
	grep -q '^game 1, half-move 110: 23B\. B@g7#, board B$' <<<"$last"
	# board A: rank 8 on top, files a-h; board B turned: rank 1 on top,
	# files h-a, White's holdings beside the top, Black's at the bottom
	line=$(sed -n 3p <<<"$last")
	[ "$line" = " 8 | .  .  Q~ n !k! .  .  r |  > black in hand: p     1 | R  .  .  K  .  B  N  R |    white in hand: P B B" ]
	line=$(sed -n 10p <<<"$last")
	[ "$line" = " 1 | .  .  .  .  K  .  .  R |    white in hand: N     8 | r  .  .  .  .  .  .  r |  > black in hand: p p p p n b b b r q" ]
	line=$(sed -n 12p <<<"$last")
	[[ $line == *"a  b  c  d  e  f  g  h"*"h  g  f  e  d  c  b  a" ]]
	# board B's rank 6 from h to a (the FEN's p5pk turned): the mated
	# king on h6 first
	line=$(sed -n 8p <<<"$last")
	[[ $line == *" 6 |!k! p  .  .  .  .  .  p |" ]]
}
