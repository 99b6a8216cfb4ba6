//! Table planning: from what a front end asks (a game, its bound options, the play convention, P-set or
//! Grundy values, a method and a work budget) to a [`Plan`] that says which positions are tabulated,
//! by which route (the bit-parallel engine or the plain search), at what estimated cost, and under
//! which store key; then [`run`] looks the table up in the store, computes it when absent (with
//! progress and cancellation through [`Hooks`]), saves it atomically and returns an [`Answer`] that
//! says where it came from. Every front end (the CLI's `table` and `store export`, later Python) goes
//! through here; the rows are written by [`crate::sink`].
//!
//! Inapplicable or contradictory options are refused here with one line, and so is a table that would
//! not finish within the budget, before any work starts.

use crate::checkpoint::{self, Layer, Saver};
use crate::cluster::{Cluster, Solo, Topic};
use crate::lines::{Resume, Stop};
use crate::pset::{self, Rules};
use crate::store::{self, Entry, Key, Store};
use crate::{grundy, ENGINE_VERSION};
use nimlab_core::table::{grundy_values, tabulate, TableRun};
use nimlab_core::{BoxDomain, Error, Game, Hooks, Play, Pos, Result, Solver, TableBound};
use nimlab_games::chip;
use std::cell::RefCell;
use std::io::Read;
use std::time::Instant;

/// P-positions or Grundy values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    PSet,
    Grundy,
}

/// How a box table is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// The engine where it covers the game and box, else the plain search.
    Auto,
    /// The bit-parallel engine; an error where it does not apply.
    Engine,
    /// The plain search: every option of every position.
    Naive,
}

/// Where an engine P-set is computed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Backend {
    /// The GPU when a hardware adapter is present and the box is large enough to gain
    /// ([`AUTO_GPU_POSITIONS`]), else the CPU.
    #[default]
    Auto,
    /// The CPU engine.
    Cpu,
    /// The GPU (feature `gpu`): an error where it does not apply or no adapter is found.
    Gpu,
    /// The CPU engine on the ranks of an MPI job (feature `mpi`): P-sets of the engine's games.
    Mpi,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Auto => "auto",
            Backend::Cpu => "cpu",
            Backend::Gpu => "gpu",
            Backend::Mpi => "mpi",
        }
    }
}

/// Smallest box (positions) that `--backend auto` sends to a GPU: below it, setting up the device
/// and moving the tiers costs more than the CPU engine takes.
pub const AUTO_GPU_POSITIONS: f64 = 1.0e9;

/// The bound options as the user gave them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Bounds {
    /// `--max H`: the largest entry (box games) or the largest max − min (Entropy Reduction).
    pub max: Option<u64>,
    /// `--max-sum S`: the most chips in all (chip games).
    pub max_sum: Option<u64>,
    /// `--heaps N`: the number of heaps (games with any number of heaps).
    pub heaps: Option<usize>,
}

/// A table request.
#[derive(Debug, Clone)]
pub struct Request {
    pub bounds: Bounds,
    pub play: Play,
    pub kind: Kind,
    pub method: Method,
    /// CPU or GPU, for engine P-sets.
    pub backend: Backend,
    /// Add each listed P-position's remoteness and suspense number.
    pub remoteness: bool,
    /// The work budget (estimated steps) above which the table is refused.
    pub limit: f64,
    /// Checkpoints of an unfinished engine table (see [`crate::checkpoint`]).
    pub resume: ResumeMode,
}

/// What to do with the checkpoint of an unfinished engine table (kept next to the store).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ResumeMode {
    /// Continue from the checkpoint when there is one, and write checkpoints.
    #[default]
    Auto,
    /// Continue from the checkpoint; an error when there is none (`--resume`).
    Require,
    /// Discard the checkpoint and start over (`--restart`).
    Restart,
    /// Neither read nor write checkpoints.
    Off,
}

/// The positions a table covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Domain {
    /// Every tuple of the box (lengths in order, each in lexicographic order).
    Box(BoxDomain),
    /// Every multiset of a chip game with at most `max_sum` chips in all.
    Chips { max_sum: u64 },
    /// Every sorted position with minimum 0 and max − min at most `max`.
    Spread { max: u64 },
}

/// How the table is computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    Engine(Rules),
    Search,
}

/// What [`plan`] decided.
#[derive(Debug, Clone)]
pub struct Plan {
    pub game: String,
    pub domain: Domain,
    pub play: Play,
    pub kind: Kind,
    pub route: Route,
    /// Where the engine runs: [`Backend::Cpu`], [`Backend::Gpu`] (refused up front where it does not
    /// apply), or [`Backend::Auto`]: the GPU if a hardware adapter is present at run time.
    pub backend: Backend,
    /// Positions in the domain.
    pub positions: f64,
    /// Estimated steps (word operations of the engine, option visits of the search).
    pub steps: f64,
    pub key: Key,
    pub remoteness: bool,
    pub bounds: Bounds,
    limit: f64,
    /// What to do with checkpoints.
    pub resume: ResumeMode,
    /// The positions of a chip-game domain, in table order.
    chip_positions: Option<Vec<Pos>>,
}

const GIB: f64 = (1u64 << 30) as f64;
/// Memory the SCN Grundy engine may use for its value sets and the table.
const GRUNDY_MEMORY: f64 = 12.0 * GIB;
/// Largest Grundy table kept in memory (positions).
const GRUNDY_POSITIONS: f64 = 1.0e9;
/// Largest chip-game table (positions).
const CHIP_POSITIONS: f64 = 2.0e7;

fn unsupported(s: String) -> Error {
    Error::Unsupported(s)
}

/// Plans a table of `game`, or refuses it with one line saying why.
pub fn plan(game: &dyn Game, req: &Request) -> Result<Plan> {
    let id = game.id();
    if req.kind == Kind::Grundy && req.play == Play::Misere {
        return Err(unsupported(
            "--grundy gives normal-play values; leave out --misere".into(),
        ));
    }
    if req.kind == Kind::Grundy && req.remoteness {
        return Err(unsupported(
            "--remoteness adds values to listed P-positions; it does not combine with --grundy"
                .into(),
        ));
    }
    match game.table_bound() {
        TableBound::None => Err(unsupported(format!("{id} cannot be tabulated"))),
        TableBound::Box { heaps } => plan_box(game, req, heaps),
        TableBound::TotalChips | TableBound::Spread => plan_chips(game, req),
    }
}

fn plan_box(game: &dyn Game, req: &Request, takes_heaps: bool) -> Result<Plan> {
    let id = game.id();
    let b = req.bounds;
    if b.max_sum.is_some() {
        return Err(unsupported(format!(
            "--max-sum bounds chip games; {id} takes --max H"
        )));
    }
    let Some(max) = b.max else {
        return Err(unsupported(format!(
            "table {id} needs --max H (the largest entry of the box)"
        )));
    };
    if b.heaps.is_some() && !takes_heaps {
        let d = game.table_domain(max, None)?;
        return Err(unsupported(format!(
            "--heaps sets the number of heaps of games played on any number of them; {id} has {} stacks",
            d.lengths.iter().max().unwrap_or(&0)
        )));
    }
    let domain = game.table_domain(max, b.heaps)?;
    let rules = pset::rules_for(game, &domain);
    let route = match (req.method, &rules) {
        (Method::Naive, _) | (Method::Auto, None) => Route::Search,
        (_, Some(r)) => Route::Engine(r.clone()),
        (Method::Engine, None) => {
            return Err(unsupported(format!(
                "the engine does not cover {id}{} with --max {max}{}; leave out --method fast or use --method naive",
                if req.kind == Kind::Grundy { " Grundy tables" } else { "" },
                if engine_covers_below(game, &domain) { " (it takes entries up to 63)" } else { "" }
            )))
        }
    };
    let total = domain.size_f64();
    let r = domain.radix() as f64;
    let grundy = req.kind == Kind::Grundy;
    // The engine costs about one word operation per (line, window entry), the plain search one
    // option visit per option of each position.
    let steps = match &route {
        Route::Engine(Rules::Windows { windows, .. }) => {
            let per: usize = windows.iter().map(|w| w.len()).sum();
            if grundy {
                total * per as f64 / 4.0
            } else {
                total / r * per as f64 / 16.0
            }
        }
        Route::Engine(Rules::Shrinking { n, k }) => {
            let per = (*n as f64) * 2f64.powi(*k as i32);
            if grundy {
                total * (per + (n * k) as f64) / 4.0
            } else {
                total / r * per / 4.0
            }
        }
        Route::Search => {
            let mid_len = *domain.lengths.last().unwrap_or(&0);
            let mid = vec![(domain.lo + domain.hi) / 2; mid_len];
            total * game.branching_bound(&mid).max(1.0)
        }
    };
    if steps > req.limit {
        let engine_note = if route == Route::Search && engine_covers_below(game, &domain) {
            format!(
                "the engine covers {id} with entries up to 63; above that the plain search runs, and "
            )
        } else {
            String::new()
        };
        return Err(Error::TooLarge(format!(
            "{engine_note}tabulating {id} with --max {max} may take about {steps:.1e} steps ({total:.1e} positions), above the limit of {:.1e}; pass --limit {} to run it anyway",
            req.limit,
            nimlab_core::solver::limit_above(steps)
        )));
    }
    if let (true, Route::Engine(Rules::Shrinking { n, k })) = (grundy, &route) {
        let bytes = grundy::shrinking_memory(*n, *k, domain.radix() as usize) + total * 2.0;
        if bytes > GRUNDY_MEMORY {
            return Err(Error::TooLarge(format!(
                "a Grundy table of {id} with --max {max} needs about {:.1} GiB of value sets, above the {:.0} GiB nimlab allows; use a smaller --max",
                bytes / GIB,
                GRUNDY_MEMORY / GIB
            )));
        }
    }
    if grundy && total > GRUNDY_POSITIONS {
        return Err(Error::TooLarge(format!(
            "a Grundy table of {total:.1e} positions is more than the {GRUNDY_POSITIONS:.0e} kept in memory; use a smaller --max"
        )));
    }
    let backend = choose_backend(&id, req, &route, total)?;
    let key = box_key(game, &domain, req.play, req.kind);
    let p = Plan {
        game: id,
        domain: Domain::Box(domain),
        play: req.play,
        kind: req.kind,
        route,
        backend,
        positions: total,
        steps,
        key,
        remoteness: req.remoteness,
        bounds: b,
        limit: req.limit,
        resume: req.resume,
        chip_positions: None,
    };
    check_remoteness(game, &p)?;
    check_resume(req, &p)?;
    Ok(p)
}

/// The line `--backend gpu` gets from a binary built without the feature.
pub const NO_GPU_FEATURE: &str = "--backend gpu: this nimlab was built without the `gpu` feature; rebuild it with `cargo build --release -p nimlab-cli --features gpu`, or use --backend cpu";

/// The line `--backend mpi` gets from a binary built without the feature.
pub const NO_MPI_FEATURE: &str = "--backend mpi: this nimlab was built without the `mpi` feature; install Open MPI and libclang (Debian: openmpi-bin libopenmpi-dev libclang-dev) and rebuild it with `cargo build --release -p nimlab-cli --features mpi`, or use --backend cpu";

/// Resolves the back end of a box table, refusing `--backend gpu` where it cannot run.
fn choose_backend(id: &str, req: &Request, route: &Route, positions: f64) -> Result<Backend> {
    // P-sets and Grundy values of window games and SCN (crate::gpu::covers).
    let gpu_route = matches!(route, Route::Engine(_));
    match req.backend {
        Backend::Cpu => Ok(Backend::Cpu),
        Backend::Mpi if !cfg!(feature = "mpi") => Err(unsupported(NO_MPI_FEATURE.into())),
        Backend::Mpi if req.kind == Kind::Grundy || !matches!(route, Route::Engine(_)) => {
            Err(unsupported(format!(
                "--backend mpi computes the engine's P-sets (CN, SCN, Nim, Moore's Nim, complexes); {}: use --backend cpu",
                if req.kind == Kind::Grundy {
                    format!("Grundy tables of {id} are computed in one process")
                } else {
                    format!("{id} is tabulated by the plain search")
                }
            )))
        }
        Backend::Mpi => Ok(Backend::Mpi),
        Backend::Gpu if !cfg!(feature = "gpu") => Err(unsupported(NO_GPU_FEATURE.into())),
        Backend::Gpu if !gpu_route => Err(unsupported(format!(
            "--backend gpu computes the engine's P-sets and Grundy values (CN, SCN, Nim, Moore's Nim, complexes); {} on the CPU: use --backend cpu",
            if req.kind == Kind::Grundy { format!("Grundy tables of {id} are computed") } else { format!("{id} is tabulated") }
        ))),
        Backend::Gpu => Ok(Backend::Gpu),
        // Auto: only P-sets of window games go to a GPU on their own; SCN (whose masks of moves out
        // of the box the host computes) and Grundy values (value sets of many words per position)
        // run there only when asked for, until figures on a GPU show that they gain.
        Backend::Auto
            if cfg!(feature = "gpu")
                && req.kind == Kind::PSet
                && matches!(route, Route::Engine(Rules::Windows { .. }))
                && positions >= AUTO_GPU_POSITIONS =>
        {
            Ok(Backend::Auto)
        }
        Backend::Auto => Ok(Backend::Cpu),
    }
}

/// True when the engine would cover this game if the box's entries stayed below 64.
fn engine_covers_below(game: &dyn Game, d: &BoxDomain) -> bool {
    if d.radix() <= pset::MAX_RADIX {
        return false;
    }
    let smaller = BoxDomain {
        hi: d.lo + pset::MAX_RADIX - 1,
        ..d.clone()
    };
    pset::rules_for(game, &smaller).is_some()
}

/// Number of multisets of `k` positive integers with sum at most `s` (as f64, exact while small).
fn multisets_with_sum_at_most(k: usize, s: u64) -> f64 {
    if s > 1_000_000 || k > 4096 {
        return f64::INFINITY;
    }
    // p(n, j), partitions of n into exactly j positive parts: p(n, j) = p(n-1, j-1) + p(n-j, j).
    let s = s as usize;
    let mut prev = vec![0f64; s + 1];
    prev[0] = 1.0;
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

fn plan_chips(game: &dyn Game, req: &Request) -> Result<Plan> {
    let id = game.id();
    let b = req.bounds;
    let spread = game.table_bound() == TableBound::Spread;
    if b.heaps.is_some() {
        return Err(unsupported(format!(
            "--heaps sets the number of heaps of box games; {id} has its number of boxes in its name"
        )));
    }
    if req.method == Method::Engine {
        return Err(unsupported(format!(
            "the engine covers games on a box of entries; {id} is tabulated by search: leave out --method fast"
        )));
    }
    if matches!(req.resume, ResumeMode::Require | ResumeMode::Restart) {
        return Err(unsupported(format!(
            "{id} is tabulated by search, which keeps no checkpoints: leave out --resume and --restart"
        )));
    }
    if req.backend == Backend::Mpi {
        return Err(unsupported(if cfg!(feature = "mpi") {
            format!("--backend mpi computes engine P-sets of box games; {id} is tabulated by search in one process: use --backend cpu")
        } else {
            NO_MPI_FEATURE.into()
        }));
    }
    if req.backend == Backend::Gpu {
        return Err(unsupported(if cfg!(feature = "gpu") {
            format!("--backend gpu computes the engine's P-sets and Grundy values of box games; {id} is tabulated by search on the CPU: use --backend cpu")
        } else {
            NO_GPU_FEATURE.into()
        }));
    }
    let (domain, bound, flag) = if spread {
        if b.max_sum.is_some() {
            return Err(unsupported(format!(
                "{id} is bounded by max - min: use --max H, not --max-sum"
            )));
        }
        let Some(h) = b.max else {
            return Err(unsupported(format!(
                "table {id} needs --max H (the largest max - min)"
            )));
        };
        (Domain::Spread { max: h }, h, "--max")
    } else {
        if b.max.is_some() {
            return Err(unsupported(format!(
                "{id} is bounded by its total number of chips: use --max-sum S, not --max"
            )));
        }
        let Some(s) = b.max_sum else {
            return Err(unsupported(format!(
                "table {id} needs --max-sum S (the most chips in all)"
            )));
        };
        (Domain::Chips { max_sum: s }, s, "--max-sum")
    };
    let k = chip::boxes_of(game).unwrap_or(1);
    let count = if spread {
        multisets_bounded(k.saturating_sub(1), bound)
    } else {
        multisets_with_sum_at_most(k, bound)
    };
    if count > CHIP_POSITIONS {
        return Err(Error::TooLarge(format!(
            "table {id} with {flag} {bound} has about {count:.1e} positions, more than the {CHIP_POSITIONS:.0e} this search-based table accepts; use a smaller bound"
        )));
    }
    let positions = chip::table_positions(game, bound).unwrap_or_default();
    let steps = positions.last().map_or(0.0, |last| {
        positions.len() as f64 * game.branching_bound(last).max(1.0)
    });
    if steps > req.limit {
        return Err(Error::TooLarge(format!(
            "tabulating {id} with {flag} {bound} may visit about {steps:.1e} options ({} positions), above the limit of {:.1e}; pass --limit {} to run it anyway",
            positions.len(),
            req.limit,
            nimlab_core::solver::limit_above(steps)
        )));
    }
    let key = Key {
        game: id.clone(),
        family: String::new(),
        params: String::new(),
        lo: 0,
        hi: bound,
        lengths: if spread { "spread" } else { "chips" }.into(),
        play: req.play.name().into(),
        kind: kind_name(req.kind).into(),
    };
    Ok(Plan {
        game: id,
        domain,
        play: req.play,
        kind: req.kind,
        route: Route::Search,
        backend: Backend::Cpu,
        positions: positions.len() as f64,
        steps,
        key,
        remoteness: req.remoteness,
        bounds: b,
        limit: req.limit,
        resume: ResumeMode::Off,
        chip_positions: Some(positions),
    })
}

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::PSet => "pset",
        Kind::Grundy => "grundy",
    }
}

fn box_key(game: &dyn Game, d: &BoxDomain, play: Play, kind: Kind) -> Key {
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
        kind: kind_name(kind).to_string(),
    }
}

/// `--resume` and `--restart` apply to engine tables computed on the CPU.
fn check_resume(req: &Request, p: &Plan) -> Result<()> {
    if !matches!(req.resume, ResumeMode::Require | ResumeMode::Restart) || p.keeps_checkpoints() {
        return Ok(());
    }
    Err(unsupported(format!(
        "checkpoints are kept for engine tables computed on the CPU; {}: leave out --resume and --restart",
        if p.route == Route::Search {
            format!("{} with --max {} is tabulated by the plain search", p.game, p.bounds.max.unwrap_or(0))
        } else {
            "this one goes to the GPU (use --backend cpu)".to_string()
        }
    )))
}

/// `--remoteness` searches every position of the domain: refused up front when that is too much.
fn check_remoteness(game: &dyn Game, p: &Plan) -> Result<()> {
    if !p.remoteness {
        return Ok(());
    }
    let est = match &p.domain {
        Domain::Box(d) => {
            let mid = vec![(d.lo + d.hi) / 2; *d.lengths.last().unwrap_or(&0)];
            d.size_f64() * game.branching_bound(&mid).max(1.0)
        }
        _ => p.steps,
    };
    if est > p.limit {
        return Err(Error::TooLarge(format!(
            "--remoteness searches the whole box: about {est:.1e} option visits, above the limit of {:.1e}; use a smaller --max or pass --limit {}",
            p.limit,
            nimlab_core::solver::limit_above(est)
        )));
    }
    Ok(())
}

impl Plan {
    /// The plan of a stored table (to export it), from its store entry.
    pub fn of_entry(game: &dyn Game, e: &Entry) -> Result<Plan> {
        let play = if e.key.play == "misere" {
            Play::Misere
        } else {
            Play::Normal
        };
        let kind = if e.key.kind == "grundy" {
            Kind::Grundy
        } else {
            Kind::PSet
        };
        let (domain, chip_positions, bounds) = match e.key.lengths.as_str() {
            "chips" | "spread" => {
                let positions = chip::table_positions(game, e.key.hi).ok_or_else(|| {
                    unsupported(format!("stored table {} is not a chip-game table", e.id))
                })?;
                if e.key.lengths == "chips" {
                    let b = Bounds {
                        max_sum: Some(e.key.hi),
                        ..Bounds::default()
                    };
                    (Domain::Chips { max_sum: e.key.hi }, Some(positions), b)
                } else {
                    let b = Bounds {
                        max: Some(e.key.hi),
                        ..Bounds::default()
                    };
                    (Domain::Spread { max: e.key.hi }, Some(positions), b)
                }
            }
            l => {
                let lengths: Vec<usize> = l.split(',').filter_map(|x| x.parse().ok()).collect();
                let d = BoxDomain {
                    lengths,
                    lo: e.key.lo,
                    hi: e.key.hi,
                };
                let b = Bounds {
                    max: Some(e.key.hi),
                    ..Bounds::default()
                };
                (Domain::Box(d), None, b)
            }
        };
        Ok(Plan {
            game: e.key.game.clone(),
            positions: e.positions_in_box as f64,
            domain,
            play,
            kind,
            route: Route::Search,
            backend: Backend::Cpu,
            steps: 0.0,
            key: e.key.clone(),
            remoteness: false,
            bounds,
            limit: f64::INFINITY,
            resume: ResumeMode::Off,
            chip_positions,
        })
    }

    /// True when this table is computed by the CPU engine, which keeps checkpoints.
    pub fn keeps_checkpoints(&self) -> bool {
        matches!(self.route, Route::Engine(_))
            && matches!(self.backend, Backend::Cpu | Backend::Mpi)
            && self.resume != ResumeMode::Off
    }

    /// The command that computes (or continues) this table.
    pub fn command(&self) -> String {
        let mut c = format!("nimlab table '{}'", self.game);
        if let Some(m) = self.bounds.max {
            c += &format!(" --max {m}");
        }
        if let Some(h) = self.bounds.heaps {
            c += &format!(" --heaps {h}");
        }
        if self.play == Play::Misere {
            c += " --misere";
        }
        if self.kind == Kind::Grundy {
            c += " --grundy";
        }
        c
    }

    /// True for chip-game tables (multisets, printed in Ferguson's notation).
    pub fn is_chips(&self) -> bool {
        self.chip_positions.is_some()
    }

    /// Calls `f` with every position of the domain, in table order (the order of Grundy values).
    pub fn for_each_position(&self, f: &mut dyn FnMut(&[u64])) {
        match (&self.domain, &self.chip_positions) {
            (Domain::Box(d), _) => {
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
            (_, Some(ps)) => ps.iter().for_each(|p| f(p)),
            _ => {}
        }
    }

    /// The longest position of the domain (CSV columns).
    pub fn width(&self) -> usize {
        match (&self.domain, &self.chip_positions) {
            (Domain::Box(d), _) => d.lengths.iter().copied().max().unwrap_or(0),
            (_, Some(ps)) => ps.iter().map(|p| p.len()).max().unwrap_or(0),
            _ => 0,
        }
    }
}

/// A solved table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Solved {
    PSet {
        /// P-positions as ordered tuples (`None`: too many to count in 128 bits).
        count: Option<u128>,
        /// P-positions up to symmetry (multisets for chip games).
        canonical_count: u64,
        /// Box games: (length, ordered count, canonical count) per length.
        by_length: Vec<(usize, u64, u64)>,
        /// The canonical P-positions, encoded by [`store::encode_positions`].
        data: Vec<u8>,
    },
    Grundy {
        /// The value of every position, in the order of [`Plan::for_each_position`].
        values: Vec<u16>,
    },
}

impl Solved {
    /// The listed (canonical) P-positions.
    pub fn positions(&self) -> Vec<Pos> {
        match self {
            Solved::PSet { data, .. } => store::decode_positions(data),
            Solved::Grundy { .. } => Vec::new(),
        }
    }

    /// How many positions have each value (Grundy tables).
    pub fn histogram(&self) -> Vec<u64> {
        let Solved::Grundy { values } = self else {
            return Vec::new();
        };
        let max = values.iter().copied().max().unwrap_or(0) as usize;
        let mut h = vec![0u64; max + 1];
        for &v in values {
            h[v as usize] += 1;
        }
        h
    }
}

/// Where a table came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Read from the store (table `id`).
    Store,
    /// Computed by the bit-parallel engine.
    Engine,
    /// Computed by the plain search (named `naive`, as `--method naive`).
    Search,
}

impl Source {
    pub fn name(self) -> &'static str {
        match self {
            Source::Store => "store",
            Source::Engine => "engine",
            Source::Search => "naive",
        }
    }
}

/// A solved table and where it came from.
#[derive(Debug, Clone)]
pub struct Answer {
    pub solved: Solved,
    pub source: Source,
    /// Seconds the computation took (for a stored table: when it was solved).
    pub seconds: f64,
    /// The store id it was read from or saved under.
    pub store_id: Option<i64>,
    /// Why the table was not saved, when the store failed.
    pub store_error: Option<String>,
    /// With `--remoteness`: (remoteness, suspense) of each listed P-position, in order.
    pub listed: Option<Vec<(u64, u64)>>,
    /// The back end that computed it ("cpu", "gpu" or "mpi"; none for a stored table), the GPU
    /// adapter, and the number of MPI ranks.
    pub backend: Option<&'static str>,
    pub adapter: Option<String>,
    pub ranks: Option<usize>,
    /// The checkpoint it was continued from.
    pub resumed: Option<checkpoint::Header>,
    /// Why checkpoints could not be written (the table was computed anyway).
    pub checkpoint_error: Option<String>,
}

/// Looks the planned table up in `store`, else computes it and saves it there.
pub fn run(
    game: &dyn Game,
    plan: &Plan,
    store: Option<&mut Store>,
    hooks: Hooks,
) -> Result<Answer> {
    let from = match store.as_deref() {
        Some(s) if plan.keeps_checkpoints() && s.find(&plan.key).ok().flatten().is_none() => {
            open_checkpoint(plan, s)?
        }
        _ => None,
    };
    run_from(game, plan, store, hooks, from)
}

/// A checkpoint opened for resuming, checked (checksum, key, engine version).
pub struct Resumption {
    pub path: std::path::PathBuf,
    pub header: checkpoint::Header,
    reader: Box<dyn std::io::Read>,
}

/// The checkpoint file of the planned table, if the plan keeps checkpoints and a store is given.
pub fn checkpoint_path(plan: &Plan, store: &Store) -> Option<std::path::PathBuf> {
    plan.keeps_checkpoints()
        .then(|| checkpoint::file_of(store.path(), &plan.key))
}

/// Opens the checkpoint of the planned table for resuming (`None` when there is none, or with
/// `--restart`, which removes it). A damaged or foreign checkpoint is refused with one line that
/// says how to discard it; `--resume` without a checkpoint is refused.
pub fn open_checkpoint(plan: &Plan, store: &Store) -> Result<Option<Resumption>> {
    let Some(path) = checkpoint_path(plan, store) else {
        if plan.resume == ResumeMode::Require {
            return Err(unsupported(
                "--resume continues a table from its checkpoint, kept next to the store: give a store (--db PATH), not --no-store".into(),
            ));
        }
        return Ok(None);
    };
    if plan.resume == ResumeMode::Restart {
        match std::fs::remove_file(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                return Err(Error::io(
                    format!("removing the checkpoint {}", path.display()),
                    e,
                ))
            }
        }
        return Ok(None);
    }
    if !path.exists() {
        if plan.resume == ResumeMode::Require {
            return Err(unsupported(format!(
                "--resume: no checkpoint of this table (looked for {}); leave out --resume to start it",
                path.display()
            )));
        }
        return Ok(None);
    }
    match checkpoint::open(&path, &checkpoint::key_text(&plan.key), ENGINE_VERSION) {
        Ok((header, reader)) => Ok(Some(Resumption {
            path,
            header,
            reader,
        })),
        Err(refusal) => Err(unsupported(format!(
            "{refusal}; it was not used: rerun with --restart to discard it and start over"
        ))),
    }
}

/// [`run`] from a checkpoint opened by [`open_checkpoint`] (or from the start).
pub fn run_from(
    game: &dyn Game,
    plan: &Plan,
    store: Option<&mut Store>,
    hooks: Hooks,
    from: Option<Resumption>,
) -> Result<Answer> {
    run_on(&Solo, game, plan, store, hooks, from)
}

/// [`run_from`] on rank 0 of `cluster` (the plan's back end is [`Backend::Mpi`]); the other ranks
/// run [`work_for_rank_0`] at the same time. Rank 0 first tells them whether there is work: none
/// when the table is in the store, and none when this call fails before computing.
pub fn run_on(
    cluster: &dyn Cluster,
    game: &dyn Game,
    plan: &Plan,
    store: Option<&mut Store>,
    hooks: Hooks,
    from: Option<Resumption>,
) -> Result<Answer> {
    let stored = match store.as_deref() {
        Some(s) => s
            .find(&plan.key)
            .map_err(|e| Error::store("looking up the table", e))
            .map(|e| e.is_some()),
        None => Ok(false),
    };
    if cluster.size() > 1 {
        tell_ranks(cluster, plan, matches!(stored, Ok(false)));
    }
    stored?;
    run_inner(cluster, game, plan, store, hooks, from)
}

/// Rank 0's word to the other ranks: [1 = compute, 0 = nothing to do] and the table's key.
fn tell_ranks(cluster: &dyn Cluster, plan: &Plan, go: bool) {
    let mut m = vec![go as u8];
    m.extend_from_slice(checkpoint::key_text(&plan.key).as_bytes());
    cluster.broadcast(Topic::Control, m);
}

/// Tells the other ranks of `cluster` that rank 0 stopped before computing (it found an error
/// before calling [`run_on`]).
pub fn tell_ranks_stop(cluster: &dyn Cluster, plan: &Plan) {
    tell_ranks(cluster, plan, false)
}

/// The share of a rank other than 0 in a distributed table ([`run_on`] on rank 0): waits for rank
/// 0's word, then computes with it. Returns false when rank 0 said there is nothing to do; an
/// error when rank 0 planned another table (the ranks were started with different arguments).
pub fn work_for_rank_0(
    cluster: &dyn Cluster,
    game: &dyn Game,
    plan: &Plan,
    hooks: Hooks,
) -> Result<bool> {
    let m = cluster.broadcast(Topic::Control, Vec::new());
    let key = checkpoint::key_text(&plan.key);
    if m.get(1..) != Some(key.as_bytes()) {
        return Err(unsupported(format!(
            "rank {} planned {key}, rank 0 another table: start every rank with the same arguments",
            cluster.rank()
        )));
    }
    if m[0] == 0 {
        return Ok(false);
    }
    let Domain::Box(domain) = &plan.domain else {
        unreachable!("an engine plan has a box domain")
    };
    compute_box(cluster, game, plan, domain, hooks, None, None)?;
    Ok(true)
}

fn run_inner(
    cluster: &dyn Cluster,
    game: &dyn Game,
    plan: &Plan,
    store: Option<&mut Store>,
    hooks: Hooks,
    from: Option<Resumption>,
) -> Result<Answer> {
    if let Some(s) = store.as_deref() {
        if let Some(e) = s
            .find(&plan.key)
            .map_err(|e| Error::store("looking up the table", e))?
        {
            if let Some(p) = checkpoint_path(plan, s) {
                // A run that stopped between saving the table and removing its checkpoint.
                let _ = std::fs::remove_file(p);
            }
            let mut a = load(s, plan, &e)?;
            a.listed = listed_values(game, plan, &a.solved)?;
            return Ok(a);
        }
    }
    let mut saver = store
        .as_deref()
        .and_then(|s| checkpoint_path(plan, s))
        .map(|path| {
            checkpoint::File1::new(
                path,
                checkpoint::key_text(&plan.key),
                ENGINE_VERSION.to_string(),
                plan.command(),
                checkpoint::Policy::from_env(),
            )
        });
    let resumed = from.as_ref().map(|r| r.header.clone());
    if let (Some(s), Some(h)) = (saver.as_mut(), &resumed) {
        s.seconds_before = h.seconds;
    }
    let start = Instant::now();
    let computed = compute(
        cluster,
        game,
        plan,
        hooks,
        saver.as_mut(),
        from.map(|r| r.reader),
    );
    let mut checkpoint_error = saver.as_mut().and_then(|s| {
        s.finish();
        s.error.take()
    });
    // Interrupted: the checkpoint (written on the way out) stays for the next run.
    let (solved, adapter) = computed?;
    let seconds = start.elapsed().as_secs_f64() + resumed.as_ref().map_or(0.0, |h| h.seconds);
    let source = match plan.route {
        Route::Engine(_) => Source::Engine,
        Route::Search => Source::Search,
    };
    let (mut store_id, mut store_error) = (None, None);
    if let Some(s) = store {
        match save(s, plan, &solved, seconds, adapter.is_some()) {
            Ok(id) => {
                store_id = Some(id);
                if let Some(c) = saver.as_mut() {
                    c.remove();
                }
            }
            Err(e) => store_error = Some(e.to_string()),
        }
    }
    if checkpoint_error.is_some() && store_id.is_some() {
        // The table is complete: a checkpoint that could not be written no longer matters.
        checkpoint_error = None;
    }
    let listed = listed_values(game, plan, &solved)?;
    Ok(Answer {
        solved,
        source,
        seconds,
        store_id,
        store_error,
        listed,
        backend: Some(if adapter.is_some() {
            "gpu"
        } else if plan.backend == Backend::Mpi {
            "mpi"
        } else {
            "cpu"
        }),
        adapter,
        ranks: (plan.backend == Backend::Mpi).then(|| cluster.size()),
        resumed,
        checkpoint_error,
    })
}

/// A stored table, read whole.
pub fn load(s: &Store, plan: &Plan, e: &Entry) -> Result<Answer> {
    let data = s
        .data(e.id)
        .map_err(|err| Error::store(format!("reading table {}", e.id), err))?;
    let details: serde_json::Value = serde_json::from_str(&e.details).unwrap_or_default();
    let solved = match plan.kind {
        Kind::Grundy => Solved::Grundy {
            values: store::decode_values(&data),
        },
        Kind::PSet => {
            let count = if plan.is_chips() {
                details
                    .get("count")
                    .and_then(|c| c.as_str())
                    .and_then(|c| c.parse().ok())
            } else {
                Some(e.count as u128)
            };
            Solved::PSet {
                count,
                canonical_count: e.canonical_count,
                by_length: serde_json::from_value(details).unwrap_or_default(),
                data,
            }
        }
    };
    Ok(Answer {
        solved,
        source: Source::Store,
        seconds: e.seconds,
        store_id: Some(e.id),
        store_error: None,
        listed: None,
        backend: None,
        adapter: None,
        ranks: None,
        resumed: None,
        checkpoint_error: None,
    })
}

/// Computes the table; with the GPU adapter's name when the GPU computed it.
fn compute(
    cluster: &dyn Cluster,
    game: &dyn Game,
    plan: &Plan,
    hooks: Hooks,
    saver: Option<&mut checkpoint::File1>,
    from: Option<Box<dyn Read>>,
) -> Result<(Solved, Option<String>)> {
    if let Some(positions) = &plan.chip_positions {
        return Ok((compute_chips(game, plan, positions, hooks)?, None));
    }
    let Domain::Box(domain) = &plan.domain else {
        unreachable!("a box plan has a box domain")
    };
    #[cfg(feature = "gpu")]
    if matches!(plan.backend, Backend::Auto | Backend::Gpu) {
        if let Some(done) = gpu_backend::compute(game, plan, domain, hooks)? {
            return Ok(done);
        }
    }
    Ok((
        compute_box(cluster, game, plan, domain, hooks, saver, from)?,
        None,
    ))
}

/// Marks this layer's section of a checkpoint.
const TAG_PLAN: u64 = 0x504c_414e_0001;

fn stopped(s: Stop) -> Error {
    match s {
        Stop::Interrupted => Error::Interrupted,
        Stop::Damaged(s) => unsupported(format!(
            "{s}; it was not used: rerun with --restart to discard it and start over"
        )),
    }
}

fn compute_box(
    cluster: &dyn Cluster,
    game: &dyn Game,
    plan: &Plan,
    domain: &BoxDomain,
    hooks: Hooks,
    saver: Option<&mut checkpoint::File1>,
    from: Option<Box<dyn Read>>,
) -> Result<Solved> {
    let r = domain.radix() as usize;
    let mut from = from;
    // This layer's section: the encoded canonical P-positions listed so far (P-sets).
    let data = RefCell::new(Vec::new());
    if let Some(rd) = from.as_deref_mut() {
        let d = (|| -> std::io::Result<Vec<u8>> {
            checkpoint::expect(rd, TAG_PLAN, "section")?;
            checkpoint::get_bytes(rd, usize::MAX >> 1)
        })()
        .map_err(|e| {
            stopped(Stop::Damaged(format!(
                "the checkpoint does not fit this table ({e})"
            )))
        })?;
        *data.borrow_mut() = d;
    }
    let head = |w: &mut dyn std::io::Write| {
        checkpoint::put_u64(w, TAG_PLAN)?;
        checkpoint::put_bytes(w, &data.borrow())
    };
    let mut layer = saver.map(|inner| Layer {
        inner,
        head: &head,
        base: 0,
        total: None,
        stage: String::new(),
    });
    macro_rules! resume {
        () => {
            Resume {
                saver: layer.as_mut().map(|l| l as &mut dyn Saver),
                from: from.as_deref_mut().map(|r| r as &mut dyn Read),
            }
        };
    }
    Ok(match (plan.kind, &plan.route) {
        (Kind::Grundy, Route::Engine(Rules::Windows { m, windows })) => Solved::Grundy {
            values: grundy::solve_resumable(*m, r, windows, hooks, resume!()).map_err(stopped)?,
        },
        (Kind::Grundy, Route::Engine(Rules::Shrinking { n, k })) => Solved::Grundy {
            values: grundy::solve_shrinking_resumable(*n, *k, r, hooks, resume!())
                .map_err(stopped)?,
        },
        (Kind::Grundy, Route::Search) => Solved::Grundy {
            values: grundy_values(game, domain, hooks)?,
        },
        (Kind::PSet, Route::Engine(_)) => {
            let s = pset::tabulate_on(
                cluster,
                game,
                domain,
                plan.play,
                hooks,
                &mut |p| store::encode_positions(&mut data.borrow_mut(), p),
                resume!(),
            )
            .map_err(stopped)?;
            drop(layer);
            Solved::PSet {
                count: Some(s.count as u128),
                canonical_count: s.canonical_count,
                by_length: s.by_length,
                data: data.into_inner(),
            }
        }
        (Kind::PSet, Route::Search) => {
            let t = tabulate(
                game,
                domain,
                &TableRun {
                    play: plan.play,
                    keep_positions: true,
                    hooks,
                },
            )?;
            let mut data = Vec::new();
            for p in &t.positions {
                store::encode_positions(&mut data, p);
            }
            Solved::PSet {
                count: Some(t.count as u128),
                canonical_count: t.canonical_count,
                by_length: t.by_length,
                data,
            }
        }
    })
}

/// Number of distinct orderings of a sorted multiset, if it fits in 128 bits.
fn orderings(p: &[u64]) -> Option<u128> {
    let mut result: u128 = 1;
    let mut placed: u128 = 0;
    let mut run: u128 = 0;
    for (i, &x) in p.iter().enumerate() {
        run = if i > 0 && p[i - 1] == x { run + 1 } else { 1 };
        placed += 1;
        // result * placed / run stays an integer (the multinomial built one element at a time).
        result = result.checked_mul(placed)? / run;
    }
    Some(result)
}

fn compute_chips(game: &dyn Game, plan: &Plan, positions: &[Pos], hooks: Hooks) -> Result<Solved> {
    let mut solver = Solver::new(game);
    let total = positions.len() as u64;
    let mut values = Vec::new();
    let mut data = Vec::new();
    let (mut ordered, mut canonical) = (Some(0u128), 0u64);
    for (i, p) in positions.iter().enumerate() {
        if i % 1024 == 0 {
            if hooks.cancelled() {
                return Err(Error::Interrupted);
            }
            hooks.report(i as u64, total);
        }
        if plan.kind == Kind::Grundy {
            let g = solver.grundy(p)?;
            values.push(u16::try_from(g).map_err(|_| {
                unsupported(format!(
                    "{}: a Grundy value reaches {g}, beyond what the table stores",
                    plan.game
                ))
            })?);
        } else if solver.outcome(p, plan.play)?.is_p() {
            ordered = ordered.and_then(|o| orderings(p).and_then(|c| o.checked_add(c)));
            canonical += 1;
            store::encode_positions(&mut data, p);
        }
    }
    Ok(match plan.kind {
        Kind::Grundy => Solved::Grundy { values },
        Kind::PSet => Solved::PSet {
            count: ordered,
            canonical_count: canonical,
            by_length: Vec::new(),
            data,
        },
    })
}

fn save(s: &mut Store, plan: &Plan, solved: &Solved, seconds: f64, on_gpu: bool) -> Result<i64> {
    let engine = match plan.route {
        Route::Engine(_) if on_gpu => format!("gpu-{ENGINE_VERSION}"),
        Route::Engine(_) => ENGINE_VERSION.to_string(),
        Route::Search => format!("naive-{}", env!("CARGO_PKG_VERSION")),
    };
    let r = match solved {
        Solved::PSet {
            count,
            canonical_count,
            by_length,
            data,
        } => {
            let details = if plan.is_chips() {
                serde_json::json!({"count": count.map(|c| c.to_string())})
            } else {
                serde_json::json!(by_length)
            };
            s.save(
                &plan.key,
                &engine,
                count.map_or(u64::MAX, |c| c.min(i64::MAX as u128) as u64),
                *canonical_count,
                &details.to_string(),
                plan.positions as u64,
                seconds,
                data,
            )
        }
        Solved::Grundy { values } => {
            let h = solved.histogram();
            s.save(
                &plan.key,
                &engine,
                h.first().copied().unwrap_or(0),
                0,
                &serde_json::json!(h).to_string(),
                plan.positions as u64,
                seconds,
                &store::encode_values(values),
            )
        }
    };
    r.map_err(|e| Error::store("saving the table", e))
}

/// Remoteness and suspense of each listed P-position (with `--remoteness`), by full search with one
/// memo for the whole list (the plan refused it up front when too large).
fn listed_values(game: &dyn Game, plan: &Plan, solved: &Solved) -> Result<Option<Vec<(u64, u64)>>> {
    if !plan.remoteness {
        return Ok(None);
    }
    let mut solver = Solver::new(game);
    solved
        .positions()
        .iter()
        .map(|p| {
            let f = solver.full(p)?;
            Ok((f.remoteness(plan.play), f.suspense(plan.play)))
        })
        .collect::<Result<Vec<_>>>()
        .map(Some)
}

/// The GPU route of [`compute`].
#[cfg(feature = "gpu")]
mod gpu_backend {
    use super::{gpu_error, Backend, Kind, Plan, Solved};
    use crate::{gpu, store};
    use nimlab_core::{BoxDomain, Error, Game, Hooks, Result};

    /// The P-set or Grundy values on the GPU, or `None` when `--backend auto` finds no hardware adapter (the CPU then
    /// computes it). `--backend gpu` without an adapter is an error naming the fix.
    pub(super) fn compute(
        game: &dyn Game,
        plan: &Plan,
        domain: &BoxDomain,
        hooks: Hooks,
    ) -> Result<Option<(Solved, Option<String>)>> {
        let dev = match (gpu::Device::open(), plan.backend) {
            (Ok(d), Backend::Gpu) => d,
            (Ok(d), _) if !d.is_cpu() => d,
            (Err(e), Backend::Gpu) => return Err(Error::Unsupported(e.to_string())),
            // Auto: no adapter, or only a driver that runs on the CPU.
            _ => return Ok(None),
        };
        let solved = if plan.kind == Kind::Grundy {
            let values = gpu::grundy(&dev, game, domain, &gpu::Options::default(), hooks);
            match values {
                Ok(values) => Solved::Grundy { values },
                Err(gpu::GpuError::TooLarge(_)) if plan.backend == Backend::Auto => {
                    return Ok(None)
                }
                Err(e) => return Err(gpu_error(e)),
            }
        } else {
            let mut data = Vec::new();
            let s = gpu::tabulate(
                &dev,
                game,
                domain,
                plan.play,
                &gpu::Options::default(),
                hooks,
                &mut |p| store::encode_positions(&mut data, p),
            );
            let s = match s {
                Ok(s) => s,
                // Auto: a box beyond this adapter's bindings or the 32-bit ranks goes to the CPU.
                Err(gpu::GpuError::TooLarge(_)) if plan.backend == Backend::Auto => {
                    return Ok(None)
                }
                Err(e) => return Err(gpu_error(e)),
            };
            Solved::PSet {
                count: Some(s.count as u128),
                canonical_count: s.canonical_count,
                by_length: s.by_length,
                data,
            }
        };
        Ok(Some((solved, Some(dev.adapter()))))
    }
}

#[cfg(feature = "gpu")]
fn gpu_error(e: crate::gpu::GpuError) -> Error {
    match e {
        crate::gpu::GpuError::Interrupted => Error::Interrupted,
        crate::gpu::GpuError::TooLarge(s) => Error::TooLarge(s),
        e => Error::Unsupported(e.to_string()),
    }
}
