// parquet_sql.mjs SQL - run SQL (statements separated by ";") in an
// in-memory DuckDB (@duckdb/node-api, from $PEERS_DIR) and print the
// last statement's rows, one a line, columns joined by tabs.
const PEERS = (process.env.PEERS_DIR || `${process.env.HOME}/.cache/zhkit-peers`) + '/node_modules';
const { DuckDBInstance } = await import(`${PEERS}/@duckdb/node-api/lib/index.js`);
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
const r = await c.runAndReadAll(process.argv[2]);
for (const row of r.getRowsJson())
	console.log(row.map((v) => (v === null ? 'NULL' : String(v))).join('\t'));
