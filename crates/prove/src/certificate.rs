//! A proof that others can check without nimlab (`nimlab prove --emit DIR`): the bundle holds every
//! SMT query as an SMT-LIB 2 file (its logic set; one query states the negation of one condition on
//! one circle length), the characterization, a `manifest.json` (game, claim, play, the files, each
//! query with the answer each solver gave and the solver's version, the box of the exact check) and a
//! `README.md` that says which commands re-check it and what each must answer. An automata proof
//! writes its set automaton in Walnut's format instead of queries.

use crate::conjecture::{Conjecture, Kind};
use crate::encode::queries;
use crate::prove::{portable_name, Claim, Report, Status};
use nimlab_core::{Error, Play, Result};
use serde_json::{json, Value};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// The characterization as the bundle keeps it.
pub enum Characterization<'a> {
    /// A families file: its text, copied as `characterization.toml`.
    File(&'a str),
    /// A result of nimlab's registry: its families listed in `characterization.txt`.
    Registry,
}

/// Writes the manifest, the README and the characterization of the proof `report` of `c` into
/// `dir` (where [`crate::emit`] wrote the queries); for an automata proof of CN or a complex, also
/// the set automaton (`members.walnut`). Returns the paths written.
pub fn write(
    c: &Conjecture,
    report: &Report,
    dir: &Path,
    characterization: Characterization,
) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::io(format!("creating {}", dir.display()), e))?;
    let mut written = Vec::new();
    let mut put = |name: &str, text: &str| -> Result<()> {
        let path = dir.join(name);
        std::fs::write(&path, text)
            .map_err(|e| Error::io(format!("writing {}", path.display()), e))?;
        written.push(path);
        Ok(())
    };
    let char_file = match characterization {
        Characterization::File(text) => {
            put("characterization.toml", text)?;
            "characterization.toml"
        }
        Characterization::Registry => {
            put("characterization.txt", &families_text(c))?;
            "characterization.txt"
        }
    };
    let mut automaton = None;
    if report.method == "automata" && c.game.kind != Kind::Scn {
        let budget = crate::automata::Budget::new(
            std::time::Instant::now() + std::time::Duration::from_secs(60),
            crate::prove::AUTOMATA_MAX_STATES,
        );
        if let Ok(d) = crate::automata::members(c, c.game.n, &budget) {
            put("members.walnut", &crate::walnut::to_walnut(&d))?;
            automaton = Some("members.walnut");
        }
    }
    let manifest = manifest(c, report, char_file, automaton)?;
    put(
        "manifest.json",
        &serde_json::to_string_pretty(&manifest).unwrap_or_default(),
    )?;
    put("README.md", &readme(c, report, char_file, automaton))?;
    Ok(written)
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

fn manifest(
    c: &Conjecture,
    report: &Report,
    characterization: &str,
    automaton: Option<&str>,
) -> Result<Value> {
    let mut conditions = Vec::new();
    for r in &report.conditions {
        let stated = if r.queries.is_empty() {
            Vec::new()
        } else {
            queries(c, r.condition)?
        };
        let qs: Vec<Value> = r
            .queries
            .iter()
            .map(|q| {
                let query = stated.iter().find(|x| x.file_name(c.game.kind) == q.file);
                let portable = query
                    .filter(|x| x.check.trim() != "(check-sat)")
                    .map(|_| portable_name(&q.file));
                json!({
                    "file": q.file,
                    "file_for_other_solvers": portable,
                    "states": query.map(|x| x.states.clone()),
                    "logic": query.map(|x| x.logic()),
                    "expected": "unsat",
                    "answers": q.answers.iter().map(|a| json!({
                        "solver": a.solver,
                        "answer": a.answer,
                        "reason": a.reason,
                        "seconds": a.seconds,
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        conditions.push(json!({
            "condition": r.condition.name(),
            "status": r.status.name(),
            "reason": r.reason,
            "queries": qs,
        }));
    }
    Ok(json!({
        "format": "nimlab proof certificate 1",
        "nimlab": env!("CARGO_PKG_VERSION"),
        "game": report.game,
        "claim": report.claim.name(),
        "play": report.play.name(),
        "source": report.source,
        "range": report.range(),
        "method": report.method,
        "verdict": report.verdict.name(),
        "characterization": characterization,
        "automaton": automaton,
        "solvers": report.solvers.iter().map(|(name, version)| json!({
            "name": name,
            "version": version,
            "command": command(name, "FILE"),
        })).collect::<Vec<_>>(),
        "box_check": report.box_check.as_ref().map(|b| json!({
            "lo": b.lo, "hi": b.hi, "max_sum": b.max_sum, "positions": b.positions,
        })),
        "conditions": conditions,
    }))
}

/// The command that runs solver `name` on a query file.
fn command(name: &str, file: &str) -> String {
    match crate::solver::Dialect::of(Path::new(name)) {
        crate::solver::Dialect::Z3 => format!("z3 -smt2 {file}"),
        crate::solver::Dialect::Cvc5 => format!("cvc5 --lang=smt2 {file}"),
        crate::solver::Dialect::Other => format!("{name} < {file}"),
    }
}

fn readme(
    c: &Conjecture,
    report: &Report,
    characterization: &str,
    automaton: Option<&str>,
) -> String {
    let mut s = String::new();
    let claim = match report.claim {
        Claim::PSet => "is exactly the set of P-positions",
        Claim::Subset => "lies inside the set of P-positions (every member is a P-position)",
    };
    let _ = writeln!(
        s,
        "# Proof certificate: {}, {}\n",
        report.game, report.source
    );
    let _ = writeln!(
        s,
        "Claim: in {} ({} play) the set described in `{characterization}` {claim}, for {}.\n",
        report.game,
        report.play.name(),
        match report.bits {
            None => "every stack size".to_string(),
            Some(w) => format!("every position whose entries are below 2^{w}"),
        }
    );
    let _ = writeln!(
        s,
        "nimlab's verdict: **{}** (method: {}). `manifest.json` lists every file, what each query states, and what each solver answered.\n",
        report.verdict.name(),
        report.method
    );
    if report.method == "automata" {
        let _ = writeln!(
            s,
            "This proof was decided by nimlab's automata prover (finite automata reading the entries' binary digits), not by SMT queries: there is no query to re-run with a solver. {}\n",
            match automaton {
                Some(f) => format!("The set automaton is in `{f}` (Walnut's text format: one msd_2 input per stack, most significant digit first), for inspection or for re-proving the conditions in Walnut."),
                None => "The set automata of SCN are not written here.".to_string(),
            }
        );
    } else {
        let _ = writeln!(
            s,
            "## How to re-check it without nimlab\n\nEach `.smt2` file is one query in SMT-LIB 2 (its logic is set in the file): it states that the condition it names FAILS somewhere, so the condition holds exactly when the solver answers `unsat`. Run each query file listed in `manifest.json` with either solver:\n\n    z3 -smt2 FILE\n    cvc5 --lang=smt2 FILE\n\nEvery query must print `unsat`. Where a file asks z3 for `(check-sat-using qsat)` (quantified bit-vectors), `manifest.json` names a second file (`….check-sat.smt2`) with plain `(check-sat)` for other solvers.\n"
        );
        let why = match (report.claim, report.play) {
            (Claim::PSet, Play::Normal) => "(I) no move joins two members, (II) every non-terminal position outside the set has a move into it, (III) the terminal position is in the set. By the partition theorem (Dufour, Heubach & Vo 2021, Theorem 1; Albert, Nowakowski & Wolfe, Lessons in Play, Theorem 2.13), a set with (I)-(III) is the set of P-positions.",
            (Claim::PSet, Play::Misere) => "(I) no move joins two members, (II) every non-terminal position outside the set has a move into it, (III) no terminal position is in the set. In misère play these make the set the set of P-positions (the same induction as the partition theorem, with the terminal positions on the other side).",
            (Claim::Subset, _) => "(C) every move from a member reaches a position that has a move back into the set (in misère play a terminal option needs none), and in misère play (III) no terminal position is a member. By induction on the positions, every member is then a P-position.",
        };
        let _ = writeln!(s, "## What the conditions mean\n\n{why}\n");
    }
    if let Some(b) = &report.box_check {
        let _ = writeln!(
            s,
            "Before reporting the proof, nimlab also compared the set with the P-positions found by exact search on {} ({} positions){}.\n",
            b.describe(),
            b.positions,
            if c.game.kind == Kind::Scn {
                ", circles of every length up to n"
            } else {
                ""
            }
        );
    }
    if report.verdict != Status::Proved {
        let _ = writeln!(
            s,
            "The verdict is not \"proved\": this bundle records what was decided; see `manifest.json` for each condition."
        );
    }
    s
}
