#!/usr/bin/env bats
# FENs longer than 512 bytes (a pocket may hold up to 200 of a piece):
# every tool and format writes them whole, on 8x8 and 10x10 boards and
# in every dialect, against the text tests/helpers/long-fens.py puts
# together from the counts (python-chess cannot hold such pockets).
# Once zhfen -t xboard wrote past a 512-byte buffer, zhreplay -F board
# read past one, and -F fen/epd/jsonl and zhpgn's [FEN] cut at 511 bytes.
bats_require_minimum_version 1.5.0
load common

DIALECTS="lichess xboard chesscom fairy"
gen() { /usr/bin/python3 "$ZH_TOP/tests/helpers/long-fens.py" "$@"; }

# A game from the long FEN of $1 (variant) with one drop, $2 (SAN),
# its FEN in dialect $3.
game() {
	printf '[Event "long pockets"]\n[Site "?"]\n[Date "????.??.??"]\n'
	printf '[Round "?"]\n[White "a"]\n[Black "b"]\n[Result "*"]\n'
	printf '[Variant "%s"]\n[FEN "%s"]\n[SetUp "1"]\n\n1. %s *\n\n' \
	    "$1" "$(gen 200 "$1" "$3")" "$2"
}

@test "long FEN: zhfen writes 200 of every piece in hand whole, each dialect to each, 8x8 and 10x10" {
	for v in crazyhouse grandhouse; do
		for from in $DIALECTS; do
			gen 200 $v $from > "$BATS_TEST_TMPDIR/in"
			[ "$(wc -c < "$BATS_TEST_TMPDIR/in")" -gt 2000 ]
			for to in $DIALECTS; do
				run --separate-stderr zhfen -q -v $v -t $to "$BATS_TEST_TMPDIR/in"
				assert_success
				[ "$output" = "$(gen 200 $v $to)" ] || {
					echo "$v $from -> $to: ${#output} bytes"; false; }
			done
		done
	done
}

@test "long FEN: zhfen -J and --check take it whole" {
	gen 200 grandhouse xboard > "$BATS_TEST_TMPDIR/in"
	run --separate-stderr zhfen -q -J -v grandhouse -t fairy "$BATS_TEST_TMPDIR/in"
	assert_success
	got=$(printf '%s\n' "$output" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["fen"])')
	[ "$got" = "$(gen 200 grandhouse fairy)" ]
	run zhfen -c -v grandhouse "$BATS_TEST_TMPDIR/in"
	assert_success
}

@test "long FEN: two boards (bughouse) with big pockets, each dialect" {
	for d in $DIALECTS; do
		a=$(gen 200 crazyhouse $d) b=$(gen 150 crazyhouse $d)
		run --separate-stderr zhfen -q -v bughouse -t $d "$a | $b"
		assert_success
		[ "$output" = "$a | $b" ]
	done
}

@test "long FEN: zhreplay -F fen, epd, jsonl, board, ucipos from a long start, 8x8 and 10x10" {
	for v in crazyhouse grandhouse; do
		if [ $v = crazyhouse ]; then
			drop=Q@e3 after=rnbqkbnr/pppppppp/8/8/8/4Q3/PPPPPPPP/RNBQKBNR
		else
			drop=Q@e5 after=r8r/1nbqkcabn1/pppppppppp/10/10/4Q5/10/PPPPPPPPPP/1NBQKCABN1/R8R
		fi
		for d in $DIALECTS; do
			game $v $drop $d > "$BATS_TEST_TMPDIR/g.pgn"
			start=$(gen 200 $v $d) end=$(gen 200 $v $d Q=199 board=$after side=b clocks="1 1")
			# (a drop is no pawn move: the half-move clock counts it)
			run --separate-stderr zhreplay -q -F fen -t $d "$BATS_TEST_TMPDIR/g.pgn"
			assert_success
			[ "$output" = "$(printf '%s\n%s' "$start" "$end")" ] || {
				echo "$v $d fen: ${#output} bytes"; false; }
			run --separate-stderr zhreplay -q -F epd -t $d "$BATS_TEST_TMPDIR/g.pgn"
			assert_success
			[ "$output" = "$(printf '%s\n%s' "$(gen 200 $v $d epd)" \
			    "$(gen 200 $v $d epd Q=199 board=$after side=b)")" ]
			run --separate-stderr zhreplay -q -F jsonl -t $d "$BATS_TEST_TMPDIR/g.pgn"
			assert_success
			got=$(printf '%s\n' "$output" | /usr/bin/python3 -c 'import json,sys; print("\n".join(json.loads(l)["fen"] for l in sys.stdin))')
			[ "$got" = "$(printf '%s\n%s' "$start" "$end")" ]
			run --separate-stderr zhreplay -q -F board -t $d "$BATS_TEST_TMPDIR/g.pgn"
			assert_success
			# the FEN under each diagram
			[ "$(printf '%s\n' "$output" | grep -cxF -e "$start" -e "$end")" = 2 ]
		done
		run --separate-stderr zhreplay -q -F ucipos "$BATS_TEST_TMPDIR/g.pgn"
		assert_success
		[ "$output" = "position fen $(gen 200 $v fairy) moves $drop" ]
	done
}

@test "long FEN: zhreplay -F board diagrams draw every piece in hand of both sides, 8x8 and 10x10" {
	# in the C locale the diagram is ASCII: a letter for each piece
	for v in crazyhouse grandhouse; do
		game $v Q@e5 xboard > "$BATS_TEST_TMPDIR/g.pgn"
		[ $v = grandhouse ] || game $v Q@e3 xboard > "$BATS_TEST_TMPDIR/g.pgn"
		run --separate-stderr zhreplay -q -F board "$BATS_TEST_TMPDIR/g.pgn"
		assert_success
		for side in white black; do
			got=$(printf '%s\n' "$output" | grep "$side in hand" | tail -1 |
			    sed 's/.*in hand://' | fold -w1 | grep -v ' ' | sort | tr -d '\n')
			want=$(gen 200 $v lichess pocket Q=199 | fold -w1 | sort | tr -d '\n')
			if [ $side = white ]; then want=$(printf '%s' "$want" | tr -d 'a-z')
			else want=$(printf '%s' "$want" | tr -d 'A-Z'); fi
			[ "$got" = "$want" ] || { echo "$v $side: ${#got} of ${#want}"; false; }
		done
		# in a UTF-8 locale a glyph each (3 bytes): as many, both sides
		run --separate-stderr env LC_ALL=C.UTF-8 zhreplay -q -F board "$BATS_TEST_TMPDIR/g.pgn"
		assert_success
		k=$([ $v = grandhouse ] && echo 7 || echo 5)
		for side in white black; do
			n=$(printf '%s\n' "$output" | grep "$side in hand" | tail -1 |
			    sed 's/.*in hand://' | tr -s ' ' '\n' | grep -c .)
			want=$(( k * 200 )); [ $side = black ] || want=$(( want - 1 ))
			[ "$n" = "$want" ] || { echo "$v $side: $n"; false; }
		done
	done
}

@test "long FEN: zhpgn keeps the [FEN] tag whole in every dialect, and zhcheck takes the game" {
	for v in crazyhouse grandhouse; do
		for d in $DIALECTS; do
			game $v Q@e5 lichess > "$BATS_TEST_TMPDIR/g.pgn"
			run --separate-stderr zhpgn -q -t $d "$BATS_TEST_TMPDIR/g.pgn"
			assert_success
			printf '%s\n' "$output" | grep -qxF "[FEN \"$(gen 200 $v $d)\"]" || {
				echo "$v $d:"; printf '%s\n' "$output" | grep '^\[FEN' | head -c 300; false; }
		done
		run zhcheck -q "$BATS_TEST_TMPDIR/g.pgn"
		assert_success
	done
}

@test "long lines: zhperft reads a suite's id and epd lines whole, however long" {
	id=$(head -c 5000 /dev/zero | tr '\0' 'x')
	printf 'id %s\nepd %s\nperft 1 %s\n' "$id" "$(gen 200 crazyhouse xboard epd)" 0 > "$BATS_TEST_TMPDIR/suite"
	run --separate-stderr zhperft --suite "$BATS_TEST_TMPDIR/suite"
	# the count is wrong on purpose: the line names the whole id
	assert_failure 1
	[[ "$output" == *"$id depth 1"* ]]
	[[ "$output" != *"$id"x* ]]
}

@test "long text: a variation's path is whole however deep (40 levels), in -F jsonl and -F board" {
	/usr/bin/python3 - >"$BATS_TEST_TMPDIR/deep.pgn" <<'PY'
moves = ["d4", "c4", "Nf3", "Nc3", "b3", "g3", "f4", "b4", "g4", "a3"]
s, close = "1. e4 ", ""
for i in range(40):
    s += "( 1. %s " % moves[i % len(moves)]
    close += ") "
print('[Event "deep"]\n[Variant "crazyhouse"]\n\n' + s + close + "e5 *")
PY
	run --separate-stderr zhreplay -q -F jsonl --variations "$BATS_TEST_TMPDIR/deep.pgn"
	assert_success
	got=$(printf '%s\n' "$output" | /usr/bin/python3 -c 'import json,sys; print(" ".join(sorted({json.loads(l)["variation"] or "-" for l in sys.stdin}, key=lambda v: (len(v), v))))')
	want="-"
	p=""
	for i in $(seq 40); do p=${p:+$p.}1; want="$want $p"; done
	[ "$got" = "$want" ]
	run --separate-stderr zhreplay -q -F board --variations "$BATS_TEST_TMPDIR/deep.pgn"
	assert_success
	printf '%s\n' "$output" | grep -qxF "game 1, variation $p, ply 1: 1. a3"
}

@test "deep variations: all 300 levels walked with --limit depth=1000 (once cut at 256 without a word)" {
	/usr/bin/python3 - >"$BATS_TEST_TMPDIR/deep.pgn" <<'PY'
moves = ["d4", "c4", "Nf3", "Nc3", "b3", "g3", "f4", "b4", "g4", "a3"]
s, close = "1. e4 ", ""
for i in range(300):
    s += "( 1. %s " % moves[i % len(moves)]
    close += ") "
print('[Event "deep"]\n[Variant "crazyhouse"]\n\n' + s + close + "e5 *")
PY
	run --separate-stderr zhreplay -q -F uci --variations --limit depth=1000 "$BATS_TEST_TMPDIR/deep.pgn"
	assert_success
	# the mainline, then a line for each variation: its one move
	[ "$(printf '%s\n' "$output" | wc -l)" = 301 ]
	[ "$(printf '%s\n' "$output" | sed -n 301p)" = a2a3 ]
}
