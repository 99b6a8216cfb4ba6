//! The [`Analyzer`]: the chain of known answers around a position, the outcome by the method that
//! decides it, the Grundy value by the cheapest exact route (remembered between questions), the
//! remoteness, and the refusal of a search above the budget. The winning moves and options are
//! answered in `moves.rs`, the explanation in `explain.rs`.

mod explain;
mod moves;

use crate::{
    cost, seconds_in_words, Analysis, Chain, Limits, Method, Remoteness, StoreHandle, Want,
};
use nimlab_core::{Error, Game, Outcome, Play, Pos, Result, Solver};
use rustc_hash::FxHashMap;
use std::sync::{Arc, Mutex};

/// Most Grundy values an analyzer remembers (positions answered by a computation), so that asking
/// again (Python's `g.grundy(p)` in a loop) does not repeat a search.
const MEMO_VALUES: usize = 4096;

/// A Grundy table's key: the game's id, the box's largest entry and length.
type TableKey = (String, u64, usize);

/// Grundy values computed by this analyzer: single positions, and the last Grundy table.
#[derive(Default)]
struct Memo {
    values: FxHashMap<(String, Pos), (u128, Method)>,
    table: Option<(TableKey, Arc<Vec<u16>>)>,
}

/// The analysis library's entry point.
pub struct Analyzer {
    pub store: StoreHandle,
    pub limits: Limits,
    /// False: the chain leaves the registry's results out (as `NIMLAB_THEORY=off` does), so that the
    /// other links can be checked against them.
    pub theory: bool,
    memo: Mutex<Memo>,
}

impl Analyzer {
    pub fn new(store: StoreHandle, limits: Limits) -> Analyzer {
        Analyzer {
            store,
            limits,
            theory: true,
            memo: Mutex::new(Memo::default()),
        }
    }

    /// The chain of known answers for `game` under `play` around `p`.
    pub fn chain<'a>(&'a self, game: &'a dyn Game, p: &[u64], play: Play) -> Chain<'a> {
        let chain = Chain::new(game, play, &self.store, p, self.limits.engine_box);
        if self.theory {
            chain
        } else {
            chain.without_theory()
        }
    }

    fn memo(&self) -> std::sync::MutexGuard<'_, Memo> {
        self.memo.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn remembered(&self, game: &dyn Game, p: &[u64]) -> Option<(u128, Method)> {
        let id = game.id();
        let memo = self.memo();
        memo.values.get(&(id, p.to_vec())).cloned()
    }

    fn remember(&self, game: &dyn Game, p: &[u64], g: u128, m: &Method) {
        let mut memo = self.memo();
        if memo.values.len() >= MEMO_VALUES {
            memo.values.clear();
        }
        memo.values.insert((game.id(), p.to_vec()), (g, m.clone()));
    }

    /// The cheapest exact computation of `p`'s Grundy value among those within the limits: the
    /// search within the budget, a Grundy table within the box limit.
    fn grundy_route(&self, game: &dyn Game, solver: &Solver, p: &[u64]) -> Option<cost::Route> {
        let search = cost::search_route(solver, p);
        let table = cost::table_route(game, p, self.limits.grundy_box);
        let search_ok = solver.work_estimate(p, false) <= self.limits.budget.limit;
        match (table, search_ok) {
            (Some(t), true) if t.seconds() < search.seconds() => Some(t),
            (_, true) => Some(search),
            (t, false) => t,
        }
    }

    /// The Grundy table of `game` for largest entry `hi` and `len` stacks: the one the analyzer
    /// remembers, or `solve`'s, remembered in its place.
    fn table_of(
        &self,
        game: &dyn Game,
        hi: u64,
        len: usize,
        solve: impl FnOnce() -> Result<Vec<u16>>,
    ) -> Result<Arc<Vec<u16>>> {
        let key = (game.id(), hi, len);
        let cached = {
            let memo = self.memo();
            memo.table
                .as_ref()
                .filter(|(k, _)| *k == key)
                .map(|(_, v)| v.clone())
        };
        if let Some(v) = cached {
            return Ok(v);
        }
        let v = Arc::new(solve()?);
        self.memo().table = Some((key, v.clone()));
        Ok(v)
    }

    /// Runs a Grundy computation.
    fn run_route(
        &self,
        game: &dyn Game,
        solver: &mut Solver,
        p: &[u64],
        route: &cost::Route,
    ) -> Result<(u128, Method)> {
        let method = route.method();
        let g = match route.table_box() {
            None => u128::from(solver.grundy(p)?),
            Some((hi, len)) => {
                let values = self.table_of(game, hi, len, || route.solve_table())?;
                let v = route.table_value(&values, p).ok_or_else(|| {
                    Error::TooLarge("the position lies outside its Grundy table".into())
                })?;
                u128::from(v)
            }
        };
        self.remember(game, p, g, &method);
        Ok((g, method))
    }

    /// The Grundy value of `p` by computation: the cheapest route within the limits, or the refusal.
    fn compute_grundy(
        &self,
        game: &dyn Game,
        solver: &mut Solver,
        p: &[u64],
    ) -> Result<(u128, Method)> {
        if let Some(v) = self.remembered(game, p) {
            return Ok(v);
        }
        match self.grundy_route(game, solver, p) {
            Some(route) => self.run_route(game, solver, p, &route),
            None => {
                self.check(
                    solver,
                    p,
                    false,
                    "the Grundy value (no proven result or stored table gives it, and no Grundy table of a box that holds it is small enough)",
                )?;
                unreachable!("a search within the budget is a route")
            }
        }
    }

    /// The Grundy value of `p` when it comes cheaply; otherwise a note with the estimated cost.
    fn cheap_grundy(
        &self,
        game: &dyn Game,
        solver: &mut Solver,
        p: &[u64],
    ) -> Result<std::result::Result<(u128, Method), String>> {
        // Whether a value is cheap depends on the position alone, never on what was asked before.
        // A search still keeps to this front end's budget (`--limit`).
        if let Some(r) = cost::cheap_route(game, solver, p).filter(|r| match r {
            cost::Route::Search { visits } => *visits <= self.limits.budget.limit,
            _ => true,
        }) {
            return match self.remembered(game, p) {
                Some(v) => Ok(Ok(v)),
                None => Ok(Ok(self.run_route(game, solver, p, &r)?)),
            };
        }
        // The note names the cheapest exact method whatever this front end's limits, so that it
        // reads the same everywhere.
        let cheapest = cost::cheapest_route(game, solver, p, f64::INFINITY);
        Ok(Err(format!(
            "not computed: no proven result or stored table gives it, and the cheapest exact method ({}) is estimated at {}",
            cheapest.method(),
            seconds_in_words(cheapest.seconds())
        )))
    }

    /// Answers `want` about `p` (a valid position of `game`) under `play`.
    pub fn analyse(&self, game: &dyn Game, p: &[u64], play: Play, want: Want) -> Result<Analysis> {
        let chain = self.chain(game, p, play);
        let mut solver = Solver::with_oracle(game, &chain);
        let terminal = game.is_terminal(p)?;
        let root = chain.root(p, play);
        let normal = play == Play::Normal;
        let mut grundy_note = None;

        // Outcome (and a Grundy value where the deciding method gives one).
        let (outcome, method, mut grundy, mut grundy_method) = match &root {
            Some(k) => (
                k.outcome,
                k.method.clone(),
                k.grundy,
                k.grundy.map(|_| k.method.clone()),
            ),
            None => {
                // A computation of the Grundy value decides the outcome too: used when asked for
                // the value, or when it is cheap; otherwise the outcome alone is searched.
                let value = if normal && want.grundy {
                    Some(self.compute_grundy(game, &mut solver, p)?)
                } else if normal && want.grundy_if_cheap {
                    match self.cheap_grundy(game, &mut solver, p)? {
                        Ok(v) => Some(v),
                        Err(note) => {
                            grundy_note = Some(note);
                            None
                        }
                    }
                } else {
                    None
                };
                match value {
                    Some((g, m)) => (Outcome::from_is_p(g == 0), m.clone(), Some(g), Some(m)),
                    None => {
                        self.check(
                            &solver,
                            p,
                            !normal,
                            "no proven result or stored table decides it, and the outcome",
                        )?;
                        (solver.outcome(p, play)?, Method::Search, None, None)
                    }
                }
            }
        };
        if normal && (want.grundy || want.grundy_if_cheap) && grundy.is_none() {
            if outcome.is_p() {
                grundy = Some(0);
                grundy_method = Some(method.clone());
                grundy_note = None;
            } else if grundy_note.is_some() {
                // Already estimated: not cheap.
            } else if let Some(k) = chain.known_grundy(p) {
                grundy = Some(k.0);
                grundy_method = Some(k.1);
            } else if want.grundy {
                let (g, m) = self
                    .compute_grundy(game, &mut solver, p)
                    .map_err(|e| {
                        let Method::Characterization { id, .. } = &method else {
                            return e;
                        };
                        let first = format!(
                            "the proved characterization #{id} gives the outcome ({outcome}) but not Grundy values; "
                        );
                        match e {
                            Error::TooLarge(why) => Error::TooLarge(first + why.as_str()),
                            Error::TooLargeRefused(why) => {
                                let mut r = nimlab_core::Refusal::new(first);
                                r.pieces.extend(why.pieces);
                                Error::too_large(r)
                            }
                            e => e,
                        }
                    })?;
                grundy = Some(g);
                grundy_method = Some(m);
            } else {
                match self.cheap_grundy(game, &mut solver, p)? {
                    Ok((g, m)) => {
                        grundy = Some(g);
                        grundy_method = Some(m);
                    }
                    Err(note) => grundy_note = Some(note),
                }
            }
        }

        if grundy.is_none() && normal && (want.grundy || want.grundy_if_cheap) {
            if let Method::Characterization { id, .. } = &method {
                let why = format!(
                    "the proved characterization #{id} describes the P-positions only, not Grundy values"
                );
                grundy_note = Some(match grundy_note {
                    Some(n) => format!("{why}; {n}"),
                    None => why,
                });
            }
        }

        let mut a = Analysis {
            game: game.id(),
            position: p.to_vec(),
            asked: want,
            play,
            outcome,
            method,
            terminal,
            grundy,
            grundy_method,
            grundy_note,
            winning_moves: None,
            winning_moves_complete: false,
            moves_method: None,
            options: None,
            remoteness: None,
            suspense: None,
            explanation: None,
            searched: 0,
            oracle_answers: 0,
        };

        // Remoteness and suspense: a full search of the game tree.
        let full_est = solver.work_estimate(p, true);
        let full = match want.remoteness {
            Remoteness::Skip => false,
            Remoteness::IfSmall => full_est <= self.limits.auto_full.min(self.limits.budget.limit),
            Remoteness::Always => {
                self.check(
                    &solver,
                    p,
                    true,
                    "the remoteness (a search of the whole game tree)",
                )?;
                true
            }
        };
        if full {
            let f = solver.full(p)?;
            a.remoteness = Some(f.remoteness(play));
            a.suspense = Some(f.suspense(play));
        }

        if want.moves || want.options || want.explain {
            self.moves(&chain, &mut solver, game, p, play, want, full, &mut a)?;
        }
        if want.explain {
            a.explanation = Some(self.explanation(&chain, game, p, play, &a));
        }
        a.searched = solver.positions_searched();
        a.oracle_answers = solver.oracle_answers();
        Ok(a)
    }

    /// Refuses a search above the budget, saying what needed it and how to lift the limit.
    fn check(&self, solver: &Solver, p: &[u64], full: bool, what: &str) -> Result<()> {
        let b = self.limits.budget;
        let est = solver.work_estimate(p, full);
        if est <= b.limit {
            return Ok(());
        }
        let game = solver.game();
        Err(crate::lift(
            b,
            est,
            format!(
                "{} {} is too large to answer here: {what} needs a search that may visit about {est:.1e} options ({:.1e} positions × up to {:.1e} options each), above the limit of {:.1e}",
                game.id(),
                game.format_position(p),
                solver.states(p, full),
                game.branching_bound(p),
                b.limit
            ),
            " to search anyway (it may need much time and memory)",
            "; try a smaller position",
        ))
    }
}
