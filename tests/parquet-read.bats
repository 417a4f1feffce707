#!/usr/bin/env bats
# Parquet as an input of every tool (issue 43): a file of games in the
# Hugging Face layout of the Lichess datasets (a column a tag, the moves
# in "movetext"), as DuckDB (@duckdb/node-api) writes it in every codec,
# both page versions, dictionary on and off, several row groups, is read
# by zhcheck, zhpgn and zhreplay to the same output as the PGN it came
# from; a damaged file is an error (exit 2) and the run goes on; memory
# stays about a row group.  The peer lives in $PEERS_DIR
# (~/.cache/zhkit-peers); the tests skip, saying why, without it.

bats_require_minimum_version 1.5.0
load common

SQL="$BATS_TEST_DIRNAME/interop/parquet_sql.mjs"
HF="Event, Site, White, Black, Result, WhiteTitle, BlackTitle, WhiteElo, BlackElo,
    WhiteRatingDiff, BlackRatingDiff, UTCDate, UTCTime, ECO, Opening, Termination,
    TimeControl, movetext"

setup() {
	T=$BATS_TEST_TMPDIR
	PEERS="${PEERS_DIR:-$HOME/.cache/zhkit-peers}/node_modules"
	command -v node >/dev/null || skip "node missing (apt-get install nodejs npm)"
	[ -f "$PEERS/@duckdb/node-api/package.json" ] ||
	    skip "@duckdb/node-api missing from $PEERS (npm install --prefix \"\$PEERS_DIR\" @duckdb/node-api)"
	# the games: 150 Lichess crazyhouse games, and one with an error
	{ awk '/^\[Event /{n++} n <= 150' "$TESTDATA/pgn/crazyara-1k_cz_lichess_startpos.pgn"
	  printf '[Event "bad"]\n[Variant "Crazyhouse"]\n\n1. e4 e5 2. Qh5 Ke7 3. Qxe9 *\n'; } >"$T/in.pgn"
	# their rows in the dataset's layout (zhpgn -F parquet's columns)
	zhpgn -q -F parquet -o "$T/zh.parquet" "$T/in.pgn" || :
}

# DuckDB's copy of the dataset's columns, with the COPY options $2.
duck() {
	node "$SQL" "SET threads = 1; COPY (SELECT $HF FROM '$T/zh.parquet', range($3) ORDER BY range)
	    TO '$1' (FORMAT parquet, $2)" >/dev/null
}

@test "parquet input: DuckDB's files in every codec, pages v1 and v2, dictionary on and off, several row groups: zhcheck, zhpgn and zhreplay say what they say of the PGN" {
	zhreplay -q -F fen "$T/in.pgn" >"$T/fen.want" 2>/dev/null || :
	# zhkit's own file (its variant column the Variant tag), as PGN
	zhpgn -q -o "$T/pgn.want" "$T/zh.parquet" 2>/dev/null || :
	zhcheck -q --json "$T/in.pgn" | jq -c '[.valid, .plies]' >"$T/check.want" || :
	[ "$(wc -l <"$T/check.want")" -eq 151 ]
	n=0
	for opt in "COMPRESSION zstd" "COMPRESSION snappy" "COMPRESSION gzip" \
	    "COMPRESSION lz4_raw" "COMPRESSION brotli" "COMPRESSION uncompressed" \
	    "COMPRESSION zstd, PARQUET_VERSION v2" "COMPRESSION snappy, PARQUET_VERSION v2" \
	    "COMPRESSION zstd, DICTIONARY_SIZE_LIMIT 0" \
	    "COMPRESSION zstd, PARQUET_VERSION v2, DICTIONARY_SIZE_LIMIT 0"; do
		f="$T/d$((n += 1)).parquet"
		duck "$f" "$opt" 1
		# the dataset has no Variant column: -v says it
		run -1 zhreplay -q -v crazyhouse -F fen -o "$T/fen.got" "$f"
		diff "$T/fen.want" "$T/fen.got"
		run -1 zhpgn -q -v crazyhouse -o "$T/pgn.got" "$f"
		diff "$T/pgn.want" "$T/pgn.got"
		zhcheck -q -v crazyhouse --json "$f" | jq -c '[.valid, .plies]' >"$T/check.got" || :
		diff "$T/check.want" "$T/check.got"
	done
	# what DuckDB wrote: every codec, both page versions, the
	# dictionary and not, the DELTA encodings
	run node "$SQL" "SELECT string_agg(DISTINCT compression, ' ' ORDER BY compression),
	    bool_or(encodings LIKE '%DICTIONARY%'), bool_or(encodings NOT LIKE '%DICTIONARY%'),
	    bool_or(encodings LIKE '%DELTA_BINARY_PACKED%') AND bool_or(encodings LIKE '%DELTA_LENGTH_BYTE_ARRAY%')
	    FROM parquet_metadata('$T/d*.parquet')"
	assert_output "$(printf 'BROTLI GZIP LZ4_RAW SNAPPY UNCOMPRESSED ZSTD\ttrue\ttrue\ttrue')"
	# several row groups: the games twenty times, 2 row groups at least
	duck "$T/many.parquet" "ROW_GROUP_SIZE 1024" 20
	run node "$SQL" "SELECT count(DISTINCT row_group_id) FROM parquet_metadata('$T/many.parquet')"
	[ "$output" -ge 2 ]
	run -1 zhreplay -q -v crazyhouse -F fen -o "$T/many.fen" "$T/many.parquet"
	diff <(for i in $(seq 20); do cat "$T/fen.want"; done) "$T/many.fen"
}

@test "parquet input: the roster's tags the file has no column for (the dataset's Date, Round) read as PGN's unknown, not warned about; a null in a column it has is" {
	duck "$T/hf.parquet" "COMPRESSION zstd" 1
	run --separate-stderr zhcheck -v crazyhouse "$T/hf.parquet"
	assert_equal "$status" 1	# the bad game
	# one warning: the bad game's nulls (it has no Site, White...), no Date or Round
	assert_equal "${stderr_lines[-1]}" "zhcheck: checked 151 games: 150 valid, 1 invalid (1 warning: 1 tag)"
	[[ ${stderr_lines[0]} == *"game 151: missing tags of the Seven Tag Roster: Site, White, Black, Result [-Wtag]" ]] || fail "${stderr_lines[0]}"
	# the game as PGN's export form has it: Date and Round unknown
	zhpgn -q -v crazyhouse --json "$T/hf.parquet" | head -1 | jq -c '.tags | [.Date, .Round, .Event]' >"$T/got"
	assert_equal "$(cat "$T/got")" "$(head -1 "$T/in.pgn" | sed 's/^\[Event \("[^"]*"\)\]$/["????.??.??","?",\1]/')"
	# the games table's date: UTCDate where Date is unknown (Lichess's
	# games, Date and UTCDate alike), as from the PGN's Date
	zhpgn -q -F parquet -o "$T/li.parquet" "$TESTDATA/index/lichess-zh-150.pgn"
	zhreplay -q -F npy -o "$T/hfnpy" "$T/li.parquet"
	zhreplay -q -F npy -o "$T/pgnnpy" "$TESTDATA/index/lichess-zh-150.pgn"
	run /usr/bin/python3 -c 'import numpy as n, sys; a, b = (n.load(d + "/games.npy")["date"] for d in sys.argv[1:]); print(len(a), (a == b).all(), a[0])' "$T/hfnpy" "$T/pgnnpy"
	assert_output "150 True b'2019.10.28'"
	# a Date column with a null in the second row: that game lacks it
	node "$SQL" "SET threads = 1; COPY (SELECT Event, Site, CASE WHEN range = 1 THEN NULL ELSE '2020.01.0' || range END AS Date,
	    '-' AS Round, White, Black, Result, movetext FROM (SELECT *, row_number() OVER () - 1 AS range FROM '$T/zh.parquet') WHERE range < 3)
	    TO '$T/nul.parquet' (FORMAT parquet)" >/dev/null
	run --separate-stderr zhcheck -v crazyhouse "$T/nul.parquet"
	assert_success
	[[ ${stderr_lines[0]} == "zhcheck: $T/nul.parquet:11:1: warning: game 2 ("*"): missing tag of the Seven Tag Roster: Date [-Wtag]" ]] ||
	    fail "${stderr_lines[0]}"
	assert_equal "${stderr_lines[-1]}" "zhcheck: checked 3 games: 3 valid, 0 invalid (1 warning: 1 tag)"
	# the same rows as JSON Lines: a key absent, a key null
	printf '%s\n' '{"Event":"a","Site":"b","White":"c","Black":"d","Result":"*","movetext":"1. e4 *"}' \
	    '{"Event":"a","Site":"b","Date":null,"Round":"1","White":"c","Black":"d","Result":"*","movetext":"1. e4 *"}' >"$T/rows.jsonl"
	run --separate-stderr zhcheck "$T/rows.jsonl"
	assert_success
	assert_equal "${#stderr_lines[@]}" 2
	[[ ${stderr_lines[0]} == *"game 2 (c - d): missing tag of the Seven Tag Roster: Date [-Wtag]" ]] || fail "${stderr_lines[0]}"
}

@test "parquet input: a file without a Variant column is read with -v (the per-variant datasets)" {
	duck "$T/nv.parquet" "COMPRESSION zstd" 1
	run zhcheck -q "$T/nv.parquet"
	[ "$status" -eq 1 ]		# chess: the drops are errors
	run zhcheck -q -v crazyhouse --json "$T/nv.parquet"
	[ "$(echo "$output" | jq -c 'select(.valid)' | wc -l)" -eq 150 ]
}

@test "parquet input: a damaged footer, page header or page is an error naming it (exit 2), and the run goes on" {
	duck "$T/g.parquet" "COMPRESSION zstd" 1
	size=$(stat -c %s "$T/g.parquet")
	# the footer: its length, its bytes, the magic at the end
	python3 - "$T/g.parquet" "$T" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
n = struct.unpack("<I", d[-8:-4])[0]
def out(name, b):
    open(sys.argv[2] + "/" + name, "wb").write(b)
out("len.parquet", d[:-8] + struct.pack("<I", len(d) * 2) + b"PAR1")
meta = bytearray(d[-8 - n:-8])
for i in range(10, min(len(meta), 400), 7):
    meta[i] ^= 0xa5
out("meta.parquet", d[:-8 - n] + bytes(meta) + d[-8:])
out("cut.parquet", d[: len(d) // 2])
page = bytearray(d)
page[4:12] = b"\xff\xff\xff\xff\xff\xff\xff\xff"     # the first page header
out("header.parquet", bytes(page))
page = bytearray(d)
for i in range(40, 400):                            # the first page's bytes
    page[i] ^= 0x5a
out("page.parquet", bytes(page))
PY
	for f in len meta cut header page; do
		run zhcheck "$T/$f.parquet" "$TESTDATA/pgn/fatics-zh.pgn"
		[ "$status" -eq 2 ]
		assert_output --regexp "$f\.parquet: error: parquet: (row group 1 of 1, column '[^']+', byte [0-9]+: )?(damaged footer|page header|zstd|a page|a column|.*cut short|.*wrong)"
		assert_output --partial 'checked 6 games'	# the next input's
	done
	# a page's fault says where it is: the first page header is at byte 4
	run zhcheck -q "$T/header.parquet"
	assert_output --regexp "header\.parquet: error: parquet: row group 1 of 1, column '[^']+', byte 4: page header: "
	run zhcheck -q "$T/page.parquet"
	assert_output --regexp "page\.parquet: error: parquet: row group 1 of 1, column '[^']+', byte [0-9]+: "
}

@test "parquet input: nested columns and other readers' features are refused by name (exit 2)" {
	node "$SQL" "COPY (SELECT 'e' AS Event, [1, 2] AS nested, '1. e4 *' AS movetext) TO '$T/nested.parquet' (FORMAT parquet)" >/dev/null
	run zhcheck -q "$T/nested.parquet"
	[ "$status" -eq 2 ]
	assert_output --partial 'nested columns'
	: | zhcheck -q - 2>/dev/null || :	# a pipe is never taken for Parquet
	# Parquet through a pipe: it cannot be read so, and says why
	run --separate-stderr bash -c "cat \"$T/zh.parquet\" | zhcheck -"
	[ "$status" -eq 2 ]
	assert_equal "${stderr_lines[0]}" "zhcheck: <stdin>: error: parquet: a Parquet input must be a file (named by its path), not a pipe or a stream"
}

@test "rows input: the dataset's rows as JSON Lines through a pipe or compressed read as from the file; zhkit's own JSON Lines so too" {
	node "$SQL" "COPY (SELECT $HF FROM '$T/zh.parquet') TO '$T/rows.jsonl' (FORMAT json)" >/dev/null
	zhpgn -q -v crazyhouse "$T/rows.jsonl" >"$T/want.pgn" 2>/dev/null || :
	[ "$(grep -c '^\[Event ' "$T/want.pgn")" -eq 150 ]
	gzip -k "$T/rows.jsonl"
	zstd -q "$T/rows.jsonl"
	for f in rows.jsonl.gz rows.jsonl.zst; do
		zhpgn -q -v crazyhouse "$T/$f" 2>/dev/null | diff "$T/want.pgn" - || fail "$f"
	done
	zhpgn -q -v crazyhouse - <"$T/rows.jsonl" 2>/dev/null | diff "$T/want.pgn" -
	cat "$T/rows.jsonl" | zhpgn -q -v crazyhouse - 2>/dev/null | diff "$T/want.pgn" -
	# zhkit's own game objects through a pipe and compressed: as before
	zhpgn -q --json "$T/in.pgn" >"$T/own.jsonl" 2>/dev/null || :
	zhpgn -q "$T/own.jsonl" >"$T/own.want" 2>/dev/null || :
	gzip -k "$T/own.jsonl"
	cat "$T/own.jsonl" | zhpgn -q - 2>/dev/null | diff "$T/own.want" -
	zhpgn -q "$T/own.jsonl.gz" 2>/dev/null | diff "$T/own.want" -
}

@test "parquet input: memory stays about a row group, whatever the file's size" {
	[ -x /usr/bin/time ] || skip "/usr/bin/time missing (apt-get install time)"
	duck "$T/one.parquet" "ROW_GROUP_SIZE 2048" 10
	duck "$T/big.parquet" "ROW_GROUP_SIZE 2048" 100
	run node "$SQL" "SELECT count(DISTINCT row_group_id) FROM parquet_metadata('$T/big.parquet')"
	[ "$output" -ge 5 ]
	/usr/bin/time -f %M zhcheck -q "$T/one.parquet" 2>&1 >/dev/null | tail -1 >"$T/rss1" || :
	/usr/bin/time -f %M zhcheck -q "$T/big.parquet" 2>&1 >/dev/null | tail -1 >"$T/rss2" || :
	echo "peak RSS $(cat "$T/rss1") KB for 1500 games, $(cat "$T/rss2") KB for 15000"
	# ten times the rows, about the same memory (within 8 MB)
	[ "$(cat "$T/rss2")" -lt $(( $(cat "$T/rss1") + 8192 )) ]
}

@test "parquet input: README's Hugging Face workflow on a DuckDB-made month (validate, convert, positions, query)" {
	D="$T/lichess-zh/data/year=2024/month=01"
	mkdir -p "$D"
	duck "$D/train-00000-of-00001.parquet" "COMPRESSION zstd" 1
	cd "$T"
	# the README's commands, as written there (but the download)
	sed -n '/^    huggingface-cli download/,/^$/p' "$ZH_TOP/README.md" | grep -v '^$' >"$T/cmds"
	[ "$(wc -l <"$T/cmds")" -eq 7 ]
	run -1 bash -c "$(sed -n 3p "$T/cmds")"
	assert_output --partial 'checked 151 games: 150 valid, 1 invalid'
	run -1 bash -c "$(sed -n 4p "$T/cmds")"
	run -1 bash -c "$(sed -n 5p "$T/cmds")"
	run node "$SQL" "SELECT count(*), count(*) FILTER (WHERE valid) FROM 'games.parquet'"
	assert_output "$(printf '151\t150')"
	# the query (duckdb's CLI is not installed here: the same SQL)
	q=$(sed -n '6,7p' "$T/cmds" | sed 's/^ *duckdb -c "//; s/"$//' | tr '\n' ' ')
	run node "$SQL" "$q"
	assert_success
	[ "${#lines[@]}" -ge 1 ]
	run node "$SQL" "SELECT count(*) = (SELECT sum(records) FROM 'positions/games.parquet') FROM 'positions/positions.parquet'"
	assert_output 'true'
}

@test "parquet input: the same rows as JSON Lines (DuckDB's export: flat tag keys and movetext) read as from the PGN" {
	node "$SQL" "COPY (SELECT $HF FROM '$T/zh.parquet') TO '$T/rows.jsonl' (FORMAT json)" >/dev/null
	head -1 "$T/rows.jsonl" | jq -e 'has("movetext") and (has("tags") | not)'
	zhreplay -q -F fen -o "$T/fen.want" "$T/in.pgn" 2>/dev/null || :
	run -1 zhreplay -q -v crazyhouse -F fen -o "$T/fen.got" "$T/rows.jsonl"
	diff "$T/fen.want" "$T/fen.got"
	# typed values: a date, a time, a signed rating difference
	node "$SQL" "COPY (SELECT 'x' AS Event, DATE '2024-01-31' AS UTCDate, TIME '23:59:58' AS UTCTime,
	    5::SMALLINT AS WhiteRatingDiff, '1. e4 e5 1-0' AS movetext) TO '$T/one.jsonl' (FORMAT json)" >/dev/null
	run zhpgn -q "$T/one.jsonl"
	assert_success
	assert_output --partial '[UTCDate "2024.01.31"]'
	assert_output --partial '[UTCTime "23:59:58"]'
	assert_output --partial '[WhiteRatingDiff "+5"]'
	# the Parquet twin of that row says the same
	node "$SQL" "COPY (SELECT * FROM read_json('$T/one.jsonl', columns = {Event: 'VARCHAR', UTCDate: 'DATE',
	    UTCTime: 'TIME', WhiteRatingDiff: 'SMALLINT', movetext: 'VARCHAR'})) TO '$T/one.parquet' (FORMAT parquet)" >/dev/null
	diff <(zhpgn -q "$T/one.jsonl") <(zhpgn -q "$T/one.parquet")
}

@test "parquet input: --column maps other column names (and JSON keys) to tags and the moves" {
	node "$SQL" "COPY (SELECT Event AS ev, Result, movetext AS moves FROM '$T/zh.parquet') TO '$T/ren.parquet' (FORMAT parquet);
	    COPY (SELECT Event AS ev, Result, movetext AS moves FROM '$T/zh.parquet') TO '$T/ren.jsonl' (FORMAT json)" >/dev/null
	zhreplay -q -F fen -o "$T/fen.want" "$T/in.pgn" 2>/dev/null || :
	for f in ren.parquet ren.jsonl; do
		run -1 zhreplay -q -v crazyhouse --column movetext=moves --column Event=ev -F fen -o "$T/fen.got" "$T/$f"
		diff "$T/fen.want" "$T/fen.got"
		run zhpgn -q -v crazyhouse --column movetext=moves --column Event=ev "$T/$f"
		assert_output --partial '[Event "Lichess Opening Explorer"]'
		refute_output --partial '[ev '
	done
	run zhcheck --column nonsense "$T/ren.parquet"
	assert_failure 2
	assert_output --partial "--column: 'nonsense' is not TAG=COLUMN"
}

@test "rows input: a row is one game whatever its text holds (line breaks, a result then more, '[' outside comments, tag names and values with quotes), as JSON Lines and as Parquet" {
	# four rows, each trying to be more than one game
	cat >"$T/evil.jsonl" <<'ROWS'
{"Event":"a","movetext":"1. e4 e5 *\n\n[Event \"injected\"]\n\n1. d4 *"}
{"Event":"b","movetext":"1. e4 [Event \"x\"] 1. d4 *"}
{"Event\"]\n\n[Site":"c","Round":"1\"]\n\n[Event \"v","movetext":"1. e4 { [%clk 0:01:00] } e5 ; [Event \"y\"] *"}
{"Event":"d","movetext":"1. e4 { unclosed"}
{"Event":"e","movetext":"1. Nf3 *"}
ROWS
	run --separate-stderr zhpgn -q --json "$T/evil.jsonl"
	assert_equal "$status" 1
	jq -c '[.tags.Event, [.moves[].san], (.errors | length)]' <<<"$output" >"$T/got"
	cat >"$T/want" <<'WANT'
["a",["e4","e5"],0]
["b",["e4"],1]
["?",["e4","e5"],0]
["d",["e4"],1]
["e",["Nf3"],0]
WANT
	diff "$T/want" "$T/got"
	[[ $stderr == *"game 2: unexpected '['"* ]] || fail "$stderr"
	[[ $stderr == *"warning: text between games"* ]] || fail "$stderr"
	run --separate-stderr zhcheck -q --json "$T/evil.jsonl"
	assert_equal "$(jq -s 'length' <<<"$output")" 5
	# the tag names and values kept in their row
	run --separate-stderr zhpgn -q --json "$T/evil.jsonl"
	[[ $(sed -n 3p <<<"$output" | jq -c '.tags | [.Event_____Site, .Round]') == '["c","1\"]  [Event \"v"]' ]] || fail "$output"
	# a long value whole (it was cut at 4,095 bytes in silence)
	printf '{"Event":"%s","movetext":"1. e4 *"}\n' "$(printf 'x%.0s' $(seq 6000))" >"$T/long.jsonl"
	run --separate-stderr zhpgn -q --json "$T/long.jsonl"
	assert_equal "$(jq -r '.tags.Event | length' <<<"$output")" 6000
	# the same rows as a Parquet file, DuckDB's
	node "$SQL" "COPY (SELECT * FROM read_json('$T/evil.jsonl', format = 'newline_delimited',
	    columns = {Event: 'VARCHAR', 'Event\"]\n\n[Site': 'VARCHAR', Round: 'VARCHAR', movetext: 'VARCHAR'}))
	    TO '$T/evil.parquet' (FORMAT parquet)" >/dev/null
	run --separate-stderr zhpgn -q --json "$T/evil.parquet"
	assert_equal "$status" 1
	jq -c '[.tags.Event, [.moves[].san], (.errors | length)]' <<<"$output" >"$T/gotpq"
	# (there the third row's Event is a null in a column: no tag, not "?")
	sed '3s/^\["?"/[null/' "$T/want" | diff - "$T/gotpq"
}
