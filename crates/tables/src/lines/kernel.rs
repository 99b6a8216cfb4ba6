//! One block of lines: the recurrence of the module notes run line by line, word by word, over the
//! records of the block, its scratch and the two blocks of the previous diagonal it reads
//! ([`solve_any_width`]), monomorphised for lines of one word and for one-byte prefix starts.

use super::geometry::{Geometry, Look, Plan, Store};
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

/// A word of a line's bit set: 32 bits when a line has at most 32 values ([`Geometry::wb`]), else
/// 64.
trait Word:
    Copy + Send + Sync + PartialEq + std::ops::BitOr<Output = Self> + std::ops::BitOrAssign
{
    const ZERO: Self;
    const BITS: usize;
    /// Bit `i` alone.
    fn bit(i: usize) -> Self;
    /// The word, in the low bits of a u64.
    fn wide(self) -> u64;
}

impl Word for u32 {
    const ZERO: u32 = 0;
    const BITS: usize = 32;
    #[inline(always)]
    fn bit(i: usize) -> u32 {
        1 << i
    }
    #[inline(always)]
    fn wide(self) -> u64 {
        self as u64
    }
}

impl Word for u64 {
    const ZERO: u64 = 0;
    const BITS: usize = 64;
    #[inline(always)]
    fn bit(i: usize) -> u64 {
        1 << i
    }
    #[inline(always)]
    fn wide(self) -> u64 {
        self
    }
}

/// Solves the block `(a, b)`; returns its P-lines. `local` is a scratch store
/// ([`Geometry::scratch`]): every record is written before it is read, so one scratch serves block
/// after block.
///
/// The lines go row by row, a row being the lines that differ on axis 1 only (a single line when the
/// block has no inner axis). Along a row, `D_w` of a window with axis 1 is the OR (for starts: the
/// minimum) of its look-ups off axis 1 over the row up to the line, and of the P-positions of the
/// row up to the line. So a row takes three passes:
/// 1. for each window, its look-ups off axis 1: each reads one run of consecutive records (a store
///    keeps a window's records line after line), ORed word by word (starts: their minimum) into the
///    row's records, then, for a window with axis 1, ORed along the row; and all of them ORed into the
///    row's N-masks (starts: the lowest start of each line). These loops are turned into vector
///    operations by the compiler.
/// 2. line by line, the P-position: the lowest bit no move reaches below the lowest start, the row's
///    earlier P-positions counting for the windows with axis 1.
/// 3. each P-position found is added to the records of its line, and of the lines after it in the
///    row for the windows with axis 1.
#[allow(clippy::too_many_arguments)]
fn solve_block<O: LineOracle, T: Word, W: Width, S: Start>(
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
    // The lines of a row; the row's N-masks and lowest starts (pass 1); its P-positions (pass 2).
    let row = if g.n_inner >= 1 { g.radix[1] } else { 1 };
    let mut masks = vec![T::ZERO; row * l];
    let mut lows = vec![S::NONE; row];
    let mut found: Vec<(usize, usize)> = Vec::new();
    let row_words = g.words.iter().any(|p| p.row_look);
    let row_starts = g.prefixes.iter().any(|p| p.row_look);

    let base = a as u64 * g.stride_a + b as u64 * g.stride_b;
    let outer_zero = a == 0 && b == 0;
    // Raw pointers: the current block is read (earlier rows) and written (this row) in one pass.
    let cur_w = cur.w.as_mut_ptr().cast::<T>();
    // Starts are read as `S` from the stores' two-byte units (alignment 2 suffices for both).
    let cur_b = cur.b.as_mut_ptr().cast::<S>();
    let loc_w = local.w.as_mut_ptr().cast::<T>();
    let loc_b = local.b.as_mut_ptr().cast::<S>();
    let (pa_w, pa_b) = (prev_a.w.as_ptr().cast::<T>(), prev_a.b.as_ptr().cast::<S>());
    let (pb_w, pb_b) = (prev_b.w.as_ptr().cast::<T>(), prev_b.b.as_ptr().cast::<S>());
    let bases_w: [*const T; 4] = [cur_w, loc_w, pa_w, pb_w];
    let bases_b: [*const S; 4] = [cur_b, loc_b, pa_b, pb_b];
    let home_w = |p: &Plan| if p.persistent { cur_w } else { loc_w };
    let home_b = |p: &Plan| if p.persistent { cur_b } else { loc_b };
    // The inner axes above 1 whose entry is 0 (bit i for axis i): look-ups one step back along them
    // read nothing.
    let mut zeros: u32 = (2..=g.n_inner).fold(0, |z, i| z | 1 << i);
    for first in (0..g.block).step_by(row) {
        // Pass 1. SAFETY (every access of this function): the row's records of a window are
        // `row` records from `p.first + first`, inside its store; a look-up lands inside its
        // store (one step back along an inner axis above 1 only when the row's entry there is
        // above 0, in an earlier row; A/B read the same lines of the previous blocks), so the
        // runs read never overlap the run written.
        masks.fill(T::ZERO);
        if origin_n && outer_zero && first == 0 {
            masks[0] = T::bit(0);
        }
        // One look-up's run of records for the row.
        let run_w = |p: &Plan, lk: &Look| unsafe {
            std::slice::from_raw_parts(
                bases_w[lk.src as usize].add((p.first + first - lk.back) * l),
                row * l,
            )
        };
        let run_b = |p: &Plan, lk: &Look| unsafe {
            std::slice::from_raw_parts(bases_b[lk.src as usize].add(p.first + first - lk.back), row)
        };
        for p in &g.words {
            let rec = unsafe {
                std::slice::from_raw_parts_mut(home_w(p).add((p.first + first) * l), row * l)
            };
            let mut looks = p
                .looks
                .iter()
                .filter(|lk| !lk.along_row && zeros & lk.zero == 0);
            match looks.next() {
                None => rec.fill(T::ZERO),
                Some(lk) => rec.copy_from_slice(run_w(p, lk)),
            }
            for lk in looks {
                for (e, &v) in rec.iter_mut().zip(run_w(p, lk)) {
                    *e |= v;
                }
            }
            if p.row_look {
                for i in l..row * l {
                    rec[i] |= rec[i - l];
                }
            }
            for (m, &e) in masks.iter_mut().zip(rec.iter()) {
                *m |= e;
            }
        }
        lows.fill(S::NONE);
        for p in &g.prefixes {
            let rec =
                unsafe { std::slice::from_raw_parts_mut(home_b(p).add(p.first + first), row) };
            let mut looks = p
                .looks
                .iter()
                .filter(|lk| !lk.along_row && zeros & lk.zero == 0);
            match looks.next() {
                None => rec.fill(S::NONE),
                Some(lk) => rec.copy_from_slice(run_b(p, lk)),
            }
            for lk in looks {
                for (e, &v) in rec.iter_mut().zip(run_b(p, lk)) {
                    *e = (*e).min(v);
                }
            }
            if p.row_look {
                for i in 1..row {
                    rec[i] = rec[i].min(rec[i - 1]);
                }
            }
            for (m, &e) in lows.iter_mut().zip(rec.iter()) {
                *m = (*m).min(e);
            }
        }
        // Pass 2: the row's P-positions, line by line.
        found.clear();
        let mut lowest_found = S::NONE;
        for x1 in 0..row {
            let idx = first + x1;
            if oracle.active() {
                // The oracle reads the caller's axes; it is asked only about the candidates for the
                // line's P-position (the lowest bits no move inside the box reaches), one by one.
                if g.n_inner >= 1 {
                    x[1] = x1 as u32;
                }
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
            let mut lowest = lows[x1];
            if row_starts {
                lowest = lowest.min(lowest_found);
            }
            // The P-position is the lowest bit below `end` that no move reaches.
            let end = lowest.get().min(g.r);
            let mut pos = None;
            let mut searching = end > 0;
            let mut t = 0;
            while searching && t < l {
                let mut nm = masks[x1 * l + t].wide();
                if row_words {
                    for &(_, q) in &found {
                        if q / T::BITS == t {
                            nm |= 1 << (q % T::BITS);
                        }
                    }
                }
                // Bits past the word (of a 32-bit word) are free, but past the line's end.
                let mut free = !nm;
                while searching {
                    if free == 0 {
                        searching = (t + 1) * T::BITS < end;
                        break;
                    }
                    let at = t * T::BITS + free.trailing_zeros() as usize;
                    if at >= end {
                        searching = false;
                    } else if oracle.active() && oracle.n_at(&caller_x, at) {
                        // A move out of the box reaches a P-position: the next candidate.
                        free &= free - 1;
                    } else {
                        pos = Some(at);
                        searching = false;
                    }
                }
                t += 1;
            }
            if let Some(pos) = pos {
                out.push((base + idx as u64, pos as u32));
                found.push((x1, pos));
                lowest_found = lowest_found.min(S::of(pos));
            }
        }
        // Pass 3: the P-positions into the records.
        for &(x1, pos) in &found {
            let (t, bit) = (pos / T::BITS, T::bit(pos % T::BITS));
            for p in &g.words {
                let rec = home_w(p);
                let upto = if p.row_look { row } else { x1 + 1 };
                for y in x1..upto {
                    unsafe { *rec.add((p.first + first + y) * l + t) |= bit };
                }
            }
            for p in &g.prefixes {
                let rec = home_b(p);
                let upto = if p.row_look { row } else { x1 + 1 };
                for y in x1..upto {
                    let e = unsafe { &mut *rec.add(p.first + first + y) };
                    *e = (*e).min(S::of(pos));
                }
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

/// [`solve_block`] with lines of one word known at compile time (of 32 bits or 64), or of `g.l`
/// words, and starts of one byte or two.
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
    let (c, s) = (cur, local);
    match (g.l == 1, g.wb == 4, g.sb == 1) {
        (true, true, _) => {
            solve_block::<_, u32, _, u8>(g, OneWord, o, oracle, a, b, c, s, prev_a, prev_b)
        }
        (true, false, true) => {
            solve_block::<_, u64, _, u8>(g, OneWord, o, oracle, a, b, c, s, prev_a, prev_b)
        }
        (true, false, false) => {
            solve_block::<_, u64, _, u16>(g, OneWord, o, oracle, a, b, c, s, prev_a, prev_b)
        }
        (false, _, true) => {
            solve_block::<_, u64, _, u8>(g, w, o, oracle, a, b, c, s, prev_a, prev_b)
        }
        (false, _, false) => {
            solve_block::<_, u64, _, u16>(g, w, o, oracle, a, b, c, s, prev_a, prev_b)
        }
    }
}
