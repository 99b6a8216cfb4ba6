//! The schedule of a Grundy sweep: the blocks of each anti-diagonal in parallel, the stores of the
//! previous diagonal kept for them, wider sets when a value does not fit, and checkpoints.
//!
//! Widening keeps the work done: until a value reaches `64 * words`, every set holds only values
//! below it, so a set padded with zero words is the set of the wider run. A diagonal in which some
//! value does not fit is computed again with the wider sets (the values of its positions are
//! written again, the same), from the stores of the previous diagonal padded.

use super::geometry::Geometry;
use super::kernel::{solve_block, Block};
use super::{beyond, damaged, Extra, Overflow, MAX_WORDS};
use crate::checkpoint::{self as ck, Progress};
use crate::lines::{Hooks, Resume, Stop};
use rayon::prelude::*;
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// Bits of the axes field of a checkpoint above the axes: the sets are kept window by window (set
/// by every checkpoint this format writes: older ones, which kept them position by position, are
/// refused), and the sweep keeps one block of each mirror pair.
const BY_WINDOW: u64 = 1 << 33;
const MIRRORED: u64 = 1 << 32;

/// The geometry as a checkpoint records it.
fn head_fields(g: &Geometry) -> [u64; 4] {
    let axes = g.m as u64 | BY_WINDOW | if g.mirror.is_some() { MIRRORED } else { 0 };
    [axes, g.r as u64, g.block as u64, g.np as u64]
}

/// The state after diagonal `d`: the set width, the stores of its blocks and the values written so
/// far.
fn write_state(
    w: &mut dyn Write,
    g: &Geometry,
    words: usize,
    d: usize,
    stores: &[Option<Vec<u64>>],
    values: &[u16],
) -> io::Result<()> {
    ck::put_u64(w, words as u64)?;
    for x in head_fields(g) {
        ck::put_u64(w, x)?;
    }
    ck::put_u64(w, d as u64)?;
    let (lo, hi) = g.computed(d);
    for s in &stores[lo..=hi] {
        ck::put_u64s(
            w,
            s.as_deref().expect("the blocks of the diagonal are kept"),
        )?;
    }
    ck::put_u16s(w, values)
}

/// Reads [`write_state`]'s state: the set width and the diagonal.
fn read_state(
    r: &mut dyn Read,
    g: &Geometry,
    stores: &mut [Option<Vec<u64>>],
    values: &mut [u16],
) -> io::Result<(usize, usize)> {
    let words = ck::get_len(r, MAX_WORDS)?.max(1);
    for (x, what) in head_fields(g)
        .into_iter()
        .zip(["axes and symmetry", "radix", "block", "sets"])
    {
        ck::expect(r, x, what)?;
    }
    let d = ck::get_len(r, g.ra + g.rb - 2)?;
    let (lo, hi) = g.computed(d);
    for s in &mut stores[lo..=hi] {
        let mut v = vec![0u64; g.store_len(words)];
        ck::get_u64s_into(r, &mut v)?;
        *s = Some(v);
    }
    ck::get_u16s_into(r, values)?;
    Ok((words, d))
}

/// Pads the sets of the store of block `a` of diagonal `d` from `words` to `wider` words, in place:
/// the store grows (for a large store the allocator moves its pages, it does not copy or touch them
/// again) and each set moves up to its wider place, the last first.
fn widen(g: &Geometry, a: usize, d: usize, s: &mut Vec<u64>, words: usize, wider: usize) {
    let len = g.store_len(wider);
    s.reserve_exact(len - s.len());
    s.resize(len, 0);
    let k = g.skew(a, d);
    let (per, wide) = (g.per(words), g.per(wider));
    for slot in (0..g.np).rev() {
        for idx in (0..g.block).rev() {
            let (from, to) = (k + slot * per + idx * words, k + slot * wide + idx * wider);
            // `from <= to`: the last word first (a loop: `copy_within` calls `memmove`).
            for t in (0..wider).rev() {
                s[to + t] = if t < words { s[from + t] } else { 0 };
            }
        }
    }
}

/// Grows a store whose contents are not kept (a spare one) to sets of `wider` words.
fn grow(g: &Geometry, s: &mut Vec<u64>, wider: usize) {
    let len = g.store_len(wider);
    s.reserve_exact(len.saturating_sub(s.len()));
    s.resize(len, 0);
}

/// The next set width after `words` overflowed: one word more up to 8, then a quarter more in whole
/// chunks of 8 (the kernel's widest chunk).
fn next_width(words: usize) -> usize {
    if words < 8 {
        words + 1
    } else {
        ((words + words / 4).div_ceil(8) * 8).min(MAX_WORDS)
    }
}

/// Sweeps the diagonals of blocks into `values`, starting with sets of `words` words (or from the
/// checkpoint's state); `allow(words)` refuses a wider width that would not fit. Returns the largest
/// value.
#[allow(clippy::too_many_arguments)]
pub(super) fn run(
    g: &Geometry,
    mut words: usize,
    allow: &dyn Fn(usize) -> Result<(), Stop>,
    hooks: Hooks,
    extra: Extra,
    values: &mut [u16],
    resume: Resume,
) -> Result<usize, Stop> {
    let total = values.len() as u64;
    let n_diag = g.ra + g.rb - 1;
    // The stores of the previous diagonal, by block `a`.
    let mut prev: Vec<Option<Vec<u64>>> = (0..g.ra).map(|_| None).collect();
    let mut spare: Vec<Vec<u64>> = Vec::new();
    if words > 8 {
        // Whole chunks of 8 words.
        words = (words.div_ceil(8) * 8).min(MAX_WORDS);
    }
    let mut first = 0;
    if let Some(rd) = resume.from {
        let (w, d) = read_state(rd, g, &mut prev, values).map_err(damaged)?;
        words = w;
        first = d + 1;
    }
    let mut saver = resume.saver;
    // A block whose value did not fit stops the others of its diagonal (computed again anyway).
    let overflowed = AtomicBool::new(false);
    let cancel = || hooks.cancelled() || overflowed.load(Ordering::Relaxed);
    // The largest value so far, that of the last diagonal computed here, and the most it grew from
    // one diagonal to the next.
    // (Read only when resuming: reading values never written would map every page of them twice.)
    let mut top = if first > 0 {
        values.iter().copied().max().unwrap_or(0) as usize
    } else {
        0
    };
    let mut last: Option<usize> = None;
    let mut growth = 0;
    let blocks_before = |d: usize| -> u64 {
        (0..d)
            .map(|e| {
                let (lo, hi) = g.diagonal(e);
                ((hi - lo + 1) * g.block) as u64
            })
            .sum()
    };
    let mut done = blocks_before(first);
    let stage = |d: usize| format!("diagonal {} of {n_diag}", d + 1);
    let mut d = first;
    while d < n_diag {
        // Saves the last finished diagonal (d - 1) and stops.
        macro_rules! stop {
            () => {{
                if let (Some(s), true) = (saver.as_deref_mut(), d > first) {
                    let vals: &[u16] = values;
                    s.save(
                        Progress {
                            done: blocks_before(d),
                            total,
                            stage: stage(d - 1),
                        },
                        &mut |w| write_state(w, g, words, d - 1, &prev, vals),
                    );
                }
                return Err(Stop::Interrupted);
            }};
        }
        if hooks.cancelled() {
            stop!();
        }
        // Wider sets: ahead of a diagonal whose values may not fit (the stores of the previous
        // diagonal padded), or after one in which some value did not (computed again).
        let need = if overflowed.swap(false, Ordering::Relaxed) {
            64 * words
        } else {
            top + 2 * growth + 2
        };
        if need >= 64 * words && d > 0 {
            let mut wider = words;
            while 64 * wider <= need && wider < MAX_WORDS {
                wider = next_width(wider);
            }
            if wider == words {
                return Err(beyond());
            }
            allow(wider)?;
            for (a, s) in prev.iter_mut().enumerate() {
                if let Some(s) = s {
                    widen(g, a, d - 1, s, words, wider);
                }
            }
            // The spare stores this diagonal takes (later ones come back from the previous).
            let (lo, hi) = g.computed(d);
            spare.truncate(hi + 2 - lo);
            for s in &mut spare {
                grow(g, s, wider);
            }
            words = wider;
        }
        let (a_min, a_max) = g.computed(d);
        // Block (t, t) of diagonal 2t reads (t, t-1), the mirror of the kept (t-1, t): built by
        // its task, beside the other blocks, in a spare store.
        let t = d / 2;
        let mut mirror_store = match g.mirror {
            Some(_) if d % 2 == 0 && t > 0 && t <= a_max => Some(
                spare
                    .pop()
                    .unwrap_or_else(|| vec![0u64; g.store_len(words)]),
            ),
            _ => None,
        };
        // The values of each block, and of its mirror.
        let mut chunks: Vec<Option<&mut [u16]>> = values.chunks_mut(g.block).map(Some).collect();
        let mut tasks = Vec::with_capacity(a_max + 1 - a_min);
        for a in a_min..=a_max {
            let b = d - a;
            let out = chunks[a + b * g.ra].take().expect("a block of the box");
            let mirror_out = match g.mirror {
                Some(_) if a != b => chunks[b + a * g.ra].take(),
                _ => None,
            };
            let store = spare
                .pop()
                .unwrap_or_else(|| vec![0u64; g.store_len(words)]);
            let mirrored = if a == b { mirror_store.take() } else { None };
            tasks.push((a, b, store, out, mirror_out, mirrored));
        }
        // The longest task first (it also builds the mirrored store): started last, it would keep
        // one thread busy while the others wait for the next diagonal.
        let longest_last = tasks.last().is_some_and(|t| t.5.is_some());
        tasks.rotate_right(usize::from(longest_last));
        let prev_ref = &prev;
        type Solved = (
            usize,
            Vec<u64>,
            Option<Vec<u64>>,
            Result<Option<u16>, Overflow>,
        );
        let mut results: Vec<Solved> = tasks
            .into_par_iter()
            .map(|(a, b, mut store, out, mirror_out, mut mirrored)| {
                if let (Some(mr), Some(s)) = (&g.mirror, mirrored.as_deref_mut()) {
                    let src = prev_ref[a - 1].as_deref().expect("block t-1 is kept");
                    let (from, to) = (g.skew(a - 1, d - 1), g.skew(a, d - 1));
                    mr.store(g, words, &src[from..], &mut s[to..]);
                }
                let prev_a = (a > 0)
                    .then(|| &prev_ref[a - 1].as_deref().expect("kept")[g.skew(a - 1, d - 1)..]);
                let prev_b = (b > 0).then(|| {
                    let s = match &mirrored {
                        Some(s) => s.as_slice(),
                        None => prev_ref[a].as_deref().expect("kept"),
                    };
                    &s[g.skew(a, d - 1)..]
                });
                let blk = Block {
                    a,
                    b,
                    cur: &mut store[g.skew(a, d)..],
                    prev_a,
                    prev_b,
                    out: &mut *out,
                };
                let res = solve_block(g, words, blk, &cancel, extra);
                if res.is_err() {
                    overflowed.store(true, Ordering::Relaxed);
                }
                if let (Ok(Some(_)), Some(mr), Some(to)) = (&res, &g.mirror, mirror_out) {
                    mr.values(g, out, to);
                }
                (a, store, mirrored, res)
            })
            .collect();
        spare.extend(results.iter_mut().filter_map(|r| r.2.take()));
        if overflowed.load(Ordering::Relaxed) {
            // A value did not fit: the same diagonal again with wider sets (the first diagonal
            // has nothing to widen).
            if words >= MAX_WORDS {
                return Err(beyond());
            }
            spare.extend(results.into_iter().map(|r| r.1));
            if d == 0 {
                overflowed.store(false, Ordering::Relaxed);
                words = next_width(words);
                allow(words)?;
                for s in &mut spare {
                    grow(g, s, words);
                }
            }
            continue;
        }
        let complete = results.iter().all(|r| matches!(r.3, Ok(Some(_))));
        if !complete {
            // Stopped inside this diagonal: the previous one is the last finished.
            spare.extend(results.into_iter().map(|r| r.1));
            stop!();
        }
        // Diagonal d becomes the previous one.
        spare.extend(prev.iter_mut().filter_map(Option::take));
        let mut here = 0;
        for (a, s, _, r) in results {
            prev[a] = Some(s);
            here = here.max(r.ok().flatten().unwrap_or(0) as usize);
        }
        if let Some(l) = last {
            growth = growth.max(here.saturating_sub(l));
        }
        last = Some(here);
        top = top.max(here);
        let (lo, hi) = g.diagonal(d);
        done += ((hi - lo + 1) * g.block) as u64;
        if let Some(p) = hooks.progress {
            p(done, total);
        }
        if d + 1 < n_diag {
            if let Some(s) = saver.as_deref_mut() {
                if s.due() {
                    let vals: &[u16] = values;
                    s.save(
                        Progress {
                            done,
                            total,
                            stage: stage(d),
                        },
                        &mut |w| write_state(w, g, words, d, &prev, vals),
                    );
                }
            }
        }
        d += 1;
    }
    if hooks.cancelled() {
        return Err(Stop::Interrupted);
    }
    Ok(top)
}
