//! # nimlab-prove
//!
//! Proofs for every stack size. A conjectured P-set of Circular Nim CN(n,k) or Shrinking Circular Nim
//! SCN(n,k), given as a finite union of linear families read under the game's rotations and
//! reflections, is the P-set exactly when the three conditions of the partition theorem hold:
//! (I) no move joins two members, (II) every non-terminal position outside the set has a move into
//! it, (III) the terminal position is in the set. Each condition is a statement of linear integer
//! arithmetic; [`encode`] writes it as SMT-LIB2 queries, [`solver`] runs an external solver (z3) on
//! them, and [`prove()`] turns the answers into a [`Report`]. Unsatisfiable queries prove a condition for
//! all entry sizes; a satisfiable one gives a counterexample that is re-checked with nimlab's own exact
//! search before it is reported.
//!
//! Families that use `xor` are not linear; they are proved in bit-vector arithmetic for entries below
//! 2^w ([`arith`]), and the report says so (`range`), or for every entry size by finite automata
//! reading the entries' binary digits ([`automata`], [`prove_automata`]; CN, Nim, complexes and SCN).
//!
//! A set given directly as an automaton (one track per stack) is proved the same way by
//! [`prove_members`]; [`walnut`] reads and writes such automata in Walnut's text format, and [`learn`]
//! learns one from a table of P-positions.
//!
//! Modules, split by axis. The claimed sets: [`conjecture`] (families of CN, SCN and complexes,
//! membership, the families file and the registry's theorems), [`chips`] (Ferguson's chip games:
//! registry results, chip totals, automata), and the sets given as automata; one trait (`Claimed`,
//! private) is all the checks read of any of them. The methods: [`smt`] (a families file by SMT:
//! [`encode`] writes the queries, [`arith`] in integers or bit-vectors over [`expr`], the relation
//! language, and [`solver`] runs the solver process), [`by_automata`] (the same sets by finite
//! automata, [`automata`]), and for the chip games `chips`'s own query writer over the same solvers
//! and automata. The checks every method and set passes: [`check`] (one exact re-check of
//! counterexamples, one exact guard before "proved"), reported in [`report`]. Around them:
//! [`method`] (the one entry: the prover chosen, [`run`]), [`registry_proofs`] (the registry
//! entries proved, for `nimlab theory`), [`certificate`] (`--emit`), [`learn`] (automata learned
//! from tables), [`walnut`] (Walnut's format), [`heaps`] (Bouton's theorem, normal and misère, for
//! every number of heaps: an induction whose lemmas the automata decide).

pub mod arith;
pub mod automata;
pub mod by_automata;
pub mod certificate;
pub mod check;
#[cfg(test)]
mod check_tests;
pub mod chips;
mod claimed;
pub mod conjecture;
pub mod encode;
pub mod expr;
pub mod heaps;
pub mod learn;
pub mod method;
pub mod registry_proofs;
pub mod report;
pub mod request;
pub mod smt;
pub mod solver;
pub mod walnut;

/// The items of the former module `prove` (running the queries, re-checking, the report), at
/// their old paths: the report in [`report`], the SMT proofs of a families file in [`smt`], the
/// automata proofs in [`by_automata`].
pub mod prove {
    pub use crate::by_automata::{
        prove_automata, prove_members, prove_scn_members, prove_subset_automata,
        AUTOMATA_MAX_STATES,
    };
    pub use crate::report::{
        BoxCheck, Claim, ConditionReport, Counterexample, QueryRecord, Report, SolverAnswer, Status,
    };
    pub use crate::smt::{
        condition, condition_with, emit, prove, prove_subset, prove_subset_with, prove_with,
    };
}

pub use arith::Arith;
pub use conjecture::{
    from_theorem, from_toml, from_toml_any, Conjecture, PFamily, ReadingRule, Ruleset, RulesetKind,
};
pub use encode::Condition;
/// The former name of [`method`].
pub use method as prover;
pub use method::{run, CharacterizationFormat, Proven, Prover};
pub use prove::{
    emit, prove, prove_automata, prove_members, prove_scn_members, prove_subset,
    prove_subset_automata, prove_subset_with, prove_with, BoxCheck, Claim, ConditionReport,
    Counterexample, QueryRecord, Report, SolverAnswer, Status,
};
/// The former name of [`registry_proofs`].
pub use registry_proofs as proved;
pub use request::{ProofGame, ProofResult, ProveRequest, Source};
pub use solver::{Answer, Dialect, SmtSolver};
