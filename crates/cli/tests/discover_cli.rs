//! `nimlab discover`: exit statuses, the JSON object, the families file (which `prove` proves again),
//! one-line errors. Tests that need z3 print SKIPPED on stderr when it is missing, unless
//! NIMLAB_REQUIRE_Z3=1 (CI), which makes them fail.

mod common;

use common::{fails, nimlab, parse, TempDir};

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
    fails(&["discover", "ET(2)"], "prove knows");
    fails(&["discover", "CN(4,2)", "--max", "1"], "--max 1");
    fails(&["discover", "CN(4,2)", "--heaps", "3"], "--heaps");
    fails(&["discover", "nim"], "--heaps");
    fails(&["discover", "CN(4,2)", "--timeout", "0"], "--timeout");
}
