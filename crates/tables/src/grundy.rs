//! Grundy values of every position of a box, for window games (CN, Nim, Moore's Nim).
//!
//! For a window `w` let `G_w(p)` be the set of Grundy values of the positions `q <= p` that agree
//! with `p` outside `w`. The values of the options of `p` are `U_{w, i in w, p_i > 0} G_w(p - e_i)`,
//! `g(p)` is their mex, and `G_w(p) = {g(p)} U U_{i in w, p_i > 0} G_w(p - e_i)`: a few word
//! operations per (window, axis of the window) instead of one per option. Sets are bit sets of
//! `64 * words` values; when a value does not fit, the sets are widened where they are (none holds a
//! value that did not fit, so no work is lost) and the diagonal in progress is computed again.
//!
//! Blocks fix the two outermost axes; the blocks of one anti-diagonal run in parallel and only two
//! diagonals of blocks are kept, as in [`crate::lines`]; with a symmetry of the game that swaps the
//! two outermost axes, one block of each mirror pair ([`crate::lines::use_symmetry`]).
//!
//! One job a file: `geometry` lays out the blocks, the windows' look-ups and the symmetry, `kernel`
//! runs the recurrence over one block, `sweep` schedules the diagonals (wider sets, checkpoints),
//! and `shrinking` adds SCN's moves that empty piles, one circle length at a time.

use crate::checkpoint::{self as ck, Layer, Saver};
use crate::lines::{Hooks, Interrupted, Resume, Stop};
use crate::values::Values;
use geometry::Geometry;
use std::io::{self, Write};

mod geometry;
mod kernel;
mod shrinking;
mod sorted;
mod sweep;
pub use shrinking::{shrinking_memory, solve_shrinking, solve_shrinking_resumable};
#[cfg_attr(not(feature = "gpu"), allow(unused_imports))]
pub(crate) use shrinking::{shrinking_on, Length, Start};

/// A value did not fit in the sets.
struct Overflow;

/// Words of the largest value sets: values up to 65535, the largest a table stores.
const MAX_WORDS: usize = 1024;

/// A guess of the words of the value sets a box needs before running it: values up to `m * r` (the
/// largest values seen in the engine's games stay below that).
pub fn likely_words(m: usize, r: usize) -> usize {
    ((m * r) / 64 + 1).min(MAX_WORDS)
}

/// Bytes a Grundy table of the window game on `[0..r)^m` keeps on the CPU with value sets of `words`
/// words and `threads` threads: every value (two bytes a position, in memory) and the engine's value
/// sets ([`windows_sets_memory`]).
pub fn windows_memory(
    m: usize,
    r: usize,
    windows: &[Vec<usize>],
    words: usize,
    threads: usize,
) -> f64 {
    2.0 * (r as f64).powi(m as i32) + windows_sets_memory(m, r, windows, words, threads)
}

/// Bytes of the value sets the Grundy engine keeps for the window game on `[0..r)^m` besides the
/// values (which may be kept in a file instead, [`crate::values::Values::on_disk`]), with value
/// sets of `words` words and `threads` threads: the stores of the blocks of two diagonals and each
/// thread's rings.
pub fn windows_sets_memory(
    m: usize,
    r: usize,
    windows: &[Vec<usize>],
    words: usize,
    threads: usize,
) -> f64 {
    if !within_reach(m, r) {
        return f64::INFINITY;
    }
    if sorted::applies(m, r, windows) {
        return sorted::memory(m, r, distinct(windows), words);
    }
    let g = Geometry::new(m, r, &crate::pset::engine_windows(m, windows), false);
    sets_memory(&g, words, threads)
}

/// The number of different windows (as sets of stacks).
fn distinct(windows: &[Vec<usize>]) -> usize {
    let mut sets: Vec<Vec<usize>> = windows
        .iter()
        .map(|w| {
            let mut v = w.clone();
            v.sort_unstable();
            v
        })
        .collect();
    sets.sort();
    sets.dedup();
    sets.len()
}

/// True when a Grundy table of the window game on `[0..r)^m` with `windows` (tuple indices) is
/// computed on the sorted tuples alone, every permutation of the stacks mapping the windows onto
/// themselves (Nim, Moore's Nim; [`crate::lines::use_symmetry`] turns it off): for tests and
/// benchmarks.
#[doc(hidden)]
pub fn is_sorted(m: usize, r: usize, windows: &[Vec<usize>]) -> bool {
    sorted::applies(m, r, windows)
}

/// The Grundy value of each sorted tuple of `[0..r)^m` of a window game that [`is_sorted`] takes, by
/// [`class_index`]: the table of every position without its `m!`-fold repetition.
pub fn solve_classes(
    m: usize,
    r: usize,
    windows: &[Vec<usize>],
    hooks: Hooks,
) -> Result<Vec<u16>, Stop> {
    assert!(
        sorted::applies(m, r, windows),
        "a game every permutation keeps"
    );
    // No value of the box is kept: only the sets must fit.
    let allow = width_allowed(m, r, windows, false);
    let words = likely_words(m, r);
    sorted::run(m, r, windows, words, &allow, hooks, None, Resume::default()).map(|(_, v)| v)
}

/// The place of the position `p` (entries below `r`) in [`solve_classes`]'s table: the colex rank
/// of its sorted entries, or `None` past the box.
pub fn class_index(p: &[u64], r: usize) -> Option<usize> {
    let mut x: Vec<u64> = p.to_vec();
    x.sort_unstable();
    if x.last().is_some_and(|&v| v >= r as u64) {
        return None;
    }
    // sum_i C(x_i + i, i + 1), exactly.
    let mut at: u128 = 0;
    for (i, &v) in x.iter().enumerate() {
        let n = v as u128 + i as u128;
        let k = i as u128 + 1;
        if n < k {
            continue;
        }
        // C(n, j + 1) = C(n, j) (n - j) / (j + 1), exactly.
        let mut c: u128 = 1;
        for j in 0..k {
            c = c.checked_mul(n - j)? / (j + 1);
        }
        at = at.checked_add(c)?;
    }
    usize::try_from(at).ok()
}

/// The positions a Grundy table of the window game on `[0..r)^m` with `windows` computes: the
/// sorted tuples, `C(r + m - 1, m)`, when [`is_sorted`], else every position of the box.
pub fn computed_positions(m: usize, r: usize, windows: &[Vec<usize>]) -> f64 {
    if sorted::applies(m, r, windows) {
        crate::sorted::classes(m, r)
    } else {
        (r as f64).powi(m as i32)
    }
}

/// Most positions of a box whose Grundy memory is estimated: the estimates of larger boxes are
/// infinite (the plan refuses them first).
pub const MOST_POSITIONS: f64 = 1e18;

/// True when a box of `r^m` positions is within [`MOST_POSITIONS`], so that its layout (positions,
/// blocks, rings) is counted in `usize`.
fn within_reach(m: usize, r: usize) -> bool {
    (r as f64).powi(m as i32) < MOST_POSITIONS
}

/// Bytes of the value sets a sweep of `g` keeps with sets of `words` words and `threads` threads:
/// the stores of the blocks of two diagonals (one array of `block` sets per window that holds axis
/// `A` or `B`; with the symmetry, the blocks kept of each diagonal and the one mirrored block) and
/// each thread's rings of the other windows' sets.
fn sets_memory(g: &Geometry, words: usize, threads: usize) -> f64 {
    let store = g.store_bytes(words);
    let kept = 2 * g.widest() + usize::from(g.mirror.is_some());
    let rings = threads as f64 * g.ring_sets as f64 * words as f64 * 8.0;
    kept as f64 * store + rings
}

fn beyond() -> Stop {
    Stop::Beyond(
        nimlab_core::Refusal::new(
            "a Grundy value of this box exceeds 65535, the largest a Grundy table stores; use a smaller ",
        )
        .name(nimlab_core::Arg::Max),
    )
}

/// Values of options that leave the box (SCN's vanishing piles): given the engine coordinates of a
/// position, OR the set of their Grundy values into the words. They must be invariant under the
/// reflections of the circle (SCN's are): the symmetry ([`geometry`]) is then one of them.
type Extra<'e> = Option<&'e (dyn Fn(&[u32], &mut [u64]) + Sync)>;

fn damaged(e: io::Error) -> Stop {
    Stop::Damaged(format!("the checkpoint does not fit this table ({e})"))
}

/// The Grundy value of every position of the window game on `[lo..=lo+r-1]^m` with `windows`
/// (tuple indices), indexed by the lexicographic index of the tuple (entries minus `lo`).
pub fn solve(
    m: usize,
    r: usize,
    windows: &[Vec<usize>],
    hooks: Hooks,
) -> Result<Vec<u16>, Interrupted> {
    solve_resumable(m, r, windows, hooks, Resume::default()).map_err(|_| Interrupted)
}

/// [`solve`] with checkpoints (see [`crate::checkpoint`]): the section holds the width of the value
/// sets, the stores of the last finished diagonal and the values written so far.
pub fn solve_resumable(
    m: usize,
    r: usize,
    windows: &[Vec<usize>],
    hooks: Hooks,
    resume: Resume,
) -> Result<Vec<u16>, Stop> {
    let values = Values::in_memory(r.pow(m as u32));
    solve_with(m, r, windows, None, 1, hooks, resume, values).map(|(v, _)| v.into_vec())
}

/// [`solve_resumable`] into `values` (one per position of the box, in memory or in a mapped file:
/// [`Values::on_disk`]), which it returns filled.
pub fn solve_resumable_in(
    m: usize,
    r: usize,
    windows: &[Vec<usize>],
    hooks: Hooks,
    resume: Resume,
    values: Values,
) -> Result<Values, Stop> {
    solve_with(m, r, windows, None, 1, hooks, resume, values).map(|(v, _)| v)
}

/// True when the Grundy sweep of the window game on `m` stacks with `windows` (tuple indices) computes
/// one block of each mirror pair ([`crate::lines::use_symmetry`]); SCN's lengths of two stacks or
/// more always do, with the symmetry on: for tests and benchmarks.
#[doc(hidden)]
pub fn is_mirrored(m: usize, windows: &[Vec<usize>]) -> bool {
    let g = Geometry::new(m, 1, &crate::pset::engine_windows(m, windows), false);
    g.mirror.is_some()
}

const TAG_WINDOWS: u64 = 0x4752_4e44_0001;
const TAG_SHRINKING: u64 = 0x4752_4e44_0002;

/// The check before the value sets widen to `words` words: refused in one line when the sets (and
/// the values, when `with_values`) would no longer fit (the plan checked a likely width).
fn width_allowed<'a>(
    m: usize,
    r: usize,
    windows: &'a [Vec<usize>],
    with_values: bool,
) -> impl Fn(usize) -> Result<(), Stop> + 'a {
    move |words: usize| {
        let threads = rayon::current_num_threads();
        let bytes = if with_values {
            windows_memory(m, r, windows, words, threads)
        } else {
            windows_sets_memory(m, r, windows, words, threads)
        };
        let allowed = crate::memory_allowed();
        if bytes <= allowed {
            return Ok(());
        }
        Err(Stop::Beyond(
            nimlab_core::Refusal::new(format!(
                "this Grundy table needs value sets of {words} words (values of {} or more), about {:.1} GiB{}, above the {:.1} GiB it may use here; use a smaller ",
                (words - 1) * 64,
                bytes / (1u64 << 30) as f64,
                if with_values { " with its values" } else { "" },
                allowed / (1u64 << 30) as f64
            ))
            .name(nimlab_core::Arg::Max),
        ))
    }
}

/// [`solve`] with out-of-box options, into `values` (r^m of them), starting with sets of
/// `min_words` words; also returns the number of 64-bit words a value set needs. The checkpoint
/// section is the tag, then the sweep's state (see `sweep`).
#[allow(clippy::too_many_arguments)]
fn solve_with(
    m: usize,
    r: usize,
    windows: &[Vec<usize>],
    extra: Extra,
    min_words: usize,
    hooks: Hooks,
    resume: Resume,
    mut values: Values,
) -> Result<(Values, usize), Stop> {
    // Values in a file are not counted: only the sets must fit in memory then.
    let allow = width_allowed(m, r, windows, !values.on_file());
    debug_assert_eq!(values.len(), r.pow(m as u32));
    if extra.is_none() && sorted::applies(m, r, windows) {
        let (top, _) = sorted::run(
            m,
            r,
            windows,
            min_words,
            &allow,
            hooks,
            Some(&mut values),
            resume,
        )?;
        return Ok((values, top / 64 + 1));
    }
    // Engine axis j is tuple index m-1-j, so the engine's index is the tuple's lexicographic index.
    let g = Geometry::new(
        m,
        r,
        &crate::pset::engine_windows(m, windows),
        extra.is_some(),
    );
    let Resume { saver, mut from } = resume;
    if let Some(rd) = from.as_deref_mut() {
        ck::expect(rd, TAG_WINDOWS, "section").map_err(damaged)?;
    }
    let head = |out: &mut dyn Write| ck::put_u64(out, TAG_WINDOWS);
    let total = values.len() as u64;
    let mut layer = saver.map(|inner| Layer {
        inner,
        head: &head,
        base: 0,
        total: Some(total),
        stage: String::new(),
    });
    let top = sweep::run(
        &g,
        min_words.max(1),
        &allow,
        hooks,
        extra,
        &mut values,
        Resume {
            saver: layer.as_mut().map(|l| l as &mut dyn Saver),
            from,
        },
    )?;
    Ok((values, top / 64 + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The estimates: the values once beside the sets, the stores' bytes as the sweep allocates
    /// them, and boxes past the bound infinite (no layout counted in `usize`).
    #[test]
    fn memory_estimates() {
        let windows = crate::pset::cyclic_windows(6, 3);
        let (m, r) = (6, 24);
        let sets = windows_sets_memory(m, r, &windows, 3, 2);
        let all = windows_memory(m, r, &windows, 3, 2);
        assert_eq!(all, sets + 2.0 * (r as f64).powi(m as i32));
        for circle_only in [false, true] {
            let g = Geometry::new(m, r, &crate::pset::engine_windows(m, &windows), circle_only);
            for words in [1, 3, 8, 17] {
                assert_eq!(g.store_bytes(words), (g.store_len(words) * 8) as f64);
            }
        }
        assert!(windows_sets_memory(9, 1 << 16, &windows, 1024, 64).is_infinite());
        assert!(shrinking_memory(9, 3, 1 << 16, 64).is_infinite());
        let scn = shrinking_memory(5, 2, 40, 2);
        assert!(scn.is_finite() && scn > 2.0 * 40f64.powi(5), "{scn}");
    }
}
