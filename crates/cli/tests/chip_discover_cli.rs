//! `discover` and `prove --families` on the redistribution chip games through the command line:
//! the chip families file round trip, wrong variants refuted with counterexamples re-checked by an
//! independent brute force, and the one-line refusals.

mod common;

#[path = "../../discover/tests/common/chip_brute.rs"]
mod chip_brute;

use chip_brute::{p_positions, sorted_positions, Rules, T};
use common::{fails, nimlab, parse, TempDir};
use serde_json::Value;

fn have_z3() -> bool {
    let found = common::which("z3").is_some();
    if !found {
        eprintln!("skipped: z3 is not on the PATH");
    }
    found
}

fn positions(v: &Value) -> Vec<u64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}

/// `prove GAME --families FILE --json` (exit 0 proved, 1 refuted).
fn prove(game: &str, file: &str, misere: bool) -> Value {
    let mut args = vec!["prove", game, "--families", file, "--json"];
    if misere {
        args.push("--misere");
    }
    let out = nimlab(&args);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let v = parse(&args, &text);
    let want = if v["verdict"] == "proved" { 0 } else { 1 };
    assert_eq!(out.status.code(), Some(want), "{args:?}: {text}");
    v
}

/// The refutation of the wrong description `t` re-checked with the brute force: the counterexample
/// shows that the set `t` gives is not the P-set.
fn recheck_refutation(
    v: &Value,
    rules: &Rules,
    t: &T,
    truth: &std::collections::HashMap<Vec<u64>, bool>,
) {
    assert_eq!(v["verdict"], "refuted", "{v}");
    let c = v["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["status"] == "refuted")
        .unwrap();
    let cx = &c["counterexample"];
    let x = positions(&cx["position"]);
    let member = |p: &[u64]| t.member(rules, p);
    let options = rules.options(&x);
    match c["condition"].as_str().unwrap() {
        "I" => {
            let y = positions(&cx["move_to"]);
            assert!(member(&x) && member(&y), "{x:?} -> {y:?}");
            assert!(options.contains(&y), "{y:?} is not an option of {x:?}");
        }
        "II" => {
            assert!(!member(&x) && !options.is_empty(), "{x:?}");
            assert!(
                options.iter().all(|o| !member(o)),
                "{x:?} has an option in the set"
            );
        }
        "III" => {
            assert!(options.is_empty(), "{x:?} is not terminal");
            assert_eq!(member(&x), rules.misere, "{x:?}");
        }
        "search" => assert_ne!(member(&x), truth[&x], "{x:?}"),
        other => panic!("condition {other}"),
    }
    // And the brute force finds the set wrong on a box.
    assert!(
        truth.iter().any(|(p, &is_p)| member(p) != is_p),
        "{t:?} agrees on the box"
    );
}

#[test]
fn discover_out_then_prove_families_and_wrong_variants_refuted() {
    if !have_z3() {
        return;
    }
    let dir = TempDir::new("chip-discover");
    let rules = Rules::ejr(4, 2);
    let truth = p_positions(&rules, 30);
    let f = dir.file("ejr42.txt");
    let out = nimlab(&["discover", "EJR(4,2)", "--out", &f, "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let d = parse("discover", &String::from_utf8_lossy(&out.stdout));
    assert_eq!(d["verdict"], "proved");
    assert_eq!(d["file"], f.as_str());
    let text = std::fs::read_to_string(&f).unwrap();
    let num = |key: &str| -> Vec<u64> {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("{key} =")))
            .unwrap();
        line.split('=')
            .nth(1)
            .unwrap()
            .split_whitespace()
            .map(|x| x.parse().unwrap())
            .collect()
    };
    let t = T {
        threshold: num("threshold")[0],
        period: num("period")[0],
        residues: num("residues"),
        exceptions: num("exceptions"),
    };
    // The file is the P-set of the brute force.
    for (x, &is_p) in &truth {
        assert_eq!(t.member(&rules, x), is_p, "{x:?}");
    }
    assert_eq!(prove("EJR(4,2)", &f, false)["verdict"], "proved");
    // Wrong variants: a residue removed, a residue added, the threshold one higher (its total
    // leaves T) — each refuted with a re-checked counterexample.
    let mut variants = Vec::new();
    let mut fewer = t.clone();
    fewer.residues.pop();
    variants.push(fewer);
    let mut more = t.clone();
    if let Some(r) = (0..t.period).find(|r| !t.residues.contains(r)) {
        more.residues.push(r);
        more.residues.sort_unstable();
        variants.push(more);
    }
    let mut late = t.clone();
    late.threshold += 1;
    late.exceptions.retain(|&e| e < t.threshold);
    variants.push(late);
    for (i, w) in variants.iter().enumerate() {
        let path = dir.write(&format!("wrong{i}.txt"), &w.file("EJR(4,2)", false));
        let v = prove("EJR(4,2)", &path, false);
        recheck_refutation(&v, &rules, w, &truth);
    }
}

#[test]
fn misere_round_trip_and_a_wrong_misere_variant() {
    if !have_z3() {
        return;
    }
    let dir = TempDir::new("chip-discover-misere");
    let rules = Rules::eabo(3).misere();
    let truth = p_positions(&rules, 40);
    let f = dir.file("eabo3m.txt");
    let out = nimlab(&["discover", "EABO(3)", "--misere", "--out", &f]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        said.contains("proved for every box size") && said.contains("T = "),
        "{said}"
    );
    assert_eq!(prove("EABO(3)", &f, true)["verdict"], "proved");
    // The file is about misère play: without --misere it is refused.
    fails(&["prove", "EABO(3)", "--families", &f], "add --misere");
    // T empty: only the non-terminal positions, all of them, claimed P.
    let w = T {
        threshold: 3,
        period: 1,
        residues: vec![],
        exceptions: vec![],
    };
    let path = dir.write("wrong.txt", &w.file("EABO(3)", true));
    recheck_refutation(&prove("EABO(3)", &path, true), &rules, &w, &truth);
    assert!(sorted_positions(3, 6).len() > 1);
}

#[test]
fn refusals_are_one_line() {
    let dir = TempDir::new("chip-discover-refusals");
    fails(&["discover", "ET(4)"], "patterns");
    fails(&["discover", "ENTROPY(4)"], "patterns");
    fails(&["discover", "ER(3)", "--max", "9"], "--max-sum");
    fails(&["discover", "ER(3)", "--heaps", "3"], "--max-sum");
    fails(&["discover", "CN(4,2)", "--max-sum", "9"], "--max H");
    fails(
        &["discover", "EJR(6,2)", "--max-sum", "100000"],
        "smaller --max-sum",
    );
    fails(&["discover", "ER(13)"], "at most 12 boxes");
    fails(
        &["discover", "ER(3)", "--max-sum", "18446744073709551615"],
        "smaller --max-sum",
    );
    let good =
        "game = EJR(4,2)\nplay = normal\nthreshold = 4\nperiod = 4\nresidues = 0 1\nexceptions =\n";
    let big = dir.write(
        "big.txt",
        &good.replace("period = 4", "period = 18446744073709551616"),
    );
    fails(&["prove", "EJR(4,2)", "--families", &big], "line 4");
    let junk = dir.write(
        "junk.txt",
        &good.replace("residues = 0 1", "residues = 0 x"),
    );
    fails(&["prove", "EJR(4,2)", "--families", &junk], "line 5");
    let unknown = dir.write("unknown.txt", &format!("{good}colour = red\n"));
    fails(&["prove", "EJR(4,2)", "--families", &unknown], "line 7");
    let missing = dir.write("missing.txt", &good.replace("period = 4\n", ""));
    fails(&["prove", "EJR(4,2)", "--families", &missing], "period");
    let ok = dir.write("ok.txt", good);
    fails(&["prove", "ER(4)", "--families", &ok], "not ER(4)");
    let res = dir.write("res.txt", &good.replace("residues = 0 1", "residues = 0 4"));
    fails(&["prove", "EJR(4,2)", "--families", &res], "residue 4");
    let huge = dir.write(
        "huge.txt",
        &good.replace("period = 4", "period = 1000000000000"),
    );
    fails(&["prove", "EJR(4,2)", "--families", &huge], "at most");
    fails(
        &["prove", "ET(3)", "--families", &ok],
        "EABO, ER, SER and EJR",
    );
}

/// ET(3) and ENTROPY(3): discover learns the P-set as an automaton on a box of entries and proves it
/// by automata (no solver); the file is Walnut's format; the box flags of the other chip games and
/// misère play are refused in one line.
#[test]
fn et3_is_discovered_by_automata() {
    let dir = TempDir::new("et3-automaton");
    let file = dir.path().join("et3.txt");
    let f = file.to_str().unwrap();
    let out = nimlab(&["discover", "ET(3)", "--max", "63", "--out", f]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("ET(3): proved for every box size") && text.contains("[1..63]^3"),
        "{text}"
    );
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .starts_with("msd_2 msd_2 msd_2"));
    let v = parse(
        "discover ENTROPY(3)",
        &String::from_utf8_lossy(
            &nimlab(&["discover", "ENTROPY(3)", "--max", "63", "--json"]).stdout,
        ),
    );
    assert_eq!(v["verdict"], "proved", "{v}");
    assert_eq!(v["prover"], "automata", "{v}");
    fails(&["discover", "ET(3)", "--max-sum", "40"], "--max H");
    fails(&["discover", "ENTROPY(3)", "--misere"], "normal play only");
    fails(&["discover", "ET(5)"], "ET(3) and ENTROPY(3)");
}
