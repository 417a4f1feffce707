"""zhreplay -F planes against CrazyAra's own converter (tests only).

usage: oracle.py VERSION PGN DIR [MAXPOS]

DIR holds `zhreplay -F planes --planes-version VERSION --mask
--validation 0 --dtype float32` of PGN (one split, shards in order).
Replays PGN with python-chess's CrazyhouseBoard and, for every position
with a move after it, compares the planes with CrazyAra's
board_to_planes (normalize=False), the flat policy index with its
MV_LOOKUP (MV_LOOKUP_MIRRORED for Black), the legal mask with its
indices of python-chess's legal moves, and the value with the result
from the side to move.  CrazyAra and python-chess come from
PEERS (../shared/peers): GPL, used here as oracles only.
"""
import glob
import json
import os
import sys

import numpy as np

np.bool = bool  # CrazyAra predates numpy 1.24
version = int(sys.argv[1])
from DeepCrazyhouse.configs.main_config import main_config  # noqa: E402

main_config['mode'] = 0
main_config['version'] = version
import chess  # noqa: E402
import chess.pgn  # noqa: E402
import chess.variant  # noqa: E402
from DeepCrazyhouse.src.domain.variants.input_representation import board_to_planes  # noqa: E402
from DeepCrazyhouse.src.domain.variants.constants import (  # noqa: E402
    MV_LOOKUP, MV_LOOKUP_MIRRORED, NB_LAST_MOVES)
from DeepCrazyhouse.src.domain.variants.plane_policy_representation import FLAT_PLANE_IDX  # noqa: E402

pgn, outdir = sys.argv[2], sys.argv[3]
maxpos = int(sys.argv[4]) if len(sys.argv) > 4 else 1 << 60


def load(name):
    parts = sorted(glob.glob(os.path.join(outdir, 'train-*-%s.npy' % name)))
    return np.concatenate([np.load(p, mmap_mode='r') for p in parts])


planes, policy, value, mask = (load(n) for n in ('planes', 'policy', 'value', 'mask'))
man = json.load(open(os.path.join(outdir, 'manifest.json')))
assert man['planes_version'] == version, man
VALUES = {'1-0': 1, '0-1': -1, '1/2-1/2': 0}
i = 0
stats = {'positions': 0, 'black': 0, 'drops': 0, 'promotions': 0, 'ep': 0,
         'repeated': 0, 'checks': 0}
with open(pgn, encoding='utf-8', errors='replace') as f:
    while i < maxpos:
        game = chess.pgn.read_game(f)
        if game is None:
            break
        res = game.headers.get('Result')
        if res not in VALUES or game.errors:
            continue
        board = chess.variant.CrazyhouseBoard()
        seen = {}
        last = []
        for move in game.mainline_moves():
            if i >= maxpos:
                break
            key = board._transposition_key()
            occ = seen.get(key, 0)
            seen[key] = occ + 1
            hist = (last[::-1] + [None] * NB_LAST_MOVES)[:NB_LAST_MOVES]
            want = board_to_planes(board, board_occ=occ, normalize=False, mode=0,
                                   last_moves=hist if version > 1 else None)
            got = planes[i]
            if not np.array_equal(want, got):
                bad = sorted({int(c) for c in np.argwhere(want != got)[:, 0]})
                sys.exit('position %d (%s, move %s): planes %s differ' % (i, board.fen(), move.uci(), bad))
            black = board.turn == chess.BLACK
            look = MV_LOOKUP_MIRRORED if black else MV_LOOKUP
            k = look[move.uci()]
            if man['policy'] == 'map':
                k = FLAT_PLANE_IDX[k]
            if policy[i] != k:
                sys.exit('position %d (%s): move %s: policy %d, CrazyAra %d' % (i, board.fen(), move.uci(), policy[i], k))
            legal = np.zeros(mask.shape[1], dtype=np.uint8)
            for m in board.legal_moves:
                j = look[m.uci()]
                legal[FLAT_PLANE_IDX[j] if man['policy'] == 'map' else j] = 1
            if not np.array_equal(legal, mask[i]):
                sys.exit('position %d (%s): legal mask differs' % (i, board.fen()))
            v = VALUES[res] * (-1 if black else 1)
            if value[i] != v:
                sys.exit('position %d: value %d, want %d' % (i, value[i], v))
            stats['positions'] += 1
            stats['black'] += black
            stats['drops'] += move.drop is not None
            stats['promotions'] += move.promotion is not None
            stats['ep'] += board.is_en_passant(move)
            stats['repeated'] += occ > 0
            stats['checks'] += board.is_check()
            board.push(move)
            last.append(move)
            i += 1
if i != len(policy) and i < maxpos:
    sys.exit('zhreplay wrote %d positions, python-chess %d' % (len(policy), i))
print(json.dumps(stats))
