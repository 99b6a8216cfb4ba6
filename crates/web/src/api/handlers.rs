//! The endpoints. Every answer about a position is the analysis library's object
//! ([`nimlab_analysis::Analysis::to_json`], under `answer` on the page's endpoints); the page's
//! endpoints add what the page shows: the position in the game's one notation (`position`:
//! entries, text, display, notation), the outcome in words, the method in words (`method_text`).

use super::draw::{drawing, graph_json};
use super::server::{compute, load, params, play_of, required, Answer, ApiError, Params, Work};
use super::AppState;
use axum::extract::State;
use axum::Json;
use nimlab_analysis::play::{self as engine, rng_from_time};
use nimlab_analysis::{Analysis, Analyzer, Want};
use nimlab_core::{Error, Game, Play, Rng, TableBound};
use serde_json::{json, Value};

/// A position as the page shows it: the entries as numbers (exact below 2^53), as the game's text
/// (what the API takes back), and in the game's one notation (`notation`: Ferguson's `1^3 2 5` for
/// chip games, the tuple for the others; `display` is the same).
fn pos_json(game: &dyn Game, p: &[u64]) -> Value {
    let shown = game.format_like(p, "^");
    json!({
        "entries": p,
        "text": p.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(","),
        "display": shown,
        "notation": shown,
    })
}

fn outcome_words(a: &Analysis) -> String {
    if a.terminal {
        match a.play {
            Play::Normal => "no move is left: the player to move has lost".into(),
            Play::Misere => "no move is left: the player to move has won (misère play)".into(),
        }
    } else {
        a.outcome.in_words().into()
    }
}

/// The value of a position as the page shows it (shared by outcome, move and computer): the
/// outcome, a Grundy value when it comes cheaply, remoteness when a full search is small, the
/// explanation.
fn value_json(an: &Analyzer, game: &dyn Game, p: &[u64], play: Play) -> Result<Value, ApiError> {
    let a = an.analyse(
        game,
        p,
        play,
        Want {
            explain: true,
            ..Want::outcome()
        },
    )?;
    Ok(json!({
        "game": game.id(),
        "play": play.name(),
        "position": pos_json(game, p),
        "outcome": a.outcome.to_string(),
        "in_words": outcome_words(&a),
        "grundy": a.grundy,
        "remoteness": a.remoteness,
        "method": a.method.to_json(),
        "method_text": a.method.to_string(),
        "terminal": a.terminal,
        "explanation": a.explanation.as_ref().map(|e| e.to_json()),
        "answer": a.to_json(),
    }))
}

pub(crate) async fn games(q: Params) -> Answer {
    params(q, &[])?;
    Ok(Json(json!({
        "games": nimlab_analysis::json::catalogue(),
        "presets": nimlab_games::registry::presets(),
    })))
}

pub(crate) async fn theory(q: Params) -> Answer {
    let map = params(q, &["game"])?;
    Ok(Json(nimlab_analysis::json::theory_of(
        map.get("game").map(|s| s.as_str()),
    )?))
}

pub(crate) async fn game_info(q: Params) -> Answer {
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
        "table": table_of(game.as_ref()),
        // A one-heap game: the research view draws its sequence of values.
        "sequence": game.downcast_ref::<nimlab_games::octal::OctalGame>().is_some(),
    })))
}

/// How `nimlab table` bounds the game's positions (the research view shows the fields that apply):
/// `heaps` (a box of entries up to `max` on `heaps` heaps), `box` (up to `max`, the number of stacks
/// fixed by the game), `max_sum` (chip games: the total number of chips), `spread` (`max` bounds the
/// largest minus the smallest entry) or `none` (not tabulated).
fn table_of(game: &dyn Game) -> &'static str {
    match game.table_bound() {
        TableBound::Box { heaps: true } => "heaps",
        TableBound::Box { heaps: false } => "box",
        TableBound::TotalChips => "max_sum",
        TableBound::Spread => "spread",
        TableBound::None => "none",
    }
}

pub(crate) async fn random(State(s): State<AppState>, q: Params) -> Answer {
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
    compute(&s, Work::Quick, move || {
        let p = engine::random_position(&s2.analyzer, game.as_ref(), &mut rng)?;
        Ok(Json(
            json!({"game": game.id(), "position": pos_json(game.as_ref(), &p)}),
        ))
    })
    .await
}

const POSITION_PARAMS: [&str; 3] = ["game", "position", "misere"];

pub(crate) async fn outcome(State(s): State<AppState>, q: Params) -> Answer {
    let map = params(q, &POSITION_PARAMS)?;
    let play = play_of(&map)?;
    let (game, p) = load(&map)?;
    let an = s.analyzer.clone();
    compute(&s, Work::Quick, move || {
        Ok(Json(value_json(&an, game.as_ref(), &p, play)?))
    })
    .await
}

/// `/api/answer`: the analysis object of `nimlab outcome|grundy|moves [--all]|explain --json`.
pub(crate) async fn answer(State(s): State<AppState>, q: Params) -> Answer {
    let map = params(q, &["ask", "game", "position", "misere"])?;
    let play = play_of(&map)?;
    let want = match required(&map, "ask")? {
        "outcome" => Want::outcome(),
        "grundy" => Want::grundy(),
        "moves" => Want::moves(),
        "options" => Want::options(),
        "explain" => Want::explain(),
        other => {
            return Err(ApiError::bad(format!(
                "ask must be outcome, grundy, moves, options or explain, got '{}'",
                other.chars().take(20).collect::<String>()
            )))
        }
    };
    if want.grundy && play == Play::Misere {
        return Err(Error::Unsupported(
            "Grundy values are defined for normal play; drop misere".into(),
        )
        .into());
    }
    let game = nimlab_games::parse_game(required(&map, "game")?)?;
    let p = engine::load_position(game.as_ref(), required(&map, "position")?)?;
    let an = s.analyzer.clone();
    compute(&s, Work::Quick, move || {
        Ok(Json(an.analyse(game.as_ref(), &p, play, want)?.to_json()))
    })
    .await
}

/// `/api/sum`: the object of `nimlab outcome|moves SUM --json`.
pub(crate) async fn sum(State(s): State<AppState>, q: Params) -> Answer {
    let map = params(q, &["sum", "misere", "moves"])?;
    let play = play_of(&map)?;
    let spec = required(&map, "sum")?.to_string();
    if spec.len() > 4096 {
        return Err(ApiError::bad("sum text too long"));
    }
    let moves = match map.get("moves").map(|s| s.as_str()) {
        None | Some("") | Some("0") | Some("false") => false,
        Some("1") | Some("true") => true,
        Some(_) => return Err(ApiError::bad("moves must be true or false")),
    };
    let an = s.analyzer.clone();
    compute(&s, Work::Quick, move || {
        Ok(Json(nimlab_analysis::sums::analyse_spec(
            &an, &spec, play, moves,
        )?))
    })
    .await
}

/// `/api/moves`: the moves of [`engine::moves_shown`] (every option with its value, or the winning
/// moves alone when the options are too many), each the library's option object
/// ([`nimlab_analysis::OptionValue::to_json`]) with `to`, the position in the page's notation; the
/// counts, the method and whether the list is complete are the analysis' own.
pub(crate) async fn moves(State(s): State<AppState>, q: Params) -> Answer {
    let map = params(q, &POSITION_PARAMS)?;
    let play = play_of(&map)?;
    let (game, p) = load(&map)?;
    let an = s.analyzer.clone();
    compute(&s, Work::Quick, move || {
        let g = game.as_ref();
        let shown = engine::moves_shown(&an, g, &p, play)?;
        let a = &shown.analysis;
        let moves: Vec<Value> = shown
            .moves
            .iter()
            .map(|m| {
                let mut v = m.to_json();
                v["to"] = pos_json(g, &m.to);
                v
            })
            .collect();
        Ok(Json(json!({
            "game": g.id(), "play": play.name(), "position": pos_json(g, &p),
            "count": a.options.as_ref().map(Vec::len),
            "winning_count": a.winning_moves.as_ref().map_or(0, Vec::len),
            "moves": moves,
            "method": a.moves_method.as_ref().map(|m| m.to_json()),
            "all_options": shown.all_options,
            "winning_moves_complete": a.winning_moves_complete,
            "note": shown.note,
            "answer": a.to_json(),
        })))
    })
    .await
}

/// `/api/hint`: the winning moves of [`engine::hint`] in the page's notation, and the sentence of
/// [`engine::hint_text`] that `nimlab play` prints too.
pub(crate) async fn hint(State(s): State<AppState>, q: Params) -> Answer {
    let map = params(q, &POSITION_PARAMS)?;
    let play = play_of(&map)?;
    let (game, p) = load(&map)?;
    let an = s.analyzer.clone();
    compute(&s, Work::Quick, move || {
        let g = game.as_ref();
        let a = engine::hint(&an, g, &p, play)?;
        let w = a.winning_moves.as_deref().unwrap_or_default();
        Ok(Json(json!({
            "game": g.id(), "play": play.name(), "position": pos_json(g, &p),
            "exists": !w.is_empty(),
            "complete": a.winning_moves_complete,
            "winning_moves_complete": a.winning_moves_complete,
            "method": a.moves_method.as_ref().map(|m| m.to_json()),
            "winning_moves": w.iter().map(|q| pos_json(g, q)).collect::<Vec<_>>(),
            "text": engine::hint_text(&a, &|q| g.format_like(q, "^")),
            "answer": a.to_json(),
        })))
    })
    .await
}

/// Refuses a move from a position where the game is over.
fn not_over(g: &dyn Game, p: &[u64]) -> Result<(), ApiError> {
    if g.is_terminal(p)? {
        return Err(Error::Unsupported("the game is over: no move is left".into()).into());
    }
    Ok(())
}

pub(crate) async fn play_move(State(s): State<AppState>, q: Params) -> Answer {
    let map = params(q, &["game", "position", "to", "misere"])?;
    let play = play_of(&map)?;
    let (game, p) = load(&map)?;
    let to_text = required(&map, "to")?.to_string();
    if to_text.len() > 4096 {
        return Err(ApiError::bad("position text too long"));
    }
    let an = s.analyzer.clone();
    compute(&s, Work::Quick, move || {
        let g = game.as_ref();
        not_over(g, &p)?;
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

pub(crate) async fn computer(State(s): State<AppState>, q: Params) -> Answer {
    let map = params(q, &POSITION_PARAMS)?;
    let play = play_of(&map)?;
    let (game, p) = load(&map)?;
    let an = s.analyzer.clone();
    compute(&s, Work::Quick, move || {
        let g = game.as_ref();
        not_over(g, &p)?;
        let c = engine::computer_move(&an, g, &p, play)?;
        let mut v = value_json(&an, g, &c.to, play)?;
        v["winning"] = json!(c.winning);
        v["why"] = json!(c.why);
        v["from"] = pos_json(g, &p);
        Ok(Json(v))
    })
    .await
}

pub(crate) async fn explain(State(s): State<AppState>, q: Params) -> Answer {
    let map = params(q, &POSITION_PARAMS)?;
    let play = play_of(&map)?;
    let (game, p) = load(&map)?;
    let an = s.analyzer.clone();
    compute(&s, Work::Quick, move || {
        let g = game.as_ref();
        let a = an.analyse(g, &p, play, Want::explain())?;
        let e = a.explanation.clone().expect("an explanation was asked for");
        let text = match (&e.statement, &e.source) {
            (Some(st), Some(src)) => {
                format!(
                    "{}: {st} (source: {src}) — here: {}",
                    e.method.id(),
                    e.reason
                )
            }
            _ => format!(
                "no proven result covers {} in {} play; nimlab answers it by {}: {}",
                g.id(),
                play.name(),
                e.method,
                e.reason
            ),
        };
        Ok(Json(json!({
            "game": g.id(), "play": play.name(), "position": pos_json(g, &p),
            "method": a.method.to_json(),
            "explanation": e.to_json(), "text": text,
            "answer": a.to_json(),
        })))
    })
    .await
}
