//! SCN(n,k) circle length by circle length ([`shrinking_on`]): the circles of each length are a
//! window game whose moves that empty piles come from the shorter lengths' tables, solved by the
//! CPU engine (on any number of ranks) or the GPU back end; this loop keeps the finished lengths'
//! P-lines, hands them to every rank, and writes and reads this layer's checkpoint section.

use super::shrink_oracle::{arcs_kept, LenTable, ShrinkOracle, NONE};
use super::{cyclic_windows, damaged, engine_windows, take_slab, Summary, TAG_SHRINKING};
use crate::checkpoint::{self as ck, Layer, Saver};
use crate::cluster::{self as cl, Cluster, Topic};
use crate::lines::{Hooks, LineSpec, PLine, Resume, Stop};
use nimlab_core::{BoxDomain, Game, Play};
use std::cell::{Cell, RefCell};
use std::io::{self, Read, Write};

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
    /// line index (as [`crate::lines::solve_on`] emits them).
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

/// Reads this layer's section (see [`super::tabulate_resumable`]).
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
/// loop of the CPU engine ([`super::tabulate_on`], on any number of ranks) and of the GPU back end.
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
                lower.push(LenTable::new(i + 1, r, p, &arcs_kept(i + 1, n, k)));
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
            lower.push(LenTable::new(mm, r, p, &arcs_kept(mm, n, k)));
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
            radix: None,
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
            lower.push(LenTable::new(m, r, p_lines, &arcs_kept(m, n, k)));
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
