#!/usr/bin/env bats
# The manual is tested: every page renders without groff warnings, and
# every EXAMPLES command of every page runs, as printed, from the top of
# the repository with exit status 0, or 1 where the example shows invalid
# input (never 2: a usage or I/O error means the example is broken).

load common

@test "man: every page renders with groff -ww and no warning" {
	command -v groff >/dev/null || skip "groff not installed"
	for m in "$ZH_TOP"/man/*.[1-9]; do
		run groff -mdoc -Tutf8 -ww -z "$m"
		[ -z "$output" ] || { echo "$m: $output"; return 1; }
	done
}

# The commands of a page's EXAMPLES section: its ".Dl $ command" lines
# and the "$ command" lines of its literal displays, mdoc escapes undone
# (\- a dash, \e a backslash, \(aq and \(dq quotes).
examples() {
	sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$1" |
	    sed -n -e 's/^\.Dl \$ //p' -e '/^\.Bd/,/^\.Ed/s/^\$ //p' |
	    sed -e 's/\\-/-/g' -e "s/\\\\(aq/'/g" -e 's/\\(dq/"/g' -e 's/\\e/\\/g'
}

@test "man: every EXAMPLES command of every page runs as printed from the top of the repository" {
	cd "$ZH_TOP"
	local m cmd n=0
	for m in man/*.[1-9]; do
		while IFS= read -r cmd; do
			run bash -o pipefail -c "$cmd"
			[ "$status" -le 1 ] || { echo "$m: '$cmd' exited $status: $output"; return 1; }
			n=$((n + 1))
		done < <(examples "$m")
	done
	[ "$n" -ge 20 ]
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
