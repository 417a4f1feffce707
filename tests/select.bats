#!/usr/bin/env bats
# Selecting games (issue 23; cli/selopts.c, libzh's zh_select_*): every
# option of zhpgn, zhreplay and zhcheck, each answer obtained another
# way: tag tests by jq over the same games' JSON (or awk over the PGN),
# standard chess's --tag and --dedupe by pgn-extract, positions by
# replaying every game with zhreplay -F fen and grepping, duplicates
# across dialects by a file and its own conversion.

bats_require_minimum_version 1.5.0
load common

ZT=$TESTDATA/select/crazyhouse-tags-200.pgn
CT=$TESTDATA/select/chess-tags-200.pgn
FICS=$TESTDATA/pgn/fatics-zh.pgn

setup() {
	T=$BATS_TEST_TMPDIR
}

# sites FILE [ZHPGN ARGS...]: the Site tags of the games zhpgn selects
# from FILE, in order (duplicates keep their place).
sites() {
	local f=$1
	shift
	zhpgn -q --json "$@" "$f" | jq -r '.tags.Site'
}

# jqsites FILE FILTER: the Site tags of FILE's games that jq's FILTER
# (over zhkit-json(5) game objects) keeps.
jqsites() {
	zhpgn -q --json "$1" | jq -r "select($2) | .tags.Site"
}

# the same list, or a failure showing both
same_list() {
	diff "$1" "$2" >"$T/diff" || fail "$3: $(head -20 "$T/diff")"
}

# stat FILE KEY: a number of the --stats object
stat() {
	jq -r "$2" "$1"
}

@test "select: tag comparisons and regular expressions match jq over the games' JSON" {
	local w
	w=$(grep -m1 '^\[White ' "$ZT" | sed 's/^\[White "\(.*\)"\]$/\1/')
	while IFS='|' read -r expr filter; do
		sites "$ZT" --tag "$expr" >"$T/a"
		jqsites "$ZT" "$filter" >"$T/b"
		[ -s "$T/b" ] || fail "$expr: jq selects nothing (a weak test)"
		same_list "$T/b" "$T/a" "--tag '$expr'"
	done <<EOF
WhiteElo >= 2000|.tags.WhiteElo != null and (.tags.WhiteElo|tonumber) >= 2000
BlackElo < 1500|.tags.BlackElo != null and (.tags.BlackElo|tonumber) < 1500
WhiteElo > 1750|.tags.WhiteElo != null and (.tags.WhiteElo|tonumber) > 1750
BlackElo <= 1600|.tags.BlackElo != null and (.tags.BlackElo|tonumber) <= 1600
White = $w|.tags.White == "$w"
White != $w|.tags.White != null and .tags.White != "$w"
Event ~ tournament|.tags.Event != null and (.tags.Event|test("tournament"))
Event !~ tournament|.tags.Event != null and (.tags.Event|test("tournament")|not)
White ~ _BOT$|.tags.White != null and (.tags.White|test("_BOT$"))
Termination = Normal|.tags.Termination == "Normal"
Date >= 2020.01.01|.tags.Date != null and .tags.Date >= "2020.01.01"
Date < 2019.06.15|.tags.Date != null and .tags.Date < "2019.06.15"
EOF
}

@test "select: TimeControl as base+increment (estimate base + 40 x increment seconds); '-' has no limit" {
	local tc='(if .tags.TimeControl == "-" then infinite else (.tags.TimeControl|split("+")|(.[0]|tonumber) + 40 * (.[1]|tonumber)) end)'
	grep -q '^\[TimeControl "-"\]' "$ZT" || fail "no correspondence game"
	sites "$ZT" --tag 'TimeControl >= 180' >"$T/a"
	jqsites "$ZT" "$tc >= 180" >"$T/b"
	same_list "$T/b" "$T/a" "TimeControl >= 180"
	sites "$ZT" --tag 'TimeControl < 180' >"$T/a"
	jqsites "$ZT" "$tc < 180" >"$T/b"
	[ -s "$T/b" ] || fail "no bullet game in the file"
	same_list "$T/b" "$T/a" "TimeControl < 180"
}

@test "select: tests on different tags all hold; = or ~ repeated on one tag: any; bounds: all; a missing tag passes only != and !~" {
	sites "$ZT" --tag 'WhiteElo >= 1800' --tag 'BlackElo >= 1800' >"$T/a"
	jqsites "$ZT" '(.tags.WhiteElo|tonumber) >= 1800 and (.tags.BlackElo|tonumber) >= 1800' >"$T/b"
	same_list "$T/b" "$T/a" "AND across tags"
	# = and ~ on one tag: either; bounds and exclusions: all (a range)
	a=$(grep '^\[White ' "$ZT" | sed -n 1p | sed 's/^\[White "\(.*\)"\]$/\1/')
	b=$(grep '^\[White ' "$ZT" | sed -n 2p | sed 's/^\[White "\(.*\)"\]$/\1/')
	sites "$ZT" --tag "White = $a" --tag "White = $b" >"$T/a"
	jqsites "$ZT" ".tags.White == \"$a\" or .tags.White == \"$b\"" >"$T/b"
	[ "$(wc -l <"$T/b")" -ge 2 ]
	same_list "$T/b" "$T/a" "= OR = on one tag"
	sites "$ZT" --tag 'White ~ ^a' --tag 'White ~ ^b' >"$T/a"
	jqsites "$ZT" '.tags.White|test("^a") or test("^b")' >"$T/b"
	same_list "$T/b" "$T/a" "~ OR ~ on one tag"
	sites "$ZT" --tag 'WhiteElo >= 1600' --tag 'WhiteElo < 2000' --tag 'WhiteElo != 1700' >"$T/a"
	jqsites "$ZT" '(.tags.WhiteElo|tonumber) as $e | $e >= 1600 and $e < 2000 and $e != 1700' >"$T/b"
	same_list "$T/b" "$T/a" "a range on one tag"
	# the FICS games have no Termination tag: no comparison or match
	# holds, the negations (!=, !~: "is not", "does not match") do
	for e in 'Termination = Normal' 'Termination < Z' 'Termination >= A' \
	    'Termination ~ .*' 'Termination ~ ^$'; do
		run -0 --separate-stderr zhpgn -q --json --tag "$e" "$FICS"
		[ -z "$output" ] || fail "a missing tag matched $e"
	done
	for e in 'Termination != Normal' 'Termination !~ .*'; do
		run -0 --separate-stderr zhpgn -q --json --tag "$e" "$FICS"
		[ "${#lines[@]}" -eq "$(grep -c '^\[Event ' "$FICS")" ] ||
		    fail "a missing tag did not pass $e"
	done
}

@test "select: --player matches White or Black" {
	local p
	p=$(grep -m1 '^\[Black ' "$ZT" | sed 's/^\[Black "\(.*\)"\]$/\1/')
	sites "$ZT" --player "$p" >"$T/a"
	jqsites "$ZT" ".tags.White == \"$p\" or .tags.Black == \"$p\"" >"$T/b"
	[ "$(wc -l <"$T/b")" -ge 1 ] || fail "no game of $p"
	same_list "$T/b" "$T/a" "--player $p"
	sites "$ZT" --player '~ _BOT$' >"$T/a"
	jqsites "$ZT" '(.tags.White|test("_BOT$")) or (.tags.Black|test("_BOT$"))' >"$T/b"
	same_list "$T/b" "$T/a" "--player '~ _BOT\$'"
}

@test "select: standard chess --tag gives pgn-extract -t's games" {
	PE=${PGN_EXTRACT-$(command -v pgn-extract || command -v /usr/games/pgn-extract || :)}
	[ -x "$PE" ] || skip "pgn-extract missing (apt-get install pgn-extract)"
	printf 'WhiteElo >= "1800"\nBlackElo >= "1700"\n' >"$T/tags"
	"$PE" -s -t "$T/tags" -o "$T/pe.pgn" "$CT"
	grep '^\[Site ' "$T/pe.pgn" | sed 's/^\[Site "\(.*\)"\]$/\1/' >"$T/b"
	[ "$(wc -l <"$T/b")" -ge 10 ] || fail "pgn-extract kept too few games"
	sites "$CT" --tag 'WhiteElo >= 1800' --tag 'BlackElo >= 1700' >"$T/a"
	same_list "$T/b" "$T/a" "pgn-extract -t"
}

@test "select: standard chess --dedupe keeps pgn-extract -D's games, --duplicates holds its -d file's" {
	PE=${PGN_EXTRACT-$(command -v pgn-extract || command -v /usr/games/pgn-extract || :)}
	[ -x "$PE" ] || skip "pgn-extract missing (apt-get install pgn-extract)"
	"$PE" -s -d "$T/pe-dups.pgn" -o "$T/pe.pgn" "$CT"
	grep '^\[Site ' "$T/pe.pgn" | sed 's/^\[Site "\(.*\)"\]$/\1/' >"$T/b"
	grep '^\[Site ' "$T/pe-dups.pgn" | sed 's/^\[Site "\(.*\)"\]$/\1/' >"$T/bd"
	[ -s "$T/bd" ] || fail "pgn-extract found no duplicate"
	sites "$CT" --dedupe --duplicates "$T/dups.pgn" >"$T/a"
	same_list "$T/b" "$T/a" "kept"
	grep '^\[Site ' "$T/dups.pgn" | sed 's/^\[Site "\(.*\)"\]$/\1/' >"$T/ad"
	same_list "$T/bd" "$T/ad" "duplicates"
}

@test "select: a FICS file and its own --to chesscom conversion: half are duplicates, the originals kept" {
	local n
	n=$(grep -c '^\[Event ' "$FICS")
	zhpgn -q --to chesscom "$FICS" >"$T/cc.pgn"
	cat "$FICS" "$T/cc.pgn" >"$T/both.pgn"
	for j in 1 2; do
		ZH_JOBS_CHUNK=300 zhpgn -j $j --dedupe --stats "$T/s$j.json" \
		    --duplicates "$T/d$j.pgn" "$T/both.pgn" >"$T/o$j.pgn" 2>/dev/null
		[ "$(stat "$T/s$j.json" .read)" -eq $((2 * n)) ]
		[ "$(stat "$T/s$j.json" .duplicates)" -eq "$n" ] ||
		    fail "-j $j: $(stat "$T/s$j.json" .duplicates) duplicates of $n"
		cmp "$T/d$j.pgn" <(zhpgn -q --to chesscom "$T/d$j.pgn") ||
		    fail "the duplicates are not the chesscom copies"
	done
	cmp "$T/o1.pgn" "$T/o2.pgn"
	cmp "$T/d1.pgn" "$T/d2.pgn"
	cmp "$T/o1.pgn" <(zhpgn -q "$FICS") || fail "not the FICS games kept"
}

@test "select: --game-variant is the detected variant (FICS games have no Variant tag)" {
	run -0 --separate-stderr zhpgn -q --json --game-variant crazyhouse "$FICS"
	[ "${#lines[@]}" -eq "$(grep -c '^\[Event ' "$FICS")" ]
	run -0 --separate-stderr zhpgn -q --json --game-variant chess "$FICS"
	[ -z "$output" ]
	cat "$FICS" "$CT" >"$T/mix.pgn"
	zhpgn -q --json --game-variant chess "$T/mix.pgn" | jq -r .variant | sort -u >"$T/a"
	[ "$(cat "$T/a")" = chess ]
	[ "$(zhpgn -q --json --game-variant chess "$T/mix.pgn" | wc -l)" -eq 200 ]
}

@test "select: --ply-count and --ending checkmate against the JSON's moves" {
	sites "$ZT" --ply-count 40-80 >"$T/a"
	jqsites "$ZT" '(.moves|length) as $n | $n >= 40 and $n <= 80' >"$T/b"
	same_list "$T/b" "$T/a" "--ply-count 40-80"
	sites "$ZT" --ply-count -30 >"$T/a"
	jqsites "$ZT" '(.moves|length) <= 30' >"$T/b"
	same_list "$T/b" "$T/a" "--ply-count -30"
	sites "$ZT" --ending checkmate >"$T/a"
	jqsites "$ZT" '(.moves|length) > 0 and (.moves[-1].san|endswith("#"))' >"$T/b"
	[ -s "$T/b" ] || fail "no mate in the file"
	same_list "$T/b" "$T/a" "--ending checkmate"
	sites "$ZT" --ending none >"$T/a"
	jqsites "$ZT" '(.moves|length) == 0 or (.moves[-1].san|endswith("#")|not)' >"$T/b"
	same_list "$T/b" "$T/a" "--ending none"
}

# Six FICS games and two made illegal here (a king's leap, a drop of a
# piece not in hand): --only-valid and --only-invalid split them.
mixed() {
	cat "$FICS"
	printf '[Event "bad 1"]\n[Result "*"]\n\n1. e4 e5 2. Ke4 *\n\n'
	printf '[Event "bad 2"]\n[Result "*"]\n\n1. Q@e4 *\n\n'
}

@test "select: --only-valid and --only-invalid; zhcheck neither checks nor reports a game not selected" {
	mixed >"$T/m.pgn"
	# the selected games are invalid: rejected, exit 1
	run -1 --separate-stderr zhpgn -q --only-invalid --json "$T/m.pgn"
	[ "$(printf '%s\n' "$output" | jq -r .tags.Event | tr '\n' ,)" = "bad 1,bad 2," ]
	run -0 --separate-stderr zhpgn -q --only-valid --json "$T/m.pgn"
	[ "${#lines[@]}" -eq 6 ]
	run -0 zhcheck --only-valid "$T/m.pgn"
	refute_output --partial "error"
	assert_output --partial "checked 6 games: 6 valid, 0 invalid"
	run -1 zhcheck --only-invalid "$T/m.pgn"
	assert_output --partial "checked 2 games: 0 valid, 2 invalid"
	[ "$(printf '%s\n' "$output" | grep -c ': error: ')" -eq 2 ]
}

@test "select: a game dropped by its tags is not replayed (nothing said of its bad moves or text)" {
	mixed >"$T/m.pgn"
	printf '[Event "bad 3"]\n[Result "*"]\n\n1. e4 {unterminated *\n\n' >>"$T/m.pgn"
	for t in zhpgn zhreplay zhcheck; do
		run -0 "$t" --tag 'Event ~ FICS' "$T/m.pgn"
		refute_output --partial "error"
		run -0 "$t" -j 2 --tag 'Event ~ FICS' "$T/m.pgn"
		refute_output --partial "error"
	done
}

@test "select: --position finds the games whose mainline reaches the FEN (zhreplay -F fen and grep), in any dialect" {
	local fen key
	# a position of the third game, 20 plies in
	fen=$(zhreplay -F fen "$FICS" | awk 'BEGIN{RS=""} NR==3' | sed -n 21p)
	key=$(printf '%s\n' "$fen" | cut -d' ' -f1,2)
	# expected: every game's replay grepped for board+pockets and side
	zhreplay -F fen "$FICS" | awk -v k="$key" 'BEGIN{RS=""; FS="\n"}
	    { for (i = 1; i <= NF; i++) { split($i, f, " ");
	      if (f[1] " " f[2] == k) { print NR; break } } }' >"$T/b"
	[ -s "$T/b" ] || fail "the FEN is in no game"
	zhpgn -q --json "$FICS" | jq -r .tags.FICSGamesDBGameNo >"$T/nos"
	awk 'NR==FNR{ w[$1]; next } (FNR in w)' "$T/b" "$T/nos" >"$T/bn"
	zhpgn -q --json --position "$fen" "$FICS" | jq -r .tags.FICSGamesDBGameNo >"$T/a"
	same_list "$T/bn" "$T/a" "--position (lichess FEN)"
	xfen=$(printf '%s\n' "$fen" | zhfen --to xboard)
	zhpgn -q --json --position "$xfen" "$FICS" | jq -r .tags.FICSGamesDBGameNo >"$T/a"
	same_list "$T/bn" "$T/a" "--position (xboard FEN)"
	zhreplay -q -F san --position "$fen" "$FICS" >"$T/r"
	[ "$(wc -l <"$T/r")" -eq "$(wc -l <"$T/bn")" ]
}

@test "select: counts add up (read = selected + dropped + duplicates), the same with -j 1, -j 2 and tiny chunks" {
	local t args=(--tag 'WhiteElo >= 1600' --ply-count 30- --dedupe)
	for t in zhpgn zhreplay zhcheck; do
		for CH in "" 2000; do
			ZH_JOBS_CHUNK=$CH "$t" -j 2 "${args[@]}" --stats "$T/s2.json" "$ZT" >"$T/o2" 2>"$T/e2" || :
			"$t" -j 1 "${args[@]}" --stats "$T/s1.json" "$ZT" >"$T/o1" 2>"$T/e1" || :
			cmp "$T/o1" "$T/o2" || fail "$t: stdout -j 1 and -j 2 differ ($CH)"
			cmp "$T/e1" "$T/e2" || fail "$t: stderr -j 1 and -j 2 differ ($CH)"
			# the same but for the command line (-j) that --stats records
			jq -c 'del(.arguments)' "$T/s1.json" | sed 's/s[12]\.json//g' >"$T/s1n"
			jq -c 'del(.arguments)' "$T/s2.json" | sed 's/s[12]\.json//g' >"$T/s2n"
			cmp "$T/s1n" "$T/s2n" || fail "$t: --stats differ"
			jq -e '.read == 200 and .read == .selected + ([.dropped[].games]|add) + .inverted + .duplicates' \
			    "$T/s1.json" >/dev/null || fail "$t: $(cat "$T/s1.json")"
			jq -e '.dropped[0].games > 0 and .dropped[1].games > 0 and .duplicates > 0' \
			    "$T/s1.json" >/dev/null || fail "$t: a weak test: $(cat "$T/s1.json")"
		done
	done
	run -0 zhpgn "${args[@]}" "$ZT"
	sel=$(jq .selected "$T/s1.json")
	assert_output --partial "zhpgn: $sel games: $sel written, 0 rejected"
	assert_output --regexp "zhpgn: selection: 200 read, $sel selected, [0-9]+ dropped by --tag 'WhiteElo >= 1600', [0-9]+ dropped by --ply-count '30-', [0-9]+ duplicates"
}

@test "select: --stats is one JSON object: tool, version, options as given, inputs, counts" {
	zhpgn -q --tag 'WhiteElo >= 2000' --dedupe --max 50 --stats "$T/s.json" "$ZT" >/dev/null
	jq -e --arg f "$ZT" '.tool == "zhpgn" and (.version|type) == "string" and
	    .options == [["--tag","WhiteElo >= 2000"],["--dedupe"],["--max","50"],["--stats","'"$T/s.json"'"]] and
	    .inputs == [$f] and .max == 50 and .written == .selected and .rejected == 0 and
	    .dropped[0].option == "--tag" and .dropped[0].test == "WhiteElo >= 2000"' \
	    "$T/s.json" >/dev/null || fail "$(cat "$T/s.json")"
	[ "$(wc -l <"$T/s.json")" -eq 1 ]
	zhcheck -q --only-valid --stats "$T/c.json" "$ZT"
	jq -e '.tool == "zhcheck" and .valid == .selected and .invalid == 0 and
	    .dropped[0].option == "--only-valid"' "$T/c.json" >/dev/null || fail "$(cat "$T/c.json")"
}

@test "select: --max N writes the first N selected games and stops reading" {
	zhpgn -q "$ZT" >"$T/all.pgn"
	for j in 1 2; do
		zhpgn -q -j $j --max 7 "$ZT" >"$T/m.pgn"
		[ "$(grep -c '^\[Event ' "$T/m.pgn")" -eq 7 ]
		cmp "$T/m.pgn" <(awk '/^\[Event /{n++} n<=7' "$T/all.pgn")
		# an endless input: only stopping reading ends the run (a
		# run that reads on is stopped by its CPU time, SIGXCPU, not
		# by the wall clock a loaded machine stretches)
		run -0 sh -c "ulimit -t 20; while cat '$ZT'; do :; done | zhpgn -q -j $j --max 3 >/dev/null"
		run -0 sh -c "ulimit -t 20; while cat '$ZT'; do :; done | zhcheck -q -j $j --tag 'WhiteElo >= 2000' --max 30"
	done
	zhpgn -q --tag 'WhiteElo >= 2000' "$ZT" | awk '/^\[Event /{n++} n<=5' >"$T/b"
	zhpgn -q --tag 'WhiteElo >= 2000' --max 5 "$ZT" >"$T/a"
	cmp "$T/a" "$T/b"
}

@test "select: --invert selects exactly the games the tests drop; duplicates are still dropped" {
	sites "$ZT" --tag 'WhiteElo >= 1800' --ply-count 50- >"$T/sel"
	sites "$ZT" --tag 'WhiteElo >= 1800' --ply-count 50- --invert >"$T/inv"
	jqsites "$ZT" '((.tags.WhiteElo|tonumber) >= 1800 and (.moves|length) >= 50)|not' >"$T/b"
	same_list "$T/b" "$T/inv" "--invert"
	[ $(($(wc -l <"$T/sel") + $(wc -l <"$T/inv"))) -eq 200 ]
	zhpgn -q --invert --tag 'WhiteElo >= 1800' --dedupe --stats "$T/s.json" "$ZT" >/dev/null
	jq -e '.inverted > 0 and .duplicates > 0 and .read == .selected + .inverted + .duplicates' \
	    "$T/s.json" >/dev/null || fail "$(cat "$T/s.json")"
}

@test "select: a bad option is exit 2 with its column, before any input is read" {
	run -2 zhpgn --tag 'WhiteElo >== 2000' /nonexistent.pgn
	assert_output "zhpgn: --tag 'WhiteElo >== 2000': 10: unknown operator '>=='"$'\n'"Try 'zhpgn --help' for more information."
	for t in zhpgn zhreplay zhcheck; do
		run -2 "$t" --tag 'White ~ (' /nonexistent.pgn
		assert_output --regexp "^$t: --tag 'White ~ \(': [0-9]+: "
		run -2 "$t" --position 'not a fen' /nonexistent.pgn
		assert_output --regexp "^$t: --position 'not a fen': [0-9]+: "
		run -2 "$t" --ending sometimes /nonexistent.pgn
		assert_output --regexp "^$t: --ending 'sometimes': 1: "
		run -2 "$t" --ply-count 'x-3' /nonexistent.pgn
		assert_output --regexp "^$t: --ply-count 'x-3': 1: "
		run -2 "$t" --max 0 /nonexistent.pgn
		refute_output --partial nonexistent
	done
	run -2 zhcheck --fen --tag 'White = x' /nonexistent
}

@test "select: without a selection option the summary is today's line" {
	run -0 zhpgn -o "$T/o.pgn" "$ZT"
	assert_output "zhpgn: 200 games: 200 written, 0 rejected"
	run -0 zhcheck "$ZT"
	refute_output --partial selection
}
