#!/usr/bin/env bats
# -j N: the input is cut into chunks before "[Event " lines and each
# worker reads its own chunk (cli/pieces.c, cli/jobs.c); a chunk whose games or lines
# do not come out as guessed is read again, with all after it, by one
# reader.  Either way -j 2 must write what -j 1 writes.  ZH_JOBS_CHUNK
# makes the chunks tiny (a cut at almost every game), ZH_JOBS_DEBUG says
# on stderr how many games came from chunks.

bats_require_minimum_version 1.5.0
load common

setup() {
	T=$BATS_TEST_TMPDIR
}

# same ARGS... FILE: -j 1 and -j 2 (chunks of $CH bytes) write the same
# bytes on stdout and stderr and exit the same.
same() {
	local r1=0 r2=0
	"$@" -j 1 >"$T/1.out" 2>"$T/1.err" || r1=$?
	ZH_JOBS_CHUNK=$CH "$@" -j 2 >"$T/2.out" 2>"$T/2.err" || r2=$?
	cmp "$T/1.out" "$T/2.out" || fail "$*: stdout differs (chunks of $CH)"
	cmp "$T/1.err" "$T/2.err" || fail "$*: stderr differs (chunks of $CH)"
	[ "$r1" = "$r2" ] || fail "$*: exit $r1 with -j 1, $r2 with -j 2"
}

# games FILE: how many games -j 2 read in chunks of $CH bytes.
chunk_games() {
	ZH_JOBS_CHUNK=$CH ZH_JOBS_DEBUG=1 zhcheck -q -j 2 "$1" 2>&1 >/dev/null |
	    sed -n 's/^zhcheck: -j: [0-9]* chunks, \([0-9]*\) games from chunks.*/\1/p'
}

@test "jobs: chunks of any size give the bytes of -j 1, every tool (games in chunks)" {
	local f=$TESTDATA/zhreplay/bench20.pgn a
	cat "$f" "$f" "$f" >"$T/in.pgn"
	for CH in 1 700 5000; do
		n=$(chunk_games "$T/in.pgn")
		[ "$n" -eq 60 ] || fail "chunks of $CH: $n of 60 games read in chunks"
		while IFS= read -r a; do
			# shellcheck disable=SC2086
			same $a "$T/in.pgn"
		done <<-EOF
		zhcheck --json --strict
		zhpgn --json --fens
		zhpgn --to xboard
		zhreplay -F fen
		zhreplay -F jsonl --variations
		EOF
	done
}

@test "jobs: games of every testdata file between clean ones: the guess checked" {
	local good f i=0 fell=0 kept=0
	good='[Event "good"]
[White "A"]
[Black "B"]
[Result "1-0"]
[Variant "Crazyhouse"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0
'
	CH=1
	for f in "$TESTDATA"/pgn/*.pgn "$TESTDATA"/zhcheck/*.pgn "$TESTDATA"/zhpgn/*.pgn; do
		i=$((i + 1))
		# the file, then its first half behind an Event line of its
		# own: tags that go on, comments and variations left open,
		# games without an Event tag all meet a cut
		{ printf '%s\n' "$good"; cat "$f"; printf '\n%s\n[Event "half"]\n' "$good"
		  head -c "$(($(wc -c <"$f") / 2))" "$f"; printf '\n%s' "$good"; } >"$T/u.pgn"
		n=$(chunk_games "$T/u.pgn")
		total=$(zhcheck --json "$T/u.pgn" 2>/dev/null | wc -l)
		if [ "$n" -lt "$total" ]; then fell=$((fell + 1)); else kept=$((kept + 1)); fi
		same zhcheck --json "$T/u.pgn"
		same zhpgn --json "$T/u.pgn"
		same zhreplay -F jsonl "$T/u.pgn"
	done
	# both ways were taken: some files read wholly in chunks, some not
	[ "$fell" -gt 0 ] && [ "$kept" -gt 0 ] ||
	    fail "of $i files, $kept wholly in chunks and $fell read again"
}

@test "jobs: --rejects and --max-errors with chunks, as with -j 1" {
	cat "$TESTDATA"/zhpgn/corrupt.pgn "$TESTDATA"/zhreplay/bench20.pgn \
	    "$TESTDATA"/zhcheck/*.pgn >"$T/in.pgn"
	for CH in 1 3000; do
		zhpgn -j 1 -r "$T/r1" "$T/in.pgn" >"$T/o1" 2>&1 || true
		ZH_JOBS_CHUNK=$CH zhpgn -j 2 -r "$T/r2" "$T/in.pgn" >"$T/o2" 2>&1 || true
		cmp "$T/o1" "$T/o2" && cmp "$T/r1" "$T/r2"
		for m in 1 3; do
			same zhcheck --max-errors $m "$T/in.pgn"
		done
	done
}

@test "jobs: CRLF, a BOM and lone CRs keep their line numbers with chunks" {
	local f=$TESTDATA/zhreplay/bench20.pgn
	CH=1
	{ printf '\357\273\277'; sed 's/$/\r/' "$f"; } >"$T/crlf.pgn"
	same zhcheck --json "$T/crlf.pgn"
	[ "$(chunk_games "$T/crlf.pgn")" -eq 20 ]
	# a lone CR is a line end to the reader but not to the cutter:
	# the chunk is read again and the numbers stay right
	{ head -c 300 "$f"; printf '\r'; tail -c +301 "$f"; cat "$TESTDATA"/zhcheck/drop-not-in-hand.pgn; } >"$T/cr.pgn"
	same zhcheck --json "$T/cr.pgn"
	same zhcheck "$T/cr.pgn"
}

# A thread that cannot start (the process at its thread limit): -j says
# so once and reads with one thread, the output otherwise that of -j 1.
# tests/shim/failthread.c makes the Nth pthread_create fail; not under
# a sanitizer, whose runtime must come first and wraps pthread_create.
@test "jobs: a thread that cannot start: said once, read with one, same output" {
	local f=$TESTDATA/zhreplay/bench20.pgn n tool
	command -v cc >/dev/null || skip "no C compiler for the shim"
	if nm "$ZH_TOP/bin/zhcheck" 2>/dev/null | grep -q '__[at]san_'; then
		skip "built with a sanitizer"
	fi
	cc -shared -fPIC -o "$T/failthread.so" "$ZH_TOP/tests/shim/failthread.c" -ldl
	for tool in "zhcheck" "zhpgn --json" "zhreplay -F fen"; do
		# shellcheck disable=SC2086
		$tool -j 1 "$f" >"$T/1.out" 2>"$T/1.err" || true
		for n in 1 2; do
			# shellcheck disable=SC2086
			ZH_FAIL_THREAD=$n LD_PRELOAD=$T/failthread.so $tool -j 2 "$f" \
			    >"$T/2.out" 2>"$T/2.err" || fail "$tool: exit $? with thread $n failing"
			cmp "$T/1.out" "$T/2.out" || fail "$tool: stdout differs, thread $n failing"
			head -n 1 "$T/2.err" | grep -qx "${tool%% *}: -j: cannot start thread $n of 2 (.*); reading with one" ||
			    fail "$tool: first line: $(head -n 1 "$T/2.err")"
			tail -n +2 "$T/2.err" | cmp - "$T/1.err" || fail "$tool: stderr differs, thread $n failing"
		done
		# from a pipe too (the reader's own batches)
		# shellcheck disable=SC2086
		cat "$f" | ZH_FAIL_THREAD=2 LD_PRELOAD=$T/failthread.so $tool -j 2 \
		    >"$T/3.out" 2>"$T/3.err" || fail "$tool: exit $? from a pipe"
		# but the JSON objects' "file", "<stdin>" from a pipe
		cmp <(sed 's/"file":"[^"]*",//' "$T/1.out") \
		    <(sed 's/"file":"[^"]*",//' "$T/3.out") ||
		    fail "$tool: stdout differs from a pipe"
		grep -q 'cannot start thread 2 of 2' "$T/3.err" || fail "$tool: nothing said from a pipe"
	done
}

@test "jobs: --game-offset renumbers games read in chunks and by the fallback reader, as with -j 1" {
	local f=$TESTDATA/zhreplay/bench20.pgn
	# in chunks, then (a game without an Event tag) by one reader again
	{ cat "$f"; grep -v '^\[Event ' "$TESTDATA/zhcheck/ambiguous-san.pgn"; cat "$f"; } >"$T/in.pgn"
	for CH in 1 4000; do
		same zhcheck --json --game-offset 500 "$T/in.pgn"
		same zhpgn --game-offset 500 "$T/in.pgn"
		same zhreplay -F board --color never --game-offset 500 "$T/in.pgn"
	done
	zhcheck -q --json --game-offset 500 "$T/in.pgn" | head -1 | grep -q '"game":501' ||
	    fail "the first game is not numbered 501"
	ZH_JOBS_CHUNK=1 ZH_JOBS_DEBUG=1 zhcheck -q -j 2 "$T/in.pgn" 2>&1 >/dev/null |
	    grep -q 'then one reader' || fail "the fallback reader was not used"
}

@test "jobs: cli/pieces.c alone drives the reader's piece calls, jobs.c alone renumbers" {
	local src=$BATS_TEST_DIRNAME/../cmd f
	for f in "$src"/*.c "$src"/*.h; do
		case $f in */pieces.[ch]) continue ;; esac
		! grep -nE 'zh_pgn_(cut|count|mem|mem_clean|set_base)\(' "$f" ||
		    fail "$f calls the piece API itself"
		case $f in */jobs.c) continue ;; esac
		! grep -n 'number +=' "$f" || fail "$f renumbers games itself"
	done
}

# The worker count -j 0 chooses (ZH_JOBS_DEBUG), under taskset CPUS.
auto_line() {
	ZH_JOBS_DEBUG=1 taskset -c "$1" zhcheck -q -j 0 "${@:2}" 2>&1 >/dev/null |
	    grep -e '-j 0:' || true
}

@test "jobs: -j 0 leaves a compressed input's decoding thread its core (2 cores: 1 worker), each input its own" {
	command -v taskset >/dev/null || skip "taskset not installed"
	command -v zstd >/dev/null || skip "zstd not installed"
	taskset -c 0,1 true 2>/dev/null || skip "fewer than 2 cores"
	cat "$TESTDATA/zhreplay/bench20.pgn" "$TESTDATA/zhreplay/bench20.pgn" >"$T/in.pgn"
	zstd -q "$T/in.pgn" -o "$T/in.pgn.zst"
	# two cores: the decoder fills one, so one worker (-j 2 ran at
	# x0.80 of -j 1 there); a plain file has no decoder: two
	run auto_line 0,1 "$T/in.pgn.zst"
	[ "$output" = "zhcheck: -j 0: 2 cores, a decoding thread: 1 worker" ] ||
	    fail "2 cores, .zst: $output"
	run auto_line 0,1 "$T/in.pgn"
	[ "$output" = "zhcheck: -j 0: 2 cores, no decoding thread: 2 workers" ] ||
	    fail "2 cores, plain: $output"
	# standard input compressed too
	output=$(ZH_JOBS_DEBUG=1 taskset -c 0,1 zhcheck -q -j 0 - <"$T/in.pgn.zst" 2>&1 >/dev/null | grep -e '-j 0:')
	[ "$output" = "zhcheck: -j 0: 2 cores, a decoding thread: 1 worker" ] ||
	    fail "2 cores, .zst on stdin: $output"
	# one core: no decoding thread, one worker
	run auto_line 0 "$T/in.pgn.zst"
	[ "$output" = "zhcheck: -j 0: 1 core, no decoding thread: 1 worker" ] ||
	    fail "1 core, .zst: $output"
	# each input decides for itself, in its order
	run auto_line 0,1 "$T/in.pgn.zst" "$T/in.pgn" "$T/in.pgn.zst"
	[ "$output" = "zhcheck: -j 0: 2 cores, a decoding thread: 1 worker
zhcheck: -j 0: 2 cores, no decoding thread: 2 workers
zhcheck: -j 0: 2 cores, a decoding thread: 1 worker" ] || fail "three inputs: $output"
	# and what it chose writes what -j 1 writes
	taskset -c 0,1 zhcheck -j 0 "$T/in.pgn.zst" "$T/in.pgn" >"$T/0.out" 2>&1 || true
	zhcheck -j 1 "$T/in.pgn.zst" "$T/in.pgn" >"$T/1.out" 2>&1 || true
	cmp "$T/0.out" "$T/1.out" || fail "-j 0 and -j 1 differ"
}
