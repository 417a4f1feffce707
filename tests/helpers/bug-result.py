#!/usr/bin/python3
"""The team result of bughouse games in zhreplay -F npy's tables, checked.

Usage: bug-result.py DIR CHECK.jsonl [ANSWERS.jsonl FILE...]

DIR holds games.npy, bughouse.npy and files.npy (zhreplay -F npy);
CHECK.jsonl is zhcheck --json of the same inputs.  The expected result
is reckoned here from what zhcheck says of each game, not from the
tables: its result (the termination marker, else the Result tag) is the
team's (1-0: White on A and Black on B won) unless result_convention is
"board" and the game ended on board B, where 1-0 means board B's White
won, who plays with board A's Black: the team result is its negation.
Each game's record must hold it for White on board A, and each of its
positions for each board's side to move (board B's White is on board
A's Black's team).  With ANSWERS.jsonl (the generator's answers of
testdata/bughouse/gen, games in the order of each FILE), the team result is
also checked against the generator's own.

Prints "ok: G games (B by the board's convention), P positions" or each
difference, exit 1.
"""
import json
import sys

import numpy as np

CODE = {"1-0": 1, "0-1": -1, "1/2-1/2": 0}
NORESULT = -128


def main():
    d, check = sys.argv[1], sys.argv[2]
    games = np.load(d + "/games.npy")
    bug = np.load(d + "/bughouse.npy")
    files = [f.decode() for f in np.load(d + "/files.npy")]
    want = {}
    nboard = 0
    for line in open(check, encoding="utf-8"):
        o = json.loads(line)
        if o.get("variant") != "bughouse" or not o.get("valid"):
            continue
        c = CODE.get(o["result"], NORESULT)
        end = (o.get("ending") or {}).get("board")
        if o.get("result_convention") == "board" and end == "B" and \
                c != NORESULT:
            c = -c
            nboard += 1
        want[(o["file"], o["game"])] = c
    answers = {}
    if len(sys.argv) > 4:
        for i, line in enumerate(open(sys.argv[3], encoding="utf-8")):
            a = json.loads(line)
            for f in sys.argv[4:]:
                answers[(f, i + 1)] = CODE.get(a["result_team"], NORESULT)
    bad = 0
    seen = npos = 0

    def differ(what, got, exp):
        nonlocal bad
        bad += 1
        if bad <= 20:
            print("%s: %s, expected %s" % (what, got, exp))

    for g in games:
        k = (files[g["file"]], int(g["number"]))
        if g["variant"] != 8:
            continue
        name = "%s game %d" % k
        if k not in want:
            differ(name, "written", "not a valid game of zhcheck's")
            continue
        seen += 1
        t = want[k]
        if int(g["result"]) != t:
            differ(name + " result", int(g["result"]), t)
        if k in answers and answers[k] != t:
            differ(name + " zhcheck's reading against the generator's",
                   t, answers[k])
        for r in bug[g["first"]:g["first"] + g["records"]]:
            npos += 1
            for b in (0, 1):
                mine = t if t == NORESULT else \
                    (t if (b == 0) == (r["side"][b] == 0) else -t)
                if int(r["result"][b]) != mine:
                    differ("%s ply %d board %s result" %
                           (name, r["ply"], "AB"[b]), int(r["result"][b]),
                           mine)
    if seen != len(want):
        differ("games written", seen, len(want))
    nans = sum(k in answers for k in want)
    if answers and nans != len(answers):
        differ("games the answers name", nans, len(answers))
    if bad:
        print("%d differences" % bad)
        sys.exit(1)
    print("ok: %d games (%d by the board's convention, %d with the "
          "generator's answer), %d positions" % (seen, nboard, nans, npos))


main()
