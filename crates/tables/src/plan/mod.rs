//! Table planning: from what a front end asks (a game, its bound options, the play convention, P-set or
//! Grundy values, a method and a work budget) to a [`Plan`] that says which positions are tabulated,
//! by which route (the bit-parallel engine or the plain search), at what estimated cost, and under
//! which store key; then [`run`] looks the table up in the store, computes it when absent (with
//! progress and cancellation through [`Hooks`](nimlab_core::Hooks)), saves it atomically and returns an [`Answer`] that
//! says where it came from. Every front end (the CLI's `table` and `store export`, later Python) goes
//! through here; the rows are written by [`crate::sink`].
//!
//! Inapplicable or contradictory options are refused here with one line, and so is a table that would
//! not finish within the budget, before any work starts.
//!
//! One job per file: `request` (what a front end asks), `choice` (the plan: domain, route, back
//! end, cost estimate, refusals, store key), `run` (store look-up, checkpoints, the ranks of a
//! cluster), `compute` (the engines, the GPU, the plain search) and `persist` (reading and saving
//! tables in the store).

mod choice;
mod compute;
mod persist;
mod request;
mod run;
mod slice;

pub use choice::{
    no_gpu_feature, no_mpi_feature, plan, Domain, Plan, Route, GPU_MAX_GRUNDY_RADIX, GPU_MAX_RADIX,
};
pub use compute::Solved;
pub use persist::{for_each_in_class, load};
pub use request::{
    Backend, Bounds, Request, ResumeMode, TableKind, TableMethod, AUTO_GPU_MAX_RADIX,
    AUTO_GPU_POSITIONS,
};
pub use run::{
    checkpoint_path, open_checkpoint, run, run_from, run_on, tell_ranks_stop, work_for_rank_0,
    Answer, Resumption, Source, Traffic,
};
pub use slice::{down_set_size, slice, slice_by_search, Slice, SliceMethod, MOST_SEARCHED};

use nimlab_core::Error;

fn unsupported(s: String) -> Error {
    Error::Unsupported(s)
}

/// A checkpoint that cannot be used: why, and how to discard it.
pub(crate) fn rerun_with_restart(why: impl Into<nimlab_core::Refusal>) -> Error {
    Error::refused(
        why.into()
            .text("; it was not used: rerun with ")
            .given(nimlab_core::Arg::Restart)
            .text(" to discard it and start over"),
    )
}
