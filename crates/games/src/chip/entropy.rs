//! Entropy Reduction ENTROPY(k): k boxes of chips; a move takes `t` chips from a box holding `a` and
//! puts them into a box holding `b < a`, with `1 <= t <= a - b - 1` (the two boxes end more nearly
//! equal). The game ends when max − min <= 1.
//!
//! The game is unchanged by adding the same number to every box, so negative counts make sense:
//! [`EntropyReduction::parse_position`] accepts them and, when some entry is negative, subtracts the
//! minimum from every entry (the position then has minimum 0). Entries that are all non-negative are
//! kept as written. [`Game::canonical`] sorts and subtracts the minimum, so positions that differ by a
//! constant share one memo entry.

use super::{parse_chips, sorted, MAX_BOXES};
use nimlab_core::{Error, Game, Pos, Result, Rng, TableBound};
use std::ops::ControlFlow;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntropyReduction {
    pub k: usize,
}

impl EntropyReduction {
    pub fn new(k: usize) -> Result<EntropyReduction> {
        if !(2..=MAX_BOXES).contains(&k) {
            return Err(Error::BadGame(format!(
                "ENTROPY({k}): the number of boxes k must be between 2 and {MAX_BOXES}"
            )));
        }
        Ok(EntropyReduction { k })
    }

    /// Every sorted position with minimum 0 and max − min <= `h` (one representative of each class
    /// of positions that differ by a constant).
    pub fn positions_with_spread_at_most(&self, h: u64) -> Vec<Pos> {
        spread_positions(self.k, h)
    }

    /// Normalises signed counts: subtracts the minimum when some count is negative; refuses a spread
    /// larger than `u64::MAX`.
    pub fn normalise(&self, v: &[i128]) -> Result<Pos> {
        let min = v.iter().copied().min().unwrap_or(0);
        let shift = if min < 0 { min } else { 0 };
        v.iter()
            .map(|&x| {
                u64::try_from(x - shift).map_err(|_| {
                    Error::BadPosition(format!(
                        "ENTROPY({}): max - min is above {}",
                        self.k,
                        u64::MAX
                    ))
                })
            })
            .collect()
    }
}

/// Every sorted k-tuple with minimum 0 (for k >= 1) and maximum at most `h`.
pub(crate) fn spread_positions(k: usize, h: u64) -> Vec<Pos> {
    let mut out = Vec::new();
    if k == 0 {
        return out;
    }
    let mut cur = vec![0u64];
    fn rec(k: usize, h: u64, cur: &mut Vec<u64>, out: &mut Vec<Pos>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        let lo = *cur.last().unwrap_or(&0);
        for v in lo..=h {
            cur.push(v);
            rec(k, h, cur, out);
            cur.pop();
        }
    }
    rec(k, h, &mut cur, &mut out);
    out
}

fn binom_f64(n: f64, r: usize) -> f64 {
    let mut acc = 1.0f64;
    for i in 0..r {
        acc = acc * (n - i as f64) / (i as f64 + 1.0);
    }
    acc
}

impl Game for EntropyReduction {
    fn id(&self) -> String {
        format!("ENTROPY({})", self.k)
    }
    fn validate(&self, p: &[u64]) -> Result<()> {
        if p.len() != self.k {
            return Err(Error::BadPosition(format!(
                "{} is played with exactly {} boxes, got {}",
                self.id(),
                self.k,
                p.len()
            )));
        }
        Ok(())
    }
    fn table_bound(&self) -> TableBound {
        TableBound::Spread
    }
    fn format_like(&self, p: &[u64], input: &str) -> String {
        if super::uses_power_notation(input) {
            super::format_power(p)
        } else {
            self.format_position(p)
        }
    }
    fn random_position(&self, rng: &mut Rng, hi: u64) -> Option<Pos> {
        let p: Pos = (0..self.k).map(|_| rng.range(0, hi)).collect();
        Some(self.canonical(&p))
    }
    fn for_each_option(
        &self,
        p: &[u64],
        f: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
    ) -> Result<()> {
        let s = sorted(p);
        let n = s.len();
        let mut buf = vec![0u64; n];
        for a in 0..n {
            if a + 1 < n && s[a + 1] == s[a] {
                continue; // take from the last of equal boxes only
            }
            for b in 0..a {
                if b + 1 < a && s[b + 1] == s[b] {
                    continue;
                }
                let d = s[a] - s[b];
                let mut t = 1;
                while t < d {
                    buf.copy_from_slice(&s);
                    buf[a] = s[a] - t;
                    buf[b] = s[b] + t;
                    buf.sort_unstable();
                    if f(&buf).is_break() {
                        return Ok(());
                    }
                    t += 1;
                }
            }
        }
        Ok(())
    }
    /// Counted by values ([`super::count::entropy`]), without listing.
    fn count_options(&self, p: &[u64]) -> Option<u128> {
        Some(super::count::entropy(&sorted(p)))
    }
    fn canonical(&self, p: &[u64]) -> Pos {
        let mut s = sorted(p);
        let m = s.first().copied().unwrap_or(0);
        for x in s.iter_mut() {
            *x -= m;
        }
        s
    }
    fn state_bound(&self, p: &[u64]) -> f64 {
        // Every position reached has its entries between the current min and max.
        let lo = p.iter().copied().min().unwrap_or(0);
        let hi = p.iter().copied().max().unwrap_or(0);
        let d = (hi - lo) as f64;
        binom_f64(d + self.k as f64, self.k).max(1.0)
    }
    fn branching_bound(&self, p: &[u64]) -> f64 {
        let lo = p.iter().copied().min().unwrap_or(0);
        let hi = p.iter().copied().max().unwrap_or(0);
        (self.k * (self.k - 1) / 2) as f64 * (hi - lo) as f64
    }
    fn parse_position(&self, text: &str) -> Result<Pos> {
        let v = parse_chips(text, self.k)?;
        let p = self.normalise(&v)?;
        self.validate(&p)?;
        Ok(p)
    }
    fn rules(&self) -> String {
        format!(
            "Entropy Reduction with {} boxes of chips: move some chips from a box with a chips to a box with b < a chips, at least 1 and at most a-b-1, so that the two boxes end more nearly equal. The game ends when the boxes differ by at most 1. Adding a constant to every box changes nothing, so negative counts are accepted (the minimum is subtracted).",
            self.k
        )
    }
}
