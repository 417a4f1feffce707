#!/usr/bin/env python3
"""gen-random-games.py VARIANT GAMES PLIES SEED > FILE.pgn

Random legal games for the interop tests, played by zhkit itself
(`zhfen --moves` lists the moves, `zhreplay` plays the UCI movetext) and
written as SAN by `zhpgn --to fairy`.  Captures, drops and promotions are
preferred half of the time, so that pockets fill and promoted pieces get
captured.  The peers then replay the result independently: a game that
zhkit plays wrongly shows up as a disagreement there, not here.
Made testdata/interop/grandhouse-random.pgn with:
  tests/interop/gen-random-games.py grandhouse 6 120 8
"""
import os
import random
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
variant, games, plies, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rnd = random.Random(seed)
TAG = {"grandhouse": "Grandhouse", "crazyhouse": "Crazyhouse", "loop": "Loop",
       "chessgi": "Chessgi", "grand": "Grand"}[variant]


def pgn(n, moves, result="*"):
    tags = [("Event", "zhkit interop random game"), ("Site", "-"), ("Date", "????.??.??"),
            ("Round", str(n)), ("White", "random"), ("Black", "random"),
            ("Result", result), ("Variant", TAG)]
    body = " ".join(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m for i, m in enumerate(moves))
    return "".join(f'[{k} "{v}"]\n' for k, v in tags) + f"\n{body} {result}\n\n"


def run(args, text):
    return subprocess.run([os.path.join(TOP, "bin", args[0]), *args[1:]], input=text,
                          capture_output=True, text=True).stdout


out = []
for g in range(1, games + 1):
    moves = []
    for _ in range(plies):
        fen = run(["zhreplay", "-q", "--final-only", "-t", "fairy"], pgn(g, moves)).strip()
        legal = run(["zhfen", "-q", "-v", variant, "--moves"], fen + "\n").split()
        if not legal:
            break
        board = fen.split()[0].split("[")[0]
        # squares occupied: expand the board to find captures
        rows, occ = board.split("/"), set()
        h = len(rows)
        for r, row in enumerate(rows):
            f, num = 0, ""
            for c in row + " ":
                if c.isdigit():
                    num += c
                    continue
                if num:
                    f += int(num)
                    num = ""
                if c.isalpha():
                    occ.add(f"{chr(97 + f)}{h - r}")
                    f += 1
        spicy = [m for m in legal if "@" in m or len(m) > 4 and m[-1].isalpha()
                 or m[2:].rstrip("qrbnac") in occ]
        moves.append(rnd.choice(spicy if spicy and rnd.random() < 0.5 else legal))
    out.append(pgn(g, moves))
sys.stdout.write(run(["zhpgn", "-q", "-t", "fairy"], "".join(out)))
