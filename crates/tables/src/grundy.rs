//! Grundy values of every position of a box, for window games (CN, Nim, Moore's Nim).
//!
//! For a window `w` let `G_w(p)` be the set of Grundy values of the positions `q <= p` that agree
//! with `p` outside `w`. The values of the options of `p` are `U_{w, i in w, p_i > 0} G_w(p - e_i)`,
//! `g(p)` is their mex, and `G_w(p) = {g(p)} U U_{i in w, p_i > 0} G_w(p - e_i)`: a few word
//! operations per (window, axis of the window) instead of one per option. Sets are bit sets of
//! `64 * words` values; when a value does not fit, the run starts again with twice the words.
//!
//! Blocks fix the two outermost axes; the blocks of one anti-diagonal run in parallel and only two
//! diagonals of blocks are kept, as in [`crate::lines`].

use crate::checkpoint::{self as ck, Layer, Progress, Saver};
use crate::lines::{Hooks, Interrupted, Resume, Stop};
use crate::values::Values;
use rayon::prelude::*;
use std::collections::HashMap;
use std::io::{self, Read, Write};

#[derive(Clone, Copy)]
enum Reach {
    Inner { axis: usize, stride: usize },
    A,
    B,
}

struct Plan {
    persistent: bool,
    slot: usize,
    reach: Vec<Reach>,
}

struct Geometry {
    m: usize,
    r: usize,
    n_inner: usize,
    block: usize,
    ra: usize,
    rb: usize,
    plans: Vec<Plan>,
    np: usize,
    nl: usize,
    words: usize,
}

impl Geometry {
    fn new(m: usize, r: usize, windows: &[Vec<usize>], words: usize) -> Geometry {
        let n_inner = m.saturating_sub(2);
        let a_axis = (m >= 2).then(|| m - 2);
        let b_axis = (m >= 1).then(|| m - 1);
        let (mut np, mut nl) = (0, 0);
        let plans = windows
            .iter()
            .map(|w| {
                let persistent = w.iter().any(|&i| Some(i) == a_axis || Some(i) == b_axis);
                let c = if persistent { &mut np } else { &mut nl };
                let slot = *c;
                *c += 1;
                let reach = w
                    .iter()
                    .map(|&i| {
                        if Some(i) == a_axis {
                            Reach::A
                        } else if Some(i) == b_axis {
                            Reach::B
                        } else {
                            Reach::Inner {
                                axis: i,
                                stride: r.pow(i as u32),
                            }
                        }
                    })
                    .collect();
                Plan {
                    persistent,
                    slot,
                    reach,
                }
            })
            .collect();
        Geometry {
            m,
            r,
            n_inner,
            block: r.pow(n_inner as u32),
            ra: if a_axis.is_some() { r } else { 1 },
            rb: if b_axis.is_some() { r } else { 1 },
            plans,
            np,
            nl,
            words,
        }
    }
}

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
/// words and `threads` threads: every value (two bytes), the value sets of the windows that reach
/// across blocks for two diagonals of blocks, and each thread's scratch sets and values.
pub fn windows_memory(
    m: usize,
    r: usize,
    windows: &[Vec<usize>],
    words: usize,
    threads: usize,
) -> f64 {
    let g = Geometry::new(m, r, &crate::pset::engine_windows(m, windows), words);
    let block = g.block as f64;
    let total = (r as f64).powi(m as i32);
    let sets = 2.0 * g.ra as f64 * block * (g.np * words * 8) as f64;
    let scratch = threads as f64 * block * ((g.nl * words * 8) as f64 + 2.0);
    2.0 * total + sets + scratch
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
/// position, OR the set of their Grundy values into the words.
type Extra<'e> = Option<&'e (dyn Fn(&[u32], &mut [u64]) + Sync)>;

/// [`solve_block_of`] with the set width known at compile time for 1 to 4 words (every copy of a
/// set is then a few register moves, not a call to `memmove`), or read at run time.
#[allow(clippy::too_many_arguments)]
fn solve_block(
    g: &Geometry,
    a: usize,
    b: usize,
    cur: &mut [u64],
    prev_a: Option<&[u64]>,
    prev_b: Option<&[u64]>,
    out: &mut [u16],
    cancel: &dyn Fn() -> bool,
    extra: Extra,
) -> Result<bool, Overflow> {
    match g.words {
        1 => solve_block_of::<1>(g, a, b, cur, prev_a, prev_b, out, cancel, extra),
        2 => solve_block_of::<2>(g, a, b, cur, prev_a, prev_b, out, cancel, extra),
        3 => solve_block_of::<3>(g, a, b, cur, prev_a, prev_b, out, cancel, extra),
        4 => solve_block_of::<4>(g, a, b, cur, prev_a, prev_b, out, cancel, extra),
        _ => solve_block_of::<0>(g, a, b, cur, prev_a, prev_b, out, cancel, extra),
    }
}

thread_local! {
    /// The scratch of a block (the windows without A or B), kept from block to block on a thread.
    /// It is never read before it is written in the same block (a look-up reaches back one step
    /// along an inner axis, to a line of the same block), so it is not cleared.
    static SCRATCH: std::cell::RefCell<Vec<u64>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Solves block `(a, b)`; `W` is the set width in words (0: `g.words`, read at run time).
#[allow(clippy::too_many_arguments)]
fn solve_block_of<const W: usize>(
    g: &Geometry,
    a: usize,
    b: usize,
    cur: &mut [u64],
    prev_a: Option<&[u64]>,
    prev_b: Option<&[u64]>,
    out: &mut [u16],
    cancel: &dyn Fn() -> bool,
    extra: Extra,
) -> Result<bool, Overflow> {
    SCRATCH.with(|scratch| {
        let mut scratch = scratch.borrow_mut();
        let need = g.block * g.nl * g.words;
        if scratch.len() < need {
            scratch.resize(need, 0);
        }
        solve_block_in::<W>(
            g,
            a,
            b,
            cur,
            prev_a,
            prev_b,
            out,
            cancel,
            extra,
            &mut scratch[..need],
        )
    })
}

#[allow(clippy::too_many_arguments)]
fn solve_block_in<const W: usize>(
    g: &Geometry,
    a: usize,
    b: usize,
    cur: &mut [u64],
    prev_a: Option<&[u64]>,
    prev_b: Option<&[u64]>,
    out: &mut [u16],
    cancel: &dyn Fn() -> bool,
    extra: Extra,
    local: &mut [u64],
) -> Result<bool, Overflow> {
    let w = if W == 0 { g.words } else { W };
    let mut x = vec![0u32; g.m.max(2)];
    if g.m >= 2 {
        x[g.m - 2] = a as u32;
    }
    if g.m >= 1 {
        x[g.m - 1] = b as u32;
    }
    let mut acc = vec![0u64; g.plans.len() * w];
    let mut opts = vec![0u64; w];
    for idx in 0..g.block {
        if idx % 65536 == 65535 && cancel() {
            return Ok(false);
        }
        opts.iter_mut().for_each(|o| *o = 0);
        if let Some(f) = extra {
            f(&x, &mut opts);
        }
        for (j, p) in g.plans.iter().enumerate() {
            let a_j = &mut acc[j * w..(j + 1) * w];
            a_j.iter_mut().for_each(|o| *o = 0);
            let per = if p.persistent { g.np } else { g.nl };
            for rc in &p.reach {
                let (store, at): (&[u64], usize) = match *rc {
                    Reach::Inner { axis, stride } => {
                        if x[axis] == 0 {
                            continue;
                        }
                        (if p.persistent { &*cur } else { &*local }, idx - stride)
                    }
                    Reach::A => match prev_a {
                        Some(s) => (s, idx),
                        None => continue,
                    },
                    Reach::B => match prev_b {
                        Some(s) => (s, idx),
                        None => continue,
                    },
                };
                let src = &store[(at * per + p.slot) * w..][..w];
                for (d, s) in a_j.iter_mut().zip(src) {
                    *d |= s;
                }
            }
            for (o, s) in opts.iter_mut().zip(a_j.iter()) {
                *o |= s;
            }
        }
        let mut mex = None;
        for (t, &o) in opts.iter().enumerate() {
            if o != !0 {
                mex = Some(t * 64 + (!o).trailing_zeros() as usize);
                break;
            }
        }
        let Some(v) = mex.filter(|&v| v <= u16::MAX as usize) else {
            return Err(Overflow);
        };
        out[idx] = v as u16;
        for (j, p) in g.plans.iter().enumerate() {
            acc[j * w + v / 64] |= 1 << (v % 64);
            let per = if p.persistent { g.np } else { g.nl };
            let store = if p.persistent { &mut *cur } else { &mut *local };
            store[(idx * per + p.slot) * w..][..w].copy_from_slice(&acc[j * w..(j + 1) * w]);
        }
        for xa in x.iter_mut().take(g.n_inner) {
            *xa += 1;
            if (*xa as usize) < g.r {
                break;
            }
            *xa = 0;
        }
    }
    Ok(true)
}

/// The blocks `a` of diagonal `d` (with `b = d - a`).
fn diagonal(d: usize, ra: usize, rb: usize) -> (usize, usize) {
    (d.saturating_sub(rb - 1), d.min(ra - 1))
}

/// The state after diagonal `d`: its block stores and the values written so far (the set width is
/// written by the caller's layer).
fn write_state(
    w: &mut dyn Write,
    g: &Geometry,
    d: usize,
    stores: &[Vec<u64>],
    values: &[u16],
) -> io::Result<()> {
    for x in [g.m, g.r, g.block, g.np] {
        ck::put_u64(w, x as u64)?;
    }
    ck::put_u64(w, d as u64)?;
    let (lo, hi) = diagonal(d, g.ra, g.rb);
    for s in &stores[lo..=hi] {
        ck::put_u64s(w, s)?;
    }
    ck::put_u16s(w, values)
}

fn read_state(
    r: &mut dyn Read,
    g: &Geometry,
    stores: &mut [Vec<u64>],
    values: &mut [u16],
) -> io::Result<usize> {
    for (x, what) in [g.m, g.r, g.block, g.np]
        .into_iter()
        .zip(["axes", "radix", "block", "sets"])
    {
        ck::expect(r, x as u64, what)?;
    }
    let d = ck::get_len(r, g.ra + g.rb - 2)?;
    let (lo, hi) = diagonal(d, g.ra, g.rb);
    for s in &mut stores[lo..=hi] {
        ck::get_u64s_into(r, s)?;
    }
    ck::get_u16s_into(r, values)?;
    Ok(d)
}

fn damaged(e: io::Error) -> Stop {
    Stop::Damaged(format!("the checkpoint does not fit this table ({e})"))
}

#[allow(clippy::too_many_arguments)]
fn attempt(
    m: usize,
    r: usize,
    windows: &[Vec<usize>],
    words: usize,
    hooks: Hooks,
    extra: Extra,
    values: &mut [u16],
    resume: Resume,
) -> Result<Result<(), Overflow>, Stop> {
    let g = Geometry::new(m, r, windows, words);
    let total = values.len() as u64;
    let n_diag = g.ra + g.rb - 1;
    let size = g.block * g.np * words;
    let mut gens: [Vec<Vec<u64>>; 2] = [
        (0..g.ra).map(|_| vec![0u64; size]).collect(),
        (0..g.ra).map(|_| vec![0u64; size]).collect(),
    ];
    let mut first = 0;
    if let Some(rd) = resume.from {
        let d = read_state(rd, &g, &mut gens[0], values).map_err(damaged)?;
        if d % 2 == 1 {
            gens.swap(0, 1);
        }
        first = d + 1;
    }
    let mut saver = resume.saver;
    let cancel = || hooks.cancelled();
    let blocks_before = |d: usize| -> u64 {
        (0..d)
            .map(|e| {
                let (lo, hi) = diagonal(e, g.ra, g.rb);
                ((hi - lo + 1) * g.block) as u64
            })
            .sum()
    };
    let mut done = blocks_before(first);
    let stage = |d: usize| format!("diagonal {} of {n_diag}", d + 1);
    for d in first..n_diag {
        // Saves the last finished diagonal (d - 1) and stops.
        macro_rules! stop {
            () => {{
                if let (Some(s), true) = (saver.as_deref_mut(), d > first) {
                    let prev = &gens[(d - 1) % 2];
                    let vals: &[u16] = values;
                    s.save(
                        Progress {
                            done: blocks_before(d),
                            total,
                            stage: stage(d - 1),
                        },
                        &mut |w| write_state(w, &g, d - 1, prev, vals),
                    );
                }
                return Err(Stop::Interrupted);
            }};
        }
        if hooks.cancelled() {
            stop!();
        }
        let (lo_gen, hi_gen) = gens.split_at_mut(1);
        let (cur, prev) = if d % 2 == 0 {
            (&mut lo_gen[0], &hi_gen[0])
        } else {
            (&mut hi_gen[0], &lo_gen[0])
        };
        let (a_min, a_max) = diagonal(d, g.ra, g.rb);
        type BlockResult = Result<(bool, Vec<u16>), Overflow>;
        let results: Vec<(usize, BlockResult)> = cur[a_min..=a_max]
            .par_iter_mut()
            .enumerate()
            .map(|(off, store)| {
                let a = a_min + off;
                let b = d - a;
                let pa = (a > 0).then(|| prev[a - 1].as_slice());
                let pb = (b > 0).then(|| prev[a].as_slice());
                let mut out = vec![0u16; g.block];
                let r = solve_block(&g, a, b, store, pa, pb, &mut out, &cancel, extra);
                (a + b * g.ra, r.map(|full| (full, out)))
            })
            .collect();
        let mut complete = true;
        for (chunk, res) in results {
            match res {
                Ok((full, out)) => {
                    complete &= full;
                    values[chunk * g.block..(chunk + 1) * g.block].copy_from_slice(&out)
                }
                Err(o) => return Ok(Err(o)),
            }
        }
        if !complete {
            // Stopped inside this diagonal: the previous one is the last finished.
            stop!();
        }
        done += ((a_max - a_min + 1) * g.block) as u64;
        if let Some(p) = hooks.progress {
            p(done, total);
        }
        if d + 1 < n_diag {
            if let Some(s) = saver.as_deref_mut() {
                if s.due() {
                    let here = &gens[d % 2];
                    let vals: &[u16] = values;
                    s.save(
                        Progress {
                            done,
                            total,
                            stage: stage(d),
                        },
                        &mut |w| write_state(w, &g, d, here, vals),
                    );
                }
            }
        }
    }
    if hooks.cancelled() {
        return Err(Stop::Interrupted);
    }
    Ok(Ok(()))
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

const TAG_WINDOWS: u64 = 0x4752_4e44_0001;
const TAG_SHRINKING: u64 = 0x4752_4e44_0002;

/// [`solve`] with out-of-box options, into `values` (r^m of them); also returns the number of 64-bit
/// words a value set needs.
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
    // Engine axis j is tuple index m-1-j, so the engine's index is the tuple's lexicographic index.
    let user_windows = windows;
    let windows = crate::pset::engine_windows(m, windows);
    debug_assert_eq!(values.len(), r.pow(m as u32));
    let mut words = min_words.max(1);
    let Resume {
        mut saver,
        mut from,
    } = resume;
    if let Some(rd) = from.as_deref_mut() {
        (|| -> io::Result<()> {
            ck::expect(rd, TAG_WINDOWS, "section")?;
            words = ck::get_len(rd, 1024)?.max(1);
            Ok(())
        })()
        .map_err(damaged)?;
    }
    loop {
        let w = words;
        let head = move |out: &mut dyn Write| {
            ck::put_u64(out, TAG_WINDOWS)?;
            ck::put_u64(out, w as u64)
        };
        let total = values.len() as u64;
        let mut layer = saver.as_deref_mut().map(|inner| Layer {
            inner,
            head: &head,
            base: 0,
            total: Some(total),
            stage: String::new(),
        });
        let res = attempt(
            m,
            r,
            &windows,
            words,
            hooks,
            extra,
            &mut values,
            Resume {
                saver: layer.as_mut().map(|l| l as &mut dyn Saver),
                from: from.take(),
            },
        )?;
        match res {
            Ok(()) => {
                let top = values.iter().copied().max().unwrap_or(0) as usize;
                return Ok((values, top / 64 + 1));
            }
            Err(Overflow) if words >= MAX_WORDS => return Err(beyond()),
            Err(Overflow) => {
                words *= 2;
                // Wider sets: refused here when they no longer fit (the plan checked the first width).
                let threads = rayon::current_num_threads();
                let bytes = windows_memory(m, r, user_windows, words, threads);
                let allowed = crate::memory_allowed();
                if bytes > allowed {
                    return Err(Stop::Beyond(
                        nimlab_core::Refusal::new(format!(
                            "this Grundy table needs value sets of {words} words (values of {} or more), about {:.1} GiB, above the {:.1} GiB it may use here; use a smaller ",
                            words * 32,
                            bytes / (1u64 << 30) as f64,
                            allowed / (1u64 << 30) as f64
                        ))
                        .name(nimlab_core::Arg::Max),
                    ));
                }
            }
        }
    }
}

/// One circle length of SCN, solved: its values and the value sets `G_arc` of its arcs.
struct Circle {
    m: usize,
    values: Vec<u16>,
    words: usize,
    /// By arc (bit mask of tuple indices): for each position `c` (lexicographic index), the set of
    /// values of the positions `q <= c` with `q = c` off the arc, `words` words each.
    arcs: HashMap<u64, Vec<u64>>,
}

impl Circle {
    fn arc_table(&self, r: usize, mask: u64) -> Vec<u64> {
        let (m, w) = (self.m, self.words);
        let strides: Vec<usize> = (0..m).map(|i| r.pow((m - 1 - i) as u32)).collect();
        let mut set = vec![0u64; self.values.len() * w];
        let mut c = vec![0usize; m];
        for idx in 0..self.values.len() {
            let (done, rest) = set.split_at_mut(idx * w);
            let here = &mut rest[..w];
            let v = self.values[idx] as usize;
            here[v / 64] |= 1 << (v % 64);
            for i in 0..m {
                if c[i] > 0 && mask >> i & 1 == 1 {
                    let from = &done[(idx - strides[i]) * w..][..w];
                    for (d, s) in here.iter_mut().zip(from) {
                        *d |= s;
                    }
                }
            }
            for i in (0..m).rev() {
                c[i] += 1;
                if c[i] < r {
                    break;
                }
                c[i] = 0;
            }
        }
        set
    }
}

/// Bytes of value sets [`solve_shrinking`] keeps for SCN(n,k) with piles `1..=r`, counting two words
/// per set (values up to 127; more words when values pass that).
pub fn shrinking_memory(n: usize, k: usize, r: usize) -> f64 {
    let mut arcs: Vec<std::collections::HashSet<u64>> = vec![Default::default(); n + 1];
    for m in 1..=n {
        for v in crate::pset::vanishings(m, k) {
            if !v.kept.is_empty() && v.arc != 0 {
                arcs[v.kept.len()].insert(v.arc);
            }
        }
    }
    let words = 2.0 * 8.0;
    let sets: f64 = (1..n)
        .map(|mp| arcs[mp].len() as f64 * (r as f64).powi(mp as i32) * words)
        .sum();
    // The engine's two diagonals of blocks at the largest length.
    sets + 2.0 * (r as f64).powi(n as i32 - 1) * n as f64 * words
}

/// The Grundy value of every position of SCN(n,k) with piles `1..=r`, by circle length `0..=n`:
/// the value of the empty circle (0), then for each length `m` the `r^m` positions in lexicographic
/// order of their entries minus 1. Each length is a window game (CN(m,k), one window when `m <= k`)
/// whose moves that empty piles reach the value sets `G_arc` of the shorter circles.
pub fn solve_shrinking(
    n: usize,
    k: usize,
    r: usize,
    hooks: Hooks,
) -> Result<Vec<u16>, Interrupted> {
    solve_shrinking_resumable(n, k, r, hooks, Resume::default()).map_err(|_| Interrupted)
}

/// [`solve_shrinking`] with checkpoints (see [`crate::checkpoint`]): the section holds the circle
/// length in progress, the set width reached and the values of the finished lengths (their value
/// sets `G_arc` are recomputed from them on resume), then the engine's section.
pub fn solve_shrinking_resumable(
    n: usize,
    k: usize,
    r: usize,
    hooks: Hooks,
    resume: Resume,
) -> Result<Vec<u16>, Stop> {
    let mut start = Start::default();
    let Resume {
        mut saver,
        mut from,
    } = resume;
    if let Some(rd) = from.as_deref_mut() {
        (|| -> io::Result<()> {
            ck::expect(rd, TAG_SHRINKING, "section")?;
            start.first = ck::get_len(rd, n)?.max(1);
            start.min_words = ck::get_len(rd, 1024)?.max(1);
            let before: usize = (0..start.first).map(|l| r.pow(l as u32)).sum();
            start.values = ck::get_u16s(rd, before)?;
            if start.values.len() != before {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "values cut short",
                ));
            }
            Ok(())
        })()
        .map_err(damaged)?;
    }
    let total: u64 = (0..=n).map(|m| (r as u64).pow(m as u32)).sum();
    shrinking_on(n, k, r, hooks, start, &mut |len: Length| {
        let (m, mw, out_ref) = (len.m, len.min_words, len.before);
        let head = |w: &mut dyn Write| {
            ck::put_u64(w, TAG_SHRINKING)?;
            ck::put_u64(w, m as u64)?;
            ck::put_u64(w, mw as u64)?;
            ck::put_u16s(w, out_ref)
        };
        let mut layer = saver.as_deref_mut().map(|inner| Layer {
            inner,
            head: &head,
            base: out_ref.len() as u64,
            total: Some(total),
            stage: format!("length {m} of {n}: "),
        });
        solve_with(
            m,
            r,
            len.windows,
            Some(len.extra),
            len.min_words,
            len.hooks,
            Resume {
                saver: layer.as_mut().map(|l| l as &mut dyn Saver),
                from: from.take(),
            },
            Values::in_memory(r.pow(m as u32)),
        )
        .map(|(v, w)| (v.into_vec(), w))
    })
}

/// Where an SCN run starts: the first circle length to solve, the set width reached and the values of
/// the shorter lengths (length 0 first), as [`solve_shrinking`] lists them.
pub(crate) struct Start {
    pub(crate) first: usize,
    pub(crate) min_words: usize,
    pub(crate) values: Vec<u16>,
}

impl Default for Start {
    fn default() -> Start {
        Start {
            first: 1,
            min_words: 1,
            values: vec![0],
        }
    }
}

/// The values of the options of a position that leave the box (SCN's moves that empty piles): given
/// the position's engine coordinates (engine axis `j` is tuple index `m - 1 - j`), OR the set of
/// their Grundy values into the words (values beyond the words are left out: the mex is then below
/// them, or the words are all full and the caller widens them).
pub(crate) type OutOfBox<'e> = &'e (dyn Fn(&[u32], &mut [u64]) + Sync);

/// One circle length of SCN, handed to the solver of [`shrinking_on`].
pub(crate) struct Length<'a> {
    /// Stacks on the circle.
    pub(crate) m: usize,
    /// The windows of CN(m,k) (tuple indices).
    pub(crate) windows: &'a [Vec<usize>],
    /// The values of its moves that empty piles, from the shorter lengths.
    pub(crate) extra: OutOfBox<'a>,
    /// 64-bit words per value set that the shorter lengths needed (a good start).
    pub(crate) min_words: usize,
    /// The values of the shorter lengths, as [`solve_shrinking`] lists them.
    pub(crate) before: &'a [u16],
    /// The run's hooks, with progress counted over all lengths.
    pub(crate) hooks: Hooks<'a>,
}

/// Solves one circle length: its values in lexicographic order and the words its sets needed.
pub(crate) type LengthSolver<'s, E> = dyn FnMut(Length) -> Result<(Vec<u16>, usize), E> + 's;

/// [`solve_shrinking`], each circle length solved by `solve_len` from `start`: the CPU engine's path
/// (with checkpoints) and the GPU back end's.
pub(crate) fn shrinking_on<E: From<Interrupted>>(
    n: usize,
    k: usize,
    r: usize,
    hooks: Hooks,
    start: Start,
    solve_len: &mut LengthSolver<E>,
) -> Result<Vec<u16>, E> {
    let total: u64 = (0..=n).map(|m| (r as u64).pow(m as u32)).sum();
    let Start {
        first,
        mut min_words,
        values: mut out,
    } = start;
    let mut lower: Vec<Circle> = vec![Circle {
        m: 0,
        values: vec![0],
        words: 1,
        arcs: HashMap::new(),
    }];
    let mut at = 1;
    for mm in 1..first {
        let values = out[at..at + r.pow(mm as u32)].to_vec();
        at += values.len();
        let top = values.iter().copied().max().unwrap_or(0) as usize;
        lower.push(Circle {
            m: mm,
            values,
            words: top / 64 + 1,
            arcs: HashMap::new(),
        });
    }
    for m in first..=n {
        let moves = crate::pset::vanishings(m, k);
        // The value sets of the shorter circles these moves reach, built once per (length, arc).
        let mut need: Vec<(usize, u64)> = moves
            .iter()
            .filter(|v| v.arc != 0 && !lower[v.kept.len()].arcs.contains_key(&v.arc))
            .map(|v| (v.kept.len(), v.arc))
            .collect();
        need.sort_unstable();
        need.dedup();
        let built: Vec<(usize, u64, Vec<u64>)> = need
            .par_iter()
            .map(|&(mp, a)| (mp, a, lower[mp].arc_table(r, a)))
            .collect();
        for (mp, a, t) in built {
            lower[mp].arcs.insert(a, t);
        }
        if hooks.cancelled() {
            return Err(Interrupted.into());
        }
        // Group the moves by the piles they keep: one index per group.
        struct Reach<'t> {
            coef: Vec<(usize, usize)>,
            values: &'t [u16],
            sets: Vec<&'t [u64]>,
            words: usize,
        }
        let empties = moves.iter().any(|v| v.kept.is_empty());
        let mut reach: Vec<Reach> = Vec::new();
        for group in moves.chunk_by(|a, b| a.kept == b.kept) {
            let kept = &group[0].kept;
            let mp = kept.len();
            if mp == 0 {
                continue;
            }
            let c = &lower[mp];
            let sets = group
                .iter()
                .filter(|v| v.arc != 0)
                .map(|v| c.arcs[&v.arc].as_slice())
                .collect();
            let coef = kept
                .iter()
                .enumerate()
                .map(|(j, &i)| (m - 1 - i, r.pow((mp - 1 - j) as u32)))
                .collect();
            reach.push(Reach {
                coef,
                values: &c.values,
                sets,
                words: c.words,
            });
        }
        let extra = |x: &[u32], opts: &mut [u64]| {
            if empties {
                opts[0] |= 1;
            }
            for z in &reach {
                let idx: usize = z.coef.iter().map(|&(a, s)| x[a] as usize * s).sum();
                if z.sets.is_empty() {
                    let v = z.values[idx] as usize;
                    if v / 64 < opts.len() {
                        opts[v / 64] |= 1 << (v % 64);
                    }
                } else {
                    for t in &z.sets {
                        let set = &t[idx * z.words..][..z.words];
                        for (o, s) in opts.iter_mut().zip(set) {
                            *o |= s;
                        }
                    }
                }
            }
        };
        let base: u64 = (0..m).map(|l| (r as u64).pow(l as u32)).sum();
        let progress = hooks
            .progress
            .map(|f| move |d: u64, _t: u64| f(base + d, total));
        let sub = Hooks {
            cancel: hooks.cancel,
            progress: progress.as_ref().map(|f| f as &(dyn Fn(u64, u64) + Sync)),
        };
        let windows = crate::pset::cyclic_windows(m, k);
        let (values, words) = solve_len(Length {
            m,
            windows: &windows,
            extra: &extra,
            min_words,
            before: &out,
            hooks: sub,
        })?;
        drop(reach);
        min_words = words;
        out.extend_from_slice(&values);
        if m < n {
            lower.push(Circle {
                m,
                values,
                words,
                arcs: HashMap::new(),
            });
        }
        // Shorter circles than any later move reaches are no longer needed.
        if m < n && m + 1 > k {
            let gone = m + 1 - k;
            for c in lower.iter_mut().take(gone) {
                c.arcs.clear();
            }
        }
    }
    Ok(out)
}
