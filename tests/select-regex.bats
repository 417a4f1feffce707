#!/usr/bin/env bats
# Selection, day one (issue 32, items 11, 12, 14, 15 and 22's --split-by
# names): regexes bounded (PCRE2 with match limits; an undecided match is
# an error naming the pattern and the game), the old POSIX ERE patterns
# still meaning what GNU grep -E says they mean, a number compared with
# text refused, a --tag on a tag no game had said so, Latin-1 tags
# matched as the JSON shows them, --split-by linear in the values and
# its file names.  Every answer comes from another tool: jq over the
# JSON, GNU grep -E over the values, python3 over the bytes.

bats_require_minimum_version 1.5.0
load common

CT=$TESTDATA/select/chess-tags-200.pgn

setup() {
	T=$BATS_TEST_TMPDIR
}

# game WHITE [TAG VALUE]...: one small game whose White is WHITE (bytes
# as printf's %b reads them), with more tags if given.
game() {
	local w=$1
	shift
	printf '[Event "e"]\n[White "%b"]\n[Black "b"]\n' "$w"
	while [ $# -gt 1 ]; do
		printf '[%s "%b"]\n' "$1" "$2"
		shift 2
	done
	printf '[Result "1-0"]\n\n1. e4 e5 1-0\n\n'
}

# ======================== 11: regexes bounded ========================

@test "select-regex: a regex whose match cannot be bounded is exit 2, naming the pattern and the game, in seconds" {
	{
		game w1
		game "$(python3 -c 'print("a" * 30000 + "b")')"
		game w3
	} >"$T/g.pgn"
	# glibc answered "no match" (exit 0, silently), or ran for minutes
	run -2 timeout 60 zhpgn -q --tag 'White ~ ^(a|aa)*$' "$T/g.pgn"
	assert_output --partial "zhpgn: $T/g.pgn:8:1: error: game 2: --tag 'White ~ ^(a|aa)*\$': the regular expression reached its bounds"
	# the run stops there: game 1 was decided (dropped), game 3 never read
	refute_output --partial 'w3'
	# every tool, and -j 2, the same
	run -2 timeout 60 zhcheck -q -j 2 --tag 'White ~ ^(a|aa)*$' "$T/g.pgn"
	assert_output --partial "game 2: --tag 'White ~ ^(a|aa)*\$': the regular expression reached its bounds"
	run -2 timeout 60 zhreplay -q --player '~ ^(a|aa)*$' "$T/g.pgn"
	assert_output --partial "game 2: --player '~ ^(a|aa)*\$': the regular expression reached its bounds"
	# --invert does not turn an undecided game into a selected one
	run -2 timeout 60 zhpgn -q --invert --tag 'White ~ ^(a|aa)*$' "$T/g.pgn"
	assert_output --partial "game 2: --tag"
}

@test "select-regex: a back-reference on a 65 KB tag is decided in seconds (it ran past 120 s and 2.8 GB)" {
	local v
	v=$(python3 -c 'print("a" * 65000 + "b")')
	{
		game "$v"
		game "$(python3 -c 'print("a" * 65000)')"
		game "abab"
	} >"$T/g.pgn"
	# (a*)*\1b matches where a 'b' is: the group and \1 may both be empty
	run -0 timeout 60 zhpgn -q --json --tag 'White ~ (a*)*\1b' "$T/g.pgn"
	[ "$(printf '%s\n' "$output" | jq -r '.tags.White | length')" = "65001
4" ]
	# (a|aa)*b (12 s a game with glibc): decided, the same games
	run -0 timeout 60 zhpgn -q --json --tag 'White ~ (a|aa)*b' "$T/g.pgn"
	[ "$(printf '%s\n' "$output" | jq -r '.tags.White | length')" = "65001
4" ]
}

# patterns in GNU ERE, each with the White values GNU grep -E selects
@test "select-regex: POSIX ERE patterns keep their meaning (GNU grep -E over the same values)" {
	command -v grep >/dev/null
	zhpgn -q --json "$CT" | jq -r '.tags.White' >"$T/whites"
	local p
	for p in '^player[a-c]' '_BOT$' '\<player' 'x[0-9]\>' '[[:digit:]]{2}' \
	    '^(playerus|playerx9_BOT)$' 'r.{,1}s' 'a|z' '[^a-z0-9_]' \
	    '(e)\1' 'BO?T' '[]x]9' '\.'; do
		grep -E -- "$p" "$T/whites" | sort >"$T/want"
		zhpgn -q --json --tag "White ~ $p" "$CT" | jq -r '.tags.White' | sort >"$T/got"
		cmp "$T/want" "$T/got" || fail "pattern '$p': $(diff "$T/want" "$T/got" | head -5)"
		# !~ is the complement
		grep -vE -- "$p" "$T/whites" | sort >"$T/want"
		zhpgn -q --json --tag "White !~ $p" "$CT" | jq -r '.tags.White' | sort >"$T/got"
		cmp "$T/want" "$T/got" || fail "pattern '!~ $p'"
	done
	# not every pattern is trivial
	[ "$(grep -cE '\<player' "$T/whites")" -gt 100 ]
	[ "$(grep -cE '_BOT$' "$T/whites")" -gt 0 ]
}

@test "select-regex: a bad regex is exit 2 before any input, with PCRE2's reason" {
	run -2 zhpgn --tag 'White ~ a(b' "$T/none.pgn"
	assert_line --index 0 "zhpgn: --tag 'White ~ a(b': 9: regex: missing closing parenthesis (at its byte 4)"
}

# ======================== 14: numbers, unseen tags ========================

@test "select-regex: a rating compared with something that is not a number is a usage error (exit 2)" {
	run -2 zhpgn --tag 'WhiteElo >= 2k' "$CT"
	assert_line --index 0 "zhpgn: --tag 'WhiteElo >= 2k': 13: '2k' is not a number, and WhiteElo is compared as one"
	run -2 zhcheck --tag 'BlackElo < 2,000' "$CT"
	run -2 zhreplay --tag 'PlyCount > ten' "$CT"
	run -2 zhpgn --tag 'WhiteElo = high' "$CT"
	# PGN's unknown value may still be named, and numbers compare as numbers
	run -0 zhpgn -q --tag 'WhiteElo != ?' "$CT"
	zhpgn -q --json --tag 'WhiteElo >= 2000' "$CT" | jq -r '.tags.WhiteElo' >"$T/got"
	zhpgn -q --json "$CT" | jq -r 'select((.tags.WhiteElo | tonumber? // 0) >= 2000) | .tags.WhiteElo' >"$T/want"
	cmp "$T/want" "$T/got"
	[ -s "$T/got" ]
	# text tags still compare as text
	run -0 zhpgn -q --tag 'White >= playerz' "$CT"
}

@test "select-regex: a --tag on a tag that no game had is said at the end, with the nearest tag seen" {
	run -0 zhpgn --tag 'WhitElo >= 2000' --tag 'Site ~ lichess' "$CT"
	assert_line "zhpgn: warning: --tag 'WhitElo >= 2000': no game read has a WhitElo tag (the nearest seen: WhiteElo)"
	refute_line --partial "--tag 'Site ~ lichess': no game"
	# -q keeps it (it is no summary), -j 2 sees the same tags
	run -0 zhcheck -q -j 2 --tag 'timecontrol >= 60' "$CT"
	assert_output "zhcheck: warning: --tag 'timecontrol >= 60': no game read has a timecontrol tag (the nearest seen: TimeControl)"
	# a tag that some game has: nothing said
	run -0 zhreplay -q -F uci --tag 'Termination = Normal' "$CT"
	refute_output --partial 'warning'
}

# ======================== 15: Latin-1 ========================

@test "select-regex: a Latin-1 tag matches the text its JSON shows, for --player, --tag and regexes" {
	{
		game 'M\xfcller, J\xfcrgen'	# Latin-1 bytes
		game 'M\xc3\xbcller, J\xc3\xbcrgen'	# the same name in UTF-8
		game 'Muller, Jurgen'
	} >"$T/g.pgn"
	# what the JSON shows
	zhpgn -q --json "$T/g.pgn" | jq -r '.tags.White' >"$T/json"
	[ "$(sed -n 1p "$T/json")" = "Müller, Jürgen" ]
	run -0 zhpgn -q --json --player 'Müller, Jürgen' "$T/g.pgn"
	[ "$(printf '%s\n' "$output" | jq -r .game)" = "1
2" ]
	run -0 zhpgn -q --json --tag 'White = Müller, Jürgen' "$T/g.pgn"
	[ "$(printf '%s\n' "$output" | jq -r .game)" = "1
2" ]
	# a regex's '.' is one character: ü is one, not two bytes
	run -0 zhpgn -q --json --tag 'White ~ ^M.ller, J.rgen$' "$T/g.pgn"
	[ "$(printf '%s\n' "$output" | jq -r .game)" = "1
2
3" ]
	run -0 zhpgn -q --json --tag 'White ~ ü' "$T/g.pgn"
	[ "$(printf '%s\n' "$output" | jq -r .game)" = "1
2" ]
	# a test written in Latin-1 bytes reads as the same text
	run -0 zhpgn -q --json --player "$(printf 'M\xfcller, J\xfcrgen')" "$T/g.pgn"
	[ "$(printf '%s\n' "$output" | jq -r .game)" = "1
2" ]
	# and the game is written as it came, byte for byte
	zhpgn -q --player 'Müller, Jürgen' --max 1 "$T/g.pgn" | grep -q "$(printf 'M\xfcller')"
}

# ======================== 12: --split-by linear ========================

# split N: user CPU seconds of zhpgn --split-by over N distinct values
split_user() {
	local n=$1 d=$T/s$1
	python3 -c '
import sys
for i in range(int(sys.argv[1])):
    print("[Event \"e\"]\n[Site \"s%d\"]\n[Result \"*\"]\n\n*\n" % i)' "$n" >"$T/g$n.pgn"
	mkdir "$d"
	TIMEFORMAT=%U
	{ time zhpgn -q --split-by Site -o "$d/%s.pgn" "$T/g$n.pgn" 2>/dev/null; } 2>&1
	[ "$(ls "$d" | wc -l)" = "$n" ] || echo "files: $(ls "$d" | wc -l)"
	rm -rf "$d"
}

@test "select-regex: --split-by is linear in the values: 4x the values, not 16x the CPU" {
	local a b
	a=$(split_user 6000)
	b=$(split_user 24000)
	echo "user: $a s for 6000 values, $b s for 24000" >&3
	# quadratic: 16x (the old code: 0.4 s, then 6.5 s); linear: 4x.
	# Room for noise: under 8x, plus 0.3 s of clock granularity.
	python3 -c 'import sys; a, b = map(float, sys.argv[1:]); sys.exit(0 if b < 8 * a + 0.3 else 1)' "$a" "$b"
}

@test "select-regex: --split-by over 3000 values with 32 files open at most: every file holds its game" {
	python3 -c '
for i in range(3000):
    print("[Event \"e\"]\n[Site \"s%d\"]\n[Result \"*\"]\n\n*\n" % (i % 1500))' >"$T/g.pgn"
	mkdir "$T/s" && cd "$T/s"
	run -0 zhpgn --split-by Site -o 'x-%s.pgn' "$T/g.pgn"
	assert_line "zhpgn: 1500 files written (-o 'x-%s.pgn')"
	# each file: two games (the second appended after the file was closed)
	[ "$(cat x-*.pgn | grep -c '^\[Event ')" = 3000 ]
	for i in 0 749 1499; do
		[ "$(grep -c "^\[Site \"s$i\"\]" "x-s$i.pgn")" = 2 ]
		[ "$(grep -c '^\[Event ' "x-s$i.pgn")" = 2 ]
	done
}

# ======================== 22: --split-by's file names ========================

@test "select-regex: --split-by keeps + , = @ in file names; / % ~ blanks, a first . and a leading - are escaped" {
	{
		game a TimeControl '180+2'
		game b TimeControl '-'
		game c TimeControl '.hidden'
		game d TimeControl 'a/b c'
		game e TimeControl 'x,y=z@w'
		game f TimeControl '50%~'
		game g TimeControl '../up'
	} >"$T/g.pgn"
	mkdir "$T/s" && cd "$T/s"
	zhpgn -q --split-by TimeControl -o '%s.pgn' "$T/g.pgn"
	# the names by the manual's rule, computed apart (python)
	python3 - "$T/g.pgn" >"$T/want" <<-'EOF'
	import re, sys
	keep = set(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.+,=@")
	for v in re.findall(rb'\[TimeControl "([^"]*)"\]', open(sys.argv[1], "rb").read()):
	    out = ""
	    for i, b in enumerate(v):
	        lead = i == 0 and b in b".-"
	        out += chr(b) if b in keep and not lead else "%%%02X" % b
	    print(out + ".pgn")
	EOF
	ls | sort >"$T/got"
	sort "$T/want" | cmp - "$T/got"
	[ -f '180+2.pgn' ] && [ -f '%2D.pgn' ] && [ -f '%2Ehidden.pgn' ] &&
	    [ -f 'a%2Fb%20c.pgn' ] && [ -f 'x,y=z@w.pgn' ] && [ -f '50%25%7E.pgn' ] &&
	    [ -f '%2E.%2Fup.pgn' ]
	# each file holds its game
	[ "$(grep -h '^\[White ' '180+2.pgn' 'x,y=z@w.pgn')" = '[White "a"]
[White "e"]' ]
	# after a prefix a '-' needs no escape: "-" -> tc--.pgn
	mkdir "$T/p" && cd "$T/p"
	zhpgn -q --split-by TimeControl -o 'tc-%s.pgn' "$T/g.pgn"
	[ -f 'tc--.pgn' ] && [ -f 'tc-180+2.pgn' ] && [ -f 'tc-%2Ehidden.pgn' ]
}
