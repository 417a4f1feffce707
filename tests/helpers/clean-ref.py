#!/usr/bin/env python3
"""The independent answer for zhpgn --strip and --keep-tags.

Reads PGN as zhpgn writes it without cleaning (stdin) and writes what
cleaning it should give: the things named in --strip and the tags not
kept taken out of the text, and the movetext laid out again as PGN
export format lays it out (a black move's "N..." only after a comment,
a parenthesis or at a line's start; lines of at most 80 columns, a
word too long for a line alone on its own).  It shares no code with
zhpgn: it works on the text, with regular expressions.

usage: clean-ref.py [--to DIALECT] [--strip LIST] [--keep-tags LIST] < in.pgn > out.pgn
"""
import re
import sys

ALWAYS = {"Event", "Site", "Date", "Round", "White", "Black", "Result",
          "Variant", "FEN", "SetUp", "CurrentPosition"}
WRAP = 80
GLYPHS = ["", "!", "?", "!!", "??", "!?", "?!"]

TOKEN = re.compile(r"""
    (?P<comment>\{[^}]*\}) |
    (?P<semi>;[^\n]*\n) |
    (?P<open>\() | (?P<close>\)) |
    (?P<nag>\$\d+) |
    (?P<num>\d+\.(?:\.\.)?) |
    (?P<word>[^\s(){};]+)
""", re.X)


def tokens(text):
    out = []
    for m in TOKEN.finditer(text):
        kind = m.lastgroup
        out.append([kind, m.group(kind)])
    return out


def strip_commands(body, strip):
    """A comment's text without its stripped [%...] commands."""
    names = []
    if "clocks" in strip:
        names.append(r"clk")
    if "evals" in strip:
        names.append(r"eval")
    pats = [r"\[%(?:" + n + r")(?=[\s\]])[^\]]*\]\s*" for n in names]
    if "commands" in strip:
        pats.append(r"\[%(?!(?:clk|eval)[\s\]])\w+(?=[\s\]])[^\]]*\]\s*")
    for p in pats:
        body = re.sub(p, "", body)
    return body


def clean(toks, strip, glyphs):
    out = []
    i = 0
    while i < len(toks):
        kind, text = toks[i]
        if kind == "open" and "variations" in strip:
            depth = 0
            while True:
                depth += toks[i][0] == "open"
                depth -= toks[i][0] == "close"
                i += 1
                if depth == 0:
                    break
            continue
        if kind in ("comment", "semi"):
            if "comments" in strip:
                i += 1
                continue
            if kind == "comment":
                body = strip_commands(text[1:-1], strip)
                if body != text[1:-1] and body.strip() == "":
                    i += 1
                    continue
                text = "{" + body + "}"
            else:
                body = strip_commands(text[1:-1], strip)
                if body != text[1:-1] and body.strip() == "":
                    i += 1
                    continue
                text = ";" + body + "\n"
        if kind == "nag" and "nags" in strip:
            i += 1
            continue
        if kind == "word" and "nags" in strip:
            text = re.sub(r"[!?]+$", "", text)
        out.append([kind, text, i])
        i += 1
    # a variation emptied goes with its parentheses
    changed = True
    while changed:
        changed = False
        for k in range(len(out) - 1):
            if (out[k][0] == "open" and out[k + 1][0] == "close" and
                    out[k + 1][2] > out[k][2] + 1):
                del out[k:k + 2]
                changed = True
                break
    # Lichess glues $1 to $6 to the move they follow: ! ? !! ?? !? ?!
    if glyphs:
        for k in range(len(out) - 1, 0, -1):
            m = re.fullmatch(r"\$([1-6])", out[k][1])
            if m and out[k - 1][0] == "word" and out[k][0] == "nag" and \
                    not re.search(r"[!?]$", out[k - 1][1]):
                out[k - 1][1] += GLYPHS[int(m.group(1))]
                del out[k]
    # "N..." only where the move before is not the one just before
    res = []
    for kind, text, _ in out:
        if kind == "num" and text.endswith("..."):
            k = len(res) - 1
            while k >= 0 and res[k][0] == "nag":
                k -= 1
            if k >= 0 and res[k][0] == "word":
                continue
        res.append([kind, text])
    return res


def layout(toks):
    """Words with a space between them, '(' and ')' glued, at most WRAP
    columns a line as far as words allow."""
    lines, cur = [], ""
    col = 0
    opens = 0
    buf = []
    i = 0
    n = len(toks)
    while i < n:
        kind, text = toks[i]
        if kind == "open":
            opens += 1
            i += 1
            continue
        if kind == "close":
            if opens > 0:
                opens -= 1
                text, kind = "()", "word"
            else:
                if col + 1 > WRAP:
                    buf.append("\n)")
                    col = 1
                else:
                    buf.append(")")
                    col += 1
                i += 1
                continue
        if kind == "num" and i + 1 < n and toks[i + 1][0] == "word":
            i += 1      # a move number and its move are one word
            text += " " + toks[i][1]
        trail = 0
        k = i + 1
        while k < n and toks[k][0] == "close":
            trail += 1
            k += 1
        nl = text.find("\n")
        first = (nl if nl >= 0 else len(text) + trail) + opens
        if col > 0:
            if col + 1 + first > WRAP:
                buf.append("\n")
                col = 0
            else:
                buf.append(" ")
                col += 1
        buf.append("(" * opens + text)
        col += opens
        opens = 0
        if nl >= 0:
            col = len(text) - text.rfind("\n") - 1
        else:
            col += len(text)
        i += 1
    s = "".join(buf)
    if col > 0:
        s += "\n"
    return s


def main():
    strip, keep, glyphs = set(), None, False
    args = sys.argv[1:]
    while args:
        if args[0] == "--strip":
            strip |= set(args[1].split(","))
        elif args[0] == "--to":
            glyphs = args[1] == "lichess"
        elif args[0] == "--keep-tags":
            keep = set(x for x in args[1].split(",") if x)
        args = args[2:]
    data = sys.stdin.buffer.read().decode("latin-1")
    out = []
    for game in re.split(r"(?<=\n\n)(?=\[)", data):
        if not game.strip():
            continue
        head, _, moves = game.partition("\n\n")
        tags = head.split("\n")
        if keep is not None:
            tags = [t for t in tags if re.match(r"\[(\w+) ", t).group(1)
                    in ALWAYS | keep]
        out.append("\n".join(tags) + "\n\n" +
                   layout(clean(tokens(moves), strip, glyphs)) + "\n")
    sys.stdout.buffer.write("".join(out).encode("latin-1"))


main()
