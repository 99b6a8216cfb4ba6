//! Grundy tables of SCN(n,k): one circle length at a time, each reading the value sets of the
//! arcs of the shorter circles its moves reach (a pile that vanishes), with the window engine of
//! the parent module for the moves that keep every pile.

use super::*;
use rayon::prelude::*;
use std::collections::HashMap;

/// One circle length of SCN, solved: its values and the value sets `G_arc` of its arcs.
struct Circle {
    m: usize,
    values: Vec<u16>,
    words: usize,
    /// By arc (bit mask of tuple indices): for each position `c` (lexicographic index), the set of
    /// values of the positions `q <= c` with `q = c` off the arc, `words` words each.
    arcs: HashMap<u64, Vec<u64>>,
}

impl Circle {
    fn arc_table(&self, r: usize, mask: u64) -> Vec<u64> {
        let (m, w) = (self.m, self.words);
        let strides: Vec<usize> = (0..m).map(|i| r.pow((m - 1 - i) as u32)).collect();
        let mut set = vec![0u64; self.values.len() * w];
        let mut c = vec![0usize; m];
        for idx in 0..self.values.len() {
            let (done, rest) = set.split_at_mut(idx * w);
            let here = &mut rest[..w];
            let v = self.values[idx] as usize;
            here[v / 64] |= 1 << (v % 64);
            for i in 0..m {
                if c[i] > 0 && mask >> i & 1 == 1 {
                    let from = &done[(idx - strides[i]) * w..][..w];
                    for (d, s) in here.iter_mut().zip(from) {
                        *d |= s;
                    }
                }
            }
            for i in (0..m).rev() {
                c[i] += 1;
                if c[i] < r {
                    break;
                }
                c[i] = 0;
            }
        }
        set
    }
}

/// Bytes [`solve_shrinking`] keeps for SCN(n,k) with piles `1..=r` and `threads` threads, at the
/// circle length that needs the most, with value sets of [`likely_words`] words at each length:
/// while length `m` is solved, the values of the shorter lengths twice (the list returned and each
/// shorter circle's own), the value sets of the arcs of the shorter circles its moves still reach
/// (one set per position and arc), its own values, and then the larger of the engine's value sets
/// (the stores of the blocks of two diagonals and each thread's rings) and the copy of its values
/// appended to the list.
pub fn shrinking_memory(n: usize, k: usize, r: usize, threads: usize) -> f64 {
    if !within_reach(n, r) {
        return f64::INFINITY;
    }
    let rf = r as f64;
    let bytes_of_sets = |l: usize| rf.powi(l as i32) * likely_words(l, r) as f64 * 8.0;
    // The arcs built so far, by the length of the circle they are arcs of.
    let mut arcs: Vec<std::collections::HashSet<u64>> = vec![Default::default(); n + 1];
    let mut most: f64 = 0.0;
    for m in 1..=n {
        for v in crate::pset::vanishings(m, k) {
            if !v.kept.is_empty() && v.arc != 0 {
                arcs[v.kept.len()].insert(v.arc);
            }
        }
        // Those of the lengths below `m - k` were dropped after length `m - 1`.
        let sets: f64 = (m.saturating_sub(k).max(1)..m)
            .map(|l| arcs[l].len() as f64 * bytes_of_sets(l))
            .sum();
        let before: f64 = (0..m).map(|l| rf.powi(l as i32)).sum();
        let own = 2.0 * rf.powi(m as i32);
        let g = Geometry::new(
            m,
            r,
            &crate::pset::engine_windows(m, &crate::pset::cyclic_windows(m, k)),
            true,
        );
        let engine = sets_memory(&g, likely_words(m, r), threads);
        most = most.max(4.0 * before + sets + own + engine.max(own));
    }
    most
}

/// The Grundy value of every position of SCN(n,k) with piles `1..=r`, by circle length `0..=n`:
/// the value of the empty circle (0), then for each length `m` the `r^m` positions in lexicographic
/// order of their entries minus 1. Each length is a window game (CN(m,k), one window when `m <= k`)
/// whose moves that empty piles reach the value sets `G_arc` of the shorter circles.
pub fn solve_shrinking(
    n: usize,
    k: usize,
    r: usize,
    hooks: Hooks,
) -> Result<Vec<u16>, Interrupted> {
    solve_shrinking_resumable(n, k, r, hooks, Resume::default()).map_err(|_| Interrupted)
}

/// [`solve_shrinking`] with checkpoints (see [`crate::checkpoint`]): the section holds the circle
/// length in progress, the set width reached and the values of the finished lengths (their value
/// sets `G_arc` are recomputed from them on resume), then the engine's section.
pub fn solve_shrinking_resumable(
    n: usize,
    k: usize,
    r: usize,
    hooks: Hooks,
    resume: Resume,
) -> Result<Vec<u16>, Stop> {
    let mut start = Start::default();
    let Resume {
        mut saver,
        mut from,
    } = resume;
    if let Some(rd) = from.as_deref_mut() {
        (|| -> io::Result<()> {
            ck::expect(rd, TAG_SHRINKING, "section")?;
            start.first = ck::get_len(rd, n)?.max(1);
            start.min_words = ck::get_len(rd, 1024)?.max(1);
            let before: usize = (0..start.first).map(|l| r.pow(l as u32)).sum();
            start.values = ck::get_u16s(rd, before)?;
            if start.values.len() != before {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "values cut short",
                ));
            }
            Ok(())
        })()
        .map_err(damaged)?;
    }
    let total: u64 = (0..=n).map(|m| (r as u64).pow(m as u32)).sum();
    shrinking_on(n, k, r, hooks, start, &mut |len: Length| {
        let (m, mw, out_ref) = (len.m, len.min_words, len.before);
        let head = |w: &mut dyn Write| {
            ck::put_u64(w, TAG_SHRINKING)?;
            ck::put_u64(w, m as u64)?;
            ck::put_u64(w, mw as u64)?;
            ck::put_u16s(w, out_ref)
        };
        let mut layer = saver.as_deref_mut().map(|inner| Layer {
            inner,
            head: &head,
            base: out_ref.len() as u64,
            total: Some(total),
            stage: format!("length {m} of {n}: "),
        });
        solve_with(
            m,
            r,
            len.windows,
            Some(len.extra),
            len.min_words,
            len.hooks,
            Resume {
                saver: layer.as_mut().map(|l| l as &mut dyn Saver),
                from: from.take(),
            },
            Values::in_memory(r.pow(m as u32)),
        )
        .map(|(v, w)| (v.into_vec(), w))
    })
}

/// Where an SCN run starts: the first circle length to solve, the set width reached and the values of
/// the shorter lengths (length 0 first), as [`solve_shrinking`] lists them.
pub(crate) struct Start {
    pub(crate) first: usize,
    pub(crate) min_words: usize,
    pub(crate) values: Vec<u16>,
}

impl Default for Start {
    fn default() -> Start {
        Start {
            first: 1,
            min_words: 1,
            values: vec![0],
        }
    }
}

/// The values of the options of a position that leave the box (SCN's moves that empty piles): given
/// the position's engine coordinates (engine axis `j` is tuple index `m - 1 - j`), OR the set of
/// their Grundy values into the words (values beyond the words are left out: the mex is then below
/// them, or the words are all full and the caller widens them).
pub(crate) type OutOfBox<'e> = &'e (dyn Fn(&[u32], &mut [u64]) + Sync);

/// One circle length of SCN, handed to the solver of [`shrinking_on`].
pub(crate) struct Length<'a> {
    /// Stacks on the circle.
    pub(crate) m: usize,
    /// The windows of CN(m,k) (tuple indices).
    pub(crate) windows: &'a [Vec<usize>],
    /// The values of its moves that empty piles, from the shorter lengths.
    pub(crate) extra: OutOfBox<'a>,
    /// 64-bit words per value set that the shorter lengths needed (a good start).
    pub(crate) min_words: usize,
    /// The values of the shorter lengths, as [`solve_shrinking`] lists them.
    pub(crate) before: &'a [u16],
    /// The run's hooks, with progress counted over all lengths.
    pub(crate) hooks: Hooks<'a>,
}

/// Solves one circle length: its values in lexicographic order and the words its sets needed.
pub(crate) type LengthSolver<'s, E> = dyn FnMut(Length) -> Result<(Vec<u16>, usize), E> + 's;

/// [`solve_shrinking`], each circle length solved by `solve_len` from `start`: the CPU engine's path
/// (with checkpoints) and the GPU back end's.
pub(crate) fn shrinking_on<E: From<Interrupted>>(
    n: usize,
    k: usize,
    r: usize,
    hooks: Hooks,
    start: Start,
    solve_len: &mut LengthSolver<E>,
) -> Result<Vec<u16>, E> {
    let total: u64 = (0..=n).map(|m| (r as u64).pow(m as u32)).sum();
    let Start {
        first,
        mut min_words,
        values: mut out,
    } = start;
    let mut lower: Vec<Circle> = vec![Circle {
        m: 0,
        values: vec![0],
        words: 1,
        arcs: HashMap::new(),
    }];
    let mut at = 1;
    for mm in 1..first {
        let values = out[at..at + r.pow(mm as u32)].to_vec();
        at += values.len();
        let top = values.iter().copied().max().unwrap_or(0) as usize;
        lower.push(Circle {
            m: mm,
            values,
            words: top / 64 + 1,
            arcs: HashMap::new(),
        });
    }
    for m in first..=n {
        let moves = crate::pset::vanishings(m, k);
        // The value sets of the shorter circles these moves reach, built once per (length, arc).
        let mut need: Vec<(usize, u64)> = moves
            .iter()
            .filter(|v| v.arc != 0 && !lower[v.kept.len()].arcs.contains_key(&v.arc))
            .map(|v| (v.kept.len(), v.arc))
            .collect();
        need.sort_unstable();
        need.dedup();
        let built: Vec<(usize, u64, Vec<u64>)> = need
            .par_iter()
            .map(|&(mp, a)| (mp, a, lower[mp].arc_table(r, a)))
            .collect();
        for (mp, a, t) in built {
            lower[mp].arcs.insert(a, t);
        }
        if hooks.cancelled() {
            return Err(Interrupted.into());
        }
        // Group the moves by the piles they keep: one index per group.
        struct Reach<'t> {
            coef: Vec<(usize, usize)>,
            values: &'t [u16],
            sets: Vec<&'t [u64]>,
            words: usize,
        }
        let empties = moves.iter().any(|v| v.kept.is_empty());
        let mut reach: Vec<Reach> = Vec::new();
        for group in moves.chunk_by(|a, b| a.kept == b.kept) {
            let kept = &group[0].kept;
            let mp = kept.len();
            if mp == 0 {
                continue;
            }
            let c = &lower[mp];
            let sets = group
                .iter()
                .filter(|v| v.arc != 0)
                .map(|v| c.arcs[&v.arc].as_slice())
                .collect();
            let coef = kept
                .iter()
                .enumerate()
                .map(|(j, &i)| (m - 1 - i, r.pow((mp - 1 - j) as u32)))
                .collect();
            reach.push(Reach {
                coef,
                values: &c.values,
                sets,
                words: c.words,
            });
        }
        let extra = |x: &[u32], opts: &mut [u64]| {
            if empties {
                opts[0] |= 1;
            }
            for z in &reach {
                let idx: usize = z.coef.iter().map(|&(a, s)| x[a] as usize * s).sum();
                if z.sets.is_empty() {
                    let v = z.values[idx] as usize;
                    if v / 64 < opts.len() {
                        opts[v / 64] |= 1 << (v % 64);
                    }
                } else {
                    for t in &z.sets {
                        let set = &t[idx * z.words..][..z.words];
                        for (o, s) in opts.iter_mut().zip(set) {
                            *o |= s;
                        }
                    }
                }
            }
        };
        let base: u64 = (0..m).map(|l| (r as u64).pow(l as u32)).sum();
        let progress = hooks
            .progress
            .map(|f| move |d: u64, _t: u64| f(base + d, total));
        let sub = Hooks {
            cancel: hooks.cancel,
            progress: progress.as_ref().map(|f| f as &(dyn Fn(u64, u64) + Sync)),
        };
        let windows = crate::pset::cyclic_windows(m, k);
        let (values, words) = solve_len(Length {
            m,
            windows: &windows,
            extra: &extra,
            min_words,
            before: &out,
            hooks: sub,
        })?;
        drop(reach);
        min_words = words;
        out.extend_from_slice(&values);
        if m < n {
            lower.push(Circle {
                m,
                values,
                words,
                arcs: HashMap::new(),
            });
        }
        // Shorter circles than any later move reaches are no longer needed.
        if m < n && m + 1 > k {
            let gone = m + 1 - k;
            for c in lower.iter_mut().take(gone) {
                c.arcs.clear();
            }
        }
    }
    Ok(out)
}
