#!/usr/bin/env bats
# zhcheck: every broken game of testdata/zhcheck is flagged once, at the
# right line, column and ply, with a message that says why, and the valid
# game after it is still read; the corpus passes; -j N changes nothing.

bats_require_minimum_version 1.5.0
load common

setup() {
	cd "$TESTDATA/zhcheck" || return 1
}

# broken FILE LINE COL PLY WORDS...: game 1 of FILE has one error at
# LINE:COL (ply PLY, 0 for none) whose message holds each of WORDS, and
# game 2 is valid.  Options for zhcheck may come first.
broken() {
	local opt=() f line col ply w where=""
	while [ "${1#-}" != "$1" ]; do
		opt+=("$1")
		shift
	done
	f=$1 line=$2 col=$3 ply=$4
	shift 4
	[ "$ply" -gt 0 ] && where=", ply $ply"
	run -1 --separate-stderr zhcheck "${opt[@]}" "$f"
	assert_equal "${#stderr_lines[@]}" 2
	case ${stderr_lines[0]} in
	"zhcheck: $f:$line:$col: error: game 1"*"$where: "*) ;;
	*) fail "want $f:$line:$col ...$where, got: ${stderr_lines[0]}" ;;
	esac
	for w in "$@"; do
		case ${stderr_lines[0]} in
		*"$w"*) ;;
		*) fail "no '$w' in: ${stderr_lines[0]}" ;;
		esac
	done
	assert_equal "${stderr_lines[1]}" \
	    "zhcheck: checked 2 games: 1 valid, 1 invalid (0 warnings)"
	assert_equal "$output" ""
}

# warned FILE LINE COL PLY WORDS...: without --strict a warning and both
# games valid; with --strict the same text as an error.
warned() {
	local f=$1 line=$2 col=$3 ply=$4 w
	shift 4
	run -0 --separate-stderr zhcheck "$f"
	case ${stderr_lines[0]} in
	"zhcheck: $f:$line:$col: warning: game 1 (Alice - Bob)"*) ;;
	*) fail "want a warning at $f:$line:$col, got: ${stderr_lines[0]}" ;;
	esac
	for w in "$@"; do
		case ${stderr_lines[0]} in
		*"$w"*) ;;
		*) fail "no '$w' in: ${stderr_lines[0]}" ;;
		esac
	done
	assert_equal "${stderr_lines[1]%: 1 *}" \
	    "zhcheck: checked 2 games: 2 valid, 0 invalid (1 warning"
	broken --strict "$f" "$line" "$col" "$ply" "$@"
}

@test "zhcheck: drop of a piece not in hand, with the pocket" {
	broken drop-not-in-hand.pgn 10 26 5 "illegal drop 'N@f3'" \
	    "no knight in White's pocket (pocket: P)"
}

@test "zhcheck: pawn drop on the first rank" {
	broken pawn-drop-first-rank.pgn 10 37 7 "illegal drop 'P@g1'" \
	    "pawn drop on the 1st rank is not allowed in crazyhouse"
}

@test "zhcheck: pawn drop on the last rank" {
	broken pawn-drop-last-rank.pgn 10 25 5 "illegal drop 'P@g8'" \
	    "pawn drop on the 8th rank is not allowed in crazyhouse"
}

@test "zhcheck: a first-rank pawn drop is legal in chessgi, not in crazyhouse" {
	run -0 --separate-stderr zhcheck chessgi-pawn-drop-first-rank.pgn
	assert_equal "$stderr" "zhcheck: checked 2 games: 2 valid, 0 invalid (0 warnings)"
	run -1 --separate-stderr zhcheck --variant crazyhouse chessgi-pawn-drop-first-rank.pgn
	assert_equal "${stderr_lines[0]}" "zhcheck: chessgi-pawn-drop-first-rank.pgn:10:37: error: game 1 (Alice - Bob), ply 7: illegal drop 'P@g1': pawn drop on the 1st rank is not allowed in crazyhouse"
}

@test "zhcheck: drop on an occupied square" {
	broken drop-on-occupied.pgn 10 26 5 "illegal drop 'P@d5'" \
	    "d5 is occupied by a black queen"
}

@test "zhcheck: a move that does not answer check" {
	broken king-left-in-check.pgn 10 24 5 "illegal move 'Nf3'" \
	    "White's king is in check"
}

@test "zhcheck: a pinned piece that moves" {
	broken pinned-piece-moves.pgn 10 24 5 "illegal move 'Nd5'" \
	    "it would leave White's king in check"
}

@test "zhcheck: castling through check" {
	broken castle-through-check.pgn 10 74 13 "illegal castling 'O-O'" \
	    "the king passes through f1, which Black attacks"
}

@test "zhcheck: castling with a rook dropped back on its square" {
	broken castle-rook-recaptured.pgn 10 93 17 "illegal castling 'O-O'" \
	    "White has lost the right to castle kingside" "h1 rook" \
	    "a rook dropped there does not restore it"
}

@test "zhcheck: ambiguous SAN names the candidates" {
	broken ambiguous-san.pgn 10 24 5 \
	    "'Nd2' is ambiguous: knights on b1 and f3 can move there"
}

@test "zhcheck: impossible SAN" {
	broken impossible-san.pgn 10 13 3 "illegal move 'Nc4'" \
	    "no knight of White can move to c4"
}

@test "zhcheck: en passant without the double step" {
	broken en-passant-without-double-step.pgn 10 22 5 "illegal move 'exd6'" \
	    "nothing to capture on d6" "no en passant"
}

@test "zhcheck: grandhouse promotion to a piece type not lost" {
	broken grandhouse-promotion-not-lost.pgn 10 31 7 "illegal move 'bxc8=C'" \
	    "White has lost no chancellor" "in grandhouse"
}

@test "zhcheck: a drop in a game without a Variant tag gives the hint" {
	broken drop-in-standard-game.pgn 9 37 7 "'P@e4' is a drop" \
	    "no [Variant] tag; use --variant crazyhouse"
	run -0 --separate-stderr zhcheck --variant crazyhouse drop-in-standard-game.pgn
}

@test "zhcheck: unterminated comment" {
	broken unterminated-comment.pgn 10 7 0 \
	    "unterminated comment started at line 10"
}

@test "zhcheck: garbled tag" {
	broken garbled-tag.pgn 4 8 0 "tag value must be a quoted string"
}

@test "zhcheck: unknown variant" {
	broken unknown-variant.pgn 8 1 0 "unknown variant 'Xiangqi'"
}

@test "zhcheck: Result tag and termination token differ (--strict: error)" {
	warned result-tag-mismatch.pgn 10 21 0 \
	    "the game ends with 0-1 but its Result tag says 1-0"
}

@test "zhcheck: a checkmate that is not a win for the mating side" {
	warned checkmate-wrong-result.pgn 10 41 7 \
	    "Black is checkmated but the result is 0-1" "win for White (1-0)"
}

@test "zhcheck: a stalemate that is not a draw" {
	warned stalemate-wrong-result.pgn 9 111 19 \
	    "Black is stalemated but the result is 1-0" "draw (1/2-1/2)"
}

@test "zhcheck: PlyCount that does not match" {
	warned plycount-wrong.pgn 9 1 0 "PlyCount is 5 but the game has 4 plies"
}

@test "zhcheck: FEN tag without SetUp, SetUp without FEN" {
	warned fen-without-setup.pgn 9 1 0 'FEN tag without SetUp "1"'
	warned setup-without-fen.pgn 9 1 0 'SetUp "1" without a FEN tag'
}

@test "zhcheck: missing tags of the Seven Tag Roster; Round is a class apart" {
	local f=missing-roster-tags.pgn

	run -0 --separate-stderr zhcheck "$f"
	assert_equal "$stderr" "zhcheck: $f:1:1: warning: game 1 (Alice - Bob): missing tags of the Seven Tag Roster: Site, Date, Result [-Wtag]
zhcheck: $f:1:1: warning: game 1 (Alice - Bob): missing tag of the Seven Tag Roster: Round [-Wmissing-round]
zhcheck: checked 2 games: 2 valid, 0 invalid (2 warnings: 1 tag, 1 missing-round)"
	run -0 --separate-stderr zhcheck -Wno-missing-round "$f"
	assert_equal "${#stderr_lines[@]}" 2
	assert_equal "${stderr_lines[1]}" \
	    "zhcheck: checked 2 games: 2 valid, 0 invalid (1 warning: 1 tag)"
	broken --strict "$f" 1 1 0 "Site, Date, Result [-Werror=tag]"
}

@test "zhcheck: an illegal move inside a variation" {
	warned variation-illegal-move.pgn 10 32 5 "in a variation" \
	    "illegal drop 'N@f7'"
}

@test "zhcheck: the crazyhouse corpus passes" {
	cd "$TESTDATA/pgn"
	run -0 --separate-stderr zhcheck -q pychess-zh.pgn fatics-zh.pgn \
	    crazyara-engine_tournament.pgn crazyara-1k_cz_lichess_startpos.pgn \
	    lichess-2018-JannLee-CrazyAra.pgn \
	    python-chess-knightvuillaume-jannlee-zh.pgn \
	    scalachess-chessComCrazyhouse.pgn scalachess-crazyhouseFromProd.pgn \
	    python-chess-utf8-bom.pgn python-chess-chessbase-empty-line.pgn \
	    python-chess-saturs-jannlee-zh.pgn scalachess-crazyhouse1.pgn \
	    scalachess-crazyhouse2.pgn scalachess-crazyhouseNoVariantTag.pgn \
	    pychess-variants-grand.pgn
	# {Black checkmated} before 0-1 and the mate: clean under --strict
	run -0 --separate-stderr zhcheck --strict scalachess-crazyhouse1.pgn scalachess-crazyhouse2.pgn \
	    pychess-variants-grand.pgn
	run -0 --separate-stderr zhcheck pychess-zh.pgn crazyara-engine_tournament.pgn \
	    crazyara-1k_cz_lichess_startpos.pgn
	assert_equal "${stderr_lines[-1]}" \
	    "zhcheck: checked 1185 games: 1185 valid, 0 invalid (83 warnings: 83 missing-round)"
}

@test "zhcheck: a PlyCount that matches; a missing Round is a warning" {
	cd "$TESTDATA/pgn"
	run -0 --separate-stderr zhcheck python-chess-saturs-jannlee-zh.pgn
	assert_equal "$stderr" "zhcheck: python-chess-saturs-jannlee-zh.pgn:1:1: warning: game 1 (saturos - JannLee): missing tag of the Seven Tag Roster: Round [-Wmissing-round]
zhcheck: checked 1 game: 1 valid, 0 invalid (1 warning: 1 missing-round)"
}

@test "zhcheck: WinBoard PVs at the wrong ply are warnings at the right place" {
	cd "$TESTDATA/pgn"
	run -0 --separate-stderr zhcheck crazyara-zh-50_startpos.pgn
	assert_equal "$stderr" "zhcheck: crazyara-zh-50_startpos.pgn:621:7: warning: game 47 (- - -), ply 8: in a variation: illegal move 'e7e6': there is no piece on e7 [-Wvariation]
zhcheck: checked 50 games: 50 valid, 0 invalid (1 warning: 1 variation)"
	run -1 --separate-stderr zhcheck --strict crazyara-zh-50_startpos.pgn
	assert_equal "${stderr_lines[-1]}" \
	    "zhcheck: checked 50 games: 49 valid, 1 invalid (0 warnings)"
}

@test "zhcheck: unsupported variants and null moves in the corpus are flagged" {
	cd "$TESTDATA/pgn"
	run -1 --separate-stderr zhcheck chessops-headers-and-moves-on-the-same-line.pgn
	assert_equal "${stderr_lines[0]}" "zhcheck: chessops-headers-and-moves-on-the-same-line.pgn:1:1: error: game 1: unknown variant 'Antichess' in the Variant tag"
}

@test "zhcheck: --json writes one report per game, valid or not" {
	run -1 --separate-stderr zhcheck --json castle-through-check.pgn
	assert_equal "${#lines[@]}" 2
	assert_equal "${lines[0]}" '{"file":"castle-through-check.pgn","game":1,"index":1,"line":1,"white":"Alice","black":"Bob","variant":"crazyhouse","plies":12,"result":"*","valid":false,"errors":[{"line":10,"col":74,"ply":13,"code":"illegal-move","message":"illegal castling '"'O-O'"': the king passes through f1, which Black attacks","severity":"error"}]}'
	assert_equal "${lines[1]}" '{"file":"castle-through-check.pgn","game":2,"index":2,"line":12,"white":"Carol","black":"Dave","variant":"crazyhouse","plies":12,"result":"0-1","valid":true,"errors":[]}'
	run -1 --separate-stderr zhcheck --json drop-not-in-hand.pgn ambiguous-san.pgn variation-illegal-move.pgn
	assert_line --index 0 --partial '"code":"illegal-drop"'
	assert_line --index 2 --partial '"code":"ambiguous"'
	assert_line --index 4 --partial '"valid":true,"errors":[{"line":10,"col":32,"ply":5,"code":"variation",'
	assert_line --index 4 --partial '"severity":"warning"'
}

@test "zhcheck: -o writes the JSON report to a file" {
	out="$BATS_TEST_TMPDIR/report.jsonl"
	run -1 --separate-stderr zhcheck --json -o "$out" ambiguous-san.pgn
	assert_equal "$output" ""
	[ "$(wc -l < "$out")" -eq 2 ]
}

@test "zhcheck: -j 2 output is byte-identical to -j 1" {
	local all=("$TESTDATA"/zhcheck/*.pgn "$TESTDATA"/pgn/pychess-zh.pgn
	    "$TESTDATA"/pgn/crazyara-zh-50_startpos.pgn)
	zhcheck -j 1 --json "${all[@]}" >"$BATS_TEST_TMPDIR/1.out" 2>"$BATS_TEST_TMPDIR/1.err" || true
	zhcheck -j 2 --json "${all[@]}" >"$BATS_TEST_TMPDIR/2.out" 2>"$BATS_TEST_TMPDIR/2.err" || true
	zhcheck -j 0 --json "${all[@]}" >"$BATS_TEST_TMPDIR/0.out" 2>"$BATS_TEST_TMPDIR/0.err" || true
	cmp "$BATS_TEST_TMPDIR/1.out" "$BATS_TEST_TMPDIR/2.out"
	cmp "$BATS_TEST_TMPDIR/1.err" "$BATS_TEST_TMPDIR/2.err"
	cmp "$BATS_TEST_TMPDIR/1.out" "$BATS_TEST_TMPDIR/0.out"
	cmp "$BATS_TEST_TMPDIR/1.err" "$BATS_TEST_TMPDIR/0.err"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/1.out")" -gt 100 ]
}

@test "zhcheck: --max-errors stops after N errors, the same with -j 2" {
	run -1 --separate-stderr zhcheck --max-errors 2 drop-not-in-hand.pgn \
	    ambiguous-san.pgn impossible-san.pgn
	assert_equal "${#stderr_lines[@]}" 3
	assert_equal "${stderr_lines[2]}" "zhcheck: checked 3 games: 1 valid, 2 invalid (0 warnings) (stopped after 2 errors: --max-errors)"
	run -1 --separate-stderr zhcheck -j 2 --max-errors 2 drop-not-in-hand.pgn \
	    ambiguous-san.pgn impossible-san.pgn
	assert_equal "${stderr_lines[2]}" "zhcheck: checked 3 games: 1 valid, 2 invalid (0 warnings) (stopped after 2 errors: --max-errors)"
}

@test "zhcheck: standard input, --quiet, and exit status 0 when all is valid" {
	run -0 --separate-stderr zhcheck -q - < chessgi-pawn-drop-first-rank.pgn
	assert_equal "$stderr" ""
	run -0 --separate-stderr zhcheck < "$TESTDATA/pgn/fatics-zh.pgn"
	assert_equal "${stderr_lines[0]}" "zhcheck: <stdin>:1:1: warning: game 1 (NegativeNirvana - sharkmeister): missing tag of the Seven Tag Roster: Round [-Wmissing-round]"
}

@test "zhcheck: --fen checks one position per line" {
	printf '%s\n' 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1' '' \
	    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1' \
	    '8/8/8/8/8/8/8/8 w - - 0 1' > "$BATS_TEST_TMPDIR/p.fen"
	run -1 --separate-stderr zhcheck --fen "$BATS_TEST_TMPDIR/p.fen"
	assert_equal "${stderr_lines[0]}" "zhcheck: $BATS_TEST_TMPDIR/p.fen:3:43: error: board: 'X' is not a piece of crazyhouse"
	assert_equal "${stderr_lines[1]}" "zhcheck: $BATS_TEST_TMPDIR/p.fen:4:1: error: board: White has no king"
	assert_equal "${stderr_lines[2]}" "zhcheck: checked 3 positions: 1 valid, 2 invalid (0 warnings)"
	run -1 --separate-stderr zhcheck --fen --json "$BATS_TEST_TMPDIR/p.fen"
	assert_equal "${#lines[@]}" 3
	assert_line --index 2 --partial '"code":"position","message":"board: White has no king"'
}

@test "zhcheck: usage and I/O errors exit 2" {
	run -2 --separate-stderr zhcheck --no-such-option
	run -2 --separate-stderr zhcheck --variant xiangqi ambiguous-san.pgn
	run -2 --separate-stderr zhcheck --jobs x ambiguous-san.pgn
	run -2 --separate-stderr zhcheck no-such-file.pgn
	assert_equal "${stderr_lines[0]}" "zhcheck: no-such-file.pgn: No such file or directory"
	run -0 zhcheck --version
	assert_output --partial "zhcheck (zhkit)"
}
