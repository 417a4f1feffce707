#!/usr/bin/env bats
# One version number from one place (issue 40): the file VERSION.  Every
# place a user reads a version (each tool's --version, zhcheck's SARIF,
# --stats, zhkit.pc, the installed zh.h and man pages) says the same.

load common

setup_file() {
	export STAGE="$BATS_FILE_TMPDIR/stage"
	make -s -C "$ZH_TOP" install DESTDIR="$STAGE" PREFIX=/usr >/dev/null
}

@test "version: the file VERSION holds one version number" {
	run cat "$ZH_TOP/VERSION"
	assert_success
	[[ $output =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "VERSION: '$output'"; return 1; }
}

@test "version: every tool's --version, SARIF and --stats say VERSION" {
	local v t
	v=$(cat "$ZH_TOP/VERSION")
	for t in "$ZH_TOP"/bin/*; do
		run "$t" --version
		assert_success
		assert_output "$(basename "$t") (zhkit) $v"
	done
	run bash -c "zhcheck -q --report sarif '$TESTDATA/zhcheck/drop-not-in-hand.pgn' 2>/dev/null | jq -r '.runs[0].tool.driver.version'"
	assert_output "$v"
	zhpgn -q --stats "$BATS_TEST_TMPDIR/s.json" "$TESTDATA/zhcheck/drop-not-in-hand.pgn" >/dev/null 2>&1 || true
	run jq -r .version "$BATS_TEST_TMPDIR/s.json"
	assert_output "$v"
	[ -f "$ZH_TOP/build/python/.built" ] || return 0
	# (under make asan the module is instrumented: its runtime preloaded)
	local pre=
	[ -z "${ZH_SANFLAGS-}" ] || pre=$(${CC:-cc} -print-file-name=libasan.so)
	run env PYTHONPATH="$ZH_TOP/build/python" LD_PRELOAD="$pre" ASAN_OPTIONS=detect_leaks=0 \
	    /usr/bin/python3 -c 'import zhkit; print(zhkit.version)'
	assert_output "$v"
}

@test "version: zhkit.pc, the installed zh.h and every installed man page say VERSION" {
	local v m n=0
	v=$(cat "$ZH_TOP/VERSION")
	run env PKG_CONFIG_PATH="$STAGE/usr/lib/pkgconfig" pkg-config --modversion zhkit
	assert_output "$v"
	run grep -c "^#define ZH_VERSION \"$v\"\$" "$STAGE/usr/include/zh.h"
	assert_output 1
	# the staged header gives a program the same number
	printf '#include <stdio.h>\n#include <zh.h>\nint main(void) { puts(ZH_VERSION); return 0; }\n' \
	    > "$BATS_TEST_TMPDIR/v.c"
	cc -I"$STAGE/usr/include" -o "$BATS_TEST_TMPDIR/v" "$BATS_TEST_TMPDIR/v.c"
	run "$BATS_TEST_TMPDIR/v"
	assert_output "$v"
	for m in "$STAGE"/usr/share/man/man[1-9]/*; do
		run grep -c "^\.Os zhkit $v\$" "$m"
		[ "$output" = 1 ] || { echo "$m: $(grep '^\.Os' "$m")"; return 1; }
		n=$((n + 1))
	done
	[ "$n" -ge 9 ]
}
