//! Octal and subtraction games: the fast Grundy sequence against the generic `Solver` over the game's
//! moves and against a brute force written here (the rules read afresh from the code's digits, the
//! mex over every option of a single heap), sums of heaps against the XOR of their values, and the
//! periods against values from the literature and against longer prefixes.

use nimlab_core::{Play, Rng, Solver};
use nimlab_games::octal::{OctalGame, Proof};
use nimlab_games::parse_game;
use std::collections::BTreeSet;

/// The digits d_0, d_1, ... of a code written `I.FFF`, read independently of the crate's parser.
fn digits(code: &str) -> Vec<u32> {
    let (int, frac) = code.split_once('.').unwrap_or((code, ""));
    let mut d = vec![int.parse::<u32>().unwrap_or(0)];
    d.extend(frac.chars().map(|c| c.to_digit(8).unwrap()));
    d
}

/// g(0..=max) of the code's game by brute force: the set of the values of every option of a
/// single heap (no heap, one heap n - j, or the two heaps a and n - j - a), then the least value
/// not in it.
fn brute(code: &str, max: usize) -> Vec<u64> {
    let d = digits(code);
    let mut g: Vec<u64> = Vec::new();
    for n in 0..=max {
        let mut opts = BTreeSet::new();
        for (j, &dj) in d.iter().enumerate() {
            if j > n {
                break;
            }
            let rest = n - j;
            if dj & 1 == 1 && rest == 0 {
                opts.insert(0);
            }
            if dj & 2 == 2 && rest > 0 {
                opts.insert(g[rest]);
            }
            if dj & 4 == 4 {
                for a in 1..rest {
                    opts.insert(g[a] ^ g[rest - a]);
                }
            }
        }
        g.push((0..).find(|v| !opts.contains(v)).unwrap());
    }
    g
}

fn octal(code: &str) -> OctalGame {
    OctalGame::octal(code).unwrap()
}

const CODES: &[&str] = &[
    "0.77", "0.07", "0.137", "0.6", "4.7", "0.12", "0.31", "0.165", "0.4", "0.51", "0.0", "4.0",
    "0.3", "0.752", "0.2", "0.1",
];

#[test]
fn sequences_agree_with_the_brute_force() {
    for code in CODES {
        let want = brute(code, 300);
        let got: Vec<u64> = octal(code)
            .sequence(300)
            .unwrap()
            .into_iter()
            .map(u64::from)
            .collect();
        assert_eq!(got, want, "octal({code})");
    }
    // Subtraction games are the octal games with digit 3 at every amount.
    for (set, code) in [
        (&[1, 2, 3][..], "0.333"),
        (&[1, 3, 4], "0.3033"),
        (&[2, 5], "0.03003"),
    ] {
        let g = OctalGame::subtraction(set).unwrap();
        assert_eq!(g.code(), code);
        let got: Vec<u64> = g
            .sequence(300)
            .unwrap()
            .into_iter()
            .map(u64::from)
            .collect();
        assert_eq!(got, brute(code, 300), "subtraction{set:?}");
    }
}

#[test]
fn sequences_agree_with_the_generic_search() {
    for code in CODES {
        let game = octal(code);
        let seq = game.sequence(120).unwrap();
        let mut solver = Solver::new(&game);
        for (n, &v) in seq.iter().enumerate() {
            assert_eq!(
                solver.grundy(&[n as u64]).unwrap(),
                u64::from(v),
                "octal({code}) heap {n}"
            );
        }
    }
    // Grundy's game and codes that leave three heaps.
    for name in ["grundy", "octal(0.F)", "octal(4.8)", "octal(0.9)"] {
        let game = parse_game(name).unwrap();
        let seq = game
            .downcast_ref::<OctalGame>()
            .unwrap()
            .sequence(40)
            .unwrap();
        let mut solver = Solver::new(game.as_ref());
        for (n, &v) in seq.iter().enumerate() {
            assert_eq!(
                solver.grundy(&[n as u64]).unwrap(),
                u64::from(v),
                "{name} heap {n}"
            );
        }
    }
    let game = parse_game("subtraction(1,3,4)").unwrap();
    let seq = game
        .downcast_ref::<OctalGame>()
        .unwrap()
        .sequence(200)
        .unwrap();
    let mut solver = Solver::new(game.as_ref());
    for (n, &v) in seq.iter().enumerate() {
        assert_eq!(solver.grundy(&[n as u64]).unwrap(), u64::from(v));
    }
}

#[test]
fn a_list_of_heaps_is_worth_the_xor_of_its_heaps() {
    let mut rng = Rng::new(35);
    for code in ["0.77", "0.07", "0.6", "4.7", "0.12"] {
        let game = octal(code);
        let seq = game.sequence(40).unwrap();
        let mut solver = Solver::new(&game);
        for _ in 0..30 {
            let heaps = rng.range(1, 4) as usize;
            let p: Vec<u64> = (0..heaps).map(|_| rng.range(0, 12)).collect();
            let xor = p.iter().fold(0u64, |x, &n| x ^ u64::from(seq[n as usize]));
            assert_eq!(solver.grundy(&p).unwrap(), xor, "octal({code}) {p:?}");
            assert_eq!(
                solver.outcome(&p, Play::Normal).unwrap().is_p(),
                xor == 0,
                "octal({code}) {p:?}"
            );
        }
    }
}

#[test]
fn known_periods_are_proved() {
    // Kayles: period 12 from n = 71, the last exceptional value at n = 70 (Winning Ways, ch. 4).
    let k = octal("0.77").sequence(400).unwrap();
    assert_eq!(&k[..12], &[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
    let p = octal("0.77").periodicity(&k).unwrap();
    assert_eq!(
        (p.preperiod, p.period, p.saltus, p.proof),
        (71, 12, 0, Some(Proof::GuySmith))
    );
    // Dawson's Kayles: period 34, the last exceptional value at n = 52 (51 for Dawson's Chess below,
    // the same sequence one along, as OEIS A002187 indexes it).
    let d = octal("0.07").sequence(400).unwrap();
    let p = octal("0.07").periodicity(&d).unwrap();
    assert_eq!(
        (p.preperiod, p.period, p.proof),
        (53, 34, Some(Proof::GuySmith))
    );
    // Dawson's Chess, 0.137, is Dawson's Kayles one token along.
    let c = octal("0.137").sequence(400).unwrap();
    assert_eq!(&c[..400], &d[1..]);
    let p = octal("0.137").periodicity(&c).unwrap();
    assert_eq!(
        (p.preperiod, p.period, p.proof),
        (52, 34, Some(Proof::GuySmith))
    );
    // Subtraction games.
    let s = OctalGame::subtraction(&[1, 2, 3]).unwrap();
    let g = s.sequence(100).unwrap();
    assert!(g.iter().enumerate().all(|(n, &v)| v as usize == n % 4));
    let p = s.periodicity(&g).unwrap();
    assert_eq!(
        (p.preperiod, p.period, p.proof),
        (0, 4, Some(Proof::Window))
    );
    let s = OctalGame::subtraction(&[1, 3, 4]).unwrap();
    let g = s.sequence(100).unwrap();
    assert_eq!(&g[..14], &[0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2]);
    let p = s.periodicity(&g).unwrap();
    assert_eq!((p.preperiod, p.period), (0, 7));
    assert_eq!(p.proof, Some(Proof::Window));
}

#[test]
fn proved_periods_hold_far_past_the_check() {
    // Hexadecimal codes (moves that leave three heaps) are proved with 3·n0 + 2p + t.
    let mut proved_hex = 0;
    for code in [
        "0.77", "0.07", "0.137", "0.12", "0.31", "0.51", "4.7", "0.0", "0.3", "0.F", "0.8", "4.8",
        "0.9", "0.C", "0.B", "0.38", "0.1F",
    ] {
        let game = octal(code);
        let g = game.sequence(400).unwrap();
        let Some(p) = game.periodicity(&g) else {
            continue;
        };
        let Some(proof) = p.proof else { continue };
        // The least prefix the proof needed: the same period is proved there.
        let need = game.proof_needs(proof, p.preperiod, p.period).unwrap() as usize;
        let short = game.periodicity(&g[..=need]).unwrap();
        assert_eq!(short.proof, Some(proof), "octal({code})");
        assert_eq!((short.preperiod, short.period), (p.preperiod, p.period));
        // One value fewer: not proved by that proof with these numbers.
        if let Some(q) = game.periodicity(&g[..need]) {
            assert!(
                q.proof.is_none()
                    || (q.preperiod, q.period) != (p.preperiod, p.period)
                    || q.proof != Some(proof),
                "octal({code}) proved with one value fewer than the check reads"
            );
        }
        if game.most_parts() == 3 {
            proved_hex += 1;
        }
        let long = game.sequence(1500).unwrap();
        for n in p.preperiod as usize..long.len() - p.period as usize {
            assert_eq!(
                long[n + p.period as usize],
                long[n],
                "octal({code}) n = {n}"
            );
        }
    }
    assert!(proved_hex >= 2, "{proved_hex} hexadecimal codes proved");
}

#[test]
fn the_check_needs_a_preperiod_of_at_least_one() {
    // 0.4 (take one token, split the rest into two non-empty heaps): 0 0 0 1 ... The bound
    // 2·n0 + p + t read literally with n0 = 0, p = 1, t = 1 checks n = 0, 1 only, both hold, and
    // the period is wrong at n = 2. With max(n0, 1) the check reads g(4).
    let game = octal("0.4");
    let g = game.sequence(20).unwrap();
    assert_eq!(&g[..4], &[0, 0, 0, 1]);
    assert_eq!(game.proof_needs(Proof::GuySmith, 0, 1), Some(4));
    assert!(game.periodicity(&g[..4]).is_none_or(|p| p.proof.is_none()));
}

#[test]
fn a_period_seen_too_briefly_is_evidence_only() {
    let game = octal("0.07");
    let g = game.sequence(170).unwrap();
    let p = game.periodicity(&g).unwrap();
    assert_eq!((p.preperiod, p.period, p.proof), (53, 34, None));
    assert_eq!(p.proof_needs, Some(175));
    // Officers: no period in a short prefix.
    let o = octal("0.6");
    let g = o.sequence(300).unwrap();
    assert!(o.periodicity(&g).is_none_or(|p| p.proof.is_none()));
}

#[test]
fn huge_prefixes_are_refused() {
    let e = octal("0.07").sequence(u64::MAX).unwrap_err().to_string();
    assert!(e.contains("MiB") && !e.contains('\n'), "{e}");
    assert!(octal("0.77").sequence_work(1_000_000) > 1e11);
}
