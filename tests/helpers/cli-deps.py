#!/usr/bin/env python3
"""cli-deps.py - who uses whom among the framework's objects, by their
symbols (nm), knowing nothing of the code:

  cli-deps.py CLIDIR[:SRCDIR] TOOL=OBJ[,OBJ...] ... [-- OTHER.o ...]

CLIDIR holds the framework's objects (build/cli/*.o); with SRCDIR, only
those whose source SRCDIR still has (a file moved away leaves its old
object behind).  Each TOOL=... is
a program's own objects (its cmd/ file, its own folder, the Python
module's C files).  OTHER objects (draw/'s) are linked by some tools and
may use the framework: a tool uses what its objects reach through them.

A file of CLIDIR uses another if it needs a symbol the other defines.
Said, one a line, and exit 1:
  - a circle: files of CLIDIR that use each other, directly or not;
  - a file of CLIDIR that no tool or only one tool reaches (it is that
    tool's: it belongs beside it).
Prints the graph (FILE: the files it uses; who reaches it) on success.
"""
import os
import subprocess
import sys


def symbols(path):
    """(defined, undefined) global symbols of an object."""
    out = subprocess.run(["nm", path], check=True, capture_output=True,
                         text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1] in "TDBRCVWG":
            defined.add(parts[2])
    return defined, undefined


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    clidir, _, srcdir = argv[1].partition(":")
    tools, others = {}, []
    rest = argv[2:]
    if "--" in rest:
        others = rest[rest.index("--") + 1:]
        rest = rest[:rest.index("--")]
    for arg in rest:
        name, objs = arg.split("=", 1)
        tools[name] = [o for o in objs.split(",") if o]
    cli = sorted(f for f in os.listdir(clidir) if f.endswith(".o") and (
        not srcdir or os.path.exists(os.path.join(srcdir, f[:-2] + ".c"))))
    sym = {}
    for f in cli:
        sym["cli/" + f] = symbols(os.path.join(clidir, f))
    for o in others:
        sym[o] = symbols(o)
    for name, objs in tools.items():
        for o in objs:
            sym[o] = symbols(o)
    owner = {}
    for node, (d, _) in sym.items():
        for s in d:
            owner.setdefault(s, node)
    uses = {n: sorted({owner[s] for s in u if s in owner} - {n})
            for n, (_, u) in sym.items()}
    clinodes = ["cli/" + f for f in cli]
    bad = []

    def reach(start):
        seen, todo = set(), list(start)
        while todo:
            n = todo.pop()
            for m in uses[n]:
                if m not in seen:
                    seen.add(m)
                    todo.append(m)
        return seen

    said = set()
    for n in clinodes:
        for m in uses[n]:
            if m in clinodes and n in reach([m]) and \
                    frozenset((n, m)) not in said:
                said.add(frozenset((n, m)))
                bad.append("circle: %s and %s use each other%s" % (
                    n, m, "" if n in uses[m] else " (through others)"))
    users = {n: [] for n in clinodes}
    for name, objs in tools.items():
        for n in reach(objs):
            if n in users:
                users[n].append(name)
    for n in clinodes:
        if len(users[n]) < 2:
            bad.append("%s: used by %s only: it belongs beside that tool"
                       % (n, users[n][0]) if users[n] else
                       "%s: used by no tool" % n)
    for b in bad:
        print(b)
    if bad:
        return 1
    for n in clinodes:
        print("%s: uses %s; reached by %s" % (
            n, " ".join(m for m in uses[n] if m in clinodes) or "-",
            " ".join(sorted(users[n]))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
