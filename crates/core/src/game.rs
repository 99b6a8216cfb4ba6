//! The [`Game`] abstraction.
//!
//! A game module implements a handful of required functions (its name, validity of a position, and
//! its options) and may override optional ones that make solving faster or output nicer (canonical form
//! under symmetries, decomposition into independent parts, a search-size estimate, a tabulation box).
//! Nothing else about the game needs to be known to the solvers.

use crate::error::{Error, Result};
use crate::position;
use std::collections::HashSet;
use std::ops::ControlFlow;

/// A position: a vector of non-negative integers whose meaning is up to the game.
pub type Pos = Vec<u64>;

/// The box of positions that `table --max H` covers: every position whose length is one of `lengths`
/// and whose entries all lie in `lo..=hi`.
///
/// Tabulation relies on one property, which every game with a box checks in its tests: every option of a
/// position in the box is again in the box, has a length that is not larger, and, when the length is
/// the same, has every entry at most the corresponding one and at least one entry smaller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoxDomain {
    /// Allowed lengths, in increasing order.
    pub lengths: Vec<usize>,
    /// Smallest allowed entry.
    pub lo: u64,
    /// Largest allowed entry.
    pub hi: u64,
}

impl BoxDomain {
    /// Number of values each entry can take.
    pub fn radix(&self) -> u64 {
        self.hi - self.lo + 1
    }
    /// Number of positions in the box (as `f64`, so that huge boxes can be refused without overflow).
    pub fn size_f64(&self) -> f64 {
        self.lengths
            .iter()
            .map(|&m| (self.radix() as f64).powi(m as i32))
            .sum()
    }
}

/// An impartial game given by its rules (one ruleset: a family with all its parameters fixed).
///
/// Required: [`Game::id`], [`Game::validate`], [`Game::for_each_option`]. Everything else has a
/// correct default.
pub trait Game: Send + Sync {
    /// The ruleset's name with all its parameters, e.g. `CN(7,4)`. Two games with the same id have the
    /// same rules; caches are keyed by it and never shared between different ids.
    fn id(&self) -> String;

    /// The family name without parameters (`CN`, `SCN`, `nim`, `moore`, ...).
    fn family(&self) -> &'static str;

    /// The family's parameters in order (`[n, k]` for `CN(n,k)`), empty when it has none.
    fn params(&self) -> Vec<u64> {
        Vec::new()
    }

    /// Checks that `p` is a position of this game; the error names the problem in one line.
    fn validate(&self, p: &[u64]) -> Result<()>;

    /// Calls `f` with every option (position reachable in one move) of `p`, stopping early when `f`
    /// returns `Break`. An option may be reported more than once; [`Game::options`] removes repeats.
    fn for_each_option(&self, p: &[u64], f: &mut dyn FnMut(&[u64]) -> ControlFlow<()>);

    /// Every option of `p`, each once, in the order first generated.
    fn options(&self, p: &[u64]) -> Vec<Pos> {
        let mut seen: HashSet<Pos> = HashSet::new();
        let mut out = Vec::new();
        self.for_each_option(p, &mut |q| {
            if seen.insert(q.to_vec()) {
                out.push(q.to_vec());
            }
            ControlFlow::Continue(())
        });
        out
    }

    /// True when `p` has no option.
    fn is_terminal(&self, p: &[u64]) -> bool {
        let mut any = false;
        self.for_each_option(p, &mut |_| {
            any = true;
            ControlFlow::Break(())
        });
        !any
    }

    /// The representative of `p`'s class under the game's symmetries (the least tuple of the class).
    /// Positions in the same class have the same value. Default: no symmetry.
    fn canonical(&self, p: &[u64]) -> Pos {
        p.to_vec()
    }

    /// Independent parts of `p`, when `p` is a disjunctive sum of smaller positions of this same game
    /// (normal-play Grundy values then XOR). `None` when `p` does not split.
    fn split(&self, _p: &[u64]) -> Option<Vec<Pos>> {
        None
    }

    /// An upper bound on the number of positions a search from `p` may visit (before memoization and
    /// symmetry reduce it). Default: the product of `(p_i + 1)`.
    fn state_bound(&self, p: &[u64]) -> f64 {
        p.iter().map(|&a| a as f64 + 1.0).product()
    }

    /// An upper bound on the number of options a position reachable from `p` can have.
    /// Default: the number of positions below `p`.
    fn branching_bound(&self, p: &[u64]) -> f64 {
        self.state_bound(p)
    }

    /// The box that `table --max hi` covers, if the game supports tabulation by a bound on entries.
    /// `len` is the number of heaps for games that accept any number of them.
    fn table_domain(&self, _hi: u64, _len: Option<usize>) -> Result<BoxDomain> {
        Err(Error::Unsupported(format!(
            "{} has no box tabulation",
            self.id()
        )))
    }

    /// Parses a position in the game's notation and validates it.
    fn parse_position(&self, text: &str) -> Result<Pos> {
        let p = position::parse_list(text)?;
        self.validate(&p)?;
        Ok(p)
    }

    /// Prints a position in the game's notation.
    fn format_position(&self, p: &[u64]) -> String {
        position::format_tuple(p)
    }

    /// A failure the game met while answering (a scripted game's runtime error), to be reported instead
    /// of any result computed since. Built-in games never fail.
    fn failure(&self) -> Option<String> {
        None
    }

    /// One paragraph on the rules, for `nimlab games`.
    fn rules(&self) -> String {
        String::new()
    }
}

/// The least tuple among all rotations and reflections of a circle; used by circular games.
pub fn dihedral_min(p: &[u64]) -> Pos {
    let n = p.len();
    if n <= 1 {
        return p.to_vec();
    }
    // Compare candidates index by index without building them; (start, step) describes one reading.
    let read = |start: usize, forward: bool, i: usize| {
        if forward {
            p[(start + i) % n]
        } else {
            p[(start + n - i) % n]
        }
    };
    let (mut best_start, mut best_fwd) = (0usize, true);
    for start in 0..n {
        for fwd in [true, false] {
            for i in 0..n {
                let (a, b) = (read(start, fwd, i), read(best_start, best_fwd, i));
                if a != b {
                    if a < b {
                        best_start = start;
                        best_fwd = fwd;
                    }
                    break;
                }
            }
        }
    }
    (0..n).map(|i| read(best_start, best_fwd, i)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn dihedral_min_finds_least_rotation_or_reflection() {
        assert_eq!(dihedral_min(&[3, 1, 2]), vec![1, 2, 3]);
        assert_eq!(dihedral_min(&[2, 1, 3]), vec![1, 2, 3]);
        assert_eq!(
            dihedral_min(&[1, 7, 5, 6, 2, 3, 6]),
            vec![1, 6, 3, 2, 6, 5, 7]
        );
        assert_eq!(dihedral_min(&[]), Vec::<u64>::new());
    }
}
