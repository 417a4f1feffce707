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
