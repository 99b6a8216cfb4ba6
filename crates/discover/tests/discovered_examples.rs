//! Every characterization under examples/discovered/ (written by `nimlab discover`; the research
//! section of docs/findings.md lists them) is proved again here for every stack size: families files
//! by the SMT prover, automata (Walnut's format) by the automata prover; misère ones (under
//! `misere/`, and saying so in their header) in misère play.

mod common;

use common::have_z3;
use nimlab_core::Play;
use nimlab_prove::{prove_members, walnut, Ruleset, SmtSolver, Status};
use std::path::Path;
use std::time::Duration;

/// The game named by a file's first line: `# GAME: ...`.
fn game_of(text: &str) -> String {
    let first = text.lines().next().unwrap_or_default();
    let rest = first.strip_prefix("# ").expect("a header line");
    rest[..rest.find(": ").expect("GAME: ...")].to_string()
}

#[test]
fn every_discovered_file_is_proved() {
    if !have_z3("every_discovered_file_is_proved") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/discovered");
    let mut files = Vec::new();
    for dir in [root.clone(), root.join("misere")] {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_file() {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 20, "{} files", files.len());
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let misere = text.lines().take(3).any(|l| l.contains("isère"));
        let play = if misere { Play::Misere } else { Play::Normal };
        assert_eq!(
            misere,
            f.parent().unwrap().ends_with("misere"),
            "{}: misère files live in misere/",
            f.display()
        );
        let game = game_of(&text);
        let verdict = if f.extension().is_some_and(|x| x == "toml") {
            let mut c = nimlab_prove::from_toml(&text, &f.display().to_string()).unwrap();
            assert_eq!(c.game.id(), game, "{}", f.display());
            c.play = play;
            let solver = SmtSolver {
                path: "z3".into(),
                timeout: Duration::from_secs(120),
                deadline: None,
            };
            nimlab_prove::prove(&c, &solver).unwrap().verdict
        } else {
            let rules = Ruleset::parse(&game).unwrap();
            let dfa = walnut::from_walnut(&text, rules.n).unwrap();
            prove_members(&rules, &dfa, play, Duration::from_secs(120))
                .unwrap()
                .verdict
        };
        assert_eq!(verdict, Status::Proved, "{}", f.display());
    }
}
