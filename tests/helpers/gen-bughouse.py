#!/usr/bin/env python3
"""Generate bughouse test data whose answers come from Fairy-Stockfish.

    tests/helpers/gen-bughouse.py [--games N] [--seed S] [--out DIR] [--fsf PATH]

Plays N two-board games of random legal play.  Every half-move is chosen
from the legal-move list Fairy-Stockfish (variant `bughouse`, one board,
holdings in `[...]`) gives for that board's FEN with the holdings of that
moment; this script keeps the holdings (a capture on one board goes to the
other board's holdings, same colour; a promoted piece goes over as a pawn).
SAN is computed here from FSF's move list and `Checkers:` line.

Writes DIR/gen/{bughousedb,bughousedb-org,chesscom,pychess}.bpgn and
answers.jsonl, and DIR/broken/*.bpgn with answers.tsv.  See
testdata/bughouse/PROVENANCE.md.  Deterministic for a given seed and FSF.
"""

import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fsfbug import Engine, split_fen, join_fen, FSF_PATH  # noqa

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
PLAYERS = ("WhiteA", "BlackA", "WhiteB", "BlackB")
TEAM1 = ("WhiteA", "BlackB")          # team-relative 1-0 = these won


def seat(board, side):
    return ("White" if side == "w" else "Black") + board


def other(board):
    return "B" if board == "A" else "A"


# ---- geometry ------------------------------------------------------------

def sqxy(sq):
    return "abcdefgh".index(sq[0]), int(sq[1]) - 1


def xysq(x, y):
    return "abcdefgh"[x] + str(y + 1)


def between(a, b):
    """Squares strictly between a and b on a line (empty list if adjacent
    or not on a line)."""
    ax, ay = sqxy(a)
    bx, by = sqxy(b)
    dx, dy = bx - ax, by - ay
    if not (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
        return []
    n = max(abs(dx), abs(dy))
    sx = (dx > 0) - (dx < 0)
    sy = (dy > 0) - (dy < 0)
    return [xysq(ax + sx * i, ay + sy * i) for i in range(1, n)]


def check_blockable(board, checkers, side):
    """Can a drop interpose?  (single slider check with an empty square
    between checker and king)"""
    if len(checkers) != 1:
        return False
    c = checkers[0]
    if board[c].upper() not in "BRQ":
        return False
    king = "K" if side == "w" else "k"
    ksq = [s for s, p in board.items() if p == king][0]
    return any(s not in board for s in between(c, ksq))


# ---- SAN -------------------------------------------------------------

def is_capture(board, uci):
    if "@" in uci:
        return False
    fr, to = uci[0:2], uci[2:4]
    if to in board:
        return True
    return board[fr].upper() == "P" and fr[0] != to[0]


def san_of(board, legal, uci, checkers_after, mate):
    """SAN of `uci` in the position `board` (dict), with legal-move list
    `legal` of that position; suffix from the position after."""
    if "@" in uci:
        s = uci[0].upper() + "@" + uci[2:4]
    else:
        fr, to = uci[0:2], uci[2:4]
        promo = uci[4:5]
        p = board[fr].upper()
        cap = is_capture(board, uci)
        if p == "K" and abs(sqxy(fr)[0] - sqxy(to)[0]) == 2:
            s = "O-O" if to[0] == "g" else "O-O-O"
        elif p == "P":
            s = (fr[0] + "x" if cap else "") + to
            if promo:
                s += "=" + promo.upper()
        else:
            rivals = [m[0:2] for m in legal
                      if "@" not in m and m[2:4] == to and m[0:2] != fr
                      and board[m[0:2]].upper() == p]
            dis = ""
            if rivals:
                if all(r[0] != fr[0] for r in rivals):
                    dis = fr[0]
                elif all(r[1] != fr[1] for r in rivals):
                    dis = fr[1]
                else:
                    dis = fr
            s = p + dis + ("x" if cap else "") + to
    if mate:
        s += "#"
    elif checkers_after:
        s += "+"
    return s


# ---- playing -----------------------------------------------------------

SYL = ["ka", "ro", "mi", "zu", "bug", "hou", "se", "pa", "wn", "dro",
       "ter", "fish", "ne", "ko", "lu", "vi", "xi", "ga", "mo", "tan",
       "ri", "do", "chi", "ba", "qu", "el", "sto", "ny"]


def make_names(rng):
    names = set()
    while len(names) < 4:
        n = "".join(rng.choice(SYL) for _ in range(rng.randint(2, 3)))
        n = n.capitalize() if rng.random() < 0.6 else n
        if rng.random() < 0.3:
            n += str(rng.randint(1, 99))
        names.add(n)
    names = sorted(names)
    rng.shuffle(names)
    return dict(zip(PLAYERS, names))


class Board:
    def __init__(self, fen=START):
        self.fen = fen
        self.n = 0          # half-moves played on this board

    @property
    def side(self):
        return self.fen.split()[1]


def add_holding(fen, piece):
    b, pr, h, rest = split_fen(fen)
    return join_fen(b, pr, h + piece, rest)


def apply_move(eng, fen, uci):
    """-> (fen_after with ~, captured piece to pass on or None,
           checkers_after, legal_after)"""
    board, promoted, hold, rest = split_fen(fen)
    side = rest[0]
    captured = None
    promoted = set(promoted)
    if "@" not in uci:
        fr, to = uci[0:2], uci[2:4]
        if to in board:
            captured = board[to]
            if to in promoted:
                captured = "P" if captured.isupper() else "p"
                promoted.discard(to)
        elif board[fr].upper() == "P" and fr[0] != to[0]:
            captured = "p" if side == "w" else "P"
        if fr in promoted:
            promoted.discard(fr)
            promoted.add(to)
        if len(uci) == 5:
            promoted.add(to)
    fsf_fen, checkers, legal = eng.query(fen, uci)
    b2, _, h2, rest2 = split_fen(fsf_fen)
    return join_fen(b2, promoted, h2, rest2), captured, checkers, legal


def find_mate(eng, fen, legal, blockable):
    """A legal move after which the opponent is in check with no legal
    move, the check one a drop could block (blockable: a false mate, the
    holdings empty or useless) or not (a bughouse mate); or None."""
    board, _, hold, rest = split_fen(fen)
    opp = "b" if rest[0] == "w" else "w"
    for uci in legal:
        _, checkers, legal_after = eng.query(fen, uci)
        if checkers and not legal_after:
            after = split_fen(apply_move(eng, fen, uci)[0])[0]
            if check_blockable(after, checkers, opp) == blockable:
                return uci
    return None


def play_game(eng, rng, gno, stats, hunt=False):
    names = make_names(rng)
    base = rng.choice([120, 180, 180, 300])
    boards = {"A": Board(), "B": Board()}
    rem = {p: base * 1000 for p in PLAYERS}
    last_t = {"A": 0, "B": 0}
    t = 0
    cap = 40 + int(160 * rng.random() ** 3)
    moves = []
    blockable = []      # indexes of moves leaving a blockable "crazyhouse mate"
    end = None
    while True:
        if len(moves) >= cap:
            end = (rng.choice(["resign", "flag"]), rng.choice(PLAYERS))
            break
        r = rng.random()
        dt = (rng.randint(100, 1000) if r < 0.8 else
              rng.randint(1000, 3000) if r < 0.97 else
              rng.randint(3000, 8000))
        t += dt
        flagged = [seat(X, boards[X].side) for X in "AB"
                   if rem[seat(X, boards[X].side)] - (t - last_t[X]) <= 0]
        if flagged:
            end = ("flag", flagged[0])
            break
        order = ["A", "B"] if rng.random() < 0.5 else ["B", "A"]
        X = None
        for cand in order:
            _, _, legal = eng.query(boards[cand].fen)
            if legal:
                X = cand
                break
        if X is None:
            end = ("unfinished", None)
            break
        bd = boards[X]
        fen = bd.fen
        fsf_fen, _, legal = eng.query(fen)
        board, _, hold, rest = split_fen(fen)
        side = rest[0]
        weights = [4 if ("@" in m or is_capture(board, m)) else
                   8 if (board[m[0:2]].upper() == "K" and
                         abs(sqxy(m[0:2])[0] - sqxy(m[2:4])[0]) == 2) else 1
                   for m in legal]
        uci = rng.choices(legal, weights)[0]
        if rng.random() < 0.25:
            tm = find_mate(eng, fen, legal, False)
            if tm:
                uci = tm
        if hunt:
            opp_hold = [c for c in hold if c.islower() == (side == "w")]
            fm = None if opp_hold else find_mate(eng, fen, legal, True)
            if fm:
                uci = fm
        assert uci in legal
        fen_after, captured, checkers, legal_after = apply_move(eng, fen, uci)
        opp = "b" if side == "w" else "w"
        board_after = split_fen(fen_after)[0]
        mate = False
        if checkers and not legal_after:
            if check_blockable(board_after, checkers, opp):
                blockable.append(len(moves))
            else:
                mate = True
        san = san_of(board, legal, uci, checkers, mate)
        player = seat(X, side)
        clock = rem[player] - (t - last_t[X])
        rem[player] = clock
        last_t[X] = t
        bd.n += 1
        label = "%d%s" % ((bd.n + 1) // 2, X if side == "w" else X.lower())
        moves.append({"board": X, "side": side, "label": label, "uci": uci,
                      "san": san, "fen_before": fen, "clock": clock / 1000.0,
                      "ms": clock, "lag": rng.randint(18, 240)})
        bd.fen = fen_after
        if captured:
            o = boards[other(X)]
            o.fen = add_holding(o.fen, captured)
        if mate:
            end = ("mate", seat(X, opp))
            break
        if hunt and blockable:
            end = ("unfinished", None)
            break
    kind, loser = end
    if kind == "flag" and len(moves) < cap:
        kind_s = "flag-clock"
    else:
        kind_s = kind
    stats[kind_s] = stats.get(kind_s, 0) + 1
    stats["blockable"] = stats.get("blockable", 0) + len(blockable)
    g = {"game": gno, "names": names, "base": base, "moves": moves,
         "end": kind, "loser": loser,
         "end_board": loser[-1] if loser else None,
         "final": {"A": boards["A"].fen, "B": boards["B"].fen},
         "blockable": blockable,
         "date": (rng.randint(2016, 2023), rng.randint(1, 12),
                  rng.randint(1, 28)),
         "time": (rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59)),
         "elo": {p: rng.randint(1100, 2500) for p in PLAYERS},
         "number": 1900000 + gno * 37 + rng.randint(0, 30)}
    return g


# ---- results -----------------------------------------------------------

def board_result(loser):
    """bughousedb.com convention: result of the board where it ended."""
    if loser is None:
        return "*"
    return "0-1" if loser.startswith("White") else "1-0"


def team_result(loser):
    if loser is None:
        return "*"
    return "0-1" if loser in TEAM1 else "1-0"


def winner_on_board(loser):
    b = loser[-1]
    return ("Black" if loser.startswith("White") else "White") + b


def term_comment(g, kind=None, loser=None):
    kind = kind or g["end"]
    loser = loser if loser is not None else g["loser"]
    n = g["names"]
    if kind == "mate":
        return "{%s checkmated}" % n[loser]
    if kind == "resign":
        return "{%s resigns}" % n[loser]
    if kind == "flag":
        return "{%s forfeits on time}" % n[loser]
    return "{Game aborted by mutual agreement}"


# ---- writers -------------------------------------------------------------

def fmt_ms(ms):
    s = "%.3f" % (ms / 1000.0)
    s = s.rstrip("0").rstrip(".")
    return s


def fmt_clk(ms):
    tenths = ms // 100
    h, r = divmod(tenths, 36000)
    m, r = divmod(r, 600)
    s, d = divmod(r, 10)
    out = "%d:%02d:%02d" % (h, m, s)
    if d:
        out += ".%d" % d
    return out


def wrap(tokens, width=80):
    lines = []
    cur = ""
    for tok in tokens:
        for word in tok.split(" "):
            if cur and len(cur) + 1 + len(word) > width:
                lines.append(cur)
                cur = word
            else:
                cur = cur + " " + word if cur else word
    if cur:
        lines.append(cur)
    return "\n".join(lines)


def fics_head(g, event, site, datesep):
    """The tags both FICS layouts start with, up to TimeControl: they
    differ in Event, Site and the Date's separator."""
    n, e = g["names"], g["elo"]
    y, mo, d = g["date"]
    hh, mi, ss = g["time"]
    head = ['[Event "%s"]' % event,
            '[Site "%s"]' % site,
            '[Date "%04d%s%02d%s%02d"]' % (y, datesep, mo, datesep, d),
            '[Time "%02d:%02d:%02d"]' % (hh, mi, ss)]
    for p in PLAYERS:
        head.append('[%s "%s"][%sElo "%d"]' % (p, n[p], p, e[p]))
    head.append('[TimeControl "%d+0"]' % g["base"])
    return head


def bughousedb_game(g, moves=None, kind=None, loser=None, result=None,
                    extra_tags=()):
    """bughousedb.com 2021-22 layout.  -> (text, pos) where pos has, per
    written half-move, (line, label col, move col) relative to the game's
    first line (1-based), and 'result': (line, col)."""
    moves = g["moves"] if moves is None else moves
    kind = kind or g["end"]
    loser = loser if loser is not None else g["loser"]
    if result is None:
        result = board_result(loser) if kind != "unfinished" else "*"
    head = fics_head(g, "FICS rated bughouse match", "freechess.org", "-")
    head.extend(extra_tags)
    head.append('[Lag "%s"]' % " ".join(str(m["lag"]) for m in moves))
    head.append('[Result "%s"]' % result)
    head.append("{C: This is game number %d at http://www.bughousedb.com}"
                % g["number"])
    mline = len(head) + 1
    line = ""
    pos = {"moves": []}
    for m in moves:
        if line:
            line += " "
        lab = m["label"] + ". "
        pos["moves"].append((mline, len(line) + 1, len(line) + len(lab) + 1))
        line += lab + m["san"] + "{" + fmt_ms(m["ms"]) + "}"
    tc = term_comment(g, kind, loser) + " "
    pos["result"] = (mline + 1, len(tc) + 1)
    text = "\n".join(head + [line, tc + result]) + "\n"
    return text, pos


def org_game(g):
    head = fics_head(g, "FICS rated bughouse game", "FICS freechess.org", ".")
    res = team_result(g["loser"])
    head.append('[Result "%s"]' % res)
    toks = ["%s. %s {%d}" % (m["label"], m["san"], m["ms"] // 1000)
            for m in g["moves"]]
    toks.append(term_comment(g) + " " + res)
    return "\n".join(head) + "\n" + wrap(toks) + "\n"


def chesscom_san(san):
    return san[1:] if san.startswith("P@") else san


def chesscom_game(g):
    n = g["names"]
    y, mo, d = g["date"]
    res = team_result(g["loser"])
    if g["end"] == "unfinished":
        term = "Game abandoned"
    else:
        how = {"mate": "checkmate", "resign": "resignation",
               "flag": "time"}[g["end"]]
        w = n[winner_on_board(g["loser"])]
        term = ("%s won on time" % w if g["end"] == "flag"
                else "%s won by %s" % (w, how))
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1"
    head = ['[Event "Live Chess - Bughouse"]', '[Site "Chess.com"]',
            '[Date "%04d.%02d.%02d"]' % (y, mo, d), '[Round "?"]']
    for p in PLAYERS:
        head.append('[%s "%s"]' % (p, n[p]))
    head += ['[Result "%s"]' % res, '[Variant "Bughouse"]', '[SetUp "1"]',
             '[FEN "%s | %s"]' % (start, start),
             '[TimeControl "%d"]' % g["base"],
             '[Termination "%s"]' % term]
    toks = ["%s. %s {[%%clk %s]}" % (m["label"], chesscom_san(m["san"]),
                                     fmt_clk(m["ms"])) for m in g["moves"]]
    toks.append(res)
    return "\n".join(head) + "\n\n" + wrap(toks) + "\n"


def pychess_game(g):
    n = g["names"]
    y, mo, d = g["date"]
    res = team_result(g["loser"])
    head = ['[Event "?"]',
            '[Site "https://www.pychess.org/analysis/bughouse"]',
            '[Date "%04d.%02d.%02d"]' % (y, mo, d)]
    for p in PLAYERS:
        head.append('[%s "%s"]' % (p, n[p]))
    head += ['[Result "%s"]' % res, '[Variant "Bughouse"]',
             '[FEN "%s | %s"]' % (START, START), '[SetUp "1"]']
    mt = " ".join("%s. %s" % (m["label"], m["san"]) for m in g["moves"])
    return "\n".join(head) + "\n\n" + mt + " " + res + "\n"


def answer_line(g):
    return json.dumps({
        "game": g["game"], "end": g["end"], "end_board": g["end_board"],
        "loser": g["loser"],
        "result_board": board_result(g["loser"]),
        "result_team": team_result(g["loser"]),
        "players": g["names"],
        "moves": [{k: m[k] for k in ("board", "side", "label", "uci", "san",
                                     "fen_before", "clock")}
                  for m in g["moves"]],
        "final": g["final"]}, separators=(",", ":"))


# ---- broken copies -------------------------------------------------------

def board_counts(moves, upto):
    c = {"A": 0, "B": 0}
    for m in moves[:upto]:
        c[m["board"]] += 1
    return c


def make_drop_not_held(eng, g, rng):
    """Replace a half-move by a drop, same label, of a piece type the mover
    does not hold; FSF lists the drop once the piece is added."""
    idxs = list(range(4, len(g["moves"])))
    rng.shuffle(idxs)
    for k in idxs:
        m = g["moves"][k]
        fen = m["fen_before"]
        board, promoted, hold, rest = split_fen(fen)
        side = m["side"]
        types = [t for t in "PNBRQ"
                 if (t if side == "w" else t.lower()) not in hold]
        rng.shuffle(types)
        for t in types:
            pc = t if side == "w" else t.lower()
            fen2 = join_fen(board, promoted, hold + pc, rest)
            _, _, legal2 = eng.query(fen2)
            drops = [u for u in legal2 if u.startswith(t + "@")]
            # the genuine position must not list it (piece not held)
            _, _, legal = eng.query(fen)
            drops = [u for u in drops if u not in legal and u[2:4] not in board]
            if not drops:
                continue
            uci = rng.choice(drops)
            _, checkers, legal_after = eng.query(fen2, uci)
            if checkers and not legal_after:
                continue
            san = san_of(board, legal2, uci, checkers, False)
            mv = dict(m, san=san, uci=uci)
            return k, mv
    return None


def broken_games(eng, games, rng, per_kind):
    """-> {kind: [(game dict, moves, end kind, loser, result,
                   [flags...])]} where a flag is
       (which, board, ply, severity, code) and which is ('label', k),
       ('move', k) or ('result',)."""
    out = {"drop-not-held": [], "out-of-turn": [], "wrong-board": [],
           "false-mate": []}
    pool = [g for g in games if len(g["moves"]) >= 12]

    def resign_end(moves):
        loser = rng.choice(PLAYERS)
        return "resign", loser, board_result(loser)

    # drop-not-held
    for g in rng.sample(pool, min(len(pool), per_kind * 2)):
        if len(out["drop-not-held"]) >= per_kind:
            break
        r = make_drop_not_held(eng, g, rng)
        if not r:
            continue
        k, mv = r
        moves = g["moves"][:k] + [mv]
        kind, loser, res = resign_end(moves)
        ply = board_counts(moves, k)[mv["board"]] + 1
        out["drop-not-held"].append(
            (g, moves, kind, loser, res,
             [(("move", k), mv["board"], ply, "error", "illegal-drop")]))

    # out-of-turn: delete a non-capturing black half-move of a board; the
    # board's next (white) label is then out of turn.
    for g in rng.sample(pool, len(pool)):
        if len(out["out-of-turn"]) >= per_kind:
            break
        ms = g["moves"]
        cands = []
        for k, m in enumerate(ms):
            if m["side"] != "b" or k < 3:
                continue
            b = split_fen(m["fen_before"])[0]
            if is_capture(b, m["uci"]):
                continue
            nxt = [j for j in range(k + 1, len(ms)) if ms[j]["board"] == m["board"]]
            if nxt:
                cands.append((k, nxt[0]))
        if not cands:
            continue
        k, j = rng.choice(cands)
        moves = ms[:k] + ms[k + 1:j + 1]
        jj = j - 1            # index of the flagged move in `moves`
        kind, loser, res = resign_end(moves)
        X = ms[j]["board"]
        ply = board_counts(moves, jj)[X] + 1
        out["out-of-turn"].append(
            (g, moves, kind, loser, res,
             [(("label", jj), X, ply, "error", "move-label")]))

    # wrong-board: one half-move written with the other board's letter
    for g in rng.sample(pool, len(pool)):
        if len(out["wrong-board"]) >= per_kind:
            break
        ms = g["moves"]
        cands = []
        for k in range(3, len(ms)):
            m = ms[k]
            Y = other(m["board"])
            c = board_counts(ms, k)[Y]
            exp = "%d%s" % (c // 2 + 1, Y if c % 2 == 0 else Y.lower())
            new = m["label"][:-1] + (Y if m["side"] == "w" else Y.lower())
            if new != exp:
                cands.append((k, new, Y, c + 1))
        if not cands:
            continue
        k, new, Y, ply = rng.choice(cands)
        moves = ms[:k] + [dict(ms[k], label=new)]
        kind, loser, res = resign_end(moves)
        out["wrong-board"].append(
            (g, moves, kind, loser, res,
             [(("label", k), Y, ply, "error", "move-label")]))
    return out


def false_mates(games, per_kind, rng):
    out = []
    cands = [(g, k) for g in games for k in g["blockable"]]
    rng.shuffle(cands)
    seen = set()
    for g, k in cands:
        if g["game"] in seen:
            continue
        seen.add(g["game"])
        m = g["moves"][k]
        mv = dict(m, san=m["san"].rstrip("+") + "#")
        moves = g["moves"][:k] + [mv]
        X = m["board"]
        opp = "b" if m["side"] == "w" else "w"
        loser = seat(X, opp)
        res = board_result(loser)
        ply = board_counts(moves, k)[X] + 1
        out.append((g, moves, "mate", loser, res,
                    [(("move", k), X, ply, "warning", "check-suffix"),
                     (("result",), X, 0, "warning", "result")]))
        if len(out) >= per_kind:
            break
    return out


# ---- main ----------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=20240611)
    ap.add_argument("--out", default="testdata/bughouse")
    ap.add_argument("--fsf", default=FSF_PATH)
    ap.add_argument("--per-kind", type=int, default=15)
    ap.add_argument("--harvest", type=int, default=400,
                    help="extra unwritten games to search for false mates")
    a = ap.parse_args()

    eng = Engine(a.fsf)
    rng = random.Random(a.seed)
    stats = {}
    games = [play_game(eng, rng, i + 1, stats) for i in range(a.games)]

    gen = os.path.join(a.out, "gen")
    brk = os.path.join(a.out, "broken")
    os.makedirs(gen, exist_ok=True)
    os.makedirs(brk, exist_ok=True)

    def write(path, parts):
        with open(path, "w", newline="\n") as f:
            f.write("\n".join(parts))

    write(os.path.join(gen, "bughousedb.bpgn"),
          [bughousedb_game(g)[0] for g in games])
    write(os.path.join(gen, "bughousedb-org.bpgn"), [org_game(g) for g in games])
    write(os.path.join(gen, "chesscom.bpgn"), [chesscom_game(g) for g in games])
    write(os.path.join(gen, "pychess.bpgn"), [pychess_game(g) for g in games])
    write(os.path.join(gen, "answers.jsonl"),
          [answer_line(g) for g in games] + [""])

    # broken copies
    brng = random.Random(a.seed + 1)
    broken = broken_games(eng, games, brng, a.per_kind)
    fm = false_mates(games, a.per_kind, brng)
    hrng = random.Random(a.seed + 2)
    hstats = {}
    h = 0
    while len(fm) < a.per_kind and h < a.harvest:
        h += 1
        g = play_game(eng, hrng, 100000 + h, hstats, hunt=True)
        if g["blockable"]:
            fm += false_mates([g], 1, brng)
    broken["false-mate"] = fm

    rows = ["file\tgame\tline\tcol\tboard\tply\tseverity\tcode\tkind"]
    for kind in ("drop-not-held", "out-of-turn", "wrong-board", "false-mate"):
        fname = kind + ".bpgn"
        parts = []
        line0 = 1
        for gi, (g, moves, ek, loser, res, flags) in enumerate(broken[kind], 1):
            text, pos = bughousedb_game(g, moves, ek, loser, res)
            parts.append(text)
            for which, board, ply, sev, code in flags:
                if which[0] == "result":
                    ln, col = pos["result"]
                else:
                    ln, lcol, mcol = pos["moves"][which[1]]
                    col = lcol if which[0] == "label" else mcol
                rows.append("%s\t%d\t%d\t%d\t%s\t%d\t%s\t%s\t%s" % (
                    fname, gi, line0 + ln - 1, col, board, ply, sev, code, kind))
            line0 += text.count("\n") + 1     # + blank separator line
        write(os.path.join(brk, fname), parts)
    write(os.path.join(brk, "answers.tsv"), rows + [""])

    nmoves = sum(len(g["moves"]) for g in games)
    print("fsf: %s" % eng.version, file=sys.stderr)
    print("games %d half-moves %d ends %s; broken %s; harvest games %d; "
          "fsf queries %d" % (len(games), nmoves, stats,
                              {k: len(v) for k, v in broken.items()}, h,
                              eng.queries), file=sys.stderr)
    eng.close()


if __name__ == "__main__":
    main()
