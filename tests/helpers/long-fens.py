#!/usr/bin/env python3
"""Long FENs built by construction, for tests/long-fen.bats.

A position's pocket of N of every droppable piece, written in each
dialect's order (zhkit(7)'s dialect table: lichess a 9th rank, white's
PNBRQ(AC) then black's; xboard brackets in the same order; chesscom a
7th field, C A Q R B N P; fairy brackets in chesscom's order).  The
expected text is put together here from the counts, letter by letter,
so the tools' FEN writer is checked against a string it did not make.

usage: long-fens.py N VARIANT DIALECT [fen|epd|board|pocket]
"""
import sys

BOARD = {
    "crazyhouse": ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "KQkq", "PNBRQ"),
    "grandhouse": ("r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/"
                   "1NBQKCABN1/R8R", "-", "PNBRQAC"),
}
DESC = "CAQRBNP"   # chesscom's and fairy's order


def pocket(n, letters, dialect):
    order = letters if dialect in ("lichess", "xboard") else \
        "".join(c for c in DESC if c in letters)
    return "".join(c * n for c in order) + "".join(c.lower() * n for c in order)


def fen(n, variant, dialect, clocks=True):
    board, castle, letters = BOARD[variant]
    pk = pocket(n, letters, dialect)
    tail = " 0 1" if clocks else ""
    if dialect == "lichess":
        return f"{board}/{pk} w {castle} -{tail}"
    if dialect == "chesscom":
        return f"{board} w {castle} -{tail} {pk}"
    return f"{board}[{pk}] w {castle} -{tail}"


def main():
    n, variant, dialect = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    what = sys.argv[4] if len(sys.argv) > 4 else "fen"
    if what == "pocket":
        print(pocket(n, BOARD[variant][2], dialect))
    else:
        print(fen(n, variant, dialect, clocks=(what == "fen")))


main()
