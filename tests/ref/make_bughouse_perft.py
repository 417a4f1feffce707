#!/usr/bin/env python3
"""make_bughouse_perft.py [N] > testdata/perft/fs-bughouse.perft

Perft counts of one bughouse board (Fairy-Stockfish's variant `bughouse`:
crazyhouse whose captures do not go to the capturer's hand) for N
positions (default 60) taken at even steps from the generated games'
answers (testdata/bughouse/gen/answers.jsonl: each half-move's board FEN
with its holdings at that moment, written by tests/helpers/gen-bughouse.py from
Fairy-Stockfish's own positions).  Depth 3 counts, and depth 2."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from fsfbug import Engine  # noqa: E402

n = int(sys.argv[1]) if len(sys.argv) > 1 else 60
top = os.path.join(os.path.dirname(__file__), "..", "..")
fens = []
for line in open(os.path.join(top, "testdata/bughouse/gen/answers.jsonl")):
    for m in json.loads(line)["moves"]:
        fens.append(m["fen_before"])
step = max(1, len(fens) // n)
eng = Engine()
print("# Perft of one bughouse board, counted by " + eng.version.strip())
print("# (UCI_Variant bughouse: a capture does not go to the capturer's hand).")
print("# Positions: every %d-th half-move's board of testdata/bughouse/gen/answers.jsonl;" % step)
print("# made by tests/ref/make_bughouse_perft.py %d." % n)
for i, fen in enumerate(fens[::step][:n]):
    print()
    print("id bughouse-gen-%d" % (i * step))
    print("variant bughouse")
    print("epd " + fen)
    for d in (2, 3):
        eng._send("position fen " + fen)
        eng._send("go perft %d" % d)
        while True:
            l = eng._readline()
            if l.startswith("Nodes searched"):
                print("perft %d %s" % (d, l.split()[2]))
                break
