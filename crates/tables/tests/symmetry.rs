//! The sweep that computes one block of each mirror pair (a reflection of the circle, or a swap of
//! two heaps) against the ordered sweep that computes every block: the same P-positions, every one of
//! them, in both plays, on boxes with lines of one word and of several, with blocks handed back one
//! by one and kept whole, for circles, shrinking circles, heaps, complexes and boxes with one bound
//! per stack.
//! (Both sweeps are also checked against references written from the rules in pset_vs_naive,
//! wide_lines and per_stack_box, which run with the symmetry on.)

use nimlab_core::{Game, Hooks, Play};
use nimlab_tables::lines::{self, LineSpec};
use nimlab_tables::pset;
use std::collections::BTreeSet;

fn every(game: &dyn Game, tops: &[u64], play: Play) -> BTreeSet<Vec<u64>> {
    let mut got = BTreeSet::new();
    pset::every_p_position_below(game, tops, play, Hooks::default(), &mut |p| {
        assert!(got.insert(p.to_vec()), "{}: {p:?} twice", game.id());
    })
    .expect("the engine covers it")
    .unwrap();
    got
}

fn tabulated(game: &dyn Game, max: u64, heaps: Option<usize>, play: Play) -> (u64, Vec<Vec<u64>>) {
    let d = game.table_domain(max, heaps).unwrap();
    let mut got = Vec::new();
    let s = pset::tabulate(game, &d, play, Hooks::default(), &mut |p| {
        got.push(p.to_vec())
    })
    .unwrap();
    (s.count, got)
}

/// One test: the switch is global to the process.
#[test]
fn the_mirrored_sweep_equals_the_ordered_sweep() {
    let mut checked = 0usize;
    for hand_back in [usize::MAX, 0] {
        lines::hand_back_from(hand_back);
        // Every P-position of boxes (cubes, and boxes with one bound per stack that the symmetry
        // maps onto themselves or not).
        #[allow(clippy::type_complexity)]
        let boxes: [(&str, Vec<u64>, bool); 12] = [
            ("CN(3,2)", vec![70, 70, 70], true),
            ("CN(4,2)", vec![20, 20, 20, 20], true),
            ("CN(4,3)", vec![12, 12, 12, 70], true),
            ("CN(5,2)", vec![9, 9, 9, 9, 9], true),
            ("CN(5,3)", vec![6, 6, 6, 6, 66], true),
            ("CN(6,4)", vec![7, 7, 7, 7, 7, 7], true),
            ("CN(7,4)", vec![5, 5, 5, 5, 5, 5, 5], true),
            ("nim", vec![9, 9, 70], true),
            ("moore(2)", vec![6, 6, 6, 65], true),
            // Not symmetric: the sweep keeps every block.
            ("CN(5,2)", vec![3, 4, 5, 9, 9], false),
            ("nim", vec![9, 8, 70], false),
            ("CN(4,2)", vec![4, 5, 3, 70], false),
        ];
        for (name, tops, symmetric) in boxes {
            let game = nimlab_games::parse_game(name).unwrap();
            for play in [Play::Normal, Play::Misere] {
                lines::use_symmetry(false);
                let ordered = every(game.as_ref(), &tops, play);
                lines::use_symmetry(true);
                let mirrored = every(game.as_ref(), &tops, play);
                assert_eq!(mirrored, ordered, "{name} {tops:?} {play:?}");
                checked += ordered.len();
            }
            // The engine's axes: the last stack is axis 0.
            let m = tops.len();
            let radix: Vec<usize> = (0..m).map(|i| tops[m - 1 - i] as usize + 1).collect();
            let windows = nimlab_tables::pset::engine_windows(
                m,
                &match game.move_structure(m) {
                    Some(nimlab_core::MoveStructure::Faces(f)) => f,
                    _ => panic!("{name} is a window game"),
                },
            );
            let spec = LineSpec::boxed(radix, windows, false);
            assert_eq!(lines::is_mirrored(&spec), symmetric, "{name} {tops:?}");
        }
        // Complexes: ECN games (reflections of the circle), and a path of edges 1-2-3, whose one
        // symmetry moves the line's stack (so the sweep keeps every block).
        let path = nimlab_games::complex::Complex::simplicial(&[vec![1, 2], vec![2, 3]]).unwrap();
        let complexes: [(Box<dyn Game>, Vec<u64>, bool); 3] = [
            (
                nimlab_games::parse_game("ECN(6,{1,2},2)").unwrap(),
                vec![5; 6],
                true,
            ),
            (
                nimlab_games::parse_game("ECN(7,{1,3},3)").unwrap(),
                vec![4; 7],
                true,
            ),
            (Box::new(path), vec![9, 9, 70], false),
        ];
        for (game, tops, symmetric) in complexes {
            for play in [Play::Normal, Play::Misere] {
                lines::use_symmetry(false);
                let ordered = every(game.as_ref(), &tops, play);
                lines::use_symmetry(true);
                let mirrored = every(game.as_ref(), &tops, play);
                assert_eq!(mirrored, ordered, "{} {play:?}", game.id());
                checked += ordered.len();
            }
            let m = tops.len();
            let radix: Vec<usize> = (0..m).map(|i| tops[m - 1 - i] as usize + 1).collect();
            let Some(nimlab_core::MoveStructure::Faces(f)) = game.move_structure(m) else {
                panic!("{} is a window game", game.id())
            };
            let spec = LineSpec::boxed(radix, nimlab_tables::pset::engine_windows(m, &f), false);
            assert_eq!(lines::is_mirrored(&spec), symmetric, "{}", game.id());
        }
        // SCN: the moves that empty piles come in through the oracle, reflected with the circle.
        for (name, max) in [
            ("SCN(4,2)", 9),
            ("SCN(5,3)", 6),
            ("SCN(4,4)", 70),
            ("SCN(6,4)", 4),
        ] {
            let game = nimlab_games::parse_game(name).unwrap();
            for play in [Play::Normal, Play::Misere] {
                lines::use_symmetry(false);
                let ordered = tabulated(game.as_ref(), max, None, play);
                lines::use_symmetry(true);
                let mirrored = tabulated(game.as_ref(), max, None, play);
                assert_eq!(mirrored, ordered, "{name} {max} {play:?}");
                checked += ordered.0 as usize;
            }
        }
    }
    lines::hand_back_from(1 << 20);
    assert!(checked > 10_000, "{checked} P-positions compared");
}
