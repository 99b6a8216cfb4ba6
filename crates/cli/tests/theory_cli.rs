//! The Circular Nim results through the command line: huge positions answered by theory, and
//! `nimlab explain`.

mod common;

use common::json;
use serde_json::Value;

fn tuple(v: &Value) -> Vec<u64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}

/// Theorem 2 of the CN(7,4) paper as docs/rules.md (Theorem cn-7-4) states it, written out independently of the entry:
/// some reading (a,...,g) from a minimal stack is in S1, S2, S3 or S4.
fn spec_cn74_is_p(p: &[u64]) -> bool {
    (0..7).any(|s| {
        [true, false].into_iter().any(|fwd| {
            let t: Vec<i128> = (0..7)
                .map(|i| p[if fwd { (s + i) % 7 } else { (s + 7 - i) % 7 }] as i128)
                .collect();
            let (a, b, c, d, e, f, g) = (t[0], t[1], t[2], t[3], t[4], t[5], t[6]);
            let minimal = t.iter().all(|&x| a <= x);
            let s1 = a == 0 && b == 0 && c == g && c > 0 && d + e + f == c;
            let s2 = t.iter().all(|&x| x == a);
            let s3 = a == b && c == g && d == f && a + c == d + e && 0 < a && a < e;
            let s4 = a == f && b + c == d + e && d + e == g + a && a < b.min(e) && a < c.max(d);
            minimal && (s1 || s2 || s3 || s4)
        })
    })
}

#[test]
fn cn74_winning_move_for_huge_stacks() {
    let p = [
        1_000_000_000_000_000_000u64,
        3,
        999_999_999_999_999_999,
        5,
        7,
        11,
        13,
    ];
    // How fast this answers is measured in docs/benchmarks.md, not asserted here.
    let v = json(&[
        "moves",
        "CN(7,4)",
        "1000000000000000000,3,999999999999999999,5,7,11,13",
        "--json",
    ]);
    assert_eq!(v["method"], "cn-7-4");
    assert_eq!(v["outcome"], "N");
    let moves = v["winning_moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    for m in moves {
        let q = tuple(m);
        // Legal: lower, not equal, changes only inside four consecutive stacks.
        assert!(q.len() == 7 && q != p && q.iter().zip(&p).all(|(a, b)| a <= b));
        let changed: Vec<usize> = (0..7).filter(|&i| q[i] != p[i]).collect();
        assert!((0..7).any(|s| changed.iter().all(|&i| (i + 7 - s) % 7 < 4)));
        assert!(spec_cn74_is_p(&q), "{q:?}");
        assert!(nimlab_theory::cn74::cn74().is_p(&q));
    }
    assert!(!spec_cn74_is_p(&p));
}

#[test]
fn explain_names_the_family_of_a_p_position() {
    // S3 with a = b = 1, c = g = 3, d = f = 2, e = 2: a + c = d + e, 0 < a < e.
    let v = json(&["explain", "CN(7,4)", "1,1,3,2,2,2,3", "--json"]);
    assert_eq!(v["outcome"], "P");
    assert_eq!(v["method"], "cn-7-4");
    assert_eq!(v["explanation"]["family"], "S3");
    assert!(v["explanation"]["reason"]
        .as_str()
        .unwrap()
        .contains("a + c = d + e"));
    // SCN(5,3), Theorem 3.4: (2, 2p, p+1, p, 2p-1) with p = 3.
    let v = json(&["explain", "SCN(5,3)", "2,6,4,3,5", "--json"]);
    assert_eq!(v["outcome"], "P");
    assert_eq!(v["explanation"]["family"], "(2,2p,p+1,p,2p-1)");
}

#[test]
fn explain_gives_the_move_and_its_family_for_an_n_position() {
    let v = json(&["explain", "CN(7,4)", "1,7,5,6,2,3,6", "--json"]);
    assert_eq!(v["outcome"], "N");
    let q = tuple(&v["explanation"]["winning_move"]);
    assert!(spec_cn74_is_p(&q));
    assert!(v["explanation"]["family"]
        .as_str()
        .unwrap()
        .starts_with('S'));
    // CN(5,3): (x,0,x,a,b) with x = a + b; from (5,0,9,2,3) lower 9 to 5.
    let v = json(&["explain", "CN(5,3)", "5,0,9,2,3", "--json"]);
    assert_eq!(v["outcome"], "N");
    assert_eq!(
        tuple(&v["explanation"]["winning_move"]),
        vec![5, 0, 5, 2, 3]
    );
}

#[test]
fn explain_falls_back_to_search() {
    // CN(6,2) is unsolved. (1,1,0,0,0,0): two adjacent stacks form one window; taking both wins.
    let v = json(&["explain", "CN(6,2)", "1,1,0,0,0,0", "--json"]);
    // No proven result: the engine's table of the box below, or a search.
    assert!(v["method"] == "search" || v["method"] == "engine", "{v}");
    assert_eq!(v["outcome"], "N");
    assert_eq!(
        tuple(&v["explanation"]["winning_move"]),
        vec![0, 0, 0, 0, 0, 0]
    );
    // Stacks two apart are in no common window of CN(6,2): (1,0,1,0,0,0) is Nim with heaps 1, 1: P.
    let v = json(&["explain", "CN(6,2)", "1,0,1,0,0,0", "--json"]);
    assert!(v["method"] == "search" || v["method"] == "engine", "{v}");
    assert_eq!(v["outcome"], "P");
}

/// `theory --json` says for each entry how it was checked: by `prove` for every stack size (SMT or
/// automata) or below 2^w (the prove crate's tests `every_entry_listed_as_proved_is_proved`,
/// `every_entry_listed_as_proved_by_automata_is_proved` and
/// `every_entry_listed_as_proved_below_2_w_is_proved` run each of those proofs) or on a box.
#[test]
fn theory_json_says_how_each_entry_was_checked() {
    let v = json(&["theory", "--json"]);
    let entries = v.as_array().unwrap();
    for e in entries {
        let c = e["checked"].as_str().unwrap_or_else(|| panic!("{e}"));
        assert!(
            c == "checked on a box"
                || c.starts_with("proved for all sizes")
                || c.starts_with("proved below 2^"),
            "{e}"
        );
        assert_eq!(
            c == "checked on a box",
            e["proved_on"].as_array().unwrap().is_empty(),
            "{e}"
        );
    }
    let by_id = |id: &str| entries.iter().find(|e| e["id"] == id).unwrap().clone();
    assert_eq!(by_id("cn-7-4")["checked"], "proved for all sizes");
    // One-heap games: proved by the periodicity theorem for each game whose prefix passes its check.
    assert!(by_id("octal-periodic")["checked"]
        .as_str()
        .unwrap()
        .starts_with("proved for all sizes (the periodicity theorem"));
    assert_eq!(by_id("cn-7-4")["proved_on"], serde_json::json!(["CN(7,4)"]));
    // xor: proved for all sizes by the automata prover (bit-vector proofs reach only below 2^w);
    // Bouton (normal and misère) for every number of heaps too (an induction whose lemmas the
    // automata prove).
    assert_eq!(
        by_id("bouton")["checked"],
        "proved for all sizes and every number of heaps (an induction over the heaps, its lemmas by automata); also directly on nim on n heaps (CN(n,1)) for n = 1 to 8 (automata)"
    );
    assert_eq!(
        by_id("bouton")["proved_on"][0],
        "nim on every number of heaps"
    );
    assert_eq!(
        by_id("cn-6-4")["checked"],
        "proved for all sizes (automata)"
    );
    // Ferguson's results that read binary digits: by the chip games' automata.
    for id in [
        "ferguson-et-k3",
        "ferguson-et-k4",
        "ferguson-entropy-k3-misere",
    ] {
        assert_eq!(by_id(id)["checked"], "proved for all sizes (automata)");
    }
    assert_eq!(
        by_id("ferguson-et-k4")["proved_on"],
        serde_json::json!(["ET(4)"])
    );
    assert!(by_id("moore")["checked"]
        .as_str()
        .unwrap()
        .starts_with("proved for all sizes on moore(k) on n heaps, every k from 2 to n - 2 (the complex of all k-sets) for n = 4 to 8 (automata)"));
    // The results about a family of games, on every size recorded (crates/prove/src/registry_proofs.rs).
    assert_eq!(
        by_id("cn-n-n")["checked"],
        "proved for all sizes on CN(n,n) for n = 1 to 26; checked on a box for the other games"
    );
    assert_eq!(by_id("cn-n-n")["proved_on"].as_array().unwrap().len(), 26);
    assert!(by_id("scn-n-1")["checked"]
        .as_str()
        .unwrap()
        .starts_with("proved for all sizes on SCN(n,1) for n = 1 to "));
    assert!(by_id("cn-n-n-1")["checked"]
        .as_str()
        .unwrap()
        .contains("checked on a box for the other games"));
}
