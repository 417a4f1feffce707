#!/usr/bin/env python3
"""compare.py - perft of one position by refperft.py and by Fairy-Stockfish.

Usage: compare.py VARIANT 'FEN'|startpos DEPTH
Prints 'agree N' (exit 0), or 'DISAGREE ref=N fs=M' followed by the path of
moves down to the first position whose move lists differ, and the moves
only one side generates there (exit 1)."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refperft
from fsperft import fs_perft


def ref_divide(p, depth):
    div = {}
    for m in refperft.legal_moves(p):
        div[refperft.uci(p, m)] = refperft.perft(refperft.make(p, m), depth - 1)
    return sum(div.values()), div


def play(p, u):
    for m in refperft.legal_moves(p):
        if refperft.uci(p, m) == u:
            return refperft.make(p, m)
    raise KeyError(u)


def compare(variant, fen, depth):
    if fen == "startpos":
        fen = refperft.START[variant]
    p = refperft.parse_fen(variant, fen)
    rt, rd = ref_divide(p, depth)
    ft, fd = fs_perft(variant, fen, depth)
    if rt == ft and rd == fd:
        return True, rt, []
    report = ["DISAGREE ref=%d fs=%d" % (rt, ft)]
    path = []
    while True:
        only_ref = sorted(set(rd) - set(fd))
        only_fs = sorted(set(fd) - set(rd))
        if only_ref or only_fs or depth == 1:
            report.append("  after moves: %s" % (" ".join(path) or "(none)"))
            report.append("  only ref: %s" % " ".join(only_ref))
            report.append("  only fs:  %s" % " ".join(only_fs))
            break
        diff = [m for m in sorted(rd) if rd[m] != fd[m]]
        m = diff[0]
        path.append(m)
        p = play(p, m)
        depth -= 1
        rt, rd = ref_divide(p, depth)
        ft, fd = fs_perft(variant, fen, depth, path)
    return False, None, report


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    ok, n, report = compare(argv[0], argv[1], int(argv[2]))
    if ok:
        print("agree", n)
        return 0
    print("\n".join(report))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
