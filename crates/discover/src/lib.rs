//! # nimlab-discover
//!
//! `nimlab discover`: from tables of P-positions to a characterization proved for every stack size,
//! with no theorem given. It never reads the theory registry; everything comes from tables.
//!
//! The pipeline ([`discover`]):
//! 1. tabulate the P-set on a box `[lo..H]^n` with the tables engine (looked up in the store when it
//!    is there, saved there otherwise);
//! 2. conjecture linear families whose union is the P-set of that box exactly ([`linear`]);
//! 3. check the conjecture on a larger box (exact membership, the prover's own, against that box's
//!    table); when it fails, conjecture again from the larger box;
//! 4. prove conditions (I)–(III) for every stack size with the SMT prover (`nimlab_prove::prove`).
//!    A counterexample (re-checked by the prover) lies outside the checked box, so the box grows to
//!    hold it and the description is conjectured again;
//! 5. when no linear description fits a box, or the families are refuted beyond the largest box
//!    allowed, try once the automaton route ([`automaton`]: an automaton learned from the tables,
//!    proved by the automata prover);
//! 6. answer `proved`, `conjecture` (it equals the P-set on the box, and the proof was refuted beyond
//!    the largest box allowed or gave no answer) or `none` (no description within the limits).
//!
//! The chip games take the same steps on other boxes ([`chips`]: the totals of the P-positions;
//! [`chip_automaton`]: an automaton). Every route runs in one loop, `route::drive`: growing
//! the box, the time limit and the verdict are written there once.

mod answer;
pub mod automaton;
pub mod chip_automaton;
pub mod chips;
mod families;
pub mod linear;
mod options;
mod render;
mod route;

pub use answer::{Discovery, DiscoveryVerdict, FamilyOut, TableUse};
pub use options::{Options, ProgressFn, DEFAULT_POSITIONS};

use nimlab_core::{Arg, Error, Refusal, Result};
use nimlab_prove::Ruleset;

/// Largest entry of the automaton route's learning boxes when `--max` is not given.
pub const DEFAULT_LEARNING_MAX: u64 = 63;

/// The box bound used when none is given: the largest `H` whose box has at most
/// [`DEFAULT_POSITIONS`] positions (at least 4).
pub fn default_max(rules: &Ruleset) -> u64 {
    let lo = rules.min_entry() as u64;
    let mut h = lo + 4;
    while linear::positions_in_box(lo, h + 1, rules.n).is_some_and(|s| s <= DEFAULT_POSITIONS)
        && h < 64
    {
        h += 1;
    }
    h
}

/// Finds and proves a characterization of the P-positions of `game` (in `opts.play`; nim and
/// moore(k) with `opts.heaps`) from tables alone, by the route the game takes: linear families then
/// an automaton (games of stacks), the P-totals (the redistribution chip games) or an automaton (ET(3),
/// ENTROPY(3)). The description found is written to `opts.out`, and a characterization proved for
/// every size is saved in the store at `opts.store`, where the analysis chain answers positions of
/// any size from it. `Err` only for bad input (a game no prover handles, a bad box, no solver), for
/// `Error::Interrupted` (the cancel flag) and for a file or store that cannot be written; a time
/// limit gives an honest verdict.
pub fn discover(game: &str, opts: &Options) -> Result<Discovery> {
    if opts.timeout.is_zero() {
        return Err(Error::refused(
            Refusal::new("")
                .name(Arg::Timeout)
                .text(" must be at least 1 second"),
        ));
    }
    let chip = nimlab_prove::chips::ChipGame::parse(game)?;
    let mut d = if let Some(chip) = &chip {
        if opts.heaps.is_some() {
            let bound = if chip_automaton::covered(chip).is_some() {
                Arg::Max
            } else {
                Arg::MaxSum
            };
            return Err(Error::refused(
                Refusal::new("")
                    .name(Arg::Heaps)
                    .text(format!(
                        " is for nim and moore(k); {} has its number of boxes in its name: bound it with ",
                        chip.id()
                    ))
                    .given(bound),
            ));
        }
        chips::discover_chips(game, opts)?
    } else {
        let parsed = nimlab_games::parse_game(game)?;
        // nim and moore(k) are read with their number of heaps (`game_name`); other games of any
        // number of heaps (scripts, octal games) are not covered.
        let heaps = parsed.downcast_ref::<nimlab_games::Nim>().is_some()
            || parsed.downcast_ref::<nimlab_games::MooreNim>().is_some();
        if opts.max_sum.is_some() {
            return Err(Error::refused(
                Refusal::new("")
                    .name(Arg::MaxSum)
                    .text(format!(
                        " bounds the chip games' boxes (total chips); {} takes ",
                        parsed.id()
                    ))
                    .given(Arg::Max),
            ));
        }
        if !heaps && Ruleset::of(parsed.as_ref()).is_none() {
            return Err(nimlab_prove::request::not_covered(
                "discover",
                game,
                parsed.as_ref(),
            ));
        }
        families::search(&game_name(game, opts.heaps)?, opts)?
    };
    d.file = d.write(opts.out.as_deref())?;
    // The store keeps characterizations of games of stacks.
    if let (Some(proven), Some(path), None) = (d.proved(), &opts.store, &chip) {
        d.saved = Some(nimlab_analysis::proved::save_discovered(
            path, &d.game, d.play, proven,
        )?);
    }
    Ok(d)
}

/// The game name `discover` works on: `nim`/`moore(k)` with a number of heaps become the game of
/// that many heaps ([`nimlab_prove::request::game_name`]).
pub fn game_name(game: &str, heaps: Option<usize>) -> Result<String> {
    nimlab_prove::request::game_name(game, heaps)
}
