//! `discover` finds and proves its answers with the theory registry unavailable (every lookup finds
//! nothing in this test process); the answer is compared with a plain exhaustive search of CN(4,2)
//! written here from the rules.

mod common;

use common::{conjecture, each_tuple, have_z3, run};
use nimlab_discover::DiscoveryVerdict;

/// P-positions of CN(4,2) in [0..=h]^4 by plain search: a move takes at least one token from the
/// stacks of one window of two adjacent stacks (i, i+1 mod 4).
fn brute_cn42(h: u64) -> Vec<bool> {
    let b = (h + 1) as usize;
    let idx = |p: &[u64]| p.iter().fold(0usize, |a, &v| a * b + v as usize);
    let mut p_pos = vec![false; b.pow(4)];
    // Every option has a smaller sum: visit positions by increasing sum.
    let mut all: Vec<Vec<u64>> = Vec::new();
    each_tuple(4, 0, h, &mut |p| all.push(p.to_vec()));
    all.sort_by_key(|p| p.iter().sum::<u64>());
    for p in &all {
        let mut has_p_option = false;
        'w: for i in 0..4 {
            let j = (i + 1) % 4;
            for x in 0..=p[i] {
                for y in 0..=p[j] {
                    if x == p[i] && y == p[j] {
                        continue;
                    }
                    let mut q = p.clone();
                    q[i] = x;
                    q[j] = y;
                    if p_pos[idx(&q)] {
                        has_p_option = true;
                        break 'w;
                    }
                }
            }
        }
        p_pos[idx(p)] = !has_p_option;
    }
    p_pos
}

#[test]
fn discover_runs_without_the_registry() {
    nimlab_theory::set_registry_unavailable(true);
    assert!(nimlab_theory::by_id("cn-4-2").is_none());
    assert!(nimlab_theory::registry().is_empty());
    if !have_z3("discover_runs_without_the_registry") {
        return;
    }
    let d = run("CN(4,2)", None);
    assert_eq!(d.verdict, DiscoveryVerdict::Proved, "{:?}", d.reason);
    let c = conjecture(&d);
    let h = 12;
    let brute = brute_cn42(h);
    let b = (h + 1) as usize;
    let mut n = 0;
    each_tuple(4, 0, h, &mut |p| {
        let i = p.iter().fold(0usize, |a, &v| a * b + v as usize);
        assert_eq!(c.contains(p), brute[i], "{p:?}");
        n += 1;
    });
    assert_eq!(n, 13usize.pow(4));
    let d = run("SCN(4,2)", None);
    assert_eq!(d.verdict, DiscoveryVerdict::Proved, "{:?}", d.reason);
    assert!(nimlab_theory::registry().is_empty());
}
