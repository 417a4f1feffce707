#!/usr/bin/env bats
# README.md's Examples really run: each "    $ command" line of that
# section is run from the top of the repository, and the lines shown
# after it (up to the next command) are its output, stdout and stderr.

load common

@test "readme: every example in the Examples section gives the output shown" {
	cd "$ZH_TOP"
	local cmd="" want="" n=0 line
	check_one() {
		[ -n "$cmd" ] || return 0
		n=$((n + 1))
		run bash -o pipefail -c "$cmd 2>&1"
		[ "$status" -le 1 ] || { echo "'$cmd' exited $status"; return 1; }
		[ "$output" = "$want" ] || { echo "'$cmd'"; diff <(echo "$want") <(echo "$output"); return 1; }
	}
	while IFS= read -r line; do
		case $line in
		"    \$ "*)
			check_one || return 1
			cmd=${line#    \$ } want="" ;;
		"    "*)
			want=${want:+$want$'\n'}${line#    } ;;
		esac
	done < <(sed -n '/^## Examples/,/^## /p' README.md)
	check_one || return 1
	[ "$n" -ge 8 ]
}
