//! nimlab-tables: research-scale tables.
//!
//! - [`lines`]: the linear-time, bit-parallel P-set engine for window games on a box (one machine word
//!   per line of the box, a few slabs of memory, parallel over anti-diagonals of blocks);
//! - [`pset`]: CN, SCN, Nim and Moore's Nim P-sets (normal and misère) through that engine;
//! - [`grundy`]: Grundy values of every position of a box by the same dominance recurrence on sets
//!   of values;
//! - [`plan`]: table planning (bounds, method, cost estimates and refusals, store keys), look-up,
//!   computation with progress and cancellation ([`nimlab_core::Hooks`]) and saving;
//! - [`checkpoint`]: checkpoints of unfinished engine tables (atomic files next to the store, checked
//!   by CRC-32 and key), from which the engines' sweeps resume;
//! - [`sink`]: the table writer (text, JSON, CSV, JSONL), streamed;
//! - [`store`]: the embedded SQLite store of solved tables;
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
pub mod sink;
pub mod store;
pub mod tiers;

/// Version of the engine, recorded with every stored table.
pub const ENGINE_VERSION: &str = concat!("lines-", env!("CARGO_PKG_VERSION"));
