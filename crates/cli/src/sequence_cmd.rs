//! `nimlab sequence`: the Grundy values of single heaps 0..=N of an octal or subtraction game
//! (computed by mex over each heap's options, not by search), the period and preperiod seen, and
//! whether the period is proved for every heap size (Guy–Smith, or a repeated window for games that
//! never split a heap; see docs/rules.md).

use crate::args::Common;
use clap::Args;
use nimlab_core::{Error, Game};
use nimlab_games::octal::{OctalGame, Periodicity, MAX_SEQUENCE};
use serde_json::json;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct SequenceArgs {
    /// An octal game or a subtraction game, e.g. octal(0.07), octal(4.7), subtraction(1,3,4).
    pub game: String,
    /// The largest heap: values of heaps 0..=N.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub max: u64,
    /// Print every value (text; JSON always holds them all).
    #[arg(long)]
    pub values: bool,
    #[command(flatten)]
    pub common: Common,
}

/// Runs `nimlab sequence`.
pub fn run(args: &SequenceArgs) -> Result<(), Error> {
    let boxed = nimlab_games::parse_game(&args.game)?;
    let Some(game) = boxed.downcast_ref::<OctalGame>() else {
        return Err(Error::Unsupported(format!(
            "sequence takes a one-heap game, octal(CODE) or subtraction(S); {} is not one",
            boxed.id()
        )));
    };
    let max = args.max;
    if max > MAX_SEQUENCE {
        return Err(Error::TooLarge(format!(
            "--max {max} would hold {} MiB of values; at most --max {MAX_SEQUENCE} (1024 MiB)",
            OctalGame::sequence_bytes(max) >> 20
        )));
    }
    let work = game.sequence_work(max);
    if work > args.common.limit {
        return Err(Error::TooLarge(format!(
            "{} up to --max {max} visits about {work:.1e} options (over --limit {:.1e}); lower --max or pass --limit {}",
            game.id(),
            args.common.limit,
            nimlab_core::solver::limit_above(work)
        )));
    }
    let start = Instant::now();
    let cancel = crate::interrupt::cancel_flag();
    let g = nimlab_core::interrupt::scope(cancel, || game.sequence(max))?;
    let seconds = start.elapsed().as_secs_f64();
    let per = game.periodicity(&g);
    if args.common.json {
        crate::output::print_json(&json!({
            "game": game.id(),
            "name": game.common_name(),
            "code": game.code(),
            "t": game.t(),
            "splits": game.splits(),
            "max": max,
            "values": g,
            "periodicity": per.as_ref().map(periodicity_json),
            "seconds": seconds,
        }));
        return Ok(());
    }
    let name = game
        .common_name()
        .map(|n| format!(" ({n})"))
        .unwrap_or_default();
    println!(
        "{}{name}: Grundy values of single heaps 0..={max} ({seconds:.3} s)",
        game.id()
    );
    match &per {
        Some(p) => println!("{}", describe(game, p)),
        None => println!("no period seen in 0..={max}"),
    }
    let show = |label: &str, from: usize, to: usize| {
        if from < to {
            println!("{label} (n = {from}..{}): {}", to - 1, list(&g[from..to]));
        }
    };
    if args.values {
        show("values", 0, g.len());
    } else if let Some(p) = per.as_ref().filter(|p| p.saltus == 0) {
        let pre = p.preperiod as usize;
        show("preperiod", 0, pre);
        show("period", pre, pre + p.period as usize);
    } else {
        let end = g.len().min(100);
        show("values", 0, end);
        if end < g.len() {
            println!("(--values prints all {} values)", g.len());
        }
    }
    Ok(())
}

fn list(v: &[u32]) -> String {
    v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
}

/// One line: the period, from where, and whether it is proved.
fn describe(game: &OctalGame, p: &Periodicity) -> String {
    let last = if p.preperiod > 0 {
        format!("; last exceptional value at n = {}", p.preperiod - 1)
    } else {
        String::new()
    };
    let what = if p.saltus == 0 {
        format!("period {} from n = {}{last}", p.period, p.preperiod)
    } else {
        format!(
            "arithmetic period {} with saltus {} (g(n+{}) = g(n) + {}) from n = {}",
            p.period, p.saltus, p.period, p.saltus, p.preperiod
        )
    };
    match (p.proof, p.proof_needs) {
        (Some(proof), _) => format!(
            "{what}: proved periodic ({}; checked up to n = {})",
            proof.name(),
            game.proof_needs(proof, p.preperiod, p.period)
                .unwrap_or(p.preperiod + p.period)
        ),
        (None, Some(need)) => format!(
            "{what}: period seen in the computed prefix (evidence); a proof needs --max {need}"
        ),
        (None, None) => format!("{what}: period seen in the computed prefix (evidence)"),
    }
}

fn periodicity_json(p: &Periodicity) -> serde_json::Value {
    json!({
        "preperiod": p.preperiod,
        "period": p.period,
        "saltus": p.saltus,
        "last_exceptional": p.preperiod.checked_sub(1),
        "status": if p.proof.is_some() { "proved" } else { "evidence" },
        "proof": p.proof.map(|x| x.id()),
        "proof_needs_max": p.proof_needs,
    })
}
