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

/// The positions a slice's cells can reach: each fixed stack at most its value, the two free ones
/// at most `hi` (from `lo`): the product of the bounds, as a float (huge boxes compare without
/// overflow).
pub fn down_set_size(width: usize, lo: u64, hi: u64, fix: &[(usize, u64)]) -> f64 {
    (0..width)
        .map(|i| {
            let top = fix.iter().find(|f| f.0 == i).map_or(hi, |f| f.1);
            (top.saturating_sub(lo) + 1) as f64
        })
        .product()
}

/// How [`slice_by_search`] computed a slice from the positions below it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SliceMethod {
    /// The line engine on the box with one bound per stack below the slice.
    Engine,
    /// The plain memoized search from the slice's cells.
    Search,
}

impl SliceMethod {
    pub fn name(self) -> &'static str {
        match self {
            SliceMethod::Engine => "engine",
            SliceMethod::Search => "search",
        }
    }
}

/// The slice's P-positions from the engine on its down-set (every stack at most its fixed value or
/// `hi`), when the engine covers the game (window games from 0): `None` otherwise. Refused when
/// the down-set's positions pass `budget` or its memory passes what the engines may keep.
fn slice_by_engine(
    game: &dyn Game,
    play: nimlab_core::Play,
    width: usize,
    hi: u64,
    fix: &[(usize, u64)],
    budget: nimlab_core::Budget,
    cancel: Option<&std::sync::atomic::AtomicBool>,
) -> Option<Result<Vec<(u64, u64, u32)>>> {
    let tops: Vec<u64> = (0..width)
        .map(|i| fix.iter().find(|f| f.0 == i).map_or(hi, |f| f.1))
        .collect();
    let bytes = crate::pset::bytes_below(game, &tops, rayon::current_num_threads())?;
    let size = down_set_size(width, 0, hi, fix);
    if size > budget.limit {
        return Some(Err(Error::TooLarge(format!(
            "the positions below this slice of {} number about {size:.1e}, more than the work limit of {:.1e}",
            game.id(),
            budget.limit
        ))));
    }
    if bytes > crate::memory_allowed() {
        return Some(Err(Error::TooLarge(format!(
            "the engine would keep about {:.1} GiB for the positions below this slice of {}, more than the {:.1} GiB allowed",
            bytes / (1u64 << 30) as f64,
            game.id(),
            crate::memory_allowed() / (1u64 << 30) as f64
        ))));
    }
    let (x, y) = free_pair(width, fix)?;
    let mut cells = Vec::new();
    let hooks = nimlab_core::Hooks::new(cancel, None);
    let run = crate::pset::every_p_position_below(game, &tops, play, hooks, &mut |p| {
        if fix.iter().all(|&(i, v)| p[i] == v) {
            cells.push((p[x], p[y], 0));
        }
    })?;
    Some(match run {
        Ok(()) => {
            cells.sort_unstable();
            Ok(cells)
        }
        Err(_) => Err(Error::Interrupted),
    })
}

/// The two stacks a slice leaves free, when exactly two are.
fn free_pair(width: usize, fix: &[(usize, u64)]) -> Option<(usize, usize)> {
    let free: Vec<usize> = (0..width)
        .filter(|i| !fix.iter().any(|f| f.0 == *i))
        .collect();
    (free.len() == 2).then(|| (free[0], free[1]))
}

/// The most positions [`slice_by_search`] searches: its memo holds each position it reaches.
pub const MOST_SEARCHED: f64 = 4.0e6;

/// A slice computed from its cells alone: a move never raises a stack, so every position a cell
/// reaches lies in the box with one bound per stack (the fixed value, or `hi` for the two free
/// stacks), [`down_set_size`] positions, however large the cube `[lo..hi]^width` around it.
/// P-positions in `play` by the line engine on that box where it covers the game (window games
/// from 0), else, and for (`grundy`) every cell's Grundy value in normal play, by the plain
/// memoized search. Refused in one line when exactly two stacks are not left free, when the
/// engine's down-set passes `budget` or the memory allowed, when a searched down-set is above
/// [`MOST_SEARCHED`], or when the search's estimated option visits from the slice's top cell are
/// above `budget`; `cancel` stops it (`Error::Interrupted`).
#[allow(clippy::too_many_arguments)]
pub fn slice_by_search(
    game: &dyn Game,
    play: nimlab_core::Play,
    grundy: bool,
    width: usize,
    lo: u64,
    hi: u64,
    fix: &[(usize, u64)],
    budget: nimlab_core::Budget,
    cancel: Option<&std::sync::atomic::AtomicBool>,
) -> Result<(Slice, SliceMethod)> {
    let Some((x, y)) = free_pair(width, fix) else {
        return Err(Error::Unsupported(format!(
            "a slice is 2-D: fix every stack but two ({} has {width} stacks)",
            game.id()
        )));
    };
    if !grundy && lo == 0 {
        if let Some(cells) = slice_by_engine(game, play, width, hi, fix, budget, cancel) {
            let slice = Slice {
                x,
                y,
                lo,
                hi,
                cells: cells?,
            };
            return Ok((slice, SliceMethod::Engine));
        }
    }
    let size = down_set_size(width, lo, hi, fix);
    if size > MOST_SEARCHED {
        return Err(Error::TooLarge(format!(
            "the positions below this slice of {} number about {size:.1e}, more than the {MOST_SEARCHED:.0e} a search of its cells takes",
            game.id()
        )));
    }
    let mut solver = nimlab_core::Solver::new(game);
    if let Some(c) = cancel {
        solver.set_cancel(c);
    }
    let mut p = vec![hi; width];
    for &(i, v) in fix {
        p[i] = v;
    }
    // The top cell reaches every position of the down-set: its search's estimate bounds them all.
    solver.check_budget(&p, play == nimlab_core::Play::Misere, budget)?;
    let mut cells = Vec::new();
    for a in lo..=hi {
        for b in lo..=hi {
            p[x] = a;
            p[y] = b;
            if grundy {
                let g = solver.grundy(&p)?;
                let g = u32::try_from(g).map_err(|_| {
                    Error::TooLarge(format!("a Grundy value of {} passes 2^32", game.id()))
                })?;
                cells.push((a, b, g));
            } else if solver.outcome(&p, play)? == nimlab_core::Outcome::P {
                cells.push((a, b, 0));
            }
        }
    }
    let slice = Slice {
        x,
        y,
        lo,
        hi,
        cells,
    };
    Ok((slice, SliceMethod::Search))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{self, Bounds, Request, ResumeMode, TableKind, TableMethod};
    use nimlab_core::{Hooks, Play};

    /// The slice of the whole cube's table (the engine) where `fix` holds.
    fn of_the_cube(
        game: &dyn Game,
        max: u64,
        heaps: Option<usize>,
        play: Play,
        grundy: bool,
        fix: &[(usize, u64)],
    ) -> Slice {
        let req = Request {
            bounds: Bounds {
                max: Some(max),
                max_sum: None,
                heaps,
            },
            play,
            kind: if grundy {
                TableKind::Grundy
            } else {
                TableKind::PSet
            },
            method: TableMethod::Auto,
            backend: plan::Backend::Cpu,
            remoteness: false,
            limit: 1e12,
            resume: ResumeMode::Off,
        };
        let p = plan::plan(game, &req).unwrap();
        let ans = plan::run(game, &p, None, Hooks::default()).unwrap();
        slice(game, &p, &ans.solved, fix).unwrap()
    }

    /// The search from the cells alone gives the cube's slice, P-positions in both plays and Grundy
    /// values, for circles, shrinking circles and heaps.
    #[test]
    fn a_slice_by_search_equals_the_slice_of_the_whole_box() {
        #[allow(clippy::type_complexity)]
        let cases: [(&str, u64, Option<usize>, usize, Vec<(usize, u64)>); 4] = [
            ("CN(5,2)", 9, None, 5, vec![(0, 3), (1, 4), (2, 5)]),
            ("CN(4,3)", 11, None, 4, vec![(1, 7), (3, 2)]),
            ("SCN(4,2)", 8, None, 4, vec![(0, 2), (2, 6)]),
            ("nim", 15, Some(3), 3, vec![(0, 5)]),
        ];
        for (name, max, heaps, width, fix) in cases {
            let game = nimlab_games::parse_game(name).unwrap();
            let lo = if name.starts_with("SCN") { 1 } else { 0 };
            for (play, grundy) in [
                (Play::Normal, false),
                (Play::Misere, false),
                (Play::Normal, true),
            ] {
                let want = of_the_cube(game.as_ref(), max, heaps, play, grundy, &fix);
                let (got, method) = slice_by_search(
                    game.as_ref(),
                    play,
                    grundy,
                    width,
                    lo,
                    max,
                    &fix,
                    Default::default(),
                    None,
                )
                .unwrap();
                assert_eq!(got, want, "{name} {play:?} grundy {grundy}");
                // The engine takes P-sets of window games from 0; SCN and Grundy values are
                // searched.
                let engine = !grundy && !name.starts_with("SCN");
                assert_eq!(method == SliceMethod::Engine, engine, "{name} {play:?}");
            }
        }
    }

    #[test]
    fn the_down_set_is_the_product_of_the_bounds() {
        // CN(5,2) with stacks 1-3 at 3, 4, 5 and the others up to 30: 4 * 5 * 6 * 31 * 31.
        assert_eq!(down_set_size(5, 0, 30, &[(0, 3), (1, 4), (2, 5)]), 115320.0);
    }
}
