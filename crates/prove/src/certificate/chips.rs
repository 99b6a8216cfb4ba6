//! The certificates of Ferguson's chip games: the SMT queries of a registry result or of a chip
//! families file ([`of_chips`]), and a registry result proved by automata ([`of_chip_automata`]).
//! [`named_queries`] is the one place a chip query's file is named: the prover's report and the
//! certificate both take the names from it.

use super::{about_report, with_answers, Certificate, ConditionEntry, File, QueryEntry, Role};
use crate::chips::{
    chip_queries, conditions_of, ChipAutomataProof, ChipClaim, ChipKind, ChipQuery,
};
use crate::prove::{Report, SolverAnswer, Status};
use nimlab_core::partition::Condition;
use nimlab_core::{Play, Result};
use serde_json::json;

/// The queries of condition `cond` of `c` in the order the prover runs them, each with the name of
/// its file (in the report and the certificate alike): for a set read from its P-totals, first the
/// lemma of (I) (`Ia-0.smt2`), then `LABEL-i.smt2` for the i-th query of the condition
/// (`I-0.smt2`, `I-1.smt2`, `IIa-0.smt2`, `IIb-1.smt2`, `III-0.smt2`).
pub fn named_queries(c: &ChipClaim, cond: Condition) -> Result<Vec<(String, ChipQuery)>> {
    let mut out = Vec::new();
    if let (Condition::I, Some(t)) = (cond, &c.totals) {
        let q = crate::chips::totals::lemma_i(c, t);
        out.push((format!("{}-0.smt2", q.label), q));
    }
    for (i, q) in chip_queries(c, cond)?.into_iter().enumerate() {
        out.push((format!("{}-{i}.smt2", q.label), q));
    }
    Ok(out)
}

fn entry(c: &ChipClaim, name: &str, q: &ChipQuery, answers: Vec<SolverAnswer>) -> QueryEntry {
    QueryEntry {
        file: name.to_string(),
        text: q.script(&c.game.id(), c.play),
        z3_check: (q.check() != "(check-sat)").then(|| q.check().to_string()),
        states: q.states.clone(),
        logic: q.logic().into(),
        answers,
    }
}

/// What the claim says, in the README's words.
fn claimed(c: &ChipClaim) -> &'static str {
    match c.kind {
        ChipKind::PSet => "is exactly the set of P-positions",
        ChipKind::Subset => "lies inside the set of P-positions (every member is a P-position)",
        ChipKind::Winning => {
            "holds only N-positions (every member has a move into the all-odd set, whose members are P-positions)"
        }
    }
}

/// The certificate of the SMT proof `report` of the chip claim `c` (`None`: every query of the
/// claim, not run): the queries of each condition ([`named_queries`]) with every solver's answer
/// (a proved condition's queries, or every query of a condition not proved: `with_answers`;
/// when the lemma Ia proves (I), (I)'s own queries are not run and not kept), and
/// `characterization.txt`: `families`, the text of the chip families file the claim was read
/// from, or else the set as the queries define it.
pub fn of_chips(
    c: &ChipClaim,
    report: Option<&Report>,
    families: Option<&str>,
) -> Result<Certificate> {
    let mut conditions = Vec::new();
    match report {
        Some(r) => {
            for cr in &r.conditions {
                let named = match cr.condition {
                    Condition::Search => Vec::new(),
                    cond => named_queries(c, cond)?,
                };
                let qs = with_answers(cr, named.iter().map(|(n, q)| (n.clone(), (n, q))))?
                    .into_iter()
                    .map(|((name, q), answers)| entry(c, name, q, answers))
                    .collect();
                conditions.push(ConditionEntry::of(cr, qs));
            }
        }
        None => {
            for cond in conditions_of(c) {
                conditions.push(ConditionEntry {
                    condition: cond.name(),
                    status: None,
                    reason: None,
                    counterexample: None,
                    queries: named_queries(c, cond)?
                        .iter()
                        .map(|(name, q)| entry(c, name, q, Vec::new()))
                        .collect(),
                });
            }
        }
    }
    let game = c.game.id();
    let characterization = match families {
        Some(text) => File {
            name: "characterization.txt".into(),
            role: Role::Characterization,
            text: text.into(),
            about: "the chip families file the claim was read from (`nimlab prove GAME --families characterization.txt` proves it again)".into(),
        },
        None => File {
            name: "characterization.txt".into(),
            role: Role::Characterization,
            text: set_text(c),
            about: "the set, as every query defines it".into(),
        },
    };
    let mut about = match report {
        Some(r) => about_report(r),
        None => vec![
            ("game".to_string(), json!(game)),
            (
                "claim".into(),
                json!(match c.kind {
                    ChipKind::PSet => "P-set",
                    _ => "subset",
                }),
            ),
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
    if c.kind == ChipKind::Winning {
        set(&mut about, "claim", json!("N-positions"));
    }
    about.push(("characterization".into(), json!("characterization.txt")));
    let mut summary = vec![format!(
        "Claim: in {game} ({} play) the set of {} (`characterization.txt`) {}, for {}.",
        c.play.name(),
        c.source,
        claimed(c),
        match c.bits {
            None => "every box size".to_string(),
            Some(w) => format!("every position whose boxes hold fewer than 2^{w} chips"),
        }
    )];
    summary.push(match report {
        Some(r) => format!(
            "nimlab's verdict: **{}** (method: smt). `manifest.json` lists every file, what each query states, and what each solver answered.",
            r.verdict.name()
        ),
        None => "These are the queries of the claim as nimlab states them; they were not run (no verdict is recorded).".into(),
    });
    let mut notes = vec![format!(
        "## What the queries mean\n\nEach query is in {}; it states the negation of one condition for every box size, so `unsat` proves that condition. {}",
        if c.bits.is_some() {
            "bit-vector arithmetic"
        } else {
            "linear integer arithmetic"
        },
        conditions_words(c)
    )];
    let labels: Vec<&str> = conditions
        .iter()
        .flat_map(|e: &ConditionEntry| &e.queries)
        .map(|q| q.file.as_str())
        .collect();
    if labels
        .iter()
        .any(|f| f.starts_with("IIa-") || f.starts_with("IIb-"))
    {
        notes.push("Queries IIa and IIb together state condition (II): IIa that every total n with phi(n) is the total of the member w(n), IIb that every non-terminal position outside the set keeps such a total.".into());
    }
    if labels.iter().any(|f| f.starts_with("Ia-")) {
        notes.push(format!(
            "Query Ia is a lemma that implies condition (I): that every member's total is in T{}. A move keeps some boxes, and its option's total is the total of a set of boxes the move kept, which for a member is never in T; so no member moves to a member. When every solver answers unsat to Ia, (I) is proved and its own queries I-0, ... are not run; otherwise they decide it.",
            c.totals
                .as_ref()
                .map(|t| format!(" ({})", t.words()))
                .unwrap_or_default()
        ));
    }
    if let Some(b) = report.and_then(|r| r.box_check.as_ref()) {
        notes.push(format!(
            "Before reporting the proof, nimlab also compared the set with exact search on {} ({} positions).",
            b.describe(),
            b.positions
        ));
    }
    if report.is_some_and(|r| r.verdict != Status::Proved) {
        notes.push("The verdict is not \"proved\": this bundle records what was decided; see `manifest.json` for each condition.".into());
    }
    Ok(Certificate {
        title: format!("{game}, {}", c.source),
        about,
        summary,
        notes,
        files: vec![characterization],
        conditions,
    })
}

/// Replaces the value of `key` in `about` (or adds it).
fn set(about: &mut Vec<(String, serde_json::Value)>, key: &str, v: serde_json::Value) {
    match about.iter_mut().find(|(k, _)| k == key) {
        Some(slot) => slot.1 = v,
        None => about.push((key.into(), v)),
    }
}

/// The conditions of the claim, in words.
fn conditions_words(c: &ChipClaim) -> &'static str {
    match (c.kind, c.play) {
        (ChipKind::PSet, Play::Normal) => "(I) no move joins two members, (II) every non-terminal position outside the set has a move into it, (III) every terminal position is in the set: by the partition theorem the set is then the set of P-positions.",
        (ChipKind::PSet, Play::Misere) => "(I) no move joins two members, (II) every non-terminal position outside the set has a move into it, (III) no terminal position is in the set: in misère play the set is then the set of P-positions.",
        (ChipKind::Subset, _) => "(C) every move from a member reaches a position with a move back into the set (in misère play a terminal option needs none), and in misère play (III) no terminal position is a member: by induction every member is then a P-position.",
        (ChipKind::Winning, _) => "(II) every member has a move into the target set (the all-odd set), whose members are P-positions: every member is then an N-position.",
    }
}

/// The set of a registry claim as the queries define it (`define-fun member`).
fn set_text(c: &ChipClaim) -> String {
    let k = c.game.k;
    let mut s = format!(
        "; {}, {} play: {}\n; The set, as every query of this certificate defines it: (member x0 ... x{}) holds exactly for the positions of the set, box i holding x_i chips.\n",
        c.game.id(),
        c.play.name(),
        c.source,
        k - 1
    );
    if let Some(t) = &c.totals {
        s.push_str(&format!("; P-totals: {}\n", t.words()));
    }
    s.push_str(&c.set.define("member", k));
    if let Some(t) = &c.target {
        s.push_str("; The target set (every member moves into it):\n");
        s.push_str(&t.define("target", k));
    }
    s
}

/// The certificate of the chip result `id` proved by automata: the set automaton in Walnut's text
/// format (`set.txt`), the report with the automata's numbers of states.
pub fn of_chip_automata(id: &str, c: &ChipClaim, proof: &ChipAutomataProof) -> Certificate {
    let r = &proof.report;
    let mut about = about_report(r);
    if c.kind == ChipKind::Winning {
        set(&mut about, "claim", json!("N-positions"));
    }
    about.push((
        "states".into(),
        proof
            .states
            .iter()
            .map(|(what, n)| (what.to_string(), json!(n)))
            .collect::<serde_json::Map<_, _>>()
            .into(),
    ));
    let mut files = Vec::new();
    if let Some(set) = &proof.set {
        files.push(File {
            name: "set.txt".into(),
            role: Role::Automaton,
            text: crate::walnut::to_walnut(set),
            about: "the set of the result as an automaton in Walnut's text format".into(),
        });
    }
    about.push((
        "automaton".into(),
        json!(proof.set.as_ref().map(|_| "set.txt")),
    ));
    let summary = vec![
        format!(
            "Claim: in {} ({} play) the set of {id} {}, for every box size. nimlab's verdict: **{}** (method: automata).",
            c.game.id(),
            c.play.name(),
            claimed(c),
            r.verdict.name()
        ),
        format!(
            "`set.txt` is the set of the result as an automaton in Walnut's text format: one msd_2 input per box (input i = box i), read in binary, most significant digit first; it accepts a position exactly when the result puts it in its set (ET: every box at least 1; Entropy: entries at least 0, every position being a translate of one of these). nimlab built it from the result's statement and decided the conditions in `manifest.json` on it for every box size (verdict {}); a condition holds when the automaton of its counterexamples accepts nothing. The option relations are linear: ET, empty box i and move chips of box j into it: y_i + y_j = x_j, y_i >= 1, y_j >= 1, the other boxes equal; Entropy, move chips from box i to box j: y_i + y_j = x_i + x_j, x_j + 1 <= y_j <= x_i - 1, the other boxes equal. With Walnut, the conditions can be stated again on `set.txt` with these relations.{}",
            r.verdict.name(),
            if proof.set.is_none() {
                " (The automaton was not built in time: it is not in this bundle.)"
            } else {
                ""
            }
        ),
    ];
    Certificate {
        title: format!(
            "{id} on {}, {} play, by automata",
            c.game.id(),
            c.play.name()
        ),
        about,
        summary,
        notes: Vec::new(),
        files,
        conditions: r
            .conditions
            .iter()
            .map(|cr| ConditionEntry::of(cr, Vec::new()))
            .collect(),
    }
}
