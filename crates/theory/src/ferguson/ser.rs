//! Selective-Empty & Redistribute SER(k) (Ferguson, Some Chip Transfer Games, §4; see
//! docs/rules.md#selective-empty--redistribute-serk).

use super::{n_verdict, ok_boxes, p_verdict, power_position, redist_boxes, total};
use crate::{Scope, Theorem, Verdict};
use nimlab_core::{Game, Play};
use nimlab_games::RedistKind;

/// A nonempty set of indices among the first `m` boxes whose sum is ≡ 0 (mod k), by a dynamic
/// programme over residues (O(m k) steps).
fn zero_sum_subset(p: &[u64], m: usize, k: usize) -> Option<Vec<usize>> {
    // first[r] = (item index, previous residue or None for the singleton) for the first nonempty
    // subset found with sum ≡ r.
    let mut first: Vec<Option<(usize, Option<usize>)>> = vec![None; k];
    for (i, &x) in p.iter().enumerate().take(m) {
        let xr = (x % k as u64) as usize;
        let before: Vec<usize> = (0..k).filter(|&r| first[r].is_some()).collect();
        if first[xr].is_none() {
            first[xr] = Some((i, None));
        }
        for r in before {
            let nr = (r + xr) % k;
            if first[nr].is_none() {
                first[nr] = Some((i, Some(r)));
            }
        }
        if first[0].is_some() {
            break;
        }
    }
    let mut out = Vec::new();
    let mut r = 0usize;
    loop {
        let (i, prev) = first[r]?;
        out.push(i);
        match prev {
            None => break,
            Some(pr) => r = pr,
        }
    }
    Some(out)
}

/// Membership in the P-set of SER(k): the total is a multiple of k and no nonempty set of at most
/// k-1 boxes has a total that is a multiple of k.
pub fn ser_is_p(k: usize, p: &[u64]) -> bool {
    total(p).is_multiple_of(k as u128) && zero_sum_subset(p, p.len().saturating_sub(1), k).is_none()
}

/// Selective-Empty & Redistribute (normal play).
pub struct SerNormal;

impl Theorem for SerNormal {
    fn id(&self) -> &'static str {
        "ferguson-ser"
    }
    fn games(&self) -> &'static str {
        "SER(k)"
    }
    fn statement(&self) -> &'static str {
        "Selective-Empty & Redistribute with k boxes: the norms of P-positions are the multiples of k, and 1^(k-1) z is P for such norms. Hence (completing §4's argument) x is P iff |x| ≡ 0 (mod k) and no nonempty set of at most k-1 boxes has a total ≡ 0 (mod k). Winning move: keep a nonempty proper set of boxes with total n ≡ 0 (mod k) (one exists: among k numbers some nonempty subset sums to 0 mod k, by pigeonhole on prefix sums) and redistribute to 1^(k-1) (n-k+1)."
    }
    fn source(&self) -> &'static str {
        "Ferguson, Some Chip Transfer Games, §4 (Selective-Empty & Redistribute); Roberts, Applied Combinatorics, Ex. 8.1.26; see docs/rules.md#theorem-ferguson-ser"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn scope(&self) -> Scope {
        Scope::Complete
    }
    fn covers(&self, game: &dyn Game) -> bool {
        redist_boxes(game, RedistKind::Ser).is_some()
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let k = redist_boxes(game, RedistKind::Ser)?;
        if !ok_boxes(p, k) {
            return None;
        }
        let kk = k as u128;
        let n = total(p);
        let mut keeps: Vec<Vec<usize>> = Vec::new();
        if !n.is_multiple_of(kk) {
            // Prefix sums s_0 = 0, ..., s_k take k+1 values mod k: two agree, and not s_0, s_k.
            let mut seen: Vec<Option<usize>> = vec![None; k];
            let mut s = 0u128;
            seen[0] = Some(0);
            for (i, &x) in p.iter().enumerate() {
                s += x as u128;
                let r = (s % kk) as usize;
                if let Some(a) = seen[r] {
                    keeps.push((a..=i).collect());
                    break;
                }
                seen[r] = Some(i + 1);
            }
        } else {
            match zero_sum_subset(p, k - 1, k) {
                None => return Some(p_verdict(true)),
                Some(d) => {
                    let rest: Vec<usize> = (0..k).filter(|i| !d.contains(i)).collect();
                    keeps.push(d);
                    keeps.push(rest);
                }
            }
        }
        let moves = keeps
            .into_iter()
            .filter_map(|keep| {
                let m: u128 = keep.iter().map(|&i| p[i] as u128).sum();
                power_position(k, 1, m - (kk - 1))
            })
            .collect();
        Some(n_verdict(moves, false, None))
    }
}
