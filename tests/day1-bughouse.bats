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
