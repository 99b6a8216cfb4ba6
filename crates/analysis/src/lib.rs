//! # nimlab-analysis
//!
//! One entry for every question a front end asks about a position: [`Analyzer::analyse`] takes a
//! game, a position, the play convention, what is wanted ([`Want`]) and a work budget, and returns one
//! [`Analysis`] that says which method decided each part. It consults an ordered chain:
//!
//! 1. proven results that decide every position of the game ([`nimlab_theory`], complete entries
//!    first, then partial ones);
//! 2. the store of solved tables ([`nimlab_tables::store`]), when a stored box holds the position,
//!    and the store's one-heap Grundy sequences ([`stored_sequence`]), when every heap of a list
//!    of heaps of an octal or Grundy's game lies within a stored one;
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
//! random starts); [`sums`] answers disjunctive sums through the same chain; [`sequence`] computes
//! the values of single heaps of a one-heap game and their period.
//!
//! This file holds the questions ([`Want`], [`Limits`]) and the answer ([`Analysis`]); the
//! [`Analyzer`] that answers them is in `analyzer/` (`mod.rs`: the outcome and the Grundy value by
//! the cheapest route; `moves.rs`: the winning moves and the options; `explain.rs`: the
//! explanation), and the store it reads in `store.rs` ([`StoreHandle`]).

pub mod chain;
pub mod cost;
pub mod json;
pub mod kept_sequence;
pub mod method;
pub mod play;
pub mod proved;
pub mod sequence;
pub mod stored_sequence;
pub mod sums;
pub mod verify;

mod analyzer;
mod store;

pub use analyzer::Analyzer;
pub use chain::Chain;
pub use method::Method;
use nimlab_core::solver::{limit_above, Oracle};
use nimlab_core::{Budget, Game, Outcome, Play, Pos, Solver};
pub use store::StoreHandle;

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
            flag: Some(nimlab_core::Arg::Limit),
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
            flag: None,
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
            flag: None,
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

/// `why`, refused as too large: with the option that lifts the budget and a value that passes
/// `est` (`then` after it), or, where there is none to name, `otherwise`.
pub(crate) fn lift(
    b: Budget,
    est: f64,
    why: String,
    then: &str,
    otherwise: &str,
) -> nimlab_core::Error {
    match b.flag {
        Some(arg) => nimlab_core::Error::too_large(
            nimlab_core::Refusal::new(why)
                .text("; pass ")
                .value(arg, limit_above(est))
                .text(then),
        ),
        None => nimlab_core::Error::TooLarge(why + otherwise),
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
