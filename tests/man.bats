#!/usr/bin/env bats
# The manual is tested: every page renders without groff warnings on every
# device groff has here, and every command block of every page (.Dl lines
# and .Bd -literal displays, EXAMPLES or not) runs, as printed, by
# tests/helpers/docblocks.py: a "$ command" followed by output gives that
# output; other commands exit 0, or 1 where the example shows invalid
# input (never 2: a usage or I/O error means the example is broken), and
# give something; a C program compiles and runs.  A block that cannot run
# is marked '.\" not run: REASON' and counted.

load common

@test "man: every page renders with groff -ww and no warning, on every device" {
	command -v groff >/dev/null || skip "groff not installed"
	local m T n=0
	# mdoc warns of some things only on a typesetter (ps), a missing
	# glyph only on ascii
	for T in ascii latin1 utf8 ps; do
		groff -T"$T" -z </dev/null 2>/dev/null || continue
		n=$((n + 1))
		for m in "$ZH_TOP"/man/*.[1-9]; do
			run groff -mdoc -T"$T" -ww -z "$m"
			[ -z "$output" ] || { echo "$m (-T$T): $output"; return 1; }
		done
	done
	[ "$n" -ge 3 ]
}

@test "man: every command block of every page runs as printed" {
	run /usr/bin/python3 "$ZH_TOP/tests/helpers/docblocks.py" "$ZH_TOP" \
	    "$BATS_TEST_TMPDIR/box" "$ZH_TOP"/man/*.[1-9]
	echo "$output" | grep -v ': \(session\|commands\|display\)$' >&3 || true
	assert_success
	assert_line --regexp '^blocks: .*, 0 failed$'
	[ "$(grep -c ': \(session\|commands\|program\)$' <<<"$output")" -ge 50 ]
}

@test "man: the block runner finds a page's broken example and a session's wrong output" {
	local d="$BATS_TEST_TMPDIR"
	printf '%s\n' '.Sh EXAMPLES' '.Dl $ zhpgn \-\-no\-such\-option testdata/pgn/fatics\-zh.pgn' >"$d/a.1"
	printf '%s\n' '.Bd -literal' '$ zhperft 2' '401' '.Ed' >"$d/b.1"
	printf '%s\n' '.Bd -literal' 'int' 'f(void)' '{' '	return g();' '}' '.Ed' >"$d/c.3"
	for f in a.1 b.1 c.3; do
		run /usr/bin/python3 "$ZH_TOP/tests/helpers/docblocks.py" "$ZH_TOP" "$d/box" "$d/$f"
		assert_failure
		assert_line --partial 'FAILED'
	done
}

@test "man: --help of every tool starts with its SYNOPSIS name" {
	for t in "$ZH_TOP"/bin/*; do
		run "$t" --help
		assert_success
		assert_line --index 0 --partial "usage: $(basename "$t")"
	done
}

@test "man: every long option in a tool's --help is documented in its page" {
	command -v groff >/dev/null || skip "groff not installed"
	local t txt o missing=
	for t in "$ZH_TOP"/bin/*; do
		txt=$(groff -mdoc -Tascii -P-bcu "$ZH_TOP/man/$(basename "$t").1" 2>/dev/null)
		for o in $("$t" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
			grep -q -- "$o" <<<"$txt" || missing="$missing $(basename "$t") $o;"
		done
	done
	[ -z "$missing" ] || { echo "undocumented:$missing"; return 1; }
}
