//! discover on ET(3) and ENTROPY(3) (normal play): the P-set learned as an automaton from an exact
//! table and proved for every box size; the automaton is compared here with a search of the game
//! written in this test, on a box larger than the one it was learned from.

use nimlab_core::Play;
use nimlab_discover::{discover, DiscoveryVerdict, Options};
use std::collections::HashMap;
use std::time::Duration;

/// P-positions by plain recursion over sorted triples: ET empties box i and moves t chips of box j
/// into it (1 <= t < x_j); ENTROPY moves t chips from a box to one holding fewer, 1 <= t < x_i - x_j.
fn is_p(entropy: bool, x: [u64; 3], memo: &mut HashMap<[u64; 3], bool>) -> bool {
    let mut key = x;
    key.sort_unstable();
    if let Some(&p) = memo.get(&key) {
        return p;
    }
    let mut p = true;
    'all: for i in 0..3 {
        for j in 0..3 {
            if i == j {
                continue;
            }
            let top = if entropy {
                if x[i] < x[j] + 2 {
                    continue;
                }
                x[i] - x[j] - 1
            } else {
                x[j].saturating_sub(1)
            };
            for t in 1..=top {
                let mut y = x;
                if entropy {
                    y[i] -= t;
                    y[j] += t;
                } else {
                    y[i] = t;
                    y[j] = x[j] - t;
                }
                if is_p(entropy, y, memo) {
                    p = false;
                    break 'all;
                }
            }
        }
    }
    memo.insert(key, p);
    p
}

fn learned(game: &str, max: u64) -> nimlab_prove::automata::Dfa {
    let opts = Options {
        max: Some(max),
        timeout: Duration::from_secs(300),
        ..Options::default()
    };
    let d = discover(game, &opts).unwrap();
    assert_eq!(
        d.verdict,
        DiscoveryVerdict::Proved,
        "{game}: {:?}",
        d.reason
    );
    assert_eq!(d.prover, Some("automata"));
    assert_eq!(d.box_max, Some(max));
    nimlab_prove::walnut::from_walnut(d.walnut.as_deref().unwrap(), 3).unwrap()
}

#[test]
fn et3_and_entropy3_are_discovered_by_automata_and_match_a_search() {
    for (game, entropy, lo) in [("ET(3)", false, 1u64), ("ENTROPY(3)", true, 0)] {
        // Learned on entries below 64; compared with the search on every ordered position with
        // entries up to 40, and on the entries 60..=84, past the learning box.
        let dfa = learned(game, 63);
        let mut memo = HashMap::new();
        let mut members = 0;
        let near: Vec<u64> = (lo..=40).collect();
        let far: Vec<u64> = (60..=84).collect();
        for range in [&near, &far] {
            for &a in range {
                for &b in range {
                    for &c in range {
                        let p = is_p(entropy, [a, b, c], &mut memo);
                        let said = dfa.accepts(&[a as u128, b as u128, c as u128]);
                        assert_eq!(said, p, "{game} ({a},{b},{c})");
                        members += usize::from(p);
                    }
                }
            }
        }
        assert!(members > 100, "{game}: {members} P-positions");
    }
}

#[test]
fn what_the_automaton_route_does_not_take_is_refused_in_one_line() {
    let run = |game: &str, opts: Options| discover(game, &opts).unwrap_err().to_string();
    let misere = Options {
        play: Play::Misere,
        ..Options::default()
    };
    assert!(run("ET(3)", misere).contains("normal play only"));
    let big = Options {
        max: Some(5000),
        ..Options::default()
    };
    assert!(run("ENTROPY(3)", big).contains("--max 7 to 1023"));
    let by_sum = Options {
        max_sum: Some(40),
        ..Options::default()
    };
    assert!(run("ET(3)", by_sum).contains("--max H"));
    assert!(run("ET(4)", Options::default()).contains("ET(3) and ENTROPY(3)"));
}
