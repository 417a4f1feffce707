#!/usr/bin/env bats
# Issue #39 item 14, the smaller points: a compressed input cut inside its
# magic number is a cut compressed input (exit 2, said by its decoder),
# not text with no game (zhpgn exited 0 on an .xz cut to 5 bytes).

bats_require_minimum_version 1.5.0
load common

setup() {
	T=$BATS_TEST_TMPDIR
	cd "$T"
	printf '[Event "x"]\n\n1. e4 e5 *\n' >g.pgn
}

@test "io-edges: an input that ends inside a magic number is a cut compressed input (file and pipe)" {
	local k
	xz -k g.pgn
	zstd -q g.pgn -o g.pgn.zst
	for k in 2 3 4 5; do
		head -c $k g.pgn.xz >c.xz
		run --separate-stderr zhpgn c.xz
		assert_equal "$status" 2
		[[ $stderr == *"c.xz: error: xz: unexpected end of input"* ]] || fail "$k: $stderr"
		run --separate-stderr bash -c 'head -c '$k' g.pgn.xz | zhcheck'
		assert_equal "$status" 2
		[[ $stderr == *"<stdin>: error: xz: unexpected end of input"* ]] || fail "$k: $stderr"
	done
	for k in 2 3; do
		head -c $k g.pgn.zst >c.zst
		run --separate-stderr zhreplay -F uci c.zst
		assert_equal "$status" 2
		[[ $stderr == *"zstd: unexpected end of input"* ]] || fail "$k: $stderr"
	done
	printf 'BZh' >c.bz2
	run --separate-stderr zhcheck c.bz2
	assert_equal "$status" 2
	[[ $stderr == *"bzip2: unexpected end of input"* ]] || fail "$stderr"
	# short text that begins like a magic number is text: no game (1)
	for k in BZ '(' 'P*M'; do
		printf '%s' "$k" >t.pgn
		run --separate-stderr zhcheck t.pgn
		assert_equal "$status" 1
		[[ $stderr == *"no game in it"* ]] || fail "$k: $stderr"
	done
}

# zhcheck -o c.txt with a misspelt input left an empty c.txt (exit 2).
@test "io-edges: no input could be opened: a named output is not made empty, an old one stays" {
	run --separate-stderr zhcheck -o c.txt missing.pgn
	assert_equal "$status" 2
	[ ! -e c.txt ] || fail "c.txt made: $(ls -la c.txt)"
	[[ $stderr == *"c.txt: not written (no input could be read)"* ]] || fail "$stderr"
	echo old >p.pgn
	run --separate-stderr zhpgn -o p.pgn missing.pgn
	assert_equal "$status" 2
	assert_equal "$(cat p.pgn)" old
	# one input read: what it gave is written, as before
	run --separate-stderr zhpgn -o p.pgn missing.pgn g.pgn
	assert_equal "$status" 2
	grep -q '^\[Event "x"\]' p.pgn
	# a FEN operand is an input read
	run --separate-stderr zhfen -o f.txt 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' missing.txt
	assert_equal "$status" 2
	[ -s f.txt ]
	[ -z "$(find . -name '.*' ! -name .)" ]
}

# A GIF that could not be written counted its game as one "with errors".
@test "io-edges: a picture that cannot be written is an I/O error (exit 2), not a game with errors" {
	local f
	for f in gif png; do
		run --separate-stderr zhreplay -F $f -o "nodir/p%d-%d.$f" g.pgn
		assert_equal "$status" 2
		[[ $stderr == *"nodir/p1-"*".$f: write error: No such file or directory"* ]] || fail "$f: $stderr"
		[[ $stderr != *"with errors"* ]] || fail "$f: $stderr"
	done
	# the game's own error is still one
	printf '[Event "y"]\n\n1. e4 Ke7 *\n' >bad.pgn
	run --separate-stderr zhreplay -F gif -o "p%d.gif" bad.pgn
	assert_equal "$status" 1
	[[ $stderr == *"1 with errors"* ]] || fail "$stderr"
}

# zhfen -F svg to a full standard output said its write error twice.
@test "io-edges: zhfen -F svg to a full stdout: one error line, exit 2" {
	[ -e /dev/full ] || skip "no /dev/full"
	run --separate-stderr zhfen -F svg 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' '8/8/8/8/8/8/8/K6k w - - 0 1'
	assert_equal "$status" 0
	local want=$output
	run --separate-stderr bash -c "zhfen -F svg 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' '8/8/8/8/8/8/8/K6k w - - 0 1' >/dev/full"
	assert_equal "$status" 2
	assert_equal "$stderr" "zhfen: <stdout>: write error: No space left on device"
	[ "$(printf '%s\n' "$want" | wc -l)" -eq 2 ]
}
