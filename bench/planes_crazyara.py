#!/usr/bin/python3
"""planes_crazyara.py PGN GAMES [VERSION] - CrazyAra's converter path, for
bench/run.sh's "planes" section: python-chess reads and replays the first
GAMES games of PGN and, for each position with a move after it,
CrazyAra's board_to_planes (normalize=False, as zhreplay -F planes
writes them), the repetition count (python-chess's transposition key),
the policy index (MV_LOOKUP, mirrored for Black) and the value, into
preallocated numpy arrays.  Prints {"positions": N, "seconds": S, "cpu": CPU seconds}.
python-chess and CrazyAra come from PYTHONPATH (../shared/peers: GPL,
benchmark use only).
"""
import io
import json
import sys
import time

import numpy as np

np.bool = bool
version = int(sys.argv[3]) if len(sys.argv) > 3 else 3
from DeepCrazyhouse.configs.main_config import main_config  # noqa: E402

main_config['mode'] = 0
main_config['version'] = version
import chess  # noqa: E402
import chess.pgn  # noqa: E402
import chess.variant  # noqa: E402
from DeepCrazyhouse.src.domain.variants.input_representation import board_to_planes  # noqa: E402
from DeepCrazyhouse.src.domain.variants.constants import (  # noqa: E402
    MV_LOOKUP, MV_LOOKUP_MIRRORED, NB_LAST_MOVES)

VALUES = {'1-0': 1, '0-1': -1, '1/2-1/2': 0}


def first_games(pgn, n):
    out, k = [], 0
    with open(pgn, encoding='utf-8', errors='replace') as f:
        for line in f:
            if line.startswith('[Event '):
                k += 1
                if k > n:
                    break
            out.append(line)
    return ''.join(out)


text = first_games(sys.argv[1], int(sys.argv[2]))
t = time.perf_counter()
cpu = time.process_time()
f = io.StringIO(text)
planes, policy, value = [], [], []
while True:
    game = chess.pgn.read_game(f)
    if game is None:
        break
    res = game.headers.get('Result')
    if res not in VALUES or game.errors:
        continue
    board = chess.variant.CrazyhouseBoard()
    seen, last = {}, []
    for move in game.mainline_moves():
        key = board._transposition_key()
        occ = seen.get(key, 0)
        seen[key] = occ + 1
        hist = (last[::-1] + [None] * NB_LAST_MOVES)[:NB_LAST_MOVES]
        planes.append(board_to_planes(board, board_occ=occ, normalize=False, mode=0,
                                      last_moves=hist if version > 1 else None).astype(np.int8))
        black = board.turn == chess.BLACK
        policy.append((MV_LOOKUP_MIRRORED if black else MV_LOOKUP)[move.uci()])
        value.append(VALUES[res] * (-1 if black else 1))
        board.push(move)
        last.append(move)
x = np.stack(planes)
p = np.array(policy, dtype=np.int16)
v = np.array(value, dtype=np.int8)
t = time.perf_counter() - t
cpu = time.process_time() - cpu
print(json.dumps({'positions': len(p), 'seconds': t, 'cpu': cpu}))
