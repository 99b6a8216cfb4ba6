//! Ferguson's chip games in the prover: each registry result proved for every box size (the listed
//! numbers of boxes that CI runs; the others in an ignored test), its SMT membership and its exact
//! membership compared with an independent brute force (the moves written again here) on bounded
//! totals, and a wrong variant of each claim refuted with a counterexample that the brute force
//! confirms.

use nimlab_core::Play;
use nimlab_prove::automata::Dfa;
use nimlab_prove::chips::{
    automaton_claim, from_registry_automata, prove_chips_automata, CHIP_PROVED_BY_AUTOMATA,
};
use nimlab_prove::chips::{
    chip_queries, from_registry, prove_chips, ChipClaim, ChipGame, ChipKind, ChipSet, CHIP_PROVED,
    CHIP_PROVED_IN_CI,
};
use nimlab_prove::expr::Formula;
use nimlab_prove::{Condition, SmtSolver, Status};
use std::collections::{BTreeSet, HashMap};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

fn z3() -> SmtSolver {
    SmtSolver::new("z3", Duration::from_secs(120))
}

/// The options of `p` (sorted), from the rules, written independently of nimlab-games.
fn options(game: &str, k: usize, p: &[u64]) -> BTreeSet<Vec<u64>> {
    let mut out = BTreeSet::new();
    let mut push = |mut v: Vec<u64>| {
        v.sort_unstable();
        out.insert(v);
    };
    let kept_sizes: Vec<usize> = if game.starts_with("ET") || game.starts_with("ENTROPY") {
        Vec::new()
    } else if game.starts_with("EABO") {
        vec![1]
    } else if game.starts_with("ER") {
        vec![k - 1]
    } else {
        (1..k).collect()
    };
    if game.starts_with("ET") {
        for i in 0..k {
            for j in 0..k {
                if i != j {
                    for t in 1..p[j] {
                        let mut v = p.to_vec();
                        v[i] = t;
                        v[j] = p[j] - t;
                        push(v);
                    }
                }
            }
        }
    } else if game.starts_with("ENTROPY") {
        for i in 0..k {
            for j in 0..k {
                if i != j && p[i] > p[j] + 1 {
                    for t in 1..p[i] - p[j] {
                        let mut v = p.to_vec();
                        v[i] -= t;
                        v[j] += t;
                        push(v);
                    }
                }
            }
        }
    } else {
        let mut totals = BTreeSet::new();
        for mask in 1u32..(1 << k) {
            if kept_sizes.contains(&(mask.count_ones() as usize)) {
                totals.insert(
                    (0..k)
                        .filter(|i| mask & (1 << i) != 0)
                        .map(|i| p[i])
                        .sum::<u64>(),
                );
            }
        }
        for n in totals {
            // Every k-tuple of positive parts (non-decreasing) with total n.
            fn rec(n: u64, k: usize, lo: u64, cur: &mut Vec<u64>, f: &mut dyn FnMut(Vec<u64>)) {
                if k == 1 {
                    if n >= lo {
                        cur.push(n);
                        f(cur.clone());
                        cur.pop();
                    }
                    return;
                }
                let mut a = lo;
                while a * k as u64 <= n {
                    cur.push(a);
                    rec(n - a, k - 1, a, cur, f);
                    cur.pop();
                    a += 1;
                }
            }
            rec(n, k, 1, &mut Vec::new(), &mut |v| push(v));
        }
    }
    out
}

/// The P-positions (sorted, boxes >= 1) of total at most `s`, by brute force, in `play`.
fn brute(game: &str, k: usize, s: u64, play: Play) -> HashMap<Vec<u64>, bool> {
    let mut all: Vec<Vec<u64>> = Vec::new();
    fn rec(k: usize, lo: u64, left: u64, cur: &mut Vec<u64>, out: &mut Vec<Vec<u64>>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        let mut a = lo;
        while a * ((k - cur.len()) as u64) <= left {
            cur.push(a);
            rec(k, a, left - a, cur, out);
            cur.pop();
            a += 1;
        }
    }
    rec(k, 1, s, &mut Vec::new(), &mut all);
    // Every move lowers the total or (Entropy, not used here) keeps it: by total, then by sum of squares.
    all.sort_by_key(|p| (p.iter().sum::<u64>(), p.iter().map(|x| x * x).sum::<u64>()));
    let mut is_p: HashMap<Vec<u64>, bool> = HashMap::new();
    for p in all {
        let opts = options(game, k, &p);
        let v = if opts.is_empty() {
            play == Play::Normal
        } else {
            opts.iter().all(|o| !is_p[o])
        };
        is_p.insert(p, v);
    }
    is_p
}

/// Asks z3 for the SMT membership of every position of `positions` at once (one check per
/// position, between push and pop).
fn smt_members(set: &ChipSet, positions: &[Vec<u64>]) -> Vec<bool> {
    let mut script = format!(
        "(set-logic QF_LIA)\n{}",
        set.define("member", positions[0].len())
    );
    for p in positions {
        let args: Vec<String> = p.iter().map(|v| v.to_string()).collect();
        script.push_str(&format!(
            "(push)\n(assert (member {}))\n(check-sat)\n(pop)\n",
            args.join(" ")
        ));
    }
    let mut child = Command::new("z3")
        .arg("-in")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("z3");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let words: Vec<bool> = text.split_whitespace().map(|w| w == "sat").collect();
    assert_eq!(words.len(), positions.len(), "{text}");
    words
}

/// The claim's two memberships (SMT and exact) agree with brute force on every position of total
/// at most `s`: the P-set (a subset: inside it; winning: N-positions).
fn agrees_with_brute_force(c: &ChipClaim, s: u64) {
    let id = c.game.id();
    let b = brute(&id, c.game.k, s, c.play);
    let mut positions: Vec<Vec<u64>> = b.keys().cloned().collect();
    positions.sort();
    let smt = smt_members(&c.set, &positions);
    for (p, in_smt) in positions.iter().zip(smt) {
        let exact = (c.set.exact)(p);
        assert_eq!(
            exact, in_smt,
            "{id} {}: SMT and exact membership differ at {p:?}",
            c.source
        );
        let is_p = b[p];
        let ok = match c.kind {
            ChipKind::PSet => exact == is_p,
            ChipKind::Subset => !exact || is_p,
            ChipKind::Winning => !exact || !is_p,
        };
        assert!(ok, "{id} {}: {p:?} member {exact}, P {is_p}", c.source);
    }
}

/// Proves `id` on `game` and checks its memberships against brute force.
fn proves(id: &str, game: &str) {
    let c = from_registry(id, game).unwrap();
    agrees_with_brute_force(&c, c.game.k as u64 + 14);
    let r = prove_chips(&c, &[z3()]).unwrap();
    assert_eq!(
        r.verdict,
        Status::Proved,
        "{id} on {game}: {:#}",
        r.to_json()
    );
    assert!(r.box_check.is_some());
}

#[test]
fn every_chip_result_listed_is_proved_in_ci() {
    for (id, games) in CHIP_PROVED {
        for game in games.iter().filter(|g| CHIP_PROVED_IN_CI.contains(g)) {
            proves(id, game);
        }
    }
}

#[test]
#[ignore = "slow (several minutes): the k beyond those of CI; scripts/prove-chips.sh times them"]
fn every_chip_result_listed_is_proved_for_every_k() {
    for (id, games) in CHIP_PROVED {
        for game in games.iter().filter(|g| !CHIP_PROVED_IN_CI.contains(g)) {
            proves(id, game);
        }
    }
}

#[test]
fn theory_says_proved() {
    let (text, on) = nimlab_prove::proved::checked("ferguson-eabo");
    assert!(
        text.starts_with("proved for all sizes on EABO(2)"),
        "{text}"
    );
    assert!(on.iter().any(|g| g == "EABO(6)"), "{on:?}");
    let (text, _) = nimlab_prove::proved::checked("ferguson-et-k2-grundy");
    assert!(text.starts_with("proved for all sizes"), "{text}");
    for id in [
        "ferguson-et-k3",
        "ferguson-et-k4",
        "ferguson-entropy-k3",
        "ferguson-entropy-k3-misere",
    ] {
        assert_eq!(
            nimlab_prove::proved::checked(id).0,
            "proved for all sizes (automata)"
        );
    }
}

#[test]
fn binary_results_are_refused_in_one_line() {
    for (id, game) in [
        ("ferguson-et-k3", "ET(3)"),
        ("ferguson-et-k4", "ET(4)"),
        ("ferguson-entropy-k3", "ENTROPY(3)"),
        ("ferguson-entropy-k3-misere", "ENTROPY(3)"),
    ] {
        let e = from_registry(id, game).err().unwrap().to_string();
        assert!(e.contains("binary digits") && !e.contains('\n'), "{e}");
    }
    let e = from_registry("ferguson-eabo", "ER(3)")
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("not about ER(3)"), "{e}");
    let e = from_registry("ferguson-eabo", "CN(3,2)")
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("not one of Ferguson's chip games"), "{e}");
}

/// A wrong variant: the claim `id` on `game` with the membership `formula` (the boxes are the
/// letters `a`, `b`, ...; `all(...)`, `any(...)`, `not(...)` of relations) and its exact reading
/// `exact`.
fn variant(
    id: &str,
    game: &str,
    formula: &str,
    exact: impl Fn(&[u64]) -> bool + Send + Sync + 'static,
) -> ChipClaim {
    let mut c = from_registry(id, game).unwrap();
    let k = c.game.k;
    c.set = ChipSet {
        member: Some(Formula::parse(formula, k).unwrap()),
        exact: Box::new(exact),
        period: c.set.period,
        residues: false,
    };
    c.source = format!("{id} (wrong variant)");
    c
}

/// The variant is refuted, with a counterexample that brute force confirms.
fn refuted(c: &ChipClaim) {
    let r = prove_chips(c, &[z3()]).unwrap();
    assert_eq!(
        r.verdict,
        Status::Refuted,
        "{}: {:#}",
        c.source,
        r.to_json()
    );
    let bad = r
        .conditions
        .iter()
        .find(|x| x.status == Status::Refuted)
        .unwrap();
    assert_ne!(
        bad.condition,
        Condition::Search,
        "the prover itself refutes it"
    );
    let cx = bad.counterexample.as_ref().unwrap();
    let id = c.game.id();
    let k = c.game.k;
    let total: u64 = cx
        .position
        .iter()
        .sum::<u64>()
        .max(cx.move_to.as_ref().map_or(0, |y| y.iter().sum()));
    let b = brute(&id, k, total, c.play);
    let member = |p: &Vec<u64>| (c.set.exact)(p);
    let x = &cx.position;
    match (bad.condition, &cx.move_to) {
        (Condition::I, Some(y)) => {
            assert!(member(x) && member(y) && options(&id, k, x).contains(y));
        }
        (Condition::II, None) => {
            assert!(!member(x) && options(&id, k, x).iter().all(|o| !member(o)));
            assert!(!options(&id, k, x).is_empty());
        }
        (Condition::III, None) => assert!(options(&id, k, x).is_empty()),
        (Condition::Closure, Some(y)) => {
            // A member that is an N-position, with a winning move.
            assert!(member(x) && !b[x] && options(&id, k, x).contains(y) && b[y]);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn wrong_variants_are_refuted() {
    // EABO(3): the residue bound off by one (1 <= x mod 6 <= 3).
    refuted(&variant(
        "ferguson-eabo",
        "EABO(3)",
        "all(1 <= mod(a, 6) <= 3, 1 <= mod(b, 6) <= 3, 1 <= mod(c, 6) <= 3)",
        |p| p.iter().all(|&x| (1..=3).contains(&(x % 6))),
    ));
    // EABO(3) misère: q = 10 read as 9.
    refuted(&variant(
        "ferguson-eabo-misere",
        "EABO(3)",
        "all(any(1 <= a <= 2, all(a >= 3, 3 <= mod(a, 9) <= 4)), any(1 <= b <= 2, all(b >= 3, 3 <= mod(b, 9) <= 4)), any(1 <= c <= 2, all(c >= 3, 3 <= mod(c, 9) <= 4)), any(a >= 3, b >= 3, c >= 3))",
        |p| {
            p.iter().all(|&x| (1..=2).contains(&x) || (x >= 3 && (3..=4).contains(&(x % 9))))
                && p.iter().any(|&x| x >= 3)
        },
    ));
    // ET(2): "both boxes of one parity" instead of "both odd".
    refuted(&variant(
        "ferguson-et-k2-grundy",
        "ET(2)",
        "mod(a, 2) = mod(b, 2)",
        |p| p[0] % 2 == p[1] % 2,
    ));
    // ET(3) subset: every box even is not inside the P-set.
    refuted(&variant(
        "ferguson-et-odd",
        "ET(3)",
        "all(mod(a, 2) = 0, mod(b, 2) = 0, mod(c, 2) = 0)",
        |p| p.iter().all(|&x| x % 2 == 0),
    ));
    // ER(4) (even k: P iff all odd): "all odd but one".
    refuted(&variant(
        "ferguson-er",
        "ER(4)",
        "mod(a, 2) + mod(b, 2) + mod(c, 2) + mod(d, 2) >= 3",
        |p| p.iter().filter(|&&x| x % 2 == 1).count() >= 3,
    ));
    // SER(3): the total a multiple of 3 is not enough.
    refuted(&variant(
        "ferguson-ser",
        "SER(3)",
        "mod(a + b + c, 3) = 0",
        |p| p.iter().sum::<u64>() % 3 == 0,
    ));
    // ER(3) misère: 1^2 z with z odd instead of even.
    refuted(&variant(
        "ferguson-er-misere",
        "ER(3)",
        "any(all(a = 1, b = 1, mod(c, 2) = 1, c > 1), all(a = 1, c = 1, mod(b, 2) = 1, b > 1), all(b = 1, c = 1, mod(a, 2) = 1, a > 1))",
        |p| p[0] == 1 && p[1] == 1 && p[2] % 2 == 1 && p[2] > 1,
    ));
}

#[test]
fn queries_are_written_for_every_condition() {
    let c = from_registry("ferguson-eabo", "EABO(3)").unwrap();
    for cond in [Condition::I, Condition::II, Condition::III] {
        let qs = chip_queries(&c, cond).unwrap();
        assert!(!qs.is_empty());
        for q in qs {
            assert!(q.script("EABO(3)", Play::Normal).contains("(check-sat"));
        }
    }
    let dir = std::env::temp_dir().join(format!("nimlab-chips-emit-{}", std::process::id()));
    let files = nimlab_prove::chips::emit_chips(&c, None, &dir).unwrap();
    assert!(files.iter().any(|f| f.ends_with("README.md")));
    // Each emitted query is unsat for z3 run on the file itself.
    for f in files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "smt2"))
    {
        let out = Command::new("z3").arg(f).output().unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            "unsat",
            "{}",
            f.display()
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(ChipGame::parse("CN(3,2)").unwrap().is_none());
}

#[test]
fn binary_results_are_proved_below_2_w() {
    use nimlab_prove::chips::from_registry_bits;
    for (id, game, w) in [
        ("ferguson-et-k3", "ET(3)", 8),
        ("ferguson-entropy-k3", "ENTROPY(3)", 4),
    ] {
        let c = from_registry_bits(id, game, w).unwrap();
        let r = prove_chips(&c, &[z3()]).unwrap();
        assert_eq!(r.verdict, Status::Proved, "{id}: {:#}", r.to_json());
        assert_eq!(r.range(), format!("entries < 2^{w}"));
    }
    // ET(3): the parities of the three boxes equal, instead of their 2-adic valuations.
    let mut c = from_registry_bits("ferguson-et-k3", "ET(3)", 4).unwrap();
    c.set.member =
        Some(Formula::parse("all(mod(a, 2) = mod(b, 2), mod(b, 2) = mod(c, 2))", 3).unwrap());
    c.set.exact = Box::new(|p: &[u64]| p[0] % 2 == p[1] % 2 && p[1] % 2 == p[2] % 2);
    c.source = "ferguson-et-k3 (wrong variant)".into();
    refuted(&c);
    let e = from_registry_bits("ferguson-eabo", "EABO(3)", 8)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("proved without it"), "{e}");
}

/// The automaton over `tracks` tracks of the states reachable from `init` under `step` (a test's own
/// construction, through [`Dfa::from_parts`]).
fn dfa_of<S: Clone + Eq + std::hash::Hash>(
    tracks: usize,
    init: S,
    step: impl Fn(&S, u32) -> S,
    fin: impl Fn(&S) -> bool,
) -> Dfa {
    let mut index: HashMap<S, u32> = HashMap::new();
    let mut order = vec![init.clone()];
    index.insert(init, 0);
    let mut trans = Vec::new();
    let mut i = 0;
    while i < order.len() {
        for l in 0..1u32 << tracks {
            let t = step(&order[i], l);
            let n = order.len() as u32;
            let id = *index.entry(t.clone()).or_insert_with(|| {
                order.push(t);
                n
            });
            trans.push(id);
        }
        i += 1;
    }
    let fin = order.iter().map(fin).collect();
    Dfa::from_parts(tracks, trans, fin).unwrap()
}

/// P-positions by the recursion over the options written in this file (sorted positions).
fn is_p(game: &str, p: &[u64], play: Play, memo: &mut HashMap<Vec<u64>, bool>) -> bool {
    let mut key = p.to_vec();
    key.sort_unstable();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let opts = options(game, key.len(), &key);
    let v = if opts.is_empty() {
        play == Play::Normal
    } else {
        opts.iter().all(|o| !is_p(game, o, play, memo))
    };
    memo.insert(key, v);
    v
}

#[test]
fn binary_results_are_proved_by_automata() {
    for (id, game) in CHIP_PROVED_BY_AUTOMATA {
        let c = from_registry_automata(id, game).unwrap();
        let p = prove_chips_automata(&c, None, Duration::from_secs(300)).unwrap();
        let r = &p.report;
        assert_eq!(r.verdict, Status::Proved, "{id}: {r:?}");
        assert_eq!((r.method, r.range().as_str()), ("automata", "all"));
        assert!(r.box_check.as_ref().is_some_and(|b| b.positions > 1000));
        assert!(p.states.iter().all(|(_, n)| *n > 0), "{:?}", p.states);
    }
    // ET's partial results, by automata too: inside the P-set, and N-positions.
    for game in ["ET(3)", "ET(4)"] {
        for (id, claim) in [
            ("ferguson-et-odd", ChipKind::Subset),
            ("ferguson-et-two-even", ChipKind::Winning),
        ] {
            let c = from_registry_automata(id, game).unwrap();
            assert_eq!(c.kind, claim);
            let r = prove_chips_automata(&c, None, Duration::from_secs(300))
                .unwrap()
                .report;
            assert_eq!(r.verdict, Status::Proved, "{id} on {game}: {r:?}");
        }
    }
    // A wrong N-claim: one to three even boxes (1 2^3 cannot make every box odd in one move).
    let three = dfa_of(
        4,
        0u32,
        |_, l| l,
        |&l| (1..=3).contains(&(4 - l.count_ones())),
    );
    let d = three.clone();
    let wrong = ChipClaim {
        game: ChipGame::parse("ET(4)").unwrap().unwrap(),
        play: Play::Normal,
        kind: ChipKind::Winning,
        source: "one to three even boxes".into(),
        set: ChipSet {
            member: None,
            exact: Box::new(move |p: &[u64]| {
                p.iter().all(|&v| v >= 1)
                    && d.accepts(&p.iter().map(|&v| v as u128).collect::<Vec<_>>())
            }),
            period: 1,
            residues: false,
        },
        target: Some(ChipSet {
            member: None,
            exact: Box::new(|p: &[u64]| p.iter().all(|&x| x % 2 == 1)),
            period: 2,
            residues: false,
        }),
        bits: None,
        totals: None,
    };
    let r = prove_chips_automata(&wrong, Some(&three), Duration::from_secs(300))
        .unwrap()
        .report;
    assert_eq!(r.verdict, Status::Refuted, "{r:?}");
    let x = &r.conditions[0].counterexample.as_ref().unwrap().position;
    assert_eq!(x.iter().filter(|&&v| v % 2 == 0).count(), 3, "{x:?}");
    assert!(options("ET(4)", 4, x)
        .iter()
        .all(|o| o.iter().any(|&v| v % 2 == 0)));
    // Refusals in one line: a linear result, a game the result is not about, the wrong play.
    for (id, game) in [
        ("ferguson-er", "ER(3)"),
        ("ferguson-et-k3", "ET(4)"),
        ("ferguson-eabo", "EABO(3)"),
    ] {
        let e = from_registry_automata(id, game).err().unwrap().to_string();
        assert!(!e.contains('\n'), "{e}");
    }
}

/// A wrong set is refuted by the automata, and its counterexample checks out on the moves written
/// in this file: the set is not the P-set (a member or an option on the wrong side).
fn refuted_by_automata(game: &str, set: &Dfa, play: Play) {
    let c = automaton_claim(game, set, play, "wrong variant").unwrap();
    let r = prove_chips_automata(&c, Some(set), Duration::from_secs(300))
        .unwrap()
        .report;
    assert_eq!(r.verdict, Status::Refuted, "{game}: {r:?}");
    let cond = r
        .conditions
        .iter()
        .find(|c| c.status == Status::Refuted)
        .unwrap();
    let cx = cond.counterexample.as_ref().unwrap();
    let k = cx.position.len();
    let member = |p: &[u64]| set.accepts(&p.iter().map(|&v| v as u128).collect::<Vec<_>>());
    let mut memo = HashMap::new();
    let x = &cx.position;
    let mut wrong = member(x) != is_p(game, x, play, &mut memo);
    if let Some(y) = &cx.move_to {
        assert!(options(game, k, x).contains(y), "{x:?} -> {y:?}");
        wrong |= member(y) != is_p(game, y, play, &mut memo);
    }
    for o in options(game, k, x) {
        wrong |= member(&o) != is_p(game, &o, play, &mut memo);
    }
    assert!(wrong, "{game}: {cx:?}");
}

#[test]
fn wrong_binary_variants_are_refuted_by_automata() {
    // ET(3): the valuations of the same parity, not equal. State: the tracks with a 1 read, the
    // tracks whose zeros since their last 1 are odd in number.
    let parity = dfa_of(
        3,
        (0u32, 0u32),
        |&(seen, odd), l| (seen | l, (odd ^ seen) & !l & 7),
        |&(seen, odd)| seen == 7 && (odd == 0 || odd == 7),
    );
    refuted_by_automata("ET(3)", &parity, Play::Normal);
    // ENTROPY(3): two boxes equal, whatever the third (2^n m instead of 4^n m). State: the pairs
    // whose digits agreed so far.
    let pairs = [(0, 1), (0, 2), (1, 2)];
    let two_equal = dfa_of(
        3,
        7u32,
        |&same, l| {
            let mut s = same;
            for (b, (i, j)) in pairs.iter().enumerate() {
                if (l >> i) & 1 != (l >> j) & 1 {
                    s &= !(1 << b);
                }
            }
            s
        },
        |&same| same != 0,
    );
    refuted_by_automata("ENTROPY(3)", &two_equal, Play::Normal);
    // ET(4): the halving rounds the one odd box down instead of up; read least significant digit
    // first (state: the carries, or the outcome), reversed, on boxes >= 1.
    let round = |c: u32, l: u32| -> Result<u32, bool> {
        let s: Vec<u32> = (0..4).map(|i| ((l >> i) & 1) + ((c >> i) & 1)).collect();
        let odd = s.iter().filter(|&&v| v % 2 == 1).count();
        if odd >= 2 {
            return Err(odd == 4);
        }
        Ok((0..4).map(|i| (s[i] / 2) << i).sum())
    };
    let lsb = dfa_of(
        4,
        Ok(0u32),
        |s, l| match s {
            Ok(c) => round(*c, l),
            Err(p) => Err(*p),
        },
        |s| {
            let mut s = *s;
            for _ in 0..20 {
                match s {
                    Ok(c) => s = round(c, 0),
                    Err(p) => return p,
                }
            }
            false
        },
    );
    let budget = nimlab_prove::automata::Budget::new(
        std::time::Instant::now() + Duration::from_secs(300),
        1_000_000,
    );
    let positive = dfa_of(4, 0u32, |&seen, l| seen | l, |&seen| seen == 15);
    let floor = Dfa::product(&lsb.reverse(&budget).unwrap(), &positive, false, &budget).unwrap();
    refuted_by_automata("ET(4)", &floor, Play::Normal);
    // The right set in the wrong play.
    let (_, et3) = nimlab_prove::automata::chip_theorem_set("ferguson-et-k3", 3, &budget).unwrap();
    refuted_by_automata("ET(3)", &et3, Play::Misere);
}

/// No time at all: every condition is unknown (the automata stop at their deadline), nothing panics.
#[test]
fn automata_without_time_answer_unknown() {
    let c = from_registry_automata("ferguson-et-k4", "ET(4)").unwrap();
    let r = prove_chips_automata(&c, None, Duration::ZERO)
        .unwrap()
        .report;
    assert_eq!(r.verdict, Status::Unknown, "{r:?}");
    assert!(r
        .conditions
        .iter()
        .all(|c| c.status == Status::Unknown && c.reason.as_deref() == Some("time limit reached")));
}
