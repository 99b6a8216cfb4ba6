//! The Circular Nim and Shrinking Circular Nim results against exhaustive search over whole boxes,
//! through the shared harness: the searched P-set of each box is tabulated once (exact), then every
//! position's membership test and constructed winning move are checked against it.

use nimlab_core::{Game, Pos};
use nimlab_games::{CircularNim, ShrinkingCircularNim};
use nimlab_theory::harness::{self, BoxPSet, Coverage};
use nimlab_theory::{cn74, cn_small, scn, Theorem};
use std::time::Instant;

/// Every tuple of `len` entries in `lo..=hi`.
fn tuples(len: usize, lo: u64, hi: u64) -> Vec<Pos> {
    let mut out: Vec<Pos> = vec![vec![]];
    for _ in 0..len {
        out = out
            .into_iter()
            .flat_map(|q| {
                (lo..=hi).map(move |v| {
                    let mut r = q.clone();
                    r.push(v);
                    r
                })
            })
            .collect();
    }
    out
}

/// Every circle of at most `n` piles in `1..=hi` (the empty circle included).
fn circles(n: usize, hi: u64) -> Vec<Pos> {
    (0..=n).flat_map(|m| tuples(m, 1, hi)).collect()
}

fn run(t: &dyn Theorem, g: &dyn Game, hi: u64, positions: Vec<Pos>) -> (Coverage, usize) {
    let start = Instant::now();
    let table = BoxPSet::new(g, hi);
    let total = positions.len();
    let c = harness::check_with_table(t, &table, positions);
    eprintln!(
        "{} on {} (max {hi}): {c:?}, {} canonical P, {:.2} s",
        t.id(),
        g.id(),
        table.canonical_count(),
        start.elapsed().as_secs_f64()
    );
    assert_eq!(c.decided, total, "{} decides every position", t.id());
    assert!(c.p_positions > 0 && c.moves_checked > 0);
    (c, table.canonical_count())
}

fn cn(n: usize, k: usize) -> CircularNim {
    CircularNim::new(n, k).unwrap()
}

fn scn_game(n: usize, k: usize) -> ShrinkingCircularNim {
    ShrinkingCircularNim::new(n, k).unwrap()
}

#[test]
fn cn_5_2_and_5_3_on_0_to_8() {
    run(&cn_small::cn52(), &cn(5, 2), 8, tuples(5, 0, 8));
    run(&cn_small::cn53(), &cn(5, 3), 8, tuples(5, 0, 8));
}

#[test]
fn cn_6_3_on_0_to_6() {
    run(&cn_small::cn63(), &cn(6, 3), 6, tuples(6, 0, 6));
}

#[test]
fn cn_6_4_on_0_to_6() {
    run(&cn_small::Cn64, &cn(6, 4), 6, tuples(6, 0, 6));
}

#[test]
fn cn_7_4_on_0_to_5() {
    run(&cn74::cn74(), &cn(7, 4), 5, tuples(7, 0, 5));
}

#[test]
fn cn_8_6_on_0_to_3() {
    run(&cn_small::cn86(), &cn(8, 6), 3, tuples(8, 0, 3));
}

#[test]
fn scn_4_2_5_2_5_3_on_piles_to_8() {
    run(&scn::scn42(), &scn_game(4, 2), 8, circles(4, 8));
    run(&scn::scn52(), &scn_game(5, 2), 8, circles(5, 8));
    run(&scn::scn53(), &scn_game(5, 3), 8, circles(5, 8));
}

#[test]
fn scn_8_6_on_piles_to_4() {
    run(&scn::scn86(), &scn_game(8, 6), 4, circles(8, 4));
}
