//! `nimlab table`: every P-position of a bounded set of positions.
//!
//! Box games (CN, SCN, Nim, Moore's Nim) are tabulated over a box of entries by
//! [`nimlab_core::table::tabulate`]; chip games over every multiset with a bounded number of chips (or,
//! for Entropy Reduction, a bounded spread max − min) by the memoizing solver.

use crate::cli::Common;
use crate::output;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use nimlab_core::table::{tabulate, TableRun};
use nimlab_core::{Error, Game, Play, Pos, Solver};
use nimlab_games::{chip, parse_game};
use serde_json::json;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct TableArgs {
    /// Game name, e.g. CN(7,4).
    game: String,
    /// Largest stack, pile or heap size in the box (for ENTROPY(k): the largest max - min).
    #[arg(long)]
    max: Option<u64>,
    /// Chip games: the most chips in all.
    #[arg(long, value_name = "S")]
    max_sum: Option<u64>,
    /// Number of heaps (Nim and Moore's Nim, which take any number).
    #[arg(long)]
    heaps: Option<usize>,
    #[arg(long)]
    misere: bool,
    /// Print the counts only, not the positions.
    #[arg(long)]
    count_only: bool,
    /// Write the table to this file (written whole at the end, via a temporary file).
    #[arg(long, short)]
    output: Option<std::path::PathBuf>,
    #[command(flatten)]
    common: Common,
}

pub fn run(a: &TableArgs) -> Result<(), Error> {
    let game = parse_game(&a.game)?;
    let play = Play::from_misere(a.misere);
    let text = if chip::is_chip_game(game.as_ref()) {
        chip_table(game.as_ref(), a, play)?
    } else {
        box_table(game.as_ref(), a, play)?
    };
    match &a.output {
        None => {
            let _ = std::io::stdout().lock().write_all(text.as_bytes());
        }
        Some(path) => output::write_atomically(path, text.as_bytes())?,
    }
    Ok(())
}

fn box_table(game: &dyn Game, a: &TableArgs, play: Play) -> Result<String, Error> {
    let Some(max) = a.max else {
        return Err(Error::Unsupported(format!(
            "table {} needs --max H (the largest entry of the box)",
            game.id()
        )));
    };
    if a.max_sum.is_some() {
        return Err(Error::Unsupported(format!(
            "--max-sum bounds chip games; {} takes --max H",
            game.id()
        )));
    }
    let domain = game.table_domain(max, a.heaps)?;
    // Refuse tables whose estimated work is above the budget: positions × options of a typical position.
    let mid_len = *domain.lengths.last().unwrap();
    let mid = vec![(domain.lo + domain.hi) / 2; mid_len];
    let est = domain.size_f64() * game.branching_bound(&mid).max(1.0);
    if est > a.common.limit {
        return Err(Error::TooLarge(format!(
            "tabulating {} with --max {max} may visit about {est:.1e} options ({:.1e} positions), above the limit of {:.1e}; pass --limit {:.0e} to run it anyway",
            game.id(),
            domain.size_f64(),
            a.common.limit,
            est.ceil()
        )));
    }
    let cancel = Arc::new(AtomicBool::new(false));
    {
        let c = cancel.clone();
        let _ = ctrlc::set_handler(move || c.store(true, Ordering::Relaxed));
    }
    let bar = ProgressBar::hidden();
    let start = Instant::now();
    let total = domain.size_f64() as u64;
    let progress = |done: u64, _total: u64| {
        if start.elapsed() > Duration::from_secs(1) {
            if bar.is_hidden() {
                bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                bar.set_length(total);
                bar.set_style(
                    ProgressStyle::with_template(
                        "{bar:40} {pos}/{len} positions, {elapsed} (eta {eta})",
                    )
                    .unwrap(),
                );
            }
            bar.set_position(done);
        }
    };
    let table = tabulate(
        game,
        &domain,
        &TableRun {
            play,
            keep_positions: !a.count_only,
            cancel: Some(&cancel),
            progress: Some(&progress),
        },
    )?;
    bar.finish_and_clear();
    let elapsed = start.elapsed();
    Ok(if a.common.json {
        let mut v = json!({
            "game": game.id(),
            "max": max,
            "play": play.name(),
            "count": table.count,
            "canonical_count": table.canonical_count,
            "positions_in_box": total,
            "by_length": table.by_length.iter().map(|&(m, c, cc)| json!({"length": m, "count": c, "canonical_count": cc})).collect::<Vec<_>>(),
            "seconds": elapsed.as_secs_f64(),
        });
        if let Some(h) = a.heaps {
            v["heaps"] = json!(h);
        }
        if !a.count_only {
            v["positions"] = json!(table.positions);
        }
        format!("{}\n", serde_json::to_string(&v).unwrap())
    } else {
        output::table_text(game, &table, total, elapsed, !a.count_only)
    })
}

/// Number of distinct orderings of a multiset given as a sorted vector, if it fits in 128 bits.
fn orderings(p: &[u64]) -> Option<u128> {
    let mut result: u128 = 1;
    let mut placed: u128 = 0;
    let mut run: u128 = 0;
    for (i, &x) in p.iter().enumerate() {
        run = if i > 0 && p[i - 1] == x { run + 1 } else { 1 };
        placed += 1;
        // result = result * placed / run keeps it an integer (multinomial built one element at a time).
        result = result.checked_mul(placed)? / run;
    }
    Some(result)
}

/// Number of multisets of `k` positive integers with sum at most `s` (as f64, exact while small).
fn multisets_with_sum_at_most(k: usize, s: u64) -> f64 {
    if s > 1_000_000 || k > 4096 {
        return f64::INFINITY;
    }
    // parts[j][n]: partitions of n into exactly j positive parts; p(n, j) = p(n-1, j-1) + p(n-j, j).
    let s = s as usize;
    let mut prev = vec![0f64; s + 1];
    prev[0] = 1.0; // j = 0
    for j in 1..=k {
        let mut cur = vec![0f64; s + 1];
        for n in j..=s {
            cur[n] = prev[n - 1] + cur[n - j];
        }
        prev = cur;
    }
    prev.iter().sum()
}

/// Number of multisets of `m` values in 0..=h: C(h + m, m).
fn multisets_bounded(m: usize, h: u64) -> f64 {
    (1..=m).fold(1.0, |acc, i| acc * (h as f64 + i as f64) / i as f64)
}

fn chip_table(game: &dyn Game, a: &TableArgs, play: Play) -> Result<String, Error> {
    let entropy = game.family() == "ENTROPY";
    let (bound, bound_name) = if entropy {
        match a.max {
            Some(h) => (h, "max"),
            None => {
                return Err(Error::Unsupported(format!(
                    "table {} needs --max H (the largest max - min)",
                    game.id()
                )))
            }
        }
    } else {
        match a.max_sum {
            Some(s) => (s, "max_sum"),
            None => {
                return Err(Error::Unsupported(format!(
                    "table {} needs --max-sum S (the most chips in all)",
                    game.id()
                )))
            }
        }
    };
    // Refuse up front: count the positions before listing them.
    let k = chip::boxes_of(game).unwrap_or(1);
    let count = if entropy {
        // Sorted k-tuples with minimum 0 and maximum at most `bound`: multisets of k-1 values in 0..=bound.
        multisets_bounded(k.saturating_sub(1), bound)
    } else {
        multisets_with_sum_at_most(k, bound)
    };
    if count > 2e7 {
        return Err(Error::TooLarge(format!(
            "table {} with {} {bound} has about {count:.1e} positions, more than the 2e7 this search-based table accepts; use a smaller bound",
            game.id(),
            if entropy { "--max" } else { "--max-sum" }
        )));
    }
    let positions = chip::table_positions(game, bound).unwrap_or_default();
    let mut solver = Solver::new(game);
    if let Some(last) = positions.last() {
        let est = positions.len() as f64 * game.branching_bound(last).max(1.0);
        if est > a.common.limit {
            return Err(Error::TooLarge(format!(
                "tabulating {} with {} {bound} may visit about {est:.1e} options ({} positions), above the limit of {:.1e}; pass --limit {:.0e} to run it anyway",
                game.id(),
                if entropy { "--max" } else { "--max-sum" },
                positions.len(),
                a.common.limit,
                est.ceil()
            )));
        }
    }
    let start = Instant::now();
    let mut p_set: Vec<Pos> = Vec::new();
    let mut ordered: Option<u128> = Some(0);
    for p in &positions {
        if solver.outcome(p, play).is_p() {
            ordered = ordered.and_then(|o| orderings(p).and_then(|c| o.checked_add(c)));
            p_set.push(p.clone());
        }
    }
    let elapsed = start.elapsed();
    Ok(if a.common.json {
        let mut v = json!({
            "game": game.id(),
            bound_name: bound,
            "play": play.name(),
            // Ordered tuples: a number, or a decimal string when it does not fit in 64 bits.
            "count": ordered.map(|o| u64::try_from(o).map(|x| json!(x)).unwrap_or_else(|_| json!(o.to_string()))),
            "canonical_count": p_set.len(),
            "positions_in_box": positions.len(),
            "seconds": elapsed.as_secs_f64(),
        });
        if !a.count_only {
            v["positions"] = json!(p_set);
        }
        format!("{}\n", serde_json::to_string(&v).unwrap())
    } else {
        let mut s = format!(
            "{}, {} play, {} at most {bound}: {} positions (multisets)\nP-positions: {} multisets, {} as ordered tuples ({:.3} s)\n",
            game.id(),
            play,
            if entropy { "spread max - min" } else { "total chips" },
            positions.len(),
            p_set.len(),
            ordered.map(|o| o.to_string()).unwrap_or_else(|| "too many to count".into()),
            elapsed.as_secs_f64()
        );
        if !a.count_only {
            for p in &p_set {
                s.push_str(&chip::format_power(p));
                s.push('\n');
            }
        }
        s
    })
}
