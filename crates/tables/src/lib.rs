//! nimlab-tables: research-scale tables.
//!
//! - [`lines`]: the linear-time, bit-parallel P-set engine for window games on a box (a bit set of
//!   machine words per line of the box, about one diagonal of blocks of lines in memory, parallel over
//!   anti-diagonals of blocks);
//! - [`pset`]: CN, SCN, Nim and Moore's Nim P-sets (normal and misère) through that engine;
//! - [`grundy`]: Grundy values of every position of a box by the same dominance recurrence on sets
//!   of values;
//! - [`plan`]: table planning (bounds, method, cost estimates and refusals, store keys), look-up,
//!   computation with progress and cancellation ([`nimlab_core::Hooks`]) and saving;
//! - [`checkpoint`]: checkpoints of unfinished engine tables (atomic files next to the store, checked
//!   by CRC-32 and key), from which the engines' sweeps resume;
//! - [`sink`]: the table writer (text, JSON, CSV, JSONL), streamed;
//! - [`store`]: the embedded SQLite store of solved tables;
//! - [`sequences`]: one-heap Grundy sequences in the same store (prefixes extended, never
//!   recomputed);
//! - [`tiers`]: the same P-set recurrence scheduled by tiers (sum of the line's coordinates), the CPU
//!   reference for the GPU back end;
//! - `gpu` (feature `gpu`): that schedule as a WGSL compute kernel through wgpu.

pub mod checkpoint;
pub mod cluster;
#[cfg(feature = "gpu")]
pub mod gpu;
pub mod grundy;
pub mod lines;
pub mod plan;
pub mod pset;
pub mod sequences;
pub mod sink;
mod sorted;
pub mod store;
pub mod tiers;
pub mod values;

/// Where [`memory_allowed`] comes from, for messages.
pub fn memory_allowed_source() -> &'static str {
    if std::env::var("NIMLAB_ENGINE_MEMORY").is_ok_and(|v| v.trim().parse::<f64>().is_ok()) {
        "set by NIMLAB_ENGINE_MEMORY"
    } else {
        "3/4 of this machine's memory"
    }
}

/// Bytes the engines may keep: 3/4 of the machine's memory (`/proc/meminfo`), or 12 GiB where that
/// cannot be read; `NIMLAB_ENGINE_MEMORY` (bytes) overrides it. Boxes that need more are refused
/// before they start (P-sets: [`pset::engine_bytes`]; Grundy values: [`grundy::windows_memory`],
/// or [`grundy::windows_sets_memory`] when the values go to a file, and
/// [`grundy::shrinking_memory`]).
pub fn memory_allowed() -> f64 {
    if let Some(b) = std::env::var("NIMLAB_ENGINE_MEMORY")
        .ok()
        .and_then(|v| v.trim().parse::<f64>().ok())
    {
        return b;
    }
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("MemTotal:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(12.0 * (1u64 << 30) as f64, |kb| kb * 1024.0 * 0.75)
}

/// Version of the engine, recorded with every stored table.
pub const ENGINE_VERSION: &str = concat!("lines-", env!("CARGO_PKG_VERSION"));
