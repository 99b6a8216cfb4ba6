//! `nimlab discover`: a characterization of the P-positions found from tables alone (no theorem
//! given) and proved for every stack size — the pipeline of `nimlab_discover`; this module only
//! translates options, progress (stderr), Ctrl-C and the output.

use crate::store_cmd::StoreArgs;
use clap::Args;
use nimlab_core::Error;
use nimlab_discover::Options;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct DiscoverArgs {
    /// Game: CN(n,k), SCN(n,k), simplicial(...), ECN(m,{s,...},k); nim or moore(k) with --heaps;
    /// the redistribution chip games EABO(k), ER(k), SER(k), EJR(k,j) (with --max-sum).
    game: String,
    /// The largest entry of the largest box to tabulate (default: the largest box of at most 1.2e8
    /// positions).
    #[arg(long, value_name = "H")]
    max: Option<u64>,
    /// Chip games: the most chips in all of the largest box of totals (default: the largest box of
    /// at most 2e7 positions, the limit of the chip tables).
    #[arg(long, value_name = "S")]
    max_sum: Option<u64>,
    /// Number of heaps, for nim (read as CN(N,1)) and moore(k) (the complex of all k-sets of N heaps).
    #[arg(long, value_name = "N")]
    heaps: Option<usize>,
    /// Time limit of the whole run, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 600)]
    timeout: u64,
    /// Write the characterization to PATH: a families file (as `prove --families` reads it) or, from
    /// the automaton route, an automaton in Walnut's format (as `prove --automaton` reads it; SCN:
    /// one automaton per circle length, each section headed `# length L`).
    #[arg(long, value_name = "PATH")]
    out: Option<PathBuf>,
    /// Print one JSON object on stdout.
    #[arg(long)]
    json: bool,
    /// Misère play (the player who makes the last move loses): tables, families and their proof
    /// (prove --misere), and the automaton route all in misère play.
    #[arg(long)]
    misere: bool,
    /// The SMT solver (z3 or a compatible one).
    #[arg(long, value_name = "PATH", default_value = "z3")]
    solver: PathBuf,
    #[command(flatten)]
    store: StoreArgs,
}

/// Runs `nimlab discover`: exit 0 proved, 1 conjecture or none, 3 no answer within the limits, 2 bad
/// input (through the dispatcher), 130 Ctrl-C.
pub fn run(a: &DiscoverArgs) -> Result<ExitCode, Error> {
    let cancel = crate::interrupt::cancel_flag();
    let opts = Options {
        max: a.max,
        max_sum: a.max_sum,
        heaps: a.heaps,
        timeout: Duration::from_secs(a.timeout),
        solver: a.solver.clone(),
        store: a.store.path(),
        out: a.out.clone(),
        cancel: Some(cancel.clone()),
        progress: Some(Arc::new(|s: &str| eprintln!("nimlab: {s}"))),
        play: nimlab_core::Play::from_misere(a.misere),
        ..Options::default()
    };
    // The scope lets the solver's process and the automata see Ctrl-C too.
    let d = nimlab_core::interrupt::scope(cancel, || nimlab_discover::discover(&a.game, &opts))?;
    if a.json {
        println!("{}", d.to_json());
    } else {
        print!("{}", d.text());
    }
    Ok(ExitCode::from(d.exit_code()))
}
