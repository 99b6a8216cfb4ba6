//! Empty & Transfer ET(k): k >= 2 boxes, each with at least one chip. A move empties one box and moves
//! `t` chips, `1 <= t < x_j`, from another box `j` into it. The only terminal position is `1^k`.

use super::{multisets_up_to, parse_nonnegative, sorted, total, validate_boxes, MAX_BOXES};
use nimlab_core::{Error, Game, Pos, Result, Rng, TableBound};
use std::ops::ControlFlow;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EmptyTransfer {
    pub k: usize,
}

impl EmptyTransfer {
    pub fn new(k: usize) -> Result<EmptyTransfer> {
        if !(2..=MAX_BOXES).contains(&k) {
            return Err(Error::BadGame(format!(
                "ET({k}): the number of boxes k must be between 2 and {MAX_BOXES}"
            )));
        }
        Ok(EmptyTransfer { k })
    }

    /// Every position (sorted) whose total number of chips is at most `s`.
    pub fn positions_with_sum_at_most(&self, s: u64) -> Vec<Pos> {
        super::positions_with_sum_at_most(self.k, 1, s)
    }
}

impl Game for EmptyTransfer {
    fn id(&self) -> String {
        format!("ET({})", self.k)
    }
    fn validate(&self, p: &[u64]) -> Result<()> {
        validate_boxes(&self.id(), self.k, 1, p)
    }
    fn for_each_option(
        &self,
        p: &[u64],
        f: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
    ) -> Result<()> {
        let s = sorted(p);
        let n = s.len();
        let mut buf = vec![0u64; n];
        for i in 0..n {
            if i > 0 && s[i] == s[i - 1] {
                continue; // emptying equal boxes gives the same options
            }
            for j in 0..n {
                if j == i || (j > 0 && j - 1 != i && s[j] == s[j - 1]) {
                    continue;
                }
                for t in 1..s[j] {
                    buf.copy_from_slice(&s);
                    buf[i] = t;
                    buf[j] = s[j] - t;
                    buf.sort_unstable();
                    if f(&buf).is_break() {
                        return Ok(());
                    }
                }
            }
        }
        Ok(())
    }
    fn table_bound(&self) -> TableBound {
        TableBound::TotalChips
    }
    fn format_like(&self, p: &[u64], input: &str) -> String {
        if super::uses_power_notation(input) {
            super::format_power(p)
        } else {
            self.format_position(p)
        }
    }
    fn random_position(&self, rng: &mut Rng, hi: u64) -> Option<Pos> {
        let p: Pos = (0..self.k).map(|_| rng.range(1, hi.max(1))).collect();
        Some(self.canonical(&p))
    }
    fn canonical(&self, p: &[u64]) -> Pos {
        sorted(p)
    }
    /// Counted by values ([`super::count::empty_transfer`]), without listing.
    fn count_options(&self, p: &[u64]) -> Option<u128> {
        Some(super::count::empty_transfer(&sorted(p)))
    }
    fn state_bound(&self, p: &[u64]) -> f64 {
        multisets_up_to(self.k, total(p).min(u64::MAX as u128) as u64)
    }
    fn branching_bound(&self, p: &[u64]) -> f64 {
        let m = p.iter().copied().max().unwrap_or(0) as f64;
        (self.k * (self.k - 1)) as f64 * m
    }
    fn parse_position(&self, text: &str) -> Result<Pos> {
        let p = parse_nonnegative(text, self.k)?;
        self.validate(&p)?;
        Ok(p)
    }
    fn rules(&self) -> String {
        format!(
            "Empty & Transfer with {} boxes, each holding at least one chip: empty one box, then move at least one but not all of the chips of another box into it. The game ends at 1^{}.",
            self.k, self.k
        )
    }
}
