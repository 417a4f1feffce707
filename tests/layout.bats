#!/usr/bin/env bats
# The code's layout: no function over 100 lines (STYLE.md) but the two
# PGN lexers, whose one loop over the bytes is kept whole for speed.

load common

# Every function of the C files given: "FILE:LINE NAME LENGTH", LENGTH
# the lines from its opening brace to its closing one (the body: a
# one-line body is 2).  A definition as STYLE.md writes it: the name at
# the start of a line (the type on the line before, or before it on the
# same line), the braces in column 0.
functions() {
	awk '
	FNR == 1 { name = ""; open = 0 }
	/^[A-Za-z_][^;=]*\(/ && !/^(typedef|struct|enum|union|#)/ {
		s = $0; sub(/\(.*/, "", s); sub(/.*[ *]/, "", s)
		name = s; at = FNR
	}
	/^\{/ && name != "" { open = FNR }
	/^}/ && open > 0 {
		print FILENAME ":" at " " name " " FNR - open
		name = ""; open = 0
	}' "$@"
}

# The C sources of the library, the tools and the pictures, wherever
# they sit under lib/, cmd/, cli/, draw/ and python/src/ (the module).
sources() {
	find "$ZH_TOP/lib" "$ZH_TOP/cmd" "$ZH_TOP/cli" "$ZH_TOP/draw" "$ZH_TOP/python/src" -name '*.c' | sort
}

@test "layout: the measure finds the functions and their lengths" {
	local t="$BATS_TEST_TMPDIR/f.c"
	{
		printf 'static int\nshort_one(int a)\n{\n\treturn a;\n}\n\n'
		printf 'int long_one(void)\n{\n'
		for i in $(seq 100); do printf '\tx();\n'; done
		printf '}\n'
	} >"$t"
	run functions "$t"
	assert_success
	assert_output "$t:2 short_one 2
$t:7 long_one 101"
	# the library's own: the lexers are long, a short one is found
	run bash -c "$(declare -f functions); functions '$ZH_TOP/lib/pgnlex.c'"
	assert_output --regexp "pgnlex.c:[0-9]+ fast [0-9]{3}"
	run bash -c "$(declare -f functions); functions '$ZH_TOP/lib/replay.c'"
	assert_output --partial " zh_replay "
}

@test "layout: no function over 100 lines outside the two PGN lexers" {
	local n
	n=$(sources | wc -l)
	[ "$n" -gt 50 ]		# lib/, cmd/, cli/ and draw/ found
	run bash -c "$(declare -f functions sources); ZH_TOP='$ZH_TOP'
	    functions \$(sources) | awk '\$3 > 100' |
	    grep -Ev '/lib/pgnlex\.c:[0-9]+ (fast|zh__pgn_lex_game) '"
	assert_output ""
}

# One path for every game: no tool or picture code reads the replay's
# two-board state (r->bug) to choose a path; zh_replay, the writers and
# zh_replay_walk choose.
@test "layout: no tool asks a replay whether its game has one board or two" {
	# (zhindex's record of a game reads a two-board game's half-moves
	# there: the replay sets nplies for a game of one board only; known, left
	# for libzh to say for either kind)
	run sh -c "find '$ZH_TOP/cmd' '$ZH_TOP/cli' '$ZH_TOP/draw' -name '*.[ch]' -exec grep -nE '(->|\\.)bug(_own)?\\b' {} + |
	    grep -v '/cmd/zhindex/rec.c:[0-9]*:.*r->bug->nmoves'"
	assert_output ""
	# the pattern sees such a question, as the tools asked it before
	printf '\tif (r->bug != NULL)\n\tb = st->r.bug;\n\tr->debug = 1;\n' >"$BATS_TEST_TMPDIR/q.c"
	run grep -cE '(->|\.)bug(_own)?\b' "$BATS_TEST_TMPDIR/q.c"
	assert_output 2
}

# tests/README.md maps the suites: each file named by what it tests is
# in it (a new suite without its line fails), none named by history.
@test "layout: every Bats file is in tests/README.md's map, none named by history (day1-, trust-)" {
	local f missing=
	for f in "$ZH_TOP"/tests/*.bats; do
		grep -q "\`$(basename "$f")\`" "$ZH_TOP/tests/README.md" ||
		    missing+=" $(basename "$f")"
	done
	[ -z "$missing" ] || { echo "not in tests/README.md:$missing"; return 1; }
	run sh -c "ls '$ZH_TOP'/tests | grep -E '^(day[0-9]|trust)-'"
	assert_output ""
}
