//! `outcome`, `grundy` and `moves` of a disjunctive sum such as
//! `"CN(7,4)[1,2,3,4,5,6,7] + ET(2)[31,54] + nim[5]"`.

use crate::args::{Common, Target};
use crate::output;
use nimlab_analysis::sums::solve_sum;
use nimlab_analysis::Analyzer;
use nimlab_core::{Error, Game, Play, Pos, Solver, SumGame};
use serde_json::json;

/// Full searches this small run by default, so that remoteness and suspense can be reported.
const AUTO_FULL_SEARCH: f64 = 2e7;

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
    let (sum, parts) = nimlab_games::parse_sum(&target.game)?;
    let answer = solve_sum(an, &sum, &parts, play, want_moves)?;
    let encoded = SumGame::encode(&parts);
    let mut solver = Solver::new(&sum);
    // Remoteness and suspense do not add over sums: a full search of the sum, when asked or small.
    let rs = if forced_remoteness {
        solver.check_budget(&encoded, true, common.budget())?;
        true
    } else {
        solver.work_estimate(&encoded, true) <= AUTO_FULL_SEARCH.min(common.limit)
    };
    let rs = if rs {
        let f = solver.full(&encoded)?;
        Some((f.remoteness(play), f.suspense(play)))
    } else {
        None
    };
    let games = sum.parts();
    // A move of the sum, as the whole sum position after it.
    let after = |component: usize, to: &Pos| -> Vec<Pos> {
        let mut all = parts.clone();
        all[component] = to.clone();
        all
    };
    if common.json {
        let mut v = json!({
            "game": sum.id(),
            "position": parts,
            "play": play.name(),
            "outcome": answer.outcome.to_string(),
            "method": answer.method,
            "remoteness": rs.map(|x| x.0),
            "suspense": rs.map(|x| x.1),
        });
        if let Some(g) = answer.grundy {
            v["grundy"] = json!(g);
        }
        if !answer.components.is_empty() {
            v["components"] = json!(games
                .iter()
                .zip(&parts)
                .zip(&answer.components)
                .map(|((g, p), c)| json!({"game": g.id(), "position": p, "grundy": c.grundy, "method": c.method}))
                .collect::<Vec<_>>());
        }
        if want_moves {
            v["winning_moves"] = json!(answer
                .winning_moves
                .iter()
                .map(|m| after(m.component, &m.to))
                .collect::<Vec<_>>());
            v["winning_moves_detail"] = json!(answer
                .winning_moves
                .iter()
                .map(|m| json!({"component": m.component + 1, "game": games[m.component].id(), "to": m.to}))
                .collect::<Vec<_>>());
            v["winning_moves_complete"] = json!(answer.winning_moves_complete);
        }
        output::print_json(&v);
        return Ok(());
    }
    println!(
        "{} ({} play): {} — {}",
        sum.format_position(&encoded),
        play,
        answer.outcome,
        answer.outcome.in_words()
    );
    if let Some(g) = answer.grundy {
        println!("Grundy value: {g}");
        for ((g, p), c) in games.iter().zip(&parts).zip(&answer.components) {
            println!(
                "  {}{}: Grundy value {} ({})",
                g.id(),
                g.format_position(p),
                c.grundy,
                output::method_in_words(&c.method)
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
                println!("winning moves ({n}, all of them):");
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
