//! One block of lines: the recurrence of the module notes run line by line, word by word, over the
//! records of the block, its scratch and the two blocks of the previous diagonal it reads
//! ([`solve_any_width`]), monomorphised for lines of one word and for one-byte prefix starts.

use super::geometry::{Geometry, Store};
use super::{LineOracle, PLine};

/// A prefix start as the stores keep it: one byte (lines of at most 255 values) or two
/// ([`Geometry::sb`]); the largest value means "nothing".
trait Start: Copy + Ord + Send + Sync {
    const NONE: Self;
    fn of(at: usize) -> Self;
    fn get(self) -> usize;
}

impl Start for u8 {
    const NONE: u8 = u8::MAX;
    #[inline(always)]
    fn of(at: usize) -> u8 {
        at as u8
    }
    #[inline(always)]
    fn get(self) -> usize {
        self as usize
    }
}

impl Start for u16 {
    const NONE: u16 = u16::MAX;
    #[inline(always)]
    fn of(at: usize) -> u16 {
        at as u16
    }
    #[inline(always)]
    fn get(self) -> usize {
        self as usize
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

/// Solves the block `(a, b)`; returns its P-lines. `local` is a scratch store
/// ([`Geometry::scratch`]): every record is written before it is read, so one scratch serves block
/// after block.
///
/// The lines go row by row, a row being the lines that differ on axis 1 only (a single line when the
/// block has no inner axis). First, for each window, the look-ups of the whole row along the other
/// axes: each reads one run of consecutive records (a store keeps a window's records line after
/// line), ORed word by word (starts: their minimum) into the row's buffer, which the compiler turns
/// into vector operations. Then line by line along the row: each window's `D` is the buffer's ORed
/// with its record of the line before (the look-up along axis 1), written to the line's record and
/// ORed into the N-mask; the line's P-position is the lowest bit no move reaches below the prefix
/// windows' lowest start, and is then added to the one word of each record that holds it.
#[allow(clippy::too_many_arguments)]
fn solve_block<O: LineOracle, W: Width, S: Start>(
    g: &Geometry,
    width: W,
    origin_n: bool,
    oracle: &O,
    a: usize,
    b: usize,
    cur: &mut Store,
    local: &mut Store,
    prev_a: &Store,
    prev_b: &Store,
) -> Vec<PLine> {
    let l = width.get();
    debug_assert_eq!(std::mem::size_of::<S>(), g.sb);
    let mut out = Vec::new();
    let mut x = vec![0u32; g.m.max(3)];
    if g.m >= 3 {
        x[g.m - 2] = a as u32;
    }
    if g.m >= 2 {
        x[g.m - 1] = b as u32;
    }
    let mut caller_x = vec![0u32; g.m];
    let mut acc_b = vec![S::NONE; g.prefixes.len()];
    // The lines of a row, and the row's buffers: for each window, its look-ups off the row.
    let row = if g.n_inner >= 1 { g.radix[1] } else { 1 };
    let mut row_w = vec![0u64; g.words.len() * row * l];
    let mut row_b = vec![S::NONE; g.prefixes.len() * row];

    let base = a as u64 * g.stride_a + b as u64 * g.stride_b;
    let outer_zero = a == 0 && b == 0;
    // Raw pointers: the current block is read (earlier lines) and written (this line) in one pass.
    let cur_w = cur.w.as_mut_ptr();
    // Starts are read as `S` from the stores' two-byte units (alignment 2 suffices for both).
    let cur_b = cur.b.as_mut_ptr().cast::<S>();
    let loc_w = local.w.as_mut_ptr();
    let loc_b = local.b.as_mut_ptr().cast::<S>();
    let (pa_w, pa_b) = (prev_a.w.as_ptr(), prev_a.b.as_ptr().cast::<S>());
    let (pb_w, pb_b) = (prev_b.w.as_ptr(), prev_b.b.as_ptr().cast::<S>());
    let bases_w: [*const u64; 4] = [cur_w, loc_w, pa_w, pb_w];
    let bases_b: [*const S; 4] = [cur_b, loc_b, pa_b, pb_b];
    let home = |persistent: bool| {
        if persistent {
            (cur_w, cur_b)
        } else {
            (loc_w, loc_b)
        }
    };
    // The inner axes above 1 whose entry is 0 (bit i for axis i): look-ups one step back along them
    // read nothing.
    let mut zeros: u32 = (2..=g.n_inner).fold(0, |z, i| z | 1 << i);
    for first in (0..g.block).step_by(row) {
        // The look-ups off the row. SAFETY (all the reads of this function): every look-up lands
        // inside its store: one step back along an inner axis only when the line's entry there is
        // above 0, and A/B read the same lines of the previous blocks.
        for (j, p) in g.words.iter().enumerate() {
            let acc = &mut row_w[j * row * l..][..row * l];
            acc.fill(0);
            for lk in p
                .looks
                .iter()
                .filter(|lk| !lk.along_row && zeros & lk.zero == 0)
            {
                let at = (p.first + first - lk.back) * l;
                let run = unsafe {
                    std::slice::from_raw_parts(bases_w[lk.src as usize].add(at), row * l)
                };
                for (e, &v) in acc.iter_mut().zip(run) {
                    *e |= v;
                }
            }
        }
        for (j, p) in g.prefixes.iter().enumerate() {
            let acc = &mut row_b[j * row..][..row];
            acc.fill(S::NONE);
            for lk in p
                .looks
                .iter()
                .filter(|lk| !lk.along_row && zeros & lk.zero == 0)
            {
                let at = p.first + first - lk.back;
                let run =
                    unsafe { std::slice::from_raw_parts(bases_b[lk.src as usize].add(at), row) };
                for (e, &v) in acc.iter_mut().zip(run) {
                    *e = (*e).min(v);
                }
            }
        }
        for x1 in 0..row {
            let idx = first + x1;
            if g.n_inner >= 1 {
                x[1] = x1 as u32;
            }
            // The oracle reads the caller's axes; it is asked only about the candidates for the
            // line's P-position (the lowest bits no move inside the box reaches), one by one.
            if oracle.active() {
                match g.mirror.as_ref() {
                    Some(mm) => {
                        for (c, &i) in caller_x.iter_mut().zip(&mm.sigma) {
                            *c = x[i];
                        }
                    }
                    None => caller_x.copy_from_slice(&x[..g.m]),
                }
            }
            // Every position above the lowest one reached moves along axis 0 into the same set:
            // the windows with axis 0 make every bit from the smallest start on N.
            let mut lowest = S::NONE;
            for (j, p) in g.prefixes.iter().enumerate() {
                let mut start = row_b[j * row + x1];
                if p.row_look && x1 > 0 {
                    let (_, dst) = home(p.persistent);
                    start = start.min(unsafe { *dst.add(p.first + idx - 1) });
                }
                acc_b[j] = start;
                lowest = lowest.min(start);
            }
            // The P-position is the lowest bit below `end` that no move reaches.
            let end = lowest.get().min(g.r);
            let mut pos = S::NONE;
            let mut searching = end > 0;
            for t in 0..l {
                let mut nm = 0u64;
                if t == 0 && origin_n && outer_zero && idx == 0 {
                    nm |= 1;
                }
                for (j, p) in g.words.iter().enumerate() {
                    let (dst, _) = home(p.persistent);
                    let mut e = row_w[(j * row + x1) * l + t];
                    if p.row_look && x1 > 0 {
                        e |= unsafe { *dst.add((p.first + idx - 1) * l + t) };
                    }
                    // SAFETY: word t of this line's record, inside the block.
                    unsafe { *dst.add((p.first + idx) * l + t) = e };
                    nm |= e;
                }
                let mut free = !nm;
                while searching {
                    if free == 0 {
                        searching = (t + 1) * 64 < end;
                        break;
                    }
                    let at = t * 64 + free.trailing_zeros() as usize;
                    if at >= end {
                        searching = false;
                    } else if oracle.active() && oracle.n_at(&caller_x, at) {
                        // A move out of the box reaches a P-position: the next candidate.
                        free &= free - 1;
                    } else {
                        pos = S::of(at);
                        searching = false;
                    }
                }
            }
            if pos != S::NONE {
                let pos = pos.get();
                out.push((base + idx as u64, pos as u32));
                let (t, bit) = (pos / 64, 1u64 << (pos % 64));
                for p in &g.words {
                    let (dst, _) = home(p.persistent);
                    // SAFETY: as above.
                    unsafe { *dst.add((p.first + idx) * l + t) |= bit };
                }
            }
            for (j, p) in g.prefixes.iter().enumerate() {
                let (_, dst) = home(p.persistent);
                // SAFETY: as above.
                unsafe { *dst.add(p.first + idx) = acc_b[j].min(pos) };
            }
        }
        // Next row (odometer over axes 2..=n_inner, axis 2 fastest).
        #[allow(clippy::needless_range_loop)] // `axis` indexes two arrays in step
        for axis in 2..=g.n_inner {
            x[axis] += 1;
            if (x[axis] as usize) < g.radix[axis] {
                zeros &= !(1 << axis);
                break;
            }
            x[axis] = 0;
            zeros |= 1 << axis;
        }
    }
    out
}

/// [`solve_block`] with lines of one word known at compile time, or of `g.l` words, and starts of
/// one byte or two.
#[allow(clippy::too_many_arguments)]
pub(super) fn solve_any_width<O: LineOracle>(
    g: &Geometry,
    origin_n: bool,
    oracle: &O,
    a: usize,
    b: usize,
    cur: &mut Store,
    local: &mut Store,
    prev_a: &Store,
    prev_b: &Store,
) -> Vec<PLine> {
    let (o, w) = (origin_n, Words(g.l));
    match (g.l == 1, g.sb == 1) {
        (true, true) => {
            solve_block::<_, _, u8>(g, OneWord, o, oracle, a, b, cur, local, prev_a, prev_b)
        }
        (true, false) => {
            solve_block::<_, _, u16>(g, OneWord, o, oracle, a, b, cur, local, prev_a, prev_b)
        }
        (false, true) => solve_block::<_, _, u8>(g, w, o, oracle, a, b, cur, local, prev_a, prev_b),
        (false, false) => {
            solve_block::<_, _, u16>(g, w, o, oracle, a, b, cur, local, prev_a, prev_b)
        }
    }
}
