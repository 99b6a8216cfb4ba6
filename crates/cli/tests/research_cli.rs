//! `verify`, `patterns` and scripted games through the command line.

use serde_json::Value;
use std::process::{Command, Output};

fn nimlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nimlab"))
        .args(args)
        .output()
        .expect("run nimlab")
}

fn write(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("nimlab-cli-research-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().to_string()
}

#[test]
fn verify_exit_codes_and_witnesses() {
    let out = nimlab(&[
        "verify",
        "CN(7,4)",
        "--max",
        "3",
        "--theorem",
        "cn-7-4",
        "--json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["holds"], true);
    assert_eq!(v["positions"], 4u64.pow(7));

    // A planted false conjecture for CN(5,3): "all stacks equal" (true of CN(5,4), not CN(5,3)).
    let conj = write(
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
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
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
    let out = nimlab(&["verify", "CN(5,3)", "--max", "3", "--theorem", "cn-7-4"]);
    assert_eq!(out.status.code(), Some(2));
    let out = nimlab(&[
        "verify",
        "CN(7,4)",
        "--max",
        "3",
        "--theorem",
        "cn-7-4",
        "--misere",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let out = nimlab(&["verify", "CN(7,4)", "--max", "3"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn patterns_show_the_families_of_cn74() {
    let out = nimlab(&["patterns", "CN(7,4)", "--max", "5", "--json"]);
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
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
}

#[test]
fn scripted_games_work_with_every_command() {
    let script = format!("{}/../../examples/cn52.rhai", env!("CARGO_MANIFEST_DIR"));
    for args in [
        vec!["outcome", script.as_str(), "3,1,4,1,5", "--json"],
        vec!["moves", script.as_str(), "3,1,4,1,5", "--json"],
        vec!["grundy", script.as_str(), "3,1,4,1,5", "--json"],
    ] {
        let out = nimlab(&args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // Same answers as the built-in CN(5,2).
    let a: Value =
        serde_json::from_slice(&nimlab(&["moves", &script, "3,1,4,1,5", "--json"]).stdout).unwrap();
    let b: Value = serde_json::from_slice(
        &nimlab(&["moves", "CN(5,2)", "3,1,4,1,5", "--json", "--all"]).stdout,
    )
    .unwrap();
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
    let bad = write("bad.rhai", "fn options(p) {\n  loop { }\n}");
    let out = nimlab(&["outcome", &bad, "3"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("operations") && err.lines().count() == 1,
        "{err}"
    );
}
