#!/usr/bin/env python3
"""check-broken.py ANSWERS DIR [ZHCHECK-OPTION...]: every row of ANSWERS
(testdata/bughouse/broken/answers.tsv, made by tests/helpers/gen-bughouse.py from
Fairy-Stockfish's positions, not by zhkit) is a problem that `zhcheck
--json` reports for that game of that file at that line, column, ply and
board, with that severity and code; and zhcheck reports nothing else.
Prints the misses and exits 1 if there is one."""
import csv
import json
import os
import subprocess
import sys

rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
opts = sys.argv[3:]
got = {}
for f in sorted({r["file"] for r in rows}):
    out = subprocess.run(["zhcheck", "--json", *opts, os.path.join(sys.argv[2], f)],
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        o = json.loads(line)
        got[(f, o["game"])] = o["errors"]
bad = 0
for r in rows:
    sev = r["severity"]
    if "--strict" in opts and r["code"] == "result":
        sev = "error"
    want = (int(r["line"]), int(r["col"]), int(r["ply"]), r["board"], sev, r["code"])
    have = [(e["line"], e["col"], e["ply"], e.get("board"), e["severity"], e["code"])
            for e in got.get((r["file"], int(r["game"])), [])]
    if want not in have:
        bad += 1
        print(f"{r['file']} game {r['game']} ({r['kind']}): want {want}, zhcheck says {have}")
for (f, g), errs in got.items():
    where = {(int(r["line"]), int(r["col"])) for r in rows
             if r["file"] == f and int(r["game"]) == g}
    for e in errs:
        if (e["line"], e["col"]) not in where:
            bad += 1
            print(f"{f} game {g}: not in the answers: {e}")
print(f"{len(rows)} answers, {bad} wrong")
sys.exit(1 if bad else 0)
