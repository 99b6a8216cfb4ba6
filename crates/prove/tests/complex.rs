//! The prover on simplicial complexes and Extended Circular Nim: the option formula against the
//! game's `for_each_option` and against the rules written out here, the membership formula against
//! exact membership, exact membership against an independent brute force of the P-set, proofs of
//! characterizations derived by hand, and wrong variants refuted with counterexamples checked here
//! once more from the rules.
//!
//! The hand derivations used below:
//! - In a game whose options are *all* positions strictly below x (lower any stacks of one facet,
//!   when that facet is all of a component), the Grundy value is the rank a + b + c + ...: by
//!   induction every smaller rank occurs below x and rank(x) does not. So `simplicial({1,2,3},{4})`
//!   is such a game on stacks 1-3 plus a Nim heap: P exactly when x1 + x2 + x3 = x4; and
//!   `simplicial({1,2},{3,4})` is a sum of two: P exactly when x1 + x2 = x3 + x4.
//! - CN(4,2)'s P-positions are (a,b,a,b) (Ehrenborg & Steingrímsson 1996): ECN(4,{1},2) is CN(4,2)
//!   itself, and the 4-cycle 1-3-2-4-1 (`simplicial({1,3},{2,3},{2,4},{1,4})`) is CN(4,2) read in
//!   the order (x1,x3,x2,x4), so its P-set is x1 = x2, x3 = x4.
//! - ECN(5,{2},2): the facets {i, i+2} form the 5-cycle 0-2-4-1-3, so it is CN(5,2) read in the order
//!   (x0,x2,x4,x1,x3); the registry's cn-5-2 families are carried over through that relabeling.

mod common;

use common::{fix, names};
use nimlab_core::Pos;
use nimlab_prove::encode::{member, option};
use nimlab_prove::prove::condition;
use nimlab_prove::{from_theorem, from_toml, prove, Condition, Conjecture, Ruleset, Status};
use std::collections::{BTreeSet, HashMap};

/// The options of `p` written from the rules: pick a facet, lower any of its stacks, at least one
/// token in all. `facets` are 0-based.
fn rule_options(facets: &[Vec<usize>], p: &[u64]) -> BTreeSet<Pos> {
    let mut out = BTreeSet::new();
    for f in facets {
        let mut q = p.to_vec();
        fn go(f: &[usize], at: usize, p: &[u64], q: &mut Pos, out: &mut BTreeSet<Pos>) {
            if at == f.len() {
                if q.as_slice() != p {
                    out.insert(q.clone());
                }
                return;
            }
            let i = f[at];
            for v in 0..=p[i] {
                q[i] = v;
                go(f, at + 1, p, q, out);
            }
            q[i] = p[i];
        }
        go(f, 0, p, &mut q, &mut out);
    }
    out
}

/// P-positions by brute force from the rules (memoized).
struct Brute {
    facets: Vec<Vec<usize>>,
    memo: HashMap<Pos, bool>,
}

impl Brute {
    fn new(facets: &[Vec<usize>]) -> Brute {
        Brute {
            facets: facets.to_vec(),
            memo: HashMap::new(),
        }
    }
    fn is_p(&mut self, p: &[u64]) -> bool {
        if let Some(&v) = self.memo.get(p) {
            return v;
        }
        let opts = rule_options(&self.facets, p);
        let v = opts.iter().all(|q| !self.is_p(q));
        self.memo.insert(p.to_vec(), v);
        v
    }
}

/// The automorphisms of the facets, by trying every permutation (`q[i] = p[g[i]]`).
fn brute_automorphisms(n: usize, facets: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let norm = |fs: Vec<Vec<usize>>| -> BTreeSet<Vec<usize>> {
        fs.into_iter()
            .map(|mut f| {
                f.sort_unstable();
                f
            })
            .collect()
    };
    let want = norm(facets.to_vec());
    let mut out = Vec::new();
    for g in common::vectors(n, 0, n as u64 - 1) {
        let g: Vec<usize> = g.iter().map(|&v| v as usize).collect();
        if g.iter().collect::<BTreeSet<_>>().len() != n {
            continue;
        }
        let image = norm(
            facets
                .iter()
                .map(|f| f.iter().map(|&i| g[i]).collect())
                .collect(),
        );
        if image == want {
            out.push(g);
        }
    }
    out
}

fn rules(game: &str) -> (Ruleset, Vec<Vec<usize>>) {
    let r = Ruleset::parse(game).unwrap();
    let facets = r.complex.as_ref().unwrap().facets.clone();
    (r, facets)
}

/// For every x in [0..hi]^n, the y in [0..hi]^n the option formula admits are exactly the game's
/// options, and those are the options written from the rules here.
fn options_agree(game: &str, hi: u64) {
    let Some(s) = common::solver("options_agree") else {
        return;
    };
    let (r, facets) = rules(game);
    let m = r.n;
    let c = Conjecture {
        game: r.clone(),
        reading: nimlab_prove::ReadingRule::Any,
        families: vec![],
        source: game.to_string(),
        bits: None,
        play: nimlab_core::Play::Normal,
    };
    let g = r.game();
    let (x, y) = (names("x", m), names("y", m));
    let mut script = String::new();
    for v in x.iter().chain(&y) {
        script.push_str(&format!("(declare-const {v} Int)\n"));
    }
    script.push_str(&format!("(assert {})\n", option(&c, &x, &y).unwrap()));
    let ps = common::vectors(m, 0, hi);
    for p in &ps {
        for q in &ps {
            script.push_str(&format!(
                "(push)\n{}{}(check-sat)\n(pop)\n",
                fix(&x, p),
                fix(&y, q)
            ));
        }
    }
    let ans = common::answers(&s, &script);
    assert_eq!(ans.len(), ps.len() * ps.len());
    let mut i = 0;
    for p in &ps {
        let mut got = BTreeSet::new();
        for q in &ps {
            if ans[i] == "sat" {
                got.insert(q.clone());
            }
            i += 1;
        }
        let want: BTreeSet<Pos> = g.options(p).unwrap().into_iter().collect();
        assert_eq!(got, want, "{game}: options of {p:?} (formula vs game)");
        assert_eq!(
            want,
            rule_options(&facets, p),
            "{game}: options of {p:?} (game vs rules)"
        );
    }
}

#[test]
fn complex_options_match_the_game() {
    options_agree("ECN(5,{2},2)", 2);
    options_agree("simplicial({1,2,3},{4})", 2);
    options_agree("simplicial({1,3},{2,3},{2,4},{1,4})", 2);
    options_agree("ECN(6,{1,3},2)", 1);
    options_agree("ECN(6,{2},3)", 1);
}

const SUM3: &str = r#"
game = "simplicial({1,2,3},{4})"
[[family]]
name = "x1+x2+x3 = x4"
relations = ["a + b + c = d"]
"#;

const PAIRS: &str = r#"
game = "simplicial({1,2},{3,4})"
[[family]]
name = "x1+x2 = x3+x4"
relations = ["a + b = c + d"]
"#;

const CYCLE4: &str = r#"
game = "simplicial({1,3},{2,3},{2,4},{1,4})"
[[family]]
name = "x1 = x2, x3 = x4"
relations = ["a = b", "c = d"]
"#;

const ECN412_PLAIN: &str = r#"
game = "ECN(4,{1},2)"
reading = "plain"
[[family]]
name = "(a,b,a,b)"
relations = ["a = c", "b = d"]
"#;

/// A P-set written as a predicate.
type Pred = fn(&[u64]) -> bool;

/// The conjectures with the hand-derived P-sets, each with its P-set written as a predicate.
fn hand_cases() -> Vec<(Conjecture, Pred)> {
    vec![
        (from_toml(SUM3, "sum3").unwrap(), |p| {
            p[0] + p[1] + p[2] == p[3]
        }),
        (from_toml(PAIRS, "pairs").unwrap(), |p| {
            p[0] + p[1] == p[2] + p[3]
        }),
        (from_toml(CYCLE4, "cycle4").unwrap(), |p| {
            p[0] == p[1] && p[2] == p[3]
        }),
        (from_toml(ECN412_PLAIN, "ecn412").unwrap(), |p| {
            p[0] == p[2] && p[1] == p[3]
        }),
    ]
}

#[test]
fn hand_p_sets_agree_with_brute_force_and_membership() {
    for (c, want) in hand_cases() {
        let facets = c.game.complex.as_ref().unwrap().facets.clone();
        let mut b = Brute::new(&facets);
        for p in common::vectors(c.game.n, 0, 5) {
            assert_eq!(b.is_p(&p), want(&p), "{}: {p:?}", c.source);
            assert_eq!(c.contains(&p), want(&p), "{}: {p:?}", c.source);
        }
    }
}

#[test]
fn automorphisms_are_the_brute_force_ones() {
    for game in [
        "ECN(5,{2},2)",
        "simplicial({1,2,3},{4})",
        "simplicial({1,2},{3,4})",
        "ECN(6,{1,3},2)",
        "ECN(6,{2},2)",
        "ECN(4,{1},2)",
    ] {
        let (r, facets) = rules(game);
        let mut got = r.complex.as_ref().unwrap().automorphisms.clone().unwrap();
        got.sort();
        let mut want = brute_automorphisms(r.n, &facets);
        want.sort();
        assert_eq!(got, want, "{game}");
    }
    // Orders by hand: S3 on {1,2,3} fixing 4; the 4 swaps of the two pairs and within them (8); the
    // 5-cycle's dihedral group (10).
    let order = |g: &str| {
        rules(g)
            .0
            .complex
            .unwrap()
            .automorphisms
            .clone()
            .unwrap()
            .len()
    };
    assert_eq!(order("simplicial({1,2,3},{4})"), 6);
    assert_eq!(order("simplicial({1,2},{3,4})"), 8);
    assert_eq!(order("ECN(5,{2},2)"), 10);
}

/// ECN(5,{2},2) through cn-5-2: exact membership equals the brute-force P-set on [0..4]^5, and the
/// membership formula equals exact membership on [0..3]^5.
#[test]
fn relabeled_cn52_membership() {
    let c = from_theorem("relabeled", Ruleset::parse("ECN(5,{2},2)").unwrap()).unwrap();
    assert!(c.source.contains("cn-5-2"), "{}", c.source);
    let facets = c.game.complex.as_ref().unwrap().facets.clone();
    let mut b = Brute::new(&facets);
    let mut members = 0;
    for p in common::vectors(5, 0, 4) {
        assert_eq!(c.contains(&p), b.is_p(&p), "{p:?}");
        members += c.contains(&p) as usize;
    }
    assert!(members > 5);
    let Some(s) = common::solver("relabeled_cn52_membership") else {
        return;
    };
    let x = names("x", 5);
    let mut script: String = x
        .iter()
        .map(|v| format!("(declare-const {v} Int)\n"))
        .collect();
    script.push_str(&format!("(assert {})\n", member(&c, &x).unwrap()));
    let ps = common::vectors(5, 0, 3);
    for p in &ps {
        script.push_str(&format!("(push)\n{}(check-sat)\n(pop)\n", fix(&x, p)));
    }
    let ans = common::answers(&s, &script);
    for (p, a) in ps.iter().zip(&ans) {
        assert_eq!(a == "sat", c.contains(p), "{p:?}");
    }
}

#[test]
fn hand_characterizations_are_proved() {
    let Some(s) = common::solver("hand_characterizations_are_proved") else {
        return;
    };
    let mut cases: Vec<Conjecture> = hand_cases().into_iter().map(|(c, _)| c).collect();
    cases.push(from_theorem("relabeled", Ruleset::parse("ECN(5,{2},2)").unwrap()).unwrap());
    cases.push(from_theorem("cn-4-2", Ruleset::parse("ECN(4,{1},2)").unwrap()).unwrap());
    // S6 (720 readings) and, past the 1000 cap, S7 read through CN's rotations and reflections.
    cases.push(from_theorem("relabeled", Ruleset::parse("ECN(6,{1,2},5)").unwrap()).unwrap());
    let s7 = from_theorem("relabeled", Ruleset::parse("ECN(7,{3},6)").unwrap()).unwrap();
    // All equal, read under the 14 relabeled rotations and reflections.
    assert_eq!(s7.readings(7).unwrap().len(), 14);
    assert!(s7.contains(&[3; 7]) && !s7.contains(&[3, 3, 3, 3, 3, 3, 2]));
    cases.push(s7);
    for c in cases {
        let r = prove(&c, &s).unwrap();
        assert_eq!(r.verdict, Status::Proved, "{}: {r:?}", c.source);
    }
}

/// A wrong variant is refuted at `cond`, and the counterexample is checked from the rules: for (I)
/// a move (written out here) between two members that are not both P by brute force; for (II) a
/// non-terminal non-member none of whose options (written out here) is a member.
fn refuted(c: &Conjecture, cond: Condition, is_member: fn(&[u64]) -> bool) {
    let Some(s) = common::solver("refuted") else {
        return;
    };
    let r = condition(c, cond, &s).unwrap();
    assert_eq!(r.status, Status::Refuted, "{}: {r:?}", c.source);
    let cx = r.counterexample.unwrap();
    let x = &cx.position;
    let facets = c.game.complex.as_ref().unwrap().facets.clone();
    let opts = rule_options(&facets, x);
    let mut b = Brute::new(&facets);
    match cond {
        Condition::I => {
            let y = cx.move_to.unwrap();
            assert!(opts.contains(&y), "{x:?} -> {y:?} is no move");
            assert!(is_member(x) && is_member(&y), "{x:?} -> {y:?}");
            assert!(!(b.is_p(x) && b.is_p(&y)), "{x:?} -> {y:?}");
        }
        Condition::II => {
            assert!(!opts.is_empty() && !is_member(x), "{x:?}");
            assert!(opts.iter().all(|y| !is_member(y)), "{x:?}");
            assert!(b.is_p(x) || opts.iter().any(|y| b.is_p(y)), "{x:?}");
        }
        Condition::III | Condition::Search | Condition::Closure => unreachable!(),
    }
}

#[test]
fn wrong_variants_are_refuted() {
    // x1 + x2 + x3 <= x4 is too big: (0,0,0,1) -> (0,0,0,0) joins two members.
    let weak = from_toml(&SUM3.replace("a + b + c = d", "a + b + c <= d"), "weak").unwrap();
    refuted(&weak, Condition::I, |p| p[0] + p[1] + p[2] <= p[3]);
    // Adding "c = 0" (some of x1..x3 empty, under the automorphisms) is too small: e.g. (1,1,1,3) is
    // outside and has no move into it.
    let small = from_toml(
        &SUM3.replace(r#"["a + b + c = d"]"#, r#"["a + b + c = d", "c = 0"]"#),
        "small",
    )
    .unwrap();
    refuted(&small, Condition::II, |p| {
        p[0] + p[1] + p[2] == p[3] && (p[0] == 0 || p[1] == 0 || p[2] == 0)
    });
    // The 4-cycle with the CN(4,2) families not relabeled (x1 = x3, x2 = x4): wrong.
    let unrelabeled = from_toml(
        &CYCLE4.replace(r#"["a = b", "c = d"]"#, r#"["a = c", "b = d"]"#),
        "raw",
    )
    .unwrap();
    if let Some(s) = common::solver("wrong_variants_are_refuted") {
        assert_eq!(prove(&unrelabeled, &s).unwrap().verdict, Status::Refuted);
    }
    // Under the automorphism group of the 4-cycle (x1-x3-x2-x4), the variant's set is
    // {x1 = x3, x2 = x4} or {x1 = x4, x2 = x3}.
    refuted(&unrelabeled, Condition::I, |p| {
        (p[0] == p[2] && p[1] == p[3]) || (p[0] == p[3] && p[1] == p[2])
    });
}

#[test]
fn readings_that_do_not_fit_are_errors() {
    let e = from_toml(
        &SUM3.replace("game =", "reading = \"min-first\"\ngame ="),
        "f",
    )
    .unwrap_err();
    assert!(e.to_string().contains("min-first"), "{e}");
    let cn = "game = \"CN(4,2)\"\nreading = \"plain\"\n[[family]]\nname = \"x\"\nrelations = [\"a = c\", \"b = d\"]\n";
    assert!(from_toml(cn, "g").is_err());
    // simplicial({1,...,8}) is one facet: the group is S8 (40320 > 1000), too large to read "any".
    let big = "game = \"simplicial({1,2,3,4,5,6,7,8})\"\n[[family]]\nname = \"zero\"\nrelations = [\"a = 0\", \"b = 0\", \"c = 0\", \"d = 0\", \"e = 0\", \"f = 0\", \"g = 0\", \"h = 0\"]\n";
    assert!(from_toml(big, "big").is_err());
    assert!(from_toml(
        &big.replace("[[family]]", "reading = \"plain\"\n[[family]]"),
        "big"
    )
    .is_ok());
}
