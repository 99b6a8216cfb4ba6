//! verify, scripted games and predicates, against independent checks written here.

use nimlab_core::table::{tabulate, TableRun};
use nimlab_core::{Game, Play, Pos};
use nimlab_games::parse_game;
use nimlab_research::conjecture::ScriptPredicate;
use nimlab_research::domain::{positions, Bound};
use nimlab_research::verify::{verify, Condition, VerifyReport};
use std::path::PathBuf;

fn script(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("nimlab-research-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p: PathBuf = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().to_string()
}

fn theorem_report(game: &str, id: &str, bound: Bound, play: Play) -> VerifyReport {
    let g = parse_game(game).unwrap();
    let t = nimlab_theory::by_id(id).unwrap_or_else(|| panic!("{id}"));
    let ps = positions(g.as_ref(), bound).unwrap();
    verify(
        g.as_ref(),
        &ps,
        &mut |p| Ok(t.decide(g.as_ref(), p).map(|v| v.is_p)),
        play,
        3,
    )
    .unwrap()
}

#[test]
fn known_theorems_verify_true() {
    let b = |max| Bound {
        max: Some(max),
        ..Default::default()
    };
    for (game, id, bound, play) in [
        ("CN(4,2)", "cn-4-2", b(8), Play::Normal),
        ("CN(5,1)", "bouton", b(5), Play::Normal),
        ("CN(5,1)", "bouton-misere", b(5), Play::Misere),
        (
            "nim",
            "bouton",
            Bound {
                max: Some(7),
                heaps: Some(3),
                ..Default::default()
            },
            Play::Normal,
        ),
        (
            "moore(2)",
            "moore",
            Bound {
                max: Some(5),
                heaps: Some(4),
                ..Default::default()
            },
            Play::Normal,
        ),
        ("CN(6,5)", "cn-n-n-1", b(4), Play::Normal),
        (
            "ET(3)",
            "ferguson-et-k3",
            Bound {
                max_sum: Some(30),
                ..Default::default()
            },
            Play::Normal,
        ),
        (
            "EABO(3)",
            "ferguson-eabo-misere",
            Bound {
                max_sum: Some(30),
                ..Default::default()
            },
            Play::Misere,
        ),
    ] {
        let r = theorem_report(game, id, bound, play);
        assert!(r.holds(), "{game} {id}: {:?}", r.examples);
        assert!(
            !r.by_search && r.positions >= 100 && r.members > 0,
            "{game} {id}: {r:?}"
        );
    }
    // A partial result is compared with search instead.
    let r = theorem_report("CN(5,3)", "cn-lemma5-s1", b(5), Play::Normal);
    assert!(r.holds() && r.by_search && r.undecided > 0);
}

/// Checks each counterexample against the definitions, independently of `verify`.
fn check_witnesses(game: &dyn Game, r: &VerifyReport, is_p: &dyn Fn(&[u64]) -> bool, play: Play) {
    assert!(!r.holds());
    assert!(!r.examples.is_empty());
    for c in &r.examples {
        let opts = game.options(&c.position).unwrap();
        match c.condition {
            Condition::I => {
                let q = c.move_to.as_ref().unwrap();
                assert!(is_p(&c.position) && is_p(q) && opts.contains(q), "{c:?}");
            }
            Condition::II => {
                assert!(!is_p(&c.position) && !opts.is_empty(), "{c:?}");
                assert!(opts.iter().all(|q| !is_p(q)), "{c:?}");
            }
            Condition::III => {
                assert!(opts.is_empty());
                assert_eq!(is_p(&c.position), play == Play::Misere, "{c:?}");
            }
            Condition::Search | Condition::Closure => unreachable!(),
        }
    }
}

#[test]
fn planted_false_conjectures_fail_with_correct_witnesses() {
    // CN(4,2): "a1 = a3" alone is too big a set: moves inside it exist, e.g. (0,0,0,1) -> (0,0,0,0).
    let path = script("cn42.rhai", "fn is_p(p) { p[0] == p[2] }");
    let pred = ScriptPredicate::load(&path).unwrap();
    let g = parse_game("CN(4,2)").unwrap();
    let ps = positions(
        g.as_ref(),
        Bound {
            max: Some(5),
            ..Default::default()
        },
    )
    .unwrap();
    let r = verify(
        g.as_ref(),
        &ps,
        &mut |p| pred.is_p(p).map(Some),
        Play::Normal,
        3,
    )
    .unwrap();
    check_witnesses(g.as_ref(), &r, &|p| p[0] == p[2], Play::Normal);
    assert!(r.violations.get(&Condition::I).copied().unwrap_or(0) > 0);

    // E&T with three boxes: "all boxes odd" (Prop. 1) is only part of the P-set: (2,2,2) is P and has no
    // move into the all-odd positions, a (II) counterexample.
    let path = script("et3.rhai", "fn is_p(p) { p.all(|x| x % 2 == 1) }");
    let pred = ScriptPredicate::load(&path).unwrap();
    let g = parse_game("ET(3)").unwrap();
    let ps = positions(
        g.as_ref(),
        Bound {
            max_sum: Some(18),
            ..Default::default()
        },
    )
    .unwrap();
    let r = verify(
        g.as_ref(),
        &ps,
        &mut |p| pred.is_p(p).map(Some),
        Play::Normal,
        5,
    )
    .unwrap();
    check_witnesses(
        g.as_ref(),
        &r,
        &|p: &[u64]| p.iter().all(|x| x % 2 == 1),
        Play::Normal,
    );
    assert!(r.violations.get(&Condition::II).copied().unwrap_or(0) > 0);

    // Misère Nim with the normal-play rule: the terminal position is in the set, a (III) violation.
    let path = script("nim.rhai", "fn is_p(p) { (p[0] ^ p[1] ^ p[2]) == 0 }");
    let pred = ScriptPredicate::load(&path).unwrap();
    let g = parse_game("nim").unwrap();
    let ps = positions(
        g.as_ref(),
        Bound {
            max: Some(4),
            heaps: Some(3),
            ..Default::default()
        },
    )
    .unwrap();
    let r = verify(
        g.as_ref(),
        &ps,
        &mut |p| pred.is_p(p).map(Some),
        Play::Misere,
        5,
    )
    .unwrap();
    check_witnesses(
        g.as_ref(),
        &r,
        &|p: &[u64]| p[0] ^ p[1] ^ p[2] == 0,
        Play::Misere,
    );
    assert!(r.violations.get(&Condition::III).copied().unwrap_or(0) > 0);
}

#[test]
fn scripted_cn52_has_the_tables_of_the_built_in_game() {
    let path = format!("{}/../../examples/cn52.rhai", env!("CARGO_MANIFEST_DIR"));
    let scripted = parse_game(&path).unwrap();
    let builtin = parse_game("CN(5,2)").unwrap();
    for play in [Play::Normal, Play::Misere] {
        let run = TableRun {
            play,
            keep_positions: true,
            hooks: Default::default(),
        };
        let a = tabulate(
            scripted.as_ref(),
            &scripted.table_domain(4, Some(5)).unwrap(),
            &run,
        )
        .unwrap();
        let b = tabulate(
            builtin.as_ref(),
            &builtin.table_domain(4, None).unwrap(),
            &run,
        )
        .unwrap();
        assert_eq!(
            (a.count, a.canonical_count),
            (b.count, b.canonical_count),
            "{play}"
        );
        assert_eq!(a.positions, b.positions, "{play}");
    }
}

#[test]
fn bad_scripts_give_clear_errors() {
    let cases: Vec<(&str, &str, &str)> = vec![
        ("syntax.rhai", "fn options(p) {\n  let x = ;\n}", ":2:"),
        (
            "missing.rhai",
            "fn moves(p) { [] }",
            "must define fn options",
        ),
        (
            "runtime.rhai",
            "fn options(p) {\n  [[p[0] - 1, nosuch(2)]]\n}",
            ":2:",
        ),
        ("loop.rhai", "fn options(p) { loop { } }", "operations"),
        (
            "memory.rhai",
            "fn options(p) { let a = [1]; loop { a += a; } }",
            "limit",
        ),
        ("badtype.rhai", "fn options(p) { 42 }", "array"),
        ("negative.rhai", "fn options(p) { [[-1]] }", "non-negative"),
    ];
    for (name, text, needle) in cases {
        let path = script(name, text);
        let msg = match parse_game(&path) {
            Err(e) => e.to_string(),
            // A runtime error is an error of the option generator.
            Ok(g) => match g.options(&[3]) {
                Err(e) => e.to_string(),
                Ok(_) => panic!("{name}: no failure reported"),
            },
        };
        assert!(msg.contains(needle), "{name}: {msg}");
        assert!(!msg.contains('\n'), "{name}: one line: {msg}");
    }
    let path = script("notbool.rhai", "fn is_p(p) { 1 }");
    let e = ScriptPredicate::load(&path)
        .unwrap()
        .is_p(&[1])
        .unwrap_err()
        .to_string();
    assert!(e.contains("not a bool"), "{e}");
}

#[test]
fn domain_positions_cover_the_box() {
    let g = parse_game("SCN(3,2)").unwrap();
    let ps: Vec<Pos> = positions(
        g.as_ref(),
        Bound {
            max: Some(3),
            ..Default::default()
        },
    )
    .unwrap();
    // Circles of 0..=3 piles in 1..=3: 1 + 3 + 9 + 27.
    assert_eq!(ps.len(), 40);
}
