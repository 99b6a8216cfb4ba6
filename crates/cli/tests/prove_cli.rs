//! `nimlab prove`: exit statuses, the JSON report, --emit, and one-line errors. Tests that need z3
//! print SKIPPED on stderr when it is missing, unless NIMLAB_REQUIRE_Z3=1 (CI), which makes them fail.

#[path = "prove_cli/automata.rs"]
mod automata;
#[path = "prove_cli/certificates.rs"]
mod certificates;
mod common;

use common::{fails, nimlab, parse, TempDir};
use serde_json::Value;

fn have_z3(test: &str) -> bool {
    let found = common::which("z3").ok_or("z3 is not on the PATH (apt-get install z3)".to_string());
    nimlab_testkit::tools::need(test, "z3", found).is_some()
}

/// Runs `nimlab prove ARGS --json`; the exit status and the report.
fn prove_json(args: &[&str]) -> (i32, Value) {
    let mut all = vec!["prove"];
    all.extend(args);
    all.push("--json");
    let out = nimlab(&all);
    let text = String::from_utf8(out.stdout).unwrap();
    (out.status.code().unwrap(), parse(&all, &text))
}

/// `nimlab ARGS` with the store `db` and the registry off (so that the stored characterization
/// answers); stdout.
fn without_theory(db: &str, args: &[&str]) -> String {
    let out = common::cmd()
        .args(args)
        .args(["--db", db])
        .env("NIMLAB_THEORY", "off")
        .output()
        .unwrap();
    common::success(args, out)
}

#[test]
fn cn74_theorem_is_proved_in_json() {
    if !have_z3("cn74_theorem_is_proved_in_json") {
        return;
    }
    let (code, v) = prove_json(&["CN(7,4)", "--theorem", "cn-7-4"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["game"], "CN(7,4)");
    assert_eq!(v["source"], "theorem cn-7-4");
    assert_eq!(v["verdict"], "proved");
    assert_eq!(v["range"], "all");
    assert!(v["seconds"].as_f64().unwrap() < 60.0);
    let conds = v["conditions"].as_array().unwrap();
    let names: Vec<&str> = conds
        .iter()
        .map(|c| c["condition"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["I", "II", "III"]);
    for c in conds {
        assert_eq!(c["status"], "proved");
        assert!(c["counterexample"].is_null());
    }
}

const CN42_WRONG: &str = r#"
game = "CN(4,2)"
reading = "any"
[[family]]
name = "opposite equal, one pair only"
relations = ["a = c"]
"#;

#[test]
fn a_wrong_file_is_refuted_with_a_move() {
    if !have_z3("a_wrong_file_is_refuted_with_a_move") {
        return;
    }
    let dir = TempDir::new("prove-wrong");
    let file = dir.write("cn42.toml", CN42_WRONG);
    let (code, v) = prove_json(&["CN(4,2)", "--families", &file]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["verdict"], "refuted");
    let c1 = &v["conditions"][0];
    assert_eq!(
        (c1["condition"].as_str(), c1["status"].as_str()),
        (Some("I"), Some("refuted"))
    );
    let pos: Vec<u64> = serde_json::from_value(c1["counterexample"]["position"].clone()).unwrap();
    let to: Vec<u64> = serde_json::from_value(c1["counterexample"]["move_to"].clone()).unwrap();
    // By the rules: both have a pair of opposite stacks equal (the family read from some rotation),
    // and the move lowers one stack or two adjacent ones.
    let opposite_equal = |p: &[u64]| p[0] == p[2] || p[1] == p[3];
    assert!(
        opposite_equal(&pos) && opposite_equal(&to),
        "{pos:?} -> {to:?}"
    );
    let changed: Vec<usize> = (0..4).filter(|&i| pos[i] != to[i]).collect();
    assert!(!changed.is_empty() && (0..4).all(|i| to[i] <= pos[i]));
    assert!(
        changed.len() == 1 || (changed[1] - changed[0]) % 2 == 1,
        "{pos:?} -> {to:?} is not a CN(4,2) move"
    );
    // The text form says the same, with the exit status.
    let out = nimlab(&["prove", "CN(4,2)", "--families", &file]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("refuted") && text.contains("re-checked"),
        "{text}"
    );
}

#[test]
fn bad_input_is_one_line_with_status_2() {
    let dir = TempDir::new("prove-bad");
    // nim takes --heaps (or, for bouton with --automata, every number of heaps); a chip game takes
    // its own results only; an octal game is no prover game, and the refusal names the commands that
    // take it.
    fails(&["prove", "nim", "--theorem", "bouton"], "--automata");
    fails(
        &["prove", "ET(2)", "--theorem", "bouton"],
        "not about ET(2)",
    );
    fails(
        &["prove", "octal(0.07)", "--theorem", "bouton"],
        "`nimlab patterns",
    );
    fails(&["prove", "CN(7,4)", "--theorem", "no-such"], "no result");
    fails(&["prove", "CN(6,4)", "--theorem", "cn-6-4"], "--bits W");
    fails(&["prove", "CN(5,4)", "--theorem", "cn-7-4"], "CN(7,4)");
    fails(
        &["prove", "CN(7,4)", "--families", &dir.file("missing.toml")],
        "missing.toml",
    );
    let cases = [
        (
            "syntax",
            "game = \"CN(4,2)\"\n[[family]\n",
            "not a families file",
        ),
        (
            "field",
            "game = \"CN(4,2)\"\ncolour = 1\n[[family]]\nname = \"x\"\nrelations = []\n",
            "colour",
        ),
        (
            "letter",
            "game = \"CN(4,2)\"\n[[family]]\nname = \"x\"\nrelations = [\"a = z\"]\n",
            "letter z",
        ),
        (
            "reading",
            "game = \"CN(4,2)\"\nreading = \"some\"\n[[family]]\nname = \"x\"\nrelations = []\n",
            "reading",
        ),
        (
            "xor",
            "game = \"CN(4,2)\"\n[[family]]\nname = \"x\"\nrelations = [\"xor(a, b) = 0\"]\n",
            "xor",
        ),
        (
            "length",
            "game = \"CN(4,2)\"\n[[family]]\nname = \"x\"\nlength = 3\nrelations = []\n",
            "length 3",
        ),
        (
            "game",
            "game = \"CN(5,2)\"\n[[family]]\nname = \"x\"\nrelations = []\n",
            "not CN(4,2)",
        ),
        ("empty", "game = \"CN(4,2)\"\nfamily = []\n", "no family"),
    ];
    for (name, text, needle) in cases {
        let f = dir.write(&format!("{name}.toml"), text);
        fails(&["prove", "CN(4,2)", "--families", &f], needle);
    }
    fails(
        &["prove", "CN(4,2)", "--theorem", "cn-4-2", "--timeout", "0"],
        "--timeout",
    );
    fails(
        &[
            "prove",
            "CN(4,2)",
            "--theorem",
            "cn-4-2",
            "--solver",
            "/nonexistent/z3",
        ],
        "apt-get install z3",
    );
}

#[test]
fn a_timeout_is_unknown_with_status_3() {
    if !have_z3("a_timeout_is_unknown_with_status_3") {
        return;
    }
    // Condition (II) of SCN(8,6) on circles of 8 piles needs several seconds of z3.
    let (code, v) = prove_json(&["SCN(8,6)", "--theorem", "scn-8-6", "--timeout", "1"]);
    assert_eq!(code, 3, "{v}");
    assert_eq!(v["verdict"], "unknown");
    assert_eq!(v["conditions"][1]["status"], "unknown");
    assert!(v["conditions"][1]["counterexample"].is_null());
    assert!(v["seconds"].as_f64().unwrap() < 30.0);
}

/// xor families: proved below 2^W with --bits W (text and JSON say so, never "all"); refused without
/// --bits or with a width out of range, in one line with exit 2.
#[test]
fn xor_families_are_proved_below_2_w() {
    if !have_z3("xor_families_are_proved_below_2_w") {
        return;
    }
    let (code, v) = prove_json(&["CN(6,4)", "--theorem", "cn-6-4", "--bits", "3"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["verdict"], "proved");
    assert_eq!(v["range"], "entries < 2^3");
    assert_eq!(v["bits"], 3);
    let out = nimlab(&["prove", "CN(6,4)", "--theorem", "cn-6-4", "--bits", "2"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("CN(6,4), theorem cn-6-4: proved for entries below 2^2"),
        "{text}"
    );
    fails(&["prove", "CN(6,4)", "--theorem", "cn-6-4"], "--bits");
    fails(
        &["prove", "CN(6,4)", "--theorem", "cn-6-4", "--bits", "0"],
        "1 to 32",
    );
}

/// `--automata`: xor families proved for every size (text and JSON say so, with the method); a
/// wrong variant refuted with a re-checked counterexample; contradictory options refused in one line
/// with exit 2; SCN proved, and circles past the automata's tracks refused. Needs no solver.
#[test]
fn automata_prove_xor_families_for_every_size() {
    let (code, v) = prove_json(&["CN(6,4)", "--theorem", "cn-6-4", "--automata"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["verdict"], "proved");
    assert_eq!(v["range"], "all");
    assert_eq!(v["method"], "automata");
    assert!(v["bits"].is_null());
    let out = nimlab(&["prove", "CN(3,1)", "--theorem", "bouton", "--automata"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("CN(3,1), theorem bouton: proved for every stack size (by automata)"),
        "{text}"
    );
    // Nim's P-set without the positions of stack sum 6: (1,2,3) is P and has no move into the set.
    let dir = TempDir::new("prove-automata");
    let file = dir.write(
        "nim-wrong.toml",
        "game = \"CN(3,1)\"\nreading = \"any\"\n[[family]]\nname = \"w\"\nrelations = [\"xor(a, b, c) = 0\", \"a + b + c != 6\"]\n",
    );
    let f = file.as_str();
    let out = nimlab(&["prove", "CN(3,1)", "--families", f, "--automata", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verdict"], "refuted");
    assert_eq!(v["conditions"][1]["status"], "refuted");
    let p = &v["conditions"][1]["counterexample"]["position"];
    let p: Vec<u64> = serde_json::from_value(p.clone()).unwrap();
    assert_eq!(p.iter().sum::<u64>(), 6, "{v}");
    assert_eq!(p[0] ^ p[1] ^ p[2], 0, "{v}");
    fails(
        &[
            "prove",
            "CN(6,4)",
            "--theorem",
            "cn-6-4",
            "--automata",
            "--bits",
            "3",
        ],
        "--bits",
    );
    // SCN: shrinking circles, proved for every pile size; circles past the automata's tracks refused.
    let (code, v) = prove_json(&["SCN(5,3)", "--theorem", "scn-5-3", "--automata"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["verdict"], "proved");
    assert_eq!(v["method"], "automata");
    let big = dir.write(
        "scn-16.toml",
        "game = \"SCN(16,2)\"\nreading = \"any\"\n[[family]]\nname = \"()\"\nlength = 0\nrelations = []\n",
    );
    fails(
        &[
            "prove",
            "SCN(16,2)",
            "--families",
            big.as_str(),
            "--automata",
        ],
        "at most 15",
    );
}

/// A constant that only a product can write, past what `i128` arithmetic holds exactly (about
/// 2^128): refused in one line with exit 2 by both provers and by `verify`, never wrapped (a wrapped
/// constant once made a false statement "proved").
#[test]
fn constants_past_the_exact_range_are_refused_in_one_line() {
    let dir = TempDir::new("prove-big-constant");
    let file = dir.write(
        "big.toml",
        "game = \"CN(2,1)\"\nreading = \"any\"\n[[family]]\nname = \"w\"\nrelations = [\"a = b\", \"a + 18446744073709551615 * (18446744073709551615) < b\"]\n",
    );
    let f = file.as_str();
    fails(&["prove", "CN(2,1)", "--families", f], "2^100");
    fails(
        &["prove", "CN(2,1)", "--families", f, "--automata"],
        "2^100",
    );
    fails(
        &["verify", "CN(2,1)", "--families", f, "--max", "6"],
        "2^100",
    );
    let nested = dir.write(
        "nested.toml",
        "game = \"CN(2,1)\"\nreading = \"any\"\n[[family]]\nname = \"w\"\nrelations = [\"a = b\", \"4294967296 * (4294967296 * (4294967296 * (4294967296 * a))) >= 0\"]\n",
    );
    fails(
        &[
            "prove",
            "CN(2,1)",
            "--families",
            nested.as_str(),
            "--automata",
        ],
        "2^100",
    );
}

/// Large constants inside the exact range (2^99) are computed exactly: `prove` and `verify` agree on a
/// true statement (always-true bound) and on a false one (an always-false bound empties the set).
#[test]
fn large_representable_constants_agree_between_prove_and_verify() {
    if !have_z3("large_representable_constants_agree_between_prove_and_verify") {
        return;
    }
    let dir = TempDir::new("prove-large-constant");
    for (rel, holds) in [
        ("a + 549755813888 * (1152921504606846976) > b", true),
        ("a + 549755813888 * (1152921504606846976) < b", false),
        ("a - 549755813888 * (1152921504606846976) < b", true),
    ] {
        let file = dir.write(
            "large.toml",
            &format!("game = \"CN(2,1)\"\nreading = \"any\"\n[[family]]\nname = \"w\"\nrelations = [\"a = b\", \"{rel}\"]\n"),
        );
        let f = file.as_str();
        let proved = nimlab(&["prove", "CN(2,1)", "--families", f]);
        let verified = nimlab(&["verify", "CN(2,1)", "--families", f, "--max", "12"]);
        let want = if holds { 0 } else { 1 };
        assert_eq!(proved.status.code(), Some(want), "prove on {rel}");
        assert_eq!(verified.status.code(), Some(want), "verify on {rel}");
    }
}

/// `--automata` stops at `--timeout`: CN(8,6)'s theorem takes tens of seconds, so the answer is
/// unknown and says the time limit was reached (no wall-clock bound is asserted: the test only has to
/// finish).
#[test]
fn automata_respect_the_timeout() {
    let (code, v) = prove_json(&[
        "CN(8,6)",
        "--theorem",
        "cn-8-6",
        "--automata",
        "--timeout",
        "1",
    ]);
    assert_eq!(code, 3, "{v}");
    assert_eq!(v["verdict"], "unknown");
    let reasons: Vec<String> = v["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["reason"].as_str().map(String::from))
        .collect();
    assert!(reasons.iter().any(|r| r.contains("time limit")), "{v}");
}

/// `--misere`: misère Nim (examples/nim-misere-3.toml) proved for every heap size by automata and
/// below 2^4 by the solver, the report saying the play; `verify --misere` agrees on a box; Bouton's
/// normal-play rule under `--misere` is refuted at the terminal position (re-checked).
#[test]
fn misere_nim_is_proved_and_the_normal_rule_refuted() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/nim-misere-3.toml"
    );
    let (code, v) = prove_json(&["CN(3,1)", "--families", file, "--misere", "--automata"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["verdict"], "proved");
    assert_eq!(v["play"], "misere");
    assert_eq!(v["range"], "all");
    let out = nimlab(&[
        "verify",
        "CN(3,1)",
        "--families",
        file,
        "--misere",
        "--max",
        "9",
    ]);
    assert_eq!(out.status.code(), Some(0));
    // Bouton's normal-play rule, as a families file, under --misere.
    let dir = TempDir::new("prove-misere-normal-rule");
    let normal = dir.write(
        "normal.toml",
        "game = \"CN(3,1)\"\nreading = \"any\"\n[[family]]\nname = \"xor 0\"\nrelations = [\"xor(a, b, c) = 0\"]\n",
    );
    let normal = normal.as_str();
    let (code, v) = prove_json(&["CN(3,1)", "--families", normal, "--misere", "--automata"]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["conditions"][2]["status"], "refuted");
    assert_eq!(
        v["conditions"][2]["counterexample"]["position"],
        serde_json::json!([0, 0, 0])
    );
    let out = nimlab(&[
        "prove",
        "CN(3,1)",
        "--families",
        normal,
        "--misere",
        "--automata",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("misère play: refuted"), "{text}");
    assert!(
        text.contains("(0,0,0) is in the set (re-checked)"),
        "{text}"
    );
    // A registry result carries its convention: bouton-misere needs --misere, bouton refuses it.
    let (code, v) = prove_json(&[
        "CN(4,1)",
        "--theorem",
        "bouton-misere",
        "--misere",
        "--automata",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["play"], "misere");
    fails(
        &[
            "prove",
            "CN(3,1)",
            "--theorem",
            "bouton-misere",
            "--automata",
        ],
        "add --misere",
    );
    fails(
        &[
            "prove",
            "CN(3,1)",
            "--theorem",
            "bouton",
            "--misere",
            "--automata",
        ],
        "drop --misere",
    );
    if !have_z3("misere_nim_is_proved_and_the_normal_rule_refuted") {
        return;
    }
    let (code, v) = prove_json(&["CN(3,1)", "--families", file, "--misere", "--bits", "4"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["range"], "entries < 2^4");
    let (code, v) = prove_json(&["CN(3,1)", "--families", normal, "--misere", "--bits", "4"]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(
        v["conditions"][2]["counterexample"]["position"],
        serde_json::json!([0, 0, 0])
    );
}

/// A linear misère P-set, in integer arithmetic: in CN(3,3) a move lowers any stacks, so in misère
/// play P is exactly "one token in all" (checked here by a plain misère search on a box). Both provers
/// prove it for every stack size with `--misere`; "two tokens" is refuted by (II) at a one-token
/// position, which the test's search confirms is P.
#[test]
fn a_linear_misere_set_is_proved_by_both_provers() {
    let hi = 8usize;
    let idx = |p: [usize; 3]| (p[0] * (hi + 1) + p[1]) * (hi + 1) + p[2];
    let mut is_p = vec![false; (hi + 1).pow(3)];
    for a in 0..=hi {
        for b in 0..=hi {
            for c in 0..=hi {
                // Options: every (x, y, z) <= (a, b, c) other than itself (all smaller indices).
                let mut has_move = false;
                let mut to_p = false;
                for x in 0..=a {
                    for y in 0..=b {
                        for z in 0..=c {
                            if (x, y, z) != (a, b, c) {
                                has_move = true;
                                to_p |= is_p[idx([x, y, z])];
                            }
                        }
                    }
                }
                is_p[idx([a, b, c])] = has_move && !to_p;
                assert_eq!(is_p[idx([a, b, c])], a + b + c == 1, "({a},{b},{c})");
            }
        }
    }
    let dir = TempDir::new("prove-misere-linear");
    let one = dir.write(
        "one.toml",
        "game = \"CN(3,3)\"\nreading = \"any\"\n[[family]]\nname = \"one token\"\nrelations = [\"a + b + c = 1\"]\n",
    );
    let two = dir.write(
        "two.toml",
        "game = \"CN(3,3)\"\nreading = \"any\"\n[[family]]\nname = \"two tokens\"\nrelations = [\"a + b + c = 2\"]\n",
    );
    let mut methods = vec![vec!["--automata"]];
    if have_z3("a_linear_misere_set_is_proved_by_both_provers") {
        methods.push(vec![]);
    }
    for extra in methods {
        let mut args = vec!["CN(3,3)", "--families", one.as_str(), "--misere"];
        args.extend(&extra);
        let (code, v) = prove_json(&args);
        assert_eq!(code, 0, "{v}");
        assert_eq!(v["range"], "all");
        let mut args = vec!["CN(3,3)", "--families", two.as_str(), "--misere"];
        args.extend(&extra);
        let (code, v) = prove_json(&args);
        assert_eq!(code, 1, "{v}");
        assert_eq!(v["conditions"][1]["status"], "refuted", "{v}");
        let p: Vec<usize> =
            serde_json::from_value(v["conditions"][1]["counterexample"]["position"].clone())
                .unwrap();
        assert!(is_p[idx([p[0], p[1], p[2]])], "{p:?}");
    }
}

/// Bouton's P-set of Nim on three heaps as a Walnut automaton: one state, the columns of even parity.
#[test]
fn counterexamples_past_2_64_are_exact_or_unknown() {
    if !have_z3("counterexamples_past_2_64_are_exact_or_unknown") {
        return;
    }
    let dir = TempDir::new("prove-past-64");
    // a = b misses (M, M) with M = 2^64 - 1: (M, M + 1) has no move into the set (II).
    let missing = dir.write(
        "missing.toml",
        "game = \"CN(2,1)\"\n[[family]]\nname = \"eq\"\nlength = 2\nrelations = [\"a = b\", \"a != 18446744073709551615\"]\n",
    );
    let (code, v) = prove_json(&["CN(2,1)", "--families", &missing]);
    assert_eq!(code, 3, "{v}");
    let two = &v["conditions"][1];
    assert_eq!(two["status"], "unknown");
    let why = two["reason"].as_str().unwrap();
    assert!(why.contains("2^64 or more"), "{why}");
    // (M, M) and (M, M - 1) are both members: Nim's move between them refutes (I).
    let joined = dir.write(
        "joined.toml",
        "game = \"CN(2,1)\"\n[[family]]\nname = \"eq\"\nlength = 2\nrelations = [\"a = b\"]\n[[family]]\nname = \"one more\"\nlength = 2\nrelations = [\"a = 18446744073709551615\", \"b = 18446744073709551614\"]\n",
    );
    let out = nimlab(&["prove", "CN(2,1)", "--families", &joined, "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    let one = &v["conditions"][0];
    assert_eq!(one["status"], "refuted", "{v}");
    // Exact numbers in the JSON text (not rounded through a float); the file reads a pair either
    // way round, so the move lowers either heap.
    assert!(
        text.contains("\"position\":[18446744073709551615,18446744073709551615]")
            && (text.contains("\"move_to\":[18446744073709551615,18446744073709551614]")
                || text.contains("\"move_to\":[18446744073709551614,18446744073709551615]")),
        "{text}"
    );
}

/// JSON numbers past 2^64 are exact, as the text answer is: the Grundy value 2^64 of a sum.
#[test]
fn json_numbers_past_2_64_are_exact() {
    let out = nimlab(&[
        "outcome",
        "simplicial({1,2},{3})",
        "18446744073709551615,1,0",
        "--json",
        "--no-store",
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    // The facet totals are 2^64 and 0: the Grundy value is 2^64 (Bouton on the facet totals).
    assert!(text.contains("\"grundy\":18446744073709551616"), "{text}");
}

/// Moore's Nim_k on `m` heaps of at most `hi` tokens, by plain search written for this test: a move
/// lowers at least one and at most k heaps; a position is P when no option is P. Indexed by the
/// heaps read as base-(hi+1) digits (every option has a smaller index).
fn moore_p_set(m: usize, k: usize, hi: u64) -> Vec<bool> {
    let base = hi as usize + 1;
    let total = base.pow(m as u32);
    let digits = |mut i: usize| {
        let mut p = vec![0usize; m];
        for d in p.iter_mut().rev() {
            *d = i % base;
            i /= base;
        }
        p
    };
    let mut p_set = vec![false; total];
    for i in 0..total {
        let x = digits(i);
        // Every option: each heap kept or lowered, at least one and at most k lowered.
        let mut to_p = false;
        let mut choice = vec![0usize; m];
        'all: loop {
            let changed = choice.iter().zip(&x).filter(|(c, v)| *c != *v).count();
            if (1..=k).contains(&changed) {
                let j = choice.iter().fold(0, |a, &c| a * base + c);
                to_p |= p_set[j];
            }
            for h in (0..m).rev() {
                if choice[h] < x[h] {
                    choice[h] += 1;
                    choice[h + 1..].fill(0);
                    continue 'all;
                }
            }
            break;
        }
        p_set[i] = !to_p;
    }
    p_set
}

/// `prove` reads the game names `discover` takes: `nim --heaps N` and `moore(k) --heaps N`. What
/// `discover` finds for them is proved again by `prove` under the same name, saved, and the saved
/// characterization answers positions as this test's own search of Moore's Nim says.
#[test]
fn prove_reads_back_what_discover_finds_for_nim_and_moore() {
    if !have_z3("prove_reads_back_what_discover_finds_for_nim_and_moore") {
        return;
    }
    let dir = TempDir::new("prove-discover-moore");
    let db = dir.db();
    for (name, heaps) in [("nim", "3"), ("moore(2)", "4")] {
        let file = dir.file(&format!("{name}-{heaps}.txt"));
        let args = [
            "discover",
            name,
            "--heaps",
            heaps,
            "--no-store",
            "--json",
            "--out",
            &file,
        ];
        let out = nimlab(&args);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let v = parse(args, &String::from_utf8(out.stdout).unwrap());
        assert_eq!(v["verdict"], "proved", "{v}");
        let flag = if v["format"] == "automaton" {
            "--automaton"
        } else {
            "--families"
        };
        let (code, p) = prove_json(&[name, "--heaps", heaps, flag, &file, "--save", "--db", &db]);
        assert_eq!(code, 0, "{p}");
        assert_eq!(p["verdict"], "proved", "{p}");
        assert_eq!(p["range"], "all", "{p}");
        assert_eq!(p["game"], v["game"], "{p}");
        if name == "nim" {
            assert_eq!(p["game"], "CN(3,1)");
            continue;
        }
        // The saved characterization of moore(2) on 4 heaps against the search above.
        let id = p["saved"].as_str().expect("saved").to_string();
        let game = p["game"].as_str().unwrap().to_string();
        let hi = 3;
        let p_set = moore_p_set(4, 2, hi);
        // Each of the two binary places holds 0 or 3 ones: (1 + 4)^2 P-positions.
        assert_eq!(p_set.iter().filter(|&&b| b).count(), 25);
        for (i, &is_p) in p_set.iter().enumerate() {
            if !is_p && i % 13 != 0 {
                continue;
            }
            let pos: Vec<String> = (0..4)
                .rev()
                .map(|d| ((i / 4usize.pow(d)) % 4).to_string())
                .collect();
            let out = without_theory(&db, &["outcome", &game, &pos.join(","), "--json"]);
            let x = parse("outcome", &out);
            assert_eq!(x["method"], id.as_str(), "{x}");
            assert_eq!(x["outcome"], if is_p { "P" } else { "N" }, "{pos:?}: {x}");
        }
    }
    // The theorems by the same names.
    let (code, p) = prove_json(&[
        "moore(2)",
        "--heaps",
        "5",
        "--theorem",
        "moore",
        "--automata",
    ]);
    assert_eq!((code, p["verdict"].as_str()), (0, Some("proved")), "{p}");
    let (code, p) = prove_json(&["nim", "--heaps", "4", "--theorem", "bouton", "--automata"]);
    assert_eq!((code, p["game"].as_str()), (0, Some("CN(4,1)")), "{p}");
    fails(&["prove", "nim", "--theorem", "bouton"], "--heaps");
    fails(
        &["prove", "CN(4,2)", "--heaps", "4", "--theorem", "cn-4-2"],
        "--heaps",
    );
    fails(
        &["prove", "moore(4)", "--heaps", "3", "--theorem", "moore"],
        "--heaps 3",
    );
}

/// `prove nim --theorem bouton --automata` without `--heaps`: Bouton's theorem for every number of
/// heaps, by the induction of docs/findings.md whose lemmas the automata prove (and `bouton-misere`
/// with `--misere`); other uses of `nim` without `--heaps` are refused in one line.
#[test]
fn bouton_is_proved_for_every_number_of_heaps() {
    let (code, v) = prove_json(&["nim", "--theorem", "bouton", "--automata"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        (
            v["verdict"].as_str(),
            v["heaps"].as_str(),
            v["range"].as_str()
        ),
        (Some("proved"), Some("any"), Some("all")),
        "{v}"
    );
    let lemmas = v["lemmas"].as_array().unwrap();
    assert_eq!(lemmas.len(), 4);
    assert!(lemmas.iter().all(|l| l["status"] == "proved"), "{v}");
    // Misère play: bouton-misere, with --misere.
    let (code, v) = prove_json(&[
        "nim",
        "--theorem",
        "bouton-misere",
        "--misere",
        "--automata",
    ]);
    assert_eq!((code, v["verdict"].as_str()), (0, Some("proved")), "{v}");
    assert_eq!(v["play"], "misere");
    assert!(v["lemmas"].as_array().unwrap().len() > 4, "{v}");
    fails(
        &["prove", "nim", "--theorem", "bouton-misere", "--automata"],
        "--misere",
    );
    fails(&["prove", "nim", "--theorem", "bouton"], "--automata");
    fails(
        &[
            "prove",
            "nim",
            "--theorem",
            "bouton",
            "--automata",
            "--misere",
        ],
        "--misere",
    );
    fails(
        &["prove", "nim", "--theorem", "moore", "--automata"],
        "--heaps",
    );
    fails(&["prove", "nim", "--families", "x.toml"], "--heaps");
}
