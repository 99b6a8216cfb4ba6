//! Proving a chip claim by SMT: each condition's queries ([`super::chip_queries`]; for a set read
//! from its P-totals the lemma `Ia` first) run with every solver given (a query holds only when
//! each answers unsat), each model re-checked by exact search and every "proved" through the guard
//! ([`crate::check`]).

use super::{conditions_of, ChipClaim, ChipQuery};
use crate::check::{guard, recheck, Checked, Stated};
use crate::claimed::report;
use crate::report::{ConditionReport, QueryRecord, Report, SolverAnswer, Status};
use crate::smt::{ask_every, Decided};
use crate::solver::{Answer, SmtSolver};
use nimlab_core::partition::Condition;
use nimlab_core::{Error, Result};
use std::time::Instant;

/// Proves the claim with every solver of `solvers` (each query holds only when each answers unsat).
pub fn prove_chips(c: &ChipClaim, solvers: &[SmtSolver]) -> Result<Report> {
    if solvers.is_empty() {
        return Err(Error::Unsupported("no SMT solver given".into()));
    }
    let start = Instant::now();
    let mut conditions = Vec::new();
    for cond in conditions_of(c) {
        conditions.push(condition(c, cond, solvers)?);
    }
    let mut versions = Vec::new();
    for s in solvers {
        versions.push((s.name(), s.version()?));
    }
    let mut r = report(
        c,
        c.kind.into(),
        "smt",
        c.bits,
        conditions,
        start.elapsed().as_secs_f64(),
    );
    r.solvers = versions;
    guard(c, c.kind.into(), r)
}

fn condition(c: &ChipClaim, cond: Condition, solvers: &[SmtSolver]) -> Result<ConditionReport> {
    let mut report = ConditionReport {
        condition: cond,
        status: Status::Proved,
        seconds: 0.0,
        counterexample: None,
        reason: None,
        queries: Vec::new(),
    };
    for (name, q) in &crate::certificate::chips::named_queries(c, cond)? {
        if q.label == "Ia" {
            // The lemma that implies (I): when every solver answers unsat, (I) is proved; any
            // other answer leaves (I) to its own queries.
            let mut record = QueryRecord {
                file: name.clone(),
                answers: Vec::new(),
            };
            let mut all_unsat = true;
            for solver in solvers {
                let (answer, took) = solver.check_with(&q.body(), q.check(), &q.vars)?;
                report.seconds += took.as_secs_f64();
                all_unsat &= answer == Answer::Unsat;
                record.answers.push(SolverAnswer {
                    solver: solver.name(),
                    answer: answer.word(),
                    reason: None,
                    seconds: took.as_secs_f64(),
                });
            }
            report.queries.push(record);
            if all_unsat {
                return Ok(report);
            }
            continue;
        }
        let (record, decided) = ask_every(
            name.clone(),
            solvers,
            &mut report.seconds,
            |solver| solver.check_with(&q.body(), q.check(), &q.vars),
            |solver, why| format!("{solver}: {why} (query {})", q.label),
            |values| recheck_model(c, q, values),
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
                report.reason = Some(why);
                return Ok(report);
            }
        }
    }
    Ok(report)
}

/// A model of query `q` re-checked ([`recheck`]); a model of IIa is no counterexample: the witness
/// of the norm formula of (II) fails, so (II) is not decided.
fn recheck_model(c: &ChipClaim, q: &ChipQuery, values: &[i128]) -> Result<Checked> {
    if q.label == "IIa" {
        return Ok(Err(format!(
            "the witness of total {} found by search on small totals is not a member: the norm formula of (II) does not hold, so (II) is not decided",
            values.first().copied().unwrap_or(0)
        )));
    }
    let stated = if q.label == "IIb" {
        Stated::ThroughNorms
    } else {
        Stated::Exactly
    };
    recheck(c, c.kind.into(), q.condition, stated, c.game.k, values)
}
