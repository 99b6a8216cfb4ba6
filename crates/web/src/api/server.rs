//! What every request needs: the query parameters (unknown and repeated names refused), errors as
//! JSON objects with an HTTP status, and computations run off the async threads with a cap on how
//! many run at once and a request-time limit.

use super::{AppState, REQUEST_TIME};
use axum::extract::rejection::QueryRejection;
use axum::extract::Query;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use nimlab_analysis::play as engine;
use nimlab_core::{Error, Game, Play, Pos};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// An error answer: status and a JSON body `{"error", "kind"}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    kind: &'static str,
    message: String,
    /// Seconds after which the same request may succeed (`Retry-After`), for `busy` answers.
    retry_after: Option<u64>,
}

impl ApiError {
    /// The error's kind (`bad_request`, `too_large`, `busy`, ...).
    pub(crate) fn kind(&self) -> &'static str {
        self.kind
    }

    pub(crate) fn new(
        status: StatusCode,
        kind: &'static str,
        message: impl Into<String>,
    ) -> ApiError {
        ApiError {
            status,
            kind,
            message: message.into(),
            retry_after: None,
        }
    }
    /// The answer when every slot of a pool stayed taken: 503 `busy`, with a `Retry-After` header of
    /// `seconds` and the same advice in words.
    pub(crate) fn busy(what: &str, seconds: u64) -> ApiError {
        ApiError {
            retry_after: Some(seconds),
            ..ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "busy",
                format!(
                    "the server is busy with other {what}; try again in {seconds} s (Retry-After)"
                ),
            )
        }
    }
    pub(crate) fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }
}

impl From<Error> for ApiError {
    fn from(e: Error) -> ApiError {
        let (status, kind) = match &e {
            Error::BadGame(_) => (StatusCode::BAD_REQUEST, "bad_game"),
            Error::BadPosition(m) if m.starts_with("illegal move") => {
                (StatusCode::BAD_REQUEST, "illegal_move")
            }
            Error::BadPosition(_) => (StatusCode::BAD_REQUEST, "bad_position"),
            Error::Unsupported(m) if m.starts_with("the game is over") => {
                (StatusCode::BAD_REQUEST, "game_over")
            }
            Error::Unsupported(_) | Error::Refused(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            Error::TooLarge(_) | Error::TooLargeRefused(_) => {
                (StatusCode::UNPROCESSABLE_ENTITY, "too_large")
            }
            Error::Script(_) => (StatusCode::BAD_REQUEST, "bad_game"),
            Error::Interrupted | Error::Io { .. } | Error::Store { .. } => {
                (StatusCode::INTERNAL_SERVER_ERROR, "internal")
            }
        };
        ApiError::new(status, kind, e.render(&Parameters))
    }
}

/// The API's spelling of a request's options: its query parameters (`heaps=N`, `misere=1`), and in
/// words the options it does not have (the search limit, the method and back end of a table, its
/// checkpoints, the store).
pub(crate) struct Parameters;

impl nimlab_core::arg::Spelling for Parameters {
    fn spell(&self, arg: nimlab_core::Arg, how: &nimlab_core::arg::Mention) -> String {
        use nimlab_core::arg::Mention;
        use nimlab_core::Arg;
        match (arg, how) {
            (Arg::Limit, Mention::Value(v)) => return format!("a search limit of {v}"),
            (Arg::Limit, Mention::Name) => return "the search limit".into(),
            (Arg::Limit, _) => return "a larger search limit".into(),
            (Arg::Method, Mention::Value(v)) => return format!("the {v} method"),
            (Arg::Method, _) => return "the method".into(),
            (Arg::Backend, Mention::Value(v)) => {
                return format!("the {} back end", v.to_uppercase())
            }
            (Arg::Backend, _) => return "the back end".into(),
            (Arg::Resume, _) => return "resuming from a checkpoint".into(),
            (Arg::Restart, _) => return "restarting from scratch".into(),
            (Arg::Db, _) => return "a store".into(),
            (Arg::NoStore, _) => return "no store".into(),
            _ => {}
        }
        let name = arg.name().replace('-', "_");
        match (how, arg.placeholder()) {
            (Mention::Name, _) => format!("the parameter {name}"),
            (Mention::Given, None) => format!("{name}=1"),
            (Mention::Given, Some(p)) => format!("{name}={p}"),
            (Mention::Value(v), _) => format!("{name}={v}"),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({"error": self.message, "kind": self.kind});
        match self.retry_after {
            None => (self.status, Json(body)).into_response(),
            Some(s) => {
                body["retry_after"] = json!(s);
                (
                    self.status,
                    [(header::RETRY_AFTER, s.to_string())],
                    Json(body),
                )
                    .into_response()
            }
        }
    }
}

pub(crate) type Params = Result<Query<Vec<(String, String)>>, QueryRejection>;
pub(crate) type Answer = Result<Json<Value>, ApiError>;

/// The query parameters, refusing unknown names (a typo should not be silently ignored) and repeated
/// ones (which of two values was meant is not ours to guess).
pub(crate) fn params(q: Params, allowed: &[&str]) -> Result<HashMap<String, String>, ApiError> {
    let Query(pairs) = q.map_err(|e| ApiError::bad(format!("bad query string: {e}")))?;
    let mut map = HashMap::new();
    for (k, v) in pairs {
        let shown = k.chars().take(40).collect::<String>();
        if !allowed.contains(&k.as_str()) {
            return Err(ApiError::bad(if allowed.is_empty() {
                format!("unknown parameter '{shown}'; this endpoint takes no parameters")
            } else {
                format!(
                    "unknown parameter '{shown}'; this endpoint takes: {}",
                    allowed.join(", ")
                )
            }));
        }
        if map.insert(k, v).is_some() {
            return Err(ApiError::bad(format!(
                "parameter '{shown}' is given more than once"
            )));
        }
    }
    Ok(map)
}

pub(crate) fn required<'a>(
    map: &'a HashMap<String, String>,
    name: &str,
) -> Result<&'a str, ApiError> {
    map.get(name)
        .map(|s| s.as_str())
        .ok_or_else(|| ApiError::bad(format!("missing parameter '{name}'")))
}

pub(crate) fn play_of(map: &HashMap<String, String>) -> Result<Play, ApiError> {
    match map.get("misere").map(|s| s.as_str()) {
        None | Some("") | Some("0") | Some("false") => Ok(Play::Normal),
        Some("1") | Some("true") => Ok(Play::Misere),
        Some(other) => Err(ApiError::bad(format!(
            "misere must be true or false, got '{}'",
            other.chars().take(20).collect::<String>()
        ))),
    }
}

/// Which pool of slots a computation takes ([`super::Capacity`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Work {
    /// A question about one position or sum.
    Quick,
    /// A table, a search for a characterization or a proof.
    Research,
}

/// Runs a computation off the async threads, with a cap on concurrent computations of its kind of
/// `work`, a request-time limit, and panics turned into an error answer.
pub(crate) async fn compute<F>(state: &AppState, work: Work, f: F) -> Answer
where
    F: FnOnce() -> Answer + Send + 'static,
{
    let pool = match work {
        Work::Quick => &state.quick,
        Work::Research => &state.research,
    };
    let permit = match tokio::time::timeout(state.queue, pool.slots.clone().acquire_owned()).await {
        Ok(Ok(p)) => p,
        _ => return Err(ApiError::busy(pool.what, retry_after(state.queue))),
    };
    // The computation runs in a cancel scope: past the time limit the flag is set, and the search or
    // the engine stops soon after and gives its slot back.
    let flag = Arc::new(AtomicBool::new(false));
    let inner = flag.clone();
    let task = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        nimlab_core::interrupt::scope(inner, || {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        })
    });
    match tokio::time::timeout(REQUEST_TIME, task).await {
        Err(_) => Err({
            flag.store(true, Ordering::Relaxed);
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "timeout",
                format!(
                    "the computation ran past the {} s limit; try a smaller position",
                    REQUEST_TIME.as_secs()
                ),
            )
        }),
        Ok(Ok(Ok(answer))) => answer,
        Ok(_) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "the computation failed unexpectedly",
        )),
    }
}

/// Seconds to wait before asking again after waiting `queued` for a slot in vain. Every computation
/// is stopped at the request-time limit, so a slot that was taken when the wait began is free at most
/// that limit less the wait later (at least a second).
fn retry_after(queued: std::time::Duration) -> u64 {
    let left = REQUEST_TIME.saturating_sub(queued);
    (left.as_secs() + u64::from(left.subsec_nanos() > 0)).max(1)
}

/// The game and position of a request.
pub(crate) fn load(map: &HashMap<String, String>) -> Result<(Box<dyn Game>, Pos), ApiError> {
    let game = engine::load_game(required(map, "game")?)?;
    let p = engine::load_position(game.as_ref(), required(map, "position")?)?;
    Ok((game, p))
}
