#!/usr/bin/env bats
# The manual is tested: every page renders without groff warnings, and
# every EXAMPLES line ".Dl $ command" runs from the testdata directory
# with exit status 0, or 1 where the example shows invalid input (never 2:
# a usage or I/O error means the example is broken).

load common

@test "man: every page renders with groff -ww and no warning" {
	command -v groff >/dev/null || skip "groff not installed"
	for m in "$ZH_TOP"/man/*.[1-9]; do
		run groff -mdoc -Tutf8 -ww -z "$m"
		[ -z "$output" ] || { echo "$m: $output"; return 1; }
	done
}

@test "man: every EXAMPLES command runs" {
	cd "$TESTDATA"
	local m line cmd n=0
	for m in "$ZH_TOP"/man/*.1; do
		while IFS= read -r line; do
			cmd=${line#.Dl \$ }
			# mdoc escapes: \- is a dash, \e a backslash
			cmd=$(printf '%s' "$cmd" | sed -e 's/\\-/-/g' -e "s/\\\\(aq/'/g" -e 's/\\(dq/"/g' -e 's/\\e/\\/g')
			run bash -o pipefail -c "$cmd"
			[ "$status" -le 1 ] || { echo "$m: '$cmd' exited $status: $output"; return 1; }
			n=$((n + 1))
		done < <(grep '^\.Dl \$ ' "$m")
	done
	[ "$n" -gt 0 ]
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
