//! The automaton route of discover (no linear description: xor-type games) and misère play. Each
//! discovered set is compared with a plain exhaustive search written here from the rules, on a box
//! larger than the one the automaton was checked on; the automaton file is proved again by
//! `prove_members` from its Walnut text.

mod common;

use common::{each_tuple, have_z3};
use nimlab_core::Play;
use nimlab_discover::{discover, Discovery, DiscoveryVerdict, Options};
use nimlab_prove::{prove_members, walnut, Ruleset, Status};
use std::time::Duration;

/// Every tuple obtained from `p` by lowering the stacks of `w` (each to any value from 0 to its
/// own), `p` itself left out.
fn lowerings(p: &[u64], w: &[usize]) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    let mut q = p.to_vec();
    for &s in w {
        q[s] = 0;
    }
    loop {
        if q != p {
            out.push(q.clone());
        }
        let mut i = 0;
        loop {
            if i == w.len() {
                return out;
            }
            let s = w[i];
            if q[s] < p[s] {
                q[s] += 1;
                break;
            }
            q[s] = 0;
            i += 1;
        }
    }
}

/// The P-set of `[0..=h]^m` by plain search for a game whose moves lower the stacks of one window
/// (a set of stack indices), at least one strictly, in `play`.
fn brute(m: usize, windows: &[Vec<usize>], h: u64, play: Play) -> impl Fn(&[u64]) -> bool {
    let b = (h + 1) as usize;
    let idx = move |p: &[u64]| p.iter().fold(0usize, |a, &v| a * b + v as usize);
    let mut all: Vec<Vec<u64>> = Vec::new();
    each_tuple(m, 0, h, &mut |p| all.push(p.to_vec()));
    all.sort_by_key(|p| p.iter().sum::<u64>());
    let mut p_pos = vec![false; b.pow(m as u32)];
    for p in &all {
        let options: Vec<Vec<u64>> = windows.iter().flat_map(|w| lowerings(p, w)).collect();
        let reaches_p = options.iter().any(|q| p_pos[idx(q)]);
        p_pos[idx(p)] = match play {
            Play::Normal => !reaches_p,
            Play::Misere => !options.is_empty() && !reaches_p,
        };
    }
    move |p: &[u64]| p_pos[idx(p)]
}

fn run(game: &str, play: Play) -> Discovery {
    let opts = Options {
        play,
        timeout: Duration::from_secs(300),
        ..Options::default()
    };
    discover(game, &opts).unwrap_or_else(|e| panic!("{game}: {e}"))
}

/// The discovery is proved by automata, its automaton file proves again, and it equals the plain
/// search's P-set on `[0..=h]^m` (h beyond the box it was checked on where that is cheap).
fn check(game: &str, m: usize, windows: &[Vec<usize>], h: u64, play: Play) {
    let d = run(game, play);
    assert_eq!(
        d.verdict,
        DiscoveryVerdict::Proved,
        "{game}: {:?}",
        d.reason
    );
    assert_eq!(
        d.format,
        nimlab_prove::CharacterizationFormat::Automaton,
        "{game}"
    );
    assert_eq!(d.prover, Some("automata"));
    let text = d.walnut.as_deref().expect("an automaton");
    let dfa = walnut::from_walnut(text, m).unwrap();
    let rules = Ruleset::parse(game).unwrap();
    let again = prove_members(&rules, &dfa, play, Duration::from_secs(120)).unwrap();
    assert_eq!(again.verdict, Status::Proved, "{game}");
    let is_p = brute(m, windows, h, play);
    let mut seen = 0;
    each_tuple(m, 0, h, &mut |p| {
        let v: Vec<u128> = p.iter().map(|&x| x as u128).collect();
        assert_eq!(dfa.accepts(&v), is_p(p), "{game} {play:?} {p:?}");
        seen += 1;
    });
    assert!(seen >= 10_000, "{game}: {seen} positions");
}

#[test]
fn nim_moore_and_cn64_by_automata() {
    if !have_z3("nim_moore_and_cn64_by_automata") {
        return;
    }
    let nim: Vec<Vec<usize>> = (0..3).map(|i| vec![i]).collect();
    check("CN(3,1)", 3, &nim, 70, Play::Normal);
    // Moore's Nim_2 on 4 heaps: any two heaps.
    let pairs: Vec<Vec<usize>> = (0..4)
        .flat_map(|i| (i + 1..4).map(move |j| vec![i, j]))
        .collect();
    check(
        "simplicial({1,2},{1,3},{1,4},{2,3},{2,4},{3,4})",
        4,
        &pairs,
        12,
        Play::Normal,
    );
    // CN(6,4): four adjacent stacks of six.
    let windows: Vec<Vec<usize>> = (0..6)
        .map(|i| (0..4).map(|j| (i + j) % 6).collect())
        .collect();
    check("CN(6,4)", 6, &windows, 5, Play::Normal);
}

#[test]
fn misere_nim_by_automata_and_misere_cn52_by_families() {
    if !have_z3("misere_nim_by_automata_and_misere_cn52_by_families") {
        return;
    }
    let nim: Vec<Vec<usize>> = (0..3).map(|i| vec![i]).collect();
    check("CN(3,1)", 3, &nim, 70, Play::Misere);
    // Misère CN(5,2): linear families, proved with the misère condition (III); compared with the
    // plain misère search on [0..9]^5.
    let d = run("CN(5,2)", Play::Misere);
    assert_eq!(d.verdict, DiscoveryVerdict::Proved, "{:?}", d.reason);
    assert_eq!(d.format, nimlab_prove::CharacterizationFormat::Families);
    let text = d.toml.as_deref().unwrap();
    assert!(text.contains("Misère play"), "{text}");
    let c = nimlab_prove::from_toml(text, "test").unwrap();
    let windows: Vec<Vec<usize>> = (0..5).map(|i| vec![i, (i + 1) % 5]).collect();
    let is_p = brute(5, &windows, 9, Play::Misere);
    each_tuple(5, 0, 9, &mut |p| {
        assert_eq!(c.contains(p), is_p(p), "misère CN(5,2) {p:?}");
    });
    // The normal-play P-set differs (the terminal position): the misère file is not it.
    assert!(!c.contains(&[0, 0, 0, 0, 0]));
}
