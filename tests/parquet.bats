#!/usr/bin/env bats
# zhreplay -F parquet (issue 43): npy's tables as Parquet files
# (zhkit-arrays(5)).  Each table is read by two independent readers,
# DuckDB (@duckdb/node-api) and hyparquet (npm), and its row count and a
# checksum of every column must equal the -F npy table's, computed with
# numpy from the NumPy layout alone (tests/helpers/npy-sums.py,
# tests/interop/parquet_sums.mjs).  The npm peers live in $PEERS_DIR
# (~/.cache/zhkit-peers; .ci/run installs them); a test skips, saying
# why, when one is missing.

bats_require_minimum_version 1.5.0
load common

PY=/usr/bin/python3
SUMS="$BATS_TEST_DIRNAME/interop/parquet_sums.mjs"

setup() {
	T=$BATS_TEST_TMPDIR
	PEERS="${PEERS_DIR:-$HOME/.cache/zhkit-peers}/node_modules"
}

need_peers() {
	"$PY" -c 'import numpy' 2>/dev/null || skip "python3-numpy not installed"
	command -v node >/dev/null || skip "node missing (apt-get install nodejs npm)"
	for p in "$@"; do
		[ -f "$PEERS/$p/package.json" ] ||
		    skip "$p missing from $PEERS (npm install --prefix \"\$PEERS_DIR\" $p)"
	done
}

# The sample: testdata's PGN (crazyhouse, chess, grand, grandhouse,
# chessgi) and bughouse (the real games, the first 30 of each generated
# file).
sample() {
	local f
	for f in "$TESTDATA"/bughouse/gen/*.bpgn; do
		awk '/^\[Event /{n++} n <= 30' "$f" >"$T/bug-$(basename "$f")"
	done
	# text fields not ASCII, one of 3000 bytes
	printf '[White "Jürgen_Müller-Lüdenscheidt"]\n[Black "Алексей 李小龍"]\n[Termination "%s"]\n[Variant "Crazyhouse"]\n\n1. e4 e5 *\n\n' \
	    "$(printf 'é%.0s' $(seq 1500))" >"$T/texts.pgn"
	SAMPLE=("$TESTDATA"/pgn/*.pgn "$TESTDATA"/bughouse/real/*.bpgn "$T"/bug-*.bpgn "$T/texts.pgn")
}

@test "parquet: every table, read by DuckDB and by hyparquet, has the -F npy table's rows and column sums (several row groups and pages)" {
	need_peers @duckdb/node-api hyparquet hyparquet-compressors
	sample
	zhreplay -q -F npy -o "$T/n" "${SAMPLE[@]}" 2>/dev/null || [ $? -eq 1 ]
	ZHKIT_PARQUET_ROW_GROUP=700 zhreplay -q -F parquet -o "$T/p" "${SAMPLE[@]}" 2>/dev/null || [ $? -eq 1 ]
	for t in positions bughouse games; do
		"$PY" "$ZH_TOP/tests/helpers/npy-sums.py" "$T/n/$t.npy" >"$T/$t.npy.sums"
		grep -q '"rows":[1-9]' "$T/$t.npy.sums"
		for r in duckdb hyparquet; do
			node "$SUMS" "$r" "$T/p/$t.parquet" >"$T/$t.$r.sums"
			run diff "$T/$t.npy.sums" "$T/$t.$r.sums"
			assert_success
		done
	done
	# several row groups were written
	run node "$BATS_TEST_DIRNAME/interop/parquet_sql.mjs" \
	    "SELECT count(DISTINCT row_group_id) > 3 FROM parquet_metadata('$T/p/positions.parquet')"
	assert_output 'true'
	# files: the inputs' names, in order, with their index
	"$PY" -c 'import sys, numpy as np; [print(i, n.decode()) for i, n in enumerate(np.load(sys.argv[1]))]' \
	    "$T/n/files.npy" >"$T/files.npy.txt"
	node "$BATS_TEST_DIRNAME/interop/parquet_sql.mjs" \
	    "SELECT file || ' ' || name FROM '$T/p/files.parquet' ORDER BY file" >"$T/files.pq.txt"
	run diff "$T/files.npy.txt" "$T/files.pq.txt"
	assert_success
}

@test "parquet: snappy, gzip and none read to the same sums as zstd; -j 2 writes the same bytes as -j 1" {
	need_peers @duckdb/node-api hyparquet hyparquet-compressors
	P="$TESTDATA/pgn/crazyara-1k_cz_lichess_startpos.pgn"
	zhreplay -q -F parquet -o "$T/zstd" "$P" "$TESTDATA"/bughouse/real/*.bpgn
	zhreplay -q -j 2 -F parquet -o "$T/j2" "$P" "$TESTDATA"/bughouse/real/*.bpgn
	for t in positions bughouse games files; do
		cmp "$T/zstd/$t.parquet" "$T/j2/$t.parquet"
	done
	node "$SUMS" duckdb "$T/zstd/positions.parquet" >"$T/ref"
	# one row group of 6837 rows (past the dictionary's first test at
	# 4096): the -F npy table's sums, the uci moves in a dictionary
	# (zhkit-arrays(5)) of 9 to 16 bits an index
	zhreplay -q -F npy -o "$T/n" "$P"
	"$PY" "$ZH_TOP/tests/helpers/npy-sums.py" "$T/n/positions.npy" >"$T/npy.sums"
	run diff "$T/npy.sums" "$T/ref"
	assert_success
	run node "$BATS_TEST_DIRNAME/interop/parquet_sql.mjs" \
	    "SELECT encodings FROM parquet_metadata('$T/zstd/positions.parquet') WHERE path_in_schema = 'uci'"
	assert_output --partial 'RLE_DICTIONARY'
	for c in snappy gzip none; do
		zhreplay -q -F parquet --compression "$c" -o "$T/$c" "$P"
		run node "$BATS_TEST_DIRNAME/interop/parquet_sql.mjs" \
		    "SELECT DISTINCT compression FROM parquet_metadata('$T/$c/positions.parquet')"
		assert_output "$(echo "$c" | tr a-z A-Z | sed 's/NONE/UNCOMPRESSED/')"
		for r in duckdb hyparquet; do
			node "$SUMS" "$r" "$T/$c/positions.parquet" >"$T/$c.$r"
			run diff "$T/ref" "$T/$c.$r"
			assert_success
		done
	done
}

# The position and bughouse tables' column chunks are encoded by one
# thread a core while the next row group fills (kept by columns); on one
# core, by the writer's thread from the records.  Both are the same bytes.
@test "parquet: the same bytes on one core (no encoding thread) as on every core, several row groups" {
	command -v taskset >/dev/null || skip "taskset not installed"
	[ "$(nproc)" -ge 2 ] || skip "one core"
	P="$TESTDATA/pgn/crazyara-1k_cz_lichess_startpos.pgn"
	B=("$TESTDATA"/bughouse/real/*.bpgn)
	ZHKIT_PARQUET_ROW_GROUP=100 taskset -c 0 zhreplay -q -F parquet -o "$T/one" "$P" "${B[@]}"
	# which encoder takes which column is a race: four runs, each its
	# own (an encoder's buffers lost on one order of columns leaked, under
	# make asan, in one run of two)
	for i in 1 2 3 4; do
		ZHKIT_PARQUET_ROW_GROUP=100 zhreplay -q -F parquet -o "$T/all$i" "$P" "${B[@]}"
		for t in positions bughouse games files; do
			cmp "$T/all$i/$t.parquet" "$T/one/$t.parquet"
		done
	done
	for c in snappy gzip none; do
		zhreplay -q -F parquet --compression "$c" -o "$T/a$c" "$P"
		taskset -c 0 zhreplay -q -F parquet --compression "$c" -o "$T/o$c" "$P"
		cmp "$T/a$c/positions.parquet" "$T/o$c/positions.parquet"
	done
}

@test "parquet: each column chunk's min/max statistics are its values' (DuckDB's own min and max of each row group)" {
	need_peers @duckdb/node-api
	ZHKIT_PARQUET_ROW_GROUP=1000 zhreplay -q -F parquet -o "$T/p" "$TESTDATA/pgn/crazyara-1k_cz_lichess_startpos.pgn"
	F="$T/p/positions.parquet"
	# for every integer column and row group, the stats against the data
	run node "$BATS_TEST_DIRNAME/interop/parquet_sql.mjs" "
	    CREATE TABLE t AS SELECT *, file_row_number // 1000 AS rg FROM read_parquet('$F', file_row_number=true);
	    CREATE TABLE m AS SELECT row_group_id AS rg, path_in_schema AS col, stats_min_value AS lo, stats_max_value AS hi
	        FROM parquet_metadata('$F') WHERE type IN ('INT32', 'INT64', 'BOOLEAN');
	    CREATE TABLE v AS SELECT rg, col, min(val)::VARCHAR AS lo, max(val)::VARCHAR AS hi
	        FROM (UNPIVOT (SELECT * EXCLUDE (file_row_number, uci, board, promoted, final, \"check\") FROM t)
	              ON COLUMNS(* EXCLUDE (rg)) INTO NAME col VALUE val) GROUP BY rg, col;
	    SELECT count(*) || ' checked, ' || count(*) FILTER (WHERE m.lo <> v.lo OR m.hi <> v.hi) || ' differ'
	        FROM m JOIN v USING (rg, col)"
	assert_success
	assert_output --regexp '^[0-9]{3,} checked, 0 differ$'
}

@test "parquet: the schema is zhkit-arrays(5)'s: every column's name and type" {
	need_peers @duckdb/node-api
	zhreplay -q -F parquet -o "$T/p" "$TESTDATA/pgn/fatics-zh.pgn"
	for t in positions bughouse games files; do
		# the page's table: ".It Li name Ta TYPE" lines after ".Ss t.parquet"
		awk -v t="$t.parquet" '/^\.Ss /{on = ($2 == t)} on && /^\.It Li /{print $3, $5}' \
		    "$ZH_TOP/man/zhkit-arrays.5" >"$T/doc.$t"
		[ -s "$T/doc.$t" ]
		node "$BATS_TEST_DIRNAME/interop/parquet_sql.mjs" \
		    "SELECT column_name || ' ' || column_type FROM (DESCRIBE SELECT * FROM '$T/p/$t.parquet')" >"$T/duck.$t"
		run diff "$T/doc.$t" "$T/duck.$t"
		assert_success
	done
}

@test "parquet: under 20 bytes a position; -o missing, an unknown codec, an unwritable directory or a missing input: exit 2, no temporary file left" {
	zhreplay -q -F parquet -o "$T/p" "$TESTDATA/pgn/crazyara-1k_cz_lichess_startpos.pgn"
	zhreplay -q -F npy -o "$T/n" "$TESTDATA/pgn/crazyara-1k_cz_lichess_startpos.pgn"
	n=$(( ($(stat -L -c %s "$T/n/positions.npy") - 128) / 175 ))
	[ "$n" -gt 5000 ]
	[ $(( $(stat -L -c %s "$T/p/positions.parquet") / n )) -lt 20 ]
	# and the games' under 20 bytes a game, their strings included once
	g=$("$PY" -c 'import numpy, sys; print(len(numpy.load(sys.argv[1])))' "$T/n/games.npy")
	[ "$g" -eq 1000 ]
	[ $(( $(stat -L -c %s "$T/p/games.parquet") / g )) -lt 20 ]
	run zhreplay -q -F parquet "$TESTDATA/pgn/fatics-zh.pgn"
	assert_failure 2
	assert_output --partial '-o DIR is needed'
	run zhreplay -q -F parquet --compression lzo -o "$T/x" "$TESTDATA/pgn/fatics-zh.pgn"
	assert_failure 2
	assert_output --partial "unknown codec 'lzo'"
	: >"$T/plain"
	run zhreplay -q -F parquet -o "$T/plain/sub" "$TESTDATA/pgn/fatics-zh.pgn"
	assert_failure 2
	# no temporary file is left beside the tables
	run zhreplay -q -F parquet -o "$T/p" "$T/missing.pgn"
	assert_failure 2
	# (the set's link and directory, zhkit-arrays(5), and nothing else)
	run ls -A "$T/p"
	assert_output "$(printf '%s\n' .zhkit-parquet "$(readlink "$T/p/.zhkit-parquet")" \
	    bughouse.parquet files.parquet games.parquet positions.parquet)"
}

@test "parquet: zhpgn -F parquet, read by DuckDB and by hyparquet, has zhpgn --json's games (tags typed, UCI, plies, variant, validity, error) and its PGN's movetext" {
	need_peers @duckdb/node-api hyparquet hyparquet-compressors
	{ awk '/^\[Event /{n++} n <= 40' "$TESTDATA/pgn/crazyara-1k_cz_lichess_startpos.pgn"
	  cat "$TESTDATA/pgn/fatics-zh.pgn" "$TESTDATA/pgn/chessops-pathological-headers.pgn"
	  printf '[Event "bad"]\n[WhiteElo "x"]\n[UTCDate "????.??.??"]\n\n1. e4 e5 2. Qh5 Ke7 3. Qxe9 *\n'; } >"$T/in.pgn"
	run zhpgn -q -F parquet -o "$T/g.parquet" "$T/in.pgn"
	[ "$status" -le 1 ]
	zhpgn -q --json "$T/in.pgn" >"$T/g.jsonl" || :
	zhpgn -q "$T/in.pgn" >"$T/g.pgn" || :
	"$PY" "$ZH_TOP/tests/helpers/games-rows.py" "$T/g.jsonl" "$T/g.pgn" >"$T/want"
	[ "$(wc -l <"$T/want")" -gt 40 ]
	grep -q '"valid":false' "$T/want"
	for r in duckdb hyparquet; do
		node "$BATS_TEST_DIRNAME/interop/parquet_rows.mjs" "$r" "$T/g.parquet" |
		    "$PY" -c 'import json, sys
for l in sys.stdin:
    o = json.loads(l)
    if not o["valid"]:
        o["movetext"] = "(not compared)"
    print(json.dumps(o, ensure_ascii=False, separators=(",", ":")))' >"$T/got.$r"
		run diff "$T/want" "$T/got.$r"
		assert_success
	done
	# the same bytes with -j 2
	zhpgn -q -j 2 -F parquet -o "$T/j2.parquet" "$T/in.pgn" || :
	cmp "$T/g.parquet" "$T/j2.parquet"
}

@test "parquet: zhpgn -F parquet's Hugging Face columns have the Lichess datasets' types (a UNION BY NAME with a file of that schema)" {
	need_peers @duckdb/node-api
	zhpgn -q -F parquet -o "$T/g.parquet" "$TESTDATA/pgn/fatics-zh.pgn"
	# the dataset's schema (its README's dataset_info, as pyarrow writes
	# it): strings, int16 Elos and rating differences, date32, time32[s]
	# (Parquet TIME(MILLIS), UTC-adjusted: DuckDB's TIME WITH TIME ZONE)
	run node "$BATS_TEST_DIRNAME/interop/parquet_sql.mjs" "
	    COPY (SELECT 'Rated Crazyhouse game' AS Event, 'https://lichess.org/x' AS Site, 'a' AS White, 'b' AS Black,
	        '1-0' AS Result, NULL::VARCHAR AS WhiteTitle, NULL::VARCHAR AS BlackTitle, 1500::SMALLINT AS WhiteElo,
	        1400::SMALLINT AS BlackElo, 5::SMALLINT AS WhiteRatingDiff, -5::SMALLINT AS BlackRatingDiff,
	        DATE '2024-01-01' AS UTCDate, '12:00:00+00'::TIMETZ AS UTCTime, '?' AS ECO, '?' AS Opening,
	        'Normal' AS Termination, '180+0' AS TimeControl, '1. e4 1-0' AS movetext) TO '$T/hf.parquet';
	    CREATE TABLE u AS SELECT * FROM '$T/hf.parquet' UNION ALL BY NAME SELECT * FROM '$T/g.parquet';
	    SELECT (SELECT count(*) FROM u) - (SELECT count(*) FROM '$T/g.parquet'),
	        (SELECT count(*) FROM (SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM '$T/hf.parquet')
	            EXCEPT SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM '$T/g.parquet')))"
	assert_success
	assert_output "$(printf '1\t0')"
}
