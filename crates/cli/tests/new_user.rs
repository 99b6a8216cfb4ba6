//! What a new user meets first: every option's help text, the list of games in `--help`,
//! and explanations whose letters mean one thing each.

mod common;

use common::ok;

/// The subcommands (and nested ones) whose options are listed in `--help`.
const COMMANDS: [&[&str]; 16] = [
    &["outcome"],
    &["grundy"],
    &["moves"],
    &["table"],
    &["store", "list"],
    &["store", "export"],
    &["store", "rm"],
    &["theory"],
    &["verify"],
    &["patterns"],
    &["explain"],
    &["play"],
    &["serve"],
    &["games"],
    &["store"],
    &[],
];

/// Every option in every command's short help (`-h`) has a description: a line of the Options block
/// that names a flag and nothing else is an option nobody explained.
#[test]
fn every_option_has_a_description() {
    for c in COMMANDS {
        let mut args = c.to_vec();
        args.push("-h");
        let text = ok(&args);
        let mut in_options = false;
        for line in text.lines() {
            if line.starts_with("Options:") {
                in_options = true;
                continue;
            }
            if in_options && !line.starts_with(' ') {
                in_options = false;
            }
            if !in_options || line.trim().is_empty() {
                continue;
            }
            let t = line.trim();
            if !t.starts_with('-') {
                continue; // a continuation line of a description
            }
            // "--flag <VALUE>  description": the flag part ends at the first run of two spaces.
            let described = t
                .split_once("  ")
                .is_some_and(|(_, d)| !d.trim().is_empty());
            assert!(
                described,
                "nimlab {}: option without a description: {t}",
                c.join(" ")
            );
        }
    }
}

/// The top-level help lists every family of the catalogue, not only the first four.
#[test]
fn top_level_help_lists_every_game() {
    let help = ok(&["--help"]);
    let games = common::json(&["games", "--json"]);
    let names: Vec<String> = games
        .as_array()
        .or_else(|| games["games"].as_array())
        .expect("a list of games")
        .iter()
        .map(|g| g["name"].as_str().unwrap().to_string())
        .collect();
    assert!(names.len() >= 10, "{names:?}");
    for n in names {
        assert!(help.contains(&n), "--help does not name {n}:\n{help}");
    }
}

/// In an explanation, a family written as a pattern with letters of its own, (x, 0, x, a, b), does
/// not share its letters with the reading of the stacks.
#[test]
fn explanations_give_each_letter_one_meaning() {
    // CN(5,3): (3,0,3,1,2) is (x, 0, x, a, b) with x = 3 = 1 + 2 = a + b.
    let text = ok(&["explain", "CN(5,3)", "3,0,3,1,2"]);
    assert!(text.contains("(x, 0, x, a, b)"), "{text}");
    assert!(text.contains("p1=3, p2=0, p3=3, p4=1, p5=2"), "{text}");
    assert!(!text.contains("a=3") && !text.contains("a=1"), "{text}");
    // CN(7,4)'s families are written over the reading's letters a..g: they stay.
    let text = ok(&["explain", "CN(7,4)", "0,0,3,1,1,1,3"]);
    assert!(text.contains("a=0, b=0, c=3"), "{text}");
}

/// Options that cannot apply, or contradict each other, are refused with one line and exit 2.
#[test]
fn inapplicable_table_options_are_refused() {
    use common::fails;
    fails(
        &["table", "CN(4,2)", "--max", "3", "--heaps", "5"],
        "--heaps",
    );
    fails(
        &[
            "table", "CN(4,2)", "--max", "3", "--json", "--format", "csv",
        ],
        "--json",
    );
    fails(
        &["table", "ET(3)", "--max-sum", "10", "--method", "fast"],
        "by search",
    );
    fails(&["table", "ET(3)", "--max", "10"], "--max-sum");
    fails(
        &["table", "ET(3)", "--max-sum", "10", "--heaps", "3"],
        "--heaps",
    );
    fails(&["table", "ENTROPY(3)", "--max-sum", "10"], "--max H");
    fails(&["table", "CN(4,2)", "--max-sum", "10"], "--max H");
    fails(
        &[
            "table",
            "CN(4,2)",
            "--max",
            "3",
            "--count-only",
            "--format",
            "csv",
        ],
        "--count-only",
    );
    fails(
        &["table", "CN(4,2)", "--max", "3", "--grundy", "--remoteness"],
        "--remoteness",
    );
    fails(
        &[
            "table",
            "CN(4,2)",
            "--max",
            "3",
            "--count-only",
            "--remoteness",
        ],
        "--remoteness",
    );
    fails(
        &["table", "CN(4,2)", "--max", "3", "--grundy", "--misere"],
        "--misere",
    );
}

/// A negative number gets "must be non-negative" naming its option, not clap's "use -- -1"; a command
/// that needs one of several sources names them all when none is given.
#[test]
fn negative_numbers_and_missing_sources_are_named() {
    use common::fails;
    for (args, needle) in [
        (
            &["table", "CN(4,2)", "--max", "-1"][..],
            "--max -1: the value must be non-negative",
        ),
        (
            &["outcome", "nim", "1,2", "--limit", "-5"][..],
            "--limit -5: the value must be non-negative",
        ),
        (
            &["table", "ET(3)", "--max-sum", "-3"][..],
            "--max-sum -3: the value must be non-negative",
        ),
    ] {
        fails(args, needle);
        let err = String::from_utf8(common::nimlab(args).stderr).unwrap();
        assert!(!err.contains("-- -"), "{args:?}: {err}");
    }
    for args in [
        &["verify", "CN(4,2)", "--max", "3"][..],
        &["prove", "CN(4,2)"][..],
    ] {
        fails(args, "--theorem");
        fails(args, "--families");
    }
    fails(&["verify", "CN(4,2)", "--max", "3"], "--conjecture");
    fails(
        &[
            "verify",
            "CN(4,2)",
            "--max",
            "3",
            "--theorem",
            "cn-4-2",
            "--families",
            "f.toml",
        ],
        "cannot be used with",
    );
}

/// The engine takes entries past 63 (lines longer than one word), and names its own limit.
#[test]
fn the_engine_runs_past_63_and_names_its_limit() {
    for max in [63u64, 64, 200] {
        let v = common::json(&[
            "table",
            "CN(4,2)",
            "--max",
            &max.to_string(),
            "--no-store",
            "--json",
            "--count-only",
        ]);
        assert_eq!(v["method"], "engine", "--max {max}");
        // CN(4,2): the P-positions are (a,b,a,b) (Dufour and Heubach), so (max+1)^2 of them.
        assert_eq!(v["count"], (max + 1) * (max + 1), "--max {max}");
    }
    common::fails(
        &[
            "table",
            "CN(4,2)",
            "--max",
            "70000",
            "--method",
            "fast",
            "--no-store",
        ],
        "at most 65535 values per entry",
    );
}

/// A store id is never given to another table, even after the newest one is removed.
#[test]
fn store_ids_are_never_reused() {
    let dir = common::TempDir::new("ids");
    let db = dir.db();
    let ids = || -> Vec<i64> {
        common::json(&["store", "list", "--json", "--db", &db])
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["id"].as_i64().unwrap())
            .collect()
    };
    ok(&[
        "table",
        "CN(3,2)",
        "--max",
        "2",
        "--db",
        &db,
        "--count-only",
    ]);
    ok(&[
        "table",
        "CN(3,2)",
        "--max",
        "3",
        "--db",
        &db,
        "--count-only",
    ]);
    let before = ids();
    assert_eq!(before.len(), 2);
    let newest = *before.iter().max().unwrap();
    ok(&["store", "rm", &newest.to_string(), "--db", &db]);
    ok(&[
        "table",
        "CN(3,2)",
        "--max",
        "4",
        "--db",
        &db,
        "--count-only",
    ]);
    let after = ids();
    assert_eq!(after.len(), 2);
    assert!(
        after.iter().all(|&i| i != newest),
        "{after:?} reuses {newest}"
    );
}

/// `-o FILE` says what it wrote; CSV has a header row; the empty SCN circle is a row of its own
/// (length 0), not an empty line.
#[test]
fn files_are_confirmed_and_csv_has_a_header() {
    let dir = common::TempDir::new("csv");
    let path = dir.file("scn.csv");
    let out = common::nimlab(&[
        "table",
        "SCN(3,2)",
        "--max",
        "2",
        "--format",
        "csv",
        "--no-store",
        "-o",
        &path,
    ]);
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("wrote 3 P-positions to {path}")),
        "{err}"
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(!text.lines().any(|l| l.is_empty()), "{text:?}");
    // SCN(3,2) with piles 1..=2: the empty circle, (1,1,1) and (2,2,2) (every move in a circle of
    // three equal piles can be answered by restoring equality; a shorter circle is won by taking it).
    assert_eq!(
        common::csv_rows(&text, "length,p1,p2,p3"),
        ["0,,,", "3,1,1,1", "3,2,2,2"]
    );
    assert!(!dir.path().join("scn.partial").exists());
}

/// Chip-game tables go through the store like box tables: a second run is a look-up, and a
/// position inside a stored table is answered from it.
#[test]
fn chip_tables_are_stored_and_answer_positions() {
    let dir = common::TempDir::new("chips");
    let db = dir.db();
    let first = common::json(&[
        "table",
        "EJR(4,2)",
        "--max-sum",
        "10",
        "--json",
        "--db",
        &db,
    ]);
    assert_eq!(first["method"], "naive");
    let again = common::json(&[
        "table",
        "EJR(4,2)",
        "--max-sum",
        "10",
        "--json",
        "--db",
        &db,
    ]);
    assert_eq!(again["method"], "store");
    assert_eq!(again["positions"], first["positions"]);
    let id = again["store_id"].as_i64().unwrap();
    for p in first["positions"].as_array().unwrap().iter().take(5) {
        let text: Vec<String> = p
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.to_string())
            .collect();
        let v = common::json(&[
            "outcome",
            "EJR(4,2)",
            &text.join(","),
            "--json",
            "--db",
            &db,
        ]);
        assert_eq!(v["outcome"], "P", "{p}");
        assert_eq!(v["method"], format!("store:{id}"), "{p}");
        let searched = common::json(&[
            "outcome",
            "EJR(4,2)",
            &text.join(","),
            "--json",
            "--no-store",
        ]);
        assert_eq!(searched["outcome"], "P", "{p}");
    }
}
