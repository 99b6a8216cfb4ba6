//! Learns the automaton of a game's P-set from tables of the tables engine, then proves it:
//!
//! ```sh
//! cargo run --release -p nimlab-prove --example learn -- GAME MAX_BITS [CHECK_BITS] [--out FILE] \
//!     [--theorem ID] [--try] [--timeout S]
//! ```
//!
//! One line per box (digits, states, seconds to tabulate and to learn), the outcome, and the proof by
//! `prove_members` (time limit `--timeout`, default 600 s); `--out FILE` writes the automaton in
//! Walnut's format; `--theorem ID` says whether it accepts the same words as the registry result's
//! automaton (compiled from its families); `--try` proves the last automaton learned even when no two
//! boxes agreed. The figures of docs/benchmarks.md ("Automata learned from tables").

use nimlab_core::{Game, Play};
use nimlab_prove::learn::{learn, LearnOptions, Outcome, Table};
use nimlab_prove::{prove_members, Ruleset};
use nimlab_tables::pset::every_p_position;
use std::time::{Duration, Instant};

fn engine(game: &dyn Game, m: usize, bits: u32) -> nimlab_core::Result<Table> {
    let max = (1u64 << bits) - 1;
    let mut t = Table::new(m, bits)?;
    match every_p_position(game, max, Play::Normal, Default::default(), &mut |x| {
        t.mark(x);
    }) {
        None => Err(nimlab_core::Error::Unsupported(format!(
            "the tables engine does not cover {} below 2^{bits}",
            game.id()
        ))),
        Some(Err(_)) => Err(nimlab_core::Error::Interrupted),
        Some(Ok(())) => Ok(t),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let valued = ["--out", "--theorem", "--timeout"];
    let opt = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .map(|i| args[i + 1].clone())
    };
    let out = opt("--out");
    let theorem = opt("--theorem");
    let timeout: u64 = opt("--timeout").map_or(600, |t| t.parse().expect("--timeout S"));
    let try_last = args.iter().any(|a| a == "--try");
    let pos: Vec<&String> = args
        .iter()
        .enumerate()
        .filter(|(i, a)| {
            !a.starts_with("--") && (*i == 0 || !valued.contains(&args[i - 1].as_str()))
        })
        .map(|(_, a)| a)
        .collect();
    if pos.len() < 2 {
        eprintln!("usage: learn GAME MAX_BITS [CHECK_BITS] [--out FILE]");
        std::process::exit(2);
    }
    let rules = Ruleset::parse(pos[0]).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let max_bits: u32 = pos[1].parse().expect("MAX_BITS");
    let check_bits: Option<u32> = pos.get(2).map(|b| b.parse().expect("CHECK_BITS"));
    let game = rules.game();
    let t0 = Instant::now();
    let outcome = learn(
        rules.n,
        &mut |bits| engine(game.as_ref(), rules.n, bits),
        &LearnOptions {
            min_bits: 1,
            max_bits,
            check_bits,
            max_states: 1_000_000,
            deadline: None,
        },
        &mut |r| {
            println!(
                "box 2^{}: {} (table {:.2} s, learning {:.2} s)",
                r.bits,
                r.states
                    .map_or("too small to learn from".into(), |s| format!("{s} states")),
                r.table_seconds,
                r.learn_seconds
            )
        },
    )
    .unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let learned = t0.elapsed().as_secs_f64();
    let dfa = match outcome {
        Outcome::Stable {
            dfa,
            bits,
            checked_bits,
        } => {
            println!(
                "{}: stable, {} states, learned below 2^{bits}, agrees with the tables up to 2^{checked_bits} ({learned:.2} s)",
                rules.id(),
                dfa.states()
            );
            dfa
        }
        Outcome::Refuted { dfa, bits, at } => {
            println!(
                "{}: the automaton of 2^{bits} ({} states) differs from the check table at {at:?}",
                rules.id(),
                dfa.states()
            );
            std::process::exit(1)
        }
        Outcome::Unstable { last } => {
            println!(
                "{}: not stable up to 2^{max_bits}; last: {:?} states",
                rules.id(),
                last.as_ref().map(|l| l.dfa.states())
            );
            match last {
                Some(l) if try_last => l.dfa,
                _ => std::process::exit(1),
            }
        }
    };
    if let Some(id) = theorem {
        let c = nimlab_prove::from_theorem(&id, rules.clone()).expect("a registry result");
        let budget = nimlab_prove::automata::Budget::new(
            Instant::now() + Duration::from_secs(600),
            4_000_000,
        );
        let thm = nimlab_prove::automata::members(&c, rules.n, &budget).expect("its automaton");
        match dfa.differs_from(&thm) {
            None => println!(
                "the same words as {id}'s automaton ({} states)",
                thm.states()
            ),
            Some(at) => println!("differs from {id}'s automaton at {at:?}"),
        }
    }
    if let Some(f) = out {
        std::fs::write(&f, nimlab_prove::walnut::to_walnut(&dfa)).expect("writing the file");
    }
    let r = prove_members(&rules, &dfa, Play::Normal, Duration::from_secs(timeout)).unwrap();
    println!(
        "proof: {} ({:.2} s): {}",
        r.verdict.name(),
        r.seconds,
        r.conditions
            .iter()
            .map(|c| format!(
                "({}) {} {:.2} s",
                c.condition.name(),
                c.status.name(),
                c.seconds
            ))
            .collect::<Vec<_>>()
            .join(", ")
    );
}
