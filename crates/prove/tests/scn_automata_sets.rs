//! SCN sets given as one automaton per circle length (`prove_scn_members`, the SCN file format of
//! `walnut`): the automata of a proved families file prove again; Nim's automata prove SCN(n,1)
//! (k = 1 never sees the circle); wrong sets (a length swapped for another game's, one state's
//! acceptance flipped, the empty circle on the wrong side) are refuted with counterexamples checked
//! here against the game's own moves; sets that are not sets of circles, and bad files, are refused
//! in one line. Needs no solver.

use nimlab_core::{Play, Pos};
use nimlab_prove::automata::{scn_sets, Budget, Dfa};
use nimlab_prove::{from_theorem, prove_scn_members, walnut, Condition, Report, Ruleset, Status};
use std::time::{Duration, Instant};

fn budget() -> Budget {
    Budget::new(Instant::now() + Duration::from_secs(120), 1 << 22)
}

/// Nim's automaton on `len` inputs in Walnut's format: one state, the letters of even parity.
fn nim_text(len: usize, accept: bool) -> String {
    let mut t = vec!["msd_2"; len].join(" ");
    t.push_str(&format!("\n0 {}\n", accept as u8));
    for l in 0..1u32 << len {
        if l.count_ones() % 2 == 0 {
            let digits: Vec<String> = (0..len).map(|i| ((l >> i) & 1).to_string()).collect();
            t.push_str(&format!("{} -> 0\n", digits.join(" ")));
        }
    }
    t
}

fn nim(len: usize) -> Dfa {
    walnut::from_walnut(&nim_text(len, true), len).unwrap()
}

fn prove(game: &str, sets: &[Dfa], empty: bool, play: Play) -> Report {
    let rules = Ruleset::parse(game).unwrap();
    prove_scn_members(&rules, sets, empty, play, Duration::from_secs(120)).unwrap()
}

/// The one refuted condition, its counterexample checked against the game's moves and `contains`
/// (membership of the wrong set): (I) a member moving to a member, (II) a non-member, not terminal,
/// with no option in the set, (III) a terminal position on the wrong side.
fn refuted(game: &str, r: &Report, play: Play, contains: &dyn Fn(&[u64]) -> bool) -> Condition {
    assert_eq!(r.verdict, Status::Refuted, "{game}: {:?}", r.to_json());
    let c = r
        .conditions
        .iter()
        .find(|c| c.status == Status::Refuted)
        .unwrap();
    let cx = c.counterexample.as_ref().expect("a counterexample");
    let g = Ruleset::parse(game).unwrap().game();
    let x = &cx.position;
    let options: Vec<Pos> = g.options(x).unwrap();
    match c.condition {
        Condition::I => {
            let y = cx.move_to.as_ref().unwrap();
            assert!(contains(x) && contains(y), "{game}: {x:?} -> {y:?}");
            assert!(
                options.contains(y),
                "{game}: {y:?} is not an option of {x:?}"
            );
        }
        Condition::II => {
            assert!(!contains(x) && !options.is_empty(), "{game}: {x:?}");
            assert!(!options.iter().any(|y| contains(y)), "{game}: {x:?}");
        }
        Condition::III => {
            assert!(options.is_empty(), "{game}: {x:?}");
            assert_eq!(contains(x), play == Play::Misere, "{game}: {x:?}");
        }
        Condition::Search | Condition::Closure => panic!("no search or subset condition here"),
    }
    c.condition
}

fn member(sets: &[Dfa], empty: bool) -> impl Fn(&[u64]) -> bool + '_ {
    move |p: &[u64]| {
        if p.is_empty() {
            return empty;
        }
        let v: Vec<u128> = p.iter().map(|&x| x as u128).collect();
        p.iter().all(|&x| x > 0) && sets[p.len() - 1].accepts(&v)
    }
}

#[test]
fn families_automata_prove_again_and_a_swapped_length_is_refuted() {
    for (id, game) in [("scn-4-2", "SCN(4,2)"), ("scn-5-3", "SCN(5,3)")] {
        let c = from_theorem(id, Ruleset::parse(game).unwrap()).unwrap();
        let s = scn_sets(&c, &budget()).unwrap();
        let empty = s[0].accepts(&[]);
        let r = prove(game, &s[1..], empty, Play::Normal);
        assert_eq!(r.verdict, Status::Proved, "{id}: {:?}", r.to_json());
        assert_eq!(r.method, "automata");
    }
    // SCN(4,2) with the circles of 3 piles read as Nim's.
    let c = from_theorem("scn-4-2", Ruleset::parse("SCN(4,2)").unwrap()).unwrap();
    let mut s = scn_sets(&c, &budget()).unwrap()[1..].to_vec();
    s[2] = nim(3);
    let r = prove("SCN(4,2)", &s, true, Play::Normal);
    refuted("SCN(4,2)", &r, Play::Normal, &member(&s, true));
}

#[test]
fn nim_automata_prove_scn_n1_and_wrong_ones_are_refuted() {
    for n in 1..=5 {
        let game = format!("SCN({n},1)");
        let s: Vec<Dfa> = (1..=n).map(nim).collect();
        let r = prove(&game, &s, true, Play::Normal);
        assert_eq!(r.verdict, Status::Proved, "{game}: {:?}", r.to_json());
        // The same automata in misère play: the empty circle is on the wrong side (III), and the
        // circles of all ones are misplaced ((I) or (II)).
        let r = prove(&game, &s, true, Play::Misere);
        assert_eq!(r.verdict, Status::Refuted, "{game}");
        let r = prove(&game, &s, false, Play::Normal);
        refuted(&game, &r, Play::Normal, &member(&s, false));
    }
    // One state's acceptance flipped: Nim's only state rejecting at one length, or the dead state
    // accepting (the file's state 1 with every letter of odd parity).
    for (n, len) in [(3, 3), (4, 2), (4, 4)] {
        let game = format!("SCN({n},1)");
        let mut s: Vec<Dfa> = (1..=n).map(nim).collect();
        s[len - 1] = walnut::from_walnut(&nim_text(len, false), len).unwrap();
        let r = prove(&game, &s, true, Play::Normal);
        assert_eq!(
            refuted(&game, &r, Play::Normal, &member(&s, true)),
            Condition::II
        );
        // State 1 (Walnut's dead state made accepting): reached by any letter of odd parity.
        let mut dead = nim_text(len, true);
        for l in 0..1u32 << len {
            if l.count_ones() % 2 == 1 {
                let d: Vec<String> = (0..len).map(|i| ((l >> i) & 1).to_string()).collect();
                dead.push_str(&format!("{} -> 1\n", d.join(" ")));
            }
        }
        dead.push_str(&format!("1 1\n{} -> 1\n", vec!["*"; len].join(" ")));
        s[len - 1] = walnut::from_walnut(&dead, len).unwrap();
        let r = prove(&game, &s, true, Play::Normal);
        assert_eq!(
            refuted(&game, &r, Play::Normal, &member(&s, true)),
            Condition::I
        );
    }
}

#[test]
fn sets_that_are_not_circles_or_do_not_fit_are_refused_in_one_line() {
    let rules = Ruleset::parse("SCN(3,1)").unwrap();
    let t = Duration::from_secs(60);
    let mut s: Vec<Dfa> = (1..=3).map(nim).collect();
    // "pile 0 at most pile 1" on circles of 2: not invariant under rotation.
    s[1] = walnut::from_walnut(
        "msd_2 msd_2\n0 1\n0 0 -> 0\n1 1 -> 0\n0 1 -> 1\n1 1\n* * -> 1\n",
        2,
    )
    .unwrap();
    let e = prove_scn_members(&rules, &s, true, Play::Normal, t)
        .unwrap_err()
        .to_string();
    assert!(e.contains("not a set of circles"), "{e}");
    assert!(!e.contains('\n'), "{e}");
    // Too few automata, one with the wrong inputs, a game of one length.
    let e = prove_scn_members(&rules, &s[..2], true, Play::Normal, t)
        .unwrap_err()
        .to_string();
    assert!(e.contains("2 automata given"), "{e}");
    let e = prove_scn_members(&rules, &[nim(1), nim(3), nim(3)], true, Play::Normal, t)
        .unwrap_err()
        .to_string();
    assert!(e.contains("reads 3 inputs"), "{e}");
    let cn = Ruleset::parse("CN(3,1)").unwrap();
    let e = prove_scn_members(&cn, &[nim(1), nim(2), nim(3)], true, Play::Normal, t)
        .unwrap_err()
        .to_string();
    assert!(e.contains("one length"), "{e}");
}

#[test]
fn scn_file_round_trips_and_bad_files_name_the_line() {
    let s: Vec<Dfa> = (1..=3).map(nim).collect();
    let text = walnut::scn_to_walnut(true, &s);
    let (empty, back) = walnut::scn_from_walnut(&text, 3).unwrap();
    assert!(empty);
    for (a, b) in s.iter().zip(&back) {
        assert!(a.differs_from(b).is_none());
    }
    let good = format!("# a comment\n\n{text}");
    assert!(walnut::scn_from_walnut(&good, 3).is_ok());
    let line_of = |needle: &str| good.lines().position(|l| l == needle).unwrap() + 1;
    let cases: Vec<(String, String)> = vec![
        (
            text.replace("# length 2\n", ""),
            "no section `# length 2`".into(),
        ),
        (format!("stray\n{text}"), "line 1".into()),
        (text.replace("# length 3", "# length 4"), "line".into()),
        (
            format!("{text}# length 1\nfalse\n"),
            "second section".into(),
        ),
        (text.replacen("true", "maybe", 1), "line 2".into()),
        (
            good.replacen("0 1 1 -> 0", "0 1 2 -> 0", 1),
            format!("line {}", line_of("0 1 1 -> 0")),
        ),
    ];
    for (bad, want) in cases {
        let e = walnut::scn_from_walnut(&bad, 3).unwrap_err().to_string();
        assert!(e.contains(&want), "{bad:?}: {e}");
        assert!(!e.contains('\n'), "{e}");
    }
}
