//! The automaton route of discover for SCN: one automaton per circle length, learned from tables and
//! proved by the automata prover. SCN(n,1)'s P-set is Nim's (with k = 1 a move never sees the
//! circle), which no linear description captures; misère SCN(n,1) is misère Nim. Each discovered set
//! is compared with a plain exhaustive search of SCN written here from the rules, over every circle
//! of a box of tens of thousands of circles, and its file is proved again.

mod common;

use common::{each_tuple, have_z3};
use nimlab_core::Play;
use nimlab_discover::{discover, Discovery, DiscoveryVerdict, Options};
use nimlab_prove::{prove_scn_members, walnut, Ruleset, Status};
use std::collections::HashMap;
use std::time::Duration;

/// SCN(n,k) by plain search: the outcome of circles with piles in `1..=h`, memoised.
struct Brute {
    k: usize,
    play: Play,
    memo: HashMap<Vec<u64>, bool>,
}

impl Brute {
    /// Every option of the circle `x`: a window of k consecutive piles (the whole circle when it has
    /// at most k), each pile of it lowered to any value from 0 to its own, at least one token taken
    /// in all; the piles lowered to 0 vanish and the others keep their order.
    fn options(&self, x: &[u64]) -> Vec<Vec<u64>> {
        let len = x.len();
        let windows: Vec<Vec<usize>> = if len <= self.k {
            vec![(0..len).collect()]
        } else {
            (0..len)
                .map(|s| (0..self.k).map(|j| (s + j) % len).collect())
                .collect()
        };
        let mut out = Vec::new();
        for w in windows {
            let mut y = x.to_vec();
            for &i in &w {
                y[i] = 0;
            }
            loop {
                if y != x {
                    out.push(y.iter().copied().filter(|&v| v > 0).collect());
                }
                let mut j = 0;
                loop {
                    if j == w.len() {
                        break;
                    }
                    let i = w[j];
                    if y[i] < x[i] {
                        y[i] += 1;
                        break;
                    }
                    y[i] = 0;
                    j += 1;
                }
                if j == w.len() {
                    break;
                }
            }
        }
        out
    }

    fn is_p(&mut self, x: &[u64]) -> bool {
        if let Some(&v) = self.memo.get(x) {
            return v;
        }
        let options = self.options(x);
        let reaches_p = options.iter().any(|y| self.is_p(y));
        let v = match self.play {
            Play::Normal => !reaches_p,
            Play::Misere => !options.is_empty() && !reaches_p,
        };
        self.memo.insert(x.to_vec(), v);
        v
    }
}

fn run(game: &str, max: u64, play: Play) -> Discovery {
    let opts = Options {
        max: Some(max),
        play,
        timeout: Duration::from_secs(300),
        ..Options::default()
    };
    discover(game, &opts).unwrap_or_else(|e| panic!("{game}: {e}"))
}

/// Discovered and proved by the automaton route; the file proves again; and the automata (with
/// every pile positive) equal the plain search on every circle of piles `1..=h` (beyond the box the
/// automata were checked on where that is cheap).
fn check(game: &str, n: usize, k: usize, max: u64, h: u64, play: Play) {
    let d = run(game, max, play);
    assert_eq!(
        d.verdict,
        DiscoveryVerdict::Proved,
        "{game} {play:?}: {:?}",
        d.reason
    );
    assert_eq!(
        d.format,
        nimlab_prove::CharacterizationFormat::Automaton,
        "{game}"
    );
    assert_eq!(d.prover, Some("automata"));
    assert_eq!(d.lengths.len(), n, "{game}: one learning per circle length");
    let text = d.walnut.as_deref().expect("the automata");
    let (empty, sets) = walnut::scn_from_walnut(text, n).unwrap();
    let rules = Ruleset::parse(game).unwrap();
    let again = prove_scn_members(&rules, &sets, empty, play, Duration::from_secs(120)).unwrap();
    assert_eq!(
        again.verdict,
        Status::Proved,
        "{game}: {:?}",
        again.to_json()
    );
    let mut brute = Brute {
        k,
        play,
        memo: HashMap::new(),
    };
    assert_eq!(empty, brute.is_p(&[]), "{game}: the empty circle");
    let (mut seen, mut inside) = (0, 0);
    for (i, s) in sets.iter().enumerate() {
        each_tuple(i + 1, 1, h, &mut |p| {
            let want = brute.is_p(p);
            let v: Vec<u128> = p.iter().map(|&x| x as u128).collect();
            assert_eq!(s.accepts(&v), want, "{game} {play:?} {p:?}");
            seen += 1;
            inside += want as usize;
        });
    }
    assert!(seen >= 20_000, "{game}: {seen} circles");
    assert!(inside > 100, "{game}: {inside} P-positions");
}

#[test]
fn scn_n1_is_nim_by_automata() {
    if !have_z3("scn_n1_is_nim_by_automata") {
        return;
    }
    // Linear families fail on xor; the automata are learned on piles up to 15.
    check("SCN(3,1)", 3, 1, 15, 28, Play::Normal);
    check("SCN(4,1)", 4, 1, 15, 16, Play::Normal);
}

#[test]
fn misere_scn_n1_is_misere_nim_by_automata() {
    if !have_z3("misere_scn_n1_is_misere_nim_by_automata") {
        return;
    }
    check("SCN(3,1)", 3, 1, 31, 34, Play::Misere);
    check("SCN(4,1)", 4, 1, 31, 12, Play::Misere);
}

#[test]
fn scn_route_says_which_length_did_not_settle() {
    if !have_z3("scn_route_says_which_length_did_not_settle") {
        return;
    }
    // Misère SCN(4,1) needs piles up to 31 for its automata to settle: up to 15 they do not, and
    // the answer names the lengths and their states box by box.
    let d = run("SCN(4,1)", 15, Play::Misere);
    assert_ne!(d.verdict, DiscoveryVerdict::Proved);
    let why = d.reason.as_deref().unwrap();
    assert!(why.contains("did not settle"), "{why}");
    assert!(why.contains("length 4:"), "{why}");
    assert!(!why.contains('\n'), "{why}");
}
