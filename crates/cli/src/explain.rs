//! `nimlab explain GAME POSITION`: why a position is P or N, in the words of the paper that decides it
//! (the family and the relations that hold, or the winning move and the family it lands in), or, when no
//! proven result decides it, the searched outcome and a winning move found by search.

use crate::output;
use clap::Args;
use nimlab_core::{Budget, Error, Outcome, Play, Pos, Solver};
use nimlab_games::parse_game;
use serde_json::json;

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
}

pub fn run(args: &ExplainArgs) -> Result<(), Error> {
    let game = parse_game(&args.game)?;
    let p = game.parse_position(&args.position)?;
    let play = Play::from_misere(args.misere);
    let budget = Budget {
        limit: args.limit,
        flag: "--limit",
    };
    let mut solver = Solver::new(game.as_ref());
    let fmt = |q: &Pos| game.format_position(q);

    let (outcome, method, source, statement, family, reason, moves) = match nimlab_theory::find(
        game.as_ref(),
        &p,
        play,
    ) {
        Some((t, v)) => {
            let outcome = Outcome::from_is_p(v.is_p);
            let mut moves = v.winning_moves.clone().unwrap_or_default();
            let mut reason = v.reason.clone().unwrap_or_else(|| {
                if v.is_p {
                    format!("P: the position is in the P-set that {} describes", t.id())
                } else {
                    format!(
                        "N: the position is outside the P-set that {} describes",
                        t.id()
                    )
                }
            });
            if !v.is_p && moves.is_empty() && !game.is_terminal(&p) {
                // The result decides the outcome but names no move: find one by search.
                solver.check_budget(&p, play == Play::Misere, budget)?;
                if let Some(q) = solver.winning_moves(&p, play).into_iter().next() {
                    reason.push_str(&format!(
                        "; a winning move found by exhaustive search: to {}",
                        fmt(&q)
                    ));
                    moves = vec![q];
                }
            } else if v.reason.is_none() && !v.is_p {
                if let Some(q) = moves.first() {
                    reason.push_str(&format!("; the move to {} lands in it", fmt(q)));
                }
            }
            (
                outcome,
                t.id().to_string(),
                Some(t.source().to_string()),
                Some(t.statement().to_string()),
                v.family.clone(),
                reason,
                moves,
            )
        }
        None => {
            solver.check_budget(&p, play == Play::Misere, budget)?;
            let moves = solver.winning_moves(&p, play);
            let outcome = solver.outcome(&p, play);
            let reason = if outcome.is_p() {
                "P: no proven result known to nimlab decides this position; exhaustive search finds that every move leads to an N-position".to_string()
            } else if let Some(q) = moves.first() {
                format!(
                        "N: no proven result known to nimlab decides this position; exhaustive search finds the winning move to {}, a P-position",
                        fmt(q)
                    )
            } else {
                "N: a terminal position loses for the player who made the last move (misère play)"
                    .to_string()
            };
            (
                outcome,
                "search".to_string(),
                None,
                None,
                None,
                reason,
                moves,
            )
        }
    };

    if args.json {
        let mut v = output::header(game.as_ref(), &p, play);
        v["outcome"] = json!(outcome.to_string());
        v["method"] = json!(method);
        v["reason"] = json!(reason);
        if let Some(f) = &family {
            v["family"] = json!(f);
        }
        if let Some(s) = &source {
            v["source"] = json!(s);
        }
        if let Some(q) = moves.first() {
            v["winning_move"] = json!(q);
        }
        output::print_json(&v);
    } else {
        println!(
            "{} {} ({} play): {} — {}",
            game.id(),
            fmt(&p),
            play,
            outcome,
            outcome.in_words()
        );
        println!("why: {reason}");
        if let Some(f) = &family {
            println!("family: {f}");
        }
        if let Some(q) = moves.first() {
            println!("winning move: -> {}", fmt(q));
        }
        match (&source, &statement) {
            (Some(src), Some(st)) => {
                println!("result: {method} — {st}");
                println!("source: {src}");
            }
            _ => println!("method: exhaustive search"),
        }
    }
    Ok(())
}
