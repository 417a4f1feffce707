"""zhkit.read and read_chunks against zhreplay -F npy of the same build:
the same tables (np.array_equal, same dtypes), the same errors."""
import io
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from conftest import BIN, GAMES, ROOT, data_files
import zhkit

ZH1K = os.path.join(ROOT, 'testdata/pgn/crazyara-1k_cz_lichess_startpos.pgn')


def zhreplay_npy(tmp_path, files, *opts):
    out = tmp_path / 'npy'
    p = subprocess.run([os.path.join(BIN, 'zhreplay'), '-F', 'npy', '-o',
                        str(out)] + list(opts) + list(files),
                       capture_output=True, text=True)
    assert p.returncode in (0, 1), p.stderr
    tables = {n: np.load(out / (n + '.npy')) for n in zhkit.TABLES}
    tables['files'] = [f.decode() for f in np.load(out / 'files.npy')]
    return tables, p.stderr


def same(t, ref):
    for n in zhkit.TABLES:
        a = getattr(t, n)
        assert a.dtype == ref[n].dtype, n
        assert np.array_equal(a, ref[n]), n
    assert t.files == ref['files']


def diag_lines(stderr):
    """zhreplay's diagnostics, as FILE:LINE:COL: SEVERITY: MESSAGE."""
    return [m.group(1) for m in
            (re.match(r'^zhreplay: (.*:\d+:\d+: (error|warning): .*)$', ln)
             for ln in stderr.splitlines()) if m]


@pytest.mark.parametrize('path', GAMES,
                         ids=[os.path.relpath(p, ROOT) for p in GAMES])
def test_every_test_file_equals_npy(tmp_path, path):
    ref, err = zhreplay_npy(tmp_path, [path])
    t = zhkit.read(path, jobs=1)
    same(t, ref)
    assert ['%s:%d:%d: %s: %s' % (e.file, e.line, e.col, e.severity,
                                  e.message) for e in t.errors] \
        == diag_lines(err)
    assert t.written == len(ref['games'])
    assert t.read >= t.written


def test_all_files_at_once_jobs(tmp_path):
    ref, _ = zhreplay_npy(tmp_path, GAMES)
    assert len(ref['bughouse']) > 0 and len(ref['positions']) > 0
    assert len(set(ref['games']['variant'])) >= 5      # many variants
    for jobs in (1, 2, 3):
        same(zhkit.read(GAMES, jobs=jobs), ref)


def test_shared_not_copied():
    t = zhkit.read(ZH1K, jobs=1)
    assert not t.positions.flags.owndata
    assert isinstance(t.positions.base, memoryview) or \
        t.positions.base is not None
    assert len(t.positions) > 0 and t.rejected == 0


def test_selection_by_keyword(tmp_path):
    f = data_files('pgn/pychess-zh.pgn')[0]
    ref, _ = zhreplay_npy(tmp_path, [f], '--tag', 'WhiteElo >= 1700',
                          '--plies', '10-', '--every', '3')
    t = zhkit.read(f, tag='WhiteElo >= 1700', plies='10-', every=3)
    same(t, ref)
    assert 0 < t.written < t.read
    ref, _ = zhreplay_npy(tmp_path, [f], '--tag', 'WhiteElo >= 1700',
                          '--tag', 'BlackElo >= 1700', '--max', '2',
                          '--only-valid')
    t = zhkit.read(f, tag=['WhiteElo >= 1700', 'BlackElo >= 1700'], max=2,
                   only_valid=True, jobs=2)
    same(t, ref)
    assert t.written == 2


def test_dedupe_counts(tmp_path):
    ref, _ = zhreplay_npy(tmp_path, [ZH1K, ZH1K], '--dedupe')
    t = zhkit.read([ZH1K, ZH1K], dedupe=True, jobs=2)
    same(t, ref)
    assert t.duplicates >= 1000 and t.read == 2000


def test_variant_forced(tmp_path):
    f = data_files('pgn/pychess-zh.pgn')[0]
    ref, _ = zhreplay_npy(tmp_path, [f], '--variant', 'loop')
    same(zhkit.read(f, variant='loop'), ref)


def test_bytes_file_object_and_archive(tmp_path):
    data = open(ZH1K, 'rb').read()
    ref = zhkit.read(ZH1K)
    for src in (data, bytearray(data), io.BytesIO(data)):
        t = zhkit.read(src)
        for n in zhkit.TABLES:
            assert np.array_equal(getattr(t, n), getattr(ref, n))
    for tool, ext in (('zstd', 'zst'), ('gzip', 'gz'), ('xz', 'xz')):
        z = tmp_path / ('g.pgn.' + ext)
        with open(z, 'wb') as out:
            subprocess.run([tool, '-c', ZH1K], stdout=out, check=True)
        for src in (str(z), z, z.read_bytes(), open(z, 'rb')):
            t = zhkit.read(src, jobs=2)
            assert np.array_equal(t.positions, ref.positions), (tool, src)
            assert np.array_equal(t.games, ref.games)


def test_dataset_rows_and_parquet_from_bytes_and_file_objects(tmp_path):
    """The Lichess datasets' rows (JSON Lines, plain or compressed) and
    Parquet given as bytes or a file object read as from their path; a
    Parquet file object (no seeking through the feeder) is an error
    naming why."""
    li = os.path.join(ROOT, 'testdata/index/lichess-zh-150.pgn')
    pq = tmp_path / 'g.parquet'
    subprocess.run([os.path.join(BIN, 'zhpgn'), '-q', '-F', 'parquet', '-o',
                    str(pq), li], check=True)
    rows = tmp_path / 'g.jsonl'
    ref = zhkit.read(li)
    t = zhkit.read(pq.read_bytes())
    assert t.read == 150 and np.array_equal(t.positions, ref.positions)
    assert np.array_equal(t.games['date'], ref.games['date'])
    assert len(list(zhkit.games(pq.read_bytes()))) == 150
    # a file object of a file: read by its path
    t = zhkit.read(open(pq, 'rb'))
    assert t.read == 150 and t.files == [str(pq)]
    # one that is no file (the stream of its bytes) cannot be
    with pytest.raises(zhkit.Error, match='must be a file'):
        zhkit.read(io.BytesIO(pq.read_bytes()))
    # the rows as JSON Lines, written here from the games' tags
    import json
    with open(rows, 'w') as out:
        for g in zhkit.games(li):
            r = {k: v for k, v in g['tags'].items() if k not in ('Date', 'Round')}
            r['movetext'] = ' '.join(m['san'] for m in g['moves']) + ' ' + g['result']
            out.write(json.dumps(r) + '\n')
    subprocess.run(['gzip', '-k', str(rows)], check=True)
    ref_rows = zhkit.read(str(rows))   # a file: read by the tools' own test
    assert np.array_equal(ref_rows.positions['board'], ref.positions['board'])
    for src in (rows.read_bytes(), open(rows, 'rb'),
                str(rows) + '.gz', open(str(rows) + '.gz', 'rb')):
        t = zhkit.read(src)
        assert (t.read, t.written) == (150, 150), src
        assert np.array_equal(t.positions, ref_rows.positions), src


def test_chunks_concatenate_to_read():
    ref = zhkit.read(GAMES, jobs=2)
    for n_pos, jobs in ((1, 1), (777, 2), (10 ** 9, 1)):
        chunks = list(zhkit.read_chunks(GAMES, jobs=jobs, positions=n_pos))
        for n in zhkit.TABLES:
            assert np.array_equal(np.concatenate(
                [getattr(c, n) for c in chunks]), getattr(ref, n))
        assert sum(len(c.errors) for c in chunks) == len(ref.errors)
        # each chunk's text fields from its own strings
        for col in ('white', 'termination', 'id'):
            assert sum((c.text(col) for c in chunks), []) == ref.text(col)
        if n_pos == 777:
            assert len(chunks) > 3
            assert all(len(c.positions) + len(c.bughouse) >= 777
                       for c in chunks[:-1])


def test_chunks_abandoned():
    g = zhkit.read_chunks([ZH1K] * 3, positions=100)
    first = next(g)
    assert len(first.positions) >= 100
    g.close()       # the run stops, its thread joined


def test_freed_tables_pages_reused(tmp_path):
    """A read takes the pages of tables freed before (cli/memtab.c's
    pool, tables of 2 MB and more): their stale bytes never show, and a
    live table's pages are never taken."""
    x4 = tmp_path / 'x4.pgn'            # 27k positions: 4.8 MB
    with open(ZH1K, 'rb') as f:
        text = f.read()
    x4.write_bytes((text + b'\n') * 4)
    ref, _ = zhreplay_npy(tmp_path, [x4])
    for jobs in (2, 1, 2):
        big = zhkit.read(GAMES, jobs=jobs)  # (takes what it can)
        del big
        t = zhkit.read(str(x4), jobs=jobs)
        assert t.positions.nbytes >= 4 << 20
        same(t, ref)
        assert t.positions.tobytes() == ref['positions'].tobytes()
        del t
    # in a process of its own (a pool of one table): the pages stay
    # when the table is freed, and the next read grows by none of them
    script = """if 1:
        import os, sys, zhkit
        def rss():
            with open('/proc/self/statm') as f:
                return int(f.read().split()[1]) * os.sysconf('SC_PAGESIZE')
        t = zhkit.read(sys.argv[1], jobs=2)
        was, size = t.positions.ctypes.data, t.positions.nbytes
        before = rss()
        del t
        kept = rss()
        t = zhkit.read(sys.argv[1], jobs=1)
        again = rss()
        assert t.positions.ctypes.data == was, 'not taken again'
        assert before - kept < size // 2, 'given back'
        assert again - kept < size // 2, 'new pages'
        other = zhkit.read(sys.argv[1], jobs=2)
        assert other.positions.ctypes.data != was, 'a live table taken'
        # (no table yet: only jobs=2's staging buffers, kept by the reads)
        buffers = zhkit.release_memory()
        assert 0 < buffers <= 32 * (4 << 20), buffers
        del t, other
        held = rss()
        given = zhkit.release_memory()
        assert given >= 2 * size, given
        assert held - rss() >= size, 'kept after release_memory()'
        assert zhkit.release_memory() == 0
        print('ok')
    """
    env = dict(os.environ, PYTHONPATH=os.path.dirname(zhkit.__path__[0]))
    p = subprocess.run([sys.executable, '-c', script, str(x4)],
                       capture_output=True, text=True, env=env)
    assert p.returncode == 0 and p.stdout == 'ok\n', p.stderr


def test_jobs_buffers_kept():
    """jobs=N's staging buffers (cli/jobs.c) are kept from read to read
    (their pages not faulted in again), and release_memory() gives them
    back with the tables' pool; a read after them has the same tables
    (test_freed_tables_pages_reused reads at jobs=2 twice)."""
    ref = zhkit.read(ZH1K, jobs=1)
    zhkit.release_memory()
    zhkit.read(ZH1K, jobs=1)                # (freed at once)
    tables = zhkit.release_memory()         # the pool only: jobs=1 stages none
    t = zhkit.read(ZH1K, jobs=2)
    same_tables = t.positions.tobytes() == ref.positions.tobytes()
    del t
    both = zhkit.release_memory()
    assert same_tables
    assert both > tables, (both, tables)
    assert zhkit.release_memory() == 0


def test_reads_at_once_in_threads(tmp_path):
    """Reads in several Python threads at once (compressed inputs too),
    and a read inside a read_chunks loop: the same tables as alone."""
    import threading
    z = tmp_path / 'g.pgn.zst'
    with open(z, 'wb') as out:
        subprocess.run(['zstd', '-c', ZH1K], stdout=out, check=True)
    ref = zhkit.read(ZH1K, jobs=1)
    got, errs = [], []

    def one(k):
        try:
            got.append(zhkit.read(str(z) if k % 2 else ZH1K, jobs=1 + k % 2))
        except Exception as e:      # pragma: no cover - said below
            errs.append(e)
    ts = [threading.Thread(target=one, args=(k,)) for k in range(6)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errs and len(got) == 6
    for t in got:
        assert np.array_equal(t.positions, ref.positions)
    for chunk in zhkit.read_chunks(ZH1K, positions=2000):
        inner = zhkit.read(str(z), jobs=2)
        assert np.array_equal(inner.games, ref.games)
