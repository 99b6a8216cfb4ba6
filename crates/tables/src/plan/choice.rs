//! The plan of a table: its domain, route (engine or search) and back end, the cost estimate and
//! the refusals (inapplicable options, over the budget or the memory), and its store key.

use super::request::{
    Backend, Bounds, Request, ResumeMode, TableKind, TableMethod, AUTO_GPU_MAX_RADIX,
    AUTO_GPU_POSITIONS,
};
use super::unsupported;
use crate::grundy;
use crate::pset::{self, Rules};
use crate::store::{Entry, Key};
use nimlab_core::{Arg, BoxDomain, Error, Game, Play, Pos, Refusal, Result, TableBound};
use nimlab_games::chip;

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
    pub kind: TableKind,
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
    pub(super) limit: f64,
    /// What to do with checkpoints.
    pub resume: ResumeMode,
    /// The positions of a chip-game domain, in table order.
    pub(super) chip_positions: Option<Vec<Pos>>,
    /// A Grundy table whose values do not fit in memory with the engine's working set: the folder
    /// of the file they are kept in, mapped into memory ([`crate::values::Values::on_disk`]).
    pub values_on_disk: Option<std::path::PathBuf>,
}

const GIB: f64 = (1u64 << 30) as f64;
/// Largest Grundy table the plain search or the GPU keeps in memory (positions).
const GRUNDY_POSITIONS: f64 = 1.0e9;
/// Largest chip-game table (positions).
const CHIP_POSITIONS: f64 = 2.0e7;

/// Plans a table of `game`, or refuses it with one line saying why.
pub fn plan(game: &dyn Game, req: &Request) -> Result<Plan> {
    let id = game.id();
    if req.kind == TableKind::Grundy && req.play == Play::Misere {
        return Err(Error::refused(
            Refusal::new("")
                .given(Arg::Grundy)
                .text(" gives normal-play values; leave out ")
                .given(Arg::Misere),
        ));
    }
    if req.kind == TableKind::Grundy && req.remoteness {
        return Err(Error::refused(
            Refusal::new("")
                .given(Arg::Remoteness)
                .text(" adds values to listed P-positions; it does not combine with ")
                .given(Arg::Grundy),
        ));
    }
    match game.table_bound() {
        // A game without a bound may say why in `table_domain`'s error (octal games that split
        // heaps point to `nimlab sequence`); the default error says only that there is no box.
        TableBound::None => Err(game
            .table_domain(0, None)
            .err()
            .filter(|e| match e {
                Error::Unsupported(m) => !m.ends_with("has no box tabulation"),
                Error::Refused(_) => true,
                _ => false,
            })
            .unwrap_or_else(|| unsupported(format!("{id} cannot be tabulated")))),
        TableBound::Box { heaps } => plan_box(game, req, heaps),
        TableBound::TotalChips | TableBound::Spread => plan_chips(game, req),
    }
}

fn plan_box(game: &dyn Game, req: &Request, takes_heaps: bool) -> Result<Plan> {
    let id = game.id();
    let b = req.bounds;
    if b.max_sum.is_some() {
        return Err(Error::refused(
            Refusal::new("")
                .name(Arg::MaxSum)
                .text(format!(" bounds chip games; {id} takes "))
                .given(Arg::Max),
        ));
    }
    let Some(max) = b.max else {
        return Err(Error::refused(
            Refusal::new(format!("table {id} needs "))
                .given(Arg::Max)
                .text(" (the largest entry of the box)"),
        ));
    };
    if b.heaps.is_some() && !takes_heaps {
        let d = game.table_domain(max, None)?;
        return Err(Error::refused(Refusal::new("").name(Arg::Heaps).text(
            format!(
            " sets the number of heaps of games played on any number of them; {id} has {} stacks",
            d.lengths.iter().max().unwrap_or(&0)
        ),
        )));
    }
    let domain = game.table_domain(max, b.heaps)?;
    let rules = pset::rules_for(game, &domain);
    let route = match (req.method, &rules) {
        (TableMethod::Naive, _) | (TableMethod::Auto, None) => Route::Search,
        (_, Some(r)) => Route::Engine(r.clone()),
        (TableMethod::Engine, None) => {
            return Err(Error::refused(
                Refusal::new(format!(
                    "the engine does not cover {id}{} with ",
                    if req.kind == TableKind::Grundy {
                        " Grundy tables"
                    } else {
                        ""
                    }
                ))
                .value(Arg::Max, max)
                .text(if engine_covers_below(game, &domain) {
                    format!(
                        " (it takes boxes of at most {} values per entry)",
                        pset::MAX_RADIX
                    )
                } else {
                    String::new()
                })
                .text("; leave out ")
                .value(Arg::Method, "fast")
                .text(" or use ")
                .value(Arg::Method, "naive"),
            ))
        }
    };
    let total = domain.size_f64();
    let r = domain.radix() as f64;
    // Words in a line of the engine.
    let words = (domain.radix().div_ceil(64)) as f64;
    let grundy = req.kind == TableKind::Grundy;
    // A P-set on one process of a game every permutation of the stacks keeps: the sorted tuples.
    let sorted_pset = !grundy
        && matches!(route, Route::Engine(_))
        && matches!(req.backend, Backend::Cpu | Backend::Auto)
        && pset::is_sorted(game, &domain);
    // The engine costs about one word operation per (line, word of the line, window entry), the
    // plain search one option visit per option of each position.
    let steps = match &route {
        Route::Engine(Rules::Windows { m, windows }) if sorted_pset => {
            // One bit look-up per (sorted tuple, window entry).
            let per: usize = windows.iter().map(|w| w.len()).sum();
            grundy::computed_positions(*m, domain.radix() as usize, windows) * per as f64
        }
        Route::Engine(Rules::Windows { m, windows }) => {
            let per: usize = windows.iter().map(|w| w.len()).sum();
            if grundy && grundy::is_sorted(*m, domain.radix() as usize, windows) {
                // One class of the sorted tuples at a time, then one read a position.
                grundy::computed_positions(*m, domain.radix() as usize, windows) * per as f64
                    + total / 4.0
            } else if grundy {
                total * per as f64 / 4.0
            } else {
                total / r * words * per as f64 / 16.0
            }
        }
        Route::Engine(Rules::Shrinking { n, k }) => {
            let per = (*n as f64) * 2f64.powi(*k as i32);
            if grundy {
                total * (per + (n * k) as f64) / 4.0
            } else {
                total / r * words * per / 4.0
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
                "the engine covers {id} on boxes of at most {} values per entry; above that the plain search runs, and ",
                pset::MAX_RADIX
            )
        } else {
            String::new()
        };
        return Err(Error::too_large(
            Refusal::new(format!("{engine_note}tabulating {id} with "))
                .value(Arg::Max, max)
                .text(format!(
                    " may take about {steps:.1e} steps ({total:.1e} positions), above the limit of {:.1e}; pass ",
                    req.limit
                ))
                .value(Arg::Limit, nimlab_core::solver::limit_above(steps))
                .text(" to run it anyway"),
        ));
    }
    let backend = choose_backend(&id, req, &route, total, domain.radix())?;
    let values_on_disk = check_memory(&id, max, &route, backend, grundy, sorted_pset, &domain)?;
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
        values_on_disk,
    };
    check_remoteness(game, &p)?;
    check_resume(req, &p)?;
    Ok(p)
}

/// Refuses, before it starts, a table whose engine would need more memory than
/// [`crate::memory_allowed`], naming the amount: a P-set needs about a diagonal of blocks of lines
/// ([`pset::engine_bytes`]), or two tiers of sorted tuples ([`pset::sorted_bytes`], `sorted_pset`);
/// a Grundy table the Grundy engine's own estimate, which counts its values
/// (two bytes a position) once beside its value sets ([`grundy::windows_memory`],
/// [`grundy::shrinking_memory`]). When the values do not fit beside the value sets
/// ([`grundy::windows_sets_memory`]), a Grundy table of a window game keeps them in a file mapped
/// into memory ([`scratch_dir`]): the folder is returned. The plain search and the GPU keep Grundy
/// tables of at most [`GRUNDY_POSITIONS`]; boxes of [`grundy::MOST_POSITIONS`] or more are refused.
fn check_memory(
    id: &str,
    max: u64,
    route: &Route,
    backend: Backend,
    grundy: bool,
    sorted_pset: bool,
    domain: &BoxDomain,
) -> Result<Option<std::path::PathBuf>> {
    let (r, total) = (domain.radix() as usize, domain.size_f64());
    let threads = rayon::current_num_threads();
    let allowed = crate::memory_allowed();
    let here = |r: Refusal| {
        r.text(format!(
            "above the {:.1} GiB it may use here ({}); use a smaller ",
            allowed / GIB,
            crate::memory_allowed_source()
        ))
        .name(Arg::Max)
    };
    if grundy && matches!(route, Route::Engine(_)) && total >= grundy::MOST_POSITIONS {
        return Err(Error::too_large(
            Refusal::new(format!("a Grundy table of {id} with "))
                .value(Arg::Max, max)
                .text(format!(
                    " ({total:.1e} positions) is past the {:.0e} positions the Grundy engine lays out; use a smaller ",
                    grundy::MOST_POSITIONS
                ))
                .name(Arg::Max),
        ));
    }
    /// What the Grundy engine's value sets are, for messages.
    const SORTED_SETS: &str =
        "the value sets of two tiers of the sorted tuples, and one value for each sorted tuple";
    const SETS: &str = "one array of value sets per window that reaches across blocks, for the blocks of two diagonals, and each thread's rings of the other windows' sets";
    if let (true, Route::Engine(Rules::Windows { m, windows }), Backend::Cpu) =
        (grundy, route, backend)
    {
        let words = grundy::likely_words(*m, r);
        let sets = grundy::windows_sets_memory(*m, r, windows, words, threads);
        if sets > allowed {
            return Err(Error::too_large(
                Refusal::new(format!("a Grundy table of {id} with "))
                    .value(Arg::Max, max)
                    .text(format!(
                        " ({total:.1e} positions) needs about {} for the Grundy engine's value sets alone ({}), above the {} it may use here ({}); use a smaller ",
                        amount(sets),
                        if grundy::is_sorted(*m, r, windows) { SORTED_SETS } else { SETS },
                        amount(allowed),
                        crate::memory_allowed_source()
                    ))
                    .name(Arg::Max),
            ));
        }
        // The values beside them, or in a file past memory.
        let need = grundy::windows_memory(*m, r, windows, words, threads);
        return Ok((need > allowed).then(scratch_dir));
    }
    let need = match (grundy, route, backend) {
        (true, Route::Engine(Rules::Shrinking { n, k }), _) => Some((
            grundy::shrinking_memory(*n, *k, r, threads),
            "its values, two bytes a position (the shorter circles' twice), the value sets of the shorter circles' arcs and the Grundy engine's value sets",
        )),
        (true, Route::Engine(Rules::Windows { m, windows }), _) => {
            let words = grundy::likely_words(*m, r);
            Some((
                grundy::windows_memory(*m, r, windows, words, threads),
                "its values, two bytes a position, and the Grundy engine's value sets",
            ))
        }
        (false, Route::Engine(Rules::Windows { m, windows }), Backend::Cpu) if sorted_pset => {
            Some((pset::sorted_bytes(*m, r, windows.len()), ""))
        }
        (false, Route::Engine(rules), Backend::Cpu) => {
            Some((pset::engine_bytes(rules, r, threads), ""))
        }
        _ => None,
    };
    match need {
        Some((bytes, what)) if bytes > allowed && grundy => Err(Error::too_large(here(
            Refusal::new(format!("a Grundy table of {id} with "))
                .value(Arg::Max, max)
                .text(format!(
                    " ({total:.1e} positions) needs about {:.1} GiB ({what}), ",
                    bytes / GIB
                )),
        ))),
        Some((bytes, _)) if bytes > allowed => {
            let r = Refusal::new(format!(
                "the engine needs about {:.1} GiB of working memory to tabulate {id} with ",
                bytes / GIB
            ))
            .value(Arg::Max, max);
            let r = if sorted_pset {
                r.text(" (two tiers of the sorted tuples and the P classes found), ")
            } else {
                r.text(" (a diagonal of blocks of lines; ")
                    .value(Arg::Backend, "mpi")
                    .text(" shares it among ranks), ")
            };
            Err(Error::too_large(here(r)))
        }
        None if grundy && total > GRUNDY_POSITIONS => Err(Error::too_large(
            Refusal::new(format!(
                "a Grundy table of {total:.1e} positions by the plain search or the GPU is more than the {GRUNDY_POSITIONS:.0e} kept in memory; use a smaller "
            ))
            .name(Arg::Max),
        )),
        _ => Ok(None),
    }
}

/// Bytes in words: GiB with one decimal, or MiB below 1 GiB.
pub(super) fn amount(bytes: f64) -> String {
    if bytes >= GIB {
        format!("{:.1} GiB", bytes / GIB)
    } else {
        format!("{:.1} MiB", bytes / (1u64 << 20) as f64)
    }
}

/// Where Grundy values past memory are kept: `NIMLAB_SCRATCH`, else nimlab's folder in the user's
/// data directory (where the store lives by default), else the system's temporary folder.
pub fn scratch_dir() -> std::path::PathBuf {
    if let Some(d) = std::env::var_os("NIMLAB_SCRATCH").filter(|d| !d.is_empty()) {
        return d.into();
    }
    dirs::data_dir()
        .map(|d| d.join("nimlab"))
        .filter(|d| std::fs::create_dir_all(d).is_ok())
        .unwrap_or_else(std::env::temp_dir)
}

/// Most values per entry of a box whose P-set the GPU back end takes: lines of up to four 64-bit
/// words (`gpu/pset.wgsl` is compiled for the words a box needs).
pub const GPU_MAX_RADIX: u64 = 256;

/// Most values per entry of a box whose Grundy values the GPU back end takes (its own limit).
pub const GPU_MAX_GRUNDY_RADIX: u64 = 64;

/// The refusal of the GPU back end by a binary built without the feature.
pub fn no_gpu_feature() -> Refusal {
    Refusal::new("")
        .value(Arg::Backend, "gpu")
        .text(": this nimlab was built without the `gpu` feature; rebuild it with `cargo build --release -p nimlab-cli --features gpu`, or use ")
        .value(Arg::Backend, "cpu")
}

/// The refusal of the MPI back end by a binary built without the feature.
pub fn no_mpi_feature() -> Refusal {
    Refusal::new("")
        .value(Arg::Backend, "mpi")
        .text(": this nimlab was built without the `mpi` feature; install Open MPI and libclang (Debian: openmpi-bin libopenmpi-dev libclang-dev) and rebuild it with `cargo build --release -p nimlab-cli --features mpi`, or use ")
        .value(Arg::Backend, "cpu")
}

/// `text`, then "use" the CPU back end.
fn use_cpu(r: Refusal) -> Error {
    Error::refused(r.text(": use ").value(Arg::Backend, "cpu"))
}

/// Resolves the back end of a box table, refusing `--backend gpu` where it cannot run.
fn choose_backend(
    id: &str,
    req: &Request,
    route: &Route,
    positions: f64,
    radix: u64,
) -> Result<Backend> {
    // P-sets and Grundy values of window games and SCN (crate::gpu::covers), each up to its radix.
    let gpu_route = matches!(route, Route::Engine(_));
    let gpu_radix = if req.kind == TableKind::Grundy {
        radix <= GPU_MAX_GRUNDY_RADIX
    } else {
        radix <= GPU_MAX_RADIX
    };
    match req.backend {
        Backend::Cpu => Ok(Backend::Cpu),
        Backend::Mpi if !cfg!(feature = "mpi") => Err(Error::refused(no_mpi_feature())),
        Backend::Mpi if req.kind == TableKind::Grundy || !matches!(route, Route::Engine(_)) => {
            Err(use_cpu(Refusal::new("").value(Arg::Backend, "mpi").text(format!(
                " computes the engine's P-sets (CN, SCN, Nim, Moore's Nim, complexes); {}",
                if req.kind == TableKind::Grundy {
                    format!("Grundy tables of {id} are computed in one process")
                } else {
                    format!("{id} is tabulated by the plain search")
                }
            ))))
        }
        Backend::Mpi => Ok(Backend::Mpi),
        Backend::Gpu if !cfg!(feature = "gpu") => Err(Error::refused(no_gpu_feature())),
        Backend::Gpu if !gpu_route => Err(use_cpu(Refusal::new("").value(Arg::Backend, "gpu").text(format!(
            " computes the engine's P-sets and Grundy values (CN, SCN, Nim, Moore's Nim, complexes); {} on the CPU",
            if req.kind == TableKind::Grundy { format!("Grundy tables of {id} are computed") } else { format!("{id} is tabulated") }
        )))),
        Backend::Gpu if !gpu_radix => Err(use_cpu(Refusal::new("").value(Arg::Backend, "gpu").text(format!(
            " takes boxes of at most {GPU_MAX_RADIX} values per entry for P-sets and {GPU_MAX_GRUNDY_RADIX} for Grundy values (entries up to {} and {} from 0); this box has {radix}",
            GPU_MAX_RADIX - 1,
            GPU_MAX_GRUNDY_RADIX - 1
        )))),
        Backend::Gpu => Ok(Backend::Gpu),
        // Auto: P-sets of window games and SCN go to a GPU on their own (on an H200 they gained
        // 2.2x at 1.3e9 positions and 10x at 5.9e11, docs/benchmarks.md); Grundy values (value
        // sets of many words per position, brought back whole) run there only when asked for: on
        // the H200 they took about the CPU engine's time. Boxes of lines of one word only: wider
        // ones were not measured on a GPU.
        Backend::Auto
            if cfg!(feature = "gpu")
                && req.kind == TableKind::PSet
                && matches!(
                    route,
                    Route::Engine(Rules::Windows { .. } | Rules::Shrinking { .. })
                )
                && radix <= AUTO_GPU_MAX_RADIX
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
        return Err(Error::refused(Refusal::new("").name(Arg::Heaps).text(
            format!(
                " sets the number of heaps of box games; {id} has its number of boxes in its name"
            ),
        )));
    }
    if req.method == TableMethod::Engine {
        return Err(Error::refused(
            Refusal::new(format!(
                "the engine covers games on a box of entries; {id} is tabulated by search: leave out "
            ))
            .value(Arg::Method, "fast"),
        ));
    }
    if matches!(req.resume, ResumeMode::Require | ResumeMode::Restart) {
        return Err(Error::refused(
            Refusal::new(format!(
                "{id} is tabulated by search, which keeps no checkpoints: leave out "
            ))
            .given(Arg::Resume)
            .text(" and ")
            .given(Arg::Restart),
        ));
    }
    if req.backend == Backend::Mpi {
        return Err(if cfg!(feature = "mpi") {
            use_cpu(Refusal::new("").value(Arg::Backend, "mpi").text(format!(
                " computes engine P-sets of box games; {id} is tabulated by search in one process"
            )))
        } else {
            Error::refused(no_mpi_feature())
        });
    }
    if req.backend == Backend::Gpu {
        return Err(if cfg!(feature = "gpu") {
            use_cpu(Refusal::new("").value(Arg::Backend, "gpu").text(format!(
                " computes the engine's P-sets and Grundy values of box games; {id} is tabulated by search on the CPU"
            )))
        } else {
            Error::refused(no_gpu_feature())
        });
    }
    let (domain, bound, flag) = if spread {
        if b.max_sum.is_some() {
            return Err(Error::refused(
                Refusal::new(format!("{id} is bounded by max - min: use "))
                    .given(Arg::Max)
                    .text(", not ")
                    .name(Arg::MaxSum),
            ));
        }
        let Some(h) = b.max else {
            return Err(Error::refused(
                Refusal::new(format!("table {id} needs "))
                    .given(Arg::Max)
                    .text(" (the largest max - min)"),
            ));
        };
        (Domain::Spread { max: h }, h, Arg::Max)
    } else {
        if b.max.is_some() {
            return Err(Error::refused(
                Refusal::new(format!(
                    "{id} is bounded by its total number of chips: use "
                ))
                .given(Arg::MaxSum)
                .text(", not ")
                .name(Arg::Max),
            ));
        }
        let Some(s) = b.max_sum else {
            return Err(Error::refused(
                Refusal::new(format!("table {id} needs "))
                    .given(Arg::MaxSum)
                    .text(" (the most chips in all)"),
            ));
        };
        (Domain::Chips { max_sum: s }, s, Arg::MaxSum)
    };
    let k = chip::boxes_of(game).unwrap_or(1);
    let count = if spread {
        multisets_bounded(k.saturating_sub(1), bound)
    } else {
        multisets_with_sum_at_most(k, bound)
    };
    if count > CHIP_POSITIONS {
        return Err(Error::too_large(
            Refusal::new(format!("table {id} with "))
                .value(flag, bound)
                .text(format!(
                    " has about {count:.1e} positions, more than the {CHIP_POSITIONS:.0e} this search-based table accepts; use a smaller bound"
                )),
        ));
    }
    let positions = chip::table_positions(game, bound).unwrap_or_default();
    let steps = positions.last().map_or(0.0, |last| {
        positions.len() as f64 * game.branching_bound(last).max(1.0)
    });
    if steps > req.limit {
        return Err(Error::too_large(
            Refusal::new(format!("tabulating {id} with "))
                .value(flag, bound)
                .text(format!(
                    " may visit about {steps:.1e} options ({} positions), above the limit of {:.1e}; pass ",
                    positions.len(),
                    req.limit
                ))
                .value(Arg::Limit, nimlab_core::solver::limit_above(steps))
                .text(" to run it anyway"),
        ));
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
        values_on_disk: None,
    })
}

fn kind_name(k: TableKind) -> &'static str {
    match k {
        TableKind::PSet => "pset",
        TableKind::Grundy => "grundy",
    }
}

fn box_key(game: &dyn Game, d: &BoxDomain, play: Play, kind: TableKind) -> Key {
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
    let r = Refusal::new(
        "checkpoints are kept for engine tables computed on the CPU and SCN P-sets on the GPU; ",
    );
    let r = if p.route == Route::Search {
        r.text(format!("{} with ", p.game))
            .value(Arg::Max, p.bounds.max.unwrap_or(0))
            .text(" is tabulated by the plain search")
    } else {
        r.text("this one goes to the GPU (use ")
            .value(Arg::Backend, "cpu")
            .text(")")
    };
    Err(Error::refused(
        r.text(": leave out ")
            .given(Arg::Resume)
            .text(" and ")
            .given(Arg::Restart),
    ))
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
        return Err(Error::too_large(
            Refusal::new("")
                .given(Arg::Remoteness)
                .text(format!(
                    " searches the whole box: about {est:.1e} option visits, above the limit of {:.1e}; use a smaller ",
                    p.limit
                ))
                .name(Arg::Max)
                .text(" or pass ")
                .value(Arg::Limit, nimlab_core::solver::limit_above(est)),
        ));
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
            TableKind::Grundy
        } else {
            TableKind::PSet
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
            values_on_disk: None,
        })
    }

    /// True when this table keeps checkpoints: engine tables on the CPU (one process or the ranks
    /// of an MPI job), and SCN P-sets on the GPU (between circle lengths).
    pub fn keeps_checkpoints(&self) -> bool {
        let gpu_scn = self.backend == Backend::Gpu
            && self.kind == TableKind::PSet
            && matches!(self.route, Route::Engine(Rules::Shrinking { .. }));
        matches!(self.route, Route::Engine(_))
            && (matches!(self.backend, Backend::Cpu | Backend::Mpi) || gpu_scn)
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
        if self.kind == TableKind::Grundy {
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
