//! Entropy Reduction with three boxes, ENTROPY(3) (Ferguson, Some Chip Transfer Games, §5,
//! Proposition 9; see docs/rules.md#entropy-reduction-entropyk).

use super::{n_verdict, p_verdict, sorted, v2};
use crate::{Scope, Theorem, Verdict};
use nimlab_core::{Game, Play, Pos};
use nimlab_games::EntropyReduction;

/// (max − min, mid − min) of a three-box position.
fn entropy_norm(p: &[u64]) -> (u64, u64) {
    let s = sorted(p);
    (s[2] - s[0], s[1] - s[0])
}

/// Membership in the normal-play P-set of ENTROPY(3) (Proposition 9): two boxes are equal and the
/// difference d to the third is 0 or 4^n times an odd number.
pub fn entropy3_is_p(p: &[u64]) -> bool {
    let (x, y) = entropy_norm(p);
    (y == 0 || y == x) && (x == 0 || v2(x).is_multiple_of(2))
}

/// Membership in the misère P-set of ENTROPY(3) (Proposition 9, misère), in the notation (x, y) =
/// (max − min, mid − min).
pub fn entropy3_misere_is_p(p: &[u64]) -> bool {
    let (x, y) = entropy_norm(p);
    if matches!((x, y), (2, 0) | (2, 1) | (2, 2) | (5, 2) | (5, 3)) {
        return true;
    }
    if x == 0 || !(y == 0 || y == x) {
        return false;
    }
    let e = v2(x);
    let m = x >> e;
    if e % 2 == 1 {
        // P2: x = 4^n 2m with m in {3, 7}.
        m == 3 || m == 7
    } else {
        // P3: x = 4^n m, m odd, m not 3 or 7, and m != 1 when n <= 1.
        m != 3 && m != 7 && !(m == 1 && e / 2 <= 1)
    }
}

/// Every move of a three-box position that lands in the set `is_p`, found among O(1) candidates: a
/// move transfers t chips from a box of A to a box of C < A with the third box w fixed; a P-position
/// has two equal boxes or (misère) max − min <= 5, so t is within 5 of A − w, w − C or (A − C)/2.
fn entropy3_moves(p: &[u64], is_p: fn(&[u64]) -> bool) -> Vec<Pos> {
    let s = sorted(p);
    let mut out = Vec::new();
    for from in 0..3 {
        for to in 0..3 {
            // (`s[to] + 1` would wrap at 2^64 - 1: compare the difference instead.)
            if from == to || s[from] <= s[to] || s[from] - s[to] <= 1 {
                continue;
            }
            let w = s[3 - from - to] as i128;
            let (a, c) = (s[from] as i128, s[to] as i128);
            let mut cands: Vec<i128> = Vec::new();
            for centre in [a - w, w - c, (a - c) / 2] {
                for d in -5..=5 {
                    cands.push(centre + d);
                }
            }
            for t in cands {
                if t < 1 || t > a - c - 1 {
                    continue;
                }
                let q = vec![(a - t) as u64, (c + t) as u64, w as u64];
                if is_p(&q) {
                    out.push(q);
                }
            }
        }
    }
    out
}

fn entropy_k3(game: &dyn Game) -> bool {
    game.downcast_ref::<EntropyReduction>()
        .is_some_and(|g| g.k == 3)
}

/// Entropy Reduction with three boxes, Proposition 9 (normal play).
pub struct Entropy3Normal;

impl Theorem for Entropy3Normal {
    fn id(&self) -> &'static str {
        "ferguson-entropy-k3"
    }
    fn games(&self) -> &'static str {
        "ENTROPY(3)"
    }
    fn statement(&self) -> &'static str {
        "Entropy Reduction with three boxes: P iff the position is (x,x,y) with x = y or |x-y| = 4^n m, m odd. From an N-position a winning move transfers chips from the largest box to the smallest (to (x,u,u) with u = (x+y)/2, or until one box equals the middle one, or to the midpoint). All winning moves are listed."
    }
    fn source(&self) -> &'static str {
        "Ferguson, Some Chip Transfer Games, §5, Proposition 9; see docs/rules.md#theorem-ferguson-entropy-k3"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn scope(&self) -> Scope {
        Scope::Complete
    }
    fn covers(&self, game: &dyn Game) -> bool {
        entropy_k3(game)
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        if !entropy_k3(game) || p.len() != 3 {
            return None;
        }
        if entropy3_is_p(p) {
            return Some(p_verdict(true));
        }
        Some(n_verdict(entropy3_moves(p, entropy3_is_p), true, None))
    }
}

/// Entropy Reduction with three boxes, Proposition 9 (misère).
pub struct Entropy3Misere;

impl Theorem for Entropy3Misere {
    fn id(&self) -> &'static str {
        "ferguson-entropy-k3-misere"
    }
    fn games(&self) -> &'static str {
        "ENTROPY(3)"
    }
    fn statement(&self) -> &'static str {
        "Misère Entropy Reduction with three boxes, writing a position as (x,y) = (max-min, mid-min): P = {(2,0),(2,1),(2,2),(5,2),(5,3)} ∪ {(x,0),(x,x) : x = 4^n 2m, m in {3,7}} ∪ {(x,0),(x,x) : x = 4^n m, m odd, m not 3 or 7, m != 1 when n <= 1}. All winning moves are listed."
    }
    fn source(&self) -> &'static str {
        "Ferguson, Some Chip Transfer Games, §5, Proposition 9 (misère); see docs/rules.md#theorem-ferguson-entropy-k3-misere"
    }
    fn play(&self) -> Play {
        Play::Misere
    }
    fn scope(&self) -> Scope {
        Scope::Complete
    }
    fn covers(&self, game: &dyn Game) -> bool {
        entropy_k3(game)
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        if !entropy_k3(game) || p.len() != 3 {
            return None;
        }
        if entropy3_misere_is_p(p) {
            return Some(p_verdict(false));
        }
        Some(n_verdict(
            entropy3_moves(p, entropy3_misere_is_p),
            true,
            None,
        ))
    }
}
