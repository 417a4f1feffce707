"""zhkit.games against zhpgn --json, field for field, on the test data
(every variant, bughouse)."""
import io
import json
import os
import subprocess

import pytest

from conftest import BIN, GAMES, ROOT
import zhkit


def zhpgn_json(path, *opts):
    p = subprocess.run([os.path.join(BIN, 'zhpgn'), '--json'] + list(opts) +
                       [path], capture_output=True)
    assert p.returncode in (0, 1), p.stderr
    return [json.loads(ln) for ln in p.stdout.decode().splitlines()]


@pytest.mark.parametrize('path', GAMES,
                         ids=[os.path.relpath(p, ROOT) for p in GAMES])
def test_games_equal_zhpgn_json(path):
    assert list(zhkit.games(path)) == zhpgn_json(path)


def test_games_options_and_sources(tmp_path):
    f = os.path.join(ROOT, 'testdata/pgn/pychess-zh.pgn')
    ref = zhpgn_json(f, '--to', 'xboard', '--fens')
    assert list(zhkit.games(f, dialect='xboard', fens=True)) == ref
    assert any('fen' in m for g in ref for m in g['moves'])
    data = open(f, 'rb').read()

    def nofile(gs):
        return [{k: v for k, v in g.items() if k != 'file'} for g in gs]
    assert nofile(zhkit.games(data)) == nofile(zhpgn_json(f))
    assert nofile(zhkit.games(io.BytesIO(data))) == nofile(zhpgn_json(f))
    assert [g['file'] for g in zhkit.games(data)] == ['<bytes>'] * len(ref)
    z = tmp_path / 'g.pgn.zst'
    with open(z, 'wb') as out:
        subprocess.run(['zstd', '-c', f], stdout=out, check=True)
    assert list(zhkit.games(str(z))) == zhpgn_json(str(z))
    assert list(zhkit.games(f, variant='loop')) == \
        zhpgn_json(f, '--variant', 'loop')


def test_games_bad_arguments(tmp_path):
    f = os.path.join(ROOT, 'testdata/pgn/pychess-zh.pgn')
    with pytest.raises(ValueError):
        next(zhkit.games(f, dialect='nosuch'))
    with pytest.raises(ValueError):
        next(zhkit.games(f, variant='nosuch'))
    with pytest.raises(TypeError):
        next(zhkit.games(12))
    with pytest.raises(FileNotFoundError):
        next(zhkit.games(str(tmp_path / 'none.pgn')))
    z = tmp_path / 'cut.pgn.zst'
    with open(z, 'wb') as out:
        subprocess.run(['zstd', '-c', f], stdout=out, check=True)
    z.write_bytes(z.read_bytes()[:300])
    with pytest.raises(zhkit.Error, match='zstd'):
        list(zhkit.games(z))
    g = zhkit.games(f)
    next(g)
    g.close()       # abandoned: its input closed
