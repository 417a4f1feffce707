# zhkit - crazyhouse game toolkit.  POSIX-ish make; GNU make is assumed
# for the wildcard lists.
.POSIX:
.SUFFIXES:

PREFIX   = /usr/local
BINDIR   = $(PREFIX)/bin
LIBDIR   = $(PREFIX)/lib
INCDIR   = $(PREFIX)/include
MANDIR   = $(PREFIX)/share/man
DATADIR  = $(PREFIX)/share/zhkit
COMPDIR  = $(PREFIX)/share/bash-completion/completions
CC       = cc
CFLAGS   = -O2 -g
LDFLAGS  =
WARN     = -std=c17 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Wwrite-strings -Wformat=2 -Wvla
POSIX    = -D_POSIX_C_SOURCE=200809L
# zhkit's version, in one place: the file VERSION.  The C gets it as
# ZH_VERSION (-D); zhkit.pc, and the zh.h and pages that install writes,
# get it written in (tests/version.bats checks they agree).
VERSION  = $(shell cat VERSION)
CFLAGS_ALL = $(WARN) $(POSIX) -DZH_VERSION='"$(VERSION)"' -Ilib $(CFLAGS)
LIBS     = -ljansson -lpcre2-8 -lpthread
# The tools' codecs (cli/codec.c; snappy, lz4 and brotli for Parquet's
# pages, cli/parquet_write.c and cli/parquet_read.c); libzh does not use
# them.  Loading the
# four shared libraries costs every run about 0.25M instructions (0.1 ms);
# CODECLIBS='-Wl,-Bstatic -lzstd -lz -lbz2 -llzma -Wl,-Bdynamic' links
# them in instead (start-up as without them, 1 MB more per tool).
CODECLIBS = -lzstd -lz -lbz2 -llzma -lsnappy -llz4 -lbrotlidec
SOMAJOR  = 1
SOVER    = $(SOMAJOR).0.0

LIBSRC   = $(sort $(wildcard lib/*.c))
LIBOBJ   = $(LIBSRC:lib/%.c=build/lib/%.o)
LIBHDR   = $(wildcard lib/*.h)
CLISRC   = $(sort $(wildcard cli/*.c))
CLIOBJ   = $(CLISRC:cli/%.c=build/cli/%.o)
CLIHDR   = $(wildcard cli/*.h)
TOOLSRC  = $(sort $(wildcard cmd/*.c))
TOOLS    = $(TOOLSRC:cmd/%.c=bin/%)
# A tool's own files beside its main: cmd/TOOL/*.c, linked into bin/TOOL
# alone (cmd/README.md); their headers seen by that tool's files only.
OWNSRC   = $(sort $(wildcard cmd/*/*.c))
OWNOBJ   = $(OWNSRC:cmd/%.c=build/cmd/%.o)
own      = $(patsubst cmd/%.c,build/cmd/%.o,$(sort $(wildcard cmd/$(1)/*.c)))
UNITSRC  = $(sort $(wildcard tests/unit/*.c))
UNITS    = $(UNITSRC:tests/unit/%.c=build/unit/%)
MAN      = $(sort $(wildcard man/*.[1-9]))
FUZZSRC  = $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZERS  = $(FUZZSRC:tests/fuzz/%.c=build/fuzz/%)

# The flags a build was made with, in build/.flags: what was compiled or
# linked with other CC, CFLAGS or LDFLAGS (make asan, make pgo, a user's
# CFLAGS=...) is made again, never linked into this build (an asan-built
# module was loaded by a plain make check's Python, whose ASan runtime was
# not there first).
BUILDFLAGS := $(CC) $(CFLAGS) $(LDFLAGS)
$(shell mkdir -p build && { [ "$$(cat build/.flags 2>/dev/null)" = '$(BUILDFLAGS)' ] || \
    printf '%s\n' '$(BUILDFLAGS)' >build/.flags; })

# The tools' objects named, so kept (tests/cli-deps.bats reads their symbols).
all: $(TOOLS) $(TOOLSRC:cmd/%.c=build/cmd/%.o) $(OWNOBJ) build/libzh.a build/libzh.so.$(SOVER) python

# The Python module zhkit (python/): its C half over libzh and cli/,
# built by setuptools into build/python (PYTHONPATH=build/python).
PYTHON   = /usr/bin/python3
PYSRC    = $(wildcard python/src/*.c python/src/*.h python/zhkit/*.py)
python: build/python/.built
build/python/.built: Makefile VERSION python/setup.py $(PYSRC) $(CLISRC) $(CLIHDR) build/libzh.a
	@mkdir -p build/python
	cd python && CC="$(CC)" LDSHARED="$(CC) -shared" ZH_PYLDFLAGS="$(LDFLAGS)" ZH_PYLIBS="$(LIBS) $(CODECLIBS)" \
	    CFLAGS="$(CFLAGS)" $(PYTHON) setup.py -q build --force --build-base $(CURDIR)/build/pybuild \
	    --build-lib $(CURDIR)/build/python
	@touch $@

build/lib/%.o: lib/%.c $(LIBHDR)
	@mkdir -p build/lib
	$(CC) $(CFLAGS_ALL) -fPIC -fvisibility=hidden -c -o $@ $<

build/libzh.a: $(LIBOBJ)
	rm -f $@
	$(AR) -rc $@ $(LIBOBJ)

# The shared library: soname libzh.so.$(SOMAJOR).
build/libzh.so.$(SOVER): $(LIBOBJ)
	$(CC) -shared -Wl,-soname,libzh.so.$(SOMAJOR) $(LDFLAGS) -o $@ $(LIBOBJ) -ljansson -lpcre2-8

# libzh's; the codecs (CODECLIBS) are the tools' alone, so not here.
build/zhkit.pc: Makefile VERSION
	@mkdir -p build
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' 'includedir=$(INCDIR)' '' \
	    'Name: zhkit' 'Description: libzh, rules and dialects of crazyhouse-family chess' \
	    'Version: $(VERSION)' 'Libs: -L$${libdir} -lzh' 'Libs.private: -ljansson -lpcre2-8' \
	    'Cflags: -I$${includedir}' > $@

$(CLIOBJ): VERSION

build/cmd/%.o: cmd/%.c $(LIBHDR) $(CLIHDR) $(wildcard draw/*.h) $(wildcard cmd/*/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Icli -Idraw -Icmd/$(firstword $(subst /, ,$*)) -c -o $@ $<

build/cli/%.o: cli/%.c $(LIBHDR) $(CLIHDR) $(wildcard draw/*.h)
	@mkdir -p build/cli
	$(CC) $(CFLAGS_ALL) -Icli -Idraw -c -o $@ $<

# The pictures (draw/): the tools that draw link them, libzh does not.
DRAWSRC  = $(sort $(wildcard draw/*.c))
DRAWOBJ  = $(DRAWSRC:draw/%.c=build/draw/%.o)
DRAWTOOLS = bin/zhfen bin/zhreplay

build/draw/%.o: draw/%.c draw/draw.h draw/pic.h $(LIBHDR) cli/cli.h cli/tmpout.h
	@mkdir -p build/draw
	$(CC) $(CFLAGS_ALL) -Icli -Idraw -c -o $@ $<

build/libzhdraw.a: $(DRAWOBJ)
	rm -f $@
	$(AR) -rc $@ $(DRAWOBJ)

.SECONDEXPANSION:
$(DRAWTOOLS): bin/%: build/cmd/%.o $$(call own,$$*) $(CLIOBJ) build/libzhdraw.a build/libzh.a
	@mkdir -p bin
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(call own,$*) $(CLIOBJ) build/libzhdraw.a build/libzh.a $(LIBS) $(CODECLIBS) -lm

# zhindex's own files (cmd/zhindex/) and SQLite, linked into it alone.
bin/zhindex: TOOLLIBS = -lsqlite3

bin/%: build/cmd/%.o $$(call own,$$*) $(CLIOBJ) build/libzh.a
	@mkdir -p bin
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(call own,$*) $(CLIOBJ) build/libzh.a $(LIBS) $(CODECLIBS) $(TOOLLIBS)

build/unit/%: tests/unit/%.c build/libzh.a tests/unit/check.h
	@mkdir -p build/unit
	$(CC) $(CFLAGS_ALL) -Itests/unit -o $@ $< build/libzh.a $(LIBS)

$(LIBOBJ) $(CLIOBJ) $(DRAWOBJ) $(OWNOBJ) $(TOOLSRC:cmd/%.c=build/cmd/%.o) $(UNITS) \
    build/python/.built build/libzh.so.$(SOVER) $(FUZZSRC:tests/fuzz/%.c=build/fuzzrun/%) \
    build/bench/floor build/bench/inflate build/bench/idlewait: build/.flags

# Set-up: install what a fresh Debian machine lacks (as root or with sudo).
deps:
	@sh tests/deps.sh

check: deps
	@$(MAKE) --no-print-directory all units
	@sh tests/run-all

units: $(UNITS) $(FUZZSRC:tests/fuzz/%.c=build/fuzzrun/%) build/bench/floor

# The fuzz targets as plain programs over files, for the regression corpus.
build/fuzzrun/%: tests/fuzz/%.c tests/fuzz/standalone.c build/libzh.a
	@mkdir -p build/fuzzrun
	$(CC) $(CFLAGS_ALL) -Wno-missing-prototypes -o $@ $< tests/fuzz/standalone.c build/libzh.a $(LIBS)

# The codec's target reads through cli/codec.c and its libraries.
build/fuzzrun/fuzz_codec: tests/fuzz/fuzz_codec.c tests/fuzz/standalone.c cli/codec.c cli/codec.h build/libzh.a
	@mkdir -p build/fuzzrun
	$(CC) $(CFLAGS_ALL) -Icli -Wno-missing-prototypes -o $@ tests/fuzz/fuzz_codec.c cli/codec.c tests/fuzz/standalone.c build/libzh.a $(CODECLIBS) $(LIBS)

# Parquet's metadata reader (cli/thrift.c, cli/parquet_meta.c).
PQMETA = cli/thrift.c cli/parquet_meta.c
build/fuzzrun/fuzz_thrift: tests/fuzz/fuzz_thrift.c tests/fuzz/standalone.c $(PQMETA) cli/thrift.h cli/parquet_meta.h
	@mkdir -p build/fuzzrun
	$(CC) $(CFLAGS_ALL) -Icli -Wno-missing-prototypes -o $@ tests/fuzz/fuzz_thrift.c $(PQMETA) tests/fuzz/standalone.c

# The Parquet reader (cli/parquet_read.c) and its codecs.
PQREAD = cli/parquet_read.c $(PQMETA)
build/fuzzrun/fuzz_parquet: tests/fuzz/fuzz_parquet.c tests/fuzz/standalone.c $(PQREAD) cli/parquet_read.h cli/parquet_meta.h cli/thrift.h
	@mkdir -p build/fuzzrun
	$(CC) $(CFLAGS_ALL) -Icli -Wno-missing-prototypes -o $@ tests/fuzz/fuzz_parquet.c $(PQREAD) tests/fuzz/standalone.c $(CODECLIBS) -lpthread

# The dataset rows as JSON Lines (cli/flatrows.c) and the PGN reader.
build/fuzzrun/fuzz_rows: tests/fuzz/fuzz_rows.c tests/fuzz/standalone.c cli/flatrows.c $(PQREAD) cli/flatrows.h cli/parquet_read.h build/libzh.a
	@mkdir -p build/fuzzrun
	$(CC) $(CFLAGS_ALL) -Icli -Wno-missing-prototypes -o $@ tests/fuzz/fuzz_rows.c cli/flatrows.c $(PQREAD) tests/fuzz/standalone.c build/libzh.a $(CODECLIBS) $(LIBS)

# The index's blobs (cmd/zhindex/blob.c, no SQLite).
build/fuzzrun/fuzz_zhiblob: tests/fuzz/fuzz_zhiblob.c tests/fuzz/standalone.c cmd/zhindex/blob.c cmd/zhindex/tail.c cmd/zhindex/zhi.h build/libzh.a
	@mkdir -p build/fuzzrun
	$(CC) $(CFLAGS_ALL) -Icmd/zhindex -Wno-missing-prototypes -o $@ tests/fuzz/fuzz_zhiblob.c cmd/zhindex/blob.c cmd/zhindex/tail.c tests/fuzz/standalone.c build/libzh.a $(LIBS)

# The pictures' target draws through draw/, the reports' writes through
# cmd/zhcheck/report.c (and the cli/ it calls).
build/fuzzrun/fuzz_draw: tests/fuzz/fuzz_draw.c tests/fuzz/standalone.c build/libzhdraw.a build/libzh.a
	@mkdir -p build/fuzzrun
	$(CC) $(CFLAGS_ALL) -Idraw -Wno-missing-prototypes -o $@ tests/fuzz/fuzz_draw.c tests/fuzz/standalone.c build/libzhdraw.a build/libzh.a $(LIBS) $(CODECLIBS) -lm

build/fuzzrun/fuzz_report: tests/fuzz/fuzz_report.c tests/fuzz/standalone.c build/cmd/zhcheck/report.o $(CLIOBJ) build/libzh.a
	@mkdir -p build/fuzzrun
	$(CC) $(CFLAGS_ALL) -Icli -Icmd/zhcheck -Wno-missing-prototypes -o $@ tests/fuzz/fuzz_report.c tests/fuzz/standalone.c build/cmd/zhcheck/report.o $(CLIOBJ) build/libzh.a $(LIBS) $(CODECLIBS)

check-slow: deps
	@$(MAKE) --no-print-directory all units
	@ZH_SLOW=1 sh tests/run-all

# The tools' Bats suites with every tool run in valgrind memcheck
# (tests/common.bash): a memory error or a leak fails.  Which suites, and
# which of their tests, is tests/valgrind.list.
check-valgrind: deps
	@$(MAKE) --no-print-directory all
	@command -v valgrind >/dev/null || { echo "check-valgrind: valgrind not installed"; exit 2; }
	@sh tests/valgrind-run

SANFLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# The build it leaves behind is cleaned whether the suite passed or not
# (.POSIX: the recipe's shell runs with -e, hence the ||).
asan:
	$(MAKE) clean
	rc=0; ZH_SANFLAGS="$(SANFLAGS)" $(MAKE) CFLAGS="-O1 -g $(SANFLAGS)" LDFLAGS="$(SANFLAGS)" \
	    check || rc=$$?; $(MAKE) clean; exit $$rc

# The -j suites (and the arrays' writer thread) with every tool built
# under ThreadSanitizer: a data race
# between the workers, or the main thread, fails the test.
TSANFLAGS = -fsanitize=thread
tsan:
	$(MAKE) clean
	rc=0; { $(MAKE) CFLAGS="-O1 -g $(TSANFLAGS)" LDFLAGS="$(TSANFLAGS)" all && \
	    TSAN_OPTIONS=halt_on_error=1 bats tests/jobs.bats tests/split.bats tests/compress.bats \
	    tests/arrays-rewrite.bats; } || rc=$$?; $(MAKE) clean; exit $$rc

# A profile-guided build, for those who want the last tenth of speed:
# the tools built with -fprofile-generate, run over the bundled Lichess
# games (testdata/pgn, every tool's main path), then built again with
# -fprofile-use.  Not the default: the plain build does not run what it
# builds.  The next plain make builds everything again (build/.flags).
PGOTRAIN = testdata/pgn/crazyara-1k_cz_lichess_startpos.pgn
pgo:
	$(MAKE) clean
	$(MAKE) CFLAGS="$(CFLAGS) -fprofile-generate -fprofile-update=prefer-atomic" \
	    LDFLAGS="$(LDFLAGS) -fprofile-generate" $(TOOLS)
	for i in 1 2 3 4; do cat $(PGOTRAIN); done >build/pgo-train.pgn
	bin/zhcheck -q build/pgo-train.pgn 2>/dev/null
	bin/zhcheck -q --json build/pgo-train.pgn >/dev/null 2>&1
	bin/zhpgn --json build/pgo-train.pgn >/dev/null
	bin/zhpgn --to xboard build/pgo-train.pgn >/dev/null
	bin/zhreplay -f fen build/pgo-train.pgn >/dev/null
	bin/zhreplay -f jsonl build/pgo-train.pgn >/dev/null
	bin/zhreplay -f fen build/pgo-train.pgn | bin/zhfen --to xboard >/dev/null
	bin/zhperft --variant crazyhouse 4 >/dev/null
	rm -rf bin build/libzh.a build/libzhdraw.a build/lib/*.o build/cmd build/cli/*.o build/draw/*.o
	$(MAKE) CFLAGS="$(CFLAGS) -fprofile-use -fprofile-partial-training -Wno-missing-profile" all

demo: deps
	@$(MAKE) --no-print-directory all
	@sh tests/demo.sh

bench: all build/bench/floor build/bench/inflate build/bench/idlewait
	@bash bench/run.sh

# The reader alone, and the reader with the legality replay: the floors
# under zhcheck's time that bench/run.sh sets beside grep's (not installed).
build/bench/floor: bench/floor.c build/libzh.a $(LIBHDR)
	@mkdir -p build/bench
	$(CC) $(CFLAGS_ALL) -o $@ bench/floor.c build/libzh.a $(LIBS)

# The prepare step before each timed run: both cores idle (not installed).
build/bench/idlewait: bench/idlewait.c
	@mkdir -p build/bench
	$(CC) $(CFLAGS_ALL) -o $@ bench/idlewait.c -lpthread

# Decompression alone through the tools' read path (cli/codec.c).
build/bench/inflate: bench/inflate.c cli/codec.c cli/codec.h build/libzh.a
	@mkdir -p build/bench
	$(CC) $(CFLAGS_ALL) -Icli -o $@ bench/inflate.c cli/codec.c build/libzh.a $(CODECLIBS) $(LIBS)

build/fuzz/fuzz_zhiblob: tests/fuzz/fuzz_zhiblob.c cmd/zhindex/blob.c cmd/zhindex/tail.c cmd/zhindex/zhi.h $(LIBSRC) $(LIBHDR)
	@mkdir -p build/fuzz
	$(FUZZCC) -g -O1 -fsanitize=fuzzer,address,undefined $(POSIX) -Ilib -Icmd/zhindex -o $@ tests/fuzz/fuzz_zhiblob.c cmd/zhindex/blob.c cmd/zhindex/tail.c $(LIBSRC) $(LIBS)

# libFuzzer targets (clang): `make fuzz FUZZTIME=60` runs each for that long,
# seeded from tests/fuzz/corpus/<target>; new crashes land in build/fuzz.
FUZZTIME = 30
FUZZCC   = clang

build/fuzz/%: tests/fuzz/%.c $(LIBSRC) $(LIBHDR)
	@mkdir -p build/fuzz
	$(FUZZCC) -g -O1 -fsanitize=fuzzer,address,undefined $(POSIX) -Ilib -o $@ $< $(LIBSRC) $(LIBS)

build/fuzz/fuzz_codec: tests/fuzz/fuzz_codec.c cli/codec.c cli/codec.h $(LIBSRC) $(LIBHDR)
	@mkdir -p build/fuzz
	$(FUZZCC) -g -O1 -fsanitize=fuzzer,address,undefined $(POSIX) -Ilib -Icli -o $@ tests/fuzz/fuzz_codec.c cli/codec.c $(LIBSRC) $(CODECLIBS) $(LIBS)

build/fuzz/fuzz_thrift: tests/fuzz/fuzz_thrift.c $(PQMETA) cli/thrift.h cli/parquet_meta.h
	@mkdir -p build/fuzz
	$(FUZZCC) -g -O1 -fsanitize=fuzzer,address,undefined $(POSIX) -Icli -o $@ tests/fuzz/fuzz_thrift.c $(PQMETA)

build/fuzz/fuzz_parquet: tests/fuzz/fuzz_parquet.c $(PQREAD) cli/parquet_read.h cli/parquet_meta.h cli/thrift.h
	@mkdir -p build/fuzz
	$(FUZZCC) -g -O1 -fsanitize=fuzzer,address,undefined $(POSIX) -Icli -o $@ tests/fuzz/fuzz_parquet.c $(PQREAD) $(CODECLIBS) -lpthread

build/fuzz/fuzz_rows: tests/fuzz/fuzz_rows.c cli/flatrows.c $(PQREAD) cli/flatrows.h cli/parquet_read.h $(LIBSRC) $(LIBHDR)
	@mkdir -p build/fuzz
	$(FUZZCC) -g -O1 -fsanitize=fuzzer,address,undefined $(POSIX) -Ilib -Icli -o $@ tests/fuzz/fuzz_rows.c cli/flatrows.c $(PQREAD) $(LIBSRC) $(CODECLIBS) $(LIBS)

build/fuzz/fuzz_draw: tests/fuzz/fuzz_draw.c $(DRAWSRC) draw/draw.h $(LIBSRC) $(LIBHDR)
	@mkdir -p build/fuzz
	$(FUZZCC) -g -O1 -fsanitize=fuzzer,address,undefined $(POSIX) -Ilib -Idraw -Icli -o $@ tests/fuzz/fuzz_draw.c $(filter-out draw/pic.c,$(DRAWSRC)) $(LIBSRC) $(LIBS) $(CODECLIBS) -lm

build/fuzz/fuzz_report: tests/fuzz/fuzz_report.c cmd/zhcheck/report.c cmd/zhcheck/report.h $(CLISRC) $(CLIHDR) $(LIBSRC) $(LIBHDR)
	@mkdir -p build/fuzz
	$(FUZZCC) -g -O1 -fsanitize=fuzzer,address,undefined $(POSIX) -Ilib -Icli -Idraw -Icmd/zhcheck -o $@ tests/fuzz/fuzz_report.c cmd/zhcheck/report.c $(CLISRC) $(LIBSRC) $(LIBS) $(CODECLIBS)

# ASan's quarantine is held to 64 MB: fuzz_game parses JSON with Jansson,
# whose many small blocks would fill the default 256 MB past the RSS limit.
# tests/fuzz/<target>.flags: libFuzzer flags of one target (fuzz_game's
# runs touch so much code that the entropic schedule's bookkeeping of
# rare features took 9 in 10 of its time).
fuzz: $(FUZZERS)
	for f in $(FUZZERS); do n=$${f##*/}; mkdir -p tests/fuzz/corpus/$$n build/fuzz/new-$$n; \
	    ASAN_OPTIONS=$${ASAN_OPTIONS:-quarantine_size_mb=64} $$f -max_total_time=$(FUZZTIME) -timeout=5 -rss_limit_mb=512 \
	    $$(cat tests/fuzz/$$n.flags 2>/dev/null) \
	    -artifact_prefix=build/fuzz/ build/fuzz/new-$$n tests/fuzz/corpus/$$n || exit 1; done

install: all build/zhkit.pc
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCDIR) \
	    $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 \
	    $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7 \
	    $(DESTDIR)$(COMPDIR) $(DESTDIR)$(DATADIR)
	cp $(TOOLS) $(DESTDIR)$(BINDIR)/
	cp build/libzh.a build/libzh.so.$(SOVER) $(DESTDIR)$(LIBDIR)/
	ln -sf libzh.so.$(SOVER) $(DESTDIR)$(LIBDIR)/libzh.so.$(SOMAJOR)
	ln -sf libzh.so.$(SOMAJOR) $(DESTDIR)$(LIBDIR)/libzh.so
	cp build/zhkit.pc $(DESTDIR)$(LIBDIR)/pkgconfig/
	sed 's/^#define ZH_VERSION "unknown"$$/#define ZH_VERSION "$(VERSION)"/' lib/zh.h \
	    > $(DESTDIR)$(INCDIR)/zh.h
	for m in $(MAN); do s=$${m##*.}; sed 's/^\.Os zhkit$$/.Os zhkit $(VERSION)/' $$m \
	    > $(DESTDIR)$(MANDIR)/man$$s/$${m#man/}; done
	cp man/zhkit-game.schema.json man/zhkit-position.schema.json \
	    $(DESTDIR)$(DATADIR)/
	for t in $(TOOLS); do cp completion/zhkit.bash $(DESTDIR)$(COMPDIR)/$${t#bin/}; done
	d=$(DESTDIR)$(PYDIR)/zhkit && mkdir -p $$d && cp build/python/zhkit/*.py build/python/zhkit/*.so $$d/

uninstall:
	for t in $(TOOLS); do rm -f $(DESTDIR)$(BINDIR)/$${t#bin/} $(DESTDIR)$(COMPDIR)/$${t#bin/}; done
	rm -f $(DESTDIR)$(LIBDIR)/libzh.a $(DESTDIR)$(LIBDIR)/libzh.so.$(SOVER) \
	    $(DESTDIR)$(LIBDIR)/libzh.so.$(SOMAJOR) $(DESTDIR)$(LIBDIR)/libzh.so \
	    $(DESTDIR)$(LIBDIR)/pkgconfig/zhkit.pc $(DESTDIR)$(INCDIR)/zh.h
	for m in $(MAN); do s=$${m##*.}; rm -f $(DESTDIR)$(MANDIR)/man$$s/$${m#man/}; done
	rm -rf $(DESTDIR)$(PYDIR)/zhkit
	rm -f $(DESTDIR)$(DATADIR)/zhkit-game.schema.json \
	    $(DESTDIR)$(DATADIR)/zhkit-position.schema.json

clean:
	rm -rf build bin

# The Python module into the directory of packages under PREFIX that
# this Python searches (python/pydir.py; Debian's dist-packages), else
# its site-packages under PREFIX; PYDIR=DIR on the command line overrides.
PYDIR    = $$($(PYTHON) -E -s python/pydir.py "$(PREFIX)")

.PHONY: all python deps check check-slow check-valgrind units asan tsan pgo demo bench fuzz install uninstall clean
