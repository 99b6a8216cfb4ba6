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
