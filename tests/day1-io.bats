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
