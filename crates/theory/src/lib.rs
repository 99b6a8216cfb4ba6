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
pub mod ferguson;
pub mod linear;
pub mod nim;
pub mod scn;

use nimlab_core::{Game, Play, Pos};

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
    /// The Grundy value, when the result gives one.
    pub grundy: Option<u64>,
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
    /// The games covered, e.g. `nim, CN(n,1)`.
    fn games(&self) -> &'static str;
    /// The statement in words and symbols.
    fn statement(&self) -> &'static str;
    /// Where it is proven (paper and theorem).
    fn source(&self) -> &'static str;
    /// The play convention the result is about.
    fn play(&self) -> Play;
    /// True when the result covers `game`.
    fn covers(&self, game: &dyn Game) -> bool;
    /// The verdict for `p`, or `None` when the result does not decide this position.
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict>;
}

/// Every result nimlab knows.
pub fn all() -> Vec<Box<dyn Theorem>> {
    vec![
        Box::new(Bouton),
        Box::new(BoutonMisere),
        Box::new(MooreTheorem),
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
        // Partial results last: `find` prefers a complete characterization when one decides.
        Box::new(Lemma5),
    ]
}

/// The first result that covers `game` under `play` and decides `p`, with its verdict.
pub fn find(game: &dyn Game, p: &[u64], play: Play) -> Option<(Box<dyn Theorem>, Verdict)> {
    all()
        .into_iter()
        .filter(|t| t.play() == play && t.covers(game))
        .find_map(|t| t.decide(game, p).map(|v| (t, v)))
}
