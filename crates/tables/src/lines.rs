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
//! joined by a move, so a line of the box along axis 0 holds at most one P-position: a line is a bit
//! set of `r = hi - lo + 1` bits in `ceil(r / 64)` machine words (bit `j` is the position with
//! `x_0 = lo + j`), `D_w` of a line is such a bit set, and for a window that contains axis 0 it is a
//! prefix (every bit from the lowest set one on), stored as its start (two bytes). A line costs
//! `ceil(r / 64)` word operations per (window without axis 0, axis of the window), and one
//! comparison per (window with axis 0, axis): memory and time grow with the lines, and with the
//! length of a line only in steps of 64.
//!
//! Look-ups reach back one step along each axis, so the lines are processed in blocks: a block fixes
//! the two outermost axes `(A, B) = (m-2, m-1)`; the blocks of one anti-diagonal `a + b = d` do not
//! depend on each other and run in parallel, and only the blocks of diagonals `d - 1` and `d` are kept
//! (for the windows that contain `A` or `B`; the others live in per-block scratch).

use crate::checkpoint::{self as ck, Progress, Saver};
use crate::cluster::{self as cl, Cluster, Solo, Topic};
use rayon::prelude::*;
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, RwLock};

/// A P-position found by the engine: (global line index, offset of the P-position on its line).
pub type PLine = (u64, u32);

/// Largest number of values per axis (`hi - lo + 1`) the engine takes: prefix starts are two bytes.
pub const MAX_RADIX: usize = u16::MAX as usize;

/// The start of an empty prefix.
const NONE: u16 = u16::MAX;

/// Extra N-positions of a line from moves that leave the box (SCN's vanishing piles).
pub trait LineOracle: Sync {
    /// `x[1..m]`: the line's offsets from `lo` on axes `1..m` (`x[0]` is unused). ORs into `out`
    /// (the line's `ceil(r / 64)` words; bit `j` of the line is bit `j % 64` of word `j / 64`) the
    /// positions of the line that have a winning move out of the box. Bits past the line's end are
    /// ignored.
    fn n_mask(&self, x: &[u32], out: &mut [u64]);

    /// False when no move ever leaves the box (then [`LineOracle::n_mask`] is never called).
    fn active(&self) -> bool {
        true
    }
}

/// No move leaves the box.
pub struct NoOracle;
impl LineOracle for NoOracle {
    #[inline]
    fn n_mask(&self, _x: &[u32], _out: &mut [u64]) {}

    #[inline(always)]
    fn active(&self) -> bool {
        false
    }
}

/// A window game on a box, in engine axes (axis 0 is the line axis).
#[derive(Debug, Clone)]
pub struct LineSpec {
    /// Number of axes, at least 1.
    pub m: usize,
    /// Values per axis (`hi - lo + 1`), 1 to [`MAX_RADIX`].
    pub r: usize,
    /// The windows, as lists of distinct axes; every axis lies in some window.
    pub windows: Vec<Vec<usize>>,
    /// The all-`lo` position is terminal and counts as N (misère play).
    pub origin_n: bool,
}

impl LineSpec {
    /// Bytes the sweep keeps with `threads` threads: the stores of one diagonal of blocks and one
    /// more per task (two diagonals when blocks are small), and one scratch store per thread (an
    /// estimate for refusals; the P-positions waiting for their slab to complete are not counted).
    pub fn working_bytes(&self, threads: usize) -> f64 {
        let g = Geometry::new(self);
        let per_line = |w: usize, b: usize| (w * g.l * 8 + b * 2) as f64;
        let store = g.padded as f64 * per_line(g.pw, g.pb);
        let scratch = g.padded as f64 * per_line(g.lw, g.lb);
        let held = if hands_back(&g) {
            g.ra + (threads * TASKS_PER_THREAD).min(g.ra)
        } else {
            2 * g.ra
        };
        held as f64 * store + threads as f64 * scratch
    }
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

/// One look-up `D_w(line - e_i)`: record `idx * width + delta` of `src` (idx: padded line index; a
/// record of a word window is `l` words, of a prefix window one start).
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

/// Storage of one block: words for windows without axis 0 (`l` per line and window), prefix starts
/// for the others. Lines are laid out with one padding row in front on every inner axis, never
/// written, so a look-up one step below coordinate 0 reads "nothing" (0, or [`NONE`] for a prefix
/// start) without a test.
struct Store {
    w: Vec<u64>,
    b: Vec<u16>,
}

impl Store {
    fn new(lines: usize, nw: usize, nb: usize, l: usize) -> Store {
        Store {
            w: vec![0; lines * nw * l],
            b: vec![NONE; lines * nb],
        }
    }
}

struct Geometry {
    m: usize,
    r: usize,
    /// Words per line.
    l: usize,
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
        assert!(m >= 1 && (1..=MAX_RADIX).contains(&r));
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
            l: r.div_ceil(64),
            n_inner,
            block,
            padded,
            pstride,
            ra,
            rb,
            stride_a: block as u64,
            stride_b: (block * ra) as u64,
            words,
            prefixes,
            pw,
            pb,
            lw,
            lb,
        }
    }

    fn store(&self) -> Store {
        Store::new(self.padded, self.pw, self.pb, self.l)
    }

    /// Bytes of one block's store.
    fn store_bytes(&self) -> usize {
        self.padded * (self.pw * self.l * 8 + self.pb * 2)
    }
}

/// Words per line, known at compile time for lines of one word (the common case, kept as fast as a
/// single-word engine) or read at run time.
trait Width: Copy + Send + Sync {
    fn get(self) -> usize;
}

#[derive(Clone, Copy)]
struct OneWord;
impl Width for OneWord {
    #[inline(always)]
    fn get(self) -> usize {
        1
    }
}

#[derive(Clone, Copy)]
struct Words(usize);
impl Width for Words {
    #[inline(always)]
    fn get(self) -> usize {
        self.0
    }
}

/// Solves the block `(a, b)`; returns its P-lines.
///
/// A line is done word by word: each word of each window's `D` is the OR of its look-ups, written
/// to the line's record at once (no look-up of this line reads its own record), and ORed into the
/// word's N-mask; the line's P-position is the lowest bit no move reaches below the prefix windows'
/// lowest start, and is then added to the one word of each record that holds it. With one word per
/// line everything stays in registers.
#[allow(clippy::too_many_arguments)]
fn solve_block<O: LineOracle, W: Width>(
    g: &Geometry,
    width: W,
    origin_n: bool,
    oracle: &O,
    a: usize,
    b: usize,
    cur: &mut Store,
    prev_a: &Store,
    prev_b: &Store,
) -> Vec<PLine> {
    let l = width.get();
    let mut local = Store::new(g.padded, g.lw, g.lb, l);
    let mut out = Vec::new();
    let mut x = vec![0u32; g.m.max(3)];
    if g.m >= 3 {
        x[g.m - 2] = a as u32;
    }
    if g.m >= 2 {
        x[g.m - 1] = b as u32;
    }
    let mut acc_b = vec![NONE; g.prefixes.len()];
    // The oracle's N-positions of the line (moves out of the box), when the game has such moves.
    let mut extra = vec![0u64; if oracle.active() { l } else { 0 }];
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
    let bases_b: [*const u16; 4] = [cur_b, loc_b, pa_b, pb_b];
    // Padded index of the current line.
    let mut pidx: usize = (1..=g.n_inner).map(|i| g.pstride[i]).sum();
    for idx in 0..g.block {
        if oracle.active() {
            extra.fill(0);
            oracle.n_mask(&x[..g.m], &mut extra);
        }
        // Every position above the lowest one reached moves along axis 0 into the same set: the
        // windows with axis 0 make every bit from the smallest start on N.
        let (atp_b, atl_b) = ((pidx * g.pb) as isize, (pidx * g.lb) as isize);
        let mut lowest = NONE;
        for (j, p) in g.prefixes.iter().enumerate() {
            let at = if p.persistent { atp_b } else { atl_b };
            let mut start = NONE;
            for lk in &p.looks {
                // SAFETY: every look-up lands inside its block (padding rows included): the padded
                // index is at least one stride above 0 on each inner axis, and A/B read the same
                // index.
                start = start.min(unsafe { *bases_b[lk.src as usize].offset(at + lk.delta) });
            }
            acc_b[j] = start;
            lowest = lowest.min(start);
        }
        // The P-position is the lowest bit below `end` that no move reaches.
        let end = (lowest as usize).min(g.r);
        let mut pos = NONE;
        let mut searching = end > 0;
        let (atp_w, atl_w) = ((pidx * g.pw) as isize, (pidx * g.lw) as isize);
        #[allow(clippy::needless_range_loop)] // `extra` is empty without an oracle
        for t in 0..l {
            let mut nm = if oracle.active() { extra[t] } else { 0 };
            if t == 0 && origin_n && outer_zero && idx == 0 {
                nm |= 1;
            }
            for p in &g.words {
                let (at, dst) = if p.persistent {
                    (atp_w, cur_w)
                } else {
                    (atl_w, loc_w)
                };
                let mut e = 0u64;
                for lk in &p.looks {
                    // SAFETY: as above; a record is `l` words.
                    e |= unsafe {
                        *bases_w[lk.src as usize].offset((at + lk.delta) * l as isize + t as isize)
                    };
                }
                // SAFETY: word t of this line's record, inside the block.
                unsafe { *dst.offset((at + p.slot as isize) * l as isize + t as isize) = e };
                nm |= e;
            }
            if searching {
                let free = !nm;
                if free != 0 {
                    let at = t * 64 + free.trailing_zeros() as usize;
                    if at < end {
                        pos = at as u16;
                    }
                    searching = false;
                } else if (t + 1) * 64 >= end {
                    searching = false;
                }
            }
        }
        if pos != NONE {
            out.push((base + idx as u64, pos as u32));
            let (t, bit) = (pos as usize / 64, 1u64 << (pos % 64));
            for p in &g.words {
                let (at, dst) = if p.persistent {
                    (atp_w, cur_w)
                } else {
                    (atl_w, loc_w)
                };
                // SAFETY: as above.
                unsafe { *dst.offset((at + p.slot as isize) * l as isize + t as isize) |= bit };
            }
        }
        for (j, p) in g.prefixes.iter().enumerate() {
            let (ptr, wd) = if p.persistent {
                (cur_b, g.pb)
            } else {
                (loc_b, g.lb)
            };
            // SAFETY: as above.
            unsafe { *ptr.add(pidx * wd + p.slot) = acc_b[j].min(pos) };
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

/// Blocks whose stores are smaller than this many bytes are not handed back one by one (the
/// diagonal is small); see [`hand_back_from`].
static HAND_BACK_BYTES: AtomicUsize = AtomicUsize::new(1 << 20);

/// Sets the store size from which blocks of the previous diagonal are handed back one by one (1 MiB
/// unless set): tests set 0 to run that path on small boxes. Both paths give the same tables and
/// checkpoints.
#[doc(hidden)]
pub fn hand_back_from(bytes: usize) {
    HAND_BACK_BYTES.store(bytes, Ordering::Relaxed);
}

fn hands_back(g: &Geometry) -> bool {
    g.store_bytes() >= HAND_BACK_BYTES.load(Ordering::Relaxed)
}

/// [`solve_block`] with lines of one word known at compile time, or of `g.l` words.
#[allow(clippy::too_many_arguments)]
fn solve_any_width<O: LineOracle>(
    g: &Geometry,
    origin_n: bool,
    oracle: &O,
    a: usize,
    b: usize,
    cur: &mut Store,
    prev_a: &Store,
    prev_b: &Store,
) -> Vec<PLine> {
    if g.l == 1 {
        solve_block(g, OneWord, origin_n, oracle, a, b, cur, prev_a, prev_b)
    } else {
        solve_block(g, Words(g.l), origin_n, oracle, a, b, cur, prev_a, prev_b)
    }
}

/// Runs of blocks per thread in a diagonal (balance against blocks held twice at run boundaries).
const TASKS_PER_THREAD: usize = 4;

/// A block of the previous diagonal that a block reads, or the empty block outside the box.
fn held<'s>(s: Option<&'s Option<Store>>, nothing: &'s Store) -> &'s Store {
    s.map_or(nothing, |s| s.as_ref().expect("the blocks read are held"))
}

/// Why a resumable sweep stopped before the end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// Through [`Hooks::cancel`] (a checkpoint of the last finished diagonal was written first, when
    /// checkpoints are on).
    Interrupted,
    /// The checkpoint to resume from does not fit this sweep.
    Damaged(String),
    /// The table does not fit what the engine represents (a Grundy value past 65535).
    Beyond(String),
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
    emit: &mut dyn FnMut(usize, Vec<PLine>),
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

/// The blocks `a` of diagonal `d` owned by rank `q` of `ranks`: an equal share of the diagonal,
/// the ranks in order.
fn owned(g: &Geometry, d: usize, q: usize, ranks: usize) -> std::ops::Range<usize> {
    let (lo, hi) = diagonal(d, g.ra, g.rb);
    let len = hi - lo + 1;
    lo + q * len / ranks..lo + (q + 1) * len / ranks
}

/// The rank that owns block `a` of diagonal `d` (which must lie on it).
fn owner(g: &Geometry, d: usize, a: usize, ranks: usize) -> usize {
    (0..ranks)
        .find(|&q| owned(g, d, q, ranks).contains(&a))
        .expect("the block lies on the diagonal")
}

/// True when block `a` lies on diagonal `d`.
fn on_diagonal(g: &Geometry, d: usize, a: usize) -> bool {
    let (lo, hi) = diagonal(d, g.ra, g.rb);
    (lo..=hi).contains(&a)
}

/// The geometry fields a checkpoint starts with, and its diagonal.
fn write_head(w: &mut dyn Write, g: &Geometry, d: usize) -> io::Result<()> {
    for x in [g.m, g.r, g.padded, g.pw, g.pb, g.l] {
        ck::put_u64(w, x as u64)?;
    }
    ck::put_u64(w, d as u64)
}

fn read_head(r: &mut dyn Read, g: &Geometry) -> io::Result<usize> {
    for (x, what) in [g.m, g.r, g.padded, g.pw, g.pb, g.l].into_iter().zip([
        "axes",
        "radix",
        "block",
        "words",
        "starts",
        "words per line",
    ]) {
        ck::expect(r, x as u64, what)?;
    }
    ck::get_len(r, g.ra + g.rb - 2)
}

fn write_store(w: &mut dyn Write, s: &Store) -> io::Result<()> {
    ck::put_u64s(w, &s.w)?;
    ck::put_u16s(w, &s.b)
}

fn read_store(r: &mut dyn Read, s: &mut Store) -> io::Result<()> {
    ck::get_u64s_into(r, &mut s.w)?;
    ck::get_u16s_into(r, &mut s.b)
}

/// The P-lines of the slabs not yet emitted, and the next slab to emit.
fn write_tail(w: &mut dyn Write, pending: &[Vec<PLine>], next_emit: usize) -> io::Result<()> {
    ck::put_u64(w, next_emit as u64)?;
    for p in &pending[next_emit..] {
        ck::put_lines(w, p)?;
    }
    Ok(())
}

fn read_tail(r: &mut dyn Read, g: &Geometry, pending: &mut [Vec<PLine>]) -> io::Result<usize> {
    let next_emit = ck::get_len(r, g.rb)?;
    let max_lines = g.block * g.ra;
    for p in &mut pending[next_emit..] {
        *p = ck::get_lines(r, max_lines)?;
    }
    Ok(next_emit)
}

/// A block's store as the two messages that carry it.
fn store_messages(to: usize, s: &Store) -> [(usize, &[u8]); 2] {
    [
        (to, cl::words_as_bytes(&s.w)),
        (to, cl::halves_as_bytes(&s.b)),
    ]
}

/// A block's store from its two messages; `None` when they do not fit this geometry.
fn store_of(g: &Geometry, w: &[u8], b: &[u8], spare: &mut Vec<Store>) -> Option<Store> {
    let mut s = spare.pop().unwrap_or_else(|| g.store());
    (cl::bytes_into_words(w, &mut s.w) && cl::bytes_into_halves(b, &mut s.b)).then_some(s)
}

/// The P-lines of a rank's blocks of one diagonal, as one message (rank 0 knows which blocks).
fn lines_message(blocks: &[(usize, Vec<PLine>)]) -> Vec<u8> {
    let mut m = Vec::new();
    for (_, lines) in blocks {
        m.extend_from_slice(&(lines.len() as u64).to_le_bytes());
        for &(l, bit) in lines {
            m.extend_from_slice(&l.to_le_bytes());
            m.extend_from_slice(&bit.to_le_bytes());
        }
    }
    m
}

fn lines_of_message(m: &[u8], blocks: usize) -> Vec<Vec<PLine>> {
    let mut at = 0;
    let word = |at: &mut usize| {
        let x = u64::from_le_bytes(m[*at..*at + 8].try_into().expect("8 bytes"));
        *at += 8;
        x
    };
    (0..blocks)
        .map(|_| {
            let n = word(&mut at) as usize;
            (0..n)
                .map(|_| {
                    let l = word(&mut at);
                    at += 4;
                    let bit = u32::from_le_bytes(m[at - 4..at].try_into().expect("4 bytes"));
                    (l, bit)
                })
                .collect()
        })
        .collect()
}

/// Decision bits shared by all ranks before each diagonal.
const CANCEL: u8 = 1;
const SAVE_DUE: u8 = 2;
const CAN_SAVE: u8 = 4;

/// [`solve`] with checkpoints: after a diagonal, when `resume.saver` says one is due (and before
/// returning on cancellation), the state is handed to it; with `resume.from`, the sweep starts from
/// such a state instead of the first diagonal.
pub fn solve_resumable<O: LineOracle>(
    spec: &LineSpec,
    oracle: &O,
    hooks: Hooks,
    emit: &mut dyn FnMut(usize, Vec<PLine>),
    resume: Resume,
) -> Result<(), Stop> {
    solve_on(&Solo, spec, oracle, hooks, emit, resume)
}

/// [`solve_resumable`] on the ranks of `cluster`, each rank computing an equal share of every
/// diagonal's blocks; every rank calls it with the same `spec` and `oracle`. The blocks of the
/// previous diagonal that a rank reads but did not compute come from the ranks that did (its
/// neighbours); the P-lines go to rank 0, the only rank that calls `emit`, reports progress and
/// saves or reads checkpoints (`resume` is ignored elsewhere). A checkpoint holds the same state
/// whatever the number of ranks, so a table continues on any number of them. Cancellation on any
/// rank stops all of them after the diagonal in progress.
pub fn solve_on<O: LineOracle>(
    cluster: &dyn Cluster,
    spec: &LineSpec,
    oracle: &O,
    hooks: Hooks,
    emit: &mut dyn FnMut(usize, Vec<PLine>),
    resume: Resume,
) -> Result<(), Stop> {
    let mut sweep = Sweep::new(cluster, spec, oracle);
    let (mut saver, from) = if sweep.root {
        (resume.saver, resume.from)
    } else {
        (None, None)
    };
    let first = sweep.start(from)?;
    sweep.done = done_before(&sweep.g, first);
    for d in first..sweep.n_diag {
        let flags = sweep.decide(d, first, &hooks, saver.as_deref_mut());
        let cancel = flags & CANCEL != 0;
        if d > first && (flags & SAVE_DUE != 0 || (cancel && flags & CAN_SAVE != 0)) {
            sweep.save_state(d - 1, saver.as_deref_mut());
        }
        if cancel {
            return Err(Stop::Interrupted);
        }
        sweep.receive_boundary(d);
        let (cur, results) = sweep.compute_diagonal(d);
        sweep.send_lines(d, results, &hooks, emit);
        sweep.advance(cur);
    }
    Ok(())
}

/// One rank's part of a sweep: the geometry, the stores of the previous diagonal it holds, and (on
/// rank 0) the P-lines of the slabs not yet emitted. Its methods are the steps of [`solve_on`], and
/// every rank calls each of them together.
struct Sweep<'a, O> {
    cluster: &'a dyn Cluster,
    origin_n: bool,
    oracle: &'a O,
    g: Geometry,
    me: usize,
    ranks: usize,
    root: bool,
    /// Positions in the box.
    total: u64,
    /// Positions in the diagonals done so far.
    done: u64,
    n_diag: usize,
    /// The store of a block outside the box (every line empty).
    nothing: Store,
    /// The stores of the previous diagonal held here (computed here or received), by block.
    prev: Vec<Option<Store>>,
    spare: Vec<Store>,
    /// Rank 0: the P-lines of each slab not yet emitted, and the next slab to emit.
    pending: Vec<Vec<PLine>>,
    next_emit: usize,
}

impl<'a, O: LineOracle> Sweep<'a, O> {
    /// The state of this rank before the first diagonal: nothing held yet.
    fn new(cluster: &'a dyn Cluster, spec: &LineSpec, oracle: &'a O) -> Self {
        let g = Geometry::new(spec);
        Sweep {
            cluster,
            origin_n: spec.origin_n,
            oracle,
            me: cluster.rank(),
            ranks: cluster.size(),
            root: cluster.is_root(),
            total: (g.block * g.ra * g.rb * g.r) as u64,
            done: 0,
            n_diag: g.ra + g.rb - 1,
            nothing: g.store(),
            prev: (0..g.ra).map(|_| None).collect(),
            spare: Vec::new(),
            pending: vec![Vec::new(); g.rb],
            next_emit: 0,
            g,
        }
    }

    /// A store to fill: a spare one, or a new one.
    fn fresh_store(&mut self) -> Store {
        self.spare.pop().unwrap_or_else(|| self.g.store())
    }

    /// Where to start, the first diagonal to compute: rank 0 reads the checkpoint's diagonal from
    /// `from` (when resuming) and tells every rank, which then receives its blocks.
    fn start<'r>(&mut self, mut from: Option<&mut (dyn Read + 'r)>) -> Result<usize, Stop> {
        let damaged =
            |e: String| Stop::Damaged(format!("the checkpoint does not fit this table ({e})"));
        let mut head = vec![0u8; 9];
        let mut refusal = None;
        if let Some(r) = from.as_deref_mut() {
            match read_head(r, &self.g) {
                Ok(d) => {
                    head[0] = 1;
                    head[1..].copy_from_slice(&(d as u64).to_le_bytes());
                }
                Err(e) => {
                    head[0] = 2;
                    refusal = Some(e.to_string());
                }
            }
        }
        let head = self.cluster.broadcast(Topic::Control, head);
        match head.first() {
            Some(1) => {
                let d = u64::from_le_bytes(head[1..9].try_into().expect("8 bytes")) as usize;
                self.load(d, from).map_err(damaged)?;
                Ok(d + 1)
            }
            Some(2) => Err(damaged(
                refusal.unwrap_or_else(|| "rank 0 refused it".into()),
            )),
            _ => Ok(0),
        }
    }

    /// The state after diagonal `d` from rank 0's checkpoint: rank 0 reads every block and sends
    /// each to the rank that owns it, then reads the P-lines not yet emitted. A failure on any rank
    /// fails all of them, with the reason where this rank knows it.
    fn load<'r>(&mut self, d: usize, mut from: Option<&mut (dyn Read + 'r)>) -> Result<(), String> {
        let mut failed = 0u8;
        let mut refusal = None;
        let (lo, hi) = diagonal(d, self.g.ra, self.g.rb);
        for a in lo..=hi {
            let q = owner(&self.g, d, a, self.ranks);
            if self.root {
                let mut s = self.fresh_store();
                let r = from.as_deref_mut().expect("rank 0 resumes from a reader");
                if failed == 0 {
                    if let Err(e) = read_store(r, &mut s) {
                        failed = 1;
                        refusal = Some(e.to_string());
                    }
                }
                if q == 0 {
                    self.prev[a] = Some(s);
                } else {
                    let empty: [(usize, &[u8]); 2] = [(q, &[]), (q, &[])];
                    let msgs = if failed == 0 {
                        store_messages(q, &s)
                    } else {
                        empty
                    };
                    self.cluster.exchange(Topic::Checkpoint, &msgs, &[]);
                    self.spare.push(s);
                }
            } else if q == self.me {
                let mut m = self.cluster.exchange(Topic::Checkpoint, &[], &[0, 0]);
                let b = m.pop().unwrap_or_default();
                match store_of(&self.g, &m.pop().unwrap_or_default(), &b, &mut self.spare) {
                    Some(s) => self.prev[a] = Some(s),
                    None => failed = 1,
                }
            }
        }
        if self.root && failed == 0 {
            let r = from.expect("reader");
            match read_tail(r, &self.g, &mut self.pending) {
                Ok(ne) => self.next_emit = ne,
                Err(e) => {
                    failed = 1;
                    refusal = Some(e.to_string());
                }
            }
        }
        if self.cluster.any(failed) != 0 {
            return Err(
                refusal.unwrap_or_else(|| "rank 0 could not hand this rank its blocks".into())
            );
        }
        Ok(())
    }

    /// One decision for all ranks before diagonal `d`: stop (any rank cancelled) and write a
    /// checkpoint of `d - 1`, as the flags [`CANCEL`], [`SAVE_DUE`] and [`CAN_SAVE`].
    fn decide(
        &self,
        d: usize,
        first: usize,
        hooks: &Hooks,
        saver: Option<&mut (dyn Saver + '_)>,
    ) -> u8 {
        let mut flags = if hooks.cancelled() { CANCEL } else { 0 };
        if let Some(s) = saver {
            flags |= CAN_SAVE;
            if d > first && flags & CANCEL == 0 && s.due() {
                flags |= SAVE_DUE;
            }
        }
        self.cluster.any(flags)
    }

    /// The progress line of a checkpoint written after diagonal `d`.
    fn stage(&self, d: usize) -> String {
        format!(
            "diagonal {} of {}, {} of {} slabs emitted",
            d + 1,
            self.n_diag,
            self.next_emit,
            self.g.rb
        )
    }

    /// Writes the state after diagonal `d` through rank 0's `saver`: its own blocks, then every
    /// other rank's, received one block at a time.
    fn save_state(&self, d: usize, saver: Option<&mut (dyn Saver + '_)>) {
        let (g, cluster, ranks) = (&self.g, self.cluster, self.ranks);
        let held = |a: usize| self.prev[a].as_ref().expect("an owned block is held");
        if !self.root {
            let out: Vec<(usize, &[u8])> = owned(g, d, self.me, ranks)
                .flat_map(|a| store_messages(0, held(a)))
                .collect();
            cluster.exchange(Topic::Checkpoint, &out, &[]);
            return;
        }
        let progress = Progress {
            done: self.done,
            total: self.total,
            stage: self.stage(d),
        };
        // The other ranks' blocks, in order: (rank, block).
        let theirs: Vec<(usize, usize)> = (1..ranks)
            .flat_map(|q| owned(g, d, q, ranks).map(move |a| (q, a)))
            .collect();
        let mut received = 0;
        if let Some(s) = saver {
            let mut body = |w: &mut dyn Write| -> io::Result<()> {
                write_head(w, g, d)?;
                for a in owned(g, d, 0, ranks) {
                    write_store(w, held(a))?;
                }
                let mut block = g.store();
                for &(q, _) in &theirs {
                    let mut m = cluster.exchange(Topic::Checkpoint, &[], &[q, q]);
                    received += 1;
                    let b = m.pop().unwrap_or_default();
                    let w_ = m.pop().unwrap_or_default();
                    if !cl::bytes_into_words(&w_, &mut block.w)
                        || !cl::bytes_into_halves(&b, &mut block.b)
                    {
                        return Err(io::Error::other("a rank sent a block of another size"));
                    }
                    write_store(w, &block)?;
                }
                write_tail(w, &self.pending, self.next_emit)
            };
            s.save(progress, &mut body);
        }
        // What was not read because writing stopped early.
        for &(q, _) in &theirs[received..] {
            cluster.exchange(Topic::Checkpoint, &[], &[q, q]);
        }
    }

    /// The blocks of diagonal `d - 1` that another rank reads: sent to it; and those this rank
    /// reads but another computed: received from it.
    fn receive_boundary(&mut self, d: usize) {
        if d == 0 || self.ranks == 1 {
            return;
        }
        let (g, me, ranks) = (&self.g, self.me, self.ranks);
        let mine = owned(g, d, me, ranks);
        let before = owned(g, d - 1, me, ranks);
        let mut out = Vec::new();
        for a in before.clone() {
            let mut to: Vec<usize> = [a, a + 1]
                .into_iter()
                .filter(|&x| on_diagonal(g, d, x))
                .map(|x| owner(g, d, x, ranks))
                .filter(|&q| q != me)
                .collect();
            to.dedup();
            let s = self.prev[a].as_ref().expect("an owned block is held");
            for q in to {
                out.extend(store_messages(q, s));
            }
        }
        let mut need: Vec<usize> = mine
            .flat_map(|a| [a.wrapping_sub(1), a])
            .filter(|&x| x < g.ra && on_diagonal(g, d - 1, x) && !before.contains(&x))
            .collect();
        need.dedup();
        let from: Vec<usize> = need
            .iter()
            .flat_map(|&x| {
                let q = owner(g, d - 1, x, ranks);
                [q, q]
            })
            .collect();
        let got = self.cluster.exchange(Topic::Boundary, &out, &from);
        let mut got = got.into_iter();
        for x in need {
            let (w, b) = (
                got.next().unwrap_or_default(),
                got.next().unwrap_or_default(),
            );
            let s = store_of(&self.g, &w, &b, &mut self.spare)
                .expect("a neighbour's block has this geometry (every rank runs the same build)");
            self.prev[x] = Some(s);
        }
    }

    /// This rank's blocks of diagonal `d`, computed in parallel: their stores, by block, and their
    /// P-lines, by slab `b`. The blocks run in contiguous runs, one run per task, each in increasing
    /// `a`; block `x` of diagonal `d - 1` is read by blocks `x` and `x + 1` of `d`, so within a run it
    /// is handed back as soon as block `x + 1` is done, and its store is reused for the next block
    /// computed: the sweep holds about one diagonal of blocks, not two.
    #[allow(clippy::type_complexity)]
    fn compute_diagonal(&mut self, d: usize) -> (Vec<(usize, Store)>, Vec<(usize, Vec<PLine>)>) {
        if !hands_back(&self.g) {
            return self.compute_small_blocks(d);
        }
        let mine = owned(&self.g, d, self.me, self.ranks);
        let (g, nothing) = (&self.g, &self.nothing);
        let (origin_n, oracle) = (self.origin_n, self.oracle);
        let prev: Vec<RwLock<Option<Store>>> = std::mem::take(&mut self.prev)
            .into_iter()
            .map(RwLock::new)
            .collect();
        let spare = Mutex::new(std::mem::take(&mut self.spare));
        let blocks: Vec<usize> = mine.collect();
        let tasks = (rayon::current_num_threads() * TASKS_PER_THREAD).clamp(1, blocks.len().max(1));
        let runs: Vec<&[usize]> = blocks.chunks(blocks.len().div_ceil(tasks).max(1)).collect();
        let done: Vec<Vec<(usize, Store, usize, Vec<PLine>)>> = runs
            .par_iter()
            .map(|run| {
                let mut out = Vec::with_capacity(run.len());
                for (i, &a) in run.iter().enumerate() {
                    let b = d - a;
                    let mut store = spare
                        .lock()
                        .expect("no task panics holding the pool")
                        .pop()
                        .unwrap_or_else(|| g.store());
                    let found = {
                        let ga = (a > 0).then(|| prev[a - 1].read().expect("not poisoned"));
                        let gb = (b > 0).then(|| prev[a].read().expect("not poisoned"));
                        let pa = held(ga.as_deref(), nothing);
                        let pb = held(gb.as_deref(), nothing);
                        solve_any_width(g, origin_n, oracle, a, b, &mut store, pa, pb)
                    };
                    // Block a - 1 of the previous diagonal has had both its readers (a - 1 and a,
                    // this run) unless a - 1 begins the run (another run read it as block a - 1).
                    if i > 0 {
                        let freed = prev[a - 1].write().expect("not poisoned").take();
                        if let Some(s) = freed {
                            spare.lock().expect("not poisoned").push(s);
                        }
                    }
                    out.push((a, store, b, found));
                }
                out
            })
            .collect();
        self.spare = spare.into_inner().expect("not poisoned");
        self.prev = prev
            .into_iter()
            .map(|s| s.into_inner().expect("not poisoned"))
            .collect();
        let mut cur = Vec::with_capacity(blocks.len());
        let mut results = Vec::with_capacity(blocks.len());
        for (a, store, b, found) in done.into_iter().flatten() {
            cur.push((a, store));
            results.push((b, found));
        }
        (cur, results)
    }

    /// [`Sweep::compute_diagonal`] for blocks too small to be worth handing back one by one (games
    /// of three stacks or fewer, whose blocks are single lines): one task per block, the previous
    /// diagonal kept whole until the end.
    #[allow(clippy::type_complexity)]
    fn compute_small_blocks(
        &mut self,
        d: usize,
    ) -> (Vec<(usize, Store)>, Vec<(usize, Vec<PLine>)>) {
        let mine = owned(&self.g, d, self.me, self.ranks);
        let mut cur: Vec<(usize, Store)> = mine.map(|a| (a, self.fresh_store())).collect();
        let (g, prev, nothing) = (&self.g, &self.prev, &self.nothing);
        let (origin_n, oracle) = (self.origin_n, self.oracle);
        let results = cur
            .par_iter_mut()
            .map(|(a, store)| {
                let (a, b) = (*a, d - *a);
                let pa = held((a > 0).then(|| &prev[a - 1]), nothing);
                let pb = held((b > 0).then(|| &prev[a]), nothing);
                let found = solve_any_width(g, origin_n, oracle, a, b, store, pa, pb);
                (b, found)
            })
            .collect();
        (cur, results)
    }

    /// Every rank's P-lines of diagonal `d` to rank 0, which reports progress and emits every slab
    /// that is complete.
    fn send_lines(
        &mut self,
        d: usize,
        results: Vec<(usize, Vec<PLine>)>,
        hooks: &Hooks,
        emit: &mut dyn FnMut(usize, Vec<PLine>),
    ) {
        let (g, ranks) = (&self.g, self.ranks);
        if !self.root {
            self.cluster
                .exchange(Topic::Lines, &[(0, &lines_message(&results))], &[]);
            return;
        }
        for (b, lines) in results {
            self.pending[b].extend(lines);
        }
        let from: Vec<usize> = (1..ranks).collect();
        let got = self.cluster.exchange(Topic::Lines, &[], &from);
        for (q, m) in (1..ranks).zip(got) {
            let theirs = owned(g, d, q, ranks);
            for (a, lines) in theirs.clone().zip(lines_of_message(&m, theirs.len())) {
                self.pending[d - a].extend(lines);
            }
        }
        let (a_min, a_max) = diagonal(d, g.ra, g.rb);
        self.done += ((a_max - a_min + 1) * g.block * g.r) as u64;
        if let Some(p) = hooks.progress {
            p(self.done, self.total);
        }
        // Slab b is complete once the diagonal b + ra - 1 is done.
        while self.next_emit < g.rb && self.next_emit + g.ra - 1 <= d {
            let mut all = std::mem::take(&mut self.pending[self.next_emit]);
            all.sort_unstable();
            emit(self.next_emit, all);
            self.next_emit += 1;
        }
    }

    /// Diagonal `d` (the stores `cur`) becomes the previous one; the stores of `d - 1` are reused.
    fn advance(&mut self, cur: Vec<(usize, Store)>) {
        for s in self.prev.iter_mut() {
            if let Some(s) = s.take() {
                self.spare.push(s);
            }
        }
        for (a, s) in cur {
            self.prev[a] = Some(s);
        }
    }
}
