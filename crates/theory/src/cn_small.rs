//! The solved small Circular Nim games (Dufour & Heubach, Circular Nim Games (2013); Oginuma &
//! Shinoda, Shrinking Circular Nim (2024); see docs/rules.md#circular-nim-cnnk): CN(5,2), CN(5,3),
//! CN(6,3), CN(6,4) and CN(8,6). Each P-set is a union of linear templates ([`Family`]) except
//! CN(6,4), whose nim-sum condition is solved bit by bit. Winning moves are constructed for stacks of
//! any size.

use crate::linear::{Family, FamilyTheorem};
use crate::{Scope, Theorem, Verdict};
use nimlab_core::{Game, Play, Pos};

pub fn cn52() -> FamilyTheorem {
    FamilyTheorem::new(
        "cn-5-2",
        "CN(5,2)",
        "In CN(5,2) the P-positions are, up to rotation and reflection, (M, m, a, b, m) with m the minimum, M the maximum of the five stacks and a + b = M + m. Winning move: for each window of two stacks and each placement of the template, the three kept stacks determine the target (or leave one stack free, taken as large as allowed).",
        "Oginuma & Shinoda, Shrinking Circular Nim (2024), Thm 3.1 (after Dufour 1996, Ehrenborg & Steingrímsson 1996); see docs/rules.md#theorem-cn-5-2",
        "CN",
        5,
        2,
        || {
            vec![Family::new(
                "(M,m,a,b,m)",
                "(M, m, a, b, m) with m = min, M = max, a + b = M + m",
                5,
                &["b = e", "c + d = a + b", "b <= c", "b <= d", "a >= c", "a >= d"],
            )]
        },
    )
}

pub fn cn53() -> FamilyTheorem {
    FamilyTheorem::new(
        "cn-5-3",
        "CN(5,3)",
        "In CN(5,3) the P-positions are, up to rotation and reflection, (x, 0, x, a, b) with x = a + b.",
        "Oginuma & Shinoda, Shrinking Circular Nim (2024), Thm 3.3; Dufour, Heubach & Vo, Circular Nim Games CN(7,4), §3; see docs/rules.md#theorem-cn-5-3",
        "CN",
        5,
        3,
        || {
            vec![Family::new(
                "(x,0,x,a,b)",
                "(x, 0, x, a, b) with x = a + b",
                5,
                &["b = 0", "a = c", "a = d + e"],
            )]
        },
    )
}

pub fn cn63() -> FamilyTheorem {
    FamilyTheorem::new(
        "cn-6-3",
        "CN(6,3)",
        "In CN(6,3) the P-positions are (a, b+q, c, a+q, b, c+q), q >= 0, up to rotation and reflection; equivalently a_i + a_(i+1) = a_(i+3) + a_(i+4) for every i (opposite stacks differ by the same amount, with alternating sign).",
        "Dufour & Heubach, Circular Nim Games (2013); Oginuma & Shinoda, Shrinking Circular Nim (2024), §3.2.2; see docs/rules.md#theorem-cn-6-3",
        "CN",
        6,
        3,
        || {
            vec![Family::new(
                "(a,b+q,c,a+q,b,c+q)",
                "(a, b+q, c, a+q, b, c+q), q >= 0: opposite differences equal",
                6,
                &["a + b = d + e", "b + c = e + f"],
            )]
        },
    )
}

pub fn cn86() -> FamilyTheorem {
    FamilyTheorem::new(
        "cn-8-6",
        "CN(8,6)",
        "In CN(8,6) the P-positions are, up to rotation and reflection, (0, M, a, M-a, α, M-b, b, M) with a, b <= M = max and α = min(M, a+b).",
        "Oginuma & Shinoda, Shrinking Circular Nim (2024), Thm 3.8 (Dufour & Heubach 2013); see docs/rules.md#theorem-cn-8-6",
        "CN",
        8,
        6,
        || {
            vec![
                Family::new(
                    "α=M",
                    "(0, M, a, M-a, α, M-b, b, M) with α = M <= a + b",
                    8,
                    &["a = 0", "b = h", "c + d = b", "f + g = b", "e = b", "c + g >= b"],
                ),
                Family::new(
                    "α=a+b",
                    "(0, M, a, M-a, α, M-b, b, M) with α = a + b <= M",
                    8,
                    &["a = 0", "b = h", "c + d = b", "f + g = b", "e = c + g", "c + g <= b"],
                ),
            ]
        },
    )
}

/// CN(6,4): P iff opposite differences are equal (as in CN(6,3)) and the three smaller stacks of the
/// opposite pairs have nim-sum 0.
pub struct Cn64;

/// Membership in the P-set of CN(6,4).
pub fn cn64_is_p(x: &[u64]) -> bool {
    let d = |i: usize, j: usize| x[i] as i128 - x[j] as i128;
    d(0, 3) == d(4, 1)
        && d(4, 1) == d(2, 5)
        && x[0].min(x[3]) ^ x[1].min(x[4]) ^ x[2].min(x[5]) == 0
}

/// Some `u` in `[lo, hi]` with `u ^ a <= b` and `u & a >= c`, found digit by digit (most significant
/// first) with memoized dead states, so in O(64 * 16) steps.
fn digit_search(lo: u64, hi: u64, a: u64, b: u64, c: u64) -> Option<u64> {
    if lo > hi {
        return None;
    }
    let mut dead = [[false; 16]; 65];
    fn go(
        bit: i32,
        flags: usize,
        u: u64,
        v: &(u64, u64, u64, u64, u64),
        dead: &mut [[bool; 16]; 65],
    ) -> Option<u64> {
        if bit < 0 {
            return Some(u);
        }
        if dead[bit as usize][flags] {
            return None;
        }
        let (lo, hi, a, b, c) = *v;
        let bt = |x: u64| (x >> bit) & 1;
        for x in [0u64, 1] {
            let (gt_lo, lt_hi, lt_b, gt_c) = (
                flags & 1 != 0,
                flags & 2 != 0,
                flags & 4 != 0,
                flags & 8 != 0,
            );
            if !gt_lo && x < bt(lo) || !lt_hi && x > bt(hi) {
                continue;
            }
            let xa = x ^ bt(a);
            if !lt_b && xa > bt(b) {
                continue;
            }
            let ya = x & bt(a);
            if !gt_c && ya < bt(c) {
                continue;
            }
            let nf = usize::from(gt_lo || x > bt(lo))
                | usize::from(lt_hi || x < bt(hi)) << 1
                | usize::from(lt_b || xa < bt(b)) << 2
                | usize::from(gt_c || ya > bt(c)) << 3;
            if let Some(r) = go(bit - 1, nf, u | x << bit, v, dead) {
                return Some(r);
            }
        }
        dead[bit as usize][flags] = true;
        None
    }
    go(63, 0, 0, &(lo, hi, a, b, c), &mut dead)
}

/// `max(0, ceil(r / 2))` for an `i128`, as u64 (saturating).
fn half_up(r: i128) -> u64 {
    if r <= 0 {
        0
    } else {
        ((r + 1) / 2).min(u64::MAX as i128) as u64
    }
}

fn clamp_lo(r: i128) -> u64 {
    r.max(0).min(u64::MAX as i128) as u64
}

/// `[lo, hi]` split into the values below `x` and `x` itself (values above `x` are not needed: hi <= x).
fn split_at(lo: u64, hi: u64, x: u64) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    if x > 0 && lo <= hi.min(x - 1) {
        out.push((lo, hi.min(x - 1)));
    }
    if lo <= x && x <= hi {
        out.push((x, x));
    }
    out
}

/// A winning move of CN(6,4), or `None` for a P-position. For each window (four consecutive stacks,
/// the other two kept), the common difference δ of the target either keeps the kept stacks as the
/// smaller of their pairs (δ >= 0) or as the larger (δ < 0); in both cases one free stack u remains and
/// the nim-sum condition fixes the rest, so a u with `u ^ A <= B`, `u & A >= C` in a range is searched
/// bit by bit.
pub fn cn64_move(p: &[u64]) -> Option<Pos> {
    if cn64_is_p(p) {
        return None;
    }
    for s in 0..6 {
        let x: Vec<u64> = (0..6).map(|i| p[(s + i) % 6]).collect();
        let (x4, x5) = (x[4] as i128, x[5] as i128);
        let unrotate = |t: [u64; 4]| -> Pos {
            let mut q = p.to_vec();
            for (i, v) in t.iter().enumerate() {
                q[(s + i) % 6] = *v;
            }
            q
        };
        let accept = |q: &Pos| q != p && cn64_is_p(q) && q.iter().zip(p).all(|(a, b)| a <= b);
        // δ >= 0: t1 = u, t2 = x4 + x5 - u, t3 = u ^ x5, t0 = t3 + x4 - u.
        let build_a = |u: u64| -> Option<Pos> {
            let t3 = u ^ x[5];
            let t0 = t3 as i128 + x4 - u as i128;
            let t2 = x4 + x5 - u as i128;
            (t0 >= 0 && t2 >= 0 && t0 <= u64::MAX as i128 && t2 <= u64::MAX as i128)
                .then(|| unrotate([t0 as u64, u, t2 as u64, t3]))
        };
        let lo = clamp_lo(x4 + x5 - x[2] as i128);
        let hi = x[4].min(x[1]);
        let c = half_up(x4 + x5 - x[0] as i128);
        // Exclude u = x1 (the only value that can leave t1 unchanged) and try it separately.
        for (l, h) in split_at(lo, hi, x[1]) {
            if let Some(u) = digit_search(l, h, x[5], x[3], c) {
                if let Some(q) = build_a(u) {
                    if accept(&q) {
                        return Some(q);
                    }
                }
            }
        }
        // δ < 0: t2 = v, t1 = x4 + x5 - v, t0 = x4 ^ v, t3 = t0 + x5 - v, with v < x5.
        if x[5] == 0 {
            continue;
        }
        let build_b = |v: u64| -> Option<Pos> {
            let t0 = x[4] ^ v;
            let t1 = x4 + x5 - v as i128;
            let t3 = t0 as i128 + x5 - v as i128;
            (t1 <= u64::MAX as i128 && t3 <= u64::MAX as i128)
                .then(|| unrotate([t0, t1 as u64, v, t3 as u64]))
        };
        let lo = clamp_lo(x4 + x5 - x[1] as i128);
        let hi = (x[5] - 1).min(x[2]);
        let c = half_up(x4 + x5 - x[3] as i128);
        for (l, h) in split_at(lo, hi, x[2]) {
            if let Some(v) = digit_search(l, h, x[4], x[0], c) {
                if let Some(q) = build_b(v) {
                    if accept(&q) {
                        return Some(q);
                    }
                }
            }
        }
    }
    None
}

impl Theorem for Cn64 {
    fn id(&self) -> &'static str {
        "cn-6-4"
    }
    fn games(&self) -> &'static str {
        "CN(6,4)"
    }
    fn statement(&self) -> &'static str {
        "In CN(6,4) the P-positions are (a, b+q, c, a+q, b, c+q), q >= 0, up to rotation and reflection, with a xor b xor c = 0: opposite stacks differ by the same amount with alternating sign, and the smaller stacks of the three opposite pairs have nim-sum 0."
    }
    fn source(&self) -> &'static str {
        "Oginuma & Shinoda, Shrinking Circular Nim (2024), Thm 3.6 (Dufour & Heubach 2013); see docs/rules.md#theorem-cn-6-4"
    }
    fn play(&self) -> Play {
        Play::Normal
    }
    fn scope(&self) -> Scope {
        Scope::Complete
    }
    fn covers(&self, game: &dyn Game) -> bool {
        game.downcast_ref::<nimlab_games::CircularNim>()
            .is_some_and(|g| (g.n, g.k) == (6, 4))
    }
    fn decide(&self, _game: &dyn Game, p: &[u64]) -> Option<Verdict> {
        let label = "(a,b+q,c,a+q,b,c+q), a^b^c=0".to_string();
        let pairs = |x: &[u64]| {
            format!(
                "opposite pairs ({},{}), ({},{}), ({},{}): differences {}, {}, {}; smaller stacks {} xor {} xor {} = {}",
                x[0],
                x[3],
                x[1],
                x[4],
                x[2],
                x[5],
                x[0] as i128 - x[3] as i128,
                x[4] as i128 - x[1] as i128,
                x[2] as i128 - x[5] as i128,
                x[0].min(x[3]),
                x[1].min(x[4]),
                x[2].min(x[5]),
                x[0].min(x[3]) ^ x[1].min(x[4]) ^ x[2].min(x[5])
            )
        };
        if cn64_is_p(p) {
            return Some(Verdict {
                is_p: true,
                winning_moves: Some(vec![]),
                family: Some(label),
                reason: Some(format!(
                    "P: {} (stacks 1-4, 2-5, 3-6 are opposite); the differences agree and the nim-sum is 0",
                    pairs(p)
                )),
                ..Default::default()
            });
        }
        let mv = cn64_move(p);
        let reason = match &mv {
            Some(q) => format!(
                "N: {}; the move to {} gives {}",
                pairs(p),
                nimlab_core::position::format_tuple(q),
                pairs(q)
            ),
            None => format!("N: {}", pairs(p)),
        };
        Some(Verdict {
            is_p: false,
            winning_moves: mv.map(|q| vec![q]),
            family: Some(label),
            reason: Some(reason),
            ..Default::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digit_search_finds_witnesses() {
        for lo in 0..20u64 {
            for hi in lo..20 {
                for a in 0..8u64 {
                    for b in 0..8u64 {
                        for c in 0..5u64 {
                            let want = (lo..=hi).find(|&u| u ^ a <= b && u & a >= c);
                            let got = digit_search(lo, hi, a, b, c);
                            assert_eq!(got.is_some(), want.is_some(), "{lo} {hi} {a} {b} {c}");
                            if let Some(u) = got {
                                assert!(lo <= u && u <= hi && u ^ a <= b && u & a >= c);
                            }
                        }
                    }
                }
            }
        }
    }
}
