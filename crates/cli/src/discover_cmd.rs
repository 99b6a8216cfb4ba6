//! `nimlab discover`: a characterization of the P-positions found from tables alone (no theorem
//! given) and proved for every stack size — the pipeline of `nimlab_discover`; this module only
//! translates options, progress (stderr), Ctrl-C and the output.

use crate::store_cmd::StoreArgs;
use clap::Args;
use nimlab_core::Error;
use nimlab_discover::{Discovery, Options, Verdict};
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

/// The refusal of `discover` or `prove` (`cmd`) for a game the provers do not cover, naming the
/// commands that can do the job for it.
pub(crate) fn not_covered(cmd: &str, name: &str, game: &dyn nimlab_core::Game) -> Error {
    let name = name.trim();
    let name = if name.contains(['(', ' ', '{', '[']) {
        format!("'{name}'")
    } else {
        name.to_string()
    };
    let heaps = game.downcast_ref::<nimlab_games::Nim>().is_some()
        || game.downcast_ref::<nimlab_games::MooreNim>().is_some();
    if heaps {
        return Error::Unsupported(format!(
            "{cmd} works on a fixed number of stacks: nim with N heaps is CN(N,1) (`nimlab prove 'CN(N,1)' --theorem bouton`), and `nimlab discover {name} --heaps N` finds and proves a characterization of {name} on N heaps"
        ));
    }
    let bound = match game.table_bound() {
        nimlab_core::TableBound::TotalChips => "--max-sum S",
        nimlab_core::TableBound::Box { heaps: true } => "--heaps N --max H",
        _ => "--max H",
    };
    let chips = if cmd == "prove" {
        ", Ferguson's chip games (with --theorem)"
    } else {
        ""
    };
    Error::Unsupported(format!(
        "{cmd} covers CN(n,k), SCN(n,k), nim and moore(k) (with --heaps), simplicial(...) and ECN(m,S,k){chips}, not {}: `nimlab patterns {name} {bound}` groups the P-positions of a box by shape, and `nimlab verify {name} {bound} --conjecture FILE` (or `--theorem ID`) checks a characterization on that box",
        game.id()
    ))
}

/// Runs `nimlab discover`: exit 0 proved, 1 conjecture or none, 3 no answer within the limits, 2 bad
/// input (through the dispatcher), 130 Ctrl-C.
pub fn run(a: &DiscoverArgs) -> Result<ExitCode, Error> {
    if a.timeout == 0 {
        return Err(Error::Unsupported(
            "--timeout must be at least 1 second".into(),
        ));
    }
    let parsed = nimlab_games::parse_game(&a.game)?;
    if let Some(chip) = nimlab_prove::chips::ChipGame::parse(&a.game)? {
        return run_chips(a, &chip);
    }
    if a.max_sum.is_some() {
        return Err(Error::Unsupported(format!(
            "--max-sum bounds the chip games' boxes (total chips); {} takes --max H",
            parsed.id()
        )));
    }
    let heaps = parsed.downcast_ref::<nimlab_games::Nim>().is_some()
        || parsed.downcast_ref::<nimlab_games::MooreNim>().is_some();
    if !heaps && nimlab_prove::Ruleset::of(parsed.as_ref()).is_none() {
        return Err(not_covered("discover", &a.game, parsed.as_ref()));
    }
    let game = nimlab_discover::game_name(&a.game, a.heaps)?;
    let cancel = crate::interrupt::cancel_flag();
    let store = a.store.path();
    let opts = Options {
        max: a.max,
        timeout: Duration::from_secs(a.timeout),
        solver: a.solver.clone(),
        store,
        cancel: Some(cancel.clone()),
        progress: Some(Arc::new(|s: &str| eprintln!("nimlab: {s}"))),
        play: if a.misere {
            nimlab_core::Play::Misere
        } else {
            nimlab_core::Play::Normal
        },
        ..Options::default()
    };
    // The scope lets the solver's process and the automata see Ctrl-C too.
    let d = nimlab_core::interrupt::scope(cancel, || nimlab_discover::discover(&game, &opts))?;
    let file = d.write(a.out.as_deref())?;
    // A characterization proved for every size goes to the store, where the analysis chain answers
    // positions of any size from it (method `proved:ID`).
    let saved = match (d.proved(), &opts.store) {
        (Some(proven), Some(path)) => Some(nimlab_analysis::proved::save_discovered(
            path, &d.game, d.play, proven,
        )?),
        _ => None,
    };
    if a.json {
        let mut v = d.to_json(file.as_deref());
        v["saved"] = saved.map_or(serde_json::Value::Null, |id| format!("proved:{id}").into());
        println!("{v}");
    } else {
        print!("{}", text(&d, file.as_deref()));
        if let Some(id) = saved {
            println!(
                "saved in the store as characterization #{id} (proved:{id}): outcome, moves and explain answer from it"
            );
        }
    }
    Ok(ExitCode::from(d.exit_code()))
}

/// `discover` on a chip game: the redistribution games through their set of P-totals
/// ([`nimlab_discover::chips`]); ET and ENTROPY refused in one line.
fn run_chips(a: &DiscoverArgs, chip: &nimlab_prove::chips::ChipGame) -> Result<ExitCode, Error> {
    // ET(3) and ENTROPY(3): by automata, on a box of entries (--max H).
    let transfer = nimlab_discover::chip_automaton::covered(chip).is_some();
    if !transfer && !matches!(chip.moves, nimlab_prove::chips::Moves::Redistribute(_)) {
        return Err(nimlab_discover::chips::not_covered(chip));
    }
    let flags = if transfer {
        [
            (a.max_sum.is_some(), "--max-sum"),
            (a.heaps.is_some(), "--heaps"),
        ]
    } else {
        [(a.max.is_some(), "--max"), (a.heaps.is_some(), "--heaps")]
    };
    for (given, flag) in flags {
        if given {
            return Err(Error::Unsupported(if transfer {
                format!(
                    "{flag} does not apply to {}: discover learns it on a box of entries (--max H)",
                    chip.id()
                )
            } else {
                format!(
                    "{flag} is for box games; {} is bounded by its total number of chips: use --max-sum S",
                    chip.id()
                )
            }));
        }
    }
    let cancel = crate::interrupt::cancel_flag();
    let opts = Options {
        max: a.max,
        max_sum: a.max_sum,
        timeout: Duration::from_secs(a.timeout),
        solver: a.solver.clone(),
        cancel: Some(cancel.clone()),
        progress: Some(Arc::new(|s: &str| eprintln!("nimlab: {s}"))),
        play: nimlab_core::Play::from_misere(a.misere),
        ..Options::default()
    };
    let d = nimlab_core::interrupt::scope(cancel, || {
        nimlab_discover::chips::discover_chips(&a.game, &opts)
    })?;
    let file = d.write(a.out.as_deref())?;
    if a.json {
        let mut v = d.to_json(file.as_deref());
        v["saved"] = serde_json::Value::Null;
        println!("{v}");
    } else if transfer {
        print!("{}", transfer_text(&d, file.as_deref()));
    } else {
        print!("{}", chips_text(&d, chip, file.as_deref()));
    }
    Ok(ExitCode::from(d.exit_code()))
}

/// The text of discover on ET(3) or ENTROPY(3): the automaton route.
fn transfer_text(d: &Discovery, file: Option<&str>) -> String {
    let boxed = d
        .box_max
        .map(|h| format!("[{}..{h}]^3", d.box_min))
        .unwrap_or_else(|| "-".into());
    let what = format!(
        "the positions the automaton below accepts ({} states{})",
        d.states.unwrap_or(0),
        d.rule
            .as_deref()
            .map(|r| format!("; the P-positions are those where {r}"))
            .unwrap_or_default()
    );
    let mut out = String::from(
        "method: an exact table of the box (search); an automaton learned from its boxes 2^b and checked on the whole box; proved for every box size by automata (the P-set is the set of positions with no option in it)\n",
    );
    out.push_str(&match d.verdict {
        Verdict::Proved => format!(
            "{}: proved for every box size: {what} (equal to the P-set on the box {boxed}) ({:.2} s)\n",
            d.game, d.seconds
        ),
        Verdict::Conjecture => format!(
            "{}: conjecture: {what} (equal to the P-set on the box {boxed}); not proved: {} ({:.2} s)\n",
            d.game,
            d.reason.as_deref().unwrap_or("-"),
            d.seconds
        ),
        Verdict::None => format!(
            "{}: none: {} ({:.2} s)\n",
            d.game,
            d.reason.as_deref().unwrap_or("no automaton found"),
            d.seconds
        ),
    });
    if let Some(c) = &d.counterexample {
        out.push_str(&format!(
            "counterexample (re-checked on the exact table): {c}\n"
        ));
    }
    match (file, d.walnut.as_ref()) {
        (Some(f), _) => out.push_str(&format!("wrote the automaton to {f} (Walnut's format)\n")),
        (None, Some(t)) => out.push_str(t),
        _ => {}
    }
    out
}

fn chips_text(d: &Discovery, chip: &nimlab_prove::chips::ChipGame, file: Option<&str>) -> String {
    let game = if d.play == nimlab_core::Play::Misere {
        format!("{} (misère play)", d.game)
    } else {
        d.game.clone()
    };
    let boxed = d
        .box_max
        .map(|s| format!("the totals {}..{s}", d.box_min))
        .unwrap_or_else(|| "-".into());
    let what = d
        .totals
        .as_ref()
        .map(|t| nimlab_discover::chips::criterion(chip, d.play, t))
        .unwrap_or_default();
    let mut out = String::from(
        "method: T, the totals of the P-positions, computed exactly total by total; its simplest ultimately periodic description (two full periods and 2k totals observed); checked on a larger box, then as far as is cheap; proved by the SMT chip prover\n"
    );
    out.push_str(&match d.verdict {
        Verdict::Proved => format!(
            "{game}: proved for every box size: {what} (equal to T on {boxed}, proved by {}) ({:.2} s)\n",
            d.prover.unwrap_or("smt"),
            d.seconds
        ),
        Verdict::Conjecture => format!(
            "{game}: conjecture: {what} (equal to T on {boxed}); not proved: {} ({:.2} s)\n",
            d.reason.as_deref().unwrap_or("-"),
            d.seconds
        ),
        Verdict::None => format!(
            "{game}: none: {} ({:.2} s)\n",
            d.reason.as_deref().unwrap_or("no description found"),
            d.seconds
        ),
    });
    if let Some(c) = &d.totals_check {
        out.push_str(&c.text());
    }
    match (file, d.toml.as_ref()) {
        (Some(f), _) => out.push_str(&format!("wrote the chip families file {f}\n")),
        (None, Some(t)) => out.push_str(t),
        _ => {}
    }
    out
}

fn text(d: &Discovery, file: Option<&str>) -> String {
    let boxed = d
        .box_max
        .map(|h| format!("[{}..{h}]", d.box_min))
        .unwrap_or_else(|| "-".into());
    let what = match d.states {
        Some(n) if d.format == nimlab_prove::Format::Automaton && !d.lengths.is_empty() => format!(
            "automata of {n} states in all (one per circle length: {})",
            d.lengths
                .iter()
                .map(|l| l.states().map_or("-".into(), |s| s.to_string()))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Some(n) if d.format == nimlab_prove::Format::Automaton => {
            format!("automaton of {n} states")
        }
        _ => count(d.families.len()),
    };
    let game = if d.play == nimlab_core::Play::Misere {
        format!("{} (misère play)", d.game)
    } else {
        d.game.clone()
    };
    let head = match d.verdict {
        Verdict::Proved => format!(
            "{game}: proved for every stack size: the P-positions are the {what} below (equal to the P-set on the box {boxed}, proved by {}) ({:.2} s)",
            d.prover.unwrap_or("smt"),
            d.seconds
        ),
        Verdict::Conjecture => format!(
            "{game}: conjecture: the {what} below equal the P-set on the box {boxed}; not proved: {} ({:.2} s)",
            d.reason.as_deref().unwrap_or("-"),
            d.seconds
        ),
        Verdict::None => format!(
            "{game}: none: {} ({:.2} s)",
            d.reason.as_deref().unwrap_or("no description found"),
            d.seconds
        ),
    };
    let mut out = head + "\n";
    if let Some(r) = &d.rule {
        out.push_str(&format!("rule: {r} (checked against the automaton)\n"));
    }
    let kind = if d.format == nimlab_prove::Format::Automaton {
        "automaton (Walnut's format)"
    } else {
        "families file"
    };
    match (file, d.toml.as_ref().or(d.walnut.as_ref())) {
        (Some(f), _) => out.push_str(&format!("wrote the {kind} {f}\n")),
        (None, Some(t)) => out.push_str(t),
        _ => {}
    }
    out
}

fn count(n: usize) -> String {
    if n == 1 {
        "1 family".into()
    } else {
        format!("{n} families")
    }
}
