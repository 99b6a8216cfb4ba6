#!/usr/bin/env python3
"""Checks the families of an examples/*-attempt file against an exact table on a box.

Usage: nimlab table GAME --max H --format csv | python3 docs/conjectures/families_box.py SET H

SET is one of cn62 (examples/cn62-attempt.toml), scn63-slice (examples/scn63-slice.toml, 6-circles only),
scn63-ode (the 6-circles of the CN(6,3) form, examples/scn63-attempt.toml), scn74-sevens (the 7-circle
families of examples/scn74-attempt.toml and scn74-sevens.toml). Each family is written out again here,
by its free parameters, as the set of canonical positions (least tuple under rotations and reflections)
with entries in the box; for each it prints how many members the box holds and
how many of them are P (listed by `table`) or not, then how many of the box's canonical P-positions of that
circle length the union covers. Evidence on a box only.
"""
import sys

from tablecsv import canon, positions


def families(name, H):
    if name == "cn62":
        R = range(0, H + 1)
        return 6, {
            "A": ((a, b, c, a, e, b + c - e) for a in range(3) for b in R for c in R for e in R
                  if a <= min(b, c, e, b + c - e)),
            "A2": ((a, b, c, a, e, b + c - e) for a in R for b in R for c in R for e in R
                   if a <= min(b, c, e, b + c - e) and max(b, c, e, b + c - e) <= a + 11),
            "B": ((x, y, z, x, y, z) for x in R for y in R for z in R),
            "C": ((0, 0, c, d, 0, c + d) for c in R for d in R),
            "D1": ((1, 2, c, d, 1, c + d) for c in R for d in R if min(c, d) >= 2),
            "D2": ((a, a + 1, c, d, a, c + d + 1 - a) for a in R for c in R for d in R
                   if a < min(c, d) and max(c, d, c + d + 1 - a) <= a + 12),
        }
    if name == "scn63-slice":
        R = range(1, H + 1)
        return 6, {
            "(1,b,c,1,b,c), b < c": ((1, b, c, 1, b, c) for b in R for c in R if b < c),
            "(a,b,c,a,b,c), 2 <= a <= 5, a < b <= c, c != a+b-1":
                ((a, b, c, a, b, c) for a in range(2, 6) for b in R for c in R if a < b <= c and c != a + b - 1),
            "(a,a,c,a,a,c), 2 <= a <= 5, a < c": ((a, a, c, a, a, c) for a in range(2, 6) for c in R if a < c),
        }
    if name == "scn63-ode":
        R = range(1, H + 1)
        return 6, {
            "(a,b+q,c,a+q,b,c+q), q >= 0": ((a, b + q, c, a + q, b, c + q) for a in R for b in R for c in R
                                            for q in range(H)),
        }
    if name == "scn74-sevens":
        R = range(1, H + 1)
        return 7, {
            "S1 + 1": ((1, 1, c, d, e, c + 2 - d - e, c) for c in R for d in R for e in R if c > 1),
            "S3 + 1": ((a, a, c, d, a + c - d, d, c) for a in R for c in R for d in R
                       if 1 < a < a + c - d and a <= c and a <= d),
            "S4 + 1": ((a, b, a + g - b, d, a + g - d, a, g) for a in R for b in R for d in R for g in R
                       if a < b and a < a + g - d and a < max(a + g - b, d) and a <= min(a + g - b, d, g)),
        }
    raise SystemExit(f"unknown set {name}")


def main():
    name, H = sys.argv[1], int(sys.argv[2])
    length, fams = families(name, H)
    P = set(positions(sys.stdin, length))
    union = set()
    for fam, gen in fams.items():
        members = {canon(list(p)) for p in gen if max(p) <= H and min(p) >= (0 if name == "cn62" else 1)}
        notp = sorted(members - P)
        print(f"{fam}: {len(members)} in the box, {len(members & P)} P, {len(notp)} not P"
              + (f", e.g. {notp[0]}" if notp else ""))
        union |= members
    print(f"union: {len(union)} canonical positions, {len(union & P)} P; "
          f"the box has {len(P)} canonical P-positions of {length} entries, {len(P - union)} not in the union")


main()
