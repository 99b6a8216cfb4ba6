//! Tests of the chip games' automata: the option relations against the moves listed one by one, the
//! sets built from the theorems' statements against the registry's `decide` and against a brute
//! force of the games written here, the proofs for every box size, and wrong variants refuted.

use super::chip_conditions::*;
use super::dfa::{Budget, Dfa};
use nimlab_core::Play;
use std::collections::HashMap;
use std::time::{Duration, Instant};

fn budget() -> Budget {
    Budget::new(Instant::now() + Duration::from_secs(600), 4_000_000)
}

fn wide(p: &[u64]) -> Vec<u128> {
    p.iter().map(|&v| v as u128).collect()
}

/// Every tuple of `k` entries in `lo..=hi`.
fn tuples(k: usize, lo: u64, hi: u64) -> Vec<Vec<u64>> {
    let mut out: Vec<Vec<u64>> = vec![Vec::new()];
    for _ in 0..k {
        let mut next = Vec::new();
        for t in &out {
            for v in lo..=hi {
                let mut t = t.clone();
                t.push(v);
                next.push(t);
            }
        }
        out = next;
    }
    out
}

/// The options of `x` by a move between boxes `i` and `j`, listed from the rules (ET: empty box i,
/// move t chips of box j into it; ENTROPY: move t chips from box i to box j).
fn pair_moves(moves: Transfer, x: &[u64], i: usize, j: usize) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    match moves {
        Transfer::Et => {
            for t in 1..x[j] {
                let mut y = x.to_vec();
                y[i] = t;
                y[j] = x[j] - t;
                out.push(y);
            }
        }
        Transfer::Entropy => {
            if x[i] >= x[j] + 2 {
                for t in 1..x[i] - x[j] {
                    let mut y = x.to_vec();
                    y[i] = x[i] - t;
                    y[j] = x[j] + t;
                    out.push(y);
                }
            }
        }
    }
    out
}

fn all_moves(moves: Transfer, x: &[u64]) -> Vec<Vec<u64>> {
    let k = x.len();
    let mut out = Vec::new();
    for i in 0..k {
        for j in 0..k {
            if i != j {
                out.extend(pair_moves(moves, x, i, j));
            }
        }
    }
    out
}

/// The brute force: `true` when `x` is a P-position, by the recursion over the options (positions
/// kept sorted; ENTROPY shifted to minimum 0).
struct Brute {
    moves: Transfer,
    play: Play,
    memo: HashMap<Vec<u64>, bool>,
}

impl Brute {
    fn new(moves: Transfer, play: Play) -> Brute {
        Brute {
            moves,
            play,
            memo: HashMap::new(),
        }
    }

    fn key(&self, x: &[u64]) -> Vec<u64> {
        let mut p = x.to_vec();
        p.sort_unstable();
        if self.moves == Transfer::Entropy {
            let m = p[0];
            p.iter_mut().for_each(|v| *v -= m);
        }
        p
    }

    fn is_p(&mut self, x: &[u64]) -> bool {
        let key = self.key(x);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let opts = all_moves(self.moves, &key);
        let v = if opts.is_empty() {
            self.play == Play::Normal
        } else {
            opts.iter().all(|y| !self.is_p(y))
        };
        self.memo.insert(key, v);
        v
    }
}

#[test]
fn option_relations_are_the_moves() {
    let b = budget();
    for (moves, k, lo, hi) in [
        (Transfer::Et, 3, 1, 5),
        (Transfer::Entropy, 3, 0, 5),
        (Transfer::Et, 4, 1, 3),
        (Transfer::Entropy, 4, 0, 3),
    ] {
        let box_ = tuples(k, lo, hi);
        let opts = options(moves, k, &b).unwrap();
        assert_eq!(opts.len(), k * (k - 1));
        for ((i, j), o) in &opts {
            // Both ways: every listed move is accepted, and every accepted pair is a listed move.
            let mut accepted = 0;
            for x in &box_ {
                let listed = pair_moves(moves, x, *i, *j);
                for y in &box_ {
                    let xy: Vec<u64> = x.iter().chain(y).copied().collect();
                    let is = o.accepts(&wide(&xy));
                    assert_eq!(
                        is,
                        listed.contains(y),
                        "{moves:?} ({i},{j}): {x:?} -> {y:?}"
                    );
                    accepted += usize::from(is);
                }
            }
            assert!(accepted > 0);
            assert!(o.leading_zeros_matter().is_none());
        }
        // Terminal positions: the positions of the domain without a move.
        let t = terminal(moves, k, &b).unwrap();
        let d = domain(moves, k, &b).unwrap();
        for x in tuples(k, 0, hi) {
            let in_domain = moves == Transfer::Entropy || x.iter().all(|&v| v >= 1);
            assert_eq!(d.accepts(&wide(&x)), in_domain, "{x:?}");
            assert_eq!(
                t.accepts(&wide(&x)),
                in_domain && all_moves(moves, &x).is_empty(),
                "{moves:?} {x:?}"
            );
        }
    }
}

#[test]
fn reversal_reads_the_words_backwards() {
    let b = budget();
    let lsb = halving_lsb(true, &b).unwrap();
    let twice = lsb.reverse(&b).unwrap().reverse(&b).unwrap();
    assert_eq!(twice, lsb.minimize());
    // A word and its reversal: x = (1, 2, 3, 6) LSB first is the letters of bits 0, 1, 2.
    let msb = lsb.reverse(&b).unwrap();
    for x in tuples(4, 0, 7) {
        let mut s = 0;
        for bit in 0..3 {
            let l: u32 = (0..4).map(|i| (((x[i] >> bit) & 1) as u32) << i).sum();
            s = lsb.step(s, l);
        }
        assert_eq!(lsb.is_final(s), msb.accepts(&wide(&x)), "{x:?}");
    }
}

/// The registry's `decide` of `id` on `game` (P or not) for every position of the box.
fn agrees_with_registry(id: &str, game: &str, set: &Dfa, k: usize, lo: u64, hi: u64) {
    let t = nimlab_theory::by_id(id).unwrap();
    let g = nimlab_games::registry::parse_game(game).unwrap();
    let mut members = 0;
    for x in tuples(k, lo, hi) {
        let is_p = t.decide(g.as_ref(), &x).unwrap().is_p;
        assert_eq!(set.accepts(&wide(&x)), is_p, "{id}: {x:?}");
        members += usize::from(is_p);
    }
    assert!(members > 10, "{id}: {members} members");
}

fn agrees_with_brute_force(set: &Dfa, moves: Transfer, play: Play, k: usize, lo: u64, hi: u64) {
    let mut brute = Brute::new(moves, play);
    for x in tuples(k, lo, hi) {
        assert_eq!(set.accepts(&wide(&x)), brute.is_p(&x), "{x:?}");
    }
}

#[test]
fn sets_are_the_theorems() {
    let b = budget();
    let et3 = equal_valuations(3, &b).unwrap();
    agrees_with_registry("ferguson-et-k3", "ET(3)", &et3, 3, 1, 40);
    agrees_with_brute_force(&et3, Transfer::Et, Play::Normal, 3, 1, 14);
    let et4 = halving(&b).unwrap();
    agrees_with_registry("ferguson-et-k4", "ET(4)", &et4, 4, 1, 16);
    agrees_with_brute_force(&et4, Transfer::Et, Play::Normal, 4, 1, 8);
    let en = entropy3(&b).unwrap();
    agrees_with_registry("ferguson-entropy-k3", "ENTROPY(3)", &en, 3, 0, 39);
    agrees_with_brute_force(&en, Transfer::Entropy, Play::Normal, 3, 0, 14);
    let mis = entropy3_misere(&b).unwrap();
    agrees_with_registry("ferguson-entropy-k3-misere", "ENTROPY(3)", &mis, 3, 0, 39);
    agrees_with_brute_force(&mis, Transfer::Entropy, Play::Misere, 3, 0, 14);
    for d in [&et3, &et4, &en, &mis] {
        assert!(d.leading_zeros_matter().is_none());
    }
}

fn holds(moves: Transfer, k: usize, set: &Dfa, play: Play) {
    let c = chip_conditions(moves, k, set, play, &budget()).unwrap();
    assert_eq!(c.joined.0, Ok(None));
    assert_eq!(c.stranded.0, Ok(None));
    assert_eq!(c.terminal.0, Ok(None));
}

#[test]
fn theorems_hold_for_every_box_size() {
    let b = budget();
    for (id, k, play) in [
        ("ferguson-et-k3", 3, Play::Normal),
        ("ferguson-et-k4", 4, Play::Normal),
        ("ferguson-entropy-k3", 3, Play::Normal),
        ("ferguson-entropy-k3-misere", 3, Play::Misere),
    ] {
        let (moves, set) = theorem_set(id, k, &b).unwrap();
        holds(moves, k, &set, play);
    }
}

/// A wrong set is refuted, and its counterexample checks out on the moves listed here.
fn refuted(moves: Transfer, k: usize, set: &Dfa, play: Play) {
    let c = chip_conditions(moves, k, set, play, &budget()).unwrap();
    let member = |x: &[u128]| set.accepts(x);
    let narrow = |v: &[u128]| -> Vec<u64> { v.iter().map(|&a| a as u64).collect() };
    if let Ok(Some((x, y))) = &c.joined.0 {
        assert!(member(x) && member(y));
        assert!(all_moves(moves, &narrow(x)).contains(&narrow(y)));
        return;
    }
    if let Ok(Some(x)) = &c.stranded.0 {
        let opts = all_moves(moves, &narrow(x));
        assert!(!member(x) && !opts.is_empty());
        assert!(opts.iter().all(|y| !member(&wide(y))), "{x:?}");
        return;
    }
    if let Ok(Some(x)) = &c.terminal.0 {
        assert!(all_moves(moves, &narrow(x)).is_empty());
        assert_eq!(member(x), play == Play::Misere);
        return;
    }
    panic!("not refuted");
}

#[test]
fn wrong_variants_are_refuted() {
    let b = budget();
    // ET(3): the valuations of the same parity (not equal).
    let parity = Dfa::explore(
        3,
        (0u32, 0u32),
        // (tracks with a 1 read, tracks whose zeros since their last 1 are odd in number)
        |&(seen, odd), l| (seen | l, (odd ^ seen) & !l & 7),
        |&(seen, odd)| seen == 7 && (odd == 0 || odd == 7),
        &b,
    )
    .unwrap();
    assert!(parity.accepts(&[1, 1, 4]) && !parity.accepts(&[1, 1, 2]));
    refuted(Transfer::Et, 3, &parity, Play::Normal);
    // ENTROPY(3): 2^n m instead of 4^n m.
    refuted(
        Transfer::Entropy,
        3,
        &entropy3_with(false, &b).unwrap(),
        Play::Normal,
    );
    // ET(4): the halving takes 1 away from the one odd box instead of adding 1.
    refuted(
        Transfer::Et,
        4,
        &halving_with(false, &b).unwrap(),
        Play::Normal,
    );
    // The right sets in the wrong play.
    refuted(Transfer::Entropy, 3, &entropy3(&b).unwrap(), Play::Misere);
    refuted(
        Transfer::Et,
        3,
        &equal_valuations(3, &b).unwrap(),
        Play::Misere,
    );
}

#[test]
fn long_counterexamples_are_a_limit_not_a_wrap() {
    // A chain of 131 states: the shortest accepted word has 130 letters, values of 130 digits.
    let n = 131u32;
    let trans: Vec<u32> = (0..n).flat_map(|s| [(s + 1).min(n - 1); 2]).collect();
    let fin: Vec<bool> = (0..n).map(|s| s == n - 1).collect();
    let d = Dfa::from_parts(1, trans, fin).unwrap();
    assert!(matches!(witness(&d), Err(super::dfa::Stop::Limit(_))));
    let short = Dfa::from_parts(1, vec![1, 1, 1, 1], vec![false, true]).unwrap();
    assert_eq!(witness(&short), Ok(Some(vec![0])));
}
