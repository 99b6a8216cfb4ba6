//! Moore's Nim_k: heaps of tokens; a move takes tokens from at least one and at most k heaps (any
//! number from each). Nim_1 is Nim. Symmetry: any permutation of the heaps.

use crate::nim::{heaps_domain, sorted, validate_heaps};
use nimlab_core::{BoxDomain, Error, Game, MoveStructure, Pos, Result, Rng, TableBound};
use std::ops::ControlFlow;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MooreNim {
    pub k: usize,
}

impl MooreNim {
    pub fn new(k: usize) -> Result<MooreNim> {
        if k == 0 || k > crate::nim::MAX_HEAPS {
            return Err(Error::BadGame(format!(
                "moore({k}): k (the most heaps one move may touch) must be between 1 and {}",
                crate::nim::MAX_HEAPS
            )));
        }
        Ok(MooreNim { k })
    }
}

/// Lowers, by at least one each, every heap of a chosen set of at most `k` heaps (sets taken in
/// increasing order of indices from `from`), reporting each resulting position once.
fn lower_sets(
    p: &[u64],
    from: usize,
    left: usize,
    chosen: bool,
    buf: &mut Vec<u64>,
    f: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if chosen {
        f(buf)?;
    }
    if left == 0 {
        return ControlFlow::Continue(());
    }
    for i in from..p.len() {
        for v in (0..p[i]).rev() {
            buf[i] = v;
            lower_sets(p, i + 1, left - 1, true, buf, f)?;
        }
        buf[i] = p[i];
    }
    ControlFlow::Continue(())
}

impl Game for MooreNim {
    fn id(&self) -> String {
        format!("moore({})", self.k)
    }
    fn validate(&self, p: &[u64]) -> Result<()> {
        validate_heaps(&self.id(), p)
    }
    fn for_each_option(
        &self,
        p: &[u64],
        f: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
    ) -> Result<()> {
        let mut buf = p.to_vec();
        let _ = lower_sets(p, 0, self.k, false, &mut buf, f);
        Ok(())
    }
    fn move_structure(&self, len: usize) -> Option<MoveStructure> {
        // Listing every k-set is only sensible while there are not too many of them.
        let k = self.k.min(len);
        let count = (0..k).fold(1f64, |c, i| c * (len - i) as f64 / (i + 1) as f64);
        (count <= 1e6).then(|| MoveStructure::Faces(k_subsets(len, k)))
    }
    /// An option lowers a set S of 1..=k heaps, each to one of its `p_i` lower values, and S is
    /// the set of changed heaps, so options are counted once each: the elementary symmetric sums
    /// e_1 + ... + e_k of the heaps (a dynamic programme over the heaps, saturating at u128::MAX;
    /// every term is positive).
    fn count_options(&self, p: &[u64]) -> Option<u128> {
        let k = self.k.min(p.len());
        // e[j]: sum over j-sets of the heaps seen so far of the product of their sizes.
        let mut e = vec![0u128; k + 1];
        e[0] = 1;
        for &a in p {
            for j in (1..=k).rev() {
                e[j] = e[j].saturating_add(e[j - 1].saturating_mul(u128::from(a)));
            }
        }
        Some(e[1..].iter().fold(0u128, |s, &x| s.saturating_add(x)))
    }
    fn table_bound(&self) -> TableBound {
        TableBound::Box { heaps: true }
    }
    fn random_position(&self, rng: &mut Rng, hi: u64) -> Option<Pos> {
        let len = (self.k + 1).min(5);
        Some((0..len).map(|_| rng.range(1, hi.clamp(1, 6))).collect())
    }
    fn canonical(&self, p: &[u64]) -> Pos {
        sorted(p)
    }
    fn table_domain(&self, hi: u64, len: Option<usize>) -> Result<BoxDomain> {
        heaps_domain(&self.id(), hi, len)
    }
    fn rules(&self) -> String {
        format!(
            "Heaps of tokens; a move takes tokens from at least one and at most {} heaps.",
            self.k
        )
    }
}

/// Every set of `k` places among `0..len`, in lexicographic order.
pub fn k_subsets(len: usize, k: usize) -> Vec<Vec<usize>> {
    fn rec(start: usize, len: usize, k: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for i in start..len {
            cur.push(i);
            rec(i + 1, len, k, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    rec(0, len, k, &mut Vec::new(), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn options_touch_at_most_k_heaps() {
        let g = MooreNim::new(2).unwrap();
        let opts = g.options(&[1, 1, 1]).unwrap();
        // Lower one heap (3 ways) or two heaps (3 ways); never all three.
        assert_eq!(opts.len(), 6);
        assert!(!opts.contains(&vec![0, 0, 0]));
        assert!(MooreNim::new(0).is_err());
    }
}
