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
use std::io::{self, Read, Write};

mod shrinking;
pub use shrinking::{shrinking_memory, solve_shrinking, solve_shrinking_resumable};
#[cfg_attr(not(feature = "gpu"), allow(unused_imports))]
pub(crate) use shrinking::{shrinking_on, Length, Start};

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

thread_local! {
    /// The scratch of a block (the windows without A or B), kept from block to block on a thread.
    /// It is never read before it is written in the same block (a look-up reaches back one step
    /// along an inner axis, to a line of the same block), so it is not cleared.
    static SCRATCH: std::cell::RefCell<Vec<u64>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Solves block `(a, b)` in the thread's scratch, with the set width known at compile time for 1 to
/// 4 words (every copy of a set is then a few register moves, not a call to `memmove`), or read at
/// run time.
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
    SCRATCH.with(|scratch| {
        let mut scratch = scratch.borrow_mut();
        let need = g.block * g.nl * g.words;
        if scratch.len() < need {
            scratch.resize(need, 0);
        }
        let local = &mut scratch[..need];
        let solve = match g.words {
            1 => solve_block_in::<1>,
            2 => solve_block_in::<2>,
            3 => solve_block_in::<3>,
            4 => solve_block_in::<4>,
            _ => solve_block_in::<0>,
        };
        solve(g, a, b, cur, prev_a, prev_b, out, cancel, extra, local)
    })
}

/// The recurrence over the lines of block `(a, b)`; `W` is the set width in words (0: `g.words`,
/// read at run time).
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
