//! Empty-All-But-One EABO(k), also EJR(k,k-1) (Ferguson, Some Chip Transfer Games, §3,
//! Proposition 7; see docs/rules.md#empty-all-but-one-eabok).

use super::{ejr_boxes, n_verdict, ok_boxes, p_verdict, redist_boxes};
use crate::{Scope, Theorem, Verdict};
use nimlab_core::{Game, Play, Pos};
use nimlab_games::RedistKind;

fn eabo_k(game: &dyn Game) -> Option<usize> {
    redist_boxes(game, RedistKind::Eabo).or_else(|| ejr_boxes(game, |k| k - 1))
}

/// Membership in the normal-play P-set of EABO(k) (Proposition 7).
pub fn eabo_is_p(k: usize, p: &[u64]) -> bool {
    let m = (k as u128) * (k as u128 - 1);
    p.iter().all(|&x| {
        let r = x as u128 % m;
        r >= 1 && r < k as u128
    })
}

/// Splits `r` into `k` parts, each between `lo_each` and `cap`, starting from `start` (a vector of
/// k starting values, each <= cap), filling greedily. The caller guarantees it fits.
fn fill_greedy(start: Vec<u128>, cap: u128, mut extra: u128) -> Vec<u128> {
    let mut v = start;
    for x in v.iter_mut() {
        let add = (cap - *x).min(extra);
        *x += add;
        extra -= add;
    }
    v
}

/// E&R's winning-move construction from box `x` for EABO (normal play): a split of x into k parts,
/// every part 1..k-1 modulo k(k-1).
fn eabo_split(k: usize, x: u64) -> Option<Pos> {
    let kk = k as u128;
    let m = kk * (kk - 1);
    let r = x as u128 % m;
    if (1..kk).contains(&r) || (x as u128) < kk {
        return None;
    }
    let target = if r == 0 { m } else { r };
    let mut v = fill_greedy(vec![1; k], kk - 1, target - kk);
    v[k - 1] += x as u128 - target;
    Some(v.into_iter().map(|y| y as u64).collect())
}

/// Empty-All-But-One, Proposition 7 (normal play).
pub struct EaboNormal;

impl Theorem for EaboNormal {
    fn id(&self) -> &'static str {
        "ferguson-eabo"
    }
    fn games(&self) -> &'static str {
        "EABO(k), EJR(k,k-1)"
    }
    fn statement(&self) -> &'static str {
        "Empty-All-But-One with k boxes: P iff 1 <= n_i mod k(k-1) < k for every box. Winning move: keep a box whose residue mod k(k-1) is 0 or >= k and split it into k parts whose residues lie in 1..k-1."
    }
    fn source(&self) -> &'static str {
        "Ferguson, Some Chip Transfer Games, §3, Proposition 7; see docs/rules.md#theorem-ferguson-eabo"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn scope(&self) -> Scope {
        Scope::Complete
    }
    fn covers(&self, game: &dyn Game) -> bool {
        eabo_k(game).is_some()
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let k = eabo_k(game)?;
        if !ok_boxes(p, k) {
            return None;
        }
        if eabo_is_p(k, p) {
            return Some(p_verdict(true));
        }
        let moves = p.iter().filter_map(|&x| eabo_split(k, x)).collect();
        Some(n_verdict(moves, false, None))
    }
}

/// Membership in the misère P-set of EABO(k) (Proposition 7, misère).
pub fn eabo_misere_is_p(k: usize, p: &[u64]) -> bool {
    let kk = k as u128;
    let q = (kk - 1) * (2 * kk - 1);
    let ok = |x: u64| {
        let x = x as u128;
        (1..kk).contains(&x) || (kk..=2 * kk - 2).contains(&(x % q))
    };
    p.iter().all(|&x| ok(x)) && p.iter().any(|&x| x as u128 >= kk)
}

fn eabo_misere_split(k: usize, x: u64) -> Option<Pos> {
    let kk = k as u128;
    let q = (kk - 1) * (2 * kk - 1);
    let xx = x as u128;
    let r = xx % q;
    if xx < kk || (kk..=2 * kk - 2).contains(&r) {
        return None;
    }
    let target = if r >= 2 * kk - 1 { r } else { r + q };
    if target > xx {
        return None;
    }
    let mut start = vec![1u128; k];
    start[0] = kk;
    let mut v = fill_greedy(start, 2 * kk - 2, target - (2 * kk - 1));
    v[0] += xx - target;
    Some(v.into_iter().map(|y| y as u64).collect())
}

/// Empty-All-But-One, Proposition 7 (misère).
pub struct EaboMisere;

impl Theorem for EaboMisere {
    fn id(&self) -> &'static str {
        "ferguson-eabo-misere"
    }
    fn games(&self) -> &'static str {
        "EABO(k), EJR(k,k-1)"
    }
    fn statement(&self) -> &'static str {
        "Misère Empty-All-But-One with k boxes, q = (k-1)(2k-1): P iff every box has 1 <= n_i <= k-1 or k <= n_i mod q <= 2k-2, and not all n_i < k. Winning move: keep a box n_i >= k whose residue mod q is not in k..2k-2 and split it into parts in 1..2k-2 (plus a multiple of q on a part >= k), at least one part >= k."
    }
    fn source(&self) -> &'static str {
        "Ferguson, Some Chip Transfer Games, §3, Proposition 7 (misère); see docs/rules.md#theorem-ferguson-eabo-misere"
    }
    fn play(&self) -> Play {
        Play::Misere
    }
    fn scope(&self) -> Scope {
        Scope::Complete
    }
    fn covers(&self, game: &dyn Game) -> bool {
        eabo_k(game).is_some()
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let k = eabo_k(game)?;
        if !ok_boxes(p, k) {
            return None;
        }
        if eabo_misere_is_p(k, p) {
            return Some(p_verdict(false));
        }
        let moves = p.iter().filter_map(|&x| eabo_misere_split(k, x)).collect();
        Some(n_verdict(moves, false, None))
    }
}
