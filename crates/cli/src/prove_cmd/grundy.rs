//! `nimlab prove 'ET(3)'|'ENTROPY(3)' --grundy-value V --automata`: the sets G_0, …, G_V of the
//! positions of each Grundy value, learned from an exact table of the box of `--grundy-bits` binary
//! digits and proved for every box size by the value equation
//! ([`nimlab_prove::automata::ValueSets`]).

use super::ProveArgs;
use nimlab_core::Error;
use nimlab_prove::automata::{
    learn_value_set, refute, Budget, GrundyTable, LearnedValueSet, Stop, Transfer, ValueSets,
    MAX_GRUNDY_BITS,
};
use nimlab_prove::certificate::values::{of_value_sets, ValueSetsRun};
use nimlab_prove::learn::disagreement;
use std::process::ExitCode;
use std::time::{Duration, Instant};

fn stop(e: Stop) -> Error {
    match e {
        Stop::Unsupported(why) => Error::Unsupported(why),
        Stop::Limit(why) => Error::TooLarge(why),
    }
}

/// The proof of `G_0`, …, `G_v`; exit status 0 when every one is proved, 1 when one is refuted (a
/// position re-checked on the exact table), 3 when one does not settle or a limit is reached.
pub(super) fn run(a: &ProveArgs, v: u16) -> Result<ExitCode, Error> {
    let name: String = a.game.chars().filter(|c| !c.is_whitespace()).collect();
    let moves = match name.to_ascii_uppercase().as_str() {
        "ET(3)" => Transfer::Et,
        "ENTROPY(3)" => Transfer::Entropy,
        _ => {
            return Err(Error::Unsupported(format!(
                "--grundy-value covers ET(3) and ENTROPY(3), not {}",
                a.game
            )))
        }
    };
    if !a.automata {
        return Err(Error::Unsupported(
            "--grundy-value is proved by automata: add --automata".into(),
        ));
    }
    if a.misere || a.save || a.subset || a.heaps.is_some() {
        return Err(Error::Unsupported(
            "--grundy-value takes normal play and none of --misere, --save, --subset, --heaps"
                .into(),
        ));
    }
    let bits = a.grundy_bits;
    if !(3..=MAX_GRUNDY_BITS).contains(&bits) {
        return Err(Error::Unsupported(format!(
            "--grundy-bits takes 3 to {MAX_GRUNDY_BITS}, not {bits}"
        )));
    }
    let t0 = Instant::now();
    let budget = Budget::new(t0 + Duration::from_secs(a.timeout), 4_000_000);
    let table = GrundyTable::new(moves, bits).map_err(stop)?;
    let mut sets = ValueSets::new(moves, &budget).map_err(stop)?;
    let mut lines = Vec::new();
    let mut verdict = "proved";
    let out = |line: String, lines: &mut Vec<String>| {
        if !a.json {
            println!("{line}");
        }
        lines.push(line);
    };
    for u in 0..=v {
        let dfa = match learn_value_set(&table, u, 2, 20_000).map_err(stop)? {
            LearnedValueSet::Stable { dfa, .. } => dfa,
            LearnedValueSet::Refuted { at, .. } => {
                out(format!("G_{u}: two boxes agree, the table of 2^{bits} per box differs at {at:?}: unknown"), &mut lines);
                verdict = "unknown";
                break;
            }
            LearnedValueSet::Unstable { states } => {
                let s: Vec<String> = states
                    .iter()
                    .map(|(b, s)| match s {
                        Some(s) => format!("2^{b}: {s}"),
                        None => format!("2^{b}: -"),
                    })
                    .collect();
                out(
                    format!(
                        "G_{u}: no automaton settles on boxes up to 2^{} (states: {}): unknown",
                        bits - 1,
                        s.join(", ")
                    ),
                    &mut lines,
                );
                verdict = "unknown";
                break;
            }
        };
        match sets.prove_next(&dfa, &budget) {
            Ok(None) => {
                if let Some(at) = disagreement(&dfa, &table.value_table(u, bits).map_err(stop)?) {
                    return Err(Error::Unsupported(format!(
                        "internal error: G_{u} proved but differs from the exact table at {at:?}"
                    )));
                }
                out(format!("G_{u}: proved for every box size (automaton of {} states; equal to the exact table of 2^{bits} per box)", dfa.states()), &mut lines);
            }
            Ok(Some(w)) => {
                let at = match refute(&table, &dfa, u, &w) {
                    Some((x, g, member)) => format!(
                        "{x:?} (the learned set {} it; its value is {g})",
                        if member { "holds" } else { "misses" }
                    ),
                    None => format!("{w:?} (outside the table)"),
                };
                out(
                    format!("G_{u}: the learned automaton is not G_{u}: refuted at {at}"),
                    &mut lines,
                );
                verdict = "refuted";
                break;
            }
            Err(Stop::Limit(why)) => {
                out(format!("G_{u}: unknown ({why})"), &mut lines);
                verdict = "unknown";
                break;
            }
            Err(e) => return Err(stop(e)),
        }
    }
    let seconds = t0.elapsed().as_secs_f64();
    super::write_certificate(a, || {
        Ok(of_value_sets(&ValueSetsRun {
            game: &a.game,
            moves,
            value: v,
            bits,
            verdict,
            lines: &lines,
            proved: &sets.proved,
        }))
    })?;
    if a.json {
        println!(
            "{}",
            serde_json::json!({
                "game": a.game, "grundy_value": v, "grundy_bits": bits, "verdict": verdict,
                "proved": sets.next_value(), "lines": lines, "seconds": seconds,
            })
        );
    } else {
        println!("verdict: {verdict} ({seconds:.2} s)");
    }
    Ok(ExitCode::from(match verdict {
        "proved" => 0,
        "refuted" => 1,
        _ => 3,
    }))
}
