//! `Game::count_options` (the arithmetic count of distinct options) against `options().len()` (the
//! enumeration, repeats removed) for every built-in game, on random positions with zeros, repeated
//! values and equal neighbours; and at the top of the range, where the count must be exact or
//! saturate at `u128::MAX`, never wrap.

use nimlab_core::Rng;
use nimlab_games::registry::parse_game;

/// A random entry in `0..=hi` that is often 0, 1 or a value already used.
fn entry(rng: &mut Rng, hi: u64, used: &[u64], lo: u64) -> u64 {
    match rng.range(0, 5) {
        0 => lo,
        1 if !used.is_empty() => used[rng.range(0, used.len() as u64 - 1) as usize],
        2 => lo + 1,
        _ => rng.range(lo, hi),
    }
}

fn check(name: &str, lens: &[usize], lo: u64, hi: u64, tries: usize) {
    let g = parse_game(name).unwrap();
    let mut rng = Rng::new(0x5eed ^ name.len() as u64);
    let mut counted = 0;
    for t in 0..tries {
        let len = lens[t % lens.len()];
        let mut p = Vec::with_capacity(len);
        for _ in 0..len {
            let e = entry(&mut rng, hi, &p, lo);
            p.push(e);
        }
        if g.validate(&p).is_err() {
            continue;
        }
        let want = g.options(&p).unwrap().len() as u128;
        let got = g.count_options(&p);
        assert_eq!(got, Some(want), "{name} at {p:?}");
        counted += 1;
    }
    assert!(
        counted * 2 >= tries,
        "{name}: only {counted} valid positions"
    );
}

#[test]
fn face_games_count_every_option() {
    check("nim", &[0, 1, 2, 3, 5], 0, 9, 2000);
    for k in 1..=4 {
        check(&format!("moore({k})"), &[0, 1, 2, 3, 4, 5, 6], 0, 5, 1500);
    }
    for (n, k) in [(3, 2), (5, 2), (5, 3), (6, 4), (7, 4)] {
        check(&format!("CN({n},{k})"), &[n], 0, 4, 1500);
    }
    for name in [
        "ECN(6,{2},2)",
        "ECN(6,{1,2},3)",
        "ECN(8,{2},4)",
        "simplicial({1,2,3},{3,4},{4,1})",
        "simplicial({1,2},{2,3},{3,4},{4,5},{5,1},{1,3})",
    ] {
        let n = parse_game(name)
            .unwrap()
            .downcast_ref::<nimlab_games::complex::Complex>()
            .unwrap()
            .stacks();
        check(name, &[n], 0, 4, 1500);
    }
}

#[test]
fn shrinking_circles_count_every_option() {
    // Piles are at least 1; equal neighbours make emptying different piles give the same circle.
    for (n, k) in [
        (1, 1),
        (3, 1),
        (3, 2),
        (4, 2),
        (5, 2),
        (5, 3),
        (6, 3),
        (7, 4),
        (4, 4),
    ] {
        let lens: Vec<usize> = (0..=n).collect();
        check(&format!("SCN({n},{k})"), &lens, 1, 4, 2500);
    }
}

#[test]
fn chip_games_count_every_option() {
    for k in 2..=5 {
        check(&format!("ET({k})"), &[k], 1, 12, 1500);
        check(&format!("ER({k})"), &[k], 1, 9, 800);
        check(&format!("EABO({k})"), &[k], 1, 12, 800);
        check(&format!("SER({k})"), &[k], 1, 7, 600);
        check(&format!("ENTROPY({k})"), &[k], 0, 15, 1500);
    }
    check("EJR(5,2)", &[5], 1, 7, 600);
    check("EJR(6,3)", &[6], 1, 5, 400);
}

#[test]
fn counts_at_the_top_of_the_range_are_exact_or_saturated() {
    let top = u64::MAX;
    // Nim: one option per token below each heap, summed in u128.
    let nim = parse_game("nim").unwrap();
    assert_eq!(
        nim.count_options(&[top, top, 3]),
        Some(2 * u128::from(top) + 3)
    );
    // Moore's Nim_2 on 40 heaps of 2^64 - 1: e_1 + e_2 = 40 t + 780 t^2, past 2^128: saturated;
    // on (t, 5, 1): e_1 + e_2 = (t + 6) + (5t + t + 5), exact; on (t, t, 1) it passes 2^128.
    let moore = parse_game("moore(2)").unwrap();
    assert_eq!(moore.count_options(&[top; 40]), Some(u128::MAX));
    let t = u128::from(top);
    assert_eq!(moore.count_options(&[top, 5, 1]), Some(7 * t + 11));
    assert_eq!(moore.count_options(&[top, top, 1]), Some(u128::MAX));
    // CN(3,3): one window, (p1+1)(p2+1)(p3+1) - 1 = 2^192 - 1 saturates.
    let cn = parse_game("CN(3,3)").unwrap();
    assert_eq!(cn.count_options(&[top, top, top]), Some(u128::MAX));
    // CN(2,2) at (2^64-1, 1): 2^64 * 2 - 1, exactly.
    let cn = parse_game("CN(2,2)").unwrap();
    assert_eq!(cn.count_options(&[top, 1]), Some((1u128 << 65) - 1));
    // ET(2): boxes a, b: splits of b (a emptied) and of a (b emptied).
    let et = parse_game("ET(2)").unwrap();
    assert_eq!(
        et.count_options(&[top, top - 1]),
        Some(u128::from(top / 2) + u128::from((top - 1) / 2))
    );
    // ENTROPY(2): floor((a - b) / 2).
    let en = parse_game("ENTROPY(2)").unwrap();
    assert_eq!(en.count_options(&[0, top]), Some(u128::from(top / 2)));
    // ER(2) keeps one box of n chips: n - 1 splits into two parts, floor(n/2) of them.
    let er = parse_game("ER(2)").unwrap();
    assert_eq!(er.count_options(&[top, 5]), Some(u128::from(top / 2) + 2));
    // ER(7) at 1^5 2 10^12: kept totals 10^12 + 6 and 10^12 + 7, and 7 (discarding the big box):
    // partitions into 7 parts, far past 2^128 for the big totals.
    let er7 = parse_game("ER(7)").unwrap();
    let p = er7.parse_position("1^5 2 1000000000000").unwrap();
    assert_eq!(er7.count_options(&p), Some(u128::MAX));
    // SCN(2,2) at (2^64-1, 2^64-1): every lowering of either or both piles, emptied or not.
    let scn = parse_game("SCN(2,2)").unwrap();
    let t = u128::from(top);
    // Length 2: t*t - 1; length 1: two boxes [1,t] (keep pile 1 or pile 2), the same values: t;
    // length 0: the empty circle.
    assert_eq!(scn.count_options(&[top, top]), Some(t * t - 1 + t + 1));
}
