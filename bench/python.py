"""bench/python.py - the Python module's timings for `make bench` (section
"python" of bench/run.sh): zhkit.read against zhreplay -F npy (positions
a second; jobs=2 against jobs=1; again on the input four times over,
with CPU time and page faults), and Board.legal_moves per call against
python-chess and against a tool run per position (zhfen --moves).

    PYTHONPATH=build/python /usr/bin/python3 bench/python.py PGN [PEERS]

Prints one row a line: label, input, seconds, metrics, ratio (tabs).
The ratios are only meaningful on an idle machine."""
import os
import resource
import shlex
import subprocess
import sys
import tempfile
import time

import zhkit

pgn = sys.argv[1]
peers = sys.argv[2] if len(sys.argv) > 2 else '../shared/peers'
name = os.path.basename(pgn)
runs = int(os.environ.get('ZH_BENCH_RUNS', '5'))


IDLE = shlex.split(os.environ.get('ZH_IDLEWAIT', ''))


def idle():
    """Wait until both cores are idle (bench/idlewait.c, from run.sh)."""
    if IDLE:
        subprocess.run(IDLE, check=False)


def best(fn, n=runs):
    """The median time of fn(), each run started on idle cores; what it
    returns is freed after the clock stops (read()'s tables: giving back
    125 MB is not reading)."""
    t = []
    for _ in range(n):
        idle()
        s = time.perf_counter()
        r = fn()
        t.append(time.perf_counter() - s)
        del r
    return sorted(t)[len(t) // 2]


def row(label, inp, sec, metrics, ratio=''):
    print('%s\t%s\t%.6f\t%s\t%s' % (label, inp, sec, metrics, ratio))
    sys.stdout.flush()


npos = len(zhkit.read(pgn, jobs=1).positions)
out = tempfile.mkdtemp()
t_npy = best(lambda: subprocess.run(['bin/zhreplay', '-q', '-F', 'npy', '-o',
                                     out, '-j', '1', pgn], check=True))
t_npy2 = best(lambda: subprocess.run(['bin/zhreplay', '-q', '-F', 'npy', '-o',
                                      out, '-j', '2', pgn], check=True))
t1 = best(lambda: zhkit.read(pgn, jobs=1))
t2 = best(lambda: zhkit.read(pgn, jobs=2))
row('zhreplay -F npy -j 1', name, t_npy, 'positions/s %d' % (npos / t_npy))
# the tool's own -j 2 against -j 1: what two cores give the same work
# (read's jobs=2 bar is measured against this machine's, not the ideal 2)
row('zhreplay -F npy -j 2', name, t_npy2, 'positions/s %d' % (npos / t_npy2),
    'x%.2f of -j 1' % (t_npy / t_npy2))
row('zhkit.read(jobs=1)', name, t1, 'positions/s %d' % (npos / t1),
    'x%.2f of -F npy (bar 0.9)' % (t_npy / t1))
row('zhkit.read(jobs=2)', name, t2, 'positions/s %d' % (npos / t2),
    'x%.2f of jobs=1 (bar 1.7, both cores idle)' % (t1 / t2))


def cpu_best(fn, who, n=runs):
    """best() with the CPU time (user+sys, all threads: who is
    resource.RUSAGE_SELF or RUSAGE_CHILDREN) and minor page faults of
    one run, averaged: figures a loaded machine does not change much."""
    t, cpu, flt = [], 0.0, 0
    for _ in range(n):
        idle()
        a = resource.getrusage(who)
        s = time.perf_counter()
        r = fn()
        t.append(time.perf_counter() - s)
        b = resource.getrusage(who)
        del r
        cpu += b.ru_utime - a.ru_utime + b.ru_stime - a.ru_stime
        flt += b.ru_minflt - a.ru_minflt
    return sorted(t)[len(t) // 2], cpu / n, flt // n


# The same on the input four times over (0.4 s rather than 0.1 s at -j 1:
# the start and end of a run, its threads made and joined, weigh less),
# with each run's CPU time and page faults.
bigdir = tempfile.mkdtemp()
big = os.path.join(bigdir, name)
with open(pgn, 'rb') as f:
    text = f.read()
with open(big, 'wb') as f:
    for _ in range(4):
        f.write(text if text.endswith(b'\n') else text + b'\n')
        f.write(b'\n')
bpos = len(zhkit.read(big, jobs=1).positions)
bname = name + ' x4'
kid = resource.RUSAGE_CHILDREN
b_npy = cpu_best(lambda: subprocess.run(['bin/zhreplay', '-q', '-F', 'npy',
                                         '-o', out, '-j', '1', big],
                                        check=True), kid)
b_npy2 = cpu_best(lambda: subprocess.run(['bin/zhreplay', '-q', '-F', 'npy',
                                          '-o', out, '-j', '2', big],
                                         check=True), kid)
b1 = cpu_best(lambda: zhkit.read(big, jobs=1), resource.RUSAGE_SELF)
b2 = cpu_best(lambda: zhkit.read(big, jobs=2), resource.RUSAGE_SELF)
os.remove(big)
os.rmdir(bigdir)


def cpu(m):
    return 'cpu %.3f s, %d faults' % (m[1], m[2])


row('zhreplay -F npy -j 1', bname, b_npy[0], 'positions/s %d, %s'
    % (bpos / b_npy[0], cpu(b_npy)))
row('zhreplay -F npy -j 2', bname, b_npy2[0], 'positions/s %d, %s'
    % (bpos / b_npy2[0], cpu(b_npy2)), 'x%.2f of -j 1' % (b_npy[0] / b_npy2[0]))
row('zhkit.read(jobs=1)', bname, b1[0], 'positions/s %d, %s'
    % (bpos / b1[0], cpu(b1)), 'x%.2f of -F npy (bar 0.9)' % (b_npy[0] / b1[0]))
row('zhkit.read(jobs=2)', bname, b2[0], 'positions/s %d, %s'
    % (bpos / b2[0], cpu(b2)),
    'x%.2f of jobs=1 (bar 1.7, both cores idle)' % (b1[0] / b2[0]))

p = subprocess.run(['bin/zhreplay', '-q', '--to', 'fairy', pgn],
                   capture_output=True, text=True)
fens = [ln for ln in p.stdout.splitlines() if ln][:5000]


def ours():
    for f in fens:
        zhkit.Board(f).legal_moves()


t_ours = best(ours, 3) / len(fens)
row('Board(fen).legal_moves()', '%d FENs' % len(fens), t_ours,
    '%.1f us a call' % (t_ours * 1e6))
boards = [zhkit.Board(f) for f in fens]


def ours_made():
    for b in boards:
        b.legal_moves()


t_made = best(ours_made, 3) / len(fens)
row('board.legal_moves() (made)', '%d FENs' % len(fens), t_made,
    '%.1f us a call' % (t_made * 1e6))
sys.path.insert(0, os.path.join(peers, 'python-chess'))
try:
    import chess.variant

    def theirs():
        for f in fens[:1000]:
            list(chess.variant.CrazyhouseBoard(f).legal_moves)
    t_pc = best(theirs, 3) / 1000
    row('python-chess CrazyhouseBoard(fen).legal_moves', '1000 FENs', t_pc,
        '%.1f us a call' % (t_pc * 1e6),
        'Board x%.0f faster (bar 30)' % (t_pc / t_ours))
    pboards = [chess.variant.CrazyhouseBoard(f) for f in fens[:1000]]

    def theirs_made():
        for b in pboards:
            list(b.legal_moves)
    t_pcm = best(theirs_made, 3) / 1000
    row('python-chess board.legal_moves (made)', '1000 FENs', t_pcm,
        '%.1f us a call' % (t_pcm * 1e6),
        'board x%.0f faster (bar 30)' % (t_pcm / t_made))
except ImportError:
    print('# python-chess not in %s: its row skipped' % peers,
          file=sys.stderr)


def tool():
    for f in fens[:50]:
        subprocess.run(['bin/zhfen', '--moves', f], capture_output=True,
                       check=True)


t_tool = best(tool, 3) / 50
row('zhfen --moves FEN, a run per position', '50 FENs', t_tool,
    '%.2f ms a call' % (t_tool * 1e3),
    'Board(fen) x%.0f, board x%.0f faster (bar 1000)'
    % (t_tool / t_ours, t_tool / t_made))
