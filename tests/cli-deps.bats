#!/usr/bin/env bats
# cli/ holds only what every tool shares, with no circle (issue 40):
# over the objects' symbols (nm on build/cli/*.o, the tools' own objects
# and the Python module's), tests/helpers/cli-deps.py finds which file
# uses which.  No two files of cli/ may use each other (directly or
# through others), and no file of cli/ may be reached by one tool only
# (it belongs beside that tool, in cmd/).
bats_require_minimum_version 1.5.0
load common

deps() {
	local t tools=() py
	for t in "$ZH_TOP"/build/cmd/*.o; do
		tools+=("$(basename "$t" .o)=$t$(for o in "$ZH_TOP/build/cmd/$(basename "$t" .o)"/*.o; do
			[ -f "$o" ] && printf ',%s' "$o"; done)")
	done
	py=$(ls "$ZH_TOP"/build/pybuild/temp*/python/src/*.o 2>/dev/null | paste -sd,)
	[ -n "$py" ] && tools+=("python=$py")
	/usr/bin/python3 "$ZH_TOP/tests/helpers/cli-deps.py" "$ZH_TOP/build/cli:$ZH_TOP/cli" \
	    "${tools[@]}" -- "$ZH_TOP"/build/draw/*.o
}

@test "cli-deps: no circle between files of cli/, none used by one tool only" {
	[ -f "$ZH_TOP/build/cli/cli.o" ] || skip "not built"
	run deps
	echo "$output"
	assert_success
	assert_output --partial "cli/cli.o: uses"
}

@test "cli-deps: the check fails on a circle and on a file one tool uses (objects made here)" {
	local d="$BATS_TEST_TMPDIR"
	mkdir -p "$d/cli"
	printf 'int b(void);\nint a(void) { return b(); }\n' >"$d/a.c"
	printf 'int a(void);\nint b(void) { return a() + 1; }\n' >"$d/b.c"
	printf 'int c(void) { return 3; }\n' >"$d/c.c"
	printf 'int a(void);\nint c(void);\nint main(void) { return a() + c(); }\n' >"$d/t1.c"
	printf 'int a(void);\nint main(void) { return a(); }\n' >"$d/t2.c"
	local f
	for f in a b c; do cc -c -o "$d/cli/$f.o" "$d/$f.c"; done
	for f in t1 t2; do cc -c -o "$d/$f.o" "$d/$f.c"; done
	run /usr/bin/python3 "$ZH_TOP/tests/helpers/cli-deps.py" "$d/cli" \
	    "t1=$d/t1.o" "t2=$d/t2.o"
	assert_failure 1
	assert_line "circle: cli/a.o and cli/b.o use each other"
	assert_line "cli/c.o: used by t1 only: it belongs beside that tool"
}
