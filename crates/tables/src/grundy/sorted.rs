//! Grundy tables of window games that every permutation of the stacks maps onto themselves (Nim,
//! Moore's Nim_k, a complex of all the j-sets): one position per class, the sorted tuples.
//!
//! A permutation `t` of the stacks maps the windows onto the windows, so `g(t p) = g(p)` and
//! `G_w(t p) = G_{t w}(p)` (the parent module's sets): the sweep computes `g` and every `G_w` on
//! the sorted tuples only, reading a look-up through a swap of windows ([`crate::sorted`]).
//!
//! The sorted tuples are taken tier by tier (tier `s`: entries summing to `s`); a tier reads only
//! the sets of the tier below, so two tiers of sets are kept. Every value is also kept once
//! per class, at the tuple's colex rank `sum_i C(x_i + i, i + 1)`; at the end each position of the
//! box reads its class's value, line by line (the last entry running), in constant time a position.
//!
//! Checkpoints hold the width of the sets, the last finished tier, its sets and the values so far.

use super::{beyond, damaged, Overflow, MAX_WORDS};
use crate::checkpoint as ck;
use crate::lines::{Hooks, Resume, Stop};
use crate::sorted::{self, Head, Ranks, Windows, MAX_M};
use rayon::prelude::*;
use std::io::{self, Read, Write};

/// The section tag of this sweep's checkpoints.
const TAG: u64 = 0x4752_4e44_0003;

/// True when the sorted sweep takes the window game on `[0..r)^m` with `windows` (tuple indices):
/// [`sorted::fits`], and the symmetry on ([`crate::lines::use_symmetry`]; not only the mirror,
/// `NIMLAB_ENGINE_SYMMETRY=mirror`).
pub(super) fn applies(m: usize, r: usize, windows: &[Vec<usize>]) -> bool {
    sorted::fits(m, r, windows) && crate::lines::sorted_symmetry_on()
}

/// Bytes the sorted sweep keeps besides the box's values: two tiers of sets (`nw` windows of
/// `words` words), the tiers' tuples, one value a class and the count tables.
pub(super) fn memory(m: usize, r: usize, nw: usize, words: usize) -> f64 {
    let tier = Ranks::new(m, r).widest() as f64;
    2.0 * tier * (nw * words * 8 + 2 * m) as f64
        + 2.0 * sorted::classes(m, r)
        + sorted::ranks_bytes(m, r)
}

/// The sets of one tier's positions, `nw * words` words each, and their values.
struct Tier {
    s: usize,
    tuples: Vec<u16>,
    sets: Vec<u64>,
}

/// Computes tier `s` from the tier below with sets of `words` words: the sets and values of each
/// position in order, or `Overflow` when a value reaches `64 * words`, or `None` when cancelled.
fn solve_tier(
    rk: &Ranks,
    win: &Windows,
    below: Option<&Tier>,
    s: usize,
    words: usize,
    cancel: &(dyn Fn() -> bool + Sync),
    spare: &mut Vec<u64>,
) -> Result<Option<(Tier, Vec<u16>)>, Overflow> {
    let m = rk.m;
    let nw = win.masks.len();
    let per = nw * words;
    let tuples = rk.tier(s);
    let len = tuples.len() / m;
    // The sets of the tier before the one below, cleared (allocating a tier's sets afresh each time
    // cost the kernel more than the sweep: pages mapped, zeroed and given back).
    let mut sets = std::mem::take(spare);
    sets.clear();
    sets.resize(len * per, 0);
    let mut vals = vec![0u16; len];
    const CHUNK: usize = 256;
    let res: Result<Vec<bool>, Overflow> = sets
        .par_chunks_mut(CHUNK * per)
        .zip(vals.par_chunks_mut(CHUNK))
        .enumerate()
        .map(|(c, (sets, vals))| {
            if cancel() {
                return Ok(false);
            }
            let mut opts = vec![0u64; words];
            for (k, val) in vals.iter_mut().enumerate() {
                let x = &tuples[(c * CHUNK + k) * m..][..m];
                let cur = &mut sets[k * per..][..per];
                let mut first = [0usize; MAX_M];
                let mut place = [0usize; MAX_M];
                sorted::first_places(rk, x, &mut first, &mut place);
                opts.iter_mut().for_each(|o| *o = 0);
                for wi in 0..nw {
                    let dst = &mut cur[wi * words..][..words];
                    for (at, w) in win.lookups(wi, x, &first, &place) {
                        let b = below.expect("a position with a stack has a tier below");
                        let src = &b.sets[at * per + w * words..][..words];
                        for (d, &v) in dst.iter_mut().zip(src) {
                            *d |= v;
                        }
                    }
                    for (o, &d) in opts.iter_mut().zip(dst.iter()) {
                        *o |= d;
                    }
                }
                let g = opts
                    .iter()
                    .position(|&o| o != u64::MAX)
                    .map(|w| w * 64 + (!opts[w]).trailing_zeros() as usize)
                    .ok_or(Overflow)?;
                for wi in 0..nw {
                    cur[wi * words + g / 64] |= 1 << (g % 64);
                }
                *val = g as u16;
            }
            Ok(true)
        })
        .collect();
    let finished = match res {
        Ok(done) => done.into_iter().all(|d| d),
        Err(o) => {
            *spare = sets;
            return Err(o);
        }
    };
    if !finished {
        *spare = sets;
        return Ok(None);
    }
    Ok(Some((Tier { s, tuples, sets }, vals)))
}

/// The tier `t`'s sets padded from `words` to `wider` words a window.
fn widen(t: &mut Tier, nw: usize, words: usize, wider: usize) {
    let len = t.sets.len() / (nw * words);
    let mut sets = vec![0u64; len * nw * wider];
    for (to, from) in sets.chunks_mut(wider).zip(t.sets.chunks(words)) {
        to[..words].copy_from_slice(from);
    }
    t.sets = sets;
}

fn next_width(words: usize) -> usize {
    (words + words.div_ceil(4)).min(MAX_WORDS)
}

/// The Grundy values of the window game on `[0..r)^m` (which [`applies`]) into `values` when given,
/// by the lexicographic index of the tuple, starting with sets of `words` words; `allow(words)`
/// refuses a width that would not fit. Returns the largest value and the value of each sorted tuple,
/// by its colex rank ([`sorted::Ranks::colex`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn run(
    m: usize,
    r: usize,
    windows: &[Vec<usize>],
    mut words: usize,
    allow: &dyn Fn(usize) -> Result<(), Stop>,
    hooks: Hooks,
    values: Option<&mut [u16]>,
    resume: Resume,
) -> Result<(usize, Vec<u16>), Stop> {
    let rk = Ranks::new(m, r);
    let win = Windows::new(m, windows);
    let nw = win.masks.len();
    let count = sorted::classes(m, r) as usize;
    let mut class_values = vec![0u16; count];
    let head = Head {
        tag: TAG,
        fields: [
            (m as u64, "stacks"),
            (r as u64, "radix"),
            (nw as u64, "windows"),
            (count as u64, "classes"),
        ],
    };
    let mut below: Option<Tier> = None;
    let mut spare: Vec<u64> = Vec::new();
    let mut first = 0;
    let Resume { mut saver, from } = resume;
    if let Some(rd) = from {
        let (w, t) = read_state(rd, &rk, &head, nw, &mut class_values).map_err(damaged)?;
        words = w;
        first = t.s + 1;
        below = Some(t);
    }
    words = words.clamp(1, MAX_WORDS);
    let total = count as u64;
    let mut done: u64 = (0..first).map(|s| rk.tier_len(s) as u64).sum();
    let cancel = || hooks.cancelled();
    let mut s = first;
    while s <= rk.smax {
        if hooks.cancelled() {
            if let (Some(sv), Some(b)) = (saver.as_deref_mut(), &below) {
                if s > first {
                    save(sv, (done, total), &rk, &head, words, b, &class_values);
                }
            }
            return Err(Stop::Interrupted);
        }
        let got = solve_tier(&rk, &win, below.as_ref(), s, words, &cancel, &mut spare);
        let (tier, vals) = match got {
            Ok(Some(t)) => t,
            Ok(None) => continue, // cancelled: saved and stopped above
            Err(Overflow) => {
                if words >= MAX_WORDS {
                    return Err(beyond());
                }
                let wider = next_width(words);
                allow(wider)?;
                if let Some(b) = below.as_mut() {
                    widen(b, nw, words, wider);
                }
                words = wider;
                continue;
            }
        };
        for (x, &v) in tier.tuples.chunks(m).zip(&vals) {
            class_values[rk.colex(x)] = v;
        }
        done += vals.len() as u64;
        if let Some(old) = below.replace(tier) {
            spare = old.sets;
        }
        if let Some(p) = hooks.progress {
            p(done, total);
        }
        if let (Some(sv), Some(b), true) = (saver.as_deref_mut(), &below, s < rk.smax) {
            if sv.due() {
                save(sv, (done, total), &rk, &head, words, b, &class_values);
            }
        }
        s += 1;
    }
    if hooks.cancelled() {
        return Err(Stop::Interrupted);
    }
    if let Some(values) = values {
        expand(&rk, &class_values, values);
    }
    let top = class_values.iter().copied().max().unwrap_or(0) as usize;
    Ok((top, class_values))
}

/// Each position of the box reads its class's value: line by line (the first `m - 1` entries
/// fixed, sorted into `z`), the last entry `t` inserted at place `j` (the entries of `z` below it),
/// colex rank `sum_{i<j} C(z_i + i, i + 1) + C(t + j, j + 1) + sum_{i>=j} C(z_i + i + 1, i + 2)`:
/// a constant for each run of `t` with the same `j`, plus a column of binomials.
fn expand(rk: &Ranks, class_values: &[u16], values: &mut [u16]) {
    let (m, r) = (rk.m, rk.r);
    let b = &rk.binom;
    // cols[j * r + t] = C(t + j, j + 1).
    let cols: Vec<usize> = (0..m)
        .flat_map(|j| (0..r).map(move |t| b[t + j][j + 1] as usize))
        .collect();
    values
        .par_chunks_mut(r)
        .enumerate()
        .for_each(|(line, out)| {
            let mut z = [0usize; MAX_M];
            let mut v = line;
            for i in (0..m - 1).rev() {
                z[i] = v % r;
                v /= r;
            }
            z[..m - 1].sort_unstable();
            let mut above = [0usize; MAX_M + 1];
            for i in (0..m - 1).rev() {
                above[i] = above[i + 1] + b[z[i] + i + 1][i + 2] as usize;
            }
            let (mut below, mut from) = (0, 0);
            for j in 0..m {
                // t runs over z_{j-1} + 1 ..= z_j (the last run to r - 1).
                let to = if j + 1 < m { z[j] + 1 } else { r };
                let base = below + above[j];
                let col = &cols[j * r..][..r];
                for (o, &c) in out[from..to].iter_mut().zip(&col[from..to]) {
                    *o = class_values[base + c];
                }
                from = to;
                if j + 1 < m {
                    below += b[z[j] + j][j + 1] as usize;
                }
            }
        });
}

/// A checkpoint after tier `t`: the head, then the set width, the tier's sets and the values so far.
fn save(
    sv: &mut dyn ck::Saver,
    progress: (u64, u64),
    rk: &Ranks,
    head: &Head,
    words: usize,
    t: &Tier,
    class_values: &[u16],
) {
    head.save(sv, rk, t.s, progress, &mut |w: &mut dyn Write| {
        ck::put_u64(w, words as u64)?;
        ck::put_u64s(w, &t.sets)?;
        ck::put_u16s(w, class_values)
    });
}

fn read_state(
    rd: &mut dyn Read,
    rk: &Ranks,
    head: &Head,
    nw: usize,
    class_values: &mut [u16],
) -> io::Result<(usize, Tier)> {
    let s = head.read(rd, rk)?;
    let words = ck::get_len(rd, MAX_WORDS)?.max(1);
    let tuples = rk.tier(s);
    let mut sets = vec![0u64; tuples.len() / rk.m * nw * words];
    ck::get_u64s_into(rd, &mut sets)?;
    ck::get_u16s_into(rd, class_values)?;
    Ok((words, Tier { s, tuples, sets }))
}
