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

use crate::checkpoint::{self as ck, Progress, Saver};
use rayon::prelude::*;
use std::io::{self, Read, Write};

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

/// Cancellation and progress for a run: the workspace's one hook type.
pub use nimlab_core::Hooks;

/// The run was stopped through [`Hooks::cancel`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interrupted;

/// Where a look-up reads: the current block, the block's scratch, or the previous blocks on A or B.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Src {
    Cur,
    Local,
    PrevA,
    PrevB,
}

/// One look-up `D_w(line - e_i)`: element `idx * width + delta` of `src` (idx: padded line index).
#[derive(Clone, Copy, Debug)]
struct Look {
    src: Src,
    delta: isize,
}

/// A window: where its own `D` is stored and what it reads.
struct Plan {
    /// Stored in the diagonal buffers (the window contains A or B) or in the block's scratch.
    persistent: bool,
    slot: usize,
    looks: Vec<Look>,
}

/// Storage of one block: words for windows without axis 0, prefix starts (bytes) for the others.
/// Lines are laid out with one padding row in front on every inner axis, never written, so a look-up
/// one step below coordinate 0 reads "nothing" (0, or 64 for a prefix start) without a test.
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
    /// Real lines per block, and padded lines per block.
    block: usize,
    padded: usize,
    /// Padded stride of each inner axis (index = axis).
    pstride: Vec<usize>,
    ra: usize,
    rb: usize,
    stride_a: u64,
    stride_b: u64,
    full: u64,
    words: Vec<Plan>,
    prefixes: Vec<Plan>,
    /// Record widths: persistent words, persistent bytes, local words, local bytes.
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
        let padded = (r + 1).pow(n_inner as u32);
        let mut pstride = vec![0usize; m.max(1)];
        for (i, ps) in pstride.iter_mut().enumerate().take(n_inner + 1).skip(1) {
            *ps = (r + 1).pow(i as u32 - 1);
        }
        let ra = if a_axis.is_some() { r } else { 1 };
        let rb = if b_axis.is_some() { r } else { 1 };
        let mut covered = vec![false; m];
        let (mut pw, mut pb, mut lw, mut lb) = (0, 0, 0, 0);
        let mut classes: Vec<(bool, bool, usize, &Vec<usize>)> = Vec::new();
        for w in &spec.windows {
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
            classes.push((prefix, persistent, *counter, w));
            *counter += 1;
        }
        assert!(
            covered.iter().all(|&c| c),
            "every axis must lie in a window"
        );
        let (mut words, mut prefixes) = (Vec::new(), Vec::new());
        for (prefix, persistent, slot, w) in classes {
            let width = match (prefix, persistent) {
                (false, true) => pw,
                (true, true) => pb,
                (false, false) => lw,
                (true, false) => lb,
            } as isize;
            let looks = w
                .iter()
                .filter(|&&i| i != 0)
                .map(|&i| {
                    if Some(i) == a_axis {
                        Look {
                            src: Src::PrevA,
                            delta: slot as isize,
                        }
                    } else if Some(i) == b_axis {
                        Look {
                            src: Src::PrevB,
                            delta: slot as isize,
                        }
                    } else {
                        Look {
                            src: if persistent { Src::Cur } else { Src::Local },
                            delta: slot as isize - pstride[i] as isize * width,
                        }
                    }
                })
                .collect();
            let plan = Plan {
                persistent,
                slot,
                looks,
            };
            if prefix {
                prefixes.push(plan);
            } else {
                words.push(plan);
            }
        }
        Geometry {
            m,
            r,
            n_inner,
            block,
            padded,
            pstride,
            ra,
            rb,
            stride_a: block as u64,
            stride_b: (block * ra) as u64,
            full: if r == 64 { !0 } else { (1u64 << r) - 1 },
            words,
            prefixes,
            pw,
            pb,
            lw,
            lb,
        }
    }
}

/// The bits from `start` on (none when `start` is 64).
#[inline(always)]
fn prefix_mask(start: u8, full: u64) -> u64 {
    let keep = 0u64.wrapping_sub((start < 64) as u64);
    (!0u64 << (start & 63)) & keep & full
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
    prev_a: &Store,
    prev_b: &Store,
) -> Vec<(u64, u8)> {
    let mut local = Store::new(g.padded, g.lw, g.lb);
    let mut out = Vec::new();
    let mut x = vec![0u32; g.m.max(3)];
    if g.m >= 3 {
        x[g.m - 2] = a as u32;
    }
    if g.m >= 2 {
        x[g.m - 1] = b as u32;
    }
    let mut acc_w = vec![0u64; g.words.len()];
    let mut acc_b = vec![0u64; g.prefixes.len()];
    let base = a as u64 * g.stride_a + b as u64 * g.stride_b;
    let outer_zero = a == 0 && b == 0;
    // Raw pointers: the current block is read (earlier lines) and written (this line) in one pass.
    let cur_w = cur.w.as_mut_ptr();
    let cur_b = cur.b.as_mut_ptr();
    let loc_w = local.w.as_mut_ptr();
    let loc_b = local.b.as_mut_ptr();
    let (pa_w, pa_b) = (prev_a.w.as_ptr(), prev_a.b.as_ptr());
    let (pb_w, pb_b) = (prev_b.w.as_ptr(), prev_b.b.as_ptr());
    let bases_w: [*const u64; 4] = [cur_w, loc_w, pa_w, pb_w];
    let bases_b: [*const u8; 4] = [cur_b, loc_b, pa_b, pb_b];
    // Padded index of the current line.
    let mut pidx: usize = (1..=g.n_inner).map(|i| g.pstride[i]).sum();
    for idx in 0..g.block {
        let mut nmask = oracle.n_mask(&x[..g.m]);
        let (atp_w, atl_w) = ((pidx * g.pw) as isize, (pidx * g.lw) as isize);
        for (j, p) in g.words.iter().enumerate() {
            let at = if p.persistent { atp_w } else { atl_w };
            let mut e = 0u64;
            for lk in &p.looks {
                // SAFETY: every look-up lands inside its block (padding rows included): the padded
                // index is at least one stride above 0 on each inner axis, and A/B read the same index.
                e |= unsafe { *bases_w[lk.src as usize].offset(at + lk.delta) };
            }
            acc_w[j] = e;
            nmask |= e;
        }
        let (atp_b, atl_b) = ((pidx * g.pb) as isize, (pidx * g.lb) as isize);
        for (j, p) in g.prefixes.iter().enumerate() {
            let at = if p.persistent { atp_b } else { atl_b };
            let mut start = 64u8;
            for lk in &p.looks {
                // SAFETY: as above.
                start = start.min(unsafe { *bases_b[lk.src as usize].offset(at + lk.delta) });
            }
            // Every position above the lowest one reached moves along axis 0 into the same set.
            let e = prefix_mask(start, g.full);
            acc_b[j] = e;
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
        for (j, p) in g.words.iter().enumerate() {
            let (ptr, width) = if p.persistent {
                (cur_w, g.pw)
            } else {
                (loc_w, g.lw)
            };
            // SAFETY: the record of this line, inside the block.
            unsafe { *ptr.add(pidx * width + p.slot) = acc_w[j] | pbit };
        }
        for (j, p) in g.prefixes.iter().enumerate() {
            let (ptr, width) = if p.persistent {
                (cur_b, g.pb)
            } else {
                (loc_b, g.lb)
            };
            let d = acc_b[j] | pbit;
            // SAFETY: as above.
            unsafe { *ptr.add(pidx * width + p.slot) = d.trailing_zeros() as u8 };
        }
        // Next inner line (odometer over axes 1..=n_inner, axis 1 fastest).
        #[allow(clippy::needless_range_loop)] // `axis` indexes two arrays in step
        for axis in 1..=g.n_inner {
            x[axis] += 1;
            pidx += g.pstride[axis];
            if (x[axis] as usize) < g.r {
                break;
            }
            x[axis] = 0;
            pidx -= g.r * g.pstride[axis];
        }
    }
    out
}

/// Why a resumable sweep stopped before the end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// Through [`Hooks::cancel`] (a checkpoint of the last finished diagonal was written first, when
    /// checkpoints are on).
    Interrupted,
    /// The checkpoint to resume from does not fit this sweep.
    Damaged(String),
}

impl From<Interrupted> for Stop {
    fn from(_: Interrupted) -> Stop {
        Stop::Interrupted
    }
}

/// Checkpoints of a sweep: where to write them, and the state to start from.
#[derive(Default)]
pub struct Resume<'s, 'r> {
    pub saver: Option<&'s mut dyn Saver>,
    /// A checkpoint's section for this sweep (read once, at the start).
    pub from: Option<&'r mut dyn Read>,
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
    match solve_resumable(spec, oracle, hooks, emit, Resume::default()) {
        Ok(()) => Ok(()),
        Err(_) => Err(Interrupted),
    }
}

/// The blocks `a` of diagonal `d` (with `b = d - a`).
fn diagonal(d: usize, ra: usize, rb: usize) -> (usize, usize) {
    (d.saturating_sub(rb - 1), d.min(ra - 1))
}

/// Positions in the blocks of diagonals `0..d`.
fn done_before(g: &Geometry, d: usize) -> u64 {
    (0..d)
        .map(|e| {
            let (lo, hi) = diagonal(e, g.ra, g.rb);
            ((hi - lo + 1) * g.block * g.r) as u64
        })
        .sum()
}

/// The state after diagonal `d`: its block stores, the P-lines of the slabs not yet emitted, and
/// the next slab to emit.
fn write_state(
    w: &mut dyn Write,
    g: &Geometry,
    d: usize,
    stores: &[Store],
    pending: &[Vec<Vec<(u64, u8)>>],
    next_emit: usize,
) -> io::Result<()> {
    for x in [g.m, g.r, g.padded, g.pw, g.pb] {
        ck::put_u64(w, x as u64)?;
    }
    ck::put_u64(w, d as u64)?;
    let (lo, hi) = diagonal(d, g.ra, g.rb);
    for s in &stores[lo..=hi] {
        ck::put_u64s(w, &s.w)?;
        ck::put_bytes(w, &s.b)?;
    }
    ck::put_u64(w, next_emit as u64)?;
    for p in &pending[next_emit..] {
        let all: Vec<(u64, u8)> = p.iter().flatten().copied().collect();
        ck::put_lines(w, &all)?;
    }
    Ok(())
}

/// Reads [`write_state`] back into `stores`; returns the diagonal and the next slab to emit.
fn read_state(
    r: &mut dyn Read,
    g: &Geometry,
    stores: &mut [Store],
    pending: &mut [Vec<Vec<(u64, u8)>>],
) -> io::Result<(usize, usize)> {
    for (x, what) in [g.m, g.r, g.padded, g.pw, g.pb]
        .into_iter()
        .zip(["axes", "radix", "block", "words", "bytes"])
    {
        ck::expect(r, x as u64, what)?;
    }
    let d = ck::get_len(r, g.ra + g.rb - 2)?;
    let (lo, hi) = diagonal(d, g.ra, g.rb);
    for s in &mut stores[lo..=hi] {
        ck::get_u64s_into(r, &mut s.w)?;
        ck::get_bytes_into(r, &mut s.b)?;
    }
    let next_emit = ck::get_len(r, g.rb)?;
    let max_lines = g.block * g.ra;
    for p in &mut pending[next_emit..] {
        *p = vec![ck::get_lines(r, max_lines)?];
    }
    Ok((d, next_emit))
}

/// [`solve`] with checkpoints: after a diagonal, when `resume.saver` says one is due (and before
/// returning on cancellation), the state is handed to it; with `resume.from`, the sweep starts from
/// such a state instead of the first diagonal.
pub fn solve_resumable<O: LineOracle>(
    spec: &LineSpec,
    oracle: &O,
    hooks: Hooks,
    emit: &mut dyn FnMut(usize, Vec<(u64, u8)>),
    resume: Resume,
) -> Result<(), Stop> {
    let g = Geometry::new(spec);
    let total_lines = (g.block * g.ra * g.rb) as u64;
    let total = total_lines * g.r as u64;
    let n_diag = g.ra + g.rb - 1;
    let mut gens: [Vec<Store>; 2] = [
        (0..g.ra)
            .map(|_| Store::new(g.padded, g.pw, g.pb))
            .collect(),
        (0..g.ra)
            .map(|_| Store::new(g.padded, g.pw, g.pb))
            .collect(),
    ];
    let nothing = Store::new(g.padded, g.pw, g.pb);
    let mut pending: Vec<Vec<Vec<(u64, u8)>>> = vec![Vec::new(); g.rb];
    let mut next_emit = 0usize;
    let mut first = 0usize;
    if let Some(r) = resume.from {
        let (lo_gen, hi_gen) = gens.split_at_mut(1);
        let (d, ne) = read_state(r, &g, &mut lo_gen[0], &mut pending)
            .map_err(|e| Stop::Damaged(format!("the checkpoint does not fit this table ({e})")))?;
        if d % 2 == 1 {
            // The stores of an odd diagonal live in the second generation.
            std::mem::swap(&mut lo_gen[0], &mut hi_gen[0]);
        }
        next_emit = ne;
        first = d + 1;
    }
    let mut saver = resume.saver;
    let mut done = done_before(&g, first);
    let stage = |d: usize, ne: usize| {
        format!(
            "diagonal {} of {n_diag}, {ne} of {} slabs emitted",
            d + 1,
            g.rb
        )
    };
    for d in first..n_diag {
        if hooks.cancelled() {
            if let (Some(s), true) = (saver.as_deref_mut(), d > first) {
                let prev = &gens[(d - 1) % 2];
                s.save(
                    Progress {
                        done,
                        total,
                        stage: stage(d - 1, next_emit),
                    },
                    &mut |w| write_state(w, &g, d - 1, prev, &pending, next_emit),
                );
            }
            return Err(Stop::Interrupted);
        }
        let (lo_gen, hi_gen) = gens.split_at_mut(1);
        let (cur, prev) = if d % 2 == 0 {
            (&mut lo_gen[0], &hi_gen[0])
        } else {
            (&mut hi_gen[0], &lo_gen[0])
        };
        let (a_min, a_max) = diagonal(d, g.ra, g.rb);
        let results: Vec<(usize, Vec<(u64, u8)>)> = cur[a_min..=a_max]
            .par_iter_mut()
            .enumerate()
            .map(|(off, store)| {
                let a = a_min + off;
                let b = d - a;
                let pa = if a > 0 { &prev[a - 1] } else { &nothing };
                let pb = if b > 0 { &prev[a] } else { &nothing };
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
        if d + 1 < n_diag {
            if let Some(s) = saver.as_deref_mut() {
                if s.due() {
                    let here = &gens[d % 2];
                    s.save(
                        Progress {
                            done,
                            total,
                            stage: stage(d, next_emit),
                        },
                        &mut |w| write_state(w, &g, d, here, &pending, next_emit),
                    );
                }
            }
        }
    }
    Ok(())
}
