//! Research with the chip games' automata (ignored tests, run by hand; docs/findings.md §11.2): a
//! set learned from tables of boxes [0, 2^B)^k ([`nimlab_prove::learn`]), then put to the automata
//! prover for every box size. The tables are computed here by the recursion over the options (ET:
//! positions by total, a box of 0 is not a position; ENTROPY: positions by sum of squares, which
//! every move lowers).
//!
//! `cargo test -p nimlab-prove --test chips_learn -- --ignored --nocapture`

use nimlab_core::Play;
use nimlab_prove::chips::{automaton_claim, prove_chips_automata};
use nimlab_prove::learn::{learn, LearnOptions, Outcome, Table};
use std::time::{Duration, Instant};

/// The P-bits of every tuple of [0, 2^bits)^k, indexed with box 0 most significant.
fn p_bits(entropy: bool, k: usize, bits: u32, play: Play) -> Vec<bool> {
    let n = 1usize << bits;
    let size = n.pow(k as u32);
    let digits = |mut i: usize| -> Vec<usize> {
        let mut x = vec![0; k];
        for b in (0..k).rev() {
            x[b] = i % n;
            i /= n;
        }
        x
    };
    let index = |x: &[usize]| x.iter().fold(0usize, |a, &v| a * n + v);
    let key = |x: &[usize]| -> usize {
        if entropy {
            x.iter().map(|v| v * v).sum()
        } else {
            x.iter().sum()
        }
    };
    let mut order: Vec<u32> = (0..size as u32).collect();
    order.sort_by_cached_key(|&i| key(&digits(i as usize)));
    let mut p = vec![false; size];
    for &i in &order {
        let x = digits(i as usize);
        if !entropy && x.contains(&0) {
            continue;
        }
        let mut any = false;
        let mut to_p = false;
        'moves: for a in 0..k {
            for b in 0..k {
                if a == b {
                    continue;
                }
                let mut y = x.clone();
                if entropy {
                    // From box a to box b.
                    if x[a] < x[b] + 2 {
                        continue;
                    }
                    for t in 1..x[a] - x[b] {
                        y[a] = x[a] - t;
                        y[b] = x[b] + t;
                        any = true;
                        if p[index(&y)] {
                            to_p = true;
                            break 'moves;
                        }
                    }
                } else {
                    // Empty box a, move t chips of box b into it.
                    for t in 1..x[b] {
                        y[a] = t;
                        y[b] = x[b] - t;
                        any = true;
                        if p[index(&y)] {
                            to_p = true;
                            break 'moves;
                        }
                    }
                }
            }
        }
        p[i as usize] = if any { !to_p } else { play == Play::Normal };
    }
    p
}

/// Learns the P-set of `game` (k boxes) from boxes up to 2^max_bits, and proves what is learned.
fn learn_and_prove(game: &str, entropy: bool, k: usize, play: Play, max_bits: u32) {
    let t0 = Instant::now();
    let mut table = |bits: u32| {
        let p = p_bits(entropy, k, bits, play);
        let n = 1usize << bits;
        Table::from_fn(k, bits, |x| {
            p[x.iter().fold(0usize, |a, &v| a * n + v as usize)]
        })
    };
    let opts = LearnOptions {
        min_bits: 2,
        max_bits,
        check_bits: None,
        max_states: 100_000,
        deadline: Some(Instant::now() + Duration::from_secs(300)),
    };
    let outcome = learn(k, &mut table, &opts, &mut |r| {
        println!(
            "{game} {}: box below 2^{}: {} (table {:.2} s, learning {:.2} s)",
            play.name(),
            r.bits,
            r.states
                .map_or("no automaton (box too small)".to_string(), |s| format!(
                    "{s} states"
                )),
            r.table_seconds,
            r.learn_seconds
        )
    })
    .unwrap();
    match outcome {
        Outcome::Stable { dfa, bits, .. } => {
            println!(
                "{game} {}: stable from 2^{bits} on, {} states ({:.2} s); proving",
                play.name(),
                dfa.states(),
                t0.elapsed().as_secs_f64()
            );
            let c = automaton_claim(game, &dfa, play, "learned").unwrap();
            let r = prove_chips_automata(&c, Some(&dfa), Duration::from_secs(300)).unwrap();
            let conds: Vec<String> = r
                .report
                .conditions
                .iter()
                .map(|c| {
                    format!(
                        "{} {} {:?}",
                        c.condition.name(),
                        c.status.name(),
                        c.counterexample.as_ref().map(|x| (&x.position, &x.move_to))
                    )
                })
                .collect();
            println!(
                "{game} {}: {} in {:.2} s: {}; states {:?}",
                play.name(),
                r.report.verdict.name(),
                r.report.seconds,
                conds.join("; "),
                r.states
            );
        }
        Outcome::Refuted { bits, at, .. } => {
            println!("{game}: learned at 2^{bits}, refuted by the check box at {at:?}")
        }
        Outcome::Unstable { last } => println!(
            "{game} {}: no two consecutive boxes agreed up to 2^{max_bits} (last: {:?} states; {:.2} s)",
            play.name(),
            last.map(|l| l.dfa.states()),
            t0.elapsed().as_secs_f64()
        ),
    }
}

#[test]
#[ignore = "research, minutes: docs/findings.md §11.2"]
fn controls_normal_et3_and_entropy3() {
    learn_and_prove("ET(3)", false, 3, Play::Normal, 6);
    learn_and_prove("ENTROPY(3)", true, 3, Play::Normal, 6);
}

#[test]
#[ignore = "research, minutes: docs/findings.md §11.2"]
fn misere_et3() {
    learn_and_prove("ET(3)", false, 3, Play::Misere, 8);
}

#[test]
#[ignore = "research, minutes: docs/findings.md §11.2"]
fn et5() {
    learn_and_prove("ET(5)", false, 5, Play::Normal, 5);
}

#[test]
#[ignore = "research, minutes: docs/findings.md §11.2"]
fn entropy4() {
    learn_and_prove("ENTROPY(4)", true, 4, Play::Normal, 6);
}

/// How far misère ET(3)'s P-set is from the normal one (ET(3): equal 2-adic valuations) on boxes
/// below 2^B: the positions (ordered, boxes >= 1) in one set only, and the largest box among them.
#[test]
#[ignore = "research, seconds: docs/findings.md §11.2"]
fn misere_et3_against_normal() {
    for bits in 3..=7u32 {
        let (n, m) = (
            p_bits(false, 3, bits, Play::Normal),
            p_bits(false, 3, bits, Play::Misere),
        );
        let size = 1usize << bits;
        let mut differ = 0;
        let mut largest = 0;
        let mut p = 0;
        for i in 0..n.len() {
            p += usize::from(m[i]);
            if n[i] != m[i] {
                differ += 1;
                let x = [i / (size * size), (i / size) % size, i % size];
                largest = largest.max(*x.iter().min().unwrap());
            }
        }
        println!(
            "below 2^{bits}: {p} misère P-positions, {differ} differ from normal play, the largest smallest box among them {largest}"
        );
    }
}
