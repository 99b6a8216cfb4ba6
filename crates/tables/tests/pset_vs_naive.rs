//! The engine's P-sets equal an independent computation, in normal and misère play, on every game it
//! covers, over boxes of at least 10^5 positions (or the largest box the engine takes, for 1 and 2
//! stacks): the plain search of `nimlab_core::table`, or, where that would visit too many options
//! (large windows, few P-positions), a P-scan written here from the rules (docs/rules.md).

use nimlab_core::table::{tabulate as naive, TableRun};
use nimlab_core::{BoxDomain, Game, Play};
use nimlab_games::{CircularNim, MooreNim, Nim, ShrinkingCircularNim};
use nimlab_tables::lines::Hooks;
use nimlab_tables::pset;

/// What a reference gives: ordered count, (length, ordered, canonical) per length, canonical list.
type Answer = (u64, Vec<(usize, u64, u64)>, Vec<Vec<u64>>);

fn engine(game: &dyn Game, d: &BoxDomain, play: Play) -> Answer {
    let mut got = Vec::new();
    let s = pset::tabulate(game, d, play, Hooks::default(), &mut |p| {
        got.push(p.to_vec())
    })
    .unwrap();
    (s.count, s.by_length, got)
}

fn plain(game: &dyn Game, d: &BoxDomain, play: Play) -> Answer {
    let t = naive(
        game,
        d,
        &TableRun {
            play,
            keep_positions: true,
            hooks: Default::default(),
        },
    )
    .unwrap();
    (t.count, t.by_length, t.positions)
}

/// The moves as docs/rules.md states them: which sets of changed places a move may touch (CN: inside k
/// consecutive places of the circle; Nim: one heap; Moore: at most k heaps), and whether emptied piles
/// vanish (SCN, whose windows are those of the current circle).
#[derive(Clone, Copy)]
enum Shape {
    Circle(usize),
    Shrinking(usize),
    Heaps(usize),
}

fn within(shape: Shape, m: usize, changed: &[usize]) -> bool {
    match shape {
        Shape::Circle(k) | Shape::Shrinking(k) => {
            k >= m || (0..m).any(|s| changed.iter().all(|&i| (i + m - s) % m < k))
        }
        Shape::Heaps(k) => changed.len() <= k,
    }
}

/// Is `q` an option of `p`? For SCN, `q` may be shorter: some piles of `p` emptied, the others kept in
/// order.
fn is_option(shape: Shape, p: &[u64], q: &[u64]) -> bool {
    let m = p.len();
    if q.len() == m {
        let mut changed = Vec::new();
        for i in 0..m {
            if q[i] > p[i] {
                return false;
            }
            if q[i] < p[i] {
                changed.push(i);
            }
        }
        return !changed.is_empty() && within(shape, m, &changed);
    }
    // Emptied piles: every set Z of the right size, kept piles matched in order.
    let z = m - q.len();
    (0u64..1 << m).any(|zmask| {
        if zmask.count_ones() as usize != z {
            return false;
        }
        let mut changed: Vec<usize> = (0..m).filter(|&i| zmask >> i & 1 == 1).collect();
        let kept = (0..m).filter(|&i| zmask >> i & 1 == 0);
        for (j, i) in kept.enumerate() {
            if q[j] > p[i] {
                return false;
            }
            if q[j] < p[i] {
                changed.push(i);
            }
        }
        changed.sort_unstable();
        within(shape, m, &changed)
    })
}

/// The P-positions of the box by scanning: shorter first, then lexicographically (every option comes
/// earlier), p is P iff no P-position found so far is an option; terminal positions (no option at
/// all: all zeros, or the empty circle) are P in normal play and N in misère play.
fn scan(game: &dyn Game, shape: Shape, d: &BoxDomain, play: Play) -> Answer {
    let r = d.radix();
    let mut ps: Vec<Vec<u64>> = Vec::new();
    let mut by_length = Vec::new();
    for &m in &d.lengths {
        let before = ps.len();
        let mut p = vec![0u64; m];
        for idx in 0..r.pow(m as u32) {
            let mut v = idx;
            for i in (0..m).rev() {
                p[i] = d.lo + v % r;
                v /= r;
            }
            let terminal = p.iter().all(|&x| x == 0);
            let is_p = if terminal {
                play == Play::Normal
            } else {
                !ps.iter().any(|q| is_option(shape, &p, q))
            };
            if is_p {
                ps.push(p.clone());
            }
        }
        let mut canon: Vec<Vec<u64>> = ps[before..].iter().map(|p| game.canonical(p)).collect();
        canon.sort();
        canon.dedup();
        by_length.push((m, (ps.len() - before) as u64, canon.len() as u64));
    }
    let mut canon: Vec<Vec<u64>> = ps.iter().map(|p| game.canonical(p)).collect();
    canon.sort_by(|a, b| a.len().cmp(&b.len()).then(a.cmp(b)));
    canon.dedup();
    (ps.len() as u64, by_length, canon)
}

fn shape_of(game: &dyn Game) -> Shape {
    if let Some(g) = game.downcast_ref::<CircularNim>() {
        return Shape::Circle(g.k);
    }
    if let Some(g) = game.downcast_ref::<ShrinkingCircularNim>() {
        return Shape::Shrinking(g.k);
    }
    Shape::Heaps(game.downcast_ref::<MooreNim>().map_or(1, |g| g.k))
}

/// Checks the smallest box of at least 10^5 positions (or the largest the engine takes) in both
/// conventions, against the P-scan when it is cheap (few P-positions), else the plain search.
fn check(game: &dyn Game, heaps: Option<usize>) {
    let lo = game.table_domain(1, heaps).unwrap().lo;
    let cap = lo + 63;
    let mut hi = lo + 1;
    while hi < cap && game.table_domain(hi, heaps).unwrap().size_f64() < 1e5 {
        hi += 1;
    }
    let d = game.table_domain(hi, heaps).unwrap();
    let m = *d.lengths.last().unwrap() as f64;
    for play in [Play::Normal, Play::Misere] {
        let got = engine(game, &d, play);
        let scan_cost = d.size_f64() * got.0 as f64 * m * if lo == 1 { 8.0 } else { 1.0 };
        let (how, want) = if scan_cost <= 1.5e9 {
            ("p-scan", scan(game, shape_of(game), &d, play))
        } else {
            ("plain search", plain(game, &d, play))
        };
        let what = format!("{} {play} max {hi} against the {how}", game.id());
        assert_eq!(got.0, want.0, "{what}: count");
        assert_eq!(got.1, want.1, "{what}: counts by length");
        assert_eq!(got.2, want.2, "{what}: canonical positions");
    }
}

#[test]
fn circular_nim_every_k() {
    for n in 1..=7usize {
        for k in 1..=n {
            check(&CircularNim::new(n, k).unwrap(), None);
        }
    }
}

#[test]
fn shrinking_circular_nim_every_k() {
    for n in 1..=6usize {
        for k in 1..=n {
            check(&ShrinkingCircularNim::new(n, k).unwrap(), None);
        }
    }
}

#[test]
fn nim_and_moore() {
    for heaps in 1..=6usize {
        check(&Nim, Some(heaps));
        for k in 1..=heaps {
            check(&MooreNim::new(k).unwrap(), Some(heaps));
        }
    }
}

/// The P-scan itself agrees with the plain search on small boxes of each family.
#[test]
fn the_p_scan_agrees_with_the_plain_search() {
    let games: Vec<(Box<dyn Game>, u64, Option<usize>)> = vec![
        (Box::new(CircularNim::new(5, 3).unwrap()), 4, None),
        (Box::new(ShrinkingCircularNim::new(5, 3).unwrap()), 4, None),
        (Box::new(ShrinkingCircularNim::new(4, 2).unwrap()), 5, None),
        (Box::new(MooreNim::new(2).unwrap()), 4, Some(4)),
    ];
    for (g, hi, heaps) in games {
        let d = g.table_domain(hi, heaps).unwrap();
        for play in [Play::Normal, Play::Misere] {
            assert_eq!(
                scan(g.as_ref(), shape_of(g.as_ref()), &d, play),
                plain(g.as_ref(), &d, play),
                "{} {play}",
                g.id()
            );
        }
    }
}
