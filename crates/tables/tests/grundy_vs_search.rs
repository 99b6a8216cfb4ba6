//! The engine's Grundy values equal a plain search over the box (every option of every position,
//! from the game's own move generator, values in a flat array), for CN(n,k), Nim and Moore's Nim.

use nimlab_core::Game;
use nimlab_games::{CircularNim, MooreNim, Nim};
use nimlab_tables::grundy;
use nimlab_tables::lines::Hooks;
use nimlab_tables::pset::{rules_for, Rules};
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
        });
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
