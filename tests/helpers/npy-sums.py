"""npy-sums.py TABLE.npy - a zhkit .npy table's row count and a checksum
of each column of its Parquet twin (zhkit-arrays(5): a field of an axis
of two or eight is a column an element, named field_a/_b (a board's, in
bughouse and game tables), _white/_black, _pawn ... _chancellor; any
other shape one fixed-size byte string; a text field X_off, X_len of
games.npy one string column X, its bytes from strings.npy beside it), as
one JSON line in the form of tests/interop/parquet_sums.mjs.  Written from the NumPy layout alone,
not from the writer's code."""
import hashlib
import json
import os
import sys

import numpy as np

PIECES = ["pawn", "knight", "bishop", "rook", "queen", "king", "archbishop",
          "chancellor"]


def columns(name, arr, by_board, first=True):
    """(column name, array of rows) for a field's array arr (rows first)."""
    shape = arr.shape[1:]
    if not shape:
        yield name, arr
        return
    n = shape[0]
    board = by_board and first and n == 2
    if not board and n not in (2, 8):
        yield name, arr.reshape(len(arr), -1)
        return
    labels = ["a", "b"] if board else (["white", "black"] if n == 2 else PIECES)
    for i, lab in enumerate(labels):
        yield from columns(f"{name}_{lab}", arr[:, i], by_board, False)


def checksum(a):
    if a.dtype.kind in "SO":
        return hashlib.md5("\n".join(x.decode() for x in a).encode()).hexdigest()
    if a.ndim == 2:
        return hashlib.md5("".join(bytes(r).hex().upper() for r in a).encode()).hexdigest()
    v = [int(x) for x in a]
    return f"{sum(v)}:{sum(x * (i + 1) for i, x in enumerate(v))}"


def main():
    path = sys.argv[1]
    t = np.load(path)
    by_board = not path.endswith("positions.npy")
    cols = {}
    names = t.dtype.names
    for f in names:
        if f.endswith(("_off", "_len")) and \
                f[:-4] + ("_len" if f.endswith("_off") else "_off") in names:
            if f.endswith("_off"):
                s = np.load(os.path.join(os.path.dirname(path), "strings.npy"))
                cols[f[:-4]] = checksum(np.array(
                    [bytes(s[o:o + n]) for o, n in
                     zip(t[f].tolist(), t[f[:-4] + "_len"].tolist())],
                    dtype=object))
            continue
        for name, arr in columns(f, t[f], by_board):
            cols[name] = checksum(arr)
    print(json.dumps({"rows": len(t), "cols": dict(sorted(cols.items()))},
                     separators=(",", ":")))


main()
