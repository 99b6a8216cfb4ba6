//! `nimlab prove`: conditions (I)-(III) of the partition theorem for every stack size, decided by an
//! SMT solver on a union of linear families (a built-in theorem or a families file), or with
//! `--automata` by finite automata (xor included); with `--subset` (and for a partial result),
//! condition (C), which proves that every member of the set is a P-position.

use clap::Args;
use nimlab_core::{Arg, Error, Play};
use nimlab_prove::{ProofGame, ProofResult, ProveRequest, Prover, Source, Status};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

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

/// The request of the command's options: the one typed request of the prover.
fn request(a: &ProveArgs) -> Result<ProveRequest, Error> {
    // The game first: a game that needs a number of heaps is refused before a file is read.
    let game = ProofGame::parse(&a.game, a.heaps)?;
    game.takes(match (&a.theorem, &a.families, &a.automaton) {
        (Some(_), _, _) => Arg::Theorem,
        (_, Some(_), _) => Arg::Families,
        (_, _, Some(_)) => Arg::Automaton,
        _ => Arg::GrundyValue,
    })?;
    let read = |path: &PathBuf| -> Result<(String, String), Error> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::io(format!("reading {}", path.display()), e))?;
        Ok((text, path.display().to_string()))
    };
    let source = match (&a.theorem, &a.families, &a.automaton, a.grundy_value) {
        (_, _, _, Some(v)) => Source::GrundyValues {
            up_to: v,
            table_bits: a.grundy_bits,
        },
        (Some(id), _, _, _) => Source::Registry(id.clone()),
        (_, Some(path), _, _) => {
            let (text, name) = read(path)?;
            Source::Families { text, name }
        }
        (_, _, Some(path), _) => {
            let (text, name) = read(path)?;
            Source::Automaton { text, name }
        }
        _ => unreachable!("clap requires a source"),
    };
    let timeout = Duration::from_secs(a.timeout);
    let mut req = ProveRequest::of(&a.game, game, source);
    req.play = Play::from_misere(a.misere);
    req.subset = a.subset;
    req.bits = a.bits;
    req.prover = Prover::from_options(a.automata, &a.solver, a.cross_check, timeout)?;
    req.timeout = timeout;
    req.emit = a.emit.clone();
    req.save = a.save;
    Ok(req)
}

/// Runs `nimlab prove`: exit 0 proved, 1 refuted, 3 unknown (errors exit 2 through the dispatcher).
pub fn run(a: &ProveArgs) -> Result<ExitCode, Error> {
    if a.save && a.store.no_store {
        // Refused before the proof runs, not after.
        a.store.require("`prove --save`")?;
    }
    let result = nimlab_prove::request::prove(&request(a)?)?;
    if !a.json {
        for note in &result.notes {
            eprintln!("nimlab: {note}");
        }
        if let Some(dir) = &result.emitted {
            eprintln!(
                "wrote the proof certificate to {} ({}; README.md says how to re-check it: sh check.sh)",
                dir.display(),
                nimlab_core::plural_of(result.files.len(), "file", "files")
            );
        }
    }
    let saved = save(a, &result)?;
    if a.json {
        let mut v = result.to_json();
        if a.save {
            v["saved"] = serde_json::json!(saved.map(|id| format!("proved:{id}")));
        }
        println!("{v}");
    } else {
        print!("{}", result.text());
        if let Some(id) = saved {
            println!(
                "saved in the store as characterization #{id} (proved:{id}): outcome, moves and explain use it for {} positions of any size",
                Play::from_misere(a.misere).name()
            );
        }
    }
    Ok(ExitCode::from(result.exit_code()))
}

/// `--save`: the characterization, saved when the verdict is proved for every stack size; its id.
fn save(a: &ProveArgs, result: &ProofResult) -> Result<Option<i64>, Error> {
    let Some(s) = &result.saveable else {
        return Ok(None);
    };
    let proved_everywhere = result.report().is_some_and(|r| r.bits.is_none());
    if result.verdict() != Status::Proved || !proved_everywhere {
        eprintln!(
            "nimlab: not saved: the characterization is not proved for every stack size ({})",
            result.verdict().name()
        );
        return Ok(None);
    }
    let mut store = a.store.require("`prove --save`")?;
    let id = nimlab_analysis::proved::save_proved(
        &mut store, &s.game, s.play, s.format, &s.text, s.method,
    )?;
    Ok(Some(id))
}
