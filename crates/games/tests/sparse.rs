//! The sparse-space method against a brute-force mex written here (the rules read afresh from the
//! code's digits, every split of every heap visited), on every heap up to 2·10^4 for a list of
//! codes and up to 10^5 for Officers and Grundy's game; for any mask; and the published facts
//! (Kayles, Dawson's Kayles, Grundy's game, OEIS A002188) out of the computation.

use nimlab_games::octal::{Method, OctalGame, Ran};
use nimlab_games::parse_game;
use nimlab_games::sparse::{is_rare, rare_heaps};

/// The digits of a code `I.FFF` (hexadecimal digits allowed), read independently of the crate.
fn digits(code: &str) -> Vec<u32> {
    let (int, frac) = code.split_once('.').unwrap_or((code, ""));
    let mut d = vec![u32::from_str_radix(int, 16).unwrap_or(0)];
    d.extend(frac.chars().map(|c| c.to_digit(16).unwrap()));
    d
}

/// g(0..=max) by brute force. `code` None: Grundy's game (split into two unequal non-empty heaps).
/// Every option of every heap is visited: no heap (bit 1), one heap (bit 2), two heaps (bit 4),
/// three heaps (bit 8, small heaps only).
fn brute(code: Option<&str>, max: usize) -> Vec<u32> {
    let d = match code {
        Some(c) => digits(c),
        None => vec![4],
    };
    let mut g: Vec<u32> = Vec::with_capacity(max + 1);
    // seen[v] == n: v is the value of an option of heap n. Values stay below 2^16 here.
    let mut seen: Vec<usize> = vec![usize::MAX; 1 << 16];
    for n in 0..=max {
        let note = |v: u32, seen: &mut Vec<usize>| seen[v as usize] = n;
        for (j, &dj) in d.iter().enumerate() {
            if j > n {
                break;
            }
            let rest = n - j;
            if dj & 1 != 0 && rest == 0 {
                note(0, &mut seen);
            }
            if dj & 2 != 0 && rest > 0 {
                note(g[rest], &mut seen);
            }
            if dj & 4 != 0 {
                // (a, rest - a) and (rest - a, a) are the same two heaps.
                for a in 1..=rest / 2 {
                    if code.is_none() && 2 * a == rest {
                        continue;
                    }
                    note(g[a] ^ g[rest - a], &mut seen);
                }
            }
            if dj & 8 != 0 {
                for a in 1..rest {
                    for b in 1..rest - a {
                        note(g[a] ^ g[b] ^ g[rest - a - b], &mut seen);
                    }
                }
            }
        }
        let v = (0..).find(|&v| seen[v] != n).unwrap();
        g.push(v as u32);
    }
    g
}

fn game(code: &str) -> OctalGame {
    OctalGame::octal(code).unwrap()
}

fn sparse(g: &OctalGame, max: u64, mask: Option<u32>) -> (Vec<u32>, Ran) {
    let s = g
        .sequence_by(max, Method::Sparse, mask, f64::INFINITY)
        .unwrap();
    (s.values, s.ran)
}

/// Codes that split heaps: the named ones and a dozen others of the form 0.d1d2d3.
const CODES: &[&str] = &[
    "0.6", "0.7", "0.13", "0.137", "0.4", "0.51", "0.77", "4.7", "0.07", "0.16", "0.26", "0.36",
    "0.56", "0.64", "0.74", "0.106", "0.114", "0.135", "0.142", "0.156", "0.165", "0.172", "0.336",
    "0.644", "0.454", "0.724",
];

#[test]
fn sparse_equals_brute_force_on_every_heap() {
    const MAX: usize = 20_000;
    for code in CODES {
        let want = brute(Some(code), MAX);
        // Auto: the sparse method for codes that split a heap (0.13, 0.7 never do).
        let s = game(code)
            .sequence_by(MAX as u64, Method::Auto, None, f64::INFINITY)
            .unwrap();
        assert_eq!(
            matches!(s.ran, Ran::Sparse(_)),
            game(code).splits(),
            "octal({code})"
        );
        let got = s.values;
        assert_eq!(got.len(), want.len());
        if let Some(n) = (0..=MAX).find(|&n| got[n] != want[n]) {
            panic!(
                "octal({code}) heap {n}: sparse {} brute force {}",
                got[n], want[n]
            );
        }
    }
    let want = brute(None, MAX);
    let (got, _) = sparse(&OctalGame::grundy(), MAX as u64, None);
    assert!(got == want, "Grundy's game");
}

#[test]
fn sparse_equals_brute_force_to_a_hundred_thousand() {
    const MAX: usize = 100_000;
    // Officers (mask 0b111101110) and Grundy's game (mask 0b11111110, every bit but the lowest):
    // the rare values counted by the brute force's values.
    for (code, mask, count) in [
        (Some("0.6"), 0b1_1110_1110, 1584),
        (None, 0b1111_1110, 1274),
    ] {
        let g = code.map_or_else(OctalGame::grundy, game);
        let want = brute(code, MAX);
        let (got, ran) = sparse(&g, MAX as u64, None);
        let Ran::Sparse(run) = ran else {
            panic!("not sparse")
        };
        assert_eq!(run.plain_from, None, "{code:?} fell back to the plain mex");
        assert_eq!(run.mask, mask, "{code:?}");
        assert_eq!(rare_heaps(&want, mask).len(), count, "{code:?}");
        if let Some(n) = (0..=MAX).find(|&n| got[n] != want[n]) {
            panic!(
                "{code:?} heap {n}: sparse {} brute force {}",
                got[n], want[n]
            );
        }
    }
}

#[test]
fn sparse_is_exact_for_any_mask() {
    const MAX: usize = 3000;
    for code in ["0.6", "0.77", "0.137", "4.7", "0.165"] {
        let want = brute(Some(code), MAX);
        for mask in [1, 2, 3, 5, 6, 7, 0xF0, 0xFFFF_FFFF, 0] {
            let (got, _) = sparse(&game(code), MAX as u64, Some(mask));
            assert!(got == want, "octal({code}) mask {mask}");
        }
    }
    let want = brute(None, MAX);
    for mask in [1, 2, 6, 0xFFFE, 0] {
        let (got, _) = sparse(&OctalGame::grundy(), MAX as u64, Some(mask));
        assert!(got == want, "Grundy's game mask {mask}");
    }
}

#[test]
fn hexadecimal_codes_by_the_plain_mex() {
    for code in [
        "0.F", "4.8", "0.8", "0.C", "0.9", "0.B", "0.1F", "8.0", "0.48",
    ] {
        let want = brute(Some(code), 120);
        let got = game(code).sequence(120).unwrap();
        assert_eq!(got, want, "octal({code})");
        // Auto runs the plain mex for codes that may leave three heaps; sparse is refused.
        let s = game(code)
            .sequence_by(50, Method::Auto, None, f64::INFINITY)
            .unwrap();
        assert_eq!(s.ran, Ran::Plain, "{code}");
        let e = game(code)
            .sequence_by(50, Method::Sparse, None, f64::INFINITY)
            .unwrap_err()
            .to_string();
        assert!(e.contains("three") && !e.contains('\n'), "{e}");
    }
    // Games that never split: sparse refused in one line, auto is plain.
    let e = game("0.33")
        .sequence_by(50, Method::Sparse, None, f64::INFINITY)
        .unwrap_err()
        .to_string();
    assert!(e.contains("never") && !e.contains('\n'), "{e}");
    for bad in ["0.G", "0.7Z", "1.7", "2.0", "G.7"] {
        let e = OctalGame::octal(bad).unwrap_err().to_string();
        assert!(!e.contains('\n'), "{e}");
    }
}

#[test]
fn published_facts_come_out_of_the_computation() {
    // Kayles: period 12 from heap 71, the last exceptional value at 70.
    let k = game("0.77");
    let s = k
        .sequence_by(400, Method::Auto, None, f64::INFINITY)
        .unwrap();
    assert_eq!(s.values, brute(Some("0.77"), 400));
    let p = k.periodicity(&s.values).unwrap();
    assert_eq!((p.period, p.preperiod, p.saltus), (12, 71, 0));
    assert!(p.proof.is_some());
    // Dawson's Kayles: period 34, the last exceptional value at 52.
    let d = game("0.07");
    let s = d
        .sequence_by(400, Method::Auto, None, f64::INFINITY)
        .unwrap();
    let p = d.periodicity(&s.values).unwrap();
    assert_eq!((p.period, p.preperiod - 1), (34, 52));
    assert!(p.proof.is_some());
    // Grundy's game, OEIS A002188: g(0..=20).
    let want = [
        0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0,
    ];
    let brute = brute(None, 5000);
    assert_eq!(&brute[..21], &want);
    let g = parse_game("Grundy's game").unwrap();
    let g = g.downcast_ref::<OctalGame>().unwrap();
    let s = g
        .sequence_by(5000, Method::Auto, None, f64::INFINITY)
        .unwrap();
    assert_eq!(s.values, brute);
    let Ran::Sparse(run) = s.ran else {
        panic!("Grundy's game not by the sparse method")
    };
    // The mask is every bit but the lowest (on the values seen), and the rare heaps below 35 are
    // those of the literature: 0-4, 6, 7, 9, 10, 12, 15, 20, 23, 26, 28, 31, 34.
    let top = brute.iter().copied().max().unwrap();
    let width = (top + 1).next_power_of_two();
    assert_eq!(run.mask & (width - 1), width - 2, "mask {:#b}", run.mask);
    let rare: Vec<u64> = rare_heaps(&brute[..35], run.mask);
    assert_eq!(
        rare,
        vec![0, 1, 2, 3, 4, 6, 7, 9, 10, 12, 15, 20, 23, 26, 28, 31, 34]
    );
    // Their values are 0 and 1 (1274 rare heaps up to 10^5: counted by
    // `sparse_equals_brute_force_to_a_hundred_thousand`).
    assert!(rare.iter().all(|&n| brute[n as usize] <= 1));
    assert!(is_rare(0, run.mask) && is_rare(1, run.mask) && !is_rare(2, run.mask));
    // No period in Grundy's game up to 5000.
    assert!(g.periodicity(&brute).is_none_or(|p| p.proof.is_none()));
}

/// A run stopped by its callback (as Ctrl-C stops one) keeps a valid prefix, and extending any
/// prefix (before the mask is chosen, between two choices, on a choice) gives the values of the
/// uninterrupted run, for the sparse method and the plain mex: Officers and Grundy's game against
/// the brute force.
#[test]
fn a_stopped_run_extended_from_its_prefix_equals_the_whole_run() {
    const MAX: u64 = 12_000;
    for (name, code) in [("octal(0.6)", Some("0.6")), ("grundy", None)] {
        let want = brute(code, MAX as usize);
        let g = parse_game(name).unwrap();
        let g = g.downcast_ref::<OctalGame>().unwrap();
        for method in [Method::Sparse, Method::Plain] {
            for stop in [1024usize, 2048, 3072, 4096, 9216] {
                let mut values = Vec::new();
                let r =
                    g.extend_sequence(&mut values, MAX, method, None, f64::INFINITY, &mut |v| {
                        if v.len() >= stop {
                            Err(nimlab_core::Error::Interrupted)
                        } else {
                            Ok(())
                        }
                    });
                assert!(matches!(r, Err(nimlab_core::Error::Interrupted)));
                assert_eq!(values.len(), stop, "{name} {method:?}");
                assert_eq!(
                    values[..],
                    want[..stop],
                    "{name} {method:?}: the prefix kept"
                );
                let ran = g
                    .extend_sequence(&mut values, MAX, method, None, f64::INFINITY, &mut |_| {
                        Ok(())
                    })
                    .unwrap();
                assert_eq!(matches!(ran, Ran::Sparse(_)), method == Method::Sparse);
                assert_eq!(
                    values, want,
                    "{name} {method:?} stopped at {stop} and extended"
                );
            }
        }
    }
}
