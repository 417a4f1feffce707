"""Hostile input through the module: an exception, never a crash."""
import io
import os
import subprocess

import pytest

from conftest import ROOT, data_files
import zhkit

ZH1K = os.path.join(ROOT, 'testdata/pgn/crazyara-1k_cz_lichess_startpos.pgn')


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(FileNotFoundError):
        zhkit.read(str(tmp_path / 'nope.pgn'))
    with pytest.raises(IsADirectoryError):
        zhkit.read(str(tmp_path))


def test_closed_and_text_file_objects(tmp_path):
    f = open(ZH1K, 'rb')
    f.close()
    with pytest.raises(ValueError):
        zhkit.read(f)
    with open(ZH1K) as text, pytest.raises(TypeError):
        zhkit.read(text)


class Failing(io.RawIOBase):
    """A file object whose read fails after a while."""
    def __init__(self):
        self.n = 0

    def read(self, n=-1):
        self.n += 1
        if self.n > 2:
            raise OSError('the disk is gone')
        return b'[Event "x"]\n\n1. e4 e5 *\n\n'


def test_file_object_raising():
    with pytest.raises(OSError, match='the disk is gone'):
        zhkit.read(Failing())


def test_wrong_types():
    for bad in (None, 42, 3.5, object(), [b'', 7]):
        with pytest.raises(TypeError):
            zhkit.read(bad)
    with pytest.raises(TypeError):
        zhkit.read(ZH1K, jobs='2')
    with pytest.raises(TypeError):
        zhkit.read(ZH1K, variant=3)
    with pytest.raises(TypeError):
        zhkit.read(ZH1K, no_such_option=1)
    with pytest.raises(TypeError):
        zhkit.read(ZH1K, dedupe='yes')
    with pytest.raises(ValueError):
        zhkit.read(ZH1K, jobs=-1)
    with pytest.raises(ValueError):
        next(zhkit.read_chunks(ZH1K, positions=0))


def test_bad_option_values_say_the_tools_message():
    with pytest.raises(ValueError, match="unknown variant|variant"):
        zhkit.read(ZH1K, variant='nosuch')
    with pytest.raises(ValueError, match="plies"):
        zhkit.read(ZH1K, plies='x-y')
    with pytest.raises(ValueError):
        zhkit.read(ZH1K, tag='WhiteElo ?? 3')
    with pytest.raises(ValueError):
        zhkit.read(ZH1K, max='many')


def test_broken_archive(tmp_path):
    z = tmp_path / 'cut.pgn.zst'
    with open(z, 'wb') as out:
        subprocess.run(['zstd', '-c', ZH1K], stdout=out, check=True)
    data = z.read_bytes()
    z.write_bytes(data[:len(data) // 2])
    with pytest.raises(zhkit.Error) as e:
        zhkit.read(str(z))
    assert e.value.file == str(z) and 'zstd' in str(e.value)


def test_garbage_and_empty():
    t = zhkit.read(b'')
    assert t.read == 0 and len(t.games) == 0
    t = zhkit.read(bytes(range(256)) * 100)
    assert len(t.positions) == 0
    for f in data_files('zhcheck/*.pgn'):
        t = zhkit.read(f)       # the invalid games: errors, not a crash
        for e in t.errors:
            assert e.file == f and e.line >= 1 and e.col >= 1 and e.message
    t = zhkit.read(data_files('zhcheck/drop-not-in-hand.pgn'))
    assert t.rejected == 1 and len(t.games) == t.read - 1
    assert t.errors[0].severity == 'error' and 'game 1' in t.errors[0].message
