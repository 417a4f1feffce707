#!/usr/bin/env bats
# An interrupted --split (issue 39 item 5): the shards that were complete
# stay under their names (renamed when they closed), only the open one is
# removed, and the message says which were kept.  The input is a FIFO fed
# in steps: the signal goes when the second shard is on disk, not after a
# time.
bats_require_minimum_version 1.5.0
load common

setup() {
	T=$BATS_TEST_TMPDIR
	cd "$T"
	# games of 100 KB (a long comment): the reader's 128 KB reads then
	# hand each game on before the FIFO's end
	pad=$(head -c 100000 /dev/zero | tr '\0' x)
	for i in 1 2 3 4 5 6 7; do
		printf '[Event "g%d"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "?"]\n[Black "?"]\n[Result "*"]\n[Variant "Crazyhouse"]\n\n1. e4 {%s} e5 *\n\n' "$i" "$pad"
	done >seven.pgn
	head -c "$(grep -b '^\[Event "g5"\]' seven.pgn | cut -d: -f1)" seven.pgn >four.pgn
}

# split_interrupt SIG TOOL ARGS...: TOOL ARGS FIFO in the background (job
# control: SIGINT not ignored), fed seven.pgn with the FIFO held open;
# once part-002 exists and part-003's temporary file does, SIG is sent.
# Sets status, and stderr from err.
split_interrupt() {
	local sig=$1
	shift
	rm -f fifo && mkfifo fifo
	run bash -c '
		set -m
		sig=$1
		shift
		"$@" fifo 2>err &
		pid=$!
		exec 3>fifo
		cat seven.pgn >&3
		for i in $(seq 2400); do
			[ -e part-002.out ] && [ -n "$(find . -maxdepth 1 -name ".part-003.out.*")" ] && break
			sleep 0.05
		done
		[ -e part-002.out ] || echo "part-002.out never came (2 minutes)"
		kill "-$sig" "$pid"
		wait "$pid"
		rc=$?
		exec 3>&-
		exit $rc' _ "$sig" "$@"
	stderr=$(cat err)
}

@test "split-kept: an interrupted zhpgn --split keeps the complete shards, removes the open one, says which" {
	local sig j
	mkdir want && (cd want && zhpgn -q --split 2 -o 'part-%03d.out' ../four.pgn)
	for sig in INT TERM HUP; do
		# (-j 2 reads its pieces ahead: whether the second shard is
		# on disk before the FIFO ends depends on the load; ZH_SLOW)
		for j in 1 ${ZH_SLOW:+2}; do
			rm -f part-*
			split_interrupt "$sig" zhpgn -q -j "$j" --split 2 -o 'part-%03d.out'
			assert_equal "$status" $((128 + $(kill -l "$sig")))
			[ -e part-001.out ] || fail "SIG$sig -j $j: $output; $stderr; $(ls -a)"
			cmp part-001.out want/part-001.out
			cmp part-002.out want/part-002.out
			[ ! -e part-003.out ]
			[ -z "$(find . -maxdepth 1 -name '.part-*')" ] || fail "a temporary file was left: $(ls -a)"
			[[ $stderr == *"zhpgn: part-003.out: not written (interrupted by SIG$sig)"* ]] || fail "$stderr"
			[[ $stderr == *"zhpgn: part-001.out to part-002.out: kept (2 complete files)"* ]] || fail "$stderr"
		done
	done
}

@test "split-kept: zhreplay --split too; a finished run as before" {
	split_interrupt TERM zhreplay -F fen --split 2 -o 'part-%03d.out'
	assert_equal "$status" 143
	mkdir want && (cd want && zhreplay -q -F fen --split 2 -o 'part-%03d.out' ../four.pgn)
	cmp part-001.out want/part-001.out
	cmp part-002.out want/part-002.out
	[ ! -e part-003.out ]
	[[ $stderr == *"zhreplay: part-001.out to part-002.out: kept (2 complete files)"* ]] || fail "$stderr"
	rm part-*
	run -0 --separate-stderr zhpgn --split 2 -o 'part-%03d.out' seven.pgn
	[ "$(ls part-*.out | wc -l)" -eq 4 ]
	[[ $stderr != *kept* ]]
}
