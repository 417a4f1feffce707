"""zhkit: crazyhouse games (and their drop-chess relatives, bughouse
included) read at C speed, for Python.

    import zhkit
    t = zhkit.read('games.pgn.zst', jobs=2, tag='WhiteElo >= 2000')
    t.positions      # numpy structured array, zhreplay -F npy's positions.npy
    t.games          # games.npy;  t.bughouse: bughouse.npy
    t.text('white')  # a text field of the games (strings.npy), decoded
    t.read, t.written, t.rejected, t.duplicates, t.errors

The tables are the ones `zhreplay -F npy` writes (zhkit-arrays(5)), made
by the same C code and shared with its buffers without a copy.
"""
import ast
import io
import os
import re
import stat

import numpy as np

from . import _zhkit
from . import frame

__all__ = ['read', 'read_chunks', 'games', 'Board', 'Tables', 'Error', 'variants', 'dtype',
           'version', 'release_memory']

Error = _zhkit.Error
Board = _zhkit.Board
version = _zhkit.version
TABLES = ('positions', 'bughouse', 'games', 'strings')


def release_memory():
    """Give back to the system the memory of tables freed, which the next
    read would take (up to 256 MB is kept: zhkit-python(3)), and the
    buffers jobs=N's threads staged records in; its bytes."""
    return _zhkit.release_memory()


def variants():
    """The variants' names; a table's `variant` field is an index here."""
    return _zhkit.variants()


_dtypes = {}


def dtype(table):
    """The NumPy dtype of a table ('positions', 'bughouse', 'games',
    'strings'): the one in the header `zhreplay -F npy` writes."""
    if table not in _dtypes:
        k = TABLES.index(table)
        head = _zhkit.header(k)
        d = ast.literal_eval(head[10:].decode('latin-1'))
        _dtypes[table] = np.lib.format.descr_to_dtype(d['descr'])
    return _dtypes[table]


# The options, as zhreplay spells them (the selection options are
# zhpgn's, zhkit(7)): True for a flag, False for one with a value.
_FLAGS = {
    'tag': False, 'player': False, 'game_variant': False,
    'ply_count': False, 'ending': False, 'only_valid': True,
    'only_invalid': True, 'position': False, 'dedupe': True,
    'max': False, 'invert': True,
    'plies': False, 'every': False, 'start_only': True,
    'final_only': True, 'default_variant': False, 'limit': False,
    'game_offset': False,
}


def _options(variant, jobs, selection):
    argv = []
    if variant is not None:
        if not isinstance(variant, str):
            raise TypeError('variant must be a str, not %s'
                            % type(variant).__name__)
        argv += ['--variant', variant]
    if isinstance(jobs, bool) or not isinstance(jobs, int):
        raise TypeError('jobs must be an int, not %s' % type(jobs).__name__)
    if jobs < 0:
        raise ValueError('jobs must be 0 (all cores) or more')
    argv += ['--jobs', str(jobs)]
    for key, value in selection.items():
        if key not in _FLAGS:
            raise TypeError('unexpected keyword argument %r (the options: '
                            '%s)' % (key, ', '.join(sorted(_FLAGS))))
        opt = '--' + key.replace('_', '-')
        if _FLAGS[key]:
            if not isinstance(value, bool):
                raise TypeError('%s must be True or False' % key)
            if value:
                argv.append(opt)
            continue
        if value is None:
            continue
        values = value if isinstance(value, (list, tuple)) else [value]
        for v in values:
            if isinstance(v, bool) or not isinstance(v, (str, int)):
                raise TypeError('%s must be a str or an int, not %s'
                                % (key, type(v).__name__))
            argv += [opt, str(v)]
    return argv


def _parquet_file(f, name):
    """Is file object f a Parquet file at its start, opened from the
    regular file its name still names?"""
    try:
        if not isinstance(name, str) or f.tell() != 0:
            return False
        st, fst = os.stat(name), os.fstat(f.fileno())
        if (st.st_dev, st.st_ino) != (fst.st_dev, fst.st_ino) or \
                not stat.S_ISREG(st.st_mode):
            return False
        with open(name, 'rb') as g:
            return g.read(4) == b'PAR1'
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return False


def _sources(sources):
    if isinstance(sources, (str, bytes, bytearray, memoryview, os.PathLike)) \
            or hasattr(sources, 'read'):
        sources = [sources]
    try:
        sources = list(sources)
    except TypeError:
        raise TypeError('sources must be a path, bytes, a file object or a '
                        'list of them, not %s' % type(sources).__name__) \
            from None
    out = []
    for s in sources:
        if isinstance(s, (bytes, bytearray, memoryview)):
            out.append(('bytes', s, '<bytes>'))
        elif isinstance(s, (str, os.PathLike)):
            p = os.fsdecode(s)
            with open(p, 'rb'):     # FileNotFoundError and such, here
                pass
            out.append(('path', None, p))
        elif hasattr(s, 'read'):
            if getattr(s, 'closed', False):
                raise ValueError('I/O operation on closed file')
            name = getattr(s, 'name', None)
            if _parquet_file(s, name):    # read by seeking: by its path
                out.append(('path', None, name))
                continue
            out.append(('file', s, name if isinstance(name, str)
                        else '<file>'))
        else:
            raise TypeError('a source must be a path, bytes or a file '
                            'object, not %s' % type(s).__name__)
    return out


_DIAG = re.compile(r'^[^:]*: (.*):(\d+):(\d+): (error|warning): (.*)$')
_ANSI = re.compile(r'\x1b\[[0-9;]*[A-Za-z]')


def _errors(text):
    """The diagnostics' lines as Error objects (file, line, col, message,
    severity)."""
    out = []
    for ln in _ANSI.sub('', text).splitlines():
        m = _DIAG.match(ln)
        if m is None:
            continue
        e = Error(m.group(5))
        e.file, e.line, e.col = m.group(1), int(m.group(2)), int(m.group(3))
        e.message, e.severity = m.group(5), m.group(4)
        out.append(e)
    return out


def _failure(d):
    """Raise what stopped an input (a read error, a broken archive)."""
    text = _ANSI.sub('', d['failures'])
    for ln in text.splitlines():
        msg = ln.split(': ', 1)[1] if ': ' in ln else ln
        if 'warning:' in msg:
            continue
        name, _, why = msg.partition(': ')
        e = Error(msg)
        e.file, e.line, e.col, e.message = name, 0, 0, why or msg
        e.severity = 'error'
        raise e
    raise Error('an input could not be read')


class Tables:
    """The tables of one read (or of one chunk of read_chunks): NumPy
    structured arrays `positions`, `bughouse`, `games` (zhkit-arrays(5)),
    `strings` (the bytes the games' text fields X_off, X_len point into,
    `strings_base` the offset of its first byte: 0 but in read_chunks'
    later chunks; text(X) decodes them),
    `files` (the inputs' names: a game's `file` indexes it), the counts
    `read` (games read), `written` (games in the tables), `rejected`
    (games with errors, not in the tables), `duplicates` (dropped by
    dedupe) and `errors` (the rejects' errors: Error objects with file,
    line, col and message)."""

    def __init__(self, d, errors):
        for name in TABLES:
            b = d[name]
            dt = dtype(name)
            self.__dict__[name] = (np.frombuffer(b, dtype=dt) if b is not None
                                   else np.zeros(0, dtype=dt))
        self.files = d['files']
        self.strings_base = frame.strings_base(self.games)
        self.read = d['read']
        self.written = len(self.games)
        self.rejected = d['rejected']
        self.duplicates = d['duplicates']
        self.errors = errors

    def __repr__(self):
        return ('<zhkit.Tables: %d positions, %d bughouse, %d games; '
                'read %d, rejected %d, duplicates %d>'
                % (len(self.positions), len(self.bughouse), len(self.games),
                   self.read, self.rejected, self.duplicates))

    def text(self, name):
        """The games' text field `name` ('white', 'black', 'white_b',
        'black_b', 'id', 'site', 'termination'), decoded (UTF-8, bad bytes
        replaced): a list, one str a game."""
        from . import frame
        return frame.text(self.games, self.strings, name, self.strings_base)

    def to_pandas(self, table='games'):
        """The table as a pandas DataFrame: flat columns, text decoded
        (the games' text fields as str columns), dates as dates (see
        zhkit.frame)."""
        from . import frame
        return frame.to_pandas(getattr(self, table), table, self.files,
                               self.strings if table == 'games' else None,
                               self.strings_base)


def _run(sources, variant, jobs, chunk, selection):
    argv = _options(variant, jobs, selection)
    return _zhkit.Reader(_sources(sources), argv, chunk)


def _tables(d):
    if d['io_failed']:
        _failure(d)
    return Tables(d, _errors(d['errors']))


def read(sources, variant=None, jobs=0, **selection):
    """Read games (a path, a compressed archive, bytes, a file object, or
    a list of them) into the tables of `zhreplay -F npy` (a Tables).

    variant: play every game as that variant (default: from its tags).
    jobs: threads (0: all cores); the tables are the same for any number.
    selection: zhpgn's selection options by keyword (tag='WhiteElo >= 2000',
    player=, game_variant=, ply_count=, ending=, only_valid=True,
    only_invalid=True, position=, dedupe=True, max=, invert=True),
    zhreplay's position options (plies='10-', every=, start_only=True,
    final_only=True), default_variant=, limit=, game_offset=.  A list
    gives an option more than once.
    """
    r = _run(sources, variant, jobs, 0, selection)
    try:
        for d in r:
            return _tables(d)
    finally:
        r.close()


def read_chunks(sources, variant=None, jobs=0, positions=1 << 20,
                **selection):
    """read(), a chunk at a time: yields a Tables of at least `positions`
    positions (cut between games; the last may have fewer), so memory
    stays bounded.  The chunks, concatenated, are read()'s tables (the
    games' `first` and the positions' `game` count across chunks); each
    chunk's counts are those so far, its errors those of its games."""
    if isinstance(positions, bool) or not isinstance(positions, int):
        raise TypeError('positions must be an int')
    if positions < 1:
        raise ValueError('positions must be 1 or more')
    r = _run(sources, variant, jobs, positions, selection)
    given = False
    try:
        for d in r:
            t = _tables(d)
            if given and d['last'] and len(t.games) == 0 and not t.errors:
                return      # the end, after a full chunk: nothing new
            given = True
            yield t
    finally:
        r.close()


def games(source, variant=None, dialect='lichess', fens=False):
    """The games of one input (a path, a compressed archive, bytes or a
    file object), one at a time, each a dict with the face of
    `zhpgn --json` (zhkit-json(5)): tags, variant, start, moves (san, uci,
    clock, eval, comment, nags, ...), result, ending, valid, errors;
    games of two boards (bughouse) as zhpgn writes them.

    variant: play every game as that variant; dialect: of the FENs and
    SAN written (lichess, xboard, chesscom, fairy); fens: a "fen" after
    every move (zhpgn --json --fens)."""
    import json
    src = _sources(source)
    if len(src) != 1:
        raise TypeError('games() reads one source')
    if variant is not None and not isinstance(variant, str):
        raise TypeError('variant must be a str')
    if not isinstance(dialect, str):
        raise TypeError('dialect must be a str')
    for text in _zhkit.Games(src[0], variant, dialect, bool(fens)):
        yield json.loads(text)
