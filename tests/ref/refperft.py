#!/usr/bin/env python3
"""refperft.py - a deliberately simple, slow reference move generator.

It exists only to cross-check zhkit's C move generator (and Fairy-Stockfish)
on variants for which no published perft counts exist.  It shares no code or
data with lib/: the board is a flat Python list, moves are generated
pseudo-legally and filtered by "make the move on a copy, then is my king
attacked?".  Every rule difference between variants is an entry in RULES.

Usage:
    refperft.py [--divide] VARIANT 'FEN' DEPTH

VARIANT: chess crazyhouse loop chessgi upsidedown wild5 grand grandhouse
FEN may carry a pocket as '[QRp]' after the board or as a 9th/11th rank
('/QRp'), and '~' after a piece letter marks a promoted piece.
With --divide, prints 'uci count' per root move (sorted), then the total.
Standard library only.
"""
import sys

FILES = "abcdefghij"

# ---------------------------------------------------------------- rules ----
# Ranks are "relative": 1 is the side's own back rank, H its far rank.
ORTHO = dict(w=8, h=8, drops=False, to_hand=False, demote=True,
             castling=True, pawn_drop_ranks=(), double_ranks=(2,),
             promo_ranks=(8,), promo_types="QRBN", promo_limit=None,
             pieces="KQRBNP")
RULES = {
    "chess": dict(ORTHO),
    "crazyhouse": dict(ORTHO, drops=True, to_hand=True, demote=True,
                       pawn_drop_ranks=(2, 3, 4, 5, 6, 7)),
    "loop": dict(ORTHO, drops=True, to_hand=True, demote=False,
                 pawn_drop_ranks=(2, 3, 4, 5, 6, 7)),
    "chessgi": dict(ORTHO, drops=True, to_hand=True, demote=False,
                    pawn_drop_ranks=(1, 2, 3, 4, 5, 6, 7)),
    # Same orthodox rules, no castling; only the start position differs.
    "upsidedown": dict(ORTHO, castling=False),
    "wild5": dict(ORTHO, castling=False),
    "grand": dict(ORTHO, w=10, h=10, castling=False, double_ranks=(3,),
                  promo_ranks=(8, 9, 10), promo_types="QCARBN",
                  promo_limit=dict(Q=1, C=1, A=1, R=2, B=2, N=2),
                  pieces="KQCARBNP"),
}
RULES["grandhouse"] = dict(RULES["grand"], drops=True, to_hand=True,
                           demote=True, pawn_drop_ranks=(2, 3, 4, 5, 6, 7))

START = {
    "chess": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "crazyhouse": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
    "loop": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
    "chessgi": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
    "upsidedown": "RNBQKBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbqkbnr w - - 0 1",
    "wild5": "RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr w - - 0 1",
    "grand": "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1",
    "grandhouse": "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R[] w - - 0 1",
}

# ------------------------------------------------------------ movement ----
KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
KING = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
ROOK = ((1, 0), (0, 1), (-1, 0), (0, -1))
BISHOP = ((1, 1), (-1, 1), (-1, -1), (1, -1))
# type -> (leaper offsets, slider directions); pawns are handled apart
MOVES = {
    "N": (KNIGHT, ()),
    "K": (KING, ()),
    "R": ((), ROOK),
    "B": ((), BISHOP),
    "Q": ((), ROOK + BISHOP),
    "A": (KNIGHT, BISHOP),   # archbishop / cardinal
    "C": (KNIGHT, ROOK),     # chancellor / marshal
}
WHITE, BLACK = 0, 1


class Pos:
    """board: list of w*h cells, index r*w+f (r=0 is rank 1); a cell is None
    or (colour, TYPE, promoted).  hand: two dicts TYPE -> count."""
    __slots__ = ("rules", "w", "h", "board", "turn", "castle", "ep", "hand")

    def copy(self):
        p = Pos()
        p.rules, p.w, p.h = self.rules, self.w, self.h
        p.board = self.board[:]
        p.turn, p.castle, p.ep = self.turn, self.castle, self.ep
        p.hand = [dict(self.hand[0]), dict(self.hand[1])]
        return p


def parse_fen(variant, fen):
    rules = RULES[variant]
    w, h = rules["w"], rules["h"]
    fields = fen.split()
    placement = fields[0]
    pocket = ""
    if "[" in placement:
        placement, pocket = placement.split("[", 1)
        pocket = pocket.rstrip("]")
    ranks = placement.split("/")
    if len(ranks) == h + 1:          # lichess: pocket as an extra rank
        pocket = ranks.pop()
    if len(ranks) != h:
        raise ValueError("bad rank count")
    p = Pos()
    p.rules, p.w, p.h = rules, w, h
    p.board = [None] * (w * h)
    for i, row in enumerate(ranks):
        r = h - 1 - i
        f = 0
        j = 0
        while j < len(row):
            c = row[j]
            if c.isdigit():
                k = j
                while k < len(row) and row[k].isdigit():
                    k += 1
                f += int(row[j:k])
                j = k
                continue
            promoted = j + 1 < len(row) and row[j + 1] == "~"
            if f >= w:
                raise ValueError("rank too long")
            p.board[r * w + f] = (WHITE if c.isupper() else BLACK, c.upper(), promoted)
            f += 1
            j += 2 if promoted else 1
        if f != w:
            raise ValueError("rank %d has %d files" % (r + 1, f))
    p.turn = WHITE if (len(fields) < 2 or fields[1] == "w") else BLACK
    cast = fields[2] if len(fields) > 2 else "-"
    p.castle = frozenset(c for c in cast if c in "KQkq") if rules["castling"] else frozenset()
    p.ep = None
    if len(fields) > 3 and fields[3] != "-":
        p.ep = (int(fields[3][1:]) - 1) * w + FILES.index(fields[3][0])
    p.hand = [{}, {}]
    for c in pocket:
        if c in "-":
            continue
        col = WHITE if c.isupper() else BLACK
        p.hand[col][c.upper()] = p.hand[col].get(c.upper(), 0) + 1
    return p


def to_fen(p):
    """Writes the position back as FEN, pocket as [..] (fairy form)."""
    rows = []
    for r in range(p.h - 1, -1, -1):
        row, empty = "", 0
        for f in range(p.w):
            c = p.board[r * p.w + f]
            if c is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += (c[1] if c[0] == WHITE else c[1].lower()) + ("~" if c[2] and p.rules["drops"] else "")
        if empty:
            row += str(empty)
        rows.append(row)
    fen = "/".join(rows)
    if p.rules["drops"]:
        order = p.rules["pieces"].replace("K", "")
        pocket = "".join(t * p.hand[0].get(t, 0) for t in order)
        pocket += "".join(t.lower() * p.hand[1].get(t, 0) for t in order)
        fen += "[" + pocket + "]"
    cast = "".join(c for c in "KQkq" if c in p.castle) or "-"
    ep = sqname(p, p.ep) if p.ep is not None else "-"
    return "%s %s %s %s 0 1" % (fen, "w" if p.turn == WHITE else "b", cast, ep)


def sqname(p, s):
    return FILES[s % p.w] + str(s // p.w + 1)


def rel_rank(p, colour, s):
    r = s // p.w
    return r + 1 if colour == WHITE else p.h - r


# ------------------------------------------------------------- attacks ----
def attacked(p, s, by):
    """Is square s attacked by a piece of colour `by`?  Looks outwards from s."""
    w, h, b = p.w, p.h, p.board
    f0, r0 = s % w, s // w
    # pawns: a white pawn attacks from one rank below
    pr = r0 - 1 if by == WHITE else r0 + 1
    if 0 <= pr < h:
        for df in (-1, 1):
            f = f0 + df
            if 0 <= f < w:
                c = b[pr * w + f]
                if c and c[0] == by and c[1] == "P":
                    return True
    for df, dr in KNIGHT:
        f, r = f0 + df, r0 + dr
        if 0 <= f < w and 0 <= r < h:
            c = b[r * w + f]
            if c and c[0] == by and c[1] in "NAC":
                return True
    for df, dr in KING:
        f, r = f0 + df, r0 + dr
        if 0 <= f < w and 0 <= r < h:
            c = b[r * w + f]
            if c and c[0] == by and c[1] == "K":
                return True
    for dirs, kinds in ((ROOK, "RQC"), (BISHOP, "BQA")):
        for df, dr in dirs:
            f, r = f0 + df, r0 + dr
            while 0 <= f < w and 0 <= r < h:
                c = b[r * w + f]
                if c:
                    if c[0] == by and c[1] in kinds:
                        return True
                    break
                f += df
                r += dr
    return False


def king_square(p, colour):
    for i, c in enumerate(p.board):
        if c and c[0] == colour and c[1] == "K":
            return i
    return None


# --------------------------------------------------------------- moves ----
# A move is a tuple (frm, to, promo, drop): frm None for a drop, drop the
# dropped TYPE; promo a TYPE or None; castling is a king move of two files.

def promo_choices(p, colour, to):
    """Promotion options for a pawn arriving on `to`: a list of TYPE/None."""
    rules = p.rules
    rr = rel_rank(p, colour, to)
    if rr not in rules["promo_ranks"]:
        return [None]
    types = rules["promo_types"]
    lim = rules["promo_limit"]
    if lim is not None:
        have = {}
        for c in p.board:
            if c and c[0] == colour:
                have[c[1]] = have.get(c[1], 0) + 1
        types = [t for t in types if have.get(t, 0) < lim[t]]
    opts = list(types)
    if rr != p.h:          # promotion optional before the last rank
        opts.append(None)
    return opts


def pseudo_moves(p):
    w, h, b, us = p.w, p.h, p.board, p.turn
    them = 1 - us
    rules = p.rules
    out = []
    fwd = 1 if us == WHITE else -1
    for s, c in enumerate(b):
        if not c or c[0] != us:
            continue
        f0, r0 = s % w, s // w
        t = c[1]
        if t == "P":
            r1 = r0 + fwd
            if 0 <= r1 < h:
                t1 = r1 * w + f0
                if b[t1] is None:
                    for pr in promo_choices(p, us, t1):
                        out.append((s, t1, pr, None))
                    if rel_rank(p, us, s) in rules["double_ranks"]:
                        r2 = r1 + fwd
                        if 0 <= r2 < h and b[r2 * w + f0] is None:
                            for pr in promo_choices(p, us, r2 * w + f0):
                                out.append((s, r2 * w + f0, pr, None))
                for df in (-1, 1):
                    f1 = f0 + df
                    if 0 <= f1 < w:
                        t1 = r1 * w + f1
                        tc = b[t1]
                        if (tc and tc[0] == them) or (tc is None and t1 == p.ep):
                            for pr in promo_choices(p, us, t1):
                                out.append((s, t1, pr, None))
            continue
        leaps, slides = MOVES[t]
        for df, dr in leaps:
            f, r = f0 + df, r0 + dr
            if 0 <= f < w and 0 <= r < h:
                tc = b[r * w + f]
                if tc is None or tc[0] == them:
                    out.append((s, r * w + f, None, None))
        for df, dr in slides:
            f, r = f0 + df, r0 + dr
            while 0 <= f < w and 0 <= r < h:
                tc = b[r * w + f]
                if tc is None:
                    out.append((s, r * w + f, None, None))
                elif tc[0] == them:
                    out.append((s, r * w + f, None, None))
                    break
                else:
                    break
                f += df
                r += dr
    # castling (8x8 orthodox only): king on e1/e8, rook on a/h of that rank
    if p.castle:
        home = 0 if us == WHITE else 7
        ks = home * w + 4
        kc = b[ks]
        if kc and kc[0] == us and kc[1] == "K" and not attacked(p, ks, them):
            for flag, rookf, between, passf, kto in (("K", 7, (5, 6), 5, 6),
                                                     ("Q", 0, (1, 2, 3), 3, 2)):
                if (flag if us == WHITE else flag.lower()) not in p.castle:
                    continue
                rc = b[home * w + rookf]
                if not (rc and rc[0] == us and rc[1] == "R"):
                    continue
                if any(b[home * w + f] is not None for f in between):
                    continue
                if attacked(p, home * w + passf, them):
                    continue
                out.append((ks, home * w + kto, None, None))  # dest checked by legality
    # drops
    if rules["drops"]:
        for t, n in p.hand[us].items():
            if n <= 0:
                continue
            for s in range(w * h):
                if b[s] is not None:
                    continue
                if t == "P" and rel_rank(p, us, s) not in rules["pawn_drop_ranks"]:
                    continue
                out.append((None, s, None, t))
    return out


def make(p, m):
    frm, to, promo, drop = m
    q = p.copy()
    b = q.board
    w = q.w
    us = q.turn
    q.ep = None
    if frm is None:
        b[to] = (us, drop, False)
        q.hand[us][drop] -= 1
    else:
        piece = b[frm]
        captured = b[to]
        if piece[1] == "P" and to == p.ep and captured is None:
            cap_sq = to - w if us == WHITE else to + w
            captured = b[cap_sq]
            b[cap_sq] = None
        if captured is not None and q.rules["to_hand"]:
            ct = "P" if (captured[2] and q.rules["demote"]) else captured[1]
            q.hand[us][ct] = q.hand[us].get(ct, 0) + 1
        b[frm] = None
        if promo:
            b[to] = (us, promo, True)
        else:
            b[to] = piece
        if piece[1] == "P" and abs(to - frm) == 2 * w:
            q.ep = (to + frm) // 2
        if piece[1] == "K" and abs(to - frm) == 2:      # castling
            r = frm // w
            if to % w == 6:
                b[r * w + 5], b[r * w + 7] = b[r * w + 7], None
            else:
                b[r * w + 3], b[r * w + 0] = b[r * w + 0], None
        if q.castle:
            lost = set()
            for sq in (frm, to):
                if sq == 4: lost |= {"K", "Q"}
                if sq == 60: lost |= {"k", "q"}
                if sq == 0: lost.add("Q")
                if sq == 7: lost.add("K")
                if sq == 56: lost.add("q")
                if sq == 63: lost.add("k")
            q.castle = q.castle - lost
    q.turn = 1 - us
    return q


def legal_moves(p):
    out = []
    us = p.turn
    for m in pseudo_moves(p):
        q = make(p, m)
        k = king_square(q, us)
        if k is None or not attacked(q, k, 1 - us):
            out.append(m)
    return out


def uci(p, m):
    frm, to, promo, drop = m
    if frm is None:
        return drop + "@" + sqname(p, to)
    return sqname(p, frm) + sqname(p, to) + (promo.lower() if promo else "")


def perft(p, depth):
    if depth == 0:
        return 1
    moves = legal_moves(p)
    if depth == 1:
        return len(moves)
    return sum(perft(make(p, m), depth - 1) for m in moves)


def main(argv):
    divide = False
    args = []
    for a in argv:
        if a == "--divide":
            divide = True
        else:
            args.append(a)
    if len(args) != 3 or args[0] not in RULES:
        sys.stderr.write("usage: refperft.py [--divide] VARIANT FEN|startpos DEPTH\n"
                         "variants: %s\n" % " ".join(RULES))
        return 2
    variant, fen, depth = args[0], args[1], int(args[2])
    if fen == "startpos":
        fen = START[variant]
    p = parse_fen(variant, fen)
    if divide:
        rows = []
        total = 0
        for m in legal_moves(p):
            n = perft(make(p, m), depth - 1)
            total += n
            rows.append((uci(p, m), n))
        for u, n in sorted(rows):
            print(u, n)
        print("total", total)
    else:
        print(perft(p, depth))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
