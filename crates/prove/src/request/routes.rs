//! The routes of [`super::prove`]: each checks that the request's options fit it (typed refusals),
//! builds the claimed set, runs the method and writes what the request asks to emit.

use super::{
    other_play, refuse_any, ClaimedAs, Decided, ProofResult, ProveRequest, Saveable, Source,
    ValueSetsReport,
};
use crate::chips::{self, totals, ChipGame, ChipKind, Moves};
use crate::conjecture::{Ruleset, RulesetKind};
use crate::prover::{CharacterizationFormat, Prover};
use crate::{Claim, SmtSolver, Status};
use nimlab_core::{Arg, Error, Play, Refusal, Result};
use std::time::Instant;

/// The SMT solvers of the request, or a refusal naming the method's option.
fn smt_solvers<'a>(req: &'a ProveRequest, what: &str) -> Result<&'a [SmtSolver]> {
    match &req.prover {
        Prover::Smt(s) => Ok(s),
        Prover::Automata(_) => Err(Error::refused(
            Refusal::new(format!("{what} is proved by SMT; drop ")).given(Arg::Automata),
        )),
    }
}

fn cross_check(req: &ProveRequest) -> bool {
    matches!(&req.prover, Prover::Smt(s) if s.len() > 1)
}

/// A box game: its families (a registry result or a families file) or an automaton file.
pub(super) fn stacks(req: &ProveRequest, rules: &Ruleset) -> Result<ProofResult> {
    if let Source::Automaton { text, name } = &req.source {
        return automaton_file(req, rules, text, name);
    }
    let id = match &req.source {
        Source::Registry(id) => Some(id.as_str()),
        _ => None,
    };
    refuse_any(
        &[
            (req.save && id.is_some(), Arg::Save),
            (req.save && req.bits.is_some(), Arg::Bits),
            (req.save && req.subset, Arg::Subset),
        ],
        "not apply with a saved characterization (only a families file or an automaton proved for every stack size is saved)",
    )?;
    let mut c = match &req.source {
        Source::Registry(id) => crate::from_theorem(id, rules.clone())?,
        Source::Families { text, name } => {
            let c = crate::from_toml(text, name)?;
            if c.game != *rules {
                return Err(Error::Unsupported(format!(
                    "{name} is about {}, not {}",
                    c.game.id(),
                    rules.id()
                )));
            }
            c
        }
        _ => unreachable!("handled by the caller"),
    };
    c.bits = req.bits;
    if let Some(id) = id.filter(|_| c.play != req.play) {
        // A result is about one convention; a families file takes the request's.
        return Err(other_play(&format!("{id} is a result"), c.play));
    }
    c.play = req.play;
    if matches!(req.prover, Prover::Automata(_)) {
        c.validate_shape()?;
    } else {
        c.validate()?;
    }
    let claim = Claim::of(id, req.subset);
    let mut notes = Vec::new();
    if claim == Claim::Subset && !req.subset {
        notes.push(format!(
            "{} is a partial result (it decides only some positions): proving that its members are P-positions",
            id.unwrap_or_default()
        ));
    }
    let report = crate::run(&c, claim, &req.prover)?;
    let mut files = Vec::new();
    if let Some(dir) = &req.emit {
        let kept = match &req.source {
            Source::Families { text, .. } => crate::certificate::Characterization::File(text),
            _ => crate::certificate::Characterization::Registry,
        };
        files = crate::certificate::of_box(&c, claim, Some(&report), kept)?.write(dir)?;
    }
    let saveable = match &req.source {
        Source::Families { text, .. } if req.save => {
            Some(saveable(req, CharacterizationFormat::Families, text))
        }
        _ => None,
    };
    let claimed = match claim {
        Claim::PSet => ClaimedAs::PSet,
        Claim::Subset => ClaimedAs::Subset,
    };
    let mut r = ProofResult::of(Decided::Conditions(report), claimed, "stack");
    r.notes = notes;
    r.files = files;
    r.emitted = req.emit.clone();
    r.saveable = saveable;
    Ok(r)
}

fn saveable(req: &ProveRequest, format: CharacterizationFormat, text: &str) -> Saveable {
    Saveable {
        game: req.game.id(),
        play: req.play,
        format,
        text: text.to_string(),
        method: req.prover.method(),
    }
}

/// A box game's set given as an automaton (SCN: one per circle length), proved by automata.
fn automaton_file(
    req: &ProveRequest,
    game: &Ruleset,
    text: &str,
    shown: &str,
) -> Result<ProofResult> {
    refuse_any(
        &[
            (req.subset, Arg::Subset),
            (req.bits.is_some(), Arg::Bits),
            (req.emit.is_some(), Arg::Emit),
            (cross_check(req), Arg::CrossCheck),
        ],
        "not apply to an automaton (it is proved the P-set by automata for every stack size)",
    )?;
    let timeout = match req.prover {
        Prover::Automata(t) => t,
        Prover::Smt(_) => req.timeout,
    };
    let bad = |e: Error| Error::Unsupported(format!("{shown}: {e}"));
    let mut rule = None;
    let mut report = if game.kind == RulesetKind::Scn {
        let (empty, sets) = crate::walnut::scn_from_walnut(text, game.n).map_err(bad)?;
        crate::prove_scn_members(game, &sets, empty, req.play, timeout).map_err(bad)?
    } else {
        let members = crate::walnut::from_walnut(text, game.n).map_err(bad)?;
        rule = crate::automata::readable(&members).map(|r| r.text(members.tracks));
        crate::prove_members(game, &members, req.play, timeout)?
    };
    report.source = format!("automaton {shown}");
    let mut r = ProofResult::of(Decided::Conditions(report), ClaimedAs::PSet, "stack");
    r.rule = rule;
    if req.save {
        r.saveable = Some(Saveable {
            method: "automata",
            ..saveable(req, CharacterizationFormat::Automaton, text)
        });
    }
    Ok(r)
}

/// One of Ferguson's chip games: a registry result, or a chip families file.
pub(super) fn chips(req: &ProveRequest, game: &ChipGame) -> Result<ProofResult> {
    refuse_any(
        &[(req.save, Arg::Save), (req.subset, Arg::Subset)],
        "not apply to the chip games (a result is proved as what it claims, and the store keeps the P-sets of games of stacks)",
    )?;
    match &req.source {
        Source::Families { text, name } => chip_families(req, game, text, name),
        Source::Registry(id) if matches!(req.prover, Prover::Automata(_)) => chip_automata(req, id),
        Source::Registry(id) => {
            let c = match req.bits {
                Some(w) => chips::from_registry_bits(id, &req.game_text, w)?,
                None => chips::from_registry(id, &req.game_text)?,
            };
            if c.play != req.play {
                return Err(other_play(&format!("{id} is a result"), c.play));
            }
            let mut notes = Vec::new();
            if c.kind == ChipKind::Subset {
                notes.push(format!(
                    "{id} is a partial result (it decides only some positions): proving that its members are P-positions"
                ));
            }
            let report = chips::prove_chips(&c, smt_solvers(req, "a chip game's result")?)?;
            let mut r = ProofResult::of(Decided::Conditions(report), chip_claim(&c), "box");
            r.notes = notes;
            emit_chip_queries(req, &c, None, &mut r)?;
            Ok(r)
        }
        Source::Automaton { .. } => Err(Error::refused(
            Refusal::new(format!(
                "{}: an automaton file describes a game of stacks; prove a chip game from ",
                game.id()
            ))
            .given(Arg::Theorem)
            .text(" or, for EABO, ER, SER and EJR, ")
            .given(Arg::Families),
        )),
        Source::GrundyValues { .. } => unreachable!("handled by prove"),
    }
}

fn chip_claim(c: &chips::ChipClaim) -> ClaimedAs {
    match c.kind {
        ChipKind::Winning => ClaimedAs::NPositions,
        ChipKind::Subset => ClaimedAs::Subset,
        _ => ClaimedAs::PSet,
    }
}

/// `--emit` of a chip proof by SMT: its queries, manifest, README and check.sh (`families`: the chip
/// families file's text, kept in the certificate).
fn emit_chip_queries(
    req: &ProveRequest,
    c: &chips::ChipClaim,
    families: Option<&str>,
    r: &mut ProofResult,
) -> Result<()> {
    if let Some(dir) = &req.emit {
        r.files = crate::certificate::chips::of_chips(c, r.report(), families)?.write(dir)?;
        r.emitted = Some(dir.clone());
    }
    Ok(())
}

/// A chip families file: T, the totals of the P-positions of a redistribution game, by SMT.
fn chip_families(
    req: &ProveRequest,
    game: &ChipGame,
    text: &str,
    name: &str,
) -> Result<ProofResult> {
    if !matches!(game.moves, Moves::Redistribute(_)) {
        return Err(Error::refused(
            Refusal::new(format!(
                "{}: a chip families file (a set of P-totals) describes the redistribution games EABO, ER, SER and EJR only; prove {} with ",
                game.id(),
                game.id()
            ))
            .given(Arg::Theorem),
        ));
    }
    refuse_any(
        &[
            (matches!(req.prover, Prover::Automata(_)), Arg::Automata),
            (req.bits.is_some(), Arg::Bits),
        ],
        "not apply to a chip families file (its P-set is proved by SMT for every box size)",
    )?;
    let file = totals::read_file(text, name, game)?;
    if file.play != req.play {
        return Err(other_play(&format!("{name} is"), file.play));
    }
    let c = totals::claim(
        &req.game_text,
        req.play,
        &file.totals,
        format!("chip families file {name}"),
    )?;
    let report = chips::prove_chips(&c, smt_solvers(req, "a chip families file")?)?;
    let mut r = ProofResult::of(Decided::Conditions(report), ClaimedAs::PSet, "box");
    emit_chip_queries(req, &c, Some(text), &mut r)?;
    Ok(r)
}

/// A chip result that reads binary digits (or ET's partial results), by automata for every box size.
fn chip_automata(req: &ProveRequest, id: &str) -> Result<ProofResult> {
    let Prover::Automata(timeout) = req.prover else {
        unreachable!("the caller checked the method");
    };
    let c = chips::from_registry_automata(id, &req.game_text)?;
    if c.play != req.play {
        return Err(other_play(&format!("{id} is a result"), c.play));
    }
    let proof = chips::prove_chips_automata(&c, None, timeout)?;
    let states: Vec<(String, usize)> = proof
        .states
        .iter()
        .map(|(what, n)| (what.to_string(), *n))
        .collect();
    let mut r = ProofResult::of(
        Decided::Conditions(proof.report.clone()),
        chip_claim(&c),
        "box",
    );
    r.states = states;
    if let Some(dir) = &req.emit {
        r.files = crate::certificate::chips::of_chip_automata(id, &c, &proof).write(dir)?;
        r.emitted = Some(dir.clone());
    }
    Ok(r)
}

/// Bouton's theorem (normal or misère) for every number of heaps: the induction over the heaps,
/// its lemmas decided by automata.
pub(super) fn every_number_of_heaps(req: &ProveRequest) -> Result<ProofResult> {
    let Source::Registry(id) = &req.source else {
        return Err(Error::refused(
            Refusal::new("nim takes any number of heaps: give ").given(Arg::Heaps),
        ));
    };
    let (lemmas, play) = crate::heaps::lemmas(id)?;
    if play != req.play {
        return Err(other_play(&format!("{id} is a result"), play));
    }
    refuse_any(
        &[
            (req.subset, Arg::Subset),
            (req.save, Arg::Save),
            (req.emit.is_some(), Arg::Emit),
            (req.bits.is_some(), Arg::Bits),
            (cross_check(req), Arg::CrossCheck),
        ],
        &format!(
            "not apply to the proof of {id} for every number of heaps; give a number of heaps"
        ),
    )?;
    let Prover::Automata(timeout) = req.prover else {
        return Err(Error::refused(
            Refusal::new(format!(
                "{id} for every number of heaps is proved by automata (xor): add "
            ))
            .given(Arg::Automata)
            .text(", or give ")
            .given(Arg::Heaps),
        ));
    };
    let h = crate::heaps::prove_lemmas(id, play, &lemmas, timeout)?;
    Ok(ProofResult::of(Decided::Heaps(h), ClaimedAs::PSet, "stack"))
}

/// The sets G_0, …, G_v of the positions of each Grundy value of ET(3) or ENTROPY(3), learned from an
/// exact table of the box of `bits` binary digits and proved for every box size by the value
/// equation ([`crate::automata::ValueSets`]).
pub(super) fn grundy_values(req: &ProveRequest, v: u16, bits: u32) -> Result<ProofResult> {
    use crate::automata::{
        learn_value_set, refute, Budget, GrundyTable, LearnedValueSet, Stop, Transfer, ValueSets,
        MAX_GRUNDY_BITS,
    };
    let name: String = req
        .game_text
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let moves = match name.to_ascii_uppercase().as_str() {
        "ET(3)" => Transfer::Et,
        "ENTROPY(3)" => Transfer::Entropy,
        _ => {
            return Err(Error::refused(
                Refusal::new("").name(Arg::GrundyValue).text(format!(
                    " covers ET(3) and ENTROPY(3), not {}",
                    req.game_text
                )),
            ))
        }
    };
    let Prover::Automata(timeout) = req.prover else {
        return Err(Error::refused(
            Refusal::new("")
                .name(Arg::GrundyValue)
                .text(" is proved by automata: add ")
                .given(Arg::Automata),
        ));
    };
    refuse_any(
        &[
            (req.play == Play::Misere, Arg::Misere),
            (req.save, Arg::Save),
            (req.subset, Arg::Subset),
        ],
        "not apply to the Grundy value sets (normal play)",
    )?;
    if !(3..=MAX_GRUNDY_BITS).contains(&bits) {
        return Err(Error::refused(
            Refusal::new("")
                .name(Arg::GrundyBits)
                .text(format!(" takes 3 to {MAX_GRUNDY_BITS}, not {bits}")),
        ));
    }
    let stop = |e: Stop| match e {
        Stop::Unsupported(why) => Error::Unsupported(why),
        Stop::Limit(why) => Error::TooLarge(why),
    };
    let t0 = Instant::now();
    let budget = Budget::new(t0 + timeout, 4_000_000);
    let table = GrundyTable::new(moves, bits).map_err(stop)?;
    let mut sets = ValueSets::new(moves, &budget).map_err(stop)?;
    let mut lines = Vec::new();
    let mut verdict = Status::Proved;
    let mut states = Vec::new();
    for u in 0..=v {
        let dfa = match learn_value_set(&table, u, 2, 20_000).map_err(stop)? {
            LearnedValueSet::Stable { dfa, .. } => dfa,
            LearnedValueSet::Refuted { at, .. } => {
                lines.push(format!(
                    "G_{u}: two boxes agree, the table of 2^{bits} per box differs at {at:?}: unknown"
                ));
                verdict = Status::Unknown;
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
                lines.push(format!(
                    "G_{u}: no automaton settles on boxes up to 2^{} (states: {}): unknown",
                    bits - 1,
                    s.join(", ")
                ));
                verdict = Status::Unknown;
                break;
            }
        };
        match sets.prove_next(&dfa, &budget) {
            Ok(None) => {
                let exact = table.value_table(u, bits).map_err(stop)?;
                if let Some(at) = crate::learn::disagreement(&dfa, &exact) {
                    return Err(Error::Unsupported(format!(
                        "internal error: G_{u} proved but differs from the exact table at {at:?}"
                    )));
                }
                lines.push(format!("G_{u}: proved for every box size (automaton of {} states; equal to the exact table of 2^{bits} per box)", dfa.states()));
                states.push((format!("G_{u}"), dfa.states()));
            }
            Ok(Some(w)) => {
                let at = match refute(&table, &dfa, u, &w) {
                    Some((x, g, member)) => format!(
                        "{x:?} (the learned set {} it; its value is {g})",
                        if member { "holds" } else { "misses" }
                    ),
                    None => format!("{w:?} (outside the table)"),
                };
                lines.push(format!(
                    "G_{u}: the learned automaton is not G_{u}: refuted at {at}"
                ));
                verdict = Status::Refuted;
                break;
            }
            Err(Stop::Limit(why)) => {
                lines.push(format!("G_{u}: unknown ({why})"));
                verdict = Status::Unknown;
                break;
            }
            Err(e) => return Err(stop(e)),
        }
    }
    let mut files = Vec::new();
    if let Some(dir) = &req.emit {
        files =
            crate::certificate::values::of_value_sets(&crate::certificate::values::ValueSetsRun {
                game: &req.game_text,
                moves,
                value: v,
                bits,
                verdict: verdict.name(),
                lines: &lines,
                proved: &sets.proved,
            })
            .write(dir)?;
    }
    let report = ValueSetsReport {
        game: req.game_text.clone(),
        up_to: v,
        table_bits: bits,
        verdict,
        proved: sets.next_value(),
        lines,
        seconds: t0.elapsed().as_secs_f64(),
    };
    let mut r = ProofResult::of(Decided::ValueSets(report), ClaimedAs::ValueSets, "box");
    r.states = states;
    if !files.is_empty() {
        r.files = files;
        r.emitted = req.emit.clone();
    }
    Ok(r)
}
