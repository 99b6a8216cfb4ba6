//! The engine on boxes with one bound per stack (`pset::every_p_position_below`) against a brute
//! force written here from the rules: a move picks one window of stacks and lowers any of them, at
//! least one token in all. Both plays, lines of one word and of several (a last stack past 63), for
//! circles, heaps of Nim and of Moore's Nim.

use nimlab_core::{Hooks, Play};
use nimlab_tables::pset::every_p_position_below;
use std::collections::BTreeSet;

/// P-positions of the window game on the box `0 <= p[c] <= tops[c]`, by the definition: a position
/// is P iff no option is P (in misère play the empty position, which has no option, is N).
fn brute(tops: &[u64], windows: &[Vec<usize>], misere: bool) -> BTreeSet<Vec<u64>> {
    let m = tops.len();
    let dims: Vec<usize> = tops.iter().map(|&t| t as usize + 1).collect();
    let size: usize = dims.iter().product();
    let index = |p: &[u64]| {
        p.iter()
            .zip(&dims)
            .fold(0, |a, (&x, &d)| a * d + x as usize)
    };
    let mut is_p = vec![false; size];
    let mut out = BTreeSet::new();
    // Lexicographic order visits every option (entrywise smaller) before the position.
    let mut p = vec![0u64; m];
    for _ in 0..size {
        let terminal = p.iter().all(|&x| x == 0);
        let mut p_here = if terminal {
            !misere
        } else {
            let mut reaches_p = false;
            for w in windows {
                // Every q <= p that differs from p only inside w, q != p.
                let mut q = p.clone();
                for &i in w {
                    q[i] = 0;
                }
                loop {
                    if q != p && is_p[index(&q)] {
                        reaches_p = true;
                        break;
                    }
                    // Odometer over the window's entries, each up to p[i].
                    let mut k = 0;
                    while k < w.len() {
                        let i = w[k];
                        if q[i] < p[i] {
                            q[i] += 1;
                            break;
                        }
                        q[i] = 0;
                        k += 1;
                    }
                    if k == w.len() {
                        break;
                    }
                }
                if reaches_p {
                    break;
                }
            }
            !reaches_p
        };
        if terminal && misere {
            p_here = false;
        }
        if p_here {
            is_p[index(&p)] = true;
            out.insert(p.clone());
        }
        // Next position, last entry fastest.
        for c in (0..m).rev() {
            if p[c] < tops[c] {
                p[c] += 1;
                break;
            }
            p[c] = 0;
        }
    }
    out
}

fn engine(name: &str, tops: &[u64], play: Play) -> BTreeSet<Vec<u64>> {
    let game = nimlab_games::parse_game(name).unwrap();
    let mut got = BTreeSet::new();
    every_p_position_below(game.as_ref(), tops, play, Hooks::default(), &mut |p| {
        assert!(got.insert(p.to_vec()), "{name}: {p:?} sent twice");
    })
    .unwrap_or_else(|| panic!("the engine covers {name} on {tops:?}"))
    .unwrap();
    got
}

fn cyclic(n: usize, k: usize) -> Vec<Vec<usize>> {
    (0..n)
        .map(|s| (0..k).map(|j| (s + j) % n).collect())
        .collect()
}

fn check(name: &str, tops: &[u64], windows: &[Vec<usize>]) -> usize {
    let mut seen = 0;
    for play in [Play::Normal, Play::Misere] {
        let want = brute(tops, windows, play == Play::Misere);
        let got = engine(name, tops, play);
        assert_eq!(got, want, "{name} on {tops:?} in {play:?}");
        seen += want.len();
    }
    seen
}

/// Lines of more than 255 values keep their prefix starts in two bytes, shorter ones in one: both
/// widths, with blocks handed back one by one (the path of large boxes).
#[test]
fn prefix_starts_of_one_byte_and_of_two() {
    nimlab_tables::lines::hand_back_from(0);
    let mut p = 0;
    // The last stack is the engine's line axis: 300 values (two-byte starts), 5 * 6 * 7 * 300 =
    // 63000 positions; then 255 values, the most that one byte holds.
    p += check("CN(4,2)", &[4, 5, 6, 299], &cyclic(4, 2));
    p += check("CN(4,2)", &[4, 5, 6, 254], &cyclic(4, 2));
    p += check("CN(5,3)", &[3, 4, 3, 5, 270], &cyclic(5, 3));
    assert!(p > 150, "{p} P-positions in all");
}

#[test]
fn circles_on_boxes_with_a_bound_per_stack() {
    let mut p = 0;
    // 5 * 6 * 4 * 71 = 8520 positions, lines of two words; and a short last stack.
    p += check("CN(4,2)", &[4, 5, 3, 70], &cyclic(4, 2));
    p += check("CN(4,2)", &[9, 2, 12, 6], &cyclic(4, 2));
    // The slice's down-set shape: three stacks fixed low, two free (4*5*6*16*16 = 30720).
    p += check("CN(5,2)", &[3, 4, 5, 15, 15], &cyclic(5, 2));
    p += check("CN(5,3)", &[6, 2, 7, 3, 9], &cyclic(5, 3));
    // One stack at 0, and a window as large as the circle.
    p += check("CN(4,3)", &[0, 11, 5, 66], &cyclic(4, 3));
    p += check("CN(3,3)", &[3, 9, 130], &cyclic(3, 3));
    assert!(p > 400, "{p} P-positions in all");
}

#[test]
fn heaps_on_boxes_with_a_bound_per_stack() {
    // Nim: P iff the XOR is 0 (normal play), checked here by the brute force.
    let singles: Vec<Vec<usize>> = (0..3).map(|i| vec![i]).collect();
    check("nim", &[5, 9, 100], &singles);
    let singles4: Vec<Vec<usize>> = (0..4).map(|i| vec![i]).collect();
    check("nim", &[3, 7, 2, 6], &singles4);
    // Moore's Nim_2 with 3 heaps: any 2 of them.
    let pairs = vec![vec![0, 1], vec![0, 2], vec![1, 2]];
    check("moore(2)", &[6, 7, 70], &pairs);
    // Nim's normal-play P-positions are those of XOR 0: a fact, not the brute force.
    let xor: BTreeSet<Vec<u64>> = engine("nim", &[5, 9, 100], Play::Normal);
    assert!(xor.iter().all(|p| p[0] ^ p[1] ^ p[2] == 0));
    assert_eq!(
        xor.len(),
        (0..=5u64)
            .flat_map(|a| (0..=9u64).map(move |b| a ^ b))
            .filter(|&c| c <= 100)
            .count()
    );
}
