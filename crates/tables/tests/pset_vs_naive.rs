//! The engine's P-sets equal the plain search's (nimlab_core::table), in normal and misère play, on
//! every game it covers.

use nimlab_core::table::{tabulate as naive, TableRun};
use nimlab_core::{Game, Play};
use nimlab_games::{CircularNim, MooreNim, Nim, ShrinkingCircularNim};
use nimlab_tables::lines::Hooks;
use nimlab_tables::pset;

/// Plain-search work (positions times options of a middle position) allowed per box.
const BUDGET: f64 = 3e8;

fn check_box(game: &dyn Game, hi: u64, heaps: Option<usize>) {
    let domain = game.table_domain(hi, heaps).unwrap();
    for play in [Play::Normal, Play::Misere] {
        let want = naive(
            game,
            &domain,
            &TableRun {
                play,
                keep_positions: true,
                cancel: None,
                progress: None,
            },
        )
        .unwrap();
        let mut got = Vec::new();
        let s = pset::tabulate(game, &domain, play, Hooks::default(), &mut |p| {
            got.push(p.to_vec())
        })
        .unwrap();
        assert_eq!(s.count, want.count, "{} {play} max {hi} count", game.id());
        assert_eq!(
            s.canonical_count,
            want.canonical_count,
            "{} {play} canonical",
            game.id()
        );
        assert_eq!(
            s.by_length,
            want.by_length,
            "{} {play} by length",
            game.id()
        );
        assert_eq!(got, want.positions, "{} {play} positions", game.id());
    }
}

/// Checks the largest box (up to `cap`) whose plain search fits the budget; returns its size.
fn check(game: &dyn Game, cap: u64, heaps: Option<usize>) -> f64 {
    let lo = game.table_domain(1, heaps).unwrap().lo;
    let mut hi = lo + 1;
    let cost = |h: u64| {
        let d = game.table_domain(h, heaps).unwrap();
        let mid = vec![(d.lo + d.hi) / 2; *d.lengths.last().unwrap()];
        d.size_f64() * game.branching_bound(&mid).max(1.0)
    };
    while hi < cap && cost(hi + 1) <= BUDGET {
        hi += 1;
    }
    check_box(game, hi, heaps);
    game.table_domain(hi, heaps).unwrap().size_f64()
}

#[test]
fn circular_nim_every_k() {
    for n in 1..=7usize {
        for k in 1..=n {
            let g = CircularNim::new(n, k).unwrap();
            let size = check(&g, 63, None);
            eprintln!("{} {size}", g.id());
        }
    }
}

#[test]
fn shrinking_circular_nim_every_k() {
    for n in 1..=6usize {
        for k in 1..=n {
            let g = ShrinkingCircularNim::new(n, k).unwrap();
            let size = check(&g, 64, None);
            eprintln!("{} {size}", g.id());
        }
    }
}

#[test]
fn nim_and_moore() {
    for heaps in 1..=6usize {
        check(&Nim, 63, Some(heaps));
        for k in 1..=heaps {
            let size = check(&MooreNim::new(k).unwrap(), 63, Some(heaps));
            eprintln!("moore({k}) {heaps} {size}");
        }
    }
}
