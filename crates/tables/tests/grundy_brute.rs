//! The engine's Grundy values equal a brute force written here from the rules (docs/rules.md, Circular Nim and Shrinking Circular Nim), over
//! boxes of at least 10^5 positions for every CN(n,k) and SCN(n,k) with 3 <= n <= 7 (SCN: n <= 6) and
//! Nim and Moore's Nim_k with 3 to 6 heaps, and over the largest box the engine takes (entries up to 63)
//! for 1 and 2 stacks.
//!
//! The brute force visits every option of every position: for each window of k consecutive places
//! (the whole circle when k >= n) and, in SCN, each set Z of the window's piles that the move empties,
//! every way of lowering the rest of the window. Values are kept in one flat array per circle length.

use nimlab_tables::grundy;
use nimlab_tables::lines::Hooks;
use nimlab_tables::pset::cyclic_windows;

/// Grundy values of every position, by circle length (CN: only length `n`), each in lexicographic
/// order of the entries minus the least entry (0 for CN, 1 for SCN, whose piles are never empty).
fn brute(n: usize, k: usize, h: usize, shrinking: bool) -> Vec<Vec<u16>> {
    let circle = |m: usize| -> Vec<u64> {
        cyclic_windows(m, k)
            .iter()
            .map(|w| w.iter().fold(0u64, |a, &i| a | 1 << i))
            .collect()
    };
    brute_windows(n, &circle, h, shrinking)
}

/// [`brute`] for any windows (bit masks of places, given the number of places).
fn brute_windows(
    n: usize,
    windows_of: &dyn Fn(usize) -> Vec<u64>,
    h: usize,
    shrinking: bool,
) -> Vec<Vec<u16>> {
    let lo = shrinking as usize;
    let r = h + 1 - lo;
    let lengths: Vec<usize> = if shrinking {
        (0..=n).collect()
    } else {
        vec![n]
    };
    let mut tables: Vec<Vec<u16>> = vec![Vec::new(); n + 1];
    let mut seen = vec![0u32; 1 << 16];
    let mut stamp = 0u32;
    for &m in &lengths {
        let size = r.pow(m as u32);
        let mut t = vec![0u16; size];
        let windows = windows_of(m);
        let mut p = vec![0usize; m];
        for idx in 0..size {
            let mut v = idx;
            for i in (0..m).rev() {
                p[i] = v % r;
                v /= r;
            }
            stamp += 1;
            for &w in &windows {
                let mut z = w;
                loop {
                    if shrinking || z == 0 {
                        let kept: Vec<usize> = (0..m).filter(|&i| z >> i & 1 == 0).collect();
                        let mp = kept.len();
                        let target: &[u16] = if mp == m { &t } else { &tables[mp] };
                        let mut base = 0usize;
                        let mut free: Vec<(usize, usize)> = Vec::new();
                        for (j, &i) in kept.iter().enumerate() {
                            let stride = r.pow((mp - 1 - j) as u32);
                            if w >> i & 1 == 1 {
                                free.push((stride, p[i]));
                            } else {
                                base += p[i] * stride;
                            }
                        }
                        // Every choice of the lowered entries: digit j runs over 0..=p (offsets).
                        let mut digit = vec![0usize; free.len()];
                        let mut at = base;
                        loop {
                            if !(z == 0 && at == idx) {
                                seen[target[at] as usize] = stamp;
                            }
                            let mut j = free.len();
                            let mut more = false;
                            while j > 0 {
                                j -= 1;
                                if digit[j] < free[j].1 {
                                    digit[j] += 1;
                                    at += free[j].0;
                                    more = true;
                                    break;
                                }
                                at -= digit[j] * free[j].0;
                                digit[j] = 0;
                            }
                            if !more {
                                break;
                            }
                        }
                    }
                    if z == 0 {
                        break;
                    }
                    z = (z - 1) & w;
                }
            }
            t[idx] = seen.iter().position(|&s| s != stamp).unwrap() as u16;
        }
        tables[m] = t;
    }
    tables
}

/// The smallest top entry whose box holds at least 10^5 positions, capped at 63.
fn box_top(n: usize, shrinking: bool) -> usize {
    let size = |h: usize| -> f64 {
        if shrinking {
            (0..=n).map(|m| (h as f64).powi(m as i32)).sum()
        } else {
            ((h + 1) as f64).powi(n as i32)
        }
    };
    let mut h = 1;
    while h < 63 && size(h) < 1e5 {
        h += 1;
    }
    h
}

fn check_cn(n: usize) {
    let h = box_top(n, false);
    for k in 1..=n {
        let got = grundy::solve(n, h + 1, &cyclic_windows(n, k), Hooks::default()).unwrap();
        let want = brute(n, k, h, false);
        assert_eq!(got, want[n], "CN({n},{k}) on [0..{h}]^{n}");
        eprintln!("CN({n},{k}) [0..{h}]^{n}: {} positions agree", got.len());
    }
}

fn check_scn(n: usize) {
    let h = box_top(n, true);
    for k in 1..=n {
        let got = grundy::solve_shrinking(n, k, h, Hooks::default()).unwrap();
        let want: Vec<u16> = brute(n, k, h, true).concat();
        assert_eq!(got, want, "SCN({n},{k}) with piles 1..={h}");
        eprintln!("SCN({n},{k}) piles <= {h}: {} positions agree", got.len());
    }
}

#[test]
fn circular_nim_1_to_4_stacks() {
    for n in 1..=4 {
        check_cn(n);
    }
}

#[test]
fn circular_nim_5_stacks() {
    check_cn(5);
}

#[test]
fn circular_nim_6_stacks() {
    check_cn(6);
}

#[test]
fn circular_nim_7_stacks() {
    check_cn(7);
}

#[test]
fn shrinking_circular_nim_1_to_4_stacks() {
    for n in 1..=4 {
        check_scn(n);
    }
}

#[test]
fn shrinking_circular_nim_5_stacks() {
    check_scn(5);
}

#[test]
fn shrinking_circular_nim_6_stacks() {
    check_scn(6);
}

/// Nim (one heap per move) and Moore's Nim_k (at most k heaps per move), 3 to 6 heaps.
#[test]
fn nim_and_moore() {
    for heaps in 3..=6usize {
        let h = box_top(heaps, false);
        for k in 1..=heaps {
            let sets = |m: usize| -> Vec<u64> {
                (0u64..1 << m)
                    .filter(|s| s.count_ones() as usize == k.min(m))
                    .collect()
            };
            let windows: Vec<Vec<usize>> = sets(heaps)
                .iter()
                .map(|&s| (0..heaps).filter(|&i| s >> i & 1 == 1).collect())
                .collect();
            let got = grundy::solve(heaps, h + 1, &windows, Hooks::default()).unwrap();
            let want = brute_windows(heaps, &sets, h, false);
            assert_eq!(
                got, want[heaps],
                "Moore's Nim_{k}, {heaps} heaps in 0..={h}"
            );
            if k == 1 {
                // Nim: Bouton's theorem, by hand.
                for (idx, &g) in got.iter().enumerate() {
                    let (mut v, mut x) = (idx, 0usize);
                    for _ in 0..heaps {
                        x ^= v % (h + 1);
                        v /= h + 1;
                    }
                    assert_eq!(g as usize, x);
                }
            }
        }
    }
}

/// Hand-checked values: SCN(2,1) piles (a,b) is Nim on two heaps where emptying a heap ends it, so
/// g(a) = a on one pile and g(a,b) = a XOR b; SCN(1,1): g(a) = a; SCN(3,3) with one pile of 1 next to
/// anything: taking all piles wins, so no position of length 3 is P with all piles in one window.
#[test]
fn hand_checked_values() {
    let v = grundy::solve_shrinking(2, 1, 5, Hooks::default()).unwrap();
    // Length 0: 1 entry; length 1: 5 entries (piles 1..=5); length 2: 25.
    assert_eq!(v[0], 0);
    for a in 1..=5usize {
        assert_eq!(v[a] as usize, a, "one pile of {a}");
        for b in 1..=5usize {
            assert_eq!(
                v[6 + (a - 1) * 5 + (b - 1)] as usize,
                a ^ b,
                "piles {a},{b}"
            );
        }
    }
    let v = grundy::solve_shrinking(3, 3, 4, Hooks::default()).unwrap();
    assert!(v[1 + 4 + 16..].iter().all(|&g| g != 0));
}

/// Entries past 63 (lines of the engine longer than one word): Bouton's XOR rule by hand for Nim
/// (CN(n,1)) and SCN(2,1), the brute force for CN(2,2), CN(3,2) and SCN(3,2).
#[test]
fn entries_past_63() {
    for (n, h) in [(1usize, 1000usize), (2, 300), (3, 100)] {
        let got = grundy::solve(n, h + 1, &cyclic_windows(n, 1), Hooks::default()).unwrap();
        for (idx, &g) in got.iter().enumerate() {
            let (mut v, mut x) = (idx, 0usize);
            for _ in 0..n {
                x ^= v % (h + 1);
                v /= h + 1;
            }
            assert_eq!(g as usize, x, "Nim on {n} heaps in 0..={h}, position {idx}");
        }
    }
    let v = grundy::solve_shrinking(2, 1, 200, Hooks::default()).unwrap();
    for a in 1..=200usize {
        assert_eq!(v[a] as usize, a, "SCN(2,1): one pile of {a}");
        for b in 1..=200usize {
            assert_eq!(
                v[201 + (a - 1) * 200 + (b - 1)] as usize,
                a ^ b,
                "SCN(2,1): {a},{b}"
            );
        }
    }
    for (n, k, h) in [(2usize, 2usize, 150usize), (3, 2, 65)] {
        let got = grundy::solve(n, h + 1, &cyclic_windows(n, k), Hooks::default()).unwrap();
        assert_eq!(got, brute(n, k, h, false)[n], "CN({n},{k}) on [0..{h}]^{n}");
    }
    let got = grundy::solve_shrinking(3, 2, 65, Hooks::default()).unwrap();
    assert_eq!(
        got,
        brute(3, 2, 65, true).concat(),
        "SCN(3,2) with piles 1..=65"
    );
}
