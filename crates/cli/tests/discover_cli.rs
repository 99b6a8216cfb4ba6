//! `nimlab discover`: exit statuses, the JSON object, the families file (which `prove` proves again),
//! one-line errors. Tests that need z3 print SKIPPED on stderr when it is missing, unless
//! NIMLAB_REQUIRE_Z3=1 (CI), which makes them fail.

mod common;

use common::{cmd, fails, json, nimlab, parse, position_set, TempDir};

fn have_z3(test: &str) -> bool {
    let found = common::which("z3").ok_or("z3 is not on the PATH (apt-get install z3)".to_string());
    nimlab_testkit::tools::need(test, "z3", found).is_some()
}

#[test]
fn discover_writes_a_file_that_prove_proves() {
    if !have_z3("discover_writes_a_file_that_prove_proves") {
        return;
    }
    let dir = TempDir::new("discover-cn42");
    let file = dir.file("cn42.toml");
    let args = [
        "discover",
        "CN(4,2)",
        "--no-store",
        "--json",
        "--out",
        &file,
    ];
    let out = nimlab(&args);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v = parse(args, &String::from_utf8(out.stdout).unwrap());
    assert_eq!(v["game"], "CN(4,2)");
    assert_eq!(v["verdict"], "proved");
    assert_eq!(v["format"], "families");
    assert_eq!(v["prover"], "smt");
    assert_eq!(v["file"], file.as_str());
    assert!(v["box"]["max"].as_u64().unwrap() >= 2);
    assert!(v["seconds"].is_number());
    let again = nimlab(&["prove", "CN(4,2)", "--families", &file]);
    assert_eq!(again.status.code(), Some(0), "{again:?}");
}

#[test]
fn discover_is_honest_on_a_small_box() {
    if !have_z3("discover_is_honest_on_a_small_box") {
        return;
    }
    let args = ["discover", "CN(7,4)", "--max", "3", "--no-store", "--json"];
    let out = nimlab(&args);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let v = parse(args, &String::from_utf8(out.stdout).unwrap());
    assert_eq!(v["verdict"], "conjecture");
    assert!(v["counterexample"]["position"].is_array(), "{v}");
}

#[test]
fn discover_refuses_bad_input_in_one_line() {
    fails(
        &["discover", "ET(2)"],
        "verify with --theorem ID checks a registry result",
    );
    fails(&["discover", "CN(4,2)", "--max", "1"], "--max 1");
    fails(&["discover", "CN(4,2)", "--heaps", "3"], "--heaps");
    fails(&["discover", "nim"], "--heaps");
    fails(&["discover", "CN(4,2)", "--timeout", "0"], "--timeout");
}

/// A proved discovery goes to the store (`"saved": "proved:ID"`), and the analysis chain then answers
/// positions of any size from it: with the registry switched off (`NIMLAB_THEORY=off`) the outcome of
/// a Nim position near 2^64 is decided by the characterization, and agrees with Bouton's xor rule
/// computed here; the winning move it gives makes the xor 0.
#[test]
fn a_proved_discovery_answers_from_the_store() {
    if !have_z3("a_proved_discovery_answers_from_the_store") {
        return;
    }
    let dir = TempDir::new("discover-save");
    let db = dir.db();
    let out = nimlab(&["discover", "CN(3,1)", "--db", &db, "--json"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v = parse(["discover"], &String::from_utf8(out.stdout).unwrap());
    assert_eq!(v["format"], "automaton");
    let saved = v["saved"].as_str().expect("saved").to_string();
    assert!(saved.starts_with("proved:"), "{v}");
    let heaps: [u64; 3] = [u64::MAX - 6, (1 << 63) + 12345, 987654321987];
    let pos = heaps.map(|h| h.to_string()).join(",");
    let ask = |cmd: &str| {
        common::cmd()
            .args([cmd, "CN(3,1)", &pos, "--db", &db, "--json"])
            .env("NIMLAB_THEORY", "off")
            .output()
            .unwrap()
    };
    let o = ask("outcome");
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let v = parse(["outcome"], &String::from_utf8(o.stdout).unwrap());
    let xor = heaps[0] ^ heaps[1] ^ heaps[2];
    assert_eq!(v["outcome"], if xor == 0 { "P" } else { "N" }, "{v}");
    assert_eq!(v["method"], saved.as_str(), "{v}");
    let m = ask("moves");
    let v = parse(["moves"], &String::from_utf8(m.stdout).unwrap());
    let to: Vec<u64> = v["winning_moves"][0]
        .as_array()
        .expect("a winning move")
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(to[0] ^ to[1] ^ to[2], 0, "{v}");
    assert_eq!(to.iter().zip(&heaps).filter(|(a, b)| a != b).count(), 1);
}

/// SCN's automaton route through the CLI: SCN(3,1) (Nim on every circle, no linear description) is
/// proved with one automaton per circle length, written in the SCN file format that `prove
/// --automaton` proves again, saved, and the store answers a circle of huge piles from it.
#[test]
fn scn_automata_are_discovered_saved_and_proved_again() {
    if !have_z3("scn_automata_are_discovered_saved_and_proved_again") {
        return;
    }
    let dir = TempDir::new("discover-scn");
    let db = dir.db();
    let file = dir.file("scn31.txt");
    let out = nimlab(&[
        "discover", "SCN(3,1)", "--max", "15", "--out", &file, "--db", &db, "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v = parse(["discover"], &String::from_utf8(out.stdout).unwrap());
    assert_eq!(
        (v["verdict"].as_str(), v["format"].as_str()),
        (Some("proved"), Some("automaton")),
        "{v}"
    );
    assert_eq!(v["lengths"].as_array().map(|l| l.len()), Some(3), "{v}");
    let saved = v["saved"].as_str().expect("saved").to_string();
    let again = nimlab(&["prove", "SCN(3,1)", "--automaton", &file, "--json"]);
    assert_eq!(again.status.code(), Some(0), "{again:?}");
    let (a, b) = (u64::MAX - 6, (1u64 << 63) + 12345);
    let pos = format!("{a},{b},{}", a ^ b);
    let o = common::cmd()
        .args(["outcome", "SCN(3,1)", &pos, "--db", &db, "--json"])
        .env("NIMLAB_THEORY", "off")
        .output()
        .unwrap();
    let v = parse(["outcome"], &String::from_utf8(o.stdout).unwrap());
    assert_eq!(
        (v["outcome"].as_str(), v["method"].as_str()),
        (Some("P"), Some(saved.as_str())),
        "{v}"
    );
}

/// A learned automaton that reads as a rule says it: Moore's Nim_2 on 4 heaps (as a complex) has
/// "column sums divisible by 3", which is checked here against the table position by position; the
/// same rule is printed by `prove --automaton` and by `explain` for a position the stored
/// characterization decides.
#[test]
fn learned_automata_are_read_as_rules() {
    let dir = TempDir::new("discover-rule");
    let db = dir.db();
    let file = dir.file("moore.walnut");
    let game = "simplicial({1,2},{1,3},{1,4},{2,3},{2,4},{3,4})";
    let v = json(&[
        "discover", "moore(2)", "--heaps", "4", "--db", &db, "--out", &file, "--json",
    ]);
    assert_eq!(v["verdict"], "proved", "{v}");
    let rule = v["rule"].as_str().unwrap();
    assert!(rule.contains("multiple of 3"), "{rule}");
    // The rule against the table of [0..7]^4, every ordered position.
    let t = json(&[
        "table",
        "moore(2)",
        "--heaps",
        "4",
        "--max",
        "7",
        "--ordered",
        "--json",
        "--no-store",
    ]);
    let got = position_set(&t);
    let mut want = std::collections::BTreeSet::new();
    for i in 0..8u64.pow(4) {
        let p: Vec<u64> = (0..4).map(|j| i / 8u64.pow(j) % 8).collect();
        if (0..3).all(|b| p.iter().filter(|&&x| x >> b & 1 == 1).count() % 3 == 0) {
            want.insert(p);
        }
    }
    assert_eq!(got, want);
    let proved = json(&["prove", game, "--automaton", &file, "--json", "--no-store"]);
    assert_eq!(proved["rule"], rule, "{proved}");
    // explain, with the registry off so that the stored characterization decides.
    let out = cmd()
        .args(["explain", game, "100000,200000,300000,7", "--db", &db])
        .env("NIMLAB_THEORY", "off")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("characterization"), "{text}");
    assert!(text.contains("multiple of 3"), "{text}");
}
