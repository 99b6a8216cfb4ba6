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

use crate::error::{Error, Result};
use crate::game::{Game, Pos};
use crate::value::{mex, Outcome, Play};
use rustc_hash::FxHashMap;

/// How much work a single search may do, as an estimated number of option visits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    pub limit: f64,
    /// The command-line option that lifts the limit, named in the refusal.
    pub flag: &'static str,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            limit: 2e9,
            flag: "--limit",
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

/// An exact solver for one ruleset.
pub struct Solver<'g> {
    game: &'g dyn Game,
    ruleset: String,
    grundy: FxHashMap<Key, u64>,
    full: FxHashMap<Key, Full>,
    progress: Option<ProgressFn>,
    solved: u64,
    scratch: Vec<u8>,
}

const RED_ZONE: usize = 128 * 1024;
const STACK_CHUNK: usize = 8 * 1024 * 1024;

impl<'g> Solver<'g> {
    pub fn new(game: &'g dyn Game) -> Self {
        Solver {
            game,
            ruleset: game.id(),
            grundy: FxHashMap::default(),
            full: FxHashMap::default(),
            progress: None,
            solved: 0,
            scratch: Vec::new(),
        }
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

    /// Number of positions whose values are memoized.
    pub fn cached_positions(&self) -> usize {
        self.grundy.len() + self.full.len()
    }

    fn tick(&mut self) {
        self.solved += 1;
        if self.solved % 4096 == 0 {
            if let Some(f) = self.progress.as_mut() {
                f(self.solved);
            }
        }
    }

    /// Estimated number of option visits of a search from `p`: for a position that splits, the sum
    /// over its parts; otherwise (positions below p) × (options per position).
    pub fn work_estimate(&self, p: &[u64], full_search: bool) -> f64 {
        if !full_search {
            if let Some(parts) = self.game.split(p) {
                return parts.iter().map(|q| self.work_estimate(q, false)).sum();
            }
        }
        self.game.state_bound(p) * self.game.branching_bound(p).max(1.0)
    }

    /// Refuses a search whose estimated size is above the budget.
    /// `full_search` is true for misère outcomes and remoteness, which cannot use [`Game::split`].
    pub fn check_budget(&self, p: &[u64], full_search: bool, budget: Budget) -> Result<()> {
        let est = self.work_estimate(p, full_search);
        if est > budget.limit {
            return Err(Error::TooLarge(format!(
                "searching {} from {} may visit about {:.1e} options ({:.1e} positions × up to {:.1e} options each), above the limit of {:.1e}; no closed form applies here, so pass {} {} to search anyway (it may need much time and memory)",
                self.ruleset,
                self.game.format_position(p),
                est,
                self.game.state_bound(p),
                self.game.branching_bound(p),
                budget.limit,
                budget.flag,
                limit_above(est)
            )));
        }
        Ok(())
    }

    /// The Grundy value (normal play) of `p`.
    pub fn grundy(&mut self, p: &[u64]) -> u64 {
        let c = self.game.canonical(p);
        encode_key(&c, &mut self.scratch);
        if let Some(&g) = self.grundy.get(&self.scratch[..]) {
            return g;
        }
        let g = stacker::maybe_grow(RED_ZONE, STACK_CHUNK, || {
            if let Some(parts) = self.game.split(&c) {
                parts.iter().fold(0, |acc, q| acc ^ self.grundy(q))
            } else {
                // Repeated options do not change the mex, so the generator's output is used as is.
                let game = self.game;
                let mut vals: Vec<u64> = Vec::new();
                game.for_each_option(&c, &mut |q| {
                    vals.push(self.grundy(q));
                    std::ops::ControlFlow::Continue(())
                });
                mex(&mut vals)
            }
        });
        self.grundy.insert(key_of(&c), g);
        self.tick();
        g
    }

    /// Everything a full search knows about `p`: both outcomes and both remotenesses.
    pub fn full(&mut self, p: &[u64]) -> Full {
        let c = self.game.canonical(p);
        encode_key(&c, &mut self.scratch);
        if let Some(&f) = self.full.get(&self.scratch[..]) {
            return f;
        }
        let f = stacker::maybe_grow(RED_ZONE, STACK_CHUNK, || {
            let game = self.game;
            let mut vals: Vec<Full> = Vec::new();
            game.for_each_option(&c, &mut |q| {
                vals.push(self.full(q));
                std::ops::ControlFlow::Continue(())
            });
            if vals.is_empty() {
                return Full {
                    normal: Outcome::P,
                    misere: Outcome::N,
                    remoteness_normal: 0,
                    remoteness_misere: 0,
                    suspense_normal: 0,
                    suspense_misere: 0,
                };
            }
            let (normal, remoteness_normal) =
                combine(vals.iter().map(|v| (v.normal, v.remoteness_normal)), false);
            let (misere, remoteness_misere) =
                combine(vals.iter().map(|v| (v.misere, v.remoteness_misere)), false);
            let (_, suspense_normal) =
                combine(vals.iter().map(|v| (v.normal, v.suspense_normal)), true);
            let (_, suspense_misere) =
                combine(vals.iter().map(|v| (v.misere, v.suspense_misere)), true);
            Full {
                normal,
                misere,
                remoteness_normal,
                remoteness_misere,
                suspense_normal,
                suspense_misere,
            }
        });
        self.full.insert(key_of(&c), f);
        self.tick();
        f
    }

    /// The outcome of `p` under `play` (normal play from the Grundy value, misère by full search).
    pub fn outcome(&mut self, p: &[u64], play: Play) -> Outcome {
        match play {
            Play::Normal => Outcome::from_is_p(self.grundy(p) == 0),
            Play::Misere => self.full(p).misere,
        }
    }

    /// The remoteness of `p` under `play`.
    pub fn remoteness(&mut self, p: &[u64], play: Play) -> u64 {
        self.full(p).remoteness(play)
    }

    /// The suspense number of `p` under `play`.
    pub fn suspense(&mut self, p: &[u64], play: Play) -> u64 {
        self.full(p).suspense(play)
    }

    /// Every option of `p` with its value under `play`.
    pub fn all_moves(&mut self, p: &[u64], play: Play) -> Vec<MoveValue> {
        let opts = self.game.options(p);
        opts.into_iter()
            .map(|q| {
                let (outcome, grundy) = match play {
                    Play::Normal => {
                        let g = self.grundy(&q);
                        (Outcome::from_is_p(g == 0), Some(g))
                    }
                    Play::Misere => (self.full(&q).misere, None),
                };
                MoveValue {
                    to: q,
                    outcome,
                    grundy,
                }
            })
            .collect()
    }

    /// The winning moves of `p` under `play`: the options that are P-positions.
    pub fn winning_moves(&mut self, p: &[u64], play: Play) -> Vec<Pos> {
        self.all_moves(p, play)
            .into_iter()
            .filter(|m| m.outcome.is_p())
            .map(|m| m.to)
            .collect()
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
    use std::ops::ControlFlow;

    /// Subtraction game on one heap: remove 1 or 2.
    struct Sub12;
    impl Game for Sub12 {
        fn id(&self) -> String {
            "sub12".into()
        }
        fn family(&self) -> &'static str {
            "sub12"
        }
        fn validate(&self, _p: &[u64]) -> Result<()> {
            Ok(())
        }
        fn for_each_option(&self, p: &[u64], f: &mut dyn FnMut(&[u64]) -> ControlFlow<()>) {
            for t in 1..=2u64 {
                if p[0] >= t && f(&[p[0] - t]).is_break() {
                    return;
                }
            }
        }
    }

    #[test]
    fn subtraction_game_values_by_hand() {
        let g = Sub12;
        let mut s = Solver::new(&g);
        // Grundy values of S(1,2) are n mod 3.
        for n in 0..30u64 {
            assert_eq!(s.grundy(&[n]), n % 3);
        }
        // Misère: heaps 1 and 4 are P (hand computation: 0 is N, 1 -> 0 only, so P; 2 -> 1 so N; 3 -> 1 so N; 4 -> 3,2 both N so P).
        let misere: Vec<bool> = (0..8)
            .map(|n| s.outcome(&[n], Play::Misere).is_p())
            .collect();
        assert_eq!(
            misere,
            vec![false, true, false, false, true, false, false, true]
        );
        // Remoteness in normal play: 0, 1, 1, 2 (P: 1 + max(1,1)), 3, 3, 4.
        let rem: Vec<u64> = (0..7).map(|n| s.remoteness(&[n], Play::Normal)).collect();
        assert_eq!(rem, vec![0, 1, 1, 2, 3, 3, 4]);
        // Suspense by hand: 0; 1 (-> 0); 2 -> {1, 0}: winner picks P-option 0, so 1; 3 -> {2 (N, 1),
        // 1 (N, 1)}: P, loser hurries: 1 + 1 = 2; 4 -> {3 (P, 2), 2}: 3; 5 -> {4, 3 (P, 2)}: 3;
        // 6 -> {5 (N, 3), 4 (N, 3)}: 4.
        let sus: Vec<u64> = (0..7).map(|n| s.suspense(&[n], Play::Normal)).collect();
        assert_eq!(sus, vec![0, 1, 1, 2, 3, 3, 4]);
        assert_eq!(s.winning_moves(&[5], Play::Normal), vec![vec![3]]);
    }

    #[test]
    fn deep_searches_do_not_overflow_the_stack() {
        let g = Sub12;
        let mut s = Solver::new(&g);
        assert_eq!(s.grundy(&[300_000]), 0);
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
                    flag: "--limit",
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
