//! `nimlab prove` for Ferguson's chip games (ET, EABO, ER, SER, EJR, ENTROPY): a registry result
//! proved for every box size with a fixed number of boxes ([`nimlab_prove::chips`]).

use super::{finish, ProveArgs};
use nimlab_core::{Error, Play};
use nimlab_prove::chips::{emit_chips, from_registry, prove_chips, ChipGame};
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
    for (given, flag) in [(a.automata, "--automata"), (a.save, "--save")] {
        if given {
            return Err(Error::Unsupported(format!(
                "{flag} is not available for the chip games (their proofs are SMT proofs)"
            )));
        }
    }
    let c = match a.bits {
        Some(w) => nimlab_prove::chips::from_registry_bits(id, &a.game, w)?,
        None => from_registry(id, &a.game)?,
    };
    if c.play != Play::from_misere(a.misere) {
        return Err(Error::Unsupported(format!(
            "{id} is a result about {} play; {}",
            c.play,
            if a.misere {
                "drop --misere"
            } else {
                "add --misere"
            }
        )));
    }
    let Prover::Smt(solvers) = Prover::from_options(
        false,
        &a.solver,
        a.cross_check,
        Duration::from_secs(a.timeout),
    )?
    else {
        return Err(Error::Unsupported(
            "the chip games are proved by SMT".into(),
        ));
    };
    if !a.json && c.kind == nimlab_prove::chips::ChipKind::Subset {
        eprintln!(
            "nimlab: {id} is a partial result (it decides only some positions): proving that its members are P-positions (--subset)"
        );
    }
    let report = prove_chips(&c, &solvers)?;
    if let Some(dir) = &a.emit {
        let files = emit_chips(&c, Some(&report), dir)?;
        if !a.json {
            eprintln!(
                "wrote {} to {} (README.md says how to re-check them)",
                nimlab_core::plural_of(files.len(), "file", "files"),
                dir.display()
            );
        }
    }
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
