#!/usr/bin/env bats
# Day-one faults of the input and output paths (issue 32): what a codec
# decoded before a fault is read and written, the fault said at its
# compressed byte; xz's memory bounded; named outputs written under a
# temporary name and renamed at the end, removed on a signal or an error;
# "-" is standard output; --progress on compressed input; --stats says
# what reproduces the run.  Answers come from the codecs' own tools, the
# plain files and the system (ps, /proc), never from zhkit's earlier output.

bats_require_minimum_version 1.5.0
load common

setup() {
	T=$BATS_TEST_TMPDIR
	PIECE=$TESTDATA/pgn/crazyara-1k_cz_lichess_startpos.pgn
	NGAMES=$(grep -c '^\[Event ' "$PIECE")
}

need() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null || skip "$c not installed"
	done
}

squeeze() {
	case $1 in
	zst) zstd -q -c ;;
	gz) gzip -c ;;
	bz2) bzip2 -c ;;
	xz) xz -c ;;
	esac
}

unsqueeze() {
	case $1 in
	zst) zstd -dcq "$2" ;;
	gz) gzip -dc "$2" ;;
	bz2) bzip2 -dcq "$2" ;;
	xz) xz -dcq "$2" ;;
	esac
}

kind() {
	case $1 in zst) echo zstd ;; gz) echo gzip ;; bz2) echo bzip2 ;; xz) echo xz ;; esac
}

# whole ORIG DECODED: the number of games of ORIG (each from its "[Event "
# line to the next one or the end) that DECODED holds unchanged, from its
# start: the games a codec's own tool recovered intact.
whole() {
	python3 - "$1" "$2" <<'PY'
import re, sys
a = open(sys.argv[1], "rb").read()
b = open(sys.argv[2], "rb").read()
n, step = 0, 1 << 16
while step:
    m = min(n + step, len(a), len(b))
    if m > n and a[n:m] == b[n:m]:
        n = m
    else:
        step //= 2
ends = [m.start() for m in re.finditer(rb"(?m)^\[Event ", a)][1:] + [len(a)]
print(sum(1 for e in ends if e <= n))
PY
}

# The offset N of "(at byte N of the compressed input)" in $stderr.
at_byte() {
	sed -n 's/.*(at byte \([0-9]*\) of the compressed input).*/\1/p' <<<"$stderr"
}

@test "day1-io: garbage after a compressed stream: every game before it, then the error at the garbage's first byte, exit 2, -j 1 and 2" {
	need zstd gzip bzip2 xz
	local ext j size
	zhpgn -q -o "$T/all.pgn" "$PIECE"
	for ext in zst gz bz2 xz; do
		squeeze "$ext" <"$PIECE" >"$T/g.$ext"
		size=$(wc -c <"$T/g.$ext")
		printf 'garbage after the stream\n' >>"$T/g.$ext"
		unsqueeze "$ext" "$T/g.$ext" >"$T/tool.pgn" 2>/dev/null || true
		assert_equal "$(whole "$PIECE" "$T/tool.pgn")" "$NGAMES"
		for j in 1 2; do
			run --separate-stderr zhpgn -j "$j" -o "$T/got.pgn" "$T/g.$ext"
			assert_equal "$status" 2
			cmp "$T/got.pgn" "$T/all.pgn"
			grep -qF -- "zhpgn: $T/g.$ext: error: $(kind "$ext"): " <<<"$stderr" || fail "$stderr"
			assert_equal "$(at_byte)" "$size"
			run --separate-stderr zhpgn -j "$j" --json "$T/g.$ext"
			assert_equal "$status" 2
			assert_equal "${#lines[@]}" "$NGAMES"
		done
	done
}

@test "day1-io: a flipped byte: at least every game the codec's own tool recovers intact, the error at or after the damaged frame, -j 1 and 2" {
	need zstd gzip bzip2 xz
	local ext j start flip n m
	zhpgn -q -o "$T/all.pgn" "$PIECE"
	# two parts compressed on their own, then a third with a byte flipped
	awk -v T="$T" -v N="$NGAMES" \
	    '/^\[Event /{n++} { print > (T "/part" int((n - 1) * 3 / N)) }' "$PIECE"
	for ext in zst gz bz2 xz; do
		cat "$T/part0" "$T/part1" | squeeze "$ext" >"$T/bad.$ext"
		start=$(wc -c <"$T/bad.$ext")
		squeeze "$ext" <"$T/part2" >>"$T/bad.$ext"
		flip=$(( (start + $(wc -c <"$T/bad.$ext")) / 2 ))
		python3 -c 'import sys
d = bytearray(open(sys.argv[1], "rb").read()); d[int(sys.argv[2])] ^= 0x55
open(sys.argv[1], "wb").write(d)' "$T/bad.$ext" "$flip"
		! unsqueeze "$ext" "$T/bad.$ext" >"$T/tool.pgn" 2>/dev/null
		m=$(whole "$PIECE" "$T/tool.pgn")
		[ "$m" -gt 0 ] || fail "$ext: the codec's tool recovered no game"
		for j in 1 2; do
			run --separate-stderr zhpgn -j "$j" -o "$T/got.pgn" "$T/bad.$ext"
			assert_equal "$status" 2
			grep -qF -- "zhpgn: $T/bad.$ext: error: $(kind "$ext"): " <<<"$stderr" || fail "$stderr"
			n=$(whole "$T/all.pgn" "$T/got.pgn")
			[ "$n" -ge "$m" ] || fail "$ext -j $j: $n games intact, $m by the codec's tool"
			# the fault is in the third part: no codec can see it before
			[ "$(at_byte)" -ge "$start" ] || fail "$ext: $stderr (the damaged part starts at $start)"
			[ "$ext" != zst ] || [ "$(at_byte)" -le "$flip" ] || fail "$stderr (flipped byte $flip)"
		done
	done
}

# xzdict IN OUT N: IN (an xz file of one LZMA2 block) with its dictionary
# size byte set to N (37: 1536 MiB, 40: 4 GiB; 28: 64 MiB), the block
# header's CRC32 made again (the .xz file format, 3.1).
xzdict() {
	python3 - "$@" <<'PY'
import sys, zlib
d = bytearray(open(sys.argv[1], "rb").read())
p = 12
size, flags, q = (d[p] + 1) * 4, d[p + 1], p + 2
def varint(q):
    while d[q] & 0x80:
        q += 1
    return q + 1
if flags & 0x40:
    q = varint(q)
if flags & 0x80:
    q = varint(q)
assert d[q] == 0x21 and d[q + 1] == 1
d[q + 2] = int(sys.argv[3])
d[p + size - 4:p + size] = zlib.crc32(bytes(d[p:p + size - 4])).to_bytes(4, "little")
open(sys.argv[2], "wb").write(d)
PY
}

@test "day1-io: an xz header that asks more than 128 MiB is refused with the reason, before the memory is taken; 64 MiB reads" {
	need xz
	local n j
	xz -c "$PIECE" >"$T/s.xz"
	for n in 37 40; do
		xzdict "$T/s.xz" "$T/d$n.xz" "$n"
		# xz itself reads it whole, and refuses it under a 128 MiB limit
		xz -dc "$T/d$n.xz" | cmp - "$PIECE"
		run xz -dc --memlimit=128MiB "$T/d$n.xz"
		[ "$status" -ne 0 ] && [[ $output == *"Memory usage limit reached"* ]] || fail "$output"
		want=$(xz -lvv "$T/d$n.xz" | sed -n 's/^ *Memory needed: *\([0-9]*\) MiB$/\1/p')
		[ -n "$want" ] || fail "xz -lvv says no memory needed"
		for j in 1 2; do
			# 600 MB of address space: the dictionary could not be had
			run --separate-stderr bash -c 'ulimit -v 600000; exec zhcheck -j "$1" "$2"' _ "$j" "$T/d$n.xz"
			assert_equal "$status" 2
			assert_equal "${stderr_lines[0]}" "zhcheck: $T/d$n.xz: error: xz: the stream needs $want MiB of memory to decode, more than the 128 MiB allowed (at byte 0 of the compressed input)"
		done
	done
	xzdict "$T/s.xz" "$T/d28.xz" 28
	run --separate-stderr bash -c 'ulimit -v 600000; exec zhcheck "$1"' _ "$T/d28.xz"
	assert_success
	assert_equal "$stderr" "zhcheck: checked $NGAMES games: $NGAMES valid, 0 invalid (0 warnings)"
}
