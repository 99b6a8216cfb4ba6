#!/usr/bin/env python3
"""CN(6,2): for the form (a,b,c,a,e,f), b + c = e + f, read from a minimal stack a, prints for every a the
N-position of the form with the smallest largest stack in the box (`first N`), or nothing when all its
members in the box are P. With D: the same for (a,a+1,c,d,a,c+d+1-a), a < c, a < d.

Usage: nimlab table 'CN(6,2)' --max H --format csv | python3 docs/conjectures/cn62_first_n.py H [D]
"""
import sys

from tablecsv import canon, positions

H = int(sys.argv[1])
d_form = len(sys.argv) > 2 and sys.argv[2] == "D"
P = set(positions(sys.stdin))


R = range(0, H + 1)
if d_form:
    members = ((a, (a, a + 1, c, d, a, c + d + 1 - a)) for a in R for c in R for d in R if a < min(c, d))
else:
    members = ((a, (a, b, c, a, e, b + c - e)) for a in R for b in R for c in R for e in R
               if b + c - e >= 0 and a <= min(b, c, e, b + c - e))
first = {}
for a, p in members:
    if max(p) > H or canon(list(p)) in P:
        continue
    if a not in first or max(p) < max(first[a]):
        first[a] = p
print(" ".join(f"a={a}:{first[a]}" for a in sorted(first)) or "none")
