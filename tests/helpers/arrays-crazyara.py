#!/usr/bin/python3
"""examples/crazyara_planes.py's planes against CrazyAra's own:

  arrays-crazyara.py DIR MIN

For every crazyhouse game of DIR (zhreplay -F npy) that starts at ply 0,
python-chess replays the records' moves from the start record's
position; CrazyAra's board_to_planes (crazyhouse mode, version 3) gives
the planes of each position, with the last eight moves from
python-chess's move stack and the repetition count from python-chess's
own positions; they must equal the example's, normalized and not, on at
least MIN positions.  PYTHONPATH has python-chess and CrazyAra
(../shared/peers, GPL: imported here, never copied).
"""
import os
import sys

import numpy as np

from DeepCrazyhouse.configs.main_config import main_config
main_config["mode"] = 0          # MODE_CRAZYHOUSE, before the imports below
main_config["version"] = 3
import chess                                              # noqa: E402
import chess.variant                                      # noqa: E402
from DeepCrazyhouse.src.domain.variants.input_representation import \
    board_to_planes                                       # noqa: E402
from DeepCrazyhouse.src.domain.variants.constants import NB_LAST_MOVES  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "examples"))
sys.path.insert(0, HERE)
import crazyara_planes                                    # noqa: E402
arrays_check = __import__("arrays-check")


def main():
    d, least = sys.argv[1], int(sys.argv[2])
    pos = np.load(os.path.join(d, "positions.npy"), mmap_mode="r")
    games = np.load(os.path.join(d, "games.npy"))
    keep = np.zeros(len(pos), bool)
    boards = []
    for g in games[games["variant"] == 0]:
        recs = pos[g["first"]:g["first"] + g["records"]]
        if len(recs) == 0 or recs[0]["ply"] != 0:
            continue
        b = chess.variant.CrazyhouseBoard(arrays_check.rec_fen(recs[0], True))
        keys = []
        for k, r in enumerate(recs):
            key = b._transposition_key()
            last = [b.move_stack[-i] if i <= len(b.move_stack) else None
                    for i in range(1, NB_LAST_MOVES + 1)]
            boards.append((b.copy(stack=False), keys.count(key), last))
            keys.append(key)
            keep[int(g["first"]) + k] = True
            if r["uci"]:
                b.push(chess.Move.from_uci(r["uci"].decode()))
    sel = pos[keep]
    diffs = 0
    for norm in (False, True):
        ours = crazyara_planes.planes(sel, normalize=norm, dtype=np.float64)
        for i, (b, occ, last) in enumerate(boards):
            want = board_to_planes(b, board_occ=occ, normalize=norm, mode=0,
                                   last_moves=last)
            if want.shape != (64, 8, 8) or not np.array_equal(ours[i], want):
                diffs += 1
                if diffs <= 5:
                    bad = sorted(set(np.nonzero(ours[i] != want)[0].tolist())) \
                        if want.shape == ours[i].shape else want.shape
                    print("position %d (game %d, ply %d, normalize %s, %s): "
                          "planes %s differ" % (i, sel[i]["game"], sel[i]["ply"],
                                                norm, b.fen(), bad))
    print("crazyara: %d positions, 64 planes, normalized and not: %d differences"
          % (len(boards), diffs))
    sys.exit(1 if diffs or len(boards) < least else 0)


main()
