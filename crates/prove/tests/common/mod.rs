//! Shared by the prover's tests: the solver, or a visible skip when z3 is not installed (CI sets
//! `NIMLAB_REQUIRE_Z3=1`, which turns the skip into a failure).

#![allow(dead_code)]

use nimlab_core::Pos;
use nimlab_prove::Solver;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

/// The solver to test with, or `None` (after printing `SKIPPED` on stderr) when z3 cannot be run.
pub fn solver(test: &str) -> Option<Solver> {
    let path = std::env::var("NIMLAB_Z3").unwrap_or_else(|_| "z3".into());
    let runs = Command::new(&path)
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success());
    if runs {
        return Some(Solver {
            path: PathBuf::from(path),
            timeout: Duration::from_secs(120),
        });
    }
    if std::env::var("NIMLAB_REQUIRE_Z3").as_deref() == Ok("1") {
        panic!("{test}: z3 is required (NIMLAB_REQUIRE_Z3=1) but `{path} -version` does not run");
    }
    // Written to the process's stderr itself, which the test harness does not capture.
    let _ = std::io::Write::write_all(
        &mut std::io::stderr(),
        format!("SKIPPED {test}: z3 not found (install it with apt-get install z3)\n").as_bytes(),
    );
    None
}

/// Runs a script with several `check-sat` commands through the solver and returns the answers.
pub fn answers(s: &Solver, script: &str) -> Vec<String> {
    use std::io::Write;
    let mut child = Command::new(&s.path)
        .args(["-in", "-smt2"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run z3");
    // Written from another thread: the answers fill the output pipe while the script is still going in.
    let mut stdin = child.stdin.take().unwrap();
    let script = script.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(script.as_bytes()).unwrap());
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("error"), "solver error: {text}");
    text.lines().map(|l| l.trim().to_string()).collect()
}

/// Every vector of length `m` with entries in `lo..=hi`.
pub fn vectors(m: usize, lo: u64, hi: u64) -> Vec<Pos> {
    let mut out = vec![vec![]];
    for _ in 0..m {
        out = out
            .into_iter()
            .flat_map(|v| {
                (lo..=hi).map(move |a| {
                    let mut w = v.clone();
                    w.push(a);
                    w
                })
            })
            .collect();
    }
    out
}

/// SMT variable names `p0, p1, ...`.
pub fn names(p: &str, m: usize) -> Vec<String> {
    (0..m).map(|i| format!("{p}{i}")).collect()
}

/// Assertions fixing the variables to the values.
pub fn fix(vars: &[String], vals: &[u64]) -> String {
    fix_in(nimlab_prove::Arith::Int, vars, vals)
}

/// Assertions fixing the variables to the values, in the given arithmetic.
pub fn fix_in(ar: nimlab_prove::Arith, vars: &[String], vals: &[u64]) -> String {
    vars.iter()
        .zip(vals)
        .map(|(v, a)| format!("(assert (= {v} {}))\n", ar.lit(*a as i128)))
        .collect()
}
