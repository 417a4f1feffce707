#!/usr/bin/env bats
# libzh.so exports exactly what zh.h declares: the library is built with
# -fvisibility=hidden and zh.h marks its declarations default, so the
# internals (zh__*) and the tables of bb8.c stay inside.

load common

# The functions and objects zh.h declares (not its static inline ones),
# from the preprocessed header, one name a line, sorted.
declared() {
	cc -E -P -I"$ZH_TOP/lib" "$ZH_TOP/lib/zh.h" | python3 -c '
import re, sys
depth, out = 0, []
for ch in sys.stdin.read():
    if ch == "{":
        depth += 1
    elif ch == "}":
        depth -= 1
        if depth == 0:
            out.append(";")
    elif depth == 0:
        out.append(ch)
names = set()
for d in " ".join("".join(out).split()).split(";"):
    d = d.strip()
    if d.startswith(("typedef", "static", "enum", "struct", "union")) and "(" not in d:
        continue
    if d.startswith("static"):
        continue
    m = re.search(r"\b(zh_[a-z0-9_]+)\s*\(", d)
    if m is None and d.startswith("extern"):
        m = re.search(r"\b(zh_[a-z0-9_]+)\s*(\[[^]]*\])?$", d)
    if m:
        names.add(m.group(1))
print("\n".join(sorted(names)))
'
}

@test "exports: libzh.so's dynamic symbols are exactly zh.h's declarations" {
	local so
	so=$(ls -t "$ZH_TOP"/build/libzh.so.* | head -1)	# the newest: an older soname may linger
	[ -f "$so" ] || skip "build/libzh.so not built"
	declared >"$BATS_TEST_TMPDIR/declared"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/declared")" -gt 50 ]
	# names with a leading "__" are the implementation's (make asan
	# adds __odr_asan.NAME for each exported object)
	nm -D --defined-only "$so" | awk '$3 !~ /^__/ { print $3 }' | sort >"$BATS_TEST_TMPDIR/exported"
	run diff "$BATS_TEST_TMPDIR/declared" "$BATS_TEST_TMPDIR/exported"
	assert_success
	assert_output ''
}

@test "exports: no internal zh__ name leaves the shared library" {
	local so
	so=$(ls -t "$ZH_TOP"/build/libzh.so.* | head -1)	# the newest: an older soname may linger
	run sh -c "nm -D --defined-only '$so' | grep -c ' zh__'"
	assert_output 0
}

# The file-level call graph of libzh's objects (who calls a function or
# reads an object another file defines), from nm: one line a file,
# "FILE: CALLED ...".
callgraph() {
	python3 - "$ZH_TOP"/build/lib/*.o <<'PY'
import subprocess, sys
defs, und = {}, {}
for o in sys.argv[1:]:
    n = o.rsplit("/", 1)[-1][:-2]
    und[n] = set()
    for l in subprocess.run(["nm", o], capture_output=True, text=True).stdout.splitlines():
        p = l.split()
        if len(p) == 3 and p[1] in "TDRBG":
            defs[p[2]] = n
        elif len(p) == 2 and p[0] == "U":
            und[n].add(p[1])
for n, u in sorted(und.items()):
    print(n + ":", *sorted({defs[s] for s in u if defs.get(s, n) != n}))
PY
}

# The graph must have no circle, so that lib/README.md's order of the
# files can hold.
@test "exports: libzh's files call each other without a circle" {
	callgraph >"$BATS_TEST_TMPDIR/graph"
	run python3 - "$BATS_TEST_TMPDIR/graph" <<'PY'
import sys
g = {}
for l in open(sys.argv[1]):
    a, _, rest = l.partition(":")
    g[a] = set(rest.split())
state = {}
def visit(v, path):
    state[v] = 1
    for w in sorted(g[v]):
        if state.get(w) == 1:
            print("circle: " + " -> ".join(path[path.index(w):] + [w]))
            sys.exit(1)
        if w not in state:
            visit(w, path + [w])
    state[v] = 2
for v in sorted(g):
    if v not in state:
        visit(v, [v])
print("%d files, no circle" % len(g))
PY
	assert_success
	assert_output --regexp '^[0-9]+ files, no circle$'
}

# lib/README.md lists the files from the bottom layer up: each file's
# calls go only to files listed above it (or in its own row).
@test "exports: lib/README.md's order of the files holds" {
	callgraph >"$BATS_TEST_TMPDIR/graph"
	run python3 - "$ZH_TOP/lib/README.md" "$BATS_TEST_TMPDIR/graph" <<'PY'
import re, sys
row = {}
for k, l in enumerate(l for l in open(sys.argv[1]) if l.startswith("| `")):
    for f in re.findall(r"`([a-z0-9_]+)\.c`", l.split("|")[1]):
        row[f] = k
bad = 0
for l in open(sys.argv[2]):
    a, _, rest = l.partition(":")
    if a not in row:
        print("%s.c is not in lib/README.md" % a)
        bad = 1
        continue
    for b in rest.split():
        if row.get(b, 99) > row[a]:
            print("%s.c calls %s.c, listed below it" % (a, b))
            bad = 1
sys.exit(bad)
PY
	assert_success
	assert_output ''
}

# The tools and the pictures' code reach the library by its public door
# only: every libzh name their objects call is one zh.h declares, never
# an internal (zh__*, or the two-board engine zh_int.h keeps: the
# replay, walk and writers of struct zh_bug behind zh_replay,
# zh_bply_walk, zh_pgn_write, zh_pgn_write_boards and zh_game_json).
@test "exports: no tool calls an internal of libzh (the two-board engine's included)" {
	local f o=$BATS_TEST_TMPDIR/o
	mkdir "$o"
	declared >"$BATS_TEST_TMPDIR/declared"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/declared")" -gt 50 ]
	# every tool's object, compiled here without optimization
	# (a tool's own files, cmd/TOOL/*.c, see cmd/TOOL/'s headers)
	for f in "$ZH_TOP"/cmd/*.c "$ZH_TOP"/cmd/*/*.c "$ZH_TOP"/cli/*.c "$ZH_TOP"/draw/*.c; do
		cc -std=c17 -D_POSIX_C_SOURCE=200809L -I"$ZH_TOP/lib" \
		    -I"$ZH_TOP/cli" -I"$ZH_TOP/draw" -I"${f%.c}" -I"$(dirname "$f")" \
		    -c -o "$o/$(basename "$(dirname "$f")")-$(basename "$f" .c).o" "$f" ||
		    return 1
	done
	[ -f "$o/cmd-zhpgn.o" ] && [ -f "$o/cmd-zhreplay.o" ] && [ -f "$o/draw-pic.o" ]
	# a name the tools define themselves (zh_lines_*, in cli/) is theirs
	nm "$o"/*.o |
	    awk '$1 ~ /^[TDRBG]$/ || $2 ~ /^[TDRBG]$/ { print $NF }' |
	    sort -u >"$BATS_TEST_TMPDIR/own"
	nm -u "$o"/*.o |
	    awk '$NF ~ /^zh_/ { print $NF }' | sort -u |
	    comm -23 - "$BATS_TEST_TMPDIR/own" >"$BATS_TEST_TMPDIR/called"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/called")" -gt 20 ]
	run comm -23 "$BATS_TEST_TMPDIR/called" "$BATS_TEST_TMPDIR/declared"
	assert_success
	assert_output ''
	# the library side: those internals are hidden too
	run sh -c "nm -D --defined-only '$(ls "$ZH_TOP"/build/libzh.so.* | head -1)' | grep -cE ' zh_bug_(replay|free|walk|write|json|board_write|team_result|board_result)$'"
	assert_output 0
}

# The tools never ask "one board or two" by the two-board engine's names:
# a game of either goes through zh_replay and the public writers.
@test "exports: no tool or picture code names the two-board engine (zh_bug_*)" {
	run sh -c "cat '$ZH_TOP'/cmd/*.c '$ZH_TOP'/cmd/*/*.[ch] '$ZH_TOP'/cli/*.[ch] '$ZH_TOP'/draw/*.[ch] | grep -c 'zh_bug_'"
	assert_output 0
}

# The public header stands alone: no Jansson in it (JSON comes out as
# text, struct zh_text), so a user of libzh needs no jansson.h.
@test "exports: zh.h names neither json_t nor Jansson" {
	run grep -inE '\bjson_t\b|jansson|\bJSON_(COMPACT|PRESERVE|REAL|INDENT)' "$ZH_TOP/lib/zh.h"
	assert_failure
	assert_output ''
	# nor does anything it includes
	run sh -c "cc -std=c17 -M -I'$ZH_TOP/lib' '$ZH_TOP/lib/zh.h' | tr ' ' '\n' | grep -c jansson"
	assert_output 0
}
