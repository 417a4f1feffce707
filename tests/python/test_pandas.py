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
    assert list(df['site']) == t.text('site')
    assert 'site_off' not in df.columns and 'white_len' not in df.columns
    assert all(isinstance(v, str) for v in df['white'])
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


def test_text_columns_whole(tmp_path):
    """#39: the games' text fields whole in to_pandas() and Tables.text,
    equal to zhpgn --json's tags, past the old 16-byte width and not
    ASCII; the games.npy file's flat fields make a DataFrame."""
    import json
    import subprocess
    from conftest import BIN
    pgn = tmp_path / 't.pgn'
    term = 'Jürgen won by checkmate after a long and winding game'
    pgn.write_text('[Event "a"]\n[Site "https://lichess.org/AbCd"]\n'
                   '[White "Jürgen_Müller-Lüdenscheidt"]\n'
                   '[Black "Алексей Ёлкин 李小龍"]\n[Result "1-0"]\n'
                   '[Variant "Crazyhouse"]\n[Termination "%s"]\n\n'
                   '1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n'
                   '[Event "b"]\n[Site "Chess.com"]\n'
                   '[Link "https://www.chess.com/game/live/1"]\n'
                   '[White "Ça"]\n[Black "b"]\n[Result "*"]\n'
                   '[Variant "Crazyhouse"]\n\n1. e4 *\n' % term,
                   encoding='utf-8')
    files = [str(pgn)] + GAMES
    t = zhkit.read(files)
    p = subprocess.run([BIN + '/zhpgn', '-q', '-J'] + files,
                       capture_output=True, text=True)
    tags = {(o['file'], o['game']): o['tags'] for o in
            map(json.loads, p.stdout.splitlines())}
    df = t.to_pandas('games')
    long_ = 0
    for i, g in enumerate(t.games):
        tg = tags[(t.files[g['file']], int(g['number']))]
        two = g['variant'] == zhkit.variants().index('bughouse')
        white = tg.get('WhiteA', tg.get('White', '')) if two else \
            tg.get('White', '')
        ident = tg.get('GameId') or next(
            (tg[n] for n in ('Link', 'Site') if '://' in tg.get(n, '')), '')
        for col, want in (('white', white), ('id', ident),
                          ('termination', tg.get('Termination', ''))):
            assert df[col][i] == want, (col, i)
        long_ += len(df['termination'][i]) > 16
    assert long_ > 0
    assert df['termination'][0] == term
    assert df['black'][0] == 'Алексей Ёлкин 李小龍'
    assert df['id'][1] == 'https://www.chess.com/game/live/1'
    # the file's flat fields, as pandas takes a structured array's
    out = tmp_path / 'npy'
    subprocess.run([BIN + '/zhreplay', '-q', '-F', 'npy', '-o', str(out)] +
                   files, capture_output=True)
    g = np.load(out / 'games.npy')
    s = np.load(out / 'strings.npy')
    flat = pd.DataFrame({n: g[n] for n in g.dtype.names
                         if g.dtype.fields[n][0].shape == ()})
    assert len(flat) == len(t.games)
    o, n = flat['black_off'][0], flat['black_len'][0]
    assert bytes(s[o:o + n]).decode() == 'Алексей Ёлкин 李小龍'


def test_empty_tables_frames():
    t = zhkit.read(b'')
    for name in ('games', 'positions', 'bughouse'):
        assert len(t.to_pandas(name)) == 0
    assert 'white' in t.to_pandas('games').columns
