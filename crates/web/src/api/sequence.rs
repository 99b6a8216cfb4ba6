//! `/api/sequence`: the values of single heaps 0..=`max` of a one-heap game (octal and hexadecimal
//! codes, subtraction games, Grundy's game) with the period found, as `nimlab sequence --json`
//! computes them ([`nimlab_analysis::sequence`]), within the page's limits.

use super::research::number;
use super::server::{compute, params, required, Answer, ApiError, Parameters, Params, Work};
use super::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use nimlab_analysis::sequence;
use serde_json::json;

/// Most heaps the page computes and draws (one value a heap); `nimlab sequence` goes further.
pub(crate) const MOST_HEAPS: u64 = 100_000;
/// Option visits a sequence may take here, well inside the request's time.
const LIMIT: f64 = 1e9;

/// `/api/sequence?game=G&max=N`: the object of `nimlab sequence G --max N --json`, with the method
/// and the period in words (`method_text`, `period_text`).
pub(crate) async fn sequence(State(s): State<AppState>, q: Params) -> Answer {
    let map = params(q, &["game", "max"])?;
    let game = sequence::one_heap(required(&map, "game")?)?;
    let Some(max) = number::<u64>(&map, "max")? else {
        return Err(ApiError::bad("missing parameter 'max'"));
    };
    if max > MOST_HEAPS {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "too_large",
            format!(
                "max={max}: the page computes the values of at most {MOST_HEAPS} heaps; nimlab sequence computes further"
            ),
        ));
    }
    let req = sequence::Request::new(max, LIMIT);
    sequence::check(&game, &req)?;
    compute(&s, Work::Research, move || {
        let v = sequence::compute(&game, &req)?;
        let mut answer = v.to_json();
        answer["method_text"] = json!(v.method_words());
        answer["period_text"] = json!(v.period_words(&Parameters));
        Ok(Json(answer))
    })
    .await
}
