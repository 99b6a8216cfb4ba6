//! Shrinking Circular Nim SCN(n,k) (Oginuma & Shinoda): a circle of m <= n positive piles (m = n at the
//! start). A move chooses k consecutive piles of the current circle (any of the piles when m <= k) and
//! lowers any of them, taking at least one token in all; piles that reach zero vanish and the circle
//! closes up. The empty circle `()` is terminal. Symmetry: rotations and reflections.

use crate::window::{for_each_lowering, window_product};
use nimlab_core::game::{count_box_union, dihedral_min};
use nimlab_core::{BoxDomain, Error, Game, Layout, MoveStructure, Pos, Result, Rng};
use std::ops::ControlFlow;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShrinkingCircularNim {
    pub n: usize,
    pub k: usize,
}

impl ShrinkingCircularNim {
    pub fn new(n: usize, k: usize) -> Result<ShrinkingCircularNim> {
        if n == 0 || n > crate::circular::MAX_STACKS {
            return Err(Error::BadGame(format!(
                "SCN({n},{k}): the number of piles n must be between 1 and {}",
                crate::circular::MAX_STACKS
            )));
        }
        if k == 0 || k > n {
            return Err(Error::BadGame(format!(
                "SCN({n},{k}): the window size k must satisfy 1 <= k <= n"
            )));
        }
        Ok(ShrinkingCircularNim { n, k })
    }

    /// The windows of a circle of `m` piles: the whole circle when m <= k, else m windows of k piles.
    pub fn windows(&self, m: usize) -> Vec<Vec<usize>> {
        if m == 0 {
            Vec::new()
        } else if m <= self.k {
            vec![(0..m).collect()]
        } else {
            (0..m)
                .map(|s| (0..self.k).map(|j| (s + j) % m).collect())
                .collect()
        }
    }
}

impl Game for ShrinkingCircularNim {
    fn id(&self) -> String {
        format!("SCN({},{})", self.n, self.k)
    }

    fn validate(&self, p: &[u64]) -> Result<()> {
        if p.len() > self.n {
            return Err(Error::BadPosition(format!(
                "{} has at most {} piles, got {}",
                self.id(),
                self.n,
                p.len()
            )));
        }
        if let Some(i) = p.iter().position(|&a| a == 0) {
            return Err(Error::BadPosition(format!(
                "{}: pile {} is zero, but empty piles vanish in Shrinking Circular Nim (write the circle without it)",
                self.id(),
                i + 1
            )));
        }
        Ok(())
    }
    fn move_structure(&self, len: usize) -> Option<MoveStructure> {
        Some(MoveStructure::ShrinkingWindows { len, k: self.k })
    }
    fn layout(&self) -> Layout {
        Layout::Circle
    }
    fn random_position(&self, rng: &mut Rng, hi: u64) -> Option<Pos> {
        Some((0..self.n).map(|_| rng.range(1, hi.clamp(1, 7))).collect())
    }

    fn for_each_option(
        &self,
        p: &[u64],
        f: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
    ) -> Result<()> {
        let m = p.len();
        let mut buf = p.to_vec();
        let mut closed: Vec<u64> = Vec::with_capacity(m);
        let strict = m > self.k;
        for w in self.windows(m) {
            let flow = for_each_lowering(p, &w, strict, &mut buf, &mut |q| {
                closed.clear();
                closed.extend(q.iter().copied().filter(|&a| a > 0));
                f(&closed)
            });
            if flow.is_break() {
                return Ok(());
            }
        }
        Ok(())
    }

    fn canonical(&self, p: &[u64]) -> Pos {
        dihedral_min(p)
    }

    /// Counted by length: an option of length `m - z` empties a set E of `z` piles inside one window
    /// and lowers (or keeps, each 1 ..= p_i) the window's other piles; the options of one window and
    /// one E form a box of vectors, and the distinct options of that length are the union of those
    /// boxes ([`count_box_union`]), less `p` itself when z = 0. `None` past 20 000 boxes of one length
    /// or when the boxes overlap too intricately to count quickly.
    fn count_options(&self, p: &[u64]) -> Option<u128> {
        let m = p.len();
        if m == 0 || p.contains(&0) {
            return Some(0);
        }
        let windows = self.windows(m);
        let w = windows[0].len();
        if windows.len().saturating_mul(1usize.checked_shl(w as u32)?) > 20_000 * (w + 1) {
            return None;
        }
        let mut by_len: Vec<Vec<Vec<(u64, u64)>>> = vec![Vec::new(); m + 1];
        for win in &windows {
            for mask in 0u32..1 << win.len() {
                let gone: Vec<usize> = (0..win.len())
                    .filter(|&j| mask >> j & 1 == 1)
                    .map(|j| win[j])
                    .collect();
                let b: Vec<(u64, u64)> = (0..m)
                    .filter(|i| !gone.contains(i))
                    .map(|i| {
                        if win.contains(&i) {
                            (1, p[i])
                        } else {
                            (p[i], p[i])
                        }
                    })
                    .collect();
                by_len[b.len()].push(b);
            }
        }
        let mut total: u128 = 0;
        for (len, boxes) in by_len.iter_mut().enumerate() {
            if boxes.is_empty() {
                continue;
            }
            if boxes.len() > 20_000 {
                return None;
            }
            boxes.sort_unstable();
            boxes.dedup();
            let mut c = count_box_union(boxes)?;
            if len == m && c != u128::MAX {
                c -= 1; // p itself lies in every box of full length
            }
            total = total.saturating_add(c);
        }
        Some(total)
    }

    fn branching_bound(&self, p: &[u64]) -> f64 {
        self.windows(p.len())
            .iter()
            .map(|w| window_product(p, w))
            .sum::<f64>()
    }

    fn table_domain(&self, hi: u64, _len: Option<usize>) -> Result<BoxDomain> {
        if hi == 0 {
            return Err(Error::refused(
                nimlab_core::Refusal::new(format!("{}: piles are at least 1, so ", self.id()))
                    .name(nimlab_core::Arg::Max)
                    .text(" must be at least 1"),
            ));
        }
        Ok(BoxDomain {
            lengths: (0..=self.n).collect(),
            lo: 1,
            hi,
        })
    }

    fn rules(&self) -> String {
        format!(
            "A circle of at most {} positive piles; a move picks {} consecutive piles (all of them when the circle has at most {}) and lowers any of them, taking at least one token in all. Empty piles vanish and the circle closes up. The empty circle () is terminal.",
            self.n, self.k, self.k
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn emptied_piles_vanish() {
        let g = ShrinkingCircularNim::new(4, 2).unwrap();
        let opts = g.options(&[1, 2, 3, 4]).unwrap();
        assert!(opts.contains(&vec![1, 3, 4])); // pile 2 emptied, circle closes
        assert!(opts.contains(&vec![3, 4])); // piles 1 and 2 emptied
        assert!(!opts.contains(&vec![2, 4])); // piles 1 and 3 are not consecutive
        assert!(opts.contains(&vec![1, 4])); // piles 2 and 3 emptied
        assert!(opts.contains(&vec![2, 3])); // piles 4 and 1 are consecutive on the circle
        assert_eq!(g.options(&[2]).unwrap(), vec![vec![1], vec![]]);
        assert!(g.validate(&[1, 0, 2]).is_err());
        assert!(g.validate(&[1, 1, 1, 1, 1]).is_err());
    }
}
