//! The GPU back end's P-sets past 64 values per entry, where a line takes 2 to 4 words of 64 bits:
//! equal to the CPU engine (`pset::tabulate`: counts, counts by length and the listed canonical
//! P-positions), both conventions, for CN, Nim, Moore's Nim and SCN (whose moves that empty piles
//! are answered on the device, from bit sets of several words or from least entries); Nim and Moore's
//! Nim (and CN(3,2), which is Moore's Nim_2 on three heaps) also against Moore's rule, and SCN
//! against the GPU's own one-word table on the entries up to 63; lines of several words through many
//! slabs equal the CPU line engine; boxes past the limits are refused with one line.
//!
//! Without a GPU adapter these tests print SKIPPED and pass, unless `NIMLAB_REQUIRE_GPU=1` (CI, with
//! Mesa's lavapipe installed), where they fail.
#![cfg(feature = "gpu")]

use nimlab_core::{BoxDomain, Game, Play};
use nimlab_games::shrinking::ShrinkingCircularNim;
use nimlab_games::{CircularNim, MooreNim, Nim};
use nimlab_tables::gpu::{self, schedule, Device, GpuError, Options};
use nimlab_tables::lines::{self, Hooks, LineSpec, NoOracle, PLine};
use nimlab_tables::plan::{GPU_MAX_GRUNDY_RADIX, GPU_MAX_RADIX};
use nimlab_tables::pset::{cyclic_windows, engine_windows};
use nimlab_tables::tiers;

mod gpu_common;
use gpu_common::{cpu, device, on_gpu, Answer};

/// The GPU's P-set of `game` on entries up to `hi` (and `heaps` heaps), both conventions, against the
/// CPU engine; the GPU's answers, by convention.
fn same(
    dev: &Device,
    game: &dyn Game,
    hi: u64,
    heaps: Option<usize>,
    opts: &Options,
) -> [Answer; 2] {
    let d = game.table_domain(hi, heaps).unwrap();
    assert!(d.radix() > 64, "{} max {hi}: one word", game.id());
    [Play::Normal, Play::Misere].map(|play| {
        let want = cpu(game, &d, play);
        let got = on_gpu(dev, game, &d, play, opts);
        let what = format!("{} {play} max {hi} {opts:?}", game.id());
        assert!(
            want.0.count > 0,
            "{what}: the CPU engine found no P-position"
        );
        assert_eq!(got.0, want.0, "{what}: counts");
        assert_eq!(got.1, want.1, "{what}: canonical positions");
        got
    })
}

/// Moore's rule for Nim_k (Nim is k = 1): in normal play a position is P when every binary digit is
/// set in a multiple of k + 1 heaps; in misère play the same while some heap is above 1, and when
/// none is, when the heaps of 1 are one more than a multiple of k + 1.
fn moore_p(x: &[u64], k: u64, play: Play) -> bool {
    if play == Play::Misere && x.iter().all(|&v| v <= 1) {
        return x.iter().sum::<u64>() % (k + 1) == 1;
    }
    (0..64).all(|b| {
        let set = x.iter().filter(|&&v| v >> b & 1 == 1).count() as u64;
        set.is_multiple_of(k + 1)
    })
}

/// An answer on the box `d` against Moore's rule: the ordered count, and the canonical positions
/// (for games with every permutation of the heaps as a symmetry: the sorted tuples).
fn obeys_moore(answer: &Answer, d: &BoxDomain, k: u64, play: Play, what: &str) {
    let (mut ordered, mut sorted) = (0u64, 0u64);
    for &len in &d.lengths {
        let mut x = vec![d.lo; len];
        loop {
            if moore_p(&x, k, play) {
                ordered += 1;
                sorted += x.is_sorted() as u64;
            }
            let Some(i) = (0..len).rev().find(|&i| x[i] < d.hi) else {
                break;
            };
            x[i] += 1;
            x[i + 1..].fill(d.lo);
        }
    }
    assert_eq!(
        answer.0.count, ordered,
        "{what}: ordered count against the rule"
    );
    assert_eq!(answer.0.canonical_count, sorted, "{what}: canonical count");
    assert_eq!(answer.1.len() as u64, sorted, "{what}: listed");
    assert!(
        answer.1.iter().all(|p| moore_p(p, k, play)),
        "{what}: a listed position breaks the rule"
    );
}

#[test]
fn nim_and_moore_past_64_values_equal_the_cpu_engine_and_moores_rule() {
    let Some(dev) = device("nim_and_moore_past_64_values_equal_the_cpu_engine_and_moores_rule")
    else {
        return;
    };
    // Lines of 3 words (131 values), 2 words (101) and 4 whole words (256).
    for (k, hi) in [(1, 130), (2, 100), (2, 255)] {
        let game: Box<dyn Game> = if k == 1 {
            Box::new(Nim)
        } else {
            Box::new(MooreNim::new(k as usize).unwrap())
        };
        let d = game.table_domain(hi, Some(3)).unwrap();
        let got = same(dev, &*game, hi, Some(3), &Options::default());
        for (a, play) in got.iter().zip([Play::Normal, Play::Misere]) {
            obeys_moore(a, &d, k, play, &format!("{} {play} max {hi}", game.id()));
        }
    }
}

#[test]
fn circular_nim_past_64_values_equals_the_cpu_engine() {
    let Some(dev) = device("circular_nim_past_64_values_equals_the_cpu_engine") else {
        return;
    };
    // CN(3,2): every pair of the three stacks is a window, so it is Moore's Nim_2 on three heaps.
    let game = CircularNim::new(3, 2).unwrap();
    let d = game.table_domain(149, None).unwrap();
    let got = same(dev, &game, 149, None, &Options::default());
    for (a, play) in got.iter().zip([Play::Normal, Play::Misere]) {
        obeys_moore(a, &d, 2, play, &format!("CN(3,2) {play} max 149"));
    }
    let four = CircularNim::new(4, 2).unwrap();
    let plain = same(dev, &four, 66, None, &Options::default());
    // Read through the mirror (the circle's reflection; one line of each pair runs), lines of 2 and
    // 3 words.
    let mirror = Options {
        mirror: true,
        ..Default::default()
    };
    assert_eq!(same(dev, &game, 149, None, &mirror), got);
    assert_eq!(same(dev, &four, 66, None, &mirror), plain);
}

/// SCN past 64 values: each circle length on the GPU with lines of two words, its moves that empty
/// piles from bit sets of two words, or from least entries (forced with no room for bit sets); the
/// positions with every pile up to 63 are those of the one-word table.
#[test]
fn shrinking_circular_nim_past_64_values_equals_the_cpu_engine() {
    let Some(dev) = device("shrinking_circular_nim_past_64_values_equals_the_cpu_engine") else {
        return;
    };
    let least = Options {
        scn_bit_set_bytes: Some(0),
        ..Default::default()
    };
    // Lines of 2 words, and of 3 (up to 130, the bit sets of SCN(4,2)'s 3-circle hold values past 64).
    for (n, hi, scan) in [
        (3, 80, true),
        (4, 66, true),
        (3, 150, false),
        (4, 130, false),
    ] {
        let game = ShrinkingCircularNim::new(n, 2).unwrap();
        let bits = same(dev, &game, hi, None, &Options::default());
        if scan {
            assert_eq!(same(dev, &game, hi, None, &least), bits);
            let mirror = Options {
                mirror: true,
                ..least
            };
            assert_eq!(same(dev, &game, hi, None, &mirror), bits);
        }
        if hi == 80 {
            let small = game.table_domain(63, None).unwrap();
            for (a, play) in bits.iter().zip([Play::Normal, Play::Misere]) {
                let mut one_word = on_gpu(dev, &game, &small, play, &Options::default()).1;
                let mut low: Vec<Vec<u64>> =
                    a.1.iter()
                        .filter(|p| p.iter().all(|&v| v <= 63))
                        .cloned()
                        .collect();
                one_word.sort_unstable();
                low.sort_unstable();
                assert_eq!(low, one_word, "SCN(3,2) {play}: piles up to 63");
            }
        }
    }
    // Least entries on lines of one word too.
    let game = ShrinkingCircularNim::new(4, 2).unwrap();
    let d = game.table_domain(30, None).unwrap();
    for play in [Play::Normal, Play::Misere] {
        assert_eq!(on_gpu(dev, &game, &d, play, &least), cpu(&game, &d, play));
    }
}

/// The CPU line engine's P-lines of a window game, sorted.
fn cpu_lines(spec: &LineSpec) -> Vec<PLine> {
    let mut out = Vec::new();
    lines::solve(spec, &NoOracle, Hooks::default(), &mut |_, mut p| {
        out.append(&mut p)
    })
    .unwrap();
    out.sort_unstable();
    out
}

/// Lines of 2 and 3 words through many slabs (the span of the tier below gathered into one buffer)
/// and in one slab per tier equal the CPU line engine; what comes back is the P-lines and a count per
/// read of their list.
#[test]
fn wide_lines_through_many_slabs() {
    let Some(dev) = device("wide_lines_through_many_slabs") else {
        return;
    };
    for (m, k, r, slab_lines) in [(3, 2, 150, 7), (4, 2, 67, 61)] {
        for origin_n in [false, true] {
            let spec = LineSpec {
                radix: None,
                m,
                r,
                windows: engine_windows(m, &cyclic_windows(m, k)),
                origin_n,
            };
            let record = spec.windows.len() as u64 * r.div_ceil(64) as u64 * 8;
            let rk = tiers::Ranking::new(m - 1, r);
            let slabs: u64 = (0..rk.tiers())
                .map(|t| schedule::slabs(&rk, t, slab_lines, u64::MAX).unwrap().len() as u64)
                .sum();
            assert!(slabs > rk.tiers() as u64, "m {m} r {r}: {slabs} slabs");
            let want = cpu_lines(&spec);
            assert!(!want.is_empty());
            let resident = Options {
                require_resident: true,
                ..Default::default()
            };
            let what = format!("CN({m},{k}) r {r} misère {origin_n}");
            assert_eq!(
                gpu::solve(dev, &spec, &resident, Hooks::default()).unwrap(),
                want,
                "{what}: one slab per tier"
            );
            let opts = Options {
                slab_bytes: Some(slab_lines * (record + 4)),
                ..Default::default()
            };
            let before = dev.traffic();
            let got = gpu::solve(dev, &spec, &opts, Hooks::default()).unwrap();
            let t = dev.traffic() - before;
            assert_eq!(got, want, "{what}: slabs of {slab_lines} lines");
            let p = want.len() as u64;
            assert!(t.downloaded_bytes >= 12 * p + 4, "{what}: {t:?}");
            assert!(
                t.downloaded_bytes <= 12 * p + 4 * (slabs + 1),
                "{what}: {t:?}"
            );
        }
    }
}

/// Past `GPU_MAX_RADIX` values (P-sets) and `GPU_MAX_GRUNDY_RADIX` (Grundy values) a box is refused
/// with one line that names the limit.
#[test]
fn boxes_past_the_limits_are_refused_with_one_line() {
    let Some(dev) = device("boxes_past_the_limits_are_refused_with_one_line") else {
        return;
    };
    assert_eq!((GPU_MAX_RADIX, GPU_MAX_GRUNDY_RADIX), (256, 64));
    let spec = LineSpec {
        radix: None,
        m: 2,
        r: GPU_MAX_RADIX as usize + 1,
        windows: engine_windows(2, &cyclic_windows(2, 1)),
        origin_n: false,
    };
    let e = gpu::solve(dev, &spec, &Options::default(), Hooks::default()).unwrap_err();
    assert!(matches!(e, GpuError::TooLarge(_)), "{e}");
    let e = e.to_string();
    assert!(!e.contains('\n') && e.contains("256"), "{e}");
    let game = MooreNim::new(2).unwrap();
    let d = game.table_domain(GPU_MAX_GRUNDY_RADIX, Some(2)).unwrap();
    let e = gpu::grundy(dev, &game, &d, &Options::default(), Hooks::default()).unwrap_err();
    assert!(matches!(e, GpuError::TooLarge(_)), "{e}");
    let e = e.to_string();
    assert!(
        !e.contains('\n') && e.contains("64") && e.contains("Grundy"),
        "{e}"
    );
}
