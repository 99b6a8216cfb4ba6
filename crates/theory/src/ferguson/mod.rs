//! Ferguson's chip-transfer games: every closed form of T. S. Ferguson, *Some Chip Transfer Games*
//! (Theoretical Computer Science 191 (1998); see docs/rules.md#fergusons-chip-transfer-games), as
//! theory entries, one file per game: Empty & Transfer ([`et`]), Empty-All-But-One ([`eabo`]),
//! Empty & Redistribute ([`er`]), Selective-Empty & Redistribute ([`ser`]) and Entropy Reduction
//! ([`entropy`]). Every answer is computed from the box contents with a number of operations
//! polynomial in k and the number of bits, never by enumerating options, so boxes of 10^18 chips are
//! answered at once. Sums are taken in `u128`.
//!
//! A constructed move whose boxes would not fit in 64 bits (possible only when the total number of
//! chips is above `u64::MAX`) is left out of `winning_moves`; the verdict itself is still exact.
//!
//! This file holds the helpers the games share; every public item of the game files is re-exported
//! here, so `ferguson::er_summary`, `ferguson::EtFourBoxes`, ... keep working.

pub mod eabo;
pub mod entropy;
pub mod er;
pub mod et;
pub mod ser;

pub use eabo::{eabo_is_p, eabo_misere_is_p, EaboMisere, EaboNormal};
pub use entropy::{entropy3_is_p, entropy3_misere_is_p, Entropy3Misere, Entropy3Normal};
pub use er::{
    er_f, er_in_s, er_is_p, er_misere_is_p, er_misere_v, er_r_index, er_summary, er_x, ErMisere,
    ErNormal, ErRPart, ErSummary,
};
pub use et::{
    et2_grundy, et2_grundy_binary, et3_is_p, et4_halving, EtAllOdd, EtFourBoxes, EtOneOrTwoEven,
    EtThreeBoxes, EtTwoBoxGrundy,
};
pub use ser::{ser_is_p, SerNormal};

use crate::{Theorem, Verdict};
use nimlab_core::{Game, Pos};
use nimlab_games::{RedistKind, Redistribute};

/// The number of boxes of `game` when it is the redistribution game `kind`.
fn redist_boxes(game: &dyn Game, kind: RedistKind) -> Option<usize> {
    game.downcast_ref::<Redistribute>()
        .filter(|g| g.kind == kind)
        .map(|g| g.k)
}

/// The number of boxes of `game` when it is `EJR(k,j)` with `j = j_of_k(k)`.
fn ejr_boxes(game: &dyn Game, j_of_k: impl Fn(usize) -> usize) -> Option<usize> {
    let g = game.downcast_ref::<Redistribute>()?;
    (g.kind == RedistKind::Ejr(j_of_k(g.k))).then_some(g.k)
}

/// True when `p` has exactly `k` boxes, each with at least one chip.
fn ok_boxes(p: &[u64], k: usize) -> bool {
    p.len() == k && p.iter().all(|&x| x >= 1)
}

fn sorted(p: &[u64]) -> Pos {
    let mut q = p.to_vec();
    q.sort_unstable();
    q
}

fn dedup_sorted(mut moves: Vec<Pos>) -> Vec<Pos> {
    for m in moves.iter_mut() {
        m.sort_unstable();
    }
    moves.sort();
    moves.dedup();
    moves
}

fn total(p: &[u64]) -> u128 {
    p.iter().map(|&x| x as u128).sum()
}

/// The position v^(k-1) z (sorted), or `None` when z does not fit in 64 bits.
fn power_position(k: usize, v: u128, z: u128) -> Option<Pos> {
    let v = u64::try_from(v).ok()?;
    let z = u64::try_from(z).ok()?;
    let mut q = vec![v; k - 1];
    q.push(z);
    q.sort_unstable();
    Some(q)
}

/// The exponent of 2 in `x` (x > 0).
fn v2(x: u64) -> u32 {
    x.trailing_zeros()
}

fn p_verdict(normal: bool) -> Verdict {
    Verdict {
        all_winning_moves: true,
        is_p: true,
        grundy: if normal { Some(0) } else { None },
        winning_moves: Some(Vec::new()),
        ..Default::default()
    }
}

/// An N-verdict. With no move and `all` false (every constructed move had a box past 2^64 - 1, so
/// it cannot be written as a position), the verdict gives no construction (`winning_moves: None`)
/// rather than an empty list, which would read as "no winning move".
fn n_verdict(moves: Vec<Pos>, all: bool, grundy: Option<u64>) -> Verdict {
    Verdict {
        all_winning_moves: all,
        is_p: false,
        grundy: grundy.map(u128::from),
        winning_moves: (all || !moves.is_empty()).then(|| dedup_sorted(moves)),
        ..Default::default()
    }
}

/// Every entry of this module, most specific first.
pub fn entries() -> Vec<Box<dyn Theorem>> {
    vec![
        Box::new(EtTwoBoxGrundy),
        Box::new(EtThreeBoxes),
        Box::new(EtFourBoxes),
        Box::new(EtOneOrTwoEven),
        Box::new(EtAllOdd),
        Box::new(EaboNormal),
        Box::new(EaboMisere),
        Box::new(ErNormal),
        Box::new(ErMisere),
        Box::new(SerNormal),
        Box::new(Entropy3Normal),
        Box::new(Entropy3Misere),
    ]
}
