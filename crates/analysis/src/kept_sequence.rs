//! The values of `nimlab sequence` kept in the store (`nimlab_tables::sequences`): a request is
//! answered from the stored values when they reach its largest heap, else the stored prefix is
//! extended (a heap's value does not depend on the largest heap asked for, so every stored prefix
//! is exact), never computed again. A run saves its prefix every few seconds ([`save_policy`]),
//! when it stops on an error or Ctrl-C (marked not complete), and at the end (complete).

use crate::sequence::{self, check_from, finish, Origin, Request, Values};
use nimlab_core::{Error, Game, Result};
use nimlab_games::octal::{Method, OctalGame, Ran};
use nimlab_tables::checkpoint::Policy;
use nimlab_tables::sequences::join_methods;
use nimlab_tables::store::{DbError, Store};
use std::time::Instant;

/// Seconds between two saves of a run's prefix.
pub const SAVE_SECONDS: f64 = 5.0;

/// How a run uses the values kept in the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resume {
    /// Continue from them when there are some, else start from heap 0.
    Auto,
    /// Continue from them; an error when there are none.
    Require,
    /// Discard them first and start from heap 0.
    Restart,
}

/// When a run saves its prefix: `NIMLAB_CHECKPOINT` as for tables (`every`: every 1024 heaps,
/// `off`: only at the end and when it stops, or seconds), else every [`SAVE_SECONDS`].
pub fn save_policy() -> Policy {
    match std::env::var_os("NIMLAB_CHECKPOINT") {
        Some(_) => Policy::from_env(),
        None => Policy::Seconds(SAVE_SECONDS),
    }
}

/// The values and the first error met while saving them (the run goes on without the store).
pub struct Kept {
    pub values: Values,
    pub store_error: Option<String>,
}

fn db(e: DbError) -> Error {
    Error::Unsupported(format!("the store: {e}"))
}

/// The method of a run as the store keeps it.
fn method_name(ran: &Ran) -> &'static str {
    match ran {
        Ran::Plain => "plain",
        Ran::Sparse(r) if r.plain_from.is_some() => "sparse+plain",
        Ran::Sparse(_) => "sparse",
    }
}

/// The values of heaps 0..=`req.max` of `game`, read from `store` or computed from its prefix and
/// kept there (without a store: [`sequence::compute`]). Polls the thread's cancel scope; a run
/// stopped by it (or by any error) keeps its prefix, not complete, and returns the error.
pub fn compute_kept(
    game: &OctalGame,
    req: &Request,
    store: Option<&mut Store>,
    resume: Resume,
) -> Result<Kept> {
    let Some(store) = store else {
        if resume != Resume::Auto {
            return Err(Error::Unsupported(
                "--resume and --restart work on the values kept in the store, and no store is in use"
                    .into(),
            ));
        }
        return Ok(Kept {
            values: sequence::compute(game, req)?,
            store_error: None,
        });
    };
    let key = game.sequence_key();
    if resume == Resume::Restart {
        store.remove_sequence(&key).map_err(db)?;
    }
    let stored = store.sequence(&key).map_err(db)?;
    if resume == Resume::Require && stored.is_none() {
        return Err(Error::Unsupported(format!(
            "--resume: the store holds no values of {} to continue from; run without --resume",
            game.id()
        )));
    }
    let start = Instant::now();
    if let Some(e) = stored.clone().filter(|e| e.n >= req.max) {
        let values = store.sequence_values(&e, req.max).map_err(db)?;
        let secs = start.elapsed().as_secs_f64();
        return Ok(Kept {
            values: finish(game, req.max, values, None, Origin::Stored(e), secs),
            store_error: None,
        });
    }
    let mut g = match &stored {
        Some(e) => store.sequence_values(e, req.max).map_err(db)?,
        None => Vec::new(),
    };
    let from = g.len();
    check_from(game, req, from as u64)?;
    let name = game.id();
    let before = stored.as_ref().map_or(0.0, |e| e.seconds);
    let running = match req.method {
        Method::Plain => "plain",
        _ if game.sparse_refusal().is_none() => "sparse",
        _ => "plain",
    };
    let so_far = |m: &str| {
        stored
            .as_ref()
            .map_or(m.to_string(), |e| join_methods(&e.method, m))
    };
    let policy = save_policy();
    let mut store_error: Option<String> = None;
    let mut last = Instant::now();
    let mut every = |v: &[u32]| -> Result<()> {
        let due = match policy {
            Policy::Every => true,
            Policy::Never => false,
            Policy::Seconds(s) => last.elapsed().as_secs_f64() >= s,
        };
        if due {
            let secs = before + start.elapsed().as_secs_f64();
            if let Err(e) =
                store.save_sequence(&key, &name, v, req.max, false, &so_far(running), secs)
            {
                store_error.get_or_insert(e.to_string());
            }
            last = Instant::now();
            nimlab_core::interrupt::hold_here("sequence-compute");
        }
        nimlab_core::interrupt::check()
    };
    let result = game.extend_sequence(&mut g, req.max, req.method, req.mask, req.limit, &mut every);
    let secs = before + start.elapsed().as_secs_f64();
    let complete = result.is_ok() && g.len() as u64 == req.max + 1;
    let method = match &result {
        Ok(ran) => so_far(method_name(ran)),
        Err(_) => so_far(running),
    };
    let id = match g.is_empty() {
        true => None,
        false => match store.save_sequence(&key, &name, &g, req.max, complete, &method, secs) {
            Ok(id) => Some(id),
            Err(e) => {
                store_error.get_or_insert(e.to_string());
                None
            }
        },
    };
    let ran = result?;
    let origin = match from.checked_sub(1) {
        None => Origin::Computed { id },
        Some(last) => Origin::Extended {
            from: last as u64,
            id,
        },
    };
    let seconds = start.elapsed().as_secs_f64();
    Ok(Kept {
        values: finish(game, req.max, g, Some(ran), origin, seconds),
        store_error,
    })
}
