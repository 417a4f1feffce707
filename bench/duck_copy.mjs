// duck_copy.mjs JSONL PARQUET - the peer path of bench/run.sh's parquet
// section: DuckDB (@duckdb/node-api, from $PEERS) reads zhreplay -F
// jsonl's positions with read_json and writes them as Parquet (COPY TO,
// DuckDB's defaults: zstd... as its version sets them).
const PEERS = process.env.PEERS || `${process.env.HOME}/.cache/zhkit-peers/node_modules`;
const { DuckDBInstance } = await import(`${PEERS}/@duckdb/node-api/lib/index.js`);
const [src, dst] = process.argv.slice(2);
const q = (s) => `'${s.replace(/'/g, "''")}'`;
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
await c.run(`COPY (SELECT * FROM read_json(${q(src)}, format = 'newline_delimited')) TO ${q(dst)} (FORMAT parquet, COMPRESSION zstd)`);
