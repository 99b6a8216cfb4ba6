//! Condition (C): a set inside the P-set (`prove_subset`, `prove_subset_automata`), checked against an
//! exhaustive search written here (its own option generators for CN and SCN, not the games crate's):
//! Lemma 5 of the CN(7,4) paper proved, random families whose verdicts agree with a check of (C) and
//! of the members' outcomes over a whole box, SCN sets, misère play.

mod common;

use nimlab_core::Play;
use nimlab_prove::{
    from_theorem, from_toml, prove_subset, prove_subset_automata, Conjecture, Ruleset, Status,
};
use std::collections::HashMap;
use std::time::Duration;

type Pos = Vec<u64>;

/// The options of `p` in CN(n,k) (`scn`: SCN(n,k), emptied piles vanish), by brute force.
fn options(p: &[u64], k: usize, scn: bool) -> Vec<Pos> {
    let m = p.len();
    let windows: Vec<Vec<usize>> = if m <= k {
        vec![(0..m).collect()]
    } else {
        (0..m)
            .map(|s| (0..k).map(|j| (s + j) % m).collect())
            .collect()
    };
    options_in(p, &windows, scn)
}

/// The options of `p` when a move lowers any stacks of one of `windows` (the facets of a simplicial
/// complex, the windows of a circle), removing at least one token.
fn options_in(p: &[u64], windows: &[Vec<usize>], scn: bool) -> Vec<Pos> {
    let windows = windows.to_vec();
    let mut out = Vec::new();
    for w in windows {
        let mut vals: Vec<u64> = vec![0; w.len()];
        loop {
            if w.iter().zip(&vals).any(|(&i, &v)| v != p[i]) {
                let mut y = p.to_vec();
                for (&i, &v) in w.iter().zip(&vals) {
                    y[i] = v;
                }
                if scn {
                    y.retain(|&v| v > 0);
                }
                out.push(y);
            }
            let mut j = 0;
            while j < w.len() && vals[j] == p[w[j]] {
                vals[j] = 0;
                j += 1;
            }
            if j == w.len() {
                break;
            }
            vals[j] += 1;
        }
    }
    out
}

/// Exact outcomes by memoized search (true: P-position).
struct Brute {
    k: usize,
    scn: bool,
    play: Play,
    memo: HashMap<Pos, bool>,
}

impl Brute {
    fn new(k: usize, scn: bool, play: Play) -> Brute {
        Brute {
            k,
            scn,
            play,
            memo: HashMap::new(),
        }
    }

    fn is_p(&mut self, p: &[u64]) -> bool {
        if let Some(&v) = self.memo.get(p) {
            return v;
        }
        let opts = options(p, self.k, self.scn);
        let v = if opts.is_empty() {
            self.play == Play::Normal
        } else {
            !opts.iter().any(|o| self.is_p(o))
        };
        self.memo.insert(p.to_vec(), v);
        v
    }
}

/// Every position of the box: CN tuples of n entries in 0..=hi; SCN circles of every length up to n
/// with piles in 1..=hi.
fn box_positions(n: usize, hi: u64, scn: bool) -> Vec<Pos> {
    if !scn {
        return common::vectors(n, 0, hi);
    }
    (0..=n).flat_map(|m| common::vectors(m, 1, hi)).collect()
}

/// What a box says about (C): the first member x with an option y that is not terminal-in-misère and
/// has no option in the set; and the first member that is an N-position.
struct BoxCheck {
    violation: Option<(Pos, Pos)>,
    n_member: Option<Pos>,
    members: usize,
}

fn box_check(c: &Conjecture, n: usize, k: usize, hi: u64, scn: bool) -> BoxCheck {
    box_check_with(c, n, k, hi, scn, true)
}

/// As [`box_check`]; without `closure`, only the members' outcomes.
fn box_check_with(
    c: &Conjecture,
    n: usize,
    k: usize,
    hi: u64,
    scn: bool,
    closure: bool,
) -> BoxCheck {
    let mut brute = Brute::new(k, scn, c.play);
    let mut out = BoxCheck {
        violation: None,
        n_member: None,
        members: 0,
    };
    for x in box_positions(n, hi, scn) {
        if !c.contains(&x) {
            continue;
        }
        out.members += 1;
        if out.n_member.is_none() && !brute.is_p(&x) {
            out.n_member = Some(x.clone());
        }
        if closure && out.violation.is_none() {
            for y in options(&x, k, scn) {
                let ys = options(&y, k, scn);
                if c.play == Play::Misere && ys.is_empty() {
                    continue;
                }
                if !ys.iter().any(|z| c.contains(z)) {
                    out.violation = Some((x.clone(), y));
                    break;
                }
            }
        }
    }
    out
}

/// The verdict agrees with the box: proved only if the box has no violation of (C) and no N-member;
/// a refutation names a member that is an N-position with a move to a P-position; an unknown
/// answer comes from a violation of (C) (seen in the box when its position lies there).
fn agrees(
    c: &Conjecture,
    verdict: Status,
    report: &nimlab_prove::Report,
    b: &BoxCheck,
    k: usize,
    scn: bool,
) {
    let what = format!("{}: {:?}", c.source, report.to_json());
    match verdict {
        Status::Proved => {
            assert!(
                b.violation.is_none(),
                "{what}: box violation {:?}",
                b.violation
            );
            assert!(b.n_member.is_none(), "{what}: N-member {:?}", b.n_member);
        }
        Status::Refuted => {
            let cx = report
                .conditions
                .iter()
                .find_map(|r| r.counterexample.clone())
                .expect("a counterexample");
            let mut brute = Brute::new(k, scn, c.play);
            assert!(c.contains(&cx.position), "{what}");
            assert!(!brute.is_p(&cx.position), "{what}: the member is P");
            if let Some(y) = &cx.move_to {
                assert!(options(&cx.position, k, scn).contains(y), "{what}");
                assert!(brute.is_p(y), "{what}: the move is not winning");
            }
        }
        Status::Unknown => {
            // The answer is unknown only when (C) fails at a member that is a P-position.
            assert!(
                b.violation.is_some()
                    || b.members == 0
                    || report.conditions.iter().any(|r| r
                        .reason
                        .as_deref()
                        .is_some_and(|w| w.starts_with("(C) fails"))),
                "{what}"
            );
        }
    }
    if b.violation.is_some() || b.n_member.is_some() {
        assert_ne!(verdict, Status::Proved, "{what}");
    }
    if b.n_member.is_some() {
        // A member that is an N-position: (C) fails somewhere, and exact search refutes.
        assert_ne!(verdict, Status::Proved, "{what}");
    }
}

fn families_file(game: &str, fams: &[(usize, Vec<&str>)]) -> String {
    let mut s = format!("game = \"{game}\"\n");
    for (i, (len, rels)) in fams.iter().enumerate() {
        let rels: Vec<String> = rels.iter().map(|r| format!("\"{r}\"")).collect();
        s.push_str(&format!(
            "[[family]]\nname = \"f{i}\"\nlength = {len}\nrelations = [{}]\n",
            rels.join(", ")
        ));
    }
    s
}

/// A small deterministic generator (xorshift), so that the cases are the same on every run.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[test]
fn lemma5_members_are_p_positions_for_every_size() {
    let Some(s) = common::solver("lemma5_members_are_p_positions_for_every_size") else {
        return;
    };
    for (id, games) in nimlab_prove::proved::PROVED_SUBSET {
        for game in *games {
            let c = from_theorem(id, Ruleset::parse(game).unwrap()).unwrap();
            let r = prove_subset(&c, &s).unwrap();
            assert_eq!(r.verdict, Status::Proved, "{id} on {game}: {r:?}");
            assert_eq!(r.claim, nimlab_prove::Claim::Subset);
        }
    }
    // The members in a box are P-positions by exhaustive search (CN(5,3): 16807 positions, CN(7,4):
    // 78125), and the automata prover agrees.
    for (game, n, k, hi) in [("CN(5,3)", 5, 3, 6), ("CN(7,4)", 7, 4, 4)] {
        let c = from_theorem("cn-lemma5-s1", Ruleset::parse(game).unwrap()).unwrap();
        let b = box_check_with(&c, n, k, hi, false, false);
        assert!(b.members > 20, "{game}: {} members", b.members);
        assert!(b.n_member.is_none(), "{game}");
    }
    let c = from_theorem("cn-lemma5-s1", Ruleset::parse("CN(7,4)").unwrap()).unwrap();
    let r = prove_subset_automata(&c, Duration::from_secs(120)).unwrap();
    assert_eq!(r.verdict, Status::Proved, "{r:?}");
    assert_eq!(
        nimlab_prove::proved::checked("cn-lemma5-s1").0,
        "proved for all sizes on CN(3,2), CN(5,3), CN(7,4), CN(9,5), CN(11,6) (its members are P-positions); checked on a box for the other games"
    );
}

/// Random sets on CN(4,2) and CN(5,3): a theorem's P-set family narrowed by random relations (inside
/// the P-set: proved or unknown), sometimes with a random family added (which may hold N-positions).
/// The SMT verdict of (C) and the automata verdict agree with a check of (C) and of every member's
/// outcome over a box.
#[test]
fn closure_agrees_with_a_box_check() {
    let Some(s) = common::solver("closure_agrees_with_a_box_check") else {
        return;
    };
    // CN(4,2): a = c, b = d (Dufour-Heubach); CN(5,3): (x,0,x,a,b) with x = a + b.
    let pool4 = [
        "a = b",
        "a <= b",
        "c <= 2",
        "a + b >= 3",
        "b = 0",
        "a = 2 * b",
        "d >= 1",
        "a = 1",
        "b + c = d",
        "a = c",
        "c = 0",
    ];
    let pool5 = [
        "a <= 3",
        "d = e",
        "d <= e",
        "a >= 2",
        "d = 0",
        "e = 1",
        "a = 2 * d",
        "c = d",
        "b = 0",
        "a + b = c + d",
        "e = 0",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut seen = [0usize; 3];
    for case in 0..60 {
        let (game, n, k, hi, base, pool): (&str, usize, usize, u64, &[&str], &[&str]) =
            if case % 2 == 0 {
                ("CN(4,2)", 4, 2, 6, &["a = c", "b = d"], &pool4)
            } else {
                ("CN(5,3)", 5, 3, 4, &["b = 0", "a = c", "d + e = a"], &pool5)
            };
        let mut rels: Vec<&str> = base.to_vec();
        for _ in 0..rng.below(3) {
            let r = pool[rng.below(pool.len())];
            if !rels.contains(&r) {
                rels.push(r);
            }
        }
        let mut fams = vec![(n, rels)];
        if rng.below(3) == 0 {
            let extra: Vec<&str> = (0..1 + rng.below(2))
                .map(|_| pool[rng.below(pool.len())])
                .collect();
            fams.push((n, extra));
        }
        let text = families_file(game, &fams);
        let c = from_toml(&text, &format!("case {case}")).unwrap();
        let r = prove_subset(&c, &s).unwrap();
        let b = box_check(&c, n, k, hi, false);
        agrees(&c, r.verdict, &r, &b, k, false);
        seen[match r.verdict {
            Status::Proved => 0,
            Status::Refuted => 1,
            Status::Unknown => 2,
        }] += 1;
        // The automata prover within a few seconds (the pre-images of a large set such as "a + b =
        // c + d" under every rotation take longer in a debug build): where it answers, it agrees.
        let a = prove_subset_automata(&c, Duration::from_secs(4)).unwrap();
        if a.conditions.iter().any(|r| {
            r.status == Status::Unknown
                && r.reason
                    .as_deref()
                    .is_some_and(|w| !w.starts_with("(C) fails"))
        }) {
            continue;
        }
        agrees(&c, a.verdict, &a, &b, k, false);
        // Both provers decide (C) exactly: proved by one, proved by the other.
        assert_eq!(
            r.verdict == Status::Proved,
            a.verdict == Status::Proved,
            "{text}\n{:?}\n{:?}",
            r.to_json(),
            a.to_json()
        );
    }
    // The cases reach every verdict.
    assert!(seen.iter().all(|&v| v > 0), "{seen:?}");
}

#[test]
fn scn_subsets_agree_with_a_box_check() {
    let Some(s) = common::solver("scn_subsets_agree_with_a_box_check") else {
        return;
    };
    let empty = (0, vec![]);
    let five = (5, vec!["a = b", "b = c", "c = d", "d = e"]);
    type Case<'a> = (&'a str, usize, usize, Vec<(usize, Vec<&'a str>)>, Status);
    let cases: Vec<Case> = vec![
        // SCN(6,4): the empty circle and (a,a,a,a,a) are P-positions (SCN(5,4)'s P-set).
        (
            "SCN(6,4)",
            6,
            4,
            vec![empty.clone(), five.clone()],
            Status::Proved,
        ),
        // (a,a,a,a) moves to the empty circle.
        (
            "SCN(6,4)",
            6,
            4,
            vec![
                empty.clone(),
                five.clone(),
                (4, vec!["a = b", "b = c", "c = d"]),
            ],
            Status::Refuted,
        ),
        // SCN(4,2): (a,b,a,b) with a != b and (a,a,a) (Theorem 2.3), and only a part of them.
        (
            "SCN(4,2)",
            4,
            2,
            vec![
                empty.clone(),
                (3, vec!["a = b", "b = c"]),
                (4, vec!["a = c", "b = d", "a < b"]),
            ],
            Status::Proved,
        ),
        (
            "SCN(4,2)",
            4,
            2,
            vec![empty.clone(), (4, vec!["a = c", "b = d", "a < b", "a = 1"])],
            Status::Unknown,
        ),
    ];
    for (game, n, k, fams, want) in cases {
        let text = families_file(game, &fams);
        let c = from_toml(&text, game).unwrap();
        let r = prove_subset(&c, &s).unwrap();
        assert_eq!(r.verdict, want, "{text}\n{:?}", r.to_json());
        let b = box_check(&c, n, k, 5, true);
        agrees(&c, r.verdict, &r, &b, k, true);
        // The automata prover (one set automaton per circle length) gives the same verdict.
        let a = prove_subset_automata(&c, Duration::from_secs(120)).unwrap();
        assert_eq!(a.verdict, want, "{text}\n{:?}", a.to_json());
        agrees(&c, a.verdict, &a, &b, k, true);
    }
    // Sets with xor, which only the automata prover decides for every size: in SCN(3,1) (Nim, the
    // circle does not matter for k = 1) the pairs (a,a) and the triples of nim-sum 0 are P-positions;
    // with the 1-circles added, (C) fails (a 1-circle moves to the empty circle).
    let pairs = (2, vec!["a = b"]);
    let triples = (3, vec!["xor(a, b, c) = 0"]);
    for (fams, want) in [
        (vec![empty.clone(), pairs.clone()], Status::Proved),
        (
            vec![empty.clone(), pairs.clone(), triples.clone()],
            Status::Proved,
        ),
        (
            vec![empty.clone(), triples.clone(), (1, vec![])],
            Status::Refuted,
        ),
    ] {
        let text = families_file("SCN(3,1)", &fams);
        let c = from_toml(&text, "SCN(3,1)").unwrap();
        let a = prove_subset_automata(&c, Duration::from_secs(120)).unwrap();
        assert_eq!(a.verdict, want, "{text}\n{:?}", a.to_json());
        let b = box_check(&c, 3, 1, 12, true);
        assert!(b.members > 12, "{text}");
        agrees(&c, a.verdict, &a, &b, 1, true);
    }
}

#[test]
fn misere_subsets() {
    let Some(s) = common::solver("misere_subsets") else {
        return;
    };
    // Misère Nim on 3 heaps: heaps of at most 1 with an odd number of 1s are P-positions (moving to
    // the terminal position loses); with the terminal position added, (III) refutes.
    let odd = "game = \"CN(3,1)\"\n[[family]]\nname = \"odd ones\"\nlength = 3\nrelations = [\"max(a, b, c) <= 1\", \"mod(a + b + c, 2) = 1\"]\n";
    let with_zero = format!("{odd}[[family]]\nname = \"zero\"\nlength = 3\nrelations = [\"a = 0\", \"b = 0\", \"c = 0\"]\n");
    for (text, want) in [
        (odd.to_string(), Status::Proved),
        (with_zero, Status::Refuted),
    ] {
        let mut c = from_toml(&text, "misère").unwrap();
        c.play = Play::Misere;
        let r = prove_subset(&c, &s).unwrap();
        assert_eq!(r.verdict, want, "{text}: {:?}", r.to_json());
        let a = prove_subset_automata(&c, Duration::from_secs(60)).unwrap();
        assert_eq!(a.verdict, want, "{text}: {:?}", a.to_json());
        let b = box_check(&c, 3, 1, 6, false);
        if want == Status::Proved {
            agrees(&c, r.verdict, &r, &b, 1, false);
        } else {
            assert_eq!(b.n_member, Some(vec![0, 0, 0]));
        }
    }
    // SCN: the terminal position is the empty circle (not a circle of zeros); a set holding it is
    // refuted by (III) in misère play, by both provers.
    let text = families_file("SCN(3,1)", &[(0, vec![]), (2, vec!["a = b"])]);
    let mut c = from_toml(&text, "misère SCN").unwrap();
    c.play = Play::Misere;
    for r in [
        prove_subset(&c, &s).unwrap(),
        prove_subset_automata(&c, Duration::from_secs(60)).unwrap(),
    ] {
        assert_eq!(r.verdict, Status::Refuted, "{:?}", r.to_json());
        let three = r
            .conditions
            .iter()
            .find(|x| x.condition == nimlab_prove::Condition::III);
        assert_eq!(
            three
                .and_then(|x| x.counterexample.as_ref())
                .map(|x| x.position.clone()),
            Some(vec![])
        );
    }
}

/// Exact outcomes by memoized search in a game whose moves lower the stacks of one window or facet
/// (`facets`, fixed; CN and complexes) or of one window of the circle (`scn`: SCN(n,k)).
struct Exact {
    facets: Option<Vec<Vec<usize>>>,
    k: usize,
    play: Play,
    memo: HashMap<Pos, bool>,
}

impl Exact {
    fn options(&self, p: &[u64]) -> Vec<Pos> {
        match &self.facets {
            Some(f) => options_in(p, f, false),
            None => options(p, self.k, true),
        }
    }

    fn is_p(&mut self, p: &[u64]) -> bool {
        if let Some(&v) = self.memo.get(p) {
            return v;
        }
        let opts = self.options(p);
        let v = if opts.is_empty() {
            self.play == Play::Normal
        } else {
            !opts.iter().any(|o| self.is_p(o))
        };
        self.memo.insert(p.to_vec(), v);
        v
    }
}

/// Sets that hold an N-position whose winning move lands inside the set (a move between two
/// members), for CN, SCN and a simplicial complex, in both plays: every prover refutes them with a
/// member that exhaustive search finds to be an N-position and a winning move to a P-position, and
/// the box holds such a member. (The automata prover of SCN once said "proved" for such sets: its
/// targets of (C) left the members out.)
#[test]
fn members_that_move_to_members_are_refuted() {
    let Some(s) = common::solver("members_that_move_to_members_are_refuted") else {
        return;
    };
    let cn = |n: usize, k: usize| -> Option<Vec<Vec<usize>>> {
        Some(
            (0..n)
                .map(|s| (0..k).map(|j| (s + j) % n).collect())
                .collect(),
        )
    };
    // (game, play, families, the brute force's rules, SCN's n and k or CN's, box bound)
    type Case<'a> = (
        &'a str,
        Play,
        Vec<(usize, Vec<&'a str>)>,
        Option<Vec<Vec<usize>>>,
        usize,
        usize,
        u64,
    );
    let cases: Vec<Case> = vec![
        // SCN(3,2): (1,2,1) moves to (1,1,1).
        (
            "SCN(3,2)",
            Play::Normal,
            vec![
                (0, vec![]),
                (3, vec!["a = b", "b = c"]),
                (3, vec!["a = 1", "b = 2", "c = 1"]),
            ],
            None,
            3,
            2,
            4,
        ),
        // Misère SCN(3,3): (2) moves to (1), a misère P-position (its only move empties the circle).
        (
            "SCN(3,3)",
            Play::Misere,
            vec![(1, vec!["a <= 2"])],
            None,
            3,
            3,
            4,
        ),
        // SCN(4,2): (a,b,a,b) with a < b, and (1,3,1,2), which moves to (1,2,1,2).
        (
            "SCN(4,2)",
            Play::Normal,
            vec![
                (0, vec![]),
                (4, vec!["a = c", "b = d", "a < b"]),
                (4, vec!["a = 1", "b = 3", "c = 1", "d = 2"]),
            ],
            None,
            4,
            2,
            4,
        ),
        // CN(4,2): (a,b,a,b), and (1,2,1,1), which moves to (1,1,1,1).
        (
            "CN(4,2)",
            Play::Normal,
            vec![
                (4, vec!["a = c", "b = d"]),
                (4, vec!["a = 1", "b = 2", "c = 1", "d = 1"]),
            ],
            cn(4, 2),
            4,
            2,
            4,
        ),
        // Misère Nim (CN(3,1)): heaps of at most 1 with an odd number of ones, and (1,1,0), which
        // moves to (1,0,0).
        (
            "CN(3,1)",
            Play::Misere,
            vec![
                (3, vec!["max(a, b, c) <= 1", "mod(a + b + c, 2) = 1"]),
                (3, vec!["a = 1", "b = 1", "c = 0"]),
            ],
            cn(3, 1),
            3,
            1,
            4,
        ),
        // The path complex {1,2},{2,3}: (a,0,a) is two-heap Nim; (2,0,1) moves to (1,0,1).
        (
            "simplicial({1,2},{2,3})",
            Play::Normal,
            vec![
                (3, vec!["b = 0", "a = c"]),
                (3, vec!["a = 2", "b = 0", "c = 1"]),
            ],
            Some(vec![vec![0, 1], vec![1, 2]]),
            3,
            2,
            4,
        ),
        // Misère: (a,0,a) with a >= 2, (1,0,0) and (0,0,1) (misère two-heap Nim), and (3,0,2),
        // which moves to (2,0,2).
        (
            "simplicial({1,2},{2,3})",
            Play::Misere,
            vec![
                (3, vec!["b = 0", "a = c", "a >= 2"]),
                (3, vec!["a = 1", "b = 0", "c = 0"]),
                (3, vec!["a = 0", "b = 0", "c = 1"]),
                (3, vec!["a = 3", "b = 0", "c = 2"]),
            ],
            Some(vec![vec![0, 1], vec![1, 2]]),
            3,
            2,
            4,
        ),
    ];
    for (game, play, fams, facets, n, k, hi) in cases {
        let text = families_file(game, &fams);
        let mut c = from_toml(&text, game).unwrap();
        c.play = play;
        let scn = facets.is_none();
        let mut exact = Exact {
            facets,
            k,
            play,
            memo: HashMap::new(),
        };
        // The box holds a member that is an N-position.
        let members: Vec<Pos> = box_positions(n, hi, scn)
            .into_iter()
            .filter(|x| c.contains(x))
            .collect();
        assert!(
            members.iter().any(|x| !exact.is_p(x)),
            "{game} {play:?}: the case has no N-member in the box"
        );
        let smt = prove_subset(&c, &s).unwrap();
        let automata = prove_subset_automata(&c, Duration::from_secs(120)).unwrap();
        let mut refuted = 0;
        for r in [smt, automata] {
            let what = format!("{game} {play:?} ({}): {}", r.method, r.to_json());
            assert_ne!(r.verdict, Status::Proved, "{what}");
            if r.verdict == Status::Unknown {
                // (C) is sufficient, not necessary: a prover may stop at a failure of (C) whose
                // member is a P-position (exact search), and say so.
                assert!(
                    r.conditions.iter().any(|x| x
                        .reason
                        .as_deref()
                        .is_some_and(|w| w.starts_with("(C) fails at"))),
                    "{what}"
                );
                continue;
            }
            refuted += 1;
            assert_eq!(r.verdict, Status::Refuted, "{what}");
            let cx = r
                .conditions
                .iter()
                .find_map(|x| x.counterexample.clone())
                .expect("a counterexample");
            assert!(c.contains(&cx.position), "{what}");
            assert!(
                !exact.is_p(&cx.position),
                "{what}: the member is a P-position"
            );
            let y = cx.move_to.expect("a winning move");
            assert!(exact.options(&cx.position).contains(&y), "{what}");
            assert!(exact.is_p(&y), "{what}: the move is not winning");
        }
        assert!(refuted > 0, "{game} {play:?}: neither prover refutes");
    }
}
