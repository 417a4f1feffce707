#!/usr/bin/env python3
"""A sharded dataset from many archives on a Dask cluster, with zhkit.

    python3 examples/dask_dataset.py OUT ARCHIVE...            # one process
    python3 examples/dask_dataset.py --workers 2 OUT ARCHIVE... # a LocalCluster
    python3 examples/dask_dataset.py --scheduler tcp://host:8786 OUT ARCHIVE...

Each task runs zhkit.read in-process on one input, or on one byte range
of a plain PGN cut at game boundaries (--pieces N: N ranges per file; a
compressed archive is one task), and writes its shard: OUT/NNNNN-
positions.npy, -bughouse.npy, -games.npy, -strings.npy (zhkit-arrays(5)).  When every
task is done, a second round renumbers each shard in place from the
counts of the shards before it (the games' and positions' rows, the
input's index, the games' numbers and lines in their file, their text
fields' offsets in strings.npy), so the
shards, concatenated in order, are exactly zhkit.read(ARCHIVES)'s
tables; OUT/manifest.json lists the inputs, the options, and each
shard's range and counts.  The output is the same bytes for one process
and for any cluster (the test: tests/python/test_dask.py).

On a real cluster, start `dask scheduler` on one host and `dask worker
tcp://host:8786` on each machine (all with zhkit importable and the
archives at the same paths, e.g. on a shared file system), then pass
--scheduler tcp://host:8786 (the script calls Client("tcp://host:8786")).
Without Dask, GNU parallel does the same from the shell (README.md).

As a library: build(out, inputs, client=None, pieces=1, **read_options)
returns the manifest (a dict); load(out) gives the tables back.
"""
import argparse
import json
import os
import re
import sys
import time

import numpy as np

import zhkit

# a blank line (LF or CRLF line ends), then a tag: a game's start
GAME_START = re.compile(rb'(\r?\n\r?\n)\[')
MAGIC = (b'\x28\xb5\x2f\xfd', b'\x1f\x8b', b'BZh', b'\xfd7zXZ')


def cut_points(path, pieces):
    """Byte offsets cutting a plain PGN into up to `pieces` ranges, each
    cut at a game's start: the first tag line after a blank line at or
    after the even split."""
    size = os.path.getsize(path)
    with open(path, 'rb') as f:
        head = f.read(6)
        if pieces <= 1 or size == 0 or head.startswith(MAGIC):
            return [0, size]
        cuts = [0]
        for k in range(1, pieces):
            at = max(size * k // pieces, cuts[-1])
            f.seek(at)
            buf = f.read(1 << 20)
            m = GAME_START.search(buf)
            while m is None and f.tell() < size:
                buf += f.read(1 << 20)
                m = GAME_START.search(buf)
            if m is None:
                break
            cut = at + m.start() + len(m.group(1))
            if cut > cuts[-1] and cut < size:
                cuts.append(cut)
        cuts.append(size)
        return cuts


def tasks_of(inputs, pieces):
    """(input index, path, start, end) of every task, in input order."""
    out = []
    for k, path in enumerate(inputs):
        cuts = cut_points(path, pieces)
        out += [(k, path, a, b) for a, b in zip(cuts, cuts[1:])]
    return out


def read_task(out, shard, task, options):
    """A task: its range read by zhkit.read, its shard written (local
    numbering); its counts returned."""
    k, path, start, end = task
    size = os.path.getsize(path)
    if start == 0 and end == size:
        t = zhkit.read(path, jobs=1, **options)
        lines = 0
    else:
        with open(path, 'rb') as f:
            lines = f.read(start).count(b'\n')
            data = f.read(end - start)
        t = zhkit.read(data, jobs=1, **options)
    for name in zhkit.TABLES:
        np.save(os.path.join(out, '%05d-%s.npy' % (shard, name)),
                getattr(t, name))
    return {'input': k, 'file': path, 'start': start, 'end': end,
            'lines_before': lines, 'read': t.read, 'rejected': t.rejected,
            'duplicates': t.duplicates, 'games': len(t.games),
            'positions': len(t.positions), 'bughouse': len(t.bughouse),
            'strings': len(t.strings)}


def renumber_task(out, shard, offsets):
    """The second round: shard's numbers made global, in place."""
    two = set(v for v in range(len(zhkit.variants()))
              if zhkit.Board(variant=zhkit.variants()[v]).boards == 2)
    path = {n: os.path.join(out, '%05d-%s.npy' % (shard, n))
            for n in zhkit.TABLES}
    def add(a, field, v):       # in the field's own type
        a[field] += np.asarray(v).astype(a.dtype.fields[field][0])
    g = np.load(path['games'])
    bug = np.isin(g['variant'], list(two))
    add(g, 'first', np.where(bug, offsets['bughouse'], offsets['positions']))
    add(g, 'game', offsets['games'])
    g['file'] = offsets['input']
    add(g, 'line', offsets['lines_before'])
    add(g, 'number', offsets['number'])
    for f in g.dtype.names:     # the text fields' offsets in strings.npy
        if f.endswith('_off'):
            add(g, f, offsets['strings'])
    np.save(path['games'], g)
    for n in ('positions', 'bughouse'):
        a = np.load(path[n])
        add(a, 'game', offsets['games'])
        np.save(path[n], a)
    return shard


def build(out, inputs, client=None, pieces=1, **options):
    """The dataset of `inputs` into directory `out`; the manifest."""
    os.makedirs(out, exist_ok=True)
    inputs = [os.fspath(p) for p in inputs]
    tasks = tasks_of(inputs, pieces)
    args = [(out, i, t, options) for i, t in enumerate(tasks)]
    if client is None:
        shards = [read_task(*a) for a in args]
    else:
        shards = client.gather(client.map(read_task, *zip(*args),
                                          pure=False))
    # each shard's offsets: the counts of the shards before it
    total = {'games': 0, 'positions': 0, 'bughouse': 0, 'strings': 0}
    number = {}
    offs = []
    for s in shards:
        offs.append(dict(total, input=s['input'],
                         lines_before=s['lines_before'],
                         number=number.get(s['input'], 0)))
        for n in total:
            total[n] += s[n]
        number[s['input']] = number.get(s['input'], 0) + s['read']
    if client is None:
        for i, o in enumerate(offs):
            renumber_task(out, i, o)
    else:
        client.gather(client.map(renumber_task, [out] * len(offs),
                                 range(len(offs)), offs, pure=False))
    manifest = {
        'inputs': inputs, 'options': options, 'pieces': pieces,
        'tables': list(zhkit.TABLES), 'shards': shards,
        'read': sum(s['read'] for s in shards),
        'rejected': sum(s['rejected'] for s in shards),
        'duplicates': sum(s['duplicates'] for s in shards),
        'games': total['games'], 'positions': total['positions'],
        'bughouse': total['bughouse'], 'zhkit': zhkit.version,
    }
    with open(os.path.join(out, 'manifest.json.tmp'), 'w') as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write('\n')
    os.replace(os.path.join(out, 'manifest.json.tmp'),
               os.path.join(out, 'manifest.json'))
    return manifest


def load(out):
    """The dataset's tables, concatenated (a dict of arrays)."""
    with open(os.path.join(out, 'manifest.json')) as f:
        m = json.load(f)
    return {n: np.concatenate([np.load(os.path.join(
        out, '%05d-%s.npy' % (i, n))) for i in range(len(m['shards']))])
        for n in m['tables']}


def bench(pgn):
    """`make bench`: one process against a LocalCluster of two workers
    (rows for bench/run.sh: label, input, seconds, metrics, ratio)."""
    import shutil
    import subprocess
    import tempfile
    from dask.distributed import Client, LocalCluster
    inputs = [pgn] * 4
    d = tempfile.mkdtemp()
    runs = int(os.environ.get('ZH_BENCH_RUNS', '5'))

    idle = os.environ.get('ZH_IDLEWAIT', '').split()

    def median(fn):
        # the median of runs, each into a new directory (one shot of
        # each drifted from x0.9 to x1.4 between runs), each started
        # once both cores are idle (bench/idlewait.c)
        t = []
        for i in range(runs):
            if idle:
                subprocess.run(idle, check=False)
            s = time.perf_counter()
            r = fn(i)
            t.append(time.perf_counter() - s)
        return sorted(t)[len(t) // 2], r

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      host='127.0.0.1', dashboard_address=None) as cl, \
            Client(cl) as c:
        c.run(lambda: __import__('zhkit'))      # imported before timing
        t1, m = median(lambda i: build(os.path.join(d, 'one%d' % i), inputs,
                                       pieces=2))
        t2, _ = median(lambda i: build(os.path.join(d, 'two%d' % i), inputs,
                                       client=c, pieces=2))
    shutil.rmtree(d)
    name = '%s x4' % os.path.basename(pgn)
    print('dask example, one process\t%s\t%.6f\tpositions/s %d\t'
          % (name, t1, m['positions'] / t1))
    print('dask example, 2 workers\t%s\t%.6f\tpositions/s %d\tx%.2f of one '
          'process' % (name, t2, m['positions'] / t2, t1 / t2))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('out', nargs='?')
    ap.add_argument('inputs', nargs='*')
    ap.add_argument('--scheduler', help='a running scheduler, e.g. '
                    'tcp://host:8786')
    ap.add_argument('--workers', type=int, default=0,
                    help='a LocalCluster of N worker processes (0: none, '
                    'one process)')
    ap.add_argument('--pieces', type=int, default=1,
                    help='byte ranges per plain PGN file')
    ap.add_argument('--bench', metavar='PGN', help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.bench:
        return bench(a.bench)
    if not a.out or not a.inputs:
        ap.error('OUT and at least one ARCHIVE are needed')
    if a.scheduler or a.workers:
        from dask.distributed import Client, LocalCluster
        if a.scheduler:
            client = Client(a.scheduler)
        else:
            client = Client(LocalCluster(n_workers=a.workers,
                                         threads_per_worker=1,
                                         host='127.0.0.1',
                                         dashboard_address=None))
        with client:
            m = build(a.out, a.inputs, client=client, pieces=a.pieces)
    else:
        m = build(a.out, a.inputs, pieces=a.pieces)
    print('%d shards: %d games, %d positions, %d bughouse positions '
          '(%d read, %d rejected)' % (len(m['shards']), m['games'],
                                      m['positions'], m['bughouse'],
                                      m['read'], m['rejected']))


if __name__ == '__main__':
    sys.exit(main())
