//! The baseline of the engine's benchmark (scripts/bench-engine.sh): a plain, single-thread
//! row-word sweep of CN(n,k) on the box `[0..h]^n`, written from the rules and nothing else.
//!
//! A move of CN(n,k) picks k consecutive stacks on the circle (a window) and lowers any of them,
//! at least one token in all. A line is the `h + 1` positions that differ only in stack 0, one bit
//! each in a machine word. For a window `w` and a position `p`, `D_w(p)` says "some P-position
//! `q <= p` agrees with `p` outside `w`"; then `p` is N exactly when `D_w(p - e_i)` for some window
//! `w` and some `i` in `w` with `p_i > 0`, and `D_w(p) = P(p) or OR_{i in w} D_w(p - e_i)`. Lines
//! are visited in lexicographic order of stacks `1..n`, and `D_w` of every line is kept in a ring
//! as long as a later line reads it (one step back along the last stack: `(h + 1)^(n-2)` lines).
//!
//! `cargo run --release -p nimlab-tables --example plain_sweep -- N K H` prints the number of
//! P-positions (ordered tuples) of CN(N,K) on `[0..H]^N` (H at most 63).

use std::time::Instant;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().unwrap_or(u64::MAX))
        .collect();
    let [n, k, h] = args[..] else {
        eprintln!("usage: plain_sweep N K H (CN(N,K) on the box [0..H]^N)");
        std::process::exit(2);
    };
    if !(2..=12).contains(&n) || !(1..=n).contains(&k) || h > 63 {
        eprintln!("plain_sweep: N in 2..=12, K in 1..=N and H at most 63");
        std::process::exit(2);
    }
    let (n, k) = (n as usize, k as usize);
    let start = Instant::now();
    let count = sweep(n, k, h as usize + 1);
    println!(
        "CN({n},{k}) [0..{h}]^{n}: {count} P-positions (plain row-word sweep, {:.3} s)",
        start.elapsed().as_secs_f64()
    );
}

/// The number of P-positions of CN(n,k) on `[0, r)^n`.
fn sweep(n: usize, k: usize, r: usize) -> u64 {
    let full: u64 = if r == 64 { !0 } else { (1u64 << r) - 1 };
    // The windows: stacks j, j+1, ..., j+k-1 around the circle.
    let windows: Vec<Vec<usize>> = (0..n)
        .map(|j| (0..k).map(|t| (j + t) % n).collect())
        .collect();
    // Lines: stacks 1..n, stack 1 fastest; the stride of stack i (i >= 1) in lines.
    let stride: Vec<usize> = (0..n)
        .map(|i| if i == 0 { 0 } else { r.pow(i as u32 - 1) })
        .collect();
    let lines = r.pow(n as u32 - 1);
    // The ring of D_w, one word per (line, window), long enough for the farthest look-back.
    let ring = stride[n - 1] + 1;
    let nw = windows.len();
    let mut d = vec![0u64; ring * nw];
    // Per window: whether it holds stack 0, and its look-backs (stack, stride in lines).
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
    let mut x = vec![0usize; n];
    let mut count = 0u64;
    let mut e = vec![0u64; nw];
    let mut slot = 0usize;
    for _ in 0..lines {
        // Per window: E_w = OR of D_w one step back along each of its stacks other than 0.
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
        // N-positions of the line: a move that keeps stack 0 reaches D_w of a line below; a move
        // that lowers stack 0 (in a window with stack 0) reaches a q strictly below on stack 0.
        let mut n_mask = 0u64;
        for wi in 0..nw {
            n_mask |= e[wi];
            if has0[wi] && e[wi] != 0 {
                // Every bit strictly above the lowest set bit of E_w.
                n_mask |= (!0u64).checked_shl(e[wi].trailing_zeros() + 1).unwrap_or(0);
            }
        }
        // The P-position: the lowest bit no move reaches (every bit above it is N, by a move along
        // stack 0 alone, whenever some window holds stack 0).
        let free = !n_mask & full;
        let p = if free != 0 {
            count += 1;
            1u64 << free.trailing_zeros()
        } else {
            0
        };
        for wi in 0..nw {
            let v = p | e[wi];
            d[slot * nw + wi] = if has0[wi] && v != 0 {
                // Upward closed along stack 0: every bit from the lowest set one on.
                ((!0u64) << v.trailing_zeros()) & full
            } else {
                v
            };
        }
        // Next line: stack 1 fastest.
        slot = if slot + 1 == ring { 0 } else { slot + 1 };
        for xi in x.iter_mut().skip(1) {
            *xi += 1;
            if *xi < r {
                break;
            }
            *xi = 0;
        }
    }
    count
}
