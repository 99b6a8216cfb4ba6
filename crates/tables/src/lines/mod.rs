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
//! set of `r = hi - lo + 1` bits in `ceil(r / 64)` words (one 32-bit word when `r <= 32`; bit `j` is
//! the position with `x_0 = lo + j`), `D_w` of a line is such a bit set, and for a window that
//! contains axis 0 it is a prefix (every bit from the lowest set one on), stored as its start (one
//! byte when a line has at most 255 values, else two). A line costs `ceil(r / 64)` word operations
//! per (window without axis 0, axis of the window), and one comparison per (window with axis 0,
//! axis), done a row of lines at a time in vector code (`kernel`): memory and time grow with the
//! lines, and with the length of a line only in steps of 64.
//!
//! Look-ups reach back one step along each axis, so the lines are processed in blocks: a block fixes
//! the two outermost axes `(A, B) = (m-2, m-1)`; the blocks of one anti-diagonal `a + b = d` do not
//! depend on each other and run in parallel, and only the blocks of diagonals `d - 1` and `d` are kept
//! (for the windows that contain `A` or `B`; the others live in a scratch block per thread).
//!
//! One job a file: `geometry` lays the box out in blocks and plans each window's look-ups,
//! `kernel` runs the recurrence over the lines of one block, `sweep` schedules the blocks by
//! anti-diagonals on the ranks of a [`Cluster`] (boundary blocks, P-lines to rank 0, checkpoints),
//! and `wire` writes a sweep's state as bytes (checkpoint sections, messages between ranks). This
//! file holds what callers see: the game ([`LineSpec`], [`LineOracle`]) and the entries
//! ([`solve`], [`solve_resumable`], [`solve_on`]).

mod geometry;
mod kernel;
mod mirror;
mod sweep;
mod wire;

use crate::checkpoint::Saver;
use crate::cluster::{Cluster, Solo};
use geometry::Geometry;
use std::io::Read;
use sweep::{blocks, done_before, hands_back, Sweep, CANCEL, CAN_SAVE, SAVE_DUE};

pub(crate) use mirror::enabled as symmetry_on;
#[cfg(feature = "gpu")]
pub(crate) use mirror::involution as line_involution;
pub(crate) use mirror::maps_windows_onto_themselves;
pub(crate) use mirror::sorted_enabled as sorted_symmetry_on;
pub use mirror::use_symmetry;
pub use sweep::hand_back_from;

/// A P-position found by the engine: (global line index, offset of the P-position on its line).
pub type PLine = (u64, u32);

/// Largest number of values per axis (`hi - lo + 1`) the engine takes: prefix starts are at most two
/// bytes.
pub const MAX_RADIX: usize = u16::MAX as usize;

/// The start of an empty prefix.
const NONE: u16 = u16::MAX;

/// Extra N-positions of a line from moves that leave the box (SCN's vanishing piles).
pub trait LineOracle: Sync {
    /// Whether the position at offset `j` of a line (its offset on axis 0) has a winning move out of
    /// the box; `x[1..m]` are the line's offsets from `lo` on axes `1..m` (`x[0]` is unused). The
    /// engine asks only about the candidates for a line's P-position (the lowest offsets that no
    /// move inside the box reaches), one by one, so an answer can stop at the first move found.
    fn n_at(&self, x: &[u32], j: usize) -> bool;

    /// False when no move ever leaves the box (then the engine asks nothing).
    fn active(&self) -> bool {
        true
    }

    /// True when the moves out of the box commute with the permutation `perm` of the axes (axis `i`
    /// to `perm[i]`): the answers for the line `perm x` are those for `x`. The sweep then may compute one
    /// line of each mirror pair ([`use_symmetry`]).
    fn invariant_under(&self, _perm: &[usize]) -> bool {
        false
    }
}

/// No move leaves the box.
pub struct NoOracle;
impl LineOracle for NoOracle {
    #[inline]
    fn n_at(&self, _x: &[u32], _j: usize) -> bool {
        false
    }

    #[inline(always)]
    fn active(&self) -> bool {
        false
    }

    fn invariant_under(&self, _perm: &[usize]) -> bool {
        true
    }
}

/// A window game on a box, in engine axes (axis 0 is the line axis).
#[derive(Debug, Clone)]
pub struct LineSpec {
    /// Number of axes, at least 1.
    pub m: usize,
    /// Values per axis (`hi - lo + 1`), 1 to [`MAX_RADIX`]; with [`LineSpec::radix`], the values on
    /// axis 0 (the line axis).
    pub r: usize,
    /// A box with one bound per axis: the values on each axis (`m` entries, entry 0 equal to `r`,
    /// each 1 to [`MAX_RADIX`]); `None` for the cube of `r` values on every axis. The global line
    /// index is then `sum_{j>=1} x_j prod_{1<=i<j} radix[i]`.
    pub radix: Option<Vec<usize>>,
    /// The windows, as lists of distinct axes; every axis lies in some window.
    pub windows: Vec<Vec<usize>>,
    /// The all-`lo` position is terminal and counts as N (misère play).
    pub origin_n: bool,
}

impl LineSpec {
    /// The cube `[lo..=lo + r - 1]^m`.
    pub fn cube(m: usize, r: usize, windows: Vec<Vec<usize>>, origin_n: bool) -> LineSpec {
        LineSpec {
            m,
            r,
            radix: None,
            windows,
            origin_n,
        }
    }

    /// The box with `radix[i]` values on axis `i` (see [`LineSpec::radix`]).
    pub fn boxed(radix: Vec<usize>, windows: Vec<Vec<usize>>, origin_n: bool) -> LineSpec {
        LineSpec {
            m: radix.len(),
            r: radix.first().copied().unwrap_or(1),
            radix: Some(radix),
            windows,
            origin_n,
        }
    }

    /// Values on axis `i`.
    pub fn values_on(&self, i: usize) -> usize {
        self.radix.as_ref().map_or(self.r, |v| v[i])
    }

    /// Bytes the sweep keeps with `threads` threads: the stores of the longest diagonal of blocks
    /// computed and two more per thread (blocks of the previous diagonal that a block still in hand
    /// reads; two diagonals when blocks are small), and one scratch store per thread (an estimate for
    /// refusals; the P-positions waiting for their slab to complete are not counted). With the
    /// symmetry ([`use_symmetry`]; a game whose moves out of the box are invariant under it, as
    /// SCN's are) the diagonals hold about half their blocks, and one mirrored block more.
    pub fn working_bytes(&self, threads: usize) -> f64 {
        let g = match mirror::find(self, &NoOracle) {
            Some(mr) => Geometry::mirrored(&mr.internal(self), &mr),
            None => Geometry::new(self),
        };
        let mirrored = g.mirror.is_some();
        let per_line = |w: usize, b: usize| (w * g.l * g.wb + b * g.sb) as f64;
        let store = g.block as f64 * per_line(g.pw, g.pb);
        let scratch = g.block as f64 * per_line(g.lw, g.lb);
        let diagonal = (0..g.ra + g.rb - 1)
            .map(|d| {
                let (lo, hi) = blocks(&g, d);
                (hi + 1).saturating_sub(lo)
            })
            .max()
            .unwrap_or(1);
        let held = if hands_back(&g) {
            diagonal + (2 * threads).min(diagonal)
        } else {
            2 * diagonal
        };
        (held + usize::from(mirrored)) as f64 * store + threads as f64 * scratch
    }
}

/// Cancellation and progress for a run: the workspace's one hook type.
pub use nimlab_core::Hooks;

/// The run was stopped through [`Hooks::cancel`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interrupted;

/// Why a resumable sweep stopped before the end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// Through [`Hooks::cancel`] (a checkpoint of the last finished diagonal was written first, when
    /// checkpoints are on).
    Interrupted,
    /// The checkpoint to resume from does not fit this sweep.
    Damaged(String),
    /// The table does not fit what the engine represents (a Grundy value past 65535).
    Beyond(nimlab_core::Refusal),
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

/// True when the sweep of `spec` (with no moves out of the box, or moves invariant as SCN's are)
/// computes one block of each mirror pair ([`use_symmetry`]): for tests and benchmarks.
#[doc(hidden)]
pub fn is_mirrored(spec: &LineSpec) -> bool {
    mirror::find(spec, &NoOracle).is_some()
}
