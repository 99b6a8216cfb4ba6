//! What a front end asks for: the table, its bounds, the method, the back end and the budget.

use nimlab_core::Play;

/// P-positions or Grundy values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableKind {
    PSet,
    Grundy,
}

/// How a box table is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableMethod {
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
    /// The GPU for P-sets when a hardware adapter is present and the box is large enough to gain
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

/// Most values per entry of a box that `--backend auto` sends to a GPU: lines of one word, the boxes
/// measured on one (docs/benchmarks.md). Wider boxes (up to `GPU_MAX_RADIX`) run there when
/// `--backend gpu` asks for it.
pub const AUTO_GPU_MAX_RADIX: u64 = 64;

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
    pub kind: TableKind,
    pub method: TableMethod,
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
