//! P-sets of window games that every permutation of the stacks keeps (Nim, Moore's Nim_k, a complex
//! of all the j-sets), computed on the sorted tuples alone: one position per class, about `m!`
//! times fewer than the box (see [`crate::sorted`]).
//!
//! For a window `w` let `D_w(x)` say whether some P-position `q <= x` agrees with `x` outside `w`.
//! A position `x` other than the origin is P when no `D_w(x - e_i)` (`i` in `w`, `x_i > 0`) holds;
//! the origin is P in normal play and N in misère play; and `D_w(x) = P(x) or` those of `w`. Tier by
//! tier of the entries' sum, two tiers of `D` bits are kept. The P classes are listed at the end,
//! each as the game's canonical form (the sorted tuple), in lexicographic order, and counted with
//! the number of their orderings.
//!
//! Checkpoints hold the last finished tier, its bits and the P classes found so far.

use super::Summary;
use crate::checkpoint::{self as ck, Saver};
use crate::lines::{Hooks, Resume, Stop};
use crate::sorted::{self, Head, Ranks, Windows, MAX_M};
use nimlab_core::{BoxDomain, Game, Play};
use rayon::prelude::*;
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// The section tag of this sweep's checkpoints.
const TAG: u64 = 0x5053_4554_0003;

/// True when the sorted sweep takes the P-set of `game` on `domain` (the window game with
/// `windows` on `m` stacks): [`sorted::fits`], one process, the symmetry on (not only the mirror),
/// fewer sorted tuples than the line engine's work ([`cheaper`]), and the game's canonical form the
/// sorted tuple.
pub(super) fn applies(
    game: &dyn Game,
    domain: &BoxDomain,
    m: usize,
    windows: &[Vec<usize>],
    ranks: usize,
) -> bool {
    let r = domain.radix() as usize;
    ranks == 1
        && sorted::fits(m, r, windows)
        && crate::lines::sorted_symmetry_on()
        && (ALWAYS.load(Ordering::Relaxed) || cheaper(m, r))
        && canonical_sorts(game, m, domain.lo)
}

/// The sorted sweep spends about as long on a sorted tuple as the line engine on this many words of
/// lines (docs/benchmarks.md, "P-sets and Grundy tables on sorted tuples": about 80 ns a tuple, and
/// 20 ns a word of a line on Moore's Nim): the line engine does 64 positions a word operation.
const WORDS_PER_TUPLE: f64 = 4.0;

/// True when the sorted tuples of `[0..r)^m` cost less than the line engine's lines.
fn cheaper(m: usize, r: usize) -> bool {
    let words = r.div_ceil(64) as f64;
    sorted::classes(m, r) * WORDS_PER_TUPLE < (r as f64).powi(m as i32 - 1) * words
}

static ALWAYS: AtomicBool = AtomicBool::new(false);

/// Takes the sorted sweep wherever it applies (`true`), or only where it costs less than the line
/// engine (`false`, the default), for the sweeps started after the call: for tests.
pub(crate) fn always(on: bool) {
    ALWAYS.store(on, Ordering::Relaxed);
}

/// True when the game's canonical form of a tuple is the sorted tuple. The canonical form is the
/// least image under the game's symmetries; at a tuple of distinct entries `p`, an image of `p` equal
/// to the swap of two neighbours of `p` can only be that swap, so if every such swap leaves the
/// canonical form of `p` unchanged, every swap of neighbours (hence every permutation) is a symmetry.
fn canonical_sorts(game: &dyn Game, m: usize, lo: u64) -> bool {
    let p: Vec<u64> = (0..m as u64).map(|i| lo + i).collect();
    let c = game.canonical(&p);
    c == p
        && (1..m).all(|i| {
            let mut q = p.clone();
            q.swap(i - 1, i);
            game.canonical(&q) == c
        })
}

/// Bytes the sorted P-set sweep keeps: two tiers of bits and tuples, the P classes (at most one a
/// line along the largest entry, so at most the sorted tuples of `m - 1` entries) and the count
/// tables.
pub(crate) fn memory(m: usize, r: usize, nw: usize) -> f64 {
    let tier = Ranks::new(m, r).widest() as f64;
    let p_classes = sorted::classes(m - 1, r);
    2.0 * tier * (nw.div_ceil(64) * 8 + 2 * m) as f64
        + p_classes * (2 * m + 8 * m) as f64
        + sorted::ranks_bytes(m, r)
}

/// One finished tier: its tuples and their `D` bits (`wp` words each).
struct Tier {
    s: usize,
    bits: Vec<u64>,
}

/// The P-set of `game` on `domain` in `play` (which [`applies`]): the canonical P-positions to
/// `sink` in lexicographic order, and the counts.
#[allow(clippy::too_many_arguments)]
pub(super) fn run(
    game: &dyn Game,
    domain: &BoxDomain,
    play: Play,
    m: usize,
    windows: &[Vec<usize>],
    hooks: Hooks,
    sink: &mut dyn FnMut(&[u64]),
    resume: Resume,
) -> Result<Summary, Stop> {
    let r = domain.radix() as usize;
    let rk = Ranks::new(m, r);
    let win = Windows::new(m, windows);
    let nw = win.masks.len();
    let wp = nw.div_ceil(64);
    let head = Head {
        tag: TAG,
        fields: [
            (m as u64, "stacks"),
            (r as u64, "radix"),
            (nw as u64, "windows"),
            (u64::from(play == Play::Misere), "play"),
        ],
    };
    let mut below: Option<Tier> = None;
    // The P classes found, m entries each.
    let mut found: Vec<u16> = Vec::new();
    let mut first = 0;
    let Resume { mut saver, from } = resume;
    if let Some(rd) = from {
        let t = read_state(rd, &rk, &head, wp, &mut found)
            .map_err(|e| Stop::Damaged(format!("the checkpoint does not fit this table ({e})")))?;
        first = t.s + 1;
        below = Some(t);
    }
    let total = sorted::classes(m, r) as u64;
    let mut done: u64 = (0..first).map(|s| rk.tier_len(s) as u64).sum();
    let origin_p = play == Play::Normal;
    let mut s = first;
    while s <= rk.smax {
        if hooks.cancelled() {
            if let (Some(sv), Some(b), true) = (saver.as_deref_mut(), &below, s > first) {
                save(sv, (done, total), &rk, &head, b, &found);
            }
            return Err(Stop::Interrupted);
        }
        let (tier, p) = solve_tier(&rk, &win, below.as_ref(), s, origin_p);
        found.extend_from_slice(&p);
        done += rk.tier_len(s) as u64;
        below = Some(tier);
        if let Some(pr) = hooks.progress {
            pr(done, total);
        }
        if let (Some(sv), Some(b), true) = (saver.as_deref_mut(), &below, s < rk.smax) {
            if sv.due() {
                save(sv, (done, total), &rk, &head, b, &found);
            }
        }
        s += 1;
    }
    if hooks.cancelled() {
        return Err(Stop::Interrupted);
    }
    let count: u64 = found.chunks(m).map(sorted::orbit).sum();
    let mut canon: Vec<Vec<u64>> = found
        .par_chunks(m)
        .map(|x| {
            let p: Vec<u64> = x.iter().map(|&v| domain.lo + v as u64).collect();
            game.canonical(&p)
        })
        .collect();
    canon.par_sort_unstable();
    for p in &canon {
        sink(p);
    }
    let classes = canon.len() as u64;
    Ok(Summary {
        count,
        canonical_count: classes,
        by_length: vec![(m, count, classes)],
    })
}

/// Tier `s` from the tier below: its bits, and its P classes in order.
fn solve_tier(
    rk: &Ranks,
    win: &Windows,
    below: Option<&Tier>,
    s: usize,
    origin_p: bool,
) -> (Tier, Vec<u16>) {
    let m = rk.m;
    let nw = win.masks.len();
    let wp = nw.div_ceil(64);
    let tuples = rk.tier(s);
    let len = tuples.len() / m;
    let mut bits = vec![0u64; len * wp];
    const CHUNK: usize = 1024;
    let p: Vec<Vec<u16>> = bits
        .par_chunks_mut(CHUNK * wp)
        .enumerate()
        .map(|(c, bits)| {
            let mut p = Vec::new();
            for (k, cur) in bits.chunks_mut(wp).enumerate() {
                let x = &tuples[(c * CHUNK + k) * m..][..m];
                let mut first = [0usize; MAX_M];
                let mut place = [0usize; MAX_M];
                sorted::first_places(rk, x, &mut first, &mut place);
                let mut any = false;
                for wi in 0..nw {
                    let d = win.lookups(wi, x, &first, &place).any(|(at, w)| {
                        let b = below.expect("a position with a stack has a tier below");
                        b.bits[at * wp + w / 64] >> (w % 64) & 1 == 1
                    });
                    if d {
                        cur[wi / 64] |= 1 << (wi % 64);
                        any = true;
                    }
                }
                let is_p = if s == 0 { origin_p } else { !any };
                if is_p {
                    for wi in 0..nw {
                        cur[wi / 64] |= 1 << (wi % 64);
                    }
                    p.extend_from_slice(x);
                }
            }
            p
        })
        .collect();
    (Tier { s, bits }, p.concat())
}

/// A checkpoint after tier `t`: the head, then the tier's bits and the P classes so far.
fn save(
    sv: &mut dyn Saver,
    progress: (u64, u64),
    rk: &Ranks,
    head: &Head,
    t: &Tier,
    found: &[u16],
) {
    head.save(sv, rk, t.s, progress, &mut |w: &mut dyn Write| {
        ck::put_u64s(w, &t.bits)?;
        ck::put_u64(w, found.len() as u64)?;
        ck::put_u16s(w, found)
    });
}

fn read_state(
    rd: &mut dyn Read,
    rk: &Ranks,
    head: &Head,
    wp: usize,
    found: &mut Vec<u16>,
) -> io::Result<Tier> {
    let s = head.read(rd, rk)?;
    let mut bits = vec![0u64; rk.tier_len(s) * wp];
    ck::get_u64s_into(rd, &mut bits)?;
    let n = ck::get_len(rd, sorted::classes(rk.m, rk.r) as usize * rk.m)?;
    found.resize(n, 0);
    ck::get_u16s_into(rd, found)?;
    Ok(Tier { s, bits })
}
