//! The move rules of (shrinking) circular games and the search for moves into a union of families:
//! for each window, each set of emptied window piles (shrinking circles only), each family and each
//! reading, the window's stacks are solved for by the `solve` module. The windows are the game's
//! ([`nimlab_core::game::cyclic_windows`], as in `MoveStructure`); legality of a move is the game's
//! `is_option`, not decided here.

use super::relations::{Family, Reading};
use super::solve::{solve_reading, Exhaust};
use nimlab_core::game::cyclic_windows;
use nimlab_core::Pos;
use std::collections::BTreeSet;

/// The move rules of the circle.
#[derive(Debug, Clone, Copy)]
pub struct Rules {
    pub k: usize,
    /// Shrinking Circular Nim: piles are at least 1; emptied piles vanish.
    pub shrinking: bool,
}

/// Most values the exhaustive search of [`find_all_moves`] tries in all before it settles for a
/// partial list.
const ALL_MOVES_BUDGET: u128 = 50_000;

/// Calls `each` with every system a move from `p` gives: the window's surviving stacks as unknowns
/// of each family of the right length under each reading. `each` returns true to stop.
fn for_each_system(fams: &[Family], rules: Rules, p: &[u64], each: &mut dyn FnMut(System) -> bool) {
    let m = p.len();
    let lo: i128 = if rules.shrinking { 1 } else { 0 };
    for w in cyclic_windows(m, rules.k) {
        // Deletion sets: only in shrinking circles.
        let masks = if rules.shrinking { 1u32 << w.len() } else { 1 };
        for mask in 0..masks {
            let deleted: Vec<usize> = (0..w.len())
                .filter(|&j| mask >> j & 1 == 1)
                .map(|j| w[j])
                .collect();
            let m2 = m - deleted.len();
            if !fams.iter().any(|f| f.len == m2) {
                continue;
            }
            let survivors: Vec<usize> = (0..m).filter(|i| !deleted.contains(i)).collect();
            // In the surviving circle: which positions are free, their bounds, fixed values.
            let free: Vec<bool> = survivors.iter().map(|i| w.contains(i)).collect();
            let vals: Vec<u64> = survivors.iter().map(|&i| p[i]).collect();
            for (fi, f) in fams.iter().enumerate() {
                if f.len != m2 {
                    continue;
                }
                if m2 == 0 {
                    // Everything removed: the empty circle, one target.
                    if each(System {
                        family: fi,
                        reading: None,
                        vals: &vals,
                        free: &free,
                        lo,
                        changed: mask != 0,
                    }) {
                        return;
                    }
                    continue;
                }
                for r in Reading::all(m2) {
                    if each(System {
                        family: fi,
                        reading: Some(r),
                        vals: &vals,
                        free: &free,
                        lo,
                        changed: mask != 0,
                    }) {
                        return;
                    }
                }
            }
        }
    }
}

/// One integer system: a family under a reading (none for the empty circle), the surviving stacks'
/// values, which of them the move may lower, their least value, and whether the move already
/// changed the circle (emptied a pile).
struct System<'a> {
    family: usize,
    reading: Option<Reading>,
    vals: &'a [u64],
    free: &'a [bool],
    lo: i128,
    changed: bool,
}

/// Searches a move from `p` into the union of `fams` (checked with `accept`, the whole membership
/// test, before it is returned). Returns the target and the family index.
pub fn find_move(
    fams: &[Family],
    rules: Rules,
    p: &[u64],
    accept: &dyn Fn(&[u64]) -> bool,
) -> Option<(Pos, usize)> {
    let mut out = None;
    for_each_system(fams, rules, p, &mut |s| {
        let Some(r) = s.reading else {
            if accept(&[]) {
                out = Some((Vec::new(), s.family));
            }
            return out.is_some();
        };
        out = solve_reading(
            &fams[s.family],
            r,
            s.vals,
            s.free,
            s.lo,
            s.changed,
            accept,
            None,
        )
        .map(|q| (q, s.family));
        out.is_some()
    });
    out
}

/// Every move from `p` into the union of `fams` (each target checked with `accept`), with true when
/// the list is complete: every integer point of every window's system was tried. The systems are
/// small (at most one unknown per window stack, most of them fixed by the equalities), so the list
/// is usually complete at once; a family that leaves a window stack free over a long range gives
/// too many targets, and the list is then partial (false).
pub fn find_all_moves(
    fams: &[Family],
    rules: Rules,
    p: &[u64],
    accept: &dyn Fn(&[u64]) -> bool,
) -> (Vec<Pos>, bool) {
    let mut all = Exhaust {
        budget: ALL_MOVES_BUDGET,
        complete: true,
        found: Vec::new(),
    };
    let mut empty = false;
    for_each_system(fams, rules, p, &mut |s| {
        match s.reading {
            None => empty |= accept(&[]),
            Some(r) => {
                solve_reading(
                    &fams[s.family],
                    r,
                    s.vals,
                    s.free,
                    s.lo,
                    s.changed,
                    accept,
                    Some(&mut all),
                );
            }
        }
        // Once some system could not be tried in full, the list is partial: stop.
        !all.complete
    });
    let mut targets: BTreeSet<Pos> = all.found.into_iter().collect();
    if empty {
        targets.insert(Vec::new());
    }
    (targets.into_iter().collect(), all.complete)
}
