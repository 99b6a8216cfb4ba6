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

use crate::checkpoint::{self as ck, Layer, Saver};
use crate::cluster::{self as cl, Cluster, Solo, Topic};
use crate::lines::{self, Hooks, Interrupted, LineOracle, LineSpec, NoOracle, PLine, Resume, Stop};
use nimlab_core::{BoxDomain, Game, MoveStructure, Play};
use rayon::prelude::*;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::io::{self, Read, Write};

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
        m,
        r,
        windows: engine_windows(m, &windows),
        origin_n: false,
    };
    match rules {
        Rules::Windows { m, windows } => spec(*m, windows.clone()).working_bytes(threads),
        Rules::Shrinking { n, k } => {
            let words = (r.div_ceil(64) * 8) as f64;
            (1..=*n)
                .map(|m| {
                    let kept: f64 = (1..m)
                        .map(|mm| {
                            // The P-offsets and the table of each arc read (a prefix start per
                            // line when the arc holds the last pile, else a bit set).
                            let per_line: f64 = 2.0
                                + arcs_read(mm, *n, *k)
                                    .iter()
                                    .map(|a| if a >> (mm - 1) & 1 == 1 { 2.0 } else { words })
                                    .sum::<f64>();
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
    let Some(Rules::Windows { m, windows }) = rules_for(game, &domain) else {
        return None;
    };
    let r = max.checked_add(1)?;
    let spec = LineSpec {
        m,
        r: usize::try_from(r).ok()?,
        windows: engine_windows(m, &windows),
        origin_n: play == Play::Misere,
    };
    Some(lines::solve(&spec, &NoOracle, hooks, &mut |_, ls| {
        for (line, bit) in ls {
            visit(&tuple_of(m, r, 0, line, bit));
        }
    }))
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
    let r = domain.radix() as usize;
    let Resume { saver, mut from } = resume;
    let spec = LineSpec {
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

/// One circle length of SCN, handed to the solver of [`shrinking_on`].
pub(crate) struct Length<'a, 'r> {
    /// The window game of this length (CN(m,k), or one window when `m <= k`), in engine axes.
    pub(crate) spec: &'a LineSpec,
    /// Its moves that empty piles, answered from the shorter lengths' tables.
    pub(crate) oracle: &'a ShrinkOracle<'a>,
    /// The run's hooks, with progress counted over all lengths.
    pub(crate) hooks: Hooks<'a>,
    /// Checkpoints inside this length: the saver (with this layer's section in front), and the
    /// engine's section when the run resumes inside this length.
    pub(crate) resume: Resume<'a, 'r>,
    /// Receives the P-lines in slabs of one value of the first tuple entry, in order, each sorted by
    /// line index (as [`lines::solve_on`] emits them).
    pub(crate) emit: &'a mut dyn FnMut(Vec<PLine>),
}

/// Solves one circle length of SCN (see [`Length`]).
pub(crate) type LengthSolver<'s, E> = dyn FnMut(Length) -> Result<(), E> + 's;

/// Where an SCN run starts: read from this layer's section of a checkpoint, or the beginning.
struct Start {
    /// The first circle length to solve (at least 1).
    first: usize,
    /// (length, ordered count, canonical count) of the lengths before `first`.
    by_length: Vec<(usize, u64, u64)>,
    /// The P-lines of the lengths `1..first` (the P-position's offset on each line, or [`NONE`]).
    lower: Vec<Vec<u16>>,
    /// When the checkpoint stopped inside length `first`: its counts and P-lines so far (the
    /// engine's section follows).
    inside: Option<((u64, u64), Vec<u16>)>,
}

/// Reads this layer's section (see [`tabulate_resumable`]).
fn read_start(rd: &mut dyn Read, n: usize, r: usize) -> io::Result<Start> {
    ck::expect(rd, TAG_SHRINKING, "section")?;
    let first = ck::get_len(rd, n)?.max(1);
    let nb = ck::get_len(rd, n + 1)?;
    let mut by_length = Vec::with_capacity(nb);
    for _ in 0..nb {
        let l = ck::get_len(rd, n)?;
        by_length.push((l, ck::get_u64(rd)?, ck::get_u64(rd)?));
    }
    let mut lower = Vec::with_capacity(first);
    for mm in 1..first {
        lower.push(ck::get_u16s(rd, r.pow(mm as u32 - 1))?);
    }
    let inside = match ck::get_u64(rd)? {
        0 => None,
        1 => {
            let c = (ck::get_u64(rd)?, ck::get_u64(rd)?);
            Some((c, ck::get_u16s(rd, r.pow(first as u32 - 1))?))
        }
        x => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("flag {x}"),
            ))
        }
    };
    Ok(Start {
        first,
        by_length,
        lower,
        inside,
    })
}

/// Writes this layer's section: the length `m` in progress, the finished lengths' counts and P-lines
/// (`lower[1..m]`), and, when the state is inside length `m`, its counts and P-lines so far (then
/// the engine's section follows).
fn write_start(
    w: &mut dyn Write,
    m: usize,
    by_length: &[(usize, u64, u64)],
    lower: &[LenTable],
    inside: Option<&((u64, u64), Vec<u16>)>,
) -> io::Result<()> {
    ck::put_u64(w, TAG_SHRINKING)?;
    ck::put_u64(w, m as u64)?;
    ck::put_u64(w, by_length.len() as u64)?;
    for &(l, a, b) in by_length {
        for x in [l as u64, a, b] {
            ck::put_u64(w, x)?;
        }
    }
    for t in &lower[1..m] {
        ck::put_u16s(w, &t.p)?;
    }
    match inside {
        None => ck::put_u64(w, 0),
        Some(((c0, c1), p)) => {
            ck::put_u64(w, 1)?;
            ck::put_u64(w, *c0)?;
            ck::put_u64(w, *c1)?;
            ck::put_u16s(w, p)
        }
    }
}

/// The SCN(n,k) P-set, circle length by circle length, each length solved by `solve_len`: the one
/// loop of the CPU engine ([`tabulate_on`], on any number of ranks) and of the GPU back end.
///
/// Checkpoints: `solve_len` may write them inside a length (the CPU engine does, after its
/// diagonals), with this layer's section in front; this loop writes one between two lengths when the
/// saver says one is due, and one at the start of a length that was cancelled before anything of it
/// was listed or saved (the GPU back end's case). A run resumes from either: between lengths it
/// starts the next length afresh, inside one it hands `solve_len` the engine's section.
#[allow(clippy::too_many_arguments)]
pub(crate) fn shrinking_on<E: From<Stop>>(
    cluster: &dyn Cluster,
    game: &dyn Game,
    domain: &BoxDomain,
    play: Play,
    (n, k): (usize, usize),
    hooks: Hooks,
    sink: &mut dyn FnMut(&[u64]),
    resume: Resume,
    solve_len: &mut LengthSolver<E>,
) -> Result<Summary, E> {
    let r = domain.radix() as usize;
    let Resume {
        mut saver,
        mut from,
    } = resume;
    if !cluster.is_root() {
        (saver, from) = (None, None);
    }
    // Length 0: the empty circle, terminal: P in normal play, N in misère play.
    let empty_p = play == Play::Normal;
    let total: u64 = (1..=n).map(|m| (r as u64).pow(m as u32)).sum();
    let mut lower: Vec<LenTable> = vec![LenTable::empty()];
    let mut summary = Summary::default();
    let mut first = 1;
    // The counts and P-lines of the length in progress, when resuming inside it.
    let mut inside = None;
    match from.as_deref_mut() {
        Some(rd) => {
            let s = read_start(rd, n, r).map_err(damaged)?;
            first = s.first;
            summary.by_length = s.by_length;
            for (i, p) in s.lower.into_iter().enumerate() {
                lower.push(LenTable::new(i + 1, r, p, &arcs_read(i + 1, n, k)));
            }
            inside = s.inside;
            if inside.is_none() {
                // Nothing of this length was saved: its sweep starts afresh.
                from = None;
            }
        }
        None if cluster.is_root() => {
            if empty_p {
                sink(&[]);
            }
            summary.by_length.push((0, empty_p as u64, empty_p as u64));
        }
        None => {}
    }
    if cluster.size() > 1 {
        // The length to start from, and the P-lines of the shorter circles, on every rank.
        let mut msg = (first as u64).to_le_bytes().to_vec();
        for t in &lower[1..] {
            msg.extend_from_slice(cl::halves_as_bytes(&t.p));
        }
        let msg = cluster.broadcast(Topic::Control, msg);
        first = u64::from_le_bytes(msg[..8].try_into().expect("8 bytes")) as usize;
        let mut at = 8;
        lower.truncate(1);
        for mm in 1..first {
            let mut p = vec![NONE; r.pow(mm as u32 - 1)];
            let end = at + p.len() * 2;
            if end > msg.len() || !cl::bytes_into_halves(&msg[at..end], &mut p) {
                return Err(Stop::Damaged("rank 0 sent tables of another size".into()).into());
            }
            at = end;
            lower.push(LenTable::new(mm, r, p, &arcs_read(mm, n, k)));
        }
    }
    for m in first..=n {
        let keep = m < n;
        let resumed_inside = inside.is_some();
        // The counts and P-lines of this length so far.
        let state = RefCell::new(inside.take().unwrap_or_else(|| {
            let p = if keep {
                vec![NONE; r.pow(m as u32 - 1)]
            } else {
                Vec::new()
            };
            ((0, 0), p)
        }));
        let before: u64 = (1..m).map(|l| (r as u64).pow(l as u32)).sum::<u64>() + 1;
        let stage = format!("length {m} of {n}: ");
        let oracle = ShrinkOracle::new(m, k, r, &lower, empty_p);
        let spec = LineSpec {
            m,
            r,
            windows: engine_windows(m, &cyclic_windows(m, k)),
            origin_n: false,
        };
        let progress = hooks
            .progress
            .map(|f| move |d: u64, _t: u64| f(before + d, total + 1));
        let sub = Hooks {
            cancel: hooks.cancel,
            progress: progress.as_ref().map(|f| f as &(dyn Fn(u64, u64) + Sync)),
        };
        // Set when a checkpoint was written inside this length, or a slab of it was listed.
        let (saved_inside, listed) = (Cell::new(false), Cell::new(false));
        let (by_length, lower_ref) = (&summary.by_length, &lower);
        let head = |w: &mut dyn Write| {
            saved_inside.set(true);
            write_start(w, m, by_length, lower_ref, Some(&state.borrow()))
        };
        let mut layer = saver.as_deref_mut().map(|inner| Layer {
            inner,
            head: &head,
            base: before,
            total: Some(total + 1),
            stage: stage.clone(),
        });
        let mut emit = |lines: Vec<PLine>| {
            listed.set(true);
            let mut st = state.borrow_mut();
            if keep {
                for &(line, bit) in &lines {
                    st.1[line as usize] = bit as u16;
                }
            }
            take_slab(game, m, domain, &lines, &mut st.0, sink)
        };
        let solved = solve_len(Length {
            spec: &spec,
            oracle: &oracle,
            hooks: sub,
            resume: Resume {
                saver: layer.as_mut().map(|l| l as &mut dyn Saver),
                from: from.take(),
            },
            emit: &mut emit,
        });
        drop(layer);
        if let Err(e) = solved {
            // Cancelled before anything of this length was listed or saved: a checkpoint at its
            // start keeps the finished lengths (the engine's own checkpoint, when it wrote one, is
            // newer and stays).
            let fresh = !(resumed_inside || saved_inside.get() || listed.get());
            if let (true, true, Some(s)) = (fresh, hooks.cancelled(), saver.as_deref_mut()) {
                let body = &mut |w: &mut dyn Write| write_start(w, m, by_length, lower_ref, None);
                let done = before - 1;
                let stage = format!("{stage}not started");
                s.save(
                    ck::Progress {
                        done,
                        total: total + 1,
                        stage,
                    },
                    body,
                );
            }
            return Err(e);
        }
        drop(oracle);
        let ((c0, c1), mut p_lines) = state.into_inner();
        summary.by_length.push((m, c0, c1));
        if keep {
            if cluster.size() > 1 {
                // Rank 0 collected this length's P-lines; the next lengths read them.
                let all = cluster.broadcast(Topic::Control, cl::halves_as_bytes(&p_lines).to_vec());
                p_lines = vec![NONE; r.pow(m as u32 - 1)];
                if !cl::bytes_into_halves(&all, &mut p_lines) {
                    return Err(Stop::Damaged("rank 0 sent tables of another size".into()).into());
                }
            }
            lower.push(LenTable::new(m, r, p_lines, &arcs_read(m, n, k)));
            // Between two lengths: a checkpoint at the start of the next one, when due.
            if let Some(s) = saver.as_deref_mut() {
                if s.due() {
                    let next = m + 1;
                    let body = &mut |w: &mut dyn Write| {
                        write_start(w, next, &summary.by_length, &lower, None)
                    };
                    let done = before - 1 + (r as u64).pow(m as u32);
                    let stage = format!("length {next} of {n}: not started");
                    s.save(
                        ck::Progress {
                            done,
                            total: total + 1,
                            stage,
                        },
                        body,
                    );
                }
            }
        }
    }
    summary.count = summary.by_length.iter().map(|x| x.1).sum();
    summary.canonical_count = summary.by_length.iter().map(|x| x.2).sum();
    Ok(summary)
}

/// No P-position on a line (an offset or a prefix start).
const NONE: u16 = u16::MAX;

/// The arcs (bit masks of tuple indices) of the circle of `mm` piles that the moves of the longer
/// circles of SCN(n,k) read: those of [`vanishings`] that keep `mm` piles.
fn arcs_read(mm: usize, n: usize, k: usize) -> Vec<u64> {
    let mut arcs: Vec<u64> = (mm + 1..=n)
        .flat_map(|m| vanishings(m, k))
        .filter(|v| v.kept.len() == mm && v.arc != 0)
        .map(|v| v.arc)
        .collect();
    arcs.sort_unstable();
    arcs.dedup();
    arcs
}

/// `D_arc` of one arc over every line of a circle length: "some P-position below agrees outside the
/// arc". When the arc holds the last pile (the line's axis) it is a prefix of the line, stored as its
/// start; otherwise a bit set of `ceil(r / 64)` words per line.
enum ArcTable {
    Starts(Vec<u16>),
    Words(Vec<u64>),
}

/// The P-lines of one circle length of SCN, and `D_arc` for the arcs that longer circles read.
struct LenTable {
    m: usize,
    /// The P-position's offset on each line (last entry lo + offset), or [`NONE`], by lexicographic
    /// index of the other entries.
    p: Vec<u16>,
    /// D tables by arc (bit mask of tuple indices).
    arcs: HashMap<u64, ArcTable>,
}

impl LenTable {
    fn empty() -> LenTable {
        LenTable {
            m: 0,
            p: Vec::new(),
            arcs: HashMap::new(),
        }
    }

    fn new(m: usize, r: usize, p: Vec<u16>, arcs: &[u64]) -> LenTable {
        let l = r.div_ceil(64);
        let strides: Vec<usize> = (0..m.saturating_sub(1))
            .map(|i| r.pow((m - 2 - i) as u32))
            .collect();
        let arcs = arcs
            .par_iter()
            .map(|&mask| {
                let mut c = vec![0usize; m.saturating_sub(1)];
                let lowered: Vec<usize> = (0..c.len()).filter(|&i| mask >> i & 1 == 1).collect();
                let table = if mask >> (m - 1) & 1 == 1 {
                    // Every value above the lowest one reached lowers to it: a prefix.
                    let mut d = vec![NONE; p.len()];
                    for idx in 0..p.len() {
                        let mut s = p[idx];
                        for &i in &lowered {
                            if c[i] > 0 {
                                s = s.min(d[idx - strides[i]]);
                            }
                        }
                        d[idx] = s;
                        odometer(&mut c, r);
                    }
                    ArcTable::Starts(d)
                } else {
                    let mut d = vec![0u64; p.len() * l];
                    for idx in 0..p.len() {
                        let at = idx * l;
                        if p[idx] != NONE {
                            d[at + p[idx] as usize / 64] |= 1 << (p[idx] % 64);
                        }
                        for &i in &lowered {
                            if c[i] > 0 {
                                let from = (idx - strides[i]) * l;
                                for t in 0..l {
                                    d[at + t] |= d[from + t];
                                }
                            }
                        }
                        odometer(&mut c, r);
                    }
                    ArcTable::Words(d)
                };
                (mask, table)
            })
            .collect();
        LenTable { m, p, arcs }
    }
}

/// The next tuple of `[0..r)^len` in lexicographic order (the last entry fastest).
fn odometer(c: &mut [usize], r: usize) {
    for i in (0..c.len()).rev() {
        c[i] += 1;
        if c[i] < r {
            break;
        }
        c[i] = 0;
    }
}

/// A move that empties the piles `Z` of a window and lowers the rest of it, for one circle length.
pub(crate) struct Vanish {
    /// Tuple indices of the piles kept, in order (they form the smaller circle).
    pub kept: Vec<usize>,
    /// The lowered piles, as a mask of indices into `kept`.
    pub arc: u64,
}

/// The moves of SCN(m,k) that empty piles, sorted by the piles kept. The options of one kept set and
/// arc are the positions below the contracted position on the arc, so they grow with the arc (the
/// empty arc: the contracted position itself): only the largest arcs of each kept set are listed.
pub(crate) fn vanishings(m: usize, k: usize) -> Vec<Vanish> {
    let mut out = Vec::new();
    for w in cyclic_windows(m, k) {
        let wmask = w.iter().fold(0u64, |a, &i| a | 1 << i);
        // Every non-empty subset Z of the window.
        let mut z = wmask;
        while z != 0 {
            let kept: Vec<usize> = (0..m).filter(|&i| z >> i & 1 == 0).collect();
            let arc = kept
                .iter()
                .enumerate()
                .filter(|&(_, &i)| wmask >> i & 1 == 1)
                .fold(0u64, |a, (j, _)| a | 1 << j);
            out.push(Vanish { kept, arc });
            z = (z - 1) & wmask;
        }
    }
    out.sort_by(|a, b| (&a.kept, a.arc).cmp(&(&b.kept, b.arc)));
    out.dedup_by(|a, b| a.kept == b.kept && a.arc == b.arc);
    let covered = |v: &Vanish| {
        out.iter()
            .any(|u| u.kept == v.kept && u.arc != v.arc && u.arc & v.arc == v.arc)
    };
    let keep: Vec<bool> = out.iter().map(|v| !covered(v)).collect();
    let mut keep = keep.into_iter();
    out.retain(|_| keep.next().unwrap());
    out
}

/// What a move that empties piles reads of a shorter circle, per line of that circle.
#[derive(Clone, Copy)]
enum Reach<'t> {
    /// The contracted position itself (no pile of the window kept below its value): the P-offsets.
    Point(&'t [u16]),
    /// `D_arc` with the line's axis in the arc: prefix starts.
    From(&'t [u16]),
    /// `D_arc` without it: bit sets.
    Bits(&'t [u64]),
}

/// One way of emptying piles: zero `Z`, lower the rest of the window.
struct Zeroing<'t> {
    /// The table queried (length m - |Z| > 0), for the arc.
    reach: Reach<'t>,
    /// (tuple index of the m-circle, stride in the smaller table) of the kept entries but the last.
    coef: Vec<(usize, usize)>,
    /// When the last pile of the circle is emptied: the tuple index whose value picks the bit.
    bit_from: Option<usize>,
}

pub(crate) struct ShrinkOracle<'t> {
    m: usize,
    /// Words per line.
    l: usize,
    /// Some move empties the circle and the empty circle is P: every position is N.
    all_n: bool,
    zeroings: Vec<Zeroing<'t>>,
}

impl<'t> ShrinkOracle<'t> {
    fn new(m: usize, k: usize, r: usize, lower: &'t [LenTable], empty_p: bool) -> ShrinkOracle<'t> {
        let mut zeroings = Vec::new();
        let mut all_n = false;
        for v in vanishings(m, k) {
            let mp = v.kept.len();
            if mp == 0 {
                all_n |= empty_p;
                continue;
            }
            let t = &lower[mp];
            debug_assert_eq!(t.m, mp);
            let coef = v.kept[..mp - 1]
                .iter()
                .enumerate()
                .map(|(j, &i)| (i, r.pow((mp - 2 - j) as u32)))
                .collect();
            let last_zeroed = !v.kept.contains(&(m - 1));
            let reach = match t.arcs.get(&v.arc) {
                _ if v.arc == 0 => Reach::Point(&t.p),
                Some(ArcTable::Starts(s)) => Reach::From(s),
                Some(ArcTable::Words(w)) => Reach::Bits(w),
                None => unreachable!("arcs_read lists every arc a longer circle reads"),
            };
            zeroings.push(Zeroing {
                reach,
                coef,
                bit_from: last_zeroed.then(|| v.kept[mp - 1]),
            });
        }
        ShrinkOracle {
            m,
            l: r.div_ceil(64),
            all_n,
            zeroings,
        }
    }
}

impl ShrinkOracle<'_> {
    /// This oracle as one array of 32-bit words for the GPU's P-set kernel (`scn_mask` in
    /// `gpu/pset.wgsl`), so the masks of moves that empty piles are computed on the device; `None`
    /// for lines of more than one word. Layout: `[zeroings, all_n, offset of each zeroing's
    /// descriptor...]`, then per zeroing `[kind (0 P-offsets, 1 prefix starts, 2 bit sets), offset of
    /// its table, the tuple index of `bit_from` or `u32::MAX`, number of coefficients, (tuple index,
    /// stride)...]`, then the tables, each once: two-byte entries two to a word (low half first), bit
    /// sets as two words (low half first).
    #[cfg(feature = "gpu")]
    pub(crate) fn packed(&self) -> Option<Vec<u32>> {
        if self.l != 1 {
            return None;
        }
        let z = self.zeroings.len();
        let mut head = vec![z as u32, self.all_n as u32];
        head.resize(2 + z, 0);
        let mut descs: Vec<Vec<u32>> = Vec::with_capacity(z);
        let mut tables: Vec<u32> = Vec::new();
        // Tables already packed, by address: several zeroings read the same one.
        let mut placed: HashMap<usize, u32> = HashMap::new();
        let mut place = |addr: usize, words: &mut dyn FnMut(&mut Vec<u32>)| -> u32 {
            *placed.entry(addr).or_insert_with(|| {
                let at = tables.len() as u32;
                words(&mut tables);
                at
            })
        };
        for zr in &self.zeroings {
            let (kind, at) = match zr.reach {
                Reach::Point(t) | Reach::From(t) => {
                    let kind = matches!(zr.reach, Reach::From(_)) as u32;
                    let at = place(t.as_ptr() as usize, &mut |out| {
                        out.extend(
                            t.chunks(2)
                                .map(|c| c[0] as u32 | (*c.get(1).unwrap_or(&NONE) as u32) << 16),
                        )
                    });
                    (kind, at)
                }
                Reach::Bits(w) => {
                    let at = place(w.as_ptr() as usize, &mut |out| {
                        out.extend(w.iter().flat_map(|&x| [x as u32, (x >> 32) as u32]))
                    });
                    (2, at)
                }
            };
            let mut d = vec![
                kind,
                at,
                zr.bit_from.map_or(u32::MAX, |i| i as u32),
                zr.coef.len() as u32,
            ];
            for &(i, stride) in &zr.coef {
                d.extend([i as u32, u32::try_from(stride).ok()?]);
            }
            descs.push(d);
        }
        let mut at = head.len();
        for (i, d) in descs.iter().enumerate() {
            head[2 + i] = at as u32;
            at += d.len();
        }
        // Table offsets become offsets in the whole array.
        for d in &mut descs {
            d[1] = d[1].checked_add(at as u32)?;
        }
        u32::try_from(at + tables.len()).ok()?;
        head.extend(descs.into_iter().flatten());
        head.extend(tables);
        Some(head)
    }
}

impl LineOracle for ShrinkOracle<'_> {
    fn n_mask(&self, x: &[u32], out: &mut [u64]) {
        if self.all_n {
            out.fill(!0);
            return;
        }
        let (m, l) = (self.m, self.l);
        // Tuple index i has offset x[m-1-i].
        for z in &self.zeroings {
            let mut idx = 0usize;
            for &(i, s) in &z.coef {
                idx += x[m - 1 - i] as usize * s;
            }
            match z.bit_from {
                // The last pile is emptied: the smaller circle's line is picked by pile i, and the
                // whole line of this circle reaches a P-position or none of it does.
                Some(i) => {
                    let j = x[m - 1 - i] as usize;
                    let hit = match z.reach {
                        Reach::Point(p) => p[idx] as usize == j,
                        Reach::From(s) => (s[idx] as usize) <= j && s[idx] != NONE,
                        Reach::Bits(w) => w[idx * l + j / 64] >> (j % 64) & 1 == 1,
                    };
                    if hit {
                        out.fill(!0);
                        return;
                    }
                }
                None => match z.reach {
                    Reach::Point(p) => {
                        let o = p[idx];
                        if o != NONE {
                            out[o as usize / 64] |= 1 << (o % 64);
                        }
                    }
                    Reach::From(s) => {
                        let st = s[idx];
                        if st != NONE {
                            let t0 = st as usize / 64;
                            out[t0] |= !0u64 << (st % 64);
                            out[t0 + 1..].fill(!0);
                        }
                    }
                    Reach::Bits(w) => {
                        for (o, &e) in out.iter_mut().zip(&w[idx * l..(idx + 1) * l]) {
                            *o |= e;
                        }
                    }
                },
            }
        }
    }
}
