//! Computing a planned table: the engines (P-sets, Grundy values, with checkpoints), the GPU back
//! end, the plain search, chip games, and the remoteness of listed P-positions.

use super::choice::{Domain, Plan, Route};
#[cfg(feature = "gpu")]
use super::request::Backend;
use super::request::TableKind;
use super::unsupported;
use crate::checkpoint::{self, Layer, Saver};
use crate::cluster::Cluster;
use crate::grundy;
use crate::lines::{Resume, Stop};
use crate::pset::{self, Rules};
use crate::store;
use crate::values::Values;
use nimlab_core::table::{grundy_values, tabulate, TableRun};
use nimlab_core::{BoxDomain, Error, Game, Hooks, Pos, Result, Solver};
use std::cell::RefCell;
use std::io::Read;

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
        /// The value of every position, in the order of [`Plan::for_each_position`] (in memory, or in a
        /// mapped file past memory: [`crate::values::Values`]).
        values: Values,
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

    /// How many positions have each value (Grundy tables): in parallel, each chunk counted in four
    /// interleaved tallies (neighbouring positions often share a value, and one tally would wait
    /// on its own last increment).
    pub fn histogram(&self) -> Vec<u64> {
        use rayon::prelude::*;
        let Solved::Grundy { values } = self else {
            return Vec::new();
        };
        let count = |(mut h, mut tally): (Vec<u64>, Vec<u32>), chunk: &[u16]| {
            let len = chunk.iter().copied().max().unwrap_or(0) as usize + 1;
            tally.clear();
            tally.resize(4 * len, 0);
            let (quads, rest) = chunk.split_at(chunk.len() / 4 * 4);
            for q in quads.chunks_exact(4) {
                tally[q[0] as usize] += 1;
                tally[len + q[1] as usize] += 1;
                tally[2 * len + q[2] as usize] += 1;
                tally[3 * len + q[3] as usize] += 1;
            }
            for &v in rest {
                tally[v as usize] += 1;
            }
            if h.len() < len {
                h.resize(len, 0);
            }
            for (v, x) in h.iter_mut().take(len).enumerate() {
                *x += (0..4).map(|t| tally[t * len + v] as u64).sum::<u64>();
            }
            (h, tally)
        };
        let add = |mut a: Vec<u64>, b: Vec<u64>| {
            if a.len() < b.len() {
                a.resize(b.len(), 0);
            }
            a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
            a
        };
        let h = values
            .par_chunks(1 << 16)
            .fold(|| (Vec::new(), Vec::new()), count)
            .map(|(h, _)| h)
            .reduce(Vec::new, add);
        if h.is_empty() {
            vec![0]
        } else {
            h
        }
    }
}

/// The buffer of a Grundy table's `len` values: in memory, or in a mapped file when the plan keeps
/// them on disk ([`Plan::values_on_disk`]), in the folder of the store's checkpoints or else the
/// system's temporary folder.
fn values_for(plan: &Plan, len: usize) -> Result<Values> {
    match &plan.values_on_disk {
        None => Ok(Values::in_memory(len)),
        Some(dir) => Values::on_disk(dir, len).map_err(|e| {
            Error::io(
                format!(
                    "keeping {:.1} GiB of Grundy values in {}",
                    (len * 2) as f64 / (1u64 << 30) as f64,
                    dir.display()
                ),
                e,
            )
        }),
    }
}

/// The GPU adapter's name and the run's host-device traffic, when the GPU computed a table.
pub(super) type OnGpu = Option<(String, super::Traffic)>;

/// Computes the table; with the GPU adapter's name and traffic when the GPU computed it.
pub(super) fn compute(
    cluster: &dyn Cluster,
    game: &dyn Game,
    plan: &Plan,
    hooks: Hooks,
    saver: Option<&mut checkpoint::File1>,
    from: Option<Box<dyn Read>>,
) -> Result<(Solved, OnGpu)> {
    if let Some(positions) = &plan.chip_positions {
        return Ok((compute_chips(game, plan, positions, hooks)?, None));
    }
    let Domain::Box(domain) = &plan.domain else {
        unreachable!("a box plan has a box domain")
    };
    with_plan_layer(saver, from, |data, resume| {
        #[cfg(feature = "gpu")]
        let resume = if matches!(plan.backend, Backend::Auto | Backend::Gpu) {
            // Checkpoints go to the GPU's run when it was asked for (`--backend auto` keeps none).
            let (gpu_resume, rest) = if plan.backend == Backend::Gpu {
                (resume, Resume::default())
            } else {
                (Resume::default(), resume)
            };
            if let Some(done) = gpu_backend::compute(game, plan, domain, hooks, data, gpu_resume)? {
                return Ok(done);
            }
            rest
        } else {
            resume
        };
        Ok((
            compute_box(cluster, game, plan, domain, hooks, data, resume)?,
            None,
        ))
    })
}

/// Marks this layer's section of a checkpoint.
const TAG_PLAN: u64 = 0x504c_414e_0001;

fn stopped(s: Stop) -> Error {
    match s {
        Stop::Interrupted => Error::Interrupted,
        Stop::Damaged(s) => super::rerun_with_restart(s),
        Stop::Beyond(r) => Error::too_large(r),
    }
}

/// Runs `f` with this layer of the checkpoints: its section holds the encoded canonical
/// P-positions listed so far (`data`, read back from `from` when resuming), in front of the state of
/// the engine that `f` runs with the `Resume` it is given.
fn with_plan_layer<T>(
    saver: Option<&mut checkpoint::File1>,
    mut from: Option<Box<dyn Read>>,
    f: impl FnOnce(&RefCell<Vec<u8>>, Resume) -> Result<T>,
) -> Result<T> {
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
    f(
        &data,
        Resume {
            saver: layer.as_mut().map(|l| l as &mut dyn Saver),
            from: from.as_deref_mut().map(|r| r as &mut dyn Read),
        },
    )
}

/// The table of a box on the CPU (the engines or the plain search); engine P-sets list their
/// canonical P-positions into `data`.
pub(super) fn compute_box(
    cluster: &dyn Cluster,
    game: &dyn Game,
    plan: &Plan,
    domain: &BoxDomain,
    hooks: Hooks,
    data: &RefCell<Vec<u8>>,
    resume: Resume,
) -> Result<Solved> {
    let r = domain.radix() as usize;
    Ok(match (plan.kind, &plan.route) {
        (TableKind::Grundy, Route::Engine(Rules::Windows { m, windows })) => Solved::Grundy {
            values: grundy::solve_resumable_in(
                *m,
                r,
                windows,
                hooks,
                resume,
                values_for(plan, r.pow(*m as u32))?,
            )
            .map_err(stopped)?,
        },
        (TableKind::Grundy, Route::Engine(Rules::Shrinking { n, k })) => Solved::Grundy {
            values: grundy::solve_shrinking_resumable(*n, *k, r, hooks, resume)
                .map_err(stopped)?
                .into(),
        },
        (TableKind::Grundy, Route::Search) => Solved::Grundy {
            values: grundy_values(game, domain, hooks)?.into(),
        },
        (TableKind::PSet, Route::Engine(_)) => {
            let s = pset::tabulate_on(
                cluster,
                game,
                domain,
                plan.play,
                hooks,
                &mut |p| store::encode_positions(&mut data.borrow_mut(), p),
                resume,
            )
            .map_err(stopped)?;
            Solved::PSet {
                count: Some(s.count as u128),
                canonical_count: s.canonical_count,
                by_length: s.by_length,
                data: data.take(),
            }
        }
        (TableKind::PSet, Route::Search) => {
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
        if plan.kind == TableKind::Grundy {
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
        TableKind::Grundy => Solved::Grundy {
            values: values.into(),
        },
        TableKind::PSet => Solved::PSet {
            count: ordered,
            canonical_count: canonical,
            by_length: Vec::new(),
            data,
        },
    })
}

/// Remoteness and suspense of each listed P-position (with `--remoteness`), by full search with one
/// memo for the whole list (the plan refused it up front when too large).
pub(super) fn listed_values(
    game: &dyn Game,
    plan: &Plan,
    solved: &Solved,
) -> Result<Option<Vec<(u64, u64)>>> {
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
    use super::{gpu_error, Backend, Plan, Solved, TableKind};
    use crate::lines::Resume;
    use crate::{gpu, store};
    use nimlab_core::{BoxDomain, Error, Game, Hooks, Result};
    use std::cell::RefCell;

    /// The P-set or Grundy values on the GPU, or `None` when `--backend auto` finds no hardware adapter (the CPU then
    /// computes it). `--backend gpu` without an adapter is an error naming the fix. P-sets list
    /// their canonical P-positions into `data`; SCN P-sets keep checkpoints through `resume`.
    pub(super) fn compute(
        game: &dyn Game,
        plan: &Plan,
        domain: &BoxDomain,
        hooks: Hooks,
        data: &RefCell<Vec<u8>>,
        resume: Resume,
    ) -> Result<Option<(Solved, super::OnGpu)>> {
        let dev = match (gpu::Device::open(), plan.backend) {
            (Ok(d), Backend::Gpu) => d,
            (Ok(d), _) if !d.is_cpu() => d,
            (Err(e), Backend::Gpu) => return Err(Error::Unsupported(e.to_string())),
            // Auto: no adapter, or only a driver that runs on the CPU.
            _ => return Ok(None),
        };
        let before = dev.traffic();
        let solved = if plan.kind == TableKind::Grundy {
            let values = gpu::grundy(&dev, game, domain, &gpu::Options::default(), hooks);
            match values {
                Ok(values) => Solved::Grundy {
                    values: values.into(),
                },
                Err(gpu::GpuError::TooLarge(_)) if plan.backend == Backend::Auto => {
                    return Ok(None)
                }
                Err(e) => return Err(gpu_error(e)),
            }
        } else {
            let s = gpu::tabulate_resumable(
                &dev,
                game,
                domain,
                plan.play,
                &gpu::Options::default(),
                hooks,
                &mut |p| store::encode_positions(&mut data.borrow_mut(), p),
                resume,
            );
            let s = match s {
                Ok(s) => s,
                // Auto: a box beyond this adapter's bindings or the 32-bit ranks goes to the CPU.
                Err(gpu::GpuError::TooLarge(_)) if plan.backend == Backend::Auto => {
                    return Ok(None)
                }
                Err(gpu::GpuError::Checkpoint(r)) => {
                    return Err(crate::plan::rerun_with_restart(r))
                }
                Err(e) => return Err(gpu_error(e)),
            };
            Solved::PSet {
                count: Some(s.count as u128),
                canonical_count: s.canonical_count,
                by_length: s.by_length,
                data: data.take(),
            }
        };
        Ok(Some((
            solved,
            Some((dev.adapter(), dev.traffic() - before)),
        )))
    }
}

#[cfg(feature = "gpu")]
fn gpu_error(e: crate::gpu::GpuError) -> Error {
    match e {
        crate::gpu::GpuError::Interrupted => Error::Interrupted,
        crate::gpu::GpuError::TooLarge(r) => Error::too_large(r),
        e @ (crate::gpu::GpuError::NoAdapter | crate::gpu::GpuError::Checkpoint(_)) => {
            Error::refused(e.refusal())
        }
        e => Error::Unsupported(e.to_string()),
    }
}
