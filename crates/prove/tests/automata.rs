//! The automata prover (`prove --automata`): its set automata equal exact membership on whole boxes,
//! it proves the registry's results for every size (xor included: Bouton's Nim and CN(6,4)), it
//! refutes deliberately wrong variants with counterexamples that check out, and on families drawn at
//! random its verdicts agree with an exhaustive check of the partition theorem's conditions on a box.
//! Needs no solver.

mod common;
use common::{mutate, Wrong};

use nimlab_core::Pos;
use nimlab_prove::automata::{members, Budget};
use nimlab_prove::{
    from_theorem, from_toml, prove_automata, Condition, Conjecture, Ruleset, Status,
};
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

fn budget() -> Budget {
    Budget {
        deadline: Instant::now() + Duration::from_secs(120),
        max_states: 1 << 22,
        cancel: None,
        interrupt: None,
    }
}

fn theorem(id: &str, game: &str) -> Conjecture {
    from_theorem(id, Ruleset::parse(game).unwrap()).unwrap()
}

/// Every tuple of `m` entries in `0..=hi`.
fn boxed(m: usize, hi: u64) -> Vec<Pos> {
    common::vectors(m, 0, hi)
}

/// The set automaton accepts exactly the tuples the exact membership test accepts, on a box.
fn same_members(c: &Conjecture, hi: u64) -> usize {
    let m = c.game.n;
    let d = members(c, m, &budget()).unwrap();
    let mut inside = 0;
    for p in boxed(m, hi) {
        let v: Vec<u128> = p.iter().map(|&x| x as u128).collect();
        let want = c.contains(&p);
        inside += want as usize;
        assert_eq!(d.accepts(&v), want, "{}: {p:?}", c.source);
    }
    inside
}

const MIXED: &str = r#"
game = "CN(4,2)"
reading = "any"
[[family]]
name = "xor of sums"
relations = ["xor(a + b, c) = d", "min(a, b) <= c"]
[[family]]
name = "residues"
relations = ["mod(a - 2b, 3) = 1", "max(c, d) < a + 2", "b != 2"]
"#;

#[test]
fn set_automata_equal_exact_membership() {
    // Tens of thousands of tuples each; every reading rule, min/max, mod, xor of sums.
    let cases: Vec<(Conjecture, u64)> = vec![
        (theorem("bouton", "CN(3,1)"), 31),
        (theorem("bouton", "CN(5,1)"), 7),
        (theorem("cn-6-4", "CN(6,4)"), 5),
        (theorem("cn-7-4", "CN(7,4)"), 4),
        (theorem("cn-5-3", "CN(5,3)"), 8),
        (theorem("cn-8-6", "CN(8,6)"), 3),
        (from_toml(MIXED, "mixed").unwrap(), 14),
    ];
    for (c, hi) in cases {
        let inside = same_members(&c, hi);
        assert!(inside > 0, "{}: no member in the box", c.source);
    }
}

/// Proves `id` on `game` with automata, then refutes each wrong variant with a counterexample that
/// checks out against the game and the registry's verdicts.
fn check(game: &str, id: &str, wrong: &[Wrong]) {
    let c = theorem(id, game);
    let r = prove_automata(&c, Duration::from_secs(120)).unwrap();
    assert_eq!(r.verdict, Status::Proved, "{id} on {game}: {r:?}");
    assert_eq!(r.range(), "all");
    assert_eq!(r.to_json()["method"], "automata");
    for w in wrong {
        let (bad, cond) = mutate(&c, w);
        let r = prove_automata(&bad, Duration::from_secs(120)).unwrap();
        let got = r.conditions.iter().find(|x| x.condition == cond).unwrap();
        assert_eq!(got.status, Status::Refuted, "{id} on {game}: {r:?}");
        common::confirms(id, &bad, cond, got.counterexample.as_ref().unwrap());
    }
}

#[test]
fn nim_for_every_size() {
    for game in ["CN(2,1)", "CN(3,1)", "CN(4,1)", "CN(5,1)", "CN(6,1)"] {
        let n = Ruleset::parse(game).unwrap().n;
        let sum: Vec<String> = (0..n)
            .map(|i| ((b'a' + i as u8) as char).to_string())
            .collect();
        let not6 = format!("{} != 6", sum.join(" + "));
        // Leaves out P-positions of stack sum 6 ((3,3), (1,2,3), ...); the second lets in all.
        check(
            game,
            "bouton",
            &[
                Wrong::Strengthen("nim-sum 0", Box::leak(not6.into_boxed_str())),
                Wrong::Weaken(
                    "nim-sum 0",
                    Box::leak(format!("xor({}) = 0", sum.join(", ")).into_boxed_str()),
                    None,
                ),
            ],
        );
    }
}

#[test]
fn cn_6_4_for_every_size() {
    check(
        "CN(6,4)",
        "cn-6-4",
        &[
            Wrong::Weaken("(a,b+q,c,a+q,b,c+q)", "xor(a, c, e) = 0", None),
            // Leaves out (0,1,1,0,1,1) and its rotations (stack sum 4), which are P.
            Wrong::Strengthen("(a,b+q,c,a+q,b,c+q)", "a + b + c + d + e + f != 4"),
        ],
    );
}

#[test]
fn linear_theorems_agree_with_the_smt_proofs() {
    // The registry's CN results that the SMT prover proves (crates/prove/src/registry_proofs.rs), proved again
    // by a method that shares nothing with it but the families. CN(7,4) (a set automaton of 262
    // states) is decided by condition (II)'s pre-images in seconds; CN(8,6) (156 states, windows of
    // 6) takes tens of seconds and is left to the benchmark (docs/benchmarks.md).
    check(
        "CN(7,4)",
        "cn-7-4",
        // A weakened family (condition (I)) makes a larger set automaton (549 to 640 states) whose
        // condition (II) takes about a minute: (I) is the unchanged product search, tested above.
        &[Wrong::Strengthen("S1", "c != 3")],
    );
    check(
        "CN(4,2)",
        "cn-4-2",
        &[
            Wrong::Weaken("(a,b,a,b)", "b = d", None),
            Wrong::Strengthen("(a,b,a,b)", "a != 1"),
        ],
    );
    check(
        "CN(5,3)",
        "cn-5-3",
        &[
            Wrong::Weaken("(x,0,x,a,b)", "b = 0", Some("b <= 1")),
            Wrong::Strengthen("(x,0,x,a,b)", "a != 1"),
        ],
    );
    check(
        "CN(6,3)",
        "cn-6-3",
        &[Wrong::Strengthen("(a,b+q,c,a+q,b,c+q)", "a != 1")],
    );
    check(
        "CN(5,2)",
        "cn-5-2",
        &[
            Wrong::Weaken("(M,m,a,b,m)", "b - e = 0", None),
            Wrong::Strengthen("(M,m,a,b,m)", "a != 1"),
        ],
    );
    for game in ["CN(3,2)", "CN(4,3)", "CN(5,4)"] {
        check(
            game,
            "cn-n-n-1",
            &[Wrong::Strengthen("all equal", "a != 1")],
        );
    }
}

#[test]
fn scn_theorems_for_every_size() {
    // Shrinking circles: one set automaton per length, moves onto shorter circles. The wrong variants
    // are those the SMT prover refutes (tests/proofs.rs); each counterexample checks out against the
    // game's options and the theorem's verdicts.
    check(
        "SCN(4,2)",
        "scn-4-2",
        &[
            Wrong::Drop("(a,a,a)"),
            Wrong::Weaken("(a,b,a,b)", "b - a - 1 >= 0", None),
        ],
    );
    check(
        "SCN(5,2)",
        "scn-5-2",
        &[Wrong::Drop("P7"), Wrong::Weaken("P3", "b - e = 0", None)],
    );
    check(
        "SCN(5,3)",
        "scn-5-3",
        &[
            Wrong::Drop("(2,2p,p+1,p,2p-1)"),
            Wrong::Weaken("(1,M,a,b,M)", "d - c - 1 >= 0", Some("c <= d")),
        ],
    );
    for game in ["SCN(3,2)", "SCN(4,3)", "SCN(5,4)"] {
        check(
            game,
            "scn-n-n-1",
            &[
                Wrong::Drop("all equal"),
                Wrong::Weaken("all equal", "a = b", None),
            ],
        );
    }
    for game in ["SCN(2,2)", "SCN(3,3)"] {
        check(game, "scn-n-n", &[]);
    }
    // The empty circle left out: condition (III) fails (SCN's terminal position is `()`).
    let c = theorem("scn-4-2", "SCN(4,2)");
    let (bad, _) = mutate(&c, &Wrong::Drop("()"));
    let r = prove_automata(&bad, Duration::from_secs(120)).unwrap();
    let three = r.conditions.iter().find(|x| x.condition == Condition::III);
    let three = three.unwrap();
    assert_eq!(three.status, Status::Refuted, "{r:?}");
    assert_eq!(
        three.counterexample.as_ref().unwrap().position,
        Vec::<u64>::new()
    );
    // Misère SCN(n,n): the P-positions are the single pile of 1 (any other circle can be left as
    // it in one move); under normal play the same set fails (III) at the empty circle.
    for n in 2..=4 {
        let text = format!(
            "game = \"SCN({n},{n})\"\nreading = \"any\"\n[[family]]\nname = \"(1)\"\nlength = 1\nrelations = [\"a = 1\"]\n"
        );
        let mut c = from_toml(&text, "one pile of 1").unwrap();
        c.play = nimlab_core::Play::Misere;
        let r = prove_automata(&c, Duration::from_secs(120)).unwrap();
        assert_eq!(r.verdict, Status::Proved, "{r:?}");
        c.play = nimlab_core::Play::Normal;
        let r = prove_automata(&c, Duration::from_secs(120)).unwrap();
        let three = r.conditions.iter().find(|x| x.condition == Condition::III);
        assert_eq!(three.unwrap().status, Status::Refuted, "{r:?}");
    }
}

#[test]
fn scn_8_6_for_every_size() {
    // The largest SCN result: 8-pile circles, windows of 6 (about 13 s in a release build; a wrong
    // variant that keeps every member, as a weakened family does, costs as much again, so only the
    // dropped family, refuted on 7-pile circles, is tried here).
    check("SCN(8,6)", "scn-8-6", &[Wrong::Drop("(a,a,a,a,a,a,a)")]);
}

/// Conditions (I) and (II) checked by brute force on the box `[0..=hi]^m`: a member with an option in
/// the set, and a non-terminal position outside the set with no option in it (both are real
/// violations, whatever lies outside the box, since options stay in the box).
fn box_violations(c: &Conjecture, hi: u64) -> (bool, bool) {
    let game = c.game.game();
    let (mut one, mut two) = (false, false);
    for p in boxed(c.game.n, hi) {
        let inside = c.contains(&p);
        let mut reaches = false;
        game.for_each_option(&p, &mut |o| {
            if c.contains(o) {
                reaches = true;
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap();
        one |= inside && reaches;
        two |= !inside && !reaches && p.iter().any(|&x| x > 0);
    }
    (one, two)
}

/// A small deterministic generator (xorshift), so that the families are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

#[test]
fn random_families_agree_with_a_box_check() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let letters = ["a", "b", "c", "d"];
    let (mut refuted, mut proved) = (0, 0);
    for round in 0..60 {
        let (game, m) = if round % 2 == 0 {
            ("CN(3,1)", 3)
        } else {
            ("CN(4,2)", 4)
        };
        let mut rels = Vec::new();
        for _ in 0..1 + rng.next(2) {
            let x = letters[rng.next(m as u64) as usize];
            let y = letters[rng.next(m as u64) as usize];
            let z = letters[rng.next(m as u64) as usize];
            rels.push(match rng.next(5) {
                0 => format!("xor({x}, {y}) = {z}"),
                1 => format!("{x} + {} <= {y} + {z}", rng.next(3)),
                2 => format!("mod({x} + {y}, {}) = {}", 2 + rng.next(2), rng.next(2)),
                3 => format!("min({x}, {y}) = {z}"),
                _ => format!("xor({}) = 0", letters[..m].join(", ")),
            });
        }
        let toml = format!(
            "game = \"{game}\"\nreading = \"{}\"\n[[family]]\nname = \"f\"\nrelations = {:?}\n",
            if rng.next(2) == 0 { "any" } else { "min-first" },
            rels
        );
        let c = from_toml(&toml, "random").unwrap();
        let r = prove_automata(&c, Duration::from_secs(60)).unwrap();
        let status = |cond: Condition| {
            r.conditions
                .iter()
                .find(|x| x.condition == cond)
                .unwrap()
                .status
        };
        let (one, two) = box_violations(&c, if m == 3 { 12 } else { 7 });
        for (cond, seen) in [(Condition::I, one), (Condition::II, two)] {
            let s = status(cond);
            assert_ne!(s, Status::Unknown, "{toml}: {r:?}");
            // A violation in the box is a violation: the automata must find one.
            if seen {
                assert_eq!(s, Status::Refuted, "{toml}: ({}) {r:?}", cond.name());
            }
            // A refutation's counterexample was re-checked by exact search; one inside the box
            // must have been seen there too.
            if s == Status::Refuted {
                refuted += 1;
                let cx = r
                    .conditions
                    .iter()
                    .find(|x| x.condition == cond)
                    .unwrap()
                    .counterexample
                    .clone()
                    .unwrap();
                let small = cx
                    .position
                    .iter()
                    .all(|&v| v <= if m == 3 { 12 } else { 7 });
                assert!(
                    !small || seen,
                    "{toml}: ({}) {cx:?} not seen in the box",
                    cond.name()
                );
            } else {
                proved += 1;
            }
        }
    }
    // The draw exercises both answers.
    assert!(
        refuted > 10 && proved > 10,
        "{refuted} refuted, {proved} proved"
    );
}

#[test]
fn every_entry_listed_as_proved_by_automata_is_proved() {
    for (id, games) in nimlab_prove::proved::PROVED_BY_AUTOMATA {
        for game in *games {
            let r = prove_automata(&theorem(id, game), Duration::from_secs(120)).unwrap();
            assert_eq!(r.verdict, Status::Proved, "{id} on {game}: {r:?}");
        }
    }
    assert_eq!(
        nimlab_prove::proved::checked("cn-6-4").0,
        "proved for all sizes (automata)"
    );
}

/// Moore's Nim_k as the complex of all k-sets of n stacks: the `colsum` family equals the theory
/// crate's own test of Moore's rule on whole boxes, is proved for every heap size, and two wrong
/// variants are refuted with counterexamples that check out against Moore's rule.
#[test]
fn moore_for_every_size() {
    use nimlab_prove::proved::{all_k_sets, sizes};
    use nimlab_theory::nim::moore_is_p;
    // The sizes the CI re-proves (every size recorded: tests/sizes.rs, ignored test).
    for n in sizes("moore").unwrap().tested.clone() {
        for k in 2..=n - 2 {
            let game = all_k_sets(n, k);
            let c = theorem("moore", &game);
            let hi = [0, 0, 0, 0, 15, 7, 4, 3][n];
            let d = members(&c, n, &budget()).unwrap();
            for p in boxed(n, hi) {
                let want = moore_is_p(k as u64, &p);
                assert_eq!(c.contains(&p), want, "{game} {p:?}");
                let v: Vec<u128> = p.iter().map(|&x| x as u128).collect();
                assert_eq!(d.accepts(&v), want, "{game} {p:?}");
            }
            let r = prove_automata(&c, Duration::from_secs(120)).unwrap();
            assert_eq!(r.verdict, Status::Proved, "{game}: {r:?}");
            if n > 5 {
                continue;
            }
            let letters: Vec<String> = (0..n)
                .map(|i| ((b'a' + i as u8) as char).to_string())
                .collect();
            let is_p = |p: &[u64]| moore_is_p(k as u64, p);
            // The xor of the heaps instead of Moore's rule: (I) fails.
            let mut xor = c.clone();
            xor.families[0] = nimlab_prove::PFamily::parse(
                "xor",
                n,
                &[format!("xor({}) = 0", letters.join(", "))],
            )
            .unwrap();
            let r = prove_automata(&xor, Duration::from_secs(60)).unwrap();
            let one = &r.conditions[0];
            assert_eq!(one.status, Status::Refuted, "{game}: {r:?}");
            let cx = one.counterexample.as_ref().unwrap();
            let y = cx.move_to.as_ref().unwrap();
            assert!(xor.contains(&cx.position) && xor.contains(y));
            assert!(c.game.game().options(&cx.position).unwrap().contains(y));
            // Without the P-positions of heap sum 2(k+1): (II) fails at one of them or above.
            let mut fewer = c.clone();
            fewer.families[0].atoms.extend(
                nimlab_prove::expr::parse_relation(
                    &format!("{} != {}", letters.join(" + "), 2 * (k + 1)),
                    n,
                )
                .unwrap(),
            );
            let r = prove_automata(&fewer, Duration::from_secs(60)).unwrap();
            let two = &r.conditions[1];
            assert_eq!(two.status, Status::Refuted, "{game}: {r:?}");
            let x = &two.counterexample.as_ref().unwrap().position;
            let options = c.game.game().options(x).unwrap();
            assert!(!fewer.contains(x) && options.iter().all(|o| !fewer.contains(o)));
            assert!(is_p(x) || options.iter().any(|o| is_p(o)), "{game}: {x:?}");
        }
    }
}

#[test]
fn colsum_2_is_xor() {
    let text = |rel: &str| {
        format!("game = \"CN(4,1)\"\nreading = \"any\"\n[[family]]\nname = \"f\"\nrelations = [\"{rel}\"]\n")
    };
    // Only `colsum(...) = 0` and `!= 0` are automatic here; other uses are refused in one line.
    let other = from_toml(&text("colsum(2, a, b + 1, c) = d"), "colsum").unwrap();
    match members(&other, 4, &budget()) {
        Err(nimlab_prove::automata::Stop::Unsupported(e)) => assert!(e.contains("colsum"), "{e}"),
        r => panic!("{:?}", r.map(|d| d.states())),
    }
    let x = from_toml(&text("xor(a, b, c, d) = 0"), "xor").unwrap();
    let y = from_toml(&text("colsum(2, a, b, c, d) = 0"), "colsum").unwrap();
    let (dx, dy) = (
        members(&x, 4, &budget()).unwrap(),
        members(&y, 4, &budget()).unwrap(),
    );
    for p in boxed(4, 15) {
        let v: Vec<u128> = p.iter().map(|&x| x as u128).collect();
        assert_eq!(x.contains(&p), y.contains(&p), "{p:?}");
        assert_eq!(dx.accepts(&v), dy.accepts(&v), "{p:?}");
        assert_eq!(dy.accepts(&v), y.contains(&p), "{p:?}");
    }
}

/// Misère Nim on `m` heaps, every heap in `0..=hi`, by plain search written for this test: a position
/// is P exactly when it has a move and every move leads to an N-position (the player who cannot move
/// has won in misère play). Indexed by the heaps read as base-(hi+1) digits; every option has a
/// smaller index, so one pass in index order decides them all.
fn misere_nim(m: usize, hi: u64) -> impl Fn(&[u64]) -> bool {
    let base = hi as usize + 1;
    let index = move |p: &[u64]| p.iter().fold(0usize, |i, &x| i * base + x as usize);
    let all = boxed(m, hi);
    let mut p_pos = vec![false; all.len()];
    for x in &all {
        let mut has_move = false;
        let mut to_p = false;
        for i in 0..m {
            for v in 0..x[i] {
                let mut y = x.clone();
                y[i] = v;
                has_move = true;
                to_p |= p_pos[index(&y)];
            }
        }
        p_pos[index(x)] = has_move && !to_p;
    }
    move |p: &[u64]| p_pos[index(p)]
}

fn misere_file(name: &str) -> Conjecture {
    let path = format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"));
    let mut c = from_toml(&std::fs::read_to_string(&path).unwrap(), &path).unwrap();
    c.play = nimlab_core::Play::Misere;
    c
}

/// Bouton's misère rule (examples/nim-misere-3.toml and -4.toml) is the misère P-set of a box by
/// plain search, and the automata prove it for every heap size; under normal play the same file is
/// refuted at the terminal position.
#[test]
fn misere_nim_is_proved_for_every_heap_size() {
    for (file, m, hi) in [("nim-misere-3.toml", 3, 31), ("nim-misere-4.toml", 4, 11)] {
        let c = misere_file(file);
        let search = misere_nim(m, hi);
        let mut members = 0;
        for p in boxed(m, hi) {
            assert_eq!(c.contains(&p), search(&p), "{file}: {p:?}");
            members += search(&p) as usize;
        }
        assert!(members > 100, "{file}: {members}");
        let r = prove_automata(&c, Duration::from_secs(120)).unwrap();
        assert_eq!(r.verdict, Status::Proved, "{file}: {:?}", r.conditions);
        let mut normal = c.clone();
        normal.play = nimlab_core::Play::Normal;
        let r = prove_automata(&normal, Duration::from_secs(120)).unwrap();
        assert_eq!(r.verdict, Status::Refuted, "{file}");
        let cx = r.conditions[2].counterexample.as_ref().unwrap();
        assert_eq!(cx.position, vec![0; m]);
    }
}

/// The registry's `bouton-misere`, as families, is proved for every heap size on 1 to 6 heaps under
/// misère play and refuted under normal play (the terminal position is in its set).
#[test]
fn bouton_misere_theorem_is_proved_on_1_to_6_heaps() {
    for n in 1..=6 {
        let game = format!("CN({n},1)");
        let mut c = theorem("bouton-misere", &game);
        assert_eq!(c.play, nimlab_core::Play::Misere);
        c.play = nimlab_core::Play::Normal;
        if n == 3 {
            let search = misere_nim(3, 15);
            for p in boxed(3, 15) {
                assert_eq!(c.contains(&p), search(&p), "{p:?}");
            }
        }
        let r = prove_automata(&c, Duration::from_secs(120)).unwrap();
        assert_eq!(r.verdict, Status::Refuted, "{game} under normal play");
        c.play = nimlab_core::Play::Misere;
        let r = prove_automata(&c, Duration::from_secs(120)).unwrap();
        assert_eq!(r.verdict, Status::Proved, "{game}: {:?}", r.conditions);
    }
}

/// Wrong misère rules are refuted, and each counterexample violates its condition by the test's own
/// search: the normal-play rule (xor 0) puts the terminal position in the set; shifting the
/// threshold (every heap at most 2 / some heap of 3 or more) lets a move join two members.
#[test]
fn wrong_misere_rules_are_refuted_with_checked_counterexamples() {
    let search = misere_nim(3, 31);
    let mut bouton = theorem("bouton", "CN(3,1)");
    bouton.play = nimlab_core::Play::Misere;
    let off_by_one = r#"
game = "CN(3,1)"
reading = "any"
[[family]]
name = "every heap at most 2, odd sum"
relations = ["max(a, b, c) <= 2", "mod(a + b + c, 2) = 1"]
[[family]]
name = "some heap of 3 or more, xor 0"
relations = ["max(a, b, c) >= 3", "xor(a, b, c) = 0"]
"#;
    let mut off = from_toml(off_by_one, "off by one").unwrap();
    off.play = nimlab_core::Play::Misere;
    for c in [bouton, off] {
        let r = prove_automata(&c, Duration::from_secs(120)).unwrap();
        assert_eq!(r.verdict, Status::Refuted, "{}", c.source);
        let (cond, cx) = r
            .conditions
            .iter()
            .find_map(|k| k.counterexample.as_ref().map(|x| (k.condition, x)))
            .unwrap();
        let x = &cx.position;
        assert!(x.iter().all(|&a| a <= 31), "{x:?}");
        match cond {
            Condition::I => {
                let y = cx.move_to.as_ref().unwrap();
                let lowered = (0..3).filter(|&i| y[i] < x[i]).count();
                let same = (0..3).filter(|&i| y[i] == x[i]).count();
                assert_eq!((lowered, same), (1, 2), "{x:?} -> {y:?}");
                assert!(c.contains(x) && c.contains(y));
                // Two positions joined by a move are never both P.
                assert!(!(search(x) && search(y)), "{x:?} -> {y:?}");
            }
            Condition::III => {
                assert_eq!(x, &vec![0, 0, 0]);
                assert!(c.contains(x) && !search(x));
            }
            Condition::II => {
                assert!(!c.contains(x) && x.iter().any(|&a| a > 0));
            }
            other => panic!("{other:?}"),
        }
    }
}

/// Condition (II) reuses a window's pre-image for a rotated window only when a rotation maps the
/// set to itself. On the 4-cycle complex (facets {1,2}, {2,3}, {3,4}, {4,1}: rotations of each
/// other) random families read plainly are mostly not rotation-invariant, so both paths run; each
/// verdict is checked against the conditions on a box.
#[test]
fn plain_families_on_a_cycle_agree_with_a_box_check() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let letters = ["a", "b", "c", "d"];
    let game = "simplicial({1,2},{2,3},{3,4},{4,1})";
    let (mut refuted, mut proved) = (0, 0);
    for _ in 0..30 {
        let mut rels = Vec::new();
        for _ in 0..1 + rng.next(2) {
            let x = letters[rng.next(4) as usize];
            let y = letters[rng.next(4) as usize];
            let z = letters[rng.next(4) as usize];
            rels.push(match rng.next(4) {
                0 => format!("xor({x}, {y}) = {z}"),
                1 => format!("{x} + {} <= {y} + {z}", rng.next(3)),
                2 => format!("{x} + {y} = {z} + d"),
                _ => "xor(a, c) = xor(b, d)".to_string(),
            });
        }
        let toml = format!(
            "game = \"{game}\"\nreading = \"plain\"\n[[family]]\nname = \"f\"\nrelations = {rels:?}\n"
        );
        let c = from_toml(&toml, "random").unwrap();
        let r = prove_automata(&c, Duration::from_secs(60)).unwrap();
        let (one, two) = box_violations(&c, 7);
        for (cond, seen) in [(Condition::I, one), (Condition::II, two)] {
            let x = r.conditions.iter().find(|x| x.condition == cond).unwrap();
            assert_ne!(x.status, Status::Unknown, "{toml}: {r:?}");
            if seen {
                assert_eq!(x.status, Status::Refuted, "{toml}: {r:?}");
            }
            if x.status == Status::Refuted {
                refuted += 1;
                let cx = x.counterexample.clone().unwrap();
                assert!(
                    seen || cx.position.iter().any(|&v| v > 7),
                    "{toml}: {cx:?} not seen in the box"
                );
            } else {
                proved += 1;
            }
        }
    }
    assert!(
        refuted > 5 && proved > 5,
        "{refuted} refuted, {proved} proved"
    );
}
