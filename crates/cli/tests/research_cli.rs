//! `verify`, `patterns` and scripted games through the command line.

mod common;

use common::{fails, json, nimlab, parse, TempDir};
use serde_json::Value;

/// `verify` of the CN(7,4) theorem over a small box.
const VERIFY_CN74: [&str; 6] = ["verify", "CN(7,4)", "--max", "3", "--theorem", "cn-7-4"];

#[test]
fn verify_exit_codes_and_witnesses() {
    let v = json(&[VERIFY_CN74.as_slice(), &["--json"]].concat());
    assert_eq!(v["holds"], true);
    assert_eq!(v["positions"], 4u64.pow(7));

    // A planted false conjecture for CN(5,3): "all stacks equal" (true of CN(5,4), not CN(5,3)).
    let dir = TempDir::new("research-verify");
    let conj = dir.write(
        "equal.rhai",
        "fn is_p(p) {\n  for x in p { if x != p[0] { return false; } }\n  true\n}",
    );
    let out = nimlab(&[
        "verify",
        "CN(5,3)",
        "--max",
        "3",
        "--conjecture",
        &conj,
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let v = parse("verify --conjecture", &String::from_utf8_lossy(&out.stdout));
    assert_eq!(v["holds"], false);
    // No move of CN(5,3) joins two all-equal positions (a window of 3 cannot lower all 5 stacks), so
    // (I) holds and the failures are (II): positions such as (1,1,1,1,0) with no move to equal stacks.
    let ex = v["counterexamples"].as_array().unwrap();
    assert!(!ex.is_empty());
    for c in ex {
        assert_eq!(c["condition"], "II", "{c}");
    }

    let text = String::from_utf8_lossy(
        &nimlab(&["verify", "CN(5,3)", "--max", "3", "--conjecture", &conj]).stdout,
    )
    .to_string();
    assert!(
        text.contains("FAILS") && text.contains("counterexample (II)"),
        "{text}"
    );

    // Wrong theorem for the game, or a misère flag on a normal-play result: one-line errors.
    fails(
        &["verify", "CN(5,3)", "--max", "3", "--theorem", "cn-7-4"],
        "",
    );
    fails(&[VERIFY_CN74.as_slice(), &["--misere"]].concat(), "");
    fails(&["verify", "CN(7,4)", "--max", "3"], "");
}

#[test]
fn patterns_show_the_families_of_cn74() {
    let v = json(&["patterns", "CN(7,4)", "--max", "5", "--json"]);
    let fams = v["families"].as_array().unwrap();
    let total: u64 = fams.iter().map(|f| f["count"].as_u64().unwrap()).sum();
    assert_eq!(total, v["canonical_count"].as_u64().unwrap());
    // S1 of CN(7,4) (0,0,x,d,e,f,x) with d+e+f = x shows up with its two relations.
    let s1 = fams
        .iter()
        .find(|f| f["shape"] == "00M···M")
        .expect("the S1 family");
    let rel: Vec<&str> = s1["relations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert!(
        rel.contains(&"c = g") && rel.contains(&"c = d + e + f"),
        "{rel:?}"
    );
    // The shape family is named after the paper's family it lies in.
    assert_eq!(s1["known"][0]["result"], "cn-7-4", "{s1}");
    assert_eq!(s1["known"][0]["family"], "S1", "{s1}");
    assert_eq!(s1["known"][0]["count"], s1["count"], "{s1}");
    // Theorem 2 of the paper: every P-position lies in S1-S4, so every member of every shape family
    // is named, and all four families appear in a box this size.
    let mut names = std::collections::BTreeSet::new();
    for f in fams {
        let known = f["known"].as_array().unwrap();
        let named: u64 = known.iter().map(|k| k["count"].as_u64().unwrap()).sum();
        assert_eq!(named, f["count"].as_u64().unwrap(), "{f}");
        names.extend(
            known
                .iter()
                .map(|k| k["family"].as_str().unwrap().to_string()),
        );
    }
    assert_eq!(
        names.into_iter().collect::<Vec<_>>(),
        ["S1", "S2", "S3", "S4"]
    );
}

#[test]
fn scripted_games_work_with_every_command() {
    let script = format!("{}/../../examples/cn52.rhai", env!("CARGO_MANIFEST_DIR"));
    for cmd in ["outcome", "grundy"] {
        json(&[cmd, &script, "3,1,4,1,5", "--json"]);
    }
    // Same answers as the built-in CN(5,2).
    let a = json(&["moves", &script, "3,1,4,1,5", "--json"]);
    let b = json(&["moves", "CN(5,2)", "3,1,4,1,5", "--json", "--all"]);
    let mut wa: Vec<Value> = a["winning_moves"].as_array().unwrap().clone();
    let mut wb: Vec<Value> = b["winning_moves"].as_array().unwrap().clone();
    wa.sort_by_key(|x| x.to_string());
    wb.sort_by_key(|x| x.to_string());
    assert_eq!(wa, wb);
    let out = nimlab(&[
        "verify",
        &script,
        "--max",
        "4",
        "--heaps",
        "5",
        "--theorem",
        "cn-5-2",
    ]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "a theorem about CN(5,2) does not cover a script"
    );
    let dir = TempDir::new("research-script");
    let bad = dir.write("bad.rhai", "fn options(p) {\n  loop { }\n}");
    fails(&["outcome", &bad, "3"], "operations");
}

/// `verify --families`: the families file of CN(7,4)'s Theorem 2 holds on a box; the same file without
/// S4 fails with a counterexample to (II), and with `0 < a <= e` in S3 with one to (I).
#[test]
fn verify_families_file() {
    let path = format!("{}/../../examples/cn74.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let v = json(&[
        "verify",
        "CN(7,4)",
        "--max",
        "3",
        "--families",
        &path,
        "--json",
    ]);
    assert_eq!(v["holds"], true, "{v}");
    assert_eq!(v["positions"], 4u64.pow(7));
    assert_eq!(v["source"], format!("families {path}"));

    let dir = TempDir::new("research-verify-families");
    let no_s4 = dir.write(
        "no-s4.toml",
        &text[..text.find("[[family]]\nname = \"S4\"").unwrap()],
    );
    let out = nimlab(&[
        "verify",
        "CN(7,4)",
        "--max",
        "3",
        "--families",
        &no_s4,
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let v = parse("verify --families", &String::from_utf8_lossy(&out.stdout));
    assert_eq!(v["holds"], false);
    let ex = v["counterexamples"].as_array().unwrap();
    assert!(!ex.is_empty());
    assert!(ex.iter().all(|c| c["condition"] == "II"), "{v}");

    let weak_s3 = dir.write("weak-s3.toml", &text.replace("0 < a < e", "0 < a <= e"));
    let out = nimlab(&["verify", "CN(7,4)", "--max", "3", "--families", &weak_s3]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        text.contains("FAILS") && text.contains("counterexample (I)"),
        "{text}"
    );

    // A file for another game, or two claims at once: one-line errors.
    fails(
        &["verify", "CN(5,3)", "--max", "3", "--families", &path],
        "",
    );
    fails(
        &[
            "verify",
            "CN(7,4)",
            "--max",
            "3",
            "--families",
            &path,
            "--theorem",
            "cn-7-4",
        ],
        "",
    );
}
