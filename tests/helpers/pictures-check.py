#!/usr/bin/python3
"""Check an SVG of zhfen -F svg against its FEN, read here on its own:
every piece of the board drawn on its square (the orientation given),
every piece in hand in its pocket with its count, a promoted mark on
each promoted piece, nothing else.  Usage: pictures-check.py SVG FEN
[flip].  One board (no '|').  Exit 1 with the differences."""
import re
import sys
import xml.etree.ElementTree as ET

NS = {"s": "http://www.w3.org/2000/svg"}
XL = "{http://www.w3.org/1999/xlink}href"


def parse_fen(fen):
    board = fen.split()[0]
    hand = ""
    m = re.match(r"^(.*?)\[(.*)\]$", board)
    if m:
        board, hand = m.group(1), m.group(2)
    elif board.count("/") in (8, 10):
        board, hand = board.rsplit("/", 1)
    rows = board.split("/")
    squares = {}
    for i, row in enumerate(rows):
        r = len(rows) - 1 - i
        f, j = 0, 0
        while j < len(row):
            c = row[j]
            if c.isdigit():
                n = re.match(r"\d+", row[j:]).group(0)
                f += int(n)
                j += len(n)
                continue
            promo = j + 1 < len(row) and row[j + 1] == "~"
            squares[(f, r)] = (c, promo)
            f += 1
            j += 2 if promo else 1
    counts = {}
    for c in hand:
        counts[c] = counts.get(c, 0) + 1
    return squares, counts, len(rows), f


def main():
    svg, fen = sys.argv[1], sys.argv[2]
    flip = len(sys.argv) > 3
    squares, counts, ranks, files = parse_fen(fen)
    root = ET.parse(svg).getroot()
    W = int(root.get("width"))
    # width: margins of S / 8, the ranks' strip (draw.c), the files
    def lab(s):
        size = max(s * 24 // 100, 8)
        return max(s * 2 // 5, size * 3 // 2 + 2)
    S = next(s for s in range(8, 1025) if 2 * (s // 8) + lab(s) + files * s == W)
    M = S // 8 + lab(S)                     # the board's left
    top = S // 8 + S // 2 + (S if counts or "[" in fen else 0)
    got, hand, promos, errs = {}, {}, set(), []
    for u in root.findall("s:use", NS):     # not the defs' parts
        ref = u.get(XL)
        m = re.match(r"translate\((-?\d+) (-?\d+)\) scale\(([\d.]+)\)",
                     u.get("transform") or "")
        if not m or not re.match(r"#g?[wb][a-zA-Z]$", ref):
            continue
        x, y, k = int(m.group(1)), int(m.group(2)), float(m.group(3))
        letter = ref[-1]
        white = ref[-2] == "w"
        c = letter.upper() if white else letter.lower()
        if round(k * 1000) == S and top <= y < top + ranks * S:
            col, row = (x - M) // S, (y - top) // S
            f = files - 1 - col if flip else col
            r = row if flip else ranks - 1 - row
            got[(f, r)] = c
        else:
            hand[c] = hand.get(c, 0) + 1
    for circ in root.iter("{http://www.w3.org/2000/svg}circle"):
        if circ.get("fill") == "#2f6fd6":
            x, y = int(circ.get("cx")), int(circ.get("cy"))
            col, row = (x - M) // S, (y - top) // S
            promos.add((files - 1 - col if flip else col,
                        row if flip else ranks - 1 - row))
    want = {sq: p[0] for sq, p in squares.items()}
    if got != want:
        errs.append("board: drawn %s, FEN %s" % (sorted(got.items()),
                                                  sorted(want.items())))
    if set(hand) != set(counts):
        errs.append("pockets: drawn %s, FEN %s" % (sorted(hand), sorted(counts)))
    wantp = {sq for sq, p in squares.items() if p[1]}
    if promos != wantp:
        errs.append("promoted: drawn %s, FEN %s" % (sorted(promos), sorted(wantp)))
    # the counts: each badge's digits, read from the glyph ids
    badges = []
    for g in root.iter("{http://www.w3.org/2000/svg}g"):
        if g.get("fill") == "#ffffff":
            badges.append(int("".join(chr(int(u.get(XL)[2:]))
                                      for u in g.findall("s:use", NS))))
    if sorted(badges) != sorted(counts.values()):
        errs.append("counts: drawn %s, FEN %s" % (sorted(badges),
                                                  sorted(counts.values())))
    for e in errs:
        print(e)
    sys.exit(1 if errs else 0)


main()
