//! The Grundy sweep that computes one block of each mirror pair (a reflection of the circle, or a
//! swap of two heaps) against the sweep that computes every block, and both against a brute force
//! written here from the rules: every value of boxes of CN(n,k) for 3 <= n <= 7 and every k, Nim on
//! 2 to 4 heaps, Moore's Nim, complexes (one the symmetry fits, one it does not), boxes whose values
//! need several words (up to 16), and SCN (the moves that empty piles must be invariant too). Each
//! sweep resumes from its own checkpoints and refuses the other's in one line.
//!
//! The brute force visits every option of every position: for each window, every way of lowering
//! its entries (SCN: and of emptying some of its piles, the rest of the circle closing up).

use nimlab_tables::checkpoint::Memory;
use nimlab_tables::grundy;
use nimlab_tables::lines::{self, Hooks, Resume, Stop};

/// Windows of k consecutive places of a circle of m (one window when `k >= m`), tuple indices.
fn circle(m: usize, k: usize) -> Vec<Vec<usize>> {
    if k >= m {
        return vec![(0..m).collect()];
    }
    (0..m)
        .map(|i| (0..k).map(|j| (i + j) % m).collect())
        .collect()
}

/// Every set of `k` of `m` heaps (Moore's Nim_k).
fn subsets(m: usize, k: usize) -> Vec<Vec<usize>> {
    (0u32..1 << m)
        .filter(|s| s.count_ones() as usize == k)
        .map(|s| (0..m).filter(|&i| s >> i & 1 == 1).collect())
        .collect()
}

fn mex(seen: &[u32], stamp: u32) -> u16 {
    seen.iter().position(|&s| s != stamp).unwrap() as u16
}

/// Grundy values of the window game on `[0..r)^m`, by lexicographic index.
fn brute(m: usize, r: usize, windows: &[Vec<usize>]) -> Vec<u16> {
    let total = r.pow(m as u32);
    let stride: Vec<usize> = (0..m).map(|i| r.pow((m - 1 - i) as u32)).collect();
    let mut g = vec![0u16; total];
    let mut seen = vec![0u32; 1 << 16];
    let mut p = vec![0usize; m];
    for idx in 0..total {
        let mut v = idx;
        for i in (0..m).rev() {
            p[i] = v % r;
            v /= r;
        }
        let stamp = idx as u32 + 1;
        for w in windows {
            // Every q <= p on the window, q = p off it: an odometer over how much each entry of
            // the window is lowered, `at` the index of q.
            let mut q: Vec<usize> = vec![0; w.len()];
            let mut at = idx;
            loop {
                if at != idx {
                    seen[g[at] as usize] = stamp;
                }
                let mut j = 0;
                while j < w.len() {
                    if q[j] < p[w[j]] {
                        q[j] += 1;
                        at -= stride[w[j]];
                        break;
                    }
                    at += q[j] * stride[w[j]];
                    q[j] = 0;
                    j += 1;
                }
                if j == w.len() {
                    break;
                }
            }
        }
        g[idx] = mex(&seen, stamp);
    }
    g
}

/// Grundy values of SCN(n,k) with piles `1..=h`, as `grundy::solve_shrinking` lists them: the empty
/// circle, then each length's positions in lexicographic order of the piles minus 1.
fn brute_shrinking(n: usize, k: usize, h: usize) -> Vec<u16> {
    let mut tables: Vec<Vec<u16>> = vec![vec![0]];
    let mut seen = vec![0u32; 1 << 16];
    let mut stamp = 0u32;
    for m in 1..=n {
        let total = h.pow(m as u32);
        let mut t = vec![0u16; total];
        let mut p = vec![0usize; m];
        for idx in 0..total {
            let mut v = idx;
            for i in (0..m).rev() {
                p[i] = v % h + 1;
                v /= h;
            }
            stamp += 1;
            for w in circle(m, k) {
                // Each pile of the window: emptied (0), or lowered to 1..=p (p itself: unchanged).
                let mut q: Vec<usize> = w.iter().map(|&i| p[i]).collect();
                loop {
                    let mut piles = p.clone();
                    for (&i, &x) in w.iter().zip(&q) {
                        piles[i] = x;
                    }
                    if piles != p {
                        let kept: Vec<usize> = piles.into_iter().filter(|&x| x > 0).collect();
                        let at = kept.iter().fold(0, |a, &x| a * h + x - 1);
                        let value = if kept.len() == m {
                            t[at]
                        } else {
                            tables[kept.len()][at]
                        };
                        seen[value as usize] = stamp;
                    }
                    let mut j = 0;
                    while j < w.len() {
                        if q[j] > 0 {
                            q[j] -= 1;
                            break;
                        }
                        q[j] = p[w[j]];
                        j += 1;
                    }
                    if j == w.len() {
                        break;
                    }
                }
            }
            t[idx] = mex(&seen, stamp);
        }
        tables.push(t);
    }
    tables.concat()
}

/// Fails at the first position where `got` and `want` differ.
fn same(got: &[u16], want: &[u16], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: number of values");
    if let Some(i) = (0..got.len()).find(|&i| got[i] != want[i]) {
        panic!(
            "{what}: value {} at index {i}, expected {}",
            got[i], want[i]
        );
    }
}

/// The engine with the symmetry on and off.
fn both(run: &dyn Fn() -> Vec<u16>) -> (Vec<u16>, Vec<u16>) {
    lines::use_symmetry(true);
    let on = run();
    lines::use_symmetry(false);
    let off = run();
    lines::use_symmetry(true);
    (on, off)
}

/// A box of a window game: name, stacks, values per stack, windows, whether the symmetry fits, and
/// a value the largest must reach.
type Case = (String, usize, usize, Vec<Vec<usize>>, bool, u16);

/// One test: the switch is global to the process.
#[test]
fn the_mirrored_grundy_sweep_equals_the_full_sweep_and_the_rules() {
    let mut games: Vec<Case> = Vec::new();
    for (n, r) in [(3, 14), (4, 8), (5, 6), (6, 5), (7, 4)] {
        for k in 1..=n {
            games.push((format!("CN({n},{k})"), n, r, circle(n, k), true, 0));
        }
    }
    games.push(("nim 3 heaps".into(), 3, 20, subsets(3, 1), true, 0));
    games.push(("nim 4 heaps".into(), 4, 10, subsets(4, 1), true, 0));
    games.push(("moore(2) 3 heaps".into(), 3, 12, subsets(3, 2), true, 0));
    games.push(("moore(2) 4 heaps".into(), 4, 8, subsets(4, 2), true, 0));
    games.push(("moore(3) 4 heaps".into(), 4, 8, subsets(4, 3), true, 0));
    // A complex the swap of stacks 0 and 1 maps onto itself, and one no candidate does.
    let fits = vec![vec![0, 2], vec![1, 2], vec![2, 3, 4]];
    games.push(("complex {02,12,234}".into(), 5, 6, fits, true, 0));
    let misfits = vec![vec![0, 2], vec![1, 3], vec![2, 3, 4]];
    games.push(("complex {02,13,234}".into(), 5, 6, misfits, false, 0));
    // Values past one word: two words, four, sixteen (widened one word at a time to 8, then 16).
    games.push(("nim 3 heaps wide".into(), 3, 70, subsets(3, 1), true, 64));
    games.push(("CN(3,2) wide".into(), 3, 40, circle(3, 2), true, 64));
    games.push(("CN(4,2) wide".into(), 4, 20, circle(4, 2), true, 64));
    games.push((
        "nim 2 heaps, 16 words".into(),
        2,
        520,
        subsets(2, 1),
        true,
        512,
    ));
    let mut checked = 0;
    for (name, m, r, windows, fits, least_top) in &games {
        assert_eq!(
            grundy::is_mirrored(*m, windows),
            *fits,
            "{name}: the symmetry fits"
        );
        let want = brute(*m, *r, windows);
        let (on, off) = both(&|| grundy::solve(*m, *r, windows, Hooks::default()).unwrap());
        same(&off, &want, &format!("{name} [0..{r})^{m}, every block"));
        same(&on, &want, &format!("{name} [0..{r})^{m}, mirrored"));
        let top = *want.iter().max().unwrap();
        assert!(top >= *least_top, "{name}: values up to {top}");
        checked += want.len();
    }
    // SCN: one word, and two (values up to 127).
    for (n, k, h, least_top) in [(5, 2, 6, 0), (6, 3, 4, 0), (4, 4, 6, 0), (2, 1, 100, 64)] {
        let want = brute_shrinking(n, k, h);
        let (on, off) = both(&|| grundy::solve_shrinking(n, k, h, Hooks::default()).unwrap());
        same(
            &off,
            &want,
            &format!("SCN({n},{k}) piles <= {h}, every block"),
        );
        same(&on, &want, &format!("SCN({n},{k}) piles <= {h}, mirrored"));
        assert!(*want.iter().max().unwrap() >= least_top);
        checked += want.len();
    }
    eprintln!(
        "{} boxes and 4 SCN tables, {checked} values, equal in both sweeps and to the rules",
        games.len()
    );
    checkpoints();
}

/// Each sweep resumes from each of its checkpoints, and refuses in one line those of the other and
/// one whose axes field is the bare number of axes (as before the sets were kept window by window).
fn checkpoints() {
    let (m, r, windows) = (5, 7, circle(5, 2));
    let want = brute(m, r, &windows);
    let run = |from: Option<&[u8]>, saver: Option<&mut Memory>| {
        let mut rd = from.unwrap_or_default();
        let from = from.map(|_| &mut rd as &mut dyn std::io::Read);
        let saver = saver.map(|s| s as &mut dyn nimlab_tables::checkpoint::Saver);
        grundy::solve_resumable(m, r, &windows, Hooks::default(), Resume { saver, from })
    };
    let mut taken = Vec::new();
    for on in [true, false] {
        lines::use_symmetry(on);
        let mut mem = Memory::default();
        same(
            &run(None, Some(&mut mem)).unwrap(),
            &want,
            "a run that saves",
        );
        assert!(mem.saved.len() >= 5, "a checkpoint after each diagonal");
        taken.push(mem.saved.into_iter().map(|(_, b)| b).collect::<Vec<_>>());
    }
    for (i, on) in [true, false].into_iter().enumerate() {
        lines::use_symmetry(on);
        for ck in &taken[i] {
            same(&run(Some(ck), None).unwrap(), &want, "resumed");
        }
        let mut old = taken[i][2].clone();
        old[16..24].copy_from_slice(&(m as u64).to_le_bytes());
        for foreign in [&taken[1 - i][2], &old] {
            match run(Some(foreign), None) {
                Err(Stop::Damaged(why)) => {
                    assert!(why.contains("axes and symmetry"), "{why}");
                    assert!(!why.contains('\n'), "one line: {why}");
                }
                other => panic!("symmetry {on}: a foreign checkpoint gave {other:?}"),
            }
        }
    }
    lines::use_symmetry(true);
}
