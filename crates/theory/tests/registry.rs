//! The registry as a whole: every entry's declared scope against the positions it decides, the
//! sources and their docs/rules.md anchors, and the per-entry caches that the registry keeps alive.
//!
//! No test in this file constructs a theory entry of its own: they all go through the registry, so
//! the count of family-template builds below is the registry's alone.

use nimlab_core::{Game, Play, Pos};
use nimlab_games::{
    CircularNim, EmptyTransfer, EntropyReduction, MooreNim, Nim, Redistribute, ShrinkingCircularNim,
};
use nimlab_theory::{find, linear, registry, Scope};

/// Every tuple of `len` entries in `lo..=hi`.
fn tuples(len: usize, lo: u64, hi: u64) -> Vec<Pos> {
    let mut out: Vec<Pos> = vec![vec![]];
    for _ in 0..len {
        out = out
            .into_iter()
            .flat_map(|q| {
                (lo..=hi).map(move |v| {
                    let mut r = q.clone();
                    r.push(v);
                    r
                })
            })
            .collect();
    }
    out
}

/// The largest `hi >= lo + 1` with `(hi - lo + 1)^len <= cap` (at least two values per entry).
fn hi_for(len: usize, lo: u64, cap: u64) -> u64 {
    let mut hi = lo + 1;
    if len == 0 {
        return hi;
    }
    while (hi - lo + 2)
        .checked_pow(len as u32)
        .is_some_and(|c| c <= cap)
    {
        hi += 1;
    }
    hi
}

/// A box of every entry count and size: every tuple of `len` entries in `lo..=hi`, at most a few
/// thousand positions.
fn small_box(len: usize, lo: u64) -> Vec<Pos> {
    tuples(len, lo, hi_for(len, lo, 8192))
}

/// Every game type some entry covers, with a box of its positions (unsorted tuples, so that entries
/// are also checked on positions given in any order).
fn sample_games() -> Vec<(Box<dyn Game>, Vec<Pos>)> {
    let mut out: Vec<(Box<dyn Game>, Vec<Pos>)> = Vec::new();
    let heaps = || (0..=4).flat_map(|m| small_box(m, 0)).collect::<Vec<Pos>>();
    out.push((Box::new(Nim), heaps()));
    for k in 1..=3 {
        out.push((Box::new(MooreNim::new(k).unwrap()), heaps()));
    }
    for n in 1..=9usize {
        for k in 1..=n {
            out.push((Box::new(CircularNim::new(n, k).unwrap()), small_box(n, 0)));
        }
    }
    for n in 1..=8usize {
        // Circles of 0..=n piles, each pile in 1..=hi.
        let hi = hi_for(n, 1, 8192);
        let circles: Vec<Pos> = (0..=n).flat_map(|m| tuples(m, 1, hi)).collect();
        for k in 1..=n {
            out.push((
                Box::new(ShrinkingCircularNim::new(n, k).unwrap()),
                circles.clone(),
            ));
        }
    }
    for k in 2..=7usize {
        let boxes = small_box(k, 1);
        out.push((Box::new(EmptyTransfer::new(k).unwrap()), boxes.clone()));
        out.push((Box::new(Redistribute::er(k).unwrap()), boxes.clone()));
        out.push((Box::new(Redistribute::eabo(k).unwrap()), boxes.clone()));
        out.push((Box::new(Redistribute::ser(k).unwrap()), boxes.clone()));
        for j in 1..k {
            out.push((Box::new(Redistribute::ejr(k, j).unwrap()), boxes.clone()));
        }
    }
    for k in 3..=4usize {
        out.push((Box::new(EntropyReduction::new(k).unwrap()), small_box(k, 0)));
    }
    // Octal and subtraction games (octal-periodic); Officers (0.6) has no proved period.
    for name in [
        "octal(0.77)",
        "octal(0.07)",
        "subtraction(1,3,4)",
        "octal(0.6)",
    ] {
        out.push((nimlab_games::parse_game(name).unwrap(), heaps()));
    }
    // Complexes that are relabelings of games with complete results (and one that is not).
    for name in [
        "ECN(5,{2},2)",
        "ECN(7,{3},4)",
        "simplicial({1},{2},{3})",
        "simplicial({1,2},{2,3},{3,1})",
        "simplicial({1,3},{2,4},{3,2},{4,1})",
        "ECN(8,{1,2},3)",
        // Sums: of disjoint facets (complex-simplices), of two CN(3,2) circles (complex-components).
        "ECN(6,{3},2)",
        "ECN(6,{2},2)",
    ] {
        let g = nimlab_games::parse_game(name).unwrap();
        let n = g
            .random_position(&mut nimlab_core::Rng::new(1), 1)
            .unwrap()
            .len();
        out.push((g, small_box(n, 0)));
    }
    out
}

#[test]
fn complete_entries_decide_every_position_and_partial_ones_say_so() {
    let games = sample_games();
    for t in registry() {
        let mut covered = 0;
        let (mut decided, mut undecided) = (0usize, 0usize);
        for (g, positions) in &games {
            if !t.covers(g.as_ref()) {
                continue;
            }
            covered += 1;
            for p in positions {
                if g.validate(p).is_err() {
                    continue;
                }
                match t.decide(g.as_ref(), p) {
                    Some(_) => decided += 1,
                    None => {
                        assert_ne!(
                            t.scope(),
                            Scope::Complete,
                            "{} is declared complete but does not decide {} {:?}",
                            t.id(),
                            g.id(),
                            p
                        );
                        undecided += 1;
                    }
                }
            }
        }
        assert!(covered > 0, "{}: no sample game is covered", t.id());
        assert!(decided > 0, "{}: decided nothing", t.id());
        match t.scope() {
            Scope::Complete => assert!(
                !t.games().contains("partial"),
                "{}: a complete result documented as partial",
                t.id()
            ),
            Scope::Partial => {
                assert!(
                    t.games().contains("(partial"),
                    "{}: a partial result must say so in its games: {}",
                    t.id(),
                    t.games()
                );
                assert!(
                    undecided > 0,
                    "{}: declared partial but decides every sample position",
                    t.id()
                );
            }
        }
        eprintln!(
            "{:28} {:?}: {covered} games, {decided} decided, {undecided} not",
            t.id(),
            t.scope()
        );
    }
}

#[test]
fn partial_entries_are_the_expected_ones() {
    let mut partial: Vec<&str> = registry()
        .iter()
        .filter(|t| t.scope() == Scope::Partial)
        .map(|t| t.id())
        .collect();
    partial.sort();
    assert_eq!(
        partial,
        [
            "cn-lemma5-s1",
            "complex-components",
            "ferguson-et-odd",
            "ferguson-et-two-even"
        ]
    );
}

#[test]
fn sources_cite_the_paper_and_the_rules_anchor() {
    let rules = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/rules.md"),
    )
    .expect("docs/rules.md");
    for t in registry() {
        let id = t.id();
        let anchor = format!("docs/rules.md#theorem-{id}");
        assert!(
            t.source().contains(&anchor),
            "{id}: the source names {anchor}: {}",
            t.source()
        );
        assert!(
            rules.contains(&format!("### Theorem {id}\n")),
            "{id}: docs/rules.md has no section for it"
        );
        for text in [t.source(), t.statement(), t.games()] {
            assert!(!text.contains("SPEC"), "{id}: {text}");
        }
        // The play convention is printed from `play()`; the games string does not repeat it.
        assert!(
            !t.games().contains("misère") && !t.games().contains("misere"),
            "{id}: {}",
            t.games()
        );
    }
}

#[test]
fn family_templates_are_built_once_per_entry() {
    let games: Vec<(Box<dyn Game>, Pos)> = vec![
        (
            Box::new(CircularNim::new(5, 2).unwrap()),
            vec![3, 1, 4, 1, 5],
        ),
        (
            Box::new(CircularNim::new(5, 3).unwrap()),
            vec![3, 1, 4, 1, 5],
        ),
        (
            Box::new(CircularNim::new(6, 3).unwrap()),
            vec![3, 1, 4, 1, 5, 9],
        ),
        (
            Box::new(CircularNim::new(7, 4).unwrap()),
            vec![1, 7, 5, 6, 2, 3, 6],
        ),
        (
            Box::new(CircularNim::new(8, 6).unwrap()),
            vec![3, 1, 4, 1, 5, 9, 2, 6],
        ),
        (
            Box::new(ShrinkingCircularNim::new(4, 2).unwrap()),
            vec![3, 1, 4, 1],
        ),
        (
            Box::new(ShrinkingCircularNim::new(5, 2).unwrap()),
            vec![3, 1, 4, 1, 5],
        ),
        (
            Box::new(ShrinkingCircularNim::new(5, 3).unwrap()),
            vec![3, 1, 4, 1, 5],
        ),
        (
            Box::new(ShrinkingCircularNim::new(8, 6).unwrap()),
            vec![3, 1, 4, 1, 5, 9, 2, 6],
        ),
    ];
    let ask = || {
        for (g, p) in &games {
            let (t, _) = find(g.as_ref(), p, Play::Normal).expect("a family result decides");
            assert!(t.id().starts_with("cn-") || t.id().starts_with("scn-"));
        }
    };
    ask();
    let after_first = linear::family_builds();
    // One build per family entry of the registry at most (nine of them), whatever else ran.
    assert!(
        (1..=9).contains(&after_first),
        "{after_first} template builds"
    );
    for _ in 0..50 {
        ask();
    }
    assert_eq!(
        linear::family_builds(),
        after_first,
        "answering again rebuilt family templates"
    );
}
