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
/// `(a-1, b)` and `(a, b-1)` when they lie in the box, and its values.
pub(super) struct Block<'s> {
    pub(super) a: usize,
    pub(super) b: usize,
    pub(super) cur: &'s mut [u64],
    pub(super) prev_a: Option<&'s [u64]>,
    pub(super) prev_b: Option<&'s [u64]>,
    pub(super) out: &'s mut [u16],
}

/// Solves a block with sets of `words` words, in chunks of `C` words known at compile time (the
/// largest of 8 to 1 that divides `words`): a set is built in registers and written once.
/// `Ok(false)`: cancelled.
pub(super) fn solve_block(
    g: &Geometry,
    words: usize,
    blk: Block,
    cancel: &dyn Fn() -> bool,
    extra: Extra,
) -> Result<bool, Overflow> {
    RINGS.with(|rings| {
        let mut rings = rings.borrow_mut();
        let need = g.ring_sets * words;
        if rings.len() < need {
            rings.resize(need, 0);
        }
        let rings = &mut rings[..need];
        let solve = match (1..=8).rev().find(|c| words % c == 0) {
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

/// The recurrence over the positions of a block, sets of `words` words in chunks of `C`.
fn solve_in<const C: usize>(
    g: &Geometry,
    words: usize,
    blk: Block,
    cancel: &dyn Fn() -> bool,
    extra: Extra,
    rings: &mut [u64],
) -> Result<bool, Overflow> {
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
    let per = g.block * w;
    let mut x = vec![0u32; g.m.max(2)];
    if g.m >= 2 {
        x[g.m - 2] = a as u32;
    }
    if g.m >= 1 {
        x[g.m - 1] = b as u32;
    }
    let n = g.plans.len();
    // Each local window's place in its ring: the position's index modulo the ring's length.
    let mut at = vec![0usize; n];
    // Where each window's set of this position goes (in the block's store or in a ring).
    let mut dst_at = vec![0usize; n];
    let mut moved = vec![0u64; if extra.is_some() { w } else { 0 }];
    for idx in 0..g.block {
        if idx % 65536 == 65535 && cancel() {
            return Ok(false);
        }
        if let Some(f) = extra {
            moved.iter_mut().for_each(|o| *o = 0);
            f(&x, &mut moved);
        }
        for (j, p) in g.plans.iter().enumerate() {
            dst_at[j] = if p.persistent {
                p.slot * per + idx * w
            } else {
                (p.ring_at + at[j]) * w
            };
        }
        let mut mex = None;
        for off in (0..w).step_by(C) {
            let mut opts = [0u64; C];
            if extra.is_some() {
                opts.copy_from_slice(&moved[off..off + C]);
            }
            for (j, p) in g.plans.iter().enumerate() {
                let mut acc = [0u64; C];
                for rc in &p.reach {
                    let src: &[u64] = match *rc {
                        Reach::Inner { axis, stride } => {
                            if x[axis] == 0 {
                                continue;
                            }
                            if p.persistent {
                                &cur[p.slot * per + (idx - stride) * w + off..][..C]
                            } else {
                                // The ring holds the last `ring` positions; `idx - ring` is in the
                                // place `idx` is about to take.
                                let back = if stride == p.ring {
                                    at[j]
                                } else {
                                    at[j] - stride
                                };
                                &rings[(p.ring_at + back) * w + off..][..C]
                            }
                        }
                        Reach::A => match prev_a {
                            Some(s) => &s[p.slot * per + idx * w + off..][..C],
                            None => continue,
                        },
                        Reach::B => match prev_b {
                            Some(s) => &s[p.slot * per + idx * w + off..][..C],
                            None => continue,
                        },
                    };
                    for (d, s) in acc.iter_mut().zip(src) {
                        *d |= s;
                    }
                }
                for (o, s) in opts.iter_mut().zip(&acc) {
                    *o |= s;
                }
                let store = if p.persistent { &mut *cur } else { &mut *rings };
                store[dst_at[j] + off..][..C].copy_from_slice(&acc);
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
        out[idx] = v as u16;
        for (j, p) in g.plans.iter().enumerate() {
            let store = if p.persistent { &mut *cur } else { &mut *rings };
            store[dst_at[j] + v / 64] |= 1 << (v % 64);
            if !p.persistent {
                at[j] += 1;
                if at[j] == p.ring {
                    at[j] = 0;
                }
            }
        }
        for xa in x.iter_mut().take(g.n_inner) {
            *xa += 1;
            if (*xa as usize) < g.r {
                break;
            }
            *xa = 0;
        }
    }
    Ok(true)
}
