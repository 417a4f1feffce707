#!/usr/bin/env bats
# zhfen: reading every dialect, writing each exactly, round trips over the
# corpus (testdata/fen/corpus.tsv, made by tests/helpers/gen-fen-corpus.sh),
# diagnostics, robustness, JSON, interop with Fairy-Stockfish, man pages.
bats_require_minimum_version 1.5.0
load common

CORPUS="$TESTDATA/fen/corpus.tsv"
START='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR'
DIALECTS="lichess xboard chesscom fairy"

# FENs of a variant from the corpus (loop and chessgi also take the
# crazyhouse ones: the same positions under other rules).
corpus() {
	case $1 in
	loop|chessgi) awk -F'\t' -v v="$1" '$1 == v || $1 == "crazyhouse" { print $2 }' "$CORPUS" ;;
	*) awk -F'\t' -v v="$1" '$1 == v { print $2 }' "$CORPUS" ;;
	esac
}

# The position, compared: Lichess's form (ep only when capturable), and
# no '~' where promotion has no rule effect (loop, chessgi).
canon() {
	case $1 in
	loop|chessgi) zhfen -v "$1" -t lichess | tr -d '~' ;;
	*) zhfen -v "$1" -t lichess ;;
	esac
}

# A -> B -> A for every pair of dialects.  From lichess and chesscom (the
# strictest ep rule) the text must come back byte for byte, but in loop
# and chessgi, where fairy writes no promoted marks (they carry no rule).
roundtrip() {
	local v=$1 a b n
	corpus "$v" > "$BATS_TEST_TMPDIR/in"
	n=$(wc -l < "$BATS_TEST_TMPDIR/in")
	[ "$n" -gt 0 ]
	for a in $DIALECTS; do
		zhfen -v "$v" -t "$a" "$BATS_TEST_TMPDIR/in" > "$BATS_TEST_TMPDIR/A"
		[ "$(wc -l < "$BATS_TEST_TMPDIR/A")" -eq "$n" ]
		canon "$v" < "$BATS_TEST_TMPDIR/A" > "$BATS_TEST_TMPDIR/cA"
		for b in $DIALECTS; do
			zhfen -v "$v" -t "$b" "$BATS_TEST_TMPDIR/A" > "$BATS_TEST_TMPDIR/B"
			zhfen -v "$v" -t "$a" "$BATS_TEST_TMPDIR/B" > "$BATS_TEST_TMPDIR/A2"
			case $v:$a in
			loop:*|chessgi:*|*:xboard|*:fairy)
				canon "$v" < "$BATS_TEST_TMPDIR/A2" | diff "$BATS_TEST_TMPDIR/cA" - ||
				    { echo "$v: $a -> $b -> $a"; return 1; } ;;
			*)
				diff "$BATS_TEST_TMPDIR/A" "$BATS_TEST_TMPDIR/A2" ||
				    { echo "$v: $a -> $b -> $a"; return 1; } ;;
			esac
		done
	done
}

@test "zhfen: round trip A->B->A, every dialect pair: crazyhouse corpus" { roundtrip crazyhouse; }
@test "zhfen: round trip A->B->A, every dialect pair: loop" { roundtrip loop; }
@test "zhfen: round trip A->B->A, every dialect pair: chessgi" { roundtrip chessgi; }
@test "zhfen: round trip A->B->A, every dialect pair: grand and grandhouse" { roundtrip grand; roundtrip grandhouse; }
@test "zhfen: round trip A->B->A, every dialect pair: chess (6789 positions)" { roundtrip chess; }

@test "zhfen: the corpus is what tests/helpers/gen-fen-corpus.sh makes" {
	run bash -c "'$ZH_TOP/tests/helpers/gen-fen-corpus.sh' | diff - '$CORPUS'"
	assert_success
}

@test "zhfen: tests/fen-cases.bats is what tests/helpers/gen-fen-cases.sh makes" {
	run bash -c "'$ZH_TOP/tests/helpers/gen-fen-cases.sh' | diff - '$ZH_TOP/tests/fen-cases.bats'"
	assert_success
}

# --- writer rules (DESIGN.md, "What each dialect's writer emits") ---

@test "zhfen: lichess writes the pocket as a 9th rank, PNBRQ then pnbrq; empty is a trailing /" {
	corpus crazyhouse | zhfen -t lichess > "$BATS_TEST_TMPDIR/o"
	run grep -cvE '^([^/ ]+/){8}P*N*B*R*Q*p*n*b*r*q* [wb] ' "$BATS_TEST_TMPDIR/o"
	assert_output 0
	run zhfen -t lichess "$START w KQkq - 0 1"
	assert_output "$START/ w KQkq - 0 1"
	run zhfen -t lichess "$START[qpQP] w KQkq - 0 1"
	assert_output "$START/PQpq w KQkq - 0 1"
}

@test "zhfen: xboard writes [PNBRQpnbrq], [-] when empty" {
	corpus crazyhouse | zhfen -t xboard > "$BATS_TEST_TMPDIR/o"
	run grep -cvE '^[^ []+\[(-|P*N*B*R*Q*p*n*b*r*q*)\] [wb] ' "$BATS_TEST_TMPDIR/o"
	assert_output 0
	run grep -c '\[\]' "$BATS_TEST_TMPDIR/o"
	assert_output 0
	run zhfen -t xboard "$START/ w KQkq - 0 1"
	assert_output "$START[-] w KQkq - 0 1"
}

@test "zhfen: chesscom writes a 7th field QRBNP then qrbnp ('-' when empty), an 8th only for promoted pieces, no ~" {
	corpus crazyhouse | zhfen -t chesscom > "$BATS_TEST_TMPDIR/o"
	run grep -cvE '^[^ []+ [wb] [KQkq-]+ [a-h1-8-]+ [0-9]+ [0-9]+ (-|Q*R*B*N*P*q*r*b*n*p*)( ([a-h][1-8])+)?$' "$BATS_TEST_TMPDIR/o"
	assert_output 0
	run grep -c '~' "$BATS_TEST_TMPDIR/o"
	assert_output 0
	run zhfen -t chesscom 'r2q1r1k/2p1ppb1/p2p2pp/3P1p2/B6B/2N2NPp/1PP2P1K/3Q3q~/NNBRpr w - - 0 26'
	assert_output 'r2q1r1k/2p1ppb1/p2p2pp/3P1p2/B6B/2N2NPp/1PP2P1K/3Q3q w - - 0 26 RBNNrp h1'
	run zhfen -t chesscom "$START[] w KQkq - 0 1"
	assert_output "$START w KQkq - 0 1 -"
	run zhfen -t chesscom 'Q~R~b~2rk1/3p2pp/2pNp3/4PpN1/qp1P3P/4P1K1/6P1/1Q4q~R~/pPP w - f6 0 36'
	assert_output 'QRb2rk1/3p2pp/2pNp3/4PpN1/qp1P3P/4P1K1/6P1/1Q4qR w - f6 0 36 PPp a8b8c8g1h1'
}

@test "zhfen: fairy writes [QRBNPqrbnp], [] when empty, ~ for crazyhouse and grandhouse but not loop or chessgi" {
	corpus crazyhouse | zhfen -t fairy > "$BATS_TEST_TMPDIR/o"
	run grep -cvE '^[^ []+\[Q*R*B*N*P*q*r*b*n*p*\] [wb] ' "$BATS_TEST_TMPDIR/o"
	assert_output 0
	run zhfen -t fairy "$START[-] w KQkq - 0 1"
	assert_output "$START[] w KQkq - 0 1"
	run zhfen -t fairy '4k3/8/8/8/8/8/8/1Q~2K3[] b - - 0 1'
	assert_output '4k3/8/8/8/8/8/8/1Q~2K3[] b - - 0 1'
	run zhfen -t fairy -v loop '4k3/8/8/8/8/8/8/1Q~2K3[] b - - 0 1'
	assert_output '4k3/8/8/8/8/8/8/1Q2K3[] b - - 0 1'
	run zhfen -t fairy -v chessgi '4k3/8/8/8/8/8/8/1Q~2K3[] b - - 0 1'
	assert_output '4k3/8/8/8/8/8/8/1Q2K3[] b - - 0 1'
	run zhfen -t fairy '4k5/10/6Q~3/10/10/10/10/10/10/4K5[Pq] b - - 0 1'
	assert_output '4k5/10/6Q~3/10/10/10/10/10/10/4K5[Pq] b - - 0 1'
	run zhfen -t lichess -v loop '4k3/8/8/8/8/8/8/1Q~2K3[] b - - 0 1'
	assert_output '4k3/8/8/8/8/8/8/1Q~2K3/ b - - 0 1'
}

@test "zhfen: en passant: xboard after every double step, fairy when attacked, lichess and chesscom when legal" {
	local quiet='rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq e3 0 1'
	local pinned='4k3/8/8/KPp4r/8/8/8/8[] w - c6 0 2'
	local open='rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR[] w KQkq d6 0 3'
	run zhfen -t xboard "$quiet";    assert_output --partial ' b KQkq e3 0 1'
	run zhfen -t fairy "$quiet";     assert_output --partial ' b KQkq - 0 1'
	run zhfen -t lichess "$quiet";   assert_output --partial ' b KQkq - 0 1'
	run zhfen -t fairy "$pinned";    assert_output --partial ' w - c6 0 2'
	run zhfen -t lichess "$pinned";  assert_output --partial ' w - - 0 2'
	run zhfen -t chesscom "$pinned"; assert_output --partial ' w - - 0 2'
	for d in $DIALECTS; do
		run zhfen -t "$d" "$open"
		assert_output --partial ' w KQkq d6 0 3'
	done
}

@test "zhfen: grandhouse xboard ep uses ranks from 0 and is read back" {
	local f='r8r/1nbqkcabn1/ppp1pppppp/10/3p6/10/10/PPPPPPPPPP/1NBQKCABN1/R8R[] w - d7 0 2'
	run zhfen -t xboard "$f"
	assert_output 'r8r/1nbqkcabn1/ppp1pppppp/10/3p6/10/10/PPPPPPPPPP/1NBQKCABN1/R8R[-] w - d6 0 2'
	run zhfen -t fairy -f xboard "$output"
	assert_output 'r8r/1nbqkcabn1/ppp1pppppp/10/3p6/10/10/PPPPPPPPPP/1NBQKCABN1/R8R[] w - - 0 2'
}

@test "zhfen: default --to is the input's dialect, fairy when nothing tells" {
	run zhfen "$START/ w KQkq - 0 1" "$START[-] w KQkq - 0 1" "$START w KQkq - 0 1 -" \
	    "$START[] w KQkq - 0 1" "$START w KQkq - 0 1" "$START[Pp] w KQkq - 0 1" \
	    "$START[QPqp] w KQkq - 0 1"
	assert_success
	assert_output - <<-EOF
	$START/ w KQkq - 0 1
	$START[-] w KQkq - 0 1
	$START w KQkq - 0 1 -
	$START[] w KQkq - 0 1
	$START[] w KQkq - 0 1
	$START[Pp] w KQkq - 0 1
	$START[QPqp] w KQkq - 0 1
	EOF
	run zhfen -f lichess "$START[Pp] w KQkq - 0 1"
	assert_output "$START/Pp w KQkq - 0 1"
}

@test "zhfen: reads every pocket form: [..] in any order, [-], [], /.., trailing /, none, chess.com fields, EPD" {
	run zhfen -t fairy "$START/pQqP w KQkq - 0 1" "$START[pPqQ] w KQkq - 0 1" \
	    "$START w KQkq - 0 1 pQqP" "$START[pQqP] w KQkq -" "$START/pQqP" \
	    "${START}_w_KQkq_-_0_1" "$START[pQqP] w KQkq - bm e4; id \"x y\";"
	assert_success
	assert_output - <<-EOF
	$START[QPqp] w KQkq - 0 1
	$START[QPqp] w KQkq - 0 1
	$START[QPqp] w KQkq - 0 1
	$START[QPqp] w KQkq - 0 1
	$START[QPqp] w - - 0 1
	$START[] w KQkq - 0 1
	$START[QPqp] w KQkq - 0 1
	EOF
}

# An EPD's clocks as operations, as python-chess's Board.set_epd reads
# them (hmvc, fmvn; fmvn 0 is 1); a quoted operand may hold a ';'.
@test "zhfen: EPD hmvc and fmvn operations are the clocks; a bad one is an error at its column" {
	run zhfen -t fairy "$START[] w KQkq - hmvc 3; fmvn 7;" \
	    "$START[] b KQkq - id \"a; hmvc 9\"; hmvc 12;fmvn 0;" \
	    "$START[] w KQkq - bm e4;"
	assert_success
	assert_output - <<-EOF
	$START[] w KQkq - 3 7
	$START[] b KQkq - 12 1
	$START[] w KQkq - 0 1
	EOF
	run --separate-stderr zhfen "$START[] w KQkq - bm e4; hmvc x;"
	assert_failure 1
	[[ $stderr == *":1:$(( ${#START} + 25 )): error: EPD hmvc (halfmove clock): 'x' is not a number"* ]] ||
	    fail "stderr: $stderr"
}

@test "zhfen: the chess.com CurrentPosition of a real export reads to white Q N, black r p" {
	local fen
	fen=$(sed -n 's/^\[CurrentPosition "\(.*\)"\]/\1/p' "$TESTDATA/fen/Fixtures.chessComCrazyhouse.pgn")
	run zhfen -t fairy "$fen"
	assert_output 'r1bBk1r1/ppp2p1p/1b1p3p/3Pp3/6N1/2PPn2n/PP2B1pP/R2Q3K[QNrp] w q - 0 22'
	run zhfen --json "$fen"
	assert_output --partial '"pockets":{"white":{"N":1,"Q":1},"black":{"P":1,"R":1}}'
	assert_output --partial '"status":"checkmate"'
}

# --- validation and diagnostics ---

@test "zhfen: a king in a pocket is named, with its column, on stdin" {
	run --separate-stderr zhfen <<<"$START[K] w KQkq - 0 1"
	assert_failure 1
	refute_output
	assert_equal "${stderr_lines[0]}" "zhfen: <stdin>:1:45: error: pocket: 'K' is not allowed in a pocket"
	assert_equal "${stderr_lines[1]}" "zhfen: checked 1 position: 0 valid, 1 invalid"
}

@test "zhfen: position errors point at the square, letter or field at fault" {
	run --separate-stderr zhfen 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w Kkq e3 0 1'
	assert_equal "${stderr_lines[0]}" "zhfen: <arg>:1:53: error: en passant: e3, but no Black pawn can have just double-stepped over it"
	run --separate-stderr zhfen '1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1'
	assert_equal "${stderr_lines[0]}" "zhfen: <arg>:1:52: error: castling: right q, but no Black rook on a8"
	run --separate-stderr zhfen 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPpPP/RNBQKBNR[] b KQkq - 0 1'
	assert_equal "${stderr_lines[0]}" "zhfen: <arg>:1:40: error: board: White is in check, but it is Black's move"
	run --separate-stderr zhfen 'rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR[] w KQq - 0 1'
	assert_equal "${stderr_lines[0]}" "zhfen: <arg>:1:8: error: board: White pawn on h8: pawns cannot stand on rank 8 in crazyhouse"
	run --separate-stderr zhfen 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNK[] w Qkq - 0 1'
	assert_equal "${stderr_lines[0]}" "zhfen: <arg>:1:43: error: board: White has 2 kings"
	run zhfen -v chessgi '4k3/8/8/8/8/8/8/P3K3[] w - - 0 1'
	assert_success
}

@test "zhfen: --strict counts material, promoted pieces as pawns" {
	run zhfen "$START[Q] w KQkq - 0 1"
	assert_success
	run --separate-stderr zhfen --strict "$START[Q] w KQkq - 0 1"
	assert_failure 1
	assert_equal "${stderr_lines[0]}" "zhfen: <arg>:1:1: error: material: 3 queens on the board and in the pockets, the start position has 2"
	run --separate-stderr zhfen --strict 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1'
	assert_success
	run --separate-stderr zhfen --strict 'Q~nbqkbnr/1ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[p] w KQk - 0 1'
	assert_failure 1
	assert_equal "${stderr_lines[0]}" "zhfen: <arg>:1:1: error: material: 17 pawns on the board and in the pockets, the start position has 16 (promoted pieces count as pawns)"
}

@test "zhfen: a bad line never stops the run; files and lines are named" {
	printf '%s\n' "$START[] w KQkq - 0 1" 'garbage' '' '# a comment' "$START[Z] w KQkq - 0 1" "$START/ b KQkq - 0 1" > "$BATS_TEST_TMPDIR/in.fen"
	run --separate-stderr zhfen "$BATS_TEST_TMPDIR/in.fen"
	assert_failure 1
	assert_output - <<-EOF
	$START[] w KQkq - 0 1
	$START/ b KQkq - 0 1
	EOF
	assert_equal "${stderr_lines[0]}" "zhfen: $BATS_TEST_TMPDIR/in.fen:2:1: error: board: 'g' is not a piece of crazyhouse"
	assert_equal "${stderr_lines[1]}" "zhfen: $BATS_TEST_TMPDIR/in.fen:5:45: error: pocket: 'Z' is not a piece of crazyhouse"
	assert_equal "${stderr_lines[2]}" "zhfen: checked 4 positions: 2 valid, 2 invalid"
}

@test "zhfen: binary garbage and NUL bytes are errors, not crashes" {
	head -c 70000 /dev/zero | tr '\0' '\377' > "$BATS_TEST_TMPDIR/bin"
	printf '\nr\000nbq\n\001\002\003\n\377\376 w\n' >> "$BATS_TEST_TMPDIR/bin"
	run --separate-stderr zhfen "$BATS_TEST_TMPDIR/bin"
	assert_failure 1
	refute_output
	assert_equal "${stderr_lines[0]}" "zhfen: $BATS_TEST_TMPDIR/bin:1:65537: error: line longer than 65536 bytes (not a FEN)"
	assert_equal "${stderr_lines[1]}" "zhfen: $BATS_TEST_TMPDIR/bin:2:2: error: NUL byte in the input"
	assert_equal "${stderr_lines[2]}" "zhfen: $BATS_TEST_TMPDIR/bin:3:1: error: board: byte 0x01 is not a piece of crazyhouse"
	assert_equal "${stderr_lines[3]}" "zhfen: $BATS_TEST_TMPDIR/bin:4:1: error: board: byte 0xff is not a piece of crazyhouse"
	run --separate-stderr zhfen --json "$BATS_TEST_TMPDIR/bin"
	assert_failure 1
	assert_line --index 1 "{\"file\":\"$BATS_TEST_TMPDIR/bin\",\"line\":2,\"input\":\"r\\u0000nbq\",\"valid\":false,\"error\":{\"line\":2,\"col\":2,\"ply\":0,\"code\":\"syntax\",\"message\":\"NUL byte in the input\",\"severity\":\"error\"}}"
	# bytes that are not UTF-8 read as Latin-1 (zhkit-json(5)): U+00FF U+00FE
	assert_line --index 3 "{\"file\":\"$BATS_TEST_TMPDIR/bin\",\"line\":4,\"input\":\"$(printf '\303\277\303\276') w\",\"valid\":false,\"error\":{\"line\":4,\"col\":1,\"ply\":0,\"code\":\"syntax\",\"message\":\"board: byte 0xff is not a piece of crazyhouse\",\"severity\":\"error\"}}"
	assert_line --index 0 --partial "\"input\":\"$(printf '\303\277%.0s' $(seq 64))\""
}

@test "zhfen: a 1 MB line is one error; the next line is still read" {
	{ head -c 1048576 /dev/zero | tr '\0' 'p'; echo; echo "$START[] w KQkq - 0 1"; } > "$BATS_TEST_TMPDIR/big"
	run --separate-stderr zhfen "$BATS_TEST_TMPDIR/big"
	assert_failure 1
	assert_output "$START[] w KQkq - 0 1"
	assert_equal "${stderr_lines[0]}" "zhfen: $BATS_TEST_TMPDIR/big:1:65537: error: line longer than 65536 bytes (not a FEN)"
	head -c 60000 /dev/zero | tr '\0' 'p' > "$BATS_TEST_TMPDIR/long"
	run --separate-stderr zhfen "$BATS_TEST_TMPDIR/long"
	assert_failure 1
	assert_equal "${stderr_lines[0]}" "zhfen: $BATS_TEST_TMPDIR/long:1:1: error: board: rank 8 has more than 8 squares"
}

@test "zhfen: empty input, blank lines and comments: no output, exit 0" {
	run zhfen < /dev/null
	assert_success
	refute_output
	run zhfen --json <<<$'\n  \n# comment\n\t# indented\r\n'
	assert_success
	refute_output
}

@test "zhfen: CRLF line ends and a last line without newline are read" {
	printf '%s\r\n%s' "$START[] w KQkq - 0 1" "$START/ b KQkq - 0 1" > "$BATS_TEST_TMPDIR/crlf"
	run zhfen "$BATS_TEST_TMPDIR/crlf"
	assert_success
	assert_output - <<-EOF
	$START[] w KQkq - 0 1
	$START/ b KQkq - 0 1
	EOF
}

# --- options ---

@test "zhfen: --moves lists legal moves in UCI, sorted, one line per position" {
	run zhfen --moves "$START[] w KQkq - 0 1" 'r1bBk1r1/ppp2p1p/1b1p3p/3Pp3/6N1/2PPn2n/PP2B1pP/R2Q3K w q - 0 22 QNrp' '4k3/8/8/8/8/8/8/4K3[p] b - - 0 1'
	assert_success
	assert_line --index 0 'a2a3 a2a4 b1a3 b1c3 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g1f3 g1h3 g2g3 g2g4 h2h3 h2h4'
	[ "${lines[0]}" = "$(printf '%s\n' ${lines[0]} | sort | paste -sd' ')" ]
	assert_equal "${#lines[@]}" 2	# the mate's empty line is not in ${lines[@]}
	[ "$(printf '%s\n' "$output" | sed -n 2p)" = "" ]
	assert_line --index 1 --regexp '^P@a2 P@a3 .* e8f8$'
	run zhfen -v grandhouse --moves 'r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R[] w - - 0 1'
	assert_output --partial 'j3j5'
}

@test "zhfen: --check prints nothing and sets the status; -q silences the summary, not the errors; -o writes a file" {
	run --separate-stderr zhfen --check "$START[] w KQkq - 0 1"
	assert_success
	refute_output
	assert_equal "$stderr" "zhfen: checked 1 position: 1 valid, 0 invalid"
	run --separate-stderr zhfen -q "$START[] w KQkq - 0 1" "$START[K] w KQkq - 0 1"
	assert_failure 1
	assert_output "$START[] w KQkq - 0 1"
	assert_equal "$stderr" "zhfen: <arg>:2:45: error: pocket: 'K' is not allowed in a pocket"
	run zhfen -o "$BATS_TEST_TMPDIR/out" -t lichess "$START[] w KQkq - 0 1"
	assert_success
	refute_output
	assert_equal "$(cat "$BATS_TEST_TMPDIR/out")" "$START/ w KQkq - 0 1"
}

@test "zhfen: --json, one object per position, valid or not" {
	run --separate-stderr zhfen --json -t lichess "$START[] w KQkq - 0 1" "$START[K] w KQkq - 0 1"
	assert_failure 1
	assert_line --index 0 '{"file":"<arg>","line":1,"input":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1","valid":true,"from":"fairy","variant":"crazyhouse","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1","board":[["r","n","b","q","k","b","n","r"],["p","p","p","p","p","p","p","p"],[null,null,null,null,null,null,null,null],[null,null,null,null,null,null,null,null],[null,null,null,null,null,null,null,null],[null,null,null,null,null,null,null,null],["P","P","P","P","P","P","P","P"],["R","N","B","Q","K","B","N","R"]],"pockets":{"white":{},"black":{}},"promoted":[],"side":"white","castling":"KQkq","ep":null,"halfmove":0,"fullmove":1,"in_check":false,"legal_moves":20,"status":"ongoing"}'
	assert_line --index 1 '{"file":"<arg>","line":2,"input":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[K] w KQkq - 0 1","valid":false,"error":{"line":2,"col":45,"ply":0,"code":"syntax","message":"pocket: '"'"'K'"'"' is not allowed in a pocket","severity":"error"}}'
	run zhfen --json --moves -v chess '7k/6Q1/6K1/8/8/8/8/8 b - - 0 1'
	assert_output --partial '"pockets":{"white":{},"black":{}},"promoted":[],"side":"black","castling":"-","ep":null,"halfmove":0,"fullmove":1,"in_check":true,"legal_moves":0,"status":"checkmate","moves":[]}'
	run zhfen --json 'rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR[] w KQkq d6 0 3' 'r2q1r1k/2p1ppb1/p2p2pp/3P1p2/B6B/2N2NPp/1PP2P1K/3Q3q w - - 0 26 NNBRpr h1'
	assert_line --index 0 --partial '"ep":"d6"'
	assert_line --index 1 --partial '"from":"chesscom"'
	assert_line --index 1 --partial '"promoted":["h1"]'
}

@test "zhfen: usage and I/O errors exit 2" {
	run zhfen --to auto x
	assert_failure 2
	run zhfen --to nonsense
	assert_failure 2
	assert_output --partial "unknown dialect 'nonsense'"
	run zhfen --variant 3check
	assert_failure 2
	run zhfen --bogus
	assert_failure 2
	run zhfen "$BATS_TEST_TMPDIR/missing"
	assert_failure 2
	assert_output --partial 'No such file'
	run zhfen -V
	assert_success
	assert_output --regexp '^zhfen \(zhkit\) '
	run zhfen -h
	assert_success
	assert_line --index 0 --partial 'usage: zhfen'
}

# --- interop ---

@test "zhfen: --to fairy is read by Fairy-Stockfish with the same perft 1 as zhperft" {
	local fs=/usr/games/fairy-stockfish v fen cmds want got
	[ -x "$fs" ] || skip "fairy-stockfish is not installed"
	for v in crazyhouse loop chessgi grand; do
		corpus "$v" | awk 'NR % 3 == 1' | head -40 > "$BATS_TEST_TMPDIR/s"
		[ -s "$BATS_TEST_TMPDIR/s" ]
		zhfen -v "$v" -t fairy "$BATS_TEST_TMPDIR/s" > "$BATS_TEST_TMPDIR/f"
		cmds="setoption name UCI_Variant value $v"$'\n'
		want=
		while IFS= read -r fen; do
			cmds+="position fen $fen"$'\n'"go perft 1"$'\n'
			want+="$(zhperft -v "$v" --fen "$fen" 1) "
		done < "$BATS_TEST_TMPDIR/f"
		got=$(printf 'uci\n%squit\n' "$cmds" | "$fs" 2>/dev/null |
		    sed -n 's/^Nodes searched: //p' | tr '\n' ' ')
		[ "$got" = "$want" ] || { echo "$v: fs [$got] zhperft [$want]"; return 1; }
	done
}

# --- manual pages ---

@test "zhfen: man pages zhfen.1 and zhkit.7 are lint-clean" {
	for m in "$ZH_TOP/man/zhfen.1" "$ZH_TOP/man/zhkit.7"; do
		run groff -mdoc -Tutf8 -ww -z "$m"
		assert_success
		refute_output
		if command -v mandoc >/dev/null; then
			run mandoc -Tlint -W warning "$m"
			refute_output
		fi
	done
}

@test "zhfen: every EXAMPLES command of zhfen.1 runs from the top of the repository" {
	local n=0 cmd
	while IFS= read -r cmd; do
		n=$((n + 1))
		run bash -c "cd '$ZH_TOP' && $cmd"
		[ "$status" -le 1 ] || { echo "failed: $cmd"; echo "$output"; return 1; }
	done < <(sed -n '/^\.Sh EXAMPLES/,/^\.Sh /s/^\.Dl \$ //p' "$ZH_TOP/man/zhfen.1" | sed 's/\\-/-/g; s/\\e/\\/g; s/\\(aq/'"'"'/g')
	[ "$n" -ge 3 ]
}

# Every position of every corpus game (zhreplay, per ply; the grand game
# is in the interop tests), written in each dialect A, converted to each
# other dialect B and back: the same text.
@test "zhfen: round trip A->B->A over every per-ply position of the PGN corpus" {
	local a b n
	for a in lichess xboard chesscom fairy; do
		# crazyhouse games (the chess ones replayed as crazyhouse too)
		zhreplay -q --variant crazyhouse --to "$a" $(ls "$TESTDATA"/pgn/*.pgn | grep -v grand) \
		    2>/dev/null | grep -v '^$' > "$BATS_TEST_TMPDIR/$a.fen" || true
		n=$(wc -l < "$BATS_TEST_TMPDIR/$a.fen")
		[ "$n" -gt 15000 ] || { echo "only $n positions"; return 1; }
		for b in lichess xboard chesscom fairy; do
			[ "$a" = "$b" ] && continue
			zhfen -q --from "$a" --to "$b" "$BATS_TEST_TMPDIR/$a.fen" > "$BATS_TEST_TMPDIR/ab"
			zhfen -q --from "$b" --to "$a" "$BATS_TEST_TMPDIR/ab" > "$BATS_TEST_TMPDIR/aba"
			# An en passant square no capture can use is a dialect's
			# choice (xboard writes every one, fairy those a pawn
			# attacks, lichess and chesscom the legal ones): the
			# position is the same, so that field is compared only
			# where B keeps at least what A wrote.
			case $a:$b in
			xboard:*|fairy:lichess|fairy:chesscom)
				awk '{ $4 = "-"; print }' "$BATS_TEST_TMPDIR/$a.fen" > "$BATS_TEST_TMPDIR/x1"
				awk '{ $4 = "-"; print }' "$BATS_TEST_TMPDIR/aba" > "$BATS_TEST_TMPDIR/x2" ;;
			*)
				cp "$BATS_TEST_TMPDIR/$a.fen" "$BATS_TEST_TMPDIR/x1"
				cp "$BATS_TEST_TMPDIR/aba" "$BATS_TEST_TMPDIR/x2" ;;
			esac
			cmp "$BATS_TEST_TMPDIR/x1" "$BATS_TEST_TMPDIR/x2" || { echo "$a -> $b -> $a differs"; return 1; }
		done
	done
}
