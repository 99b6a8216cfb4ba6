//! The recurrence over the positions of one block (see the parent module's notes).

use super::geometry::{Geometry, Reach};
use super::{Extra, Overflow};

thread_local! {
    /// The rings of the local windows (see [`super::geometry`]), kept from block to block on a
    /// thread. A ring's set is never read before it is written in the same block (a look-up reaches
    /// back at most the ring's length, to a position of the same block), so it is not cleared.
    static RINGS: std::cell::RefCell<Vec<u64>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// What a block reads and writes: its store (the persistent windows' arrays), the stores of blocks
/// `(a-1, b)` and `(a, b-1)` when they lie in the box (each from its skew on), and its values.
pub(super) struct Block<'s> {
    pub(super) a: usize,
    pub(super) b: usize,
    pub(super) cur: &'s mut [u64],
    pub(super) prev_a: Option<&'s [u64]>,
    pub(super) prev_b: Option<&'s [u64]>,
    pub(super) out: &'s mut [u16],
}

/// Solves a block with sets of `words` words, in chunks of `C` words known at compile time (the
/// largest of 8 to 1 that divides `words`): a set is built in registers and written once. Returns
/// the largest value of the block, or `None` when cancelled.
pub(super) fn solve_block(
    g: &Geometry,
    words: usize,
    blk: Block,
    cancel: &dyn Fn() -> bool,
    extra: Extra,
) -> Result<Option<u16>, Overflow> {
    RINGS.with(|rings| {
        let mut rings = rings.borrow_mut();
        let need = g.ring_sets * words;
        if rings.len() < need {
            rings.resize(need, 0);
        }
        let rings = &mut rings[..need];
        let solve = match (1..=8).rev().find(|&c| words.is_multiple_of(c)) {
            Some(8) => solve_in::<8>,
            Some(7) => solve_in::<7>,
            Some(6) => solve_in::<6>,
            Some(5) => solve_in::<5>,
            Some(4) => solve_in::<4>,
            Some(3) => solve_in::<3>,
            Some(2) => solve_in::<2>,
            _ => solve_in::<1>,
        };
        solve(g, words, blk, cancel, extra, rings)
    })
}

/// Where the look-ups of the positions of a run read and write: for each window `j`, its sources
/// `src[ends[j-1]..ends[j]]`, those along axis 0 last (from `firsts[j]` on: not at the run's first
/// position), and its destination, as addresses at the run's first position; position `k` of the
/// run is `k` sets further on.
#[derive(Default)]
struct Lookups {
    src: Vec<*const u64>,
    firsts: Vec<usize>,
    ends: Vec<usize>,
    dst: Vec<*mut u64>,
}

/// The memory a block's positions read and write: its store and the thread's rings (addresses
/// derived from one pointer each, for reads and writes alike), and the stores of the blocks read.
struct Memory<'s> {
    cur: *mut u64,
    cur_len: usize,
    rings: *mut u64,
    rings_len: usize,
    prev_a: Option<&'s [u64]>,
    prev_b: Option<&'s [u64]>,
}

/// The address of word `off` of the `len` words at `base`, less `back` sets of `w` words, checked
/// to leave room for `span - back` sets from `off` on. A look-up along axis 0 reads from the run's
/// second position on (`back = 1`): the address for the first, which may lie before `base`, is
/// never read.
fn address(
    base: *const u64,
    len: usize,
    off: usize,
    back: usize,
    span: usize,
    w: usize,
) -> *const u64 {
    assert!(
        off + (span - back) * w <= len,
        "a look-up inside the block's memory"
    );
    base.wrapping_add(off).wrapping_sub(back * w)
}

/// The look-ups of the run of `run` positions that starts at `idx0` (`x` its coordinates, `x[0] =
/// 0`; `ring_at0[j]` the place of `idx0` in window `j`'s ring): along an inner axis other than 0
/// only when the run's coordinate there is positive, along `A` and `B` when those blocks lie in the
/// box. Checked for `ahead` runs more: the next runs of a row along axis 1 that take the same
/// look-ups one run further on.
#[allow(clippy::too_many_arguments)]
fn lookups(
    g: &Geometry,
    w: usize,
    per: usize,
    x: &[u32],
    idx0: usize,
    run: usize,
    ring_at0: &[usize],
    mem: &Memory,
    ahead: usize,
    out: &mut Lookups,
) {
    let span = run * (1 + ahead);
    out.src.clear();
    out.firsts.clear();
    out.ends.clear();
    out.dst.clear();
    for (j, p) in g.plans.iter().enumerate() {
        for along_0 in [false, true] {
            if along_0 {
                out.firsts.push(out.src.len());
            }
            for rc in &p.reach {
                // Where the look-up of position `idx0 + 1` reads (axis 0), or of `idx0`.
                let (base, n, off, back): (*const u64, usize, usize, usize) = match *rc {
                    Reach::Inner { axis, stride } => {
                        if (axis == 0) != along_0 || (axis > 0 && x[axis] == 0) {
                            continue;
                        }
                        let back = usize::from(along_0);
                        if p.persistent {
                            let at = p.slot * per + (idx0 + back - stride) * w;
                            (mem.cur.cast_const(), mem.cur_len, at, back)
                        } else {
                            // The ring holds the last `ring` positions; `idx - ring` is in the
                            // place `idx` is about to take.
                            let here = ring_at0[j] + back;
                            let from = if stride == p.ring {
                                here
                            } else {
                                here - stride
                            };
                            let at = (p.ring_at + from) * w;
                            (mem.rings.cast_const(), mem.rings_len, at, back)
                        }
                    }
                    Reach::A | Reach::B if !along_0 => {
                        let s = if matches!(rc, Reach::A) {
                            mem.prev_a
                        } else {
                            mem.prev_b
                        };
                        match s {
                            Some(s) => (s.as_ptr(), s.len(), p.slot * per + idx0 * w, 0),
                            None => continue,
                        }
                    }
                    _ => continue,
                };
                out.src.push(address(base, n, off, back, span, w));
            }
        }
        out.ends.push(out.src.len());
        let (base, n, off) = if p.persistent {
            (mem.cur, mem.cur_len, p.slot * per + idx0 * w)
        } else {
            (mem.rings, mem.rings_len, (p.ring_at + ring_at0[j]) * w)
        };
        out.dst.push(address(base, n, off, 0, span, w).cast_mut());
    }
}

/// The recurrence over the positions of a block, sets of `words` words in chunks of `C`, run by
/// run along axis 0 (a block of one position when there are no inner axes).
fn solve_in<const C: usize>(
    g: &Geometry,
    words: usize,
    blk: Block,
    cancel: &dyn Fn() -> bool,
    extra: Extra,
    rings: &mut [u64],
) -> Result<Option<u16>, Overflow> {
    let w = words;
    debug_assert_eq!(w % C, 0);
    let Block {
        a,
        b,
        cur,
        prev_a,
        prev_b,
        out,
    } = blk;
    let per = g.per(w);
    let mut x = vec![0u32; g.m.max(2)];
    if g.m >= 2 {
        x[g.m - 2] = a as u32;
    }
    if g.m >= 1 {
        x[g.m - 1] = b as u32;
    }
    let mem = Memory {
        cur_len: cur.len(),
        cur: cur.as_mut_ptr(),
        rings_len: rings.len(),
        rings: rings.as_mut_ptr(),
        prev_a,
        prev_b,
    };
    let n = g.plans.len();
    let run = if g.n_inner >= 1 { g.r } else { 1 };
    // Each local window's place in its ring at the run's start.
    let mut ring_at0 = vec![0usize; n];
    let mut lk = Lookups::default();
    let mut moved = vec![0u64; if extra.is_some() { w } else { 0 }];
    let mut since = 0;
    let mut top = 0u16;
    for idx0 in (0..g.block).step_by(run) {
        since += run;
        if since >= 65536 {
            since = 0;
            if cancel() {
                return Ok(None);
            }
        }
        if g.n_inner >= 2 && x[1] >= 2 {
            // The run before, one run on: in a row along axis 1 past its first two runs, no
            // look-up starts or stops, and no ring wraps around (its length is a multiple of
            // `r^2`). `lookups` checked the row's bounds at its second run.
            for s in &mut lk.src {
                *s = s.wrapping_add(run * w);
            }
            for d in &mut lk.dst {
                *d = d.wrapping_add(run * w);
            }
        } else {
            let ahead = if g.n_inner >= 2 && x[1] == 1 {
                g.r - 2
            } else {
                0
            };
            lookups(g, w, per, &x, idx0, run, &ring_at0, &mem, ahead, &mut lk);
        }
        for k in 0..run {
            if let Some(f) = extra {
                if run > 1 {
                    x[0] = k as u32;
                }
                moved.iter_mut().for_each(|o| *o = 0);
                f(&x, &mut moved);
            }
            let step = k * w;
            let mut mex = None;
            for off in (0..w).step_by(C) {
                let mut opts = [0u64; C];
                if extra.is_some() {
                    opts.copy_from_slice(&moved[off..off + C]);
                }
                let mut from = 0;
                for (j, &end) in lk.ends.iter().enumerate() {
                    let mut acc = [0u64; C];
                    let end_k = if k == 0 { lk.firsts[j] } else { end };
                    for &s in &lk.src[from..end_k] {
                        // SAFETY: `lookups` checked room for the sets of the run's positions it
                        // reads from `s` (from the second on along axis 0: `s` itself may lie
                        // before the memory, hence `wrapping_add`), and `off + C <= w`. Nothing
                        // writes this set now: a window reads only its own sets of earlier
                        // positions, or those of other blocks.
                        let set = unsafe { *(s.wrapping_add(step + off) as *const [u64; C]) };
                        for (d, v) in acc.iter_mut().zip(set) {
                            *d |= v;
                        }
                    }
                    from = end;
                    for (o, v) in opts.iter_mut().zip(&acc) {
                        *o |= v;
                    }
                    // SAFETY: as above, for the window's own set of this position.
                    unsafe { *(lk.dst[j].add(step + off) as *mut [u64; C]) = acc };
                }
                if mex.is_none() {
                    if let Some(t) = opts.iter().position(|&o| o != !0) {
                        mex = Some((off + t) * 64 + (!opts[t]).trailing_zeros() as usize);
                    }
                }
            }
            let Some(v) = mex.filter(|&v| v <= u16::MAX as usize) else {
                return Err(Overflow);
            };
            out[idx0 + k] = v as u16;
            top = top.max(v as u16);
            for &d in &lk.dst {
                // SAFETY: as above; `v / 64 < w`.
                unsafe { *d.add(step + v / 64) |= 1 << (v % 64) };
            }
        }
        if run > 1 {
            x[0] = 0;
        }
        for (j, p) in g.plans.iter().enumerate() {
            if !p.persistent {
                ring_at0[j] = (ring_at0[j] + run) % p.ring;
            }
        }
        for xa in x.iter_mut().take(g.n_inner).skip(1) {
            *xa += 1;
            if (*xa as usize) < g.r {
                break;
            }
            *xa = 0;
        }
    }
    Ok(Some(top))
}
