//! Linear families conjectured from a table of P-positions.
//!
//! The canonical P-positions of a box are grouped by shape: the length, the order of the entries
//! (ranks, ties included) and which entries are at the smallest value a stack can take. Each group
//! gives a family: the group's affine hull (exact rational elimination; its equalities, in reduced
//! echelon form) and the bounds the group shows between entries — `x_i - x_j >= t` and `x_i >= t`
//! where the least value over the group is `t` (only the bounds that the others do not imply are
//! written). A family is kept only when it is *exact on the box*: every point of the box that it
//! contains (read as the prover reads it) is a P-position. A group that is not exact is split by the
//! residue of an entry modulo 2 or 3 (a `mod` relation), else into its single points. Families are
//! then merged greedily: one family absorbs another whose points lie in its affine hull when the
//! result, with the bounds of both relaxed to what they share, is still exact on the box.
//!
//! By construction the union of the families equals the P-set on the box exactly; whether it is the
//! P-set beyond the box is what the larger box and the prover decide.

use std::collections::BTreeMap;

mod rational;
use rational::{integral, rref, Q};

/// A point of a reading: entries in slot order.
pub type Point = Vec<i64>;

/// The P-positions of a box: the canonical ones by length, and every ordered P-tuple as a bitset
/// (a P-set is closed under the game's symmetries, so any reading of a position is itself a
/// position, P exactly when the position is).
pub struct PTable {
    /// Smallest entry a stack can take (CN and complexes 0; SCN 1).
    pub lo: u64,
    /// Largest entry of the box.
    pub hi: u64,
    /// Canonical P-positions by length.
    pub canonical: BTreeMap<usize, Vec<Vec<u64>>>,
    /// The lengths the box holds.
    pub lengths: Vec<usize>,
    bits: BTreeMap<usize, Vec<u64>>,
    /// The readings of each length (maps `q[i] = p[map[i]]`).
    syms: BTreeMap<usize, Vec<Vec<usize>>>,
}

/// Most bits of one length's bitset (positions of the box).
pub const MAX_BOX_POSITIONS: u128 = 1 << 33;

impl PTable {
    /// The table of `canonical` P-positions in `[lo, hi]^m` for each `m` of `lengths`; `symmetries(m)`
    /// lists the maps (`q[i] = p[map[i]]`) that carry a position to its other readings.
    pub fn new(
        lo: u64,
        hi: u64,
        lengths: &[usize],
        canonical: Vec<Vec<u64>>,
        symmetries: &dyn Fn(usize) -> Vec<Vec<usize>>,
    ) -> Result<PTable, String> {
        let mut bits = BTreeMap::new();
        for &m in lengths {
            let size = positions_in_box(lo, hi, m)
                .filter(|&s| s <= MAX_BOX_POSITIONS)
                .ok_or_else(|| {
                    format!("the box [{lo}..{hi}]^{m} is too large to hold in memory")
                })?;
            bits.insert(m, vec![0u64; (size as usize).div_ceil(64)]);
        }
        let mut by_len: BTreeMap<usize, Vec<Vec<u64>>> = BTreeMap::new();
        let mut t = PTable {
            lo,
            hi,
            canonical: BTreeMap::new(),
            lengths: lengths.to_vec(),
            bits,
            syms: BTreeMap::new(),
        };
        let mut syms: BTreeMap<usize, Vec<Vec<usize>>> = BTreeMap::new();
        for p in canonical {
            let m = p.len();
            let maps = syms.entry(m).or_insert_with(|| symmetries(m));
            for map in maps.iter() {
                let q: Point = map.iter().map(|&i| p[i] as i64).collect();
                let idx = t.index(&q).ok_or_else(|| {
                    format!("the table holds {p:?}, outside the box [{lo}..{hi}]")
                })?;
                let b = t.bits.get_mut(&m).expect("length of the box");
                b[idx / 64] |= 1 << (idx % 64);
            }
            by_len.entry(m).or_default().push(p);
        }
        t.canonical = by_len;
        for &m in lengths {
            syms.entry(m).or_insert_with(|| symmetries(m));
        }
        t.syms = syms;
        Ok(t)
    }

    fn index(&self, x: &[i64]) -> Option<usize> {
        let base = (self.hi - self.lo + 1) as usize;
        let mut idx = 0usize;
        for &v in x {
            if v < self.lo as i64 || v > self.hi as i64 {
                return None;
            }
            idx = idx * base + (v as u64 - self.lo) as usize;
        }
        self.bits.contains_key(&x.len()).then_some(idx)
    }

    /// Whether the tuple `x` (inside the box) is a P-position.
    pub fn is_p(&self, x: &[i64]) -> bool {
        match (self.index(x), self.bits.get(&x.len())) {
            (Some(i), Some(b)) => b[i / 64] >> (i % 64) & 1 == 1,
            _ => false,
        }
    }

    /// Number of canonical P-positions.
    pub fn count(&self) -> usize {
        self.canonical.values().map(Vec::len).sum()
    }
}

/// `(hi - lo + 1)^m`, or None past u128.
pub fn positions_in_box(lo: u64, hi: u64, m: usize) -> Option<u128> {
    let base = (hi - lo + 1) as u128;
    (0..m).try_fold(1u128, |acc, _| acc.checked_mul(base))
}

/// Least and greatest values of every entry and every difference of two entries over a point set.
#[derive(Clone, Debug)]
struct Stats {
    vmin: Vec<i64>,
    vmax: Vec<i64>,
    /// `dmin[i][j]`, `dmax[i][j]`: of `x_i - x_j`.
    dmin: Vec<Vec<i64>>,
    dmax: Vec<Vec<i64>>,
}

impl Stats {
    fn of(len: usize, points: &[Point]) -> Stats {
        let mut s = Stats {
            vmin: vec![i64::MAX; len],
            vmax: vec![i64::MIN; len],
            dmin: vec![vec![i64::MAX; len]; len],
            dmax: vec![vec![i64::MIN; len]; len],
        };
        for p in points {
            for i in 0..len {
                s.vmin[i] = s.vmin[i].min(p[i]);
                s.vmax[i] = s.vmax[i].max(p[i]);
                for j in 0..len {
                    let d = p[i] - p[j];
                    s.dmin[i][j] = s.dmin[i][j].min(d);
                    s.dmax[i][j] = s.dmax[i][j].max(d);
                }
            }
        }
        s
    }
    fn join(&self, o: &Stats) -> Stats {
        let m = |a: &[i64], b: &[i64], f: fn(i64, i64) -> i64| -> Vec<i64> {
            a.iter().zip(b).map(|(&x, &y)| f(x, y)).collect()
        };
        Stats {
            vmin: m(&self.vmin, &o.vmin, i64::min),
            vmax: m(&self.vmax, &o.vmax, i64::max),
            dmin: self
                .dmin
                .iter()
                .zip(&o.dmin)
                .map(|(a, b)| m(a, b, i64::min))
                .collect(),
            dmax: self
                .dmax
                .iter()
                .zip(&o.dmax)
                .map(|(a, b)| m(a, b, i64::max))
                .collect(),
        }
    }
}

/// One conjectured family: slots `a, b, c, ...` (in the prover's reading order) and its relations.
#[derive(Clone, Debug)]
pub struct Fam {
    pub len: usize,
    /// The P-positions (readings) it was built from.
    pub points: Vec<Point>,
    /// `(slot, modulus, residue)`: `mod(x_slot, modulus) = residue`.
    pub mods: Vec<(usize, i64, i64)>,
    /// The affine hull: rows `coef · x = rhs`, in reduced echelon form with positive pivots.
    pub eqs: Vec<(Vec<i128>, i128)>,
    pivots: Vec<usize>,
    /// `x_i - x_j >= t`.
    pub diffs: Vec<(usize, usize, i64)>,
    /// `x_i >= t`.
    pub lowers: Vec<(usize, i64)>,
    stats: Stats,
}

impl Fam {
    /// The dimension of the affine hull.
    pub fn dim(&self) -> usize {
        self.len - self.eqs.len()
    }

    /// The family of a (non-empty) point set, with the given `mod` relations (which hold on it).
    fn of(len: usize, points: Vec<Point>, mods: Vec<(usize, i64, i64)>, lo: i64) -> Fam {
        let x0 = points[0].clone();
        let diffs: Vec<Vec<Q>> = points[1..]
            .iter()
            .map(|p| {
                p.iter()
                    .zip(&x0)
                    .map(|(&a, &b)| Q::int((a - b) as i128))
                    .collect()
            })
            .collect();
        let (r, pc) = rref(diffs, len);
        // The null space of the differences: one vector per free column.
        let null: Vec<Vec<Q>> = (0..len)
            .filter(|c| !pc.contains(c))
            .map(|f| {
                let mut v = vec![Q::int(0); len];
                v[f] = Q::int(1);
                for (k, &p) in pc.iter().enumerate() {
                    v[p] = Q::int(0).sub(r[k][f]);
                }
                v
            })
            .collect();
        let (rows, pivots) = rref(null, len);
        let eqs = rows
            .iter()
            .map(|row| {
                let c = integral(row);
                let rhs = c.iter().zip(&x0).map(|(&a, &b)| a * b as i128).sum();
                (c, rhs)
            })
            .collect();
        let stats = Stats::of(len, &points);
        let mut f = Fam {
            len,
            points,
            mods,
            eqs,
            pivots,
            diffs: Vec::new(),
            lowers: Vec::new(),
            stats,
        };
        f.bounds(lo);
        f
    }

    /// The family of the union of `self` and `other`, when each of `other`'s points has a reading
    /// (among `maps`; with `min_first`, one that starts at a smallest entry) on `self`'s hull that
    /// satisfies `self`'s `mod` relations, and both have the same `mod` relations.
    fn absorb(&self, other: &Fam, lo: i64, maps: &[Vec<usize>], min_first: bool) -> Option<Fam> {
        if self.len != other.len || self.mods != other.mods {
            return None;
        }
        let on_hull = |q: &[i64]| {
            self.eqs
                .iter()
                .all(|(c, rhs)| c.iter().zip(q).map(|(&a, &b)| a * b as i128).sum::<i128>() == *rhs)
                && self.mods.iter().all(|&(i, m, r)| q[i].rem_euclid(m) == r)
        };
        let mut moved = Vec::with_capacity(other.points.len());
        for p in &other.points {
            if on_hull(p) {
                moved.push(p.clone());
                continue;
            }
            let q = maps.iter().find_map(|map| {
                let q: Point = map.iter().map(|&i| p[i]).collect();
                (on_hull(&q) && (!min_first || q.iter().all(|&v| v >= q[0]))).then_some(q)
            })?;
            moved.push(q);
        }
        let mut f = self.clone();
        f.stats = self.stats.join(&Stats::of(self.len, &moved));
        f.points.extend(moved);
        f.bounds(lo);
        Some(f)
    }

    /// The bounds shown by the points (the least value of each difference and entry that is not
    /// constant), less those the others imply.
    fn bounds(&mut self, lo: i64) {
        let n = self.len;
        let s = &self.stats;
        let constant_d = |i: usize, j: usize| s.dmin[i][j] == s.dmax[i][j];
        // Best known lower bound of x_i - x_j from constants and the candidate bounds.
        let mut diffs: Vec<(usize, usize, i64)> = Vec::new();
        for i in 0..n {
            for j in 0..n {
                if i != j && !constant_d(i, j) && s.dmin[i][j] >= 0 {
                    diffs.push((i, j, s.dmin[i][j]));
                }
            }
        }
        let mut lowers: Vec<(usize, i64)> = (0..n)
            .filter(|&i| s.vmin[i] != s.vmax[i] && s.vmin[i] > lo)
            .map(|i| (i, s.vmin[i]))
            .collect();
        // Drop the bounds implied by two others (or by a constant difference and another bound).
        let bound = |diffs: &[(usize, usize, i64)], skip: usize, i: usize, j: usize| {
            let mut b: Option<i64> = None;
            if constant_d(i, j) {
                b = Some(s.dmin[i][j]);
            }
            for (x, &(a, c, t)) in diffs.iter().enumerate() {
                if x != skip && a == i && c == j {
                    b = Some(b.map_or(t, |v| v.max(t)));
                }
            }
            b
        };
        let mut x = 0;
        while x < diffs.len() {
            let (i, j, t) = diffs[x];
            let implied = (0..n).any(|k| {
                k != i
                    && k != j
                    && matches!(
                        (bound(&diffs, x, i, k), bound(&diffs, x, k, j)),
                        (Some(u), Some(v)) if u + v >= t
                    )
            });
            if implied {
                diffs.remove(x);
            } else {
                x += 1;
            }
        }
        let lower_of = |lowers: &[(usize, i64)], skip: usize, k: usize| -> i64 {
            let mut v = lo;
            if s.vmin[k] == s.vmax[k] {
                v = v.max(s.vmin[k]);
            }
            for (y, &(a, t)) in lowers.iter().enumerate() {
                if y != skip && a == k {
                    v = v.max(t);
                }
            }
            v
        };
        let mut y = 0;
        while y < lowers.len() {
            let (i, t) = lowers[y];
            let implied = (0..n).any(|k| {
                k != i
                    && bound(&diffs, usize::MAX, i, k)
                        .is_some_and(|u| u + lower_of(&lowers, y, k) >= t)
            });
            if implied {
                lowers.remove(y);
            } else {
                y += 1;
            }
        }
        self.diffs = diffs;
        self.lowers = lowers;
    }

    /// Whether `x` satisfies every relation.
    pub fn holds(&self, x: &[i64]) -> bool {
        x.len() == self.len
            && self
                .eqs
                .iter()
                .all(|(c, rhs)| c.iter().zip(x).map(|(&a, &b)| a * b as i128).sum::<i128>() == *rhs)
            && self.diffs.iter().all(|&(i, j, t)| x[i] - x[j] >= t)
            && self.lowers.iter().all(|&(i, t)| x[i] >= t)
            && self.mods.iter().all(|&(i, m, r)| x[i].rem_euclid(m) == r)
    }

    /// Calls `f` on every point of the family in `[lo, hi]^len` (with `min_first`, only those whose
    /// first entry is a smallest one) until it returns false; returns false when stopped.
    pub fn each_point(
        &self,
        lo: i64,
        hi: i64,
        min_first: bool,
        f: &mut dyn FnMut(&[i64]) -> bool,
    ) -> bool {
        let free: Vec<usize> = (0..self.len).filter(|c| !self.pivots.contains(c)).collect();
        let mut x = vec![lo; self.len];
        if self.len == 0 {
            return f(&x);
        }
        loop {
            // Pivots from the free entries.
            let mut ok = true;
            for (k, (c, rhs)) in self.eqs.iter().enumerate() {
                let p = self.pivots[k];
                let rest: i128 = free.iter().map(|&j| c[j] * x[j] as i128).sum();
                let num = rhs - rest;
                if num % c[p] != 0 {
                    ok = false;
                    break;
                }
                let v = num / c[p];
                if v < lo as i128 || v > hi as i128 {
                    ok = false;
                    break;
                }
                x[p] = v as i64;
            }
            if ok && self.holds(&x) && (!min_first || x.iter().all(|&v| v >= x[0])) && !f(&x) {
                return false;
            }
            // Next free assignment.
            let mut i = 0;
            loop {
                if i == free.len() {
                    return true;
                }
                if x[free[i]] < hi {
                    x[free[i]] += 1;
                    break;
                }
                x[free[i]] = lo;
                i += 1;
            }
        }
    }

    /// A point of the family in the box that is not a P-position, if any.
    pub fn stray(&self, t: &PTable, min_first: bool) -> Option<Point> {
        let mut out = None;
        self.each_point(t.lo as i64, t.hi as i64, min_first, &mut |x| {
            if t.is_p(x) {
                true
            } else {
                out = Some(x.to_vec());
                false
            }
        });
        out
    }

    /// The relations in the prover's language (letters `a, b, c, ...`).
    pub fn relations(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (c, rhs) in &self.eqs {
            out.push(equation(c, *rhs));
        }
        for &(i, j, t) in &self.diffs {
            out.push(match t {
                0 => format!("{} >= {}", letter(i), letter(j)),
                1 => format!("{} > {}", letter(i), letter(j)),
                _ => format!("{} >= {} + {t}", letter(i), letter(j)),
            });
        }
        for &(i, t) in &self.lowers {
            out.push(match t {
                1 => format!("{} > 0", letter(i)),
                _ => format!("{} >= {t}", letter(i)),
            });
        }
        for &(i, m, r) in &self.mods {
            out.push(format!("mod({}, {m}) = {r}", letter(i)));
        }
        out
    }
}

fn letter(i: usize) -> String {
    ((b'a' + i as u8) as char).to_string()
}

/// `coef · x = rhs` written with the positive terms on the left.
fn equation(c: &[i128], rhs: i128) -> String {
    let term = |i: usize, k: i128| {
        if k == 1 {
            letter(i)
        } else {
            format!("{k}{}", letter(i))
        }
    };
    let mut left: Vec<String> = Vec::new();
    let mut right: Vec<String> = Vec::new();
    for (i, &k) in c.iter().enumerate() {
        if k > 0 {
            left.push(term(i, k));
        } else if k < 0 {
            right.push(term(i, -k));
        }
    }
    if rhs > 0 {
        right.push(rhs.to_string());
    } else if rhs < 0 {
        left.push((-rhs).to_string());
    }
    let side = |v: Vec<String>| {
        if v.is_empty() {
            "0".to_string()
        } else {
            v.join(" + ")
        }
    };
    format!("{} = {}", side(left), side(right))
}

/// The grouping key of a canonical position: its ranks (ties equal) and which entries are `lo`.
fn key(p: &[u64], lo: u64) -> (usize, Vec<usize>, Vec<bool>) {
    let mut vals: Vec<u64> = p.to_vec();
    vals.sort_unstable();
    vals.dedup();
    let ranks = p
        .iter()
        .map(|v| vals.binary_search(v).expect("present"))
        .collect();
    (p.len(), ranks, p.iter().map(|&v| v == lo).collect())
}

/// Most families a linear description may have.
pub const MAX_FAMILIES: usize = 48;
/// Most single-point families before the search for a linear description is given up.
const MAX_POINTS: usize = 4_000;

/// Families whose union is the P-set of the box `t` exactly (read as `min_first` says), or why
/// none with at most [`MAX_FAMILIES`] families was found. `stop` is polled between steps.
pub fn conjecture(
    t: &PTable,
    min_first: bool,
    stop: &dyn Fn() -> bool,
) -> Result<Vec<Fam>, String> {
    let lo = t.lo as i64;
    let mut groups: BTreeMap<(usize, Vec<usize>, Vec<bool>), Vec<Point>> = BTreeMap::new();
    for ps in t.canonical.values() {
        for p in ps {
            groups
                .entry(key(p, t.lo))
                .or_default()
                .push(p.iter().map(|&v| v as i64).collect());
        }
    }
    let mut fams: Vec<Fam> = Vec::new();
    let mut singles = 0usize;
    for ((len, _, _), points) in groups {
        if stop() {
            return Err("stopped".into());
        }
        let f = Fam::of(len, points.clone(), Vec::new(), lo);
        if f.stray(t, min_first).is_none() {
            fams.push(f);
            continue;
        }
        if let Some(parts) = split_by_residue(&f, t, min_first) {
            fams.extend(parts);
            continue;
        }
        singles += points.len();
        if singles > MAX_POINTS {
            return Err(format!(
                "no linear description: more than {MAX_POINTS} P-positions of the box fit no linear family"
            ));
        }
        for p in points {
            fams.push(Fam::of(len, vec![p], Vec::new(), lo));
        }
    }
    merge(&mut fams, t, min_first, stop)?;
    if fams.len() > MAX_FAMILIES {
        return Err(format!(
            "no linear description with at most {MAX_FAMILIES} families: the box needs {}",
            fams.len()
        ));
    }
    fams.sort_by(|a, b| {
        a.len
            .cmp(&b.len)
            .then(b.dim().cmp(&a.dim()))
            .then(b.points.len().cmp(&a.points.len()))
    });
    Ok(fams)
}

/// The group's points split by the residue of one entry modulo 2 or 3, when every part is exact.
fn split_by_residue(f: &Fam, t: &PTable, min_first: bool) -> Option<Vec<Fam>> {
    let lo = t.lo as i64;
    for m in [2i64, 3] {
        for s in 0..f.len {
            if f.stats.vmin[s] == f.stats.vmax[s] {
                continue;
            }
            let mut parts: BTreeMap<i64, Vec<Point>> = BTreeMap::new();
            for p in &f.points {
                parts.entry(p[s].rem_euclid(m)).or_default().push(p.clone());
            }
            let fams: Vec<Fam> = parts
                .into_iter()
                .map(|(r, pts)| Fam::of(f.len, pts, vec![(s, m, r)], lo))
                .collect();
            if fams.iter().all(|g| g.stray(t, min_first).is_none()) {
                return Some(fams);
            }
        }
    }
    None
}

/// Greedy merging: the larger family absorbs another when the result is still exact on the box.
fn merge(
    fams: &mut Vec<Fam>,
    t: &PTable,
    min_first: bool,
    stop: &dyn Fn() -> bool,
) -> Result<(), String> {
    let lo = t.lo as i64;
    fams.sort_by(|a, b| {
        b.dim()
            .cmp(&a.dim())
            .then(b.points.len().cmp(&a.points.len()))
    });
    loop {
        let mut changed = false;
        let mut i = 0;
        while i < fams.len() {
            let mut j = 0;
            while j < fams.len() {
                if stop() {
                    return Err("stopped".into());
                }
                if i == j || fams[j].dim() > fams[i].dim() {
                    j += 1;
                    continue;
                }
                let maps = t.syms.get(&fams[j].len).map_or(&[][..], Vec::as_slice);
                let Some(m) = fams[i].absorb(&fams[j], lo, maps, min_first) else {
                    j += 1;
                    continue;
                };
                let same = m.diffs == fams[i].diffs && m.lowers == fams[i].lowers;
                if same || m.stray(t, min_first).is_none() {
                    fams[i] = m;
                    fams.remove(j);
                    changed = true;
                    if j < i {
                        i -= 1;
                    }
                    continue;
                }
                j += 1;
            }
            i += 1;
        }
        if !changed {
            return Ok(());
        }
    }
}

#[cfg(test)]
#[path = "linear_tests.rs"]
mod tests;
