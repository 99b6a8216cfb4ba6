//! Ferguson's chip-transfer games: every theory entry against exhaustive search (through the shared
//! harness), the move generators against an independent brute force written from the rules of
//! Ferguson, *Some Chip Transfer Games* (see docs/rules.md#fergusons-chip-transfer-games), and the
//! worked examples of the paper. Expected values come from the paper or from hand
//! calculation (shown in comments), never from the code under test.
//!
//! Harness sizes (all positions with a chip total up to the bound, every k listed):
//! * ET: k = 2 up to 80 chips, k = 3 up to 40, k = 4 up to 32, k = 5..7 up to 24;
//! * EABO, ER, SER and EJR(k,1), EJR(k,k-1): k = 2, 3 up to 40, k = 4..7 up to 24, plus ER(10) up to 36
//!   (misère, the k ≡ 4 mod 6 case past 3k);
//! * ENTROPY(3): every position with max − min <= 48 (the game keeps the total; the bound is on the
//!   spread, which every move lowers).

use nimlab_core::{Game, Outcome, Play, Pos, Solver};
use nimlab_games::chip::{self, EmptyTransfer, EntropyReduction, Redistribute};
use nimlab_testkit as harness;
use nimlab_theory::ferguson::{self, *};
use nimlab_theory::Theorem;
use std::collections::BTreeSet;

fn upto(k: usize, s: u64) -> Vec<Pos> {
    chip::positions_with_sum_at_most(k, 1, s)
}

fn run(t: &dyn Theorem, g: &dyn Game, ps: Vec<Pos>, must_decide_all: bool) {
    let n = ps.len();
    let c = harness::check(t, g, ps);
    if must_decide_all {
        assert_eq!(
            c.decided,
            n,
            "{} on {} decides every position",
            t.id(),
            g.id()
        );
    }
    assert!(c.decided > 0, "{} on {} decided nothing", t.id(), g.id());
    eprintln!("{:28} {:10} {:?}", t.id(), g.id(), c);
}

fn bound_for(k: usize) -> u64 {
    if k <= 3 {
        40
    } else {
        24
    }
}

// ---------------------------------------------------------------------------------------------
// Harness: every entry against search
// ---------------------------------------------------------------------------------------------

#[test]
fn empty_transfer_entries_against_search() {
    for (k, s) in [(2usize, 80u64), (3, 40), (4, 32), (5, 24), (6, 24), (7, 24)] {
        let g = EmptyTransfer::new(k).unwrap();
        let ps = upto(k, s);
        run(&EtAllOdd, &g, ps.clone(), false);
        run(&EtOneOrTwoEven, &g, ps.clone(), false);
        match k {
            2 => run(&EtTwoBoxGrundy, &g, ps, true),
            3 => run(&EtThreeBoxes, &g, ps, true),
            4 => run(&EtFourBoxes, &g, ps, true),
            _ => {}
        }
    }
}

#[test]
fn prop2_says_nothing_elsewhere() {
    let g = EmptyTransfer::new(5).unwrap();
    // Three even boxes, and no even box: Proposition 2 must not decide.
    assert!(EtOneOrTwoEven.decide(&g, &[2, 2, 2, 1, 1]).is_none());
    assert!(EtOneOrTwoEven.decide(&g, &[1, 1, 1, 1, 1]).is_none());
    assert!(EtAllOdd.decide(&g, &[2, 1, 1, 1, 1]).is_none());
}

#[test]
fn redistribute_entries_against_search() {
    for k in 2..=7usize {
        let s = bound_for(k);
        let ps = upto(k, s);
        let eabo = Redistribute::eabo(k).unwrap();
        run(&EaboNormal, &eabo, ps.clone(), true);
        run(&EaboMisere, &eabo, ps.clone(), true);
        let er = Redistribute::er(k).unwrap();
        run(&ErNormal, &er, ps.clone(), true);
        run(&ErMisere, &er, ps.clone(), true);
        let ser = Redistribute::ser(k).unwrap();
        run(&SerNormal, &ser, ps.clone(), true);
        if k >= 3 {
            // The same entries through EJR(k,1) and EJR(k,k-1), on a smaller range.
            let small = upto(k, s.min(20));
            run(
                &ErNormal,
                &Redistribute::ejr(k, 1).unwrap(),
                small.clone(),
                true,
            );
            run(
                &EaboNormal,
                &Redistribute::ejr(k, k - 1).unwrap(),
                small,
                true,
            );
        }
    }
    // k = 10 ≡ 4 (mod 6): the misère cases n >= 3k = 30 need totals above 30.
    let er10 = Redistribute::er(10).unwrap();
    run(&ErMisere, &er10, upto(10, 36), true);
    run(&ErNormal, &er10, upto(10, 36), true);
}

#[test]
fn entropy_k3_entries_against_search() {
    let g = EntropyReduction::new(3).unwrap();
    let ps = g.positions_with_spread_at_most(48);
    run(&Entropy3Normal, &g, ps.clone(), true);
    run(&Entropy3Misere, &g, ps, true);
    // Translated positions give the same verdicts and moves in their own coordinates.
    let v = Entropy3Normal.decide(&g, &[1000, 1003, 1010]).unwrap();
    let w = Entropy3Normal.decide(&g, &[0, 3, 10]).unwrap();
    assert_eq!(v.is_p, w.is_p);
    let shifted: Vec<Pos> = w
        .winning_moves
        .unwrap()
        .iter()
        .map(|q| q.iter().map(|x| x + 1000).collect())
        .collect();
    assert_eq!(v.winning_moves.unwrap(), shifted);
}

// ---------------------------------------------------------------------------------------------
// Independent brute force for the move generators
// ---------------------------------------------------------------------------------------------

/// Every ordered k-tuple of positive integers with sum n (compositions), sorted into multisets.
fn compositions(n: u64, k: usize, out: &mut BTreeSet<Pos>) {
    fn rec(n: u64, k: usize, cur: &mut Vec<u64>, out: &mut BTreeSet<Pos>) {
        if k == 0 {
            if n == 0 {
                let mut q = cur.clone();
                q.sort();
                out.insert(q);
            }
            return;
        }
        for a in 1..=n {
            cur.push(a);
            rec(n - a, k - 1, cur, out);
            cur.pop();
        }
    }
    rec(n, k, &mut Vec::new(), out);
}

#[derive(Clone, Copy)]
enum Rule {
    Et,
    /// Discard between lo and hi boxes (inclusive), then redistribute.
    Discard(usize, usize),
    Entropy,
}

fn brute_options(rule: Rule, p: &[u64]) -> BTreeSet<Pos> {
    let k = p.len();
    let mut out = BTreeSet::new();
    match rule {
        Rule::Et => {
            for i in 0..k {
                for j in 0..k {
                    if i == j {
                        continue;
                    }
                    for t in 1..p[j] {
                        let mut q = p.to_vec();
                        q[i] = t; // box i emptied, then receives t chips
                        q[j] -= t;
                        q.sort();
                        out.insert(q);
                    }
                }
            }
        }
        Rule::Discard(lo, hi) => {
            for mask in 1u32..(1 << k) {
                let d = mask.count_ones() as usize;
                if d < lo || d > hi {
                    continue;
                }
                let kept: u64 = (0..k).filter(|i| mask >> i & 1 == 0).map(|i| p[i]).sum();
                if kept >= k as u64 {
                    compositions(kept, k, &mut out);
                }
            }
        }
        Rule::Entropy => {
            for i in 0..k {
                for j in 0..k {
                    if i == j {
                        continue;
                    }
                    // Take t chips from box i into box j when that makes them strictly closer.
                    for t in 1..=p[i] {
                        let before = p[i].abs_diff(p[j]);
                        let after = (p[i] - t).abs_diff(p[j] + t);
                        if after < before {
                            let mut q = p.to_vec();
                            q[i] -= t;
                            q[j] += t;
                            q.sort();
                            out.insert(q);
                        }
                    }
                }
            }
        }
    }
    out
}

fn sorted_options(g: &dyn Game, p: &[u64]) -> BTreeSet<Pos> {
    g.options(p)
        .unwrap()
        .into_iter()
        .map(|mut q| {
            q.sort();
            q
        })
        .collect()
}

#[test]
fn move_generators_match_an_independent_brute_force() {
    for k in 2..=5usize {
        let s = if k <= 3 { 16 } else { 13 };
        let games: Vec<(Box<dyn Game>, Rule)> = vec![
            (Box::new(EmptyTransfer::new(k).unwrap()), Rule::Et),
            (
                Box::new(Redistribute::eabo(k).unwrap()),
                Rule::Discard(k - 1, k - 1),
            ),
            (Box::new(Redistribute::er(k).unwrap()), Rule::Discard(1, 1)),
            (
                Box::new(Redistribute::ser(k).unwrap()),
                Rule::Discard(1, k - 1),
            ),
        ];
        let mut all: Vec<(Box<dyn Game>, Rule)> = games;
        for j in 1..k {
            all.push((
                Box::new(Redistribute::ejr(k, j).unwrap()),
                Rule::Discard(j, j),
            ));
        }
        for (g, rule) in &all {
            for p in upto(k, s) {
                // Also in a scrambled order: options must not depend on the order of boxes.
                let mut r = p.clone();
                r.reverse();
                let want = brute_options(*rule, &r);
                assert_eq!(sorted_options(g.as_ref(), &r), want, "{} {:?}", g.id(), r);
                assert_eq!(
                    g.is_terminal(&p).unwrap(),
                    want.is_empty(),
                    "{} {:?}",
                    g.id(),
                    p
                );
            }
        }
        let e = EntropyReduction::new(k).unwrap();
        for p in e.positions_with_spread_at_most(if k <= 3 { 12 } else { 6 }) {
            let q: Pos = p.iter().rev().map(|x| x + 3).collect();
            assert_eq!(
                sorted_options(&e, &q),
                brute_options(Rule::Entropy, &q),
                "{} {:?}",
                e.id(),
                q
            );
        }
    }
}

#[test]
fn ejr_extremes_are_er_and_eabo() {
    for k in 2..=6usize {
        let s = if k <= 3 { 30 } else { 20 };
        let pairs = [
            (
                Redistribute::ejr(k, 1).unwrap(),
                Redistribute::er(k).unwrap(),
            ),
            (
                Redistribute::ejr(k, k - 1).unwrap(),
                Redistribute::eabo(k).unwrap(),
            ),
        ];
        for (a, b) in &pairs {
            let mut sa = Solver::new(a);
            let mut sb = Solver::new(b);
            for p in upto(k, s) {
                assert_eq!(sorted_options(a, &p), sorted_options(b, &p), "{:?}", p);
                assert_eq!(
                    sa.grundy(&p).unwrap(),
                    sb.grundy(&p).unwrap(),
                    "{} vs {} {:?}",
                    a.id(),
                    b.id(),
                    p
                );
                assert_eq!(
                    sa.outcome(&p, Play::Misere).unwrap(),
                    sb.outcome(&p, Play::Misere).unwrap(),
                    "{} vs {} {:?}",
                    a.id(),
                    b.id(),
                    p
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The paper's worked examples
// ---------------------------------------------------------------------------------------------

#[test]
fn et_two_boxes_grundy_example() {
    // Ferguson §2: g(31,54) = 1 + g(16,27) = ... = 6 + g(1,1) = 6, and the binary method agrees.
    assert_eq!(et2_grundy(31, 54), 6);
    assert_eq!(et2_grundy_binary(31, 54), 6);
    assert_eq!(et2_grundy(16, 27), 5);
    assert_eq!(et2_grundy(1, 2), 1);
    // The two methods agree everywhere on a box and far out.
    for x in 1..200u64 {
        for y in 1..200u64 {
            assert_eq!(et2_grundy(x, y), et2_grundy_binary(x, y), "({x},{y})");
        }
    }
    assert_eq!(
        et2_grundy(u64::MAX, u64::MAX - 1),
        et2_grundy_binary(u64::MAX, u64::MAX - 1)
    );
    // And exhaustive search agrees at (31,54).
    let g = EmptyTransfer::new(2).unwrap();
    assert_eq!(Solver::new(&g).grundy(&[31, 54]).unwrap(), 6);
    // Lemma 2: g(2^n, v) = n for 1 <= v <= 2^n.
    for n in 0..6u32 {
        for v in 1..=(1u64 << n) {
            assert_eq!(et2_grundy(1 << n, v), n as u64);
        }
    }
}

#[test]
fn er_f_r_s_and_x_examples() {
    // f(k) = 1 iff k is even; f(7) = 3, f(61) = 6; no k has f(k) = 5.
    assert_eq!(er_f(7), 3);
    assert_eq!(er_f(61), 6);
    for k in 2..20000u64 {
        assert_eq!(er_f(k) == 1, k % 2 == 0, "k = {k}");
        assert_ne!(er_f(k), 5, "k = {k}");
    }
    // R(7) = {8,10,12} ∪ {15,18} ∪ {22,26,30,...}; R_1(6) = {7,9,11,...}; R_2(7) = {15,18}.
    let s7 = er_summary(7, 34).unwrap();
    assert_eq!(s7.f, 3);
    assert_eq!(s7.r[..7], [8, 10, 12, 15, 18, 22, 26]);
    assert_eq!(s7.r, vec![8, 10, 12, 15, 18, 22, 26, 30, 34]);
    assert_eq!(
        s7.s[..16],
        [7, 9, 11, 13, 14, 16, 17, 19, 20, 21, 23, 24, 25, 27, 28, 29]
    );
    let r6 = er_summary(6, 15).unwrap().r;
    assert_eq!(r6, vec![7, 9, 11, 13, 15]);
    assert_eq!(er_r_index(7, 15), Some(2));
    assert_eq!(er_r_index(7, 18), Some(2));
    assert_eq!(er_r_index(7, 21), None);
    // x(7) = 1^7, x(16) = 1^6 10, x(28) = 2^6 16 for k = 7.
    assert_eq!(er_x(7, 7), Some((1, 1)));
    assert_eq!(er_x(7, 16), Some((1, 10)));
    assert_eq!(er_x(7, 28), Some((2, 16)));
    assert_eq!(er_x(7, 26), None);
    let text = s7.to_string();
    assert!(text.contains("x(16) = 1^6 10"), "{text}");
    assert!(text.contains("x(28) = 2^6 16"), "{text}");
    assert!(text.contains("f(7) = 3"), "{text}");
    assert!(er_summary(1, 10).is_none());
    // Big k and big norms stay exact (by hand): f(61) = 6 (2, 3, 4, 5, 6 divide 60; 7 does not), so
    // R_6(61) = {n >= 366 : n ≡ 6·60 ≡ 3 (mod 7)}. 10^30 ≡ 3^30 = (3^6)^5 ≡ 1 (mod 7): in S(61), with
    // v = (10^30 - 360) mod 7 = (1 - 3) mod 7 = 5 and z = 10^30 - 60·5. 10^30 + 2 ≡ 3: in R_6(61).
    let n = 10u128.pow(30);
    assert_eq!(er_f(61), 6);
    assert_eq!(er_r_index(61, n), None);
    assert!(er_in_s(61, n));
    assert_eq!(er_x(61, n), Some((5, n - 300)));
    assert_eq!(er_r_index(61, n + 2), Some(6));
    assert!(!er_in_s(61, n + 2));
    assert_eq!(er_x(61, n + 2), None);
}

/// Every multiset of exactly `k` positive parts with sum `n`, as ascending vectors (written here from
/// scratch, independent of `nimlab_games::chip`).
fn parts(n: u64, k: usize) -> Vec<Pos> {
    fn rec(n: u64, k: usize, min: u64, cur: &mut Pos, out: &mut Vec<Pos>) {
        if k == 0 {
            if n == 0 {
                out.push(cur.clone());
            }
            return;
        }
        // The remaining k parts are each >= min, so the next one is at most n / k.
        let mut a = min;
        while a * k as u64 <= n {
            cur.push(a);
            rec(n - a, k - 1, a, cur, out);
            cur.pop();
            a += 1;
        }
    }
    let mut out = Vec::new();
    rec(n, k, 1, &mut Vec::new(), &mut out);
    out
}

/// Normal-play outcomes of ER(k) for every position of total at most `max`, by brute force from the
/// rules (docs/rules.md#empty--redistribute-erk): a move discards the chips of one box and
/// redistributes the chips of the other k - 1 boxes over the k boxes, each getting at least one chip.
/// A position is P iff no option is P; options have a smaller total, so totals are done in increasing
/// order. Independent of the theory entry and of the game's move generator.
fn er_brute_force(k: usize, max: u64) -> std::collections::HashMap<Pos, bool> {
    let mut is_p: std::collections::HashMap<Pos, bool> = std::collections::HashMap::new();
    let by_total: Vec<Vec<Pos>> = (0..=max).map(|n| parts(n, k)).collect();
    for n in k as u64..=max {
        for p in &by_total[n as usize] {
            let mut discards = p.clone();
            discards.dedup();
            let wins = discards.iter().any(|&x| {
                let m = n - x;
                m >= k as u64 && by_total[m as usize].iter().any(|q| is_p[q])
            });
            is_p.insert(p.clone(), !wins);
        }
    }
    is_p
}

#[test]
fn er_p_set_and_the_r_s_claims_against_an_independent_brute_force() {
    for (k, max) in [
        (2usize, 60u64),
        (3, 48),
        (4, 36),
        (5, 34),
        (6, 30),
        (7, 36),
        (8, 30),
    ] {
        let brute = er_brute_force(k, max);
        let g = Redistribute::er(k).unwrap();
        // The P-set: the entry's verdict and membership test against the brute force, and every
        // constructed move is a rules move (the boxes other than one discarded box hold exactly the
        // move's chips) into a brute-force P-position.
        let mut p_count = 0;
        for (p, &want) in &brute {
            let v = ErNormal.decide(&g, p).expect("decides every position");
            assert_eq!(v.is_p, want, "ER({k}) {p:?}: entry says P = {}", v.is_p);
            assert_eq!(er_is_p(k, p), want, "ER({k}) {p:?}: er_is_p");
            p_count += usize::from(want);
            let n: u64 = p.iter().sum();
            for q in v.winning_moves.unwrap_or_default() {
                let m: u64 = q.iter().sum();
                assert!(
                    q.len() == k && q.iter().all(|&x| x >= 1) && p.iter().any(|&x| n - x == m),
                    "ER({k}) {p:?} -> {q:?} is not a move"
                );
                assert!(brute[&sorted_copy(&q)], "ER({k}) {p:?} -> {q:?} is not P");
            }
        }
        assert!(p_count >= 10, "ER({k}): {p_count} P-positions");
        // S(k) is the set of norms of P-positions and R(k) the rest of {k, k+1, ...}; x(n) = v^(k-1) z
        // is a P-position of norm n for every n in S(k).
        let (mut in_s, mut in_r) = (0, 0);
        for n in k as u64..=max {
            let has_p = parts(n, k).iter().any(|q| brute[q]);
            let nn = n as u128;
            assert_eq!(er_in_s(k as u64, nn), has_p, "ER({k}): n = {n} in S(k)");
            assert_eq!(
                er_r_index(k as u64, nn).is_some(),
                !has_p,
                "ER({k}): n = {n} in R(k)"
            );
            match er_x(k as u64, nn) {
                Some((v, z)) => {
                    assert!(has_p, "ER({k}): x({n}) given for n outside S(k)");
                    assert!(v >= 1 && z >= 1 && (k as u128 - 1) * v + z == nn);
                    let mut x = vec![v as u64; k - 1];
                    x.push(z as u64);
                    x.sort();
                    assert!(brute[&x], "ER({k}): x({n}) = {x:?} is not P");
                    in_s += 1;
                }
                None => {
                    assert!(!has_p, "ER({k}): no x({n}) for n in S(k)");
                    in_r += 1;
                }
            }
        }
        assert!(in_s > 0 && in_r > 0, "ER({k}): |S| = {in_s}, |R| = {in_r}");
        // Every part R_j(k) is met in the range (R_f(k) from k·f(k) on).
        let f = er_f(k as u64);
        for j in 1..=f {
            assert!(
                (k as u64..=max).any(|n| er_r_index(k as u64, n as u128) == Some(j)),
                "ER({k}): R_{j} not reached below {max}"
            );
        }
    }
}

fn sorted_copy(p: &[u64]) -> Pos {
    let mut q = p.to_vec();
    q.sort();
    q
}

#[test]
fn er_misere_k10_example() {
    // k = 10, x = 3^5 4^2 7 11 29 (norm 70): the winning moves are to 3^9 39 and 2^9 23.
    let g = Redistribute::er(10).unwrap();
    let p = g.parse_position("3^5 4^2 7 11 29").unwrap();
    assert_eq!(p.iter().sum::<u64>(), 70);
    let v = ErMisere.decide(&g, &p).unwrap();
    assert!(!v.is_p);
    let want: Vec<Pos> = vec![
        g.parse_position("2^9 23").unwrap(),
        g.parse_position("3^9 39").unwrap(),
    ];
    assert_eq!(v.winning_moves.clone().unwrap(), want);
    assert_eq!(chip::format_power(&v.winning_moves.unwrap()[1]), "3^9 39");
    // Both are legal: discard a 4 (66 chips left) or the 29 (41 left) and redistribute.
    let opts: BTreeSet<Pos> = sorted_options(&g, &p);
    for q in &want {
        assert!(opts.contains(q), "{q:?}");
    }
}

/// Ferguson's description of the P-positions of ER(7) (§4, given without proof).
fn paper_er7_is_p(p: &[u64]) -> bool {
    let mut x = p.to_vec();
    x.sort();
    let n: u64 = x.iter().sum();
    let pw = |s: &str| -> Pos {
        let mut v: Vec<u64> = Vec::new();
        for tok in s.split_whitespace() {
            let (b, e) = tok.split_once('^').unwrap_or((tok, "1"));
            for _ in 0..e.parse::<usize>().unwrap() {
                v.push(b.parse().unwrap());
            }
        }
        v.sort();
        v
    };
    let p1 = [
        "1^7",
        "1^6 3",
        "1^6 5",
        "1^5 3^2",
        "1^6 7",
        "1^5 3 5",
        "1^4 3^3",
        "2^7",
        "1^6 10",
        "1^4 4^3",
        "2^6 5",
        "1^6 13",
        "1^5 7^2",
        "1^4 4^2 7",
        "1^3 4^4",
        "2^5 5^2",
    ];
    // The union of the four classes (P3 also contains 2^6 8, of sum 20).
    if p1.iter().any(|s| pw(s) == x) {
        return true;
    }
    let p2 = x.iter().all(|&v| v % 4 == 3);
    let p3 = x[..6].iter().all(|&v| v == 2) && x[6].is_multiple_of(4) && x[6] >= 8;
    let ones = x.iter().filter(|&&v| v == 1).count();
    let fives = x.iter().filter(|&&v| v == 5).count();
    let nines = x.iter().filter(|&&v| v == 9).count();
    let p4 = x.iter().all(|&v| v % 4 == 1)
        && n >= 23
        && !(ones == 5 && nines >= 1)
        && !(ones == 4 && fives >= 2);
    p2 || p3 || p4
}

#[test]
fn er_k7_p_classes_of_section_4() {
    let g = Redistribute::er(7).unwrap();
    let mut s = Solver::new(&g);
    let mut count = 0;
    for p in upto(7, 36) {
        let searched = s.outcome(&p, Play::Normal).unwrap() == Outcome::P;
        assert_eq!(paper_er7_is_p(&p), searched, "ER(7) {:?}", p);
        assert_eq!(ferguson::er_is_p(7, &p), searched, "ER(7) {:?}", p);
        count += searched as usize;
    }
    assert!(count > 30);
    // Hand checks of the classes: 3^7 (P2), 2^6 8 (P3, sum 20), 1^6 17 (P4); 1^5 9 13 is excluded.
    assert!(paper_er7_is_p(&[3, 3, 3, 3, 3, 3, 3]));
    assert!(paper_er7_is_p(&[2, 2, 2, 2, 2, 2, 8]));
    assert!(paper_er7_is_p(&[1, 1, 1, 1, 1, 1, 17]));
    assert!(!paper_er7_is_p(&[1, 1, 1, 1, 1, 9, 13]));
}

#[test]
fn even_k_er_p_positions_are_all_odd() {
    for k in [2usize, 4, 6] {
        let g = Redistribute::er(k).unwrap();
        let mut s = Solver::new(&g);
        for p in upto(k, if k == 2 { 40 } else { 24 }) {
            let all_odd = p.iter().all(|x| x % 2 == 1);
            assert_eq!(
                s.outcome(&p, Play::Normal).unwrap().is_p(),
                all_odd,
                "{:?}",
                p
            );
        }
    }
}

#[test]
fn er_misere_odd_k_p_set() {
    // Proposition 8 (misère), k odd: P = {1^(k-1) z : z even}.
    for k in [3usize, 5] {
        let g = Redistribute::er(k).unwrap();
        let mut s = Solver::new(&g);
        for p in upto(k, 24) {
            let want = p[..k - 1].iter().all(|&x| x == 1) && p[k - 1] % 2 == 0;
            assert_eq!(s.outcome(&p, Play::Misere).unwrap().is_p(), want, "{:?}", p);
        }
    }
}

#[test]
fn ser_examples() {
    // 1^(k-1) z is P when the norm is a multiple of k; for odd k, 2^k is P (§4).
    for k in [3usize, 5, 7] {
        let g = Redistribute::ser(k).unwrap();
        assert!(SerNormal.decide(&g, &vec![2; k]).unwrap().is_p);
        let mut p = vec![1u64; k];
        p[k - 1] = 1 + 3 * k as u64;
        assert!(SerNormal.decide(&g, &p).unwrap().is_p);
    }
    // For even k, 2^k is N: two boxes of 2 sum to 4... for k = 4: {2,2} sums to 0 mod 4.
    let g = Redistribute::ser(4).unwrap();
    assert!(!SerNormal.decide(&g, &[2, 2, 2, 2]).unwrap().is_p);
}

#[test]
fn eabo_examples_by_hand() {
    // k = 3, k(k-1) = 6: P iff every box is 1 or 2 mod 6. (1,1,7) is P, (1,1,3) is N (3 -> 1,1,1).
    let g = Redistribute::eabo(3).unwrap();
    assert!(EaboNormal.decide(&g, &[1, 1, 7]).unwrap().is_p);
    let v = EaboNormal.decide(&g, &[1, 1, 3]).unwrap();
    assert!(!v.is_p);
    assert_eq!(v.winning_moves.unwrap(), vec![vec![1, 1, 1]]);
    // Misère k = 3, q = 10: P iff boxes in {1,2} or ≡ 3, 4 (mod 10), not all < 3. (1,1,3) is P.
    assert!(EaboMisere.decide(&g, &[1, 1, 3]).unwrap().is_p);
    assert!(!EaboMisere.decide(&g, &[1, 1, 2]).unwrap().is_p);
}

#[test]
fn entropy_examples() {
    let g = EntropyReduction::new(3).unwrap();
    // Negative counts: the minimum is subtracted.
    assert_eq!(g.parse_position("-3 0 5").unwrap(), vec![0, 3, 8]);
    assert_eq!(g.parse_position("-3^2 5").unwrap(), vec![0, 0, 8]);
    assert!(g.parse_position("1 2").is_err());
    // (x,x,y) with |x-y| = 4^n m, m odd, is P: (0,0,12)? 12 = 4*3: P. (0,0,8): 8 = 2*4: N.
    assert!(Entropy3Normal.decide(&g, &[0, 0, 12]).unwrap().is_p);
    let v = Entropy3Normal.decide(&g, &[0, 0, 8]).unwrap();
    assert!(!v.is_p);
    // The move to (0,4,4).
    assert!(v.winning_moves.unwrap().contains(&vec![0, 4, 4]));
    // Misère: (5,2) and (5,3) are P; (4,0) is N and moves to (2,2) (boxes 0,0,4 -> 0,2,2).
    assert!(Entropy3Misere.decide(&g, &[0, 2, 5]).unwrap().is_p);
    assert!(Entropy3Misere.decide(&g, &[0, 3, 5]).unwrap().is_p);
    let v = Entropy3Misere.decide(&g, &[0, 0, 4]).unwrap();
    assert!(!v.is_p && v.winning_moves.unwrap().contains(&vec![0, 2, 2]));
    // Huge spreads answer at once.
    let v = Entropy3Normal
        .decide(&g, &[0, 3, 1_000_000_000_000_000_000])
        .unwrap();
    assert!(!v.winning_moves.unwrap().is_empty());
}

#[test]
fn closed_forms_answer_for_huge_boxes() {
    let big = 1_000_000_000_000_000_000u64;
    let g = EmptyTransfer::new(4).unwrap();
    let p = g.parse_position("1000000000000000000,3,5,7").unwrap();
    let v = EtFourBoxes.decide(&g, &p).unwrap();
    // 10^18 is even and 3, 5, 7 odd: three odd boxes at once, so N; the move empties an odd box and
    // puts one chip of 10^18 into it.
    assert!(!v.is_p);
    let moves = v.winning_moves.unwrap();
    assert!(moves.contains(&vec![1, 5, 7, big - 1]), "{moves:?}");
    for (name, t) in [
        ("ER(61)", &ErNormal as &dyn Theorem),
        ("ER(61)", &ErMisere),
        ("EABO(61)", &EaboNormal),
        ("EABO(61)", &EaboMisere),
        ("SER(61)", &SerNormal),
    ] {
        let g = nimlab_games::parse_game(name).unwrap();
        let mut p: Pos = (1..=61u64).map(|i| big / i).collect();
        p[0] = big;
        let v = t.decide(g.as_ref(), &p).unwrap();
        if let Some(ms) = v.winning_moves {
            for q in ms {
                assert_eq!(q.len(), 61);
                assert!(q.iter().all(|&x| x >= 1));
            }
        }
    }
    // ET(3) and ET(2) too.
    let g3 = EmptyTransfer::new(3).unwrap();
    let v = EtThreeBoxes.decide(&g3, &[big, 3 * big, 7]).unwrap();
    assert!(!v.is_p && !v.winning_moves.unwrap().is_empty());
}

#[test]
fn every_chip_entry_is_listed_and_covers_its_games() {
    let ids: Vec<&str> = nimlab_theory::registry().iter().map(|t| t.id()).collect();
    for t in ferguson::entries() {
        assert!(ids.contains(&t.id()), "{}", t.id());
        assert!(t.source().contains("Proposition") || t.source().contains("§4"));
    }
    let g = nimlab_games::parse_game("EJR(5,4)").unwrap();
    assert!(EaboNormal.covers(g.as_ref()) && !ErNormal.covers(g.as_ref()));
    let g = nimlab_games::parse_game("EJR(5,2)").unwrap();
    assert!(ferguson::entries().iter().all(|t| !t.covers(g.as_ref())));
    assert!(chip::is_chip_game(g.as_ref()));
}
