//! The report of a proof, whatever its method and its claimed set: the verdict ([`Status`]), what
//! was claimed ([`Claim`]), each condition's answer ([`ConditionReport`]: its counterexample
//! re-checked by exact search, or why it is unknown, and the SMT queries with every solver's
//! answer), the exact check on a box that a "proved" passed ([`BoxCheck`]), and the JSON of
//! `nimlab prove --json` ([`Report::to_json`]).

use nimlab_core::partition::Condition;
use nimlab_core::{Play, Pos};
use serde_json::{json, Value};

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
    /// How the conditions were decided: `"smt"` (the solver) or `"automata"` ([`crate::prove_automata`]).
    pub method: &'static str,
    /// The play convention the conditions were stated for.
    pub play: Play,
    /// The set is the P-set, or lies inside it.
    pub claim: Claim,
    /// The exact search on a small box that a "proved" passed ([`crate::check`]); none otherwise.
    pub box_check: Option<BoxCheck>,
    /// SMT proofs run through [`crate::run`]: each solver's name and the version it reported.
    pub solvers: Vec<(String, String)>,
}

/// The box of the exact check made before a proof is reported: every position with entries in
/// `lo..=hi` (SCN: every circle of at most n piles in `lo..=hi`) and, for games with many stacks,
/// entries summing to at most `max_sum`; `positions` of them. The chip games: every position (as a
/// multiset) with boxes of at least `lo` = 1 and total at most `max_sum` = `hi`; Entropy Reduction:
/// every position with minimum 0 and spread at most `hi` (`max_sum` none).
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

/// Refuted if a condition is, else unknown if a condition is, else proved.
pub(crate) fn verdict_of(conditions: &[ConditionReport]) -> Status {
    if conditions.iter().any(|r| r.status == Status::Refuted) {
        Status::Refuted
    } else if conditions.iter().any(|r| r.status == Status::Unknown) {
        Status::Unknown
    } else {
        Status::Proved
    }
}

/// A condition proved in `seconds`.
pub(crate) fn proved(condition: Condition, seconds: f64) -> ConditionReport {
    ConditionReport {
        condition,
        status: Status::Proved,
        seconds,
        counterexample: None,
        reason: None,
        queries: Vec::new(),
    }
}

/// A condition left unknown after `seconds`, and why.
pub(crate) fn unknown(condition: Condition, seconds: f64, why: String) -> ConditionReport {
    ConditionReport {
        condition,
        status: Status::Unknown,
        seconds,
        counterexample: None,
        reason: Some(why),
        queries: Vec::new(),
    }
}
