//! `nimlab prove`: conditions (I)-(III) of the partition theorem for every stack size, decided by an
//! SMT solver on a union of linear families (a built-in theorem or a families file), or with
//! `--automata` by finite automata (xor included); with `--subset` (and for a partial result),
//! condition (C), which proves that every member of the set is a P-position.

use clap::Args;
use nimlab_core::{Error, Play};
use nimlab_prove::{
    certificate, Claim, Condition, ConditionReport, Conjecture, Prover, Report, Ruleset, Status,
};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

mod chip_families;
mod chips;
mod grundy;

#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("source").required(true).args(["theorem", "families", "automaton", "grundy_value"])))]
pub struct ProveArgs {
    /// Game: CN(n,k), SCN(n,k), simplicial(...) or ECN(m,{s,...},k); nim or moore(k) with --heaps; or
    /// a chip game (ET(k), EABO(k), ER(k), SER(k), EJR(k,j) with --theorem; the redistribution
    /// games also with --families, a chip families file as `discover --out` writes it).
    game: String,
    /// Number of heaps, for nim (read as CN(N,1)) and moore(k) (the complex of all k-sets of N heaps),
    /// as `discover` and `verify` take it.
    #[arg(long, value_name = "N")]
    heaps: Option<usize>,
    /// A built-in result, by id (see `nimlab theory GAME`); for a complex that relabels CN(n,k), a
    /// result about CN(n,k) or `relabeled` (carried over through the relabeling).
    #[arg(long)]
    theorem: Option<String>,
    /// A families file (TOML): game, reading and [[family]] tables with name, length and relations;
    /// for EABO, ER, SER and EJR a chip families file (game, play, threshold, period, residues,
    /// exceptions: the totals of the P-positions).
    #[arg(long, value_name = "FILE")]
    families: Option<PathBuf>,
    /// An automaton in Walnut's text format (one msd_2 input per stack, input i = stack i, most
    /// significant digit first; README): the set it accepts is proved by the automata prover. For
    /// SCN, one automaton per circle length, each section headed `# length L` (README).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["bits", "solver", "emit", "cross_check"])]
    automaton: Option<PathBuf>,
    /// Print one JSON object on stdout.
    #[arg(long)]
    json: bool,
    /// Time limit of each solver query, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 120)]
    timeout: u64,
    /// The SMT solver: z3, cvc5 (each run with its own time-limit option), or any other solver that
    /// reads SMT-LIB 2 on its standard input (run without options; the watchdog enforces --timeout).
    #[arg(long, value_name = "PATH", default_value = "z3")]
    solver: PathBuf,
    /// Decide every query with a second solver as well (cvc5 with z3, z3 with cvc5): "proved" only
    /// when both answer unsat to every query; the report gives each solver's answers.
    #[arg(long)]
    cross_check: bool,
    /// Prove only for entries below 2^W, in bit-vector arithmetic (needed for xor relations, e.g.
    /// CN(6,4) or Nim); without it, linear families are proved for every entry size.
    #[arg(long, value_name = "W")]
    bits: Option<u32>,
    /// Write a proof certificate in DIR that others can check without nimlab: each query as a plain
    /// SMT-LIB 2 file (a header comment says what it states), the characterization, manifest.json
    /// (every file with its SHA-256, each query with every solver's answer and version), check.sh
    /// (re-checks the hashes and the answers) and README.md. With --automata: the set automaton
    /// (Walnut's format); with --grundy-value: each value set proved.
    #[arg(long, value_name = "DIR")]
    emit: Option<PathBuf>,
    /// Decide the conditions with finite automata on the entries' binary digits instead of the SMT
    /// solver: for every entry size, xor included (CN, Nim, complexes, SCN with circles of at most 15
    /// piles; the chip results that read binary digits: ferguson-et-k3, ferguson-et-k4,
    /// ferguson-entropy-k3 and its misère form); --timeout bounds the whole run.
    #[arg(long, conflicts_with_all = ["bits", "solver", "cross_check"])]
    automata: bool,
    /// ET(3) and ENTROPY(3) with --automata: prove the sets of the positions of Grundy value 0, 1, …,
    /// V for every box size, each learned from an exact table (docs/findings.md, "Value sets by
    /// automata").
    #[arg(long, value_name = "V")]
    grundy_value: Option<u16>,
    /// The box of the exact table of --grundy-value: entries below 2^B (3 to 10).
    #[arg(long, value_name = "B", default_value_t = 8)]
    grundy_bits: u32,
    /// Misère play (the player who makes the last move loses): condition (III) becomes "no terminal
    /// position is in the set"; (I) and (II) are unchanged (docs/rules.md).
    #[arg(long)]
    misere: bool,
    /// When the verdict is proved for every stack size, save the characterization (the families or
    /// the automaton) in the store, where outcome, moves and explain use it for positions of any size.
    #[arg(long, conflicts_with_all = ["bits", "theorem", "subset"])]
    save: bool,
    /// Prove only that every member of the set is a P-position (the set lies inside the P-set, not
    /// necessarily all of it), by condition (C): every move from a member reaches a position with a
    /// move back into the set (docs/rules.md). A partial result given with --theorem (such as
    /// cn-lemma5-s1) is always proved this way.
    #[arg(long, conflicts_with = "automaton")]
    subset: bool,
    #[command(flatten)]
    store: crate::store_cmd::StoreArgs,
}

/// The refusal of a result or file (`subject`, e.g. "ID is a result") about `about` play when the
/// command asked for the other convention (`misere`: `--misere` given).
fn other_play(subject: &str, about: Play, misere: bool) -> Error {
    Error::Unsupported(format!(
        "{subject} about {about} play; {}",
        if misere {
            "drop --misere"
        } else {
            "add --misere"
        }
    ))
}

fn conjecture(a: &ProveArgs) -> Result<Conjecture, Error> {
    let mut c = families(a)?;
    c.bits = a.bits;
    let play = Play::from_misere(a.misere);
    if let Some(id) = a.theorem.as_ref().filter(|_| c.play != play) {
        // A result is about one convention, as `verify` insists; a families file takes the flag's.
        return Err(other_play(&format!("{id} is a result"), c.play, a.misere));
    }
    c.play = play;
    if a.automata {
        c.validate_shape()?;
    } else {
        c.validate()?;
    }
    Ok(c)
}

/// The game's name as the prover reads it: `nim --heaps N` is CN(N,1) and `moore(k) --heaps N` the
/// complex of all k-sets of N stacks, the names `discover` writes in its families and automata.
fn game_name(a: &ProveArgs) -> Result<String, Error> {
    nimlab_discover::game_name(&a.game, a.heaps)
}

fn families(a: &ProveArgs) -> Result<Conjecture, Error> {
    let game = Ruleset::parse(&game_name(a)?)?;
    if let Some(id) = &a.theorem {
        return nimlab_prove::from_theorem(id, game);
    }
    let path = a
        .families
        .as_ref()
        .expect("clap requires --theorem or --families");
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::io(format!("reading {}", path.display()), e))?;
    let c = nimlab_prove::from_toml(&text, &path.display().to_string())?;
    if c.game != game {
        return Err(Error::Unsupported(format!(
            "{} is about {}, not {}",
            path.display(),
            c.game.id(),
            game.id()
        )));
    }
    Ok(c)
}

fn says(c: Condition, play: Play) -> &'static str {
    match c {
        Condition::I => "no move joins two members",
        Condition::II => "every non-terminal position outside the set has a move into it",
        Condition::III if play == Play::Misere => "the terminal position is not in the set",
        Condition::III => "the terminal position is in the set",
        Condition::Search => "the verdicts agree with exhaustive search",
        Condition::Closure => {
            "every move from a member reaches a position with a move back into the set"
        }
    }
}

fn line(r: &ConditionReport, play: Play) -> String {
    let head = format!(
        "  ({}) {}: {} ({:.2} s)",
        r.condition.name(),
        says(r.condition, play),
        r.status.name(),
        r.seconds
    );
    let t = nimlab_core::position::format_tuple;
    match (&r.counterexample, r.status) {
        // The exact check on a box contradicted a proof: its reason says so.
        (Some(cx), _) if r.condition == Condition::Search => format!(
            "{head}: {}{}",
            r.reason.as_deref().unwrap_or("exact search disagrees"),
            cx.move_to
                .as_ref()
                .map(|y| format!(" (it moves to {}, a P-position)", t(y)))
                .unwrap_or_default()
        ),
        (Some(cx), _) => match &cx.move_to {
            Some(y) if r.condition == Condition::Closure => format!(
                "{head}: {} is in the set but is an N-position: it moves to {}, a P-position (exact search)",
                t(&cx.position),
                t(y)
            ),
            Some(y) => format!(
                "{head}: {} is in the set and moves to {}, also in the set (re-checked)",
                t(&cx.position),
                t(y)
            ),
            None if r.condition == Condition::III && play == Play::Misere => {
                format!("{head}: {} is in the set (re-checked)", t(&cx.position))
            }
            None if r.condition == Condition::III => {
                format!("{head}: {} is not in the set (re-checked)", t(&cx.position))
            }
            None => format!(
                "{head}: {} is outside the set and none of its options is in it (re-checked over every option)",
                t(&cx.position)
            ),
        },
        (None, Status::Unknown) => {
            format!("{head}: {}", r.reason.as_deref().unwrap_or("no answer"))
        }
        _ => head,
    }
}

fn text(r: &Report) -> String {
    let below = format!("proved for entries below 2^{}", r.bits.unwrap_or(0));
    let every = match r.method {
        "automata" => "proved for every stack size (by automata): every member is a P-position",
        _ => "proved for every stack size: every member is a P-position",
    };
    let verdict = match r.verdict {
        Status::Proved if r.claim == Claim::Subset && r.bits.is_none() => every,
        Status::Proved if r.bits.is_some() => below.as_str(),
        Status::Proved if r.method == "automata" => "proved for every stack size (by automata)",
        Status::Proved => "proved for every stack size",
        Status::Refuted => "refuted",
        Status::Unknown
            if r.conditions.iter().any(|c| {
                c.reason
                    .as_deref()
                    .is_some_and(|w| w.starts_with("(C) fails"))
            }) =>
        {
            "unknown (condition (C), which is sufficient but not necessary, fails; the set may still lie inside the P-set)"
        }
        Status::Unknown if r.method == "automata" => {
            "unknown (the automata did not finish within the limits for some condition)"
        }
        Status::Unknown
            if r.conditions.iter().all(|c| {
                c.status != Status::Unknown || c.reason.as_deref().is_some_and(|w| w.contains("timeout"))
            }) =>
        {
            "unknown (the solver reached its time limit for some condition)"
        }
        Status::Unknown => "unknown (some condition is not decided; the reasons follow)",
    };
    let play = if r.play == Play::Misere {
        ", misère play"
    } else {
        ""
    };
    let mut out = format!(
        "{}, {}{play}: {verdict} ({:.2} s)\n",
        r.game, r.source, r.seconds
    );
    for c in &r.conditions {
        out.push_str(&line(c, r.play));
        out.push('\n');
    }
    if r.solvers.len() > 1 {
        let names: Vec<String> = r
            .solvers
            .iter()
            .map(|(name, version)| format!("{name} ({version})"))
            .collect();
        out.push_str(&format!(
            "  cross-checked: every query was put to {}; proved needs unsat from each\n",
            names.join(" and ")
        ));
    }
    if let Some(b) = &r.box_check {
        out.push_str(&format!(
            "  checked by exact search on {} ({} positions): {}\n",
            b.describe(),
            b.positions,
            if r.claim == Claim::Subset {
                "every member is a P-position"
            } else {
                "the set is the P-set there"
            }
        ));
    }
    // Ferguson's chip games have boxes of chips, not stacks.
    if matches!(nimlab_prove::chips::ChipGame::parse(&r.game), Ok(Some(_))) {
        out = out.replace("every stack size", "every box size");
    }
    out
}

/// Runs `nimlab prove`: exit 0 proved, 1 refuted, 3 unknown (errors exit 2 through the dispatcher).
pub fn run(a: &ProveArgs) -> Result<ExitCode, Error> {
    if a.timeout == 0 {
        return Err(Error::Unsupported(
            "--timeout must be at least 1 second".into(),
        ));
    }
    if let Some(v) = a.grundy_value {
        return grundy::run(a, v);
    }
    if let Some(status) = chips::run(a)? {
        return Ok(status);
    }
    if a.save && a.store.no_store {
        // Refused before the proof runs, not after.
        a.store.require("`prove --save`")?;
    }
    if a.heaps.is_none() && a.game.trim().eq_ignore_ascii_case("nim") && a.theorem.is_some() {
        return every_number_of_heaps(a);
    }
    // nim and moore(k) with --heaps are read as the games discover writes (CN(N,1), a complex).
    let parsed = nimlab_games::parse_game(&game_name(a)?)?;
    if Ruleset::of(parsed.as_ref()).is_none() {
        return Err(crate::discover_cmd::not_covered(
            "prove",
            &a.game,
            parsed.as_ref(),
        ));
    }
    if let Some(path) = &a.automaton {
        return automaton(a, path);
    }
    let c = conjecture(a)?;
    let claim = Claim::of(a.theorem.as_deref(), a.subset);
    let subset = claim == Claim::Subset;
    if subset && !a.subset && !a.json {
        eprintln!(
            "nimlab: {} is a partial result (it decides only some positions): proving that its members are P-positions (--subset)",
            a.theorem.as_deref().unwrap_or_default()
        );
    }
    let prover = Prover::from_options(
        a.automata,
        &a.solver,
        a.cross_check,
        Duration::from_secs(a.timeout),
    )?;
    let report = nimlab_prove::run(&c, claim, &prover)?;
    let text = match (&a.emit, &a.families) {
        (Some(_), Some(path)) => Some(
            std::fs::read_to_string(path)
                .map_err(|e| Error::io(format!("reading {}", path.display()), e))?,
        ),
        _ => None,
    };
    write_certificate(a, || {
        let kept = match &text {
            Some(t) => certificate::Characterization::File(t),
            None => certificate::Characterization::Registry,
        };
        certificate::of_box(&c, claim, Some(&report), kept)
    })?;
    finish(a, &report)
}

/// `prove nim --theorem bouton --automata` (no `--heaps`; `bouton-misere` with `--misere`): Bouton's
/// theorem for every number of heaps, by the induction over the heaps of `nimlab_prove::heaps`, whose
/// lemmas the automata decide.
fn every_number_of_heaps(a: &ProveArgs) -> Result<ExitCode, Error> {
    let id = a.theorem.as_deref().unwrap_or_default();
    let (lemmas, play) = nimlab_prove::heaps::lemmas(id)?;
    if play != Play::from_misere(a.misere) {
        return Err(Error::Unsupported(format!(
            "{id} is a result about {play} play; {}",
            if a.misere {
                "drop --misere"
            } else {
                "add --misere"
            }
        )));
    }
    let refused = [
        (a.subset, "--subset"),
        (a.save, "--save"),
        (a.emit.is_some(), "--emit"),
        (a.bits.is_some(), "--bits"),
        (a.cross_check, "--cross-check"),
    ];
    if let Some((_, flag)) = refused.iter().find(|(on, _)| *on) {
        return Err(Error::Unsupported(format!(
            "{flag} does not apply to the proof of {id} for every number of heaps; give --heaps N"
        )));
    }
    if !a.automata {
        return Err(Error::Unsupported(format!(
            "{id} for every number of heaps is proved by automata (xor): add --automata, or give --heaps N"
        )));
    }
    let r = nimlab_prove::heaps::prove_lemmas(id, play, &lemmas, Duration::from_secs(a.timeout))?;
    if a.json {
        println!("{}", r.to_json());
    } else {
        let verdict = match r.verdict {
            Status::Proved => "proved for every number of heaps and every heap size (by induction over the heaps; its lemmas by automata)",
            Status::Refuted => "not proved: a lemma of the induction is false",
            Status::Unknown => "unknown (the automata did not finish within the limits for some lemma)",
        };
        let conv = if play == Play::Misere {
            ", misère play"
        } else {
            ""
        };
        println!("nim, theorem {id}{conv}: {verdict} ({:.2} s)", r.seconds);
        for l in &r.lemmas {
            let cx = l
                .counterexample
                .as_ref()
                .map(|v| {
                    let v: Vec<String> = v.iter().map(|x| x.to_string()).collect();
                    format!(": counterexample ({}) (re-checked)", v.join(", "))
                })
                .or_else(|| l.reason.as_ref().map(|r| format!(": {r}")))
                .unwrap_or_default();
            println!(
                "  lemma {}: {}: {} ({:.2} s){cx}",
                l.lemma.name,
                l.lemma.statement,
                l.status.name(),
                l.seconds
            );
        }
        println!("  the argument from the lemmas to the theorem (by cases and induction over the heaps, not machine-checked): docs/findings.md, section 10");
    }
    Ok(ExitCode::from(match r.verdict {
        Status::Proved => 0,
        Status::Refuted => 1,
        Status::Unknown => 3,
    }))
}

/// `--save`: the characterization, saved when the verdict is proved for every stack size; its id.
fn save(a: &ProveArgs, report: &Report) -> Result<Option<i64>, Error> {
    if !a.save {
        return Ok(None);
    }
    if report.verdict != Status::Proved || report.bits.is_some() {
        eprintln!(
            "nimlab: not saved: the characterization is not proved for every stack size ({})",
            report.verdict.name()
        );
        return Ok(None);
    }
    let (format, path) = match (&a.families, &a.automaton) {
        (Some(f), _) => (nimlab_analysis::proved::Format::Families, f),
        (None, Some(f)) => (nimlab_analysis::proved::Format::Automaton, f),
        (None, None) => return Ok(None),
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::io(format!("reading {}", path.display()), e))?;
    let mut store = a.store.require("`prove --save`")?;
    let id = nimlab_analysis::proved::save_proved(
        &mut store,
        &game_name(a)?,
        Play::from_misere(a.misere),
        format,
        &text,
        report.method,
    )?;
    Ok(Some(id))
}

/// `prove GAME --automaton FILE`: the automata prover on the set the file's automaton accepts.
fn automaton(a: &ProveArgs, path: &std::path::Path) -> Result<ExitCode, Error> {
    let game = Ruleset::parse(&game_name(a)?)?;
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::io(format!("reading {}", path.display()), e))?;
    let shown = path.display().to_string();
    let play = Play::from_misere(a.misere);
    let timeout = Duration::from_secs(a.timeout);
    let mut rule = None;
    let mut report = if game.kind == nimlab_prove::Kind::Scn {
        // One automaton per circle length (walnut's SCN sections).
        let (empty, sets) = nimlab_prove::walnut::scn_from_walnut(&text, game.n)
            .map_err(|e| Error::Unsupported(format!("{shown}: {e}")))?;
        nimlab_prove::prove_scn_members(&game, &sets, empty, play, timeout)
            .map_err(|e| Error::Unsupported(format!("{shown}: {e}")))?
    } else {
        let members = nimlab_prove::walnut::from_walnut(&text, game.n)
            .map_err(|e| Error::Unsupported(format!("{shown}: {e}")))?;
        rule = nimlab_prove::automata::readable(&members).map(|r| r.text(members.tracks));
        nimlab_prove::prove_members(&game, &members, play, timeout)?
    };
    report.source = format!("automaton {shown}");
    finish_with(a, &report, rule)
}

/// `--emit DIR`: writes the certificate that `describe` gives (every route's one call) and says
/// where it went; nothing without `--emit`.
fn write_certificate(
    a: &ProveArgs,
    describe: impl FnOnce() -> Result<certificate::Certificate, Error>,
) -> Result<(), Error> {
    let Some(dir) = &a.emit else {
        return Ok(());
    };
    let files = describe()?.write(dir)?;
    if !a.json {
        eprintln!(
            "wrote the proof certificate to {} ({}; README.md says how to re-check it: sh check.sh)",
            dir.display(),
            nimlab_core::plural_of(files.len(), "file", "files")
        );
    }
    Ok(())
}

/// Prints the report (and, with `--save`, the id it was saved under); the exit status.
fn finish(a: &ProveArgs, report: &Report) -> Result<ExitCode, Error> {
    finish_with(a, report, None)
}

/// [`finish`], with the automaton's readable rule when it has one (JSON `rule`).
fn finish_with(a: &ProveArgs, report: &Report, rule: Option<String>) -> Result<ExitCode, Error> {
    let saved = save(a, report)?;
    if a.json {
        let mut v = report.to_json();
        if a.save {
            v["saved"] = serde_json::json!(saved.map(|id| format!("proved:{id}")));
        }
        if let Some(r) = &rule {
            v["rule"] = serde_json::json!(r);
        }
        println!("{v}");
    } else {
        if let Some(r) = &rule {
            println!("the automaton's rule (checked against it): {r}");
        }
        print!("{}", text(report));
        if let Some(id) = saved {
            println!(
                "saved in the store as characterization #{id} (proved:{id}): outcome, moves and explain use it for {} positions of any size",
                Play::from_misere(a.misere).name()
            );
        }
    }
    Ok(ExitCode::from(match report.verdict {
        Status::Proved => 0,
        Status::Refuted => 1,
        Status::Unknown => 3,
    }))
}
