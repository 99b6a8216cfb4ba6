//! The sparse-space method for the Grundy values of single heaps of a take-and-break game whose
//! moves leave at most two heaps (Berlekamp, Conway & Guy, *Winning Ways*, vol. 1, ch. 4; A.
//! Flammenkamp's computations of octal games and of Grundy's game). docs/rules.md states the method
//! and why it is exact.
//!
//! A *mask* m splits the values in two: v is *rare* when popcount(v & m) is even, *common* when it
//! is odd. Parity of popcount(· & m) is linear over XOR, so a common value left by a split (two
//! heaps a, b; value g(a) xor g(b)) has exactly one rare part. Keeping the list of heaps with rare
//! values, heap n is computed as
//!
//! 1. mark the options that leave no heap or one heap, and every split (a, r - a) in which a is a
//!    rare heap (r = n - j for each splitting j): then **every** common option value is marked;
//! 2. walk v = 0, 1, 2, ...: a marked v is an option; an unmarked common v is not an option, so
//!    g(n) = v; an unmarked rare v may come from a split of two common heaps, so the splits of n are
//!    scanned (each visited pair marked, the scan resumed where the last one stopped) until one is
//!    worth v (v is an option, go on) or none is left (g(n) = v).
//!
//! Every answer is the mex of the full option set whatever the mask: the mask decides only how much
//! is scanned. With a good mask the rare heaps are few and step 2 stops at once for the small rare
//! values (0 above all, met by many splits), so a heap costs about (rare heaps) × (splitting moves)
//! instead of n/2 × (splitting moves).
//!
//! The mask is chosen from the values of the first heaps (computed by the plain mex): among every
//! mask below their width, the one with the fewest rare heaps, ties to the larger mask. It is chosen
//! again from all the values so far each time the number of heaps doubles (a game's sparse space
//! may show only later: Officers' does), and between two choices a value that needs a bit no value
//! had before decides that bit: it joins the mask when that makes the new value common (no earlier
//! value has the bit, so no earlier heap changes side). When the method does more than half the
//! plain mex's work over 4096 heaps, the mask is chosen again at once; when it does more than the
//! plain mex twice in a row (the rare values are not rare), the rest is computed by the plain mex
//! and the run says from which heap.

use crate::octal::{Mex, OctalGame, SAVE_EVERY};
use nimlab_core::{Arg, Error, Game, Refusal, Result};

/// Heaps computed by the plain mex before the mask is chosen from their values.
pub const MASK_FROM: usize = 2048;
/// Masks are chosen by trying every one below the width of the first values, up to this width;
/// wider first values take every bit below the width.
const MASK_SEARCH_WIDTH: usize = 1 << 12;
/// Heaps between two comparisons of the method's work with the plain mex's.
const CHECK_EVERY: usize = 4096;

/// What a sparse-space run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SparseRun {
    /// The mask at the end of the run (bits decided by new values included).
    pub mask: u32,
    /// True when the mask was given, not chosen.
    pub mask_given: bool,
    /// The heaps 0..mask_from were computed by the plain mex before the mask was chosen.
    pub mask_from: u64,
    /// The heap from which the plain mex took over (the rare values were not rare); `None` when the
    /// method ran to the end.
    pub plain_from: Option<u64>,
    /// Option values visited (both methods together).
    pub visits: u64,
}

/// True when `v` is rare for `mask`: popcount(v & mask) even.
pub fn is_rare(v: u32, mask: u32) -> bool {
    (v & mask).count_ones().is_multiple_of(2)
}

/// The heaps n of `values` (g(0), g(1), ...) whose values are rare for `mask` (heap 0 included).
pub fn rare_heaps(values: &[u32], mask: u32) -> Vec<u64> {
    values
        .iter()
        .enumerate()
        .filter(|&(_, &v)| is_rare(v, mask))
        .map(|(n, _)| n as u64)
        .collect()
}

/// The mask with the fewest rare values among g(1..) of `values`, ties to the larger mask: every
/// mask below the values' width (a power of two) is tried.
pub fn choose_mask(values: &[u32]) -> u32 {
    let top = values.iter().skip(1).copied().max().unwrap_or(0);
    let width = (top as usize + 1).next_power_of_two();
    if width > MASK_SEARCH_WIDTH {
        return (width - 1) as u32;
    }
    let mut count = vec![0u64; width];
    for &v in values.iter().skip(1) {
        count[v as usize] += 1;
    }
    let mut best = (u64::MAX, 0u32);
    for m in 1..width as u32 {
        let rare: u64 = count
            .iter()
            .enumerate()
            .filter(|&(v, &c)| c > 0 && is_rare(v as u32, m))
            .map(|(_, &c)| c)
            .sum();
        if rare <= best.0 {
            best = (rare, m);
        }
    }
    best.1.max(1)
}

/// Extends the prefix `g` to g(0..=max) of `game` (some move leaves two heaps, none three) by the
/// sparse-space method with `mask` (chosen from the first [`MASK_FROM`] values when `None`; from the
/// whole prefix when it is longer). The method's state (mask, rare heaps, the next choice of the
/// mask) is a function of the values, so a run started from a prefix goes on as one started from
/// nothing would, with the mask chosen again from the prefix. `every` is called with the values so
/// far each [`crate::octal::SAVE_EVERY`] heaps.
pub(crate) fn run(
    game: &OctalGame,
    g: &mut Vec<u32>,
    max: u64,
    mask: Option<u32>,
    limit: f64,
    every: &mut dyn FnMut(&[u32]) -> Result<()>,
) -> Result<SparseRun> {
    let len = max as usize + 1;
    let mut mex = Mex::new(limit);
    mex.widen(g);
    let first = match mask {
        Some(_) => len.min(1),
        None => len.min(MASK_FROM),
    }
    .max(g.len().min(len));
    for n in g.len()..first {
        let v = mex.plain_value(game, g, n)?;
        mex.push(g, v)?;
        if (n + 1) % SAVE_EVERY == 0 {
            every(g)?;
        }
    }
    let mask_given = mask.is_some();
    let mut mask = mask.unwrap_or_else(|| choose_mask(g));
    let unequal = game.unequal_splits();
    let splitting: Vec<usize> = game
        .digit_moves()
        .filter(|&(_, d)| d & 4 != 0)
        .map(|(j, _)| j as usize)
        .collect();
    let rare_of = |g: &[u32], mask: u32| -> Vec<usize> {
        (1..g.len()).filter(|&a| is_rare(g[a], mask)).collect()
    };
    let mut rare: Vec<usize> = rare_of(g, mask);
    let mut plain_from: Option<u64> = None;
    // The next heap at which the mask is chosen again, and whether the last work check failed.
    let mut next_choice = (first + 1).next_power_of_two().max(2 * MASK_FROM);
    let mut failed = false;
    // The method's work and the plain mex's, since the last comparison.
    let (mut work, mut plain_work) = (0u64, 0u64);
    for n in first..len {
        if plain_from.is_some() {
            let v = mex.plain_value(game, g, n)?;
            mex.push(g, v)?;
            if (n + 1) % SAVE_EVERY == 0 {
                every(g)?;
            }
            continue;
        }
        let mark = n as u32 + 1;
        mex.mark_small(game, g, n, mark);
        let mut visits = 1u64;
        // 1. Every split with a rare part: all the common option values.
        for &j in &splitting {
            if j > n {
                break;
            }
            let r = n - j;
            plain_work += r as u64 / 2;
            for &a in &rare {
                if a >= r {
                    break;
                }
                let b = r - a;
                if unequal && a == b {
                    continue;
                }
                mex.stamp[(g[a] ^ g[b]) as usize] = mark;
                visits += 1;
            }
        }
        // 2. The least unmarked value; a rare one is checked against the splits not yet seen.
        let (mut move_at, mut a_at) = (0usize, 1usize);
        let mut v = 0usize;
        loop {
            v = mex.least_unmarked(mark, v);
            if !is_rare(v as u32, mask) {
                break;
            }
            let mut found = false;
            'scan: while move_at < splitting.len() {
                let j = splitting[move_at];
                if j > n {
                    move_at = splitting.len();
                    break;
                }
                let r = n - j;
                while a_at <= r / 2 {
                    let a = a_at;
                    a_at += 1;
                    let b = r - a;
                    if unequal && a == b {
                        continue;
                    }
                    let x = (g[a] ^ g[b]) as usize;
                    mex.stamp[x] = mark;
                    visits += 1;
                    if x == v {
                        found = true;
                        break 'scan;
                    }
                }
                move_at += 1;
                a_at = 1;
            }
            if !found {
                break;
            }
        }
        work += visits;
        mex.visit(visits)?;
        let old_width = mex.width;
        if !mask_given && v >= old_width {
            // A new top bit: into the mask when that makes this value common.
            let top = usize::BITS - 1 - v.leading_zeros();
            if is_rare(v as u32, mask) && top < 32 {
                mask |= 1u32 << top;
            }
        }
        mex.push(g, v)?;
        if is_rare(g[n], mask) && n >= 1 {
            rare.push(n);
        }
        if (n + 1) % SAVE_EVERY == 0 {
            every(g)?;
        }
        let mut choose = !mask_given && n + 1 == next_choice;
        if (n + 1 - first) % CHECK_EVERY == 0 {
            if work.saturating_mul(2) > plain_work {
                // Not much faster: choose the mask again; no faster twice in a row: plain.
                if work > plain_work && (failed || mask_given) {
                    plain_from = Some(n as u64 + 1);
                }
                failed = work > plain_work;
                choose = !mask_given;
            } else {
                failed = false;
            }
            work = 0;
            plain_work = 0;
        }
        if let Some(from) = plain_from {
            // The rest by the plain mex: refused at once when that is past the limit.
            let rest = game.sequence_work(max) - game.sequence_work(from.saturating_sub(1));
            if mex.visited() + rest > limit {
                return Err(Error::too_large(
                    Refusal::new(format!(
                        "{}: the sparse-space method gave way to the plain mex at n = {from} (the rare values are not rare), and the rest up to n = {max} visits about {rest:.1e} option values (over ",
                        game.id()
                    ))
                    .value(Arg::Limit, format!("{limit:.1e}"))
                    .text("); lower ")
                    .name(Arg::Max)
                    .text(" or raise ")
                    .name(Arg::Limit),
                ));
            }
        }
        if choose && plain_from.is_none() {
            next_choice = (n + 1).saturating_mul(2);
            let new = choose_mask(g);
            if new != mask {
                mask = new;
                rare = rare_of(g, mask);
            }
            mex.visit(g.len() as u64)?;
        }
    }
    Ok(SparseRun {
        mask,
        mask_given,
        mask_from: first as u64,
        plain_from,
        visits: mex.visited() as u64,
    })
}
