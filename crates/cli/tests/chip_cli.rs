//! The chip games through the command line: names, both notations, closed forms, tables, `theory ER(k)`.

mod common;

use common::{csv_rows, fails, json, ok, TempDir};

fn v2(x: u64) -> u32 {
    x.trailing_zeros()
}

#[test]
fn closed_forms_answer_huge_positions() {
    let v = json(&["outcome", "ET(4)", "1000000000000000000,3,5,7", "--json"]);
    assert_eq!(v["outcome"], "N");
    assert_ne!(v["method"], "search");
    let v = json(&["moves", "ET(4)", "1000000000000000000,3,5,7", "--json"]);
    assert!(!v["winning_moves"].as_array().unwrap().is_empty());
    // Prop. 1: all boxes odd is P in E&T.
    let v = json(&["outcome", "ET(5)", "999999999999999999,3,5,7,9", "--json"]);
    assert_eq!(v["outcome"], "P");
    // Ferguson's example: g(31,54) = 6 for E&T with two boxes.
    let v = json(&["grundy", "ET(2)", "31,54", "--json"]);
    assert_eq!(v["grundy"], 6);
}

#[test]
fn multiplicative_notation_in_and_out() {
    // x(16) = 1^6 10 is a P-position of ER(7) (Ferguson, Prop. 8 and its example).
    let a = json(&["outcome", "ER(7)", "1^6 10", "--json"]);
    let b = json(&["outcome", "er(7)", "1,1,1,1,1,1,10", "--json"]);
    assert_eq!(a["outcome"], "P");
    assert_eq!(a["position"], b["position"]);
    let text = ok(&["moves", "ER(7)", "1^5 2 10"]);
    assert!(text.contains("1^6 10"), "{text}");
    let text = ok(&["moves", "ER(7)", "1,1,1,1,1,2,10"]);
    assert!(text.contains("(1,1,1,1,1,1,10)"), "{text}");
}

#[test]
fn table_by_total_chips_matches_prop_4() {
    // E&T with three boxes: P iff v2 is the same for all three (Ferguson, Prop. 4). Count the multisets
    // of three positive integers with sum <= 20 that satisfy it, and their orderings.
    let (mut multisets, mut ordered) = (0u64, 0u64);
    for a in 1..=20u64 {
        for b in a..=20 {
            for c in b..=20 {
                if a + b + c <= 20 && v2(a) == v2(b) && v2(b) == v2(c) {
                    multisets += 1;
                    ordered += if a == c {
                        1
                    } else if a == b || b == c {
                        3
                    } else {
                        6
                    };
                }
            }
        }
    }
    let v = json(&["table", "ET(3)", "--max-sum", "20", "--json"]);
    assert_eq!(v["canonical_count"], multisets);
    assert_eq!(v["count"], ordered);
    assert_eq!(v["positions"].as_array().unwrap().len() as u64, multisets);
    fails(&["table", "ET(3)", "--max", "20"], "--max-sum");
    fails(&["table", "ER(7)", "--max-sum", "100000"], "");
}

#[test]
fn theory_er_prints_prop_8_objects() {
    let text = ok(&["theory", "ER(7)"]);
    assert!(text.contains("f(7) = 3"), "{text}");
    assert!(text.contains("8, 10, 12, 15, 18, 22, 26"), "{text}");
    assert!(
        text.contains("x(16) = 1^6 10") && text.contains("x(28) = 2^6 16"),
        "{text}"
    );
    let v = json(&["theory", "--json"]);
    let all = v.as_array().unwrap();
    assert!(all.len() >= 10);
    for e in all {
        for key in ["id", "games", "statement", "source"] {
            assert!(e[key].is_string(), "{key} in {e}");
        }
    }
}

/// Chip tables honour every output format, and `--grundy` gives each position's value: for ET(2)
/// these are checked against Ferguson's closed form through `grundy` (method `ferguson-et-k2-grundy`),
/// and in CSV the P-positions are exactly the positions of value 0.
#[test]
fn chip_tables_in_every_format_and_grundy_values() {
    let v = json(&["table", "ET(2)", "--max-sum", "12", "--grundy", "--json"]);
    let values = v["values"].as_array().unwrap();
    assert_eq!(values.len() as u64, v["positions_in_box"].as_u64().unwrap());
    assert!(values.len() > 20);
    for e in values {
        let p: Vec<String> = e["position"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.to_string())
            .collect();
        let g = json(&["grundy", "ET(2)", &p.join(","), "--json"]);
        assert_eq!(g["method"], "ferguson-et-k2-grundy");
        assert_eq!(g["grundy"], e["grundy"], "{p:?}");
    }
    for (game, header) in [
        ("ET(3)", "p1,p2,p3"),
        ("ER(3)", "p1,p2,p3"),
        ("EABO(4)", "p1,p2,p3,p4"),
    ] {
        let csv = ok(&["table", game, "--max-sum", "14", "--format", "csv"]);
        let jsonl = ok(&["table", game, "--max-sum", "14", "--format", "jsonl"]);
        let listed = json(&["table", game, "--max-sum", "14", "--json"]);
        let want: Vec<String> = listed["positions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                p.as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .collect();
        assert_eq!(csv_rows(&csv, header), want, "{game} csv");
        let from_jsonl: Vec<String> = jsonl
            .lines()
            .map(|l| l.trim_matches(|c| c == '[' || c == ']').to_string())
            .collect();
        assert_eq!(from_jsonl, want, "{game} jsonl");
        let zeros: Vec<String> = ok(&[
            "table",
            game,
            "--max-sum",
            "14",
            "--grundy",
            "--format",
            "csv",
        ])
        .lines()
        .filter_map(|l| l.strip_suffix(",0").map(str::to_string))
        .collect();
        assert_eq!(
            zeros, want,
            "{game}: the zeros of the Grundy table are the P-set"
        );
    }
    fails(
        &["table", "ET(3)", "--max-sum", "6", "--grundy", "--misere"],
        "",
    );
}

#[test]
fn grundy_value_sets_by_automata() {
    // ENTROPY(3): the positions of value 0 and of value 1, proved for every box size.
    let v = json(&[
        "prove",
        "ENTROPY(3)",
        "--grundy-value",
        "1",
        "--automata",
        "--json",
    ]);
    assert_eq!(v["verdict"], "proved", "{v}");
    assert_eq!(v["proved"], 2);
    // ET(3): value 0 (the P-set) from a small table.
    let v = json(&[
        "prove",
        "ET(3)",
        "--grundy-value",
        "0",
        "--automata",
        "--grundy-bits",
        "4",
        "--json",
    ]);
    assert_eq!(v["verdict"], "proved", "{v}");
    // --emit: each value set proved, in Walnut's format, named by the manifest with its hash.
    let dir = common::TempDir::new("grundy-emit");
    let cert = dir.file("cert");
    let v = json(&[
        "prove",
        "ET(3)",
        "--grundy-value",
        "0",
        "--automata",
        "--grundy-bits",
        "4",
        "--json",
        "--emit",
        &cert,
    ]);
    assert_eq!(v["verdict"], "proved", "{v}");
    let m = common::parse(
        "manifest.json",
        &std::fs::read_to_string(dir.path().join("cert/manifest.json")).unwrap(),
    );
    assert_eq!(
        (m["verdict"].as_str(), m["proved"].as_u64()),
        (Some("proved"), Some(1)),
        "{m}"
    );
    let named: Vec<&str> = m["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    assert_eq!(named, ["G_0.txt", "README.md", "check.sh"]);
    let g0 = std::fs::read_to_string(dir.path().join("cert/G_0.txt")).unwrap();
    let d = nimlab_prove::walnut::from_walnut(&g0, 3).unwrap();
    assert!(d.states() > 1, "{g0}");
    fails(
        &["prove", "ET(4)", "--grundy-value", "1", "--automata"],
        "ET(3) and ENTROPY(3)",
    );
    fails(&["prove", "ET(3)", "--grundy-value", "1"], "add --automata");
    fails(
        &[
            "prove",
            "ET(3)",
            "--grundy-value",
            "1",
            "--automata",
            "--grundy-bits",
            "40",
        ],
        "--grundy-bits",
    );
}

#[test]
fn contradictory_options_are_refused_not_dropped() {
    // A chip result is proved as what it claims: --subset is refused, not silently ignored.
    fails(
        &["prove", "EABO(3)", "--theorem", "ferguson-eabo", "--subset"],
        "--subset does not apply to the chip games",
    );
    // An automaton file describes a game of stacks.
    let dir = TempDir::new("chip-contradictions");
    let f = dir.write("set.txt", "msd_2 msd_2 msd_2\n0 1\n0 0 0 -> 0\n");
    fails(
        &["prove", "EABO(3)", "--automaton", &f],
        "an automaton file describes a game of stacks",
    );
    // The Grundy value sets are of normal play.
    fails(
        &[
            "prove",
            "ET(3)",
            "--grundy-value",
            "0",
            "--automata",
            "--misere",
        ],
        "--misere does not apply to the Grundy value sets",
    );
}
