//! P-sets of whole boxes for CN, SCN, Nim and Moore's Nim through the line engine ([`crate::lines`]).
//!
//! Tuples map to engine axes in reverse (tuple index `c` is engine axis `m-1-c`), so the bit axis is
//! the last tuple entry, the outermost engine axis is the first tuple entry, and the engine's line
//! index is the lexicographic index of the tuple without its last entry.
//!
//! SCN: the circles of length `m` form the box `[1..=h]^m`; moves that keep every pile are a window
//! game (CN(m,k), or one window when `m <= k`). A move that empties the piles `Z` of a window `w` and
//! lowers the rest `w \ Z` lands in the circle of length `m - |Z|`; the options it offers are exactly
//! the positions below the contracted position on the arc `w \ Z` and equal to it elsewhere, so it is a
//! dominance query `D_arc` on the table of the smaller length, kept whole with one `D` table per arc.
//!
//! One job a file: this file maps games and boxes onto the engine ([`rules_for`], [`engine_bytes`])
//! and tabulates window games ([`tabulate`], [`every_p_position`]); `shrinking` is SCN's loop over
//! circle lengths, shared by the CPU engine, its ranks and the GPU back end; `shrink_oracle` answers
//! SCN's moves that empty piles from the shorter circles' tables (`D_arc`).

mod shrink_oracle;
mod shrinking;
mod sorted;

pub(crate) use shrink_oracle::vanishings;
pub(crate) use shrinking::{shrinking_on, Length};

use crate::checkpoint::{self as ck, Layer, Saver};
use crate::cluster::{Cluster, Solo};
use crate::lines::{self, Hooks, Interrupted, LineSpec, NoOracle, PLine, Resume, Stop};
use nimlab_core::{BoxDomain, Game, MoveStructure, Play};
use rayon::prelude::*;
use shrink_oracle::arcs_kept;
use std::cell::RefCell;
use std::io::{self, Write};

/// Counts of a P-set table (the same numbers as [`nimlab_core::table::Table`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Summary {
    pub count: u64,
    pub canonical_count: u64,
    /// (length, ordered count, canonical count) per length of the box.
    pub by_length: Vec<(usize, u64, u64)>,
}

/// The rule set, as far as the engine needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rules {
    /// One length `m`; a move lowers entries inside one of the windows (tuple indices).
    Windows { m: usize, windows: Vec<Vec<usize>> },
    /// SCN(n,k).
    Shrinking { n: usize, k: usize },
}

/// Largest `hi - lo + 1` the engine takes (see [`lines::MAX_RADIX`]).
pub const MAX_RADIX: u64 = lines::MAX_RADIX as u64;

pub use nimlab_core::game::cyclic_windows;

/// Most faces the engine takes (one pass over each face per line).
pub const MAX_FACES: usize = 200_000;

/// The engine's rules for `game` over `domain`, from the game's [`MoveStructure`], or `None` when the
/// engine does not cover them.
pub fn rules_for(game: &dyn Game, domain: &BoxDomain) -> Option<Rules> {
    if domain.radix() > MAX_RADIX || domain.radix() == 0 {
        return None;
    }
    let longest = *domain.lengths.last()?;
    match game.move_structure(longest)? {
        MoveStructure::Faces(faces) => (domain.lengths.len() == 1
            && domain.lo == 0
            && longest <= 32
            && faces.len() <= MAX_FACES)
            .then_some(Rules::Windows {
                m: longest,
                windows: faces,
            }),
        MoveStructure::ShrinkingWindows { len, k } => {
            let want: Vec<usize> = (0..=len).collect();
            (domain.lengths == want && domain.lo == 1 && len <= 16)
                .then_some(Rules::Shrinking { n: len, k })
        }
    }
}

/// Bytes the P-set engine keeps while it tabulates `rules` on a box of `r` values per entry with
/// `threads` threads: the stores of about one diagonal of blocks (see [`LineSpec::working_bytes`]), and
/// for SCN the P-lines and `D_arc` tables of the shorter circles. The P-positions found are streamed
/// out slab by slab and are not counted.
pub fn engine_bytes(rules: &Rules, r: usize, threads: usize) -> f64 {
    let spec = |m: usize, windows: Vec<Vec<usize>>| LineSpec {
        radix: None,
        m,
        r,
        windows: engine_windows(m, &windows),
        origin_n: false,
    };
    match rules {
        Rules::Windows { m, windows } => spec(*m, windows.clone()).working_bytes(threads),
        Rules::Shrinking { n, k } => {
            (1..=*n)
                .map(|m| {
                    let kept: f64 = (1..m)
                        .map(|mm| {
                            // The P-offsets and the table of each arc kept (two bytes a line:
                            // a prefix start, or a least entry).
                            let per_line = 2.0 + 2.0 * arcs_kept(mm, *n, *k).len() as f64;
                            (r as f64).powi(mm as i32 - 1) * per_line
                        })
                        .sum();
                    kept + spec(m, cyclic_windows(m, *k)).working_bytes(threads)
                })
                .fold(0.0, f64::max)
        }
    }
}

/// Windows in engine axes: tuple index `c` is engine axis `m-1-c`, so the engine's line index is the
/// lexicographic index of the tuple (see the module notes).
pub fn engine_windows(m: usize, windows: &[Vec<usize>]) -> Vec<Vec<usize>> {
    windows
        .iter()
        .map(|w| w.iter().map(|&c| m - 1 - c).collect())
        .collect()
}

/// The tuple of a P-line: `line` is the lexicographic index of the first m-1 entries.
fn tuple_of(m: usize, r: u64, lo: u64, line: u64, bit: u32) -> Vec<u64> {
    let mut p = vec![0u64; m];
    let mut v = line;
    for i in (0..m.saturating_sub(1)).rev() {
        p[i] = lo + v % r;
        v /= r;
    }
    if m > 0 {
        p[m - 1] = lo + bit as u64;
    }
    p
}

/// Counts one slab's P-lines and sends its canonical positions, in lexicographic order, to `sink`.
fn take_slab(
    game: &dyn Game,
    m: usize,
    domain: &BoxDomain,
    lines: &[PLine],
    counts: &mut (u64, u64),
    sink: &mut dyn FnMut(&[u64]),
) {
    let r = domain.radix();
    let mut canon: Vec<Vec<u64>> = lines
        .par_iter()
        .filter_map(|&(line, bit)| {
            let p = tuple_of(m, r, domain.lo, line, bit);
            (game.canonical(&p) == p).then_some(p)
        })
        .collect();
    canon.sort_unstable();
    counts.0 += lines.len() as u64;
    counts.1 += canon.len() as u64;
    for p in &canon {
        sink(p);
    }
}

/// The summary and canonical P-positions of a window game from all its P-lines (sorted by line index),
/// exactly as [`tabulate`] gives them: for back ends that return every P-line at once.
pub fn summarise(
    game: &dyn Game,
    domain: &BoxDomain,
    m: usize,
    lines: &[PLine],
    sink: &mut dyn FnMut(&[u64]),
) -> Summary {
    let r = domain.radix();
    // Lines of one value of the first tuple entry (the engine's slabs).
    let per_slab = r.pow(m.saturating_sub(2) as u32);
    let mut counts = (0u64, 0u64);
    for slab in lines.chunk_by(|a, b| a.0 / per_slab == b.0 / per_slab) {
        take_slab(game, m, domain, slab, &mut counts, sink);
    }
    Summary {
        count: counts.0,
        canonical_count: counts.1,
        by_length: vec![(m, counts.0, counts.1)],
    }
}

/// Tabulates the P-set of `game` over `domain` (which [`rules_for`] must accept), sending the
/// canonical P-positions to `sink` shortest first, then in lexicographic order.
pub fn tabulate(
    game: &dyn Game,
    domain: &BoxDomain,
    play: Play,
    hooks: Hooks,
    sink: &mut dyn FnMut(&[u64]),
) -> Result<Summary, Interrupted> {
    tabulate_resumable(game, domain, play, hooks, sink, Resume::default()).map_err(|_| Interrupted)
}

/// Every P-position (not only the canonical ones) of a window game on the box `[0..=max]^m` in
/// `play`, each sent to `visit` as soon as its line is solved (in no particular order): what learning
/// an automaton from a table needs. `None` when the engine does not cover the game on that box
/// (SCN's shrinking circles, chip games, a box past the engine's radix).
pub fn every_p_position(
    game: &dyn Game,
    max: u64,
    play: Play,
    hooks: Hooks,
    visit: &mut dyn FnMut(&[u64]),
) -> Option<Result<(), Interrupted>> {
    let domain = game.table_domain(max, None).ok()?;
    let Some(Rules::Windows { m, .. }) = rules_for(game, &domain) else {
        return None;
    };
    every_p_position_below(game, &vec![max; m], play, hooks, visit)
}

/// Every P-position of a window game in the box with one bound per stack, `0 <= p[c] <= tops[c]`
/// (a down-set: no move leaves it), sent to `visit` line by line as [`every_p_position`] does.
/// `None` when the engine does not cover the game with `tops.len()` stacks on the cube around the
/// box (see [`rules_for`]).
pub fn every_p_position_below(
    game: &dyn Game,
    tops: &[u64],
    play: Play,
    hooks: Hooks,
    visit: &mut dyn FnMut(&[u64]),
) -> Option<Result<(), Interrupted>> {
    let (spec, radix) = spec_below(game, tops, play)?;
    let m = tops.len();
    let mut p = vec![0u64; m];
    Some(lines::solve(&spec, &NoOracle, hooks, &mut |_, ls| {
        for (line, bit) in ls {
            let mut v = line;
            for (j, r) in radix.iter().enumerate().skip(1) {
                p[m - 1 - j] = v % *r as u64;
                v /= *r as u64;
            }
            p[m - 1] = u64::from(bit);
            visit(&p);
        }
    }))
}

/// Bytes the engine keeps for [`every_p_position_below`] on `threads` threads (see
/// [`LineSpec::working_bytes`]); `None` where the engine does not cover the game and box.
pub fn bytes_below(game: &dyn Game, tops: &[u64], threads: usize) -> Option<f64> {
    spec_below(game, tops, Play::Normal).map(|(spec, _)| spec.working_bytes(threads))
}

/// The engine's spec of the box below `tops`, and its values per engine axis.
fn spec_below(game: &dyn Game, tops: &[u64], play: Play) -> Option<(LineSpec, Vec<usize>)> {
    let m = tops.len();
    let hi = *tops.iter().max()?;
    let domain = [None, Some(m)]
        .into_iter()
        .filter_map(|heaps| game.table_domain(hi, heaps).ok())
        .find(|d| d.lengths == [m])?;
    let Some(Rules::Windows { m: mm, windows }) = rules_for(game, &domain) else {
        return None;
    };
    if mm != m {
        return None;
    }
    // Engine axis `i` is tuple index `m - 1 - i`.
    let radix: Vec<usize> = (0..m)
        .map(|i| {
            tops[m - 1 - i]
                .checked_add(1)
                .and_then(|v| usize::try_from(v).ok())
        })
        .collect::<Option<_>>()?;
    let spec = LineSpec::boxed(
        radix.clone(),
        engine_windows(m, &windows),
        play == Play::Misere,
    );
    Some((spec, radix))
}

const TAG_WINDOWS: u64 = 0x5053_4554_0001;
const TAG_SHRINKING: u64 = 0x5053_4554_0002;

/// [`tabulate`] with checkpoints (see [`crate::checkpoint`]): this layer's section holds the counts
/// so far and, for SCN, the circle length in progress, the counts of the finished lengths and their
/// P-lines (the per-arc tables `D_arc` are recomputed from them on resume), then, when the
/// checkpoint was taken inside a length, that length's counts and P-lines so far and the engine's
/// section (a checkpoint between two lengths has none). What was sent to `sink` before the
/// checkpoint is the caller's to keep.
pub fn tabulate_resumable(
    game: &dyn Game,
    domain: &BoxDomain,
    play: Play,
    hooks: Hooks,
    sink: &mut dyn FnMut(&[u64]),
    resume: Resume,
) -> Result<Summary, Stop> {
    tabulate_on(&Solo, game, domain, play, hooks, sink, resume)
}

/// [`tabulate_resumable`] on the ranks of `cluster` (see [`lines::solve_on`]): every rank calls it
/// with the same arguments; only rank 0 reads `resume`, calls `sink` and returns the summary (the
/// other ranks return an empty one). For SCN, rank 0 hands every rank the P-lines of each finished
/// circle length, which the next lengths read.
pub fn tabulate_on(
    cluster: &dyn Cluster,
    game: &dyn Game,
    domain: &BoxDomain,
    play: Play,
    hooks: Hooks,
    sink: &mut dyn FnMut(&[u64]),
    resume: Resume,
) -> Result<Summary, Stop> {
    match rules_for(game, domain).expect("the engine covers this game and box") {
        Rules::Windows { m, windows } => windows_on(
            cluster, game, domain, play, m, &windows, hooks, sink, resume,
        ),
        Rules::Shrinking { n, k } => shrinking_on(
            cluster,
            game,
            domain,
            play,
            (n, k),
            hooks,
            sink,
            resume,
            &mut |len: Length| {
                let Length {
                    spec,
                    oracle,
                    hooks,
                    resume,
                    emit,
                } = len;
                lines::solve_on(cluster, spec, oracle, hooks, &mut |_, l| emit(l), resume)
            },
        ),
    }
}

fn damaged(e: io::Error) -> Stop {
    Stop::Damaged(format!("the checkpoint does not fit this table ({e})"))
}

/// True when the P-set of `game` on `domain` (a window game of `m` stacks) is computed on the sorted
/// tuples alone, on one process: games every permutation of the stacks keeps (Nim, Moore's Nim),
/// three stacks or more, boxes where the sorted tuples cost less than the lines, the symmetry on ([`crate::lines::use_symmetry`]; not only the mirror,
/// `NIMLAB_ENGINE_SYMMETRY=mirror`). For the plan, tests and benchmarks.
pub fn is_sorted(game: &dyn Game, domain: &BoxDomain) -> bool {
    match rules_for(game, domain) {
        Some(Rules::Windows { m, windows }) => sorted::applies(game, domain, m, &windows, 1),
        _ => false,
    }
}

/// Takes the sorted sweep for every P-set it covers (`true`), or only where it costs less than the
/// line engine (`false`, the default): for tests that compare the two on small boxes.
#[doc(hidden)]
pub fn always_sorted(on: bool) {
    sorted::always(on)
}

/// Bytes the sorted P-set sweep keeps on `[0..r)^m` with `nw` windows ([`is_sorted`]).
pub fn sorted_bytes(m: usize, r: usize, nw: usize) -> f64 {
    sorted::memory(m, r, nw)
}

/// The P-set of a window game of one length `m` (see [`tabulate_on`]).
#[allow(clippy::too_many_arguments)]
fn windows_on(
    cluster: &dyn Cluster,
    game: &dyn Game,
    domain: &BoxDomain,
    play: Play,
    m: usize,
    windows: &[Vec<usize>],
    hooks: Hooks,
    sink: &mut dyn FnMut(&[u64]),
    resume: Resume,
) -> Result<Summary, Stop> {
    if sorted::applies(game, domain, m, windows, cluster.size()) {
        return sorted::run(game, domain, play, m, windows, hooks, sink, resume);
    }
    let r = domain.radix() as usize;
    let Resume { saver, mut from } = resume;
    let spec = LineSpec {
        radix: None,
        m,
        r,
        windows: engine_windows(m, windows),
        origin_n: play == Play::Misere,
    };
    let counts = RefCell::new((0u64, 0u64));
    if let Some(rd) = from.as_deref_mut() {
        let c = (|| {
            ck::expect(rd, TAG_WINDOWS, "section")?;
            Ok((ck::get_u64(rd)?, ck::get_u64(rd)?))
        })()
        .map_err(damaged)?;
        *counts.borrow_mut() = c;
    }
    let head = |w: &mut dyn Write| {
        let c = counts.borrow();
        ck::put_u64(w, TAG_WINDOWS)?;
        ck::put_u64(w, c.0)?;
        ck::put_u64(w, c.1)
    };
    let total = (r as u64).pow(m as u32);
    let mut layer = saver.map(|inner| Layer {
        inner,
        head: &head,
        base: 0,
        total: Some(total),
        stage: String::new(),
    });
    lines::solve_on(
        cluster,
        &spec,
        &NoOracle,
        hooks,
        &mut |_, lines| take_slab(game, m, domain, &lines, &mut counts.borrow_mut(), sink),
        Resume {
            saver: layer.as_mut().map(|l| l as &mut dyn Saver),
            from,
        },
    )?;
    let (c0, c1) = counts.into_inner();
    Ok(Summary {
        count: c0,
        canonical_count: c1,
        by_length: vec![(m, c0, c1)],
    })
}
