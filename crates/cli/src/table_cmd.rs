//! `nimlab table`: every P-position (or, with `--grundy`, the Grundy value of every position) of a
//! bounded set of positions.
//!
//! This module only translates: the options become a [`nimlab_tables::plan::Request`] (the tables
//! crate plans, refuses, looks up the store, computes and saves), the progress bar and Ctrl-C become
//! its [`Hooks`], and the rows go through [`nimlab_tables::sink`] to stdout or to `-o FILE` (written
//! as FILE.partial and renamed when complete). Options that cannot apply together are refused here.
//! `--resume`/`--restart` become the request's [`plan::ResumeMode`]; the checkpoint is opened (and a
//! damaged or foreign one refused) before the run, so that "resuming from ..." is said first.

use crate::args::Common;
use crate::store_cmd::StoreArgs;
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use nimlab_core::{Error, Hooks, Play};
use nimlab_games::parse_game;
use nimlab_tables::checkpoint;
use nimlab_tables::cluster::{Cluster, Solo};
use nimlab_tables::plan::{self, Bounds, Request, TableKind};
use nimlab_tables::sink::{self, SinkFormat};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

mod per_stack;
use per_stack::{parse_max, MaxArg};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MethodArg {
    /// The engine where it applies (CN, SCN, Nim, Moore's Nim, complexes; up to 65535 values per entry), else plain search.
    Auto,
    /// The bit-parallel engine (an error where it does not apply).
    Fast,
    /// Plain search: every option of every position.
    Naive,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Backend {
    /// The GPU when one is present (not a CPU driver) and the box is large enough to gain, else the CPU.
    Auto,
    /// The CPU engine.
    Cpu,
    /// The GPU, through wgpu (Vulkan, Metal, DX12): P-sets and Grundy values of CN, SCN, Nim, Moore's
    /// Nim and complexes. Needs a binary built with `--features gpu`.
    Gpu,
    /// The CPU engine on every rank of an MPI job (`mpirun -np R nimlab table ... --backend mpi`):
    /// P-sets of CN, SCN, Nim, Moore's Nim and complexes. Needs a binary built with `--features mpi`.
    Mpi,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
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
    /// Largest stack, pile or heap size in the box (for ENTROPY(k): the largest max - min). The
    /// engine's memory grows with the box's lines (all values of one stack, the others fixed), not
    /// its positions: about one diagonal of blocks of lines, 8 bytes per 64 values per window; a box
    /// that needs more than 3/4 of this machine's memory is refused with the amount. One bound per
    /// stack (e.g. 3,4,5,30,30): the P-positions of that box, every ordered one, by the engine (CN,
    /// Nim, Moore's Nim).
    #[arg(long, value_parser = parse_max, value_name = "H|H1,H2,...")]
    max: Option<MaxArg>,
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
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    method: MethodArg,
    /// Where the engine computes a box table: the CPU or a GPU (`gpu` needs the `gpu` build feature).
    #[arg(long, value_enum, default_value_t = Backend::Auto)]
    backend: Backend,
    /// Continue the table from its checkpoint (kept next to the store; an error when there is none). A
    /// plain rerun of the same command continues from it as well.
    #[arg(long, conflicts_with = "restart")]
    resume: bool,
    /// Discard the table's checkpoint, if any, and start over.
    #[arg(long)]
    restart: bool,
    /// List every ordered P-position of the box (each rotation and reflection of a circle), not one
    /// per symmetry class.
    #[arg(long)]
    ordered: bool,
    /// Fix stack I (1-based, the CSV column pI) at the value V: list only the positions of that slice
    /// of the box, every ordered one (repeat for more stacks, e.g. --fix 3=5 --fix 4=0).
    #[arg(long, value_name = "I=V")]
    fix: Vec<String>,
    /// Output format (--json is the same as --format json).
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// Write the table to this file (via FILE.partial, renamed when complete).
    #[arg(long, short)]
    output: Option<PathBuf>,
    #[command(flatten)]
    store: StoreArgs,
    #[command(flatten)]
    common: Common,
}

/// Runs `table`; exit status 130 when Ctrl-C stopped it (after saying where its progress is kept).
pub fn run(a: &TableArgs) -> Result<ExitCode, Error> {
    if let Some(MaxArg::PerStack(tops)) = &a.max {
        return per_stack::run(a, tops);
    }
    if a.backend != Backend::Mpi {
        let (format, game, plan) = match prepare(a) {
            Ok(x) => x,
            Err(e) => return per_stack::below_the_slice(a, e),
        };
        return run_planned(a, format, game.as_ref(), plan, &Solo);
    }
    // Every rank plans the same table; only rank 0 says why a plan is refused.
    let (format, game, plan) = match prepare(a) {
        Ok(x) => x,
        Err(_) if launched_rank().is_some_and(|r| r > 0) => return Ok(ExitCode::from(2)),
        Err(e) => return Err(e),
    };
    #[cfg(feature = "mpi")]
    {
        let world = nimlab_tables::cluster::mpi_world::World::init().map_err(Error::Unsupported)?;
        run_planned(a, format, game.as_ref(), plan, &world)
    }
    #[cfg(not(feature = "mpi"))]
    {
        // The plan refuses --backend mpi in a build without the feature.
        let _ = (format, game, plan);
        Err(Error::refused(plan::no_mpi_feature()))
    }
}

/// This process's rank as the MPI launcher announces it (Open MPI, PMIx, MPICH), before MPI starts.
fn launched_rank() -> Option<usize> {
    ["OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"]
        .iter()
        .find_map(|v| std::env::var(v).ok()?.parse().ok())
}

type Prepared = (SinkFormat, Box<dyn nimlab_core::Game>, plan::Plan);

/// The options checked and the table planned (the same on every rank).
fn prepare(a: &TableArgs) -> Result<Prepared, Error> {
    let format = format_of(a)?;
    if a.count_only && format.lists_rows() {
        return Err(Error::Unsupported(format!(
            "--count-only prints counts; --format {} lists positions: leave out one of them",
            if format == SinkFormat::Csv {
                "csv"
            } else {
                "jsonl"
            }
        )));
    }
    if a.count_only && a.remoteness {
        return Err(Error::Unsupported(
            "--remoteness adds values to the listed positions; it does not combine with --count-only"
                .into(),
        ));
    }
    let game = parse_game(&a.game)?;
    let req = Request {
        bounds: Bounds {
            max: a.max.as_ref().and_then(MaxArg::one),
            max_sum: a.max_sum,
            heaps: a.heaps,
        },
        play: Play::from_misere(a.misere),
        kind: if a.grundy {
            TableKind::Grundy
        } else {
            TableKind::PSet
        },
        method: match a.method {
            MethodArg::Auto => plan::TableMethod::Auto,
            MethodArg::Fast => plan::TableMethod::Engine,
            MethodArg::Naive => plan::TableMethod::Naive,
        },
        backend: match a.backend {
            Backend::Auto => plan::Backend::Auto,
            Backend::Cpu => plan::Backend::Cpu,
            Backend::Gpu => plan::Backend::Gpu,
            Backend::Mpi => plan::Backend::Mpi,
        },
        remoteness: a.remoteness,
        limit: a.common.limit,
        resume: if a.resume {
            plan::ResumeMode::Require
        } else if a.restart {
            plan::ResumeMode::Restart
        } else {
            plan::ResumeMode::Auto
        },
    };
    if (a.resume || a.restart) && a.store.no_store {
        return Err(Error::Unsupported(format!(
            "{} works on the checkpoint kept next to the store; it does not combine with --no-store",
            if a.resume { "--resume" } else { "--restart" }
        )));
    }
    let plan = plan::plan(game.as_ref(), &req)?;
    if a.count_only && (a.ordered || !a.fix.is_empty()) {
        return Err(Error::Unsupported(format!(
            "{} chooses the positions listed; --count-only lists none: leave out one of them",
            if a.ordered { "--ordered" } else { "--fix" }
        )));
    }
    parse_fix(&a.fix, &plan)?;
    Ok((format, game, plan))
}

/// `--fix I=V` options as (0-based stack, value), checked against the plan's box: one line for a
/// malformed one, a stack outside the positions or a value outside the box.
pub fn parse_fix(fix: &[String], plan: &plan::Plan) -> Result<Vec<(usize, u64)>, Error> {
    if fix.is_empty() {
        return Ok(Vec::new());
    }
    let plan::Domain::Box(d) = &plan.domain else {
        return Err(Error::Unsupported(
            "--fix takes a slice of a box of stacks; chip games' tables are bounded by their total instead".into(),
        ));
    };
    parse_fix_in(
        fix,
        d.lengths.iter().copied().max().unwrap_or(0),
        d.lo,
        d.hi,
    )
}

/// [`parse_fix`] for a box of `width` stacks with values `lo..=hi`.
pub fn parse_fix_in(
    fix: &[String],
    width: usize,
    lo: u64,
    hi: u64,
) -> Result<Vec<(usize, u64)>, Error> {
    let mut out: Vec<(usize, u64)> = Vec::new();
    for f in fix {
        let bad = || {
            Error::Unsupported(format!(
                "--fix {f}: write STACK=VALUE, e.g. --fix 3=5 (stacks are numbered 1 to {width})"
            ))
        };
        let (i, v) = f.split_once('=').ok_or_else(bad)?;
        let i: usize = i.trim().parse().map_err(|_| bad())?;
        let v: u64 = v.trim().parse().map_err(|_| bad())?;
        if i == 0 || i > width {
            return Err(bad());
        }
        if v < lo || v > hi {
            return Err(Error::Unsupported(format!(
                "--fix {f}: the box holds values {lo}..={hi} only"
            )));
        }
        if out.iter().any(|&(j, _)| j == i - 1) {
            return Err(Error::Unsupported(format!(
                "--fix names stack {i} twice: give each stack one value"
            )));
        }
        out.push((i - 1, v));
    }
    Ok(out)
}

/// The store and the checkpoint to resume from (rank 0).
fn open_store(
    a: &TableArgs,
    plan: &plan::Plan,
) -> Result<
    (
        Option<nimlab_tables::store::Store>,
        Option<plan::Resumption>,
    ),
    Error,
> {
    let db = a.store.open()?;
    let from = match db.as_ref() {
        Some(s) if s.find(&plan.key).ok().flatten().is_none() => plan::open_checkpoint(plan, s)?,
        Some(_) => None,
        None if a.resume || a.restart => {
            return Err(Error::Unsupported(
                "--resume and --restart work on the checkpoint kept next to the store, and no store is in use (NIMLAB_DB=off?): pass --db PATH".into(),
            ))
        }
        None => None,
    };
    Ok((db, from))
}

/// Computes (or looks up) the planned table and writes it; on ranks other than 0 of a cluster, only
/// that rank's share of the computation.
fn run_planned(
    a: &TableArgs,
    format: SinkFormat,
    game: &dyn nimlab_core::Game,
    plan: plan::Plan,
    cluster: &dyn Cluster,
) -> Result<ExitCode, Error> {
    let cancel = crate::interrupt::cancel_flag();
    // An error on one rank after the others started computing: end them all.
    let fatal = |e: Error| {
        if cluster.size() > 1 && !matches!(e, Error::Interrupted) {
            eprintln!(
                "nimlab (rank {} of {}): {e}",
                cluster.rank(),
                cluster.size()
            );
            cluster.abort(2);
        }
        e
    };
    if !cluster.is_root() {
        let hooks = Hooks::new(Some(&cancel), None);
        return match plan::work_for_rank_0(cluster, game, &plan, hooks) {
            Ok(computed) => {
                if computed {
                    cluster.all_traffic();
                }
                Ok(ExitCode::SUCCESS)
            }
            Err(Error::Interrupted) => Ok(ExitCode::from(130)),
            Err(e) => Err(fatal(e)),
        };
    }
    let (mut db, from) = match open_store(a, &plan) {
        Ok(x) => x,
        Err(e) => {
            if cluster.size() > 1 {
                plan::tell_ranks_stop(cluster, &plan);
            }
            return Err(e);
        }
    };
    if let Some(r) = &from {
        eprintln!(
            "nimlab: resuming from the checkpoint {} ({:.1}% done: {})",
            r.path.display(),
            r.header.percent(),
            r.header.progress.stage
        );
    }
    let progress = Progress::new();
    let pf = |d: u64, t: u64| progress.update(d, t);
    let answer = plan::run_on(
        cluster,
        game,
        &plan,
        db.as_mut(),
        Hooks::new(Some(&cancel), Some(&pf)),
        from,
    );
    progress.bar.finish_and_clear();
    if let Ok(ans) = &answer {
        if ans.ranks.is_some() && ans.source == plan::Source::Engine {
            eprintln!("nimlab: {}", traffic_line(cluster));
        }
    }
    if let (Err(Error::Interrupted), Some(s)) = (&answer, db.as_ref()) {
        if let Some(h) = plan::checkpoint_path(&plan, s).and_then(|p| checkpoint::peek(&p).ok()) {
            eprintln!(
                "nimlab: interrupted before the computation finished; its progress is kept in a checkpoint ({:.1}% done: {}): run the same command again to continue",
                h.percent(),
                h.progress.stage
            );
            return Ok(ExitCode::from(130));
        }
    }
    let answer = answer.map_err(fatal)?;
    if let Some(e) = &answer.store_error {
        eprintln!("nimlab: the table was not stored: {e}");
    }
    if let Some(e) = &answer.checkpoint_error {
        eprintln!("nimlab: no checkpoint could be kept: {e}");
    }
    if answer.source == plan::Source::Store {
        match answer.within {
            Some(hi) => eprintln!(
                "nimlab: answered from the store (table {}, a larger box with entries up to {hi}, solved in {:.3} s)",
                answer.store_id.unwrap_or(0),
                answer.seconds
            ),
            None => eprintln!(
                "nimlab: answered from the store (table {}, solved in {:.3} s)",
                answer.store_id.unwrap_or(0),
                answer.seconds
            ),
        }
    }
    if format.lists_rows() && !a.grundy {
        eprintln!("{} (listed)", sink::summary(&plan, &answer));
    }
    let opt = sink::Options {
        count_only: a.count_only,
        ordered: a.ordered,
        fix: parse_fix(&a.fix, &plan)?,
    };
    let written = crate::output::write_out(a.output.as_deref(), |out| {
        sink::write(out, game, &plan, &answer, format, opt)
    })?;
    if let (Some(rows), Some(path)) = (written, &a.output) {
        eprintln!(
            "nimlab: wrote {} to {}",
            if a.count_only {
                "the counts".to_string()
            } else if a.grundy {
                format!("{rows} positions with their Grundy values")
            } else {
                format!("{rows} P-positions")
            },
            path.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// What the ranks sent each other, summed over ranks (every rank takes part in the count).
fn traffic_line(cluster: &dyn Cluster) -> String {
    let all = cluster.all_traffic();
    let sum = |f: fn(&nimlab_tables::cluster::Traffic) -> u64| all.iter().map(f).sum::<u64>();
    let mib = |b: u64| b as f64 / (1u64 << 20) as f64;
    format!(
        "{} sent {:.2} MiB between them: boundary blocks {:.2} MiB, P-lines to rank 0 {:.2} MiB, checkpoint blocks {:.2} MiB, control {:.3} MiB",
        cluster.describe(),
        mib(sum(|t| t.total())),
        mib(sum(|t| t.boundary)),
        mib(sum(|t| t.lines)),
        mib(sum(|t| t.checkpoint)),
        mib(sum(|t| t.control)),
    )
}

fn format_of(a: &TableArgs) -> Result<SinkFormat, Error> {
    let f = match (a.format, a.common.json) {
        (Some(FormatArg::Json) | None, true) => FormatArg::Json,
        (Some(f), true) => {
            return Err(Error::Unsupported(format!(
                "--json asks for JSON and --format {} for another format: give one of them",
                f.to_possible_value()
                    .map(|v| v.get_name().to_string())
                    .unwrap_or_default()
            )))
        }
        (Some(f), false) => f,
        (None, false) => FormatArg::Text,
    };
    Ok(match f {
        FormatArg::Text => SinkFormat::Text,
        FormatArg::Json => SinkFormat::Json,
        FormatArg::Csv => SinkFormat::Csv,
        FormatArg::Jsonl => SinkFormat::Jsonl,
    })
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
