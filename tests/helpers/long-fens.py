#!/usr/bin/env python3
"""Long FENs built by construction, for tests/long-fen.bats.

A position with N of every droppable piece in each pocket (a FEN may
hold up to 200 of a piece), written in a dialect's form and order
(zhkit(7)'s dialect table: lichess a 9th rank, white's PNBRQ(AC) then
black's; xboard the same order in brackets; chesscom a 7th field in the
order C A Q R B N P, white's first; fairy brackets in chesscom's order).
The text is put together here, letter by letter from the counts, so
the tools' FEN writer is checked against a string it did not make.

usage: long-fens.py N VARIANT DIALECT [fen|epd|pocket] [X=COUNT ...]
    [board=RANKS] [side=w|b] [clocks="H F"]
X=COUNT sets one piece's count (Q=199: white's queens, q=3: black's).
"""
import sys

START = {
    "crazyhouse": ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "KQkq",
                   "PNBRQ"),
    "grandhouse": ("r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/"
                   "1NBQKCABN1/R8R", "-", "PNBRQAC"),
}
DESC = "CAQRBNP"   # chesscom's and fairy's order


def pocket(counts, letters, dialect):
    order = letters if dialect in ("lichess", "xboard") else \
        "".join(c for c in DESC if c in letters)
    return "".join(c * counts[c] for c in order) + \
        "".join(c.lower() * counts[c.lower()] for c in order)


def main():
    n, variant, dialect = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    what, over = "fen", {}
    for a in sys.argv[4:]:
        if "=" in a:
            k, v = a.split("=", 1)
            over[k] = v
        else:
            what = a
    board, castle, letters = START[variant]
    board = over.pop("board", board)
    side = over.pop("side", "w")
    clocks = over.pop("clocks", "0 1")
    counts = {c: n for c in letters + letters.lower()}
    counts.update({k: int(v) for k, v in over.items()})
    pk = pocket(counts, letters, dialect)
    if what == "pocket":
        print(pk)
        return
    tail = f" {side} {castle} -" + (" " + clocks if what == "fen" else "")
    if dialect == "lichess":
        print(f"{board}/{pk}{tail}")
    elif dialect == "chesscom":
        print(f"{board}{tail} {pk}")
    else:
        print(f"{board}[{pk}]{tail}")


main()
