#!/usr/bin/env python3
"""fs_agree.py [--dialect D] [--suite FILE] [--ini FILE] < TSV

Proof against Fairy-Stockfish (UCI): every position zhkit writes is read
by the engine to the same position, with the same legal moves.

Input: lines `LABEL<TAB>VARIANT<TAB>FEN`, the FEN as zhkit wrote it in
dialect D (fairy or xboard; default fairy).  For each variant, zhfen turns
the FENs into the fairy dialect (the engine's own writer: `[QRBNPqrbnp]`,
`~` except in loop/chessgi, ep only when a pawn attacks it) and lists the
legal moves (`zhfen --moves`).  All positions then go through ONE engine
process: `position fen FEN`, `d` (the engine writes the position back as
`Fen: ...`) and `go perft 1` (one line per legal move, then
`Nodes searched: N`).  Checked, for each position:
  - the engine's `Fen:` is zhkit's fairy FEN (so the engine read the
    board, pockets, promoted marks, side, castling and ep as zhkit meant);
  - the engine's legal moves are zhkit's, as sets (so the counts agree).
With --suite FILE, the engine's counts are written as a zhperft suite
(`perft 1 N` per position) for `zhperft --suite FILE` to check.

Variants: crazyhouse, loop, chessgi, grand and chess are built into
Fairy-Stockfish 11.1; grandhouse comes from tests/interop/variants.ini
(--ini), and upsidedown/wild5 are plain chess rules from another start, so
they are played as `chess` from the FEN.  Prints one line per disagreement
(at most 20 of each kind) and a summary; exit 1 on any disagreement, 77
when the engine is missing.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
FS_VARIANT = {"crazyhouse": "crazyhouse", "loop": "loop", "chessgi": "chessgi",
              "grand": "grand", "chess": "chess", "grandhouse": "grandhouse",
              "upsidedown": "chess", "wild5": "chess"}


# Known disagreements that are the engine's, not zhkit's (see interop.bats).
# 1. An en-passant capture that blocks a check from another piece: Stockfish
#    generates ep evasions only when the pushed pawn gives the check, which
#    holds in every position reachable in play; python-chess's and
#    shakmaty's "align-ep" perft case (not reachable) counts it, as zhkit.
KNOWN_FEN = {
    "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1":
        "engine skips an ep capture that blocks a check (unreachable position)",
}


def known(dialect, variant, fen):
    """Why the engine cannot agree on this position, or None."""
    f = fen.split()
    if " ".join(f[:6]) in KNOWN_FEN:
        return KNOWN_FEN[" ".join(f[:6])]
    # 2. The xboard dialect writes the ep square of a 10-rank board with
    #    CECP's 0-based ranks (e7 is "e6"); Fairy-Stockfish 11.1 reads FENs
    #    with 1-based ranks under both UCI and CECP `setboard` (while its CECP
    #    output is 0-based), so it drops such an ep square.
    if dialect == "xboard" and variant in ("grand", "grandhouse") and len(f) > 3 \
            and f[3] != "-":
        return "Fairy-Stockfish 11.1 reads a 10-rank ep square 1-based, XBoard writes it 0-based"
    return None


def engine_path():
    e = os.environ.get("FAIRY_STOCKFISH")
    if e:
        return e
    for c in ("fairy-stockfish", "/usr/games/fairy-stockfish"):
        p = shutil.which(c)
        if p:
            return p
    return None


def zhfen(variant, fens, *args):
    """Run zhfen -v VARIANT ARGS on FENS (one per line); stdout lines."""
    exe = os.path.join(TOP, "bin", "zhfen")
    p = subprocess.run([exe, "-q", "-v", variant, *args], input="\n".join(fens) + "\n",
                       capture_output=True, text=True)
    return p.stdout.splitlines()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dialect", default="fairy", choices=["fairy", "xboard"])
    ap.add_argument("--suite")
    ap.add_argument("--ini", default=os.path.join(HERE, "variants.ini"))
    a = ap.parse_args()
    eng = engine_path()
    if not eng:
        print("fs_agree: Fairy-Stockfish not found (apt-get install fairy-stockfish)")
        return 77

    recs = []
    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line:
            continue
        label, variant, fen = line.split("\t")
        recs.append([label, variant, fen, None, None])
    byvar = defaultdict(list)
    for r in recs:
        byvar[r[1]].append(r)
    import json
    zh_invalid = []
    for v, rs in byvar.items():
        js = [json.loads(x) for x in zhfen(v, [r[2] for r in rs], "-j", "-t", "fairy")]
        assert len(js) == len(rs), (v, len(js), len(rs))
        good = []
        for r, j in zip(rs, js):
            if j["valid"]:
                r[3] = j["fen"]
                good.append(r)
            else:
                zh_invalid.append((r, j["error"]["message"]))
        mv = zhfen(v, [r[2] for r in good], "--moves")
        assert len(mv) == len(good), (v, len(mv), len(good))
        for r, m in zip(good, mv):
            r[4] = set(m.split())
    todo = [r for r in recs if r[3] is not None]
    # One engine process for all of them, grouped by variant.
    cmds = []
    if os.path.exists(a.ini):
        cmds.append(f"setoption name VariantPath value {a.ini}")
    cur = None
    todo.sort(key=lambda r: FS_VARIANT[r[1]])
    for r in todo:
        fv = FS_VARIANT[r[1]]
        if fv != cur:
            cmds.append(f"setoption name UCI_Variant value {fv}")
            cur = fv
        cmds += [f"position fen {r[2]}", "d", "go perft 1"]
    cmds += ["isready", "quit"]
    # Through files: a pipe read in small pieces costs more than the engine.
    with tempfile.TemporaryFile() as cin, tempfile.TemporaryFile() as cout:
        cin.write(("\n".join(cmds) + "\n").encode())
        cin.seek(0)
        p = subprocess.run([eng], stdin=cin, stdout=cout, stderr=subprocess.PIPE)
        cout.seek(0)
        out = cout.read().decode("utf-8", "replace")
    fens, counts, moves, cur_moves = [], [], [], set()
    for ln in out.splitlines():
        if ln.startswith("Fen: "):
            fens.append(ln[5:])
        elif ln.startswith("Nodes searched: "):
            counts.append(int(ln.split()[2]))
            moves.append(cur_moves)
            cur_moves = set()
        elif ": " in ln and not ln.startswith(("info", "option", "id ", "Fen", "Sfen", "Key",
                                                "Checkers")):
            mv, n = ln.rsplit(": ", 1)
            if n.strip() == "1" and " " not in mv:
                cur_moves.add(mv)
    if len(fens) != len(todo) or len(counts) != len(todo):
        print(f"fs_agree: engine answered {len(fens)} fens / {len(counts)} counts "
              f"for {len(todo)} positions (exit {p.returncode})")
        print(p.stderr[-2000:].decode("utf-8", "replace"))
        return 1
    bad_fen, bad_moves, skipped = [], [], defaultdict(int)
    for r, f, c, m in zip(todo, fens, counts, moves):
        why = known(a.dialect, r[1], r[2])
        if why:
            skipped[why] += 1
            continue
        if f != r[3]:
            bad_fen.append(f"FEN  {r[0]} [{r[1]}] zhkit wrote {r[2]!r}: engine read {f!r}, "
                           f"zhkit's fairy form is {r[3]!r}")
        if m != r[4] or c != len(r[4]):
            bad_moves.append(f"MOVES {r[0]} [{r[1]}] {r[2]!r}: engine {c}, zhkit {len(r[4])}; "
                             f"only engine: {' '.join(sorted(m - r[4]))}; "
                             f"only zhkit: {' '.join(sorted(r[4] - m))}")
    for msg in bad_fen[:20] + bad_moves[:20]:
        print(msg)
    for r, msg in zh_invalid[:20]:
        print(f"INVALID {r[0]} [{r[1]}] {r[2]!r}: zhfen: {msg}")
    if a.suite:
        with open(a.suite, "w") as s:
            for r, c in zip(todo, counts):
                if known(a.dialect, r[1], r[2]):
                    continue
                s.write(f"id {r[0]}\nvariant {r[1]}\nepd {r[2]}\nperft 1 {c}\n\n")
    nv = defaultdict(int)
    for r in todo:
        nv[r[1]] += 1
    for why, n in skipped.items():
        print(f"known: {n} position(s): {why}")
    print(f"fs_agree: {len(todo)} positions ({', '.join(f'{k} {n}' for k, n in sorted(nv.items()))}); "
          f"dialect {a.dialect}; FEN differs {len(bad_fen)}, moves differ {len(bad_moves)}, "
          f"zhkit rejected its own FEN {len(zh_invalid)}")
    return 1 if bad_fen or bad_moves or zh_invalid else 0


if __name__ == "__main__":
    sys.exit(main())
