//! `/api/prove`: a pasted families file or automaton (Walnut's format) proved for every stack size,
//! through the prover's one request ([`nimlab_prove::request`]), within the server's limits: the
//! text at most [`MOST_TEXT`] bytes, the automata or each solver query within [`PROVE_SECONDS`].

use super::server::{compute, params, play_of, required, Answer, ApiError, Params, Work};
use super::AppState;
use axum::extract::State;
use axum::Json;
use nimlab_prove::{ProofGame, ProveRequest, Prover, Source};
use std::time::Duration;

/// Largest pasted text (bytes).
pub(crate) const MOST_TEXT: usize = 32 * 1024;
/// The prover's time limit here (the whole automata run, or each SMT query), inside the request's.
const PROVE_SECONDS: u64 = 8;

/// `/api/prove?game=G&families=TEXT` or `&automaton=TEXT` (`heaps`? for nim and moore(k), `misere`?,
/// `automata`? for families with xor): the object of `nimlab prove --json`.
pub(crate) async fn prove(State(s): State<AppState>, q: Params) -> Answer {
    let map = params(
        q,
        &[
            "game",
            "heaps",
            "families",
            "automaton",
            "misere",
            "automata",
        ],
    )?;
    let game = required(&map, "game")?.to_string();
    let heaps = match map.get("heaps").map(|s| s.trim()).filter(|s| !s.is_empty()) {
        None => None,
        Some(h) => Some(
            h.parse::<usize>()
                .map_err(|_| ApiError::bad("heaps must be a whole number (nim and moore(k))"))?,
        ),
    };
    let play = play_of(&map)?;
    let automata = matches!(map.get("automata").map(|s| s.as_str()), Some("1" | "true"));
    let source = match (map.get("families"), map.get("automaton")) {
        (Some(text), None) => Source::Families {
            text: text.clone(),
            name: "the pasted families".into(),
        },
        (None, Some(text)) => Source::Automaton {
            text: text.clone(),
            name: "the pasted automaton".into(),
        },
        _ => {
            return Err(ApiError::bad(
                "give one of families (a families file's text) and automaton (an automaton in Walnut's format)",
            ))
        }
    };
    let size = match &source {
        Source::Families { text, .. } | Source::Automaton { text, .. } => text.len(),
        _ => 0,
    };
    if size > MOST_TEXT {
        return Err(ApiError::bad(format!(
            "the pasted text has {size} bytes; this server proves texts of at most {MOST_TEXT} (the command line has no such limit)"
        )));
    }
    compute(&s, Work::Research, move || {
        let limit = Duration::from_secs(PROVE_SECONDS);
        let parsed = ProofGame::parse(&game, heaps)?;
        let mut req = ProveRequest::of(&game, parsed, source);
        req.play = play;
        req.timeout = limit;
        req.prover = Prover::from_options(automata, std::path::Path::new("z3"), false, limit)?;
        Ok(Json(nimlab_prove::request::prove(&req)?.to_json()))
    })
    .await
}
