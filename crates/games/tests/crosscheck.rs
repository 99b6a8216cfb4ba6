//! The solver, the move generators and the tabulation, cross-checked against the independent brute
//! force of `brute.rs` over whole boxes, in normal and misère play.

mod brute;

use brute::{least_symmetric, tuples, Brute, Rules};
use nimlab_core::table::{tabulate, TableRun};
use nimlab_core::{Game, Outcome, Play, Solver};
use nimlab_games::{CircularNim, MooreNim, Nim, ShrinkingCircularNim};
use std::collections::BTreeSet;

/// Checks options, Grundy values, both outcomes and both remotenesses of every position in `positions`.
fn check_positions(game: &dyn Game, rules: Rules, positions: &[Vec<u64>]) {
    let mut brute = Brute::new(rules);
    let mut solver = Solver::new(game);
    for p in positions {
        let want = brute.values(p);
        let got_opts: BTreeSet<Vec<u64>> = game.options(p).unwrap().into_iter().collect();
        let want_opts: BTreeSet<Vec<u64>> = brute::options(rules, p).into_iter().collect();
        assert_eq!(got_opts, want_opts, "{} options of {:?}", game.id(), p);
        assert_eq!(
            solver.grundy(p).unwrap(),
            want.grundy,
            "{} Grundy value of {:?}",
            game.id(),
            p
        );
        assert_eq!(
            solver.outcome(p, Play::Misere).unwrap().is_p(),
            want.misere_p,
            "{} misère {:?}",
            game.id(),
            p
        );
        assert_eq!(
            solver.remoteness(p, Play::Normal).unwrap(),
            want.rem_normal,
            "{} remoteness {:?}",
            game.id(),
            p
        );
        assert_eq!(
            solver.remoteness(p, Play::Misere).unwrap(),
            want.rem_misere,
            "{} misère remoteness {:?}",
            game.id(),
            p
        );
        // Normal outcome from the full search agrees with the Grundy value.
        assert_eq!(
            solver.full(p).unwrap().normal == Outcome::P,
            want.grundy == 0
        );
        // Winning moves are exactly the P-options.
        let wins: BTreeSet<Vec<u64>> = solver
            .winning_moves(p, Play::Normal)
            .unwrap()
            .into_iter()
            .collect();
        let want_wins: BTreeSet<Vec<u64>> = want_opts
            .iter()
            .filter(|q| brute.values(q).grundy == 0)
            .cloned()
            .collect();
        assert_eq!(wins, want_wins, "{} winning moves of {:?}", game.id(), p);
        let mwins: BTreeSet<Vec<u64>> = solver
            .winning_moves(p, Play::Misere)
            .unwrap()
            .into_iter()
            .collect();
        let want_mwins: BTreeSet<Vec<u64>> = want_opts
            .iter()
            .filter(|q| brute.values(q).misere_p)
            .cloned()
            .collect();
        assert_eq!(
            mwins,
            want_mwins,
            "{} misère winning moves of {:?}",
            game.id(),
            p
        );
    }
}

/// Checks the tabulation of a box against the brute force, in both conventions.
fn check_table(game: &dyn Game, rules: Rules, hi: u64, heaps: Option<usize>) -> usize {
    let domain = game.table_domain(hi, heaps).unwrap();
    let mut brute = Brute::new(rules);
    let mut checked = 0;
    for play in [Play::Normal, Play::Misere] {
        let t = tabulate(
            game,
            &domain,
            &TableRun {
                play,
                keep_positions: true,
                hooks: Default::default(),
            },
        )
        .unwrap();
        let mut p_set: Vec<Vec<u64>> = Vec::new();
        for &m in &domain.lengths {
            for p in tuples(m, domain.lo, domain.hi) {
                let v = brute.values(&p);
                let is_p = match play {
                    Play::Normal => v.grundy == 0,
                    Play::Misere => v.misere_p,
                };
                if is_p {
                    p_set.push(p);
                }
                checked += 1;
            }
        }
        assert_eq!(
            t.count,
            p_set.len() as u64,
            "{} {play} count, max {hi}",
            game.id()
        );
        let classes: BTreeSet<Vec<u64>> = p_set
            .iter()
            .map(|p| match rules {
                Rules::Nim | Rules::Moore { .. } => {
                    let mut q = p.clone();
                    q.sort();
                    q
                }
                _ => least_symmetric(p),
            })
            .collect();
        assert_eq!(
            t.canonical_count,
            classes.len() as u64,
            "{} {play} canonical count",
            game.id()
        );
        let listed: BTreeSet<Vec<u64>> = t.positions.iter().cloned().collect();
        assert_eq!(listed, classes, "{} {play} canonical positions", game.id());
    }
    checked
}

#[test]
fn circular_nim_matches_brute_force_on_boxes() {
    // (n, largest stack): 1000 to 16384 positions per game.
    for (n, hi) in [(3usize, 9u64), (4, 6), (5, 4), (6, 3), (7, 3)] {
        for k in 1..=n {
            let game = CircularNim::new(n, k).unwrap();
            let box_positions = tuples(n, 0, hi);
            assert!(box_positions.len() >= 1000);
            // Values of every position are checked through the table; the full per-position check (options,
            // Grundy, remoteness, winning moves) runs on every position of a slightly smaller box.
            let small: Vec<Vec<u64>> = tuples(n, 0, hi.min(if n >= 6 { 2 } else { hi }))
                .into_iter()
                .collect();
            check_positions(&game, Rules::Circle { k }, &small);
            check_table(&game, Rules::Circle { k }, hi, None);
        }
    }
}

#[test]
fn circular_nim_values_of_larger_box_positions() {
    // Grundy values and misère outcomes on the whole [0..3]^6 and [0..3]^7 boxes.
    for n in [6usize, 7] {
        for k in [2, 3, 4, n - 1] {
            let game = CircularNim::new(n, k).unwrap();
            let mut brute = Brute::new(Rules::Circle { k });
            let mut solver = Solver::new(&game);
            for p in tuples(n, 0, 3) {
                let want = brute.values(&p);
                assert_eq!(solver.grundy(&p).unwrap(), want.grundy, "CN({n},{k}) {p:?}");
                assert_eq!(
                    solver.outcome(&p, Play::Misere).unwrap().is_p(),
                    want.misere_p,
                    "CN({n},{k}) misère {p:?}"
                );
            }
        }
    }
}

#[test]
fn shrinking_circular_nim_matches_brute_force() {
    // Circles of at most n piles in 1..=hi: 1365 to 4681 positions per game.
    for (n, hi) in [(4usize, 6u64), (5, 4), (6, 4)] {
        for k in 1..=n {
            let game = ShrinkingCircularNim::new(n, k).unwrap();
            let mut all = Vec::new();
            for m in 0..=n {
                all.extend(tuples(m, 1, if n == 6 { 3 } else { hi }));
            }
            check_positions(&game, Rules::Shrinking { k }, &all);
            check_table(&game, Rules::Shrinking { k }, hi, None);
        }
    }
}

#[test]
fn nim_and_moore_match_brute_force() {
    let nim = Nim;
    check_positions(&nim, Rules::Nim, &tuples(3, 0, 7));
    check_table(&nim, Rules::Nim, 7, Some(3));
    for k in 1..=3 {
        let g = MooreNim::new(k).unwrap();
        check_positions(&g, Rules::Moore { k }, &tuples(4, 0, 4));
        check_table(&g, Rules::Moore { k }, 5, Some(4));
    }
}

#[test]
fn papers_facts() {
    // CN(7,4) paper, Figure 1: (1,7,5,6,2,3,6) -> (0,1,5,4,2,3,6) is a legal move.
    let cn74 = CircularNim::new(7, 4).unwrap();
    assert!(cn74
        .options(&[1, 7, 5, 6, 2, 3, 6])
        .unwrap()
        .contains(&vec![0, 1, 5, 4, 2, 3, 6]));
    assert!(
        brute::options(Rules::Circle { k: 4 }, &[1, 7, 5, 6, 2, 3, 6])
            .contains(&vec![0, 1, 5, 4, 2, 3, 6])
    );

    // CN(7,4) paper §3: (2,2,2,2,2,2,2,2,2) is an N-position of CN(9,5).
    let cn95 = CircularNim::new(9, 5).unwrap();
    let mut s = Solver::new(&cn95);
    assert_eq!(s.outcome(&[2; 9], Play::Normal).unwrap(), Outcome::N);
    assert!(Brute::new(Rules::Circle { k: 5 }).values(&[2; 9]).grundy > 0);

    // SCN paper §3.2.2: (1,6,2,3,3,6) is a P-position of SCN(6,3).
    let scn63 = ShrinkingCircularNim::new(6, 3).unwrap();
    let mut s = Solver::new(&scn63);
    assert_eq!(
        s.outcome(&[1, 6, 2, 3, 3, 6], Play::Normal).unwrap(),
        Outcome::P
    );
    assert_eq!(
        Brute::new(Rules::Shrinking { k: 3 })
            .values(&[1, 6, 2, 3, 3, 6])
            .grundy,
        0
    );
    // ... and (a,b,a+b-1,a,b,a+b-1) is N for a != b.
    for (a, b) in [(1u64, 2u64), (2, 1), (1, 3), (2, 3)] {
        assert_eq!(
            s.outcome(&[a, b, a + b - 1, a, b, a + b - 1], Play::Normal)
                .unwrap(),
            Outcome::N
        );
    }

    // CN(4,2): the P-positions in [0..b]^4 are a1 = a3, a2 = a4, so there are (b+1)^2 of them.
    let cn42 = CircularNim::new(4, 2).unwrap();
    for b in 0..=12u64 {
        let t = tabulate(
            &cn42,
            &cn42.table_domain(b, None).unwrap(),
            &TableRun {
                play: Play::Normal,
                keep_positions: false,
                hooks: Default::default(),
            },
        )
        .unwrap();
        assert_eq!(t.count, (b + 1) * (b + 1), "CN(4,2) with b = {b}");
    }
}

#[test]
fn hand_computed_values() {
    // CN(3,2) by hand: on a 3-circle any two stacks are adjacent, so any one or two tokens can be taken
    // at once. (0,0,0) is P; one or two tokens left is N (take them all); from (1,1,1) every move leaves
    // one or two tokens, so (1,1,1) is P.
    let g = CircularNim::new(3, 2).unwrap();
    let mut s = Solver::new(&g);
    assert_eq!(s.outcome(&[1, 1, 1], Play::Normal).unwrap(), Outcome::P);
    assert_eq!(s.outcome(&[1, 1, 0], Play::Normal).unwrap(), Outcome::N);
    // Misère: at (1,0,0) the mover must take the last token and so loses: P. (1,1,0) is N (take one).
    assert_eq!(s.outcome(&[1, 0, 0], Play::Misere).unwrap(), Outcome::P);
    assert_eq!(s.outcome(&[1, 1, 0], Play::Misere).unwrap(), Outcome::N);
    // CN(n,n): only the zero position is P.
    let g = CircularNim::new(4, 4).unwrap();
    let mut s = Solver::new(&g);
    assert_eq!(s.outcome(&[0, 0, 0, 0], Play::Normal).unwrap(), Outcome::P);
    assert_eq!(s.outcome(&[3, 0, 1, 2], Play::Normal).unwrap(), Outcome::N);
    // CN(n,n-1): all stacks equal is P.
    let g = CircularNim::new(5, 4).unwrap();
    let mut s = Solver::new(&g);
    assert_eq!(
        s.outcome(&[2, 2, 2, 2, 2], Play::Normal).unwrap(),
        Outcome::P
    );
    assert_eq!(
        s.outcome(&[2, 2, 2, 2, 1], Play::Normal).unwrap(),
        Outcome::N
    );
}
