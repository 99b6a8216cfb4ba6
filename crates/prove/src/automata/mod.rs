//! Proofs by finite automata, for every entry size, of families that use `xor` (Nim-like sets).
//!
//! A tuple of entries is read in binary, all entries in parallel and the most significant digit
//! first: a word whose letters have one bit per *track* (one track per entry, plus tracks for the
//! option's entries and for auxiliary values). Leading zero letters do not change the tuple, and
//! every automaton here gives the same answer with or without them. Linear relations with integer
//! coefficients, `min`, `max`, `mod` and `xor` (an auxiliary track per value, quantified away) define
//! sets that finite automata recognise — they are *automatic in base 2* — and so do the option
//! relation of a window game (lower stacks inside one window) and the three conditions of the
//! partition theorem, built from them by intersection, complement and projection (an existential
//! quantifier). A condition holds exactly when its automaton accepts no word, which a search over its
//! states decides for every entry size at once; this is the method of the Walnut prover. A
//! counterexample is a shortest accepted word, decoded into a position and re-checked by exact search
//! before it is reported ([`crate::check`]).
//!
//! Covered: CN(n,k) (Nim is CN(n,1)) and the simplicial-complex games (one tuple length, a move
//! lowers stacks inside one facet), every reading rule; and SCN(n,k), one tuple length per circle
//! length, moves that empty piles landing on the shorter circle (`scn.rs`); and Ferguson's chip games
//! ET(k) and ENTROPY(k) for a fixed number of boxes (`chip_conditions.rs`).
//!
//! The module is laid out one job a file: `dfa.rs` is the automaton type and its operations (product,
//! complement, minimisation, projection by the subset construction, shortest witnesses), with the
//! limits of a proof; `compile.rs` turns relations (linear forms, `min`, `max`, `mod`, `xor`,
//! `colsum`) and a window's option relation into automata; `conditions.rs` searches the automata for
//! counterexamples to conditions (I) and (II) ((II) by an antichain search and by pre-images, side by
//! side; the pre-images of each window are built in `window_pre_image.rs`); `rule.rs` recognises rules a person can read (XOR relations, column sums) in an automaton;
//! `scn.rs` does the same for SCN over every circle length (set automata per length, move
//! kinds, pre-images built one pile at a time); `chip_conditions.rs` Ferguson's chip games Empty & Transfer and
//! Entropy Reduction (option relations of each pair of boxes, the P-sets of the results that read
//! binary digits built from their statements, conditions (I)-(III)); `chip_grundy.rs` the sets of the
//! positions of each Grundy value of ET(3) and ENTROPY(3) (exact tables, automata learned from them,
//! each proved by the value equation given the values below it). Every public item is re-exported
//! here.

mod chip_conditions;
#[cfg(test)]
mod chip_conditions_tests;
mod chip_grundy;
mod compile;
mod conditions;
mod dfa;
mod rule;
mod scn;
#[cfg(test)]
mod scn_tests;
#[cfg(test)]
mod tests;
mod window_pre_image;

pub use chip_conditions::{
    all_odd, chip_closure, chip_conditions, chip_winning, domain as chip_domain, entropy3,
    entropy3_misere, equal_valuations, halving, nonterminal as chip_nonterminal, one_or_two_even,
    options as chip_options, pair_options, terminal as chip_terminal,
    theorem_set as chip_theorem_set, witness as chip_witness, ChipConditions, PairOptions, Timed,
    Transfer,
};
pub use chip_grundy::{
    chip_moves, entropy3_value_one, learn_value_set, pre_image, refute, GrundyTable,
    Learned as LearnedValueSet, ValueSetWitness, ValueSets, MAX_GRUNDY_BITS,
};
pub use compile::{family, members, window_options};
pub use conditions::{closure, conditions, conditions_for, Conditions, Move};
pub use dfa::{Budget, Dfa, Stop, MAX_TRACKS};
pub use rule::{readable, Rule};
pub use scn::{
    conditions_for_sets as scn_conditions_for_sets, given_sets as scn_given_sets, kind_pre_image,
    move_kinds, moves_into, sets as scn_sets, MoveKind,
};
