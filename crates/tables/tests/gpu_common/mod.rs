//! What the GPU test files share: the adapter, and a P-set on the CPU engine and on the GPU as
//! (summary, canonical P-positions).

use nimlab_core::{BoxDomain, Game, Play};
use nimlab_tables::gpu::{self, Device, GpuError, Options};
use nimlab_tables::lines::Hooks;
use nimlab_tables::pset;
use std::sync::OnceLock;

/// The adapter, opened once for the whole file; `None` (after printing SKIPPED) when there is none.
pub fn device(test: &str) -> Option<&'static Device> {
    static DEV: OnceLock<Result<Device, GpuError>> = OnceLock::new();
    let found = DEV
        .get_or_init(Device::open)
        .as_ref()
        .map_err(|e| e.to_string());
    nimlab_testkit::tools::need(test, "gpu", found)
}

pub type Answer = (pset::Summary, Vec<Vec<u64>>);

/// The CPU engine's P-set.
pub fn cpu(game: &dyn Game, d: &BoxDomain, play: Play) -> Answer {
    let mut got = Vec::new();
    let s = pset::tabulate(game, d, play, Hooks::default(), &mut |p| {
        got.push(p.to_vec())
    })
    .unwrap();
    (s, got)
}

/// The GPU's P-set.
pub fn on_gpu(dev: &Device, game: &dyn Game, d: &BoxDomain, play: Play, opts: &Options) -> Answer {
    let mut got = Vec::new();
    let s = gpu::tabulate(dev, game, d, play, opts, Hooks::default(), &mut |p| {
        got.push(p.to_vec())
    })
    .unwrap();
    (s, got)
}
