//! The chip results that read binary digits, proved for every box size by finite automata
//! ([`crate::automata::chip_conditions`]): ET(3)'s equal 2-adic valuations (ferguson-et-k3), ET(4)'s
//! halving algorithm (ferguson-et-k4) and ENTROPY(3)'s 4^n m, normal and misère
//! (ferguson-entropy-k3, ferguson-entropy-k3-misere). Their sets are built from the statements
//! ([`crate::automata::chip_theorem_set`]); a counterexample word is decoded into a position and
//! re-checked by exact search as the SMT prover's models are, and a "proved" passes the same exact
//! check on a box.

use super::{conditions_of, ChipClaim, ChipGame, ChipKind, ChipSet};
use super::{Moves, Play};
use crate::automata::{
    all_odd, chip_closure, chip_conditions, chip_terminal, chip_theorem_set, chip_winning,
    chip_witness as witness, one_or_two_even, Budget, Dfa, Move, Stop, Transfer,
};
use crate::by_automata::AUTOMATA_MAX_STATES;
use crate::check::{guard, refute};
use crate::claimed::report;
use crate::report::{proved, unknown, Report};
use nimlab_core::partition::Condition;
use nimlab_core::{Arg, Error, Refusal, Result};
use std::time::{Duration, Instant};

/// The registry results `prove --automata` proves for every box size, with their game (the test
/// `binary_results_are_proved_by_automata` in tests/chips.rs proves each; docs/findings.md gives the
/// times).
pub const CHIP_PROVED_BY_AUTOMATA: &[(&str, &str)] = &[
    ("ferguson-et-k3", "ET(3)"),
    ("ferguson-et-k4", "ET(4)"),
    ("ferguson-entropy-k3", "ENTROPY(3)"),
    ("ferguson-entropy-k3-misere", "ENTROPY(3)"),
];

/// A proof by automata: the report, and the numbers of states of its automata (the set, the largest
/// option relation of one pair of boxes, "has an option in the set").
pub struct ChipAutomataProof {
    pub report: Report,
    pub states: Vec<(&'static str, usize)>,
    /// The set automaton the conditions were decided on (`None` when it was not built in time).
    pub set: Option<Dfa>,
}

/// The registry result `id` on `game_text` as a claim for the automata prover (membership for the
/// re-checks: the registry's own `decide`); refused in one line unless it is one of
/// [`CHIP_PROVED_BY_AUTOMATA`] on its game, or ET's partial results ferguson-et-odd and
/// ferguson-et-two-even (on ET(k), k from 2 to 8).
pub fn from_registry_automata(id: &str, game_text: &str) -> Result<ChipClaim> {
    let (game, t) = super::registry::game_and_result(id, game_text)?;
    let id: &'static str = t.id();
    if ["ferguson-et-odd", "ferguson-et-two-even"].contains(&id) {
        // The SMT claim, with the same exact memberships (and the all-odd target).
        return super::from_registry(id, game_text);
    }
    if !CHIP_PROVED_BY_AUTOMATA.iter().any(|(i, _)| *i == id) {
        return Err(Error::refused(Refusal::new("").given(Arg::Automata).text(format!(
            " proves the chip results that read binary digits (ferguson-et-k3, ferguson-et-k4, ferguson-entropy-k3, ferguson-entropy-k3-misere) and ET's ferguson-et-odd and ferguson-et-two-even; prove {id} without it"
        ))));
    }
    super::registry::registry_p_set(id, game, t.play(), None)
}

/// A claim that the set `set` (one track per box, most significant digit first; symmetric) is the
/// P-set of `game_text` in `play`, membership for the re-checks being the automaton's own; `source`
/// names it in the report. For sets not in the registry (the tests' wrong variants).
pub fn automaton_claim(game_text: &str, set: &Dfa, play: Play, source: &str) -> Result<ChipClaim> {
    let game = ChipGame::parse(game_text)?.ok_or_else(|| {
        Error::Unsupported(format!("{game_text} is not one of Ferguson's chip games"))
    })?;
    let d = set.clone();
    Ok(ChipClaim {
        game,
        play,
        kind: ChipKind::PSet,
        source: source.to_string(),
        set: ChipSet {
            member: None,
            exact: Box::new(move |p: &[u64]| {
                d.accepts(&p.iter().map(|&v| v as u128).collect::<Vec<_>>())
            }),
            period: 1,
            residues: false,
        },
        target: None,
        bits: None,
        totals: None,
    })
}

/// True when the automaton gives the same answer after any two boxes are swapped.
fn symmetric(set: &Dfa) -> bool {
    let k = set.tracks;
    let own = set.minimize();
    (1..k).all(|i| {
        let mut map: Vec<usize> = (0..k).collect();
        map.swap(0, i);
        set.embed(&map, k).minimize() == own
    })
}

/// The set of the claim `c` built from its statement: a P-set of [`CHIP_PROVED_BY_AUTOMATA`], or
/// ET's partial results (ferguson-et-odd: every box odd; ferguson-et-two-even: one or two even boxes).
fn statement_set(c: &ChipClaim, budget: &Budget) -> std::result::Result<Dfa, Stop> {
    let k = c.game.k;
    match c.source.as_str() {
        "ferguson-et-odd" => all_odd(k, budget),
        "ferguson-et-two-even" => one_or_two_even(k, budget),
        id => chip_theorem_set(id, k, budget).map(|(_, d)| d),
    }
}

/// Proves the claim `c` about ET(k) or ENTROPY(k) by automata within `timeout`: the set is `set`,
/// or else built from the statement of the registry result `c.source`. A P-set: conditions (I),
/// (II), (III); a set inside the P-set (ferguson-et-odd): (C) (misère play: and (III)); a set of
/// N-positions (ferguson-et-two-even): every member has an option in the all-odd set. For every box
/// size; each counterexample re-checked by exact search; a "proved" checked by exact search on a box.
/// A time limit or state cap reached leaves a condition `unknown`.
pub fn prove_chips_automata(
    c: &ChipClaim,
    set: Option<&Dfa>,
    timeout: Duration,
) -> Result<ChipAutomataProof> {
    let start = Instant::now();
    let moves = match c.game.moves {
        Moves::Et => Transfer::Et,
        Moves::Entropy => Transfer::Entropy,
        Moves::Redistribute(_) => {
            return Err(Error::Unsupported(format!(
                "{}: the automata prove Empty & Transfer and Entropy Reduction (the redistribution games are proved by SMT)",
                c.game.id()
            )))
        }
    };
    let k = c.game.k;
    let budget = Budget::new(start + timeout, AUTOMATA_MAX_STATES);
    let wanted = conditions_of(c);
    let unknown = |cond: Condition, why: String| unknown(cond, start.elapsed().as_secs_f64(), why);
    let built = match set {
        Some(d) => Ok(d.clone()),
        None => match statement_set(c, &budget) {
            Ok(d) => Ok(d),
            Err(Stop::Unsupported(why)) => return Err(Error::Unsupported(why)),
            Err(Stop::Limit(why)) => Err(why),
        },
    };
    let mut conditions = Vec::new();
    let mut states = Vec::new();
    let d = match built {
        Err(why) => {
            conditions.extend(wanted.iter().map(|&cond| unknown(cond, why.clone())));
            None
        }
        Ok(d) => Some(d),
    };
    if let Some(d) = &d {
        let d = d.clone();
        if d.tracks != k {
            return Err(Error::Unsupported(format!(
                "the automaton reads {} inputs; a position of {} has {k} boxes",
                d.tracks,
                c.game.id()
            )));
        }
        if !symmetric(&d) {
            return Err(Error::Unsupported(
                "the set changes when two boxes are swapped: a set of positions of a chip game is a set of multisets".into(),
            ));
        }
        // Each condition's answer: a counterexample's values (x, or x then y), with its seconds.
        type Answer = (std::result::Result<Option<Vec<u128>>, Stop>, f64);
        let mut answers: Vec<(Condition, Answer)> = Vec::new();
        let pair = |m: std::result::Result<Option<Move>, Stop>| {
            m.map(|m| m.map(|(x, y)| x.into_iter().chain(y).collect::<Vec<u128>>()))
        };
        match c.kind {
            ChipKind::PSet => match chip_conditions(moves, k, &d, c.play, &budget) {
                Err(Stop::Unsupported(why)) => return Err(Error::Unsupported(why)),
                Err(Stop::Limit(why)) => {
                    conditions.extend(wanted.iter().map(|&cond| unknown(cond, why.clone())));
                }
                Ok(a) => {
                    states = a.states;
                    answers.push((Condition::I, (pair(a.joined.0), a.joined.1)));
                    answers.push((Condition::II, a.stranded));
                    answers.push((Condition::III, a.terminal));
                }
            },
            ChipKind::Subset => {
                states.push(("set", d.states()));
                let (r, t) = chip_closure(moves, k, &d, c.play, &budget).map_err(stop)?;
                answers.push((Condition::Closure, (pair(r), t)));
                if c.play == Play::Misere {
                    // (III): no terminal member.
                    let t0 = Instant::now();
                    let r = chip_terminal(moves, k, &budget)
                        .and_then(|t| Dfa::product(&t, &d, false, &budget))
                        .and_then(|m| witness(&m));
                    answers.push((Condition::III, (r, t0.elapsed().as_secs_f64())));
                }
            }
            ChipKind::Winning => {
                states.push(("set", d.states()));
                let answer = match all_odd(k, &budget) {
                    Ok(target) => chip_winning(moves, k, &d, &target, &budget).map_err(stop)?,
                    Err(Stop::Limit(why)) => (Err(Stop::Limit(why)), 0.0),
                    Err(e) => return Err(stop(e)),
                };
                answers.push((Condition::II, answer));
            }
        }
        for (cond, (r, took)) in answers {
            conditions.push(match r {
                Err(Stop::Limit(why)) | Err(Stop::Unsupported(why)) => unknown(cond, why),
                Ok(None) => proved(cond, took),
                Ok(Some(v)) => refute(c, c.kind.into(), cond, k, &v, took)?,
            });
        }
    }
    let report = report(
        c,
        c.kind.into(),
        "automata",
        None,
        conditions,
        start.elapsed().as_secs_f64(),
    );
    Ok(ChipAutomataProof {
        report: guard(c, c.kind.into(), report)?,
        states,
        set: d,
    })
}

/// A refusal of the automata as an error (a limit reached is an answer, not an error: the callers
/// turn it into `unknown` before this).
fn stop(e: Stop) -> Error {
    match e {
        Stop::Unsupported(why) | Stop::Limit(why) => Error::Unsupported(why),
    }
}
