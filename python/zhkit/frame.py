"""zhkit.frame: the tables as pandas DataFrames (Tables.to_pandas).

Flat columns: a field of more than one value becomes one column a value
(clock -> clock_white, clock_black; pockets -> pocket_white_P ...;
elo -> elo_white, elo_black (board A), elo_white_b, elo_black_b; the
board's squares board_a1 ... board_j10; other shapes name_i_j); text
fields decoded (UTF-8, bad bytes replaced), a text field kept in the
strings table (X_off, X_len) as one column X; the date a datetime64 (NaT
when the PGN has none or part of it); the variant and the file by
name, as categories.  Works from the dtype, so a field added to the
tables comes out too."""
import numpy as np

SIDES = ('white', 'black')
TYPES = 'PNBRQKAC'


def _names(field, shape, table):
    """The column names of a field of that shape."""
    idx = list(np.ndindex(*shape))
    two = table == 'bughouse'

    def side_type(i):
        return '%s_%s' % (SIDES[i[-2]], TYPES[i[-1]])
    if field == 'board' and shape[-2:] == (10, 10):
        sq = ['%s%d' % ('abcdefghij'[f], r + 1) for r in range(10)
              for f in range(10)]
        return ['board_' + ('AB'[i[0]] + '_' if two else '') +
                sq[i[-2] * 10 + i[-1]] for i in idx]
    if field == 'pockets' and shape[-2:] == (2, 8):
        return ['pocket_' + ('AB'[i[0]] + '_' if two else '') + side_type(i)
                for i in idx]
    if field == 'clock' and shape == (2,):
        return ['clock_white', 'clock_black']
    if field == 'clock' and shape == (2, 2):
        return ['clock_%s_%s' % ('AB'[i[0]], SIDES[i[1]]) for i in idx]
    if field == 'elo' and shape == (2, 2):
        return ['elo_white', 'elo_black', 'elo_white_b', 'elo_black_b']
    if two and shape == (2,):
        return ['%s_%s' % (field, b) for b in 'AB']
    return [field + '_' + '_'.join(str(k) for k in i) for i in idx]


def strings_base(games):
    """Where the strings of these games begin in strings.npy (a chunk's
    first game's first text field: each game's text fields follow its
    record's, in order)."""
    offs = [n for n in games.dtype.names if n.endswith('_off')]
    return int(min(games[0][n] for n in offs)) if len(games) and offs else 0


def text(games, strings, name, base=0):
    """The text field `name` of the games (its X_off, X_len into the
    strings table's bytes, which begin at offset `base`), decoded: a list
    of str."""
    b = np.asarray(strings, dtype=np.uint8).tobytes()
    off, n = games[name + '_off'], games[name + '_len']
    return [b[o - base:o - base + k].decode('utf-8', errors='replace')
            for o, k in zip(off.tolist(), n.tolist())]


def to_pandas(a, table, files=None, strings=None, base=0):
    import pandas as pd
    from . import variants
    cols = {}
    names = a.dtype.names
    for name in names:
        dt = a.dtype.fields[name][0]
        col = a[name]
        stem = name[:-4]
        if (strings is not None and name.endswith('_off') and
                stem + '_len' in names):
            cols[stem] = text(a, strings, stem, base)
            continue
        if (strings is not None and name.endswith('_len') and
                stem + '_off' in names):
            continue
        if dt.shape:
            flat = col.reshape(len(a), int(np.prod(dt.shape)))
            for k, cname in enumerate(_names(name, dt.shape, table)):
                cols[cname] = flat[:, k]
            continue
        if dt.kind == 'S':
            s = pd.Series(col).str.decode('utf-8', errors='replace')
            if name == 'date':
                s = pd.to_datetime(s, format='%Y.%m.%d', errors='coerce')
            cols[name] = s
        elif name == 'variant':
            cols[name] = pd.Categorical.from_codes(
                col.astype(np.int16), categories=variants())
        elif name == 'file' and files:
            cols[name] = pd.Categorical(np.array(files, dtype=object)[col])
        else:
            cols[name] = col
    return pd.DataFrame(cols)
