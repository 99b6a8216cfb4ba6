//! Proving a families file ([`Conjecture`]) by SMT: the queries of each condition ([`crate::encode`])
//! run with one solver or several (a cross-check: a query holds only when each answers unsat,
//! [`QueryRecord`] keeping every answer), a satisfiable answer asked again with small entries, its
//! model re-checked by exact search ([`crate::check`]), and every "proved" through the guard; and
//! `--emit`, the queries written as files.

use crate::check::{guard, recheck, Checked, Stated};
use crate::claimed::{report, OnRuleset, Says};
use crate::conjecture::{Conjecture, RulesetKind};
use crate::encode::{queries, Condition, Query};
use crate::report::{
    Claim, ConditionReport, Counterexample, QueryRecord, Report, SolverAnswer, Status,
};
use crate::solver::{Answer, SmtSolver};
use nimlab_core::{Error, Play, Result};
use std::path::Path;
use std::time::{Duration, Instant};

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

/// Decides the three conditions for `c` with `solver`.
pub fn prove(c: &Conjecture, solver: &SmtSolver) -> Result<Report> {
    prove_with(c, std::slice::from_ref(solver))
}

/// Decides the three conditions for `c` with every solver of `solvers` (a cross-check: a query
/// holds only when each of them answers unsat; see [`condition_with`]).
pub fn prove_with(c: &Conjecture, solvers: &[SmtSolver]) -> Result<Report> {
    c.validate()?;
    let start = Instant::now();
    let mut conditions = Vec::new();
    for cond in Condition::THEOREM {
        conditions.push(condition_with(c, cond, solvers)?);
    }
    finish(c, Claim::PSet, conditions, start)
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
pub fn prove_subset(c: &Conjecture, solver: &SmtSolver) -> Result<Report> {
    prove_subset_with(c, std::slice::from_ref(solver))
}

/// As [`prove_subset`], with every solver of `solvers` ([`prove_with`]).
pub fn prove_subset_with(c: &Conjecture, solvers: &[SmtSolver]) -> Result<Report> {
    c.validate()?;
    let start = Instant::now();
    let mut conditions = Vec::new();
    for cond in subset_conditions(c.play) {
        conditions.push(condition_with(c, cond, solvers)?);
    }
    finish(c, Claim::Subset, conditions, start)
}

/// The report of the conditions decided for `c`, through the guard.
fn finish(
    c: &Conjecture,
    claim: Claim,
    conditions: Vec<ConditionReport>,
    start: Instant,
) -> Result<Report> {
    let set = OnRuleset::of(c);
    let r = report(
        &set,
        claim.into(),
        "smt",
        c.bits,
        conditions,
        start.elapsed().as_secs_f64(),
    );
    guard(&set, claim.into(), r)
}

/// One condition: its queries in order of circle length, stopping at the first counterexample.
pub fn condition(c: &Conjecture, cond: Condition, solver: &SmtSolver) -> Result<ConditionReport> {
    condition_with(c, cond, std::slice::from_ref(solver))
}

/// One condition decided by every solver of `solvers` in turn: a query holds when each answers
/// unsat; a counterexample from any of them, re-checked by exact search, refutes the condition (and
/// when another solver had answered unsat, the reason names that solver's error); otherwise the
/// condition is unknown with each solver's reason.
pub fn condition_with(
    c: &Conjecture,
    cond: Condition,
    solvers: &[SmtSolver],
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
        let (record, decided) = ask_every(
            q.file_name(c.game.kind),
            solvers,
            &mut report.seconds,
            |solver| solve_small(c, &q, solver),
            |solver, why| {
                if several {
                    format!("{solver}: {why}")
                } else {
                    why
                }
            },
            |values| {
                recheck(
                    &OnRuleset::of(c),
                    // (II) of a families file is about positions outside the set.
                    Says::PSet,
                    q.condition,
                    Stated::Exactly,
                    q.x.len(),
                    values,
                )
            },
        )?;
        report.queries.push(record);
        match decided {
            Decided::Holds => {}
            Decided::Refuted(cx, why) => {
                report.status = Status::Refuted;
                report.counterexample = Some(cx);
                report.reason = why;
                return Ok(report);
            }
            Decided::Unknown(why) => {
                report.status = Status::Unknown;
                report.reason = Some(match c.game.kind {
                    RulesetKind::Cn | RulesetKind::Complex => why,
                    RulesetKind::Scn => format!("{why} (circles of {} piles)", q.len),
                });
            }
        }
    }
    Ok(report)
}

/// What the solvers decided of one query.
pub(crate) enum Decided {
    /// Every solver answered unsat.
    Holds,
    /// A model re-checked by exact search: the counterexample, and when a solver had answered
    /// unsat, a reason naming its error.
    Refuted(Counterexample, Option<String>),
    /// No counterexample, and some solver did not answer unsat (the reasons, joined).
    Unknown(String),
}

/// One query asked of every solver of `solvers` in turn (`solve`), the time added to `seconds`: the
/// record of their answers and what they decide. A satisfiable answer's model goes to `recheck`;
/// the first that re-checks refutes the query; an unknown answer or a model that does not re-check
/// gives a reason (`named` adds the solver's name as the caller wants it).
pub(crate) fn ask_every(
    file: String,
    solvers: &[SmtSolver],
    seconds: &mut f64,
    mut solve: impl FnMut(&SmtSolver) -> Result<(Answer, Duration)>,
    named: impl Fn(&str, String) -> String,
    mut recheck: impl FnMut(&[i128]) -> Result<Checked>,
) -> Result<(QueryRecord, Decided)> {
    let mut record = QueryRecord {
        file,
        answers: Vec::new(),
    };
    let mut reasons = Vec::new();
    let mut refuted = None;
    for solver in solvers {
        let (answer, took) = solve(solver)?;
        *seconds += took.as_secs_f64();
        record.answers.push(SolverAnswer {
            solver: solver.name(),
            answer: answer.word(),
            reason: match &answer {
                Answer::Unknown(why) => Some(why.clone()),
                _ => None,
            },
            seconds: took.as_secs_f64(),
        });
        match answer {
            Answer::Unsat => {}
            Answer::Unknown(why) => reasons.push(named(&solver.name(), why)),
            Answer::Sat(values) => match recheck(&values)? {
                Ok(cx) => {
                    refuted = Some(cx);
                    break;
                }
                Err(why) => reasons.push(why),
            },
        }
    }
    if let Some(cx) = refuted {
        let unsat: Vec<&str> = record
            .answers
            .iter()
            .filter(|a| a.answer == "unsat")
            .map(|a| a.solver.as_str())
            .collect();
        let why = (!unsat.is_empty()).then(|| {
            format!(
                "{} answered unsat, but another solver's counterexample re-checks by exact search: an error of {}",
                unsat.join(" and "),
                if unsat.len() == 1 { "that solver" } else { "those solvers" }
            )
        });
        return Ok((record, Decided::Refuted(cx, why)));
    }
    if reasons.is_empty() {
        Ok((record, Decided::Holds))
    } else {
        Ok((record, Decided::Unknown(reasons.join("; "))))
    }
}

/// Solves `q`; a satisfiable answer with large entries is asked again with every entry of `x` bounded
/// (8, then 32), so that the counterexample is small enough to re-check by enumerating options.
fn solve_small(c: &Conjecture, q: &Query, solver: &SmtSolver) -> Result<(Answer, Duration)> {
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
