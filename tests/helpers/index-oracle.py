#!/usr/bin/env python3
"""The W/D/L of every (position, move) of the first N plies, grouped from
`zhreplay -F jsonl` (stdin), independently of zhindex: a position is its
Lichess FEN without the two counters (the Lichess writer puts an
en-passant square only when a capture there is legal), a game counts
once per (position, move); the last position indexed (ply N, or the
game's end) has the move "" (none).

  index-oracle.py N fens   < jsonl   the positions' FENs, one a line
  index-oracle.py N answer < jsonl   one JSON object a position:
      {"fen", "white", "draws", "black", "moves": {uci: [w, d, b]}}
"""
import json
import sys
from collections import defaultdict

N = int(sys.argv[1])
games = defaultdict(list)
for line in sys.stdin:
    o = json.loads(line)
    games[(o.get("file"), o["game"])].append(o)

RES = {"1-0": 0, "1/2-1/2": 1, "0-1": 2}
agg = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))
first = {}
def bughouse(plies, res, seen):
    def add(fen, mv, b):
        short = " ".join(fen.split(" ")[:4])
        if (short, mv, b) in seen:
            return
        seen.add((short, mv, b))
        agg[short][mv][res if b == 0 else 2 - res] += 1
        first.setdefault(short, fen)
    n = [0, 0]
    pend = [plies[0]["boards"][b]["fen"] for b in range(2)]
    for o in plies[1:]:
        b = 0 if o["move"]["board"] == "A" else 1
        if n[b] < N:
            add(pend[b], o["move"]["uci"], b)
            n[b] += 1
            pend[b] = o["boards"][b]["fen"]
            if n[b] == N:
                add(pend[b], "", b)
        if n[1 - b] < N:
            pend[1 - b] = o["boards"][1 - b]["fen"]
    for b in range(2):
        if n[b] < N:
            add(pend[b], "", b)


for key, plies in games.items():
    plies.sort(key=lambda o: o["ply"])
    res = RES.get(plies[-1].get("result"))
    if res is None:
        continue
    seen = set()
    if "boards" in plies[0]:
        bughouse(plies, res, seen)
        continue
    last = min(N, len(plies) - 1)
    for i in range(last + 1):
        fen = " ".join(plies[i]["fen"].split(" ")[:4])
        mv = plies[i + 1]["move"]["uci"] if i < last else ""
        if (fen, mv) in seen:
            continue
        seen.add((fen, mv))
        agg[fen][mv][res] += 1
        first.setdefault(fen, plies[i]["fen"])

if sys.argv[2] == "fens":
    for fen in sorted(agg):
        print(first[fen])
else:
    for fen in sorted(agg):
        t = [sum(v[k] for v in agg[fen].values()) for k in range(3)]
        print(json.dumps({"fen": fen, "white": t[0], "draws": t[1],
                          "black": t[2], "moves": {m: v for m, v in
                          sorted(agg[fen].items()) if m}}))
