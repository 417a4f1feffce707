"""Tables.to_pandas: flat columns, text decoded, dates as dates; the
values are the table's."""
import os

import numpy as np
import pytest

from conftest import GAMES, ROOT
import zhkit

pd = pytest.importorskip('pandas')


def test_games_frame():
    f = os.path.join(ROOT, 'testdata/pgn/pychess-zh.pgn')
    t = zhkit.read(f)
    df = t.to_pandas('games')
    assert len(df) == len(t.games)
    assert all(df[c].ndim == 1 for c in df.columns)
    assert df['date'].dtype.kind == 'M'
    assert (df['date'].dt.strftime('%Y.%m.%d').values ==
            t.games['date'].astype(str)).all()
    assert list(df['site'])[0] == t.games['site'][0].decode()
    assert (df['elo_white'].values == t.games['elo'][:, 0, 0]).all()
    assert (df['elo_black'].values == t.games['elo'][:, 0, 1]).all()
    assert set(df['variant']) == {'crazyhouse'}
    assert set(df['file']) == {f}


def test_positions_and_bughouse_frames():
    t = zhkit.read(GAMES)
    df = t.to_pandas('positions')
    assert len(df) == len(t.positions)
    assert (df['board_e1'].values == t.positions['board'][:, 0, 4]).all()
    assert (df['pocket_black_Q'].values ==
            t.positions['pockets'][:, 1, 4]).all()
    assert (df['clock_white'].values == t.positions['clock'][:, 0]).all()
    assert df['uci'].map(type).eq(str).all()
    b = t.to_pandas('bughouse')
    assert len(b) == len(t.bughouse) > 0
    assert (b['board_B_e8'].values == t.bughouse['board'][:, 1, 7, 4]).all()
    assert (b['side_A'].values == t.bughouse['side'][:, 0]).all()
    # games without a date: NaT, not an error
    g = t.to_pandas('games')
    assert g['date'].isna().any() and g['date'].notna().any()
