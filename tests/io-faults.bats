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

@test "io-faults: garbage after a compressed stream: every game before it, then the error at the garbage's first byte, exit 2, -j 1 and 2" {
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

@test "io-faults: a flipped byte: at least every game the codec's own tool recovers intact, the error at or after the damaged frame, -j 1 and 2" {
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

@test "io-faults: an xz header that asks more than 128 MiB is refused with the reason, before the memory is taken; 64 MiB reads" {
	need xz
	local n j
	xz -c "$PIECE" >"$T/s.xz"
	# 600 MB of address space: a 1.5 GiB dictionary could not be had
	# (not under a sanitizer, whose shadow memory needs far more)
	lim='ulimit -v 600000;'
	bash -c "$lim exec zhcheck --version" >/dev/null 2>&1 || lim=
	for n in 37 40; do
		xzdict "$T/s.xz" "$T/d$n.xz" "$n"
		# xz itself reads it whole, and refuses it under a 128 MiB limit
		xz -dc "$T/d$n.xz" | cmp - "$PIECE"
		run xz -dc --memlimit=128MiB "$T/d$n.xz"
		[ "$status" -ne 0 ] && [[ $output == *"Memory usage limit reached"* ]] || fail "$output"
		want=$(xz -lvv "$T/d$n.xz" | sed -n 's/^ *Memory needed: *\([0-9]*\) MiB$/\1/p')
		[ -n "$want" ] || fail "xz -lvv says no memory needed"
		for j in 1 2; do
			run --separate-stderr bash -c "$lim"' exec zhcheck -j "$1" "$2"' _ "$j" "$T/d$n.xz"
			assert_equal "$status" 2
			assert_equal "${stderr_lines[0]}" "zhcheck: $T/d$n.xz: error: xz: the stream needs $want MiB of memory to decode, more than the 128 MiB allowed (at byte 0 of the compressed input)"
		done
	done
	xzdict "$T/s.xz" "$T/d28.xz" 28
	run --separate-stderr bash -c "$lim"' exec zhcheck "$1"' _ "$T/d28.xz"
	assert_success
	assert_equal "$stderr" "zhcheck: checked $NGAMES games: $NGAMES valid, 0 invalid (0 warnings)"
}

# interrupt SIG OUT CMD...: run CMD (with a FIFO fed slowly as its input,
# last) in the background as a shell with job control runs it (SIGINT
# not ignored); once its temporary file beside OUT has bytes, send SIG
# and wait.  Sets status, and stderr from $T/err.
interrupt() {
	local sig=$1 out=$2
	shift 2
	rm -f "$T/fifo" && mkfifo "$T/fifo"
	run bash -c '
		set -m
		T=$1 sig=$2 out=$3
		shift 3
		{ cat "$T/big.pgn"; sleep 30; } >"$T/fifo" 2>/dev/null </dev/null &
		feeder=$!
		"$@" "$T/fifo" 2>"$T/err" &
		pid=$!
		d=$(dirname "$out") b=$(basename "$out")
		for i in $(seq 200); do
			f=$(find "$d" -maxdepth 1 -name ".$b.*" -size +0 | head -1)
			[ -n "$f" ] && break
			sleep 0.05
		done
		[ -n "$f" ] || { echo "no temporary file"; kill $pid; }
		kill "-$sig" "$pid"
		wait "$pid"
		rc=$?
		kill -- "-$feeder" 2>/dev/null
		exit $rc' _ "$T" "$sig" "$out" "$@"
	stderr=$(cat "$T/err")
}

@test "io-faults: SIGINT, SIGTERM, SIGHUP while -o (plain, .zst) is written: the old file as it was, no temporary file left, said; -j 1 and 2" {
	need zstd
	local sig out j n
	for i in 1 2 3 4 5 6 7 8; do cat "$PIECE"; done >"$T/big.pgn"
	for sig in INT TERM HUP; do
		for out in "$T/o.pgn" "$T/o.pgn.zst"; do
			for j in 1 2; do
				echo keep >"$out"
				interrupt "$sig" "$out" zhpgn -q -j "$j" -o "$out" --rejects "$T/rej.pgn"
				assert_equal "$status" $((128 + $(kill -l "$sig")))
				assert_equal "$(cat "$out")" keep
				[ ! -e "$T/rej.pgn" ]
				[ -z "$(find "$T" -name '.o.pgn*' -o -name '.rej.pgn*')" ] || fail "a temporary file was left"
				[[ $stderr == *"zhpgn: $out: not written (interrupted by SIG$sig)"* ]] || fail "$stderr"
				[[ $stderr == *"zhpgn: $T/rej.pgn: not written (interrupted by SIG$sig)"* ]] || fail "$stderr"
			done
		done
	done
	# finished, the file is whole: zstd checks it
	zhpgn -q -o "$T/o.pgn.zst" "$T/big.pgn"
	zstd -tq "$T/o.pgn.zst"
}

@test "io-faults: a run that fails writing removes every temporary output (--split, --stats, --duplicates), said; none left on success" {
	local f
	mkdir "$T/s" && cd "$T/s"
	ln -s /dev/full part-3.pgn
	run --separate-stderr zhpgn --split 100 -o 'part-%d.pgn' --stats st.json --duplicates dup.pgn "$PIECE"
	assert_equal "$status" 2
	for f in st.json dup.pgn; do
		[ ! -e "$f" ] || fail "$f left"
		[[ $stderr == *"zhpgn: $f: not written (the run failed)"* ]] || fail "$stderr"
	done
	# the shards finished before the failure stay, whole, said (#39 item 5)
	[[ $stderr == *"zhpgn: part-1.pgn to part-2.pgn: kept (2 complete files)"* ]] || fail "$stderr"
	assert_equal "$(cat part-1.pgn part-2.pgn | grep -c '^\[Event ')" 200
	rm part-1.pgn part-2.pgn
	[ -z "$(find . -name '.*' ! -name .)" ] || fail "temporary files left: $(ls -a)"
	rm part-3.pgn
	zhpgn -q --split 100 -o 'part-%d.pgn' --stats st.json --duplicates dup.pgn "$PIECE"
	assert_equal "$(cat part-*.pgn | grep -c '^\[Event ')" "$NGAMES"
	[ -z "$(find . -name '.*' ! -name .)" ] || fail "temporary files left: $(ls -a)"
	# a file replaced keeps its permissions
	chmod 640 part-1.pgn
	zhpgn -q --split 100 -o 'part-%d.pgn' "$PIECE"
	assert_equal "$(stat -c %a part-1.pgn)" 640
}

@test "io-faults: '-' as -o, --rejects, --duplicates, --stats of every tool is standard output, no file named '-'" {
	cd "$T"
	cp "$TESTDATA"/zhcheck/ambiguous-san.pgn bad.pgn
	run --separate-stderr zhpgn -o - "$PIECE"
	assert_equal "$(grep -c '^\[Event ' <<<"$output")" "$NGAMES"
	run --separate-stderr zhpgn -q --max 3 --stats - "$PIECE"
	assert_equal "$(tail -1 <<<"$output" | jq -r .selected)" 3
	run --separate-stderr zhpgn -q -o /dev/null --rejects - bad.pgn
	[[ $output == *'[Event '* ]] || fail "$output"
	run --separate-stderr zhpgn -q --dedupe --duplicates - -o /dev/null "$PIECE" "$PIECE"
	assert_equal "$(grep -c '^\[Event ' <<<"$output")" "$NGAMES"
	run --separate-stderr zhcheck --json -o - "$PIECE"
	assert_equal "${#lines[@]}" "$NGAMES"
	run --separate-stderr zhreplay -o - "$PIECE"
	[ "${#lines[@]}" -gt "$NGAMES" ]
	run --separate-stderr zhfen -o - "$TESTDATA"/fen/winboard-zh.fen
	[ "${#lines[@]}" -gt 0 ]
	[ ! -e - ] || fail "a file named '-'"
}

@test "io-faults: --progress on a .zst shows its compressed bytes read of its size and an ETA; a pipe the bytes read, -j 1 and 2" {
	command -v script >/dev/null || skip "script (util-linux) not installed"
	need zstd
	local j out size mb last
	for i in 1 2 3 4 5 6 7 8; do cat "$PIECE"; done >"$T/big.pgn"
	zstd -q -c "$T/big.pgn" >"$T/big.pgn.zst"
	size=$(wc -c <"$T/big.pgn.zst")
	mb=$(awk -v s="$size" 'BEGIN { printf "%.1f", s / 1e6 }')
	for j in 1 2; do
		out=$(NO_COLOR=1 script -qec "zhcheck -q -j $j --progress '$T/big.pgn.zst'" \
		    /dev/null </dev/null | tr '\r' '\n')
		# every line: of the file's compressed size; the last: all of it
		grep -q "games, [0-9.]*/$mb MB ([0-9]*%), [0-9]* games/s" <<<"$out" || fail "$out"
		last=$(grep 'games/s' <<<"$out" | tail -1)
		[[ $last == "zhcheck: $T/big.pgn.zst: $((8 * NGAMES)) games, $mb/$mb MB (100%), "* ]] || fail "$last"
		out=$(NO_COLOR=1 script -qec "cat '$T/big.pgn.zst' | zhcheck -q -j $j --progress" \
		    /dev/null </dev/null | tr '\r' '\n')
		last=$(grep 'games/s' <<<"$out" | tail -1)
		[[ $last == "zhcheck: <stdin>: $((8 * NGAMES)) games, $mb MB, "*" games/s"* ]] || fail "$last"
	done
	# the ETA, on a line before the end (the first at game 256)
	out=$(NO_COLOR=1 script -qec "zhcheck -q --progress '$T/big.pgn.zst'" /dev/null </dev/null | tr '\r' '\n')
	grep -q ", ETA [0-9]* s" <<<"$out" || fail "$out"
}

@test "io-faults: --stats records what reproduces the run: tool, version, the whole command line, inputs with their sizes, outputs" {
	need zstd
	cd "$T"
	zstd -q -c "$PIECE" >in.pgn.zst
	cp "$TESTDATA"/zhcheck/ambiguous-san.pgn bad.pgn
	zhpgn -q --max 5 --to xboard -o o.pgn --rejects r.pgn --stats st.json in.pgn.zst - <bad.pgn
	jq -e --argjson z "$(wc -c <in.pgn.zst)" --argjson b "$(wc -c <bad.pgn)" '
	    .tool == "zhpgn" and .version == "'"$(zhpgn --version | awk '{print $NF}')"'" and
	    .arguments == ["-q","--max","5","--to","xboard","-o","o.pgn","--rejects","r.pgn","--stats","st.json","in.pgn.zst","-"] and
	    .inputs == ["in.pgn.zst","-"] and .input_bytes == [$z, $b] and
	    .outputs == ["o.pgn","r.pgn","st.json"]' st.json >/dev/null || fail "$(cat st.json)"
	# run again from the record alone: the same bytes
	mkdir again && cp in.pgn.zst bad.pgn again/ && cd again
	mapfile -t a < <(jq -r '.arguments[]' ../st.json)
	zhpgn "${a[@]}" <bad.pgn
	cmp o.pgn ../o.pgn && cmp r.pgn ../r.pgn
	cd "$T"
	# a pipe has no size; a split lists its files; - is standard output
	cat "$PIECE" | zhcheck -q --json --split 400 -o 'c-%d.jsonl' --stats - >s2.json
	jq -e '.tool == "zhcheck" and .input_bytes == [null] and
	    .outputs == ["-","c-1.jsonl","c-2.jsonl","c-3.jsonl"]' s2.json >/dev/null || fail "$(cat s2.json)"
	zhreplay -q --max 1 -o /dev/null --stats s3.json "$PIECE"
	jq -e --argjson n "$(wc -c <"$PIECE")" '.tool == "zhreplay" and .input_bytes == [$n] and
	    .outputs == ["/dev/null","s3.json"]' s3.json >/dev/null || fail "$(cat s3.json)"
}
