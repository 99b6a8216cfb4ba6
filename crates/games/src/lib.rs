//! # nimlab-games
//!
//! One module per game family, each implementing [`nimlab_core::Game`]:
//!
//! | module | game | name on the command line |
//! |---|---|---|
//! | [`nim`] | Nim, any number of heaps | `nim` |
//! | [`moore`] | Moore's Nim_k: lower up to k heaps | `moore(k)` |
//! | [`circular`] | Circular Nim CN(n,k) | `CN(n,k)` |
//! | [`shrinking`] | Shrinking Circular Nim SCN(n,k) | `SCN(n,k)` |
//! | [`complex`] | Nim on a simplicial complex; Extended Circular Nim ECN(m,S,k) | `simplicial({1,2},{2,3})`, `ECN(m,{s1,...},k)` |
//! | [`chip`] | Ferguson's chip-transfer games: Empty & Transfer, Empty-All-But-One, Empty & Redistribute, Selective-Empty & Redistribute, Empty-j & Redistribute, Entropy Reduction | `ET(k)`, `EABO(k)`, `ER(k)`, `SER(k)`, `EJR(k,j)`, `ENTROPY(k)` |
//! | [`octal`] | octal and hexadecimal take-and-break games (Guy–Smith codes), finite subtraction games and Grundy's game, on a list of heaps; [`sparse`]: the sparse-space method for their values | `octal(0.07)`, `octal(0.F)`, `subtraction(1,3,4)`, `grundy` |
//! | [`script`] | a game whose options a Rhai script computes | `path/to/game.rhai` |
//!
//! [`registry`] turns a name such as `CN(7,4)` into a game and lists the games for `nimlab games`,
//! `--help` and the web page's menu: adding a game is one module and one registry entry.

pub mod circular;
pub mod complex;
pub mod moore;
pub mod nim;
pub mod octal;
pub mod registry;
pub mod script;
pub mod shrinking;
pub mod sparse;
mod window;

pub use circular::CircularNim;
pub use complex::Complex;
pub use moore::MooreNim;
pub use nim::Nim;
pub use octal::OctalGame;
pub use registry::{catalogue, is_sum, parse_game, parse_sum, GameEntry};
pub use shrinking::ShrinkingCircularNim;

pub mod chip;
pub use chip::{
    format_power, is_chip_game, positions_with_sum_at_most, table_positions, EmptyTransfer,
    EntropyReduction, RedistKind, Redistribute,
};
