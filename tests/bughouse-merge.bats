#!/usr/bin/env bats
# zhpgn --merge-boards: two one-board games of a bughouse game, as
# chess.com exports them, merged into one BPGN game in the order of time.
# The real games of testdata/bughouse/merge (bughousedb.com BPGN) are
# split into board files by tests/helpers/bpgn-split.py, which knows no chess and
# runs no zhkit tool, and must come back with the same half-moves in the
# same order; hand-made pairs have ties that only legality decides, and
# no legal order at all.

bats_require_minimum_version 1.5.0
load common

setup() {
	D=$TESTDATA/bughouse/merge
	T=$BATS_TEST_TMPDIR
}

# The half-moves of a BPGN, one "label SAN" a line, check marks left out.
moves() {
	python3 -c '
import re, sys
t = open(sys.argv[1]).read()
t = re.sub(r"\[\w+ \"(?:[^\"\\\\]|\\\\.)*\"\]", " ", t)
t = re.sub(r"\{[^}]*\}", " ", t)
for n, l, m in re.findall(r"(\d+)([AaBb])\.\s*([^\s]+)", t):
    print(n + l, m.rstrip("+#"))
' "$1"
}

# Those of board $2 (A or B) only.
board_moves() {
	moves "$1" | grep -E "^[0-9]+[$2$(echo "$2" | tr AB ab)] "
}

roundtrip() {
	local g=$1
	shift
	python3 "$ZH_TOP/tests/helpers/bpgn-split.py" "$@" "$D/$g.bpgn" >"$T/boards.pgn" 2>"$T/split.err"
	run zhpgn --merge-boards -o "$T/merged.bpgn" "$T/boards.pgn"
	assert_success
	assert_output --partial 'zhpgn: 2 games: 1 written, 0 rejected'
	moves "$D/$g.bpgn" >"$T/want"
	moves "$T/merged.bpgn" >"$T/got"
	[ "$(wc -l <"$T/want")" -gt 0 ]
	run diff "$T/want" "$T/got"
	assert_success
	run zhcheck "$T/merged.bpgn"
	assert_success
}

@test "bughouse-merge: 1934301 (110 half-moves, drop mate) split and merged back" { roundtrip 1934301; }
@test "bughouse-merge: 1934660 (107 half-moves, flag) split and merged back" { roundtrip 1934660; }
@test "bughouse-merge: 1283326 (aborted after 8) split and merged back" { roundtrip 1283326; }
@test "bughouse-merge: board B first, paired by its Board and PartnerGame tags" { roundtrip 1934301 --ba; }
@test "bughouse-merge: untagged board files are taken in order, A then B" { roundtrip 1934660 --untagged; }

@test "bughouse-merge: the splitter retimed FICS's lag-corrected clocks (the test data is not trivial)" {
	python3 "$ZH_TOP/tests/helpers/bpgn-split.py" "$D/1934301.bpgn" 2>&1 >/dev/null | grep -q '^retimed [1-9][0-9]* of 110 clocks$'
}

@test "bughouse-merge: the team result, the four players and their ratings" {
	python3 "$ZH_TOP/tests/helpers/bpgn-split.py" "$D/1934301.bpgn" >"$T/b.pgn" 2>/dev/null
	run zhpgn -q --merge-boards "$T/b.pgn"
	assert_success
	assert_line '[WhiteA "Rabbos"][WhiteAElo "0"]'
	assert_line '[BlackB "BobBughouse"][BlackBElo "0"]'
	assert_line '[TimeControl "300"]'
	# BobBughouse (Black on B) was mated: White A and Black B lost
	assert_line '[Result "0-1"]'
	assert_line --regexp '23B\. B@g7# \{72\.284\} 0-1$'
}

@test "bughouse-merge: raw clocks cut to tenths or seconds: each board keeps its moves and the game stays legal" {
	local g cut
	for g in 1934301 1934660; do
	for cut in --tenths --whole; do
		python3 "$ZH_TOP/tests/helpers/bpgn-split.py" --raw $cut "$D/$g.bpgn" >"$T/b.pgn" 2>/dev/null
		run zhpgn --merge-boards -o "$T/m.bpgn" "$T/b.pgn"
		assert_success
		if [ $cut = --whole ]; then
			assert_output --regexp 'note: games 1 and 2: [0-9]+ pairs of moves the clocks did not order'
		fi
		run zhcheck "$T/m.bpgn"
		assert_success
		for b in A B; do
			run diff <(board_moves "$D/$g.bpgn" $b) <(board_moves "$T/m.bpgn" $b)
			assert_success
		done
		[ "$(moves "$T/m.bpgn" | wc -l)" -eq "$(moves "$D/$g.bpgn" | wc -l)" ]
	done
	done
}

@test "bughouse-merge: the chesscom dialect writes [%clk] clocks and @ pawn drops, and reads back" {
	python3 "$ZH_TOP/tests/helpers/bpgn-split.py" "$D/1934660.bpgn" >"$T/b.pgn" 2>/dev/null
	run zhpgn -q --merge-boards -t chesscom -o "$T/m.bpgn" "$T/b.pgn"
	assert_success
	# one precision a game, as zhpgn -t chesscom writes a BPGN
	grep -q '^1A\. e3 {\[%clk 0:00:58\.639\]} 1a\. Nf6 {\[%clk 0:00:59\.900\]}' "$T/m.bpgn"
	grep -q '5B\. @g5 ' "$T/m.bpgn"
	run zhcheck "$T/m.bpgn"
	assert_success
	run diff <(moves "$D/1934660.bpgn" | sed 's/ P@/ @/') <(moves "$T/m.bpgn")
	assert_success
}

@test "bughouse-merge: a drop and the capture that sends its piece at the same time: legality orders them" {
	run zhpgn --merge-boards -o "$T/m.bpgn" "$D/tie-legal.pgn"
	assert_success
	assert_line 'zhpgn: '"$D"'/tie-legal.pgn:12:30: note: games 1 and 2: 1a. P@e6 (board A, 5.000 s) and 2B. exd5 (board B, 5.000 s) have the same time; 2B. exd5 written first, the only legal order'
	assert_line --partial '2 pairs of moves the clocks did not order, 1 decided by legality, 1 either way'
	run diff "$D/tie-legal.expected" <(moves "$T/m.bpgn")
	assert_success
	run zhcheck "$T/m.bpgn"
	assert_success
}

@test "bughouse-merge: the tie's other order (board A first, as the clocks alone would put it) is illegal" {
	run zhcheck "$D/tie-legal-clockorder.bpgn"
	assert_failure 1
	assert_output --partial 'P@e6'
	assert_output --partial "illegal drop 'P@e6': no pawn in Black's holdings"
}

@test "bughouse-merge: no order makes the drop legal: an error at the drop, nothing written, exit 1" {
	run --separate-stderr zhpgn --merge-boards "$D/no-order.pgn"
	assert_failure 1
	[ -z "$output" ]
	[[ $stderr == *"zhpgn: $D/no-order.pgn:12:30: error: games 1 and 2, ply 2 on board A: 1a. P@e6 at 5.000 s: Black on board A holds no P in any order the clocks allow (the next comes with 2B. exd5 at 7.000 s); not merged"* ]]
}

@test "bughouse-merge: a mate ends both boards: the other board's tied move comes before it" {
	run zhpgn -q --merge-boards -o "$T/m.bpgn" "$D/mate-last.pgn"
	assert_success
	assert_output --partial 'mate-last.pgn:13:4: note: games 1 and 2: 4A. Qxf7# (board A, 7.000 s) and 2B. c4 (board B, 7.000 s) have the same time; 2B. c4 written first, the only legal order'
	[ "$(moves "$T/m.bpgn" | tail -2 | tr '\n' ' ')" = "2B c4 4A Qxf7 " ]
	grep -q '^\[Result "1-0"\]$' "$T/m.bpgn"
	run zhcheck "$T/m.bpgn"
	assert_success
}

@test "bughouse-merge: pairs by Board and PartnerGameId/Link tags, board B given first" {
	zhpgn -q --merge-boards "$D/tie-legal.pgn" >"$T/ab.bpgn"
	run zhpgn -q --merge-boards -o "$T/ba.bpgn" "$D/paired-ba.pgn"
	assert_success
	run diff <(moves "$T/ab.bpgn") <(moves "$T/ba.bpgn")
	assert_success
	grep -q '^\[WhiteA "alice"\]\[WhiteAElo "1500"\]$' "$T/ba.bpgn"
}

@test "bughouse-merge: a game whose partner is not next is an error; the run goes on" {
	run --separate-stderr zhpgn --merge-boards "$D/unpaired.pgn"
	assert_failure 1
	[[ $stderr == *"unpaired.pgn:1:1: error: game 1: the game after it is not its partner board"* ]]
	[[ $stderr == *"zhpgn: 3 games: 1 written, 1 rejected"* ]]
	[ "$(grep -c '^\[WhiteA ' <<<"$output")" -eq 1 ]
}

@test "bughouse-merge: without TimeControl the base is the largest first clock" {
	run zhpgn -q --merge-boards -o "$T/m.bpgn" "$D/no-timecontrol.pgn"
	assert_success
	assert_output --partial '(board A, 3.000 s) and 2B. exd5 (board B, 3.000 s) have the same time'
	run diff "$D/tie-legal.expected" <(moves "$T/m.bpgn")
	assert_success
}

@test "bughouse-merge: an illegal move on one board: its line, column, ply and board" {
	run zhpgn -q --merge-boards "$D/illegal-board.pgn"
	assert_failure 1
	assert_output --regexp "illegal-board.pgn:24:[0-9]+: error: games 1 and 2, ply 4 on board B: illegal move 'Qxd5'"
}

@test "bughouse-merge: a BPGN game is not a board file; an odd game out has no partner" {
	run zhpgn -q --merge-boards "$D/1934301.bpgn"
	assert_failure 1
	assert_output --partial 'error: game 1: no partner board after it; not merged'
	cat "$D/1934301.bpgn" <(echo) "$D/1934660.bpgn" >"$T/two.bpgn"
	run zhpgn -q --merge-boards "$T/two.bpgn"
	assert_failure 1
	assert_output --partial 'is a two-board game (BPGN labels), not one board'
}

@test "bughouse-merge: hostile: every clock missing and no legal order, the search stops in bounded time" {
	python3 - "$T/h.pgn" <<'PY'
import sys
def board(n, drop):
    seq = ['Nf3', 'Nf6', 'Ng1', 'Ng8']
    mv = [seq[k % 4] for k in range(n)] + (['@e4'] if drop else [])
    out = []
    for i, m in enumerate(mv):
        if i % 2 == 0:
            out.append('%d.' % (i // 2 + 1))
        out.append(m)
    return '[Variant "Bughouse"]\n[Result "*"]\n\n' + ' '.join(out) + ' *\n\n'
open(sys.argv[1], 'w').write(board(2000, True) + board(2000, False))
PY
	SECONDS=0
	run zhpgn -q --merge-boards "$T/h.pgn"
	assert_failure 1
	assert_output --partial 'no legal order found in 2000000 steps of the search; not merged'
	[ "$SECONDS" -lt 20 ]
}

@test "bughouse-merge: not with --json; an output that cannot be written is exit 2" {
	run zhpgn --merge-boards --json "$D/tie-legal.pgn"
	assert_failure 2
	assert_output --partial 'not with --json'
	[ -w /dev/full ] || skip "no /dev/full"
	run zhpgn -q --merge-boards -o /dev/full "$D/tie-legal.pgn"
	assert_failure 2
}

# Per game, one line: its half-moves' label, UCI and clock, in text order.
seq_of() {
	zhpgn -q --json "$1" | jq -c '[.moves[] | [.label, .uci, .clock]]'
}

# Per game, one line: board $2's half-moves alone.
board_seq() {
	zhpgn -q --json "$1" | jq -c --arg b "$2" \
	    '[.moves[] | select(.board == $b) | [.label, .uci, .clock]]'
}

@test "bughouse-merge: --boards then --merge-boards gives every game back, its moves in their order and its clocks ([%ts])" {
	local f n=0
	# whole seconds (604 ties), tenths, milliseconds, no clocks at all,
	# and FICS's lag-corrected clocks that run against the text order
	for f in "$TESTDATA"/bughouse/gen/{bughousedb,bughousedb-org,chesscom,pychess}.bpgn \
	    "$TESTDATA"/bughouse/real/*.bpgn; do
		zhpgn -q --boards "$f" >"$T/b.pgn"
		run --separate-stderr zhpgn -q --merge-boards -o "$T/m.bpgn" "$T/b.pgn"
		assert_success
		[ -z "$stderr" ]	# no tie left to legality, no note
		seq_of "$f" >"$T/want"
		seq_of "$T/m.bpgn" >"$T/got"
		[ "$(wc -l <"$T/want")" -gt 0 ]
		run diff "$T/want" "$T/got"
		assert_success
		# the stamps stay in the board files
		run grep -c '%ts' "$T/m.bpgn"
		assert_output 0
		n=$((n + $(wc -l <"$T/want")))
	done
	[ "$n" -eq 1203 ]
}

@test "bughouse-merge: [%ts] is the time both players of the board used, strictly increasing in the BPGN's order" {
	local f=$TESTDATA/bughouse/gen/bughousedb-org.bpgn
	zhpgn -q --boards "$f" >"$T/b.pgn"
	# game 1's board A: Houzu's 1. c3 at 4:51 of 5:00 (9 s used), Wnelbug's
	# 1... d5 at 4:59 (1 s more); 2. e4 at 4:51 again: 10 s, but it comes
	# after 1... d5 in the BPGN: 1 ms later
	run bash -c "sed -n '/^1\. c3/p' '$T/b.pgn' | head -1"
	assert_output --partial '1. c3 {[%clk 0:04:51.0] [%ts 9.000]} d5 {[%clk 0:04:59.0] [%ts 10.000]} 2. e4'
	run bash -c "grep -A1 -m1 '^1\. c3' '$T/b.pgn' | tr '\n' ' '"
	assert_output --partial '{[%clk 0:04:51.0] [%ts 10.001]}'
	# no clocks: the order alone, a millisecond a half-move
	zhpgn -q --boards "$TESTDATA/bughouse/gen/pychess.bpgn" | head -20 >"$T/p.pgn"
	run grep -c '1. c3 {\[%ts 0.003\]} d5 {\[%ts 0.004\]}' "$T/p.pgn"
	assert_output 1
	# the stamps of every game, both boards merged, strictly increase
	zhpgn -q --boards "$f" | python3 -c '
import re, sys
games = sys.stdin.read().split("\n[Event ")
for a, b in zip(games[0::2], games[1::2]):
    ts = sorted(float(x) for x in re.findall(r"\[%ts ([0-9.]+)\]", a + b))
    assert len(ts) == len(set(ts)) > 0, "equal stamps"
print("ok", len(games) // 2)
'
}

@test "bughouse-merge: bughouse.pro's [ts=x] orders the moves as [%ts x] does" {
	local f=$TESTDATA/bughouse/gen/bughousedb-org.bpgn
	zhpgn -q --boards "$f" | sed -E 's/\[%ts ([0-9.]+)\]/[ts=\1]/g' >"$T/b.pgn"
	run grep -c '%ts' "$T/b.pgn"
	assert_output 0
	run --separate-stderr zhpgn -q --merge-boards -o "$T/m.bpgn" "$T/b.pgn"
	assert_success
	[ -z "$stderr" ]
	run diff <(seq_of "$f") <(seq_of "$T/m.bpgn")
	assert_success
}

@test "bughouse-merge: board files without [%ts] still merge by the clocks and legality, each board's moves kept" {
	local f b
	# not gen/chesscom.bpgn: its generated clocks give no legal order
	# for some games without the stamps (the two boards' times disagree)
	for f in "$TESTDATA"/bughouse/gen/{bughousedb,bughousedb-org,pychess}.bpgn \
	    "$TESTDATA"/bughouse/real/*.bpgn; do
		zhpgn -q --boards "$f" | sed -E 's/ ?\[%ts [0-9.]+\]//g; s/ ?\{\}//g' >"$T/b.pgn"
		run grep -c '%ts' "$T/b.pgn"
		assert_output 0
		run zhpgn -q --merge-boards -o "$T/m.bpgn" "$T/b.pgn"
		assert_success
		run zhcheck -q "$T/m.bpgn"
		assert_success
		for b in A B; do
			run diff <(board_seq "$f" "$b") <(board_seq "$T/m.bpgn" "$b")
			assert_success
		done
	done
	# and whole seconds lose the order where both are legal
	f=$TESTDATA/bughouse/gen/bughousedb-org.bpgn
	zhpgn -q --boards "$f" | sed -E 's/ ?\[%ts [0-9.]+\]//g' >"$T/b.pgn"
	zhpgn -q --merge-boards -o "$T/m.bpgn" "$T/b.pgn" 2>/dev/null
	run diff <(seq_of "$f") <(seq_of "$T/m.bpgn")
	assert_failure
}

@test "bughouse-merge: stamps in an illegal order: merged by the clocks, with a note" {
	local f=$TESTDATA/bughouse/gen/bughousedb-org.bpgn
	# game 1's boards, board B's stamps all 1000 s late: every move of A
	# first, and 5a. dxc4 ... 10a. N@e6 needs B's captures
	zhpgn -q --boards "$f" | awk 'BEGIN { RS = ""; ORS = "\n\n" } NR <= 4' |
	    python3 -c '
import re, sys
s = sys.stdin.read()
i = s.index("[Event", 1)
late = re.sub(r"\[%ts ([0-9.]+)\]",
    lambda m: "[%%ts %.3f]" % (float(m.group(1)) + 1000), s[i:])
sys.stdout.write(s[:i] + late)
' >"$T/b.pgn"
	run zhpgn -q --merge-boards -o "$T/m.bpgn" "$T/b.pgn"
	assert_success
	assert_output --partial "games 1 and 2: the moves' time stamps ([%ts]) give no legal order; merged by the clocks"
	run zhcheck -q "$T/m.bpgn"
	assert_success
	for b in A B; do
		run diff <(board_seq "$f" "$b" | head -1) <(board_seq "$T/m.bpgn" "$b")
		assert_success
	done
}
