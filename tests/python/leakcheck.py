"""Every entry point of the module, good input and bad, three times: run
under valgrind to find leaks in the module (python/README.md):

    PYTHONMALLOC=malloc valgrind --leak-check=full --show-leak-kinds=definite \
        --errors-for-leak-kinds=definite /usr/bin/python3 tests/python/leakcheck.py

from the top of the repository, after make."""
import sys, io
sys.path.insert(0, 'build/python')
import zhkit
f = 'testdata/pgn/pychess-zh.pgn'
data = open(f, 'rb').read()
for i in range(3):
    t = zhkit.read(f, jobs=2, tag='WhiteElo >= 1500')
    t = zhkit.read(io.BytesIO(data), jobs=1)
    t = zhkit.read(data, dedupe=True)
    list(zhkit.read_chunks(f, positions=300))
    g = zhkit.read_chunks([f, f], positions=100); next(g); g.close()
    list(zhkit.games(f))
    g = zhkit.games(io.BytesIO(data)); next(g); del g
    b = zhkit.Board()
    for m in ('e4', 'd5', 'exd5', 'Qxd5'): b.push(m)
    b.legal_moves(san=True); b.fen('xboard'); b.pockets(); b.repetitions(); b.copy(); b.pop()
    b.planes(); b.planes(2, 'float16', True); b.policy_index('e4'); b.policy_map_index('Nf3'); b.policy_mask(map=True)
    for bad in (lambda: b.planes(4), lambda: b.policy_index('Ke8'), lambda: zhkit.Board(variant='bughouse').planes()):
        try: bad()
        except ValueError: pass
    for bad in ('x', ''):
        try: zhkit.Board(bad)
        except zhkit.Error: pass
    try: zhkit.read(f, plies='x')
    except ValueError: pass
    try: b.push('Ke8')
    except zhkit.Error: pass
    try: zhkit.read('testdata/zhcheck')
    except OSError: pass
print('done')
