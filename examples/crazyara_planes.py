#!/usr/bin/env python3
"""zhreplay's arrays -> CrazyAra's crazyhouse input planes, version 3.

    zhreplay -F npy -o arrays games.pgn
    python3 examples/crazyara_planes.py arrays planes.npy

writes one float32 array of shape (N, 64, 8, 8): the planes of every
record of arrays/positions.npy, as CrazyAra's input representation 3.0
for crazyhouse defines them (the network of the crazyhouse mode, 64
planes: the pieces, the repetitions, the en-passant square, castling,
the no-progress count, the last eight moves, the piece masks, a
checkerboard, material, opposite-coloured bishops, the checkers, the
pockets and the promoted pieces).  Everything is computed from the
arrays with numpy, a whole array at a time; python-chess is not needed.
The layout of the arrays is zhkit-arrays(5); the planes are described
in CrazyAra's DeepCrazyhouse/src/domain/variants (crazyhouse/v3 and
classical_chess/v3): this is an independent implementation of that
description, written for zhkit.

As a library: planes(positions, normalize=False) -> (N, 64, 8, 8).
Records of one game must be consecutive and in ply order (as zhreplay
writes them) for the last moves; a move before the first record of a
game, or before a record left out by --plies, is "no move".
"""
import sys

import numpy as np

NB_LAST_MOVES = 8
NORMALIZE_PIECES = 8        # the material planes
NORMALIZE_POCKETS = 32      # the pocket planes
NORMALIZE_50_MOVES = 40     # the no-progress plane (crazyhouse's value)

# piece codes of zhkit-arrays(5): type 1-6 = P N B R Q K for White, +8 Black
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = range(1, 7)
ROOK_DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))
BISHOP_DIRS = ((1, 1), (1, -1), (-1, 1), (-1, -1))
KNIGHT_JUMPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1),
                (-2, 1), (-1, 2))
KING_STEPS = ROOK_DIRS + BISHOP_DIRS


def _square_planes(n):
    return np.zeros((n, 8, 8), np.float32)


def _mark(plane, idx, rank, file):
    """plane[idx[k], rank[k], file[k]] = 1 where 0 <= rank, file < 8."""
    ok = (rank >= 0) & (rank < 8) & (file >= 0) & (file < 8)
    plane[idx[ok], rank[ok], file[ok]] = 1


def _at(board, rank, file):
    """The piece code at (rank, file) of each board, 0 off the board."""
    ok = (rank >= 0) & (rank < 8) & (file >= 0) & (file < 8)
    out = np.zeros(len(board), np.uint8)
    idx = np.nonzero(ok)[0]
    out[idx] = board[idx, rank[idx], file[idx]]
    return out


def _checkers(board, me, you_off):
    """The enemy pieces attacking the king of the side to move."""
    n = len(board)
    out = _square_planes(n)
    is_king = board == (KING + me)[:, None, None]
    has = is_king.reshape(n, -1).any(axis=1)
    flat = is_king.reshape(n, -1).argmax(axis=1)
    kr, kf = flat // 8, flat % 8
    rows = np.nonzero(has)[0]
    kr, kf, you = kr[rows], kf[rows], you_off[rows]
    b = board[rows]

    def enemy(code, types):
        t = code.astype(np.int16) - you
        return (code != 0) & np.isin(t, types) & (code >= you + 1) & \
            (code <= you + 8)

    for dr, df in KNIGHT_JUMPS:
        r, f = kr + dr, kf + df
        hit = enemy(_at(b, r, f), [KNIGHT])
        _mark(out, rows[hit], r[hit], f[hit])
    for dr, df in KING_STEPS:
        r, f = kr + dr, kf + df
        hit = enemy(_at(b, r, f), [KING])
        _mark(out, rows[hit], r[hit], f[hit])
    # a White king is attacked by Black pawns a rank above it, and so on
    pdir = np.where(you == 8, 1, -1)
    for df in (-1, 1):
        r, f = kr + pdir, kf + df
        hit = enemy(_at(b, r, f), [PAWN])
        _mark(out, rows[hit], r[hit], f[hit])
    for dirs, types in ((ROOK_DIRS, [ROOK, QUEEN]), (BISHOP_DIRS, [BISHOP, QUEEN])):
        for dr, df in dirs:
            open_ = np.ones(len(rows), bool)
            for d in range(1, 8):
                r, f = kr + d * dr, kf + d * df
                code = _at(b, r, f)
                hit = open_ & enemy(code, types)
                _mark(out, rows[hit], r[hit], f[hit])
                open_ &= code == 0
    return out


def no_progress(pos):
    """The no-progress count as CrazyAra's python-chess boards keep it:
    reset by a pawn move or a capture on the board, one more after any
    other move, a drop included.  zhkit's halfmove field (Lichess's
    rule) is also reset by a pawn drop: the two differ after one.  From
    the record's halfmove at a game's first record (or after a gap in
    the plies), then counted along the game's moves."""
    n = len(pos)
    hm = pos["halfmove"].astype(np.int64)
    if n == 0:
        return hm
    i = np.arange(1, n)
    j = i - 1
    cont = (pos["game"][j] == pos["game"][i]) & \
        (pos["ply"][j].astype(np.int64) + 1 == pos["ply"][i])
    frm = pos["move_from"][j].astype(np.int64)
    to = pos["move_to"][j].astype(np.int64)
    board = pos["board"].reshape(n, 100)
    moved = np.where(frm != 255, board[j, np.minimum(frm, 99)], 0)
    taken = np.where(to != 255, board[j, np.minimum(to, 99)], 0)
    zeroing = (frm != 255) & (((moved & 7) == PAWN) & (moved != 0) | (taken != 0))
    start = np.ones(n, bool)
    start[1:] = ~cont | zeroing
    base = np.where(start, np.where(np.concatenate(([True], ~cont)), hm, 0), 0)
    last = np.maximum.accumulate(np.where(start, np.arange(n), 0))
    return base[last] + np.arange(n) - last


def planes(pos, normalize=False, dtype=np.float32):
    """CrazyAra's 64 crazyhouse planes (v3) of every record of pos, as
    dtype (CrazyAra's own are float64: the values are computed so)."""
    n = len(pos)
    board = np.ascontiguousarray(pos["board"][:, :8, :8])
    # the promoted squares' bits (bit i % 8 of byte i // 8: square i)
    promoted = np.unpackbits(pos["promoted"], axis=1, count=100,
                             bitorder="little").reshape(n, 10, 10)
    promoted = np.ascontiguousarray(promoted[:, :8, :8]).astype(bool)
    side = pos["side"].astype(np.int16)
    black = side == 1
    me_off, you_off = 8 * side, 8 * (1 - side)
    x = np.zeros((n, 64, 8, 8), dtype)
    rel = board.astype(np.int16)
    mine = (rel >= me_off[:, None, None] + 1) & (rel <= me_off[:, None, None] + 8)
    theirs = (rel != 0) & ~mine
    typ = np.where(rel > 8, rel - 8, rel)
    # 0-11: my pieces P N B R Q K, then the opponent's
    for k, t in enumerate(range(PAWN, KING + 1)):
        x[:, k] = mine & (typ == t)
        x[:, 6 + k] = theirs & (typ == t)
    # 12-13: the position occurred before once, twice
    rep = pos["repetition"]
    x[:, 12] = (rep >= 1)[:, None, None]
    x[:, 13] = (rep >= 2)[:, None, None]
    # 14: the en-passant square (zhreplay writes it only when legal)
    ep = pos["ep"].astype(np.int16)
    has = ep != 255
    x[np.nonzero(has)[0], 14, ep[has] // 10, ep[has] % 10] = 1
    # 15-18: my king- and queen-side castling, the opponent's
    c = pos["castling"].astype(np.int16)
    wk, wq, bk, bq = c & 1, (c >> 1) & 1, (c >> 2) & 1, (c >> 3) & 1
    for k, v in enumerate((np.where(black, bk, wk), np.where(black, bq, wq),
                           np.where(black, wk, bk), np.where(black, wq, bq))):
        x[:, 15 + k] = v[:, None, None]
    # 19: the no-progress count
    hm = no_progress(pos).astype(np.float64)
    x[:, 19] = (hm / NORMALIZE_50_MOVES if normalize else hm)[:, None, None]
    # 20-35: the last eight moves, the latest first: from (none for a
    # drop) and to
    game, ply = pos["game"], pos["ply"].astype(np.int64)
    for k in range(1, NB_LAST_MOVES + 1):
        i = np.arange(k, n)
        j = i - k
        ok = (game[j] == game[i]) & (ply[j] == ply[i] - k) & (pos["move_to"][j] != 255)
        i, j = i[ok], j[ok]
        to = pos["move_to"][j].astype(np.int16)
        frm = pos["move_from"][j].astype(np.int16)
        x[i, 20 + 2 * (k - 1) + 1, to // 10, to % 10] = 1
        d = frm != 255
        x[i[d], 20 + 2 * (k - 1), frm[d] // 10, frm[d] % 10] = 1
    # 36: Chess960 (never)
    # 37-38: all my pieces, all the opponent's
    x[:, 37] = mine
    x[:, 38] = theirs
    # 39: a checkerboard, 0 on a1 (flipped below with the rest: rank 8's
    # pattern starts with 1 and so does rank 1's, mirrored)
    # 40-44: my material minus the opponent's, P N B R Q; 47-51: mine
    for k, t in enumerate(range(PAWN, QUEEN + 1)):
        m = (mine & (typ == t)).sum(axis=(1, 2)).astype(np.float64)
        y = (theirs & (typ == t)).sum(axis=(1, 2)).astype(np.float64)
        s = NORMALIZE_PIECES if normalize else 1
        x[:, 40 + k] = ((m - y) / s)[:, None, None]
        x[:, 47 + k] = (m / s)[:, None, None]
    # 45: one bishop each, on squares of opposite colours
    wb = (board == BISHOP)
    bb = (board == BISHOP + 8)
    one = (wb.sum(axis=(1, 2)) == 1) & (bb.sum(axis=(1, 2)) == 1)
    colour = np.indices((8, 8)).sum(axis=0) % 2
    opp = ((wb * colour).sum(axis=(1, 2)) != (bb * colour).sum(axis=(1, 2)))
    x[:, 45] = (one & opp)[:, None, None]
    # 46: the pieces giving check
    x[:, 46] = _checkers(board, me_off, you_off)
    # 52-61: my pockets P N B R Q, the opponent's
    pk = pos["pockets"].astype(np.float64)
    s = NORMALIZE_POCKETS if normalize else 1
    mypk = np.where(black[:, None], pk[:, 1, :5], pk[:, 0, :5]) / s
    yourpk = np.where(black[:, None], pk[:, 0, :5], pk[:, 1, :5]) / s
    x[:, 52:57] = mypk[:, :, None, None]
    x[:, 57:62] = yourpk[:, :, None, None]
    # 62-63: my promoted pieces, the opponent's
    x[:, 62] = promoted & mine
    x[:, 63] = promoted & theirs
    # the board from the side to move: Black's ranks upside down
    sq = [p for p in range(64) if p not in (12, 13, 15, 16, 17, 18, 19, 36,
                                            40, 41, 42, 43, 44, 45, 47, 48,
                                            49, 50, 51) and p < 52 or p >= 62]
    x[np.ix_(black, sq)] = x[np.ix_(black, sq)][:, :, ::-1, :]
    x[:, 39] = colour    # the same for both sides
    return x


def main():
    d, out = sys.argv[1], sys.argv[2]
    pos = np.load(d + "/positions.npy", mmap_mode="r")
    keep = pos["variant"] == 0          # crazyhouse records
    np.save(out, planes(pos[keep]))


if __name__ == "__main__":
    main()
