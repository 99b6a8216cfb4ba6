//! Ferguson's chip-transfer games in the prover: for each fixed number of boxes k, the conditions of
//! the partition theorem (and the subset condition (C)) as queries of linear integer arithmetic with
//! `mod` by constants, decided for every box size by an SMT solver.
//!
//! A position is k box contents `x0 .. x(k-1)`, read as an ordered tuple: every set proved here is
//! symmetric (its membership does not change when the boxes are permuted) and the moves of an ordered
//! tuple reach every arrangement of every option, so the ordered statements are the multiset ones.
//! The moves are linear:
//!
//! - Empty & Transfer, ET(k): for boxes i != j, `y_i = t`, `y_j = x_j - t`, `1 <= t <= x_j - 1`;
//! - the redistribution games (EABO, ER, SER, EJR): for a set K of kept boxes (its size allowed by
//!   the game), any `y` with every `y_l >= 1` and `y_0 + ... + y_(k-1) = sum of x over K`;
//! - Entropy Reduction, ENTROPY(k): for boxes i != j, `y_i = x_i - t`, `y_j = x_j + t`,
//!   `1 <= t <= x_i - x_j - 1`.
//!
//! The queries (each satisfiable exactly when its condition fails):
//!
//! - (I) a member `x`, a move to `y`, `y` a member. Moves are taken up to a permutation of the boxes
//!   (the boxes (0, 1), or the first s kept boxes): the set being symmetric, that is every move.
//! - (II) for ET and Entropy: `x` not a member, not terminal, and for every move parameter `t` of
//!   every pair of boxes the option is not a member (one quantifier over `t`). For the redistribution
//!   games the options of `x` are all the partitions of each kept total, so (II) is split in two
//!   quantifier-free queries through a *norm formula* `phi(n)` and a *witness* `w(n)`, a tuple of k
//!   terms in n (ite over residues, computed here by search on small totals and lifted by the period):
//!   (IIa) `phi(n)` and `w(n)` is not a member of total n with positive boxes; (IIb) `x` not a
//!   member, not terminal, and no kept total satisfies `phi`. Both unsatisfiable prove (II): every
//!   position outside the set keeps a total n with `phi(n)`, and redistributes it to `w(n)`. A model
//!   of (IIb) is a counterexample to (II) only when exact search finds no option in the set (else the
//!   answer is unknown: the norm formula missed a total).
//! - (III) `x` terminal and not a member (misère play: a member).
//! - (C), for a set claimed to lie inside the P-set: a member `x`, a move to `y` (in misère play `y`
//!   not terminal), and every move of `y` leaves the set.
//!
//! Each set is a formula of the relation language ([`crate::expr::Formula`]: relations of linear
//! terms with `mod` by constants, under `all`, `any`, `not`) over the boxes, written as SMT-LIB by
//! [`crate::arith`] as the families' relations are; a set read on residues modulo its period has
//! `mod(box, period)` written as the residue the queries declare for that box.
//!
//! Every satisfiable answer is re-checked by nimlab's exact machinery (the game's own moves, and
//! membership by the registry entry's own `decide`); every "proved" passes an exact search on all
//! positions up to a total number of chips (Entropy: up to a spread), as the CN and SCN proofs do.
//!
//! Results that read binary digits (ET(3)'s 2-adic valuations, ET(4)'s halving, ENTROPY(3)'s
//! `4^n m`) are not sets of linear arithmetic: [`from_registry`] refuses them with a one-line reason,
//! and [`prove_chips_automata`] proves them for every box size with finite automata.

mod bits;
mod by_automata;
mod by_smt;
mod queries;
mod registry;
pub mod totals;

pub use by_automata::{
    automaton_claim, from_registry_automata, prove_chips_automata, ChipAutomataProof,
    CHIP_PROVED_BY_AUTOMATA,
};
pub use by_smt::prove_chips;
pub use queries::chip_queries;
pub use registry::{
    checked, from_registry, from_registry_bits, CHIP_PROVED, CHIP_PROVED_BELOW, CHIP_PROVED_IN_CI,
};

use crate::arith::Arith;
use crate::claimed::{Claimed, Says, Space};
use crate::expr::Formula;
use crate::report::Report;
use nimlab_core::partition::Condition;
use nimlab_core::{Error, Game, Play, Pos, Result};
use nimlab_games::{EmptyTransfer, EntropyReduction, Redistribute};
use queries::xs;
use std::path::{Path, PathBuf};

/// The moves of a chip game, as linear arithmetic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Moves {
    /// Empty & Transfer.
    Et,
    /// Discard and redistribute: the allowed numbers of kept boxes.
    Redistribute(Vec<usize>),
    /// Entropy Reduction.
    Entropy,
}

/// A chip game with a fixed number of boxes.
pub struct ChipGame {
    pub k: usize,
    pub moves: Moves,
    pub game: Box<dyn Game>,
}

impl ChipGame {
    /// The chip game `text` names (ET(k), EABO(k), ER(k), SER(k), EJR(k,j), ENTROPY(k)); `Ok(None)`
    /// for a game that is not a chip game (or does not parse: the caller's own parser says why).
    pub fn parse(text: &str) -> Result<Option<ChipGame>> {
        let Ok(game) = nimlab_games::registry::parse_game(text) else {
            return Ok(None);
        };
        let (k, moves) = if let Some(g) = game.downcast_ref::<EmptyTransfer>() {
            (g.k, Moves::Et)
        } else if let Some(g) = game.downcast_ref::<EntropyReduction>() {
            (g.k, Moves::Entropy)
        } else if let Some(g) = game.downcast_ref::<Redistribute>() {
            let (lo, hi) = g.discard_range();
            (g.k, Moves::Redistribute((g.k - hi..=g.k - lo).collect()))
        } else {
            return Ok(None);
        };
        if k > MAX_PROVE_BOXES {
            return Err(Error::Unsupported(format!(
                "{}: the prover takes chip games of at most {MAX_PROVE_BOXES} boxes",
                game.id()
            )));
        }
        Ok(Some(ChipGame { k, moves, game }))
    }

    pub fn id(&self) -> String {
        self.game.id()
    }

    fn is_redistribute(&self) -> bool {
        matches!(self.moves, Moves::Redistribute(_))
    }

    /// The smallest box content (0 for Entropy, whose positions are taken with entries >= 0).
    fn least(&self) -> u64 {
        u64::from(self.moves != Moves::Entropy)
    }

    /// The kept sets of a redistribution game (every subset of an allowed size).
    fn kept_sets(&self) -> Vec<Vec<usize>> {
        let Moves::Redistribute(sizes) = &self.moves else {
            return Vec::new();
        };
        (1u32..(1u32 << self.k))
            .map(|mask| {
                (0..self.k)
                    .filter(|i| mask & (1 << i) != 0)
                    .collect::<Vec<_>>()
            })
            .filter(|s| sizes.contains(&s.len()))
            .collect()
    }
}

/// The largest number of boxes the prover takes.
pub const MAX_PROVE_BOXES: usize = 12;

/// What a chip claim says of its set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChipKind {
    /// The set is the P-set: (I), (II), (III).
    PSet,
    /// Every member is a P-position: (C), and in misère play (III).
    Subset,
    /// Every member is an N-position: it has a move into the target set, whose members are
    /// P-positions (proved separately). Stated as (II) restricted to the members.
    Winning,
}

/// Exact membership of a (sorted) position.
pub type Exact = Box<dyn Fn(&[u64]) -> bool + Send + Sync>;

/// A set of positions of a chip game: its membership as a formula over the boxes (slot `i` is box
/// `i`; `None` for the sets that the bit-vector and automata provers build themselves), its exact
/// membership, and `period`: a modulus of its reading (the witness of (II) is lifted by it). With
/// `residues`, the queries give z3 each box as `period * a + r` and read `mod(box i, period)` as that
/// `r` (the decomposition slows z3 down on sets read through sums, such as ER's, so it is asked for).
pub struct ChipSet {
    pub member: Option<Formula>,
    pub exact: Exact,
    pub period: u64,
    pub residues: bool,
}

impl ChipSet {
    /// The formula `f` over the boxes written on the boxes `x` (terms), reading `mod(box i, period)`
    /// as `r[i]` when the set reads residues and `r` is given.
    pub fn write(&self, f: &Formula, x: &[String], r: Option<&[String]>) -> String {
        let written = match r {
            Some(r) if self.residues => {
                let names: Vec<String> = x.iter().chain(r).cloned().collect();
                Arith::Int.formula(&f.with_residues(i128::from(self.period), x.len()), &names)
            }
            _ => Arith::Int.formula(f, x),
        };
        // Integer formulas have no `xor`, the one thing that has no integer term.
        written.unwrap_or_else(|| "false".into())
    }

    /// The membership of the boxes `x` (terms), with residues `r` (terms) or else `(mod x period)`;
    /// `false` for a set without a formula.
    pub fn of(&self, x: &[String], r: Option<&[String]>) -> String {
        match &self.member {
            Some(f) => self.write(f, x, r),
            None => "false".into(),
        }
    }

    /// The modulus the queries decompose every box by (`v = q * a + r`): the period when the set
    /// reads residues, else 0 (none).
    pub fn hint_period(&self) -> u64 {
        if self.residues {
            self.period
        } else {
            0
        }
    }

    /// The set as SMT-LIB: `(define-fun NAME ((x0 Int) ..) Bool ...)`.
    pub fn define(&self, name: &str, k: usize) -> String {
        let args: Vec<String> = (0..k).map(|i| format!("(x{i} Int)")).collect();
        format!(
            "(define-fun {name} ({}) Bool {})\n",
            args.join(" "),
            self.of(&xs(k), None)
        )
    }
}

/// A claim about a chip game, ready to prove.
pub struct ChipClaim {
    pub game: ChipGame,
    pub play: Play,
    pub kind: ChipKind,
    /// The registry id, or what the set is.
    pub source: String,
    pub set: ChipSet,
    /// [`ChipKind::Winning`]: the set its members move into (`define-fun target`).
    pub target: Option<ChipSet>,
    /// `Some(w)`: a bit-vector claim, for entries below 2^w ([`from_registry_bits`]).
    pub bits: Option<u32>,
    /// A redistribution game's set read from its P-totals T ([`totals::claim`]): the norm formula
    /// of (II) starts at least at T's threshold plus k, and (I) is first tried as the lemma
    /// `totals::lemma_i` (every member's total is in T), which implies it.
    pub totals: Option<totals::Totals>,
}

/// One query: its text (without the logic line and `check-sat`), what it states, the variables of
/// its counterexample and their meaning.
pub struct ChipQuery {
    pub condition: Condition,
    /// `I`, `II`, `IIa`, `IIb`, `III`, `C`.
    pub label: &'static str,
    pub text: String,
    pub vars: Vec<String>,
    /// True when the query has a quantifier (logic LIA, else QF_LIA, decided with [`QF_CHECK`]).
    pub quantified: bool,
    /// True for a bit-vector query (logic BV or QF_BV, plain `check-sat`).
    pub bv: bool,
    /// A comment: what the query states.
    pub states: String,
}

impl ChipQuery {
    /// The whole SMT-LIB2 script, as emitted: plain SMT-LIB 2 ending with `(check-sat)`, z3's own
    /// command ([`ChipQuery::check`]) only in a comment.
    pub fn script(&self, game: &str, play: Play) -> String {
        let z3 = match self.check() {
            "(check-sat)" => String::new(),
            own => format!(
                "{}{own} (its own command, not SMT-LIB 2)\n",
                crate::certificate::Z3_COMMENT
            ),
        };
        format!(
            "; {game}, {} play: {}\n; unsat proves condition ({}) for every box size\n(set-logic {})\n{}(check-sat)\n{z3}",
            play.name(),
            self.states,
            self.label,
            self.logic(),
            self.text,
        )
    }

    /// [`QF_CHECK`] for a quantifier-free linear query, `(check-sat-using qsat)` for a quantified
    /// bit-vector one, else `(check-sat)`.
    pub fn check(&self) -> &'static str {
        match (self.bv, self.quantified) {
            // z3's quantifier elimination decides the bit-vector (II) (its default times out on
            // ENTROPY(3) below 2^4).
            (true, true) => "(check-sat-using qsat)",
            (true, false) | (false, true) => "(check-sat)",
            (false, false) => QF_CHECK,
        }
    }

    /// The SMT-LIB logic of the query.
    pub fn logic(&self) -> &'static str {
        match (self.bv, self.quantified) {
            (true, true) => "BV",
            (true, false) => "QF_BV",
            (false, true) => "LIA",
            (false, false) => "QF_LIA",
        }
    }

    fn body(&self) -> String {
        format!("(set-logic {})\n{}", self.logic(), self.text)
    }
}

/// The conditions a claim is decided by.
pub(crate) fn conditions_of(c: &ChipClaim) -> Vec<Condition> {
    match (c.kind, c.play) {
        (ChipKind::PSet, _) => Condition::THEOREM.to_vec(),
        (ChipKind::Subset, Play::Normal) => vec![Condition::Closure],
        (ChipKind::Subset, Play::Misere) => vec![Condition::Closure, Condition::III],
        (ChipKind::Winning, _) => vec![Condition::II],
    }
}

/// The command that decides a quantifier-free query (z3's; other solvers get `(check-sat)`).
pub const QF_CHECK: &str = "(check-sat-using (then simplify solve-eqs qflia))";

fn describe_source(c: &ChipClaim) -> String {
    match c.kind {
        ChipKind::Winning => format!(
            "{} (its members are N-positions: each has a move into the all-odd set)",
            c.source
        ),
        _ => c.source.clone(),
    }
}

fn sorted(v: &[u64]) -> Pos {
    let mut p = v.to_vec();
    p.sort_unstable();
    p
}

impl From<ChipKind> for Says {
    fn from(k: ChipKind) -> Says {
        match k {
            ChipKind::PSet => Says::PSet,
            ChipKind::Subset => Says::Subset,
            ChipKind::Winning => Says::NPositions,
        }
    }
}

/// A chip claim's set: positions as multisets (sorted), membership by its exact reading (a set of
/// N-positions moving into `target`); the guard searches the positions of bounded total (Entropy:
/// bounded spread).
impl Claimed for ChipClaim {
    fn game(&self) -> &dyn Game {
        self.game.game.as_ref()
    }
    fn play(&self) -> Play {
        self.play
    }
    fn contains(&self, p: &[u64]) -> bool {
        (self.set.exact)(&sorted(p))
    }
    fn target_contains(&self, p: &[u64]) -> bool {
        match &self.target {
            Some(t) if self.kind == ChipKind::Winning => (t.exact)(&sorted(p)),
            _ => self.contains(p),
        }
    }
    fn space(&self) -> Space {
        match self.game.moves {
            Moves::Entropy => Space::ChipSpread { k: self.game.k },
            _ => Space::ChipTotals { k: self.game.k },
        }
    }
    fn position(&self, p: Pos, _option: bool) -> Pos {
        sorted(&p)
    }
    fn id(&self) -> String {
        self.game.id()
    }
    fn describe(&self) -> String {
        describe_source(self)
    }
}

/// Writes the certificate of the claim under `dir` ([`crate::certificate::chips::of_chips`]: the
/// queries the report records, or every query when there is no report, with `manifest.json`,
/// `README.md` and `check.sh`); returns the paths.
pub fn emit_chips(c: &ChipClaim, report: Option<&Report>, dir: &Path) -> Result<Vec<PathBuf>> {
    crate::certificate::chips::of_chips(c, report, None)?.write(dir)
}
