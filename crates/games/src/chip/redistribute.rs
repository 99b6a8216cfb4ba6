//! The discard-and-redistribute games on k boxes, each holding at least one chip. A move discards the
//! contents of some boxes and then redistributes the chips left over all k boxes, every box getting at
//! least one chip (so at least k chips must be left):
//!
//! * `EABO(k)` Empty-All-But-One: discard k-1 boxes (keep one box with at least k chips);
//! * `ER(k)` Empty & Redistribute: discard exactly one box;
//! * `SER(k)` Selective-Empty & Redistribute: discard any number 1..=k-1 of boxes;
//! * `EJR(k,j)` Empty-j & Redistribute: discard exactly j boxes, 1 <= j <= k-1
//!   (EJR(k,1) has the rules of ER(k) and EJR(k,k-1) those of EABO(k)).

use super::{
    multisets_up_to, parse_nonnegative, partitions, partitions_of, sorted, total, validate_boxes,
    MAX_BOXES,
};
use nimlab_core::{Error, Game, Pos, Result, Rng, TableBound};
use std::collections::BTreeSet;
use std::ops::ControlFlow;

/// Which of the discard-and-redistribute games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RedistKind {
    /// Empty-All-But-One.
    Eabo,
    /// Empty & Redistribute.
    Er,
    /// Selective-Empty & Redistribute.
    Ser,
    /// Empty-j & Redistribute with the given j.
    Ejr(usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Redistribute {
    pub k: usize,
    pub kind: RedistKind,
}

impl Redistribute {
    fn check_k(name: &str, k: usize) -> Result<()> {
        if !(2..=MAX_BOXES).contains(&k) {
            return Err(Error::BadGame(format!(
                "{name}: the number of boxes k must be between 2 and {MAX_BOXES}"
            )));
        }
        Ok(())
    }
    pub fn eabo(k: usize) -> Result<Redistribute> {
        Self::check_k(&format!("EABO({k})"), k)?;
        Ok(Redistribute {
            k,
            kind: RedistKind::Eabo,
        })
    }
    /// Empty & Redistribute with k boxes.
    pub fn er(k: usize) -> Result<Redistribute> {
        Self::check_k(&format!("ER({k})"), k)?;
        Ok(Redistribute {
            k,
            kind: RedistKind::Er,
        })
    }
    /// Selective-Empty & Redistribute with k boxes.
    pub fn ser(k: usize) -> Result<Redistribute> {
        Self::check_k(&format!("SER({k})"), k)?;
        Ok(Redistribute {
            k,
            kind: RedistKind::Ser,
        })
    }
    /// Empty-j & Redistribute with k boxes.
    pub fn ejr(k: usize, j: usize) -> Result<Redistribute> {
        let name = format!("EJR({k},{j})");
        Self::check_k(&name, k)?;
        if j == 0 || j >= k {
            return Err(Error::BadGame(format!(
                "{name}: the number j of boxes discarded must be between 1 and k-1 = {}",
                k - 1
            )));
        }
        Ok(Redistribute {
            k,
            kind: RedistKind::Ejr(j),
        })
    }

    /// The numbers of boxes a move may discard, as an inclusive range.
    pub fn discard_range(&self) -> (usize, usize) {
        match self.kind {
            RedistKind::Eabo => (self.k - 1, self.k - 1),
            RedistKind::Er => (1, 1),
            RedistKind::Ser => (1, self.k - 1),
            RedistKind::Ejr(j) => (j, j),
        }
    }

    /// The distinct numbers of chips a move can keep (to be redistributed), each at least k.
    pub fn kept_totals(&self, p: &[u64]) -> BTreeSet<u128> {
        let (lo, hi) = self.discard_range();
        let n = p.len();
        // Kept box counts run from n - hi to n - lo.
        let keep_lo = n.saturating_sub(hi);
        let keep_hi = n.saturating_sub(lo);
        let mut out = BTreeSet::new();
        if keep_hi == 1 {
            out.extend(p.iter().map(|&x| x as u128));
        } else if keep_lo + 1 == n && keep_hi + 1 == n {
            let t = total(p);
            out.extend(p.iter().map(|&x| t - x as u128));
        } else {
            // Sub-multiset sums by number of elements kept.
            let mut by_count: Vec<BTreeSet<u128>> = vec![BTreeSet::new(); keep_hi + 1];
            by_count[0].insert(0);
            for &x in p {
                for c in (0..keep_hi).rev() {
                    let add: Vec<u128> = by_count[c].iter().map(|&s| s + x as u128).collect();
                    by_count[c + 1].extend(add);
                }
            }
            for set in by_count.iter().take(keep_hi + 1).skip(keep_lo.max(1)) {
                out.extend(set.iter().copied());
            }
        }
        let k = self.k as u128;
        out.into_iter().filter(|&s| s >= k).collect()
    }

    /// Every position (sorted) whose total number of chips is at most `s`.
    pub fn positions_with_sum_at_most(&self, s: u64) -> Vec<Pos> {
        super::positions_with_sum_at_most(self.k, 1, s)
    }
}

impl Game for Redistribute {
    fn id(&self) -> String {
        match self.kind {
            RedistKind::Eabo => format!("EABO({})", self.k),
            RedistKind::Er => format!("ER({})", self.k),
            RedistKind::Ser => format!("SER({})", self.k),
            RedistKind::Ejr(j) => format!("EJR({},{})", self.k, j),
        }
    }
    fn validate(&self, p: &[u64]) -> Result<()> {
        validate_boxes(&self.id(), self.k, 1, p)
    }
    fn for_each_option(
        &self,
        p: &[u64],
        f: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
    ) -> Result<()> {
        for n in self.kept_totals(p) {
            let n = match u64::try_from(n) {
                Ok(n) => n,
                Err(_) => {
                    return Err(Error::TooLarge(format!(
                        "{}: an option would hold more chips than nimlab can write down",
                        self.id()
                    )))
                }
            };
            if partitions(n, self.k, 1, f).is_break() {
                return Ok(());
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
    /// Empty-All-But-One with k boxes.
    fn is_terminal(&self, p: &[u64]) -> Result<bool> {
        // A move exists iff the largest total that can be kept (the k - lo largest boxes) is >= k.
        let (lo, _) = self.discard_range();
        let s = sorted(p);
        let keep = s.len().saturating_sub(lo);
        let best: u128 = s.iter().rev().take(keep).map(|&x| x as u128).sum();
        Ok(keep == 0 || best < self.k as u128)
    }
    fn canonical(&self, p: &[u64]) -> Pos {
        sorted(p)
    }
    /// The partitions of every distinct kept total `n` into exactly `k` positive parts (those of
    /// `n - k` into at most `k` parts, [`super::count::partitions_at_most`]); different totals give
    /// different options. Saturates at `u128::MAX`.
    fn count_options(&self, p: &[u64]) -> Option<u128> {
        let k = self.k as u128;
        // Largest total first: the count grows with the total, so a saturated largest count
        // settles the sum at once.
        self.kept_totals(p)
            .into_iter()
            .rev()
            .try_fold(0u128, |acc, n| {
                if acc == u128::MAX {
                    return Some(acc);
                }
                Some(acc.saturating_add(super::count::partitions_at_most(n - k, self.k)?))
            })
    }
    fn state_bound(&self, p: &[u64]) -> f64 {
        multisets_up_to(self.k, total(p).min(u64::MAX as u128) as u64)
    }
    fn branching_bound(&self, p: &[u64]) -> f64 {
        let t = total(p).min(u64::MAX as u128) as u64;
        let (lo, hi) = self.discard_range();
        let kept_choices = (hi - lo + 1) as f64 * t.max(1) as f64;
        kept_choices.min(2f64.powi(self.k.min(1000) as i32)) * partitions_of(t, self.k).max(1.0)
    }
    fn parse_position(&self, text: &str) -> Result<Pos> {
        let p = parse_nonnegative(text, self.k)?;
        self.validate(&p)?;
        Ok(p)
    }
    fn rules(&self) -> String {
        let k = self.k;
        match self.kind {
            RedistKind::Eabo => format!(
                "Empty-All-But-One with {k} boxes, each holding at least one chip: choose a box with at least {k} chips, empty all the others, and redistribute its chips over the {k} boxes, at least one in each. The game ends when every box holds fewer than {k} chips."
            ),
            RedistKind::Er => format!(
                "Empty & Redistribute with {k} boxes, each holding at least one chip: discard the chips of one box and redistribute the others over the {k} boxes, at least one in each. The game ends at 1^{k}."
            ),
            RedistKind::Ser => format!(
                "Selective-Empty & Redistribute with {k} boxes, each holding at least one chip: discard the chips of any 1 to {} boxes and redistribute the rest over the {k} boxes, at least one in each. The game ends at 1^{k}.",
                k - 1
            ),
            RedistKind::Ejr(j) => format!(
                "Empty-{j} & Redistribute with {k} boxes, each holding at least one chip: discard the chips of exactly {j} boxes and redistribute the rest over the {k} boxes, at least one in each (EJR(k,1) is ER(k), EJR(k,k-1) is EABO(k)). The game ends when no such move is possible."
            ),
        }
    }
}
