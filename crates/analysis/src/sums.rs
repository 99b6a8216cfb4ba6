//! Disjunctive sums of any built-in games.
//!
//! Normal play: the Grundy value of a sum is the XOR of its components' values; each component's value
//! comes from a closed form where one gives it (a theorem's Grundy value, or 0 for a position a theorem
//! proves P) and from search otherwise. A winning move is played in a component whose value can be
//! lowered to (its value XOR the total).
//!
//! Misère play: when every component is a Nim heap game (Nim, Moore's Nim_1, CN(n,1)) the sum is one Nim
//! position and Bouton's misère rule decides it; otherwise the sum itself is searched.

use crate::{Analyzer, Method, Want};
use nimlab_core::{Error, Game, Outcome, Play, Pos, Result, Solver, SumGame};
use nimlab_theory::nim::{is_nim_like, misere_nim_is_p};

/// One component's value in normal play, and how it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComponentValue {
    pub grundy: u128,
    pub method: Method,
}

/// A move of a sum: which component it is played in and the component's new position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SumMove {
    pub component: usize,
    pub to: Pos,
}

/// What nimlab answers about a sum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SumAnswer {
    pub outcome: Outcome,
    /// The Grundy value of the sum (normal play).
    pub grundy: Option<u128>,
    /// How the answer was found: [`Method::Xor`], [`Method::BoutonMisere`] or [`Method::SumSearch`].
    pub method: Method,
    /// Each component's value (normal play).
    pub components: Vec<ComponentValue>,
    /// Winning moves (when asked for).
    pub winning_moves: Vec<SumMove>,
    /// True when `winning_moves` is every winning move; false when a component's options were too
    /// many to list and its moves are a theorem's construction.
    pub winning_moves_complete: bool,
}

/// The Grundy value of one position through the analysis chain (a theorem, the store, the engine,
/// else search within the budget).
pub fn component_grundy(an: &Analyzer, game: &dyn Game, p: &[u64]) -> Result<ComponentValue> {
    let a = an.analyse(game, p, Play::Normal, Want::grundy())?;
    Ok(ComponentValue {
        grundy: a.grundy.expect("a Grundy value was asked for"),
        method: a.grundy_method.unwrap_or(a.method),
    })
}

fn nim_like(game: &dyn Game) -> bool {
    is_nim_like(game)
}

/// Solves the sum `sum` at the components' positions `parts`.
pub fn solve_sum(
    an: &Analyzer,
    sum: &SumGame,
    parts: &[Pos],
    play: Play,
    want_moves: bool,
) -> Result<SumAnswer> {
    let budget = an.limits.budget;
    let games = sum.parts();
    if games.len() != parts.len() {
        return Err(Error::BadPosition(
            "one position per component is needed".into(),
        ));
    }
    match play {
        Play::Normal => {
            let mut components = Vec::new();
            for (g, p) in games.iter().zip(parts) {
                components.push(component_grundy(an, g.as_ref(), p)?);
            }
            let x = components.iter().fold(0, |a, c| a ^ c.grundy);
            let mut winning_moves = Vec::new();
            let mut complete = true;
            if want_moves && x != 0 {
                for (i, (g, p)) in games.iter().zip(parts).enumerate() {
                    let gi = components[i].grundy;
                    let target = gi ^ x;
                    if target >= gi {
                        continue;
                    }
                    let (moves, all) = moves_to_value(an, g.as_ref(), p, target)?;
                    complete &= all;
                    winning_moves.extend(moves.into_iter().map(|to| SumMove { component: i, to }));
                }
            }
            Ok(SumAnswer {
                outcome: Outcome::from_is_p(x == 0),
                grundy: Some(x),
                method: Method::Xor,
                components,
                winning_moves,
                winning_moves_complete: complete,
            })
        }
        Play::Misere if games.iter().all(|g| nim_like(g.as_ref())) => {
            // One Nim position: all heaps of all components.
            let heaps: Vec<(usize, usize)> = parts
                .iter()
                .enumerate()
                .flat_map(|(i, p)| (0..p.len()).map(move |j| (i, j)))
                .collect();
            let flat: Pos = parts.iter().flatten().copied().collect();
            let mut winning_moves = Vec::new();
            if want_moves {
                for (h, &(i, j)) in heaps.iter().enumerate() {
                    let x = flat.iter().fold(0, |a, &b| a ^ b);
                    let mut targets = vec![flat[h] ^ x, 0, 1];
                    targets.sort_unstable();
                    targets.dedup();
                    for t in targets.into_iter().rev().filter(|&t| t < flat[h]) {
                        let mut q = flat.clone();
                        q[h] = t;
                        if misere_nim_is_p(&q) {
                            let mut to = parts[i].clone();
                            to[j] = t;
                            winning_moves.push(SumMove { component: i, to });
                        }
                    }
                }
            }
            Ok(SumAnswer {
                outcome: Outcome::from_is_p(misere_nim_is_p(&flat)),
                grundy: None,
                method: Method::BoutonMisere,
                components: Vec::new(),
                winning_moves,
                // Every heap is tried at every value that can make the position misère-P.
                winning_moves_complete: true,
            })
        }
        Play::Misere => {
            let p = SumGame::encode(parts);
            let mut solver = Solver::new(sum);
            solver.check_budget(&p, true, budget)?;
            let outcome = solver.outcome(&p, Play::Misere)?;
            let mut winning_moves = Vec::new();
            if want_moves {
                for q in solver.winning_moves(&p, Play::Misere)? {
                    let qs = sum.decode(&q).expect("options of a sum are sums");
                    let component = (0..parts.len()).find(|&i| qs[i] != parts[i]).unwrap_or(0);
                    winning_moves.push(SumMove {
                        component,
                        to: qs[component].clone(),
                    });
                }
            }
            Ok(SumAnswer {
                outcome,
                grundy: None,
                method: Method::SumSearch,
                components: Vec::new(),
                winning_moves,
                winning_moves_complete: true,
            })
        }
    }
}

/// The options of `p` whose Grundy value is `target`, through the analysis chain, and whether they
/// are all of them.
fn moves_to_value(
    an: &Analyzer,
    game: &dyn Game,
    p: &[u64],
    target: u128,
) -> Result<(Vec<Pos>, bool)> {
    // In a Nim heap game an option's value is the XOR of its heaps (Bouton): set one heap so that
    // the XOR becomes `target`.
    if nim_like(game) {
        let total = p.iter().fold(0u128, |a, &b| a ^ u128::from(b));
        let moves = (0..p.len())
            .filter(|&i| total ^ u128::from(p[i]) ^ target < u128::from(p[i]))
            .map(|i| {
                let mut q = p.to_vec();
                // Below p[i], so it fits.
                q[i] = (total ^ u128::from(p[i]) ^ target) as u64;
                q
            })
            .collect();
        return Ok((moves, true));
    }
    if target == 0 {
        let a = an.analyse(game, p, Play::Normal, Want::moves())?;
        return Ok((
            a.winning_moves.unwrap_or_default(),
            a.winning_moves_complete,
        ));
    }
    let a = an.analyse(
        game,
        p,
        Play::Normal,
        Want {
            options: true,
            ..Want::default()
        },
    )?;
    let moves = a
        .options
        .unwrap_or_default()
        .into_iter()
        .filter(|o| o.grundy == Some(target))
        .map(|o| o.to)
        .collect();
    Ok((moves, true))
}

/// Full searches of a sum this small run without being asked, so that remoteness and suspense can be
/// reported.
const AUTO_FULL_SEARCH: f64 = 2e7;

/// Everything answered about a sum written `G[p] + H[q] + ...`.
pub struct SumReport {
    pub sum: SumGame,
    pub parts: Vec<Pos>,
    pub play: Play,
    pub answer: SumAnswer,
    /// (remoteness, suspense) of the whole sum, by full search when asked or small.
    pub remoteness: Option<(u64, u64)>,
    pub want_moves: bool,
}

/// Parses and solves a sum; remoteness and suspense by full search when `force_remoteness` (within
/// the budget, else an error) or when that search is small.
pub fn analyse_sum(
    an: &Analyzer,
    spec: &str,
    play: Play,
    want_moves: bool,
    force_remoteness: bool,
) -> Result<SumReport> {
    let (sum, parts) = nimlab_games::parse_sum(spec)?;
    let answer = solve_sum(an, &sum, &parts, play, want_moves)?;
    let encoded = SumGame::encode(&parts);
    let mut solver = Solver::new(&sum);
    let budget = an.limits.budget;
    let run_full = if force_remoteness {
        solver.check_budget(&encoded, true, budget)?;
        true
    } else {
        solver.work_estimate(&encoded, true) <= AUTO_FULL_SEARCH.min(budget.limit)
    };
    let remoteness = if run_full {
        let f = solver.full(&encoded)?;
        Some((f.remoteness(play), f.suspense(play)))
    } else {
        None
    };
    Ok(SumReport {
        sum,
        parts,
        play,
        answer,
        remoteness,
        want_moves,
    })
}

impl SumReport {
    /// The answer as the JSON object every front end prints (components and moves numbered from 1).
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        let games = self.sum.parts();
        let a = &self.answer;
        let mut v = json!({
            "game": self.sum.id(),
            "position": self.parts,
            "play": self.play.name(),
            "outcome": a.outcome.to_string(),
            "method": a.method.to_json(),
            "grundy": a.grundy,
            "remoteness": self.remoteness.map(|x| x.0),
            "suspense": self.remoteness.map(|x| x.1),
        });
        if !a.components.is_empty() {
            v["components"] = games
                .iter()
                .zip(&self.parts)
                .zip(&a.components)
                .map(|((g, p), c)| json!({"game": g.id(), "position": p, "grundy": c.grundy, "method": c.method.to_json()}))
                .collect();
        }
        if self.want_moves {
            v["winning_moves"] = a
                .winning_moves
                .iter()
                .map(|m| {
                    let mut all = self.parts.clone();
                    all[m.component] = m.to.clone();
                    json!(all)
                })
                .collect();
            v["winning_moves_detail"] = a
                .winning_moves
                .iter()
                .map(|m| json!({"component": m.component + 1, "game": games[m.component].id(), "to": m.to}))
                .collect();
            v["winning_moves_complete"] = json!(a.winning_moves_complete);
        }
        v
    }
}

/// [`analyse_sum`] as JSON (remoteness only when the full search is small).
pub fn analyse_spec(
    an: &Analyzer,
    spec: &str,
    play: Play,
    want_moves: bool,
) -> Result<serde_json::Value> {
    Ok(analyse_sum(an, spec, play, want_moves, false)?.to_json())
}
