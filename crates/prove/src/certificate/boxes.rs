//! The certificate of a proof about CN, SCN or a complex: the SMT queries that decided it (or, for
//! an automata proof of CN or a complex, the set automaton) and the characterization.

use super::{about_report, with_answers, Certificate, ConditionEntry, File, QueryEntry, Role};
use crate::conjecture::{Conjecture, RulesetKind};
use crate::encode::{queries, Condition, Query};
use crate::prove::{Claim, Report, Status};
use nimlab_core::{Play, Result};
use serde_json::json;
use std::fmt::Write;

/// The characterization as the bundle keeps it.
pub enum Characterization<'a> {
    /// A families file: its text, copied as `characterization.toml`.
    File(&'a str),
    /// A result of nimlab's registry: its families listed in `characterization.txt`.
    Registry,
}

/// The query as the certificate keeps it: plain SMT-LIB 2, with z3's own command kept apart.
fn entry(c: &Conjecture, q: &Query, answers: Vec<crate::prove::SolverAnswer>) -> QueryEntry {
    QueryEntry {
        file: q.file_name(c.game.kind),
        text: q.script(c),
        z3_check: (q.check.trim() != "(check-sat)").then(|| q.check.trim().to_string()),
        states: q.states.clone(),
        logic: q.logic().into(),
        answers,
    }
}

/// The certificate of the proof `report` of `claim` about `c` (`None`: the queries of the claim
/// only, not run): the queries of each condition with each solver's answer (a proved condition's
/// queries, or every query of a condition not proved: `with_answers`), the characterization, and for an automata proof of CN or a complex the set automaton
/// (`members.walnut`).
pub fn of_box(
    c: &Conjecture,
    claim: Claim,
    report: Option<&Report>,
    characterization: Characterization,
) -> Result<Certificate> {
    let mut conditions = Vec::new();
    match report {
        Some(r) => {
            for cr in &r.conditions {
                let stated = match cr.condition {
                    Condition::Search => Vec::new(),
                    cond => queries(c, cond)?,
                };
                let qs = with_answers(cr, stated.iter().map(|q| (q.file_name(c.game.kind), q)))?
                    .into_iter()
                    .map(|(q, answers)| entry(c, q, answers))
                    .collect();
                conditions.push(ConditionEntry::of(cr, qs));
            }
        }
        None => {
            let conds = match claim {
                Claim::PSet => Condition::THEOREM.to_vec(),
                Claim::Subset => crate::smt::subset_conditions(c.play),
            };
            for cond in conds {
                conditions.push(ConditionEntry {
                    condition: cond.name(),
                    status: None,
                    reason: None,
                    counterexample: None,
                    queries: queries(c, cond)?
                        .iter()
                        .map(|q| entry(c, q, Vec::new()))
                        .collect(),
                });
            }
        }
    }
    let mut files = Vec::new();
    let char_file = match characterization {
        Characterization::File(text) => {
            files.push(File {
                name: "characterization.toml".into(),
                role: Role::Characterization,
                text: text.into(),
                about: "the families file the proof is about".into(),
            });
            "characterization.toml"
        }
        Characterization::Registry => {
            files.push(File {
                name: "characterization.txt".into(),
                role: Role::Characterization,
                text: families_text(c),
                about: "the families of the result, one a line".into(),
            });
            "characterization.txt"
        }
    };
    let method = report.map_or("smt", |r| r.method);
    let mut automaton = None;
    if method == "automata" && c.game.kind != RulesetKind::Scn {
        let budget = crate::automata::Budget::new(
            std::time::Instant::now() + std::time::Duration::from_secs(60),
            crate::prove::AUTOMATA_MAX_STATES,
        );
        if let Ok(d) = crate::automata::members(c, c.game.n, &budget) {
            files.push(File {
                name: "members.walnut".into(),
                role: Role::Automaton,
                text: crate::walnut::to_walnut(&d),
                about: "the set as an automaton in Walnut's text format (one msd_2 input per stack, most significant digit first)".into(),
            });
            automaton = Some("members.walnut");
        }
    }
    let mut about = match report {
        Some(r) => about_report(r),
        None => vec![
            ("game".to_string(), json!(c.game.id())),
            ("claim".into(), json!(claim.name())),
            ("play".into(), json!(c.play.name())),
            ("source".into(), json!(c.source)),
            (
                "range".into(),
                json!(match c.bits {
                    None => "all".to_string(),
                    Some(w) => format!("entries < 2^{w}"),
                }),
            ),
            ("method".into(), json!("smt")),
            ("verdict".into(), json!(null)),
        ],
    };
    about.push(("characterization".into(), json!(char_file)));
    about.push(("automaton".into(), json!(automaton)));
    let (summary, notes) = readme(c, claim, report, char_file, automaton);
    Ok(Certificate {
        title: format!("{}, {}", c.game.id(), c.source),
        about,
        summary,
        notes,
        files,
        conditions,
    })
}

/// The families of `c`, one per line, for a registry result.
fn families_text(c: &Conjecture) -> String {
    let mut s = format!(
        "{} ({}), {} play: the set is the union of these families, each read under {}.\n",
        c.game.id(),
        c.source,
        c.play.name(),
        c.reading_words()
    );
    for f in &c.families {
        let _ = writeln!(s, "{}", f.describe());
    }
    s
}

/// The README's paragraphs before the files and after the instructions.
fn readme(
    c: &Conjecture,
    claim: Claim,
    report: Option<&Report>,
    characterization: &str,
    automaton: Option<&str>,
) -> (Vec<String>, Vec<String>) {
    let mut summary = Vec::new();
    let mut notes = Vec::new();
    let claimed = match claim {
        Claim::PSet => "is exactly the set of P-positions",
        Claim::Subset => "lies inside the set of P-positions (every member is a P-position)",
    };
    summary.push(format!(
        "Claim: in {} ({} play) the set described in `{characterization}` {claimed}, for {}.",
        c.game.id(),
        c.play.name(),
        match c.bits {
            None => "every stack size".to_string(),
            Some(w) => format!("every position whose entries are below 2^{w}"),
        }
    ));
    match report {
        Some(r) => summary.push(format!(
            "nimlab's verdict: **{}** (method: {}). `manifest.json` lists every file, what each query states, and what each solver answered.",
            r.verdict.name(),
            r.method
        )),
        None => summary.push(
            "These are the queries of the claim as nimlab states them; they were not run (no verdict is recorded).".into(),
        ),
    }
    if report.is_some_and(|r| r.method == "automata") {
        summary.push(format!(
            "This proof was decided by nimlab's automata prover (finite automata reading the entries' binary digits), not by SMT queries: there is no query to re-run with a solver. {}",
            match automaton {
                Some(f) => format!("The set automaton is in `{f}` (Walnut's text format: one msd_2 input per stack, most significant digit first), for inspection or for re-proving the conditions in Walnut."),
                None => "The set automata of SCN are not written here.".to_string(),
            }
        ));
    } else {
        let why = match (claim, c.play) {
            (Claim::PSet, Play::Normal) => "(I) no move joins two members, (II) every non-terminal position outside the set has a move into it, (III) the terminal position is in the set. By the partition theorem (Dufour, Heubach & Vo 2021, Theorem 1; Albert, Nowakowski & Wolfe, Lessons in Play, Theorem 2.13), a set with (I)-(III) is the set of P-positions.",
            (Claim::PSet, Play::Misere) => "(I) no move joins two members, (II) every non-terminal position outside the set has a move into it, (III) no terminal position is in the set. In misère play these make the set the set of P-positions (the same induction as the partition theorem, with the terminal positions on the other side).",
            (Claim::Subset, _) => "(C) every move from a member reaches a position that has a move back into the set (in misère play a terminal option needs none), and in misère play (III) no terminal position is a member. By induction on the positions, every member is then a P-position.",
        };
        notes.push(format!("## What the conditions mean\n\n{why}"));
    }
    if let Some(b) = report.and_then(|r| r.box_check.as_ref()) {
        notes.push(format!(
            "Before reporting the proof, nimlab also compared the set with the P-positions found by exact search on {} ({} positions){}.",
            b.describe(),
            b.positions,
            if c.game.kind == RulesetKind::Scn {
                ", circles of every length up to n"
            } else {
                ""
            }
        ));
    }
    if report.is_some_and(|r| r.verdict != Status::Proved) {
        notes.push(
            "The verdict is not \"proved\": this bundle records what was decided; see `manifest.json` for each condition.".into(),
        );
    }
    (summary, notes)
}
