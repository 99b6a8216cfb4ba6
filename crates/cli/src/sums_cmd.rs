//! `outcome`, `grundy` and `moves` of a disjunctive sum such as
//! `"CN(7,4)[1,2,3,4,5,6,7] + ET(2)[31,54] + nim[5]"`.

use crate::args::{Common, Target};
use crate::output;
use nimlab_analysis::sums::analyse_sum;
use nimlab_analysis::Analyzer;
use nimlab_core::{Error, Game, Play, SumGame};

pub fn run(
    an: &Analyzer,
    target: &Target,
    play: Play,
    want_moves: bool,
    forced_remoteness: bool,
    common: &Common,
) -> Result<(), Error> {
    if let Some(extra) = &target.position {
        return Err(Error::BadPosition(format!(
            "a sum carries its positions in brackets; drop the extra argument '{extra}'"
        )));
    }
    let r = analyse_sum(an, &target.game, play, want_moves, forced_remoteness)?;
    if common.json {
        output::print_json(&r.to_json());
        return Ok(());
    }
    let (sum, parts, answer, rs) = (&r.sum, &r.parts, &r.answer, r.remoteness);
    let encoded = SumGame::encode(parts);
    let games = sum.parts();
    println!(
        "{} ({} play): {} — {}",
        sum.format_position(&encoded),
        play,
        answer.outcome,
        answer.outcome.in_words()
    );
    if let Some(g) = answer.grundy {
        println!("Grundy value: {g}");
        for ((g, p), c) in games.iter().zip(parts).zip(&answer.components) {
            println!(
                "  {}{}: Grundy value {} ({})",
                g.id(),
                g.format_position(p),
                c.grundy,
                c.method
            );
        }
    }
    if let Some((r, s)) = rs {
        println!("remoteness: {r}; suspense: {s}");
    }
    if want_moves {
        if answer.winning_moves.is_empty() {
            println!("no winning move: every move leads to an N-position");
        } else {
            let n = answer.winning_moves.len();
            if answer.winning_moves_complete {
                if n == 1 {
                    println!("winning move (the only one):");
                } else {
                    println!("winning moves ({n}, all of them):");
                }
            } else {
                println!(
                    "winning moves ({n} shown; the list may be partial: a component has too many options to check every one):"
                );
            }
            for m in &answer.winning_moves {
                let g = &games[m.component];
                println!(
                    "  in component {} ({}): {} -> {}",
                    m.component + 1,
                    g.id(),
                    g.format_position(&parts[m.component]),
                    g.format_position(&m.to)
                );
            }
        }
    }
    println!("method: {}", answer.method);
    Ok(())
}
