//! `verify` for every front end: a claimed P-set (a proven result by id, a conjecture script, or a
//! families file)
//! checked over a bounded set of positions with the partition theorem's conditions (I)-(III).
//!
//! Where the tables engine covers the box, the claimed set is first compared with the engine's exact
//! P-set: in a box closed under moves the P-set is the only set satisfying (I)-(III), so equality
//! settles it at once, and a partial result's verdicts are compared with it. Otherwise, or when the
//! sets differ, the conditions are checked one by one for witnesses
//! ([`nimlab_research::verify::verify`]).

use nimlab_core::{interrupt, Error, Game, Play, Pos, Result};
use nimlab_games::chip;
use nimlab_research::conjecture::ScriptPredicate;
use nimlab_research::domain::{positions, Bound};
use nimlab_research::verify::{
    verify as check_conditions, Condition, Counterexample, Membership, VerifyReport,
};
use nimlab_tables::{plan, pset};
use std::collections::HashSet;
use std::path::Path;

/// What is checked.
#[derive(Debug, Clone, Copy)]
pub enum Claim<'a> {
    /// A proven result of the registry, by id.
    Theorem(&'a str),
    /// A Rhai file defining `fn is_p(p)`.
    Conjecture(&'a str),
    /// A families file (TOML, the format of `nimlab prove --families`), with `nimlab_prove`'s exact
    /// membership.
    Families(&'a str),
}

/// The outcome of a check.
#[derive(Debug, Clone)]
pub struct Checked {
    /// `theorem ID`, `conjecture PATH` or `families PATH`.
    pub source: String,
    pub report: VerifyReport,
    /// True when the claimed set equalled the engine's P-set of the box (which settles (I)-(III)).
    pub settled_by_engine: bool,
}

/// The canonical P-positions of the box by the tables engine, where it covers the game and box.
/// An interruption (the caller's cancel scope) is an error, not a missing table.
/// With a store, the table is read from it when solved before, else computed and saved there (as
/// `nimlab table` does).
fn engine_p_set(
    game: &dyn Game,
    bound: Bound,
    play: Play,
    store: Option<&Path>,
) -> Result<Option<HashSet<Pos>>> {
    let Some(max) = bound.max.filter(|_| !chip::is_chip_game(game)) else {
        return Ok(None);
    };
    let Ok(domain) = game.table_domain(max, bound.heaps) else {
        return Ok(None);
    };
    if pset::rules_for(game, &domain).is_none() {
        return Ok(None);
    }
    if let Some(mut db) = store.and_then(|p| nimlab_tables::store::Store::open(p).ok()) {
        let req = plan::Request {
            bounds: plan::Bounds {
                max: bound.max,
                max_sum: None,
                heaps: bound.heaps,
            },
            play,
            kind: plan::TableKind::PSet,
            method: plan::TableMethod::Engine,
            backend: plan::Backend::Cpu,
            remoteness: false,
            limit: nimlab_core::Budget::default().limit,
            resume: plan::ResumeMode::Off,
        };
        if let Ok(pl) = plan::plan(game, &req) {
            let answer = plan::run(game, &pl, Some(&mut db), Default::default())?;
            return Ok(Some(answer.solved.positions().into_iter().collect()));
        }
    }
    let mut set = HashSet::new();
    let r = pset::tabulate(game, &domain, play, Default::default(), &mut |p| {
        set.insert(p.to_vec());
    });
    interrupt::check()?;
    Ok(r.ok().map(|_| set))
}

fn checked(
    game: &dyn Game,
    (bound, store): (Bound, Option<&Path>),
    play: Play,
    ps: &[Pos],
    keep: usize,
    member: &mut Membership,
) -> Result<(VerifyReport, bool)> {
    // Every membership test first looks at the caller's cancel scope (Ctrl-C from a front end).
    let mut member = |p: &[u64]| {
        interrupt::hold_here("verify");
        interrupt::check()?;
        member(p)
    };
    let member: &mut Membership = &mut member;
    if let Some(pset) = engine_p_set(game, bound, play, store)? {
        let mut report = VerifyReport {
            positions: ps.len() as u64,
            ..Default::default()
        };
        let mut differs = false;
        let mut claims = Vec::new();
        for p in ps {
            let truth = pset.contains(&game.canonical(p));
            match member(p)? {
                Some(m) => {
                    report.members += m as u64;
                    if m != truth {
                        differs = true;
                    }
                    claims.push((p, m, truth));
                }
                None => report.undecided += 1,
            }
        }
        if report.undecided > 0 {
            report.by_search = true;
            for (p, claim, truth) in claims {
                if claim != truth {
                    *report.violations.entry(Condition::Search).or_insert(0) += 1;
                    if report.examples.len() < keep {
                        report.examples.push(Counterexample {
                            condition: Condition::Search,
                            position: p.clone(),
                            move_to: None,
                            claimed_p: Some(claim),
                        });
                    }
                }
            }
            return Ok((report, false));
        }
        if !differs {
            return Ok((report, true));
        }
    }
    Ok((check_conditions(game, ps, member, play, keep)?, false))
}

/// Checks `claim` for `game` over the bounded set `bound` in `play`, keeping up to `keep`
/// counterexamples of each kind (no store).
pub fn verify(
    game: &dyn Game,
    claim: Claim,
    bound: Bound,
    play: Play,
    keep: usize,
) -> Result<Checked> {
    verify_with_store(game, claim, bound, play, keep, None)
}

/// [`verify`], reading the engine's P-set of the box from the store at `store` when it holds it, and
/// saving it there when computed (a store that cannot be opened is left out).
pub fn verify_with_store(
    game: &dyn Game,
    claim: Claim,
    bound: Bound,
    play: Play,
    keep: usize,
    store: Option<&Path>,
) -> Result<Checked> {
    let ps = positions(game, bound)?;
    let bound = (bound, store);
    match claim {
        Claim::Theorem(id) => {
            let t = nimlab_theory::by_id(id).ok_or_else(|| {
                Error::BadGame(format!("no result with id '{id}' (see `nimlab theory`)"))
            })?;
            if !t.covers(game) {
                return Err(Error::BadGame(format!(
                    "{id} does not cover {} (it is about {})",
                    game.id(),
                    t.games()
                )));
            }
            if t.play() != play {
                let fix = if play == Play::Misere {
                    "drop "
                } else {
                    "add "
                };
                return Err(Error::refused(
                    nimlab_core::Refusal::new(format!(
                        "{id} is a result about {} play; {fix}",
                        t.play()
                    ))
                    .given(nimlab_core::Arg::Misere),
                ));
            }
            let (report, settled) = checked(game, bound, play, &ps, keep, &mut |p| {
                Ok(t.decide(game, p).map(|v| v.is_p))
            })?;
            Ok(Checked {
                source: format!("theorem {id}"),
                report,
                settled_by_engine: settled,
            })
        }
        Claim::Conjecture(path) => {
            let pred = ScriptPredicate::load(path)?;
            let (report, settled) = checked(game, bound, play, &ps, keep, &mut |p| {
                pred.is_p(p).map(Some)
            })?;
            Ok(Checked {
                source: format!("conjecture {path}"),
                report,
                settled_by_engine: settled,
            })
        }
        Claim::Families(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| Error::BadGame(format!("cannot read {path}: {e}")))?;
            let c = nimlab_prove::from_toml_any(&text, path)?;
            if nimlab_prove::Ruleset::of(game).as_ref() != Some(&c.game) {
                return Err(Error::BadGame(format!(
                    "{path} is a families file for {}, not {}",
                    c.game.id(),
                    game.id()
                )));
            }
            let (report, settled) = checked(game, bound, play, &ps, keep, &mut |p| {
                Ok(Some(c.contains(p)))
            })?;
            Ok(Checked {
                source: format!("families {path}"),
                report,
                settled_by_engine: settled,
            })
        }
    }
}

/// The check as the JSON object every front end prints.
pub fn to_json(game: &dyn Game, c: &Checked, bound: Bound, play: Play) -> serde_json::Value {
    use serde_json::json;
    let report = &c.report;
    let mut violations = serde_json::Map::new();
    for cond in [
        Condition::I,
        Condition::II,
        Condition::III,
        Condition::Search,
    ] {
        if cond != Condition::Search || report.by_search {
            violations.insert(
                cond.name().into(),
                json!(report.violations.get(&cond).copied().unwrap_or(0)),
            );
        }
    }
    json!({
        "game": game.id(),
        "bound": bound.describe(),
        "play": play.name(),
        "source": c.source,
        "holds": report.holds(),
        "positions": report.positions,
        "members": report.members,
        "undecided": report.undecided,
        "method": if report.by_search { "verdicts compared with exhaustive search (partial result)" } else { "conditions (I)-(III)" },
        "violations": violations,
        "counterexamples": report.examples.iter().map(|x| json!({
            "condition": x.condition.name(),
            "position": x.position,
            "move_to": x.move_to,
            "claimed_p": x.claimed_p,
        })).collect::<Vec<_>>(),
    })
}
