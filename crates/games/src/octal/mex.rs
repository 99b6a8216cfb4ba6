//! The stamp-array mex of one heap's options, shared by the plain method and the sparse-space
//! method ([`crate::sparse`]).

use super::OctalGame;
use nimlab_core::{Arg, Error, Refusal, Result};

/// The stamp array of a mex and the count of option values visited, shared by the plain and the
/// sparse-space methods.
pub(crate) struct Mex {
    /// stamp[v] == mark: v is the value of an option of the heap being computed. Every value so
    /// far is below `width` (a power of two), so XORs of them are too; the mex is at most `width`.
    pub(crate) stamp: Vec<u32>,
    pub(crate) width: usize,
    /// Option values visited so far, and the most allowed.
    pub(crate) visits: f64,
    limit: f64,
    since_poll: u64,
}

impl Mex {
    pub(crate) fn new(limit: f64) -> Mex {
        Mex {
            stamp: vec![0; 2],
            width: 1,
            visits: 0.0,
            limit,
            since_poll: 0,
        }
    }

    /// Counts `k` option values visited: polls the cancel scope now and then, and stops past the
    /// limit.
    pub(crate) fn visit(&mut self, k: u64) -> Result<()> {
        self.since_poll += k;
        if self.since_poll >= 1 << 22 {
            self.visits += self.since_poll as f64;
            self.since_poll = 0;
            nimlab_core::interrupt::check()?;
            if self.visits > self.limit {
                return Err(Error::too_large(
                    Refusal::new(format!(
                        "more than {:.1e} option values visited (over ",
                        self.visits
                    ))
                    .value(Arg::Limit, format!("{:.1e}", self.limit))
                    .text("); lower ")
                    .name(Arg::Max)
                    .text(" or raise ")
                    .name(Arg::Limit),
                ));
            }
        }
        Ok(())
    }

    /// Option values visited so far.
    pub(crate) fn visited(&self) -> f64 {
        self.visits + self.since_poll as f64
    }

    /// Appends the value `v` of the next heap, widening the stamp array past it.
    pub(crate) fn push(&mut self, g: &mut Vec<u32>, v: usize) -> Result<()> {
        let v32 =
            u32::try_from(v).map_err(|_| Error::TooLarge("a Grundy value past 2^32".into()))?;
        g.push(v32);
        if v >= self.width {
            self.width = (v + 1).next_power_of_two();
            self.stamp.resize(self.width + 1, 0);
        }
        Ok(())
    }

    /// Widens the stamp array past every value of the prefix `g` (a run that starts from one).
    pub(crate) fn widen(&mut self, g: &[u32]) {
        if let Some(&top) = g.iter().max() {
            let top = top as usize;
            if top >= self.width {
                self.width = (top + 1).next_power_of_two();
                self.stamp.resize(self.width + 1, 0);
            }
        }
    }

    /// Marks the options of heap `n` that leave no heap or one heap (with `mark`).
    pub(crate) fn mark_small(&mut self, game: &OctalGame, g: &[u32], n: usize, mark: u32) {
        for &(j, d) in &game.moves {
            let j = j as usize;
            if j > n {
                break;
            }
            let r = n - j;
            if d & 1 != 0 && r == 0 {
                self.stamp[0] = mark;
            }
            if d & 2 != 0 && r >= 1 {
                self.stamp[g[r] as usize] = mark;
            }
        }
    }

    /// The least value from 0 up not marked with `mark`.
    pub(crate) fn least_unmarked(&self, mark: u32, from: usize) -> usize {
        let mut v = from;
        while self.stamp[v] == mark {
            v += 1;
        }
        v
    }

    /// g(n) by the plain mex over every option of heap n, given g(0..n).
    pub(crate) fn plain_value(&mut self, game: &OctalGame, g: &[u32], n: usize) -> Result<usize> {
        let mark = n as u32 + 1;
        self.mark_small(game, g, n, mark);
        let unequal = game.unequal_splits();
        let mut visits = 1u64;
        for &(j, d) in &game.moves {
            let j = j as usize;
            if j > n {
                break;
            }
            let r = n - j;
            if d & 4 != 0 && r >= 2 {
                for a in 1..=r / 2 {
                    if unequal && 2 * a == r {
                        continue;
                    }
                    self.stamp[(g[a] ^ g[r - a]) as usize] = mark;
                }
                visits += r as u64 / 2;
            }
            if d & 8 != 0 && r >= 3 {
                for a in 1..=r / 3 {
                    let ga = g[a];
                    for b in a..=(r - a) / 2 {
                        self.stamp[(ga ^ g[b] ^ g[r - a - b]) as usize] = mark;
                    }
                    visits += ((r - a) / 2 + 1 - a) as u64;
                }
            }
        }
        self.visit(visits)?;
        Ok(self.least_unmarked(mark, 0))
    }
}
