//! `nimlab outcome`, `grundy` and `moves`: one question about a position, answered by the analysis
//! library (`nimlab_analysis`); this module only translates arguments and prints.

use crate::args::{Common, Target};
use crate::output;
use crate::store_cmd::StoreArgs;
use indicatif::{ProgressBar, ProgressStyle};
use nimlab_analysis::{Analysis, Analyzer, Limits, Remoteness, StoreHandle, Want};
use nimlab_core::{Error, Game, Play, Pos};

/// What is asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask {
    Outcome { remoteness: bool },
    Grundy,
    Moves { all: bool },
}

/// The analyzer for a command: the store the user chose (look-ups only) and the search budget.
pub fn analyzer(common: &Common, store: &StoreArgs) -> Analyzer {
    let path = if store.no_store {
        None
    } else {
        nimlab_tables::store::default_path(store.db.as_deref())
    };
    Analyzer::new(StoreHandle::at(path), Limits::CLI.with_limit(common.limit))
}

fn load(target: &Target) -> Result<(Box<dyn Game>, Pos), Error> {
    let game = nimlab_games::parse_game(&target.game)?;
    let p = game.parse_position(target.position_text()?)?;
    Ok((game, p))
}

/// A spinner on stderr while the analysis runs more than a moment (hidden when stderr is not a
/// terminal).
fn spinner() -> ProgressBar {
    let bar = ProgressBar::new_spinner();
    bar.set_style(ProgressStyle::with_template("{spinner} {elapsed} {msg}").unwrap());
    bar.set_message("searching");
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}

pub fn run(
    target: &Target,
    play: Play,
    ask: Ask,
    common: &Common,
    store: &StoreArgs,
) -> Result<(), Error> {
    let an = analyzer(common, store);
    if nimlab_games::is_sum(&target.game) {
        let (want_moves, remoteness) = match ask {
            Ask::Moves { .. } => (true, false),
            Ask::Outcome { remoteness } => (false, remoteness),
            Ask::Grundy => (false, false),
        };
        return crate::sums_cmd::run(&an, target, play, want_moves, remoteness, common);
    }
    let (game, p) = load(target)?;
    let game = game.as_ref();
    let want = match ask {
        Ask::Outcome { remoteness } => Want {
            remoteness: if remoteness {
                Remoteness::Always
            } else {
                Remoteness::IfSmall
            },
            ..Want::outcome()
        },
        Ask::Grundy => Want::grundy(),
        Ask::Moves { all: false } => Want::moves(),
        Ask::Moves { all: true } => Want::options(),
    };
    let bar = spinner();
    let a = an.analyse(game, &p, play, want);
    bar.finish_and_clear();
    let a = a?;
    let input = target.position.as_deref().unwrap_or("");
    let show = |q: &[u64]| game.format_like(q, input);
    if common.json {
        output::print_json(&a.to_json());
    } else {
        print_text(game, &p, &a, ask, &show, target);
    }
    Ok(())
}

fn print_text(
    game: &dyn Game,
    p: &[u64],
    a: &Analysis,
    ask: Ask,
    show: &dyn Fn(&[u64]) -> String,
    target: &Target,
) {
    if ask == Ask::Grundy {
        println!(
            "{} {}: Grundy value {}",
            game.id(),
            show(p),
            a.grundy.unwrap_or(0)
        );
        println!("method: {}", a.grundy_method.as_ref().unwrap_or(&a.method));
        return;
    }
    println!(
        "{} {} ({} play): {} — {}",
        game.id(),
        show(p),
        a.play,
        a.outcome,
        a.outcome.in_words()
    );
    if let Ask::Outcome { .. } = ask {
        if let Some(g) = a.grundy {
            println!("Grundy value: {g}");
        } else if let Some(note) = &a.grundy_note {
            println!(
                "Grundy value: {note}; `nimlab grundy '{}' {}` computes it",
                target.game,
                target.position.as_deref().unwrap_or("")
            );
        }
        if let (Some(r), Some(s)) = (a.remoteness, a.suspense) {
            println!("remoteness: {r} (moves the winner needs to win, the loser can hold out)");
            println!("suspense: {s} (the same when the winner delays and the loser hurries)");
        }
        println!("method: {}", a.method);
        return;
    }
    let w = a.winning_moves.clone().unwrap_or_default();
    if w.is_empty() {
        println!("no winning move: every move leads to an N-position");
    } else if a.winning_moves_complete {
        if w.len() == 1 {
            println!("winning move (the only one):");
        } else {
            println!("winning moves ({}, all of them):", w.len());
        }
    } else {
        println!(
            "winning moves constructed by {} ({} shown; the list may be partial: the position is too large to check every option):",
            a.moves_method
                .as_ref()
                .map_or("a proven result".to_string(), |m| m.to_string()),
            w.len()
        );
    }
    for q in &w {
        println!("  -> {}", show(q));
    }
    if let Some(ms) = &a.options {
        println!("all options ({}):", ms.len());
        for m in ms {
            let g = m
                .grundy
                .map(|g| format!(", Grundy {g}"))
                .unwrap_or_default();
            let tag = if m.outcome.is_p() {
                "winning"
            } else {
                "losing"
            };
            println!("  -> {}  {}{} ({tag})", show(&m.to), m.outcome, g);
        }
    }
    println!("method: {}", a.method);
    if let Some(m) = a.moves_method.as_ref().filter(|m| **m != a.method) {
        println!("moves valued by: {m}");
    }
}
