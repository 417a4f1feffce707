#!/usr/bin/env python3
"""make_independent.py - (re)build testdata/perft/independent.perft.

Every count in that file is computed twice, by refperft.py (this directory)
and by Fairy-Stockfish 11.1 (fsperft.py, with testdata/fairy/variants.ini),
and written only when both agree.  A disagreement is printed and left out.
Usage: make_independent.py [-j N] [OUT]   (default OUT: testdata/perft/independent.perft)
Takes some minutes (the Python side is slow on purpose)."""
import os, sys, time
from multiprocessing import Pool
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refperft
from compare import compare

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# (id, variant, FEN, max depth, comment)
POSITIONS = [
    # --- upside-down chess: orthodox rules, no castling, far-side start
    ("upsidedown-start", "upsidedown", refperft.START["upsidedown"], 7,
     "Upside-down start (kings on the e-file). Pawns stand one step from promotion but are blocked by their own pieces."),
    ("wild5-start", "wild5", refperft.START["wild5"], 7,
     "ICS wild/5 start: the same game with the board turned round (kings on the d-file). It is the mirror image of upsidedown-start (no castling), so the counts are the same."),
    ("upsidedown-mid1", "upsidedown", "R1BQKB1R/P1PPPP1P/N7/5N2/8/2n5/p1ppppRp/1rbqkbnr b - - 0 1", 5,
     "Upside-down midgame (walk.py upsidedown 1 16 promo): Black promotes a2-a1 at once; White's promotions open up as its back-rank pieces leave."),
    ("upsidedown-mid2", "upsidedown", "RNBQK1NR/P1PPPPrP/7B/1N1n1N2/8/b6n/p1pppp1p/rb1qkb1r w - - 0 1", 4,
     "Upside-down midgame (walk.py upsidedown 2 16 promo): White promotes f7-f8, Black c2-c1 next; a black rook on g7."),
    ("upsidedown-mid3", "upsidedown", "1RBQKBNR/PQPPPP1P/8/2N5/r1n5/5q2/1ppp1pp1/1rb1krnr b - - 0 1", 4,
     "Upside-down midgame (walk.py upsidedown 6 16 promo): open position, queens out; Black promotes d2-d1, White a7-a8 next."),
    ("wild5-mid1", "wild5", "R2KQBBR/PBPPPP1P/N6N/8/8/2n2n2/pRpppppp/r1bkqb1r w - - 0 1", 4,
     "Wild/5 midgame (walk.py wild5 1 12 promo): White promotes c7-c8, Black g2-g1 next; a white rook on b2 among black pawns."),
    ("wild5-mid2", "wild5", "RB1KQB1R/PBPPPP1P/N5QN/r7/8/2n5/1ppppppp/1rbkqbnr w - - 0 1", 4,
     "Wild/5 midgame (walk.py wild5 3 12 promo): White promotes c7-c8."),
    # --- grandhouse: grand chess + drops
    ("grandhouse-start", "grandhouse", refperft.START["grandhouse"], 4,
     "Grandhouse start. Depths 1-4 equal grand's published counts (65, 4225, 259514, 15921643): no man can be taken before ply 3, so no drop comes before ply 5 (depth 5, about 10^9 nodes, is beyond the Python reference)."),
    ("grandhouse-pocket", "grandhouse", "r8r/1nbqkcabn1/ppppppp1pp/10/9P/10/10/PPPPPPPPp1/1NBQKC2N1/R5RAB1[p] b - - 0 5", 3,
     "Black pawn in hand (drops on ranks 9-4 only), black pawn on i3 inside its promotion zone with every type still on the board: it may not promote."),
    ("grandhouse-rank9-full", "grandhouse", "3r1n4/4P2k2/1P8/10/10/10/10/10/1NBQKCABN1/R8R w - - 0 1", 3,
     "White has every start piece (Q R R B B N N A C): the e9 pawn cannot go to rank 10 (no promotion available) and is frozen; b8-b9 only without promotion."),
    ("grand-rank9-full", "grand", "3r1n4/4P2k2/1P8/10/10/10/10/10/1NBQKCABN1/R8R w - - 0 1", 3,
     "Same position under plain grand rules."),
    ("grandhouse-rank9-q-r", "grandhouse", "3r1n4/4P2k2/1P8/10/10/10/10/10/1NB1KCABN1/9R w - - 0 1", 3,
     "White lacks its queen and a rook: e9 promotes only to Q or R (push or capture), b8-b9 with or without promotion to Q or R."),
    ("grand-rank9-q-r", "grand", "3r1n4/4P2k2/1P8/10/10/10/10/10/1NB1KCABN1/9R w - - 0 1", 3,
     "Same position under plain grand rules."),
    ("grandhouse-rank9-q-in-hand", "grandhouse", "3r1n4/4P2k2/1P8/10/10/10/10/10/1NB1KCABN1/9R[Qr] w - - 0 1", 3,
     "As grandhouse-rank9-q-r with a queen in White's hand: only pieces on the board count, so promotion to Q stays possible until the queen is dropped."),
    ("grandhouse-double-step", "grandhouse", "4k5/3p6/4p5/10/10/10/10/4P5/5P4/4K5[Pp] w - - 0 1", 3,
     "Double steps only from the 3rd rank: e3 (as if dropped there) may go e3-e5, f2 (dropped on the 2nd rank) only one step; black e8 double, d9 single; pawns in hand drop on ranks 2-7 and may then double-step from the 3rd."),
    ("grandhouse-ep", "grandhouse", "4k5/10/10/10/10/3pP5/10/10/10/4K5[Nn] b - e4 0 1", 3,
     "En passant after a grand double step e3-e5: d5xe4 e.p."),
    ("grandhouse-promoted-capture", "grandhouse", "4k5/1P8/10/10/3Q~2r3/10/10/10/10/4K5[] b - - 0 1", 3,
     "Black Rxd6 takes a promoted queen, which goes to Black's hand as a pawn; with the queen gone, White's b9 pawn may promote to Q again."),
    ("grandhouse-drops-zone", "grandhouse", "r3k4r/10/10/10/10/10/10/10/10/R3K4R[Pp] w - - 0 1", 3,
     "Pawn drops near the promotion zone: White drops on ranks 2-7, Black on ranks 9-4."),
    ("grandhouse-mid1", "grandhouse", "6r3/1n1c2a1n1/pp2kpcpBr/2b3p3/1qp2P3p/1PPP6/6b1PP/PP2PPPP2/RNQ3ABN1/2K4R2[P] w - - 0 1", 3,
     "Grandhouse midgame (walk.py grandhouse 7 40): Black has a dropped second chancellor, White a pawn in hand."),
    # --- promoted pieces being captured: crazyhouse demotes, loop and chessgi keep the type
    ("crazyhouse-promoted-queen", "crazyhouse", "r3k3/8/8/Q~7/8/8/8/4K3[] b - - 0 1", 4,
     "Rxa5 takes a promoted queen: Black gets a pawn (crazyhouse)."),
    ("loop-promoted-queen", "loop", "r3k3/8/8/Q~7/8/8/8/4K3[] b - - 0 1", 4,
     "Rxa5 takes a promoted queen: Black gets a queen (loop)."),
    ("chessgi-promoted-queen", "chessgi", "r3k3/8/8/Q~7/8/8/8/4K3[] b - - 0 1", 4,
     "As loop-promoted-queen under chessgi rules."),
    ("crazyhouse-promoted-knight", "crazyhouse", "r3k2r/pPp2ppp/5N~2/8/4n~3/8/PpP2PPP/R3K2R[NPn] b KQkq - 0 1", 4,
     "Black in check from a promoted knight; gxf6 puts a pawn in Black's hand (a type it had not), promotions on b8/a1/c1, castling rights."),
    ("loop-promoted-knight", "loop", "r3k2r/pPp2ppp/5N~2/8/4n~3/8/PpP2PPP/R3K2R[NPn] b KQkq - 0 1", 4,
     "As above under loop: gxf6 puts a knight in hand."),
    ("chessgi-promoted-knight", "chessgi", "r3k2r/pPp2ppp/5N~2/8/4n~3/8/PpP2PPP/R3K2R[NPn] b KQkq - 0 1", 4,
     "As above under chessgi: White's pawn in hand may also be dropped on the 1st rank."),
]


def job(args):
    i, d = args
    pid, variant, fen, _, _ = POSITIONS[i]
    t0 = time.time()
    ok, n, report = compare(variant, fen, d)
    return i, d, ok, n, report, time.time() - t0


def main(argv):
    jobs = 2
    if argv[:1] == ["-j"]:
        jobs = int(argv[1]); argv = argv[2:]
    out = argv[0] if argv else os.path.join(ROOT, "testdata", "perft", "independent.perft")
    tasks = [(i, d) for i, e in enumerate(POSITIONS) for d in range(1, e[3] + 1)]
    tasks.sort(key=lambda t: -t[1])          # deep ones first
    results = {}
    bad = 0
    with Pool(jobs) as pool:
        for i, d, ok, n, report, dt in pool.imap_unordered(job, tasks):
            results[(i, d)] = (ok, n, report)
            tag = "agree %d" % n if ok else "\n".join(report)
            print("%-30s d%d %6.1fs %s" % (POSITIONS[i][0], d, dt, tag), flush=True)
            bad += not ok
    lines = [
        "# zhkit independent perft counts for variants without published numbers.",
        "# Every 'perft D N' line was computed by two independent methods that agree:",
        "#   (a) tests/ref/refperft.py, a plain-Python move generator written for zhkit",
        "#       (validated on published crazyhouse/grand/chess counts, see tests/ref/README);",
        "#   (b) Fairy-Stockfish 11.1 (Debian), `go perft D`, with grandhouse, upsidedown and",
        "#       wild5 defined in testdata/fairy/variants.ini; chess/crazyhouse/loop/chessgi/grand built in.",
        "# Generated by tests/ref/make_independent.py; a count the two disagree on is left out.",
        "",
    ]
    for i, (pid, variant, fen, maxd, comment) in enumerate(POSITIONS):
        lines.append("# " + comment)
        lines.append("id " + pid)
        lines.append("variant " + variant)
        lines.append("epd " + fen)
        for d in range(1, maxd + 1):
            ok, n, report = results[(i, d)]
            if ok:
                lines.append("perft %d %d" % (d, n))
            else:
                lines.append("# depth %d left out: %s" % (d, report[0]))
        lines.append("")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        f.write("\n".join(lines))
    print("wrote %s (%d disagreements)" % (out, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
