// parquet_rows.mjs READER FILE - every row of a Parquet file of games
// (zhpgn -F parquet), read by DuckDB or hyparquet, as one JSON object a
// line with the values normalized the same way for both readers: a
// DATE as "YYYY-MM-DD", a TIME as "HH:MM:SS", integers as numbers,
// nulls as null.  tests/helpers/games-rows.py makes the same from
// zhpgn --json and zhpgn's PGN.
import fs from 'node:fs';

const PEERS = (process.env.PEERS_DIR || `${process.env.HOME}/.cache/zhkit-peers`) + '/node_modules';
const [reader, file] = process.argv.slice(2);
const hms = (ms) => new Date(Number(ms)).toISOString().slice(11, 19);

function norm(o) {
	const r = {};
	for (const [k, v] of Object.entries(o)) {
		if (v === null || v === undefined) r[k] = null;
		else if (v instanceof Date) r[k] = v.toISOString().slice(0, 10);
		else if (typeof v === 'bigint') r[k] = Number(v);
		else if (k === 'UTCTime' && typeof v === 'number') r[k] = hms(v);
		else r[k] = v;
	}
	return r;
}

let rows;
if (reader === 'duckdb') {
	const { DuckDBInstance } = await import(`${PEERS}/@duckdb/node-api/lib/index.js`);
	const db = await DuckDBInstance.create(':memory:');
	const c = await db.connect();
	const r = await c.runAndReadAll(`SELECT * REPLACE (strftime(UTCDate, '%Y-%m-%d') AS UTCDate,
		substr(UTCTime::VARCHAR, 1, 8) AS UTCTime) FROM read_parquet('${file}')`);
	rows = r.getRowObjectsJson().map((o) => {
		for (const k of ['WhiteElo', 'BlackElo', 'WhiteRatingDiff', 'BlackRatingDiff', 'plies'])
			if (o[k] !== null) o[k] = Number(o[k]);
		return o;
	});
} else {
	const { parquetReadObjects } = await import(`${PEERS}/hyparquet/src/index.js`);
	const { compressors } = await import(`${PEERS}/hyparquet-compressors/src/index.js`);
	const b = fs.readFileSync(file);
	rows = await parquetReadObjects({ file: b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength), compressors });
}
for (const o of rows) console.log(JSON.stringify(norm(o)));
