//! # nimlab-analysis
//!
//! One entry for every question a front end asks about a position: [`Analyzer::analyse`] takes a
//! game, a position, the play convention, what is wanted ([`Want`]) and a work budget, and returns one
//! [`Analysis`] that says which method decided each part. It consults an ordered chain:
//!
//! 1. proven results that decide every position of the game ([`nimlab_theory`], complete entries
//!    first, then partial ones);
//! 2. the store of solved tables ([`nimlab_tables::store`]), when a stored box holds the position;
//! 3. the tables engine, when the position lies in a box it tabulates cheaply;
//! 4. exhaustive search, within the budget. The search asks the same chain at every position it
//!    visits ([`Chain`] is its [`Oracle`]), so it stops where a theorem, a stored table or the
//!    engine's table answers.
//!
//! Outcomes are answered in the time of the method that decides them: a Grundy value is added
//! without being asked only when it comes cheaply (a theorem, the store, or a computation the cost
//! model [`cost`] estimates under [`cost::CHEAP_SECONDS`]); otherwise the answer says what it would
//! cost ([`Analysis::grundy_note`]). Asked for, a Grundy value comes from the cheapest exact method:
//! a theorem or the store, else a Grundy table of the smallest box that holds the position or the
//! search, whichever the cost model estimates cheaper ([`Method::GrundyTable`], [`Method::Search`]).
//!
//! Options are counted arithmetically ([`Game::count_options`]) before any is listed. Winning moves
//! are every winning move where a proven result lists them all, or where the options can be listed
//! and valued within the budget; otherwise (stacks of 10^18) the list is the theorem's construction
//! and [`Analysis::winning_moves_complete`] is false. Lists are in a neutral order (sorted), never
//! winning moves first.
//!
//! Every answer's JSON form is built here once ([`json`]): the command line's `--json`, the web API
//! and Python print these objects.
//!
//! [`play`] holds what the terminal and the web page need to play (the computer's move, legal moves,
//! random starts); [`sums`] answers disjunctive sums through the same chain.

pub mod chain;
pub mod cost;
pub mod json;
pub mod method;
pub mod play;
pub mod proved;
pub mod sums;
pub mod verify;

pub use chain::Chain;
pub use method::Method;
use nimlab_core::solver::{limit_above, Oracle};
use nimlab_core::{Budget, Error, Game, Outcome, Play, Pos, Result, Solver};
use nimlab_tables::store::Store;
use rustc_hash::FxHashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// How remoteness and suspense are wanted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Remoteness {
    /// Not wanted.
    #[default]
    Skip,
    /// When the full search they need is small ([`Limits::auto_full`]).
    IfSmall,
    /// Always, within the budget (else an error).
    Always,
}

/// What is asked about a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Want {
    /// The Sprague-Grundy value (normal play), by the cheapest exact method (refused above the
    /// limits).
    pub grundy: bool,
    /// The Grundy value only when it comes cheaply (a theorem, the store, or a computation the cost
    /// model estimates under [`cost::CHEAP_SECONDS`]); otherwise [`Analysis::grundy_note`] says what
    /// it would cost. Ignored when `grundy` is set.
    pub grundy_if_cheap: bool,
    /// The winning moves.
    pub moves: bool,
    /// Every option with its value.
    pub options: bool,
    pub remoteness: Remoteness,
    /// The explanation in the words of the result that decides (or of the search).
    pub explain: bool,
}

impl Want {
    /// `outcome`: the outcome, a Grundy value when it comes cheaply, remoteness and suspense when
    /// their full search is small.
    pub fn outcome() -> Want {
        Want {
            grundy_if_cheap: true,
            remoteness: Remoteness::IfSmall,
            ..Want::default()
        }
    }
    /// `grundy`: the Grundy value by the cheapest exact method.
    pub fn grundy() -> Want {
        Want {
            grundy: true,
            ..Want::default()
        }
    }
    /// `moves`: the winning moves.
    pub fn moves() -> Want {
        Want {
            moves: true,
            ..Want::default()
        }
    }
    /// `moves --all`: every option with its value, and the winning moves.
    pub fn options() -> Want {
        Want {
            moves: true,
            options: true,
            ..Want::default()
        }
    }
    /// `explain`: the result (or the search) that decides, in words.
    pub fn explain() -> Want {
        Want {
            explain: true,
            ..Want::default()
        }
    }
}

/// How much work one question may cause.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Largest search, in estimated option visits (refused above, naming the flag that lifts it).
    pub budget: Budget,
    /// Full searches (remoteness) this small run without being asked (`Remoteness::IfSmall`).
    pub auto_full: f64,
    /// Most options listed one by one.
    pub options: usize,
    /// Largest box the tables engine tabulates on the fly to answer one position.
    pub engine_box: f64,
    /// Largest box whose Grundy table is computed to answer one position's Grundy value.
    pub grundy_box: f64,
}

impl Limits {
    /// The command line's defaults.
    pub const CLI: Limits = Limits {
        budget: Budget {
            limit: 2e9,
            flag: "--limit",
        },
        auto_full: 2e7,
        options: 1_000_000,
        engine_box: 2e7,
        grundy_box: 1e8,
    };
    /// The terminal game's limits: a human waits a second or two at most.
    pub const TERMINAL: Limits = Limits {
        budget: Budget {
            limit: 2e8,
            flag: "",
        },
        auto_full: 2e7,
        options: 200_000,
        engine_box: 1e7,
        grundy_box: 2e7,
    };
    /// The web server's limits per request: the command line's, so that the page and the API answer
    /// as `--json` does (the server stops a computation that runs past its time limit instead), but
    /// with at most 20000 options listed one by one and no flag to name.
    pub const WEB: Limits = Limits {
        budget: Budget {
            limit: 2e9,
            flag: "",
        },
        auto_full: 2e7,
        options: 20_000,
        engine_box: 2e7,
        grundy_box: 1e8,
    };

    /// These limits with another search budget.
    pub fn with_limit(mut self, limit: f64) -> Limits {
        self.budget.limit = limit;
        self
    }
}

/// The proven result behind an answer, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    /// The theorem, the stored table, the engine or the search.
    pub method: Method,
    pub statement: Option<String>,
    pub source: Option<String>,
    /// The P-family the position is in (or that the winning move reaches), when the result names one.
    pub family: Option<String>,
    /// Why, in one sentence.
    pub reason: String,
    /// The winning move the reason names (an N-position's), when there is one.
    pub winning_move: Option<Pos>,
}

/// One option of a position with its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionValue {
    pub to: Pos,
    /// The option's outcome: moving there wins when it is `P`.
    pub outcome: Outcome,
    pub grundy: Option<u128>,
    pub remoteness: Option<u64>,
}

/// Everything answered about one position, each part with the method that decided it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// The game's id and the position asked about (for [`Analysis::to_json`]).
    pub game: String,
    pub position: Pos,
    /// What was asked.
    pub asked: Want,
    pub play: Play,
    pub outcome: Outcome,
    /// How the outcome was decided.
    pub method: Method,
    pub terminal: bool,
    /// Wide: a theorem's value can pass 2^64 (Nim on a complex: the nim-sum of facet totals).
    pub grundy: Option<u128>,
    pub grundy_method: Option<Method>,
    /// Why no Grundy value is given in normal play (it was not asked for and no cheap method finds
    /// it), with the estimated cost of the cheapest method.
    pub grundy_note: Option<String>,
    /// The winning moves (when asked): every one when `winning_moves_complete`.
    pub winning_moves: Option<Vec<Pos>>,
    pub winning_moves_complete: bool,
    /// How the winning moves were found.
    pub moves_method: Option<Method>,
    /// Every option with its value (when asked).
    pub options: Option<Vec<OptionValue>>,
    pub remoteness: Option<u64>,
    pub suspense: Option<u64>,
    pub explanation: Option<Explanation>,
    /// Positions solved by searching their options, and positions the chain answered inside a search.
    pub searched: u64,
    pub oracle_answers: u64,
}

/// The store as the analysis layer uses it: opened lazily, shared between threads.
#[derive(Default)]
pub struct StoreHandle {
    path: Option<PathBuf>,
    store: Mutex<Option<Store>>,
}

impl StoreHandle {
    /// No store.
    pub fn none() -> StoreHandle {
        StoreHandle::default()
    }
    /// The store at `path`, used only when the file exists (a look-up never creates a store).
    pub fn at(path: Option<PathBuf>) -> StoreHandle {
        StoreHandle {
            path,
            store: Mutex::new(None),
        }
    }
    /// Runs `f` with the store, when there is one.
    pub fn with<T>(&self, f: impl FnOnce(&Store) -> Option<T>) -> Option<T> {
        let path = self.path.as_ref()?;
        let mut guard = self.store.lock().unwrap_or_else(|e| e.into_inner());
        if guard.is_none() {
            if !path.exists() {
                return None;
            }
            *guard = Store::open(path).ok();
        }
        f(guard.as_ref()?)
    }
}

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

    /// Runs a Grundy computation.
    fn run_route(
        &self,
        game: &dyn Game,
        solver: &mut Solver,
        p: &[u64],
        route: &cost::Route,
    ) -> Result<(u128, Method)> {
        let method = route.method();
        let g = match route {
            cost::Route::Search { .. } => u128::from(solver.grundy(p)?),
            cost::Route::Table { hi, len, faces, .. } => {
                let key = (game.id(), *hi, *len);
                let cached = {
                    let memo = self.memo();
                    memo.table
                        .as_ref()
                        .filter(|(k, _)| *k == key)
                        .map(|(_, v)| v.clone())
                };
                let values = match cached {
                    Some(v) => v,
                    None => {
                        let r = usize::try_from(*hi + 1).map_err(|_| {
                            Error::TooLarge("a box too wide for a Grundy table".into())
                        })?;
                        let v = nimlab_tables::grundy::solve(
                            *len,
                            r,
                            faces,
                            nimlab_tables::lines::Hooks::default(),
                        )
                        .map_err(|_| Error::Interrupted)?;
                        let v = Arc::new(v);
                        self.memo().table = Some((key, v.clone()));
                        v
                    }
                };
                let v = cost::table_value(&values, *hi, p).ok_or_else(|| {
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
        if let Some(r) = self
            .grundy_route(game, solver, p)
            .filter(|r| r.seconds() <= cost::CHEAP_SECONDS)
        {
            return match self.remembered(game, p) {
                Some(v) => Ok(Ok(v)),
                None => Ok(Ok(self.run_route(game, solver, p, &r)?)),
            };
        }
        // The note names the cheapest exact method whatever this front end's limits, so that it
        // reads the same everywhere.
        let search = cost::search_route(solver, p);
        let cheapest = match cost::table_route(game, p, f64::INFINITY) {
            Some(t) if t.seconds() < search.seconds() => t,
            _ => search,
        };
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
                    .map_err(|e| match (&method, e) {
                        (Method::Characterization { id, .. }, Error::TooLarge(why)) => {
                            Error::TooLarge(format!(
                                "the proved characterization #{id} gives the outcome ({outcome}) but not Grundy values; {why}"
                            ))
                        }
                        (_, e) => e,
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
        let how = if b.flag.is_empty() {
            "try a smaller position".to_string()
        } else {
            format!(
                "pass {}{}{} to search anyway (it may need much time and memory)",
                b.flag,
                if b.flag.ends_with('=') { "" } else { " " },
                nimlab_core::solver::limit_above(est)
            )
        };
        Err(Error::TooLarge(format!(
            "{} {} is too large to answer here: {what} needs a search that may visit about {est:.1e} options ({:.1e} positions × up to {:.1e} options each), above the limit of {:.1e}; {how}",
            game.id(),
            game.format_position(p),
            solver.states(p, full),
            game.branching_bound(p),
            b.limit
        )))
    }

    /// The winning moves when a proven result lists every one (or proves `p` is P), without listing
    /// options.
    fn theorem_moves(chain: &Chain, p: &[u64]) -> Option<(Vec<Pos>, Method)> {
        let (id, v) = chain.verdict(p)?;
        let m = Method::theorem(&id)?;
        if v.is_p {
            return Some((Vec::new(), m));
        }
        if !v.all_winning_moves {
            return None;
        }
        let mut w = v.winning_moves?;
        w.sort();
        w.dedup();
        Some((w, m))
    }

    #[allow(clippy::too_many_arguments)]
    fn moves(
        &self,
        chain: &Chain,
        solver: &mut Solver,
        game: &dyn Game,
        p: &[u64],
        play: Play,
        want: Want,
        full: bool,
        a: &mut Analysis,
    ) -> Result<()> {
        if !want.options {
            if let Some((w, m)) = Self::theorem_moves(chain, p) {
                a.winning_moves = Some(w);
                a.winning_moves_complete = true;
                a.moves_method = Some(m);
                return Ok(());
            }
        }
        // Count before listing: a position with 10^18 options is never enumerated.
        let counted = game.count_options(p);
        let listed = match counted {
            Some(n) if n > self.limits.options as u128 => None,
            _ => game.options_at_most(p, self.limits.options)?,
        };
        // Every option can be valued when the chain decides the options, or a search fits the budget.
        let affordable = chain.decides_everything() || {
            let est = solver.work_estimate(p, play == Play::Misere);
            est <= self.limits.budget.limit
        };
        match listed {
            Some(mut opts) if affordable => {
                opts.sort();
                let mut method: Option<Method> = None;
                let mut values = Vec::with_capacity(opts.len());
                for q in opts {
                    let (outcome, g, how) = match chain.root(&q, play) {
                        Some(k)
                            if !(want.options && play == Play::Normal && k.grundy.is_none()) =>
                        {
                            (k.outcome, k.grundy, k.method)
                        }
                        _ if play == Play::Normal && want.options => {
                            let g = match chain.known_grundy(&q) {
                                Some((g, m)) => (g, m),
                                None => (u128::from(solver.grundy(&q)?), Method::Search),
                            };
                            (Outcome::from_is_p(g.0 == 0), Some(g.0), g.1)
                        }
                        _ => (solver.outcome(&q, play)?, None, Method::Search),
                    };
                    let r = if full {
                        Some(solver.full(&q)?.remoteness(play))
                    } else {
                        None
                    };
                    method = Some(match method {
                        None => how,
                        Some(m) => m.and(how),
                    });
                    values.push(OptionValue {
                        to: q,
                        outcome,
                        grundy: g,
                        remoteness: r,
                    });
                }
                a.winning_moves = Some(
                    values
                        .iter()
                        .filter(|v| v.outcome.is_p())
                        .map(|v| v.to.clone())
                        .collect(),
                );
                a.winning_moves_complete = true;
                a.moves_method = Some(method.unwrap_or_else(|| a.method.clone()));
                if want.options {
                    a.options = Some(values);
                }
                Ok(())
            }
            _ => {
                let how_many = match counted {
                    Some(n) => format!("{n} options"),
                    None => format!("more than {} options", self.limits.options),
                };
                // Too many options to value one by one: the theorem's construction, if any.
                if want.options {
                    return Err(Error::TooLarge(match listed {
                        None => format!(
                            "{} {} has {how_many}, too many to list (at most {})",
                            game.id(),
                            game.format_position(p),
                            self.limits.options
                        ),
                        Some(_) => format!(
                            "valuing every option of {} {} needs a search of about {:.1e} option visits, above the limit of {:.1e}{}",
                            game.id(),
                            game.format_position(p),
                            solver.work_estimate(p, play == Play::Misere),
                            self.limits.budget.limit,
                            lift(self.limits.budget, solver.work_estimate(p, play == Play::Misere))
                        ),
                    }));
                }
                let proved = match &a.method {
                    Method::Characterization { id, .. } if !a.outcome.is_p() => chain
                        .proved()
                        .iter()
                        .find(|c| c.id == *id)
                        .and_then(|c| c.winning_move(game, p).map(|q| (q, c.method()))),
                    _ => None,
                };
                match chain.verdict(p) {
                    Some((id, v)) if v.winning_moves.is_some() => {
                        let mut w = v.winning_moves.clone().unwrap_or_default();
                        w.sort();
                        w.dedup();
                        a.winning_moves = Some(w);
                        a.winning_moves_complete = v.all_winning_moves || v.is_p;
                        a.moves_method = Method::theorem(&id);
                        Ok(())
                    }
                    None if proved.is_some() => {
                        let (q, m) = proved.expect("a move");
                        // One winning move, found in the characterization's automaton (or
                        // among the options): not the list of all of them.
                        a.winning_moves = Some(vec![q]);
                        a.winning_moves_complete = false;
                        a.moves_method = Some(m);
                        Ok(())
                    }
                    _ if a.outcome.is_p() => {
                        a.winning_moves = Some(Vec::new());
                        a.winning_moves_complete = true;
                        a.moves_method = Some(a.method.clone());
                        Ok(())
                    }
                    _ if want.moves => Err(Error::TooLarge(format!(
                        "{} {} is {} ({}), but its winning moves cannot be listed here: {} and no proven result constructs them",
                        game.id(),
                        game.format_position(p),
                        a.outcome,
                        a.method,
                        match listed {
                            None => format!("it has {how_many}"),
                            Some(_) => "valuing its options needs a search above the limit".into(),
                        }
                    ))),
                    _ => Ok(()),
                }
            }
        }
    }

    fn explanation(
        &self,
        chain: &Chain,
        game: &dyn Game,
        p: &[u64],
        play: Play,
        a: &Analysis,
    ) -> Explanation {
        // The game's one notation (chip games: Ferguson's `1^7`), as on the web page and in Python.
        let fmt = |q: &Pos| game.format_like(q, "^");
        let first = a.winning_moves.as_ref().and_then(|w| w.first());
        if let Some((id, v)) = chain.verdict(p) {
            let t = chain.theorem(&id);
            let mut reason = v.reason.clone().unwrap_or_else(|| {
                if v.is_p {
                    format!("P: the position is in the P-set that {id} describes")
                } else {
                    format!("N: the position is outside the P-set that {id} describes")
                }
            });
            // The move the reason names: the theorem's own construction first.
            let named = v.winning_moves.as_ref().and_then(|w| w.first()).or(first);
            if !v.is_p && v.reason.is_none() {
                if let Some(q) = named {
                    reason.push_str(&format!("; the move to {} lands in it", fmt(q)));
                }
            }
            return Explanation {
                method: Method::theorem(&id).unwrap_or(Method::Search),
                statement: t.map(|t| t.statement().to_string()),
                source: t.map(|t| t.source().to_string()),
                family: v.family.clone(),
                reason,
                winning_move: if v.is_p { None } else { named.cloned() },
            };
        }
        let by = &a.method;
        // A characterization given as an automaton: its rule in words, when it reads as one.
        let rule = match by {
            Method::Characterization { id, .. } => chain
                .proved()
                .iter()
                .find(|c| c.id == *id)
                .and_then(|c| c.rule()),
            _ => None,
        };
        let reason = if let (Method::Characterization { id, .. }, false) = (by, a.terminal) {
            if a.outcome.is_p() {
                format!("P: in the proved set (characterization #{id}), so every move leaves it")
            } else if let Some(q) = first {
                format!(
                    "N: outside the proved set (characterization #{id}); the move to {} lands in it",
                    fmt(q)
                )
            } else {
                format!("N: outside the proved set (characterization #{id}), which holds every P-position")
            }
        } else if a.terminal {
            match play {
                Play::Normal => {
                    "P: no move is left, and in normal play the player to move loses".to_string()
                }
                Play::Misere => {
                    "N: no move is left, and in misère play the player to move wins".to_string()
                }
            }
        } else if a.outcome.is_p() {
            format!("P: no proven result known to nimlab decides this position; {by} finds that every move leads to an N-position")
        } else if let Some(q) = first {
            format!("N: no proven result known to nimlab decides this position; {by} finds the winning move to {}, a P-position", fmt(q))
        } else {
            format!("N: decided by {by}")
        };
        Explanation {
            method: a.method.clone(),
            statement: rule,
            source: None,
            family: None,
            reason,
            winning_move: if a.outcome.is_p() {
                None
            } else {
                first.cloned()
            },
        }
    }
}

/// Estimated seconds in words: "0.3 s", "17 s", "about 3 hours".
pub fn seconds_in_words(s: f64) -> String {
    if s < 10.0 {
        format!("{s:.1} s")
    } else if s < 600.0 {
        format!("{s:.0} s")
    } else if s < 36_000.0 {
        format!("{:.0} minutes", s / 60.0)
    } else if s < 3.0 * 86_400.0 * 365.0 {
        format!("{:.0} hours", s / 3600.0)
    } else {
        format!("{:.0e} years", s / (86_400.0 * 365.0))
    }
}

fn lift(b: Budget, est: f64) -> String {
    if b.flag.is_empty() {
        String::new()
    } else {
        format!("; pass {} {} to search anyway", b.flag, limit_above(est))
    }
}

/// The solver with this analysis chain as its oracle (for callers that search themselves).
pub fn solver_with<'a>(game: &'a dyn Game, chain: &'a Chain<'a>) -> Solver<'a> {
    Solver::with_oracle(game, chain as &dyn Oracle)
}

/// For Empty & Redistribute (ER(k), and EJR(k,1), the same game), the objects of Ferguson's
/// Proposition 8: f(k), R(k), S(k) and x(n).
pub fn er_summary_of(game: &dyn Game) -> Option<nimlab_theory::ErSummary> {
    use nimlab_games::{RedistKind, Redistribute};
    let g = game.downcast_ref::<Redistribute>()?;
    matches!(g.kind, RedistKind::Er | RedistKind::Ejr(1))
        .then(|| nimlab_theory::er_summary(g.k as u64, (5 * g.k as u128).max(40)))
        .flatten()
}
