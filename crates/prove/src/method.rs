//! One entry for every front end (the CLI, Python, discover): the prover as a typed choice
//! ([`Prover`]: SMT solvers, one or a cross-check, or finite automata) and [`run`], which proves a
//! characterization's claim (the P-set, or a set inside it) with it. Front ends only translate their
//! options into a [`Prover`] ([`Prover::from_options`]).
//!
//! A new prover method is a new variant here, a function that returns a [`Report`] for each
//! [`Claim`], and a line in [`run`]; every report then passes the same exact check on a box before
//! it may say "proved" ([`crate::check`]).

use crate::by_automata::{prove_automata, prove_subset_automata};
use crate::conjecture::Conjecture;
use crate::report::{Claim, Report};
use crate::smt::{prove_subset_with, prove_with};
use crate::solver::{Dialect, SmtSolver};
use nimlab_core::{Error, Result};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How the conditions are decided.
#[derive(Debug, Clone)]
pub enum Prover {
    /// SMT: every query is decided by each solver in turn, and holds only when each answers unsat
    /// (one solver, or several for a cross-check); each query has the solver's own time limit.
    Smt(Vec<SmtSolver>),
    /// Finite automata on the entries' binary digits, with a time limit for the whole run.
    Automata(Duration),
}

impl Prover {
    /// From a front end's options: `automata` (the automata prover, time limit `timeout` for the
    /// run), else the SMT solver `solver` with `timeout` per query; `cross_check` adds the other of
    /// z3 and cvc5 (both when `solver` is neither), so that "proved" needs every solver's unsat.
    pub fn from_options(
        automata: bool,
        solver: &Path,
        cross_check: bool,
        timeout: Duration,
    ) -> Result<Prover> {
        if automata {
            if cross_check {
                return Err(Error::refused(
                    nimlab_core::Refusal::new("")
                        .given(nimlab_core::Arg::CrossCheck)
                        .text(" runs a second SMT solver; the automata prover uses none: give one of ")
                        .given(nimlab_core::Arg::Automata)
                        .text(" and ")
                        .given(nimlab_core::Arg::CrossCheck),
                ));
            }
            return Ok(Prover::Automata(timeout));
        }
        let mut solvers = vec![SmtSolver::new(solver, timeout)];
        if cross_check {
            let others: &[&str] = match Dialect::of(solver) {
                Dialect::Z3 => &["cvc5"],
                Dialect::Cvc5 => &["z3"],
                Dialect::Other => &["z3", "cvc5"],
            };
            solvers.extend(
                others
                    .iter()
                    .map(|name| SmtSolver::new(PathBuf::from(name), timeout)),
            );
        }
        Ok(Prover::Smt(solvers))
    }

    /// `smt` or `automata`, as reports name their method.
    pub fn method(&self) -> &'static str {
        match self {
            Prover::Smt(_) => "smt",
            Prover::Automata(_) => "automata",
        }
    }
}

/// Proves `claim` about `c`'s set with `prover`; the report names the solvers and their versions.
pub fn run(c: &Conjecture, claim: Claim, prover: &Prover) -> Result<Report> {
    match prover {
        Prover::Smt(solvers) => {
            let mut versions = Vec::new();
            for s in solvers {
                versions.push((s.name(), s.version()?));
            }
            let mut r = match claim {
                Claim::PSet => prove_with(c, solvers)?,
                Claim::Subset => prove_subset_with(c, solvers)?,
            };
            r.solvers = versions;
            Ok(r)
        }
        Prover::Automata(timeout) => match claim {
            Claim::PSet => prove_automata(c, *timeout),
            Claim::Subset => prove_subset_automata(c, *timeout),
        },
    }
}

/// How a characterization is written: a families file or an automaton (Walnut's format; SCN: one
/// per circle length). The store keeps proved characterizations with their format's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CharacterizationFormat {
    /// A families file (TOML).
    Families,
    /// An automaton in Walnut's text format, one msd_2 input per stack.
    Automaton,
}

impl CharacterizationFormat {
    pub fn name(self) -> &'static str {
        match self {
            CharacterizationFormat::Families => "families",
            CharacterizationFormat::Automaton => "automaton",
        }
    }

    pub fn parse(s: &str) -> Option<CharacterizationFormat> {
        match s {
            "families" => Some(CharacterizationFormat::Families),
            "automaton" => Some(CharacterizationFormat::Automaton),
            _ => None,
        }
    }
}

/// A characterization proved for every size, as discover hands it to the store: its format, its
/// text, and the method that proved it (`smt` or `automata`).
#[derive(Debug, Clone, Copy)]
pub struct Proven<'a> {
    pub format: CharacterizationFormat,
    pub text: &'a str,
    pub method: &'static str,
}
