#!/usr/bin/env python3
"""Compare `zhindex query -J IDX -` (its answers, argv[1]) with
index-oracle.py's (argv[2]), position by position: the totals and every
move's W/D/L.  Prints the differences; exit 1 if any."""
import json
import sys

got = [json.loads(l) for l in open(sys.argv[1])]
want = [json.loads(l) for l in open(sys.argv[2])]
bad = 0
if len(got) != len(want):
    print("positions: %d answers, %d expected" % (len(got), len(want)))
    sys.exit(1)
for g, w in zip(got, want):
    gm = {m["uci"]: [m["white"], m["draws"], m["black"]] for m in g["moves"]}
    gt = [g["white"], g["draws"], g["black"]]
    wt = [w["white"], w["draws"], w["black"]]
    if gm != w["moves"] or gt != wt:
        bad += 1
        if bad <= 5:
            print("%s:\n  index  %s %s\n  oracle %s %s" % (w["fen"], gt, gm,
                                                         wt, w["moves"]))
print("%d positions, %d differ" % (len(want), bad))
sys.exit(1 if bad else 0)
