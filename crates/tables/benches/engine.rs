//! The engine's benchmark: the engine against the plain search on the same box (and the ratio),
//! then large boxes. `cargo bench -p nimlab-tables --bench engine -- [names...]` runs the named cases
//! (all when none is named): `ratio`, `cn74-15`, `cn74-31`, `scn64-30`, `grundy74-10`, `scn-grundy`, `tiers`,
//! `ecn` (ECN(8,{1,2},3) against CN(8,3) on the same box, and both against the plain search).
//! Peak memory is read from /proc/self/status (VmHWM) where available.

use nimlab_core::table::{grundy_values, tabulate as naive, TableRun};
use nimlab_core::{Game, Play};
use nimlab_games::complex::Complex;
use nimlab_games::{CircularNim, ShrinkingCircularNim};
use nimlab_tables::grundy;
use nimlab_tables::lines::Hooks;
use nimlab_tables::pset::{self, rules_for, Rules};
use std::time::Instant;

fn peak_mib() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM")).map(|l| {
                l.split_whitespace()
                    .nth(1)
                    .unwrap_or("0")
                    .parse::<f64>()
                    .unwrap_or(0.0)
                    / 1024.0
            })
        })
        .map(|m| format!("{m:.0} MiB peak RSS so far"))
        .unwrap_or_default()
}

/// CPU seconds used by this process so far (user + system), from /proc/self/stat.
fn cpu_s() -> f64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            let rest = s.rsplit_once(')')?.1.split_whitespace().collect::<Vec<_>>();
            let ut: f64 = rest.get(11)?.parse().ok()?;
            let st: f64 = rest.get(12)?.parse().ok()?;
            Some((ut + st) / 100.0)
        })
        .unwrap_or(0.0)
}

/// (summary, wall seconds, CPU seconds) of one engine run.
fn engine(game: &dyn Game, hi: u64, play: Play) -> (pset::Summary, f64, f64) {
    let d = game.table_domain(hi, None).unwrap();
    let (t, c) = (Instant::now(), cpu_s());
    let s = pset::tabulate(game, &d, play, Hooks::default(), &mut |_| {}).unwrap();
    (s, t.elapsed().as_secs_f64(), cpu_s() - c)
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let want = |name: &str| args.is_empty() || args.iter().any(|a| a == name);
    println!(
        "threads: {}; load average at start: {}",
        rayon::current_num_threads(),
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .trim()
    );
    let cn74 = CircularNim::new(7, 4).unwrap();
    if want("ratio") {
        let d = cn74.table_domain(6, None).unwrap();
        let t = Instant::now();
        let slow = naive(
            &cn74,
            &d,
            &TableRun {
                play: Play::Normal,
                keep_positions: false,
                hooks: Default::default(),
            },
        )
        .unwrap();
        let naive_s = t.elapsed().as_secs_f64();
        // Time the engine over enough repetitions to measure it.
        let mut reps = 0;
        let t = Instant::now();
        let mut s = pset::Summary::default();
        while reps < 3 || t.elapsed().as_secs_f64() < 2.0 {
            s = engine(&cn74, 6, Play::Normal).0;
            reps += 1;
        }
        let fast_s = t.elapsed().as_secs_f64() / reps as f64;
        assert_eq!(
            (s.count, s.canonical_count),
            (slow.count, slow.canonical_count)
        );
        println!(
            "CN(7,4) [0..6]^7 normal: naive {naive_s:.3} s, engine {:.6} s ({reps} runs), ratio {:.0}x; count {} canonical {}",
            fast_s, naive_s / fast_s, s.count, s.canonical_count
        );
    }
    if want("cn74-15") {
        for play in [Play::Normal, Play::Misere] {
            let (s, secs, cpu) = engine(&cn74, 15, play);
            println!(
                "CN(7,4) [0..15]^7 {play}: {secs:.3} s (cpu {cpu:.2} s); count {} canonical {}; {}",
                s.count,
                s.canonical_count,
                peak_mib()
            );
        }
    }
    if want("grundy74-10") {
        let d = cn74.table_domain(10, None).unwrap();
        let Some(Rules::Windows { m, windows }) = rules_for(&cn74, &d) else {
            unreachable!()
        };
        let (t, c) = (Instant::now(), cpu_s());
        let v = grundy::solve(m, 11, &windows, Hooks::default()).unwrap();
        let secs = t.elapsed().as_secs_f64();
        let cpu = cpu_s() - c;
        let max = v.iter().max().unwrap();
        let zeros = v.iter().filter(|&&g| g == 0).count();
        println!(
            "CN(7,4) [0..10]^7 Grundy: {secs:.3} s (cpu {cpu:.2} s); max value {max}, {zeros} zeros; {}",
            peak_mib()
        );
    }
    if want("scn64-30") {
        let g = ShrinkingCircularNim::new(6, 4).unwrap();
        let play = Play::Normal;
        let (s, secs, cpu) = engine(&g, 30, play);
        println!("SCN(6,4) piles 1..=30 {play}: {secs:.3} s (cpu {cpu:.2} s); count {} canonical {}; by length {:?}; {}", s.count, s.canonical_count, s.by_length, peak_mib());
    }
    if want("scn-grundy") {
        // SCN Grundy tables: the plain search and the engine on the same box, then a larger box.
        let g = ShrinkingCircularNim::new(6, 4).unwrap();
        let d = g.table_domain(8, None).unwrap();
        let t = Instant::now();
        let slow = grundy_values(&g, &d, Default::default()).unwrap();
        let naive_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let fast = grundy::solve_shrinking(6, 4, 8, Hooks::default()).unwrap();
        let fast_s = t.elapsed().as_secs_f64();
        assert_eq!(slow, fast);
        println!(
            "SCN(6,4) piles 1..=8 Grundy ({} positions): naive {naive_s:.3} s, engine {fast_s:.3} s, ratio {:.0}x; max value {}",
            fast.len(),
            naive_s / fast_s,
            fast.iter().max().unwrap()
        );
        let (t, c) = (Instant::now(), cpu_s());
        let v = grundy::solve_shrinking(6, 4, 16, Hooks::default()).unwrap();
        let secs = t.elapsed().as_secs_f64();
        println!(
            "SCN(6,4) piles 1..=16 Grundy ({} positions): {secs:.3} s (cpu {:.2} s); max value {}, {} zeros; {}",
            v.len(),
            cpu_s() - c,
            v.iter().max().unwrap(),
            v.iter().filter(|&&x| x == 0).count(),
            peak_mib()
        );
    }
    if want("tiers") {
        // The tier schedule (the GPU back end's layout, run on the CPU) against the block engine.
        let d = cn74.table_domain(15, None).unwrap();
        let Some(Rules::Windows { m, windows }) = rules_for(&cn74, &d) else {
            unreachable!()
        };
        let spec = nimlab_tables::lines::LineSpec {
            radix: None,
            m,
            r: 16,
            windows: pset::engine_windows(m, &windows),
            origin_n: false,
        };
        let (t, c) = (Instant::now(), cpu_s());
        let lines = nimlab_tables::tiers::solve(&spec, Hooks::default()).unwrap();
        let secs = t.elapsed().as_secs_f64();
        let cpu = cpu_s() - c;
        let (s, block_s, _) = engine(&cn74, 15, Play::Normal);
        assert_eq!(lines.len() as u64, s.count);
        println!(
            "CN(7,4) [0..15]^7 normal, tier schedule: {secs:.3} s (cpu {cpu:.2} s), block engine {block_s:.3} s; count {}; {}",
            lines.len(),
            peak_mib()
        );
    }
    if want("ecn") {
        // ECN(8,{1,2},3) (16 facets: 8 windows of 3 and 8 sets {i,i+2,i+4}) and CN(8,3) (8 windows).
        let ecn = Complex::ecn(8, &[1, 2], 3).unwrap();
        let cn = CircularNim::new(8, 3).unwrap();
        let games: [(&dyn Game, &str); 2] = [(&ecn, "ECN(8,{1,2},3)"), (&cn, "CN(8,3)")];
        // The plain search and the engine on a small box, for the ratio.
        for (g, name) in games {
            let d = g.table_domain(3, None).unwrap();
            let t = Instant::now();
            let slow = naive(
                g,
                &d,
                &TableRun {
                    play: Play::Normal,
                    keep_positions: false,
                    hooks: Default::default(),
                },
            )
            .unwrap();
            let naive_s = t.elapsed().as_secs_f64();
            let mut reps = 0;
            let t = Instant::now();
            let mut s = pset::Summary::default();
            while reps < 3 || t.elapsed().as_secs_f64() < 2.0 {
                s = engine(g, 3, Play::Normal).0;
                reps += 1;
            }
            let fast_s = t.elapsed().as_secs_f64() / reps as f64;
            assert_eq!(
                (s.count, s.canonical_count),
                (slow.count, slow.canonical_count)
            );
            println!(
                "{name} [0..3]^8 normal: naive {naive_s:.3} s, engine {fast_s:.6} s ({reps} runs), ratio {:.0}x; count {} canonical {}",
                naive_s / fast_s, s.count, s.canonical_count
            );
        }
        let mut secs = Vec::new();
        for (g, name) in games {
            let (s, t, cpu) = engine(g, 11, Play::Normal);
            println!(
                "{name} [0..11]^8 normal: {t:.3} s (cpu {cpu:.2} s); count {} canonical {}; {}",
                s.count,
                s.canonical_count,
                peak_mib()
            );
            secs.push(t);
        }
        println!(
            "ECN(8,{{1,2}},3) / CN(8,3) on [0..11]^8: {:.2}x",
            secs[0] / secs[1]
        );
    }
    if want("cn74-31") {
        let (s, secs, cpu) = engine(&cn74, 31, Play::Normal);
        println!(
            "CN(7,4) [0..31]^7 normal: {secs:.3} s (cpu {cpu:.2} s); count {} canonical {}; {}",
            s.count,
            s.canonical_count,
            peak_mib()
        );
    }
}
