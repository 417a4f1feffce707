#!/usr/bin/env bats
# Compressed inputs and outputs (issue 24): zstd, gzip, bzip2 and xz read
# directly, known by their magic numbers; every frame, member and stream;
# a cut or damaged stream said by its codec with the offset, after the
# games before it; outputs named .zst, .gz, .bz2, .xz compressed.  The
# answers come from the plain files and the codecs' own tools (zstd,
# pzstd, gzip, bzip2, xz), never from zhkit's own earlier output.

bats_require_minimum_version 1.5.0
load common

setup() {
	T=$BATS_TEST_TMPDIR
	BENCH=$ZH_TOP/../shared/bench
	PIECE=$TESTDATA/pgn/crazyara-1k_cz_lichess_startpos.pgn
	# the runs compared: fewer in memcheck, which is slow, on 30 games
	PGNTOOLS=("zhcheck" "zhcheck --json" "zhpgn" "zhpgn -J -F" "zhpgn -t xboard"
	    "zhreplay" "zhreplay -f san")
	ALLTOOLS=(zhcheck zhpgn zhreplay zhfen "zhcheck --fen")
	FENTOOLS=("zhfen" "zhfen -J" "zhfen -t xboard" "zhcheck --fen")
	if [ -n "${VALGRIND-}" ]; then
		awk '/^\[Event /{n++} n <= 30' "$PIECE" >"$T/piece.pgn"
		PIECE=$T/piece.pgn
		PGNTOOLS=("zhcheck --json" "zhpgn -J -F" "zhreplay -f san")
		ALLTOOLS=(zhcheck zhfen)
		FENTOOLS=("zhfen -J" "zhcheck --fen")
	fi
	NGAMES=$(grep -c '^\[Event ' "$PIECE")
	for c in zstd pzstd gzip bzip2 xz; do
		command -v "$c" >/dev/null || skip "$c not installed"
	done
}

# The compressor of each format, writing stdout.
squeeze() {
	case $1 in
	zst) zstd -q -c ;;
	gz) gzip -c ;;
	bz2) bzip2 -c ;;
	xz) xz -c ;;
	esac
}

# The codec's own tool, decompressing FILE to stdout.
unsqueeze() {
	case $1 in
	zst) zstd -dcq "$2" ;;
	gz) gzip -dc "$2" ;;
	bz2) bzip2 -dcq "$2" ;;
	xz) xz -dcq "$2" ;;
	esac
}

# The codec's name in messages.
kind() {
	case $1 in zst) echo zstd ;; gz) echo gzip ;; bz2) echo bzip2 ;; xz) echo xz ;; esac
}

# FILE cut in three at game boundaries, each part compressed on its own
# and the three put one after another (pzstd for zstd: a skippable frame
# before each frame, as the Lichess files have): OUT.
three() {
	local f=$1 ext=$2 out=$3 k
	awk -v T="$T" -v N="$(grep -c '^\[Event ' "$f")" \
	    '/^\[Event /{n++} { print > (T "/part" int((n - 1) * 3 / N)) }' "$f"
	: >"$out"
	for k in 0 1 2; do
		if [ "$ext" = zst ]; then pzstd -q -p 2 -c <"$T/part$k" >>"$out"
		else squeeze "$ext" <"$T/part$k" >>"$out"; fi
	done
}

# What a run shows: stdout, stderr with the input's name as FILE, and
# the status.  outcome NAME TOOL ARGS... (NAME in the messages)
outcome() {
	local name=$1
	shift
	"$@" >"$T/o.out" 2>"$T/o.err"
	echo "status $?" >>"$T/o.err"
	cat "$T/o.out" "$T/o.err" | sed "s|$name|FILE|g"
}

@test "compress: the Lichess-shaped zh-tags.pgn.zst (4 frames, 4 skippable) checks as the plain file, -j 1, -j 2 and stdin" {
	[ -f "$BENCH/zh-tags.pgn.zst" ] || skip "no $BENCH/zh-tags.pgn.zst"
	run zstd -lv "$BENCH/zh-tags.pgn.zst"
	assert_line '# Zstandard Frames: 4'
	assert_line '# Skippable Frames: 4'
	for j in 1 2; do
		want=$(outcome "$BENCH/zh-tags.pgn" zhcheck -j $j "$BENCH/zh-tags.pgn")
		got=$(outcome "$BENCH/zh-tags.pgn.zst" zhcheck -j $j "$BENCH/zh-tags.pgn.zst")
		assert_equal "$got" "$want"
		[[ $got == *"checked 10000 games"* ]] || fail "$got"
		got=$(zhcheck -j $j <"$BENCH/zh-tags.pgn.zst" 2>&1)
		assert_equal "$got" "$(zhcheck -j $j <"$BENCH/zh-tags.pgn" 2>&1)"
		got=$(cat "$BENCH/zh-tags.pgn.zst" | zhcheck -j $j 2>&1)
		assert_equal "$got" "$(zhcheck -j $j <"$BENCH/zh-tags.pgn" 2>&1)"
	done
}

@test "compress: zh-tags.pgn.bz2 checks and converts as the plain file" {
	[ -f "$BENCH/zh-tags.pgn.bz2" ] || skip "no $BENCH/zh-tags.pgn.bz2"
	for j in 1 2; do
		want=$(outcome "$BENCH/zh-tags.pgn" zhcheck -j $j "$BENCH/zh-tags.pgn")
		got=$(outcome "$BENCH/zh-tags.pgn.bz2" zhcheck -j $j "$BENCH/zh-tags.pgn.bz2")
		assert_equal "$got" "$want"
	done
	zhpgn -q -o "$T/a.pgn" "$BENCH/zh-tags.pgn"
	zhpgn -q -j 2 -o "$T/b.pgn" "$BENCH/zh-tags.pgn.bz2"
	cmp "$T/a.pgn" "$T/b.pgn"
}

@test "compress: every PGN tool's output on multi-frame/member/stream files equals that on the plain file, -j 1 and -j 2" {
	local ext j t
	for ext in zst gz bz2 xz; do
		three "$PIECE" "$ext" "$T/p.pgn.$ext"
		# the codec's own tool gives the plain text back: the file is whole
		unsqueeze "$ext" "$T/p.pgn.$ext" | cmp - "$PIECE"
		for j in 1 2; do
			for t in "${PGNTOOLS[@]}"; do
				want=$(outcome "$PIECE" $t -j $j "$PIECE")
				got=$(outcome "$T/p.pgn.$ext" $t -j $j "$T/p.pgn.$ext")
				assert_equal "$got" "$want"
			done
		done
		# stdin, through a pipe: the magic peeked, nothing lost
		assert_equal "$(cat "$T/p.pgn.$ext" | zhpgn -J 2>&1)" "$(zhpgn -J <"$PIECE" 2>&1)"
	done
}

@test "compress: a game's diagnostics name the file, at the line and column of the decompressed text" {
	printf '[Event "a"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n[Event "b"]\n\n1. e4 e5 2. Ke3 Nc6 *\n' >"$T/d.pgn"
	xz -c "$T/d.pgn" >"$T/d.pgn.xz"
	run --separate-stderr zhcheck "$T/d.pgn.xz"
	assert_equal "$status" 1
	# the bad move's place counted by awk over the plain text
	want=$(awk '/Ke3/ { print NR ":" index($0, "Ke3") }' "$T/d.pgn")
	grep -qF -- "zhcheck: $T/d.pgn.xz:$want: error: game 2, ply 3: illegal move 'Ke3'" <<<"$stderr" || fail "$stderr"
}

@test "compress: a cut stream is the codec's error at the cut, exit 2, after the games before it; -j 2 the same" {
	local ext n size
	zhpgn -q -o "$T/all.pgn" "$PIECE"
	for ext in zst gz bz2 xz; do
		three "$PIECE" "$ext" "$T/p.$ext"
		size=$(( $(wc -c <"$T/p.$ext") / 2 ))
		head -c "$size" "$T/p.$ext" >"$T/cut.$ext"
		for j in 1 2; do
			run --separate-stderr zhpgn -j $j -o "$T/got$j.pgn" "$T/cut.$ext"
			assert_equal "$status" 2
			grep -qF -- "zhpgn: $T/cut.$ext: error: $(kind $ext): " <<<"$stderr" || fail "$stderr"
			[[ $stderr == *"(at byte $size of the compressed input)"* ]] || fail "$stderr"
			# no game cut by the failure reported as a truncated game
			! grep -qF -- "unterminated" <<<"$stderr" || fail "$stderr"
			! grep -qF -- "truncated" <<<"$stderr" || fail "$stderr"
			# what was written: the first games of the whole, whole
			n=$(grep -c '^\[Event ' "$T/got$j.pgn")
			[ "$n" -gt 0 ] && [ "$n" -lt "$NGAMES" ] || fail "$n games of $NGAMES"
			cmp -n "$(wc -c <"$T/got$j.pgn")" "$T/got$j.pgn" "$T/all.pgn"
			assert_equal "${stderr_lines[-1]}" "zhpgn: $n games: $n written, 0 rejected"
		done
		cmp "$T/got1.pgn" "$T/got2.pgn"
		# the codec's tool gives at least as many whole games, at most
		# the one we cut more
		unsqueeze "$ext" "$T/cut.$ext" >"$T/tool.pgn" 2>/dev/null || true
		m=$(grep -c '^\[Event ' "$T/tool.pgn")
		[ "$n" -ge $((m - 2)) ] && [ "$n" -le "$m" ] || fail "$ext: $n games, $m by the codec's tool"
	done
}

@test "compress: a flipped byte in the middle is the codec's error, exit 2, the same with -j 1 and -j 2" {
	local ext
	for ext in zst gz bz2 xz; do
		three "$PIECE" "$ext" "$T/p.$ext"
		python3 -c 'import sys
d = bytearray(open(sys.argv[1], "rb").read()); d[len(d) // 2] ^= 0x55
open(sys.argv[2], "wb").write(d)' "$T/p.$ext" "$T/bad.$ext"
		# the codec's own tool finds it bad too
		! unsqueeze "$ext" "$T/bad.$ext" >/dev/null 2>&1
		run --separate-stderr zhcheck -j 1 "$T/bad.$ext"
		assert_equal "$status" 2
		[[ $stderr == *"zhcheck: $T/bad.$ext: error: $(kind $ext): "*" (at byte "*" of the compressed input)"* ]] ||
		    fail "$stderr"
		one=$stderr
		run --separate-stderr zhcheck -j 2 "$T/bad.$ext"
		assert_equal "$status" 2
		assert_equal "$stderr" "$one"
	done
}

@test "compress: an empty compressed file and compressed non-PGN text read as their plain text" {
	local ext
	: >"$T/empty"
	printf 'Hello, this is no PGN.\nJust two lines of text.\n' >"$T/text"
	for ext in zst gz bz2 xz; do
		for f in empty text; do
			squeeze "$ext" <"$T/$f" >"$T/$f.$ext"
			for t in "${ALLTOOLS[@]}"; do
				want=$(outcome "$T/$f" $t "$T/$f")
				got=$(outcome "$T/$f.$ext" $t "$T/$f.$ext")
				assert_equal "$got" "$want"
			done
		done
	done
}

@test "compress: zhfen, zhcheck --fen and zhperft read a compressed FEN list as the plain one" {
	local ext
	zhreplay -e 7 "$TESTDATA/pgn/pychess-zh.pgn" >"$T/f.fen"
	[ "$(wc -l <"$T/f.fen")" -gt 100 ]
	for ext in zst gz bz2 xz; do
		squeeze "$ext" <"$T/f.fen" >"$T/f.fen.$ext"
		for t in "${FENTOOLS[@]}"; do
			assert_equal "$(outcome "$T/f.fen.$ext" $t "$T/f.fen.$ext")" \
			    "$(outcome "$T/f.fen" $t "$T/f.fen")"
		done
		assert_equal "$(cat "$T/f.fen.$ext" | zhfen 2>&1)" "$(zhfen <"$T/f.fen" 2>&1)"
	done
	printf 'start/crazyhouse/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1/perft 2 400\n' >"$T/s.txt"
	gzip -c "$T/s.txt" >"$T/s.txt.gz"
	assert_equal "$(outcome "$T/s.txt.gz" zhperft -s "$T/s.txt.gz")" \
	    "$(outcome "$T/s.txt" zhperft -s "$T/s.txt")"
}

@test "compress: outputs named .zst, .gz, .bz2, .xz are compressed; the codec's tool reads back the plain output" {
	local ext
	zhpgn -q -t xboard -o "$T/plain.pgn" "$PIECE"
	for ext in zst gz bz2 xz; do
		for j in 1 2; do
			rm -f "$T/out.pgn.$ext"
			zhpgn -q -j $j -t xboard -o "$T/out.pgn.$ext" "$PIECE"
			unsqueeze "$ext" "$T/out.pgn.$ext" | cmp - "$T/plain.pgn"
		done
	done
	# the rejects too, and zhreplay's and zhcheck's outputs
	printf '[Event "x"]\n\n1. e4 Ke7 2. Kq1 *\n' >"$T/bad.pgn"
	run zhpgn -q -r "$T/rej.pgn.gz" -o "$T/ok.pgn.zst" "$PIECE" "$T/bad.pgn"
	assert_equal "$status" 1
	zhpgn -q -r "$T/rej.pgn" "$PIECE" "$T/bad.pgn" >/dev/null 2>&1 || true
	grep -q 'Kq1' "$T/rej.pgn"
	gzip -dc "$T/rej.pgn.gz" | cmp - "$T/rej.pgn"
	zhreplay -o "$T/r.fen.bz2" "$PIECE"
	bzip2 -dc "$T/r.fen.bz2" | cmp - <(zhreplay "$PIECE")
	zhcheck -q --json -o "$T/c.jsonl.xz" "$PIECE"
	xz -dc "$T/c.jsonl.xz" | cmp - <(zhcheck -q --json "$PIECE")
}

@test "compress: ZHKIT_COMPRESS_LEVEL sets the level (zstd's own tool writes the same bytes); a bad one is exit 2 before anything is written" {
	zhpgn -q -o "$T/plain.pgn" "$PIECE"
	for l in 1 19; do
		ZHKIT_COMPRESS_LEVEL=$l zhpgn -q -o "$T/l$l.zst" "$PIECE"
		zstd -q -c -$l <"$T/plain.pgn" | cmp - "$T/l$l.zst"
	done
	[ "$(wc -c <"$T/l19.zst")" -lt "$(wc -c <"$T/l1.zst")" ]
	# the default, 3, as zstd's own
	zhpgn -q -o "$T/d.zst" "$PIECE"
	zstd -q -c <"$T/plain.pgn" | cmp - "$T/d.zst"
	ZHKIT_COMPRESS_LEVEL=9 zhpgn -q -o "$T/g9.gz" "$PIECE"
	gzip -dc "$T/g9.gz" | cmp - "$T/plain.pgn"
	echo keep >"$T/keep.pgn"
	echo keep >"$T/keep.gz"
	ZHKIT_COMPRESS_LEVEL=10 run --separate-stderr zhpgn -q -o "$T/keep.pgn" -r "$T/keep.gz" "$PIECE"
	assert_equal "$status" 2
	assert_equal "$stderr" "zhpgn: ZHKIT_COMPRESS_LEVEL: '10' is not a gzip level from 1 to 9"
	assert_equal "$(cat "$T/keep.pgn")" keep
	assert_equal "$(cat "$T/keep.gz")" keep
	[ ! -e "$T/new.xz" ]
	ZHKIT_COMPRESS_LEVEL=-1 run zhcheck -q -o "$T/new.xz" "$PIECE"
	assert_equal "$status" 2
	[ ! -e "$T/new.xz" ]
	# the level is not asked of plain outputs
	ZHKIT_COMPRESS_LEVEL=x zhpgn -q -o "$T/x.pgn" "$PIECE"
	cmp "$T/x.pgn" "$T/plain.pgn"
}

@test "compress: a compressed output that cannot be written is exit 2 with its name" {
	[ -w /dev/full ] || skip "no /dev/full"
	ln -s /dev/full "$T/full.pgn.zst"
	run --separate-stderr zhpgn -q -o "$T/full.pgn.zst" "$PIECE"
	assert_equal "$status" 2
	assert_equal "$stderr" "zhpgn: $T/full.pgn.zst: write error: No space left on device"
}
