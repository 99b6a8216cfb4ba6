//! Tables in the store: reading one whole, saving one with its details.

use super::choice::{Plan, Route};
use super::compute::Solved;
use super::request::Kind;
use super::run::{Answer, Source};
use crate::store::{self, Entry, Store};
use crate::ENGINE_VERSION;
use nimlab_core::{Error, Result};

/// A stored table, read whole.
pub fn load(s: &Store, plan: &Plan, e: &Entry) -> Result<Answer> {
    let data = s
        .data(e.id)
        .map_err(|err| Error::store(format!("reading table {}", e.id), err))?;
    let details: serde_json::Value = serde_json::from_str(&e.details).unwrap_or_default();
    let solved = match plan.kind {
        Kind::Grundy => Solved::Grundy {
            values: store::decode_values(&data),
        },
        Kind::PSet => {
            let count = if plan.is_chips() {
                details
                    .get("count")
                    .and_then(|c| c.as_str())
                    .and_then(|c| c.parse().ok())
            } else {
                Some(e.count as u128)
            };
            Solved::PSet {
                count,
                canonical_count: e.canonical_count,
                by_length: serde_json::from_value(details).unwrap_or_default(),
                data,
            }
        }
    };
    Ok(Answer {
        solved,
        source: Source::Store,
        seconds: e.seconds,
        store_id: Some(e.id),
        store_error: None,
        listed: None,
        backend: None,
        adapter: None,
        traffic: None,
        ranks: None,
        resumed: None,
        checkpoint_error: None,
    })
}

pub(super) fn save(
    s: &mut Store,
    plan: &Plan,
    solved: &Solved,
    seconds: f64,
    on_gpu: bool,
) -> Result<i64> {
    let engine = match plan.route {
        Route::Engine(_) if on_gpu => format!("gpu-{ENGINE_VERSION}"),
        Route::Engine(_) => ENGINE_VERSION.to_string(),
        Route::Search => format!("naive-{}", env!("CARGO_PKG_VERSION")),
    };
    let r = match solved {
        Solved::PSet {
            count,
            canonical_count,
            by_length,
            data,
        } => {
            let details = if plan.is_chips() {
                serde_json::json!({"count": count.map(|c| c.to_string())})
            } else {
                serde_json::json!(by_length)
            };
            s.save(
                &plan.key,
                &engine,
                count.map_or(u64::MAX, |c| c.min(i64::MAX as u128) as u64),
                *canonical_count,
                &details.to_string(),
                plan.positions as u64,
                seconds,
                data,
            )
        }
        Solved::Grundy { values } => {
            let h = solved.histogram();
            s.save(
                &plan.key,
                &engine,
                h.first().copied().unwrap_or(0),
                0,
                &serde_json::json!(h).to_string(),
                plan.positions as u64,
                seconds,
                &store::encode_values(values),
            )
        }
    };
    r.map_err(|e| Error::store("saving the table", e))
}
