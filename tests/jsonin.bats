#!/usr/bin/env bats
# JSON back to PGN (issue 23): the PGN reader reads zhkit-json(5) game
# objects, one a line, as zhpgn --json writes them, recognised by the
# stream's first non-blank byte.  The answers are the tools' own PGN
# path on the same games (PGN -> PGN against PGN -> JSON -> PGN), jq and
# awk over the games, and zhcheck's verdicts on the PGN.

load common
bats_require_minimum_version 1.5.0

D="lichess xboard chesscom fairy"
BENCH="$BATS_TEST_DIRNAME/../../shared/bench"

# The corpus: every PGN file of testdata (valid and invalid games).
corpus() {
	ls "$TESTDATA"/pgn/*.pgn "$TESTDATA"/zhpgn/*.pgn "$TESTDATA"/zhcheck/*.pgn \
	    "$TESTDATA"/zhreplay/*.pgn "$TESTDATA"/reader/*.pgn
}

# same_both F A B: F's games through JSON of dialect A and back to PGN of
# dialect B give the bytes, the summary and the status of F to PGN of B.
same_both() {
	local f=$1 a=$2 b=$3 s1 s2
	s1=0 s2=0
	zhpgn --to "$b" "$f" >"$BATS_TEST_TMPDIR/want" 2>"$BATS_TEST_TMPDIR/want.err" || s1=$?
	{ zhpgn -q --json --to "$a" "$f" 2>/dev/null || true; } |
	    zhpgn --to "$b" >"$BATS_TEST_TMPDIR/got" 2>"$BATS_TEST_TMPDIR/got.err" || s2=$?
	cmp "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got" ||
	    { echo "differs: $f via $a to $b"; return 1; }
	[ "$s1" = "$s2" ] || { echo "status $s1 vs $s2: $f via $a to $b"; return 1; }
	[ "$(tail -n 1 "$BATS_TEST_TMPDIR/want.err")" = \
	    "$(tail -n 1 "$BATS_TEST_TMPDIR/got.err")" ] ||
	    { echo "summary differs: $f via $a to $b"; return 1; }
}

@test "jsonin: PGN -> JSON -> PGN is PGN -> PGN for the corpus, every dialect pair" {
	local f a b n=0
	for f in $(corpus); do
		for a in $D; do
			for b in $D; do
				same_both "$f" "$a" "$b"
				n=$((n + 1))
			done
		done
	done
	[ "$n" -ge 800 ]
}

@test "jsonin: PGN in each dialect -> JSON -> PGN in each dialect, same bytes" {
	local f a b
	for f in "$TESTDATA"/pgn/*.pgn; do
		for a in $D; do
			zhpgn -q --to "$a" "$f" >"$BATS_TEST_TMPDIR/in.pgn" 2>/dev/null || true
			for b in $D; do
				cmp <(zhpgn -q --to "$b" "$BATS_TEST_TMPDIR/in.pgn" 2>/dev/null) \
				    <(zhpgn -q --json --to "$b" "$BATS_TEST_TMPDIR/in.pgn" 2>/dev/null |
				    zhpgn -q --to "$b" 2>/dev/null)
			done
		done
	done
}

@test "jsonin: zh-tags.pgn round trip in every dialect" {
	local z="$BENCH/zh-tags.pgn" b
	[ -f "$z" ] || skip "no $z"
	zhpgn -q --json "$z" >"$BATS_TEST_TMPDIR/z.json"
	for b in $D; do
		cmp <(zhpgn -q --to "$b" "$z") <(zhpgn -q --to "$b" "$BATS_TEST_TMPDIR/z.json")
	done
}

@test "jsonin: JSON -> JSON gives back the same lines for valid games" {
	local f
	for f in "$TESTDATA"/pgn/*.pgn "$TESTDATA"/reader/*.pgn; do
		# (but the places of errors in variations: lines of the JSON)
		zhpgn -q --json --fens "$f" >"$BATS_TEST_TMPDIR/a.json" 2>/dev/null || continue
		# and "file": the JSON file's name
		cmp <(jq -c 'del(.file, .errors[].line, .errors[].col)' "$BATS_TEST_TMPDIR/a.json") \
		    <(zhpgn -q --json --fens "$BATS_TEST_TMPDIR/a.json" 2>/dev/null |
		    jq -c 'del(.file, .errors[].line, .errors[].col)')
		cmp <(jq -c 'select(.errors == []) | del(.file)' "$BATS_TEST_TMPDIR/a.json") \
		    <(zhpgn -q --json --fens "$BATS_TEST_TMPDIR/a.json" 2>/dev/null |
		    jq -c 'select(.errors == []) | del(.file)')
	done
}

@test "jsonin: a jq select comes back as the same games an awk selection of the PGN picks" {
	local f="$TESTDATA/pgn/pychess-zh.pgn"
	zhpgn -q "$f" >"$BATS_TEST_TMPDIR/all.pgn"
	# awk over the tags of zhpgn's output (a paragraph of tags, then one of moves)
	awk 'BEGIN { RS = "" } NR % 2 == 1 { keep = 0; if (match($0, /\[WhiteElo "[0-9]+"\]/)) { v = substr($0, RSTART + 11, RLENGTH - 13) + 0; keep = v >= 1800 } }
	    keep { print; print "" }' "$BATS_TEST_TMPDIR/all.pgn" >"$BATS_TEST_TMPDIR/want.pgn"
	zhpgn -q --json "$f" | jq -c 'select((.tags.WhiteElo // "" | tonumber? // 0) >= 1800)' |
	    zhpgn -q >"$BATS_TEST_TMPDIR/got.pgn"
	n=$(grep -c '^\[Event ' "$BATS_TEST_TMPDIR/want.pgn")
	[ "$n" -gt 5 ] && [ "$n" -lt 80 ]
	cmp "$BATS_TEST_TMPDIR/want.pgn" "$BATS_TEST_TMPDIR/got.pgn"
	# and to chess.com's dialect, as the issue's pipeline does
	zhpgn -q --json "$f" | jq -c 'select((.tags.WhiteElo // "" | tonumber? // 0) >= 1800)' |
	    zhpgn -q --to chesscom >"$BATS_TEST_TMPDIR/got.cc"
	cmp <(zhpgn -q --to chesscom "$BATS_TEST_TMPDIR/want.pgn") "$BATS_TEST_TMPDIR/got.cc"
}

@test "jsonin: lines written otherwise (spaces, key order, keys left out) read the same" {
	local f="$TESTDATA/pgn/crazyara-zh-50_startpos.pgn"
	zhpgn -q --json "$f" | python3 -c '
import json, sys
for ln in sys.stdin:
    o = json.loads(ln)
    keep = ("result", "moves", "tags", "comment", "before", "terminated")
    print(json.dumps({k: o[k] for k in keep if k in o}, separators=(", ", ": ")))
' >"$BATS_TEST_TMPDIR/re.json"
	grep -q '"moves": \[' "$BATS_TEST_TMPDIR/re.json"
	cmp <(zhpgn -q "$f") <(zhpgn -q "$BATS_TEST_TMPDIR/re.json")
}

@test "jsonin: -j 2 writes what -j 1 writes, one piece or many" {
	local f="$BATS_TEST_TMPDIR/in.json"
	for p in "$TESTDATA"/pgn/crazyara-1k_cz_lichess_startpos.pgn "$TESTDATA"/zhpgn/corrupt.pgn; do
		zhpgn -q --json "$p" 2>/dev/null || true
	done >"$f"
	for j in 1 2; do
		zhpgn -j $j --to xboard "$f" >"$BATS_TEST_TMPDIR/o$j" 2>"$BATS_TEST_TMPDIR/e$j" || true
		zhcheck -j $j "$f" >/dev/null 2>"$BATS_TEST_TMPDIR/c$j" || true
		zhreplay -q -j $j -F san "$f" >"$BATS_TEST_TMPDIR/r$j" 2>/dev/null || true
	done
	cmp "$BATS_TEST_TMPDIR/o1" "$BATS_TEST_TMPDIR/o2"
	cmp "$BATS_TEST_TMPDIR/e1" "$BATS_TEST_TMPDIR/e2"
	cmp "$BATS_TEST_TMPDIR/c1" "$BATS_TEST_TMPDIR/c2"
	cmp "$BATS_TEST_TMPDIR/r1" "$BATS_TEST_TMPDIR/r2"
	# small pieces, and a line "[Event " that cuts the stream: the guess
	# fails and one reader reads it all again
	{ head -n 300 "$f"; echo '[Event "x"]'; tail -n +301 "$f"; } >"$BATS_TEST_TMPDIR/cut.json"
	for j in 1 2; do
		ZH_JOBS_CHUNK=4096 zhpgn -j $j "$BATS_TEST_TMPDIR/cut.json" >"$BATS_TEST_TMPDIR/o$j" 2>"$BATS_TEST_TMPDIR/e$j" || true
	done
	cmp "$BATS_TEST_TMPDIR/o1" "$BATS_TEST_TMPDIR/o2"
	cmp "$BATS_TEST_TMPDIR/e1" "$BATS_TEST_TMPDIR/e2"
	grep -q ':301:[0-9]*: error: game 301: not JSON' "$BATS_TEST_TMPDIR/e1"
}

@test "jsonin: -j 2 on a JSON stream of more than 8 MB (one reader) writes what -j 1 writes" {
	local z="$BENCH/zh-tags.pgn"
	[ -f "$z" ] || skip "no $z"
	zhpgn -q --json "$z" >"$BATS_TEST_TMPDIR/z.json"
	cmp <(zhpgn -j 1 --to fairy "$BATS_TEST_TMPDIR/z.json" 2>&1) <(zhpgn -j 2 --to fairy "$BATS_TEST_TMPDIR/z.json" 2>&1)
}

@test "jsonin: each kind of bad line is an error at its line, counted, and the run goes on" {
	local good
	good=$(zhpgn -q --json "$TESTDATA/zhpgn/setup.pgn")
	{
		echo "$good"
		echo 'not json'
		echo '[1,2]'
		echo '{"tags":{}}'
		echo '{"tags":{"Event":"x"},"moves":{}}'
		echo '{"tags":{"A":1},"moves":[]}'
		echo '{"tags":{"A B":"1"},"moves":[]}'
		echo '{"tags":{},"moves":[{"san":"e4"},{"uci":"e7e5"}]}'
		echo '{"tags":{},"moves":[{"san":"e4","nags":["x"]}]}'
		echo '{"tags":{},"moves":[{"san":"e4","after":["%x"]}]}'
		echo '{"tags":{},"moves":[{"san":"e4"}],"result":5}'
		printf '  \t\n\n'
		echo "$good"
		echo '{"tags":{"Event":"x"},"moves":[{"san":"e4"}],"result":"1-0",'
	} >"$BATS_TEST_TMPDIR/bad.json"
	run --separate-stderr zhpgn -r "$BATS_TEST_TMPDIR/rej" "$BATS_TEST_TMPDIR/bad.json"
	[ "$status" -eq 1 ]
	[ "$(grep -c '^\[Event ' <<<"$output")" -eq 2 ]
	local e="$BATS_TEST_TMPDIR/bad.json"
	diff - <(sed 's/^zhpgn: [^:]*:\([0-9]\)/zhpgn: F:\1/' <<<"$stderr") <<-'EOF'
	zhpgn: F:2:3: error: game 2: not JSON: '[' or '{' expected near 'not'; game rejected
	zhpgn: F:3:1: error: game 3: not a zhkit game object: not an object; game rejected
	zhpgn: F:4:1: error: game 4: not a zhkit game object: no "moves" array; game rejected
	zhpgn: F:5:1: error: game 5: not a zhkit game object: no "moves" array; game rejected
	zhpgn: F:6:1: error: game 6: not a zhkit game object: tag "A" is not a string; game rejected
	zhpgn: F:7:1: error: game 7: not a zhkit game object: "A B" is not a tag name; game rejected
	zhpgn: F:8:1: error: game 8: not a zhkit game object: move 2 has no "san" string; game rejected
	zhpgn: F:9:1: error: game 9: not a zhkit game object: a NAG is not a number from 0 to 999; game rejected
	zhpgn: F:10:1: error: game 10: not a zhkit game object: "%x" is not a movetext token; game rejected
	zhpgn: F:11:1: error: game 11: not a zhkit game object: "result" is not a string; game rejected
	zhpgn: F:15:60: error: game 13: not JSON: string or '}' expected near end of file; game rejected
	zhpgn: 13 games: 2 written, 11 rejected
	EOF
	# the rejects are the bad lines as they were
	diff <(grep . "$BATS_TEST_TMPDIR/rej") <(sed -n '2,11p;15p' "$e")
	# (read again, the rejects are PGN: their first line is not JSON)
}

@test "jsonin: an invalid game's JSON is rejected again, with its error at its line" {
	local f="$TESTDATA/zhpgn/corrupt.pgn"
	zhpgn -q --json "$f" >"$BATS_TEST_TMPDIR/c.json" 2>/dev/null || true
	run --separate-stderr zhpgn "$BATS_TEST_TMPDIR/c.json"
	[ "$status" -eq 1 ]
	# the same messages, in the same games, each at its JSON line
	diff <(zhpgn "$f" 2>&1 >/dev/null | sed -n 's/^zhpgn: [^:]*:[0-9]*:[0-9]*: //p') \
	    <(sed -n 's/^zhpgn: [^:]*:[0-9]*:[0-9]*: //p' <<<"$stderr")
	sed -n 's/^zhpgn: [^:]*:\([0-9]*\):[0-9]*: error: game \([0-9]*\)[:,].*/\1 \2/p' <<<"$stderr" |
	    while read -r line game; do [ "$line" = "$game" ]; done
	[ "$(jq -c '.valid' "$BATS_TEST_TMPDIR/c.json" | grep -c false)" -eq 4 ]
}

@test "jsonin: zhcheck on a JSON stream gives the verdicts it gives on the PGN" {
	local f
	for f in $(corpus); do
		zhpgn -q --json "$f" >"$BATS_TEST_TMPDIR/f.json" 2>/dev/null || true
		# per game: its messages, without their places
		diff <(zhcheck "$f" 2>&1 | sed 's/^zhcheck: [^:]*:[0-9]*:[0-9]*: //') \
		    <(zhcheck "$BATS_TEST_TMPDIR/f.json" 2>&1 | sed 's/^zhcheck: [^:]*:[0-9]*:[0-9]*: //') ||
		    { echo "zhcheck differs on $f"; return 1; }
	done
}

@test "jsonin: zhreplay reads a JSON stream to the same positions" {
	local f
	for f in "$TESTDATA"/pgn/*.pgn; do
		cmp <(zhreplay -q -F fen "$f" 2>/dev/null) \
		    <(zhpgn -q --json "$f" 2>/dev/null | zhreplay -q -F fen 2>/dev/null)
	done
}

@test "jsonin: detection once per input, at its first non-blank byte" {
	local good pgn
	good=$(zhpgn -q --json "$TESTDATA/zhpgn/setup.pgn")
	pgn=$(cat "$TESTDATA/zhpgn/setup.pgn")
	# a BOM, blank lines and CRLF line ends before and between JSON lines
	printf '\357\273\277\n  \r\n%s\r\n\r\n%s\n' "$good" "$good" >"$BATS_TEST_TMPDIR/a.json"
	run --separate-stderr zhpgn "$BATS_TEST_TMPDIR/a.json"
	assert_success
	[ "$stderr" = "zhpgn: 2 games: 2 written, 0 rejected" ]
	# a PGN stream with a JSON line after its first game: PGN throughout
	# (the line is read as PGN: a comment up to its first '}', then an
	# error)
	printf '%s\n\n%s\n\n%s\n' "$pgn" "$good" "$pgn" >"$BATS_TEST_TMPDIR/b.pgn"
	run --separate-stderr zhpgn "$BATS_TEST_TMPDIR/b.pgn"
	[ "$status" -eq 1 ]
	# the comment ends at the first '}', after the tags' object: the
	# error is at the '"' after its ','
	local brace=${good%%\}*}
	grep -q "b.pgn:14:$((${#brace} + 3)): error: game 2: unexpected '\"'" <<<"$stderr"
	[ "$(tail -n 1 <<<"$stderr")" = "zhpgn: 3 games: 2 written, 1 rejected" ]
	# a JSON stream with PGN after it: each PGN line is a bad line
	printf '%s\n[Event "x"]\n\n1. e4 *\n' "$good" >"$BATS_TEST_TMPDIR/c.json"
	run --separate-stderr zhpgn "$BATS_TEST_TMPDIR/c.json"
	[ "$status" -eq 1 ]
	[ "$(tail -n 1 <<<"$stderr")" = "zhpgn: 3 games: 1 written, 2 rejected" ]
	# a PGN file that starts with a comment is PGN
	printf '{ a comment }\n%s\n' "$pgn" >"$BATS_TEST_TMPDIR/d.pgn"
	run --separate-stderr zhpgn "$BATS_TEST_TMPDIR/d.pgn"
	assert_success
}

@test "jsonin: a line over the game limit is an error, and memory stays bounded" {
	local good
	good=$(zhpgn -q --json "$TESTDATA/zhpgn/setup.pgn")
	{ echo "$good"; python3 -c 'print("{\"tags\":{\"Event\":\"" + "x" * 300000 + "\"},\"moves\":[]}")'; echo "$good"; } >"$BATS_TEST_TMPDIR/l.json"
	run --separate-stderr zhpgn --limit game=100000 -r "$BATS_TEST_TMPDIR/rej" "$BATS_TEST_TMPDIR/l.json"
	[ "$status" -eq 1 ]
	grep -q ':2:100001: error: game 2: game too long (limit 100000 bytes)' <<<"$stderr"
	[ "$(tail -n 1 <<<"$stderr")" = "zhpgn: 3 games: 2 written, 1 rejected" ]
	[ "$(head -c 100000 "$BATS_TEST_TMPDIR/rej" | wc -c)" -eq 100000 ]
	# a line of many small values (Jansson would hold 25 times its size)
	{ echo "$good"; python3 -c 'print("{\"tags\":{},\"moves\":[],\"x\":[" + ",".join(["0"] * 500000) + "]}")'; echo "$good"; } >"$BATS_TEST_TMPDIR/v.json"
	run --separate-stderr zhpgn "$BATS_TEST_TMPDIR/v.json"
	[ "$status" -eq 1 ]
	grep -q ':2:1: error: game 2: not a zhkit game object: more than one JSON value in 6 bytes' <<<"$stderr"
	[ "$(tail -n 1 <<<"$stderr")" = "zhpgn: 3 games: 2 written, 1 rejected" ]
}

@test "jsonin: what the round trip needs is in the JSON only where the usual keys do not say it" {
	# pychess writes "{White checkmated} 0-1": the comment has no spaces
	run zhpgn -q --json "$TESTDATA/pgn/pychess-zh.pgn"
	[ "$(jq -c '.moves[-1].after' <<<"${lines[0]}")" = '["{White checkmated","0-1"]' ]
	# Lichess's "{ [%clk 0:05:00] }" needs none
	run zhpgn -q --json "$TESTDATA/reader/clk-1k.pgn"
	! grep -q '"after"\|"before"' <<<"$output"
	# a tag name that repeats: every pair, in order
	printf '[Event "x"]\n[X "1"]\n[Site "s"]\n[X "2"]\n\n1. e4 *\n' >"$BATS_TEST_TMPDIR/r.pgn"
	run --separate-stderr zhpgn -q --json --variant chess "$BATS_TEST_TMPDIR/r.pgn"
	[ "$(jq -c .tag_list <<<"$output")" = '[["Event","x"],["X","1"],["Site","s"],["X","2"]]' ]
	for d in $D; do
		cmp <(zhpgn -q --variant chess --to "$d" "$BATS_TEST_TMPDIR/r.pgn") \
		    <(zhpgn -q --json --variant chess "$BATS_TEST_TMPDIR/r.pgn" | zhpgn -q --variant chess --to "$d")
	done
	# a game without a termination marker (before another game: at the
	# end of the input it would be cut short)
	printf '[Event "x"]\n[Result "1-0"]\n\n1. e4 e5\n\n[Event "y"]\n\n1. d4 *\n' >"$BATS_TEST_TMPDIR/n.pgn"
	run --separate-stderr zhpgn -q --json --variant chess "$BATS_TEST_TMPDIR/n.pgn"
	[ "$(jq -c .terminated <<<"${lines[0]}")" = false ]
	[ "$(jq -c .terminated <<<"${lines[1]}")" = null ]
	cmp <(zhcheck --variant chess "$BATS_TEST_TMPDIR/n.pgn" 2>&1 | sed 's/^[^ ]* [^ ]* //') \
	    <(zhpgn -q --json --variant chess "$BATS_TEST_TMPDIR/n.pgn" | zhcheck --variant chess 2>&1 | sed 's/^[^ ]* [^ ]* //')
}

@test "jsonin: the selection options pick from JSON input what they pick from the PGN" {
	local f="$TESTDATA/pgn/pychess-zh.pgn" o
	zhpgn -q --json "$f" >"$BATS_TEST_TMPDIR/f.json"
	for o in "--tag=WhiteElo >= 1800" "--tag=White ~ ^g" "--dedupe" "--max=7"; do
		cmp <(zhpgn -q "$o" --to xboard "$f") <(zhpgn -q "$o" --to xboard "$BATS_TEST_TMPDIR/f.json")
		cmp <(zhpgn "$o" -j 2 "$f" 2>&1 >/dev/null | tail -n 2 | sed 's/^zhpgn: [^:]*: //') \
		    <(zhpgn "$o" -j 2 "$BATS_TEST_TMPDIR/f.json" 2>&1 >/dev/null | tail -n 2 | sed 's/^zhpgn: [^:]*: //')
	done
	[ "$(zhpgn -q --tag 'WhiteElo >= 1800' "$BATS_TEST_TMPDIR/f.json" | grep -c '^\[Event ')" -gt 5 ]
}
