//! A proof that others can check without nimlab (`nimlab prove --emit DIR`), written by one writer
//! for every claim and method. A route describes its proof as a [`Certificate`] (the files with
//! their roles, each query with the answer of every solver that decided it, the characterization)
//! through one builder: [`of_box`] (CN, SCN and the complexes, by SMT or automata), [`chips`]
//! (Ferguson's chip games: a registry result or a chip families file by SMT, a registry result by
//! automata) and [`values`] (the Grundy value sets of ET(3) and ENTROPY(3)); [`Certificate::write`]
//! writes the files, `README.md`, the re-check script `check.sh` and `manifest.json`, which names
//! every other file with its role and SHA-256.
//!
//! Every `.smt2` file is plain SMT-LIB 2: its logic set, ending with `(check-sat)`, so that any
//! solver reads it. Where the prover ran z3 with its own command (`(check-sat-using qsat)` for
//! quantified bit-vectors, a tactic for the chip games' quantifier-free queries), the same query
//! ending with that command is a second file for z3 only, `NAME.z3` ([`z3_name`]).
//!
//! `check.sh` (POSIX sh, `sha256sum`, z3 and, when installed, cvc5) checks every file's hash, runs
//! every query and compares each answer with the one the manifest records; any difference makes
//! it exit with status 1. To keep it free of a JSON parser, `manifest.json` writes each file entry
//! and each query on one line with its keys in a fixed order (`layout.rs`).

mod boxes;
pub mod chips;
mod layout;
pub mod values;

pub use boxes::{of_box, Characterization};

use crate::prove::{ConditionReport, Counterexample, Report, SolverAnswer, Status};
use layout::Out;
use nimlab_core::{Error, Result};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// What a file of a certificate is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// One query in plain SMT-LIB 2 (ends with `(check-sat)`).
    Query,
    /// The same query for z3 only, ending with the command z3 was run with.
    Z3Query,
    /// The set the proof is about: a families file, a chip families file, or the registry's
    /// families in words.
    Characterization,
    /// An automaton in Walnut's text format.
    Automaton,
    /// `README.md`.
    Readme,
    /// `check.sh`.
    CheckScript,
}

impl Role {
    pub fn name(self) -> &'static str {
        match self {
            Role::Query => "query",
            Role::Z3Query => "query-z3",
            Role::Characterization => "characterization",
            Role::Automaton => "automaton",
            Role::Readme => "readme",
            Role::CheckScript => "check-script",
        }
    }
}

/// A file of the certificate other than a query: its name, role, text and what it holds (a line of
/// the README).
#[derive(Debug, Clone)]
pub struct File {
    pub name: String,
    pub role: Role,
    pub text: String,
    pub about: String,
}

/// One query: its file, its plain SMT-LIB 2 text (ending with `(check-sat)`), z3's own command
/// when the prover ran z3 with another one, and what every solver answered (none when it was not
/// run).
#[derive(Debug, Clone)]
pub struct QueryEntry {
    pub file: String,
    pub text: String,
    pub z3_check: Option<String>,
    pub states: String,
    pub logic: String,
    pub answers: Vec<SolverAnswer>,
}

impl QueryEntry {
    /// The answer of the query as the prover took it: `sat` when some solver found a model,
    /// `unsat` when every solver answered unsat, `unknown` otherwise; `None` when not run.
    pub fn answer(&self) -> Option<&'static str> {
        if self.answers.is_empty() {
            None
        } else if self.answers.iter().any(|a| a.answer == "sat") {
            Some("sat")
        } else if self.answers.iter().all(|a| a.answer == "unsat") {
            Some("unsat")
        } else {
            Some("unknown")
        }
    }

    /// The z3-only file, when there is one.
    pub fn z3_file(&self) -> Option<String> {
        self.z3_check.as_ref().map(|_| z3_name(&self.file))
    }

    /// The text of the z3-only file: the query with z3's command in place of `(check-sat)`.
    fn z3_text(&self) -> Option<String> {
        let check = self.z3_check.as_ref()?;
        let mut s = format!(
            "; For z3 only: the query of {} with the command the prover ran z3 with, {check}.\n",
            self.file
        );
        // The plain file's comment naming z3's command is left out: here it is the command.
        for line in self.text.lines().filter(|l| !l.starts_with(Z3_COMMENT)) {
            s.push_str(if line.trim() == "(check-sat)" {
                check
            } else {
                line
            });
            s.push('\n');
        }
        Some(s)
    }
}

/// How a plain query's comment names the command z3 decides it with (`encode`, `chips`).
pub const Z3_COMMENT: &str = "; z3 decides it with ";

/// The z3-only file of the query in `file`: `I-0.smt2` -> `I-0.z3`.
pub fn z3_name(file: &str) -> String {
    format!("{}.z3", file.strip_suffix(".smt2").unwrap_or(file))
}

/// A condition of the proof: its status and, for an SMT proof, the queries that decided it.
#[derive(Debug, Clone)]
pub struct ConditionEntry {
    /// `I`, `II`, `III`, `C`, `search`.
    pub condition: &'static str,
    pub status: Option<&'static str>,
    pub reason: Option<String>,
    pub counterexample: Option<Counterexample>,
    pub queries: Vec<QueryEntry>,
}

impl ConditionEntry {
    /// The entry of a condition of a report, with its queries.
    pub fn of(r: &ConditionReport, queries: Vec<QueryEntry>) -> ConditionEntry {
        ConditionEntry {
            condition: r.condition.name(),
            status: Some(r.status.name()),
            reason: r.reason.clone(),
            counterexample: r.counterexample.clone(),
            queries,
        }
    }
}

/// The queries of a condition (`stated`: each with its file name, and what the builder keeps of
/// it) that the certificate holds, each with the answers the report `r` records for it: for a
/// proved condition the queries that proved it; for one not proved every query, those not reached
/// (after a counterexample) without answers, for a reader to run. A record whose file is not among
/// the queries is an internal error, so that the report and the certificate cannot name different
/// files.
pub(crate) fn with_answers<T>(
    r: &ConditionReport,
    stated: impl Iterator<Item = (String, T)>,
) -> Result<Vec<(T, Vec<SolverAnswer>)>> {
    let stated: Vec<(String, T)> = stated.collect();
    for rec in &r.queries {
        if !stated.iter().any(|(name, _)| *name == rec.file) {
            return Err(Error::Unsupported(format!(
                "internal error: the report's query {} is not a query of condition ({})",
                rec.file,
                r.condition.name()
            )));
        }
    }
    Ok(stated
        .into_iter()
        .filter_map(|(name, q)| {
            let rec = r.queries.iter().find(|rec| rec.file == name);
            if rec.is_none() && r.status == Status::Proved {
                return None;
            }
            Some((q, rec.map(|rec| rec.answers.clone()).unwrap_or_default()))
        })
        .collect())
}

/// A proof certificate, as a route describes it: [`Certificate::write`] writes it.
#[derive(Debug, Clone)]
pub struct Certificate {
    /// The README's title (after "Proof certificate: ").
    pub title: String,
    /// The manifest's fields about the proof (game, claim, play, verdict, ...), in order.
    pub about: Vec<(String, Value)>,
    /// The README's paragraphs before the list of files: the claim, the verdict.
    pub summary: Vec<String>,
    /// The README's paragraphs after the instructions: what the conditions mean, the exact check.
    pub notes: Vec<String>,
    /// The files other than the queries (the characterization, automata).
    pub files: Vec<File>,
    /// The conditions, each with its queries (none for an automata proof).
    pub conditions: Vec<ConditionEntry>,
}

/// The fields of the manifest that every proof with a [`Report`] has.
pub fn about_report(r: &Report) -> Vec<(String, Value)> {
    let mut about = vec![
        ("game".to_string(), json!(r.game)),
        ("claim".into(), json!(r.claim.name())),
        ("play".into(), json!(r.play.name())),
        ("source".into(), json!(r.source)),
        ("range".into(), json!(r.range())),
        ("method".into(), json!(r.method)),
        ("verdict".into(), json!(r.verdict.name())),
    ];
    about.push((
        "solvers".into(),
        r.solvers
            .iter()
            .map(|(name, version)| {
                json!({
                    "name": name,
                    "version": version,
                    "command": command(name, "FILE"),
                })
            })
            .collect::<Vec<_>>()
            .into(),
    ));
    about.push((
        "box_check".into(),
        json!(r.box_check.as_ref().map(|b| json!({
            "lo": b.lo, "hi": b.hi, "max_sum": b.max_sum, "positions": b.positions,
        }))),
    ));
    about
}

/// The command that runs solver `name` on a query file.
fn command(name: &str, file: &str) -> String {
    match crate::solver::Dialect::of(Path::new(name)) {
        crate::solver::Dialect::Z3 => format!("z3 -smt2 {file}"),
        crate::solver::Dialect::Cvc5 => format!("cvc5 --lang=smt2 {file}"),
        crate::solver::Dialect::Other => format!("{name} < {file}"),
    }
}

/// The names the writer gives its own files.
const OWN: [&str; 3] = ["manifest.json", "README.md", "check.sh"];

/// True when `text` is plain SMT-LIB 2 as a certificate keeps it: every command outside comments
/// is standard (no `check-sat-using`), and its last command is `(check-sat)`.
pub fn is_plain(text: &str) -> bool {
    let commands: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with(';'))
        .collect();
    !commands.iter().any(|l| l.contains("check-sat-using"))
        && commands.last() == Some(&"(check-sat)")
}

impl Certificate {
    /// Every file of the certificate but `manifest.json`, in the order they are written: the
    /// queries (each followed by its z3-only file), the other files, `README.md` and `check.sh`.
    fn all_files(&self) -> Result<Vec<File>> {
        let mut out = Vec::new();
        for c in &self.conditions {
            for q in &c.queries {
                if !is_plain(&q.text) {
                    return Err(Error::Unsupported(format!(
                        "internal error: the query {} is not plain SMT-LIB 2 ending with (check-sat)",
                        q.file
                    )));
                }
                out.push(File {
                    name: q.file.clone(),
                    role: Role::Query,
                    text: q.text.clone(),
                    about: format!("condition ({}): {}", c.condition, q.states),
                });
                if let (Some(name), Some(text)) = (q.z3_file(), q.z3_text()) {
                    out.push(File {
                        name,
                        role: Role::Z3Query,
                        text,
                        about: format!(
                            "the same query for z3 only (`{}`)",
                            q.z3_check.as_deref().unwrap_or_default()
                        ),
                    });
                }
            }
        }
        out.extend(self.files.iter().cloned());
        out.push(File {
            name: "README.md".into(),
            role: Role::Readme,
            text: self.readme(),
            about: "this file".into(),
        });
        out.push(File {
            name: "check.sh".into(),
            role: Role::CheckScript,
            text: CHECK_SH.into(),
            about: "the re-check script".into(),
        });
        let mut seen = std::collections::BTreeSet::new();
        for f in &out {
            let safe = !f.name.is_empty()
                && f.name
                    .chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || "-_.".contains(ch));
            if !safe || f.name == "manifest.json" || !seen.insert(f.name.clone()) {
                return Err(Error::Unsupported(format!(
                    "internal error: the certificate's file name {:?} is repeated or not plain",
                    f.name
                )));
            }
            if f.role != Role::Readme
                && f.role != Role::CheckScript
                && OWN.contains(&f.name.as_str())
            {
                return Err(Error::Unsupported(format!(
                    "internal error: {} is a name the certificate writer keeps for itself",
                    f.name
                )));
            }
        }
        Ok(out)
    }

    /// Writes every file and `manifest.json` into `dir` (created when missing); returns the paths
    /// written, `manifest.json` last.
    pub fn write(&self, dir: &Path) -> Result<Vec<PathBuf>> {
        let files = self.all_files()?;
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::io(format!("creating {}", dir.display()), e))?;
        let mut written = Vec::new();
        for f in &files {
            let path = dir.join(&f.name);
            std::fs::write(&path, &f.text)
                .map_err(|e| Error::io(format!("writing {}", path.display()), e))?;
            #[cfg(unix)]
            if f.role == Role::CheckScript {
                use std::os::unix::fs::PermissionsExt;
                let _ = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755));
            }
            written.push(path);
        }
        let path = dir.join("manifest.json");
        std::fs::write(&path, self.manifest(&files))
            .map_err(|e| Error::io(format!("writing {}", path.display()), e))?;
        written.push(path);
        Ok(written)
    }

    /// The text of `manifest.json`.
    fn manifest(&self, files: &[File]) -> String {
        let mut top: Vec<(String, Out)> = vec![
            (
                "format".into(),
                Out::value(json!("nimlab proof certificate 2")),
            ),
            (
                "nimlab".into(),
                Out::value(json!(env!("CARGO_PKG_VERSION"))),
            ),
        ];
        for (k, v) in &self.about {
            top.push((k.clone(), Out::value(v.clone())));
        }
        top.push((
            "files".into(),
            Out::List(
                files
                    .iter()
                    .map(|f| {
                        Out::line(vec![
                            ("file", Out::value(json!(f.name))),
                            ("role", Out::value(json!(f.role.name()))),
                            ("sha256", Out::value(json!(sha256(&f.text)))),
                        ])
                    })
                    .collect(),
            ),
        ));
        let conditions = self
            .conditions
            .iter()
            .map(|c| {
                Out::Obj(vec![
                    ("condition".into(), Out::value(json!(c.condition))),
                    ("status".into(), Out::value(json!(c.status))),
                    ("reason".into(), Out::value(json!(c.reason))),
                    (
                        "counterexample".into(),
                        Out::value(json!(c.counterexample.as_ref().map(|x| json!({
                            "position": x.position,
                            "move_to": x.move_to,
                        })))),
                    ),
                    (
                        "queries".into(),
                        Out::List(c.queries.iter().map(query_line).collect()),
                    ),
                ])
            })
            .collect();
        top.push(("conditions".into(), Out::List(conditions)));
        let mut s = String::new();
        Out::Obj(top).print(0, &mut s);
        s.push('\n');
        s
    }

    /// The text of `README.md`.
    fn readme(&self) -> String {
        let mut s = format!("# Proof certificate: {}\n\n", self.title);
        for p in &self.summary {
            let _ = writeln!(s, "{p}\n");
        }
        let queries: Vec<&QueryEntry> = self.conditions.iter().flat_map(|c| &c.queries).collect();
        let _ = writeln!(s, "## Files\n");
        for c in &self.conditions {
            for q in &c.queries {
                let answered = if q.answers.is_empty() {
                    "not run by nimlab".to_string()
                } else {
                    let each: Vec<String> = q
                        .answers
                        .iter()
                        .map(|a| format!("{} {}", a.solver, a.answer))
                        .collect();
                    format!("answered {}", each.join(", "))
                };
                let _ = writeln!(
                    s,
                    "- `{}`: condition ({}), satisfiable exactly when {}; {answered}",
                    q.file, c.condition, q.states
                );
                if let Some(z) = q.z3_file() {
                    let _ = writeln!(
                        s,
                        "- `{z}`: the same query for z3 only, ending with `{}`, the command nimlab ran z3 with",
                        q.z3_check.as_deref().unwrap_or_default()
                    );
                }
            }
        }
        for f in &self.files {
            let _ = writeln!(s, "- `{}`: {}", f.name, f.about);
        }
        let _ = writeln!(
            s,
            "- `manifest.json`: what was proved and how; every other file with its role and SHA-256{}\n- `check.sh`: the re-check script\n",
            if queries.is_empty() {
                ""
            } else {
                "; every query with the answer of each solver that decided it"
            }
        );
        let _ = writeln!(s, "## How to re-check it without nimlab\n");
        if queries.is_empty() {
            let _ = writeln!(
                s,
                "Run\n\n    sh check.sh\n\nin this folder (it needs a POSIX shell and `sha256sum`). It checks the SHA-256 of every file that `manifest.json` names, so that a changed file fails, and exits with status 0 when all agree, 1 otherwise. This proof has no SMT query: what the automata are and how to re-prove the conditions on them is said above and below.\n"
            );
        } else {
            let _ = writeln!(
                s,
                "Run\n\n    sh check.sh\n\nin this folder (it needs a POSIX shell, `sha256sum`, and z3 or cvc5 on the PATH; the variables Z3 and CVC5 name other executables, CHECK_TIMEOUT the seconds per query, 120 by default, where the `timeout` command exists). It checks the SHA-256 of every file that `manifest.json` names, so that a changed file fails; then it runs every query with z3 and with cvc5 when installed, and compares each answer with the one `manifest.json` records for that solver (for a solver that did not decide the query, a definite answer must agree with the query's recorded answer; a query nimlab did not run, recorded without an answer, is not run). It names every file that differs and exits with status 0 when all agree, 1 otherwise.\n\nBy hand: each `.smt2` file is one query in plain SMT-LIB 2 (its logic set, ending with `(check-sat)`); it states that the condition it names FAILS somewhere, so the condition holds exactly when the solver answers `unsat`. Run it with either solver:\n\n    z3 -smt2 FILE\n    cvc5 --lang=smt2 FILE\n"
            );
            if queries.iter().any(|q| q.z3_check.is_some()) {
                let _ = writeln!(
                    s,
                    "Where nimlab ran z3 with a command of its own (`(check-sat-using ...)`: z3's quantifier elimination for quantified bit-vectors, or a tactic that decides the chip games' queries faster), the file `NAME.z3` holds the same query ending with that command, for z3 only (`z3 -smt2 NAME.z3`); `check.sh` gives z3 that file.\n"
                );
            }
        }
        for p in &self.notes {
            let _ = writeln!(s, "{p}\n");
        }
        s
    }
}

/// One query as one line of the manifest (the keys in the order `check.sh` reads them).
fn query_line(q: &QueryEntry) -> Out {
    let v = Out::value;
    Out::line(vec![
        ("file", v(json!(q.file))),
        ("z3_file", v(json!(q.z3_file()))),
        ("answer", v(json!(q.answer()))),
        ("expected", v(json!("unsat"))),
        (
            "answers",
            Out::List(
                q.answers
                    .iter()
                    .map(|a| {
                        Out::Obj(vec![
                            ("solver".into(), v(json!(a.solver))),
                            ("answer".into(), v(json!(a.answer))),
                            ("reason".into(), v(json!(a.reason))),
                            (
                                "seconds".into(),
                                v(json!((a.seconds * 1000.0).round() / 1000.0)),
                            ),
                        ])
                    })
                    .collect(),
            ),
        ),
        ("logic", v(json!(q.logic))),
        ("states", v(json!(q.states))),
    ])
}

/// The SHA-256 of `text`, in hex.
pub fn sha256(text: &str) -> String {
    let d = Sha256::digest(text.as_bytes());
    let mut s = String::with_capacity(64);
    for b in d {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// The re-check script (see the module notes; the README says how to run it).
const CHECK_SH: &str = include_str!("certificate/check.sh");
