#!/usr/bin/env bats
# Hostile input: each case (made at test time by tests/helpers/gen-hostile.sh,
# nothing big is committed) is a valid game, the hostile one, and another
# valid game.  Every tool must report the hostile game once as
# "TOOL: FILE:LINE:COL: error: game 2...", exit 1, still process the two
# valid games (counted in the summary and found in the output), finish
# within seconds (timeout 20 s) and stay within the memory bound: peak
# RSS under 20 MB with -j 1 and 64 MB with -j 2 (GNU time's %M).
#
# Under VALGRIND=1 (and make asan) RSS is not measured: the checker's own
# memory counts.  Nothing is skipped under memcheck: the reader stops
# keeping a game at its limit, so even the 100 MB case takes seconds.

bats_require_minimum_version 1.5.0
load common

CASES="comment nested tags nul utf8 truncated endless garbage fen1000"

setup_file() {
	local c
	for c in $CASES; do
		sh "$BATS_TEST_DIRNAME/helpers/gen-hostile.sh" "$c" "$BATS_FILE_TMPDIR/$c.pgn"
	done
}

setup() {
	cd "$BATS_FILE_TMPDIR" || return 1
	# RSS means nothing under memcheck or ASan (make asan sets ZH_SANFLAGS)
	[ -x /usr/bin/time ] && [ -z "${VALGRIND-}" ] && [ -z "${ZH_SANFLAGS-}" ] &&
	    TIME=1 || TIME=
}

# hrun JOBS TOOL ARGS...: run TOOL -j JOBS ARGS (stdout in $output,
# stderr in $stderr, status in $status); check time and peak RSS.
hrun() {
	local j=$1 t=$2 max rss
	shift 2
	if [ -n "$TIME" ]; then
		run --separate-stderr timeout 20 /usr/bin/time -o "$BATS_TEST_TMPDIR/rss" \
		    -f %M "$ZH_TOP/bin/$t" -j "$j" "$@"
		rss=$(tail -1 "$BATS_TEST_TMPDIR/rss")
		# (-j 1: a 16 MB game buffer, and 4 MB the tools hold from the
		# start since Parquet's codecs came: snappy brings the C++ runtime)
		max=$([ "$j" -eq 1 ] && echo 24576 || echo 65536)
		echo "# $t -j $j $*: peak RSS $rss KB" >&3
		[ "$rss" -lt "$max" ] || fail "$t -j $j $*: peak RSS $rss KB, limit $max KB"
	elif [ -n "${VALGRIND-}" ]; then
		run --separate-stderr "$t" -j "$j" "$@"	# the valgrind wrapper
	else
		run --separate-stderr timeout 60 "$ZH_TOP/bin/$t" -j "$j" "$@"
	fi
	[ "$status" -ne 124 ] || fail "$t -j $j $*: timed out"
}

# The first message on stderr but warnings of text skipped between games
# (garbage has lines that cannot start a game before its game 2).
first_error() {
	grep -v ': warning: text between games: ' <<<"$stderr" | head -1
}

# hostile CASE WORDS: the three PGN tools, -j 1 and -j 2, on CASE.pgn;
# game 2's error holds WORDS; games 1 and 3 are valid ("truncated" has
# no game 3).
hostile() {
	local c=$1 words=$2 j n=3 valid=2 e
	[ "$c" = truncated ] && n=2 valid=1
	for j in 1 2; do
		hrun "$j" zhcheck "$c.pgn"
		assert_equal "$status" 1
		e=$(first_error)
		[[ $e =~ ^zhcheck:\ $c.pgn:[0-9]+:[0-9]+:\ error:\ game\ 2 ]] || fail "zhcheck: $e"
		[[ $e == *"$words"* ]] || fail "zhcheck: no '$words' in: $e"
		# (the text between games skipped is counted after it)
		assert_equal "${stderr_lines[-1]%% (*}" \
		    "zhcheck: checked $n games: $valid valid, 1 invalid"

		hrun "$j" zhpgn "$c.pgn"
		assert_equal "$status" 1
		e=$(first_error)
		[[ $e =~ ^zhpgn:\ $c.pgn:[0-9]+:[0-9]+:\ error:\ game\ 2 ]] || fail "zhpgn: $e"
		[[ $e == *"$words"* ]] || fail "zhpgn: no '$words' in: $e"
		assert_equal "${stderr_lines[-1]%% (*}" "zhpgn: $n games: $valid written, 1 rejected"
		assert_line '[Black "before"]'
		[ "$c" = truncated ] || assert_line '[Black "after"]'

		hrun "$j" zhpgn --json -q "$c.pgn"
		assert_equal "$status" 1
		assert_equal "${#lines[@]}" "$n"
		assert_line --index 0 --partial '"valid":true'
		assert_line --index 1 --partial '"valid":false'
		[ "$c" = truncated ] || assert_line --index 2 --partial '"valid":true'

		hrun "$j" zhreplay -F uci "$c.pgn"
		assert_equal "$status" 1
		e=$(first_error)
		[[ $e =~ ^zhreplay:\ $c.pgn:[0-9]+:[0-9]+:\ error:\ game\ 2 ]] || fail "zhreplay: $e"
		assert_equal "${stderr_lines[-1]%% (*}" "zhreplay: replayed $n games: 1 with errors"
		# one line per game: game 1 and game 3 in full
		assert_line --index 0 'e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7'
		[ "$(grep -cx 'e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7' <<<"$output")" -eq "$valid" ] ||
		    fail "zhreplay: games 1 and 3 not both replayed: $output"
	done
}

@test "hostile: a 100 MB comment on one line" {
	hostile comment "comment too long"
}

@test "hostile: 10,000 nested variations" {
	hostile nested "nested too deeply"
}

@test "hostile: 100,000 tags" {
	hostile tags "too many tags"
}

@test "hostile: NUL bytes" {
	hostile nul "NUL byte"
}

@test "hostile: a file truncated inside a comment" {
	hostile truncated "unterminated comment"
}

@test "hostile: an endless move list (200,000 plies of knight shuffles)" {
	hostile endless "too many moves"
}

@test "hostile: 1 MB of random binary garbage" {
	hostile garbage "NUL byte"
}

@test "hostile: --limit raises a limit: the endless game is then played out" {
	# memory then grows with that game (33 MB for 200,000 plies): no
	# RSS bound here
	run --separate-stderr zhcheck --limit plies=300000 endless.pgn
	assert_equal "$status" 0
	assert_equal "${stderr_lines[-1]}" "zhcheck: checked 3 games: 3 valid, 0 invalid (0 warnings)"
	hrun 1 zhpgn -q --limit comment=200 --limit tags=5 nested.pgn
	assert_equal "$status" 1
	[[ ${stderr_lines[0]} == *"game 1: too many tags (limit 5)"* ]] || fail "$stderr"
}

@test "hostile: invalid UTF-8 is not an error: read as Latin-1 in JSON (zhkit-json(5))" {
	# Old archives are Latin-1: refusing them would lose games, so a
	# byte that is not UTF-8 is read as Latin-1 and the JSON stays valid.
	local j
	for j in 1 2; do
		hrun "$j" zhcheck utf8.pgn
		assert_equal "$status" 0
		assert_equal "${stderr_lines[-1]}" "zhcheck: checked 3 games: 3 valid, 0 invalid (0 warnings)"
		hrun "$j" zhpgn -q --json utf8.pgn
		assert_equal "$status" 0
		assert_equal "${#lines[@]}" 3
		printf '%s\n' "$output" | python3 -c '
import json, sys
games = [json.loads(l) for l in sys.stdin]
assert games[1]["tags"]["Annotator"] == "\u00ff\u00fe \u00c0\u0080", games[1]["tags"]
assert all(g["valid"] for g in games)'
		hrun "$j" zhreplay -q -F jsonl utf8.pgn
		assert_equal "$status" 0
		printf '%s\n' "$output" | python3 -c '
import json, sys
[json.loads(l) for l in sys.stdin]'
	done
}

@test "hostile: zhfen, a FEN with 1,000 fields between two valid ones" {
	local t
	for t in "zhfen" "zhfen --check" "zhfen --json" "zhcheck --fen"; do
		if [ -n "$TIME" ]; then
			run --separate-stderr timeout 20 /usr/bin/time -o "$BATS_TEST_TMPDIR/rss" \
			    -f %M "$ZH_TOP/bin/${t%% *}" ${t#"${t%% *}"} fen1000.pgn
			[ "$(tail -1 "$BATS_TEST_TMPDIR/rss")" -lt 20480 ] || fail "$t: RSS"
		else
			# shellcheck disable=SC2086
			run --separate-stderr $t fen1000.pgn
		fi
		assert_equal "$status" 1
		assert_equal "${stderr_lines[0]}" \
		    "${t%% *}: fen1000.pgn:2:80: error: too many fields (at most 16)"
		[[ ${stderr_lines[-1]} == *"checked 3 positions: 2 valid, 1 invalid"* ]] || fail "$t: $stderr"
	done
	# -q: no summary; the error is still said (one face: -q is the
	# summary alone in every tool)
	run -1 --separate-stderr zhfen -q fen1000.pgn
	assert_equal "${#lines[@]}" 2
	assert_equal "${#stderr_lines[@]}" 1
}
