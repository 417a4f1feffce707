#!/usr/bin/env bats
# make install into a staging directory, then the libzh(3) example is
# compiled against the staged library with pkg-config, and run.

load common

setup_file() {
	export STAGE="$BATS_FILE_TMPDIR/stage"
	make -s -C "$ZH_TOP" install DESTDIR="$STAGE" PREFIX=/usr >/dev/null
}

@test "install: tools, static and shared library, header, pc file, pages, completion, JSON schema" {
	for f in usr/bin/zhperft usr/lib/libzh.a usr/lib/libzh.so usr/lib/libzh.so.1 \
	    usr/include/zh.h usr/lib/pkgconfig/zhkit.pc usr/share/man/man3/libzh.3 \
	    usr/share/man/man1/zhperft.1 usr/share/bash-completion/completions/zhperft \
	    usr/share/zhkit/zhkit-game.schema.json \
	    usr/share/zhkit/zhkit-position.schema.json; do
		[ -e "$STAGE/$f" ] || { echo "missing $f"; return 1; }
	done
	run objdump -p "$STAGE/usr/lib/libzh.so"
	assert_output --partial 'SONAME               libzh.so.1'
}

@test "install: the libzh(3) example compiles with pkg-config and runs" {
	command -v pkg-config >/dev/null || skip "pkg-config not installed"
	local src="$BATS_TEST_TMPDIR/ex.c"
	# The first literal block of EXAMPLES, mdoc escapes undone.
	awk '/^\.Bd -literal/ { n++; if (n == 1) { on = 1; next } } /^\.Ed/ { on = 0 } on' \
	    "$ZH_TOP/man/libzh.3" | sed 's/\\e/\\/g' > "$src"
	export PKG_CONFIG_PATH="$STAGE/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$STAGE"
	# shellcheck disable=SC2086 # (make asan: the library is instrumented)
	run cc ${ZH_SANFLAGS-} -o "$BATS_TEST_TMPDIR/ex" "$src" $(pkg-config --cflags --libs zhkit)
	assert_success
	LD_LIBRARY_PATH="$STAGE/usr/lib" run "$BATS_TEST_TMPDIR/ex"
	assert_success
	assert_output 'rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR[-] w KQkq d6 0 2'
}

@test "install: the Python module zhkit where this Python looks under PREFIX, and it reads" {
	local init site
	init=$(cd "$STAGE" && find . -path '*/zhkit/__init__.py')
	[ -n "$init" ]
	site=${init#.}; site=${site%/zhkit/__init__.py}
	# installed for real, `import zhkit` finds it without PYTHONPATH
	[[ $site == /usr/lib/* ]]
	/usr/bin/python3 -E -s -c 'import sys; sys.exit(sys.argv[1] not in sys.path)' "$site"
	cd "$BATS_TEST_TMPDIR"
	PYTHONPATH="$STAGE$site" LD_PRELOAD="${ZH_SANFLAGS:+$(cc -print-file-name=libasan.so)}" \
	    ASAN_OPTIONS=detect_leaks=0 run /usr/bin/python3 -c \
	    'import sys, zhkit; print(zhkit.__file__.startswith(sys.argv[1]), zhkit.read(sys.argv[2]).written)' \
	    "$STAGE" "$ZH_TOP/testdata/pgn/crazyara-zh-50_startpos.pgn"
	assert_success
	assert_output "True $(grep -c '^\[Event ' "$ZH_TOP/testdata/pgn/crazyara-zh-50_startpos.pgn")"
}

@test "install: uninstall removes what install put there" {
	make -s -C "$ZH_TOP" uninstall DESTDIR="$STAGE" PREFIX=/usr >/dev/null
	run find "$STAGE" -type f
	assert_output ''
}

# build/.flags: what other CC, CFLAGS or LDFLAGS made is made again (a
# plain make check after a failed make asan linked its ASan objects).
@test "install: an object made with other CFLAGS is made again, and only then" {
	local d="$BATS_TEST_TMPDIR/tree" o=build/lib/variant.o
	mkdir -p "$d"
	cp -r "$ZH_TOP/Makefile" "$ZH_TOP/VERSION" "$ZH_TOP/lib" "$d/"
	# (make asan's own CFLAGS reach sub-makes through MAKEFLAGS)
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$d" CFLAGS=-O0 "$o" >/dev/null
	run env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -q -C "$d" CFLAGS=-O0 "$o"
	assert_success
	run env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -q -C "$d" CFLAGS=-O1 "$o"
	assert_failure 1
	run env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$d" CFLAGS=-O1 "$o"
	assert_success
	assert_output --regexp ' -O1 .*-c -o build/lib/variant.o lib/variant.c'
	run env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -q -C "$d" CFLAGS=-O1 "$o"
	assert_success
	run cat "$d/build/.flags"
	assert_output 'cc -O1 '
}
