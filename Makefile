# zhkit - crazyhouse game toolkit.  POSIX-ish make; GNU make is assumed
# for the wildcard lists.
.POSIX:
.SUFFIXES:

PREFIX   = /usr/local
BINDIR   = $(PREFIX)/bin
LIBDIR   = $(PREFIX)/lib
INCDIR   = $(PREFIX)/include
MANDIR   = $(PREFIX)/share/man
CC       = cc
CFLAGS   = -O2 -g
LDFLAGS  =
WARN     = -std=c17 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Wwrite-strings -Wformat=2 -Wvla
POSIX    = -D_POSIX_C_SOURCE=200809L
CFLAGS_ALL = $(WARN) $(POSIX) -Ilib $(CFLAGS)
LIBS     = -ljansson -lpthread

LIBSRC   = $(sort $(wildcard lib/*.c))
LIBOBJ   = $(LIBSRC:lib/%.c=build/lib/%.o)
LIBHDR   = $(wildcard lib/*.h)
CLIOBJ   = cmd/cli.c cmd/jobs.c
CLISRC   = $(sort $(filter-out $(CLIOBJ),$(wildcard cmd/*.c)))
TOOLS    = $(CLISRC:cmd/%.c=bin/%)
UNITSRC  = $(sort $(wildcard tests/unit/*.c))
UNITS    = $(UNITSRC:tests/unit/%.c=build/unit/%)
MAN      = $(sort $(wildcard man/*.[1-9]))

all: $(TOOLS) build/libzh.a

build/lib/%.o: lib/%.c $(LIBHDR)
	@mkdir -p build/lib
	$(CC) $(CFLAGS_ALL) -c -o $@ $<

build/libzh.a: $(LIBOBJ)
	rm -f $@
	$(AR) -rc $@ $(LIBOBJ)

build/cmd/%.o: cmd/%.c $(LIBHDR) $(wildcard cmd/*.h)
	@mkdir -p build/cmd
	$(CC) $(CFLAGS_ALL) -Icmd -c -o $@ $<

bin/%: build/cmd/%.o $(CLIOBJ:cmd/%.c=build/cmd/%.o) build/libzh.a
	@mkdir -p bin
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(CLIOBJ:cmd/%.c=build/cmd/%.o) build/libzh.a $(LIBS)

build/unit/%: tests/unit/%.c build/libzh.a tests/unit/check.h
	@mkdir -p build/unit
	$(CC) $(CFLAGS_ALL) -Itests/unit -o $@ $< build/libzh.a $(LIBS)

# Set-up: install what a fresh Debian machine lacks (as root or with sudo).
deps:
	@sh tests/deps.sh

check: deps
	@$(MAKE) --no-print-directory all units
	@sh tests/run-all

units: $(UNITS)

check-slow: deps
	@$(MAKE) --no-print-directory all units
	@ZH_SLOW=1 sh tests/run-all

asan:
	$(MAKE) clean
	$(MAKE) CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	    LDFLAGS="-fsanitize=address,undefined" check

demo: deps
	@$(MAKE) --no-print-directory all
	@sh tests/demo.sh

bench: all
	@sh bench/run.sh

# libFuzzer targets (clang): `make fuzz FUZZTIME=60` runs each for that long,
# seeded from tests/fuzz/corpus/<target>; new crashes land in build/fuzz.
FUZZTIME = 30
FUZZCC   = clang
FUZZSRC  = $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZERS  = $(FUZZSRC:tests/fuzz/%.c=build/fuzz/%)

build/fuzz/%: tests/fuzz/%.c $(LIBSRC) $(LIBHDR)
	@mkdir -p build/fuzz
	$(FUZZCC) -g -O1 -fsanitize=fuzzer,address,undefined $(POSIX) -Ilib -o $@ $< $(LIBSRC) $(LIBS)

fuzz: $(FUZZERS)
	for f in $(FUZZERS); do n=$${f##*/}; mkdir -p tests/fuzz/corpus/$$n build/fuzz/new-$$n; \
	    $$f -max_total_time=$(FUZZTIME) -timeout=5 -rss_limit_mb=512 \
	    -artifact_prefix=build/fuzz/ build/fuzz/new-$$n tests/fuzz/corpus/$$n || exit 1; done

install: all
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR) \
	    $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 \
	    $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7
	cp $(TOOLS) $(DESTDIR)$(BINDIR)/
	cp build/libzh.a $(DESTDIR)$(LIBDIR)/
	cp lib/zh.h $(DESTDIR)$(INCDIR)/
	for m in $(MAN); do s=$${m##*.}; cp $$m $(DESTDIR)$(MANDIR)/man$$s/; done

uninstall:
	for t in $(TOOLS); do rm -f $(DESTDIR)$(BINDIR)/$${t#bin/}; done
	rm -f $(DESTDIR)$(LIBDIR)/libzh.a $(DESTDIR)$(INCDIR)/zh.h
	for m in $(MAN); do s=$${m##*.}; rm -f $(DESTDIR)$(MANDIR)/man$$s/$${m#man/}; done

clean:
	rm -rf build bin

.PHONY: all deps check check-slow units asan demo bench fuzz install uninstall clean
