#!/usr/bin/env python3
"""P-totals of EJR(5,3) by the totals' recurrence (written for docs/findings.md §5.4; not nimlab code).

A move of EJR(5,3) keeps two boxes and spreads their total m over the five boxes (each >= 1), so it
needs m >= 5. A position is P iff no two of its boxes have a total in T, where T is the set of totals
of P-positions; so n is in T iff some split of n into five positive boxes has no pair total in T.
This script computes T up to N by that recurrence and, for every n in T, prints one witness split
(a P-position of total n, to be re-checked by `nimlab outcome`).

Usage: ejr53_totals.py N            -> the missing totals n in 5..N, grouped in runs
       ejr53_totals.py N witnesses  -> "n a,b,c,d,e m" for every P-total n: the witness whose largest
                                       pair total m >= 5 (the largest total an option can have) is least,
                                       so that `nimlab outcome` searches as little as possible
"""
import sys


def sweep(limit):
    in_t = [False] * (limit + 1)
    witness = {}
    for n in range(5, limit + 1):
        # non-T totals below n are known; a pair total is at most n - 3 < n
        def ok(s):
            return s < 5 or not in_t[s]

        found = None

        def rec(parts, remaining, slots):
            nonlocal found
            if found is not None:
                return
            lo = parts[-1] if parts else 1
            if slots == 1:
                x = remaining
                if x >= lo and all(ok(p + x) for p in parts):
                    found = parts + [x]
                return
            # the rest (slots - 1 boxes) is at least x each
            x = lo
            while x * slots <= remaining:
                if all(ok(p + x) for p in parts):
                    rec(parts + [x], remaining - x, slots - 1)
                    if found is not None:
                        return
                x += 1

        rec([], n, 5)
        if found is not None:
            in_t[n] = True
            witness[n] = found
    return in_t, witness


def best_witness(n, in_t):
    """The witness of total n whose largest pair total of at least 5 is least (None if n is not in T)."""
    def ok(s):
        return s < 5 or not in_t[s]

    best = None

    def rec(parts, remaining, slots, worst):
        nonlocal best
        if best is not None and worst >= best[1]:
            return
        lo = parts[-1] if parts else 1
        if slots == 1:
            x = remaining
            if x >= lo and all(ok(p + x) for p in parts):
                w = max([worst] + [p + x for p in parts if p + x >= 5])
                if best is None or w < best[1]:
                    best = (parts + [x], w)
            return
        x = lo
        while x * slots <= remaining:
            if all(ok(p + x) for p in parts):
                w = max([worst] + [p + x for p in parts if p + x >= 5])
                rec(parts + [x], remaining - x, slots - 1, w)
            x += 1

    rec([], n, 5, 0)
    return best


def runs(values):
    out = []
    for v in values:
        if out and out[-1][1] == v - 1:
            out[-1][1] = v
        else:
            out.append([v, v])
    return ", ".join(f"{a}-{b}" if a != b else f"{a}" for a, b in out)


def main():
    if len(sys.argv) < 2:
        print("usage: ejr53_totals.py N [witnesses]", file=sys.stderr)
        sys.exit(2)
    limit = int(sys.argv[1])
    in_t, witness = sweep(limit)
    if len(sys.argv) > 2 and sys.argv[2] == "witnesses":
        for n in sorted(witness):
            parts, worst = best_witness(n, in_t)
            print(n, ",".join(map(str, parts)), worst)
    else:
        missing = [n for n in range(5, limit + 1) if not in_t[n]]
        print(f"totals 5..{limit}: {len(missing)} missing: {runs(missing)}")


if __name__ == "__main__":
    main()
