//! The claimed sets, behind one trait: what every method (SMT, automata) proves a claim about, and
//! all that the exact re-check of a counterexample and the exact guard before "proved"
//! ([`crate::check`]) read of a set: its game (whose options the exact search lists), the play
//! convention, exact membership of a position, the positions the guard searches, and what the set
//! is. The sets of CN, SCN and the complexes (a families file, an automaton, one automaton per
//! circle length) are [`OnRuleset`]; the chip games' sets (registry results, chip totals, automata)
//! are [`crate::chips::ChipClaim`].

use crate::conjecture::{Conjecture, Ruleset, RulesetKind};
use crate::report::{verdict_of, Claim, ConditionReport, Report};
use nimlab_core::{Game, Play, Pos};

/// What is claimed of a set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Says {
    /// The set is the P-set.
    PSet,
    /// Every member is a P-position.
    Subset,
    /// Every member is an N-position: it has a move into a target set (of P-positions).
    NPositions,
}

impl From<Claim> for Says {
    fn from(c: Claim) -> Says {
        match c {
            Claim::PSet => Says::PSet,
            Claim::Subset => Says::Subset,
        }
    }
}

impl Says {
    /// As a report states it: a set of N-positions is reported as a subset claim (its members are
    /// decided, as the members of a subset are).
    pub(crate) fn claim(self) -> Claim {
        match self {
            Says::PSet => Claim::PSet,
            Says::Subset | Says::NPositions => Claim::Subset,
        }
    }
}

/// The positions of a claimed set's game, as the guard grows them by a size s.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Space {
    /// Ordered tuples of each length of `lengths`, entries at least `lo`, in a game of `n` stacks:
    /// the box `[lo..s]`, or, where even three values per entry are too many, the tuples whose
    /// entries sum to at most s.
    Tuples {
        lo: u64,
        n: usize,
        lengths: Vec<usize>,
    },
    /// Chip positions (sorted) of `k` boxes, each at least 1, of total at most s.
    ChipTotals { k: usize },
    /// Entropy Reduction positions (sorted) of `k` boxes with minimum 0 and spread at most s.
    ChipSpread { k: usize },
}

/// A claimed set, as the exact re-check and the guard read it.
pub(crate) trait Claimed {
    /// The game: its options and its exact search.
    fn game(&self) -> &dyn Game;
    /// The play convention of the claim.
    fn play(&self) -> Play;
    /// Exact membership of a position.
    fn contains(&self, p: &[u64]) -> bool;
    /// Exact membership of the set that the members of a set of N-positions move into ([`Says`]);
    /// the set itself otherwise.
    fn target_contains(&self, p: &[u64]) -> bool {
        self.contains(p)
    }
    /// The positions the guard searches.
    fn space(&self) -> Space;
    /// A model's tuple as a position of the game (`option`: the target of a move, which in SCN
    /// drops the piles lowered to 0; the chip games sort their boxes).
    fn position(&self, p: Pos, _option: bool) -> Pos {
        p
    }
    /// Whether one move leads from the tuple `x` to the tuple `y` (as the query states them, before
    /// [`Claimed::position`]), decided from the rules alone so that entries of any size cost
    /// nothing; `None` when only listing the options of `x` can tell.
    fn is_move(&self, _x: &[u64], _y: &[u64]) -> Option<bool> {
        None
    }
    /// The game's id, as the report names it.
    fn id(&self) -> String;
    /// What the set is (the report's `source`).
    fn describe(&self) -> String;
}

/// A report on `c` with the conditions decided, its verdict from them; not yet through the guard.
pub(crate) fn report(
    c: &dyn Claimed,
    says: Says,
    method: &'static str,
    bits: Option<u32>,
    conditions: Vec<ConditionReport>,
    seconds: f64,
) -> Report {
    Report {
        game: c.id(),
        source: c.describe(),
        bits,
        verdict: verdict_of(&conditions),
        seconds,
        conditions,
        method,
        play: c.play(),
        claim: says.claim(),
        box_check: None,
        solvers: Vec::new(),
    }
}

/// Exact membership of a position.
pub(crate) type Member<'a> = Box<dyn Fn(&[u64]) -> bool + 'a>;

/// A set of positions of CN, SCN or a complex: a families file ([`Conjecture`]), an automaton, or
/// one automaton per circle length, with its exact membership.
pub(crate) struct OnRuleset<'a> {
    pub rules: &'a Ruleset,
    pub play: Play,
    pub source: String,
    pub member: Member<'a>,
}

impl<'a> OnRuleset<'a> {
    /// The set of a families file.
    pub(crate) fn of(c: &'a Conjecture) -> OnRuleset<'a> {
        OnRuleset {
            rules: &c.game,
            play: c.play,
            source: c.source.clone(),
            member: Box::new(move |p| c.contains(p)),
        }
    }
}

impl Claimed for OnRuleset<'_> {
    fn game(&self) -> &dyn Game {
        self.rules.game_ref()
    }
    fn play(&self) -> Play {
        self.play
    }
    fn contains(&self, p: &[u64]) -> bool {
        (self.member)(p)
    }
    fn space(&self) -> Space {
        let scn = self.rules.kind == RulesetKind::Scn;
        Space::Tuples {
            lo: u64::from(scn),
            n: self.rules.n,
            lengths: if scn {
                (0..=self.rules.n).collect()
            } else {
                vec![self.rules.n]
            },
        }
    }
    fn position(&self, p: Pos, option: bool) -> Pos {
        match self.rules.kind {
            RulesetKind::Scn if option => p.into_iter().filter(|&a| a > 0).collect(),
            _ => p,
        }
    }
    /// `y` equals `x` outside one window (or facet), is at most `x` inside it, and differs from
    /// `x` (as many entries as `x`; in SCN the piles lowered to 0 then vanish).
    fn is_move(&self, x: &[u64], y: &[u64]) -> Option<bool> {
        if x.len() != y.len() || x == y || y.iter().zip(x).any(|(b, a)| b > a) {
            return Some(false);
        }
        Some(
            self.rules
                .windows(x.len())
                .iter()
                .any(|w| (0..x.len()).all(|i| w.contains(&i) || x[i] == y[i])),
        )
    }
    fn id(&self) -> String {
        self.rules.id()
    }
    fn describe(&self) -> String {
        self.source.clone()
    }
}
