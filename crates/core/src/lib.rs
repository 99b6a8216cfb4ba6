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
//! * [`interrupt`]: a front end's Ctrl-C for computations without hooks (a thread's cancel scope);
//! * [`table`]: bounded tabulation of the P-positions of a whole box;
//! * [`partition`]: the conditions of the partition theorem, the checks of a conjectured P-set;
//! * [`position`]: the shared position syntax;
//! * [`arg`]: typed refusals that name a request's options, spelled by each front end.
//!
//! Positions are plain vectors of non-negative integers (`Vec<u64>`); what the numbers mean (stack
//! heights, pile sizes, box contents) is up to each game.

pub mod arg;
pub mod error;
pub mod game;
pub mod hooks;
pub mod interrupt;
pub mod partition;
pub mod position;
pub mod solver;
pub mod sum;
pub mod table;
pub mod value;

pub use arg::{Arg, Refusal};
pub use error::{one_line, Error, Result};
pub use game::{
    count_box_union, count_face_options, BoxDomain, Game, Layout, MoveStructure, Pos, Rng,
    TableBound,
};
pub use hooks::Hooks;
pub use solver::{Budget, Solver};
pub use sum::SumGame;
pub use value::{Outcome, Play};

/// `n` and `word`, with an `s` unless `n` is 1: `plural(1, "move")` is "1 move", `plural(3, "move")`
/// "3 moves". For words whose plural is not a plain `s`, give both forms with [`plural_of`].
pub fn plural(n: impl std::fmt::Display, word: &str) -> String {
    let n = n.to_string();
    format!("{n} {word}{}", if n == "1" { "" } else { "s" })
}

/// `n` and the singular or plural form: `plural_of(2, "family", "families")` is "2 families".
pub fn plural_of(n: impl std::fmt::Display, one: &str, many: &str) -> String {
    let n = n.to_string();
    format!("{n} {}", if n == "1" { one } else { many })
}

#[cfg(test)]
mod plural_tests {
    #[test]
    fn one_is_singular_and_the_rest_plural() {
        assert_eq!(super::plural(1u64, "move"), "1 move");
        assert_eq!(super::plural(0u64, "move"), "0 moves");
        assert_eq!(super::plural(12u32, "position"), "12 positions");
        assert_eq!(super::plural_of(1u64, "family", "families"), "1 family");
        assert_eq!(super::plural_of(5u64, "family", "families"), "5 families");
    }
}
