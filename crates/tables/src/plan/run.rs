//! Running a plan: the store look-up, checkpoints (opening, resuming, writing), the ranks of a
//! cluster, and the answer that says where the table came from.

use super::choice::{Domain, Plan, Route};
use super::compute::{compute, compute_box, listed_values, Solved};
use super::persist::{load, load_within, save};
use super::request::{Backend, ResumeMode};
use super::unsupported;
use crate::checkpoint;
use crate::cluster::{Cluster, Solo, Topic};
use crate::store::Store;
use crate::ENGINE_VERSION;
use nimlab_core::{Arg, Error, Game, Hooks, Refusal, Result};
use std::time::Instant;

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

/// What crossed between host and device: the design keeps it proportional to the P-positions found
/// (a P-set) or to the values returned (a Grundy table), plus a few words per slab, never to the
/// positions of the box. Read from the GPU device (`gpu::Device::traffic`, feature `gpu`) before and after a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Traffic {
    /// Bytes written from the host into device buffers (parameters, tables, SCN's masks).
    pub uploaded_bytes: u64,
    /// Bytes read back by the host (P-lines found, Grundy values).
    pub downloaded_bytes: u64,
    /// Command buffers submitted.
    pub submissions: u64,
    /// Times the host waited for the device.
    pub waits: u64,
}

impl std::ops::Sub for Traffic {
    type Output = Traffic;
    fn sub(self, o: Traffic) -> Traffic {
        Traffic {
            uploaded_bytes: self.uploaded_bytes - o.uploaded_bytes,
            downloaded_bytes: self.downloaded_bytes - o.downloaded_bytes,
            submissions: self.submissions - o.submissions,
            waits: self.waits - o.waits,
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
    /// What crossed between host and device, when the GPU computed it.
    pub traffic: Option<Traffic>,
    /// Read from the stored table of a larger box, with entries up to this bound.
    pub within: Option<u64>,
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
            return Err(Error::refused(
                Refusal::new("")
                    .given(Arg::Resume)
                    .text(" continues a table from its checkpoint, kept next to the store: give a store (")
                    .given(Arg::Db)
                    .text("), not ")
                    .given(Arg::NoStore),
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
            return Err(Error::refused(
                Refusal::new("")
                    .given(Arg::Resume)
                    .text(format!(
                        ": no checkpoint of this table (looked for {}); leave out ",
                        path.display()
                    ))
                    .given(Arg::Resume)
                    .text(" to start it"),
            ));
        }
        return Ok(None);
    }
    match checkpoint::open(&path, &checkpoint::key_text(&plan.key), ENGINE_VERSION) {
        Ok((header, reader)) => Ok(Some(Resumption {
            path,
            header,
            reader,
        })),
        Err(refusal) => Err(super::rerun_with_restart(refusal.to_string())),
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
    compute_box(
        cluster,
        game,
        plan,
        domain,
        hooks,
        &Default::default(),
        Default::default(),
    )?;
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
    hooks.phase("table-lookup");
    if hooks.cancelled() {
        return Err(Error::Interrupted);
    }
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
        // A stored table of a larger box answers for this one (one process: ranks were told to
        // compute when the exact table was not stored).
        if let Some(e) = s
            .covering(&plan.key)
            .map_err(|e| Error::store("looking up the table", e))?
            .filter(|_| cluster.size() == 1)
        {
            if let Some(mut a) = load_within(s, plan, game, &e)? {
                a.listed = listed_values(game, plan, &a.solved)?;
                return Ok(a);
            }
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
    // The phase "table-compute" starts with the first progress the engine reports.
    let report = |done: u64, total: u64| {
        if done > 0 {
            hooks.phase("table-compute");
        }
        hooks.report(done, total);
    };
    let start = Instant::now();
    let computed = compute(
        cluster,
        game,
        plan,
        Hooks::new(hooks.cancel, Some(&report)),
        saver.as_mut(),
        from.map(|r| r.reader),
    );
    let mut checkpoint_error = saver.as_mut().and_then(|s| {
        s.finish();
        s.error.take()
    });
    // Interrupted: the checkpoint (written on the way out) stays for the next run.
    let (solved, on_gpu) = computed?;
    let (adapter, traffic) = on_gpu.map_or((None, None), |(a, t)| (Some(a), Some(t)));
    let seconds = start.elapsed().as_secs_f64() + resumed.as_ref().map_or(0.0, |h| h.seconds);
    let source = match plan.route {
        Route::Engine(_) => Source::Engine,
        Route::Search => Source::Search,
    };
    let (mut store_id, mut store_error) = (None, None);
    // A finished table is saved even when the run is interrupted now: nothing is lost, and the
    // store never holds an unfinished one.
    hooks.phase("table-save");
    let past_memory = matches!(&solved, Solved::Grundy { values } if values.on_file());
    if let (Some(_), true) = (&store, past_memory) {
        // The store reads a table back whole, into memory: values kept past memory are not stored
        // (the output, -o FILE, keeps them), and the finished run's checkpoint goes.
        store_error = Some(format!(
            "its {} of values were kept on disk, past memory, and the store reads tables back whole; write them with -o FILE",
            super::choice::amount(plan.positions * 2.0)
        ));
        if let Some(c) = saver.as_mut() {
            c.remove();
        }
    } else if let Some(s) = store {
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
        traffic,
        within: None,
        ranks: (plan.backend == Backend::Mpi).then(|| cluster.size()),
        resumed,
        checkpoint_error,
    })
}
