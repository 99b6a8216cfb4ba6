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
//! Winning moves are all the winning moves wherever the options can be listed within the budget;
//! where they cannot (stacks of 10^18), the list is the theorem's construction and
//! [`Analysis::winning_moves_complete`] is false.
//!
//! [`play`] holds what the terminal and the web page need to play (the computer's move, legal moves,
//! random starts); [`sums`] answers disjunctive sums through the same chain.

pub mod chain;
pub mod play;
pub mod sums;
pub mod verify;

pub use chain::Chain;
use nimlab_core::solver::{limit_above, Oracle};
use nimlab_core::{Budget, Error, Game, Outcome, Play, Pos, Result, Solver};
use nimlab_tables::store::Store;
use std::path::PathBuf;
use std::sync::Mutex;

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
    /// The Sprague-Grundy value (normal play).
    pub grundy: bool,
    /// With `grundy`: leave the value out (rather than refuse) when only a search above the budget
    /// would find it; the outcome is still answered.
    pub grundy_if_affordable: bool,
    /// The winning moves.
    pub moves: bool,
    /// Every option with its value.
    pub options: bool,
    pub remoteness: Remoteness,
    /// The explanation in the words of the result that decides (or of the search).
    pub explain: bool,
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
    };
    /// The web server's limits per request: small, so that no request can occupy the machine.
    pub const WEB: Limits = Limits {
        budget: Budget {
            limit: 2e7,
            flag: "",
        },
        auto_full: 4e6,
        options: 20_000,
        engine_box: 2e6,
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
    /// `search`, `store:ID`, `engine`, or the id of the theorem.
    pub method: String,
    pub statement: Option<String>,
    pub source: Option<String>,
    /// The P-family the position is in (or that the winning move reaches), when the result names one.
    pub family: Option<String>,
    /// Why, in one sentence.
    pub reason: String,
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
    pub play: Play,
    pub outcome: Outcome,
    /// How the outcome was decided: a theorem id, `store:ID`, `engine`, or `search`.
    pub method: String,
    pub terminal: bool,
    /// Wide: a theorem's value can pass 2^64 (Nim on a complex: the nim-sum of facet totals).
    pub grundy: Option<u128>,
    pub grundy_method: Option<String>,
    /// The winning moves (when asked): every one when `winning_moves_complete`.
    pub winning_moves: Option<Vec<Pos>>,
    pub winning_moves_complete: bool,
    /// How the winning moves were found.
    pub moves_method: Option<String>,
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

/// The analysis library's entry point.
pub struct Analyzer {
    pub store: StoreHandle,
    pub limits: Limits,
}

impl Analyzer {
    pub fn new(store: StoreHandle, limits: Limits) -> Analyzer {
        Analyzer { store, limits }
    }

    /// The chain of known answers for `game` under `play` around `p`.
    pub fn chain<'a>(&'a self, game: &'a dyn Game, p: &[u64], play: Play) -> Chain<'a> {
        Chain::new(game, play, &self.store, p, self.limits.engine_box)
    }

    /// Answers `want` about `p` (a valid position of `game`) under `play`.
    pub fn analyse(&self, game: &dyn Game, p: &[u64], play: Play, want: Want) -> Result<Analysis> {
        let chain = self.chain(game, p, play);
        let mut solver = Solver::with_oracle(game, &chain);
        let terminal = game.is_terminal(p)?;
        let root = chain.root(p, play);

        // Outcome (and a Grundy value where the deciding method gives one).
        let (outcome, method, mut grundy, mut grundy_method) = match &root {
            Some(k) => (
                k.outcome,
                k.method.clone(),
                k.grundy,
                k.grundy.map(|_| k.method.clone()),
            ),
            None => {
                self.check(
                    &solver,
                    p,
                    play == Play::Misere,
                    "no proven result or stored table decides it, and the outcome",
                )?;
                if play == Play::Normal && want.grundy {
                    let g = u128::from(solver.grundy(p)?);
                    (
                        Outcome::from_is_p(g == 0),
                        "search".to_string(),
                        Some(g),
                        Some("search".to_string()),
                    )
                } else {
                    (solver.outcome(p, play)?, "search".to_string(), None, None)
                }
            }
        };
        if want.grundy && play == Play::Normal && grundy.is_none() {
            if outcome.is_p() {
                grundy = Some(0);
                grundy_method = Some(method.clone());
            } else if let Some(k) = chain.known_grundy(p) {
                grundy = Some(k.0);
                grundy_method = Some(k.1);
            } else if !want.grundy_if_affordable || self.affordable(&solver, p, false) {
                self.check(
                    &solver,
                    p,
                    false,
                    "the Grundy value (no proven result or stored table gives it)",
                )?;
                grundy = Some(u128::from(solver.grundy(p)?));
                grundy_method = Some("search".into());
            }
        }

        let mut a = Analysis {
            play,
            outcome,
            method,
            terminal,
            grundy,
            grundy_method,
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

    /// True when a search from `p` fits the budget.
    fn affordable(&self, solver: &Solver, p: &[u64], full: bool) -> bool {
        solver.work_estimate(p, full) <= self.limits.budget.limit
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
                "pass {} {} to search anyway (it may need much time and memory)",
                b.flag,
                nimlab_core::solver::limit_above(est)
            )
        };
        Err(Error::TooLarge(format!(
            "{} {} is too large to answer here: {what} needs a search that may visit about {est:.1e} options ({:.1e} positions × up to {:.1e} options each), above the limit of {:.1e}; {how}",
            game.id(),
            game.format_position(p),
            game.state_bound(p),
            game.branching_bound(p),
            b.limit
        )))
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
        let verdict = chain.verdict(p);
        let listed = game.options_at_most(p, self.limits.options)?;
        // Every option can be valued when the chain decides the options, or a search fits the budget.
        let affordable = chain.decides_everything() || {
            let est = solver.work_estimate(p, play == Play::Misere);
            est <= self.limits.budget.limit
        };
        match listed {
            Some(opts) if affordable => {
                let mut methods: Vec<String> = Vec::new();
                let mut values = Vec::with_capacity(opts.len());
                for q in opts {
                    let (outcome, g, how) = match chain.root(&q, play) {
                        Some(k)
                            if !(want.options && play == Play::Normal && k.grundy.is_none()) =>
                        {
                            (k.outcome, k.grundy, k.method)
                        }
                        _ if play == Play::Normal && want.options => {
                            let g = u128::from(solver.grundy(&q)?);
                            (Outcome::from_is_p(g == 0), Some(g), "search".to_string())
                        }
                        _ => (solver.outcome(&q, play)?, None, "search".to_string()),
                    };
                    let r = if full {
                        Some(solver.full(&q)?.remoteness(play))
                    } else {
                        None
                    };
                    if !methods.contains(&how) {
                        methods.push(how);
                    }
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
                a.moves_method = Some(if methods.is_empty() {
                    a.method.clone()
                } else {
                    methods.join("+")
                });
                if want.options {
                    a.options = Some(values);
                }
                Ok(())
            }
            _ => {
                // Too many options to value one by one: the theorem's construction, if any.
                if want.options {
                    return Err(Error::TooLarge(match listed {
                        None => format!(
                            "{} {} has more than {} options, too many to list",
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
                match verdict {
                    Some((id, v)) if v.winning_moves.is_some() => {
                        a.winning_moves = v.winning_moves.clone();
                        a.winning_moves_complete = v.all_winning_moves || v.is_p;
                        a.moves_method = Some(id);
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
                            None => format!("it has more than {} options", self.limits.options),
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
        let fmt = |q: &Pos| game.format_position(q);
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
            if !v.is_p && v.reason.is_none() {
                if let Some(q) = v.winning_moves.as_ref().and_then(|w| w.first()).or(first) {
                    reason.push_str(&format!("; the move to {} lands in it", fmt(q)));
                }
            }
            return Explanation {
                method: id,
                statement: t.map(|t| t.statement().to_string()),
                source: t.map(|t| t.source().to_string()),
                family: v.family.clone(),
                reason,
            };
        }
        let by = match a.method.as_str() {
            "search" => "exhaustive search".to_string(),
            "engine" => "the tables engine (the whole box below the position)".to_string(),
            m => format!("the stored table {}", m.trim_start_matches("store:")),
        };
        let reason = if a.terminal {
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
            statement: None,
            source: None,
            family: None,
            reason,
        }
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
