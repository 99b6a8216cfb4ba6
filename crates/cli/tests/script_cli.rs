//! Scripted games that would never end are refused by every command in one line naming the move, and
//! a script's cost estimate comes from its real option counts.

mod common;
use common::*;
use std::path::Path;

/// A one-heap game whose options include the position itself.
const SELF_LOOP: &str =
    "fn options(p) { let out = [p]; if p[0] > 0 { out.push([p[0] - 1]); } out }\n";
/// A one-heap game with a cycle: 5 -> 4 -> 3 -> 5.
const CYCLE: &str =
    "fn options(p) { let out = []; if p[0] > 0 { out.push([p[0] - 1]); } if p[0] == 3 { out.push([5]); } out }\n";
/// A one-heap game whose moves make the heap bigger.
const GROWS: &str = "fn options(p) { [[p[0] + 1]] }\n";
/// Declares a rank that a move does not lower.
const BAD_RANK: &str =
    "fn rank(p) { 7 }\nfn options(p) { if p[0] > 0 { [[p[0] - 1]] } else { [] } }\n";

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// Runs `nimlab ARGS`, which must fail with exit status 2 and one line naming a move `X -> Y`.
fn refused(args: &[&str], needle: &str) {
    let out = nimlab(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?} should exit 2: {err}");
    assert_one_line(args, &err);
    assert!(
        err.contains(needle),
        "{args:?}: {err:?} should say {needle:?}"
    );
    assert!(
        err.contains(") -> ("),
        "{args:?}: {err:?} should name the move"
    );
}

#[test]
fn games_that_do_not_end_are_refused_by_every_command() {
    let dir = TempDir::new("script-loops");
    let conj = write(dir.path(), "even.rhai", "fn is_p(p) { p[0] % 2 == 0 }\n");
    for (name, text, needle) in [
        ("self.rhai", SELF_LOOP, "does not descend"),
        ("cycle.rhai", CYCLE, "does not descend"),
        ("grows.rhai", GROWS, "does not descend"),
        ("rank.rhai", BAD_RANK, "does not lower rank"),
    ] {
        let g = write(dir.path(), name, text);
        let g = g.as_str();
        for args in [
            vec!["outcome", g, "5"],
            vec!["outcome", g, "5", "--misere", "--remoteness"],
            vec!["outcome", g, "5", "--json"],
            vec!["moves", g, "5"],
            vec!["moves", g, "5", "--all"],
            vec!["grundy", g, "5"],
            vec!["explain", g, "5"],
            vec!["table", g, "--heaps", "1", "--max", "5"],
            vec!["table", g, "--heaps", "1", "--max", "5", "--count-only"],
            vec!["table", g, "--heaps", "1", "--max", "5", "--misere"],
            vec!["table", g, "--heaps", "1", "--max", "5", "--grundy"],
            vec!["patterns", g, "--heaps", "1", "--max", "5"],
            vec![
                "verify",
                g,
                "--heaps",
                "1",
                "--max",
                "5",
                "--conjecture",
                &conj,
            ],
        ] {
            refused(&args, needle);
        }
        // `play` reads moves from stdin; the start is refused before the first prompt.
        let out = cmd()
            .args(["play", g, "5"])
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "play {name}: {err}");
        assert_one_line(("play", name), &err);
        assert!(err.contains(needle), "play {name}: {err}");
    }
}

/// A move that lowers the coordinate sum but leaves the box: `table` names it instead of listing
/// P-positions of a box that is not closed under moves.
#[test]
fn table_names_a_move_that_leaves_the_box() {
    let dir = TempDir::new("script-box");
    // (a, b) -> (a + b - 1, 0): the sum falls by one, but the first heap grows.
    let g = write(
        dir.path(),
        "merge.rhai",
        "fn options(p) { if p[0] + p[1] > 0 { [[p[0] + p[1] - 1, 0]] } else { [] } }\n",
    );
    refused(
        &["table", &g, "--heaps", "2", "--max", "2"],
        "leaves the box [0..2]^2",
    );
    // The same game answers single positions: (2, 2) -> (3, 0) -> (2, 0) -> (1, 0) -> (0, 0), four
    // moves, so P.
    let v = json(&["outcome", &g, "2,2", "--json"]);
    assert_eq!(v["outcome"], "P");
    // A split that keeps the sum descends in the multiset order: (4) -> (1, 3) or (3, 1) or (2, 2)
    // ... is accepted by the search, refused (by the sum) by the table.
    let split = write(
        dir.path(),
        "split.rhai",
        "fn options(p) { let out = []; for i in 0..p.len() { for a in 1..p[i] { let q = []; for j in 0..p.len() { if j != i { q.push(p[j]); } } q.push(a); q.push(p[i] - a); if a < p[i] - a { out.push(q); } } } out }\n",
    );
    // Grundy's game (split a heap into two unequal heaps), by its recurrence on one heap.
    let mut want = [0u64; 13];
    for n in 0..want.len() {
        let mut seen = [false; 64];
        for a in 1..n {
            if a < n - a {
                seen[(want[a] ^ want[n - a]) as usize] = true;
            }
        }
        want[n] = (0..).find(|&v| !seen[v as usize]).unwrap();
    }
    for (n, g) in want.iter().enumerate() {
        let v = json(&["grundy", &split, &n.to_string(), "--json"]);
        assert_eq!(v["grundy"], *g, "Grundy's game at {n}: {v}");
    }
    refused(
        &["table", &split, "--heaps", "1", "--max", "4"],
        "leaves the box",
    );
}

/// The Grundy values of subtraction game {2, 5, 7} by the recurrence, written here.
fn brute_subtraction(n: usize) -> Vec<u64> {
    let mut g = vec![0u64; n + 1];
    for i in 0..=n {
        let mut seen = [false; 8];
        for t in [2, 5, 7] {
            if i >= t {
                seen[g[i - t] as usize] = true;
            }
        }
        g[i] = (0..).find(|&v| !seen[v as usize]).unwrap();
    }
    g
}

#[test]
fn a_script_is_estimated_by_its_real_option_counts() {
    let dir = TempDir::new("script-sub");
    let g = write(
        dir.path(),
        "sub257.rhai",
        "// Subtract 2, 5 or 7.\nfn options(p) { let out = []; for t in [2, 5, 7] { if p[0] >= t { out.push([p[0] - t]); } } out }\n",
    );
    let want = brute_subtraction(1_000_000);
    for n in [0usize, 1, 2, 7, 12, 31, 1_000, 999_999, 1_000_000] {
        let v = json(&["grundy", &g, &n.to_string(), "--json"]);
        assert_eq!(v["grundy"], want[n], "heap {n}: {v}");
        assert_eq!(v["grundy_method"], "search", "heap {n}: {v}");
    }
}

/// A game whose moves keep the coordinate sum and the multiset of entries (Turning Turtles: a head
/// and a tail may trade places) is refused by the default measure, and answered once the script
/// declares a rank every move lowers: the Grundy value is the XOR of the heads' places, computed here.
#[test]
fn a_declared_rank_admits_a_game_the_default_measure_refuses() {
    let dir = TempDir::new("script-rank");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/turtles.rhai");
    let text = std::fs::read_to_string(&root).unwrap();
    let start = text.find("fn rank(p)").unwrap();
    let end = start + text[start..].find("\n}\n").unwrap() + 3;
    let without = write(
        dir.path(),
        "norank.rhai",
        &format!("{}{}", &text[..start], &text[end..]),
    );
    refused(&["grundy", &without, "1,0,1,1"], "does not descend");
    let with = root.to_str().unwrap();
    for row in 0u32..32 {
        let coins: Vec<String> = (0..5).map(|i| (row >> i & 1).to_string()).collect();
        let want = (0..5)
            .filter(|i| row >> i & 1 == 1)
            .fold(0u64, |x, i| x ^ (i as u64 + 1));
        let v = json(&["grundy", with, &coins.join(","), "--json"]);
        assert_eq!(v["grundy"], want, "{coins:?}: {v}");
    }
}

/// A `canonical` that maps a position above it (which could undo every move's descent) is refused in
/// one line by the first command that meets it, and does not hang.
#[test]
fn a_canonical_form_above_its_position_is_refused() {
    let dir = TempDir::new("script-canonical");
    let g = write(
        dir.path(),
        "up.rhai",
        "fn options(p) { if p[0] > 0 { [[p[0] - 1]] } else { [] } }\nfn canonical(p) { [p[0] + 1] }\n",
    );
    for args in [
        vec!["outcome", g.as_str(), "5"],
        vec!["grundy", g.as_str(), "5"],
        vec!["table", g.as_str(), "--heaps", "1", "--max", "5"],
    ] {
        let out = nimlab(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_one_line(&args, &err);
        assert!(err.contains("lies above its position"), "{args:?}: {err}");
    }
}
