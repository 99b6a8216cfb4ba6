//! The Grundy value sets of ET(3) or ENTROPY(3) by automata, value after value:
//!
//! ```sh
//! cargo run --release -p nimlab-prove --example chip_grundy -- GAME BITS [--states N] [--timeout S]
//! ```
//!
//! GAME is `ET(3)` or `ENTROPY(3)`; the exact table covers the box of BITS binary digits (at most
//! 10). For v = 0, 1, …: `G_v` is learned from the boxes 2^2, 2^3, … (doubled until two agree, then
//! checked on the whole table), proved by the value equation for every box size, and re-checked
//! against the whole table; the first v that does not settle stops the run (evidence of
//! irregularity, not a proof). One line per step, with its seconds.

use nimlab_prove::automata::{
    entropy3_value_one, learn_value_set, refute, Budget, GrundyTable, LearnedValueSet, Transfer,
    ValueSets,
};
use nimlab_prove::learn::disagreement;
use std::process::ExitCode;
use std::time::{Duration, Instant};

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: chip_grundy 'ET(3)'|'ENTROPY(3)' BITS [--states N] [--timeout S]";
    let moves = match args.first().map(String::as_str) {
        Some("ET(3)") => Transfer::Et,
        Some("ENTROPY(3)") => Transfer::Entropy,
        _ => return Err(usage.into()),
    };
    let bits: u32 = args
        .get(1)
        .and_then(|b| b.parse().ok())
        .ok_or_else(|| usage.to_string())?;
    let mut states = 2000usize;
    let mut timeout = 600u64;
    let mut i = 2;
    while i < args.len() {
        let val = args.get(i + 1).and_then(|v| v.parse::<u64>().ok());
        match (args[i].as_str(), val) {
            ("--states", Some(v)) => states = usize::try_from(v).map_err(|e| e.to_string())?,
            ("--timeout", Some(v)) => timeout = v,
            _ => return Err(usage.into()),
        }
        i += 2;
    }
    let t0 = Instant::now();
    let table = GrundyTable::new(moves, bits).map_err(|e| format!("{e:?}"))?;
    println!(
        "table: {} on 2^{bits} per box, values up to {}, {:.2} s",
        args[0],
        table.max_value(),
        t0.elapsed().as_secs_f64()
    );
    let budget = Budget::new(Instant::now() + Duration::from_secs(timeout), 4_000_000);
    let mut sets = ValueSets::new(moves, &budget).map_err(|e| format!("{e:?}"))?;
    for v in 0..=table.max_value() {
        let t = Instant::now();
        let learned = learn_value_set(&table, v, 2, states).map_err(|e| format!("{e:?}"))?;
        let dfa = match learned {
            LearnedValueSet::Stable { dfa, bits: b } => {
                println!(
                    "G_{v}: learned, {} states, boxes 2^{b} and 2^{} agree, the whole table agrees, {:.2} s",
                    dfa.states(),
                    b + 1,
                    t.elapsed().as_secs_f64()
                );
                dfa
            }
            LearnedValueSet::Refuted { dfa, at } => {
                println!(
                    "G_{v}: two boxes agree on {} states but the table of 2^{bits} differs at {at:?}; stop ({:.2} s)",
                    dfa.states(),
                    t.elapsed().as_secs_f64()
                );
                return Ok(());
            }
            LearnedValueSet::Unstable { states: per_box } => {
                let list: Vec<String> = per_box
                    .iter()
                    .map(|(b, s)| match s {
                        Some(s) => format!("2^{b}: {s}"),
                        None => format!("2^{b}: over the cap or box too small"),
                    })
                    .collect();
                println!(
                    "G_{v}: no automaton settles up to 2^{} (states per box: {}); stop ({:.2} s)",
                    bits - 1,
                    list.join(", "),
                    t.elapsed().as_secs_f64()
                );
                return Ok(());
            }
        };
        let t = Instant::now();
        match sets.prove_next(&dfa, &budget) {
            Ok(None) => {
                let proof = t.elapsed().as_secs_f64();
                let t = Instant::now();
                let table_v = table.value_table(v, bits).map_err(|e| format!("{e:?}"))?;
                if let Some(at) = disagreement(&dfa, &table_v) {
                    return Err(format!(
                        "G_{v} proved but differs from the table at {at:?}: a bug"
                    ));
                }
                println!(
                    "G_{v}: proved for every box size, {proof:.2} s; equal to the table of 2^{bits}, {:.2} s",
                    t.elapsed().as_secs_f64()
                );
                if moves == Transfer::Entropy && v == 1 {
                    let stated =
                        entropy3_value_one(false, &budget).map_err(|e| format!("{e:?}"))?;
                    println!(
                        "G_1: the statement of entropy3_value_one accepts {}",
                        if stated.differs_from(&dfa).is_none() {
                            "the same words"
                        } else {
                            "other words"
                        }
                    );
                }
            }
            Ok(Some(w)) => {
                let re = refute(&table, &dfa, v, &w);
                println!(
                    "G_{v}: not proved, the equation's sides differ at {w:?}; on the table: {re:?}; stop ({:.2} s)",
                    t.elapsed().as_secs_f64()
                );
                return Ok(());
            }
            Err(e) => {
                println!(
                    "G_{v}: unknown ({e:?}); stop ({:.2} s)",
                    t.elapsed().as_secs_f64()
                );
                return Ok(());
            }
        }
    }
    println!("every value of the table proved");
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
