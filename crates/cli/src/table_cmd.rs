//! `nimlab table`: every P-position (or, with `--grundy`, the Grundy value of every position) of a
//! bounded set of positions.
//!
//! Box games (CN, SCN, Nim, Moore's Nim) are tabulated over a box of entries by the bit-parallel engine
//! of `nimlab-tables` (`--method naive`: the plain search of [`nimlab_core::table::tabulate`]), and the
//! result is kept in the store (`--db PATH`, `NIMLAB_DB`, `--no-store`): asking again is a look-up.
//! Chip games are tabulated over every multiset with a bounded number of chips (or, for Entropy
//! Reduction, a bounded spread max − min) by the memoizing solver.
//!
//! Output is written as it is produced (text, `--json`, or `--format csv|jsonl` with one position per
//! line), never built as one string; `-o FILE` writes FILE.partial and renames it when complete.

use crate::args::Common;
use crate::store_cmd::StoreArgs;
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use nimlab_core::table::{grundy_values, tabulate, TableRun};
use nimlab_core::{BoxDomain, Error, Game, Play, Pos, Solver};
use nimlab_games::{chip, parse_game};
use nimlab_tables::lines::{Hooks, Interrupted};
use nimlab_tables::pset::{self, rules_for, Rules};
use nimlab_tables::store::{self, Key, Store};
use nimlab_tables::{grundy, ENGINE_VERSION};
use serde_json::json;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Method {
    /// The engine where it applies (CN, SCN, Nim, Moore's Nim, entries up to 63), else plain search.
    Auto,
    /// The bit-parallel engine (an error where it does not apply).
    Fast,
    /// Plain search: every option of every position.
    Naive,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    /// One position per line, entries separated by commas (with --grundy, the value last).
    Csv,
    /// One JSON value per line: a position (P-sets) or {"position", "grundy"}.
    Jsonl,
}

#[derive(Args, Debug)]
pub struct TableArgs {
    /// Game name, e.g. CN(7,4).
    game: String,
    /// Largest stack, pile or heap size in the box (for ENTROPY(k): the largest max - min).
    #[arg(long)]
    max: Option<u64>,
    /// Chip games: the most chips in all.
    #[arg(long, value_name = "S")]
    max_sum: Option<u64>,
    /// Number of heaps (Nim and Moore's Nim, which take any number).
    #[arg(long)]
    heaps: Option<usize>,
    /// Misère play: the player who makes the last move loses.
    #[arg(long)]
    misere: bool,
    /// The Grundy value of every position of the box (normal play) instead of the P-positions.
    #[arg(long)]
    grundy: bool,
    /// Print the counts only (with --grundy: the histogram of values), not the positions.
    #[arg(long)]
    count_only: bool,
    /// Add each listed P-position's remoteness and suspense number (by full search of the box, so for
    /// boxes the plain search can handle).
    #[arg(long)]
    remoteness: bool,
    /// How to compute a box table.
    #[arg(long, value_enum, default_value_t = Method::Auto)]
    method: Method,
    /// Output format (--json is the same as --format json).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Write the table to this file (via FILE.partial, renamed when complete).
    #[arg(long, short)]
    output: Option<PathBuf>,
    #[command(flatten)]
    store: StoreArgs,
    #[command(flatten)]
    common: Common,
}

pub fn run(a: &TableArgs) -> Result<(), Error> {
    let game = parse_game(&a.game)?;
    let play = Play::from_misere(a.misere);
    if chip::is_chip_game(game.as_ref()) {
        let text = chip_table(game.as_ref(), a, play)?;
        return emit_text(a, text.as_bytes());
    }
    box_table(game.as_ref(), a, play)
}

fn emit_text(a: &TableArgs, text: &[u8]) -> Result<(), Error> {
    match &a.output {
        None => {
            let _ = std::io::stdout().lock().write_all(text);
        }
        Some(path) => crate::output::write_atomically(path, text)?,
    }
    Ok(())
}

/// Where the table goes: stdout, or FILE.partial renamed to FILE at the end.
struct Sink {
    out: Box<dyn Write>,
    file: Option<(PathBuf, PathBuf)>,
}

impl Sink {
    fn open(path: Option<&PathBuf>) -> Result<Sink, Error> {
        match path {
            None => Ok(Sink {
                out: Box::new(BufWriter::with_capacity(1 << 16, std::io::stdout())),
                file: None,
            }),
            Some(p) => {
                let tmp = p.with_extension("partial");
                let f = std::fs::File::create(&tmp).map_err(|e| {
                    Error::Unsupported(format!("cannot write {}: {e}", tmp.display()))
                })?;
                Ok(Sink {
                    out: Box::new(BufWriter::with_capacity(1 << 16, f)),
                    file: Some((tmp, p.clone())),
                })
            }
        }
    }
    fn w(&mut self, s: &str) {
        // A closed stdout (a reader that went away) ends the process through SIGPIPE on Unix.
        let _ = self.out.write_all(s.as_bytes());
    }
    fn finish(mut self) -> Result<(), Error> {
        let io = |e: std::io::Error| Error::Unsupported(format!("cannot write the table: {e}"));
        self.out.flush().map_err(io)?;
        drop(self.out);
        if let Some((tmp, path)) = self.file {
            std::fs::rename(&tmp, &path).map_err(io)?;
        }
        Ok(())
    }
}

fn format_of(a: &TableArgs) -> Format {
    match a.format {
        Some(f) => f,
        None if a.common.json => Format::Json,
        None => Format::Text,
    }
}

fn join(xs: &[u64]) -> String {
    xs.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

fn key_of(game: &dyn Game, d: &BoxDomain, play: Play, grundy: bool) -> Key {
    Key {
        game: game.id(),
        family: String::new(),
        params: String::new(),
        lo: d.lo,
        hi: d.hi,
        lengths: d
            .lengths
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(","),
        play: play.name().to_string(),
        kind: if grundy { "grundy" } else { "pset" }.to_string(),
    }
}

/// A progress bar on stderr that appears once a run has taken more than a second.
struct Progress {
    bar: ProgressBar,
    start: Instant,
}

impl Progress {
    fn new() -> Progress {
        Progress {
            bar: ProgressBar::hidden(),
            start: Instant::now(),
        }
    }
    fn update(&self, done: u64, total: u64) {
        if self.start.elapsed() > Duration::from_secs(1) {
            if self.bar.is_hidden() {
                self.bar
                    .set_draw_target(indicatif::ProgressDrawTarget::stderr());
                self.bar.set_style(
                    ProgressStyle::with_template(
                        "{bar:40} {pos}/{len} positions, {elapsed} (eta {eta})",
                    )
                    .unwrap(),
                );
            }
            self.bar.set_length(total);
            self.bar.set_position(done);
        }
    }
}

/// The result of a box table, whichever way it was obtained.
enum Solved {
    PSet {
        count: u64,
        canonical_count: u64,
        by_length: Vec<(usize, u64, u64)>,
        /// The canonical P-positions, encoded by [`store::encode_positions`].
        data: Vec<u8>,
    },
    Grundy {
        /// The value of every position, by length (in the order of the box) then lexicographically.
        values: Vec<u16>,
    },
}

fn cancel_flag() -> Arc<AtomicBool> {
    let cancel = Arc::new(AtomicBool::new(false));
    let c = cancel.clone();
    let _ = ctrlc::set_handler(move || c.store(true, Ordering::Relaxed));
    cancel
}

fn interrupted(_: Interrupted) -> Error {
    Error::Interrupted
}

const GIB: f64 = (1u64 << 30) as f64;
/// Memory the SCN Grundy engine may use for its value sets and the table.
const GRUNDY_MEMORY: f64 = 12.0 * GIB;

fn box_table(game: &dyn Game, a: &TableArgs, play: Play) -> Result<(), Error> {
    let Some(max) = a.max else {
        return Err(Error::Unsupported(format!(
            "table {} needs --max H (the largest entry of the box)",
            game.id()
        )));
    };
    if a.max_sum.is_some() {
        return Err(Error::Unsupported(format!(
            "--max-sum bounds chip games; {} takes --max H",
            game.id()
        )));
    }
    if a.grundy && play == Play::Misere {
        return Err(Error::Unsupported(
            "--grundy gives normal-play values; leave out --misere".into(),
        ));
    }
    let domain = game.table_domain(max, a.heaps)?;
    let rules = rules_for(game, &domain);
    let fast = match a.method {
        Method::Naive => false,
        Method::Auto => rules.is_some(),
        Method::Fast => {
            if rules.is_none() {
                return Err(Error::Unsupported(format!(
                    "the engine does not cover {}{} with --max {max} (entries up to 63); use --method naive",
                    game.id(),
                    if a.grundy { " Grundy tables" } else { "" }
                )));
            }
            true
        }
    };
    let total = domain.size_f64();
    // Refuse up front what would take too long: the engine costs about one word operation per
    // (line, window entry), the plain search one option visit per option of each position.
    let r = domain.radix() as f64;
    let est = match (&rules, fast) {
        (Some(Rules::Windows { windows, .. }), true) => {
            let per: usize = windows.iter().map(|w| w.len()).sum();
            if a.grundy {
                total * per as f64 / 4.0
            } else {
                total / r * per as f64 / 16.0
            }
        }
        (Some(Rules::Shrinking { n, k }), true) => {
            let per = (*n as f64) * 2f64.powi(*k as i32);
            if a.grundy {
                total * (per + (n * k) as f64) / 4.0
            } else {
                total / r * per / 4.0
            }
        }
        _ => {
            let mid_len = *domain.lengths.last().unwrap();
            let mid = vec![(domain.lo + domain.hi) / 2; mid_len];
            total * game.branching_bound(&mid).max(1.0)
        }
    };
    if est > a.common.limit {
        return Err(Error::TooLarge(format!(
            "tabulating {} with --max {max} may take about {est:.1e} steps ({total:.1e} positions), above the limit of {:.1e}; pass --limit {} to run it anyway",
            game.id(),
            a.common.limit,
            nimlab_core::solver::limit_above(est)
        )));
    }
    if let (true, true, Some(Rules::Shrinking { n, k })) = (a.grundy, fast, &rules) {
        let bytes = grundy::shrinking_memory(*n, *k, domain.radix() as usize) + total * 2.0;
        if bytes > GRUNDY_MEMORY {
            return Err(Error::TooLarge(format!(
                "a Grundy table of {} with --max {max} needs about {:.1} GiB of value sets, above the {:.0} GiB nimlab allows; use a smaller --max",
                game.id(),
                bytes / GIB,
                GRUNDY_MEMORY / GIB
            )));
        }
    }
    if a.grundy && total > 1.0e9 {
        return Err(Error::TooLarge(format!(
            "a Grundy table of {total:.1e} positions is more than the 1e9 kept in memory; use a smaller --max"
        )));
    }
    let key = key_of(game, &domain, play, a.grundy);
    let mut db = a.store.open()?;
    let start = Instant::now();
    let mut from_store = None;
    let mut stored_seconds = 0.0;
    let solved = match db.as_ref().map(|s| s.find(&key)) {
        Some(Ok(Some(e))) => {
            let data = db
                .as_ref()
                .unwrap()
                .data(e.id)
                .map_err(|err| Error::Unsupported(format!("store: {err}")))?;
            from_store = Some(e.id);
            stored_seconds = e.seconds;
            if a.grundy {
                Solved::Grundy {
                    values: store::decode_values(&data),
                }
            } else {
                let by_length: Vec<(usize, u64, u64)> =
                    serde_json::from_str::<Vec<(usize, u64, u64)>>(&e.details).unwrap_or_default();
                Solved::PSet {
                    count: e.count,
                    canonical_count: e.canonical_count,
                    by_length,
                    data,
                }
            }
        }
        _ => compute(game, &domain, play, a.grundy, fast, &rules)?,
    };
    let elapsed = start.elapsed();
    if from_store.is_none() {
        if let Some(s) = db.as_mut() {
            match save(s, &key, &solved, fast, total as u64, elapsed.as_secs_f64()) {
                Ok(id) => from_store = Some(-id),
                Err(e) => eprintln!("nimlab: the table was not stored: {e}"),
            }
        }
    }
    write_table(
        game,
        a,
        &domain,
        play,
        &solved,
        elapsed,
        from_store,
        stored_seconds,
        fast,
    )
}

fn compute(
    game: &dyn Game,
    domain: &BoxDomain,
    play: Play,
    want_grundy: bool,
    fast: bool,
    rules: &Option<Rules>,
) -> Result<Solved, Error> {
    let cancel = cancel_flag();
    let progress = Progress::new();
    let pf = |d: u64, t: u64| progress.update(d, t);
    let hooks = Hooks {
        cancel: Some(&cancel),
        progress: Some(&pf),
    };
    let solved = if want_grundy {
        let values = match (fast, rules) {
            (true, Some(Rules::Windows { m, windows })) => {
                grundy::solve(*m, domain.radix() as usize, windows, hooks).map_err(interrupted)?
            }
            (true, Some(Rules::Shrinking { n, k })) => {
                grundy::solve_shrinking(*n, *k, domain.radix() as usize, hooks)
                    .map_err(interrupted)?
            }
            _ => grundy_values(game, domain, Some(&cancel), Some(&pf))?,
        };
        Solved::Grundy { values }
    } else if fast {
        let mut data = Vec::new();
        let s = pset::tabulate(game, domain, play, hooks, &mut |p| {
            store::encode_positions(&mut data, p)
        })
        .map_err(interrupted)?;
        Solved::PSet {
            count: s.count,
            canonical_count: s.canonical_count,
            by_length: s.by_length,
            data,
        }
    } else {
        let t = tabulate(
            game,
            domain,
            &TableRun {
                play,
                keep_positions: true,
                cancel: Some(&cancel),
                progress: Some(&pf),
            },
        )?;
        let mut data = Vec::new();
        for p in &t.positions {
            store::encode_positions(&mut data, p);
        }
        Solved::PSet {
            count: t.count,
            canonical_count: t.canonical_count,
            by_length: t.by_length,
            data,
        }
    };
    progress.bar.finish_and_clear();
    Ok(solved)
}

fn histogram<T: Copy + Into<u64>>(values: &[T]) -> Vec<u64> {
    let max = values.iter().map(|&v| v.into()).max().unwrap_or(0) as usize;
    let mut h = vec![0u64; max + 1];
    for &v in values {
        h[v.into() as usize] += 1;
    }
    h
}

fn save(
    s: &mut Store,
    key: &Key,
    solved: &Solved,
    fast: bool,
    total: u64,
    seconds: f64,
) -> Result<i64, store::DbError> {
    let engine = if fast {
        ENGINE_VERSION.to_string()
    } else {
        format!("naive-{}", env!("CARGO_PKG_VERSION"))
    };
    match solved {
        Solved::PSet {
            count,
            canonical_count,
            by_length,
            data,
        } => s.save(
            key,
            &engine,
            *count,
            *canonical_count,
            &serde_json::to_string(by_length).unwrap(),
            total,
            seconds,
            data,
        ),
        Solved::Grundy { values } => {
            let h = histogram(values);
            s.save(
                key,
                &engine,
                h.first().copied().unwrap_or(0),
                0,
                &serde_json::to_string(&h).unwrap(),
                total,
                seconds,
                &store::encode_values(values),
            )
        }
    }
}

/// Calls `f` with every position of the box, in the order of the Grundy values.
fn for_each_position(d: &BoxDomain, f: &mut dyn FnMut(&[u64])) {
    let r = d.radix();
    for &m in &d.lengths {
        let mut p = vec![d.lo; m];
        for local in 0..r.pow(m as u32) {
            let mut v = local;
            for i in (0..m).rev() {
                p[i] = d.lo + v % r;
                v /= r;
            }
            f(&p);
        }
    }
}

#[allow(clippy::too_many_arguments)]
/// Remoteness and suspense of each listed position (with `--remoteness`), by full search with one
/// memo for the whole list; refused up front when the box is too large for the plain search.
fn listed_values(
    game: &dyn Game,
    a: &TableArgs,
    d: &BoxDomain,
    play: Play,
    positions: &[Pos],
) -> Result<Option<Vec<(u64, u64)>>, Error> {
    if !a.remoteness || a.count_only {
        return Ok(None);
    }
    let mid = vec![(d.lo + d.hi) / 2; *d.lengths.last().unwrap_or(&0)];
    let est = d.size_f64() * game.branching_bound(&mid).max(1.0);
    if est > a.common.limit {
        return Err(Error::TooLarge(format!(
            "--remoteness searches the whole box: about {est:.1e} option visits, above the limit of {:.1e}; use a smaller --max or pass --limit {}",
            a.common.limit,
            nimlab_core::solver::limit_above(est)
        )));
    }
    let mut solver = Solver::new(game);
    Ok(Some(
        positions
            .iter()
            .map(|p| {
                let f = solver.full(p)?;
                Ok((f.remoteness(play), f.suspense(play)))
            })
            .collect::<Result<_, Error>>()?,
    ))
}

fn write_table(
    game: &dyn Game,
    a: &TableArgs,
    d: &BoxDomain,
    play: Play,
    solved: &Solved,
    elapsed: Duration,
    store_id: Option<i64>,
    stored_seconds: f64,
    fast: bool,
) -> Result<(), Error> {
    let format = format_of(a);
    let total = d.size_f64() as u64;
    let max = a.max.unwrap_or(d.hi);
    // Positive: answered from the store; negative: just stored under that id.
    let (loaded, id) = match store_id {
        Some(i) if i > 0 => (true, Some(i)),
        Some(i) => (false, Some(-i)),
        None => (false, None),
    };
    let seconds = if loaded {
        stored_seconds
    } else {
        elapsed.as_secs_f64()
    };
    let method = if loaded {
        "store"
    } else if fast {
        "engine"
    } else {
        "naive"
    };
    if loaded {
        eprintln!(
            "nimlab: answered from the store (table {}, solved in {stored_seconds:.3} s)",
            id.unwrap()
        );
    }
    let mut out = Sink::open(a.output.as_ref())?;
    match solved {
        Solved::PSet {
            count,
            canonical_count,
            by_length,
            data,
        } => {
            let positions = store::decode_positions(data);
            let values = listed_values(game, a, d, play, &positions)?;
            let value_of = |i: usize| values.as_ref().map(|v| v[i]);
            match format {
                Format::Text => {
                    out.w(&format!(
                        "{}, {} play, entries in {}..={}, lengths {:?}: {} positions in the box\nP-positions: {} as ordered tuples, {} up to symmetry ({:.3} s)\n",
                        game.id(), play, d.lo, d.hi, d.lengths, total, count, canonical_count, seconds
                    ));
                    if d.lengths.len() > 1 {
                        for &(m, c, cc) in by_length {
                            out.w(&format!("  length {m}: {c} ordered, {cc} up to symmetry\n"));
                        }
                    }
                    if !a.count_only {
                        for (i, p) in positions.iter().enumerate() {
                            out.w(&game.format_position(p));
                            if let Some((r, su)) = value_of(i) {
                                out.w(&format!("  remoteness {r}, suspense {su}"));
                            }
                            out.w("\n");
                        }
                    }
                }
                Format::Json => {
                    let mut v = json!({
                        "game": game.id(),
                        "max": max,
                        "play": play.name(),
                        "count": count,
                        "canonical_count": canonical_count,
                        "positions_in_box": total,
                        "by_length": by_length.iter().map(|&(m, c, cc)| json!({"length": m, "count": c, "canonical_count": cc})).collect::<Vec<_>>(),
                        "seconds": seconds,
                        "method": method,
                    });
                    if let Some(h) = a.heaps {
                        v["heaps"] = json!(h);
                    }
                    if let Some(i) = id {
                        v["store_id"] = json!(i);
                    }
                    let head = serde_json::to_string(&v).unwrap();
                    if a.count_only {
                        out.w(&head);
                    } else {
                        // Stream the positions as the last key of the object.
                        out.w(&head[..head.len() - 1]);
                        out.w(",\"positions\":[");
                        for (i, p) in positions.iter().enumerate() {
                            if i > 0 {
                                out.w(",");
                            }
                            out.w(&format!("[{}]", join(p)));
                        }
                        out.w("]");
                        if let Some(v) = &values {
                            // Parallel to "positions".
                            let r: Vec<u64> = v.iter().map(|x| x.0).collect();
                            let su: Vec<u64> = v.iter().map(|x| x.1).collect();
                            out.w(&format!(
                                ",\"remoteness\":{},\"suspense\":{}",
                                json!(r),
                                json!(su)
                            ));
                        }
                        out.w("}");
                    }
                    out.w("\n");
                }
                Format::Csv | Format::Jsonl => {
                    eprintln!(
                        "{}, {} play, max {max}: {count} P-positions as ordered tuples, {canonical_count} up to symmetry (listed)",
                        game.id(),
                        play
                    );
                    for (i, p) in positions.iter().enumerate() {
                        match (format, value_of(i)) {
                            (Format::Csv, None) => out.w(&join(p)),
                            (Format::Csv, Some((r, su))) => out.w(&format!("{};{r};{su}", join(p))),
                            (_, None) => out.w(&format!("[{}]", join(p))),
                            (_, Some((r, su))) => out.w(&format!(
                                "{{\"position\":[{}],\"remoteness\":{r},\"suspense\":{su}}}",
                                join(p)
                            )),
                        }
                        out.w("\n");
                    }
                }
            }
        }
        Solved::Grundy { values } => {
            let h = histogram(values);
            let top = h.len().saturating_sub(1);
            match format {
                Format::Text => {
                    out.w(&format!(
                        "{}, Grundy values (normal play), entries in {}..={}, lengths {:?}: {} positions in the box ({:.3} s)\nvalues 0..={top}; positions with each value:\n",
                        game.id(), d.lo, d.hi, d.lengths, total, seconds
                    ));
                    for (v, c) in h.iter().enumerate() {
                        out.w(&format!("  {v}: {c}\n"));
                    }
                    if !a.count_only {
                        let mut i = 0;
                        for_each_position(d, &mut |p| {
                            out.w(&format!("{} {}\n", game.format_position(p), values[i]));
                            i += 1;
                        });
                    }
                }
                Format::Json => {
                    let mut v = json!({
                        "game": game.id(),
                        "max": max,
                        "play": "normal",
                        "kind": "grundy",
                        "count": h.first().copied().unwrap_or(0),
                        "positions_in_box": total,
                        "max_value": top,
                        "histogram": h,
                        "seconds": seconds,
                        "method": method,
                    });
                    if let Some(hp) = a.heaps {
                        v["heaps"] = json!(hp);
                    }
                    if let Some(i) = id {
                        v["store_id"] = json!(i);
                    }
                    let head = serde_json::to_string(&v).unwrap();
                    if a.count_only {
                        out.w(&head);
                    } else {
                        out.w(&head[..head.len() - 1]);
                        out.w(",\"values\":[");
                        let mut i = 0;
                        for_each_position(d, &mut |p| {
                            if i > 0 {
                                out.w(",");
                            }
                            out.w(&format!(
                                "{{\"position\":[{}],\"grundy\":{}}}",
                                join(p),
                                values[i]
                            ));
                            i += 1;
                        });
                        out.w("]}");
                    }
                    out.w("\n");
                }
                Format::Csv | Format::Jsonl => {
                    let mut i = 0;
                    for_each_position(d, &mut |p| {
                        if format == Format::Csv {
                            out.w(&format!("{},{}\n", join(p), values[i]));
                        } else {
                            out.w(&format!(
                                "{{\"position\":[{}],\"grundy\":{}}}\n",
                                join(p),
                                values[i]
                            ));
                        }
                        i += 1;
                    });
                }
            }
        }
    }
    out.finish()
}

/// Number of distinct orderings of a multiset given as a sorted vector, if it fits in 128 bits.
fn orderings(p: &[u64]) -> Option<u128> {
    let mut result: u128 = 1;
    let mut placed: u128 = 0;
    let mut run: u128 = 0;
    for (i, &x) in p.iter().enumerate() {
        run = if i > 0 && p[i - 1] == x { run + 1 } else { 1 };
        placed += 1;
        // result = result * placed / run keeps it an integer (multinomial built one element at a time).
        result = result.checked_mul(placed)? / run;
    }
    Some(result)
}

/// Number of multisets of `k` positive integers with sum at most `s` (as f64, exact while small).
fn multisets_with_sum_at_most(k: usize, s: u64) -> f64 {
    if s > 1_000_000 || k > 4096 {
        return f64::INFINITY;
    }
    // parts[j][n]: partitions of n into exactly j positive parts; p(n, j) = p(n-1, j-1) + p(n-j, j).
    let s = s as usize;
    let mut prev = vec![0f64; s + 1];
    prev[0] = 1.0; // j = 0
    for j in 1..=k {
        let mut cur = vec![0f64; s + 1];
        for n in j..=s {
            cur[n] = prev[n - 1] + cur[n - j];
        }
        prev = cur;
    }
    prev.iter().sum()
}

/// Number of multisets of `m` values in 0..=h: C(h + m, m).
fn multisets_bounded(m: usize, h: u64) -> f64 {
    (1..=m).fold(1.0, |acc, i| acc * (h as f64 + i as f64) / i as f64)
}

fn chip_table(game: &dyn Game, a: &TableArgs, play: Play) -> Result<String, Error> {
    if a.grundy && play == Play::Misere {
        return Err(Error::Unsupported(
            "--grundy gives normal-play values; leave out --misere".into(),
        ));
    }
    let entropy = game.table_bound() == nimlab_core::TableBound::Spread;
    let (bound, bound_name) = if entropy {
        match a.max {
            Some(h) => (h, "max"),
            None => {
                return Err(Error::Unsupported(format!(
                    "table {} needs --max H (the largest max - min)",
                    game.id()
                )))
            }
        }
    } else {
        match a.max_sum {
            Some(s) => (s, "max_sum"),
            None => {
                return Err(Error::Unsupported(format!(
                    "table {} needs --max-sum S (the most chips in all)",
                    game.id()
                )))
            }
        }
    };
    // Refuse up front: count the positions before listing them.
    let k = chip::boxes_of(game).unwrap_or(1);
    let count = if entropy {
        // Sorted k-tuples with minimum 0 and maximum at most `bound`: multisets of k-1 values in 0..=bound.
        multisets_bounded(k.saturating_sub(1), bound)
    } else {
        multisets_with_sum_at_most(k, bound)
    };
    if count > 2e7 {
        return Err(Error::TooLarge(format!(
            "table {} with {} {bound} has about {count:.1e} positions, more than the 2e7 this search-based table accepts; use a smaller bound",
            game.id(),
            if entropy { "--max" } else { "--max-sum" }
        )));
    }
    let positions = chip::table_positions(game, bound).unwrap_or_default();
    let mut solver = Solver::new(game);
    if let Some(last) = positions.last() {
        let est = positions.len() as f64 * game.branching_bound(last).max(1.0);
        if est > a.common.limit {
            return Err(Error::TooLarge(format!(
                "tabulating {} with {} {bound} may visit about {est:.1e} options ({} positions), above the limit of {:.1e}; pass --limit {} to run it anyway",
                game.id(),
                if entropy { "--max" } else { "--max-sum" },
                positions.len(),
                a.common.limit,
                nimlab_core::solver::limit_above(est)
            )));
        }
    }
    let start = Instant::now();
    let cancel = cancel_flag();
    let progress = Progress::new();
    let mut p_set: Vec<Pos> = Vec::new();
    let mut values: Vec<u64> = Vec::new();
    let mut ordered: Option<u128> = Some(0);
    for (i, p) in positions.iter().enumerate() {
        if i % 1024 == 0 {
            if cancel.load(Ordering::Relaxed) {
                return Err(Error::Interrupted);
            }
            progress.update(i as u64, positions.len() as u64);
        }
        if a.grundy {
            values.push(solver.grundy(p)?);
        } else if solver.outcome(p, play)?.is_p() {
            ordered = ordered.and_then(|o| orderings(p).and_then(|c| o.checked_add(c)));
            p_set.push(p.clone());
        }
    }
    progress.bar.finish_and_clear();
    let elapsed = start.elapsed();
    let what = if entropy {
        "spread max - min"
    } else {
        "total chips"
    };
    let mut s = String::new();
    if a.grundy {
        let h = histogram(&values);
        let top = h.len() - 1;
        match format_of(a) {
            Format::Text => {
                s.push_str(&format!(
                    "{}, Grundy values (normal play), {what} at most {bound}: {} positions (multisets) ({:.3} s)\nvalues 0..={top}; positions with each value:\n",
                    game.id(),
                    positions.len(),
                    elapsed.as_secs_f64()
                ));
                for (v, c) in h.iter().enumerate() {
                    s.push_str(&format!("  {v}: {c}\n"));
                }
                if !a.count_only {
                    for (p, v) in positions.iter().zip(&values) {
                        s.push_str(&format!("{} {v}\n", chip::format_power(p)));
                    }
                }
            }
            Format::Json => {
                let mut v = json!({
                    "game": game.id(),
                    bound_name: bound,
                    "play": "normal",
                    "kind": "grundy",
                    "count": h.first().copied().unwrap_or(0),
                    "positions_in_box": positions.len(),
                    "max_value": top,
                    "histogram": h,
                    "seconds": elapsed.as_secs_f64(),
                    "method": "search",
                });
                if !a.count_only {
                    v["values"] = positions
                        .iter()
                        .zip(&values)
                        .map(|(p, g)| json!({"position": p, "grundy": g}))
                        .collect();
                }
                s.push_str(&format!("{}\n", serde_json::to_string(&v).unwrap()));
            }
            Format::Csv => {
                for (p, v) in positions.iter().zip(&values) {
                    s.push_str(&format!("{},{v}\n", join(p)));
                }
            }
            Format::Jsonl => {
                for (p, v) in positions.iter().zip(&values) {
                    s.push_str(&format!("{{\"position\":[{}],\"grundy\":{v}}}\n", join(p)));
                }
            }
        }
        return Ok(s);
    }
    match format_of(a) {
        Format::Json => {
            let mut v = json!({
                "game": game.id(),
                bound_name: bound,
                "play": play.name(),
                // Ordered tuples: a number, or a decimal string when it does not fit in 64 bits.
                "count": ordered.map(|o| u64::try_from(o).map(|x| json!(x)).unwrap_or_else(|_| json!(o.to_string()))),
                "canonical_count": p_set.len(),
                "positions_in_box": positions.len(),
                "seconds": elapsed.as_secs_f64(),
            });
            if !a.count_only {
                v["positions"] = json!(p_set);
            }
            s.push_str(&format!("{}\n", serde_json::to_string(&v).unwrap()));
        }
        Format::Text => {
            s.push_str(&format!(
                "{}, {} play, {what} at most {bound}: {} positions (multisets)\nP-positions: {} multisets, {} as ordered tuples ({:.3} s)\n",
                game.id(),
                play,
                positions.len(),
                p_set.len(),
                ordered.map(|o| o.to_string()).unwrap_or_else(|| "too many to count".into()),
                elapsed.as_secs_f64()
            ));
            if !a.count_only {
                for p in &p_set {
                    s.push_str(&chip::format_power(p));
                    s.push('\n');
                }
            }
        }
        Format::Csv => {
            for p in &p_set {
                s.push_str(&join(p));
                s.push('\n');
            }
        }
        Format::Jsonl => {
            for p in &p_set {
                s.push_str(&format!("[{}]\n", join(p)));
            }
        }
    }
    Ok(s)
}
