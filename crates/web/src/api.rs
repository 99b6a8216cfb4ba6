//! The HTTP server: the page and the JSON API (every endpoint is a GET with query parameters).
//!
//! | endpoint | parameters | answer |
//! |---|---|---|
//! | `/api/games` | — | the catalogue and the preset games of the page |
//! | `/api/game` | `game` | id, rules and how the page draws it (`drawing`, `window`; for complexes `graph`: vertices, edges or step chords, shaded faces, facets) |
//! | `/api/random` | `game`, `seed`? | a random starting position |
//! | `/api/outcome` | `game`, `position`, `misere`? | outcome in words, Grundy value, remoteness, method, explanation |
//! | `/api/moves` | `game`, `position`, `misere`? | every option with its value (winning first) |
//! | `/api/hint` | `game`, `position`, `misere`? | the winning moves, or that none exists |
//! | `/api/move` | `game`, `position`, `to`, `misere`? | checks a player's move and values the position reached |
//! | `/api/computer` | `game`, `position`, `misere`? | the perfect opponent's move |
//! | `/api/explain` | `game`, `position`, `misere`? | the proven result that decides the position, if any |
//!
//! Errors are JSON objects `{"error": message, "kind": kind}`: HTTP 400 for bad input (`bad_request`,
//! `bad_game`, `bad_position`, `illegal_move`, `game_over`), 422 for a position too large to search
//! here (`too_large`), 503 when the server is busy or a computation ran past the request-time limit
//! (`busy`, `timeout`), 500 if a computation failed unexpectedly (`internal`), 404 for unknown paths.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use nimlab_analysis::play::{self as engine, rng_from_time};
use nimlab_analysis::{Analyzer, Explanation, Limits, StoreHandle};
use nimlab_core::{Error, Game, Play, Pos};
use nimlab_core::{Layout, MoveStructure, Rng};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const STYLE_CSS: &str = include_str!("../assets/style.css");

/// Longest a computation may run before the request is answered with a timeout.
const REQUEST_TIME: Duration = Duration::from_secs(10);
/// Longest a request waits for a free computation slot.
const QUEUE_TIME: Duration = Duration::from_secs(5);
/// Computations that may run at once.
const CONCURRENT: usize = 2;

#[derive(Clone)]
struct AppState {
    slots: Arc<Semaphore>,
    analyzer: Arc<Analyzer>,
}

/// The page and the API, answering through an analyzer that reads the store at `store` (solved
/// tables answer positions inside their boxes) or none.
pub fn router_with(store: StoreHandle) -> Router {
    let state = AppState {
        slots: Arc::new(Semaphore::new(CONCURRENT)),
        analyzer: Arc::new(Analyzer::new(store, Limits::WEB)),
    };
    Router::new()
        .route(
            "/",
            get(|| async { asset("text/html; charset=utf-8", INDEX_HTML) }),
        )
        .route(
            "/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/style.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE_CSS) }),
        )
        .route("/api/games", get(games))
        .route("/api/game", get(game_info))
        .route("/api/random", get(random))
        .route("/api/outcome", get(outcome))
        .route("/api/moves", get(moves))
        .route("/api/hint", get(hint))
        .route("/api/move", get(play_move))
        .route("/api/computer", get(computer))
        .route("/api/explain", get(explain))
        .fallback(|| async {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "not_found",
                "no such page or endpoint",
            )
        })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "method_not_allowed",
                "only GET is served here",
            )
        })
        .with_state(state)
}

/// The page and the API, without a store.
pub fn router() -> Router {
    router_with(StoreHandle::none())
}

/// Serves the page on `listener` until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, store: StoreHandle) -> std::io::Result<()> {
    axum::serve(listener, router_with(store)).await
}

fn asset(kind: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// An error answer: status and a JSON body `{"error", "kind"}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    kind: &'static str,
    message: String,
}

impl ApiError {
    fn new(status: StatusCode, kind: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            kind,
            message: message.into(),
        }
    }
    fn bad(message: impl Into<String>) -> ApiError {
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
            Error::Unsupported(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            Error::TooLarge(_) => (StatusCode::UNPROCESSABLE_ENTITY, "too_large"),
            Error::Script(_) => (StatusCode::BAD_REQUEST, "bad_game"),
            Error::Interrupted | Error::Io { .. } | Error::Store { .. } => {
                (StatusCode::INTERNAL_SERVER_ERROR, "internal")
            }
        };
        ApiError::new(status, kind, e.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(json!({"error": self.message, "kind": self.kind})),
        )
            .into_response()
    }
}

type Params = Result<Query<Vec<(String, String)>>, QueryRejection>;
type Answer = Result<Json<Value>, ApiError>;

/// The query parameters, refusing unknown names (a typo should not be silently ignored) and repeated
/// ones (which of two values was meant is not ours to guess).
fn params(q: Params, allowed: &[&str]) -> Result<HashMap<String, String>, ApiError> {
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

fn required<'a>(map: &'a HashMap<String, String>, name: &str) -> Result<&'a str, ApiError> {
    map.get(name)
        .map(|s| s.as_str())
        .ok_or_else(|| ApiError::bad(format!("missing parameter '{name}'")))
}

fn play_of(map: &HashMap<String, String>) -> Result<Play, ApiError> {
    match map.get("misere").map(|s| s.as_str()) {
        None | Some("") | Some("0") | Some("false") => Ok(Play::Normal),
        Some("1") | Some("true") => Ok(Play::Misere),
        Some(other) => Err(ApiError::bad(format!(
            "misere must be true or false, got '{}'",
            other.chars().take(20).collect::<String>()
        ))),
    }
}

/// Runs a computation off the async threads, with a cap on concurrent computations, a request-time
/// limit, and panics turned into an error answer.
async fn compute<F>(state: &AppState, f: F) -> Answer
where
    F: FnOnce() -> Answer + Send + 'static,
{
    let permit = match tokio::time::timeout(QUEUE_TIME, state.slots.clone().acquire_owned()).await {
        Ok(Ok(p)) => p,
        _ => {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "busy",
                "the server is busy; try again",
            ))
        }
    };
    let task = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
    });
    match tokio::time::timeout(REQUEST_TIME, task).await {
        Err(_) => Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "timeout",
            format!(
                "the computation ran past the {} s limit; try a smaller position",
                REQUEST_TIME.as_secs()
            ),
        )),
        Ok(Ok(Ok(answer))) => answer,
        Ok(_) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "the computation failed unexpectedly",
        )),
    }
}

/// The game and position of a request.
fn load(map: &HashMap<String, String>) -> Result<(Box<dyn Game>, Pos), ApiError> {
    let game = engine::load_game(required(map, "game")?)?;
    let p = engine::load_position(game.as_ref(), required(map, "position")?)?;
    Ok((game, p))
}

/// A position as JSON: the entries as numbers (exact below 2^53), as the game's text, and in the
/// game's own notation (Ferguson's `1^3 2 5` for chip games; the tuple for the others).
fn pos_json(game: &dyn Game, p: &[u64]) -> Value {
    json!({
        "entries": p,
        "text": p.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(","),
        "display": game.format_position(p),
        "notation": game.format_like(p, "^"),
    })
}

/// The result that decides a position, or null when it was decided by search.
fn explanation_json(e: &Explanation, is_p: bool) -> Value {
    match &e.statement {
        None => Value::Null,
        Some(st) => json!({
            "id": e.method, "statement": st, "source": e.source,
            "family": e.family, "reason": e.reason, "is_p": is_p,
        }),
    }
}

fn outcome_words(outcome: nimlab_core::Outcome, terminal: bool, play: Play) -> String {
    if terminal {
        match play {
            Play::Normal => "no move is left: the player to move has lost".into(),
            Play::Misere => "no move is left: the player to move has won (misère play)".into(),
        }
    } else {
        outcome.in_words().into()
    }
}

/// The value of a position as JSON (shared by outcome, move and computer).
fn value_json(an: &Analyzer, game: &dyn Game, p: &[u64], play: Play) -> Result<Value, ApiError> {
    let a = engine::value(an, game, p, play)?;
    let e = engine::explain(an, game, p, play)?;
    Ok(json!({
        "game": game.id(),
        "play": play.name(),
        "position": pos_json(game, p),
        "outcome": a.outcome.to_string(),
        "in_words": outcome_words(a.outcome, a.terminal, play),
        "grundy": a.grundy,
        "remoteness": a.remoteness,
        "method": a.method,
        "terminal": a.terminal,
        "explanation": explanation_json(&e, a.outcome.is_p()),
    }))
}

async fn games(q: Params) -> Answer {
    params(q, &[])?;
    let list: Vec<Value> = nimlab_games::catalogue()
        .iter()
        .map(|e| {
            json!({
                "name": e.name, "title": e.title, "parameters": e.parameters,
                "position": e.position, "rules": e.rules, "source": e.source,
            })
        })
        .collect();
    Ok(Json(
        json!({"games": list, "presets": nimlab_games::registry::presets()}),
    ))
}

/// How the page draws a game, from its layout and move structure: `circle` (stacks on a circle,
/// moves inside windows), `shrinking` (a circle whose emptied piles vanish), `heaps` (a row, moves
/// inside faces of at most `window` heaps), `boxes` (moves chosen from the list of options), with the
/// largest window (null for `boxes`). Complexes (`simplicial(...)`, `ECN(...)`) are drawn as `graph`
/// instead, from [`graph_json`].
fn drawing(game: &dyn Game) -> (&'static str, Value) {
    let len = game
        .random_position(&mut Rng::new(1), 3)
        .map_or(0, |p| p.len());
    match (game.layout(), game.move_structure(len)) {
        (Layout::Circle, Some(MoveStructure::ShrinkingWindows { k, .. })) => {
            ("shrinking", json!(k))
        }
        (layout, Some(MoveStructure::Faces(f))) => (
            if layout == Layout::Circle {
                "circle"
            } else {
                "heaps"
            },
            json!(f.iter().map(|w| w.len()).max().unwrap_or(1)),
        ),
        _ => ("boxes", Value::Null),
    }
}

/// The geometry of a complex's drawing (`drawing` = `graph`), computed from its facets: the stacks as
/// vertices on a unit circle (vertex i at angle -90° + 360° i / n, so every facet's polygon is
/// convex), the edges, the faces of 3 or more vertices (shaded on the page) and every facet (a move
/// lowers stacks inside one of them).
///
/// For ECN(m,S,k) (`kind` = `ecn`) the edges are the step chords {i, i+s} for each s in S whose
/// facets hold two or more stacks (m chords per step, m/2 when 2s = m), each with its `step`, and no
/// face is shaded (the chords show the facets). For any other complex (`kind` = `complex`) the
/// edges are the pairs inside a facet (`step` null) and the faces are the facets of 3 or more stacks,
/// their vertices in order around the circle.
pub fn graph_json(game: &dyn Game) -> Option<Value> {
    use nimlab_games::complex::{Complex, Kind};
    let c = game.downcast_ref::<Complex>()?;
    let n = c.stacks();
    let round = |v: f64| (v * 10_000.0).round() / 10_000.0;
    let vertices: Vec<Value> = (0..n)
        .map(|i| {
            let a = -std::f64::consts::FRAC_PI_2 + 2.0 * std::f64::consts::PI * i as f64 / n as f64;
            json!({"id": i, "x": round(a.cos()), "y": round(a.sin())})
        })
        .collect();
    let facets = c.facets();
    let (kind, steps, edges, faces) = match c.kind() {
        Kind::Ecn { steps, k } => {
            let mut edges = Vec::new();
            // A step's facets hold min(k, m / gcd(m, s)) >= min(k, 2) stacks: chords when k >= 2.
            for &s in steps.iter().filter(|_| *k >= 2) {
                let mut seen = std::collections::BTreeSet::new();
                for i in 0..n {
                    let (a, b) = (i, (i + s) % n);
                    if seen.insert((a.min(b), a.max(b))) {
                        edges.push(json!({"a": a, "b": b, "step": s}));
                    }
                }
            }
            ("ecn", json!(steps), edges, Vec::new())
        }
        Kind::Simplicial => {
            let mut pairs = std::collections::BTreeSet::new();
            for f in facets {
                for (x, &a) in f.iter().enumerate() {
                    for &b in &f[x + 1..] {
                        pairs.insert((a, b));
                    }
                }
            }
            let edges = pairs
                .into_iter()
                .map(|(a, b)| json!({"a": a, "b": b, "step": null}))
                .collect();
            // Facets are sorted, and sorted stacks lie in order around the circle.
            let faces = facets.iter().filter(|f| f.len() >= 3).cloned().collect();
            ("complex", Value::Null, edges, faces)
        }
    };
    Some(json!({
        "kind": kind,
        "stacks": n,
        "steps": steps,
        "vertices": vertices,
        "edges": edges,
        "faces": faces,
        "facets": facets,
    }))
}

async fn game_info(q: Params) -> Answer {
    let map = params(q, &["game"])?;
    let game = engine::load_game(required(&map, "game")?)?;
    let graph = graph_json(game.as_ref());
    let (drawing, window) = drawing(game.as_ref());
    Ok(Json(json!({
        "game": game.id(),
        "rules": game.rules(),
        "drawing": if graph.is_some() { "graph" } else { drawing },
        "window": window,
        "graph": graph,
    })))
}

async fn random(State(s): State<AppState>, q: Params) -> Answer {
    let map = params(q, &["game", "seed"])?;
    let game = engine::load_game(required(&map, "game")?)?;
    let mut rng = match map.get("seed") {
        None => rng_from_time(),
        Some(s) => Rng::new(
            s.parse()
                .map_err(|_| ApiError::bad("seed must be a non-negative integer"))?,
        ),
    };
    let s2 = s.clone();
    compute(&s, move || {
        let p = engine::random_position(&s2.analyzer, game.as_ref(), &mut rng)?;
        Ok(Json(
            json!({"game": game.id(), "position": pos_json(game.as_ref(), &p)}),
        ))
    })
    .await
}

const POSITION_PARAMS: [&str; 3] = ["game", "position", "misere"];

async fn outcome(State(s): State<AppState>, q: Params) -> Answer {
    let map = params(q, &POSITION_PARAMS)?;
    let play = play_of(&map)?;
    let (game, p) = load(&map)?;
    let an = s.analyzer.clone();
    compute(&s, move || {
        Ok(Json(value_json(&an, game.as_ref(), &p, play)?))
    })
    .await
}

async fn moves(State(s): State<AppState>, q: Params) -> Answer {
    let map = params(q, &POSITION_PARAMS)?;
    let play = play_of(&map)?;
    let (game, p) = load(&map)?;
    let an = s.analyzer.clone();
    compute(&s, move || {
        let g = game.as_ref();
        let a = match engine::moves(&an, g, &p, play) {
            Ok(a) => a,
            // Too many options to list them all with their values (Nim with heaps of 10^6): answer
            // the winning moves alone, which a theorem or the chain finds without listing options.
            Err(Error::TooLarge(why)) => return winning_only(&an, g, &p, play, &why),
            Err(e) => return Err(e.into()),
        };
        let list = a.options.unwrap_or_default();
        let winning = list.iter().filter(|m| m.outcome.is_p()).count();
        let moves: Vec<Value> = list
            .iter()
            .map(|m| {
                json!({
                    "to": pos_json(g, &m.to), "winning": m.outcome.is_p(),
                    "grundy": m.grundy, "remoteness": m.remoteness,
                })
            })
            .collect();
        Ok(Json(json!({
            "game": g.id(), "play": play.name(), "position": pos_json(g, &p),
            "count": moves.len(), "winning_count": winning, "moves": moves,
            "method": a.moves_method, "all_options": true, "winning_moves_complete": true,
        })))
    })
    .await
}

/// The answer of `/api/moves` when the options are too many to list: the winning moves only, with
/// whether they are all of them, and why the other options are missing.
fn winning_only(an: &Analyzer, g: &dyn Game, p: &[u64], play: Play, why: &str) -> Answer {
    let a = an.analyse(
        g,
        p,
        play,
        nimlab_analysis::Want {
            moves: true,
            ..Default::default()
        },
    )?;
    let moves: Vec<Value> = a
        .winning_moves
        .unwrap_or_default()
        .iter()
        .map(|q| {
            // A winning move's target is a P-position: Grundy value 0 in normal play.
            let grundy = (play == Play::Normal).then_some(0);
            json!({"to": pos_json(g, q), "winning": true, "grundy": grundy, "remoteness": null})
        })
        .collect();
    Ok(Json(json!({
        "game": g.id(), "play": play.name(), "position": pos_json(g, p),
        "count": null, "winning_count": moves.len(), "moves": moves,
        "method": a.moves_method, "all_options": false,
        "winning_moves_complete": a.winning_moves_complete,
        "note": format!("only the winning moves are listed: {why}"),
    })))
}

async fn hint(State(s): State<AppState>, q: Params) -> Answer {
    let map = params(q, &POSITION_PARAMS)?;
    let play = play_of(&map)?;
    let (game, p) = load(&map)?;
    let an = s.analyzer.clone();
    compute(&s, move || {
        let g = game.as_ref();
        let a = an.analyse(
            g,
            &p,
            play,
            nimlab_analysis::Want {
                moves: true,
                ..Default::default()
            },
        )?;
        let (w, complete) = (a.winning_moves.unwrap_or_default(), a.winning_moves_complete);
        let text = if a.terminal {
            "the game is over".to_string()
        } else if w.is_empty() {
            "no winning move exists: every move leaves your opponent a winning position".to_string()
        } else if !complete {
            format!(
                "winning move{} constructed by a proven result; the list may be partial (the position is too large to search for others): {}",
                if w.len() == 1 { "" } else { "s" },
                w.iter()
                    .map(|q| g.format_position(q))
                    .collect::<Vec<_>>()
                    .join("  ")
            )
        } else {
            format!(
                "winning move{}: {}",
                if w.len() == 1 { "" } else { "s" },
                w.iter()
                    .map(|q| g.format_position(q))
                    .collect::<Vec<_>>()
                    .join("  ")
            )
        };
        Ok(Json(json!({
            "game": g.id(), "play": play.name(), "position": pos_json(g, &p),
            "exists": !w.is_empty(),
            "complete": complete,
            "winning_moves_complete": complete,
            "method": a.moves_method,
            "winning_moves": w.iter().map(|q| pos_json(g, q)).collect::<Vec<_>>(),
            "text": text,
        })))
    })
    .await
}

async fn play_move(State(s): State<AppState>, q: Params) -> Answer {
    let map = params(q, &["game", "position", "to", "misere"])?;
    let play = play_of(&map)?;
    let (game, p) = load(&map)?;
    let to_text = required(&map, "to")?.to_string();
    if to_text.len() > 4096 {
        return Err(ApiError::bad("position text too long"));
    }
    let an = s.analyzer.clone();
    compute(&s, move || {
        let g = game.as_ref();
        if g.is_terminal(&p)? {
            return Err(Error::Unsupported("the game is over: no move is left".into()).into());
        }
        // Games whose moves have a structure accept the position written with emptied piles as zeros.
        let to = match g.move_structure(p.len()) {
            Some(_) => nimlab_core::position::parse_list(&to_text)?,
            None => g.parse_position(&to_text)?,
        };
        let to = engine::legal_move(&an, g, &p, &to)?;
        let mut v = value_json(&an, g, &to, play)?;
        // The mover wins with perfect play exactly when the position reached is a P-position.
        v["winning"] = json!(v["outcome"] == "P");
        v["from"] = pos_json(g, &p);
        Ok(Json(v))
    })
    .await
}

async fn computer(State(s): State<AppState>, q: Params) -> Answer {
    let map = params(q, &POSITION_PARAMS)?;
    let play = play_of(&map)?;
    let (game, p) = load(&map)?;
    let an = s.analyzer.clone();
    compute(&s, move || {
        let g = game.as_ref();
        if g.is_terminal(&p)? {
            return Err(Error::Unsupported("the game is over: no move is left".into()).into());
        }
        let c = engine::computer_move(&an, g, &p, play)?;
        let mut v = value_json(&an, g, &c.to, play)?;
        v["winning"] = json!(c.winning);
        v["why"] = json!(c.why);
        v["from"] = pos_json(g, &p);
        Ok(Json(v))
    })
    .await
}

async fn explain(State(s): State<AppState>, q: Params) -> Answer {
    let map = params(q, &POSITION_PARAMS)?;
    let play = play_of(&map)?;
    let (game, p) = load(&map)?;
    let an = s.analyzer.clone();
    compute(&s, move || {
        let g = game.as_ref();
        let a = an.analyse(
            g,
            &p,
            play,
            nimlab_analysis::Want {
                explain: true,
                ..Default::default()
            },
        )?;
        let e = a.explanation.expect("an explanation was asked for");
        let text = match (&e.statement, &e.source) {
            (Some(st), Some(src)) => {
                format!("{}: {st} (source: {src}) — here: {}", e.method, e.reason)
            }
            _ => format!(
                "no proven result covers {} in {} play; nimlab answers it by {}: {}",
                g.id(),
                play.name(),
                if e.method == "search" {
                    "exhaustive search".to_string()
                } else {
                    e.method.clone()
                },
                e.reason
            ),
        };
        Ok(Json(json!({
            "game": g.id(), "play": play.name(), "position": pos_json(g, &p),
            "method": a.method,
            "explanation": explanation_json(&e, a.outcome.is_p()), "text": text,
        })))
    })
    .await
}

/// `nimlab serve`: binds `bind:port` (port 0 picks a free port), prints the address on stdout and
/// serves until the process is stopped.
pub fn run(bind: &str, port: u16, store: StoreHandle) -> std::io::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(8)
        .enable_all()
        .build()?;
    rt.block_on(async {
        let listener = tokio::net::TcpListener::bind((bind, port)).await?;
        let addr = listener.local_addr()?;
        println!("nimlab serve: listening on http://{addr}/ (Ctrl-C stops)");
        use std::io::Write;
        let _ = std::io::stdout().flush();
        serve(listener, store).await
    })
}
