//! `nimlab prove --emit`: certificates that solvers re-check without nimlab (plain SMT-LIB 2, hashes,
//! check.sh), cross-checks with cvc5, and the chip games' proofs. Tests that need z3 print SKIPPED
//! when it is missing, unless NIMLAB_REQUIRE_Z3=1 (CI).

use super::*;

fn have_cvc5(test: &str) -> bool {
    let found =
        common::which("cvc5").ok_or("cvc5 is not on the PATH (apt-get install cvc5)".to_string());
    nimlab_testkit::tools::need(test, "cvc5", found).is_some()
}

/// `--emit DIR` writes a certificate that is re-checked here without nimlab: every query the
/// manifest lists is run by z3 (and by cvc5 where it is installed) as the bundle's README says, and
/// each prints `unsat`; the manifest records each solver's answer and version.
#[test]
fn emit_writes_a_certificate_that_solvers_recheck() {
    if !have_z3("emit_writes_a_certificate_that_solvers_recheck") {
        return;
    }
    let cvc5 = have_cvc5("emit_writes_a_certificate_that_solvers_recheck");
    let dir = TempDir::new("prove-emit");
    let out_dir = dir.file("certificate");
    let mut args = vec!["SCN(4,2)", "--theorem", "scn-4-2", "--emit", &out_dir];
    if cvc5 {
        args.push("--cross-check");
    }
    let (code, report) = prove_json(&args);
    assert_eq!(code, 0, "{report}");
    let mut names: Vec<String> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".smt2"))
        .collect();
    names.sort();
    // (I) and (II) for circles of 1..4 piles, (III) for the empty circle.
    assert_eq!(names.len(), 9, "{names:?}");
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("certificate/manifest.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(manifest["game"], "SCN(4,2)");
    assert_eq!(manifest["claim"], "P-set");
    assert_eq!(manifest["verdict"], "proved");
    let solvers: Vec<&str> = manifest["solvers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(solvers, if cvc5 { vec!["z3", "cvc5"] } else { vec!["z3"] });
    assert!(manifest["solvers"][0]["version"]
        .as_str()
        .unwrap()
        .contains("Z3"));
    let readme = std::fs::read_to_string(dir.path().join("certificate/README.md")).unwrap();
    assert!(readme.contains("z3 -smt2 FILE") && readme.contains("cvc5 --lang=smt2 FILE"));
    assert!(dir.path().join("certificate/characterization.txt").exists());
    let mut listed = Vec::new();
    for c in manifest["conditions"].as_array().unwrap() {
        for q in c["queries"].as_array().unwrap() {
            assert_eq!(q["expected"], "unsat");
            let answers = q["answers"].as_array().unwrap();
            assert_eq!(answers.len(), solvers.len(), "{q}");
            assert!(answers.iter().all(|a| a["answer"] == "unsat"), "{q}");
            listed.push(q["file"].as_str().unwrap().to_string());
        }
    }
    listed.sort();
    assert_eq!(listed, names);
    for n in &names {
        let path = dir.path().join("certificate").join(n);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("; nimlab prove: SCN(4,2)"), "{n}");
        assert!(text.contains("Satisfiable exactly when") && text.contains("(check-sat)"));
        assert!(text.contains("(set-logic "), "{n}");
        // Each file runs by itself and is unsatisfiable (the theorem holds), with each solver.
        let mut runs = vec![std::process::Command::new("z3")
            .args(["-smt2", path.to_str().unwrap()])
            .output()
            .unwrap()];
        if cvc5 {
            runs.push(
                std::process::Command::new("cvc5")
                    .args(["--lang=smt2", path.to_str().unwrap()])
                    .output()
                    .unwrap(),
            );
        }
        for out in runs {
            assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "unsat", "{n}");
        }
    }
    // The bundle's own re-check, as its README says.
    assert!(readme.contains("sh check.sh"), "{readme}");
    if let Some((code, said)) = check_sh(
        "emit_writes_a_certificate_that_solvers_recheck",
        &dir.path().join("certificate"),
    ) {
        assert_eq!(code, 0, "{said}");
    }
}

/// `sh DIR/check.sh` (with sha256sum, or a visible skip: `nimlab_testkit::tools`): its exit status
/// and output.
fn check_sh(test: &str, dir: &std::path::Path) -> Option<(i32, String)> {
    let found = common::which("sha256sum").ok_or("sha256sum is not on the PATH".to_string());
    nimlab_testkit::tools::need(test, "sha256sum", found)?;
    let out = std::process::Command::new("sh")
        .arg(dir.join("check.sh"))
        .output()
        .unwrap();
    Some((
        out.status.code().unwrap_or(-1),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    ))
}

/// The files a certificate's manifest names (each must exist, with its SHA-256 in the manifest)
/// and the query files of its conditions.
fn manifest_files(dir: &std::path::Path) -> (Vec<String>, Vec<String>) {
    let m: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let mut files = Vec::new();
    for f in m["files"].as_array().unwrap() {
        let name = f["file"].as_str().unwrap().to_string();
        assert!(dir.join(&name).is_file(), "{name} is named but missing");
        assert_eq!(f["sha256"].as_str().unwrap().len(), 64, "{f}");
        files.push(name);
    }
    let queries = m["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["queries"].as_array().unwrap().iter())
        .map(|q| q["file"].as_str().unwrap().to_string())
        .collect();
    (files, queries)
}

/// A chip families file (as `discover --out` writes it) proved with `--emit`, in both plays: the
/// report's (`--json`) query files are exactly the manifest's and the `.smt2` files written (the
/// lemma of (I), `Ia-0.smt2`, among them: the report once named a file that was not written),
/// every file the manifest names exists, every `.smt2` ends with plain `(check-sat)` (z3's tactic
/// only in the `.z3` files), and `check.sh` passes. With cvc5, `--cross-check`: cvc5 is recorded
/// as answering unsat, and it reads every file and answers unsat.
#[test]
fn chip_families_certificates_name_the_files_written() {
    let test = "chip_families_certificates_name_the_files_written";
    if !have_z3(test) {
        return;
    }
    let cvc5 = have_cvc5(test);
    let dir = TempDir::new("prove-chip-families-emit");
    for (game, misere) in [("EJR(4,2)", false), ("ER(4)", true)] {
        let file = dir.file(&format!("{game}.txt"));
        let mut args = vec!["discover", game, "--out", &file];
        if misere {
            args.push("--misere");
        }
        let out = nimlab(&args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let cert = dir.file(&format!("{game}-cert"));
        let mut args = vec![game, "--families", &file, "--emit", &cert];
        if misere {
            args.push("--misere");
        }
        if cvc5 {
            args.push("--cross-check");
        }
        let (code, v) = prove_json(&args);
        assert_eq!((code, v["verdict"].as_str()), (0, Some("proved")), "{v}");
        let reported: Vec<String> = v["conditions"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|c| c["queries"].as_array().unwrap().iter())
            .map(|q| q["file"].as_str().unwrap().to_string())
            .collect();
        assert!(reported.contains(&"Ia-0.smt2".to_string()), "{reported:?}");
        let cert = std::path::Path::new(&cert);
        let (files, queries) = manifest_files(cert);
        assert_eq!(queries, reported);
        let mut written: Vec<String> = std::fs::read_dir(cert)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.ends_with(".smt2"))
            .collect();
        written.sort();
        let mut sorted = reported.clone();
        sorted.sort();
        assert_eq!(written, sorted);
        // Every file written but the manifest is named by it (with its hash).
        for e in std::fs::read_dir(cert).unwrap() {
            let n = e.unwrap().file_name().into_string().unwrap();
            assert!(
                n == "manifest.json" || files.contains(&n),
                "{n} is not named"
            );
        }
        for q in &reported {
            let text = std::fs::read_to_string(cert.join(q)).unwrap();
            assert!(
                text.trim_end().lines().rfind(|l| !l.starts_with(';')) == Some("(check-sat)")
                    && !text
                        .lines()
                        .any(|l| !l.starts_with(';') && l.contains("check-sat-using")),
                "{q}: {text}"
            );
            if cvc5 {
                let out = std::process::Command::new("cvc5")
                    .arg("--lang=smt2")
                    .arg(cert.join(q))
                    .output()
                    .unwrap();
                assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "unsat", "{q}");
                let answers = v["conditions"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .flat_map(|c| c["queries"].as_array().unwrap().iter())
                    .find(|x| x["file"] == q.as_str())
                    .unwrap()["answers"]
                    .clone();
                assert!(
                    answers
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|a| a["solver"] == "cvc5" && a["answer"] == "unsat"),
                    "{answers}"
                );
            }
        }
        // The families file is kept as the characterization.
        assert_eq!(
            std::fs::read_to_string(cert.join("characterization.txt")).unwrap(),
            std::fs::read_to_string(&file).unwrap()
        );
        if let Some((code, said)) = check_sh(test, cert) {
            assert_eq!(code, 0, "{game}: {said}");
        }
    }
}

/// `--solver cvc5` proves with cvc5 (its own options), and a solver that cannot run its options is
/// reported as failing, not as a time-out.
#[test]
fn cvc5_proves_and_a_failing_solver_says_so() {
    let dir = TempDir::new("prove-solvers");
    // A "solver" that refuses its options, as a solver given z3's options once did.
    let fake = dir.write(
        "fakesolver",
        "#!/bin/sh\necho 'unrecognized option' >&2\nexit 1\n",
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let (code, v) = prove_json(&["CN(4,2)", "--theorem", "cn-4-2", "--solver", &fake]);
    assert_eq!(code, 3, "{v}");
    for c in v["conditions"].as_array().unwrap() {
        let why = c["reason"].as_str().unwrap();
        assert!(
            why.contains("ended without an answer") && why.contains("unrecognized option"),
            "{why}"
        );
        assert!(!why.contains("timeout"), "{why}");
    }
    if !have_cvc5("cvc5_proves_and_a_failing_solver_says_so") {
        return;
    }
    let (code, v) = prove_json(&["CN(4,2)", "--theorem", "cn-4-2", "--solver", "cvc5"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["solvers"][0]["name"], "cvc5");
    // A wrong file is refuted through cvc5's counterexample, re-checked as z3's are.
    let wrong = dir.write("wrong.toml", CN42_WRONG);
    let (code, v) = prove_json(&["CN(4,2)", "--families", &wrong, "--solver", "cvc5"]);
    assert_eq!(code, 1, "{v}");
}

#[test]
fn chip_games_are_proved_for_every_box_size() {
    if !have_z3("chip_games_are_proved_for_every_box_size") {
        return;
    }
    let dir = TempDir::new("prove-chips");
    let cert = dir.file("cert");
    let (code, v) = prove_json(&["EABO(3)", "--theorem", "ferguson-eabo", "--emit", &cert]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["game"], "EABO(3)");
    assert_eq!(v["verdict"], "proved");
    assert_eq!(v["range"], "all");
    assert!(v["box_check"]["positions"].as_u64().unwrap() > 100);
    let names: Vec<&str> = v["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["condition"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["I", "II", "III"]);
    for f in [
        "README.md",
        "manifest.json",
        "I-0.smt2",
        "IIa-0.smt2",
        "IIb-1.smt2",
        "III-0.smt2",
    ] {
        assert!(dir.path().join("cert").join(f).exists(), "{f}");
    }
    // Misère play and a partial result (its members are P-positions).
    let (code, v) = prove_json(&["ER(3)", "--theorem", "ferguson-er-misere", "--misere"]);
    assert_eq!((code, v["verdict"].as_str()), (0, Some("proved")), "{v}");
    let (code, v) = prove_json(&["ET(3)", "--theorem", "ferguson-et-odd"]);
    assert_eq!((code, v["claim"].as_str()), (0, Some("subset")), "{v}");
    // A partial N-result: every member moves into the all-odd set.
    let (code, v) = prove_json(&["ET(4)", "--theorem", "ferguson-et-two-even"]);
    assert_eq!((code, v["claim"].as_str()), (0, Some("N-positions")), "{v}");
    let out = nimlab(&["prove", "ET(4)", "--theorem", "ferguson-et-two-even"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("every member is an N-position"), "{text}");
    // Binary digits: in bit-vectors, for boxes below 2^W.
    let (code, v) = prove_json(&["ET(3)", "--theorem", "ferguson-et-k3", "--bits", "6"]);
    assert_eq!(
        (code, v["range"].as_str()),
        (0, Some("entries < 2^6")),
        "{v}"
    );
    // One-line refusals.
    fails(
        &["prove", "EABO(3)", "--theorem", "ferguson-eabo-misere"],
        "add --misere",
    );
    fails(
        &[
            "prove",
            "EABO(3)",
            "--theorem",
            "ferguson-eabo",
            "--bits",
            "4",
        ],
        "proved without it",
    );
    fails(
        &["prove", "ET(3)", "--theorem", "ferguson-et-k3"],
        "binary digits",
    );
    fails(
        &["prove", "ER(3)", "--theorem", "ferguson-eabo"],
        "not about ER(3)",
    );
    // A chip game's --families is a chip families file (which must exist).
    fails(
        &["prove", "EABO(3)", "--families", &dir.file("x.toml")],
        "x.toml",
    );
    fails(
        &[
            "prove",
            "EABO(3)",
            "--theorem",
            "ferguson-eabo",
            "--automata",
        ],
        "--automata",
    );
}

/// The chip results that read binary digits, proved for every box size by automata (no solver):
/// JSON with the method and the automata's states, the text report, and one-line refusals.
#[test]
fn binary_chip_results_are_proved_by_automata() {
    for args in [
        &["ET(3)", "--theorem", "ferguson-et-k3"][..],
        &["ET(4)", "--theorem", "ferguson-et-k4"],
        &["ENTROPY(3)", "--theorem", "ferguson-entropy-k3"],
        &[
            "ENTROPY(3)",
            "--theorem",
            "ferguson-entropy-k3-misere",
            "--misere",
        ],
    ] {
        let mut all = args.to_vec();
        all.push("--automata");
        let (code, v) = prove_json(&all);
        assert_eq!((code, v["verdict"].as_str()), (0, Some("proved")), "{v}");
        assert_eq!(v["method"], "automata", "{v}");
        assert_eq!(v["range"], "all", "{v}");
        assert!(v["states"]["set"].as_u64().unwrap() > 0, "{v}");
    }
    let out = nimlab(&[
        "prove",
        "ET(4)",
        "--theorem",
        "ferguson-et-k4",
        "--automata",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("proved for every box size (by automata)")
            && text.contains("automata (states): set "),
        "{text}"
    );
    fails(
        &[
            "prove",
            "ENTROPY(3)",
            "--theorem",
            "ferguson-entropy-k3-misere",
            "--automata",
        ],
        "add --misere",
    );
    // ET's partial results: a set inside the P-set, and a set of N-positions.
    let (code, v) = prove_json(&["ET(4)", "--theorem", "ferguson-et-odd", "--automata"]);
    assert_eq!((code, v["claim"].as_str()), (0, Some("subset")), "{v}");
    let (code, v) = prove_json(&["ET(4)", "--theorem", "ferguson-et-two-even", "--automata"]);
    assert_eq!((code, v["claim"].as_str()), (0, Some("N-positions")), "{v}");
    assert_eq!(v["method"], "automata", "{v}");
    fails(
        &["prove", "ER(3)", "--theorem", "ferguson-er", "--automata"],
        "without it",
    );
    // --emit: the set automaton in Walnut's format, the manifest and a README.
    let dir = TempDir::new("prove-chips-automata");
    let cert = dir.file("cert");
    let (code, _) = prove_json(&[
        "ENTROPY(3)",
        "--theorem",
        "ferguson-entropy-k3",
        "--automata",
        "--emit",
        &cert,
    ]);
    assert_eq!(code, 0);
    let set = std::fs::read_to_string(dir.path().join("cert").join("set.txt")).unwrap();
    assert!(set.starts_with("msd_2 msd_2 msd_2"), "{set}");
    for f in ["manifest.json", "README.md", "check.sh"] {
        assert!(dir.path().join("cert").join(f).exists(), "{f}");
    }
    let (files, queries) = manifest_files(&dir.path().join("cert"));
    assert!(
        files.contains(&"set.txt".to_string()) && queries.is_empty(),
        "{files:?}"
    );
    if let Some((code, said)) = check_sh(
        "binary_chip_results_are_proved_by_automata",
        &dir.path().join("cert"),
    ) {
        assert_eq!(code, 0, "{said}");
    }
}
