#!/usr/bin/env python3
"""Query latency of `zhindex query -J IDX -`: one process, FENs written one
at a time, each answer's time from the FEN written to its line read.

  index_query.py ZHINDEX IDX FENFILE [N]

Prints JSON: queries, warm p50/p99/max in ms (the first 100 answers are
the warm-up and not counted), and the first answer's ms after the
process started (its page cache warm, SQLite's cold)."""
import json
import subprocess
import sys
import time

zhindex, idx, fens = sys.argv[1:4]
n = int(sys.argv[4]) if len(sys.argv) > 4 else 10000
lines = [l.rstrip("\n") for l in open(fens) if l.strip()][:n]
t0 = time.perf_counter()
p = subprocess.Popen([zhindex, "query", "-J", idx, "-"], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, text=True, bufsize=1)
times = []
for i, fen in enumerate(lines):
    t = time.perf_counter()
    p.stdin.write(fen + "\n")
    p.stdin.flush()
    if not p.stdout.readline():
        sys.exit("index_query: no answer to " + fen)
    now = time.perf_counter()
    times.append(now - (t0 if i == 0 else t))
p.stdin.close()
p.wait()
first = times[0]
warm = sorted(times[100:]) or sorted(times)
pct = lambda q: warm[min(len(warm) - 1, int(q * len(warm)))] * 1000
print(json.dumps({"queries": len(times), "first_ms": round(first * 1000, 3),
                  "p50_ms": round(pct(0.5), 4), "p99_ms": round(pct(0.99), 4),
                  "max_ms": round(warm[-1] * 1000, 4)}))
