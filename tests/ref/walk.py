#!/usr/bin/env python3
"""walk.py - reproducible random games, to pick test positions.

Usage: walk.py VARIANT SEED PLIES [promo]
Plays PLIES random legal moves from the start (random.Random(SEED)) and
prints the FEN reached; with 'promo', keeps walking until the side to move
has a promotion among its legal moves (at most 4*PLIES plies)."""
import os, random, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refperft as R

def main(argv):
    variant, seed, plies = argv[0], int(argv[1]), int(argv[2])
    want = argv[3] if len(argv) > 3 else None
    rng = random.Random(seed)
    p = R.parse_fen(variant, R.START[variant])
    for i in range(4 * plies):
        moves = R.legal_moves(p)
        if not moves:
            break
        if i >= plies and (want != "promo" or any(m[2] for m in moves)):
            break
        p = R.make(p, rng.choice(moves))
    print(R.to_fen(p))

if __name__ == "__main__":
    main(sys.argv[1:])
