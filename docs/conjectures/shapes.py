#!/usr/bin/env python3
"""Groups the canonical P-positions of one circle length by shape (m = smallest entry, M = largest, 0 = zero,
. = other) and prints, for each group of at least MIN members, its size, the shape and a basis of the affine
relations all its members satisfy (exact rational nullspace, sympy), like `nimlab patterns` (which is too
slow on SCN(7,4)).

Usage: nimlab table GAME --max H --format csv | python3 docs/conjectures/shapes.py LENGTH MIN
"""
import sys
from collections import defaultdict

from sympy import Matrix, lcm
from tablecsv import positions

L, minlen = int(sys.argv[1]), int(sys.argv[2])
letters = "abcdefghij"
rows = [list(p) for p in positions(sys.stdin, L)]


def shape(p):
    m, M = min(p), max(p)
    return "".join("0" if x == 0 else ("m" if x == m else ("M" if x == M else ".")) for x in p)


def rels(ps):
    out = []
    for v in Matrix([p + [1] for p in ps]).nullspace():
        d = lcm([x.q for x in v])
        v = [x * d for x in v]
        lhs, rhs = [], []
        for i, c in enumerate(v[:-1]):
            if c > 0:
                lhs.append(("" if c == 1 else str(c)) + letters[i])
            if c < 0:
                rhs.append(("" if c == -1 else str(-c)) + letters[i])
        if v[-1] > 0:
            lhs.append(str(v[-1]))
        if v[-1] < 0:
            rhs.append(str(-v[-1]))
        out.append(" + ".join(lhs or ["0"]) + " = " + " + ".join(rhs or ["0"]))
    return out


g = defaultdict(list)
for p in rows:
    g[shape(p)].append(p)
for s, ps in sorted(g.items(), key=lambda x: (-len(x[1]), x[0])):
    if len(ps) >= minlen:
        print(len(ps), s, "; ".join(rels(ps)) or "-")
