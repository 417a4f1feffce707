#!/usr/bin/env bats
# The independent perft reference (tests/ref) and the counts it agreed on
# with Fairy-Stockfish (testdata/perft/independent.perft).
load common

REF="$BATS_TEST_DIRNAME/ref"

@test "refperft: published crazyhouse, grand and chess counts" {
	run python3 "$REF/refperft.py" crazyhouse startpos 3
	assert_output 8902
	run python3 "$REF/refperft.py" crazyhouse '2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1' 2
	assert_output 3083
	run python3 "$REF/refperft.py" grand '10/4k5/6P3/10/10/10/10/10/1p2K5/10 w - - 0 1' 3
	assert_output 2446
	run python3 "$REF/refperft.py" chess 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -' 2
	assert_output 2039
}

@test "refperft: --divide lists UCI moves with ranks up to 10" {
	run python3 "$REF/refperft.py" --divide grand '10/4k5/6P3/10/10/10/10/10/1p2K5/10 w - - 0 1' 1
	assert_line 'g8g9q 1'
	assert_line 'g8g9 1'
	assert_line 'total 15'
}

@test "independent.perft: the reference reproduces the small counts" {
	run python3 "$REF/check_corpus.py" --max-nodes 20000 "$TESTDATA/perft/independent.perft"
	assert_success
	assert_output --partial ' 0 failed'
}

@test "independent.perft: Fairy-Stockfish reproduces the counts" {
	[ -x /usr/games/fairy-stockfish ] || skip "fairy-stockfish not installed"
	run python3 "$REF/check_corpus.py" --fs --max-nodes 2000000 "$TESTDATA/perft/independent.perft"
	assert_success
	assert_output --partial ' 0 failed'
}
