#!/usr/bin/env bats
# zhcheck on bughouse (BPGN): real FICS games and 300 generated games in
# four dialects validate; the broken copies are flagged at the line,
# column, ply and board their generator recorded; results are read under
# both conventions and the one a file uses is said.  The generated games
# and their answers come from Fairy-Stockfish (testdata/bughouse/
# PROVENANCE.md), not from zhkit.

bats_require_minimum_version 1.5.0
load common

setup() {
	B=$TESTDATA/bughouse
	cd "$BATS_TEST_TMPDIR" || return 1
}

@test "bughouse: the real FICS games validate, to their last half-move" {
	run -0 --separate-stderr zhcheck --json "$B"/real/*.bpgn
	[ "$(jq -rs 'map("\(.variant) \(.plies) \(.board_plies|join("+")) \(.valid) \(.errors|length)")|join(",")' <<<"$output")" = \
	    "bughouse 8 7+1 true 0,bughouse 110 65+45 true 0,bughouse 107 69+38 true 0" ]
}

@test "bughouse: the real games' results are read as the result of the board where the game ended" {
	run -0 --separate-stderr zhcheck --json "$B"/real/*.bpgn
	# 1934301: {BobBughouse checkmated} 1-0, BobBughouse Black on B, mated
	# by 23B. B@g7#; 1934660: {muggg forfeits on time} 0-1, muggg White on B
	[ "$(jq -rs 'map("\(.ending.how // "-")/\(.ending.board // "-")/\(.ending.loser // "-") \(.result_convention)")|join(",")' <<<"$output")" = \
	    "abort/-/- null,checkmate/B/black board,time/B/white board" ]
}

@test "bughouse: 300 generated games in each of four dialects are valid, with no warning" {
	local f
	for f in bughousedb bughousedb-org chesscom pychess; do
		run -0 --separate-stderr zhcheck "$B/gen/$f.bpgn"
		[ "${stderr_lines[1]}" = "zhcheck: checked 300 games: 300 valid, 0 invalid (0 warnings)" ]
	done
}

@test "bughouse: zhcheck says which result convention a file uses" {
	run -0 --separate-stderr zhcheck "$B/gen/bughousedb.bpgn"
	[ "${stderr_lines[0]}" = "zhcheck: $B/gen/bughousedb.bpgn: note: 148 bughouse Results are the result of the board where the game ended (152 more read the same both ways)" ]
	run -0 --separate-stderr zhcheck "$B/gen/chesscom.bpgn"
	[ "${stderr_lines[0]}" = "zhcheck: $B/gen/chesscom.bpgn: note: 148 bughouse Results are the team's, 1-0 when White A and Black B won (152 more read the same both ways)" ]
	cat "$B/gen/chesscom.bpgn" "$B/gen/bughousedb.bpgn" >mixed.bpgn
	run -0 --separate-stderr zhcheck mixed.bpgn
	[ "${stderr_lines[0]}" = "zhcheck: mixed.bpgn: note: bughouse Results mixed: 148 the result of the board where the game ended, 148 the team's (1-0: White A and Black B won), 304 either" ]
	run -0 --separate-stderr zhcheck -q "$B/gen/chesscom.bpgn"
	[ -z "$stderr" ]
}

@test "bughouse: every generated game has the half-moves of its answers, board by board" {
	local f want
	want=$(jq -r '[(.moves|length), ([.moves[]|select(.board=="A")]|length), ([.moves[]|select(.board=="B")]|length)]|join(" ")' "$B/gen/answers.jsonl")
	for f in bughousedb bughousedb-org chesscom pychess; do
		[ "$(zhcheck --json "$B/gen/$f.bpgn" 2>/dev/null | jq -r '[.plies, .board_plies[0], .board_plies[1]]|join(" ")')" = "$want" ]
	done
}

@test "bughouse: the generated answers are Fairy-Stockfish's legal moves (the oracle itself)" {
	command -v /usr/games/fairy-stockfish >/dev/null || skip "fairy-stockfish not installed"
	run -0 python3 "$ZH_TOP/tests/helpers/check-bughouse-fsf.py" <"$B/gen/answers.jsonl"
	assert_output "ok 21361"
}

@test "bughouse: each file's result convention: board for bughousedb.com, team for the others" {
	local f
	# a game that ends on board A reads the same either way
	for f in bughousedb:board bughousedb-org:team chesscom:team pychess:team; do
		[ "$(zhcheck --json "$B/gen/${f%%:*}.bpgn" 2>/dev/null |
		    jq -r 'select(.result_convention != null and .result_convention != "either")|.result_convention' | sort -u)" = "${f#*:}" ]
	done
	# and they agree with the generator's: the board one where the game
	# ended on B, either where it ended on A
	[ "$(zhcheck --json "$B/gen/bughousedb.bpgn" 2>/dev/null | jq -r .result_convention | paste -sd' ')" = \
	    "$(jq -r 'if .end_board == "B" then "board" else "either" end' "$B/gen/answers.jsonl" | paste -sd' ')" ]
}

@test "bughouse: every broken copy is flagged where its generator put the defect, and nothing else" {
	run -0 python3 "$ZH_TOP/tests/helpers/check-broken.py" "$B/broken/answers.tsv" "$B/broken"
	assert_output "75 answers, 0 wrong"
	run -0 python3 "$ZH_TOP/tests/helpers/check-broken.py" "$B/broken/answers.tsv" "$B/broken" --strict
	assert_output "75 answers, 0 wrong"
}

@test "bughouse: a diagnostic names the board and that board's ply, exit 1" {
	run -1 --separate-stderr zhcheck "$B/broken/drop-not-held.bpgn"
	[[ ${stderr_lines[0]} == "zhcheck: $B/broken/drop-not-held.bpgn:13:713: error: game 1, ply 18 on board B: illegal drop 'R@f5': no rook in Black's holdings (holdings: QP)" ]]
	run -1 --separate-stderr zhcheck "$B/broken/out-of-turn.bpgn"
	[[ ${stderr_lines[0]} == *":13:68: error: game 1, ply 4 on board B: label '3B.' out of turn: board B is at 2b. (Black to move)" ]]
	run -0 --separate-stderr zhcheck "$B/broken/false-mate.bpgn"
	[[ ${stderr_lines[0]} == *":13:346: warning: game 1, ply 11 on board B: 'Qg6#' is marked '#' but is not mate in bughouse: a drop could block the check [-Wcheck-suffix]" ]]
	[[ ${stderr_lines[1]} == *":14:22: warning: game 1, board B: the game is scored as a checkmate of Black on board B, but a drop could block the check: not mate in bughouse [-Wresult]" ]]
	run -1 zhcheck -q --strict "$B/broken/false-mate.bpgn"
	run -0 zhcheck -q -Wno-check-suffix -Wno-result "$B/broken/false-mate.bpgn"
	assert_output ""
}

@test "bughouse: zhcheck --json fits the schema, and -j 2 reports what -j 1 does" {
	local f
	for f in "$B"/real/*.bpgn "$B"/gen/*.bpgn "$B"/broken/*.bpgn; do
		zhcheck --json -j 1 "$f" >one.jsonl 2>/dev/null || :
		zhcheck --json -j 2 "$f" >two.jsonl 2>/dev/null || :
		cmp one.jsonl two.jsonl
		python3 "$ZH_TOP/tests/helpers/check-json.py" "$ZH_TOP/man/zhkit-game.schema.json" one.jsonl check >/dev/null
	done
}

@test "bughouse: the result against the ending, and a move after a mate" {
	hdr() { printf '[Event "x"]\n[Site "x"]\n[Date "2024.01.01"]\n[WhiteA "wa"]\n[BlackA "ba"]\n[WhiteB "wb"]\n[BlackB "bb"]\n[Result "%s"]\n\n' "$1"; }
	# fool's mate is no mate in bughouse: a drop on f2 or g3 blocks it
	{ hdr 0-1; echo '1A. f3 1a. e5 2A. g4 2a. Qh4# 0-1'; } >m.bpgn
	run -0 --separate-stderr zhcheck m.bpgn
	[[ ${stderr_lines[0]} == *"m.bpgn:10:26: warning: game 1, ply 4 on board A: 'Qh4#' is marked '#' but is not mate in bughouse: a drop could block the check [-Wcheck-suffix]" ]]
	# 1934301 ends 23B. B@g7#, a real mate (a contact check): a draw is
	# wrong both ways, 0-1 is the team's result, and nothing may follow
	sed -e 's/} 1-0/} 1\/2-1\/2/' -e 's/Result "1-0"/Result "1\/2-1\/2"/' "$B/real/1934301.bpgn" >d.bpgn
	run -0 --separate-stderr zhcheck d.bpgn
	[[ $stderr == *"d.bpgn:14:26: warning: game 1, board B: the result is 1/2-1/2 but Black on board B lost: 0-1 for the team, 1-0 for the board [-Wresult]"* ]]
	[ "$(sed 's/} 1-0/} 0-1/' "$B/real/1934301.bpgn" | zhcheck --json - | jq -r .result_convention)" = team ]
	sed 's/B@g7#{72.284}/B@g7#{72.284} 23b. Kh5/' "$B/real/1934301.bpgn" >m.bpgn
	run -1 --separate-stderr zhcheck m.bpgn
	[[ ${stderr_lines[0]} == *"error: game 1, ply 46 on board B: the game is over: Black was checkmated on board B at ply 45" ]]
	# {X resigns} on board B, White: team 1-0, board 0-1; 1/2-1/2 neither
	{ hdr 1/2-1/2; echo '1A. e4 1B. d4 {wb resigns} 1/2-1/2'; } >r.bpgn
	run -0 --separate-stderr zhcheck r.bpgn
	[[ $stderr == *"warning: game 1, board B: the result is 1/2-1/2 but White on board B lost: 1-0 for the team, 0-1 for the board [-Wresult]"* ]]
	[ "$(sed 's/1\/2-1\/2/0-1/g' r.bpgn | zhcheck --json - | jq -r .result_convention)" = board ]
	[ "$(sed 's/1\/2-1\/2/1-0/g' r.bpgn | zhcheck --json - | jq -r .result_convention)" = team ]
}

@test "bughouse: one board alone (a chess.com export) validates, its drops taken as sent" {
	printf '[Event "Live Chess - Bughouse"]\n[Site "Chess.com"]\n[Date "2022.02.22"]\n[Round "-"]\n[White "a"]\n[Black "b"]\n[Result "*"]\n[Variant "Bughouse"]\n\n1. e4 N@f6 2. e5 @e3 3. dxe3 *\n' >one.pgn
	run -0 zhcheck --json one.pgn
	[ "$(jq -r '"\(.variant) \(.plies) \(.valid)"' <<<"$output")" = "bughouse 5 true" ]
	# still no drop on an occupied square
	sed -i 's/N@f6/N@e7/' one.pgn
	run -1 zhcheck -q one.pgn
}

@test "bughouse: zhreplay's board before every generated half-move is Fairy-Stockfish's, in each dialect's file" {
	local f
	# the answers' FENs and moves are the engine's (with the generator's
	# promoted marks): 21,361 half-moves, SAN and UCI too, and the
	# final positions
	for f in bughousedb bughousedb-org chesscom pychess; do
		zhreplay -F jsonl --to fairy "$B/gen/$f.bpgn" >pos.jsonl
		run -0 python3 "$ZH_TOP/tests/helpers/check-bughouse-fens.py" "$B/gen/answers.jsonl" <pos.jsonl
		assert_output "ok 21361"
	done
}

@test "bughouse: the selection reads a bughouse game whole (answers from the generator)" {
	local G=$B/gen want fen
	# --ply-count counts both boards' half-moves
	want=$(jq -r 'select((.moves|length) >= 100)|.game' "$G/answers.jsonl" | wc -l)
	[ "$(zhpgn -q --ply-count 100- "$G/pychess.bpgn" | grep -c '^\[Event ')" -eq "$want" ]
	# --ending checkmate: the games the generator ended by a mate
	want=$(jq -r 'select(.end == "mate")|.game' "$G/answers.jsonl" | paste -sd' ')
	[ "$(zhcheck -q --json --ending checkmate "$G/bughousedb.bpgn" | jq -r .game | paste -sd' ')" = "$want" ]
	# --position: a board's FEN with its holdings, from the answers
	fen=$(jq -r 'select(.game == 7)|.moves[30].fen_before' "$G/answers.jsonl")
	want=$(jq -r --arg f "$fen" 'select([.moves[].fen_before]|index($f))|.game' "$G/answers.jsonl" | paste -sd' ')
	[ "$(zhcheck -q --json --position "$fen" "$G/chesscom.bpgn" | jq -r .game | paste -sd' ')" = "$want" ]
	# --dedupe: the same 300 games in two dialects are 300 games
	[ "$(zhpgn -q --dedupe "$G/pychess.bpgn" "$G/chesscom.bpgn" | grep -c '^\[Event ')" -eq 300 ]
	# --only-invalid keeps the broken ones
	run -1 --separate-stderr zhcheck --only-invalid "$B/broken/drop-not-held.bpgn" "$G/pychess.bpgn"
	[ "${stderr_lines[-1]}" = "zhcheck: selection: 315 read, 15 selected, 300 dropped by --only-invalid" ]
}
