#!/usr/bin/env python3
"""bpgn-split.py - split a BPGN game into its two board games, as chess.com
exports a bughouse game: one PGN per board with Variant "Bughouse", that
board's White and Black, a [%clk H:MM:SS.s] after every move, "1. e4"
move numbers, pawn drops "@e3", and tags naming the partner game.

Written for the tests of zhpgn --merge-boards, independently of zhkit:
it reads the BPGN with regular expressions, knows no chess rules, and
never runs a zhkit tool.

  bpgn-split.py [--raw] [--tenths] [--ba] [--untagged] [--whole] FILE.bpgn

writes board A's game, then board B's, to standard output, and on
standard error one line: "retimed N of M clocks".

The clocks.  A BPGN clock is the mover's time left; the time of a
half-move from the start of the game is what both players of its board
have used by then (base - clock + increment * moves made, summed over
White and Black).  FICS subtracts each move's lag from its clock, so in
real files those times do not always follow the text order (up to 2 s
apart).  The text order is the truth, so by default each half-move's
time is raised to just after the one before it in the text (1 ms), and
the mover's clock written is the one that gives that time: the board
files then order the half-moves exactly as the BPGN does.
  --raw       write the BPGN clocks as they are (no retiming)
  --tenths    then cut each clock to tenths of a second, as chess.com
              shows them: half-moves of the two boards may then tie
  --whole     cut each clock to whole seconds instead
  --ba        write board B's game first
  --untagged  no Board, GameId or PartnerGame tags
"""
import math
import re
import sys

LABEL = re.compile(r'(\d+)([AaBb])\.')


def tags_of(text):
    return dict(re.findall(r'\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]', text))


def movetext(text):
    """The movetext: after the last tag, comments other than clocks
    removed but kept for the ending."""
    end = 0
    for m in re.finditer(r'\[\w+\s+"(?:[^"\\]|\\.)*"\]', text):
        end = m.end()
    return text[end:]


def half_moves(body):
    """[(board 0/1, side 0/1, number, san, clock or None)] in text order,
    and the comments that are not clocks."""
    out, notes = [], []
    toks = re.findall(r'\{[^}]*\}|[^\s{]+', body)
    k = 0
    while k < len(toks):
        t = toks[k]
        if t.startswith('{'):
            notes.append(t[1:-1].strip())
            k += 1
            continue
        m = LABEL.fullmatch(t) or LABEL.match(t)
        if not m:
            k += 1
            continue
        rest = t[m.end():]
        if rest == '':
            k += 1
            rest = toks[k]
        # a clock written against the move: "e4{118.585}" is split above
        letter = m.group(2)
        clock = None
        if k + 1 < len(toks) and toks[k + 1].startswith('{'):
            c = toks[k + 1][1:-1].strip()
            if re.fullmatch(r'-?\d+(\.\d+)?', c):
                clock = float(c)
                k += 1
        out.append((0 if letter in 'Aa' else 1, 0 if letter.isupper() else 1,
                    int(m.group(1)), rest, clock))
        k += 1
    return out, notes


def team_result(tags, notes):
    """1-0 when White A and Black B won: from the termination comment
    when it names a player, else the Result tag (read as team-relative)."""
    seats = {tags.get(s): i for i, s in
             enumerate(('WhiteA', 'BlackA', 'WhiteB', 'BlackB'))}
    for n in notes:
        w = n.split(' ', 1)
        if len(w) == 2 and w[0] in seats and re.match(
                r'(checkmated|resigns|forfeits)', w[1]):
            lost = seats[w[0]]
            # seats 0 and 3 are the first team
            return '0-1' if lost in (0, 3) else '1-0'
    return tags.get('Result', '*')


def flip(r):
    return {'1-0': '0-1', '0-1': '1-0'}.get(r, r)


def clk(sec, cut):
    ms = max(0, round(sec * 1000))
    if cut:
        ms -= ms % cut
    h, ms = divmod(ms, 3600000)
    m, ms = divmod(ms, 60000)
    s, ms = divmod(ms, 1000)
    frac = ('.%03d' % ms).rstrip('0') if ms else ''
    return '%d:%02d:%02d%s' % (h, m, s, frac)


def main(argv):
    opts = {a for a in argv[1:] if a.startswith('--')}
    files = [a for a in argv[1:] if not a.startswith('--')]
    text = open(files[0], encoding='utf-8', errors='replace').read()
    tags = tags_of(text)
    moves, notes = half_moves(movetext(text))
    tc = re.fullmatch(r'(\d+)(?:\+(\d+))?', tags.get('TimeControl', ''))
    base = float(tc.group(1)) if tc else max(
        [m[4] for m in moves if m[4] is not None] or [0])
    inc = float(tc.group(2) or 0) if tc else 0.0

    # times from the start, in ms, raised to follow the text order
    used = [[0, 0], [0, 0]]          # by board, by side: ms used
    made = [[0, 0], [0, 0]]
    last, clocks, retimed = -1, [], 0
    for bd, sd, _, _, c in moves:
        made[bd][sd] += 1
        if c is not None and '--raw' not in opts:
            raw = round((base - c + inc * made[bd][sd]) * 1000)
            t = raw + used[bd][1 - sd]
            if t <= last:
                t = last + 1
                retimed += 1
            used[bd][sd] = t - used[bd][1 - sd]
            last = t
            clocks.append((base + inc * made[bd][sd]) - used[bd][sd] / 1000)
        else:
            clocks.append(c)
    low = min([c for c in clocks if c is not None] or [0])
    if low < 0:     # a [%clk] cannot be negative: a longer base
        base += math.ceil(-low)
        clocks = [c if c is None else c + math.ceil(-low) for c in clocks]
    cut = 100 if '--tenths' in opts else 1000 if '--whole' in opts else 0

    team = team_result(tags, notes)
    gid = tags.get('Site', 'game') + '/' + re.sub(
        r'\D', '', ' '.join(n for n in notes if n.startswith('C:'))) or 'x'
    games = []
    for bd in (0, 1):
        L = 'AB'[bd]
        out = []
        for key in ('Event', 'Site', 'Date'):
            if key in tags:
                v = tags[key].replace('-', '.') if key == 'Date' else tags[key]
                out.append('[%s "%s"]' % (key, v))
        out.append('[White "%s"]' % tags.get('White' + L, '?'))
        out.append('[Black "%s"]' % tags.get('Black' + L, '?'))
        out.append('[Result "%s"]' % (team if bd == 0 else flip(team)))
        out.append('[Variant "Bughouse"]')
        for s in ('White', 'Black'):
            if s + L + 'Elo' in tags:
                out.append('[%sElo "%s"]' % (s, tags[s + L + 'Elo']))
        if tc:
            out.append('[TimeControl "%d%s"]' % (
                base, '+%d' % inc if inc else ''))
        if '--untagged' not in opts:
            out.append('[Board "%s"]' % L)
            out.append('[GameId "%s-%s"]' % (gid, L))
            out.append('[PartnerGame "%s-%s"]' % (gid, 'AB'[1 - bd]))
        words = []
        for (b, sd, num, san, _), c in zip(moves, clocks):
            if b != bd:
                continue
            if san.startswith('P@'):
                san = san[1:]
            words.append('%d%s %s' % (num, '.' if sd == 0 else '...', san))
            if c is not None:
                words.append('{[%%clk %s]}' % clk(c, cut))
        words.append(team if bd == 0 else flip(team))
        lines, line = [], ''
        for w in words:
            if line and len(line) + 1 + len(w) > 79:
                lines.append(line)
                line = w
            else:
                line = line + ' ' + w if line else w
        lines.append(line)
        games.append('\n'.join(out) + '\n\n' + '\n'.join(lines) + '\n')
    if '--ba' in opts:
        games.reverse()
    sys.stdout.write('\n'.join(games))
    sys.stderr.write('retimed %d of %d clocks\n' % (retimed, len(moves)))


if __name__ == '__main__':
    main(sys.argv)
