#!/usr/bin/env bats
# Split safety (DESIGN.md "Performance"): the PGN tools are the map step
# of GNU parallel --pipe, Hadoop Streaming or Spark RDD.pipe, so what they
# write must not depend on where the input was cut between games.  For
# every tool and format, one process over a multi-game file (several files
# of testdata concatenated, valid and broken games) writes the same bytes
# as GNU parallel over chunks of it, once numbering is normalised:
#   - with -N 11 and --game-offset '$(( ({#}-1)*11 ))' game numbers agree
#     exactly; only line numbers (relative to a chunk) are normalised;
#   - with --block (chunks of bytes, so no offset can be known) game
#     numbers are normalised too.
# -j 2 writes the same as -j 1, and --sshlogin : (parallel's "this host")
# stands for a cluster.  Under VALGRIND=1 the one-process reference runs
# in memcheck; the chunks run the plain binaries (the point here is the
# output, and ~50 valgrind start-ups per case would take minutes).

bats_require_minimum_version 1.5.0
load common

setup_file() {
	local d=$BATS_TEST_DIRNAME/../testdata
	command -v parallel >/dev/null || return 0
	# Every game here starts with an Event tag, so parallel's records
	# are the reader's games and ({#}-1)*N is a chunk's game offset.
	cat "$d"/pgn/{crazyara-engine_tournament,fatics-zh,pychess-zh,crazyara-zh-50_startpos,scalachess-crazyhouse1,lichess-2018-JannLee-CrazyAra,pychess-variants-grand,scalachess-chessComCrazyhouse}.pgn \
	    "$d"/zhcheck/*.pgn >"$BATS_FILE_TMPDIR/multi.pgn"
}

setup() {
	command -v parallel >/dev/null || skip "GNU parallel not installed"
	IN=$BATS_FILE_TMPDIR/multi.pgn
	T=$BATS_TEST_TMPDIR
}

# Line numbers are the chunk's; game numbers too where 'all' is given.
norm() {
	if [ "${1-}" = all ]; then
		sed -E 's/<stdin>:[0-9]+:/<stdin>:L:/; s/"line":[0-9]+/"line":L/g; s/at line [0-9]+/at line L/g; s/game [0-9]+/game G/g; s/"game":[0-9]+/"game":G/g; s/"index":[0-9]+/"index":I/g'
	else
		sed -E 's/<stdin>:[0-9]+:/<stdin>:L:/; s/"line":[0-9]+/"line":L/g; s/at line [0-9]+/at line L/g'
	fi
}

# same_split TOOL ARGS...: one process and parallel --pipe agree, stdout
# and stderr, and on whether anything was invalid (parallel's status is
# the number of failed chunks).  --all-warnings: each process would show
# the first warnings of a class, not the run.
same_split() {
	local tool=$1 bin=$ZH_TOP/bin/$1 one split what
	shift
	set -- --all-warnings "$@"
	one=0 split=0
	"$tool" -q "$@" <"$IN" >"$T/one.out" 2>"$T/one.err" || one=$?
	[ "$one" -le 1 ] || fail "$tool $*: exit $one: $(head -3 "$T/one.err")"
	[ -s "$T/one.out" ] || [ "$tool" = zhcheck ] || fail "$tool $*: no output"
	# -N 11: 11 games a chunk; --game-offset makes numbering exact
	parallel --pipe --recstart '[Event ' -N 11 -k "$bin" -q "$@" \
	    --game-offset '$(( ({#} - 1) * 11 ))' <"$IN" >"$T/n.out" 2>"$T/n.err" || split=$?
	[ $((one > 0)) -eq $((split > 0)) ] || fail "$tool $*: exit $one, chunks $split"
	for what in out err; do
		diff <(norm <"$T/one.$what") <(norm <"$T/n.$what") >"$T/diff" ||
		    fail "$tool $* -N 11, std$what differs: $(head -c 2000 "$T/diff")"
	done
	# --block 48k: chunks of about 48 KB cut before an Event tag
	parallel --pipe --recstart '[Event ' --block 48k -k "$bin" -q "$@" \
	    <"$IN" >"$T/b.out" 2>"$T/b.err" || true
	for what in out err; do
		diff <(norm all <"$T/one.$what") <(norm all <"$T/b.$what") >"$T/diff" ||
		    fail "$tool $* --block, std$what differs: $(head -c 2000 "$T/diff")"
	done
}

@test "split: zhcheck" { same_split zhcheck; }
@test "split: zhcheck --strict" { same_split zhcheck --strict; }
@test "split: zhcheck --json" { same_split zhcheck --json; }
@test "split: zhpgn" { same_split zhpgn; }
@test "split: zhpgn --to xboard" { same_split zhpgn --to xboard; }
@test "split: zhpgn --json" { same_split zhpgn --json; }
@test "split: zhpgn --json --fens --to fairy" { same_split zhpgn --json --fens --to fairy; }
@test "split: zhreplay (fen)" { same_split zhreplay; }
@test "split: zhreplay -F epd --to chesscom" { same_split zhreplay -F epd --to chesscom; }
@test "split: zhreplay -F uci" { same_split zhreplay -F uci; }
@test "split: zhreplay -F san" { same_split zhreplay -F san; }
@test "split: zhreplay -F jsonl" { same_split zhreplay -F jsonl; }
@test "split: zhreplay -F jsonl --variations" { same_split zhreplay -F jsonl --variations; }
@test "split: zhreplay -F board --variations" { same_split zhreplay -F board --variations --color never; }

@test "split: --game-offset N numbers games from N+1, in stdout and stderr" {
	run -1 --separate-stderr zhcheck --json --game-offset 1000 "$TESTDATA/zhcheck/ambiguous-san.pgn"
	assert_line --index 0 --partial '"game":1001,'
	assert_line --index 1 --partial '"game":1002,'
	[[ ${stderr_lines[0]} == *": error: game 1001"* ]] || fail "$stderr"
	run -0 zhreplay -q -F jsonl --game-offset 41 "$TESTDATA/pgn/scalachess-crazyhouse1.pgn"
	assert_line --index 0 --partial '"game":42,"index":42,'
	run -0 zhreplay -q -F board --color never --start-only --game-offset 41 "$TESTDATA/pgn/scalachess-crazyhouse1.pgn"
	assert_line --index 0 'game 42, ply 0: start'
	run -1 --separate-stderr zhpgn --game-offset 7 "$TESTDATA/zhcheck/drop-not-in-hand.pgn"
	[[ ${stderr_lines[0]} == *": error: game 8, ply "* ]] || fail "$stderr"
	for t in zhcheck zhpgn zhreplay; do
		run -2 "$t" --game-offset -1 /dev/null
		run -2 "$t" --game-offset x /dev/null
	done
}

@test "split: a comment before the tags stays with its game with --regexp --recstart" {
	# "[Event " alone would cut between the comment and the tags it
	# belongs to (see README: At scale); the README's pattern does not.
	{ cat "$TESTDATA/pgn/scalachess-crazyhouse1.pgn"; printf '\n{ about the next game }\n'
	  cat "$TESTDATA/pgn/scalachess-crazyhouse2.pgn"; } >"$T/c.pgn"
	zhpgn -q --json <"$T/c.pgn" >"$T/one.out"
	grep -q 'about the next game' "$T/one.out"
	parallel --pipe --regexp --recstart '(?:\{[^}]*\}\s*)*\[Event ' -N 1 -k \
	    "$ZH_TOP/bin/zhpgn" -q --json <"$T/c.pgn" >"$T/split.out"
	# each piece numbers its games from 1: all but "game" and "index"
	diff <(jq -c 'del(.game, .index)' "$T/one.out") \
	    <(jq -c 'del(.game, .index)' "$T/split.out")
}

@test "split: -j 2 writes the same bytes as -j 1, every tool and format" {
	local args
	while IFS= read -r args; do
		# shellcheck disable=SC2086
		$args -j 1 <"$IN" >"$T/1.out" 2>"$T/1.err" && echo 0 >"$T/1.rc" || echo $? >"$T/1.rc"
		# shellcheck disable=SC2086
		$args -j 2 <"$IN" >"$T/2.out" 2>"$T/2.err" && echo 0 >"$T/2.rc" || echo $? >"$T/2.rc"
		cmp "$T/1.out" "$T/2.out" || fail "$args: stdout differs"
		cmp "$T/1.err" "$T/2.err" || fail "$args: stderr differs"
		cmp "$T/1.rc" "$T/2.rc" || fail "$args: exit status differs"
	done <<-EOF
	zhcheck
	zhcheck --json --strict
	zhpgn
	zhpgn --json --fens
	zhpgn --to chesscom
	zhreplay
	zhreplay -F epd
	zhreplay -F uci
	zhreplay -F san
	zhreplay -F jsonl --variations
	zhreplay -F board --color never
	EOF
}

@test "split: the map step across hosts: parallel --sshlogin : (this host)" {
	# A cluster is --sshlogin host1,host2 (zhkit installed on each);
	# ':' is parallel's name for the local host, so this runs anywhere.
	zhpgn -q --json <"$IN" >"$T/one.out" || true
	parallel --sshlogin : --pipe --recstart '[Event ' -N 25 -k \
	    "$ZH_TOP/bin/zhpgn" -q --json <"$IN" >"$T/cluster.out" || true
	diff <(norm all <"$T/one.out") <(norm all <"$T/cluster.out")
	# the reduce step: count valid and invalid games
	run -0 bash -c "grep -c '\"valid\":true' '$T/cluster.out'"
	[ "$output" -gt 250 ]
}
