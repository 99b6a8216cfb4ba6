//! The HTTP server: the page and the JSON API (every endpoint is a GET with query parameters).
//!
//! `server` holds what every request needs (parameters, errors, the bounded computation slots),
//! `draw` the geometry the page draws a game with, `handlers` the endpoints. The answers' JSON is
//! built by the analysis library ([`nimlab_analysis::json`]): `/api/answer`, `/api/sum`,
//! `/api/theory` and `/api/games` answer exactly the objects of the command line's `--json` and of
//! Python; the page's own endpoints add what the page shows (the position in the game's notation,
//! the outcome in words, the method in words) around the same parts.
//!
//! | endpoint | parameters | answer |
//! |---|---|---|
//! | `/api/games` | — | the catalogue (`games`, as `nimlab games --json`) and the preset games of the page |
//! | `/api/game` | `game` | id, rules and how the page draws it (`drawing`, `window`; for complexes `graph`: vertices, edges or step chords, shaded faces, facets) and how it is tabulated (`table`: `heaps`, `box`, `max_sum`, `spread`, `none`; `sequence`: whether `/api/sequence` takes it) |
//! | `/api/random` | `game`, `seed`? | a random starting position |
//! | `/api/outcome` | `game`, `position`, `misere`? | outcome in words, Grundy value, remoteness, method, explanation |
//! | `/api/moves` | `game`, `position`, `misere`? | every option with its value, sorted by position (the winning moves alone when the options are too many): `nimlab_analysis::play::moves_shown` |
//! | `/api/hint` | `game`, `position`, `misere`? | the winning moves, or that none exists, in the words of `nimlab play` |
//! | `/api/move` | `game`, `position`, `to`, `misere`? | checks a player's move and values the position reached |
//! | `/api/computer` | `game`, `position`, `misere`? | the perfect opponent's move |
//! | `/api/explain` | `game`, `position`, `misere`? | the proven result that decides the position, if any |
//! | `/api/answer` | `ask` (`outcome`, `grundy`, `moves`, `options`, `explain`), `game`, `position`, `misere`? | the analysis object of `nimlab outcome|grundy|moves [--all]|explain --json` |
//! | `/api/sum` | `sum` (`G[p] + H[q]`), `misere`?, `moves`? | the sum object of `nimlab outcome|moves SUM --json` |
//! | `/api/theory` | `game`? | the proven results, as `nimlab theory [GAME] --json` |
//! | `/api/prove` | `game`, `heaps`?, `families` or `automaton` (the file's text), `misere`?, `automata`? | `nimlab prove --json` on the pasted file, within the server's limits |
//! | `/api/slice`, `/api/patterns`, `/api/discover` | `game`, `max`, ... | the research view's slice of a table, its patterns and `discover` (see `research.rs`) |
//! | `/api/sequence` | `game` (a one-heap game), `max` (at most 100000) | `nimlab sequence --json` with the method and the period in words (`method_text`, `period_text`) |
//!
//! Errors are JSON objects `{"error": message, "kind": kind}`: HTTP 400 for bad input (`bad_request`,
//! `bad_game`, `bad_position`, `illegal_move`, `game_over`), 422 for a position too large to search
//! here (`too_large`), 503 when the server is busy or a computation ran past the request-time limit
//! (`busy`, `timeout`), 500 if a computation failed unexpectedly (`internal`), 404 for unknown paths.
//! A `busy` answer carries a `Retry-After` header (seconds), and the same number as `retry_after` in
//! its JSON with a message that says when to try again.
//!
//! Computations run in two pools of slots ([`Capacity`]): quick answers about a position or a sum,
//! and research work (tables, sequences, `discover`, `prove`), so that research requests, however many, never
//! make a question that a theorem answers at once wait.

mod draw;
mod handlers;
mod prove;
mod research;
mod sequence;
mod server;

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use nimlab_analysis::{Analyzer, Limits, StoreHandle};
pub use server::ApiError;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

pub use draw::graph_json;

const INDEX_HTML: &str = include_str!("../../assets/index.html");
const APP_JS: &str = include_str!("../../assets/app.js");
const RESEARCH_HTML: &str = include_str!("../../assets/research.html");
const RESEARCH_JS: &str = include_str!("../../assets/research.js");
const STYLE_CSS: &str = include_str!("../../assets/style.css");

/// Longest a computation may run before the request is answered with a timeout.
const REQUEST_TIME: Duration = Duration::from_secs(10);
/// Longest a request waits for a free computation slot.
const QUEUE_TIME: Duration = Duration::from_secs(5);

/// How many computations run at once, in two pools so that research work never starves quick
/// answers: a burst of `/api/discover` calls fills the research slots while `/api/answer` still has
/// its own.
#[derive(Clone, Copy, Debug)]
pub struct Capacity {
    /// Quick answers about one position or sum (`/api/answer`, `/api/outcome`, `/api/moves`,
    /// `/api/hint`, `/api/move`, `/api/computer`, `/api/explain`, `/api/sum`, `/api/random`): a
    /// theorem or a stored table answers most of them at once.
    pub quick: usize,
    /// Research work (`/api/slice`, `/api/patterns`, `/api/discover`, `/api/prove`,
    /// `/api/sequence`): tables, sequences and proofs that take seconds.
    pub research: usize,
    /// Longest a request waits for a free slot of its pool; then it is answered 503 `busy` with a
    /// `Retry-After` header.
    pub queue: Duration,
}

impl Default for Capacity {
    /// Two slots per pool (the server is sized for a small machine), a 5 s wait.
    fn default() -> Capacity {
        Capacity {
            quick: 2,
            research: 2,
            queue: QUEUE_TIME,
        }
    }
}

/// The slots of one pool of computations.
#[derive(Clone)]
pub(crate) struct Pool {
    pub(crate) slots: Arc<Semaphore>,
    /// What the pool runs, in the busy message ("other research computations").
    pub(crate) what: &'static str,
}

#[derive(Clone)]
pub(crate) struct AppState {
    pub(crate) quick: Pool,
    pub(crate) research: Pool,
    pub(crate) queue: Duration,
    pub(crate) analyzer: Arc<Analyzer>,
}

/// The page and the API, answering through an analyzer that reads the store at `store` (solved
/// tables answer positions inside their boxes) or none.
pub fn router_with(store: StoreHandle) -> Router {
    router_with_capacity(store, Capacity::default())
}

/// As [`router_with`], with the computation slots of `capacity`.
pub fn router_with_capacity(store: StoreHandle, capacity: Capacity) -> Router {
    let pool = |n: usize, what| Pool {
        slots: Arc::new(Semaphore::new(n.max(1))),
        what,
    };
    let state = AppState {
        quick: pool(capacity.quick, "answers"),
        research: pool(
            capacity.research,
            "research computations (slice, patterns, discover, prove, sequence)",
        ),
        queue: capacity.queue,
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
        .route("/api/games", get(handlers::games))
        .route("/api/game", get(handlers::game_info))
        .route("/api/random", get(handlers::random))
        .route("/api/outcome", get(handlers::outcome))
        .route("/api/moves", get(handlers::moves))
        .route("/api/hint", get(handlers::hint))
        .route("/api/move", get(handlers::play_move))
        .route("/api/computer", get(handlers::computer))
        .route("/api/explain", get(handlers::explain))
        .route("/api/answer", get(handlers::answer))
        .route("/api/sum", get(handlers::sum))
        .route("/api/theory", get(handlers::theory))
        .route(
            "/research",
            get(|| async { asset("text/html; charset=utf-8", RESEARCH_HTML) }),
        )
        .route(
            "/research.js",
            get(|| async { asset("text/javascript; charset=utf-8", RESEARCH_JS) }),
        )
        .route("/api/slice", get(research::slice))
        .route("/api/patterns", get(research::patterns))
        .route("/api/discover", get(research::discover))
        .route("/api/prove", get(prove::prove))
        .route("/api/sequence", get(sequence::sequence))
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
    serve_with(listener, store, Capacity::default()).await
}

/// As [`serve`], with the computation slots of `capacity`.
pub async fn serve_with(
    listener: tokio::net::TcpListener,
    store: StoreHandle,
    capacity: Capacity,
) -> std::io::Result<()> {
    axum::serve(listener, router_with_capacity(store, capacity)).await
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

/// `nimlab serve`: binds `bind:port` (port 0 picks a free port), prints the address on stdout and
/// serves with the computation slots of `capacity` until the process is stopped.
pub fn run(bind: &str, port: u16, store: StoreHandle, capacity: Capacity) -> std::io::Result<()> {
    // Every slot may hold a blocking thread while it computes.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads((capacity.quick + capacity.research).max(8))
        .enable_all()
        .build()?;
    rt.block_on(async {
        let listener = tokio::net::TcpListener::bind((bind, port)).await?;
        let addr = listener.local_addr()?;
        println!(
            "nimlab serve: listening on http://{addr}/ ({} quick and {} research computation slots; Ctrl-C stops)",
            capacity.quick, capacity.research
        );
        use std::io::Write;
        let _ = std::io::stdout().flush();
        serve_with(listener, store, capacity).await
    })
}
