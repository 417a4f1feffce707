#!/usr/bin/env bats
# Every command block of README.md runs (tests/helpers/docblocks.py): a
# "$ command" line gives the output shown after it, other command lines
# exit 0 or 1 and give something; the files the README names as
# stand-ins (games.pgn, lichess_db_*.pgn.zst, mytool.c, ...) are real
# games in a scratch directory.  A block that cannot run is marked
# "<!-- not run: REASON -->" and counted.

load common

setup_file() {
	# cc ... $(pkg-config --cflags --libs zhkit) needs zhkit installed
	export STAGE="$BATS_FILE_TMPDIR/stage"
	make -s -C "$ZH_TOP" install DESTDIR="$STAGE" PREFIX=/usr >/dev/null
}

@test "readme: every command block runs and gives the output shown" {
	run /usr/bin/python3 "$ZH_TOP/tests/helpers/docblocks.py" "$ZH_TOP" \
	    "$BATS_TEST_TMPDIR/box" "$ZH_TOP/README.md"
	echo "$output" | grep -v ': \(session\|commands\|display\)$' >&3 || true
	assert_success
	assert_line --regexp '^blocks: .*[0-9]+ session.*, 0 failed$'
	# the Examples section is one session of at least 8 commands
	[ "$(grep -c '^    \$ ' "$ZH_TOP/README.md")" -ge 8 ]
}

@test "readme: the block runner finds a lie (an example that prints nothing, a wrong output, a usage error)" {
	local d="$BATS_TEST_TMPDIR"
	printf '%s\n' 'A:' '' "    zhreplay -F jsonl games.pgn | jq -r 'select(.check) | .fen' > checks.fen" '' >"$d/a.md"
	printf '%s\n' 'B:' '' '    $ zhperft 2' '    401' '' >"$d/b.md"
	printf '%s\n' 'C:' '' '    zhpgn --no-such-option games.pgn' '' >"$d/c.md"
	printf '%s\n' 'D:' '' "    zhfen --moves 'fenA | fenB'" '' >"$d/d.md"
	for f in a b c d; do
		run /usr/bin/python3 "$ZH_TOP/tests/helpers/docblocks.py" "$ZH_TOP" "$d/box" "$d/$f.md"
		assert_failure
		assert_line --partial 'FAILED'
	done
	printf '%s\n' 'E:' '' '<!-- not run: a reason -->' '' '    zhpgn --no-such-option' '' >"$d/e.md"
	run /usr/bin/python3 "$ZH_TOP/tests/helpers/docblocks.py" "$ZH_TOP" "$d/box" "$d/e.md"
	assert_success
	assert_line 'blocks: 1 not run, 0 failed'
}
