//! An exact, memoizing solver over any [`Game`].
//!
//! Values are memoized on the canonical form of each position, in tables that belong to one solver and
//! therefore to one ruleset ([`Game::id`]); nothing is shared between rulesets.
//!
//! * Grundy values (normal play) use [`Game::split`]: when a position is a sum of independent parts, its
//!   value is the XOR of theirs, which keeps searches on cut circles small.
//! * The misère outcome and the remoteness of a position are computed by a full search of its game tree
//!   (misère play and remoteness do not add over sums).
//!
//! Before a search starts, [`Solver::check_budget`] estimates its size and refuses it when the estimate
//! is above the [`Budget`], with a message naming the estimate and the option that lifts the limit.

use crate::arg::{Arg, Refusal};
use crate::error::{Error, Result};
use crate::game::{Game, Pos};
use crate::value::{mex, Outcome, Play};
use rustc_hash::FxHashMap;
use std::ops::ControlFlow;

/// How much work a single search may do, as an estimated number of option visits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    pub limit: f64,
    /// The option that lifts the limit, named in the refusal (`None` where the front end has none
    /// to name).
    pub flag: Option<Arg>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            limit: 2e9,
            flag: Some(Arg::Limit),
        }
    }
}

/// Everything a full search knows about one position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Full {
    pub normal: Outcome,
    pub misere: Outcome,
    /// Steinhaus remoteness in normal play: 0 at a terminal position; a winner moves to the P-option of
    /// least remoteness, a loser to the option of greatest remoteness.
    pub remoteness_normal: u64,
    /// The same in misère play (a terminal position is won by the player to move, in 0 moves).
    pub remoteness_misere: u64,
    /// Suspense number in normal play (Winning Ways, continued conjunctive compounds): 0 at a terminal
    /// position; a winner moves to the P-option of greatest suspense, a loser to the option of least.
    pub suspense_normal: u64,
    /// The same in misère play.
    pub suspense_misere: u64,
}

impl Full {
    pub fn outcome(&self, play: Play) -> Outcome {
        match play {
            Play::Normal => self.normal,
            Play::Misere => self.misere,
        }
    }
    pub fn remoteness(&self, play: Play) -> u64 {
        match play {
            Play::Normal => self.remoteness_normal,
            Play::Misere => self.remoteness_misere,
        }
    }
    pub fn suspense(&self, play: Play) -> u64 {
        match play {
            Play::Normal => self.suspense_normal,
            Play::Misere => self.suspense_misere,
        }
    }
}

/// One option of a position with its value, as listed by `moves --all`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveValue {
    /// The position moved to, in the orientation of the position moved from.
    pub to: Pos,
    /// The outcome of the option under the chosen convention (a move is winning when this is `P`).
    pub outcome: Outcome,
    /// The Grundy value of the option (normal play only).
    pub grundy: Option<u64>,
}

type Key = Box<[u8]>;

fn key_of(p: &[u64]) -> Key {
    let mut out = Vec::with_capacity(p.len() + 1);
    encode_key(p, &mut out);
    out.into_boxed_slice()
}

/// LEB128-style varints: self-delimiting, so positions of different lengths never collide.
fn encode_key(p: &[u64], out: &mut Vec<u8>) {
    out.clear();
    for &x in p {
        let mut v = x;
        loop {
            let byte = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                out.push(byte);
                break;
            }
            out.push(byte | 0x80);
        }
    }
}

/// Called with the number of positions solved so far, every few thousand positions.
pub type ProgressFn = Box<dyn FnMut(u64) + Send>;

/// What is known about positions without searching them: proven results, stored tables. A search
/// asks its oracle at every position it visits and stops there when the oracle answers (the
/// theoretical-solution hook). Answers must be exact.
pub trait Oracle: Send + Sync {
    /// The Grundy value (normal play) of `p`, when known without search.
    fn grundy(&self, _game: &dyn Game, _p: &[u64]) -> Option<u64> {
        None
    }
    /// The outcome of `p` under `play`, when known without search.
    fn outcome(&self, _game: &dyn Game, _p: &[u64], _play: Play) -> Option<Outcome> {
        None
    }
}

/// An exact solver for one ruleset.
pub struct Solver<'g> {
    game: &'g dyn Game,
    ruleset: String,
    oracle: Option<&'g dyn Oracle>,
    grundy: FxHashMap<Key, u64>,
    full: FxHashMap<Key, Full>,
    /// Outcome-only searches, per convention (index 0 normal, 1 misère).
    outcomes: [FxHashMap<Key, bool>; 2],
    progress: Option<ProgressFn>,
    solved: u64,
    oracle_answers: u64,
    cancel: Option<&'g std::sync::atomic::AtomicBool>,
    scratch: Vec<u8>,
}

const RED_ZONE: usize = 128 * 1024;
const STACK_CHUNK: usize = 8 * 1024 * 1024;

/// Runs `game.for_each_option` for a search whose visitor may fail: the first error of either the
/// game or the visitor stops the enumeration and is returned.
fn each_option(
    game: &dyn Game,
    p: &[u64],
    mut visit: impl FnMut(&[u64]) -> Result<ControlFlow<()>>,
) -> Result<()> {
    let mut failed = None;
    game.for_each_option(p, &mut |q| match visit(q) {
        Ok(flow) => flow,
        Err(e) => {
            failed = Some(e);
            ControlFlow::Break(())
        }
    })?;
    failed.map_or(Ok(()), Err)
}

impl<'g> Solver<'g> {
    pub fn new(game: &'g dyn Game) -> Self {
        Solver {
            game,
            ruleset: game.id(),
            oracle: None,
            grundy: FxHashMap::default(),
            full: FxHashMap::default(),
            outcomes: [FxHashMap::default(), FxHashMap::default()],
            progress: None,
            solved: 0,
            oracle_answers: 0,
            cancel: None,
            scratch: Vec::new(),
        }
    }

    /// A solver that asks `oracle` at every position it visits.
    pub fn with_oracle(game: &'g dyn Game, oracle: &'g dyn Oracle) -> Self {
        let mut s = Solver::new(game);
        s.oracle = Some(oracle);
        s
    }

    /// The ruleset this solver's caches belong to.
    pub fn ruleset(&self) -> &str {
        &self.ruleset
    }

    pub fn game(&self) -> &'g dyn Game {
        self.game
    }

    /// Installs a progress callback (the command line shows a spinner with it).
    pub fn set_progress(&mut self, f: ProgressFn) {
        self.progress = Some(f);
    }

    /// Stops searches with [`Error::Interrupted`] once `flag` is set (Ctrl-C).
    pub fn set_cancel(&mut self, flag: &'g std::sync::atomic::AtomicBool) {
        self.cancel = Some(flag);
    }

    /// Number of positions whose values are memoized.
    pub fn cached_positions(&self) -> usize {
        self.grundy.len() + self.full.len() + self.outcomes[0].len() + self.outcomes[1].len()
    }

    /// Number of positions solved by searching their options (oracle answers not counted).
    pub fn positions_searched(&self) -> u64 {
        self.solved
    }

    /// Number of positions the oracle answered during searches.
    pub fn oracle_answers(&self) -> u64 {
        self.oracle_answers
    }

    fn tick(&mut self) -> Result<()> {
        self.solved += 1;
        if self.solved.is_multiple_of(4096) {
            if let Some(f) = self.progress.as_mut() {
                f(self.solved);
            }
            crate::interrupt::hold_here("search");
            if self
                .cancel
                .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
                || crate::interrupt::requested()
            {
                return Err(Error::Interrupted);
            }
        }
        Ok(())
    }

    /// Estimated number of option visits of a search from `p`: for a position that splits, the sum
    /// over its parts; otherwise (positions below p) × (options per position).
    pub fn work_estimate(&self, p: &[u64], full_search: bool) -> f64 {
        if !full_search {
            if let Some(parts) = self.game.split(p) {
                return parts.iter().map(|q| self.work_estimate(q, false)).sum();
            }
        }
        self.states(p, full_search) * self.game.branching_bound(p).max(1.0)
    }

    /// The positions a search from `p` may visit: [`Game::full_state_bound`] for a full search,
    /// else [`Game::state_bound`].
    pub fn states(&self, p: &[u64], full_search: bool) -> f64 {
        if full_search {
            self.game.full_state_bound(p)
        } else {
            self.game.state_bound(p)
        }
    }

    /// Refuses a search whose estimated size is above the budget.
    /// `full_search` is true for misère outcomes and remoteness, which cannot use [`Game::split`].
    pub fn check_budget(&self, p: &[u64], full_search: bool, budget: Budget) -> Result<()> {
        let est = self.work_estimate(p, full_search);
        if est > budget.limit {
            let why = format!(
                "searching {} from {} may visit about {:.1e} options ({:.1e} positions × up to {:.1e} options each), above the limit of {:.1e}; no closed form applies here",
                self.ruleset,
                self.game.format_position(p),
                est,
                self.states(p, full_search),
                self.game.branching_bound(p),
                budget.limit,
            );
            return Err(match budget.flag {
                Some(arg) => Error::too_large(
                    Refusal::new(why + ", so pass ")
                        .value(arg, limit_above(est))
                        .text(" to search anyway (it may need much time and memory)"),
                ),
                None => Error::TooLarge(why),
            });
        }
        Ok(())
    }

    /// The Grundy value (normal play) of `p`.
    pub fn grundy(&mut self, p: &[u64]) -> Result<u64> {
        let c = self.game.canonical(p);
        encode_key(&c, &mut self.scratch);
        if let Some(&g) = self.grundy.get(&self.scratch[..]) {
            return Ok(g);
        }
        if let Some(g) = self.oracle.and_then(|o| o.grundy(self.game, &c)) {
            self.oracle_answers += 1;
            self.grundy.insert(key_of(&c), g);
            return Ok(g);
        }
        let g = stacker::maybe_grow(RED_ZONE, STACK_CHUNK, || -> Result<u64> {
            if let Some(parts) = self.game.split(&c) {
                let mut x = 0;
                for q in &parts {
                    x ^= self.grundy(q)?;
                }
                Ok(x)
            } else {
                // Repeated options do not change the mex, so the generator's output is used as is.
                let game = self.game;
                let mut vals: Vec<u64> = Vec::new();
                each_option(game, &c, |q| {
                    vals.push(self.grundy(q)?);
                    Ok(ControlFlow::Continue(()))
                })?;
                Ok(mex(&mut vals))
            }
        })?;
        self.grundy.insert(key_of(&c), g);
        self.tick()?;
        Ok(g)
    }

    /// Everything a full search knows about `p`: both outcomes and both remotenesses.
    pub fn full(&mut self, p: &[u64]) -> Result<Full> {
        let c = self.game.canonical(p);
        encode_key(&c, &mut self.scratch);
        if let Some(&f) = self.full.get(&self.scratch[..]) {
            return Ok(f);
        }
        let f = stacker::maybe_grow(RED_ZONE, STACK_CHUNK, || -> Result<Full> {
            let game = self.game;
            let mut vals: Vec<Full> = Vec::new();
            each_option(game, &c, |q| {
                vals.push(self.full(q)?);
                Ok(ControlFlow::Continue(()))
            })?;
            if vals.is_empty() {
                return Ok(Full {
                    normal: Outcome::P,
                    misere: Outcome::N,
                    remoteness_normal: 0,
                    remoteness_misere: 0,
                    suspense_normal: 0,
                    suspense_misere: 0,
                });
            }
            let (normal, remoteness_normal) =
                combine(vals.iter().map(|v| (v.normal, v.remoteness_normal)), false);
            let (misere, remoteness_misere) =
                combine(vals.iter().map(|v| (v.misere, v.remoteness_misere)), false);
            let (_, suspense_normal) =
                combine(vals.iter().map(|v| (v.normal, v.suspense_normal)), true);
            let (_, suspense_misere) =
                combine(vals.iter().map(|v| (v.misere, v.suspense_misere)), true);
            Ok(Full {
                normal,
                misere,
                remoteness_normal,
                remoteness_misere,
                suspense_normal,
                suspense_misere,
            })
        })?;
        self.full.insert(key_of(&c), f);
        self.tick()?;
        Ok(f)
    }

    /// The outcome of `p` under `play`, by a search that stops at the first winning option and asks
    /// the oracle at every position (normal play uses Grundy values where a position splits).
    pub fn outcome(&mut self, p: &[u64], play: Play) -> Result<Outcome> {
        let c = self.game.canonical(p);
        let slot = (play == Play::Misere) as usize;
        encode_key(&c, &mut self.scratch);
        if let Some(&is_p) = self.outcomes[slot].get(&self.scratch[..]) {
            return Ok(Outcome::from_is_p(is_p));
        }
        if play == Play::Normal {
            if let Some(&g) = self.grundy.get(&self.scratch[..]) {
                return Ok(Outcome::from_is_p(g == 0));
            }
        }
        if let Some(o) = self.oracle.and_then(|o| o.outcome(self.game, &c, play)) {
            self.oracle_answers += 1;
            self.outcomes[slot].insert(key_of(&c), o.is_p());
            return Ok(o);
        }
        if play == Play::Normal && self.game.split(&c).is_some() {
            return Ok(Outcome::from_is_p(self.grundy(&c)? == 0));
        }
        let is_p = stacker::maybe_grow(RED_ZONE, STACK_CHUNK, || -> Result<bool> {
            let game = self.game;
            let mut any = false;
            let mut reaches_p = false;
            each_option(game, &c, |q| {
                any = true;
                if self.outcome(q, play)?.is_p() {
                    reaches_p = true;
                    return Ok(ControlFlow::Break(()));
                }
                Ok(ControlFlow::Continue(()))
            })?;
            Ok(match play {
                Play::Normal => !reaches_p,
                Play::Misere => any && !reaches_p,
            })
        })?;
        self.outcomes[slot].insert(key_of(&c), is_p);
        self.tick()?;
        Ok(Outcome::from_is_p(is_p))
    }

    /// The remoteness of `p` under `play`.
    pub fn remoteness(&mut self, p: &[u64], play: Play) -> Result<u64> {
        Ok(self.full(p)?.remoteness(play))
    }

    /// The suspense number of `p` under `play`.
    pub fn suspense(&mut self, p: &[u64], play: Play) -> Result<u64> {
        Ok(self.full(p)?.suspense(play))
    }

    /// Every option of `p` with its value under `play`; in normal play with `grundy` each option's
    /// Grundy value too (otherwise only its outcome, which the oracle may answer).
    pub fn all_moves(&mut self, p: &[u64], play: Play, grundy: bool) -> Result<Vec<MoveValue>> {
        let opts = self.game.options(p)?;
        self.values_of(opts, play, grundy)
    }

    /// The values of the given options (see [`Solver::all_moves`]).
    pub fn values_of(
        &mut self,
        opts: Vec<Pos>,
        play: Play,
        grundy: bool,
    ) -> Result<Vec<MoveValue>> {
        opts.into_iter()
            .map(|q| {
                let (outcome, g) = match play {
                    Play::Normal if grundy => {
                        let g = self.grundy(&q)?;
                        (Outcome::from_is_p(g == 0), Some(g))
                    }
                    _ => (self.outcome(&q, play)?, None),
                };
                Ok(MoveValue {
                    to: q,
                    outcome,
                    grundy: g,
                })
            })
            .collect()
    }

    /// The winning moves of `p` under `play`: the options that are P-positions.
    pub fn winning_moves(&mut self, p: &[u64], play: Play) -> Result<Vec<Pos>> {
        Ok(self
            .all_moves(p, play, false)?
            .into_iter()
            .filter(|m| m.outcome.is_p())
            .map(|m| m.to)
            .collect())
    }
}

/// Outcome and remoteness (or suspense) of a non-terminal position from those of its options.
///
/// Remoteness: the winner hurries (least value among P-options), the loser delays (greatest value
/// among all options). Suspense (`suspense = true`) is the reverse: the winner delays (greatest value
/// among P-options), the loser hurries (least value among all options).
fn combine(options: impl Iterator<Item = (Outcome, u64)>, suspense: bool) -> (Outcome, u64) {
    let mut win: Option<u64> = None; // best value among P-options
    let mut lose: Option<u64> = None; // best value among all options, for the loser
    for (o, r) in options {
        let pick = |cur: Option<u64>, hurry: bool| {
            Some(cur.map_or(r, |c| if hurry { c.min(r) } else { c.max(r) }))
        };
        if o.is_p() {
            win = pick(win, !suspense);
        }
        lose = pick(lose, suspense);
    }
    match win {
        Some(r) => (Outcome::N, r + 1),
        None => (Outcome::P, lose.unwrap_or(0) + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Subtraction game on one heap: remove 1 or 2.
    struct Sub12;
    impl Game for Sub12 {
        fn id(&self) -> String {
            "sub12".into()
        }
        fn validate(&self, _p: &[u64]) -> Result<()> {
            Ok(())
        }
        fn for_each_option(
            &self,
            p: &[u64],
            f: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
        ) -> Result<()> {
            for t in 1..=2u64 {
                if p[0] >= t && f(&[p[0] - t]).is_break() {
                    break;
                }
            }
            Ok(())
        }
    }

    #[test]
    fn subtraction_game_values_by_hand() {
        let g = Sub12;
        let mut s = Solver::new(&g);
        // Grundy values of S(1,2) are n mod 3.
        for n in 0..30u64 {
            assert_eq!(s.grundy(&[n]).unwrap(), n % 3);
        }
        // Misère: heaps 1 and 4 are P (hand computation: 0 is N, 1 -> 0 only, so P; 2 -> 1 so N; 3 -> 1 so N; 4 -> 3,2 both N so P).
        let misere: Vec<bool> = (0..8)
            .map(|n| s.outcome(&[n], Play::Misere).unwrap().is_p())
            .collect();
        assert_eq!(
            misere,
            vec![false, true, false, false, true, false, false, true]
        );
        // Remoteness in normal play: 0, 1, 1, 2 (P: 1 + max(1,1)), 3, 3, 4.
        let rem: Vec<u64> = (0..7)
            .map(|n| s.remoteness(&[n], Play::Normal).unwrap())
            .collect();
        assert_eq!(rem, vec![0, 1, 1, 2, 3, 3, 4]);
        // Suspense by hand: 0; 1 (-> 0); 2 -> {1, 0}: winner picks P-option 0, so 1; 3 -> {2 (N, 1),
        // 1 (N, 1)}: P, loser hurries: 1 + 1 = 2; 4 -> {3 (P, 2), 2}: 3; 5 -> {4, 3 (P, 2)}: 3;
        // 6 -> {5 (N, 3), 4 (N, 3)}: 4.
        let sus: Vec<u64> = (0..7)
            .map(|n| s.suspense(&[n], Play::Normal).unwrap())
            .collect();
        assert_eq!(sus, vec![0, 1, 1, 2, 3, 3, 4]);
        assert_eq!(s.winning_moves(&[5], Play::Normal).unwrap(), vec![vec![3]]);
    }

    #[test]
    fn deep_searches_do_not_overflow_the_stack() {
        let g = Sub12;
        let mut s = Solver::new(&g);
        assert_eq!(s.grundy(&[300_000]).unwrap(), 0);
    }

    #[test]
    fn budget_refusal_names_the_flag() {
        let g = Sub12;
        let s = Solver::new(&g);
        let err = s
            .check_budget(
                &[1_000_000],
                false,
                Budget {
                    limit: 10.0,
                    flag: Some(Arg::Limit),
                },
            )
            .unwrap_err()
            .to_string();
        assert!(err.contains("--limit"), "{err}");
        assert!(s.check_budget(&[2], false, Budget::default()).is_ok());
    }
}

/// A `--limit` value at least `est`, written with two significant digits (for refusal messages).
pub fn limit_above(est: f64) -> String {
    if !(est.is_finite() && est >= 1.0) {
        return format!("{:.1e}", est.max(1.0));
    }
    let unit = 10f64.powi(est.log10().floor() as i32 - 1);
    let up = (est / unit).ceil() * unit;
    let s = format!("{up:.1e}");
    // Formatting may round below `est` (e.g. 2.05e9 -> "2.0e9"): step up one unit then.
    if s.parse::<f64>().is_ok_and(|v| v >= est) {
        s
    } else {
        format!("{:.1e}", up + unit)
    }
}

#[cfg(test)]
mod limit_tests {
    use super::limit_above;

    #[test]
    fn suggested_limits_lift_the_refusal() {
        for est in [
            1.0,
            9.99,
            2.0e9,
            2.0000001e9,
            1.2e11,
            1.25e11,
            3.3e7,
            9.95e5,
            123456789.0,
        ] {
            let s = limit_above(est);
            assert!(s.parse::<f64>().unwrap() >= est, "{est} -> {s}");
        }
        assert_eq!(limit_above(1.2e11), "1.2e11");
        assert_eq!(limit_above(2.0000001e9), "2.1e9");
    }
}
