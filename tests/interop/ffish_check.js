#!/usr/bin/env node
// Proof against ffish (Fairy-Stockfish in wasm) for the interop tests.
//
//   node ffish_check.js PGN WANT
//     PGN is zhpgn output; WANT has zhkit's final FEN of each of its games,
//     one per line (`zhreplay --final-only --to fairy`).  Each game goes
//     through ffish.readGamePGN (the Variant tag picks the rules; every SAN
//     is matched against the SAN of the legal moves, and one that matches
//     none is silently dropped, so the count of accepted moves is checked),
//     then its UCI mainline is replayed on a new Board and board.fen() (with
//     `~` where the variant writes it) compared with zhkit's final FEN after
//     both pockets are sorted.
//
// ffish 0.7.10 builds in crazyhouse, loop, chessgi and grand but not
// grandhouse; tests/interop/variants.ini defines it (loadVariantConfig).
// Prints one line per disagreement (at most 20) and a summary; exit 1 on
// any.  Env PEERS: the node_modules holding ffish.
delete globalThis.fetch; // ffish's loader tries fetch() on a path under node >= 18
const fs = require('fs');
const path = require('path');
const PEERS = process.env.PEERS || `${process.env.HOME}/.cache/zhkit-peers/node_modules`;
const ff = require(`${PEERS}/ffish`);
const RESULTS = new Set(['1-0', '0-1', '1/2-1/2', '*']);
const BUILTIN = new Set(['crazyhouse', 'loop', 'chessgi', 'grand', 'chess']);

// The halfmove clock (5th field) is left out: ffish 0.7.10 (Fairy-Stockfish
// 230826) zeroes it on every drop, where Fairy-Stockfish 11.1, chessops,
// scalachess and zhkit zero it only on a pawn drop (a piece drop counts as
// a quiet move): after `N@c6` from a clock of 3 ffish writes 0, the others 4.
function norm(fen) {
  const f = fen.trim().split(/\s+/);
  f.splice(4, 1);
  let board = f[0], pocket = '';
  const b = board.indexOf('[');
  if (b >= 0) { pocket = board.slice(b + 1, board.indexOf(']')); board = board.slice(0, b); }
  return [`${board}[${[...pocket.replace('-', '')].sort().join('')}]`, ...f.slice(1)].join(' ');
}

ff.onRuntimeInitialized = () => {
  const [pgnPath, wantPath] = process.argv.slice(2);
  ff.loadVariantConfig(fs.readFileSync(path.join(__dirname, 'variants.ini'), 'utf8'));
  const want = fs.readFileSync(wantPath, 'utf8').split('\n').filter(Boolean);
  const chunks = fs.readFileSync(pgnPath, 'utf8').split(/\n\s*\n(?=\[)/).filter((c) => c.trim());
  const bad = [], seen = {};
  if (chunks.length !== want.length) bad.push(`${chunks.length} games in ${pgnPath}, ${want.length} final FENs from zhkit`);
  chunks.forEach((chunk, i) => {
    const g = ff.readGamePGN(chunk);
    let variant = (g.headers('Variant') || 'chess').toLowerCase();
    if (variant === 'standard') variant = 'chess';
    seen[variant] = (seen[variant] || 0) + 1;
    const mv = g.mainlineMoves();
    const moves = mv.length ? mv.trim().split(' ') : [];
    // SAN tokens of the mainline: no comments, variations or NAGs
    let body = chunk.slice(chunk.search(/\n\s*\n/) + 1).replace(/\{[^}]*\}/g, ' ');
    for (let prev = ''; prev !== body;) { prev = body; body = body.replace(/\([^()]*\)/g, ' '); }
    const expected = body.replace(/\d+\.+/g, ' ').split(/\s+/)
      .filter((t) => t && !RESULTS.has(t) && !/^\$\d+$/.test(t)).length;
    if (moves.length !== expected) {
      bad.push(`game ${i + 1} (${variant}): ffish accepted ${moves.length} of ${expected} SAN moves`);
      g.delete();
      return;
    }
    const start = g.headers('FEN');
    const b = start ? new ff.Board(variant, start) : new ff.Board(variant);
    for (const u of moves) b.push(u);
    const got = ff.capturesToHand(variant) ? b.fen(true) : b.fen();
    if (norm(got) !== norm(want[i] || '')) bad.push(`game ${i + 1} (${variant}): ffish ${got}, zhkit ${want[i]}`);
    b.delete();
    g.delete();
  });
  for (const m of bad.slice(0, 20)) console.log(m);
  const vs = Object.entries(seen).map(([k, n]) => `${k} ${n}${BUILTIN.has(k) ? '' : ' (from variants.ini)'}`).join(', ');
  console.log(`ffish_check: ${chunks.length} games (${vs}), ${bad.length} disagree`);
  process.exit(bad.length ? 1 : 0);
};
