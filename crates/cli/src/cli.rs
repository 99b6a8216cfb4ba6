//! Argument parsing and the commands.

use crate::output;
use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use nimlab_core::{Budget, Error, Game, Outcome, Play, Pos, Solver};
use nimlab_games::parse_game;
use serde_json::json;
use std::process::ExitCode;
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
        /// Compute remoteness and suspense even when the full search they need is large (they are
        /// reported by default only when that search is small).
        #[arg(long)]
        remoteness: bool,
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        store: crate::store_cmd::StoreArgs,
    },
    /// The Sprague-Grundy value of a position (normal play).
    Grundy {
        #[command(flatten)]
        target: Target,
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        store: crate::store_cmd::StoreArgs,
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
    /// Every P-position of a box: CN stacks in 0..=H; SCN circles of at most n piles in 1..=H; Nim heaps in 0..=H; chip games by total chips.
    Table(crate::table_cmd::TableArgs),
    /// The solved tables kept in the store: list, export, remove.
    Store(crate::store_cmd::StoreCmd),
    /// The proven results nimlab knows (all, or those covering GAME), with statement and source.
    Theory {
        /// Only the results that cover this game, e.g. CN(5,1) or nim.
        game: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Check conditions (I)-(III) of the partition theorem for a built-in result or a conjecture over a box.
    Verify(crate::research_cmd::VerifyArgs),
    /// The canonical P-positions of a box grouped by shape, with the relations each family obeys.
    Patterns(crate::research_cmd::PatternsArgs),
    /// Why a position is P or N: the family and relations of the result that decides it, or the winning move and the family it lands in (search when no result applies).
    Explain(crate::explain::ExplainArgs),
    /// Play against the perfect opponent in the terminal (moves and commands on stdin).
    Play(crate::play::PlayArgs),
    /// Serve the web page: play every game against the perfect opponent in a browser.
    Serve(crate::play::ServeArgs),
    /// The games nimlab knows, their parameters and position syntax.
    Games {
        #[arg(long)]
        json: bool,
    },
}

#[derive(Args, Debug)]
pub struct Target {
    /// Game name, e.g. CN(7,4), SCN(6,3), nim, moore(2); or a sum with positions in brackets,
    /// e.g. "CN(7,4)[1,2,3,4,5,6,7] + ET(2)[31,54] + nim[5]" (then no POSITION).
    pub game: String,
    /// Position, e.g. 1,7,5,6,2,3,6.
    #[arg(allow_hyphen_values = true)]
    pub position: Option<String>,
}

impl Target {
    /// The position text; a missing position is an error unless the game is a sum.
    pub fn position_text(&self) -> Result<&str, Error> {
        match &self.position {
            Some(p) if nimlab_games::is_sum(&self.game) => Err(Error::BadPosition(format!(
                "a sum carries its positions in brackets; drop the extra argument '{p}'"
            ))),
            Some(p) => Ok(p),
            None => Err(Error::BadPosition(
                "the following required arguments were not provided: <POSITION>".into(),
            )),
        }
    }
}

#[derive(Args, Debug)]
pub struct Common {
    /// Print one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
    /// Most estimated option visits a search may make before it is refused.
    #[arg(long, default_value_t = Budget::default().limit, value_name = "N")]
    pub limit: f64,
}

impl Common {
    pub fn budget(&self) -> Budget {
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
            store,
        } => cmd_outcome(
            &target,
            Play::from_misere(misere),
            remoteness,
            &common,
            &store,
        ),
        Command::Grundy {
            target,
            common,
            store,
        } => cmd_grundy(&target, &common, &store),
        Command::Moves {
            target,
            misere,
            all,
            common,
        } => cmd_moves(&target, Play::from_misere(misere), all, &common),
        Command::Table(args) => crate::table_cmd::run(&args),
        Command::Store(args) => crate::store_cmd::run(&args),
        Command::Games { json } => output::games(json),
        Command::Play(args) => crate::play::run(&args),
        Command::Serve(args) => crate::play::serve(&args),
        Command::Verify(args) => crate::research_cmd::run_verify(&args),
        Command::Patterns(args) => crate::research_cmd::run_patterns(&args),
        Command::Theory { game, json } => output::theory(game.as_deref(), json),
        Command::Explain(args) => crate::explain::run(&args),
    }
}

fn load(target: &Target) -> Result<(Box<dyn Game>, Pos), Error> {
    let game = parse_game(&target.game)?;
    let p = game.parse_position(target.position_text()?)?;
    Ok((game, p))
}

/// Prints positions in the notation of the user's input: Ferguson's multiplicative notation
/// (`1^3 2 5`) when the position was typed that way, the game's tuple notation otherwise.
fn printer<'a>(game: &'a dyn Game, target: &Target) -> impl Fn(&[u64]) -> String + 'a {
    let power = nimlab_games::chip::is_chip_game(game)
        && nimlab_games::chip::uses_power_notation(target.position.as_deref().unwrap_or(""));
    move |p: &[u64]| {
        if power {
            nimlab_games::chip::format_power(p)
        } else {
            game.format_position(p)
        }
    }
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
    store: &crate::store_cmd::StoreArgs,
) -> Result<(), Error> {
    if nimlab_games::is_sum(&target.game) {
        return crate::sums_cmd::run(target, play, false, with_remoteness, common);
    }
    let (game, p) = load(target)?;
    let show = printer(game.as_ref(), target);
    let mut solver = Solver::new(game.as_ref());
    let theory = nimlab_theory::find(game.as_ref(), &p, play);
    let stored = theory
        .is_none()
        .then(|| crate::store_cmd::stored_outcome(game.as_ref(), &p, play, store))
        .flatten();
    let (outcome, grundy, method) = match &theory {
        Some((t, v)) => (Outcome::from_is_p(v.is_p), v.grundy, t.id().to_string()),
        None if stored.is_some() => stored.unwrap(),
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
    let (remoteness, suspense) =
        match remoteness_and_suspense(&mut solver, &p, play, with_remoteness, common)? {
            Some((r, s)) => (Some(r), Some(s)),
            None => (None, None),
        };
    // A scripted game that failed has answered nothing reliable.
    if let Some(e) = game.failure() {
        return Err(Error::BadGame(e));
    }
    if common.json {
        let mut v = output::header(game.as_ref(), &p, play);
        v["outcome"] = json!(outcome.to_string());
        v["method"] = json!(method);
        if let Some(g) = grundy {
            v["grundy"] = json!(g);
        }
        // Always present; null when the full search they need was too large to run by default.
        v["remoteness"] = json!(remoteness);
        v["suspense"] = json!(suspense);
        output::print_json(&v);
    } else {
        println!(
            "{} {} ({} play): {} — {}",
            game.id(),
            show(&p),
            play,
            outcome,
            outcome.in_words()
        );
        if let Some(g) = grundy {
            println!("Grundy value: {g}");
        }
        if let (Some(r), Some(su)) = (remoteness, suspense) {
            println!("remoteness: {r} (moves the winner needs to win, the loser can hold out)");
            println!("suspense: {su} (the same when the winner delays and the loser hurries)");
        }
        println!("method: {}", output::method_in_words(&method));
    }
    Ok(())
}

/// Full searches this small run by default, so that `outcome` can always report remoteness and suspense.
const AUTO_FULL_SEARCH: f64 = 2e7;

/// Remoteness and suspense of `p` by full search: always when `forced` (within the budget, else an
/// error), otherwise only when the search is small.
pub fn remoteness_and_suspense(
    solver: &mut Solver,
    p: &[u64],
    play: Play,
    forced: bool,
    common: &Common,
) -> Result<Option<(u64, u64)>, Error> {
    if forced {
        solver.check_budget(p, true, common.budget())?;
    } else if solver.work_estimate(p, true) > AUTO_FULL_SEARCH.min(common.limit) {
        return Ok(None);
    }
    let bar = search_spinner(solver);
    let f = solver.full(p);
    bar.finish_and_clear();
    Ok(Some((f.remoteness(play), f.suspense(play))))
}

fn cmd_grundy(
    target: &Target,
    common: &Common,
    store: &crate::store_cmd::StoreArgs,
) -> Result<(), Error> {
    if nimlab_games::is_sum(&target.game) {
        return crate::sums_cmd::run(target, Play::Normal, false, false, common);
    }
    let (game, p) = load(target)?;
    let show = printer(game.as_ref(), target);
    let theory =
        nimlab_theory::find(game.as_ref(), &p, Play::Normal).filter(|(_, v)| v.grundy.is_some());
    let stored = theory
        .is_none()
        .then(|| crate::store_cmd::stored_grundy(game.as_ref(), &p, store))
        .flatten();
    let (g, method) = match theory {
        Some((t, v)) => (v.grundy.unwrap(), t.id().to_string()),
        None if stored.is_some() => stored.unwrap(),
        None => {
            let mut solver = Solver::new(game.as_ref());
            solver.check_budget(&p, false, common.budget())?;
            let bar = search_spinner(&mut solver);
            let g = solver.grundy(&p);
            bar.finish_and_clear();
            (g, "search".to_string())
        }
    };
    // A scripted game that failed has answered nothing reliable.
    if let Some(e) = game.failure() {
        return Err(Error::BadGame(e));
    }
    if common.json {
        let mut v = output::header(game.as_ref(), &p, Play::Normal);
        v["outcome"] = json!(Outcome::from_is_p(g == 0).to_string());
        v["grundy"] = json!(g);
        v["method"] = json!(method);
        output::print_json(&v);
    } else {
        println!("{} {}: Grundy value {g}", game.id(), show(&p));
        println!("method: {}", output::method_in_words(&method));
    }
    Ok(())
}

fn cmd_moves(target: &Target, play: Play, all: bool, common: &Common) -> Result<(), Error> {
    if nimlab_games::is_sum(&target.game) {
        return crate::sums_cmd::run(target, play, true, false, common);
    }
    let (game, p) = load(target)?;
    let show = printer(game.as_ref(), target);
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
    // A scripted game that failed has answered nothing reliable.
    if let Some(e) = game.failure() {
        return Err(Error::BadGame(e));
    }
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
            show(&p),
            play,
            outcome,
            outcome.in_words()
        );
        if winning.is_empty() {
            println!("no winning move: every move leads to an N-position");
        } else {
            println!("winning moves ({}):", winning.len());
            for q in &winning {
                println!("  -> {}", show(q));
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
                    println!("  -> {}  {}{} ({tag})", show(&m.to), m.outcome, g);
                }
            }
        }
        println!("method: {}", output::method_in_words(&method));
    }
    Ok(())
}
