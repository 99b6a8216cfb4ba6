//! The Circular Nim and Shrinking Circular Nim results against exhaustive search over whole boxes,
//! through the shared harness: the searched P-set of each box is tabulated once (exact), then every
//! position's membership test and constructed winning move are checked against it.

use nimlab_core::{Game, Pos};
use nimlab_games::{CircularNim, ShrinkingCircularNim};
use nimlab_testkit::{self as harness, BoxPSet, Coverage};
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

/// A legal CN(n,k) move, checked from the rules: q <= p, q != p, and every changed stack lies in one
/// window of k consecutive stacks (the whole circle when k = n).
fn cn_legal(k: usize) -> impl Fn(&[u64], &[u64]) -> bool {
    move |p: &[u64], q: &[u64]| {
        let n = p.len();
        if q.len() != n || q == p || q.iter().zip(p).any(|(a, b)| a > b) {
            return false;
        }
        let changed: Vec<usize> = (0..n).filter(|&i| q[i] != p[i]).collect();
        k == n || (0..n).any(|s| changed.iter().all(|&i| (i + n - s) % n < k))
    }
}

/// A legal SCN(n,k) move, checked from the rules: some window of k consecutive piles (all piles when
/// the circle has at most k) is lowered, at least one token in all, and the emptied piles vanish.
fn scn_legal(k: usize) -> impl Fn(&[u64], &[u64]) -> bool {
    move |p: &[u64], q: &[u64]| {
        let m = p.len();
        let starts = if m <= k { 1 } else { m };
        let width = k.min(m);
        (0..starts).any(|s| {
            let inw = |i: usize| (i + m - s) % m < width;
            // Every lowering of the window, described by the piles it keeps and their new sizes:
            // the kept piles in circle order must be q, with kept window piles <= p and others == p.
            (0..1u32 << width).any(|mask| {
                // mask bit j set: window pile (s + j) % m is emptied
                let gone = |i: usize| inw(i) && mask >> ((i + m - s) % m) & 1 == 1;
                let kept: Vec<usize> = (0..m).filter(|&i| !gone(i)).collect();
                kept.len() == q.len()
                    && kept
                        .iter()
                        .zip(q)
                        .all(|(&i, &v)| v >= 1 && if inw(i) { v <= p[i] } else { v == p[i] })
                    && (mask != 0 || q != p)
            })
        })
    }
}

/// (n, k, shrinking) of a CN or SCN game.
fn circle(g: &dyn Game) -> (usize, usize, bool) {
    if let Some(c) = g.downcast_ref::<CircularNim>() {
        return (c.n, c.k, false);
    }
    let c = g
        .downcast_ref::<ShrinkingCircularNim>()
        .expect("a circular game");
    (c.n, c.k, true)
}

fn run(t: &dyn Theorem, g: &dyn Game, hi: u64, positions: Vec<Pos>) -> (Coverage, usize) {
    let start = Instant::now();
    let table = BoxPSet::new(g, hi);
    let total = positions.len();
    let (_, k, shrinking) = circle(g);
    let c = if !shrinking {
        harness::check_with_table_and_rule(t, &table, positions, &cn_legal(k))
    } else {
        harness::check_with_table_and_rule(t, &table, positions, &scn_legal(k))
    };
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
fn the_legality_tests_agree_with_the_move_generators() {
    for (g, ps) in [
        (Box::new(cn(5, 2)) as Box<dyn Game>, tuples(5, 0, 2)),
        (Box::new(cn(6, 6)), tuples(6, 0, 1)),
        (Box::new(scn_game(5, 3)), circles(5, 2)),
        (Box::new(scn_game(4, 2)), circles(4, 3)),
    ] {
        let (_, k, shrinking) = circle(g.as_ref());
        for p in &ps {
            let opts: std::collections::HashSet<Pos> = g.options(p).unwrap().into_iter().collect();
            for q in &ps {
                let legal = if !shrinking {
                    cn_legal(k)(p, q)
                } else {
                    scn_legal(k)(p, q)
                };
                assert_eq!(legal, opts.contains(q), "{} {p:?} -> {q:?}", g.id());
            }
        }
    }
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

#[test]
fn trivial_scn_cases_for_n_at_most_5() {
    // k = 1 (Nim), k = n (take all), k = n-1 (full circle of equal piles): every SCN(n,k), n <= 5,
    // other than SCN(4,2), SCN(5,2), SCN(5,3).
    for n in 1..=5usize {
        let hi = 8;
        let g = scn_game(n, 1);
        run(&scn::ScnNim, &g, hi, circles(n, hi));
        if n >= 2 {
            let g = scn_game(n, n);
            run(&scn::ScnWhole, &g, hi, circles(n, hi));
        }
        if n >= 3 {
            let g = scn_game(n, n - 1);
            let (c, _) = run(&scn::ScnAllButOne, &g, hi, circles(n, hi));
            // () and the hi constant full circles.
            assert_eq!(c.p_positions as u64, 1 + hi);
        }
    }
    // SCN(1,1): only () is P.
    run(&scn::ScnWhole, &scn_game(1, 1), 8, circles(1, 8));
}

/// Positions with huge stacks (mixed with small ones, and with near-P structure from scaled box
/// positions): every N-position gets a legal move that the entry's membership test accepts.
#[test]
fn huge_stacks_get_legal_moves_into_the_p_set() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let big = 1u64 << 60;
    let entries: Vec<(Box<dyn Theorem>, Box<dyn Game>)> = vec![
        (Box::new(cn_small::cn52()), Box::new(cn(5, 2))),
        (Box::new(cn_small::cn53()), Box::new(cn(5, 3))),
        (Box::new(cn_small::cn63()), Box::new(cn(6, 3))),
        (Box::new(cn_small::Cn64), Box::new(cn(6, 4))),
        (Box::new(cn74::cn74()), Box::new(cn(7, 4))),
        (Box::new(cn_small::cn86()), Box::new(cn(8, 6))),
        (Box::new(scn::scn42()), Box::new(scn_game(4, 2))),
        (Box::new(scn::scn52()), Box::new(scn_game(5, 2))),
        (Box::new(scn::scn53()), Box::new(scn_game(5, 3))),
        (Box::new(scn::scn86()), Box::new(scn_game(8, 6))),
    ];
    for (t, g) in &entries {
        let (n, k, shrinking) = circle(g.as_ref());
        let (mut n_positions, mut p_positions) = (0, 0);
        for round in 0..400 {
            let p: Pos = (0..n)
                .map(|_| {
                    let v = match rnd() % 4 {
                        0 => rnd() % 4,
                        1 => big + rnd() % 8,
                        2 => rnd() % big,
                        _ => big / 2 + rnd() % 8,
                    };
                    // A few rounds with all stacks of one size class: closer to the P-families.
                    let v = if round % 3 == 0 { big + v % 8 } else { v };
                    if shrinking {
                        v.max(1)
                    } else {
                        v
                    }
                })
                .collect();
            let v = t.decide(g.as_ref(), &p).expect("decides");
            if v.is_p {
                p_positions += 1;
                continue;
            }
            n_positions += 1;
            let moves = v.winning_moves.unwrap_or_default();
            assert!(!moves.is_empty(), "{} {p:?}: no move", t.id());
            for q in &moves {
                let legal = if shrinking {
                    scn_legal(k)(&p, q)
                } else {
                    cn_legal(k)(&p, q)
                };
                assert!(legal, "{} {p:?} -> {q:?} is not legal", t.id());
                assert!(
                    t.decide(g.as_ref(), q).unwrap().is_p,
                    "{} {p:?} -> {q:?} is not in the P-set",
                    t.id()
                );
            }
        }
        assert!(n_positions > 300, "{} {p_positions}", t.id());
    }
}

/// A linear-family entry made to list every winning move at every position (the registry's entries
/// list them all only where the options are too many to value one by one).
struct ListAll(nimlab_theory::linear::FamilyTheorem);

impl Theorem for ListAll {
    fn id(&self) -> &'static str {
        self.0.id()
    }
    fn games(&self) -> &'static str {
        self.0.games()
    }
    fn statement(&self) -> &'static str {
        self.0.statement()
    }
    fn source(&self) -> &'static str {
        self.0.source()
    }
    fn play(&self) -> nimlab_core::Play {
        self.0.play()
    }
    fn covers(&self, game: &dyn Game) -> bool {
        self.0.covers(game)
    }
    fn scope(&self) -> nimlab_theory::Scope {
        self.0.scope()
    }
    fn decide(&self, _game: &dyn Game, p: &[u64]) -> Option<nimlab_theory::Verdict> {
        self.0.decide_with(p, true)
    }
}

/// Every linear-family entry, listing every winning move, on a sample of its box: each list claimed
/// complete must be exactly the options that the tabulated box finds P (the harness compares them),
/// and on these small boxes every list is complete.
#[test]
fn linear_families_list_every_winning_move() {
    let cases: Vec<(nimlab_theory::linear::FamilyTheorem, Box<dyn Game>, u64)> = vec![
        (cn_small::cn52(), Box::new(cn(5, 2)), 6),
        (cn_small::cn53(), Box::new(cn(5, 3)), 6),
        (cn_small::cn63(), Box::new(cn(6, 3)), 4),
        (cn74::cn74(), Box::new(cn(7, 4)), 4),
        (cn_small::cn86(), Box::new(cn(8, 6)), 2),
        (scn::scn42(), Box::new(scn_game(4, 2)), 6),
        (scn::scn52(), Box::new(scn_game(5, 2)), 5),
        (scn::scn53(), Box::new(scn_game(5, 3)), 5),
        (scn::scn86(), Box::new(scn_game(8, 6)), 3),
    ];
    for (t, g, hi) in cases {
        let t = ListAll(t);
        let (n, k, shrinking) = circle(g.as_ref());
        let all = if shrinking {
            circles(n, hi)
        } else {
            tuples(n, 0, hi)
        };
        // About 1500 positions spread over the box.
        let step = (all.len() / 1500).max(1);
        let sample: Vec<Pos> = all.into_iter().step_by(step).collect();
        let table = BoxPSet::new(g.as_ref(), hi);
        let c = if shrinking {
            harness::check_with_table_and_rule(&t, &table, sample, &scn_legal(k))
        } else {
            harness::check_with_table_and_rule(&t, &table, sample, &cn_legal(k))
        };
        eprintln!("{} listing every move on {}: {c:?}", t.id(), g.id());
        assert_eq!(
            c.complete_claimed,
            c.decided - c.p_positions,
            "{}: every list complete",
            t.id()
        );
        assert!(c.complete_lists > 100, "{}: {c:?}", t.id());
    }
}
