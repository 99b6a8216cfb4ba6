//! The SCN baseline of the engine's benchmark (scripts/bench-engine.sh): a plain, single-thread
//! row-word sweep of SCN(n,k) over the circles of at most n piles, each pile in `1..=h`, written from
//! the rules (docs/rules.md) and nothing else.
//!
//! A move of SCN(n,k) on a circle of m piles picks a window (k consecutive piles when m > k, the whole
//! circle when m <= k) and lowers any of its piles, at least one token in all; piles that reach 0
//! vanish and the circle closes up. The lengths are computed in order 1, 2, ..., n (the empty circle
//! is the only terminal position, a P-position).
//!
//! On one length the positions are lines: the `h` values of pile 0, one bit each in a machine word,
//! visited in lexicographic order of piles `1..m` (pile 1 fastest). The moves that keep every pile are
//! those of a window game on `[1..h]^m`: for a window `w`, `D_w(p)` says "some P-position `q <= p`
//! agrees with `p` outside `w`", `D_w(p) = P(p) or OR_{i in w} D_w(p - e_i)`, kept in a ring as long as
//! a later line reads it, exactly as in plain_sweep.rs. A move that empties the piles `Z` of a window
//! `w` lands on the shorter circle of the kept piles, with the piles of `w \ Z` (an arc there) lowered
//! or not: it reaches a P-position exactly when `D_arc` of the shorter circle holds at the contracted
//! position. So each shorter length keeps its P-set (one word per line) and a whole `D_arc` table for
//! every arc that such a move lowers; a move that keeps pile 0 reads one word of it (every value of
//! pile 0 at once), a move that empties pile 0 one bit (then the whole line is N). A line's P-position
//! is its lowest value that no move reaches (at most one per line: lowering pile 0 alone is a move).
//! The moves that empty piles are asked only while the line still has such a value, and not at all
//! into a shorter length without P-positions. No symmetry is used, except to count the P-positions up
//! to rotation and reflection at the end (one comparison per P-position).
//!
//! `cargo run --release -p nimlab-tables --example plain_scn_sweep -- N K H` prints the number of
//! P-positions (ordered tuples, and up to symmetry) of SCN(N,K) with piles in 1..=H, per length and in
//! all, as `nimlab table 'SCN(N,K)' --max H --count-only` does (H at most 64).

use std::time::Instant;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().unwrap_or(u64::MAX))
        .collect();
    let [n, k, h] = args[..] else {
        eprintln!("usage: plain_scn_sweep N K H (SCN(N,K), piles in 1..=H)");
        std::process::exit(2);
    };
    if !(1..=10).contains(&n) || !(1..=n).contains(&k) || !(1..=64).contains(&h) {
        eprintln!("plain_scn_sweep: N in 1..=10, K in 1..=N and H in 1..=64");
        std::process::exit(2);
    }
    let (n, k, h) = (n as usize, k as usize, h as usize);
    let start = Instant::now();
    let mut canonical = vec![0u64; n + 1];
    let ordered = sweep(n, k, h, &mut |p| {
        if is_canonical(p) {
            canonical[p.len()] += 1;
        }
    });
    let secs = start.elapsed().as_secs_f64();
    let positions: u128 = (0..=n as u32).map(|m| (h as u128).pow(m)).sum();
    println!("SCN({n},{k}), piles in 1..={h}, lengths 0..={n}: {positions} positions in the box");
    println!(
        "P-positions: {} as ordered tuples, {} up to symmetry (plain row-word sweep, {secs:.3} s)",
        ordered.iter().sum::<u64>(),
        canonical.iter().sum::<u64>()
    );
    for m in 0..=n {
        println!(
            "  length {m}: {} ordered, {} up to symmetry",
            ordered[m], canonical[m]
        );
    }
}

/// Is the circle `p` the least (lexicographically) of its rotations and reflections?
pub fn is_canonical(p: &[u64]) -> bool {
    let m = p.len();
    (0..m).all(|s| {
        let turn = (0..m).map(|j| p[(s + j) % m]);
        let back = (0..m).map(|j| p[(s + m - j) % m]);
        turn.cmp(p.iter().copied()).is_ge() && back.cmp(p.iter().copied()).is_ge()
    })
}

/// The windows of a circle of `m` piles: k consecutive piles, or the whole circle when `m <= k`.
fn windows(m: usize, k: usize) -> Vec<Vec<usize>> {
    if m <= k {
        vec![(0..m).collect()]
    } else {
        (0..m)
            .map(|j| (0..k).map(|t| (j + t) % m).collect())
            .collect()
    }
}

/// A move of a circle of `m` piles that empties some piles of a window.
struct Emptying {
    /// The length of the shorter circle.
    len: usize,
    /// The piles of the window kept (and perhaps lowered), as a set of the shorter circle's piles.
    arc: u64,
    /// The kept piles in the shorter circle's order: the circle order, from the lowest index.
    kept: Vec<usize>,
    /// Pile 0 vanishes: the move answers every value of pile 0 at once.
    whole: bool,
}

/// Every move of a circle of `m` piles that empties piles: a window and a non-empty set of its piles.
fn emptying(m: usize, k: usize) -> Vec<Emptying> {
    let mut moves = Vec::new();
    for w in windows(m, k) {
        let wmask: u64 = w.iter().map(|&i| 1u64 << i).sum();
        // Every non-empty subset of the window.
        let mut z = wmask;
        while z != 0 {
            let kept: Vec<usize> = (0..m).filter(|&i| z >> i & 1 == 0).collect();
            let arc = kept
                .iter()
                .enumerate()
                .filter(|&(_, &i)| wmask >> i & 1 == 1)
                .map(|(j, _)| 1u64 << j)
                .sum();
            moves.push(Emptying {
                len: kept.len(),
                arc,
                kept,
                whole: z & 1 == 1,
            });
            z = (z - 1) & wmask;
        }
    }
    // The moves that answer a whole line first.
    moves.sort_by_key(|mv| !mv.whole);
    moves
}

/// What a length keeps for the longer circles: its P-set (one word per line) and the `D_arc` tables.
#[derive(Default)]
struct Shorter {
    count: u64,
    /// (arc, table): `D_arc` of every line, one word per line.
    tables: Vec<(u64, Vec<u64>)>,
}

/// The number of P-positions (ordered tuples) of SCN(n,k) with piles in `1..=h`, per length `0..=n`;
/// `visit` gets each P-position (its pile values, the empty circle included).
pub fn sweep(n: usize, k: usize, h: usize, visit: &mut dyn FnMut(&[u64])) -> Vec<u64> {
    assert!((1..=64).contains(&h) && (1..=n).contains(&k));
    let r = h;
    let full: u64 = if r == 64 { !0 } else { (1u64 << r) - 1 };
    // The arcs each length must keep a table of, for the moves of the longer circles.
    let mut arcs: Vec<Vec<u64>> = vec![Vec::new(); n + 1];
    for m in 1..=n {
        for mv in emptying(m, k) {
            if !arcs[mv.len].contains(&mv.arc) {
                arcs[mv.len].push(mv.arc);
            }
        }
    }
    let mut counts = vec![0u64; n + 1];
    counts[0] = 1;
    visit(&[]);
    let mut shorter: Vec<Shorter> = (0..=n).map(|_| Shorter::default()).collect();
    for m in 1..=n {
        let keep = m < n;
        let (count, p_words) = sweep_length(m, k, r, full, &shorter, keep, visit);
        counts[m] = count;
        shorter[m].count = count;
        if keep && count > 0 {
            shorter[m].tables = arcs[m]
                .iter()
                .map(|&a| (a, d_table(m, r, full, a, &p_words)))
                .collect();
        }
    }
    counts
}

/// `D_arc` of every line of the circles of `m` piles, from their P-set (one word per line).
fn d_table(m: usize, r: usize, full: u64, arc: u64, p_words: &[u64]) -> Vec<u64> {
    let stride: Vec<usize> = (0..m)
        .map(|i| if i == 0 { 0 } else { r.pow(i as u32 - 1) })
        .collect();
    let looks: Vec<usize> = (1..m).filter(|&i| arc >> i & 1 == 1).collect();
    let mut t = vec![0u64; p_words.len()];
    let mut x = vec![0usize; m];
    for line in 0..p_words.len() {
        let mut v = p_words[line];
        for &i in &looks {
            if x[i] > 0 {
                v |= t[line - stride[i]];
            }
        }
        if arc & 1 == 1 && v != 0 {
            v = ((!0u64) << v.trailing_zeros()) & full;
        }
        t[line] = v;
        for xi in x.iter_mut().skip(1) {
            *xi += 1;
            if *xi < r {
                break;
            }
            *xi = 0;
        }
    }
    t
}

/// A move that empties piles, ready for a line: where its word lies in which table.
struct Ready<'a> {
    table: &'a [u64],
    /// (pile, stride) of the shorter circle's piles 1.. (its line index).
    terms: Vec<(usize, usize)>,
    /// The pile that becomes the shorter circle's pile 0 (when pile 0 vanishes).
    bit_pile: usize,
    whole: bool,
    /// The empty circle: the move wins outright.
    empty: bool,
}

/// The P-positions of the circles of `m` piles: their number, and (when `keep`) one word per line.
fn sweep_length(
    m: usize,
    k: usize,
    r: usize,
    full: u64,
    shorter: &[Shorter],
    keep: bool,
    visit: &mut dyn FnMut(&[u64]),
) -> (u64, Vec<u64>) {
    let windows = windows(m, k);
    let stride: Vec<usize> = (0..m)
        .map(|i| if i == 0 { 0 } else { r.pow(i as u32 - 1) })
        .collect();
    let lines = r.pow(m as u32 - 1);
    // The moves that empty piles, except those into a non-empty shorter circle without P-positions.
    let moves: Vec<Ready> = emptying(m, k)
        .into_iter()
        .filter(|mv| mv.len == 0 || shorter[mv.len].count > 0)
        .map(|mv| {
            let table: &[u64] = if mv.len == 0 {
                &[]
            } else {
                let t = &shorter[mv.len].tables;
                &t.iter().find(|(a, _)| *a == mv.arc).expect("arc kept").1
            };
            Ready {
                table,
                terms: (1..mv.len)
                    .map(|j| (mv.kept[j], r.pow(j as u32 - 1)))
                    .collect(),
                bit_pile: mv.kept.first().copied().unwrap_or(0),
                whole: mv.whole,
                empty: mv.len == 0,
            }
        })
        .collect();
    // The ring of D_w, one word per (line, window), long enough for the farthest look-back.
    let ring = stride[m - 1] + 1;
    let nw = windows.len();
    let mut d = vec![0u64; ring * nw];
    let has0: Vec<bool> = windows.iter().map(|w| w.contains(&0)).collect();
    let looks: Vec<Vec<(usize, usize)>> = windows
        .iter()
        .map(|w| {
            w.iter()
                .filter(|&&i| i != 0)
                .map(|&i| (i, stride[i]))
                .collect()
        })
        .collect();
    let mut p_words = Vec::with_capacity(if keep { lines } else { 0 });
    let mut x = vec![0usize; m];
    let mut pos = vec![0u64; m];
    let mut count = 0u64;
    let mut e = vec![0u64; nw];
    let mut slot = 0usize;
    for _ in 0..lines {
        // Moves that keep every pile, as in plain_sweep.rs: E_w = OR of D_w one step back along each
        // of the window's piles other than 0.
        for wi in 0..nw {
            let mut v = 0u64;
            for &(i, s) in &looks[wi] {
                if x[i] > 0 {
                    let back = if slot >= s { slot - s } else { slot + ring - s };
                    v |= d[back * nw + wi];
                }
            }
            e[wi] = v;
        }
        let mut n_mask = 0u64;
        for wi in 0..nw {
            n_mask |= e[wi];
            if has0[wi] && e[wi] != 0 {
                n_mask |= (!0u64).checked_shl(e[wi].trailing_zeros() + 1).unwrap_or(0);
            }
        }
        // Moves that empty piles, while some value of pile 0 is left.
        let mut free = !n_mask & full;
        for mv in &moves {
            if free == 0 {
                break;
            }
            if mv.empty {
                free = 0;
                break;
            }
            let idx: usize = mv.terms.iter().map(|&(i, s)| x[i] * s).sum();
            let word = mv.table[idx];
            if mv.whole {
                if word >> x[mv.bit_pile] & 1 == 1 {
                    free = 0;
                }
            } else {
                free &= !word;
            }
        }
        let p = if free != 0 {
            count += 1;
            let b = free.trailing_zeros() as usize;
            pos[0] = b as u64 + 1;
            for i in 1..m {
                pos[i] = x[i] as u64 + 1;
            }
            visit(&pos);
            1u64 << b
        } else {
            0
        };
        if keep {
            p_words.push(p);
        }
        for wi in 0..nw {
            let v = p | e[wi];
            d[slot * nw + wi] = if has0[wi] && v != 0 {
                ((!0u64) << v.trailing_zeros()) & full
            } else {
                v
            };
        }
        slot = if slot + 1 == ring { 0 } else { slot + 1 };
        for xi in x.iter_mut().skip(1) {
            *xi += 1;
            if *xi < r {
                break;
            }
            *xi = 0;
        }
    }
    (count, p_words)
}
