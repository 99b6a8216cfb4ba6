//! Unit tests of the automata against plain arithmetic over bounded boxes.

use super::compile::{linear, window_options, xor_zero, Lin, Sign};
use super::dfa::{Budget, Dfa};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

fn budget() -> Budget {
    Budget {
        deadline: Instant::now() + Duration::from_secs(60),
        max_states: 1 << 20,
        cancel: None,
        interrupt: None,
    }
}

/// Every tuple of `tracks` entries below `2^bits`.
fn all(tracks: usize, bits: u32) -> Vec<Vec<u128>> {
    let top = 1u128 << bits;
    let mut out = vec![vec![]];
    for _ in 0..tracks {
        out = out
            .into_iter()
            .flat_map(|v: Vec<u128>| {
                (0..top).map(move |x| {
                    let mut v = v.clone();
                    v.push(x);
                    v
                })
            })
            .collect();
    }
    out
}

#[test]
fn linear_relations_equal_arithmetic() {
    let b = budget();
    // 3x - 2y + z - 5 against 0, every sign, on all triples below 2^4.
    let lin = Lin {
        terms: BTreeMap::from([(0, 3), (1, -2), (2, 1)]),
        c: -5,
    };
    for sign in [Sign::Zero, Sign::NonZero, Sign::AtMostZero] {
        let d = linear(3, &lin, sign, &b).unwrap();
        for v in all(3, 4) {
            let x = 3 * v[0] as i128 - 2 * v[1] as i128 + v[2] as i128 - 5;
            let want = match sign {
                Sign::Zero => x == 0,
                Sign::NonZero => x != 0,
                Sign::AtMostZero => x <= 0,
            };
            assert_eq!(d.accepts(&v), want, "{sign:?} {v:?}");
        }
    }
}

#[test]
fn xor_and_leading_zeros() {
    let b = budget();
    let d = xor_zero(3, &[0, 1, 2], &b).unwrap();
    for v in all(3, 4) {
        assert_eq!(d.accepts(&v), v[0] ^ v[1] ^ v[2] == 0, "{v:?}");
    }
    // A witness of "x = y + 9" is a shortest one.
    let lin = Lin {
        terms: BTreeMap::from([(0, 1), (1, -1)]),
        c: -9,
    };
    let d = linear(2, &lin, Sign::Zero, &b).unwrap();
    assert_eq!(d.witness(), Some(vec![9, 0]));
}

#[test]
fn projection_finds_wider_witnesses() {
    let b = budget();
    // exists y: y = 2x + 1 (y needs one digit more than x): true for every x.
    let lin = Lin {
        terms: BTreeMap::from([(1, 1), (0, -2)]),
        c: -1,
    };
    let d = linear(2, &lin, Sign::Zero, &b).unwrap();
    let p = d.project(&[0], &b).unwrap();
    for x in 0..64u128 {
        assert!(p.accepts(&[x]), "{x}");
    }
    // exists y: x = 2y: the even numbers.
    let lin = Lin {
        terms: BTreeMap::from([(0, 1), (1, -2)]),
        c: 0,
    };
    let p = linear(2, &lin, Sign::Zero, &b)
        .unwrap()
        .project(&[0], &b)
        .unwrap();
    for x in 0..64u128 {
        assert_eq!(p.accepts(&[x]), x % 2 == 0, "{x}");
    }
}

#[test]
fn the_option_relation_of_cn_4_2_equals_the_rules() {
    let b = budget();
    let windows = [vec![0, 1], vec![1, 2], vec![2, 3], vec![3, 0]];
    let per: Vec<Dfa> = windows
        .iter()
        .map(|w| window_options(4, w, &b).unwrap())
        .collect();
    for v in all(8, 2) {
        let (x, y) = (&v[..4], &v[4..]);
        let lowered: Vec<usize> = (0..4).filter(|&i| y[i] < x[i]).collect();
        let want = (0..4).all(|i| y[i] <= x[i])
            && !lowered.is_empty()
            && windows
                .iter()
                .any(|w| lowered.iter().all(|i| w.contains(i)));
        let got = per.iter().any(|d| d.accepts(&v));
        assert_eq!(got, want, "{x:?} -> {y:?}");
    }
}
