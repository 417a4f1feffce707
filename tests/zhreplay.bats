#!/usr/bin/env bats
# zhreplay: every position of every game.  Golden files in
# testdata/zhreplay were checked by hand against DESIGN.md's dialect
# table (regen.sh rewrites them; review the diff).

load common
bats_require_minimum_version 1.5.0

G="$BATS_TEST_DIRNAME/../testdata/zhreplay/games.pgn"
Z="$BATS_TEST_DIRNAME/../testdata/zhreplay"
P="$BATS_TEST_DIRNAME/../testdata/pgn"

golden() {	# golden FILE ARGS...: stdout of zhreplay ARGS equals FILE
	local want=$1; shift
	run --separate-stderr zhreplay "$@"
	[ "$output" = "$(cat "$Z/$want")" ] || { diff <(echo "$output") "$Z/$want"; return 1; }
}

@test "zhreplay: fen, lichess dialect (default): pockets after '/', '~', ep only when capturable" {
	golden games.lichess.fen "$G"
	assert_equal "$status" 1
	assert_equal "$(sed -n 12p "$Z/games.lichess.fen")" 'r1b1kb1r/Q~p2pppp/3n4/q7/8/8/PPPP1PPP/RNBQKBNR/PPPN b KQkq - 0 6'
	grep -qx 'rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR/ w KQkq d6 0 3' "$Z/games.lichess.fen"
}
@test "zhreplay: fen, xboard dialect: [-], ep after every double step" {
	golden games.xboard.fen -t xboard "$G"
	grep -qx 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\[-\] w KQkq - 0 1' "$Z/games.xboard.fen"
	grep -qx 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR\[-\] b KQkq e3 0 1' "$Z/games.xboard.fen"
}
@test "zhreplay: fen, fairy dialect: [] and QRBNP order" {
	golden games.fairy.fen -t fairy "$G"
	grep -qF 'RNBQKBNR[NPPP] b KQkq - 0 6' "$Z/games.fairy.fen"
}
@test "zhreplay: epd, chesscom dialect: pocket and promoted squares as fields" {
	golden games.chesscom.epd -F epd -t chesscom "$G"
	assert_equal "$(sed -n 12p "$Z/games.chesscom.epd")" 'r1b1kb1r/Qp2pppp/3n4/q7/8/8/PPPP1PPP/RNBQKBNR b KQkq - NPPP a7'
	assert_equal "$(sed -n 1p "$Z/games.chesscom.epd")" 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -'
}
@test "zhreplay: uci, one game per line" {
	golden games.uci -F uci "$G"
	assert_line --index 4 'e3e5 d8d6 e5d6 c9d8 P@e7 d8e7 d6e7'
}
@test "zhreplay: san in the lichess dialect (P@d5) and chesscom's (@d5)" {
	golden games.lichess.san -F san "$G"
	assert_line --index 1 'e4 Nf6 e5 d5 exd6 Qxd6 P@d5'
	golden games.chesscom.san -F san -t chesscom "$G"
	assert_line --index 1 'e4 Nf6 e5 d5 exd6 Qxd6 @d5'
}
@test "zhreplay: jsonl, with clock and eval from comments" {
	cd "$Z"		# "file" in the JSON is the name as given
	golden games.jsonl -F jsonl games.pgn
	assert_line --index 0 '{"file":"games.pgn","game":1,"index":1,"ply":0,"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1","move":null,"side":"white","pockets":{"white":{},"black":{}},"promoted":[],"in_check":false,"result":"*"}'
	echo "$output" | grep -qF '"move":{"uci":"e2e4","san":"e4"},"side":"black","pockets":{"white":{},"black":{}},"promoted":[],"in_check":false,"clock":60,"cp":30,"result":"1-0"}'
	echo "$output" | grep -qF '"mate":3'
	echo "$output" | grep -qF '"pockets":{"white":{"P":3},"black":{"P":1}},"promoted":[],"in_check":true'
}
@test "zhreplay: jsonl is valid JSON, one object per line (python3)" {
	command -v python3 >/dev/null || skip "no python3"
	zhreplay -F jsonl --variations "$G" 2>/dev/null | python3 -c 'import json,sys; [json.loads(l) for l in sys.stdin]'
}
@test "zhreplay: --variations: jsonl paths, fen blocks and uci lines from the start" {
	cd "$Z"
	golden games.variations.jsonl -F jsonl --variations games.pgn
	echo "$output" | grep -qF '"game":4,"index":4,"ply":4,"variation":"1.1"'
	golden games.variations.fen --variations "$G"
	golden games.variations.uci -F uci --variations "$G"
	assert_line --index 5 'e2e4 c7c5 d2d4 c5d4'
}
@test "zhreplay: --variations: a variation inside one before the first move ends (found by fuzz_game)" {
	# The outer variation has no move to replace, so neither it nor the
	# one inside has a line; the inside one once made the line sizes wrap
	# around and zhreplay loop for ever.
	printf '[Event "x"]\n[Variant "Crazyhouse"]\n\n( 1. d4 ( 1. c4 ) ) 1. e4 *\n' >"$BATS_TEST_TMPDIR/nested.pgn"
	run --separate-stderr timeout 10 zhreplay -F uci --variations "$BATS_TEST_TMPDIR/nested.pgn"
	assert_equal "$status" 1
	assert_output 'e2e4'
	assert_equal "$stderr" "zhreplay: $BATS_TEST_TMPDIR/nested.pgn:4:1: error: game 1, ply 0 (variation): a variation must follow a move
zhreplay: replayed 1 game: 1 with errors"
}

@test "zhreplay: --plies and --every choose positions" {
	golden games.plies.fen -p 2-6 -e 2 "$G"
	run zhreplay -F jsonl -p 3 "$P/python-chess-saturs-jannlee-zh.pgn"
	assert_success
	assert_output --partial '"ply":3,'
	[ "${#lines[@]}" -eq 1 ]
	run zhreplay -p 7- --start-only "$P/python-chess-saturs-jannlee-zh.pgn"
	assert_output 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1'
}
@test "zhreplay: board diagrams, ASCII and Unicode" {
	LC_ALL=C golden games.board -F board --color never -p 12-13 "$G"
	locale -a 2>/dev/null | grep -qi '^c.utf-\?8$' || skip "no C.UTF-8 locale"
	LC_ALL=C.UTF-8 golden games.utf8.board -F board --color never --final-only "$G"
}
@test "zhreplay: board colour only when asked or on a terminal" {
	run zhreplay -F board --final-only "$P/python-chess-saturs-jannlee-zh.pgn"
	refute_output --partial $'\033['
	run zhreplay -F board --color always --final-only "$P/python-chess-saturs-jannlee-zh.pgn"
	assert_output --partial $'\033['
}
@test "zhreplay: an illegal move: positions up to it, FILE:LINE:COL, next game follows, exit 1" {
	run --separate-stderr zhreplay "$G"
	assert_equal "$status" 1
	assert_equal "$stderr" "$(sed "s|games.pgn|$G|" "$Z/games.err")"
	assert_equal "$(echo "$stderr" | head -1)" "zhreplay: $G:18:13: error: game 3, ply 3: illegal move 'Ke3': no king of White can move to e3"
	run --separate-stderr zhreplay -q -F uci "$G"
	assert_line --index 2 'e2e4 e7e5'
	assert_line --index 3 'e2e4 e7e5 g1f3'
	[ -z "$(echo "$stderr" | grep replayed)" ]
}
@test "zhreplay: final positions of corpus games (python-chess, chessops, ffish, chess.com)" {
	# chessops san.test.ts: the knightvuillaume game ends Qdd1# in
	# r4rk1/ppp1nppp/6b1/8/2B1pP2/4Pq2/PPP4P/R1BqK3[PPNNNBRp] w - - 1 25
	run zhreplay --final-only -t fairy "$P/python-chess-knightvuillaume-jannlee-zh.pgn"
	assert_line --index 0 'r4rk1/ppp1nppp/6b1/8/2B1pP2/4Pq2/PPP4P/R1BqK3[RBNNNPPp] w - - 1 25'
	# python-chess test.py expects ...[QRRBNPP] w - - 8 62: python-chess
	# alone does not reset the half-move clock on a pawn drop (dialects.md
	# 7.3); scalachess, chessops and Fairy-Stockfish do, hence 2.
	run zhreplay --final-only -t fairy "$P/python-chess-saturs-jannlee-zh.pgn"
	assert_line --index 0 'r4r2/ppp2ppk/pb1p1pNp/K2NpP2/3qn3/1B3b2/PP5P/8[QRRBNPP] w - - 2 62'
	# python-chess: move 24 (index 23) of knightvuillaume is N@f3
	run zhreplay -F uci "$P/python-chess-knightvuillaume-jannlee-zh.pgn"
	[ "$(echo "$output" | cut -d' ' -f24)" = N@f3 ]
	# ffish readGamePGN mainline of JannLee vs CrazyAra, 73 plies
	run zhreplay -F uci "$P/lichess-2018-JannLee-CrazyAra.pgn"
	assert_line --index 0 'e2e4 b8c6 b1c3 g8f6 d2d4 d7d5 e4e5 f6e4 f1b5 a7a6 b5c6 b7c6 g1e2 c8f5 e1g1 e7e6 f2f3 e4c3 b2c3 h7h5 N@e3 N@h4 N@a5 B@d7 e3f5 h4f5 B@b7 N@e3 a5c6 e3d1 c6d8 a8d8 f1d1 Q@b5 b7a6 b5a6 P@d3 N@e3 c1e3 f5e3 P@d6 e3d1 a1d1 B@e3 g1h1 f8d6 e5d6 a6d6 B@b4 d6b4 c3b4 P@f2 Q@f1 R@g1 f1g1 f2g1q d1g1 P@f2 N@g6 f2g1q e2g1 Q@e7 Q@d6 f7g6 d6e7 e8e7 R@f7 e7f7 N@e5 f7g8 N@f6 g7f6 Q@f7'
	# chess.com's own CurrentPosition tag of its export
	run zhreplay --final-only -t chesscom "$P/scalachess-chessComCrazyhouse.pgn"
	assert_line --index 0 "$(sed -n 's/^\[CurrentPosition "\(.*\)"\]/\1/p' "$P/scalachess-chessComCrazyhouse.pgn")"
}
@test "zhreplay: per-ply FENs agree with dialect-examples.txt (Lichess, Fairy-Stockfish)" {
	# lila #16886 and python-chess #913: Lichess FENs after 1. e4 e6 and 1. e4 d5 2. exd5
	run zhreplay -p 2 <(printf '[Variant "Crazyhouse"]\n\n1. e4 e6 *\n')
	assert_line --index 0 'rnbqkbnr/pppp1ppp/4p3/8/4P3/8/PPPP1PPP/RNBQKBNR/ w KQkq - 0 2'
	run zhreplay -p 3 <(printf '[Variant "Crazyhouse"]\n\n1. e4 d5 2. exd5 *\n')
	assert_line --index 0 'rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR/P b KQkq - 0 2'
	# Fairy-Stockfish "d": startpos moves e2e4 d7d5 e4d5 d8d5 b1c3 d5a5
	run zhreplay --final-only -t fairy <(printf '[Variant "Crazyhouse"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 *\n')
	assert_line --index 0 'rnb1kbnr/ppp1pppp/8/q7/8/2N5/PPPP1PPP/R1BQKBNR[Pp] w KQkq - 2 4'
	# pyffish: zh SAN line with a promotion
	run zhreplay --final-only -t fairy <(printf '[Variant "Crazyhouse"]\n\n1. e4 d5 2. exd5 Nf6 3. d6 Ne4 4. dxc7 Nd6 5. cxb8=Q Qa5 *\n')
	assert_line --index 0 'rQ~b1kb1r/pp2pppp/3n4/q7/8/8/PPPP1PPP/RNBQKBNR[NPP] w KQkq - 1 6'
	# pyffish grandhouse
	run zhreplay --final-only -t fairy <(printf '[Variant "Grandhouse"]\n\n1. e5 d6 2. exd6 Bd8 3. P@e7 Bxe7 4. dxe7 *\n')
	assert_line --index 0 'r8r/1n1qkcabn1/ppp1pppppp/4P5/10/10/10/PPPP1PPPPP/1NBQKCABN1/R8R[Bp] b - - 0 4'
}
@test "zhreplay: 20 self-play games agree with chessops makeFen ply by ply" {
	# bench20.chessops.fen: chessops 0.15.1 (chessops_replay.mjs fen) on
	# the first 20 games of shared/bench/zh.pgn; pockets compared as sets.
	norm() { sed -E 's|^(([^/ ]*/){7}[^/ ]*)/([A-Za-z]*) |\1[\3] |' | awk '{ split($1, a, "["); p = a[2]; sub(/\]$/, "", p); n = split(p, c, ""); s = ""; for (i = 0; i < 26; i++) ; for (L = 65; L <= 122; L++) for (i = 1; i <= n; i++) if (c[i] == sprintf("%c", L)) s = s c[i]; $1 = a[1] "[" s "]"; print }'; }
	diff <(zhreplay -p 1- "$Z/bench20.pgn" | grep . | norm) <(norm < "$Z/bench20.chessops.fen")
}
@test "zhreplay: -j 2 writes the same bytes as -j 1" {
	for f in fen jsonl san board; do
		cmp <(zhreplay -q -F $f -j 1 "$Z/bench20.pgn" "$G" 2>/dev/null) <(zhreplay -q -F $f -j 2 "$Z/bench20.pgn" "$G" 2>/dev/null)
		cmp <(zhreplay -q -F $f -j 1 "$Z/bench20.pgn" "$G" 2>&1 >/dev/null) <(zhreplay -q -F $f -j 2 "$Z/bench20.pgn" "$G" 2>&1 >/dev/null)
	done
	cd "$Z"
	cmp <(zhreplay -q -F jsonl -j 0 games.pgn 2>/dev/null) "$Z/games.jsonl"
}
@test "zhreplay: stdin, -o, --variant" {
	run zhreplay -F uci - < "$P/python-chess-saturs-jannlee-zh.pgn"
	assert_success
	run zhreplay -F uci -o "$BATS_TEST_TMPDIR/out" "$P/python-chess-saturs-jannlee-zh.pgn"
	assert_success
	assert_equal "$(cut -d' ' -f1-3 "$BATS_TEST_TMPDIR/out")" 'e2e4 e7e5 b1c3'
	run --separate-stderr zhreplay -F uci <(printf '1. e4 d5 2. exd5 Qxd5 3. P@e4 *\n')
	assert_equal "$status" 1
	run zhreplay -F uci -v crazyhouse <(printf '1. e4 d5 2. exd5 Qxd5 3. P@e4 *\n')
	assert_success
	assert_output 'e2e4 d7d5 e4d5 d8d5 P@e4'
}
@test "zhreplay: usage errors exit 2" {
	run zhreplay -F nosuch;            assert_failure 2
	assert_output --partial "unknown format 'nosuch'"
	run zhreplay -t nosuch;            assert_failure 2
	run zhreplay -v nosuch;            assert_failure 2
	run zhreplay -p 5-3;               assert_failure 2
	run zhreplay -e 0;                 assert_failure 2
	run zhreplay -j -1;                assert_failure 2
	run zhreplay --color sometimes;    assert_failure 2
	run zhreplay /nonexistent;         assert_failure 2
	run zhreplay --bogus;              assert_failure 2
	run zhreplay --help;               assert_success
	assert_line --index 0 --partial 'usage: zhreplay'
	run zhreplay --version;            assert_success
}
