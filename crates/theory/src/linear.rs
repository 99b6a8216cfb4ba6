//! P-position families given by linear relations on a reading of the circle, and a solver that finds a
//! move into such a family without enumerating options.
//!
//! A [`Family`] is a template of `len` slots named `a, b, c, ...` (as in the papers) with linear
//! equalities and inequalities between them, and optionally a non-linear side condition. A circle is in
//! the family when some reading of it (a rotation, read clockwise or counter-clockwise) satisfies the
//! relations.
//!
//! Moves: a move lowers the stacks of one window and keeps every other stack. For each window, each
//! reading of the circle and each family, the stacks outside the window fix some slots, so the relations
//! become a small integer system in the window's stacks with bounds `lo <= y <= p`. Equalities are
//! eliminated exactly (fraction-free Gauss–Jordan in `i128`); the remaining free stacks are bounded by
//! Fourier–Motzkin projection, and values at and next to the ends of each projected interval are tried.
//! Every candidate is checked against the relations, the side condition and the caller's whole
//! membership test before it is returned, so a returned move is always legal and lands in the set.
//! Stacks may be as large as `u64` allows; sums are computed in `i128`.

use crate::{Theorem, Verdict};
use nimlab_core::{Game, Play, Pos};
use nimlab_games::{CircularNim, ShrinkingCircularNim};
use std::sync::OnceLock;

/// A linear relation `sum coef * slot + c0` (compared with 0).
#[derive(Debug, Clone)]
pub struct Rel {
    pub coef: Vec<(usize, i128)>,
    pub c0: i128,
}

/// One P-family: a template of `len` slots with its relations.
pub struct Family {
    /// Short label, e.g. `S4`.
    pub label: &'static str,
    /// The template in the paper's words, e.g. `(a,b,c,d,e,f,g): a = f, b+c = d+e = g+a, ...`.
    pub shape: &'static str,
    pub len: usize,
    /// Relations `= 0`.
    pub eqs: Vec<Rel>,
    /// Relations `>= 0`.
    pub ges: Vec<Rel>,
    /// A side condition on the reading (parity, nim-sum, excluded sub-family), when linear relations do
    /// not say everything.
    pub side: Option<fn(&[u64]) -> bool>,
    /// The relations as written, for explanations.
    pub relations: Vec<&'static str>,
}

fn slot(c: char) -> usize {
    (c as u8 - b'a') as usize
}

/// Parses one side of a relation: terms like `2b`, `c`, `3`, joined by `+` and `-`.
fn parse_side(s: &str, sign: i128, coef: &mut Vec<(usize, i128)>, c0: &mut i128) {
    let s = s.replace(' ', "");
    let mut cur = String::new();
    let mut neg = false;
    let flush = |cur: &mut String, neg: bool, coef: &mut Vec<(usize, i128)>, c0: &mut i128| {
        if cur.is_empty() {
            return;
        }
        let sg = if neg { -sign } else { sign };
        let digits: String = cur.chars().take_while(|c| c.is_ascii_digit()).collect();
        let rest = &cur[digits.len()..];
        let k: i128 = if digits.is_empty() {
            1
        } else {
            digits.parse().unwrap()
        };
        if rest.is_empty() {
            *c0 += sg * k;
        } else {
            assert!(rest.len() == 1, "bad term {cur}");
            coef.push((slot(rest.chars().next().unwrap()), sg * k));
        }
        cur.clear();
    };
    for ch in s.chars() {
        if ch == '+' || ch == '-' {
            flush(&mut cur, neg, coef, c0);
            neg = ch == '-';
        } else {
            cur.push(ch);
        }
    }
    flush(&mut cur, neg, coef, c0);
}

impl Family {
    /// Builds a family from relations written like `a = f`, `b + c = d + e`, `a < e`, `2d = b`,
    /// `c >= 1` (slots are the letters `a, b, c, ...`; `x = y = z` chains are allowed).
    pub fn new(
        label: &'static str,
        shape: &'static str,
        len: usize,
        rels: &[&'static str],
    ) -> Family {
        let mut f = Family {
            label,
            shape,
            len,
            eqs: Vec::new(),
            ges: Vec::new(),
            side: None,
            relations: rels.to_vec(),
        };
        for r in rels {
            for op in ["<=", ">=", "<", ">", "="] {
                if let Some(i) = r.find(op) {
                    let (l, rr) = (&r[..i], &r[i + op.len()..]);
                    if op == "=" && rr.contains('=') {
                        // chain x = y = z
                        let parts: Vec<&str> = r.split('=').collect();
                        for w in parts.windows(2) {
                            f.push_rel(w[0], "=", w[1]);
                        }
                    } else {
                        f.push_rel(l, op, rr);
                    }
                    break;
                }
            }
        }
        f
    }

    pub fn with_side(mut self, side: fn(&[u64]) -> bool) -> Family {
        self.side = Some(side);
        self
    }

    fn push_rel(&mut self, l: &str, op: &str, r: &str) {
        let mut coef = Vec::new();
        let mut c0 = 0i128;
        // l - r (for =, >=, >) or r - l (for <=, <)
        let (a, b) = if op == "<=" || op == "<" {
            (r, l)
        } else {
            (l, r)
        };
        parse_side(a, 1, &mut coef, &mut c0);
        parse_side(b, -1, &mut coef, &mut c0);
        if op == "<" || op == ">" {
            c0 -= 1;
        }
        let rel = Rel { coef, c0 };
        if op == "=" {
            self.eqs.push(rel);
        } else {
            self.ges.push(rel);
        }
    }

    /// True when the reading `r` of `p` satisfies the family (without building the reading unless a
    /// side condition needs it).
    pub fn holds_at(&self, r: Reading, p: &[u64]) -> bool {
        let n = p.len();
        if n != self.len {
            return false;
        }
        let ev = |rel: &Rel| {
            rel.c0
                + rel
                    .coef
                    .iter()
                    .map(|&(i, c)| c * p[r.index(n, i)] as i128)
                    .sum::<i128>()
        };
        self.eqs.iter().all(|rel| ev(rel) == 0)
            && self.ges.iter().all(|rel| ev(rel) >= 0)
            && self.side.is_none_or(|s| s(&r.read(p)))
    }

    /// True when the reading `t` (slot values in order) satisfies the family.
    pub fn holds(&self, t: &[u64]) -> bool {
        t.len() == self.len
            && self.eqs.iter().all(|r| eval(r, t) == 0)
            && self.ges.iter().all(|r| eval(r, t) >= 0)
            && self.side.is_none_or(|s| s(t))
    }
}

fn eval(r: &Rel, t: &[u64]) -> i128 {
    r.c0 + r.coef.iter().map(|&(i, c)| c * t[i] as i128).sum::<i128>()
}

/// A reading of a circle of `n` stacks: slot i is stack `(start + i) mod n` clockwise, or
/// `(start - i) mod n` counter-clockwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reading {
    pub start: usize,
    pub forward: bool,
}

impl Reading {
    pub fn index(&self, n: usize, i: usize) -> usize {
        if self.forward {
            (self.start + i) % n
        } else {
            (self.start + n - i % n) % n
        }
    }
    pub fn read(&self, p: &[u64]) -> Vec<u64> {
        (0..p.len()).map(|i| p[self.index(p.len(), i)]).collect()
    }
    pub fn all(n: usize) -> impl Iterator<Item = Reading> {
        (0..n.max(1)).flat_map(|s| {
            [true, false].into_iter().map(move |f| Reading {
                start: s,
                forward: f,
            })
        })
    }
}

/// The first family (and reading) that contains `p`.
pub fn find_family(fams: &[Family], p: &[u64]) -> Option<(usize, Reading)> {
    for (fi, f) in fams.iter().enumerate() {
        if f.len != p.len() {
            continue;
        }
        for r in Reading::all(p.len()) {
            if f.holds_at(r, p) {
                return Some((fi, r));
            }
        }
    }
    None
}

/// The move rules of the circle.
#[derive(Debug, Clone, Copy)]
pub struct Rules {
    pub k: usize,
    /// Shrinking Circular Nim: piles are at least 1; emptied piles vanish.
    pub shrinking: bool,
}

impl Rules {
    /// Windows of a circle of `m` stacks (index lists).
    pub fn windows(&self, m: usize) -> Vec<Vec<usize>> {
        if m == 0 {
            return vec![];
        }
        if m <= self.k {
            return vec![(0..m).collect()];
        }
        (0..m)
            .map(|s| (0..self.k).map(|j| (s + j) % m).collect())
            .collect()
    }

    /// True when `q` is an option of `p` (checked directly, without enumerating options).
    pub fn is_option(&self, p: &[u64], q: &[u64]) -> bool {
        let m = p.len();
        for w in self.windows(m) {
            let masks = if self.shrinking { 1u32 << w.len() } else { 1 };
            for mask in 0..masks {
                let deleted: Vec<usize> = (0..w.len())
                    .filter(|&j| mask >> j & 1 == 1)
                    .map(|j| w[j])
                    .collect();
                let survivors: Vec<usize> = (0..m).filter(|i| !deleted.contains(i)).collect();
                if survivors.len() != q.len() {
                    continue;
                }
                let lo = u64::from(self.shrinking);
                let fits = survivors.iter().zip(q).all(|(&i, &v)| {
                    if w.contains(&i) {
                        lo <= v && v <= p[i]
                    } else {
                        v == p[i]
                    }
                });
                if fits && (mask != 0 || q != p) {
                    return true;
                }
            }
        }
        false
    }
}

/// Searches a move from `p` into the union of `fams` (checked with `accept`, the whole membership
/// test, before it is returned). Returns the target and the family index.
pub fn find_move(
    fams: &[Family],
    rules: Rules,
    p: &[u64],
    accept: &dyn Fn(&[u64]) -> bool,
) -> Option<(Pos, usize)> {
    let m = p.len();
    let lo: i128 = if rules.shrinking { 1 } else { 0 };
    for w in rules.windows(m) {
        // Deletion sets: only in shrinking circles.
        let masks: Vec<u32> = if rules.shrinking {
            (0..1u32 << w.len()).collect()
        } else {
            vec![0]
        };
        for mask in masks {
            let deleted: Vec<usize> = (0..w.len())
                .filter(|&j| mask >> j & 1 == 1)
                .map(|j| w[j])
                .collect();
            let m2 = m - deleted.len();
            if !fams.iter().any(|f| f.len == m2) {
                continue;
            }
            let survivors: Vec<usize> = (0..m).filter(|i| !deleted.contains(i)).collect();
            if m2 == 0 {
                // Everything removed: the empty circle.
                let q: Pos = vec![];
                if accept(&q) {
                    if let Some(fi) = fams.iter().position(|f| f.len == 0) {
                        return Some((q, fi));
                    }
                }
                continue;
            }
            // In the surviving circle: which positions are free, their bounds, fixed values.
            let free: Vec<bool> = survivors.iter().map(|i| w.contains(i)).collect();
            let vals: Vec<u64> = survivors.iter().map(|&i| p[i]).collect();
            for (fi, f) in fams.iter().enumerate() {
                if f.len != m2 {
                    continue;
                }
                for r in Reading::all(m2) {
                    if let Some(q) = solve_reading(f, r, &vals, &free, lo, mask != 0, accept) {
                        return Some((q, fi));
                    }
                }
            }
        }
    }
    None
}

/// A constraint `sum g_i x_i + h >= 0` over the free variables.
/// Most unknowns of one system (the stacks of a window).
const MAXV: usize = 8;
type Con = ([i128; MAXV], i128);

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn normalize(c: &mut Con) {
    let g = c.0.iter().fold(0, |g, &x| gcd(g, x));
    if g > 1 {
        for x in c.0.iter_mut() {
            *x /= g;
        }
        // floor division keeps the integer solution set: sum g x >= -h  <=>  sum (g/G) x >= ceil(-h/G)
        c.1 = c.1.div_euclid(g);
    }
}

fn solve_reading(
    f: &Family,
    r: Reading,
    vals: &[u64],
    free: &[bool],
    lo: i128,
    changed_already: bool,
    accept: &dyn Fn(&[u64]) -> bool,
) -> Option<Pos> {
    let m = vals.len();
    // slot -> circle index; unknowns are the slots on free positions.
    // Interval test first, without allocating (most readings fail here): each relation's range over
    // the box lo <= y <= p of the window stacks must meet its target.
    let range = |rel: &Rel| -> (i128, i128) {
        let (mut a, mut b) = (rel.c0, rel.c0);
        for &(sl, c) in &rel.coef {
            let i = r.index(m, sl);
            let v = vals[i] as i128;
            if free[i] {
                let (x, y) = (c * lo, c * v);
                a += x.min(y);
                b += x.max(y);
            } else {
                a += c * v;
                b += c * v;
            }
        }
        (a, b)
    };
    if f.eqs.iter().any(|rel| {
        let (a, b) = range(rel);
        a > 0 || b < 0
    }) || f.ges.iter().any(|rel| range(rel).1 < 0)
    {
        return None;
    }
    let idx: Vec<usize> = (0..m).map(|i| r.index(m, i)).collect();
    let unknown_of_slot: Vec<Option<usize>> = {
        let mut u = 0;
        idx.iter()
            .map(|&i| {
                if free[i] {
                    u += 1;
                    Some(u - 1)
                } else {
                    None
                }
            })
            .collect()
    };
    let nu = unknown_of_slot.iter().flatten().count();
    let slot_of_unknown: Vec<usize> = (0..m).filter(|&s| unknown_of_slot[s].is_some()).collect();
    // Linear rows over the unknowns: (coefs, constant), meaning coefs·y + constant (= 0 or >= 0).
    if nu > MAXV {
        return None;
    }
    let to_row = |rel: &Rel| -> Con {
        let mut g = [0i128; MAXV];
        let mut h = rel.c0;
        for &(s, c) in &rel.coef {
            match unknown_of_slot[s] {
                Some(u) => g[u] += c,
                None => h += c * vals[idx[s]] as i128,
            }
        }
        (g, h)
    };
    let mut eqs: Vec<Con> = f.eqs.iter().map(to_row).collect();
    let mut ges: Vec<Con> = f.ges.iter().map(to_row).collect();
    for (u, &s) in slot_of_unknown.iter().enumerate() {
        let mut g = [0i128; MAXV];
        g[u] = 1;
        ges.push((g, -lo));
        g[u] = -1;
        ges.push((g, vals[idx[s]] as i128));
    }
    // Gauss–Jordan on the equalities.
    let mut pivots: Vec<(usize, usize)> = Vec::new(); // (row, column)
    let mut row = 0;
    for col in 0..nu {
        let Some(pr) = (row..eqs.len()).find(|&i| eqs[i].0[col] != 0) else {
            continue;
        };
        eqs.swap(row, pr);
        if eqs[row].0[col] < 0 {
            for x in eqs[row].0.iter_mut() {
                *x = -*x;
            }
            eqs[row].1 = -eqs[row].1;
        }
        let pivot = eqs[row];
        for (i, e) in eqs.iter_mut().enumerate() {
            if i != row && e.0[col] != 0 {
                let a = pivot.0[col];
                let b = e.0[col];
                for j in 0..nu {
                    e.0[j] = e.0[j] * a - pivot.0[j] * b;
                }
                e.1 = e.1 * a - pivot.1 * b;
                let g = e.0.iter().fold(gcd(0, e.1), |g, &x| gcd(g, x));
                if g > 1 {
                    for x in e.0.iter_mut() {
                        *x /= g;
                    }
                    e.1 /= g;
                }
            }
        }
        pivots.push((row, col));
        row += 1;
    }
    // Inconsistent rows.
    for e in &eqs[row..] {
        if e.0.iter().all(|&x| x == 0) && e.1 != 0 {
            return None;
        }
    }
    for &(pr, pc) in &pivots {
        if eqs[pr].0[pc] < 0 {
            for x in eqs[pr].0.iter_mut() {
                *x = -*x;
            }
            eqs[pr].1 = -eqs[pr].1;
        }
    }
    let pivot_cols: Vec<usize> = pivots.iter().map(|&(_, c)| c).collect();
    let free_cols: Vec<usize> = (0..nu).filter(|c| !pivot_cols.contains(c)).collect();
    let d = free_cols.len();
    // Each pivot unknown: P y_c + sum_free a_f y_f + e = 0  =>  y_c = -(sum a_f y_f + e) / P.
    // Multiply every constraint by L = product of the pivots to stay in integers.
    let big_l: i128 = pivots
        .iter()
        .map(|&(pr, pc)| eqs[pr].0[pc])
        .fold(1, |a, b| a / gcd(a, b) * b);
    let pivot_expr: Vec<(usize, Vec<i128>, i128)> = pivots
        .iter()
        .map(|&(pr, pc)| {
            let pv = eqs[pr].0[pc];
            let mul = big_l / pv;
            // L*y_c = -(mul * (sum a_f y_f + e))
            let g: Vec<i128> = free_cols.iter().map(|&fc| -mul * eqs[pr].0[fc]).collect();
            (pc, g, -mul * eqs[pr].1)
        })
        .collect();
    // Rewrite the inequalities over the free unknowns, scaled by L.
    let mut cons: Vec<Con> = ges
        .iter()
        .map(|(g, h)| {
            let mut ng = [0i128; MAXV];
            for (j, &fc) in free_cols.iter().enumerate() {
                ng[j] = g[fc] * big_l;
            }
            let mut nh = h * big_l;
            for (pc, pg, ph) in &pivot_expr {
                if g[*pc] != 0 {
                    for (x, y) in ng.iter_mut().zip(pg) {
                        *x += g[*pc] * y;
                    }
                    nh += g[*pc] * ph;
                }
            }
            let mut c = (ng, nh);
            normalize(&mut c);
            c
        })
        .collect();
    cons.retain(|c| !c.0.iter().all(|&x| x == 0) || c.1 < 0);
    if cons.iter().any(|c| c.0.iter().all(|&x| x == 0) && c.1 < 0) {
        return None;
    }
    let mut result: Option<Pos> = None;
    let mut assigned: Vec<i128> = Vec::new();
    let mut visit = |fv: &[i128]| -> bool {
        // Pivot unknowns, with integrality.
        let mut y = vec![0i128; nu];
        for (j, &fc) in free_cols.iter().enumerate() {
            y[fc] = fv[j];
        }
        for (pc, pg, ph) in &pivot_expr {
            let num: i128 = ph + pg.iter().zip(fv).map(|(a, b)| a * b).sum::<i128>();
            if num % big_l != 0 {
                return false;
            }
            y[*pc] = num / big_l;
        }
        let mut q: Vec<u64> = vals.to_vec();
        for (u, &s) in slot_of_unknown.iter().enumerate() {
            let i = idx[s];
            if y[u] < lo || y[u] > vals[i] as i128 {
                return false;
            }
            q[i] = y[u] as u64;
        }
        if !changed_already && q == vals {
            return false;
        }
        if !f.holds_at(r, &q) || !accept(&q) {
            return false;
        }
        result = Some(q);
        true
    };
    search(&cons, 0, d, &mut assigned, &mut visit);
    result
}

/// Tries integer points of `{x : g·x + h >= 0 for all constraints}` (d variables) near the ends of
/// each projected interval, calling `visit` with full assignments until it returns true.
fn search(
    cons: &[Con],
    first: usize,
    d: usize,
    assigned: &mut Vec<i128>,
    visit: &mut dyn FnMut(&[i128]) -> bool,
) -> bool {
    if d == 0 {
        if cons.iter().all(|c| c.1 >= 0) {
            return visit(assigned);
        }
        return false;
    }
    // Project onto the first variable by Fourier–Motzkin.
    let mut proj: Vec<Con> = cons.to_vec();
    for var in (first + 1..first + d).rev() {
        let (pos, neg): (Vec<&Con>, Vec<&Con>) = (
            proj.iter().filter(|c| c.0[var] > 0).collect(),
            proj.iter().filter(|c| c.0[var] < 0).collect(),
        );
        let mut next: Vec<Con> = proj.iter().filter(|c| c.0[var] == 0).copied().collect();
        for a in &pos {
            for b in &neg {
                let (x, y) = (a.0[var], -b.0[var]);
                let mut g = [0i128; MAXV];
                for (j, v) in g.iter_mut().enumerate() {
                    *v = a.0[j] * y + b.0[j] * x;
                }
                let mut c = (g, a.1 * y + b.1 * x);
                // (the combination is exact over the rationals; no rounding here)
                let gg = c.0.iter().fold(gcd(0, c.1), |g, &x| gcd(g, x));
                if gg > 1 {
                    for v in c.0.iter_mut() {
                        *v /= gg;
                    }
                    c.1 /= gg;
                }
                next.push(c);
            }
        }
        next.sort();
        next.dedup();
        proj = next;
    }
    let (mut lo, mut hi) = (i128::MIN, i128::MAX);
    for c in &proj {
        let (g, h) = (c.0[first], c.1);
        if g > 0 {
            lo = lo.max((-h).div_euclid(g) + i128::from((-h).rem_euclid(g) != 0));
        } else if g < 0 {
            hi = hi.min(h.div_euclid(-g));
        } else if h < 0 {
            return false;
        }
    }
    if lo > hi || lo == i128::MIN || hi == i128::MAX {
        return false;
    }
    const K: i128 = 3;
    let mut cands: Vec<i128> = (lo..=hi.min(lo + K)).collect();
    cands.extend((hi - K).max(lo)..=hi);
    cands.sort();
    cands.dedup();
    for v in cands {
        let sub: Vec<Con> = cons
            .iter()
            .map(|c| {
                let mut g = c.0;
                g[first] = 0;
                (g, c.1 + c.0[first] * v)
            })
            .collect();
        assigned.push(v);
        if search(&sub, first + 1, d - 1, assigned, visit) {
            return true;
        }
        assigned.pop();
    }
    false
}

/// Describes the reading `r` of `p` as a sentence: which stack it starts at and the slot values.
pub fn describe_reading(f: &Family, r: Reading, p: &[u64]) -> String {
    if f.len == 0 {
        return "the empty circle".to_string();
    }
    let t = r.read(p);
    let names: Vec<String> = (0..f.len)
        .map(|i| format!("{}={}", (b'a' + i as u8) as char, t[i]))
        .collect();
    let dir = if f.len <= 2 {
        String::new()
    } else if r.forward {
        " going forward".to_string()
    } else {
        " going backward".to_string()
    };
    format!(
        "read from stack {}{}: {}",
        r.start + 1,
        dir,
        names.join(", ")
    )
}

fn family_sentence(f: &Family, r: Reading, p: &[u64]) -> String {
    let rel = if f.relations.is_empty() {
        String::new()
    } else {
        format!("; the relations {} hold", f.relations.join(", "))
    };
    format!(
        "family {} {} ({}{})",
        f.label,
        f.shape,
        describe_reading(f, r, p),
        rel
    )
}

/// A theorem whose P-set is a union of [`Family`] templates, for one game `family(n,k)`.
pub struct FamilyTheorem {
    pub id: &'static str,
    pub games: &'static str,
    pub statement: &'static str,
    pub source: &'static str,
    /// `CN` or `SCN`.
    pub game_family: &'static str,
    pub n: usize,
    pub k: usize,
    pub build: fn() -> Vec<Family>,
    pub cache: OnceLock<Vec<Family>>,
}

impl FamilyTheorem {
    pub const fn new(
        id: &'static str,
        games: &'static str,
        statement: &'static str,
        source: &'static str,
        game_family: &'static str,
        n: usize,
        k: usize,
        build: fn() -> Vec<Family>,
    ) -> FamilyTheorem {
        FamilyTheorem {
            id,
            games,
            statement,
            source,
            game_family,
            n,
            k,
            build,
            cache: OnceLock::new(),
        }
    }

    pub fn families(&self) -> &[Family] {
        self.cache.get_or_init(self.build)
    }

    fn rules(&self) -> Rules {
        Rules {
            k: self.k,
            shrinking: self.game_family == "SCN",
        }
    }

    /// Membership in the P-set.
    pub fn is_p(&self, p: &[u64]) -> bool {
        find_family(self.families(), p).is_some()
    }
}

impl Theorem for FamilyTheorem {
    fn id(&self) -> &'static str {
        self.id
    }
    fn games(&self) -> &'static str {
        self.games
    }
    fn statement(&self) -> &'static str {
        self.statement
    }
    fn source(&self) -> &'static str {
        self.source
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn covers(&self, game: &dyn Game) -> bool {
        let params = if self.game_family == "SCN" {
            game.downcast_ref::<ShrinkingCircularNim>()
                .map(|g| (g.n, g.k))
        } else {
            game.downcast_ref::<CircularNim>().map(|g| (g.n, g.k))
        };
        params == Some((self.n, self.k))
    }
    fn decide(&self, _game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let fams = self.families();
        if let Some((fi, r)) = find_family(fams, p) {
            let f = &fams[fi];
            return Some(Verdict {
                is_p: true,
                winning_moves: Some(vec![]),
                family: Some(f.label.to_string()),
                reason: Some(format!(
                    "P: the position is in {}, so every move leaves the P-set",
                    family_sentence(f, r, p)
                )),
                ..Default::default()
            });
        }
        let accept = |q: &[u64]| find_family(fams, q).is_some();
        match find_move(fams, self.rules(), p, &accept) {
            Some((q, fi)) => {
                let f = &fams[fi];
                let (_, r) = find_family(&fams[fi..=fi], &q).expect("verified target");
                let reason = format!(
                    "N: the position is in no P-family; the move to {} lands in {}",
                    nimlab_core::position::format_tuple(&q),
                    family_sentence(f, r, &q)
                );
                Some(Verdict {
                    is_p: false,
                    winning_moves: Some(vec![q]),
                    family: Some(f.label.to_string()),
                    reason: Some(reason),
                    ..Default::default()
                })
            }
            None => Some(Verdict {
                is_p: false,
                winning_moves: None,
                reason: Some(
                    "N: the position is in no P-family (no move was constructed)".to_string(),
                ),
                ..Default::default()
            }),
        }
    }
}
