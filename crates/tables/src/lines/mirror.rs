//! One symmetry of the game in the sweep: half the blocks of every diagonal.
//!
//! Let `rho` be an involution of the axes that fixes the line axis 0, maps the windows onto the
//! windows and the box onto itself (and the oracle's moves onto themselves), and swaps the two
//! outermost axes `A = m-2` and `B = m-1`. Then `D_{rho w}(rho p) = D_w(p)` and `P(rho p) = P(p)`, and
//! `rho` maps lines to lines and block `(a, b)` to block `(b, a)`, on the same anti-diagonal. So the
//! sweep computes only the blocks with `a <= b`: a block with `a < b` gives the P-lines of its mirror
//! `(b, a)` through `rho`; the one block `(t, t)` of an even diagonal `2t` reads block `(t, t-1)` of
//! the previous diagonal, which is built from the stored `(t-1, t)` by [`Mirror::mirror_store`]. The
//! work and the blocks held are about half.
//!
//! For circles (CN, SCN) `rho` is the reflection of the circle that fixes the line's stack, which
//! maps `B` to axis 1; the sweep then numbers the axes internally with 1 and `m-2` swapped (`sigma`),
//! and the P-lines go back to the caller's numbering before they are emitted. For heaps (Nim,
//! Moore's Nim) `rho` is the transposition of `A` and `B`.

use super::geometry::{Geometry, Store};
use super::{LineOracle, LineSpec};
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};

static OFF: AtomicBool = AtomicBool::new(false);

/// Turns the symmetry off (`false`) or on for the sweeps started after the call, as the variable
/// `NIMLAB_ENGINE_SYMMETRY=off` does for a whole process: for tests and benchmarks that compare the
/// two sweeps, which give the same tables.
#[doc(hidden)]
pub fn use_symmetry(on: bool) {
    OFF.store(!on, Ordering::Relaxed);
}

/// False when the symmetry is off ([`use_symmetry`], `NIMLAB_ENGINE_SYMMETRY=off`): the Grundy sweep
/// asks too.
pub(crate) fn enabled() -> bool {
    !OFF.load(Ordering::Relaxed) && setting().as_deref() != Some("off")
}

/// True when a Grundy table may be computed on the sorted tuples alone (games that every
/// permutation of the stacks keeps): the symmetry on, and not limited to the mirror by
/// `NIMLAB_ENGINE_SYMMETRY=mirror` (for benchmarks: the sweep of one block of each mirror pair).
pub(crate) fn sorted_enabled() -> bool {
    enabled() && setting().as_deref() != Some("mirror")
}

fn setting() -> Option<String> {
    std::env::var("NIMLAB_ENGINE_SYMMETRY")
        .ok()
        .map(|v| v.trim().to_string())
}

/// The symmetry a sweep uses (see the module notes).
#[derive(Debug, Clone)]
pub(super) struct Mirror {
    /// Caller's axis `i` is internal axis `sigma[i]` (an involution: a swap or the identity).
    pub(super) sigma: Vec<usize>,
    /// `rho` on internal axes; it swaps `m-2` and `m-1`.
    pub(super) rho: Vec<usize>,
}

/// Whether the permutation `perm` of the axes maps the set of windows onto itself.
pub(crate) fn maps_windows_onto_themselves(windows: &[Vec<usize>], perm: &[usize]) -> bool {
    let shape = |perm: &dyn Fn(usize) -> usize| -> BTreeSet<Vec<usize>> {
        windows
            .iter()
            .map(|w| {
                let mut v: Vec<usize> = w.iter().map(|&i| perm(i)).collect();
                v.sort_unstable();
                v
            })
            .collect()
    };
    shape(&|i| perm[i]) == shape(&|i| i)
}

/// The symmetry of `spec` the sweep can use, or `None`.
pub(super) fn find<O: LineOracle>(spec: &LineSpec, oracle: &O) -> Option<Mirror> {
    let m = spec.m;
    if m < 3 || !enabled() {
        return None;
    }
    let identity: Vec<usize> = (0..m).collect();
    let reflection: Vec<usize> = (0..m).map(|i| (m - i) % m).collect();
    let mut swap = identity.clone();
    swap.swap(m - 2, m - 1);
    for rho in [reflection, swap] {
        let u = rho[m - 1];
        let fits = rho[0] == 0
            && u != 0
            && u != m - 1
            && (0..m).all(|i| rho[rho[i]] == i && spec.values_on(rho[i]) == spec.values_on(i))
            && maps_windows_onto_themselves(&spec.windows, &rho)
            && oracle.invariant_under(&rho);
        if fits {
            let mut sigma = identity.clone();
            sigma.swap(u, m - 2);
            let inner: Vec<usize> = (0..m).map(|i| sigma[rho[sigma[i]]]).collect();
            return Some(Mirror { sigma, rho: inner });
        }
    }
    None
}

/// The involution `rho` of `spec`'s axes (in its own numbering) that [`find`] would use, or `None`:
/// for the GPU back end, which reads the lines through it as they are.
#[cfg(feature = "gpu")]
pub(crate) fn involution<O: LineOracle>(spec: &LineSpec, oracle: &O) -> Option<Vec<usize>> {
    let mr = find(spec, oracle)?;
    // rho = sigma . inner . sigma, sigma an involution.
    Some((0..spec.m).map(|i| mr.sigma[mr.rho[mr.sigma[i]]]).collect())
}

impl Mirror {
    /// `spec` in internal axes.
    pub(super) fn internal(&self, spec: &LineSpec) -> LineSpec {
        let radix: Vec<usize> = (0..spec.m).map(|i| spec.values_on(self.sigma[i])).collect();
        let windows = spec
            .windows
            .iter()
            .map(|w| w.iter().map(|&i| self.sigma[i]).collect())
            .collect();
        let mut s = LineSpec::boxed(radix, windows, spec.origin_n);
        if spec.radix.is_none() {
            s.radix = None;
        }
        s
    }
}

/// What the sweep needs of the symmetry, on the geometry's records.
pub(super) struct MirrorMap {
    pub(super) sigma: Vec<usize>,
    rho: Vec<usize>,
    /// Persistent word slot `s` of the mirror block reads slot `words[s]` of the block (the slot
    /// of `rho` of its window); the same for prefix starts.
    words: Vec<usize>,
    starts: Vec<usize>,
    /// Line-index strides of axes `1..m` in internal and in the caller's numbering.
    strides: Vec<u64>,
    caller_strides: Vec<u64>,
}

impl MirrorMap {
    /// `persistent`: the persistent windows (prefix or not, slot, axes) of the geometry.
    pub(super) fn new(
        mirror: &Mirror,
        radix: &[usize],
        persistent: &[(bool, usize, Vec<usize>)],
    ) -> MirrorMap {
        let m = radix.len();
        let key = |w: &[usize]| -> Vec<usize> {
            let mut v = w.to_vec();
            v.sort_unstable();
            v
        };
        let slot_of = |prefix: bool, axes: &[usize]| {
            persistent
                .iter()
                .find(|(p, _, w)| *p == prefix && key(w) == key(axes))
                .map(|(_, s, _)| *s)
                .expect("rho maps the persistent windows onto themselves")
        };
        let mut words = vec![0; persistent.iter().filter(|p| !p.0).count()];
        let mut starts = vec![0; persistent.iter().filter(|p| p.0).count()];
        for (prefix, slot, w) in persistent {
            let image: Vec<usize> = w.iter().map(|&i| mirror.rho[i]).collect();
            let target = if *prefix { &mut starts } else { &mut words };
            target[*slot] = slot_of(*prefix, &image);
        }
        let stride_list = |values: &dyn Fn(usize) -> usize| -> Vec<u64> {
            let mut s = vec![0u64; m];
            let mut acc = 1u64;
            for (j, sj) in s.iter_mut().enumerate().skip(1) {
                *sj = acc;
                acc *= values(j) as u64;
            }
            s
        };
        MirrorMap {
            sigma: mirror.sigma.clone(),
            rho: mirror.rho.clone(),
            words,
            starts,
            strides: stride_list(&|j| radix[j]),
            caller_strides: stride_list(&|j| radix[mirror.sigma[j]]),
        }
    }

    fn coords(&self, radix: &[usize], line: u64) -> Vec<u64> {
        let mut x = vec![0u64; radix.len()];
        let mut v = line;
        for j in 1..radix.len() {
            x[j] = v % radix[j] as u64;
            v /= radix[j] as u64;
        }
        x
    }

    /// The internal line index of `rho` of the line `line` (internal index).
    pub(super) fn mirror_line(&self, radix: &[usize], line: u64) -> u64 {
        let x = self.coords(radix, line);
        (1..x.len()).map(|j| x[self.rho[j]] * self.strides[j]).sum()
    }

    /// The caller's line index of the line `line` (internal index).
    pub(super) fn to_caller(&self, radix: &[usize], line: u64) -> u64 {
        if self.sigma.iter().enumerate().all(|(i, &s)| i == s) {
            return line;
        }
        let x = self.coords(radix, line);
        (1..x.len())
            .map(|j| x[self.sigma[j]] * self.caller_strides[j])
            .sum()
    }

    /// The store of block `(b, a)` from the store `src` of block `(a, b)`: each real line `y = rho x`
    /// holds, for each persistent window `w`, the record of `rho w` at `x`.
    pub(super) fn mirror_store(&self, g: &Geometry, src: &Store, dst: &mut Store) {
        let (l, n, sb) = (g.l, g.n_inner, g.sb);
        // Row by row (the lines that differ on axis 1 only): the row from `first` holds the lines
        // `x`, whose images `rho x` are `to + x_1 * step` (rho maps inner axes to inner axes of the
        // same length).
        let row = if n >= 1 { g.radix[1] } else { 1 };
        let step = if n >= 1 { g.stride[self.rho[1]] } else { 0 };
        let mut x = vec![0usize; n + 1];
        let mut to = 0;
        for first in (0..g.block).step_by(row) {
            let at = (first, to, row, step, g.block);
            for (s, &from) in self.words.iter().enumerate() {
                if g.wb == 4 {
                    scatter(src.half_words(), dst.half_words_mut(), 1, (s, from), at);
                } else {
                    scatter(&src.w, &mut dst.w, l, (s, from), at);
                }
            }
            for (s, &from) in self.starts.iter().enumerate() {
                scatter(src.start_bytes(), dst.start_bytes_mut(), sb, (s, from), at);
            }
            #[allow(clippy::needless_range_loop)] // `i` indexes three arrays in step
            for i in 2..=n {
                x[i] += 1;
                to += g.stride[self.rho[i]];
                if x[i] < g.radix[i] {
                    break;
                }
                x[i] = 0;
                to -= g.radix[i] * g.stride[self.rho[i]];
            }
        }
    }
}

/// One row of records of `unit` elements: those of window `from` of the lines `first..first + row`
/// of `src` to window `s` of the lines `to + x_1 * step` of `dst` (windows `block` lines apart).
fn scatter<T: Copy>(
    src: &[T],
    dst: &mut [T],
    unit: usize,
    (s, from): (usize, usize),
    (first, to, row, step, block): (usize, usize, usize, usize, usize),
) {
    let run = &src[(from * block + first) * unit..][..row * unit];
    let out = &mut dst[s * block * unit..][..block * unit];
    if unit == 1 {
        for (x1, &v) in run.iter().enumerate() {
            out[to + x1 * step] = v;
        }
    } else {
        for (x1, v) in run.chunks_exact(unit).enumerate() {
            let d = (to + x1 * step) * unit;
            out[d..d + unit].copy_from_slice(v);
        }
    }
}
