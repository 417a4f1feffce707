#!/usr/bin/env python3
"""fsperft.py - perft through Fairy-Stockfish's UCI `go perft`.

Usage: fsperft.py [--divide] VARIANT 'FEN'|startpos DEPTH
Built-in variants (chess, crazyhouse, loop, chessgi, grand) are used as they
are; grandhouse, upsidedown and wild5 come from testdata/fairy/variants.ini
(loaded through the VariantPath option).  --divide prints 'uci count' lines
sorted, then 'total N', the same layout as refperft.py --divide.
Env: ENGINE (default /usr/games/fairy-stockfish)."""
import os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
INI = os.path.normpath(os.path.join(HERE, "..", "..", "testdata", "fairy", "variants.ini"))
ENGINE = os.environ.get("ENGINE", "/usr/games/fairy-stockfish")


def fs_perft(variant, fen, depth, moves=()):
    """Returns (total, {uci: count}); `moves` (UCI) are played first."""
    pos = "position startpos" if fen == "startpos" else "position fen " + fen
    if moves:
        pos += " moves " + " ".join(moves)
    cmds = ["setoption name VariantPath value " + INI,
            "setoption name UCI_Variant value " + variant,
            pos, "go perft %d" % depth, "quit", ""]
    out = subprocess.run([ENGINE], input="\n".join(cmds), capture_output=True,
                         text=True, check=True).stdout
    div, total = {}, None
    for line in out.splitlines():
        if line.startswith("Nodes searched:"):
            total = int(line.split(":")[1])
        elif ": " in line and not line.startswith(("info", "Fairy", "option")):
            m, n = line.split(": ", 1)
            if n.strip().isdigit():
                div[m.strip()] = int(n)
    if total is None:
        raise RuntimeError("no perft result from engine:\n" + out)
    return total, div


def main(argv):
    divide = "--divide" in argv
    args = [a for a in argv if a != "--divide"]
    if len(args) != 3:
        sys.stderr.write(__doc__)
        return 2
    total, div = fs_perft(args[0], args[1], int(args[2]))
    if divide:
        for m in sorted(div):
            print(m, div[m])
        print("total", total)
    else:
        print(total)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
