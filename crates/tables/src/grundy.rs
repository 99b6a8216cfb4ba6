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
use std::collections::HashMap;

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

/// Values of options that leave the box (SCN's vanishing piles): given the engine coordinates of a
/// position, OR the set of their Grundy values into the words.
type Extra<'e> = Option<&'e (dyn Fn(&[u32], &mut [u64]) + Sync)>;

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
        for xa in x.iter_mut().take(g.n_inner) {
            *xa += 1;
            if (*xa as usize) < g.r {
                break;
            }
            *xa = 0;
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
    extra: Extra,
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
                let r = solve_block(&g, a, b, store, pa, pb, &mut out, &cancel, extra);
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
    solve_with(m, r, windows, None, 1, hooks).map(|(v, _)| v)
}

/// [`solve`] with out-of-box options; also returns the number of 64-bit words a value set needs.
fn solve_with(
    m: usize,
    r: usize,
    windows: &[Vec<usize>],
    extra: Extra,
    min_words: usize,
    hooks: Hooks,
) -> Result<(Vec<u16>, usize), Interrupted> {
    // Engine axis j is tuple index m-1-j, so the engine's index is the tuple's lexicographic index.
    let windows = crate::pset::engine_windows(m, windows);
    let mut values = vec![0u16; r.pow(m as u32)];
    let mut words = min_words.max(1);
    loop {
        match attempt(m, r, &windows, words, hooks, extra, &mut values)? {
            Ok(()) => {
                let top = values.iter().copied().max().unwrap_or(0) as usize;
                return Ok((values, top / 64 + 1));
            }
            Err(Overflow) => {
                assert!(words < 1024, "Grundy values beyond 65535");
                words *= 2;
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
    let total: u64 = (0..=n).map(|m| (r as u64).pow(m as u32)).sum();
    let mut out = vec![0u16];
    let mut lower: Vec<Circle> = vec![Circle {
        m: 0,
        values: vec![0],
        words: 1,
        arcs: HashMap::new(),
    }];
    let mut min_words = 1;
    for m in 1..=n {
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
            return Err(Interrupted);
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
        let (values, words) = solve_with(m, r, &windows, Some(&extra), min_words, sub)?;
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
