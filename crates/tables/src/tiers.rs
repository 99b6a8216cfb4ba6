//! The tier schedule of the line engine: the reference, on the CPU, for a GPU back end.
//!
//! [`crate::lines`] walks blocks of lines along anti-diagonals of the two outermost axes. A GPU wants
//! far more independent work at once: group the lines by their *tier*, the sum `t` of their coordinates
//! on the axes other than the bit axis. Every look-up of the recurrence (`D_w(line - e_i)`) lands in
//! tier `t - 1`, so all lines of a tier are independent and only two tiers of `D` words are kept.
//! Lines are stored by their *rank* inside the tier (lexicographic order of the tuples with that sum),
//! computed with the counts of bounded compositions; a GPU kernel would run one thread per line with
//! exactly this ranking, so this module fixes the layout and the arithmetic that such a kernel needs,
//! and the tests check it against [`crate::lines`].
//!
//! No misère or SCN oracle here: window games with `lo` at 0 (CN, Nim, Moore's Nim), both conventions.

use crate::lines::{Hooks, Interrupted, LineSpec, PLine};
use rayon::prelude::*;

/// Counts of bounded compositions: `count[j][s]` tuples of `j` entries in `0..r` with sum `s`, and
/// their prefix sums, for ranking the lines of a tier.
pub struct Ranking {
    n: usize,
    r: usize,
    count: Vec<Vec<u64>>,
    /// `below[j][s]` = sum of `count[j][u]` for `u < s`.
    below: Vec<Vec<u64>>,
}

impl Ranking {
    /// Tuples of `n` entries in `0..r`.
    pub fn new(n: usize, r: usize) -> Ranking {
        let top = n * (r - 1);
        let mut count = vec![vec![0u64; top + 1]; n + 1];
        count[0][0] = 1;
        for j in 1..=n {
            for s in 0..=j * (r - 1) {
                count[j][s] = (0..r.min(s + 1)).map(|v| count[j - 1][s - v]).sum();
            }
        }
        let below = count
            .iter()
            .map(|c| {
                let mut acc = 0;
                let mut b = Vec::with_capacity(c.len() + 1);
                for &x in c {
                    b.push(acc);
                    acc += x;
                }
                b.push(acc);
                b
            })
            .collect();
        Ranking { n, r, count, below }
    }

    /// The number of tiers (sums `0..=n(r-1)`).
    pub fn tiers(&self) -> usize {
        self.n * (self.r - 1) + 1
    }

    /// The number of tuples with sum `t`.
    pub fn size(&self, t: usize) -> u64 {
        self.count[self.n].get(t).copied().unwrap_or(0)
    }

    /// The number of tuples of `j` entries (at most the `n` of [`Ranking::new`]) in `0..r` with sum `s`.
    pub fn compositions(&self, j: usize, s: usize) -> u64 {
        self.count[j].get(s).copied().unwrap_or(0)
    }

    /// The number of axes `n` and values per axis `r` of the tuples ranked.
    pub fn shape(&self) -> (usize, usize) {
        (self.n, self.r)
    }

    /// Tuples of `j` entries with sum in `s-x+1 ..= s` (those whose first entry is below `x`, after
    /// the first entry is taken off).
    fn skipped(&self, j: usize, s: usize, x: usize) -> u64 {
        let hi = (s + 1).min(self.below[j].len() - 1);
        let lo = (s + 1).saturating_sub(x).min(hi);
        self.below[j][hi] - self.below[j][lo]
    }

    /// The rank of `x` (sum `t`) among the tuples with sum `t`, in lexicographic order.
    pub fn rank(&self, x: &[u32], t: usize) -> u64 {
        let mut s = t;
        let mut rank = 0;
        for (p, &v) in x.iter().enumerate() {
            let v = v as usize;
            // Tuples with a smaller entry here: the rest sums to s - u for u < v.
            rank += self.skipped(self.n - p - 1, s, v);
            s -= v;
        }
        rank
    }

    /// The tuple of rank `rank` with sum `t`.
    pub fn unrank(&self, mut rank: u64, t: usize, x: &mut [u32]) {
        let mut s = t;
        #[allow(clippy::needless_range_loop)] // `p` counts down the axes `j` as well
        for p in 0..self.n {
            let j = self.n - p - 1;
            let mut v = 0;
            loop {
                let c = if s >= v {
                    self.count[j].get(s - v).copied().unwrap_or(0)
                } else {
                    0
                };
                if rank < c {
                    break;
                }
                rank -= c;
                v += 1;
            }
            x[p] = v as u32;
            s -= v;
        }
    }
}

/// The P-lines of a window game (see [`crate::lines::solve`]): (global line index, bit), sorted. The
/// global line index is `sum_{j>=1} x_j r^(j-1)`, as in [`crate::lines`]. Cubes only (no
/// [`LineSpec::radix`]).
pub fn solve(spec: &LineSpec, hooks: Hooks) -> Result<Vec<PLine>, Interrupted> {
    assert!(spec.radix.is_none(), "the tiers take cubes");
    let (m, r) = (spec.m, spec.r);
    let n = m - 1;
    let rk = Ranking::new(n, r);
    let full = if r == 64 { !0u64 } else { (1u64 << r) - 1 };
    // Per window: does it hold the bit axis, and its other axes as coordinates 0..n.
    let windows: Vec<(bool, Vec<usize>)> = spec
        .windows
        .iter()
        .map(|w| {
            (
                w.contains(&0),
                w.iter().filter(|&&a| a != 0).map(|&a| a - 1).collect(),
            )
        })
        .collect();
    let nw = windows.len();
    let prefix = |e: u64| {
        if e == 0 {
            0
        } else {
            (!0u64 << e.trailing_zeros()) & full
        }
    };
    let weights: Vec<u64> = (0..n).map(|j| (r as u64).pow(j as u32)).collect();
    let mut prev: Vec<u64> = Vec::new();
    let mut out = Vec::new();
    let total = rk.tiers();
    for t in 0..total {
        if hooks.cancelled() {
            return Err(Interrupted);
        }
        let size = rk.size(t) as usize;
        let mut cur = vec![0u64; size * nw];
        let found: Vec<PLine> = cur
            .par_chunks_mut(nw)
            .enumerate()
            .filter_map(|(rank, d)| {
                let mut x = vec![0u32; n];
                rk.unrank(rank as u64, t, &mut x);
                let mut nmask = 0u64;
                for (slot, (has0, axes)) in windows.iter().enumerate() {
                    let mut e = 0u64;
                    for &a in axes {
                        if x[a] > 0 {
                            x[a] -= 1;
                            let below = rk.rank(&x, t - 1) as usize;
                            x[a] += 1;
                            e |= prev[below * nw + slot];
                        }
                    }
                    if *has0 {
                        e = prefix(e);
                    }
                    d[slot] = e;
                    nmask |= e;
                }
                if spec.origin_n && t == 0 {
                    nmask |= 1;
                }
                let free = !nmask & full;
                let pbit = free & free.wrapping_neg();
                for (slot, (has0, _)) in windows.iter().enumerate() {
                    d[slot] |= pbit;
                    if *has0 {
                        d[slot] = prefix(d[slot]);
                    }
                }
                (pbit != 0).then(|| {
                    let line: u64 = x.iter().zip(&weights).map(|(&v, &w)| v as u64 * w).sum();
                    (line, pbit.trailing_zeros())
                })
            })
            .collect();
        out.extend(found);
        prev = cur;
        if let Some(p) = hooks.progress {
            p(t as u64 + 1, total as u64);
        }
    }
    out.sort_unstable();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::Ranking;

    /// Ranks are 0..size in lexicographic order, and unranking inverts ranking (checked by listing
    /// every tuple of each tier).
    #[test]
    fn ranking_lists_each_tier_in_order() {
        for (n, r) in [(1, 5), (2, 4), (3, 3), (4, 5), (6, 3)] {
            let rk = Ranking::new(n, r);
            let mut by_tier: Vec<Vec<Vec<u32>>> = vec![Vec::new(); rk.tiers()];
            let total = (r as u64).pow(n as u32);
            for i in 0..total {
                let mut x = vec![0u32; n];
                let mut v = i;
                for p in (0..n).rev() {
                    x[p] = (v % r as u64) as u32;
                    v /= r as u64;
                }
                let t: u32 = x.iter().sum();
                by_tier[t as usize].push(x);
            }
            for (t, tuples) in by_tier.iter().enumerate() {
                assert_eq!(rk.size(t), tuples.len() as u64, "n {n} r {r} tier {t}");
                for (i, x) in tuples.iter().enumerate() {
                    assert_eq!(rk.rank(x, t), i as u64, "{x:?}");
                    let mut y = vec![0u32; n];
                    rk.unrank(i as u64, t, &mut y);
                    assert_eq!(&y, x);
                }
            }
        }
    }
}
