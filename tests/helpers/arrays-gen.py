#!/usr/bin/python3
"""Random legal games of a variant, as PGN, for the arrays' tests:

  arrays-gen.py VARIANT TAG GAMES PLIES SEED >games.pgn

Each move is drawn from zhfen --moves' list of the position zhreplay
reaches (both on PATH); the moves are written in UCI, with [%clk] and
[%eval] comments on some, and Elo, TimeControl and Result tags drawn at
random.  The corpus has no loop, upside-down or wild/5 game: these are.
"""
import random
import subprocess
import sys


def pgn(tag, g, moves, comments=False):
    out = ['[Event "arrays test"]', '[Site "gen/%s/%d"]' % (tag, g["n"]),
           '[Date "2026.11.27"]', '[White "a"]', '[Black "b"]',
           '[Result "%s"]' % g["result"], '[Variant "%s"]' % tag]
    if comments:
        out += ['[WhiteElo "%d"]' % g["elo"], '[TimeControl "%s"]' % g["tc"],
                '[Termination "Normal"]']
    text = []
    for i, m in enumerate(moves):
        if i % 2 == 0:
            text.append("%d." % (i // 2 + 1))
        text.append(m)
        if comments and g["notes"][i]:
            text.append("{ %s }" % g["notes"][i])
    text.append(g["result"])
    return "\n".join(out) + "\n\n" + " ".join(text) + "\n\n"


def note(rnd, i):
    parts = []
    if rnd.random() < 0.7:
        s = 180 - i + rnd.randint(0, 5)
        parts.append("[%%clk 0:%02d:%02d]" % (s // 60, s % 60))
    r = rnd.random()
    if r < 0.3:
        parts.append("[%%eval %.2f]" % rnd.uniform(-5, 5))
    elif r < 0.35:
        parts.append("[%%eval #%d]" % rnd.choice([-3, -1, 2, 4]))
    return " ".join(parts)


def main():
    variant, tag, n, plies, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), \
        int(sys.argv[4]), int(sys.argv[5])
    rnd = random.Random(seed)
    games = [{"n": k + 1, "moves": [], "over": False,
              "result": rnd.choice(["1-0", "0-1", "1/2-1/2", "*"]),
              "elo": rnd.randint(1000, 2800),
              "tc": rnd.choice(["180+2", "60", "300+0", "-"])} for k in range(n)]
    for _ in range(plies):
        text = "".join(pgn(tag, g, g["moves"]) for g in games)
        fens = [l for l in subprocess.run(
            ["zhreplay", "-F", "fen", "--final-only", "-q"], input=text,
            capture_output=True, text=True, check=True).stdout.splitlines() if l]
        moves = subprocess.run(["zhfen", "-v", variant, "-m", "-q"],
                               input="\n".join(fens) + "\n", capture_output=True,
                               text=True).stdout.split("\n")
        for g, ms in zip(games, moves):
            ms = ms.split()
            if g["over"] or not ms:
                g["over"] = True
                continue
            g["moves"].append(rnd.choice(ms))
    for g in games:
        g["notes"] = [note(rnd, i) for i in range(len(g["moves"]))]
        sys.stdout.write(pgn(tag, g, g["moves"], comments=True))


main()
