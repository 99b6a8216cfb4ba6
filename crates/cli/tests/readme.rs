//! The examples of the README and of the guide (docs/guide.md), pasted as written, print what their
//! comments say. Every `nimlab ...` line of their `sh` blocks is run (except `play` and `serve`,
//! which wait for a person), in a fresh
//! folder with a fresh store, and must succeed (or exit 1 where its comment says so). Where the
//! comment states a value, the output must show it:
//!
//! - a leading `P` or `N` (or `why P`/`why N`): the outcome;
//! - a leading number (`30, by search`, `49 = ...`, `6 (...)`): that number;
//! - `Grundy value V`, `Grundy values a, b, c XOR to d`: those numbers;
//! - `(method ID)`, `by search`, `by exhaustive search`, `by the tables engine`: the method;
//! - `-> A, B, C`, `the move to (X)`, `lands in S4`, `family S1`: those moves and families;
//! - `"key":value` fragments: the same fragment in the JSON;
//! - `HOLDS`, `FAILS`: that word.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One example: the README line, its arguments after `nimlab`, and its comment.
struct Example {
    line: String,
    args: Vec<String>,
    comment: String,
}

/// Splits a shell command line into words: single and double quotes, no expansions (the README's
/// examples need no more). The comment starts at a `#` that follows a space outside quotes.
fn split(line: &str) -> (Vec<String>, String) {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => cur.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                in_word = true;
            }
            None if c == '#' && (i == 0 || chars[i - 1].is_whitespace()) => {
                let comment: String = chars[i + 1..].iter().collect();
                if in_word {
                    words.push(cur);
                }
                return (words, comment.trim().to_string());
            }
            None if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            None => {
                cur.push(c);
                in_word = true;
            }
        }
        i += 1;
    }
    if in_word {
        words.push(cur);
    }
    (words, String::new())
}

/// The examples of the README, then of the guide.
fn examples() -> Vec<Example> {
    let mut text = String::new();
    for file in ["README.md", "docs/guide.md"] {
        text += &std::fs::read_to_string(repo_root().join(file)).unwrap();
        text.push('\n');
    }
    let mut out = Vec::new();
    let mut in_sh = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_sh = !in_sh && line.trim() == "```sh";
            continue;
        }
        if !in_sh || !line.starts_with("nimlab ") {
            continue;
        }
        let (words, comment) = split(line);
        out.push(Example {
            line: line.to_string(),
            args: words[1..].to_vec(),
            comment,
        });
    }
    out
}

/// The whole words of `text` (letters, digits, `^`, `.`, `-` kept inside a word).
fn has_word(text: &str, word: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '^' || c == '.' || c == '-'))
        .any(|w| w == word || w.trim_end_matches('.') == word)
}

/// The leading number of `s`, if it starts with one.
fn leading_number(s: &str) -> Option<&str> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    (end > 0).then(|| &s[..end])
}

/// The claims a comment makes, each as (what, the text the output must contain as a word or
/// fragment).
fn claims(comment: &str) -> Vec<(String, Check)> {
    let mut out = Vec::new();
    let c = comment.trim_start_matches("... ").trim();
    let lead = c.strip_prefix("why ").unwrap_or(c);
    for o in ['P', 'N'] {
        let mut rest = lead.chars();
        if rest.next() == Some(o) && rest.next().is_none_or(|ch| " ,:".contains(ch)) {
            out.push((format!("outcome {o}"), Check::Outcome(o)));
        }
    }
    if let Some(n) = leading_number(c) {
        // "268 million positions in 0.5-1.5 s" is a speed, measured in benchmarks, not here.
        if !c.contains("million") {
            out.push((format!("the number {n}"), Check::Word(n.to_string())));
        }
    }
    if let Some(r) = c.split("Grundy value ").nth(1) {
        if let Some(n) = leading_number(r) {
            out.push((format!("Grundy value {n}"), Check::Word(n.to_string())));
        }
    }
    if let Some(r) = c.split("Grundy values ").nth(1) {
        for n in r
            .split(|ch: char| !ch.is_ascii_digit())
            .filter(|w| !w.is_empty())
        {
            out.push((format!("Grundy value {n}"), Check::Word(n.to_string())));
        }
    }
    if let Some(r) = c.split("(method ").nth(1) {
        let id = r.split(')').next().unwrap();
        out.push((format!("method {id}"), Check::Fragment(id.to_string())));
    }
    if c.contains("by search") || c.contains("by exhaustive search") {
        out.push(("method search".into(), Check::Fragment("search".into())));
    }
    if c.contains("by the tables engine") {
        out.push((
            "method engine".into(),
            Check::Fragment("tables engine".into()),
        ));
    }
    if let Some(r) = c.split("-> ").nth(1) {
        for m in r.split(", ") {
            out.push((format!("the move to {m}"), Check::Fragment(m.to_string())));
        }
    }
    if let Some(r) = c.split("the move to ").nth(1) {
        let m = r.split(' ').next().unwrap();
        out.push((format!("the move to {m}"), Check::Fragment(m.to_string())));
    }
    for key in ["lands in ", "family "] {
        if let Some(r) = c.split(key).nth(1) {
            let f = r.split([' ', ',']).next().unwrap();
            out.push((format!("family {f}"), Check::Word(f.to_string())));
        }
    }
    for piece in c.split(['"']).collect::<Vec<_>>().windows(2) {
        // `"key":value`: the piece after a closing quote starts with ':'.
        if let Some(v) = piece[1].strip_prefix(':') {
            let v = v.split([',', ' ']).next().unwrap();
            let frag = format!("\"{}\":{v}", piece[0]);
            out.push((frag.clone(), Check::Fragment(frag)));
        }
    }
    for word in ["HOLDS", "FAILS"] {
        if has_word(c, word) {
            out.push((word.into(), Check::Word(word.into())));
        }
    }
    out
}

enum Check {
    /// P or N, in text (`: P —`) or JSON (`"outcome":"P"`).
    Outcome(char),
    Word(String),
    Fragment(String),
}

impl Check {
    fn holds(&self, out: &str) -> bool {
        match self {
            Check::Outcome(o) => {
                out.contains(&format!("): {o} — "))
                    || out.contains(&format!("\"outcome\":\"{o}\""))
                    || out.contains(&format!("{o}: "))
            }
            Check::Word(w) => has_word(out, w),
            Check::Fragment(f) => out.contains(f.as_str()),
        }
    }
}

#[test]
fn readme_examples_print_what_their_comments_say() {
    let dir = common::TempDir::new("readme");
    // The examples name files relative to the repository (examples/...).
    std::os::unix::fs::symlink(repo_root().join("examples"), dir.path().join("examples")).unwrap();
    let db = dir.db();
    let all = examples();
    assert!(all.len() >= 30, "only {} examples found", all.len());
    let mut checked = 0;
    for ex in all {
        if matches!(ex.args[0].as_str(), "play" | "serve") {
            continue; // they wait for a person (their own tests drive them)
        }
        let out: Output = common::cmd()
            .args(&ex.args)
            .current_dir(dir.path())
            .env("NIMLAB_DB", &db)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let want_status = if ex.comment.contains("exit 1") { 1 } else { 0 };
        assert_eq!(
            out.status.code(),
            Some(want_status),
            "{}\n{stdout}{stderr}",
            ex.line
        );
        for (what, check) in claims(&ex.comment) {
            assert!(
                check.holds(&stdout),
                "{}\nthe comment says {what}, the output:\n{stdout}",
                ex.line
            );
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} claims checked");
}

#[test]
fn the_comment_reader_finds_claims() {
    let kinds = |c: &str| -> Vec<String> { claims(c).into_iter().map(|(w, _)| w).collect() };
    assert_eq!(
        kinds("N, by Theorem 2 of the CN(7,4) paper (method cn-7-4)"),
        ["outcome N", "method cn-7-4"]
    );
    assert_eq!(
        kinds("30, by search (a few seconds)"),
        ["the number 30", "method search"]
    );
    assert_eq!(
        kinds("a sum: Grundy values 28, 6, 5 XOR to 31"),
        [
            "Grundy value 28",
            "Grundy value 6",
            "Grundy value 5",
            "Grundy value 31"
        ]
    );
    assert_eq!(
        kinds("... \"remoteness\":4,\"suspense\":2"),
        ["\"remoteness\":4", "\"suspense\":2"]
    );
    assert_eq!(
        kinds("why N: the move to (1,7,1,6,2,2,6) lands in S4"),
        ["outcome N", "the move to (1,7,1,6,2,2,6)", "family S4"]
    );
    assert_eq!(
        kinds("268 million positions in 0.5-1.5 s on 2 cores"),
        Vec::<String>::new()
    );
    let (w, c) = split("nimlab moves 'ER(7)' '1^5 2 10'   # x -> 1^7");
    assert_eq!(w, ["nimlab", "moves", "ER(7)", "1^5 2 10"]);
    assert_eq!(c, "x -> 1^7");
}
