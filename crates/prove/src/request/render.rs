//! Text and JSON of a [`ProofResult`], rendered from the result alone.

use super::{ClaimedAs, Decided, ProofResult, ValueSetsReport};
use crate::heaps::HeapsReport;
use crate::{Claim, Condition, ConditionReport, Report, Status};
use nimlab_core::Play;
use serde_json::{json, Value};

/// What condition `c` states, in words.
pub fn says(c: Condition, play: Play) -> &'static str {
    match c {
        Condition::I => "no move joins two members",
        Condition::II => "every non-terminal position outside the set has a move into it",
        Condition::III if play == Play::Misere => "the terminal position is not in the set",
        Condition::III => "the terminal position is in the set",
        Condition::Search => "the verdicts agree with exhaustive search",
        Condition::Closure => {
            "every move from a member reaches a position with a move back into the set"
        }
    }
}

fn line(r: &ConditionReport, play: Play) -> String {
    let head = format!(
        "  ({}) {}: {} ({:.2} s)",
        r.condition.name(),
        says(r.condition, play),
        r.status.name(),
        r.seconds
    );
    let t = nimlab_core::position::format_tuple;
    match (&r.counterexample, r.status) {
        // The exact check on a box contradicted a proof: its reason says so.
        (Some(cx), _) if r.condition == Condition::Search => format!(
            "{head}: {}{}",
            r.reason.as_deref().unwrap_or("exact search disagrees"),
            cx.move_to
                .as_ref()
                .map(|y| format!(" (it moves to {}, a P-position)", t(y)))
                .unwrap_or_default()
        ),
        (Some(cx), _) => match &cx.move_to {
            Some(y) if r.condition == Condition::Closure => format!(
                "{head}: {} is in the set but is an N-position: it moves to {}, a P-position (exact search)",
                t(&cx.position),
                t(y)
            ),
            Some(y) => format!(
                "{head}: {} is in the set and moves to {}, also in the set (re-checked)",
                t(&cx.position),
                t(y)
            ),
            None if r.condition == Condition::III && play == Play::Misere => {
                format!("{head}: {} is in the set (re-checked)", t(&cx.position))
            }
            None if r.condition == Condition::III => {
                format!("{head}: {} is not in the set (re-checked)", t(&cx.position))
            }
            None => format!(
                "{head}: {} is outside the set and none of its options is in it (re-checked over every option)",
                t(&cx.position)
            ),
        },
        (None, Status::Unknown) => {
            format!("{head}: {}", r.reason.as_deref().unwrap_or("no answer"))
        }
        _ => head,
    }
}

/// The verdict's words for a proof of one set.
fn verdict_words(r: &Report, claim: ClaimedAs, unit: &str) -> String {
    let by = if r.method == "automata" {
        " (by automata)"
    } else {
        ""
    };
    match r.verdict {
        Status::Proved if r.bits.is_some() => {
            format!("proved for entries below 2^{}", r.bits.unwrap_or(0))
        }
        Status::Proved if claim == ClaimedAs::NPositions => format!(
            "proved for every {unit} size{by}: every member is an N-position (it moves into the all-odd set)"
        ),
        Status::Proved if r.claim == Claim::Subset => {
            format!("proved for every {unit} size{by}: every member is a P-position")
        }
        Status::Proved => format!("proved for every {unit} size{by}"),
        Status::Refuted => "refuted".into(),
        Status::Unknown
            if r.conditions.iter().any(|c| {
                c.reason
                    .as_deref()
                    .is_some_and(|w| w.starts_with("(C) fails"))
            }) =>
        {
            "unknown (condition (C), which is sufficient but not necessary, fails; the set may still lie inside the P-set)".into()
        }
        Status::Unknown if r.method == "automata" => {
            "unknown (the automata did not finish within the limits for some condition)".into()
        }
        Status::Unknown
            if r.conditions.iter().all(|c| {
                c.status != Status::Unknown
                    || c.reason.as_deref().is_some_and(|w| w.contains("timeout"))
            }) =>
        {
            "unknown (the solver reached its time limit for some condition)".into()
        }
        Status::Unknown => "unknown (some condition is not decided; the reasons follow)".into(),
    }
}

fn conditions_text(r: &Report, claim: ClaimedAs, unit: &str) -> String {
    let play = if r.play == Play::Misere {
        ", misère play"
    } else {
        ""
    };
    let mut out = format!(
        "{}, {}{play}: {} ({:.2} s)\n",
        r.game,
        r.source,
        verdict_words(r, claim, unit),
        r.seconds
    );
    for c in &r.conditions {
        out.push_str(&line(c, r.play));
        out.push('\n');
    }
    if r.solvers.len() > 1 {
        let names: Vec<String> = r
            .solvers
            .iter()
            .map(|(name, version)| format!("{name} ({version})"))
            .collect();
        out.push_str(&format!(
            "  cross-checked: every query was put to {}; proved needs unsat from each\n",
            names.join(" and ")
        ));
    }
    if let Some(b) = &r.box_check {
        out.push_str(&format!(
            "  checked by exact search on {} ({} positions): {}\n",
            b.describe(),
            b.positions,
            match claim {
                ClaimedAs::NPositions => {
                    "every member is an N-position (it moves into the all-odd set)"
                }
                _ if r.claim == Claim::Subset => "every member is a P-position",
                _ => "the set is the P-set there",
            }
        ));
    }
    out
}

fn heaps_text(r: &HeapsReport) -> String {
    let verdict = match r.verdict {
        Status::Proved => "proved for every number of heaps and every heap size (by induction over the heaps; its lemmas by automata)",
        Status::Refuted => "not proved: a lemma of the induction is false",
        Status::Unknown => "unknown (the automata did not finish within the limits for some lemma)",
    };
    let conv = if r.play == Play::Misere {
        ", misère play"
    } else {
        ""
    };
    let mut out = format!(
        "nim, theorem {}{conv}: {verdict} ({:.2} s)\n",
        r.theorem, r.seconds
    );
    for l in &r.lemmas {
        let cx = l
            .counterexample
            .as_ref()
            .map(|v| {
                let v: Vec<String> = v.iter().map(|x| x.to_string()).collect();
                format!(": counterexample ({}) (re-checked)", v.join(", "))
            })
            .or_else(|| l.reason.as_ref().map(|r| format!(": {r}")))
            .unwrap_or_default();
        out.push_str(&format!(
            "  lemma {}: {}: {} ({:.2} s){cx}\n",
            l.lemma.name,
            l.lemma.statement,
            l.status.name(),
            l.seconds
        ));
    }
    out.push_str("  the argument from the lemmas to the theorem (by cases and induction over the heaps, not machine-checked): docs/findings.md, section 10\n");
    out
}

fn value_sets_text(r: &ValueSetsReport) -> String {
    let mut out = String::new();
    for l in &r.lines {
        out.push_str(l);
        out.push('\n');
    }
    out.push_str(&format!(
        "verdict: {} ({:.2} s)\n",
        r.verdict.name(),
        r.seconds
    ));
    out
}

impl ProofResult {
    /// The result as the command line prints it (several lines, each ending in a newline).
    pub fn text(&self) -> String {
        let mut out = String::new();
        if let Some(rule) = &self.rule {
            out.push_str(&format!(
                "the automaton's rule (checked against it): {rule}\n"
            ));
        }
        match &self.decided {
            Decided::Conditions(r) => out.push_str(&conditions_text(r, self.claim, self.unit)),
            Decided::Heaps(h) => out.push_str(&heaps_text(h)),
            Decided::ValueSets(v) => out.push_str(&value_sets_text(v)),
        }
        if !self.states.is_empty() && matches!(self.decided, Decided::Conditions(_)) {
            let sizes: Vec<String> = self
                .states
                .iter()
                .map(|(what, n)| format!("{what} {n}"))
                .collect();
            out.push_str(&format!("  automata (states): {}\n", sizes.join(", ")));
        }
        out
    }

    /// One JSON object: the report's keys, with `claim`, `states` (when automata were built),
    /// `rule` (a readable rule) and `files` (a certificate's files) from the result.
    pub fn to_json(&self) -> Value {
        let mut v = match &self.decided {
            Decided::Conditions(r) => r.to_json(),
            Decided::Heaps(h) => h.to_json(),
            Decided::ValueSets(r) => json!({
                "game": r.game,
                "grundy_value": r.up_to,
                "grundy_bits": r.table_bits,
                "verdict": r.verdict.name(),
                "proved": r.proved,
                "lines": r.lines,
                "seconds": r.seconds,
            }),
        };
        if matches!(self.decided, Decided::Conditions(_)) {
            v["claim"] = json!(self.claim.name());
        }
        if !self.states.is_empty() {
            v["states"] = self
                .states
                .iter()
                .map(|(what, n)| (what.clone(), json!(n)))
                .collect::<serde_json::Map<_, _>>()
                .into();
        }
        if let Some(r) = &self.rule {
            v["rule"] = json!(r);
        }
        if !self.files.is_empty() {
            v["files"] = json!(self
                .files
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>());
        }
        v
    }
}
