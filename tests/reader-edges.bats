#!/usr/bin/env bats
# Trust at the edges, the PGN reader's part (issue #22): no game is cut,
# lost or invented silently, whatever the buffer, -j or the split.
#   - a game the end of the input cuts (no termination marker) is an error
#     and a reject as read, never a game with a marker made up;
#   - text between games that is no game is a warning at its place;
#     an input with no game, or a cut compressed one, is said;
#   - --limit game=N holds exactly for every game, and the rejects file
#     gets the same bytes of an over-limit game with any -j;
#   - a damaged first tag line makes a rejected game, not skipped text;
#   - a rewrite of zhpgn's output is the same bytes (NAG after a move
#     number); an unknown Variant is at its tag for every tool.
# Expected answers come from the input bytes (awk, head, printf), not
# from the tools.

bats_require_minimum_version 1.5.0

setup() {
	load common
	T=$BATS_TEST_TMPDIR
	ZH=$TESTDATA/reader/five-games.pgn		# 5 games of 12 lines
	CLK=$TESTDATA/reader/clk-1k.pgn
}

# The messages of a run with -j 1 and -j 2 (chunks of 4 KB) are the same.
same_j() {
	local out1 err1
	run --separate-stderr "$@" -j 1
	out1=$output err1=$stderr
	ZH_JOBS_CHUNK=4096 run --separate-stderr "$@" -j 2
	assert_equal "$stderr" "$err1"
	assert_equal "$output" "$out1"
}

# cut_at FILE N: the first N bytes of FILE, and where its last byte that
# is not blank ends (LINE:COL, COL after it): the place of the error.
cut_at() {
	head -c "$2" "$1" >"$T/cut.pgn"
	LC_ALL=C awk '/[^ \t\r]/ { l = NR; t = $0; sub(/[ \t\r]+$/, "", t)
		c = length(t) } END { print l ":" c + 1 }' "$T/cut.pgn"
}

@test "reader-edges: a file cut mid-movetext, mid-tag-section or mid-comment is an error, its game rejected as read" {
	local n at want
	# game 5: tags on lines 49-57 (bytes 2431-2680), movetext on line
	# 59 (bytes 2692-3102); cut mid-movetext, mid-comment, mid-tag line
	for n in 3000 2900 2500; do
		at=$(cut_at "$ZH" "$n")
		[ "$n" -ne 2900 ] || printf ' {a comment' >>"$T/cut.pgn"
		[ "$n" -eq 3000 ] || at=
		run --separate-stderr zhcheck "$T/cut.pgn"
		assert_equal "$status" 1
		[ -z "$at" ] || [[ $stderr == *"cut.pgn:$at: error: game "*"game truncated"* ]] ||
		    fail "cut at $n: no truncation error at $at: $stderr"
		[[ ${stderr_lines[-1]} == *", 1 invalid "* ]] || fail "$stderr"
		same_j zhpgn -r "$T/rej.pgn" "$T/cut.pgn"
		assert_equal "$status" 1
		[[ ${stderr_lines[-1]} == *", 1 rejected" ]] || fail "$stderr"
		# the rejects hold the cut game as read (but trailing blanks)
		want=$(LC_ALL=C awk '/^\[Event /{ s = NR } END { print s }' "$T/cut.pgn")
		printf '%s\n\n' "$(tail -n "+$want" "$T/cut.pgn" | sed -e '$s/[ \t]*$//')" >"$T/want.pgn"
		cmp "$T/want.pgn" "$T/rej.pgn" || fail "cut at $n: rejects differ"
		# and no game with a result that the input does not have
		[ "$(grep -c '^\[Event ' <<<"$output")" -eq 4 ] || fail "cut at $n: $output"
	done
	# cut inside the tag section, after a whole tag line
	head -n 52 "$ZH" >"$T/cut.pgn"
	run --separate-stderr zhcheck "$T/cut.pgn"
	assert_equal "$status" 1
	[[ $stderr == *"cut.pgn:52:$(( $(sed -n 52p "$ZH" | wc -c) )): error: game 5"*"game truncated"* ]] ||
	    fail "$stderr"
}

@test "reader-edges: a game without a marker followed by another game stays a warning" {
	printf '[Event "a"]\n\n1. e4 e5\n\n[Event "b"]\n\n1. d4 d5 *\n' >"$T/two.pgn"
	same_j zhcheck "$T/two.pgn"
	assert_equal "$status" 0
	[[ $stderr == *"two.pgn:3:7: warning: game 1"*"does not end with a result"* ]] || fail "$stderr"
	# zhpgn writes a marker, and says which
	printf '[Event "a"]\n[Result "0-1"]\n\n1. e4 e5\n\n[Event "b"]\n\n1. d4 d5 *\n' >"$T/two.pgn"
	same_j zhpgn "$T/two.pgn"
	assert_equal "$status" 0
	assert_line '1. e4 e5 0-1'
	assert_equal "${stderr_lines[0]}" "zhpgn: $T/two.pgn:4:7: warning: game 1: no termination marker; 0-1 written (from the Result tag, or * if it has none) [-Wno-termination]"
	# the same game last in the file is cut
	printf '[Event "b"]\n\n1. d4 d5 *\n\n[Event "a"]\n\n1. e4 e5\n\n' >"$T/two.pgn"
	same_j zhcheck "$T/two.pgn"
	assert_equal "$status" 1
	[[ $stderr == *"two.pgn:7:9: error: game 2"*"game truncated"* ]] || fail "$stderr"
}

@test "reader-edges: non-PGN input: plain text, an empty file, an HTML page" {
	printf 'hello world\n' >"$T/x.pgn"
	: >"$T/empty.pgn"
	printf '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n<body><h1>502 Bad Gateway</h1></body>\n</html>\n' >"$T/h.pgn"
	run --separate-stderr zhcheck "$T/x.pgn"
	assert_equal "$status" 1
	assert_equal "${stderr_lines[0]}" "zhcheck: $T/x.pgn:1:1: warning: text between games: \"hello world\" skipped (1 line, 11 bytes) [-Wtext-between-games]"
	assert_equal "${stderr_lines[1]}" "zhcheck: $T/x.pgn: error: no game in it"
	run --separate-stderr zhcheck "$T/empty.pgn"
	assert_equal "$status" 1
	assert_equal "${stderr_lines[0]}" "zhcheck: $T/empty.pgn: error: no game in it"
	run --separate-stderr zhcheck -j 2 "$T/h.pgn"
	assert_equal "$status" 1
	assert_equal "${stderr_lines[0]}" "zhcheck: $T/h.pgn:1:1: warning: text between games: \"<!DOCTYPE html>\" skipped (4 lines, $(( $(wc -c <"$T/h.pgn") - 4 )) bytes) [-Wtext-between-games]"
	assert_equal "${stderr_lines[1]}" "zhcheck: $T/h.pgn: error: no game in it"
	# the converters warn and go on
	for t in zhpgn zhreplay; do
		run --separate-stderr "$t" "$T/x.pgn" "$T/empty.pgn" "$ZH"
		assert_equal "$status" 0
		[ "${#lines[@]}" -gt 5 ] || fail "$t: the games of $ZH not written"
		[[ $stderr == *"$t: $T/x.pgn: warning: no game in it"* ]] || fail "$t: $stderr"
		[[ $stderr == *"$t: $T/empty.pgn: warning: no game in it"* ]] || fail "$t: $stderr"
		[[ $stderr != *"$ZH: warning: no game"* ]] || fail "$t: $stderr"
	done
}

@test "reader-edges: text between games is a warning at its line and column, the same with -j 2" {
	{
		head -n 12 "$ZH"
		printf '%% an escape line\nDownloaded from example.org\n\n  ====\n; a comment line\n'
		sed -n 13,24p "$ZH"
		printf '\x01\x02 binary\n'
	} >"$T/mix.pgn"
	same_j zhcheck -q "$T/mix.pgn"
	assert_equal "$status" 0
	[[ $stderr != *":13:1: warning: text"* && $stderr != *":17:1: warning: text"* ]] ||
	    fail "escape or ';' line reported: $stderr"
	[[ $stderr == *"mix.pgn:14:1: warning: text between games: \"Downloaded from example.org\" skipped (2 lines, 31 bytes)"* ]] ||
	    fail "$stderr"
	[[ $stderr == *"mix.pgn:30:1: warning: text between games: \"?? binary\" skipped (1 line, 9 bytes)"* ]] ||
	    fail "$stderr"
	same_j zhpgn -q "$T/mix.pgn"
	assert_equal "$status" 0
	[[ $stderr == *"mix.pgn:14:1: warning: text between games"* ]] || fail "$stderr"
	# GNU parallel pieces of one game: the same messages (lines aside)
	command -v parallel >/dev/null || skip "GNU parallel not installed"
	"$ZH_TOP/bin/zhcheck" -q <"$T/mix.pgn" 2>&1 >/dev/null |
	    sed -E 's/<stdin>:[0-9]+:/<stdin>:L:/' >"$T/one"
	parallel --pipe --recstart '[Event ' -N 1 -k "$ZH_TOP/bin/zhcheck" -q \
	    --game-offset '$(( {#} - 1 ))' <"$T/mix.pgn" 2>&1 >/dev/null |
	    sed -E 's/<stdin>:[0-9]+:/<stdin>:L:/' >"$T/pieces"
	[ "$(grep -c 'text between games' "$T/one")" -eq 2 ] || fail "$(cat "$T/one")"
	diff "$T/one" "$T/pieces" || fail "parallel pieces differ"
}

@test "reader-edges: a cut compressed input is said with its codec and exit 2; the other files are read" {
	local f kind
	printf '[Event "a"]\n\n1. e4 *\n' >"$T/a.pgn"
	# the first bytes of each: a magic number, and the stream cut after it
	printf '\x1f\x8b\x08\x00' >"$T/a.gz"
	printf '\x28\xb5\x2f\xfd' >"$T/a.zst"
	printf 'BZh91AY&SY' >"$T/a.bz2"
	printf '\xfd7zXZ\x00\x00' >"$T/a.xz"
	for f in gz:gzip zst:zstd bz2:bzip2 xz:xz; do
		IFS=: read -r ext kind <<<"$f"
		for j in 1 2; do
			run --separate-stderr zhcheck -j "$j" "$T/a.$ext" "$T/a.pgn"
			assert_equal "$status" 2
			[[ ${stderr_lines[0]} == "zhcheck: $T/a.$ext: error: $kind: "*" (at byte "*" of the compressed input)" ]] ||
			    fail "$stderr"
			[[ ${stderr_lines[-1]} == "zhcheck: checked 1 game: 1 valid, 0 invalid "* ]] ||
			    fail "$stderr"
		done
		run --separate-stderr zhpgn "$T/a.$ext" "$T/a.pgn"
		assert_equal "$status" 2
		assert_line '1. e4 *'
		run --separate-stderr zhreplay <"$T/a.$ext"
		assert_equal "$status" 2
		[[ ${stderr_lines[0]} == "zhreplay: <stdin>: error: $kind: "* ]] || fail "$stderr"
	done
}

@test "reader-edges: text compressed twice gets the reader's hint for the inner compression" {
	command -v gzip >/dev/null && command -v zstd >/dev/null || skip "no gzip or zstd"
	printf '[Event "a"]\n\n1. e4 *\n' | gzip -c | zstd -q -c >"$T/a.pgn.gz.zst"
	run --separate-stderr zhcheck "$T/a.pgn.gz.zst"
	assert_equal "$status" 2
	assert_equal "${stderr_lines[0]}" \
	    "zhcheck: $T/a.pgn.gz.zst: error: $T/a.pgn.gz.zst is gzip-compressed; try zcat $T/a.pgn.gz.zst | zhcheck"
}

# Each game of FILE over N bytes ("[Event " line to its last byte that is
# not blank): "LINE:COL game K", the place of its byte N + 1.
over_limit() {
	LC_ALL=C awk -v n="$2" '
	function flush() { if (g && e - s > n) print l ":" c " game " g }
	/^\[Event / { flush(); g++; s = off; l = 0 }
	/[^ \t\r]/ { e = off + length($0) }
	g && !l && off + length($0) >= s + n { l = NR; c = s + n - off + 1 }
	{ off += length($0) + 1 }
	END { flush() }' "$1"
}

# The "game too long" errors of zhcheck's stderr as "LINE:COL game K".
too_long() {
	sed -n 's/^zhcheck: [^:]*:\([0-9]*:[0-9]*\): error: game \([0-9]*\) .*: game too long (limit 1024 bytes)$/\1 game \2/p'
}

@test "reader-edges: --limit game=1K rejects exactly the games over 1 KB, at byte 1025, with -j 1, -j 2 and parallel pieces" {
	over_limit "$CLK" 1024 >"$T/want"
	[ "$(wc -l <"$T/want")" -eq 45 ] || fail "test data: $(wc -l <"$T/want") games over 1 KB"
	[ "$(grep -c '^\[Event ' "$CLK")" -eq 102 ] || fail "test data: not 102 games"
	for j in 1 2; do
		run --separate-stderr zhcheck -j "$j" --limit game=1K "$CLK"
		assert_equal "$status" 1
		too_long <<<"$stderr" | diff "$T/want" - || fail "-j $j: not the games over 1 KB"
		[ "$(grep -c ': error: ' <<<"$stderr")" -eq 45 ] || fail "-j $j: other errors"
		[[ ${stderr_lines[-1]} == "zhcheck: checked 102 games: 57 valid, 45 invalid "* ]] ||
		    fail "-j $j: ${stderr_lines[-1]}"
	done
	# from a pipe, read in other pieces
	run --separate-stderr zhcheck --limit game=1K <"$CLK"
	too_long <<<"$stderr" | diff "$T/want" - || fail "stdin: not the games over 1 KB"
	# GNU parallel pieces of 7 games: the same games and columns
	command -v parallel >/dev/null || skip "GNU parallel not installed"
	parallel --pipe --recstart '[Event ' -N 7 -k "$ZH_TOP/bin/zhcheck" -q --limit game=1K \
	    --game-offset '$(( ({#} - 1) * 7 ))' <"$CLK" 2>"$T/p.err" >/dev/null || true
	too_long <"$T/p.err" | sed 's/^[0-9]*:/L:/' >"$T/got"
	sed 's/^[0-9]*:/L:/' "$T/want" | diff - "$T/got" || fail "parallel pieces differ"
}

@test "reader-edges: an over-limit game's rejects are its first N bytes, the same with -j 1 and -j 2, and said" {
	local c big=$T/big.pgn start at
	c=$(head -c 58 /dev/zero | tr '\0' x)
	{
		printf '[Event "small"]\n\n1. d4 *\n\n[Event "big"]\n[Site "s"]\n\n'
		yes "{$c}" | head -n 5000
		printf '1. e4 *\n\n[Event "small"]\n\n1. d4 *\n'
	} >"$big"
	start=$(( $(head -n 4 "$big" | wc -c) + 1 ))
	at=$(over_limit "$big" 102400)
	assert_equal "${at#* }" "game 2"
	tail -c "+$start" "$big" | head -c 102400 >"$T/want.pgn"
	printf '\n\n' >>"$T/want.pgn"
	for j in 1 2; do
		run --separate-stderr zhpgn -j "$j" --limit game=100K -r "$T/rej$j.pgn" "$big"
		assert_equal "$status" 1
		assert_equal "${stderr_lines[0]}" "zhpgn: $big:${at%% *}: error: game 2: game too long (limit 102400 bytes); game rejected (only its first 102400 bytes go to the rejects file)"
		cmp "$T/want.pgn" "$T/rej$j.pgn" || fail "-j $j: rejects are not the first 100 KB"
		run --separate-stderr zhpgn -j "$j" --limit game=100K -r "$T/rej$j.pgn" <"$big"
		cmp "$T/want.pgn" "$T/rej$j.pgn" || fail "-j $j, stdin: rejects are not the first 100 KB"
	done
	# the default limit, 16 MiB
	[ -z "${VALGRIND-}" ] || return 0
	{
		printf '[Event "small"]\n\n1. d4 *\n\n[Event "big"]\n[Site "s"]\n\n'
		yes "{$c}" | head -n 300000
		printf '1. e4 *\n'
	} >"$big"
	for j in 1 2; do
		zhpgn -q -j "$j" -r "$T/rej$j.pgn" "$big" >/dev/null 2>&1 || true
		assert_equal "$(wc -c <"$T/rej$j.pgn")" $((16777216 + 2))
	done
	cmp "$T/rej1.pgn" "$T/rej2.pgn"
}

@test "reader-edges: a damaged first tag line makes a rejected game, every byte accounted for" {
	printf '[~vent "x"]\n[Site "s"]\n\n1. e4 *\n' >"$T/d.pgn"
	run --separate-stderr zhpgn --rejects "$T/r.pgn" <"$T/d.pgn"
	assert_equal "$status" 1
	assert_equal "${stderr_lines[0]}" "zhpgn: <stdin>:1:1: error: game 1: damaged tag pair: no tag name after '['; game rejected"
	assert_output ""
	cmp "$T/d.pgn" <(head -c -1 "$T/r.pgn") || fail "rejects: $(cat "$T/r.pgn")"
	# between two good games, with -j 1 and -j 2
	{ head -n 12 "$ZH"; printf '[~vent "x"]\n[Site "s"]\n\n1. e4 *\n\n'; sed -n 13,24p "$ZH"; } >"$T/d3.pgn"
	same_j zhpgn -r "$T/r.pgn" "$T/d3.pgn"
	assert_equal "$status" 1
	assert_equal "${stderr_lines[-1]}" "zhpgn: 3 games: 2 written, 1 rejected"
	cmp "$T/d.pgn" <(head -c -1 "$T/r.pgn")
	run --separate-stderr zhcheck "$T/d3.pgn"
	assert_equal "$status" 1
	[[ $stderr == *"d3.pgn:13:1: error: game 2: damaged tag pair"* ]] || fail "$stderr"
}

@test "reader-edges: zhpgn's output read back is the same bytes (NAG after a move number)" {
	printf '[Event "x"]\n\n1. e4 e5 2! Nf3 Nc6 3 ?? Bb5 3... !? a6 $14 *\n' >"$T/nag.pgn"
	for to in lichess xboard chesscom fairy; do
		zhpgn -q --to "$to" "$T/nag.pgn" >"$T/1.pgn"
		zhpgn -q --to "$to" "$T/1.pgn" >"$T/2.pgn"
		cmp "$T/1.pgn" "$T/2.pgn" || fail "--to $to: $(diff "$T/1.pgn" "$T/2.pgn")"
	done
	zhpgn -q "$T/nag.pgn" >"$T/1.pgn"
	run tail -2 "$T/1.pgn"
	assert_line --index 0 '1. e4 e5! 2. Nf3 Nc6?? 3. Bb5!? a6 $14 *'
}

@test "reader-edges: an unknown Variant is reported at its tag by every tool" {
	printf '[Event "x"]\n[Site "?"]\n  [Variant "Bughouse2"]\n\n1. e4 *\n' >"$T/v.pgn"
	for t in zhcheck zhpgn zhreplay; do
		for j in 1 2; do
			run --separate-stderr "$t" -j "$j" "$T/v.pgn"
			assert_equal "$status" 1
			[[ ${stderr_lines[0]} == "$t: $T/v.pgn:3:3: error: game 1"*"unknown variant 'Bughouse2'"* ]] ||
			    fail "$t -j $j: ${stderr_lines[0]}"
		done
	done
	run zhpgn --json "$T/v.pgn"
	assert_output --partial '"errors":[{"line":3,"col":3,'
}
