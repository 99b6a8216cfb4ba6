//! Bouton's and Moore's theorems against exhaustive search, through the shared harness.

use nimlab_core::{Game, Pos};
use nimlab_games::{CircularNim, MooreNim, Nim};
use nimlab_testkit as harness;
use nimlab_theory::{Bouton, BoutonMisere, MooreTheorem, Theorem};

fn boxes(len: usize, hi: u64) -> Vec<Pos> {
    let mut out: Vec<Pos> = vec![vec![]];
    for _ in 0..len {
        out = out
            .into_iter()
            .flat_map(|q| {
                (0..=hi).map(move |v| {
                    let mut r = q.clone();
                    r.push(v);
                    r
                })
            })
            .collect();
    }
    out
}

#[test]
fn bouton_normal_and_misere_on_nim_and_cn_n_1() {
    let games: Vec<(Box<dyn Game>, Vec<Pos>)> = vec![
        (Box::new(Nim), boxes(3, 12)),
        (Box::new(Nim), boxes(4, 6)),
        (Box::new(MooreNim::new(1).unwrap()), boxes(3, 7)),
        (Box::new(CircularNim::new(4, 1).unwrap()), boxes(4, 6)),
        (Box::new(CircularNim::new(5, 1).unwrap()), boxes(5, 4)),
    ];
    for (g, ps) in &games {
        for t in [&Bouton as &dyn Theorem, &BoutonMisere] {
            let c = harness::check(t, g.as_ref(), ps.iter().cloned());
            assert_eq!(c.decided, ps.len());
            assert!(c.p_positions > 0 && c.moves_checked > 0);
        }
    }
}

#[test]
fn moore_on_nim_k() {
    for (k, len, hi) in [(2usize, 4usize, 5u64), (3, 4, 5), (2, 6, 3), (3, 5, 4)] {
        let g = MooreNim::new(k).unwrap();
        let c = harness::check(&MooreTheorem, &g, boxes(len, hi));
        // Every N-position gets the constructed move of Moore's proof, checked legal and P.
        assert!(
            c.decided >= 1000 && c.p_positions >= 6 && c.moves_checked + c.p_positions == c.decided,
            "{c:?}"
        );
    }
}

#[test]
fn every_entry_has_a_source_and_statement() {
    let all = nimlab_theory::registry();
    let mut ids: Vec<&str> = all.iter().map(|t| t.id()).collect();
    ids.sort();
    let n = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), n, "theory ids are unique");
    for t in all {
        assert!(
            !t.source().is_empty() && !t.statement().is_empty() && !t.games().is_empty(),
            "{}",
            t.id()
        );
    }
}

#[test]
fn circular_nim_family_results() {
    use nimlab_theory::{Cn42, CnAllButOne, CnWhole, Lemma5};
    // Boxes: [0..8]^n for n <= 4, [0..5]^5, [0..3]^6, [0..2]^7 (the windows of CN(n,n) and CN(n,n-1)
    // are large, so each position has many options).
    let box_for = |n: usize| match n {
        2..=4 => boxes(n, 8),
        5 => boxes(5, 5),
        6 => boxes(6, 3),
        _ => boxes(7, 2),
    };
    for n in 2..=7usize {
        let g = CircularNim::new(n, n).unwrap();
        let c = harness::check(&CnWhole, &g, box_for(n));
        assert_eq!(c.p_positions, 1);
        let g = CircularNim::new(n, n - 1).unwrap();
        let c = harness::check(&CnAllButOne, &g, box_for(n));
        assert_eq!(c.p_positions, [9, 9, 9, 6, 4, 3][n - 2]);
    }
    let g = CircularNim::new(4, 2).unwrap();
    let c = harness::check(&Cn42, &g, boxes(4, 8));
    assert_eq!(c.p_positions, 81);
    // Lemma 5 for l = 1, 2, 3: every S1 position found in the box is P by search.
    for (n, hi) in [(3usize, 8u64), (5, 6), (7, 3)] {
        let g = CircularNim::new(n, (n - 1) / 2 + 1).unwrap();
        let c = harness::check(&Lemma5, &g, boxes(n, hi));
        assert!(c.decided >= 9 && c.decided == c.p_positions, "{c:?}");
    }
}
