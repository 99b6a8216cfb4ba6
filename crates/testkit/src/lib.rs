//! # nimlab-testkit
//!
//! Test support, not shipped: the shared check of a theory entry against exhaustive search
//! ([`check`]), the conformance check of a game's API ([`conformance`]) and the one rule for tests
//! that need an outside tool ([`tools`]).
//!
//! For every given position the entry decides, the harness compares the entry's membership test with
//! the searched outcome (in the entry's play convention), the Grundy value when the entry gives one, and
//! checks that every constructed winning move is a legal option that lands in the searched P-set (and
//! that a complete list of winning moves is exactly the searched one).
//!
//! `nimlab-theory` and any other crate whose tests check theory entries take this crate as a
//! `[dev-dependencies]` entry.

pub mod conformance;
pub mod tools;

use nimlab_core::{Game, Pos, Solver};
use nimlab_theory::Theorem;
use std::collections::BTreeSet;

/// What one harness run covered.
#[derive(Debug, Default, Clone, Copy)]
pub struct Coverage {
    pub positions: usize,
    pub decided: usize,
    pub p_positions: usize,
    pub moves_checked: usize,
    /// N-positions whose list of winning moves was claimed complete ...
    pub complete_claimed: usize,
    /// ... and how many of those lists were compared with the searched set of winning moves.
    pub complete_lists: usize,
}

/// Checks `theorem` on `game` at every position of `positions`; panics with the first disagreement.
pub fn check(
    theorem: &dyn Theorem,
    game: &dyn Game,
    positions: impl IntoIterator<Item = Pos>,
) -> Coverage {
    assert!(
        theorem.covers(game),
        "{} does not cover {}",
        theorem.id(),
        game.id()
    );
    let play = theorem.play();
    let mut solver = Solver::new(game);
    let mut cov = Coverage::default();
    for p in positions {
        cov.positions += 1;
        let Some(v) = theorem.decide(game, &p) else {
            continue;
        };
        cov.decided += 1;
        let searched_p = solver.outcome(&p, play).unwrap().is_p();
        assert_eq!(
            v.is_p,
            searched_p,
            "{} on {} {:?}: membership test says P = {}, search says {}",
            theorem.id(),
            game.id(),
            p,
            v.is_p,
            searched_p
        );
        if searched_p {
            cov.p_positions += 1;
        }
        if let Some(g) = v.grundy {
            assert_eq!(
                g,
                u128::from(solver.grundy(&p).unwrap()),
                "{} on {} {:?}: Grundy value",
                theorem.id(),
                game.id(),
                p
            );
        }
        if let Some(moves) = &v.winning_moves {
            let options: BTreeSet<Pos> = game.options(&p).unwrap().into_iter().collect();
            // (A terminal misère position is N without any move.)
            if !searched_p && !game.is_terminal(&p).unwrap() {
                assert!(
                    !moves.is_empty(),
                    "{} on {} {:?}: N-position without a constructed move",
                    theorem.id(),
                    game.id(),
                    p
                );
            }
            for q in moves {
                assert!(
                    options.contains(q),
                    "{} on {} {:?}: constructed move to {:?} is not legal",
                    theorem.id(),
                    game.id(),
                    p,
                    q
                );
                assert!(
                    solver.outcome(q, play).unwrap().is_p(),
                    "{} on {} {:?}: constructed move to {:?} does not reach a P-position",
                    theorem.id(),
                    game.id(),
                    p,
                    q
                );
                cov.moves_checked += 1;
            }
            if v.all_winning_moves {
                let want: BTreeSet<Pos> = solver
                    .winning_moves(&p, play)
                    .unwrap()
                    .into_iter()
                    .collect();
                let got: BTreeSet<Pos> = moves.iter().cloned().collect();
                assert_eq!(
                    got,
                    want,
                    "{} on {} {:?}: the list of winning moves",
                    theorem.id(),
                    game.id(),
                    p
                );
                if !v.is_p {
                    cov.complete_claimed += 1;
                    cov.complete_lists += 1;
                }
            }
        }
    }
    cov
}

/// The searched P-set of a whole box, computed once by [`nimlab_core::table::tabulate`] (exact: every
/// option of a box position lies in the box), as canonical representatives.
pub struct BoxPSet<'g> {
    game: &'g dyn Game,
    canonical_p: std::collections::HashSet<Pos>,
}

impl<'g> BoxPSet<'g> {
    /// Tabulates the P-positions of `game` (normal play) in `game.table_domain(hi, None)`.
    pub fn new(game: &'g dyn Game, hi: u64) -> BoxPSet<'g> {
        let domain = game.table_domain(hi, None).expect("the game has a box");
        let table = nimlab_core::table::tabulate(
            game,
            &domain,
            &nimlab_core::table::TableRun {
                play: nimlab_core::Play::Normal,
                keep_positions: true,
                hooks: Default::default(),
            },
        )
        .expect("tabulation");
        BoxPSet {
            game,
            canonical_p: table.positions.into_iter().collect(),
        }
    }
    /// True when `p` (a position of the box) is P by search.
    pub fn is_p(&self, p: &[u64]) -> bool {
        self.canonical_p.contains(&self.game.canonical(p))
    }
    /// Number of P-positions up to symmetry.
    pub fn canonical_count(&self) -> usize {
        self.canonical_p.len()
    }
}

/// Like [`check`], for a normal-play entry and positions inside a tabulated box: membership must equal
/// the searched outcome; every N-position must get at least one constructed move; every constructed
/// move must be an option of the position (found among the game's options) and a P-position by search;
/// a list of winning moves claimed complete must be exactly the options the table finds P (every such
/// list up to [`COMPARE_EVERY_LIST_UP_TO`], then one in [`COMPARE_ONE_LIST_IN`]).
pub fn check_with_table(
    theorem: &dyn Theorem,
    table: &BoxPSet,
    positions: impl IntoIterator<Item = Pos>,
) -> Coverage {
    let game = table.game;
    let by_options = |p: &[u64], q: &[u64]| {
        let mut legal = false;
        game.for_each_option(p, &mut |o| {
            if o == q {
                legal = true;
                std::ops::ControlFlow::Break(())
            } else {
                std::ops::ControlFlow::Continue(())
            }
        })
        .expect("built-in games do not fail");
        legal
    };
    check_with_table_and_rule(theorem, table, positions, &by_options)
}

/// [`check_with_table_and_rule`] compares the first this many lists claimed complete with the table
/// (each needs every option of the position listed and looked up) ...
pub const COMPARE_EVERY_LIST_UP_TO: usize = 1_000;
/// ... and then one list in this many, so that a box of 10^5 positions stays a test of seconds.
pub const COMPARE_ONE_LIST_IN: usize = 16;

/// [`check_with_table`] with a caller's legality test `is_option(p, q)` in place of the enumeration of
/// options (for games whose positions have thousands of options; the test must be independent of the
/// entry under test).
pub fn check_with_table_and_rule(
    theorem: &dyn Theorem,
    table: &BoxPSet,
    positions: impl IntoIterator<Item = Pos>,
    is_option: &dyn Fn(&[u64], &[u64]) -> bool,
) -> Coverage {
    let game = table.game;
    assert!(
        theorem.covers(game),
        "{} does not cover {}",
        theorem.id(),
        game.id()
    );
    assert_eq!(theorem.play(), nimlab_core::Play::Normal);
    let mut cov = Coverage::default();
    for p in positions {
        cov.positions += 1;
        let Some(v) = theorem.decide(game, &p) else {
            continue;
        };
        cov.decided += 1;
        let searched_p = table.is_p(&p);
        assert_eq!(
            v.is_p,
            searched_p,
            "{} on {} {:?}: membership test says P = {}, search says {}",
            theorem.id(),
            game.id(),
            p,
            v.is_p,
            searched_p
        );
        if searched_p {
            cov.p_positions += 1;
            continue;
        }
        let moves = v.winning_moves.unwrap_or_default();
        assert!(
            !moves.is_empty(),
            "{} on {} {:?}: N-position without a constructed move",
            theorem.id(),
            game.id(),
            p
        );
        for q in &moves {
            assert!(
                is_option(&p, q),
                "{} on {} {:?}: constructed move to {:?} is not legal",
                theorem.id(),
                game.id(),
                p,
                q
            );
            assert!(
                table.is_p(q),
                "{} on {} {:?}: constructed move to {:?} does not reach a P-position",
                theorem.id(),
                game.id(),
                p,
                q
            );
            cov.moves_checked += 1;
        }
        if v.all_winning_moves {
            cov.complete_claimed += 1;
        }
        if v.all_winning_moves
            && (cov.complete_claimed <= COMPARE_EVERY_LIST_UP_TO
                || cov.complete_claimed % COMPARE_ONE_LIST_IN == 0)
        {
            // A list claimed complete must be exactly the options that the box's table finds P.
            let want: BTreeSet<Pos> = game
                .options(&p)
                .expect("built-in games do not fail")
                .into_iter()
                .filter(|q| table.is_p(q))
                .collect();
            let got: BTreeSet<Pos> = moves.iter().cloned().collect();
            assert_eq!(
                got,
                want,
                "{} on {} {:?}: the list of winning moves, claimed complete",
                theorem.id(),
                game.id(),
                p
            );
            cov.complete_lists += 1;
        }
    }
    cov
}
