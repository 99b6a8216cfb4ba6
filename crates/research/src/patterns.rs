//! P-positions grouped by shape, with the linear relations each family obeys.
//!
//! The shape of a position marks each entry as `0` (empty), `m` (a smallest non-zero entry), `M` (a
//! largest entry) or `·` (anything else). Positions are taken in canonical form (for circles the least
//! rotation or reflection, so reading starts at a smallest stack, as the papers do). For each family
//! nimlab tests every relation "sum of one or two entries = sum of one or two other entries", and
//! "entry = sum of a run of three consecutive entries", keeps those that hold for every member, and
//! drops those implied by the family's equalities and zeros.

use nimlab_core::Pos;
use std::collections::BTreeMap;

/// One family of positions of the same shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Family {
    /// The grouping key ([`key`]) shared by every member.
    pub key: String,
    pub shape: String,
    pub count: usize,
    /// Relations that hold for every member, written with letters a, b, c, ... for entries 1, 2, 3, ...
    pub relations: Vec<String>,
    pub examples: Vec<Pos>,
}

/// The grouping key of a position: `0` for an empty entry, `M` for a largest entry, `·` otherwise.
pub fn key(p: &[u64]) -> String {
    let max = p.iter().copied().max().unwrap_or(0);
    p.iter()
        .map(|&x| {
            if x == 0 {
                '0'
            } else if x == max {
                'M'
            } else {
                '·'
            }
        })
        .collect()
}

/// The shape shown for a family: its key, with `m` where an entry equals the smallest non-zero entry
/// in every member.
pub fn shape(key: &str, members: &[&Pos]) -> String {
    key.chars()
        .enumerate()
        .map(|(i, ch)| {
            let at_min = members.iter().all(|p| {
                let m = p.iter().copied().filter(|&x| x > 0).min();
                p[i] > 0 && Some(p[i]) == m
            });
            if ch == '·' && at_min {
                'm'
            } else {
                ch
            }
        })
        .collect()
}

/// Candidate relations for length n, as coefficient vectors (sum of coefficient × entry = 0).
fn candidates(n: usize) -> Vec<Vec<i64>> {
    let mut sets: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
    for i in 0..n {
        for j in i + 1..n {
            sets.push(vec![i, j]);
        }
    }
    let mut out = Vec::new();
    for (x, a) in sets.iter().enumerate() {
        for b in sets.iter().skip(x + 1) {
            if a.iter().any(|i| b.contains(i)) {
                continue;
            }
            let mut c = vec![0i64; n];
            a.iter().for_each(|&i| c[i] += 1);
            b.iter().for_each(|&i| c[i] -= 1);
            out.push(c);
        }
    }
    if n >= 4 {
        for i in 0..n {
            for s in 0..n {
                let run: Vec<usize> = (0..3).map(|t| (s + t) % n).collect();
                if run.contains(&i) {
                    continue;
                }
                let mut c = vec![0i64; n];
                c[i] += 1;
                run.iter().for_each(|&j| c[j] -= 1);
                out.push(c);
            }
        }
    }
    out
}

fn letter(i: usize) -> String {
    if i < 26 {
        ((b'a' + i as u8) as char).to_string()
    } else {
        format!("x{}", i + 1)
    }
}

/// Rank of a small integer matrix (fraction-free Gaussian elimination).
fn rank(rows: &[Vec<i128>]) -> usize {
    let mut m: Vec<Vec<i128>> = rows.to_vec();
    let cols = m.first().map_or(0, |r| r.len());
    let mut r = 0;
    for c in 0..cols {
        let Some(p) = (r..m.len()).find(|&i| m[i][c] != 0) else {
            continue;
        };
        m.swap(r, p);
        for i in 0..m.len() {
            if i != r && m[i][c] != 0 {
                let (a, b) = (m[r][c], m[i][c]);
                let pivot = m[r].clone();
                for (x, &y) in m[i].iter_mut().zip(&pivot) {
                    *x = *x * a - y * b;
                }
                let g = m[i].iter().fold(0i128, |g, &x| gcd(g, x.abs()));
                if g > 1 {
                    m[i].iter_mut().for_each(|x| *x /= g);
                }
            }
        }
        r += 1;
    }
    r
}

/// `Some(v)` when `v` is not in the span of `basis`.
fn independent(basis: &[Vec<i128>], v: Vec<i128>) -> Option<Vec<i128>> {
    let mut rows = basis.to_vec();
    rows.push(v.clone());
    (rank(&rows) > basis.len()).then_some(v)
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Writes `c · p = 0` as `lhs = rhs`, leaving out zero entries.
fn show(c: &[i64], zero: &[bool]) -> String {
    let side = |sign: i64| {
        let terms: Vec<String> = c
            .iter()
            .enumerate()
            .filter(|&(i, &v)| v * sign > 0 && !zero[i])
            .map(|(i, &v)| {
                if v.abs() == 1 {
                    letter(i)
                } else {
                    format!("{}{}", v.abs(), letter(i))
                }
            })
            .collect();
        if terms.is_empty() {
            "0".to_string()
        } else {
            terms.join(" + ")
        }
    };
    format!("{} = {}", side(1), side(-1))
}

/// Groups `positions` (canonical P-positions) by shape; families by decreasing size.
pub fn families(positions: &[Pos], examples: usize) -> Vec<Family> {
    let mut groups: BTreeMap<String, Vec<&Pos>> = BTreeMap::new();
    for p in positions {
        groups.entry(key(p)).or_default().push(p);
    }
    let mut out: Vec<Family> = groups
        .into_iter()
        .map(|(key, members)| {
            let shape = shape(&key, &members);
            let n = members[0].len();
            let holds = |c: &Vec<i64>| {
                members.iter().all(|p| {
                    c.iter()
                        .zip(p.iter())
                        .map(|(&k, &x)| k as i128 * x as i128)
                        .sum::<i128>()
                        == 0
                })
            };
            let zero: Vec<bool> = shape.chars().map(|ch| ch == '0').collect();
            let all: Vec<Vec<i64>> = candidates(n).into_iter().filter(holds).collect();
            // Keep the relations in order (equalities first, then shorter ones), dropping each one that
            // the kept ones imply (zero entries count as 0; linear span over the rationals).
            let mut all = all;
            all.sort_by_key(|c| c.iter().filter(|&&v| v != 0).count());
            let mut basis: Vec<Vec<i128>> = Vec::new();
            let mut relations = Vec::new();
            for c in &all {
                let r: Vec<i128> = (0..n)
                    .map(|i| if zero[i] { 0 } else { c[i] as i128 })
                    .collect();
                if r.iter().all(|&v| v == 0) {
                    continue;
                }
                if let Some(reduced) = independent(&basis, r) {
                    basis.push(reduced);
                    relations.push(show(c, &zero));
                }
            }
            Family {
                key: key.clone(),
                count: members.len(),
                examples: members
                    .iter()
                    .take(examples)
                    .map(|p| (*p).clone())
                    .collect(),
                shape,
                relations,
            }
        })
        .collect();
    out.sort_by(|a, b| b.count.cmp(&a.count).then(a.shape.cmp(&b.shape)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn cn42_family_shows_its_equalities() {
        // CN(4,2) P-positions (a,b,a,b), canonical with a < b: shape m M m M, relations a = c, b = d.
        let ps: Vec<Pos> = (1..6u64)
            .flat_map(|a| (a + 1..8).map(move |b| vec![a, b, a, b]))
            .collect();
        let f = families(&ps, 3);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].shape, "mMmM");
        assert!(
            f[0].relations.contains(&"a = c".to_string()),
            "{:?}",
            f[0].relations
        );
        assert!(
            f[0].relations.contains(&"b = d".to_string()),
            "{:?}",
            f[0].relations
        );
        assert_eq!(f[0].relations.len(), 2, "{:?}", f[0].relations);
    }
    #[test]
    fn s1_of_cn74_shows_the_run_sum() {
        // S1: (0,0,x,d,e,f,x) with d+e+f = x.
        let mut ps = Vec::new();
        for d in 1..4u64 {
            for e in 1..4u64 {
                for f in 1..4u64 {
                    let x = d + e + f;
                    ps.push(vec![0, 0, x, d, e, f, x]);
                }
            }
        }
        let f = families(&ps, 2);
        assert_eq!(f[0].shape, "00M···M");
        assert!(
            f[0].relations.contains(&"c = g".to_string()),
            "{:?}",
            f[0].relations
        );
        assert!(
            f[0].relations.contains(&"c = d + e + f".to_string()),
            "{:?}",
            f[0].relations
        );
    }
}
