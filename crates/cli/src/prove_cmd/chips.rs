//! `nimlab prove` for Ferguson's chip games (ET, EABO, ER, SER, EJR, ENTROPY): a registry result
//! proved for every box size with a fixed number of boxes ([`nimlab_prove::chips`]): by SMT, or with
//! `--automata` by finite automata for the results that read binary digits.

use super::{finish, ProveArgs};
use nimlab_core::{Error, Play};
use nimlab_prove::certificate::chips::{of_chip_automata, of_chips};
use nimlab_prove::chips::{from_registry, prove_chips, ChipGame};
use nimlab_prove::Prover;
use std::process::ExitCode;
use std::time::Duration;

/// `Ok(None)` when the game is not a chip game; otherwise the proof's exit status.
pub(super) fn run(a: &ProveArgs) -> Result<Option<ExitCode>, Error> {
    let Some(game) = ChipGame::parse(&a.game)? else {
        return Ok(None);
    };
    if let Some(path) = &a.families {
        return super::chip_families::run(a, &game, path).map(Some);
    }
    let Some(id) = &a.theorem else {
        return Err(Error::Unsupported(format!(
            "{}: the chip games are proved from a registry result: give --theorem ID (nimlab theory '{}' lists them)",
            a.game, a.game
        )));
    };
    if a.save {
        return Err(Error::Unsupported(
            "--save is not available for the chip games".into(),
        ));
    }
    if a.automata {
        return automata(a, id).map(Some);
    }
    let c = match a.bits {
        Some(w) => nimlab_prove::chips::from_registry_bits(id, &a.game, w)?,
        None => from_registry(id, &a.game)?,
    };
    if c.play != Play::from_misere(a.misere) {
        return Err(super::other_play(
            &format!("{id} is a result"),
            c.play,
            a.misere,
        ));
    }
    let solvers = smt_solvers(a)?;
    if !a.json && c.kind == nimlab_prove::chips::ChipKind::Subset {
        eprintln!(
            "nimlab: {id} is a partial result (it decides only some positions): proving that its members are P-positions (--subset)"
        );
    }
    let report = prove_chips(&c, &solvers)?;
    super::write_certificate(a, || of_chips(&c, Some(&report), None))?;
    if c.kind == nimlab_prove::chips::ChipKind::Winning {
        // A set of N-positions: the report's wording for a subset (P-positions) does not fit.
        if a.json {
            let mut v = report.to_json();
            v["claim"] = serde_json::json!("N-positions");
            println!("{v}");
        } else {
            print!(
                "{}",
                super::text(&report).replace(
                    "every member is a P-position",
                    "every member is an N-position (it moves into the all-odd set)"
                )
            );
        }
        return Ok(Some(ExitCode::from(match report.verdict {
            nimlab_prove::Status::Proved => 0,
            nimlab_prove::Status::Refuted => 1,
            nimlab_prove::Status::Unknown => 3,
        })));
    }
    finish(a, &report).map(Some)
}

/// The SMT solvers of the command's flags (`--solver`, `--cross-check`, `--timeout`).
pub(super) fn smt_solvers(a: &ProveArgs) -> Result<Vec<nimlab_prove::Solver>, Error> {
    match Prover::from_options(
        false,
        &a.solver,
        a.cross_check,
        Duration::from_secs(a.timeout),
    )? {
        Prover::Smt(solvers) => Ok(solvers),
        _ => Err(Error::Unsupported(
            "the chip games are proved by SMT".into(),
        )),
    }
}

/// `--automata`: a result that reads binary digits (ET(3), ET(4), ENTROPY(3)), or ET's partial
/// results ferguson-et-odd and ferguson-et-two-even, proved by finite automata for every box size;
/// the report says how many states its automata have.
fn automata(a: &ProveArgs, id: &str) -> Result<ExitCode, Error> {
    let c = nimlab_prove::chips::from_registry_automata(id, &a.game)?;
    if c.play != Play::from_misere(a.misere) {
        return Err(super::other_play(
            &format!("{id} is a result"),
            c.play,
            a.misere,
        ));
    }
    let winning = c.kind == nimlab_prove::chips::ChipKind::Winning;
    let proof =
        nimlab_prove::chips::prove_chips_automata(&c, None, Duration::from_secs(a.timeout))?;
    let mut v = proof.report.to_json();
    if winning {
        v["claim"] = serde_json::json!("N-positions");
    }
    v["states"] = proof
        .states
        .iter()
        .map(|(what, n)| (what.to_string(), serde_json::json!(n)))
        .collect::<serde_json::Map<_, _>>()
        .into();
    super::write_certificate(a, || Ok(of_chip_automata(id, &c, &proof)))?;
    if a.json {
        println!("{v}");
    } else {
        let text = super::text(&proof.report);
        if winning {
            // A set of N-positions: the report's wording for a subset (P-positions) does not fit.
            print!(
                "{}",
                text.replace(
                    "every member is a P-position",
                    "every member is an N-position (it moves into the all-odd set)"
                )
            );
        } else {
            print!("{text}");
        }
        if !proof.states.is_empty() {
            let sizes: Vec<String> = proof
                .states
                .iter()
                .map(|(what, n)| format!("{what} {n}"))
                .collect();
            println!("  automata (states): {}", sizes.join(", "));
        }
    }
    Ok(ExitCode::from(match proof.report.verdict {
        nimlab_prove::Status::Proved => 0,
        nimlab_prove::Status::Refuted => 1,
        nimlab_prove::Status::Unknown => 3,
    }))
}
