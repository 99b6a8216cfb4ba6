//! The tier schedule (the layout a GPU back end would use) finds exactly the P-lines of the block
//! engine, for CN(n,k) with every k, Nim and Moore's Nim, in both conventions.

use nimlab_tables::lines::{self, Hooks, LineSpec, NoOracle};
use nimlab_tables::pset::{cyclic_windows, engine_windows};
use nimlab_tables::tiers;

fn compare(m: usize, r: usize, windows: Vec<Vec<usize>>, what: &str) -> usize {
    let mut found = 0;
    for origin_n in [false, true] {
        let spec = LineSpec {
            radix: None,
            m,
            r,
            windows: engine_windows(m, &windows),
            origin_n,
        };
        let mut want = Vec::new();
        lines::solve(&spec, &NoOracle, Hooks::default(), &mut |_, l| {
            want.extend(l)
        })
        .unwrap();
        want.sort_unstable();
        let got = tiers::solve(&spec, Hooks::default()).unwrap();
        assert_eq!(got, want, "{what}, r {r}, misère {origin_n}");
        found += got.len();
    }
    found
}

#[test]
fn circular_nim_every_k() {
    for (n, r) in [(1, 64), (2, 64), (3, 40), (4, 20), (5, 12), (6, 8), (7, 6)] {
        for k in 1..=n {
            let p = compare(n, r, cyclic_windows(n, k), &format!("CN({n},{k})"));
            assert!(p > 0);
        }
    }
    // A larger box for the game the GPU targets are stated for.
    compare(7, 10, cyclic_windows(7, 4), "CN(7,4)");
}

#[test]
fn nim_and_moore() {
    for heaps in 2..=5usize {
        for k in 1..=heaps {
            let windows: Vec<Vec<usize>> = (0u64..1 << heaps)
                .filter(|s| s.count_ones() as usize == k)
                .map(|s| (0..heaps).filter(|&i| s >> i & 1 == 1).collect())
                .collect();
            compare(
                heaps,
                9,
                windows,
                &format!("Moore's Nim_{k}, {heaps} heaps"),
            );
        }
    }
}
