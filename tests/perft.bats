#!/usr/bin/env bats
# zhperft against published perft suites (testdata/perft/PROVENANCE.md).
# The quick run caps each count at a node budget; `make check-slow`
# (ZH_SLOW=1) runs every depth.

load common

budget() { if [ -n "${ZH_SLOW-}" ]; then echo 0; else echo "${1:-3000000}"; fi; }

suite() {	# suite FILE [VARIANT] [BUDGET]
	local v=${2:-crazyhouse}
	run zhperft -v "$v" --max-nodes "$(budget "${3-}")" --suite "$TESTDATA/perft/$1"
	[ "$status" -eq 0 ] || echo "$output" | grep -v '^ok' >&2
	assert_success
	refute_output --partial FAIL
}

@test "perft: Fairy-Stockfish suite (crazyhouse, loop, chessgi, grand, chess)" { suite fairy-stockfish.perft; }
@test "perft: Cute Chess suite (chessgi follows DESIGN.md: no 1st-rank double step)" { suite cutechess.perft; }
@test "perft: python-chess crazyhouse suite" { suite python-chess-crazyhouse.perft; }
@test "perft: scalachess crazyhouse suite" { suite scalachess-crazyhouse.perft; }
@test "perft: ddugovic Stockfish crazyhouse start depth 5" { suite ddugovic-crazyhouse-startpos.perft crazyhouse 0; }
@test "perft: python-chess tricky (chess)" { suite python-chess-tricky.perft chess; }
@test "perft: shakmaty tricky (chess)" { suite shakmaty-tricky.perft chess; }
@test "perft: python-chess random positions (chess)" { suite python-chess-random.perft chess 20000; }
@test "perft: Fairy-Stockfish counts of 1,938 random mid-game positions (six variants)" { suite fs-random.perft crazyhouse 2000000; }
@test "perft: one bughouse board, Fairy-Stockfish's counts of 60 positions of the generated games" { suite fs-bughouse.perft bughouse 2000000; }

@test "perft: chessgi2 is 32816 at depth 2, the FS count, not Cute Chess's 33032" {
	run zhperft -v chessgi --fen '5Rp1/2p1Nb2/2B4k/6p1/8/P3PP2/1PPqR3/3R1BKn[QBNPPPPrrrnpp] b - - 1 48' 2
	assert_output 32816
}

@test "perft: scalachess move order lists = our board moves" {
	local fen want got
	while IFS= read -r fen && IFS= read -r want; do
		read -r _ || true
		got=$(zhperft -d --fen "$fen" 1 | grep -v '@' | grep -v '^total' | cut -d' ' -f1 | sort)
		# scalachess lists castling twice: as the king's two-square move
		# (e8g8, which we write) and as "king takes rook" (e8h8).
		want=$(printf '%s\n' $want | tr -d '#' | grep -vE '^(e1h1|e1a1|e8h8|e8a8)$' | sort)
		[ "$got" = "$want" ] || { echo "$fen"; diff <(echo "$want") <(echo "$got"); return 1; }
	done < "$TESTDATA/perft/scalachess-moveorder-crazyhouse.txt"
}

@test "perft: ffish legal moves of a lichess-pocket position (90 moves)" {
	run zhperft -d --fen 'r1b3nr/pppp1kpp/2n5/2b1p3/4P3/2N5/PPPP1PPP/R1B1K1NR/QPbq w KQ - 0 7' 1
	assert_success
	local want='a2a3 b2b3 d2d3 f2f3 g2g3 h2h3 a2a4 b2b4 d2d4 f2f4 g2g4 h2h4 c3b1 c3d1 c3e2 c3a4 c3b5 c3d5 g1e2 g1f3 g1h3 a1b1 P@e2 P@a3 P@b3 P@d3 P@e3 P@f3 P@g3 P@h3 P@a4 P@b4 P@c4 P@d4 P@f4 P@g4 P@h4 P@a5 P@b5 P@d5 P@f5 P@g5 P@h5 P@a6 P@b6 P@d6 P@e6 P@f6 P@g6 P@h6 P@e7 Q@b1 Q@d1 Q@f1 Q@e2 Q@a3 Q@b3 Q@d3 Q@e3 Q@f3 Q@g3 Q@h3 Q@a4 Q@b4 Q@c4 Q@d4 Q@f4 Q@g4 Q@h4 Q@a5 Q@b5 Q@d5 Q@f5 Q@g5 Q@h5 Q@a6 Q@b6 Q@d6 Q@e6 Q@f6 Q@g6 Q@h6 Q@e7 Q@b8 Q@d8 Q@e8 Q@f8 e1d1 e1f1 e1e2'
	[ "$(echo "$output" | grep -v '^total' | cut -d' ' -f1 | sort)" = "$(printf '%s\n' $want | sort)" ]
	assert_line 'total 90'
}

@test "perft: start positions of every variant" {
	run zhperft -v crazyhouse 4;  assert_output 197281
	run zhperft -v loop 4;        assert_output 197281
	run zhperft -v chessgi 4;     assert_output 197281
	run zhperft -v chess 4;       assert_output 197281
	run zhperft -v grand 3;       assert_output 259514
}

@test "perft: --divide lists UCI moves with ranks 1..10 on 10x10" {
	run zhperft -v grand -d 1
	assert_success
	assert_line 'a3a5 1'
	assert_line 'total 65'
	run zhperft -d --fen '4k3/1P6/8/8/8/8/8/4K3[N] w - - 0 1' 1
	assert_line 'b7b8q 1'
	assert_line 'N@a1 1'
}

@test "perft: bad input is a one-line error and exit status 2" {
	run zhperft -- -1;                 assert_failure 2
	run zhperft 99999999999;           assert_failure 2
	assert_output --partial 'DEPTH'
	run zhperft -v nosuch 1;           assert_failure 2
	assert_output --partial "unknown variant 'nosuch'"
	run zhperft --fen 'rnbqkbnr/pppppppp/8/8 w' 1;  assert_failure 2
	assert_output --partial 'zhperft: --fen:1:'
	run zhperft --fen 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[K] w - - 0 1' 1
	assert_failure 2
	assert_output "zhperft: --fen:1:45: error: pocket: 'K' is not allowed in a pocket"$'\n'"Try 'zhperft --help' for more information."
	run zhperft;                       assert_failure 2
	run zhperft --suite /nonexistent;       assert_failure 2
}
