//! Proofs for every stack size of the registry's linear theorems, and for each a deliberately wrong
//! variant that the solver refutes with a counterexample. Each counterexample is checked here once
//! more against the game's options and the registry's own verdicts (tested against exhaustive search
//! in the theory crate): a dropped family leaves out a P-position with no option in the smaller set,
//! a weakened relation lets in an N-position that moves into the set.

mod common;
use common::{mutate, Wrong};

use nimlab_prove::prove::condition;
use nimlab_prove::{
    from_theorem, from_toml, prove, Condition, Conjecture, Ruleset, SmtSolver, Status,
};

/// The wrong variant is refuted on `cond`, with a counterexample that checks out.
fn refuted(s: &SmtSolver, theorem: &str, c: &Conjecture, cond: Condition) {
    let r = condition(c, cond, s).unwrap();
    assert_eq!(
        r.status,
        Status::Refuted,
        "{}: ({}) {r:?}",
        c.source,
        cond.name()
    );
    let cx = r.counterexample.expect("a counterexample");
    common::confirms(theorem, c, cond, &cx);
}

/// Proves the theorem `id` for `game`, then refutes each wrong variant.
fn check(game: &str, id: &str, wrong: &[Wrong]) {
    let Some(s) = common::solver(&format!("{id} on {game}")) else {
        return;
    };
    let c = from_theorem(id, Ruleset::parse(game).unwrap()).unwrap();
    let r = prove(&c, &s).unwrap();
    assert_eq!(r.verdict, Status::Proved, "{id} on {game}: {r:?}");
    assert!(r.conditions.iter().all(|c| c.status == Status::Proved));
    for w in wrong {
        let (bad, cond) = mutate(&c, w);
        refuted(&s, id, &bad, cond);
    }
}

#[test]
fn cn_all_but_one() {
    for game in ["CN(3,2)", "CN(4,3)", "CN(5,4)", "CN(6,5)", "CN(7,6)"] {
        check(
            game,
            "cn-n-n-1",
            &[
                Wrong::Weaken("all equal", "b = c", None),
                Wrong::Strengthen("all equal", "a != 1"),
            ],
        );
    }
}

#[test]
fn cn_whole() {
    for game in ["CN(2,2)", "CN(3,3)", "CN(4,4)"] {
        check(game, "cn-n-n", &[Wrong::Weaken("zero", "a = 0", None)]);
    }
}

#[test]
fn cn_4_2() {
    check(
        "CN(4,2)",
        "cn-4-2",
        &[
            Wrong::Weaken("(a,b,a,b)", "b = d", None),
            Wrong::Strengthen("(a,b,a,b)", "a != 1"),
        ],
    );
}

#[test]
fn cn_5_2() {
    check(
        "CN(5,2)",
        "cn-5-2",
        &[
            Wrong::Weaken("(M,m,a,b,m)", "b - e = 0", None),
            Wrong::Strengthen("(M,m,a,b,m)", "a != 1"),
        ],
    );
}

#[test]
fn cn_5_3() {
    check(
        "CN(5,3)",
        "cn-5-3",
        &[
            Wrong::Weaken("(x,0,x,a,b)", "b = 0", Some("b <= 1")),
            Wrong::Strengthen("(x,0,x,a,b)", "a != 1"),
        ],
    );
}

#[test]
fn cn_6_3() {
    check(
        "CN(6,3)",
        "cn-6-3",
        &[
            Wrong::Weaken("(a,b+q,c,a+q,b,c+q)", "b + c - e - f = 0", None),
            Wrong::Strengthen("(a,b+q,c,a+q,b,c+q)", "a != 1"),
        ],
    );
}

#[test]
fn cn_7_4() {
    check(
        "CN(7,4)",
        "cn-7-4",
        &[
            Wrong::Drop("S4"),
            Wrong::Weaken("S3", "e - a - 1 >= 0", Some("a <= e")),
        ],
    );
}

#[test]
fn cn_7_4_from_the_families_file() {
    let Some(s) = common::solver("cn_7_4_from_the_families_file") else {
        return;
    };
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/cn74.toml"
    ))
    .unwrap();
    let c = from_toml(&text, "examples/cn74.toml").unwrap();
    assert_eq!(prove(&c, &s).unwrap().verdict, Status::Proved);
    // The two wrong variants measured in the issue: without S4, and with a <= e in S3.
    let without_s4 = &text[..text.find("[[family]]\nname = \"S4\"").unwrap()];
    refuted(
        &s,
        "cn-7-4",
        &from_toml(without_s4, "no S4").unwrap(),
        Condition::II,
    );
    let weak = text.replace("\"0 < a < e\"", "\"0 < a <= e\"");
    assert_ne!(weak, text);
    refuted(
        &s,
        "cn-7-4",
        &from_toml(&weak, "a <= e").unwrap(),
        Condition::I,
    );
}

#[test]
fn cn_8_6() {
    check(
        "CN(8,6)",
        "cn-8-6",
        &[
            Wrong::Drop("α=a+b"),
            Wrong::Weaken("α=M", "c + g - b >= 0", None),
        ],
    );
}

#[test]
fn scn_4_2() {
    check(
        "SCN(4,2)",
        "scn-4-2",
        &[
            Wrong::Drop("(a,a,a)"),
            Wrong::Weaken("(a,b,a,b)", "b - a - 1 >= 0", None),
        ],
    );
}

#[test]
fn scn_5_2() {
    check(
        "SCN(5,2)",
        "scn-5-2",
        &[Wrong::Drop("P7"), Wrong::Weaken("P3", "b - e = 0", None)],
    );
}

#[test]
fn scn_5_3() {
    check(
        "SCN(5,3)",
        "scn-5-3",
        &[
            Wrong::Drop("(2,2p,p+1,p,2p-1)"),
            Wrong::Weaken("(1,M,a,b,M)", "d - c - 1 >= 0", Some("c <= d")),
        ],
    );
}

#[test]
fn scn_8_6() {
    check(
        "SCN(8,6)",
        "scn-8-6",
        &[
            Wrong::Drop("(a,a,a,a,a,a,a)"),
            // Let the excluded family (1, 2p-1, p, p, 2p-1, p, p, 2p-1) back in.
            Wrong::Weaken("α=M", "c != d", None),
        ],
    );
}

#[test]
fn scn_all_but_one_and_whole() {
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
}

/// What `nimlab theory --json` calls "proved for all sizes" is proved: every pair of
/// `nimlab_prove::proved::PROVED`, and each id is a registry entry covering its games.
#[test]
fn every_entry_listed_as_proved_is_proved() {
    let Some(s) = common::solver("every_entry_listed_as_proved_is_proved") else {
        return;
    };
    for (id, games) in nimlab_prove::proved::PROVED {
        let t = nimlab_theory::by_id(id).unwrap_or_else(|| panic!("{id} is not in the registry"));
        for game in *games {
            let rules = Ruleset::parse(game).unwrap();
            assert!(
                t.covers(rules.game().as_ref()),
                "{id} does not cover {game}"
            );
            let r = prove(&from_theorem(id, rules).unwrap(), &s).unwrap();
            assert_eq!(r.verdict, Status::Proved, "{id} on {game}: {r:?}");
        }
    }
    assert_eq!(
        nimlab_prove::proved::checked("cn-7-4").0,
        "proved for all sizes"
    );
    assert_eq!(
        nimlab_prove::proved::checked("cn-6-3").0,
        "proved for all sizes"
    );
    // A partial result: its members are proved to be P-positions (tests/subset.rs).
    assert!(nimlab_prove::proved::checked("cn-lemma5-s1")
        .0
        .starts_with("proved for all sizes on CN(3,2)"));
    assert_eq!(
        nimlab_prove::proved::checked("cn-5-2").0,
        "proved for all sizes"
    );
}

/// The registry's proofs again with two solvers: every query must be unsat for z3 and for cvc5
/// (`--cross-check`), except the pairs cvc5 takes long on (`SLOW_WITH_CVC5`, re-proved by
/// scripts/bench-solvers.sh). Needs cvc5 (CI installs it: NIMLAB_REQUIRE_CVC5=1).
#[test]
fn every_entry_listed_as_proved_is_proved_by_cvc5_too() {
    let test = "every_entry_listed_as_proved_is_proved_by_cvc5_too";
    let Some(z3) = common::solver(test) else {
        return;
    };
    let found = nimlab_testkit::tools::which("cvc5")
        .ok_or("cvc5 is not on the PATH (apt-get install cvc5)".to_string());
    let Some(cvc5) = nimlab_testkit::tools::need(test, "cvc5", found) else {
        return;
    };
    let solvers = [
        z3,
        nimlab_prove::SmtSolver::new(cvc5, std::time::Duration::from_secs(120)),
    ];
    let slow = nimlab_prove::proved::SLOW_WITH_CVC5;
    let mut proved = 0;
    let lists = [
        (nimlab_prove::proved::PROVED, nimlab_prove::Claim::PSet),
        (
            nimlab_prove::proved::PROVED_SUBSET,
            nimlab_prove::Claim::Subset,
        ),
    ];
    // The results about a family of games proved by SMT, on the sizes the CI re-proves.
    let by_size: Vec<(&str, Vec<String>)> = nimlab_prove::proved::SIZES
        .iter()
        .filter(|s| s.via == nimlab_prove::proved::Via::Smt)
        .map(|s| (s.id, s.tested.clone().flat_map(|n| s.games(n)).collect()))
        .collect();
    let lists = lists.iter().map(|(list, claim)| {
        let pairs: Vec<(&str, Vec<String>)> = list
            .iter()
            .map(|(id, games)| (*id, games.iter().map(|g| g.to_string()).collect()))
            .collect();
        (pairs, *claim)
    });
    let lists = lists.chain(std::iter::once((by_size, nimlab_prove::Claim::PSet)));
    for (list, claim) in lists {
        for (id, games) in &list {
            for game in games {
                if slow.contains(&(*id, game.as_str())) {
                    continue;
                }
                let c = from_theorem(id, Ruleset::parse(game).unwrap()).unwrap();
                let prover = nimlab_prove::Prover::Smt(solvers.to_vec());
                let r = nimlab_prove::run(&c, claim, &prover).unwrap();
                assert_eq!(r.verdict, Status::Proved, "{id} on {game}: {}", r.to_json());
                for cond in &r.conditions {
                    for q in &cond.queries {
                        let who: Vec<&str> = q.answers.iter().map(|a| a.solver.as_str()).collect();
                        assert_eq!(who, ["z3", "cvc5"], "{id} on {game}");
                        assert!(q.answers.iter().all(|a| a.answer == "unsat"));
                    }
                }
                proved += 1;
            }
        }
    }
    assert!(proved >= 20, "{proved}");
}

#[test]
fn every_entry_listed_as_proved_below_2_w_is_proved() {
    let Some(s) = common::solver("every_entry_listed_as_proved_below_2_w_is_proved") else {
        return;
    };
    for (id, games, w) in nimlab_prove::proved::PROVED_BELOW {
        for game in *games {
            let rules = Ruleset::parse(game).unwrap();
            let mut c = from_theorem(id, rules).unwrap();
            c.bits = Some(*w);
            let r = prove(&c, &s).unwrap();
            assert_eq!(
                r.verdict,
                Status::Proved,
                "{id} on {game} below 2^{w}: {r:?}"
            );
        }
    }
}

/// Proves `id` on `game` for entries below `2^bits` (bit-vectors: the families use xor), then refutes
/// each wrong variant with a counterexample that checks out. Without `bits` the prover refuses.
fn check_below(game: &str, id: &str, bits: u32, wrong: &[Wrong]) {
    let Some(s) = common::solver(&format!("{id} on {game}")) else {
        return;
    };
    let mut c = from_theorem(id, Ruleset::parse(game).unwrap()).unwrap();
    let e = prove(&c, &s).unwrap_err().to_string();
    assert!(e.contains("--bits"), "{e}");
    c.bits = Some(bits);
    let r = prove(&c, &s).unwrap();
    assert_eq!(r.verdict, Status::Proved, "{id} on {game}: {r:?}");
    assert_eq!(r.range(), format!("entries < 2^{bits}"));
    assert_eq!(r.to_json()["range"], format!("entries < 2^{bits}"));
    for w in wrong {
        let (bad, cond) = mutate(&c, w);
        refuted(&s, id, &bad, cond);
    }
}

#[test]
fn cn_6_4_below_2_w() {
    check_below(
        "CN(6,4)",
        "cn-6-4",
        3,
        &[
            Wrong::Weaken("(a,b+q,c,a+q,b,c+q)", "xor(a, c, e) = 0", None),
            // Leaves out (0,1,1,0,1,1) and its rotations (stack sum 4), which are P.
            Wrong::Strengthen("(a,b+q,c,a+q,b,c+q)", "a + b + c + d + e + f != 4"),
        ],
    );
}

#[test]
fn nim_below_2_w() {
    // Each leaves out P-positions of stack sum 6, such as (1,2,3) and (1,2,3,0).
    check_below(
        "CN(3,1)",
        "bouton",
        5,
        &[Wrong::Strengthen("nim-sum 0", "a + b + c != 6")],
    );
    check_below(
        "CN(4,1)",
        "bouton",
        5,
        &[Wrong::Strengthen("nim-sum 0", "a + b + c + d != 6")],
    );
}

/// The attempts on open games of docs/findings.md (sections 1.3.1, 2.1, 4.1): each file is refuted as a
/// P-set, and the conditions listed here are proved for every size, as `nimlab prove` reports them.
#[test]
fn open_game_attempts() {
    let Some(s) = common::solver("open_game_attempts") else {
        return;
    };
    let cases: [(&str, &[Condition], Condition); 4] = [
        // (file, conditions proved, condition refuted)
        (
            "cn62-attempt.toml",
            &[Condition::I, Condition::III],
            Condition::II,
        ),
        (
            "scn63-slice.toml",
            &[Condition::I, Condition::III],
            Condition::II,
        ),
        (
            "scn74-sevens.toml",
            &[Condition::I, Condition::III],
            Condition::II,
        ),
        (
            "scn74-attempt.toml",
            &[Condition::II, Condition::III],
            Condition::I,
        ),
    ];
    for (file, proved, refuted) in cases {
        let path = format!("{}/../../examples/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        let c = from_toml(&text, file).unwrap();
        for cond in proved {
            let r = condition(&c, *cond, &s).unwrap();
            assert_eq!(r.status, Status::Proved, "{file}: ({}) {r:?}", cond.name());
        }
        let r = condition(&c, refuted, &s).unwrap();
        assert_eq!(
            r.status,
            Status::Refuted,
            "{file}: ({}) {r:?}",
            refuted.name()
        );
        assert!(r.counterexample.is_some(), "{file}: no counterexample");
    }
}
