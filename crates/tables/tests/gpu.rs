//! The GPU back end equals the CPU engines: P-sets (`pset::tabulate`: counts, counts by length and the
//! listed canonical P-positions) of every CN(n,k) with n <= 7, SCN(n,k) with n <= 6, Nim and Moore's Nim
//! up to 6 heaps, a set of simplicial complexes and ECN games, in both conventions, on boxes of at least
//! 10^5 positions (or the largest box the engine takes, for 1 and 2 stacks); Grundy values
//! (`grundy::solve`) of every CN(n,k) with n <= 6, Nim, Moore's Nim and complexes on such boxes, and a
//! brute force written here on small ones; Grundy values of every SCN(n,k) with n <= 6
//! (`grundy::solve_shrinking`) on boxes of at least 10^5 positions at the longest length; boxes forced
//! through many slabs give the same P-lines as the tier schedule on the CPU, and the same SCN tables
//! and Grundy values, of window games and SCN (values of 64 and more included).
//!
//! Without a GPU adapter these tests print SKIPPED and pass, unless `NIMLAB_REQUIRE_GPU=1` (CI, with
//! Mesa's lavapipe installed), where they fail.
#![cfg(feature = "gpu")]

use nimlab_core::{Game, Play};
use nimlab_games::complex::Complex;
use nimlab_games::shrinking::ShrinkingCircularNim;
use nimlab_games::{CircularNim, MooreNim, Nim};
use nimlab_tables::gpu::{self, schedule, Device, GpuError, Options};
use nimlab_tables::lines::{Hooks, LineSpec, Resume};
use nimlab_tables::pset::{self, cyclic_windows, engine_windows};
use nimlab_tables::{grundy, tiers};
use std::sync::atomic::{AtomicBool, Ordering};

mod gpu_common;
use gpu_common::{cpu, device, on_gpu, Answer};

/// The smallest box of at least 10^5 positions (or the largest the engine takes), both conventions.
fn check(dev: &Device, game: &dyn Game, heaps: Option<usize>) {
    check_with(dev, game, heaps, &Options::default());
}

/// [`check`] with the GPU's options `opts`.
fn check_with(dev: &Device, game: &dyn Game, heaps: Option<usize>, opts: &Options) {
    let mut hi = 1;
    while hi < 63 && game.table_domain(hi, heaps).unwrap().size_f64() < 1e5 {
        hi += 1;
    }
    let d = game.table_domain(hi, heaps).unwrap();
    for play in [Play::Normal, Play::Misere] {
        let want = cpu(game, &d, play);
        let got = on_gpu(dev, game, &d, play, opts);
        let what = format!("{} {play} max {hi} {opts:?}", game.id());
        assert!(
            want.0.count > 0,
            "{what}: the CPU engine found no P-position"
        );
        assert_eq!(got.0, want.0, "{what}: counts");
        assert_eq!(got.1, want.1, "{what}: canonical positions");
    }
}

#[test]
fn circular_nim_every_k_equals_the_cpu_engine() {
    let Some(dev) = device("circular_nim_every_k_equals_the_cpu_engine") else {
        return;
    };
    for n in 1..=7usize {
        for k in 1..=n {
            check(dev, &CircularNim::new(n, k).unwrap(), None);
        }
    }
}

#[test]
fn nim_and_moore_equal_the_cpu_engine() {
    let Some(dev) = device("nim_and_moore_equal_the_cpu_engine") else {
        return;
    };
    for heaps in 1..=6usize {
        check(dev, &Nim, Some(heaps));
        for k in 1..=heaps {
            check(dev, &MooreNim::new(k).unwrap(), Some(heaps));
        }
    }
}

/// Nim on simplicial complexes (faces of any shape, including stacks in no facet but a singleton and
/// facets of different sizes) and ECN games.
#[test]
fn complexes_and_ecn_equal_the_cpu_engine() {
    let Some(dev) = device("complexes_and_ecn_equal_the_cpu_engine") else {
        return;
    };
    let complexes: [&[&[usize]]; 6] = [
        &[&[1, 2], &[2, 3]],
        &[&[1, 2, 3], &[3, 4], &[4, 5], &[5, 1]],
        &[&[1, 2], &[3, 4], &[5]],
        &[&[1, 3, 5], &[2, 4, 6], &[1, 2]],
        &[&[1, 2, 3, 4], &[4, 5, 6, 7], &[7, 1]],
        &[
            &[1, 2],
            &[2, 3],
            &[3, 4],
            &[4, 5],
            &[5, 6],
            &[6, 7],
            &[7, 8],
            &[8, 1],
            &[1, 5],
        ],
    ];
    for facets in complexes {
        let facets: Vec<Vec<usize>> = facets.iter().map(|f| f.to_vec()).collect();
        check(dev, &Complex::simplicial(&facets).unwrap(), None);
    }
    for (m, steps, k) in [
        (6, &[1, 2][..], 2),
        (7, &[1, 3][..], 3),
        (8, &[2][..], 2),
        (8, &[1, 4][..], 2),
    ] {
        check(dev, &Complex::ecn(m, steps, k).unwrap(), None);
    }
}

/// Read through the mirror (`Options::mirror`: the circle's reflection, a swap of two heaps, a
/// complex's involution; one line of each mirror pair runs): the same P-sets as the CPU engine, for
/// every family, both conventions; and through many slabs (where every line runs).
#[test]
fn the_mirror_gives_the_same_p_sets() {
    let Some(dev) = device("the_mirror_gives_the_same_p_sets") else {
        return;
    };
    let mirror = Options {
        mirror: true,
        ..Default::default()
    };
    for (n, k) in [(3, 2), (4, 2), (5, 2), (6, 3), (7, 4), (7, 2)] {
        check_with(dev, &CircularNim::new(n, k).unwrap(), None, &mirror);
    }
    for heaps in [3usize, 5] {
        check_with(dev, &Nim, Some(heaps), &mirror);
        check_with(dev, &MooreNim::new(2).unwrap(), Some(heaps), &mirror);
    }
    let facets = vec![vec![1, 2], vec![2, 3], vec![3, 4], vec![4, 1], vec![1, 3]];
    check_with(dev, &Complex::simplicial(&facets).unwrap(), None, &mirror);
    check_with(dev, &Complex::ecn(7, &[1, 3], 3).unwrap(), None, &mirror);
    for (n, k) in [(5, 2), (6, 4)] {
        check_with(
            dev,
            &ShrinkingCircularNim::new(n, k).unwrap(),
            None,
            &mirror,
        );
    }
    let slabs = Options {
        slab_bytes: Some(4096),
        ..mirror
    };
    check_with(dev, &CircularNim::new(6, 3).unwrap(), None, &slabs);
}

/// SCN(n,k) for every n <= 6: each circle length on the GPU, the moves that empty piles from the
/// shorter lengths' tables.
#[test]
fn shrinking_circular_nim_equals_the_cpu_engine() {
    let Some(dev) = device("shrinking_circular_nim_equals_the_cpu_engine") else {
        return;
    };
    for n in 1..=6usize {
        for k in 1..=n {
            check(dev, &ShrinkingCircularNim::new(n, k).unwrap(), None);
        }
    }
}

/// SCN through many slabs: the per-line masks of the moves that empty piles follow each slab.
#[test]
fn shrinking_circular_nim_through_many_slabs() {
    let Some(dev) = device("shrinking_circular_nim_through_many_slabs") else {
        return;
    };
    for (n, k, hi) in [(5, 2, 9), (4, 4, 12)] {
        let game = ShrinkingCircularNim::new(n, k).unwrap();
        let d = game.table_domain(hi, None).unwrap();
        for play in [Play::Normal, Play::Misere] {
            let want = cpu(&game, &d, play);
            let mut got = Vec::new();
            let opts = Options {
                slab_bytes: Some(2000),
                ..Default::default()
            };
            let before = dev.traffic();
            let s = gpu::tabulate(dev, &game, &d, play, &opts, Hooks::default(), &mut |p| {
                got.push(p.to_vec())
            })
            .unwrap();
            let t = dev.traffic() - before;
            assert_eq!((s, got), want, "{} {play} max {hi}", game.id());
            // The moves that empty piles are answered on the device from the shorter circles'
            // tables: what goes up (those tables, each slab's parameters) is less than the 8-byte
            // mask per line of the longest circle alone that the host would otherwise upload.
            let lines = d.radix().pow(n as u32 - 1);
            assert!(t.uploaded_bytes < 8 * lines, "{t:?}, {lines} lines");
        }
    }
}

/// The Grundy value of every position of the window game on `[0, hi]^m`, by brute force: positions
/// in lexicographic order (every option is lexicographically smaller), each option listed (lower any
/// entries of one window, at least one), the mex of their values.
fn brute_grundy(m: usize, hi: usize, windows: &[Vec<usize>]) -> Vec<u16> {
    let r = hi + 1;
    let size = r.pow(m as u32);
    let index = |p: &[usize]| p.iter().fold(0, |acc, &v| acc * r + v);
    let mut g = vec![0u16; size];
    for i in 0..size {
        let mut p = vec![0usize; m];
        let mut v = i;
        for e in p.iter_mut().rev() {
            *e = v % r;
            v /= r;
        }
        let mut seen = vec![false; 64 * m + 64];
        for w in windows {
            // Every choice of values q_j <= p_j on the window, not all equal to p.
            let mut q = p.clone();
            loop {
                if q != p {
                    let val = g[index(&q)] as usize;
                    if val < seen.len() {
                        seen[val] = true;
                    }
                }
                // Next choice: count down on the window's entries.
                let mut carried = true;
                for &j in w {
                    if q[j] > 0 {
                        q[j] -= 1;
                        carried = false;
                        break;
                    }
                    q[j] = p[j];
                }
                if carried {
                    break;
                }
            }
        }
        g[i] = seen.iter().position(|&s| !s).unwrap() as u16;
    }
    g
}

fn gpu_grundy(dev: &Device, game: &dyn Game, hi: u64, opts: &Options) -> Vec<u16> {
    gpu_grundy_heaps(dev, game, hi, None, opts)
}

fn gpu_grundy_heaps(
    dev: &Device,
    game: &dyn Game,
    hi: u64,
    heaps: Option<usize>,
    opts: &Options,
) -> Vec<u16> {
    let d = game.table_domain(hi, heaps).unwrap();
    gpu::grundy(dev, game, &d, opts, Hooks::default()).unwrap()
}

/// Small boxes against the brute force above, written independently of the engines.
#[test]
fn grundy_values_equal_a_brute_force() {
    let Some(dev) = device("grundy_values_equal_a_brute_force") else {
        return;
    };
    for (n, k, hi) in [(1, 1, 9), (3, 2, 5), (4, 2, 4), (4, 3, 3), (5, 5, 2)] {
        let game = CircularNim::new(n, k).unwrap();
        let want = brute_grundy(n, hi, &cyclic_windows(n, k));
        assert_eq!(
            gpu_grundy(dev, &game, hi as u64, &Options::default()),
            want,
            "CN({n},{k}) max {hi}"
        );
    }
    let facets = vec![vec![1, 2, 3], vec![3, 4], vec![4, 1]];
    let game = Complex::simplicial(&facets).unwrap();
    let windows: Vec<Vec<usize>> = facets
        .iter()
        .map(|f| f.iter().map(|&v| v - 1).collect())
        .collect();
    assert_eq!(
        gpu_grundy(dev, &game, 4, &Options::default()),
        brute_grundy(4, 4, &windows)
    );
}

/// Boxes of at least 10^5 positions against the CPU Grundy engine (`grundy::solve`): every CN(n,k)
/// with n <= 6, Nim and Moore's Nim with 4 heaps, complexes and ECN games.
#[test]
fn grundy_values_equal_the_cpu_engine() {
    let Some(dev) = device("grundy_values_equal_the_cpu_engine") else {
        return;
    };
    let mut games: Vec<(Box<dyn Game>, Option<usize>)> = Vec::new();
    for n in 1..=6usize {
        for k in 1..=n {
            games.push((Box::new(CircularNim::new(n, k).unwrap()), None));
        }
    }
    games.push((Box::new(Nim), Some(4)));
    for k in 1..=4 {
        games.push((Box::new(MooreNim::new(k).unwrap()), Some(4)));
    }
    for facets in [
        vec![vec![1, 2, 3], vec![3, 4], vec![4, 5], vec![5, 1]],
        vec![vec![1, 2], vec![3, 4], vec![5]],
    ] {
        games.push((Box::new(Complex::simplicial(&facets).unwrap()), None));
    }
    games.push((Box::new(Complex::ecn(6, &[1, 2], 2).unwrap()), None));
    for (game, heaps) in &games {
        let mut hi = 1;
        while hi < 63 && game.table_domain(hi, *heaps).unwrap().size_f64() < 1e5 {
            hi += 1;
        }
        let d = game.table_domain(hi, *heaps).unwrap();
        let Some(pset::Rules::Windows { m, windows }) = pset::rules_for(game.as_ref(), &d) else {
            panic!("{}: a window game", game.id());
        };
        let want = grundy::solve(m, d.radix() as usize, &windows, Hooks::default()).unwrap();
        let got = gpu_grundy_heaps(dev, game.as_ref(), hi, *heaps, &Options::default());
        assert!(want.iter().any(|&v| v > 1), "{}: values", game.id());
        assert_eq!(got, want, "{} max {hi}", game.id());
    }
}

/// Values of 64 and more (sets of several words: the GPU widens the sets and goes on from the tier
/// that overflowed), with whole tiers on the device and with boxes forced through many slabs.
#[test]
fn grundy_values_through_many_slabs_and_words() {
    let Some(dev) = device("grundy_values_through_many_slabs_and_words") else {
        return;
    };
    // (game, max, slab bytes, the largest value lies in this range).
    for (game, hi, slab, top) in [
        // Values past 63: the sets widen from one word to two.
        (
            Complex::simplicial(&[vec![1, 2, 3]]).unwrap(),
            40u64,
            3000u64,
            64..128,
        ),
        (Complex::ecn(5, &[1, 2], 2).unwrap(), 6, 700, 2..64),
        // Values past 127: the sets widen twice, from one word to four.
        (
            Complex::simplicial(&[vec![1, 2, 3], vec![3, 4]]).unwrap(),
            33,
            400_000,
            128..256,
        ),
    ] {
        let d = game.table_domain(hi, None).unwrap();
        let Some(pset::Rules::Windows { m, windows }) = pset::rules_for(&game, &d) else {
            panic!("{}: a window game", game.id());
        };
        let want = grundy::solve(m, d.radix() as usize, &windows, Hooks::default()).unwrap();
        let most = *want.iter().max().unwrap();
        assert!(top.contains(&most), "{}: largest value {most}", game.id());
        // Through slabs (the host keeps the sets), and whole tiers kept on the device (the sets of
        // the tier below are read back from it when a value does not fit).
        for slab_bytes in [Some(slab), None] {
            let got = gpu_grundy(
                dev,
                &game,
                hi,
                &Options {
                    slab_bytes,
                    ..Default::default()
                },
            );
            assert_eq!(got, want, "{} max {hi} slabs {slab_bytes:?}", game.id());
        }
    }
}

/// The CPU engine's SCN Grundy values (`grundy::solve_shrinking`) of `game` with piles up to `hi`.
fn cpu_shrinking(game: &ShrinkingCircularNim, hi: u64) -> Vec<u16> {
    let d = game.table_domain(hi, None).unwrap();
    let Some(pset::Rules::Shrinking { n, k }) = pset::rules_for(game, &d) else {
        panic!("{}: SCN rules", game.id());
    };
    grundy::solve_shrinking(n, k, d.radix() as usize, Hooks::default()).unwrap()
}

/// `got` equals `want`, or a panic naming the first position where they differ (not a dump of both).
fn same_values(got: &[u16], want: &[u16], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: positions");
    if let Some(i) = (0..want.len()).find(|&i| got[i] != want[i]) {
        panic!(
            "{what}: position {i} of {}: GPU {} CPU {}",
            want.len(),
            got[i],
            want[i]
        );
    }
}

/// SCN(n,k) for every n <= 6: each circle length a window game on the GPU, the values of the moves
/// that empty piles handed over per position from the shorter lengths. Boxes of at least 10^5
/// positions at the longest length (piles up to 63 for n <= 2), against `grundy::solve_shrinking`.
#[test]
fn shrinking_grundy_values_equal_the_cpu_engine() {
    let Some(dev) = device("shrinking_grundy_values_equal_the_cpu_engine") else {
        return;
    };
    let mut positions = 0;
    for n in 1..=6usize {
        for k in 1..=n {
            let game = ShrinkingCircularNim::new(n, k).unwrap();
            let mut hi = 1;
            while hi < 63 && (hi as f64).powi(n as i32) < 1e5 {
                hi += 1;
            }
            let want = cpu_shrinking(&game, hi);
            let got = gpu_grundy(dev, &game, hi, &Options::default());
            assert!(want.iter().any(|&v| v > 1), "{}: values", game.id());
            same_values(&got, &want, &format!("{} max {hi}", game.id()));
            positions += want.len();
        }
    }
    eprintln!("SCN(n<=6,k): {positions} Grundy values agree");
}

/// SCN Grundy values through many slabs (the host's value sets of moves out of the box follow each
/// slab) and with values past 63 and 127 (the sets widen while the host's sets widen with them), with
/// whole tiers on the device and through slabs.
#[test]
fn shrinking_grundy_values_through_many_slabs_and_words() {
    let Some(dev) = device("shrinking_grundy_values_through_many_slabs_and_words") else {
        return;
    };
    // (n, k, max, slab bytes, the largest value lies in this range).
    for (n, k, hi, slab, top) in [
        (5, 2, 9, 2000u64, 2..64),
        (4, 3, 12, 700, 2..64),
        (6, 4, 5, 1500, 2..64),
        // Values past 63: SCN(2,2) is two piles lowered together or apart.
        (2, 2, 63, 900, 64..128),
        // Values past 127: the sets widen from one word to four.
        (3, 3, 60, 20_000, 128..256),
    ] {
        let game = ShrinkingCircularNim::new(n, k).unwrap();
        let want = cpu_shrinking(&game, hi);
        let most = *want.iter().max().unwrap();
        assert!(top.contains(&most), "{}: largest value {most}", game.id());
        for slab_bytes in [Some(slab), None] {
            let got = gpu_grundy(
                dev,
                &game,
                hi,
                &Options {
                    slab_bytes,
                    ..Default::default()
                },
            );
            let what = format!("{} max {hi} slabs {slab_bytes:?}", game.id());
            same_values(&got, &want, &what);
        }
    }
}

/// P-lines of the GPU with slabs of `slab_lines` lines against the tier schedule on the CPU.
fn through_slabs(dev: &Device, m: usize, r: usize, windows: Vec<Vec<usize>>, slab_lines: u64) {
    for origin_n in [false, true] {
        let spec = LineSpec {
            radix: None,
            m,
            r,
            windows: engine_windows(m, &windows),
            origin_n,
        };
        // The schedule does split this box into more slabs than tiers.
        let rk = tiers::Ranking::new(m - 1, r);
        let slabs: usize = (0..rk.tiers())
            .map(|t| schedule::slabs(&rk, t, slab_lines, u64::MAX).unwrap().len())
            .sum();
        assert!(slabs > rk.tiers(), "m {m} r {r}: {slabs} slabs");
        let want = tiers::solve(&spec, Hooks::default()).unwrap();
        let opts = Options {
            slab_bytes: Some(slab_lines * (spec.windows.len() as u64 * 8 + 4)),
            ..Default::default()
        };
        // `--backend auto` never streams slabs through the host: such a box is refused, for the CPU.
        let auto = Options {
            require_resident: true,
            ..opts
        };
        assert!(matches!(
            gpu::solve(dev, &spec, &auto, Hooks::default()),
            Err(gpu::GpuError::TooLarge(_))
        ));
        let resident = Options {
            require_resident: true,
            ..Default::default()
        };
        assert_eq!(
            gpu::solve(dev, &spec, &resident, Hooks::default()).unwrap(),
            want,
            "m {m} r {r}: one slab per tier"
        );
        let got = gpu::solve(dev, &spec, &opts, Hooks::default()).unwrap();
        assert!(!want.is_empty());
        assert_eq!(
            got, want,
            "m {m} r {r} slabs of {slab_lines} lines, misère {origin_n}"
        );
    }
}

#[test]
fn boxes_forced_through_many_slabs() {
    let Some(dev) = device("boxes_forced_through_many_slabs") else {
        return;
    };
    // CN(7,4) on [0..6]^7: 37 tiers, the widest of 9331 lines, so thousands of slabs of 40 lines.
    through_slabs(dev, 7, 7, cyclic_windows(7, 4), 40);
    // Odd sizes, one line per slab, and a 64-value bit axis (both halves of the word).
    through_slabs(dev, 3, 64, cyclic_windows(3, 2), 19);
    through_slabs(dev, 4, 5, cyclic_windows(4, 3), 1);
    let moore: Vec<Vec<usize>> = (0u64..1 << 5)
        .filter(|s| s.count_ones() == 2)
        .map(|s| (0..5).filter(|&i| s >> i & 1 == 1).collect())
        .collect();
    through_slabs(dev, 5, 9, moore, 13);
}

/// A box whose tiers cannot be ranked in 32 bits is refused with one line, before any work.
#[test]
fn a_box_too_large_is_refused_with_one_line() {
    let Some(dev) = device("a_box_too_large_is_refused_with_one_line") else {
        return;
    };
    let spec = LineSpec {
        radix: None,
        m: 9,
        r: 64,
        windows: engine_windows(9, &cyclic_windows(9, 3)),
        origin_n: false,
    };
    let e = gpu::solve(dev, &spec, &Options::default(), Hooks::default()).unwrap_err();
    assert!(matches!(e, GpuError::TooLarge(_)), "{e}");
    assert!(!e.to_string().contains('\n'));
}

/// `--backend auto` keeps to the CPU unless the table is a P-set of a window game on a box of at least
/// `AUTO_GPU_POSITIONS`; `--backend gpu` takes P-sets and Grundy values of window games and SCN, and
/// refuses a game the engine does not cover with one line. (Planning only: no adapter needed.)
#[test]
fn auto_sends_only_large_p_sets_to_a_gpu() {
    use nimlab_tables::plan::{self, Backend, Bounds, Request, ResumeMode, TableKind, TableMethod};
    let req = |max: u64, kind: TableKind, backend: Backend| Request {
        bounds: Bounds {
            max: Some(max),
            ..Default::default()
        },
        play: Play::Normal,
        kind,
        method: TableMethod::Auto,
        backend,
        remoteness: false,
        limit: f64::INFINITY,
        resume: ResumeMode::Off,
    };
    let cn = CircularNim::new(7, 4).unwrap();
    let scn = ShrinkingCircularNim::new(6, 4).unwrap();
    let chosen = |game: &dyn Game, max: u64, kind: TableKind, backend: Backend| {
        plan::plan(game, &req(max, kind, backend)).map(|p| p.backend)
    };
    // 32^7 = 3.4e10 positions: large enough; 16^7 = 2.7e8: not.
    assert!(32f64.powi(7) >= plan::AUTO_GPU_POSITIONS && 16f64.powi(7) < plan::AUTO_GPU_POSITIONS);
    assert_eq!(
        chosen(&cn, 31, TableKind::PSet, Backend::Auto).unwrap(),
        Backend::Auto
    );
    assert_eq!(
        chosen(&cn, 15, TableKind::PSet, Backend::Auto).unwrap(),
        Backend::Cpu
    );
    // SCN(6,4) with piles up to 60: 4.8e10 positions, a GPU under auto; up to 16: 1.8e7, the CPU.
    assert_eq!(
        chosen(&scn, 60, TableKind::PSet, Backend::Auto).unwrap(),
        Backend::Auto
    );
    assert_eq!(
        chosen(&scn, 16, TableKind::PSet, Backend::Auto).unwrap(),
        Backend::Cpu
    );
    assert_eq!(
        chosen(&scn, 60, TableKind::PSet, Backend::Gpu).unwrap(),
        Backend::Gpu
    );
    assert_eq!(
        chosen(&cn, 5, TableKind::Grundy, Backend::Auto).unwrap(),
        Backend::Cpu
    );
    assert_eq!(
        chosen(&cn, 5, TableKind::Grundy, Backend::Gpu).unwrap(),
        Backend::Gpu
    );
    assert_eq!(
        chosen(&scn, 5, TableKind::Grundy, Backend::Auto).unwrap(),
        Backend::Cpu
    );
    assert_eq!(
        chosen(&scn, 5, TableKind::Grundy, Backend::Gpu).unwrap(),
        Backend::Gpu
    );
    // Refused: a game the engine does not cover, and boxes past the GPU's values per entry (256 for
    // P-sets, 64 for Grundy values). Auto keeps to boxes of 64 values.
    let er = nimlab_games::parse_game("ER(3)").unwrap();
    let small = CircularNim::new(3, 2).unwrap();
    let (p, g) = (TableKind::PSet, TableKind::Grundy);
    assert_eq!(chosen(&small, 255, p, Backend::Gpu).unwrap(), Backend::Gpu);
    // 200^4 = 1.6e9 positions, past AUTO_GPU_POSITIONS but of 200 values per entry.
    let wide = CircularNim::new(4, 2).unwrap();
    assert_eq!(chosen(&wide, 199, p, Backend::Auto).unwrap(), Backend::Cpu);
    for (game, max, kind) in [
        (er.as_ref(), 6, p),
        (er.as_ref(), 6, g),
        (&small, 256, p),
        (&small, 64, g),
    ] {
        let e = chosen(game, max, kind, Backend::Gpu)
            .unwrap_err()
            .to_string();
        assert!(e.contains("--backend cpu") && !e.contains('\n'), "{e}");
    }
}

/// A saver that keeps every checkpoint in memory with the positions listed before it (or, with
/// `only_on_cancel`, asks for none and keeps what is written on the way out of a cancelled run).
struct Recorder<'a> {
    mem: nimlab_tables::checkpoint::Memory,
    listed: &'a std::cell::RefCell<Vec<Vec<u64>>>,
    at: Vec<Vec<Vec<u64>>>,
    only_on_cancel: bool,
}

impl nimlab_tables::checkpoint::Saver for Recorder<'_> {
    fn due(&mut self) -> bool {
        !self.only_on_cancel
    }
    fn save(
        &mut self,
        p: nimlab_tables::checkpoint::Progress,
        body: &mut dyn FnMut(&mut dyn std::io::Write) -> std::io::Result<()>,
    ) {
        self.at.push(self.listed.borrow().clone());
        self.mem.save(p, body);
    }
}

/// The GPU's SCN P-set continued from a checkpoint: the listed positions before it, those after it,
/// and the counts equal `want`.
fn resumed_on_gpu(
    dev: &Device,
    game: &dyn Game,
    d: &nimlab_core::BoxDomain,
    play: Play,
    (before, bytes): (&[Vec<u64>], &[u8]),
) -> Answer {
    let mut listed = before.to_vec();
    let mut rd: &[u8] = bytes;
    let s = gpu::tabulate_resumable(
        dev,
        game,
        d,
        play,
        &Options::default(),
        Hooks::default(),
        &mut |p| listed.push(p.to_vec()),
        Resume {
            saver: None,
            from: Some(&mut rd),
        },
    )
    .unwrap();
    assert!(rd.is_empty(), "the checkpoint is read whole");
    (s, listed)
}

/// SCN P-sets on the GPU keep checkpoints between circle lengths (the CPU engine's loop, which the
/// GPU shares): resumed from each of them, and from the one written when a run is cancelled, the
/// table equals the CPU engine's; a checkpoint the CPU engine took inside a length is refused with
/// one line.
#[test]
fn shrinking_p_sets_resume_from_checkpoints_on_the_gpu() {
    let Some(dev) = device("shrinking_p_sets_resume_from_checkpoints_on_the_gpu") else {
        return;
    };
    let game = ShrinkingCircularNim::new(5, 3).unwrap();
    let d = game.table_domain(7, None).unwrap();
    for play in [Play::Normal, Play::Misere] {
        let want = cpu(&game, &d, play);
        // One pass with a checkpoint whenever one may be written: between every two lengths.
        let listed = std::cell::RefCell::new(Vec::new());
        let mut saver = Recorder {
            mem: Default::default(),
            listed: &listed,
            at: Vec::new(),
            only_on_cancel: false,
        };
        let s = gpu::tabulate_resumable(
            dev,
            &game,
            &d,
            play,
            &Options::default(),
            Hooks::default(),
            &mut |p| listed.borrow_mut().push(p.to_vec()),
            Resume {
                saver: Some(&mut saver),
                from: None,
            },
        )
        .unwrap();
        assert_eq!((s, listed.take()), want, "one pass, {play}");
        assert_eq!(
            saver.mem.saved.len(),
            4,
            "one checkpoint between each two of lengths 1..5"
        );
        for (i, ((p, bytes), before)) in saver.mem.saved.iter().zip(&saver.at).enumerate() {
            assert!(p.stage.ends_with("not started"), "{}", p.stage);
            let got = resumed_on_gpu(dev, &game, &d, play, (before, bytes));
            assert_eq!(
                got, want,
                "resumed from checkpoint {i} ({}), {play}",
                p.stage
            );
        }

        // Cancelled once length 3 is done: the checkpoint written on the way out starts length 4.
        let stop = AtomicBool::new(false);
        let r = d.radix();
        let progress = |done: u64, _total: u64| {
            if done > r + r * r + r * r * r {
                stop.store(true, Ordering::Relaxed);
            }
        };
        let listed = std::cell::RefCell::new(Vec::new());
        let mut saver = Recorder {
            mem: Default::default(),
            listed: &listed,
            at: Vec::new(),
            only_on_cancel: true,
        };
        let res = gpu::tabulate_resumable(
            dev,
            &game,
            &d,
            play,
            &Options::default(),
            Hooks::new(Some(&stop), Some(&progress)),
            &mut |p| listed.borrow_mut().push(p.to_vec()),
            Resume {
                saver: Some(&mut saver),
                from: None,
            },
        );
        assert!(matches!(res, Err(GpuError::Interrupted)), "{res:?}");
        assert_eq!(
            saver.mem.saved.len(),
            1,
            "one checkpoint, written on cancel"
        );
        let (p, bytes) = &saver.mem.saved[0];
        assert_eq!(p.stage, "length 4 of 5: not started");
        let got = resumed_on_gpu(dev, &game, &d, play, (&saver.at[0], bytes));
        assert_eq!(got, want, "resumed after a cancel, {play}");
    }

    // A checkpoint the CPU engine took inside a length: the GPU does not continue it.
    let mut mem = nimlab_tables::checkpoint::Memory::default();
    pset::tabulate_resumable(
        &game,
        &d,
        Play::Normal,
        Hooks::default(),
        &mut |_| {},
        Resume {
            saver: Some(&mut mem),
            from: None,
        },
    )
    .unwrap();
    let (_, inside) = mem
        .saved
        .iter()
        .find(|(p, _)| p.stage.contains("diagonal"))
        .expect("the CPU engine saves inside a length");
    let mut rd: &[u8] = inside;
    let res = gpu::tabulate_resumable(
        dev,
        &game,
        &d,
        Play::Normal,
        &Options::default(),
        Hooks::default(),
        &mut |_| {},
        Resume {
            saver: None,
            from: Some(&mut rd),
        },
    );
    match res {
        Err(GpuError::Checkpoint(e)) => {
            let e = e.to_string();
            assert!(e.contains("--backend cpu") && !e.contains('\n'), "{e}")
        }
        other => panic!("{other:?}"),
    }
}

/// What crosses between host and device grows with the P-positions found and the slabs, not with the
/// positions: the records of the tiers stay on the device, and only the P-lines come back (12 bytes
/// each, plus a 4-byte count per read of the list). The bounds are worked out here from the
/// schedule.
#[test]
fn host_device_traffic_follows_the_p_positions() {
    let Some(dev) = device("host_device_traffic_follows_the_p_positions") else {
        return;
    };
    for (m, k) in [(4usize, 2usize), (5, 3)] {
        let mut seen = Vec::new();
        for r in [16usize, 32] {
            for slab_lines in [None, Some(37u64)] {
                let spec = LineSpec {
                    radix: None,
                    m,
                    r,
                    windows: engine_windows(m, &cyclic_windows(m, k)),
                    origin_n: false,
                };
                let record = spec.windows.len() as u64 * 8;
                let opts = Options {
                    slab_bytes: slab_lines.map(|l| l * (record + 4)),
                    ..Default::default()
                };
                let rk = tiers::Ranking::new(m - 1, r);
                let slabs: u64 = (0..rk.tiers())
                    .map(|t| {
                        schedule::slabs(&rk, t, slab_lines.unwrap_or(u64::MAX), u64::MAX)
                            .unwrap()
                            .len() as u64
                    })
                    .sum();
                let before = dev.traffic();
                let lines = gpu::solve(dev, &spec, &opts, Hooks::default()).unwrap();
                let t = dev.traffic() - before;
                // The answer is right (the CPU's tier schedule), and at most one P-position per line.
                assert_eq!(lines, tiers::solve(&spec, Hooks::default()).unwrap());
                let p = lines.len() as u64;
                let what = format!("CN({m},{k}) r {r} slabs {slab_lines:?}: {t:?}, {p} P-lines");
                // Down: the P-lines and one count per read (a read at most before every slab).
                assert!(t.downloaded_bytes >= 12 * p + 4, "{what}");
                assert!(t.downloaded_bytes <= 12 * p + 4 * (slabs + 1), "{what}");
                // Up: the tables of the run (ranking table, windows and the mirror's permutations
                // of the axes and windows), then per slab its 64 bytes of parameters and at most one
                // 4-byte reset of the list.
                let tables =
                    4 * (schedule::skip_table(&rk).len() + 2 * spec.windows.len() + m) as u64;
                assert!(t.uploaded_bytes <= tables + 68 * slabs, "{what}");
                // Submissions: one per slab and two per read of the list.
                assert!(t.submissions <= 3 * slabs + 2, "{what}");
                // Far below the positions of the box: a byte per position would be r^m.
                assert!(t.downloaded_bytes < (r as u64).pow(m as u32) / 4, "{what}");
                seen.push((r, slab_lines, t));
            }
        }
        // 2^m times the positions at r 32: the bytes down grow with the P-lines, at most half as fast.
        let down = |r: usize| seen.iter().find(|s| s.0 == r && s.1.is_none()).unwrap().2;
        assert!(
            down(32).downloaded_bytes * 2 < down(16).downloaded_bytes * (1 << m),
            "CN({m},{k}): {seen:?}"
        );
    }
}
