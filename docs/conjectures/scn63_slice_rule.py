#!/usr/bin/env python3
"""SCN(6,3), slice (a,b,c,a,b,c): compares the P-positions of a table with the rule
"not all equal, and no one of a, b, c equals the sum of the other two minus 1 where those two differ".

Usage: nimlab table 'SCN(6,3)' --max H --format csv | python3 docs/conjectures/scn63_slice_rule.py H
Prints the number of triples (a,b,c) in 1..H checked and every sorted triple where table and rule disagree.
"""
import itertools
import sys

from tablecsv import canon, positions

H = int(sys.argv[1])
P = set(positions(sys.stdin, 6))


def rule(a, b, c):
    if a == b == c:
        return False
    return not any(x == y + z - 1 and y != z for x, y, z in ((a, b, c), (b, c, a), (c, a, b)))


n = 0
bad = {}
for a, b, c in itertools.product(range(1, H + 1), repeat=3):
    n += 1
    is_p = canon([a, b, c, a, b, c]) in P
    if is_p != rule(a, b, c):
        bad[tuple(sorted((a, b, c)))] = "P" if is_p else "N"
print(f"{n} triples; table and rule disagree on {len(bad)} sorted triples:",
      " ".join(f"({a},{b},{c}):{v}" for (a, b, c), v in sorted(bad.items())))
