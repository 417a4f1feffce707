#!/usr/bin/env bats
# The fuzzers' regression corpus (tests/fuzz/corpus, checked in after
# `make fuzz` runs) replayed through each target built as a plain program:
# no input may crash, trip an assertion (abort) or, under make asan, a
# sanitizer.

load common

corpus() {
	local t=$1
	[ -x "$ZH_TOP/build/fuzzrun/$t" ] || skip "build/fuzzrun/$t not built (make units)"
	run bash -c "find '$ZH_TOP/tests/fuzz/corpus/$t' -type f -print0 | xargs -0 -n 500 '$ZH_TOP/build/fuzzrun/$t'"
	assert_success
	assert_output --regexp '[0-9]+ inputs'
}

@test "fuzz corpus: FEN reader and writers" { corpus fuzz_fen; }
@test "fuzz corpus: two-board FEN reader and writers (bughouse)" { corpus fuzz_bfen; }
@test "fuzz corpus: SAN and UCI readers" { corpus fuzz_san; }
@test "fuzz corpus: PGN reader" { corpus fuzz_pgn; }
@test "fuzz corpus: replay, check and every writer" { corpus fuzz_game; }
@test "fuzz corpus: a stream read in pieces, as -j reads it" { corpus fuzz_chunks; }
@test "fuzz corpus: JSON Lines read back as games" { corpus fuzz_jsonin; }
@test "fuzz corpus: cleaning on write (strip lists, every strip set)" { corpus fuzz_clean; }
@test "fuzz corpus: selection tests, and the reader's filter" { corpus fuzz_select; }
@test "fuzz corpus: bughouse games replayed and written three ways" { corpus fuzz_bughouse; }
@test "fuzz corpus: a decompressing read (zstd, gzip, bzip2, xz)" { corpus fuzz_codec; }
@test "fuzz corpus: two board files merged into one bughouse game" { corpus fuzz_merge; }
@test "fuzz corpus: Parquet metadata and page headers (Thrift compact protocol)" { corpus fuzz_thrift; }
@test "fuzz corpus: a Parquet file of games read as PGN text" { corpus fuzz_parquet; }
@test "fuzz corpus: dataset rows as JSON Lines read as PGN text, a game a row" { corpus fuzz_rows; }
@test "fuzz corpus: an index's blobs (zhindex)" { corpus fuzz_zhiblob; }
@test "fuzz corpus: the callback reader fed in random pieces, and read errors" { corpus fuzz_reader; }
@test "fuzz corpus: pictures of hostile positions and games (SVG, PNG, GIF)" { corpus fuzz_draw; }
@test "fuzz corpus: zhcheck's reports with hostile names, files and messages" { corpus fuzz_report; }
