#!/usr/bin/env python3
"""check-bughouse-fens.py ANSWERS < zhreplay -F jsonl --to fairy output

Compares zhkit's replay of the generated games with the generator's
answers (testdata/bughouse/gen/answers.jsonl, whose FENs are
Fairy-Stockfish's, with the generator's '~' marks): before every
half-move, the moving board's FEN (board, holdings, side, castling,
clocks), and each half-move's board, side, label, UCI and SAN; the final
FENs of both boards.  The en passant field is compared only where both
write one (Fairy-Stockfish writes it when a capture is legal, zhkit's
fairy dialect when a pawn attacks the square).  Prints 'ok N' (half-moves
compared) or the differences, exit 1."""
import json
import sys


def norm(fen, ep_of_other):
    f = fen.split()
    if f[3] != "-" and ep_of_other == "-":
        f[3] = "-"
    return " ".join(f)


answers = [json.loads(l) for l in open(sys.argv[1])]
games = {}
for line in sys.stdin:
    o = json.loads(line)
    games.setdefault(o["game"], []).append(o)
bad = n = 0
for a in answers:
    pos = games.get(a["game"], [])
    if len(pos) != len(a["moves"]) + 1:
        print(f"game {a['game']}: {len(pos) - 1} half-moves replayed, {len(a['moves'])} in the answers")
        bad += 1
        continue
    for i, m in enumerate(a["moves"]):
        k = 0 if m["board"] == "A" else 1
        z = pos[i]["boards"][k]["fen"]
        want = m["fen_before"]
        zf, wf = z.split(), want.split()
        if norm(z, wf[3]) != norm(want, zf[3]):
            print(f"game {a['game']} half-move {i + 1} ({m['label']}. {m['san']}): zhkit {z}, answers {want}")
            bad += 1
        mv = pos[i + 1]["move"]
        got = (mv["board"], mv["mover"][0], mv["label"], mv["uci"], mv["san"])
        exp = (m["board"], m["side"], m["label"], m["uci"], m["san"])
        if got != exp:
            print(f"game {a['game']} half-move {i + 1}: zhkit {got}, answers {exp}")
            bad += 1
        n += 1
    for k, b in enumerate("AB"):
        z, want = pos[-1]["boards"][k]["fen"], a["final"][b]
        if norm(z, want.split()[3]) != norm(want, z.split()[3]):
            print(f"game {a['game']} final board {b}: zhkit {z}, answers {want}")
            bad += 1
    if bad > 20:
        break
print(f"ok {n}" if bad == 0 else f"{bad} differences")
sys.exit(1 if bad else 0)
