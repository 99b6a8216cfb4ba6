//! # nimlab-core
//!
//! The pieces every game family and front end shares:
//!
//! * [`game`]: the [`Game`] trait — positions, options, terminal test, canonical form under the
//!   game's symmetries, optional decomposition into independent parts, parsing and printing;
//! * [`value`]: play conventions, outcomes and the other values of a position;
//! * [`solver`]: an exact memoizing solver over any [`Game`] (Grundy value, normal and misère outcome,
//!   remoteness, winning moves), with an up-front refusal of searches that would not finish;
//! * [`hooks`]: progress and cancellation, one type for every long computation;
//! * [`table`]: bounded tabulation of the P-positions of a whole box;
//! * [`position`]: the shared position syntax.
//!
//! Positions are plain vectors of non-negative integers (`Vec<u64>`); what the numbers mean (stack
//! heights, pile sizes, box contents) is up to each game.

pub mod error;
pub mod game;
pub mod hooks;
pub mod position;
pub mod solver;
pub mod sum;
pub mod table;
pub mod value;

pub use error::{one_line, Error, Result};
pub use game::{
    count_box_union, count_face_options, BoxDomain, Game, Layout, MoveStructure, Pos, Rng,
    TableBound,
};
pub use hooks::Hooks;
pub use solver::{Budget, Solver};
pub use sum::SumGame;
pub use value::{Outcome, Play};
