//! The plain SCN sweep of the engine's benchmark (examples/plain_scn_sweep.rs) and the engine agree
//! with a memoized search written here from the rules of SCN(n,k) (docs/rules.md), on small boxes;
//! and the plain sweep agrees with the engine on larger ones. Normal play, piles in `1..=h`.

#[allow(dead_code)]
#[path = "../examples/plain_scn_sweep.rs"]
mod plain_scn_sweep;

use nimlab_core::{Game, Play};
use nimlab_games::ShrinkingCircularNim;
use nimlab_tables::lines::Hooks;
use nimlab_tables::pset;
use plain_scn_sweep::{is_canonical, sweep};
use std::collections::HashMap;

/// Outcomes of SCN(·,k) circles by search: a circle is P exactly when no option is P; the empty
/// circle has no option.
struct Search {
    k: usize,
    h: u64,
    memo: HashMap<u64, bool>,
}

impl Search {
    /// One number per circle of piles in `1..=h` (digits in base `h + 1`, none of them 0).
    fn key(&self, p: &[u64]) -> u64 {
        p.iter().fold(0, |acc, &v| acc * (self.h + 1) + v)
    }

    fn is_p(&mut self, p: &[u64]) -> bool {
        let m = p.len();
        if m == 0 {
            return true;
        }
        let key = self.key(p);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        // The windows: k consecutive piles, or the whole circle when m <= k.
        let windows: Vec<Vec<usize>> = if m <= self.k {
            vec![(0..m).collect()]
        } else {
            (0..m)
                .map(|j| (0..self.k).map(|t| (j + t) % m).collect())
                .collect()
        };
        let mut p_option = false;
        'windows: for w in &windows {
            // Every new value of each pile of the window, the unchanged one excepted.
            let mut new: Vec<u64> = w.iter().map(|&i| p[i]).collect();
            loop {
                // Next combination (lowest first): count down from p on the window's piles.
                let mut t = 0;
                while t < w.len() && new[t] == 0 {
                    new[t] = p[w[t]];
                    t += 1;
                }
                if t == w.len() {
                    break;
                }
                new[t] -= 1;
                // The option: the window's piles lowered, the emptied ones gone.
                let mut q = p.to_vec();
                for (t, &i) in w.iter().enumerate() {
                    q[i] = new[t];
                }
                q.retain(|&v| v > 0);
                if self.is_p(&q) {
                    p_option = true;
                    break 'windows;
                }
            }
        }
        self.memo.insert(key, !p_option);
        !p_option
    }
}

/// Every circle of at most `n` piles, each in `1..=h`.
fn circles(n: usize, h: u64) -> Vec<Vec<u64>> {
    let mut all = vec![Vec::new()];
    let mut last = vec![Vec::new()];
    for _ in 1..=n {
        let next: Vec<Vec<u64>> = last
            .iter()
            .flat_map(|p: &Vec<u64>| {
                (1..=h).map(move |v| {
                    let mut q = p.clone();
                    q.push(v);
                    q
                })
            })
            .collect();
        all.extend(next.iter().cloned());
        last = next;
    }
    all
}

/// The P-positions of the plain sweep, sorted, with its counts per length.
fn plain(n: usize, k: usize, h: u64) -> (Vec<Vec<u64>>, Vec<u64>) {
    let mut ps = Vec::new();
    let counts = sweep(n, k, h as usize, &mut |p| ps.push(p.to_vec()));
    ps.sort();
    (ps, counts)
}

/// The engine's canonical P-positions, sorted, and its (ordered, canonical) counts per length.
fn engine(n: usize, k: usize, h: u64) -> (Vec<Vec<u64>>, Vec<(u64, u64)>) {
    let game = ShrinkingCircularNim::new(n, k).unwrap();
    let domain = game.table_domain(h, None).unwrap();
    let mut canon = Vec::new();
    let summary = pset::tabulate(&game, &domain, Play::Normal, Hooks::default(), &mut |p| {
        canon.push(p.to_vec())
    })
    .unwrap();
    canon.sort();
    let by_length: Vec<(u64, u64)> = summary.by_length.iter().map(|&(_, o, c)| (o, c)).collect();
    assert_eq!(
        summary.by_length.iter().map(|t| t.0).collect::<Vec<_>>(),
        (0..=n).collect::<Vec<_>>()
    );
    (canon, by_length)
}

/// The canonical P-positions among `ps` (sorted), and the (ordered, canonical) counts per length.
fn canonical(n: usize, ps: &[Vec<u64>]) -> (Vec<Vec<u64>>, Vec<(u64, u64)>) {
    let mut by_length = vec![(0u64, 0u64); n + 1];
    let mut canon = Vec::new();
    for p in ps {
        by_length[p.len()].0 += 1;
        if is_canonical(p) {
            by_length[p.len()].1 += 1;
            canon.push(p.clone());
        }
    }
    canon.sort();
    (canon, by_length)
}

#[test]
fn the_plain_sweep_and_the_engine_agree_with_a_search() {
    let mut positions = 0;
    for (n, k, h) in [
        (3, 2, 9),
        (4, 2, 7),
        (4, 3, 7),
        (5, 3, 6),
        (6, 4, 4),
        (5, 2, 6),
        (4, 1, 6),
        (5, 5, 4),
    ] {
        let mut search = Search {
            k,
            h,
            memo: HashMap::new(),
        };
        let all = circles(n, h);
        positions += all.len();
        let mut want: Vec<Vec<u64>> = all.into_iter().filter(|p| search.is_p(p)).collect();
        want.sort();
        let what = format!("SCN({n},{k}) piles 1..={h}");
        let (got, counts) = plain(n, k, h);
        assert_eq!(got, want, "{what}: the plain sweep's P-positions");
        let per_length: Vec<u64> = (0..=n)
            .map(|m| want.iter().filter(|p| p.len() == m).count() as u64)
            .collect();
        assert_eq!(counts, per_length, "{what}: the plain sweep's counts");
        assert_eq!(
            engine(n, k, h),
            canonical(n, &want),
            "{what}: the engine's P-positions"
        );
    }
    assert!(positions > 30_000, "{positions} positions searched");
}

#[test]
fn the_plain_sweep_agrees_with_the_engine_on_larger_boxes() {
    for (n, k, h) in [
        (6, 4, 14),
        (5, 3, 16),
        (6, 3, 10),
        (5, 2, 12),
        (7, 4, 7),
        (4, 2, 64),
    ] {
        let (ps, _) = plain(n, k, h);
        assert_eq!(
            canonical(n, &ps),
            engine(n, k, h),
            "SCN({n},{k}) piles 1..={h}"
        );
    }
}
