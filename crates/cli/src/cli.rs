//! Argument parsing and the commands.

use crate::output;
use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use nimlab_core::table::{tabulate, TableRun};
use nimlab_core::{Budget, Error, Game, Outcome, Play, Pos, Solver};
use nimlab_games::parse_game;
use serde_json::json;
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Parser, Debug)]
#[command(
    name = "nimlab",
    version,
    about = "Solve impartial combinatorial games exactly: Nim, Moore's Nim_k, Circular Nim, Shrinking Circular Nim",
    after_help = "Games: nim, moore(k), CN(n,k), SCN(n,k) (case-insensitive; see `nimlab games`).\nPositions: 1,7,5,6,2,3,6 or (1,7,5,6,2,3,6) or \"1 7 5 6 2 3 6\"."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Who wins from a position (P: the player to move loses; N: the player to move wins).
    Outcome {
        #[command(flatten)]
        target: Target,
        /// Misère play: the player who makes the last move loses.
        #[arg(long)]
        misere: bool,
        /// Also give the remoteness (moves until the game ends with perfect play), by full search.
        #[arg(long)]
        remoteness: bool,
        #[command(flatten)]
        common: Common,
    },
    /// The Sprague-Grundy value of a position (normal play).
    Grundy {
        #[command(flatten)]
        target: Target,
        #[command(flatten)]
        common: Common,
    },
    /// The winning moves of a position (with --all, every option with its value).
    Moves {
        #[command(flatten)]
        target: Target,
        #[arg(long)]
        misere: bool,
        /// List every option with its value, not only the winning ones.
        #[arg(long)]
        all: bool,
        #[command(flatten)]
        common: Common,
    },
    /// Every P-position of a box: CN stacks in 0..=H; SCN circles of at most n piles in 1..=H; Nim heaps in 0..=H.
    Table {
        /// Game name, e.g. CN(7,4).
        game: String,
        /// Largest stack, pile or heap size in the box.
        #[arg(long)]
        max: u64,
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
    },
    /// The proven results nimlab knows (all, or those covering GAME), with statement and source.
    Theory {
        /// Only the results that cover this game, e.g. CN(5,1) or nim.
        game: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// The games nimlab knows, their parameters and position syntax.
    Games {
        #[arg(long)]
        json: bool,
    },
}

#[derive(Args, Debug)]
struct Target {
    /// Game name, e.g. CN(7,4), SCN(6,3), nim, moore(2).
    game: String,
    /// Position, e.g. 1,7,5,6,2,3,6.
    #[arg(allow_hyphen_values = true)]
    position: String,
}

#[derive(Args, Debug)]
struct Common {
    /// Print one JSON object on stdout.
    #[arg(long)]
    json: bool,
    /// Most estimated option visits a search may make before it is refused.
    #[arg(long, default_value_t = Budget::default().limit, value_name = "N")]
    limit: f64,
}

impl Common {
    fn budget(&self) -> Budget {
        Budget {
            limit: self.limit,
            flag: "--limit",
        }
    }
}

/// Parses the arguments and runs the command; errors become one line on stderr and exit status 2.
pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                let _ = e.print();
                return if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                    ExitCode::from(2)
                } else {
                    ExitCode::SUCCESS
                };
            }
            let text = e.render().to_string();
            // One line: the error and its details, without the usage block.
            let line: Vec<&str> = text
                .lines()
                .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
                .map(|l| l.trim())
                .filter(|l| !l.is_empty())
                .collect();
            eprintln!(
                "nimlab: {} (see nimlab --help)",
                line.join(" ").trim_start_matches("error: ")
            );
            return ExitCode::from(2);
        }
    };
    match dispatch(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Error::Interrupted) => {
            eprintln!("nimlab: {}", Error::Interrupted);
            ExitCode::from(130)
        }
        Err(e) => {
            eprintln!("nimlab: {e}");
            ExitCode::from(2)
        }
    }
}

fn dispatch(cmd: Command) -> Result<(), Error> {
    match cmd {
        Command::Outcome {
            target,
            misere,
            remoteness,
            common,
        } => cmd_outcome(&target, Play::from_misere(misere), remoteness, &common),
        Command::Grundy { target, common } => cmd_grundy(&target, &common),
        Command::Moves {
            target,
            misere,
            all,
            common,
        } => cmd_moves(&target, Play::from_misere(misere), all, &common),
        Command::Table {
            game,
            max,
            heaps,
            misere,
            count_only,
            output,
            common,
        } => cmd_table(
            &game,
            max,
            heaps,
            Play::from_misere(misere),
            count_only,
            output,
            &common,
        ),
        Command::Games { json } => output::games(json),
        Command::Theory { game, json } => output::theory(game.as_deref(), json),
    }
}

fn load(target: &Target) -> Result<(Box<dyn Game>, Pos), Error> {
    let game = parse_game(&target.game)?;
    let p = game.parse_position(&target.position)?;
    Ok((game, p))
}

/// A spinner on stderr for searches that take more than a moment (hidden when stderr is not a terminal).
fn search_spinner(solver: &mut Solver) -> ProgressBar {
    let bar = ProgressBar::new_spinner();
    bar.set_style(ProgressStyle::with_template("{spinner} {elapsed} searching: {msg}").unwrap());
    let start = Instant::now();
    let b = bar.clone();
    solver.set_progress(Box::new(move |n| {
        if start.elapsed() > Duration::from_secs(1) {
            b.set_message(format!("{n} positions solved"));
            b.tick();
        }
    }));
    bar
}

fn cmd_outcome(
    target: &Target,
    play: Play,
    with_remoteness: bool,
    common: &Common,
) -> Result<(), Error> {
    let (game, p) = load(target)?;
    let mut solver = Solver::new(game.as_ref());
    let theory = nimlab_theory::find(game.as_ref(), &p, play);
    let (outcome, grundy, method) = match &theory {
        Some((t, v)) => (Outcome::from_is_p(v.is_p), v.grundy, t.id().to_string()),
        None => {
            solver.check_budget(&p, play == Play::Misere, common.budget())?;
            let bar = search_spinner(&mut solver);
            let r = match play {
                Play::Normal => {
                    let g = solver.grundy(&p);
                    (Outcome::from_is_p(g == 0), Some(g), "search".to_string())
                }
                Play::Misere => (solver.outcome(&p, play), None, "search".to_string()),
            };
            bar.finish_and_clear();
            r
        }
    };
    let remoteness = if with_remoteness {
        solver.check_budget(&p, true, common.budget())?;
        let bar = search_spinner(&mut solver);
        let r = solver.remoteness(&p, play);
        bar.finish_and_clear();
        Some(r)
    } else {
        None
    };
    if common.json {
        let mut v = output::header(game.as_ref(), &p, play);
        v["outcome"] = json!(outcome.to_string());
        v["method"] = json!(method);
        if let Some(g) = grundy {
            v["grundy"] = json!(g);
        }
        if let Some(r) = remoteness {
            v["remoteness"] = json!(r);
        }
        output::print_json(&v);
    } else {
        println!(
            "{} {} ({} play): {} — {}",
            game.id(),
            game.format_position(&p),
            play,
            outcome,
            outcome.in_words()
        );
        if let Some(g) = grundy {
            println!("Grundy value: {g}");
        }
        if let Some(r) = remoteness {
            println!("remoteness: {r}");
        }
        println!("method: {}", output::method_in_words(&method));
    }
    Ok(())
}

fn cmd_grundy(target: &Target, common: &Common) -> Result<(), Error> {
    let (game, p) = load(target)?;
    let theory =
        nimlab_theory::find(game.as_ref(), &p, Play::Normal).filter(|(_, v)| v.grundy.is_some());
    let (g, method) = match theory {
        Some((t, v)) => (v.grundy.unwrap(), t.id().to_string()),
        None => {
            let mut solver = Solver::new(game.as_ref());
            solver.check_budget(&p, false, common.budget())?;
            let bar = search_spinner(&mut solver);
            let g = solver.grundy(&p);
            bar.finish_and_clear();
            (g, "search".to_string())
        }
    };
    if common.json {
        let mut v = output::header(game.as_ref(), &p, Play::Normal);
        v["outcome"] = json!(Outcome::from_is_p(g == 0).to_string());
        v["grundy"] = json!(g);
        v["method"] = json!(method);
        output::print_json(&v);
    } else {
        println!(
            "{} {}: Grundy value {g}",
            game.id(),
            game.format_position(&p)
        );
        println!("method: {}", output::method_in_words(&method));
    }
    Ok(())
}

fn cmd_moves(target: &Target, play: Play, all: bool, common: &Common) -> Result<(), Error> {
    let (game, p) = load(target)?;
    let mut solver = Solver::new(game.as_ref());
    let theory = nimlab_theory::find(game.as_ref(), &p, play);
    // Theory answers the winning moves without search when it constructs them and --all is not asked.
    let from_theory = theory
        .as_ref()
        .filter(|(_, v)| !all && v.winning_moves.is_some());
    let (outcome, method, winning, all_moves) = if let Some((t, v)) = from_theory {
        (
            Outcome::from_is_p(v.is_p),
            t.id().to_string(),
            v.winning_moves.clone().unwrap(),
            None,
        )
    } else {
        // Every option is searched; the options of p are within the estimate for p.
        solver.check_budget(&p, play == Play::Misere, common.budget())?;
        let bar = search_spinner(&mut solver);
        let moves = solver.all_moves(&p, play);
        bar.finish_and_clear();
        let winning: Vec<Pos> = moves
            .iter()
            .filter(|m| m.outcome.is_p())
            .map(|m| m.to.clone())
            .collect();
        // A terminal position is P in normal play and N in misère play; otherwise N iff a move wins.
        let terminal = moves.is_empty();
        let outcome = Outcome::from_is_p(winning.is_empty() && !(terminal && play == Play::Misere));
        (outcome, "search".to_string(), winning, Some(moves))
    };
    if common.json {
        let mut v = output::header(game.as_ref(), &p, play);
        v["outcome"] = json!(outcome.to_string());
        v["method"] = json!(method);
        v["winning_moves"] = json!(winning);
        if let Some(ms) = &all_moves {
            v["options"] = json!(ms
                .iter()
                .map(|m| {
                    let mut o = json!({"position": m.to, "outcome": m.outcome.to_string(), "winning": m.outcome.is_p()});
                    if let Some(g) = m.grundy {
                        o["grundy"] = json!(g);
                    }
                    o
                })
                .collect::<Vec<_>>());
        }
        output::print_json(&v);
    } else {
        println!(
            "{} {} ({} play): {} — {}",
            game.id(),
            game.format_position(&p),
            play,
            outcome,
            outcome.in_words()
        );
        if winning.is_empty() {
            println!("no winning move: every move leads to an N-position");
        } else {
            println!("winning moves ({}):", winning.len());
            for q in &winning {
                println!("  -> {}", game.format_position(q));
            }
        }
        if let Some(ms) = &all_moves {
            if all {
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
                    println!(
                        "  -> {}  {}{} ({tag})",
                        game.format_position(&m.to),
                        m.outcome,
                        g
                    );
                }
            }
        }
        println!("method: {}", output::method_in_words(&method));
    }
    Ok(())
}

fn cmd_table(
    name: &str,
    max: u64,
    heaps: Option<usize>,
    play: Play,
    count_only: bool,
    out_path: Option<std::path::PathBuf>,
    common: &Common,
) -> Result<(), Error> {
    let game = parse_game(name)?;
    let domain = game.table_domain(max, heaps)?;
    // Refuse tables whose estimated work is above the budget: positions × options of a typical position.
    let mid_len = *domain.lengths.last().unwrap();
    let mid = vec![(domain.lo + domain.hi) / 2; mid_len];
    let est = domain.size_f64() * game.branching_bound(&mid).max(1.0);
    if est > common.limit {
        return Err(Error::TooLarge(format!(
            "tabulating {} with --max {max} may visit about {est:.1e} options ({:.1e} positions), above the limit of {:.1e}; pass --limit {:.0e} to run it anyway",
            game.id(),
            domain.size_f64(),
            common.limit,
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
        game.as_ref(),
        &domain,
        &TableRun {
            play,
            keep_positions: !count_only,
            cancel: Some(&cancel),
            progress: Some(&progress),
        },
    )?;
    bar.finish_and_clear();
    let elapsed = start.elapsed();
    let text = if common.json {
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
        if let Some(h) = heaps {
            v["heaps"] = json!(h);
        }
        if !count_only {
            v["positions"] = json!(table.positions);
        }
        format!("{}\n", serde_json::to_string(&v).unwrap())
    } else {
        output::table_text(game.as_ref(), &table, total, elapsed, !count_only)
    };
    match out_path {
        None => {
            let mut so = std::io::stdout().lock();
            let _ = so.write_all(text.as_bytes());
        }
        Some(path) => output::write_atomically(&path, text.as_bytes())?,
    }
    Ok(())
}
