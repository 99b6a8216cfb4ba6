//! `nimlab discover` for the redistribution chip games EABO(k), ER(k), SER(k) and EJR(k,j), normal
//! and misère play.
//!
//! In these games the P-set is a function of one set of integers: T, the totals n ≥ k of the
//! P-positions (misère play: of the misère P-positions). A position is P exactly when no set of
//! boxes a move may keep has its total in T (misère play: and it is not terminal); the proof is in
//! [`nimlab_prove::chips::totals`]. So the pipeline works on T:
//!
//! 1. compute T on the totals `k..=S` exactly, total by total: n ∈ T when some partition of n into
//!    k positive parts satisfies the criterion above (its kept totals are all below n, so already
//!    known). This searches every position of total at most S at worst, as the game's table would,
//!    but stops at the first P-position of each total;
//! 2. read off the simplest ultimately periodic description of T on `k..=S`: exceptions below a
//!    threshold a, residues modulo a period q from a on, the periodic part observed for at least two
//!    full periods and at least 2k totals (`S + 1 - a >= max(2q, 2k)`); among those, the least
//!    `a + q`, then the least q;
//! 3. check it on a larger box of totals (T computed there exactly); on a mismatch, learn again from
//!    the larger box;
//! 4. prove "no allowed kept set has its total in T" for every box size with the chip prover
//!    ([`nimlab_prove::chips::prove_chips`], which re-checks every counterexample and every
//!    "proved" by exact search); a counterexample grows the box to its total and T is learned again.
//!
//! The verdicts are those of [`crate::discover`]: proved, conjecture (T's description equals T on the
//! box, the proof was refuted beyond the largest box allowed or gave no answer), none.

use crate::{Discovery, Options, Stopper, TableUse, Verdict};
use nimlab_core::{Error, Play, Result};
use nimlab_games::Redistribute;
use nimlab_prove::chips::totals::{self, Totals};
use nimlab_prove::chips::{prove_chips, ChipGame, Moves};
use nimlab_prove::{Solver, Status};
use serde_json::json;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

/// The most positions (of total at most S) a box may hold: the limit of the chip games' tables.
pub const MAX_POSITIONS: f64 = 2.0e7;
/// The default largest box: the largest S whose positions are at most this many (the limit).
pub const DEFAULT_POSITIONS: f64 = MAX_POSITIONS;
/// The first box: about this many positions (at least k + 12 chips).
const FIRST_POSITIONS: f64 = 2.0e4;

/// The number of positions of k boxes (each ≥ 1) with total at most `s` (a float estimate, exact
/// while it is below 2^53).
pub fn positions_up_to(k: usize, s: u64) -> f64 {
    if s < k as u64 {
        return 0.0;
    }
    // Far past every limit (k >= 2 boxes give about s^2 / 4 positions).
    if s > 1_000_000 {
        return f64::INFINITY;
    }
    // Partitions of m = n - k into at most k parts, summed over m <= s - k.
    let m = (s - k as u64) as usize;
    let mut ways = vec![0f64; m + 1];
    ways[0] = 1.0;
    for part in 1..=k {
        for v in part..=m {
            ways[v] += ways[v - part];
        }
    }
    ways.iter().sum()
}

/// The largest total whose box holds at most `limit` positions (at least k + 2).
fn largest_sum(k: usize, limit: f64) -> u64 {
    let mut s = k as u64 + 2;
    while s < 100_000 && positions_up_to(k, s + 1) <= limit {
        s += 1;
    }
    s
}

/// T on the totals `0..in_t.len()`, computed exactly and extended on demand.
pub struct TotalsTable {
    k: usize,
    play: Play,
    /// The masks of the sets of boxes a move may keep.
    masks: Vec<u32>,
    /// `in_t[n]`: n ∈ T.
    pub in_t: Vec<bool>,
}

impl TotalsTable {
    pub fn new(g: &Redistribute, play: Play) -> TotalsTable {
        let k = g.k;
        let (lo, hi) = g.discard_range();
        let masks = (1u32..(1u32 << k))
            .filter(|m| {
                let kept = m.count_ones() as usize;
                kept >= k - hi && kept <= k - lo
            })
            .collect();
        TotalsTable {
            k,
            play,
            masks,
            in_t: Vec::new(),
        }
    }

    /// Whether position `y` (k boxes) is P, given T below its total.
    fn is_p(&self, y: &[u64]) -> bool {
        let k = self.k as u64;
        let mut moves = false;
        for &m in &self.masks {
            let mut s = 0u64;
            let mut bits = m;
            while bits != 0 {
                s += y[bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
            if s >= k {
                moves = true;
                if self.in_t[s as usize] {
                    return false;
                }
            }
        }
        moves || self.play == Play::Normal
    }

    /// Computes T up to `s`; `false` when `stop` fired first.
    pub fn extend(&mut self, s: u64, stop: &dyn Fn() -> bool) -> bool {
        while (self.in_t.len() as u64) <= s {
            if stop() {
                return false;
            }
            let n = self.in_t.len() as u64;
            let mut found = false;
            if n >= self.k as u64 {
                let _ = nimlab_games::chip::partitions(n, self.k, 1, &mut |y| {
                    if self.is_p(y) {
                        found = true;
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                });
            }
            self.in_t.push(found);
        }
        true
    }

    /// The first total in `k..=s` where `t` and T differ.
    pub fn mismatch(&self, t: &Totals, s: u64) -> Option<u64> {
        (self.k as u64..=s).find(|&n| t.contains(self.k, u128::from(n)) != self.in_t[n as usize])
    }

    /// The simplest ultimately periodic description of T on `k..=s` (see the module's doc), or
    /// `None` when no period has two full periods (and 2k totals) observed.
    pub fn learn(&self, s: u64) -> Option<Totals> {
        let k = self.k as u64;
        let at = |n: u64| self.in_t[n as usize];
        let mut best: Option<(u64, u64)> = None;
        let span = s + 1 - k;
        for q in 1..=span / 2 {
            // The least a from which T is q-periodic up to s.
            let mut a = k;
            let mut n = s - q;
            loop {
                if at(n) != at(n + q) {
                    a = n + 1;
                    break;
                }
                if n == k {
                    break;
                }
                n -= 1;
            }
            // Two full periods, and at least 2k totals, observed past the threshold.
            if s + 1 - a < (2 * q).max(2 * k) {
                continue;
            }
            if best.is_none_or(|(ba, bq)| a + q < ba + bq) {
                best = Some((a, q));
            }
        }
        let (a, q) = best?;
        let mut residues: Vec<u64> = (a..a + q).filter(|&n| at(n)).map(|n| n % q).collect();
        residues.sort_unstable();
        Some(Totals {
            threshold: a,
            period: q,
            residues,
            exceptions: (k..a).filter(|&n| at(n)).collect(),
        })
    }
}

/// What a move keeps, in words: "box", "set of 3 boxes", "set of 1 to 3 boxes".
fn kept_words(moves: &Moves) -> String {
    let Moves::Redistribute(sizes) = moves else {
        return "boxes".into();
    };
    let (lo, hi) = (
        sizes.iter().min().copied().unwrap_or(1),
        sizes.iter().max().copied().unwrap_or(1),
    );
    match (lo, hi) {
        (1, 1) => "box".into(),
        (a, b) if a == b => format!("set of {a} boxes"),
        (a, b) => format!("set of {a} to {b} boxes"),
    }
}

/// The criterion in words, for T described by `t`.
pub fn criterion(game: &ChipGame, play: Play, t: &Totals) -> String {
    format!(
        "a position is P exactly when no {} it may keep has its total in T{}, where {}",
        kept_words(&game.moves),
        if play == Play::Misere {
            " and it is not terminal"
        } else {
            ""
        },
        t.words()
    )
}

/// The refusal of `discover` for the chip games it does not cover (ET, ENTROPY).
pub fn not_covered(game: &ChipGame) -> Error {
    let id = game.id();
    let bound = if game.moves == Moves::Entropy {
        "--max H"
    } else {
        "--max-sum S"
    };
    Error::Unsupported(format!(
        "discover covers the redistribution chip games (EABO, ER, SER, EJR) and, by automata, ET(3) and ENTROPY(3), not {id}: its P-set is not read through a set of totals; `nimlab patterns '{id}' {bound}` groups its P-positions by shape, `nimlab verify '{id}' {bound} --theorem ID` checks a registry result on a box, and `nimlab prove '{id}' --theorem ID` proves one"
    ))
}

/// Discovers and proves the P-set of a redistribution chip game (`opts.max` must be `None`: the box
/// is bounded by `opts.max_sum`, the most chips in all).
pub fn discover_chips(game_text: &str, opts: &Options) -> Result<Discovery> {
    let start = Instant::now();
    let game = ChipGame::parse(game_text)?.ok_or_else(|| {
        Error::Unsupported(format!("{game_text} is not one of Ferguson's chip games"))
    })?;
    if let Some(moves) = crate::chip_automaton::covered(&game) {
        return crate::chip_automaton::discover_transfer(&game, moves, opts);
    }
    let Some(g) = game.game.downcast_ref::<Redistribute>().copied() else {
        return Err(not_covered(&game));
    };
    let id = game.id();
    if opts.max.is_some() {
        return Err(Error::Unsupported(format!(
            "{id} is bounded by its total number of chips: use --max-sum S, not --max"
        )));
    }
    let k = g.k;
    let kk = k as u64;
    let max_s = match opts.max_sum {
        Some(s) => {
            if s < kk + 4 {
                return Err(Error::Unsupported(format!(
                    "--max-sum {s}: discover on {id} needs at least k + 4 = {} chips",
                    kk + 4
                )));
            }
            let count = positions_up_to(k, s);
            if count > MAX_POSITIONS {
                return Err(Error::TooLarge(format!(
                    "{id} with --max-sum {s} has about {count:.1e} positions, more than the {MAX_POSITIONS:.0e} the chip games' tables take; use a smaller --max-sum"
                )));
            }
            s
        }
        None => largest_sum(k, DEFAULT_POSITIONS),
    };
    let play = opts.play;
    let stopper = Stopper::new(opts.cancel.clone(), start + opts.timeout);
    let say = |s: &str| {
        if let Some(p) = &opts.progress {
            p(s)
        }
    };
    let mut d = Discovery::empty(id.clone(), play, kk);
    let mut table = TotalsTable::new(&g, play);
    let stop = || stopper.stop();
    let halted = |d: Discovery, what: &str| -> Result<Discovery> {
        if stopper.cancelled() {
            return Err(Error::Interrupted);
        }
        Ok(crate::out_of_time(d, start, what))
    };
    let mut s = largest_sum(k, FIRST_POSITIONS).max(kk + 12).min(max_s);
    loop {
        say(&format!(
            "computing the P-totals T of {id} on the totals {kk}..{s}"
        ));
        if !table.extend(s, &stop) {
            return halted(d, &format!("T was being computed up to {s}"));
        }
        d.tables.push(TableUse {
            max: s,
            p_positions: table.in_t.iter().filter(|&&b| b).count(),
            source: "totals",
        });
        let Some(t) = table.learn(s) else {
            if s >= max_s {
                d.reason = Some(format!(
                    "no ultimately periodic description of T with two full periods (and 2k totals) observed on the totals {kk}..{s} (raise --max-sum)"
                ));
                d.seconds = start.elapsed().as_secs_f64();
                return Ok(d);
            }
            s = (s + s / 2).min(max_s);
            say("no period observed twice: a larger box");
            continue;
        };
        say(&format!("read from {kk}..{s}: {}", t.words()));
        // The check on a larger box.
        let c = (s + (2 * t.period).max(s / 2)).min(max_s);
        if c > s {
            if !table.extend(c, &stop) {
                d.verdict = Verdict::Conjecture;
                d.box_max = Some(s);
                d.totals = Some(t.clone());
                d.toml = Some(file(&id, play, &t, s, s));
                d.reason = Some(format!(
                    "the time limit was reached before the check on the totals up to {c}"
                ));
                d.seconds = start.elapsed().as_secs_f64();
                if stopper.cancelled() {
                    return Err(Error::Interrupted);
                }
                return Ok(d);
            }
            if let Some(n) = table.mismatch(&t, c) {
                say(&format!(
                    "the description fails at the total {n} (checked up to {c}); learning again from {kk}..{c}"
                ));
                s = c;
                continue;
            }
        }
        d.totals = Some(t.clone());
        d.box_max = Some(c);
        d.toml = Some(file(&id, play, &t, s, c));
        if stopper.stop() {
            if stopper.cancelled() {
                return Err(Error::Interrupted);
            }
            d.verdict = Verdict::Conjecture;
            d.reason = Some("the time limit was reached before the proof".into());
            d.seconds = start.elapsed().as_secs_f64();
            return Ok(d);
        }
        say(&format!(
            "T's description equals T on the totals {kk}..{c}; proving the P-set it gives for every box size"
        ));
        let claim = match totals::claim(&id, play, &t, "discovered".into()) {
            Ok(c) => c,
            Err(e) => {
                d.verdict = Verdict::Conjecture;
                d.reason = Some(format!("not proved: {e}"));
                d.seconds = start.elapsed().as_secs_f64();
                return Ok(d);
            }
        };
        let left = stopper.deadline.saturating_duration_since(Instant::now());
        let solver = Solver {
            path: opts.solver.clone(),
            timeout: left.max(Duration::from_secs(1)),
            deadline: Some(stopper.deadline),
        };
        // The proof stops at the time limit as at Ctrl-C (the watchdog's flag).
        let report = match nimlab_core::interrupt::scope(stopper.halt.clone(), || {
            prove_chips(&claim, &[solver])
        }) {
            Err(Error::Interrupted) if !stopper.cancelled() => {
                d.verdict = Verdict::Conjecture;
                d.reason = Some("the time limit was reached during the proof".into());
                d.seconds = start.elapsed().as_secs_f64();
                return Ok(d);
            }
            r => r?,
        };
        d.prover = Some(report.method);
        d.proof = Some(report.to_json());
        match report.verdict {
            Status::Proved => {
                d.verdict = Verdict::Proved;
                d.reason = None;
                d.counterexample = None;
                d.seconds = start.elapsed().as_secs_f64();
                return Ok(d);
            }
            Status::Unknown => {
                if stopper.cancelled() {
                    return Err(Error::Interrupted);
                }
                // No proof: the description is checked on the largest box allowed before it is
                // reported as a conjecture (a mismatch there means learning again from it).
                match widen(&mut table, &t, c, max_s, &stop) {
                    Widened::Fails(n) => {
                        say(&format!("the description fails at the total {n} (checked up to {max_s}); learning again from {kk}..{max_s}"));
                        s = max_s;
                        continue;
                    }
                    Widened::Holds => {
                        d.box_max = Some(max_s);
                        d.toml = Some(file(&id, play, &t, s, max_s));
                    }
                    Widened::No => {}
                }
                d.verdict = Verdict::Conjecture;
                d.reason = Some(crate::no_answer(&report));
                d.seconds = start.elapsed().as_secs_f64();
                return Ok(d);
            }
            Status::Refuted => {
                let cond = report
                    .conditions
                    .iter()
                    .find(|c| c.status == Status::Refuted)
                    .ok_or_else(|| Error::Unsupported("a refutation names no condition".into()))?;
                let Some(cx) = cond.counterexample.clone() else {
                    return Err(Error::Unsupported(
                        "a refutation without its counterexample".into(),
                    ));
                };
                let total = |p: &[u64]| p.iter().map(|&v| u128::from(v)).sum::<u128>();
                let top = total(&cx.position).max(cx.move_to.as_deref().map_or(0, total));
                let shown = nimlab_core::position::format_tuple(&cx.position);
                d.counterexample = Some(json!({
                    "condition": cond.condition.name(),
                    "position": cx.position,
                    "move_to": cx.move_to,
                }));
                if top > u128::from(max_s) {
                    match widen(&mut table, &t, c, max_s, &stop) {
                        Widened::Fails(n) => {
                            say(&format!("condition ({}) refuted at {shown}, beyond the largest box; the description fails at the total {n} (checked up to {max_s}); learning again from {kk}..{max_s}", cond.condition.name()));
                            s = max_s;
                            continue;
                        }
                        Widened::Holds => {
                            d.box_max = Some(max_s);
                            d.toml = Some(file(&id, play, &t, s, max_s));
                        }
                        Widened::No => {}
                    }
                }
                if top > u128::from(max_s) || top <= u128::from(c) {
                    d.verdict = Verdict::Conjecture;
                    d.reason = Some(if top > u128::from(max_s) {
                        format!(
                            "condition ({}) is refuted at {shown} (total {top}), beyond the largest box allowed, total {max_s} (raise --max-sum)",
                            cond.condition.name()
                        )
                    } else {
                        format!(
                            "condition ({}) is refuted at {shown} (total {top}), inside the checked box (not expected: please report)",
                            cond.condition.name()
                        )
                    });
                    d.seconds = start.elapsed().as_secs_f64();
                    return Ok(d);
                }
                say(&format!(
                    "condition ({}) refuted at {shown}: growing the box to the total {top}",
                    cond.condition.name()
                ));
                s = top as u64;
            }
        }
    }
}

/// What checking a description on the largest box gave.
enum Widened {
    /// Not checked: the box was already the largest, or the time ran out.
    No,
    /// It equals T on the largest box.
    Holds,
    /// It fails at this total.
    Fails(u64),
}

/// Checks `t` on the totals up to `max_s` when the checked box `c` is smaller.
fn widen(
    table: &mut TotalsTable,
    t: &Totals,
    c: u64,
    max_s: u64,
    stop: &dyn Fn() -> bool,
) -> Widened {
    if c >= max_s || !table.extend(max_s, stop) {
        return Widened::No;
    }
    match table.mismatch(t, max_s) {
        Some(n) => Widened::Fails(n),
        None => Widened::Holds,
    }
}

/// The chip families file of a discovery: T read from the totals up to `read`, checked up to
/// `checked`.
fn file(id: &str, play: Play, t: &Totals, read: u64, checked: u64) -> String {
    totals::render(
        id,
        play,
        t,
        &[format!(
            "Found by nimlab discover on the totals up to {read} (the periodic part observed for at least two full periods and 2k totals) and checked equal to T on the totals up to {checked}."
        )],
    )
}
