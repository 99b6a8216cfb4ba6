//! # nimlab-research
//!
//! The tools of the papers' method (docs/rules.md, "The partition theorem and verify"), for
//! researchers:
//!
//! * [`domain`]: the bounded set of positions a question is asked over (a box, or a bound on chips);
//! * [`conjecture`]: a user's predicate `fn is_p(p)` written in Rhai;
//! * [`verify`]: conditions (I)–(III) of the partition theorem over a bounded set, with counterexamples;
//! * [`patterns`]: the P-positions of a box grouped by shape, with the linear relations each family obeys.

pub mod conjecture;
pub mod domain;
pub mod patterns;
pub mod verify;
