//! `table --ordered` and `table --fix I=V`: every ordered P-position of a box or of a slice of it,
//! against the closed forms worked out here (Bouton's theorem, CN(4,2)'s opposite pairs) and a brute
//! force of Nim's Grundy values; and the refusals.

mod common;

use common::{fails, json, ok, position_set};
use std::collections::BTreeSet;

fn rows(text: &str) -> BTreeSet<Vec<u64>> {
    text.lines()
        .skip(1)
        .map(|l| l.split(',').map(|x| x.parse().unwrap()).collect())
        .collect()
}

#[test]
fn ordered_p_positions_are_every_member_of_each_class() {
    // CN(4,2): P iff a1 = a3 and a2 = a4 (Dufour and Heubach), so (a,b,a,b) for a, b in 0..=5.
    let got = rows(&ok(&[
        "table",
        "CN(4,2)",
        "--max",
        "5",
        "--ordered",
        "--format",
        "csv",
        "--no-store",
    ]));
    let want: BTreeSet<Vec<u64>> = (0..=5u64)
        .flat_map(|a| (0..=5u64).map(move |b| vec![a, b, a, b]))
        .collect();
    assert_eq!(got, want);
    // Nim with 3 heaps in both conventions (Bouton): every ordered P-position, as many as counted.
    for misere in [false, true] {
        let mut args = vec![
            "table",
            "nim",
            "--heaps",
            "3",
            "--max",
            "7",
            "--ordered",
            "--json",
            "--no-store",
        ];
        if misere {
            args.push("--misere");
        }
        let v = json(&args);
        assert_eq!(v["listed"], "ordered");
        let got = position_set(&v);
        let mut want = BTreeSet::new();
        for a in 0..=7u64 {
            for b in 0..=7u64 {
                for c in 0..=7u64 {
                    let p = if misere && a.max(b).max(c) <= 1 {
                        (a + b + c) % 2 == 1
                    } else {
                        a ^ b ^ c == 0
                    };
                    if p {
                        want.insert(vec![a, b, c]);
                    }
                }
            }
        }
        assert_eq!(got, want, "misère {misere}");
        assert_eq!(v["count"], want.len() as u64);
    }
    // SCN: every rotation and reflection of each circle, for every length.
    let v = json(&[
        "table",
        "SCN(4,2)",
        "--max",
        "6",
        "--ordered",
        "--json",
        "--no-store",
    ]);
    assert_eq!(
        v["positions"].as_array().unwrap().len() as u64,
        v["count"].as_u64().unwrap()
    );
}

#[test]
fn a_slice_lists_the_positions_with_the_fixed_stacks() {
    // Nim, 4 heaps, heap 2 = 5 and heap 4 = 1: P iff a ^ 5 ^ c ^ 1 = 0.
    let got = rows(&ok(&[
        "table",
        "nim",
        "--heaps",
        "4",
        "--max",
        "9",
        "--fix",
        "2=5",
        "--fix",
        "4=1",
        "--format",
        "csv",
        "--no-store",
    ]));
    let want: BTreeSet<Vec<u64>> = (0..=9u64)
        .flat_map(|a| (0..=9u64).map(move |c| vec![a, 5, c, 1]))
        .filter(|p| p[0] ^ p[1] ^ p[2] ^ p[3] == 0)
        .collect();
    assert_eq!(got, want);
    // Grundy values of a slice: Nim's value is the XOR of the heaps.
    let text = ok(&[
        "table",
        "nim",
        "--heaps",
        "3",
        "--max",
        "6",
        "--grundy",
        "--fix",
        "1=3",
        "--format",
        "csv",
        "--no-store",
    ]);
    let mut n = 0;
    for line in text.lines().skip(1) {
        let x: Vec<u64> = line.split(',').map(|x| x.parse().unwrap()).collect();
        assert_eq!(x[0], 3);
        assert_eq!(x[3], x[0] ^ x[1] ^ x[2], "{line}");
        n += 1;
    }
    assert_eq!(n, 49);
    let v = json(&[
        "table",
        "CN(4,2)",
        "--max",
        "4",
        "--fix",
        "3=2",
        "--json",
        "--no-store",
    ]);
    assert_eq!(v["fix"]["p3"], 2);
    assert_eq!(v["positions"].as_array().unwrap().len(), 5, "(2,b,2,b)");
}

#[test]
fn slices_are_refused_where_they_mean_nothing() {
    fails(
        &[
            "table",
            "CN(4,2)",
            "--max",
            "4",
            "--fix",
            "3=2",
            "--count-only",
            "--no-store",
        ],
        "--count-only lists none",
    );
    fails(
        &[
            "table",
            "CN(4,2)",
            "--max",
            "4",
            "--ordered",
            "--count-only",
            "--no-store",
        ],
        "--count-only lists none",
    );
    fails(
        &[
            "table",
            "CN(4,2)",
            "--max",
            "4",
            "--fix",
            "5=2",
            "--no-store",
        ],
        "numbered 1 to 4",
    );
    fails(
        &[
            "table",
            "CN(4,2)",
            "--max",
            "4",
            "--fix",
            "1=9",
            "--no-store",
        ],
        "values 0..=4 only",
    );
    fails(
        &[
            "table",
            "CN(4,2)",
            "--max",
            "4",
            "--fix",
            "1=1",
            "--fix",
            "1=2",
            "--no-store",
        ],
        "twice",
    );
    fails(
        &[
            "table",
            "ER(3)",
            "--max-sum",
            "6",
            "--fix",
            "1=1",
            "--no-store",
        ],
        "--fix takes a slice of a box",
    );
}
