//! Running the queries of the three conditions, and re-checking every counterexample with nimlab's
//! own exact machinery before it is reported: membership by [`Conjecture::contains`], legality of the
//! move by the game's `for_each_option`, and for (II) the search over every option of the position.

use crate::automata::{self, Budget, Dfa, Stop};
use crate::conjecture::{Conjecture, Kind, Ruleset};
use crate::encode::{queries, Condition, Query};
use crate::solver::{Answer, Solver};
use nimlab_core::{Error, Game, Play, Pos, Result};
use serde_json::{json, Value};
use std::ops::ControlFlow;
use std::path::Path;
use std::time::{Duration, Instant};

/// The outcome of a condition (or of the whole proof).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Proved,
    Refuted,
    Unknown,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Proved => "proved",
            Status::Refuted => "refuted",
            Status::Unknown => "unknown",
        }
    }
}

/// What a proof claims about the set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// The set is the P-set: conditions (I)-(III) of the partition theorem.
    PSet,
    /// Every member is a P-position (the set lies inside the P-set, perhaps not all of it):
    /// condition (C), and in misère play (III) (no terminal member). docs/rules.md has the argument.
    Subset,
}

impl Claim {
    /// What `prove` claims for a set given as the registry result `theorem` (if any), with `--subset`
    /// asked or not: a partial result claims only that its members are P-positions.
    pub fn of(theorem: Option<&str>, subset: bool) -> Claim {
        let partial = theorem
            .and_then(nimlab_theory::by_id)
            .is_some_and(|t| t.scope() == nimlab_theory::Scope::Partial);
        if subset || partial {
            Claim::Subset
        } else {
            Claim::PSet
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Claim::PSet => "P-set",
            Claim::Subset => "subset",
        }
    }
}

/// A re-checked counterexample: the position, and for (I) the move's target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counterexample {
    pub position: Pos,
    pub move_to: Option<Pos>,
}

/// The result of one condition.
#[derive(Debug, Clone)]
pub struct ConditionReport {
    pub condition: Condition,
    pub status: Status,
    pub seconds: f64,
    pub counterexample: Option<Counterexample>,
    /// Why the answer is unknown (`timeout`, ...).
    pub reason: Option<String>,
    /// SMT proofs: each query the condition was decided by, with every solver's answer (empty for
    /// automata).
    pub queries: Vec<QueryRecord>,
}

/// One query of a condition and what each solver answered.
#[derive(Debug, Clone)]
pub struct QueryRecord {
    /// The query's file name in `--emit` and certificate bundles.
    pub file: String,
    pub answers: Vec<SolverAnswer>,
}

/// One solver's answer to one query.
#[derive(Debug, Clone)]
pub struct SolverAnswer {
    /// The solver's executable name (`z3`, `cvc5`).
    pub solver: String,
    /// `unsat`, `sat` or `unknown`.
    pub answer: &'static str,
    /// Why unknown, in the solver's words or how it failed.
    pub reason: Option<String>,
    pub seconds: f64,
}

/// The result of a proof.
#[derive(Debug, Clone)]
pub struct Report {
    pub game: String,
    pub source: String,
    /// `Some(w)`: proved (or not) for entries below 2^w only.
    pub bits: Option<u32>,
    pub verdict: Status,
    pub seconds: f64,
    pub conditions: Vec<ConditionReport>,
    /// How the conditions were decided: `"smt"` (the solver) or `"automata"` ([`prove_automata`]).
    pub method: &'static str,
    /// The play convention the conditions were stated for.
    pub play: Play,
    /// The set is the P-set, or lies inside it.
    pub claim: Claim,
    /// The exact search on a small box that a "proved" passed (`guarded`); none otherwise.
    pub box_check: Option<BoxCheck>,
    /// SMT proofs run through [`crate::run`]: each solver's name and the version it reported.
    pub solvers: Vec<(String, String)>,
}

/// The box of the exact check made before a proof is reported: every position with entries in
/// `lo..=hi` (SCN: every circle of at most n piles in `lo..=hi`) and, for games with many stacks,
/// entries summing to at most `max_sum`; `positions` of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoxCheck {
    pub lo: u64,
    pub hi: u64,
    pub max_sum: Option<u64>,
    pub positions: u64,
}

impl BoxCheck {
    /// "the box [0..3]", or "the positions whose entries sum to at most 3".
    pub fn describe(&self) -> String {
        match self.max_sum {
            None => format!("the box [{}..{}]", self.lo, self.hi),
            Some(s) => format!("the positions whose entries sum to at most {s}"),
        }
    }
}

impl Report {
    /// The JSON object of `nimlab prove --json`.
    pub fn to_json(&self) -> Value {
        json!({
            "game": self.game,
            "source": self.source,
            "verdict": self.verdict.name(),
            "range": self.range(),
            "bits": self.bits,
            "method": self.method,
            "play": self.play.name(),
            "claim": self.claim.name(),
            "seconds": round(self.seconds),
            "solvers": self.solvers.iter().map(|(name, version)| json!({
                "name": name,
                "version": version,
            })).collect::<Vec<_>>(),
            "box_check": self.box_check.as_ref().map(|b| json!({
                "lo": b.lo,
                "hi": b.hi,
                "max_sum": b.max_sum,
                "positions": b.positions,
            })),
            "conditions": self.conditions.iter().map(|c| json!({
                "condition": c.condition.name(),
                "status": c.status.name(),
                "seconds": round(c.seconds),
                "reason": c.reason,
                "counterexample": c.counterexample.as_ref().map(|x| json!({
                    "position": x.position,
                    "move_to": x.move_to,
                })),
                "queries": c.queries.iter().map(|q| json!({
                    "file": q.file,
                    "answers": q.answers.iter().map(|a| json!({
                        "solver": a.solver,
                        "answer": a.answer,
                        "reason": a.reason,
                        "seconds": round(a.seconds),
                    })).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })
    }
}

impl Report {
    /// `all`, or `entries < 2^w` for a bit-vector proof.
    pub fn range(&self) -> String {
        match self.bits {
            None => "all".into(),
            Some(w) => format!("entries < 2^{w}"),
        }
    }
}

fn round(s: f64) -> f64 {
    (s * 1000.0).round() / 1000.0
}

/// Writes every query of the conditions of `claim` under `dir`, one SMT-LIB2 file each, as a
/// certificate with no verdict ([`crate::certificate::of_box`]); returns the paths.
pub fn emit(c: &Conjecture, claim: Claim, dir: &Path) -> Result<Vec<std::path::PathBuf>> {
    crate::certificate::of_box(
        c,
        claim,
        None,
        crate::certificate::Characterization::Registry,
    )?
    .write(dir)
}

/// What a counterexample is re-checked against: the game, the play convention and exact membership.
trait Claimed {
    fn ruleset(&self) -> &Ruleset;
    fn play(&self) -> Play;
    fn contains(&self, p: &[u64]) -> bool;
}

impl Claimed for Conjecture {
    fn ruleset(&self) -> &Ruleset {
        &self.game
    }
    fn play(&self) -> Play {
        self.play
    }
    fn contains(&self, p: &[u64]) -> bool {
        Conjecture::contains(self, p)
    }
}

/// Refuted if a condition is, else unknown if a condition is, else proved.
fn verdict_of(conditions: &[ConditionReport]) -> Status {
    if conditions.iter().any(|r| r.status == Status::Refuted) {
        Status::Refuted
    } else if conditions.iter().any(|r| r.status == Status::Unknown) {
        Status::Unknown
    } else {
        Status::Proved
    }
}

/// Decides the three conditions for `c` with `solver`.
pub fn prove(c: &Conjecture, solver: &Solver) -> Result<Report> {
    prove_with(c, std::slice::from_ref(solver))
}

/// Decides the three conditions for `c` with every solver of `solvers` (a cross-check: a query
/// holds only when each of them answers unsat; see [`condition_with`]).
pub fn prove_with(c: &Conjecture, solvers: &[Solver]) -> Result<Report> {
    c.validate()?;
    let start = Instant::now();
    let mut conditions = Vec::new();
    for cond in Condition::THEOREM {
        conditions.push(condition_with(c, cond, solvers)?);
    }
    let verdict = verdict_of(&conditions);
    guarded(
        c,
        Report {
            game: c.game.id(),
            source: c.source.clone(),
            bits: c.bits,
            verdict,
            seconds: start.elapsed().as_secs_f64(),
            conditions,
            method: "smt",
            box_check: None,
            solvers: Vec::new(),
            play: c.play,
            claim: Claim::PSet,
        },
    )
}

/// The conditions that decide a set inside the P-set: (C), and in misère play (III) (no terminal
/// position in the set; in normal play a terminal member is a P-position, nothing to check).
pub(crate) fn subset_conditions(play: Play) -> Vec<Condition> {
    match play {
        Play::Normal => vec![Condition::Closure],
        Play::Misere => vec![Condition::Closure, Condition::III],
    }
}

/// Decides, with `solver`, that every member of `c`'s set is a P-position ([`Claim::Subset`]): no
/// move from a member reaches a position without a move back into the set (C), and in misère play
/// no terminal position is a member. A counterexample to (C) is re-checked, then decided by exact
/// search: a member that is an N-position refutes the claim; otherwise the answer is unknown (the
/// condition is sufficient, not necessary).
pub fn prove_subset(c: &Conjecture, solver: &Solver) -> Result<Report> {
    prove_subset_with(c, std::slice::from_ref(solver))
}

/// As [`prove_subset`], with every solver of `solvers` ([`prove_with`]).
pub fn prove_subset_with(c: &Conjecture, solvers: &[Solver]) -> Result<Report> {
    c.validate()?;
    let start = Instant::now();
    let mut conditions = Vec::new();
    for cond in subset_conditions(c.play) {
        conditions.push(condition_with(c, cond, solvers)?);
    }
    guarded(
        c,
        Report {
            game: c.game.id(),
            source: c.source.clone(),
            bits: c.bits,
            verdict: verdict_of(&conditions),
            seconds: start.elapsed().as_secs_f64(),
            conditions,
            method: "smt",
            box_check: None,
            solvers: Vec::new(),
            play: c.play,
            claim: Claim::Subset,
        },
    )
}

/// As [`prove_subset`], with finite automata (every entry size, `xor` included): CN, Nim, the
/// complexes and SCN (one set automaton per circle length).
pub fn prove_subset_automata(c: &Conjecture, timeout: Duration) -> Result<Report> {
    c.validate_shape()?;
    let start = Instant::now();
    let budget = Budget {
        deadline: start + timeout,
        max_states: AUTOMATA_MAX_STATES,
        cancel: None,
        interrupt: nimlab_core::interrupt::current(),
    };
    let (found, took) = match automata::closure(c, &budget) {
        Err(Stop::Unsupported(why)) => return Err(Error::Unsupported(why)),
        Err(Stop::Limit(why)) => (Err(why), start.elapsed().as_secs_f64()),
        Ok((r, took)) => (
            r.map_err(|e| match e {
                Stop::Limit(why) | Stop::Unsupported(why) => why,
            }),
            took,
        ),
    };
    let mut conditions = vec![match found {
        Err(why) => ConditionReport {
            condition: Condition::Closure,
            status: Status::Unknown,
            seconds: took,
            counterexample: None,
            reason: Some(why),
            queries: Vec::new(),
        },
        Ok(None) => proved(Condition::Closure, took),
        Ok(Some((x, y))) => {
            let xy: Vec<u128> = x.iter().chain(&y).copied().collect();
            refute(c, Condition::Closure, x.len(), &xy, took)?
        }
    }];
    if c.play == Play::Misere {
        conditions.push(terminal(c)?);
    }
    guarded(
        c,
        Report {
            game: c.game.id(),
            source: c.source.clone(),
            bits: None,
            verdict: verdict_of(&conditions),
            seconds: start.elapsed().as_secs_f64(),
            conditions,
            method: "automata",
            box_check: None,
            solvers: Vec::new(),
            play: c.play,
            claim: Claim::Subset,
        },
    )
}

/// One condition: its queries in order of circle length, stopping at the first counterexample.
pub fn condition(c: &Conjecture, cond: Condition, solver: &Solver) -> Result<ConditionReport> {
    condition_with(c, cond, std::slice::from_ref(solver))
}

/// One condition decided by every solver of `solvers` in turn: a query holds when each answers
/// unsat; a counterexample from any of them, re-checked by exact search, refutes the condition (and
/// when another solver had answered unsat, the reason names that solver's error); otherwise the
/// condition is unknown with each solver's reason.
pub fn condition_with(
    c: &Conjecture,
    cond: Condition,
    solvers: &[Solver],
) -> Result<ConditionReport> {
    if solvers.is_empty() {
        return Err(Error::Unsupported("no SMT solver given".into()));
    }
    let several = solvers.len() > 1;
    let mut report = ConditionReport {
        condition: cond,
        status: Status::Proved,
        seconds: 0.0,
        counterexample: None,
        reason: None,
        queries: Vec::new(),
    };
    for q in queries(c, cond)? {
        let mut record = QueryRecord {
            file: q.file_name(c.game.kind),
            answers: Vec::new(),
        };
        let mut reasons = Vec::new();
        let mut refuted = None;
        for solver in solvers {
            let (answer, took) = solve_small(c, &q, solver)?;
            report.seconds += took.as_secs_f64();
            record.answers.push(SolverAnswer {
                solver: solver.name(),
                answer: answer.word(),
                reason: match &answer {
                    Answer::Unknown(why) => Some(why.clone()),
                    _ => None,
                },
                seconds: took.as_secs_f64(),
            });
            let named = |why: String| {
                if several {
                    format!("{}: {why}", solver.name())
                } else {
                    why
                }
            };
            match answer {
                Answer::Unsat => {}
                Answer::Unknown(why) => reasons.push(named(why)),
                Answer::Sat(values) => match recheck(c, q.condition, q.x.len(), &values)? {
                    Ok(cx) => {
                        refuted = Some(cx);
                        break;
                    }
                    Err(why) => reasons.push(named(why)),
                },
            }
        }
        let unsat: Vec<&str> = record
            .answers
            .iter()
            .filter(|a| a.answer == "unsat")
            .map(|a| a.solver.as_str())
            .collect();
        if let Some(cx) = refuted {
            report.status = Status::Refuted;
            report.counterexample = Some(cx);
            report.reason = (!unsat.is_empty()).then(|| {
                format!(
                    "{} answered unsat, but another solver's counterexample re-checks by exact search: an error of {}",
                    unsat.join(" and "),
                    if unsat.len() == 1 { "that solver" } else { "those solvers" }
                )
            });
            report.queries.push(record);
            return Ok(report);
        }
        report.queries.push(record);
        if !reasons.is_empty() {
            let why = reasons.join("; ");
            report.status = Status::Unknown;
            report.reason = Some(match c.game.kind {
                Kind::Cn | Kind::Complex => why,
                Kind::Scn => format!("{why} (circles of {} piles)", q.len),
            });
        }
    }
    Ok(report)
}

/// Solves `q`; a satisfiable answer with large entries is asked again with every entry of `x` bounded
/// (8, then 32), so that the counterexample is small enough to re-check by enumerating options.
fn solve_small(c: &Conjecture, q: &Query, solver: &Solver) -> Result<(Answer, Duration)> {
    let ar = c.arith()?;
    let vars: Vec<String> = q.x.iter().chain(&q.y).cloned().collect();
    // The query with its logic set, as emitted (z3 and cvc5 both read it).
    let body = q.with_logic();
    let (answer, mut took) = solver.check_with(&body, &q.check, &vars)?;
    let Answer::Sat(values) = &answer else {
        return Ok((answer, took));
    };
    let largest = values.iter().copied().max().unwrap_or(0);
    for bound in [8i128, 32] {
        if largest <= bound {
            break;
        }
        let mut body = body.clone();
        for v in &q.x {
            body.push_str(&format!("(assert {})\n", ar.le(v, &ar.lit(bound))));
        }
        let (small, t) = solver.check_with(&body, &q.check, &vars)?;
        took += t;
        if let Answer::Sat(_) = small {
            return Ok((small, took));
        }
    }
    Ok((answer, took))
}

/// Largest number of options enumerated to re-check one counterexample.
const OPTION_CAP: f64 = 5e7;

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
        Ok(nimlab_core::Outcome::P) => {
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
    let mut found = false;
    game.for_each_option(p, &mut |o| {
        if o == q {
            found = true;
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })?;
    Ok(found)
}

/// Whether one move of `rules` leads from `x` to `y` (as many entries as `x`; in SCN the circle
/// before the piles lowered to 0 vanish): `y` equals `x` outside one window (or facet), is at most
/// `x` inside it, and differs from `x`. Decided from the rules alone, so entries of any size cost
/// nothing.
fn is_move(rules: &Ruleset, x: &[u64], y: &[u64]) -> bool {
    if x.len() != y.len() || x == y || y.iter().zip(x).any(|(b, a)| b > a) {
        return false;
    }
    rules
        .windows(x.len())
        .iter()
        .any(|w| (0..x.len()).all(|i| w.contains(&i) || x[i] == y[i]))
}

/// Re-checks the model `values` of a satisfiable query. `Ok(Ok(cx))`: a confirmed counterexample;
/// `Ok(Err(why))`: too large to confirm by enumeration (reported as unknown); `Err`: the model is not a
/// counterexample, so the encoding is wrong.
fn recheck(
    c: &dyn Claimed,
    condition: Condition,
    m: usize,
    values: &[i128],
) -> Result<std::result::Result<Counterexample, String>> {
    let game = c.ruleset().game();
    let game = game.as_ref();
    let bug = |what: String| {
        Error::Unsupported(format!(
            "internal error: the counterexample to condition ({}) does not re-check: {what} (a bug in prove's encoding; nothing is reported as refuted)",
            condition.name()
        ))
    };
    // Entries are never negative (the queries say so); entries of 2^64 or more are past the exact
    // search that re-checks a counterexample here.
    if values.iter().any(|&v| v < 0) {
        return Err(bug(format!("negative entry in {values:?}")));
    }
    if values.iter().any(|&v| v > i128::from(u64::MAX)) {
        let shown: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        return Ok(Err(format!(
            "the counterexample ({}) has an entry of 2^64 or more, past the 64-bit entries that nimlab re-checks counterexamples on, so it is not reported",
            shown.join(",")
        )));
    }
    let x = to_pos(&values[..m]).ok_or_else(|| bug(format!("negative entry in {values:?}")))?;
    game.validate(&x)
        .map_err(|e| bug(format!("{x:?} is not a position: {e}")))?;
    // (I) is re-checked by the move itself; the other conditions list options.
    if condition != Condition::I && game.branching_bound(&x) > OPTION_CAP {
        return Ok(Err(format!(
            "the solver's counterexample {} has too many options to re-check",
            nimlab_core::position::format_tuple(&x)
        )));
    }
    let shown = nimlab_core::position::format_tuple;
    match condition {
        Condition::I => {
            let yv =
                to_pos(&values[m..]).ok_or_else(|| bug(format!("negative entry in {values:?}")))?;
            // The move itself, from the rules (no listing of options, so entries of any size):
            // SCN's y is the circle of x with the lowered piles, those lowered to 0 then vanish.
            // Where x has few options, listing them also decides it.
            let by_rules = is_move(c.ruleset(), &x, &yv);
            let y: Pos = match c.ruleset().kind {
                Kind::Cn | Kind::Complex => yv,
                Kind::Scn => yv.into_iter().filter(|&a| a > 0).collect(),
            };
            let listed = || -> Result<bool> {
                Ok(game.branching_bound(&x) <= OPTION_CAP && is_option(game, &x, &y)?)
            };
            if !by_rules && !listed()? {
                return Err(bug(format!(
                    "{} is not an option of {}",
                    shown(&y),
                    shown(&x)
                )));
            }
            if !c.contains(&x) {
                return Err(bug(format!("{} is not in the set", shown(&x))));
            }
            if !c.contains(&y) {
                return Err(bug(format!("{} is not in the set", shown(&y))));
            }
            Ok(Ok(Counterexample {
                position: x,
                move_to: Some(y),
            }))
        }
        Condition::II => {
            if c.contains(&x) {
                return Err(bug(format!("{} is in the set", shown(&x))));
            }
            if game.is_terminal(&x)? {
                return Err(bug(format!("{} is terminal", shown(&x))));
            }
            if let Some(o) = first_option(game, &x, &|o| c.contains(o))? {
                return Err(bug(format!(
                    "{} moves to {} in the set",
                    shown(&x),
                    shown(&o)
                )));
            }
            Ok(Ok(Counterexample {
                position: x,
                move_to: None,
            }))
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
            Ok(Ok(Counterexample {
                position: x,
                move_to: None,
            }))
        }
        Condition::Closure => {
            let y =
                to_pos(&values[m..]).ok_or_else(|| bug(format!("negative entry in {values:?}")))?;
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
            // A move between two members breaks (C) whatever y's options: one of x and y is not
            // a P-position. Otherwise y must have no move back into the set.
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
                        "the solver's counterexample {} -> {} has too many options to re-check",
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
            // (C) fails at x -> y. Whether x is a P-position decides between a refutation and a
            // gap of the sufficient condition: exact search.
            let mut search = nimlab_core::solver::Solver::new(game);
            let budget = nimlab_core::solver::Budget {
                limit: RECHECK_SEARCH_LIMIT,
                flag: "--limit",
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
            // The member that is an N-position: x, or else (x being P) its option y when y is a
            // member; its winning move (to a P-position) refutes the claim.
            let loser = if search.outcome(&x, c.play())? == nimlab_core::Outcome::N {
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
        Condition::Search => Err(bug("no query states the search check".into())),
    }
}

/// Most positions of the box that [`guarded`] searches.
const GUARD_POSITIONS: u64 = 20_000;

/// Most options that the search of [`guarded`] visits (estimated: positions × the options of the
/// box's largest position).
const GUARD_WORK: f64 = 5e7;

/// Defence in depth: a report that says "proved" is checked first by exact search on the largest box
/// of at most [`GUARD_POSITIONS`] positions and [`GUARD_WORK`] option visits (entries below `2^bits`
/// for a bit-vector proof; a bound on the entries' sum where a box with three values per entry is too
/// large): the set
/// must be the P-set there (a subset claim: inside it). A disagreement is an error of the prover's
/// encoding or decision procedure: the verdict becomes "refuted", with a condition "search" that
/// names the position (re-checked by that exact search) and says that the prover had said proved.
/// Otherwise the box is recorded in the report.
fn guarded(c: &dyn Claimed, mut r: Report) -> Result<Report> {
    // Interrupted through the caller's cancel scope (a proof stopped early): no report.
    nimlab_core::interrupt::check()?;
    if r.verdict != Status::Proved {
        return Ok(r);
    }
    let start = Instant::now();
    let rules = c.ruleset();
    let scn = rules.kind == Kind::Scn;
    let lo = u64::from(scn);
    let lengths: Vec<usize> = if scn {
        (0..=rules.n).collect()
    } else {
        vec![rules.n]
    };
    // Positions with entries in lo..=hi and (when given) entries summing to at most `sum`.
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
    // A bound fits when it has at most GUARD_POSITIONS positions and the search over them visits
    // at most GUARD_WORK options (positions × the options of the largest).
    let game = rules.game();
    let fits = |hi: u64, sum: Option<u64>| -> bool {
        let positions = count(hi, sum);
        let top = vec![hi; rules.n];
        positions <= GUARD_POSITIONS
            && positions as f64 * game.branching_bound(&top).max(1.0) <= GUARD_WORK
    };
    // The largest box with at least three values per entry; for many stacks (or many options),
    // where even that is too large, the positions whose entries sum to at most the largest s that
    // fits.
    let mut hi = lo + 2;
    let mut sum = None;
    if fits(hi, None) {
        while fits(hi + 1, None) {
            hi += 1;
        }
    } else {
        let mut s = lo * rules.n as u64 + 1;
        while fits(s + 1, Some(s + 1)) {
            s += 1;
        }
        hi = s;
        sum = Some(s);
    }
    if let Some(w) = r.bits {
        hi = hi.min(1u64.checked_shl(w).map_or(u64::MAX, |b| b - 1));
    }
    let mut search = nimlab_core::solver::Solver::new(game.as_ref());
    let play = c.play();
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
    let mut positions = 0u64;
    for &len in &lengths {
        if sum.is_some_and(|s| lo * len as u64 > s) {
            continue;
        }
        let mut p = vec![lo; len];
        loop {
            nimlab_core::interrupt::check()?;
            positions += 1;
            let member = c.contains(&p);
            let is_p = search.outcome(&p, play)? == nimlab_core::Outcome::P;
            if member != is_p && (member || r.claim == Claim::PSet) {
                let move_to = if member {
                    winning_move(&mut search, game.as_ref(), &p, play)?
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
                        BoxCheck { lo, hi, max_sum: sum, positions: 0 }.describe(),
                        if member {
                            "in the set and an N-position"
                        } else {
                            "outside the set and a P-position"
                        }
                    )),
                    counterexample: Some(Counterexample {
                        position: p,
                        move_to,
                    }),
                    queries: Vec::new(),
                });
                return Ok(r);
            }
            if !next(&mut p) {
                break;
            }
        }
    }
    r.box_check = Some(BoxCheck {
        lo,
        hi,
        max_sum: sum,
        positions,
    });
    // The report's time includes the check.
    r.seconds += start.elapsed().as_secs_f64();
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

/// Largest estimated search (option visits) that decides a member by exact search when (C) fails.
const RECHECK_SEARCH_LIMIT: f64 = 2e8;

/// Most states of any automaton of [`prove_automata`].
pub const AUTOMATA_MAX_STATES: usize = 4_000_000;

/// Decides the three conditions for `c` with finite automata ([`crate::automata`]), for every entry
/// size, `xor` included; CN, Nim, complexes and SCN. Counterexamples are re-checked as the solver's are.
/// A time limit or state cap reached makes the conditions not yet decided `unknown`.
pub fn prove_automata(c: &Conjecture, timeout: Duration) -> Result<Report> {
    c.validate_shape()?;
    automata_report(c, c.source.clone(), timeout, |budget| {
        automata::conditions(c, budget)
    })
}

/// A set of positions given as an automaton: stack `i` is track `i`, read in binary, most significant
/// digit first; membership of a position is [`Dfa::accepts`].
struct AutomatonSet<'a> {
    game: &'a Ruleset,
    members: &'a Dfa,
    play: Play,
}

impl Claimed for AutomatonSet<'_> {
    fn ruleset(&self) -> &Ruleset {
        self.game
    }
    fn play(&self) -> Play {
        self.play
    }
    fn contains(&self, p: &[u64]) -> bool {
        let v: Vec<u128> = p.iter().map(|&x| x as u128).collect();
        self.members.accepts(&v)
    }
}

/// Decides the three conditions of the partition theorem for the set of positions of `game` that the
/// automaton `members` accepts (one track per stack, track `i` = stack `i`, most significant digit
/// first), for every entry size, with finite automata: CN, Nim and complexes (SCN:
/// [`prove_scn_members`]). The automaton must give
/// the same answer with or without leading zero letters (refused otherwise). Counterexamples are
/// re-checked by exact search, membership being the automaton's [`Dfa::accepts`]; a time limit or
/// state cap reached makes the conditions not yet decided `unknown`; once (I) is refuted, (II) is not
/// searched (reported `unknown`, saying so). The report's `source` is `automaton`; set it to name the
/// file.
pub fn prove_members(
    game: &Ruleset,
    members: &Dfa,
    play: Play,
    timeout: Duration,
) -> Result<Report> {
    if members.tracks != game.n {
        return Err(Error::Unsupported(format!(
            "the automaton reads {} inputs; a position of {} has {} stacks",
            members.tracks,
            game.id(),
            game.n
        )));
    }
    if let Some(w) = members.leading_zeros_matter() {
        return Err(Error::Unsupported(format!(
            "the automaton's answer changes with leading zero letters (e.g. on {}): msd_2 automata must give the same answer with or without them",
            nimlab_core::position::format_tuple(
                &w.iter().map(|&x| x as u64).collect::<Vec<_>>()
            )
        )));
    }
    let set = AutomatonSet {
        game,
        members,
        play,
    };
    automata_report(&set, "automaton".into(), timeout, |budget| {
        automata::conditions_for(game, members.clone(), true, budget)
    })
}

/// A set of SCN positions given as one automaton per circle length (already intersected with
/// "every pile positive", [`automata::scn_given_sets`]): `sets[L]` reads circles of L piles; the
/// empty circle is in the set when `sets[0]` accepts.
struct ScnAutomatonSet<'a> {
    game: &'a Ruleset,
    sets: &'a [Dfa],
    play: Play,
}

impl Claimed for ScnAutomatonSet<'_> {
    fn ruleset(&self) -> &Ruleset {
        self.game
    }
    fn play(&self) -> Play {
        self.play
    }
    fn contains(&self, p: &[u64]) -> bool {
        let Some(s) = self.sets.get(p.len()) else {
            return false;
        };
        let v: Vec<u128> = p.iter().map(|&x| x as u128).collect();
        s.accepts(&v)
    }
}

/// Decides the three conditions of the partition theorem for a set of SCN(n,k) positions given as
/// one automaton per circle length, for every pile size, with finite automata: `per_length[L - 1]`
/// reads circles of L piles (track `i` = pile `i`, most significant digit first, the same answer
/// with or without leading zero letters), `empty` says whether the empty circle is in the set. What
/// an automaton accepts with a zero pile is not a circle and is left out. Refused in one line when
/// the automata are not a set of circles (not invariant under rotation and reflection), or their
/// number or inputs do not fit the game. Conditions (I) and (II) over every circle length as for a
/// families file ([`prove_automata`]); (III) by the empty circle; counterexamples re-checked by
/// exact search against the automata's own membership; once (I) is refuted, (II) is not searched.
pub fn prove_scn_members(
    game: &Ruleset,
    per_length: &[Dfa],
    empty: bool,
    play: Play,
    timeout: Duration,
) -> Result<Report> {
    let start = Instant::now();
    let budget = Budget::new(start + timeout, AUTOMATA_MAX_STATES);
    let sets = match automata::scn_given_sets(game, per_length, empty, &budget) {
        Ok(s) => s,
        Err(Stop::Unsupported(why)) => return Err(Error::Unsupported(why)),
        Err(Stop::Limit(why)) => {
            // The checks themselves ran out of time or states: nothing is decided.
            let unknown = |condition| ConditionReport {
                condition,
                status: Status::Unknown,
                seconds: start.elapsed().as_secs_f64(),
                counterexample: None,
                reason: Some(why.clone()),
                queries: Vec::new(),
            };
            // Interrupted through the caller's cancel scope: no report.
            nimlab_core::interrupt::check()?;
            return Ok(Report {
                game: game.id(),
                source: "automaton".into(),
                bits: None,
                verdict: Status::Unknown,
                seconds: start.elapsed().as_secs_f64(),
                conditions: vec![
                    unknown(Condition::I),
                    unknown(Condition::II),
                    unknown(Condition::III),
                ],
                method: "automata",
                box_check: None,
                solvers: Vec::new(),
                play,
                claim: Claim::PSet,
            });
        }
    };
    let set = ScnAutomatonSet {
        game,
        sets: &sets,
        play,
    };
    let left = timeout.saturating_sub(start.elapsed());
    automata_report(&set, "automaton".into(), left, |budget| {
        automata::scn_conditions_for_sets(game, per_length, empty, true, budget)
    })
}

/// Runs the automata prover's searches (`build`) and decides (III) by exact membership; every
/// counterexample is re-checked against `c`.
fn automata_report(
    c: &dyn Claimed,
    source: String,
    timeout: Duration,
    build: impl FnOnce(&Budget) -> std::result::Result<automata::Conditions, Stop>,
) -> Result<Report> {
    let start = Instant::now();
    let budget = Budget {
        deadline: start + timeout,
        max_states: AUTOMATA_MAX_STATES,
        cancel: None,
        interrupt: nimlab_core::interrupt::current(),
    };
    let unknown = |cond: Condition, why: String| ConditionReport {
        condition: cond,
        status: Status::Unknown,
        seconds: start.elapsed().as_secs_f64(),
        counterexample: None,
        reason: Some(why),
        queries: Vec::new(),
    };
    let mut conditions = Vec::new();
    match build(&budget) {
        Err(Stop::Unsupported(why)) => return Err(Error::Unsupported(why)),
        Err(Stop::Limit(why)) => {
            conditions.push(unknown(Condition::I, why.clone()));
            conditions.push(unknown(Condition::II, why));
        }
        Ok(a) => {
            let (one, one_took) = a.joined;
            conditions.push(match one {
                Err(Stop::Limit(why)) | Err(Stop::Unsupported(why)) => unknown(Condition::I, why),
                Ok(None) => proved(Condition::I, one_took),
                Ok(Some((x, y))) => {
                    let xy: Vec<u128> = x.iter().chain(&y).copied().collect();
                    refute(c, Condition::I, x.len(), &xy, one_took)?
                }
            });
            let (two, two_took) = a.stranded;
            conditions.push(match two {
                Err(Stop::Limit(why)) | Err(Stop::Unsupported(why)) => unknown(Condition::II, why),
                Ok(None) => proved(Condition::II, two_took),
                Ok(Some(x)) => refute(c, Condition::II, x.len(), &x, two_took)?,
            });
        }
    }
    conditions.push(terminal(c)?);
    let verdict = verdict_of(&conditions);
    guarded(
        c,
        Report {
            game: c.ruleset().id(),
            source,
            bits: None,
            verdict,
            seconds: start.elapsed().as_secs_f64(),
            conditions,
            method: "automata",
            box_check: None,
            solvers: Vec::new(),
            play: c.play(),
            claim: Claim::PSet,
        },
    )
}

/// Condition (III) by exact membership of the terminal position (CN and complexes: all zero; SCN: the
/// empty circle): in the set in normal play, outside it in misère play.
fn terminal(c: &dyn Claimed) -> Result<ConditionReport> {
    let t0 = Instant::now();
    let m = match c.ruleset().kind {
        Kind::Cn | Kind::Complex => c.ruleset().n,
        Kind::Scn => 0,
    };
    if c.contains(&vec![0u64; m]) == (c.play() == Play::Normal) {
        Ok(proved(Condition::III, t0.elapsed().as_secs_f64()))
    } else {
        refute(
            c,
            Condition::III,
            m,
            &vec![0u128; m],
            t0.elapsed().as_secs_f64(),
        )
    }
}

fn proved(condition: Condition, seconds: f64) -> ConditionReport {
    ConditionReport {
        condition,
        status: Status::Proved,
        seconds,
        counterexample: None,
        reason: None,
        queries: Vec::new(),
    }
}

/// An automaton's counterexample, re-checked by exact search: refuted, or unknown when it is too
/// large to re-check.
fn refute(
    c: &dyn Claimed,
    condition: Condition,
    m: usize,
    word: &[u128],
    seconds: f64,
) -> Result<ConditionReport> {
    let mut r = proved(condition, seconds);
    let values: Option<Vec<i128>> = word.iter().map(|&v| i128::try_from(v).ok()).collect();
    let checked = match values {
        Some(v) => recheck(c, condition, m, &v)?,
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

#[cfg(test)]
mod guard_tests {
    use super::*;

    /// A families file for `game`: one family per (length, relations).
    fn file(game: &str, families: &[(usize, &[&str])]) -> String {
        let mut s = format!("game = \"{game}\"\n");
        for (i, (len, rels)) in families.iter().enumerate() {
            let rels: Vec<String> = rels.iter().map(|r| format!("\"{r}\"")).collect();
            s += &format!(
                "[[family]]\nname = \"f{i}\"\nlength = {len}\nrelations = [{}]\n",
                rels.join(", ")
            );
        }
        s
    }

    /// A report that says "proved" for `text`, as a prover with an encoding error would give.
    fn said_proved(text: &str, claim: Claim) -> (Conjecture, Report) {
        let c = crate::from_toml(text, "test").unwrap();
        let r = Report {
            game: c.game.id(),
            source: "test".into(),
            bits: None,
            verdict: Status::Proved,
            seconds: 0.0,
            conditions: vec![proved(Condition::I, 0.0)],
            method: "smt",
            play: c.play,
            claim,
            box_check: None,
            solvers: Vec::new(),
        };
        (c, r)
    }

    #[test]
    fn a_false_proof_is_caught_by_the_box() {
        // Nim on two heaps (CN(2,1)): the P-positions are a = b (Bouton). "a <= b" holds (0,1),
        // an N-position that moves to (0,0): the first member in the box's order that is wrong.
        let le = file("CN(2,1)", &[(2, &["a <= b"])]);
        let (c, r) = said_proved(&le, Claim::PSet);
        let g = guarded(&c, r).unwrap();
        assert_eq!(g.verdict, Status::Refuted);
        let last = g.conditions.last().unwrap();
        assert_eq!(last.condition, Condition::Search);
        assert_eq!(
            last.counterexample,
            Some(Counterexample {
                position: vec![0, 1],
                move_to: Some(vec![0, 0]),
            })
        );
        assert!(last.reason.as_deref().unwrap().contains("said proved"));
        // "a = b, a <= 3" lies inside the P-set (a subset claim passes, with its box recorded) but
        // is not all of it: (4,4) is a P-position outside it.
        let small = file("CN(2,1)", &[(2, &["a = b", "a <= 3"])]);
        let (c, r) = said_proved(&small, Claim::Subset);
        let g = guarded(&c, r).unwrap();
        assert_eq!(g.verdict, Status::Proved);
        // The largest box of at most 20000 positions: [0..140]^2 (141^2 = 19881).
        assert_eq!(
            g.box_check,
            Some(BoxCheck {
                lo: 0,
                hi: 140,
                max_sum: None,
                positions: 19881
            })
        );
        let (c, r) = said_proved(&small, Claim::PSet);
        let g = guarded(&c, r).unwrap();
        assert_eq!(g.verdict, Status::Refuted);
        assert_eq!(
            g.conditions.last().unwrap().counterexample,
            Some(Counterexample {
                position: vec![4, 4],
                move_to: None,
            })
        );
    }

    #[test]
    fn many_stacks_are_checked_on_a_bounded_sum() {
        // Nim on 12 heaps: [0..2]^12 has 531441 positions, so the check takes the positions whose
        // heaps sum to at most 6: C(18,12) = 18564 (sum 7: C(19,12) = 50388, too many).
        let zero: Vec<String> = "abcdefghijkl".chars().map(|v| format!("{v} = 0")).collect();
        let zero: Vec<&str> = zero.iter().map(String::as_str).collect();
        let text = file("CN(12,1)", &[(12, &zero)]);
        let (c, r) = said_proved(&text, Claim::Subset);
        let g = guarded(&c, r).unwrap();
        assert_eq!(g.verdict, Status::Proved);
        assert_eq!(
            g.box_check,
            Some(BoxCheck {
                lo: 0,
                hi: 6,
                max_sum: Some(6),
                positions: 18564
            })
        );
        // "a = b" on 12 heaps holds (0,...,0,1), an N-position.
        let eq = file("CN(12,1)", &[(12, &["a = b"])]);
        let (c, r) = said_proved(&eq, Claim::Subset);
        let g = guarded(&c, r).unwrap();
        assert_eq!(g.verdict, Status::Refuted);
        let mut want = vec![0u64; 12];
        want[11] = 1;
        assert_eq!(
            g.conditions
                .last()
                .unwrap()
                .counterexample
                .as_ref()
                .unwrap()
                .position,
            want
        );
    }

    #[test]
    fn a_false_scn_subset_proof_is_caught_by_the_box() {
        // The set that the automata prover of SCN once called inside the P-set: (), every (a,a,a)
        // and (1,2,1), which moves to (1,1,1) (an N-position of SCN(3,2)).
        let text = file(
            "SCN(3,2)",
            &[
                (0, &[]),
                (3, &["a = b", "b = c"]),
                (3, &["a = 1", "b = 2", "c = 1"]),
            ],
        );
        let (c, r) = said_proved(&text, Claim::Subset);
        let g = guarded(&c, r).unwrap();
        assert_eq!(g.verdict, Status::Refuted);
        let cx = g.conditions.last().unwrap().counterexample.clone().unwrap();
        // The file's reading takes every rotation and reflection: the box meets (1,1,2) first.
        assert_eq!(cx.position, vec![1, 1, 2]);
        assert!(cx.move_to.is_some());
    }
}
