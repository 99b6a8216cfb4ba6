//! Empty & Redistribute ER(k), also EJR(k,1) (Ferguson, Some Chip Transfer Games, §4, Proposition 8
//! and Lemma 4; see docs/rules.md#empty--redistribute-erk).

use super::{ejr_boxes, n_verdict, ok_boxes, p_verdict, power_position, redist_boxes, total};
use crate::{Scope, Theorem, Verdict};
use nimlab_core::{Game, Play};
use nimlab_games::RedistKind;
use std::fmt;

fn er_k(game: &dyn Game) -> Option<usize> {
    redist_boxes(game, RedistKind::Er).or_else(|| ejr_boxes(game, |_| 1))
}

/// f(k) = min{ j >= 1 : j+1 does not divide k-1 } (k >= 2).
pub fn er_f(k: u64) -> u64 {
    let mut j = 1;
    while (k - 1).is_multiple_of(j + 1) {
        j += 1;
    }
    j
}

/// The index j with n in R_j(k), if n is in R(k) = R_1(k) ∪ ... ∪ R_f(k).
pub fn er_r_index(k: u64, n: u128) -> Option<u64> {
    let f = er_f(k);
    let kk = k as u128;
    for j in 1..=f {
        let jj = j as u128;
        let in_range = if j < f {
            jj * kk <= n && n < (jj + 1) * kk
        } else {
            n >= jj * kk
        };
        if in_range && n % (jj + 1) == (jj * (kk - 1)) % (jj + 1) {
            return Some(j);
        }
    }
    None
}

/// True when n is in S(k) = {k, k+1, ...} minus R(k): the norms of the positions x(n).
pub fn er_in_s(k: u64, n: u128) -> bool {
    n >= k as u128 && er_r_index(k, n).is_none()
}

/// For n in S(k), the pair (v, z) with x(n) = v^(k-1) z (Proposition 8); `None` when n is not in S(k).
pub fn er_x(k: u64, n: u128) -> Option<(u128, u128)> {
    if !er_in_s(k, n) {
        return None;
    }
    let f = er_f(k) as u128;
    let kk = k as u128;
    let j = if n < f * kk { n / kk } else { f };
    let v = (n - j * (kk - 1)) % (j + 1);
    Some((v, n - (kk - 1) * v))
}

/// Membership in the normal-play P-set of ER(k): no box x_i has |x| - x_i in S(k).
pub fn er_is_p(k: usize, p: &[u64]) -> bool {
    let n = total(p);
    p.iter().all(|&x| !er_in_s(k as u64, n - x as u128))
}

/// One part of R(k) as printed by `nimlab theory ER(k)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErRPart {
    pub j: u64,
    /// Least n of the range.
    pub from: u128,
    /// One past the largest n of the range; `None` for the unbounded last part R_f(k).
    pub until: Option<u128>,
    /// n ≡ residue (mod modulus).
    pub modulus: u128,
    pub residue: u128,
}

/// What `nimlab theory ER(k)` prints: f(k), the parts R_j(k), the first elements of S(k) and R(k), and
/// x(n) for n in S(k) up to a bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErSummary {
    pub k: u64,
    pub f: u64,
    pub r_parts: Vec<ErRPart>,
    /// Elements of S(k) up to the bound.
    pub s: Vec<u128>,
    /// Elements of R(k) up to the bound.
    pub r: Vec<u128>,
    /// (n, v, z) with x(n) = v^(k-1) z for n in S(k) up to the bound.
    pub x: Vec<(u128, u128, u128)>,
    pub upto: u128,
}

/// The objects of Proposition 8 for ER(k), listed up to norm `upto`. `None` when k < 2.
pub fn er_summary(k: u64, upto: u128) -> Option<ErSummary> {
    if k < 2 {
        return None;
    }
    let f = er_f(k);
    let kk = k as u128;
    let r_parts = (1..=f)
        .map(|j| {
            let jj = j as u128;
            ErRPart {
                j,
                from: jj * kk,
                until: if j < f { Some((jj + 1) * kk) } else { None },
                modulus: jj + 1,
                residue: (jj * (kk - 1)) % (jj + 1),
            }
        })
        .collect();
    let mut s = Vec::new();
    let mut r = Vec::new();
    let mut x = Vec::new();
    let mut n = kk;
    while n <= upto {
        if let Some((v, z)) = er_x(k, n) {
            s.push(n);
            x.push((n, v, z));
        } else {
            r.push(n);
        }
        n += 1;
    }
    Some(ErSummary {
        k,
        f,
        r_parts,
        s,
        r,
        x,
        upto,
    })
}

fn list(v: &[u128]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for ErSummary {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        let k = self.k;
        writeln!(
            out,
            "Empty & Redistribute ER({k}) (Ferguson, Proposition 8)"
        )?;
        writeln!(
            out,
            "f({k}) = {} (least j >= 1 with j+1 not dividing k-1 = {})",
            self.f,
            k - 1
        )?;
        for part in &self.r_parts {
            match part.until {
                Some(u) => writeln!(
                    out,
                    "R_{}({k}) = {{n : {} <= n < {}, n ≡ {} mod {}}}",
                    part.j, part.from, u, part.residue, part.modulus
                )?,
                None => writeln!(
                    out,
                    "R_{}({k}) = {{n : n >= {}, n ≡ {} mod {}}}",
                    part.j, part.from, part.residue, part.modulus
                )?,
            }
        }
        writeln!(out, "R({k}) up to {}: {{{}}}", self.upto, list(&self.r))?;
        writeln!(out, "S({k}) up to {}: {{{}}}", self.upto, list(&self.s))?;
        writeln!(out, "x(n) = v^{} z for n in S({k}):", k - 1)?;
        for &(n, v, z) in &self.x {
            let mut p = vec![v as u64; (k - 1) as usize];
            p.push(z as u64);
            writeln!(out, "  x({n}) = {}", nimlab_games::format_power(&p))?;
        }
        writeln!(
            out,
            "A position x is N iff some box x_i has |x| - x_i in S({k}); the winning move discards x_i and redistributes to x(|x| - x_i)."
        )
    }
}

/// Empty & Redistribute, Proposition 8 (normal play).
pub struct ErNormal;

impl Theorem for ErNormal {
    fn id(&self) -> &'static str {
        "ferguson-er"
    }
    fn games(&self) -> &'static str {
        "ER(k), EJR(k,1)"
    }
    fn statement(&self) -> &'static str {
        "Empty & Redistribute with k boxes: with f(k) = min{j >= 1 : j+1 does not divide k-1}, R_j(k) = {n : jk <= n < (j+1)k, n ≡ j(k-1) mod j+1} for j < f(k), R_f(k) = {n >= k f(k) : n ≡ f(k)(k-1) mod f(k)+1}, and S(k) = {k, k+1, ...} minus their union, a position x is N iff some box x_i has |x| - x_i in S(k). Winning move: discard x_i and redistribute to x(n) = v^(k-1) z, n = |x| - x_i, j = floor(n/k) if n < k f(k) else f(k), v = (n - j(k-1)) mod (j+1), z = n - (k-1)v. For even k the P-positions are the all-odd positions."
    }
    fn source(&self) -> &'static str {
        "Ferguson, Some Chip Transfer Games, §4, Proposition 8 and Lemma 4; see docs/rules.md#theorem-ferguson-er"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn scope(&self) -> Scope {
        Scope::Complete
    }
    fn covers(&self, game: &dyn Game) -> bool {
        er_k(game).is_some()
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let k = er_k(game)?;
        if !ok_boxes(p, k) {
            return None;
        }
        let n = total(p);
        let mut moves = Vec::new();
        let mut found = false;
        for &x in p {
            if let Some((v, z)) = er_x(k as u64, n - x as u128) {
                found = true;
                if let Some(q) = power_position(k, v, z) {
                    moves.push(q);
                }
            }
        }
        Some(if found {
            n_verdict(moves, false, None)
        } else {
            p_verdict(true)
        })
    }
}

/// For misère E&R, the v with x(n) = v^(k-1) z a P-position of norm n (Proposition 8, misère), or
/// `None` when every position of norm n is an N-position.
pub fn er_misere_v(k: u64, n: u128) -> Option<u128> {
    let kk = k as u128;
    if k % 2 == 1 {
        // P = {1^(k-1) z : z even}: norms n = k-1+z with z >= 2 even.
        return (n > kk && (n - (kk - 1)).is_multiple_of(2)).then_some(1);
    }
    if n > kk && n < 2 * kk {
        return (n % 2 == 1).then_some(1);
    }
    if n < 2 * kk {
        return None;
    }
    if k % 6 == 4 {
        if n < 3 * kk {
            return match (n - 2 * kk) % 3 {
                0 => Some(2),
                2 => Some(1),
                _ => None,
            };
        }
        return match (n - 3 * kk) % 4 {
            0 => Some(3),
            3 => Some(2),
            2 => Some(1),
            _ => None,
        };
    }
    // k ≡ 0, 2 (mod 6)
    match (n - 2 * kk) % 3 {
        0 => Some(2),
        2 => Some(1),
        _ => None,
    }
}

/// Membership in the misère P-set of ER(k): not terminal, and no box x_i has a norm |x| - x_i for
/// which [`er_misere_v`] names a P-position.
pub fn er_misere_is_p(k: usize, p: &[u64]) -> bool {
    let n = total(p);
    !p.iter().all(|&x| x == 1)
        && p.iter()
            .all(|&x| er_misere_v(k as u64, n - x as u128).is_none())
}

/// Empty & Redistribute, Proposition 8 (misère).
pub struct ErMisere;

impl Theorem for ErMisere {
    fn id(&self) -> &'static str {
        "ferguson-er-misere"
    }
    fn games(&self) -> &'static str {
        "ER(k), EJR(k,1)"
    }
    fn statement(&self) -> &'static str {
        "Misère Empty & Redistribute with k boxes. k odd: P = {1^(k-1) z : z even}. k ≡ 0, 2 (mod 6): x(n) = 1^(k-1) z for n odd with k < n < 2k and for n >= 2k with n-2k ≡ 2 (mod 3), x(n) = 2^(k-1) z for n >= 2k with n-2k ≡ 0 (mod 3). k ≡ 4 (mod 6): as before for n < 3k, and for n >= 3k x(n) = 3^(k-1) z, 2^(k-1) z, 1^(k-1) z when n-3k ≡ 0, 3, 2 (mod 4). All such x(n) are P-positions; for every other norm n, every position of norm n is N. A non-terminal x is N iff some |x| - x_i is such a norm; the winning move discards x_i and redistributes to x(|x| - x_i)."
    }
    fn source(&self) -> &'static str {
        "Ferguson, Some Chip Transfer Games, §4, Proposition 8 (misère); see docs/rules.md#theorem-ferguson-er-misere"
    }
    fn play(&self) -> Play {
        Play::Misere
    }
    fn scope(&self) -> Scope {
        Scope::Complete
    }
    fn covers(&self, game: &dyn Game) -> bool {
        er_k(game).is_some()
    }
    fn decide(&self, game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let k = er_k(game)?;
        if !ok_boxes(p, k) {
            return None;
        }
        if p.iter().all(|&x| x == 1) {
            // The terminal position is an N-position in misère play; there is no move.
            return Some(n_verdict(Vec::new(), true, None));
        }
        let n = total(p);
        let mut moves = Vec::new();
        let mut found = false;
        for &x in p {
            let m = n - x as u128;
            if let Some(v) = er_misere_v(k as u64, m) {
                found = true;
                if let Some(q) = power_position(k, v, m - (k as u128 - 1) * v) {
                    moves.push(q);
                }
            }
        }
        Some(if found {
            n_verdict(moves, false, None)
        } else {
            p_verdict(false)
        })
    }
}
