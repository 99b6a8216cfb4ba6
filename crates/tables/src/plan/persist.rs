//! Tables in the store: reading one whole, saving one with its details.

use super::choice::{Domain, Plan, Route};
use super::compute::Solved;
use super::request::TableKind;
use super::run::{Answer, Source};
use crate::store::{self, Entry, Store};
use crate::ENGINE_VERSION;
use nimlab_core::{Error, Game, Result};

/// Most orderings of P-positions' entries [`load_within`] tries when it counts ordered P-positions
/// (beyond it the table is computed instead).
const MOST_ORDERINGS: u64 = 20_000_000;

/// The table of `plan`'s box read from the stored table `e` of a larger box with the same lower
/// bound and lengths ([`Store::covering`]): the P-positions with every entry inside the box (and
/// their ordered counts, from the orderings of each one's entries that are in its symmetry class),
/// or the Grundy values of the box's positions. `None` when the plan is not a box or counting the
/// ordered P-positions would take more than [`MOST_ORDERINGS`] orderings.
pub fn load_within(s: &Store, plan: &Plan, game: &dyn Game, e: &Entry) -> Result<Option<Answer>> {
    let Domain::Box(d) = &plan.domain else {
        return Ok(None);
    };
    if e.key.lo != d.lo || e.key.hi <= d.hi || plan.is_chips() {
        return Ok(None);
    }
    let mut a = load(s, plan, e)?;
    let big = (e.key.hi - e.key.lo + 1) as u128;
    let r = d.radix() as u128;
    match &mut a.solved {
        Solved::Grundy { values } => {
            let mut out = Vec::with_capacity(plan.positions as usize);
            let mut base = 0u128;
            for &m in &d.lengths {
                for local in 0..r.pow(m as u32) {
                    // The same tuple's index in the larger box.
                    let (mut v, mut at, mut w) = (local, 0u128, 1u128);
                    for _ in 0..m {
                        at += (v % r) * w;
                        v /= r;
                        w *= big;
                    }
                    match values.get((base + at) as usize) {
                        Some(&g) => out.push(g),
                        None => return Ok(None),
                    }
                }
                base += big.pow(m as u32);
            }
            *values = out.into();
        }
        Solved::PSet {
            count,
            canonical_count,
            by_length,
            data,
        } => {
            let inside: Vec<Vec<u64>> = store::decode_positions(data)
                .into_iter()
                .filter(|p| p.iter().all(|&x| x <= d.hi))
                .collect();
            let orderings: u64 = inside.iter().map(|p| distinct_orderings(p)).sum();
            if orderings > MOST_ORDERINGS {
                return Ok(None);
            }
            let mut lengths: Vec<(usize, u64, u64)> =
                d.lengths.iter().map(|&m| (m, 0, 0)).collect();
            let mut out = Vec::new();
            for p in &inside {
                let ordered = class_size(game, p);
                if let Some(l) = lengths.iter_mut().find(|l| l.0 == p.len()) {
                    l.1 += ordered;
                    l.2 += 1;
                }
                store::encode_positions(&mut out, p);
            }
            *count = Some(lengths.iter().map(|l| l.1 as u128).sum());
            *canonical_count = inside.len() as u64;
            *by_length = lengths;
            *data = out;
        }
    }
    a.within = Some(e.key.hi);
    Ok(Some(a))
}

/// The number of distinct orderings of `p`'s entries.
fn distinct_orderings(p: &[u64]) -> u64 {
    let mut sorted = p.to_vec();
    sorted.sort_unstable();
    let mut n = 1u64;
    let mut run = 0u64;
    for (i, x) in sorted.iter().enumerate() {
        run = if i > 0 && sorted[i - 1] == *x {
            run + 1
        } else {
            1
        };
        n = n.saturating_mul(i as u64 + 1) / run;
    }
    n
}

/// The number of ordered positions in the symmetry class of the canonical position `p`.
fn class_size(game: &dyn Game, p: &[u64]) -> u64 {
    let mut n = 0;
    for_each_in_class(game, p, &mut |_| n += 1);
    n
}

/// Each ordered position in the symmetry class of the canonical position `p`, in lexicographic
/// order: the orderings of its entries whose canonical form is `p` (every symmetry of these games
/// permutes the entries).
pub fn for_each_in_class(game: &dyn Game, p: &[u64], f: &mut dyn FnMut(&[u64])) {
    let mut q = p.to_vec();
    q.sort_unstable();
    loop {
        if game.canonical(&q) == p {
            f(&q);
        }
        // The next ordering in lexicographic order.
        let Some(i) = (1..q.len()).rev().find(|&i| q[i - 1] < q[i]) else {
            return;
        };
        let j = (i..q.len()).rev().find(|&j| q[j] > q[i - 1]).unwrap_or(i);
        q.swap(i - 1, j);
        q[i..].reverse();
    }
}

/// A stored table, read whole.
pub fn load(s: &Store, plan: &Plan, e: &Entry) -> Result<Answer> {
    let data = s
        .data(e.id)
        .map_err(|err| Error::store(format!("reading table {}", e.id), err))?;
    let details: serde_json::Value = serde_json::from_str(&e.details).unwrap_or_default();
    let solved = match plan.kind {
        TableKind::Grundy => Solved::Grundy {
            values: store::decode_values(&data).into(),
        },
        TableKind::PSet => {
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
        within: None,
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
