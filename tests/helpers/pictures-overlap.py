#!/usr/bin/env python3
"""What a picture's marks hide, seen in librsvg's rendering of the SVG.

pictures-overlap.py badge SVG
    no pixel of a piece in a pocket is covered by its count's badge: the
    pieces are the pixels that change when the pocket pieces are taken
    out of the SVG (badges out too), the hidden ones those of them that
    change when the badges alone are taken out.
pictures-overlap.py label WITH.svg WITHOUT.svg X Y S
    the coordinates drawn in the square at X, Y (side S) of WITH.svg, a
    piece on it, show as many pixels (95 %) as in WITHOUT.svg, the
    square empty: the piece hides none of them.
Exit 0 if so, 1 if not (the counts printed).
"""
import re
import subprocess
import sys
import tempfile

from PIL import Image, ImageChops

BADGE = r'<circle [^>]*fill="#9e1b1b"/><g fill="#ffffff"[^>]*>(?:<use [^>]*/>)*</g>'
LABEL = r'<g fill="#(?:a78263|e9ddc4)"[^>]*>(?:<use [^>]*/>)*</g>'
POCKET_PIECE = r'<use xlink:href="#g[wb][a-zA-Z]"[^>]*/>'
TMP = tempfile.mkdtemp()


def render(svg, name):
    path = "%s/%s" % (TMP, name)
    with open(path + ".svg", "w") as f:
        f.write(svg)
    subprocess.run(["rsvg-convert", path + ".svg", "-o", path + ".png"],
                   check=True)
    return Image.open(path + ".png").convert("RGB")


def changed(a, b, level):
    return [max(p) > level for p in ImageChops.difference(a, b).getdata()]


def badge(path):
    svg = open(path).read()
    if not re.search(BADGE, svg):
        print("no badge")
        return 1
    nobadge = re.sub(BADGE, "", svg)
    # the board holds no piece in the test's positions but the kings,
    # which the removal takes too: they change no pocket pixel
    nothing = re.sub(POCKET_PIECE, "", nobadge)
    a, b, c = render(svg, "a"), render(nobadge, "b"), render(nothing, "c")
    piece = changed(b, c, 16)
    hidden = changed(a, b, 16)
    n = sum(1 for p, h in zip(piece, hidden) if p and h)
    print("piece pixels %d, under a badge %d" % (sum(piece), n))
    return 0 if n == 0 and sum(piece) > 0 else 1


def label(with_piece, without, x, y, s):
    counts = []
    for i, path in enumerate((with_piece, without)):
        svg = open(path).read()
        if not re.search(LABEL, svg):
            print("no coordinates in", path)
            return 1
        box = (x, y, x + s, y + s)
        a = render(svg, "l%d" % i).crop(box)
        b = render(re.sub(LABEL, "", svg), "n%d" % i).crop(box)
        counts.append(sum(changed(a, b, 24)))
    print("label pixels: with the piece %d, without %d" % tuple(counts))
    return 0 if counts[1] > 0 and counts[0] >= 0.95 * counts[1] else 1


if __name__ == "__main__":
    if sys.argv[1] == "badge":
        sys.exit(badge(sys.argv[2]))
    sys.exit(label(sys.argv[2], sys.argv[3], *(int(v) for v in sys.argv[4:7])))
