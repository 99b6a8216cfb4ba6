//! The exact re-check and the guard: the two exact checks every method (SMT, automata) and every
//! claimed set (families, automaton sets, chip sets, chip totals) passes, written once.
//!
//! - **The re-check** (`recheck`): a counterexample (an SMT model, an automaton's shortest word)
//!   is re-checked with nimlab's own exact machinery before it is reported: membership by the set's
//!   exact membership, legality of a move by the game's options (or its rules), for (II) the options
//!   of the position, and for (C) exact search. A model that does not re-check is an error of the
//!   encoding (reported as such, never as refuted); one too large to re-check leaves the condition
//!   unknown.
//! - **The guard** (`guard`): before any report says "proved", exact search on every position of
//!   the largest region of the game's positions of at most [`GUARD_POSITIONS`] positions (and
//!   [`GUARD_WORK`] option visits) must agree with the claim: the set is the P-set there (a subset:
//!   inside it; a set of N-positions: none of its members is P). A disagreement is an error of the
//!   prover: the verdict becomes "refuted", with a condition "search" that names the position and
//!   says that the prover had said proved. Otherwise the region is recorded as the report's
//!   [`BoxCheck`].

use crate::claimed::{Claimed, Says, Space};
use crate::report::{proved, BoxCheck, ConditionReport, Counterexample, Report, Status};
use nimlab_core::partition::Condition;
use nimlab_core::{Error, Game, Outcome, Play, Pos, Result};
use std::ops::ControlFlow;
use std::time::Instant;

/// A re-checked counterexample, or why it is not reported (the condition is then unknown).
pub(crate) type Checked = std::result::Result<Counterexample, String>;

/// Largest number of options enumerated to re-check one counterexample.
const OPTION_CAP: f64 = 5e7;

/// Largest estimated search (option visits) that decides a member by exact search when (C) fails.
const RECHECK_SEARCH_LIMIT: f64 = 2e8;

/// How a query states its condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stated {
    /// Exactly: a model that does not re-check is an error of the encoding.
    Exactly,
    /// (II) of a redistribution game through the norm formula (query IIb): a model with an option in
    /// the set is a total that the formula misses, so (II) is not decided (not an error).
    ThroughNorms,
}

fn to_pos(v: &[i128]) -> Option<Pos> {
    v.iter().map(|&a| u64::try_from(a).ok()).collect()
}

/// The first option of `p` that `keep` accepts.
pub(crate) fn first_option(
    game: &dyn Game,
    p: &[u64],
    keep: &dyn Fn(&[u64]) -> bool,
) -> Result<Option<Pos>> {
    let mut found = None;
    game.for_each_option(p, &mut |o| {
        if keep(o) {
            found = Some(o.to_vec());
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })?;
    Ok(found)
}

/// A move of `p` to a P-position in `play`, by exact search (none when `p` is a P-position).
fn winning_move(
    search: &mut nimlab_core::solver::Solver,
    game: &dyn Game,
    p: &[u64],
    play: Play,
) -> Result<Option<Pos>> {
    let mut win = None;
    let mut err = None;
    game.for_each_option(p, &mut |o| match search.outcome(o, play) {
        Ok(Outcome::P) => {
            win = Some(o.to_vec());
            ControlFlow::Break(())
        }
        Ok(_) => ControlFlow::Continue(()),
        Err(e) => {
            err = Some(e);
            ControlFlow::Break(())
        }
    })?;
    match err {
        Some(e) => Err(e),
        None => Ok(win),
    }
}

/// Whether `q` is an option of `p`, by enumerating the options of `p`.
fn is_option(game: &dyn Game, p: &[u64], q: &[u64]) -> Result<bool> {
    Ok(first_option(game, p, &|o| o == q)?.is_some())
}

/// Re-checks the model `values` of a satisfiable query of `condition` (the position's `m` entries,
/// then for (I) and (C) the move's target) against the claim `says` about `c`. `Ok(Ok(cx))`: a
/// confirmed counterexample; `Ok(Err(why))`: not confirmed, so the condition is unknown (too large to
/// re-check, or a gap of a sufficient condition); `Err`: the model is not a counterexample, so the
/// encoding is wrong.
pub(crate) fn recheck(
    c: &dyn Claimed,
    says: Says,
    condition: Condition,
    stated: Stated,
    m: usize,
    values: &[i128],
) -> Result<Checked> {
    let game = c.game();
    let shown = nimlab_core::position::format_tuple;
    let bug = |what: String| {
        Error::Unsupported(format!(
            "internal error: the counterexample to condition ({}) does not re-check: {what} (a bug in the prover's encoding; nothing is reported as refuted)",
            condition.name()
        ))
    };
    // Entries are never negative (the queries say so); entries of 2^64 or more are past the exact
    // search that re-checks a counterexample here.
    if values.iter().any(|&v| v < 0) {
        return Err(bug(format!("negative entry in {values:?}")));
    }
    if values.iter().any(|&v| v > i128::from(u64::MAX)) {
        let all: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        return Ok(Err(format!(
            "the counterexample ({}) has an entry of 2^64 or more, past the 64-bit entries that nimlab re-checks counterexamples on, so it is not reported",
            all.join(",")
        )));
    }
    if values.len() < m {
        return Err(bug(format!("{values:?} has fewer than {m} entries")));
    }
    let xv = to_pos(&values[..m]).ok_or_else(|| bug(format!("negative entry in {values:?}")))?;
    let yv = to_pos(&values[m..]).ok_or_else(|| bug(format!("negative entry in {values:?}")))?;
    let x = c.position(xv.clone(), false);
    game.validate(&x)
        .map_err(|e| bug(format!("{x:?} is not a position: {e}")))?;
    let too_many = |p: &[u64]| game.branching_bound(p) > OPTION_CAP;
    // (I) is re-checked by the move itself where the rules tell; the other conditions list options.
    if condition != Condition::I && too_many(&x) {
        return Ok(Err(format!(
            "the counterexample {} has too many options to re-check",
            shown(&x)
        )));
    }
    let cx = |position: Pos, move_to: Option<Pos>| Ok(Ok(Counterexample { position, move_to }));
    match condition {
        Condition::I => {
            // The move itself, from the rules where they tell (no listing of options, so entries
            // of any size); where x has few options, listing them also decides it.
            let by_rules = c.is_move(&xv, &yv);
            let y = c.position(yv, true);
            let legal = match by_rules {
                Some(true) => true,
                Some(false) => !too_many(&x) && is_option(game, &x, &y)?,
                None if too_many(&x) => {
                    return Ok(Err(format!(
                        "the counterexample {} has too many options to re-check",
                        shown(&x)
                    )))
                }
                None => is_option(game, &x, &y)?,
            };
            if !legal {
                return Err(bug(format!(
                    "{} is not an option of {}",
                    shown(&y),
                    shown(&x)
                )));
            }
            for p in [&x, &y] {
                if !c.contains(p) {
                    return Err(bug(format!("{} is not in the set", shown(p))));
                }
            }
            cx(x, Some(y))
        }
        Condition::II => {
            // A position outside the set with no move into it; for a set of N-positions, a member
            // with no move into the target set.
            let members = says == Says::NPositions;
            if c.contains(&x) != members {
                return Err(bug(format!(
                    "{} is {} the set",
                    shown(&x),
                    if members { "not in" } else { "in" }
                )));
            }
            if game.is_terminal(&x)? {
                return Err(bug(format!("{} is terminal", shown(&x))));
            }
            let into = |o: &[u64]| {
                if members {
                    c.target_contains(o)
                } else {
                    c.contains(o)
                }
            };
            if let Some(o) = first_option(game, &x, &into)? {
                if stated == Stated::ThroughNorms {
                    return Ok(Err(format!(
                        "{} moves into the set (to {}) with a total that the norm formula of (II) misses: (II) is not decided",
                        shown(&x),
                        shown(&o)
                    )));
                }
                return Err(bug(format!(
                    "{} moves to {} in the {}",
                    shown(&x),
                    shown(&o),
                    if members { "target set" } else { "set" }
                )));
            }
            cx(x, None)
        }
        Condition::III => {
            // Normal play: a terminal position outside the set; misère play: one inside it.
            let wrong_side = match c.play() {
                Play::Normal => !c.contains(&x),
                Play::Misere => c.contains(&x),
            };
            if !game.is_terminal(&x)? || !wrong_side {
                return Err(bug(format!(
                    "{} is not a terminal position {} the set",
                    shown(&x),
                    if c.play() == Play::Normal {
                        "outside"
                    } else {
                        "inside"
                    }
                )));
            }
            cx(x, None)
        }
        Condition::Closure => closure(c, x, c.position(yv, true), &bug),
        Condition::Search => Err(bug("no query states the search check".into())),
    }
}

/// Re-checks a counterexample to (C): `x` a member, `y` an option of `x` with no move back into
/// the set. Exact search then decides: the member that is an N-position (x, or its option y when y
/// is a member) refutes the claim with its winning move; a P-position x whose option y is outside
/// the set is a gap of the sufficient condition (unknown).
fn closure(c: &dyn Claimed, x: Pos, y: Pos, bug: &dyn Fn(String) -> Error) -> Result<Checked> {
    let game = c.game();
    let shown = nimlab_core::position::format_tuple;
    if !c.contains(&x) {
        return Err(bug(format!("{} is not in the set", shown(&x))));
    }
    if !is_option(game, &x, &y)? {
        return Err(bug(format!(
            "{} is not an option of {}",
            shown(&y),
            shown(&x)
        )));
    }
    // A move between two members breaks (C) whatever y's options: one of x and y is not a
    // P-position. Otherwise y must have no move back into the set.
    let y_member = c.contains(&y);
    if !y_member {
        if c.play() == Play::Misere && game.is_terminal(&y)? {
            return Err(bug(format!(
                "{} is terminal (an N-position in misère play)",
                shown(&y)
            )));
        }
        if game.branching_bound(&y) > OPTION_CAP {
            return Ok(Err(format!(
                "the counterexample {} -> {} has too many options to re-check",
                shown(&x),
                shown(&y)
            )));
        }
        if let Some(o) = first_option(game, &y, &|o| c.contains(o))? {
            return Err(bug(format!(
                "{} moves back into the set, to {}",
                shown(&y),
                shown(&o)
            )));
        }
    }
    // (C) fails at x -> y. Whether x is a P-position decides between a refutation and a gap of the
    // sufficient condition: exact search.
    let mut search = nimlab_core::solver::Solver::new(game);
    let budget = nimlab_core::solver::Budget {
        limit: RECHECK_SEARCH_LIMIT,
        flag: Some(nimlab_core::Arg::Limit),
    };
    let full = c.play() == Play::Misere;
    let too_large = |search: &nimlab_core::solver::Solver, p: &Pos| {
        search.check_budget(p, full, budget).is_err()
    };
    if too_large(&search, &x) || (y_member && too_large(&search, &y)) {
        return Ok(Err(if y_member {
            format!(
                "(C) fails at {} -> {}: both are in the set, so one of them is an N-position, but they are too large to tell which by exact search",
                shown(&x),
                shown(&y)
            )
        } else {
            format!(
                "(C) fails at {} -> {} (no move back into the set, re-checked), and {} is too large to decide by exact search",
                shown(&x),
                shown(&y),
                shown(&x)
            )
        }));
    }
    // The member that is an N-position: x, or else (x being P) its option y when y is a member; its
    // winning move (to a P-position) refutes the claim.
    let loser = if search.outcome(&x, c.play())? == Outcome::N {
        x
    } else if y_member {
        y
    } else {
        return Ok(Err(format!(
            "(C) fails at {} -> {}: {} has no move back into the set, but it is an N-position and {} a P-position (exact search): its winning moves leave the set; the set may still lie inside the P-set",
            shown(&x),
            shown(&y),
            shown(&y),
            shown(&x)
        )));
    };
    let win = winning_move(&mut search, game, &loser, c.play())?.ok_or_else(|| {
        bug(format!(
            "exact search calls {} an N-position but finds no move to a P-position",
            shown(&loser)
        ))
    })?;
    Ok(Ok(Counterexample {
        position: loser,
        move_to: Some(win),
    }))
}

/// An automaton's counterexample word (the position's `m` entries, then for (I) and (C) the move's
/// target), re-checked ([`recheck`]): the condition refuted, or unknown when the word is too large
/// to re-check.
pub(crate) fn refute(
    c: &dyn Claimed,
    says: Says,
    condition: Condition,
    m: usize,
    word: &[u128],
    seconds: f64,
) -> Result<ConditionReport> {
    let mut r = proved(condition, seconds);
    let values: Option<Vec<i128>> = word.iter().map(|&v| i128::try_from(v).ok()).collect();
    let checked = match values {
        Some(v) => recheck(c, says, condition, Stated::Exactly, m, &v)?,
        None => Err(format!(
            "the counterexample {word:?} is too large to re-check"
        )),
    };
    match checked {
        Ok(cx) => {
            r.status = Status::Refuted;
            r.counterexample = Some(cx);
        }
        Err(why) => {
            r.status = Status::Unknown;
            r.reason = Some(why);
        }
    }
    Ok(r)
}

/// Most positions the guard searches, for every claimed set.
pub const GUARD_POSITIONS: u64 = 20_000;

/// Most options the guard's search visits (estimated: its positions × the options of the position
/// with the most).
pub const GUARD_WORK: f64 = 5e7;

/// The region of the guard: its description (as a [`BoxCheck`], `positions` counted in the search)
/// and its positions, listed lazily.
struct Region {
    check: BoxCheck,
    /// The tuples of these lengths within `check`'s bounds; for the chip games, `listed` instead.
    lengths: Vec<usize>,
    listed: Option<Vec<Pos>>,
}

/// The positions of the chip games (sorted) of total at most `s` (boxes >= 1), or for Entropy of
/// minimum 0 and spread at most `s`.
fn chip_positions(space: &Space, s: u64) -> Vec<Pos> {
    match *space {
        Space::ChipTotals { k } => nimlab_games::chip::positions_with_sum_at_most(k, 1, s),
        Space::ChipSpread { k } => {
            nimlab_games::chip::entropy::EntropyReduction { k }.positions_with_spread_at_most(s)
        }
        Space::Tuples { .. } => Vec::new(),
    }
}

/// The largest region of `c`'s positions within [`GUARD_POSITIONS`] and [`GUARD_WORK`] (entries
/// below 2^w for a proof below 2^w): for tuples the largest box with at least three values per
/// entry, and for many stacks (or many options), where even that is too large, the positions whose
/// entries sum to at most the largest s that fits; for the chip games the positions of total (for
/// Entropy: spread) at most the largest s that fits.
fn region(c: &dyn Claimed, bits: Option<u32>) -> Region {
    let game = c.game();
    let below = |hi: u64| match bits {
        Some(w) => hi.min(1u64.checked_shl(w).map_or(u64::MAX, |b| b - 1)),
        None => hi,
    };
    let space = c.space();
    let Space::Tuples { lo, n, lengths } = space else {
        let fits = |ps: &[Pos]| {
            let top = ps
                .iter()
                .map(|p| game.branching_bound(p))
                .fold(1.0, f64::max);
            ps.len() as u64 <= GUARD_POSITIONS && ps.len() as f64 * top <= GUARD_WORK
        };
        let (entropy, k) = match space {
            Space::ChipSpread { k } => (true, k),
            Space::ChipTotals { k } => (false, k),
            Space::Tuples { .. } => unreachable!(),
        };
        let mut s = if entropy { 2 } else { k as u64 + 2 };
        let mut positions = chip_positions(&space, s);
        loop {
            let next = chip_positions(&space, s + 1);
            if !fits(&next) {
                break;
            }
            s += 1;
            positions = next;
        }
        if let Some(w) = bits {
            positions.retain(|p| p.iter().all(|&v| v < 1u64 << w));
            if entropy {
                s = below(s);
            }
        }
        return Region {
            check: BoxCheck {
                lo: u64::from(!entropy),
                hi: s,
                max_sum: (!entropy).then_some(s),
                positions: 0,
            },
            lengths: Vec::new(),
            listed: Some(positions),
        };
    };
    // Tuples with entries in lo..=hi and (when given) entries summing to at most `sum`.
    let count = |hi: u64, sum: Option<u64>| -> u64 {
        lengths
            .iter()
            .map(|&m| match sum {
                None => (hi + 1 - lo).saturating_pow(m as u32),
                // Tuples of m entries >= lo summing to at most s: C(s - lo*m + m, m).
                Some(s) => match s.checked_sub(lo * m as u64) {
                    Some(free) => binomial(free + m as u64, m as u64),
                    None => 0,
                },
            })
            .fold(0u64, u64::saturating_add)
    };
    // A bound fits when it has at most GUARD_POSITIONS positions and the search over them visits at
    // most GUARD_WORK options (positions × the options of the largest).
    let fits = |hi: u64, sum: Option<u64>| -> bool {
        let positions = count(hi, sum);
        let top = vec![hi; n];
        positions <= GUARD_POSITIONS
            && positions as f64 * game.branching_bound(&top).max(1.0) <= GUARD_WORK
    };
    let mut hi = lo + 2;
    let mut sum = None;
    if fits(hi, None) {
        while fits(hi + 1, None) {
            hi += 1;
        }
    } else {
        let mut s = lo * n as u64 + 1;
        while fits(s + 1, Some(s + 1)) {
            s += 1;
        }
        hi = s;
        sum = Some(s);
    }
    Region {
        check: BoxCheck {
            lo,
            hi: below(hi),
            max_sum: sum,
            positions: 0,
        },
        lengths,
        listed: None,
    }
}

/// The tuples of length `len` within `b`'s bounds, in lexicographic order, each given to `f` until
/// it breaks.
fn each_tuple(
    b: &BoxCheck,
    len: usize,
    f: &mut dyn FnMut(&[u64]) -> Result<ControlFlow<()>>,
) -> Result<()> {
    let (lo, hi, sum) = (b.lo, b.hi, b.max_sum);
    if sum.is_some_and(|s| lo * len as u64 > s) {
        return Ok(());
    }
    // The next tuple after `p` in lexicographic order within the bounds; false after the last.
    let next = |p: &mut Vec<u64>| -> bool {
        let mut prefix: u64 = p.iter().sum();
        for i in (0..p.len()).rev() {
            prefix -= p[i];
            let rest = lo * (p.len() - i - 1) as u64;
            if p[i] < hi && sum.is_none_or(|s| prefix + p[i] + 1 + rest <= s) {
                p[i] += 1;
                p[i + 1..].fill(lo);
                return true;
            }
        }
        false
    };
    let mut p = vec![lo; len];
    loop {
        if f(&p)?.is_break() || !next(&mut p) {
            return Ok(());
        }
    }
}

/// Defence in depth: a report that says "proved" is checked first by exact search on the region of
/// [`region`] (entries below `2^bits` for a bit-vector proof): the claim `says` must hold there.
/// A disagreement is an error of the prover's encoding or decision procedure: the verdict becomes
/// "refuted", with a condition "search" that names the position (re-checked by that exact search;
/// with its winning move when it is a member and an N-position) and says that the prover had said
/// proved. Otherwise the region is recorded in the report. Interrupted through the caller's cancel
/// scope, there is no report.
pub(crate) fn guard(c: &dyn Claimed, says: Says, mut r: Report) -> Result<Report> {
    nimlab_core::interrupt::check()?;
    if r.verdict != Status::Proved {
        return Ok(r);
    }
    let start = Instant::now();
    let game = c.game();
    let play = c.play();
    let mut region = region(c, r.bits);
    let mut search = nimlab_core::solver::Solver::new(game);
    let mut positions = 0u64;
    // The first position where the claim fails: the position, whether it is a member, whether P.
    let mut wrong: Option<(Pos, bool, bool)> = None;
    let mut visit = |p: &[u64]| -> Result<ControlFlow<()>> {
        nimlab_core::interrupt::check()?;
        positions += 1;
        let member = c.contains(p);
        let is_p = search.outcome(p, play)? == Outcome::P;
        let fails = match says {
            Says::PSet => member != is_p,
            Says::Subset => member && !is_p,
            Says::NPositions => member && is_p,
        };
        if fails {
            wrong = Some((p.to_vec(), member, is_p));
            return Ok(ControlFlow::Break(()));
        }
        Ok(ControlFlow::Continue(()))
    };
    match region.listed.take() {
        Some(listed) => {
            for p in &listed {
                if visit(p)?.is_break() {
                    break;
                }
            }
        }
        None => {
            for &len in &region.lengths {
                let mut stopped = false;
                each_tuple(&region.check, len, &mut |p| {
                    let flow = visit(p)?;
                    stopped = flow.is_break();
                    Ok(flow)
                })?;
                if stopped {
                    break;
                }
            }
        }
    }
    let Some((p, member, is_p)) = wrong else {
        region.check.positions = positions;
        r.box_check = Some(region.check);
        // The report's time includes the check.
        r.seconds += start.elapsed().as_secs_f64();
        return Ok(r);
    };
    let move_to = if member && !is_p {
        winning_move(&mut search, game, &p, play)?
    } else {
        None
    };
    let shown = nimlab_core::position::format_tuple(&p);
    r.verdict = Status::Refuted;
    r.seconds += start.elapsed().as_secs_f64();
    r.conditions.push(ConditionReport {
        condition: Condition::Search,
        status: Status::Refuted,
        seconds: start.elapsed().as_secs_f64(),
        reason: Some(format!(
            "the {} prover said proved, but exact search on {} finds {shown} {}: not proved (an error of the prover, please report it)",
            r.method,
            region.check.describe(),
            match (member, is_p) {
                (true, true) => "in the set and a P-position",
                (true, false) => "in the set and an N-position",
                (false, _) => "outside the set and a P-position",
            }
        )),
        counterexample: Some(Counterexample {
            position: p,
            move_to,
        }),
        queries: Vec::new(),
    });
    Ok(r)
}

/// C(n, k), saturating at `u64::MAX`.
fn binomial(n: u64, k: u64) -> u64 {
    let k = k.min(n - k.min(n));
    let mut r: u128 = 1;
    for i in 0..k {
        r = r * u128::from(n - i) / u128::from(i + 1);
        if r > u128::from(u64::MAX) {
            return u64::MAX;
        }
    }
    r as u64
}
