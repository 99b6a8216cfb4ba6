//! Every theorem at the top of the integer range: positions with entries near 2^64 - 1, near powers
//! of two, pairs whose sum passes 2^64, mixed with 0 and small values, random and adversarial. Each
//! verdict is compared with an evaluation written here in big integers (`num-bigint`), from the
//! statement of the result, not from the theory code: the outcome, the Grundy value where the result
//! gives one, and every listed winning move, which must be a legal move (checked from the rules, here)
//! landing on a position that the big-integer evaluation finds P. The test profile has overflow
//! checks on, so a wrap panics; the comparisons check that the values are also right (a release build
//! wraps silently).

use nimlab_core::{Game, Pos};
use nimlab_games::chip::{EmptyTransfer, EntropyReduction, Redistribute};
use nimlab_games::complex::Complex;
use nimlab_games::{CircularNim, MooreNim, Nim, ShrinkingCircularNim};
use nimlab_theory::linear::{Family, FamilyTheorem, Reading};
use nimlab_theory::{cn74, cn_small, complex_sum, ferguson, scn, Theorem, Verdict};
use num_bigint::{BigInt, BigUint};
use proptest::prelude::*;

const TOP: u64 = u64::MAX;

/// Entries that stress the arithmetic: the top of the range, both sides of powers of two, halves,
/// 0 and 1, and anything.
fn entry() -> impl Strategy<Value = u64> {
    prop_oneof![
        (0u64..3).prop_map(|d| TOP - d),
        (1u32..64, 0u64..3).prop_map(|(b, d)| (1u64 << b) - 1 + d),
        (0u64..3).prop_map(|d| TOP / 2 + d),
        (0u64..3).prop_map(|d| TOP / 3 + d),
        0u64..4,
        any::<u64>(),
    ]
}

fn positive() -> impl Strategy<Value = u64> {
    entry().prop_map(|x| x.max(1))
}

/// 300 cases from a fixed seed (the suite is deterministic); `PROPTEST_CASES` sets the number and
/// `NIMLAB_PROPTEST_RANDOM=1` draws a fresh seed, for longer hunts by hand.
fn config() -> ProptestConfig {
    let d = ProptestConfig::default();
    ProptestConfig {
        cases: if std::env::var("PROPTEST_CASES").is_ok() {
            d.cases
        } else {
            300
        },
        failure_persistence: None,
        rng_seed: if std::env::var("NIMLAB_PROPTEST_RANDOM").is_ok() {
            proptest::test_runner::RngSeed::Random
        } else {
            proptest::test_runner::RngSeed::Fixed(25)
        },
        ..d
    }
}

fn big(x: u64) -> BigUint {
    BigUint::from(x)
}

/// The nim-sum of the entries, in big integers.
fn xor_all(v: impl IntoIterator<Item = BigUint>) -> BigUint {
    v.into_iter().fold(BigUint::from(0u8), |a, b| a ^ b)
}

/// A legal CN(n,k) / complex move: q <= p, q != p, the changed places inside one face.
fn face_move(faces: &[Vec<usize>], p: &[u64], q: &[u64]) -> bool {
    if q.len() != p.len() || q == p || q.iter().zip(p).any(|(a, b)| a > b) {
        return false;
    }
    let changed: Vec<usize> = (0..p.len()).filter(|&i| q[i] != p[i]).collect();
    faces.iter().any(|f| changed.iter().all(|i| f.contains(i)))
}

fn windows(n: usize, k: usize) -> Vec<Vec<usize>> {
    if k >= n {
        return vec![(0..n).collect()];
    }
    (0..n)
        .map(|s| (0..k).map(|j| (s + j) % n).collect())
        .collect()
}

/// A legal SCN(n,k) move: a window's piles lowered (emptied piles vanish), others kept.
fn scn_move(k: usize, p: &[u64], q: &[u64]) -> bool {
    let m = p.len();
    windows(m, k).iter().any(|w| {
        (0..1u32 << w.len()).any(|mask| {
            let gone = |i: usize| {
                w.iter()
                    .position(|&x| x == i)
                    .is_some_and(|j| mask >> j & 1 == 1)
            };
            let kept: Vec<usize> = (0..m).filter(|&i| !gone(i)).collect();
            kept.len() == q.len()
                && kept
                    .iter()
                    .zip(q)
                    .all(|(&i, &v)| v >= 1 && if w.contains(&i) { v <= p[i] } else { v == p[i] })
                && (mask != 0 || q != p)
        })
    })
}

/// Checks the verdict's moves: each legal (by `legal`) and landing on P (by `is_p`); an N-position
/// has at least one move when the result constructs moves.
fn check_moves(
    v: &Verdict,
    p: &[u64],
    legal: &dyn Fn(&[u64], &[u64]) -> bool,
    is_p: &dyn Fn(&[u64]) -> bool,
) -> Result<(), TestCaseError> {
    if let Some(moves) = &v.winning_moves {
        // (A terminal position, N in misère play, has no move: a complete empty list.)
        if !v.is_p && !v.all_winning_moves {
            prop_assert!(!moves.is_empty(), "N-position {p:?} without a move");
        } else if v.is_p {
            prop_assert!(moves.is_empty());
        }
        for q in moves {
            prop_assert!(legal(p, q), "{p:?} -> {q:?} is not a legal move");
            prop_assert!(is_p(q), "{p:?} -> {q:?} does not land on P");
        }
    }
    Ok(())
}

/// A family's relations evaluated in big integers under every reading.
fn in_families(fams: &[Family], p: &[u64]) -> bool {
    let ev = |coef: &[(usize, i128)], c0: i128, t: &[u64]| {
        coef.iter().fold(BigInt::from(c0), |a, &(i, c)| {
            a + BigInt::from(c) * BigInt::from(t[i])
        })
    };
    fams.iter().any(|f| {
        f.len == p.len()
            && Reading::all(p.len()).any(|r| {
                let t = r.read(p);
                f.eqs
                    .iter()
                    .all(|e| ev(&e.coef, e.c0, &t) == BigInt::from(0))
                    && f.ges
                        .iter()
                        .all(|e| ev(&e.coef, e.c0, &t) >= BigInt::from(0))
                    && f.side.is_none_or(|s| s(&t))
            })
    })
}

/// A linear-family entry against the big-integer evaluation of its families.
fn family_case(t: &FamilyTheorem, g: &dyn Game, p: &[u64]) -> Result<(), TestCaseError> {
    let fams = t.families();
    let is_p = |q: &[u64]| in_families(fams, q);
    let v = t.decide(g, p).expect("complete");
    prop_assert_eq!(v.is_p, is_p(p), "{} at {:?}", t.id(), p);
    let shrinking = g.downcast_ref::<ShrinkingCircularNim>().map(|s| s.k);
    let cn_faces = g
        .downcast_ref::<CircularNim>()
        .map(|c| windows(c.n, c.k))
        .unwrap_or_default();
    let legal = |a: &[u64], b: &[u64]| match shrinking {
        Some(k) => scn_move(k, a, b),
        None => face_move(&cn_faces, a, b),
    };
    check_moves(&v, p, &legal, &is_p)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn bouton_and_its_misere_rule(mut p in prop::collection::vec(entry(), 1..6), make_p in any::<bool>()) {
        if make_p {
            // Make the nim-sum 0 by the last heap: a P-position among huge heaps.
            let x = p[..p.len() - 1].iter().fold(0, |a, &b| a ^ b);
            *p.last_mut().unwrap() = x;
        }
        let x = xor_all(p.iter().map(|&a| big(a)));
        let v = nimlab_theory::Bouton.decide(&Nim, &p).unwrap();
        prop_assert_eq!(v.is_p, x == BigUint::from(0u8));
        prop_assert_eq!(v.grundy.map(BigUint::from), Some(x.clone()));
        let nim_p = |q: &[u64]| xor_all(q.iter().map(|&a| big(a))) == BigUint::from(0u8);
        let one_heap = |a: &[u64], b: &[u64]| face_move(&windows(a.len(), 1), a, b);
        check_moves(&v, &p, &one_heap, &nim_p)?;
        // Complete: one move per heap a with a xor x < a.
        let want = p.iter().filter(|&&a| big(a) ^ &x < big(a)).count();
        prop_assert_eq!(v.winning_moves.unwrap().len(), want);
        prop_assert!(v.all_winning_moves);
        let misere_p = |q: &[u64]| {
            if q.iter().all(|&a| a <= 1) {
                q.iter().filter(|&&a| a == 1).count() % 2 == 1
            } else {
                nim_p(q)
            }
        };
        let v = nimlab_theory::BoutonMisere.decide(&Nim, &p).unwrap();
        prop_assert_eq!(v.is_p, misere_p(&p));
        check_moves(&v, &p, &one_heap, &misere_p)?;
    }

    #[test]
    fn moore(p in prop::collection::vec(entry(), 1..7), k in 1usize..4) {
        let g = MooreNim::new(k).unwrap();
        let moore_p = |q: &[u64]| {
            (0..64).all(|b| q.iter().filter(|&&a| big(a).bit(b)).count() % (k + 1) == 0)
        };
        let v = nimlab_theory::MooreTheorem.decide(&g, &p).unwrap();
        prop_assert_eq!(v.is_p, moore_p(&p));
        let legal = |a: &[u64], b: &[u64]| {
            a.len() == b.len() && a != b && b.iter().zip(a).all(|(x, y)| x <= y)
                && (0..a.len()).filter(|&i| a[i] != b[i]).count() <= k
        };
        check_moves(&v, &p, &legal, &moore_p)?;
    }

    #[test]
    fn circular_nim_whole_families(p in prop::collection::vec(entry(), 2..7), equal in any::<bool>()) {
        let n = p.len();
        let p: Pos = if equal { vec![p[0]; n] } else { p };
        // CN(n,n): P iff zero. CN(n,n-1): P iff all equal.
        let g = CircularNim::new(n, n).unwrap();
        let v = nimlab_theory::CnWhole.decide(&g, &p).unwrap();
        prop_assert_eq!(v.is_p, p.iter().all(|&a| a == 0));
        check_moves(&v, &p, &|a, b| face_move(&windows(n, n), a, b), &|q| q.iter().all(|&a| a == 0))?;
        let g = CircularNim::new(n, n - 1).unwrap();
        let all_equal = |q: &[u64]| q.iter().all(|&a| a == q[0]);
        let v = nimlab_theory::CnAllButOne.decide(&g, &p).unwrap();
        prop_assert_eq!(v.is_p, all_equal(&p));
        check_moves(&v, &p, &|a, b| face_move(&windows(n, n - 1), a, b), &all_equal)?;
        if n == 4 {
            let g = CircularNim::new(4, 2).unwrap();
            let cn42 = |q: &[u64]| q[0] == q[2] && q[1] == q[3];
            let v = nimlab_theory::Cn42.decide(&g, &p).unwrap();
            prop_assert_eq!(v.is_p, cn42(&p));
            check_moves(&v, &p, &|a, b| face_move(&windows(4, 2), a, b), &cn42)?;
        }
    }

    #[test]
    fn lemma5_sums_past_2_64(x in entry(), split in prop::collection::vec(any::<u64>(), 3), l in 1usize..4, noise in any::<bool>()) {
        // (x, 0^(l-1), x, a1..al) with a1 + ... + al = x, built from x; noise breaks it.
        let n = 2 * l + 1;
        let mut a: Vec<u64> = Vec::new();
        let mut left = x;
        for s in split.iter().take(l - 1) {
            let t = (u128::from(*s) % (u128::from(left) + 1)) as u64;
            a.push(t);
            left -= t;
        }
        a.push(left);
        let mut p = vec![x];
        p.extend(std::iter::repeat_n(0, l - 1));
        p.push(x);
        p.extend(&a);
        if noise {
            p[n - 1] = p[n - 1].wrapping_add(1);
        }
        let g = CircularNim::new(n, l + 1).unwrap();
        let in_s1 = |q: &[u64]| {
            (0..n).any(|s| [true, false].into_iter().any(|fwd| {
                let r = |i: usize| if fwd { q[(s + i) % n] } else { q[(s + n - i) % n] };
                (1..l).all(|i| r(i) == 0) && r(l) == r(0)
                    && (l + 1..n).map(|i| big(r(i))).sum::<BigUint>() == big(r(0))
            }))
        };
        let v = nimlab_theory::Lemma5.decide(&g, &p);
        prop_assert_eq!(v.is_some(), in_s1(&p));
    }

    #[test]
    fn cn_6_4(p in prop::collection::vec(entry(), 6), q in entry(), shape in any::<bool>()) {
        // Half of the cases from the P-family (a, b+q, c, a+q, b, c+q) with a ^ b ^ c = 0, where
        // the sums may pass 2^64 (then the position is not formed).
        let p: Pos = if shape {
            let (a, b) = (p[0], p[1]);
            let c = a ^ b;
            match (b.checked_add(q), a.checked_add(q), c.checked_add(q)) {
                (Some(bq), Some(aq), Some(cq)) => vec![a, bq, c, aq, b, cq],
                _ => p,
            }
        } else {
            p
        };
        let d = |x: &[u64], i: usize, j: usize| BigInt::from(x[i]) - BigInt::from(x[j]);
        let cn64 = |x: &[u64]| {
            d(x, 0, 3) == d(x, 4, 1) && d(x, 4, 1) == d(x, 2, 5)
                && xor_all([big(x[0].min(x[3])), big(x[1].min(x[4])), big(x[2].min(x[5]))]) == BigUint::from(0u8)
        };
        let g = CircularNim::new(6, 4).unwrap();
        let v = cn_small::Cn64.decide(&g, &p).unwrap();
        prop_assert_eq!(v.is_p, cn64(&p));
        check_moves(&v, &p, &|a, b| face_move(&windows(6, 4), a, b), &cn64)?;
    }

    #[test]
    fn circular_families(p in prop::collection::vec(entry(), 8), which in 0usize..5) {
        let (t, n, k) = match which {
            0 => (cn_small::cn52(), 5, 2),
            1 => (cn_small::cn53(), 5, 3),
            2 => (cn_small::cn63(), 6, 3),
            3 => (cn74::cn74(), 7, 4),
            _ => (cn_small::cn86(), 8, 6),
        };
        let g = CircularNim::new(n, k).unwrap();
        family_case(&t, &g, &p[..n])?;
    }

    #[test]
    fn shrinking_families(p in prop::collection::vec(positive(), 0..9), which in 0usize..4) {
        let (t, n, k) = match which {
            0 => (scn::scn42(), 4, 2),
            1 => (scn::scn52(), 5, 2),
            2 => (scn::scn53(), 5, 3),
            _ => (scn::scn86(), 8, 6),
        };
        let g = ShrinkingCircularNim::new(n, k).unwrap();
        let p = &p[..p.len().min(n)];
        family_case(&t, &g, p)?;
    }

    #[test]
    fn simple_shrinking_circles(p in prop::collection::vec(positive(), 0..6), n in 2usize..6) {
        let p = &p[..p.len().min(n)];
        let nim_p = |q: &[u64]| xor_all(q.iter().map(|&a| big(a))) == BigUint::from(0u8);
        let g = ShrinkingCircularNim::new(n, 1).unwrap();
        let v = scn::ScnNim.decide(&g, p).unwrap();
        prop_assert_eq!(v.is_p, nim_p(p));
        prop_assert_eq!(v.grundy.map(BigUint::from), Some(xor_all(p.iter().map(|&a| big(a)))));
        check_moves(&v, p, &|a, b| scn_move(1, a, b), &nim_p)?;
        let g = ShrinkingCircularNim::new(n, n - 1).unwrap();
        let equal_full = |q: &[u64]| q.is_empty() || (q.len() == n && q.iter().all(|&a| a == q[0]));
        let v = scn::ScnAllButOne.decide(&g, p).unwrap();
        prop_assert_eq!(v.is_p, equal_full(p));
        check_moves(&v, p, &|a, b| scn_move(n - 1, a, b), &equal_full)?;
    }

    #[test]
    fn complex_simplices_totals_past_2_64(p in prop::collection::vec(entry(), 6), which in 0usize..3, make_p in any::<bool>()) {
        // Facets {1,2},{3,4},{5,6}; ECN(6,{2},3) (facets {1,3,5},{2,4,6}); {1,2,3},{4},{5,6}.
        let (name, facets): (&str, Vec<Vec<usize>>) = match which {
            0 => ("simplicial({1,2},{3,4},{5,6})", vec![vec![0, 1], vec![2, 3], vec![4, 5]]),
            1 => ("ECN(6,{2},3)", vec![vec![0, 2, 4], vec![1, 3, 5]]),
            _ => ("simplicial({1,2,3},{4},{5,6})", vec![vec![0, 1, 2], vec![3], vec![4, 5]]),
        };
        let g = nimlab_games::parse_game(name).unwrap();
        let mut p = p;
        if make_p {
            // Copy the first facet's stacks onto the second (when the sizes match) and empty the rest.
            if facets[0].len() == facets[1].len() {
                for (&i, &j) in facets[0].iter().zip(&facets[1]) {
                    p[j] = p[i];
                }
                for f in &facets[2..] {
                    for &i in f {
                        p[i] = 0;
                    }
                }
            }
        }
        let totals = |q: &[u64]| -> Vec<BigUint> {
            facets.iter().map(|f| f.iter().map(|&i| big(q[i])).sum()).collect()
        };
        let normal_p = |q: &[u64]| xor_all(totals(q)) == BigUint::from(0u8);
        let misere_p = |q: &[u64]| {
            let t = totals(q);
            if t.iter().all(|x| *x <= BigUint::from(1u8)) {
                xor_all(t) == BigUint::from(1u8)
            } else {
                xor_all(t) == BigUint::from(0u8)
            }
        };
        let v = complex_sum::Simplices { play: nimlab_core::Play::Normal }.decide(g.as_ref(), &p).unwrap();
        prop_assert_eq!(v.is_p, normal_p(&p), "{} {:?}", name, p);
        prop_assert_eq!(v.grundy.map(BigUint::from), Some(xor_all(totals(&p))));
        check_moves(&v, &p, &|a, b| face_move(&facets, a, b), &normal_p)?;
        let v = complex_sum::Simplices { play: nimlab_core::Play::Misere }.decide(g.as_ref(), &p).unwrap();
        prop_assert_eq!(v.is_p, misere_p(&p), "misère {} {:?}", name, p);
        check_moves(&v, &p, &|a, b| face_move(&facets, a, b), &misere_p)?;
    }

    #[test]
    fn complex_mirror_components_and_relabelings(p in prop::collection::vec(entry(), 6), pair in any::<bool>()) {
        // Mirror: ECN(6,{1,2},3), stacks i and i+3 paired.
        let mut p = p;
        if pair {
            p[3] = p[0];
            p[4] = p[1];
        }
        let g = Complex::ecn(6, &[1, 2], 3).unwrap();
        let mirror_p = |q: &[u64]| (0..3).all(|i| q[i] == q[i + 3]);
        let v = complex_sum::Mirror.decide(&g, &p).unwrap();
        prop_assert_eq!(v.is_p, mirror_p(&p));
        check_moves(&v, &p, &|a, b| face_move(g.facets(), a, b), &mirror_p)?;
        // Components: ECN(6,{2},2) = CN(3,2) on stacks 1,3,5 + CN(3,2) on 2,4,6 (P iff equal).
        let g = Complex::ecn(6, &[2], 2).unwrap();
        let part_p = |q: &[u64], r: usize| q[r] == q[r + 2] && q[r + 2] == q[r + 4];
        let sum_p = |q: &[u64]| part_p(q, 0) && part_p(q, 1);
        let v = complex_sum::Components.decide(&g, &p);
        match (part_p(&p, 0), part_p(&p, 1)) {
            (false, false) => prop_assert!(v.is_none()),
            (a, b) => {
                let v = v.unwrap();
                prop_assert_eq!(v.is_p, a && b);
                check_moves(&v, &p, &|x, y| face_move(g.facets(), x, y), &sum_p)?;
            }
        }
        // Relabeling: ECN(5,{2},2) is CN(5,2) with the stacks renamed.
        let g = Complex::ecn(5, &[2], 2).unwrap();
        let r = g.relabeling().unwrap().clone();
        let fams = cn_small::cn52();
        let fams = fams.families();
        let cn52_p = |q: &[u64]| in_families(fams, &r.forward(q));
        let v = nimlab_theory::relabeled::Relabeled { play: nimlab_core::Play::Normal }
            .decide(&g, &p[..5])
            .unwrap();
        prop_assert_eq!(v.is_p, cn52_p(&p[..5]));
        check_moves(&v, &p[..5], &|x, y| face_move(g.facets(), x, y), &cn52_p)?;
    }

    #[test]
    fn ferguson_redistribution(p in prop::collection::vec(positive(), 2..6)) {
        let k = p.len();
        let n: BigUint = p.iter().map(|&x| big(x)).sum();
        // ER(k), Proposition 8: S(k) from its definition, in big integers.
        let kb = BigUint::from(k);
        let f = (1u32..).find(|&j| (k - 1) % (j as usize + 1) != 0).unwrap();
        let in_r = |m: &BigUint| {
            (1..=f).any(|j| {
                let jb = BigUint::from(j);
                let lo = &jb * &kb;
                let in_range = if j < f { *m >= lo && *m < (&jb + 1u8) * &kb } else { *m >= lo };
                in_range && m % (&jb + 1u8) == (&jb * (&kb - 1u8)) % (&jb + 1u8)
            })
        };
        let in_s = |m: &BigUint| *m >= kb && !in_r(m);
        let er_p = |q: &[u64]| {
            let t: BigUint = q.iter().map(|&x| big(x)).sum();
            q.iter().all(|&x| !in_s(&(&t - big(x))))
        };
        let er = Redistribute::er(k).unwrap();
        let v = ferguson::ErNormal.decide(&er, &p).unwrap();
        prop_assert_eq!(v.is_p, er_p(&p));
        // A move discards one box and redistributes the rest over k boxes.
        let er_legal = |a: &[u64], b: &[u64]| {
            let tb: BigUint = b.iter().map(|&x| big(x)).sum();
            b.len() == k && b.iter().all(|&x| x >= 1) && a.iter().any(|&x| &n - big(x) == tb)
        };
        check_moves(&v, &p, &er_legal, &er_p)?;
        // EABO(k), Proposition 7: P iff 1 <= x mod k(k-1) < k for every box.
        let m = BigUint::from(k * (k - 1));
        let eabo_p = |q: &[u64]| q.iter().all(|&x| {
            let r = big(x) % &m;
            r >= BigUint::from(1u8) && r < kb
        });
        let eabo = Redistribute::eabo(k).unwrap();
        let v = ferguson::EaboNormal.decide(&eabo, &p).unwrap();
        prop_assert_eq!(v.is_p, eabo_p(&p));
        let eabo_legal = |a: &[u64], b: &[u64]| {
            let tb: BigUint = b.iter().map(|&x| big(x)).sum();
            b.len() == k && b.iter().all(|&x| x >= 1) && a.iter().any(|&x| big(x) == tb)
        };
        check_moves(&v, &p, &eabo_legal, &eabo_p)?;
        // SER(k): P iff the total is a multiple of k and no nonempty set of at most k-1 boxes is.
        let ser_p = |q: &[u64]| {
            let t: BigUint = q.iter().map(|&x| big(x)).sum();
            t.clone() % &kb == BigUint::from(0u8)
                && !(1u32..(1 << k) - 1).any(|s| {
                    (0..k).filter(|&i| s >> i & 1 == 1).map(|i| big(q[i])).sum::<BigUint>() % &kb
                        == BigUint::from(0u8)
                })
        };
        let ser = Redistribute::ser(k).unwrap();
        let v = ferguson::SerNormal.decide(&ser, &p).unwrap();
        prop_assert_eq!(v.is_p, ser_p(&p));
        let ser_legal = |a: &[u64], b: &[u64]| {
            let tb: BigUint = b.iter().map(|&x| big(x)).sum();
            b.len() == k && b.iter().all(|&x| x >= 1)
                && (1u32..(1 << k) - 1).any(|s| {
                    (0..k).filter(|&i| s >> i & 1 == 1).map(|i| big(a[i])).sum::<BigUint>() == tb
                })
        };
        check_moves(&v, &p, &ser_legal, &ser_p)?;
        // The misère entries: decided without a wrap, moves legal and landing in their own P-sets.
        let v = ferguson::ErMisere.decide(&er, &p).unwrap();
        check_moves(&v, &p, &er_legal, &|q| ferguson::ErMisere.decide(&er, q).unwrap().is_p)?;
        let v = ferguson::EaboMisere.decide(&eabo, &p).unwrap();
        check_moves(&v, &p, &eabo_legal, &|q| ferguson::EaboMisere.decide(&eabo, q).unwrap().is_p)?;
    }

    #[test]
    fn ferguson_transfers(p in prop::collection::vec(positive(), 2..5), e in prop::collection::vec(entry(), 3)) {
        let k = p.len();
        let et = EmptyTransfer::new(k).unwrap();
        // A move empties one box and moves 1 <= t < x_j chips of another into it.
        let et_legal = |a: &[u64], b: &[u64]| {
            let mut b = b.to_vec();
            b.sort_unstable();
            (0..k).any(|i| (0..k).any(|j| {
                if i == j { return false; }
                let rest: Vec<u64> = (0..k).filter(|&x| x != i && x != j).map(|x| a[x]).collect();
                // The two new boxes are what b has beyond `rest`.
                let mut extra = b.clone();
                for r in &rest {
                    match extra.iter().position(|x| x == r) {
                        Some(pos) => { extra.remove(pos); }
                        None => return false,
                    }
                }
                extra.len() == 2 && extra.iter().all(|&x| x >= 1)
                    && big(extra[0]) + big(extra[1]) == big(a[j])
            }))
        };
        // ET(2), Proposition 3: the Grundy value by its recursion, in big integers.
        if k == 2 {
            let mut g = 0u128;
            let (mut x, mut y) = (big(p[0]), big(p[1]));
            let one = BigUint::from(1u8);
            while !x.bit(0) || !y.bit(0) {
                x = (&x + &one) >> 1;
                y = (&y + &one) >> 1;
                g += 1;
            }
            let v = ferguson::EtTwoBoxGrundy.decide(&et, &p).unwrap();
            prop_assert_eq!(v.grundy, Some(g));
            prop_assert_eq!(v.is_p, g == 0);
            check_moves(&v, &p, &et_legal, &|q| q.iter().all(|x| x % 2 == 1))?;
        }
        // ET(3), Proposition 4: P iff the same power of 2 divides every box exactly.
        if k == 3 {
            let et3_p = |q: &[u64]| q.iter().all(|x| x.trailing_zeros() == q[0].trailing_zeros());
            let v = ferguson::EtThreeBoxes.decide(&et, &p).unwrap();
            prop_assert_eq!(v.is_p, et3_p(&p));
            check_moves(&v, &p, &et_legal, &et3_p)?;
        }
        // Any k: all boxes odd is P; one or two even boxes is N.
        let evens = p.iter().filter(|&&x| x % 2 == 0).count();
        if let Some(v) = ferguson::EtAllOdd.decide(&et, &p) {
            prop_assert!(v.is_p && evens == 0);
        }
        if let Some(v) = ferguson::EtOneOrTwoEven.decide(&et, &p) {
            prop_assert!(!v.is_p && (evens == 1 || evens == 2));
            check_moves(&v, &p, &et_legal, &|q| q.iter().all(|x| x % 2 == 1))?;
        }
        if k == 4 {
            let v = ferguson::EtFourBoxes.decide(&et, &p).unwrap();
            check_moves(&v, &p, &et_legal, &|q| ferguson::EtFourBoxes.decide(&et, q).unwrap().is_p)?;
        }
        // ENTROPY(3), Proposition 9: (x,x,y) with x = y or |x - y| = 4^n m, m odd.
        let g3 = EntropyReduction::new(3).unwrap();
        let entropy_p = |q: &[u64]| {
            let mut t = q.to_vec();
            t.sort_unstable();
            let (x, y) = (big(t[2]) - big(t[0]), big(t[1]) - big(t[0]));
            let zero = BigUint::from(0u8);
            (y == zero || y == x) && (x == zero || x.trailing_zeros().unwrap_or(0) % 2 == 0)
        };
        let v = ferguson::Entropy3Normal.decide(&g3, &e).unwrap();
        prop_assert_eq!(v.is_p, entropy_p(&e));
        let entropy_legal = |a: &[u64], b: &[u64]| {
            let mut b = b.to_vec();
            b.sort_unstable();
            (0..3).any(|i| (0..3).any(|j| {
                if a[i] <= a[j] { return false; }
                let o = 3 - i - j;
                // a[i] gives t to a[j], 1 <= t <= a[i] - a[j] - 1: b = {a[i]-t, a[j]+t, a[o]}.
                let mut rest = b.clone();
                match rest.iter().position(|&x| x == a[o]) {
                    Some(pos) => { rest.remove(pos); }
                    None => return false,
                }
                let (u, w) = (rest[0], rest[1]);
                big(u) + big(w) == big(a[i]) + big(a[j])
                    && u.max(w) < a[i] && u.min(w) > a[j]
            }))
        };
        check_moves(&v, &e, &entropy_legal, &entropy_p)?;
        let v = ferguson::Entropy3Misere.decide(&g3, &e).unwrap();
        check_moves(&v, &e, &entropy_legal, &|q| ferguson::Entropy3Misere.decide(&g3, q).unwrap().is_p)?;
    }
}

/// A wrong answer an earlier build gave: a 2-stack facet with stacks 2^64 - 1 and 1 holds 2^64, so Nim on
/// the complex {1,2},{3} at (2^64 - 1, 1, 0) has Grundy value 2^64 and is N; the sum wrapped to 0.
#[test]
fn a_facet_of_2_64_tokens_is_n() {
    let g = nimlab_games::parse_game("simplicial({1,2},{3})").unwrap();
    let p = [TOP, 1, 0];
    let v = complex_sum::Simplices {
        play: nimlab_core::Play::Normal,
    }
    .decide(g.as_ref(), &p)
    .unwrap();
    assert!(!v.is_p);
    assert_eq!(v.grundy, Some(1u128 << 64));
    // Against (2^64 - 1, 1, 2^64 - 1): totals 2^64 and 2^64 - 1, nim-sum 2^65 - 1.
    let v = complex_sum::Simplices {
        play: nimlab_core::Play::Normal,
    }
    .decide(g.as_ref(), &[TOP, 1, TOP])
    .unwrap();
    assert_eq!(v.grundy, Some((1u128 << 65) - 1));
    // The winning move lowers the facet {1,2} to 2^64 - 1 tokens: P.
    let q = &v.winning_moves.unwrap()[0];
    assert_eq!(
        q.iter().map(|&x| x as u128).take(2).sum::<u128>(),
        TOP as u128
    );
    assert_eq!(q[2], TOP);
}

/// Every winning move of a huge sum of facets, where the facet to lower loses one token: two ways.
/// Facets {1,2},{3,4} at (t, t, t, t-1), t = 2^64 - 1: totals 2^65 - 2 and 2^65 - 3, nim-sum 3; only
/// the first facet can go down (to 2^65 - 3): take one token from stack 1 or from stack 2.
#[test]
fn every_winning_move_of_a_huge_sum_of_facets() {
    let g = nimlab_games::parse_game("simplicial({1,2},{3,4})").unwrap();
    let t = TOP;
    let v = complex_sum::Simplices {
        play: nimlab_core::Play::Normal,
    }
    .decide(g.as_ref(), &[t, t, t, t - 1])
    .unwrap();
    assert_eq!(v.grundy, Some(3));
    assert!(v.all_winning_moves);
    let mut got = v.winning_moves.unwrap();
    got.sort();
    assert_eq!(
        got,
        vec![vec![t - 1, t, t, t - 1], vec![t, t - 1, t, t - 1]]
    );
    // Lowering a facet of 2^65 - 2 tokens to about 2^64: far too many ways, the list is partial.
    let v = complex_sum::Simplices {
        play: nimlab_core::Play::Normal,
    }
    .decide(g.as_ref(), &[t, t, 1 << 60, 0])
    .unwrap();
    assert!(!v.is_p && !v.all_winning_moves);
    assert_eq!(v.winning_moves.unwrap().len(), 1);
}
