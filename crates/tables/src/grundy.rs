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

use crate::lines::{Hooks, Interrupted};
use rayon::prelude::*;

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
) -> Result<(), Overflow> {
    let w = g.words;
    let mut local = vec![0u64; g.block * g.nl * w];
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
            return Ok(());
        }
        opts.iter_mut().for_each(|o| *o = 0);
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
                        (if p.persistent { &*cur } else { &local }, idx - stride)
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
            let store = if p.persistent { &mut *cur } else { &mut local };
            store[(idx * per + p.slot) * w..][..w].copy_from_slice(&acc[j * w..(j + 1) * w]);
        }
        for axis in 0..g.n_inner {
            x[axis] += 1;
            if (x[axis] as usize) < g.r {
                break;
            }
            x[axis] = 0;
        }
    }
    Ok(())
}

fn attempt(
    m: usize,
    r: usize,
    windows: &[Vec<usize>],
    words: usize,
    hooks: Hooks,
    values: &mut [u16],
) -> Result<Result<(), Overflow>, Interrupted> {
    let g = Geometry::new(m, r, windows, words);
    let total = values.len() as u64;
    let size = g.block * g.np * words;
    let mut gens: [Vec<Vec<u64>>; 2] = [
        (0..g.ra).map(|_| vec![0u64; size]).collect(),
        (0..g.ra).map(|_| vec![0u64; size]).collect(),
    ];
    let cancel = || hooks.cancelled();
    let mut done = 0u64;
    for d in 0..(g.ra + g.rb - 1) {
        if hooks.cancelled() {
            return Err(Interrupted);
        }
        let (lo_gen, hi_gen) = gens.split_at_mut(1);
        let (cur, prev) = if d % 2 == 0 {
            (&mut lo_gen[0], &hi_gen[0])
        } else {
            (&mut hi_gen[0], &lo_gen[0])
        };
        let a_min = d.saturating_sub(g.rb - 1);
        let a_max = d.min(g.ra - 1);
        let results: Vec<(usize, Result<Vec<u16>, Overflow>)> = cur[a_min..=a_max]
            .par_iter_mut()
            .enumerate()
            .map(|(off, store)| {
                let a = a_min + off;
                let b = d - a;
                let pa = (a > 0).then(|| prev[a - 1].as_slice());
                let pb = (b > 0).then(|| prev[a].as_slice());
                let mut out = vec![0u16; g.block];
                let r = solve_block(&g, a, b, store, pa, pb, &mut out, &cancel);
                (a + b * g.ra, r.map(|_| out))
            })
            .collect();
        for (chunk, res) in results {
            match res {
                Ok(out) => values[chunk * g.block..(chunk + 1) * g.block].copy_from_slice(&out),
                Err(o) => return Ok(Err(o)),
            }
        }
        done += ((a_max - a_min + 1) * g.block) as u64;
        if let Some(p) = hooks.progress {
            p(done, total);
        }
    }
    if hooks.cancelled() {
        return Err(Interrupted);
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
    // Engine axis j is tuple index m-1-j, so the engine's index is the tuple's lexicographic index.
    let windows: Vec<Vec<usize>> = windows
        .iter()
        .map(|w| w.iter().map(|&c| m - 1 - c).collect())
        .collect();
    let mut values = vec![0u16; r.pow(m as u32)];
    let mut words = 1;
    loop {
        match attempt(m, r, &windows, words, hooks, &mut values)? {
            Ok(()) => return Ok(values),
            Err(Overflow) => {
                assert!(words < 1024, "Grundy values beyond 65535");
                words *= 2;
            }
        }
    }
}
