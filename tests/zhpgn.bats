#!/usr/bin/env bats
# zhpgn: PGN of every dialect in, PGN of another dialect or JSON out.
# Inputs: testdata/pgn (corpus copies, PROVENANCE.md) and testdata/zhpgn
# (our cases and the hand-reviewed golden outputs, PROVENANCE.md).

bats_require_minimum_version 1.5.0
load common

Z="$TESTDATA/zhpgn"
P="$TESTDATA/pgn"

# Games in a PGN stream, as the reader counts them (one JSON line each).
ngames() { zhpgn -q --json "$@" 2>/dev/null | wc -l; }

# golden CASE ARGS...: stdout of zhpgn ARGS equals $Z/CASE.
golden() {
	local want="$Z/$1"
	shift
	run --separate-stderr zhpgn -q "$@"
	if [ -n "${ZH_BLESS-}" ]; then printf '%s\n' "$output" > "$want"; fi
	assert_output - < "$want"
}

@test "zhpgn: --help is the SYNOPSIS, bad usage exits 2" {
	run zhpgn --help
	assert_success
	assert_line --index 0 --partial 'usage: zhpgn [-Jq] [--fens]'
	run zhpgn --to nosuch;          assert_failure 2
	assert_output --partial "unknown dialect 'nosuch'"
	run zhpgn --to auto;            assert_failure 2
	run zhpgn --from nosuch;        assert_failure 2
	run zhpgn --fens "$P/fatics-zh.pgn";  assert_failure 2
	assert_output --partial '--fens needs --json'
	run zhpgn -v nosuch;            assert_failure 2
	run zhpgn -j -1;                assert_failure 2
	run zhpgn /nonexistent.pgn;     assert_failure 2
	run zhpgn -V;                   assert_success
	assert_output --partial 'zhpgn (zhkit)'
}

@test "zhpgn: every corpus crazyhouse game replays to the end with every move legal" {
	local f
	for f in pychess-zh fatics-zh crazyara-engine_tournament crazyara-zh-50_startpos \
	    crazyara-1k_cz_lichess_startpos lichess-2018-JannLee-CrazyAra \
	    python-chess-knightvuillaume-jannlee-zh python-chess-saturs-jannlee-zh \
	    scalachess-chessComCrazyhouse scalachess-crazyhouseFromProd \
	    scalachess-crazyhouse1 scalachess-crazyhouse2 \
	    scalachess-crazyhouseNoVariantTag pychess-variants-grand; do
		run --separate-stderr zhpgn -o /dev/null "$P/$f.pgn"
		[ "$status" -eq 0 ] || { echo "$f: $stderr"; return 1; }
		refute_output
		zhpgn -q --json "$P/$f.pgn" | grep -q '"valid":false' &&
		    { echo "$f: invalid game"; return 1; }
	done
	true
}

@test "zhpgn: WinBoard PV at the wrong ply (crazyara round 47): reported at 621:7, the game survives" {
	run --separate-stderr zhpgn -q "$P/crazyara-zh-50_startpos.pgn"
	assert_success
	[ "$stderr" = "zhpgn: $P/crazyara-zh-50_startpos.pgn:621:7: warning: game 47, ply 8, in a variation: illegal move 'e7e6': there is no piece on e7; the variation is kept as written [-Wvariation]" ]
	[ "$(printf '%s\n' "$output" | grep -c '^\[Event ')" -eq 50 ]
	printf '%s\n' "$output" | awk '/^\[Event /{n++} n==47' > "$BATS_TEST_TMPDIR/r47"
	diff "$Z/round47.lichess" "$BATS_TEST_TMPDIR/r47"
	run --separate-stderr zhpgn -q --json "$P/crazyara-zh-50_startpos.pgn"
	printf '%s\n' "$output" | sed -n 47p | grep -q '"valid":true,"errors":\[{"line":621,"col":7,"ply":8,'
}

@test "zhpgn: final positions and mainlines match the peers' tests" {
	# python-chess asserts the final position of saturs-jannlee (its
	# halfmove clock ignores pawn drops, so compare the other fields)
	run zhpgn -q --json --fens --to fairy "$P/python-chess-saturs-jannlee-zh.pgn"
	local fen
	fen=$(printf '%s\n' "$output" | python3 -c 'import json,sys; print(json.load(sys.stdin)["moves"][-1]["fen"])')
	[ "$(echo "$fen" | cut -d' ' -f1-4,6)" = 'r4r2/ppp2ppk/pb1p1pNp/K2NpP2/3qn3/1B3b2/PP5P/8[QRRBNPP] w - - 62' ]
	# Fairy-Stockfish's test reads this Lichess game's mainline (73 plies)
	run zhpgn -q --json "$P/lichess-2018-JannLee-CrazyAra.pgn"
	[ "$(printf '%s\n' "$output" | python3 -c 'import json,sys; print(" ".join(m["uci"] for m in json.load(sys.stdin)["moves"]))')" = \
	    'e2e4 b8c6 b1c3 g8f6 d2d4 d7d5 e4e5 f6e4 f1b5 a7a6 b5c6 b7c6 g1e2 c8f5 e1g1 e7e6 f2f3 e4c3 b2c3 h7h5 N@e3 N@h4 N@a5 B@d7 e3f5 h4f5 B@b7 N@e3 a5c6 e3d1 c6d8 a8d8 f1d1 Q@b5 b7a6 b5a6 P@d3 N@e3 c1e3 f5e3 P@d6 e3d1 a1d1 B@e3 g1h1 f8d6 e5d6 a6d6 B@b4 d6b4 c3b4 P@f2 Q@f1 R@g1 f1g1 f2g1q d1g1 P@f2 N@g6 f2g1q e2g1 Q@e7 Q@d6 f7g6 d6e7 e8e7 R@f7 e7f7 N@e5 f7g8 N@f6 g7f6 Q@f7' ]
	# python-chess: move 24 of knightvuillaume-jannlee is N@f3
	run zhpgn -q --json "$P/python-chess-knightvuillaume-jannlee-zh.pgn"
	[ "$(printf '%s\n' "$output" | python3 -c 'import json,sys; print(json.load(sys.stdin)["moves"][23]["uci"])')" = 'N@f3' ]
	# pychess-variants' Grand import test (49 plies, two-digit ranks)
	run zhpgn -q --json "$P/pychess-variants-grand.pgn"
	[ "$(printf '%s\n' "$output" | python3 -c 'import json,sys; print(" ".join(m["uci"] for m in json.load(sys.stdin)["moves"]))')" = \
	    'e3e5 f9e7 g3g4 c8c7 f3f5 g8g7 c3c4 b8b6 d3d5 e7c8 c2e4 f8f7 f2d3 g9c5 d3c5 b6c5 h2f4 c8b6 d2c3 d9b7 e4c2 i8i7 b2d3 c9a7 d3c5 b7b8 g2e4 b6i6 f4h2 d8d6 c5d3 i9h7 i2h4 h7g5 e4d2 i6j6 d2g5 h8h6 g5e7 a10d10 e5d6 d10d7 c3g7 e9e10 g7j10 e10e9 j10g7 e9e10 e7f8' ]
}

@test "zhpgn: lichess -> xboard -> chesscom -> fairy -> lichess gives the same bytes for every corpus file" {
	local f t="$BATS_TEST_TMPDIR"
	for f in "$P"/*.pgn; do
		zhpgn -q "$f" > "$t/a" 2>/dev/null || true
		zhpgn -q -t xboard "$t/a" > "$t/b" 2>/dev/null
		zhpgn -q -t chesscom "$t/b" > "$t/c" 2>/dev/null
		zhpgn -q -t fairy "$t/c" > "$t/d" 2>/dev/null
		zhpgn -q -t lichess "$t/d" > "$t/e" 2>/dev/null
		cmp "$t/a" "$t/e" || { echo "$f"; diff "$t/a" "$t/e" | head; return 1; }
	done
}

@test "zhpgn: conversion keeps moves, tags, comments, clocks, NAGs and variations (via --json)" {
	local f t="$BATS_TEST_TMPDIR"
	for f in "$P"/*.pgn; do
		zhpgn -q --json "$f" > "$t/in.json" 2>/dev/null || true
		zhpgn -q -t chesscom "$f" 2>/dev/null | zhpgn -q -t xboard 2>/dev/null |
		    zhpgn -q --json > "$t/out.json" 2>/dev/null
		python3 - "$t/in.json" "$t/out.json" <<-'EOF' || { echo "$f"; return 1; }
		import json, sys
		a = [json.loads(l) for l in open(sys.argv[1])]
		b = [json.loads(l) for l in open(sys.argv[2])]
		a = [g for g in a if g["valid"]]
		assert len(a) == len(b), (len(a), len(b))
		derived = {"Variant", "FEN", "SetUp", "CurrentPosition"}
		for x, y in zip(a, b):
		    assert x["moves"] == y["moves"], "moves"
		    assert x["start"] == y["start"] and x.get("comment") == y.get("comment")
		    assert (x["result"] or "*") == y["result"]
		    for k, v in x["tags"].items():
		        assert k in derived or y["tags"][k] == v, k
		EOF
	done
}

@test "zhpgn: each dialect writes its own drop SAN, Variant tag and FEN" {
	local d
	for d in lichess xboard chesscom fairy; do
		golden "setup.$d" -t "$d" "$Z/setup.pgn"
	done
	run zhpgn -q -t lichess "$P/scalachess-chessComCrazyhouse.pgn"
	assert_line --partial '21. Kh1 P@g2# 0-1'
	assert_line '[Variant "Crazyhouse"]'
	run zhpgn -q -t xboard "$P/scalachess-chessComCrazyhouse.pgn"
	assert_line --partial '21. Kh1 P@g2# 0-1'
	assert_line '[Variant "crazyhouse"]'
	run zhpgn -q -t fairy "$P/scalachess-chessComCrazyhouse.pgn"
	assert_line --partial '21. Kh1 P@g2# 0-1'
	run zhpgn -q -t chesscom "$P/python-chess-saturs-jannlee-zh.pgn"
	refute_output --partial 'P@'
	assert_line --partial '11. Bxd5 B@b6 12. d4 exd4 13. cxd4 @e6'
	# XBoard puts Variant before FEN even when the input did not
	printf '[Event "x"]\n[FEN "%s"]\n[Variant "Crazyhouse"]\n\n1. Kb2 *\n' \
	    '4k3/8/8/8/8/8/8/K7[Q] w - - 0 1' | zhpgn -q -t xboard > "$BATS_TEST_TMPDIR/x"
	[ "$(grep -n 'Variant\|FEN\|SetUp' "$BATS_TEST_TMPDIR/x" | cut -d: -f2- | tr '\n' ' ')" = \
	    '[Variant "crazyhouse"] [FEN "4k3/8/8/8/8/8/8/K7[Q] w - - 0 1"] [SetUp "1"] ' ]
	# chess games get no Variant tag, whatever the input said
	run zhpgn -q -t xboard "$P/chessops-leading-whitespace.pgn"
	refute_output --partial 'Variant'
}

@test "zhpgn: chess.com output carries CurrentPosition, the final position as chess.com writes it" {
	run zhpgn -q -t chesscom "$P/scalachess-chessComCrazyhouse.pgn"
	assert_line '[CurrentPosition "r1bBk1r1/ppp2p1p/1b1p3p/3Pp3/6N1/2PPn2n/PP2B1pP/R2Q3K w q - 0 22 QNrp"]'
	run zhpgn -q -t lichess "$P/scalachess-chessComCrazyhouse.pgn"
	refute_output --partial CurrentPosition
}

@test "zhpgn: the Lichess movetext equals Lichess's own rendering (scalachess snapshot)" {
	local want got
	want=$(sed -n '/^1\./,$p' "$Z/scalachess-render-chessComCrazyhouse.pgn")
	got=$(zhpgn -q "$P/scalachess-chessComCrazyhouse.pgn" | sed -n '/^1\./,$p' | tr '\n' ' ' | sed 's/ *$//')
	[ "$got" = "$want" ]
}

@test "zhpgn: comments, clocks, NAGs and variations (golden, Lichess and chess.com)" {
	golden knightvuillaume.lichess "$P/python-chess-knightvuillaume-jannlee-zh.pgn"
	golden knightvuillaume.chesscom -t chesscom "$P/python-chess-knightvuillaume-jannlee-zh.pgn"
}

@test "zhpgn --json: a clock or eval too large, or not a plain number, stays a comment" {
	local g='[Variant "Crazyhouse"]

1. e4 { [%clk 0:01111111111111111111111111:42] } e5 { [%clk 0:00:42.5] }
2. Nf3 { [%eval inf] } Nc6 { [%eval 1e3] } 3. Bc4 { [%eval #99999999999] }
Bc5 { [%eval -0.52] } *
'
	run --separate-stderr bash -c "printf '%s' '$g' | zhpgn --json"
	assert_success
	printf '%s\n' "$output" | python3 -c '
import json, sys
m = json.loads(sys.stdin.read())["moves"]
assert "clock" not in m[0] and m[0]["comment"].startswith("[%clk 0:0111"), m[0]
assert m[1]["clock"] == 42.5, m[1]
assert all("cp" not in x and "mate" not in x for x in m[2:5]), m[2:5]
assert m[5]["cp"] == -52 and "eval" not in m[5], m[5]
'
}

@test "zhpgn: movetext lines are at most 80 columns (only a longer comment overflows)" {
	run bash -c "cat '$P'/*.pgn | zhpgn -q -t chesscom 2>/dev/null | awk 'length > 80 && !/^\\[/ && !/^\\{[^}]*\\}\$/'"
	assert_output ''
}

@test "zhpgn: bad games are reported with line:col, kept verbatim in --rejects, and the next game is read" {
	local t="$BATS_TEST_TMPDIR"
	run --separate-stderr zhpgn -r "$t/rej" "$Z/corrupt.pgn"
	assert_failure 1
	[ "$stderr" = "$(sed "s|corrupt.pgn|$Z/corrupt.pgn|" "$Z/corrupt.err")" ]
	cmp "$Z/corrupt.rejects" "$t/rej"
	[ "$(printf '%s\n' "$output" | grep -c '^\[Event ')" -eq 2 ]
	cd "$Z"		# "file" in the JSON is the name as given
	golden corrupt.json --json corrupt.pgn
}

@test "zhpgn: games read = games written + games rejected, for every input" {
	local f t="$BATS_TEST_TMPDIR" n w r
	cat "$P"/*.pgn "$Z/corrupt.pgn" > "$t/all.pgn"
	for f in "$P"/*.pgn "$Z/corrupt.pgn" "$t/all.pgn"; do
		n=$(ngames "$f")
		zhpgn -q -r "$t/rej" "$f" > "$t/out" 2>/dev/null || true
		w=$(ngames "$t/out")
		r=$(ngames "$t/rej")
		[ "$n" -eq $((w + r)) ] || { echo "$f: $n read, $w written, $r rejected"; return 1; }
	done
	run zhpgn -o /dev/null -r /dev/null "$t/all.pgn"
	assert_line --partial "games: "
	# and the warnings, by class, after them
	[ "$(echo "$output" | tail -1 | sed 's/ (.*//')" = "zhpgn: $n games: $w written, $r rejected" ]
}

@test "zhpgn: --json writes one object per game, valid or not, in the documented shape" {
	local t="$BATS_TEST_TMPDIR"
	cat "$P"/*.pgn "$Z/corrupt.pgn" > "$t/all.pgn"
	run --separate-stderr zhpgn --json --fens -o "$t/all.json" "$t/all.pgn"
	assert_failure 1
	# the summary's game count (the reader's) is the number of lines
	[[ "$stderr" == *"zhpgn: $(wc -l < "$t/all.json") games: "* ]]
	[ "$(wc -l < "$t/all.json")" -ge 1266 ]
	python3 "$ZH_TOP/tests/helpers/check-json.py" "$ZH_TOP/man/zhkit-game.schema.json" "$t/all.json"
}

@test "zhpgn: --variant gives the variant of games without a Variant tag" {
	local t="$BATS_TEST_TMPDIR"
	printf '1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@e2 *\n' > "$t/g.pgn"
	run --separate-stderr zhpgn -q "$t/g.pgn"
	assert_failure 1
	[[ "$stderr" == *"1:37: error: game 1, ply 7: 'P@e2' is a drop"* ]]
	run --separate-stderr zhpgn -q --variant crazyhouse "$t/g.pgn"
	assert_success
	assert_line '[Variant "Crazyhouse"]'
	# FICS: the variant comes from Event
	run zhpgn -q "$P/scalachess-crazyhouseNoVariantTag.pgn"
	assert_success
	assert_line '[Variant "Crazyhouse"]'
}

@test "zhpgn: -j 2 and -j 0 write the same bytes as -j 1" {
	local t="$BATS_TEST_TMPDIR" a
	cat "$P"/*.pgn "$Z/corrupt.pgn" > "$t/all.pgn"
	for a in "" "--json --fens" "-t chesscom"; do
		zhpgn $a -j 1 -r "$t/r1" "$t/all.pgn" > "$t/o1" 2> "$t/e1" || true
		zhpgn $a -j 2 -r "$t/r2" "$t/all.pgn" > "$t/o2" 2> "$t/e2" || true
		zhpgn $a -j 0 -r "$t/r0" "$t/all.pgn" > "$t/o0" 2> "$t/e0" || true
		cmp "$t/o1" "$t/o2" && cmp "$t/e1" "$t/e2" && cmp "$t/r1" "$t/r2"
		cmp "$t/o1" "$t/o0" && cmp "$t/e1" "$t/e0" && cmp "$t/r1" "$t/r0"
	done
}

@test "zhpgn: output does not depend on how the input is split between games" {
	local t="$BATS_TEST_TMPDIR"
	awk -v d="$t" '/^\[Event /{n++} {print > (d "/part" (n <= 40 ? 1 : 2))}' "$P/pychess-zh.pgn"
	zhpgn -q "$P/pychess-zh.pgn" > "$t/whole"
	{ zhpgn -q "$t/part1"; zhpgn -q "$t/part2"; } > "$t/parts"
	cmp "$t/whole" "$t/parts"
	# but where each game is from: its file, number there and index
	zhpgn -q --json "$P/pychess-zh.pgn" | jq -c 'del(.file, .game, .index)' > "$t/whole"
	{ zhpgn -q --json "$t/part1"; zhpgn -q --json "$t/part2"; } |
	    jq -c 'del(.file, .game, .index)' > "$t/parts"
	cmp "$t/whole" "$t/parts"
}

# python-chess (pgn.py) and chessops (pgn.ts parseVariant) read the ICS
# wild numbers 0-4, 6-8 and 8a, and "classical", as chess from the FEN
# tag; wild/5 is zhkit's wild5 and wild/23 crazyhouse.
@test "zhpgn: Variant wild/0 ... wild/8a and classical are chess" {
	local v fen='rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1'
	for v in wild/0 wild/1 wild/2 wild/3 wild/4 wild/6 wild/7 wild/8 WILD/8A classical; do
		printf '[Variant "%s"]\n[SetUp "1"]\n[FEN "%s"]\n\n1. e4 e5 *\n' "$v" "$fen" >"$BATS_TEST_TMPDIR/w.pgn"
		run --separate-stderr zhpgn --json "$BATS_TEST_TMPDIR/w.pgn"
		assert_success
		assert_output --partial '"variant":"chess","start":"rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1"'
		assert_output --partial '"valid":true'
	done
	printf '[Variant "wild/23"]\n\n1. e4 d5 2. exd5 Qxd5 3. P@e4 *\n' >"$BATS_TEST_TMPDIR/w.pgn"
	run --separate-stderr zhpgn --json "$BATS_TEST_TMPDIR/w.pgn"
	assert_output --partial '"variant":"crazyhouse"'
	printf '[Variant "wild/9"]\n\n1. e4 *\n' >"$BATS_TEST_TMPDIR/w.pgn"
	run --separate-stderr zhpgn --json "$BATS_TEST_TMPDIR/w.pgn"
	assert_failure 1
	assert_output --partial "\"valid\":false"
}
