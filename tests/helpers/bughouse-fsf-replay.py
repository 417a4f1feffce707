#!/usr/bin/env python3
"""bughouse-fsf-replay.py ZHREPLAY FSF FILE.bpgn: an independent replay of
a BPGN game by Fairy-Stockfish (variant bughouse), compared with
zhreplay's, half-move by half-move.

Fairy-Stockfish's bughouse is one board whose holdings come from
outside: a capture does not go to anyone's hand.  So this script keeps
the two boards as two FENs, plays each half-move on its board with
Fairy-Stockfish ("position fen F moves M", then "d" for the new FEN),
and moves each capture to the partner's holdings itself (the captured
piece, a pawn if it was promoted, to the holdings of its own colour on
the other board).

The move itself comes from the BPGN's SAN, not from zhreplay: it is
matched against Fairy-Stockfish's legal moves ("go perft 1") of the
board's FEN, by piece, destination, disambiguation and promotion.

Checked at every half-move:
  - the SAN names exactly one of Fairy-Stockfish's legal moves on
    zhreplay's FEN before it (so zhreplay's position allows it);
  - zhreplay's UCI move (-F uci) is that move;
  - the two boards of zhreplay's FEN after it (-F fen -t fairy) equal
    Fairy-Stockfish's (piece placement, holdings as a multiset, side,
    castling, en passant, clocks), and zhreplay's promoted marks ('~')
    the squares of the promoted pieces this script follows.
Prints "N half-moves agree" and Fairy-Stockfish's final two-board FEN
("final: fenA | fenB", its '~' marks added) and exits 0, or the first difference and 1.
"""
import re
import subprocess
import sys


def die(msg):
    print(msg)
    sys.exit(1)


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.until(lambda l: l == "uciok")
        self.send("setoption name UCI_Variant value bughouse")
        self.send("isready")
        self.until(lambda l: l == "readyok")

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def until(self, stop):
        out = []
        while True:
            line = self.p.stdout.readline()
            if line == "":
                die("fairy-stockfish ended")
            line = line.rstrip("\n")
            out.append(line)
            if stop(line):
                return out

    def legal(self, fen):
        self.send("position fen " + fen)
        self.send("go perft 1")
        out = self.until(lambda l: l.startswith("Nodes searched"))
        return sorted(l.split(":")[0] for l in out
                      if re.match(r"^[A-Za-z0-9@]+: 1$", l))

    def play(self, fen, move):
        self.send("position fen %s moves %s" % (fen, move))
        self.send("d")
        out = self.until(lambda l: l.startswith("Checkers:"))
        for l in out:
            if l.startswith("Fen: "):
                return l[5:]
        die("no Fen: line from fairy-stockfish")

    def close(self):
        self.send("quit")
        self.p.wait()


def board_of(fen):
    """{square: (letter, promoted)} and the holdings text of a FEN."""
    place = fen.split(" ")[0]
    m = re.match(r"^([^\[]*)\[([^\]]*)\]$", place)
    ranks, hand = (m.group(1), m.group(2)) if m else (place, "")
    sq = {}
    for r, row in enumerate(ranks.split("/")[:8]):
        f = 0
        i = 0
        while i < len(row):
            c = row[i]
            if c.isdigit():
                f += int(c)
            else:
                prom = i + 1 < len(row) and row[i + 1] == "~"
                sq["abcdefgh"[f] + str(8 - r)] = (c, prom)
                f += 1
                if prom:
                    i += 1
            i += 1
    return sq, hand


def norm(fen):
    """A FEN with its holdings sorted (two writers' orders compare) and
    no '~' (Fairy-Stockfish's bughouse does not mark promoted pieces:
    they are compared apart, see promoted())."""
    sq, hand = board_of(fen)
    fields = fen.split(" ")
    place = fields[0].split("[")[0].replace("~", "")
    return " ".join([place + "[" + "".join(sorted(hand)) + "]"] + fields[1:])


def promoted(fen):
    return {s for s, (_, p) in board_of(fen)[0].items() if p}


def marked(fen, prom):
    """Fairy-Stockfish's FEN with '~' after the promoted pieces."""
    sq, hand = board_of(fen)
    rows = []
    for r in range(8, 0, -1):
        row, gap = "", 0
        for f in "abcdefgh":
            if f + str(r) not in sq:
                gap += 1
                continue
            if gap:
                row += str(gap)
            gap = 0
            row += sq[f + str(r)][0] + ("~" if f + str(r) in prom else "")
        rows.append(row + (str(gap) if gap else ""))
    return " ".join(["/".join(rows) + "[" + hand + "]"] + fen.split(" ")[1:])


def add_hand(fen, letter):
    fields = fen.split(" ")
    place = fields[0]
    if "[" in place:
        place = place[:-1] + letter + "]"
    else:
        place += "[" + letter + "]"
    return " ".join([place] + fields[1:])


def san_matches(san, uci, sq, side):
    s = re.sub(r"[+#!?]+$", "", san)
    if s in ("O-O", "0-0", "O-O-O", "0-0-0"):
        rank = "1" if side == "w" else "8"
        to = ("g" if len(s) == 3 else "c") + rank
        return uci == "e" + rank + to
    m = re.match(r"^([PNBRQK]?)@([a-h][1-8])$", s)
    if m:
        return uci == (m.group(1) or "P") + "@" + m.group(2)
    m = re.match(r"^([NBRQK])?([a-h])?([1-8])?x?([a-h][1-8])(?:=?([NBRQ]))?$",
                 s)
    if not m or "@" in uci:
        return False
    piece, ff, fr, to, promo = m.groups()
    frm = uci[:2]
    if uci[2:4] != to or frm not in sq:
        return False
    if (sq[frm][0].upper()) != (piece or "P"):
        return False
    if (ff and frm[0] != ff) or (fr and frm[1] != fr):
        return False
    return uci[4:].upper() == (promo or "")


def moves_of(path):
    """The BPGN's half-moves: (label, SAN), in the text's order."""
    text = open(path, encoding="utf-8", errors="replace").read()
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r"^\[.*$", " ", text, flags=re.M)
    text = re.sub(r"\[[^\]]*\]", " ", text)
    return re.findall(r"(\d+[AaBb])\.\s*([^\s{}]+)", text)


def main():
    zhreplay, fsf, path = sys.argv[1:4]
    fens = subprocess.run([zhreplay, "-F", "fen", "-t", "fairy", path],
                          capture_output=True, text=True).stdout.split("\n")
    fens = [l for l in fens if l]
    ucis = subprocess.run([zhreplay, "-F", "uci", path], capture_output=True,
                          text=True).stdout.split()
    moves = moves_of(path)
    if len(fens) != len(moves) + 1 or len(ucis) != len(moves):
        die("%s: zhreplay gives %d positions and %d moves for %d half-moves"
            % (path, len(fens), len(ucis), len(moves)))
    eng = Engine(fsf)
    cur = [f.strip() for f in fens[0].split("|")]   # the start, as written
    prom = [promoted(cur[0]), promoted(cur[1])]     # kept here, see norm()
    for i, (label, san) in enumerate(moves):
        bd = 0 if label[-1] in "Aa" else 1
        before = [f.strip() for f in fens[i].split("|")]
        after = [f.strip() for f in fens[i + 1].split("|")]
        legal = eng.legal(before[bd])
        sq, _ = board_of(before[bd])
        side = before[bd].split(" ")[1]
        named = [u for u in legal if san_matches(san, u, sq, side)]
        if len(named) != 1:
            die("%s: half-move %d (%s. %s): names %d of Fairy-Stockfish's "
                "legal moves on %s" % (path, i + 1, label, san, len(named),
                                        before[bd]))
        uci = named[0]
        zl, zu = ucis[i].split(".", 1)
        if zl != label or zu != uci:
            die("%s: half-move %d: zhreplay says %s, the file and "
                "Fairy-Stockfish %s.%s" % (path, i + 1, ucis[i], label, uci))
        # Fairy-Stockfish's own chain: its last FEN, not zhreplay's
        csq, _ = board_of(cur[bd])
        to = uci[2:4]
        if "@" not in uci and to in csq:
            taken = csq[to]
        elif "@" not in uci and csq.get(uci[:2], ("", 0))[0] in "Pp" and \
                uci[0] != to[0]:
            taken = ("p" if side == "w" else "P", False)   # en passant
        else:
            taken = None
        if taken is not None:
            taken = (taken[0], to in prom[bd])
        if "@" not in uci:
            prom[bd].discard(to)
            if uci[:2] in prom[bd] or len(uci) == 5:
                prom[bd].discard(uci[:2])
                prom[bd].add(to)
        cur[bd] = eng.play(cur[bd], uci)
        if taken is not None:
            letter = "P" if taken[1] else taken[0].upper()
            if taken[0].islower():
                letter = letter.lower()
            cur[1 - bd] = add_hand(cur[1 - bd], letter)
        for b in (0, 1):
            if norm(cur[b]) != norm(after[b]) or \
                    prom[b] != promoted(after[b]):
                die("%s: after half-move %d (%s. %s), board %s:\n"
                    "  zhreplay:       %s\n  Fairy-Stockfish: %s"
                    % (path, i + 1, label, san, "AB"[b], after[b], cur[b]))
    eng.close()
    print("%d half-moves agree" % len(moves))
    print("final: %s | %s" % (marked(cur[0], prom[0]), marked(cur[1], prom[1])))


main()
