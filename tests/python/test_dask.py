"""examples/dask_dataset.py on a LocalCluster of two worker processes
over TCP on 127.0.0.1: the same bytes as one process, and the shards
concatenated are zhkit.read's tables."""
import os
import sys

import numpy as np
import pytest

from conftest import ROOT
import zhkit

sys.path.insert(0, os.path.join(ROOT, 'examples'))
import dask_dataset  # noqa: E402

INPUTS = [os.path.join(ROOT, p) for p in (
    'testdata/pgn/crazyara-1k_cz_lichess_startpos.pgn',
    'testdata/pgn/pychess-zh.pgn',
    'testdata/bughouse/real/1934301.bpgn',
    'testdata/pgn/pychess-variants-grand.pgn',
    'testdata/zhcheck/drop-not-in-hand.pgn')]


def files_of(d):
    return {f: open(os.path.join(d, f), 'rb').read()
            for f in sorted(os.listdir(d))}


def test_one_process_equals_read(tmp_path):
    m = dask_dataset.build(str(tmp_path / 'one'), INPUTS, pieces=3)
    assert len(m['shards']) > len(INPUTS)       # some files were cut
    got = dask_dataset.load(str(tmp_path / 'one'))
    ref = zhkit.read(INPUTS, jobs=1)
    for n in zhkit.TABLES:
        assert got[n].dtype == getattr(ref, n).dtype
        assert np.array_equal(got[n], getattr(ref, n)), n
    assert m['read'] == ref.read and m['rejected'] == ref.rejected


def test_local_cluster_two_workers_same_bytes(tmp_path, monkeypatch):
    distributed = pytest.importorskip('dask.distributed')
    # the workers are new processes: zhkit and the example importable
    path = [os.path.dirname(zhkit.__path__[0]),
            os.path.join(ROOT, 'examples')]
    monkeypatch.setenv('PYTHONPATH', os.pathsep.join(
        path + [os.environ.get('PYTHONPATH', '')]))
    one = tmp_path / 'one'
    dask_dataset.build(str(one), INPUTS, pieces=3)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1,
                                  processes=True, host='127.0.0.1',
                                  dashboard_address=None) as cl, \
            distributed.Client(cl) as c:
        assert all(a.startswith('tcp://127.0.0.1:')
                   for a in c.scheduler_info()['workers'])
        assert len(c.scheduler_info()['workers']) == 2
        two = tmp_path / 'two'
        dask_dataset.build(str(two), INPUTS, client=c, pieces=3)
        pids = set(c.run(os.getpid).values())
    assert len(pids) == 2 and os.getpid() not in pids
    a, b = files_of(one), files_of(two)
    assert a.keys() == b.keys() and 'manifest.json' in a
    assert a == b
