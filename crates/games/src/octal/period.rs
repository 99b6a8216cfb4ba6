//! The period of a one-heap game's Grundy sequence and its proof: the Guy–Smith periodicity test
//! (with 3·n0 + 2p + t for codes that leave three heaps), or for games that never split a heap the
//! repeat of a window of t values (docs/rules.md states both).

use super::{OctalGame, Periodicity, Proof};

impl OctalGame {
    /// The least index a proof of period `p` from `pre` needs computed (the prefix must reach it),
    /// by `proof`; `None` when that proof does not apply to this game.
    pub fn proof_needs(&self, proof: Proof, pre: u64, p: u64) -> Option<u64> {
        let t = self.t();
        match proof {
            // g(n + p) = g(n) for pre <= n < 2·max(pre,1) + p + t: the last index read is
            // 2·max(pre,1) + p + t - 1 + p. With moves that leave three heaps the check runs to
            // 3·max(pre,1) + 2p + t (docs/rules.md). Grundy's game (unequal parts) is not covered.
            Proof::GuySmith => {
                if self.unequal_splits() {
                    return None;
                }
                let (k, q) = if self.most_parts() == 3 {
                    (3, 2)
                } else {
                    (2, 1)
                };
                (k * pre.max(1))
                    .checked_add(p.checked_mul(q)?)?
                    .checked_add(t)?
                    .checked_sub(1)?
                    .checked_add(p)
            }
            Proof::Window => {
                if self.splits() || self.digits.first().is_some_and(|&d| d != 0) {
                    return None;
                }
                // The values of n >= u depend on the t values before n alone: u = t when every
                // non-zero digit is 3 (a take-all move is the same as leaving an empty heap),
                // else t + 1. A window pre..pre+t repeated p later repeats for ever when its
                // successor pre + t is at least u.
                let all_three = self.moves.iter().all(|&(_, d)| d == 3);
                let start = if all_three { pre } else { pre.max(1) };
                // g(n + p) = g(n) for pre <= n < start + t: the last index read is
                // start + t - 1 + p (with t = 0, no move: every value is 0 from the start).
                let end = start.checked_add(t)?.checked_add(p)?;
                Some((end - 1).max(pre.checked_add(p)?))
            }
        }
    }

    /// The proofs tried, in order: subtraction games by their window; octal games by Guy–Smith,
    /// then (games that never split a heap) by their window.
    fn proofs(&self) -> &'static [Proof] {
        if self.is_subtraction() {
            &[Proof::Window]
        } else if self.unequal_splits() {
            &[]
        } else {
            &[Proof::GuySmith, Proof::Window]
        }
    }

    /// The period of the values `g` = g(0..=N): for p = 1, 2, ... the least pre from which
    /// g(n + p) = g(n) + s throughout the prefix (s = g(N) - g(N - p)). The first p that a proof
    /// covers is returned proved. Otherwise the first p seen with at least three periods after its
    /// preperiod, over at least the last quarter of the prefix, is returned as evidence (with the
    /// N a proof would need). `None` when no period is seen.
    pub fn periodicity(&self, g: &[u32]) -> Option<Periodicity> {
        let len = g.len() as u64;
        if len < 2 {
            return None;
        }
        let last = len - 1;
        let mut seen: Option<Periodicity> = None;
        for p in 1..=len / 2 {
            if let Some(e) = &seen {
                // A multiple of the period seen is the same pattern: nothing new to prove there.
                if p % e.period == 0 {
                    continue;
                }
            }
            let s = i64::from(g[last as usize]) - i64::from(g[(last - p) as usize]);
            // Least pre: scan down from the top to the first break.
            let mut pre = 0u64;
            let mut n = last - p;
            loop {
                if i64::from(g[(n + p) as usize]) - i64::from(g[n as usize]) != s {
                    pre = n + 1;
                    break;
                }
                if n == 0 {
                    break;
                }
                n -= 1;
            }
            if s == 0 {
                for &proof in self.proofs() {
                    if self
                        .proof_needs(proof, pre, p)
                        .is_some_and(|need| need <= last)
                    {
                        return Some(Periodicity {
                            preperiod: pre,
                            period: p,
                            saltus: 0,
                            proof: Some(proof),
                            proof_needs: None,
                        });
                    }
                }
            }
            let tail = len - pre;
            if seen.is_none() && tail >= 3 * p && tail >= len / 4 {
                let proof_needs = (s == 0)
                    .then(|| {
                        self.proofs()
                            .iter()
                            .filter_map(|&pr| self.proof_needs(pr, pre, p))
                            .min()
                    })
                    .flatten();
                seen = Some(Periodicity {
                    preperiod: pre,
                    period: p,
                    saltus: s,
                    proof: None,
                    proof_needs,
                });
            }
        }
        seen
    }
}
