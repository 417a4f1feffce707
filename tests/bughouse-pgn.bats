#!/usr/bin/env bats
# zhpgn on bughouse: BPGN in every dialect out as BPGN of another, as
# JSON (both boards, each half-move with its holdings), and as the two
# one-board PGNs of chess.com (--boards).  Inputs: testdata/bughouse
# (PROVENANCE.md): the real games of the corpus and games written by
# hand in four dialects.  The helpers take one file each, so that the
# generated games (testdata/bughouse/gen/*.bpgn, from another branch)
# can be looped over with them.

bats_require_minimum_version 1.5.0
load common

B="$TESTDATA/bughouse"
DIALECTS="lichess xboard chesscom fairy"

files() { printf '%s\n' "$B"/real/*.bpgn "$B"/hand/*.bpgn; }

# The half-moves of BPGN text as written, read with regular
# expressions, not by zhkit: "GAME LABEL SAN", SAN without '+'/'#' and
# a pawn drop as "@e4".
text_moves() {
	python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="latin-1").read()
for n, g in enumerate(re.split(r"\n(?=\[Event )", text.strip()), 1):
    body = re.sub(r"^\[.*\]\s*$", "", g, flags=re.M)
    body = re.sub(r"\{[^}]*\}", " ", body)
    for m in re.finditer(r"(\d+[AaBb])\.\s*([^\s{]+)", body):
        san = re.sub(r"^P@", "@", m.group(2).rstrip("+#"))
        print(n, m.group(1), san)
PY
}

# The same from zhpgn's JSON of file $1 (more zhpgn arguments after it).
json_moves() {
	local f=$1
	shift
	zhpgn -q --json "$@" "$f" | jq -r '.game as $g | .moves[] |
	    "\($g) \(.label) \(.san | sub("[+#]$"; "") | sub("^P@"; "@"))"'
}

# check_json FILE: every half-move of zhpgn --json FILE has the label,
# board, side and SAN of the text's, in the text's order, and a UCI that
# says the same move as the SAN (its target square, its drop, castling).
check_json() {
	local t=$BATS_TEST_TMPDIR
	text_moves "$1" >"$t/text"
	json_moves "$1" >"$t/json"
	[ -s "$t/text" ]
	diff "$t/text" "$t/json"
	zhpgn -q --json "$1" | python3 -c '
import json, re, sys
n = 0
for line in sys.stdin:
    for m in json.loads(line)["moves"]:
        lab, san, uci = m["label"], m["san"].rstrip("+#"), m["uci"]
        assert m["board"] == lab[-1].upper(), m
        assert m["mover"] == ("white" if lab[-1].isupper() else "black"), m
        w = m["mover"] == "white"
        if "@" in san:
            want = ("P" if san[0] in "@P" else san[0]) + "@" + san.split("@")[1]
            assert uci == want, m
        elif san.startswith("O-O-O"):
            assert uci == ("e1c1" if w else "e8c8"), m
        elif san.startswith("O-O"):
            assert uci == ("e1g1" if w else "e8g8"), m
        else:
            assert uci[2:4] == re.findall("[a-h][1-8]", san.split("=")[0])[-1], m
            if "=" in san:
                assert uci[4:] == san.split("=")[1].lower(), m
        n += 1
print(n, "half-moves")
'
}

# The moves and clocks of each board of each game, per line: board A,
# then B (from zhpgn --json of a BPGN file).
board_lists() {
	zhpgn -q --json "$1" | jq -c '
	    ([.moves[] | select(.board == "A") | [.san, .clock]]),
	    ([.moves[] | select(.board == "B") | [.san, .clock]])'
}

# roundtrip_dialects FILE: FILE written in each dialect validates, and
# reads back to the same half-moves (SAN, UCI, labels, clocks), in the
# same order, as FILE itself.
roundtrip_dialects() {
	local t=$BATS_TEST_TMPDIR d
	zhpgn -q --json "$1" | jq -c '[.moves[] | [.label, .san, .uci, .clock]]' \
	    >"$t/want"
	for d in $DIALECTS; do
		zhpgn -q -t "$d" "$1" >"$t/out.$d"
		zhcheck -q "$t/out.$d"
		zhpgn -q --json "$t/out.$d" |
		    jq -c '[.moves[] | [.label, .san, .uci, .clock]]' >"$t/got"
		diff "$t/want" "$t/got"
		# and back from that dialect to the first
		zhpgn -q "$t/out.$d" | zhpgn -q --json |
		    jq -c '[.moves[] | [.label, .san, .uci, .clock]]' >"$t/got"
		diff "$t/want" "$t/got"
	done
}

# json_roundtrip FILE: FILE -> JSON -> BPGN is FILE -> BPGN, the
# same text but for the blanks of comments (the JSON keeps a comment's
# trimmed text, and the reader gives it back as "{ text }") and so where
# lines break.
json_roundtrip() {
	local t=$BATS_TEST_TMPDIR d
	for d in lichess chesscom; do
		zhpgn -q -t "$d" "$1" | tr -s ' \n' ' ' >"$t/want"
		zhpgn -q --json -t "$d" "$1" | zhpgn -q -t "$d" | tr -s ' \n' ' ' |
		    sed 's/{ /{/g; s/ }/}/g' >"$t/got"
		[ "$(wc -c <"$t/want")" -gt 200 ]
		diff "$t/want" "$t/got"
	done
}

# boards_match FILE: --boards writes two one-board games per game, each
# valid for zhcheck, whose moves and clocks are that board's in FILE.
boards_match() {
	local t=$BATS_TEST_TMPDIR
	zhpgn -q --boards "$1" >"$t/boards.pgn"
	zhcheck -q "$t/boards.pgn"
	board_lists "$1" >"$t/want"
	zhpgn -q --json "$t/boards.pgn" | jq -c '[.moves[] | [.san, .clock]]' \
	    >"$t/got"
	diff "$t/want" "$t/got"
	# the Board tags alternate A, B
	[ "$(zhpgn -q --json "$t/boards.pgn" | jq -r .tags.Board | paste -sd ' ')" = \
	    "$(zhpgn -q --json "$1" | jq -r '"A B"' | paste -sd ' ')" ]
}

# schema_ok FILE: zhpgn --json (with and without --fens) fits the schema.
schema_ok() {
	local t=$BATS_TEST_TMPDIR
	{ zhpgn -q --json "$1"; zhpgn -q --json --fens "$1"; } >"$t/j.json"
	python3 "$ZH_TOP/tests/helpers/check-json.py" \
	    "$ZH_TOP/man/zhkit-game.schema.json" "$t/j.json"
}

@test "bughouse-pgn: every file's games are valid bughouse games for zhcheck" {
	run zhcheck $(files)
	assert_success
	assert_output --partial 'checked 11 games: 11 valid'
}

@test "bughouse-pgn: --json has every half-move of the text, in order, with its label, board, side, SAN and UCI" {
	local f
	for f in $(files); do
		run check_json "$f"
		assert_success
	done
	# as many as the labels grep counts (the corpus's PROVENANCE.md
	# says 113 for 1934301: its labels are 110)
	run check_json "$B/real/1934301.bpgn"
	assert_output "$(grep -o '[0-9]*[AaBb]\. ' "$B/real/1934301.bpgn" | wc -l) half-moves"
	assert_output '110 half-moves'
}

@test "bughouse-pgn: --json's holdings of both boards after a half-move, as worked out by hand" {
	local j
	j=$(zhpgn -q --json "$B/hand/chesscom.bpgn" | head -1)
	# 2A. exd5: a black pawn to Black on B
	run jq -c '.moves[3] | [.label, .pockets]' <<<"$j"
	assert_output '["2A",{"A":{"white":{},"black":{}},"B":{"white":{},"black":{"P":1}}}]'
	# 2b. P@e4 spends it; 2a. Qxd5 gives White on B a pawn
	run jq -c '.moves[6,7] | [.label, .san, .pockets.B]' <<<"$j"
	assert_line --index 0 '["2b","P@e4",{"white":{},"black":{}}]'
	assert_line --index 1 '["2a","Qxd5",{"white":{"P":1},"black":{}}]'
	# 4b. exf3: a white knight to White on A, who drops it at once
	run jq -c '.moves[13,14] | [.label, .pockets.A.white]' <<<"$j"
	assert_line --index 0 '["4b",{"N":1}]'
	assert_line --index 1 '["4A",{}]'
	# the clocks as numbers, the comment of 4A, the game's first comment
	run jq -c '[.moves[0].clock, .moves[14].comment, .comment, .board_count]' <<<"$j"
	assert_output '[179.5,"A: a knight from board B","C: written by hand for tests/bughouse-pgn.bats",2]'
	# a two-board FEN start, and with --fens the two boards after each
	run bash -c "zhpgn -q --json --fens '$B/hand/fairy.bpgn' | tail -1 | jq -r '.start, .moves[0].fen'"
	assert_line --index 0 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/N w KQkq - 0 1 | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/pp w KQkq - 0 1'
	assert_line --index 1 'rnbqkbnr/pppppppp/8/4N3/8/8/PPPPPPPP/RNBQKBNR/ b KQkq - 1 1 | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/pp w KQkq - 0 1'
}

@test "bughouse-pgn: BPGN -> BPGN in each dialect -> BPGN gives the same half-moves and clocks" {
	local f
	for f in $(files); do
		run roundtrip_dialects "$f"
		assert_success
	done
}

@test "bughouse-pgn: each dialect's forms: pawn drops, clocks, the two-board FEN; Elo on the player's line; 80 columns" {
	local f=$B/hand/lichess.bpgn
	run zhpgn -q -t chesscom "$f"
	assert_output --partial '2b. @e4 {[%clk 0:02:55.10]}'
	assert_output --partial '[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 N | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 pp"]'
	run zhpgn -q -t xboard "$B/hand/chesscom.bpgn"
	assert_output --partial '2b. P@e4 {175.1}'
	assert_output --partial '[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[N] w KQkq - 0 1 | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[pp] w KQkq - 0 1"]'
	run bash -c "zhpgn -q '$B/real/1934301.bpgn' | tr '\n' ' '"
	assert_output --partial '[WhiteA "Rabbos"][WhiteAElo "0"] [BlackA'
	assert_output --partial '23B. B@g7# {72.284} {BobBughouse checkmated} 1-0'
	run zhpgn -q "$B/real/1934301.bpgn"
	assert_line --index 3 '[WhiteA "Rabbos"][WhiteAElo "0"]'
	assert_line --index 6 '[BlackB "BobBughouse"][BlackBElo "0"]'
	# the Result as given (the board where it ended), never scored again
	assert_output --partial '[Result "1-0"]'
	assert_output --regexp '\{BobBughouse checkmated\} 1-0$'
	run bash -c "zhpgn -q -t chesscom '$B/real/1934660.bpgn' | grep -v '^\[' | awk 'length > 80'"
	assert_output ''
	run bash -c "zhpgn -q '$B/real/1934660.bpgn' | grep -c '^\[Result \"0-1\"\]'"
	assert_output 1
	# a negative clock (FICS lag): seconds as given; [%clk] has none
	sed 's/{140}/{-0.576}/' "$f" >"$BATS_TEST_TMPDIR/neg.bpgn"
	run zhpgn -q "$BATS_TEST_TMPDIR/neg.bpgn"
	assert_output --partial '8B. Bxh4 {-0.576}'
	run bash -c "zhpgn -q -t chesscom '$BATS_TEST_TMPDIR/neg.bpgn' | tr '\n' ' '"
	assert_output --partial '8B. Bxh4 {[%clk 0:00:00.000]}'
	zhpgn -q --json "$BATS_TEST_TMPDIR/neg.bpgn" | head -1 >"$BATS_TEST_TMPDIR/neg.json"
	run jq '.moves[] | select(.label == "8B") | .clock' "$BATS_TEST_TMPDIR/neg.json"
	assert_output '-0.576'
}

@test "bughouse-pgn: BPGN -> JSON -> BPGN gives the same game back (labels, moves, clocks, comments, tags, result)" {
	local f
	for f in $(files); do
		run json_roundtrip "$f"
		assert_success
	done
	# a label that is none is an error of that line, not a crash
	run bash -c "zhpgn -q --json '$B/hand/fairy.bpgn' | head -1 |
	    jq -c '.moves[2].label = \"x1\"' | zhpgn -q"
	assert_failure 1
	assert_output --partial 'move 3: "label" is not a board label'
}

@test "bughouse-pgn: --boards writes each board as a one-board PGN that zhcheck validates, with that board's moves and clocks" {
	local f
	for f in $(files); do
		run boards_match "$f"
		assert_success
	done
}

@test "bughouse-pgn: --boards: players, team-consistent results, Termination, PartnerGame, [%clk], move numbers" {
	local t=$BATS_TEST_TMPDIR
	# BobBughouse (Black on B) is mated: White A and Black B lost
	zhpgn -q --boards "$B/real/1934301.bpgn" >"$t/b.pgn"
	run bash -c "grep -E '^\[(White|Black|Result|Board|PartnerGame|Termination|Variant) ' '$t/b.pgn'"
	assert_output - <<'EOF'
[White "Rabbos"]
[Black "Stesox"]
[Result "0-1"]
[Variant "Bughouse"]
[Board "A"]
[PartnerGame "freechess.org 2021-10-05 16:45:40 #1 B"]
[Termination "Stesox won with their bughouse partner"]
[White "Giomaxxim"]
[Black "BobBughouse"]
[Result "1-0"]
[Variant "Bughouse"]
[Board "B"]
[PartnerGame "freechess.org 2021-10-05 16:45:40 #1 A"]
[Termination "Giomaxxim won by checkmate"]
EOF
	run bash -c "tr '\n' ' ' <'$t/b.pgn'"
	# [%ts]: what both players of the board used, 300 s each (on B
	# at 23. B@g7#: 300 - 72.284 + 300 - 178.996 s)
	assert_output --partial '1. e4 {[%clk 0:04:56.208] [%ts 3.792]} e5 {[%clk 0:04:57.924] [%ts 5.868]} 2. Nf3'
	assert_output --partial '23. B@g7# {[%clk 0:01:12.284] [%ts 348.720]} {BobBughouse checkmated} 1-0'
	assert_output --partial '19. Q@e6+ {[%clk 0:01:34.205] [%ts 303.459]} Kxg7 {[%clk 0:03:19.869] [%ts 305.926]}'
	assert_output --partial '1. d4 {[%clk 0:04:58.210] [%ts 1.790]} Nf6'
	# muggg (White on B) forfeits: White A and Black B won
	run bash -c "zhpgn -q --boards -t chesscom '$B/real/1934660.bpgn' | grep -E '^\[(Result|Termination) '"
	assert_output - <<'EOF'
[Result "1-0"]
[Termination "Bugfish won with their bughouse partner"]
[Result "0-1"]
[Termination "WEBDubois won on time"]
EOF
	run bash -c "zhpgn -q --boards -t chesscom '$B/real/1934660.bpgn' | grep -c ' @'"
	assert_output --regexp '^[1-9]'
	# a game from a two-board FEN: each board's own FEN
	run bash -c "zhpgn -q --boards '$B/hand/xboard.bpgn' | grep -E '^\[(FEN|SetUp) '"
	assert_output - <<'EOF'
[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/N w KQkq - 0 1"]
[SetUp "1"]
[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/pp w KQkq - 0 1"]
[SetUp "1"]
EOF
	# one board read back is written as one board again
	zhpgn -q --boards "$B/hand/lichess.bpgn" | zhpgn -q >"$t/again.pgn"
	zhpgn -q --boards "$B/hand/lichess.bpgn" | diff - "$t/again.pgn"
}

@test "bughouse-pgn: --json fits man/zhkit-game.schema.json, and the schema tells a broken bughouse object" {
	local f
	for f in $(files); do
		run schema_ok "$f"
		assert_success
	done
	zhpgn -q --json "$B/hand/fairy.bpgn" | jq -c 'del(.moves[3].pockets)' \
	    >"$BATS_TEST_TMPDIR/bad.json"
	run python3 "$ZH_TOP/tests/helpers/check-json.py" \
	    "$ZH_TOP/man/zhkit-game.schema.json" "$BATS_TEST_TMPDIR/bad.json"
	assert_failure
	assert_output --partial "'pockets' missing"
}

@test "bughouse-pgn: an illegal drop: the error names ply and board, the game is rejected, exit 1; the others are written" {
	local t=$BATS_TEST_TMPDIR f=$BATS_TEST_TMPDIR/bad.bpgn line col
	# Black on B holds no knight at 2b
	sed 's/2b\. P@e4/2b. N@e4/' "$B/hand/lichess.bpgn" >"$f"
	line=$(grep -n '2b\. N@e4' "$f" | cut -d: -f1)
	col=$(awk -v l="$line" 'NR == l { print index($0, "N@e4") }' "$f")
	run --separate-stderr zhpgn -r "$t/rej.pgn" "$f"
	assert_failure 1
	assert_equal "${stderr_lines[0]}" "zhpgn: $f:$line:$col: error: game 1, ply 4 on board B: illegal drop 'N@e4': no knight in Black's holdings (holdings: P); game rejected"
	assert_output --partial 'Hand-made bughouse game from a two-board FEN'
	refute_output --partial '[Event "Hand-made bughouse game"]'
	run grep -c 'N@e4' "$t/rej.pgn"
	assert_output 1
	# the six half-moves played, then the movetext from the illegal
	# drop on, unplayed ("uci": null), for the reader to read back
	run bash -c "zhpgn -q --json '$f' 2>/dev/null | head -1 | jq -c '[.valid, .errors[0].code, .errors[0].ply, .errors[0].board, (.moves | map(select(.uci != null)) | length), .moves[6].label, .moves[6].san]'"
	assert_output '[false,"illegal-drop",4,"B",6,"2b","N@e4"]'
	run zhpgn -q --boards "$f"
	assert_failure 1
}

@test "bughouse-pgn: -j 2 writes what -j 1 writes (BPGN, chess.com, JSON with FENs, --boards)" {
	local t=$BATS_TEST_TMPDIR i a
	for i in $(seq 40); do cat $(files); echo; done >"$t/many.bpgn"
	for a in "" "-t chesscom" "--json --fens" "--boards"; do
		# shellcheck disable=SC2086
		zhpgn -q -j 1 $a "$t/many.bpgn" >"$t/one"
		# shellcheck disable=SC2086
		zhpgn -q -j 2 $a "$t/many.bpgn" >"$t/two"
		cmp "$t/one" "$t/two"
		[ "$(wc -c <"$t/one")" -gt 100000 ]
	done
}

@test "bughouse-pgn: --boards is for PGN: not with --json; --help and the man page say it" {
	run zhpgn --boards --json "$B/hand/lichess.bpgn"
	assert_failure 2
	assert_output --partial '--boards writes PGN'
	run zhpgn --help
	assert_output --partial '--boards'
	run grep -c -- 'boards' "$ZH_TOP/man/zhpgn.1"
	assert_output --regexp '^[1-9]'
}

@test "bughouse-pgn: a stream of crazyhouse and bughouse games: each written its way, --boards leaves the others as they were" {
	local t=$BATS_TEST_TMPDIR p=$TESTDATA/pgn/lichess-2018-JannLee-CrazyAra.pgn
	cat "$p" "$B/hand/xboard.bpgn" >"$t/mixed.pgn"
	zhpgn -q --json "$t/mixed.pgn" >"$t/mixed.json"
	run jq -c '[.variant, .board_count]' "$t/mixed.json"
	assert_output - <<'EOF'
["crazyhouse",null]
["bughouse",2]
["bughouse",2]
EOF
	run python3 "$ZH_TOP/tests/helpers/check-json.py" "$ZH_TOP/man/zhkit-game.schema.json" "$t/mixed.json"
	assert_success
	run bash -c "zhpgn -q --boards '$p' | cmp - <(zhpgn -q '$p')"
	assert_success
	run bash -c "zhpgn -q --boards '$t/mixed.pgn' | grep -c '^\[Board '"
	assert_output 4
}
