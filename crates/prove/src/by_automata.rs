//! Proving a set of CN, SCN or a complex by finite automata ([`crate::automata`]), for every entry
//! size, `xor` included: a families file ([`prove_automata`], [`prove_subset_automata`]), a set given
//! as an automaton ([`prove_members`]) or as one automaton per circle length
//! ([`prove_scn_members`]). Every counterexample word is re-checked by exact search and every
//! "proved" passes the guard ([`crate::check`]), as the SMT proofs' are.

use crate::automata::{self, Budget, Dfa, Stop};
use crate::check::{guard, refute};
use crate::claimed::{report, Claimed, OnRuleset, Says};
use crate::conjecture::{Conjecture, Ruleset, RulesetKind};
use crate::encode::Condition;
use crate::report::{proved, unknown, ConditionReport, Report};
use nimlab_core::{Error, Play, Result};
use std::time::{Duration, Instant};

/// Most states of any automaton of [`prove_automata`].
pub const AUTOMATA_MAX_STATES: usize = 4_000_000;

/// The budget of a run of `timeout` from `start`, with the caller's cancel scope.
fn budget(start: Instant, timeout: Duration) -> Budget {
    Budget {
        deadline: start + timeout,
        max_states: AUTOMATA_MAX_STATES,
        cancel: None,
        interrupt: nimlab_core::interrupt::current(),
    }
}

/// Decides the three conditions for `c` with finite automata ([`crate::automata`]), for every entry
/// size, `xor` included; CN, Nim, complexes and SCN. Counterexamples are re-checked as the solver's are.
/// A time limit or state cap reached makes the conditions not yet decided `unknown`.
pub fn prove_automata(c: &Conjecture, timeout: Duration) -> Result<Report> {
    c.validate_shape()?;
    automata_report(&OnRuleset::of(c), timeout, |budget| {
        automata::conditions(c, budget)
    })
}

/// As [`crate::prove_subset`], with finite automata (every entry size, `xor` included): CN, Nim, the
/// complexes and SCN (one set automaton per circle length).
pub fn prove_subset_automata(c: &Conjecture, timeout: Duration) -> Result<Report> {
    c.validate_shape()?;
    let start = Instant::now();
    let set = OnRuleset::of(c);
    let (found, took) = match automata::closure(c, &budget(start, timeout)) {
        Err(Stop::Unsupported(why)) => return Err(Error::Unsupported(why)),
        Err(Stop::Limit(why)) => (Err(why), start.elapsed().as_secs_f64()),
        Ok((r, took)) => (
            r.map_err(|e| match e {
                Stop::Limit(why) | Stop::Unsupported(why) => why,
            }),
            took,
        ),
    };
    let mut conditions = vec![match found {
        Err(why) => unknown(Condition::Closure, took, why),
        Ok(None) => proved(Condition::Closure, took),
        Ok(Some((x, y))) => {
            let xy: Vec<u128> = x.iter().chain(&y).copied().collect();
            refute(&set, Says::Subset, Condition::Closure, x.len(), &xy, took)?
        }
    }];
    if c.play == Play::Misere {
        conditions.push(terminal(&set, c.game.n, c.game.kind)?);
    }
    let r = report(
        &set,
        Says::Subset,
        "automata",
        None,
        conditions,
        start.elapsed().as_secs_f64(),
    );
    guard(&set, Says::Subset, r)
}

/// Decides the three conditions of the partition theorem for the set of positions of `game` that the
/// automaton `members` accepts (one track per stack, track `i` = stack `i`, most significant digit
/// first), for every entry size, with finite automata: CN, Nim and complexes (SCN:
/// [`prove_scn_members`]). The automaton must give
/// the same answer with or without leading zero letters (refused otherwise). Counterexamples are
/// re-checked by exact search, membership being the automaton's [`Dfa::accepts`]; a time limit or
/// state cap reached makes the conditions not yet decided `unknown`; once (I) is refuted, (II) is not
/// searched (reported `unknown`, saying so). The report's `source` is `automaton`; set it to name the
/// file.
pub fn prove_members(
    game: &Ruleset,
    members: &Dfa,
    play: Play,
    timeout: Duration,
) -> Result<Report> {
    if members.tracks != game.n {
        return Err(Error::Unsupported(format!(
            "the automaton reads {} inputs; a position of {} has {} stacks",
            members.tracks,
            game.id(),
            game.n
        )));
    }
    if let Some(w) = members.leading_zeros_matter() {
        return Err(Error::Unsupported(format!(
            "the automaton's answer changes with leading zero letters (e.g. on {}): msd_2 automata must give the same answer with or without them",
            nimlab_core::position::format_tuple(
                &w.iter().map(|&x| x as u64).collect::<Vec<_>>()
            )
        )));
    }
    // Stack `i` is track `i`, read in binary, most significant digit first.
    let set = OnRuleset {
        rules: game,
        play,
        source: "automaton".into(),
        member: Box::new(|p: &[u64]| {
            let v: Vec<u128> = p.iter().map(|&x| x as u128).collect();
            members.accepts(&v)
        }),
    };
    automata_report(&set, timeout, |budget| {
        automata::conditions_for(game, members.clone(), true, budget)
    })
}

/// Decides the three conditions of the partition theorem for a set of SCN(n,k) positions given as
/// one automaton per circle length, for every pile size, with finite automata: `per_length[L - 1]`
/// reads circles of L piles (track `i` = pile `i`, most significant digit first, the same answer
/// with or without leading zero letters), `empty` says whether the empty circle is in the set. What
/// an automaton accepts with a zero pile is not a circle and is left out. Refused in one line when
/// the automata are not a set of circles (not invariant under rotation and reflection), or their
/// number or inputs do not fit the game. Conditions (I) and (II) over every circle length as for a
/// families file ([`prove_automata`]); (III) by the empty circle; counterexamples re-checked by
/// exact search against the automata's own membership; once (I) is refuted, (II) is not searched.
pub fn prove_scn_members(
    game: &Ruleset,
    per_length: &[Dfa],
    empty: bool,
    play: Play,
    timeout: Duration,
) -> Result<Report> {
    let start = Instant::now();
    let budget = Budget::new(start + timeout, AUTOMATA_MAX_STATES);
    let sets = match automata::scn_given_sets(game, per_length, empty, &budget) {
        Ok(s) => s,
        Err(Stop::Unsupported(why)) => return Err(Error::Unsupported(why)),
        Err(Stop::Limit(why)) => {
            // The checks themselves ran out of time or states: nothing is decided.
            let seconds = start.elapsed().as_secs_f64();
            // Interrupted through the caller's cancel scope: no report.
            nimlab_core::interrupt::check()?;
            let set = OnRuleset {
                rules: game,
                play,
                source: "automaton".into(),
                member: Box::new(|_: &[u64]| false),
            };
            return Ok(report(
                &set,
                Says::PSet,
                "automata",
                None,
                [Condition::I, Condition::II, Condition::III]
                    .map(|cond| unknown(cond, seconds, why.clone()))
                    .to_vec(),
                seconds,
            ));
        }
    };
    // `sets[L]` reads circles of L piles (already intersected with "every pile positive"); the
    // empty circle is in the set when `sets[0]` accepts.
    let set = OnRuleset {
        rules: game,
        play,
        source: "automaton".into(),
        member: Box::new(|p: &[u64]| {
            sets.get(p.len()).is_some_and(|s| {
                let v: Vec<u128> = p.iter().map(|&x| x as u128).collect();
                s.accepts(&v)
            })
        }),
    };
    let left = timeout.saturating_sub(start.elapsed());
    automata_report(&set, left, |budget| {
        automata::scn_conditions_for_sets(game, per_length, empty, true, budget)
    })
}

/// Runs the automata prover's searches (`build`) and decides (III) by exact membership; every
/// counterexample is re-checked against `set`, every "proved" passes the guard.
fn automata_report(
    set: &OnRuleset,
    timeout: Duration,
    build: impl FnOnce(&Budget) -> std::result::Result<automata::Conditions, Stop>,
) -> Result<Report> {
    let start = Instant::now();
    let budget = budget(start, timeout);
    let unknown = |cond: Condition, why: String| unknown(cond, start.elapsed().as_secs_f64(), why);
    let mut conditions = Vec::new();
    match build(&budget) {
        Err(Stop::Unsupported(why)) => return Err(Error::Unsupported(why)),
        Err(Stop::Limit(why)) => {
            conditions.push(unknown(Condition::I, why.clone()));
            conditions.push(unknown(Condition::II, why));
        }
        Ok(a) => {
            let (one, one_took) = a.joined;
            conditions.push(match one {
                Err(Stop::Limit(why)) | Err(Stop::Unsupported(why)) => unknown(Condition::I, why),
                Ok(None) => proved(Condition::I, one_took),
                Ok(Some((x, y))) => {
                    let xy: Vec<u128> = x.iter().chain(&y).copied().collect();
                    refute(set, Says::PSet, Condition::I, x.len(), &xy, one_took)?
                }
            });
            let (two, two_took) = a.stranded;
            conditions.push(match two {
                Err(Stop::Limit(why)) | Err(Stop::Unsupported(why)) => unknown(Condition::II, why),
                Ok(None) => proved(Condition::II, two_took),
                Ok(Some(x)) => refute(set, Says::PSet, Condition::II, x.len(), &x, two_took)?,
            });
        }
    }
    conditions.push(terminal(set, set.rules.n, set.rules.kind)?);
    let r = report(
        set,
        Says::PSet,
        "automata",
        None,
        conditions,
        start.elapsed().as_secs_f64(),
    );
    guard(set, Says::PSet, r)
}

/// Condition (III) by exact membership of the terminal position (CN and complexes: all `n` zero;
/// SCN: the empty circle): in the set in normal play, outside it in misère play.
fn terminal(c: &dyn Claimed, n: usize, kind: RulesetKind) -> Result<ConditionReport> {
    let t0 = Instant::now();
    let m = match kind {
        RulesetKind::Cn | RulesetKind::Complex => n,
        RulesetKind::Scn => 0,
    };
    if c.contains(&vec![0u64; m]) == (c.play() == Play::Normal) {
        Ok(proved(Condition::III, t0.elapsed().as_secs_f64()))
    } else {
        refute(
            c,
            Says::PSet,
            Condition::III,
            m,
            &vec![0u128; m],
            t0.elapsed().as_secs_f64(),
        )
    }
}
