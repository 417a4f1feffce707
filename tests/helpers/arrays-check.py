#!/usr/bin/python3
"""Check zhreplay -F npy's arrays (zhkit-arrays(5)) against independent
answers.

  arrays-check.py jsonl DIR POSITIONS.jsonl GAMES.jsonl [CHECK.jsonl]
      every field of every record against zhreplay -F jsonl's object of
      the same position (board, pockets, promoted, side, castling, ep,
      clocks, check, move, result, the [%clk] clocks and evals, final)
      and every game against zhpgn --json's (its tags, read here), and
      the repetition counts recomputed from the JSON positions; the games
      with errors ("valid": false) are in no table.  A bughouse game's
      result is the team's: with CHECK.jsonl (zhcheck --json), the JSON's
      result of a game zhcheck reads by the board's convention and that
      ended on board B is negated (tests/helpers/bug-result.py says why).
  arrays-check.py chess DIR
      the crazyhouse and chess games' records against python-chess
      replaying the same moves (PYTHONPATH has it).
  arrays-check.py mmap DIR
      every table opens memory-mapped.

Prints one line of counts; exits 1 with the first differences.
"""
import json
import os
import re
import sys

import numpy as np

VARIANTS = ["crazyhouse", "loop", "chessgi", "grandhouse", "upsidedown",
            "wild5", "chess", "grand", "bughouse"]
TYPES = "PNBRQKAC"
UNKNOWN = -2**31
NORESULT = -128
BAD = []
STATS = {"long": 0, "nonascii": 0}	# games with text past the old
					# widths, with non-ASCII text


def bad(msg):
    BAD.append(msg)
    if len(BAD) >= 20:
        finish(0)


def finish(n):
    if BAD:
        print("\n".join(BAD))
        sys.exit(1)


def square(name):
    """'e4', 'j10' -> 10 * rank + file."""
    return (int(name[1:]) - 1) * 10 + ord(name[0]) - ord("a")


def load(d):
    t = {k: np.load(os.path.join(d, k + ".npy"))
         for k in ("positions", "bughouse", "games", "files", "strings")}
    return t


def game_id(tags):
    """The game's id as zhkit-arrays(5) says: GameId, else a Link or a
    Site that is a URL."""
    if tags.get("GameId"):
        return tags["GameId"]
    for n in ("Link", "Site"):
        if "://" in tags.get(n, ""):
            return tags[n]
    return ""


def text(g, strings, f):
    """A game's text field f, whole, from strings.npy."""
    o, n = int(g[f + "_off"]), int(g[f + "_len"])
    if o < 0 or n < 0 or o + n > len(strings):
        bad("%s: offset %d, length %d outside strings.npy" % (f, o, n))
        return ""
    return bytes(strings[o:o + n]).decode()


def fen_board(part, nranks):
    """A FEN's board field (the pocket after the ranks, as one more rank
    or in brackets) -> 10x10 piece codes."""
    board = np.zeros((10, 10), np.uint8)
    rows = part.split("[")[0].split("/")[:nranks]
    for i, row in enumerate(rows):
        r, f = nranks - 1 - i, 0
        for tok in re.findall(r"\d+|[A-Za-z]", row):
            if tok.isdigit():
                f += int(tok)
                continue
            board[r, f] = TYPES.index(tok.upper()) + 1 + (8 if tok.islower() else 0)
            f += 1
    return board


def castling_bits(s):
    return sum(b for c, b in zip("KQkq", (1, 2, 4, 8)) if c in s)


def parse_uci(u):
    """-> from, to, drop, promo as the record encodes them."""
    if u in (None, "0000", "@@@@"):
        return 255, 255, 0, 0
    m = re.fullmatch(r"([A-Z])@([a-j](?:10|[1-9]))", u)
    if m:
        return 255, square(m.group(2)), TYPES.index(m.group(1)) + 1, 0
    m = re.fullmatch(r"([a-j](?:10|[1-9]))([a-j](?:10|[1-9]))([a-z]?)", u)
    if not m:
        bad("cannot read UCI %r" % u)
        return 255, 255, 0, 0
    pr = TYPES.index(m.group(3).upper()) + 1 if m.group(3) else 0
    return square(m.group(1)), square(m.group(2)), 0, pr


def result_code(r, side):
    c = {"1-0": 1, "0-1": -1, "1/2-1/2": 0}.get(r, NORESULT)
    return c if c == NORESULT or side == 0 else -c


def pockets_of(pk):
    a = np.zeros((2, 8), np.uint8)
    for c, col in enumerate(("white", "black")):
        for t, n in pk[col].items():
            a[c, TYPES.index(t) + 0] = n
    return a


def packed(grid):
    """A (10, 10) grid of flags as the record's promoted field: bit
    i % 8 of byte i // 8 is square i (10 * rank + file), 13 bytes."""
    return np.packbits(np.asarray(grid, bool).reshape(100), bitorder="little")


def unpacked(bits):
    """The record's promoted field as a (10, 10) grid of flags."""
    return np.unpackbits(np.asarray(bits), count=100,
                         bitorder="little").reshape(10, 10).astype(bool)


def board_state(o, nranks):
    """One board of a JSON position -> the record's fields."""
    f = o["fen"].split()
    board = fen_board(f[0], nranks)
    promo2 = np.zeros((10, 10), bool)
    for s in o["promoted"]:
        promo2.flat[square(s)] = True
    return {
        "board": board, "promoted": packed(promo2),
        "pockets": pockets_of(o["pockets"]),
        "side": 0 if o["side"] == "white" else 1,
        "castling": castling_bits(f[2]),
        "ep": 255 if f[3] == "-" else square(f[3]),
        "halfmove": int(f[4]), "fullmove": int(f[5]),
        "check": bool(o["in_check"]),
    }


def key(st):
    return (st["board"].tobytes(), st["promoted"].tobytes(),
            st["pockets"].tobytes(), st["side"], st["castling"], st["ep"])


def eq(what, got, want):
    if not np.array_equal(np.asarray(got), np.asarray(want)):
        bad("%s: %r, want %r" % (what, got, want))


def read_jsonl(path):
    games = {}
    for line in open(path, encoding="utf-8"):
        o = json.loads(line)
        games.setdefault((o["file"], o["game"]), []).append(o)
    return games


def tag_int(tags, *names):
    for n in names:
        if n in tags:
            return int(tags[n]) if re.fullmatch(r"\d+", tags[n]) and \
                int(tags[n]) < 32768 else -1
    return -1


def check_game_row(g, meta, name, strings):
    tags = meta["tags"]
    two = meta["variant"] == "bughouse"
    eq(name + " variant", VARIANTS[g["variant"]], meta["variant"])
    want = [[tag_int(tags, "WhiteAElo", "WhiteElo") if two else tag_int(tags, "WhiteElo"),
             tag_int(tags, "BlackAElo", "BlackElo") if two else tag_int(tags, "BlackElo")],
            [tag_int(tags, "WhiteBElo") if two else -1,
             tag_int(tags, "BlackBElo") if two else -1]]
    eq(name + " elo", g["elo"], want)
    tc = tags.get("TimeControl", "")
    m = re.fullmatch(r"(\d+)(?:\+(\d+))?", tc)
    eq(name + " tc", (g["tc_base"], g["tc_inc"]),
       (int(m.group(1)), int(m.group(2) or 0)) if m else (-1, -1))
    eq(name + " date", g["date"], tags.get("Date", "").encode()[:10])
    want = {"white": tags.get("WhiteA", tags.get("White", "")) if two
            else tags.get("White", ""),
            "black": tags.get("BlackA", tags.get("Black", "")) if two
            else tags.get("Black", ""),
            "white_b": tags.get("WhiteB", "") if two else "",
            "black_b": tags.get("BlackB", "") if two else "",
            "id": game_id(tags), "site": tags.get("Site", ""),
            "termination": tags.get("Termination", "")}
    for f, v in want.items():
        eq(name + " " + f, text(g, strings, f), v)
    STATS["long"] += len(want["termination"]) > 16 or \
        max(len(want["white"]), len(want["black"])) > 16
    STATS["nonascii"] += any(not v.isascii() for v in want.values())


def check_one_board(recs, objs, name, nranks):
    seen = []
    clock = [UNKNOWN, UNKNOWN]
    eq(name + " records", len(recs), len(objs))
    for k, (r, o) in enumerate(zip(recs, objs)):
        st = board_state(o, nranks)
        at = "%s ply %d" % (name, o["ply"])
        eq(at + " ply", r["ply"], o["ply"])
        for f in ("board", "pockets", "promoted", "side", "castling", "ep",
                  "halfmove", "fullmove", "check"):
            eq(at + " " + f, r[f], st[f])
        if "clock" in o and o["ply"] > 0:
            clock[1 - st["side"]] = int(np.floor(o["clock"] * 1000 + 0.5))
        eq(at + " clock", r["clock"], clock)
        eq(at + " cp", r["cp"], o.get("cp", UNKNOWN))
        eq(at + " mate", r["mate"], o.get("mate", 0))
        eq(at + " result", r["result"], result_code(o["result"], st["side"]))
        kk = key(st)
        eq(at + " repetition", r["repetition"], seen.count(kk))
        seen.append(kk)
        nxt = objs[k + 1]["move"]["uci"] if k + 1 < len(objs) else None
        eq(at + " uci", r["uci"], (nxt or "").encode())
        eq(at + " move", (r["move_from"], r["move_to"], r["move_drop"],
                          r["move_promo"]), parse_uci(nxt))
        eq(at + " final", r["final"], k + 1 == len(objs))


def check_two_boards(recs, objs, name, nranks, sign=1):
    seen = []
    clock = [[UNKNOWN] * 2, [UNKNOWN] * 2]
    eq(name + " records", len(recs), len(objs))
    for k, (r, o) in enumerate(zip(recs, objs)):
        at = "%s half-move %d" % (name, o["ply"])
        eq(at + " ply", r["ply"], o["ply"])
        sts = [board_state(b, nranks) for b in o["boards"]]
        for b, st in enumerate(sts):
            for f in ("board", "pockets", "promoted", "side", "castling",
                      "ep", "halfmove", "fullmove", "check"):
                eq("%s board %d %s" % (at, b, f), r[f][b], st[f])
        m = o["move"]
        if m is not None and "clock" in o:
            clock[m["board"] == "B"][m["mover"] == "black"] = \
                int(np.floor(o["clock"] * 1000 + 0.5))
        eq(at + " clock", r["clock"], clock)
        a = result_code(o["result"], 0)
        a = a if a == NORESULT else sign * a
        eq(at + " result", r["result"],
           [a if sts[0]["side"] == 0 or a == NORESULT else -a,
            (-a if sts[1]["side"] == 0 else a) if a != NORESULT else a])
        kk = (key(sts[0]), key(sts[1]))
        eq(at + " repetition", r["repetition"], seen.count(kk))
        seen.append(kk)
        nm = objs[k + 1]["move"] if k + 1 < len(objs) else None
        eq(at + " move_board", r["move_board"],
           255 if nm is None else "AB".index(nm["board"]))
        eq(at + " uci", r["uci"], (nm["uci"] if nm else "").encode())
        eq(at + " move", (r["move_from"], r["move_to"], r["move_drop"],
                          r["move_promo"]), parse_uci(nm and nm["uci"]))
        eq(at + " final", r["final"], k + 1 == len(objs))


def board_b(check_jsonl):
    """The bughouse games whose result is board B's (zhcheck --json)."""
    flip = set()
    for line in open(check_jsonl, encoding="utf-8") if check_jsonl else ():
        o = json.loads(line)
        if o.get("result_convention") == "board" and \
                (o.get("ending") or {}).get("board") == "B":
            flip.add((o["file"], o["game"]))
    return flip


def check_jsonl(d, pos_jsonl, games_jsonl, check=None):
    t = load(d)
    flip = board_b(check)
    games = read_jsonl(pos_jsonl)
    meta = {(o["file"], o["game"]): o for o in
            map(json.loads, open(games_jsonl, encoding="utf-8"))}
    files = [f.decode() for f in t["files"]]
    written = set()
    nrec = [0, 0]
    for g in t["games"]:
        k = (files[g["file"]], int(g["number"]))
        name = "%s game %d" % k
        written.add(k)
        objs = games.get(k)
        if objs is None or any(o.get("valid") is False for o in objs):
            bad(name + ": written, but zhreplay -F jsonl has it invalid or not at all")
            continue
        eq(name + " row", g["game"], len(written) - 1)
        eq(name + " plies", g["plies"], objs[-1]["ply"])
        sign = -1 if k in flip else 1
        want = result_code(objs[0]["result"], 0)
        eq(name + " result", g["result"],
           want if want == NORESULT else sign * want)
        if k in meta:
            check_game_row(g, meta[k], name, t["strings"])
        else:
            bad(name + ": not in zhpgn --json")
        two = "boards" in objs[0]
        tab = t["bughouse" if two else "positions"]
        recs = tab[g["first"]:g["first"] + g["records"]]
        eq(name + " game of its records", recs["game"], [g["game"]] * len(recs))
        eq(name + " variant of its records", recs["variant"], [g["variant"]] * len(recs))
        nranks = 10 if VARIANTS[g["variant"]] in ("grandhouse", "grand") else 8
        if two:
            check_two_boards(recs, objs, name, nranks, sign)
        else:
            check_one_board(recs, objs, name, nranks)
        nrec[two] += len(recs)
    for k, objs in games.items():
        if k not in written and not any(o.get("valid") is False for o in objs):
            bad("%s game %d: valid in jsonl, not written" % k)
    eq("positions.npy covered", nrec[0], len(t["positions"]))
    eq("bughouse.npy covered", nrec[1], len(t["bughouse"]))
    finish(0)
    print("jsonl: %d games (%d with a text longer than 16 bytes, %d not "
          "ASCII), %d positions, %d bughouse positions: 0 differences"
          % (len(t["games"]), STATS["long"], STATS["nonascii"], nrec[0],
             nrec[1]))


def check_chess(d):
    import chess
    import chess.variant
    t = load(d)
    pos = t["positions"]
    n = ng = 0
    for g in t["games"]:
        v = VARIANTS[g["variant"]]
        if v not in ("crazyhouse", "chess"):
            continue
        recs = pos[g["first"]:g["first"] + g["records"]]
        if len(recs) == 0 or recs[0]["ply"] != 0:
            continue
        cls = chess.variant.CrazyhouseBoard if v == "crazyhouse" else chess.Board
        b = cls(rec_fen(recs[0], v == "crazyhouse"))
        keys = []
        name = "game %d" % g["game"]
        hm = b.halfmove_clock
        for r in recs:
            at = "%s ply %d" % (name, r["ply"])
            want = pychess_fields(b, chess)
            # python-chess's count, but a pawn drop resets it as on
            # Lichess (zhkit's rule: spec/dialects.md, 7.3)
            want["halfmove"] = hm
            for f, w in want.items():
                eq(at + " " + f + " (python-chess)", r[f], w)
            kk = b._transposition_key()
            eq(at + " repetition (python-chess)", r["repetition"], keys.count(kk))
            keys.append(kk)
            n += 1
            if r["uci"]:
                m = chess.Move.from_uci(r["uci"].decode())
                hm = 0 if b.is_zeroing(m) or m.drop == chess.PAWN else hm + 1
                b.push(m)
        ng += 1
    finish(0)
    print("python-chess: %d games, %d positions: 0 differences" % (ng, n))


def rec_fen(r, house):
    """The start record as a FEN for python-chess (a game's start may be
    a FEN tag's position): written from the record alone."""
    rows, promo = [], unpacked(r["promoted"])
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for f in range(8):
            c = int(r["board"][rank][f])
            if c == 0:
                empty += 1
                continue
            row += (str(empty) if empty else "") + \
                (TYPES[c - 1] if c <= 8 else TYPES[c - 9].lower())
            row += "~" if promo[rank][f] else ""
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    pocket = "".join(TYPES[t] * int(r["pockets"][0][t]) for t in range(8)) + \
        "".join(TYPES[t].lower() * int(r["pockets"][1][t]) for t in range(8))
    cs = "".join(c for c, bit in zip("KQkq", (1, 2, 4, 8)) if r["castling"] & bit) or "-"
    ep = "-" if r["ep"] == 255 else "abcdefgh"[r["ep"] % 10] + str(r["ep"] // 10 + 1)
    return "%s%s %s %s %s %d %d" % ("/".join(rows), "[%s]" % pocket if house else "",
                                    "wb"[r["side"]], cs, ep, r["halfmove"], r["fullmove"])


def pychess_fields(b, chess):
    board = np.zeros((10, 10), np.uint8)
    promo = np.zeros((10, 10), bool)
    for s, p in b.piece_map().items():
        board[chess.square_rank(s), chess.square_file(s)] = \
            p.piece_type + (8 if p.color == chess.BLACK else 0)
    for s in chess.SquareSet(getattr(b, "promoted", 0)):
        promo[chess.square_rank(s), chess.square_file(s)] = True
    pockets = np.zeros((2, 8), np.uint8)
    if hasattr(b, "pockets"):
        for c, col in ((0, chess.WHITE), (1, chess.BLACK)):
            for t in range(1, 6):
                pockets[c, t - 1] = b.pockets[col].count(t)
    cs = (b.has_kingside_castling_rights(chess.WHITE) * 1 +
          b.has_queenside_castling_rights(chess.WHITE) * 2 +
          b.has_kingside_castling_rights(chess.BLACK) * 4 +
          b.has_queenside_castling_rights(chess.BLACK) * 8)
    ep = b.ep_square if b.ep_square is not None and b.has_legal_en_passant() else None
    return {"board": board, "promoted": packed(promo), "pockets": pockets,
            "side": 0 if b.turn == chess.WHITE else 1, "castling": cs,
            "ep": 255 if ep is None else chess.square_rank(ep) * 10 + chess.square_file(ep),
            "halfmove": b.halfmove_clock, "fullmove": b.fullmove_number,
            "check": b.is_check()}


def check_mmap(d):
    for k in ("positions", "bughouse", "games", "files"):
        a = np.load(os.path.join(d, k + ".npy"), mmap_mode="r")
        if not isinstance(a, np.memmap):
            bad("%s.npy: not memory-mapped (%s)" % (k, type(a)))
        if a.ndim != 1:
            bad("%s.npy: %d dimensions" % (k, a.ndim))
        off = a.offset
        if off % 64 != 0:
            bad("%s.npy: data at %d, not a multiple of 64" % (k, off))
        size = os.path.getsize(os.path.join(d, k + ".npy"))
        if off + a.nbytes != size:
            bad("%s.npy: %d bytes of header and %d of data, file of %d"
                % (k, off, a.nbytes, size))
    finish(0)
    print("mmap: 4 tables memory-mapped")


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "jsonl":
        check_jsonl(*sys.argv[2:6])
    elif mode == "chess":
        check_chess(sys.argv[2])
    elif mode == "mmap":
        check_mmap(sys.argv[2])
