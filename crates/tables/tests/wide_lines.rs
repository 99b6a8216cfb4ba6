//! Boxes whose entries go past 63, where a line of the engine is longer than one machine word: the
//! engine's P-sets equal references written here from the rules (docs/rules.md), in normal and misère
//! play, for Nim, Moore's Nim, CN, ECN and SCN, on boxes of 3 and 4 stacks with entries up to 80 and
//! more, and of 1 and 2 stacks up to a few hundred or thousand.
//!
//! The references: the plain search of `nimlab_core::table` where its option count allows; for
//! larger boxes a per-position dynamic program from the rules — "p is N iff some option is P", with
//! the options inside one window found through `D_w(p)`: "some P-position q <= p agrees with p outside
//! the window w" (a boolean per position and window, no bit sets, no lines); and for SCN the moves
//! that empty piles enumerated one by one against the shorter circles' P-sets.

use nimlab_core::table::{tabulate as naive, TableRun};
use nimlab_core::{BoxDomain, Game, Play};
use nimlab_games::{registry, CircularNim, MooreNim, Nim, ShrinkingCircularNim};
use nimlab_tables::lines::Hooks;
use nimlab_tables::pset;

/// (count of P-positions, canonical P-positions shortest first then lexicographic).
type Answer = (u64, Vec<Vec<u64>>);

fn engine(game: &dyn Game, d: &BoxDomain, play: Play) -> Answer {
    // Blocks of the previous diagonal handed back one by one, as on large boxes.
    nimlab_tables::lines::hand_back_from(0);
    assert!(
        pset::rules_for(game, d).is_some(),
        "{}: the engine takes this box",
        game.id()
    );
    let mut got = Vec::new();
    let s = pset::tabulate(game, d, play, Hooks::default(), &mut |p| {
        got.push(p.to_vec())
    })
    .unwrap();
    (s.count, got)
}

fn canonical_answer(game: &dyn Game, ps: &[Vec<u64>]) -> Answer {
    let mut canon: Vec<Vec<u64>> = ps.iter().map(|p| game.canonical(p)).collect();
    canon.sort_by(|a, b| a.len().cmp(&b.len()).then(a.cmp(b)));
    canon.dedup();
    (ps.len() as u64, canon)
}

/// Tuple of lexicographic index `idx` in `[lo..lo+r)^m` (entry 0 most significant).
fn tuple(idx: usize, m: usize, lo: u64, r: usize) -> Vec<u64> {
    let mut p = vec![0u64; m];
    let mut v = idx;
    for i in (0..m).rev() {
        p[i] = lo + (v % r) as u64;
        v /= r;
    }
    p
}

/// P-flags of a window game on `[lo..lo+r)^m` by lexicographic index: a move picks a window and
/// lowers some of its entries, never below `lo`. `origin_n`: the all-`lo` position, terminal, is N
/// (misère play). `out(x)`: whether the position of offsets `x` has a winning move that leaves the box
/// (SCN's emptied piles; asked only when no move inside the box wins).
fn window_dp(
    m: usize,
    r: usize,
    windows: &[Vec<usize>],
    origin_n: bool,
    out: &mut dyn FnMut(&[usize]) -> bool,
) -> Vec<bool> {
    let n = r.pow(m as u32);
    let stride: Vec<usize> = (0..m).map(|i| r.pow((m - 1 - i) as u32)).collect();
    let mut p = vec![false; n];
    // d[w][idx]: some P-position q <= position idx agrees with it outside window w (q may equal it).
    let mut d = vec![vec![false; n]; windows.len()];
    let mut x = vec![0usize; m];
    for idx in 0..n {
        let below = |d: &Vec<Vec<bool>>, wi: usize| {
            windows[wi]
                .iter()
                .any(|&i| x[i] > 0 && d[wi][idx - stride[i]])
        };
        let is_n = (idx == 0 && origin_n) || (0..windows.len()).any(|wi| below(&d, wi)) || out(&x);
        p[idx] = !is_n;
        for wi in 0..windows.len() {
            d[wi][idx] = p[idx] || below(&d, wi);
        }
        for i in (0..m).rev() {
            x[i] += 1;
            if x[i] < r {
                break;
            }
            x[i] = 0;
        }
    }
    p
}

fn window_reference(game: &dyn Game, d: &BoxDomain, windows: &[Vec<usize>], play: Play) -> Answer {
    let m = *d.lengths.last().unwrap();
    let r = d.radix() as usize;
    let flags = window_dp(m, r, windows, play == Play::Misere, &mut |_| false);
    let ps: Vec<Vec<u64>> = (0..flags.len())
        .filter(|&i| flags[i])
        .map(|i| tuple(i, m, d.lo, r))
        .collect();
    canonical_answer(game, &ps)
}

fn cyclic(m: usize, k: usize) -> Vec<Vec<usize>> {
    if k >= m {
        return vec![(0..m).collect()];
    }
    (0..m)
        .map(|s| (0..k).map(|t| (s + t) % m).collect())
        .collect()
}

fn subsets_of_size(m: usize, k: usize) -> Vec<Vec<usize>> {
    (0u32..1 << m)
        .filter(|s| s.count_ones() as usize == k)
        .map(|s| (0..m).filter(|&i| s >> i & 1 == 1).collect())
        .collect()
}

fn check_windows(game: &dyn Game, max: u64, heaps: Option<usize>, windows: &[Vec<usize>]) {
    let d = game.table_domain(max, heaps).unwrap();
    assert!(d.radix() > 64, "{}: a box past one word", game.id());
    for play in [Play::Normal, Play::Misere] {
        let got = engine(game, &d, play);
        let want = window_reference(game, &d, windows, play);
        assert_eq!(got.0, want.0, "{} {play} max {max}: count", game.id());
        assert_eq!(got.1, want.1, "{} {play} max {max}: positions", game.id());
    }
}

#[test]
fn nim_and_moore_past_one_word() {
    check_windows(&Nim, 3000, Some(1), &[vec![0]]);
    check_windows(&Nim, 300, Some(2), &[vec![0], vec![1]]);
    check_windows(&Nim, 130, Some(3), &[vec![0], vec![1], vec![2]]);
    let moore = MooreNim::new(2).unwrap();
    check_windows(&moore, 100, Some(3), &subsets_of_size(3, 2));
    check_windows(&moore, 65, Some(4), &subsets_of_size(4, 2));
}

#[test]
fn circular_nim_past_one_word() {
    for (n, k, max) in [
        (1, 1, 1000),
        (2, 1, 300),
        (2, 2, 300),
        (3, 1, 100),
        (3, 2, 129),
        (4, 2, 66),
        (4, 3, 65),
    ] {
        check_windows(&CircularNim::new(n, k).unwrap(), max, None, &cyclic(n, k));
    }
}

#[test]
fn extended_circular_nim_past_one_word() {
    // ECN(4,{1,2},2): windows {i, i+1} and {i, i+2} of the circle of 4.
    let g = registry::parse_game("ECN(4,{1,2},2)").unwrap();
    let mut windows = cyclic(4, 2);
    windows.extend([vec![0, 2], vec![1, 3]]);
    check_windows(g.as_ref(), 65, None, &windows);
}

/// SCN(n,k) on piles `1..=max` by circle length: within a window piles are lowered, and those that
/// reach 0 leave the circle (the others keep their order); the empty circle is terminal.
fn scn_reference(game: &dyn Game, n: usize, k: usize, max: u64, play: Play) -> Answer {
    let r = max as usize;
    let mut by_len: Vec<Vec<bool>> = vec![vec![play == Play::Normal]];
    let mut ps: Vec<Vec<u64>> = Vec::new();
    if play == Play::Normal {
        ps.push(Vec::new());
    }
    for m in 1..=n {
        let windows = cyclic(m, k);
        let count = r.pow(m as u32);
        // Moves that empty a non-empty set Z of a window's piles and lower or keep the rest of the
        // window: every such option, one by one, against the shorter circles' P-flags.
        let shorter = &by_len;
        let mut out = |x: &[usize]| {
            for w in &windows {
                for z in 1u32..1 << w.len() {
                    let zeroed: Vec<usize> = (0..w.len())
                        .filter(|&t| z >> t & 1 == 1)
                        .map(|t| w[t])
                        .collect();
                    let kept: Vec<usize> = (0..m).filter(|i| !zeroed.contains(i)).collect();
                    let lowered: Vec<usize> =
                        w.iter().copied().filter(|i| !zeroed.contains(i)).collect();
                    // Odometer over the values of the lowered piles (1..=x+1, x+1 = kept as is).
                    let mut v: Vec<usize> = lowered.iter().map(|_| 1).collect();
                    loop {
                        let qi = kept.iter().fold(0usize, |a, &i| {
                            let e = match lowered.iter().position(|&j| j == i) {
                                Some(t) => v[t],
                                None => x[i] + 1,
                            };
                            a * r + (e - 1)
                        });
                        if shorter[kept.len()][qi] {
                            return true;
                        }
                        let mut t = 0;
                        while t < v.len() {
                            v[t] += 1;
                            if v[t] <= x[lowered[t]] + 1 {
                                break;
                            }
                            v[t] = 1;
                            t += 1;
                        }
                        if t == v.len() {
                            break;
                        }
                    }
                }
            }
            false
        };
        let p = window_dp(m, r, &windows, false, &mut out);
        ps.extend((0..count).filter(|&i| p[i]).map(|i| tuple(i, m, 1, r)));
        by_len.push(p);
    }
    canonical_answer(game, &ps)
}

#[test]
fn shrinking_circular_nim_past_one_word() {
    for (n, k, max) in [
        (1, 1, 500),
        (2, 1, 200),
        (2, 2, 200),
        (3, 2, 80),
        (3, 3, 70),
        // Two arcs of the 3-circle that mirror each other share one table.
        (4, 2, 66),
    ] {
        let g = ShrinkingCircularNim::new(n, k).unwrap();
        let d = g.table_domain(max, None).unwrap();
        for play in [Play::Normal, Play::Misere] {
            let got = engine(&g, &d, play);
            let want = scn_reference(&g, n, k, max, play);
            assert_eq!(got.0, want.0, "{} {play} max {max}: count", g.id());
            assert_eq!(got.1, want.1, "{} {play} max {max}: positions", g.id());
        }
    }
}

/// The references above agree with the plain search where it is affordable past 63.
#[test]
fn the_references_agree_with_the_plain_search_past_63() {
    let cases: Vec<(Box<dyn Game>, u64, Option<usize>)> = vec![
        (Box::new(Nim), 90, Some(3)),
        (Box::new(CircularNim::new(2, 2).unwrap()), 150, None),
        (Box::new(CircularNim::new(3, 1).unwrap()), 70, None),
        (
            Box::new(ShrinkingCircularNim::new(2, 2).unwrap()),
            100,
            None,
        ),
    ];
    for (g, max, heaps) in cases {
        let d = g.table_domain(max, heaps).unwrap();
        for play in [Play::Normal, Play::Misere] {
            let t = naive(
                g.as_ref(),
                &d,
                &TableRun {
                    play,
                    keep_positions: true,
                    hooks: Default::default(),
                },
            )
            .unwrap();
            let got = engine(g.as_ref(), &d, play);
            assert_eq!(
                (got.0, &got.1),
                (t.count, &t.positions),
                "{} {play} max {max}",
                g.id()
            );
        }
    }
}
