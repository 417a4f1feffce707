#!/usr/bin/env python3
"""Run refperft.py (or, with --fs, Fairy-Stockfish through fsperft.py) over
perft files (id/variant/epd/perft format) and report agreement.
Usage: check_corpus.py [--fs] [--max-nodes N] FILE...
Entries without a 'variant' line take it from the file name (crazyhouse when
the name says so, else chess); 'standard' means chess; fischerandom and
entries above --max-nodes (default 300000) are skipped."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refperft

def entries(path):
    base = os.path.basename(path)
    default = "crazyhouse" if "crazyhouse" in base else "chess"
    cur = None
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, _, val = line.partition(" ")
        if key == "id":
            cur = dict(id=val, variant=default, perft=[])
            yield cur
        elif key == "variant" and cur is not None:
            cur["variant"] = "chess" if val == "standard" else val
        elif key == "epd" and cur is not None:
            cur["epd"] = val
        elif key == "perft" and cur is not None:
            d, n = val.split()
            cur["perft"].append((int(d), int(n)))

def main(argv):
    maxn = 300000
    use_fs = False
    while argv[:1] in (["--max-nodes"], ["--fs"]):
        if argv[0] == "--fs":
            use_fs = True; argv = argv[1:]
        else:
            maxn = int(argv[1]); argv = argv[2:]
    if use_fs:
        from fsperft import fs_perft
    ok = bad = skip = 0
    for path in argv:
        for e in list(entries(path)):
            if e["variant"] not in refperft.RULES or "epd" not in e:
                skip += len(e["perft"]); continue
            for d, n in e["perft"]:
                if n > maxn:
                    skip += 1; continue
                if use_fs:
                    got = fs_perft(e["variant"], e["epd"], d)[0]
                else:
                    got = refperft.perft(refperft.parse_fen(e["variant"], e["epd"]), d)
                if got == n:
                    ok += 1
                else:
                    bad += 1
                    print("MISMATCH %s %s d%d: expected %d got %d  [%s]" % (path, e["id"], d, n, got, e["epd"]))
    print("%d passed, %d failed, %d skipped" % (ok, bad, skip))
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
