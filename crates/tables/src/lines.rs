//! The bit-parallel P-set engine for "window games" on a box.
//!
//! A window game on the box `[lo..=hi]^m` has a list of windows (sets of axes); a move picks one
//! window and lowers any of its entries (at least one token in all). CN(n,k) (cyclic windows of k
//! axes), Nim (single axes) and Moore's Nim_k (every set of k axes) are window games; SCN adds moves
//! that leave the box (piles that vanish), which come in through a [`LineOracle`].
//!
//! For a window `w` let `D_w(p)` mean "some P-position `q <= p` agrees with `p` outside `w`". Then
//! `p` is N iff for some window `w` and some `i` in `w` with `p_i > lo`, `D_w(p - e_i)`; and
//! `D_w(p) = P(p) or OR_{i in w, p_i > lo} D_w(p - e_i)`. Two positions that differ on one axis are
//! joined by a move, so a line of the box along axis 0 holds at most one P-position: a line is one
//! machine word (bit `j` is the position with `x_0 = lo + j`), `D_w` of a line is one word, and for
//! a window that contains axis 0 it is a prefix (every bit from the lowest set one on), stored as one
//! byte. A line costs one word operation per (window, axis of the window).
//!
//! Look-ups reach back one step along each axis, so the lines are processed in blocks: a block fixes
//! the two outermost axes `(A, B) = (m-2, m-1)`; the blocks of one anti-diagonal `a + b = d` do not
//! depend on each other and run in parallel, and only the blocks of diagonals `d - 1` and `d` are kept
//! (for the windows that contain `A` or `B`; the others live in per-block scratch).

use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Extra N-positions of a line from moves that leave the box (SCN's vanishing piles).
pub trait LineOracle: Sync {
    /// `x[1..m]`: the line's offsets from `lo` on axes `1..m` (`x[0]` is unused). Returns the bits of
    /// the line (bit `j`: `x_0 = lo + j`) that have a winning move out of the box.
    fn n_mask(&self, x: &[u32]) -> u64;
}

/// No move leaves the box.
pub struct NoOracle;
impl LineOracle for NoOracle {
    #[inline]
    fn n_mask(&self, _x: &[u32]) -> u64 {
        0
    }
}

/// A window game on a box, in engine axes (axis 0 is the bit axis).
#[derive(Debug, Clone)]
pub struct LineSpec {
    /// Number of axes, at least 1.
    pub m: usize,
    /// Values per axis (`hi - lo + 1`), 1 to 64.
    pub r: usize,
    /// The windows, as lists of distinct axes; every axis lies in some window.
    pub windows: Vec<Vec<usize>>,
    /// The all-`lo` position is terminal and counts as N (misère play).
    pub origin_n: bool,
}

/// Cancellation and progress for a run.
#[derive(Clone, Copy, Default)]
pub struct Hooks<'a> {
    pub cancel: Option<&'a AtomicBool>,
    /// Called now and then with (positions done, positions in all).
    pub progress: Option<&'a (dyn Fn(u64, u64) + Sync)>,
}

impl Hooks<'_> {
    pub fn cancelled(&self) -> bool {
        self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
    }
}

/// The run was stopped through [`Hooks::cancel`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interrupted;

#[derive(Clone, Copy)]
enum Reach {
    /// Same block, `stride` lines back; the axis is `axis`.
    Inner { axis: usize, stride: usize },
    /// The block one step back on axis A.
    A,
    /// The block one step back on axis B.
    B,
}

struct Plan {
    /// Contains axis 0: stored as a prefix start (byte).
    prefix: bool,
    /// Contains A or B: stored in the diagonal buffers.
    persistent: bool,
    /// Slot among the windows of the same (prefix, persistent) class.
    slot: usize,
    reach: Vec<Reach>,
}

#[derive(Default)]
struct Store {
    w: Vec<u64>,
    b: Vec<u8>,
}

impl Store {
    fn new(lines: usize, nw: usize, nb: usize) -> Store {
        Store {
            w: vec![0; lines * nw],
            b: vec![64; lines * nb],
        }
    }
}

struct Geometry {
    m: usize,
    r: usize,
    n_inner: usize,
    block: usize,
    ra: usize,
    rb: usize,
    stride_a: u64,
    stride_b: u64,
    full: u64,
    plans: Vec<Plan>,
    /// (words, bytes) per line in persistent and local storage.
    pw: usize,
    pb: usize,
    lw: usize,
    lb: usize,
}

impl Geometry {
    fn new(spec: &LineSpec) -> Geometry {
        let (m, r) = (spec.m, spec.r);
        assert!(m >= 1 && (1..=64).contains(&r));
        let n_inner = m.saturating_sub(3);
        let a_axis = if m >= 3 { Some(m - 2) } else { None };
        let b_axis = if m >= 2 { Some(m - 1) } else { None };
        let block = r.pow(n_inner as u32);
        let ra = if a_axis.is_some() { r } else { 1 };
        let rb = if b_axis.is_some() { r } else { 1 };
        let mut covered = vec![false; m];
        let (mut pw, mut pb, mut lw, mut lb) = (0, 0, 0, 0);
        let plans = spec
            .windows
            .iter()
            .map(|w| {
                for &i in w {
                    covered[i] = true;
                }
                let prefix = w.contains(&0);
                let persistent = w.iter().any(|&i| Some(i) == a_axis || Some(i) == b_axis);
                let counter = match (prefix, persistent) {
                    (false, true) => &mut pw,
                    (true, true) => &mut pb,
                    (false, false) => &mut lw,
                    (true, false) => &mut lb,
                };
                let slot = *counter;
                *counter += 1;
                let reach = w
                    .iter()
                    .filter(|&&i| i != 0)
                    .map(|&i| {
                        if Some(i) == a_axis {
                            Reach::A
                        } else if Some(i) == b_axis {
                            Reach::B
                        } else {
                            Reach::Inner {
                                axis: i,
                                stride: r.pow(i as u32 - 1),
                            }
                        }
                    })
                    .collect();
                Plan {
                    prefix,
                    persistent,
                    slot,
                    reach,
                }
            })
            .collect();
        assert!(
            covered.iter().all(|&c| c),
            "every axis must lie in a window"
        );
        Geometry {
            m,
            r,
            n_inner,
            block,
            ra,
            rb,
            stride_a: block as u64,
            stride_b: (block * ra) as u64,
            full: if r == 64 { !0 } else { (1u64 << r) - 1 },
            plans,
            pw,
            pb,
            lw,
            lb,
        }
    }
}

#[inline]
fn prefix_mask(start: u8, full: u64) -> u64 {
    if start >= 64 {
        0
    } else {
        (!0u64 << start) & full
    }
}

/// Solves the block `(a, b)`; returns its P-lines as (global line index, bit).
#[allow(clippy::too_many_arguments)]
fn solve_block<O: LineOracle>(
    g: &Geometry,
    origin_n: bool,
    oracle: &O,
    a: usize,
    b: usize,
    cur: &mut Store,
    prev_a: Option<&Store>,
    prev_b: Option<&Store>,
) -> Vec<(u64, u8)> {
    let mut local = Store::new(g.block, g.lw, g.lb);
    let mut out = Vec::new();
    let mut x = vec![0u32; g.m.max(3)];
    if g.m >= 3 {
        x[g.m - 2] = a as u32;
    }
    if g.m >= 2 {
        x[g.m - 1] = b as u32;
    }
    let mut acc = vec![0u64; g.plans.len()];
    let base = a as u64 * g.stride_a + b as u64 * g.stride_b;
    let outer_zero = a == 0 && b == 0;
    for idx in 0..g.block {
        let mut nmask = oracle.n_mask(&x[..g.m]);
        for (j, p) in g.plans.iter().enumerate() {
            let mut e = 0u64;
            for rc in &p.reach {
                let (store, at) = match *rc {
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
                e |= if p.prefix {
                    let nb = if p.persistent { g.pb } else { g.lb };
                    prefix_mask(store.b[at * nb + p.slot], g.full)
                } else {
                    let nw = if p.persistent { g.pw } else { g.lw };
                    store.w[at * nw + p.slot]
                };
            }
            if p.prefix && e != 0 {
                // Every position above the lowest one reached moves along axis 0 into the same set.
                e = prefix_mask(e.trailing_zeros() as u8, g.full);
            }
            acc[j] = e;
            nmask |= e;
        }
        if origin_n && outer_zero && idx == 0 {
            nmask |= 1;
        }
        let free = !nmask & g.full;
        let pbit = free & free.wrapping_neg();
        if pbit != 0 {
            out.push((base + idx as u64, pbit.trailing_zeros() as u8));
        }
        for (j, p) in g.plans.iter().enumerate() {
            let d = acc[j] | pbit;
            let store = if p.persistent { &mut *cur } else { &mut local };
            if p.prefix {
                let nb = if p.persistent { g.pb } else { g.lb };
                store.b[idx * nb + p.slot] = if d == 0 { 64 } else { d.trailing_zeros() as u8 };
            } else {
                let nw = if p.persistent { g.pw } else { g.lw };
                store.w[idx * nw + p.slot] = d;
            }
        }
        // Next inner line (odometer over axes 1..=n_inner, axis 1 fastest).
        for axis in 1..=g.n_inner {
            x[axis] += 1;
            if (x[axis] as usize) < g.r {
                break;
            }
            x[axis] = 0;
        }
    }
    out
}

/// Solves the P-set of a window game; `emit(b, lines)` receives, for each value `b` of the outermost
/// axis in increasing order, the P-lines of that slab as (global line index, bit of the P-position),
/// sorted by line index. The global line index is `sum_{j>=1} x_j r^(j-1)`.
pub fn solve<O: LineOracle>(
    spec: &LineSpec,
    oracle: &O,
    hooks: Hooks,
    emit: &mut dyn FnMut(usize, Vec<(u64, u8)>),
) -> Result<(), Interrupted> {
    let g = Geometry::new(spec);
    let total_lines = (g.block * g.ra * g.rb) as u64;
    let total = total_lines * g.r as u64;
    let mut gens: [Vec<Store>; 2] = [
        (0..g.ra).map(|_| Store::new(g.block, g.pw, g.pb)).collect(),
        (0..g.ra).map(|_| Store::new(g.block, g.pw, g.pb)).collect(),
    ];
    let mut pending: Vec<Vec<Vec<(u64, u8)>>> = vec![Vec::new(); g.rb];
    let mut next_emit = 0usize;
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
        let results: Vec<(usize, Vec<(u64, u8)>)> = cur[a_min..=a_max]
            .par_iter_mut()
            .enumerate()
            .map(|(off, store)| {
                let a = a_min + off;
                let b = d - a;
                let pa = (a > 0).then(|| &prev[a - 1]);
                let pb = (b > 0).then(|| &prev[a]);
                (
                    b,
                    solve_block(&g, spec.origin_n, oracle, a, b, store, pa, pb),
                )
            })
            .collect();
        for (b, lines) in results {
            pending[b].push(lines);
        }
        done += ((a_max - a_min + 1) * g.block * g.r) as u64;
        if let Some(p) = hooks.progress {
            p(done, total);
        }
        // Slab b is complete once the diagonal b + ra - 1 is done.
        while next_emit < g.rb && next_emit + g.ra - 1 <= d {
            let mut all: Vec<(u64, u8)> = std::mem::take(&mut pending[next_emit])
                .into_iter()
                .flatten()
                .collect();
            all.sort_unstable();
            emit(next_emit, all);
            next_emit += 1;
        }
    }
    Ok(())
}
