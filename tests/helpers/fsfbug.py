"""Fairy-Stockfish (variant bughouse) as an oracle, shared by
gen-bughouse.py and check-bughouse-fsf.py.  Standard library only.

One persistent engine process, driven through pipes.  A query sends
`position fen F [moves m]`, `d` and `go perft 1` and reads back the FEN FSF
prints, its `Checkers:` line and the legal moves of the resulting
position (UCI, drops as `N@f3`).  `go perft` runs in a search thread, so
every query is read to its `Nodes searched` line before the next is sent.

FSF's `bughouse` FEN drops the `~` of promoted pieces (its crazyhouse FEN
keeps it); it accepts `~` on input and ignores it, and accepts holdings in
either `[...]` or the lichess `/...` form.
"""

import os
import subprocess

FSF_PATH = os.environ.get("FAIRY_STOCKFISH", "/usr/games/fairy-stockfish")

HOLD_ORDER = "QRBNPqrbnp"


class Engine:
    def __init__(self, path=FSF_PATH, variant="bughouse"):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL,
                                  text=True, bufsize=1)
        self.version = self._readline().strip()
        self._send("uci")
        while self._readline().strip() != "uciok":
            pass
        self._send("setoption name UCI_Variant value " + variant)
        self._send("isready")
        while self._readline().strip() != "readyok":
            pass
        self.cache = {}
        self.queries = 0

    def _send(self, s):
        self.p.stdin.write(s + "\n")

    def _readline(self):
        line = self.p.stdout.readline()
        if line == "":
            raise RuntimeError("fairy-stockfish exited")
        return line

    def query(self, fen, move=None):
        """-> (fsf_fen, checkers list, sorted legal move list) of the
        position `fen` (after `move` if given)."""
        key = (fen, move)
        r = self.cache.get(key)
        if r is not None:
            return r
        self.queries += 1
        cmd = "position fen " + fen
        if move:
            cmd += " moves " + move
        self._send(cmd)
        self._send("d")
        self._send("go perft 1")
        self.p.stdin.flush()
        fsf_fen = None
        checkers = None
        legal = []
        while True:
            line = self._readline().rstrip("\n")
            if line.startswith("Fen: "):
                fsf_fen = line[5:].strip()
            elif line.startswith("Checkers:"):
                checkers = line[9:].split()
            elif line.startswith("Nodes searched"):
                break
            elif checkers is not None and ": " in line:
                mv, n = line.split(": ", 1)
                if n.strip().isdigit():
                    legal.append(mv.strip())
        r = (fsf_fen, checkers, sorted(legal))
        if len(self.cache) > 200000:
            self.cache.clear()
        self.cache[key] = r
        return r

    def close(self):
        try:
            self._send("quit")
            self.p.stdin.flush()
        except (BrokenPipeError, OSError):
            pass
        self.p.wait()


# ---- FEN helpers -------------------------------------------------------

FILES = "abcdefgh"


def split_fen(fen):
    """-> (board dict sq->piece, promoted set, holdings str, rest list).
    Accepts `[holdings]`, lichess `/holdings` (ninth rank field) or none."""
    parts = fen.split()
    place = parts[0]
    hold = ""
    if "[" in place:
        place, hold = place.split("[", 1)
        hold = hold.rstrip("]")
    else:
        rows = place.split("/")
        if len(rows) == 9:
            hold = rows[8]
            place = "/".join(rows[:8])
    board = {}
    promoted = set()
    rows = place.split("/")
    for r, row in enumerate(rows):
        rank = 8 - r
        f = 0
        last = None
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            elif ch == "~":
                if last:
                    promoted.add(last)
            else:
                sq = FILES[f] + str(rank)
                board[sq] = ch
                last = sq
                f += 1
    return board, promoted, hold, parts[1:]


def canon_hold(hold):
    return "".join(sorted(hold, key=HOLD_ORDER.index))


def join_fen(board, promoted, hold, rest):
    rows = []
    for rank in range(8, 0, -1):
        s = ""
        empty = 0
        for f in FILES:
            sq = f + str(rank)
            p = board.get(sq)
            if p is None:
                empty += 1
                continue
            if empty:
                s += str(empty)
                empty = 0
            s += p + ("~" if sq in promoted else "")
        if empty:
            s += str(empty)
        rows.append(s)
    return "/".join(rows) + "[" + canon_hold(hold) + "] " + " ".join(rest)


def to_bracket_form(fen):
    b, pr, h, rest = split_fen(fen)
    return join_fen(b, pr, h, rest)
