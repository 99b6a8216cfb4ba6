//! `nimlab prove GAME --families FILE` for the redistribution chip games: the chip families file
//! (`discover --out` writes it) states T, the totals of the P-positions, and the claim "no allowed
//! kept set has its total in T" is proved by the chip prover
//! ([`nimlab_prove::chips::totals::claim`]).

use super::{finish, ProveArgs};
use nimlab_core::{Error, Play};
use nimlab_prove::chips::totals;
use nimlab_prove::chips::{prove_chips, ChipGame};
use std::path::Path;
use std::process::ExitCode;

/// Proves the chip families file `path` on the chip game `a.game`.
pub(super) fn run(a: &ProveArgs, game: &ChipGame, path: &Path) -> Result<ExitCode, Error> {
    if !matches!(game.moves, nimlab_prove::chips::Moves::Redistribute(_)) {
        return Err(Error::Unsupported(format!(
            "{}: a chip families file (a set of P-totals) describes the redistribution games EABO, ER, SER and EJR only; prove {} with --theorem ID",
            game.id(),
            game.id()
        )));
    }
    for (given, flag) in [
        (a.automata, "--automata"),
        (a.save, "--save"),
        (a.bits.is_some(), "--bits"),
        (a.subset, "--subset"),
    ] {
        if given {
            return Err(Error::Unsupported(format!(
                "{flag} is not available with a chip families file (its P-set is proved by SMT for every box size)"
            )));
        }
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::io(format!("reading {}", path.display()), e))?;
    let name = path.display().to_string();
    let file = totals::read_file(&text, &name, game)?;
    let play = Play::from_misere(a.misere);
    if file.play != play {
        return Err(super::other_play(
            &format!("{name} is"),
            file.play,
            a.misere,
        ));
    }
    let c = totals::claim(
        &a.game,
        play,
        &file.totals,
        format!("chip families file {name}"),
    )?;
    let solvers = super::chips::smt_solvers(a)?;
    let report = prove_chips(&c, &solvers)?;
    super::write_certificate(a, || {
        nimlab_prove::certificate::chips::of_chips(&c, Some(&report), Some(&text))
    })?;
    finish(a, &report)
}
