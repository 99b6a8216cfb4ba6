//! # nimlab-theory
//!
//! Proven results as values. Each [`Theorem`] carries its source, the games it covers, a membership
//! test for its P-set (which decides the outcome of every position it covers), and the winning moves it
//! constructs without enumerating options, so it answers for positions of any size. Every entry is
//! checked against exhaustive search in this crate's tests, through the shared harness of the
//! `nimlab-testkit` crate (a dev-dependency, not part of this library).
//!
//! The command line asks [`find`] for a result that decides a position and falls back to search.

pub mod circular;
pub mod cn74;
pub mod cn_small;
pub mod complex_sum;
pub mod ferguson;
pub mod linear;
pub mod nim;
pub mod octal;
pub mod relabeled;
pub mod scn;

use nimlab_core::{Game, Play, Pos};
use std::sync::OnceLock;

pub use circular::{Cn42, CnAllButOne, CnWhole, Lemma5};
pub use ferguson::{er_summary, ErSummary};
pub use nim::{Bouton, BoutonMisere, MooreTheorem};

/// What a result says about one position.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Verdict {
    /// Whether `winning_moves` lists every winning move or only those the proof names.
    pub all_winning_moves: bool,
    /// True when the position is in the P-set.
    pub is_p: bool,
    /// The Grundy value, when the result gives one. Wide: Nim on a complex has the nim-sum of facet
    /// totals as its value, and a total of several 64-bit stacks passes 2^64.
    pub grundy: Option<u128>,
    /// Winning moves the result constructs without enumerating options (empty for a P-position; for an
    /// N-position at least one). `None` when the result gives no construction.
    pub winning_moves: Option<Vec<Pos>>,
    /// The P-family the position belongs to (for a P-position) or that the constructed move lands in
    /// (for an N-position), e.g. `S4`.
    pub family: Option<String>,
    /// Why, in the words of the paper: the relations that hold, or the move and its target family.
    pub reason: Option<String>,
}

/// A proven result about the P-positions of a family of games.
pub trait Theorem: Send + Sync {
    /// Short stable identifier, e.g. `bouton`.
    fn id(&self) -> &'static str;
    /// The games covered, e.g. `nim, CN(n,1)`; a [`Scope::Partial`] result adds `(partial: ...)`. The
    /// play convention is not repeated here: [`Theorem::play`] gives it.
    fn games(&self) -> &'static str;
    /// The statement in words and symbols.
    fn statement(&self) -> &'static str;
    /// Where it is proven (paper and theorem).
    fn source(&self) -> &'static str;
    /// The play convention the result is about.
    fn play(&self) -> Play;
    /// True when the result covers `game`.
    fn covers(&self, game: &dyn Game) -> bool;
    /// Whether the result decides every position of every game it covers ([`Scope::Complete`]) or
    /// only some ([`Scope::Partial`]).
    fn scope(&self) -> Scope;
    /// The verdict for `p`, or `None` when the result does not decide this position (never `None` for
    /// a valid position of a covered game when [`Theorem::scope`] is [`Scope::Complete`]).
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict>;
}

/// How much of each covered game a result decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// Decides every position of every game it covers: `decide` returns `Some` for every valid
    /// position.
    Complete,
    /// Decides only some positions (a family of P-positions, say); `decide` returns `None` for the
    /// others, which are left to other results or to search.
    Partial,
}

/// Builds every result nimlab knows, in registry order.
fn build() -> Vec<Box<dyn Theorem>> {
    vec![
        Box::new(Bouton),
        Box::new(BoutonMisere),
        Box::new(MooreTheorem),
        Box::new(octal::OctalPeriodic),
        Box::new(CnWhole),
        Box::new(CnAllButOne),
        Box::new(Cn42),
        Box::new(cn_small::cn52()),
        Box::new(cn_small::cn53()),
        Box::new(cn_small::cn63()),
        Box::new(cn_small::Cn64),
        Box::new(cn74::cn74()),
        Box::new(cn_small::cn86()),
        Box::new(scn::ScnNim),
        Box::new(scn::ScnWhole),
        Box::new(scn::ScnAllButOne),
        Box::new(scn::scn42()),
        Box::new(scn::scn52()),
        Box::new(scn::scn53()),
        Box::new(scn::scn86()),
        Box::new(ferguson::EtTwoBoxGrundy),
        Box::new(ferguson::EtThreeBoxes),
        Box::new(ferguson::EtFourBoxes),
        Box::new(ferguson::EtOneOrTwoEven),
        Box::new(ferguson::EtAllOdd),
        Box::new(ferguson::EaboNormal),
        Box::new(ferguson::EaboMisere),
        Box::new(ferguson::ErNormal),
        Box::new(ferguson::ErMisere),
        Box::new(ferguson::SerNormal),
        Box::new(ferguson::Entropy3Normal),
        Box::new(ferguson::Entropy3Misere),
        Box::new(Lemma5),
        Box::new(relabeled::Relabeled { play: Play::Normal }),
        Box::new(relabeled::Relabeled { play: Play::Misere }),
        Box::new(complex_sum::Simplices { play: Play::Normal }),
        Box::new(complex_sum::Simplices { play: Play::Misere }),
        Box::new(complex_sum::Mirror),
        Box::new(complex_sum::Components),
    ]
}

static REGISTRY: OnceLock<Vec<Box<dyn Theorem>>> = OnceLock::new();

static UNAVAILABLE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes every registry lookup of this process find nothing ([`registry`], [`by_id`], [`covering`],
/// [`find`]) while `off` is true: for tests that show a tool works without any built-in result
/// (`nimlab discover` must find its answers from tables alone).
pub fn set_registry_unavailable(off: bool) {
    UNAVAILABLE.store(off, std::sync::atomic::Ordering::SeqCst);
}

/// Every result nimlab knows, built once per process (with the per-entry caches, such as the
/// family templates of [`linear::FamilyTheorem`], that live inside the entries); empty while
/// [`set_registry_unavailable`] is on.
pub fn registry() -> &'static [Box<dyn Theorem>] {
    if UNAVAILABLE.load(std::sync::atomic::Ordering::SeqCst) {
        return &[];
    }
    REGISTRY.get_or_init(build)
}

/// The same as [`registry`] (kept for callers written against the old name).
pub fn all() -> &'static [Box<dyn Theorem>] {
    registry()
}

/// The result with id `id`, if any.
pub fn by_id(id: &str) -> Option<&'static dyn Theorem> {
    registry().iter().map(|t| t.as_ref()).find(|t| t.id() == id)
}

/// Every result that covers `game` under `play`, in registry order.
pub fn covering(game: &dyn Game, play: Play) -> Vec<&'static dyn Theorem> {
    registry()
        .iter()
        .map(|t| t.as_ref())
        .filter(|t| t.play() == play && t.covers(game))
        .collect()
}

/// A result that covers `game` under `play` and decides `p`, with its verdict. A
/// [`Scope::Complete`] result that decides is preferred over a [`Scope::Partial`] one wherever
/// either stands in the registry; among results of the same scope the first in registry order wins.
pub fn find(game: &dyn Game, p: &[u64], play: Play) -> Option<(&'static dyn Theorem, Verdict)> {
    find_among(covering(game, play), game, p)
}

/// [`find`] over the given candidates (which must cover the game under the play convention wanted).
fn find_among<'a>(
    candidates: impl IntoIterator<Item = &'a dyn Theorem>,
    game: &dyn Game,
    p: &[u64],
) -> Option<(&'a dyn Theorem, Verdict)> {
    let (complete, partial): (Vec<&'a dyn Theorem>, Vec<&'a dyn Theorem>) = candidates
        .into_iter()
        .partition(|t| t.scope() == Scope::Complete);
    complete
        .into_iter()
        .chain(partial)
        .find_map(|t| t.decide(game, p).map(|v| (t, v)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nimlab_games::CircularNim;

    #[test]
    fn registry_is_built_once() {
        assert!(std::ptr::eq(registry(), registry()));
        assert!(std::ptr::eq(all(), registry()));
        assert_eq!(by_id("cn-7-4").map(|t| t.id()), Some("cn-7-4"));
        assert!(by_id("no-such-result").is_none());
    }

    #[test]
    fn find_prefers_a_complete_result_whatever_the_order() {
        // (0,0,3,1,1,1,3) is in S1 of Lemma 5 (l = 3) and in S1 of Theorem 2 for CN(7,4): both decide.
        let g = CircularNim::new(7, 4).unwrap();
        let p = [0, 0, 3, 1, 1, 1, 3];
        let cn74 = cn74::cn74();
        assert_eq!(Lemma5.scope(), Scope::Partial);
        assert_eq!(cn74.scope(), Scope::Complete);
        assert!(Lemma5.decide(&g, &p).is_some() && cn74.decide(&g, &p).is_some());
        for order in [
            [&Lemma5 as &dyn Theorem, &cn74],
            [&cn74 as &dyn Theorem, &Lemma5],
        ] {
            let (t, v) = find_among(order, &g, &p).unwrap();
            assert_eq!(t.id(), "cn-7-4");
            assert_eq!(v.family.as_deref(), Some("S1"));
        }
        // Through the registry too, and the partial result answers where nothing else covers.
        assert_eq!(find(&g, &p, Play::Normal).unwrap().0.id(), "cn-7-4");
        let g9 = CircularNim::new(9, 5).unwrap();
        let q = [2, 0, 0, 0, 2, 1, 0, 1, 0];
        assert_eq!(find(&g9, &q, Play::Normal).unwrap().0.id(), "cn-lemma5-s1");
        assert!(find(&g9, &[2; 9], Play::Normal).is_none());
        // A partial result that does not decide leaves the position to the next candidate.
        let (t, v) = find_among([&Lemma5 as &dyn Theorem, &cn74], &g, &[1; 7]).unwrap();
        assert_eq!((t.id(), v.is_p), ("cn-7-4", true));
    }

    #[test]
    fn covering_lists_the_results_for_a_game_and_play() {
        let g = CircularNim::new(7, 4).unwrap();
        let ids: Vec<&str> = covering(&g, Play::Normal).iter().map(|t| t.id()).collect();
        assert_eq!(ids, ["cn-7-4", "cn-lemma5-s1"]);
        assert!(covering(&g, Play::Misere).is_empty());
        let nim = nimlab_games::Nim;
        let ids: Vec<&str> = covering(&nim, Play::Misere)
            .iter()
            .map(|t| t.id())
            .collect();
        assert_eq!(ids, ["bouton-misere"]);
    }
}
