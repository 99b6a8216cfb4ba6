//! The integer system of one window and one reading: the stacks outside the window fix some slots, so
//! the family's relations become a small system in the window's stacks with bounds `lo <= y <= p`.
//! Equalities are eliminated exactly (fraction-free Gauss–Jordan in `i128`); the remaining free stacks
//! are bounded by Fourier–Motzkin projection, and values at and next to the ends of each projected
//! interval are tried. Every candidate is checked against the relations, the side condition and the
//! caller's whole membership test before it is returned.

use super::relations::{Family, Reading, Rel};
use nimlab_core::Pos;

/// Most unknowns of one system (the stacks of a window).
const MAXV: usize = 8;
/// A constraint `sum g_i x_i + h >= 0` over the free variables.
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

/// Every solution wanted, with a bound on the work: `budget` values may still be tried, and
/// `complete` turns false when some interval was too long to try every value of (or a system had
/// too many unknowns), so that the solutions found are then only some of them.
pub(super) struct Exhaust {
    pub budget: u128,
    pub complete: bool,
    pub found: Vec<Pos>,
}

/// The first solution of the system of one window and one reading (a target the caller's `accept`
/// agrees with), or, with `all`, every solution (pushed to `all.found`) while the budget lasts.
#[allow(clippy::too_many_arguments)]
pub(super) fn solve_reading(
    f: &Family,
    r: Reading,
    vals: &[u64],
    free: &[bool],
    lo: i128,
    changed_already: bool,
    accept: &dyn Fn(&[u64]) -> bool,
    mut all: Option<&mut Exhaust>,
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
        if let Some(a) = all {
            a.complete = false;
        }
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
    let mut found: Vec<Pos> = Vec::new();
    let collect = all.is_some();
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
        if collect {
            found.push(q);
            return false;
        }
        result = Some(q);
        true
    };
    let mut limit = all.as_deref_mut().map(|a| (a.budget, a.complete));
    search(&cons, 0, d, &mut assigned, &mut limit, &mut visit);
    if let (Some(a), Some((budget, complete))) = (all, limit) {
        a.budget = budget;
        a.complete = complete;
        a.found.append(&mut found);
    }
    result
}

/// Tries integer points of `{x : g·x + h >= 0 for all constraints}` (d variables) near the ends of
/// each projected interval, calling `visit` with full assignments until it returns true. With
/// `limit` = (budget, complete), every value of an interval is tried while the budget allows (the
/// projection is exact over the rationals, so every integer point is then visited), and `complete`
/// turns false where only the ends could be tried.
fn search(
    cons: &[Con],
    first: usize,
    d: usize,
    assigned: &mut Vec<i128>,
    limit: &mut Option<(u128, bool)>,
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
    if lo > hi {
        return false;
    }
    if lo == i128::MIN || hi == i128::MAX {
        if let Some(l) = limit.as_mut() {
            l.1 = false;
        }
        return false;
    }
    const K: i128 = 3;
    // Every value, when the whole interval is wanted and affordable; else the ends.
    let width = hi.abs_diff(lo) + 1;
    let every = match limit.as_mut() {
        Some((budget, _)) if width <= *budget => {
            *budget -= width;
            true
        }
        Some((_, complete)) => {
            *complete = false;
            false
        }
        None => false,
    };
    let cands: Vec<i128> = if every {
        (lo..=hi).collect()
    } else {
        let mut c: Vec<i128> = (lo..=hi.min(lo + K)).collect();
        c.extend((hi - K).max(lo)..=hi);
        c.sort();
        c.dedup();
        c
    };
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
        if search(&sub, first + 1, d - 1, assigned, limit, visit) {
            return true;
        }
        assigned.pop();
    }
    false
}
