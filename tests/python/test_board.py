"""zhkit.Board: legal moves identical to python-chess (the peer's source,
/work/shared/peers/python-chess, tests only) on >= 10,000 crazyhouse and
chess positions; push/pop, dialects, bughouse, repetitions."""
import os
import random
import subprocess
import sys

import pytest

from conftest import BIN, ROOT
import zhkit

PEERS = os.environ.get('ZH_SHARED_PEERS', os.path.join(
    os.path.dirname(os.path.dirname(ROOT)), 'shared', 'peers'))
if not os.path.isdir(os.path.join(PEERS, 'python-chess')):
    PEERS = '/work/shared/peers'
sys.path.insert(0, os.path.join(PEERS, 'python-chess'))
try:
    import chess
    import chess.variant
except ImportError:             # the peer is not there: those tests skip
    chess = None
needs_chess = pytest.mark.skipif(chess is None, reason='python-chess absent')


def corpus_fens():
    """Every position of the bundled crazyhouse games (zhreplay)."""
    files = [os.path.join(ROOT, 'testdata/pgn', f) for f in (
        'crazyara-1k_cz_lichess_startpos.pgn', 'crazyara-engine_tournament.pgn',
        'lichess-2018-JannLee-CrazyAra.pgn', 'pychess-zh.pgn',
        'fatics-zh.pgn', 'crazyara-zh-50_startpos.pgn')]
    p = subprocess.run([os.path.join(BIN, 'zhreplay'), '-q', '--to', 'fairy',
                        '--variant', 'crazyhouse'] + files,
                       capture_output=True, text=True)
    return sorted(set(ln for ln in p.stdout.splitlines() if ln))


def random_fens(variant, games, plies, seed):
    """Positions of random games played by zhkit.Board itself."""
    rnd = random.Random(seed)
    out = []
    for _ in range(games):
        b = zhkit.Board(variant=variant)
        for _ in range(plies):
            out.append(b.fen('fairy'))
            moves = b.legal_moves()
            if not moves:
                break
            b.push(rnd.choice(moves))
    return out


def peer_moves(fen, variant):
    if variant == 'chess':
        b = chess.Board(fen)
    else:
        b = chess.variant.CrazyhouseBoard(fen)
    return sorted(m.uci() for m in b.legal_moves)


@needs_chess
def test_legal_moves_equal_python_chess():
    zh = corpus_fens()
    slow = os.environ.get('ZH_SLOW') == '1'
    zh += random_fens('crazyhouse', 60 if slow else 25, 120, 1)
    ch = random_fens('chess', 60 if slow else 30, 150, 2)
    assert len(zh) + len(ch) >= 10000, (len(zh), len(ch))
    for variant, fens in (('crazyhouse', zh), ('chess', ch)):
        for fen in fens:
            b = zhkit.Board(fen, variant=variant)
            assert b.legal_moves() == peer_moves(fen, variant), fen


@needs_chess
def test_san_equal_python_chess():
    # python-chess writes a pawn drop as chess.com does ('@e4')
    for fen in corpus_fens()[:800]:
        b = zhkit.Board(fen)
        pb = chess.variant.CrazyhouseBoard(fen)
        assert b.legal_moves(san=True, dialect='chesscom') == sorted(
            pb.san(m) for m in pb.legal_moves), fen
        assert b.is_check() == pb.is_check()


def test_push_pop_dialects():
    b = zhkit.Board()
    for m in ('e4', 'd5', 'exd5', 'Qxd5', 'Nc3', 'Qa5'):
        b.push(m)
    assert b.pockets() == {'white': {'P': 1}, 'black': {'P': 1}}
    assert b.fen('xboard') == \
        'rnb1kbnr/ppp1pppp/8/q7/8/2N5/PPPP1PPP/R1BQKBNR[Pp] w KQkq - 2 4'
    assert b.fen('lichess').split()[0].endswith('/Pp')
    # each dialect's pawn drop form, and UCI
    for form in ('P@e6', '@e6', 'p@e6', 'P@e6'):
        assert b.push(form) == 'P@e6'
        b.pop()
    assert b.san('P@e6', dialect='chesscom') == '@e6'
    assert b.san('P@e6') == 'P@e6'
    b.push('P@e6')
    assert b.plies == 7
    b.pop()
    b.pop()
    assert b.fen('xboard').startswith('rnb1kbnr/ppp1pppp/8/3q4/')
    with pytest.raises(IndexError):
        zhkit.Board().pop()


def test_fen_dialect_kept():
    """A Board given a FEN writes its FEN and SAN in that FEN's dialect
    (found when first asked for, also after copy() and push()), unless
    told another."""
    b = zhkit.Board()
    for m in ('e4', 'd5', 'exd5', 'Qxd5', 'Nc3', 'Qa5'):
        b.push(m)
    for d in ('lichess', 'xboard', 'chesscom', 'fairy'):
        f = b.fen(d)
        z = zhkit.Board(f)
        c = z.copy()
        assert z.fen() == f and c.fen() == f, d
        assert z.san('P@e6') == b.san('P@e6', dialect=d), d
        z2 = zhkit.Board(f)
        z2.push('Nf3')
        ref = zhkit.Board(b.fen('fairy'))
        ref.push('Nf3')
        assert z2.fen() == ref.fen(d), d
        assert zhkit.Board(f, dialect='xboard').fen() == b.fen('xboard')


def test_outcome_check_repetition():
    b = zhkit.Board(variant='chess')
    for m in ('f3', 'e5', 'g4', 'Qh4'):
        b.push(m)
    assert b.is_check() and b.outcome() == 'checkmate'
    # crazyhouse: a drop can block, so the same is no mate there
    b = zhkit.Board()
    for m in ('f3', 'e5', 'g4', 'Qh4'):
        b.push(m)
    assert b.is_check() and b.outcome() == 'checkmate'  # no piece in hand
    b = zhkit.Board('7k/5Q2/6K1/8/8/8/8/8 b - - 0 1', variant='chess')
    assert b.outcome() == 'stalemate'
    b = zhkit.Board()
    for _ in range(2):
        for m in ('Nf3', 'Nf6', 'Ng1', 'Ng8'):
            b.push(m)
    assert b.repetitions() == 2


def test_bughouse_two_boards():
    start = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1'
    b = zhkit.Board(start + ' | ' + start)
    assert b.variant == 'bughouse' and b.boards == 2
    b.push('e4')
    b.push('d5')
    b.push('exd5')      # White on A takes a pawn: Black on B gets it
    assert b.pockets(board='A') == {'white': {}, 'black': {}}
    assert b.pockets(board='B') == {'white': {}, 'black': {'P': 1}}
    b.push('e4', board='B')
    assert 'P@e6' in b.legal_moves(board=1)
    b.push('P@e6', board='B')
    assert b.fen('fairy', board='B') == \
        'rnbqkbnr/pppppppp/4p3/8/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq - 0 2'
    b.pop()
    assert b.pockets(board='B') == {'white': {}, 'black': {'P': 1}}
    for v in zhkit.variants():
        zb = zhkit.Board(variant=v)
        assert zb.legal_moves(), v
        zhkit.Board(zb.fen('fairy'), variant=v)     # its FEN reads back


def test_board_errors():
    with pytest.raises(zhkit.Error) as e:
        zhkit.Board('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w - - 0 1')
    assert e.value.col >= 1 and e.value.message
    for bad in ('', 'x' * 10000, '8/8/8/8/8/8/8/8 w - - 0 1'):
        with pytest.raises(zhkit.Error):
            zhkit.Board(bad)
    with pytest.raises(TypeError):
        zhkit.Board(12)
    with pytest.raises(TypeError):
        zhkit.Board(fen=12)
    with pytest.raises(ValueError):
        zhkit.Board('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\0 w - - 0 1')
    with pytest.raises(ValueError):
        zhkit.Board(variant='nosuch')
    with pytest.raises(ValueError):
        zhkit.Board(dialect='nosuch')
    b = zhkit.Board()
    with pytest.raises(zhkit.Error):
        b.push('e5')
    with pytest.raises(zhkit.Error):
        b.push('P@e4')      # no pawn in hand
    with pytest.raises(TypeError):
        b.push(None)
    with pytest.raises(ValueError):
        b.legal_moves(board='B')
    with pytest.raises(TypeError):
        b.legal_moves(board=1.5)
    with pytest.raises(ValueError):
        b.fen('nosuch')


def test_legal_moves_sorted_as_zhfen_every_variant(tmp_path):
    """legal_moves() (the module's own sort) is in byte order and equal to
    zhfen --moves (libzh's zh_moves_write) on random games of every
    variant of one board: drops, promotions, 10x10 boards' "a10"."""
    for v in zhkit.variants():
        if zhkit.Board(variant=v).boards != 1:
            continue
        fens = random_fens(v, 6, 80, 41)
        ours = [zhkit.Board(f, variant=v).legal_moves() for f in fens]
        for f, m in zip(fens, ours):
            assert m == sorted(m), (v, f)
        path = tmp_path / ('%s.fen' % v)
        path.write_text('\n'.join(fens) + '\n')
        p = subprocess.run([os.path.join(BIN, 'zhfen'), '-q', '-v', v,
                            '--moves', str(path)], capture_output=True,
                           text=True)
        assert p.returncode == 0, p.stderr
        theirs = [ln.split() for ln in p.stdout.splitlines()]
        assert theirs == ours, v
        if v in ('grand', 'grandhouse'):
            assert any(len(x) > 4 and x[1:3] == '10' for m in ours
                       for x in m), v


def test_board_frames_grow_and_copy():
    """A board starts with its one frame in the object; pushes move the
    stack to the heap, and a copy of either kind stands on its own."""
    start = zhkit.Board(None)
    c = start.copy()
    moves = ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4', 'g8f6', 'e1g1', 'f6e4',
             'c4f7', 'e8f7', 'f3g5', 'f7g8', 'd1f3']
    fens = []
    for m in moves:
        fens.append(c.fen())
        c.push(m)
    d = c.copy()
    for f in reversed(fens):
        d.pop()
        assert d.fen() == f
    assert c.plies == len(moves) and start.plies == 0
    assert start.fen() == zhkit.Board().fen() == fens[0]


def test_key_is_the_index_key(tmp_path):
    """Board.key() is the 12-byte key zhindex stores: the start position's
    is in the positions rows of an index of Lichess games; it tells apart what the
    index tells apart (pockets, promoted flag, side to move, castling,
    a legal en passant) and not the counters."""
    import sqlite3
    li = os.path.join(ROOT, 'testdata/index/lichess-zh-150.pgn')
    idx = tmp_path / 'i.zhi'
    subprocess.run([os.path.join(BIN, 'zhindex'), 'build', '-q', '-o',
                    str(idx), li], check=True)
    db = sqlite3.connect(str(idx))
    # the start position, reached by all 150 games, has its key stored
    # (one of few games is found through the tails, without its key)
    k = zhkit.Board().key()
    assert len(k) == 12
    n, = db.execute('SELECT count(*) FROM positions WHERE instr(data, ?) > 0',
                    (k,)).fetchone()
    assert n == 1
    b = zhkit.Board()
    b.push('e4')
    assert b.key() != k and len(b.key()) == 12
    base = 'r3k2r/ppp2ppp/1q6/3pP3/8/2N5/PPP2PPP/R3K2R/Nb w KQkq d6 0 10'
    keys = {zhkit.Board(f).key() for f in (
        base,
        base.replace('/Nb w', '/Nbp w'),              # a pocket
        base.replace('/Nb w KQkq d6', '/Nb b KQkq -'),  # side to move
        base.replace('KQkq', 'Kkq'),                  # castling
        base.replace(' d6 ', ' - '),                  # a legal en passant
        base.replace('ppp2ppp/1q6/', 'ppp2pp1/1q5p/'),  # a pawn elsewhere
        base.replace('/2N5/', '/2N~5/'))}             # a promoted knight
    assert len(keys) == 7
    assert zhkit.Board(base).key() == zhkit.Board(base.replace(' 0 10', ' 5 40')).key()
    # an en-passant square whose capture is illegal (the pawn pinned to
    # its king by the queen on e7) is not in the key
    pinned = 'r3k2r/ppp1qppp/8/3pP3/8/2N5/PPP2PPP/R3K2R/Nb w KQkq d6 0 10'
    assert zhkit.Board(pinned).key() == zhkit.Board(pinned.replace(' d6 ', ' - ')).key()
