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
//! Every satisfiable answer is re-checked by nimlab's exact machinery (the game's own moves, and
//! membership by the registry entry's own `decide`); every "proved" passes an exact search on all
//! positions up to a total number of chips (Entropy: up to a spread), as the CN and SCN proofs do.
//!
//! Results that read binary digits (ET(3)'s 2-adic valuations, ET(4)'s halving, ENTROPY(3)'s
//! `4^n m`) are not sets of linear arithmetic: [`from_registry`] refuses them with a one-line reason,
//! and [`prove_chips_automata`] proves them for every box size with finite automata.

mod automata;

pub use automata::{
    automaton_claim, from_registry_automata, prove_chips_automata, ChipAutomataProof,
    CHIP_PROVED_BY_AUTOMATA,
};

use crate::check::{guard, recheck, Stated};
use crate::claimed::{report, Claimed, Says, Space};
use crate::report::{ConditionReport, QueryRecord, Report, SolverAnswer, Status};
use crate::solver::{Answer, Solver};
use nimlab_core::partition::Condition;
use nimlab_core::{Error, Game, Play, Pos, Result};
use nimlab_games::{EmptyTransfer, EntropyReduction, Redistribute};
use std::fmt::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub mod totals;

/// The registry results proved here for every box size, with the numbers of boxes k they are
/// proved for (the test `every_chip_result_listed_is_proved` in tests/chips.rs proves the k it
/// runs in CI, the ignored test `every_chip_result_listed_is_proved_for_every_k` all of them; the
/// times are in docs/findings.md).
pub const CHIP_PROVED: &[(&str, &[&str])] = &[
    (
        "ferguson-et-odd",
        &[
            "ET(2)", "ET(3)", "ET(4)", "ET(5)", "ET(6)", "ET(7)", "ET(8)",
        ],
    ),
    (
        "ferguson-et-two-even",
        &[
            "ET(2)", "ET(3)", "ET(4)", "ET(5)", "ET(6)", "ET(7)", "ET(8)",
        ],
    ),
    ("ferguson-et-k2-grundy", &["ET(2)"]),
    (
        "ferguson-eabo",
        &[
            "EABO(2)", "EABO(3)", "EABO(4)", "EABO(5)", "EABO(6)", "EABO(7)", "EABO(8)",
        ],
    ),
    (
        "ferguson-eabo-misere",
        &[
            "EABO(2)", "EABO(3)", "EABO(4)", "EABO(5)", "EABO(6)", "EABO(7)",
        ],
    ),
    (
        "ferguson-er",
        &["ER(2)", "ER(3)", "ER(4)", "ER(5)", "ER(6)"],
    ),
    (
        "ferguson-er-misere",
        &["ER(2)", "ER(3)", "ER(4)", "ER(5)", "ER(6)"],
    ),
    (
        "ferguson-ser",
        &["SER(2)", "SER(3)", "SER(4)", "SER(5)", "SER(6)"],
    ),
];

/// The games of [`CHIP_PROVED`] that the CI test proves (the others: the ignored test).
pub const CHIP_PROVED_IN_CI: &[&str] = &[
    "ET(2)", "ET(3)", "ET(4)", "EABO(2)", "EABO(3)", "EABO(4)", "ER(2)", "ER(3)", "ER(4)",
    "SER(2)", "SER(3)", "SER(4)",
];

/// The results that read binary digits, proved in bit-vectors for boxes below 2^w on their game
/// (evidence for all sizes, not a proof; the test `binary_results_are_proved_below_2_w` runs
/// smaller w, docs/findings.md gives the times of these). Both are also proved for every size by
/// automata ([`CHIP_PROVED_BY_AUTOMATA`]), which is what [`checked`] reports for them.
pub const CHIP_PROVED_BELOW: &[(&str, &str, u32)] = &[
    ("ferguson-et-k3", "ET(3)", 24),
    ("ferguson-entropy-k3", "ENTROPY(3)", 5),
];

/// What `nimlab theory` says of a chip result proved here: `None` when `id` is not one of them.
pub fn checked(id: &str) -> Option<(String, Vec<&'static str>)> {
    if let Some((_, game)) = CHIP_PROVED_BY_AUTOMATA.iter().find(|(i, _)| *i == id) {
        return Some(("proved for all sizes (automata)".into(), vec![*game]));
    }
    if let Some((_, game, w)) = CHIP_PROVED_BELOW.iter().find(|(i, _, _)| *i == id) {
        return Some((
            format!("proved below 2^{w} on {game}; checked on a box"),
            vec![*game],
        ));
    }
    let (_, games) = CHIP_PROVED.iter().find(|(i, _)| *i == id)?;
    let what = match id {
        "ferguson-et-odd" => " (its members are P-positions)",
        "ferguson-et-two-even" => " (its members are N-positions: each moves into the all-odd set)",
        "ferguson-et-k2-grundy" => {
            " (the P-set: both boxes odd; the Grundy values are checked on a box)"
        }
        "ferguson-er" | "ferguson-er-misere" => {
            " (the P-set; the norm set S(k) and x(n) through it)"
        }
        _ => "",
    };
    let text = if games.len() == 1 {
        format!("proved for all sizes{what}")
    } else {
        format!(
            "proved for all sizes on {}{what}; checked on a box for the other games",
            games.join(", ")
        )
    };
    Some((text, games.to_vec()))
}

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

    /// Every move shape of position `x` (terms), its parameters named with `tag`.
    fn shapes(&self, x: &[String], tag: &str) -> Vec<Shape> {
        let k = self.k;
        match &self.moves {
            Moves::Et | Moves::Entropy => {
                let mut out = Vec::new();
                for i in 0..k {
                    for j in 0..k {
                        if i != j {
                            out.push(self.pair(x, tag, i, j));
                        }
                    }
                }
                out
            }
            Moves::Redistribute(_) => self
                .kept_sets()
                .iter()
                .map(|kept| redistribute(x, tag, k, kept))
                .collect(),
        }
    }

    /// The move shapes up to a permutation of the boxes: boxes (0, 1), or the first s kept boxes.
    fn orbit_shapes(&self, x: &[String], tag: &str) -> Vec<Shape> {
        match &self.moves {
            Moves::Et | Moves::Entropy => vec![self.pair(x, tag, 0, 1)],
            Moves::Redistribute(sizes) => sizes
                .iter()
                .map(|&s| redistribute(x, tag, self.k, &(0..s).collect::<Vec<_>>()))
                .collect(),
        }
    }

    /// ET: empty box i, move t chips of box j into it. Entropy: move t chips from box i to box j.
    fn pair(&self, x: &[String], tag: &str, i: usize, j: usize) -> Shape {
        let t = format!("{tag}t");
        let mut y = x.to_vec();
        let valid = if self.moves == Moves::Et {
            y[i] = t.clone();
            y[j] = format!("(- {} {t})", x[j]);
            format!("(and (<= 1 {t}) (<= {t} (- {} 1)))", x[j])
        } else {
            y[i] = format!("(- {} {t})", x[i]);
            y[j] = format!("(+ {} {t})", x[j]);
            format!("(and (<= 1 {t}) (<= {t} (- {} {} 1)))", x[i], x[j])
        };
        Shape {
            params: vec![t],
            valid,
            y,
        }
    }

    /// Whether position `x` (terms) has a move.
    fn nonterminal(&self, x: &[String]) -> String {
        let k = self.k;
        let mut any = Vec::new();
        match &self.moves {
            Moves::Et => any.extend(x.iter().map(|v| format!("(>= {v} 2)"))),
            Moves::Entropy => {
                for i in 0..k {
                    for j in 0..k {
                        if i != j {
                            any.push(format!("(>= (- {} {}) 2)", x[i], x[j]));
                        }
                    }
                }
            }
            Moves::Redistribute(_) => {
                for kept in self.kept_sets() {
                    any.push(format!("(>= {} {k})", sum(x, &kept)));
                }
            }
        }
        or(&any)
    }
}

/// The largest number of boxes the prover takes.
pub const MAX_PROVE_BOXES: usize = 12;

/// One kind of move: parameters (existential in a move, universal in "every move"), their
/// constraints, and the option's boxes as terms.
struct Shape {
    params: Vec<String>,
    valid: String,
    y: Vec<String>,
}

fn redistribute(x: &[String], tag: &str, k: usize, kept: &[usize]) -> Shape {
    let params: Vec<String> = (0..k).map(|l| format!("{tag}y{l}")).collect();
    let mut valid: Vec<String> = params.iter().map(|p| format!("(>= {p} 1)")).collect();
    valid.push(format!(
        "(= {} {})",
        sum(&params, &(0..k).collect::<Vec<_>>()),
        sum(x, kept)
    ));
    Shape {
        y: params.clone(),
        params,
        valid: and(&valid),
    }
}

fn sum(x: &[String], which: &[usize]) -> String {
    match which {
        [] => "0".into(),
        [i] => x[*i].clone(),
        _ => format!(
            "(+ {})",
            which
                .iter()
                .map(|&i| x[i].as_str())
                .collect::<Vec<_>>()
                .join(" ")
        ),
    }
}

fn and(v: &[String]) -> String {
    match v {
        [] => "true".into(),
        [one] => one.clone(),
        _ => format!("(and {})", v.join(" ")),
    }
}

fn or(v: &[String]) -> String {
    match v {
        [] => "false".into(),
        [one] => one.clone(),
        _ => format!("(or {})", v.join(" ")),
    }
}

/// `(member t0 .. t(k-1))`.
fn call(f: &str, y: &[String]) -> String {
    format!("({f} {})", y.join(" "))
}

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

/// A set of positions of a chip game: its SMT membership (`helpers`, `define-fun`s it uses, and
/// `body`, a formula in the boxes `{x0}` .. and optionally their residues `{r0}` .. modulo
/// `period`), its exact membership, and `period`: a modulus of its reading (the witness of (II) is
/// lifted by it, and the queries give z3 each box as `period * a + r`).
pub struct ChipSet {
    pub helpers: String,
    pub body: String,
    pub exact: Exact,
    pub period: u64,
}

impl ChipSet {
    /// The membership of the boxes `x` (terms), with residues `r` (terms) or else `(mod x period)`.
    pub fn of(&self, x: &[String], r: Option<&[String]>) -> String {
        let mut out = self.body.clone();
        for (i, v) in x.iter().enumerate().rev() {
            let res = match r {
                Some(r) => r[i].clone(),
                None => format!("(mod {v} {})", self.period),
            };
            out = out
                .replace(&format!("{{x{i}}}"), v)
                .replace(&format!("{{r{i}}}"), &res);
        }
        out
    }

    /// The modulus the queries decompose every box by (`v = q * a + r`): the period when the body
    /// reads residues `{r0}` .., else 0 (none: the decomposition slows z3 down on sets read
    /// through sums, such as ER's).
    pub fn hint_period(&self) -> u64 {
        if self.body.contains("{r") {
            self.period
        } else {
            0
        }
    }

    /// The set as SMT-LIB: its helpers and `(define-fun NAME ((x0 Int) ..) Bool ...)`.
    pub fn define(&self, name: &str, k: usize) -> String {
        let args: Vec<String> = (0..k).map(|i| format!("(x{i} Int)")).collect();
        format!(
            "{}(define-fun {name} ({}) Bool {})\n",
            self.helpers,
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

/// The template boxes `{x0}` .. of a membership body.
fn tx(k: usize) -> Vec<String> {
    (0..k).map(|i| format!("{{x{i}}}")).collect()
}

fn xs(k: usize) -> Vec<String> {
    (0..k).map(|i| format!("x{i}")).collect()
}

/// The registry entry's exact membership: its `decide` (P-set: `is_p`; a subset: decided and P;
/// winning: decided and N).
fn registry_exact(id: &'static str, game: &ChipGame, kind: ChipKind) -> Result<Exact> {
    let t = nimlab_theory::by_id(id)
        .ok_or_else(|| Error::Unsupported(format!("no registry result {id}")))?;
    let g = nimlab_games::registry::parse_game(&game.id())?;
    Ok(Box::new(move |p: &[u64]| {
        let v = t.decide(g.as_ref(), p);
        match kind {
            ChipKind::PSet => v.is_some_and(|v| v.is_p),
            ChipKind::Subset => v.is_some_and(|v| v.is_p),
            ChipKind::Winning => v.is_some_and(|v| !v.is_p),
        }
    }))
}

/// The least common multiple of 1..=n.
fn lcm_upto(n: u64) -> u64 {
    fn gcd(a: u64, b: u64) -> u64 {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    (1..=n).fold(1, |l, i| l / gcd(l, i) * i)
}

/// The results with a linear statement: every box odd.
fn all_odd(k: usize) -> String {
    and(&tx(k)
        .iter()
        .map(|v| format!("(= (mod {v} 2) 1)"))
        .collect::<Vec<_>>())
}

/// The registry result `id` on `game`, as a claim (refused in one line where it does not apply or is
/// not linear).
pub fn from_registry(id: &str, game_text: &str) -> Result<ChipClaim> {
    let game = ChipGame::parse(game_text)?.ok_or_else(|| {
        Error::Unsupported(format!("{game_text} is not one of Ferguson's chip games"))
    })?;
    let t = nimlab_theory::by_id(id)
        .ok_or_else(|| Error::Unsupported(format!("no result {id} (nimlab theory lists them)")))?;
    let id: &'static str = t.id();
    if !t.covers(game.game.as_ref()) {
        return Err(Error::Unsupported(format!(
            "{id} is not about {} (it covers {})",
            game.id(),
            t.games()
        )));
    }
    let k = game.k;
    let kk = k as u64;
    let xs = tx(k);
    let n = sum(&xs, &(0..k).collect::<Vec<_>>());
    let (kind, body, helpers, period) = match id {
        "ferguson-et-odd" => (ChipKind::Subset, all_odd(k), String::new(), 2),
        "ferguson-et-k2-grundy" => (ChipKind::PSet, all_odd(k), String::new(), 2),
        "ferguson-et-two-even" => {
            let evens: Vec<String> = xs
                .iter()
                .map(|v| format!("(ite (= (mod {v} 2) 0) 1 0)"))
                .collect();
            let count = sum(&evens, &(0..k).collect::<Vec<_>>());
            (
                ChipKind::Winning,
                format!("(and (<= 1 {count}) (<= {count} 2))"),
                String::new(),
                2,
            )
        }
        "ferguson-eabo" => {
            let m = kk * (kk - 1);
            let body = and(&xs
                .iter()
                .enumerate()
                .map(|(i, _)| format!("(<= 1 {{r{i}}} {})", kk - 1))
                .collect::<Vec<_>>());
            (ChipKind::PSet, body, String::new(), m)
        }
        "ferguson-eabo-misere" => {
            let q = (kk - 1) * (2 * kk - 1);
            let mut parts: Vec<String> = xs
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    format!(
                        "(or (<= 1 {v} {}) (and (>= {v} {kk}) (<= {kk} {{r{i}}} {})))",
                        kk - 1,
                        2 * kk - 2
                    )
                })
                .collect();
            parts.push(or(&xs
                .iter()
                .map(|v| format!("(>= {v} {kk})"))
                .collect::<Vec<_>>()));
            (ChipKind::PSet, and(&parts), String::new(), q)
        }
        "ferguson-er" => {
            let f = nimlab_theory::ferguson::er_f(kk);
            let mut r = Vec::new();
            for j in 1..=f {
                let range = if j < f {
                    format!("(<= {} n) (< n {})", j * kk, (j + 1) * kk)
                } else {
                    format!("(>= n {})", j * kk)
                };
                r.push(format!(
                    "(and {range} (= (mod n {}) {}))",
                    j + 1,
                    (j * (kk - 1)) % (j + 1)
                ));
            }
            let helpers = format!(
                "(define-fun inS ((n Int)) Bool (and (>= n {kk}) (not {})))\n",
                or(&r)
            );
            let body = and(&xs
                .iter()
                .map(|v| format!("(not (inS (- {n} {v})))"))
                .collect::<Vec<_>>());
            (ChipKind::PSet, body, helpers, lcm_upto(f + 1))
        }
        "ferguson-er-misere" => {
            let norms = if k % 2 == 1 {
                format!("(and (> n {kk}) (= (mod (- n {}) 2) 0))", kk - 1)
            } else {
                let small = format!("(and (< {kk} n) (< n {}) (= (mod n 2) 1))", 2 * kk);
                let three = |from: u64| {
                    format!(
                        "(or (= (mod (- n {from}) 3) 0) (= (mod (- n {from}) 3) 2))"
                    )
                };
                let large = if k % 6 == 4 {
                    format!(
                        "(or (and (<= {} n) (< n {}) {}) (and (>= n {}) (not (= (mod (- n {}) 4) 1))))",
                        2 * kk,
                        3 * kk,
                        three(2 * kk),
                        3 * kk,
                        3 * kk
                    )
                } else {
                    format!("(and (>= n {}) {})", 2 * kk, three(2 * kk))
                };
                format!("(or {small} {large})")
            };
            let helpers = format!("(define-fun inSm ((n Int)) Bool {norms})\n");
            let mut parts = vec![format!(
                "(not {})",
                and(&xs.iter().map(|v| format!("(= {v} 1)")).collect::<Vec<_>>())
            )];
            parts.extend(xs.iter().map(|v| format!("(not (inSm (- {n} {v})))")));
            (ChipKind::PSet, and(&parts), helpers, 12)
        }
        "ferguson-ser" => {
            // Sums of the boxes' residues mod k (the same residues as the sums of the boxes).
            let rs: Vec<String> = (0..k).map(|i| format!("{{r{i}}}")).collect();
            let all: Vec<usize> = (0..k).collect();
            let mut parts = vec![format!("(= (mod {} {kk}) 0)", sum(&rs, &all))];
            for mask in 1u32..(1u32 << k) {
                let s: Vec<usize> = (0..k).filter(|i| mask & (1 << i) != 0).collect();
                if s.len() < k {
                    parts.push(format!("(not (= (mod {} {kk}) 0))", sum(&rs, &s)));
                }
            }
            (ChipKind::PSet, and(&parts), String::new(), kk)
        }
        "ferguson-et-k3" | "ferguson-et-k4" | "ferguson-entropy-k3" | "ferguson-entropy-k3-misere" => {
            return Err(Error::Unsupported(format!(
                "{id} reads the boxes' binary digits (2-adic valuations, halving, 4^n m): its set is not definable in linear integer arithmetic (not ultimately periodic), so SMT cannot prove it for every size; --automata proves it for every size with finite automata{}",
                if ["ferguson-et-k3", "ferguson-entropy-k3"].contains(&id) {
                    ", and --bits W in bit-vectors for boxes below 2^W"
                } else {
                    ""
                }
            )))
        }
        _ => {
            return Err(Error::Unsupported(format!(
                "{id} is not a result about Ferguson's chip games"
            )))
        }
    };
    let exact = registry_exact(id, &game, kind)?;
    let set = ChipSet {
        helpers,
        body,
        exact,
        period,
    };
    let target = if kind == ChipKind::Winning {
        Some(ChipSet {
            helpers: String::new(),
            body: all_odd(k),
            exact: Box::new(|p: &[u64]| p.iter().all(|&x| x % 2 == 1)),
            period: 2,
        })
    } else {
        None
    };
    Ok(ChipClaim {
        game,
        play: t.play(),
        kind,
        source: id.to_string(),
        set,
        target,
        bits: None,
        totals: None,
    })
}

/// The results that read binary digits, in bit-vectors of `w` bits: proved (or not) for every
/// position whose boxes are below 2^w, never for all sizes. ET(3) (P iff the three boxes have the
/// same lowest 1 bit, `x & -x`) and ENTROPY(3) normal play (two boxes equal, the third differing
/// from them by 0 or by a number whose lowest 1 bit is an even power of 2).
pub fn from_registry_bits(id: &str, game_text: &str, w: u32) -> Result<ChipClaim> {
    if !(2..=24).contains(&w) {
        return Err(Error::Unsupported(format!(
            "--bits {w}: the chip games' bit-vector proofs take W from 2 to 24"
        )));
    }
    let game = ChipGame::parse(game_text)?.ok_or_else(|| {
        Error::Unsupported(format!("{game_text} is not one of Ferguson's chip games"))
    })?;
    let t = nimlab_theory::by_id(id)
        .ok_or_else(|| Error::Unsupported(format!("no result {id} (nimlab theory lists them)")))?;
    let id: &'static str = t.id();
    if !["ferguson-et-k3", "ferguson-entropy-k3"].contains(&id) {
        return Err(Error::Unsupported(format!(
            "--bits is for the results that read binary digits on their own game (ferguson-et-k3 on ET(3), ferguson-entropy-k3 on ENTROPY(3)); {id} is proved without it"
        )));
    }
    if !t.covers(game.game.as_ref()) {
        return Err(Error::Unsupported(format!(
            "{id} is not about {} (it covers {})",
            game.id(),
            t.games()
        )));
    }
    registry_p_set(id, game, t.play(), Some(w))
}

/// The registry result `id` as the P-set of `game` in `play`, with no SMT body: for the provers that
/// build the set themselves (bit-vectors below 2^w, automata); membership for the re-checks is the
/// entry's own `decide`.
fn registry_p_set(
    id: &'static str,
    game: ChipGame,
    play: Play,
    bits: Option<u32>,
) -> Result<ChipClaim> {
    let exact = registry_exact(id, &game, ChipKind::PSet)?;
    Ok(ChipClaim {
        game,
        play,
        kind: ChipKind::PSet,
        source: id.to_string(),
        set: ChipSet {
            helpers: String::new(),
            body: String::new(),
            exact,
            period: 1,
        },
        target: None,
        bits,
        totals: None,
    })
}

/// The bit-vector queries of (I), (II), (III) for ET(3) and ENTROPY(3) ([`from_registry_bits`]):
/// boxes of `w + 2` bits below 2^w, so that no difference or sum of the moves wraps.
fn bv_queries(c: &ChipClaim, w: u32, cond: Condition) -> Vec<ChipQuery> {
    let width = w + 2;
    let lit = |n: u64| format!("(_ bv{n} {width})");
    let entropy = c.game.moves == Moves::Entropy;
    let low = |v: &str| format!("(bvand {v} (bvneg {v}))");
    let x: Vec<String> = (0..3).map(|i| format!("x{i}")).collect();
    let member = if !c.set.body.is_empty() {
        // A set given in bit-vector syntax over `{x0}` .. (the tests' wrong variants).
        c.set.of(&x, None)
    } else if entropy {
        // Two boxes equal, and the third differs by 0 or by 4^n m, m odd.
        let mut cases = Vec::new();
        for (a, b, d) in [(0, 1, 2), (0, 2, 1), (1, 2, 0)] {
            let diff = format!("(ite (bvuge x{d} x{a}) (bvsub x{d} x{a}) (bvsub x{a} x{d}))");
            let even_power = (0..width).step_by(2).fold(0u64, |m, i| m | (1u64 << i));
            cases.push(format!(
                "(and (= x{a} x{b}) (let ((d {diff})) (or (= d {}) (not (= (bvand (bvand d (bvneg d)) {}) {})))))",
                lit(0),
                lit(even_power),
                lit(0)
            ));
        }
        or(&cases)
    } else {
        format!(
            "(and (= {} {}) (= {} {}))",
            low("x0"),
            low("x1"),
            low("x1"),
            low("x2")
        )
    };
    let args: Vec<String> = (0..3)
        .map(|i| format!("(x{i} (_ BitVec {width}))"))
        .collect();
    let head = format!("(define-fun member ({}) Bool {member})\n", args.join(" "));
    let declare = |out: &mut String, names: &[String]| {
        for v in names {
            let least = if entropy { 0 } else { 1 };
            let _ = writeln!(
                out,
                "(declare-const {v} (_ BitVec {width}))\n(assert (bvule {} {v}))\n(assert (bvult {v} {}))",
                lit(least),
                lit(1u64 << w)
            );
        }
    };
    // The move (i, j) with parameter t: validity and the option.
    let shape = |x: &[String], t: &str, i: usize, j: usize| -> (String, Vec<String>) {
        let mut y = x.to_vec();
        if entropy {
            y[i] = format!("(bvsub {} {t})", x[i]);
            y[j] = format!("(bvadd {} {t})", x[j]);
            (
                format!(
                    "(and (bvuge {} (bvadd {} {})) (bvule {} {t}) (bvule {t} (bvsub (bvsub {} {}) {})) (bvult {t} {}))",
                    x[i], x[j], lit(2), lit(1), x[i], x[j], lit(1), lit(1u64 << w)
                ),
                y,
            )
        } else {
            y[i] = t.to_string();
            y[j] = format!("(bvsub {} {t})", x[j]);
            (
                format!("(and (bvule {} {t}) (bvult {t} {}))", lit(1), x[j]),
                y,
            )
        }
    };
    let nonterminal = |x: &[String]| -> String {
        let mut any = Vec::new();
        for i in 0..3 {
            if entropy {
                for j in 0..3 {
                    if i != j {
                        any.push(format!("(bvuge {} (bvadd {} {}))", x[i], x[j], lit(2)));
                    }
                }
            } else {
                any.push(format!("(bvuge {} {})", x[i], lit(2)));
            }
        }
        or(&any)
    };
    let mut text = head;
    declare(&mut text, &x);
    let q =
        |label: &'static str, text: String, vars: Vec<String>, quantified: bool, states: &str| {
            ChipQuery {
                condition: cond,
                label,
                text,
                vars,
                quantified,
                bv: true,
                states: format!("{states} (boxes below 2^{w})"),
            }
        };
    match cond {
        Condition::I => {
            let _ = writeln!(text, "(declare-const t (_ BitVec {width}))");
            let (valid, y) = shape(&x, "t", 0, 1);
            let ys: Vec<String> = (0..3).map(|l| format!("y{l}")).collect();
            for (v, term) in ys.iter().zip(&y) {
                let _ = writeln!(
                    text,
                    "(declare-const {v} (_ BitVec {width}))\n(assert (= {v} {term}))"
                );
            }
            let _ = writeln!(
                text,
                "(assert {valid})\n(assert (member x0 x1 x2))\n(assert (member y0 y1 y2))"
            );
            vec![q(
                "I",
                text,
                x.iter().chain(&ys).cloned().collect(),
                false,
                "a member x moves to a member y",
            )]
        }
        Condition::II => {
            let _ = writeln!(
                text,
                "(assert (not (member x0 x1 x2)))\n(assert {})",
                nonterminal(&x)
            );
            for i in 0..3 {
                for j in 0..3 {
                    if i != j {
                        let (valid, y) = shape(&x, "t", i, j);
                        let _ = writeln!(
                            text,
                            "(assert (forall ((t (_ BitVec {width}))) (=> {valid} (not (member {})))))",
                            y.join(" ")
                        );
                    }
                }
            }
            vec![q(
                "II",
                text,
                x,
                true,
                "a non-terminal x outside the set has no move into it",
            )]
        }
        Condition::III => {
            let side = if c.play == Play::Normal {
                "(not (member x0 x1 x2))"
            } else {
                "(member x0 x1 x2)"
            };
            let _ = writeln!(text, "(assert (not {}))\n(assert {side})", nonterminal(&x));
            vec![q(
                "III",
                text,
                x,
                false,
                "a terminal x on the wrong side of the set",
            )]
        }
        _ => Vec::new(),
    }
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
    /// The whole SMT-LIB2 script, as emitted.
    pub fn script(&self, game: &str, play: Play) -> String {
        format!(
            "; {game}, {} play: {}\n; unsat proves condition ({}) for every box size\n(set-logic {})\n{}{}\n",
            play.name(),
            self.states,
            self.label,
            self.logic(),
            self.text,
            self.check()
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

    fn logic(&self) -> &'static str {
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
fn conditions_of(c: &ChipClaim) -> Vec<Condition> {
    match (c.kind, c.play) {
        (ChipKind::PSet, _) => Condition::THEOREM.to_vec(),
        (ChipKind::Subset, Play::Normal) => vec![Condition::Closure],
        (ChipKind::Subset, Play::Misere) => vec![Condition::Closure, Condition::III],
        (ChipKind::Winning, _) => vec![Condition::II],
    }
}

/// The declarations of position `x` (boxes >= the least content).
fn declare_x(c: &ChipClaim, out: &mut String, hints: bool) -> Vec<String> {
    let x = xs(c.game.k);
    for v in &x {
        let _ = writeln!(
            out,
            "(declare-const {v} Int)\n(assert (>= {v} {}))",
            c.game.least()
        );
        if hints {
            hint(v, c.set.hint_period(), out);
        }
    }
    x
}

/// `v = q * a + r` with `a >= 0` and `0 <= r < q` for fresh `a`, `r`: true of every integer
/// `v >= 0` (every box and total it is given, by the query's other constraints), so it changes no
/// answer; it lets z3's `solve-eqs` rewrite sums of boxes into sums of residues, which decides the
/// queries about sets read modulo q at once (without it, z3 and cvc5 time out on EABO(4) misère).
fn hint(v: &str, q: u64, out: &mut String) {
    if q > 1 {
        let _ = writeln!(
            out,
            "(declare-const {v}_a Int)\n(declare-const {v}_r Int)\n(assert (= {v} (+ (* {q} {v}_a) {v}_r)))\n(assert (>= {v}_a 0))\n(assert (and (<= 0 {v}_r) (< {v}_r {q})))"
        );
    }
}

/// The command that decides a quantifier-free query (z3's; other solvers get `(check-sat)`).
pub const QF_CHECK: &str = "(check-sat-using (then simplify solve-eqs qflia))";

/// Declares the existential parameters of `s` and the option's boxes as variables `name0..`.
fn declare_move(s: &Shape, name: &str, out: &mut String, hints: Option<u64>) -> Vec<String> {
    for p in &s.params {
        let _ = writeln!(out, "(declare-const {p} Int)");
    }
    let _ = writeln!(out, "(assert {})", s.valid);
    let y: Vec<String> = (0..s.y.len()).map(|l| format!("{name}{l}")).collect();
    for (v, t) in y.iter().zip(&s.y) {
        let _ = writeln!(out, "(declare-const {v} Int)\n(assert (= {v} {t}))");
        if let Some(q) = hints {
            hint(v, q, out);
        }
    }
    y
}

/// "Every move of `x` leaves `set`" (one universal quantifier per shape).
fn stuck(c: &ChipClaim, x: &[String], tag: &str, set: &str) -> String {
    let all: Vec<String> = c
        .game
        .shapes(x, tag)
        .iter()
        .map(|s| {
            let vars: Vec<String> = s.params.iter().map(|p| format!("({p} Int)")).collect();
            format!(
                "(forall ({}) (=> {} (not {})))",
                vars.join(" "),
                s.valid,
                call(set, &s.y)
            )
        })
        .collect();
    and(&all)
}

/// The norm formula and witness of (II) for a redistribution game: totals n for which a member of
/// total n was found (below the threshold one by one, above it by residue mod the period, the
/// largest box lifted by multiples of the period).
struct Norms {
    threshold: u64,
    period: u64,
    small: Vec<(u64, Pos)>,
    residues: Vec<(u64, Pos)>,
}

/// Most partitions of one total searched for a member (the witnesses of (II)).
const WITNESS_SEARCH_CAP: u64 = 200_000;

fn norms(c: &ChipClaim) -> Result<Norms> {
    let k = c.game.k;
    let kk = k as u64;
    let q = c.set.period.max(1);
    let f = nimlab_theory::ferguson::er_f(kk);
    let from = c
        .totals
        .as_ref()
        .map_or(0, |t| t.threshold.saturating_add(kk));
    let threshold = (kk * (f + 1).max(3)).max(from);
    let exact = &c.set.exact;
    let find = |n: u64, lift: bool| -> Option<Pos> {
        let mut found = None;
        // A total with no member among its first partitions is left out of phi (IIb then says
        // whether that matters), so that many boxes never make this search endless.
        let mut left = WITNESS_SEARCH_CAP;
        let _ = nimlab_games::chip::partitions(n, k, 1, &mut |y| {
            left -= 1;
            if left == 0 {
                return ControlFlow::Break(());
            }
            let ok = exact(y) && {
                let mut z = y.to_vec();
                if let Some(last) = z.last_mut() {
                    *last += q;
                }
                !lift || exact(&z)
            };
            if ok {
                found = Some(y.to_vec());
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        found
    };
    let mut small = Vec::new();
    for n in kk..threshold {
        nimlab_core::interrupt::check()?;
        if let Some(y) = find(n, false) {
            small.push((n, y));
        }
    }
    let mut residues = Vec::new();
    for r in 0..q {
        nimlab_core::interrupt::check()?;
        if let Some(y) = find(threshold + r, true) {
            residues.push((r, y));
        }
    }
    Ok(Norms {
        threshold,
        period: q,
        small,
        residues,
    })
}

impl Norms {
    /// `(define-fun phi ((n Int)) Bool ...)` and `(define-fun w_l ((n Int)) Int ...)`.
    fn define(&self, k: usize) -> String {
        let (t, q) = (self.threshold, self.period);
        let mut cases: Vec<String> = self
            .small
            .iter()
            .map(|(n, _)| format!("(= n {n})"))
            .collect();
        let res: Vec<String> = self
            .residues
            .iter()
            .map(|(r, _)| format!("(= (mod (- n {t}) {q}) {r})"))
            .collect();
        cases.push(format!("(and (>= n {t}) {})", or(&res)));
        let mut out = format!("(define-fun phi ((n Int)) Bool {})\n", or(&cases));
        for l in 0..k {
            let mut term = "1".to_string();
            for (r, y) in self.residues.iter().rev() {
                let v = if l == k - 1 {
                    format!("(+ {} (- n {}))", y[l], t + r)
                } else {
                    y[l].to_string()
                };
                term = format!("(ite (= (mod (- n {t}) {q}) {r}) {v} {term})");
            }
            term = format!("(ite (>= n {t}) {term} 1)");
            for (n, y) in self.small.iter().rev() {
                term = format!("(ite (= n {n}) {} {term})", y[l]);
            }
            let _ = writeln!(out, "(define-fun w{l} ((n Int)) Int {term})");
        }
        out
    }
}

/// Every query of condition `cond` for claim `c`.
pub fn chip_queries(c: &ChipClaim, cond: Condition) -> Result<Vec<ChipQuery>> {
    if let Some(w) = c.bits {
        return Ok(bv_queries(c, w, cond));
    }
    let k = c.game.k;
    let head = || {
        let mut s = c.set.define("member", k);
        if let Some(t) = &c.target {
            s.push_str(&t.define("target", k));
        }
        s
    };
    // Membership with the residues the hints declared (`v_r`), when there are.
    let hinted = |y: &[String]| -> String {
        if c.set.hint_period() > 1 {
            let r: Vec<String> = y.iter().map(|v| format!("{v}_r")).collect();
            c.set.of(y, Some(&r))
        } else {
            call("member", y)
        }
    };
    let mut out = Vec::new();
    match cond {
        Condition::I => {
            for (i, shape) in c.game.orbit_shapes(&xs(k), "m").iter().enumerate() {
                let mut text = head();
                let x = declare_x(c, &mut text, true);
                let y = declare_move(shape, "y", &mut text, Some(c.set.hint_period()));
                let _ = writeln!(text, "(assert {})\n(assert {})", hinted(&x), hinted(&y));
                out.push(ChipQuery {
                    condition: cond,
                    label: "I",
                    vars: x.into_iter().chain(y).collect(),
                    quantified: false,
                    bv: false,
                    states: format!("a member x moves to a member y (moves of kind {i}, up to a permutation of the boxes)"),
                    text,
                });
            }
        }
        Condition::II if c.game.is_redistribute() && c.kind == ChipKind::PSet => {
            let nm = norms(c)?;
            let mut text = head();
            text.push_str(&nm.define(k));
            text.push_str("(declare-const n Int)\n(assert (phi n))\n");
            hint("n", c.set.hint_period(), &mut text);
            let w: Vec<String> = (0..k).map(|l| format!("(w{l} n)")).collect();
            let mut ok: Vec<String> = w.iter().map(|v| format!("(>= {v} 1)")).collect();
            ok.push(format!("(= {} n)", sum(&w, &(0..k).collect::<Vec<_>>())));
            ok.push(call("member", &w));
            let _ = writeln!(text, "(assert (not {}))", and(&ok));
            out.push(ChipQuery {
                condition: cond,
                label: "IIa",
                vars: vec!["n".into()],
                quantified: false,
                bv: false,
                states: "a total n with phi(n) whose witness w(n) is not a member of total n"
                    .into(),
                text,
            });
            let mut text = head();
            text.push_str(&nm.define(k));
            let x = declare_x(c, &mut text, true);
            let _ = writeln!(
                text,
                "(assert (not {}))\n(assert {})",
                hinted(&x),
                c.game.nonterminal(&x)
            );
            for kept in c.game.kept_sets() {
                let _ = writeln!(text, "(assert (not (phi {})))", sum(&x, &kept));
            }
            out.push(ChipQuery {
                condition: cond,
                label: "IIb",
                vars: x,
                quantified: false,
                bv: false,
                states: "a non-terminal x outside the set keeps no total n with phi(n)".into(),
                text,
            });
        }
        Condition::II => {
            // Every non-member (Winning: every member) has a move into the set (the target).
            let (from, into) = match c.kind {
                ChipKind::Winning => ("member", "target"),
                _ => ("member", "member"),
            };
            let mut text = head();
            let x = declare_x(c, &mut text, false);
            if c.kind == ChipKind::Winning {
                let _ = writeln!(text, "(assert {})", call(from, &x));
            } else {
                let _ = writeln!(text, "(assert (not {}))", call(from, &x));
            }
            let _ = writeln!(
                text,
                "(assert {})\n(assert {})",
                c.game.nonterminal(&x),
                stuck(c, &x, "u", into)
            );
            if c.game.is_redistribute() {
                return Err(Error::Unsupported(
                    "a winning-move claim about a redistribution game".into(),
                ));
            }
            out.push(ChipQuery {
                condition: cond,
                label: "II",
                vars: x,
                quantified: true,
                bv: false,
                states: if c.kind == ChipKind::Winning {
                    "a member x has no move into the target set".into()
                } else {
                    "a non-terminal x outside the set has no move into it".into()
                },
                text,
            });
        }
        Condition::III => {
            let mut text = head();
            let x = declare_x(c, &mut text, true);
            let m = hinted(&x);
            let side = if c.play == Play::Normal {
                format!("(not {m})")
            } else {
                m
            };
            let _ = writeln!(
                text,
                "(assert (not {}))\n(assert {side})",
                c.game.nonterminal(&x)
            );
            out.push(ChipQuery {
                condition: cond,
                label: "III",
                vars: x,
                quantified: false,
                bv: false,
                states: format!(
                    "a terminal x {} the set",
                    if c.play == Play::Normal {
                        "outside"
                    } else {
                        "inside"
                    }
                ),
                text,
            });
        }
        Condition::Closure => {
            for (i, shape) in c.game.orbit_shapes(&xs(k), "m").iter().enumerate() {
                let mut text = head();
                let x = declare_x(c, &mut text, false);
                let y = declare_move(shape, "y", &mut text, None);
                let _ = writeln!(text, "(assert {})", call("member", &x));
                if c.play == Play::Misere {
                    let _ = writeln!(text, "(assert {})", c.game.nonterminal(&y));
                }
                let _ = writeln!(text, "(assert {})", stuck(c, &y, "u", "member"));
                out.push(ChipQuery {
                    condition: cond,
                    label: "C",
                    vars: x.into_iter().chain(y).collect(),
                    quantified: true,
                    bv: false,
                    states: format!("a member x moves to y (moves of kind {i}, up to a permutation) from which no move returns into the set"),
                    text,
                });
            }
        }
        Condition::Search => {}
    }
    Ok(out)
}

/// Proves the claim with every solver of `solvers` (each query holds only when each answers unsat).
pub fn prove_chips(c: &ChipClaim, solvers: &[Solver]) -> Result<Report> {
    if solvers.is_empty() {
        return Err(Error::Unsupported("no SMT solver given".into()));
    }
    let start = Instant::now();
    let mut conditions = Vec::new();
    for cond in conditions_of(c) {
        conditions.push(condition(c, cond, solvers)?);
    }
    let mut versions = Vec::new();
    for s in solvers {
        versions.push((s.name(), s.version()?));
    }
    let mut r = report(
        c,
        c.kind.into(),
        "smt",
        c.bits,
        conditions,
        start.elapsed().as_secs_f64(),
    );
    r.solvers = versions;
    guard(c, c.kind.into(), r)
}

fn describe_source(c: &ChipClaim) -> String {
    match c.kind {
        ChipKind::Winning => format!(
            "{} (its members are N-positions: each has a move into the all-odd set)",
            c.source
        ),
        _ => c.source.clone(),
    }
}

fn condition(c: &ChipClaim, cond: Condition, solvers: &[Solver]) -> Result<ConditionReport> {
    let mut report = ConditionReport {
        condition: cond,
        status: Status::Proved,
        seconds: 0.0,
        counterexample: None,
        reason: None,
        queries: Vec::new(),
    };
    let mut queries = chip_queries(c, cond)?;
    if cond == Condition::I && c.totals.is_some() {
        queries.insert(0, totals::lemma_i(c));
    }
    for (i, q) in queries.iter().enumerate() {
        if q.label == "Ia" {
            // The lemma that implies (I): when every solver answers unsat, (I) is proved; any
            // other answer leaves (I) to its own queries.
            let mut record = QueryRecord {
                file: file_name(q, i),
                answers: Vec::new(),
            };
            let mut all_unsat = true;
            for solver in solvers {
                let (answer, took) = solver.check_with(&q.body(), q.check(), &q.vars)?;
                report.seconds += took.as_secs_f64();
                all_unsat &= answer == Answer::Unsat;
                record.answers.push(SolverAnswer {
                    solver: solver.name(),
                    answer: answer.word(),
                    reason: None,
                    seconds: took.as_secs_f64(),
                });
            }
            report.queries.push(record);
            if all_unsat {
                return Ok(report);
            }
            continue;
        }
        let mut record = QueryRecord {
            file: file_name(q, i),
            answers: Vec::new(),
        };
        let mut reasons = Vec::new();
        for solver in solvers {
            let (answer, took) = solver.check_with(&q.body(), q.check(), &q.vars)?;
            report.seconds += took.as_secs_f64();
            record.answers.push(SolverAnswer {
                solver: solver.name(),
                answer: answer.word(),
                reason: match &answer {
                    Answer::Unknown(why) => Some(why.clone()),
                    _ => None,
                },
                seconds: took.as_secs_f64(),
            });
            match answer {
                Answer::Unsat => {}
                Answer::Unknown(why) => {
                    reasons.push(format!("{}: {why} (query {})", solver.name(), q.label))
                }
                Answer::Sat(values) => match recheck_model(c, q, &values)? {
                    Ok(cx) => {
                        report.status = Status::Refuted;
                        report.counterexample = Some(cx);
                        report.queries.push(record);
                        return Ok(report);
                    }
                    Err(why) => reasons.push(why),
                },
            }
        }
        report.queries.push(record);
        if !reasons.is_empty() {
            report.status = Status::Unknown;
            report.reason = Some(reasons.join("; "));
            return Ok(report);
        }
    }
    Ok(report)
}

fn file_name(q: &ChipQuery, i: usize) -> String {
    format!("{}-{i}.smt2", q.label)
}

/// A model of query `q` re-checked ([`recheck`]); a model of IIa is no counterexample: the witness
/// of the norm formula of (II) fails, so (II) is not decided.
fn recheck_model(
    c: &ChipClaim,
    q: &ChipQuery,
    values: &[i128],
) -> Result<std::result::Result<crate::report::Counterexample, String>> {
    if q.label == "IIa" {
        return Ok(Err(format!(
            "the witness of total {} found by search on small totals is not a member: the norm formula of (II) does not hold, so (II) is not decided",
            values.first().copied().unwrap_or(0)
        )));
    }
    let stated = if q.label == "IIb" {
        Stated::ThroughNorms
    } else {
        Stated::Exactly
    };
    recheck(c, c.kind.into(), q.condition, stated, c.game.k, values)
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

/// Writes every query of the claim under `dir` (one SMT-LIB2 file each), with `manifest.json` (the
/// report) and `README.md` (how to re-check); returns the paths.
pub fn emit_chips(c: &ChipClaim, report: Option<&Report>, dir: &Path) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::io(format!("creating {}", dir.display()), e))?;
    let mut out = Vec::new();
    let mut put = |name: &str, text: &str| -> Result<()> {
        let path = dir.join(name);
        std::fs::write(&path, text)
            .map_err(|e| Error::io(format!("writing {}", path.display()), e))?;
        out.push(path);
        Ok(())
    };
    let mut files = Vec::new();
    for cond in conditions_of(c) {
        for (i, q) in chip_queries(c, cond)?.iter().enumerate() {
            let name = file_name(q, i);
            put(&name, &q.script(&c.game.id(), c.play))?;
            files.push(name);
        }
    }
    if let Some(r) = report {
        put("manifest.json", &format!("{:#}\n", r.to_json()))?;
    }
    let mut readme = format!(
        "# {} on {}, {} play\n\nEach file is one SMT-LIB 2 query in linear integer arithmetic; each states the negation of one condition for every box size, so `unsat` from each proves the claim (`z3 FILE`, `cvc5 FILE`).\n\n",
        c.source,
        c.game.id(),
        c.play.name()
    );
    for f in &files {
        let _ = writeln!(readme, "- `{f}`: must answer unsat");
    }
    readme.push_str("\nQueries IIa and IIb together state condition (II): IIa that every total n with phi(n) is the total of the member w(n), IIb that every non-terminal position outside the set keeps such a total.\n");
    put("README.md", &readme)?;
    Ok(out)
}
