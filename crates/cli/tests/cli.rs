//! The command-line contract: every command, text and JSON, and one-line errors with exit status 2.

mod common;

use common::{fails, json, ok, TempDir};
use serde_json::Value;

#[test]
fn outcome_json_has_the_contract_keys() {
    let v = json(&["outcome", "CN(7,4)", "1,7,5,6,2,3,6", "--json"]);
    assert_eq!(v["game"], "CN(7,4)");
    assert_eq!(v["position"], serde_json::json!([1, 7, 5, 6, 2, 3, 6]));
    assert_eq!(v["play"], "normal");
    assert_eq!(v["outcome"], "N");
    assert!(v["method"].is_string());
    // The three position syntaxes and case-insensitive names.
    for pos in ["(1,7,5,6,2,3,6)", "1 7 5 6 2 3 6"] {
        let w = json(&["outcome", "cn(7,4)", pos, "--json"]);
        assert_eq!(w["position"], v["position"]);
        assert_eq!(w["outcome"], "N");
    }
    let v = json(&["outcome", "SCN(6,3)", "1,6,2,3,3,6", "--json"]);
    assert_eq!(v["outcome"], "P");
    let v = json(&["outcome", "CN(9,5)", "2,2,2,2,2,2,2,2,2", "--json"]);
    assert_eq!(v["outcome"], "N");
}

#[test]
fn misere_outcome() {
    // Nim (1,1,1) misère, by hand: players alternate taking single tokens, so the mover takes the first
    // and the last one and loses: P.
    let v = json(&["outcome", "nim", "1,1,1", "--misere", "--json"]);
    assert_eq!(v["play"], "misere");
    assert_eq!(v["outcome"], "P");
    let v = json(&["outcome", "CN(3,2)", "1,0,0", "--misere", "--json"]);
    assert_eq!(v["outcome"], "P");
    // No proven result covers misère CN: the engine's table of the box below, or a search.
    assert!(v["method"] == "search" || v["method"] == "engine", "{v}");
    let v = json(&[
        "outcome",
        "CN(3,2)",
        "1,1,0",
        "--misere",
        "--json",
        "--remoteness",
    ]);
    assert_eq!(v["outcome"], "N");
    // By hand: move to (1,0,0) (P, remoteness 1: the opponent must take the last token), so 2.
    assert_eq!(v["remoteness"], 2);
}

#[test]
fn grundy_command() {
    let v = json(&["grundy", "nim", "3,5,7", "--json"]);
    assert_eq!(v["grundy"], 3 ^ 5 ^ 7);
    assert_eq!(v["method"], "bouton");
    // CN(4,4) from (1,0,0,0) is a single heap of one: Grundy value 1; (2,0,0,0): 2.
    let v = json(&["grundy", "CN(4,4)", "2,0,0,0", "--json"]);
    assert_eq!(v["grundy"], 2);
    assert_eq!(v["outcome"], "N");
    assert!(ok(&["grundy", "CN(4,4)", "2,0,0,0"]).contains("Grundy value 2"));
}

#[test]
fn moves_lists_winning_moves_as_given() {
    // CN(4,2): P iff a1 = a3 and a2 = a4. From (3,1,2,1) the only winning move is to (2,1,2,1).
    let v = json(&["moves", "CN(4,2)", "3,1,2,1", "--json"]);
    assert_eq!(v["winning_moves"], serde_json::json!([[2, 1, 2, 1]]));
    assert_eq!(v["outcome"], "N");
    let v = json(&["moves", "CN(4,2)", "2,1,2,1", "--json", "--all"]);
    assert_eq!(v["winning_moves"], serde_json::json!([]));
    assert_eq!(v["outcome"], "P");
    let opts = v["options"].as_array().unwrap();
    // Windows of two adjacent stacks: 4 windows; options of (2,1,2,1) lowering within a window.
    assert!(opts
        .iter()
        .all(|o| o["outcome"] == "N" && o["grundy"].as_u64().unwrap() > 0));
    // Misère Nim, by hand: (1,2,3) has a heap >= 2 and XOR 0, so it is P; from (1,2,4) the only move to
    // a P-position lowers 4 to 3 (lowering 1 or 2 cannot make the XOR 0, and 0/1 targets leave a heap >= 2
    // with non-zero XOR).
    let v = json(&["moves", "nim", "1,2,4", "--misere", "--json"]);
    assert_eq!(v["winning_moves"], serde_json::json!([[1, 2, 3]]));
    let text = ok(&["moves", "CN(4,2)", "3,1,2,1", "--all"]);
    assert!(text.contains("(2,1,2,1)") && text.contains("winning"));
}

#[test]
fn table_json_and_counts() {
    let v = json(&["table", "CN(4,2)", "--max", "4", "--json"]);
    assert_eq!(v["count"], 25);
    assert_eq!(v["game"], "CN(4,2)");
    assert_eq!(v["max"], 4);
    assert_eq!(v["play"], "normal");
    let positions = v["positions"].as_array().unwrap();
    assert_eq!(
        positions.len() as u64,
        v["canonical_count"].as_u64().unwrap()
    );
    // (a,b,a,b) up to symmetry: a <= b, so 15 classes for values 0..=4.
    assert_eq!(v["canonical_count"], 15);
    let v = json(&["table", "CN(4,2)", "--max", "4", "--json", "--count-only"]);
    assert!(v.get("positions").is_none());
    let v = json(&[
        "table", "nim", "--max", "3", "--heaps", "2", "--json", "--misere",
    ]);
    // Misère two-heap Nim in 0..=3: P iff a = b >= 2, or {a,b} = {0,1}: (2,2),(3,3),(0,1),(1,0).
    assert_eq!(v["count"], 4);
    let v = json(&["table", "SCN(3,3)", "--max", "2", "--json"]);
    // SCN(3,3) is Nim-like on at most 3 piles with all moves allowed on all piles: only () is P.
    assert_eq!(v["count"], 1);
    assert_eq!(v["positions"], serde_json::json!([[]]));
}

#[test]
fn table_writes_files_whole() {
    let dir = TempDir::new("cli-files");
    let path = dir.file("cn42.json");
    ok(&["table", "CN(4,2)", "--max", "3", "--json", "-o", &path]);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(v["count"], 16);
    assert!(!dir.path().join("cn42.partial").exists());
}

#[test]
fn games_lists_every_family() {
    let text = ok(&["games"]);
    for name in ["nim", "moore(k)", "CN(n,k)", "SCN(n,k)"] {
        assert!(text.contains(name), "{name}");
    }
    let v = json(&["games", "--json"]);
    assert!(v.as_array().unwrap().len() >= 4);
}

#[test]
fn bad_input_gets_one_line_and_exit_2() {
    fails(&["outcome", "chess", "1,2"], "unknown game");
    fails(&["outcome", "CN(3,4)", "1,2,3"], "1 <= k <= n");
    fails(&["outcome", "CN(3,0)", "1,2,3"], "1 <= k <= n");
    fails(&["outcome", "CN(7,4)", "1,2,3"], "exactly 7 stacks");
    fails(&["outcome", "SCN(4,2)", "1,0,2"], "zero");
    fails(&["outcome", "CN(3,2)", "1,-2,3"], "negative");
    fails(
        &["outcome", "CN(3,2)", "1,a,3"],
        "not a non-negative integer",
    );
    fails(&["outcome", "CN(3,2)", "-1,2,3"], "negative");
    fails(&["moves", "CN(3)", "1,2,3"], "parameters");
    fails(&["table", "nim", "--max", "3"], "--heaps");
    fails(&["table", "CN(7,4)"], "--max");
    fails(&["outcome", "CN(3,2)"], "POSITION");
    fails(&["frobnicate"], "frobnicate");
}

#[test]
fn huge_searches_are_refused_up_front() {
    // CN(7,3) has no closed form: a search from 100^7 is refused.
    fails(
        &["outcome", "CN(7,3)", "100,100,100,100,100,100,100"],
        "--limit",
    );
    fails(&["table", "CN(7,4)", "--max", "40"], "--max");
    fails(
        &["moves", "SCN(6,4)", "90,90,90,90,90,90", "--misere"],
        "--limit",
    );
    // Closed forms answer huge positions at once.
    let v = json(&["outcome", "nim", "1000000000000000000,3,5", "--json"]);
    assert_eq!(v["outcome"], "N");
    let v = json(&[
        "outcome",
        "moore(2)",
        "1000000000000000000,1000000000000000000,1000000000000000000",
        "--json",
    ]);
    assert_eq!(v["outcome"], "P");
    assert_eq!(v["method"], "moore");
}

#[test]
fn sums_of_games() {
    // ET(2)(31,54) has Grundy value 6 (Ferguson's example), nim[5] has 5, CN(4,2)(1,1,1,1) is P (0):
    // 6 xor 5 = 3, so N, and the winning moves lower the Grundy value of a component by xor 3.
    let v = json(&[
        "moves",
        "ET(2)[31,54] + nim[5] + CN(4,2)[1,1,1,1]",
        "--json",
    ]);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["grundy"], 3);
    let detail = v["winning_moves_detail"].as_array().unwrap();
    assert!(!detail.is_empty());
    // A winning move lowers one component's value g to g xor 3: the Nim heap would have to grow
    // (5 -> 6) and the CN(4,2) value would have to rise (0 -> 3), so every winning move is in ET(2)
    // (6 -> 5).
    assert!(
        detail
            .iter()
            .all(|m| m["component"] == 1 && m["game"] == "ET(2)"),
        "{v}"
    );
    let comps = v["components"].as_array().unwrap();
    assert_eq!(comps[0]["grundy"], 6);
    assert_eq!(comps[1]["grundy"], 5);
    assert_eq!(comps[2]["grundy"], 0);
    // Misère sum of Nim heaps: Bouton's misère rule on all heaps; (1) + (1) + (1) is P.
    let v = json(&[
        "outcome",
        "nim[1] + nim[1] + CN(3,1)[1,0,0]",
        "--misere",
        "--json",
    ]);
    assert_eq!(v["outcome"], "P");
    // A sum takes no separate position argument.
    fails(&["outcome", "nim[1] + nim[2]", "3"], "brackets");
    fails(&["outcome", "nim[1] + chess[2]"], "unknown game");
}

#[test]
fn outcome_reports_remoteness_and_suspense() {
    // Nim (2,2) by hand: P; remoteness 4 (the loser prolongs via (1,2)), suspense 2.
    let v = json(&["outcome", "nim", "2,2", "--json"]);
    assert_eq!(v["remoteness"], 4);
    assert_eq!(v["suspense"], 2);
    // Too large to search by default: the keys are present and null.
    let v = json(&["outcome", "nim", "1000000000000000000,3,5", "--json"]);
    assert!(v["remoteness"].is_null() && v["suspense"].is_null());
}

#[test]
fn table_remoteness_columns() {
    // CN(4,2) in [0..2]^4, by hand: (0,1,0,1) is P and its options (one stack lowered: opposite stacks
    // share no window) are N at remoteness 1, so remoteness 1 + 1 = 2 and suspense 1 + 1 = 2.
    let v = json(&["table", "CN(4,2)", "--max", "2", "--remoteness", "--json"]);
    let ps = v["positions"].as_array().unwrap();
    let i = ps
        .iter()
        .position(|p| p == &serde_json::json!([0, 1, 0, 1]))
        .unwrap();
    assert_eq!(v["remoteness"][i], 2);
    assert_eq!(v["suspense"][i], 2);
    assert_eq!(v["remoteness"][0], 0);
}

/// `nimlab sequence`: proved and unproved periods, the JSON, and the refusals; octal and subtraction
/// games through the ordinary commands (a list of heaps is worth the XOR of its heaps' values).
#[test]
fn sequence_of_octal_and_subtraction_games() {
    let text = ok(&["sequence", "octal(0.07)", "--max", "200"]);
    assert!(
        text.contains(
            "period 34 from n = 53; last exceptional value at n = 52: proved periodic (Guy–Smith"
        ),
        "{text}"
    );
    let text = ok(&["sequence", "octal(0.07)", "--max", "170"]);
    assert!(
        text.contains("period seen in the computed prefix (evidence); a proof needs --max 175"),
        "{text}"
    );
    let v = json(&["sequence", "octal(0.77)", "--max", "200", "--json"]);
    assert_eq!(v["game"], "octal(0.77)");
    assert_eq!(v["name"], "Kayles");
    assert_eq!(v["values"].as_array().unwrap().len(), 201);
    assert_eq!(v["periodicity"]["period"], 12);
    assert_eq!(v["periodicity"]["preperiod"], 71);
    assert_eq!(v["periodicity"]["last_exceptional"], 70);
    assert_eq!(v["periodicity"]["status"], "proved");
    assert_eq!(v["periodicity"]["proof"], "guy-smith");
    let v = json(&["sequence", "subtraction(1,3,4)", "--max", "50", "--json"]);
    assert_eq!(v["periodicity"]["period"], 7);
    assert_eq!(v["periodicity"]["proof"], "window");
    assert_eq!(v["code"], "0.3033");
    // Lists of heaps through outcome, grundy, moves and table.
    let v = json(&["grundy", "octal(0.77)", "5,7,12", "--json"]);
    assert_eq!(v["grundy"], 2);
    let v = json(&["outcome", "octal(0.07)", "4,4", "--json"]);
    assert_eq!(v["outcome"], "P");
    // Kayles heap 5 (value 4): the one winning move knocks out the middle pin, leaving (2,2).
    let text = ok(&["moves", "octal(0.77)", "5"]);
    assert!(text.contains("(2,2)"), "{text}");
    let v = json(&[
        "table",
        "subtraction(1,2,3)",
        "--heaps",
        "2",
        "--max",
        "7",
        "--count-only",
        "--json",
    ]);
    // (a, b) in 0..=7 is P when a mod 4 = b mod 4: two choices of b for each a.
    assert_eq!(v["count"], 16, "{v}");
    // Refusals: one line, exit 2.
    fails(&["sequence", "octal(0.0G)", "--max", "10"], "past F");
    fails(&["sequence", "octal(1.7)", "--max", "10"], "0 or 4");
    fails(&["sequence", "octal(0.07)", "--max", "100000000000"], "MiB");
    fails(&["sequence", "octal(0.77)", "--max", "10000000"], "--limit");
    fails(&["sequence", "nim", "--max", "10"], "one-heap game");
    fails(&["sequence", "subtraction(0,2)"], "positive");
    fails(
        &["table", "octal(0.77)", "--heaps", "2", "--max", "5"],
        "nimlab sequence",
    );
}

/// `nimlab sequence` by the sparse-space method: Grundy's game and Officers by name and code, the
/// method reported, the rare values, the largest value, the plain method forced, hexadecimal codes,
/// and the refusals.
#[test]
fn sequence_by_the_sparse_space_method() {
    let text = ok(&["sequence", "grundy", "--max", "3000"]);
    assert!(text.contains("Grundy's game"), "{text}");
    assert!(text.contains("method: sparse space (mask 0b"), "{text}");
    assert!(
        text.contains("no period found up to n = 3000 (evidence)"),
        "{text}"
    );
    assert!(
        text.contains("0 0 0 1 0 2 1 0 2 1 0 2 1 3 2 1 3 2 4 3 0"),
        "{text}"
    );
    let v = json(&["sequence", "Grundy's game", "--max", "3000", "--json"]);
    assert_eq!(v["method"]["name"], "sparse");
    assert_eq!(v["rare"]["heaps"][5], serde_json::json!([6, 1]));
    assert!(v["largest"]["value"].as_u64().unwrap() > 4);
    let plain = json(&[
        "sequence", "grundy", "--max", "3000", "--json", "--method", "plain",
    ]);
    assert_eq!(plain["method"]["name"], "plain");
    assert_eq!(plain["values"], v["values"]);
    let masked = json(&[
        "sequence",
        "octal(0.6)",
        "--max",
        "3000",
        "--json",
        "--mask",
        "0b10",
    ]);
    assert_eq!(masked["method"]["mask"], 2);
    assert_eq!(masked["method"]["mask_given"], true);
    let plain = json(&[
        "sequence",
        "octal(0.6)",
        "--max",
        "3000",
        "--json",
        "--method",
        "plain",
    ]);
    assert_eq!(plain["values"], masked["values"]);
    // Kayles: ten rare values for the mask chosen, the last at the last exceptional value.
    let v = json(&["sequence", "octal(0.77)", "--max", "300", "--json"]);
    assert_eq!(v["rare"]["last"], 70);
    assert_eq!(v["periodicity"]["last_exceptional"], 70);
    // Hexadecimal codes by the plain mex; three heaps proved with the longer check.
    let v = json(&["sequence", "octal(0.F)", "--max", "60", "--json"]);
    assert_eq!(v["method"]["name"], "plain");
    assert_eq!(v["periodicity"]["status"], "proved");
    // Lists of heaps of Grundy's game.
    let v = json(&["grundy", "grundy", "5,6", "--json"]);
    assert_eq!(v["grundy"], 3);
    let v = json(&["outcome", "grundy", "4,7", "--json"]);
    assert_eq!(v["outcome"], "P");
    let text = ok(&["moves", "grundy", "5"]);
    assert!(text.contains("(1,4)") || text.contains("(4,1)"), "{text}");
    fails(&["sequence", "octal(0.33)", "--method", "sparse"], "never");
    fails(&["sequence", "octal(0.F)", "--method", "sparse"], "three");
    fails(
        &["sequence", "grundy", "--method", "fast"],
        "plain, sparse or auto",
    );
    fails(&["sequence", "grundy", "--mask", "x"], "--mask");
    fails(
        &["sequence", "octal(0.33)", "--mask", "3"],
        "--mask is for the sparse-space method",
    );
}

#[test]
fn shell_completions() {
    let bash = ok(&["completions", "bash"]);
    for word in ["table", "prove", "discover", "--max"] {
        assert!(bash.contains(word), "the bash script should offer {word}");
    }
    // bash itself reads the script without a syntax error, where bash is installed.
    if let Some(bash_bin) = common::which("bash") {
        let dir = TempDir::new("completions");
        let script = dir.write("nimlab.bash", &bash);
        let out = std::process::Command::new(bash_bin)
            .arg("-n")
            .arg(&script)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "bash -n: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    } else {
        eprintln!("no bash on PATH: the syntax check of the script is skipped");
    }
    assert!(ok(&["completions", "zsh"]).starts_with("#compdef nimlab"));
    assert!(ok(&["completions", "fish"]).contains("complete -c nimlab"));
    fails(&["completions", "tcsh"], "tcsh");
    fails(&["completions"], "SHELL");
}

#[test]
fn man_pages() {
    let page = ok(&["man"]);
    // The title line comes first, after roff's definition of the apostrophe string (.ie/.el).
    let first = page
        .lines()
        .find(|l| !l.starts_with(".ie") && !l.starts_with(".el"));
    assert!(
        first.is_some_and(|l| l.starts_with(".TH nimlab 1")),
        "{first:?}"
    );
    for sub in ["table", "prove", "discover", "completions", "man"] {
        assert!(
            page.contains(&format!("nimlab\\-{sub}(1)")),
            "the man page should name {sub}"
        );
    }
    // Each command's own page, as the main page refers to it.
    let table = ok(&["man", "table"]);
    assert!(table.contains(".TH nimlab-table 1"), "{table}");
    assert!(table.contains("\\-\\-max"));
    assert!(ok(&["man", "store", "list"]).contains(".TH nimlab-store-list 1"));
    fails(&["man", "frobnicate"], "frobnicate");
    fails(&["man", "store", "frob"], "store frob");
}
