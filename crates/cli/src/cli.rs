//! Argument parsing and the commands.

use crate::args::{Common, Target};
use crate::output;
use crate::query::{self, Ask};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use nimlab_core::{Error, Play};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "nimlab",
    version,
    about = "Solve impartial combinatorial games exactly: who wins, how to win, the P-positions of a box, and whether a characterization holds"
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
        /// Misère play: the player who makes the last move loses.
        #[arg(long)]
        misere: bool,
        /// List every option with its value, not only the winning ones.
        #[arg(long)]
        all: bool,
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        store: crate::store_cmd::StoreArgs,
    },
    /// Every P-position of a box: CN stacks in 0..=H; SCN circles of at most n piles in 1..=H; Nim heaps in 0..=H; chip games by total chips.
    Table(crate::table_cmd::TableArgs),
    /// A picture of a table as SVG or PNG: a 2-D slice of a box (P-positions or Grundy values), or
    /// with --counts the P-positions counted against the size of the box.
    Plot(crate::plot_cmd::PlotArgs),
    /// The solved tables kept in the store: list, export, remove.
    Store(crate::store_cmd::StoreCmd),
    /// The proven results nimlab knows (all, or those covering GAME), with statement and source.
    Theory {
        /// Only the results that cover this game, e.g. CN(5,1) or nim.
        game: Option<String>,
        /// Print one JSON object on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Check conditions (I)-(III) of the partition theorem for a built-in result or a conjecture over a box.
    Verify(crate::research_cmd::VerifyArgs),
    /// Prove a characterization of the P-positions for every stack size: conditions (I)-(III) of the partition theorem for a union of linear families, decided by an SMT solver (z3).
    Prove(crate::prove_cmd::ProveArgs),
    /// Find a characterization of the P-positions from tables alone (no theorem given) and prove it for every stack size: linear families conjectured on growing boxes, checked on a larger box, proved by the SMT solver.
    Discover(crate::discover_cmd::DiscoverArgs),
    /// The canonical P-positions of a box grouped by shape, with the relations each family obeys.
    Patterns(crate::research_cmd::PatternsArgs),
    /// Why a position is P or N: the family and relations of the result that decides it, or the winning move and the family it lands in (search when no result applies).
    Explain(crate::explain::ExplainArgs),
    /// Play against the perfect opponent in the terminal (moves and commands on stdin).
    Play(crate::play::PlayArgs),
    /// Serve the web page: play every game against the perfect opponent in a browser.
    Serve(crate::play::ServeArgs),
    /// The Grundy values of single heaps 0..=N of an octal or subtraction game (mex over options),
    /// with the period and preperiod, proved for every heap size where the Guy-Smith periodicity
    /// theorem (or, for games that never split a heap, a repeated window of values) applies.
    Sequence(crate::sequence_cmd::SequenceArgs),
    /// Every code of a family of octal games (0.dd, 0.ddd, 4.d, 4.dd) to N heaps, one row per code:
    /// period, preperiod, last exceptional value, largest value, proved or evidence, method.
    Atlas(crate::atlas_cmd::AtlasArgs),
    /// The games nimlab knows, their parameters and position syntax.
    Games {
        /// Print one JSON object on stdout.
        #[arg(long)]
        json: bool,
    },
    /// A completion script for a shell on stdout, e.g. `nimlab completions bash > ~/.local/share/bash-completion/completions/nimlab`.
    Completions {
        /// The shell: bash, zsh, fish, elvish or powershell.
        shell: clap_complete::Shell,
    },
    /// The man page (roff) on stdout, e.g. `nimlab man > ~/.local/share/man/man1/nimlab.1`; with a
    /// command, that command's page (nimlab-table(1): `nimlab man table`).
    Man {
        /// The command whose page to print, e.g. table, or store list.
        command: Vec<String>,
    },
}

/// The full command definition: the derived one with the list of games after the help.
fn command() -> clap::Command {
    // The list of games comes from the registry, so that a new game appears here by itself.
    Cli::command().after_help(format!(
        "Games: {} (case-insensitive; see `nimlab games`).\nPositions: 1,7,5,6,2,3,6 or (1,7,5,6,2,3,6) or \"1 7 5 6 2 3 6\"; chip games also 1^6 10.",
        nimlab_games::registry::family_names()
    ))
}

/// Parses the arguments and runs the command; errors become one line on stderr and exit status 2.
pub fn run() -> ExitCode {
    let cli = match command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m))
    {
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
            if let Some(line) = negative_number(&e) {
                eprintln!("nimlab: {line}");
                return ExitCode::from(2);
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
        Ok(code) => code,
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

/// Clap reads a negative number such as `--max -1` as an unknown flag and suggests `-- -1`; every
/// number nimlab takes is non-negative, so say that instead, naming the option it was given to.
fn negative_number(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(arg)) = e.get(ContextKind::InvalidArg) else {
        return None;
    };
    let digits = arg.strip_prefix('-')?;
    if digits.is_empty() || digits.parse::<f64>().is_err() {
        return None;
    }
    let args: Vec<String> = std::env::args().collect();
    let option = args
        .iter()
        .position(|a| a == arg)
        .and_then(|i| i.checked_sub(1))
        .map(|i| &args[i])
        .filter(|a| a.starts_with("--"));
    Some(match option {
        Some(o) => format!("{o} {arg}: the value must be non-negative"),
        None => format!("{arg}: numbers must be non-negative"),
    })
}

/// Runs one command; each returns its exit status (errors are turned into one by `run`).
fn dispatch(cmd: Command) -> Result<ExitCode, Error> {
    let done = |r: Result<(), Error>| r.map(|()| ExitCode::SUCCESS);
    match cmd {
        Command::Outcome {
            target,
            misere,
            remoteness,
            common,
            store,
        } => done(query::run(
            &target,
            Play::from_misere(misere),
            Ask::Outcome { remoteness },
            &common,
            &store,
        )),
        Command::Grundy {
            target,
            common,
            store,
        } => done(query::run(
            &target,
            Play::Normal,
            Ask::Grundy,
            &common,
            &store,
        )),
        Command::Moves {
            target,
            misere,
            all,
            common,
            store,
        } => done(query::run(
            &target,
            Play::from_misere(misere),
            Ask::Moves { all },
            &common,
            &store,
        )),
        Command::Table(args) => crate::table_cmd::run(&args),
        Command::Plot(args) => crate::plot_cmd::run(&args),
        Command::Store(args) => done(crate::store_cmd::run(&args)),
        Command::Sequence(args) => crate::sequence_cmd::run(&args),
        Command::Atlas(args) => done(crate::atlas_cmd::run(&args)),
        Command::Games { json } => done(output::games(json)),
        Command::Play(args) => done(crate::play::run(&args)),
        Command::Serve(args) => done(crate::play::serve(&args)),
        Command::Verify(args) => crate::research_cmd::run_verify(&args),
        Command::Prove(args) => crate::prove_cmd::run(&args),
        Command::Discover(args) => crate::discover_cmd::run(&args),
        Command::Patterns(args) => done(crate::research_cmd::run_patterns(&args)),
        Command::Theory { game, json } => done(output::theory(game.as_deref(), json)),
        Command::Explain(args) => done(crate::explain::run(&args)),
        Command::Completions { shell } => done(completions(shell)),
        Command::Man { command } => done(man(&command)),
    }
}

/// Writes the completion script for `shell` on stdout.
fn completions(shell: clap_complete::Shell) -> Result<(), Error> {
    let mut cmd = command();
    output::write_out(None, |out| {
        clap_complete::generate(shell, &mut cmd, "nimlab", out);
        Ok(())
    })
    .map(|_| ())
}

/// Writes the man page (roff, section 1) of `nimlab`, or of the command named by `path` (`table`,
/// `store list`), on stdout.
fn man(path: &[String]) -> Result<(), Error> {
    // Built as `clap_mangen::generate_to` does, so that subcommands are named nimlab-table and so on,
    // as the main page's list of subcommands refers to them.
    let mut page = command().disable_help_subcommand(true);
    page.build();
    for (i, name) in path.iter().enumerate() {
        let Some(sub) = page.find_subcommand(name).cloned() else {
            let known: Vec<&str> = page.get_subcommands().map(|c| c.get_name()).collect();
            return Err(Error::Unsupported(format!(
                "no man page for {:?}: commands are {}",
                path[..=i].join(" "),
                known.join(", ")
            )));
        };
        page = sub;
    }
    output::write_out(None, |out| {
        clap_mangen::Man::new(page)
            .source(format!("nimlab {}", env!("CARGO_PKG_VERSION")))
            .render(out)
    })
    .map(|_| ())
}
