// parquet_sums.mjs READER FILE - a Parquet file's row count and a
// checksum of every column, read by DuckDB (@duckdb/node-api) or by
// hyparquet (with hyparquet-compressors), as one JSON line:
//   {"rows": N, "cols": {"name": "SUM:WSUM" | "md5", ...}}
// SUM is the sum of an integer or boolean column, WSUM the sum of each
// value times its row number + 1 (so the order counts); a BLOB or
// FIXED_LEN_BYTE_ARRAY column's md5 is of its values' uppercase hex
// joined, a string column's of its values joined by newlines.
// tests/helpers/npy-sums.py makes the same from zhkit's .npy tables.
import crypto from 'node:crypto';
import fs from 'node:fs';

const PEERS = (process.env.PEERS_DIR || `${process.env.HOME}/.cache/zhkit-peers`) + '/node_modules';
const [reader, file] = process.argv.slice(2);
const md5 = (s) => crypto.createHash('md5').update(s).digest('hex');

async function duck() {
	const { DuckDBInstance } = await import(`${PEERS}/@duckdb/node-api/lib/index.js`);
	const db = await DuckDBInstance.create(':memory:');
	const c = await db.connect();
	const f = `read_parquet('${file.replace(/'/g, "''")}', file_row_number=true)`;
	const desc = (await c.runAndReadAll(`DESCRIBE SELECT * EXCLUDE (file_row_number) FROM ${f}`)).getRowsJson();
	const rows = Number((await c.runAndReadAll(`SELECT count(*) FROM ${f}`)).getRowsJson()[0][0]);
	const cols = {};
	for (const [name, type] of desc) {
		const q = `"${name}"`;
		let sql;
		if (type === 'BLOB')
			sql = `SELECT md5(coalesce(string_agg(hex(${q}), '' ORDER BY file_row_number), '')) FROM ${f}`;
		else if (type === 'VARCHAR')
			sql = `SELECT md5(coalesce(string_agg(${q}, chr(10) ORDER BY file_row_number), '')) FROM ${f}`;
		else
			sql = `SELECT coalesce(sum(${q}::HUGEINT), 0)::VARCHAR || ':' || coalesce(sum(${q}::HUGEINT * (file_row_number + 1)), 0)::VARCHAR FROM ${f}`;
		cols[name] = String((await c.runAndReadAll(sql)).getRowsJson()[0][0]);
	}
	return { rows, cols };
}

async function hyp() {
	const { parquetReadObjects, parquetMetadata, parquetSchema } = await import(`${PEERS}/hyparquet/src/index.js`);
	const { compressors } = await import(`${PEERS}/hyparquet-compressors/src/index.js`);
	const b = fs.readFileSync(file);
	const ab = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
	const meta = parquetMetadata(ab);
	const schema = meta.schema.slice(1);
	const data = await parquetReadObjects({ file: ab, compressors, utf8: true });
	const cols = {};
	for (const el of schema) {
		const vals = data.map((r) => r[el.name]);
		if (el.type === 'FIXED_LEN_BYTE_ARRAY')
			cols[el.name] = md5(vals.map((v) => Buffer.from(v).toString('hex').toUpperCase()).join(''));
		else if (el.type === 'BYTE_ARRAY')
			cols[el.name] = md5(vals.join('\n'));
		else {
			let s = 0n, w = 0n;
			vals.forEach((v, i) => { const x = BigInt(typeof v === 'boolean' ? +v : v); s += x; w += x * BigInt(i + 1); });
			cols[el.name] = `${s}:${w}`;
		}
	}
	return { rows: Number(meta.num_rows), cols };
}

const r = reader === 'duckdb' ? await duck() : await hyp();
const sorted = Object.fromEntries(Object.entries(r.cols).sort());
console.log(JSON.stringify({ rows: r.rows, cols: sorted }));
