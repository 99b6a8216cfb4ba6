//! Circular Nim CN(n,k) (Dufour & Heubach): n stacks around a circle; a move chooses k consecutive
//! stacks and lowers any of them, removing at least one token in total. For k = n the window is the
//! whole circle. The only terminal position is all zeros. Symmetry: rotations and reflections.
//!
//! A run of at least k-1 consecutive empty stacks cuts the circle: no window reaches across it. A
//! position with two or more such cuts is the disjunctive sum of the pieces between them, and
//! [`Game::split`] returns each piece padded with zeros to a full circle (the padding is a run of at
//! least k-1 zeros, so the padded circle plays exactly like the piece).

use crate::window::{for_each_lowering, window_product};
use nimlab_core::game::dihedral_min;
use nimlab_core::{BoxDomain, Error, Game, Layout, MoveStructure, Pos, Result, Rng};
use std::ops::ControlFlow;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CircularNim {
    pub n: usize,
    pub k: usize,
}

/// Largest circle nimlab accepts (positions are searched or tabulated, never larger than this).
pub const MAX_STACKS: usize = 64;

impl CircularNim {
    pub fn new(n: usize, k: usize) -> Result<CircularNim> {
        if n == 0 || n > MAX_STACKS {
            return Err(Error::BadGame(format!(
                "CN({n},{k}): the number of stacks n must be between 1 and {MAX_STACKS}"
            )));
        }
        if k == 0 || k > n {
            return Err(Error::BadGame(format!(
                "CN({n},{k}): the window size k must satisfy 1 <= k <= n"
            )));
        }
        Ok(CircularNim { n, k })
    }

    /// The windows of the circle as index lists: n windows of k stacks, or one window when k = n.
    pub fn windows(&self) -> Vec<Vec<usize>> {
        let starts = if self.k == self.n { 1 } else { self.n };
        (0..starts)
            .map(|s| (0..self.k).map(|j| (s + j) % self.n).collect())
            .collect()
    }

    /// The pieces of `p` between runs of at least k-1 zeros, each in circle order (empty when `p` is
    /// all zeros; a single piece when there is at most one cut).
    pub fn pieces(&self, p: &[u64]) -> Vec<Vec<u64>> {
        let n = self.n;
        if self.k == 1 {
            return p.iter().filter(|&&a| a > 0).map(|&a| vec![a]).collect();
        }
        let Some(start_nz) = (0..n).find(|&i| p[i] > 0) else {
            return Vec::new();
        };
        // Walk once around the circle starting at a non-zero stack, cutting at long zero runs.
        let mut pieces: Vec<Vec<u64>> = Vec::new();
        let mut cur: Vec<u64> = Vec::new();
        let mut zeros = 0usize;
        let mut cuts = 0usize;
        for step in 0..n {
            let a = p[(start_nz + step) % n];
            if a == 0 {
                zeros += 1;
                continue;
            }
            if zeros >= self.k - 1 && !cur.is_empty() {
                pieces.push(std::mem::take(&mut cur));
                cuts += 1;
            } else {
                cur.extend(std::iter::repeat_n(0, zeros));
            }
            zeros = 0;
            cur.push(a);
        }
        // The run that closes the circle back to start_nz.
        if zeros >= self.k - 1 {
            cuts += 1;
            pieces.push(cur);
        } else if let Some(first) = pieces.first_mut() {
            // Not a cut: the last piece continues into the first one.
            cur.extend(std::iter::repeat_n(0, zeros));
            cur.extend_from_slice(first);
            *first = cur;
        } else {
            pieces.push(cur);
        }
        if cuts == 0 {
            // No cut at all: the whole circle is one piece (returned as the circle itself).
            return vec![p.to_vec()];
        }
        pieces
    }
}

impl Game for CircularNim {
    fn id(&self) -> String {
        format!("CN({},{})", self.n, self.k)
    }

    fn validate(&self, p: &[u64]) -> Result<()> {
        crate::window::check_stacks(&self.id(), self.n, p)
    }
    fn move_structure(&self, len: usize) -> Option<MoveStructure> {
        (len == self.n).then(|| MoveStructure::Faces(self.windows()))
    }
    fn layout(&self) -> Layout {
        Layout::Circle
    }
    fn random_position(&self, rng: &mut Rng, hi: u64) -> Option<Pos> {
        Some((0..self.n).map(|_| rng.range(0, hi.min(7))).collect())
    }

    fn for_each_option(
        &self,
        p: &[u64],
        f: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
    ) -> Result<()> {
        let mut buf = p.to_vec();
        let strict = self.k < self.n;
        for w in self.windows() {
            if for_each_lowering(p, &w, strict, &mut buf, &mut |q| f(q)).is_break() {
                return Ok(());
            }
        }
        Ok(())
    }

    fn canonical(&self, p: &[u64]) -> Pos {
        dihedral_min(p)
    }

    fn split(&self, p: &[u64]) -> Option<Vec<Pos>> {
        let pieces = self.pieces(p);
        if pieces.len() < 2 {
            return None;
        }
        Some(
            pieces
                .into_iter()
                .map(|mut s| {
                    s.resize(self.n, 0);
                    s
                })
                .collect(),
        )
    }

    fn branching_bound(&self, p: &[u64]) -> f64 {
        self.windows()
            .iter()
            .map(|w| window_product(p, w))
            .sum::<f64>()
    }

    fn table_domain(&self, hi: u64, _len: Option<usize>) -> Result<BoxDomain> {
        Ok(BoxDomain {
            lengths: vec![self.n],
            lo: 0,
            hi,
        })
    }

    fn rules(&self) -> String {
        format!(
            "{} stacks on a circle; a move picks {} consecutive stacks{} and lowers any of them, taking at least one token in all. The player who cannot move (all stacks empty) loses in normal play.",
            self.n,
            self.k,
            if self.k == self.n { " (the whole circle)" } else { "" }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figure_1_move_is_legal_in_cn_7_4() {
        let g = CircularNim::new(7, 4).unwrap();
        let opts = g.options(&[1, 7, 5, 6, 2, 3, 6]).unwrap();
        assert!(opts.contains(&vec![0, 1, 5, 4, 2, 3, 6]));
        // Stacks 1, 3 and 5 (0-based 0, 2, 4) lie in no common window of four: not a move.
        assert!(!opts.contains(&vec![0, 7, 4, 6, 1, 3, 6]));
        // Stacks 5 and 1 do (the window 5,6,7,1 wraps around).
        assert!(opts.contains(&vec![0, 7, 5, 6, 1, 3, 6]));
    }

    #[test]
    fn pieces_cut_at_long_zero_runs() {
        let g = CircularNim::new(7, 3).unwrap();
        assert_eq!(g.pieces(&[1, 0, 0, 2, 3, 0, 0]), vec![vec![1], vec![2, 3]]);
        // One cut: the piece wraps around through the short zero run.
        assert_eq!(g.pieces(&[1, 0, 0, 2, 0, 3, 0]), vec![vec![2, 0, 3, 0, 1]]);
        assert_eq!(
            g.pieces(&[1, 0, 2, 0, 3, 0, 4]),
            vec![vec![1, 0, 2, 0, 3, 0, 4]]
        );
        assert_eq!(g.pieces(&[0; 7]), Vec::<Vec<u64>>::new());
        // One cut only: a single piece (a path), which does not split.
        assert!(g.split(&[1, 2, 0, 0, 3, 1, 1]).is_none());
        assert_eq!(
            g.split(&[1, 0, 0, 2, 0, 0, 5]).unwrap(),
            vec![vec![5, 1, 0, 0, 0, 0, 0], vec![2, 0, 0, 0, 0, 0, 0]]
        );
        let one = CircularNim::new(4, 1).unwrap();
        assert_eq!(one.split(&[3, 0, 1, 2]).unwrap().len(), 3);
    }

    #[test]
    fn rejects_bad_parameters_and_positions() {
        assert!(CircularNim::new(3, 4).is_err());
        assert!(CircularNim::new(3, 0).is_err());
        let g = CircularNim::new(3, 2).unwrap();
        assert!(g
            .validate(&[1, 2])
            .unwrap_err()
            .to_string()
            .contains("exactly 3"));
    }
}
