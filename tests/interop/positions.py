#!/usr/bin/env python3
"""positions.py corpus DIALECT | plies DIALECT PGN...

Write `LABEL<TAB>VARIANT<TAB>FEN` lines: the positions the interop tests
hand to the peers, each as zhkit writes it in DIALECT.

  corpus  testdata/fen/corpus.tsv and the `epd` entries of
          testdata/perft/*.perft (variant from the entry; files without
          one are chess, or crazyhouse when the file name says so;
          Chess960 entries are left out), converted by `zhfen --to DIALECT`.
  plies   every position of every game of the PGN files, from
          `zhreplay --format jsonl --to DIALECT`; the variant of each game
          from `zhcheck --json`.
"""
import glob
import json
import os
import subprocess
import sys
from collections import defaultdict

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(TOP, "bin")
VARIANTS = {"crazyhouse", "loop", "chessgi", "grandhouse", "upsidedown", "wild5", "chess",
            "grand", "standard"}


def corpus_inputs():
    seen = set()
    with open(os.path.join(TOP, "testdata/fen/corpus.tsv")) as f:
        for n, line in enumerate(f, 1):
            v, fen = line.rstrip("\n").split("\t")[:2]
            if (v, fen) not in seen:
                seen.add((v, fen))
                yield f"corpus.tsv:{n}", v, fen
    for path in sorted(glob.glob(os.path.join(TOP, "testdata/perft/*.perft"))):
        base = os.path.basename(path)
        dflt = "crazyhouse" if "crazyhouse" in base else "chess"
        ident, v = None, dflt
        for line in open(path):
            w = line.split(None, 1)
            if not w:
                continue
            if w[0] == "id":
                ident, v = w[1].strip(), dflt
            elif w[0] == "variant":
                v = w[1].strip()
            elif w[0] == "epd":
                fen = w[1].strip()
                v2 = "chess" if v == "standard" else v
                if v2 in VARIANTS and (v2, fen) not in seen:
                    seen.add((v2, fen))
                    yield f"{base}:{ident}", v2, fen


def corpus(dialect):
    byvar = defaultdict(list)
    for rec in corpus_inputs():
        byvar[rec[1]].append(rec)
    for v, rs in byvar.items():
        p = subprocess.run([f"{BIN}/zhfen", "-q", "-j", "-v", v, "-t", dialect],
                           input="".join(r[2] + "\n" for r in rs), capture_output=True, text=True)
        for r, out in zip(rs, p.stdout.splitlines()):
            j = json.loads(out)
            if j["valid"]:
                print(f"{r[0]}\t{v}\t{j['fen']}")


def plies(dialect, files):
    for path in files:
        base = os.path.basename(path)
        chk = subprocess.run([f"{BIN}/zhcheck", "-q", "--json", path],
                             capture_output=True, text=True).stdout.splitlines()
        variant = {j["game"]: j["variant"] for j in map(json.loads, chk)}
        rep = subprocess.run([f"{BIN}/zhreplay", "-q", "-f", "jsonl", "-t", dialect, path],
                             capture_output=True, text=True).stdout.splitlines()
        for line in rep:
            j = json.loads(line)
            v = variant.get(j["game"])
            if v:
                print(f"{base}:{j['game']}:{j['ply']}\t{v}\t{j['fen']}")


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "corpus":
        corpus(sys.argv[2])
    elif len(sys.argv) >= 4 and sys.argv[1] == "plies":
        plies(sys.argv[2], sys.argv[3:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
