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
//! Modules: [`expr`] (the relation language), [`arith`] (integers or bit-vectors), [`automata`] (the
//! automata prover), [`learn`] (automata learned from tables), [`walnut`] (Walnut's format), [`conjecture`] (families, membership, the families file
//! and the registry's theorems), [`encode`] (the queries), [`solver`] (the solver process), [`prove`](mod@prove)
//! (running, re-checking, the report), [`prover`] (the one entry: the prover chosen, [`run`]), [`proved`] (the registry entries it proves, for `nimlab theory`), [`heaps`] (Bouton's theorem, normal and misère, for every number of heaps: an induction whose lemmas the automata decide).

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
pub mod proved;
pub mod prover;
pub mod report;
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
        condition, condition_with, emit, portable_name, prove, prove_subset, prove_subset_with,
        prove_with,
    };
}

pub use arith::Arith;
pub use conjecture::{
    from_theorem, from_toml, from_toml_any, Conjecture, Kind, PFamily, ReadingRule, Ruleset,
};
pub use encode::Condition;
pub use prove::{
    emit, portable_name, prove, prove_automata, prove_members, prove_scn_members, prove_subset,
    prove_subset_automata, prove_subset_with, prove_with, BoxCheck, Claim, ConditionReport,
    Counterexample, QueryRecord, Report, SolverAnswer, Status,
};
pub use prover::{run, Format, Proven, Prover};
pub use solver::{Answer, Dialect, Solver};
