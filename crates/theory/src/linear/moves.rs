//! The move rules of (shrinking) circular games and the search for a move into a union of families:
//! for each window, each set of emptied window piles (shrinking circles only), each family and each
//! reading, the window's stacks are solved for by the `solve` module.

use super::relations::{Family, Reading};
use super::solve::solve_reading;
use nimlab_core::Pos;

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
