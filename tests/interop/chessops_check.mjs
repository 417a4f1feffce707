#!/usr/bin/env node
// Proof against chessops (Lichess's rules library) for the interop tests.
//
//   node chessops_check.mjs fen FED.tsv WANT.tsv
//     Both files have `LABEL<TAB>VARIANT<TAB>FEN` lines for the same
//     positions in the same order (tests/interop/positions.py): FED as
//     zhkit wrote it in the dialect under test, WANT in zhkit's lichess
//     dialect.  Each FED FEN goes through parseFen, setupPosition (the
//     position must be legal for chessops) and makeFen; the result must
//     equal WANT after both are normalised (see norm()).  Crazyhouse and
//     chess positions only: chessops plays no loop, chessgi or grand games.
//
//   node chessops_check.mjs pgn PGN WANT.tsv
//     PGN is zhpgn output; WANT is `positions.py plies lichess` of it.
//     Every game is read by chessops' PgnParser, its start position made
//     from the headers, every mainline SAN parsed (parseSan: full
//     legality) and played; the FEN after each ply must equal zhkit's.
//
// Prints one line per disagreement (at most 20) and a summary line; exit
// 1 on any disagreement.  Env PEERS: the node_modules holding chessops.
import fs from 'node:fs';

const PEERS = process.env.PEERS || `${process.env.HOME}/.cache/zhkit-peers/node_modules`;
const { parseFen, makeFen } = await import(`${PEERS}/chessops/dist/esm/fen.js`);
const { setupPosition } = await import(`${PEERS}/chessops/dist/esm/variant.js`);
const { PgnParser, startingPosition } = await import(`${PEERS}/chessops/dist/esm/pgn.js`);
const { parseSan } = await import(`${PEERS}/chessops/dist/esm/san.js`);

const RULES = new Set(['crazyhouse', 'chess']);

// The forms differ only in spelling: chessops writes the pocket in
// brackets (`[]` when empty), zhkit's lichess dialect as a 9th rank (a
// bare trailing `/` when empty); pocket letters may come in any order.
// Both write the ep square only when an ep capture is legal.
function norm(fen) {
  const f = fen.trim().split(/\s+/);
  let board = f[0], pocket = '';
  const b = board.indexOf('[');
  if (b >= 0) {
    pocket = board.slice(b + 1, board.indexOf(']'));
    board = board.slice(0, b);
  } else if (board.split('/').length === 9) {
    const i = board.lastIndexOf('/');
    pocket = board.slice(i + 1);
    board = board.slice(0, i);
  }
  pocket = [...pocket.replace('-', '')].sort().join('');
  return [`${board}[${pocket}]`, ...f.slice(1)].join(' ');
}

function readTsv(path) {
  return fs.readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => l.split('\t'));
}

// The FEN with its halfmove clock (5th field) cut to 150.
function clock150(fen) {
  const f = fen.trim().split(/\s+/);
  if (f.length >= 5 && +f[4] > 150) f[4] = '150';
  return f.join(' ');
}

const bad = [];
let n = 0, skipped = 0, known = 0, clocks = 0;
const material = (fen) => (fen.split(' ')[0].match(/[a-zA-Z]/g) || []).length;
const [mode, a, b] = process.argv.slice(2);

if (mode === 'fen') {
  const fed = readTsv(a), want = readTsv(b);
  if (fed.length !== want.length) {
    console.log(`chessops_check: ${a} has ${fed.length} lines, ${b} ${want.length}`);
    process.exit(1);
  }
  fed.forEach(([label, variant, fen], i) => {
    if (!RULES.has(variant)) { skipped++; return; }
    n++;
    const r = parseFen(fen);
    if (r.isErr) { bad.push(`${label}: parseFen(${JSON.stringify(fen)}): ${r.error.message}`); return; }
    const p = setupPosition(variant, r.value);
    if (p.isErr && p.error.message === 'ERR_VARIANT' && material(fen) > 64) {
      // chessops refuses a crazyhouse position with more than 64 men on the
      // board and in the pockets together (zhkit, Lichess and python-chess
      // have no such limit): a peer limitation, counted apart.
      known++;
      return;
    }
    if (p.isErr) { bad.push(`${label}: setupPosition(${variant}, ${JSON.stringify(fen)}): ${p.error.message}`); return; }
    const got = makeFen(p.value.toSetup());
    if (norm(got) !== norm(want[i][2]) &&
        norm(got) === norm(clock150(want[i][2]))) {
      // chessops writes a halfmove clock over 150 as 150 (zhkit keeps
      // it, as FEN has no bound): a peer limitation, counted apart.
      clocks++;
      return;
    }
    if (norm(got) !== norm(want[i][2]))
      bad.push(`${label}: ${JSON.stringify(fen)} -> chessops ${JSON.stringify(got)}, zhkit lichess ${JSON.stringify(want[i][2])}`);
  });
} else if (mode === 'pgn') {
  // zhkit's positions, per game number (1-based, in file order).
  const want = new Map();
  for (const [label, variant, fen] of readTsv(b)) {
    const g = +label.split(':').at(-2);
    if (!want.has(g)) want.set(g, { variant, fens: [] });
    want.get(g).fens.push(fen);
  }
  let game = 0;
  const parser = new PgnParser((g, err) => {
    if (err) throw err;
    game++;
    const w = want.get(game);
    if (!w) { bad.push(`game ${game}: zhkit replayed no position`); return; }
    if (!RULES.has(w.variant)) { skipped++; return; }
    n++;
    const posR = startingPosition(g.headers);
    if (posR.isErr) { bad.push(`game ${game}: startingPosition: ${posR.error.message}`); return; }
    const pos = posR.value;
    const got = [makeFen(pos.toSetup())];
    let ply = 0;
    for (const node of g.moves.mainline()) {
      ply++;
      const m = parseSan(pos, node.san);
      if (!m) { bad.push(`game ${game}, ply ${ply}: chessops cannot play ${node.san} in ${makeFen(pos.toSetup())}`); return; }
      pos.play(m);
      got.push(makeFen(pos.toSetup()));
    }
    if (got.length !== w.fens.length) {
      bad.push(`game ${game}: chessops played ${got.length - 1} plies, zhkit ${w.fens.length - 1}`);
      return;
    }
    for (let i = 0; i < got.length; i++) {
      if (norm(got[i]) !== norm(w.fens[i])) {
        bad.push(`game ${game}, ply ${i}: chessops ${got[i]}, zhkit ${w.fens[i]}`);
        return;
      }
    }
  });
  parser.parse(fs.readFileSync(a, 'utf8'));
  if (game !== want.size) bad.push(`chessops read ${game} games, zhkit replayed ${want.size}`);
} else {
  console.error('usage: chessops_check.mjs fen FED.tsv WANT.tsv | pgn PGN WANT.tsv');
  process.exit(2);
}
for (const m of bad.slice(0, 20)) console.log(m);
console.log(`chessops_check ${mode}: ${n} ${mode === 'fen' ? 'positions' : 'games'} checked, ${bad.length} disagree, ${skipped} not chessops variants${known ? `, ${known} over chessops' 64-men limit` : ''}${clocks ? `, ${clocks} with a halfmove clock over chessops' 150` : ''}`);
process.exit(bad.length ? 1 : 0);
