//! `nimlab explain GAME POSITION`: why a position is P or N, in the words of the paper that decides it
//! (the family and the relations that hold, or the winning move and the family it lands in), or, when no
//! proven result decides it, the searched outcome and a winning move found by search.

use crate::output;
use clap::Args;
use nimlab_analysis::{Analyzer, Limits, StoreHandle, Want};
use nimlab_core::{Budget, Error, Play, Pos};
use nimlab_games::parse_game;

#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// Game name, e.g. CN(7,4), SCN(5,3), nim.
    game: String,
    /// Position, e.g. 1,7,5,6,2,3,6.
    #[arg(allow_hyphen_values = true)]
    position: String,
    /// Misère play: the player who makes the last move loses.
    #[arg(long)]
    misere: bool,
    /// Print one JSON object on stdout.
    #[arg(long)]
    json: bool,
    /// Most estimated option visits a search may make before it is refused.
    #[arg(long, default_value_t = Budget::default().limit, value_name = "N")]
    limit: f64,
    /// The store (look-ups only): its proved characterizations explain positions of any size.
    #[command(flatten)]
    store: crate::store_cmd::StoreArgs,
}

pub fn run(args: &ExplainArgs) -> Result<(), Error> {
    let game = parse_game(&args.game)?;
    let p = game.parse_position(&args.position)?;
    let play = Play::from_misere(args.misere);
    let path = if args.store.no_store {
        None
    } else {
        nimlab_tables::store::default_path(args.store.db.as_deref())
    };
    let an = Analyzer::new(StoreHandle::at(path), Limits::CLI.with_limit(args.limit));
    let a = an.analyse(game.as_ref(), &p, play, Want::explain())?;
    let e = a.explanation.clone().expect("an explanation was asked for");
    let fmt = |q: &Pos| game.format_position(q);
    if args.json {
        output::print_json(&a.to_json());
    } else {
        println!(
            "{} {} ({} play): {} — {}",
            game.id(),
            fmt(&p),
            play,
            a.outcome,
            a.outcome.in_words()
        );
        println!("why: {}", e.reason);
        if let Some(f) = &e.family {
            println!("family: {f}");
        }
        if let Some(q) = &e.winning_move {
            println!("winning move: -> {}", fmt(q));
        }
        match (&e.source, &e.statement) {
            (Some(src), Some(st)) => {
                println!("result: {} — {st}", e.method.id());
                println!("source: {src}");
            }
            (None, Some(st)) => {
                println!("method: {}", e.method);
                println!("rule: {st}");
            }
            _ => println!("method: {}", e.method),
        }
    }
    Ok(())
}
