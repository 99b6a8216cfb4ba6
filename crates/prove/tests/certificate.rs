//! Proof certificates (`--emit`) from the one writer: for chip proofs (a registry result and a
//! chip families file, in both plays) and box proofs, every emitted `.smt2` file is plain SMT-LIB 2
//! that z3 and cvc5 both read and answer `unsat`; the manifest names exactly the files written,
//! with their SHA-256, and exactly the query files of the report; `check.sh` passes on the
//! certificate, and fails, naming the file, when a query is changed, a file is missing, or a
//! recorded answer is flipped. z3, cvc5 and sha256sum follow `nimlab_testkit::tools`
//! (`NIMLAB_REQUIRE_Z3=1`, `NIMLAB_REQUIRE_CVC5=1`, `NIMLAB_REQUIRE_SHA256SUM=1`).

mod common;

use nimlab_core::Play;
use nimlab_prove::certificate::chips::{named_queries, of_chips};
use nimlab_prove::certificate::{self, is_plain, z3_name, Characterization};
use nimlab_prove::chips::totals::{claim, Totals};
use nimlab_prove::chips::{from_registry, prove_chips, ChipClaim};
use nimlab_prove::{from_theorem, Claim, Condition, Prover, Report, Ruleset, SmtSolver, Status};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// A folder removed when dropped.
struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let p = std::env::temp_dir().join(format!("nimlab-cert-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        Dir(p)
    }
    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn found(name: &str) -> Result<PathBuf, String> {
    nimlab_testkit::tools::which(name).ok_or(format!("{name} is not on the PATH"))
}

/// z3 (required for these tests, or a visible skip) and cvc5 when it is there (or required).
fn solvers(test: &str) -> Option<(Vec<SmtSolver>, bool)> {
    let z3 = common::solver(test)?;
    let cvc5 = nimlab_testkit::tools::need(test, "cvc5", found("cvc5")).is_some();
    let mut all = vec![z3];
    if cvc5 {
        all.push(SmtSolver::new("cvc5", Duration::from_secs(120)));
    }
    Some((all, cvc5))
}

fn manifest(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap()
}

/// What `solver` prints for `file` (trimmed).
fn answer(solver: &str, file: &Path) -> String {
    let args: &[&str] = if solver == "z3" {
        &["-smt2"]
    } else {
        &["--lang=smt2"]
    };
    let out = Command::new(solver).args(args).arg(file).output().unwrap();
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// The query files of a report, in order.
fn report_files(r: &Report) -> Vec<String> {
    r.conditions
        .iter()
        .flat_map(|c| c.queries.iter().map(|q| q.file.clone()))
        .collect()
}

/// Every check of a written certificate of the proved report `r`: the files the manifest names
/// exist with their hashes, nothing else was written, its queries are the report's, every `.smt2`
/// is plain SMT-LIB 2 answered unsat by z3 (and cvc5), each z3-only file by z3.
fn check_written(dir: &Path, written: &[PathBuf], r: &Report, cvc5: bool) {
    assert_eq!(r.verdict, Status::Proved, "{}", r.to_json());
    let m = manifest(dir);
    assert_eq!(m["verdict"], "proved");
    let mut named = Vec::new();
    for f in m["files"].as_array().unwrap() {
        let name = f["file"].as_str().unwrap();
        let text = std::fs::read_to_string(dir.join(name))
            .unwrap_or_else(|e| panic!("{name}, named by the manifest: {e}"));
        assert_eq!(f["sha256"], certificate::sha256(&text), "{name}");
        named.push(name.to_string());
    }
    // Exactly the files written, the manifest last.
    let mut on_disk: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n != "manifest.json")
        .collect();
    on_disk.sort();
    let mut sorted = named.clone();
    sorted.sort();
    assert_eq!(sorted, on_disk);
    assert_eq!(written.len(), named.len() + 1);
    assert!(written.last().unwrap().ends_with("manifest.json"));
    // The queries: the report's, in order, each file among those named, the z3-only ones too.
    let mut queries = Vec::new();
    for c in m["conditions"].as_array().unwrap() {
        for q in c["queries"].as_array().unwrap() {
            let file = q["file"].as_str().unwrap();
            assert!(named.iter().any(|n| n == file), "{file}");
            if let Some(z) = q["z3_file"].as_str() {
                assert_eq!(z, z3_name(file));
                assert!(named.iter().any(|n| n == z), "{z}");
                assert_eq!(answer("z3", &dir.join(z)), "unsat", "{z}");
            }
            assert_eq!(q["answer"], "unsat", "{q}");
            assert_eq!(q["answers"].as_array().unwrap().len(), r.solvers.len());
            queries.push(file.to_string());
        }
    }
    assert_eq!(queries, report_files(r));
    let smt2: Vec<&String> = named.iter().filter(|n| n.ends_with(".smt2")).collect();
    assert_eq!(smt2.len(), queries.len(), "{named:?}");
    for f in smt2 {
        let text = std::fs::read_to_string(dir.join(f)).unwrap();
        assert!(is_plain(&text), "{f} is not plain SMT-LIB 2:\n{text}");
        assert!(text.contains("(set-logic "), "{f}");
        assert_eq!(answer("z3", &dir.join(f)), "unsat", "z3 on {f}");
        if cvc5 {
            assert_eq!(answer("cvc5", &dir.join(f)), "unsat", "cvc5 on {f}");
        }
    }
}

/// `sh check.sh` in `dir`: its exit status and what it printed.
fn check_sh(dir: &Path) -> (i32, String) {
    let out = Command::new("sh")
        .arg(dir.join("check.sh"))
        .env("CHECK_TIMEOUT", "120")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

fn have_sha256sum(test: &str) -> bool {
    nimlab_testkit::tools::need(test, "sha256sum", found("sha256sum")).is_some()
}

/// The chip claim of a chip families file's T.
fn families(game: &str, play: Play, t: Totals) -> ChipClaim {
    claim(game, play, &t, format!("chip families file of {game}")).unwrap()
}

fn ejr42() -> ChipClaim {
    families(
        "EJR(4,2)",
        Play::Normal,
        Totals {
            threshold: 4,
            period: 4,
            residues: vec![0, 1],
            exceptions: vec![],
        },
    )
}

fn er4_misere() -> ChipClaim {
    families(
        "ER(4)",
        Play::Misere,
        Totals {
            threshold: 7,
            period: 4,
            residues: vec![0, 2, 3],
            exceptions: vec![5],
        },
    )
}

/// The chip proofs: registry results and chip families files, both plays.
#[test]
fn chip_certificates_are_plain_smtlib_answered_unsat_by_each_solver() {
    let test = "chip_certificates_are_plain_smtlib_answered_unsat_by_each_solver";
    let Some((solvers, cvc5)) = solvers(test) else {
        return;
    };
    let claims = [
        ("eabo", from_registry("ferguson-eabo", "EABO(3)").unwrap()),
        (
            "er-misere",
            from_registry("ferguson-er-misere", "ER(3)").unwrap(),
        ),
        ("ejr42", ejr42()),
        ("er4-misere", er4_misere()),
    ];
    for (name, c) in &claims {
        let r = prove_chips(c, &solvers).unwrap();
        let dir = Dir::new(name);
        let written = of_chips(c, Some(&r), None)
            .unwrap()
            .write(dir.path())
            .unwrap();
        check_written(dir.path(), &written, &r, cvc5);
        // The report names its query files as the certificate does: with the lemma of (I) first
        // for a set read from its totals.
        let files = report_files(&r);
        if c.totals.is_some() {
            assert_eq!(files[0], "Ia-0.smt2", "{files:?}");
        }
        for cond in [Condition::I, Condition::II, Condition::III] {
            let names: Vec<String> = named_queries(c, cond)
                .unwrap()
                .into_iter()
                .map(|(n, _)| n)
                .collect();
            for f in files.iter().filter(|f| {
                let label = f.split('-').next().unwrap();
                label.trim_end_matches(['a', 'b']) == cond.name()
            }) {
                assert!(names.contains(f), "{f} not in {names:?}");
            }
        }
    }
}

/// Box proofs: SCN by linear integer arithmetic, and Nim's xor in bit-vectors, whose quantified
/// (II) z3 decides with `(check-sat-using qsat)`: that command only in the z3-only file.
#[test]
fn box_certificates_are_plain_smtlib_answered_unsat_by_each_solver() {
    let test = "box_certificates_are_plain_smtlib_answered_unsat_by_each_solver";
    let Some((solvers, cvc5)) = solvers(test) else {
        return;
    };
    let scn = from_theorem("scn-4-2", Ruleset::parse("SCN(4,2)").unwrap()).unwrap();
    let mut nim = from_theorem("bouton", Ruleset::parse("CN(3,1)").unwrap()).unwrap();
    nim.bits = Some(4);
    for (name, c) in [("scn42", scn), ("nim-bits", nim)] {
        let r = nimlab_prove::run(&c, Claim::PSet, &Prover::Smt(solvers.clone())).unwrap();
        let dir = Dir::new(name);
        let written = certificate::of_box(&c, Claim::PSet, Some(&r), Characterization::Registry)
            .unwrap()
            .write(dir.path())
            .unwrap();
        check_written(dir.path(), &written, &r, cvc5);
        if name == "nim-bits" {
            let z3 = std::fs::read_to_string(dir.path().join("condition-II.z3")).unwrap();
            assert!(z3.contains("(check-sat-using qsat)"), "{z3}");
            let plain = std::fs::read_to_string(dir.path().join("condition-II.smt2")).unwrap();
            assert!(plain.contains("\n(check-sat)\n"), "{plain}");
        }
    }
}

/// `check.sh` passes on a certificate as written; fails, naming the file, on a changed query, a
/// missing file, or a flipped answer in the manifest.
#[test]
fn check_sh_notices_a_changed_file_and_a_flipped_answer() {
    let test = "check_sh_notices_a_changed_file_and_a_flipped_answer";
    let Some((solvers, _)) = solvers(test) else {
        return;
    };
    if !have_sha256sum(test) {
        return;
    }
    let c = ejr42();
    let r = prove_chips(&c, &solvers).unwrap();
    let cert = of_chips(&c, Some(&r), Some("game = EJR(4,2)\n")).unwrap();
    let write = |name: &str| {
        let dir = Dir::new(name);
        cert.write(dir.path()).unwrap();
        dir
    };
    let dir = write("check-ok");
    let (code, out) = check_sh(dir.path());
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("everything agrees"), "{out}");
    assert!(
        out.contains(&format!("queries: {} run with", report_files(&r).len())),
        "{out}"
    );
    // A query changed (its answer unchanged: only the hash can tell).
    let dir = write("check-changed");
    let q = dir.path().join("IIb-1.smt2");
    let text = std::fs::read_to_string(&q).unwrap();
    std::fs::write(
        &q,
        text.replace("(check-sat)", "(assert true)\n(check-sat)"),
    )
    .unwrap();
    let (code, out) = check_sh(dir.path());
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("FAIL: IIb-1.smt2 has changed"), "{out}");
    // A file missing.
    let dir = write("check-missing");
    std::fs::remove_file(dir.path().join("characterization.txt")).unwrap();
    let (code, out) = check_sh(dir.path());
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("FAIL: characterization.txt is missing"),
        "{out}"
    );
    // z3's recorded answer to one query flipped to sat.
    let dir = write("check-flipped");
    let m = dir.path().join("manifest.json");
    let text = std::fs::read_to_string(&m).unwrap();
    let line = text
        .lines()
        .find(|l| l.contains("{\"file\": \"III-0.smt2\", \"z3_file\""))
        .unwrap();
    let flipped = line.replacen(
        "{\"solver\": \"z3\", \"answer\": \"unsat\"",
        "{\"solver\": \"z3\", \"answer\": \"sat\"",
        1,
    );
    assert_ne!(line, flipped);
    std::fs::write(&m, text.replace(line, &flipped)).unwrap();
    let (code, out) = check_sh(dir.path());
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("FAIL: III-0.z3: z3 answered unsat; manifest.json records sat"),
        "{out}"
    );
    // The query's own answer flipped (what a solver that nimlab did not run is compared with).
    let dir = write("check-flipped-query");
    let m = dir.path().join("manifest.json");
    let text = std::fs::read_to_string(&m).unwrap();
    let flipped = text.replace(
        "{\"file\": \"III-0.smt2\", \"z3_file\": \"III-0.z3\", \"answer\": \"unsat\"",
        "{\"file\": \"III-0.smt2\", \"z3_file\": \"III-0.z3\", \"answer\": \"sat\"",
    );
    assert_ne!(text, flipped);
    let without_answers = flipped.replace(
        "\"answers\": [{\"solver\": \"z3\", \"answer\": \"unsat\"",
        "\"answers\": [{\"solver\": \"z4\", \"answer\": \"unsat\"",
    );
    std::fs::write(&m, without_answers).unwrap();
    let (code, out) = check_sh(dir.path());
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("FAIL: III-0.z3: z3 answered unsat; manifest.json records sat"),
        "{out}"
    );
}

/// Without a report, the queries of the claim are written (none run), each plain SMT-LIB 2; the
/// writer refuses a query that is not.
#[test]
fn queries_without_a_report_and_the_plain_rule() {
    let c = ejr42();
    let cert = of_chips(&c, None, None).unwrap();
    let dir = Dir::new("no-report");
    let written = cert.write(dir.path()).unwrap();
    let m = manifest(dir.path());
    assert!(m["verdict"].is_null());
    let q = &m["conditions"][0]["queries"][0];
    assert_eq!(q["file"], "Ia-0.smt2");
    assert!(q["answer"].is_null() && q["answers"].as_array().unwrap().is_empty());
    for f in &written {
        if f.extension().is_some_and(|e| e == "smt2") {
            assert!(
                is_plain(&std::fs::read_to_string(f).unwrap()),
                "{}",
                f.display()
            );
        }
    }
    let mut bad = cert.clone();
    bad.conditions[0].queries[0].text = "(assert true)\n(check-sat-using qsat)\n".into();
    let e = bad.write(&dir.path().join("bad")).unwrap_err().to_string();
    assert!(e.contains("not plain SMT-LIB 2"), "{e}");
    assert!(is_plain(
        "; (check-sat-using qsat) in a comment\n(assert true)\n(check-sat)\n; done\n"
    ));
    assert!(!is_plain("(assert true)\n(check-sat)\n(get-model)\n"));
    assert_eq!(z3_name("IIb-1.smt2"), "IIb-1.z3");
}

/// A refuted proof keeps, for each condition not proved, the queries not reached after its
/// counterexample (without answers, for a reader to run); `check.sh` does not run those and
/// agrees with the answers recorded (sat included).
#[test]
fn a_refuted_proof_keeps_the_queries_not_reached() {
    let test = "a_refuted_proof_keeps_the_queries_not_reached";
    let Some((solvers, _)) = solvers(test) else {
        return;
    };
    let c = nimlab_prove::from_toml(
        "game = \"SCN(4,2)\"\nreading = \"any\"\n[[family]]\nname = \"opposite equal\"\nrelations = [\"a = c\"]\n",
        "wrong.toml",
    )
    .unwrap();
    let r = nimlab_prove::run(&c, Claim::PSet, &Prover::Smt(solvers)).unwrap();
    assert_eq!(r.verdict, Status::Refuted);
    let dir = Dir::new("refuted");
    certificate::of_box(&c, Claim::PSet, Some(&r), Characterization::File("x"))
        .unwrap()
        .write(dir.path())
        .unwrap();
    let m = manifest(dir.path());
    let ii = m["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["condition"] == "II")
        .unwrap();
    assert_eq!(ii["status"], "refuted");
    let qs = ii["queries"].as_array().unwrap();
    assert_eq!(qs.len(), 4, "{ii}");
    assert_eq!(qs[0]["answer"], "sat");
    assert!(qs[3]["answer"].is_null() && qs[3]["answers"].as_array().unwrap().is_empty());
    assert!(dir.path().join("condition-II-length-4.smt2").is_file());
    if have_sha256sum(test) {
        let (code, out) = check_sh(dir.path());
        assert_eq!(code, 0, "{out}");
        assert!(
            out.contains("note: condition-II-length-4.smt2 was not run by nimlab"),
            "{out}"
        );
    }
}
