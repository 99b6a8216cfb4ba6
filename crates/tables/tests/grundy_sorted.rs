//! The Grundy sweep over sorted tuples (games that every permutation of the stacks maps onto
//! themselves: Nim, Moore's Nim_k, CN(3,2)) against a brute force written here from the rules and
//! against the sweep over every block; its checkpoints, its refusal of the other sweep's, and an
//! interrupted run that resumes.
//!
//! The brute force lists every option of every position: each non-empty set of at most k heaps,
//! each way of lowering every heap of the set (Moore's Nim_k changes 1..=k heaps).

use nimlab_tables::checkpoint::{Memory, OnlyOnCancel, Saver};
use nimlab_tables::grundy;
use nimlab_tables::lines::{self, Hooks, Resume, Stop};
use std::sync::atomic::{AtomicBool, Ordering};

/// Every set of `k` of `m` heaps (tuple indices).
fn subsets(m: usize, k: usize) -> Vec<Vec<usize>> {
    (0u32..1 << m)
        .filter(|s| s.count_ones() as usize == k)
        .map(|s| (0..m).filter(|&i| s >> i & 1 == 1).collect())
        .collect()
}

/// Grundy values of Moore's Nim_k on `[0..r)^m` by lexicographic index: every option listed.
fn brute(m: usize, k: usize, r: usize) -> Vec<u16> {
    let total = r.pow(m as u32);
    let mut g = vec![0u16; total];
    let mut seen = vec![usize::MAX; 1 << 16];
    for idx in 0..total {
        let p: Vec<usize> = (0..m)
            .map(|i| idx / r.pow((m - 1 - i) as u32) % r)
            .collect();
        // Every q <= p that differs from p in 1..=k places.
        let mut q = vec![0usize; m];
        loop {
            let changed = (0..m).filter(|&i| q[i] != p[i]).count();
            if (1..=k).contains(&changed) {
                let at = q.iter().fold(0, |a, &x| a * r + x);
                seen[g[at] as usize] = idx;
            }
            let mut i = m;
            while i > 0 {
                i -= 1;
                if q[i] < p[i] {
                    q[i] += 1;
                    break;
                }
                q[i] = 0;
            }
            if q.iter().all(|&x| x == 0) {
                break;
            }
        }
        g[idx] = (0..).find(|&v| seen[v] != idx).unwrap() as u16;
    }
    g
}

fn same(got: &[u16], want: &[u16], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: number of values");
    if let Some(i) = (0..got.len()).find(|&i| got[i] != want[i]) {
        panic!(
            "{what}: value {} at index {i}, expected {}",
            got[i], want[i]
        );
    }
}

/// One test: the symmetry switch is global to the process.
#[test]
fn the_sorted_sweep_equals_the_rules_and_the_block_sweep() {
    let mut checked = 0;
    // (heaps, k, values per heap, a value the largest must reach)
    for (m, k, r, least_top) in [
        (3, 1, 40, 32),
        (3, 2, 36, 64),
        (4, 1, 14, 8),
        (4, 2, 14, 20),
        (4, 3, 12, 20),
        (5, 2, 8, 20),
        (5, 4, 7, 10),
        (6, 3, 5, 10),
    ] {
        let windows = subsets(m, k);
        let name = format!("Moore's Nim_{k}, {m} heaps in [0..{r})");
        assert!(grundy::is_sorted(m, r, &windows), "{name}");
        let want = brute(m, k, r);
        let sorted = grundy::solve(m, r, &windows, Hooks::default()).unwrap();
        same(&sorted, &want, &format!("{name}, sorted"));
        lines::use_symmetry(false);
        assert!(!grundy::is_sorted(m, r, &windows));
        let blocks = grundy::solve(m, r, &windows, Hooks::default()).unwrap();
        lines::use_symmetry(true);
        same(&blocks, &want, &format!("{name}, every block"));
        let top = *want.iter().max().unwrap();
        assert!(top >= least_top, "{name}: values up to {top}");
        checked += want.len();
    }
    assert!(checked > 100_000, "{checked}");
    // The table of the sorted tuples alone, read at each position's sorted entries.
    for (m, k, r) in [(4, 2, 14), (5, 3, 9)] {
        let windows = subsets(m, k);
        let all = grundy::solve(m, r, &windows, Hooks::default()).unwrap();
        let classes = grundy::solve_classes(m, r, &windows, Hooks::default()).unwrap();
        assert_eq!(
            classes.len(),
            grundy::computed_positions(m, r, &windows) as usize
        );
        for (idx, &v) in all.iter().enumerate() {
            let p: Vec<u64> = (0..m)
                .map(|i| (idx / r.pow((m - 1 - i) as u32) % r) as u64)
                .collect();
            let at = grundy::class_index(&p, r).unwrap();
            assert_eq!(classes[at], v, "{p:?}");
        }
        assert_eq!(grundy::class_index(&vec![r as u64; m], r), None);
    }
    // Windows that not every permutation keeps: the block sweep.
    assert!(!grundy::is_sorted(
        5,
        6,
        &[vec![0, 1], vec![1, 2], vec![2, 3], vec![3, 4], vec![4, 0]]
    ));
    assert!(!grundy::is_sorted(2, 6, &subsets(2, 1)));
    checkpoints();
    interrupted();
}

type Run<'a> = dyn Fn(Option<&[u8]>, Option<&mut dyn Saver>) -> Result<Vec<u16>, Stop> + 'a;

fn runner<'a>(m: usize, windows: &'a [Vec<usize>], r: usize) -> Box<Run<'a>> {
    Box::new(move |from, saver| {
        let mut rd = from.unwrap_or_default();
        let from = from.map(|_| &mut rd as &mut dyn std::io::Read);
        grundy::solve_resumable(m, r, windows, Hooks::default(), Resume { saver, from })
    })
}

/// A run resumes from each of its checkpoints (one after each tier, sets widened on the way), and
/// each sweep refuses the other's checkpoint in one line.
fn checkpoints() {
    let (m, k, r) = (3, 2, 30);
    let windows = subsets(m, k);
    let want = brute(m, k, r);
    assert!(*want.iter().max().unwrap() >= 64, "the sets widen");
    let run = runner(m, &windows, r);
    let mut taken = Vec::new();
    for on in [true, false] {
        lines::use_symmetry(on);
        let mut mem = Memory::default();
        same(
            &run(None, Some(&mut mem)).unwrap(),
            &want,
            "a run that saves",
        );
        taken.push(mem.saved);
    }
    lines::use_symmetry(true);
    let sorted = &taken[0];
    assert_eq!(
        sorted.len(),
        3 * (r - 1),
        "one checkpoint a tier but the last"
    );
    for (p, bytes) in sorted {
        assert!(p.stage.contains("sorted positions"), "{}", p.stage);
        same(&run(Some(bytes), None).unwrap(), &want, &p.stage);
    }
    for (on, foreign) in [(true, &taken[1][2].1), (false, &sorted[2].1)] {
        lines::use_symmetry(on);
        match run(Some(foreign), None) {
            Err(Stop::Damaged(why)) => {
                assert!(why.contains("section"), "{why}");
                assert!(!why.contains('\n'), "one line: {why}");
            }
            other => panic!("symmetry {on}: a foreign checkpoint gave {other:?}"),
        }
    }
    lines::use_symmetry(true);
    // Another box's checkpoint.
    let other = runner(m, &windows, r + 1);
    assert!(matches!(
        other(Some(&sorted[5].1), None),
        Err(Stop::Damaged(_))
    ));
}

/// Cancelled half-way, the run saves its last tier and stops; resumed, it finishes the same table.
fn interrupted() {
    let (m, k, r) = (4, 2, 12);
    let windows = subsets(m, k);
    let want = brute(m, k, r);
    let stop = AtomicBool::new(false);
    let progress = |done: u64, total: u64| {
        if done * 2 >= total {
            stop.store(true, Ordering::Relaxed);
        }
    };
    let mut saver = OnlyOnCancel(Memory::default());
    let res = grundy::solve_resumable(
        m,
        r,
        &windows,
        Hooks::new(Some(&stop), Some(&progress)),
        Resume {
            saver: Some(&mut saver),
            from: None,
        },
    );
    assert_eq!(res.unwrap_err(), Stop::Interrupted);
    assert_eq!(saver.0.saved.len(), 1);
    let mut rd: &[u8] = &saver.0.saved[0].1;
    let got = grundy::solve_resumable(
        m,
        r,
        &windows,
        Hooks::default(),
        Resume {
            saver: None,
            from: Some(&mut rd),
        },
    )
    .unwrap();
    same(&got, &want, "resumed after an interruption");
}
