"""Shared by the scripts of this folder: the positions of `nimlab table GAME --format csv`, and the
canonical form of a circle.

CN, Nim and complexes print a header `p1,p2,...` and one position a row; SCN prints a header
`length,p1,...` and the circle length first in each row (empty cells after the last pile).
"""
import csv


def positions(stream, length=None):
    """The listed positions as tuples; for an SCN table only those of circle length `length` (when
    given), without the length column."""
    scn = False
    out = []
    for row in csv.reader(stream):
        if not row:
            continue
        if row[0] in ("p1", "length"):
            scn = row[0] == "length"
            continue
        v = [int(x) for x in row if x != ""]
        if scn:
            if length is not None and v[0] != length:
                continue
            v = v[1:]
        out.append(tuple(v))
    return out


def canon(p):
    """The least tuple of a circle under rotations and reflections."""
    p = list(p)
    best = None
    for r in range(len(p)):
        q = tuple(p[r:] + p[:r])
        for t in (q, tuple(reversed(q))):
            if best is None or t < best:
                best = t
    return best
