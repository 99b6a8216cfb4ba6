//! Bouton's and Moore's theorems against exhaustive search, through the shared harness.

use nimlab_core::{Game, Pos};
use nimlab_games::{CircularNim, MooreNim, Nim};
use nimlab_theory::{harness, Bouton, BoutonMisere, MooreTheorem, Theorem};

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
        assert!(c.decided >= 1000 && c.p_positions >= 6, "{c:?}");
    }
}

#[test]
fn every_entry_has_a_source_and_statement() {
    let all = nimlab_theory::all();
    let mut ids: Vec<&str> = all.iter().map(|t| t.id()).collect();
    ids.sort();
    let n = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), n, "theory ids are unique");
    for t in &all {
        assert!(
            !t.source().is_empty() && !t.statement().is_empty() && !t.games().is_empty(),
            "{}",
            t.id()
        );
    }
}
