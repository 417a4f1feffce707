"""Board.planes, policy_index, policy_map_index and policy_mask equal
what `zhreplay -F planes` writes (zhkit-planes(5)) for the positions of
testdata games, crazyhouse and chess, versions 1, 2 and 3: the tool is
the independent path (cli/planes.c replays and counts on its own);
versions 2 and 3 of 3 games also against CrazyAra itself (peers)."""
import glob
import os
import subprocess

import numpy as np
import pytest

from conftest import BIN, ROOT
import zhkit

ZH = os.path.join(ROOT, 'testdata', 'pgn', 'crazyara-engine_tournament.pgn')
CHESS = """[Event "t"]
[Variant "Standard"]
[Result "1/2-1/2"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O f6 6. d4 exd4 7. Nxd4 c5
8. Nb3 Qxd1 9. Rxd1 Bg4 10. f3 Be6 11. Nc3 Bd6 12. Bf4 g5 13. Bxd6 cxd6
1/2-1/2
"""


def first_games(path, n):
    out, k = [], 0
    for line in open(path, encoding='utf-8', errors='replace'):
        if line.startswith('[Event '):
            k += 1
        if k > n:
            break
        out.append(line)
    return ''.join(out)


@pytest.fixture(scope='module')
def pgn(tmp_path_factory):
    d = tmp_path_factory.mktemp('planes')
    p = d / 'g.pgn'
    p.write_text(first_games(ZH, 4) + '\n' + CHESS)
    return str(p)


def tool(pgn, outdir, *opts):
    subprocess.run([os.path.join(BIN, 'zhreplay'), '-q', '-F', 'planes',
                    '--validation', '0', '-o', outdir] + list(opts) + [pgn],
                   check=True)

    def load(name):
        parts = sorted(glob.glob(os.path.join(outdir,
                                              'train-*-%s.npy' % name)))
        return np.concatenate([np.load(f) for f in parts])
    return load


def positions(pgn):
    """(board, move) for each position with a move after it, as the
    tool writes them (games with a result, mainline)."""
    for g in zhkit.games(pgn):
        assert g['valid'] and g['result'] in ('1-0', '0-1', '1/2-1/2')
        b = zhkit.Board(g['start'], variant=g['variant']) if g['start'] \
            else zhkit.Board(variant=g['variant'])
        for m in g['moves']:
            yield b, m
            b.push(m['uci'])


@pytest.mark.parametrize('version', [1, 2, 3])
def test_planes_equal_zhreplay(pgn, tmp_path, version):
    load = tool(pgn, str(tmp_path / 'o'), '--planes-version', str(version),
                '--mask')
    planes, policy, mask = load('planes'), load('policy'), load('mask')
    i = 0
    variants = set()
    for b, m in positions(pgn):
        variants.add(b.variant)
        x = b.planes(version)
        assert x.dtype == planes.dtype and x.shape == planes.shape[1:]
        assert np.array_equal(x, planes[i]), (version, i, b.fen())
        assert b.policy_index(m['uci']) == policy[i]
        assert b.policy_index(m['san']) == policy[i]
        assert np.array_equal(b.policy_mask(), mask[i])
        i += 1
    assert i == len(planes) and i > 200
    assert variants == {'crazyhouse', 'chess'}


def test_map_and_floats_equal_zhreplay(pgn, tmp_path):
    load = tool(pgn, str(tmp_path / 'm'), '--policy', 'map', '--mask',
                '--planes-version', '2', '--dtype', 'float16', '--normalize')
    planes, policy, mask = load('planes'), load('policy'), load('mask')
    for i, (b, m) in enumerate(positions(pgn)):
        x = b.planes(2, dtype='float16', normalize=True)
        assert x.dtype == np.float16
        assert np.array_equal(x, planes[i])
        assert b.policy_map_index(m['uci']) == policy[i]
        assert np.array_equal(b.policy_mask(map=True), mask[i])
        if i % 50 == 0:     # float32 holds the same values (to f16's)
            assert np.allclose(b.planes(2, 'float32', True), x, rtol=1e-3)


def test_errors():
    b = zhkit.Board()
    for bad in (lambda: b.planes(4), lambda: b.planes(dtype='int16'),
                lambda: b.planes(3, 'uint8'),
                lambda: b.planes(2, 'int8', normalize=True),
                lambda: zhkit.Board(variant='bughouse').planes(),
                lambda: zhkit.Board(variant='bughouse').policy_mask(),
                lambda: zhkit.Board(variant='grandhouse').planes(),
                lambda: zhkit.Board(variant='grandhouse').policy_index('e4')):
        with pytest.raises(ValueError):
            bad()
    for bad in (lambda: b.planes('3'), lambda: b.planes(dtype=8),
                lambda: b.policy_index(5), lambda: b.policy_mask(map=[], x=1)):
        with pytest.raises(TypeError):
            bad()
    with pytest.raises(zhkit.Error):
        b.policy_index('e5')        # not legal for White


PEERS = os.environ.get('ZH_SHARED_PEERS', os.path.join(
    os.path.dirname(os.path.dirname(ROOT)), 'shared', 'peers'))
if not os.path.isdir(os.path.join(PEERS, 'crazyara', 'DeepCrazyhouse')):
    PEERS = '/work/shared/peers'
HAVE_CRAZYARA = os.path.isdir(os.path.join(PEERS, 'crazyara',
                                           'DeepCrazyhouse'))


@pytest.mark.skipif(not HAVE_CRAZYARA, reason='../shared/peers absent')
@pytest.mark.parametrize('version', [2, 3])
def test_crazyara_itself(tmp_path, version):
    """Board's tensors of 3 crazyhouse games against CrazyAra's own
    board_to_planes, MV_LOOKUP(_MIRRORED) and legal moves (the peer, GPL,
    run as tests/helpers/planes-oracle.py runs it on zhreplay's files)."""
    import json
    p = tmp_path / 'g.pgn'
    p.write_text(first_games(ZH, 3))
    rows = {'planes': [], 'policy': [], 'value': [], 'mask': []}
    values = {'1-0': 1, '0-1': -1, '1/2-1/2': 0}
    for g in zhkit.games(str(p)):
        b = zhkit.Board(variant='crazyhouse')
        for m in g['moves']:
            rows['planes'].append(b.planes(version, 'float32'))
            rows['policy'].append(b.policy_index(m['uci']))
            rows['value'].append(values[g['result']] *
                                 (1 if b.turn == 'white' else -1))
            rows['mask'].append(b.policy_mask())
            b.push(m['uci'])
    out = tmp_path / 'o'
    out.mkdir()
    for k, dt in (('planes', np.float32), ('policy', np.int16),
                  ('value', np.int8), ('mask', np.uint8)):
        np.save(out / ('train-00000-%s.npy' % k), np.array(rows[k], dt))
    (out / 'manifest.json').write_text(json.dumps(
        {'planes_version': version, 'policy': 'flat'}))
    env = dict(os.environ, PYTHONPATH=os.path.join(PEERS, 'python-chess') +
               ':' + os.path.join(PEERS, 'crazyara'))
    r = subprocess.run(['/usr/bin/python3', os.path.join(
        ROOT, 'tests', 'helpers', 'planes-oracle.py'), str(version), str(p),
        str(out)], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    assert json.loads(r.stdout.splitlines()[-1])['positions'] == \
        len(rows['policy']) > 100
