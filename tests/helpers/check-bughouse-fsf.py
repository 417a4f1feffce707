#!/usr/bin/env python3
"""Check bughouse half-moves against Fairy-Stockfish (variant bughouse).

    tests/helpers/check-bughouse-fsf.py [--fsf PATH] < moves.jsonl

Each input line is a JSON object with at least "fen_before" (one board's
FEN with its holdings at that moment, in `[...]` or lichess `/...` form;
`~` marks are accepted) and "uci" (e2e4, e7e8q, N@f3); "board" and any
other keys are ignored except for the report.  A line may also be a whole
game as written by gen-bughouse.py to answers.jsonl (an object with a
"moves" list): its moves are checked in turn.

Prints `ok N` (N half-moves checked) when FSF lists every uci among the
legal moves of its fen_before; otherwise prints each failing half-move
(`FAIL line L: board B uci U not legal in FEN`) and exits 1.  One FSF
process; identical FENs are asked once.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fsfbug import Engine, FSF_PATH, to_bracket_form  # noqa


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fsf", default=FSF_PATH)
    a = ap.parse_args()
    eng = Engine(a.fsf)
    n = 0
    bad = 0
    legal_of = {}
    for lno, line in enumerate(sys.stdin, 1):
        line = line.strip()
        if not line:
            continue
        try:
            obj = json.loads(line)
        except ValueError as e:
            print("FAIL line %d: not JSON (%s)" % (lno, e))
            bad += 1
            continue
        items = (obj["moves"] if isinstance(obj, dict)
                 and isinstance(obj.get("moves"), list) else [obj])
        for i, m in enumerate(items):
            n += 1
            where = "line %d" % lno
            if items is not obj and isinstance(obj.get("moves"), list):
                where += " move %d" % (i + 1)
            try:
                fen = to_bracket_form(m["fen_before"])
                uci = m["uci"]
            except (KeyError, IndexError, ValueError, TypeError) as e:
                print("FAIL %s: bad record (%r)" % (where, e))
                bad += 1
                continue
            legal = legal_of.get(fen)
            if legal is None:
                legal = set(eng.query(fen)[2])
                legal_of[fen] = legal
            if uci not in legal:
                print("FAIL %s: board %s uci %s not legal in %s"
                      % (where, m.get("board", "?"), uci, m["fen_before"]))
                bad += 1
    eng.close()
    if bad:
        print("%d of %d half-moves failed" % (bad, n))
        sys.exit(1)
    print("ok %d" % n)


if __name__ == "__main__":
    main()
