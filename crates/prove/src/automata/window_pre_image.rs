//! Condition (II) by pre-images, for CN, Nim and the complexes: each window's pre-image of the set
//! ("x has an option inside this window that lies in the set", determinized on the fly over pairs
//! of a set state and the tracks already lowered, dominated pairs dropped), reused through a
//! symmetry of the set that carries one window onto another, and their union taken away from
//! "outside the set, not zero". One of the two searches of (II) that [`super::conditions`] runs
//! side by side.

use super::compile::nonzero;
use super::conditions::with_window;
use super::dfa::{closed, Budget, Dfa, Stop};
use rustc_hash::FxHashMap as HashMap;
use std::time::Instant;

/// "x has an option inside the window `w` that lies in the set", over the `m` tracks of x: the
/// pre-image of the set under one window's moves, determinized on the fly.
///
/// An option y of x equals x outside the window and is at most x on it, lower somewhere. Reading
/// the digits of x and y together, what matters of y so far is the set-automaton state `q` it
/// reached and the window's tracks on which y is already below x (`low`): there y's later digits
/// are free, elsewhere they are at most x's. A state of the pre-image is the set of (q, low) that
/// some y reaches. A pair with more tracks `low` accepts every continuation a pair with fewer does
/// (same q), so only the pairs whose `low` is maximal for their q are kept: the sets stay small
/// antichains, and two subsets that differ only by dominated pairs are one state. The successors
/// of every pair under every letter of x are tabulated first (a flat table), and a successor set
/// is gathered in a bit set.
fn pre_image(m: usize, s: &Dfa, w: &[usize], budget: &Budget) -> Result<Dfa, Stop> {
    let ls = s.live();
    let ns = s.states();
    let k = w.len();
    let masks = 1usize << k;
    let pairs = ns * masks;
    let letters = 1usize << m;
    // Pair index: q * masks + low.
    let mut start = Vec::with_capacity(pairs * letters + 1);
    let mut succ: Vec<u32> = Vec::new();
    start.push(0u32);
    for e in 0..pairs {
        budget.poll()?;
        let (q, low) = ((e / masks) as u32, (e % masks) as u32);
        for lx in 0..letters as u32 {
            if ls[q as usize] {
                let first = succ.len();
                'digits: for d in 0..1u32 << k {
                    let mut low2 = low;
                    for (j, &i) in w.iter().enumerate() {
                        let (xb, yb) = ((lx >> i) & 1, (d >> j) & 1);
                        if low >> j & 1 == 0 {
                            if yb > xb {
                                continue 'digits;
                            }
                            if yb < xb {
                                low2 |= 1 << j;
                            }
                        }
                    }
                    let q2 = s.next(q, with_window(m, lx, w, d) >> m);
                    if ls[q2 as usize] {
                        succ.push(q2 * masks as u32 + low2);
                    }
                }
                let row = &mut succ[first..];
                row.sort_unstable();
                let kept = dominant(row, masks);
                succ.truncate(first + kept);
            }
            if succ.len() >= u32::MAX as usize {
                return Err(Stop::Limit(
                    "a pre-image table grew past 2^32 entries".into(),
                ));
            }
            start.push(succ.len() as u32);
        }
    }
    if std::env::var_os("NIMLAB_AUTOMATA_TRACE").is_some() {
        eprintln!(
            "(II): window {w:?}: {pairs} pairs, {} successor entries",
            succ.len()
        );
    }
    let mut bits = vec![0u64; pairs.div_ceil(64)];
    let mut advance = |set: &[u32], lx: u32| -> Vec<u32> {
        let (mut first, mut last) = (usize::MAX, 0usize);
        for &e in set {
            let i = e as usize * letters + lx as usize;
            for &t in &succ[start[i] as usize..start[i + 1] as usize] {
                let word = t as usize / 64;
                bits[word] |= 1 << (t % 64);
                first = first.min(word);
                last = last.max(word);
            }
        }
        let mut out = Vec::new();
        if first <= last {
            for (word, b) in bits.iter_mut().enumerate().take(last + 1).skip(first) {
                let mut x = *b;
                while x != 0 {
                    out.push((word * 64) as u32 + x.trailing_zeros());
                    x &= x - 1;
                }
                *b = 0;
            }
        }
        let kept = dominant(&mut out, masks);
        out.truncate(kept);
        out
    };
    // Closed under the letter 0 (leading zero digits of x and y).
    let init = closed(if ls[0] { vec![0u32] } else { Vec::new() }, &mut advance);
    let accepting = |set: &Vec<u32>| {
        set.iter()
            .any(|&e| e as usize & (masks - 1) != 0 && s.fin[e as usize / masks])
    };
    let (mut calls, mut total) = (0u64, 0u64);
    let t = Instant::now();
    let d = Dfa::explore(
        m,
        init,
        |set, l| {
            calls += 1;
            total += set.len() as u64;
            advance(set, l)
        },
        accepting,
        budget,
    )?;
    if std::env::var_os("NIMLAB_AUTOMATA_TRACE").is_some() {
        eprintln!(
            "(II): window {w:?}: {} subsets, {:.1} pairs a subset on average ({:.2} s)",
            d.states(),
            total as f64 / calls.max(1) as f64,
            t.elapsed().as_secs_f64()
        );
    }
    d.minimize_within(Some(budget))
}

/// Keeps, in a sorted list of pairs `q * masks + low` (`masks` a power of two), only the pairs
/// whose `low` is not strictly inside another pair's `low` of the same `q` (moved to the front, in
/// order); returns how many.
fn dominant(pairs: &mut [u32], masks: usize) -> usize {
    let shift = masks.trailing_zeros();
    let all = masks as u32 - 1;
    let mut kept = 0;
    let mut i = 0;
    while i < pairs.len() {
        let q = pairs[i] >> shift;
        let mut j = i + 1;
        while j < pairs.len() && pairs[j] >> shift == q {
            j += 1;
        }
        if j == i + 1 {
            pairs[kept] = pairs[i];
            kept += 1;
        } else {
            for a in i..j {
                let la = pairs[a] & all;
                let covered = pairs[i..j].iter().any(|&b| {
                    let lb = b & all;
                    lb != la && lb & la == la
                });
                if !covered {
                    pairs[kept] = pairs[a];
                    kept += 1;
                }
            }
        }
        i = j;
    }
    kept
}

/// Permutations of `m` tracks (as `map[i]` = where track i goes) that carry the window `from` onto
/// the window `to`: the rotations and reflections of the circle, and the one that keeps the order
/// of the tracks inside and outside the windows (Moore's Nim: every set of heaps is a window).
fn carriers(m: usize, from: &[usize], to: &[usize]) -> Vec<Vec<usize>> {
    let mut target = to.to_vec();
    target.sort_unstable();
    let onto = |map: &Vec<usize>| {
        let mut image: Vec<usize> = from.iter().map(|&i| map[i]).collect();
        image.sort_unstable();
        image == target
    };
    let mut maps: Vec<Vec<usize>> = Vec::new();
    for r in 0..m {
        maps.push((0..m).map(|i| (i + r) % m).collect());
        maps.push((0..m).map(|i| (r + m - i) % m).collect());
    }
    let mut inside = from.to_vec();
    inside.sort_unstable();
    let outside_from: Vec<usize> = (0..m).filter(|i| !inside.contains(i)).collect();
    let outside_to: Vec<usize> = (0..m).filter(|i| !target.contains(i)).collect();
    let mut keep = vec![0; m];
    for (a, b) in inside
        .iter()
        .zip(&target)
        .chain(outside_from.iter().zip(&outside_to))
    {
        keep[*a] = *b;
    }
    maps.push(keep);
    let identity: Vec<usize> = (0..m).collect();
    let mut out: Vec<Vec<usize>> = Vec::new();
    for map in maps {
        if map != identity && onto(&map) && !out.contains(&map) {
            out.push(map);
        }
    }
    out
}

/// Condition (II) by pre-images: x, outside the set and not all zero, such that no option of x is
/// in the set. Each window's pre-image of the set ([`pre_image`]; reused through a symmetry of the
/// set where one carries the window onto a window already done, [`carriers`]) is a minimal
/// automaton; their union, taken two by two, is "has an option in the set", and a word of "outside
/// the set, not zero, and not in the union" is a counterexample. Every intermediate automaton is
/// minimal, so none grows past what its language needs.
pub(super) fn stranded_images(
    m: usize,
    s: &Dfa,
    opts: &[(Vec<usize>, Dfa)],
    budget: &Budget,
) -> Result<Option<Vec<u128>>, Stop> {
    let left = Dfa::product(&s.complement(), &nonzero(m, budget)?, false, budget)?;
    let into = moves_into(m, s, opts, budget)?;
    Ok(Dfa::product(&left, &into.complement(), false, budget)?.witness())
}

/// "x has an option in the set `s`": the union of every window's pre-image of the set.
pub(super) fn moves_into(
    m: usize,
    s: &Dfa,
    opts: &[(Vec<usize>, Dfa)],
    budget: &Budget,
) -> Result<Dfa, Stop> {
    let trace = std::env::var_os("NIMLAB_AUTOMATA_TRACE").is_some();
    // Pre-images already built, by window; and the rotations that leave the set unchanged.
    let mut built: Vec<(&[usize], Dfa)> = Vec::new();
    let mut invariant: HashMap<Vec<usize>, bool> = HashMap::default();
    let canonical = s.minimize();
    let mut images: Vec<Dfa> = Vec::new();
    for (w, _) in opts {
        let t = Instant::now();
        // A window that a permutation of the tracks maps from one already done, where that
        // permutation maps the set to itself: its pre-image is that one read with the tracks
        // permuted (the moves of a window are the same construction on every window).
        let mut reused = None;
        'search: for (w0, e0) in &built {
            for map in carriers(m, w0, w) {
                let same = *invariant
                    .entry(map.clone())
                    .or_insert_with(|| s.embed(&map, m).minimize() == canonical);
                if same {
                    reused = Some(e0.embed(&map, m));
                    break 'search;
                }
            }
        }
        let how = if reused.is_some() { "rotated" } else { "built" };
        let e = match reused {
            Some(e) => e,
            None => {
                let e = pre_image(m, s, w, budget)?;
                built.push((w, e.clone()));
                e
            }
        };
        if trace {
            eprintln!(
                "(II): window {w:?}: pre-image {} states ({how}, {:.2} s)",
                e.states(),
                t.elapsed().as_secs_f64()
            );
        }
        images.push(e);
    }
    // The union of the pre-images, two by two (a balanced tree keeps the intermediate unions
    // close to the final one, which is small when the set is the P-set: its N-positions).
    while images.len() > 1 {
        let t = Instant::now();
        let mut next = Vec::with_capacity(images.len().div_ceil(2));
        let mut it = images.into_iter();
        while let Some(a) = it.next() {
            next.push(match it.next() {
                Some(b) => Dfa::product(&a, &b, true, budget)?,
                None => a,
            });
        }
        images = next;
        if trace {
            let sizes: Vec<usize> = images.iter().map(|d| d.states()).collect();
            eprintln!(
                "(II): unions of {sizes:?} states ({:.2} s)",
                t.elapsed().as_secs_f64()
            );
        }
    }
    match images.pop() {
        Some(e) => Ok(e),
        // No window: no position has an option.
        None => Dfa::explore(m, (), |_, _| (), |_| false, budget),
    }
}
