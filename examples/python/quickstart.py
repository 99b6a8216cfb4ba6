"""nimlab from Python in one page: run with `python examples/python/quickstart.py` after
`pip install ./crates/python` (see the README)."""

import nimlab

g = nimlab.game("CN(7,4)", store=False)  # store=False: leave the table store alone
p = (1, 7, 5, 6, 2, 3, 6)
print(g.id, p, "->", g.outcome(p))                          # N
moves = g.moves(p)
print("winning moves:", list(moves), "complete:", moves.complete, "by", moves.method)
print(g.explain((0, 0, 3, 1, 1, 1, 3)))                     # P, family S1 of Theorem 2

t = g.table(max=5, progress=False)                           # P-positions of [0..5]^7 as a NumPy array
print("P-positions up to symmetry:", t.shape[0], "ordered:", t.info["count"], "method:", t.info["method"])

nim = nimlab.game("nim", store=False)
values = nim.table(max=7, heaps=2, grundy=True, progress=False)  # Grundy values of every (a, b)
assert all(values[a, b] == a ^ b for a in range(8) for b in range(8))  # Bouton: a XOR b
print("nim Grundy values over [0..7]^2 are a XOR b")

s = nim[(5,)] + nimlab.game("ET(2)", store=False)[(31, 54)]
print(s, "Grundy value", s.grundy(), "winning moves", list(s.moves()))

er = nimlab.game("ER(7)", store=False)
print("ER(7) 1^5 2 10 ->", [er.format(q) for q in er.moves("1^5 2 10")])

r = nimlab.verify("CN(7,4)", theorem="cn-7-4", max=3)
print("Theorem 2 of the CN(7,4) paper on [0..3]^7:", "holds" if r["holds"] else "FAILS", f"({r['positions']} positions)")
