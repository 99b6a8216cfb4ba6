//! The SMT encoding against nimlab's own rules: the option formula against the game's
//! `for_each_option`, the membership formula against exact membership, and exact membership of the
//! registry's theorems (as the prover reads them) against the registry's own verdicts.

mod common;

use common::{fix_in, names, vectors};
use nimlab_core::Pos;
use nimlab_prove::conjecture::RulesetKind;
use nimlab_prove::encode::{member, option};
use nimlab_prove::{from_theorem, from_toml, Conjecture, ReadingRule, Ruleset};
use std::collections::BTreeSet;

/// For every x in the box, the options the formula admits (y over 0..=hi in every place, raises
/// included; in SCN the zeros removed) are exactly the game's options.
fn options_agree(game: &str, m: usize, hi: u64) {
    options_agree_in(game, m, hi, None)
}

/// [`options_agree`] in integers (`bits` = `None`) or bit-vectors for entries below `2^bits`.
fn options_agree_in(game: &str, m: usize, hi: u64, bits: Option<u32>) {
    let Some(s) = common::solver("options_agree") else {
        return;
    };
    let rules = Ruleset::parse(game).unwrap();
    // The option formula depends on the rules only.
    let c = Conjecture {
        game: rules.clone(),
        reading: ReadingRule::Any,
        families: vec![],
        source: game.to_string(),
        bits,
        play: nimlab_core::Play::Normal,
    };
    let ar = c.arith().unwrap();
    let g = rules.game();
    let (x, y) = (names("x", m), names("y", m));
    let mut script = String::new();
    for v in x.iter().chain(&y) {
        script.push_str(&format!("(declare-const {v} {})\n", ar.sort()));
    }
    script.push_str(&format!("(assert {})\n", option(&c, &x, &y).unwrap()));
    let xs = vectors(m, rules.min_entry() as u64, hi);
    let ys = vectors(m, 0, hi);
    for p in &xs {
        for q in &ys {
            script.push_str(&format!(
                "(push)\n{}{}(check-sat)\n(pop)\n",
                fix_in(ar, &x, p),
                fix_in(ar, &y, q)
            ));
        }
    }
    let ans = common::answers(&s, &script);
    assert_eq!(ans.len(), xs.len() * ys.len());
    let mut i = 0;
    for p in &xs {
        let mut got = BTreeSet::new();
        for q in &ys {
            if ans[i] == "sat" {
                got.insert(
                    q.iter()
                        .copied()
                        .filter(|&a| rules.kind == RulesetKind::Cn || a > 0)
                        .collect::<Pos>(),
                );
            }
            i += 1;
        }
        let want: BTreeSet<Pos> = g.options(p).unwrap().into_iter().collect();
        assert_eq!(got, want, "{game}: options of {p:?}");
    }
}

#[test]
fn cn_options_match_the_game() {
    options_agree("CN(4,2)", 4, 2);
    options_agree("CN(5,3)", 5, 2);
    options_agree("CN(3,3)", 3, 2);
}

#[test]
fn scn_options_match_the_game() {
    for m in 1..=4 {
        options_agree("SCN(4,2)", m, 2);
    }
    for m in 4..=5 {
        options_agree("SCN(5,3)", m, 2);
    }
}

/// In bit-vectors (entries below 2^w) the option formula is still exactly the game's moves, up to the
/// top of the range.
#[test]
fn bit_vector_options_match_the_game() {
    options_agree_in("CN(3,2)", 3, 3, Some(2));
    options_agree_in("CN(4,3)", 4, 3, Some(2));
    options_agree_in("SCN(3,2)", 3, 3, Some(2));
}

/// The membership formula, on every position of a box, agrees with exact membership.
fn membership_agrees(c: &Conjecture, m: usize, lo: u64, hi: u64) {
    let Some(s) = common::solver("membership_agrees") else {
        return;
    };
    let ar = c.arith().unwrap();
    let x = names("x", m);
    let mut script: String = x
        .iter()
        .map(|v| format!("(declare-const {v} {})\n", ar.sort()))
        .collect();
    script.push_str(&format!("(assert {})\n", member(c, &x).unwrap()));
    let ps = vectors(m, lo, hi);
    for p in &ps {
        script.push_str(&format!(
            "(push)\n{}(check-sat)\n(pop)\n",
            fix_in(ar, &x, p)
        ));
    }
    let ans = common::answers(&s, &script);
    let mut inside = 0;
    for (p, a) in ps.iter().zip(&ans) {
        assert_eq!(a == "sat", c.contains(p), "{}: {p:?}", c.source);
        inside += c.contains(p) as usize;
    }
    assert!(inside > 0, "{}: the box holds no member", c.source);
}

/// With xor, in bit-vectors: CN(6,4)'s families (entries below 2^3, every position with entries up to
/// 4) and Bouton's nim-sum on CN(3,1) (every position below 2^4, the top of the range included, where
/// a term too narrow for its values would wrap).
#[test]
fn bit_vector_membership_matches_exact_membership() {
    let mut cn64 = from_theorem("cn-6-4", Ruleset::parse("CN(6,4)").unwrap()).unwrap();
    assert!(cn64.arith().is_err(), "xor needs --bits");
    cn64.bits = Some(3);
    membership_agrees(&cn64, 6, 0, 4);
    let mut nim = from_theorem("bouton", Ruleset::parse("CN(3,1)").unwrap()).unwrap();
    nim.bits = Some(4);
    membership_agrees(&nim, 3, 0, 15);
    let mut weird = from_toml(
        "game = \"CN(3,1)\"\n[[family]]\nname = \"w\"\nrelations = [\"xor(2a - 1, b) = c + 3\", \"mod(a - 5c, 3) != 1\"]\n",
        "weird",
    )
    .unwrap();
    weird.bits = Some(3);
    membership_agrees(&weird, 3, 0, 7);
}

#[test]
fn membership_formula_matches_exact_membership() {
    let cn74 = from_theorem("cn-7-4", Ruleset::parse("CN(7,4)").unwrap()).unwrap();
    membership_agrees(&cn74, 7, 0, 3);
    let file = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/cn74.toml"
    ))
    .unwrap();
    membership_agrees(&from_toml(&file, "cn74.toml").unwrap(), 7, 0, 3);
    let scn52 = from_theorem("scn-5-2", Ruleset::parse("SCN(5,2)").unwrap()).unwrap();
    for m in 3..=5 {
        membership_agrees(&scn52, m, 1, 5);
    }
    let scn86 = from_theorem("scn-8-6", Ruleset::parse("SCN(8,6)").unwrap()).unwrap();
    membership_agrees(&scn86, 8, 1, 3);
}

/// Exact membership of the prover's reading of each theorem against the registry's verdicts (which
/// the theory crate tests against exhaustive search) on every position of a box.
#[test]
fn theorems_as_families_match_the_registry() {
    let cases: &[(&str, &str, u64)] = &[
        ("CN(3,2)", "cn-n-n-1", 6),
        ("CN(5,4)", "cn-n-n-1", 4),
        ("CN(4,4)", "cn-n-n", 4),
        ("CN(4,2)", "cn-4-2", 6),
        ("CN(5,2)", "cn-5-2", 5),
        ("CN(5,3)", "cn-5-3", 5),
        ("CN(6,3)", "cn-6-3", 4),
        ("CN(7,4)", "cn-7-4", 4),
        ("CN(8,6)", "cn-8-6", 3),
        ("SCN(4,2)", "scn-4-2", 6),
        ("SCN(5,2)", "scn-5-2", 6),
        ("SCN(5,3)", "scn-5-3", 6),
        ("SCN(5,4)", "scn-n-n-1", 4),
        ("SCN(4,4)", "scn-n-n", 4),
        ("SCN(8,6)", "scn-8-6", 3),
    ];
    for &(game, id, hi) in cases {
        let rules = Ruleset::parse(game).unwrap();
        let c = from_theorem(id, rules.clone()).unwrap();
        let g = rules.game();
        let t = nimlab_theory::by_id(id).unwrap();
        let mut members = 0;
        for m in rules.lengths() {
            for p in vectors(m, rules.min_entry() as u64, hi) {
                let want = t.decide(g.as_ref(), &p).unwrap().is_p;
                assert_eq!(c.contains(&p), want, "{id} on {game}: {p:?}");
                members += want as usize;
            }
        }
        assert!(members >= 1, "{id}: the box holds no P-position");
    }
    // The SCN(8,6) exception (1, 2p-1, p, p, 2p-1, p, p, 2p-1) is outside, its neighbour inside.
    let c = from_theorem("scn-8-6", Ruleset::parse("SCN(8,6)").unwrap()).unwrap();
    assert!(!c.contains(&[1, 5, 3, 3, 5, 3, 3, 5]));
    assert!(c.contains(&[1, 5, 3, 3, 5, 2, 4, 5]));
}

#[test]
fn the_cn74_file_is_the_registry_set() {
    let file = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/cn74.toml"
    ))
    .unwrap();
    let c = from_toml(&file, "cn74.toml").unwrap();
    let t = nimlab_theory::by_id("cn-7-4").unwrap();
    let g = c.game.game();
    for p in vectors(7, 0, 4) {
        assert_eq!(
            c.contains(&p),
            t.decide(g.as_ref(), &p).unwrap().is_p,
            "{p:?}"
        );
    }
}
