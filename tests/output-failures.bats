#!/usr/bin/env bats
# The output path (issue #22): a write that fails is said once, as
# "TOOL: OUTPUT: write error: REASON", and stops the run with exit 2 (never
# counted as bad input, never put at an input's place); -o and --rejects
# never overwrite an input and never truncate anything unless all outputs
# open; a directory input is a read error with its reason; the --progress
# line is wiped before a diagnostic; zhcheck says when --max-errors stopped it.
bats_require_minimum_version 1.5.0

setup() {
	load common
	T=$BATS_TEST_TMPDIR
	# 1000 valid games, then one invalid: a run that went on after its
	# output failed would report the last game.
	cat "$TESTDATA"/pgn/crazyara-1k_cz_lichess_startpos.pgn \
	    "$TESTDATA"/zhcheck/impossible-san.pgn >"$T/big.pgn"
}

ENOSPC="write error: No space left on device"

# tofull CMD...: run CMD with its standard output on /dev/full.
tofull() { "$@" >/dev/full; }

# full OUTPUT CMD...: CMD exits 2 and its whole stderr is one line, the
# write error of OUTPUT (no diagnostic after it, no summary counting).
full() {
	local name=$1 tool=$2
	shift
	[ "$tool" = tofull ] && tool=$2
	run --separate-stderr "$@"
	[ "$status" -eq 2 ] || fail "$* exited $status: $stderr"
	assert_equal "$stderr" "$tool: $name: $ENOSPC"
}

@test "output-failures: zhreplay, every format, -j 1 and 2, stdout or -o on a full disk" {
	local f j
	for f in fen epd uci san jsonl board; do
		for j in 1 2; do
			full "<stdout>" tofull zhreplay -F "$f" -j "$j" "$T/big.pgn"
			full /dev/full zhreplay -F "$f" -j "$j" -o /dev/full "$T/big.pgn"
		done
	done
}

@test "output-failures: zhpgn, PGN and --json, -j 1 and 2, stdout, -o and --rejects on a full disk" {
	local j
	for j in 1 2; do
		full "<stdout>" tofull zhpgn -j "$j" "$T/big.pgn"
		full "<stdout>" tofull zhpgn -j "$j" --json "$T/big.pgn"
		full /dev/full zhpgn -j "$j" -o /dev/full "$T/big.pgn"
		full /dev/full zhpgn -j "$j" --json -o /dev/full "$T/big.pgn"
		# the rejects: the games' own errors, then the write error once
		run --separate-stderr zhpgn -j "$j" --rejects /dev/full -o "$T/o.pgn" \
		    "$TESTDATA"/zhpgn/corrupt.pgn
		assert_equal "$status" 2
		assert_equal "$(grep -c 'write error' <<<"$stderr")" 1
		assert_equal "${stderr_lines[-2]}" "zhpgn: /dev/full: $ENOSPC"
		# -o, written under a temporary name, is not left cut (io-faults.bats)
		assert_equal "${stderr_lines[-1]}" "zhpgn: $T/o.pgn: not written (the run failed)"
		[ ! -e "$T/o.pgn" ]
		assert_equal "$(grep -c 'game rejected$' <<<"$stderr")" 4
		! grep -qE '^zhpgn: [0-9]+ games?:' <<<"$stderr"
	done
}

@test "output-failures: zhcheck --json, -j 1 and 2, stdout or -o on a full disk; text mode's stderr" {
	local j
	for j in 1 2; do
		full "<stdout>" tofull zhcheck -j "$j" --json "$T/big.pgn"
		full /dev/full zhcheck -j "$j" --json -o /dev/full "$T/big.pgn"
		# text mode writes nothing to stdout: the run is as usual
		run --separate-stderr tofull zhcheck -j "$j" "$T/big.pgn"
		assert_equal "$status" 1
		assert_equal "${stderr_lines[-1]}" \
		    "zhcheck: checked 1002 games: 1001 valid, 1 invalid (0 warnings)"
		# its diagnostics are its output: lost, they are exit 2
		run bash -c '"$@" 2>/dev/full' _ zhcheck -j "$j" "$T/big.pgn"
		assert_equal "$status" 2
	done
	full "<stdout>" tofull zhcheck --fen --json "$TESTDATA"/fen/winboard-zh.fen
}

@test "output-failures: zhfen and zhperft on a full disk" {
	local f=$TESTDATA/fen/winboard-zh.fen
	full "<stdout>" tofull zhfen "$f"
	full "<stdout>" tofull zhfen --json "$f"
	full "<stdout>" tofull zhfen --moves "$f"
	full /dev/full zhfen -o /dev/full "$f"
	full "<stdout>" tofull zhperft 2
	full "<stdout>" tofull zhperft -d 2
	full /dev/full zhperft -o /dev/full 1
	printf 'id a\nepd %s\nperft 1 20\n' \
	    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq -' >"$T/s.perft"
	full "<stdout>" tofull zhperft --suite "$T/s.perft"
}

@test "output-failures: --help and --version on a full disk exit 2, for every tool" {
	local t
	for t in zhfen zhpgn zhcheck zhreplay zhperft; do
		full "<stdout>" tofull "$t" --help
		full "<stdout>" tofull "$t" --version
	done
}

# same TOOL OUTPUT INPUT CMD...: CMD refuses to write OUTPUT, which is
# the file INPUT (or, for "<stdin>", OUTPUT itself), before doing
# anything; the file keeps its bytes.
same() {
	local tool=$1 out=$2 in=$3 file=$3
	shift 3
	[ "$in" = "<stdin>" ] && file=$out
	cp "$file" "$T/saved"
	run --separate-stderr "$@"
	assert_equal "$status" 2
	assert_equal "$stderr" "$tool: $out: cannot write: it is the input $in"
	assert_equal "$output" ""
	cmp "$file" "$T/saved"
}

@test "output-failures: -o and --rejects naming an input (path, symlink, hard link, stdin) are refused" {
	local p=$T/in.pgn o
	cp "$TESTDATA"/zhreplay/games.pgn "$p"
	ln -s in.pgn "$T/sym.pgn"
	ln "$p" "$T/hard.pgn"
	for o in "$p" "$T/sym.pgn" "$T/hard.pgn"; do
		same zhpgn "$o" "$p" zhpgn -o "$o" "$p"
		same zhpgn "$o" "$p" zhpgn --json -o "$o" "$TESTDATA/zhcheck/ambiguous-san.pgn" "$p"
		same zhpgn "$o" "$p" zhpgn -j 2 --rejects "$o" -o "$T/out.pgn" "$p"
		[ ! -e "$T/out.pgn" ]	# not even created
		same zhcheck "$o" "$p" zhcheck --json -o "$o" "$p"
		same zhreplay "$o" "$p" zhreplay -o "$o" "$p"
	done
	same zhpgn "$p" "<stdin>" zhpgn -o "$p" <"$p"
	same zhreplay "$p" "<stdin>" zhreplay -F jsonl -o "$p" - <"$p"
	# standard output appended to the input would feed it without end
	cp "$p" "$T/saved"
	run --separate-stderr bash -c '"$@" >>"$2"' _ zhpgn "$p"
	assert_equal "$status" 2
	assert_equal "$stderr" "zhpgn: <stdout>: cannot write: it is the input $p"
	cmp "$p" "$T/saved"
	# a FEN file, and a perft suite
	grep -v '^#' "$TESTDATA"/fen/winboard-zh.fen | head -3 >"$T/p.fen"
	ln -s p.fen "$T/p2.fen"
	same zhfen "$T/p2.fen" "$T/p.fen" zhfen -o "$T/p2.fen" "$T/p.fen"
	same zhcheck "$T/p.fen" "$T/p.fen" zhcheck --fen --json -o "$T/p.fen" "$T/p.fen"
	printf 'id a\nepd %s\nperft 1 20\n' \
	    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq -' >"$T/s.perft"
	same zhperft "$T/s.perft" "$T/s.perft" zhperft --suite "$T/s.perft" -o "$T/s.perft"
}

@test "output-failures: an output that cannot be opened leaves every other output untouched" {
	local p=$TESTDATA/zhreplay/games.pgn
	echo keep >"$T/keep.pgn"
	run --separate-stderr zhpgn --rejects /nonexist/r.pgn -o "$T/keep.pgn" "$p"
	assert_equal "$status" 2
	assert_equal "$stderr" "zhpgn: /nonexist/r.pgn: cannot write: No such file or directory"
	assert_equal "$(cat "$T/keep.pgn")" keep
	# an output it would have made is not left behind, empty
	run --separate-stderr zhpgn -o "$T/new.pgn" --rejects /nonexist/r.pgn "$p"
	assert_equal "$status" 2
	[ ! -e "$T/new.pgn" ]
	# -o and --rejects on one file would mix them
	run --separate-stderr zhpgn -o "$T/keep.pgn" --rejects "$T/keep.pgn" "$p"
	assert_equal "$status" 2
	assert_equal "$(cat "$T/keep.pgn")" keep
}

@test "output-failures: a directory input is one read error with its reason; the others are read" {
	local p=$TESTDATA/zhreplay/games.pgn
	mkdir "$T/d"
	run --separate-stderr zhcheck "$T/d" "$p"
	assert_equal "$status" 2
	assert_equal "${stderr_lines[0]}" "zhcheck: $T/d: read error: Is a directory"
	assert_equal "$(grep -c 'read error' <<<"$stderr")" 1
	assert_equal "${stderr_lines[-1]}" "zhcheck: checked 5 games: 4 valid, 1 invalid (10 warnings: 5 tag, 5 missing-round)"
	run --separate-stderr zhcheck -j 2 "$T/d" "$p"
	assert_equal "$(grep -c 'read error' <<<"$stderr")" 1
	run --separate-stderr zhpgn "$T/d" "$p"
	assert_equal "$status" 2
	assert_equal "${stderr_lines[0]}" "zhpgn: $T/d: read error: Is a directory"
	assert_equal "${stderr_lines[-1]}" "zhpgn: 5 games: 4 written, 1 rejected"
	run --separate-stderr zhreplay -F uci "$T/d" "$p"
	assert_equal "$status" 2
	assert_equal "${stderr_lines[0]}" "zhreplay: $T/d: read error: Is a directory"
	assert_equal "${#lines[@]}" 5
	run --separate-stderr zhfen "$T/d" "$TESTDATA"/fen/winboard-zh.fen
	assert_equal "$status" 2
	assert_equal "$stderr" "zhfen: $T/d: read error: Is a directory"
	run --separate-stderr zhperft --suite "$T/d"
	assert_equal "$status" 2
	assert_equal "$stderr" "zhperft: $T/d: read error: Is a directory"
	run --separate-stderr zhcheck <"$T/d"
	assert_equal "${stderr_lines[0]}" "zhcheck: <stdin>: read error: Is a directory"
}

@test "output-failures: zhcheck --max-errors says in its summary that it stopped early" {
	local f=(chessgi-pawn-drop-first-rank.pgn impossible-san.pgn drop-not-in-hand.pgn)
	cd "$TESTDATA/zhcheck"
	run -1 --separate-stderr zhcheck --max-errors 1 "${f[@]}"
	assert_equal "${stderr_lines[-1]}" \
	    "zhcheck: checked 3 games: 2 valid, 1 invalid (0 warnings) (stopped after 1 error: --max-errors)"
	run -1 --separate-stderr zhcheck -j 2 --max-errors 1 "${f[@]}"
	assert_equal "${stderr_lines[-1]}" \
	    "zhcheck: checked 3 games: 2 valid, 1 invalid (0 warnings) (stopped after 1 error: --max-errors)"
	# not reached: nothing to say
	run -1 --separate-stderr zhcheck --max-errors 5 "${f[@]}"
	assert_equal "${stderr_lines[-1]}" \
	    "zhcheck: checked 6 games: 4 valid, 2 invalid (0 warnings)"
}

@test "output-failures: the --progress line is wiped before a diagnostic (on a pty)" {
	command -v script >/dev/null || skip "script (util-linux) not installed"
	local j out
	for j in 1 2; do
		# the first progress line is at game 256; the error at game 1001
		out=$(NO_COLOR=1 script -qec "zhcheck -j $j --progress '$T/big.pgn'" \
		    /dev/null </dev/null | cat -v)
		[[ $out == *'games/s'* ]] || fail "no progress line: $out"
		[[ $out == *'^M^[[Kzhcheck: '*"big.pgn:11010:13: error"* ]] ||
		    fail "-j $j: the diagnostic does not wipe the progress line: $out"
	done
}
