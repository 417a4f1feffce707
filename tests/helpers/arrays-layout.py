#!/usr/bin/env python3
"""arrays-layout.py - the arrays' records against their one table.

  arrays-layout.py DUMP DIR MANPAGE

DUMP is tests/helpers/npyrec-dump.c's output (cli/npyrec.h's tables:
TABLE NAME TYPE SHAPE OFFSET BYTES, and TABLE SIZE BYTES); DIR a
directory zhreplay -F npy wrote; MANPAGE man/zhkit-arrays.5.  Checked,
each difference said and exit 1:
  - the table itself: each field's bytes are its type's size times its
    shape's, each offset the sum of the bytes before it, the size their
    sum;
  - NumPy's reading of each .npy header: the same fields in the same
    order, each at the table's offset with its type, shape and bytes,
    the record's itemsize the table's size;
  - the manual: each table's list names the same fields, in order, with
    the same type and shape.
"""
import re
import sys

import numpy as np

FILES = {"POS": "positions.npy", "BUG": "bughouse.npy", "GAME": "games.npy"}


def shape_of(s):
    s = s.replace(" ", "")
    return tuple(int(x) for x in s.strip("()").split(",") if x)


def read_dump(path):
    tables, sizes = {}, {}
    for line in open(path):
        w = line.split()
        if w[1] == "SIZE":
            sizes[w[0]] = int(w[2])
            continue
        rec, name, typ, shape, off, nbytes = w[0], w[1], w[2], " ".join(w[3:-2]), int(w[-2]), int(w[-1])
        tables.setdefault(rec, []).append((name, typ, shape_of(shape), off, nbytes))
    return tables, sizes


def man_tables(path):
    """{file: [(name, type, shape)]} from the .Ss sections' lists."""
    out, cur = {}, None
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^\.Ss (\S+\.npy)\s*$", line)
        if m:
            cur = m.group(1)
            out[cur] = []
            continue
        if line.startswith(".Ss") or line.startswith(".Sh"):
            cur = None
        m = re.match(r"^\.It (\w+) Ta (\S+) Ta (\([^)]*\)) Ta ", line)
        if cur and m:
            out[cur].append((m.group(1), m.group(2), shape_of(m.group(3))))
    return out


def main(argv):
    tables, sizes = read_dump(argv[1])
    man = man_tables(argv[3])
    bad = []
    for rec, fields in tables.items():
        at = 0
        for name, typ, shape, off, nbytes in fields:
            want = np.dtype(typ).itemsize * int(np.prod(shape, dtype=np.int64))
            if nbytes != want:
                bad.append("%s.%s: %d bytes in the table, %s%s is %d" % (rec, name, nbytes, typ, shape, want))
            if off != at:
                bad.append("%s.%s: offset %d in the table, %d by the bytes before it" % (rec, name, off, at))
            at = off + nbytes
        if sizes[rec] != at:
            bad.append("%s: size %d, its fields' bytes %d" % (rec, sizes[rec], at))
        arr = np.load("%s/%s" % (argv[2], FILES[rec]), mmap_mode="r")
        dt = arr.dtype
        if dt.itemsize != sizes[rec]:
            bad.append("%s: NumPy's itemsize %d, the table's %d" % (FILES[rec], dt.itemsize, sizes[rec]))
        if list(dt.names) != [f[0] for f in fields]:
            bad.append("%s: NumPy's fields %s, the table's %s" % (FILES[rec], dt.names, [f[0] for f in fields]))
        for name, typ, shape, off, nbytes in fields:
            if name not in dt.fields:
                continue
            fdt, foff = dt.fields[name][:2]
            if foff != off or fdt.itemsize != nbytes or fdt.shape != shape or \
                    np.dtype(typ) != (fdt.base if fdt.shape else fdt):
                bad.append("%s.%s: NumPy reads %s%s at %d (%d bytes), the table says %s%s at %d (%d)" % (
                    FILES[rec], name, fdt.base.str, fdt.shape, foff, fdt.itemsize, typ, shape, off, nbytes))
        doc = man.get(FILES[rec], [])
        mine = [(f[0], f[1], f[2]) for f in fields]
        if doc != mine:
            for i in range(max(len(doc), len(mine))):
                d = doc[i] if i < len(doc) else None
                t = mine[i] if i < len(mine) else None
                if d != t:
                    bad.append("%s field %d: zhkit-arrays(5) says %s, the table %s" % (FILES[rec], i, d, t))
                    break
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
