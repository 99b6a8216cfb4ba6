//! The Grundy value sets of ET(3) and ENTROPY(3) by automata: the exact tables against the games'
//! own moves (nimlab-games' solver) and a brute force written here, `G_0` against the proved
//! P-sets, a value set learned from the tables and proved for every box size, and wrong candidates
//! refuted with a position re-checked against the exact table.

use nimlab_core::Solver;
use nimlab_prove::automata::{
    chip_moves, entropy3, entropy3_value_one, equal_valuations, learn_value_set, refute, Budget,
    Dfa, GrundyTable, LearnedValueSet, Transfer, ValueSets,
};
use std::collections::HashMap;
use std::time::{Duration, Instant};

fn budget() -> Budget {
    Budget::new(Instant::now() + Duration::from_secs(600), 2_000_000)
}

/// The Grundy value by the rules (chip moves written in the crate) with a memo, for the brute force.
fn brute(moves: Transfer, x: [u64; 3], memo: &mut HashMap<[u64; 3], u16>) -> u16 {
    let mut k = x;
    k.sort_unstable();
    if moves == Transfer::Entropy {
        let m = k[0];
        k = [0, k[1] - m, k[2] - m];
    }
    if let Some(&g) = memo.get(&k) {
        return g;
    }
    let mut seen = [false; 1024];
    for y in chip_moves(moves, k) {
        seen[brute(moves, y, memo) as usize] = true;
    }
    let g = seen.iter().position(|&s| !s).unwrap() as u16;
    memo.insert(k, g);
    g
}

#[test]
fn tables_agree_with_the_games_and_a_brute_force() {
    for (moves, name, bits, lo) in [
        (Transfer::Et, "ET(3)", 4, 1),
        (Transfer::Entropy, "ENTROPY(3)", 4, 0),
    ] {
        let t = GrundyTable::new(moves, bits).unwrap();
        let game = nimlab_games::registry::parse_game(name).unwrap();
        let mut solver = Solver::new(game.as_ref());
        let mut memo = HashMap::new();
        let n = 1u64 << bits;
        for a in lo..n {
            for b in lo..n {
                for c in lo..n {
                    let g = t.value(&[a, b, c]).unwrap();
                    assert_eq!(
                        u64::from(g),
                        solver.grundy(&[a, b, c]).unwrap(),
                        "{name} {a},{b},{c}"
                    );
                    assert_eq!(g, brute(moves, [a, b, c], &mut memo), "{name} {a},{b},{c}");
                }
            }
        }
        // Outside the box or the domain: no value.
        assert_eq!(t.value(&[1, 1, n]), None);
        if moves == Transfer::Et {
            assert_eq!(t.value(&[0, 1, 2]), None);
        }
    }
    // The brute force on a larger box, sampled along a line.
    let t = GrundyTable::new(Transfer::Et, 7).unwrap();
    let mut memo = HashMap::new();
    for c in 1..128 {
        assert_eq!(
            t.value(&[1, 2, c]).unwrap(),
            brute(Transfer::Et, [1, 2, c], &mut memo)
        );
    }
    // Bad input: one line, no panic.
    assert!(GrundyTable::new(Transfer::Et, 0).is_err());
    assert!(GrundyTable::new(Transfer::Et, 30).is_err());
}

/// `G_0` of the table is the proved P-set on the box (ET(3): equal 2-adic valuations; ENTROPY(3):
/// Ferguson's Prop. 9).
#[test]
fn value_zero_is_the_proved_p_set() {
    let b = budget();
    for (moves, p) in [
        (Transfer::Et, equal_valuations(3, &b).unwrap()),
        (Transfer::Entropy, entropy3(&b).unwrap()),
    ] {
        let t = GrundyTable::new(moves, 6).unwrap();
        let lo = u64::from(moves == Transfer::Et);
        for a in lo..64 {
            for c in lo..64 {
                for d in lo..64 {
                    let x = [a, c, d];
                    let member = p.accepts(&[a as u128, c as u128, d as u128]);
                    assert_eq!(t.value(&x) == Some(0), member, "{moves:?} {x:?}");
                }
            }
        }
    }
}

fn learned(t: &GrundyTable, v: u16) -> Dfa {
    match learn_value_set(t, v, 2, 200).unwrap() {
        LearnedValueSet::Stable { dfa, .. } => dfa,
        _ => panic!("G_{v} of {:?} did not settle below 2^{}", t.moves, t.bits),
    }
}

/// The first value sets of ENTROPY(3) learned from tables and proved for every box size, each also
/// equal to the table on the whole box; `G_0` in place of `G_1`, and `G_1` with one state's
/// acceptance flipped, refuted at a position the exact table confirms.
#[test]
fn entropy3_value_sets_proved_and_wrong_ones_refuted() {
    let b = budget();
    let t = GrundyTable::new(Transfer::Entropy, 8).unwrap();
    let mut sets = ValueSets::new(Transfer::Entropy, &b).unwrap();
    let g0 = learned(&t, 0);
    assert!(g0.differs_from(&entropy3(&b).unwrap()).is_none());
    assert_eq!(sets.prove_next(&g0, &b).unwrap(), None);
    let g1 = learned(&t, 1);
    // Wrong: G_0 in place of G_1.
    let w = sets.prove_next(&g0, &b).unwrap().expect("G_0 is not G_1");
    let (x, g, member) = refute(&t, &g0, 1, &w).expect("re-checked on the table");
    assert_eq!(member, g != 1, "{x:?}");
    // Wrong: one state's acceptance flipped (the first three states whose flip changes the set).
    let mut tried = 0;
    for s in 0..g1.states() as u32 {
        let flipped = flip(&g1, s);
        if tried == 3 || flipped.differs_from(&g1).is_none() {
            continue;
        }
        tried += 1;
        let w = sets
            .prove_next(&flipped, &b)
            .unwrap()
            .expect("a flipped set is not G_1");
        let (x, g, member) = refute(&t, &flipped, 1, &w).expect("re-checked on the table");
        assert_eq!(member, g != 1, "{x:?}");
    }
    // Wrong: the statement without its last family.
    let short = entropy3_value_one(true, &b).unwrap();
    let w = sets
        .prove_next(&short, &b)
        .unwrap()
        .expect("a family is missing");
    let (x, g, member) = refute(&t, &short, 1, &w).expect("re-checked on the table");
    assert_eq!(member, g != 1, "{x:?}");
    assert_eq!(sets.next_value(), 1);
    // The statement is the learned automaton, proved.
    let stated = entropy3_value_one(false, &b).unwrap();
    assert_eq!(stated.differs_from(&g1), None);
    assert_eq!(sets.prove_next(&stated, &b).unwrap(), None);
    assert_eq!(sets.next_value(), 2);
}

/// ET(3): `G_0` learned and proved (the equal-valuations set); the P-set in place of `G_1` refuted
/// at a position the exact table confirms.
#[test]
fn et3_value_zero_proved_and_a_wrong_value_one_refuted() {
    let b = budget();
    let t = GrundyTable::new(Transfer::Et, 5).unwrap();
    let mut sets = ValueSets::new(Transfer::Et, &b).unwrap();
    let g0 = learned(&t, 0);
    let p = equal_valuations(3, &b).unwrap();
    assert!(g0.differs_from(&p).is_none());
    assert_eq!(sets.prove_next(&g0, &b).unwrap(), None);
    let w = sets.prove_next(&p, &b).unwrap().expect("G_0 is not G_1");
    let (x, g, member) = refute(&t, &p, 1, &w).expect("re-checked on the table");
    assert_eq!(member, g != 1, "{x:?}");
    assert_eq!(sets.next_value(), 1);
}

/// The automaton with state `s`'s acceptance flipped.
fn flip(d: &Dfa, s: u32) -> Dfa {
    let letters = 1u32 << d.tracks;
    let mut trans = Vec::new();
    let mut fin = Vec::new();
    for q in 0..d.states() as u32 {
        for l in 0..letters {
            trans.push(d.step(q, l));
        }
        fin.push(d.is_final(q) != (q == s));
    }
    Dfa::from_parts(d.tracks, trans, fin).unwrap()
}

/// An observation on the box 2^8, not a proof: ENTROPY(3)'s positions of value 2 (whose automaton
/// does not settle) all have the middle box within 3 of an end.
#[test]
fn entropy3_value_two_near_an_end_on_the_box() {
    let t = GrundyTable::new(Transfer::Entropy, 8).unwrap();
    let mut by_offset = [0usize; 4];
    for q in 0..256u64 {
        for p in 0..=q {
            if t.value(&[0, p, q]) == Some(2) {
                let off = p.min(q - p);
                assert!(off <= 3, "(0,{p},{q})");
                by_offset[off as usize] += 1;
            }
        }
    }
    assert!(by_offset.iter().all(|&c| c > 0), "{by_offset:?}");
}
