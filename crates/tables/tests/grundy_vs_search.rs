//! The engine's Grundy values equal a plain search over the box (every option of every position,
//! from the game's own move generator, values in a flat array), for CN(n,k), Nim and Moore's Nim.

use nimlab_core::Game;
use nimlab_games::{CircularNim, MooreNim, Nim};
use nimlab_tables::grundy;
use nimlab_tables::lines::Hooks;
use nimlab_tables::pset::{self, rules_for, Rules};
use std::ops::ControlFlow;

/// Plain-search work (positions times options of a middle position) allowed per box.
const BUDGET: f64 = 8e7;

fn plain(game: &dyn Game, m: usize, r: u64) -> Vec<u16> {
    let total = r.pow(m as u32) as usize;
    let mut g = vec![0u16; total];
    let mut p = vec![0u64; m];
    // Lexicographic order puts every option (coordinate-wise below) before its position.
    for idx in 0..total {
        let mut v = idx;
        for i in (0..m).rev() {
            p[i] = (v % r as usize) as u64;
            v /= r as usize;
        }
        let mut seen = vec![false; 64 * 64];
        game.for_each_option(&p, &mut |q| {
            let j = q.iter().fold(0usize, |a, &x| a * r as usize + x as usize);
            seen[g[j] as usize] = true;
            ControlFlow::Continue(())
        })
        .unwrap();
        g[idx] = seen.iter().position(|&s| !s).unwrap() as u16;
    }
    g
}

fn check(game: &dyn Game, heaps: Option<usize>) -> (u64, usize) {
    let cost = |h: u64| {
        let d = game.table_domain(h, heaps).unwrap();
        let mid = vec![(d.lo + d.hi) / 2; d.lengths[0]];
        d.size_f64() * game.branching_bound(&mid).max(1.0)
    };
    let mut hi = 1;
    while hi < 40 && cost(hi + 1) <= BUDGET {
        hi += 1;
    }
    let d = game.table_domain(hi, heaps).unwrap();
    let Some(Rules::Windows { m, windows }) = rules_for(game, &d) else {
        panic!("{} is a window game", game.id())
    };
    let got = grundy::solve(m, d.radix() as usize, &windows, Hooks::default()).unwrap();
    let want = plain(game, m, d.radix());
    assert_eq!(got, want, "{} Grundy values, max {hi}", game.id());
    (hi, got.len())
}

#[test]
fn circular_nim_every_k() {
    for n in 1..=7 {
        for k in 1..=n {
            let g = CircularNim::new(n, k).unwrap();
            let (hi, size) = check(&g, None);
            eprintln!("{} max {hi}: {size}", g.id());
        }
    }
}

#[test]
fn nim_and_moore() {
    for heaps in 1..=6 {
        check(&Nim, Some(heaps));
        for k in 1..=heaps {
            let (hi, size) = check(&MooreNim::new(k).unwrap(), Some(heaps));
            eprintln!("moore({k}) {heaps} heaps max {hi}: {size}");
        }
    }
}

/// Over boxes of at least 10^5 positions: the zeros of the Grundy table are exactly the P-set (checked
/// against independent references in `pset_vs_naive.rs`), and Nim's values are the XOR of the heaps.
#[test]
fn zeros_are_the_p_set_on_large_boxes() {
    let mut games: Vec<(Box<dyn Game>, Option<usize>)> = Vec::new();
    for n in 3..=7 {
        for k in 1..=n {
            games.push((Box::new(CircularNim::new(n, k).unwrap()), None));
        }
    }
    for heaps in 3..=6 {
        games.push((Box::new(Nim), Some(heaps)));
        for k in 2..=heaps {
            games.push((Box::new(MooreNim::new(k).unwrap()), Some(heaps)));
        }
    }
    for (game, heaps) in games {
        let mut hi = 1;
        while game.table_domain(hi, heaps).unwrap().size_f64() < 1e5 {
            hi += 1;
        }
        let d = game.table_domain(hi, heaps).unwrap();
        let Some(Rules::Windows { m, windows }) = rules_for(game.as_ref(), &d) else {
            panic!("{} is a window game", game.id())
        };
        let r = d.radix();
        let values = grundy::solve(m, r as usize, &windows, Hooks::default()).unwrap();
        let mut zeros = Vec::new();
        let mut p = vec![0u64; m];
        for (idx, &g) in values.iter().enumerate() {
            let mut v = idx as u64;
            for i in (0..m).rev() {
                p[i] = v % r;
                v /= r;
            }
            if game.downcast_ref::<nimlab_games::Nim>().is_some() {
                assert_eq!(g as u64, p.iter().fold(0, |a, &x| a ^ x), "nim {p:?}");
            }
            if g == 0 && game.canonical(&p) == p {
                zeros.push(p.clone());
            }
        }
        let mut p_set = Vec::new();
        pset::tabulate(
            game.as_ref(),
            &d,
            nimlab_core::Play::Normal,
            Hooks::default(),
            &mut |q| p_set.push(q.to_vec()),
        )
        .unwrap();
        assert_eq!(
            zeros,
            p_set,
            "{} max {hi}: zeros of the Grundy table",
            game.id()
        );
    }
}
