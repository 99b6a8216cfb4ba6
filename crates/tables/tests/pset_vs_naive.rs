//! The engine's P-sets equal the plain search's (nimlab_core::table), in normal and misère play, on
//! every game it covers.

use nimlab_core::table::{tabulate as naive, TableRun};
use nimlab_core::{Game, Play};
use nimlab_games::{CircularNim, MooreNim, Nim, ShrinkingCircularNim};
use nimlab_tables::lines::Hooks;
use nimlab_tables::pset;

/// Plain-search work (positions times options of a middle position) allowed per box.
const BUDGET: f64 = 6e7;

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

/// An independent P-set of the box [0..=hi]^m: in lexicographic order, p is P iff no P-position found
/// so far is an option of p (below p, changed only at places that `allowed` accepts); in misère play
/// the terminal position (all zeros) is N.
fn p_scan(m: usize, hi: u64, allowed: &dyn Fn(&[usize]) -> bool, misere: bool) -> Vec<Vec<u64>> {
    let r = hi + 1;
    let mut ps: Vec<Vec<u64>> = Vec::new();
    let mut p = vec![0u64; m];
    let mut changed = Vec::with_capacity(m);
    for idx in 0..r.pow(m as u32) {
        let mut v = idx;
        for i in (0..m).rev() {
            p[i] = v % r;
            v /= r;
        }
        if misere && idx == 0 {
            continue;
        }
        let reaches = ps.iter().any(|q| {
            changed.clear();
            for i in 0..m {
                if q[i] > p[i] {
                    return false;
                }
                if q[i] < p[i] {
                    changed.push(i);
                }
            }
            !changed.is_empty() && allowed(&changed)
        });
        if !reaches {
            ps.push(p.clone());
        }
    }
    ps
}

/// Boxes of at least 10^5 positions for the games whose P-sets are small (large windows), where the
/// plain search would visit too many options: the engine against [`p_scan`].
#[test]
fn large_windows_against_a_p_scan() {
    let cases: Vec<(Box<dyn Game>, u64)> = vec![
        (Box::new(CircularNim::new(5, 4).unwrap()), 10),
        (Box::new(CircularNim::new(5, 5).unwrap()), 10),
        (Box::new(CircularNim::new(6, 4).unwrap()), 6),
        (Box::new(CircularNim::new(6, 5).unwrap()), 6),
        (Box::new(CircularNim::new(6, 6).unwrap()), 6),
        (Box::new(CircularNim::new(7, 4).unwrap()), 5),
        (Box::new(CircularNim::new(7, 5).unwrap()), 5),
        (Box::new(CircularNim::new(7, 6).unwrap()), 5),
        (Box::new(CircularNim::new(7, 7).unwrap()), 5),
    ];
    for (game, hi) in cases {
        let (n, k) = (game.params()[0] as usize, game.params()[1] as usize);
        let fits = |d: &[usize]| k >= n || (0..n).any(|s| d.iter().all(|&i| (i + n - s) % n < k));
        let domain = game.table_domain(hi, None).unwrap();
        assert!(domain.size_f64() >= 1e5);
        for play in [Play::Normal, Play::Misere] {
            let want = p_scan(n, hi, &fits, play == Play::Misere);
            let mut classes: Vec<Vec<u64>> = want.iter().map(|p| game.canonical(p)).collect();
            classes.sort();
            classes.dedup();
            let mut got = Vec::new();
            let s = pset::tabulate(game.as_ref(), &domain, play, Hooks::default(), &mut |p| {
                got.push(p.to_vec())
            })
            .unwrap();
            assert_eq!(s.count, want.len() as u64, "{} {play} max {hi}", game.id());
            assert_eq!(got, classes, "{} {play} max {hi}", game.id());
        }
    }
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
