//! Conditions (I)–(III) of the partition theorem (docs/rules.md, "The partition theorem and verify")
//! over a bounded set of positions.
//!
//! A set A is the P-set (normal play) when (I) no move leads from A to A, (II) every position outside A
//! has a move into A, and (III) every terminal position is in A. In misère play (III) becomes: no
//! terminal position is in A (the player to move there has won), and (II) concerns non-terminal
//! positions. Inside a set closed under moves these checks are exact.
//!
//! A result that decides only some positions (a partial result such as Lemma 5) cannot be checked
//! this way; its verdicts are compared with exhaustive search instead.

use nimlab_core::{Game, Play, Pos, Result, Solver};
use std::collections::HashMap;

pub use nimlab_core::partition::Condition;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counterexample {
    pub condition: Condition,
    pub position: Pos,
    /// The witnessing move (for (I): the member reached).
    pub move_to: Option<Pos>,
    /// For [`Condition::Search`]: whether the result said P.
    pub claimed_p: Option<bool>,
}

#[derive(Debug, Clone, Default)]
pub struct VerifyReport {
    pub positions: u64,
    pub members: u64,
    /// Positions the membership test did not decide (partial results only).
    pub undecided: u64,
    /// True when the verdicts were compared with exhaustive search (partial results).
    pub by_search: bool,
    pub violations: HashMap<Condition, u64>,
    /// The first counterexamples of each kind.
    pub examples: Vec<Counterexample>,
}

impl VerifyReport {
    pub fn holds(&self) -> bool {
        self.violations.values().all(|&v| v == 0)
    }
    fn record(&mut self, c: Counterexample, keep: usize) {
        let n = self.violations.entry(c.condition).or_insert(0);
        *n += 1;
        if *n as usize <= keep {
            self.examples.push(c);
        }
    }
}

/// A membership test: `Some(true)` for members, `Some(false)` for non-members, `None` when undecided.
pub type Membership<'a> = dyn FnMut(&[u64]) -> Result<Option<bool>> + 'a;

/// Verifies the set given by `member` over `positions` (a set closed under moves), keeping up to
/// `keep` counterexamples of each kind.
pub fn verify(
    game: &dyn Game,
    positions: &[Pos],
    member: &mut Membership,
    play: Play,
    keep: usize,
) -> Result<VerifyReport> {
    let mut cache: HashMap<Pos, Option<bool>> = HashMap::with_capacity(positions.len());
    let mut report = VerifyReport {
        positions: positions.len() as u64,
        ..Default::default()
    };
    for p in positions {
        let m = member(p)?;
        cache.insert(p.clone(), m);
        match m {
            Some(true) => report.members += 1,
            Some(false) => {}
            None => report.undecided += 1,
        }
    }
    if report.undecided > 0 {
        // A partial result: compare each decided verdict with search.
        report.by_search = true;
        let mut solver = Solver::new(game);
        for p in positions {
            if let Some(Some(claim)) = cache.get(p) {
                if solver.outcome(p, play)?.is_p() != *claim {
                    report.record(
                        Counterexample {
                            condition: Condition::Search,
                            position: p.clone(),
                            move_to: None,
                            claimed_p: Some(*claim),
                        },
                        keep,
                    );
                }
            }
        }
        return Ok(report);
    }
    for p in positions {
        let is_member = cache[p] == Some(true);
        let mut first_member_option: Option<Pos> = None;
        let mut any_option = false;
        let mut err = None;
        let mut violations: Vec<Pos> = Vec::new();
        game.for_each_option(p, &mut |q| {
            any_option = true;
            let m = match cache.get(q) {
                Some(m) => *m,
                None => match member(q) {
                    Ok(m) => {
                        cache.insert(q.to_vec(), m);
                        m
                    }
                    Err(e) => {
                        err = Some(e);
                        return std::ops::ControlFlow::Break(());
                    }
                },
            };
            if m == Some(true) {
                if is_member {
                    violations.push(q.to_vec());
                    if violations.len() >= keep.max(1) {
                        return std::ops::ControlFlow::Break(());
                    }
                } else {
                    first_member_option = Some(q.to_vec());
                    return std::ops::ControlFlow::Break(());
                }
            }
            std::ops::ControlFlow::Continue(())
        })?;
        if let Some(e) = err {
            return Err(e);
        }
        if let Some(q) = violations.into_iter().next() {
            report.record(
                Counterexample {
                    condition: Condition::I,
                    position: p.clone(),
                    move_to: Some(q),
                    claimed_p: None,
                },
                keep,
            );
        }
        let terminal = !any_option;
        // Terminal positions belong to the set in normal play and lie outside it in misère play.
        let wrong_terminal = terminal && is_member == (play == Play::Misere);
        let stuck = !terminal && !is_member && first_member_option.is_none();
        for (bad, condition) in [(wrong_terminal, Condition::III), (stuck, Condition::II)] {
            if bad {
                report.record(
                    Counterexample {
                        condition,
                        position: p.clone(),
                        move_to: None,
                        claimed_p: None,
                    },
                    keep,
                );
            }
        }
    }
    Ok(report)
}
