//! SCN's automata against the game and exact membership on whole boxes: each move kind's relation
//! equals the game's moves, the set automata equal exact membership at every circle length, and the
//! pre-images equal "in the set or a move into it" found by enumerating the game's options.

use super::dfa::{Budget, Dfa};
use super::scn::{move_kinds, moves_into, sets};
use crate::conjecture::{from_theorem, Conjecture, Ruleset};
use nimlab_core::Pos;
use std::collections::HashSet;
use std::time::{Duration, Instant};

fn budget() -> Budget {
    Budget::new(Instant::now() + Duration::from_secs(120), 1 << 22)
}

fn theorem(id: &str, game: &str) -> Conjecture {
    from_theorem(id, Ruleset::parse(game).unwrap()).unwrap()
}

/// Every circle of `len` piles in `1..=hi`.
fn circles(len: usize, hi: u64) -> Vec<Pos> {
    let mut out: Vec<Pos> = vec![vec![]];
    for _ in 0..len {
        out = out
            .into_iter()
            .flat_map(|v| {
                (1..=hi).map(move |a| {
                    let mut w = v.clone();
                    w.push(a);
                    w
                })
            })
            .collect();
    }
    out
}

fn wide(p: &[u64]) -> Vec<u128> {
    p.iter().map(|&a| a as u128).collect()
}

/// Every pair (x, y) of circles with piles in `1..=hi`, x of `len` piles and y of at most `len`:
/// some move kind's relation (on some window) accepts the pair exactly when y is one of the game's
/// options of x. Returns the number of pairs that are moves.
fn relations_match(game: &str, len: usize, hi: u64) -> usize {
    let r = Ruleset::parse(game).unwrap();
    let g = r.game();
    let b = budget();
    let rels: Vec<(usize, Dfa)> = r
        .windows(len)
        .iter()
        .flat_map(|w| move_kinds(len, w))
        .map(|k| (k.target(), k.relation(&b).unwrap()))
        .collect();
    let ys: Vec<Pos> = (0..=len).flat_map(|l| circles(l, hi)).collect();
    let mut moves = 0;
    for x in circles(len, hi) {
        let options: HashSet<Pos> = g.options(&x).unwrap().into_iter().collect();
        for y in &ys {
            let xy: Vec<u128> = wide(&x).into_iter().chain(wide(y)).collect();
            let got = rels.iter().any(|(t, d)| *t == y.len() && d.accepts(&xy));
            assert_eq!(got, options.contains(y), "{game}: {x:?} -> {y:?}");
            moves += got as usize;
        }
    }
    moves
}

#[test]
fn move_relations_equal_the_games_moves() {
    // Small circles (the whole circle is one window), shrinking to every shorter length, and circles
    // longer than the window; tens of thousands of pairs each.
    for (game, len, hi) in [
        ("SCN(4,2)", 1, 6),
        ("SCN(4,2)", 2, 5),
        ("SCN(4,2)", 3, 4),
        ("SCN(4,2)", 4, 3),
        ("SCN(3,3)", 3, 4),
        ("SCN(5,3)", 5, 3),
    ] {
        assert!(relations_match(game, len, hi) > 0, "{game}: no move");
    }
}

#[test]
fn scn_set_automata_equal_exact_membership() {
    for (id, game, hi) in [
        ("scn-4-2", "SCN(4,2)", 9),
        ("scn-5-2", "SCN(5,2)", 7),
        ("scn-5-3", "SCN(5,3)", 7),
        ("scn-8-6", "SCN(8,6)", 3),
    ] {
        let c = theorem(id, game);
        let s = sets(&c, &budget()).unwrap();
        assert_eq!(s[0].accepts(&[]), c.contains(&[]), "{id}: ()");
        let mut inside = 0;
        for (len, d) in s.iter().enumerate().skip(1) {
            for p in circles(len, hi) {
                let want = c.contains(&p);
                inside += want as usize;
                assert_eq!(d.accepts(&wide(&p)), want, "{id}: {p:?}");
            }
        }
        assert!(inside > 0, "{id}: no member in the box");
    }
}

/// `moves_into` accepts x exactly when x is in the set or one of the game's options of x is; returns
/// the number of circles of the box it rejects (none when the set is the P-set).
fn pre_images_match(c: &Conjecture, hi: u64) -> usize {
    let b = budget();
    let s = sets(c, &b).unwrap();
    let g = c.game.game();
    let (mut yes, mut no) = (0, 0);
    for len in 1..=c.game.n {
        let e = moves_into(c, len, &s, &b).unwrap();
        for x in circles(len, hi) {
            let want = c.contains(&x) || g.options(&x).unwrap().iter().any(|y| c.contains(y));
            assert_eq!(e.accepts(&wide(&x)), want, "{}: {x:?}", c.source);
            if want {
                yes += 1;
            } else {
                no += 1;
            }
        }
    }
    assert!(yes > 0, "{}", c.source);
    no
}

#[test]
fn scn_pre_images_equal_exhaustive_search() {
    assert_eq!(pre_images_match(&theorem("scn-4-2", "SCN(4,2)"), 8), 0);
    assert_eq!(pre_images_match(&theorem("scn-5-2", "SCN(5,2)"), 6), 0);
    assert_eq!(pre_images_match(&theorem("scn-5-3", "SCN(5,3)"), 6), 0);
    // A wrong set (a family left out): some circles have no move into it.
    let mut c = theorem("scn-5-3", "SCN(5,3)");
    c.families.retain(|f| f.name != "(1,M,a,b,M)");
    assert!(pre_images_match(&c, 6) > 0);
}
