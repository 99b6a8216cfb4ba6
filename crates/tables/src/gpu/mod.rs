//! The GPU back end (feature `gpu`): the tier schedule of [`crate::tiers`] as WGSL compute kernels,
//! run through wgpu on Vulkan, Metal or DX12 (and, on a machine without a GPU, Mesa's lavapipe).
//!
//! - [`schedule`]: host-side arithmetic (the ranking table, slabs and the spans they read), no GPU;
//! - `device`: opening an adapter and compiling the kernels (`tiers.wgsl`, shared, before `pset.wgsl`
//!   and `grundy.wgsl`);
//! - `run`: the driver, shared by both kernels: the records of two tiers stay on the device, slab by
//!   slab; only the P-lines found (P-sets) or the values (Grundy tables) come back, and
//!   [`Device::traffic`] counts what crosses.
//!
//! Covered, equal to the CPU engine:
//! - P-sets ([`tabulate`], equal to [`crate::pset::tabulate`]) of the window games (CN, Nim, Moore's
//!   Nim, the simplicial-complex games) and of SCN, both conventions, on boxes of up to 256 values per
//!   entry (`plan::GPU_MAX_RADIX`): a line is `ceil(r / 64)` 64-bit words, 1 to 4, and `pset.wgsl` is
//!   compiled for the words a box needs. SCN: each circle length is a window game on the GPU; its
//!   moves that empty piles are answered on the device from the shorter lengths' tables, uploaded once
//!   per length (the CPU engine's oracle, packed: bit sets of a line's words where they fit one
//!   binding, else least entries that the kernel reads once per value of a line).
//! - The mirror symmetry in P-sets, when asked for ([`Options::mirror`], `NIMLAB_GPU_MIRROR=on`; off
//!   by default until it is measured on a GPU): the involution of the axes that the CPU engine's sweep
//!   uses (the circle's reflection that fixes the line's stack, or a swap of two heaps; see
//!   `lines/mirror.rs`). The tuple's entries are numbered so that the mirror swaps neighbours, and,
//!   when every tier is one slab, only the lexicographically lower line of each mirror pair runs; it
//!   reads each look-up from whichever of the pair below ran, and lists its P-position for both
//!   lines. Tiers of several slabs (which bind only the span of the tier below that a slab reads) run
//!   every line. Grundy values run every line.
//! - Grundy values ([`grundy()`], equal to [`crate::grundy::solve`] and
//!   [`crate::grundy::solve_shrinking`]) of the window games and of SCN (normal play, as the CPU
//!   engine): value sets per (position, window) over two tiers, with as many 64-bit words as the values
//!   need (when a value does not fit, the sets of the tier below, which are exact, are widened and the
//!   run goes on from the tier that overflowed). SCN: each circle length is a window game on the GPU;
//!   the values of its moves that empty piles come from the host as one value set per position (as
//!   many words as the run's sets), computed by the CPU engine's closure over the shorter lengths'
//!   values, and are OR-ed into the options' set before the mex. Boxes of up to 64 values per entry
//!   (`plan::GPU_MAX_GRUNDY_RADIX`).

mod device;
mod run;
pub mod schedule;

use crate::cluster::Solo;
use crate::grundy;
use crate::lines::{Hooks, LineSpec, PLine, Resume, Stop};
use crate::pset::{self, Rules, Summary};
use nimlab_core::{Arg, BoxDomain, Game, Play, Refusal};

pub use crate::plan::Traffic;
pub use device::Device;

/// Why the GPU back end could not answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GpuError {
    /// No Vulkan, Metal or DX12 adapter.
    NoAdapter,
    /// The device failed (creation, out of memory, a lost device), with the adapter and the reason.
    Device(String),
    /// The box does not fit the back end's 32-bit ranks or the adapter's bindings.
    TooLarge(Refusal),
    /// Cancelled through [`Hooks`].
    Interrupted,
    /// The checkpoint to resume from does not fit this run.
    Checkpoint(Refusal),
}

impl std::fmt::Display for GpuError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GpuError::Device(e) => write!(f, "the GPU failed: {e}"),
            GpuError::Interrupted => write!(f, "interrupted"),
            GpuError::NoAdapter | GpuError::TooLarge(_) | GpuError::Checkpoint(_) => {
                write!(f, "{}", self.refusal())
            }
        }
    }
}

impl GpuError {
    /// A box beyond the back end: why, options named as typed pieces.
    pub fn too_large(why: impl Into<Refusal>) -> GpuError {
        GpuError::TooLarge(why.into())
    }

    /// The message, options named as typed pieces.
    pub fn refusal(&self) -> Refusal {
        match self {
            GpuError::NoAdapter => Refusal::new(
                "no GPU adapter found (install a Vulkan driver, e.g. Debian's mesa-vulkan-drivers, or use ",
            )
            .value(Arg::Backend, "cpu")
            .text(")"),
            GpuError::TooLarge(r) | GpuError::Checkpoint(r) => r.clone(),
            e => Refusal::new(e.to_string()),
        }
    }
}

impl std::error::Error for GpuError {}

/// Tuning of a run.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Most bytes per slab: per line its record (8 bytes per window, times the words of a line for
    /// P-sets, `ceil(r / 64)`, or of a value set for Grundy values), 4 for its P-bit or value and, for
    /// SCN's Grundy values, its moves out of the box (the words of a value set)
    /// (default, and at most: the adapter's largest binding). Set, it cuts the tiers into more,
    /// smaller slabs, which stay on the device as the default's do (a slab that reads a part of the
    /// tier below spread over several slabs gets it copied into the span buffer, on the device); the
    /// host sees only what it sees anyway: each slab's Grundy values (and SCN's moves out of the box,
    /// sent to it), or for P-sets the list of P-lines found, which then holds two slabs' lines and is
    /// read back about every two slabs. Tests set it small to force a box through many slabs.
    pub slab_bytes: Option<u64>,
    /// Refuse (as [`GpuError::TooLarge`]) a box whose tiers do not each fit the device in one slab.
    /// Neither back-end choice sets it any more (tiers of several slabs stay on the device and were
    /// measured as fast, docs/benchmarks.md); tests use it to check the refusal.
    pub require_resident: bool,
    /// SCN's P-sets: most bytes of the shorter circles' tables packed for the device with the arcs'
    /// bit sets (`ShrinkOracle::packed`); beyond it the largest become least entries, which the
    /// kernel reads once per value of a line instead of a line's words once (default: the adapter's
    /// largest binding). Tests set it to 0 to run the least entries.
    pub scn_bit_set_bytes: Option<u64>,
    /// P-sets: read the lines through the game's mirror, so that one line of each mirror pair runs
    /// (see the module notes), as the environment variable `NIMLAB_GPU_MIRROR=on` does for a whole
    /// process. Off by default: on lavapipe the mirror ran slower than the plain kernel (the ranks a
    /// mirror line needs cost more there than the look-ups it saves; docs/benchmarks.md), and it has
    /// not been measured on a GPU.
    pub mirror: bool,
}

/// The mirror a P-set run of `spec` reads its lines through (see [`Options::mirror`]), or `None`.
fn mirror_of<O: crate::lines::LineOracle>(
    spec: &LineSpec,
    oracle: &O,
    opts: &Options,
) -> Option<Vec<usize>> {
    let asked = opts.mirror || std::env::var("NIMLAB_GPU_MIRROR").is_ok_and(|v| v.trim() == "on");
    asked
        .then(|| crate::lines::line_involution(spec, oracle))
        .flatten()
}

/// True when the GPU back end covers this rule set: P-sets and Grundy values (`grundy`, normal play)
/// of window games and SCN.
pub fn covers(rules: &Rules, _grundy: bool) -> bool {
    matches!(rules, Rules::Windows { .. } | Rules::Shrinking { .. })
}

/// The P-lines of a window game: equal to [`crate::lines::solve`] (and to [`crate::tiers::solve`], which
/// takes lines of one word).
pub fn solve(
    dev: &Device,
    spec: &LineSpec,
    opts: &Options,
    hooks: Hooks,
) -> Result<Vec<PLine>, GpuError> {
    let rho = mirror_of(spec, &crate::lines::NoOracle, opts);
    run::solve(dev, spec, None, rho.as_deref(), opts, hooks)
}

/// [`pset::tabulate`] on the GPU: the same counts and the same canonical P-positions, in the same
/// order, for the games [`covers`] accepts (window games and SCN).
pub fn tabulate(
    dev: &Device,
    game: &dyn Game,
    domain: &BoxDomain,
    play: Play,
    opts: &Options,
    hooks: Hooks,
    sink: &mut dyn FnMut(&[u64]),
) -> Result<Summary, GpuError> {
    tabulate_resumable(
        dev,
        game,
        domain,
        play,
        opts,
        hooks,
        sink,
        Resume::default(),
    )
}

/// [`tabulate`] with checkpoints, as [`pset::tabulate_resumable`] writes them: SCN runs through the
/// CPU engine's loop over circle lengths, which saves between two lengths
/// (a GPU run of one length keeps none inside it), and resumes from such a checkpoint; one that the
/// CPU engine took inside a length is refused (continue it with the CPU engine). A window game is
/// one GPU run: `resume` is not used.
#[allow(clippy::too_many_arguments)]
pub fn tabulate_resumable(
    dev: &Device,
    game: &dyn Game,
    domain: &BoxDomain,
    play: Play,
    opts: &Options,
    hooks: Hooks,
    sink: &mut dyn FnMut(&[u64]),
    resume: Resume,
) -> Result<Summary, GpuError> {
    let r = domain.radix() as usize;
    match pset::rules_for(game, domain) {
        Some(Rules::Windows { m, windows }) => {
            let spec = LineSpec {
                radix: None,
                m,
                r,
                windows: pset::engine_windows(m, &windows),
                origin_n: play == Play::Misere,
            };
            let lines = solve(dev, &spec, opts, hooks)?;
            Ok(pset::summarise(game, domain, m, &lines, sink))
        }
        // Each circle length on the GPU; the moves that empty piles are answered there from the
        // shorter lengths' tables.
        Some(Rules::Shrinking { n, k }) => pset::shrinking_on(
            &Solo,
            game,
            domain,
            play,
            (n, k),
            hooks,
            sink,
            resume,
            &mut |len: pset::Length| {
                let spec = len.spec;
                if len.resume.from.is_some() {
                    return Err(GpuError::Checkpoint(
                        Refusal::new(format!(
                            "the checkpoint was taken by the CPU engine inside circle length {}, which only the CPU engine continues (",
                            spec.m
                        ))
                        .value(Arg::Backend, "cpu")
                        .text(")"),
                    ));
                }
                // Bit sets while the whole oracle fits one binding (or the test's bound).
                let bits = opts
                    .scn_bit_set_bytes
                    .unwrap_or(dev.max_binding.min(dev.max_buffer));
                let scn = len.oracle.packed(bits).ok_or_else(|| {
                    GpuError::too_large(
                        Refusal::new(format!(
                            "the tables of the circles shorter than {} do not fit the GPU back end's 32-bit offsets; use a smaller ",
                            spec.m
                        ))
                        .name(Arg::Max),
                    )
                })?;
                let rho = mirror_of(spec, len.oracle, opts);
                let lines = run::solve(dev, spec, Some(&scn), rho.as_deref(), opts, len.hooks)?;
                // Slabs of one value of the first tuple entry, as the CPU engine sends them.
                let per_slab = (r as u64).pow(spec.m.saturating_sub(2) as u32);
                for slab in lines.chunk_by(|a, b| a.0 / per_slab == b.0 / per_slab) {
                    (len.emit)(slab.to_vec());
                }
                Ok(())
            },
        ),
        None => Err(GpuError::too_large(format!(
            "the GPU back end covers the engine's games (CN, SCN, Nim, Moore's Nim, complexes), not {} on this box",
            game.id()
        ))),
    }
}

/// The Grundy value of every position of a box, in table order: for a window game, lexicographic,
/// equal to [`crate::grundy::solve`]; for SCN, by circle length as [`crate::grundy::solve_shrinking`]
/// lists them (and equal to it).
pub fn grundy(
    dev: &Device,
    game: &dyn Game,
    domain: &BoxDomain,
    opts: &Options,
    hooks: Hooks,
) -> Result<Vec<u16>, GpuError> {
    let r = domain.radix() as usize;
    match pset::rules_for(game, domain) {
        Some(Rules::Windows { m, windows }) => {
            run::grundy(dev, m, r, &windows, None, 1, opts, hooks).map(|(v, _)| v)
        }
        // Each circle length on the GPU; the values of the moves that empty piles come from the host,
        // one value set per position, from the shorter lengths' values.
        Some(Rules::Shrinking { n, k }) => grundy::shrinking_on(
            n,
            k,
            r,
            hooks,
            grundy::Start::default(),
            &mut |len: grundy::Length| {
                let m = len.m;
                // The host's closure takes engine coordinates: axis j is tuple index m - 1 - j.
                let extra = |x: &[u32], set: &mut [u64]| {
                    let mut e = [0u32; 32];
                    for (j, &v) in x[..m].iter().rev().enumerate() {
                        e[j] = v;
                    }
                    (len.extra)(&e[..m], set)
                };
                run::grundy(
                    dev,
                    m,
                    r,
                    len.windows,
                    Some(&extra),
                    len.min_words,
                    opts,
                    len.hooks,
                )
            },
        ),
        None => Err(GpuError::too_large(
            Refusal::new(format!(
                "the GPU back end computes Grundy values of the engine's games (CN, SCN, Nim, Moore's Nim, complexes), not {} on this box; use ",
                game.id()
            ))
            .value(Arg::Backend, "cpu"),
        )),
    }
}

impl From<Stop> for GpuError {
    fn from(s: Stop) -> GpuError {
        match s {
            Stop::Interrupted => GpuError::Interrupted,
            Stop::Damaged(e) => GpuError::Checkpoint(e.into()),
            Stop::Beyond(e) => GpuError::TooLarge(e),
        }
    }
}

impl From<crate::lines::Interrupted> for GpuError {
    fn from(_: crate::lines::Interrupted) -> GpuError {
        GpuError::Interrupted
    }
}
