//! The bounded set of positions a research question is asked over.
//!
//! Every move lowers some coordinate (CN, SCN, Nim, Moore) or keeps the total number of chips from
//! growing (chip games; max − min for Entropy Reduction), so the options of a position of the set stay in
//! the set, and answers computed inside it are exact.

use nimlab_core::{Arg, Error, Game, Pos, Refusal, Result};
use nimlab_games::chip;

/// Largest set accepted (positions).
pub const MAX_POSITIONS: f64 = 3e7;

/// The bound of a question: `--max H` (entries), `--max-sum S` (chip games), `--heaps N` (length for
/// games that take any number of heaps).
#[derive(Debug, Clone, Copy, Default)]
pub struct Bound {
    pub max: Option<u64>,
    pub max_sum: Option<u64>,
    pub heaps: Option<usize>,
}

impl Bound {
    /// A short description, e.g. `--max 5`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(m) = self.max {
            parts.push(format!("--max {m}"));
        }
        if let Some(s) = self.max_sum {
            parts.push(format!("--max-sum {s}"));
        }
        if let Some(h) = self.heaps {
            parts.push(format!("--heaps {h}"));
        }
        parts.join(" ")
    }
}

/// Every position of the bounded set (all ordered tuples of a box; the sorted multisets of a chip game).
pub fn positions(game: &dyn Game, bound: Bound) -> Result<Vec<Pos>> {
    if chip::is_chip_game(game) {
        let b = if game.table_bound() == nimlab_core::TableBound::Spread {
            bound.max.ok_or_else(|| {
                Error::refused(
                    Refusal::new(format!("{} needs ", game.id()))
                        .given(Arg::Max)
                        .text(" (the largest max - min)"),
                )
            })?
        } else {
            bound.max_sum.ok_or_else(|| {
                Error::refused(
                    Refusal::new(format!("{} needs ", game.id()))
                        .given(Arg::MaxSum)
                        .text(" (the most chips in all)"),
                )
            })?
        };
        if b > 400 {
            return Err(Error::TooLarge(format!(
                "bound {b} is too large for a search over every position; use at most 400"
            )));
        }
        return Ok(chip::table_positions(game, b).unwrap_or_default());
    }
    let hi = bound.max.ok_or_else(|| {
        Error::refused(
            Refusal::new(format!("{} needs ", game.id()))
                .given(Arg::Max)
                .text(" (the largest entry of the box)"),
        )
    })?;
    let d = game.table_domain(hi, bound.heaps)?;
    if d.size_f64() > MAX_POSITIONS {
        return Err(Error::too_large(
            Refusal::new(format!(
                "the box holds {:.2e} positions, more than the {MAX_POSITIONS:.0e} accepted here; use a smaller ",
                d.size_f64()
            ))
            .name(Arg::Max),
        ));
    }
    let mut out = Vec::new();
    for &m in &d.lengths {
        let mut p = vec![d.lo; m];
        loop {
            out.push(p.clone());
            if !next_tuple(&mut p, d.lo, d.hi) {
                break;
            }
        }
    }
    Ok(out)
}

/// Steps `p` to the next tuple in lexicographic order (last entry fastest); false after the last one.
fn next_tuple(p: &mut [u64], lo: u64, hi: u64) -> bool {
    for i in (0..p.len()).rev() {
        if p[i] < hi {
            p[i] += 1;
            return true;
        }
        p[i] = lo;
    }
    false
}
