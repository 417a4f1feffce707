#!/usr/bin/env bats
# Issue #39 item 1: a standard error that cannot be written ends the run in
# every tool as any write error does, exit 2: a closed pipe, /dev/full or a
# closed descriptor; never a hang with the signals caught and nobody to act
# on them, and no temporary file left beside a named output.  A closed
# standard output still ends the run by SIGPIPE (141), stderr closed or
# not.  On main before the reaper's fix zhreplay -F npy and zhpgn -o hung
# here (the timeout's SIGKILL, 137); before SIGPIPE told stdout from stderr
# (tmpout.c, lost_reader) a closed stderr pipe ended the run by SIGPIPE.
# The closed pipe is a FIFO opened both ways then closed for reading: a
# pipe with no reader from the start, not a race with a reader exiting.
bats_require_minimum_version 1.5.0

setup() {
	load common
	T=$BATS_TEST_TMPDIR
	cd "$T"
	printf '[Event "x"]\n[Variant "crazyhouse"]\n\n1. e4 e5 2. Ke3 *\n\n[Event "y"]\n\n1. e4 *\n' >bad.pgn
	printf 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nnot a fen\n' >f.txt
}

# run_tool HOW TOOL ARGS...: stderr per HOW (pipe, full, closed), stdout
# to /dev/null; $status the tool's.
run_tool() {
	local how=$1
	shift
	case $how in
	pipe)
		status=0
		rm -f p
		mkfifo p
		( exec 3<>p 4>p 3<&-
		  exec timeout -s KILL 120 "$ZH_TOP/bin/$1" "${@:2}" 2>&4 \
		    >/dev/null ) || status=$?
		rm -f p ;;
	outpipe)	# stdout a closed pipe, stderr too when $both
		status=0
		rm -f p
		mkfifo p
		( exec 3<>p 4>p 3<&-
		  if [ -n "${both-}" ]; then exec 2>&4; fi
		  exec timeout -s KILL 120 "$ZH_TOP/bin/$1" "${@:2}" >&4 \
		    2>/dev/null ) || status=$?
		rm -f p ;;
	full)
		status=0
		timeout -s KILL 120 "$ZH_TOP/bin/$1" "${@:2}" 2>/dev/full \
		    >/dev/null || status=$? ;;
	closed)
		status=0
		timeout -s KILL 120 "$ZH_TOP/bin/$1" "${@:2}" 2>&- \
		    >/dev/null || status=$? ;;
	esac
}

# No temporary ".NAME.XXXXXX" left in . or D (D's tables are a set:
# its link .zhkit-npy and the directory it names stay, tableset.h).
no_temporaries() {
	run find . -name '.*' ! -name . ! -name .zhkit-npy \
	    ! -name "$(readlink D/.zhkit-npy 2>/dev/null || echo .zhkit-npy)"
	assert_output ""
}

check_all() {
	local how=$1 want=$2
	run_tool "$how" zhreplay -F npy -o D bad.pgn
	[ "$status" -eq "$want" ] || fail "$how: $status"
	run_tool "$how" zhreplay -F uci -o u.txt bad.pgn
	[ "$status" -eq "$want" ] || fail "$how: $status"
	run_tool "$how" zhreplay -F gif -o 'g-%d.gif' bad.pgn
	[ "$status" -eq "$want" ] || fail "$how: $status"
	run_tool "$how" zhpgn -o o.pgn.zst bad.pgn
	[ "$status" -eq "$want" ] || fail "$how: $status"
	run_tool "$how" zhcheck bad.pgn
	[ "$status" -eq "$want" ] || fail "$how: $status"
	run_tool "$how" zhfen -o o.txt f.txt
	[ "$status" -eq "$want" ] || fail "$how: $status"
	run_tool "$how" zhfen -F svg -o p.svg 'not a fen'
	[ "$status" -eq "$want" ] || fail "$how: $status"
	no_temporaries
}

@test "stderr a closed pipe: every tool exits 2, temporaries removed" {
	check_all pipe 2
}

@test "stdout a closed pipe (stderr too, or not): the run ends by SIGPIPE" {
	run_tool outpipe zhpgn bad.pgn
	[ "$status" -eq 141 ] || fail "stdout: $status"
	run_tool outpipe zhreplay -F uci bad.pgn
	[ "$status" -eq 141 ] || fail "stdout: $status"
	both=1 run_tool outpipe zhpgn bad.pgn
	[ "$status" -eq 141 ] || fail "both: $status"
	both=1 run_tool outpipe zhfen f.txt
	[ "$status" -eq 141 ] || fail "both: $status"
	# a named output beside a closed stdout: removed, ended by SIGPIPE
	both=1 run_tool outpipe zhpgn --rejects r.pgn bad.pgn
	[ "$status" -eq 141 ] || fail "both, -o: $status"
	[ ! -e r.pgn ]
	no_temporaries
}

@test "stderr /dev/full: every tool exits 2, temporaries removed" {
	check_all full 2
}

@test "stderr a closed descriptor: every tool exits 2, temporaries removed" {
	check_all closed 2
}
