//! Known results carried over to relabeled complexes: when `simplicial(...)` or `ECN(m,S,k)` is a
//! relabeling of CN(n,k)'s windows or of Moore's Nim_k's k-sets (found when the complex is built, see
//! `nimlab_games::complex`), it is the same game with the stacks renamed. The position is mapped to
//! the known game, a complete result there decides it, and its winning moves are mapped back.

use crate::{Scope, Theorem, Verdict};
use nimlab_core::{Game, Play};
use nimlab_games::complex::{Complex, KnownGame, Relabeling};
use nimlab_games::{CircularNim, MooreNim};

/// A complex that is a relabeling of a game with a complete result, in one play convention.
pub struct Relabeled {
    pub play: Play,
}

/// The known game of a relabeling.
fn target(r: &Relabeling) -> Box<dyn Game> {
    match r.target {
        KnownGame::Cn { n, k } => Box::new(CircularNim::new(n, k).expect("a valid CN(n,k)")),
        KnownGame::Moore { k, .. } => Box::new(MooreNim::new(k).expect("a valid moore(k)")),
    }
}

/// The complete results about the known game of `game`'s relabeling, if it has one.
fn complete(game: &dyn Game, play: Play) -> Option<(&Relabeling, Box<dyn Game>)> {
    let r = game.downcast_ref::<Complex>()?.relabeling()?;
    let t = target(r);
    crate::covering(t.as_ref(), play)
        .iter()
        .any(|th| th.scope() == Scope::Complete)
        .then_some((r, t))
}

impl Theorem for Relabeled {
    fn id(&self) -> &'static str {
        match self.play {
            Play::Normal => "relabeled",
            Play::Misere => "relabeled-misere",
        }
    }
    fn games(&self) -> &'static str {
        "simplicial(...), ECN(m,S,k) that are relabelings of CN(n,k) or moore(k) with a complete result"
    }
    fn statement(&self) -> &'static str {
        "Nim on a complex depends only on the complex up to renaming the stacks: when a permutation of the stacks maps the facets exactly onto CN(n,k)'s windows of k consecutive stacks or onto Moore's Nim_k's k-sets, a position has the outcome, Grundy value and winning moves of its image, and a result proven for that game decides it."
    }
    fn source(&self) -> &'static str {
        match self.play {
            Play::Normal => "R. Ehrenborg & E. Steingrímsson, Playing Nim on a simplicial complex, Electronic J. Combin. 3 (1996) (CN and Moore's Nim as complexes); the relabeling is found by search when the game is built; see docs/rules.md#theorem-relabeled",
            Play::Misere => "R. Ehrenborg & E. Steingrímsson, Playing Nim on a simplicial complex, Electronic J. Combin. 3 (1996) (CN and Moore's Nim as complexes); the relabeling is found by search when the game is built; see docs/rules.md#theorem-relabeled-misere",
        }
    }
    fn play(&self) -> Play {
        self.play
    }
    fn scope(&self) -> Scope {
        Scope::Complete
    }
    fn covers(&self, game: &dyn Game) -> bool {
        complete(game, self.play).is_some()
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let (r, t) = complete(game, self.play)?;
        let q = r.forward(p);
        let (th, v) = crate::find(t.as_ref(), &q, self.play)?;
        let why = format!(
            "{} is a relabeling of {} ({}); its position {} is decided by {} there{}",
            game.id(),
            r.target.name(),
            r.describe(),
            t.format_position(&q),
            th.id(),
            v.reason
                .as_ref()
                .map(|s| format!(": {s}"))
                .unwrap_or_default()
        );
        Some(Verdict {
            winning_moves: v
                .winning_moves
                .map(|ms| ms.iter().map(|m| r.back(m)).collect()),
            reason: Some(why),
            ..v
        })
    }
}
