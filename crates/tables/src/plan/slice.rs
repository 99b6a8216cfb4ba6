//! A 2-D slice of a solved box table: every stack but two fixed. What `nimlab plot` draws and the
//! web page's research view shows.

use super::choice::{Domain, Plan};
use super::compute::Solved;
use super::persist::for_each_in_class;
use nimlab_core::{Error, Game, Result};

/// The cells of a slice: the two free stacks (0-based) and, per cell, (x, y, value): the P-positions
/// of the slice (value 0), or every position of it with its Grundy value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slice {
    pub x: usize,
    pub y: usize,
    pub lo: u64,
    pub hi: u64,
    pub cells: Vec<(u64, u64, u32)>,
}

/// The slice of `solved` (the table `plan` planned) where the stacks of `fix` (0-based, value) are
/// fixed; refused in one line unless exactly two stacks of the longest positions stay free.
pub fn slice(game: &dyn Game, plan: &Plan, solved: &Solved, fix: &[(usize, u64)]) -> Result<Slice> {
    let Domain::Box(d) = &plan.domain else {
        return Err(Error::Unsupported(format!(
            "a slice is drawn in a box of stacks; {} is bounded by its chips",
            plan.game
        )));
    };
    let width = d.lengths.iter().copied().max().unwrap_or(0);
    let free: Vec<usize> = (0..width)
        .filter(|i| !fix.iter().any(|f| f.0 == *i))
        .collect();
    if free.len() != 2 {
        return Err(Error::Unsupported(format!(
            "a slice is 2-D: fix every stack but two ({} has {width} stacks, so fix {}, e.g. 1={})",
            plan.game,
            width.saturating_sub(2),
            d.lo
        )));
    }
    let (x, y) = (free[0], free[1]);
    let keeps = |p: &[u64]| p.len() == width && fix.iter().all(|&(i, v)| p[i] == v);
    let mut cells = Vec::new();
    match solved {
        Solved::PSet { .. } => {
            for p in solved.positions() {
                for_each_in_class(game, &p, &mut |q| {
                    if keeps(q) {
                        cells.push((q[x], q[y], 0));
                    }
                });
            }
        }
        Solved::Grundy { values } => {
            let mut i = 0usize;
            plan.for_each_position(&mut |p| {
                if keeps(p) {
                    cells.push((p[x], p[y], u32::from(values[i])));
                }
                i += 1;
            });
        }
    }
    cells.sort_unstable();
    Ok(Slice {
        x,
        y,
        lo: d.lo,
        hi: d.hi,
        cells,
    })
}
