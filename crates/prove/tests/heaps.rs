//! Bouton's theorem for every number of heaps (`nimlab_prove::heaps`): each lemma of the induction is
//! proved for every size of its values by the automata, and agrees with this file's own evaluation on
//! a box; the theorem the argument gives is compared with a plain search of Nim on 1 to 5 heaps; and
//! wrong variants of the lemmas (and of the claim) are refuted with counterexamples that this file
//! re-checks, down to a pair of Nim positions joined by a move that its search says cannot both be P.

use nimlab_prove::heaps::{decide, lemmas, prove_every_number_of_heaps, Lemma};
use nimlab_prove::Status;
use std::time::Duration;

fn budget() -> nimlab_prove::automata::Budget {
    nimlab_prove::automata::Budget::new(
        std::time::Instant::now() + Duration::from_secs(120),
        1 << 22,
    )
}

/// Each lemma in plain Rust: true when the values are NOT a counterexample (`a ^ a` is the lemma's own
/// statement, written as it reads).
#[allow(clippy::eq_op, clippy::identity_op)]
fn holds(name: &str, v: &[u64]) -> bool {
    match (name, v) {
        ("one-heap", [a, b, c]) => !(a ^ c == 0 && b ^ c == 0 && b < a),
        ("start", [a]) => !(*a > 0 && a ^ a >= *a),
        ("step", [a, b, c]) => (a ^ b ^ c) >= (a ^ b) || (b ^ c) < *b || (a ^ c) < *a,
        ("lands", [a, b]) => (a ^ (a ^ b)) ^ b == 0,
        ("small", [a, b]) => !(*a <= 1 && *b <= 1) || ((a ^ b) <= 1 && (a ^ b) == (a + b) % 2),
        ("one-heap-small", [a, b, c]) => {
            let inside = |h: u64| (h <= 1 && (h ^ c) == 1) || (h >= 2 && (h ^ c) == 0);
            !(*c <= 1 && b < a && inside(*a) && inside(*b))
        }
        ("one-heap-big", [a, b, c]) => !(a ^ c == 0 && b ^ c == 0 && b < a),
        ("last-one", [a]) => !(*a <= 1 && (1 ^ a) == 0) || (0 ^ a) == 1,
        ("single-big", [a, b]) => {
            !(*a >= 2 && *b <= 1) || ((1 ^ b) < *a && (1 ^ b) <= 1 && ((1 ^ b) ^ b) == 1)
        }
        _ => panic!("{name}"),
    }
}

fn tuples(m: usize, hi: u64) -> Vec<Vec<u64>> {
    let mut out = vec![vec![]];
    for _ in 0..m {
        out = out
            .into_iter()
            .flat_map(|t: Vec<u64>| {
                (0..=hi).map(move |x| {
                    let mut u = t.clone();
                    u.push(x);
                    u
                })
            })
            .collect();
    }
    out
}

#[test]
fn the_lemmas_are_proved_and_true_on_a_box() {
    for (id, play) in [("bouton", "normal"), ("bouton-misere", "misere")] {
        let r = prove_every_number_of_heaps(id, Duration::from_secs(120)).unwrap();
        assert_eq!(r.verdict, Status::Proved, "{}", r.to_json());
        assert_eq!(r.lemmas.len(), lemmas(id).unwrap().0.len());
        for l in &r.lemmas {
            assert_eq!(l.status, Status::Proved, "{}", l.lemma.name);
            for t in tuples(l.lemma.values.len(), 31) {
                assert!(holds(l.lemma.name, &t), "{}: {t:?}", l.lemma.name);
            }
        }
        assert_eq!(r.to_json()["heaps"], "any");
        assert_eq!(r.to_json()["play"], play);
    }
    assert!(prove_every_number_of_heaps("moore", Duration::from_secs(10)).is_err());
}

/// Nim on `m` heaps of at most `hi`, by plain search: in normal play P when no option (one heap
/// lowered) is P; in misère play P when there is an option and none is P.
fn nim_p_set_in(m: usize, hi: u64, misere: bool) -> Vec<(Vec<u64>, bool)> {
    let all = tuples(m, hi);
    let base = hi as usize + 1;
    let index = |p: &[u64]| p.iter().fold(0usize, |i, &x| i * base + x as usize);
    let mut p_set = vec![false; all.len()];
    for x in &all {
        let mut to_p = false;
        let mut any = false;
        for i in 0..m {
            for v in 0..x[i] {
                let mut y = x.clone();
                y[i] = v;
                any = true;
                to_p |= p_set[index(&y)];
            }
        }
        p_set[index(x)] = !to_p && (any || !misere);
    }
    all.into_iter().zip(p_set).collect()
}

fn nim_p_set(m: usize, hi: u64) -> Vec<(Vec<u64>, bool)> {
    nim_p_set_in(m, hi, false)
}

#[test]
fn the_theorem_agrees_with_search_on_1_to_5_heaps() {
    for (m, hi) in [(1, 20), (2, 15), (3, 9), (4, 5), (5, 3)] {
        for (p, is_p) in nim_p_set(m, hi) {
            assert_eq!(p.iter().fold(0, |a, b| a ^ b) == 0, is_p, "{p:?}");
        }
        // Misère: the set the misère lemmas are about, A = {every heap <= 1, X = 1} ∪ {some heap
        // >= 2, X = 0}.
        for (p, is_p) in nim_p_set_in(m, hi, true) {
            let x = p.iter().fold(0, |a, b| a ^ b);
            let big = p.iter().any(|&h| h >= 2);
            assert_eq!((!big && x == 1) || (big && x == 0), is_p, "misère {p:?}");
        }
    }
}

/// Wrong variants are refuted with counterexamples that re-check: "the heap sum is even" in place of
/// "the xor is 0" in lemma one-heap gives two positions of even sum joined by a move, which this
/// file's search shows cannot both be P; the step lemma without its hypothesis fails too.
#[test]
fn wrong_variants_are_refuted_with_checked_counterexamples() {
    let even = Lemma {
        name: "one-heap (sum even)",
        statement: "wrong: a + c and b + c even imply b >= a",
        values: &["a heap before", "after", "the sum of the other heaps"],
        cases: &[&["mod(a + c, 2) = 0", "mod(b + c, 2) = 0", "b < a"]],
    };
    let r = decide(&even, &budget()).unwrap();
    assert_eq!(r.status, Status::Refuted);
    let w: Vec<u64> = r
        .counterexample
        .unwrap()
        .iter()
        .map(|&x| x as u64)
        .collect();
    let (a, b, c) = (w[0], w[1], w[2]);
    assert!((a + c) % 2 == 0 && (b + c) % 2 == 0 && b < a, "{w:?}");
    // As Nim positions: (a, c) moves to (b, c), both of even sum; not both are P.
    let hi = a.max(c).max(1);
    let search = nim_p_set(2, hi);
    let p = |x: &[u64]| search.iter().find(|(q, _)| q.as_slice() == x).unwrap().1;
    assert!(!(p(&[a, c]) && p(&[b, c])), "{w:?}");
    let no_hypothesis = Lemma {
        name: "step (no hypothesis)",
        statement: "wrong: b xor c < b or a xor c < a",
        values: &["a", "b", "c"],
        cases: &[&["xor(b, c) >= b", "xor(a, c) >= a"]],
    };
    let r = decide(&no_hypothesis, &budget()).unwrap();
    assert_eq!(r.status, Status::Refuted);
    let w: Vec<u64> = r
        .counterexample
        .unwrap()
        .iter()
        .map(|&x| x as u64)
        .collect();
    assert!((w[1] ^ w[2]) >= w[1] && (w[0] ^ w[2]) >= w[0], "{w:?}");
}

/// What `nimlab theory` says of the entries proved for every number of heaps is proved here.
#[test]
fn every_entry_listed_for_every_number_of_heaps_is_proved() {
    for id in nimlab_prove::proved::EVERY_NUMBER_OF_HEAPS {
        let r = prove_every_number_of_heaps(id, Duration::from_secs(120)).unwrap();
        assert_eq!(r.verdict, Status::Proved, "{id}");
        assert!(nimlab_prove::proved::checked(id)
            .0
            .contains("every number of heaps"));
    }
}
