//! The two reductions of ECN games that docs/rules.md ("ECN isomorphisms") states and the theory's
//! complex entries and scripts/ecn-table.sh rely on, checked on every ECN(m,S,k) with m <= 12 against
//! facets written out here from the rules (not through nimlab's constructor):
//! - multiplying the stacks by a unit u mod m maps the facets of ECN(m,S,k) exactly onto those of
//!   ECN(m,uS,k), each step s becoming min(us mod m, m - us mod m);
//! - with g = gcd(m, S) > 1, the stacks r, r+g, r+2g, ... carry exactly the facets of
//!   ECN(m/g, S/g, min(k, m/g)) (stack r + jg as stack j), and no facet meets two classes.

use nimlab_games::complex::Complex;
use std::collections::BTreeSet;

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The faces of ECN(m,S,k) from the rules: every {i, i+s, ..., i+(j-1)s} with j <= k, as sets (a
/// progression that comes back to its start stops there); the facets are the maximal ones.
fn facets_by_rule(m: usize, steps: &[usize], k: usize) -> BTreeSet<BTreeSet<usize>> {
    let mut faces: BTreeSet<BTreeSet<usize>> = BTreeSet::new();
    for &s in steps {
        for i in 0..m {
            let f: BTreeSet<usize> = (0..k).map(|j| (i + j * s) % m).collect();
            faces.insert(f);
        }
    }
    faces
        .iter()
        .filter(|f| !faces.iter().any(|g| g != *f && f.is_subset(g)))
        .cloned()
        .collect()
}

fn facets_of(c: &Complex) -> BTreeSet<BTreeSet<usize>> {
    c.facets()
        .iter()
        .map(|f| f.iter().copied().collect())
        .collect()
}

/// Every non-empty S of steps in 1..=m/2.
fn step_sets(m: usize) -> Vec<Vec<usize>> {
    let h = m / 2;
    (1u32..1 << h)
        .map(|mask| (1..=h).filter(|s| mask >> (s - 1) & 1 == 1).collect())
        .collect()
}

#[test]
fn units_and_common_factors_map_facets_exactly() {
    let mut checked = (0, 0);
    for m in 2..=12usize {
        for steps in step_sets(m) {
            for k in 1..=m {
                let c = Complex::ecn(m, &steps, k).unwrap();
                let mine = facets_by_rule(m, &steps, k);
                assert_eq!(facets_of(&c), mine, "ECN({m},{steps:?},{k})");
                for u in (2..m).filter(|&u| gcd(u, m) == 1) {
                    let image_steps: Vec<usize> = steps
                        .iter()
                        .map(|&s| {
                            let r = u * s % m;
                            r.min(m - r)
                        })
                        .collect();
                    let image: BTreeSet<BTreeSet<usize>> = mine
                        .iter()
                        .map(|f| f.iter().map(|&i| u * i % m).collect())
                        .collect();
                    assert_eq!(
                        image,
                        facets_by_rule(m, &image_steps, k),
                        "ECN({m},{steps:?},{k}) times {u}"
                    );
                    checked.0 += 1;
                }
                let g = steps.iter().fold(m, |a, &s| gcd(a, s));
                if g > 1 {
                    let small: Vec<usize> = steps.iter().map(|s| s / g).collect();
                    let part = facets_by_rule(m / g, &small, k.min(m / g));
                    for f in &mine {
                        let r = f.iter().next().unwrap() % g;
                        assert!(
                            f.iter().all(|i| i % g == r),
                            "ECN({m},{steps:?},{k}): {f:?}"
                        );
                    }
                    for r in 0..g {
                        let class: BTreeSet<BTreeSet<usize>> = mine
                            .iter()
                            .filter(|f| f.iter().next().unwrap() % g == r)
                            .map(|f| f.iter().map(|i| (i - r) / g).collect())
                            .collect();
                        assert_eq!(class, part, "ECN({m},{steps:?},{k}), class {r} mod {g}");
                    }
                    checked.1 += 1;
                }
            }
        }
    }
    assert!(checked.0 > 1000 && checked.1 > 100, "{checked:?}");
}
