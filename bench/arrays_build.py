#!/usr/bin/python3
"""arrays_build.py MODE ... - the positions of an archive as numpy arrays,
three ways, for bench/run.sh's "arrays" section (Debian's python3 with
python3-numpy; python-chess from PYTHONPATH):

  arrays_build.py npy ZHREPLAY PGN DIR
      zhreplay -F npy -o DIR PGN, then the arrays opened in numpy and
      every board read once (the path "archive -> arrays in numpy")
  arrays_build.py pychess PGN GAMES
      python-chess reads the first GAMES games and builds the same
      arrays: board, pockets, promoted, side, castling, ep, halfmove,
      fullmove, repetition count, the move played
  arrays_build.py jsonl ZHREPLAY PGN GAMES
      zhreplay -F jsonl of the first GAMES games, each line json.loads'd
      and its FEN and members made into the same arrays

Each prints one JSON line: {"positions": N, "seconds": S}.  The slow
ways are timed on a subset and compared per position (bench/run.sh
scales them).
"""
import io
import json
import os
import subprocess
import sys
import time

import numpy as np

TYPES = "PNBRQKAC"
DTYPE = np.dtype([("board", "u1", (10, 10)), ("promoted", "?", (10, 10)),
                  ("pockets", "u1", (2, 8)), ("side", "u1"), ("castling", "u1"),
                  ("ep", "u1"), ("halfmove", "<u2"), ("fullmove", "<u2"),
                  ("repetition", "u1"), ("move_from", "u1"), ("move_to", "u1")])


def first_games(pgn, n):
    """The text of the first n games (split at [Event lines)."""
    out, k = [], 0
    with open(pgn, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("[Event "):
                k += 1
                if k > n:
                    break
            out.append(line)
    return "".join(out)


def npy(zhreplay, pgn, d):
    t = time.perf_counter()
    subprocess.run([zhreplay, "-q", "-F", "npy", "-o", d, pgn], check=True)
    p = np.load(os.path.join(d, "positions.npy"), mmap_mode="r")
    total = int(p["board"].sum(dtype=np.int64))   # every board read
    secs = time.perf_counter() - t
    return len(p), secs, total


def pychess(pgn, n):
    import chess
    import chess.pgn
    import chess.variant
    text = first_games(pgn, n)
    t = time.perf_counter()
    f = io.StringIO(text)
    recs = []
    while True:
        g = chess.pgn.read_game(f)
        if g is None:
            break
        b = g.board()
        seen = []
        moves = list(g.mainline_moves())
        for i in range(len(moves) + 1):
            r = np.zeros((), DTYPE)
            for s, pc in b.piece_map().items():
                r["board"][s // 8, s % 8] = pc.piece_type + 8 * (pc.color == chess.BLACK)
            for s in chess.SquareSet(getattr(b, "promoted", 0)):
                r["promoted"][s // 8, s % 8] = True
            if hasattr(b, "pockets"):
                for c, col in ((0, chess.WHITE), (1, chess.BLACK)):
                    for pt in range(1, 6):
                        r["pockets"][c, pt - 1] = b.pockets[col].count(pt)
            r["side"] = 0 if b.turn else 1
            r["castling"] = (b.has_kingside_castling_rights(chess.WHITE) +
                             2 * b.has_queenside_castling_rights(chess.WHITE) +
                             4 * b.has_kingside_castling_rights(chess.BLACK) +
                             8 * b.has_queenside_castling_rights(chess.BLACK))
            ep = b.ep_square if b.ep_square is not None and b.has_legal_en_passant() else None
            r["ep"] = 255 if ep is None else ep // 8 * 10 + ep % 8
            r["halfmove"], r["fullmove"] = b.halfmove_clock, b.fullmove_number
            key = b._transposition_key()
            r["repetition"] = seen.count(key)
            seen.append(key)
            if i < len(moves):
                m = moves[i]
                r["move_from"] = 255 if m.drop else m.from_square // 8 * 10 + m.from_square % 8
                r["move_to"] = m.to_square // 8 * 10 + m.to_square % 8
                b.push(m)
            else:
                r["move_from"] = r["move_to"] = 255
            recs.append(r)
    a = np.array(recs, DTYPE)
    return len(a), time.perf_counter() - t, int(a["board"].sum(dtype=np.int64))


def square(s):
    return (int(s[1:]) - 1) * 10 + ord(s[0]) - 97


def jsonl(zhreplay, pgn, n):
    text = first_games(pgn, n).encode()
    t = time.perf_counter()
    out = subprocess.run([zhreplay, "-q", "-F", "jsonl"], input=text,
                         stdout=subprocess.PIPE, check=True).stdout
    objs = [json.loads(l) for l in out.splitlines()]
    a = np.zeros(len(objs), DTYPE)
    seen, game = [], None
    for i, o in enumerate(objs):
        r = a[i]
        f = o["fen"].split()
        rows = f[0].split("[")[0].split("/")[:8]
        for k, row in enumerate(rows):
            rank, file = 7 - k, 0
            for ch in row:
                if ch.isdigit():
                    file += int(ch)
                elif ch != "~":
                    r["board"][rank, file] = TYPES.index(ch.upper()) + 1 + 8 * ch.islower()
                    file += 1
        for s in o["promoted"]:
            r["promoted"].flat[square(s)] = True
        for c, col in enumerate(("white", "black")):
            for p, k in o["pockets"][col].items():
                r["pockets"][c, TYPES.index(p)] = k
        r["side"] = o["side"] == "black"
        r["castling"] = sum(b for ch, b in zip("KQkq", (1, 2, 4, 8)) if ch in f[2])
        r["ep"] = 255 if f[3] == "-" else square(f[3])
        r["halfmove"], r["fullmove"] = int(f[4]), int(f[5])
        if o["game"] != game:
            seen, game = [], o["game"]
        key = " ".join(f[:4]) + str(o["promoted"])
        r["repetition"] = seen.count(key)
        seen.append(key)
        if o["move"] is not None and i > 0:
            u = o["move"]["uci"]
            a[i - 1]["move_to"] = square(u[2:4] if "@" not in u else u[2:])
            a[i - 1]["move_from"] = 255 if "@" in u else square(u[:2])
    return len(a), time.perf_counter() - t, int(a["board"].sum(dtype=np.int64))


def main():
    mode = sys.argv[1]
    if mode == "npy":
        n, s, _ = npy(*sys.argv[2:5])
    elif mode == "pychess":
        n, s, _ = pychess(sys.argv[2], int(sys.argv[3]))
    else:
        n, s, _ = jsonl(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    print(json.dumps({"positions": n, "seconds": round(s, 6)}))


main()
