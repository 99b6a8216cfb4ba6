//! The research view's endpoints: a 2-D slice of a table (`/api/slice`), the P-positions grouped by
//! shape (`/api/patterns`) and `discover` within the request's time (`/api/discover`). Tables are
//! planned and computed as `nimlab table` does (`nimlab_tables::plan`), within the web's limits.

use super::server::{compute, params, play_of, required, Answer, ApiError, Params, Work};
use super::AppState;
use axum::extract::State;
use axum::Json;
use nimlab_core::{Error, Game, Hooks, Play};
use nimlab_tables::plan::{self, Bounds, Domain, Plan, Request, TableKind};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::time::Duration;

/// Largest box the research view tabulates (positions); a table's engine run stays well inside the
/// request's time.
const MOST_POSITIONS: f64 = 2e7;
/// Largest entry of a slice (cells per side).
const MOST_SIDE: u64 = 255;
/// `discover`'s time limit here, inside the request's.
const DISCOVER_SECONDS: u64 = 8;

/// A number parameter, if given.
pub(crate) fn number<T: std::str::FromStr>(
    map: &HashMap<String, String>,
    key: &str,
) -> Result<Option<T>, ApiError> {
    match map.get(key).map(|s| s.trim()).filter(|s| !s.is_empty()) {
        None => Ok(None),
        Some(s) => s.parse().map(Some).map_err(|_| {
            ApiError::bad(format!(
                "{key} must be a whole number, got '{}'",
                s.chars().take(20).collect::<String>()
            ))
        }),
    }
}

/// True for `true`/`1`, false when absent, `false` or `0`.
fn flag(map: &HashMap<String, String>, key: &str) -> Result<bool, ApiError> {
    match map.get(key).map(|s| s.as_str()) {
        None | Some("") | Some("0") | Some("false") => Ok(false),
        Some("1") | Some("true") => Ok(true),
        Some(_) => Err(ApiError::bad(format!("{key} must be true or false"))),
    }
}

/// The game and the planned table of a request (`game`, `max`, `heaps`, `misere`, `grundy`).
fn planned(map: &HashMap<String, String>) -> Result<(Box<dyn Game>, Plan), ApiError> {
    let game = nimlab_games::parse_game(required(map, "game")?)?;
    let play = play_of(map)?;
    let grundy = flag(map, "grundy")?;
    if grundy && play == Play::Misere {
        return Err(Error::Unsupported(
            "Grundy values are defined for normal play; drop misere".into(),
        )
        .into());
    }
    let req = Request {
        bounds: Bounds {
            max: number(map, "max")?,
            max_sum: None,
            heaps: number(map, "heaps")?,
        },
        play,
        kind: if grundy {
            TableKind::Grundy
        } else {
            TableKind::PSet
        },
        method: plan::TableMethod::Auto,
        backend: plan::Backend::Cpu,
        remoteness: false,
        limit: 2e7,
        resume: plan::ResumeMode::Auto,
    };
    let plan = plan::plan(game.as_ref(), &req)?;
    if !matches!(plan.domain, Domain::Box(_)) {
        return Err(Error::Unsupported(format!(
            "the research view draws boxes of stacks; {} is bounded by its chips (use nimlab table)",
            game.id()
        ))
        .into());
    }
    if plan.positions > MOST_POSITIONS {
        return Err(Error::TooLarge(format!(
            "a box of {:.1e} positions is more than the page tabulates ({MOST_POSITIONS:.0e}); use nimlab table or nimlab plot",
            plan.positions
        ))
        .into());
    }
    Ok((game, plan))
}

/// `fix=1=5,2=3`: (0-based stack, value) pairs.
fn fixes(map: &HashMap<String, String>) -> Result<Vec<(usize, u64)>, ApiError> {
    let mut out: Vec<(usize, u64)> = Vec::new();
    for part in map.get("fix").map(|s| s.as_str()).unwrap_or("").split(',') {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let bad = || {
            ApiError::bad(format!(
                "fix must read like 1=5,2=3 (stack=value), got '{part}'"
            ))
        };
        let (i, v) = part.split_once('=').ok_or_else(bad)?;
        let i: usize = i.trim().parse().map_err(|_| bad())?;
        let v: u64 = v.trim().parse().map_err(|_| bad())?;
        if i == 0 || out.iter().any(|f| f.0 == i - 1) {
            return Err(bad());
        }
        out.push((i - 1, v));
    }
    Ok(out)
}

/// `/api/slice`: the cells of a 2-D slice (every stack but two fixed).
pub(crate) async fn slice(State(s): State<AppState>, q: Params) -> Answer {
    let map = params(q, &["game", "max", "heaps", "misere", "grundy", "fix"])?;
    let fix = fixes(&map)?;
    let (game, plan) = match planned(&map) {
        Ok(p) => p,
        // A slice needs only the positions below it: when the whole box is more than the page
        // tabulates, its cells are searched from themselves.
        Err(e) if e.kind() == "too_large" && !fix.is_empty() => {
            return slice_alone(s, &map, fix, e).await
        }
        Err(e) => return Err(e),
    };
    let Domain::Box(d) = &plan.domain else {
        unreachable!("planned() keeps boxes")
    };
    if d.hi - d.lo >= MOST_SIDE {
        return Err(ApiError::bad(format!(
            "a slice of at most {MOST_SIDE} values per side here; use nimlab plot"
        )));
    }
    for &(i, v) in &fix {
        if v < d.lo || v > d.hi {
            return Err(ApiError::bad(format!(
                "fix {}={v}: the box holds values {}..={} only",
                i + 1,
                d.lo,
                d.hi
            )));
        }
    }
    compute(&s, Work::Research, move || {
        let answer = plan::run(game.as_ref(), &plan, None, Hooks::default())?;
        let sl = plan::slice(game.as_ref(), &plan, &answer.solved, &fix)?;
        let grundy = plan.kind == TableKind::Grundy;
        Ok(Json(json!({
            "game": game.id(),
            "play": plan.play.name(),
            "kind": if grundy { "grundy" } else { "pset" },
            "lo": sl.lo,
            "hi": sl.hi,
            "axes": [sl.x + 1, sl.y + 1],
            "fix": fix.iter().map(|&(i, v)| json!({"stack": i + 1, "value": v})).collect::<Vec<_>>(),
            "cells": sl.cells.iter().map(|&(x, y, v)| json!([x, y, v])).collect::<Vec<_>>(),
            "count": sl.cells.len(),
            "method": answer.source.name(),
        })))
    })
    .await
}

/// Option visits a slice searched from its cells may take here.
const SLICE_SEARCH_LIMIT: f64 = 2e8;

/// `/api/slice` when the box is too large to tabulate here: the cells searched from themselves
/// ([`plan::slice_by_search`]); refused with both reasons when that is too large as well.
async fn slice_alone(
    s: AppState,
    map: &HashMap<String, String>,
    fix: Vec<(usize, u64)>,
    whole: ApiError,
) -> Answer {
    let game = nimlab_games::parse_game(required(map, "game")?)?;
    let play = play_of(map)?;
    let grundy = flag(map, "grundy")?;
    let Some(max) = number::<u64>(map, "max")? else {
        return Err(whole);
    };
    let d = game.table_domain(max, number(map, "heaps")?)?;
    let width = d.lengths.iter().copied().max().unwrap_or(0);
    if d.hi - d.lo >= MOST_SIDE {
        return Err(ApiError::bad(format!(
            "a slice of at most {MOST_SIDE} values per side here; use nimlab plot"
        )));
    }
    for &(i, v) in &fix {
        if i >= width || v < d.lo || v > d.hi {
            return Err(ApiError::bad(format!(
                "fix {}={v}: the box holds stacks 1..={width} with values {}..={} only",
                i + 1,
                d.lo,
                d.hi
            )));
        }
    }
    let below = plan::down_set_size(width, d.lo, d.hi, &fix);
    compute(&s, Work::Research, move || {
        let cancel = nimlab_core::interrupt::current();
        let budget = nimlab_core::Budget {
            limit: SLICE_SEARCH_LIMIT,
            flag: None,
        };
        let (sl, method) = plan::slice_by_search(
            game.as_ref(),
            play,
            grundy,
            width,
            d.lo,
            d.hi,
            &fix,
            budget,
            cancel.as_deref(),
        )?;
        Ok(Json(json!({
            "game": game.id(),
            "play": play.name(),
            "kind": if grundy { "grundy" } else { "pset" },
            "lo": sl.lo,
            "hi": sl.hi,
            "axes": [sl.x + 1, sl.y + 1],
            "fix": fix.iter().map(|&(i, v)| json!({"stack": i + 1, "value": v})).collect::<Vec<_>>(),
            "cells": sl.cells.iter().map(|&(x, y, v)| json!([x, y, v])).collect::<Vec<_>>(),
            "count": sl.cells.len(),
            "method": method.name(),
            "searched": below,
        })))
    })
    .await
}

/// `/api/patterns`: the canonical P-positions of a box grouped by shape, as `nimlab patterns --json`
/// groups them.
pub(crate) async fn patterns(State(s): State<AppState>, q: Params) -> Answer {
    let map = params(q, &["game", "max", "heaps", "misere"])?;
    let (game, plan) = planned(&map)?;
    compute(&s, Work::Research, move || {
        let answer = plan::run(game.as_ref(), &plan, None, Hooks::default())?;
        let ps = answer.solved.positions();
        let fams = nimlab_research::patterns::families(&ps, 3);
        Ok(Json(json!({
            "game": game.id(),
            "play": plan.play.name(),
            "max": plan.bounds.max,
            "canonical_count": ps.len(),
            "families": fams.iter().map(|f| json!({
                "shape": f.shape, "count": f.count, "relations": f.relations, "examples": f.examples,
            })).collect::<Vec<_>>(),
        })))
    })
    .await
}

/// `/api/discover`: `nimlab discover GAME --json` within a few seconds (no store), with the
/// characterization's file text (`max`, or `max_sum` for the redistribution chip games).
pub(crate) async fn discover(State(s): State<AppState>, q: Params) -> Answer {
    let map = params(q, &["game", "misere", "max", "max_sum"])?;
    let game = required(&map, "game")?.to_string();
    let play = play_of(&map)?;
    let max = number(&map, "max")?;
    // The redistribution chip games are bounded by their total number of chips.
    let max_sum = number(&map, "max_sum")?;
    compute(&s, Work::Research, move || {
        let opts = nimlab_discover::Options {
            max,
            max_sum,
            timeout: Duration::from_secs(DISCOVER_SECONDS),
            play,
            cancel: nimlab_core::interrupt::current(),
            ..Default::default()
        };
        let d = nimlab_discover::discover(&game, &opts)?;
        let mut v: Value = d.to_json_spelled(&super::server::Parameters);
        v["text"] = json!(d.toml.as_ref().or(d.walnut.as_ref()));
        Ok(Json(v))
    })
    .await
}
