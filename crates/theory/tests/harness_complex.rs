//! Results carried over to relabeled complexes ([`nimlab_theory::relabeled`]): every position of a box
//! decided through the relabeling agrees with exhaustive search of the complex itself (outcome, Grundy
//! value, every constructed winning move legal in the complex and winning), and the relabeling found
//! maps the complex's facets onto the known game's faces, checked here against windows and k-sets
//! written out by hand.

use nimlab_core::{Play, Pos};
use nimlab_games::complex::{Complex, KnownGame};
use nimlab_games::parse_game;
use nimlab_testkit as harness;
use nimlab_theory::relabeled::Relabeled;
use nimlab_theory::{find, Theorem};
use std::collections::BTreeSet;

fn tuples(len: usize, hi: u64) -> Vec<Pos> {
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

/// The known game's faces as sets of 0-based stacks, written from its rules.
fn known_faces(t: KnownGame) -> BTreeSet<BTreeSet<usize>> {
    match t {
        KnownGame::Cn { n, k } if k >= n => [(0..n).collect()].into_iter().collect(),
        KnownGame::Cn { n, k } => (0..n)
            .map(|s| (0..k).map(|j| (s + j) % n).collect())
            .collect(),
        KnownGame::Moore { n, k } => (0u64..1 << n)
            .filter(|m| m.count_ones() as usize == k)
            .map(|m| (0..n).filter(|&i| m >> i & 1 == 1).collect())
            .collect(),
    }
}

#[test]
fn relabeled_complexes_are_answered_by_the_known_games_results() {
    // (game, known game it must be a relabeling of, box height)
    let cases = [
        // The pentagram {i, i+2} is a 5-cycle: CN(5,2).
        ("ECN(5,{2},2)", "CN(5,2)", 6),
        // Step 3 is invertible mod 7 (3 * 5 = 15 = 1): i -> 5i turns {i, i+3, i+6, i+9} into windows.
        ("ECN(7,{3},4)", "CN(7,4)", 3),
        // A triangle {1,2},{2,3},{1,3}: every 2-set of 3 stacks, CN(3,2).
        ("simplicial({1,2},{2,3},{3,1})", "CN(3,2)", 7),
        // The 4-cycle 1-3-2-4-1 relabeled as 1-2-3-4-1: CN(4,2).
        ("simplicial({1,3},{2,4},{3,2},{4,1})", "CN(4,2)", 7),
        // Single stacks: Nim, CN(4,1).
        ("simplicial({1},{2},{3},{4})", "CN(4,1)", 5),
        // Every 2-set of 4 stacks: not CN(4,k) for any k (6 facets), Moore's Nim_2.
        (
            "simplicial({1,2},{1,3},{1,4},{2,3},{2,4},{3,4})",
            "moore(2)",
            5,
        ),
        // ECN(6,{1,2},3): windows of 3 and the two triangles {0,2,4},{1,3,5}: every 3-set? No: 8 facets
        // of C(6,3) = 20, and CN(6,k) has 6 or 1; not a relabeling (checked below).
    ];
    for (name, target, hi) in cases {
        let g = parse_game(name).unwrap();
        let c = g.downcast_ref::<Complex>().unwrap();
        let r = c
            .relabeling()
            .unwrap_or_else(|| panic!("{name} has a relabeling"));
        assert_eq!(r.target.name(), target, "{name}");
        // The map sends facets onto the known game's faces exactly.
        let image: BTreeSet<BTreeSet<usize>> = c
            .facets()
            .iter()
            .map(|f| f.iter().map(|&i| r.map[i]).collect())
            .collect();
        assert_eq!(image, known_faces(r.target), "{name}");
        let n = c.stacks();
        for play in [Play::Normal, Play::Misere] {
            let t = Relabeled { play };
            if !t.covers(g.as_ref()) {
                // Only CN(n,1) (Bouton) has a complete misère result here.
                assert!(play == Play::Misere && target != "CN(4,1)", "{name} {play}");
                continue;
            }
            let cov = harness::check(&t, g.as_ref(), tuples(n, hi));
            assert_eq!(cov.decided, cov.positions, "{name} {play}");
            // (Moore's theorem decides membership without constructing moves.)
            assert!(cov.p_positions > 0, "{name} {play}");
            assert_eq!(cov.moves_checked > 0, target != "moore(2)", "{name} {play}");
            // The registry finds it, and the explanation names the relabeling.
            let p = vec![1; n];
            let (th, v) = find(g.as_ref(), &p, play).unwrap();
            assert_eq!(th.id(), t.id());
            let why = v.reason.unwrap();
            assert!(
                why.contains(&format!("is a relabeling of {target} (stacks 1,")),
                "{why}"
            );
        }
    }
    for name in [
        "ECN(6,{1,2},3)",
        "ECN(8,{1,2},3)",
        "simplicial({1,2,3},{3,4})",
    ] {
        let g = parse_game(name).unwrap();
        assert!(
            g.downcast_ref::<Complex>().unwrap().relabeling().is_none(),
            "{name}"
        );
        assert!(
            !Relabeled { play: Play::Normal }.covers(g.as_ref()),
            "{name}"
        );
    }
}
