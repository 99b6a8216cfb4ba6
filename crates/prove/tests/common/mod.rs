//! Shared by the prover's tests: the solver, or a visible skip when z3 is not installed (CI sets
//! `NIMLAB_REQUIRE_Z3=1`, which turns the skip into a failure: `nimlab_testkit::tools`).

#![allow(dead_code)]

use nimlab_core::Pos;
use nimlab_prove::expr::parse_relation;
use nimlab_prove::{Condition, Conjecture, Counterexample, SmtSolver};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

/// The solver to test with, or `None` (after printing `SKIPPED` on stderr) when z3 cannot be run.
pub fn solver(test: &str) -> Option<SmtSolver> {
    let path = std::env::var("NIMLAB_Z3").unwrap_or_else(|_| "z3".into());
    let runs = Command::new(&path)
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success());
    let found = if runs {
        Ok(SmtSolver {
            path: PathBuf::from(&path),
            timeout: Duration::from_secs(120),
            deadline: None,
        })
    } else {
        Err(format!(
            "`{path} -version` does not run (install z3: apt-get install z3)"
        ))
    };
    nimlab_testkit::tools::need(test, "z3", found)
}

/// Runs a script with several `check-sat` commands through the solver and returns the answers.
pub fn answers(s: &SmtSolver, script: &str) -> Vec<String> {
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

/// A deliberately wrong variant of a theorem's families.
pub enum Wrong {
    /// Leave out every family with this name: condition (II) must fail.
    Drop(&'static str),
    /// In the family with this name, replace the relation written `old` (as the prover prints it) by
    /// `new`, or remove it (`None`): a weaker family, so condition (I) must fail.
    Weaken(&'static str, &'static str, Option<&'static str>),
    /// Add a relation to every family with this name: a smaller set, so condition (II) must fail.
    Strengthen(&'static str, &'static str),
}

pub fn mutate(c: &Conjecture, w: &Wrong) -> (Conjecture, Condition) {
    let mut c = c.clone();
    let before = c.families.len();
    let cond = match w {
        Wrong::Drop(name) => {
            c.families.retain(|f| f.name != *name);
            Condition::II
        }
        Wrong::Weaken(name, old, new) => {
            let mut done = 0;
            for f in c.families.iter_mut().filter(|f| f.name == *name) {
                let i = f.atoms.iter().position(|a| a.to_string() == *old);
                let Some(i) = i else { continue };
                f.atoms.remove(i);
                if let Some(n) = new {
                    f.atoms.extend(parse_relation(n, f.len).unwrap());
                }
                done += 1;
            }
            assert!(done > 0, "{}: no family {name} with {old:?}", c.source);
            Condition::I
        }
        Wrong::Strengthen(name, rel) => {
            for f in c.families.iter_mut().filter(|f| f.name == *name) {
                f.atoms.extend(parse_relation(rel, f.len).unwrap());
            }
            Condition::II
        }
    };
    if let Wrong::Drop(name) = w {
        assert!(c.families.len() < before, "{}: no family {name}", c.source);
    }
    (c, cond)
}

/// A counterexample to condition `cond` of the wrong variant `c` of the registry's `theorem` checks
/// out against the game's options and the theorem's own verdicts (tested against exhaustive search in
/// the theory crate): a dropped family leaves out a P-position with no option in the smaller set, a
/// weakened relation lets in an N-position that moves into the set.
pub fn confirms(theorem: &str, c: &Conjecture, cond: Condition, cx: &Counterexample) {
    let game = c.game.game();
    let t = nimlab_theory::by_id(theorem).unwrap();
    let is_p = |p: &[u64]| t.decide(game.as_ref(), p).unwrap().is_p;
    let x = &cx.position;
    game.validate(x).unwrap();
    let options = game.options(x).unwrap();
    match cond {
        Condition::I => {
            let y = cx.move_to.as_ref().expect("a move");
            assert!(options.contains(y), "{x:?} -> {y:?} is not a move");
            assert!(c.contains(x) && c.contains(y), "{x:?} -> {y:?}");
            assert!(
                !(is_p(x) && is_p(y)),
                "{x:?} -> {y:?} joins two P-positions"
            );
        }
        Condition::II => {
            assert!(cx.move_to.is_none());
            assert!(!options.is_empty() && !c.contains(x), "{x:?}");
            assert!(
                options.iter().all(|y| !c.contains(y)),
                "{x:?} has a move into the set"
            );
            // The set misses a P-position: x itself, or the target of each of x's winning moves.
            assert!(
                is_p(x) || options.iter().any(|y| is_p(y)),
                "{x:?} is N with no move to a P-position"
            );
        }
        Condition::III => {
            assert!(options.is_empty() && !c.contains(x), "{x:?}");
        }
        Condition::Search | Condition::Closure => {
            panic!("a wrong variant of a theorem is refuted by (I), (II) or (III)")
        }
    }
}
