//! P-position families given by linear relations on a reading of the circle, and a solver that finds a
//! move into such a family without enumerating options.
//!
//! A [`Family`] is a template of `len` slots named `a, b, c, ...` (as in the papers) with linear
//! equalities and inequalities between them, and optionally a non-linear side condition. A circle is in
//! the family when some reading of it (a rotation, read clockwise or counter-clockwise) satisfies the
//! relations.
//!
//! Moves: a move lowers the stacks of one window and keeps every other stack. For each window, each
//! reading of the circle and each family, the stacks outside the window fix some slots, so the relations
//! become a small integer system in the window's stacks with bounds `lo <= y <= p`. Equalities are
//! eliminated exactly (fraction-free Gauss–Jordan in `i128`); the remaining free stacks are bounded by
//! Fourier–Motzkin projection, and values at and next to the ends of each projected interval are tried.
//! Every candidate is checked against the relations, the side condition and the caller's whole
//! membership test before it is returned, so a returned move is always legal and lands in the set.
//! Stacks may be as large as `u64` allows; sums are computed in `i128`.
//!
//! Files: [`relations`] (the relation language: [`Family`], [`Rel`], [`Reading`]), [`moves`] (the
//! move rules and the search over windows, [`find_move`]), `solve` (the integer system of one window
//! and one reading), [`explain`] (the sentences of a verdict), and this file ([`FamilyTheorem`], the
//! theory entry built from families).

pub mod explain;
pub mod moves;
pub mod relations;
mod solve;

pub use explain::describe_reading;
pub use moves::{find_all_moves, find_move, Rules};
pub use relations::{find_family, Family, Reading, Rel};

use crate::{Scope, Theorem, Verdict};
use explain::family_sentence;
use nimlab_core::{Game, Play};
use nimlab_games::{CircularNim, ShrinkingCircularNim};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

static FAMILY_BUILDS: AtomicUsize = AtomicUsize::new(0);

/// How many times any [`FamilyTheorem`] has built its family templates in this process (a check that
/// the per-entry caches hit: answering from the registry builds each entry's templates once).
pub fn family_builds() -> usize {
    FAMILY_BUILDS.load(Ordering::Relaxed)
}

/// A theorem whose P-set is a union of [`Family`] templates, for one game `family(n,k)`.
pub struct FamilyTheorem {
    pub id: &'static str,
    pub games: &'static str,
    pub statement: &'static str,
    pub source: &'static str,
    /// `CN` or `SCN`.
    pub game_family: &'static str,
    pub n: usize,
    pub k: usize,
    pub build: fn() -> Vec<Family>,
    pub cache: OnceLock<Vec<Family>>,
}

impl FamilyTheorem {
    // One argument per field of the entry, in the order of the struct; a builder would only add
    // ceremony to the nine entries built with it.
    #[allow(clippy::too_many_arguments)]
    pub const fn new(
        id: &'static str,
        games: &'static str,
        statement: &'static str,
        source: &'static str,
        game_family: &'static str,
        n: usize,
        k: usize,
        build: fn() -> Vec<Family>,
    ) -> FamilyTheorem {
        FamilyTheorem {
            id,
            games,
            statement,
            source,
            game_family,
            n,
            k,
            build,
            cache: OnceLock::new(),
        }
    }

    /// The family templates, built on first use and cached in the entry (the registry's entries live
    /// for the whole process, so each builds its templates once).
    pub fn families(&self) -> &[Family] {
        self.cache.get_or_init(|| {
            FAMILY_BUILDS.fetch_add(1, Ordering::Relaxed);
            (self.build)()
        })
    }

    fn rules(&self) -> Rules {
        Rules {
            k: self.k,
            shrinking: self.game_family == "SCN",
        }
    }

    /// Membership in the P-set.
    pub fn is_p(&self, p: &[u64]) -> bool {
        find_family(self.families(), p).is_some()
    }
}

impl Theorem for FamilyTheorem {
    fn id(&self) -> &'static str {
        self.id
    }
    fn games(&self) -> &'static str {
        self.games
    }
    fn statement(&self) -> &'static str {
        self.statement
    }
    fn source(&self) -> &'static str {
        self.source
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn scope(&self) -> Scope {
        Scope::Complete
    }
    fn covers(&self, game: &dyn Game) -> bool {
        let params = if self.game_family == "SCN" {
            game.downcast_ref::<ShrinkingCircularNim>()
                .map(|g| (g.n, g.k))
        } else {
            game.downcast_ref::<CircularNim>().map(|g| (g.n, g.k))
        };
        params == Some((self.n, self.k))
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        // Listing every winning move tries every system (about five times the work of finding one
        // move); it is done where the options are too many to value one by one, which is where a
        // caller needs it.
        let list_all = game
            .count_options(p)
            .is_none_or(|n| n > LIST_ALL_ABOVE_OPTIONS);
        self.decide_with(p, list_all)
    }
}

/// Positions with more options than this get every winning move listed by [`FamilyTheorem`]'s
/// `decide` (with fewer, callers value the options one by one and the verdict names one move).
pub const LIST_ALL_ABOVE_OPTIONS: u128 = 20_000;

impl FamilyTheorem {
    /// The verdict for `p`; with `list_all`, every winning move is listed (and
    /// `all_winning_moves` says whether the list is complete), else the one move constructed.
    pub fn decide_with(&self, p: &[u64], list_all: bool) -> Option<Verdict> {
        let fams = self.families();
        if let Some((fi, r)) = find_family(fams, p) {
            let f = &fams[fi];
            return Some(Verdict {
                // A P-position has no winning move: the empty list is complete.
                all_winning_moves: true,
                is_p: true,
                winning_moves: Some(vec![]),
                family: Some(f.label.to_string()),
                reason: Some(format!(
                    "P: the position is in {}, so every move leaves the P-set",
                    family_sentence(f, r, p)
                )),
                ..Default::default()
            });
        }
        let accept = |q: &[u64]| find_family(fams, q).is_some();
        // Every target when the systems are small enough to try every solution (the P-set is the
        // union of the families, so these are all the winning moves), the constructed move first.
        let (all, complete) = if list_all {
            find_all_moves(fams, self.rules(), p, &accept)
        } else {
            (Vec::new(), false)
        };
        match find_move(fams, self.rules(), p, &accept) {
            Some((q, fi)) => {
                let mut moves = vec![q.clone()];
                moves.extend(all.into_iter().filter(|t| *t != q));
                let f = &fams[fi];
                let (_, r) = find_family(&fams[fi..=fi], &q).expect("verified target");
                let reason = format!(
                    "N: the position is in no P-family; the move to {} lands in {}",
                    nimlab_core::position::format_tuple(&q),
                    family_sentence(f, r, &q)
                );
                Some(Verdict {
                    all_winning_moves: complete,
                    is_p: false,
                    winning_moves: Some(moves),
                    family: Some(f.label.to_string()),
                    reason: Some(reason),
                    ..Default::default()
                })
            }
            None => Some(Verdict {
                is_p: false,
                winning_moves: None,
                reason: Some(
                    "N: the position is in no P-family (no move was constructed)".to_string(),
                ),
                ..Default::default()
            }),
        }
    }
}
