#!/usr/bin/env bats
# zhreplay and zhfen on bughouse (two boards, one game): the real games of
# testdata/bughouse/real replayed to the end and checked half-move by
# half-move against Fairy-Stockfish (tests/helpers/bughouse-fsf-replay.py, which
# replays each board with the engine and moves the captures itself); the
# output formats; two-board FENs through zhfen, their moves against the
# engine's, their errors at their columns.
bats_require_minimum_version 1.5.0
load common

REAL="$TESTDATA/bughouse/real"
FSF=$(command -v fairy-stockfish || command -v /usr/games/fairy-stockfish || true)
ORACLE="$ZH_TOP/tests/helpers/bughouse-fsf-replay.py"
SCHEMA="$ZH_TOP/man/zhkit-position.schema.json"
START='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1'

need_fsf() {
	[ -n "$FSF" ] || skip "fairy-stockfish not installed"
}

# The labelled half-moves of a BPGN file, counted in its text.
labels() {
	grep -oE '(^|[ }])[0-9]+[AaBb]\.' "$1" | wc -l
}

@test "bughouse replay: the real games replay to the end, every half-move and the start" {
	for f in "$REAL"/*.bpgn; do
		run zhreplay -F fen "$f"
		assert_success
		n=$(labels "$f")
		# one line per position and the game's blank line
		[ "$(printf '%s\n' "$output" | grep -c ' | ')" -eq $((n + 1)) ]
	done
	[ "$(labels "$REAL/1934301.bpgn")" -eq 110 ]
	[ "$(labels "$REAL/1934660.bpgn")" -eq 107 ]
}

@test "bughouse replay: each final fenA | fenB is Fairy-Stockfish's (testdata/bughouse/real/*.final)" {
	for f in "$REAL"/*.bpgn; do
		# zhfen writes the engine's FEN in zhreplay's form (holdings'
		# order): the same position, written by one writer
		want=$(zhfen -t fairy "$(cat "${f%.bpgn}.final")")
		run zhreplay --final-only -t fairy "$f"
		assert_success
		assert_line --index 0 "$want"
	done
	# the mate on board B: the bishop dropped on g7, the holdings after
	run zhreplay --final-only -t fairy "$REAL/1934301.bpgn"
	assert_line --index 0 --partial '[Np] b K - 2 33 | r6r/1pp2QBp/'
}

@test "bughouse replay: Fairy-Stockfish agrees at every half-move of the real games (board by board, move in its legal list)" {
	need_fsf
	total=0
	for f in "$REAL"/*.bpgn; do
		run timeout 300 python3 "$ORACLE" "$ZH_TOP/bin/zhreplay" "$FSF" "$f"
		assert_success
		assert_line --index 0 "$(labels "$f") half-moves agree"
		# the oracle's final is the one kept in testdata
		assert_line --index 1 "final: $(cat "${f%.bpgn}.final")"
		total=$((total + $(labels "$f")))
	done
	[ "$total" -eq 225 ]
}

@test "bughouse replay: the oracle fails when zhreplay's holdings are wrong" {
	need_fsf
	# a zhreplay that adds a queen to board B's holdings after the 40th
	# half-move: the oracle must say where
	shim="$BATS_TEST_TMPDIR/zhreplay"
	cat > "$shim" <<EOF
#!/bin/sh
"$ZH_TOP/bin/zhreplay" "\$@" | sed '41s/\(| [^[]*\)\[/\1[Q/'
EOF
	chmod +x "$shim"
	run timeout 300 python3 "$ORACLE" "$shim" "$FSF" "$REAL/1934301.bpgn"
	assert_failure
	assert_output --partial 'board B'
	assert_output --partial 'after half-move 40'
}

@test "bughouse replay: -F uci and -F san write LABEL.MOVE, one line a game; the SAN line is BPGN movetext" {
	run zhreplay -F uci "$REAL/1283326.bpgn"
	assert_success
	assert_output '1A.e2e4 1B.e2e4 1a.g8f6 2A.b1c3 2a.b8c6 3A.d2d4 3a.e7e6 4A.e4e5'
	run zhreplay -F san "$REAL/1283326.bpgn"
	assert_output '1A.e4 1B.e4 1a.Nf6 2A.Nc3 2a.Nc6 3A.d4 3a.e6 4A.e5'
	# the labels and moves are the file's, in its order
	f=$REAL/1934660.bpgn
	diff <(zhreplay -F san "$f" | tr ' ' '\n' | tr -d '+#') \
	    <(sed 's/{[^}]*}//g; /^\[/d' "$f" | grep -oE '[0-9]+[AaBb]\. *[^ {]+' |
	    tr -d ' +#')
	# read back: the same game, valid
	for f in "$REAL"/1934301.bpgn "$REAL"/1934660.bpgn; do
		{ grep '^\[' "$f"; echo; zhreplay -F san "$f" | sed "s/\$/ $(sed -n 's/^\[Result "\(.*\)"\]/\1/p' "$f")/"; } > "$BATS_TEST_TMPDIR/g.bpgn"
		run zhcheck -q "$BATS_TEST_TMPDIR/g.bpgn"
		assert_success
		[ "$(zhreplay -F uci "$BATS_TEST_TMPDIR/g.bpgn")" = "$(zhreplay -F uci "$f")" ]
	done
}

@test "bughouse replay: --plies, --every, --start-only, --final-only count half-moves of both boards" {
	f=$REAL/1934301.bpgn
	all=$(zhreplay -F fen "$f")
	run zhreplay -F fen -p 5-7 "$f"
	assert_success
	[ "$output" = "$(printf '%s\n' "$all" | sed -n 6,8p)" ]
	run zhreplay -F fen -p 10- -e 25 "$f"
	[ "$output" = "$(printf '%s\n' "$all" | sed -n '11p;36p;61p;86p;111p')" ]
	run zhreplay -F fen --start-only "$f"
	[ "$output" = "$(printf '%s\n' "$all" | sed -n 1p)" ]
	run zhreplay -F fen --final-only "$f"
	[ "$output" = "$(printf '%s\n' "$all" | sed -n 111p)" ]
	run zhreplay -F uci -p 2-3 "$REAL/1283326.bpgn"
	assert_output '1B.e2e4 1a.g8f6'
	run zhreplay -F jsonl -p 110 "$f"
	[ "$(jq -r '.ply, .move.label, .move.san' <<<"$output" | tr '\n' ' ')" = '110 23B B@g7# ' ]
}

@test "bughouse replay: -F epd writes each board's four fields" {
	run zhreplay -F epd -t lichess --final-only "$REAL/1283326.bpgn"
	assert_success
	assert_output 'r1bqkb1r/pppp1ppp/2n1pn2/4P3/3P4/2N5/PPP2PPP/R1BQKBNR/ b KQkq - | rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR/ b KQkq -'
}

@test "bughouse replay: -F jsonl fits the schema (\$defs/bughouse) and says both boards" {
	for f in "$REAL"/*.bpgn; do
		zhreplay -F jsonl "$f"
	done > "$BATS_TEST_TMPDIR/j"
	run python3 "$ZH_TOP/tests/helpers/check-json.py" "$SCHEMA" "$BATS_TEST_TMPDIR/j" bughouse
	assert_success
	assert_output --partial '228 objects fit'
	j=$BATS_TEST_TMPDIR/j
	# the two-board FEN is the boards' FENs joined
	[ "$(jq -r 'select(.fen != (.boards[0].fen + " | " + .boards[1].fen)) | .ply' "$j")" = "" ]
	# each board's holdings are its FEN's (lichess form: a 9th rank)
	[ "$(jq -r '.boards[] | [(.pockets.white | to_entries | map(.key * .value) | join("")),
	    (.pockets.black | to_entries | map(.key * .value) | join("") | ascii_downcase),
	    (.fen | split(" ")[0] | split("/")[8])] |
	    select((.[0] + .[1] | explode | sort) != (.[2] | explode | sort)) | 1' "$j")" = "" ]
	# the mate: on board B (23B. B@g7#{72.284}), both boards in check
	# (a knight on d6 checks e8 on A), the clock, the result
	run jq -c 'select(.ply == 110) | [.move.board, .move.mover, .move.label, .boards[1].in_check, .boards[0].in_check, .boards[1].side, .clock, .result]' "$j"
	assert_output '["B","white","23B",true,true,"black",72.284,"1-0"]'
	# the start has no move, both boards white to move
	run jq -c 'select(.ply == 0) | [.move, .boards[0].side, .boards[1].side]' "$j"
	assert_line --index 0 '[null,"white","white"]'
	# the label and board agree with the UCI line
	[ "$(jq -r 'select(.move) | .move.label + "." + .move.uci' "$j" | head -8 | tr '\n' ' ')" = \
	    "$(zhreplay -F uci "$REAL/1283326.bpgn") " ]
	# a promoted piece: marked on its board
	run jq -c 'select(.ply == 102) | .boards[0].promoted' "$j"
	assert_line --index 0 '["c8"]'
}

@test "bughouse replay: -F board puts the diagrams side by side, the last move marked on its board only" {
	run zhreplay -F board -p 3 "$REAL/1283326.bpgn"
	assert_success
	assert_line --index 0 'game 1, half-move 3: 1a. Nf6, board A'
	# 13 lines: the head, 11 diagram lines side by side, the FEN
	[ "${#lines[@]}" -eq 13 ]
	assert_line --index 12 'rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR/ w KQkq - 1 2 | rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR/ b KQkq - 0 1'
	# board B starts in one column on every line
	col() {
		python3 -c '
import re, sys
rows = [re.sub(r"\x1b\[[0-9;]*m", "", l.rstrip("\n")) for l in sys.stdin][1:12]
# where B starts: its border, after A and the gap
c = rows[0].index("   +", 4)
ok = all(re.match(r"( [1-8] \||   \+-+\+|     a  b|     h  g)", r[c:]) for r in rows)
print(c if ok else "ragged")'
	}
	c=$(printf '%s\n' "${lines[@]}" | col)
	[[ "$c" =~ ^[0-9]+$ ]]
	# [x] marks: g8 and f6 on board A (left), none on B
	[ "$(printf '%s\n' "${lines[@]:1:11}" | cut -c1-$c | grep -o '\[.\]' | wc -l)" -eq 2 ]
	[ "$(printf '%s\n' "${lines[@]:1:11}" | cut -c$((c + 1))- | grep -c '\[.\]')" -eq 0 ]
	# the next half-move is on B: B's marked, A's not
	run zhreplay -F board -p 2 "$REAL/1283326.bpgn"
	[ "$(printf '%s\n' "${lines[@]:1:11}" | cut -c1-$c | grep -c '\[.\]')" -eq 0 ]
	[ "$(printf '%s\n' "${lines[@]:1:11}" | cut -c$((c + 1))- | grep -o '\[.\]' | wc -l)" -eq 2 ]
	# with colours and Unicode pieces, B still starts in one column
	run zhreplay -F board --color always -p 3 "$REAL/1283326.bpgn"
	assert_success
	[[ "$output" == *$'\033['* ]]
	[ "$(printf '%s\n' "${lines[@]}" | col)" = "$c" ]
	run env LC_ALL=C.UTF-8 "$ZH_TOP/bin/zhreplay" -F board --color always -p 3 "$REAL/1283326.bpgn"
	[[ "$output" == *♞* ]]
	[ "$(printf '%s\n' "${lines[@]}" | col)" = "$c" ]
}

@test "bughouse replay: -F ucipos is refused per game (exit 1), the other games still written" {
	run zhreplay -F ucipos "$REAL/1283326.bpgn" "$TESTDATA/pgn/fatics-zh.pgn"
	assert_failure 1
	assert_output --partial "1283326.bpgn:1:1: error: game 1: -F ucipos: a bughouse board cannot be replayed alone"
	run --separate-stderr zhreplay -F ucipos "$REAL"/*.bpgn
	assert_failure 1
	[ "$output" = "" ]
	[ "$(grep -c 'error: game 1: -F ucipos' <<<"$stderr")" -eq 3 ]
}

@test "bughouse replay: an invalid game: its positions up to the error, 'ply N on board A', exit 1, \"valid\":false" {
	printf '[Event "x"]\n[WhiteA "a"][BlackA "b"][WhiteB "c"][BlackB "d"]\n\n1A. e4 1B. d4 1a. Q@e3 2A. Nf3 *\n' \
	    > "$BATS_TEST_TMPDIR/bad.bpgn"
	run --separate-stderr zhreplay -F fen "$BATS_TEST_TMPDIR/bad.bpgn"
	assert_failure 1
	[ "$(grep -c ' | ' <<<"$output")" -eq 3 ]
	[[ "$stderr" == *"bad.bpgn:4:19: error: game 1, ply 2 on board A: illegal drop 'Q@e3'"* ]]
	run --separate-stderr zhreplay -F jsonl "$BATS_TEST_TMPDIR/bad.bpgn"
	assert_failure 1
	[ "$(jq -r '.valid' <<<"$output" | sort -u)" = false ]
	printf '%s\n' "$output" > "$BATS_TEST_TMPDIR/j"
	run python3 "$ZH_TOP/tests/helpers/check-json.py" "$SCHEMA" "$BATS_TEST_TMPDIR/j" bughouse
	assert_success
	# a label out of turn: on board B, before any move there
	printf '[Event "x"]\n[WhiteA "a"][BlackA "b"][WhiteB "c"][BlackB "d"]\n\n1A. e4 1b. e5 *\n' \
	    > "$BATS_TEST_TMPDIR/lab.bpgn"
	run --separate-stderr zhreplay -F uci "$BATS_TEST_TMPDIR/lab.bpgn"
	assert_failure 1
	assert_output '1A.e2e4'
	output=$stderr
	assert_output --partial 'lab.bpgn:4:8: error: game 1, ply 1 on board B: label '"'"'1b.'"'"' out of turn'
}

@test "bughouse replay: -j 3 writes what -j 1 writes; the selection options still apply" {
	a=$(zhreplay -F jsonl "$REAL"/*.bpgn)
	b=$(zhreplay -j 3 -F jsonl "$REAL"/*.bpgn)
	[ "$a" = "$b" ]
	run --separate-stderr zhreplay -F uci --tag 'WhiteB = muggg' "$REAL"/*.bpgn
	assert_success
	[ "${#lines[@]}" -eq 1 ]
	[[ "${lines[0]}" == "1A."* ]]
}

# ======================== zhfen ========================

# Every two-board FEN of the real games (fairy form).
bfens() {
	for f in "$REAL"/*.bpgn; do
		zhreplay -F fen -t fairy "$f"
	done | grep ' | '
}

@test "zhfen bughouse: two-board FENs round-trip through every dialect" {
	bfens > "$BATS_TEST_TMPDIR/f"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/f")" -eq 228 ]
	for a in lichess xboard chesscom fairy; do
		zhfen -t "$a" "$BATS_TEST_TMPDIR/f" > "$BATS_TEST_TMPDIR/$a"
		[ "$(grep -c ' | ' "$BATS_TEST_TMPDIR/$a")" -eq 228 ]
	done
	for a in lichess xboard chesscom fairy; do
		for b in lichess xboard chesscom fairy; do
			zhfen -t "$a" "$BATS_TEST_TMPDIR/$b" > "$BATS_TEST_TMPDIR/back"
			cmp "$BATS_TEST_TMPDIR/$a" "$BATS_TEST_TMPDIR/back"
		done
	done
	cmp "$BATS_TEST_TMPDIR/f" "$BATS_TEST_TMPDIR/fairy"
	# each board is what the one-board reader makes of it
	run zhfen -t lichess -v bughouse "$(cut -d'|' -f2 <<<"$(sed -n 50p "$BATS_TEST_TMPDIR/f")" | sed 's/^ //')"
	assert_output "$(sed -n 50p "$BATS_TEST_TMPDIR/lichess" | sed 's/.* | //')"
	# -v bughouse names the variant that is assumed anyway
	[ "$(zhfen -v bughouse -t xboard "$BATS_TEST_TMPDIR/f")" = "$(cat "$BATS_TEST_TMPDIR/xboard")" ]
}

@test "zhfen bughouse: --moves of each board equals Fairy-Stockfish's perft 1 (every position of the real games)" {
	need_fsf
	bfens > "$BATS_TEST_TMPDIR/f"
	zhfen -m "$BATS_TEST_TMPDIR/f" > "$BATS_TEST_TMPDIR/m"
	[ "$(grep -c ' | ' "$BATS_TEST_TMPDIR/m")" -eq 228 ]
	run timeout 300 python3 - "$FSF" "$BATS_TEST_TMPDIR/f" "$BATS_TEST_TMPDIR/m" <<'PY'
import re, subprocess, sys
fsf, fens, moves = sys.argv[1:4]
p = subprocess.Popen([fsf], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
def send(s):
    p.stdin.write(s + "\n"); p.stdin.flush()
def until(pre):
    out = []
    while True:
        l = p.stdout.readline()
        if not l:
            sys.exit("fairy-stockfish ended")
        out.append(l.strip())
        if l.startswith(pre):
            return out
send("uci"); until("uciok")
send("setoption name UCI_Variant value bughouse")
n = 0
for fl, ml in zip(open(fens), open(moves)):
    for fen, want in zip(fl.split("|"), ml.rstrip("\n").split(" | ")):
        send("position fen " + fen.strip())
        send("go perft 1")
        got = sorted(l.split(":")[0] for l in until("Nodes searched") if re.match(r"^[A-Za-z0-9@]+: 1$", l))
        if got != sorted(want.split()):
            sys.exit("%s: zhfen %s, fairy-stockfish %s" % (fen, want, " ".join(got)))
        n += 1
send("quit")
print("%d boards agree" % n)
PY
	assert_success
	assert_output '456 boards agree'
}

@test "zhfen bughouse: --moves writes A's list, ' | ', B's list; a board without a move has an empty list" {
	# board A: Black mated by a knight; board B: the start
	a='6rk/5Npp/8/8/8/8/8/6K1[] b - - 0 1'
	run zhfen -m "$a | $START"
	assert_success
	assert_output ' | a2a3 a2a4 b1a3 b1c3 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g1f3 g1h3 g2g3 g2g4 h2h3 h2h4'
}

@test "zhfen bughouse: one board with -v bughouse: a check a drop could block is not mate, a knight's is" {
	# back-rank rook check, empty holdings: crazyhouse says mate, bughouse
	# waits for a piece from the partner
	f='R5k1/5ppp/8/8/8/8/8/6K1[] b - - 0 1'
	run zhfen -J -v crazyhouse "$f"
	assert_output --partial '"legal_moves":0,"status":"checkmate"'
	run zhfen -J -v bughouse "$f"
	assert_output --partial '"variant":"bughouse"'
	assert_output --partial '"legal_moves":0,"status":"ongoing"'
	# a knight's check cannot be blocked: mate in both
	n='6rk/5Npp/8/8/8/8/8/6K1[] b - - 0 1'
	run zhfen -J -v bughouse "$n"
	assert_output --partial '"status":"checkmate"'
	# no move and no check: not stalemate either, the side waits
	s='7k/5Q2/6K1/8/8/8/8/8[] b - - 0 1'
	run zhfen -J -v crazyhouse "$s"
	assert_output --partial '"status":"stalemate"'
	run zhfen -J -v bughouse "$s"
	assert_output --partial '"legal_moves":0,"status":"ongoing"'
}

@test "zhfen bughouse: --json has both boards and fits the schema (\$defs/bfen)" {
	f=$(cat "$REAL/1934301.final")
	run zhfen -J -m -t lichess "$f"
	assert_success
	[ "$(jq -r '.valid, .from, .variant, (.boards | length), .boards[1].status, .boards[0].pockets.white.N' <<<"$output" | tr '\n' ' ')" = \
	    'true fairy bughouse 2 checkmate 1 ' ]
	[ "$(jq -r '.fen' <<<"$output")" = "$(zhfen -t lichess "$f")" ]
	[ "$(jq -r '.boards[0].moves | join(" ")' <<<"$output")" = "$(zhfen -m "$f" | sed 's/ | .*//')" ]
	{ printf '%s\n' "$output"; zhfen -J 'x | y' || true; zhfen -J "$START | $START"; } > "$BATS_TEST_TMPDIR/j"
	run python3 "$ZH_TOP/tests/helpers/check-json.py" "$SCHEMA" "$BATS_TEST_TMPDIR/j" bfen
	assert_success
	assert_output --partial '3 objects fit'
	run --separate-stderr zhfen -J 'x | y'
	[ "$(jq -c '[.valid, .error.col, .error.code]' <<<"$output")" = '[false,1,"syntax"]' ]
}

@test "zhfen bughouse: bad two-board FENs: the error and its column in the whole line" {
	# B's 34th character, after A (58) and " | " (3): column 95
	run zhfen "$START | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPX/RNBQKBNR[] w KQkq - 0 1"
	assert_failure 1
	assert_line --index 0 "zhfen: <arg>:1:95: error: board B: board: 'X' is not a piece of bughouse"
	# in board A: its own column
	run zhfen "rnbqkbnr/ppXppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1 | $START"
	assert_failure 1
	assert_line --index 0 --partial "zhfen: <arg>:1:12: error: board A:"
	# no blank around '|': B starts at 60
	run zhfen "$START|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] x KQkq - 0 1"
	assert_failure 1
	assert_line --index 0 --regexp '^zhfen: <arg>:1:(1[0-9][0-9]|9[0-9]): error: board B: '
	# a second '|'
	run zhfen "$START | $START | $START"
	assert_failure 1
	assert_line --index 0 "zhfen: <arg>:1:121: error: a two-board FEN has one '|'"
	# an empty board B
	run zhfen "$START | "
	assert_failure 1
	assert_line --index 0 --partial "zhfen: <arg>:1:"
	assert_line --index 0 --partial "error: board B:"
	# a one-board variant named: the '|' is the error
	run zhfen -v crazyhouse "$START | $START"
	assert_failure 1
	assert_line --index 0 "zhfen: <arg>:1:60: error: a two-board FEN is of a two-board variant, not crazyhouse"
	# from a file: line and column
	printf '%s | %s\n\n%s | 8/8/8/8/8/8/8/8[] w - - 0 1\n' "$START" "$START" "$START" > "$BATS_TEST_TMPDIR/f"
	run zhfen -c "$BATS_TEST_TMPDIR/f"
	assert_failure 1
	assert_line --index 0 --regexp "^zhfen: .*/f:3:62: error: board B: "
	assert_line --index 1 'zhfen: checked 2 positions: 1 valid, 1 invalid'
}

@test "bughouse replay: a two-board FEN tag: the labels go on from its move numbers, a capture fills the partner's holdings" {
	# board A: White holds a knight, drops it, takes e5 with it: the pawn
	# goes to Black on B (White A's partner), not to White on A
	f=$TESTDATA/bughouse/replay-setup.bpgn
	run zhreplay -F uci "$f"
	assert_success
	assert_output '5A.N@f3 7b.e7e5 5a.b8c6 8B.e2e4 6A.f3e5'
	run zhreplay -F fen -t fairy --start-only "$f"
	assert_output 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[N] w KQkq - 0 5 | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] b KQkq - 0 7'
	run zhreplay -F fen -t fairy --final-only "$f"
	assert_output 'r1bqkbnr/pppp1ppp/2n5/4N3/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 6 | rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[p] b KQkq - 0 8'
	run zhreplay -F jsonl --final-only "$f"
	[ "$(jq -c '[.ply, .move.label, .boards[1].pockets, .boards[0].pockets]' <<<"$output")" = \
	    '[5,"6A",{"white":{},"black":{"P":1}},{"white":{},"black":{}}]' ]
}
