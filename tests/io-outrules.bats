#!/usr/bin/env bats
# Issue #39 item 12: pictures follow zhkit(7)'s rules for a named output
# (tmpout.h): a device or a FIFO is written in place (/dev/null,
# /dev/stdout on a pipe, a FIFO whose reader gets the picture), a
# symbolic link stays and the file it names is replaced (one not made
# yet too); on main each was refused with "File exists" and a reader on
# the FIFO waited for ever.  Tables need a directory: /dev/null, a FIFO
# or a file as -o DIR is refused, saying so; a link to a directory is
# followed.  Every case per picture kind (zhfen svg/png, zhreplay
# png/gif) and per table kind (npy, parquet).

bats_require_minimum_version 1.5.0
load common

FEN='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'

setup() {
	T=$BATS_TEST_TMPDIR
	cd "$T"
	printf '[Event "x"]\n\n1. e4 *\n' >g.pgn
}

# pic KIND OUT: one picture of KIND to OUT (zhfen for svg, zhreplay's
# final position for png and gif)
pic() {
	case $1 in
	svg) zhfen -F svg -o "$2" "$FEN" ;;
	png) zhreplay -q -F png --final-only -o "$2" g.pgn ;;
	gif) zhreplay -q -F gif -o "$2" g.pgn ;;
	esac
}

# magic KIND FILE: FILE starts as a picture of KIND does
magic() {
	case $1 in
	svg) head -c 5 "$2" | grep -q '<svg\|<?xml' ;;
	png) [ "$(head -c 4 "$2" | od -An -c | tr -d ' ')" = '211PNG' ] ;;
	gif) [ "$(head -c 3 "$2")" = GIF ] ;;
	esac
}

@test "io-outrules: a picture to /dev/null, /dev/stdout (a pipe), a FIFO: written in place" {
	local k
	for k in svg png gif; do
		run --separate-stderr pic $k /dev/null
		assert_equal "$status" 0
		[[ $stderr != *"File exists"* ]] || fail "$k: $stderr"
		pic $k /dev/stdout | cat >out.$k
		magic $k out.$k || fail "$k: /dev/stdout: $(head -c 20 out.$k | od -c | head -2)"
		rm -f ff && mkfifo ff
		timeout -s KILL 120 cat ff >fifo.$k &
		run --separate-stderr timeout -s KILL 120 bash -c "$(declare -f pic); FEN='$FEN'; pic $k ff"
		wait $!
		assert_equal "$status" 0
		magic $k fifo.$k || fail "$k: the FIFO's reader got: $(od -c fifo.$k | head -2)"
		[ -p ff ]
	done
	[ -z "$(find . -name '.*' ! -name .)" ]
}

@test "io-outrules: a picture to a symbolic link: the link stays, the file it names is replaced (or made)" {
	local k
	for k in svg png gif; do
		echo old >t.$k
		ln -sf t.$k l.$k
		run --separate-stderr pic $k l.$k
		assert_equal "$status" 0
		[ -L l.$k ] && [ "$(readlink l.$k)" = t.$k ]
		magic $k t.$k || fail "$k: $(head -c 20 t.$k)"
		ln -sf new.$k d.$k
		run --separate-stderr pic $k d.$k
		assert_equal "$status" 0
		[ -L d.$k ] && magic $k new.$k
	done
	[ -z "$(find . -name '.*' ! -name .)" ]
}

@test "io-outrules: tables to /dev/null, /dev/stdout, a FIFO or a file: refused, said; a link to a directory followed" {
	local f
	mkfifo ff
	: >plain
	for f in npy parquet; do
		for o in /dev/null /dev/stdout ff plain; do
			run --separate-stderr timeout -s KILL 120 zhreplay -q -F $f -o $o g.pgn
			assert_equal "$status" 2
			[[ $stderr == *"$o: cannot write: not a directory (-F $f writes its four tables in a directory)"* ]] ||
			    fail "$f $o: $stderr"
		done
		mkdir real.$f
		ln -s real.$f link.$f
		run zhreplay -q -F $f -o link.$f g.pgn
		assert_success
		[ -L link.$f ] && [ -e real.$f/games.$f ]
	done
	[ -p ff ] && [ ! -s plain ]
}
